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
//! With AVX-512 (and its popcount) one `b` is a handful of instructions for 512 pairs; the
//! function is compiled for that, for AVX2, and for plain x86-64, and picks at run time.

/// Keys per batch: one 512-bit vector per bit position.
pub(crate) const BATCH: usize = 512;
const WORDS: usize = BATCH / 64;
const CHUNK: u32 = 6;
const COMBOS: usize = 1 << CHUNK;
/// The most chunks a key can have (64 bits).
const MAX_CHUNKS: usize = 11;
/// The most pivot bits the batches are sorted by. Long lists have the batches to tell many
/// patterns apart: n = 25's hold millions of keys, and with at most 8 pivots a shard of it
/// (`count 25 --shard 3/10000 -j 2`, Zen 4) took 201.7 s of CPU, with 14 113.0 s.
/// `estimate 27 -j 2 --seconds 60 --seed 5` (the same draws): 12.9 CPU-core-years with 8,
/// 4.28 with 12, 3.24 with 14, 3.29 with 16.
const MAX_PIVOTS: usize = 14;
/// A key's pivot bits, packed: its pattern.
type Pattern = u16;
/// When the AVX2 and portable counts sort by pivots: from 2,048 pairs per key (measured with
/// AVX2 on a Zen 3).
const SORT: SortWhen = SortWhen(2048);
/// When the AVX-512 count sorts by pivots: from 1,024 pairs per key, as measured with it on a
/// Zen 4 (`hyperfine`, `count N -j 1 -q`, n = 17, 18, 19: 575 ms, 1.88 s, 9.31 s against
/// 588 ms, 2.03 s, 9.21 s for 2,048). The rule it replaced, 32 batches of the long list, left
/// the quarter turn's shorter lists unsorted: 3.38 s at n = 18, 13.2 s at n = 19.
const SORT_AVX512: SortWhen = SortWhen(1024);
/// Short keys a pattern holds at least, on average.
const SHORT_PER_PATTERN: usize = 32;
/// Keys of each list looked at to choose the pivots.
const PIVOT_SAMPLE: usize = 1024;
/// What setting up one batch (its transpose and tables) costs, in keys counted against it:
/// measured on n = 19's lists, where 240 to 1,200 did the same.
const SETUP_KEYS: usize = 480;
/// Below this many pairs the plain loop is faster than building a batch.
const PLAIN_BELOW: usize = 4096;

/// 512 bits: one per key of a batch, on a cache line of their own. A batch's tables are read
/// 512 bits at a time, and a read across two lines costs about twice one within a line: with the
/// tables' lines where the allocator happened to put them, `count 19 -j 1` took 8.3 s or 7.2 s
/// from one build to the next (AVX-512, Zen 4), with the code of the count unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(C, align(64))]
struct Lanes([u64; WORDS]);

impl Lanes {
    /// No key.
    const NONE: Lanes = Lanes([0; WORDS]);
    /// Every key.
    const ALL: Lanes = Lanes([u64::MAX; WORDS]);
}

impl std::ops::Deref for Lanes {
    type Target = [u64; WORDS];
    fn deref(&self) -> &[u64; WORDS] {
        &self.0
    }
}

impl std::ops::DerefMut for Lanes {
    fn deref_mut(&mut self) -> &mut [u64; WORDS] {
        &mut self.0
    }
}

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
        }
    }
}

/// The key readers of a pivoted count by [`KeyMap`]'s tables: a key's kept bits, the patterns
/// of a list. Macros (this one and `pext_readers`) so that the closures are made inside the
/// function that uses them and inherit its CPU features.
macro_rules! table_readers {
    () => {
        (
            |map: &KeyMap, key: u64| map.word(key) & low_bits(64 - map.k),
            |map: &KeyMap, keys: &[u64], out: &mut [Pattern]| {
                each_pattern(keys, out, |key| map.pattern(key))
            },
        )
    };
}

/// The key readers of a pivoted count by `pext` (BMI2): a key's kept bits, the patterns of a
/// list.
#[cfg(target_arch = "x86_64")]
macro_rules! pext_readers {
    () => {
        (
            |map: &KeyMap, key: u64| _pext_u64(key, map.kept_mask),
            |map: &KeyMap, keys: &[u64], out: &mut [Pattern]| {
                each_pattern(keys, out, |key| {
                    usize::from(map.order[_pext_u64(key, map.pivot_mask) as usize])
                })
            },
        )
    };
}

/// Writes `pattern` of each of `keys` to `out`, key by key.
#[inline(always)]
fn each_pattern(keys: &[u64], out: &mut [Pattern], pattern: impl Fn(u64) -> usize) {
    for (p, &key) in out.iter_mut().zip(keys) {
        *p = pattern(key) as Pattern;
    }
}

