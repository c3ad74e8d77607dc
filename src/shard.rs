//! Shards: one run split into K independent pieces that any scheduler can launch.
//!
//! `count N --shard I/K` counts the subproblems of shard I (numbered **from 1** to K) and writes a
//! [`PartialResult`]; [`crate::merge`] checks and sums the K results. Nothing is sent between the
//! shards: each one rebuilds the same plan and the same [`Partition`] from `(n, engine, split
//! depth, K)` and keeps its own subproblems. The shard is a *selection* over the whole plan
//! ([`Partition::owns`]), so ids mean the same in every shard and a shard combines with any other
//! selection, such as "not yet done" from a checkpoint:
//!
//! ```
//! use nqueens::engine::{self, Execution, Unobserved};
//! use nqueens::shard::{ShardRun, Shard};
//! use nqueens::Options;
//!
//! let options = Options { threads: 2, ..Options::default() };
//! let shard: Shard = "2/3".parse().unwrap();
//! let run = ShardRun::new(10, &options, shard).unwrap();
//! let how = Execution { threads: 2, count_nodes: false };
//! let done_before = |_: usize| false; // e.g. read from a checkpoint
//! let outcome = engine::execute(&run.plan, &|s| run.owns(s) && !done_before(s.id), how, &Unobserved)
//!     .unwrap();
//! let partial = run.result(outcome.tally, outcome.elapsed, 2).unwrap();
//! assert_eq!(partial.subproblems, run.partition.ids(shard).len());
//! ```
//!
//! # A balanced, deterministic partition
//! Subproblems differ a lot in cost (a prefix near the centre of the board leaves a bigger tree),
//! so dealing them out by id would leave some shards much longer than others. Each subproblem's
//! cost is estimated by Knuth's (1975) estimator of a backtrack tree's size: a random walk from the
//! subproblem's board to a dead end, multiplying the number of free squares met in each row, and
//! summing those products, averaged over [`PROBES`] walks. The walks draw from a fixed generator
//! (SplitMix64) seeded by `(n, id)` and use only integer arithmetic, so the estimate — and with it
//! the partition — is the same on every machine. The subproblems are then dealt out
//! longest-processing-time first: dearest estimate first (ties: lower id first), each to the
//! shard with the least estimated work so far (ties: lower shard first).
//!
//! The plan for K shards is the one a machine with `K × 4` threads would use, so that every
//! shard gets at least [`SUBPROBLEMS_PER_SHARD`] subproblems when the board allows it; it never
//! depends on the threads of the machine that runs a shard. K may exceed the number of
//! subproblems: the extra shards are empty and valid.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::hash::Hasher;
use std::str::FromStr;
use std::time::Duration;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::engine::{self, Execution, Observer, Tally};
use crate::plan::{Plan, Subproblem, SUBPROBLEMS_PER_THREAD};
use crate::{Engine, Options};

/// The most shards one run may be split into.
pub const MAX_SHARDS: u32 = 10_000;
/// The plan for K shards aims at this many subproblems per shard at least.
pub const SUBPROBLEMS_PER_SHARD: usize = 128;
/// Random walks per subproblem in the cost estimate, at most.
pub const PROBES: u32 = 256;
/// Random walks per plan in the cost estimate: a plan of many subproblems gives each fewer (at
/// least [`MIN_PROBES`]), so that the partition costs about the same, a fraction of a second,
/// whatever K.
pub const PROBES_PER_PLAN: usize = 1 << 22;
/// Random walks per subproblem in the cost estimate, at least.
pub const MIN_PROBES: u32 = 16;
/// The `format` field of a partial result.
pub const FORMAT: &str = "nqueens-shard";
/// The version of the partial-result format (and of the partition) this program writes and reads.
pub const FORMAT_VERSION: u32 = 2;

