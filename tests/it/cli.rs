//! The command line as a user meets it: outputs, JSON, and every kind of bad input.

use predicates::prelude::*;
use serde_json::Value;

use crate::util::nqueens;

#[test]
fn count_prints_total_time_threads_subproblems_and_verdict() {
    nqueens()
        .args(["count", "8", "-j", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("92"))
        .stdout(predicate::str::contains("yes"))
        .stdout(predicate::str::contains("seconds"))
        .stdout(predicate::str::contains("threads"))
        .stdout(predicate::str::contains("subproblems"));
}

#[test]
fn a_range_prints_one_row_per_n() {
    let out = nqueens().args(["count", "4..9"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 6);
    for (row, (n, total)) in rows
        .iter()
        .zip([(4, 2), (5, 10), (6, 4), (7, 40), (8, 92), (9, 352)])
    {
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells[0], n.to_string());
        assert_eq!(cells[1], total.to_string());
        assert_eq!(cells[2], "yes");
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
    nqueens()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::contains(env!("CARGO_PKG_VERSION")));
}

/// Each bad command line: exit 2, one line on stderr naming the problem, no panic.
pub fn refuses(args: &[&str], message: &str) {
    let out = nqueens().args(args).assert().code(2).stdout("");
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(message), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked") && !stderr.contains("backtrace"));
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
    refuses(&["count", "8", "--split-depth", "99"], "0..=10");
    refuses(
        &["count", "8", "--frobnicate"],
        "unexpected argument '--frobnicate'",
    );
    refuses(&["count"], "required");
    refuses(&["conut", "8"], "unrecognized subcommand");
    refuses(
        &["count", "8", "--engine", "magic"],
        "unknown engine 'magic'",
    );
}
