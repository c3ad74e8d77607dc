//! The half-board join engine: counts solutions as pairs of east and west halves with no shared diagonal.
//!
//! Instead of backtracking through the whole board, the engine builds every non-attacking
//! placement of the board's east half on a row set S (from the quarter table, `quarter.rs`, see [`half`]),
//! and every west half on the other rows, and counts the pairs that share no diagonal (rows and
//! columns are disjoint by construction) with the bit-sliced counter of `pairs.rs`. Odd boards also
//! fix the row of the middle column's queen. Each (middle row, S) class under the north-south and
//! east-west reflections is one [`units::Unit`] and one subproblem of the plan, so progress,
//! checkpoints and shards work unchanged; a worker thread counts whole units with its own buffers.
//!
//! Memory: the quarter table, 8 bytes per placement plus 4 bytes per (row set, column set)
//! group; [`Join::new`] refuses a board whose table would not fit in the memory available.

pub mod half;
pub(crate) mod pairs;
pub(crate) mod quarter;
pub mod units;

use std::cell::RefCell;
use std::sync::OnceLock;

use rayon::prelude::*;

use half::{Side, Window};
use quarter::Quarters;
use units::Unit;

use crate::Error;

/// The largest board the join engine takes: its table is about 8 times larger for every 2 more
/// rows (8 MiB at n = 18, 62 MiB at n = 20, 4.8 GiB at n = 24).
pub const MAX_JOIN_N: u32 = 24;

/// Everything the join engine needs to count any unit of one board size.
pub struct Join {
    n: u32,
    window: Window,
    quarters: Quarters,
    units: Vec<Unit>,
    /// The candidate halves of every h-row set, by its rank in colexicographic order: made on
    /// the first [`Join::cost`].
    prices: OnceLock<Vec<u64>>,
}

impl Join {
    /// The tables and units of an `n`-board, or an error when n is beyond the engine's limit or
    /// the tables would not fit in the memory this process may take (its cgroup, `ulimit -v` and
    /// `MemAvailable`): asked before anything is allocated, and every large allocation is
    /// fallible.
    pub fn new(n: u32) -> Result<Join, Error> {
        Join::with_table(n, true)
    }

    /// The units of an `n`-board and the outline of its table ([`Quarters::outline`]): enough
    /// to price and partition the plan (what `merge` needs), a fraction of the memory and time
    /// of [`Join::new`]; it cannot count.
    pub(crate) fn outline(n: u32) -> Result<Join, Error> {
        Join::with_table(n, false)
    }

    /// Whether the tables of an `n`-board (whole, or their outline) may be built here: the
    /// engine's limit on n and the memory this process may take, asked at once, before anything
    /// is allocated or any thread started.
    pub(crate) fn admit(n: u32, whole: bool) -> Result<(), Error> {
        crate::check_n(n)?;
        if n > MAX_JOIN_N {
            return Err(Error::JoinLimit { n });
        }
        let refusal = Join::too_large(n, whole);
        match refusal {
            // Leave room for the plan, the buffers and everyone else.
            Error::JoinTooLarge {
                needed,
                available: Some(available),
                ..
            } if needed > available / 2 => Err(refusal),
            _ => Ok(()),
        }
    }

    /// The refusal of an `n`-board's tables (whole, or their outline) for want of memory: what
    /// they need and what this process may take.
    fn too_large(n: u32, whole: bool) -> Error {
        let (_, whole_table, outline) = Quarters::size(n);
        Error::JoinTooLarge {
            n,
            needed: if whole { whole_table } else { outline },
            available: crate::memory::available(),
        }
    }

    fn with_table(n: u32, whole: bool) -> Result<Join, Error> {
        Join::admit(n, whole)?;
        Ok(Join {
            n,
            window: Window::new(n),
            quarters: if whole {
                Quarters::build(n)
            } else {
                Quarters::outline(n)
            }
            .map_err(|_| Join::too_large(n, whole))?,
            units: units::units(n),
            prices: OnceLock::new(),
        })
    }

    /// Board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The units, in plan order: unit `i` is subproblem `i`.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// Bytes held by the quarter table.
    pub fn table_bytes(&self) -> usize {
        self.quarters.bytes()
    }

