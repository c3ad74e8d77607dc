//! The quarter turn's classes as key bits (a thermometer code), built only to be priced against
//! the decompositions the engine has: a measurement, not a way of counting (docs/performance.md,
//! "Pricing the decompositions").
//!
//! The turn's weight of a pair (`turn::times`) depends on the order of the halves' levels and
//! on their parts. An order is a disjointness: give an east half of level p the levels p..L - 1
//! as bits and a west half of level q the levels 0..q, and they share a bit exactly when p ≤ q.
//! With the other codes below (0..p - 1, 0..p, q..L - 1), each count of an east part against
//! the west halves of some parts, one code a part, adds [p > q], [p ≥ q], [p < q], [p ≤ q] or 1
//! per pair, and seven such counts add up to `times` for every pair of parts:
//!
//! ```text
//!   east P (p..L-1 or none)   west P: 2 (none, twice)   B: 1 + [p > q]   Q: [p ≥ q] + [p > q]
//!   east B (0..p or p..L-1)   west P: 1 + [p < q]       B: 1             Q: [p ≥ q]
//!   east Q (0..p-1 or 0..p)   west P: [p ≤ q] + [p < q] B: [p ≤ q]      Q: 0
//! ```
//!
//! The lists are a piece's whole lists split by part: long, as the counter likes them, and the
//! pivots skip the pairs in the wrong order as they skip clashing diagonals. The level bits sit
//! above the key's (n = 26: 50 + 13 bits), so boards whose bits do not fit (n ≥ 28) are priced
//! by their lists' lengths only.

use super::half::{self, Window};
use super::turn::{self, each_run, Class, Classed, Part};
use super::{units::Unit, Join};

/// Bits of levels `from..=to` (none when from > to), above a key of `shift` bits.
fn levels(from: u32, to: u32, shift: u32) -> u64 {
    if from > to {
        0
    } else {
        (((1u64 << (to - from + 1)) - 1) << from) << shift
    }
}

/// A code: a half's level bits from its level and the number of levels.
type Code = fn(u32, u32) -> (u32, u32);

/// No level bits.
const NONE: Code = |_, _| (1, 0);
/// p..L - 1.
const FROM: Code = |l, top| (l, top - 1);
/// 0..p.
const UPTO: Code = |l, _| (0, l);
/// 0..p - 1.
const BELOW: Code = |l, _| if l == 0 { (1, 0) } else { (0, l - 1) };