/// [`KeyMap::pattern`] of each of `keys` to `out`, eight keys at a time by AVX-512 BITALG's bit
/// shuffle (`vpshufbitqmb`): byte j of each 64-bit lane of the index names the key bit that
/// becomes bit j of the lane's pattern byte, so the mask it returns is the eight keys' patterns
/// in order; a second shuffle reads pattern bits 8 and up, when there are more than eight.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bitalg")]
#[inline]
fn patterns_bitalg(map: &KeyMap, keys: &[u64], out: &mut [Pattern]) {
    use std::arch::x86_64::{
        _mm512_bitshuffle_epi64_mask, _mm512_loadu_si512, _mm512_set1_epi64, _mm_cvtsi64_si128,
        _mm_storeu_si128, _mm_unpacklo_epi8,
    };
    // Pattern bit j is pivot k - 1 - j; the bits above the pattern read bit 0 and are cleared
    // (`within`), so a key may hold any bit.
    let k = map.k as usize;
    let index = |from: usize| {
        let mut index = [0u8; 8];
        for (j, byte) in (from..k).zip(&mut index) {
            *byte = map.pivots[k - 1 - j] as u8;
        }
        _mm512_set1_epi64(i64::from_le_bytes(index))
    };
    let within = |from: usize| {
        let bits = k.saturating_sub(from).min(8);
        u64::from_le_bytes([((1u16 << bits) - 1) as u8; 8])
    };
    let (low, high) = (index(0), index(8));
    let (within_low, within_high) = (within(0), within(8));
    let (whole, rest) = keys.as_chunks::<8>();
    let (out_whole, out_rest) = out[..keys.len()].split_at_mut(whole.len() * 8);
    for (eight, out) in whole.iter().zip(out_whole.chunks_exact_mut(8)) {
        // SAFETY: `eight` is 64 readable bytes; the load takes any alignment.
        let v = unsafe { _mm512_loadu_si512(eight.as_ptr().cast()) };
        let low = _mm512_bitshuffle_epi64_mask(v, low) & within_low;
        let high = if k > 8 {
            _mm512_bitshuffle_epi64_mask(v, high) & within_high
        } else {
            0
        };
        // Byte i of each mask is key i's pattern's low and high byte: interleaved, they are
        // the eight patterns.
        let both = _mm_unpacklo_epi8(
            _mm_cvtsi64_si128(low as i64),
            _mm_cvtsi64_si128(high as i64),
        );
        // SAFETY: `out` is eight patterns, 16 writable bytes; the store needs no alignment.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), both) };
    }
    each_pattern(rest, out_rest, |key| map.pattern(key));
}

/// Pairs `(x, y)` of `a` × `b` with `x & y == 0`, by testing each: the reference.
pub(crate) fn count_plain(a: &[u64], b: &[u64]) -> u64 {
    a.iter()
        .map(|&x| b.iter().map(|&y| u64::from(x & y == 0)).sum::<u64>())
        .sum()
}

/// Pairs `(x, y)` of `a` × `b` with `x & y == 0`, where every key is below `2^bits` (bits ≤ 64).
pub(crate) fn count_disjoint(a: &[u64], b: &[u64], bits: u32, scratch: &mut Scratch) -> u64 {
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
        return count_plain(a, b);
    }
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let c = (sample, counting);
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512() {
            // SAFETY: the CPU has every feature the function is compiled for (`has_avx512`
            // checks its `target_feature` list).
            return unsafe { sliced_avx512(long, short, bits, c, scratch) };
        }
        if has_avx2() {
            // SAFETY: as above, with `has_avx2`.
            return unsafe { sliced_avx2(long, short, bits, c, scratch, fast_pext()) };
        }
    }
    sliced(
        long,
        short,
        bits,
        (c, SORT),
        scratch,
        table_readers!(),
        portable,
    )
}

/// When a count sorts its lists by pivots: from this many pairs per key, (long × short) /
/// (long + short), as the sorts cost per key and the pivots save per pair.
#[derive(Debug, Clone, Copy)]
struct SortWhen(usize);

impl SortWhen {
    /// Whether lists of these lengths are sorted.
    #[inline(always)]
    fn sorts(self, long: usize, short: usize) -> bool {
        long * short >= self.0 * (long + short)
    }
}

