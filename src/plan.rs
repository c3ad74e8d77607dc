//! The plan: a deterministic, ordered list of independent weighted subproblems.
//!
//! A subproblem is a board whose first rows hold pre-placed queens; its solutions are the ways to
//! complete it, and its weight says how many solutions of the whole board each of them stands for.
//! The total is `Σ weight × completions`. Progress, checkpoints and shards all refer to subproblems
//! by their `id`, the index in this list, so a plan must come out the same on every machine for the
//! same `(n, split depth)`: it never depends on the thread count once the depth is fixed.
//!
//! # Why the left-right mirror is exact
//! Reflecting a solution in the vertical axis (column c ↦ n-1-c) gives another solution, and no
//! solution of n > 1 is its own mirror image: the queen of row 0 would have to sit in the middle
//! column, and then the queen of row 1 too. So solutions come in pairs:
//! - a row-0 queen in the left half (c < n/2) stands for itself and its mirror: weight 2;
//! - for odd n, a row-0 queen in the middle column is its own mirror, so the pairing moves to
//!   row 1: its queen is never in the middle column, and only the left half is searched, weight 2.

use std::sync::Arc;

use crate::join::Join;
use crate::kernel::Partial;
use crate::{Engine, Error};

/// The deepest split the plan builder accepts.
pub const MAX_SPLIT_DEPTH: u32 = 10;
/// The most subproblems one plan may hold (about 400 MiB).
pub const MAX_SUBPROBLEMS: usize = 1 << 24;
/// Auto depth aims at this many subproblems per worker thread at least.
pub const SUBPROBLEMS_PER_THREAD: usize = 32;

const PREFIX: usize = MAX_SPLIT_DEPTH as usize;

/// One independent piece of the search: pre-placed queens in rows `0..depth` and a weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Subproblem {
    /// Position in the plan, from 0.
    pub id: usize,
    /// Solutions of the whole board that each completion of this one stands for.
    pub weight: u32,
    depth: u8,
    queens: [u8; PREFIX],
}

impl Subproblem {
    /// The columns of the pre-placed queens, row 0 first.
    pub fn queens(&self) -> &[u8] {
        &self.queens[..usize::from(self.depth)]
    }

    /// The pre-placed board, ready for the kernel.
    pub fn partial(&self, n: u32) -> Partial {
        Partial::from_queens(n, self.queens()).expect("a plan holds only legal prefixes")
    }
}

/// The subproblems of one board size, in a fixed order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    n: u32,
    engine: Engine,
    split_depth: u32,
    subproblems: Vec<Subproblem>,
    /// The join engine's tables and units (its subproblem `i` is unit `i`); `None` for others.
    join: Option<Arc<Join>>,
}

impl Plan {
    /// The mirror plan of an `n`-board split after `split_depth` rows (clamped to `n`).
    ///
    /// Depth 0 is the whole board as one subproblem of weight 1; from depth 1 on the mirror
    /// symmetry halves the work.
    pub fn mirror(n: u32, split_depth: u32) -> Result<Plan, Error> {
        crate::check_n(n)?;
        if split_depth > MAX_SPLIT_DEPTH {
            return Err(Error::SplitDepth {
                depth: split_depth,
                max: MAX_SPLIT_DEPTH,
            });
        }
        let depth = split_depth.min(n);
        let mut builder = Builder {
            n,
            depth: depth as usize,
            out: Vec::new(),
        };
        if depth == 0 {
            builder.push(&[], 1)?;
        } else {
            for c in 0..n / 2 {
                builder.extend(&mut vec![c as u8], 2)?;
            }
            if n % 2 == 1 {
                let mid = (n / 2) as u8;
                if n == 1 {
                    builder.push(&[mid], 1)?;
                }
                for c in 0..mid {
                    if let Some(p) = Partial::from_queens(n, &[mid, c]) {
                        debug_assert_eq!(p.row, 2);
                        builder.extend(&mut vec![mid, c], 2)?;
                    }
                }
            }
        }
        Ok(Plan {
            n,
            engine: Engine::Mirror,
            split_depth: depth,
            subproblems: builder.out,
            join: None,
        })
    }

    /// The join plan of an `n`-board: one subproblem per unit of [`Join`], weighted by its
    /// symmetry class. No rows are pre-placed (split depth 0): its subproblems are counted by
    /// [`crate::engine::solve`] with the plan's tables, not from [`Subproblem::partial`].
    pub fn join(n: u32) -> Result<Plan, Error> {
        let join = Join::new(n)?;
        let subproblems = (join.units().iter().enumerate())
            .map(|(id, unit)| Subproblem {
                id,
                weight: unit.weight,
                depth: 0,
                queens: [0; PREFIX],
            })
            .collect();
        Ok(Plan {
            n,
            engine: Engine::Join,
            split_depth: 0,
            subproblems,
            join: Some(Arc::new(join)),
        })
    }

    /// The join engine's tables and units, for a join plan.
    pub fn join_tables(&self) -> Option<&Join> {
        self.join.as_deref()
    }

