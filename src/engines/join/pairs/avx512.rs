//! The pair count compiled for AVX-512: each 512-bit AND one instruction, `vpopcntq`, and the
//! patterns of eight keys at a time by BITALG's bit shuffle.

use std::arch::x86_64::*;

use super::keymap::KeyMap;
use super::lanes::{combo, half, Lanes, Span};
use super::{
    Lists,
    count_chunks, each_pattern, pext_readers, sliced, Course, Pattern, Readers, Scratch, SortWhen,
    COMBOS,
};
use crate::system::isa::Avx512;

/// When the AVX-512 count sorts by pivots: from 1,024 pairs per key, as its cheaper batches
/// repay the sort sooner than the other paths' (`super::SORT`). A rule by the long list's
/// batches alone would leave the quarter turn's shorter lists unsorted.
pub(super) const SORT_AVX512: SortWhen = SortWhen(1024);

/// [`KeyMap::pattern`] of each of `keys` to `out`, eight keys at a time by AVX-512 BITALG's bit
/// shuffle (`vpshufbitqmb`): byte j of each 64-bit lane of the index names the key bit that
/// becomes bit j of the lane's pattern byte, so the mask it returns is the eight keys' patterns
/// in order; a second shuffle reads pattern bits 8 and up, when there are more than eight.
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

/// [`super::sliced`] with this file's batch count and patterns.
pub(super) fn count_sliced(
    _: Avx512,
    lists: Lists,
    c: Course,
    s: &mut Scratch,
) -> u64 {
    // SAFETY: the token proves that the CPU has every feature `sliced_avx512` is compiled for.
    unsafe { sliced_avx512(lists, c, s) }
}

#[target_feature(enable = "avx512f,avx512vpopcntdq,avx512bw,avx512vl,avx512bitalg,popcnt,bmi2")]
fn sliced_avx512(
    lists: Lists,
    c: Course,
    s: &mut Scratch,
) -> u64 {
    let count = |ch, keys: &[u64], combos: &[Lanes], base: &Lanes| {
        count_chunks!(ch, count_batch, keys, combos, base)
    };
    let kept = pext_readers!().kept;
    let patterns =
        |map: &KeyMap, keys: &[u64], out: &mut [Pattern]| patterns_bitalg(map, keys, out);
    sliced(
        lists,
        Course {
            when: SORT_AVX512,
            ..c
        },
        s,
        Readers {
            kept,
            patterns_of: patterns,
        },
        count,
    )
}

/// [`super::portable::count_batch`] in AVX-512 registers, each 512-bit AND one instruction; a base in one half of the batch
/// ([`Span`]) with 256-bit ones (some CPUs run a 512-bit operation as two 256-bit halves, so
/// half the width costs half the time there).
#[inline]
#[target_feature(enable = "avx512f,avx512vpopcntdq,avx512vl,avx2")]
pub(super) fn count_batch<const CH: usize>(short: &[u64], combos: &[Lanes], base: &Lanes) -> u64 {
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

/// [`count_batch`] behind this path's proof, for the tests.
#[cfg(test)]
pub(super) fn count_batch_of<const CH: usize>(
    _: Avx512,
    short: &[u64],
    combos: &[Lanes],
    base: &Lanes,
) -> u64 {
    // SAFETY: the token proves that the CPU has the features.
    unsafe { count_batch::<CH>(short, combos, base) }
}