/// Whether this CPU has the features of [`sliced_avx512`], which the AVX-512 keeping loops of
/// the quarter joins (`half.rs`) also take (they need only AVX-512 F and popcnt). BITALG comes
/// with VPOPCNTDQ and BW on every CPU that has them (Ice Lake and later, Zen 4 and later), so
/// asking for it turns none away. Asked once:
/// the quarter joins ask a few times each, and three features' checks were 0.9% of `count
/// 17`'s instructions.
#[cfg(target_arch = "x86_64")]
pub(super) fn has_avx512() -> bool {
    use std::arch::is_x86_feature_detected as has;
    static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HAS.get_or_init(|| {
        has!("avx512f")
            && has!("avx512vpopcntdq")
            && has!("avx512bw")
            && has!("avx512vl")
            && has!("avx512bitalg")
            && has!("popcnt")
            && has!("bmi2")
    })
}

/// The instructions the pair counter and the quarter joins run with on this CPU (the choice of
/// [`count_sample`] and `half.rs`).
#[cfg(any(test, feature = "cli"))]
pub(crate) fn instructions() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512() {
            return "avx512 (f, bw, vl, vpopcntdq, bitalg), bmi2";
        }
        if has_avx2() {
            return if fast_pext() {
                "avx2, bmi2"
            } else {
                "avx2, bmi2 (pext by tables: slow on this CPU)"
            };
        }
    }
    "portable"
}

/// Whether this CPU has the features of [`sliced_avx2`] (asked once, as [`has_avx512`]).
#[cfg(target_arch = "x86_64")]
pub(super) fn has_avx2() -> bool {
    use std::arch::is_x86_feature_detected as has;
    static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HAS.get_or_init(|| has!("avx2") && has!("popcnt") && has!("bmi2"))
}

/// Whether `pext` is fast on this CPU: on every x86-64 CPU with BMI2 but AMD's (and Hygon's)
/// before Zen 3 (family 0x19), which run it in microcode (tens to hundreds of cycles, by published
/// instruction tables).
#[cfg(target_arch = "x86_64")]
fn fast_pext() -> bool {
    static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FAST.get_or_init(|| {
        use std::arch::x86_64::__cpuid;
        const AMD: u32 = u32::from_le_bytes(*b"Auth");
        const HYGON: u32 = u32::from_le_bytes(*b"Hygo");
        let vendor = __cpuid(0).ebx;
        let eax = __cpuid(1).eax;
        let base = eax >> 8 & 0xf;
        let family = base + if base == 0xf { eax >> 20 & 0xff } else { 0 };
        !((vendor == AMD || vendor == HYGON) && family < 0x19)
    })
}

/// How one count goes: the batches it does, and what it calls when they begin.
type Course<'a> = (Sample, &'a mut dyn FnMut());

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq,avx512bw,avx512vl,avx512bitalg,popcnt,bmi2")]
fn sliced_avx512(long: &[u64], short: &[u64], bits: u32, c: Course, s: &mut Scratch) -> u64 {
    use std::arch::x86_64::_pext_u64;
    let count = |ch, keys: &[u64], combos: &[Lanes], base: &Lanes| {
        count_chunks!(ch, avx512::count_batch, keys, combos, base)
    };
    let kept = pext_readers!().0;
    let patterns =
        |map: &KeyMap, keys: &[u64], out: &mut [Pattern]| patterns_bitalg(map, keys, out);
    sliced(
        long,
        short,
        bits,
        (c, SORT_AVX512),
        s,
        (kept, patterns),
        count,
    )
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi2")]
fn sliced_avx2(
    long: &[u64],
    short: &[u64],
    bits: u32,
    c: Course,
    s: &mut Scratch,
    pext: bool,
) -> u64 {
    use std::arch::x86_64::_pext_u64;
    // Closures, not functions passed by name: those are called through shims compiled without
    // AVX2 (seen in `perf`: SSE2 code); a closure made here inherits the features.
    let count = |ch, keys: &[u64], combos: &[Lanes], base: &Lanes| {
        count_chunks!(ch, avx2::count_batch, keys, combos, base)
    };
    if pext {
        sliced(long, short, bits, (c, SORT), s, pext_readers!(), count)
    } else {
        sliced(long, short, bits, (c, SORT), s, table_readers!(), count)
    }
}

/// [`count_batch`] with the number of chunks made a constant.
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

/// The portable count of one batch, any number of chunks.
#[inline(always)]
fn portable(chunks: usize, short: &[u64], combos: &[Lanes], base: &Lanes) -> u64 {
    count_chunks!(chunks, count_batch, short, combos, base)
}

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
    long: &[u64],
    short: &[u64],
    bits: u32,
    ((sample, counting), when): (Course, SortWhen),
    s: &mut Scratch,
    (kept, patterns_of): (
        impl Fn(&KeyMap, u64) -> u64,
        impl Fn(&KeyMap, &[u64], &mut [Pattern]),
    ),
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
    sort_by_pattern(long, patterns, k, (sorted_long, counters, starts));
    let (patterns, words) = (slots(patterns, short.len()), slots(words, short.len()));
    patterns_of(map, short, patterns);
    for (w, &key) in words.iter_mut().zip(short) {
        *w = kept(map, key);
    }
    let sorted_short = slots(sorted_short, short.len());
    sort_by_pattern(words, patterns, k, (sorted_short, counters, starts));
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
            }
            j = ((j | common) + 1) & !common;
        }
    }
    total
}

