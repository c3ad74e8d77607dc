//! The command line: clap definitions, checked and turned into plain [`Command`] values.
//!
//! Nothing below this module sees a clap type.

use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use nqueens::cluster::Shard;
use nqueens::solve::Format;
use nqueens::{Decomposition, Engine, Options, MAX_SPLIT_DEPTH};

use crate::bench;

use crate::command::{Command, Watch};

mod values;

use values::{
    fresh_seed, parse_known_n, parse_limit, parse_memory, parse_n, parse_percent, parse_seconds,
    parse_shard, parse_sizes, parse_threads, test_seam, ShardArg,
};

// Each subcommand's examples are written once, as a literal, so that its own help shows them
// and the program's help puts them all together.
macro_rules! count_examples {
    () => {
        "  nqueens count 8               count the 92 solutions of the 8-queens problem\n  nqueens count 16 -j 1         count n = 16 on one thread\n  nqueens count 8..16           one table row per n from 8 to 16\n  nqueens count 4..12 --json    JSON Lines, one object per n\n  nqueens count 20 --checkpoint n20.ckpt\n                                keep finished work in n20.ckpt; after a crash or Ctrl-C\n                                the same command resumes where the run stopped\n  nqueens count 18 --shard 3/8 -o s3.json\n                                shard 3 of 8 (numbered from 1) as a partial result\n  srun nqueens count 21 --shard auto -o 'n21-{shard}.json'\n                                one shard per Slurm task (or MPI rank)\n"
    };
}
macro_rules! merge_examples {
    () => {
        "  nqueens merge s*.json         check the partial results and print the count\n  nqueens merge s*.json --json  the count as one JSON object\n  cat s*.json | nqueens merge - read the partial results from stdin\n"
    };
}
macro_rules! solve_examples {
    () => {
        "  nqueens solve 8               the 92 boards of the 8-queens problem, then the count\n  nqueens solve 8 --unique      one board of each of the 12 symmetry classes\n  nqueens solve 12 --format columns --limit 5\n  nqueens solve 4 --trace       the search step by step\n"
    };
}
macro_rules! estimate_examples {
    () => {
        "  nqueens estimate 21           CPU and wall time of counting n = 21 here\n  nqueens estimate 27 --shards 10000\n                                how long n = 27 takes: CPU, wall and per shard\n  nqueens estimate 24 -j 32 --seconds 60 --json\n                                on 32 threads, a longer sample, as JSON\n"
    };
}

const EXAMPLES: &str = concat!(
    "Examples:\n",
    count_examples!(),
    merge_examples!(),
    solve_examples!(),
    estimate_examples!(),
    "  nqueens completions bash      shell completions (bash, zsh, fish, elvish, powershell)"
);
const COUNT_EXAMPLES: &str = concat!("Examples:\n", count_examples!());
const MERGE_EXAMPLES: &str = concat!("Examples:\n", merge_examples!());
/// `--version`: the package's version and the commit it was built from ("-dirty" when the tree
/// had changes), which a published count names.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("NQUEENS_GIT_COMMIT"),
    ")"
);
const STATUS_EXAMPLES: &str = "Examples:
  nqueens status nqueens-n21-k32           a campaign's folder, as count.sbatch lays it out
  nqueens status --json nqueens-n21-k32    the same as one JSON object
  nqueens status --stalled 7200 DIR        stalled: no checkpoint change for two hours
";
const SOLVE_EXAMPLES: &str = concat!("Examples:\n", solve_examples!());
const ESTIMATE_EXAMPLES: &str = concat!("Examples:\n", estimate_examples!());

#[derive(Debug, Parser)]
#[command(
    name = "nqueens",
    version = VERSION,
    about = "Counts the solutions of the N-Queens problem on every core, checked against OEIS A000170",
    after_help = EXAMPLES,
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: CliCommand,
}

