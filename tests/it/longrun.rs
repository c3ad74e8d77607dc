//! Long runs: checkpoints survive SIGKILL, SIGINT and SIGTERM and resume to the exact count;
//! files of other runs and damaged files are refused; progress stays on stderr.

use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use nqueens::known;
use serde_json::Value;

use crate::util::{nqueens, scratch};

/// A run of a second or two on two cores, split finely so that records come early. Spawned to be
/// stopped, it is held after [`HOLD`] subproblems (`NQUEENS_TEST_HOLD_AFTER`) until a signal comes, so
/// the signal finds it mid-run however fast the machine is.
const LONG: [&str; 8] = [
    "count",
    "16",
    "--engine",
    "mirror",
    "-j",
    "2",
    "--split-depth",
    "4",
];

fn long_run(checkpoint: &Path) -> Vec<String> {
    let mut args: Vec<String> = LONG.iter().map(|s| s.to_string()).collect();
    args.extend(["--checkpoint".to_string(), checkpoint.display().to_string()]);
    args
}

fn spawn(args: &[String]) -> Child {
    spawn_with(args, &[])
}

/// Subproblems a spawned run counts before it waits for a signal.
const HOLD: usize = 20;

fn spawn_with(args: &[String], vars: &[(&str, &str)]) -> Child {
    crate::util::process()
        .args(args)
        .env("NQUEENS_TEST_HOLD_AFTER", HOLD.to_string())
        .envs(vars.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nqueens starts")
}

/// Waits until the checkpoint holds the records of the held run, then sends `signals` to it.
fn kill_mid_run(child: &mut Child, path: &Path, signals: &[&str]) -> ExitStatus {
    crate::util::poll_until("the held run's records", 120, || {
        crate::util::checkpoint_records(path) >= HOLD
    });
    assert!(
        child.try_wait().unwrap().is_none(),
        "the run ended before it could be killed"
    );
    for signal in signals {
        send(child, signal);
    }
    crate::util::wait_within(child, 120)
}

fn send(child: &Child, signal: &str) {
    let signal = match signal {
        "INT" => libc::SIGINT,
        "TERM" => libc::SIGTERM,
        "KILL" => libc::SIGKILL,
        "CONT" => libc::SIGCONT,
        other => panic!("no signal {other}"),
    };
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: kill(2) only sends a signal to the child this test started and still waits for.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
}

fn stderr_of(child: Child) -> String {
    String::from_utf8(child.wait_with_output().unwrap().stderr).unwrap()
}

/// Runs the same command again to the end: the count must be the table's.
fn resume_gives_the_table_count(args: &[String], path: &Path) {
    let plan = nqueens::Plan::new(nqueens::Engine::Mirror, 16, 4).unwrap();
    resume_to_the_table_count(args, path, plan.len());
}

/// Runs the same command (of n = 16, a plan of `plan_len` pieces) again to the end: the count
/// must be the table's, and the checkpoint then holds every piece.
fn resume_to_the_table_count(args: &[String], path: &Path, plan_len: usize) {
    let saved = crate::util::checkpoint_records(path);
    assert!(saved > 0 && saved < plan_len, "{saved} of {plan_len} saved");
    let out = nqueens().args(args).arg("--json").assert().success();
    let out = out.get_output();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["total"].as_u64().unwrap() as u128,
        known::known(16).unwrap().total
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("resuming from"), "{stderr}");
    assert_eq!(crate::util::checkpoint_records(path), plan_len);
}

#[test]
fn sigkill_mid_run_then_resume_gives_the_exact_count() {
    let (_dir, path) = scratch("n16.ckpt");
    let args = long_run(&path);
    let mut child = spawn(&args);
    let status = kill_mid_run(&mut child, &path, &["KILL"]);
    assert_eq!(status.signal(), Some(9));
    resume_gives_the_table_count(&args, &path);
}

