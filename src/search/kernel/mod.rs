//! The bitboard backtrack: counts every way to complete a partially filled board.
//!
//! One machine word per set of attacked squares in the row being filled. Bit `c` stands for
//! column `c` (n = 8 shown, bits above n - 1 are off the board and masked away):
//!
//! ```text
//!   bit:      7 6 5 4 3 2 1 0          row r-1:  . . . Q . . . .   queen in column 4
//!   cols      0 0 0 1 0 0 0 0          columns taken by any queen above
//!   ld        0 0 1 0 0 0 0 0          "\" diagonals: shifted left (<< 1) once per row
//!   rd        0 0 0 0 1 0 0 0          "/" diagonals: shifted right (>> 1) once per row
//!   free  = mask & !(cols | ld | rd)   squares of row r no queen attacks
//! ```
//!
//! Bits that leave the word (above bit 31 or below bit 0) are off the board for good, so one
//! `u32` per set serves every n ≤ 32. The search takes the lowest free bit (`x & -x`), keeps the
//! rest of the row on an explicit stack (no recursion, no allocation), and never pushes the last
//! row: when the queen of row n - 2 is placed, row n - 1 either has its one free square or not.
//! This is the classic scheme of Richards (2002) and Somers' counter, written as a state machine,
//! with a branch-free look two rows ahead (`viable`). `search_in` is the algorithm; the path files
//! (`crate::system::isa`) compile it for their instructions: on x86-64 the bit-manipulation
//! instructions most CPUs since 2013 have (`blsi`, `andn`, `shlx`, a one-step `lzcnt`).

use crate::system::isa::{self, Isa};

isa::paths!();

/// Rows placed so far, as the three attack sets seen from the next row to fill.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Partial {
    /// The next row to fill; rows `0..row` hold one queen each.
    pub row: u32,
    /// Columns taken.
    pub cols: u32,
    /// Squares of row `row` attacked along "\" diagonals.
    pub ld: u32,
    /// Squares of row `row` attacked along "/" diagonals.
    pub rd: u32,
}

impl Partial {
    /// The empty board.
    pub(crate) const EMPTY: Partial = Partial {
        row: 0,
        cols: 0,
        ld: 0,
        rd: 0,
    };

    /// Free squares of row `row` on a board of width `n`.
    #[inline(always)]
    pub(crate) fn free(&self, n: u32) -> u32 {
        board_mask(n) & !(self.cols | self.ld | self.rd)
    }

    /// The board after a queen is put in column `col` of row `row` (the square must be free).
    #[inline(always)]
    pub(crate) fn place(&self, col: u32) -> Partial {
        let bit = 1u32 << col;
        Partial {
            row: self.row + 1,
            cols: self.cols | bit,
            ld: (self.ld | bit) << 1,
            rd: (self.rd | bit) >> 1,
        }
    }

    /// The board with queens in columns `queens[0]`, `queens[1]`, … of rows 0, 1, …, or `None`
    /// when two of them attack each other or a column is off the board.
    pub(crate) fn from_queens(n: u32, queens: &[u8]) -> Option<Partial> {
        queens.iter().try_fold(Partial::EMPTY, |p, &c| {
            let c = u32::from(c);
            (c < n && p.free(n) & (1 << c) != 0).then(|| p.place(c))
        })
    }
}

/// The `n` low bits set: the columns of the board.
#[inline(always)]
pub(crate) fn board_mask(n: u32) -> u32 {
    debug_assert!((1..=32).contains(&n));
    u32::MAX >> (32 - n)
}

/// What one search found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Search {
    /// Complete boards.
    pub solutions: u64,
    /// Queens placed, counting each last-row queen found (0 unless asked for).
    pub nodes: u64,
}

impl Search {
    /// What a search of `solutions` complete boards, placing `nodes` queens, found: for an
    /// [`crate::Observer`] told of pieces a program counted otherwise, and for tests.
    pub fn new(solutions: u64, nodes: u64) -> Search {
        Search { solutions, nodes }
    }
}

/// Which squares of each row a search may use, on top of the attack sets.
///
/// The mirror engine allows every square; the symmetry engine forbids, row by row, the squares
/// its pre-placed border queens attack and forces the rows those queens stand in. The search is
/// compiled once per kind, so the plain board pays nothing for the generality.
pub(crate) trait Rows {
    /// The squares of `row` that may hold a queen.
    fn allowed(&self, row: u32) -> u32;
    /// The columns no row after `row` may fill: once the queen of `row` is placed, a free
    /// column among them is a dead end, found as soon as the last row that could take it is
    /// passed.
    fn stuck(&self, row: u32) -> u32;
}

