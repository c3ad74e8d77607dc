//! The engines behind one seam: each has its own plan, its own way to count a subproblem, and its
//! own price for one. This module is the only place that tells them apart.
//!
//! - [`mirror`]: rows `0..d` pre-placed, the left-right mirror;
//! - [`symmetry`]: the nearest border queens by class under the 8 symmetries of the square, then
//!   rows below them;
//! - [`join`]: east and west half-boards counted as pairs with no shared diagonal.
//!
//! The first two search with the bitboard backtrack of [`crate::kernel`]; the third has its own
//! tables and counter.

pub mod join;
pub mod mirror;
pub mod symmetry;

use crate::kernel::{self, board_mask, AllRows, Search};
use crate::plan::{Plan, Subproblem, MAX_SPLIT_DEPTH, SUBPROBLEMS_PER_THREAD};
use crate::{Error, Options};

/// A way of searching: each engine has its own plan and kernel, and all give the same counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// Left-right mirror symmetry, rows pre-placed from the top.
    Mirror,
    /// All 8 symmetries of the square: borders pre-placed, one per symmetry class.
    Symmetry,
    /// Half-board join: east and west halves counted as pairs with no shared diagonal.
    Join,
}

impl Engine {
    /// Every engine, in the order `--help` lists them.
    pub const ALL: [Engine; 3] = [Engine::Mirror, Engine::Symmetry, Engine::Join];

    /// The engine's name on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Mirror => "mirror",
            Engine::Symmetry => "symmetry",
            Engine::Join => "join",
        }
    }

    /// The engine `count` uses for `n` when none is asked for: the fastest. Measured: join from
    /// n = 15 on (4 times faster than mirror at n = 15 and more above), symmetry below;
    /// [`crate::plan()`] falls back to symmetry when even the join engine's smallest pieces
    /// would not fit in memory.
    pub fn fastest(n: u32) -> Engine {
        if (15..=join::MAX_JOIN_N).contains(&n) {
            Engine::Join
        } else {
            Engine::Symmetry
        }
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

/// The plans' constructors: every one of them chooses by engine, so they live here.
impl Plan {
    /// The plan of `engine` for an `n`-board split after `split_depth` rows.
    ///
    /// Mirror: rows `0..split_depth` are pre-placed (depth 0 is the whole board as one subproblem
    /// of weight 1). Symmetry: the border and then rows `1..=split_depth`.
    pub fn new(engine: Engine, n: u32, split_depth: u32) -> Result<Plan, Error> {
        crate::check_n(n)?;
        if split_depth > MAX_SPLIT_DEPTH {
            return Err(Error::SplitDepth {
                depth: split_depth,
                max: MAX_SPLIT_DEPTH,
            });
        }
        plan(engine, n, split_depth.min(n))
    }

    /// The plan of `engine` with the shallowest split that gives every thread enough work
    /// (at least 32 subproblems per thread, and 2^min(n-8, 17) in all).
    pub fn auto(engine: Engine, n: u32, threads: usize) -> Result<Plan, Error> {
        auto(engine, n, threads, threads)
    }

    /// The join plan of an `n`-board: one subproblem per block of units of [`join::Join`]. No
    /// queens are pre-placed (split depth 0): its subproblems are counted by
    /// [`crate::engines::solve`] with the plan's tables, not from [`Subproblem::start`].
    pub fn join(n: u32) -> Result<Plan, Error> {
        Plan::of_join(join::Join::new(n)?)
    }
}

/// Makes now, on the caller's rayon pool, what pricing the subproblems of `plan` ([`cost`]) shares
/// among them (the join engine's price of every row set), rather than on the first call.
pub fn prepare_costs(plan: &Plan) {
    if let Some(join) = plan.join_tables() {
        join.prices();
    }
}

/// The estimated cost of every subproblem of `plan`, by id, for progress: [`cost`] with 4 to 64
/// random paths each, 2^16 for the whole plan.
///
/// Deterministic: the random paths of each subproblem are seeded by its id.
pub fn estimate(plan: &Plan) -> Vec<f64> {
    const PROBES_PER_PLAN: usize = 1 << 16;
    let probes = (PROBES_PER_PLAN / plan.len().max(1)).clamp(4, 64) as u32;
    plan.subproblems()
        .iter()
        .map(|sub| cost(plan, sub, probes) as f64 / f64::from(probes))
        .collect()
}

/// The plan `count` executes for `n` with `options`: the engine asked for, or the fastest for n;
/// a split depth without an engine picks the fastest backtracking engine; the default engine
/// gives way to symmetry when the join tables do not fit, and the plan says why
/// ([`Plan::fell_back`]).
pub(crate) fn choose(n: u32, options: &Options) -> Result<Plan, Error> {
    choose_for(n, options, options.threads)
}

/// [`choose`], with an automatic split sized for `plan_threads` workers rather than for the
/// `options.threads` that build the plan: a shard sizes its plan for the whole run, thousands of
/// workers, and builds it on its own threads.
pub(crate) fn choose_for(n: u32, options: &Options, plan_threads: usize) -> Result<Plan, Error> {
    if options.threads == 0 {
        return Err(Error::NoThreads);
    }
    let engine = match (options.engine, options.split_depth) {
        (Some(engine), _) => engine,
        (None, Some(_)) => Engine::Symmetry,
        (None, None) => Engine::fastest(n),
    };
    match (engine, options.split_depth) {
        // The join plan's own depth is 0 (what its files record); any other is refused.
        (Engine::Join, Some(depth)) if depth > 0 => Err(Error::NoSplitDepth { engine }),
        (Engine::Join, _) => join_plan(n, options).or_else(|e| match e {
            Error::JoinTooLarge { .. } if options.engine.is_none() => {
                Ok(auto(Engine::Symmetry, n, plan_threads, options.threads)?.falling_back(e))
            }
            e => Err(e),
        }),
        (_, Some(depth)) => Plan::new(engine, n, depth),
        (_, None) => auto(engine, n, plan_threads, options.threads),
    }
}

/// The plan of `options` (engine and split depth given) as far as checking and partitioning need
/// it: the same subproblems, fingerprint and partition as the plan a run executes, but a join plan
/// holds only the outline of its tables (their group sizes), without their time and memory; it
/// cannot be executed.
pub(crate) fn outline(n: u32, options: &Options) -> Result<Plan, Error> {
    match (options.engine, options.split_depth) {
        (Some(Engine::Join), Some(0)) => Plan::of_join(join::Join::outline(n)?),
        _ => choose(n, options),
    }
}

/// The join plan of an `n`-board within the memory budget of `options`, its tables built on its
/// threads once [`join::Join::admit`] has said they may be (so a refusal comes at once, before
/// any thread starts).
fn join_plan(n: u32, options: &Options) -> Result<Plan, Error> {
    let (budget, threads) = (options.memory, options.threads);
    join::Join::admit(n, budget, threads)?;
    on_threads(threads, || {
        Plan::of_join(join::Join::within(n, budget, threads)?)
    })?
}

/// `build` run on a pool of `threads` threads (the join engine builds its tables on the pool it
/// runs in, and `-j` bounds the threads of the whole run).
fn on_threads<T: Send>(threads: usize, build: impl FnOnce() -> T + Send) -> Result<T, Error> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| Error::Pool(e.to_string()))?;
    Ok(pool.install(build))
}

