//! Output that cannot be written: a full disk (/dev/full) or a closed descriptor on stdout or
//! stderr. Never a panic; a result that cannot be printed fails; a shard whose file was written
//! succeeds whatever becomes of stderr; a signal still gives its status.

use std::process::Output;

use crate::util::{binary, scratch};

/// Runs `nqueens ARGS` under sh with `redirect` (such as `2>/dev/full`, `>&-`).
fn run(args: &str, redirect: &str) -> Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("exec '{}' {args} {redirect}", binary().display()))
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap()
}

fn status(out: &Output) -> i32 {
    out.status.code().expect("an exit status, not a signal")
}

#[test]
fn an_unwritable_stderr_never_panics() {
    // A usage error said to a full disk: status 2, as always.
    assert_eq!(status(&run("count 99", "2>/dev/full")), 2);
    assert_eq!(status(&run("count 99", "2>&-")), 2);
    // A count whose stderr is full still prints and succeeds.
    let out = run("count 8 -q", "2>/dev/full");
    assert_eq!(status(&out), 0);
    assert!(String::from_utf8_lossy(&out.stdout).contains(" 92 "));
}

#[test]
fn a_result_that_cannot_be_printed_fails() {
    for (args, redirect) in [
        ("count 8", ">/dev/full"),
        ("count 8", ">&-"),
        ("--help", ">/dev/full"),
        ("--version", ">/dev/full"),
        ("--version", ">&-"),
        ("solve 6", ">/dev/full"),
        ("man", ">/dev/full"),
    ] {
        let out = run(args, redirect);
        assert_eq!(status(&out), 1, "{args} {redirect}: {out:?}");
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
    let out = run("count 8", ">&-");
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard output is closed"));
}

#[test]
fn a_shard_whose_file_was_written_succeeds_whatever_stderr_does() {
    let (_dir, file) = scratch("s.json");
    for redirect in ["2>/dev/full", "2>&-"] {
        let _ = std::fs::remove_file(&file);
        let out = run(
            &format!("count 12 --shard 2/4 -o '{}'", file.display()),
            redirect,
        );
        assert_eq!(status(&out), 0, "{redirect}: {out:?}");
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains("\"shard\": 2"), "{text}");
    }
}

#[test]
fn a_signal_gives_its_status_with_stderr_closed() {
    let (_dir, checkpoint) = scratch("n16.ckpt");
    // The run holds after 5 subproblems until a signal comes (a test-only setting), so the
    // signal finds it under way however fast the machine is; it is sent once the checkpoint
    // holds them, when the handler is long installed. `exec` makes the shell the program, with
    // descriptor 2 closed.
    let script = format!(
        "exec '{}' count 16 --engine mirror -j 1 --split-depth 4 --checkpoint '{}' 2>&-",
        binary().display(),
        checkpoint.display()
    );
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("NQUEENS_TEST_HOLD_AFTER", "5")
        .spawn()
        .unwrap();
    crate::util::poll_until("5 records in the checkpoint", 120, || {
        crate::util::checkpoint_records(&checkpoint) >= 5
    });
    crate::util::signal(&child, libc::SIGINT);
    let status = crate::util::wait_within(&mut child, 60);
    assert_eq!(status.code(), Some(130), "{status:?}");
}

/// Runs `nqueens ARGS` with stdout on a pipe whose reader is already gone, as `| head` leaves
/// it once head has exited: every write is a broken pipe, whatever the timing.
fn into_a_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    crate::util::process()
        .args(args)
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap()
}

/// A listing or a count table whose reader closed the pipe (`solve 10 | head -3`) ends quietly
/// with 0, as ripgrep and fd do; a shard's result into a closed pipe is lost, so it fails.
#[test]
fn a_listing_into_a_closed_pipe_ends_quietly_and_a_shard_fails() {
    for args in [
        &["count", "10", "-q"][..],
        &["count", "8..11", "--json", "-q"],
        &["solve", "8"],
        &["solve", "8", "--format", "json"],
        &["merge", "--help"],
    ] {
        let out = into_a_closed_pipe(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(status(&out), 0, "{args:?}: {stderr}");
        assert!(!stderr.contains("error"), "{args:?}: {stderr}");
    }
    let args = ["count", "12", "--shard", "1/2", "-j", "1", "-q"];
    let out = into_a_closed_pipe(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(status(&out), 1, "{stderr}");
    assert!(
        stderr.contains("error: cannot write the output"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    // A shard's result is not lost: it is on stderr, whole, for the user to save.
    let out = into_a_closed_pipe(&["count", "12", "--shard", "1/2", "-j", "1", "-q"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let json = &stderr[stderr.find('{').unwrap()..=stderr.rfind('}').unwrap()];
    let shard: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(shard["shard"], 1, "{stderr}");
    assert_eq!(shard["format"], nqueens::cluster::SHARD_FORMAT, "{stderr}");
}

#[test]
fn help_into_a_closed_pipe_is_quiet_and_succeeds_every_time() {
    for _ in 0..3 {
        for args in [
            &["--help"][..],
            &["--version"],
            &["help"],
            &["count", "--help"],
            &["completions", "bash"],
        ] {
            let out = into_a_closed_pipe(args);
            assert_eq!(status(&out), 0, "{args:?}: {out:?}");
            assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
        }
    }
}
