//! The commands, one file each: each runs its [`Command`] and writes its results.

mod bench;
mod count;
pub(crate) mod estimate;
mod merge;
mod shard;
mod solve;
mod status;

use nqueens::estimate::Sampling;

use crate::command::Command;
use crate::error::Error;
use crate::exit::Exit;
use crate::progress::Mode;

/// Runs `command`, writing results to stdout. A reader that closes the pipe early (`solve 12 |
/// head`) had what it wanted: the command ends quietly with 0, as ripgrep and fd do, unless
/// what it cut short is a shard's result, which is lost if it is not delivered.
pub fn run(command: Command) -> Result<Exit, Error> {
    let must_arrive = matches!(command, Command::CountShard { .. });
    match dispatch(command) {
        Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe && !must_arrive => {
            Ok(Exit::Success)
        }
        outcome => outcome,
    }
}

/// Runs `command`. A command that counts first makes sure its threads can start, so that their
/// refusal is the first thing it says; `merge` and `status`, whose threads only speed them up,
/// make do with one where no more can start.
fn dispatch(command: Command) -> Result<Exit, Error> {
    if let Command::Count { options, .. }
    | Command::CountShard { options, .. }
    | Command::Estimate { options, .. } = &command
    {
        nqueens::exec::threads_start(options.threads)?;
    }
    match command {
        Command::Print(text) => {
            crate::streams::print_text(text)?;
            Ok(Exit::Success)
        }
        Command::ShowPage(roff) => show_page(&roff),
        Command::WritePages { dir, pages } => write_pages(&dir, &pages),
        Command::Count {
            sizes,
            options,
            json,
            watch,
        } => count::run(sizes, &options, json, &watch),
        Command::CountShard {
            n,
            shard,
            launcher,
            watch,
            options,
            output,
        } => shard::run(n, shard, launcher, &options, &watch, output.as_deref()),
        Command::Merge {
            files,
            json,
            quorum,
        } => merge::run(&files, json, quorum, threads_that_start(num_cpus::get())?),
        Command::Bench { settings, exports } => bench::run(&settings, &exports),
        Command::Status {
            dirs,
            json,
            stalled,
            threads,
        } => status::run(&dirs, json, stalled, threads_that_start(threads)?),
        Command::Estimate {
            n,
            options,
            shards,
            seconds,
            until,
            seed,
            json,
            progress,
            quiet,
        } => estimate::run(
            n,
            &options,
            Sampling::for_seconds(seconds)
                .until(until)
                .unless_counting_is_sooner(),
            seed,
            estimate::Output { shards, json },
            Mode::choose(quiet, progress),
        ),
        Command::Solve {
            n,
            options,
            format,
            trace,
        } => solve::run(n, &options, format, trace),
    }
}

/// `wanted` threads where they fit, else one (for `merge` and `status`, whose threads only
/// speed them up): the error names what even one needs.
fn threads_that_start(wanted: usize) -> Result<usize, Error> {
    if nqueens::exec::threads_start(wanted).is_ok() {
        return Ok(wanted);
    }
    nqueens::exec::threads_start(1)?;
    Ok(1)
}

/// Writes each page into `dir` (made if missing), naming each file on stdout as it is written.
fn write_pages(dir: &std::path::Path, pages: &[(String, Vec<u8>)]) -> Result<Exit, Error> {
    let failed = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |source| Error::File {
            what: "write",
            path,
            source,
        }
    };
    std::fs::create_dir_all(dir).map_err(failed(dir))?;
    for (name, text) in pages {
        let path = dir.join(name);
        nqueens::util::files::write(&path, text).map_err(failed(&path))?;
        crate::streams::print(format!("{}\n", path.display()))?;
    }
    Ok(Exit::Success)
}

/// Shows the manual page `roff`: on a terminal through `man -l -`, which formats and pages it
/// as any manual page; elsewhere (a pipe, a file) as roff, to be installed or formatted later.
/// Where `man` cannot show it, the roff is printed with a note saying how to read it.
fn show_page(roff: &[u8]) -> Result<Exit, Error> {
    use std::io::{IsTerminal, Write};
    if std::io::stdout().is_terminal() {
        if let Ok(mut man) = std::process::Command::new("man")
            .args(["-l", "-"])
            .stdin(std::process::Stdio::piped())
            .spawn()
        {
            let fed = man.stdin.take().map(|mut input| input.write_all(roff));
            if let (Some(Ok(())), Ok(status)) = (fed, man.wait()) {
                if status.success() {
                    return Ok(Exit::Success);
                }
            }
        }
        crate::streams::say(
            "note: `man` could not show the page: its roff follows (`nqueens COMMAND --help` \
             says the same in plain text)",
        );
    }
    crate::streams::print_text(roff)?;
    Ok(Exit::Success)
}
