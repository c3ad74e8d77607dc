//! The quarter turn of even boards: the middle lines' queens, and how much each pair of halves
//! adds to the board's total.
//!
//! An even board (n = 2h) has two middle rows, h - 1 and h, and two middle columns, h - 1 (the
//! east half's innermost) and h (the west half's). Each holds one queen. Measure a line's
//! queen by its distance from the centre line across it, doubled so that it is a whole
//! number: D(i) = |2i - (n - 1)|, one of 1, 3, …, n - 1, for the queen's row on a column (or its
//! column on a row). Let
//!
//! ```text
//!   P = max(D of the queens of the two middle rows)      (their columns)
//!   Q = max(D of the queens of the two middle columns)   (their rows)
//! ```
//!
//! Both reflections keep P and Q: north-south swaps the middle rows and keeps each column's
//! queen as far from the centre, east-west swaps the middle columns likewise. A quarter turn,
//! (r, c) ↦ (c, n-1-r), takes the queen of column h-1 at row a to row h-1 at column n-1-a and
//! the queen of column h to row h, each as far from the centre as before, and the queens of
//! the middle rows to the middle columns, likewise: it swaps P and Q, one to one on the
//! solutions. So as many solutions have P > Q as P < Q, and
//!
//! ```text
//!   total = 2 · #(P > Q) + #(P = Q)
//! ```
//!
//! Each unit (a class of east row sets under the reflections, which keep P and Q) therefore
//! counts its solutions with P > Q twice, those with P = Q once and the others not at all.
//!
//! **How.** A half (east view: a west half is counted as the east half of its mirror image,
//! which keeps every distance) holds the queen of its innermost column, at some row a, and the
//! queens of the middle rows that are among its rows. Its halves are made *start* by start
//! ([`starts`]): those queens placed first, the rest of the half made on the other rows and
//! columns away from their diagonals. A start gives its halves a *class*: m, the largest of
//! their distances, and which of the two maxima it makes: the half's part of P (a middle row's
//! queen is that far), of Q (its innermost column's queen is), or of both. For an east half of
//! class (m_e, t_e) and a west half of class (m_w, t_w), the larger of m_e and m_w is the larger
//! of P and Q, so ([`times`]):
//!
//! - m_e > m_w: twice when t_e is P, once when both, never when Q;
//! - m_w > m_e: the same by t_w;
//! - m_e = m_w: twice when both are P, never when both are Q, once otherwise.
//!
//! The halves are kept in class order ([`Runs`]). The pairs where one side's level is larger
//! form a staircase over the levels, cut into rectangles by halving the levels, so that each
//! key takes part in a few long counts ([`staircase`]); the pairs of one level are counted
//! class by class ([`count_runs`]). The pairs that count for nothing (about half of them) are
//! never tested.

use std::ops::Range;

use super::half;
use super::half::{Halves, Side, Window};
use super::quadrant::{Diagonals, Quadrants};

/// A class's largest distance, as (D - 1) / 2: 0 to h - 1.
type Level = u8;

/// Which of P and Q a half's largest distance is part of ([`Class`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Part {
    /// A middle row's queen is that far, and the innermost column's nearer.
    P,
    /// Both.
    Both,
    /// The innermost column's queen is that far, and the middle rows' nearer (or the half has
    /// no middle row).
    Q,
}

/// The class of a half: its largest distance and which maximum that is part of; classes in
/// increasing order of distance.
pub(crate) type Class = (Level, Part);

/// How many times the board's total counts a solution joined from an east half of class `east`
/// and a west half of class `west` (the module header).
pub(crate) fn times(east: Class, west: Class) -> u64 {
    match east.0.cmp(&west.0) {
        std::cmp::Ordering::Greater => alone(east.1),
        std::cmp::Ordering::Less => alone(west.1),
        std::cmp::Ordering::Equal => match (east.1, west.1) {
            (Part::P, Part::P) => 2,
            (Part::Q, Part::Q) => 0,
            _ => 1,
        },
    }
}

/// How many times a solution counts when one of its halves, of part `part`, has the larger
/// distance.
fn alone(part: Part) -> u64 {
    match part {
        Part::P => 2,
        Part::Both => 1,
        Part::Q => 0,
    }
}

