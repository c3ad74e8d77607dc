//! How long a count will take, before it runs: a timed random sample of its work, scaled up.
//!
//! A count is a sum of independent pieces of work: the join engine's east row sets (all
//! C(n, ⌊n/2⌋) of them, those with no unit of their own costing nothing), or a backtracking
//! plan's subproblems. Drawing pieces uniformly at random, timing each on one thread (its CPU
//! time, so other processes on the machine do not count), and multiplying the mean by the
//! number of pieces gives an unbiased estimate of the count's CPU time (Knuth's idea for
//! search trees, 1975, here with real work at the leaves), and the spread of the sample a 95%
//! confidence interval (by Student's t, as the sample may be small). The plan (and the join
//! engine's table) is built first, and timed too: it is part of a run.
//!
//! ```
//! let options = nqueens::Options::default().with_threads(2);
//! // A tenth of a second of sampling (at least three draws), from the random stream 7.
//! let e = nqueens::estimate::estimate(16, &options, 0.1, 7).unwrap();
//! let (cpu, margin) = e.total();
//! assert!(cpu > 0.0 && margin.is_finite());
//! assert_eq!(e.engine, nqueens::Engine::Join);
//! ```
//!
//! Most of the join engine's row sets hold no unit of their own and cost nothing: a sample of
//! them is mostly zeros, and its spread mostly how many zeros it drew. So the join's draws are
//! of the row sets that hold a unit only, and their mean is scaled by the share of such row
//! sets as well, counted on every row set up to n = 20 and above on `SHARE_PROBES` of them
//! drawn uniformly (its binomial error goes into the interval).
//!
//! A run takes the join engine's row sets in order, and consecutive row sets read neighbouring
//! parts of the quadrant table; row sets drawn one by one miss the cache and look dearer than
//! they are. So with a table one draw is a run of `RUN` consecutive row sets with a unit (those
//! without passed over, as a count passes over them) from a random one (wrapping round): every
//! row set with a unit is still in as many runs as any other, so the mean stays unbiased. The
//! `WARM` row sets before the run are done first, untimed, so that the run starts with the
//! caches a count has there. Without a table (n ≥ 25, or a budget too small for it) a draw is
//! one row set.
//!
//! Above n = 24 one row set takes minutes: its halves number in the millions and the pairs in
//! the 10^13. The halves are made and timed as in a run; of the pairs, a draw counts one of
//! `stride` samples of the longer list's batches of 512 keys (every stride-th batch from one
//! drawn at random, in the order the counter puts them, so about `SAMPLE_KEYS` keys), timing
//! the counter's set-up (its sort, done once per list) as it is and the batches times `stride`.
//! Each batch is in exactly one of the samples, so the mean is unbiased; spreading the sample
//! over the sorted list keeps its variance low (a window of consecutive keys would miss the
//! sort's gain). The warm-up row sets sample their pairs too.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::engines::join::pairs::{count_disjoint, count_sample, Sample, Scratch, BATCH};
use crate::engines::join::subsets::{for_each_subset, next_subset};
use crate::engines::join::units::{binomial, has_unit};
use crate::engines::join::{Join, Quadrant};
use crate::rng::SplitMix64;
use crate::time::thread_cpu_seconds;
use crate::{Error, Options};

/// The least sample drawn, however long it takes: where a draw takes minutes (n ≥ 29 on two
/// cores), three of them; the interval then comes from Student's t with two degrees of freedom
/// (4.30 standard errors), not the normal law's 1.96.
pub const MIN_SAMPLES: usize = 3;

/// Consecutive row sets timed in one draw of the join engine with a quadrant table.
pub(crate) const RUN: u32 = 32;

/// Row sets done untimed before a draw's `RUN`, so that it starts with the caches of a run.
pub(crate) const WARM: u32 = 32;

/// The longest key list whose pairs a draw counts in full: of a longer one, a sample of its
/// batches that holds about this many keys (128 batches of the counter).
pub(crate) const SAMPLE_KEYS: usize = 1 << 16;

