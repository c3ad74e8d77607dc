//! What a count looks like to a person (a table) and to a program (JSON Lines).

use serde::Serialize;

use nqueens::Counts;

/// One board size's result, as printed and exported.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Board size.
    pub n: u32,
    /// All solutions.
    pub total: u128,
    /// Fundamental solutions (distinct up to rotation and reflection).
    pub unique: Option<u128>,
    /// The published total, when known.
    pub expected: Option<u128>,
    /// The published fundamental count, when known.
    pub expected_unique: Option<u128>,
    /// `true` / `false` against the published counts (both), `null` when none is known.
    pub verified: Option<bool>,
    /// Wall time of the search.
    pub elapsed_seconds: f64,
    /// The engine that counted.
    pub engine: nqueens::Engine,
    /// Worker threads.
    pub threads: usize,
    /// Subproblems in the plan.
    pub subproblems: usize,
    /// Rows pre-placed by the plan.
    pub split_depth: u32,
    /// Queens placed, when counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u128>,
}

impl From<&Counts> for Report {
    fn from(c: &Counts) -> Self {
        Report {
            n: c.n,
            total: c.total,
            unique: c.unique,
            expected: nqueens::known::known(c.n).map(|k| k.total),
            expected_unique: nqueens::known::known(c.n).map(|k| k.unique),
            verified: c.verified(),
            elapsed_seconds: c.elapsed.as_secs_f64(),
            engine: c.engine,
            threads: c.threads,
            subproblems: c.subproblems,
            split_depth: c.split_depth,
            nodes: c.nodes,
        }
    }
}

impl Report {
    /// One line of JSON.
    pub fn json(&self) -> String {
        serde_json::to_string(self).expect("a report always serialises")
    }

    /// What the `verified` column says.
    pub fn verdict(&self) -> String {
        match (self.verified, self.expected, self.expected_unique) {
            (Some(true), ..) => "yes".to_string(),
            (Some(false), Some(t), Some(u)) => format!("NO (expected {t} / {u})"),
            _ => "unknown".to_string(),
        }
    }
}

/// The header of the text table.
pub fn table_header() -> String {
    format!(
        "{:>3} {:>20} {:>18} {:>10} {:>10} {:>8} {:>12} {:>6} {:>8}",
        "n", "total", "unique", "verified", "seconds", "threads", "subproblems", "depth", "engine"
    )
}

/// One row of the text table.
pub fn table_row(r: &Report) -> String {
    format!(
        "{:>3} {:>20} {:>18} {:>10} {:>10.3} {:>8} {:>12} {:>6} {:>8}",
        r.n,
        r.total,
        r.unique.map_or_else(|| "?".to_string(), |u| u.to_string()),
        r.verdict(),
        r.elapsed_seconds,
        r.threads,
        r.subproblems,
        r.split_depth,
        r.engine
    )
}

/// `k` and the noun `what`, in the plural unless `k` is 1: "1 thread", "2 threads".
pub fn plural(k: usize, what: &str) -> String {
    format!("{k} {what}{}", if k == 1 { "" } else { "s" })
}
