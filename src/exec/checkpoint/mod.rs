//! Checkpoint files: a journal of finished subproblems that lets a long run survive a crash.
//!
//! # Format (version 4)
//! UTF-8 text, one item per line. The first line is the header: the run it belongs to, as
//! `key=value` fields, and the CRC-32 of the text before ` crc=`:
//!
//! ```text
//! nqueens-checkpoint format=4 program=0.1.0 n=16 engine=mirror split-depth=3 subproblems=1118 plan=5ab1e2c3 nodes=no selection=all crc=0f1e2d3c
//! 17 10452 0 8e2f00a1
//! 3 8120 0 31c07b9e
//! part 40 12 73311 6a0d3e57
//! time 1 2503112 4980233 5d0c11e2
//! ```
//!
//! Every other line records one finished subproblem: its id, its solutions and its nodes (0 unless
//! nodes were counted) in decimal, and the CRC-32 of `"plan id solutions nodes"` in 8 hex digits,
//! where `plan` is the header's plan fingerprint. Records come in the order the subproblems
//! finished. A `time` line says how long a run of the program on this file has taken so far:
//! the run's number (1 for the first), its wall-clock and CPU time in microseconds, and the
//! CRC-32 of `"plan time run wall cpu"`; a run writes one at most every [`TIME_EVERY`] while it
//! records, and one when it ends, and the last of each run counts. So a run resumed after a crash
//! knows the time of the runs before it (up to [`TIME_EVERY`] of a killed one is not counted).
//! A `part` line records how far a piece still being counted has come ([`Part`]: a join
//! block's first row sets): the piece's id, the parts done and the solutions they found, and
//! the CRC-32 of `"plan part id done solutions"`. A run writes one for a piece at most every
//! [`PART_EVERY`] and one when it is stopped inside the piece; the one with the most parts
//! counts, and a finished record supersedes them all. So a block of an hour loses at most
//! [`PART_EVERY`] and a row set's work to a kill, and nothing but the row set under way to a
//! stop. Version 2 files, without time lines, and version 3 files, without part lines, are still
//! read and resumed (and get none). The fingerprint ([`Plan::fingerprint`]) covers every subproblem of the plan, so a
//! plan built differently (another program, another machine word) is not mixed up with this one
//! even when its parameters look alike, and a record copied in from another plan's checkpoint
//! fails its checksum.
//!
//! # Integrity
//! - A run takes an exclusive lock on the file (`flock`) for as long as it writes it: a second
//!   run on the same file (a requeued job while the old one still lives) is refused, naming the
//!   process that holds it, before it reads or writes anything.
//! - A file that holds only the start of this run's header (a crash while it was being written,
//!   before any record could be) is written anew.
//! - A last line without its newline is a record torn by a crash: it is dropped (cut off the file)
//!   and its subproblem is done again.
//! - Any other line that does not parse or whose checksum is wrong is an error naming its line;
//!   the file is never half trusted.
//! - A subproblem recorded twice with the same counts counts once; with different counts it is an
//!   error.
//!
//! # Writing
//! Workers put their records in a queue (a mutex and a `Vec`: no system call, no waiting for the
//! disk). A writer thread appends the queue to the file every [`WRITE_EVERY`] (so a killed
//! process loses at most that much finished work, which is then redone), syncs it with `fsync`
//! at most [`SYNC_EVERY`] after a record arrived, and does both when the run ends.

use std::collections::{BTreeMap, HashMap};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::plan::{Part, Plan};
use crate::search::kernel::Search;
use crate::system::time::process_cpu;
use crate::util::text::{capped, excerpt};
use lines::{parse_part, parse_record, parse_time, part_body, record_crc, record_line, time_line};

/// The version of the file format this program writes; it reads this one and version 2.
pub const CHECKPOINT_FORMAT: u32 = 4;
/// How often a run records how far a piece still being counted has come ([`Part`]).
pub(crate) const PART_EVERY: Duration = Duration::from_secs(30);
/// How often a run writes its time so far, while it records.
pub(crate) const TIME_EVERY: Duration = Duration::from_secs(60);
/// How often the writer thread appends the records handed in to the file.
pub(crate) const WRITE_EVERY: Duration = Duration::from_millis(100);
/// The longest a record written to the file waits before it is synced to disk.
pub(crate) const SYNC_EVERY: Duration = Duration::from_secs(1);

