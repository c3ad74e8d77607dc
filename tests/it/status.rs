//! `nqueens status` on a real campaign folder with shards in every state: done, under way,
//! stalled and not started.

use std::path::Path;

use serde_json::Value;

use crate::util::{binary, nqueens};

/// Shards 1 to 3 of 8 done, shard 4 stopped under way with its checkpoint, 5 to 8 not started:
/// as count.sbatch lays a campaign out.
fn campaign(dir: &Path) {
    for i in 1..=3 {
        nqueens()
            .args(["count", "17", "--shard", &format!("{i}/8"), "-j", "1", "-q"])
            .arg("--checkpoint")
            .arg(dir.join(format!("shard-{i}.ckpt")))
            .arg("-o")
            .arg(dir.join(format!("shard-{i}.json")))
            .assert()
            .success();
    }
    // Held after 5 subproblems (a test-only setting) and stopped: a checkpoint, no result.
    let status = held_then(dir, 4, libc::SIGINT);
    assert_eq!(status.code(), Some(130));
}

/// Runs shard `i` of 8 of n = 17 held after 5 subproblems (a test-only setting), waits until its
/// checkpoint holds them, sends it `signal`, and returns how it ended.
fn held_then(dir: &Path, i: u32, signal: i32) -> std::process::ExitStatus {
    let ckpt = dir.join(format!("shard-{i}.ckpt"));
    let mut child = std::process::Command::new(binary())
        .args(["count", "17", "--shard", &format!("{i}/8"), "-j", "1", "-q"])
        .arg("--checkpoint")
        .arg(&ckpt)
        .arg("-o")
        .arg(dir.join(format!("shard-{i}.json")))
        .env("NQUEENS_TEST_HOLD_AFTER", "5")
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    crate::util::poll_until("5 records in the checkpoint", 120, || {
        crate::util::checkpoint_records(&ckpt) >= 5
    });
    crate::util::signal(&child, signal);
    crate::util::wait_within(&mut child, 120)
}

fn json(dir: &Path, extra: &[&str]) -> Value {
    let out = nqueens()
        .arg("status")
        .arg("--json")
        .args(extra)
        .arg(dir)
        .assert()
        .success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

#[test]
fn status_tells_done_under_way_stalled_and_not_started_shards() {
    let dir = tempfile::tempdir().unwrap();
    campaign(dir.path());
    let s = json(dir.path(), &[]);
    assert_eq!(s["n"], 17);
    assert_eq!(s["shards"], 8);
    assert_eq!(s["done"], serde_json::json!([1, 2, 3]));
    assert_eq!(s["under_way"][0]["shard"], 4);
    assert_eq!(s["not_started"], serde_json::json!([5, 6, 7, 8]));
    assert_eq!(s["stalled"], serde_json::json!([]));
    // Nobody holds shard 4's checkpoint: its run stopped, and it is submitted again.
    assert_eq!(s["stopped"], serde_json::json!([4]));
    assert_eq!(s["array"], "4-8");
    // Three shards of eight dealt by price: near 3/8 of the work, and shard 4's records more.
    let share = s["share_done"].as_f64().unwrap();
    assert!((0.3..0.5).contains(&share), "{share}");
    assert!(s["cpu_seconds"].as_f64().unwrap() > 0.0);
    assert!(s["cpu_left_seconds"].as_f64().unwrap() > 0.0);

    // A checkpoint a process holds is a run going on (flock(1) takes the lock a run takes);
    // unchanged for three hours it is stalled, and submitted again.
    let mut holder = std::process::Command::new("flock")
        .arg(dir.path().join("shard-4.ckpt"))
        .args(["sleep", "120"])
        .spawn()
        .unwrap();
    crate::util::poll_until("the lock to be seen", 60, || {
        json(dir.path(), &[])["stopped"] == serde_json::json!([])
    });
    assert_eq!(json(dir.path(), &[])["array"], "5-8");
    let status = std::process::Command::new("touch")
        .args(["-d", "3 hours ago"])
        .arg(dir.path().join("shard-4.ckpt"))
        .status()
        .unwrap();
    assert!(status.success());
    let s = json(dir.path(), &[]);
    assert_eq!(s["stalled"], serde_json::json!([4]));
    assert_eq!(s["array"], "4-8");
    assert_eq!(
        json(dir.path(), &["--stalled", "86400"])["stalled"],
        serde_json::json!([])
    );
    holder.kill().unwrap();
    holder.wait().unwrap();

    // The text fits 80 columns (but the command, one line to copy) and gives the command that
    // submits the rest again, with the folder by its full path and the script the folder's
    // settings name, so that it runs from anywhere.
    std::fs::write(
        dir.path().join("settings"),
        "CPUS=2\nSCRIPT=/opt/my jobs/count.sbatch\n",
    )
    .unwrap();
    let out = nqueens().arg("status").arg(dir.path()).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        text.lines()
            .all(|l| l.chars().count() <= 80 || l.starts_with("N=")),
        "{text}"
    );
    assert!(text.contains("done              3  1, 2, 3"), "{text}");
    // Each shard on one row: the rows add up to K.
    let rows: u32 = ["done", "under way", "not started", "stopped", "stalled"]
        .iter()
        .map(|row| {
            let line = text.lines().find(|l| l.starts_with(row)).unwrap();
            line[row.len()..]
                .split_whitespace()
                .next()
                .unwrap()
                .parse::<u32>()
                .unwrap()
        })
        .sum();
    assert_eq!(rows, 8, "{text}");
    let full = std::fs::canonicalize(dir.path()).unwrap();
    let again = format!(
        "N=17 SHARDS=8 DIR={} ARRAY=4-8 bash '/opt/my jobs/count.sbatch'",
        full.display()
    );
    assert!(text.lines().any(|l| l == again), "{again}\n{text}");
}

