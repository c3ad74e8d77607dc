//! A campaign at a glance, from its folders: which shards are done, under way, stopped or not
//! started, the share of the work done by the plan's prices (counting what each checkpoint
//! holds), the CPU spent, what is left, and the shards that seem stalled.
//!
//! It reads the folders as `examples/slurm/count.sbatch` lays them out (`shard-I.json` when shard
//! I is done, `shard-I.ckpt` while it runs), or any `.json` shard results and `.ckpt`
//! checkpoints of one run. It holds no checkpoint's lock but a shared one for a moment, to tell a
//! running shard from a stopped one, and it never writes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::cluster::partition::{prices, Partition};
use crate::cluster::{PartialResult, Shard};
use crate::exec::checkpoint::{in_use, read_unlocked, Identity};
use crate::{Engine, Options};

/// Why a campaign's folders could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StatusError {
    /// A folder could not be listed.
    #[error("cannot read the folder {path}: {source}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// No shard result or checkpoint in the folders.
    #[error("no shard results (.json) or checkpoints (.ckpt) of nqueens in {0}")]
    Empty(String),
    /// Files that look like a campaign's, none of which can be read as one.
    #[error("none of the {files} shard files in {folders} can be read: {}", crate::util::text::capped(.problems, "; "))]
    Unreadable {
        /// The folders.
        folders: String,
        /// How many `.json` and `.ckpt` files they hold.
        files: usize,
        /// What is wrong with them.
        problems: Vec<String>,
    },
    /// The plan of the run could not be rebuilt.
    #[error("cannot rebuild the plan of the run: {0}")]
    Plan(#[from] crate::Error),
}

/// What the folders say of the campaign.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Status {
    /// Board size.
    pub n: u32,
    /// The plan's engine.
    pub engine: Engine,
    /// K.
    pub shards: u32,
    /// Shards with a result.
    pub done: Vec<u32>,
    /// How the plan counts a board's units (`None` where there is one way only); a
    /// folder with shards of several decompositions has a status for each.
    pub decomposition: Option<crate::Decomposition>,
    /// Shards with a checkpoint and no result: the share of their own work each holds.
    pub under_way: Vec<(u32, f64)>,
    /// Shards under way whose checkpoint no process holds: the run that wrote it stopped
    /// (a time limit, a signal, a failed node) and must be submitted again. Where the file
    /// system has no locks, none is known to have stopped.
    pub stopped: Vec<u32>,
    /// Shards with neither.
    pub not_started: Vec<u32>,
    /// Shards under way whose checkpoint has not changed for the stall time.
    pub stalled: Vec<u32>,
    /// Share of the whole work done, by the plan's prices.
    pub share: f64,
    /// Share of the whole work whose CPU time is known: the results', and the work of the
    /// checkpoints of runs that stopped (a run records its time when it stops).
    pub timed_share: f64,
    /// CPU seconds spent: the results' and the checkpoints' time lines.
    pub cpu_seconds: f64,
    /// Seconds since the campaign began (see [`Status::wall_left_seconds`]).
    pub elapsed_seconds: f64,
    /// Files that are not of this run, or could not be read, with why.
    pub problems: Vec<String>,
}

impl Status {
    /// CPU seconds left at the rate so far: the CPU spent per share of timed work, times the
    /// share left; `None` until some work's time is known.
    pub fn cpu_left_seconds(&self) -> Option<f64> {
        (self.timed_share > 0.0 && self.cpu_seconds > 0.0)
            .then(|| self.cpu_seconds * (1.0 - self.share) / self.timed_share)
    }

    /// Wall seconds left at the campaign's rate so far (share done per second since it began:
    /// its first checkpoint was made, or its first result's shard started).
    pub fn wall_left_seconds(&self) -> Option<f64> {
        (self.share > 0.0 && self.elapsed_seconds > 0.0)
            .then(|| self.elapsed_seconds * (1.0 - self.share) / self.share)
    }

