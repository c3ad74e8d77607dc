//! Beyond one machine: one run split into K independent shards that any scheduler can launch,
//! and merged back into one count.
//!
//! `count N --shard I/K` counts the subproblems of shard I (numbered **from 1** to K) and writes a
//! [`PartialResult`]; [`crate::cluster::merge`] checks and sums the K results. Nothing is sent between the
//! shards: each one rebuilds the same plan and the same [`Partition`] from `(n, engine, split
//! depth, K)` and keeps its own subproblems. The shard is a *selection* over the whole plan
//! ([`Partition::owns`]), so ids mean the same in every shard and a shard combines with any other
//! selection, such as "not yet done" from a checkpoint:
//!
//! ```
//! use nqueens::exec::{self, Execution, Unobserved};
//! use nqueens::cluster::{ShardRun, Shard};
//! use nqueens::Options;
//!
//! let options = Options::default().with_threads(2);
//! let shard: Shard = "2/3".parse().unwrap();
//! let run = ShardRun::new(10, &options, shard).unwrap();
//! let how = Execution { threads: 2, count_nodes: false };
//! let done_before = |_: usize| false; // e.g. read from a checkpoint
//! let outcome = exec::execute(&run.plan, &|p| run.owns(p) && !done_before(p.id), how, &Unobserved)
//!     .unwrap();
//! // The wall time of the search; its CPU time is not measured here.
//! let times = nqueens::exec::Times { wall: outcome.elapsed, cpu: Default::default() };
//! let partial = run.result(outcome.tally, times, 2).unwrap();
//! assert_eq!(partial.subproblems, run.partition.ids(shard).len());
//! ```
//!
//! # A balanced, deterministic partition
//! Subproblems differ a lot in cost (a prefix near the centre of the board leaves a bigger tree),
//! so dealing them out by id would leave some shards much longer than others. Each subproblem's
//! cost is estimated by Knuth's (1975) estimator of a backtrack tree's size: a random walk from the
//! subproblem's board to a dead end, multiplying the number of free squares met in each row, and
//! summing those products, averaged over 256 walks (2^22
//! in all, at least 16 each, for a large plan). A join unit has no search
//! tree: its price is the join engine's cost model, read off the sizes of its table's
//! groups. The walks draw from a fixed generator
//! (SplitMix64) seeded by `(n, id)` and use only integer arithmetic, so the estimate — and with it
//! the partition — is the same on every machine. The subproblems are then dealt out
//! longest-processing-time first: dearest estimate first (ties: lower id first), each to the
//! shard with the least estimated work so far (ties: lower shard first).
//!
//! The plan for K shards is the one a machine with `K × 4` threads would use, so that every
//! shard gets at least 128 subproblems when the board allows it; it never
//! depends on the threads of the machine that runs a shard. K may exceed the number of
//! subproblems: the extra shards are empty and valid.

pub(crate) mod host;
pub(crate) mod launcher;
pub(crate) mod merge;
pub(crate) mod partial;
pub(crate) mod partition;
pub(crate) mod shard;
pub(crate) mod status;

pub use launcher::Launcher;
pub use merge::{
    merge, merge_with, Input, MergeError, Merged, Quorum, Reader, MAX_INPUT_BYTES, MAX_TOTAL_BYTES,
};
pub use partial::{
    count as count_shard, PartialResult, ShardRun, FORMAT_VERSION as SHARD_FORMAT_VERSION,
    FORMAT_VERSIONS_READ as SHARD_FORMAT_VERSIONS_READ, SHARD_FORMAT,
};
pub use partition::{plan as shard_plan, Partition};
pub use shard::{Shard, ShardError, MAX_SHARDS};
pub use status::{status, statuses, Status, StatusError};