#[test]
fn status_of_an_empty_folder_says_so() {
    let dir = tempfile::tempdir().unwrap();
    nqueens()
        .arg("status")
        .arg(dir.path())
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "no shard results (.json) or checkpoints",
        ));
}

/// A run under way records its CPU time only when it stops (or each minute): a campaign with
/// only such work has spent CPU that no file shows yet, so the CPU left is not guessed from it.
#[test]
fn the_cpu_left_is_not_guessed_from_runs_that_have_not_recorded_their_time() {
    let dir = tempfile::tempdir().unwrap();
    // Killed outright after 5 subproblems: their records are there, no time line.
    let status = held_then(dir.path(), 2, libc::SIGKILL);
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(9)
    );
    let s = json(dir.path(), &[]);
    assert!(s["share_done"].as_f64().unwrap() > 0.0, "{s}");
    assert_eq!(s["cpu_seconds"], 0.0);
    assert_eq!(s["cpu_left_seconds"], Value::Null, "{s}");
    let out = nqueens().arg("status").arg(dir.path()).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let left = text.lines().find(|l| l.starts_with("left ")).unwrap();
    assert!(!left.contains("of CPU"), "{text}");
}

/// Shards of one board by every decomposition in one folder: a status each, each resubmit line
/// naming its DECOMPOSITION; an even board's three and an odd board's two.
#[test]
fn status_of_every_decomposition_in_one_folder_gives_each() {
    let even = [
        ("shard-1", "whole"),
        ("turn-1", "quarter-turn"),
        ("inner-1", "innermost"),
    ];
    for (n, ways) in [(16, &even[..]), (15, &[even[0], even[2]][..])] {
        let dir = tempfile::tempdir().unwrap();
        for (name, decomposition) in ways {
            nqueens()
                .args(["count", &n.to_string(), "--shard", "1/3", "-q", "-o"])
                .arg(dir.path().join(format!("{name}.json")))
                .args(["--decomposition", decomposition])
                .assert()
                .success();
        }
        let out = nqueens()
            .args(["status", "--json"])
            .arg(dir.path())
            .assert()
            .success();
        // One JSON object, every campaign under "campaigns", the first one's fields on top.
        let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        assert_eq!(text.lines().count(), 1, "{text}");
        let top: Value = serde_json::from_str(&text).unwrap();
        let lines = top["campaigns"].as_array().unwrap().clone();
        assert_eq!(lines.len(), ways.len());
        assert_eq!(top["decomposition"], lines[0]["decomposition"]);
        let mut seen: Vec<&str> = lines
            .iter()
            .map(|s| s["decomposition"].as_str().unwrap())
            .collect();
        seen.sort_unstable();
        let mut expected: Vec<&str> = ways.iter().map(|w| w.1).collect();
        expected.sort_unstable();
        assert_eq!(seen, expected);
        for s in &lines {
            assert_eq!(
                (s["done"].clone(), s["array"].clone()),
                (serde_json::json!([1]), "2-3".into())
            );
            assert_eq!(s["problems"], serde_json::json!([]), "{s}");
            // The decomposition is named where it is not the board's default (whole at n = 15
            // and 16), as merge.log's advice names what the user set.
            let again = s["resubmit"].as_str().unwrap();
            let named = format!("DECOMPOSITION={} ", s["decomposition"].as_str().unwrap());
            assert_eq!(
                again.contains(&named),
                s["decomposition"] != "whole",
                "{again}"
            );
            assert!(again.starts_with(&format!("N={n} SHARDS=3 ")), "{again}");
        }
    }
}

