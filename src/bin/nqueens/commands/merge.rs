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
        // Asked before opening: opening a FIFO with no writer would wait forever. Only regular
        // files (and stdin, `-`) hold shard results.
        if let Some(kind) = not_regular(&fs::metadata(path)?) {
            return Err(io::Error::other(format!(
                "it is not a file of shard results (a {kind})"
            )));
        }
        let file = fs::File::open(path)?;
        let meta = file.metadata()?;
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

/// What a path that is not a regular file is: a device, a FIFO, a socket (`None` for a regular
/// file).
fn not_regular(meta: &fs::Metadata) -> Option<&'static str> {
    let kind = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() || kind.is_block_device() {
            return Some("device");
        }
        if kind.is_fifo() {
            return Some("FIFO");
        }
        if kind.is_socket() {
            return Some("socket");
        }
    }
    (!kind.is_file() && !kind.is_dir()).then_some("special file")
}

/// An error naming the inputs given more than once (the same file by two paths too): counted
/// twice they would look like two hosts' copies of each shard.
fn given_once(files: &[PathBuf]) -> Result<(), Error> {
    let mut seen = std::collections::HashMap::new();
    let mut twice = Vec::new();
    for path in files.iter().filter(|p| p.as_os_str() != "-") {
        let key = fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        if let Some(first) = seen.insert(key, path.clone()) {
            twice.push(if first == *path {
                path.display().to_string()
            } else {
                format!("{} (also as {})", path.display(), first.display())
            });
        }
    }
    if twice.is_empty() {
        return Ok(());
    }
    Err(Error::File {
        what: "read",
        path: PathBuf::from(&twice[0]),
        source: io::Error::other(format!(
            "the same file is given twice{}",
            if twice.len() > 1 {
                format!(", and {} more", twice.len() - 1)
            } else {
                String::new()
            }
        )),
    })
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
pub fn run(
    files: &[PathBuf],
    json: bool,
    quorum: merge::Quorum,
    threads: usize,
) -> Result<Exit, Error> {
    let each = read(files)?.merge_each(threads, quorum)?;
    for merged in &each {
        for warning in &merged.warnings {
            say(&format!("warning: {warning}"));
        }
        say(&summary(merged));
    }
    let rows: Vec<Merged> = each
        .iter()
        .map(|m| Merged {
            report: Report::from(&m.counts),
            plan: m.plan.clone(),
            decomposition: m.decomposition.map(nqueens::Decomposition::name),
            shards: m.shards.len(),
            k: m.shards.first().map_or(0, |r| r.shards),
            confirmed: (each.len() >= 2)
                .then(|| each.iter().all(|e| e.counts.total == each[0].counts.total)),
        })
        .collect();
    print(&rows, json)?;
    confirm(&rows)?;
    if let Some(wrong) = rows.iter().find(|r| r.report.verified == Some(false)) {
        return Err(Error::Message(format!(
            "the merged total of n = {} is {}, not the published {}: a shard counted wrong",
            wrong.report.n,
            wrong.report.total,
            wrong.report.expected.unwrap_or_default()
        )));
    }
    Ok(Exit::Success)
}

/// The shard results in `files`, read one file at a time: its text is dropped once its results
/// are read. A folder stands for the `.json` files in it (a campaign's 10^5 shard files pass no
/// command line's limit).
fn read(files: &[PathBuf]) -> Result<merge::Reader, Error> {
    let mut reader = merge::Reader::default();
    let files = expand(files)?;
    given_once(&files)?;
    for path in &files {
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
    Ok(reader)
}

/// The merged rows on stdout: JSON Lines, or the table with the lines that say how each count
/// was made.
fn print(rows: &[Merged], json: bool) -> Result<(), Error> {
    let mut out = crate::streams::stdout()?;
    if json {
        for row in rows {
            writeln!(
                out,
                "{}",
                serde_json::to_string(row).expect("a merge always serialises")
            )?;
        }
    } else {
        // The seconds column of a merge is the shards' times summed, not a wall time; its
        // header says so.
        writeln!(
            out,
            "{}",
            report::table_header().replacen("   seconds", "shard_secs", 1)
        )?;
        for row in rows {
            writeln!(out, "{}", report::table_row(&row.report))?;
        }
        for row in rows {
            writeln!(out, "{}", row.provenance())?;
        }
    }
    Ok(())
}

/// Where the rows are one board's count by several decompositions: an error unless they give
/// one total, and a line that says they do.
fn confirm(rows: &[Merged]) -> Result<(), Error> {
    if rows.len() < 2 {
        return Ok(());
    }
    // Named by decomposition where each has its own, else by decomposition (or engine) and K.
    let mut decompositions: Vec<Option<&str>> = rows.iter().map(|r| r.decomposition).collect();
    decompositions.sort_unstable();
    decompositions.dedup();
    let by_decomposition = decompositions.len() == rows.len() && !decompositions.contains(&None);
    let (names, what): (Vec<String>, _) = if by_decomposition {
        let names = rows
            .iter()
            .map(|r| r.decomposition.unwrap_or("one").to_string());
        (names.collect(), "decompositions")
    } else {
        let names = rows.iter().map(|r| {
            let way = r.decomposition.unwrap_or(r.report.engine.name());
            format!("{way} K = {}", r.k)
        });
        (names.collect(), "campaigns")
    };
    if rows.iter().any(|r| r.report.total != rows[0].report.total) {
        let each: Vec<String> = (rows.iter().zip(&names))
            .map(|(r, name)| format!("{} by {name}", r.report.total))
            .collect();
        return Err(Error::Message(format!(
            "the {what} of n = {} disagree: {}: at least one of the campaigns counted wrong; \
             count again the shards of each on other hosts (--quorum 2)",
            rows[0].report.n,
            each.join(", ")
        )));
    }
    let (last, rest) = names.split_last().expect("two rows or more");
    say(&format!(
        "confirmed: the {} and {last} {what} give the same total",
        rest.join(", ")
    ));
    Ok(())
}

/// The line on stderr that sums up a merge's shards and their times.
fn summary(merged: &merge::Merged) -> String {
    let times: Vec<f64> = merged.shards.iter().map(|r| r.elapsed_seconds).collect();
    let (min, max) = times.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &t| {
        (lo.min(t), hi.max(t))
    });
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let c = &merged.counts;
    format!(
        "merged {} shards of n = {} ({} engine, depth {}, {} {}): shard times {min:.3} s to \
         {max:.3} s, slowest/mean {:.3}, {:.3} s in all",
        merged.shards.len(),
        c.n,
        c.engine,
        c.split_depth,
        c.pieces,
        if c.engine == nqueens::Engine::Join {
            "blocks"
        } else {
            "subproblems"
        },
        if mean > 0.0 { max / mean } else { 1.0 },
        c.elapsed.as_secs_f64(),
    )
}

/// One merged count as printed and exported: the count's report, and how it was made.
#[derive(Debug, serde::Serialize)]
struct Merged {
    #[serde(flatten)]
    report: Report,
    /// The plan's fingerprint, as the shard files name it.
    plan: String,
    /// `whole`, `quarter-turn` or `innermost` for an even board's join plan; `null` where
    /// there is one way.
    decomposition: Option<&'static str>,
    /// Shards merged.
    shards: usize,
    /// K, the shards the campaign was split into.
    #[serde(skip)]
    k: u32,
    /// With several merged counts (one board by several decompositions): whether their totals
    /// agree.
    #[serde(skip_serializing_if = "Option::is_none")]
    confirmed: Option<bool>,
}

impl Merged {
    /// The line under the table that says how this count was made.
    fn provenance(&self) -> String {
        format!(
            "# n = {}: {} shards of plan {}{}; shard_secs: their times summed",
            self.report.n,
            self.shards,
            self.plan,
            self.decomposition
                .map_or_else(String::new, |d| format!(", decomposition {d}"))
        )
    }
}
