//! The innermost key: each unit's pairs cut by the rows of its innermost columns' queens (both
//! on even boards, counted by the quarter turn with a level fixed by them; the east one on odd
//! boards).
//!
//! An even board (n = 2h) has one queen in the east half's innermost column h - 1, at some row
//! a of the east rows S, and one in the west half's, column h, at some row b of the west rows.
//! Fix both: the solutions of row set S are partitioned by (a, b), and a solution with (a, b)
//! joins
//!
//! - an east half whose column-(h - 1) queen is on row a and which does not attack (b, h),
//! - a west half whose column-h queen is on row b and which does not attack (a, h - 1),
//!
//! that share no other diagonal. So the unit (S, a, b) pairs E(a, b) with W(a, b), the east and
//! west lists filtered that way, and the pairs of halves that clash on the innermost queens are
//! never formed: none at all where |a - b| ≤ 1 (the two queens stand on one diagonal), and
//! elsewhere only halves clear of the other side's innermost queen. Each list is made once per
//! piece, start by start ([`turn::starts`]: the innermost column's queen comes first), in order
//! of a (east) or b (west); each (a, b) filters both and drops the innermost queens' bits,
//! which no remaining pair can share.
//!
//! **The quarter turn with a fixed level.** With Q and P as in `turn.rs` (the largest
//! distances of the middle columns' and of the middle rows' queens from the centre),
//! `total = 2 · #(P > Q) + #(P = Q)`. Q is the larger of D(a) and D(b): fixed by the unit. P
//! is the larger of p_e and p_w, the distances of the middle rows' queens each half holds (0
//! where it holds none). With both lists sorted by p (the starts place those queens, so the
//! order costs nothing), the pairs that count are four rectangles of prefixes and suffixes:
//!
//! ```text
//!   2 · E(p > Q) × W            2 · E(p ≤ Q) × W(p > Q)
//!   1 · E(p = Q) × W(p ≤ Q)     1 · E(p < Q) × W(p = Q)
//! ```
//!
//! and the pairs with P < Q, which count for nothing, are never formed.
//!
//! **Odd boards** (n = 2h + 1) key a unit (m, S), its middle queen at (m, h), by the east
//! half's queen in its innermost column h - 1, at some row a: the unit's solutions are the
//! disjoint pairs of E(a) × W(a) summed over a, E(a) the east halves of S with that queen that
//! attack no (m, h) (none where |a - m| = 1), W(a) the unit's west halves that attack no
//! (a, h - 1). The east list of a row set, made start by start in order of a, serves all its
//! units; the west lists are the whole units' (no middle queen's diagonal, left of the level
//! column: [`super::units::level_column`]), so the odd boards' quarter turn is kept, and each
//! is filtered once per a. Where the units of a row set are counted in one go (`JOINT`), the
//! west keys carry their middle queen's bits, which clash with the east halves that attack it
//! and, where |a - m| = 1, with (a, h - 1) itself, so that such a unit's halves are filtered
//! out whole. Keying by the west innermost queen too, as even boards do, cuts each list again
//! into lists too short to pay (docs/performance.md).

use std::ops::Range;

use super::half::{keep_clear, keep_clear_into, Side, Window, SPARE};
use super::turn::{distance, each_run, Classed, Part, Runs, Start};

/// A half's label in these lists: the row of its innermost column's queen, then its p.
pub(crate) type Label = (u8, u8);

/// The label of the halves made from `start`.
pub(crate) fn label(start: &Start) -> Label {
    (start.inner, start.p)
}

/// A thread's lists for [`count_piece`]: one (a, b)'s filtered east and west keys.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    east: Vec<u64>,
    west: Vec<u64>,
}

/// The key bits of a queen at board row `r`, column `c`: what a half that attacks it shares
/// with its key.
fn queen(window: Window, n: u32, r: u32, c: u32) -> u64 {
    window.part_key(Side::East, 1 << (r + c), 1 << (r + n - 1 - c))
}

/// A piece's runs (in label order) by their innermost row: (row, the range of its runs in
/// `runs`), in increasing order of the row.
fn rows_of(runs: &Runs<Label>) -> impl Iterator<Item = (u32, Range<usize>)> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let row = runs.get(at)?.0 .0;
        let from = at;
        while runs.get(at).is_some_and(|r| r.0 .0 == row) {
            at += 1;
        }
        Some((u32::from(row), from..at))
    })
}

