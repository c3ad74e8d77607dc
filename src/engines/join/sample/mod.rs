//! The join engine's part of an estimate: what its draws are drawn among ([`space`]), and one
//! draw of its work, done as a run does it and timed, with the parts a run would spend most of
//! its time on sampled rather than done.
//!
//! A run takes the join engine's row sets in order, and consecutive row sets read neighbouring
//! parts of the quadrant table; row sets drawn one by one miss the cache and look dearer than
//! they are. So with a table one draw is a run of [`RUN`] consecutive row sets with a unit (those
//! without passed over, as a count passes over them) from one drawn at random (wrapping round):
//! every row set with a unit is still in as many runs as any other, so the mean stays unbiased.
//! The [`WARM`] row sets before the run are done first, untimed, so that the run starts with the
//! caches a count has there. Without a table (n ≥ 25, or a budget too small for it) a draw is
//! one row set, drawn in proportion to its weight ([`space`]).
//!
//! Above n = 24 one row set takes minutes: its halves number in the millions and the pairs in
//! the 10^15. The halves are made and timed as in a run, and each of its counts orders its lists
//! by pivots as in a run; of the pairs, a count with a longer list of more than `keys` keys
//! counts a sample of its batches of 512 keys: every `stride`-th batch from one drawn at random,
//! in the order the counter puts them, so about `keys` keys, and their time is multiplied by
//! `stride`. Each batch is in exactly one of the samples, so the mean stays unbiased; spreading
//! the sample over the sorted list keeps its variance low (a window of consecutive keys would
//! miss the sort's gain). Ordering the lists is a few percent of a row set's time in a run, but
//! most of a draw's. Sampling whole counts as well (by their keys, or their pairs) made draws
//! quicker, but noisier by as much: the interval after a given time was no narrower.
//!
//! Beside the time, a draw estimates in the same way the pairs its counts would test (every key
//! of one list against every key of the other): a measure with no noise whose exact total the
//! tests can count, to show that the sampling is unbiased.

use crate::engines::join::pairs::{
    count_disjoint, count_sample, Sample, Scratch, BATCH, PLAIN_BELOW,
};
use crate::engines::join::subsets::next_subset;
use crate::engines::join::units::has_unit;
use crate::engines::join::{Join, Quadrant};
use crate::system::time::thread_cpu_seconds;
use crate::util::rng::SplitMix64;

pub(crate) mod space;

pub(crate) use space::Space;

/// Consecutive row sets timed in one draw of the join engine with a quadrant table.
pub(crate) const RUN: u32 = 32;

/// Row sets done untimed before a draw's `RUN`, so that it starts with the caches of a run.
pub(crate) const WARM: u32 = 32;

/// The longest key list whose pairs a draw counts in full: of a longer one, a sample of its
/// batches that holds about this many keys (128 batches of the counter).
pub(crate) const SAMPLE_KEYS: usize = 1 << 16;

/// One draw: what its time is multiplied by to estimate the whole count's, the pieces it timed,
/// their CPU seconds (with those of the work sampled rather than done), and the pairs of keys
/// their counts would test, estimated alike.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Drawn {
    pub(crate) stands_for: f64,
    pub(crate) pieces: u32,
    pub(crate) seconds: f64,
    pub(crate) pairs: f64,
    pub(crate) anded: f64,
}

/// What an estimate of `join`'s count draws among: the row sets that hold a unit of their own,
/// measured from `seed` on the current rayon pool, uniformly with a quadrant table (a draw is a
/// run of them) and in proportion to a guess at their cost without. Nothing, where no row set
/// holds a unit.
pub(crate) fn space_of(join: &Join, seed: u64) -> Space {
    let tilted = join.quadrants() == Quadrant::OnDemand;
    let space = Space::row_sets(join.n(), tilted, space::SHARE_PROBES, seed);
    if space.mass.0 > 0.0 {
        space
    } else {
        Space::uniform(0)
    }
}

/// One draw of the join engine's work from `space` (the module's notes).
pub(crate) fn draw_row_sets(join: &Join, space: &Space, rng: &mut SplitMix64) -> Drawn {
    draw_sampled(join, space, rng, SAMPLE_KEYS)
}

