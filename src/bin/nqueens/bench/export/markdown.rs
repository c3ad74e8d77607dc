//! The Markdown export: the header as a list and the summary table, ready to paste.

use super::Exporter;
use crate::bench::table::{cells, columns, describe};
use crate::bench::{Bench, Error};

/// The header and the summary table in Markdown.
pub struct Markdown;

impl Exporter for Markdown {
    fn serialize(&self, bench: &Bench) -> Result<Vec<u8>, Error> {
        let mut text = format!("`nqueens bench`: {}\n\n", describe(bench));
        for (label, value) in bench.machine.lines() {
            text += &format!("- {label}: {value}\n");
        }
        let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
        text += "\n";
        let titles = columns(bench);
        text += &line(titles.iter().map(|c| c.to_string()).collect());
        text += &line(vec!["---:".to_string(); titles.len()]);
        for row in &bench.results {
            text += &line(cells(bench, row));
        }
        Ok(text.into_bytes())
    }
}