    /// Solutions in one unit: pairs of an east half on its east rows and a west half on its west
    /// rows that share no diagonal (and, for odd n, avoid the middle queen's diagonals).
    pub fn count_unit(&self, unit: &Unit) -> u64 {
        thread_local! {
            static BUFFERS: RefCell<Buffers> = RefCell::default();
        }
        let h = self.n / 2;
        let q = &self.quarters;
        BUFFERS.with(|b| {
            let b = &mut *b.borrow_mut();
            b.east.clear();
            b.west.clear();
            let forbid = match unit.middle {
                None => {
                    half::keys(q, self.window, unit.east, 0, Side::East, &mut b.east);
                    0
                }
                Some(m) => {
                    // The middle queen at (m, h) is on "/" diagonal m + h and "\" diagonal
                    // m - h + n - 1, the same number. The units of one east row set come one
                    // after the other: their east halves are joined once and filtered.
                    let forbid = 1u64 << (u32::from(m) + h);
                    if b.cached != Some((self.n, unit.east)) {
                        b.all_east.clear();
                        b.all_used.clear();
                        let (keys, used) = (&mut b.all_east, &mut b.all_used);
                        half::keys_and_diagonals(q, self.window, unit.east, Side::East, keys, used);
                        b.cached = Some((self.n, unit.east));
                    }
                    let fit = b.all_east.iter().zip(&b.all_used);
                    b.east
                        .extend(fit.filter(|(_, &u)| u & forbid == 0).map(|(&k, _)| k));
                    forbid
                }
            };
            if b.east.is_empty() {
                return 0;
            }
            half::keys(
                q,
                self.window,
                unit.west(self.n),
                forbid,
                Side::West,
                &mut b.west,
            );
            pairs::count_disjoint(&b.east, &b.west, self.window.key_bits(), &mut b.scratch)
        })
    }
}

impl Join {
    /// The estimated cost of [`Join::count_unit`] for `unit`, in arbitrary units that compare
    /// across the units of one board: the candidate halves the quarter join writes on each side
    /// (north placements times the south placements with the other columns) plus the pairs the
    /// bit-sliced counter tests, one per 64 east × west pairs. It reads only the sizes of table
    /// groups, so the whole plan is priced in a fraction of a second, and it is deterministic:
    /// the shard partition depends on it.
    pub fn cost(&self, unit: &Unit) -> u128 {
        let prices = self.prices();
        let price = |rows: u32| u128::from(prices[colex_rank(rows)]);
        let (east, west) = (price(unit.east), price(unit.west(self.n)));
        east + west + east * west / 64
    }

    /// The candidate halves of every h-row set, by colexicographic rank, made once (on the rayon
    /// pool the caller runs in).
    pub fn prices(&self) -> &[u64] {
        self.prices.get_or_init(|| {
            let mut sets = Vec::new();
            // Increasing order of the masks is colexicographic order.
            half::for_each_subset(self.n, self.n / 2, |rows| sets.push(rows));
            sets.par_iter().map(|&rows| self.candidates(rows)).collect()
        })
    }

    /// The east halves on `rows` before the north and south parts are checked against each other.
    fn candidates(&self, rows: u32) -> u64 {
        let q = &self.quarters;
        let r = q.rows();
        let (north, south) = (rows & ((1 << r) - 1), rows >> r);
        let h = self.n / 2;
        let all_cols = (1u32 << h) - 1;
        let mut sum = 0u64;
        half::for_each_subset(h, north.count_ones(), |cols| {
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
        rank += binomial(p, i);
        bits &= bits - 1;
        i += 1;
    }
    rank
}

/// C(n, k) for n, k ≤ 32, from Pascal's triangle.
fn binomial(n: usize, k: usize) -> usize {
    const PASCAL: [[usize; 33]; 33] = {
        let mut t = [[0; 33]; 33];
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
    PASCAL[n][k]
}

/// A worker thread's buffers, reused from unit to unit.
#[derive(Default)]
struct Buffers {
    /// The east halves of the last odd-n unit's row set, unfiltered: (n, east rows) they are for.
    cached: Option<(u32, u32)>,
    all_east: Vec<u64>,
    all_used: Vec<u64>,
    east: Vec<u64>,
    west: Vec<u64>,
    scratch: pairs::Scratch,
}

impl std::fmt::Debug for Join {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Join")
            .field("n", &self.n)
            .field("units", &self.units.len())
            .field("table_entries", &self.quarters.len())
            .finish()
    }
}

/// Tables are a function of n: two are equal when their boards are.
impl PartialEq for Join {
    fn eq(&self, other: &Join) -> bool {
        self.n == other.n
    }
}

impl Eq for Join {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colex_ranks_follow_the_order_of_the_masks() {
        let mut sets = Vec::new();
        half::for_each_subset(9, 4, |s| sets.push(s));
        for (i, &s) in sets.iter().enumerate() {
            assert_eq!(colex_rank(s), i);
        }
        assert_eq!(sets.len(), binomial(9, 4));
        assert_eq!(
            (binomial(9, 4), binomial(32, 16), binomial(3, 5)),
            (126, 601_080_390, 0)
        );
    }
}