/// The keys of the runs `of` (a range of `list`'s runs) that share no bit with `clash`, with
/// the bits `drop` cleared, to `out`; and where their p passes `q` and reaches it: (the end of
/// those with p < q, of those with p ≤ q, of all). Run by run, by the quadrant joins' keeping
/// loops ([`keep_clear_into`]: eight keys at a time with AVX-512), which write past the last
/// key kept: `out` gets [`SPARE`] slots more.
fn filter(
    list: Classed<Label>,
    of: Range<usize>,
    (clash, drop): (u64, u64),
    q: u32,
    out: &mut Vec<u64>,
) -> (usize, usize, usize) {
    let runs = || {
        each_run(list.keys.len(), list.runs)
            .skip(of.start)
            .take(of.len())
    };
    let out = super::pairs::slots(out, runs().map(|(_, r)| r.len()).sum::<usize>() + SPARE);
    let (mut at, mut below, mut upto) = (0, 0, 0);
    for ((_, p), range) in runs() {
        at += keep_clear_into(&list.keys[range], (clash, drop), &mut out[at..]);
        let p = u32::from(p);
        if p < q {
            below = at;
        }
        if p <= q {
            upto = at;
        }
    }
    (below, upto, at)
}

/// Σ times × pairs that share no bit, over one piece of the east halves of a unit and one of
/// its west halves, both in label order: each (a, b) apart, its lists filtered
/// ([`filter`]), its four rectangles (the module header) each counted by `count`.
pub(crate) fn count_piece(
    n: u32,
    window: Window,
    east: Classed<Label>,
    west: Classed<Label>,
    scratch: &mut Scratch,
    mut count: impl FnMut(&[u64], &[u64]) -> u64,
) -> u64 {
    let h = n / 2;
    let Scratch { east: e, west: w } = scratch;
    let mut pairs = |x: &[u64], y: &[u64]| {
        if x.is_empty() || y.is_empty() {
            0
        } else {
            count(x, y)
        }
    };
    let mut total = 0;
    for (a, east_runs) in rows_of(east.runs) {
        let a_key = queen(window, n, a, h - 1);
        for (b, west_runs) in rows_of(west.runs).filter(|&(b, _)| a.abs_diff(b) > 1) {
            let b_key = queen(window, n, b, h);
            let q = distance(n, a).max(distance(n, b));
            let (e_lt, e_le, e_len) = filter(east, east_runs.clone(), (b_key, a_key), q, e);
            let (w_lt, w_le, w_len) = filter(west, west_runs, (a_key, b_key), q, w);
            let (e, w) = (&e[..e_len], &w[..w_len]);
            total += 2 * pairs(&e[e_le..], w);
            total += 2 * pairs(&e[..e_le], &w[w_le..]);
            total += pairs(&e[e_lt..e_le], &w[..w_le]);
            total += pairs(&e[..e_lt], &w[w_lt..w_le]);
        }
    }
    total
}

/// The starts of the halves on `rows` of an odd `n`-board (east view): the queen of the
/// innermost column h - 1 in each of the rows, the rest of the half on the other rows and
/// columns. Their class means nothing (an odd board's quarter turn is the level column's), and
/// their p is 0: they are labelled by the queen's row alone.
pub(crate) fn odd_starts(n: u32, rows: u32) -> Vec<Start> {
    debug_assert!(n % 2 == 1 && n >= 3);
    let h = n / 2;
    (0..n)
        .filter(|&a| rows >> a & 1 != 0)
        .map(|a| Start {
            class: (0, Part::Q),
            rows: rows & !(1 << a),
            columns: ((1 << h) - 1) & !(1 << (h - 1)),
            placed: (1 << (a + h - 1), 1 << (a + n - h)),
            inner: a as u8,
            p: 0,
        })
        .collect()
}

/// Σ pairs that share no bit over one piece of an odd board's east halves of a row set, in
/// label order, and `west`, a piece of the west halves of some of its units: row a by row a of
/// the east innermost queen, its east halves against the west halves that attack no (a, h - 1)
/// ([`keep_clear`]), each pair of lists counted by `count`. The east halves that attack a
/// unit's middle queen are filtered out where `middle` names the one unit (`alone`); where
/// the west halves are of several units, each carries its middle queen's bits, so that they
/// clash (the module header).
pub(crate) fn count_odd_piece(
    n: u32,
    window: Window,
    east: Classed<Label>,
    west: &[u64],
    alone: Option<u32>,
    scratch: &mut Scratch,
    count: &mut impl FnMut(&[u64], &[u64]) -> u64,
) -> u64 {
    let h = n / 2;
    let Scratch { east: e, west: w } = scratch;
    let mut total = 0;
    for (a, runs) in rows_of(east.runs) {
        if alone.is_some_and(|m| a.abs_diff(m) == 1) {
            continue;
        }
        // A row's runs are consecutive, and so are their keys.
        let from = east.runs[runs.start].1;
        let to = east.runs.get(runs.end).map_or(east.keys.len(), |r| r.1);
        let mut row = &east.keys[from..to];
        if let Some(m) = alone {
            row = keep_clear(row, window.middle(m), e);
        }
        let clear = keep_clear(west, queen(window, n, a, h - 1), w);
        if !row.is_empty() && !clear.is_empty() {
            total += count(row, clear);
        }
    }
    total
}
