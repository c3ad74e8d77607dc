//! What can go wrong in a count, each message naming the problem and what is allowed.

use std::path::PathBuf;

use crate::Engine;

/// Everything that can go wrong; each message names the problem and what is allowed.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Board size out of range.
    #[error("n must be between 1 and {max}, got {n}", max = crate::MAX_N)]
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
    #[error("splitting n = {n} after {depth} rows gives more than {max} subproblems; use a smaller split depth")]
    PlanTooLarge {
        /// Board size.
        n: u32,
        /// Split depth asked for.
        depth: u32,
        /// The limit.
        max: usize,
    },
    /// The plan would not fit in the memory this process may take.
    #[error("not enough memory for the plan of n = {n} split after {depth} rows: it needs at least {} ({subproblems} subproblems built when memory ran out); fewer shards or a smaller split depth need less", mib(*.needed))]
    PlanMemory {
        /// Board size.
        n: u32,
        /// Split depth.
        depth: u32,
        /// Subproblems built when memory ran out.
        subproblems: usize,
        /// Bytes the plan needed at that point.
        needed: u64,
    },
    /// The run stopped before every subproblem finished, so the count is partial.
    #[error("{0}; its count is incomplete")]
    Interrupted(Interrupted),
    /// A split depth was asked of an engine that has none.
    #[error(
        "a split depth does not apply to the {engine} engine (it splits the board its own way)"
    )]
    NoSplitDepth {
        /// The engine asked for.
        engine: Engine,
    },
    /// A decomposition asked for of an engine other than the join engine's.
    #[error("the {engine} engine has no {decomposition} decomposition: decompositions are the join engine's (--engine join, or no --engine)")]
    EngineDecomposition {
        /// The engine asked for.
        engine: Engine,
        /// The decomposition asked for.
        decomposition: crate::Decomposition,
    },
    /// A decomposition asked for that this board does not have.
    #[error("n = {n} has no {decomposition} decomposition: {why}")]
    Decomposition {
        /// Board size.
        n: u32,
        /// The decomposition asked for.
        decomposition: crate::Decomposition,
        /// Why not.
        why: &'static str,
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
    /// The join engine's table fits its budget (`--memory`), but the system refused it: the
    /// budget asked for is more than this process may take.
    #[error("the join engine's table for n = {n} ({}) could not be allocated: the system refused it (this process may take {}: ulimit -v, its control group or the machine), though the budget of {} allows it; a smaller --memory makes its quadrants on demand instead", mib(*.table), .available.map_or_else(|| "less".to_string(), mib), mib(*.budget))]
    TableRefused {
        /// Board size.
        n: u32,
        /// Bytes of the table.
        table: u64,
        /// The budget that admitted it.
        budget: u64,
        /// Bytes this process may take, as the system says, when it says.
        available: Option<u64>,
    },
    /// A shard whose campaign's plan does not fit its memory budget: a shard counts by its
    /// campaign's plan or not at all, since another engine's result could not be merged with
    /// the other shards'.
    #[error("a shard of n = {n} counts only by its campaign's plan, and {why}: give the shard that memory (--memory, or the scheduler's memory limit); it does not fall back to another engine, whose result could not be merged with the other shards'")]
    ShardTooLarge {
        /// Board size.
        n: u32,
        /// Why the plan does not fit ([`Error::JoinTooLarge`]).
        why: Box<Error>,
    },
    /// The thread pool could not start (an address-space limit too small for its stacks, or the
    /// system's limit on threads).
    #[error("cannot start {threads} worker thread{}: {reason}; {} at least {} of address space for {} stack{}", if *.threads == 1 { "" } else { "s" }, if *.threads == 1 { "it needs" } else { "they need" }, mib(*.needed), if *.threads == 1 { "its" } else { "their" }, if *.threads == 1 { "" } else { "s" })]
    Pool {
        /// Threads asked for.
        threads: usize,
        /// Bytes of address space their stacks reserve.
        needed: u64,
        /// What the system said.
        reason: String,
    },
}

/// Bytes in MiB, rounded up.
fn mib(bytes: u64) -> String {
    format!("{} MiB", bytes.div_ceil(1 << 20))
}

/// What a stopped run leaves behind.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Interrupted {
    /// Subproblems of the selection finished, including those resumed from the checkpoint.
    pub done: usize,
    /// Subproblems in the selection.
    pub of: usize,
    /// What the pieces are called ([`crate::Plan::pieces_are`]).
    pub pieces_are: &'static str,
    /// Pieces stopped inside, whose parts counted are saved with the finished ones.
    pub paused: usize,
    /// The checkpoint that holds them, synced; `None` when the run kept none.
    pub checkpoint: Option<PathBuf>,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the run stopped after {} of {} {}",
            self.done, self.of, self.pieces_are
        )?;
        if self.paused > 0 && self.checkpoint.is_some() {
            write!(f, " and inside {} more", self.paused)?;
        }
        match &self.checkpoint {
            Some(path) => write!(f, "; the work is saved in {}", path.display()),
            None => write!(f, "; no checkpoint was kept, so the work is lost"),
        }
    }
}

/// Checks that `n` is a board size nqueens handles (1..=32).
pub fn check_n(n: u32) -> Result<(), Error> {
    if (1..=crate::MAX_N).contains(&n) {
        Ok(())
    } else {
        Err(Error::BoardSize { n })
    }
}
