//! Inside a block: a join block of n ≥ 25 is many row sets, and a run stopped in its middle
//! keeps the row sets it counted and resumes from them.

use std::fs;
use std::process::Stdio;

use nqueens::cluster::{shard_plan, Partition, Shard};
use nqueens::Options;
use serde_json::Value;

use crate::util::{nqueens, scratch};

/// Whether any thread of process `pid` sleeps in a timed wait: the held worker
/// (`NQUEENS_TEST_HOLD_AFTER`) waits for its signal in 1 ms sleeps.
fn a_thread_sleeps(pid: u32) -> bool {
    fs::read_dir(format!("/proc/{pid}/task")).is_ok_and(|tasks| {
        tasks.flatten().any(|t| {
            fs::read_to_string(t.path().join("wchan")).is_ok_and(|w| w.contains("nanosleep"))
        })
    })
}

/// The last part line of `piece` in the checkpoint at `path`: (row sets done, solutions).
fn last_part(path: &std::path::Path, piece: usize) -> Option<(u32, u64)> {
    let text = fs::read_to_string(path).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix(&format!("part {piece} ")))
        .map(|rest| {
            let f: Vec<&str> = rest.split(' ').collect();
            (f[0].parse().unwrap(), f[1].parse().unwrap())
        })
        .next_back()
}

/// A shard of n = 26 stopped by SIGTERM after three row sets of its block records them; run
/// again, it goes on from the fourth (held after three more, its next part is the sixth, not the
/// third: no recorded row set is counted again), and the resumed count is the exact partial
/// total of an uninterrupted run.
#[test]
fn a_block_stopped_inside_resumes_after_its_recorded_row_sets() {
    // With more shards than blocks every block with a price is a shard alone, dealt dearest
    // first: the cheapest block of at least 8 row sets keeps the test short.
    let k = 1_000_000;
    let plan = shard_plan(26, &Options::default(), k).unwrap();
    let partition = Partition::new(&plan, k, 2).unwrap();
    let costs = plan.costs();
    let piece = (0..plan.len())
        .filter(|&id| plan.parts(id) >= 8 && costs[id] > 0.0)
        .min_by(|&a, &b| costs[a].total_cmp(&costs[b]))
        .unwrap();
    let shard = Shard::all(k)
        .find(|&s| partition.owns(s, plan.piece(piece)))
        .unwrap();
    assert!(
        partition.ids(shard) == [piece],
        "the shard holds other blocks"
    );
    let spec = format!("{}/{k}", shard.index());
    let (dir, ckpt) = scratch("n26.ckpt");
    let total_of = |name: &str| -> String {
        let json: Value =
            serde_json::from_slice(&fs::read(dir.path().join(name)).unwrap()).unwrap();
        json["total"].as_str().unwrap().to_string()
    };
    let whole = dir.path().join("whole.json");
    nqueens()
        .args(["count", "26", "--shard", &spec, "-j", "1", "-q", "-o"])
        .arg(&whole)
        .assert()
        .success();
    // The shard with its checkpoint, as a requeued job runs it again and again.
    let resumable: Vec<std::ffi::OsString> = ["count", "26", "--shard", &spec, "-j", "1", "-q"]
        .iter()
        .map(Into::into)
        .chain(["--checkpoint".into(), ckpt.clone().into_os_string()])
        .chain([
            "-o".into(),
            dir.path().join("resumed.json").into_os_string(),
        ])
        .collect();
    let held = |expect_done: u32| {
        let mut child = crate::util::process()
            .args(&resumable)
            .env("NQUEENS_TEST_HOLD_AFTER", "3")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        crate::util::poll_until("the run to be held inside its block", 300, || {
            a_thread_sleeps(child.id())
        });
        crate::util::signal(&child, libc::SIGTERM);
        let status = crate::util::wait_within(&mut child, 120);
        assert_eq!(status.code(), Some(143));
        let (done, _) = last_part(&ckpt, piece).expect("a part line");
        assert_eq!(done, expect_done);
    };
    // Held before the piece, then after row sets 1, 2 and 3: stopped there.
    held(3);
    let (_, after_three) = last_part(&ckpt, piece).unwrap();
    held(6);
    let (_, after_six) = last_part(&ckpt, piece).unwrap();
    assert!(after_six >= after_three);
    nqueens().args(&resumable).assert().success();
    assert_eq!(total_of("resumed.json"), total_of("whole.json"));
}