/// How the keys of a pivoted count are read: each key's *word* holds its pattern (its pivot
/// bits, the first pivot highest) in its top `k` bits and below them its *kept* bits (neither
/// pivots nor absent from every short key) packed together, bit `i` of the packing being bit
/// `positions[i]` of the key. Read by table lookups a byte at a time ([`KeyMap::word`]) or, where
/// the CPU has a fast one ([`fast_pext`]), with `pext` and one lookup.
#[derive(Clone)]
pub(crate) struct KeyMap {
    bytes: [[u64; 256]; 8],
    /// Bytes of a key that hold bits: the tables read.
    key_bytes: usize,
    positions: [u8; 64],
    /// The pivots, first (highest pattern bit) first.
    pivots: [u32; MAX_PIVOTS],
    k: u32,
    pivot_mask: u64,
    kept_mask: u64,
    /// Pattern of the pivot bits of a key as `pext` packs them (in order of position).
    order: Vec<Pattern>,
}

impl KeyMap {
    /// The map of `bits`-bit keys with these `pivots`, keeping the other bits of `seen`.
    #[inline(always)]
    fn set(&mut self, bits: u32, pivots: &[u32], seen: u64) {
        let k = pivots.len() as u32;
        let mut word_of = [0u64; 64];
        for (q, &p) in pivots.iter().enumerate() {
            word_of[p as usize] = 1 << (63 - q as u32);
        }
        self.pivot_mask = pivots.iter().fold(0, |m, &p| m | 1 << p);
        self.kept_mask = seen & low_bits(bits) & !self.pivot_mask;
        let mut kept = 0;
        for p in 0..bits {
            if self.kept_mask >> p & 1 != 0 {
                word_of[p as usize] = 1 << kept;
                self.positions[kept] = p as u8;
                kept += 1;
            }
        }
        self.k = k;
        self.pivots[..pivots.len()].copy_from_slice(pivots);
        self.key_bytes = bits.div_ceil(8) as usize;
        for (b, table) in self.bytes.iter_mut().enumerate().take(self.key_bytes) {
            fill_by_bits(table, |i| word_of[b * 8 + i]);
        }
        // Pivot bits in order of position, each with its pattern bit.
        let mut by_position = [0u32; MAX_PIVOTS];
        by_position[..pivots.len()].copy_from_slice(pivots);
        by_position[..pivots.len()].sort_unstable();
        fill_by_bits(slots(&mut self.order, 1 << k), |i| {
            (word_of[by_position[i] as usize] >> (64 - k)) as Pattern
        });
    }

    /// The pattern of `key`: its pivot bits, the first pivot highest.
    #[inline(always)]
    fn pattern(&self, key: u64) -> usize {
        let mut pattern = 0;
        for &p in &self.pivots[..self.k as usize] {
            pattern = pattern << 1 | (key >> p & 1) as usize;
        }
        pattern
    }

    /// The bit of the keys that each packed bit is, in order.
    fn positions(&self) -> &[u8] {
        &self.positions[..self.kept_mask.count_ones() as usize]
    }

    /// The word of `key`, by tables.
    #[inline(always)]
    fn word(&self, key: u64) -> u64 {
        let mut w = 0;
        for (b, table) in self.bytes[..self.key_bytes].iter().enumerate() {
            w |= table[(key >> (8 * b)) as u8 as usize];
        }
        w
    }
}

/// Fills `table[v]` with the OR of `of(i)` over the bits i of v, each entry from the one without
/// its lowest bit.
fn fill_by_bits<T: Copy + Default + std::ops::BitOr<Output = T>>(
    table: &mut [T],
    of: impl Fn(usize) -> T,
) {
    table[0] = T::default();
    for v in 1..table.len() {
        table[v] = table[v & (v - 1)] | of(v.trailing_zeros() as usize);
    }
}