#[derive(Debug, Subcommand)]
enum CliCommand {
    /// Count all solutions of one board size or of a range of sizes
    #[command(after_help = COUNT_EXAMPLES)]
    Count(CountArgs),
    /// Check the partial results of `count N --shard I/K` and sum them into the count
    #[command(after_help = MERGE_EXAMPLES)]
    Merge(MergeArgs),
    /// How far a campaign of shards is: done, under way, not started, stalled, the share of the
    /// work done, the CPU spent and left, and what to submit again
    #[command(after_help = STATUS_EXAMPLES)]
    Status(StatusArgs),
    /// Benchmark counting at 1, 2, 4, … threads, every result checked against the known counts
    #[command(after_help = BENCH_EXAMPLES)]
    Bench(BenchArgs),
    /// List every solution of one board size in lexicographic order of the columns, then the count
    #[command(after_help = SOLVE_EXAMPLES)]
    Solve(SolveArgs),
    /// Predict the CPU and wall time of a count (and of one shard) from a timed random sample of
    /// its work, with a 95% confidence interval
    ///
    /// The time's interval covers this sample on this machine at the speed it ran during the
    /// sampling, a drift within the run included; it cannot cover another machine, nor this one
    /// slower or faster later (a shared machine drifts by 10% or more between runs): time a
    /// short estimate on the machine that will count. The pairs' intervals are of the work
    /// alone, which no clock enters: they hold on any machine.
    #[command(after_help = ESTIMATE_EXAMPLES)]
    Estimate(EstimateArgs),
    /// Print the shell completion script for SHELL (e.g. `nqueens completions bash >
    /// /etc/bash_completion.d/nqueens`)
    Completions {
        /// The shell
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a manual page in roff (`nqueens man count > nqueens-count.1; man
    /// ./nqueens-count.1`), or write every page into a folder (`--dir`)
    #[command(after_help = MAN_EXAMPLES)]
    Man(ManArgs),
}

const MAN_EXAMPLES: &str = "Examples:
  nqueens man > nqueens.1                 the program's page
  nqueens man count > nqueens-count.1     the page of count (or merge, status, …)
  nqueens man --dir /usr/local/share/man/man1
                                          every page, nqueens.1 and nqueens-COMMAND.1
";

#[derive(Debug, Args)]
struct ManArgs {
    /// The command whose page to print [default: the program's own page]
    #[arg(value_name = "COMMAND", value_parser = clap::builder::PossibleValuesParser::new(PAGES),
          conflicts_with = "dir")]
    command: Option<String>,

    /// Write every page into DIR (nqueens.1, nqueens-count.1, …) instead of printing one
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// The commands that have a manual page of their own: every one (a test holds the list to them).
const PAGES: [&str; 8] = [
    "count",
    "merge",
    "status",
    "bench",
    "solve",
    "estimate",
    "completions",
    "man",
];

#[derive(Debug, Args)]
struct EstimateArgs {
    /// Board size N (1 to 32)
    #[arg(value_name = "N", value_parser = parse_n, allow_hyphen_values = true)]
    n: u32,

    /// Threads the count would run on, and the sample is drawn on [default: the CPUs this
    /// process may use (affinity, cgroup, SLURM_CPUS_PER_TASK)]
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,

    /// Also predict the time of one of K shards
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    shards: Option<u32>,

    /// Search engine: mirror, symmetry or join [default: the fastest for n]
    #[arg(long, value_name = "NAME")]
    engine: Option<EngineArg>,

    /// How the join engine counts an even board, as for `count`
    #[arg(long, value_name = "NAME", default_value = "fastest")]
    decomposition: DecompositionArg,

    /// Memory the join engine may hold, as for `count` (e.g. 4G)
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    memory: Option<u64>,

    /// Seconds to spend sampling (the pieces under way when time is up are finished); with
    /// --until, the most [default: 10, or 3600 with --until]
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    seconds: Option<Duration>,

    /// Sample until the 95% interval is within this share of the value, e.g. 10% (at least 10
    /// draws; --seconds still caps it, and the report says which came first)
    #[arg(long, value_name = "PERCENT", value_parser = parse_percent)]
    until: Option<f64>,

    /// Seed of the random sample (default: a fresh one each run, named in the report: two
    /// estimates are independent samples, and one can be drawn again with its seed)
    #[arg(long, value_name = "SEED")]
    seed: Option<u64>,

