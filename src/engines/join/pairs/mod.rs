//! Counting disjoint pairs: how many (a, b) with `a` from one list and `b` from another share no bit.
//!
//! This is where the join engine spends its time. The plain loop tests every pair. The bit-sliced
//! count takes one list 512 keys at a time (the longer one, or for short lists whichever needs
//! fewer batches' set-ups for the pairs) and transposes the batch: for each bit position
//! p, a 512-bit vector `lacks[p]` says which keys of the batch do not have bit p. A key `b` of the
//! other list is disjoint from exactly the batch keys that lack every bit of `b`: the AND of
//! `lacks[p]` over the bits p of `b`, whose popcount is the answer for 512 pairs at once. The AND is
//! precomputed per 6-bit chunk of the key (64 combinations per chunk), so one `b` costs one
//! 512-bit AND per chunk and one popcount:
//!
//! ```text
//!   key b:   chunk 10 | chunk 9 | ... | chunk 0        (6 bits each, up to 64 bits)
//!   count += popcount( combo[0][b & 63] & combo[1][b >> 6 & 63] & ... )
//! ```
//!
//! With AVX-512 (and its popcount) one `b` is a handful of instructions for 512 pairs. `sliced`
//! is the algorithm; each path file (`portable.rs`, `avx2.rs`, `avx512.rs`, `neon.rs`) gives it
//! its batch count and key readers, and [`crate::system::isa`] picks the path at run time. `lanes.rs` holds the batch's bit matrix and its
//! transpose, `keymap.rs` the pivots and the sort by pattern.

mod keymap;
mod lanes;
#[cfg(test)]
mod tests;

use crate::system::isa::{self, Isa};
isa::paths!();
pub(super) use keymap::slots;
use keymap::{choose_pivots, sort_by_pattern, KeyMap, SORT_LANES};
use lanes::{and, fill_combos, low_bits, transpose_batch, Lanes};

/// Keys per batch: one 512-bit vector per bit position.
pub(crate) const BATCH: usize = 512;
const WORDS: usize = BATCH / 64;
const CHUNK: u32 = 6;
const COMBOS: usize = 1 << CHUNK;
/// The most chunks a key can have (64 bits).
const MAX_CHUNKS: usize = 11;
/// The most pivot bits the batches are sorted by. Long lists have the batches to tell many
/// patterns apart (n = 25's hold millions of keys): fewer pivots leave most pairs of the largest
/// boards unskipped, more gain nothing.
const MAX_PIVOTS: usize = 14;
/// A key's pivot bits, packed: its pattern.
type Pattern = u16;
/// When the AVX2 and portable counts sort by pivots: from 2,048 pairs per key.
const SORT: SortWhen = SortWhen(2048);
/// Short keys a pattern holds at least, on average.
const SHORT_PER_PATTERN: usize = 32;
/// Keys of each list looked at to choose the pivots.
const PIVOT_SAMPLE: usize = 1024;
/// What setting up one batch (its transpose and tables) costs, in keys counted against it (a
/// broad optimum: a half or twice this does the same).
const SETUP_KEYS: usize = 480;
/// Below this many pairs the plain loop is faster than building a batch.
pub(crate) const PLAIN_BELOW: usize = 4096;

/// Work space of the bit-sliced count, reused from call to call (one per thread).
#[derive(Clone)]
pub(crate) struct Scratch {
    combos: Vec<Lanes>,
    long: Vec<u64>,
    short: Vec<u64>,
    words: Vec<u64>,
    patterns: Vec<Pattern>,
    /// The pattern sort's counters, and where each pattern of the short keys starts.
    counters: Vec<[usize; SORT_LANES]>,
    starts: Vec<usize>,
    /// A batch's keys that lack every pivot bit of each pattern.
    bases: Vec<Lanes>,
    map: Box<KeyMap>,
    /// Pairs ANDed so far: a batch's keys times the short keys counted against it (those of
    /// the patterns the pivots do not skip), every pair of a plain count. Added to, never
    /// reset: a caller reads the difference.
    pub(crate) anded: u64,
    /// Pairs tested so far by [`count_disjoint`] (those the pivots skip too), kept alike.
    pub(crate) tested: u64,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            combos: vec![Lanes::NONE; MAX_CHUNKS * COMBOS],
            long: Vec::new(),
            short: Vec::new(),
            words: Vec::new(),
            patterns: Vec::new(),
            counters: Vec::new(),
            starts: Vec::new(),
            bases: Vec::new(),
            map: Box::new(KeyMap {
                bytes: [[0; 256]; 8],
                key_bytes: 0,
                positions: [0; 64],
                pivots: [0; MAX_PIVOTS],
                k: 0,
                pivot_mask: 0,
                kept_mask: 0,
                order: Vec::new(),
            }),
            anded: 0,
            tested: 0,
        }
    }
}

