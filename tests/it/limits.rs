//! Under an address-space limit (`ulimit -v`) every command either succeeds with the right
//! answer or refuses with status 1 and says what it needs: never an abort (status 134) or a panic.

use crate::util::under_ulimit;

/// Each command, what its standard output holds when it succeeds, and the largest limit (MiB)
/// it is tried under: n = 26's estimate runs in tiny pieces under a small budget, for minutes.
const COMMANDS: &[(&str, &str, u32)] = &[
    ("count 12 -j 2", " 14200 ", 4096),
    ("count 22 --shard 1/100000 -j 1", "", 4096),
    ("estimate 26 --seconds 0.3 -j 1 -q", "CPU time", 32),
    ("estimate 20 --seconds 0.3 -j 1 -q", "CPU time", 4096),
    ("solve 8 --format columns", "0 4 7 5 2 6 1 3", 4096),
];

#[test]
fn every_command_succeeds_or_says_what_it_needs_under_a_memory_limit() {
    for mib in [8u32, 12, 16, 24, 32, 48, 64, 128, 4096] {
        for &(args, answer, _) in COMMANDS.iter().filter(|c| mib <= c.2) {
            let out = under_ulimit(mib << 10, args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let stdout = String::from_utf8_lossy(&out.stdout);
            match out.status.code() {
                Some(0) => assert!(stdout.contains(answer), "{mib} MiB, {args}: {stdout}"),
                Some(1) => assert!(says_what_it_needs(&stderr), "{mib} MiB, {args}: {stderr}"),
                other => panic!("{mib} MiB, {args}: status {other:?}: {stderr}"),
            }
            no_runtime_text(&stderr, &format!("{mib} MiB, {args}"));
        }
    }
}

/// A refusal for want of memory, in the program's words: what it needs, or what the system
/// refused it, or the threads it could not start.
fn says_what_it_needs(stderr: &str) -> bool {
    (stderr.starts_with("error: ") || stderr.contains("\nerror: "))
        && [
            "needs at least",
            "need at least",
            "out of memory: the system refused",
            "give it more --seconds or more memory",
        ]
        .iter()
        .any(|words| stderr.contains(words))
}

/// Nothing of Rust's runtime: no panic, no allocation failure in its words, no backtrace.
fn no_runtime_text(stderr: &str, case: &str) {
    for text in [
        "panicked",
        "memory allocation of",
        "stack backtrace",
        "RUST_BACKTRACE",
        "cannot write the output",
    ] {
        assert!(!stderr.contains(text), "{case}: {stderr}");
    }
}

/// merge and status, of a campaign's files, under limits down to 8 MiB: they merge or refuse in
/// their own words (a failed thread pool once panicked in rayon).
#[test]
fn merge_and_status_refuse_in_their_own_words_under_a_memory_limit() {
    let dir = tempfile::tempdir().unwrap();
    for i in 1..=2 {
        crate::util::nqueens()
            .args(["count", "16", "--shard", &format!("{i}/2"), "-q", "-o"])
            .arg(dir.path().join(format!("shard-{i}.json")))
            .assert()
            .success();
    }
    let folder = dir.path().display();
    for mib in [8u32, 12, 16, 24, 64] {
        for args in [format!("merge '{folder}'"), format!("status '{folder}'")] {
            let out = under_ulimit(mib << 10, &args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            match out.status.code() {
                Some(0) => {}
                Some(1) => assert!(stderr.contains("error: "), "{mib} MiB, {args}: {stderr}"),
                other => panic!("{mib} MiB, {args}: status {other:?}: {stderr}"),
            }
            no_runtime_text(&stderr, &format!("{mib} MiB, {args}"));
        }
    }
}

/// A draw of n = 28 in 256 MiB takes minutes (the join counts in small pieces): `--seconds`
/// still bounds the estimate (twice the time asked, and 10 s), which says why it has no answer.
#[test]
fn an_estimate_under_a_tight_limit_keeps_to_its_seconds() {
    let start = std::time::Instant::now();
    let out = under_ulimit(256 << 10, "estimate 28 --seconds 1 -q --seed 1");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(start.elapsed().as_secs() < 40, "{stderr}");
    match out.status.code() {
        Some(0) => assert!(String::from_utf8_lossy(&out.stdout).contains("CPU time")),
        Some(1) => assert!(says_what_it_needs(&stderr), "{stderr}"),
        other => panic!("status {other:?}: {stderr}"),
    }
    no_runtime_text(&stderr, "estimate 28 in 256 MiB");
}

/// Only a refusal nothing recovers from is told as out of memory: the allocator says it in one
/// line and exits with status 1. Any other abort keeps its default action: SIGABRT to a run
/// under a memory limit ends it by the signal (a core dump where they are enabled), and nothing
/// says "out of memory" (no handler is installed for it).
#[test]
fn only_an_unrecovered_refusal_is_told_as_out_of_memory() {
    use std::os::unix::process::ExitStatusExt;
    // 20 MiB: enough beside what the binary maps at start (a debug build maps most of 16 MiB)
    // for the join engine to be admitted, too little for its estimate.
    let out = under_ulimit(20 << 10, "estimate 26 --seconds 0.3 -j 1 -q");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error: out of memory: the system refused this run "),
        "{stderr}"
    );
    no_runtime_text(&stderr, "20 MiB");

    let (_dir, checkpoint) = crate::util::scratch("held.ckpt");
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {} && exec '{}' count 16 --engine mirror -j 1 --split-depth 4 \
             --checkpoint '{}'",
            1 << 20,
            crate::util::binary().display(),
            checkpoint.display()
        ))
        .env("RUST_BACKTRACE", "1")
        .env("NQUEENS_TEST_HOLD_AFTER", "5")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    crate::util::poll_until("5 records in the checkpoint", 120, || {
        crate::util::checkpoint_records(&checkpoint) >= 5
    });
    crate::util::signal(&child, libc::SIGABRT);
    let status = crate::util::wait_within(&mut child, 60);
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.signal(), Some(libc::SIGABRT), "{status:?}: {stderr}");
    assert!(!stderr.contains("out of memory"), "{stderr}");
}

