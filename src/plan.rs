//! The plan: a deterministic, ordered list of independent weighted subproblems.
//!
//! A plan holds its pieces as one of two kinds ([`Pieces`]). The backtracking engines' pieces
//! are subproblems: a board with some queens pre-placed, whose solutions are the ways to complete
//! it, and a weight that says how many solutions of the whole board each of them stands for.
//! The total is `Σ weight × completions`. Those engines differ in which queens they pre-place:
//! - `mirror` fills rows `0..d` and uses the left-right mirror (weight 2, see below);
//! - `symmetry` fills the border (rows 0 and n-1, columns 0 and n-1) up to the 8 symmetries of
//!   the square and then rows `1..=d` (see [`crate::engines::symmetry`]).
//!
//! The join engine's pieces are blocks of row sets (see [`crate::engines::join`]), each of
//! weight 1: a block's count already weighs its units.
//!
//! Progress, checkpoints and shards all refer to subproblems by their `id`, the index in this
//! list, so a plan comes out the same on every machine for the same `(n, engine, split depth)`.
//!
//! # Why the left-right mirror is exact
//! Reflecting a solution in the vertical axis (column c ↦ n-1-c) gives another solution, and no
//! solution of n > 1 is its own mirror image: the queen of row 0 would have to sit in the middle
//! column, and then the queen of row 1 too. So solutions come in pairs:
//! - a row-0 queen in the left half (c < n/2) stands for itself and its mirror: weight 2;
//! - for odd n, a row-0 queen in the middle column is its own mirror, so the pairing moves to
//!   row 1: its queen is never in the middle column, and only the left half is searched, weight 2.

use std::sync::Arc;

use crate::engines::join::Join;
use crate::kernel::{board_mask, Partial, RowMasks};
use crate::{Engine, Error};

/// The deepest split the plan builder accepts.
pub const MAX_SPLIT_DEPTH: u32 = 10;
/// The most subproblems one plan may hold (about 400 MiB).
pub(crate) const MAX_SUBPROBLEMS: usize = 1 << 23;
/// Auto depth aims at this many subproblems per worker thread at least.
pub(crate) const SUBPROBLEMS_PER_THREAD: usize = 32;

/// Pre-placed queens one subproblem may hold: a split plus the border.
const MAX_QUEENS: usize = MAX_SPLIT_DEPTH as usize + 4;

/// A queen on the board: `(row, column)`.
pub(crate) type Queen = (u8, u8);

/// One independent piece of the search: pre-placed queens and a weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Subproblem {
    /// Position in the plan, from 0.
    pub id: usize,
    /// Solutions of the whole board that each completion of this one stands for.
    pub weight: u32,
    pub(crate) rule: Rule,
    len: u8,
    queens: [Queen; MAX_QUEENS],
}

/// Squares a subproblem forbids beyond those its queens attack: how the symmetry engine keeps
/// one solution per class without pre-placing every border queen (see [`crate::engines::symmetry`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) enum Rule {
    /// Nothing more.
    #[default]
    Free,
    /// Corner family: column 1 is empty in rows `2..=j` (its queen sits below row `j`).
    Corner {
        /// The column of the row-1 queen.
        j: u8,
    },
    /// Nearest-queens family: the outer lines in `free` (bits: 1 top row, 2 bottom row, 4 left
    /// column, 8 right column) hold their queen farther than `d` from its nearest corner; the
    /// other lines hold pre-placed queens at distance exactly `d`.
    Far {
        /// The distance of the pre-placed queens from their corners.
        d: u8,
        /// The lines whose queens must stand farther than `d`.
        free: u8,
    },
}

impl Rule {
    /// The squares of `row` this rule leaves open on an `n`-board.
    pub(crate) fn allowed(self, n: u32, row: u32) -> u32 {
        let all = board_mask(n);
        let m = n - 1;
        match self {
            Rule::Free => all,
            Rule::Corner { j } if (2..=u32::from(j)).contains(&row) => all & !0b10,
            Rule::Corner { .. } => all,
            Rule::Far { d, free } => {
                let d = u32::from(d);
                let mut open = all;
                // Row 0 and row n-1: columns d+1 ..= n-2-d.
                let middle = board_mask(m - d) & !board_mask(d + 1);
                if (row == 0 && free & 1 != 0) || (row == m && free & 2 != 0) {
                    open &= middle;
                }
                if row <= d || row >= m - d {
                    if free & 4 != 0 {
                        open &= !1;
                    }
                    if free & 8 != 0 {
                        open &= !(1 << m);
                    }
                }
                open
            }
        }
    }
}

impl Subproblem {
    /// Subproblem `id`: `queens` (at most [`MAX_SPLIT_DEPTH`] + 4, none attacking another)
    /// pre-placed, and `rule`.
    pub(crate) fn new(id: usize, queens: &[Queen], weight: u32, rule: Rule) -> Subproblem {
        let mut sorted = [(0, 0); MAX_QUEENS];
        sorted[..queens.len()].copy_from_slice(queens);
        sorted[..queens.len()].sort_unstable();
        Subproblem {
            id,
            weight,
            rule,
            len: queens.len() as u8,
            queens: sorted,
        }
    }

