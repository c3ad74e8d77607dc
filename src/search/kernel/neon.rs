//! The backtrack on aarch64: its scalar loop has no use for vectors, and the baseline already
//! has the bit instructions it needs (`rbit` and `clz`), so it is the portable build.

use super::{Partial, Rows, Search};
use crate::system::isa::{Neon, Portable};

/// The portable backtrack.
pub(super) fn search<R: Rows, const NODES: bool>(
    _: Neon,
    n: u32,
    rows: &R,
    start: Partial,
) -> Search {
    super::portable::search::<R, NODES>(Portable::ANY, n, rows, start)
}
