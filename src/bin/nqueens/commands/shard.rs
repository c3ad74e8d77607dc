//! `nqueens count N --shard I/K`: counts one shard of a run split K ways and writes its partial
//! result for `merge`.

use std::io::Write;
use std::path::Path;

use nqueens::cluster::{Launcher, Shard, ShardRun};
use nqueens::exec::Selection;
use nqueens::Options;

use crate::command::Watch;
use crate::error::Error;
use crate::exit::Exit;
use crate::interrupt::{self, Interrupt};
use crate::longrun;

/// Counts `shard` of the `n`-board and writes its partial result to `output` (stdout if `None`),
/// with a one-line summary on stderr.
pub fn run(
    n: u32,
    shard: Shard,
    launcher: Option<Launcher>,
    options: &Options,
    watch: &Watch,
    output: Option<&Path>,
) -> Result<Exit, Error> {
    // Where the result goes is checked before the count, not after it.
    if let Some(path) = output {
        crate::files::check_writable(path).map_err(|source| Error::File {
            what: "write",
            path: path.to_path_buf(),
            source,
        })?;
    }
    let interrupt = Interrupt::install(
        watch.checkpoint.is_some(),
        &interrupt::resume_args(Some(shard)),
    );
    let planning = std::time::Instant::now();
    let run = ShardRun::new(n, options, shard)?;
    let planning = planning.elapsed().as_secs_f64();
    let selection = Selection::new(
        &format!("shard-{}-of-{}", shard.index(), shard.count()),
        |s| run.owns(s),
    );
    let finished = longrun::execute(&run.plan, selection, options, watch, &interrupt)?;
    let result = run.result(finished.tally, finished.all_runs(), options.threads)?;
    let json = result.json();
    match output {
        None => {
            let mut out = crate::streams::stdout()?;
            out.write_all(json.as_bytes())?;
            out.flush()?;
        }
        Some(path) => {
            if let Err(source) = crate::files::write(path, json.as_bytes()) {
                // The folder was removed or the disk filled during the count: the result is
                // not lost, it goes to stderr for the user to save.
                crate::streams::say(&format!(
                    "the partial result could not be written to {}; here it is:\n{}",
                    path.display(),
                    json.trim_end()
                ));
                return Err(Error::File {
                    what: "write",
                    path: path.to_path_buf(),
                    source,
                });
            }
        }
    }
    // The result's times are of the search: every shard builds the whole plan as well, which
    // an estimate of one shard includes, so the line says both.
    crate::streams::say(&format!(
        "shard {shard} of n = {n}{}: {} of {} subproblems, partial total {}, {:.3} s of search \
         with -j {} on {} (plus {planning:.3} s building the plan, not in the result's times){}",
        launcher.map_or(String::new(), |l| format!(" (from {l})")),
        result.subproblems,
        result.plan_subproblems,
        result.total,
        result.elapsed_seconds,
        result.threads,
        result.host,
        output.map_or(String::new(), |p| format!(" -> {}", p.display())),
    ));
    Ok(Exit::Success)
}
