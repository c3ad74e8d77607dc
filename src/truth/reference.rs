//! The textbook solver: one queen per row, each square checked against every queen above.
//!
//! Slow on purpose and written to be obviously right; the fast engines are tested against it.

/// True when a queen in `row`, `col` attacks none of the queens `cols[0..row]` (one per row).
fn safe(cols: &[u8], row: usize, col: u8) -> bool {
    cols[..row]
        .iter()
        .enumerate()
        .all(|(r, &c)| c != col && (row - r) != usize::from(c.abs_diff(col)))
}

/// Every solution that extends the first rows `prefix`, as the column of each row's queen, in
/// lexicographic order. A prefix whose queens attack each other has no solutions.
pub fn solutions_from(n: usize, prefix: &[u8]) -> Vec<Vec<u8>> {
    let mut cols = prefix.to_vec();
    if (0..cols.len()).any(|r| !safe(&cols, r, cols[r]) || usize::from(cols[r]) >= n) {
        return Vec::new();
    }
    let mut out = Vec::new();
    place(n, &mut cols, &mut out);
    out
}

fn place(n: usize, cols: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
    let row = cols.len();
    if row == n {
        out.push(cols.clone());
        return;
    }
    for col in 0..n as u8 {
        if safe(cols, row, col) {
            cols.push(col);
            place(n, cols, out);
            cols.pop();
        }
    }
}

/// Every solution of the `n`-board.
pub fn solutions(n: usize) -> Vec<Vec<u8>> {
    solutions_from(n, &[])
}

/// A solution as rows of `Q` and `.`, the way the textbook solvers print it.
pub fn board(cols: &[u8]) -> Vec<String> {
    let n = cols.len();
    cols.iter()
        .map(|&c| {
            (0..n)
                .map(|i| if i == usize::from(c) { 'Q' } else { '.' })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_queens() {
        assert_eq!(solutions(4), vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
        assert_eq!(board(&[1, 3, 0, 2]), vec![".Q..", "...Q", "Q...", "..Q."]);
    }

    #[test]
    fn attacking_prefix_has_no_solutions() {
        assert!(solutions_from(6, &[0, 1]).is_empty());
        assert!(solutions_from(6, &[0, 0]).is_empty());
    }
}