    /// Print the estimate as one JSON object (every time in seconds, with its 95% margin)
    #[arg(long)]
    json: bool,

    /// Print a progress line on stderr every SECONDS (default 5) when stderr is not a terminal
    /// (a terminal always gets a progress bar): the draws so far and what they predict
    #[arg(long, value_name = "SECONDS", num_args = 0..=1, require_equals = true,
          default_missing_value = "5", value_parser = parse_seconds)]
    progress: Option<Duration>,

    /// Show no progress
    #[arg(short, long, conflicts_with = "progress")]
    quiet: bool,
}

const BENCH_EXAMPLES: &str = "\
Examples:
  nqueens bench                          n chosen so the widest run takes at least 1 s
  nqueens bench --n 15 --threads 1,2,8   given n and thread counts
  nqueens bench --export-json b.json --plot speedup.svg";

#[derive(Debug, Args)]
struct BenchArgs {
    /// Board size (1 to 27, so that every count can be checked) [default: calibrated so that the
    /// run on the most threads takes at least 1 s, a one-thread run at most about a minute]
    #[arg(long, value_name = "N", value_parser = parse_known_n)]
    n: Option<u32>,

    /// Thread counts, comma-separated, e.g. 1,2,8; 1 is always measured (the speedup's baseline)
    /// [default: 1, 2, 4, … up to the logical cores, and the physical core count]
    #[arg(short = 'j', long, value_name = "LIST", value_delimiter = ',', value_parser = parse_threads)]
    threads: Vec<usize>,

    /// Timed runs per thread count
    #[arg(long, value_name = "R", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    runs: u32,

    /// Untimed warm-up runs per thread count, before the timed ones
    #[arg(long, value_name = "W", default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=1000))]
    warmup: u32,

    /// Search engine: mirror, symmetry or join [default: the fastest for n]
    #[arg(long, value_name = "NAME")]
    engine: Option<EngineArg>,

    /// Write every result and the header as JSON to FILE
    #[arg(long, value_name = "FILE")]
    export_json: Option<PathBuf>,

    /// Write one CSV line per thread count to FILE
    #[arg(long, value_name = "FILE")]
    export_csv: Option<PathBuf>,

    /// Write the header and the summary table as Markdown to FILE
    #[arg(long, value_name = "FILE")]
    export_markdown: Option<PathBuf>,