/// Shard `index` of `count`, numbered from 1: `1/8` … `8/8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    /// Shard `index` (1 ≤ index ≤ count) of `count` (1 ≤ count ≤ [`MAX_SHARDS`]).
    pub fn new(index: u32, count: u32) -> Result<Shard, Error> {
        Shard::checked(i64::from(index), i64::from(count))
    }

    fn checked(index: i64, count: i64) -> Result<Shard, Error> {
        let count = u32::try_from(count)
            .ok()
            .filter(|k| (1..=MAX_SHARDS).contains(k))
            .ok_or(Error::Count { count })?;
        let index = u32::try_from(index)
            .ok()
            .filter(|i| (1..=count).contains(i))
            .ok_or(Error::Index { index, count })?;
        Ok(Shard { index, count })
    }

    /// Which shard, from 1.
    pub fn index(self) -> u32 {
        self.index
    }

    /// How many shards in all (K).
    pub fn count(self) -> u32 {
        self.count
    }

    /// Every shard of a run split `count` ways.
    pub fn all(count: u32) -> impl Iterator<Item = Shard> {
        (1..=count).map(move |index| Shard { index, count })
    }

    /// The shard the launcher that started this process says it is, read through `var`
    /// (`|name| std::env::var(name).ok()` for the real environment).
    ///
    /// Looked for in this order: a Slurm job array (`SLURM_ARRAY_TASK_ID` with
    /// `SLURM_ARRAY_TASK_MIN`/`_MAX`/`_STEP` or `_COUNT`; the array may start at 0 or 1 and have
    /// a step), Open MPI (`OMPI_COMM_WORLD_RANK`/`_SIZE`), MPICH and other PMI launchers
    /// (`PMI_RANK`/`PMI_SIZE`), then `srun` (`SLURM_PROCID`/`SLURM_NTASKS`). MPI comes before
    /// `srun` because `mpirun` inside a Slurm job inherits the job's `SLURM_*` variables.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<(Shard, Launcher), Error> {
        let number = |name: &'static str| -> Result<Option<i64>, Error> {
            var(name)
                .map(|value| {
                    value.trim().parse::<i64>().map_err(|_| Error::Variable {
                        name,
                        value,
                        problem: "is not a whole number",
                    })
                })
                .transpose()
        };
        let pair = |rank: &'static str, size: &'static str| -> Result<Option<(i64, i64)>, Error> {
            match (number(rank)?, number(size)?) {
                (None, None) => Ok(None),
                (Some(r), Some(s)) => Ok(Some((r, s))),
                (Some(_), None) => Err(Error::Missing {
                    set: rank,
                    missing: size,
                }),
                (None, Some(_)) => Err(Error::Missing {
                    set: size,
                    missing: rank,
                }),
            }
        };
        let zero_based = |launcher: Launcher, (rank, size): (i64, i64)| {
            let shard = Shard::checked(rank.saturating_add(1), size).map_err(|_| Error::Rank {
                launcher,
                rank,
                size,
            })?;
            Ok((shard, launcher))
        };
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            return slurm_array(id, number).map(|s| (s, Launcher::SlurmArray));
        }
        if let Some(p) = pair("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE")? {
            return zero_based(Launcher::OpenMpi, p);
        }
        if let Some(p) = pair("PMI_RANK", "PMI_SIZE")? {
            return zero_based(Launcher::Pmi, p);
        }
        if let Some(p) = pair("SLURM_PROCID", "SLURM_NTASKS")? {
            // The batch script of `sbatch -n K` runs once, as task 0 of K: counting shard 1 and
            // calling it done would leave K - 1 shards uncounted. Only srun's tasks (in a job
            // step) are the K shards.
            if p.1 > 1 && var("SLURM_STEP_ID").is_none() && var("SLURM_STEPID").is_none() {
                return Err(Error::BatchScript { tasks: p.1 });
            }
            return zero_based(Launcher::Srun, p);
        }
        Err(Error::NoLauncher)
    }
}

