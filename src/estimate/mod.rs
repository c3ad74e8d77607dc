//! How long a count will take, before it runs: a timed random sample of its work, scaled up.
//!
//! A count is a sum of independent pieces of work: the join engine's east row sets (all
//! C(n, ⌊n/2⌋) of them, those with no unit of their own costing nothing), or a backtracking
//! plan's subproblems. Drawing pieces uniformly at random, timing each on one thread (its CPU
//! time, so other processes on the machine do not count), and multiplying the mean by the
//! number of pieces gives an unbiased estimate of the count's CPU time (Knuth's idea for
//! search trees, 1975, here with real work at the leaves), and the spread of the sample a 95%
//! confidence interval (by Student's t, as the sample may be small, corrected for the draws'
//! skew by Hall's transformation, and widened where the machine's speed drifted during the
//! sampling: [`Estimate::margin`], `interval.rs`). The interval covers this run's sample on
//! this machine as it ran; another machine's speed, or this one's an hour later, it cannot
//! see. The join engine's work (its pairs of half-boards) gets an interval of its own, which
//! no clock enters. The plan (and the join engine's table) is built first, and timed too: it
//! is part of a run.
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
//! Pieces are not all drawn alike. Most of the join engine's row sets hold no unit of their own
//! and cost nothing, so only those that hold one are drawn; and above n = 24, where they differ
//! in cost by two orders of magnitude, each is drawn in proportion to a guess at its cost and its
//! time divided by that guess (importance sampling, `space.rs`), which keeps the mean unbiased and
//! narrows the interval. A draw of the join engine is done as a run does it, with its longest
//! parts sampled rather than done (`draw.rs`).

mod interval;

use crate::plan::sample::{Drawn, Space};
use interval::Draws;

use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::util::rng::SplitMix64;
use crate::{Error, Options};

/// The least sample drawn, however long it takes: where a draw takes minutes (n ≥ 29 on two
/// cores), three of them; the interval then comes from Student's t with two degrees of freedom
/// (4.30 standard errors), not the normal law's 1.96.
pub const MIN_SAMPLES: usize = 3;

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
    /// Half the width of the 95% confidence interval of `cpu`, in seconds: Student's t on the
    /// draws, widened where they are skewed (a sample without the rare costly pieces is low and
    /// narrow at once) to the wider side of Hall's skew-corrected interval, and where the
    /// machine's rate (CPU seconds per pair ANDed, or per piece) drifted from draw to draw in
    /// the order they finished (`interval.rs`).
    pub margin: f64,
    /// Seconds it took here to build the plan (and tables), once per run or shard.
    pub setup: f64,
    /// Seconds the sampling took.
    pub elapsed: f64,
    /// The seed of the random sample: the same seed draws the same pieces.
    pub seed: u64,
    /// Where the draws are of row sets with a unit of their own only (the join engine): the
    /// share of the row sets that have one, counted on every row set or measured on a sample
    /// of them drawn uniformly.
    pub share: Option<f64>,
    /// The interval's half-width, as a share of the value, that was to end the sampling
    /// ([`Sampling::until`]); [`Estimate::precise`] says whether it did.
    pub until: Option<f64>,
    /// Whether each piece was drawn in proportion to a guess at its cost, its time divided by
    /// that guess (the join engine's row sets made on demand, n ≥ 25): importance sampling,
    /// which narrows the interval where pieces differ in cost by orders of magnitude.
    pub weighed: bool,
    /// The join engine's count: the pairs of half-boards it would test (those its pivots skip
    /// included), estimated from the same draws as the time; `None` for the other engines.
    pub pairs: Option<f64>,
    /// Half the width of the 95% interval of `pairs`: work, which no clock measures, so it
    /// holds on any machine.
    pub pairs_margin: Option<f64>,
    /// Of those pairs, the ones its counter would AND: those its pivots do not skip, a batch
    /// of keys at a time. What the count's time follows.
    pub anded: Option<f64>,
    /// Half the width of the 95% interval of `anded`.
    pub anded_margin: Option<f64>,
    /// Whether the interval came within [`Estimate::until`] of the value, from at least
    /// [`MIN_PRECISE_SAMPLES`] draws, at some draw of the sampling: then it stopped for that.
    /// Draws already under way then are still added, and may widen the interval a little; the
    /// reason the sampling stopped stays the one of the moment it stopped.
    pub reached: bool,
    /// Whether the sampling stopped early because the count itself, on the estimate's threads,
    /// takes less than the estimate had already spent (by the upper end of the interval, from
    /// at least [`MIN_PRECISE_SAMPLES`] draws): counting is then the better answer.
    pub sooner: bool,
}

