//! Execute and fold: runs the subproblems of a plan on a rayon pool, tells observers of each,
//! and folds their weighted counts ([`Tally`]); a [`Run`] adds the checkpoint and the stop flag,
//! and the checkpoint ([`Writer`]) is the file that keeps finished work.

pub(crate) mod checkpoint;
pub(crate) mod run;

pub use checkpoint::{CheckpointError, Identity, Saved, Writer, CHECKPOINT_FORMAT};
pub use run::{Finished, Run, RunError, Selection, Times};

use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::plan::{Part, Piece, Plan};
use crate::search::kernel::Search;
use crate::Error;

/// Watches a run: told of every finished piece, asked whether to stop.
///
/// Progress bars, checkpoints and interruption are observers; the search never knows about them.
pub trait Observer: Sync {
    /// A piece is handed out (called from the worker thread that counts it).
    fn starting(&self, _piece: Piece) {}
    /// A piece has counted its first parts ([`Part`]: a join block's row sets), called after
    /// each part but the last, from the worker thread that counts it.
    fn advanced(&self, _piece: Piece, _part: Part) {}
    /// A piece was stopped after `part`, which the run keeps (its checkpoint resumes from it).
    fn paused(&self, _piece: Piece, _part: Part) {}
    /// A piece is done (called from the worker thread that ran it).
    fn finished(&self, _piece: Piece, _found: &Search) {}
    /// Polled before each piece starts and between the parts of one: `true` hands out no more
    /// pieces and stops those with parts left after the part under way.
    fn should_stop(&self) -> bool {
        false
    }
}

/// An observer that watches nothing.
pub struct Unobserved;

impl Observer for Unobserved {}

/// The fold of finished subproblems: weighted sums that cannot overflow (u128).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tally {
    /// Σ weight × completions: solutions of the whole board found so far.
    pub total: u128,
    /// Queens placed by the searches (0 unless nodes were counted).
    pub nodes: u128,
    /// Pieces of the plan folded in.
    pub pieces: usize,
}

impl Tally {
    /// The tally of one finished piece.
    pub fn of(piece: Piece, found: &Search) -> Tally {
        Tally {
            total: u128::from(piece.weight) * u128::from(found.solutions),
            nodes: u128::from(found.nodes),
            pieces: 1,
        }
    }

    /// Both tallies together.
    pub fn merge(self, other: Tally) -> Tally {
        Tally {
            total: self.total + other.total,
            nodes: self.nodes + other.nodes,
            pieces: self.pieces + other.pieces,
        }
    }
}

/// What [`execute`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Outcome {
    /// The fold of every subproblem that finished.
    pub tally: Tally,
    /// False when the observer stopped the run before every subproblem finished.
    pub complete: bool,
    /// Wall time.
    pub elapsed: Duration,
}

/// How to execute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Execution {
    /// Worker threads (≥ 1).
    pub threads: usize,
    /// Also count queens placed (one more add per node in the hot loop).
    pub count_nodes: bool,
}

/// Threads a run of the program starts beside its workers: the signal watcher, the checkpoint's
/// writer and the progress display.
const HELPER_THREADS: usize = 3;

/// Whether a run's `threads` workers and its helper threads fit in the address space this
/// process may still map (`ulimit -v`), asked without starting any: a command asks before it
/// says or starts anything else, so that a refusal is its first and only word, naming what the
/// workers need.
pub fn threads_start(threads: usize) -> Result<(), Error> {
    crate::system::room_for(threads.max(1), HELPER_THREADS)
}

/// Runs the subproblems of `plan` that `select` picks on a pool of `how.threads` threads.
///
/// `select` is how a resumed run skips finished subproblems and a shard keeps its own: the plan
/// stays whole, so ids mean the same everywhere.
pub fn execute(
    plan: &Plan,
    select: &(dyn Fn(Piece) -> bool + Sync),
    how: Execution,
    observer: &dyn Observer,
) -> Result<Outcome, Error> {
    execute_from(plan, select, &|_| Part::default(), how, observer)
}

/// [`execute`], each piece resumed `from` the part of it counted before (a checkpoint's).
pub fn execute_from(
    plan: &Plan,
    select: &(dyn Fn(Piece) -> bool + Sync),
    from: &(dyn Fn(Piece) -> Part + Sync),
    how: Execution,
    observer: &dyn Observer,
) -> Result<Outcome, Error> {
    let start = Instant::now();
    let (tally, complete) = crate::system::on_pool(how.threads, || {
        (0..plan.len())
            .into_par_iter()
            .with_max_len(1)
            .map(|id| plan.piece(id))
            .filter(|&piece| select(piece))
            .map(|piece| {
                if observer.should_stop() {
                    return (Tally::default(), false);
                }
                observer.starting(piece);
                let mut each = |part: Part| {
                    observer.advanced(piece, part);
                    let go_on = !observer.should_stop();
                    if !go_on {
                        observer.paused(piece, part);
                    }
                    go_on
                };
                match plan.count_piece_from(piece.id, how.count_nodes, from(piece), &mut each) {
                    Some(found) => {
                        observer.finished(piece, &found);
                        (Tally::of(piece, &found), true)
                    }
                    None => (Tally::default(), false),
                }
            })
            .reduce(
                || (Tally::default(), true),
                |(a, ca), (b, cb)| (a.merge(b), ca && cb),
            )
    })?;
    Ok(Outcome {
        tally,
        complete,
        elapsed: start.elapsed(),
    })
}
