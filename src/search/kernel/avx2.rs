//! The backtrack compiled for the bit-manipulation instructions that come with AVX2 (x86-64-v3:
//! BMI1, BMI2, LZCNT): `blsi` takes the lowest free square, `andn` and `shlx` build the attack
//! sets, and `lzcnt` finds the last free column in one step.

use super::{search_in, Partial, Rows, Search};
use crate::system::isa::Avx2;

/// [`search_in`] with BMI1, BMI2 and LZCNT.
pub(super) fn search<R: Rows, const NODES: bool>(
    _: Avx2,
    n: u32,
    rows: &R,
    start: Partial,
) -> Search {
    // SAFETY: the token proves that the CPU has BMI1, BMI2 and LZCNT.
    unsafe { bmi::<R, NODES>(n, rows, start) }
}

#[target_feature(enable = "bmi1,bmi2,lzcnt")]
fn bmi<R: Rows, const NODES: bool>(n: u32, rows: &R, start: Partial) -> Search {
    search_in::<R, NODES>(n, rows, start)
}