impl Estimate {
    /// Whether the interval came within [`Estimate::until`] of the value from at least
    /// [`MIN_PRECISE_SAMPLES`] draws (`None` when no width was asked for): `Some(false)` when
    /// time ran out first.
    pub fn precise(&self) -> Option<bool> {
        self.until.map(|_| self.reached)
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

    /// The fewest shards of which each takes at most `limit` seconds of CPU time on one thread,
    /// its plan included, by the upper end of the interval: what a campaign splits the count
    /// into for a scheduler's time limit. `None` when building the plan alone takes that long.
    pub fn shards_within(&self, limit: f64) -> Option<u64> {
        let room = limit - self.setup;
        (room > 0.0).then(|| ((self.cpu + self.margin) / room).ceil().max(1.0) as u64)
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
    /// Whether the sampling ends once counting would take less than it has spent
    /// ([`Estimate::sooner`]).
    pub sooner: bool,
}

impl Sampling {
    /// Sampling for `seconds`.
    pub fn for_seconds(seconds: f64) -> Sampling {
        Sampling {
            seconds,
            until: None,
            sooner: false,
        }
    }

    /// This sampling, ended as soon as counting would take less time than it has spent (by the
    /// upper end of the interval, from at least [`MIN_PRECISE_SAMPLES`] draws, after at least
    /// [`SOONER_AFTER`]).
    pub fn unless_counting_is_sooner(self) -> Sampling {
        Sampling {
            sooner: true,
            ..self
        }
    }

    /// This sampling, ended as soon as the interval is within `until` of the value.
    pub fn until(self, until: Option<f64>) -> Sampling {
        Sampling { until, ..self }
    }
}

/// The least time an estimate spends before it stops because counting takes less
/// ([`Sampling::unless_counting_is_sooner`]): below a second the difference is not worth a word.
pub const SOONER_AFTER: f64 = 1.0;

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
    // One pool for the plan, the space and the draws.
    crate::system::on_pool(options.threads, || {
        let start = Instant::now();
        let plan = crate::plan(n, options)?;
        let setup = start.elapsed().as_secs_f64();
        let space = plan.draw_space(seed);
        let draw = |rng: &mut SplitMix64| plan.draw(&space, rng);
        sample(&plan, &space, setup, options, sampling, seed, watch, &draw)
    })?
}

/// [`estimate`] of the count of `plan`, which is built already: its `setup` is 0. A count
/// about to run prices itself this way, with no second plan.
pub fn estimate_plan(
    plan: &crate::Plan,
    options: &Options,
    seconds: f64,
    seed: u64,
) -> Result<Estimate, Error> {
    crate::system::on_pool(options.threads, || {
        let space = plan.draw_space(seed);
        let draw = |rng: &mut SplitMix64| plan.draw(&space, rng);
        let sampling = Sampling::for_seconds(seconds);
        sample(plan, &space, 0.0, options, sampling, seed, &|_| (), &draw)
    })?
}

/// Draws from `space` of `plan` (built in `setup` seconds) with `draw`, as [`estimate_watched`]
/// says.
#[allow(clippy::too_many_arguments)]
fn sample(
    plan: &crate::Plan,
    space: &Space,
    setup: f64,
    options: &Options,
    sampling: Sampling,
    seed: u64,
    watch: &(dyn Fn(&Estimate) + Sync),
    draw: &(dyn Fn(&mut SplitMix64) -> Drawn + Sync),
) -> Result<Estimate, Error> {
    let n = plan.n();
    let Sampling {
        seconds,
        until,
        sooner: stop_sooner,
    } = sampling;
    let sampling = Instant::now();
    let population = space.population;
    let by_pairs = plan.counts_pairs();
    // The error of Σw (measured on probes), independent of the draws', as a relative variance.
    let (mass, of_mass) = space.mass;
    let mass_error = if mass > 0.0 {
        of_mass / (mass * mass)
    } else {
        0.0
    };
    let margin = |draws: &Draws| match population {
        0 => 0.0,
        _ => draws.margin(mass_error),
    };
    let so_far = |draws: &Draws| Estimate {
        n,
        engine: plan.engine(),
        population,
        samples: draws.count(),
        timed: draws.timed,
        cpu: draws.time.mean,
        margin: margin(draws),
        setup,
        elapsed: sampling.elapsed().as_secs_f64(),
        seed,
        share: space.share,
        until,
        weighed: space.weighed(),
        pairs: plan.counts_pairs().then_some(draws.pairs.mean),
        pairs_margin: plan.counts_pairs().then(|| draws.pairs.margin(mass_error)),
        anded: plan.counts_pairs().then_some(draws.anded.mean),
        anded_margin: plan.counts_pairs().then(|| draws.anded.margin(mass_error)),
        reached: until.is_some_and(|u| {
            draws.count() >= MIN_PRECISE_SAMPLES && margin(draws) <= u * draws.time.mean
        }),
        sooner: false,
    };
    let reached = std::sync::atomic::AtomicBool::new(false);
    let sooner = std::sync::atomic::AtomicBool::new(false);
    if population == 0 {
        // Nothing to search (n = 2 and 3 have no placement): nothing to draw, and no time.
        return Ok(so_far(&Draws::new(by_pairs)));
    }
    watch(&so_far(&Draws::new(by_pairs)));
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let started = std::sync::atomic::AtomicUsize::new(0);
    let draws = std::sync::Mutex::new(Draws::new(by_pairs));
    crate::system::on_pool(options.threads, || {
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
                        && !sooner.load(std::sync::atomic::Ordering::Relaxed)
                {
                    let drawn = draw(&mut rng);
                    let now = {
                        let mut draws = draws.lock().unwrap_or_else(|e| e.into_inner());
                        draws.add(&drawn);
                        so_far(&draws)
                    };
                    if now.precise() == Some(true) {
                        reached.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                    let (wall, wall_margin) = now.wall(options.threads);
                    let spent = now.setup + now.elapsed;
                    if stop_sooner
                        && now.samples >= MIN_PRECISE_SAMPLES
                        && spent >= SOONER_AFTER
                        && wall + wall_margin <= spent
                    {
                        sooner.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                    watch(&now);
                }
            })
    })?;
    let mut last = so_far(&draws.into_inner().unwrap_or_else(|e| e.into_inner()));
    // Why it stopped is what it was when it stopped, not after a draw finished late.
    last.reached = reached.into_inner();
    last.sooner = sooner.into_inner();
    Ok(last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::join::units::binomial;

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
        // A draw under way when the width was reached is added after it, and may widen it a
        // little (a_draw_finished_late_does_not_change_why_the_sampling_stopped).
        assert!(e.margin <= 0.5 * e.cpu, "{e:?}");
        let narrow = Sampling::for_seconds(0.2).until(Some(0.0001));
        let e = estimate_watched(13, &options, narrow, 7, &|_| ()).unwrap();
        assert_eq!(e.precise(), Some(false));
        assert_eq!(estimate(13, &options, 0.05, 7).unwrap().precise(), None);
    }

    /// A draw under way when the interval reaches its width is still added, and may widen it:
    /// the estimate still says it stopped for the width, as it did. One worker's first draw
    /// finishes only once the other's have reached it, and is an outlier.
    #[test]
    fn a_draw_finished_late_does_not_change_why_the_sampling_stopped() {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        let options = Options::default().with_threads(2);
        let plan = crate::plan(10, &options).unwrap();
        let space = Space::uniform(1000);
        let (seen, calls) = (AtomicBool::new(false), AtomicUsize::new(0));
        let draw = |_: &mut SplitMix64| {
            let late = calls.fetch_add(1, Ordering::SeqCst) == 0;
            let deadline = Instant::now() + Duration::from_secs(60);
            while late && !seen.load(Ordering::SeqCst) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
            Drawn {
                stands_for: 1.0,
                pieces: 1,
                seconds: if late { 1000.0 } else { 1.0 },
                pairs: 0.0,
                anded: 0.0,
            }
        };
        let watch = |e: &Estimate| {
            if e.precise() == Some(true) {
                seen.store(true, Ordering::SeqCst);
            }
        };
        let sampling = Sampling::for_seconds(60.0).until(Some(0.1));
        let e = sample(&plan, &space, 0.0, &options, sampling, 1, &watch, &draw).unwrap();
        assert!(seen.load(Ordering::SeqCst), "the width was never reached");
        assert!(e.margin > 0.1 * e.cpu, "the late draw was not added: {e:?}");
        assert_eq!(e.precise(), Some(true), "{e:?}");
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
        assert!(!e.weighed, "a table's runs are drawn uniformly");
        let (wall, margin) = e.wall(2);
        assert!((wall - (e.setup + e.cpu / 2.0)).abs() < 1e-12 && margin == e.margin / 2.0);
        let (shard, margin) = e.shard_wall(4, 2);
        assert!((shard - (e.setup + e.cpu / 8.0)).abs() < 1e-12 && margin == e.margin / 8.0);
        assert_eq!(e.per_shard(4), e.shard_wall(4, 1));
        // Shards for a time limit: each within it at the interval's upper end, one fewer not.
        let limit = e.setup + (e.cpu + e.margin) / 3.5;
        let k = e.shards_within(limit).unwrap();
        assert_eq!(k, 4);
        assert!((e.cpu + e.margin) / k as f64 <= limit - e.setup);
        assert_eq!(e.shards_within(e.setup / 2.0), None);
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
    /// engine draws row sets with a unit one by one, weighed by their guessed cost, and counts
    /// their share on every row set of a board this small.
    #[test]
    fn draws_made_on_demand_are_weighed() {
        let options = Options::default()
            .with_threads(1)
            .with_memory(Some(1300 << 10))
            .with_engine(Some(crate::Engine::Join));
        let e = estimate(16, &options, 0.05, 3).unwrap();
        assert!(e.weighed);
        let mut with_unit = 0;
        crate::engines::join::subsets::for_each_subset(16, 8, |east| {
            with_unit += u32::from(crate::engines::join::units::has_unit(16, east))
        });
        assert_eq!(e.share, Some(f64::from(with_unit) / 12_870.0));
        assert_eq!(e.timed, e.samples as u64, "one row set a draw");
        assert!(e.samples >= MIN_SAMPLES && e.cpu > 0.0 && e.margin > 0.0);
    }
}
