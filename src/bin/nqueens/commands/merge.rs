//! `nqueens merge FILES…`: checks that the partial results are the K shards of one run and prints
//! their sum as `count` would.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::report::{self, Report};
use crate::streams::say;
use nqueens::cluster::{self as merge, Input};

use crate::error::Error;
use crate::exit::Exit;

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
        #[cfg(unix)]
        let device = {
            use std::os::unix::fs::FileTypeExt;
            let kind = meta.file_type();
            kind.is_char_device() || kind.is_block_device()
        };
        #[cfg(not(unix))]
        let device = false;
        // Pipes (`<(cat …)`) are read, as far as the limit; devices never are.
        if device {
            return Err(io::Error::other(
                "it is not a file of shard results (a device)",
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

/// `files` with each folder replaced by the `.json` files in it, by name.
fn expand(files: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    for path in files {
        if path.as_os_str() == "-" || !path.is_dir() {
            out.push(path.clone());
            continue;
        }
        let listed = fs::read_dir(path).and_then(|entries| {
            entries
                .map(|e| e.map(|e| e.path()))
                .collect::<io::Result<Vec<PathBuf>>>()
        });
        let mut inside: Vec<PathBuf> = listed
            .map_err(|source| Error::File {
                what: "read",
                path: path.clone(),
                source,
            })?
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "json") && p.is_file())
            .collect();
        if inside.is_empty() {
            return Err(Error::File {
                what: "read",
                path: path.clone(),
                source: io::Error::other("the folder holds no .json file"),
            });
        }
        inside.sort();
        out.extend(inside);
    }
    Ok(out)
}

/// Checks and sums the partial results in `files` (`-` is stdin) and prints the count as `count`
/// does; warnings and a summary of the shards go to stderr.
pub fn run(files: &[PathBuf], json: bool, quorum: merge::Quorum) -> Result<Exit, Error> {
    // One file at a time: its text is dropped once its results are read. A folder stands for
    // the `.json` files in it (a campaign's 10^5 shard files pass no command line's limit).
    let mut reader = merge::Reader::default();
    for path in &expand(files)? {
        let text = read_input(path).map_err(|source| Error::File {
            what: "read",
            path: path.clone(),
            source,
        })?;
        reader.add(&Input {
            name: path.display().to_string(),
            text,
        });
    }
    let merged = reader.merge(num_cpus::get(), quorum)?;
    for warning in &merged.warnings {
        say(&format!("warning: {warning}"));
    }
    let times: Vec<f64> = merged.shards.iter().map(|r| r.elapsed_seconds).collect();
    let (min, max) = times.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &t| {
        (lo.min(t), hi.max(t))
    });
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let c = &merged.counts;
    say(&format!(
        "merged {} shards of n = {} ({} engine, depth {}, {} subproblems): shard times {min:.3} s \
         to {max:.3} s, slowest/mean {:.3}, {:.3} s in all",
        merged.shards.len(),
        c.n,
        c.engine,
        c.split_depth,
        c.subproblems,
        if mean > 0.0 { max / mean } else { 1.0 },
        c.elapsed.as_secs_f64(),
    ));
    let r = Report::from(c);
    let mut out = crate::streams::stdout()?;
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