/// The key readers of a pivoted count by [`KeyMap`]'s tables: a key's kept bits, the patterns
/// of a list. Macros (this one and `pext_readers`) so that the closures are made inside the
/// function that uses them and inherit its CPU features.
macro_rules! table_readers {
    () => {
        Readers {
            kept: |map: &KeyMap, key: u64| map.word(key) & low_bits(64 - map.k),
            patterns_of: |map: &KeyMap, keys: &[u64], out: &mut [Pattern]| {
                each_pattern(keys, out, |key| map.pattern(key))
            },
        }
    };
}
use table_readers;

/// The key readers of a pivoted count by `pext` (BMI2): a key's kept bits, the patterns of a
/// list.
#[cfg(target_arch = "x86_64")]
macro_rules! pext_readers {
    () => {
        Readers {
            kept: |map: &KeyMap, key: u64| _pext_u64(key, map.kept_mask),
            patterns_of: |map: &KeyMap, keys: &[u64], out: &mut [Pattern]| {
                each_pattern(keys, out, |key| {
                    usize::from(map.order[_pext_u64(key, map.pivot_mask) as usize])
                })
            },
        }
    };
}
#[cfg(target_arch = "x86_64")]
use pext_readers;

/// How a pivoted count reads its keys: `kept`, a key's bits that are not pivots, and
/// `patterns_of`, the patterns of a list's keys.
pub(super) struct Readers<K, P> {
    pub(super) kept: K,
    pub(super) patterns_of: P,
}

/// Writes `pattern` of each of `keys` to `out`, key by key.
#[inline(always)]
fn each_pattern(keys: &[u64], out: &mut [Pattern], pattern: impl Fn(u64) -> usize) {
    for (p, &key) in out.iter_mut().zip(keys) {
        *p = pattern(key) as Pattern;
    }
}

/// Pairs `(x, y)` of `a` × `b` with `x & y == 0`, by testing each: the reference.
pub(crate) fn count_plain(a: &[u64], b: &[u64]) -> u64 {
    a.iter()
        .map(|&x| b.iter().map(|&y| u64::from(x & y == 0)).sum::<u64>())
        .sum()
}

/// Pairs `(x, y)` of `a` × `b` with `x & y == 0`, where every key is below `2^bits` (bits ≤ 64).
pub(crate) fn count_disjoint(a: &[u64], b: &[u64], bits: u32, scratch: &mut Scratch) -> u64 {
    scratch.tested += (a.len() * b.len()) as u64;
    count_sample(a, b, bits, scratch, Sample::ALL, &mut || ())
}

/// Which batches of the list taken in batches (the longer one, where it is sorted by pivots) a
/// count does: all of them, or (for the estimator) every `stride`-th one, as a count orders
/// them, from the `offset`-th: each batch is in one of the `stride` samples, so their counts
/// (and times) add up to the whole count's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sample {
    /// The first batch, below `stride`.
    pub(crate) offset: usize,
    /// The step from one batch of the sample to the next.
    pub(crate) stride: usize,
}

impl Sample {
    /// Every batch: a whole count.
    pub(crate) const ALL: Sample = Sample {
        offset: 0,
        stride: 1,
    };
}

/// [`count_disjoint`] of the `sample` of the batches of one list (its pairs with the whole
/// other list), calling `counting` once the set-up that a whole count does once (ordering the
/// lists) is done and counting batch by batch begins.
pub(crate) fn count_sample(
    a: &[u64],
    b: &[u64],
    bits: u32,
    scratch: &mut Scratch,
    sample: Sample,
    counting: &mut dyn FnMut(),
) -> u64 {
    debug_assert!(bits <= 64);
    if a.len() * b.len() < PLAIN_BELOW {
        counting();
        scratch.anded += (a.len() * b.len()) as u64;
        return count_plain(a, b);
    }
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let (c, lists) = (Course::new(sample, counting), Lists { long, short, bits });
    isa::dispatch!(Isa::this_cpu(), count_sliced(lists, c, scratch))
}

