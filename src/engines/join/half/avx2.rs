//! [`super::candidates`] four south placements at a time: the four candidates made side by side, those
//! that fit moved to the front of the vector (a permutation looked up by which fit) and the
//! whole vector stored at the cursor, which moves past those that fit.

use std::arch::x86_64::*;

use super::vector::lanes_part_key;
use super::{Diagonals, North, Quadrants, Side, Slot, South, View, Window, LANES};

super::vector::entries!(Avx2, Avx2, "avx2,popcnt");

/// For each set of fitting lanes (bit i: lane i), the 32-bit elements that bring those
/// 64-bit lanes to the front, in order.
const FRONT: [[i32; 8]; 16] = {
    let mut table = [[0i32; 8]; 16];
    let mut fits = 0;
    while fits < 16 {
        let (mut lane, mut at) = (0, 0);
        while lane < 4 {
            if fits >> lane & 1 != 0 {
                table[fits][2 * at] = 2 * lane;
                table[fits][2 * at + 1] = 2 * lane + 1;
                at += 1;
            }
            lane += 1;
        }
        fits += 1;
    }
    table
};

/// The permutation of [`FRONT`] for the lanes `fits` (bit i: lane i).
#[inline]
#[target_feature(enable = "avx2")]
fn front(fits: u32) -> __m256i {
    // SAFETY: a row of `FRONT` is 32 readable bytes; the loads need no alignment.
    unsafe { _mm256_loadu_si256(FRONT[fits as usize].as_ptr().cast()) }
}

/// Stores `v` at `to` with the lanes that `front` ([`front`]) brings to the front first, in
/// order: all four slots are written, those past the fitting lanes with whatever.
///
/// # Safety
/// Slots `to..to + LANES` must be writable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store_front(to: *mut u64, v: __m256i, front: __m256i) {
    // SAFETY: as the caller says; the store needs no alignment.
    unsafe { _mm256_storeu_si256(to.cast(), _mm256_permutevar8x32_epi32(v, front)) }
}

/// [`super::keep_each`] four items at a time: `keep` gives, for four items side by side,
/// the values to store and which to keep (lanes of all ones); the values kept are moved to
/// the front (as in [`candidates`]) and stored at the cursor, which moves past them. The
/// last one to three items are loaded alone, masked (what lies beyond is not read).
/// Returns how many were kept; `out` has room for `items.len()` slots and [`LANES`] more.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn keep_each(
    items: &[u64],
    out: &mut [u64],
    mut keep: impl FnMut(__m256i) -> (__m256i, __m256i),
) -> usize {
    assert!(out.len() >= items.len() + LANES);
    // Four items, of which those in `valid` exist, kept at `len`.
    let mut step = |v: __m256i, valid: u32, len: usize| {
        let (value, kept) = keep(v);
        let fits = _mm256_movemask_pd(_mm256_castsi256_pd(kept)) as u32 & valid;
        // SAFETY: len ≤ the items before these, so slots len..len + LANES lie in `out`.
        unsafe { store_front(out.as_mut_ptr().add(len), value, front(fits)) };
        fits.count_ones() as usize
    };
    let mut chunks = items.chunks_exact(LANES);
    let mut len = 0;
    for chunk in &mut chunks {
        // SAFETY: a chunk is LANES readable slots; the load needs no alignment.
        len += step(
            unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) },
            0b1111,
            len,
        );
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        // The lanes that exist, by their sign bits: the others are not read.
        let index = _mm256_set_epi64x(3, 2, 1, 0);
        let lanes = _mm256_cmpgt_epi64(_mm256_set1_epi64x(rest.len() as i64), index);
        // SAFETY: the lanes loaded exist.
        let v = unsafe { _mm256_maskload_epi64(rest.as_ptr().cast(), lanes) };
        len += step(v, (1 << rest.len()) - 1, len);
    }
    len
}