const MAGIC: &str = "nqueens-checkpoint";

/// Everything that can be wrong with a checkpoint; each message names the file and the place.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckpointError {
    /// The file could not be read, created or written.
    #[error("cannot {action} checkpoint {path}: {source}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The checkpoint.
        path: PathBuf,
        /// Why it failed.
        source: io::Error,
    },
    /// The file does not start with a checkpoint header.
    #[error("{path} is not an nqueens checkpoint (its first line does not start with '{MAGIC}'); give another file name")]
    NotACheckpoint {
        /// The file.
        path: PathBuf,
    },
    /// The file belongs to a run with other parameters.
    #[error("checkpoint {path} belongs to another run: {differences}; use the options of the run that wrote it, or another file")]
    OtherRun {
        /// The checkpoint.
        path: PathBuf,
        /// What differs, e.g. `n is 16 in the file but 17 here`.
        differences: String,
    },
    /// Another process is writing the file.
    #[error("checkpoint {path} is in use by {holder}: two runs must not share one checkpoint; wait for that run to end or stop it (it saves its work on SIGTERM), then run this again")]
    Locked {
        /// The checkpoint.
        path: PathBuf,
        /// Who holds it, as far as this machine can tell.
        holder: String,
    },
    /// A line is damaged, and it is not a torn last line.
    #[error("checkpoint {path} is damaged at line {line}: {why}; it cannot be trusted (move it away to start over)")]
    Damaged {
        /// The checkpoint.
        path: PathBuf,
        /// Line number, from 1.
        line: usize,
        /// What is wrong.
        why: String,
    },
}

/// The run a checkpoint belongs to: the fields of its header, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    fields: Vec<(String, String)>,
    subproblems: usize,
    /// [`Plan::fingerprint`]: every record's checksum covers it.
    plan: u32,
}

impl Identity {
    /// The identity of a run of `plan` that counts the subproblems `selection` names, with or
    /// without nodes.
    pub fn new(plan: &Plan, count_nodes: bool, selection: &str) -> Identity {
        let fingerprint = plan.fingerprint();
        let fields = [
            ("format", CHECKPOINT_FORMAT.to_string()),
            ("program", env!("CARGO_PKG_VERSION").to_string()),
            ("n", plan.n().to_string()),
            ("engine", plan.engine().name().to_string()),
            ("split-depth", plan.split_depth().to_string()),
            ("subproblems", plan.len().to_string()),
            ("plan", format!("{fingerprint:08x}")),
            ("nodes", if count_nodes { "yes" } else { "no" }.to_string()),
            ("selection", selection.to_string()),
        ];
        Identity {
            fields: fields.map(|(k, v)| (k.to_string(), v)).to_vec(),
            subproblems: plan.len(),
            plan: fingerprint,
        }
    }

    fn header(&self) -> String {
        let body = std::iter::once(MAGIC.to_string())
            .chain(self.fields.iter().map(|(k, v)| format!("{k}={v}")))
            .collect::<Vec<_>>()
            .join(" ");
        format!("{body} crc={:08x}\n", crc32fast::hash(body.as_bytes()))
    }

