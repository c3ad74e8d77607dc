//! A batch as a bit matrix: 512 keys side by side ([`Lanes`]), transposed so that each bit
//! position is one 512-bit vector of the keys that lack it, and the per-chunk tables of ANDs.

use super::{chunks, CHUNK, COMBOS, WORDS};

/// 512 bits: one per key of a batch, on a cache line of their own. A batch's tables are read
/// 512 bits at a time, and a read across two lines costs about twice one within a line, so an
/// unaligned table makes the count's speed depend on where the allocator put it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(C, align(64))]
pub(super) struct Lanes(pub(super) [u64; WORDS]);

impl Lanes {
    /// No key.
    pub(super) const NONE: Lanes = Lanes([0; WORDS]);
    /// Every key.
    pub(super) const ALL: Lanes = Lanes([u64::MAX; WORDS]);
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

/// The batch transposed: for each bit position p, the keys of the batch lacking bit p (slots of a
/// short batch lack none), and the keys present.
///
/// The eight 64-key groups of the batch are transposed side by side, one lane each, so every
/// step of the transpose is one 512-bit operation.
#[inline(always)]
pub(super) fn transpose_batch(batch: &[u64], bits: u32) -> ([Lanes; 64], Lanes) {
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
pub(super) fn fill_combos(lacks: &[Lanes; 64], positions: &[u8], combos: &mut [Lanes]) {
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
pub(super) fn transpose(a: &mut [Lanes; 64]) {
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
pub(super) fn low_bits(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

#[inline(always)]
pub(super) fn and(a: Lanes, b: Lanes) -> Lanes {
    Lanes(std::array::from_fn(|i| a[i] & b[i]))
}

/// Words in a 256-bit half of a batch.
pub(super) const HALF: usize = WORDS / 2;

/// Where a base's keys lie in its batch: every version of the batch count counts a half of the
/// batch that holds none of them not at all (sorted batches often have one: a base's keys are
/// near each other), and the other one alone, with 256-bit operations where it has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Span {
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
    pub(super) fn span(&self) -> Span {
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
pub(super) fn half(lanes: &Lanes, at: usize) -> std::arch::x86_64::__m256i {
    let words = &lanes[at..at + HALF];
    // SAFETY: `words` is 32 readable bytes; the load needs no alignment.
    unsafe { std::arch::x86_64::_mm256_loadu_si256(words.as_ptr().cast()) }
}

/// The precomputed AND of the batch's "lacks" vectors for chunk `c` of `key`.
#[inline(always)]
pub(super) fn combo(combos: &[Lanes], c: usize, key: u64) -> &Lanes {
    &combos[c * COMBOS + ((key >> (c as u32 * CHUNK)) as usize & (COMBOS - 1))]
}