/// One count: an east part with its code against west parts with theirs, and its weight.
type Layer = (Part, Code, &'static [(Part, Code)], u64);

/// The seven counts of the module header.
const LAYERS: [Layer; 7] = [
    (Part::P, NONE, &[(Part::P, NONE)], 2),
    (Part::P, FROM, &[(Part::Both, NONE), (Part::Q, BELOW)], 1),
    (Part::P, FROM, &[(Part::Both, UPTO), (Part::Q, UPTO)], 1),
    (Part::Both, UPTO, &[(Part::P, FROM), (Part::Both, NONE)], 1),
    (Part::Both, FROM, &[(Part::P, NONE), (Part::Q, BELOW)], 1),
    (Part::Q, BELOW, &[(Part::P, FROM), (Part::Both, FROM)], 1),
    (Part::Q, UPTO, &[(Part::P, FROM)], 1),
];

/// The keys of `list`'s halves of part `part`, each with its level's code, to `out`.
fn coded(list: Classed<Class>, part: Part, code: Code, shift: u32, top: u32, out: &mut Vec<u64>) {
    for ((level, p), range) in each_run(list.keys.len(), list.runs) {
        if p == part {
            let (from, to) = code(u32::from(level), top);
            let bits = levels(from, to, shift);
            out.extend(list.keys[range].iter().map(|&k| k | bits));
        }
    }
}

/// Σ times × pairs that share no diagonal, over one piece of a unit's east halves and one of
/// its west halves, both in class order: the seven counts of the module header, each by
/// `count` (keys of `window.key_bits() + n / 2` bits).
pub(crate) fn count_piece(
    n: u32,
    window: Window,
    east: Classed<Class>,
    west: Classed<Class>,
    lists: &mut [Vec<u64>; 2],
    mut count: impl FnMut(&[u64], &[u64]) -> u64,
) -> u64 {
    let (shift, top) = (window.key_bits(), n / 2);
    let mut total = 0;
    for (part, code, wests, weight) in LAYERS {
        let [e, w] = lists;
        e.clear();
        w.clear();
        coded(east, part, code, shift, top, e);
        for &(part, code) in wests {
            coded(west, part, code, shift, top, w);
        }
        if !e.is_empty() && !w.is_empty() {
            total += weight * count(e, w);
        }
    }
    total
}

/// A unit's Σ times × solutions by the thermometer: its halves made in pieces in class order
/// (the quarter turn's), each pair of pieces by [`count_piece`], every count by `count` with
/// the keys' bits.
pub(crate) fn count_unit(
    join: &Join,
    unit: &Unit,
    mut count: impl FnMut(&[u64], &[u64], u32) -> u64,
) -> u64 {
    let (n, window) = (join.n, join.window);
    let bits = window.key_bits() + n / 2;
    let (mut lists, mut groups) = (turn::Lists::default(), half::Buffers::default());
    let mut coded = [vec![], vec![]];
    join.count_pieces(
        &mut lists,
        &mut groups,
        unit,
        |s| s.class,
        |e, w| count_piece(n, window, e, w, &mut coded, |x, y| count(x, y, bits)),
    )
}

#[cfg(test)]
mod tests {
    use super::super::{pairs, Quadrant};
    use super::*;

    /// The level bits `code` gives level `l` of `top` levels, from bit 0.
    fn bits(code: Code, l: u32, top: u32) -> u64 {
        let (from, to) = code(l, top);
        levels(from, to, 0)
    }

    /// The codes compare as the header says, for every pair of levels.
    #[test]
    fn codes_order_the_levels() {
        let top = 7;
        for p in 0..top {
            for q in 0..top {
                let apart = |e: Code, w: Code| bits(e, p, top) & bits(w, q, top) == 0;
                assert_eq!(apart(FROM, UPTO), p > q, "{p} {q}");
                assert_eq!(apart(FROM, BELOW), p >= q, "{p} {q}");
                assert_eq!(apart(UPTO, FROM), p < q, "{p} {q}");
                assert_eq!(apart(BELOW, FROM), p <= q, "{p} {q}");
                assert!(apart(NONE, FROM) && apart(UPTO, NONE));
            }
        }
    }

    /// The seven counts give each pair of classes its weight in the turn.
    #[test]
    fn the_layers_weigh_each_pair_as_the_turn_does() {
        let top = 5;
        let parts = [Part::P, Part::Both, Part::Q];
        for (pe, pw) in parts.iter().flat_map(|&a| parts.map(|b| (a, b))) {
            for (p, q) in (0..top).flat_map(|p| (0..top).map(move |q| (p, q))) {
                let weight: u64 = LAYERS
                    .iter()
                    .filter(|l| l.0 == pe)
                    .flat_map(|l| l.2.iter().map(move |w| (l, w)))
                    .filter(|((_, ce, _, _), (part, cw))| {
                        *part == pw && bits(*ce, p, top) & bits(*cw, q, top) == 0
                    })
                    .map(|(l, _)| l.3)
                    .sum();
                let times = turn::times((p as u8, pe), (q as u8, pw));
                assert_eq!(weight, times, "{pe:?} {p} / {pw:?} {q}");
            }
        }
    }

    /// Every even board to 14 by the thermometer: the table's count.
    #[test]
    fn the_thermometer_counts_every_even_board_to_14() {
        for n in (4..=14).step_by(2) {
            let join = Join::with(n, Quadrant::Table, 0).unwrap();
            let mut scratch = pairs::Scratch::default();
            let mut total = 0;
            for unit in super::super::units::tests::units(n) {
                let unit_total = count_unit(&join, &unit, |x, y, bits| {
                    pairs::count_disjoint(x, y, bits, &mut scratch)
                });
                total += u128::from(unit.weight) * u128::from(unit_total);
            }
            assert_eq!(
                total,
                crate::truth::known::known(n).unwrap().total,
                "n = {n}"
            );
        }
    }
}
