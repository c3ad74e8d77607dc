//! The small print of a campaign, each as a user met it: status of odd folders, campaigns that
//! differ in K, a memory limit's first word, the on-demand quadrants, an estimate longer than
//! its count.

use std::fs;

use crate::util::{nqueens, under_ulimit};

/// Counts shards `1..=k` of the `n`-board with `extra` options into `dir`, named `prefix-I.json`.
fn shards(dir: &std::path::Path, n: u32, k: u32, prefix: &str, extra: &[&str]) {
    for i in 1..=k {
        crate::util::count_shard(&dir.join(format!("{prefix}-{i}.json")), n, i, k, extra);
    }
}

/// A folder of several whole campaigns (one board split 4 and 5 ways, another board) and of
/// entries that cannot be opened: status gives every campaign on stdout and names each entry,
/// with its cause, on stderr, the first 20 and how many more; merge confirms the two K.
#[test]
fn status_shows_every_campaign_and_names_what_it_cannot_open() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let symmetry = ["--engine", "symmetry"];
    shards(d, 12, 4, "k4", &symmetry);
    shards(d, 12, 5, "k5", &symmetry);
    shards(d, 13, 2, "n13", &[]);
    std::os::unix::fs::symlink("nowhere", d.join("dangling.json")).unwrap();
    std::os::unix::fs::symlink("loop.ckpt", d.join("loop.ckpt")).unwrap();
    fs::create_dir(d.join("y.json")).unwrap();
    let fifo = std::ffi::CString::new(d.join("f.json").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) reads the path, a NUL-terminated string this test owns.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    // A file that cannot be read (as a file of mode 000 cannot by another user): status reads
    // its own memory's first page, which no process has mapped.
    std::os::unix::fs::symlink("/proc/self/mem", d.join("unreadable.json")).unwrap();
    for i in 0..20 {
        std::os::unix::fs::symlink("gone", d.join(format!("lost-{i}.json"))).unwrap();
    }
    let out = nqueens().arg("status").arg(d).output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    for campaign in [
        "n = 12, symmetry engine, 4 shards: 100.00%",
        "n = 12, symmetry engine, 5 shards: 100.00%",
        "n = 13, symmetry engine, 2 shards: 100.00%",
    ] {
        assert!(stdout.contains(campaign), "{campaign}: {stdout}");
    }
    assert!(!stdout.contains("warning"), "{stdout}");
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning: "))
        .collect();
    assert_eq!(warnings.len(), 21, "{stderr}");
    assert!(warnings[20].contains("and 5 more (nqueens status --json lists every one)"));
    let json = nqueens()
        .args(["status", "--json"])
        .arg(d)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let problems = json["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 25, "{problems:?}");
    let all = problems
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    for cause in [
        "dangling.json: cannot be opened: No such file",
        "loop.ckpt: cannot be opened: Too many levels of symbolic links",
        "y.json: a folder, not a shard's file",
        "f.json: not a regular file, not a shard's file",
        "unreadable.json: cannot be read: ",
    ] {
        assert!(all.contains(cause), "{cause}: {all}");
    }
    assert_eq!(json["campaigns"].as_array().unwrap().len(), 3);
    // merge agrees: two whole campaigns of one board by two K confirm each other.
    let k =
        |prefix: &'static str, k: u32| (1..=k).map(move |i| d.join(format!("{prefix}-{i}.json")));
    let merged = nqueens()
        .arg("merge")
        .args(k("k4", 4))
        .args(k("k5", 5))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&merged.stderr);
    assert!(merged.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "confirmed: the symmetry K = 4 and symmetry K = 5 campaigns give the same total"
        ),
        "{stderr}"
    );
}

/// Under a memory limit too tight for its threads, a count's first and only word is the
/// error: no signal warning, no note of an engine it will not count with.
#[test]
fn under_a_memory_limit_the_error_comes_first_and_alone() {
    for mib in [8u32, 10] {
        let out = under_ulimit(mib << 10, "count 16");
        let stderr = String::from_utf8_lossy(&out.stderr);
        if stderr.contains("error while loading shared libraries") {
            continue; // the loader's refusal, before the program runs
        }
        if out.status.code() == Some(1) {
            assert_eq!(stderr.lines().count(), 1, "{mib} MiB: {stderr}");
            assert!(stderr.starts_with("error: "), "{mib} MiB: {stderr}");
        } else {
            assert!(out.status.success(), "{mib} MiB: {stderr}");
        }
    }
}

/// A budget that cannot hold the quadrant table: the count says it makes them on demand, and the
/// --memory that would hold the table, which then is held (no note), both counts right.
#[test]
fn the_on_demand_quadrants_are_announced_with_the_memory_that_holds_the_table() {
    let out = nqueens()
        .args(["count", "17", "--memory", "3M", "-j", "1"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains(" 95815104 "));
    let note = stderr
        .lines()
        .find(|l| l.contains("quadrants are made on demand"))
        .unwrap_or_else(|| panic!("no note: {stderr}"));
    let memory = note
        .rsplit("--memory ")
        .next()
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let out = nqueens()
        .args(["count", "17", "-j", "1", "--memory", memory])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("on demand"), "{memory}: {stderr}");
}

/// An estimate of a board that counts in less than the sampling would take stops early, says
/// so, and gives the command that counts it.
#[test]
fn an_estimate_of_a_quick_board_stops_early_and_says_so() {
    let start = std::time::Instant::now();
    let out = nqueens()
        .args(["estimate", "14", "--seconds", "60", "-j", "1", "-q"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(start.elapsed().as_secs() < 30, "{stdout}");
    assert!(
        stdout.contains("stopped early: counting takes less than the")
            && stdout.contains("count it instead: nqueens count 14 -j 1"),
        "{stdout}"
    );
    let json = nqueens()
        .args([
            "estimate",
            "14",
            "--seconds",
            "60",
            "-j",
            "1",
            "-q",
            "--json",
        ])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["count_sooner"], true);
}
