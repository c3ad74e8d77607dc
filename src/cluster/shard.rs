//! Shard ids: shard I of K, numbered from 1 (`3/8`), and why one cannot be named or found.

use std::fmt;

use std::str::FromStr;

/// The most shards one run may be split into.
pub const MAX_SHARDS: u32 = 1_000_000;

/// Shard `index` of `count`, numbered from 1: `1/8` … `8/8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    /// Shard `index` (1 ≤ index ≤ count) of `count` (1 ≤ count ≤ [`MAX_SHARDS`]).
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        Shard::checked(i64::from(index), i64::from(count))
    }

    pub(crate) fn checked(index: i64, count: i64) -> Result<Shard, ShardError> {
        let count = u32::try_from(count)
            .ok()
            .filter(|k| (1..=MAX_SHARDS).contains(k))
            .ok_or(ShardError::Count { count })?;
        let index = u32::try_from(index)
            .ok()
            .filter(|i| (1..=count).contains(i))
            .ok_or(ShardError::Index { index, count })?;
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

    /// The name its checkpoint knows the shard's part of the plan by (`shard-3-of-8`): the
    /// selection of [`crate::cluster::ShardRun::selection`].
    pub fn selection_name(self) -> String {
        format!("shard-{}-of-{}", self.index, self.count)
    }

    /// The shard a checkpoint's selection names ([`Shard::selection_name`]), if it names one.
    pub fn of_selection_name(name: &str) -> Option<Shard> {
        let (i, k) = name.strip_prefix("shard-")?.split_once("-of-")?;
        Shard::new(i.parse().ok()?, k.parse().ok()?).ok()
    }

    /// Every shard of a run split `count` ways.
    pub fn all(count: u32) -> impl Iterator<Item = Shard> {
        (1..=count).map(move |index| Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    /// `I/K`, such as `3/8`.
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(s.to_string());
        let (i, k) = s.split_once('/').ok_or_else(syntax)?;
        let number = |x: &str| x.trim().parse::<i64>().map_err(|_| syntax());
        Shard::checked(number(i)?, number(k)?)
    }
}

/// A shard that cannot be named or found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShardError {
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
        "no launcher found: none of SLURM_ARRAY_TASK_ID (Slurm job array), SGE_TASK_ID (Grid \
         Engine array), LSB_JOBINDEX (LSF array), PBS_ARRAY_INDEX (PBS array), \
         AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array), JOB_COMPLETION_INDEX (Kubernetes Indexed \
         Job), OMPI_COMM_WORLD_RANK (Open MPI), PMI_RANK (MPICH), SLURM_PROCID (srun) is set; \
         give the shard as I/K instead"
    )]
    NoLauncher,
    /// A launcher that names this task's index but not how many tasks there are.
    #[error(
        "{launcher} says this is task {index} ({variable}), but not how many tasks the array \
         has: set NQUEENS_SHARDS to K, the array's size, or give the shard as I/K"
    )]
    NoCount {
        /// The launcher's name.
        launcher: &'static str,
        /// The variable that names the index.
        variable: &'static str,
        /// Its value.
        index: i64,
    },
    /// A job array (other than Slurm's) whose task is not in its range.
    #[error(
        "{launcher} task {id} is not in the array {first}-{last}:{step}; use an array of 1-K \
         with step 1, or give the shard as I/K"
    )]
    Stepped {
        /// The launcher's name.
        launcher: &'static str,
        /// The task's index.
        id: i64,
        /// The array's first index.
        first: i64,
        /// Its last index.
        last: i64,
        /// Its step.
        step: i64,
    },
    /// A launcher variable that does not parse.
    #[error("{name}={value:?} {problem}")]
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
        "this is the batch script of a Slurm job of {tasks} tasks (SLURM_NTASKS={tasks} \
         but no SLURM_STEP_ID), which runs once, not once per task: start one task per shard \
         with srun, or give the shard as I/K"
    )]
    BatchScript {
        /// SLURM_NTASKS.
        tasks: i64,
    },
    /// One of a pair of variables without the other.
    #[error("{set} is set but {missing} is not")]
    Missing {
        /// The variable found.
        set: &'static str,
        /// The one missing.
        missing: &'static str,
    },
    /// A rank outside its world.
    #[error("{launcher} says rank {rank} of {size}, which is no shard of 1 to {MAX_SHARDS}")]
    Rank {
        /// Who said so (the launcher's name).
        launcher: &'static str,
        /// The 0-based rank.
        rank: i64,
        /// The number of ranks.
        size: i64,
    },
    /// A job array that is not a range.
    #[error(
        "Slurm array task {id} is not in a range MIN-MAX:STEP \
         (min {min}, step {step}, {count} tasks); use --array=1-K or give the shard as I/K",
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Shard `i` of `k`, for tests that know it exists.
    pub(crate) fn shard(i: u32, k: u32) -> Shard {
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
        assert!(err("1/0").contains("between 1 and 1000000, got 0"));
        assert!(err("1/-3").contains("got -3"));
        assert!(err("1/1000001").contains("got 1000001"));
        assert!(err("3").contains("write I/K"));
        assert!(err("a/b").contains("write I/K"));
    }
}
