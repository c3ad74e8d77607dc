//! `nqueens bench` as a user meets it: a short run, every export file, and a wrong count failing.

use predicates::prelude::*;
use serde_json::Value;

use crate::cli::refuses;
use crate::util::{nqueens, scratch};

/// `nqueens bench` of n = 8 at 1 and 2 threads, `runs` timed runs, no warm-up.
fn short_bench(runs: u32) -> assert_cmd::Command {
    let mut cmd = nqueens();
    cmd.args(["bench", "--n", "8", "--threads", "2", "--warmup", "0"])
        .args(["--runs", &runs.to_string()]);
    cmd
}

#[test]
fn a_short_bench_writes_every_export() {
    let (_guard, dir) = scratch("bench-exports");
    std::fs::create_dir(&dir).unwrap();
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    short_bench(2)
        .args([
            "--export-json",
            &file("b.json"),
            "--export-csv",
            &file("b.csv"),
        ])
        .args(["--export-markdown", &file("b.md"), "--plot", &file("b.svg")])
        .assert()
        .success()
        // n = 8 takes microseconds: the table is start-up, and says so.
        .stderr(predicate::str::starts_with(
            "warning: the 2-thread runs took 0.0",
        ))
        .stdout(predicate::str::contains("n = 8 (given), expected total 92"))
        .stdout(predicate::str::contains("cpu "))
        .stdout(predicate::str::contains("dispatch backtrack "))
        .stdout(predicate::str::contains("speedup"));

    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(file("b.json")).unwrap()).unwrap();
    for key in [
        "cpu",
        "logical_cores",
        "physical_cores",
        "os",
        "nqueens_version",
        "git_commit",
        "build_profile",
        "target_features",
        "dispatch",
        "load_average",
    ] {
        assert!(!json["machine"][key].is_null(), "machine.{key}");
    }
    assert_eq!(
        json["machine"]["nqueens_version"],
        env!("CARGO_PKG_VERSION")
    );
    assert_eq!(
        (json["n"].clone(), json["runs"].clone()),
        (8.into(), 2.into())
    );
    assert_eq!(json["expected_total"], 92);
    assert!(json["calibration"].is_null());
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for (r, threads) in results.iter().zip([1, 2]) {
        assert_eq!(r["threads"], threads);
        assert_eq!(
            (r["total"].clone(), r["verified"].clone()),
            (92.into(), true.into())
        );
        assert_eq!(r["times_seconds"].as_array().unwrap().len(), 2);
        let (min, median, max) = (
            r["min_seconds"].as_f64().unwrap(),
            r["median_seconds"].as_f64().unwrap(),
            r["max_seconds"].as_f64().unwrap(),
        );
        assert!(0.0 < min && min <= median && median <= max);
        for key in [
            "speedup",
            "efficiency",
            "nodes_per_second",
            "subproblems_per_second",
        ] {
            assert!(r[key].as_f64().unwrap() > 0.0, "{key}");
        }
        assert!(r["nodes"].as_u64().unwrap() > 92);
    }
    assert_eq!(results[0]["speedup"], 1.0);

    let csv = std::fs::read_to_string(file("b.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("n,engine,threads,runs,min_seconds,median_seconds,max_seconds"));
    assert!(lines[1].starts_with("8,symmetry,1,2,") && lines[2].starts_with("8,symmetry,2,2,"));
    assert!(lines[1..].iter().all(|l| l.ends_with(",92,true")));

    let md = std::fs::read_to_string(file("b.md")).unwrap();
    assert!(md.contains("| threads | min [s] | median [s] |"));
    assert_eq!(md.lines().filter(|l| l.starts_with("| ")).count(), 4);

    let svg = std::fs::read_to_string(file("b.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("the plot is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    // The legends as the program writes them (bench/export/svg.rs).
    for legend in ["measured speedup", "ideal (linear)", "threads"] {
        assert!(texts.contains(&legend), "{legend} in {texts:?}");
    }
    // The measured series: one blue line through both thread counts, and a dot on each.
    let blue = |tag: &str| {
        doc.descendants()
            .filter(|n| n.has_tag_name(tag))
            .filter(|n| [n.attribute("stroke"), n.attribute("fill")].contains(&Some("#0000FF")))
            .count()
    };
    assert!(blue("polyline") >= 1);
    assert_eq!(blue("circle"), 2);
}

#[test]
fn a_wrong_known_value_makes_bench_fail() {
    let (_guard, dir) = scratch("bench-wrong");
    std::fs::create_dir(&dir).unwrap();
    let json = dir.join("b.json");
    let out = short_bench(1)
        .env("NQUEENS_TEST_EXPECTED_TOTAL", "93")
        .args(["--export-json"])
        .arg(&json)
        .assert()
        .code(1);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "error: WRONG COUNT: n = 8 counted 92 on 1 thread, but the expected total is 93; \
         a wrong result is no benchmark"
    );
    // The export was written at the start and holds no result: nothing wrong is exported.
    let json: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    assert_eq!(
        (json["n"].clone(), json["results"].clone()),
        (8.into(), Value::Array(vec![]))
    );
}

#[test]
fn an_export_that_cannot_be_written_fails_before_the_runs() {
    let (_guard, dir) = scratch("bench-missing");
    std::fs::create_dir(&dir).unwrap();
    let missing = dir.join("no/such/dir/b.csv");
    // Without --n the calibration would count first: the path is checked before it too, so
    // nothing is measured or printed.
    nqueens()
        .args(["bench", "--export-markdown"])
        .arg(&missing)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicates::str::contains("no/such/dir/b.csv"));
    let out = short_bench(1)
        .arg("--export-csv")
        .arg(&missing)
        .assert()
        .code(1);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("cannot write") && stderr.contains("no/such/dir/b.csv"),
        "{stderr}"
    );
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        !stdout.contains("threads  min"),
        "no table after a failed export: {stdout}"
    );
}

#[test]
fn bench_refuses_bad_options_with_one_line() {
    refuses(&["bench", "--n", "28"], "no published count for n = 28");
    refuses(&["bench", "--n", "0"], "n must be between 1 and 32, got 0");
    refuses(&["bench", "--threads", "2,0"], "at least 1, got 0");
    refuses(&["bench", "--runs", "0"], "0 is not in 1..=1000");
    refuses(
        &["bench", "--engine", "magic"],
        "invalid value 'magic' for '--engine <NAME>' [possible values: mirror, symmetry, join]",
    );
}