/// [`draw_row_sets`] with the batches of lists longer than `keys` sampled.
fn draw_sampled(join: &Join, space: &Space, rng: &mut SplitMix64, keys: usize) -> Drawn {
    let n = join.n();
    let (run, warm) = match join.quadrants() {
        Quadrant::Table => (RUN, WARM),
        Quadrant::OnDemand => (1, 0),
    };
    let mut sampler = Sampler::new(SplitMix64(rng.next()), keys);
    let (first, weight) = space.draw_row_set(n, rng);
    // Row sets in colexicographic order, wrapping round, passing over those without a unit (a
    // run spends nothing on them).
    let h = n / 2;
    let mut east = u64::from(first);
    let mut next = || loop {
        let this = east as u32;
        east = next_subset(east, h, n).unwrap_or((1 << h) - 1);
        if has_unit(n, this) {
            return this;
        }
    };
    // The warm-up makes its halves in full (the caches are the point) but samples its pairs
    // too, and forgets what they would have cost.
    for _ in 0..warm {
        std::hint::black_box(
            join.count_row_set_with(next(), |a, b, bits, s| sampler.count(a, b, bits, s)),
        );
    }
    sampler.unseen = 0.0;
    sampler.pairs = 0.0;
    sampler.anded = 0.0;
    let before = thread_cpu_seconds();
    for _ in 0..run {
        std::hint::black_box(
            join.count_row_set_with(next(), |a, b, bits, s| sampler.count(a, b, bits, s)),
        );
    }
    Drawn {
        stands_for: space.stands_for(weight, run),
        pieces: run,
        seconds: thread_cpu_seconds() - before + sampler.unseen,
        pairs: sampler.pairs,
        anded: sampler.anded,
    }
}

/// The estimator's pair counter: the pairs of short lists in full and of long ones a sample
/// (the module's notes).
pub(crate) struct Sampler {
    rng: SplitMix64,
    /// Keys of the longer list from which its batches are sampled.
    keys: usize,
    /// CPU seconds the batches outside the samples would have taken.
    pub(crate) unseen: f64,
    /// Pairs of keys the counts would test, as estimated from those done.
    pub(crate) pairs: f64,
    /// Pairs of keys the counts would AND (those the pivots do not skip), likewise.
    pub(crate) anded: f64,
}

impl Sampler {
    pub(crate) fn new(rng: SplitMix64, keys: usize) -> Sampler {
        Sampler {
            rng,
            keys,
            unseen: 0.0,
            pairs: 0.0,
            anded: 0.0,
        }
    }

