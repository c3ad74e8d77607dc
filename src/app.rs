//! Runs a [`Command`] and writes its results: the program's story after parsing.

use std::io::{self, Write};

use nqueens::report::{self, Report};

use crate::cli::Command;
use crate::interrupt::{Interrupt, Stopped};
use crate::longrun;

/// How the program ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Everything ran and every known count matched.
    Success = 0,
    /// A count did not match the published value, or the run failed.
    Failure = 1,
    /// The command line was wrong.
    Usage = 2,
    /// Stopped by SIGINT (Ctrl-C): 128 + 2.
    Interrupted = 130,
    /// Stopped by SIGTERM: 128 + 15.
    Terminated = 143,
}

/// Runs `command`, writing results to stdout.
pub fn run(command: Command) -> Result<Exit, Error> {
    match command {
        Command::Count {
            sizes,
            options,
            json,
            watch,
        } => {
            let interrupt = Interrupt::install(
                watch.checkpoint.is_some(),
                &crate::interrupt::resume_args(None),
            );
            let mut out = io::stdout().lock();
            // The table header comes with the first row, so a refusal prints nothing on stdout.
            let mut header = !json;
            let mut exit = Exit::Success;
            for n in sizes {
                let counts = longrun::count(n, &options, &watch, &interrupt)?;
                if std::mem::take(&mut header) {
                    writeln!(out, "{}", report::table_header())?;
                }
                let r = Report::from(&counts);
                if r.verified == Some(false) {
                    exit = Exit::Failure;
                }
                let line = if json {
                    r.json()
                } else {
                    report::table_row(&r)
                };
                writeln!(out, "{line}")?;
                out.flush()?;
            }
            Ok(exit)
        }
        Command::CountShard {
            n,
            shard,
            launcher,
            watch,
            options,
            output,
        } => crate::cluster::count_shard(n, shard, launcher, &options, &watch, output.as_deref()),
        Command::Merge { files, json } => crate::cluster::merge(&files, json),
        Command::Bench { settings, exports } => crate::bench_cmd::run(&settings, &exports),
        Command::Solve {
            n,
            options,
            format,
            trace,
        } => crate::listing::run(n, &options, format, trace),
    }
}

/// A failed run: the library refused or failed, or the output could not be written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The library refused or failed.
    #[error(transparent)]
    Count(#[from] nqueens::Error),
    /// The benchmark failed: a wrong count, or an export could not be written.
    #[error(transparent)]
    Bench(#[from] nqueens::bench::Error),
    /// The checkpoint could not be used.
    #[error(transparent)]
    Checkpoint(#[from] nqueens::checkpoint::Error),
    /// A signal stopped the run.
    #[error("{0}")]
    Interrupted(Stopped),
    /// Output could not be written.
    #[error("cannot write the output: {0}")]
    Io(#[from] std::io::Error),
    /// Partial results that do not add up.
    #[error(transparent)]
    Merge(#[from] nqueens::merge::Error),
    /// A named file could not be read or written.
    #[error("cannot {what} {}: {source}", path.display())]
    File {
        /// "read" or "write".
        what: &'static str,
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
}