    /// Draw speedup against threads (and the ideal linear speedup) as SVG to FILE
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct CountArgs {
    /// Board size N (1 to 32), or an inclusive range A..B such as 8..16
    #[arg(value_name = "N|A..B", value_parser = parse_sizes, allow_hyphen_values = true)]
    sizes: RangeInclusive<u32>,

    /// Worker threads [default: the CPUs this process may use (affinity, cgroup,
    /// SLURM_CPUS_PER_TASK)]
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,

    /// Search engine: mirror, symmetry or join [default: the fastest for each n]
    #[arg(long, value_name = "NAME")]
    engine: Option<EngineArg>,

    // The help is made from the decompositions the library has (`decomposition_help`).
    #[arg(
        long,
        value_name = "NAME",
        default_value = "fastest",
        hide_default_value = true,
        help = decomposition_help()
    )]
    decomposition: DecompositionArg,

    /// Pre-place this many rows to form the subproblems [default: enough for 32 per thread]
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_SPLIT_DEPTH)))]
    split_depth: Option<u32>,

    /// Memory the join engine may hold, e.g. 4G or 512M (K, M, G, T: powers of 1024); its
    /// quadrant table is kept only when it fits in half of it [default: half of the memory this
    /// process may take: free memory, cgroup, ulimit -v]
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    memory: Option<u64>,

    /// Print one JSON object per board size (JSON Lines) instead of a table, with the plan's
    /// details (subproblems, split depth) beside the counts
    #[arg(long)]
    json: bool,

    /// Record finished work in FILE and resume from it: running the same command again skips
    /// what FILE holds (one board size only)
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,

    /// Print a progress line on stderr every SECONDS (default 5) when stderr is not a terminal
    /// (a terminal always gets a progress bar)
    #[arg(long, value_name = "SECONDS", num_args = 0..=1, require_equals = true,
          default_missing_value = "5", value_parser = parse_seconds)]
    progress: Option<Duration>,

    /// Show no progress
    #[arg(short, long, conflicts_with = "progress")]
    quiet: bool,

    /// Count only shard I of K, numbered from 1 (1/8 … 8/8), and write a partial result as JSON
    /// for `nqueens merge`; `auto` takes I and K from a Slurm job array, srun, or MPI
    #[arg(long, value_name = "I/K|auto", value_parser = parse_shard, conflicts_with = "json")]
    shard: Option<ShardArg>,

    /// Write the partial result of --shard to FILE instead of stdout; {shard} and {shards} in
    /// FILE stand for I and K (-o 'n21-{shard}-of-{shards}.json')
    #[arg(short, long, value_name = "FILE", requires = "shard")]
    output: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct MergeArgs {
    /// Partial results of `count N --shard I/K`: files of one or more JSON objects, folders
    /// (every .json file in them), - for stdin
    #[arg(value_name = "FILES", required = true)]
    files: Vec<PathBuf>,

    /// Print the count as one JSON object instead of a table
    #[arg(long)]
    json: bool,

    /// Require every shard counted on Q different hosts, with equal totals (the shard files
    /// name their hosts) [default: 1 up to n = 27, where the published count checks the total;
    /// above, none: give --quorum 2, or --quorum 1 to accept one count of each shard]
    #[arg(long, value_name = "Q", value_parser = clap::value_parser!(u32).range(1..=16))]
    quorum: Option<u32>,

    /// With --quorum: count a shard file without a machine identity (written by nqueens before
    /// format 4, or on a system with neither a machine id nor a boot id) as the machine its host
    /// name names; by default it counts as no machine
    #[arg(long, requires = "quorum")]
    trust_host_names: bool,
}

#[derive(Debug, Args)]
struct StatusArgs {
    /// The campaign's folders: its shard results (.json) and checkpoints (.ckpt)
    #[arg(value_name = "DIRS", required = true)]
    dirs: Vec<PathBuf>,

    /// Print one JSON object instead of text: the campaign's status, with every campaign in the
    /// folders (one board by several decompositions or shard counts) under "campaigns", the
    /// first among them
    #[arg(long)]
    json: bool,

    /// A shard under way whose checkpoint has not changed for this many seconds is stalled
    #[arg(long, value_name = "SECONDS", default_value = "3600", value_parser = parse_seconds)]
    stalled: Duration,

    /// Worker threads that price the plan [default: every logical core]
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,
}

/// `--engine`: the library's [`Engine`], as clap lists and parses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum EngineArg {
    Mirror,
    Symmetry,
    Join,
}

impl From<EngineArg> for Engine {
    fn from(arg: EngineArg) -> Engine {
        match arg {
            EngineArg::Mirror => Engine::Mirror,
            EngineArg::Symmetry => Engine::Symmetry,
            EngineArg::Join => Engine::Join,
        }
    }
}

/// `--decomposition`'s help, from [`Decomposition::ALL`] and the board the fastest changes at,
/// so that it says what the library does.
fn decomposition_help() -> String {
    let ways: Vec<String> = Decomposition::ALL
        .into_iter()
        .filter(|&d| d != Decomposition::Fastest)
        .map(|d| format!("{d} ({})", d.about()))
        .collect();
    let (from, odd) = (
        Decomposition::INNERMOST_FROM,
        Decomposition::ODD_INNERMOST_FROM,
    );
    format!(
        "How the join engine counts a board: {} (quarter-turn: even boards); independent ways \
         to one total, with plans of their own, so that one confirms another's campaign \
         [default: fastest: {} from n = {from} and odd n = {odd}, {} below]",
        ways.join(", "),
        Decomposition::fastest_for(from),
        Decomposition::fastest_for(from - 2),
    )
}

/// `--decomposition`: the library's [`Decomposition`], as clap lists and parses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DecompositionArg {
    Fastest,
    QuarterTurn,
    Whole,
    Innermost,
}

