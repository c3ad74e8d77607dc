//! `nqueens estimate` as a user meets it: the interval, the JSON, the draws as they come, a
//! stopped or busy estimate, the seed, the engine and the width asked for.

use serde_json::Value;

use crate::cli::refuses;
use crate::util::nqueens;

#[test]
fn estimate_predicts_cpu_wall_and_shard_time_with_an_interval() {
    let out = nqueens()
        .args([
            "estimate",
            "15",
            "-j",
            "2",
            "--seconds",
            "0.2",
            "--shards",
            "10",
        ])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("n = 15, join engine, 6435 east row sets, ")
            && lines[0].contains(" timed; plan built in ")
            && lines[1].contains(" draws among the ")
            && lines[1].contains(" (seed "),
        "{text}"
    );
    // Every line within 80 columns.
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    for (line, start) in lines[2..].iter().zip([
        "CPU time ",
        "CPU-core-years ",
        "pairs tested ",
        "pairs ANDed ",
        "wall time, 2 threads ",
        "one of 10 shards, CPU ",
        "one shard, 2 threads ",
        "shards of an hour        1 or more",
    ]) {
        assert!(line.starts_with(start), "{text}");
    }
    assert!(
        lines[2].contains(" ± ") && lines[2].contains("95% interval"),
        "{text}"
    );
    // The join's draws are of the row sets that hold a unit, and the report says what share
    // they are: with a table, and with the quadrants made on demand (a budget too small for
    // n = 16's table).
    let share = |text: &str| -> f64 {
        text.split(" draws among the ")
            .nth(1)
            .and_then(|rest| rest.split("% with a unit").next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no share in {text:?}"))
    };
    assert!((20.0..35.0).contains(&share(lines[1])), "{text}");
    let out = nqueens()
        .args(["estimate", "16", "-j", "1", "--seconds", "0.1"])
        .args(["--memory", "1300K"])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!((20.0..35.0).contains(&share(&text)), "{text}");
    nqueens()
        .args(["estimate", "33"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("33"));
}

/// `estimate --json`: one object with every figure of the text report, in seconds.
#[test]
fn an_estimate_as_json_has_every_figure() {
    let out = nqueens()
        .args(["estimate", "15", "-j", "2", "--seconds", "0.2"])
        .args(["--shards", "10", "--json", "--seed", "9"])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert_eq!(text.lines().count(), 1, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).expect("one JSON object");
    let number = |key: &str| {
        v[key]
            .as_f64()
            .unwrap_or_else(|| panic!("no {key} in {text}"))
    };
    assert_eq!(v["n"], 15);
    assert_eq!(v["engine"], "join");
    assert_eq!(v["population"], 6435);
    assert_eq!(v["seed"], 9);
    assert_eq!(v["threads"], 2);
    assert!(
        number("draws") >= 3.0 && number("timed") >= number("draws"),
        "{text}"
    );
    assert!((0.2..0.35).contains(&number("share_with_unit")), "{text}");
    let (cpu, setup) = (number("cpu_seconds"), number("setup_seconds"));
    assert!(cpu > setup && number("cpu_margin_seconds") > 0.0, "{text}");
    let year = 365.25 * 86_400.0;
    assert!(
        (number("cpu_core_years") * year / cpu - 1.0).abs() < 1e-9,
        "{text}"
    );
    // Two threads share the work, not the plan.
    assert!(
        (number("wall_seconds") - (setup + (cpu - setup) / 2.0)).abs() < 1e-9,
        "{text}"
    );
    // The pairs the join would test, and their rate over the count's CPU time (the plan's
    // not included).
    let pairs = number("pairs");
    assert!(pairs > 1e6, "{text}");
    assert!(
        (number("pairs_per_cpu_second") * (cpu - setup) / pairs - 1.0).abs() < 1e-9,
        "{text}"
    );
    let shard = &v["shard"];
    assert_eq!(shard["of"], 10);
    let shard_cpu = shard["cpu_seconds"].as_f64().expect("a shard's CPU time");
    assert!(
        (shard_cpu - (setup + (cpu - setup) / 10.0)).abs() < 1e-9,
        "{text}"
    );
}

/// A long estimate (n ≥ 29 takes minutes a draw) shows its draws as they come: lines on stderr
/// when asked for, ending with the last draw, and what they predict so far; stdout holds only
/// the report, and `-q` shows nothing.
#[test]
fn estimates_show_their_draws_as_they_come() {
    let out = nqueens()
        .args(["estimate", "15", "-j", "2"])
        .args(["--seconds", "0.3", "--progress=0.1"])
        .assert()
        .success();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.get_output().stdout).to_string(),
        String::from_utf8_lossy(&out.get_output().stderr).to_string(),
    );
    assert!(
        stdout.starts_with("n = 15, join engine") && !stdout.contains("progress"),
        "{stdout}"
    );
    // Other tests running beside this one may load the machine: the warning that says so is
    // no progress line.
    let busy = |l: &&str| !l.starts_with("warning: other processes took ");
    let lines: Vec<&str> = stderr.lines().filter(busy).collect();
    assert!(lines.len() >= 2, "{stderr}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("progress estimate n = 15: ")),
        "{stderr}"
    );
    // The last line has every draw the report has, and its prediction.
    let draws = stdout
        .lines()
        .nth(1)
        .and_then(|line| line.split(" draws").next())
        .unwrap_or_else(|| panic!("no draws in {stdout:?}"));
    let last = lines[lines.len() - 1];
    assert!(
        last.contains(&format!(": {draws} draws in ")) && last.contains(" so far"),
        "{last} against {stdout}"
    );
    assert!(last.contains(" ± ") && last.contains("CPU time "), "{last}");
    let quiet = nqueens()
        .args(["estimate", "12", "-j", "1", "--seconds", "0.1", "-q"])
        .assert()
        .success();
    let said = String::from_utf8_lossy(&quiet.get_output().stderr).to_string();
    assert_eq!(said.lines().filter(busy).count(), 0, "{said}");
}

