//! The join engine's tests and measurements, apart from the engine: its own checks (tiny
//! pieces, groups made on demand), every unit against the textbook solver
//! ([`against_reference`]), and the ignored tests that measure the counter's rate curve
//! ([`rates`]) and the price of each decomposition ([`price`]).

mod against_reference;
mod price;
mod rates;

use super::*;

impl Join {
    /// Keys in one piece of a half list: what one worker thread holds at most, give or take one
    /// column set's halves.
    pub(crate) fn piece(&self) -> usize {
        self.piece
    }

    /// Bytes held by the quadrant table (or its outline).
    pub(crate) fn table_bytes(&self) -> usize {
        self.quadrants.bytes()
    }

    /// Solutions in one unit: pairs of an east half on its east rows and a west half on its west
    /// rows that share no diagonal (and, for odd n, avoid the middle queen's diagonals).
    ///
    /// On odd boards, the solutions whose middle row's queen is at least as far from the centre
    /// as the middle column's, those farther twice (the quarter turn, [`units`]): what the unit
    /// adds to the board's total, over its weight.
    pub(crate) fn count_unit(&self, unit: &Unit) -> u64 {
        let mut solutions = 0;
        self.count_units(unit.east, &[*unit], pairs::count_disjoint, |times, s| {
            solutions += u64::from(times / unit.weight) * s
        });
        solutions
    }
}

/// Pieces far below the smallest a budget gives: east and west lists cut in many places,
/// the west pieces of a group's units running across from one unit to the next; the units
/// of a row set counted alone, and in one go; groups made on demand kept for none, some or
/// all of a row set's groups.
#[test]
fn tiny_pieces_count_every_solution() {
    for n in [9, 10, 11, 12, 13] {
        for piece in [1, 7, 60] {
            for (how, made) in [
                (Quadrant::Table, 0),
                (Quadrant::OnDemand, 0),
                (Quadrant::OnDemand, 40),
                (Quadrant::OnDemand, usize::MAX),
            ] {
                // Every unit alone, and every group in one go; by the innermost key, and even
                // boards by the quarter turn.
                let even = |way| if n % 2 == 0 { way } else { Way::Whole };
                let ways = [
                    (usize::MAX..=usize::MAX, Way::Whole),
                    (0..=usize::MAX, even(Way::QuarterTurn)),
                    (0..=usize::MAX, Way::Innermost),
                ];
                for (joint, way) in ways {
                    let join = Join {
                        piece,
                        made,
                        joint: joint.clone(),
                        way,
                        ..Join::with(n, how, 0).unwrap()
                    };
                    let total: u64 = (0..join.blocks().len()).map(|b| join.count_block(b)).sum();
                    let known = crate::truth::known::known(n).unwrap().total;
                    assert_eq!(
                        u128::from(total),
                        known,
                        "n = {n}, piece {piece}, {how:?}, made {made}, joint {joint:?}, \
                         {way:?}"
                    );
                }
            }
        }
    }
}

/// Made on demand, a quarter of a thread's share of the budget keeps groups (at most
/// MAX_MADE_BYTES), and the pieces take the rest; with a table nothing is kept.
#[test]
fn groups_made_on_demand_are_kept_in_a_quarter_of_the_budget() {
    let join = Join::within(21, Some(64 << 20), 2, Decomposition::Fastest).unwrap();
    assert_eq!(join.quadrants(), Quadrant::OnDemand);
    assert_eq!(join.made, (8 << 20) / 8);
    assert_eq!(join.piece, (24 << 20) / BYTES_PER_KEY as usize);
    let join = Join::within(17, Some(64 << 30), 2, Decomposition::Fastest).unwrap();
    assert_eq!((join.quadrants(), join.made), (Quadrant::Table, 0));
    let join = Join::within(25, Some(64 << 30), 2, Decomposition::Fastest).unwrap();
    assert_eq!(join.made as u64, MAX_MADE_BYTES / 8);
    // Counted by the innermost key (and the quarter turn), a key takes more.
    let join = Join::within(26, Some(1 << 30), 2, Decomposition::Fastest).unwrap();
    let share = (1u64 << 29) - (1 << 27);
    assert_eq!(join.way(), Way::Innermost);
    assert_eq!(
        join.piece as u64,
        share / (BYTES_PER_KEY + TURN_BYTES_PER_KEY)
    );
}
