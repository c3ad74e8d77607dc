//! Why a command failed: every error the binary reports, each naming the problem.

use crate::interrupt::Stopped;

/// A failed run: the library refused or failed, or the output could not be written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The library refused or failed.
    #[error("{}", with_flag(.0, flag_of_count(.0)))]
    Count(#[from] nqueens::Error),
    /// The benchmark failed: a wrong count, or an export could not be written.
    #[error(transparent)]
    Bench(#[from] crate::bench::Error),
    /// The checkpoint could not be used.
    #[error(transparent)]
    Checkpoint(#[from] nqueens::exec::CheckpointError),
    /// A run that failed otherwise (a kind of failure newer than this program's words for it).
    #[error(transparent)]
    Run(nqueens::exec::RunError),
    /// A signal stopped the run.
    #[error("{0}")]
    Interrupted(Stopped),
    /// Output could not be written.
    #[error("cannot write the output: {0}")]
    Io(#[from] std::io::Error),
    /// Partial results that do not add up.
    #[error("{}", with_flag(.0, flag_of_merge(.0)))]
    Merge(#[from] nqueens::cluster::MergeError),
    /// A campaign's folders that could not be read.
    #[error(transparent)]
    Status(#[from] nqueens::cluster::StatusError),
    /// A result that is wrong (a total that is not the published one, two decompositions that
    /// disagree), after it was printed.
    #[error("{0}")]
    Message(String),
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

/// A library error as the program says it: its message, and the option that sets the library's
/// parameter it names, if any.
fn with_flag(error: &dyn std::fmt::Display, flag: Option<&str>) -> String {
    match flag {
        Some(flag) => format!("{error} ({flag})"),
        None => error.to_string(),
    }
}

/// The option behind a count's error, where the error is about one.
fn flag_of_count(error: &nqueens::Error) -> Option<&'static str> {
    use nqueens::Error::*;
    match error {
        SplitDepth { .. } | PlanTooLarge { .. } | PlanMemory { .. } | NoSplitDepth { .. } => {
            Some("--split-depth")
        }
        _ => None,
    }
}

/// The option behind a merge's error, where the error is about one.
fn flag_of_merge(error: &nqueens::cluster::MergeError) -> Option<&'static str> {
    use nqueens::cluster::MergeError::*;
    match error {
        Quorum { .. } | NoQuorum { .. } => Some("--quorum"),
        _ => None,
    }
}
