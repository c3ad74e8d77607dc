//! `count` as a long run: resumed from its checkpoint, watched by a progress display, stopped
//! cleanly by a signal.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use nqueens::exec::Observer;
use nqueens::exec::{self as run, Finished, Run, Selection};
use nqueens::{Counts, Options, Part, Piece, Plan, Search};

use crate::command::Watch;
use crate::error::Error;
use crate::interrupt::{Interrupt, Stopped};
use crate::progress::{self, Mode, Progress};

/// Counts board size `n`, resuming from the checkpoint if there is one.
pub fn count(
    n: u32,
    options: &Options,
    watch: &Watch,
    interrupt: &Interrupt,
) -> Result<Counts, Error> {
    if n >= PRICED_FROM && !watch.quiet && std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        // The plan of a large board takes seconds to minutes to build, and its price seconds
        // more: whoever watches is told what the silence is.
        progress::note(&format!(
            "n = {n}: building the plan, then pricing the count from a {PRICE_SECONDS} s sample"
        ));
    }
    let plan = nqueens::plan(n, options)?;
    let finished = execute_priced(&plan, Selection::all(), options, watch, interrupt, true)?;
    Ok(finished.counts(&plan, options.threads, options.count_nodes))
}

/// Boards from which a count is priced before it runs: below, a count takes minutes at most
/// on one core of any machine in use, and the sample would be a noticeable share of it.
const PRICED_FROM: u32 = 22;

/// Seconds of sampling that price a count before it runs (at least three draws).
const PRICE_SECONDS: f64 = 3.0;

/// A count priced above this many seconds of wall time is announced.
const ANNOUNCED_ABOVE: f64 = 3_600.0;

/// What is left of the count of `run` (a run of `plan`), priced by a short sample: one line with
/// its expected wall time on its threads and the command that measures it closer, when that
/// is over an hour; `None` otherwise, or when it cannot be priced.
fn price(plan: &Plan, run: &Run, options: &Options) -> Option<String> {
    // The sample prices the whole plan; what is left of it is by the plan's costs (the join's
    // prices are made once per plan: the progress display reads them again at little cost).
    let costs = plan.costs();
    let cost = |piece: Piece| costs.get(piece.id).copied().unwrap_or(0.0);
    let whole: f64 = plan.pieces().map(cost).sum();
    let done: f64 = run.resumed().map(|(piece, _)| cost(piece)).sum();
    let left: f64 = run.selected().map(cost).sum::<f64>() - done;
    let share = if whole > 0.0 { left / whole } else { 1.0 };
    if share <= 0.0 {
        // A finished checkpoint: nothing to price.
        return None;
    }
    let sample = nqueens::estimate::estimate_plan(plan, options, PRICE_SECONDS, 1).ok()?;
    let threads = options.threads.max(1) as f64;
    let (wall, margin) = (
        sample.cpu * share / threads,
        sample.margin * share / threads,
    );
    // The estimate command prices the same plan: the engine and decomposition asked for.
    let mut same = String::new();
    if let Some(engine) = options.engine {
        same += &format!(" --engine {engine}");
    }
    if options.decomposition != nqueens::Decomposition::Fastest {
        same += &format!(" --decomposition {}", options.decomposition);
    }
    (wall > ANNOUNCED_ABOVE).then(|| priced_line(plan.n(), options.threads, wall, margin, &same))
}

/// `error`, where it is a checkpoint of another run, with what in this run's options made its
/// plan another: a run resumes only by the plan that wrote its checkpoint, never another.
fn why_another_run(
    error: nqueens::exec::CheckpointError,
    plan: &Plan,
    options: &Options,
) -> nqueens::exec::CheckpointError {
    let nqueens::exec::CheckpointError::OtherRun {
        path,
        mut differences,
    } = error
    else {
        return error;
    };
    if let Some(why) = plan.fell_back() {
        differences += &format!(
            " (this run would count with the {} engine, because {why}; a run resumes only by \
             the plan that wrote its checkpoint: give it that memory, or --memory)",
            plan.engine()
        );
    }
    let depth = options.split_depth.is_none().then(|| {
        differences
            .split("; ")
            .find_map(|d| {
                d.strip_prefix("split-depth is ")?
                    .split_once(" in the file")
            })
            .map(|(depth, _)| depth.to_string())
    });
    if let Some(Some(depth)) = depth {
        if depth != "0" && plan.fell_back().is_none() {
            differences += &format!(
                " (without --split-depth the split follows the threads, -j {}: resume with \
                 --split-depth {depth})",
                options.threads
            );
        }
    }
    nqueens::exec::CheckpointError::OtherRun { path, differences }
}

