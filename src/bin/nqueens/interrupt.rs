//! Ctrl-C (SIGINT) and SIGTERM (Slurm's scancel and time limit): the first one stops the run
//! cleanly; a later Ctrl-C quits at once, but a later SIGTERM does not.
//!
//! A scheduler repeats SIGTERM: Slurm at a time limit signals the step itself and again through
//! `srun` (with SIGCONT between), then sends SIGKILL after its `KillWait`. Taking the second
//! SIGTERM as "quit now" would lose the running subproblems at every time limit, so only a person
//! at a terminal, pressing Ctrl-C twice, makes the program quit at once.
//!
//! With a checkpoint, the first signal sets the stop flag the run polls before it hands out each
//! subproblem: the running ones finish, the checkpoint is synced, and the program says how to
//! resume and exits with 128 + the signal (130 for SIGINT, 143 for SIGTERM). Without one there is
//! nothing to save: it says the work is lost and exits at once. A command with something to say
//! when stopped (an estimate: what its draws so far predict) says it, then exits ([`quit_with`]).

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;

use signal_hook::consts::{SIGINT, SIGTERM};

use crate::progress::note;

/// A signal that stops a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// SIGINT, Ctrl-C.
    Int,
    /// SIGTERM.
    Term,
}

impl Signal {
    fn from_raw(raw: i32) -> Option<Signal> {
        match raw {
            SIGINT => Some(Signal::Int),
            SIGTERM => Some(Signal::Term),
            _ => None,
        }
    }

    /// Its conventional name.
    pub fn name(self) -> &'static str {
        match self {
            Signal::Int => "SIGINT",
            Signal::Term => "SIGTERM",
        }
    }

    /// The exit status of a program it stopped: 128 + its number.
    pub fn status(self) -> u8 {
        match self {
            Signal::Int => 128 + SIGINT as u8,
            Signal::Term => 128 + SIGTERM as u8,
        }
    }
}

/// The signals received so far, as a stop flag for the run.
pub struct Interrupt {
    stop: Arc<AtomicBool>,
    first: Arc<AtomicI32>,
    /// The command that resumes the run, quoted for a shell.
    resume: Arc<str>,
}

impl Interrupt {
    /// Catches SIGINT and SIGTERM from now on. `saving` says whether the run keeps a checkpoint
    /// (then the first signal stops it cleanly; otherwise the program quits at once); `resume`
    /// is the command line that resumes it (this program's own, with anything resolved at run
    /// time, such as `--shard auto`, written out).
    pub fn install(saving: bool, resume: &[String]) -> Interrupt {
        let interrupt = Interrupt {
            stop: Arc::new(AtomicBool::new(false)),
            first: Arc::new(AtomicI32::new(0)),
            resume: quoted(resume).into(),
        };
        let (stop, first) = (Arc::clone(&interrupt.stop), Arc::clone(&interrupt.first));
        let resume = Arc::clone(&interrupt.resume);
        catch(move |raw| received(raw, saving, &stop, &first, &resume));
        interrupt
    }

    /// Set by the first signal: the run hands out no more subproblems.
    pub fn flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// The first signal received, if any.
    pub fn signal(&self) -> Option<Signal> {
        Signal::from_raw(self.first.load(Ordering::SeqCst))
    }

    /// The command line that resumes the run, quoted for a shell.
    pub fn resume_command(&self) -> &str {
        &self.resume
    }
}

/// Catches SIGINT and SIGTERM from now on: the first calls `last_words` with the signal, then
/// the program exits with 128 + its number.
pub fn quit_with(last_words: impl FnOnce(Signal) + Send + 'static) {
    let mut last_words = Some(last_words);
    catch(move |raw| {
        if let (Some(signal), Some(last_words)) = (Signal::from_raw(raw), last_words.take()) {
            last_words(signal);
            std::process::exit(i32::from(signal.status()));
        }
    });
}

/// Calls `received` with each SIGINT and SIGTERM from now on, on a thread of its own; warns when
/// they cannot be caught.
#[cfg(unix)]
fn catch(mut received: impl FnMut(i32) + Send + 'static) {
    use signal_hook::iterator::Signals;
    let caught = Signals::new([SIGINT, SIGTERM]).and_then(|mut signals| {
        std::thread::Builder::new()
            .name("nqueens-signals".to_string())
            .spawn(move || signals.forever().for_each(&mut received))
    });
    if let Err(e) = caught {
        note(&format!(
            "warning: cannot catch SIGINT and SIGTERM ({e}): they will end the program at once"
        ));
    }
}

