//! The pair counter against the plain loop, on every path this CPU can run.

use super::keymap::*;
use super::lanes::*;
use super::*;
use crate::system::isa::Portable;

/// Names, in the test log, the paths this CPU lets the tests check against each other (a CPU
/// without vector paths checks the portable one only). Written to stderr directly, past the
/// test harness's capture, so that a CI log shows it.
#[test]
fn the_simd_paths_tested_here_are_named() {
    use std::io::Write;
    let paths = Isa::all_of_this_cpu()
        .iter()
        .rev()
        .map(|isa| isa.name())
        .collect::<Vec<_>>()
        .join(", ");
    let line = format!(
        "SIMD paths tested on this CPU: {paths} (the join runs {}; the backtrack {})\n",
        crate::system::isa::join(),
        crate::system::isa::backtrack()
    );
    let _ = std::io::stderr().write_all(line.as_bytes());
    assert!(!crate::system::isa::join().is_empty());
}
use proptest::prelude::*;

/// The count of every path this CPU can run, not only the one `count_disjoint` picks (AVX2's
/// with its keys read both ways).
fn every_path(long: &[u64], short: &[u64], bits: u32, s: &mut Scratch) -> Vec<(&'static str, u64)> {
    let mut counts = Vec::new();
    for path in Isa::all_of_this_cpu() {
        let mut counting = || ();
        let c = Course::new(Sample::ALL, &mut counting);
        counts.push((
            path.name(),
            isa::dispatch!(path, count_sliced(Lists { long, short, bits }, c, s)),
        ));
        #[cfg(target_arch = "x86_64")]
        if let Isa::Avx2(proof) = path {
            let mut counting = || ();
            let c = Course::new(Sample::ALL, &mut counting);
            let tables = avx2::count_reading(proof, Lists { long, short, bits }, c, s, false);
            counts.push(("avx2, tables", tables));
        }
    }
    counts
}

/// A stream of sparse 64-bit keys (each bit set with probability 1/4): the AND of two
/// steps of a xorshift generator started from `seed`.
fn sparse_keys(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed | 1;
    move || {
        let mut k = u64::MAX;
        for _ in 0..2 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            k &= x;
        }
        k
    }
}

fn keys(bits: u32, density: u32) -> impl Strategy<Value = Vec<u64>> {
    // Sparse keys (like half placements: about a third of the bits set) give real matches.
    let lists = proptest::collection::vec(
        proptest::collection::vec(0..bits, 0..=density as usize),
        0..1500,
    );
    lists.prop_map(|v| {
        v.into_iter()
            .map(|set| set.into_iter().fold(0u64, |k, b| k | 1 << b))
            .collect()
    })
}