    /// The pairs of `a` × `b` that share no bit when the longer list is at most `keys` keys;
    /// otherwise those of one of the `stride` samples of its batches that hold about `keys`
    /// keys (every `stride`-th batch as the counter orders them, from one drawn at random).
    /// What the batches outside the sample would have cost goes into `unseen` (ordering the
    /// lists, done once, is timed as it is), the pairs all of them test into `pairs`, and
    /// those they AND into `anded`, scaled as the time is.
    pub(crate) fn count(&mut self, a: &[u64], b: &[u64], bits: u32, scratch: &mut Scratch) -> u64 {
        let (long, short) = (a.len().max(b.len()), a.len().min(b.len()));
        let anded = scratch.anded;
        let batches = long.div_ceil(BATCH);
        let stride = if a.len() * b.len() < PLAIN_BELOW {
            1
        } else {
            batches.div_ceil(self.keys.div_ceil(BATCH)).max(1)
        };
        if stride == 1 {
            self.pairs += (long * short) as f64;
            let found = count_disjoint(a, b, bits, scratch);
            self.anded += (scratch.anded - anded) as f64;
            return found;
        }
        let offset = (self.rng.next() % stride as u64) as usize;
        let mut counting = 0.0;
        let found = count_sample(a, b, bits, scratch, Sample { offset, stride }, &mut || {
            counting = thread_cpu_seconds()
        });
        self.unseen += (thread_cpu_seconds() - counting) * (stride - 1) as f64;
        let sampled: usize = (offset..batches)
            .step_by(stride)
            .map(|i| BATCH.min(long - i * BATCH))
            .sum();
        self.pairs += (stride * sampled * short) as f64;
        self.anded += ((scratch.anded - anded) * stride as u64) as f64;
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lists_are_counted_whole_and_long_ones_by_a_sample_scaled_up() {
        let mut rng = SplitMix64(3);
        let mut keys = |len| -> Vec<u64> {
            (0..len)
                .map(|_| rng.next() & rng.next() & rng.next() & ((1 << 24) - 1))
                .collect()
        };
        let (a, b, long) = (keys(SAMPLE_KEYS), keys(100), keys(5 * SAMPLE_KEYS / 2));
        let mut scratch = Scratch::default();
        let mut sampler = Sampler::new(SplitMix64(5), SAMPLE_KEYS);
        let whole = count_disjoint(&a, &b, 24, &mut scratch);
        assert_eq!(sampler.count(&b, &a, 24, &mut scratch), whole);
        assert_eq!(sampler.unseen, 0.0);
        assert_eq!(sampler.pairs, (a.len() * b.len()) as f64);
        // Every third of the 320 batches: about a third of the pairs, and the time of the
        // others put down as unseen.
        let whole = count_disjoint(&long, &b, 24, &mut scratch) as f64;
        let found = sampler.count(&b, &long, 24, &mut scratch) as f64;
        assert!(
            (found / whole - 1.0 / 3.0).abs() < 0.05,
            "{found} of {whole}"
        );
        assert!(sampler.unseen > 0.0);
        // 107 or 106 batches of 512 keys, each standing for 3.
        let pairs = sampler.pairs - (a.len() * b.len()) as f64;
        let whole = (long.len() * b.len()) as f64;
        assert!((pairs / whole - 1.0).abs() < 0.01, "{pairs} of {whole}");
    }

    /// The draws are unbiased: with a quadrant table (runs of row sets drawn uniformly) and
    /// without (row sets drawn by weight), with the batches of lists longer than a few hundred
    /// keys sampled, the mean over many draws of the
    /// pairs they estimate, each times what it stands for, is the pairs the whole count
    /// tests, counted exactly, within the sampling error. A draw that stood for the wrong share
    /// of the count, or a sample not scaled as it should be, reads wide of it.
    #[test]
    fn draws_estimate_the_pairs_of_the_whole_count_without_bias() {
        for n in [14, 15] {
            for how in [Quadrant::Table, Quadrant::OnDemand] {
                let join = Join::with(n, how, 0).unwrap();
                let mut exact = 0.0;
                crate::engines::join::subsets::for_each_subset(n, n / 2, |east| {
                    join.count_row_set_with(east, |a: &[u64], b: &[u64], _, _: &mut Scratch| {
                        exact += (a.len() * b.len()) as f64;
                        0
                    });
                });
                let space = Space::row_sets(n, how == Quadrant::OnDemand, space::SHARE_PROBES, 1);
                let mut rng = SplitMix64(17);
                let draws = if how == Quadrant::Table { 1000 } else { 20_000 };
                let (mut sum, mut squares) = (0.0, 0.0);
                for _ in 0..draws {
                    let d = draw_sampled(&join, &space, &mut rng, 300);
                    let value = d.stands_for * d.pairs;
                    sum += value;
                    squares += value * value;
                }
                let k = f64::from(draws);
                let mean = sum / k;
                let error = ((squares / k - mean * mean) / k).sqrt();
                assert!(
                    (mean - exact).abs() < 4.0 * error && error < 0.02 * exact,
                    "n = {n}, {how:?}: {mean} ± {error} against {exact}"
                );
            }
        }
    }
}

/// Paired draws: the same row sets, with the same samples, drawn for two decompositions, and
/// the ratio of their estimated times (`NQUEENS_PAIRED`: "n draws seed", e.g. "28 12 5").
/// A measurement, not a check: run with `--ignored --nocapture`.
#[cfg(test)]
mod paired {
    use super::*;
    use crate::Decomposition;
    use rayon::prelude::*;

    #[test]
    #[ignore]
    fn innermost_against_the_quarter_turn_on_the_same_draws() {
        let spec = std::env::var("NQUEENS_PAIRED").unwrap_or_else(|_| "26 8 5".into());
        let v: Vec<u64> = spec.split(' ').map(|x| x.parse().unwrap()).collect();
        let (n, draws, seed) = (v[0] as u32, v[1], v[2]);
        let ways = [Decomposition::QuarterTurn, Decomposition::Innermost];
        let joins: Vec<Join> = ways
            .iter()
            .map(|&d| Join::within(n, None, 2, d).unwrap())
            .collect();
        let on_demand = joins[0].quadrants() == Quadrant::OnDemand;
        let space = Space::row_sets(n, on_demand, space::SHARE_PROBES, seed);
        let rows: Vec<[Drawn; 2]> = (0..draws)
            .into_par_iter()
            .map(|i| {
                let s = seed.wrapping_mul(1000).wrapping_add(i);
                let d = [0, 1].map(|w| draw_row_sets(&joins[w], &space, &mut SplitMix64(s)));
                eprintln!(
                    "draw {i}: {:.2} s against {:.2} s ({:.3}), pairs {:.3e} against {:.3e}",
                    d[1].seconds,
                    d[0].seconds,
                    d[1].seconds / d[0].seconds,
                    d[1].pairs,
                    d[0].pairs
                );
                d
            })
            .collect();
        let sum = |w: usize| -> f64 { rows.iter().map(|d| d[w].stands_for * d[w].seconds).sum() };
        eprintln!(
            "n = {n}, {draws} draws, seed {seed}: innermost / quarter turn = {:.3}",
            sum(1) / sum(0)
        );
    }
}