#[test]
fn join_and_symmetry_runs_killed_mid_run_resume_to_the_exact_count() {
    for (engine, plan) in [
        ("join", nqueens::Plan::join(16).unwrap()),
        (
            "symmetry",
            nqueens::Plan::new(nqueens::Engine::Symmetry, 16, 4).unwrap(),
        ),
    ] {
        let (_dir, path) = scratch("n16.ckpt");
        let mut args: Vec<String> = ["count", "16", "--engine", engine, "-j", "2"]
            .map(String::from)
            .to_vec();
        if engine == "symmetry" {
            args.extend(["--split-depth".into(), "4".into()]);
        }
        args.extend(["--checkpoint".into(), path.display().to_string()]);
        let mut child = spawn(&args);
        let status = kill_mid_run(&mut child, &path, &["KILL"]);
        assert_eq!(status.signal(), Some(9), "{engine}");
        resume_to_the_table_count(&args, &path, plan.len());
    }
}

#[test]
fn a_killed_shard_resumes_from_its_checkpoint_and_merges_to_the_table_count() {
    let (dir, path) = scratch("shard1.ckpt");
    let out = |i: u32| dir.path().join(format!("s{i}.json")).display().to_string();
    let shard = |i: u32| -> Vec<String> {
        let mut args: Vec<String> = LONG.iter().map(|s| s.to_string()).collect();
        args.extend(["--shard".into(), format!("{i}/2"), "-o".into(), out(i)]);
        args
    };
    let mut first = shard(1);
    first.extend(["--checkpoint".into(), path.display().to_string()]);
    let mut child = spawn(&first);
    let status = kill_mid_run(&mut child, &path, &["KILL"]);
    assert_eq!(status.signal(), Some(9));
    assert!(
        !Path::new(&out(1)).exists(),
        "a killed shard wrote a result"
    );
    let resumed = nqueens().args(&first).assert().success();
    let stderr = String::from_utf8_lossy(&resumed.get_output().stderr).to_string();
    assert!(stderr.contains("resuming from"), "{stderr}");
    // The checkpoint belongs to shard 1: shard 2 may not use it.
    let mut second = shard(2);
    second.extend(["--checkpoint".into(), path.display().to_string()]);
    let refused = nqueens().args(&second).assert().code(1);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).to_string();
    assert!(stderr.contains("shard-1-of-2"), "{stderr}");
    nqueens().args(shard(2)).assert().success();
    let merged = nqueens()
        .args(["merge", &out(1), &out(2), "--json"])
        .assert()
        .success();
    let json: Value = serde_json::from_slice(&merged.get_output().stdout).unwrap();
    assert_eq!(
        json["total"].as_u64().unwrap() as u128,
        known::known(16).unwrap().total
    );
}

#[test]
fn sigint_and_sigterm_stop_cleanly_with_their_exit_codes() {
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let (_dir, path) = scratch("n16.ckpt");
        let args = long_run(&path);
        let mut child = spawn(&args);
        let status = kill_mid_run(&mut child, &path, &[signal]);
        assert_eq!(status.code(), Some(code), "SIG{signal}");
        let stderr = stderr_of(child);
        assert!(
            stderr.contains(&format!("interrupted by SIG{signal}")),
            "{stderr}"
        );
        assert!(stderr.contains("To resume, run: "), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        resume_gives_the_table_count(&args, &path);
    }
}