/// Files that are all damaged are said to be so, not absent; --json gives an error object.
#[test]
fn status_of_damaged_files_says_what_is_wrong_and_json_gets_an_error_object() {
    let dir = tempfile::tempdir().unwrap();
    for i in 1..=3 {
        std::fs::write(dir.path().join(format!("shard-{i}.json")), "{\"total\": 1").unwrap();
    }
    let out = nqueens()
        .args(["status", "--json"])
        .arg(dir.path())
        .assert()
        .code(1);
    let out = out.get_output();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: none of the 3 shard files in ")
            && stderr.contains("shard-1.json: not a shard result with an intact checksum"),
        "{stderr}"
    );
    let error: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .starts_with("none of the 3"),
        "{error}"
    );
}

/// Empty checkpoints (runs just starting, or files left empty by a crash) are waited for once
/// for the whole folder, not one after another.
#[test]
fn status_waits_once_for_many_empty_checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    nqueens()
        .args(["count", "12", "--shard", "1/2", "-q", "-o"])
        .arg(dir.path().join("shard-1.json"))
        .assert()
        .success();
    for i in 2..=21 {
        std::fs::write(dir.path().join(format!("empty-{i}.ckpt")), "").unwrap();
    }
    let began = std::time::Instant::now();
    let s = json(dir.path(), &[]);
    let took = began.elapsed();
    assert_eq!(s["done"], serde_json::json!([1]), "{s}");
    // One wait of 2 s for all 20, where each used to cost 2 s: 40 s.
    assert!(took < std::time::Duration::from_secs(8), "{took:?}");
    assert_eq!(s["problems"].as_array().unwrap().len(), 20, "{s}");
}

/// A checkpoint just made, whose header its run has not written yet, is waited for a moment,
/// not taken for no checkpoint at all.
#[test]
fn status_waits_for_a_checkpoint_just_made() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("shard-1.ckpt");
    std::fs::write(&ckpt, "").unwrap();
    let status = std::process::Command::new(binary())
        .args(["status", "--json"])
        .arg(dir.path())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The status is waiting for the empty checkpoint (its one timed sleep) when its run starts.
    crate::util::poll_until("status to wait for the header", 30, || {
        crate::util::in_timed_sleep(status.id())
    });
    nqueens()
        .args(["count", "12", "--shard", "1/2", "-q", "--checkpoint"])
        .arg(&ckpt)
        .arg("-o")
        .arg(dir.path().join("shard-1.json"))
        .assert()
        .success();
    let out = status.wait_with_output().unwrap();
    assert!(out.status.success());
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (s["n"].clone(), s["shards"].clone()),
        (12.into(), 2.into()),
        "{s}"
    );
}
