//! Progress on stderr: an indicatif bar on a terminal, plain lines every few seconds elsewhere.
//!
//! The share of work done weighs each subproblem by its expected cost ([`nqueens::cost`]), so
//! the ETA holds although the subproblems near the centre of the board cost far more than the
//! others. An estimate shows its draws through the same [`Ticker`]. stdout never sees progress.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};

use crate::units::clock;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nqueens::exec::Run;
use nqueens::{Observer, Part, Piece, Plan, Search, Tally};

/// How progress is shown.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mode {
    /// A bar that redraws itself (stderr is a terminal).
    Bar,
    /// A plain line this often (a log file, a pipe).
    Lines(Duration),
    /// Nothing.
    Off,
}

impl Mode {
    /// The bar on a terminal, lines every `lines_every` when asked for elsewhere; `quiet` wins.
    pub fn choose(quiet: bool, lines_every: Option<Duration>) -> Mode {
        match lines_every {
            _ if quiet => Mode::Off,
            _ if std::io::stderr().is_terminal() => Mode::Bar,
            Some(every) => Mode::Lines(every),
            None => Mode::Off,
        }
    }
}

/// The bar waits this long before it appears, so short runs stay quiet.
const BAR_AFTER: Duration = Duration::from_secs(1);
const BAR_TICK: Duration = Duration::from_millis(200);
/// The bar's length: the share of work in units of 1/10 000.
const BAR_STEPS: u64 = 10_000;

/// The bar being drawn, for [`note`].
static ACTIVE: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Prints `message` on stderr, above the progress bar if one is drawn.
pub fn note(message: &str) {
    match ACTIVE.lock().ok().and_then(|bar| bar.clone()) {
        Some(bar) => bar.suspend(|| crate::streams::say(message)),
        None => crate::streams::say(message),
    }
}

/// Clears the progress bar for good, if one is drawn: for last words before the program exits.
pub fn clear() {
    if let Some(bar) = ACTIVE.lock().unwrap_or_else(|e| e.into_inner()).take() {
        bar.finish_and_clear();
    }
}

/// Watches a run and shows how far it is; an [`Observer`].
pub struct Progress<'a> {
    plan: &'a Plan,
    shared: Arc<Shared>,
    ticker: Option<Ticker>,
}

