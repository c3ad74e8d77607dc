//! What the join engine's blocks and units cost, priced before they are counted: the plan's
//! shards are dealt out by these prices.

use rayon::prelude::*;

use super::sample::space::{Space, Weight};
use super::units::{self, Unit};
use super::{subsets, Join};

/// Row sets drawn to clamp the guess at a row set's cost above n = [`super::MAX_TABLE_N`]
/// ([`Join::guess`]): a fraction of a second at n = 28.
const GUESS_PROBES: u32 = 1 << 16;
/// The seed of those draws: fixed, as the partition must be the same on every machine.
const GUESS_SEED: u64 = 0x6E71_7565_656E_7321;

impl Join {
    /// The estimated cost of [`Join::count_block`] for block `i`, in arbitrary units that compare
    /// across the blocks of one board: the sum of its row sets' ([`Join::row_set_cost`]).
    /// Deterministic: the shard partition depends on it.
    pub(crate) fn block_cost(&self, i: usize) -> u128 {
        let mut sum = 0;
        units::row_sets(self.n, self.blocks[i], |east| {
            sum += self.row_set_cost(east)
        });
        sum
    }

    /// The share of block `i`'s cost ([`Join::block_cost`]) in its first `done` row sets: how far
    /// a block counted that far is.
    pub(crate) fn block_share(&self, i: usize, done: u32) -> f64 {
        let (mut part, mut all, mut k) = (0, 0, 0);
        units::row_sets(self.n, self.blocks[i], |east| {
            let cost = self.row_set_cost(east);
            all += cost;
            if k < done {
                part += cost;
            }
            k += 1;
        });
        if all == 0 {
            f64::from(done) / k.max(1) as f64
        } else {
            part as f64 / all as f64
        }
    }

    /// The estimated cost of counting the east row set `east` ([`Join::count_row_set`]), in the
    /// units of [`Join::block_cost`]: the sum of its units' costs ([`Join::cost`]) where the
    /// quadrants' sizes are known (n ≤ [`super::MAX_TABLE_N`]). Above, the estimator's guess at
    /// a row set's cost ([`Weight`]: its halves' pairs, from how near its rows lie), drawn
    /// from a fixed seed and so the same on every machine, times its units. Deterministic.
    pub(crate) fn row_set_cost(&self, east: u32) -> u128 {
        let n = self.n;
        let mut sum = 0;
        if self.quadrants.sizes_known() {
            units::units_of(n, east, |unit| sum += self.cost(&unit));
            return sum;
        }
        units::units_of(n, east, |_| sum += 1);
        if sum == 0 {
            return 0;
        }
        // Weights are at most 1: 2^64 of them keep every row set's price in integers.
        const SCALE: f64 = 18_446_744_073_709_551_616.0;
        sum * (self.guess().of(n, east) * SCALE) as u128
    }

    /// Makes now what [`Join::row_set_cost`] reads: the prices of the row sets where the
    /// quadrants' sizes are known, the guess at their costs where not.
    pub(crate) fn prepare_prices(&self) {
        if self.quadrants.sizes_known() {
            self.prices();
        } else {
            self.guess();
        }
    }

    /// The estimator's guess at the cost of this board's row sets, clamped where
    /// [`GUESS_PROBES`] row sets drawn from a fixed seed put it, made once (on the rayon pool
    /// the caller runs in).
    pub(crate) fn guess(&self) -> &Weight {
        self.guess
            .get_or_init(|| Space::row_sets(self.n, true, GUESS_PROBES, GUESS_SEED).weight)
    }

    /// The estimated cost of [`Join::count_unit`] for `unit`, in arbitrary units that compare
    /// across the units of one board: the candidate halves the quadrant join writes on each side
    /// (north placements times the south placements with the other columns) plus the pairs the
    /// bit-sliced counter tests, one per 64 east × west pairs. It reads only the sizes of table
    /// groups, so the whole plan is priced in a fraction of a second (n ≤ [`super::MAX_TABLE_N`]).
    pub(crate) fn cost(&self, unit: &Unit) -> u128 {
        let prices = self.prices();
        let price = |rows: u32| u128::from(prices[colex_rank(rows)]);
        // The quarter turn keeps the west halves whose queen in the middle row stands in some
        // of the h columns, left of the level column ([`units::level_column`]): about that
        // share of them. Priced with the level column too, as when earlier builds made its
        // (always empty) list: shards are dealt out by these prices, and a shard of an odd
        // board written by an earlier build keeps its subproblems, so it still merges.
        let h = self.n / 2;
        let cols = units::level_column(self.n, unit).map_or(h, |t| t + 1);
        let share = |x: u128| x * u128::from(cols.max(1)) / u128::from(h.max(1));
        let (east, west) = (price(unit.east), share(price(unit.west(self.n))));
        east + west + east * west / 64
    }

    /// The candidate halves of every h-row set, by colexicographic rank, made once (on the rayon
    /// pool the caller runs in); empty when the quadrants' sizes are not known.
    pub(crate) fn prices(&self) -> &[u64] {
        self.prices.get_or_init(|| {
            if !self.quadrants.sizes_known() {
                return Vec::new();
            }
            let mut sets = Vec::new();
            // Increasing order of the masks is colexicographic order.
            subsets::for_each_subset(self.n, self.n / 2, |rows| sets.push(rows));
            sets.par_iter().map(|&rows| self.candidates(rows)).collect()
        })
    }

    /// The east halves on `rows` before the north and south parts are checked against each other.
    fn candidates(&self, rows: u32) -> u64 {
        let q = &self.quadrants;
        let r = q.rows();
        let (north, south) = (rows & ((1 << r) - 1), rows >> r);
        let h = self.n / 2;
        let all_cols = (1u32 << h) - 1;
        let mut sum = 0u64;
        subsets::for_each_subset(h, north.count_ones(), |cols| {
            let (a, b) = (
                q.group_len(north, cols),
                q.group_len(south, all_cols ^ cols),
            );
            sum = sum.saturating_add((a as u64).saturating_mul(b as u64));
        });
        sum
    }
}

/// The rank of the set `bits` among the sets of its size in colexicographic order (the order of
/// their masks): Σ C(p_i, i + 1) over its members p_0 < p_1 < ….
fn colex_rank(mut bits: u32) -> usize {
    let mut rank = 0;
    let mut i = 1;
    while bits != 0 {
        let p = bits.trailing_zeros() as usize;
        rank += units::binomial(p as u32, i as u32) as usize;
        bits &= bits - 1;
        i += 1;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colex_ranks_follow_the_order_of_the_masks() {
        let mut sets = Vec::new();
        subsets::for_each_subset(9, 4, |s| sets.push(s));
        for (i, &s) in sets.iter().enumerate() {
            assert_eq!(colex_rank(s), i);
        }
        assert_eq!(sets.len() as u64, units::binomial(9, 4));
    }
}
