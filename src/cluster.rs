//! Runs the commands for many machines: `count N --shard I/K` writes a partial result, `merge`
//! checks and sums them into the usual report.

use std::fs;
use std::io::{self, Read, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

use nqueens::merge::{self, Input};
use nqueens::report::{self, Report};
use nqueens::run::Selection;
use nqueens::shard::{Launcher, Shard, ShardRun};
use nqueens::Options;

use crate::app::{Error, Exit};
use crate::interrupt::Interrupt;
use crate::longrun::{self, Watch};

/// Counts `shard` of the `n`-board and writes its partial result to `output` (stdout if `None`),
/// with a one-line summary on stderr.
pub fn count_shard(
    n: u32,
    shard: Shard,
    launcher: Option<Launcher>,
    options: &Options,
    watch: &Watch,
    output: Option<&Path>,
) -> Result<Exit, Error> {
    let interrupt = Interrupt::install(
        watch.checkpoint.is_some(),
        &crate::interrupt::resume_args(Some(shard)),
    );
    let run = ShardRun::new(n, options, shard)?;
    let selection = Selection::new(
        &format!("shard-{}-of-{}", shard.index(), shard.count()),
        |s| run.owns(s),
    );
    let finished = longrun::execute(&run.plan, selection, options, watch, &interrupt)?;
    let result = run.result(finished.tally, finished.elapsed, options.threads)?;
    let json = result.json();
    match output {
        None => {
            let mut out = io::stdout().lock();
            out.write_all(json.as_bytes())?;
            out.flush()?;
        }
        Some(path) => {
            nqueens::files::write(path, json.as_bytes()).map_err(|source| Error::File {
                what: "write",
                path: path.to_path_buf(),
                source,
            })?
        }
    }
    eprintln!(
        "shard {shard} of n = {n}{}: {} of {} subproblems, partial total {}, {:.3} s with -j {} on {}{}",
        launcher.map_or(String::new(), |l| format!(" (from {l})")),
        result.subproblems,
        result.plan_subproblems,
        result.total,
        result.elapsed_seconds,
        result.threads,
        result.host,
        output.map_or(String::new(), |p| format!(" -> {}", p.display())),
    );
    Ok(Exit::Success)
}

/// The text of one input of merge (`-` is stdin): a file, pipe or stdin of at most
/// [`merge::MAX_INPUT_BYTES`], so that `merge /dev/zero` is refused instead of filling memory.
fn read_input(path: &Path) -> io::Result<String> {
    let too_large = || {
        io::Error::other(format!(
            "it holds more than {} MiB, far more than any set of shard results",
            merge::MAX_INPUT_BYTES >> 20
        ))
    };
    let file: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(io::stdin())
    } else {
        let file = fs::File::open(path)?;
        let meta = file.metadata()?;
        let kind = meta.file_type();
        // Pipes (`<(cat …)`) are read, as far as the limit; devices never are.
        if kind.is_dir() || kind.is_char_device() || kind.is_block_device() {
            return Err(io::Error::other(
                "it is not a file of shard results (a device or a folder)",
            ));
        }
        if meta.len() > merge::MAX_INPUT_BYTES {
            return Err(too_large());
        }
        Box::new(file)
    };
    let mut text = String::new();
    file.take(merge::MAX_INPUT_BYTES + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > merge::MAX_INPUT_BYTES {
        return Err(too_large());
    }
    Ok(text)
}

/// Checks and sums the partial results in `files` (`-` is stdin) and prints the count as `count`
/// does; warnings and a summary of the shards go to stderr.
pub fn merge(files: &[PathBuf], json: bool) -> Result<Exit, Error> {
    let inputs = files
        .iter()
        .map(|path| {
            read_input(path)
                .map(|text| Input {
                    name: path.display().to_string(),
                    text,
                })
                .map_err(|source| Error::File {
                    what: "read",
                    path: path.clone(),
                    source,
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let merged = merge::merge(&inputs, num_cpus::get())?;
    for warning in &merged.warnings {
        eprintln!("warning: {warning}");
    }
    let times: Vec<f64> = merged.shards.iter().map(|r| r.elapsed_seconds).collect();
    let (min, max) = times.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &t| {
        (lo.min(t), hi.max(t))
    });
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let c = &merged.counts;
    eprintln!(
        "merged {} shards of n = {} ({} engine, depth {}, {} subproblems): shard times {min:.3} s \
         to {max:.3} s, slowest/mean {:.3}, {:.3} s in all",
        merged.shards.len(),
        c.n,
        c.engine,
        c.split_depth,
        c.subproblems,
        if mean > 0.0 { max / mean } else { 1.0 },
        c.elapsed.as_secs_f64(),
    );
    let r = Report::from(c);
    let mut out = io::stdout().lock();
    if json {
        writeln!(out, "{}", r.json())?;
    } else {
        writeln!(out, "{}", report::table_header())?;
        writeln!(out, "{}", report::table_row(&r))?;
    }
    Ok(if r.verified == Some(false) {
        Exit::Failure
    } else {
        Exit::Success
    })
}
