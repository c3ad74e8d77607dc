//! The quadrant joins on aarch64: the portable loops. NEON is aarch64's baseline, so the
//! compiler vectorizes them already, and two-lane versions by hand (made and tested side by
//! side, stored lane by lane: NEON has no compress) executed as many instructions for
//! `keep_part` and 9% more for `candidates`, under qemu at n = 16.

use super::portable;
use super::{Buffers, Diagonals, Halves, North, Quadrants, Slot, South, View, Window};
use crate::system::isa::{Isa, Neon, Portable};

/// [`Halves::fill`] with the NEON path's loops.
pub(super) fn fill(
    proof: Neon,
    halves: &mut Halves,
    q: &Quadrants,
    window: Window,
    out: &mut Vec<u64>,
    limit: usize,
    buffers: &mut Buffers,
) -> bool {
    halves.fill_with(Isa::Neon(proof), q, window, out, limit, buffers)
}

/// [`portable::keep_part`].
#[inline(always)]
pub(super) fn keep_part(
    _: Neon,
    q: &Quadrants,
    placements: &[u64],
    shift: u32,
    forbid: Diagonals,
    view: View,
    out: &mut [u64],
) -> usize {
    portable::keep_part(Portable::ANY, q, placements, shift, forbid, view, out)
}

/// [`portable::candidates`].
#[inline(always)]
pub(super) fn candidates(_: Neon, north: &North, south: &South, keys: &mut [Slot]) -> usize {
    portable::candidates(Portable::ANY, north, south, keys)
}

/// [`portable::keep_clear`].
#[inline(always)]
pub(super) fn keep_clear(_: Neon, keys: &[u64], forbid: u64, out: &mut [u64]) -> usize {
    portable::keep_clear(Portable::ANY, keys, forbid, out)
}