    /// The mirror plan with the shallowest depth that gives every thread enough work.
    ///
    /// The target is at least [`SUBPROBLEMS_PER_THREAD`] subproblems per thread, and at least
    /// 2^min(n-8, 17) so that the pieces of a long run stay short (seconds to minutes at n ≥ 20) for
    /// progress and checkpoints. Up to 8 threads the depth depends on `n` alone.
    pub fn mirror_auto(n: u32, threads: usize) -> Result<Plan, Error> {
        Plan::mirror(n, auto_depth(n, threads)?)
    }

    /// Board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The engine whose kernel runs the subproblems.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// Rows pre-placed (before the middle-column rule of odd n adds one).
    pub fn split_depth(&self) -> u32 {
        self.split_depth
    }

    /// The subproblems, ordered by id.
    pub fn subproblems(&self) -> &[Subproblem] {
        &self.subproblems
    }

    /// Number of subproblems.
    pub fn len(&self) -> usize {
        self.subproblems.len()
    }

    /// True when the board has no solution at all beyond the split (n = 2, 3).
    pub fn is_empty(&self) -> bool {
        self.subproblems.is_empty()
    }
}

/// The split depth [`Plan::mirror_auto`] picks.
pub fn auto_depth(n: u32, threads: usize) -> Result<u32, Error> {
    crate::check_n(n)?;
    let target = (SUBPROBLEMS_PER_THREAD * threads.max(1)).max(1 << n.saturating_sub(8).min(17));
    let mut depth = 1;
    while depth < n.min(MAX_SPLIT_DEPTH) && prefix_count(n, depth) < target {
        depth += 1;
    }
    Ok(depth)
}

/// How many subproblems the mirror plan of depth `depth` has, without storing them.
fn prefix_count(n: u32, depth: u32) -> usize {
    Plan::mirror(n, depth).map_or(usize::MAX, |p| p.len())
}

/// Depth-first enumeration of legal prefixes, in lexicographic order of the columns.
struct Builder {
    n: u32,
    depth: usize,
    out: Vec<Subproblem>,
}

impl Builder {
    fn push(&mut self, queens: &[u8], weight: u32) -> Result<(), Error> {
        if self.out.len() == MAX_SUBPROBLEMS {
            return Err(Error::PlanTooLarge {
                n: self.n,
                depth: self.depth as u32,
                max: MAX_SUBPROBLEMS,
            });
        }
        let mut prefix = [0u8; PREFIX];
        prefix[..queens.len()].copy_from_slice(queens);
        self.out.push(Subproblem {
            id: self.out.len(),
            weight,
            depth: queens.len() as u8,
            queens: prefix,
        });
        Ok(())
    }

    /// Pushes every legal extension of `queens` to `depth` rows (or `queens` itself if longer).
    fn extend(&mut self, queens: &mut Vec<u8>, weight: u32) -> Result<(), Error> {
        if queens.len() >= self.depth {
            return self.push(queens, weight);
        }
        let Some(p) = Partial::from_queens(self.n, queens) else {
            return Ok(());
        };
        let mut free = p.free(self.n);
        while free != 0 {
            let c = free.trailing_zeros();
            free &= free - 1;
            queens.push(c as u8);
            self.extend(queens, weight)?;
            queens.pop();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_the_design_notes() {
        // Before the mirror: 16 / 210 / 2236 prefixes at n = 16; the mirror keeps about half.
        assert_eq!(Plan::mirror(16, 1).unwrap().len(), 8);
        assert_eq!(Plan::mirror(16, 2).unwrap().len(), 105);
        assert_eq!(Plan::mirror(16, 3).unwrap().len(), 1118);
    }

    #[test]
    fn ids_are_positions_and_order_is_lexicographic() {
        let plan = Plan::mirror(9, 3).unwrap();
        for (i, s) in plan.subproblems().iter().enumerate() {
            assert_eq!(s.id, i);
        }
        let prefixes: Vec<_> = plan.subproblems().iter().map(|s| s.queens()).collect();
        assert!(prefixes.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn odd_middle_column_pairs_through_row_one() {
        let plan = Plan::mirror(5, 1).unwrap();
        let queens: Vec<_> = plan.subproblems().iter().map(|s| s.queens()).collect();
        assert_eq!(queens, vec![&[0][..], &[1], &[2, 0]]);
        assert!(plan.subproblems().iter().all(|s| s.weight == 2));
    }

    #[test]
    fn auto_depth_gives_every_thread_work() {
        for n in 4..=20 {
            let plan = Plan::mirror_auto(n, 2).unwrap();
            assert!(plan.len() >= 64 || plan.split_depth() == n, "n = {n}");
        }
    }

    #[test]
    fn too_deep_a_split_is_refused() {
        assert!(matches!(
            Plan::mirror(8, MAX_SPLIT_DEPTH + 1),
            Err(Error::SplitDepth { .. })
        ));
    }
}