/// Every square of every row of an `n`-board.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AllRows(pub u32);

impl Rows for AllRows {
    #[inline(always)]
    fn allowed(&self, _row: u32) -> u32 {
        self.0
    }
    #[inline(always)]
    fn stuck(&self, _row: u32) -> u32 {
        0
    }
}

/// One mask of allowed squares per row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RowMasks {
    allowed: [u32; 32],
    stuck: [u32; 32],
}

impl RowMasks {
    /// The masks of rows 0..32 of an `n`-board (rows past the board allow nothing).
    pub(crate) fn new(n: u32, allowed: [u32; 32]) -> RowMasks {
        let mut stuck = [0u32; 32];
        let mut reach = 0;
        for row in (0..32).rev() {
            stuck[row] = board_mask(n) & !reach;
            reach |= allowed[row];
        }
        RowMasks { allowed, stuck }
    }
}

impl Rows for RowMasks {
    #[inline(always)]
    fn allowed(&self, row: u32) -> u32 {
        self.allowed[(row & 31) as usize]
    }
    #[inline(always)]
    fn stuck(&self, row: u32) -> u32 {
        self.stuck[(row & 31) as usize]
    }
}

/// Counts the completions of `start` using only the squares `rows` allows, and the queens
/// placed when `count_nodes` is set, with the build for this CPU's instructions.
pub(crate) fn search<R: Rows>(n: u32, rows: &R, start: Partial, count_nodes: bool) -> Search {
    let isa = Isa::this_cpu();
    if count_nodes {
        isa::dispatch!(isa, search::<R, true>(n, rows, start))
    } else {
        isa::dispatch!(isa, search::<R, false>(n, rows, start))
    }
}

