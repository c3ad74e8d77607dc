//! Which plan a count gets: the engine asked for or the fastest, the automatic split, the join
//! engine's tables within the memory budget, and the fall back to symmetry when they do not fit.

use super::{Plan, SUBPROBLEMS_PER_THREAD};
use crate::engines::{join, mirror, symmetry};
use crate::search::subproblem::MAX_SPLIT_DEPTH;
use crate::{Decomposition, Engine, Error, Options};

/// The plan `count` executes for `n` with `options`: the engine asked for, or the fastest for n;
/// a split depth without an engine picks the fastest backtracking engine; the default engine
/// gives way to symmetry when the join tables do not fit, and the plan says why
/// ([`Plan::fell_back`]).
pub(crate) fn choose(n: u32, options: &Options) -> Result<Plan, Error> {
    choose_for(n, options, options.threads, FallBack::Allowed)
}

/// Whether the default engine may give way to symmetry when the join tables do not fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FallBack {
    /// A count on its own: any engine's count is the count.
    Allowed,
    /// A shard: its result merges only with its campaign's, all counted by one plan, so a
    /// budget too small for that plan is refused before anything is counted.
    Refused,
}

/// [`choose`], with an automatic split sized for `plan_threads` workers rather than for the
/// `options.threads` that build the plan: a shard sizes its plan for the whole run, thousands of
/// workers, and builds it on its own threads.
pub(crate) fn choose_for(
    n: u32,
    options: &Options,
    plan_threads: usize,
    fall_back: FallBack,
) -> Result<Plan, Error> {
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
        if engine != Engine::Join {
            return Err(Error::EngineDecomposition {
                engine,
                decomposition: asked,
            });
        }
        let why = if n % 2 == 1 && asked == Decomposition::QuarterTurn {
            Some("an odd board's units are counted by their quarter turn in every decomposition")
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
                if options.engine.is_none()
                    && asked == Decomposition::Fastest
                    && fall_back == FallBack::Allowed =>
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
    #[cfg(test)]
    tests::OUTLINES.with(|built| built.set(built.get() + 1));
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
/// digits, as files record it), among the decompositions the board has, the one a file names
/// (`named`: results from version 5 on) tried first and alone when it matches: each outline
/// walks the quadrants' placements, most of a merge's time. The default decomposition's when
/// none matches (the caller then says the file is of another plan).
pub(crate) fn outline_of(
    n: u32,
    options: &Options,
    fingerprint: &str,
    named: Option<&str>,
) -> Result<Plan, Error> {
    let of = |decomposition| outline(n, &options.with_decomposition(decomposition));
    let matches = |plan: &Plan| format!("{:08x}", plan.fingerprint()) == fingerprint;
    let named = Decomposition::ALL
        .into_iter()
        .find(|d| Some(d.name()) == named);
    if let Some(Ok(plan)) = named.map(of) {
        if matches(&plan) {
            return Ok(plan);
        }
    }
    let mut fastest = None;
    for decomposition in Decomposition::ALL {
        // Where a decomposition does not exist (odd boards, other engines), nor does its plan.
        let Ok(plan) = of(decomposition) else {
            continue;
        };
        if matches(&plan) {
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
    crate::system::on_pool(threads, build)
}

/// The plan of `engine` for an `n`-board split after `split_depth` rows (≤ n).
pub(super) fn plan(engine: Engine, n: u32, split_depth: u32) -> Result<Plan, Error> {
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
/// [`crate::search::subproblem::MAX_SUBPROBLEMS`]. Up to 8 threads the depth depends on `n` alone. The symmetry
/// plan starts at depth 2, which splits its few large rule families; the join plan has no depth
/// and builds its tables on `build_threads`.
pub(super) fn auto(
    engine: Engine,
    n: u32,
    threads: usize,
    build_threads: usize,
) -> Result<Plan, Error> {
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

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// Outlines built by this thread's calls of [`outline`].
        pub(super) static OUTLINES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// A file that names its decomposition has its plan outlined once; one that does not
    /// (older versions) costs an outline per decomposition tried, and still finds its plan.
    #[test]
    fn a_named_decomposition_is_outlined_alone() {
        let options = Options::default()
            .with_threads(1)
            .with_engine(Some(Engine::Join))
            .with_split_depth(Some(0));
        let turn = outline(12, &options.with_decomposition(Decomposition::QuarterTurn)).unwrap();
        let fingerprint = format!("{:08x}", turn.fingerprint());
        let built = |named| {
            OUTLINES.with(|b| b.set(0));
            let plan = outline_of(12, &options, &fingerprint, named).unwrap();
            assert_eq!(format!("{:08x}", plan.fingerprint()), fingerprint);
            OUTLINES.with(|b| b.get())
        };
        assert_eq!(built(Some("quarter-turn")), 1);
        assert_eq!(
            built(None),
            2,
            "the fastest (whole at n = 12), then the quarter turn"
        );
        // A name that does not match the fingerprint costs one outline more, no more.
        assert_eq!(built(Some("whole")), 3);
    }
}