/// Position of `id` in a Slurm job array `MIN-MAX:STEP` (or `_COUNT` tasks from `MIN`).
fn slurm_array(
    id: i64,
    number: impl Fn(&'static str) -> Result<Option<i64>, Error>,
) -> Result<Shard, Error> {
    let min = number("SLURM_ARRAY_TASK_MIN")?.ok_or(Error::Missing {
        set: "SLURM_ARRAY_TASK_ID",
        missing: "SLURM_ARRAY_TASK_MIN",
    })?;
    let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1);
    let count = match (
        number("SLURM_ARRAY_TASK_MAX")?,
        number("SLURM_ARRAY_TASK_COUNT")?,
    ) {
        (Some(max), Some(count)) if step > 0 && (max - min) / step + 1 != count => {
            // A list such as --array=1,4,9: the task's position cannot be known.
            return Err(Error::Array {
                id,
                min,
                step,
                count: Some(count),
            });
        }
        (Some(max), _) if step > 0 => (max - min) / step + 1,
        (None, Some(count)) => count,
        (None, None) => {
            return Err(Error::Missing {
                set: "SLURM_ARRAY_TASK_ID",
                missing: "SLURM_ARRAY_TASK_MAX or SLURM_ARRAY_TASK_COUNT",
            })
        }
        _ => {
            return Err(Error::Array {
                id,
                min,
                step,
                count: None,
            })
        }
    };
    let offset = id - min;
    if step <= 0 || offset < 0 || offset % step != 0 {
        return Err(Error::Array {
            id,
            min,
            step,
            count: Some(count),
        });
    }
    Shard::checked(offset / step + 1, count).map_err(|_| Error::Array {
        id,
        min,
        step,
        count: Some(count),
    })
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = Error;

    /// `I/K`, such as `3/8`.
    fn from_str(s: &str) -> Result<Shard, Error> {
        let syntax = || Error::Syntax(s.to_string());
        let (i, k) = s.split_once('/').ok_or_else(syntax)?;
        let number = |x: &str| x.trim().parse::<i64>().map_err(|_| syntax());
        Shard::checked(number(i)?, number(k)?)
    }
}

/// Who started this process, as [`Shard::from_env`] found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Launcher {
    /// A Slurm job array (`sbatch --array`).
    SlurmArray,
    /// Open MPI's `mpirun`.
    OpenMpi,
    /// MPICH's `mpiexec` or another PMI launcher.
    Pmi,
    /// Slurm's `srun`.
    Srun,
}

impl fmt::Display for Launcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Launcher::SlurmArray => "the Slurm job array",
            Launcher::OpenMpi => "Open MPI",
            Launcher::Pmi => "PMI (MPICH)",
            Launcher::Srun => "srun",
        })
    }
}

/// A shard that cannot be named or found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Not `I/K`.
    #[error(
        "'{0}' is not a shard: write I/K, shard I of K with I from 1 to K (such as 3/8), or auto"
    )]
    Syntax(String),
    /// K out of range.
    #[error("the number of shards must be between 1 and {MAX_SHARDS}, got {count}")]
    Count {
        /// The count asked for.
        count: i64,
    },
    /// I out of range.
    #[error("shard {index}/{count} does not exist: shards are numbered from 1 to {count}")]
    Index {
        /// The index asked for.
        index: i64,
        /// K.
        count: u32,
    },
    /// `--shard auto` outside any known launcher.
    #[error(
        "--shard auto found no launcher: none of SLURM_ARRAY_TASK_ID (Slurm job array), \
         OMPI_COMM_WORLD_RANK (Open MPI), PMI_RANK (MPICH), SLURM_PROCID (srun) is set; \
         give --shard I/K instead"
    )]
    NoLauncher,
    /// A launcher variable that does not parse.
    #[error("--shard auto: {name}={value:?} {problem}")]
    Variable {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// The batch script of a Slurm job of several tasks, not one of its tasks.
    #[error(
        "--shard auto: this is the batch script of a Slurm job of {tasks} tasks (SLURM_NTASKS={tasks} \
         but no SLURM_STEP_ID), which runs once, not once per task: start the shards with \
         'srun nqueens count … --shard auto', or give --shard I/K"
    )]
    BatchScript {
        /// SLURM_NTASKS.
        tasks: i64,
    },
    /// One of a pair of variables without the other.
    #[error("--shard auto: {set} is set but {missing} is not")]
    Missing {
        /// The variable found.
        set: &'static str,
        /// The one missing.
        missing: &'static str,
    },
    /// A rank outside its world.
    #[error("--shard auto: {launcher} says rank {rank} of {size}, which is no shard of 1 to {MAX_SHARDS}")]
    Rank {
        /// Who said so.
        launcher: Launcher,
        /// The 0-based rank.
        rank: i64,
        /// The number of ranks.
        size: i64,
    },
    /// A job array that is not a range.
    #[error(
        "--shard auto: Slurm array task {id} is not in a range MIN-MAX:STEP \
         (min {min}, step {step}, {count} tasks); use --array=1-K or give --shard I/K",
        count = count.map_or("unknown".to_string(), |c| c.to_string())
    )]
    Array {
        /// SLURM_ARRAY_TASK_ID.
        id: i64,
        /// SLURM_ARRAY_TASK_MIN.
        min: i64,
        /// SLURM_ARRAY_TASK_STEP.
        step: i64,
        /// Tasks in the array.
        count: Option<i64>,
    },
}