/// The `k` bit positions where a key of `long` and one of `short` most often both have their bit
/// (estimated on some [`PIVOT_SAMPLE`] keys of each, spread evenly over it: the first ones come
/// from a few column sets, or for odd boards from one middle row, and would choose worse), most
/// frequent first.
#[inline(always)]
fn choose_pivots(long: &[u64], short: &[u64], k: usize) -> [u32; MAX_PIVOTS] {
    let sample = |keys: &[u64]| {
        let step = keys.len().div_ceil(PIVOT_SAMPLE).max(1);
        bit_frequencies(keys.iter().step_by(step).copied())
    };
    let (fl, fs) = (sample(long), sample(short));
    let mut score: [(u64, u32); 64] = std::array::from_fn(|b| (fl[b] * fs[b], b as u32));
    score.sort_unstable_by(|x, y| y.cmp(x));
    let mut pivots = [0u32; MAX_PIVOTS];
    for (p, &(_, b)) in pivots.iter_mut().zip(&score[..k]) {
        *p = b;
    }
    pivots
}

/// How many of `keys` have each bit, without a branch per bit: eight counters of eight bytes,
/// counter j's byte b counting bit 8b + j, emptied into the sums every 255 keys.
#[inline(always)]
fn bit_frequencies(keys: impl Iterator<Item = u64>) -> [u64; 64] {
    const BYTES: u64 = 0x0101_0101_0101_0101;
    let mut sums = [0u64; 64];
    let mut counters = [0u64; 8];
    let mut empty = |counters: &mut [u64; 8]| {
        for (j, counter) in counters.iter_mut().enumerate() {
            for b in 0..8 {
                sums[8 * b + j] += *counter >> (8 * b) & 0xff;
            }
            *counter = 0;
        }
    };
    let mut held = 0;
    for key in keys {
        for (j, counter) in counters.iter_mut().enumerate() {
            *counter += key >> j & BYTES;
        }
        held += 1;
        if held == 255 {
            empty(&mut counters);
            held = 0;
        }
    }
    empty(&mut counters);
    sums
}

/// Counters of the pattern sort that keys take in turn ([`sort_by_pattern`]).
const SORT_LANES: usize = 4;

/// Copies `values` into `out` (as long) ordered by their `patterns` (same index; a counting sort
/// over `2^k` patterns with `counters`), and writes where each pattern starts (and, last, the
/// end) to the first `2^k + 1` of `starts`.
///
/// Keys go through [`SORT_LANES`] interleaved counters (key i through counter i mod SORT_LANES, each
/// pattern's slots split among them in order), so that a run of keys with one pattern does not
/// wait, key after key, on the counter the previous key stored.
#[inline(always)]
fn sort_by_pattern(
    values: &[u64],
    patterns: &[Pattern],
    k: usize,
    (out, counters, starts): (&mut [u64], &mut Vec<[usize; SORT_LANES]>, &mut Vec<usize>),
) {
    let patterns = &patterns[..values.len()];
    // A pattern's counters side by side: laid out lane by lane (each lane's 2^k, padded),
    // `count 18 -j 1` took 1.059 × 310c2be's time against 1.025 × this way (8 rounds in turns).
    let next = slots(counters, 1 << k);
    next.fill([0; SORT_LANES]);
    by_lane(patterns.len(), |lane, i| {
        next[usize::from(patterns[i])][lane] += 1
    });
    // Turn the counts into first slots: pattern by pattern, lane by lane.
    let starts = slots(starts, (1 << k) + 1);
    let mut first = 0;
    for (j, counters) in next.iter_mut().enumerate() {
        starts[j] = first;
        for counter in counters {
            let count = *counter;
            *counter = first;
            first += count;
        }
    }
    starts[1 << k] = first;
    // Every slot is written (the sort is a permutation): what `out` held is not zeroed first.
    by_lane(values.len(), |lane, i| {
        let slot = &mut next[usize::from(patterns[i])][lane];
        out[*slot] = values[i];
        *slot += 1;
    });
}

/// Calls `f(lane, i)` for every key `i` below `len` with its counter in [`sort_by_pattern`],
/// `i` mod [`SORT_LANES`]: whole groups of them (a loop the compiler unrolls), then the rest.
#[inline(always)]
fn by_lane(len: usize, mut f: impl FnMut(usize, usize)) {
    let whole = len - len % SORT_LANES;
    for group in (0..whole).step_by(SORT_LANES) {
        for lane in 0..SORT_LANES {
            f(lane, group + lane);
        }
    }
    for i in whole..len {
        f(i - whole, i);
    }
}

/// The first `len` slots of `v`, which grows (zeroed) when it is shorter and never shrinks: a
/// buffer reused from call to call is zeroed once, not by every call that needs more of it than
/// the one before (a `memset` a call).
#[inline(always)]
pub(super) fn slots<T: Copy + Default>(v: &mut Vec<T>, len: usize) -> &mut [T] {
    if v.len() < len {
        v.resize(len, T::default());
    }
    &mut v[..len]
}

