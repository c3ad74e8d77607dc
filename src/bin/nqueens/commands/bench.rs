//! `nqueens bench` on a terminal: a progress bar on stderr, the header and the summary table on
//! stdout, and the export files written at the start and rewritten after every thread count, so a
//! bad path fails early and a failure later loses nothing finished.

use std::io::{self, IsTerminal, Write};
use std::time::Duration;

use crate::bench::{self, table, Event, Export, Settings};
use crate::units::plural;
use indicatif::{ProgressBar, ProgressStyle};

use crate::error::Error;
use crate::exit::Exit;

/// Runs the benchmark of `settings`, writing `exports` as it goes.
pub fn run(settings: &Settings, exports: &[Export]) -> Result<Exit, Error> {
    // Every export's path, before the first run (the calibration's too).
    for export in exports {
        export.check()?;
    }
    let bar = progress_bar();
    let mut started = 0;
    let result = bench::run(settings, &mut |event| {
        match event {
            Event::Calibrating { n } => {
                bar.set_message(format!("choosing n: a one-thread run of n = {n}"))
            }
            Event::Started { bench, runs } => {
                bar.set_length(runs as u64);
                let mut out = crate::streams::stdout().map_err(bench::Error::Output)?;
                bar.suspend(|| write!(out, "{}", table::header(bench)))
                    .map_err(bench::Error::Output)?;
                // A file that cannot be written fails now, not after the first thread count.
                save(exports, bench)?;
            }
            Event::Run {
                threads,
                index,
                warmup,
            } => {
                bar.set_position(started);
                started += 1;
                let what = if warmup {
                    format!("warm-up {}/{}", index + 1, settings.warmup)
                } else {
                    format!("run {}/{}", index + 1 - settings.warmup, settings.runs)
                };
                bar.set_message(format!("{}: {what}", plural(threads, "thread")));
            }
            Event::Row { bench } => {
                bar.set_position(started);
                save(exports, bench)?;
            }
        }
        Ok(())
    });
    bar.finish_and_clear();
    let bench = result.map_err(|e| match e {
        bench::Error::Output(e) => Error::Io(e),
        e => Error::Bench(e),
    })?;
    let mut out = crate::streams::stdout()?;
    writeln!(out)?;
    write!(out, "{}", table::table(&bench))?;
    for warning in [table::startup_warning(&bench), table::busy_warning(&bench)]
        .into_iter()
        .flatten()
    {
        crate::streams::say(&warning);
    }
    Ok(Exit::Success)
}

/// Writes every export of `bench` as it is so far.
fn save(exports: &[Export], bench: &bench::Bench) -> Result<(), bench::Error> {
    exports.iter().try_for_each(|e| e.write(bench))
}

/// A bar of runs on stderr, hidden when stderr is not a terminal.
fn progress_bar() -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {elapsed_precise} [{bar:30}] {pos}/{len} runs  {msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(100));
    bar
}