    /// The pre-placed queens as `(row, column)`, by row.
    pub(crate) fn queens(&self) -> &[Queen] {
        &self.queens[..usize::from(self.len)]
    }

    /// The search this subproblem asks for: the board after its queens of rows 0, 1, … (as far
    /// as they go without a gap), and the squares each later row may use, or `None` when every
    /// pre-placed queen is in that top block (then every square of the later rows is allowed).
    pub(crate) fn start(&self, n: u32) -> (Partial, Option<RowMasks>) {
        let queens = self.queens();
        let top = queens
            .iter()
            .enumerate()
            .take_while(|(i, q)| usize::from(q.0) == *i)
            .count();
        let start = queens[..top]
            .iter()
            .fold(Partial::EMPTY, |p, q| p.place(u32::from(q.1)));
        if top == queens.len() && self.rule == Rule::Free {
            return (start, None);
        }
        let mut masks = [0u32; 32];
        for (row, mask) in masks.iter_mut().enumerate().take(n as usize) {
            *mask = match queens.iter().find(|q| usize::from(q.0) == row) {
                Some(q) => 1 << q.1,
                None => self.rule.allowed(n, row as u32) & !attacks(n, queens, row as u32),
            };
        }
        (start, Some(RowMasks::new(n, masks)))
    }
}

/// The squares of `row` that `queens` attack along columns and diagonals.
pub(crate) fn attacks(n: u32, queens: &[Queen], row: u32) -> u32 {
    queens.iter().fold(0, |acc, &(r, c)| {
        let d = row.abs_diff(u32::from(r));
        let c = u32::from(c);
        let mut a = acc | 1 << c;
        if c + d < n {
            a |= 1 << (c + d);
        }
        if d <= c {
            a |= 1 << (c - d);
        }
        a
    })
}

/// One piece of a plan, as execution, progress, checkpoints and shards see it: its place in the
/// plan and the solutions of the whole board that each of its completions stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Position in the plan, from 0.
    pub id: usize,
    /// Solutions of the whole board that each completion stands for.
    pub weight: u32,
}

/// The independent pieces of one board size's count, in a fixed order.
///
/// What the pieces are depends on the engine: subproblems with pre-placed queens, or the join
/// engine's blocks of half-board row sets. Everything that tells the engines apart (counting a
/// piece, pricing it, drawing it for an estimate, the fingerprint) is in one place, the engines'
/// module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub(crate) n: u32,
    pub(crate) pieces: Pieces,
    /// Why the default engine could not be used, when this plan stands in for it.
    fell_back: Option<Error>,
}

/// What a plan's pieces are, engine by engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Pieces {
    /// A backtracking engine's subproblems: queens pre-placed, then the kernel's search.
    Search {
        /// `mirror` or `symmetry`.
        engine: Engine,
        /// Rows pre-placed below the engine's own.
        split_depth: u32,
        /// The pieces, ordered by id.
        subproblems: Vec<Subproblem>,
    },
    /// The join engine's blocks of units (piece `i` is block `i`, weight 1), with its tables.
    Join(Arc<Join>),
}

impl Plan {
    /// The plan of a backtracking engine whose subproblems `build` lists.
    pub(crate) fn built(
        engine: Engine,
        n: u32,
        split_depth: u32,
        build: fn(&mut Builder) -> Result<(), Error>,
    ) -> Result<Plan, Error> {
        let mut builder = Builder::new(n, split_depth);
        build(&mut builder)?;
        Ok(Plan {
            n,
            pieces: Pieces::Search {
                engine,
                split_depth,
                subproblems: builder.out,
            },
            fell_back: None,
        })
    }

    /// The plan whose pieces are the blocks of `join`, each of weight 1: a block's count
    /// already weighs each of its units by its symmetry class.
    pub(crate) fn of_join(join: Join) -> Plan {
        Plan {
            n: join.n(),
            pieces: Pieces::Join(Arc::new(join)),
            fell_back: None,
        }
    }

    /// This plan, standing in for the default engine's, which refused with `why`.
    pub(crate) fn falling_back(self, why: Error) -> Plan {
        Plan {
            fell_back: Some(why),
            ..self
        }
    }

    /// Why the default engine's plan could not be built, when this plan stands in for it (the
    /// join engine's tables would not fit in memory): worth telling the user.
    pub fn fell_back(&self) -> Option<&Error> {
        self.fell_back.as_ref()
    }

    /// Board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The pieces, ordered by id.
    pub fn pieces(&self) -> impl ExactSizeIterator<Item = Piece> + '_ {
        (0..self.len()).map(|id| self.piece(id))
    }

    /// True when the board has no solution (n = 2, 3).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Collects subproblems in the order they are found.
pub(crate) struct Builder {
    pub(crate) n: u32,
    pub(crate) depth: u32,
    out: Vec<Subproblem>,
}

impl Builder {
    fn new(n: u32, depth: u32) -> Builder {
        Builder {
            n,
            depth,
            out: Vec::new(),
        }
    }

