//! The engines behind one seam: each has its own plan, its own way to count a piece, its own
//! price for one and its own way to draw one for an estimate. This module is the only place
//! that tells them apart: every `match` on a plan's [`Pieces`] is here.
//!
//! - [`mirror`]: rows `0..d` pre-placed, the left-right mirror;
//! - [`symmetry`]: the nearest border queens by class under the 8 symmetries of the square, then
//!   rows below them;
//! - [`join`]: east and west half-boards counted as pairs with no shared diagonal.
//!
//! The first two search with the bitboard backtrack of [`crate::kernel`]; the third has its own
//! tables and counter.

pub(crate) mod join;
pub(crate) mod mirror;
pub(crate) mod symmetry;

use crate::kernel::{self, board_mask, AllRows, Search};
use crate::plan::{Piece, Pieces, Plan, Rule, MAX_SPLIT_DEPTH, SUBPROBLEMS_PER_THREAD};
use crate::{Decomposition, Error, Options};

/// A way of searching: each engine has its own plan and kernel, and all give the same counts.
///
/// ```
/// use nqueens::{Engine, Options};
///
/// assert_eq!(Engine::fastest(12), Engine::Symmetry);
/// assert_eq!(Engine::fastest(20), Engine::Join);
/// for engine in Engine::ALL {
///     let options = Options::default().with_engine(Some(engine));
///     assert_eq!(nqueens::count(10, &options).unwrap().total, 724);
/// }
/// ```
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

    /// The join plan of an `n`-board: one piece per block of units of the join engine. No
    /// queens are pre-placed (split depth 0): its subproblems are counted by
    /// the plan's tables, not by a search.
    pub fn join(n: u32) -> Result<Plan, Error> {
        Ok(Plan::of_join(join::Join::new(n)?))
    }
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
    let asked = options.decomposition;
    let engine = match (options.engine, options.split_depth) {
        (Some(engine), _) => engine,
        (None, Some(_)) => Engine::Symmetry,
        // A decomposition is the join engine's.
        (None, None) if asked != Decomposition::Fastest => Engine::Join,
        (None, None) => Engine::fastest(n),
    };
    if asked != Decomposition::Fastest {
        let why = if engine != Engine::Join {
            Some("decompositions are the join engine's")
        } else if n % 2 == 1 {
            Some("an odd board's units have one decomposition (the quarter turn is of even boards)")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(Error::Decomposition {
                n,
                decomposition: asked,
                why,
            });
        }
    }
    match (engine, options.split_depth) {
        // The join plan's own depth is 0 (what its files record); any other is refused.
        (Engine::Join, Some(depth)) if depth > 0 => Err(Error::NoSplitDepth { engine }),
        (Engine::Join, _) => join_plan(n, options).or_else(|e| match e {
            // A decomposition asked for is not given up for another engine's count.
            Error::JoinTooLarge { .. }
                if options.engine.is_none() && asked == Decomposition::Fastest =>
            {
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
        // Built on a pool of its own, as every plan: outside one, rayon's global pool would be
        // started, and a failure to start it is a panic, not an error.
        (Some(Engine::Join), Some(0)) => on_threads(options.threads, || {
            join::Join::outline(n, options.decomposition).map(Plan::of_join)
        })?,
        _ => choose(n, options),
    }
}

/// The outline ([`outline`]) of the plan of `options` whose fingerprint is `fingerprint` (8 hex
/// digits, as files record it), among the decompositions the board has: a file names its plan
/// by fingerprint only. The default decomposition's when none matches (the caller then says the
/// file is of another plan).
pub(crate) fn outline_of(n: u32, options: &Options, fingerprint: &str) -> Result<Plan, Error> {
    let mut fastest = None;
    for decomposition in Decomposition::ALL {
        // Where a decomposition does not exist (odd boards, other engines), nor does its plan.
        let Ok(plan) = outline(n, &options.with_decomposition(decomposition)) else {
            continue;
        };
        if format!("{:08x}", plan.fingerprint()) == fingerprint {
            return Ok(plan);
        }
        fastest.get_or_insert(plan);
    }
    match fastest {
        Some(plan) => Ok(plan),
        None => outline(n, options),
    }
}

/// The join plan of an `n`-board within the memory budget of `options`, its tables built on its
/// threads once [`join::Join::admit`] has said they may be (so a refusal comes at once, before
/// any thread starts).
fn join_plan(n: u32, options: &Options) -> Result<Plan, Error> {
    let (budget, threads) = (options.memory, options.threads);
    join::Join::admit(n, budget, threads)?;
    on_threads(threads, || {
        join::Join::within(n, budget, threads, options.decomposition).map(Plan::of_join)
    })?
}

/// `build` run on a pool of `threads` threads (the join engine builds its tables on the pool it
/// runs in, and `-j` bounds the threads of the whole run).
fn on_threads<T: Send>(threads: usize, build: impl FnOnce() -> T + Send) -> Result<T, Error> {
    Ok(crate::exec::pool(threads)?.install(build))
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
/// for progress and checkpoints; the split stops short of a plan larger than
/// [`crate::plan::MAX_SUBPROBLEMS`]. Up to 8 threads the depth depends on `n` alone. The symmetry
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
    let mut plan = Plan::new(engine, n, depth)?;
    loop {
        if plan.len() >= target || depth >= n.min(MAX_SPLIT_DEPTH) {
            return Ok(plan);
        }
        // A split one row deeper, unless it would pass the most subproblems a plan may hold
        // (a count, the same on every machine: a run of a million shards gets the finest plan
        // there is, not an error).
        match Plan::new(engine, n, depth + 1) {
            Ok(deeper) => plan = deeper,
            Err(Error::PlanTooLarge { .. }) => return Ok(plan),
            Err(e) => return Err(e),
        }
        depth += 1;
    }
}

/// Everything that tells the engines' plans apart.
impl Plan {
    /// The engine whose plan this is.
    pub fn engine(&self) -> Engine {
        match &self.pieces {
            Pieces::Search { engine, .. } => *engine,
            Pieces::Join(_) => Engine::Join,
        }
    }

    /// The split depth the plan was built with (0 for the join engine, which has none).
    pub fn split_depth(&self) -> u32 {
        match &self.pieces {
            Pieces::Search { split_depth, .. } => *split_depth,
            Pieces::Join(_) => 0,
        }
    }

    /// Number of pieces.
    pub fn len(&self) -> usize {
        match &self.pieces {
            Pieces::Search { subproblems, .. } => subproblems.len(),
            Pieces::Join(join) => join.blocks().len(),
        }
    }

    /// Piece `id` (< [`Plan::len`]).
    pub fn piece(&self, id: usize) -> Piece {
        let weight = match &self.pieces {
            Pieces::Search { subproblems, .. } => subproblems[id].weight,
            Pieces::Join(_) => 1,
        };
        Piece { id, weight }
    }

    /// Counts the completions of piece `id`: a search from its pre-placed queens, or the pairs
    /// of half-boards of a join block (queens placed are counted by the searches only, and
    /// only when `count_nodes`; a join reports none).
    pub fn count_piece(&self, id: usize, count_nodes: bool) -> Search {
        let n = self.n;
        match &self.pieces {
            Pieces::Search { subproblems, .. } => match subproblems[id].start(n) {
                (start, None) => kernel::search(n, &AllRows(board_mask(n)), start, count_nodes),
                (start, Some(rows)) => kernel::search(n, &rows, start, count_nodes),
            },
            Pieces::Join(join) => Search {
                solutions: join.count_block(id),
                nodes: 0,
            },
        }
    }

    /// Whether counting this plan's pieces can count the queens it places (the join engine
    /// places none one by one).
    pub fn counts_nodes(&self) -> bool {
        matches!(self.pieces, Pieces::Search { .. })
    }

    /// The price of piece `id`, for progress and the shard partition: Knuth's estimate of its
    /// search tree over `probes` random paths ([`crate::cost::tree_size`]), or, for a join
    /// block, which has no tree, its own cost model ([`join::Join::block_cost`]) times `probes`.
    /// Deterministic: the partition, and so the shard files, depend on it.
    pub(crate) fn cost(&self, id: usize, probes: u32) -> u128 {
        match &self.pieces {
            Pieces::Search { subproblems, .. } => {
                crate::cost::tree_size(self.n, &subproblems[id], probes)
            }
            Pieces::Join(join) => join.block_cost(id) * u128::from(probes),
        }
    }

    /// Makes now, on the caller's rayon pool, what pricing the pieces ([`Plan::cost`]) shares
    /// among them (the join engine's price of every row set), rather than on the first call.
    pub(crate) fn prepare_costs(&self) {
        if let Pieces::Join(join) = &self.pieces {
            join.prices();
        }
    }

    /// The estimated cost of every piece, by id, for progress: its price (as for shards) with 4 to 64
    /// random paths each, 2^16 for the whole plan. Deterministic: the random paths of each
    /// piece are seeded by its id.
    pub fn costs(&self) -> Vec<f64> {
        const PROBES_PER_PLAN: usize = 1 << 16;
        let probes = (PROBES_PER_PLAN / self.len().max(1)).clamp(4, 64) as u32;
        (0..self.len())
            .map(|id| self.cost(id, probes) as f64 / f64::from(probes))
            .collect()
    }

    /// The plan's identity: CRC-32 of every piece (a subproblem's weight, rule and queens; a join
    /// block's rows), fed as explicit little-endian bytes so that it is the same on every
    /// machine and with every compiler. Checkpoints and shard results carry it, so that nothing
    /// from one plan is ever mixed into a count of another, however alike their parameters look.
    pub fn fingerprint(&self) -> u32 {
        let mut h = crc32fast::Hasher::new();
        h.update(self.engine().name().as_bytes());
        h.update(&self.n.to_le_bytes());
        h.update(&self.split_depth().to_le_bytes());
        h.update(&(self.len() as u64).to_le_bytes());
        let mut piece = |id: usize, weight: u32, rule: Rule, queens: &[(u8, u8)]| {
            h.update(&(id as u64).to_le_bytes());
            h.update(&weight.to_le_bytes());
            let rule = match rule {
                Rule::Free => [0, 0, 0],
                Rule::Corner { j } => [1, j, 0],
                Rule::Far { d, free } => [2, d, free],
            };
            h.update(&rule);
            h.update(&[queens.len() as u8]);
            for &(r, c) in queens {
                h.update(&[r, c]);
            }
        };
        match &self.pieces {
            Pieces::Search { subproblems, .. } => {
                for sub in subproblems {
                    piece(sub.id, sub.weight, sub.rule, sub.queens());
                }
            }
            Pieces::Join(join) => {
                // Each block as the weight-1 piece with no queens it once stood for, then the
                // blocks' rows: the bytes that checkpoints and shard files already carry.
                for id in 0..join.blocks().len() {
                    piece(id, 1, Rule::Free, &[]);
                }
                for block in join.blocks() {
                    h.update(&block.to_le_bytes());
                }
                // The blocks of an even board counted by the quarter turn add other sums.
                if join.turns() {
                    h.update(b"quarter turn");
                }
            }
        }
        h.finalize()
    }

    /// How the plan counts an even board's units ([`Decomposition::Whole`] or
    /// [`Decomposition::QuarterTurn`]): `None` where there is one way only (odd boards, the
    /// backtracking engines).
    pub fn decomposition(&self) -> Option<Decomposition> {
        let join = self.join_tables()?;
        self.n.is_multiple_of(2).then_some(if join.turns() {
            Decomposition::QuarterTurn
        } else {
            Decomposition::Whole
        })
    }

    /// The join engine's tables and units, for a join plan: what an estimate draws from.
    pub(crate) fn join_tables(&self) -> Option<&join::Join> {
        match &self.pieces {
            Pieces::Join(join) => Some(join),
            Pieces::Search { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Plan {
        /// The subproblems of a backtracking plan, ordered by id (none for the join engine).
        pub(crate) fn subproblems(&self) -> &[crate::plan::Subproblem] {
            match &self.pieces {
                Pieces::Search { subproblems, .. } => subproblems,
                Pieces::Join(_) => &[],
            }
        }
    }
}
