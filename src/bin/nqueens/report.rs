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
    /// The join engine's pairs ANDed by this run's search (not before a resume, nor other
    /// shards').
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs_anded: Option<u128>,
    /// The pairs it tested (ANDed, or skipped by its pivots), alike.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs_tested: Option<u128>,
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
            subproblems: c.pieces,
            split_depth: c.split_depth,
            nodes: c.nodes,
            pairs_anded: c.pairs_anded,
            pairs_tested: c.pairs_tested,
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

/// The header of the text table. The columns hold n = 27's 18-digit total within 80 columns;
/// the plan's details (subproblems, split depth) are in the JSON.
pub fn table_header() -> String {
    format!(
        "{:>3} {:>18} {:>17} {:>8} {:>10} {:>7} {:>8}",
        "n", "total", "unique", "verified", "seconds", "threads", "engine"
    )
}

/// One row of the text table.
pub fn table_row(r: &Report) -> String {
    format!(
        "{:>3} {:>18} {:>17} {:>8} {:>10.3} {:>7} {:>8}",
        r.n,
        r.total,
        r.unique.map_or_else(|| "?".to_string(), |u| u.to_string()),
        r.verdict(),
        r.elapsed_seconds,
        r.threads,
        r.engine
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The largest known board fits 80 columns, counted for a year, and the next (with counts
    /// ten times larger) for a month.
    #[test]
    fn the_table_fits_80_columns_up_to_n_27_and_beyond() {
        let known = nqueens::known::known(27).unwrap();
        let row = |n: u32, total: u128, unique: u128, verified: Option<bool>, days: f64| Report {
            n,
            total,
            unique: Some(unique),
            expected: Some(total),
            expected_unique: Some(unique),
            verified,
            elapsed_seconds: 86_400.0 * days,
            engine: nqueens::Engine::Symmetry,
            threads: 1024,
            subproblems: 40_116_600,
            split_depth: 14,
            nodes: None,
            pairs_anded: None,
            pairs_tested: None,
        };
        let lines = [
            table_header(),
            table_row(&row(27, known.total, known.unique, Some(true), 365.0)),
            table_row(&row(28, 10 * known.total, 10 * known.unique, None, 30.0)),
        ];
        for line in &lines {
            assert!(line.chars().count() <= 80, "{} columns: {line}", line.len());
        }
        assert!(lines[1].contains(&known.total.to_string()) && lines[1].contains(" yes "));
    }
}
