//! A run that can be watched, stopped and resumed: one plan, and views of it.
//!
//! The checkpoint is the plan's finished subproblems; resuming is executing the rest (the
//! `select` of [`exec::execute`] skips what the checkpoint holds) and folding both; the stop
//! flag and the caller's [`Observer`] see the same subproblems as they finish. The part of the
//! plan a run counts is a [`Selection`] (everything, or one shard of a cluster run), so the ids
//! mean the same in every checkpoint of the plan.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use nqueens::exec::{Run, Selection};
//!
//! let plan = nqueens::plan(10, &nqueens::Options::default()).unwrap();
//! let run = Run::open(&plan, Selection::all(), false, None).unwrap();
//! let stop = AtomicBool::new(false);
//! let done = run.execute(2, &stop, &nqueens::exec::Unobserved).unwrap();
//! assert_eq!(done.tally.total, 724);
//! ```

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::exec::checkpoint::{self, Identity, Writer};
use crate::exec::{self, Execution, Observer, Tally};
use crate::plan::{Part, Piece, Plan};
use crate::search::kernel::Search;
use crate::{Counts, Interrupted};

/// A run that did not end with a count.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// The plan or the pool failed, or the run was stopped before every subproblem finished
    /// ([`crate::Error::Interrupted`]).
    #[error(transparent)]
    Count(#[from] crate::Error),
    /// The checkpoint could not be used or written.
    #[error(transparent)]
    Checkpoint(#[from] checkpoint::CheckpointError),
}

/// Which subproblems of a plan a run counts, and the name its checkpoint knows that part by.
pub struct Selection<'a> {
    name: String,
    pick: Box<dyn Fn(Piece) -> bool + Sync + 'a>,
}

impl<'a> Selection<'a> {
    /// The whole plan (named `all`).
    pub fn all() -> Selection<'a> {
        Selection::new("all", |_| true)
    }

    /// The subproblems `pick` keeps; `name` (no spaces) tells this part from the others.
    pub fn new(name: &str, pick: impl Fn(Piece) -> bool + Sync + 'a) -> Selection<'a> {
        Selection {
            name: name.replace(char::is_whitespace, "_"),
            pick: Box::new(pick),
        }
    }

    /// Whether `piece` is part of the selection.
    pub fn contains(&self, piece: Piece) -> bool {
        (self.pick)(piece)
    }
}

/// A run of the selected part of a plan, resumed from its checkpoint if it has one.
pub struct Run<'a> {
    plan: &'a Plan,
    selection: Selection<'a>,
    count_nodes: bool,
    saved: HashMap<usize, Search>,
    /// How far the pieces the checkpoint holds no result of have come.
    parts: HashMap<usize, Part>,
    torn_line: Option<usize>,
    earlier: Times,
    writer: Option<Writer>,
}

/// Wall-clock and CPU time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Times {
    /// Wall-clock time.
    pub wall: Duration,
    /// CPU time, every thread of the process together.
    pub cpu: Duration,
}

/// What a run that finished found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Finished {
    /// The fold of every selected subproblem: those resumed and those counted now.
    pub tally: Tally,
    /// Subproblems taken from the checkpoint.
    pub resumed: usize,
    /// Wall time of this run of the program (not of the runs it resumed).
    pub elapsed: Duration,
    /// CPU time of this run of the program's counting.
    pub cpu: Duration,
    /// The time of the runs before this one on the same checkpoint, as their time lines say.
    pub earlier: Times,
}

