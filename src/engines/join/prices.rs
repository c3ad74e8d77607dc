//! What the join engine's blocks and units cost, priced before they are counted: the plan's
//! shards are dealt out by these prices.

use rayon::prelude::*;

use super::units::{self, Unit};
use super::{subsets, Join, BLOCK_PROBES};

impl Join {
    /// The estimated cost of [`Join::count_block`] for block `i`, in arbitrary units that compare
    /// across the blocks of one board: the sum of its units' costs ([`Join::cost`]). Above
    /// n = [`super::MAX_TABLE_N`], where no table's sizes are known, a block is priced by its number of
    /// units, estimated from `BLOCK_PROBES` of its row sets drawn at random (most row sets
    /// hold no unit of their own, and whole blocks none). Deterministic: the shard partition
    /// depends on it.
    pub(crate) fn block_cost(&self, i: usize) -> u128 {
        let block = self.blocks[i];
        if self.quadrants.sizes_known() {
            let mut sum = 0;
            units::row_sets(self.n, block, |east| {
                units::units_of(self.n, east, |unit| sum += self.cost(&unit));
            });
            sum
        } else {
            let (n, low) = (self.n, units::block_low(self.n));
            let rest = (n / 2).saturating_sub(block.count_ones());
            let mut rng = crate::util::rng::SplitMix64(u64::from(block));
            let mut found = 0u64;
            for _ in 0..BLOCK_PROBES {
                units::units_of(n, block | rng.subset(low, rest), |_| found += 1);
            }
            // Units per 2^20 row sets, so that rare units still weigh something.
            let per_row_set = (found << 20) / u64::from(BLOCK_PROBES);
            u128::from(units::row_sets_in(n, block)) * u128::from(per_row_set)
        }
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