/// The queens a half's start places: the innermost column's and the middle rows' that are
/// among its rows, with what is left for the rest of the half.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Start {
    /// The class of every half made from this start.
    pub class: Class,
    /// Rows and columns left for the other queens (east view).
    pub rows: u32,
    pub columns: u32,
    /// The diagonals of the queens placed, "/" and "\" (board numbers).
    pub placed: Diagonals,
    /// The row of the innermost column's queen.
    pub inner: u8,
    /// The largest distance D of the middle rows' queens among its own (0: none).
    pub p: u8,
}

/// Every start of the halves on `rows` of an even `n`-board (in the order [`Turned::by`] sorts
/// them by): the queen of the innermost column (h - 1, east view) in each of the rows, and the queens of the middle rows
/// h - 1 and h that are among the rows in each column left, those that attack no other.
pub(crate) fn starts(n: u32, rows: u32) -> Vec<Start> {
    debug_assert!(n.is_multiple_of(2) && n >= 2);
    let h = n / 2;
    let mut out = Vec::new();
    for a in (0..n).filter(|&a| rows >> a & 1 != 0) {
        let middle: Vec<u32> = [h - 1, h]
            .into_iter()
            .filter(|&r| r != a && rows >> r & 1 != 0)
            .collect();
        place_middle(n, rows, &mut vec![(a, h - 1)], &middle, &mut out);
    }
    out
}

/// The distance D(i) = |2i - (n - 1)| of row or column `i` of an even `n`-board from the centre
/// line across it: 1, 3, …, n - 1.
pub(crate) fn distance(n: u32, i: u32) -> u32 {
    (2 * i).abs_diff(n - 1)
}

/// Appends to `out` the start of `queens` (the innermost column's first) with a queen added in
/// each of the rows `middle`, in every column but the innermost that none of them uses, for
/// each placement where no two attack each other.
fn place_middle(
    n: u32,
    rows: u32,
    queens: &mut Vec<(u32, u32)>,
    middle: &[u32],
    out: &mut Vec<Start>,
) {
    let Some((&r, rest)) = middle.split_first() else {
        return out.extend(Start::of(n, rows, queens));
    };
    for c in 0..n / 2 - 1 {
        if queens.iter().all(|&(_, used)| used != c) {
            queens.push((r, c));
            place_middle(n, rows, queens, rest, out);
            queens.pop();
        }
    }
}

impl Start {
    /// The start of the halves on `rows` whose `queens` are placed first (the innermost
    /// column's first), if no two of them attack each other.
    fn of(n: u32, rows: u32, queens: &[(u32, u32)]) -> Option<Start> {
        let h = n / 2;
        let far = |i: u32| distance(n, i);
        let mut placed = (0u64, 0u64);
        let (mut used_rows, mut used_columns) = (0u32, 0u32);
        for &(r, c) in queens {
            let (d1, d2) = (1u64 << (r + c), 1u64 << (r + n - 1 - c));
            if placed.0 & d1 != 0 || placed.1 & d2 != 0 {
                return None;
            }
            placed = (placed.0 | d1, placed.1 | d2);
            (used_rows, used_columns) = (used_rows | 1 << r, used_columns | 1 << c);
        }
        // The innermost column's queen, and the middle rows' (that one too when it stands in
        // a middle row).
        let q_side = far(queens[0].0);
        let p_side = (queens.iter())
            .filter(|&&(r, _)| r == h - 1 || r == h)
            .map(|&(_, c)| far(c))
            .max()
            .unwrap_or(0);
        let part = match p_side.cmp(&q_side) {
            std::cmp::Ordering::Greater => Part::P,
            std::cmp::Ordering::Equal => Part::Both,
            std::cmp::Ordering::Less => Part::Q,
        };
        Some(Start {
            class: (((q_side.max(p_side) - 1) / 2) as Level, part),
            rows: rows & !used_rows,
            columns: ((1 << h) - 1) & !used_columns,
            placed,
            inner: queens[0].0 as u8,
            p: p_side as u8,
        })
    }
}

