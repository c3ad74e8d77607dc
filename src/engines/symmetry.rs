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
//! where a border is canonical when it is one chosen image of its class, and |orbit(B)| =
//! 8 / (number of symmetries that fix B) is 8, 4 or 2. The same holds for any feature of a
//! solution that the symmetries carry along, and the plan uses a coarser one than the whole
//! border: pre-placing every border would repeat the top of the search tree once per choice of
//! the lower border queens, and place almost as many queens as the mirror engine. See
//! `plan` for the two families. A split depth d then pre-places rows 0..=d as well (those
//! not already taken), to cut the plan finer.

use crate::dihedral::Symmetry;
use crate::search::cost;
use crate::search::subproblem::{Builder, Queen, Rule, Subproblem};
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

/// The outer lines: top row, bottom row, left column, right column (bit i of
/// [`Rule::Far`]'s `free` for line i), and the square at position `x` along each.
fn on_line(n: u8, line: usize, x: u8) -> Queen {
    let m = n - 1;
    match line {
        0 => (0, x),
        1 => (m, x),
        2 => (x, 0),
        _ => (x, m),
    }
}

/// The possible *nearest queens* at distance `d` ≥ 1: queens at distance `d` from a corner on a
/// non-empty set of outer lines, at most one per line and none attacking another, with the
/// lines left out (the `free` bits) able to hold a queen farther than `d`.
fn nearest(n: u8, d: u8) -> Vec<Vec<Queen>> {
    let m = n - 1;
    // Each line: left out, or a queen at one of the (one or two) squares at distance d.
    let mut options = vec![None, Some(d)];
    if m - d != d {
        options.push(Some(m - d));
    }
    let k = options.len();
    let room = 2 * d + 2 <= m;
    let mut out = Vec::new();
    for code in 1..k.pow(4) {
        let pick = |line: usize| options[code / k.pow(line as u32) % k];
        let mut queens: Vec<Queen> = (0..4)
            .filter_map(|line| pick(line).map(|x| on_line(n, line, x)))
            .collect();
        let free = (0..4)
            .filter(|&line| pick(line).is_none())
            .fold(0u8, |f, line| f | 1 << line);
        queens.sort_unstable();
        if (free == 0 || room) && peaceful(&queens) {
            out.push(queens);
        }
    }
    out
}

/// Fills `b` with the symmetry plan, in two families that together count every solution once:
///
/// 1. *Corner*: a queen in a corner. No symmetry fixes such a solution, and of its 8 images
///    exactly two have the queen at (0, 0); they are each other's transpose and differ in which
///    comes first, the row-1 queen's column j or the column-1 queen's row i (i ≠ j, or those two
///    queens would share a diagonal). Keep j < i: weight 8 ([`Rule::Corner`]).
/// 2. *Nearest queens*: no corner queen. Let d be the least distance of a border queen from its
///    corner; the border queens at distance d are the solution's nearest queens, and the
///    symmetries map them with the solution. Each class of nearest queens (named by its largest
///    image) is pre-placed once, in the image whose search is smallest ([`orient`]), weighted
///    by its orbit (8, 4 or 2), and the other outer lines are kept farther than d by
///    [`Rule::Far`] without pre-placing their queens. Usually one queen is nearest (orbit 8).
pub(crate) fn plan(b: &mut Builder) -> Result<(), Error> {
    let n = b.n;
    if n == 1 {
        return b.push(&[(0, 0)], 1, Rule::Free);
    }
    let m = (n - 1) as u8;
    for j in 2..m {
        b.extend(
            &mut vec![(0, 0), (1, j)],
            1..b.depth + 1,
            8,
            Rule::Corner { j },
        )?;
    }
    for d in 1..=m / 2 {
        for queens in nearest(n as u8, d) {
            let images = images(n as u8, &queens);
            if images.iter().any(|image| *image > queens) {
                continue;
            }
            let fixed = images.iter().filter(|image| **image == queens).count() as u32;
            let (mut queens, rule) = orient(n as u8, d, &images);
            b.extend(&mut queens, 0..b.depth + 1, 8 / fixed, rule)?;
        }
    }
    Ok(())
}

