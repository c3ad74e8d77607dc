//! The listing kernel: a resumable bitboard backtrack that hands out each placement it completes.
//!
//! The same walk as [`crate::search::kernel`] (one `u32` per attack set, lowest free bit first), but it
//! records the column of each row and stops at every completed placement, so the caller sees the
//! placements one by one in lexicographic order of their columns. A walker fills rows from a fixed
//! prefix up to an end row: up to `n` it lists solutions, up to a smaller row it lists the legal
//! prefixes that the parallel listing hands out as chunks. No allocation, no recursion.

use crate::search::kernel::{board_mask, Partial};

/// One row of the search: its free squares not tried yet, and the attack sets seen from it.
#[derive(Debug, Clone, Copy, Default)]
struct Frame {
    avail: u32,
    cols: u32,
    ld: u32,
    rd: u32,
    row: u32,
}

/// Lists the legal ways to fill rows `prefix.len()..end` of an `n`-board below a fixed prefix.
#[derive(Debug, Clone)]
pub struct Walker {
    mask: u32,
    /// The row after the last one it fills.
    end: u32,
    /// The row whose queen completes a placement: `end - 1`, or `end - 3` when the last two
    /// rows of the board are filled in one step.
    last: u32,
    /// Whether the last two rows of the board are filled in one step.
    two_left: bool,
    /// The last placement had a twin: the same with the last two rows swapped.
    pending: bool,
    /// The queen's column in each row; rows below `end` are the placement being handed out.
    queens: [u8; 32],
    /// The row being tried, and the rows above it that still have squares to try: a row with
    /// none left is never saved, so every pop resumes real work.
    here: Frame,
    saved: [Frame; 32],
    depth: usize,
}

impl Walker {
    /// A walker over the completions of `prefix` (queen columns of rows 0, 1, …) to `end` rows,
    /// or `None` when the prefix is not legal or longer than `end`, or `end > n`.
    pub fn new(n: u32, prefix: &[u8], end: usize) -> Option<Walker> {
        let start = Partial::from_queens(n, prefix)?;
        if prefix.len() > end || end > n as usize {
            return None;
        }
        let end = end as u32;
        let two_left = end == n && end >= start.row + 3;
        let mut queens = [0; 32];
        queens[..prefix.len()].copy_from_slice(prefix);
        Some(Walker {
            mask: board_mask(n),
            end,
            last: end.saturating_sub(if two_left { 3 } else { 1 }),
            two_left,
            // Nothing to fill: the prefix itself is the one placement.
            pending: start.row == end,
            queens,
            here: Frame {
                avail: if start.row < end { start.free(n) } else { 0 },
                cols: start.cols,
                ld: start.ld,
                rd: start.rd,
                row: start.row,
            },
            saved: [Frame::default(); 32],
            depth: 0,
        })
    }

    /// The next placement of rows `0..end` (prefix included), or `None` when all are out.
    #[inline]
    pub fn next_placement(&mut self) -> Option<&[u8]> {
        let end = self.end as usize;
        if self.pending {
            // The twin of the last placement, or the prefix when there is nothing to fill.
            self.pending = false;
            if self.two_left {
                self.queens.swap(end - 2, end - 1);
            }
            return Some(&self.queens[..end]);
        }
        let (mask, last) = (self.mask, self.last);
        let mut depth = self.depth;
        let Frame {
            mut avail,
            mut cols,
            mut ld,
            mut rd,
            mut row,
        } = self.here;
        loop {
            if avail != 0 {
                let bit = avail & avail.wrapping_neg();
                avail ^= bit;
                self.queens[row as usize & 31] = bit.trailing_zeros() as u8;
                let (nc, nl, nr) = (cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
                if row == last {
                    if self.two_left && !self.fill_last_two(mask, nc, nl, nr) {
                        continue;
                    }
                    self.depth = depth;
                    self.here = Frame {
                        avail,
                        cols,
                        ld,
                        rd,
                        row,
                    };
                    return Some(&self.queens[..end]);
                }
                self.saved[depth & 31] = Frame {
                    avail,
                    cols,
                    ld,
                    rd,
                    row,
                };
                depth += usize::from(avail != 0);
                (cols, ld, rd, row) = (nc, nl, nr, row + 1);
                avail = mask & !(cols | ld | rd);
            } else {
                if depth == 0 {
                    self.here.avail = 0;
                    return None;
                }
                depth -= 1;
                Frame {
                    avail,
                    cols,
                    ld,
                    rd,
                    row,
                } = self.saved[depth & 31];
            }
        }
    }

    /// Puts queens in the last two rows of the board, whose other rows hold `cols`, `ld` and
    /// `rd`, if there is a way; the other way, when it works too, is left `pending`.
    ///
    /// n - 2 queens leave two free columns x < y; each order works when its first square is off
    /// the diagonals in row n - 2 and its second in row n - 1, and neither when x and y are
    /// adjacent. Row n - 2 takes the smaller column first when that order works.
    #[inline(always)]
    fn fill_last_two(&mut self, mask: u32, cols: u32, ld: u32, rd: u32) -> bool {
        let open = mask & !cols;
        let x = open & open.wrapping_neg();
        let y = open ^ x;
        let here = !(ld | rd);
        let next = !((ld << 1) | (rd >> 1));
        let apart = if y != x << 1 { u32::MAX } else { 0 };
        let xy = x & here & if next & y != 0 { apart } else { 0 };
        let yx = y & here & if next & x != 0 { apart } else { 0 };
        if xy | yx == 0 {
            return false;
        }
        let first = if xy != 0 { xy } else { yx };
        let end = self.end as usize;
        self.queens[end - 2] = first.trailing_zeros() as u8;
        self.queens[end - 1] = (open ^ first).trailing_zeros() as u8;
        self.pending = xy != 0 && yx != 0;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::truth::reference;

    fn all(n: u32, prefix: &[u8], end: usize) -> Vec<Vec<u8>> {
        let mut w = Walker::new(n, prefix, end).unwrap();
        std::iter::from_fn(|| w.next_placement().map(<[u8]>::to_vec)).collect()
    }

    #[test]
    fn lists_the_solutions_of_the_textbook_solver_in_its_order() {
        for n in 1..=9 {
            assert_eq!(all(n, &[], n as usize), reference::solutions(n as usize));
        }
        assert_eq!(all(8, &[0, 4], 8), reference::solutions_from(8, &[0, 4]));
    }

    #[test]
    fn lists_prefixes_in_order() {
        let p = all(6, &[], 2);
        assert_eq!(p.len(), 6 * 6 - 6 - 10);
        assert!(p.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(all(6, &[1], 1), vec![vec![1]]);
        assert_eq!(all(6, &[], 0), vec![Vec::<u8>::new()]);
    }

    #[test]
    fn refuses_bad_prefixes() {
        assert!(Walker::new(6, &[0, 1], 6).is_none());
        assert!(Walker::new(6, &[0, 2], 1).is_none());
        assert!(Walker::new(6, &[], 7).is_none());
        assert!(all(3, &[], 3).is_empty());
    }
}