/// The halves of one side of a unit, start after start ([`starts`]), made in pieces as
/// [`Halves`] are, each piece with the runs of its starts' labels (their classes, or what
/// `label` reads of them), in the labels' order.
#[derive(Debug)]
pub(crate) struct Turned<K = Class> {
    side: Side,
    starts: Vec<Start>,
    label: fn(&Start) -> K,
    /// The next start to make, and its halves still to come.
    at: usize,
    halves: Option<Halves>,
}

/// The labels of a piece of halves (their classes by default): (label, where its run begins),
/// in increasing order; each run ends where the next begins, the last at the end of the piece.
pub(crate) type Runs<K = Class> = Vec<(K, usize)>;

/// A thread's lists of one side's pieces and the other's, with their runs, reused from piece
/// to piece ([`crate::engines::join::Join`]'s loop over a unit's pieces).
#[derive(Debug)]
pub(crate) struct Lists<K> {
    pub(crate) east: Vec<u64>,
    pub(crate) east_runs: Runs<K>,
    pub(crate) west: Vec<u64>,
    pub(crate) west_runs: Runs<K>,
}

impl<K> Default for Lists<K> {
    fn default() -> Self {
        Lists {
            east: Vec::new(),
            east_runs: Vec::new(),
            west: Vec::new(),
            west_runs: Vec::new(),
        }
    }
}

/// A list of keys in label order with its runs ([`Runs`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Classed<'a, K = Class> {
    pub(crate) keys: &'a [u64],
    pub(crate) runs: &'a Runs<K>,
}

impl<K: Copy + Ord> Turned<K> {
    /// The halves on `rows` of an even `n`-board, read for `side`, in the order of `label`.
    pub(crate) fn by(n: u32, rows: u32, side: Side, label: fn(&Start) -> K) -> Turned<K> {
        Turned::of(starts(n, rows), side, label)
    }

    /// The halves of `starts`, read for `side`, in the order of `label`.
    pub(crate) fn of(mut starts: Vec<Start>, side: Side, label: fn(&Start) -> K) -> Turned<K> {
        starts.sort_by_key(label);
        Turned {
            side,
            starts,
            label,
            at: 0,
            halves: None,
        }
    }

    /// Appends the keys of the halves still to come to `out` (the placed queens' diagonals in
    /// each) and their classes to `runs`, until `out` holds at least `limit` keys or none is
    /// left; returns whether some are left. A run continues the last one when their classes are
    /// the same.
    pub(crate) fn fill(
        &mut self,
        q: &Quadrants,
        window: Window,
        out: &mut Vec<u64>,
        runs: &mut Runs<K>,
        limit: usize,
        buffers: &mut half::Buffers,
    ) -> bool {
        while self.at < self.starts.len() {
            let start = self.starts[self.at];
            let halves = self.halves.get_or_insert_with(|| {
                Halves::on(q.rows(), start.rows, start.columns, start.placed, self.side)
            });
            let from = out.len();
            let more = halves.fill(q, window, out, limit, buffers);
            if out.len() > from {
                // A west key of an odd board keeps its windows alone, as its halves' do.
                let placed = window.part_key(self.side, start.placed.0, start.placed.1)
                    & window.shown(self.side);
                for key in &mut out[from..] {
                    *key |= placed;
                }
                let label = (self.label)(&start);
                if runs.last().is_none_or(|&(last, _)| last != label) {
                    runs.push((label, from));
                }
            }
            if !more {
                self.halves = None;
                self.at += 1;
            }
            if out.len() >= limit {
                break;
            }
        }
        self.at < self.starts.len()
    }
}

/// Each run of `runs` over a piece of `len` keys: its label and the range of its keys.
pub(crate) fn each_run<K: Copy>(
    len: usize,
    runs: &Runs<K>,
) -> impl Iterator<Item = (K, Range<usize>)> + '_ {
    (runs.iter().enumerate())
        .map(move |(i, &(class, from))| (class, from..runs.get(i + 1).map_or(len, |r| r.1)))
}

