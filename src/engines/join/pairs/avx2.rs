//! The pair count compiled for AVX2: each 512-bit AND two instructions, popcounts by nibble
//! lookups (`vpshufb`) added bytewise and summed with `vpsadbw`.

use std::arch::x86_64::*;

use super::keymap::KeyMap;
use super::lanes::{combo, half, low_bits, Lanes, Span};
use super::{
    Lists,
    count_chunks, each_pattern, pext_readers, sliced, table_readers, Course, Pattern, Readers,
    Scratch, COMBOS,
};
use crate::system::isa::{self, Avx2};

/// [`super::sliced`] with this file's batch count, its keys read by `pext` where that is fast.
pub(super) fn count_sliced(
    proof: Avx2,
    lists: Lists,
    c: Course,
    s: &mut Scratch,
) -> u64 {
    count_reading(proof, lists, c, s, isa::fast_pext())
}

/// [`count_sliced`], its keys read by `pext` or by tables as `pext` says.
pub(super) fn count_reading(
    _: Avx2,
    lists: Lists,
    c: Course,
    s: &mut Scratch,
    pext: bool,
) -> u64 {
    // SAFETY: the token proves that the CPU has AVX2, popcnt and BMI2.
    unsafe { sliced_avx2(lists, c, s, pext) }
}

#[target_feature(enable = "avx2,popcnt,bmi2")]
fn sliced_avx2(
    lists: Lists,
    c: Course,
    s: &mut Scratch,
    pext: bool,
) -> u64 {
    // Closures, not functions passed by name: those are called through shims compiled without
    // AVX2 (seen in `perf`: SSE2 code); a closure made here inherits the features.
    let count = |ch, keys: &[u64], combos: &[Lanes], base: &Lanes| {
        count_chunks!(ch, count_batch, keys, combos, base)
    };
    if pext {
        sliced(lists, c, s, pext_readers!(), count)
    } else {
        sliced(lists, c, s, table_readers!(), count)
    }
}

/// The batch count in AVX2 registers: two 256-bit vectors per combination, popcounts by nibble
/// lookups (`vpshufb`) added bytewise and summed with `vpsadbw`.
/// Keys whose byte counts (at most 16 per byte and key) add up in one byte.
const KEYS_PER_SUM: usize = 15;

/// [`super::portable::count_batch`] in AVX2 registers, each 512-bit AND two instructions.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn count_batch<const CH: usize>(short: &[u64], combos: &[Lanes], base: &Lanes) -> u64 {
    let combos = &combos[..CH * COMBOS];
    let load = |lanes: &Lanes| {
        // SAFETY: `lanes` is 64 readable bytes; the loads need no alignment.
        unsafe {
            let p: *const __m256i = lanes.as_ptr().cast();
            (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1)))
        }
    };
    let nibbles = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
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

/// [`count_batch`] behind this path's proof, for the tests.
#[cfg(test)]
pub(super) fn count_batch_of<const CH: usize>(
    _: Avx2,
    short: &[u64],
    combos: &[Lanes],
    base: &Lanes,
) -> u64 {
    // SAFETY: the token proves that the CPU has AVX2.
    unsafe { count_batch::<CH>(short, combos, base) }
}
