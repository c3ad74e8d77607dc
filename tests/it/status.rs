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
    let script = format!(
        "NQUEENS_TEST_HOLD_AFTER=5 '{}' count 17 --shard 4/8 -j 1 -q --checkpoint '{}' -o '{}' \
         & pid=$!; sleep 1; kill -INT $pid; wait $pid",
        binary().display(),
        dir.join("shard-4.ckpt").display(),
        dir.join("shard-4.json").display()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(130), "{out:?}");
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
    assert_eq!(s["array"], "5-8");
    // Three shards of eight dealt by price: near 3/8 of the work, and shard 4's records more.
    let share = s["share_done"].as_f64().unwrap();
    assert!((0.3..0.5).contains(&share), "{share}");
    assert!(s["cpu_seconds"].as_f64().unwrap() > 0.0);
    assert!(s["cpu_left_seconds"].as_f64().unwrap() > 0.0);

    // A checkpoint unchanged for three hours is stalled, and submitted again.
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
            .all(|l| l.chars().count() <= 80 || l.starts_with("ARRAY=")),
        "{text}"
    );
    assert!(text.contains("done              3  1, 2, 3"), "{text}");
    let full = std::fs::canonicalize(dir.path()).unwrap();
    let again = format!(
        "ARRAY=4-8 N=17 SHARDS=8 DIR={} bash '/opt/my jobs/count.sbatch'",
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
    let script = format!(
        "NQUEENS_TEST_HOLD_AFTER=5 '{}' count 17 --shard 2/4 -j 1 -q --checkpoint '{}' -o '{}' \
         & pid=$!; sleep 1; kill -KILL $pid; wait $pid",
        binary().display(),
        dir.path().join("shard-2.ckpt").display(),
        dir.path().join("shard-2.json").display()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(137), "{out:?}");
    let s = json(dir.path(), &[]);
    assert!(s["share_done"].as_f64().unwrap() > 0.0, "{s}");
    assert_eq!(s["cpu_seconds"], 0.0);
    assert_eq!(s["cpu_left_seconds"], Value::Null, "{s}");
    let out = nqueens().arg("status").arg(dir.path()).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let left = text.lines().find(|l| l.starts_with("left ")).unwrap();
    assert!(!left.contains("of CPU"), "{text}");
}
