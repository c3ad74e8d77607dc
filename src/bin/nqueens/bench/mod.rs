//! `nqueens bench`: a multicore benchmark whose every result is checked against the known counts.
//!
//! [`runner::run`] times counting at several thread counts (warm-up runs, then timed runs) and
//! fails on the first count that differs from the published total, so a fast wrong result can never
//! pass as a score. The outcome is a [`Bench`]: the [`Machine`] it ran on and one [`Row`] of
//! statistics per thread count, which the [`export`] formats (JSON, CSV, Markdown, SVG plot) and
//! [`table`] (the text summary) present.

pub mod export;
pub mod machine;
pub mod result;
pub mod runner;
pub mod table;

use std::path::PathBuf;

pub use export::{Export, Format};
pub use machine::Machine;
pub use result::{Bench, Calibration, Probe, Row};
pub use runner::{run, Event, Settings, LEAST_SECONDS};

/// Everything that can stop a benchmark.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A count differed from the expected total: the run is not a valid benchmark.
    #[error(
        "WRONG COUNT: n = {n} counted {got} on {}, but the expected total is {expected}; a wrong result is no benchmark",
        crate::units::plural(*.threads, "thread")
    )]
    WrongCount {
        /// Board size.
        n: u32,
        /// Worker threads of the failing run.
        threads: usize,
        /// What the run counted.
        got: u128,
        /// What it should have counted.
        expected: u128,
    },
    /// No published count to check against.
    #[error("no published count for n = {n}: bench needs n from 1 to {max} so that every result can be checked", max = nqueens::known::table().len())]
    Unknown {
        /// Board size.
        n: u32,
    },
    /// Zero timed runs.
    #[error("at least one timed run is needed")]
    NoRuns,
    /// Counting failed.
    #[error(transparent)]
    Count(#[from] nqueens::Error),
    /// An export could not be produced.
    #[error("cannot write the {format} export: {reason}")]
    Format {
        /// The export format.
        format: &'static str,
        /// What went wrong.
        reason: String,
    },
    /// The summary could not be written (a closed pipe, a full disk).
    #[error("cannot write the output: {0}")]
    Output(std::io::Error),
    /// An export file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}
