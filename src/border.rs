//! The symmetry engine's plan: borders pre-placed, one per class under the 8 symmetries.
//!
//! Every solution has exactly one queen in each of the four outer lines: row 0, row n-1,
//! column 0 and column n-1 (a corner queen serves two of them). Those three or four queens are
//! the solution's *border*. The 8 symmetries of the square (4 rotations, 4 reflections) map the
//! outer ring onto itself, so they map borders to borders, and a solution with border B to one
//! with border g(B). Hence the solutions with border g(B) are as many as those with border B,
//! and
//!
//! ```text
//!   total = Σ over all borders B of completions(B)
//!         = Σ over canonical borders B of |orbit(B)| × completions(B)
//! ```
//!
//! where a border is canonical when it is the smallest (as a sorted list of squares) of its
//! images, and |orbit(B)| = 8 / (number of symmetries that fix B) is 8, 4 or 2. Pre-placing
//! every border would repeat the top of the search tree once per choice of the lower border
//! queens, so most orbits are not pre-placed but described by rules on the squares the search
//! may use ([`Rule`]): see [`plan`] for the three families. A split depth d then pre-places rows
//! 1..=d as well, to cut the plan finer.

use crate::plan::{Builder, Queen, Rule};
use crate::symmetry::Symmetry;
use crate::Error;

/// The images of a set of squares under the 8 symmetries, each sorted.
fn images(n: u8, queens: &[Queen]) -> [Vec<Queen>; 8] {
    Symmetry::ALL.map(|g| {
        let mut image: Vec<Queen> = queens
            .iter()
            .map(|&(r, c)| {
                let (r, c) = g.map(usize::from(n), usize::from(r), usize::from(c));
                (r as u8, c as u8)
            })
            .collect();
        image.sort_unstable();
        image
    })
}

/// Whether no two of `queens` share a row, column or diagonal.
fn peaceful(queens: &[Queen]) -> bool {
    queens.iter().enumerate().all(|(i, &(r1, c1))| {
        queens[i + 1..]
            .iter()
            .all(|&(r2, c2)| r1 != r2 && c1 != c2 && r1.abs_diff(r2) != c1.abs_diff(c2))
    })
}

/// Every border of an `n`-board (n ≥ 2) as its sorted queens: top queen in column `a`, bottom in
/// column `b`, left in row `c`, right in row `d`, corners shared.
fn borders(n: u8) -> impl Iterator<Item = Vec<Queen>> {
    let m = n - 1;
    let all = move || 0..n;
    all().flat_map(move |a| {
        all().flat_map(move |b| {
            all().flat_map(move |c| {
                all().filter_map(move |d| {
                    // A corner queen is in two lines at once; each line holds exactly one queen.
                    let consistent = (a == 0) == (c == 0)
                        && (b == 0) == (c == m)
                        && (a == m) == (d == 0)
                        && (b == m) == (d == m);
                    if !consistent {
                        return None;
                    }
                    let mut queens = vec![(0, a), (m, b), (c, 0), (d, m)];
                    queens.sort_unstable();
                    queens.dedup();
                    peaceful(&queens).then_some(queens)
                })
            })
        })
    })
}

/// How far the queen of each outer line stands from its nearest corner: top, bottom, left, right.
fn distances(n: u8, border: &[Queen]) -> [u8; 4] {
    let m = n - 1;
    let near = |x: u8| x.min(m - x);
    let find = |on: &dyn Fn(&Queen) -> bool, at: &dyn Fn(&Queen) -> u8| {
        border.iter().find(|q| on(q)).map_or(0, |q| near(at(q)))
    };
    [
        find(&|q| q.0 == 0, &|q| q.1),
        find(&|q| q.0 == m, &|q| q.1),
        find(&|q| q.1 == 0, &|q| q.0),
        find(&|q| q.1 == m, &|q| q.0),
    ]
}

/// Fills `b` with the symmetry plan, in three families that together hold every solution class
/// once, each with rows `1..=b.depth` pre-placed as well:
///
/// 1. *Corner*: a queen in a corner. No symmetry fixes such a solution, and of its 8 images
///    exactly two have the queen at (0, 0); they are each other's transpose and differ in which
///    comes first, the row-1 queen's column j or the column-1 queen's row i (i ≠ j, or those two
///    queens would share a diagonal). Keep j < i: weight 8.
/// 2. *Strict*: no corner queen, and one border queen strictly nearer its corner (distance d)
///    than the other three. Then no symmetry fixes the border, and exactly one image has that
///    queen in row n-1, left half: weight 8. It is pre-placed, so its attacks prune every row
///    from the start, and the other three are kept farther than d by [`Rule::Strict`] without
///    being pre-placed (the row-0 queen's range is checked at once, the side columns row by
///    row). Putting the nearest queen in row 0 instead places 9% more queens at n = 16.
/// 3. *Tie*: no corner queen and two or more border queens at the least distance. These borders
///    are pre-placed whole, one per class, weighted by orbit size (8, 4 or 2).
pub(crate) fn plan(b: &mut Builder) -> Result<(), Error> {
    let n = b.n;
    let rows = 1..b.depth + 1;
    if n == 1 {
        return b.push(&[(0, 0)], 1, Rule::Free);
    }
    let m = (n - 1) as u8;
    for j in 2..m {
        b.extend(
            &mut vec![(0, 0), (1, j)],
            rows.clone(),
            8,
            Rule::Corner { j },
        )?;
    }
    for d in (1..m).take_while(|d| 2 * d + 2 <= m) {
        b.extend(&mut vec![(m, d)], 0..b.depth + 1, 8, Rule::Strict { d })?;
    }
    for border in borders(n as u8) {
        let dist = distances(n as u8, &border);
        let least = *dist.iter().min().expect("four lines");
        if least == 0 || dist.iter().filter(|&&x| x == least).count() < 2 {
            continue;
        }
        let images = images(n as u8, &border);
        if images.iter().any(|image| *image < border) {
            continue;
        }
        let fixed = images.iter().filter(|image| **image == border).count() as u32;
        b.extend(&mut border.clone(), rows.clone(), 8 / fixed, Rule::Free)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_border_has_one_queen_per_outer_line() {
        let n = 7u8;
        for border in borders(n) {
            for line in [
                |q: &Queen, _| q.0 == 0,
                |q: &Queen, m| q.0 == m,
                |q: &Queen, _| q.1 == 0,
                |q: &Queen, m| q.1 == m,
            ] {
                assert_eq!(border.iter().filter(|q| line(q, n - 1)).count(), 1);
            }
        }
    }

    #[test]
    fn orbit_weights_add_up_to_every_border() {
        for n in 4..=9u8 {
            let all = borders(n).count() as u32;
            let weighted: u32 = borders(n)
                .filter(|b| images(n, b).iter().all(|i| i >= b))
                .map(|b| 8 / images(n, &b).iter().filter(|i| **i == b).count() as u32)
                .sum();
            assert_eq!(weighted, all, "n = {n}");
        }
    }
}