/// A shard counts by its campaign's plan or not at all: where the join engine's tables do not
/// fit, it is refused before it counts, naming what it needs and what is allowed; a count on its
/// own falls back to symmetry with a note.
#[test]
fn a_shard_never_falls_back_to_another_engine() {
    let (_dir, file) = crate::util::scratch("shard-1.json");
    let out = crate::util::nqueens()
        .args([
            "count", "18", "--shard", "1/8", "-j", "1", "--memory", "1M", "-o",
        ])
        .arg(&file)
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.starts_with("error: a shard of n = 18 counts only by its campaign's plan")
            && stderr.contains("needs at least")
            && stderr.contains("allowed"),
        "{stderr}"
    );
    assert!(!file.exists());
    // On its own, the count falls back and says so.
    let out = crate::util::nqueens()
        .args(["count", "15", "-j", "1", "--memory", "1M"])
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("note: counting n = 15 with the symmetry engine"),
        "{stderr}"
    );
}

/// A resumed run never changes plan: a join checkpoint resumed with too little memory for the
/// join is refused with the reason, not counted by symmetry.
#[test]
fn a_resumed_run_never_changes_plan() {
    let (_dir, checkpoint) = crate::util::scratch("n16.ckpt");
    crate::util::nqueens()
        .args(["count", "16", "-j", "1", "-q", "--checkpoint"])
        .arg(&checkpoint)
        .assert()
        .success();
    let out = crate::util::nqueens()
        .args([
            "count",
            "16",
            "-j",
            "1",
            "-q",
            "--memory",
            "1M",
            "--checkpoint",
        ])
        .arg(&checkpoint)
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("belongs to another run")
            && stderr.contains("a run resumes only by the plan that wrote its checkpoint"),
        "{stderr}"
    );
}