/// Where each level's keys begin in a list in class order: level l's are
/// `keys[bounds[l]..bounds[l + 1]]`.
fn bounds(
    Classed { keys, runs }: Classed,
    levels: usize,
    part: impl Fn(Part) -> bool,
    out: &mut Vec<usize>,
) {
    out.clear();
    out.resize(levels + 1, 0);
    let mut len = 0;
    for ((level, p), range) in each_run(keys.len(), runs) {
        if part(p) {
            len += range.len();
            out[usize::from(level) + 1] = len;
        }
    }
    // Levels with no key end where the one before does.
    for l in 1..=levels {
        out[l] = out[l].max(out[l - 1]);
    }
}

/// The keys of a list in class order ([`Runs`]) whose part `part` lets through, in order.
fn gather(Classed { keys, runs }: Classed, part: impl Fn(Part) -> bool, out: &mut Vec<u64>) {
    out.clear();
    for ((_, p), range) in each_run(keys.len(), runs) {
        if part(p) {
            out.extend_from_slice(&keys[range]);
        }
    }
}

/// One side's keys of some parts, by level.
#[derive(Clone, Copy)]
struct ByLevel<'a> {
    keys: &'a [u64],
    bounds: &'a [usize],
}

impl ByLevel<'_> {
    /// The keys of the levels `levels`.
    fn at(&self, levels: Range<usize>) -> &[u64] {
        &self.keys[self.bounds[levels.start]..self.bounds[levels.end]]
    }
}

/// A thread's lists and bounds for [`count_runs`], reused from piece to piece: for each side,
/// the keys of part P and of both parts (the whole list is the piece itself), and the bounds
/// of the three.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    keys: [Vec<u64>; 4],
    bounds: [Vec<usize>; 6],
}

/// Σ pairs that share no bit over `a` × `b` (by level) whose level in `a` is greater, each by
/// `count`: the staircase cut into rectangles, halving the levels `levels` each time, so that
/// each key takes part in a few long counts, not one per level (the counter's pivots need long
/// lists: 1.45·10^13 pairs per second on a whole unit of n = 24, half that on one run of a
/// class against the halves of smaller levels).
fn staircase(
    a: ByLevel,
    b: ByLevel,
    levels: Range<usize>,
    count: &mut impl FnMut(&[u64], &[u64]) -> u64,
) -> u64 {
    if levels.len() < 2 {
        return 0;
    }
    let mid = levels.start + levels.len() / 2;
    let (upper, lower) = (a.at(mid..levels.end), b.at(levels.start..mid));
    let here = if upper.is_empty() || lower.is_empty() {
        0
    } else {
        count(upper, lower)
    };
    here + staircase(a, b, levels.start..mid, count) + staircase(a, b, mid..levels.end, count)
}