impl<'a> Run<'a> {
    /// Prepares a run of `selection` of `plan`. With a `checkpoint` path the file is read back
    /// (or created) and must belong to the same plan, selection and node counting; its finished
    /// subproblems will not run again.
    pub fn open(
        plan: &'a Plan,
        selection: Selection<'a>,
        count_nodes: bool,
        checkpoint: Option<&Path>,
    ) -> Result<Run<'a>, checkpoint::CheckpointError> {
        let (writer, saved) = match checkpoint {
            Some(path) => {
                let identity = Identity::new(plan, count_nodes, &selection.name);
                let (writer, saved) = Writer::open(path, &identity)?;
                (Some(writer), saved)
            }
            None => (None, checkpoint::Saved::default()),
        };
        let (wall, cpu) = saved.earlier();
        let mut parts = HashMap::new();
        for (&id, &(part, line)) in &saved.parts {
            if saved.finished.contains_key(&id) {
                continue;
            }
            // A part is recorded after a piece's part but the last, never after all of them.
            if u64::from(part.done) >= plan.parts(id) {
                return Err(checkpoint::CheckpointError::Damaged {
                    path: checkpoint.map(Path::to_path_buf).unwrap_or_default(),
                    line,
                    why: format!(
                        "subproblem {id} is recorded as {} parts done of {}",
                        part.done,
                        plan.parts(id)
                    ),
                });
            }
            parts.insert(id, part);
        }
        Ok(Run {
            plan,
            selection,
            count_nodes,
            parts,
            saved: saved.finished,
            torn_line: saved.torn_line,
            earlier: Times { wall, cpu },
            writer,
        })
    }

    /// Counts `selection` of `plan` on `threads` threads at once, with no checkpoint and
    /// nothing to stop it but `observer`: the one-shot form of [`Run::open`] and
    /// [`Run::execute`], which `count` and a shard's `count` are.
    pub fn once(
        plan: &'a Plan,
        selection: Selection<'a>,
        threads: usize,
        count_nodes: bool,
        observer: &dyn Observer,
    ) -> Result<Finished, crate::Error> {
        let run = Run {
            plan,
            selection,
            count_nodes,
            saved: HashMap::new(),
            parts: HashMap::new(),
            torn_line: None,
            earlier: Times::default(),
            writer: None,
        };
        match run.execute(threads, &AtomicBool::new(false), observer) {
            Ok(finished) => Ok(finished),
            Err(RunError::Count(e)) => Err(e),
            // The only checkpoint error is the writer's, and this run has none.
            Err(RunError::Checkpoint(e)) => unreachable!("a run with no checkpoint wrote one: {e}"),
        }
    }

    /// The line of the checkpoint that held a record torn by a crash, now dropped.
    pub fn torn_line(&self) -> Option<usize> {
        self.torn_line
    }

    /// The selected pieces.
    pub fn selected(&self) -> impl Iterator<Item = Piece> + '_ {
        self.plan
            .pieces()
            .filter(|&piece| self.selection.contains(piece))
    }

    /// The selected pieces the checkpoint already holds, with what they found.
    pub fn resumed(&self) -> impl Iterator<Item = (Piece, &Search)> + '_ {
        self.selected()
            .filter_map(|piece| self.saved.get(&piece.id).map(|found| (piece, found)))
    }

    /// The selected pieces the checkpoint holds a part of but no result: they resume from it.
    pub fn resumed_parts(&self) -> impl Iterator<Item = (Piece, Part)> + '_ {
        self.selected()
            .filter_map(|piece| self.parts.get(&piece.id).map(|&part| (piece, part)))
    }

    /// Counts the selected subproblems the checkpoint does not hold yet on `threads` threads,
    /// recording each as it finishes, until done or until `stop` is set; then folds them with the
    /// resumed ones. `observer` sees each subproblem counted now.
    ///
    /// A stopped run returns [`crate::Error::Interrupted`] after its running subproblems finished and
    /// the checkpoint is synced.
    pub fn execute(
        self,
        threads: usize,
        stop: &AtomicBool,
        observer: &dyn Observer,
    ) -> Result<Finished, RunError> {
        let Run {
            plan,
            selection,
            count_nodes,
            saved,
            parts,
            writer,
            ..
        } = &self;
        let watch = Watch {
            writer: writer.as_ref(),
            stop,
            observer,
            recorded: Mutex::new(HashMap::new()),
            paused: AtomicUsize::new(0),
        };
        let how = Execution {
            threads,
            count_nodes: *count_nodes,
        };
        let todo = |piece: Piece| selection.contains(piece) && !saved.contains_key(&piece.id);
        let cpu = crate::system::time::process_cpu();
        let from = |piece: Piece| parts.get(&piece.id).copied().unwrap_or_default();
        let outcome = exec::execute_from(plan, &todo, &from, how, &watch)?;
        let paused = watch.paused.load(Ordering::Relaxed);
        let pieces_are = plan.pieces_are();
        let cpu = crate::system::time::process_cpu().saturating_sub(cpu);
        let earlier = self.earlier;
        let resumed = self.resumed().fold(Tally::default(), |t, (piece, found)| {
            t.merge(Tally::of(piece, found))
        });
        let tally = resumed.merge(outcome.tally);
        let of = self.selected().count();
        let Run { writer, .. } = self;
        let checkpoint = writer.as_ref().map(|w| w.path().to_path_buf());
        if let Some(writer) = writer {
            writer.finish()?;
        }
        if !outcome.complete {
            return Err(crate::Error::Interrupted(Interrupted {
                done: tally.pieces,
                of,
                pieces_are,
                paused,
                checkpoint,
            })
            .into());
        }
        Ok(Finished {
            tally,
            resumed: resumed.pieces,
            elapsed: outcome.elapsed,
            cpu,
            earlier,
        })
    }
}

impl Finished {
    /// The time of every run of this count together: the earlier ones' (from the checkpoint)
    /// and this one's.
    pub fn all_runs(&self) -> Times {
        Times {
            wall: self.earlier.wall + self.elapsed,
            cpu: self.earlier.cpu + self.cpu,
        }
    }