    /// What differs between the header `line` and this identity: `Ok(None)` when nothing.
    fn compare(&self, line: &str) -> Result<Option<String>, String> {
        let (body, crc) = line
            .rsplit_once(" crc=")
            .ok_or("the header has no checksum")?;
        if crc != format!("{:08x}", crc32fast::hash(body.as_bytes())) {
            return Err("the header's checksum does not match".to_string());
        }
        let theirs: Vec<(&str, &str)> = body
            .split(' ')
            .skip(1)
            .map(|f| {
                f.split_once('=')
                    .ok_or(format!("bad header field '{}'", excerpt(f)))
            })
            .collect::<Result<_, _>>()?;
        let value = |fields: &[(&str, &str)], key: &str| {
            fields
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.to_string())
        };
        let ours: Vec<(&str, &str)> = self
            .fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let mut keys: Vec<&str> = ours.iter().map(|(k, _)| *k).collect();
        let extra: Vec<&str> = theirs
            .iter()
            .map(|(k, _)| *k)
            .filter(|k| !keys.contains(k))
            .collect();
        keys.extend(extra);
        let differences: Vec<String> = keys
            .into_iter()
            .filter_map(|key| {
                let (file, here) = (value(&theirs, key), value(&ours, key));
                // Files of the versions before (no time lines, no part lines) are resumed as
                // they are.
                if key == "format" && matches!(file.as_deref(), Some("2" | "3")) {
                    return None;
                }
                (file != here).then(|| {
                    let show = |v: Option<String>| {
                        v.map_or_else(|| "missing".to_string(), |v| excerpt(&v))
                    };
                    format!(
                        "{} is {} in the file but {} here",
                        excerpt(key),
                        show(file),
                        show(here)
                    )
                })
            })
            .collect();
        Ok((!differences.is_empty()).then(|| capped(&differences, "; ")))
    }
}

/// What a checkpoint file holds, read back and checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Saved {
    /// The finished subproblems by id; each counted once.
    pub finished: HashMap<usize, Search>,
    /// How far the pieces not finished have come, by id, with the line that says so: the
    /// part with the most parts done of each.
    pub parts: HashMap<usize, (Part, usize)>,
    /// The line of a torn last record that was dropped, if any.
    pub torn_line: Option<usize>,
    /// The time of the runs that wrote the file, by run number: wall-clock and CPU.
    pub runs: BTreeMap<u64, (Duration, Duration)>,
    /// Whether the file takes time lines (version 3 on; a version 2 file is left as it was).
    timed: bool,
    /// Whether the file takes part lines (version 4 on).
    parted: bool,
    /// Bytes of the file that hold whole, valid lines.
    valid_len: u64,
}

impl Saved {
    /// The wall-clock and CPU time of every run recorded in the file, together.
    pub fn earlier(&self) -> (Duration, Duration) {
        self.runs
            .values()
            .fold((Duration::ZERO, Duration::ZERO), |(w, c), (wall, cpu)| {
                (w + *wall, c + *cpu)
            })
    }
}

/// A checkpoint error before it knows its file's name.
enum Problem {
    NotACheckpoint,
    OtherRun(String),
    Damaged(usize, String),
}

impl Problem {
    fn at(self, path: &Path) -> CheckpointError {
        let path = path.to_path_buf();
        match self {
            Problem::NotACheckpoint => CheckpointError::NotACheckpoint { path },
            Problem::OtherRun(differences) => CheckpointError::OtherRun { path, differences },
            Problem::Damaged(line, why) => CheckpointError::Damaged { path, line, why },
        }
    }
}

/// Reads the checkpoint at `path` for `identity` without its lock, for a view of a run that may
/// still be writing it: what it holds so far, checked as a resume checks it (a torn last line
/// is a record being written, left out).
pub(crate) fn read_unlocked(path: &Path, identity: &Identity) -> Result<Saved, CheckpointError> {
    let bytes = fs::read(path).map_err(|source| CheckpointError::Io {
        action: "read",
        path: path.to_path_buf(),
        source,
    })?;
    parse(&bytes, identity).map_err(|e| e.at(path))
}

/// Whether a run writes the checkpoint at `path` now: it holds the file's lock (`Some(true)`),
/// or nobody does, so the run that wrote it has stopped (`Some(false)`); `None` where the file
/// system cannot say (no locks). Asked with a shared lock held for a moment and dropped, which
/// a run starting then waits out ([`Writer::open`]).
pub(crate) fn in_use(path: &Path) -> Option<bool> {
    let file = File::open(path).ok()?;
    match file.try_lock_shared() {
        Ok(()) => Some(false),
        Err(fs::TryLockError::WouldBlock) => Some(true),
        Err(fs::TryLockError::Error(_)) => None,
    }
}

