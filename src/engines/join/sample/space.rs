//! What an estimate draws among, and with what probability: the pieces of a count, each drawn
//! in proportion to a weight that guesses its cost (importance sampling).
//!
//! An estimate draws pieces at random, times them, and multiplies each time by what the piece
//! stands for. Drawn with probability w(S) / Σw and multiplied by Σw / w(S), a piece S gives an
//! unbiased estimate of the whole count's time whatever the weights are, so long as none is 0
//! where the cost is not; and the closer w follows the cost, the smaller the spread of the draws
//! (with w proportional to the cost, every draw would read the exact total).
//!
//! A backtracking plan's subproblems are drawn uniformly (every weight 1). So are the join
//! engine's row sets with a quadrant table: a draw there is a run of consecutive row sets
//! ([`super::RUN`]), and only the row sets that hold a unit of their own are drawn (the others cost
//! nothing), so Σw is their share of all row sets times the population. With quadrants made on
//! demand (n ≥ 25) a draw is one row set, and its cost is mostly the pairs of its east and west
//! halves, |E|·|W|, which differ by two orders of magnitude from one row set to another: drawn
//! uniformly, most of a sample's spread would be which row sets it happened to draw. Those draws
//! are weighed by a guess at |E|·|W| that takes a few instructions:
//!
//! ```text
//!   Two queens on rows d apart (d < h), in two of the h columns drawn at random, share a
//!   diagonal with probability 2(h − d) / (h(h − 1)). Taking the pairs as independent,
//!
//!     ln |E(S)| ≈ ln h! + Σ_{d<h} pairs_S(d) · ln(1 − 2(h − d) / (h(h − 1)))
//!
//!   where pairs_S(d) = popcount(S & S >> d), the pairs of rows of S that are d apart;
//!   likewise W on the other rows. The weight is the exponential of tilt(n) times the sum of
//!   that for S and for its complement, clamped between the QUANTILES of the probes' weights.
//! ```
//!
//! The pairs' independence understates how much more a spread-out row set holds, and the more so
//! as n grows, where the pairs take a larger part of a row set's time: the tilt that follows the
//! measured costs best is about 2 at n = 26 and 2.5 to 3 at n = 28. Too steep a tilt is worse than
//! too gentle (3 at n = 26 does worse than drawing uniformly), so it rises slowly and stops at 3.
//! The clamps keep every weight away from 0 (a row set the guess gets badly wrong is still drawn
//! now and then) and bound it, so that a row set is drawn by rejection against the largest.
//!
//! Σw is the population times the mean weight of a row set (0 where it holds no unit), counted
//! on every row set up to n = 20 and above on [`SHARE_PROBES`] drawn uniformly, whose standard error
//! goes into the interval as the share's did.

use rayon::prelude::*;

use crate::engines::join::subsets::for_each_subset;
use crate::engines::join::units::{binomial, has_unit};
use crate::util::rng::SplitMix64;

/// Row sets drawn uniformly to measure the share that holds a unit of their own and their mean
/// weight (about a second at n = 28); a board with at most this many row sets (n ≤ 20) has every
/// one looked at.
pub(crate) const SHARE_PROBES: u32 = 1 << 20;

/// How much more steeply the weight of an `n`-board's row set rises than the pairs'
/// independence says (the module's notes): 2 up to n = 26, a quarter more each size above, at
/// most 3.
fn tilt(n: u32) -> f64 {
    (2.0 + (f64::from(n) - 26.0) / 4.0).clamp(2.0, 3.0)
}

/// The quantiles of the probes' weights that clamp every weight: the lowest and the highest.
const QUANTILES: (f64, f64) = (0.001, 0.999);

/// What an estimate draws among: see the module's notes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Space {
    /// Pieces of work in the count: a backtracking plan's subproblems, the join's row sets.
    pub(crate) population: u64,
    /// The share of the join's row sets that hold a unit of their own, where only those are
    /// drawn (its error is in `mass`'s).
    pub(crate) share: Option<f64>,
    /// The mean weight of a piece (0 for a row set without a unit), with its variance: Σw over
    /// the population.
    pub(crate) mass: (f64, f64),
    /// The weight of every piece.
    pub(crate) weight: Weight,
}

impl Space {
    /// `population` pieces drawn uniformly, every one of them.
    pub(crate) fn uniform(population: u64) -> Space {
        Space {
            population,
            share: None,
            mass: (1.0, 0.0),
            weight: Weight::uniform(),
        }
    }

