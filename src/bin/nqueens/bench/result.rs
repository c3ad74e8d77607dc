//! The result of a benchmark: one serialisable value that every export is made from.

use serde::Serialize;

use super::Machine;
use nqueens::{Counts, Engine};

/// A whole benchmark: where it ran, what it counted, and one row per thread count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bench {
    /// The machine and build.
    pub machine: Machine,
    /// Board size.
    pub n: u32,
    /// How `n` was chosen: `None` when given on the command line.
    pub calibration: Option<Calibration>,
    /// The engine that counted.
    pub engine: Engine,
    /// The total every run was checked against.
    pub expected_total: u128,
    /// Untimed runs per thread count.
    pub warmup: usize,
    /// Timed runs per thread count.
    pub runs: usize,
    /// One row per thread count, fewest threads first; the first is the 1-thread baseline.
    pub results: Vec<Row>,
}

/// How the default `n` was found: runs of growing n on the widest thread count, until one took
/// long enough.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Calibration {
    /// The probe runs, smallest n first; the last is of the chosen n.
    pub probes: Vec<Probe>,
    /// The wall time of the widest run of the chosen n, as its probe took.
    pub estimated_seconds: f64,
}

/// One calibration run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Probe {
    /// Board size.
    pub n: u32,
    /// Wall time.
    pub seconds: f64,
    /// The threads it ran on: the bench's widest.
    pub threads: usize,
}

/// The statistics of one thread count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Worker threads.
    pub threads: usize,
    /// Wall time of each timed run, in order.
    pub times_seconds: Vec<f64>,
    /// Fastest timed run.
    pub min_seconds: f64,
    /// Median timed run.
    pub median_seconds: f64,
    /// Slowest timed run.
    pub max_seconds: f64,
    /// Median time of 1 thread ÷ median time of this row.
    pub speedup: f64,
    /// Speedup ÷ threads (1 is perfect scaling).
    pub efficiency: f64,
    /// The count of every run (all equal to the expected total, or the bench fails).
    pub total: u128,
    /// Whether the count matched (always true in a finished benchmark).
    pub verified: bool,
    /// Queens placed by one run; `None` for the join engine, which places none one by one.
    pub nodes: Option<u128>,
    /// Queens placed per second at the median time (`None` with `nodes`).
    pub nodes_per_second: Option<f64>,
    /// Subproblems in the plan of one run.
    pub subproblems: usize,
    /// Subproblems finished per second at the median time.
    pub subproblems_per_second: f64,
    /// Rows pre-placed by the plan.
    pub split_depth: u32,
    /// CPU seconds other processes took during the timed runs (`None` where the system does
    /// not say): what they took was not this machine's to give the runs.
    pub others_cpu_seconds: Option<f64>,
}

impl Row {
    /// The row of `times` (at least one), the timed runs of a run like `counts` (which counted the
    /// queens placed); `baseline` is the median 1-thread time, `None` for the 1-thread row itself.
    pub fn new(times: Vec<f64>, counts: &Counts, baseline: Option<f64>) -> Row {
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        let mid = sorted.len() / 2;
        let median = if sorted.len() % 2 == 1 {
            sorted[mid]
        } else {
            (sorted[mid - 1] + sorted[mid]) / 2.0
        };
        let speedup = baseline.unwrap_or(median) / median;
        let nodes = counts.nodes;
        Row {
            threads: counts.threads,
            min_seconds: sorted[0],
            median_seconds: median,
            max_seconds: sorted[sorted.len() - 1],
            times_seconds: times,
            speedup,
            efficiency: speedup / counts.threads as f64,
            total: counts.total,
            verified: counts.verified() == Some(true),
            nodes,
            nodes_per_second: nodes.map(|q| q as f64 / median),
            subproblems: counts.pieces,
            subproblems_per_second: counts.pieces as f64 / median,
            split_depth: counts.split_depth,
            others_cpu_seconds: None,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::time::Duration;

    use super::*;

    /// The counts of an n = 12 run on `threads` threads, with fixed figures for what a run
    /// measures or chooses (a made-up node count and plan; nothing measured).
    pub(crate) fn counts(threads: usize) -> Counts {
        let options = nqueens::Options::default()
            .with_threads(1)
            .with_engine(Some(Engine::Mirror));
        let mut counts = nqueens::count(12, &options).unwrap();
        counts.nodes = Some(856_188);
        counts.threads = threads;
        counts.pieces = 378;
        counts.split_depth = 3;
        counts.elapsed = Duration::ZERO;
        counts
    }

    /// A benchmark built from fixed numbers, for snapshot tests of the exports.
    pub(crate) fn example() -> Bench {
        let base = Row::new(vec![2.0, 2.2, 2.1], &counts(1), None);
        let baseline = Some(base.median_seconds);
        Bench {
            machine: Machine {
                cpu: "Example CPU @ 3.0GHz".into(),
                logical_cores: 4,
                physical_cores: 2,
                os: "Linux 6.1 (Example OS)".into(),
                nqueens_version: "0.1.0".into(),
                git_commit: "abc1234".into(),
                build_profile: "release".into(),
                target_features: "fxsr,sse,sse2".into(),
                dispatch: "backtrack bmi1, bmi2, lzcnt; join avx2, bmi2".into(),
                load_average: 0.25,
            },
            n: 12,
            calibration: Some(Calibration {
                probes: [(8, 0.0001), (9, 0.0005), (10, 0.003), (11, 0.3), (12, 2.1)]
                    .map(|(n, seconds)| Probe {
                        n,
                        seconds,
                        threads: 8,
                    })
                    .to_vec(),
                estimated_seconds: 2.1,
            }),
            engine: Engine::Mirror,
            expected_total: 14_200,
            warmup: 1,
            runs: 3,
            results: vec![
                base,
                Row::new(vec![1.1, 1.05], &counts(2), baseline),
                Row::new(vec![0.7, 0.75, 0.8], &counts(4), baseline),
            ],
        }
    }

    #[test]
    fn statistics_of_a_row() {
        let row = Row::new(vec![3.0, 1.0, 2.0], &counts(2), Some(4.0));
        assert_eq!(
            (row.min_seconds, row.median_seconds, row.max_seconds),
            (1.0, 2.0, 3.0)
        );
        assert_eq!((row.speedup, row.efficiency), (2.0, 1.0));
        assert_eq!(row.nodes_per_second, Some(856_188.0 / 2.0));
        assert_eq!(row.subproblems_per_second, 189.0);
        assert!(row.verified);
        assert_eq!(row.times_seconds, vec![3.0, 1.0, 2.0]);
        let even = Row::new(vec![4.0, 1.0, 2.0, 3.0], &counts(1), None);
        assert_eq!((even.median_seconds, even.speedup), (2.5, 1.0));
    }
}
