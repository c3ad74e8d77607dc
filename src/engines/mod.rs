//! The engines: the ways of cutting a board into independent pieces and counting one.
//!
//! - [`mirror`]: rows `0..d` pre-placed, the left-right mirror;
//! - [`symmetry`]: the nearest border queens by class under the 8 symmetries of the square, then
//!   rows below them;
//! - [`join`]: east and west half-boards counted as pairs with no shared diagonal.
//!
//! The first two list subproblems ([`crate::search::subproblem`]) that the bitboard backtrack
//! of [`crate::search::kernel`] completes; the third has its own tables and counter. An engine
//! knows nothing of the plan that holds its pieces, nor of the executor that runs them: the
//! plan ([`crate::plan`]) is the one place that tells the engines apart.

pub(crate) mod join;
pub(crate) mod mirror;
pub(crate) mod symmetry;
