//! How to count: the options every entry point takes (the engine, the decomposition, threads,
//! memory), and the default thread count.

/// The worker threads a run uses when none are asked for: the CPUs this process may run on (its
/// affinity mask and control group, which `taskset`, Slurm and containers set), and within a
/// Slurm job no more than it was granted: `SLURM_CPUS_PER_TASK`, and the node's CPUs
/// (`SLURM_CPUS_ON_NODE`) shared among the tasks of this step on the node
/// (`SLURM_STEP_TASKS_PER_NODE`, `srun -n 2` without `-c`): the least of them.
pub fn default_threads() -> usize {
    granted_threads(num_cpus::get(), |name| std::env::var(name).ok())
}

/// [`default_threads`] for a process that may run on `cpus` CPUs, reading the environment
/// through `var`.
pub(crate) fn granted_threads(cpus: usize, var: impl Fn(&str) -> Option<String>) -> usize {
    let number = |name: &str| {
        var(name)
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&k| k >= 1)
    };
    let per_task = number("SLURM_CPUS_PER_TASK");
    // The node's CPUs shared among this step's tasks on this node.
    let per_node = number("SLURM_CPUS_ON_NODE").map(|on_node| {
        let tasks = var("SLURM_STEP_TASKS_PER_NODE")
            .and_then(|list| tasks_on_node(&list, number("SLURM_NODEID").unwrap_or(0)))
            .unwrap_or(1);
        (on_node / tasks.max(1)).max(1)
    });
    [Some(cpus), per_task, per_node]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(cpus)
        .max(1)
}

/// The tasks on node `node` (from 0) of Slurm's tasks-per-node list: `2(x3),1` is 2, 2, 2, 1.
fn tasks_on_node(list: &str, node: usize) -> Option<usize> {
    let mut seen = 0;
    for entry in list.split(',') {
        let (tasks, repeat) = match entry.split_once("(x") {
            Some((tasks, rest)) => (tasks, rest.strip_suffix(')')?.parse::<usize>().ok()?),
            None => (entry, 1),
        };
        seen += repeat;
        if node < seen {
            return tasks.trim().parse().ok();
        }
    }
    None
}

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
#[non_exhaustive]
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

    /// The engine `count` uses for `n` when none is asked for: the fastest (docs/performance.md
    /// compares them): join from n = 15 on, symmetry below;
    /// [`crate::plan()`] falls back to symmetry when even the join engine's smallest pieces
    /// would not fit in memory.
    pub fn fastest(n: u32) -> Engine {
        if (15..=crate::MAX_N).contains(&n) {
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
    /// How the join engine counts a board's units.
    pub decomposition: Decomposition,
}

/// How the join engine counts the units of a board: whole, by their quarter turn (even boards),
/// or cut by the rows of the innermost columns' queens (docs/join.md). They are independent
/// computations of one total, with plans of their own fingerprint: a count confirmed by
/// another decomposition does not repeat a mistake of the first. The other engines have one
/// decomposition only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Decomposition {
    /// The fastest for n ([`Decomposition::fastest_for`]): the innermost key from
    /// [`Decomposition::INNERMOST_FROM`] (odd boards: [`Decomposition::ODD_INNERMOST_FROM`]),
    /// whole units below.
    #[default]
    Fastest,
    /// Every unit of an even board by its quarter turn.
    QuarterTurn,
    /// Every unit whole (odd boards: by the middle queen's row and the quarter turn).
    Whole,
    /// Every unit cut by the rows of its innermost columns' queens (both on even boards, the
    /// east one on odd boards), and counted by the quarter turn.
    Innermost,
}

impl Decomposition {
    /// Every decomposition, the default first.
    pub const ALL: [Decomposition; 4] = [
        Decomposition::Fastest,
        Decomposition::QuarterTurn,
        Decomposition::Whole,
        Decomposition::Innermost,
    ];