impl From<DecompositionArg> for Decomposition {
    fn from(arg: DecompositionArg) -> Decomposition {
        match arg {
            DecompositionArg::Fastest => Decomposition::Fastest,
            DecompositionArg::QuarterTurn => Decomposition::QuarterTurn,
            DecompositionArg::Whole => Decomposition::Whole,
            DecompositionArg::Innermost => Decomposition::Innermost,
        }
    }
}

/// `--format` of `solve`: the library's [`Format`], as clap lists and parses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    Board,
    Json,
    Columns,
}

impl From<FormatArg> for Format {
    fn from(arg: FormatArg) -> Format {
        match arg {
            FormatArg::Board => Format::Board,
            FormatArg::Json => Format::Json,
            FormatArg::Columns => Format::Columns,
        }
    }
}

#[derive(Debug, Args)]
struct SolveArgs {
    /// Board size N (1 to 32)
    #[arg(value_name = "N", value_parser = parse_n, allow_hyphen_values = true)]
    n: u32,

    /// board: n lines of Q and . per solution and a blank line, then the count;
    /// json: one array of solutions, each an array of n strings such as ".Q..";
    /// columns: one line per solution, the 0-based column of the queen in each row.
    /// With json and columns the count goes to stderr, so stdout is only data
    #[arg(long, value_name = "FORMAT", default_value = "board")]
    format: FormatArg,

    /// Stop after K solutions (K ≥ 1)
    #[arg(long, value_name = "K", value_parser = parse_limit, allow_hyphen_values = true)]
    limit: Option<u64>,

    /// Only one solution of each symmetry class (rotations and reflections): the canonical one,
    /// the smallest of its 8 images
    #[arg(long)]
    unique: bool,

    /// Show the search step by step, each placement and backtrack as a board (one thread; for
    /// small n)
    #[arg(long, conflicts_with_all = ["format", "unique", "threads"])]
    trace: bool,

    /// Worker threads [default: the CPUs this process may use (affinity, cgroup,
    /// SLURM_CPUS_PER_TASK)]; the order of the output never depends on it
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,
}

/// Parses the command line. `Err` holds the exit status and what to print: help and version
/// (status 0, stdout) or one line naming the problem (status 2, stderr).
pub fn parse() -> Result<Command, clap::Error> {
    Ok(match Cli::try_parse()?.command {
        CliCommand::Completions { shell } => {
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "nqueens", &mut text);
            Command::Print(text)
        }
        CliCommand::Man(args) => {
            let pages = crate::manual::pages(Cli::command());
            match (args.dir, args.command) {
                (Some(dir), _) => Command::WritePages {
                    dir,
                    pages: pages.into_iter().map(|p| (p.file, p.roff)).collect(),
                },
                (None, command) => {
                    let file =
                        command.map_or("nqueens.1".to_string(), |c| format!("nqueens-{c}.1"));
                    let page = pages.into_iter().find(|p| p.file == file);
                    Command::ShowPage(page.expect("every command has a page").roff)
                }
            }
        }
        CliCommand::Count(args) if args.shard.is_some() => count_shard(args)?,
        CliCommand::Count(args) => count(args)?,
        CliCommand::Merge(args) => Command::Merge {
            files: args.files,
            json: args.json,
            quorum: match (args.quorum, args.trust_host_names) {
                (None, _) => nqueens::cluster::Quorum::Default,
                (Some(q), false) => nqueens::cluster::Quorum::Hosts(q),
                (Some(q), true) => nqueens::cluster::Quorum::HostsByName(q),
            },
        },
        CliCommand::Bench(args) => bench(args),
        CliCommand::Status(args) => Command::Status {
            dirs: args.dirs,
            json: args.json,
            stalled: args.stalled,
            threads: args.threads.unwrap_or_else(nqueens::default_threads),
        },
        CliCommand::Estimate(args) => Command::Estimate {
            n: args.n,
            options: options(
                args.threads,
                args.engine,
                None,
                args.memory,
                args.decomposition,
            ),
            shards: args.shards,
            seconds: args
                .seconds
                .map_or(if args.until.is_some() { 3600.0 } else { 10.0 }, |s| {
                    s.as_secs_f64()
                }),
            until: args.until,
            seed: args.seed.unwrap_or_else(fresh_seed),
            json: args.json,
            progress: args.progress,
            quiet: args.quiet,
        },
        CliCommand::Solve(args) => Command::Solve {
            n: args.n,
            options: nqueens::solve::ListOptions::default()
                .with_threads(args.threads.unwrap_or_else(nqueens::default_threads))
                .with_limit(args.limit)
                .with_unique(args.unique),
            format: args.format.into(),
            trace: args.trace,
        },
    })
}