fn parse(bytes: &[u8], identity: &Identity) -> Result<Saved, Problem> {
    if !bytes.starts_with(MAGIC.as_bytes()) {
        return Err(Problem::NotACheckpoint);
    }
    let mut saved = Saved::default();
    let mut first_seen: HashMap<usize, usize> = HashMap::new();
    let mut offset = 0;
    for (i, raw) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        let line_no = i + 1;
        let Some(line) = raw.strip_suffix(b"\n") else {
            if line_no == 1 {
                return Err(Problem::Damaged(1, "the header is incomplete".to_string()));
            }
            saved.torn_line = Some(line_no);
            break;
        };
        let damaged = |why: String| Problem::Damaged(line_no, why);
        let line = std::str::from_utf8(line).map_err(|_| damaged("not text".to_string()))?;
        if line_no == 1 {
            if let Some(differences) = identity.compare(line).map_err(damaged)? {
                return Err(Problem::OtherRun(differences));
            }
            let older = |v: &str| line.split(' ').any(|field| field == format!("format={v}"));
            saved.timed = !older("2");
            saved.parted = !older("2") && !older("3");
        } else if let Some(part) = line.strip_prefix("part ") {
            let (id, part) = parse_part(part, identity).map_err(damaged)?;
            match saved.parts.get(&id) {
                Some(&(earlier, first)) if earlier.done == part.done && earlier != part => {
                    return Err(damaged(format!(
                        "subproblem {id} is recorded again at part {} with other counts (first \
                         on line {first})",
                        part.done
                    )));
                }
                Some(&(earlier, _)) if earlier.done >= part.done => {}
                _ => {
                    saved.parts.insert(id, (part, line_no));
                }
            }
        } else if let Some(time) = line.strip_prefix("time ") {
            let (run, wall, cpu) = parse_time(time, identity.plan).map_err(damaged)?;
            let entry = saved.runs.entry(run).or_default();
            *entry = (entry.0.max(wall), entry.1.max(cpu));
        } else {
            let (id, found) = parse_record(line, identity).map_err(damaged)?;
            match saved.finished.insert(id, found) {
                Some(earlier) if earlier != found => {
                    return Err(damaged(format!(
                        "subproblem {id} is recorded again with other counts (first on line {})",
                        first_seen[&id]
                    )));
                }
                _ => {
                    first_seen.entry(id).or_insert(line_no);
                }
            }
        }
        offset += raw.len();
    }
    saved.valid_len = offset as u64;
    Ok(saved)
}

/// Appends records to a checkpoint from any thread; a writer thread does the I/O.
pub struct Writer {
    path: PathBuf,
    /// Whether the file takes part lines.
    parted: bool,
    queue: Arc<Queue>,
    /// Dropped to tell the writer thread to write the rest and end.
    running: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<io::Result<()>>>,
}

/// Records handed in and not yet written, and whether writing failed.
#[derive(Default)]
struct Queue {
    records: Mutex<Vec<(usize, Entry)>>,
    failed: AtomicBool,
}

/// What a record says of a piece.
#[derive(Debug, Clone, Copy)]
enum Entry {
    Finished(Search),
    Part(Part),
}

