//! Fundamental solutions from the total, by Burnside's lemma.
//!
//! The number of classes of solutions under the 8 symmetries of the square is the average number
//! of solutions each symmetry fixes. No reflection fixes a solution of n > 1 (a solution fixed by
//! the vertical mirror would have its row-0 queen in the middle column and its row-1 queen too; one
//! fixed by a diagonal reflection would have every queen on that diagonal), so
//!
//! ```text
//!   8 · unique = total + P + 2·R
//! ```
//!
//! where P counts the solutions a half turn leaves unchanged and R those a quarter turn leaves
//! unchanged (each counted for the 90° and the 270° turn). Both come from small searches here:
//! a solution fixed by a half turn is fixed by its top half, one fixed by a quarter turn by
//! one square in four. They search about the square root of the whole board's tree (P is the
//! larger), nothing beside the count itself.

/// Attack sets over whole-board coordinates: rows, columns and both diagonal families.
#[derive(Clone, Copy, Default)]
struct Board {
    rows: u32,
    cols: u32,
    sums: u64,
    diffs: u64,
}

impl Board {
    /// The board with queens added on `squares`, or `None` if any two of all of them attack
    /// each other. Repeated squares count once (the centre is its own image).
    fn with(mut self, n: u32, squares: &[(u32, u32)]) -> Option<Board> {
        for (i, &(r, c)) in squares.iter().enumerate() {
            if squares[..i].contains(&(r, c)) {
                continue;
            }
            let (rb, cb, sb, db) = (1 << r, 1 << c, 1u64 << (r + c), 1u64 << (r + n - 1 - c));
            if self.rows & rb != 0
                || self.cols & cb != 0
                || self.sums & sb != 0
                || self.diffs & db != 0
            {
                return None;
            }
            self.rows |= rb;
            self.cols |= cb;
            self.sums |= sb;
            self.diffs |= db;
        }
        Some(self)
    }
}

/// Solutions of the `n`-board that a half turn leaves unchanged (OEIS A032522).
///
/// Rows are filled from the top, each queen with its image `(m-r, m-c)`. The attack sets stay
/// symmetric under the half turn, so checking a square checks its image too, and the free
/// squares of a row come out of the sets by shifts, as in the main kernel.
pub(crate) fn half_turn_fixed(n: u32) -> u128 {
    let Some(b) = centre(n) else { return 0 };
    half_turn_fill(n, 0, b.cols, b.sums, b.diffs)
}

fn half_turn_fill(n: u32, row: u32, cols: u32, sums: u64, diffs: u64) -> u128 {
    if row == n / 2 {
        return 1;
    }
    let m = n - 1;
    let full = u32::MAX >> (32 - n);
    // Square (row, c) is on sum diagonal row + c and difference diagonal row - c + m; by the
    // symmetry of the sets the latter is taken exactly when c - row + m is.
    let attacked = cols | (sums >> row) as u32 | (diffs >> (m - row)) as u32;
    // A queen on the anti-diagonal or the diagonal through the centre would attack its image.
    let mut free = full & !attacked & !(1 << (m - row)) & !(1 << row);
    let mut found = 0;
    while free != 0 {
        let c = free.trailing_zeros();
        free &= free - 1;
        found += half_turn_fill(
            n,
            row + 1,
            cols | 1 << c | 1 << (m - c),
            sums | 1 << (row + c) | 1 << (2 * m - row - c),
            diffs | 1 << (row + m - c) | 1 << (c + m - row),
        );
    }
    found
}

/// Solutions of the `n`-board that a quarter turn leaves unchanged (OEIS A033148).
pub(crate) fn quarter_turn_fixed(n: u32) -> u128 {
    if n % 4 >= 2 {
        // Queens come in orbits of four, plus the centre for odd n.
        return 0;
    }
    centre(n).map_or(0, |b| quarter_turn_fill(n, b))
}

/// Fills the empty rows of `board` with whole orbits of the quarter turn.
fn quarter_turn_fill(n: u32, board: Board) -> u128 {
    let full = u32::MAX >> (32 - n);
    if board.rows == full {
        return 1;
    }
    let m = n - 1;
    let row = (!board.rows).trailing_zeros();
    let mut free = full & !board.cols;
    let mut found = 0;
    while free != 0 {
        let c = free.trailing_zeros();
        free &= free - 1;
        let orbit = [(row, c), (c, m - row), (m - row, m - c), (m - c, row)];
        if let Some(next) = board.with(n, &orbit) {
            found += quarter_turn_fill(n, next);
        }
    }
    found
}

/// The empty board, with the centre queen that any turn-symmetric solution of odd n must have
/// (the middle row's queen is its own image, so it sits in the middle column).
fn centre(n: u32) -> Option<Board> {
    if n % 2 == 1 {
        Board::default().with(n, &[(n / 2, n / 2)])
    } else {
        Some(Board::default())
    }
}

/// The number of fundamental solutions, given the total; `None` if the total cannot be right
/// (Burnside's sum is not a multiple of 8).
pub(crate) fn unique(n: u32, total: u128) -> Option<u128> {
    if n == 1 {
        return (total == 1).then_some(1);
    }
    let sum = total + half_turn_fixed(n) + 2 * quarter_turn_fixed(n);
    sum.is_multiple_of(8).then_some(sum / 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The solution turned a quarter: the queen of row r, column c goes to row c, column m-r.
    fn quarter_turn(x: &[u8]) -> Vec<u8> {
        let m = x.len() as u8 - 1;
        let mut y = vec![0; x.len()];
        for (r, &c) in x.iter().enumerate() {
            y[usize::from(c)] = m - r as u8;
        }
        y
    }

    #[test]
    fn fixed_counts_match_a_brute_force() {
        for n in 1..=10 {
            let all = crate::truth::reference::solutions(n);
            let quarter = all.iter().filter(|x| quarter_turn(x) == **x).count() as u128;
            let half = all
                .iter()
                .filter(|x| quarter_turn(&quarter_turn(x)) == **x)
                .count() as u128;
            assert_eq!(half_turn_fixed(n as u32), half, "P({n})");
            assert_eq!(quarter_turn_fixed(n as u32), quarter, "R({n})");
        }
    }

    #[test]
    fn unique_counts_match_the_table() {
        for k in crate::truth::known::table().iter().take(18) {
            assert_eq!(unique(k.n, k.total), Some(k.unique), "n = {}", k.n);
        }
    }

    #[test]
    fn a_wrong_total_is_caught() {
        assert_eq!(unique(8, 93), None);
    }

    #[test]
    fn turn_fixed_counts_equal_a_brute_force() {
        for n in 1..=10usize {
            let all = crate::truth::reference::solutions(n);
            let fixed = |k: usize| {
                all.iter()
                    .filter(|x| crate::dihedral::tests::images(x)[k] == **x)
                    .count() as u128
            };
            assert_eq!(quarter_turn_fixed(n as u32), fixed(1), "R({n})");
            assert_eq!(half_turn_fixed(n as u32), fixed(2), "P({n})");
            // No reflection fixes a solution of n > 1.
            if n > 1 {
                assert!((4..8).all(|k| fixed(k) == 0));
            }
        }
    }
}
