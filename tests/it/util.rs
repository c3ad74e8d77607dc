//! Helpers shared by the integration tests.

use assert_cmd::Command;

/// The `nqueens` binary, with backtraces asked for so a panic would show.
pub fn nqueens() -> Command {
    let mut cmd = Command::cargo_bin("nqueens").expect("the binary is built");
    cmd.env("RUST_BACKTRACE", "1");
    cmd
}

/// An independent check that `cols` (one column per row) is a solution.
pub fn is_solution(cols: &[u8]) -> bool {
    let n = cols.len();
    (0..n).all(|a| {
        usize::from(cols[a]) < n
            && (a + 1..n).all(|b| {
                let (ca, cb) = (i64::from(cols[a]), i64::from(cols[b]));
                ca != cb && (ca - cb).abs() != (b - a) as i64
            })
    })
}
