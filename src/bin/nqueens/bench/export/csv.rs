//! The CSV export: one line per thread count, the statistics without the single run times.

use serde::Serialize;

use super::{failed, Exporter, Format};
use crate::bench::{Bench, Error};
use nqueens::Engine;

/// One line per thread count.
pub struct Csv;

/// The columns of a CSV line.
#[derive(Serialize)]
struct Line {
    n: u32,
    engine: Engine,
    threads: usize,
    runs: usize,
    min_seconds: f64,
    median_seconds: f64,
    max_seconds: f64,
    speedup: f64,
    efficiency: f64,
    nodes_per_second: Option<f64>,
    subproblems_per_second: f64,
    nodes: Option<u128>,
    subproblems: usize,
    total: u128,
    verified: bool,
}

/// The header line, written before any line is (serde writes it with the first): a bench's
/// first export, before any thread count is timed, is the header, never an empty file.
const COLUMNS: [&str; 15] = [
    "n",
    "engine",
    "threads",
    "runs",
    "min_seconds",
    "median_seconds",
    "max_seconds",
    "speedup",
    "efficiency",
    "nodes_per_second",
    "subproblems_per_second",
    "nodes",
    "subproblems",
    "total",
    "verified",
];

impl Exporter for Csv {
    fn serialize(&self, bench: &Bench) -> Result<Vec<u8>, Error> {
        let mut out = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        out.write_record(COLUMNS)
            .map_err(|e| failed(Format::Csv, e))?;
        for r in &bench.results {
            out.serialize(Line {
                n: bench.n,
                engine: bench.engine,
                threads: r.threads,
                runs: r.times_seconds.len(),
                min_seconds: r.min_seconds,
                median_seconds: r.median_seconds,
                max_seconds: r.max_seconds,
                speedup: r.speedup,
                efficiency: r.efficiency,
                nodes_per_second: r.nodes_per_second,
                subproblems_per_second: r.subproblems_per_second,
                nodes: r.nodes,
                subproblems: r.subproblems,
                total: r.total,
                verified: r.verified,
            })
            .map_err(|e| failed(Format::Csv, e))?;
        }
        out.into_inner().map_err(|e| failed(Format::Csv, e))
    }
}
