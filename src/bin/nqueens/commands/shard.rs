//! `nqueens count N --shard I/K`: counts one shard of a run split K ways and writes its partial
//! result for `merge`.

use std::path::Path;

use nqueens::cluster::{Launcher, Shard, ShardRun};
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
        nqueens::util::files::check_writable(path).map_err(|source| Error::File {
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
    // Another shard's result at the output path is refused before the count, not lost after it.
    let taken = |path: &Path| another_result(path, &run);
    if let Some(why) = output.and_then(&taken) {
        return Err(Error::File {
            what: "write",
            path: output.unwrap_or(Path::new("")).to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::AlreadyExists, why),
        });
    }
    let finished = longrun::execute(&run.plan, run.selection(), options, watch, &interrupt)?;
    let result = run.result(finished.tally, finished.all_runs(), options.threads)?;
    let json = result.json();
    // A result that cannot be delivered (a full disk, a removed folder, a closed pipe) is not
    // lost: it goes to stderr for the user to save, and the shard fails.
    let delivered =
        match output {
            None => crate::streams::print(json.as_bytes()).map_err(Error::Io),
            Some(path) => nqueens::util::files::write_unless(path, json.as_bytes(), &taken)
                .map_err(|source| Error::File {
                    what: "write",
                    path: path.to_path_buf(),
                    source,
                }),
        };
    if let Err(err) = delivered {
        let place = output.map_or("standard output".to_string(), |p| p.display().to_string());
        crate::streams::say(&format!(
            "the partial result could not be written to {place}; here it is:\n{}",
            json.trim_end()
        ));
        return Err(err);
    }
    if watch.quiet {
        return Ok(Exit::Success);
    }
    // The result's times are of the search: every shard builds the whole plan as well, which
    // an estimate of one shard includes, so the line says both.
    crate::streams::say(&format!(
        "shard {shard} of n = {n}{}: {} of {} {}, partial total {}, {:.3} s of search \
         with -j {} on {} (plus {planning:.3} s building the plan, not in the result's times){}",
        launcher.map_or(String::new(), |l| format!(" (from {l})")),
        result.subproblems,
        result.plan_subproblems,
        run.plan.pieces_are(),
        result.total,
        result.elapsed_seconds,
        result.threads,
        result.host,
        output.map_or(String::new(), |p| format!(" -> {}", p.display())),
    ));
    Ok(Exit::Success)
}

/// Why the file at `path` must not be replaced by `run`'s result: it holds the result of
/// another shard, or of another run (`None` for anything else, this shard's own result too).
fn another_result(path: &Path, run: &ShardRun) -> Option<String> {
    // Only a regular file can hold a result (reading /dev/zero would never end), and a result
    // is a few hundred bytes.
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > 1 << 16 {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let theirs: serde_json::Value = serde_json::from_str(&text).ok()?;
    if theirs["format"] != nqueens::cluster::SHARD_FORMAT {
        return None;
    }
    let plan = format!("{:08x}", run.plan.fingerprint());
    let shard = run.shard;
    let same = theirs["n"] == run.plan.n()
        && theirs["plan"] == plan.as_str()
        && theirs["shard"] == shard.index()
        && theirs["shards"] == shard.count();
    (!same).then(|| {
        format!(
            "it holds the result of shard {}/{} of n = {} (plan {}), not of this shard {shard}: \
             give each shard its own output file (-o 'n{}-{{shard}}.json')",
            theirs["shard"],
            theirs["shards"],
            theirs["n"],
            theirs["plan"].as_str().unwrap_or("?"),
            run.plan.n()
        )
    })
}
