//! The search step by step, for learning: each placement and each backtrack as a board snapshot.
//!
//! The same depth-first search as the listing, on one thread and written the way the teaching
//! versions are: try each free square of the row, place a queen, go one row down; when a row has
//! no free square, take the last queen back and try its next square.

use std::io::{self, Write};

use crate::search::kernel::Partial;

/// Writes the trace of the `n`-board search to `out` until `limit` solutions have been found (or
/// all of them), and returns how many were found. `n` must be from 1 to 32.
pub fn trace(n: u32, limit: Option<u64>, out: &mut impl Write) -> io::Result<u64> {
    let mut t = Tracer {
        n: n as usize,
        out,
        cols: Vec::with_capacity(n as usize),
        step: 0,
        found: 0,
        limit: limit.unwrap_or(u64::MAX),
    };
    t.search(Partial::EMPTY)?;
    Ok(t.found)
}

struct Tracer<'a, W> {
    n: usize,
    out: &'a mut W,
    /// The queens placed, by row.
    cols: Vec<u8>,
    step: u64,
    found: u64,
    limit: u64,
}

impl<W: Write> Tracer<'_, W> {
    /// Tries every free square of the next row; `Ok(true)` once the limit is reached.
    fn search(&mut self, board: Partial) -> io::Result<bool> {
        let row = self.cols.len();
        if row == self.n {
            self.found += 1;
            let cols: Vec<String> = self.cols.iter().map(u8::to_string).collect();
            writeln!(
                self.out,
                "solution {}: columns {}\n",
                self.found,
                cols.join(" ")
            )?;
            return Ok(self.found >= self.limit);
        }
        let mut free = board.free(self.n as u32);
        if free == 0 {
            writeln!(self.out, "row {row} has no free square: dead end\n")?;
        }
        while free != 0 {
            let col = free.trailing_zeros();
            free &= free - 1;
            self.cols.push(col as u8);
            self.snapshot(&format!("place a queen in row {row}, column {col}"))?;
            if self.search(board.place(col))? {
                return Ok(true);
            }
            self.cols.pop();
            self.snapshot(&format!(
                "backtrack: take the queen off row {row}, column {col}"
            ))?;
        }
        Ok(false)
    }

    /// A numbered step and the board after it.
    fn snapshot(&mut self, what: &str) -> io::Result<()> {
        self.step += 1;
        writeln!(self.out, "step {}: {what}", self.step)?;
        let mut board = String::with_capacity(self.n * (self.n + 1) + 1);
        for r in 0..self.n {
            let queen = self.cols.get(r).map(|&c| usize::from(c));
            board.extend((0..self.n).map(|c| if queen == Some(c) { 'Q' } else { '.' }));
            board.push('\n');
        }
        writeln!(self.out, "{board}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn traced(n: u32, limit: Option<u64>) -> (u64, String) {
        let mut out = Vec::new();
        let found = trace(n, limit, &mut out).unwrap();
        (found, String::from_utf8(out).unwrap())
    }

    #[test]
    fn four_queens_step_by_step() {
        let (found, text) = traced(4, None);
        assert_eq!(found, 2);
        assert!(text.starts_with("step 1: place a queen in row 0, column 0\nQ...\n....\n"));
        assert!(text.contains("step 2: place a queen in row 1, column 2\nQ...\n..Q.\n....\n"));
        assert!(text.contains("row 2 has no free square: dead end"));
        assert!(text.contains("backtrack: take the queen off row 1, column 2\nQ...\n....\n"));
        assert!(text.contains("solution 1: columns 1 3 0 2"));
        assert!(text.contains("solution 2: columns 2 0 3 1"));
        // Every placement is taken back in the end when the search runs to its end.
        let places = text.matches(": place").count();
        assert_eq!(places, text.matches("backtrack").count());
    }

    #[test]
    fn the_limit_stops_the_trace_at_a_solution() {
        let (found, text) = traced(6, Some(1));
        assert_eq!(found, 1);
        assert!(text.trim_end().ends_with("solution 1: columns 1 3 5 0 2 4"));
        assert_eq!(traced(3, Some(1)).0, 0);
    }
}
