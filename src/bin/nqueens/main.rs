//! The `nqueens` command: parse the command line, run the command, map the outcome to an exit
//! status ([`exit::exit_code`]).

#![deny(clippy::undocumented_unsafe_blocks)]

mod bench;
mod cli;
mod command;
mod commands;
mod error;
mod exit;
mod interrupt;
mod limits;
mod longrun;
mod manual;
mod progress;
mod report;
mod streams;
mod units;

use std::process::ExitCode;

use exit::Exit;

/// The system's allocator, saying a refused allocation as a refusal (see [`limits::Refusing`]).
#[global_allocator]
static ALLOCATOR: limits::Refusing = limits::Refusing;

fn main() -> ExitCode {
    nqueens::memory::one_arena_under_a_limit();
    // An instruction set asked for that this CPU lacks is refused before anything runs.
    if let Err(why) = nqueens::instruction_set_asked() {
        streams::say(&format!("error: {why}"));
        return ExitCode::from(Exit::Usage as u8);
    }
    let command = match cli::parse() {
        Ok(command) => command,
        Err(err)
            if err.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            // Bare `nqueens`: the help, as an error.
            streams::say(&err.render().to_string());
            return ExitCode::from(Exit::Usage as u8);
        }
        Err(err) if !err.use_stderr() => {
            // --help and --version: the output asked for, so one that cannot be written fails
            // (a closed pipe is a reader that had enough: see `print_text`).
            if let Err(e) = streams::print_text(err.render().to_string()) {
                streams::say(&format!("error: cannot write the output: {e}"));
                return ExitCode::from(Exit::Failure as u8);
            }
            return ExitCode::SUCCESS;
        }
        Err(err) => {
            streams::say(&cli::short_form(&err));
            return ExitCode::from(Exit::Usage as u8);
        }
    };
    ExitCode::from(exit::exit_code(commands::run(command)) as u8)
}
