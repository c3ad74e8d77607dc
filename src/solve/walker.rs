//! The listing kernel: a resumable bitboard backtrack that hands out each placement it completes.
//!
//! The same walk as [`crate::kernel`] (one `u32` per attack set, lowest free bit first), but it
//! records the column of each row and stops at every completed placement, so the caller sees the
//! placements one by one in lexicographic order of their columns. A walker fills rows from a fixed
//! prefix up to an end row: up to `n` it lists solutions, up to a smaller row it lists the legal
//! prefixes that the parallel listing hands out as chunks. No allocation, no recursion.

use crate::kernel::{board_mask, Partial};

/// Lists the legal ways to fill rows `prefix.len()..end` of an `n`-board below a fixed prefix.
#[derive(Debug, Clone)]
pub struct Walker {
    mask: u32,
    /// The first row the walker fills; rows above it hold the prefix.
    floor: usize,
    /// The row after the last one it fills.
    end: usize,
    /// The row being tried.
    row: usize,
    /// False once every placement has been handed out.
    live: bool,
    cols: [u8; 32],
    /// Per row: its free squares not tried yet, and the attack sets seen from it.
    avail: [u32; 32],
    taken: [u32; 32],
    ld: [u32; 32],
    rd: [u32; 32],
}

impl Walker {
    /// A walker over the completions of `prefix` (queen columns of rows 0, 1, …) to `end` rows,
    /// or `None` when the prefix is not legal or longer than `end`, or `end > n`.
    pub fn new(n: u32, prefix: &[u8], end: usize) -> Option<Walker> {
        let start = Partial::from_queens(n, prefix)?;
        if prefix.len() > end || end > n as usize {
            return None;
        }
        let mut w = Walker {
            mask: board_mask(n),
            floor: prefix.len(),
            end,
            row: prefix.len(),
            live: true,
            cols: [0; 32],
            avail: [0; 32],
            taken: [0; 32],
            ld: [0; 32],
            rd: [0; 32],
        };
        w.cols[..prefix.len()].copy_from_slice(prefix);
        if w.floor < end {
            let r = w.floor;
            (w.taken[r], w.ld[r], w.rd[r]) = (start.cols, start.ld, start.rd);
            w.avail[r] = start.free(n);
        }
        Some(w)
    }

    /// The next placement of rows `0..end` (prefix included), or `None` when all are out.
    #[inline]
    pub fn next_placement(&mut self) -> Option<&[u8]> {
        if !self.live {
            return None;
        }
        if self.floor == self.end {
            // Nothing to fill: the prefix itself is the one placement.
            self.live = false;
            return Some(&self.cols[..self.end]);
        }
        let mut row = self.row;
        loop {
            let a = self.avail[row];
            if a == 0 {
                if row == self.floor {
                    self.live = false;
                    return None;
                }
                row -= 1;
                continue;
            }
            let bit = a & a.wrapping_neg();
            self.avail[row] = a ^ bit;
            self.cols[row] = bit.trailing_zeros() as u8;
            if row + 1 == self.end {
                self.row = row;
                return Some(&self.cols[..self.end]);
            }
            let (c, l, r) = (
                self.taken[row] | bit,
                (self.ld[row] | bit) << 1,
                (self.rd[row] | bit) >> 1,
            );
            row += 1;
            (self.taken[row], self.ld[row], self.rd[row]) = (c, l, r);
            self.avail[row] = self.mask & !(c | l | r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;

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
