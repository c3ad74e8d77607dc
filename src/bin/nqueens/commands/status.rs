//! `nqueens status DIR…`: a campaign at a glance, as text or one JSON object.

use std::path::PathBuf;
use std::time::Duration;

use nqueens::cluster::{statuses, Status};

use crate::error::Error;
use crate::exit::Exit;

/// Reads the campaign in `dirs` and prints its status.
pub fn run(dirs: &[PathBuf], json: bool, stalled: Duration, threads: usize) -> Result<Exit, Error> {
    let all = match statuses(dirs, threads, stalled) {
        Ok(all) => all,
        Err(e) => {
            if json {
                // A program reading the JSON gets an object either way.
                let error = serde_json::json!({ "error": e.to_string() });
                crate::streams::print(error.to_string() + "\n")?;
            }
            return Err(e.into());
        }
    };
    let text = if json {
        // One object: the first campaign's status, and every campaign's (the same board by
        // other decompositions, in one folder) under "campaigns", the first among them.
        let every: Vec<serde_json::Value> = all.iter().map(|s| to_json(s, dirs)).collect();
        let mut first = every[0].clone();
        first["campaigns"] = serde_json::Value::Array(every);
        first.to_string() + "\n"
    } else {
        // Two decompositions of one board in one folder: a status each, apart.
        let reports: Vec<String> = all.iter().map(|s| report(s, dirs)).collect();
        reports.join("\n")
    };
    crate::streams::print(text)?;
    if !json {
        // Each status holds the folders' problems and those of its own files.
        let mut problems: Vec<&String> = Vec::new();
        for problem in all.iter().flat_map(|s| &s.problems) {
            if !problems.contains(&problem) {
                problems.push(problem);
            }
        }
        warn(&problems);
    }
    Ok(Exit::Success)
}

/// Warnings shown on stderr at most, the rest counted ("--json" lists them all).
const MOST_WARNINGS: usize = 20;

/// Says `problems` on stderr: every one, or the first [`MOST_WARNINGS`] and how many more.
fn warn(problems: &[&String]) {
    for problem in problems.iter().take(MOST_WARNINGS) {
        crate::streams::say(&format!("warning: {problem}"));
    }
    if problems.len() > MOST_WARNINGS {
        crate::streams::say(&format!(
            "warning: and {} more (nqueens status --json lists every one)",
            problems.len() - MOST_WARNINGS
        ));
    }
}

/// The command that submits the shards to count again, from wherever it is run: the folder by
/// its full path, and the script that laid it out by the path it recorded in the folder's
/// `settings` (`count.sbatch`, to be found, where the folder has none).
fn resubmit(s: &Status, dirs: &[PathBuf]) -> Option<String> {
    let array = s.array();
    (!array.is_empty()).then(|| {
        let dir = std::fs::canonicalize(&dirs[0]).unwrap_or_else(|_| dirs[0].clone());
        let script = std::fs::read_to_string(dirs[0].join("settings"))
            .ok()
            .and_then(|settings| {
                let line = settings.lines().rev().find(|l| l.starts_with("SCRIPT="))?;
                Some(line["SCRIPT=".len()..].to_string())
            })
            .unwrap_or_else(|| "count.sbatch".to_string());
        // The line merge.log's advice gives, the same words in the same order: a decomposition
        // only where the board's default is not it (the one a user asked for).
        let decomposition = (s.decomposition)
            .filter(|&d| d != nqueens::Decomposition::fastest_for(s.n))
            .map_or_else(String::new, |d| format!(" DECOMPOSITION={d}"));
        format!(
            "N={} SHARDS={}{decomposition} DIR={} ARRAY={array} bash {}",
            s.n,
            s.shards,
            quoted(&dir.to_string_lossy()),
            quoted(&script)
        )
    })
}

/// `word` as the shell reads it back: as it is when it holds only safe characters, otherwise in
/// single quotes.
fn quoted(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+,:=@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The status as lines of at most 80 columns.
fn report(s: &Status, dirs: &[PathBuf]) -> String {
    let listed = |v: &[u32]| -> String {
        let mut sorted = v.to_vec();
        sorted.sort_unstable();
        let text: Vec<String> = sorted.iter().take(12).map(u32::to_string).collect();
        let more = sorted.len().saturating_sub(12);
        let tail = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        if text.is_empty() {
            "none".to_string()
        } else {
            text.join(", ") + &tail
        }
    };
    // Each shard on one row, so that the rows add up to K: under way are the shards whose run
    // goes on, neither stopped nor stalled.
    let under: Vec<u32> = (s.under_way.iter())
        .map(|&(i, _)| i)
        .filter(|i| !s.stopped.contains(i) && !s.stalled.contains(i))
        .collect();
    let mut lines = vec![
        format!(
            "n = {}, {} engine{}, {} shards: {:.2}% of the work done (by its prices)",
            s.n,
            s.engine,
            s.decomposition
                .map_or_else(String::new, |d| format!(" ({d})")),
            s.shards,
            100.0 * s.share
        ),
        format!("done        {:>7}  {}", s.done.len(), listed(&s.done)),
        format!("under way   {:>7}  {}", under.len(), listed(&under)),
        format!(
            "not started {:>7}  {}",
            s.not_started.len(),
            listed(&s.not_started)
        ),
        format!("stopped     {:>7}  {}", s.stopped.len(), listed(&s.stopped)),
        format!("stalled     {:>7}  {}", s.stalled.len(), listed(&s.stalled)),
        // A run under way records its CPU time when it stops.
        format!(
            "CPU spent   {} (by the results and the stopped runs)",
            crate::units::duration(s.cpu_seconds)
        ),
    ];
    let left = |what: Option<f64>, of: &str| {
        what.map(|t| format!("{} of {of}", crate::units::duration(t)))
    };
    let known: Vec<String> = [
        left(s.cpu_left_seconds(), "CPU"),
        left(s.wall_left_seconds(), "wall time"),
    ]
    .into_iter()
    .flatten()
    .collect();
    lines.push(match known.len() {
        _ if s.not_started.is_empty() && s.under_way.is_empty() => {
            "left        nothing: every shard is done".to_string()
        }
        0 => "left        unknown: no work done yet".to_string(),
        _ => format!("left        {} at the rate so far", known.join(", ")),
    });
    if let Some(again) = resubmit(s, dirs) {
        // The files cannot show what waits in the queue: resubmit what is not there.
        lines.push(format!(
            "submit again what is not queued (not started, stopped or stalled):\n{again}"
        ));
    }
    lines.join("\n") + "\n"
}

/// The status as one JSON object.
fn to_json(s: &Status, dirs: &[PathBuf]) -> serde_json::Value {
    serde_json::json!({
        "n": s.n,
        "engine": s.engine.name(),
        "shards": s.shards,
        "share_done": s.share,
        "done": s.done,
        "under_way": s.under_way.iter().map(|&(i, share)| serde_json::json!({"shard": i, "share_done": share})).collect::<Vec<_>>(),
        "not_started": s.not_started,
        "stalled": s.stalled,
        "stopped": s.stopped,
        "decomposition": s.decomposition.map(|d| d.name()),
        "cpu_seconds": s.cpu_seconds,
        "cpu_left_seconds": s.cpu_left_seconds(),
        "wall_left_seconds": s.wall_left_seconds(),
        "array": s.array(),
        "resubmit": resubmit(s, dirs),
        "problems": s.problems,
    })
}