    /// The smallest even board that [`Decomposition::Fastest`] counts by the innermost key
    /// ([`Decomposition::Innermost`]); below it, whole units. The key forms far fewer pairs, but
    /// in many shorter lists, each sorted by the counter's pivots: on smaller boards that costs
    /// more than it saves (docs/performance.md). The quarter turn alone is slower than one or
    /// the other at every n.
    pub const INNERMOST_FROM: u32 = 26;

    /// The smallest odd board that [`Decomposition::Fastest`] counts by the innermost key;
    /// below it, whole units: on smaller boards one list of whole units is counted in one go
    /// where the key cuts it into one per row of the innermost queen (docs/performance.md).
    pub const ODD_INNERMOST_FROM: u32 = 27;

    /// What it does, in a few words, for help and messages.
    pub fn about(self) -> &'static str {
        match self {
            Decomposition::Fastest => "the fastest for n",
            Decomposition::QuarterTurn => "every unit by its quarter turn",
            Decomposition::Whole => "every unit whole",
            Decomposition::Innermost => {
                "every unit cut by the rows of its innermost columns' queens"
            }
        }
    }

    /// The decomposition [`Decomposition::Fastest`] stands for on an `n`-board.
    pub fn fastest_for(n: u32) -> Decomposition {
        let from = if n.is_multiple_of(2) {
            Decomposition::INNERMOST_FROM
        } else {
            Decomposition::ODD_INNERMOST_FROM
        };
        if n >= from {
            Decomposition::Innermost
        } else {
            Decomposition::Whole
        }
    }

    /// Its name on the command line and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Decomposition::Fastest => "fastest",
            Decomposition::QuarterTurn => "quarter-turn",
            Decomposition::Whole => "whole",
            Decomposition::Innermost => "innermost",
        }
    }
}

impl std::fmt::Display for Decomposition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
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
    pub fn with_count_nodes(self, count_nodes: bool) -> Options {
        Options {
            count_nodes,
            ..self
        }
    }

    /// These options with the join engine's `decomposition` of even boards.
    pub fn with_decomposition(self, decomposition: Decomposition) -> Options {
        Options {
            decomposition,
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
            decomposition: Decomposition::Fastest,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn threads(cpus: usize, vars: &[(&str, &str)]) -> usize {
        granted_threads(cpus, |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn a_run_takes_the_least_it_was_granted() {
        assert_eq!(threads(16, &[]), 16);
        assert_eq!(threads(16, &[("SLURM_CPUS_PER_TASK", "4")]), 4);
        // `srun -n 2` without `-c` on a node that granted 2 CPUs: one each.
        let two_tasks = [
            ("SLURM_CPUS_ON_NODE", "2"),
            ("SLURM_STEP_TASKS_PER_NODE", "2"),
        ];
        assert_eq!(threads(16, &two_tasks), 1);
        // The second node of `2(x2),1` holds 2 tasks of 8 CPUs: 4 each; the third 1 of 8.
        let nodes = |id: &'static str| {
            [
                ("SLURM_CPUS_ON_NODE", "8"),
                ("SLURM_STEP_TASKS_PER_NODE", "2(x2),1"),
                ("SLURM_NODEID", id),
            ]
        };
        assert_eq!(threads(16, &nodes("1")), 4);
        assert_eq!(threads(16, &nodes("2")), 8);
        // The affinity mask is the least: 3 CPUs of a 32-CPU node.
        assert_eq!(threads(3, &[("SLURM_CPUS_ON_NODE", "32")]), 3);
        // Nonsense is ignored, never zero threads.
        assert_eq!(
            threads(
                4,
                &[("SLURM_CPUS_PER_TASK", "0"), ("SLURM_CPUS_ON_NODE", "x")]
            ),
            4
        );
        assert_eq!(tasks_on_node("2(x3),1", 3), Some(1));
        assert_eq!(tasks_on_node("2(x3),1", 4), None);
    }
}
