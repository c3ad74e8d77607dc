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

/// A warning when the run on the most threads was too short to measure by: its median under
/// [`super::LEAST_SECONDS`], so start-up (threads, the plan) weighs on it. One thread or many:
/// a run that short times the start-up, whether it is scaling or speed that is asked.
pub fn startup_warning(bench: &Bench) -> Option<String> {
    let widest = bench.results.iter().max_by_key(|r| r.threads)?;
    let what = if widest.threads > 1 {
        "scaling"
    } else {
        "speed"
    };
    (widest.median_seconds < super::LEAST_SECONDS).then(|| {
        format!(
            "warning: the {}-thread runs took {:.3} s, too short to measure {what}: starting \
             the threads and building the plan weigh on them; give a larger --n (or leave it \
             out to have it chosen)",
            widest.threads, widest.median_seconds
        )
    })
}

/// The share of the machine's CPU time others may take during a thread count's runs before
/// their times are suspect.
const BUSY_SHARE: f64 = 0.05;

/// `/proc/stat` counts in clock ticks of 1/100 s (USER_HZ on Linux), per core: each run's
/// reading of the others' time may be off by a tick per core and one more.
const TICK: f64 = 0.01;

/// The share of the machine's CPU time (`cores` × `wall` seconds) that other processes took,
/// `others` CPU-seconds read in `readings` pairs of marks, when it is over [`BUSY_SHARE`] beyond
/// what the clock ticks can tell; `None` when it is not.
pub fn busy_share(others: f64, cores: f64, wall: f64, readings: usize) -> Option<f64> {
    let capacity = cores * wall;
    let unsure = readings as f64 * (cores + 1.0) * TICK;
    (others > BUSY_SHARE * capacity + unsure).then(|| others / capacity.max(f64::MIN_POSITIVE))
}

/// A warning when other processes took more than [`BUSY_SHARE`] of the machine's CPU time
/// during the timed runs of some thread counts: those runs shared the cores, and their times
/// (and the speedup and efficiency from them) are not this machine's.
pub fn busy_warning(bench: &Bench) -> Option<String> {
    let cores = bench.machine.logical_cores.max(1) as f64;
    let busy: Vec<String> = bench
        .results
        .iter()
        .filter_map(|row| {
            let others = row.others_cpu_seconds?;
            let wall = row.times_seconds.iter().sum::<f64>();
            let share = busy_share(others, cores, wall, row.times_seconds.len())?;
            Some(share).map(|share| {
                format!(
                    "{:.0}% during the {}-thread runs ({others:.1} CPU-seconds)",
                    100.0 * share,
                    row.threads
                )
            })
        })
        .collect();
    (!busy.is_empty()).then(|| {
        format!(
            "warning: other processes took the machine's CPU: {}; those times, speedups and \
             efficiencies are lower than this machine's: run bench on an idle machine",
            busy.join(", ")
        )
    })
}

/// What was measured, in one line: n and how it was chosen, engine, runs.
pub fn describe(bench: &Bench) -> String {
    let chosen = match &bench.calibration {
        None => "given".to_string(),
        Some(c) => match c.probes.iter().find(|p| p.n == bench.n) {
            Some(probe) => format!(
                "calibrated so that the widest run takes at least {:.0} s: on {} it took {:.2} s",
                super::LEAST_SECONDS,
                crate::units::plural(probe.threads, "thread"),
                probe.seconds
            ),
            None => "calibrated".to_string(),
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
        // One thread alone is flagged too: a run that short times the start-up.
        let mut one = example();
        one.results.retain(|r| r.threads == 1);
        one.results[0].median_seconds = 0.136;
        let warning = startup_warning(&one).expect("0.136 s on one thread is start-up bound");
        assert!(
            warning.contains("the 1-thread runs took 0.136 s, too short to measure speed"),
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

    /// Others' CPU time above 5% of the machine's during a thread count's runs is warned of,
    /// naming the thread counts; a little, or none measured, is not.
    #[test]
    fn runs_that_shared_the_machine_are_warned_of() {
        let mut bench = example();
        assert_eq!(busy_warning(&bench), None);
        // 4 cores × 2.15 s of 2-thread runs: 8.6 CPU-seconds; others took 4.3 of them.
        bench.results[1].others_cpu_seconds = Some(4.3);
        bench.results[2].others_cpu_seconds = Some(0.1);
        let warning = busy_warning(&bench).expect("half the machine was taken");
        assert!(
            warning.contains("50% during the 2-thread runs (4.3 CPU-seconds)")
                && !warning.contains("4-thread"),
            "{warning}"
        );
    }

    /// The mark sees the CPU another process takes, not this process's own.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_cpu_mark_tells_others_from_this_process() {
        use crate::bench::machine::CpuMark;
        let mark = CpuMark::now().expect("Linux says");
        // Another process busy for about half a second of CPU.
        let status = std::process::Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"])
            .status()
            .unwrap();
        assert!(status.success());
        let others = mark.others_since().unwrap();
        assert!(others >= 0.05, "{others}");
    }

    #[test]
    fn text_summary() {
        let bench = example();
        insta::assert_snapshot!(header(&bench) + "\n" + &table(&bench));
    }
}