impl Writer {
    /// Opens the checkpoint at `path` for a run of `identity`, locked against other runs: reads
    /// back what it holds, or writes its header when there is no such file (or only a header
    /// torn by a crash).
    ///
    /// A torn last record is cut off the file, so the records appended next stay whole.
    pub fn open(path: &Path, identity: &Identity) -> Result<(Writer, Saved), CheckpointError> {
        let io_error = |action| {
            let path = path.to_path_buf();
            move |source| CheckpointError::Io {
                action,
                path,
                source,
            }
        };
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                return Err(io_error("use")(io::Error::other(
                    "it is a directory: give a file's name, such as DIR/n20.ckpt",
                )))
            }
            // A device is no checkpoint (and /dev/zero would never end).
            Ok(meta) if !meta.is_file() => {
                return Err(CheckpointError::NotACheckpoint {
                    path: path.to_path_buf(),
                })
            }
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(io_error("read")(e)),
            _ => {}
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io_error("open"))?;
        lock_file(&file, path)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io_error("read"))?;
        let header = identity.header();
        let saved = if !bytes.contains(&b'\n') && header.as_bytes().starts_with(&bytes) {
            // New, or only the start of this run's header: nothing can be lost.
            file.set_len(0)
                .and_then(|()| file.seek(io::SeekFrom::Start(0)))
                .and_then(|_| file.write_all(header.as_bytes()))
                .and_then(|()| file.sync_all())
                .map_err(io_error("create"))?;
            // The new name made durable where the system allows it (not everywhere possible).
            let folder = path.parent().filter(|d| !d.as_os_str().is_empty());
            let _ = File::open(folder.unwrap_or(Path::new("."))).and_then(|d| d.sync_all());
            Saved {
                valid_len: header.len() as u64,
                timed: true,
                parted: true,
                ..Saved::default()
            }
        } else {
            let saved = parse(&bytes, identity).map_err(|e| e.at(path))?;
            file.set_len(saved.valid_len)
                .and_then(|()| file.sync_data())
                .map_err(io_error("open"))?;
            saved
        };
        let queue = Arc::new(Queue::default());
        let (running, stopped) = mpsc::channel();
        let plan = identity.plan;
        // This run's number, and when it started: its time lines say how long it has taken.
        let clock = saved.timed.then(|| Clock {
            run: saved.runs.keys().next_back().map_or(1, |r| r + 1),
            started: Instant::now(),
            cpu: process_cpu(),
        });
        let at = saved.valid_len;
        let thread = {
            let queue = Arc::clone(&queue);
            std::thread::Builder::new()
                .name("nqueens-checkpoint".to_string())
                .spawn(move || {
                    let result = write_records(file, at, plan, clock, &queue, &stopped);
                    queue.failed.store(result.is_err(), Ordering::Relaxed);
                    result
                })
                .map_err(io_error("start the writer of"))?
        };
        let writer = Writer {
            path: path.to_path_buf(),
            parted: saved.parted,
            queue,
            running: Some(running),
            thread: Some(thread),
        };
        Ok((writer, saved))
    }

    /// The checkpoint's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records that subproblem `id` finished with `found` (returns at once).
    pub fn record(&self, id: usize, found: &Search) {
        lock(&self.queue.records).push((id, Entry::Finished(*found)));
    }

    /// Records how far subproblem `id` has come (returns at once; a file of version 3 or before
    /// takes no part lines, and a stopped piece there is counted again).
    pub fn record_part(&self, id: usize, part: Part) {
        if self.parted {
            lock(&self.queue.records).push((id, Entry::Part(part)));
        }
    }

    /// True once writing failed: the run should stop, and [`Writer::finish`] says why.
    pub fn failed(&self) -> bool {
        self.queue.failed.load(Ordering::Relaxed)
    }

    /// Writes and syncs every record handed in so far.
    pub fn finish(mut self) -> Result<(), CheckpointError> {
        self.close().map_err(|source| CheckpointError::Io {
            action: "write",
            path: self.path.clone(),
            source,
        })
    }

    fn close(&mut self) -> io::Result<()> {
        self.running = None;
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(io::Error::other("the checkpoint writer panicked")),
            None => Ok(()),
        }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        let _ = self.close();
    }
}

