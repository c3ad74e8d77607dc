//! How a listed solution is written: as a board, as JSON, or as a line of columns.
//!
//! A solution becomes a *record*: a head, one token per row and a tail. Consecutive solutions of a
//! listing share most of their first rows, so the [`Renderer`] keeps the last record and rewrites
//! only the rows from the first one that changed: a handful of small copies per solution.

use std::io::{self, Write};
use std::sync::Arc;

/// An output format of `nqueens solve`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Format {
    /// n lines of `Q` and `.` per solution, then a blank line.
    #[default]
    Board,
    /// One JSON array of solutions, each an array of n strings such as `".Q.."`.
    Json,
    /// One line per solution: the 0-based column of the queen in each row, separated by spaces.
    Columns,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 3] = [Format::Board, Format::Json, Format::Columns];

    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Board => "board",
            Format::Json => "json",
            Format::Columns => "columns",
        }
    }

    /// Written once before the first solution.
    pub fn header(self) -> &'static [u8] {
        match self {
            Format::Json => b"[",
            Format::Board | Format::Columns => b"",
        }
    }

    /// Written once after the last solution.
    pub fn footer(self) -> &'static [u8] {
        match self {
            Format::Json => b"\n]\n",
            Format::Board | Format::Columns => b"",
        }
    }

    /// Bytes to drop from the very first record written (JSON's leading comma).
    pub fn first_record_skip(self) -> usize {
        match self {
            Format::Json => 1,
            Format::Board | Format::Columns => 0,
        }
    }

    /// About how many bytes one record of an `n`-board takes.
    pub fn record_len(self, n: usize) -> usize {
        match self {
            Format::Board => n * (n + 1) + 1,
            Format::Json => n * (n + 3) + 5,
            Format::Columns => n * 3,
        }
    }

    /// Writes every record of `solutions` (with header and footer) to `out`.
    pub fn write_all<'a>(
        self,
        n: usize,
        solutions: impl IntoIterator<Item = &'a [u8]>,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let mut renderer = Renderer::new(self, n);
        let mut skip = self.first_record_skip();
        out.write_all(self.header())?;
        for s in solutions {
            out.write_all(&renderer.render(s)[skip..])?;
            skip = 0;
        }
        out.write_all(self.footer())
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The bytes of each row's token for each column, shared by the clones of a renderer.
#[derive(Debug)]
struct Tokens {
    tail: &'static [u8],
    /// Row 0, then the other rows, by column.
    first: Vec<Vec<u8>>,
    rest: Vec<Vec<u8>>,
}

/// Turns solutions of one board size into records, reusing the rows the last one shared.
///
/// Cloning is cheap (the token tables are shared): one clone per thread or chunk.
#[derive(Debug, Clone)]
pub struct Renderer {
    n: usize,
    tokens: Arc<Tokens>,
    /// The last record without its tail, the end of each row's token in it, and its columns.
    line: Vec<u8>,
    ends: [usize; 33],
    last: [u8; 32],
    /// Rows of `line` that are up to date with `last`.
    valid: usize,
}

impl Renderer {
    /// A renderer of `n`-board solutions in `format`.
    pub fn new(format: Format, n: usize) -> Renderer {
        let row = |c: usize| -> String { (0..n).map(|i| if i == c { 'Q' } else { '.' }).collect() };
        let (head, tail, first, rest): (&[u8], &[u8], Vec<String>, Vec<String>) = match format {
            Format::Board => (
                b"",
                b"\n",
                (0..n).map(|c| row(c) + "\n").collect(),
                (0..n).map(|c| row(c) + "\n").collect(),
            ),
            Format::Json => (
                b",\n  [",
                b"]",
                (0..n).map(|c| format!("\"{}\"", row(c))).collect(),
                (0..n).map(|c| format!(",\"{}\"", row(c))).collect(),
            ),
            Format::Columns => (
                b"",
                b"\n",
                (0..n).map(|c| c.to_string()).collect(),
                (0..n).map(|c| format!(" {c}")).collect(),
            ),
        };
        let mut ends = [0; 33];
        ends[0] = head.len();
        let bytes = |v: Vec<String>| v.into_iter().map(String::into_bytes).collect();
        Renderer {
            n,
            tokens: Arc::new(Tokens {
                tail,
                first: bytes(first),
                rest: bytes(rest),
            }),
            line: head.to_vec(),
            ends,
            last: [0; 32],
            valid: 0,
        }
    }

    /// The record of `cols` (a solution of the `n`-board), valid until the next call.
    #[inline]
    pub fn render(&mut self, cols: &[u8]) -> &[u8] {
        let n = self.n;
        debug_assert_eq!(cols.len(), n);
        let same = self.last[..self.valid]
            .iter()
            .zip(cols)
            .take_while(|(a, b)| a == b)
            .count();
        self.line.truncate(self.ends[same]);
        let tokens = &*self.tokens;
        for (r, &c) in cols.iter().enumerate().skip(same) {
            let token = if r == 0 { &tokens.first } else { &tokens.rest };
            self.line.extend_from_slice(&token[usize::from(c)]);
            self.ends[r + 1] = self.line.len();
            self.last[r] = c;
        }
        self.valid = n;
        // The tail stays in place until the next call truncates it away.
        self.line.extend_from_slice(tokens.tail);
        &self.line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(format: Format, n: usize, solutions: &[Vec<u8>]) -> String {
        let mut out = Vec::new();
        format
            .write_all(n, solutions.iter().map(Vec::as_slice), &mut out)
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_three_formats_of_the_4_queens() {
        let s = crate::truth::reference::solutions(4);
        assert_eq!(
            written(Format::Board, 4, &s),
            ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n"
        );
        assert_eq!(
            written(Format::Json, 4, &s),
            "[\n  [\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],\n  [\"..Q.\",\"Q...\",\"...Q\",\".Q..\"]\n]\n"
        );
        assert_eq!(written(Format::Columns, 4, &s), "1 3 0 2\n2 0 3 1\n");
        assert_eq!(written(Format::Json, 4, &[]), "[\n]\n");
    }

    #[test]
    fn reusing_rows_gives_the_same_records_as_starting_afresh() {
        for format in Format::ALL {
            let all = crate::truth::reference::solutions(10);
            let mut r = Renderer::new(format, 10);
            for s in &all {
                let fresh = Renderer::new(format, 10).render(s).to_vec();
                assert_eq!(r.render(s), &fresh[..]);
            }
        }
    }
}
