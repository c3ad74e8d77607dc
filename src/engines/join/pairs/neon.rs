//! The pair count compiled for NEON (aarch64's AdvSIMD): each 512-bit AND four 128-bit ones,
//! popcounts by `vcntq_u8` (one count per byte), added bytewise over a few keys and widened by
//! pairwise adds (`vpaddlq`) only then.

use std::arch::aarch64::*;

use super::lanes::{combo, low_bits, Lanes, Span};
use super::{
    Lists,
    count_chunks, each_pattern, sliced, table_readers, Course, KeyMap, Pattern, Readers, Scratch,
    COMBOS,
};
use crate::system::isa::Neon;

/// [`super::sliced`] with this file's batch count, its keys read by [`KeyMap`]'s tables (NEON
/// has no bit gather).
pub(super) fn count_sliced(
    _: Neon,
    lists: Lists,
    c: Course,
    s: &mut Scratch,
) -> u64 {
    // SAFETY: the token proves that the CPU has NEON.
    unsafe { sliced_neon(lists, c, s) }
}

#[target_feature(enable = "neon")]
fn sliced_neon(lists: Lists, c: Course, s: &mut Scratch) -> u64 {
    let count = |ch, keys: &[u64], combos: &[Lanes], base: &Lanes| {
        count_chunks!(ch, count_batch, keys, combos, base)
    };
    sliced(lists, c, s, table_readers!(), count)
}

/// Keys whose byte counts add up in one byte: a key's four vectors count at most 32 a byte.
const KEYS_PER_SUM: usize = 7;

/// [`super::portable::count_batch`] in NEON registers: the 128-bit vectors of the batch that the
/// base's keys lie in ([`Span`]), two or four.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn count_batch<const CH: usize>(short: &[u64], combos: &[Lanes], base: &Lanes) -> u64 {
    match base.span() {
        Span::Empty => 0,
        Span::Whole => count_vectors::<CH, 0, 4>(short, combos, base),
        Span::Half(0) => count_vectors::<CH, 0, 2>(short, combos, base),
        Span::Half(_) => count_vectors::<CH, 2, 4>(short, combos, base),
    }
}

/// [`count_batch`] over the 128-bit vectors `FROM..TO` of the batch.
#[inline]
#[target_feature(enable = "neon")]
fn count_vectors<const CH: usize, const FROM: usize, const TO: usize>(
    short: &[u64],
    combos: &[Lanes],
    base: &Lanes,
) -> u64 {
    let combos = &combos[..CH * COMBOS];
    let load = |lanes: &Lanes, v: usize| {
        // SAFETY: vector v of 0..4 is 16 of the 64 readable bytes of `lanes`.
        unsafe { vld1q_u8(lanes.as_ptr().cast::<u8>().add(16 * v)) }
    };
    let base: [uint8x16_t; 4] = std::array::from_fn(|v| load(base, v));
    let mut sums = vdupq_n_u64(0);
    for keys in short.chunks(KEYS_PER_SUM) {
        let mut bytes = vdupq_n_u8(0);
        for &key in keys {
            let mut acc = base;
            for c in 0..CH {
                let combo = combo(combos, c, key);
                for (v, acc) in acc.iter_mut().enumerate().take(TO).skip(FROM) {
                    *acc = vandq_u8(*acc, load(combo, v));
                }
            }
            for acc in &acc[FROM..TO] {
                bytes = vaddq_u8(bytes, vcntq_u8(*acc));
            }
        }
        sums = vpadalq_u32(sums, vpaddlq_u16(vpaddlq_u8(bytes)));
    }
    vaddvq_u64(sums)
}

/// [`count_batch`] behind this path's proof, for the tests.
#[cfg(test)]
pub(super) fn count_batch_of<const CH: usize>(
    _: Neon,
    short: &[u64],
    combos: &[Lanes],
    base: &Lanes,
) -> u64 {
    // SAFETY: the token proves that the CPU has NEON.
    unsafe { count_batch::<CH>(short, combos, base) }
}
