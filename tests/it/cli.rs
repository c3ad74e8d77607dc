//! The command line as a user meets it: outputs, JSON, and every kind of bad input.

use predicates::prelude::*;
use serde_json::Value;

use std::fs;

use crate::util::{nqueens, scratch};

#[test]
fn count_prints_total_time_threads_and_verdict_within_80_columns() {
    let out = nqueens().args(["count", "8", "-j", "2"]).assert().success();
    let rows = crate::util::table(&String::from_utf8_lossy(&out.get_output().stdout));
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    let field = |k: &str| row[k].as_str();
    assert_eq!(
        (
            field("n"),
            field("total"),
            field("unique"),
            field("verified")
        ),
        ("8", "92", "12", "yes")
    );
    assert_eq!(field("threads"), "2");
    assert!(field("seconds").parse::<f64>().unwrap() >= 0.0);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
}

#[test]
fn a_range_prints_one_row_per_n() {
    let out = nqueens().args(["count", "4..9"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 6);
    let expected = [
        (4, 2, 1),
        (5, 10, 2),
        (6, 4, 1),
        (7, 40, 6),
        (8, 92, 12),
        (9, 352, 46),
    ];
    for (row, (n, total, unique)) in rows.iter().zip(expected) {
        let cells: Vec<&str> = row.split_whitespace().collect();
        let want = [
            n.to_string(),
            total.to_string(),
            unique.to_string(),
            "yes".into(),
        ];
        assert_eq!(cells[..4], want);
    }
}

#[test]
fn json_lines_carry_the_documented_fields() {
    let out = nqueens()
        .args(["count", "1..12", "--json", "-j", "3"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let objects: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 12);
    for (i, o) in objects.iter().enumerate() {
        let n = i as u64 + 1;
        assert_eq!(o["n"], n);
        assert_eq!(
            o["total"].as_u64().unwrap() as u128,
            nqueens::known::known(n as u32).unwrap().total
        );
        assert!(o["elapsed_seconds"].as_f64().unwrap() >= 0.0);
        assert_eq!(o["threads"], 3);
        assert!(o["subproblems"].as_u64().is_some());
        assert_eq!(
            o["unique"].as_u64().unwrap() as u128,
            nqueens::known::known(n as u32).unwrap().unique
        );
        let k = nqueens::known::known(n as u32).unwrap();
        assert_eq!(o["unique"].as_u64().unwrap() as u128, k.unique);
        assert_eq!(o["verified"], true);
    }
}

#[test]
fn n_two_and_three_have_no_solutions() {
    for n in ["2", "3"] {
        nqueens()
            .args(["count", n, "--json"])
            .assert()
            .success()
            .stdout(predicate::str::contains("\"total\":0"));
    }
}

#[test]
fn help_has_examples_and_version_prints() {
    nqueens()
        .args(["count", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Examples:"))
        .stdout(predicate::str::contains("nqueens count 8..16"));
    // Each subcommand shows its own examples only; the program's help shows them all.
    for (sub, own, other) in [
        ("count", "nqueens count 20 --checkpoint", "nqueens solve"),
        ("merge", "nqueens merge s*.json", "nqueens count 16 -j 1"),
        ("solve", "nqueens solve 8 --unique", "nqueens merge"),
        ("estimate", "nqueens estimate 27 --shards", "nqueens solve"),
        ("bench", "nqueens bench --n 15", "nqueens solve"),
    ] {
        nqueens()
            .args([sub, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains(own))
            .stdout(predicate::str::contains(other).not());
    }
    nqueens()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("nqueens solve 8 --unique"))
        .stdout(predicate::str::contains("nqueens merge s*.json"));
    // The version and the commit the binary was built from.
    nqueens()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::contains(env!("CARGO_PKG_VERSION")))
        .stdout(predicate::str::is_match(r"\(commit ([0-9a-f]{7,}(-dirty)?|unknown)\)").unwrap());
}

/// Each bad command line: exit 2, and on stderr the short form of the error: a first line
/// naming the problem, no panic.
pub(crate) fn refuses(args: &[&str], message: &str) {
    let out = nqueens().args(args).assert().code(2).stdout("");
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    is_short_usage_error(&stderr);
    let first = stderr.lines().next().unwrap_or("");
    assert!(first.contains(message), "{args:?}: {stderr}");
}

/// A usage error as the program prints it: `error: …` (with clap's tips), the usage line when
/// there is one, and which `--help` to read; no panic, no backtrace.
pub(crate) fn is_short_usage_error(stderr: &str) {
    let lines: Vec<&str> = stderr.lines().collect();
    assert!((2..=3).contains(&lines.len()), "{stderr}");
    assert!(lines[0].starts_with("error: "), "{stderr}");
    if lines.len() == 3 {
        assert!(lines[1].starts_with("Usage: nqueens"), "{stderr}");
    }
    let last = lines[lines.len() - 1];
    assert!(
        last.starts_with("For more information, try 'nqueens ") && last.ends_with(" --help'."),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked") && !stderr.contains("backtrace"));
}

#[test]
fn usage_errors_keep_clap_s_suggestions_and_name_the_subcommand_s_help() {
    let err = |args: &[&str]| {
        let out = nqueens().args(args).assert().code(2).stdout("");
        String::from_utf8(out.get_output().stderr.clone()).unwrap()
    };
    let typo = err(&["count", "8", "--thread", "2"]);
    is_short_usage_error(&typo);
    assert!(
        typo.contains("a similar argument exists: '--threads'"),
        "{typo}"
    );
    assert!(typo.contains("Usage: nqueens count"), "{typo}");
    assert!(typo.ends_with("try 'nqueens count --help'.\n"), "{typo}");
    let sub = err(&["cont", "8"]);
    is_short_usage_error(&sub);
    assert!(
        sub.contains("a similar subcommand exists: 'count'"),
        "{sub}"
    );
    assert!(sub.ends_with("try 'nqueens --help'.\n"), "{sub}");
    let small = err(&["count", "8", "--memory", "1K"]);
    assert!(
        small.contains("'1K' is too small: at least 1 MiB"),
        "{small}"
    );
}

/// The threads a JSON report says were used.
fn threads_used(cmd: &mut assert_cmd::Command) -> u64 {
    let out = cmd.args(["count", "9", "--json"]).assert().success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    v["threads"].as_u64().unwrap()
}

#[test]
fn without_j_a_run_uses_the_cpus_it_was_granted() {
    let mut plain = nqueens();
    plain.env_remove("SLURM_CPUS_PER_TASK");
    assert_eq!(threads_used(&mut plain), num_cpus::get() as u64);
    let mut slurm = nqueens();
    slurm.env("SLURM_CPUS_PER_TASK", "1");
    assert_eq!(threads_used(&mut slurm), 1);
    // `srun -n 2` without `-c`, on a node that granted the step 2 CPUs: one thread each.
    let mut step = nqueens();
    step.env_remove("SLURM_CPUS_PER_TASK")
        .env("SLURM_CPUS_ON_NODE", "2")
        .env("SLURM_STEP_TASKS_PER_NODE", "2");
    assert_eq!(threads_used(&mut step), 1);
    // An affinity mask of one CPU (taskset, or a scheduler's cpuset).
    let bin = crate::util::binary();
    let mut pinned = assert_cmd::Command::new("taskset");
    pinned
        .args(["-c", "0"])
        .arg(bin)
        .env_remove("SLURM_CPUS_PER_TASK");
    assert_eq!(threads_used(&mut pinned), 1);
}

#[test]
fn bad_input_gets_one_clear_line_and_status_2() {
    refuses(&["count", "0"], "n must be between 1 and 32, got 0");
    refuses(&["count", "33"], "n must be between 1 and 32, got 33");
    refuses(&["count", "-5"], "n must be between 1 and 32, got -5");
    refuses(&["count", "eight"], "'eight' is not a board size");
    refuses(&["count", "12..8"], "the range 12..8 is empty");
    refuses(&["count", "8.."], "not a board size");
    refuses(&["count", "..8"], "not a board size");
    refuses(&["count", "8", "--threads", "0"], "at least 1, got 0");
    refuses(&["count", "8", "-j", "x"], "not a number of threads");
    let most = 16 * num_cpus::get();
    refuses(
        &["count", "8", "-j", "100000"],
        &format!("100000 threads are too many: at most 16 per logical core, {most} for the"),
    );
    refuses(&["bench", "-j", "1,100000"], "100000 threads are too many");
    // solve takes one board size: its errors speak of no range.
    refuses(
        &["solve", "..5"],
        "'..5' is not a board size: expected a number from 1 to 32",
    );
    let out = nqueens().args(["solve", "..5"]).assert().code(2);
    assert!(!String::from_utf8_lossy(&out.get_output().stderr).contains("range"));
    refuses(
        &["count", "x..5"],
        "'x' is not a board size: expected a number from 1 to 32 or a range A..B",
    );
    refuses(&["count", "8", "--split-depth", "99"], "0..=10");
    refuses(
        &["estimate", "20", "--seconds", "-1"],
        "-1 seconds is out of range: give 0.1 to 86400",
    );
    refuses(
        &["count", "8", "--frobnicate"],
        "unexpected argument '--frobnicate'",
    );
    refuses(&["count"], "required");
    refuses(&["conut", "8"], "unrecognized subcommand");
    refuses(
        &["count", "8", "--engine", "magic"],
        "invalid value 'magic' for '--engine <NAME>' [possible values: mirror, symmetry, join]",
    );
}

#[test]
fn completions_and_the_manual_page_are_printed() {
    for (shell, marker) in [
        ("bash", "_nqueens()"),
        ("zsh", "#compdef nqueens"),
        ("fish", "complete -c nqueens"),
        ("elvish", "edit:completion:arg-completer[nqueens]"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        nqueens()
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(predicate::str::contains(marker).and(predicate::str::contains("estimate")));
    }
    nqueens()
        .arg("man")
        .assert()
        .success()
        .stdout(predicate::str::contains(".TH nqueens 1").and(predicate::str::contains("count")));
}

/// A manual page per command, each with its options and its examples in an EXAMPLES section
/// that keeps their lines; `--dir` writes them all, and every page the first refers to exists.
#[test]
fn every_command_has_its_manual_page_with_examples_as_written() {
    let out = nqueens().args(["man", "count"]).assert().success();
    let page = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(page.contains(".TH nqueens-count 1"), "{page}");
    assert!(page.contains("\\-\\-checkpoint"), "no options: {page}");
    assert!(!page.contains(".SH EXTRA"), "{page}");
    let examples = page
        .split(".SH EXAMPLES\n.nf\n")
        .nth(1)
        .expect("an EXAMPLES section");
    // Each example and its explanation on one line, as the help lays them out.
    assert!(
        examples
            .lines()
            .any(|l| l.contains("nqueens count 8 ") && l.ends_with("of the 8\\-queens problem")),
        "{examples}"
    );
    let (dir, _) = scratch("pages");
    let out = nqueens()
        .args(["man", "--dir"])
        .arg(dir.path())
        .assert()
        .success();
    let written = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert_eq!(written.lines().count(), 9, "{written}");
    let top = fs::read_to_string(dir.path().join("nqueens.1")).unwrap();
    let named: Vec<&str> = top
        .split("nqueens\\-")
        .skip(1)
        .filter_map(|rest| rest.split_once("(1)").map(|(name, _)| name))
        .collect();
    assert_eq!(named.len(), 8, "{top}");
    for name in named {
        let page = fs::read_to_string(dir.path().join(format!("nqueens-{name}.1"))).unwrap();
        assert!(page.contains(&format!(".TH nqueens-{name} 1")), "{page}");
        assert!(page.contains(".SH OPTIONS"), "{page}");
    }
    nqueens()
        .args(["man", "counting"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("counting"));
    nqueens()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("tcsh"));
}

#[test]
fn memory_sizes_take_every_unit_and_refuse_what_is_not_one() {
    // K, M, G and T are powers of 1024, with or without iB or B; a budget this large is never
    // short, so the count runs with the join engine.
    for size in ["64G", "1T", "1.5T", "4096M", "2GiB", "3GB", "268435456"] {
        let out = nqueens()
            .args([
                "count", "15", "--engine", "join", "-j", "1", "--json", "--memory", size,
            ])
            .assert()
            .success();
        let v: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(
            (v["engine"].as_str(), v["verified"].as_bool()),
            (Some("join"), Some(true)),
            "{size}"
        );
    }
    for (size, message) in [
        ("1K", "'1K' is too small: at least 1 MiB"),
        ("1048575", "is too small: at least 1 MiB"),
        ("0", "'0' is too small"),
        ("4X", "'4X' is not a memory size"),
        ("G", "'G' is not a memory size"),
        ("lots", "'lots' is not a memory size"),
        ("99999999T", "is not a memory size"),
    ] {
        refuses(&["count", "15", "--memory", size], message);
        refuses(&["estimate", "15", "--memory", size], message);
    }
}

/// Refusals say what is wrong in plain words: a directory is a directory, a value out of range
/// is out of range, a file given twice is named, and a FIFO is refused before it is opened
/// (opening one with no writer would wait forever).
#[test]
fn refusals_name_the_problem_plainly() {
    let dir = tempfile::tempdir().unwrap();
    nqueens()
        .args(["count", "10", "--checkpoint"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stderr(predicates::str::contains("it is a directory"));
    // A decomposition the board does not have is a bad command line, as README says: 2.
    nqueens()
        .args(["count", "17", "--decomposition", "quarter-turn"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "error: n = 17 has no quarter-turn decomposition",
        ));
    nqueens()
        .args(["estimate", "10", "--seconds", "1e9"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("1e9 seconds is out of range"));
    let shard = dir.path().join("s1.json");
    nqueens()
        .args(["count", "10", "--shard", "1/2", "-o"])
        .arg(&shard)
        .assert()
        .success();
    nqueens()
        .args(["merge", "--quorum", "2"])
        .arg(dir.path())
        .arg(dir.path())
        .assert()
        .code(1)
        .stderr(predicates::str::contains("the same file is given twice"));
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    nqueens()
        .arg("merge")
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "not a file of shard results (a FIFO)",
        ));
}

/// A subcommand's errors show that subcommand's usage; no message names the program's own
/// temporary files; help is wrapped to the terminal's width.
#[test]
fn errors_and_help_speak_to_the_command_at_hand() {
    for args in [
        &["count", "10", "--shard", "auto"][..],
        &["count", "8..16", "--checkpoint", "a.ckpt"][..],
    ] {
        let mut cmd = nqueens();
        for var in crate::shard::LAUNCHER_VARS {
            cmd.env_remove(var);
        }
        cmd.args(args)
            .assert()
            .code(2)
            .stderr(predicates::str::contains("Usage: nqueens count [OPTIONS]"));
    }
    let out = nqueens()
        .args(["count", "10", "--shard", "1/2", "-o", "/proc/x.json"])
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("cannot write /proc/x.json") && !stderr.contains("nqueens-probe"),
        "{stderr}"
    );
    // On a terminal 60 columns wide (`script` gives one), no help line is wider.
    let shown = std::process::Command::new("script")
        .args([
            "-qc",
            &format!("'{}' count --help", crate::util::binary().display()),
        ])
        .arg("/dev/null")
        .env("COLUMNS", "60")
        .output();
    if let Some(shown) = shown.ok().filter(|o| o.status.success()) {
        let text = String::from_utf8_lossy(&shown.stdout).replace('\r', "");
        assert!(text.contains("Usage: nqueens count"), "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 60), "{text}");
    }
}

/// `nqueens man count` on a terminal shows the page formatted (by `man`, or, where it is
/// missing, the roff with a note saying so), never raw roff alone; into a pipe it is roff.
#[test]
fn a_manual_page_on_a_terminal_is_formatted() {
    let piped = nqueens().args(["man", "count"]).assert().success();
    let roff = String::from_utf8_lossy(&piped.get_output().stdout).to_string();
    assert!(roff.contains(".SH EXAMPLES"), "{roff}");
    let dir = tempfile::tempdir().unwrap();
    let typescript = dir.path().join("typescript");
    let inner = format!(
        "MANPAGER=cat PAGER=cat '{}' man count",
        crate::util::binary().display()
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &inner])
        .arg(&typescript)
        .output()
        .expect("script (util-linux) runs");
    let screen = std::fs::read_to_string(&typescript).unwrap_or_default();
    assert!(out.status.success(), "{screen}");
    let has_man = std::process::Command::new("man")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if has_man {
        // man's own layout (bold by overstrike, on a terminal).
        assert!(screen.contains("General Commands Manual"), "{screen}");
        assert!(!screen.contains(".SH "), "raw roff on a terminal: {screen}");
    } else {
        assert!(
            screen.contains("note: `man` could not show the page"),
            "{screen}"
        );
    }
}