/// The plan of `engine` for an `n`-board split after `split_depth` rows (≤ n).
pub(crate) fn plan(engine: Engine, n: u32, split_depth: u32) -> Result<Plan, Error> {
    match engine {
        Engine::Mirror => Plan::built(engine, n, split_depth, mirror::plan),
        Engine::Symmetry => Plan::built(engine, n, split_depth, symmetry::plan),
        Engine::Join if split_depth == 0 => Plan::join(n),
        Engine::Join => Err(Error::NoSplitDepth { engine }),
    }
}

/// The plan of `engine` with the shallowest split that gives every thread enough work.
///
/// The target is at least [`SUBPROBLEMS_PER_THREAD`] subproblems per thread, and at least
/// 2^min(n-8, 17) so that the pieces of a long run stay short (seconds to minutes at n ≥ 20)
/// for progress and checkpoints. Up to 8 threads the depth depends on `n` alone. The symmetry
/// plan starts at depth 2, which splits its few large rule families; the join plan has no depth
/// and builds its tables on `build_threads`.
fn auto(engine: Engine, n: u32, threads: usize, build_threads: usize) -> Result<Plan, Error> {
    crate::check_n(n)?;
    let target = (SUBPROBLEMS_PER_THREAD * threads.max(1)).max(1 << n.saturating_sub(8).min(17));
    // The symmetry plan's rule families are a handful of huge pieces until a couple of rows
    // below the border are pre-placed too.
    let mut depth = match engine {
        Engine::Mirror => 1,
        Engine::Symmetry => 2,
        Engine::Join => {
            let options = Options::default().with_threads(build_threads);
            return join_plan(n, &options);
        }
    };
    loop {
        let plan = Plan::new(engine, n, depth)?;
        if plan.len() >= target || depth >= n.min(MAX_SPLIT_DEPTH) {
            return Ok(plan);
        }
        depth += 1;
    }
}

/// Counts the completions of one subproblem of `plan`.
pub fn solve(plan: &Plan, sub: &Subproblem, count_nodes: bool) -> Search {
    if let Some(join) = plan.join_tables() {
        let solutions = join.count_block(sub.id);
        return Search {
            solutions,
            nodes: 0,
        };
    }
    let n = plan.n();
    match sub.start(n) {
        (start, None) => kernel::search(n, &AllRows(board_mask(n)), start, count_nodes),
        (start, Some(rows)) => kernel::search(n, &rows, start, count_nodes),
    }
}

/// The price of one subproblem of `plan`, for progress and the shard partition: Knuth's estimate
/// of its search tree over `probes` random paths (`cost::tree_size`), or, for a join
/// unit, which has no tree, its own cost model ([`join::Join::cost`]) times `probes`.
/// Deterministic: the partition, and so the shard files, depend on it.
pub fn cost(plan: &Plan, sub: &Subproblem, probes: u32) -> u128 {
    match plan.join_tables() {
        Some(join) => join.block_cost(sub.id) * u128::from(probes),
        None => crate::cost::tree_size(plan, sub, probes),
    }
}