    /// The shards to count again: not started, stopped or stalled; as Slurm's `--array` list
    /// (`3,5-7`), empty when there are none.
    pub fn array(&self) -> String {
        let mut again: Vec<u32> = self.not_started.clone();
        again.extend(&self.stalled);
        again.extend(&self.stopped);
        again.sort_unstable();
        again.dedup();
        ranges(&again)
    }
}

/// `3,5-7` for [3, 5, 6, 7].
fn ranges(indices: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let mut j = i;
        while j + 1 < indices.len() && indices[j + 1] == indices[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            indices[i].to_string()
        } else {
            format!("{}-{}", indices[i], indices[j])
        });
        i = j + 1;
    }
    out.join(",")
}

/// One file of the campaign.
struct Found {
    path: PathBuf,
    modified: SystemTime,
    /// When the file was made, where the file system says (`statx`), else `modified`.
    born: SystemTime,
}

/// A run as a checkpoint's header names it: n, engine, split depth, the shard (with its K) and
/// the plan fingerprint.
type Head = (u32, Engine, u32, Shard, String);

/// The run a checkpoint's header names.
fn checkpoint_run(path: &Path) -> Option<Head> {
    use std::io::{BufRead, Read};
    let file = std::fs::File::open(path).ok()?;
    let mut header = String::new();
    std::io::BufReader::new(file)
        .take(4096)
        .read_line(&mut header)
        .ok()?;
    let field = |key: &str| {
        header
            .split_whitespace()
            .find_map(|f| f.strip_prefix(key)?.strip_prefix('='))
            .map(str::to_string)
    };
    let shard = Shard::of_selection_name(&field("selection")?)?;
    Some((
        field("n")?.parse().ok()?,
        Engine::ALL
            .into_iter()
            .find(|e| Some(e.name()) == field("engine").as_deref())?,
        field("split-depth")?.parse().ok()?,
        shard,
        field("plan")?,
    ))
}

/// The status of the campaign whose files are in `folders`, its plan priced on `threads`
/// threads; a shard under way whose checkpoint has not changed for `stall` is stalled. Where the
/// folders hold the shards of one board by several decompositions, the first's ([`statuses`]).
pub fn status(folders: &[PathBuf], threads: usize, stall: Duration) -> Result<Status, StatusError> {
    statuses(folders, threads, stall).map(|mut all| all.swap_remove(0))
}

/// A run as its files name it: n, engine, split depth, K and plan fingerprint.
type RunKey = (u32, Engine, u32, u32, String);

/// [`status`] of every run in `folders` (a count confirmed by another decomposition or another K,
/// or campaigns of several boards, in one folder): one status each, the first run's first.
pub fn statuses(
    folders: &[PathBuf],
    threads: usize,
    stall: Duration,
) -> Result<Vec<Status>, StatusError> {
    let now = SystemTime::now();
    let mut problems = Vec::new();
    let (results, checkpoints) = gather(folders, now, &mut problems)?;
    // The shard results, each checked as merge checks it (its checksum).
    let mut read: Vec<(PartialResult, &Found)> = Vec::new();
    for found in &results {
        let text = match std::fs::read_to_string(&found.path) {
            Ok(text) => text,
            Err(e) => {
                problems.push(format!("{}: cannot be read: {e}", found.path.display()));
                continue;
            }
        };
        match serde_json::from_str::<PartialResult>(&text) {
            Ok(r) if r.checksum == r.expected_checksum() => read.push((r, found)),
            _ => problems.push(format!(
                "{}: not a shard result with an intact checksum",
                found.path.display()
            )),
        }
    }
    let heads: Vec<_> = headers(&checkpoints)
        .into_iter()
        .zip(&checkpoints)
        .collect();
    // The runs, the first result's first, then the checkpoints'.
    let mut runs: Vec<RunKey> = Vec::new();
    let keys = read
        .iter()
        .map(|(r, _)| (r.n, r.engine, r.split_depth, r.shards, r.plan.clone()))
        .chain(heads.iter().filter_map(|(h, _)| {
            h.clone()
                .map(|(n, engine, depth, shard, plan)| (n, engine, depth, shard.count(), plan))
        }));
    for key in keys {
        if !runs.contains(&key) {
            runs.push(key);
        }
    }
    if runs.is_empty() {
        let names: Vec<String> = folders.iter().map(|f| f.display().to_string()).collect();
        let files = results.len() + checkpoints.len();
        if files == 0 {
            return Err(StatusError::Empty(names.join(", ")));
        }
        problems.extend(
            heads
                .iter()
                .map(|(_, c)| format!("{}: not a shard's checkpoint", c.path.display())),
        );
        return Err(StatusError::Unreadable {
            folders: names.join(", "),
            files,
            problems,
        });
    }
    // Every campaign in the folders gets a status: the same board by another decomposition or
    // another K, or another board.
    runs.iter()
        .map(|run| {
            let others: Vec<&RunKey> = runs.iter().filter(|r| *r != run).collect();
            let files = Files {
                read: &read,
                heads: &heads,
                others: &others,
                problems: problems.clone(),
            };
            status_of(run, files, threads, stall, now)
        })
        .collect()
}