#[test]
fn a_stopped_shard_auto_says_how_to_resume_it_outside_its_job() {
    let (dir, path) = scratch("shard.ckpt");
    let out = dir.path().join("s.json").display().to_string();
    let mut args = long_run(&path);
    args.extend(["--shard", "auto", "-o", &out].map(String::from));
    let array = [
        ("SLURM_ARRAY_TASK_ID", "2"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_MAX", "3"),
    ];
    let mut child = spawn_with(&args, &array);
    let status = kill_mid_run(&mut child, &path, &["TERM"]);
    assert_eq!(status.code(), Some(143));
    let stderr = stderr_of(child);
    assert!(stderr.contains("To resume, run: "), "{stderr}");
    assert!(stderr.contains(" --shard 2/3 -o "), "{stderr}");
    assert!(!stderr.contains("auto"), "{stderr}");
    // The command it gives resumes, outside the job, and writes shard 2 of 3.
    let mut resume = args.clone();
    let auto = resume.iter().position(|a| a == "auto").unwrap();
    resume[auto] = "2/3".to_string();
    let resumed = nqueens().args(&resume).assert().success();
    let stderr = String::from_utf8_lossy(&resumed.get_output().stderr).to_string();
    assert!(stderr.contains("resuming from"), "{stderr}");
    let result: Value = serde_json::from_str(&fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        (result["shard"].clone(), result["shards"].clone()),
        (2.into(), 3.into())
    );
}

/// Slurm at a time limit, as it signals a job step: SIGCONT and SIGTERM to the step, the same
/// again through `srun`, then SIGKILL once `KillWait` (30 s by default) has passed. The repeated
/// SIGTERM must not quit at once: the run finishes what it was counting and saves it.
#[test]
fn a_time_limit_s_repeated_sigterm_still_stops_cleanly() {
    let (_dir, path) = scratch("n16.ckpt");
    let args = long_run(&path);
    let mut child = spawn(&args);
    crate::util::poll_until("the held run's records", 120, || {
        crate::util::checkpoint_records(&path) >= HOLD
    });
    for signal in ["CONT", "TERM", "CONT", "TERM"] {
        send(&child, signal);
        std::thread::sleep(Duration::from_millis(20));
    }
    let kill_wait = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > kill_wait {
            send(&child, "KILL");
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(
        status.code(),
        Some(143),
        "stopped by SIGKILL, not by itself"
    );
    let stderr = stderr_of(child);
    assert!(!stderr.contains("quitting at once"), "{stderr}");
    assert!(stderr.contains("interrupted by SIGTERM"), "{stderr}");
    resume_gives_the_table_count(&args, &path);
}

#[test]
fn a_second_ctrl_c_quits_at_once_and_the_checkpoint_stays_valid() {
    let (_dir, path) = scratch("n16.ckpt");
    let args = long_run(&path);
    let mut child = spawn(&args);
    let status = kill_mid_run(&mut child, &path, &["INT", "INT"]);
    assert_eq!(status.code(), Some(130));
    let stderr = stderr_of(child);
    assert!(stderr.contains("To resume, run: "), "{stderr}");
    resume_gives_the_table_count(&args, &path);
}

#[test]
fn without_a_checkpoint_an_interrupt_says_the_work_is_lost() {
    let mut args = LONG.map(String::from).to_vec();
    args.push("--progress=0.1".to_string());
    let mut child = spawn(&args);
    // The first progress line shows the run is under way (and the handler installed).
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert!(line.starts_with("progress"), "{line}");
    send(&child, "INT");
    assert_eq!(crate::util::wait_within(&mut child, 120).code(), Some(130));
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    assert!(rest.contains("the work so far is lost"), "{rest}");
}

/// A finished checkpoint of n = 10 at split depth 2 (the whole run takes milliseconds).
fn finished_checkpoint(path: &Path) -> Vec<String> {
    let args: Vec<String> = [
        "count",
        "10",
        "--engine",
        "mirror",
        "--split-depth",
        "2",
        "--checkpoint",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([path.display().to_string()])
    .collect();
    nqueens().args(&args).assert().success();
    args
}

/// Exit status `code`, nothing on stdout, and on stderr a first line that contains `message`:
/// one line for a refused file (exit 1), the short form of a usage error for a bad command line
/// (exit 2).
fn refused(args: &[String], code: i32, message: &str) {
    let out = nqueens().args(args).assert().code(code).stdout("");
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    if code == 2 {
        crate::cli::is_short_usage_error(&stderr);
    } else {
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    assert!(
        stderr.lines().next().unwrap_or("").contains(message),
        "{stderr}"
    );
}

fn with(args: &[String], at: usize, value: &str) -> Vec<String> {
    let mut args = args.to_vec();
    args[at] = value.to_string();
    args
}

#[test]
fn a_checkpoint_of_another_run_is_refused_naming_what_differs() {
    let (_dir, path) = scratch("n10.ckpt");
    let args = finished_checkpoint(&path);
    // A refused file exits 1, as the README says (2 is for a bad command line).
    refused(&with(&args, 1, "11"), 1, "n is 10 in the file but 11 here");
    refused(
        &with(&args, 5, "3"),
        1,
        "split-depth is 2 in the file but 3 here",
    );
    refused(
        &with(&args, 3, "symmetry"),
        1,
        "engine is mirror in the file but symmetry here",
    );
}

/// The default split follows the threads: a checkpoint resumed with other threads and no
/// --split-depth is refused with the depth that resumes it.
#[test]
fn a_split_that_followed_the_threads_is_said_with_the_depth_that_resumes() {
    let (_dir, path) = scratch("n14.ckpt");
    let count = |threads: &str| {
        let mut cmd = nqueens();
        cmd.args([
            "count",
            "14",
            "--engine",
            "mirror",
            "-q",
            "-j",
            threads,
            "--checkpoint",
        ])
        .arg(&path);
        cmd
    };
    count("1").assert().success();
    let out = count("32").assert().code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("split-depth is 2 in the file but 4 here")
            && stderr.contains("without --split-depth the split follows the threads, -j 32")
            && stderr.contains("resume with --split-depth 2"),
        "{stderr}"
    );
    // And it does resume so.
    let out = count("32").args(["--split-depth", "2"]).assert().success();
    assert!(String::from_utf8_lossy(&out.get_output().stdout).contains(" 365596 "));
}

#[test]
fn a_checkpoint_in_use_by_another_run_is_refused_naming_the_holder() {
    let (_dir, path) = scratch("n10.ckpt");
    let args = finished_checkpoint(&path);
    let before = fs::read(&path).unwrap();
    // This test process stands in for a run that still holds the file (a requeued job's
    // predecessor): it takes the same lock a run takes.
    let held = fs::File::open(&path).unwrap();
    held.lock().unwrap();
    refused(
        &args,
        1,
        &format!("is in use by process {}", std::process::id()),
    );
    assert_eq!(fs::read(&path).unwrap(), before, "the refused run wrote");
    drop(held);
    nqueens().args(&args).assert().success();
}

#[test]
fn damage_and_foreign_files_are_refused_with_their_place() {
    let (_dir, path) = scratch("n10.ckpt");
    let args = finished_checkpoint(&path);
    let text = fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // Line 3 keeps its checksum but claims one more solution.
    let fields: Vec<&str> = lines[2].split(' ').collect();
    let more = fields[1].parse::<u64>().unwrap() + 1;
    lines[2] = format!("{} {more} {} {}", fields[0], fields[2], fields[3]);
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    refused(&args, 1, "is damaged at line 3");

    fs::write(&path, "id,solutions\n1,2\n").unwrap();
    refused(&args, 1, "is not an nqueens checkpoint");
    fs::write(&path, [0u8, 159, 146, 150]).unwrap();
    refused(&args, 1, "is not an nqueens checkpoint");
    let device = with(&args, args.len() - 1, "/dev/zero");
    refused(&device, 1, "/dev/zero is not an nqueens checkpoint");
}

#[test]
fn a_torn_last_record_is_redone_and_duplicates_count_once() {
    let (_dir, path) = scratch("n10.ckpt");
    let args = finished_checkpoint(&path);
    let whole = fs::read_to_string(&path).unwrap();
    let all = crate::util::checkpoint_records(&path);
    let last = whole
        .lines()
        .rfind(|l| !l.starts_with("time "))
        .unwrap()
        .to_string();
    // A crash in the middle of the last write, after a record written twice.
    let torn = format!("{whole}{last}\n{}", &last[..last.len() / 2]);
    fs::write(&path, torn).unwrap();
    let out = nqueens().args(&args).arg("--json").assert().success();
    let out = out.get_output();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["total"], 724);
    assert!(String::from_utf8_lossy(&out.stderr).contains("torn"));
    // The torn fragment is gone; the file is whole again.
    let repaired = fs::read_to_string(&path).unwrap();
    assert!(repaired.ends_with('\n'));
    assert_eq!(crate::util::checkpoint_records(&path), all + 1);
    nqueens().args(&args).assert().success();
}

#[test]
fn progress_goes_to_stderr_and_json_stays_clean() {
    let out = nqueens()
        .args([
            "count",
            "15",
            "--engine",
            "mirror",
            "-j",
            "2",
            "--json",
            "--progress=0.1",
        ])
        .assert()
        .success();
    let out = out.get_output();
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(stdout.lines().count(), 1);
    let json: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["total"], 2_279_184);
    assert!(stderr.contains("progress n = 15: "), "{stderr}");
    // Each line leads with the share of the work; the subproblems finished, which differ in
    // work by orders of magnitude, come last and say so.
    for line in stderr.lines().filter(|l| l.starts_with("progress ")) {
        let (share, rest) = line["progress n = 15: ".len()..]
            .split_once("% of the work, ETA ")
            .unwrap();
        assert!(share.parse::<f64>().is_ok(), "{line}");
        assert!(rest.ends_with(" subproblems, of unequal work)"), "{line}");
    }
    assert!(stderr.contains("solutions so far"), "{stderr}");
    // However short the run, its log ends with where it ended: all of it.
    let last = stderr.lines().last().unwrap();
    assert!(
        last.starts_with("progress n = 15: 100.0% of the work, ETA ")
            && last.contains(" 2279184 solutions so far"),
        "{last}"
    );
    // Quiet means quiet.
    nqueens()
        .args(["count", "12", "--quiet", "--json"])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn checkpoint_and_progress_flags_are_checked() {
    let (_dir, path) = scratch("x");
    let p = path.display().to_string();
    for (args, message) in [
        (
            vec!["count", "8..10", "--checkpoint", &p],
            "--checkpoint holds one board size",
        ),
        (
            vec!["count", "8", "--progress=0"],
            "0 seconds is out of range: give 0.1 to 86400",
        ),
        (
            vec!["count", "8", "--progress", "-q"],
            "cannot be used with",
        ),
    ] {
        let args: Vec<String> = args.into_iter().map(String::from).collect();
        refused(&args, 2, message);
    }
    assert!(!path.exists());
}

#[test]
fn a_terminal_gets_a_progress_bar() {
    // `script` runs the count on a pseudo-terminal and copies what it shows to its typescript
    // file as it comes (`-f`); stdout goes away, so what is left is stderr, the bar. The run is
    // held after a few subproblems (`NQUEENS_TEST_HOLD_AFTER`), so it is still running when the
    // bar appears, however fast or loaded the machine; Ctrl-C stops it once the bar is there.
    let (_dir, typescript) = scratch("typescript");
    let bin = crate::util::binary();
    let inner = format!(
        "NQUEENS_TEST_HOLD_AFTER={HOLD} '{}' count 16 --engine mirror -j 1 --split-depth 4 > /dev/null & \
         pid=$!; for i in $(seq 1200); do grep -q ' elapsed, ' '{ts}' && break; sleep 0.1; done; \
         kill -INT $pid; wait $pid; test $? -eq 130",
        bin.display(),
        ts = typescript.display()
    );
    let out = Command::new("script")
        .args(["-qfec", &inner])
        .arg(&typescript)
        .output()
        .expect("script (util-linux) runs");
    let screen = fs::read_to_string(&typescript).unwrap_or_default();
    assert!(out.status.success(), "{screen}");
    assert!(screen.contains("n = 16 ["), "{screen}");
    assert!(screen.contains("% ETA "), "{screen}");
    assert!(screen.contains(" elapsed, "), "{screen}");
}

#[test]
fn a_resumed_shard_reports_the_time_of_all_its_runs() {
    let (dir, path) = scratch("shard.ckpt");
    let out = dir.path().join("s1.json");
    let mut args: Vec<String> = LONG.iter().map(|s| s.to_string()).collect();
    args.extend(["--shard".into(), "1/2".into(), "-o".into()]);
    args.push(out.display().to_string());
    args.extend(["--checkpoint".into(), path.display().to_string()]);
    // The first run is held mid-shard for a while, then stopped cleanly by SIGINT: its time line
    // says how long it took.
    let mut child = spawn(&args);
    crate::util::poll_until("the held run's records", 120, || {
        crate::util::checkpoint_records(&path) >= HOLD
    });
    // Held a while, so that its time line has something to say.
    std::thread::sleep(Duration::from_millis(300));
    send(&child, "INT");
    assert_eq!(crate::util::wait_within(&mut child, 120).code(), Some(130));
    let text = fs::read_to_string(&path).unwrap();
    let first: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("time 1 "))
        .expect("the first run's time line")
        .split(' ')
        .collect();
    let first_wall = first[2].parse::<f64>().unwrap() / 1e6;
    assert!(first_wall >= 0.3, "{first_wall}");
    nqueens().args(&args).assert().success();
    let result: Value = serde_json::from_str(&fs::read_to_string(&out).unwrap()).unwrap();
    let (wall, cpu) = (
        result["elapsed_seconds"].as_f64().unwrap(),
        result["cpu_seconds"].as_f64().unwrap(),
    );
    assert!(
        wall > first_wall,
        "{wall} against the first run's {first_wall}"
    );
    assert!(cpu > 0.0, "{cpu}");
    assert!(fs::read_to_string(&path).unwrap().contains("\ntime 2 "));
}

/// A count priced at over an hour on its threads says so before it starts, with the command
/// that measures it closer. n = 23 takes hours on two threads of any machine; the run is held
/// before its first subproblem and stopped once the line is out.
#[test]
fn a_count_of_over_an_hour_says_how_long_before_it_starts() {
    use std::io::{BufRead, BufReader};
    // The engine asked for goes into the estimate command, which must price the same plan.
    let args: Vec<String> = ["count", "23", "-j", "2", "--engine", "join"]
        .map(String::from)
        .to_vec();
    let mut child = spawn_with(&args, &[("NQUEENS_TEST_HOLD_AFTER", "0")]);
    let stderr = child.stderr.take().unwrap();
    // Without the line the run would wait for its signal forever: it gets one in two minutes.
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let (done, watchdog) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if watchdog
            .recv_timeout(std::time::Duration::from_secs(120))
            .is_err()
        {
            // SAFETY: kill(2) only signals the child, which the test has not waited for yet.
            unsafe { libc::kill(pid, libc::SIGINT) };
        }
    });
    let mut said = String::new();
    for line in BufReader::new(stderr).lines() {
        let line = line.unwrap();
        said += &line;
        if line.contains("will take about") {
            break;
        }
    }
    drop(done);
    watchdog.join().unwrap();
    send(&child, "INT");
    assert_eq!(crate::util::wait_within(&mut child, 120).code(), Some(130));
    assert!(
        said.starts_with("n = 23: this count will take about ")
            && said.contains(" h on 2 threads (95% interval ")
            && said.ends_with(
                "to measure it closer first: nqueens estimate 23 -j 2 --engine join --seconds 60"
            ),
        "{said}"
    );
}
