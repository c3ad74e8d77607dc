//! The backtrack on an AVX-512 CPU: its scalar loop gains nothing from the wider vectors, so it
//! is the AVX2 path's build.

use super::{Partial, Rows, Search};
use crate::system::isa::Avx512;

/// The AVX2 path's backtrack.
pub(super) fn search<R: Rows, const NODES: bool>(
    proof: Avx512,
    n: u32,
    rows: &R,
    start: Partial,
) -> Search {
    super::avx2::search::<R, NODES>(proof.avx2(), n, rows, start)
}
