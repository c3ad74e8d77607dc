//! The summary as text: the header and one table row per thread count. The Markdown export lays
//! out the same cells.

use super::{Bench, Row};

/// The column titles of the summary table.
pub const COLUMNS: [&str; 9] = [
    "threads",
    "min [s]",
    "median [s]",
    "max [s]",
    "speedup",
    "efficiency",
    "Mqueens/s",
    "subproblems/s",
    "verified",
];

/// The cells of one row, in the order of [`COLUMNS`].
pub fn cells(row: &Row) -> [String; 9] {
    [
        row.threads.to_string(),
        format!("{:.3}", row.min_seconds),
        format!("{:.3}", row.median_seconds),
        format!("{:.3}", row.max_seconds),
        format!("{:.2}", row.speedup),
        format!("{:.0}%", row.efficiency * 100.0),
        // The join engine places no queens one by one: no rate to show.
        if row.nodes == 0 {
            "-".to_string()
        } else {
            format!("{:.1}", row.nodes_per_second / 1e6)
        },
        format!("{:.0}", row.subproblems_per_second),
        if row.verified { "yes" } else { "NO" }.to_string(),
    ]
}

/// What was measured, in one line: n and how it was chosen, engine, runs.
pub fn describe(bench: &Bench) -> String {
    let chosen = match &bench.calibration {
        None => "given".to_string(),
        Some(c) => match (c.probes.iter().find(|p| p.n == bench.n), c.probes.last()) {
            (Some(probe), _) => format!("calibrated: a one-thread run took {:.2} s", probe.seconds),
            (None, Some(last)) => format!(
                "calibrated: n = {} took {:.2} s on one thread, so n = {} should take about {:.1} s",
                last.n, last.seconds, bench.n, c.estimated_seconds
            ),
            (None, None) => "calibrated".to_string(),
        },
    };
    format!(
        "n = {} ({chosen}), expected total {}, engine {}, {} warm-up + {} timed runs per thread count",
        bench.n, bench.expected_total, bench.engine, bench.warmup, bench.runs
    )
}

/// The header: what was measured, then the machine, one `label  value` line each.
pub fn header(bench: &Bench) -> String {
    let mut text = format!("{}\n", describe(bench));
    for (label, value) in bench.machine.lines() {
        text += &format!("{label:<9}{value}\n");
    }
    text
}

/// The table, columns right-aligned to their widest cell.
pub fn table(bench: &Bench) -> String {
    let rows: Vec<[String; 9]> = bench.results.iter().map(cells).collect();
    let widths: Vec<usize> = (0..COLUMNS.len())
        .map(|i| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([COLUMNS[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let padded: Vec<String> = cells
            .zip(&widths)
            .map(|(c, w)| format!("{c:>w$}"))
            .collect();
        padded.join("  ") + "\n"
    };
    let mut text = line(&mut COLUMNS.iter().copied());
    for row in &rows {
        text += &line(&mut row.iter().map(String::as_str));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::result::tests::example;

    #[test]
    fn text_summary() {
        let bench = example();
        insta::assert_snapshot!(header(&bench) + "\n" + &table(&bench));
    }
}