/// The lists of one count, `long` the one taken in batches unless the count chooses otherwise,
/// and the bits their keys may hold (at most 64).
#[derive(Debug, Clone, Copy)]
pub(super) struct Lists<'a> {
    pub(super) long: &'a [u64],
    pub(super) short: &'a [u64],
    pub(super) bits: u32,
}

/// When a count sorts its lists by pivots: from this many pairs per key, (long × short) /
/// (long + short), as the sorts cost per key and the pivots save per pair.
#[derive(Debug, Clone, Copy)]
pub(super) struct SortWhen(usize);

impl SortWhen {
    /// Whether lists of these lengths are sorted.
    #[inline(always)]
    fn sorts(self, long: usize, short: usize) -> bool {
        long * short >= self.0 * (long + short)
    }
}

/// How one count goes: the batches it does, what it calls when they begin, and from how many
/// pairs per key it sorts its lists (the instruction set's own `SortWhen`).
pub(super) struct Course<'a> {
    pub(super) sample: Sample,
    pub(super) counting: &'a mut dyn FnMut(),
    pub(super) when: SortWhen,
}

impl<'a> Course<'a> {
    /// The batches of `sample`, calling `counting` when they begin, with the lists sorted as
    /// the portable and AVX2 counts sort them (the AVX-512 count sets its own `when`).
    pub(super) fn new(sample: Sample, counting: &'a mut dyn FnMut()) -> Course<'a> {
        Course {
            sample,
            counting,
            when: SORT,
        }
    }
}

/// A batch count (`count_batch` of `portable.rs`, `avx2.rs` or `avx512.rs`) with the number of
/// chunks made a constant.
macro_rules! count_chunks {
    ($chunks:expr, $($f:ident)::+, $($arg:expr),*) => {
        match $chunks {
            0 | 1 => $($f)::+::<1>($($arg),*),
            2 => $($f)::+::<2>($($arg),*),
            3 => $($f)::+::<3>($($arg),*),
            4 => $($f)::+::<4>($($arg),*),
            5 => $($f)::+::<5>($($arg),*),
            6 => $($f)::+::<6>($($arg),*),
            7 => $($f)::+::<7>($($arg),*),
            8 => $($f)::+::<8>($($arg),*),
            9 => $($f)::+::<9>($($arg),*),
            10 => $($f)::+::<10>($($arg),*),
            _ => $($f)::+::<11>($($arg),*),
        }
    };
}
use count_chunks;

/// Chunks that hold `bits` bits (at least one).
#[inline(always)]
fn chunks(bits: usize) -> usize {
    bits.div_ceil(CHUNK as usize).max(1)
}

/// The bit-sliced count: one list in batches (those of the sample), every key of the other
/// against each batch with `count`, the lists sorted by pivots when the path's rule `when` says.
///
/// Lists sorted (n = 18's units, most of n ≥ 20's) are first ordered by *pattern*: the bits each
/// key has among some pivot positions (up to [`MAX_PIVOTS`], more for longer lists), those where
/// a long and a short key most often clash. A batch of the sorted long list then mostly shares
/// the high bits of its pattern. The short keys, ordered by pattern too, are counted a pattern at
/// a time: the batch keys that lack every pivot bit of the pattern are found once for all of
/// them (none, for three short keys in four at n = 20: skipped; the patterns with a bit that
/// every key of the batch has are not even visited), so their own keys keep only the bits that
/// are neither pivots nor absent from every short key, in fewer chunks (5 in place of 7 at n =
/// 20). Lists with fewer pairs per key go straight through, the cheaper one in batches.
#[inline(always)]
fn sliced(
    Lists { long, short, bits }: Lists,
    Course {
        sample,
        counting,
        when,
    }: Course,
    s: &mut Scratch,
    Readers { kept, patterns_of }: Readers<
        impl Fn(&KeyMap, u64) -> u64,
        impl Fn(&KeyMap, &[u64], &mut [Pattern]),
    >,
    count: impl Fn(usize, &[u64], &[Lanes], &Lanes) -> u64,
) -> u64 {
    // Lists not sorted go in batches whichever way costs less, for a whole count (a sample is of
    // the longer list's batches): a batch's set-up costs about SETUP_KEYS keys counted against
    // it, so n = 19's average unit, 4,466 keys against 1,916, costs less in 4 batches of the
    // 1,916 than in 9 of the 4,466.
    let cost =
        |batched: &[u64], other: &[u64]| batched.len().div_ceil(BATCH) * (SETUP_KEYS + other.len());
    let sorts = when.sorts(long.len(), short.len());
    let (long, short) = if sample == Sample::ALL && !sorts && cost(short, long) < cost(long, short)
    {
        (short, long)
    } else {
        (long, short)
    };
    let batches = long.len().div_ceil(BATCH);
    // The sample's batches of `keys` (`long`, or it sorted).
    let sampled = |keys| {
        let stride = sample.stride.max(1);
        (keys as &[u64])
            .chunks(BATCH)
            .skip(sample.offset)
            .step_by(stride)
    };
    let Scratch {
        combos,
        long: sorted_long,
        short: sorted_short,
        words,
        patterns,
        counters,
        starts,
        bases,
        map,
        anded,
        tested: _,
    } = s;
    // Loops, not closures, below: a closure would be compiled without the caller's CPU features.
    if !sorts {
        counting();
        let every_bit: [u8; 64] = std::array::from_fn(|p| p as u8);
        let positions = &every_bit[..bits as usize];
        let chunks = chunks(positions.len());
        let mut total = 0;
        for batch in sampled(long) {
            let (lacks, present) = transpose_batch(batch, bits);
            fill_combos(&lacks, positions, combos);
            total += count(chunks, short, combos, &present);
            *anded += (short.len() * batch.len()) as u64;
        }
        return total;
    }
    // One pivot more than it takes to tell the batches apart, and few enough that a pattern
    // holds some SHORT_PER_PATTERN short keys.
    let log2 = |x: usize| (usize::BITS - x.leading_zeros()) as usize;
    let k = (log2(batches - 1) + 1)
        .min(log2(short.len() / SHORT_PER_PATTERN))
        .clamp(1, MAX_PIVOTS);
    let pivots = choose_pivots(long, short, k);
    map.set(
        bits,
        &pivots[..k],
        short.iter().fold(0, |all, &key| all | key),
    );
    // The long keys as they are, by their pivot bits; the short ones packed. Patterns are read
    // a list at a time (`patterns_of`: eight keys an instruction with AVX-512), the short keys'
    // kept bits in a loop (a closure called per key is made inside the caller and inlined, so
    // it keeps the caller's CPU features).
    patterns_of(map, long, slots(patterns, long.len()));
    let sorted_long = slots(sorted_long, long.len());
    sort_by_pattern(long, patterns, k, sorted_long, counters, starts);
    let (patterns, words) = (slots(patterns, short.len()), slots(words, short.len()));
    patterns_of(map, short, patterns);
    for (w, &key) in words.iter_mut().zip(short) {
        *w = kept(map, key);
    }
    let sorted_short = slots(sorted_short, short.len());
    sort_by_pattern(words, patterns, k, sorted_short, counters, starts);
    let starts = &starts[..=1 << k];
    let positions = map.positions();
    let chunks = chunks(positions.len());
    counting();
    let mut total = 0;
    let bases = slots(bases, 1 << k);
    for batch in sampled(sorted_long) {
        let (lacks, present) = transpose_batch(batch, bits);
        fill_combos(&lacks, positions, combos);
        // Pattern bit i is pivot k - 1 - i; a pattern with a pivot no key of the batch lacks
        // clashes with all of them.
        let mut common = 0usize;
        for (i, &p) in pivots[..k].iter().enumerate() {
            if and(lacks[p as usize], present) == Lanes::NONE {
                common |= 1 << (k - 1 - i);
            }
        }
        // bases[j]: the batch keys that lack every pivot bit of pattern j, made from those of
        // j less its lowest bit, which comes before it; the patterns that clash with the whole
        // batch are passed over (the next pattern without a bit of `common`: add one to the
        // pattern with those bits set, and clear them).
        let mut j = 0;
        while j < 1 << k {
            bases[j] = match j.checked_sub(1) {
                None => present,
                Some(less) => {
                    let i = j.trailing_zeros() as usize;
                    and(bases[j & less], lacks[pivots[k - 1 - i] as usize])
                }
            };
            let (from, to) = (starts[j], starts[j + 1]);
            if from < to && bases[j] != Lanes::NONE {
                total += count(chunks, &sorted_short[from..to], combos, &bases[j]);
                *anded += ((to - from) * batch.len()) as u64;
            }
            j = ((j | common) + 1) & !common;
        }
    }
    total
}
