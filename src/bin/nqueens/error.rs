//! Why a command failed: every error the binary reports, each naming the problem.

use crate::interrupt::Stopped;

/// A failed run: the library refused or failed, or the output could not be written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The library refused or failed.
    #[error(transparent)]
    Count(#[from] nqueens::Error),
    /// The benchmark failed: a wrong count, or an export could not be written.
    #[error(transparent)]
    Bench(#[from] crate::bench::Error),
    /// The checkpoint could not be used.
    #[error(transparent)]
    Checkpoint(#[from] nqueens::exec::CheckpointError),
    /// A signal stopped the run.
    #[error("{0}")]
    Interrupted(Stopped),
    /// Output could not be written.
    #[error("cannot write the output: {0}")]
    Io(#[from] std::io::Error),
    /// Partial results that do not add up.
    #[error(transparent)]
    Merge(#[from] nqueens::cluster::MergeError),
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