/// Outside Unix no signal is caught: Ctrl-C ends the program at once, and a checkpoint keeps
/// what was saved before it (at most the last a tenth of a second is
/// lost and redone).
#[cfg(not(unix))]
fn catch(_received: impl FnMut(i32) + Send + 'static) {}

fn received(raw: i32, saving: bool, stop: &AtomicBool, first: &AtomicI32, resume: &str) {
    let Some(signal) = Signal::from_raw(raw) else {
        return;
    };
    let name = signal.name();
    let is_first = first
        .compare_exchange(0, raw, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok();
    if is_first && saving {
        stop.store(true, Ordering::SeqCst);
        note(&format!(
            "{name}: finishing the work under way (a block stops after its row set) and saving \
             the checkpoint (press Ctrl-C again to quit at once)"
        ));
        return;
    }
    if !is_first && signal == Signal::Term {
        // A scheduler's repeat (Slurm: the step's SIGTERM, then srun's): the first one's stop
        // goes on, and SIGKILL, if it comes, still leaves the checkpoint valid.
        note("SIGTERM again: still finishing the work under way (Ctrl-C quits at once)");
        return;
    }
    if is_first {
        note(&format!(
            "{name}: stopped; the work so far is lost, as there is no checkpoint \
             (with --checkpoint FILE a run can be stopped and resumed)"
        ));
    } else {
        note(&format!(
            "{name} again: quitting at once; the checkpoint stays valid, the work under way since \
             its last record will be redone. To resume, run: {resume}"
        ));
    }
    std::process::exit(i32::from(signal.status()));
}

/// A run that a signal stopped, with how to resume it.
#[derive(Debug)]
pub struct Stopped {
    /// The signal, if one stopped the run.
    pub signal: Option<Signal>,
    /// What the run saved.
    pub run: nqueens::Interrupted,
    /// The command that resumes it.
    pub resume: String,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.signal {
            Some(signal) => write!(f, "interrupted by {}: {}", signal.name(), self.run)?,
            None => write!(f, "interrupted: {}", self.run)?,
        }
        if self.run.checkpoint.is_some() {
            write!(f, ". To resume, run: {}", self.resume)?;
        }
        Ok(())
    }
}

/// This program's command line, with `--shard auto` (`--shard=auto`) replaced by `shard`, the
/// shard it resolved to: `auto` outside the job that started the run would mean another shard,
/// or none.
pub fn resume_args(shard: Option<nqueens::cluster::Shard>) -> Vec<String> {
    resolved(std::env::args().collect(), shard)
}

fn resolved(mut args: Vec<String>, shard: Option<nqueens::cluster::Shard>) -> Vec<String> {
    if let Some(shard) = shard {
        for i in 0..args.len() {
            if args[i] == "--shard=auto" {
                args[i] = format!("--shard={shard}");
            } else if args[i] == "--shard" && args.get(i + 1).is_some_and(|a| a.trim() == "auto") {
                args[i + 1] = shard.to_string();
            }
        }
    }
    args
}

/// `args` as one line for a POSIX shell, quoted where needed.
fn quoted(args: &[String]) -> String {
    args.iter()
        .map(|arg| {
            let plain = !arg.is_empty()
                && arg
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
            if plain {
                arg.clone()
            } else {
                format!("'{}'", arg.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Interrupt {
        /// An interrupt as if `signal` had been received (with a checkpoint kept), catching nothing.
        pub fn signalled(signal: Option<Signal>) -> Interrupt {
            let raw = match signal {
                Some(Signal::Int) => SIGINT,
                Some(Signal::Term) => SIGTERM,
                None => 0,
            };
            Interrupt {
                stop: Arc::new(AtomicBool::new(signal.is_some())),
                first: Arc::new(AtomicI32::new(raw)),
                resume: "nqueens count 9 --checkpoint n9.ckpt".into(),
            }
        }
    }

    /// A scheduler's SIGTERM again (Slurm's, then srun's) leaves the stop under way: it
    /// returns, where a quit would exit the process (and this test with it).
    #[test]
    fn a_second_sigterm_goes_on_finishing() {
        let (stop, first) = (AtomicBool::new(false), AtomicI32::new(0));
        received(SIGTERM, true, &stop, &first, "nqueens count 9");
        assert!(stop.load(Ordering::SeqCst));
        assert_eq!(
            Signal::from_raw(first.load(Ordering::SeqCst)),
            Some(Signal::Term)
        );
        received(SIGTERM, true, &stop, &first, "nqueens count 9");
        received(SIGTERM, true, &stop, &first, "nqueens count 9");
        assert!(stop.load(Ordering::SeqCst));
    }

    fn words(line: &str) -> Vec<String> {
        line.split(' ').map(String::from).collect()
    }

    #[test]
    fn the_resume_command_names_the_shard_auto_resolved_to() {
        let shard = Some(nqueens::cluster::Shard::new(3, 8).unwrap());
        let args = words("nqueens count 21 --shard auto --checkpoint c");
        assert_eq!(
            quoted(&resolved(args.clone(), shard)),
            "nqueens count 21 --shard 3/8 --checkpoint c"
        );
        assert_eq!(
            quoted(&resolved(words("nqueens count 21 --shard=auto"), shard)),
            "nqueens count 21 --shard=3/8"
        );
        // A count that is no shard keeps its command line, quoted where needed.
        let mut plain = words("nqueens count 16 --checkpoint");
        plain.push("my run.ckpt".to_string());
        assert_eq!(
            quoted(&resolved(plain, None)),
            "nqueens count 16 --checkpoint 'my run.ckpt'"
        );
    }
}