    /// The counts of a run of the whole `plan` on `threads` threads; queens placed when
    /// `count_nodes` and the engine places them one by one (not the join engine).
    pub fn counts(&self, plan: &Plan, threads: usize, count_nodes: bool) -> Counts {
        let counts = Counts::of(
            plan,
            self.tally.total,
            (count_nodes && plan.counts_nodes()).then_some(self.tally.nodes),
            threads,
            self.elapsed,
        );
        Counts {
            pairs_anded: plan.pairs_anded().map(u128::from),
            pairs_tested: plan.pairs_tested().map(u128::from),
            ..counts
        }
    }
}

/// The observer the engine sees: records to the checkpoint, then tells the caller's observer;
/// stops on the flag, on the caller's word, or when the checkpoint cannot be written.
struct Watch<'a> {
    writer: Option<&'a Writer>,
    stop: &'a AtomicBool,
    observer: &'a dyn Observer,
    /// When each piece under way was handed out or last had a part recorded, and the parts
    /// that record holds.
    recorded: Mutex<HashMap<usize, (Instant, u32)>>,
    /// Pieces stopped inside.
    paused: AtomicUsize,
}

impl Watch<'_> {
    fn recorded(&self) -> std::sync::MutexGuard<'_, HashMap<usize, (Instant, u32)>> {
        self.recorded.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Observer for Watch<'_> {
    fn starting(&self, piece: Piece) {
        if self.writer.is_some() {
            self.recorded().insert(piece.id, (Instant::now(), 0));
        }
        self.observer.starting(piece);
    }

    fn advanced(&self, piece: Piece, part: Part) {
        if let Some(writer) = self.writer {
            let mut recorded = self.recorded();
            let last = recorded.entry(piece.id).or_insert((Instant::now(), 0));
            if last.0.elapsed() >= checkpoint::PART_EVERY {
                writer.record_part(piece.id, part);
                *last = (Instant::now(), part.done);
            }
        }
        self.observer.advanced(piece, part);
    }

    fn paused(&self, piece: Piece, part: Part) {
        self.paused.fetch_add(1, Ordering::Relaxed);
        if let Some(writer) = self.writer {
            // Unless `advanced` has just recorded this very part.
            if self.recorded().get(&piece.id).map(|r| r.1) != Some(part.done) {
                writer.record_part(piece.id, part);
            }
        }
        self.observer.paused(piece, part);
    }

    fn finished(&self, piece: Piece, found: &Search) {
        if let Some(writer) = self.writer {
            writer.record(piece.id, found);
            self.recorded().remove(&piece.id);
        }
        self.observer.finished(piece, found);
    }

    fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.writer.is_some_and(Writer::failed)
            || self.observer.should_stop()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stops the run after `after` subproblems.
    struct StopAfter(AtomicUsize, usize);

    impl Observer for StopAfter {
        fn finished(&self, _: Piece, _: &Search) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
        fn should_stop(&self) -> bool {
            self.0.load(Ordering::SeqCst) >= self.1
        }
    }

    #[test]
    fn a_stopped_run_resumes_to_the_exact_count() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ck");
        let plan = Plan::new(crate::Engine::Mirror, 11, 3).unwrap();
        let no = AtomicBool::new(false);
        let mut resumed_before = 0;
        for round in 0.. {
            let run = Run::open(&plan, Selection::all(), true, Some(&path)).unwrap();
            assert_eq!(run.resumed().count(), resumed_before);
            match run.execute(2, &no, &StopAfter(AtomicUsize::new(0), 40)) {
                Err(RunError::Count(crate::Error::Interrupted(i))) => {
                    assert!(i.done > resumed_before && i.done < plan.len());
                    assert_eq!(i.checkpoint.as_deref(), Some(path.as_path()));
                    resumed_before = i.done;
                }
                Ok(f) => {
                    assert_eq!(f.tally.total, 2680);
                    assert_eq!(f.tally.pieces, plan.len());
                    assert!(round >= 2, "the run should have stopped a few times");
                    break;
                }
                Err(e) => panic!("{e}"),
            }
        }
    }

    #[test]
    fn a_selection_counts_only_its_part_and_checkpoints_know_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ck");
        let plan = Plan::new(crate::Engine::Mirror, 10, 2).unwrap();
        let no = AtomicBool::new(false);
        let even = || Selection::new("even", |p: Piece| p.id.is_multiple_of(2));
        let odd = || Selection::new("odd", |p: Piece| p.id % 2 == 1);
        let part = |sel: Selection, path: Option<&Path>| {
            let run = Run::open(&plan, sel, false, path).unwrap();
            run.execute(1, &no, &exec::Unobserved).unwrap().tally.total
        };
        let (a, b) = (part(even(), Some(&path)), part(odd(), None));
        assert_eq!(a + b, 724);
        assert_eq!(part(even(), Some(&path)), a);
        let refused = Run::open(&plan, odd(), false, Some(&path)).err().unwrap();
        assert!(refused
            .to_string()
            .contains("selection is even in the file but odd here"));
    }
}