/// The queue, even if a thread panicked while holding it (a `Vec` push cannot leave it broken).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Takes the exclusive lock of the open checkpoint `file` (held until it is closed), or says who
/// holds it.
fn lock_file(file: &File, path: &Path) -> Result<(), CheckpointError> {
    // `nqueens status` holds a shared lock for a moment to see whether a run writes the file
    // ([`in_use`]): a run that starts then waits that moment out, not a second copy of itself.
    let mut tried = file.try_lock();
    for _ in 0..20 {
        if !matches!(tried, Err(fs::TryLockError::WouldBlock)) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
        tried = file.try_lock();
    }
    match tried {
        Ok(()) => Ok(()),
        Err(fs::TryLockError::WouldBlock) => Err(CheckpointError::Locked {
            path: path.to_path_buf(),
            holder: holder(file).unwrap_or_else(|| {
                "another process (on another machine, if the file is on a shared file system)"
                    .to_string()
            }),
        }),
        Err(fs::TryLockError::Error(source)) => Err(CheckpointError::Io {
            action: "lock",
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// The process of this machine that holds the `flock` of `file`, from `/proc/locks`, with its
/// command line: `process 1234 (nqueens count 22 --checkpoint n22.ckpt)`.
#[cfg(unix)]
fn holder(file: &File) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let meta = file.metadata().ok()?;
    let dev = meta.dev();
    let (major, minor) = (
        (dev >> 8) & 0xfff | (dev >> 32) & !0xfff,
        dev & 0xff | (dev >> 12) & !0xff,
    );
    let id = format!("{major:02x}:{minor:02x}:{}", meta.ino());
    let locks = fs::read_to_string("/proc/locks").ok()?;
    // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"
    let pid = locks.lines().find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        (f.get(1) == Some(&"FLOCK") && f.get(5) == Some(&id.as_str())).then(|| f.get(4).copied())?
    })?;
    let command = fs::read(format!("/proc/{pid}/cmdline"))
        .ok()
        .map(|raw| {
            String::from_utf8_lossy(&raw)
                .split('\0')
                .filter(|a| !a.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|c| !c.is_empty());
    Some(match command {
        Some(command) => format!("process {pid} ({command})"),
        None => format!("process {pid}"),
    })
}

/// Outside Unix no lock table is read: the refusal says the file is in use, not by whom.
#[cfg(not(unix))]
fn holder(_file: &File) -> Option<String> {
    None
}

/// A run's number and when it started, for its time lines.
#[derive(Debug, Clone, Copy)]
struct Clock {
    run: u64,
    started: Instant,
    /// The process's CPU time when it started.
    cpu: Duration,
}

impl Clock {
    /// The time line of this run so far.
    fn line(&self, plan: u32) -> String {
        let cpu = process_cpu().saturating_sub(self.cpu);
        time_line(plan, self.run, self.started.elapsed(), cpu)
    }
}

/// The writer thread: appends the queue every [`WRITE_EVERY`] (and, with a `clock`, the run's
/// time at most every [`TIME_EVERY`] while records come, and when it ends), syncs within
/// [`SYNC_EVERY`], and writes and syncs the rest when `running` closes.
fn write_records(
    mut file: File,
    at: u64,
    plan: u32,
    clock: Option<Clock>,
    queue: &Queue,
    running: &mpsc::Receiver<()>,
) -> io::Result<()> {
    file.seek(io::SeekFrom::Start(at))?;
    let mut out = BufWriter::new(file);
    let mut batch = Vec::new();
    let mut unsynced_since: Option<Instant> = None;
    let mut timed_at = Instant::now();
    loop {
        let last = matches!(
            running.recv_timeout(WRITE_EVERY),
            Err(RecvTimeoutError::Disconnected)
        );
        std::mem::swap(&mut *lock(&queue.records), &mut batch);
        let recorded = !batch.is_empty();
        if recorded {
            for (id, entry) in batch.drain(..) {
                let line = match entry {
                    Entry::Finished(found) => record_line(plan, id, &found),
                    Entry::Part(part) => {
                        let body = part_body(id, part);
                        format!("{body} {}\n", record_crc(plan, &body))
                    }
                };
                out.write_all(line.as_bytes())?;
            }
        }
        if let Some(clock) =
            clock.filter(|_| last || (recorded && timed_at.elapsed() >= TIME_EVERY))
        {
            out.write_all(clock.line(plan).as_bytes())?;
            timed_at = Instant::now();
        }
        if recorded || last {
            out.flush()?;
            unsynced_since.get_or_insert_with(Instant::now);
        }
        if unsynced_since.is_some_and(|t| last || t.elapsed() >= SYNC_EVERY) {
            out.get_ref().sync_data()?;
            unsynced_since = None;
        }
        if last {
            return Ok(());
        }
    }
}

mod lines;
#[cfg(test)]
mod tests;