/// [`super::keep_part`] four `placements` at a time ([`keep_each`]): each four unpacked,
/// moved down `r` rows and keyed side by side.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn keep_part_in(
    q: &Quadrants,
    placements: &[u64],
    r: u32,
    forbid: Diagonals,
    View { window, side }: View,
    keys: &mut [u64],
) -> usize {
    let (d1_bits, rows) = q.packing();
    let set = |x: u64| _mm256_set1_epi64x(x as i64);
    let count = |x: u32| _mm_cvtsi32_si128(x as i32);
    let (d1_bits, zero) = (set(d1_bits), _mm256_setzero_si256());
    let (forbid1, forbid2, same) = (set(forbid.0), set(forbid.1), forbid.0 == forbid.1);
    let (down1, down2) = (count(r), count(rows + r));
    let key = lanes_part_key!(
        (window, side),
        (set, count),
        (_mm256_and_si256, _mm256_or_si256),
        (_mm256_srl_epi64, _mm256_sll_epi64)
    );
    keep_each(placements, keys, |p| {
        let a = _mm256_sll_epi64(_mm256_and_si256(p, d1_bits), down1);
        let b = _mm256_sll_epi64(_mm256_srli_epi64::<32>(p), down2);
        // One mask both ways (all but an even board's starts): one AND fewer.
        let clash = if same {
            _mm256_and_si256(_mm256_or_si256(a, b), forbid1)
        } else {
            _mm256_or_si256(_mm256_and_si256(a, forbid1), _mm256_and_si256(b, forbid2))
        };
        (key(a, b), _mm256_cmpeq_epi64(clash, zero))
    })
}

/// [`super::keep_clear`] four `keys` at a time ([`keep_each`]).
#[target_feature(enable = "avx2,popcnt")]
fn keep_clear_in(keys: &[u64], forbid: u64, drop: u64, out: &mut [u64]) -> usize {
    let (forbid, zero) = (_mm256_set1_epi64x(forbid as i64), _mm256_setzero_si256());
    let drop = _mm256_set1_epi64x(drop as i64);
    keep_each(keys, out, |k| {
        let kept = _mm256_cmpeq_epi64(_mm256_and_si256(k, forbid), zero);
        (_mm256_andnot_si256(drop, k), kept)
    })
}

#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn candidates_in(north: &North, south: &South, keys: &mut [Slot]) -> usize {
    let n = south.len;
    let (whole, rest) = (n / LANES * LANES, n % LANES);
    let padded = south.padded();
    let load = |i: usize| {
        // SAFETY: the list holds `padded` slots (`South::fill`); the slice checks.
        unsafe { _mm256_loadu_si256(south.keys[i..i + LANES].as_ptr().cast()) }
    };
    let (zero, shown) = (
        _mm256_setzero_si256(),
        _mm256_set1_epi64x(south.shown as i64),
    );
    north.each(|a, mut len| {
        // A row's steps write within `len..len + padded`: each at most LANES slots past the
        // candidates of the row before it.
        assert!(len + padded <= keys.len());
        let a = _mm256_set1_epi64x(a as i64);
        // Candidates i..i + LANES, of which those in `valid` exist: written at `len`.
        let mut step = |i: usize, valid: u32, len: usize| {
            let b = load(i);
            let fit = _mm256_cmpeq_epi64(_mm256_and_si256(a, b), zero);
            let fits = _mm256_movemask_pd(_mm256_castsi256_pd(fit)) as u32 & valid;
            let front = front(fits);
            let key = _mm256_and_si256(_mm256_or_si256(a, b), shown);
            // SAFETY: slots len..len + LANES are in `keys`, as the row's check above says.
            unsafe { store_front(keys.as_mut_ptr().add(len).cast(), key, front) };
            fits.count_ones() as usize
        };
        for i in (0..whole).step_by(LANES) {
            len += step(i, 0b1111, len);
        }
        if rest != 0 {
            len += step(whole, (1 << rest) - 1, len);
        }
        len
    })
}
