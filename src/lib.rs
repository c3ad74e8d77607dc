//! nqueens counts the solutions of the N-Queens problem on every core.
//!
//! A run is *plan → execute → fold*: [`plan::Plan`] splits the board into independent weighted
//! subproblems, [`exec::execute`] runs them on a rayon pool with the bitboard backtrack of
//! [`kernel`], and the weighted counts are summed in `u128`. [`known`] holds the published counts
//! every result is checked against.
//!
//! ```
//! let counts = nqueens::count(8, &nqueens::Options::default()).unwrap();
//! assert_eq!(counts.total, 92);
//! assert_eq!(counts.verified(), Some(true));
//! ```

#![warn(missing_docs, unreachable_pub)]

pub mod bench;
pub mod burnside;
pub mod cluster;
mod cost;
pub mod dihedral;
pub mod engines;
pub mod estimate;
pub mod exec;
pub mod files;
pub mod kernel;
pub mod known;
mod memory;
pub mod plan;
pub mod reference;
pub mod report;
pub mod solve;

use std::time::Duration;

pub use engines::Engine;
pub use exec::{Observer, Tally};
pub use plan::{Plan, Subproblem};

/// The largest board: one `u32` per attack set.
pub const MAX_N: u32 = 32;

/// Everything that can go wrong; each message names the problem and what is allowed.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// Board size out of range.
    #[error("n must be between 1 and {max}, got {n}", max = MAX_N)]
    BoardSize {
        /// The size asked for.
        n: u32,
    },
    /// Zero worker threads.
    #[error("the number of threads must be at least 1")]
    NoThreads,
    /// Split depth out of range.
    #[error("split depth must be between 0 and {max}, got {depth}")]
    SplitDepth {
        /// The depth asked for.
        depth: u32,
        /// The deepest allowed.
        max: u32,
    },
    /// The plan would not fit in memory.
    #[error("splitting n = {n} after {depth} rows gives more than {max} subproblems; use a smaller --split-depth")]
    PlanTooLarge {
        /// Board size.
        n: u32,
        /// Split depth asked for.
        depth: u32,
        /// The limit.
        max: usize,
    },
    /// The plan would not fit in the memory this process may take.
    #[error("not enough memory for the plan of n = {n} split after {depth} rows ({subproblems} subproblems built); use fewer shards or a smaller --split-depth")]
    PlanMemory {
        /// Board size.
        n: u32,
        /// Split depth.
        depth: u32,
        /// Subproblems built when memory ran out.
        subproblems: usize,
    },
    /// The run stopped before every subproblem finished, so the count is partial.
    #[error("{0}; its count is incomplete")]
    Interrupted(exec::run::Interrupted),
    /// A split depth was asked of an engine that has none.
    #[error(
        "--split-depth does not apply to the {engine} engine (it splits the board its own way)"
    )]
    NoSplitDepth {
        /// The engine asked for.
        engine: Engine,
    },
    /// The join engine's smallest working set would not fit in its memory budget.
    #[error("the join engine for n = {n} needs at least {} of memory{}", mib(*needed), available.map_or(String::new(), |a| format!(", {} allowed", mib(a))))]
    JoinTooLarge {
        /// Board size.
        n: u32,
        /// Bytes the tables need.
        needed: u64,
        /// Bytes this process may take, when known.
        available: Option<u64>,
    },
    /// The thread pool could not start.
    #[error("cannot start the thread pool: {0}")]
    Pool(String),
}

/// Bytes in MiB, rounded up.
fn mib(bytes: u64) -> String {
    format!("{} MiB", bytes.div_ceil(1 << 20))
}

/// Checks that `n` is a board size nqueens handles (1..=32).
pub fn check_n(n: u32) -> Result<(), Error> {
    if (1..=MAX_N).contains(&n) {
        Ok(())
    } else {
        Err(Error::BoardSize { n })
    }
}

/// The worker threads a run uses when none are asked for: the CPUs this process may run on (its
/// affinity mask and control group, which `taskset`, Slurm and containers set), and no more than
/// Slurm's `SLURM_CPUS_PER_TASK` when it is set.
pub fn default_threads() -> usize {
    let cpus = num_cpus::get();
    let granted = std::env::var("SLURM_CPUS_PER_TASK")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&k| k >= 1);
    granted.map_or(cpus, |k| k.min(cpus))
}