/// The batch transposed: for each bit position p, the keys of the batch lacking bit p (slots of a
/// short batch lack none), and the keys present.
///
/// The eight 64-key groups of the batch are transposed side by side, one lane each, so every
/// step of the transpose is one 512-bit operation.
#[inline(always)]
fn transpose_batch(batch: &[u64], bits: u32) -> ([Lanes; 64], Lanes) {
    // lacks[i][w]: key i of group w, inverted; after the transpose, lacks[p][w] holds the keys
    // of group w that lack bit p.
    let mut lacks = [Lanes::NONE; 64];
    let mut present = Lanes::NONE;
    for (w, group) in batch.chunks(64).enumerate() {
        for (row, &key) in lacks.iter_mut().zip(group) {
            row[w] = !key & low_bits(bits);
        }
        present[w] = low_bits(group.len() as u32);
    }
    transpose(&mut lacks);
    (lacks, present)
}

/// Fills `combos[c * 64 + x]` with the batch keys lacking every bit of `x` in chunk `c` of the
/// keys read as `positions` (bit i of chunk c is bit `positions[6c + i]` of the batch's keys):
/// each the AND of one of 8 combinations of the chunk's low three bits and one of its high three.
#[inline(always)]
fn fill_combos(lacks: &[Lanes; 64], positions: &[u8], combos: &mut [Lanes]) {
    let lack = |i: usize| positions.get(i).map_or(Lanes::ALL, |&p| lacks[p as usize]);
    for c in 0..chunks(positions.len()) {
        let i = c * CHUNK as usize;
        let mut low = [Lanes::ALL; 8];
        let mut high = [Lanes::ALL; 8];
        for b in 0..3 {
            for x in 1 << b..2 << b {
                low[x] = and(low[x ^ 1 << b], lack(i + b));
                high[x] = and(high[x ^ 1 << b], lack(i + 3 + b));
            }
        }
        for (x, combo) in combos[c * COMBOS..][..COMBOS].iter_mut().enumerate() {
            *combo = and(low[x & 7], high[x >> 3]);
        }
    }
}

/// Transposes eight 64×64 bit matrices side by side, lane `w` of every row the row of matrix `w`:
/// bit p of row i becomes bit i of row p.
///
/// Six rounds of block swaps (Hacker's Delight, 7-3): the round of width j swaps, for every pair
/// of rows k and k + j (bit j of k clear), the columns of row k with bit j set against the
/// columns of row k + j with bit j clear.
#[inline(always)]
fn transpose(a: &mut [Lanes; 64]) {
    let mut j = 32;
    let mut m = 0x0000_0000_FFFF_FFFFu64;
    while j != 0 {
        for k in 0..64 {
            if k & j == 0 {
                let (low, high) = a.split_at_mut(k | j);
                for (x, y) in low[k].iter_mut().zip(high[0].iter_mut()) {
                    let t = ((*x >> j) ^ *y) & m;
                    *x ^= t << j;
                    *y ^= t;
                }
            }
        }
        j >>= 1;
        m ^= m << j;
    }
}

#[inline(always)]
fn low_bits(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

#[inline(always)]
fn and(a: Lanes, b: Lanes) -> Lanes {
    Lanes(std::array::from_fn(|i| a[i] & b[i]))
}

/// Words in a 256-bit half of a batch.
const HALF: usize = WORDS / 2;

/// Where a base's keys lie in its batch: every version of the batch count counts a half of the
/// batch that holds none of them not at all (sorted batches often have one: 44% of the batch ×
/// short-key steps of `count 18` and of `count 19`, counted with 4b7a3cc's code), and the other
/// one alone, with 256-bit operations where it has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Span {
    /// No key.
    Empty,
    /// Keys only in the half that starts at this word (0 or [`HALF`]).
    Half(usize),
    /// Keys in both halves.
    Whole,
}

impl Lanes {
    /// Where the keys of `self` lie in the batch.
    #[inline(always)]
    fn span(&self) -> Span {
        let holds = |words: &[u64]| words.iter().any(|&w| w != 0);
        match (holds(&self[..HALF]), holds(&self[HALF..])) {
            (false, false) => Span::Empty,
            (true, false) => Span::Half(0),
            (false, true) => Span::Half(HALF),
            (true, true) => Span::Whole,
        }
    }
}

/// The 256-bit half of `lanes` that starts at word `at` ([`Span::Half`]).
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx")]
fn half(lanes: &Lanes, at: usize) -> std::arch::x86_64::__m256i {
    let words = &lanes[at..at + HALF];
    // SAFETY: `words` is 32 readable bytes; the load needs no alignment.
    unsafe { std::arch::x86_64::_mm256_loadu_si256(words.as_ptr().cast()) }
}