/// The `.json` and `.ckpt` files in `folders`; what cannot be opened (a dangling link, a loop of
/// links, an entry that cannot be listed) and a shard's name on what is no file (a FIFO, a
/// folder) go to `problems`.
fn gather(
    folders: &[PathBuf],
    now: SystemTime,
    problems: &mut Vec<String>,
) -> Result<(Vec<Found>, Vec<Found>), StatusError> {
    let (mut results, mut checkpoints) = (Vec::new(), Vec::new());
    for folder in folders {
        let entries = std::fs::read_dir(folder).map_err(|source| StatusError::Folder {
            path: folder.clone(),
            source,
        })?;
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    problems.push(format!(
                        "{}: an entry cannot be read: {e}",
                        folder.display()
                    ));
                    continue;
                }
            };
            let path = entry.path();
            let shard_name = matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("json" | "ckpt")
            );
            // Links followed, as a read of the file would.
            let meta = match std::fs::metadata(&path) {
                Ok(meta) => meta,
                Err(e) => {
                    problems.push(format!("{}: cannot be opened: {e}", path.display()));
                    continue;
                }
            };
            if !meta.is_file() {
                if shard_name {
                    let kind = if meta.is_dir() {
                        "a folder"
                    } else {
                        "not a regular file"
                    };
                    problems.push(format!("{}: {kind}, not a shard's file", path.display()));
                }
                continue;
            }
            let found = Found {
                path,
                modified: meta.modified().unwrap_or(now),
                born: meta.created().or_else(|_| meta.modified()).unwrap_or(now),
            };
            match found.path.extension().and_then(|e| e.to_str()) {
                Some("json") => results.push(found),
                Some("ckpt") => checkpoints.push(found),
                _ => {}
            }
        }
    }
    Ok((results, checkpoints))
}

/// How long [`headers`] waits, once for all the folders, for checkpoints just made to get their
/// header.
const HEADER_WAIT: Duration = Duration::from_secs(2);

/// The run each checkpoint's header names ([`checkpoint_run`]). A checkpoint just made, whose
/// header its run is writing, is empty for a moment: the empty ones are read again until they
/// have a header or [`HEADER_WAIT`] has passed, one wait for all of them (a folder of many empty
/// files must not wait for each in turn).
fn headers(checkpoints: &[Found]) -> Vec<Option<Head>> {
    let deadline = std::time::Instant::now() + HEADER_WAIT;
    let empty = |found: &Found| std::fs::metadata(&found.path).is_ok_and(|m| m.len() == 0);
    let mut heads: Vec<Option<Head>> = checkpoints
        .iter()
        .map(|c| checkpoint_run(&c.path))
        .collect();
    loop {
        let waiting: Vec<usize> = (0..checkpoints.len())
            .filter(|&i| heads[i].is_none() && empty(&checkpoints[i]))
            .collect();
        if waiting.is_empty() || std::time::Instant::now() >= deadline {
            return heads;
        }
        std::thread::sleep(Duration::from_millis(50));
        for i in waiting {
            heads[i] = checkpoint_run(&checkpoints[i].path);
        }
    }
}

