//! What the x86-64 vector paths of the quadrant joins (`avx2.rs`, `avx512.rs`) share: their
//! entry points behind the proofs, the part key computed lane by lane, and the padded south
//! list they read whole vectors of.

use super::{South, LANES};

impl South {
    /// The lists' length with their padding: a whole number of [`LANES`].
    pub(super) fn padded(&self) -> usize {
        self.len.next_multiple_of(LANES)
    }
}

/// A vector path's entry points, each taking the path's proof `$proof` (of `Isa::$variant`) and
/// calling, behind it, the file's function of the same name with `_in` (compiled with
/// `$features`): `fill` ([`super::Halves::fill_with`] compiled with them), `keep_part`, `candidates`
/// and `keep_clear`.
macro_rules! entries {
    ($proof:ident, $variant:ident, $features:literal) => {
        use super::{Buffers, Halves};
        use crate::system::isa::{$proof, Isa};

        /// [`Halves::fill`] compiled with this path's instructions.
        pub(super) fn fill(
            proof: $proof,
            halves: &mut Halves,
            q: &Quadrants,
            window: Window,
            out: &mut Vec<u64>,
            limit: usize,
            buffers: &mut Buffers,
        ) -> bool {
            #[target_feature(enable = $features)]
            fn fill_in(
                proof: $proof,
                halves: &mut Halves,
                q: &Quadrants,
                window: Window,
                out: &mut Vec<u64>,
                limit: usize,
                buffers: &mut Buffers,
            ) -> bool {
                halves.fill_with(Isa::$variant(proof), q, window, out, limit, buffers)
            }
            // SAFETY: the token proves that the CPU has the features.
            unsafe { fill_in(proof, halves, q, window, out, limit, buffers) }
        }

        #[inline(always)]
        pub(super) fn keep_part(
            _: $proof,
            q: &Quadrants,
            placements: &[u64],
            r: u32,
            forbid: Diagonals,
            view: View,
            keys: &mut [u64],
        ) -> usize {
            // SAFETY: the token proves that the CPU has the features.
            unsafe { keep_part_in(q, placements, r, forbid, view, keys) }
        }

        #[inline(always)]
        pub(super) fn candidates(
            _: $proof,
            north: &North,
            south: &South,
            keys: &mut [Slot],
        ) -> usize {
            // SAFETY: the token proves that the CPU has the features.
            unsafe { candidates_in(north, south, keys) }
        }

        #[inline(always)]
        pub(super) fn keep_clear(
            _: $proof,
            keys: &[u64],
            (forbid, drop): (u64, u64),
            out: &mut [u64],
        ) -> usize {
            // SAFETY: the token proves that the CPU has the features.
            unsafe { keep_clear_in(keys, forbid, drop, out) }
        }
    };
}
pub(super) use entries;

/// [`Window::part_key`] of vectors of masks, as a closure `|d1, d2| key` made of a vector
/// width's `set` (one value in every lane), `count` (a shift count), bitwise `and` and `or`,
/// and shifts of every lane by a count: the vector paths' `keep_part` write it once.
macro_rules! lanes_part_key {
    (
        ($window:expr, $side:expr),
        ($set:expr, $count:expr),
        ($and:ident, $or:ident),
        ($srl:ident, $sll:ident)
    ) => {{
        let Window { start, width, odd } = $window;
        let side = $side;
        let (first, last) = ($count(start - 1), $count(start + width));
        let (one, odd1, odd2) = ($set(1), $count(2 * width), $count(2 * width + 1));
        let (low_bits, start, width) = ($set((1u64 << width) - 1), $count(start), $count(width));
        let low = move |d| $and($srl(d, start), low_bits);
        move |a, b| {
            let windows = match side {
                Side::West => $or(low(b), $sll(low(a), width)),
                Side::East => $or(low(a), $sll(low(b), width)),
            };
            if !odd {
                return windows;
            }
            let bit = |d, at| $and($srl(d, at), one);
            let beyond = $or(windows, $sll(bit(b, last), odd2));
            match side {
                Side::West => beyond,
                Side::East => $or(beyond, $sll(bit(a, first), odd1)),
            }
        }
    }};
}
pub(super) use lanes_part_key;