/// The precomputed AND of the batch's "lacks" vectors for chunk `c` of `key`.
#[inline(always)]
fn combo(combos: &[Lanes], c: usize, key: u64) -> &Lanes {
    &combos[c * COMBOS + ((key >> (c as u32 * CHUNK)) as usize & (COMBOS - 1))]
}

/// Σ over `short` of the keys of `base` (of the batch) disjoint from it, with `CH` chunks per key.
#[inline(always)]
fn count_batch<const CH: usize>(short: &[u64], combos: &[Lanes], base: &Lanes) -> u64 {
    match base.span() {
        Span::Empty => 0,
        Span::Whole => count_words::<CH, 0, WORDS>(short, combos, base),
        Span::Half(0) => count_words::<CH, 0, HALF>(short, combos, base),
        Span::Half(_) => count_words::<CH, HALF, WORDS>(short, combos, base),
    }
}

/// [`count_batch`] over the words `FROM..TO` of the batch.
#[inline(always)]
fn count_words<const CH: usize, const FROM: usize, const TO: usize>(
    short: &[u64],
    combos: &[Lanes],
    base: &Lanes,
) -> u64 {
    let combos = &combos[..CH * COMBOS];
    let mut sums = [0u64; WORDS];
    for &key in short {
        let mut acc = *base;
        for c in 0..CH {
            let combo = combo(combos, c, key);
            for i in FROM..TO {
                acc[i] &= combo[i];
            }
        }
        for i in FROM..TO {
            sums[i] += u64::from(acc[i].count_ones());
        }
    }
    sums.iter().sum()
}

/// The batch count in AVX-512 registers: one 512-bit vector per combination, `vpopcntq`.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::{combo, half, Lanes, Span, COMBOS};

    /// [`super::count_batch`], each 512-bit AND one instruction; a base in one half of the batch
    /// ([`Span`]) with 256-bit ones (a Zen 4 runs a 512-bit operation as two 256-bit halves).
    #[inline]
    #[target_feature(enable = "avx512f,avx512vpopcntdq,avx512vl,avx2")]
    pub(super) fn count_batch<const CH: usize>(
        short: &[u64],
        combos: &[Lanes],
        base: &Lanes,
    ) -> u64 {
        let combos = &combos[..CH * COMBOS];
        let load = |lanes: &Lanes| {
            // SAFETY: `lanes` is 64 readable bytes; the load needs no alignment.
            unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) }
        };
        match base.span() {
            Span::Empty => 0,
            Span::Whole => {
                let base = load(base);
                let mut sums = _mm512_setzero_si512();
                for &key in short {
                    let mut acc = base;
                    for c in 0..CH {
                        acc = _mm512_and_si512(acc, load(combo(combos, c, key)));
                    }
                    sums = _mm512_add_epi64(sums, _mm512_popcnt_epi64(acc));
                }
                _mm512_reduce_add_epi64(sums) as u64
            }
            Span::Half(at) => {
                let base = half(base, at);
                let mut sums = _mm256_setzero_si256();
                for &key in short {
                    let mut acc = base;
                    for c in 0..CH {
                        acc = _mm256_and_si256(acc, half(combo(combos, c, key), at));
                    }
                    sums = _mm256_add_epi64(sums, _mm256_popcnt_epi64(acc));
                }
                let mut lanes = [0u64; 4];
                // SAFETY: `lanes` is 32 writable bytes.
                unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sums) };
                lanes.iter().sum()
            }
        }
    }
}