/// The backtrack. `NODES` compiles the node counter in or out of the hot loop.
#[inline(always)]
pub(super) fn search_in<R: Rows, const NODES: bool>(n: u32, rows: &R, start: Partial) -> Search {
    let mask = board_mask(n);
    let free = |row: u32, cols: u32, ld: u32, rd: u32| rows.allowed(row) & !(cols | ld | rd);
    if start.row + 2 >= n {
        return match n - start.row.min(n) {
            0 => Search {
                solutions: 1,
                nodes: 0,
            },
            1 => {
                let hit = u64::from(free(start.row, start.cols, start.ld, start.rd) != 0);
                Search {
                    solutions: hit,
                    nodes: hit,
                }
            }
            _ => last_two::<NODES>(mask, rows, n, start.cols, start.ld, start.rd),
        };
    }
    // The row whose placement leaves only rows n - 2 and n - 1 empty.
    let last = n - 3;
    // Saved rows, one slot per row, as plain arrays so each save and restore stays scalar
    // moves; bit r of `pending` says row r still has untried squares. A backtrack resumes the
    // deepest such row (the highest bit) at once, however many rows it climbs.
    let mut st_avail = [0u32; 32];
    let mut st_cols = [0u32; 32];
    let mut st_ld = [0u32; 32];
    let mut st_rd = [0u32; 32];
    let mut pending = 0u32;
    let Partial {
        mut row,
        mut cols,
        mut ld,
        mut rd,
    } = start;
    let mut avail = free(row, cols, ld, rd);
    // The free squares of the next two rows as the queens above `row` leave them: what a queen
    // of `row` takes from them is then a few operations on its own bit.
    let ahead = |row: u32, cols: u32, ld: u32, rd: u32| {
        (
            rows.allowed(row + 1) & !(cols | ld << 1 | rd >> 1),
            rows.allowed(row + 2) & !(cols | ld << 2 | rd >> 2),
        )
    };
    let (mut one, mut two) = ahead(row, cols, ld, rd);
    let mut found = Search::default();
    loop {
        if avail != 0 {
            let bit = avail & avail.wrapping_neg();
            avail ^= bit;
            if NODES {
                found.nodes += 1;
            }
            if row == last {
                let (nc, nl, nr) = (cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
                if rows.stuck(row) & !nc == 0 {
                    let tail = last_two::<NODES>(mask, rows, n, nc, nl, nr);
                    found.solutions += tail.solutions;
                    found.nodes += tail.nodes;
                }
                continue;
            }
            // Look ahead two rows: keep the squares of the next row whose queen leaves the row
            // after it a free square. A queen with none left dies here, before a push, and the
            // squares sifted out are never tried (nor counted as placed).
            let below = two & !spread::<2>(bit);
            let next = viable(one & !spread::<1>(bit), below);
            if next == 0 {
                continue;
            }
            let (nc, nl, nr) = (cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
            if rows.stuck(row) & !nc != 0 {
                continue;
            }
            let i = (row & 31) as usize;
            (st_avail[i], st_cols[i], st_ld[i], st_rd[i]) = (avail, cols, ld, rd);
            pending |= u32::from(avail != 0) << (row & 31);
            (cols, ld, rd, row, avail) = (nc, nl, nr, row + 1, next);
            // `row` is at most `last` here, so row + 2 is still on the board; the row below
            // it is `below` already.
            (one, two) = (below, ahead(row, cols, ld, rd).1);
        } else {
            if pending == 0 {
                break;
            }
            row = 31 - pending.leading_zeros();
            pending ^= 1 << row;
            let i = row as usize;
            (avail, cols, ld, rd) = (st_avail[i], st_cols[i], st_ld[i], st_rd[i]);
            (one, two) = ahead(row, cols, ld, rd);
        }
    }
    found
}

/// The square `bit` and those `K` columns to either side: what a queen at `bit` attacks `K` rows
/// away. One multiplication (`bit · (2^2K + 2^K + 1)`, in 64 bits so that nothing wraps) and one
/// shift.
#[inline(always)]
fn spread<const K: u32>(bit: u32) -> u32 {
    ((u64::from(bit) * ((1 << (2 * K)) + (1 << K) + 1)) >> K) as u32
}

/// The squares of `avail` (candidates for one row) whose queen leaves a square of `below` (the
/// free squares of the row below, before that queen) open.
///
/// A queen at `b` takes `b` and its two neighbours from the row below, so it empties `below`
/// exactly when every square of `below` is within one column of `b`: when `b` lies between one
/// below the highest square of `below` and one above the lowest. No branch: the whole row is
/// sifted at once with two masks.
#[inline(always)]
fn viable(avail: u32, below: u32) -> u32 {
    let lowest = below & below.wrapping_neg();
    // The squares more than one below the highest of `below` (none when `below` is empty).
    let under = (0x7FFF_FFFFu64 >> (below.leading_zeros() + 1)) as u32;
    // Those from one below the highest to one above the lowest (all when `below` is empty).
    let kill = (lowest << 2).wrapping_sub(1) & !under;
    avail & !kill
}

/// Completions of a board whose only empty rows are the last two, without a branch.
///
/// n - 2 queens leave exactly two free columns, x < y. Row n - 2 takes one and row n - 1 the
/// other, so there are at most two solutions: x then y, or y then x. Each needs its first square
/// free of the diagonals in row n - 2 and its second free of them in row n - 1, and neither
/// works when x and y are adjacent (the two queens would share a diagonal).
#[inline(always)]
fn last_two<const NODES: bool>(
    mask: u32,
    rows: &impl Rows,
    n: u32,
    cols: u32,
    ld: u32,
    rd: u32,
) -> Search {
    let open = mask & !cols;
    let x = open & open.wrapping_neg();
    let y = open ^ x;
    let here = rows.allowed(n - 2) & !(ld | rd);
    let next = rows.allowed(n - 1) & !((ld << 1) | (rd >> 1));
    let apart = u64::from(y != x << 1);
    let xy = u64::from(here & x != 0) & u64::from(next & y != 0);
    let yx = u64::from(here & y != 0) & u64::from(next & x != 0);
    let solutions = (xy + yx) * apart;
    Search {
        solutions,
        nodes: if NODES {
            u64::from((here & open).count_ones()) + solutions
        } else {
            0
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the completions of `start` on a board of width `n` (1 ≤ n ≤ 32).
    #[inline]
    pub(crate) fn count(n: u32, start: Partial) -> u64 {
        search(n, &AllRows(board_mask(n)), start, false).solutions
    }

    #[test]
    fn counts_whole_boards() {
        let expected = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
        for (i, &e) in expected.iter().enumerate() {
            assert_eq!(count(i as u32 + 1, Partial::EMPTY), e, "n = {}", i + 1);
        }
    }

    #[test]
    fn counts_from_a_prefix() {
        // n = 8 with a queen in the corner of row 0: 4 of the 92 solutions.
        let p = Partial::from_queens(8, &[0]).unwrap();
        assert_eq!(count(8, p), 4);
        assert_eq!(Partial::from_queens(8, &[0, 1]), None);
        assert_eq!(Partial::from_queens(8, &[8]), None);
    }

    #[test]
    fn full_width_board_keeps_every_bit() {
        assert_eq!(board_mask(32), u32::MAX);
        assert_eq!(board_mask(1), 1);
    }

    /// `bit` and the squares `k` columns to either side, by plain shifts.
    fn neighbourhood(bit: u32, k: u32) -> u32 {
        (u64::from(bit) | u64::from(bit) << k | u64::from(bit) >> k) as u32
    }

    #[test]
    fn spread_is_the_square_and_its_neighbours_k_columns_away() {
        for col in 0..32 {
            let bit = 1u32 << col;
            assert_eq!(spread::<1>(bit), neighbourhood(bit, 1), "column {col}");
            assert_eq!(spread::<2>(bit), neighbourhood(bit, 2), "column {col}");
        }
    }

    #[test]
    fn viable_keeps_exactly_the_squares_that_leave_the_row_below_open() {
        // Every set of free squares below within three columns of the queen, with and without a
        // far one, across the whole word (the edges are where shifts go wrong).
        for col in 0..32u32 {
            let bit = 1u32 << col;
            let window: Vec<u32> = (col.saturating_sub(3)..=(col + 3).min(31)).collect();
            for subset in 0u32..1 << window.len() {
                let near = window
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| subset >> i & 1 == 1)
                    .fold(0u32, |acc, (_, &c)| acc | 1 << c);
                let far = 1u32 << ((col + 16) % 32);
                for below in [near, near | far] {
                    let open = below & !neighbourhood(bit, 1) != 0;
                    assert_eq!(
                        viable(bit, below),
                        if open { bit } else { 0 },
                        "{col} {below:#x}"
                    );
                }
            }
        }
        // A whole row at once: each square is kept or dropped on its own.
        assert_eq!(viable(0b1111_0000, 0b0010_0000), 0b1000_0000);
    }

    #[test]
    fn node_counter_does_not_change_the_count() {
        let s = search(10, &AllRows(board_mask(10)), Partial::EMPTY, true);
        assert_eq!(s.solutions, 724);
        assert!(s.nodes > s.solutions);
    }

    // The kernel against the textbook solver.
    use crate::truth::reference;
    use proptest::prelude::*;

    #[test]
    fn kernel_agrees_with_the_textbook_solver_for_small_boards() {
        for n in 1..=10usize {
            let slow = reference::solutions(n);
            assert_eq!(
                count(n as u32, Partial::EMPTY),
                slow.len() as u64,
                "n = {n}"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn kernel_agrees_on_random_prefixes(n in 1usize..=11, prefix in prop::collection::vec(0u8..11, 0..6)) {
            let prefix: Vec<u8> = prefix.into_iter().take(n).collect();
            let slow = reference::solutions_from(n, &prefix).len() as u64;
            let fast = Partial::from_queens(n as u32, &prefix).map_or(0, |p| count(n as u32, p));
            prop_assert_eq!(fast, slow);
        }

        /// Wide boards, where the look-ahead's shifts and masks reach the top of the word: a random
        /// prefix, each queen on a square left free, until seven rows are left or a row has none.
        #[test]
        fn kernel_agrees_on_deep_prefixes_of_wide_boards(
            n in 24usize..=32,
            picks in prop::collection::vec(any::<u32>(), 32),
        ) {
            let (mut prefix, mut board) = (Vec::new(), Partial::EMPTY);
            for pick in picks.into_iter().take(n - 7) {
                let mut free = board.free(n as u32);
                if free == 0 {
                    break;
                }
                for _ in 0..pick % free.count_ones() {
                    free &= free - 1;
                }
                prefix.push(free.trailing_zeros() as u8);
                board = board.place(free.trailing_zeros());
            }
            let slow = reference::solutions_from(n, &prefix).len() as u64;
            prop_assert_eq!(count(n as u32, board), slow);
        }
    }
}