/// The plan every shard of a run split `shards` ways executes.
///
/// With `options.split_depth` given, that depth; otherwise the automatic plan of a machine with
/// `shards × 4` threads (at least [`SUBPROBLEMS_PER_SHARD`] subproblems per shard). The threads
/// of `options` are not used: every shard must see the same plan.
pub fn plan(n: u32, options: &Options, shards: u32) -> Result<Plan, crate::Error> {
    let virtual_threads = (SUBPROBLEMS_PER_SHARD / SUBPROBLEMS_PER_THREAD) * shards.max(1) as usize;
    crate::plan(
        n,
        &Options {
            threads: virtual_threads,
            ..*options
        },
    )
}

/// Which shard owns each subproblem of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partition {
    shards: u32,
    /// 0-based owner, indexed by subproblem id.
    owner: Vec<u32>,
}

impl Partition {
    /// Deals the subproblems of `plan` out to `shards` shards by estimated cost (see the module
    /// doc). `threads` only speeds the estimate up; the partition does not depend on it.
    pub fn new(plan: &Plan, shards: u32, threads: usize) -> Result<Partition, crate::Error> {
        let shards = shards.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .map_err(|e| crate::Error::Pool(e.to_string()))?;
        let probes = (PROBES_PER_PLAN / plan.len().max(1))
            .clamp(MIN_PROBES as usize, PROBES as usize) as u32;
        let mut costs: Vec<(u128, usize)> = pool.install(|| {
            // The join engine's prices, made on this pool.
            if let Some(join) = plan.join_tables() {
                join.prices();
            }
            plan.subproblems()
                .par_iter()
                .map(|s| (crate::cost::tree_size(plan, s, probes), s.id))
                .collect()
        });
        costs.sort_unstable_by_key(|&(cost, id)| (Reverse(cost), id));
        // Shards beyond the number of subproblems would stay empty: no need to queue them.
        let busy = u32::try_from(plan.len())
            .unwrap_or(u32::MAX)
            .clamp(1, shards);
        let mut load: BinaryHeap<Reverse<(u128, u32)>> =
            (0..busy).map(|s| Reverse((0, s))).collect();
        let mut owner = vec![0; plan.len()];
        for (cost, id) in costs {
            let Reverse((l, s)) = load.pop().expect("at least one shard");
            owner[id] = s;
            load.push(Reverse((l.saturating_add(cost), s)));
        }
        Ok(Partition { shards, owner })
    }

    /// K.
    pub fn shards(&self) -> u32 {
        self.shards
    }

    /// Whether `sub` belongs to `shard`: the selection to pass to [`engine::execute`].
    pub fn owns(&self, shard: Shard, sub: &Subproblem) -> bool {
        self.owner.get(sub.id) == Some(&(shard.index() - 1))
    }

    /// The ids of `shard`'s subproblems, ascending.
    pub fn ids(&self, shard: Shard) -> Vec<usize> {
        let want = shard.index() - 1;
        (0..self.owner.len())
            .filter(|&id| self.owner[id] == want)
            .collect()
    }