/// Row sets drawn uniformly to measure the share that holds a unit of its own, where the draws
/// are of those only (a fraction of a second at n = 27, drawing included); a board with at most
/// this many row sets (n ≤ 20) has every one looked at.
pub(crate) const SHARE_PROBES: u32 = 1 << 18;

/// A count's predicted time.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Estimate {
    /// Board size.
    pub n: u32,
    /// The engine the count would use.
    pub engine: crate::Engine,
    /// Pieces of work in the count.
    pub population: u64,
    /// Draws timed: the sample the interval comes from.
    pub samples: usize,
    /// Pieces of work in those draws (a draw of the join engine with a table is `RUN` row
    /// sets).
    pub timed: u64,
    /// Predicted CPU seconds of the whole count, summed over its threads, beside `setup`.
    pub cpu: f64,
    /// Half the width of the 95% confidence interval of `cpu`, in seconds.
    pub margin: f64,
    /// Seconds it took here to build the plan (and tables), once per run or shard.
    pub setup: f64,
    /// Seconds the sampling took.
    pub elapsed: f64,
    /// The seed of the random sample: the same seed draws the same pieces.
    pub seed: u64,
    /// Where the draws are of row sets with a unit of their own only (the join engine): the
    /// share of the row sets that have one, counted on every row set or measured on
    /// `SHARE_PROBES` of them drawn uniformly.
    pub share: Option<f64>,
    /// The interval's half-width, as a share of the value, that was to end the sampling
    /// ([`Sampling::until`]); [`Estimate::precise`] says whether it did.
    pub until: Option<f64>,
}

impl Estimate {
    /// Whether the interval came within [`Estimate::until`] of the value from at least
    /// [`MIN_PRECISE_SAMPLES`] draws (`None` when no width was asked for): `Some(false)` when
    /// time ran out first.
    pub fn precise(&self) -> Option<bool> {
        self.until
            .map(|u| self.samples >= MIN_PRECISE_SAMPLES && self.margin <= u * self.cpu)
    }

    /// Predicted CPU seconds of the whole count, the plan included, with its margin.
    pub fn total(&self) -> (f64, f64) {
        self.shard_wall(1, 1)
    }

    /// Predicted wall-clock seconds on `threads` threads that scale perfectly (the setup, then
    /// the CPU time shared out), with its margin.
    pub fn wall(&self, threads: usize) -> (f64, f64) {
        self.shard_wall(1, threads)
    }

    /// Predicted CPU seconds of one of `shards` shards of even cost (the shard partition balances
    /// them), with its margin: each also builds the plan.
    pub fn per_shard(&self, shards: u32) -> (f64, f64) {
        self.shard_wall(shards, 1)
    }

    /// Predicted wall-clock seconds of one of `shards` shards on `threads` threads that scale
    /// perfectly, with its margin: [`Estimate::wall`] of a `shards`-th of the work.
    pub fn shard_wall(&self, shards: u32, threads: usize) -> (f64, f64) {
        let k = f64::from(shards.max(1)) * threads.max(1) as f64;
        (self.setup + self.cpu / k, self.margin / k)
    }
}

/// Estimates the count of `n` with `options` from samples drawn on `options.threads` threads for
/// about `seconds` (at least [`MIN_SAMPLES`] pieces; pieces under way when time is up are
/// finished and counted), from the random stream `seed`.
pub fn estimate(n: u32, options: &Options, seconds: f64, seed: u64) -> Result<Estimate, Error> {
    estimate_watched(n, options, Sampling::for_seconds(seconds), seed, &|_| ())
}

/// How long an estimate samples: until its 95% interval is within `until` of its value (a
/// share: 0.1 for ±10%), or for `seconds`, whichever comes first; at least [`MIN_SAMPLES`] draws
/// either way, and at least [`MIN_PRECISE_SAMPLES`] before the interval may end it.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Sampling {
    /// The most seconds of sampling.
    pub seconds: f64,
    /// The half-width of the interval, as a share of the value, that ends the sampling.
    pub until: Option<f64>,
}