/// The image of a class of nearest queens to pre-place, with its rule: the one whose search
/// Knuth's estimator finds smallest (the first such in [`Symmetry::ALL`] order).
///
/// Every image stands for the same solutions, but the top-down search prunes early only what
/// the first rows see, so the images of a class differ in the nodes their searches place, and
/// Knuth's estimate picks one close to the best (against exact counts of all 8 images; the
/// simple scores tried, such as counting the forbidden squares of the first rows, did worse
/// than no choice: docs/design.md, "Tried and dropped").
///
/// Only the 4 rotations are walked, 512 paths each from n = 14: the other 4 images are their
/// left-right mirrors, which keep the order of the rows and so the size of the search, so
/// 4 × 512 paths choose better than 8 × 256 for the same walks (the queens the chosen images
/// place: docs/performance.md). The paths cost about n steps each, so smaller boards, whose
/// whole count takes about as long as the walks, take fewer.
fn orient(n: u8, d: u8, images: &[Vec<Queen>; 8]) -> (Vec<Queen>, Rule) {
    let rule = |image: &[Queen]| {
        let taken = image.iter().fold(0, |t, &q| t | 1 << line(n, q));
        Rule::Far {
            d,
            free: 0b1111 & !taken,
        }
    };
    let probes = (1u32 << n.saturating_sub(5).min(9)).max(16);
    let seed = u64::from(n) << 48 ^ u64::from(d) << 40;
    let image = images[..4]
        .iter()
        .min_by_key(|image| {
            let sub = Subproblem::new(0, image, 1, rule(image));
            let (start, masks) = sub.start(u32::from(n));
            cost::walks(u32::from(n), start, masks.as_ref(), seed, probes)
        })
        .expect("4 rotations");
    (image.clone(), rule(image))
}

/// The outer line (numbered as in [`on_line`]) that a border square off the corners lies on.
fn line(n: u8, (r, c): Queen) -> usize {
    let m = n - 1;
    match (r, c) {
        (0, _) => 0,
        (r, _) if r == m => 1,
        (_, 0) => 2,
        _ => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every border (one queen per outer line, corners shared), by brute force.
    fn borders(n: u8) -> Vec<Vec<Queen>> {
        let m = n - 1;
        let mut out = Vec::new();
        for a in 0..n {
            for b in 0..n {
                for c in 0..n {
                    for d in 0..n {
                        let consistent = (a == 0) == (c == 0)
                            && (b == 0) == (c == m)
                            && (a == m) == (d == 0)
                            && (b == m) == (d == m);
                        let mut queens = vec![(0, a), (m, b), (c, 0), (d, m)];
                        queens.sort_unstable();
                        queens.dedup();
                        if consistent && peaceful(&queens) {
                            out.push(queens);
                        }
                    }
                }
            }
        }
        out
    }

    /// The nearest queens of a border without a corner queen, and its least distance.
    fn nearest_of(n: u8, border: &[Queen]) -> (Vec<Queen>, u8) {
        let m = n - 1;
        let dist = |q: &Queen| {
            let x = if q.0 == 0 || q.0 == m { q.1 } else { q.0 };
            x.min(m - x)
        };
        let least = border.iter().map(dist).min().unwrap();
        (
            border
                .iter()
                .copied()
                .filter(|q| dist(q) == least)
                .collect(),
            least,
        )
    }

    #[test]
    fn nearest_queens_cover_every_border_once_with_orbit_weights() {
        for n in 4..=11u8 {
            // Borders without a corner, counted once each through their nearest queens' class.
            let m = n - 1;
            let plain: Vec<Vec<Queen>> = borders(n)
                .into_iter()
                .filter(|b| {
                    b.iter()
                        .all(|&(r, c)| !((r == 0 || r == m) && (c == 0 || c == m)))
                })
                .collect();
            let mut weighted = 0u32;
            for d in 1..=m / 2 {
                for queens in nearest(n, d) {
                    let images = images(n, &queens);
                    if images.iter().any(|image| *image > queens) {
                        continue;
                    }
                    let fixed = images.iter().filter(|image| **image == queens).count() as u32;
                    let matching = plain
                        .iter()
                        .filter(|b| nearest_of(n, b) == (queens.clone(), d))
                        .count() as u32;
                    weighted += matching * (8 / fixed);
                }
            }
            assert_eq!(weighted as usize, plain.len(), "n = {n}");
        }
    }
}