    /// A fingerprint of `shard`'s ids: FNV-1a (64 bits) of each id as 8 little-endian bytes.
    pub fn digest(&self, shard: Shard) -> String {
        digest(&self.ids(shard))
    }

    /// For every shard, from shard 1: how many subproblems it has and their [`Partition::digest`],
    /// in one pass over the plan.
    pub fn summaries(&self) -> Vec<(usize, String)> {
        let mut ids = vec![Vec::new(); self.shards as usize];
        for (id, &owner) in self.owner.iter().enumerate() {
            ids[owner as usize].push(id);
        }
        ids.iter().map(|ids| (ids.len(), digest(ids))).collect()
    }
}

fn digest(ids: &[usize]) -> String {
    let mut h = fnv::FnvHasher::default();
    for &id in ids {
        h.write(&(id as u64).to_le_bytes());
    }
    format!("fnv1a64:{:016x}", h.finish())
}

/// What one shard found: everything [`crate::merge`] needs to check it belongs and sum it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartialResult {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`FORMAT_VERSION`] of the program that wrote it.
    pub format_version: u32,
    /// The version of nqueens that wrote it.
    pub program_version: String,
    /// Board size.
    pub n: u32,
    /// The engine of the plan.
    pub engine: Engine,
    /// Split depth of the plan.
    pub split_depth: u32,
    /// Subproblems in the whole plan.
    pub plan_subproblems: usize,
    /// [`Plan::fingerprint`] of the plan, in 8 hex digits.
    pub plan: String,
    /// This shard, from 1.
    pub shard: u32,
    /// K: shards in the run.
    pub shards: u32,
    /// Subproblems of this shard.
    pub subproblems: usize,
    /// [`Partition::digest`] of this shard's ids.
    pub ids_digest: String,
    /// Σ weight × completions over this shard's subproblems (a decimal string: exact in any
    /// JSON reader, which a 64-bit float is not beyond 2^53).
    #[serde(with = "decimal")]
    pub total: u128,
    /// Wall time of this shard's search.
    pub elapsed_seconds: f64,
    /// Worker threads it ran on.
    pub threads: usize,
    /// The machine it ran on.
    pub host: String,
    /// `crc32:` and the CRC-32 of every other field ([`PartialResult::expected_checksum`]): a
    /// changed digit anywhere, or a field copied from another result, is refused by merge.
    pub checksum: String,
}

impl PartialResult {
    /// Which shard this is (an error for a file that names no shard of 1 to K).
    pub fn shard(&self) -> Result<Shard, Error> {
        Shard::new(self.shard, self.shards)
    }

    /// What [`PartialResult::checksum`] must be: the CRC-32 of every other field, one per line,
    /// in the order of the struct (the time as the bits of its `f64`, so no rounding enters).
    pub fn expected_checksum(&self) -> String {
        let fields = [
            self.format.clone(),
            self.format_version.to_string(),
            self.program_version.clone(),
            self.n.to_string(),
            self.engine.name().to_string(),
            self.split_depth.to_string(),
            self.plan_subproblems.to_string(),
            self.plan.clone(),
            self.shard.to_string(),
            self.shards.to_string(),
            self.subproblems.to_string(),
            self.ids_digest.clone(),
            self.total.to_string(),
            format!("{:016x}", self.elapsed_seconds.to_bits()),
            self.threads.to_string(),
            self.host.clone(),
        ];
        format!(
            "crc32:{:08x}",
            crc32fast::hash(fields.join("\n").as_bytes())
        )
    }

    /// Pretty JSON, ending in a newline.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a partial result always serialises") + "\n"
    }
}

/// One shard of one run: the whole plan, its partition, and the shard this process counts.
///
/// [`count`] is `new`, [`engine::execute`] over [`ShardRun::owns`], then [`ShardRun::result`].
/// A caller that already has part of the shard (a checkpoint) executes over `owns && !done`
/// instead and hands `result` the sum of both tallies: `result` refuses a tally that does not
/// cover exactly the shard's subproblems.
#[derive(Debug, Clone)]
pub struct ShardRun {
    /// The plan every shard of the run executes.
    pub plan: Plan,
    /// Who owns which subproblem.
    pub partition: Partition,
    /// The shard counted here.
    pub shard: Shard,
}