#[test]
fn bit_frequencies_count_each_bit_past_the_byte_counters() {
    // 600 keys: the byte counters are emptied twice on the way.
    let mut rng = crate::util::rng::SplitMix64(5);
    let keys: Vec<u64> = (0..600)
        .map(|_| rng.next() & rng.next() | 1 << 63)
        .collect();
    let f = bit_frequencies(keys.iter().copied());
    for (b, &count) in f.iter().enumerate() {
        let naive = keys.iter().filter(|&&k| k >> b & 1 != 0).count() as u64;
        assert_eq!(count, naive, "bit {b}");
    }
    assert_eq!(f[63], 600);
    assert_eq!(bit_frequencies(std::iter::empty()), [0; 64]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn bit_sliced_agrees_with_the_plain_loop(
        (bits, a, b) in (1u32..=62).prop_flat_map(|bits| {
            let d = (bits / 3).max(1);
            (Just(bits), keys(bits, d), keys(bits, d))
        })
    ) {
        let mut s = Scratch::default();
        prop_assert_eq!(count_disjoint(&a, &b, bits, &mut s), count_plain(&a, &b));
        let (long, short) = if a.len() >= b.len() { (&a, &b) } else { (&b, &a) };
        for (path, count) in every_path(long, short, bits, &mut s) {
            prop_assert_eq!(count, count_plain(&a, &b), "{}", path);
        }
    }
}

#[test]
fn transpose_moves_bit_p_of_row_i_to_bit_i_of_row_p_in_every_lane() {
    let rows: [Lanes; 64] = std::array::from_fn(|i| {
        Lanes(std::array::from_fn(|w| {
            (i as u64 * 8 + w as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        }))
    });
    let mut t = rows;
    transpose(&mut t);
    for (i, row) in rows.iter().enumerate() {
        for (p, column) in t.iter().enumerate() {
            for w in 0..WORDS {
                assert_eq!(
                    column[w] >> i & 1,
                    row[w] >> p & 1,
                    "row {i}, bit {p}, lane {w}"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]
    #[test]
    fn long_lists_sorted_by_pivots_agree_with_the_plain_loop(
        seed in any::<u64>(),
        bits in 20u32..=64,
        long_len in 16_384usize..20_000,
        short_len in 2_500usize..6_000,
        stride in 1usize..40,
    ) {
        let mut stream = sparse_keys(seed);
        let mut key = || stream() & low_bits(bits);
        let long: Vec<u64> = (0..long_len).map(|_| key()).collect();
        let short: Vec<u64> = (0..short_len).map(|_| key()).collect();
        let mut s = Scratch::default();
        let whole = count_plain(&long, &short);
        prop_assert_eq!(count_disjoint(&long, &short, bits, &mut s), whole);
        for (path, count) in every_path(&long, &short, bits, &mut s) {
            prop_assert_eq!(count, whole, "{}", path);
        }
        prop_assert!(SORT.sorts(long.len(), short.len()));
        #[cfg(target_arch = "x86_64")]
        prop_assert!(avx512::SORT_AVX512.sorts(long.len(), short.len()));
        // The `stride` samples of the batches add up to the whole, sorted or not.
        for cut in [long.len(), 3_000] {
            let long = &long[..cut];
            let mut sum = 0;
            for offset in 0..stride {
                let sample = Sample { offset, stride };
                let mut called = 0;
                sum += count_sample(&short, long, bits, &mut s, sample, &mut || called += 1);
                prop_assert_eq!(called, 1);
            }
            prop_assert_eq!(sum, count_plain(long, &short));
        }
    }
}

/// Lists long enough for more than eight pivots (patterns of two bytes, their second byte
/// read by a second bit shuffle with AVX-512) count on every path what they count unsorted.
#[test]
fn patterns_of_more_than_eight_pivots_count_alike_on_every_path() {
    let mut stream = sparse_keys(0x2545_f491_4f6c_dd1d);
    let mut key = || stream() & low_bits(40);
    let long: Vec<u64> = (0..300_000).map(|_| key()).collect();
    let short: Vec<u64> = (0..40_000).map(|_| key()).collect();
    let mut s = Scratch::default();
    let unsorted = SortWhen(1 << 40);
    let c = Course {
        sample: Sample::ALL,
        counting: &mut || (),
        when: unsorted,
    };
    let whole = portable::count_sliced(
        Portable::ANY,
        Lists {
            long: &long,
            short: &short,
            bits: 40,
        },
        c,
        &mut s,
    );
    assert!(whole > 0);
    for (path, count) in every_path(&long, &short, 40, &mut s) {
        assert_eq!(count, whole, "{path}");
        assert_eq!(s.map.k, 11, "{path}");
    }
}

/// Keys of 64 bits, the highest among them, sorted by pivots: every path (the AVX-512 one
/// reads patterns with a bit shuffle whose spare index bytes name bit 0) counts as the
/// plain loop.
#[test]
fn keys_with_the_highest_bit_sort_alike_on_every_path() {
    // Bit 63 where bit 0 is set: a quarter of the keys.
    let mut stream = sparse_keys(0x9e37_79b9_7f4a_7c15);
    let mut key = || {
        let k = stream();
        k | (k & 1) << 63
    };
    let long: Vec<u64> = (0..17_000).map(|_| key()).collect();
    let short: Vec<u64> = (0..3_000).map(|_| key()).collect();
    assert!(long.iter().filter(|&&k| k >> 63 == 1).count() > 1_000);
    let mut s = Scratch::default();
    let whole = count_plain(&long, &short);
    assert!(whole > 0);
    for (path, count) in every_path(&long, &short, 64, &mut s) {
        assert_eq!(count, whole, "{path}");
    }
}

/// The batch counts (portable, and AVX2 and AVX-512 where the CPU has them) of a base with
/// an empty half, with none and with both, against the batch keys counted one by one.
#[test]
fn half_batches_are_counted_as_the_keys_one_by_one() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let combos: Vec<Lanes> = (0..3 * COMBOS)
        .map(|_| Lanes(std::array::from_fn(|_| next() | next())))
        .collect();
    let short: Vec<u64> = (0..100).map(|_| next()).collect();
    let full = Lanes(std::array::from_fn(|_| next()));
    for base in [full, keep(full, 0..4), keep(full, 4..8), Lanes::NONE] {
        // Batch key i meets short key `key` when every combination of its chunks has bit i.
        let has = |lanes: &Lanes, i: usize| lanes[i / 64] >> (i % 64) & 1 != 0;
        let one_by_one: u64 = (0..BATCH)
            .filter(|&i| has(&base, i))
            .map(|i| {
                let meets = |&key: &u64| {
                    let chunk = |c: usize| (key >> (CHUNK as usize * c)) as usize % COMBOS;
                    (0..3).all(|c| has(&combos[c * COMBOS + chunk(c)], i))
                };
                short.iter().filter(|key| meets(key)).count() as u64
            })
            .sum();
        for path in Isa::all_of_this_cpu() {
            let got = isa::dispatch!(path, count_batch_of::<3>(&short, &combos, &base));
            assert_eq!(got, one_by_one, "{}", path.name());
        }
    }
    /// `lanes` with only its words `words` kept.
    fn keep(lanes: Lanes, words: std::ops::Range<usize>) -> Lanes {
        Lanes(std::array::from_fn(|w| {
            if words.contains(&w) {
                lanes[w]
            } else {
                0
            }
        }))
    }
}

#[test]
fn full_width_keys() {
    let a: Vec<u64> = (0..700u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .collect();
    let b: Vec<u64> = (0..300u64).map(|i| 1u64 << (i % 64)).collect();
    let mut s = Scratch::default();
    assert_eq!(count_disjoint(&a, &b, 64, &mut s), count_plain(&a, &b));
}