struct Shared {
    /// Expected cost of each subproblem, by id (empty when nothing is shown).
    cost: Vec<f64>,
    /// Expected cost of the selected subproblems.
    total_cost: f64,
    /// Selected subproblems.
    of: usize,
    /// What the pieces are called ("blocks", "subproblems").
    pieces_are: &'static str,
    start: Instant,
    /// What the checkpoint held when this run of the program began.
    resumed: Done,
    done: Mutex<Done>,
    /// The share of its cost that each piece under way has counted ([`Part`]), and the
    /// solutions of the whole board its parts found.
    under_way: Mutex<HashMap<usize, (f64, u128)>>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Done {
    cost: f64,
    tally: Tally,
    /// Solutions the parts of pieces under way found.
    under_way: u128,
}

impl<'a> Progress<'a> {
    /// Starts showing the progress of `run` (a run of `plan`) as `mode` says.
    pub fn start(plan: &'a Plan, run: &Run, mode: Mode) -> Progress<'a> {
        let cost = if mode == Mode::Off {
            Vec::new()
        } else {
            plan.costs()
        };
        let cost_of = |piece: Piece| cost.get(piece.id).copied().unwrap_or(0.0);
        let mut resumed = run
            .resumed()
            .fold(Done::default(), |d, (piece, found)| Done {
                cost: d.cost + cost_of(piece),
                tally: d.tally.merge(Tally::of(piece, found)),
                ..d
            });
        // The pieces a checkpoint holds a part of have counted that share of their cost.
        let mut under_way = HashMap::new();
        if mode != Mode::Off {
            for (piece, part) in run.resumed_parts() {
                let share = plan.part_share(piece.id, part.done);
                let found = u128::from(piece.weight) * u128::from(part.solutions);
                resumed.cost += cost_of(piece) * share;
                resumed.under_way += found;
                under_way.insert(piece.id, (share, found));
            }
        }
        let shared = Arc::new(Shared {
            total_cost: run.selected().map(cost_of).sum(),
            of: run.selected().count(),
            pieces_are: plan.pieces_are(),
            start: Instant::now(),
            resumed,
            done: Mutex::new(resumed),
            under_way: Mutex::new(under_way),
            cost,
        });
        let watched = Arc::clone(&shared);
        let ticker = Ticker::start(mode, format!("n = {}", plan.n()), move || {
            let now = watched.snapshot();
            Reading {
                position: now.share,
                short: now.short(),
                line: now.to_string(),
            }
        });
        Progress {
            plan,
            shared,
            ticker,
        }
    }

    /// Moves piece `id` on to `share` of its cost, its parts having found `found` solutions of
    /// the whole board (a finished piece: 1, and its count is in the tally): what it adds to
    /// the work done, and to the solutions of the pieces under way.
    fn move_to(&self, id: usize, share: f64, found: u128) -> (f64, i128) {
        let mut under_way = self
            .shared
            .under_way
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let (before, earlier) = if share >= 1.0 {
            under_way.remove(&id)
        } else {
            under_way.insert(id, (share, found))
        }
        .unwrap_or((0.0, 0));
        let cost = self.shared.cost.get(id).copied().unwrap_or(0.0);
        (cost * (share - before), found as i128 - earlier as i128)
    }

    /// Stops showing progress and clears the bar.
    pub fn finish(self) {
        if let Some(ticker) = self.ticker {
            ticker.stop();
        }
    }
}

/// What a [`Ticker`] shows at one moment.
pub struct Reading {
    /// How far the bar is, from 0 to 1.
    pub position: f64,
    /// The bar's message, in a terminal's width.
    pub short: String,
    /// The line a log gets.
    pub line: String,
}

/// A thread that shows what `read` says as `mode` asks: redraws a bar, or prints a line every
/// so often (and one more when stopped), until [`Ticker::stop`].
pub struct Ticker {
    quit: mpsc::Sender<()>,
    thread: JoinHandle<()>,
}

impl Ticker {
    /// Starts showing `read`, labelled `label` (`n = 18`), or nothing for [`Mode::Off`] (or a
    /// thread that could not start).
    pub fn start(
        mode: Mode,
        label: String,
        read: impl Fn() -> Reading + Send + 'static,
    ) -> Option<Ticker> {
        if mode == Mode::Off {
            return None;
        }
        let (quit, quit_rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("nqueens-progress".to_string())
            .spawn(move || show(mode, &label, &read, &quit_rx))
            .ok()
            .map(|thread| Ticker { quit, thread })
    }

    /// Stops the thread and clears the bar.
    pub fn stop(self) {
        drop(self.quit);
        let _ = self.thread.join();
    }
}

impl Observer for Progress<'_> {
    fn advanced(&self, piece: Piece, part: Part) {
        if self.shared.cost.is_empty() {
            return;
        }
        let share = self.plan.part_share(piece.id, part.done);
        let found = u128::from(piece.weight) * u128::from(part.solutions);
        let (cost, more) = self.move_to(piece.id, share, found);
        if let Ok(mut done) = self.shared.done.lock() {
            done.cost += cost;
            done.under_way = done.under_way.saturating_add_signed(more);
        }
    }

