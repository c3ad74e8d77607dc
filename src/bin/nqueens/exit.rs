//! How the program ends: the exit status of every outcome, in one place.

use crate::error::Error;
use crate::interrupt::Signal;

/// How the program ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Everything ran and every known count matched.
    Success = 0,
    /// A count did not match the published value, or the run failed.
    Failure = 1,
    /// The command line was wrong.
    Usage = 2,
    /// Stopped by SIGINT (Ctrl-C): 128 + 2.
    Interrupted = 130,
    /// Stopped by SIGTERM: 128 + 15.
    Terminated = 143,
}

impl Exit {
    /// The status of a run stopped by `signal`: 128 + its number.
    pub fn of_signal(signal: Signal) -> Exit {
        match signal {
            Signal::Int => Exit::Interrupted,
            Signal::Term => Exit::Terminated,
        }
    }
}

/// The exit status of a command that ended with `result`, after saying on stderr what went wrong.
/// A broken pipe is a failure too: what a command prints is a result (a shard's JSON, a merge, a
/// listing), and a scheduler must not take a result nobody read for one delivered.
pub fn exit_code(result: Result<Exit, Error>) -> Exit {
    let err = match result {
        Ok(exit) => return exit,
        Err(err) => err,
    };
    if let Error::Interrupted(stopped) = &err {
        crate::streams::say(&stopped.to_string());
        return stopped.signal.map_or(Exit::Failure, Exit::of_signal);
    }
    crate::streams::say(&format!("error: {err}"));
    match err {
        Error::Count(
            nqueens::Error::PlanTooLarge { .. }
            | nqueens::Error::NoSplitDepth { .. }
            | nqueens::Error::Decomposition { .. }
            | nqueens::Error::EngineDecomposition { .. },
        ) => Exit::Usage,
        _ => Exit::Failure,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_follow_the_outcome() {
        assert_eq!(exit_code(Ok(Exit::Success)), Exit::Success);
        let pipe = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        assert_eq!(exit_code(Err(Error::Io(pipe))), Exit::Failure);
        let usage = nqueens::Error::NoSplitDepth {
            engine: nqueens::Engine::Join,
        };
        assert_eq!(exit_code(Err(Error::Count(usage))), Exit::Usage);
        let failed = nqueens::Error::Pool {
            threads: 2,
            needed: 4 << 20,
            reason: "no threads".to_string(),
        };
        assert_eq!(exit_code(Err(Error::Count(failed))), Exit::Failure);
        assert_eq!(Exit::of_signal(Signal::Int) as u8, Signal::Int.status());
        assert_eq!(Exit::of_signal(Signal::Term) as u8, Signal::Term.status());
    }
}
