//! The result of counting one board size, and its check against the published counts.

use std::time::Duration;

use crate::dihedral::burnside;
use crate::truth::known;
use crate::{Engine, Plan};

/// The result of counting one board size.
///
/// ```
/// let counts = nqueens::count(6, &nqueens::Options::default()).unwrap();
/// assert_eq!((counts.total, counts.unique), (4, Some(1)));
/// assert_eq!(counts.verified(), Some(true));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Counts {
    /// Board size.
    pub n: u32,
    /// All solutions.
    pub total: u128,
    /// Fundamental solutions, by Burnside's lemma from the total; `None` when the
    /// total cannot be right (the lemma's sum is not a multiple of 8).
    pub unique: Option<u128>,
    /// Queens placed, when asked for.
    pub nodes: Option<u128>,
    /// The engine that counted.
    pub engine: Engine,
    /// Worker threads used.
    pub threads: usize,
    /// Pieces of the plan (subproblems of a backtracking engine, blocks of the join engine).
    pub pieces: usize,
    /// Split depth of the plan.
    pub split_depth: u32,
    /// Wall time of the search (the plan is built before the clock starts).
    pub elapsed: Duration,
    /// The join engine's pairs ANDed (those its pivots did not skip) by this process's search:
    /// not those of pieces counted before a resume, nor of other shards; `None` for the other
    /// engines and for merged counts.
    pub pairs_anded: Option<u128>,
    /// The pairs of half-boards it tested (ANDed, or skipped by its pivots), alike.
    pub pairs_tested: Option<u128>,
}

impl Counts {
    /// The counts of the whole of `plan`: `total` solutions (and `nodes` queens placed, when
    /// counted) found on `threads` threads in `elapsed`; the fundamental count follows from the
    /// total (Burnside's lemma). The one place a count is made, for a run, a resumed run or a merge.
    pub fn of(
        plan: &Plan,
        total: u128,
        nodes: Option<u128>,
        threads: usize,
        elapsed: Duration,
    ) -> Counts {
        Counts {
            n: plan.n(),
            total,
            unique: burnside::unique(plan.n(), total),
            nodes,
            engine: plan.engine(),
            threads,
            pieces: plan.len(),
            split_depth: plan.split_depth(),
            elapsed,
            pairs_anded: None,
            pairs_tested: None,
        }
    }

    /// Whether `total` and `unique` equal the published counts; `None` when none are known.
    pub fn verified(&self) -> Option<bool> {
        known::verify(self.n, self.total, self.unique)
    }
}
