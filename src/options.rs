//! How to count: the options every entry point takes, and the default thread count.

use crate::Engine;

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
    /// half of what this process may take (the join engine's default budget).
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