/// How to count: start from [`Options::default`] and change what you need.
///
/// ```
/// let options = nqueens::Options::default()
///     .with_threads(2)
///     .with_engine(Some(nqueens::Engine::Mirror));
/// assert_eq!(nqueens::count(10, &options).unwrap().total, 724);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Worker threads; the default is [`default_threads`].
    pub threads: usize,
    /// The engine; `None` picks the fastest for n.
    pub engine: Option<Engine>,
    /// Rows pre-placed by the plan; `None` picks the depth automatically.
    pub split_depth: Option<u32>,
    /// Also count queens placed (reported as `nodes`).
    pub count_nodes: bool,
    /// Bytes the join engine may hold (its table, if any, and its threads' pieces); `None` is
    /// half of what this process may take ([`engines::join::default_budget`]).
    pub memory: Option<u64>,
}

impl Options {
    /// These options with `threads` worker threads.
    pub fn with_threads(self, threads: usize) -> Options {
        Options { threads, ..self }
    }

    /// These options with `engine` (`None`: the fastest for n).
    pub fn with_engine(self, engine: Option<Engine>) -> Options {
        Options { engine, ..self }
    }

    /// These options with the split depth `split_depth` (`None`: automatic).
    pub fn with_split_depth(self, split_depth: Option<u32>) -> Options {
        Options {
            split_depth,
            ..self
        }
    }

    /// These options with the join engine's memory budget `memory` in bytes (`None`: the default).
    pub fn with_memory(self, memory: Option<u64>) -> Options {
        Options { memory, ..self }
    }

    /// These options, counting queens placed or not.
    pub fn with_nodes(self, count_nodes: bool) -> Options {
        Options {
            count_nodes,
            ..self
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: default_threads(),
            engine: None,
            split_depth: None,
            count_nodes: false,
            memory: None,
        }
    }
}

/// The result of counting one board size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Board size.
    pub n: u32,
    /// All solutions.
    pub total: u128,
    /// Fundamental solutions, by Burnside's lemma from the total ([`burnside`]); `None` when the
    /// total cannot be right (the lemma's sum is not a multiple of 8).
    pub unique: Option<u128>,
    /// Queens placed, when asked for.
    pub nodes: Option<u128>,
    /// The engine that counted.
    pub engine: Engine,
    /// Worker threads used.
    pub threads: usize,
    /// Subproblems in the plan.
    pub subproblems: usize,
    /// Split depth of the plan.
    pub split_depth: u32,
    /// Wall time of the search (the plan is built before the clock starts).
    pub elapsed: Duration,
}

impl Counts {
    /// The counts of the whole of `plan`: `total` solutions (and `nodes` queens placed, when
    /// counted) found on `threads` threads in `elapsed`; the fundamental count follows from the
    /// total ([`burnside`]). The one place a count is made, for a run, a resumed run or a merge.
    pub fn of(
        plan: &Plan,
        total: u128,
        nodes: Option<u128>,
        threads: usize,
        elapsed: Duration,
    ) -> Counts {
        Counts {
            n: plan.n(),
            total,
            unique: burnside::unique(plan.n(), total),
            nodes,
            engine: plan.engine(),
            threads,
            subproblems: plan.len(),
            split_depth: plan.split_depth(),
            elapsed,
        }
    }

    /// Whether `total` and `unique` equal the published counts; `None` when none are known.
    pub fn verified(&self) -> Option<bool> {
        known::verify(self.n, self.total, self.unique)
    }
}

/// The plan `count` would execute for `n` with these options: the engine asked for or the
/// fastest, and symmetry in place of join when its tables do not fit ([`Plan::fell_back`]).
pub fn plan(n: u32, options: &Options) -> Result<Plan, Error> {
    engines::choose(n, options)
}

/// Counts every solution of the `n`-queens problem.
///
/// The one-shot form of [`exec::run::count`]: no checkpoint, nothing that stops it early.
pub fn count(n: u32, options: &Options) -> Result<Counts, Error> {
    let plan = plan(n, options)?;
    let how = exec::Execution {
        threads: options.threads,
        count_nodes: options.count_nodes,
    };
    let outcome = exec::execute(&plan, &|_| true, how, &exec::Unobserved)?;
    let finished = exec::run::Finished {
        tally: outcome.tally,
        resumed: 0,
        elapsed: outcome.elapsed,
    };
    Ok(finished.counts(&plan, options.threads, options.count_nodes))
}