/// The batch count in AVX2 registers: two 256-bit vectors per combination, popcounts by nibble
/// lookups (`vpshufb`) added bytewise and summed with `vpsadbw`.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{combo, half, Lanes, Span, COMBOS};

    /// Keys whose byte counts (at most 16 per byte and key) add up in one byte.
    const KEYS_PER_SUM: usize = 15;

    /// [`super::count_batch`], each 512-bit AND two instructions.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn count_batch<const CH: usize>(
        short: &[u64],
        combos: &[Lanes],
        base: &Lanes,
    ) -> u64 {
        let combos = &combos[..CH * COMBOS];
        let load = |lanes: &Lanes| {
            // SAFETY: `lanes` is 64 readable bytes; the loads need no alignment.
            unsafe {
                let p: *const __m256i = lanes.as_ptr().cast();
                (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1)))
            }
        };
        let nibbles = _mm256_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2,
            3, 3, 4,
        );
        let low = _mm256_set1_epi8(0x0f);
        let ones = |v: __m256i| {
            let a = _mm256_shuffle_epi8(nibbles, _mm256_and_si256(v, low));
            let b = _mm256_shuffle_epi8(nibbles, _mm256_and_si256(_mm256_srli_epi16(v, 4), low));
            _mm256_add_epi8(a, b)
        };
        match base.span() {
            Span::Empty => 0,
            Span::Whole => {
                let base = load(base);
                tally(short, |key| {
                    let (mut x, mut y) = base;
                    for c in 0..CH {
                        let next = load(combo(combos, c, key));
                        x = _mm256_and_si256(x, next.0);
                        y = _mm256_and_si256(y, next.1);
                    }
                    _mm256_add_epi8(ones(x), ones(y))
                })
            }
            // One 256-bit AND per chunk.
            Span::Half(at) => {
                let base = half(base, at);
                tally(short, |key| {
                    let mut x = base;
                    for c in 0..CH {
                        x = _mm256_and_si256(x, half(combo(combos, c, key), at));
                    }
                    ones(x)
                })
            }
        }
    }

    /// Σ over `short` of the byte counts that `counts` gives each key (at most 16 a byte), added
    /// bytewise and summed every [`KEYS_PER_SUM`] keys.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn tally(short: &[u64], counts: impl Fn(u64) -> __m256i) -> u64 {
        let mut sums = _mm256_setzero_si256();
        for keys in short.chunks(KEYS_PER_SUM) {
            let mut bytes = _mm256_setzero_si256();
            for &key in keys {
                bytes = _mm256_add_epi8(bytes, counts(key));
            }
            sums = _mm256_add_epi64(sums, _mm256_sad_epu8(bytes, _mm256_setzero_si256()));
        }
        let mut lanes = [0u64; 4];
        // SAFETY: `lanes` is 32 writable bytes.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sums) };
        lanes.iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names, in the test log, the vector paths this CPU lets the tests check against the
    /// portable code (a CPU without AVX2 or AVX-512 checks the portable path only). Written to
    /// stderr directly, past the test harness's capture, so that a CI log shows it.
    #[test]
    fn the_simd_paths_tested_here_are_named() {
        use std::io::Write;
        #[cfg(target_arch = "x86_64")]
        let paths = [("avx512", has_avx512()), ("avx2", has_avx2())]
            .iter()
            .filter(|(_, has)| *has)
            .map(|(name, _)| *name)
            .chain(["portable"])
            .collect::<Vec<_>>()
            .join(", ");
        #[cfg(not(target_arch = "x86_64"))]
        let paths = "portable";
        let line = format!(
            "SIMD paths tested on this CPU: {paths} (the join runs {}; the backtrack {})\n",
            instructions(),
            crate::kernel::instructions()
        );
        let _ = std::io::stderr().write_all(line.as_bytes());
        assert!(!instructions().is_empty());
    }
    use proptest::prelude::*;

    /// The count of every version this CPU can run, not only the one `count_disjoint` picks.
    fn every_path(
        long: &[u64],
        short: &[u64],
        bits: u32,
        s: &mut Scratch,
    ) -> Vec<(&'static str, u64)> {
        let mut counts = vec![(
            "portable",
            sliced(
                long,
                short,
                bits,
                ((Sample::ALL, &mut || ()), SORT),
                s,
                table_readers!(),
                portable,
            ),
        )];
        #[cfg(target_arch = "x86_64")]
        {
            if has_avx2() {
                for (path, pext) in [("avx2, tables", false), ("avx2, pext", true)] {
                    // SAFETY: the CPU has the features the function is compiled for.
                    let c: Course = (Sample::ALL, &mut || ());
                    let count = unsafe { sliced_avx2(long, short, bits, c, s, pext) };
                    counts.push((path, count));
                }
            }
            if has_avx512() {
                // SAFETY: as above.
                let count =
                    unsafe { sliced_avx512(long, short, bits, (Sample::ALL, &mut || ()), s) };
                counts.push(("avx512", count));
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
        let mut rng = crate::rng::SplitMix64(5);
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
            prop_assert!(SORT_AVX512.sorts(long.len(), short.len()));
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
        let c: Course = (Sample::ALL, &mut || ());
        let whole = sliced(
            &long,
            &short,
            40,
            (c, unsorted),
            &mut s,
            table_readers!(),
            portable,
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
            assert_eq!(count_batch::<3>(&short, &combos, &base), one_by_one);
            #[cfg(target_arch = "x86_64")]
            if has_avx2() {
                // SAFETY: the CPU has AVX2.
                let avx2 = unsafe { avx2::count_batch::<3>(&short, &combos, &base) };
                assert_eq!(avx2, one_by_one);
            }
            #[cfg(target_arch = "x86_64")]
            if has_avx512() {
                // SAFETY: the CPU has AVX-512 F, VPOPCNTDQ and VL.
                let avx512 = unsafe { avx512::count_batch::<3>(&short, &combos, &base) };
                assert_eq!(avx512, one_by_one);
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
}