/// Wall time past which a count is for a cluster, not for one machine: a month.
const CLUSTER_ABOVE: f64 = 30.0 * 86_400.0;

/// The line that announces a count of `n` on `threads` threads priced at `wall` ± `margin`
/// seconds, in one unit a person reads (hours, days, years); `same` is the estimate's options
/// that price the same plan.
fn priced_line(n: u32, threads: usize, wall: f64, margin: f64, same: &str) -> String {
    let unit = crate::units::unit_of(wall);
    let at = |s: f64| crate::units::in_unit(s, unit);
    let interval = if margin < wall {
        format!(
            "95% interval {} to {}",
            at(wall - margin),
            at(wall + margin)
        )
    } else {
        // The sample is too small to bound it from below: say only what it bounds.
        format!("95% interval up to {}", at(wall + margin))
    };
    let mut line = format!(
        "n = {n}: this count will take about {} on {} ({interval}, from a {PRICE_SECONDS} s \
         sample); to measure it closer first: nqueens estimate {n} -j {threads}{same} \
         --seconds 60",
        at(wall),
        crate::units::plural(threads, "thread"),
    );
    if wall > CLUSTER_ABOVE {
        line += &format!(
            "; a count this long is for a cluster: split it into shards with --shard I/K \
             (nqueens estimate {n} says how many; docs/campaign.md walks through a campaign)"
        );
    }
    line
}

/// Runs `selection` of `plan`: resumed from and recorded to the checkpoint if there is one,
/// with progress on stderr, stopped cleanly by `interrupt`. A shard is a selection too.
pub fn execute(
    plan: &Plan,
    selection: Selection<'_>,
    options: &Options,
    watch: &Watch,
    interrupt: &Interrupt,
) -> Result<Finished, Error> {
    execute_priced(plan, selection, options, watch, interrupt, false)
}

/// [`execute`], first saying how long it will take when `priced` and that is over an hour (a
/// whole count; a campaign sizes its shards with `estimate`).
fn execute_priced(
    plan: &Plan,
    selection: Selection<'_>,
    options: &Options,
    watch: &Watch,
    interrupt: &Interrupt,
    priced: bool,
) -> Result<Finished, Error> {
    if let Some(why) = plan.fell_back() {
        progress::note(&format!(
            "note: counting n = {} with the {} engine: {why}",
            plan.n(),
            plan.engine()
        ));
    }
    if let (Some(table), false) = (plan.table_not_held(), watch.quiet) {
        // The table is built when it takes at most half of the budget.
        let mib = |bytes: u64| bytes.div_ceil(1 << 20);
        progress::note(&format!(
            "note: the quadrant table of n = {} ({} MiB) does not fit in the memory allowed, so \
             its quadrants are made on demand (3 to 4 times slower); --memory {}M would hold it",
            plan.n(),
            mib(table),
            mib(2 * table)
        ));
    }
    let path = watch.checkpoint.as_deref();
    let run = Run::open(plan, selection, options.count_nodes, path)
        .map_err(|e| why_another_run(e, plan, options))?;
    if let (Some(path), false) = (path, watch.quiet) {
        if let Some(line) = run.torn_line() {
            progress::note(&format!(
                "{}: line {line} is a record torn by a crash; what it recorded will be redone",
                path.display()
            ));
        }
        let (resumed, parts) = (run.resumed().count(), run.resumed_parts().count());
        if resumed > 0 || parts > 0 {
            let under_way = if parts > 0 {
                format!(", and {parts} more resume where they stopped")
            } else {
                String::new()
            };
            progress::note(&format!(
                "resuming from {}: {resumed} of {} {} are already done{under_way}",
                path.display(),
                run.selected().count(),
                plan.pieces_are()
            ));
        }
    }
    if priced && !watch.quiet && plan.n() >= PRICED_FROM {
        if let Some(line) = price(plan, &run, options) {
            progress::note(&line);
        }
    }
    let progress = Progress::start(plan, &run, Mode::choose(watch.quiet, watch.progress));
    let held = Held {
        inner: &progress,
        after: watch.hold_after,
        started: AtomicUsize::new(0),
        stop: interrupt.flag(),
    };
    let result = run.execute(options.threads, interrupt.flag(), &held);
    progress.finish();
    match result {
        Ok(finished) => {
            if let Some(signal) = interrupt.signal() {
                progress::note(&late(signal));
            }
            Ok(finished)
        }
        Err(run::RunError::Count(nqueens::Error::Interrupted(saved))) => {
            Err(Error::Interrupted(Stopped {
                signal: interrupt.signal(),
                resume: interrupt.resume_command().to_string(),
                run: saved,
            }))
        }
        Err(run::RunError::Count(e)) => Err(e.into()),
        Err(run::RunError::Checkpoint(e)) => Err(e.into()),
        Err(e) => Err(Error::Run(e)),
    }
}

