//! How long a count will take, before it runs: a timed random sample of its work, scaled up.
//!
//! A count is a sum of independent pieces of work: the join engine's east row sets (all
//! C(n, ⌊n/2⌋) of them, those with no unit of their own costing nothing), or a backtracking
//! plan's subproblems. Drawing pieces uniformly at random, timing each on one thread (its CPU
//! time, so other processes on the machine do not count), and multiplying the mean by the
//! number of pieces gives an unbiased estimate of the count's CPU time (Knuth's idea for
//! search trees, 1975, here with real work at the leaves), and the spread of the sample a 95%
//! confidence interval by the central limit theorem. The plan (and the join engine's table) is
//! built first, and timed too: it is part of a run.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::cost::SplitMix64;
use crate::engines::join::units::binomial;
use crate::{Error, Options, Plan};

/// The least sample drawn, however long it takes.
pub const MIN_SAMPLES: usize = 8;

/// A count's predicted time.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Board size.
    pub n: u32,
    /// The engine the count would use.
    pub engine: crate::Engine,
    /// Pieces of work in the count.
    pub population: u64,
    /// Pieces drawn and timed.
    pub samples: usize,
    /// Predicted CPU seconds of the whole count, summed over its threads, beside `setup`.
    pub cpu: f64,
    /// Half the width of the 95% confidence interval of `cpu`, in seconds.
    pub margin: f64,
    /// Seconds it took here to build the plan (and tables), once per run or shard.
    pub setup: f64,
    /// Seconds the sampling took.
    pub elapsed: f64,
}

impl Estimate {
    /// Predicted wall-clock seconds on `threads` threads that scale perfectly (the setup, then
    /// the CPU time shared out), with its margin.
    pub fn wall(&self, threads: usize) -> (f64, f64) {
        let t = threads.max(1) as f64;
        (self.setup + self.cpu / t, self.margin / t)
    }

    /// Predicted CPU seconds of one of `shards` shards of even cost (the shard partition balances
    /// them), with its margin: each also builds the plan.
    pub fn per_shard(&self, shards: u32) -> (f64, f64) {
        let k = f64::from(shards.max(1));
        (self.setup + self.cpu / k, self.margin / k)
    }
}

/// Estimates the count of `n` with `options` from samples drawn on `options.threads` threads for
/// about `seconds` (at least [`MIN_SAMPLES`] pieces; pieces under way when time is up are
/// finished and counted), from the random stream `seed`.
pub fn estimate(n: u32, options: &Options, seconds: f64, seed: u64) -> Result<Estimate, Error> {
    let start = Instant::now();
    let plan = crate::plan(n, options)?;
    let setup = start.elapsed().as_secs_f64();
    let population = pieces(&plan);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.max(1))
        .build()
        .map_err(|e| Error::Pool(e.to_string()))?;
    let sampling = Instant::now();
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let drawn = std::sync::atomic::AtomicUsize::new(0);
    let times: Vec<f64> = pool.install(|| {
        (0..options.threads.max(1))
            .into_par_iter()
            .flat_map_iter(|worker| {
                let mut rng =
                    SplitMix64(seed ^ (worker as u64).wrapping_mul(0xA24B_AED4_963E_E407));
                let mut times = Vec::new();
                while sampling.elapsed() < budget
                    || drawn.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < MIN_SAMPLES
                {
                    let before = thread_cpu_seconds();
                    work_on(&plan, &mut rng);
                    times.push(thread_cpu_seconds() - before);
                }
                times
            })
            .collect()
    });
    let k = times.len() as f64;
    let mean = times.iter().sum::<f64>() / k;
    let variance = times.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (k - 1.0).max(1.0);
    let scale = population as f64;
    Ok(Estimate {
        n,
        engine: plan.engine(),
        population,
        samples: times.len(),
        cpu: scale * mean,
        margin: 1.96 * scale * (variance / k).sqrt(),
        setup,
        elapsed: sampling.elapsed().as_secs_f64(),
    })
}

/// Pieces of work a run of `plan` is the sum of: the join engine's east row sets, or the
/// subproblems.
fn pieces(plan: &Plan) -> u64 {
    match plan.join_tables() {
        Some(_) => binomial(plan.n(), plan.n() / 2),
        None => plan.len() as u64,
    }
}

/// Does one piece of `plan`'s work drawn uniformly at random, as a run does it.
fn work_on(plan: &Plan, rng: &mut SplitMix64) {
    let n = plan.n();
    match plan.join_tables() {
        Some(join) => {
            std::hint::black_box(join.count_row_set(random_subset(n, n / 2, rng)));
        }
        None if plan.is_empty() => {}
        None => {
            let sub = &plan.subproblems()[(rng.next() % plan.len() as u64) as usize];
            std::hint::black_box(crate::engines::solve(plan, sub, false));
        }
    }
}

/// A `k`-element subset of `0..n` drawn uniformly (Floyd's algorithm), as a mask.
fn random_subset(n: u32, k: u32, rng: &mut SplitMix64) -> u32 {
    let mut set = 0u32;
    for j in n - k..n {
        let t = (rng.next() % u64::from(j + 1)) as u32;
        set |= if set & (1 << t) == 0 { 1 << t } else { 1 << j };
    }
    set
}

/// CPU seconds this thread has used.
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write to; the clock id is a constant Linux knows.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    if ok {
        ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_subsets_have_k_members_and_reach_every_one() {
        let mut rng = SplitMix64(7);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..2000 {
            let s = random_subset(6, 3, &mut rng);
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
        let (wall, margin) = e.wall(2);
        assert!((wall - (e.setup + e.cpu / 2.0)).abs() < 1e-12 && margin == e.margin / 2.0);
        let symmetry = estimate(
            12,
            &options.with_engine(Some(crate::Engine::Symmetry)),
            0.0,
            1,
        );
        assert_eq!(symmetry.unwrap().samples, MIN_SAMPLES);
    }
}