impl Sampling {
    /// Sampling for `seconds`.
    pub fn for_seconds(seconds: f64) -> Sampling {
        Sampling {
            seconds,
            until: None,
        }
    }

    /// This sampling, ended as soon as the interval is within `until` of the value.
    pub fn until(self, until: Option<f64>) -> Sampling {
        Sampling { until, ..self }
    }
}

/// The fewest draws whose interval may end a sampling by its width: a few draws can agree by
/// chance, and stopping the first time a small sample looks precise would make the interval too
/// narrow more often than 5% of the time.
pub const MIN_PRECISE_SAMPLES: usize = 10;

/// [`estimate`], calling `watch` with the estimate so far when the sampling begins (no draw yet:
/// the plan is built) and after every draw (from the thread that drew it): a draw of n ≥ 29
/// takes minutes, and the user sees the interval narrow. Its margin is infinite until two draws
/// are in.
pub fn estimate_watched(
    n: u32,
    options: &Options,
    sampling: Sampling,
    seed: u64,
    watch: &(dyn Fn(&Estimate) + Sync),
) -> Result<Estimate, Error> {
    let start = Instant::now();
    let plan = crate::plan(n, options)?;
    let setup = start.elapsed().as_secs_f64();
    sample(&plan, setup, options, sampling, seed, watch)
}

/// [`estimate`] of the count of `plan`, which is built already: its `setup` is 0. A count
/// about to run prices itself this way, with no second plan.
pub fn estimate_plan(
    plan: &crate::Plan,
    options: &Options,
    seconds: f64,
    seed: u64,
) -> Result<Estimate, Error> {
    sample(
        plan,
        0.0,
        options,
        Sampling::for_seconds(seconds),
        seed,
        &|_| (),
    )
}