    /// The row sets of an `n`-board that hold a unit of their own, weighed by the guess at their
    /// cost when `tilted` (uniform otherwise), measured on `probes` of them drawn from `seed`
    /// (on the current rayon pool) or on all where there are no more.
    pub(crate) fn row_sets(n: u32, tilted: bool, probes: u32, seed: u64) -> Space {
        let h = n / 2;
        let population = binomial(n, h);
        let raw = if tilted {
            Weight::tilted(n)
        } else {
            Weight::uniform()
        };
        // The unclamped weights of the probes that hold a unit, and how many probes there were.
        let (mut weights, probed) = if population <= u64::from(probes) {
            let mut weights = Vec::new();
            for_each_subset(n, h, |east| {
                if has_unit(n, east) {
                    weights.push(raw.of(n, east))
                }
            });
            (weights, population)
        } else {
            const PER_TASK: u32 = 1 << 12;
            let weights = (0..probes.div_ceil(PER_TASK))
                .into_par_iter()
                .flat_map_iter(|task| {
                    let mut rng =
                        SplitMix64(seed ^ u64::from(task).wrapping_mul(0xD1B5_4A32_D192_ED03));
                    let draws = PER_TASK.min(probes - task * PER_TASK);
                    (0..draws).filter_map(move |_| {
                        let east = rng.subset(n, h);
                        has_unit(n, east).then(|| raw.of(n, east))
                    })
                })
                .collect();
            (weights, u64::from(probes))
        };
        let exact = probed == population;
        let k = probed.max(1) as f64;
        let p = weights.len() as f64 / k;
        if weights.is_empty() {
            return Space {
                population,
                share: Some(p),
                mass: (0.0, 0.0),
                weight: raw,
            };
        }
        weights.sort_by(f64::total_cmp);
        let at = |q: f64| weights[((weights.len() - 1) as f64 * q) as usize];
        let weight = Weight {
            low: at(QUANTILES.0),
            high: at(QUANTILES.1),
            ..raw
        };
        let (sum, squares) = weights.iter().fold((0.0, 0.0), |(s, q), &w| {
            let w = w.clamp(weight.low, weight.high);
            (s + w, q + w * w)
        });
        let mean = sum / k;
        let variance = if exact {
            0.0
        } else {
            (squares / k - mean * mean).max(0.0) / k
        };
        Space {
            population,
            share: Some(p),
            mass: (mean, variance),
            weight,
        }
    }

    /// A row set of an `n`-board with a unit of its own, drawn with probability proportional to
    /// its weight (uniformly among them when untilted), with its weight: drawn uniformly among
    /// all and kept with probability weight / largest weight.
    pub(crate) fn draw_row_set(&self, n: u32, rng: &mut SplitMix64) -> (u32, f64) {
        loop {
            let east = rng.subset(n, n / 2);
            if !has_unit(n, east) {
                continue;
            }
            let w = self.weight.of(n, east);
            if rng.uniform() * self.weight.high < w {
                return (east, w);
            }
        }
    }

    /// Whether the pieces are weighed by a guess at their cost, not drawn uniformly.
    pub(crate) fn weighed(&self) -> bool {
        self.weight != Weight::uniform()
    }

    /// What the time of `pieces` drawn together from one of weight `w` is multiplied by to
    /// estimate the whole count's: Σw / w, shared among them.
    pub(crate) fn stands_for(&self, w: f64, pieces: u32) -> f64 {
        self.population as f64 * self.mass.0 / (w * f64::from(pieces.max(1)))
    }
}

/// A piece's weight: the guess at a row set's cost of the module's notes, or 1 for every piece.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Weight {
    /// The logarithm of the weight's factor for each pair of rows d apart, by d (all 0: uniform).
    tilt: [f64; 16],
    /// The least and the most weight of a piece.
    low: f64,
    high: f64,
}

impl Weight {
    /// Every piece weighs 1.
    pub(crate) fn uniform() -> Weight {
        Weight {
            tilt: [0.0; 16],
            low: 1.0,
            high: 1.0,
        }
    }

    /// The guess at the cost of an `n`-board's row sets, unclamped.
    fn tilted(n: u32) -> Weight {
        let h = n / 2;
        let mut per_pair = [0.0; 16];
        if h >= 2 {
            let (steep, h, cols) = (tilt(n), f64::from(h), f64::from(h * (h - 1)));
            for (d, t) in per_pair.iter_mut().enumerate().take(n as usize / 2).skip(1) {
                *t = steep * ln_1m(2.0 * (h - d as f64) / cols);
            }
        }
        Weight {
            tilt: per_pair,
            low: 0.0,
            high: f64::INFINITY,
        }
    }