/// What [`status_of`] reads: the results and checkpoint headers found, the other runs that get
/// a status of their own, and the problems found so far.
struct Files<'a> {
    read: &'a [(PartialResult, &'a Found)],
    heads: &'a [(Option<Head>, &'a Found)],
    others: &'a [&'a RunKey],
    problems: Vec<String>,
}

/// The status of `run` from `files`: its plan rebuilt and priced, then its results and its
/// checkpoints reckoned up.
fn status_of(
    run: &RunKey,
    files: Files,
    threads: usize,
    stall: Duration,
    now: SystemTime,
) -> Result<Status, StatusError> {
    let (n, engine, depth, shards, named) = run.clone();
    let options = Options::default()
        .with_threads(threads)
        .with_engine(Some(engine))
        .with_split_depth(Some(depth));
    // The fingerprint the files name says which decomposition they count by.
    let plan = crate::plan::choose::outline_of(n, &options, &named, None)?;
    let prices = prices(&plan, threads)?;
    let partition = Partition::dealt(&prices, shards);
    let campaign = Campaign {
        key: (
            n,
            engine,
            depth,
            shards,
            format!("{:08x}", plan.fingerprint()),
        ),
        others: files.others,
        // Each shard's price in one pass over the plan: asking the partition for one shard's
        // ids scans every piece, K times over for K shards.
        per_shard: partition.totals(&prices),
        plan: &plan,
        prices: &prices,
    };
    let mut tally = Tally {
        oldest: Some(now),
        problems: files.problems,
        ..Tally::default()
    };
    tally.results(&campaign, files.read);
    tally.checkpoints(&campaign, files.heads, stall, now);
    let whole: u128 = prices.iter().sum::<u128>().max(1);
    let not_started = (1..=shards)
        .filter(|i| !tally.done.contains(i) && !tally.under_way.contains_key(i))
        .collect();
    Ok(Status {
        n,
        engine,
        shards,
        decomposition: plan.decomposition(),
        done: tally.done.into_iter().collect(),
        under_way: tally.under_way.into_iter().collect(),
        stopped: tally.stopped,
        not_started,
        stalled: tally.stalled,
        share: tally.done_work as f64 / whole as f64,
        timed_share: tally.timed_work as f64 / whole as f64,
        cpu_seconds: tally.cpu,
        elapsed_seconds: (tally.oldest.map(|o| now.duration_since(o)))
            .and_then(Result::ok)
            .unwrap_or_default()
            .as_secs_f64(),
        problems: tally.problems,
    })
}

/// The campaign a status is of: its run, its plan and prices, and the other runs in the
/// folders that get a status of their own.
struct Campaign<'a> {
    key: RunKey,
    others: &'a [&'a RunKey],
    per_shard: Vec<u128>,
    plan: &'a crate::Plan,
    prices: &'a [u128],
}

impl Campaign<'_> {
    /// A shard's price.
    fn price(&self, shard: Shard) -> u128 {
        self.per_shard[shard.index() as usize - 1]
    }

    /// Whether a file of run `key` belongs here; where it belongs to no campaign of the
    /// folders, why not is added to `problems`.
    fn owns(&self, key: RunKey, path: &Path, problems: &mut Vec<String>) -> bool {
        if key == self.key {
            return true;
        }
        if !self.others.contains(&&key) {
            problems.push(format!("{}: of another run", path.display()));
        }
        false
    }
}

