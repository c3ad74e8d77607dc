//! The summary as text: the header and one table row per thread count. The Markdown export lays
//! out the same cells.

use super::{Bench, Row};

/// The column titles of the summary table (`Mqueens/s` only where queens are placed one by one:
/// [`columns`]).
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

/// Whether `bench` has a rate of queens placed to show: the join engine places none one by one,
/// so its table leaves the column out.
fn has_rate(bench: &Bench) -> bool {
    bench.results.iter().any(|r| r.nodes_per_second.is_some())
}

/// The column titles of `bench`'s table.
pub fn columns(bench: &Bench) -> Vec<&'static str> {
    let rate = has_rate(bench);
    COLUMNS
        .into_iter()
        .filter(|c| rate || *c != "Mqueens/s")
        .collect()
}

/// The cells of one row of `bench`'s table, in the order of [`columns`].
pub fn cells(bench: &Bench, row: &Row) -> Vec<String> {
    let mut cells = vec![
        row.threads.to_string(),
        format!("{:.3}", row.min_seconds),
        format!("{:.3}", row.median_seconds),
        format!("{:.3}", row.max_seconds),
        format!("{:.2}", row.speedup),
        format!("{:.0}%", row.efficiency * 100.0),
    ];
    if has_rate(bench) {
        cells.push(
            row.nodes_per_second
                .map_or("-".to_string(), |r| format!("{:.1}", r / 1e6)),
        );
    }
    cells.push(format!("{:.0}", row.subproblems_per_second));
    cells.push(if row.verified { "yes" } else { "NO" }.to_string());
    cells
}

/// A warning when the run on the most threads was too short to measure scaling by: its
/// median under [`super::LEAST_SECONDS`], so start-up (threads, the plan) weighs on it.
pub fn startup_warning(bench: &Bench) -> Option<String> {
    let widest = bench.results.iter().max_by_key(|r| r.threads)?;
    (widest.threads > 1 && widest.median_seconds < super::LEAST_SECONDS).then(|| {
        format!(
            "warning: the {}-thread runs took {:.3} s, too short to measure scaling: starting \
             the threads and building the plan weigh on them; give a larger --n (or leave it \
             out to have it chosen)",
            widest.threads, widest.median_seconds
        )
    })
}

/// What was measured, in one line: n and how it was chosen, engine, runs.
pub fn describe(bench: &Bench) -> String {
    let chosen = match &bench.calibration {
        None => "given".to_string(),
        Some(c) => match (c.probes.iter().find(|p| p.n == bench.n), c.probes.last()) {
            (Some(probe), _) => format!(
                "calibrated so that the widest run takes at least {:.0} s: a one-thread run took {:.2} s",
                super::LEAST_SECONDS,
                probe.seconds
            ),
            (None, Some(last)) => format!(
                "calibrated so that the widest run takes at least {:.0} s: n = {} took {:.2} s on one thread, so n = {} should take about {:.1} s",
                super::LEAST_SECONDS,
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
    let titles = columns(bench);
    let rows: Vec<Vec<String>> = bench.results.iter().map(|r| cells(bench, r)).collect();
    let widths: Vec<usize> = (0..titles.len())
        .map(|i| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([titles[i].len()])
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
    let mut text = line(&mut titles.iter().copied());
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
    fn the_join_engine_has_no_rate_of_queens_and_short_runs_are_flagged() {
        let mut bench = example();
        assert!(table(&bench).contains("Mqueens/s"));
        // The example's widest run (4 threads) takes 0.75 s.
        let warning = startup_warning(&bench).expect("0.75 s is start-up bound");
        assert!(
            warning.contains("the 4-thread runs took 0.750 s"),
            "{warning}"
        );
        for row in &mut bench.results {
            row.nodes = None;
            row.nodes_per_second = None;
            row.median_seconds *= 10.0;
        }
        let text = table(&bench);
        assert!(
            !text.contains("Mqueens/s") && text.contains("subproblems/s"),
            "{text}"
        );
        assert_eq!(startup_warning(&bench), None);
    }

    #[test]
    fn text_summary() {
        let bench = example();
        insta::assert_snapshot!(header(&bench) + "\n" + &table(&bench));
    }
}