/// Stopped by SIGINT or SIGTERM, an estimate (n ≥ 29 draws for minutes) reports what the draws
/// done predict, says so, and exits with 128 + the signal.
#[test]
fn a_stopped_estimate_reports_the_draws_done() {
    use std::io::{BufRead, BufReader, Read};
    let mut child = crate::util::process()
        .args(["estimate", "20", "-j", "1"])
        .args(["--seconds", "300", "--progress=0.1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("nqueens starts");
    let mut stderr = BufReader::new(child.stderr.take().expect("piped"));
    // Waits for a progress line with at least two draws.
    let mut line = String::new();
    loop {
        line.clear();
        assert!(
            stderr.read_line(&mut line).expect("reads stderr") > 0,
            "ended early"
        );
        let draws = line
            .split(": ")
            .nth(1)
            .and_then(|rest| rest.split(" draws").next())
            .and_then(|k| k.parse::<usize>().ok());
        if draws.is_some_and(|k| k >= 2) {
            break;
        }
    }
    // SAFETY: kill(2) only sends a signal to the child this test started and still waits for.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let status = child.wait().expect("nqueens ends");
    let (mut out, mut rest) = (String::new(), String::new());
    child
        .stdout
        .take()
        .expect("piped")
        .read_to_string(&mut out)
        .expect("reads stdout");
    stderr.read_to_string(&mut rest).expect("reads stderr");
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(
        rest.contains("SIGINT: stopped after ") && rest.contains("the estimate is of those done"),
        "{rest}"
    );
    assert!(
        out.starts_with("n = 20, join engine") && out.contains("CPU time "),
        "{out}"
    );
}

/// An estimate names its seed: one given is used, and without one every run draws a sample of its
/// own (a fixed default seed made every estimate of a board the same sample, high or low alike).
#[test]
fn estimates_name_their_seed_and_draw_a_fresh_one_by_default() {
    let seed_of = |args: &[&str]| {
        let out = nqueens()
            .args(["estimate", "12", "-j", "1", "--seconds", "0.1"])
            .args(args)
            .assert()
            .success();
        let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        let first = text.lines().nth(1).unwrap_or_default().to_string();
        let seed = first
            .split("(seed ")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .and_then(|s| s.parse::<u64>().ok());
        seed.unwrap_or_else(|| panic!("no seed in {first:?}"))
    };
    assert_eq!(seed_of(&["--seed", "7"]), 7);
    let (a, b) = (seed_of(&[]), seed_of(&[]));
    assert_ne!(a, b, "two estimates without --seed drew the same seed");
}

#[test]
fn estimate_uses_the_engine_asked_for() {
    for (engine, pieces) in [
        ("mirror", "subproblems"),
        ("symmetry", "subproblems"),
        ("join", "east row sets"),
    ] {
        let out = nqueens()
            .args(["estimate", "14", "-j", "1", "--seconds", "0.1", "-q"])
            .args(["--engine", engine, "--seed", "3"])
            .assert()
            .success();
        let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        let first = text.lines().next().unwrap_or("");
        assert!(
            first.starts_with(&format!("n = 14, {engine} engine, ")) && first.contains(pieces),
            "{text}"
        );
        let json = nqueens()
            .args(["estimate", "14", "-j", "1", "--seconds", "0.1", "--json"])
            .args(["--engine", engine])
            .assert()
            .success();
        let v: Value = serde_json::from_slice(&json.get_output().stdout).unwrap();
        assert_eq!(v["engine"], engine);
    }
    refuses(
        &["estimate", "14", "--engine", "fast"],
        "invalid value 'fast' for '--engine <NAME>'",
    );
}

/// `estimate --until 20%` samples until the interval is that narrow and says so; a width the
/// `--seconds` cap comes before is said too, with the width reached.
#[test]
fn an_estimate_samples_until_the_width_asked_for() {
    let text = |args: &[&str]| {
        let out = nqueens()
            .args(["estimate", "15", "-j", "2", "-q"])
            .args(args)
            .assert()
            .success();
        String::from_utf8_lossy(&out.get_output().stdout).to_string()
    };
    let reached = text(&["--until", "20%", "--seconds", "60"]);
    assert!(
        reached.contains("sampled until the interval was within ±20%\n"),
        "{reached}"
    );
    let capped = text(&["--until", "0.1%", "--seconds", "0.3"]);
    assert!(
        capped.contains("the --seconds cap came before ±0.1%: ±"),
        "{capped}"
    );
    nqueens()
        .args(["estimate", "15", "--until", "ten"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("'ten' is not a percentage"));
}

/// An estimate timed while other processes take the machine's CPU says so, as bench does.
#[test]
fn an_estimate_on_a_busy_machine_warns() {
    let cores = num_cpus::get().max(1);
    let mut load: Vec<std::process::Child> = (0..cores)
        .map(|_| {
            std::process::Command::new("sh")
                .args(["-c", "while :; do :; done"])
                .spawn()
                .unwrap()
        })
        .collect();
    // Each loop has run on a CPU before the estimate starts: a state, not a guessed time.
    crate::util::poll_until("the busy loops to run", 30, || {
        load.iter()
            .all(|child| crate::util::cpu_ticks(child.id()) >= 2)
    });
    let out = nqueens()
        .args(["estimate", "18", "--seconds", "1", "-j", "1", "-q"])
        .output()
        .unwrap();
    for child in &mut load {
        child.kill().unwrap();
        child.wait().unwrap();
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: other processes took ")
            && stderr.contains("of the machine's CPU while the draws were timed"),
        "{stderr}"
    );
}
