//! The mirror engine's plan: rows `0..d` pre-placed, the left-right mirror used (see
//! [`mod@crate::search::subproblem`] for why the mirror is exact).

use crate::search::subproblem::{Builder, Rule};
use crate::Error;

/// The mirror plan: rows `0..depth`, left half of row 0 (or of row 1 under a middle queen).
pub(crate) fn plan(b: &mut Builder) -> Result<(), Error> {
    let n = b.n;
    if b.depth == 0 {
        return b.push(&[], 1, Rule::Free);
    }
    if n == 1 {
        return b.push(&[(0, 0)], 1, Rule::Free);
    }
    for c in 0..n / 2 {
        b.extend(&mut vec![(0, c as u8)], 0..b.depth, 2, Rule::Free)?;
    }
    if n % 2 == 1 {
        let mid = (n / 2) as u8;
        for c in 0..mid - 1 {
            b.extend(&mut vec![(0, mid), (1, c)], 0..b.depth, 2, Rule::Free)?;
        }
    }
    Ok(())
}