impl CountArgs {
    /// The counting options `count` gives, with or without a shard.
    fn options(&self) -> Options {
        options(
            self.threads,
            self.engine,
            self.split_depth,
            self.memory,
            self.decomposition,
        )
    }
}

/// The counting options of a command line: every command that counts builds them here.
fn options(
    threads: Option<usize>,
    engine: Option<EngineArg>,
    split_depth: Option<u32>,
    memory: Option<u64>,
    decomposition: DecompositionArg,
) -> Options {
    Options::default()
        .with_threads(threads.unwrap_or_else(nqueens::default_threads))
        .with_split_depth(split_depth)
        .with_engine(engine.map(Engine::from))
        .with_memory(memory)
        .with_decomposition(decomposition.into())
}

/// What a long count is watched by: its checkpoint, progress bar and the test seam that holds
/// it after some subproblems.
fn watch(checkpoint: Option<PathBuf>, progress: Option<Duration>, quiet: bool) -> Watch {
    Watch {
        checkpoint,
        progress,
        quiet,
        hold_after: test_seam("NQUEENS_TEST_HOLD_AFTER"),
    }
}

/// `count N…` without a shard: one or more board sizes.
fn count(args: CountArgs) -> Result<Command, clap::Error> {
    let options = args.options();
    Ok(Command::Count {
        options,
        watch: watch(
            one_size_only(args.checkpoint, &args.sizes)?,
            args.progress,
            args.quiet,
        ),
        sizes: args.sizes,
        json: args.json,
    })
}

/// `count N --shard I/K` (or `auto`): one board size, the shard named or found from the
/// launcher, and its files named for it.
fn count_shard(args: CountArgs) -> Result<Command, clap::Error> {
    let invalid = |message: String| count_error(clap::error::ErrorKind::ValueValidation, message);
    let sizes = &args.sizes;
    if sizes.start() != sizes.end() {
        return Err(invalid(format!(
            "--shard counts one board size, got the range {}..{}",
            sizes.start(),
            sizes.end()
        )));
    }
    let (shard, launcher) = match args.shard {
        Some(ShardArg::Given(shard)) => (shard, None),
        _ => Shard::from_env(|name| std::env::var(name).ok())
            .map(|(shard, launcher)| (shard, Some(launcher)))
            .map_err(|e| invalid(format!("--shard auto: {e}")))?,
    };
    let options = args.options();
    let checkpoint = args.checkpoint.map(|p| shard_path(p, shard));
    let output = args
        .output
        .filter(|p| p.as_os_str() != "-")
        .map(|p| shard_path(p, shard));
    if let (Some(c), Some(o)) = (&checkpoint, &output) {
        if nqueens::util::files::same_file(c, o) {
            return Err(invalid(format!(
                "--checkpoint and -o both name {}: the result would replace the checkpoint; \
                 give -o another file",
                o.display()
            )));
        }
    }
    Ok(Command::CountShard {
        n: *sizes.start(),
        shard,
        launcher,
        watch: watch(checkpoint, args.progress, args.quiet),
        options,
        output,
    })
}

/// `bench`: its settings and the files it exports to.
fn bench(args: BenchArgs) -> Command {
    let exports = [
        (bench::Format::Json, args.export_json),
        (bench::Format::Csv, args.export_csv),
        (bench::Format::Markdown, args.export_markdown),
        (bench::Format::Svg, args.plot),
    ]
    .into_iter()
    .filter_map(|(format, path)| {
        Some(bench::Export {
            format,
            path: path?,
        })
    })
    .collect();
    Command::Bench {
        settings: bench::Settings {
            n: args.n,
            threads: args.threads,
            warmup: args.warmup as usize,
            runs: args.runs as usize,
            engine: args.engine.map(Engine::from),
            expected_total: test_seam("NQUEENS_TEST_EXPECTED_TOTAL"),
        },
        exports,
    }
}

