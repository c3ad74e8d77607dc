//! The join engine's work: units (east row sets, one per symmetry class, with their weights) and
//! the blocks of units that are the plan's subproblems.
//!
//! A solution of an even board (n = 2h) has h queens in the east columns `0..h`; their rows form
//! the set S. For odd n = 2h + 1 the middle column holds one queen, in some row m, and the east
//! queens use h of the other rows. A unit is (m, S) (m = none for even n), and the solutions of the
//! board are partitioned by their unit.
//!
//! Two reflections map units to units and solutions to solutions one to one:
//! - north-south (row r ↦ n-1-r): (m, S) ↦ (n-1-m, reverse(S));
//! - east-west (column c ↦ n-1-c): (m, S) ↦ (m, the west rows), the rows other than S and m.
//!
//! So every unit of a class of the group they generate (1, 2 or 4 units) has the same count: only
//! one is searched, with the size of its class as weight: the smallest (by east rows, then
//! middle row) of those whose east rows miss the middle row h of an odd board (the east-west
//! image of a unit with h in S has it in its west rows).
//!
//! **The quarter turn** (odd boards). The middle row holds one queen too, in some column c. Let
//! d_m = |m - h| and d_c = |c - h| be the distances of the two middle queens from the centre.
//! Both reflections keep d_m and d_c; a quarter turn of the board swaps them, one to one on the
//! solutions, so as many solutions have d_c > d_m as d_c < d_m. None has d_c = d_m but for the
//! centre's queen (m = c = h): two distinct queens at (m, h) and (h, c) with |m - h| = |c - h|
//! stand on one diagonal. So
//!
//! ```text
//!   total = 2 · #(d_c > d_m) + #(m = c = h)
//! ```
//!
//! A unit therefore counts only its solutions with d_c > d_m, twice ([`level_column`]). Its
//! middle row is a west row (m ≠ h; for m = h both queens are the centre one and nothing
//! changes), so this only narrows the west halves it is counted with, to those whose queen in
//! row h is farther from the centre: about half of the pairs are never tested (n = 17: 0.48
//! times the pairs of the count before the turn, n = 19: 0.52).
//!
//! A *block* is every east row set with the same rows at and below row `low` (the bits of S from
//! `low` up): its units are counted together, one east row set after another (the units of one
//! S share its east halves). Up to n = 24 `low` is 0 and a block is one row set S; above, the
//! boards have millions of row sets and a block holds many, so that the plan stays below 2^20
//! subproblems and no list of every unit is ever made.

use super::subsets::for_each_subset;

/// One unit: the middle-column queen's row (odd n) and the east rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Unit {
    /// Row of the queen in the middle column (odd n only).
    pub middle: Option<u8>,
    /// Rows of the east queens, bit r for row r.
    pub east: u32,
    /// Units of the same symmetry class, this one included: 1, 2 or 4.
    pub weight: u32,
}

impl Unit {
    /// Rows of the west queens.
    pub(crate) fn west(&self, n: u32) -> u32 {
        all_rows(n) ^ self.east ^ self.middle.map_or(0, |m| 1 << m)
    }
}

/// How `unit`'s west halves are counted (the quarter turn, see the module header), by the column
/// of their queen in the middle row n/2 of an odd board, mirrored as the west halves are made
/// (c ↦ n-1-c: column 0 is the board's last): for a unit whose middle queen is at distance
/// d = |m - h| ≥ 1 from the centre, its *level column* h - d, where that queen would be exactly
/// as far from the centre (and on a diagonal of the middle queen: no half of the unit has it
/// there). The halves with theirs left of it (farther) count twice, right of it not at all.
/// None (even boards, the centre's units): every half counts once.
pub(crate) fn level_column(n: u32, unit: &Unit) -> Option<u32> {
    let h = n / 2;
    let d = u32::from(unit.middle?).abs_diff(h);
    (d > 0).then(|| h - d)
}

/// Row sets per plan above which blocks hold more than one row set.
const MAX_SINGLE_BLOCKS: u64 = 1 << 22;
/// Rows a block's pattern covers at most, when it holds several row sets: 2^20 blocks at most.
const BLOCK_ROWS: u32 = 20;

/// How an `n`-board's row sets are cut into blocks: the first row of a block's pattern.
pub(crate) fn block_low(n: u32) -> u32 {
    if binomial(n, n / 2) <= MAX_SINGLE_BLOCKS {
        0
    } else {
        n.saturating_sub(BLOCK_ROWS)
    }
}

/// The blocks of an `n`-board, in plan order: each the pattern of S on rows `low..n` (bits
/// below `low` clear), increasing. With `low = 0` only the row sets that hold a unit are listed.
pub(crate) fn blocks(n: u32) -> Vec<u32> {
    let (h, low) = (n / 2, block_low(n));
    let mut out = Vec::new();
    if low == 0 {
        for_each_subset(n, h, |east| {
            if has_unit(n, east) {
                out.push(east);
            }
        });
        return out;
    }
    // Patterns with p queens above `low` leave h - p for the `low` rows below; those with the
    // middle row of an odd board hold no unit.
    for p in h.saturating_sub(low)..=h.min(n - low) {
        for_each_subset(n - low, p, |high| {
            if !middle_row_east(n, high << low) {
                out.push(high << low);
            }
        });
    }
    out.sort_unstable();
    out
}