/// The progress display, and for `NQUEENS_TEST_HOLD_AFTER=K` (a test hook, read by builds with
/// debug assertions only) a gate: the pieces after the first K wait until the stop flag is set
/// (a signal came), then are not run. Tests use it to stop a run at a known point, however fast
/// the machine is.
struct Held<'a> {
    inner: &'a dyn Observer,
    after: Option<usize>,
    started: AtomicUsize,
    stop: &'a AtomicBool,
}

impl Observer for Held<'_> {
    fn starting(&self, piece: Piece) {
        self.inner.starting(piece);
    }

    fn advanced(&self, piece: Piece, part: Part) {
        self.inner.advanced(piece, part);
    }

    fn paused(&self, piece: Piece, part: Part) {
        self.inner.paused(piece, part);
    }

    fn finished(&self, piece: Piece, found: &Search) {
        self.inner.finished(piece, found);
    }

    fn should_stop(&self) -> bool {
        if let Some(after) = self.after {
            if self.started.fetch_add(1, Ordering::SeqCst) >= after {
                while !self.stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                return true;
            }
        }
        self.inner.should_stop()
    }
}

/// What to say of a signal that came after the last subproblem was handed out: it stopped
/// nothing, and the count is whole.
fn late(signal: crate::interrupt::Signal) -> String {
    format!(
        "{} arrived as the run was finishing: every subproblem was counted, so the count is \
         complete",
        signal.name()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interrupt::Signal;

    /// A price reads in one unit a person reads, never an interval from 0, and a count of
    /// years points to shards.
    #[test]
    fn a_long_count_is_priced_in_a_readable_unit_with_an_honest_interval() {
        let hour = 3_600.0;
        let wide = priced_line(23, 2, 61.0 * hour, 61.0 * hour, "");
        assert!(
            wide.contains("about 2.54 days") && wide.contains("95% interval up to 5.08 days"),
            "{wide}"
        );
        assert!(
            !wide.contains(" 0.0") && !wide.contains("--shard"),
            "{wide}"
        );
        let years = priced_line(28, 2, 599_474.5 * hour, 299_440.0 * hour, "");
        assert!(
            years.contains("about 68.39 years")
                && years.contains("95% interval 34.23 years to")
                && years.contains("split it into shards with --shard I/K"),
            "{years}"
        );
    }

    #[test]
    fn a_signal_after_the_last_subproblem_leaves_a_complete_count_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let watch = Watch {
            checkpoint: Some(dir.path().join("n8.ckpt")),
            progress: None,
            quiet: true,
            hold_after: None,
        };
        let options = Options::default().with_threads(1);
        // A finished run: its checkpoint holds every subproblem.
        let calm = Interrupt::signalled(None);
        assert_eq!(count(8, &options, &watch, &calm).unwrap().total, 92);
        // The signal is in, but nothing is left to hand out: the count is whole.
        let late_sigint = Interrupt::signalled(Some(Signal::Int));
        assert_eq!(count(8, &options, &watch, &late_sigint).unwrap().total, 92);
        assert!(late(Signal::Int).starts_with("SIGINT arrived as the run was finishing"));
        // With work left, the same signal stops the run, which says how to resume.
        let fresh = Watch {
            checkpoint: Some(dir.path().join("n9.ckpt")),
            ..watch
        };
        match count(9, &options, &fresh, &late_sigint) {
            Err(Error::Interrupted(stopped)) => {
                assert_eq!(stopped.signal, Some(Signal::Int));
                assert!(stopped.to_string().contains("To resume, run: "));
            }
            other => panic!("not stopped: {other:?}"),
        }
    }
}
