//! The `nqueens` command: parse, run, map the outcome to an exit status.

mod app;
mod bench_cmd;
mod cli;
mod cluster;
mod interrupt;
mod listing;
mod longrun;
mod progress;

use std::process::ExitCode;

use app::{Error, Exit};

fn main() -> ExitCode {
    let command = match cli::parse() {
        Ok(command) => command,
        Err(err)
            if err.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            // Bare `nqueens`: the help, as an error.
            let _ = err.print();
            return ExitCode::from(Exit::Usage as u8);
        }
        Err(err) if !err.use_stderr() => {
            // --help and --version
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        Err(err) => {
            eprintln!("{}", cli::one_line(&err));
            return ExitCode::from(Exit::Usage as u8);
        }
    };
    let exit = match app::run(command) {
        Ok(exit) => exit,
        Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Exit::Success,
        Err(Error::Interrupted(stopped)) => {
            eprintln!("{stopped}");
            stopped.exit()
        }
        Err(err) => {
            eprintln!("error: {err}");
            match err {
                Error::Count(
                    nqueens::Error::PlanTooLarge { .. }
                    | nqueens::Error::NoSplitDepth { .. }
                    | nqueens::Error::JoinLimit { .. },
                ) => Exit::Usage,
                Error::Checkpoint(
                    nqueens::checkpoint::Error::OtherRun { .. }
                    | nqueens::checkpoint::Error::NotACheckpoint { .. },
                ) => Exit::Usage,
                _ => Exit::Failure,
            }
        }
    };
    ExitCode::from(exit as u8)
}