impl ShardRun {
    /// The plan and partition of `shard` of the `n`-board ([`plan`], [`Partition::new`]).
    pub fn new(n: u32, options: &Options, shard: Shard) -> Result<ShardRun, crate::Error> {
        let plan = plan(n, options, shard.count())?;
        let partition = Partition::new(&plan, shard.count(), options.threads)?;
        Ok(ShardRun {
            plan,
            partition,
            shard,
        })
    }

    /// Whether `sub` is this shard's: the selection for [`engine::execute`].
    pub fn owns(&self, sub: &Subproblem) -> bool {
        self.partition.owns(self.shard, sub)
    }

    /// The partial result of the shard from the fold of all its subproblems, searched in
    /// `elapsed` on `threads` threads; `Interrupted` when `tally` does not cover the shard.
    pub fn result(
        &self,
        tally: Tally,
        elapsed: Duration,
        threads: usize,
    ) -> Result<PartialResult, crate::Error> {
        let ids = self.partition.ids(self.shard).len();
        if tally.subproblems != ids {
            return Err(crate::Error::Interrupted {
                done: tally.subproblems,
                of: ids,
            });
        }
        let mut result = PartialResult {
            format: FORMAT.to_string(),
            format_version: FORMAT_VERSION,
            program_version: env!("CARGO_PKG_VERSION").to_string(),
            n: self.plan.n(),
            engine: self.plan.engine(),
            split_depth: self.plan.split_depth(),
            plan_subproblems: self.plan.len(),
            plan: format!("{:08x}", self.plan.fingerprint()),
            shard: self.shard.index(),
            shards: self.shard.count(),
            subproblems: ids,
            ids_digest: self.partition.digest(self.shard),
            total: tally.total,
            elapsed_seconds: elapsed.as_secs_f64(),
            threads,
            host: gethostname::gethostname().to_string_lossy().into_owned(),
            checksum: String::new(),
        };
        result.checksum = result.expected_checksum();
        Ok(result)
    }
}

/// Counts shard `shard` of the `n`-board, telling `observer` of each finished subproblem.
pub fn count(
    n: u32,
    options: &Options,
    shard: Shard,
    observer: &dyn Observer,
) -> Result<PartialResult, crate::Error> {
    let run = ShardRun::new(n, options, shard)?;
    let how = Execution {
        threads: options.threads,
        count_nodes: options.count_nodes,
    };
    let outcome = engine::execute(&run.plan, &|s| run.owns(s), how, observer)?;
    run.result(outcome.tally, outcome.elapsed, options.threads)
}

/// A `u128` as a JSON string of decimal digits.
mod decimal {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map_err(|_| D::Error::custom(format!("{text:?} is not a whole number")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env<'a>(vars: &'a [(&str, &str)]) -> impl Fn(&str) -> Option<String> + 'a {
        let map: HashMap<&str, &str> = vars.iter().copied().collect();
        move |name| map.get(name).map(|v| v.to_string())
    }

    fn shard(i: u32, k: u32) -> Shard {
        Shard::new(i, k).unwrap()
    }

    #[test]
    fn shards_are_written_i_of_k_from_one() {
        assert_eq!("3/8".parse(), Ok(shard(3, 8)));
        assert_eq!(" 1 / 1 ".parse(), Ok(shard(1, 1)));
        assert_eq!(shard(3, 8).to_string(), "3/8");
        let err = |s: &str| s.parse::<Shard>().unwrap_err().to_string();
        assert!(err("0/8").contains("numbered from 1 to 8"));
        assert!(err("9/8").contains("shard 9/8 does not exist"));
        assert!(err("1/0").contains("between 1 and 10000, got 0"));
        assert!(err("1/-3").contains("got -3"));
        assert!(err("1/10001").contains("got 10001"));
        assert!(err("3").contains("write I/K"));
        assert!(err("a/b").contains("write I/K"));
    }

