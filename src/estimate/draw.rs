//! One draw of the join engine's work, done as a run does it and timed, with the parts a run
//! would spend most of its time on sampled rather than done.
//!
//! A run takes the join engine's row sets in order, and consecutive row sets read neighbouring
//! parts of the quadrant table; row sets drawn one by one miss the cache and look dearer than
//! they are. So with a table one draw is a run of [`RUN`] consecutive row sets with a unit (those
//! without passed over, as a count passes over them) from one drawn at random (wrapping round):
//! every row set with a unit is still in as many runs as any other, so the mean stays unbiased.
//! The [`WARM`] row sets before the run are done first, untimed, so that the run starts with the
//! caches a count has there. Without a table (n ≥ 25, or a budget too small for it) a draw is
//! one row set, drawn in proportion to its weight ([`super::space`]).
//!
//! Above n = 24 one row set takes minutes: its halves number in the millions, the pairs in the
//! 10^15, and its counts (a few dozen, by the quarter turn's classes) each first order both lists
//! by pivots. The halves are made and timed as in a run. Of the counts, those of at least
//! `reach` keys are done, and one of k keys with probability k / `reach` (its time then divided
//! by that probability): ordering the lists takes time in proportion to their keys, so each count
//! done stands for about as much of it as any other, and the few long counts that hold most of
//! the pairs are always done. Of a count done, the pairs are counted in full when the longer list
//! has at most `keys` keys; of a longer one, a sample of its batches of 512 keys: every
//! `stride`-th batch from one drawn at random, in the order the counter puts them, so about
//! `keys` keys, their time times `stride`. Each batch is in exactly one of the samples, so the
//! mean stays unbiased; spreading the sample over the sorted list keeps its variance low (a
//! window of consecutive keys would miss the sort's gain).
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
use crate::rng::SplitMix64;
use crate::time::thread_cpu_seconds;

use super::space::Space;

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
}

/// The keys of a count from which an `n`-board's draws made on demand always do it (the
/// module's notes): a few times fewer than a row set's counts hold at n = 26 to 28, so that a
/// draw orders some of its lists and not all. With a table, every count is done.
fn reach(n: u32) -> f64 {
    f64::from(1u32 << (n - 1).min(31))
}

/// One draw of the join engine's work from `space` (the module's notes).
pub(crate) fn draw_row_sets(join: &Join, space: &Space, rng: &mut SplitMix64) -> Drawn {
    let n = join.n();
    let (run, warm, reach) = match join.quadrants() {
        Quadrant::Table => (RUN, WARM, 0.0),
        Quadrant::OnDemand => (1, 0, reach(n)),
    };
    let mut sampler = Sampler::new(SplitMix64(rng.next()), reach, SAMPLE_KEYS);
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
    }
}

/// The estimator's pair counter: the counts of `reach` keys or more, others with a probability,
/// and of those the pairs of short lists in full and of long ones a sample (the module's notes).
pub(crate) struct Sampler {
    rng: SplitMix64,
    /// Keys from which every count is done (0: every count).
    reach: f64,
    /// Keys of the longer list from which its batches are sampled.
    keys: usize,
    /// CPU seconds the work sampled rather than done would have taken.
    pub(crate) unseen: f64,
    /// Pairs of keys the counts would test, as estimated from those done.
    pub(crate) pairs: f64,
}

impl Sampler {
    pub(crate) fn new(rng: SplitMix64, reach: f64, keys: usize) -> Sampler {
        Sampler {
            rng,
            reach,
            keys,
            unseen: 0.0,
            pairs: 0.0,
        }
    }

    /// The pairs of `a` × `b` that share no bit, when this count is done and its longer list is
    /// at most `keys` keys; of a longer one those of one of the `stride` samples of its
    /// batches that hold about `keys` keys (every `stride`-th batch as the counter orders them,
    /// from one drawn at random); 0 when the count is not done. What the work not done would
    /// have cost goes into `unseen`, the pairs it would have tested into `pairs`.
    pub(crate) fn count(&mut self, a: &[u64], b: &[u64], bits: u32, scratch: &mut Scratch) -> u64 {
        let keys = (a.len() + b.len()) as f64;
        let p = if keys >= self.reach {
            1.0
        } else {
            keys / self.reach
        };
        if p < 1.0 && self.rng.uniform() >= p {
            return 0;
        }
        let (long, short) = (a.len().max(b.len()), a.len().min(b.len()));
        let batches = long.div_ceil(BATCH);
        let stride = if a.len() * b.len() < PLAIN_BELOW {
            1
        } else {
            batches.div_ceil(self.keys.div_ceil(BATCH)).max(1)
        };
        let offset = (self.rng.next() % stride as u64) as usize;
        let start = thread_cpu_seconds();
        let mut counting = start;
        let found = if stride == 1 {
            count_disjoint(a, b, bits, scratch)
        } else {
            let sample = Sample { offset, stride };
            count_sample(a, b, bits, scratch, sample, &mut || {
                counting = thread_cpu_seconds()
            })
        };
        let end = thread_cpu_seconds();
        // Ordering the lists (before `counting`) stands for 1 / p counts, each batch for
        // `stride` / p batches.
        let scale = 1.0 / p;
        self.unseen +=
            (counting - start) * (scale - 1.0) + (end - counting) * (stride as f64 * scale - 1.0);
        let sampled: usize = (offset..batches)
            .step_by(stride)
            .map(|i| BATCH.min(long - i * BATCH))
            .sum();
        self.pairs += scale * (stride * sampled * short) as f64;
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
        let mut sampler = Sampler::new(SplitMix64(5), 0.0, SAMPLE_KEYS);
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

    /// A count of fewer keys than the reach is done with probability keys / reach, and then
    /// stands for 1 / that many.
    #[test]
    fn counts_below_the_reach_are_done_now_and_then_and_scaled_up() {
        let a: Vec<u64> = (0..100).map(|i| i << 1).collect();
        let b: Vec<u64> = (0..300).map(|i| i << 9).collect();
        let mut scratch = Scratch::default();
        let mut sampler = Sampler::new(SplitMix64(7), 1600.0, SAMPLE_KEYS);
        let tries = 4000;
        let done = (0..tries)
            .filter(|_| {
                let before = sampler.pairs;
                sampler.count(&a, &b, 24, &mut scratch);
                sampler.pairs > before
            })
            .count();
        assert!(
            (done as f64 / f64::from(tries) - 0.25).abs() < 0.03,
            "{done}"
        );
        let per_try = sampler.pairs / f64::from(tries);
        assert!((per_try / 30_000.0 - 1.0).abs() < 0.1, "{per_try}");
    }
}