/// Σ [`times`] × pairs that share no bit, over the east keys in class order `east` and the west
/// keys `west`, each count by `count(east keys, west keys)`:
///
/// - east halves of part P (twice) and of both parts (once) against the west halves of a
///   smaller level ([`staircase`]);
/// - the same with the sides swapped;
/// - on each level, the parts pair by pair as [`times`] says.
pub(crate) fn count_runs(
    n: u32,
    east: Classed,
    west: Classed,
    scratch: &mut Scratch,
    mut count: impl FnMut(&[u64], &[u64]) -> u64,
) -> u64 {
    let levels = (n / 2) as usize;
    let Scratch { keys, bounds: b } = scratch;
    let [ek_p, ek_both, wk_p, wk_both] = keys;
    let [eb_all, eb_p, eb_both, wb_all, wb_p, wb_both] = b;
    let (is_p, is_both) = (|p| p == Part::P, |p| p == Part::Both);
    gather(east, is_p, ek_p);
    gather(east, is_both, ek_both);
    gather(west, is_p, wk_p);
    gather(west, is_both, wk_both);
    bounds(east, levels, |_| true, eb_all);
    bounds(east, levels, is_p, eb_p);
    bounds(east, levels, is_both, eb_both);
    bounds(west, levels, |_| true, wb_all);
    bounds(west, levels, is_p, wb_p);
    bounds(west, levels, is_both, wb_both);
    let by = |keys, bounds| ByLevel { keys, bounds };
    let (e_all, e_p, e_both) = (by(east.keys, eb_all), by(ek_p, eb_p), by(ek_both, eb_both));
    let (w_all, w_p, w_both) = (by(west.keys, wb_all), by(wk_p, wb_p), by(wk_both, wb_both));
    let mut total = 0;
    // A half of the larger level decides alone.
    for (part, e_part, w_part) in [(Part::P, e_p, w_p), (Part::Both, e_both, w_both)] {
        let times = alone(part);
        total += times * staircase(w_part, e_all, 0..levels, &mut |w, e| count(e, w));
        total += times * staircase(e_part, w_all, 0..levels, &mut count);
    }
    // One level: its runs, class by class.
    for (ec, er) in each_run(east.keys.len(), east.runs) {
        for (wc, wr) in each_run(west.keys.len(), west.runs).filter(|(wc, _)| wc.0 == ec.0) {
            let (e, w) = (&east.keys[er.clone()], &west.keys[wr]);
            let times = times(ec, wc);
            if times > 0 && !e.is_empty() && !w.is_empty() {
                total += times * count(e, w);
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every class pair's times, against P and Q computed from the four distances.
    #[test]
    fn times_is_the_comparison_of_p_and_q() {
        // A half's largest distance `level` and part, from its middle-row distance p and
        // innermost-column distance q (0: no middle row).
        for (pe, qe, pw, qw) in itertools(4) {
            let class = |p: u32, q: u32| {
                let part = match p.cmp(&q) {
                    std::cmp::Ordering::Greater => Part::P,
                    std::cmp::Ordering::Equal => Part::Both,
                    std::cmp::Ordering::Less => Part::Q,
                };
                (p.max(q) as Level, part)
            };
            let (big_p, big_q) = (pe.max(pw), qe.max(qw));
            let expected = match big_p.cmp(&big_q) {
                std::cmp::Ordering::Greater => 2,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Less => 0,
            };
            if qe == 0 || qw == 0 {
                continue; // every half has an innermost column's queen
            }
            assert_eq!(
                times(class(pe, qe), class(pw, qw)),
                expected,
                "{pe} {qe} {pw} {qw}"
            );
        }
    }

    /// Every half on every row set of even boards up to 10, by backtracking with the column of
    /// each row's queen, with its class from its queens: the starts' halves are exactly these,
    /// each once, with that class, read for either side; from the table and made on demand,
    /// in pieces.
    #[test]
    fn the_starts_make_every_half_once_in_its_class() {
        use crate::engines::join::subsets::for_each_subset;
        for n in [2u32, 4, 6, 8, 10] {
            let (h, window) = (n / 2, Window::new(n));
            let far = |i: u32| (2 * i).abs_diff(n - 1);
            for_each_subset(n, h, |rows| {
                let mut plain = Vec::new();
                let mut cols = vec![None; n as usize];
                every_half(n, rows, 0, (0, 0, 0), &mut cols, &mut |cols, (d1, d2)| {
                    let a = cols.iter().position(|&c| c == Some(h - 1)).unwrap() as u32;
                    let p = [h - 1, h]
                        .iter()
                        .filter_map(|&r| cols[r as usize].map(far))
                        .max()
                        .unwrap_or(0);
                    let q = far(a);
                    let part = match p.cmp(&q) {
                        std::cmp::Ordering::Greater => Part::P,
                        std::cmp::Ordering::Equal => Part::Both,
                        std::cmp::Ordering::Less => Part::Q,
                    };
                    plain.push(((((p.max(q) - 1) / 2) as Level, part), d1, d2));
                });
                for side in [Side::East, Side::West] {
                    let mut expected: Vec<(Class, u64)> = plain
                        .iter()
                        .map(|&(class, d1, d2)| (class, window.key(side, d1, d2)))
                        .collect();
                    expected.sort_unstable();
                    for q in [Quadrants::build(n).unwrap(), Quadrants::on_demand(n)] {
                        let mut turned = Turned::by(n, rows, side, |start| start.class);
                        let mut buffers = half::Buffers::default();
                        let mut got = Vec::new();
                        loop {
                            let (mut keys, mut runs) = (Vec::new(), Runs::new());
                            let more =
                                turned.fill(&q, window, &mut keys, &mut runs, 3, &mut buffers);
                            assert!(runs.windows(2).all(|w| w[0].0 < w[1].0), "class order");
                            for (i, &(class, from)) in runs.iter().enumerate() {
                                let to = runs.get(i + 1).map_or(keys.len(), |r| r.1);
                                got.extend(keys[from..to].iter().map(|&k| (class, k)));
                            }
                            if !more {
                                break;
                            }
                        }
                        got.sort_unstable();
                        assert_eq!(got, expected, "n = {n}, rows {rows:b}, {side:?}");
                    }
                }
            });
        }
    }

    /// Calls `out` with the column of each row's queen and the diagonal masks of every east half
    /// on `rows` from row `r` on.
    fn every_half(
        n: u32,
        rows: u32,
        r: u32,
        (used, d1, d2): (u32, u64, u64),
        cols: &mut Vec<Option<u32>>,
        out: &mut dyn FnMut(&[Option<u32>], Diagonals),
    ) {
        if r == n {
            return out(cols, (d1, d2));
        }
        if rows >> r & 1 == 0 {
            return every_half(n, rows, r + 1, (used, d1, d2), cols, out);
        }
        for c in 0..n / 2 {
            let (a, b) = (1u64 << (r + c), 1u64 << (r + n - 1 - c));
            if used >> c & 1 == 0 && d1 & a == 0 && d2 & b == 0 {
                cols[r as usize] = Some(c);
                every_half(n, rows, r + 1, (used | 1 << c, d1 | a, d2 | b), cols, out);
                cols[r as usize] = None;
            }
        }
    }

    /// [`count_runs`] against every pair, one by one, on random keys in random classes.
    #[test]
    fn counted_by_runs_is_the_sum_over_every_pair() {
        let mut rng = crate::util::rng::SplitMix64(5);
        for round in 0..200 {
            let n = 2 * (1 + round % 8) as u32;
            let levels = (n / 2) as u64;
            let side = |rng: &mut crate::util::rng::SplitMix64, len: u64| {
                let mut classes: Vec<(Class, u64)> = (0..len)
                    .map(|_| {
                        let level = (rng.next() % levels) as Level;
                        let part = [Part::P, Part::Both, Part::Q][(rng.next() % 3) as usize];
                        ((level, part), rng.next() & rng.next() & rng.next() & 0xffff)
                    })
                    .collect();
                classes.sort_unstable_by_key(|&(class, _)| class);
                let keys: Vec<u64> = classes.iter().map(|&(_, k)| k).collect();
                let mut runs = Runs::new();
                for (i, &(class, _)) in classes.iter().enumerate() {
                    if runs.last().is_none_or(|&(c, _)| c != class) {
                        runs.push((class, i));
                    }
                }
                (classes, keys, runs)
            };
            let (len_e, len_w) = (rng.next() % 60, rng.next() % 60);
            let (e, w) = (side(&mut rng, len_e), side(&mut rng, len_w));
            let expected: u64 =
                e.0.iter()
                    .flat_map(|&(ec, ek)| {
                        w.0.iter()
                            .filter(move |&&(_, wk)| ek & wk == 0)
                            .map(move |&(wc, _)| times(ec, wc))
                    })
                    .sum();
            let got = count_runs(
                n,
                Classed {
                    keys: &e.1,
                    runs: &e.2,
                },
                Classed {
                    keys: &w.1,
                    runs: &w.2,
                },
                &mut Scratch::default(),
                |a, b| {
                    a.iter()
                        .map(|&x| b.iter().filter(|&&y| x & y == 0).count() as u64)
                        .sum()
                },
            );
            assert_eq!(got, expected, "round {round}");
        }
    }

    /// Every (a, b, c, d) with entries 0..k.
    fn itertools(k: u32) -> impl Iterator<Item = (u32, u32, u32, u32)> {
        (0..k * k * k * k).map(move |i| (i % k, i / k % k, i / k / k % k, i / k / k / k))
    }
}