    /// Adds a subproblem (the queens must not attack each other).
    pub(crate) fn push(&mut self, queens: &[Queen], weight: u32, rule: Rule) -> Result<(), Error> {
        if self.out.len() == MAX_SUBPROBLEMS {
            return Err(Error::PlanTooLarge {
                n: self.n,
                depth: self.depth,
                max: MAX_SUBPROBLEMS,
            });
        }
        if self.out.len() == self.out.capacity() {
            // Fallible growth: a plan too large for this process's memory is refused, not a
            // reason to abort.
            let more = self.out.len().clamp(1 << 10, 1 << 20);
            crate::memory::fallibly(|| self.out.try_reserve(more)).map_err(|_| {
                Error::PlanMemory {
                    n: self.n,
                    depth: self.depth,
                    subproblems: self.out.len(),
                    needed: ((self.out.len() + more) * std::mem::size_of::<Subproblem>()) as u64,
                }
            })?;
        }
        self.out
            .push(Subproblem::new(self.out.len(), queens, weight, rule));
        Ok(())
    }

    /// Adds every way to give each row of `rows` that has no queen yet one more queen, in
    /// lexicographic order of the columns.
    pub(crate) fn extend(
        &mut self,
        queens: &mut Vec<Queen>,
        mut rows: std::ops::Range<u32>,
        weight: u32,
        rule: Rule,
    ) -> Result<(), Error> {
        let Some(row) = rows.find(|&r| r < self.n && queens.iter().all(|q| u32::from(q.0) != r))
        else {
            return self.push(queens, weight, rule);
        };
        let mut free = rule.allowed(self.n, row) & !attacks(self.n, queens, row);
        while free != 0 {
            let c = free.trailing_zeros();
            free &= free - 1;
            queens.push((row as u8, c as u8));
            self.extend(queens, row + 1..rows.end, weight, rule)?;
            queens.pop();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fingerprint is fed explicit bytes: these values must never change, or every
    /// checkpoint and shard result written before would be refused.
    #[test]
    fn fingerprints_are_pinned() {
        let print = |engine, n, depth| Plan::new(engine, n, depth).unwrap().fingerprint();
        assert_eq!(format!("{:08x}", print(Engine::Mirror, 8, 2)), "c9ec032b");
        assert_eq!(
            format!("{:08x}", print(Engine::Symmetry, 12, 3)),
            "bdf2f1f0"
        );
        assert_eq!(format!("{:08x}", print(Engine::Join, 11, 0)), "ac241a0c");
        assert_ne!(print(Engine::Mirror, 8, 2), print(Engine::Mirror, 8, 3));
    }

    fn columns(s: &Subproblem) -> Vec<u8> {
        s.queens().iter().map(|q| q.1).collect()
    }

    #[test]
    fn sizes_match_the_design_notes() {
        // Before the mirror: 16 / 210 / 2236 prefixes at n = 16; the mirror keeps half.
        assert_eq!(Plan::new(Engine::Mirror, 16, 1).unwrap().len(), 8);
        assert_eq!(Plan::new(Engine::Mirror, 16, 2).unwrap().len(), 105);
        assert_eq!(Plan::new(Engine::Mirror, 16, 3).unwrap().len(), 1118);
    }

    #[test]
    fn ids_are_positions_and_order_is_lexicographic() {
        let plan = Plan::new(Engine::Mirror, 9, 3).unwrap();
        for (i, s) in plan.subproblems().iter().enumerate() {
            assert_eq!(s.id, i);
        }
        let prefixes: Vec<_> = plan.subproblems().iter().map(columns).collect();
        assert!(prefixes.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn odd_middle_column_pairs_through_row_one() {
        let plan = Plan::new(Engine::Mirror, 5, 1).unwrap();
        let queens: Vec<_> = plan.subproblems().iter().map(columns).collect();
        assert_eq!(queens, vec![vec![0], vec![1], vec![2, 0]]);
        assert!(plan.subproblems().iter().all(|s| s.weight == 2));
    }

    #[test]
    fn auto_depth_gives_every_thread_work() {
        // The join plan has no depth: its units are the row sets of the board.
        for engine in [Engine::Mirror, Engine::Symmetry] {
            for n in 4..=18 {
                let plan = Plan::auto(engine, n, 2).unwrap();
                assert!(
                    plan.len() >= 64 || plan.split_depth() == n,
                    "{engine} n = {n}"
                );
            }
        }
    }

    #[test]
    fn too_deep_a_split_is_refused() {
        assert!(matches!(
            Plan::new(Engine::Mirror, 8, MAX_SPLIT_DEPTH + 1),
            Err(Error::SplitDepth { .. })
        ));
    }

    #[test]
    fn attacks_cover_columns_and_both_diagonals() {
        // A queen at (2, 3) on an 8-board, seen from row 4: columns 3, 1 and 5.
        assert_eq!(attacks(8, &[(2, 3)], 4), 0b10_1010);
        // Off the board to the left and right is dropped.
        assert_eq!(attacks(4, &[(0, 0)], 3), 0b1001);
    }
}