/// A clap error in short: its first line with clap's tips ("a similar argument exists:
/// '--threads'") folded onto it, the usage line when clap gives one, and which `--help` to read
/// (the subcommand's, when the command line named one).
pub fn short_form(err: &clap::Error) -> String {
    let text = err.to_string();
    let fold = |p: &str| p.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut paragraphs = text.split("\n\n").map(str::trim).filter(|p| !p.is_empty());
    let mut first = fold(paragraphs.next().unwrap_or("error: invalid arguments"));
    let mut usage = None;
    for paragraph in paragraphs {
        if paragraph.starts_with("Usage:") {
            usage = Some(fold(paragraph));
        } else {
            for tip in paragraph
                .lines()
                .map(str::trim)
                .filter(|l| l.starts_with("tip:"))
            {
                first.push_str(&format!(" ({})", fold(tip)));
            }
        }
    }
    let subcommand = std::env::args().nth(1).filter(|arg| {
        Cli::command()
            .get_subcommands()
            .any(|s| s.get_name() == arg.as_str())
    });
    let help = match subcommand {
        Some(name) => format!("nqueens {name} --help"),
        None => "nqueens --help".to_string(),
    };
    let mut lines = vec![cut_long_values(&first, std::env::args_os().skip(1))];
    lines.extend(usage);
    lines.push(format!("For more information, try '{help}'."));
    lines.join("\n")
}

/// Arguments longer than this are quoted cut in messages.
const LONGEST_QUOTED: usize = 64;

/// `message` with each of `args` longer than [`LONGEST_QUOTED`] quoted once and cut: clap
/// quotes a bad value, and the parser's own words quote it again, which for a value of pages
/// would fill the terminal twice.
fn cut_long_values(message: &str, args: impl Iterator<Item = std::ffi::OsString>) -> String {
    let mut message = message.to_string();
    for arg in args {
        let arg = arg.to_string_lossy();
        if arg.chars().count() <= LONGEST_QUOTED {
            continue;
        }
        let quoted = format!("'{arg}'");
        let Some(at) = message.find(&quoted) else {
            continue;
        };
        let head: String = arg.chars().take(LONGEST_QUOTED - 16).collect();
        let cut = format!("'{head}…' ({} characters)", arg.chars().count());
        let rest = message[at + quoted.len()..].replace(&quoted, "it");
        message = format!("{}{cut}{rest}", &message[..at]);
    }
    message
}

/// `-o` (or `--checkpoint`) with `{shard}` and `{shards}` replaced by I and K, so that one command line (for srun,
/// mpirun) names a file per shard.
fn shard_path(path: PathBuf, shard: Shard) -> PathBuf {
    match path.to_str() {
        Some(text) if text.contains('{') => PathBuf::from(
            text.replace("{shards}", &shard.count().to_string())
                .replace("{shard}", &shard.index().to_string()),
        ),
        _ => path,
    }
}

/// An error of `count`'s command line, with `count`'s usage (not the program's).
fn count_error(kind: clap::error::ErrorKind, message: String) -> clap::Error {
    let mut cli = Cli::command();
    cli.build();
    match cli.find_subcommand_mut("count") {
        Some(count) => count.error(kind, message),
        None => cli.error(kind, message),
    }
}

/// A checkpoint belongs to one board size.
fn one_size_only(
    checkpoint: Option<PathBuf>,
    sizes: &RangeInclusive<u32>,
) -> Result<Option<PathBuf>, clap::Error> {
    if checkpoint.is_some() && sizes.start() != sizes.end() {
        return Err(count_error(
            clap::error::ErrorKind::ArgumentConflict,
            format!(
                "--checkpoint holds one board size, not the range {}..{}: count each n with its own file",
                sizes.start(),
                sizes.end()
            ),
        ));
    }
    Ok(checkpoint)
}

#[cfg(test)]
mod tests;