    #[test]
    fn slurm_job_arrays_from_0_or_1_and_with_a_step() {
        let from = |vars: &[(&str, &str)]| Shard::from_env(env(vars));
        let array = |id, min, max| {
            from(&[
                ("SLURM_ARRAY_TASK_ID", id),
                ("SLURM_ARRAY_TASK_MIN", min),
                ("SLURM_ARRAY_TASK_MAX", max),
                ("SLURM_PROCID", "0"),
                ("SLURM_NTASKS", "1"),
            ])
        };
        assert_eq!(
            array("1", "1", "8"),
            Ok((shard(1, 8), Launcher::SlurmArray))
        );
        assert_eq!(
            array("0", "0", "7"),
            Ok((shard(1, 8), Launcher::SlurmArray))
        );
        assert_eq!(
            array("7", "0", "7"),
            Ok((shard(8, 8), Launcher::SlurmArray))
        );
        let stepped = from(&[
            ("SLURM_ARRAY_TASK_ID", "8"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "12"),
            ("SLURM_ARRAY_TASK_STEP", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(stepped, Ok((shard(3, 4), Launcher::SlurmArray)));
        let counted = from(&[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "16"),
        ]);
        assert_eq!(counted, Ok((shard(5, 16), Launcher::SlurmArray)));
        // --array=1,4,9: no position can be known.
        let listed = from(&[
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "9"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ]);
        assert!(listed.unwrap_err().to_string().contains("--array=1-K"));
        let no_min = from(&[("SLURM_ARRAY_TASK_ID", "4")]).unwrap_err();
        assert!(no_min.to_string().contains("SLURM_ARRAY_TASK_MIN is not"));
        let bad = array("x", "1", "8").unwrap_err().to_string();
        assert!(bad.contains("SLURM_ARRAY_TASK_ID=\"x\" is not a whole number"));
    }

    #[test]
    fn mpi_and_srun_ranks_count_from_zero() {
        let from = |vars: &[(&str, &str)]| Shard::from_env(env(vars));
        assert_eq!(
            from(&[("OMPI_COMM_WORLD_RANK", "0"), ("OMPI_COMM_WORLD_SIZE", "4")]),
            Ok((shard(1, 4), Launcher::OpenMpi))
        );
        assert_eq!(
            from(&[("PMI_RANK", "3"), ("PMI_SIZE", "4")]),
            Ok((shard(4, 4), Launcher::Pmi))
        );
        assert_eq!(
            from(&[
                ("SLURM_PROCID", "2"),
                ("SLURM_NTASKS", "3"),
                ("SLURM_STEP_ID", "0")
            ]),
            Ok((shard(3, 3), Launcher::Srun))
        );
        // `sbatch -n 3 --wrap 'nqueens … --shard auto'`: the batch script, not srun's tasks.
        let batch = from(&[("SLURM_PROCID", "0"), ("SLURM_NTASKS", "3")]).unwrap_err();
        assert_eq!(batch, Error::BatchScript { tasks: 3 });
        assert!(batch
            .to_string()
            .contains("start the shards with 'srun nqueens"));
        // A job of one task needs no srun.
        assert_eq!(
            from(&[("SLURM_PROCID", "0"), ("SLURM_NTASKS", "1")]),
            Ok((shard(1, 1), Launcher::Srun))
        );
        // mpirun inside a Slurm allocation: the MPI rank, not the inherited SLURM_PROCID.
        assert_eq!(
            from(&[
                ("SLURM_PROCID", "0"),
                ("SLURM_NTASKS", "1"),
                ("OMPI_COMM_WORLD_RANK", "5"),
                ("OMPI_COMM_WORLD_SIZE", "6"),
            ]),
            Ok((shard(6, 6), Launcher::OpenMpi))
        );
        let err = |vars: &[(&str, &str)]| from(vars).unwrap_err().to_string();
        assert!(err(&[("PMI_RANK", "1")]).contains("PMI_RANK is set but PMI_SIZE is not"));
        assert!(err(&[("SLURM_NTASKS", "4")]).contains("SLURM_NTASKS is set but SLURM_PROCID"));
        assert!(err(&[("PMI_RANK", "4"), ("PMI_SIZE", "4")]).contains("rank 4 of 4"));
        assert!(err(&[]).contains("found no launcher"));
    }

    #[test]
    fn every_subproblem_belongs_to_exactly_one_shard() {
        let options = Options::default();
        for (n, k) in [(10, 1), (12, 7), (6, 1000)] {
            let plan = plan(n, &options, k).unwrap();
            let partition = Partition::new(&plan, k, 2).unwrap();
            for sub in plan.subproblems() {
                let owners = Shard::all(k).filter(|&s| partition.owns(s, sub)).count();
                assert_eq!(owners, 1, "n = {n}, K = {k}, id = {}", sub.id);
            }
            let sizes: usize = Shard::all(k).map(|s| partition.ids(s).len()).sum();
            assert_eq!(sizes, plan.len());
            let one_pass: Vec<_> = Shard::all(k)
                .map(|s| (partition.ids(s).len(), partition.digest(s)))
                .collect();
            assert_eq!(partition.summaries(), one_pass);
        }
    }

    #[test]
    fn the_partition_depends_on_n_and_k_only() {
        let few = Options {
            threads: 1,
            ..Options::default()
        };
        let many = Options {
            threads: 64,
            ..Options::default()
        };
        let (a, b) = (plan(14, &few, 5).unwrap(), plan(14, &many, 5).unwrap());
        assert_eq!(a, b);
        assert_eq!(
            Partition::new(&a, 5, 1).unwrap(),
            Partition::new(&b, 5, 3).unwrap()
        );
        assert_eq!(
            Partition::new(&a, 5, 1).unwrap().digest(shard(2, 5)),
            Partition::new(&a, 5, 2).unwrap().digest(shard(2, 5))
        );
    }

    #[test]
    fn many_shards_get_a_finer_plan_and_every_shard_gets_work() {
        // A backtracking engine: the join plan's units are fixed by n.
        let options = Options {
            engine: Some(Engine::Symmetry),
            ..Options::default()
        };
        let coarse = plan(16, &options, 1).unwrap();
        let fine = plan(16, &options, 200).unwrap();
        assert!(fine.split_depth() > coarse.split_depth());
        assert!(fine.len() >= 200 * SUBPROBLEMS_PER_SHARD);
        let partition = Partition::new(&fine, 200, 2).unwrap();
        assert!(Shard::all(200).all(|s| !partition.ids(s).is_empty()));
    }

    #[test]
    fn more_shards_than_subproblems_leaves_some_empty() {
        let plan = plan(5, &Options::default(), 1000).unwrap();
        assert!(plan.len() < 1000);
        let partition = Partition::new(&plan, 1000, 2).unwrap();
        let empty = Shard::all(1000)
            .filter(|&s| partition.ids(s).is_empty())
            .count();
        assert_eq!(empty, 1000 - plan.len());
    }

    /// The work of each shard, in queens placed by the real search.
    fn work(plan: &Plan, owner: impl Fn(usize) -> usize, k: usize) -> Vec<u64> {
        let mut load = vec![0; k];
        for sub in plan.subproblems() {
            load[owner(sub.id)] += crate::engine::solve(plan, sub, true).nodes;
        }
        load
    }

    fn spread(load: &[u64]) -> f64 {
        let mean = load.iter().sum::<u64>() as f64 / load.len() as f64;
        *load.iter().max().unwrap() as f64 / mean
    }

    #[test]
    fn the_estimate_balances_real_work_better_than_dealing_by_id() {
        let (n, k) = (14, 16);
        let plan = plan(n, &Options::default(), k).unwrap();
        let partition = Partition::new(&plan, k, 2).unwrap();
        let balanced = spread(&work(&plan, |id| partition.owner[id] as usize, k as usize));
        let dealt = spread(&work(&plan, |id| id % k as usize, k as usize));
        eprintln!("slowest/mean: estimate {balanced:.3}, by id {dealt:.3}");
        assert!(balanced < dealt, "{balanced} vs {dealt}");
        assert!(balanced < 1.03, "{balanced}");
    }
}