/// What a campaign's files add up to, as they are read.
#[derive(Default)]
struct Tally {
    done: BTreeSet<u32>,
    /// Work done, by the plan's prices, and the part of it whose CPU time is known: a running
    /// shard's checkpoint records its time only when the run stops, so its work so far has
    /// none yet.
    done_work: u128,
    timed_work: u128,
    cpu: f64,
    /// When the campaign began: its first checkpoint was made, or its first result's shard
    /// started.
    oldest: Option<SystemTime>,
    under_way: BTreeMap<u32, f64>,
    stalled: Vec<u32>,
    stopped: Vec<u32>,
    problems: Vec<String>,
}

impl Tally {
    /// Adds the campaign's results among `read`.
    fn results(&mut self, campaign: &Campaign, read: &[(PartialResult, &Found)]) {
        for (r, found) in read {
            let key = (r.n, r.engine, r.split_depth, r.shards, r.plan.clone());
            if !campaign.owns(key, &found.path, &mut self.problems) {
                continue;
            }
            let Ok(shard) = r.shard() else { continue };
            if self.done.insert(shard.index()) {
                self.done_work += campaign.price(shard);
                self.timed_work += campaign.price(shard);
                self.cpu += r
                    .cpu_seconds
                    .unwrap_or(r.elapsed_seconds * r.threads as f64);
            }
            // A result is written when its shard ends: the shard began its wall time before.
            let began = Duration::try_from_secs_f64(r.elapsed_seconds)
                .ok()
                .and_then(|wall| found.modified.checked_sub(wall))
                .unwrap_or(found.modified);
            self.began(began);
        }
    }

    /// Adds the campaign's checkpoints among `heads`: the work each holds, and whether its run
    /// stopped (no process holds it) or stalled (unchanged for `stall`).
    fn checkpoints(
        &mut self,
        campaign: &Campaign,
        heads: &[(Option<Head>, &Found)],
        stall: Duration,
        now: SystemTime,
    ) {
        for (head, found) in heads {
            let Some((n, engine, depth, shard, plan)) = head.clone() else {
                self.problems.push(format!(
                    "{}: not a shard's checkpoint",
                    found.path.display()
                ));
                continue;
            };
            let key = (n, engine, depth, shard.count(), plan);
            if !campaign.owns(key, &found.path, &mut self.problems) {
                continue;
            }
            self.began(found.born);
            if self.done.contains(&shard.index()) {
                continue;
            }
            let identity = Identity::new(campaign.plan, false, &shard.selection_name());
            let saved = match read_unlocked(&found.path, &identity) {
                Ok(saved) => saved,
                Err(e) => {
                    self.problems.push(e.to_string());
                    continue;
                }
            };
            // Finished pieces, and the share of their price that pieces under way have counted.
            let parts: f64 = (saved.parts.iter())
                .filter(|(id, _)| !saved.finished.contains_key(id))
                .map(|(&id, &(part, _))| {
                    campaign.prices[id] as f64 * campaign.plan.part_share(id, part.done)
                })
                .sum();
            let work: u128 = saved
                .finished
                .keys()
                .map(|&id| campaign.prices[id])
                .sum::<u128>()
                + parts as u128;
            self.done_work += work;
            let (_, spent) = saved.earlier();
            if !spent.is_zero() {
                // Stopped at least once: its time covers the work of its earlier runs, near
                // enough all it holds (a run now under way adds records untimed).
                self.cpu += spent.as_secs_f64();
                self.timed_work += work;
            }
            let own = campaign.price(shard).max(1);
            self.under_way
                .insert(shard.index(), work as f64 / own as f64);
            if in_use(&found.path) == Some(false) {
                self.stopped.push(shard.index());
            } else if now.duration_since(found.modified).unwrap_or_default() >= stall {
                self.stalled.push(shard.index());
            }
        }
    }

    /// Notes that part of the campaign began at `when`.
    fn began(&mut self, when: SystemTime) {
        self.oldest = Some(self.oldest.map_or(when, |o| o.min(when)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_read_as_ranges() {
        assert_eq!(ranges(&[]), "");
        assert_eq!(ranges(&[3]), "3");
        assert_eq!(ranges(&[1, 3, 5, 6, 7, 9]), "1,3,5-7,9");
    }
}
