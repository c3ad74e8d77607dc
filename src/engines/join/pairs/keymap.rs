//! How a pivoted count reads its keys: the pivot bits chosen, each key's pattern and kept bits
//! ([`KeyMap`]), and the lists sorted by pattern.

use super::{low_bits, Pattern, MAX_PIVOTS, PIVOT_SAMPLE};

/// How the keys of a pivoted count are read: each key's *word* holds its pattern (its pivot
/// bits, the first pivot highest) in its top `k` bits and below them its *kept* bits (neither
/// pivots nor absent from every short key) packed together, bit `i` of the packing being bit
/// `positions[i]` of the key. Read by table lookups a byte at a time ([`KeyMap::word`]) or, where
/// the CPU has a fast one ([`fast_pext`]), with `pext` and one lookup.
#[derive(Clone)]
pub(crate) struct KeyMap {
    pub(super) bytes: [[u64; 256]; 8],
    /// Bytes of a key that hold bits: the tables read.
    pub(super) key_bytes: usize,
    pub(super) positions: [u8; 64],
    /// The pivots, first (highest pattern bit) first.
    pub(super) pivots: [u32; MAX_PIVOTS],
    pub(super) k: u32,
    pub(super) pivot_mask: u64,
    pub(super) kept_mask: u64,
    /// Pattern of the pivot bits of a key as `pext` packs them (in order of position).
    pub(super) order: Vec<Pattern>,
}

impl KeyMap {
    /// The map of `bits`-bit keys with these `pivots`, keeping the other bits of `seen`.
    #[inline(always)]
    pub(super) fn set(&mut self, bits: u32, pivots: &[u32], seen: u64) {
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
    pub(super) fn pattern(&self, key: u64) -> usize {
        let mut pattern = 0;
        for &p in &self.pivots[..self.k as usize] {
            pattern = pattern << 1 | (key >> p & 1) as usize;
        }
        pattern
    }

    /// The bit of the keys that each packed bit is, in order.
    pub(super) fn positions(&self) -> &[u8] {
        &self.positions[..self.kept_mask.count_ones() as usize]
    }

    /// The word of `key`, by tables.
    #[inline(always)]
    pub(super) fn word(&self, key: u64) -> u64 {
        let mut w = 0;
        for (b, table) in self.bytes[..self.key_bytes].iter().enumerate() {
            w |= table[(key >> (8 * b)) as u8 as usize];
        }
        w
    }
}

/// Fills `table[v]` with the OR of `of(i)` over the bits i of v, each entry from the one without
/// its lowest bit.
pub(super) fn fill_by_bits<T: Copy + Default + std::ops::BitOr<Output = T>>(
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
pub(super) fn choose_pivots(long: &[u64], short: &[u64], k: usize) -> [u32; MAX_PIVOTS] {
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
pub(super) fn bit_frequencies(keys: impl Iterator<Item = u64>) -> [u64; 64] {
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
pub(super) const SORT_LANES: usize = 4;

/// Copies `values` into `out` (as long) ordered by their `patterns` (same index; a counting sort
/// over `2^k` patterns with `counters`), and writes where each pattern starts (and, last, the
/// end) to the first `2^k + 1` of `starts`.
///
/// Keys go through [`SORT_LANES`] interleaved counters (key i through counter i mod SORT_LANES, each
/// pattern's slots split among them in order), so that a run of keys with one pattern does not
/// wait, key after key, on the counter the previous key stored.
#[inline(always)]
pub(super) fn sort_by_pattern(
    values: &[u64],
    patterns: &[Pattern],
    k: usize,
    out: &mut [u64],
    counters: &mut Vec<[usize; SORT_LANES]>,
    starts: &mut Vec<usize>,
) {
    let patterns = &patterns[..values.len()];
    // A pattern's counters side by side, not lane by lane: one key's counter and the next
    // lane's share a cache line.
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
pub(super) fn by_lane(len: usize, mut f: impl FnMut(usize, usize)) {
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
pub(crate) fn slots<T: Copy + Default>(v: &mut Vec<T>, len: usize) -> &mut [T] {
    if v.len() < len {
        v.resize(len, T::default());
    }
    &mut v[..len]
}
