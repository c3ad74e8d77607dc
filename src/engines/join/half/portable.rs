//! The quadrant joins' loops in plain Rust, one item at a time, for any CPU.

use super::{Buffers, Diagonals, Halves, North, Quadrants, Slot, South, View, Window};
use crate::system::isa::Proof;

/// [`Halves::fill`] as the target's baseline instructions compile it, for the path `proof`
/// names (its loops are dispatched by it).
pub(super) fn fill(
    proof: impl Proof,
    halves: &mut Halves,
    q: &Quadrants,
    window: Window,
    out: &mut Vec<u64>,
    limit: usize,
    buffers: &mut Buffers,
) -> bool {
    halves.fill_with(proof.into(), q, window, out, limit, buffers)
}

/// Writes the value `keep` gives each of `items` to `out` at the cursor, and moves the cursor
/// past those it keeps, so that the loop has no branch to mispredict; returns how many it kept,
/// in the first slots. `out` holds a slot for each. (`avx2::keep_each` four at a time,
/// `avx512::keep_each` eight.)
#[inline(always)]
pub(super) fn keep_each(
    items: &[u64],
    out: &mut [u64],
    keep: impl Fn(u64) -> (u64, bool),
) -> usize {
    let mut len = 0;
    for &item in items {
        let (value, kept) = keep(item);
        out[len] = value;
        len += usize::from(kept);
    }
    len
}

/// [`super::keep_part`] one placement at a time ([`keep_each`]).
#[inline(always)]
pub(super) fn keep_part(
    _: impl Proof,
    q: &Quadrants,
    placements: &[u64],
    shift: u32,
    forbid: Diagonals,
    View { window, side }: View,
    out: &mut [u64],
) -> usize {
    keep_each(placements, out, |p| {
        let (d1, d2) = q.unpack(p);
        let (d1, d2) = (d1 << shift, d2 << shift);
        (
            window.part_key(side, d1, d2),
            d1 & forbid.0 | d2 & forbid.1 == 0,
        )
    })
}

/// [`super::candidates`] one candidate at a time: each written, the cursor moved past it when
/// it fits, so the loop has no branch to mispredict.
#[inline(always)]
pub(super) fn candidates(_: impl Proof, north: &North, south: &South, keys: &mut [Slot]) -> usize {
    north.each(|a, mut len| {
        for &b in &south.keys[..south.len] {
            keys[len].write((a | b) & south.shown);
            len += usize::from(a & b == 0);
        }
        len
    })
}

/// [`super::keep_clear`] one key at a time ([`keep_each`]).
#[inline(always)]
pub(super) fn keep_clear(
    _: impl Proof,
    keys: &[u64],
    (forbid, drop): (u64, u64),
    out: &mut [u64],
) -> usize {
    keep_each(keys, out, |key| (key & !drop, key & forbid == 0))
}