/// Every east row set of the block `pattern`, in increasing order.
pub(crate) fn row_sets(n: u32, pattern: u32, mut f: impl FnMut(u32)) {
    let low = block_low(n);
    let rest = (n / 2).saturating_sub(pattern.count_ones());
    for_each_subset(low, rest, |bits| f(pattern | bits));
}

/// Row sets in the block `pattern`.
pub(crate) fn row_sets_in(n: u32, pattern: u32) -> u64 {
    binomial(block_low(n), (n / 2).saturating_sub(pattern.count_ones()))
}

/// Every unit of the east row set `east` that is the smallest of its class, with its weight, in
/// increasing order of its middle row.
pub(crate) fn units_of(n: u32, east: u32, mut f: impl FnMut(Unit)) {
    if middle_row_east(n, east) {
        return;
    }
    let middles = if n.is_multiple_of(2) { 0..1 } else { 0..n };
    for m in middles {
        let m = (n % 2 == 1).then_some(m);
        if m.is_some_and(|m| east & (1 << m) != 0) {
            continue;
        }
        let me = (east, m);
        let class = class_of(n, me);
        let rival = |&&(s, _): &&(u32, Option<u32>)| !middle_row_east(n, s);
        if class.iter().filter(rival).all(|&other| me <= other) {
            let mut distinct = class;
            distinct.sort_unstable();
            let weight = 1 + distinct.windows(2).filter(|w| w[0] != w[1]).count() as u32;
            f(Unit {
                middle: m.map(|m| m as u8),
                east,
                weight,
            });
        }
    }
}

/// Whether the east rows `east` of an odd board hold its middle row: no unit of theirs is
/// searched (the module header).
fn middle_row_east(n: u32, east: u32) -> bool {
    n % 2 == 1 && east >> (n / 2) & 1 != 0
}

/// Whether the east row set `east` of an `n`-board holds a unit of its own (one that is the
/// smallest of its class): whether a count does any work on it.
pub(crate) fn has_unit(n: u32, east: u32) -> bool {
    let mut any = false;
    units_of(n, east, |_| any = true);
    any
}

/// Every row of an `n`-board, as a mask.
pub(crate) fn all_rows(n: u32) -> u32 {
    (u64::MAX >> (64 - n)) as u32
}

/// The four images of a unit (east rows, middle row) under the two reflections and their product.
fn class_of(n: u32, (s, m): (u32, Option<u32>)) -> [(u32, Option<u32>); 4] {
    let rev = |x: u32| x.reverse_bits() >> (32 - n);
    let flip_m = m.map(|m| n - 1 - m);
    let west = all_rows(n) ^ s ^ m.map_or(0, |m| 1 << m);
    [(s, m), (rev(s), flip_m), (west, m), (rev(west), flip_m)]
}

/// C(n, k) for n ≤ 32 (0 when k > n), from Pascal's triangle: the colexicographic ranks of
/// the join's prices ask for it once per row set member.
pub(crate) fn binomial(n: u32, k: u32) -> u64 {
    const PASCAL: [[u64; 34]; 33] = {
        let mut t = [[0; 34]; 33];
        let mut n = 0;
        while n < 33 {
            t[n][0] = 1;
            let mut k = 1;
            while k <= n {
                t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
                k += 1;
            }
            n += 1;
        }
        t
    };
    PASCAL[n as usize][(k as usize).min(33)]
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Every unit class of an `n`-board, smallest member first, in increasing (east, middle) order.
    pub(crate) fn units(n: u32) -> Vec<Unit> {
        let mut out = Vec::new();
        for_each_subset(n, n / 2, |east| units_of(n, east, |u| out.push(u)));
        out
    }

    #[test]
    fn weights_cover_every_row_set_once() {
        for n in 1..=14u32 {
            let total: u64 = units(n).iter().map(|u| u64::from(u.weight)).sum();
            let expected = if n % 2 == 0 {
                binomial(n, n / 2)
            } else {
                u64::from(n) * binomial(n - 1, n / 2)
            };
            assert_eq!(total, expected, "n = {n}");
        }
    }

    #[test]
    fn west_rows_are_the_rest() {
        let u = units(7)[3];
        assert_eq!(u.east & u.west(7), 0);
        assert_eq!((u.east | u.west(7)).count_ones(), 6);
        assert_eq!(u.west(7) & (1 << u.middle.unwrap()), 0);
    }

    #[test]
    fn blocks_hold_every_row_set_once_in_order() {
        for n in [9u32, 12, 25, 26] {
            let blocks = blocks(n);
            assert!(blocks.len() <= 1 << 22, "n = {n}");
            let mut seen = 0u64;
            let mut last = None;
            for &b in blocks.iter().take(3000) {
                row_sets(n, b, |s| {
                    assert_eq!(s.count_ones(), n / 2);
                    assert!(last < Some(s), "n = {n}: {s:b} after {last:?}");
                    last = Some(s);
                    seen += 1;
                });
                assert_eq!(row_sets_in(n, b), {
                    let mut k = 0;
                    row_sets(n, b, |_| k += 1);
                    k
                });
            }
            if n < 20 {
                let with_units = units(n)
                    .iter()
                    .map(|u| u.east)
                    .collect::<std::collections::BTreeSet<_>>();
                assert_eq!(seen, with_units.len() as u64, "n = {n}");
            } else {
                assert!(block_low(n) > 0);
            }
        }
        assert_eq!(block_low(24), 0);
        assert_eq!(
            (
                binomial(9, 4),
                binomial(32, 16),
                binomial(3, 5),
                binomial(32, 40)
            ),
            (126, 601_080_390, 0, 0)
        );
    }
}
