//! Helpers shared by the integration tests.

use assert_cmd::Command;

/// The path of the built `nqueens` binary: every test that runs it finds it here.
pub fn binary() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("nqueens")
}

/// The `nqueens` binary, with backtraces asked for so a panic would show.
pub fn nqueens() -> Command {
    let mut cmd = Command::new(binary());
    cmd.env("RUST_BACKTRACE", "1");
    cmd
}

/// The `nqueens` binary as a process to spawn and talk to (signals, pipes), with backtraces
/// asked for.
pub fn process() -> std::process::Command {
    let mut cmd = std::process::Command::new(binary());
    cmd.env("RUST_BACKTRACE", "1");
    cmd
}

/// A fresh folder for one test's files, removed when the guard drops, and the path of `name`
/// in it.
pub fn scratch(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    (dir, path)
}

/// The checkpoint identity of the mirror plan of n = 8 split after 2 rows, counting every
/// subproblem: the fixture of the checkpoint tests.
pub fn identity() -> nqueens::exec::Identity {
    let plan = nqueens::Plan::new(nqueens::Engine::Mirror, 8, 2).unwrap();
    nqueens::exec::Identity::new(&plan, false, "all")
}

/// The rows of a `count` or `merge` table as column name → value, checking the header: the
/// exact fields, not a substring that could match anywhere.
pub fn table(stdout: &str) -> Vec<std::collections::HashMap<String, String>> {
    // A merge's lines after the table (`# …`) say how the count was made.
    let mut lines = stdout.lines().filter(|l| !l.starts_with("# "));
    let header: Vec<String> = lines
        .next()
        .expect("a header line")
        .split_whitespace()
        .map(String::from)
        .collect();
    // A merge's seconds are its shards' summed: `shard_secs`.
    let seconds = if header.contains(&"shard_secs".to_string()) {
        "shard_secs"
    } else {
        "seconds"
    };
    assert_eq!(
        header,
        ["n", "total", "unique", "verified", seconds, "threads", "engine"],
        "{stdout}"
    );
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(cells.len(), header.len(), "{line}");
            header
                .iter()
                .cloned()
                .zip(cells.into_iter().map(String::from))
                .collect()
        })
        .collect()
}

/// An independent check that `cols` (one column per row) is a solution.
pub fn is_solution(cols: &[u8]) -> bool {
    let n = cols.len();
    (0..n).all(|a| {
        usize::from(cols[a]) < n
            && (a + 1..n).all(|b| {
                let (ca, cb) = (i64::from(cols[a]), i64::from(cols[b]));
                ca != cb && (ca - cb).abs() != (b - a) as i64
            })
    })
}

/// Runs `args` under `ulimit -v` of `kib` through the shell.
pub fn under_ulimit(kib: u32, args: &str) -> std::process::Output {
    let bin = binary();
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {kib} && exec '{}' {args}",
            bin.display()
        ))
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap()
}

/// The repository's root (the crate's manifest folder).
pub fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every Rust source file under `dir`, depth first.
pub fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Whether a line names a commit (a hexadecimal word of 7 to 40 lowercase digits with letters
/// and digits both), a machine or a date: what ages with a measurement, and belongs in
/// docs/performance.md and the commit messages, not in the design or the code.
pub fn dated(line: &str) -> bool {
    let hash = line
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|word| {
            (7..=40).contains(&word.len())
                && word
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
                && word.chars().any(|c| c.is_ascii_digit())
                && word.chars().any(|c| c.is_ascii_alphabetic())
        });
    let machine = [
        "EPYC", "Xeon", "Zen ", "Ryzen", "Graviton", "Sapphire", "2026-",
    ]
    .iter()
    .any(|m| line.contains(m));
    hash || machine
}

/// The records of the checkpoint at `path`: its lines but the header and the time lines.
pub fn checkpoint_records(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| {
        t.lines()
            .skip(1)
            .filter(|l| !l.starts_with("time "))
            .count()
    })
}

/// Polls `done` every few milliseconds until it holds or `seconds` pass: whether it held.
fn poll(seconds: u64, mut done: impl FnMut() -> bool) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while !done() {
        if std::time::Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    true
}

/// Polls `done` until it holds; the test fails, saying `what` it waited for, after `seconds`.
pub fn poll_until(what: &str, seconds: u64, done: impl FnMut() -> bool) {
    assert!(poll(seconds, done), "waited {seconds} s for {what}");
}

/// The CPU time process `pid` has had so far, in clock ticks (`/proc/PID/stat`'s utime and
/// stime); 0 where it cannot be read.
pub fn cpu_ticks(pid: u32) -> u64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0;
    };
    // The fields after the command's name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat[stat.rfind(')').map_or(0, |at| at + 2)..]
        .split(' ')
        .collect();
    let tick = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    tick(11) + tick(12)
}

/// Whether process `pid` is asleep in a timed wait (nanosleep), as its kernel stack says.
pub fn in_timed_sleep(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/wchan")).is_ok_and(|w| w.contains("nanosleep"))
}

/// Waits for `child` at most `seconds`: a test that would hang fails instead, its child killed.
pub fn wait_within(child: &mut std::process::Child, seconds: u64) -> std::process::ExitStatus {
    let mut status = None;
    let ended = poll(seconds, || {
        status = child.try_wait().unwrap();
        status.is_some()
    });
    if !ended {
        let _ = child.kill();
        let _ = child.wait();
        panic!("the process ran past {seconds} s");
    }
    status.unwrap()
}

/// Sends signal `signal` to `child`, which the test started and has not waited for yet.
pub fn signal(child: &std::process::Child, signal: i32) {
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: kill(2) only signals the test's own child, not yet reaped.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
}

/// Counts shard `i` of `k` of the `n`-board with `extra` options into `path`, quietly.
pub fn count_shard(path: &std::path::Path, n: u32, i: u32, k: u32, extra: &[&str]) {
    nqueens()
        .args([
            "count",
            &n.to_string(),
            "--shard",
            &format!("{i}/{k}"),
            "-q",
        ])
        .args(extra)
        .arg("-o")
        .arg(path)
        .assert()
        .success();
}
