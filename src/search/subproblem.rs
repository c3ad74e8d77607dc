//! The backtracking engines' pieces: subproblems, each a board with some queens pre-placed and
//! a weight, whose solutions are the ways to complete it; the rules that keep the symmetry
//! engine to one solution per class; and the builder that lists them in order.
//!
//! # Why the left-right mirror is exact
//! Reflecting a solution in the vertical axis (column c ↦ n-1-c) gives another solution, and no
//! solution of n > 1 is its own mirror image: the queen of row 0 would have to sit in the middle
//! column, and then the queen of row 1 too. So solutions come in pairs:
//! - a row-0 queen in the left half (c < n/2) stands for itself and its mirror: weight 2;
//! - for odd n, a row-0 queen in the middle column is its own mirror, so the pairing moves to
//!   row 1: its queen is never in the middle column, and only the left half is searched, weight 2.

use crate::search::kernel::{board_mask, Partial, RowMasks};
use crate::Error;

/// The deepest split the plan builder accepts.
pub const MAX_SPLIT_DEPTH: u32 = 10;
/// The most subproblems one plan may hold (about 400 MiB).
pub(crate) const MAX_SUBPROBLEMS: usize = 1 << 23;

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

/// Collects subproblems in the order they are found.
pub(crate) struct Builder {
    pub(crate) n: u32,
    pub(crate) depth: u32,
    out: Vec<Subproblem>,
}

impl Builder {
    /// An empty list of the subproblems of an `n`-board split after `depth` rows.
    pub(crate) fn new(n: u32, depth: u32) -> Builder {
        Builder {
            n,
            depth,
            out: Vec::new(),
        }
    }

    /// The subproblems, ordered by id.
    pub(crate) fn into_subproblems(self) -> Vec<Subproblem> {
        self.out
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
            crate::system::memory::fallibly(|| self.out.try_reserve(more)).map_err(|_| {
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

    #[test]
    fn attacks_cover_columns_and_both_diagonals() {
        // A queen at (2, 3) on an 8-board, seen from row 4: columns 3, 1 and 5.
        assert_eq!(attacks(8, &[(2, 3)], 4), 0b10_1010);
        // Off the board to the left and right is dropped.
        assert_eq!(attacks(4, &[(0, 0)], 3), 0b1001);
    }
}
