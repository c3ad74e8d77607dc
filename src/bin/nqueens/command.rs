//! What the user asked for, in the program's own terms: plain values that the command line
//! ([`crate::cli`]) produces and the commands ([`crate::commands`]) run.

use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::Duration;

use nqueens::cluster::{Launcher, Shard};
use nqueens::solve::Format;
use nqueens::Options;

use crate::bench;

/// What the user asked for, in the program's own terms.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Write this text to stdout as it is (a completion script, the manual page).
    Print(Vec<u8>),
    /// Show a manual page (roff): formatted by `man` on a terminal, as roff elsewhere (to be
    /// saved or installed).
    ShowPage(Vec<u8>),
    /// Write each `(file name, contents)` of `pages` into the folder `dir` (the manual pages).
    WritePages {
        dir: PathBuf,
        pages: Vec<(String, Vec<u8>)>,
    },
    /// Count every solution for each board size in `sizes`.
    Count {
        sizes: RangeInclusive<u32>,
        options: Options,
        json: bool,
        watch: Watch,
    },
    /// Count shard `shard` of board size `n` and write its partial result.
    CountShard {
        n: u32,
        shard: Shard,
        /// Who gave the shard, for `--shard auto`.
        launcher: Option<Launcher>,
        /// Its checkpoint and progress display.
        watch: Watch,
        options: Options,
        /// `None` for stdout.
        output: Option<PathBuf>,
    },
    /// Check and sum the partial results in `files` (`-` is stdin).
    Merge {
        files: Vec<PathBuf>,
        json: bool,
        quorum: nqueens::cluster::Quorum,
    },
    /// How far the campaign whose files are in `dirs` is.
    Status {
        dirs: Vec<PathBuf>,
        json: bool,
        stalled: Duration,
        threads: usize,
    },
    /// Time counting at several thread counts, every result checked; write the exports.
    Bench {
        settings: bench::Settings,
        exports: Vec<bench::Export>,
    },
    /// Predict the time of counting `n` (and of one of `shards` shards) from a sample drawn for
    /// about `seconds`.
    Estimate {
        n: u32,
        options: Options,
        shards: Option<u32>,
        seconds: f64,
        /// Sample until the interval is within this share of the value (capped by `seconds`).
        until: Option<f64>,
        seed: u64,
        /// One JSON object instead of text.
        json: bool,
        /// Plain progress lines this often when stderr is not a terminal.
        progress: Option<Duration>,
        /// No progress at all.
        quiet: bool,
    },
    /// List the solutions of one board size.
    Solve {
        n: u32,
        options: nqueens::solve::ListOptions,
        format: Format,
        trace: bool,
    },
}

/// How a count is watched and kept.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Watch {
    /// The checkpoint to resume from and record to.
    pub checkpoint: Option<PathBuf>,
    /// Plain progress lines this often when stderr is not a terminal.
    pub progress: Option<Duration>,
    /// No progress at all.
    pub quiet: bool,
    /// Test-only: hand out no more subproblems after this many until a signal comes.
    pub hold_after: Option<usize>,
}