    /// The weight of the east row set `east` of an `n`-board.
    pub(crate) fn of(&self, n: u32, east: u32) -> f64 {
        if self.tilt == [0.0; 16] {
            return 1.0;
        }
        let west = (((1u64 << n) - 1) as u32) ^ east;
        let near = |rows: u32, d: usize| (rows & rows >> d).count_ones() as f64;
        let ln: f64 = (1..self.tilt.len())
            .map(|d| self.tilt[d] * (near(east, d) + near(west, d)))
            .sum();
        exp(ln).clamp(self.low, self.high)
    }
}

/// ln(1 - x), from its series with additions, products and quotients alone where it converges
/// fast (x ≤ 1/2, every board the guess prices: x ≤ 2/h): IEEE arithmetic rounds those alike on
/// every machine, where a platform's `ln` may differ in its last bit, and the shard partition
/// is dealt by these weights ([`super::super::Join::block_cost`]).
fn ln_1m(x: f64) -> f64 {
    if !(0.0..=0.5).contains(&x) {
        return (1.0 - x).ln();
    }
    let (mut power, mut sum) = (1.0, 0.0);
    for k in 1..=64 {
        power *= x;
        sum -= power / f64::from(k);
    }
    sum
}

/// e^y, portable as [`ln_1m`] is: y = k ln 2 + r with |r| ≤ ln 2 / 2, e^r from 20 terms of its
/// series, scaled by 2^k through the exponent's bits.
fn exp(y: f64) -> f64 {
    if y.is_nan() {
        return y;
    }
    let k = (y / std::f64::consts::LN_2).round().clamp(-1100.0, 1100.0);
    let r = y - k * std::f64::consts::LN_2;
    let (mut term, mut sum) = (1.0, 1.0);
    for i in 1..=20 {
        term *= r / f64::from(i);
        sum += term;
    }
    // 2^k in two factors, each a normal number.
    let half = (k / 2.0).trunc();
    let two_to = |e: f64| f64::from_bits(((e as i64 + 1023).clamp(1, 2046) as u64) << 52);
    sum * two_to(half) * two_to(k - half)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Untilted, the mass is the share of row sets with a unit, counted on all of them or
    /// probed; tilted, the weights lie between their clamps and favour the row sets whose rows
    /// lie far apart.
    #[test]
    fn the_space_measures_the_share_and_the_weights() {
        let flat = Space::row_sets(16, false, SHARE_PROBES, 1);
        let p = flat.share.unwrap();
        assert_eq!(
            flat.mass,
            (p, 0.0),
            "n = 16's 12,870 row sets are all looked at"
        );
        let mut with_unit = 0;
        for_each_subset(16, 8, |east| with_unit += u32::from(has_unit(16, east)));
        assert_eq!(p, f64::from(with_unit) / 12_870.0);
        let probed = Space::row_sets(16, false, 1000, 5);
        assert!((probed.mass.0 - p).abs() < 0.05 && probed.mass.1 > 0.0);
        let tilted = Space::row_sets(16, true, SHARE_PROBES, 1);
        let w = tilted.weight;
        assert!(w.low > 0.0 && w.low < w.high && w.high.is_finite());
        assert!(tilted.mass.0 > 0.0 && tilted.mass.0 < p * w.high);
        // Rows 0..8 together crowd the east half; every other row spreads them out.
        let (crowded, spread) = (0x00FF, 0x5555);
        assert!(w.of(16, crowded) < w.of(16, spread));
        let mut rng = SplitMix64(3);
        for _ in 0..100 {
            let (east, weight) = tilted.draw_row_set(16, &mut rng);
            assert!(has_unit(16, east) && weight == w.of(16, east));
            assert!(weight >= w.low && weight <= w.high);
        }
    }

    /// Drawn by rejection, a row set comes up as often as its weight says: over all the row sets
    /// of n = 12 with a unit, the mean of 1 / weight over the draws is the number of them over
    /// Σw.
    #[test]
    fn row_sets_are_drawn_in_proportion_to_their_weight() {
        let n = 12;
        let space = Space::row_sets(n, true, SHARE_PROBES, 1);
        let mut count = 0.0;
        for_each_subset(n, n / 2, |east| {
            if has_unit(n, east) {
                count += 1.0;
            }
        });
        let sum = space.mass.0 * space.population as f64;
        let mut rng = SplitMix64(9);
        let draws = 200_000;
        let mean: f64 = (0..draws)
            .map(|_| 1.0 / space.draw_row_set(n, &mut rng).1)
            .sum::<f64>()
            / f64::from(draws);
        assert!(
            (mean * sum / count - 1.0).abs() < 0.02,
            "{mean} × {sum} against {count}"
        );
    }
}