/// Draws from `plan` (built in `setup` seconds) as [`estimate_watched`] says.
fn sample(
    plan: &crate::Plan,
    setup: f64,
    options: &Options,
    sampling: Sampling,
    seed: u64,
    watch: &(dyn Fn(&Estimate) + Sync),
) -> Result<Estimate, Error> {
    let n = plan.n();
    let pool = crate::exec::pool(options.threads)?;
    let Sampling { seconds, until } = sampling;
    let sampling = Instant::now();
    // Most of the join's row sets hold no unit of their own and cost nothing (72% at n = 19 and
    // 21): its draws go to the others only, and the count is their share of the row sets times
    // the mean of those draws.
    let (population, share) = pool.install(|| plan.draw_space(seed));
    let so_far = |draws: &Draws| {
        let k = draws.count as f64;
        let variance = draws.squares / (k - 1.0).max(1.0);
        // The share's own error (binomial), independent of the draws', adds to the variance.
        let share_variance = share.map_or(0.0, |(p, of_p)| draws.mean.powi(2) * of_p / (p * p));
        Estimate {
            n,
            engine: plan.engine(),
            population,
            samples: draws.count,
            timed: draws.timed,
            cpu: draws.mean,
            margin: match (population, draws.count) {
                (0, _) => 0.0,
                (_, 0 | 1) => f64::INFINITY,
                (_, k) => t95(k - 1) * (variance / k as f64 + share_variance).sqrt(),
            },
            setup,
            elapsed: sampling.elapsed().as_secs_f64(),
            seed,
            share: share.map(|(p, _)| p),
            until,
        }
    };
    let reached = std::sync::atomic::AtomicBool::new(false);
    if population == 0 {
        // Nothing to search (n = 2 and 3 have no placement): nothing to draw, and no time.
        return Ok(so_far(&Draws::default()));
    }
    watch(&so_far(&Draws::default()));
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let started = std::sync::atomic::AtomicUsize::new(0);
    let draws = std::sync::Mutex::new(Draws::default());
    let with_unit = share.map(|(p, _)| p);
    pool.install(|| {
        (0..options.threads.max(1))
            .into_par_iter()
            .for_each(|worker| {
                let mut rng =
                    SplitMix64(seed ^ (worker as u64).wrapping_mul(0xA24B_AED4_963E_E407));
                // Draws until time is up, and at least MIN_SAMPLES in all: none more after
                // the budget once that many were started (a draw of n = 30 takes minutes).
                // With `until`, none more once the interval is that narrow.
                while started.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < MIN_SAMPLES
                    || sampling.elapsed() < budget
                        && !reached.load(std::sync::atomic::Ordering::Relaxed)
                {
                    let (stands_for, pieces, seconds) = plan.draw(population, with_unit, &mut rng);
                    let now = {
                        let mut draws = draws.lock().unwrap_or_else(|e| e.into_inner());
                        draws.add(seconds * stands_for, pieces);
                        so_far(&draws)
                    };
                    if now.precise() == Some(true) {
                        reached.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                    watch(&now);
                }
            })
    });
    Ok(so_far(
        &draws.into_inner().unwrap_or_else(|e| e.into_inner()),
    ))
}

/// The draws so far, summed as they come in (Welford's running mean and sum of squared
/// deviations, which stay accurate where a plain sum of squares would cancel).
#[derive(Debug, Default)]
struct Draws {
    count: usize,
    mean: f64,
    squares: f64,
    /// Pieces of work timed.
    timed: u64,
}

impl Draws {
    /// One more draw: its time scaled to the whole count, and the pieces it timed.
    fn add(&mut self, time: f64, pieces: u32) {
        self.count += 1;
        self.timed += u64::from(pieces);
        let before = time - self.mean;
        self.mean += before / self.count as f64;
        self.squares += before * (time - self.mean);
    }
}

/// The 97.5% quantile of Student's t with `dof` degrees of freedom: the half-width of a 95%
/// interval in standard errors of a mean of `dof + 1` draws. A table to 30, then 1.96 + 2.5 /
/// dof (within 0.002 of the true values from 30 up).
fn t95(dof: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match dof {
        0 => f64::INFINITY,
        1..=30 => TABLE[dof - 1],
        _ => 1.96 + 2.5 / dof as f64,
    }
}

/// The share of an `n`-board's row sets that hold a unit of their own, with its variance:
/// counted exactly (variance 0) where the board has at most `probes` row sets, otherwise among
/// `probes` drawn uniformly (from the stream `seed`, on the current rayon pool).
pub(crate) fn unit_share(n: u32, probes: u32, seed: u64) -> (f64, f64) {
    let h = n / 2;
    let population = binomial(n, h);
    if population <= u64::from(probes) {
        let mut found = 0u64;
        for_each_subset(n, h, |east| found += u64::from(has_unit(n, east)));
        return (found as f64 / population as f64, 0.0);
    }
    const PER_TASK: u32 = 1 << 12;
    let found: u32 = (0..probes.div_ceil(PER_TASK))
        .into_par_iter()
        .map(|task| {
            let mut rng = SplitMix64(seed ^ u64::from(task).wrapping_mul(0xD1B5_4A32_D192_ED03));
            let draws = PER_TASK.min(probes - task * PER_TASK);
            (0..draws).filter(|_| has_unit(n, rng.subset(n, h))).count() as u32
        })
        .sum();
    let p = f64::from(found) / f64::from(probes.max(1));
    (p, p * (1.0 - p) / f64::from(probes.max(1)))
}

/// One draw of the join engine's work as a run does it (see the module's notes), with what its
/// time is to be multiplied by to estimate the whole count's (the number of draws like it the
/// count is made of), how many row sets it timed, and their CPU seconds (with those of the pairs
/// it did not count, of lists longer than `SAMPLE_KEYS`):
/// - with a table: a row set drawn uniformly and the `WARM` after it, untimed, then the
///   `RUN` after those, timed;
/// - with quadrants made on demand (n ≥ 25, or a small budget): a row set drawn uniformly (no
///   table, so nothing to gain from the neighbours);
///
/// with the `share` of the join's row sets that hold a unit of their own, of those only.
pub(crate) fn draw_row_sets(
    join: &Join,
    population: u64,
    share: Option<f64>,
    rng: &mut SplitMix64,
) -> (f64, u32, f64) {
    let n = join.n();
    let (h, with_unit) = (n / 2, share.is_some());
    let (run, warm) = match join.quadrants() {
        Quadrant::Table => (RUN, WARM),
        Quadrant::OnDemand => (1, 0),
    };
    let mut sampler = Sampler {
        rng: SplitMix64(rng.next()),
        unseen: 0.0,
    };
    // Row sets in colexicographic order, wrapping round; the draw's first is uniform, so the
    // timed ones start anywhere too.
    let mut east = u64::from(rng.subset(n, h));
    while with_unit && !has_unit(n, east as u32) {
        east = u64::from(rng.subset(n, h));
    }
    // With `with_unit`, the row sets without one are passed over (a run spends nothing on
    // them): each row set with a unit then starts one draw in as many as any other, and is in
    // as many runs.
    let mut next = || loop {
        let this = east as u32;
        east = next_subset(east, h, n).unwrap_or((1 << h) - 1);
        if !with_unit || has_unit(n, this) {
            return this;
        }
    };
    // The warm-up makes its halves in full (the caches are the point) but samples its pairs too,
    // and forgets what they would have cost.
    for _ in 0..warm {
        std::hint::black_box(
            join.count_row_set_with(next(), |a, b, bits, s| sampler.count(a, b, bits, s)),
        );
    }
    sampler.unseen = 0.0;
    let before = thread_cpu_seconds();
    for _ in 0..run {
        std::hint::black_box(
            join.count_row_set_with(next(), |a, b, bits, s| sampler.count(a, b, bits, s)),
        );
    }
    let seconds = thread_cpu_seconds() - before;
    (
        population as f64 * share.unwrap_or(1.0) / f64::from(run),
        run,
        seconds + sampler.unseen,
    )
}

/// The estimator's pair counter: short lists in full, long ones by a sample of `SAMPLE_KEYS` keys.
struct Sampler {
    rng: SplitMix64,
    /// CPU seconds the batches outside the samples would have taken.
    unseen: f64,
}

impl Sampler {
    /// The pairs of `a` × `b` that share no bit when the longer list is at most `SAMPLE_KEYS`
    /// keys; otherwise those of one of the `stride` samples of its batches that hold about
    /// `SAMPLE_KEYS` keys (every `stride`-th batch as the counter orders them, from one drawn at
    /// random), the time of the batches scaled by `stride` into `unseen` (that of ordering the
    /// lists, done once, is not).
    fn count(&mut self, a: &[u64], b: &[u64], bits: u32, scratch: &mut Scratch) -> u64 {
        let batches = a.len().max(b.len()).div_ceil(BATCH);
        let stride = batches.div_ceil(SAMPLE_KEYS / BATCH);
        if stride == 1 {
            return count_disjoint(a, b, bits, scratch);
        }
        let sample = Sample {
            offset: (self.rng.next() % stride as u64) as usize,
            stride,
        };
        let mut counting = 0.0;
        let found = count_sample(a, b, bits, scratch, sample, &mut || {
            counting = thread_cpu_seconds()
        });
        self.unseen += (thread_cpu_seconds() - counting) * (stride - 1) as f64;
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `until` ends the sampling once the interval is that narrow, long before the time; an
    /// interval too narrow to reach in the time says so.
    #[test]
    fn sampling_until_a_width_stops_there_or_says_it_did_not() {
        let options = Options::default().with_threads(2);
        let wide = Sampling::for_seconds(60.0).until(Some(0.25));
        let e = estimate_watched(13, &options, wide, 7, &|_| ()).unwrap();
        assert_eq!(e.precise(), Some(true));
        assert!(
            e.elapsed < 30.0 && e.samples >= MIN_PRECISE_SAMPLES,
            "{e:?}"
        );
        assert!(e.margin <= 0.25 * e.cpu);
        let narrow = Sampling::for_seconds(0.2).until(Some(0.0001));
        let e = estimate_watched(13, &options, narrow, 7, &|_| ()).unwrap();
        assert_eq!(e.precise(), Some(false));
        assert_eq!(estimate(13, &options, 0.05, 7).unwrap().precise(), None);
    }

    #[test]
    fn few_draws_widen_the_interval_by_students_t() {
        assert_eq!(t95(2), 4.303);
        assert!((t95(30) - 2.042).abs() < 0.002 && (t95(31) - 2.040).abs() < 0.002);
        assert!((t95(60) - 2.000).abs() < 0.002 && (t95(120) - 1.980).abs() < 0.002);
        assert!((t95(1_000_000) - 1.96).abs() < 0.001);
        assert!(
            (1..200).all(|d| t95(d + 1) < t95(d)),
            "falls as the draws grow"
        );
    }

    #[test]
    fn draws_keep_the_mean_and_variance_of_the_times() {
        let times = [3.0, 5.0, 4.0, 11.0, 7.0];
        let mut draws = Draws::default();
        for (i, &t) in times.iter().enumerate() {
            draws.add(t, i as u32);
        }
        let mean = times.iter().sum::<f64>() / 5.0;
        let squares: f64 = times.iter().map(|t| (t - mean).powi(2)).sum();
        assert_eq!((draws.count, draws.timed), (5, 10));
        assert!((draws.mean - mean).abs() < 1e-12 && (draws.squares - squares).abs() < 1e-12);
    }

    #[test]
    fn the_watcher_sees_the_start_every_draw_and_the_margin_once_two_are_in() {
        let seen = std::sync::Mutex::new(Vec::new());
        let options = Options::default()
            .with_threads(2)
            .with_engine(Some(crate::Engine::Symmetry));
        let last = estimate_watched(11, &options, Sampling::for_seconds(0.0), 4, &|e| {
            seen.lock().unwrap().push((e.samples, e.margin))
        })
        .unwrap();
        let mut seen = seen.into_inner().unwrap();
        seen.sort_by_key(|s| s.0);
        assert_eq!(seen.len(), last.samples + 1);
        assert!(seen.iter().enumerate().all(|(i, s)| s.0 == i));
        assert!(seen[..2].iter().all(|s| s.1.is_infinite()));
        assert!(seen[2..].iter().all(|s| s.1.is_finite()));
        assert_eq!(seen.last().unwrap().1, last.margin);
    }

    #[test]
    fn random_subsets_have_k_members_and_reach_every_one() {
        let mut rng = SplitMix64(7);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..2000 {
            let s = rng.subset(6, 3);
            assert_eq!(s.count_ones(), 3);
            assert!(s < 1 << 6);
            seen.insert(s);
        }
        assert_eq!(seen.len(), 20);
    }

    #[test]
    fn an_estimate_samples_and_scales() {
        let options = Options::default().with_threads(2);
        let join = options.with_engine(Some(crate::Engine::Join));
        let e = estimate(14, &join, 0.05, 1).unwrap();
        assert!(e.samples >= MIN_SAMPLES);
        assert_eq!(e.population, binomial(14, 7));
        assert!(e.cpu > 0.0 && e.margin >= 0.0 && e.setup >= 0.0);
        let share = e
            .share
            .expect("the join's draws are of row sets with a unit");
        assert!(share > 0.2 && share < 0.35, "{share}");
        let (wall, margin) = e.wall(2);
        assert!((wall - (e.setup + e.cpu / 2.0)).abs() < 1e-12 && margin == e.margin / 2.0);
        let (shard, margin) = e.shard_wall(4, 2);
        assert!((shard - (e.setup + e.cpu / 8.0)).abs() < 1e-12 && margin == e.margin / 8.0);
        assert_eq!(e.per_shard(4), e.shard_wall(4, 1));
        assert_eq!(e.total(), (e.setup + e.cpu, e.margin));
        let symmetry = estimate(
            12,
            &options.with_engine(Some(crate::Engine::Symmetry)),
            0.0,
            1,
        );
        assert_eq!(symmetry.unwrap().samples, MIN_SAMPLES);
        // A board with nothing to search is estimated at once, at no time.
        let start = Instant::now();
        let nothing = estimate(3, &options, 10.0, 1).unwrap();
        assert_eq!((nothing.population, nothing.samples), (0, 0));
        assert_eq!((nothing.cpu, nothing.margin), (0.0, 0.0));
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    /// With its quadrants made on demand (a budget too small for n = 16's table), the join
    /// engine draws only row sets that hold a unit, and measures their share: here against every
    /// row set of the board.
    #[test]
    fn draws_made_on_demand_are_of_row_sets_with_a_unit_and_know_their_share() {
        let n = 16;
        let mut with_unit = 0;
        for_each_subset(n, n / 2, |east| with_unit += u32::from(has_unit(n, east)));
        let exact = f64::from(with_unit) / binomial(n, n / 2) as f64;
        assert!(exact > 0.2 && exact < 0.3, "{exact}");
        let options = Options::default()
            .with_threads(1)
            .with_memory(Some(1300 << 10))
            .with_engine(Some(crate::Engine::Join));
        let e = estimate(n, &options, 0.05, 3).unwrap();
        // n = 16's 12,870 row sets are all looked at; a board with more is probed.
        assert_eq!(e.share, Some(exact), "quadrants made on demand");
        let (share, variance) = unit_share(n, 1000, 5);
        assert!(
            (share - exact).abs() < 0.05 && variance > 0.0,
            "{share} against {exact}"
        );
        assert!(e.samples >= MIN_SAMPLES && e.cpu > 0.0 && e.margin > 0.0);
        // Every draw on demand: one row set, standing for its share of the population.
        let plan = crate::plan(n, &options).unwrap();
        let mut rng = SplitMix64(11);
        for _ in 0..20 {
            let (stands_for, pieces, _) = plan.draw(100, Some(0.25), &mut rng);
            assert_eq!((stands_for, pieces), (25.0, 1));
        }
        // The same mean time per row set whether drawn among all or among those with a unit
        // (scaled by their share), within what timing noise allows: drawing among all and
        // scaling by the share would read a quarter of it.
        let mean = |share: Option<f64>, rng: &mut SplitMix64| {
            let draws = 3000;
            let sum: f64 = (0..draws)
                .map(|_| {
                    let (stands_for, _, seconds) = plan.draw(1, share, rng);
                    stands_for * seconds
                })
                .sum();
            sum / f64::from(draws)
        };
        let (all, some) = (mean(None, &mut rng), mean(Some(exact), &mut rng));
        assert!(some / all > 0.6 && some / all < 1.6, "{some} against {all}");
    }

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
        let mut sampler = Sampler {
            rng: SplitMix64(5),
            unseen: 0.0,
        };
        let whole = count_disjoint(&a, &b, 24, &mut scratch);
        assert_eq!(sampler.count(&b, &a, 24, &mut scratch), whole);
        assert_eq!(sampler.unseen, 0.0);
        // Every third of the 320 batches: about a third of the pairs, and the time of the
        // others put down as unseen.
        let whole = count_disjoint(&long, &b, 24, &mut scratch) as f64;
        let found = sampler.count(&b, &long, 24, &mut scratch) as f64;
        assert!(
            (found / whole - 1.0 / 3.0).abs() < 0.05,
            "{found} of {whole}"
        );
        assert!(sampler.unseen > 0.0);
    }
}
