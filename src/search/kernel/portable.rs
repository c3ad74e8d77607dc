//! The backtrack in plain Rust, for any CPU.

use super::{search_in, Partial, Rows, Search};
use crate::system::isa::Proof;

/// [`search_in`] as the target's baseline instructions compile it, for any path's proof.
pub(super) fn search<R: Rows, const NODES: bool>(
    _: impl Proof,
    n: u32,
    rows: &R,
    start: Partial,
) -> Search {
    search_in::<R, NODES>(n, rows, start)
}
