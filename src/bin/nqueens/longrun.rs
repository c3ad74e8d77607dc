//! `count` as a long run: resumed from its checkpoint, watched by a progress display, stopped
//! cleanly by a signal.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use nqueens::exec::Observer;
use nqueens::exec::{self as run, Finished, Run, Selection};
use nqueens::{Counts, Options, Piece, Plan, Search};

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
    let plan = nqueens::plan(n, options)?;
    let finished = execute(&plan, Selection::all(), options, watch, interrupt)?;
    Ok(finished.counts(&plan, options.threads, options.count_nodes))
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
    if let Some(why) = plan.fell_back() {
        progress::note(&format!(
            "note: counting n = {} with the {} engine: {why}",
            plan.n(),
            plan.engine()
        ));
    }
    let path = watch.checkpoint.as_deref();
    let run = Run::open(plan, selection, options.count_nodes, path)?;
    if let (Some(path), false) = (path, watch.quiet) {
        if let Some(line) = run.torn_line() {
            progress::note(&format!(
                "{}: line {line} is a record torn by a crash; its subproblem will be redone",
                path.display()
            ));
        }
        let resumed = run.resumed().count();
        if resumed > 0 {
            progress::note(&format!(
                "resuming from {}: {resumed} of {} subproblems are already done",
                path.display(),
                run.selected().count()
            ));
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
    }
}

/// The progress display, and for `--test-hold-after K` a gate: the subproblems after the first
/// K wait until the stop flag is set (a signal came), then are not run. Tests use it to stop a
/// run at a known point, however fast the machine is.
struct Held<'a> {
    inner: &'a dyn Observer,
    after: Option<usize>,
    started: AtomicUsize,
    stop: &'a AtomicBool,
}

impl Observer for Held<'_> {
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