    fn finished(&self, piece: Piece, found: &Search) {
        let (cost, less) = self.move_to(piece.id, 1.0, 0);
        if let Ok(mut done) = self.shared.done.lock() {
            done.under_way = done.under_way.saturating_add_signed(less);
            done.cost += cost;
            done.tally = done.tally.merge(Tally::of(piece, found));
        }
    }
}

/// The ticker thread: draws the bar or prints lines until `quit` closes (and, for lines, one
/// more with where things ended).
fn show(mode: Mode, label: &str, read: &dyn Fn() -> Reading, quit: &mpsc::Receiver<()>) {
    let start = Instant::now();
    let tick = match mode {
        Mode::Lines(every) => every,
        _ => BAR_TICK,
    };
    let bar = ProgressBar::with_draw_target(Some(BAR_STEPS), ProgressDrawTarget::hidden())
        .with_style(
            ProgressStyle::with_template("{prefix} [{bar:20}] {msg}")
                .expect("the template is valid")
                .progress_chars("=> "),
        )
        .with_prefix(label.to_string());
    while let Err(RecvTimeoutError::Timeout) = quit.recv_timeout(tick) {
        let now = read();
        match mode {
            Mode::Bar => {
                if start.elapsed() >= BAR_AFTER && bar.is_hidden() {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    *ACTIVE.lock().unwrap_or_else(|e| e.into_inner()) = Some(bar.clone());
                }
                bar.set_position((now.position.clamp(0.0, 1.0) * BAR_STEPS as f64) as u64);
                // The message fits the terminal's width as it is now (it may have been
                // resized): whole parts of it, never a word cut in two.
                let width = console::Term::stderr()
                    .size_checked()
                    .map_or(80, |(_, w)| usize::from(w));
                let room = width.saturating_sub(label.chars().count() + 25);
                bar.set_message(fit(&now.short, room));
            }
            _ => note(&format!("progress {label}: {}", now.line)),
        }
    }
    if let Mode::Lines(_) = mode {
        // A log ends with where the run ended, however short it was.
        note(&format!("progress {label}: {}", read().line));
    }
    *ACTIVE.lock().unwrap_or_else(|e| e.into_inner()) = None;
    bar.finish_and_clear();
}

/// `message` cut to at most `room` characters where it can be: whole `, `-separated parts from
/// the left, or, when not even the first fits, whole words of it.
fn fit(message: &str, room: usize) -> String {
    let parts = leading(message, ", ", room);
    if parts.is_empty() {
        leading(message, " ", room)
    } else {
        parts
    }
}

/// The leading pieces of `message`, split at `separator`, that fit in `room` characters.
fn leading(message: &str, separator: &str, room: usize) -> String {
    let mut out = String::new();
    for piece in message.split(separator) {
        let sep = if out.is_empty() { "" } else { separator };
        if out.chars().count() + sep.len() + piece.chars().count() > room {
            break;
        }
        out.push_str(sep);
        out.push_str(piece);
    }
    out
}

/// How far the run is at one moment.
struct Snapshot {
    share: f64,
    subproblems: usize,
    of: usize,
    pieces_are: &'static str,
    elapsed: Duration,
    eta: Option<Duration>,
    solutions: u128,
    rate: f64,
}

impl Shared {
    fn snapshot(&self) -> Snapshot {
        let done = *self.done.lock().unwrap_or_else(|e| e.into_inner());
        let elapsed = self.start.elapsed();
        let share_of = |d: &Done| {
            if self.total_cost > 0.0 {
                d.cost / self.total_cost
            } else {
                d.tally.pieces as f64 / self.of.max(1) as f64
            }
        };
        let (share, share_now) = (share_of(&done), share_of(&done) - share_of(&self.resumed));
        let seconds = elapsed.as_secs_f64();
        let eta = (share_now > 0.0 && seconds > 0.0)
            .then(|| Duration::from_secs_f64((1.0 - share).max(0.0) * seconds / share_now));
        Snapshot {
            share: share.min(1.0),
            subproblems: done.tally.pieces,
            of: self.of,
            pieces_are: self.pieces_are,
            elapsed,
            eta,
            solutions: done.tally.total + done.under_way,
            rate: (done.tally.total + done.under_way)
                .saturating_sub(self.resumed.tally.total + self.resumed.under_way)
                as f64
                / seconds.max(1e-9),
        }
    }
}

impl Snapshot {
    /// The same in a terminal's width: `42.1% ETA 0:00:17, 0:00:12 elapsed, 6213456 solutions, 1.94 M/s`.
    fn short(&self) -> String {
        format!(
            "{:.1}% ETA {}, {} elapsed, {} solutions, {}/s",
            self.share * 100.0,
            self.eta.map_or("?".to_string(), clock),
            clock(self.elapsed),
            self.solutions,
            human(self.rate),
        )
    }
}

impl std::fmt::Display for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let eta = self.eta.map_or("?".to_string(), clock);
        write!(
            f,
            "{:.1}% of the work, ETA {eta}, {} elapsed, {} solutions so far, {} solutions/s \
             ({} of {} {}, of unequal work)",
            self.share * 100.0,
            clock(self.elapsed),
            self.solutions,
            human(self.rate),
            self.subproblems,
            self.of,
            self.pieces_are,
        )
    }
}

/// A rate with an SI prefix: `1.94 M`.
fn human(x: f64) -> String {
    let (value, unit) = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")]
        .into_iter()
        .find(|(scale, _)| x >= *scale)
        .map_or((x, ""), |(scale, unit)| (x / scale, unit));
    format!("{value:.2} {unit}").trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_s_message_is_cut_between_parts_or_words_never_inside_one() {
        let message = "42.1% ETA 0:00:17, 0:00:12 elapsed, 6213456 solutions, 1.94 M/s";
        assert_eq!(fit(message, 200), message);
        assert_eq!(fit(message, 40), "42.1% ETA 0:00:17, 0:00:12 elapsed");
        assert_eq!(fit(message, 33), "42.1% ETA 0:00:17");
        assert_eq!(fit(message, 12), "42.1% ETA");
        assert_eq!(fit(message, 3), "");
        for room in 0..80 {
            assert!(fit(message, room).chars().count() <= room);
        }
    }

    #[test]
    fn clocks_and_rates_read_well() {
        assert_eq!(human(1_940_000.0), "1.94 M");
        assert_eq!(human(12.0), "12.00");
    }
}
