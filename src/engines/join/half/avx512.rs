//! [`super::keep_part`] and [`super::keep_clear`] eight at a time with AVX-512, as `avx2`'s four at a time,
//! but for the store: the values kept are compressed to the front of a register, which is
//! stored whole at the cursor (up to [`SPARE`] slots past the last one kept are written).

use std::arch::x86_64::*;

use super::vector::lanes_part_key;
use super::{Diagonals, North, Quadrants, Side, Slot, South, View, Window, SPARE};

super::vector::entries!(Avx512, Avx512, "avx512f,avx2,popcnt");

/// Compresses the lanes of `value` that `kept` says to the front of the register and stores
/// it whole at `to` (a masked store was slower); returns how many were kept.
///
/// # Safety
/// Slots `to..to + 8` must be writable.
#[inline]
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn store_kept(to: *mut u64, value: __m512i, kept: __mmask8) -> usize {
    // SAFETY: as the caller says; the store needs no alignment.
    unsafe { _mm512_storeu_si512(to.cast(), _mm512_maskz_compress_epi64(kept, value)) };
    kept.count_ones() as usize
}

/// [`super::keep_each`] eight items at a time: `keep` gives, for eight items side by side
/// of which those in its second argument exist, the values to store and which to keep.
/// The last one to seven items are loaded with a mask (what lies beyond is not read).
/// Returns how many were kept; `out` has room for `items.len()` slots and [`SPARE`] more:
/// the kept values are stored as a whole vector ([`store_kept`]).
#[inline]
#[target_feature(enable = "avx512f,popcnt")]
fn keep_each(
    items: &[u64],
    out: &mut [u64],
    mut keep: impl FnMut(__m512i, __mmask8) -> (__m512i, __mmask8),
) -> usize {
    assert!(out.len() >= items.len() + SPARE);
    let mut len = 0;
    let mut step = |v: __m512i, valid: __mmask8| {
        let (value, kept) = keep(v, valid);
        // SAFETY: len is at most the items before these, so slots len..len + 8 lie in
        // `out`.
        len += unsafe { store_kept(out.as_mut_ptr().add(len), value, kept) };
    };
    let mut chunks = items.chunks_exact(8);
    for chunk in &mut chunks {
        // SAFETY: a chunk is eight readable slots; the load needs no alignment.
        step(unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) }, 0xff);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let valid = ((1u32 << rest.len()) - 1) as __mmask8;
        // SAFETY: only the lanes that exist are read.
        step(
            unsafe { _mm512_maskz_loadu_epi64(valid, rest.as_ptr().cast()) },
            valid,
        );
    }
    len
}

/// [`super::keep_part`] eight `placements` at a time ([`keep_each`]): each eight
/// unpacked, moved down `r` rows and keyed side by side.
#[inline]
#[target_feature(enable = "avx512f,popcnt")]
fn keep_part_in(
    q: &Quadrants,
    placements: &[u64],
    r: u32,
    forbid: Diagonals,
    View { window, side }: View,
    keys: &mut [u64],
) -> usize {
    let (d1_bits, rows) = q.packing();
    let set = |x: u64| _mm512_set1_epi64(x as i64);
    let count = |x: u32| _mm_cvtsi32_si128(x as i32);
    let (d1_bits, forbid1, forbid2) = (set(d1_bits), set(forbid.0), set(forbid.1));
    let same = forbid.0 == forbid.1;
    let (down1, down2) = (count(r), count(rows + r));
    let key = lanes_part_key!(
        (window, side),
        (set, count),
        (_mm512_and_si512, _mm512_or_si512),
        (_mm512_srl_epi64, _mm512_sll_epi64)
    );
    keep_each(placements, keys, |p, valid| {
        let a = _mm512_sll_epi64(_mm512_and_si512(p, d1_bits), down1);
        let b = _mm512_sll_epi64(_mm512_srli_epi64::<32>(p), down2);
        // One mask both ways (all but an even board's starts): one test.
        let kept = if same {
            _mm512_mask_testn_epi64_mask(valid, _mm512_or_si512(a, b), forbid1)
        } else {
            let clear1 = _mm512_mask_testn_epi64_mask(valid, a, forbid1);
            _mm512_mask_testn_epi64_mask(clear1, b, forbid2)
        };
        (key(a, b), kept)
    })
}

/// [`super::candidates`] eight placements of the longer side at a time, against each one of
/// the shorter (a unit's west joins are short on both sides, and eights of the longer side
/// leave fewer lanes idle than eights of the south side): the
/// eight candidates made side by side, those that fit stored at the cursor ([`store_kept`]),
/// which then moves past them. The last one to seven are loaded with a mask.
#[inline]
#[target_feature(enable = "avx512f,popcnt")]
fn candidates_in(north: &North, south: &South, keys: &mut [Slot]) -> usize {
    let south_keys = &south.keys[..south.len];
    let (wide, each) = if north.keys.len() > south_keys.len() {
        (north.keys, south_keys)
    } else {
        (south_keys, north.keys)
    };
    let n = wide.len();
    let (whole, rest) = (n - n % 8, n % 8);
    let tail = ((1u32 << rest) - 1) as __mmask8;
    let shown = _mm512_set1_epi64(south.shown as i64);
    let mut len = 0;
    for &a in each {
        // A row's steps write within `len..len + n` and up to SPARE slots past it.
        assert!(len + n + SPARE <= keys.len());
        let a = _mm512_set1_epi64(a as i64);
        // Eight candidates, of which those in `valid` exist, kept at `len`.
        let mut step = |b: __m512i, valid: __mmask8, len: usize| {
            let fits = _mm512_mask_testn_epi64_mask(valid, a, b);
            let key = _mm512_and_si512(_mm512_or_si512(a, b), shown);
            // SAFETY: slots len..len + 8 lie in `keys`: at most the row's placements so far
            // are kept, and the row's check above says.
            unsafe { store_kept(keys.as_mut_ptr().add(len).cast(), key, fits) }
        };
        for i in (0..whole).step_by(8) {
            // SAFETY: slots i..i + 8 are placements; the load needs no alignment.
            len += step(
                unsafe { _mm512_loadu_si512(wide[i..i + 8].as_ptr().cast()) },
                0xff,
                len,
            );
        }
        if rest != 0 {
            // SAFETY: only the lanes that exist are read.
            let b = unsafe { _mm512_maskz_loadu_epi64(tail, wide[whole..].as_ptr().cast()) };
            len += step(b, tail, len);
        }
    }
    len
}

/// [`super::keep_clear`] eight `keys` at a time ([`keep_each`]).
#[target_feature(enable = "avx512f,popcnt")]
fn keep_clear_in(keys: &[u64], forbid: u64, drop: u64, out: &mut [u64]) -> usize {
    let (forbid, drop) = (_mm512_set1_epi64(forbid as i64), _mm512_set1_epi64(drop as i64));
    keep_each(keys, out, |k, valid| {
        let kept = _mm512_mask_testn_epi64_mask(valid, k, forbid);
        (_mm512_andnot_si512(drop, k), kept)
    })
}
