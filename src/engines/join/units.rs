//! The join engine's work units: east row sets, one per symmetry class, with their weights.
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
//! the smallest (by east rows, then middle row) is searched, with the size of its class as weight.

use super::half::for_each_subset;

/// One unit: the middle-column queen's row (odd n) and the east rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Unit {
    /// Row of the queen in the middle column (odd n only).
    pub middle: Option<u8>,
    /// Rows of the east queens, bit r for row r.
    pub east: u32,
    /// Units of the same symmetry class, this one included: 1, 2 or 4.
    pub weight: u32,
}

impl Unit {
    /// Rows of the west queens.
    pub fn west(&self, n: u32) -> u32 {
        let all = (u64::MAX >> (64 - n)) as u32;
        all ^ self.east ^ self.middle.map_or(0, |m| 1 << m)
    }
}

/// Every unit class of an `n`-board, smallest member first, in increasing (east, middle) order:
/// the units of one east row set come one after the other, so a worker can reuse its east halves.
pub fn units(n: u32) -> Vec<Unit> {
    let h = n / 2;
    let mut out = Vec::new();
    for_each_subset(n, h, |east| {
        let middles: Vec<Option<u32>> = if n.is_multiple_of(2) {
            vec![None]
        } else {
            (0..n).filter(|m| east & (1 << m) == 0).map(Some).collect()
        };
        for m in middles {
            let me = (east, m);
            let class = class_of(n, me);
            if class.iter().all(|&other| me <= other) {
                let mut distinct = class.to_vec();
                distinct.sort_unstable();
                distinct.dedup();
                out.push(Unit {
                    middle: m.map(|m| m as u8),
                    east,
                    weight: distinct.len() as u32,
                });
            }
        }
    });
    out
}

/// The four images of a unit (east rows, middle row) under the two reflections and their product.
fn class_of(n: u32, (s, m): (u32, Option<u32>)) -> [(u32, Option<u32>); 4] {
    let all = (u64::MAX >> (64 - n)) as u32;
    let rev = |x: u32| x.reverse_bits() >> (32 - n);
    let flip_m = m.map(|m| n - 1 - m);
    let west = all ^ s ^ m.map_or(0, |m| 1 << m);
    [(s, m), (rev(s), flip_m), (west, m), (rev(west), flip_m)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binomial(n: u64, k: u64) -> u64 {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }

    #[test]
    fn weights_cover_every_row_set_once() {
        for n in 1..=14u32 {
            let total: u64 = units(n).iter().map(|u| u64::from(u.weight)).sum();
            let expected = if n % 2 == 0 {
                binomial(n.into(), (n / 2).into())
            } else {
                u64::from(n) * binomial(u64::from(n) - 1, (n / 2).into())
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
}
