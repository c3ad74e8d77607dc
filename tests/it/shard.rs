//! Shards and merge from the command line: the merged count equals the table, every refusal says
//! what is wrong, `--shard auto` reads each launcher, and a real scheduler (GNU parallel) runs them.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command as Process;

use nqueens::cluster::{self as merge, Input};
use nqueens::cluster::{self, Shard};
use nqueens::exec::Unobserved;
use nqueens::{known, Options};
use proptest::prelude::*;
use serde_json::Value;
use tempfile::TempDir;

use crate::util::nqueens;

/// Every variable `--shard auto` looks at, cleared so the test's own environment cannot leak in.
pub(crate) const LAUNCHER_VARS: [&str; 25] = [
    "SLURM_STEP_ID",
    "SLURM_STEPID",
    "SLURM_CPUS_PER_TASK",
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_PROCID",
    "SLURM_NTASKS",
    "OMPI_COMM_WORLD_RANK",
    "OMPI_COMM_WORLD_SIZE",
    "PMI_RANK",
    "PMI_SIZE",
    "SGE_TASK_ID",
    "SGE_TASK_FIRST",
    "SGE_TASK_LAST",
    "SGE_TASK_STEPSIZE",
    "LSB_JOBINDEX",
    "LSB_JOBINDEX_END",
    "LSB_JOBINDEX_STEP",
    "PBS_ARRAY_INDEX",
    "AWS_BATCH_JOB_ARRAY_INDEX",
    "AWS_BATCH_JOB_ARRAY_SIZE",
    "JOB_COMPLETION_INDEX",
];

/// Runs `count n --shard i/k` for every i, each into `dir/s<i>.json`, and returns the files.
fn run_shards(dir: &Path, n: u32, k: u32, extra: &[&str]) -> Vec<PathBuf> {
    fs::create_dir_all(dir).unwrap();
    (1..=k)
        .map(|i| {
            let file = dir.join(format!("s{i}.json"));
            let out = nqueens()
                .args(["count", &n.to_string(), "--shard", &format!("{i}/{k}")])
                .args(["-j", "1", "-o"])
                .arg(&file)
                .args(extra)
                .assert()
                .success()
                .stdout("");
            // The line's times are the file's, of the search; the plan's build is said apart,
            // so that K × one shard is not taken for the count's time.
            let said = String::from_utf8_lossy(&out.get_output().stderr).to_string();
            assert!(
                said.contains(" s of search with -j 1 on ")
                    && said.contains(" s building the plan, not in the result's times)"),
                "{said}"
            );
            file
        })
        .collect()
}

/// `merge --json` of `files`: the report object.
fn merged(files: &[PathBuf]) -> Value {
    let out = nqueens()
        .args(["merge", "--json"])
        .args(files)
        .assert()
        .success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

fn read(file: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap()
}

fn write(file: &Path, v: &Value) {
    fs::write(file, serde_json::to_string_pretty(v).unwrap()).unwrap();
}

/// Makes the checksum of an edited result match its fields again: a forgery, to reach the
/// checks behind the checksum.
fn reseal(v: &mut Value) {
    let r: cluster::PartialResult = serde_json::from_value(v.clone()).unwrap();
    v["checksum"] = r.expected_checksum().into();
}

#[test]
fn merged_shards_equal_the_table_for_any_number_of_shards() {
    // K = 1, K = 7, and K larger than the plan (n = 6 has fewer than 50 subproblems).
    for (n, k) in [(1, 1), (4, 3), (8, 1), (10, 7), (12, 7), (13, 3), (6, 50)] {
        let dir = TempDir::new().unwrap();
        let files = run_shards(dir.path(), n, k, &[]);
        let report = merged(&files);
        let expected = nqueens::known::known(n).unwrap().total;
        assert_eq!(
            report["total"].as_u64().unwrap() as u128,
            expected,
            "n = {n}, K = {k}"
        );
        assert_eq!(report["verified"], true);
        let parts: Vec<Value> = files.iter().map(|f| read(f)).collect();
        let sum: usize = parts
            .iter()
            .map(|p| p["subproblems"].as_u64().unwrap() as usize)
            .sum();
        assert_eq!(sum as u64, report["subproblems"].as_u64().unwrap());
        if k == 50 {
            assert!(parts
                .iter()
                .any(|p| p["subproblems"] == 0 && p["total"] == "0"));
        }
    }
}

#[test]
fn every_engine_shards_and_merges_to_the_table() {
    for engine in nqueens::Engine::ALL {
        let dir = TempDir::new().unwrap();
        let files = run_shards(dir.path(), 15, 3, &["--engine", engine.name()]);
        let report = merged(&files);
        assert_eq!(report["total"], 2_279_184, "{engine}");
        assert_eq!(report["unique"], 285_053, "{engine}");
        assert_eq!(report["engine"], engine.name());
    }
}

#[test]
fn a_partial_result_carries_the_documented_fields() {
    let out = nqueens()
        .args(["count", "11", "--shard", "2/3", "-j", "2"])
        .assert()
        .success();
    let p: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(p["format"], "nqueens-shard");
    assert_eq!(p["format_version"], 5);
    // The machine's identity, where the system has one (Linux: its boot id at least).
    if std::path::Path::new("/proc/sys/kernel/random/boot_id").exists() {
        assert!(p["machine"].as_str().unwrap().contains("boot-id:"), "{p}");
    }
    assert_eq!(p["program_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(p["n"], 11);
    assert_eq!(p["engine"], nqueens::Engine::fastest(11).name());
    assert!(p["split_depth"].as_u64().is_some());
    assert!(p["plan_subproblems"].as_u64().unwrap() >= p["subproblems"].as_u64().unwrap());
    assert_eq!(
        (p["shard"].clone(), p["shards"].clone()),
        (2.into(), 3.into())
    );
    assert!(p["ids_digest"].as_str().unwrap().starts_with("fnv1a64:"));
    assert!(p["total"].as_str().unwrap().parse::<u128>().is_ok());
    assert!(p["elapsed_seconds"].as_f64().unwrap() >= 0.0);
    assert!(p["cpu_seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(p["threads"], 2);
    assert!(!p["host"].as_str().unwrap().is_empty());
    let plan = p["plan"].as_str().unwrap();
    assert!(plan.len() == 8 && plan.chars().all(|c| c.is_ascii_hexdigit()));
    let checksum = p["checksum"].as_str().unwrap();
    assert!(checksum.starts_with("crc32:") && checksum.len() == 14);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("shard 2/3 of n = 11"), "{stderr}");
    // `-o -` is stdout too.
    let dash = nqueens()
        .args(["count", "11", "--shard", "2/3", "-j", "2", "-o", "-"])
        .assert()
        .success();
    let q: Value = serde_json::from_slice(&dash.get_output().stdout).unwrap();
    assert_eq!(
        (q["total"].clone(), q["ids_digest"].clone()),
        (p["total"].clone(), p["ids_digest"].clone())
    );
}

#[test]
fn the_plan_is_the_same_whatever_the_threads_and_split_depth_is_honoured() {
    let dir = TempDir::new().unwrap();
    let a = nqueens()
        .args(["count", "12", "--shard", "1/4", "-j", "1"])
        .assert()
        .success();
    let b = nqueens()
        .args(["count", "12", "--shard", "1/4", "-j", "3"])
        .assert()
        .success();
    let (a, b): (Value, Value) = (
        serde_json::from_slice(&a.get_output().stdout).unwrap(),
        serde_json::from_slice(&b.get_output().stdout).unwrap(),
    );
    for field in [
        "split_depth",
        "plan_subproblems",
        "subproblems",
        "ids_digest",
        "total",
    ] {
        assert_eq!(a[field], b[field], "{field}");
    }
    let files = run_shards(dir.path(), 12, 4, &["--split-depth", "2"]);
    assert_eq!(read(&files[0])["split_depth"], 2);
    assert_eq!(merged(&files)["total"], 14200);
}

/// `merge` refuses: exit 1, nothing on stdout, one line on stderr holding every `needle`.
fn refuses(files: &[PathBuf], needles: &[&str]) {
    let out = nqueens()
        .arg("merge")
        .args(files)
        .assert()
        .code(1)
        .stdout("");
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "{needle:?} not in: {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn merge_refuses_missing_shards() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 9, 4, &[]);
    refuses(
        &[files[0].clone(), files[2].clone()],
        &[
            "missing 2 shards of 4: 2, 4",
            "s1.json (shard 1)",
            "s3.json (shard 3)",
        ],
    );
}

#[test]
fn merge_refuses_two_different_results_for_one_shard_and_warns_of_identical_ones() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 9, 3, &[]);
    let copy = dir.path().join("copy.json");
    fs::copy(&files[1], &copy).unwrap();
    let mut all = files.clone();
    all.push(copy.clone());
    let out = nqueens().arg("merge").args(&all).assert().success();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("warning: shard 2/3 is given 2 times with the same total"),
        "{stderr}"
    );
    assert!(
        stderr.contains("s2.json") && stderr.contains("copy.json"),
        "{stderr}"
    );
    let rows = crate::util::table(&String::from_utf8_lossy(&out.get_output().stdout));
    assert_eq!(
        (rows[0]["total"].as_str(), rows[0]["verified"].as_str()),
        ("352", "yes")
    );

    let mut v = read(&copy);
    let total: u128 = v["total"].as_str().unwrap().parse().unwrap();
    v["total"] = (total + 2).to_string().into();
    reseal(&mut v);
    write(&copy, &v);
    refuses(
        &all,
        &[
            "shard 2/3 has different totals",
            &format!("{total} in {}", files[1].display()),
            &format!("{} in {}", total + 2, copy.display()),
        ],
    );
}

#[test]
fn merge_refuses_results_of_different_runs() {
    let dir = TempDir::new().unwrap();
    let sub = |name: &str| {
        let d = dir.path().join(name);
        fs::create_dir(&d).unwrap();
        d
    };
    let n9 = run_shards(&sub("n9"), 9, 2, &[]);
    let n10 = run_shards(&sub("n10"), 10, 2, &[]);
    refuses(
        &[n9[0].clone(), n10[1].clone()],
        &["mixed n", "9 in", "n9/s1.json", "10 in", "n10/s2.json"],
    );

    let k3 = run_shards(&sub("k3"), 9, 3, &[]);
    refuses(
        &[n9[0].clone(), k3[1].clone()],
        &["mixed number of shards K", "2 in", "3 in"],
    );

    let mirror = ["--engine", "mirror"];
    let d3 = run_shards(
        &sub("d3"),
        9,
        2,
        &[&mirror[..], &["--split-depth", "3"]].concat(),
    );
    let d2 = run_shards(
        &sub("d2"),
        9,
        2,
        &[&mirror[..], &["--split-depth", "2"]].concat(),
    );
    refuses(
        &[d3[0].clone(), d2[1].clone()],
        &["mixed split depth", "d3/s1.json", "d2/s2.json"],
    );

    let mut v = read(&d2[1]);
    v["engine"] = "symmetry".into();
    write(&d2[1], &v);
    refuses(
        &[d2[0].clone(), d2[1].clone()],
        &["mixed engine: mirror in", "symmetry in"],
    );

    v["engine"] = "mirror".into();
    v["format_version"] = 6.into();
    write(&d2[1], &v);
    refuses(
        &[d2[0].clone(), d2[1].clone()],
        &["s2.json has format version 6; this nqueens reads versions 2, 3, 4 and 5"],
    );
    // A shard of the same run as version 2 wrote it (no CPU time) merges with version 3 ones.
    let text = fs::read_to_string(&d2[0]).unwrap();
    let old = resealed(&text, |v| {
        v["format_version"] = 2.into();
        v.as_object_mut().unwrap().remove("cpu_seconds");
    });
    let v2 = dir.path().join("d2").join("v2.json");
    fs::write(&v2, old).unwrap();
    let again = run_shards(
        &sub("d2-again"),
        9,
        2,
        &[&mirror[..], &["--split-depth", "2"]].concat(),
    );
    let report = merged(&[v2, again[1].clone()]);
    assert_eq!(report["total"], 352);
}

#[test]
fn merge_refuses_malformed_truncated_and_foreign_files() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 9, 2, &[]);
    let text = fs::read_to_string(&files[1]).unwrap();
    let bad = |name: &str, contents: &str| {
        let f = dir.path().join(name);
        fs::write(&f, contents).unwrap();
        vec![files[0].clone(), f]
    };
    refuses(
        &bad("cut.json", &text[..text.len() / 2]),
        &["cut.json is truncated"],
    );
    refuses(&bad("empty.json", ""), &["empty.json is empty"]);
    refuses(&bad("junk.json", "hello"), &["junk.json is not valid JSON"]);
    refuses(
        &bad("report.json", r#"{"n":9,"total":352}"#),
        &["report.json is not an nqueens shard result"],
    );
    refuses(
        &bad("short.json", &text.replace("\"total\"", "\"sum\"")),
        &["short.json is not a complete shard result: missing field `total`"],
    );
    let mut v = read(&files[1]);
    v["ids_digest"] = "fnv1a64:0000000000000000".into();
    refuses(
        &bad("edited.json", &v.to_string()),
        &["edited.json: its checksum does not match its contents"],
    );
    reseal(&mut v);
    refuses(
        &bad("foreign.json", &v.to_string()),
        &["foreign.json: shard 2/2 has", "but this program gives it"],
    );
    // A plan of the same size but another fingerprint: beside this program's shards it is
    // another run; alone (every shard of it) it is not this program's plan.
    v = read(&files[1]);
    v["plan"] = "00000000".into();
    reseal(&mut v);
    let other_plan = bad("other-plan.json", &v.to_string());
    refuses(
        &other_plan,
        &["mixed plan fingerprint: 00000000 in", "other-plan.json"],
    );
    let first_text = fs::read_to_string(&files[0]).unwrap();
    let mut first = read(&files[0]);
    first["plan"] = "00000000".into();
    reseal(&mut first);
    fs::write(&other_plan[0], first.to_string()).unwrap();
    refuses(
        &other_plan,
        &[": its plan", "fingerprint 00000000) is not this program's"],
    );
    fs::write(&files[0], first_text).unwrap();
    v = read(&files[1]);
    v["shard"] = 3.into();
    reseal(&mut v);
    refuses(
        &bad("three.json", &v.to_string()),
        &["three.json: shard 3/2 does not exist"],
    );
    refuses(
        &[files[0].clone(), dir.path().join("absent.json")],
        &["cannot read", "absent.json"],
    );
}

#[test]
fn output_names_may_hold_the_shard_and_links_and_devices_are_written_through() {
    let dir = TempDir::new().unwrap();
    // What srun or mpirun would start: one command line, a file per shard.
    for rank in 0..3 {
        nqueens()
            .current_dir(dir.path())
            .args(["count", "9", "--shard", "auto", "-j", "1"])
            .args(["-o", "n9-{shard}-of-{shards}.json"])
            .envs([
                ("SLURM_PROCID", rank.to_string()),
                ("SLURM_NTASKS", "3".to_string()),
                ("SLURM_STEP_ID", "0".to_string()),
            ])
            .assert()
            .success();
    }
    let files: Vec<PathBuf> = (1..=3)
        .map(|i| dir.path().join(format!("n9-{i}-of-3.json")))
        .collect();
    assert_eq!(merged(&files)["total"], 352);

    // A link is written through and stays a link; the new file gets the umask's mode.
    use std::os::unix::fs::{symlink, PermissionsExt};
    let link = dir.path().join("latest.json");
    symlink("n9-1-of-3.json", &link).unwrap();
    let before = fs::metadata(&files[0]).unwrap().permissions().mode();
    nqueens()
        .args(["count", "9", "--shard", "1/3", "-j", "1", "-o"])
        .arg(&link)
        .assert()
        .success();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        fs::metadata(&files[0]).unwrap().permissions().mode(),
        before
    );
    assert_ne!(
        before & 0o777,
        0o600,
        "the temporary file's mode leaked out"
    );
}

/// A shard's plan is sized for the whole run (4 × K virtual workers) but built on the shard's own
/// `-j` threads: 1000 shards once started 4000 threads to build the join tables, whose stacks
/// alone pass a 2 GiB address-space limit.
#[test]
fn a_shard_builds_its_plan_on_its_own_threads() {
    let out = crate::util::under_ulimit(2 << 20, "count 16 --shard 1/1000 -j 1");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let shard: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (shard["engine"].clone(), shard["shards"].clone()),
        ("join".into(), 1000.into())
    );
}

#[test]
fn merge_reads_no_device_and_no_huge_file() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 9, 2, &[]);
    refuses(
        &[files[0].clone(), PathBuf::from("/dev/zero")],
        &["cannot read /dev/zero: it is not a file of shard results"],
    );
    let huge = dir.path().join("huge.json");
    let file = fs::File::create(&huge).unwrap();
    file.set_len(merge::MAX_INPUT_BYTES + 1).unwrap();
    refuses(
        &[files[0].clone(), huge],
        &["huge.json: it holds more than 64 MiB"],
    );
}

#[test]
fn a_wrong_total_is_caught_by_the_checksum_and_a_forged_one_by_the_table() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 10, 2, &[]);
    let mut v = read(&files[0]);
    let total: u128 = v["total"].as_str().unwrap().parse().unwrap();
    v["total"] = (total + 2).to_string().into();
    write(&files[0], &v);
    refuses(
        &files,
        &["s1.json: its checksum does not match its contents"],
    );
    // A forged file, checksum and all, is still caught by the table.
    reseal(&mut v);
    write(&files[0], &v);
    nqueens()
        .arg("merge")
        .args(&files)
        .assert()
        .code(1)
        .stdout(predicates::str::contains("NO (expected 724 / 92)"))
        .stderr(predicates::str::contains(
            "error: the merged total of n = 10 is 726, not the published 724",
        ));
}

/// Shard files, merge's table and its JSON say how the count was made: the plan's fingerprint
/// and, on an even board, its decomposition; the table's seconds are the shards' summed.
#[test]
fn merged_results_name_their_plan_and_decomposition() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 16, 2, &[]);
    let shard = read(&files[0]);
    assert_eq!(shard["decomposition"], "whole");
    assert_eq!(shard["format_version"], 5);
    let report = merged(&files);
    assert_eq!(
        (&report["plan"], &report["decomposition"]),
        (&shard["plan"], &shard["decomposition"])
    );
    let out = nqueens().arg("merge").args(&files).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        text.lines().next().unwrap().contains("shard_secs"),
        "{text}"
    );
    let plan = shard["plan"].as_str().unwrap();
    assert!(
        text.contains(&format!(
            "# n = 16: 2 shards of plan {plan}, decomposition whole"
        )),
        "{text}"
    );
    // An odd board has one decomposition, and says none.
    let odd = run_shards(&dir.path().join("odd"), 15, 2, &[]);
    assert!(read(&odd[0]).get("decomposition").is_none());
}

/// The decompositions' campaigns of one board, merged together, give every total and say
/// whether they agree; shards of two mixed in one set are still refused.
#[test]
fn a_count_confirmed_by_the_other_decompositions_merges_as_each() {
    let dir = TempDir::new().unwrap();
    let whole = run_shards(&dir.path().join("whole"), 16, 2, &[]);
    let turn = run_shards(
        &dir.path().join("turn"),
        16,
        3,
        &["--decomposition", "quarter-turn"],
    );
    let inner = run_shards(
        &dir.path().join("inner"),
        16,
        2,
        &["--decomposition", "innermost"],
    );
    let all = [whole.clone(), turn.clone(), inner.clone()].concat();
    let out = nqueens()
        .args(["merge", "--json"])
        .args(&all)
        .assert()
        .success();
    let out = out.get_output();
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let names: Vec<&str> = (lines.iter())
        .map(|l| l["decomposition"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["whole", "quarter-turn", "innermost"]);
    for line in &lines {
        assert_eq!(
            (line["total"].as_u64(), &line["confirmed"]),
            (Some(14_772_512), &true.into())
        );
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "confirmed: the whole, quarter-turn and innermost decompositions give the same total"
        ),
        "{stderr}"
    );
    // Two of them: the message of two.
    let out = nqueens()
        .arg("merge")
        .args([whole.clone(), turn.clone()].concat())
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("confirmed: the whole and quarter-turn decompositions give the same total"),
        "{stderr}"
    );
    refuses(
        &[whole[0].clone(), turn[1].clone(), turn[2].clone()],
        &["cannot merge results of different runs: mixed"],
    );
    refuses(
        &[inner[0].clone(), turn[1].clone(), turn[2].clone()],
        &["cannot merge results of different runs: mixed"],
    );
}

/// Two shards given one output path: the second is refused before it counts when the first's
/// result is there, and when both finish together neither result is lost (the one not written
/// goes to stderr, with an error).
#[test]
fn two_shards_on_one_output_path_never_lose_a_result_in_silence() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("s.json");
    let count = |shard: &str| {
        crate::util::process()
            .args(["count", "13", "--shard", shard, "-q", "-o"])
            .arg(&out)
            .output()
            .unwrap()
    };
    assert!(count("1/2").status.success());
    let second = count("2/2");
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("it holds the result of shard 1/2 of n = 13"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("here it is"),
        "it counted before refusing: {stderr}"
    );
    assert_eq!(read(&out)["shard"], 1);
    // The same shard again replaces its own result.
    assert!(count("1/2").status.success());
    // Together: whatever the order, each result is in the file or on stderr.
    fs::remove_file(&out).unwrap();
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| count("1/2"));
        let b = s.spawn(|| count("2/2"));
        (a.join().unwrap(), b.join().unwrap())
    });
    let kept = read(&out)["shard"].as_u64().unwrap();
    let other = if kept == 1 { &b } else { &a };
    let said = String::from_utf8_lossy(&other.stderr);
    assert_eq!(other.status.code(), Some(1), "{said}");
    assert!(said.contains("error: cannot write"), "{said}");
}

/// `count 10 --shard auto` with `vars` set: the shard it wrote, as `(I, K)`.
fn auto(vars: &[(&str, &str)]) -> (u64, u64) {
    let mut cmd = nqueens();
    for var in LAUNCHER_VARS {
        cmd.env_remove(var);
    }
    let out = cmd
        .args(["count", "10", "--shard", "auto", "-j", "1"])
        .envs(vars.iter().copied())
        .assert()
        .success();
    let p: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    (p["shard"].as_u64().unwrap(), p["shards"].as_u64().unwrap())
}

#[test]
fn shard_auto_reads_each_launcher() {
    let array = [
        ("SLURM_ARRAY_TASK_ID", "0"),
        ("SLURM_ARRAY_TASK_MIN", "0"),
        ("SLURM_ARRAY_TASK_MAX", "3"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ];
    assert_eq!(auto(&array), (1, 4));
    let counted = [
        ("SLURM_ARRAY_TASK_ID", "7"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "8"),
    ];
    assert_eq!(auto(&counted), (7, 8));
    assert_eq!(
        auto(&[
            ("SLURM_PROCID", "2"),
            ("SLURM_NTASKS", "5"),
            ("SLURM_STEP_ID", "0")
        ]),
        (3, 5)
    );
    assert_eq!(
        auto(&[("OMPI_COMM_WORLD_RANK", "1"), ("OMPI_COMM_WORLD_SIZE", "2")]),
        (2, 2)
    );
    assert_eq!(auto(&[("PMI_RANK", "0"), ("PMI_SIZE", "3")]), (1, 3));
}

#[test]
fn bad_shard_command_lines_get_a_clear_error_and_status_2() {
    let refuse = |args: &[&str], vars: &[(&str, &str)], message: &str| {
        let mut cmd = nqueens();
        for var in LAUNCHER_VARS {
            cmd.env_remove(var);
        }
        let out = cmd
            .args(args)
            .envs(vars.iter().copied())
            .assert()
            .code(2)
            .stdout("");
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        crate::cli::is_short_usage_error(&stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    };
    refuse(
        &["count", "9", "--shard", "auto"],
        &[],
        "--shard auto: no launcher found",
    );
    refuse(
        &["count", "9", "--shard", "auto"],
        &[("PMI_RANK", "1")],
        "PMI_RANK is set but PMI_SIZE is not",
    );
    // `sbatch -n 2 --wrap 'nqueens count 9 --shard auto'`: the batch script runs once.
    refuse(
        &["count", "9", "--shard", "auto"],
        &[("SLURM_PROCID", "0"), ("SLURM_NTASKS", "2")],
        "this is the batch script of a Slurm job of 2 tasks",
    );
    refuse(
        &["count", "9", "--shard", "0/4"],
        &[],
        "numbered from 1 to 4",
    );
    refuse(
        &["count", "9", "--shard", "5/4"],
        &[],
        "shard 5/4 does not exist",
    );
    refuse(&["count", "9", "--shard", "four"], &[], "write I/K");
    refuse(
        &["count", "8..9", "--shard", "1/2"],
        &[],
        "--shard counts one board size",
    );
    refuse(
        &["count", "9", "--shard", "1/2", "--json"],
        &[],
        "cannot be used with",
    );
    refuse(&["count", "9", "-o", "x.json"], &[], "--shard");
    refuse(&["merge"], &[], "required");
}

/// GNU parallel, or `None` (with a notice) where it is absent outside CI.
fn gnu_parallel() -> Option<&'static str> {
    let version = Process::new("parallel").arg("--version").output();
    match version {
        Ok(out) if String::from_utf8_lossy(&out.stdout).contains("GNU parallel") => {
            Some("parallel")
        }
        _ if std::env::var_os("CI").is_some() => {
            panic!("GNU parallel is needed in CI (.ci/run installs the apt package 'parallel')")
        }
        _ => {
            eprintln!("notice: GNU parallel is not installed; skipping the scheduler test");
            None
        }
    }
}

#[test]
fn gnu_parallel_runs_the_shards_and_merge_sums_them() {
    let Some(parallel) = gnu_parallel() else {
        return;
    };
    let bin = crate::util::binary();
    let dir = TempDir::new().unwrap();
    // One file per shard, as in the README.
    let status = Process::new(parallel)
        .args(["-j", "2", "--halt", "now,fail=1"])
        .arg(&bin)
        .args(["count", "14", "--shard", "{}/6", "-j", "1", "-o"])
        .arg(dir.path().join("s{}.json"))
        .args([":::", "1", "2", "3", "4", "5", "6"])
        .output()
        .unwrap();
    // Each shard's summary line goes to the captured stderr, not the test log.
    assert!(status.status.success(), "{status:?}");
    assert_eq!(String::from_utf8_lossy(&status.stderr).lines().count(), 6);
    let files: Vec<PathBuf> = (1..=6)
        .map(|i| dir.path().join(format!("s{i}.json")))
        .collect();
    assert_eq!(merged(&files)["total"], 365_596);
    // All shards on parallel's stdout, one whole object after another, merged from stdin.
    let stream = Process::new(parallel)
        .args(["-j", "2"])
        .arg(&bin)
        .args(["count", "13", "--shard", "{}/5", "-j", "1"])
        .args([":::", "1", "2", "3", "4", "5"])
        .output()
        .unwrap();
    assert!(stream.status.success());
    let out = nqueens()
        .args(["merge", "--json", "-"])
        .write_stdin(stream.stdout)
        .assert()
        .success();
    let report: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(report["total"], 73_712);
    assert_eq!(report["verified"], true);
}

/// A stand-in for `sbatch` that runs the jobs at once, in order, and logs its arguments (one
/// call a line) to `$SBATCH_LOG`: each task of `--array=LIST[%T]` (indices and ranges A-B)
/// with the variables Slurm sets, then a `--wrap` command. Dependencies hold because it runs in
/// order.
const FAKE_SBATCH: &str = r#"#!/usr/bin/env bash
set -euo pipefail
echo "$*" >> "$SBATCH_LOG"
array= wrap= script= output=/dev/null truncate=
for arg in "$@"; do
  case "$arg" in
    --array=*) array=${arg#--array=} ;;
    --output=*) output=${arg#--output=} ;;
    --open-mode=truncate) truncate=1 ;;
    --wrap) wrap=next ;;
    --*) ;;
    *) if [[ $wrap == next ]]; then wrap=$arg; else script=$arg; fi ;;
  esac
done
# A job's failure is in its log, not in sbatch's exit status.
if [[ -n $truncate ]]; then : > "$output"; fi
if [[ -n $wrap ]]; then SLURM_JOB_ID=2 sh -c "$wrap" >> "$output" 2>&1 || true; exit; fi
array=${array%%\%*}
ids=()
IFS=, read -ra parts <<< "$array"
for part in "${parts[@]}"; do
  if [[ $part == *-* ]]; then
    for ((id = ${part%-*}; id <= ${part#*-}; id++)); do ids+=("$id"); done
  else
    ids+=("$part")
  fi
done
min=$(printf '%s\n' "${ids[@]}" | sort -n | head -1)
max=$(printf '%s\n' "${ids[@]}" | sort -n | tail -1)
for id in "${ids[@]}"; do
  log=${output//%a/$id}
  SLURM_JOB_ID=1 SLURM_ARRAY_JOB_ID=1 SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_MIN=$min \
    SLURM_ARRAY_TASK_MAX=$max SLURM_ARRAY_TASK_COUNT=${#ids[@]} SLURM_CPUS_PER_TASK=1 \
    bash "$script" >> "${log//%A/1}" 2>&1
done
echo 1
"#;

/// A stand-in for `srun` inside a task: logs its arguments to `$SBATCH_LOG.srun` and runs the
/// command after its options, as the job step would.
const FAKE_SRUN: &str = r#"#!/usr/bin/env bash
set -euo pipefail
echo "$*" >> "$SBATCH_LOG.srun"
while [[ $# -gt 0 && $1 == -* ]]; do shift; done
exec "$@"
"#;

/// Runs the Slurm example in `dir` with the fake sbatch (and srun): `bash count.sbatch args` (or `sbatch
/// args count.sbatch` when `submit`), with `vars`; returns its stdout and the sbatch log.
fn slurm_example(
    dir: &Path,
    vars: &[(&str, &str)],
    args: &[&str],
    submit: bool,
) -> (String, String) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/slurm/count.sbatch");
    let (program, all): (&str, Vec<&str>) = if submit {
        ("sbatch", [args, &[script]].concat())
    } else {
        ("bash", [&[script], args].concat())
    };
    in_fake_slurm(dir, vars, program, &all)
}

/// Runs `program args` in `dir` where sbatch and srun are the fakes above (and nqueens the one
/// built), with `vars`; returns its stdout and the sbatch log.
fn in_fake_slurm(
    dir: &Path,
    vars: &[(&str, &str)],
    program: &str,
    args: &[&str],
) -> (String, String) {
    use std::os::unix::fs::PermissionsExt;
    let bin = dir.join("bin");
    fs::create_dir_all(&bin).unwrap();
    for (name, text) in [("sbatch", FAKE_SBATCH), ("srun", FAKE_SRUN)] {
        fs::write(bin.join(name), text).unwrap();
        fs::set_permissions(bin.join(name), fs::Permissions::from_mode(0o755)).unwrap();
    }
    let nqueens_dir = crate::util::binary().parent().unwrap().to_path_buf();
    let path = std::env::join_paths([bin.clone(), nqueens_dir].into_iter().chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let log = dir.join("sbatch.log");
    let program = if program == "sbatch" {
        bin.join("sbatch")
    } else {
        PathBuf::from(program)
    };
    let mut cmd = Process::new(program);
    cmd.args(args);
    for var in LAUNCHER_VARS.iter().chain(&["SLURM_JOB_ID"]) {
        cmd.env_remove(var);
    }
    let out = cmd
        .current_dir(dir)
        .env("PATH", path)
        .env("SBATCH_LOG", &log)
        .envs(vars.iter().copied())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        fs::read_to_string(&log).unwrap_or_default(),
    )
}

/// The settings of a Slurm example run, and the options they (and `--qos=low`) become.
const SETTINGS: [(&str, &str); 6] = [
    ("N", "11"),
    ("SHARDS", "3"),
    ("CPUS", "2"),
    ("PARTITION", "debug"),
    ("ACCOUNT", "proj"),
    ("TIME", "1:00:00"),
];
const SETTINGS_AS_OPTIONS: [&str; 5] = [
    "--cpus-per-task=2",
    "--partition=debug",
    "--account=proj",
    "--time=1:00:00",
    "--qos=low",
];

#[test]
fn the_slurm_example_counts_and_merges_with_the_options_given() {
    let dir = TempDir::new().unwrap();
    let old = dir.path().join("nqueens-n11-k3/result.txt");
    fs::create_dir_all(old.parent().unwrap()).unwrap();
    fs::write(&old, "an old result").unwrap();
    let vars = [SETTINGS.as_slice(), &[("THROTTLE", "2")]].concat();
    let (stdout, log) = slurm_example(dir.path(), &vars, &["--qos=low"], false);
    assert!(stdout.contains("(shards 1-3 of 3, n = 11)"), "{stdout}");
    let calls: Vec<&str> = log.lines().collect();
    assert_eq!(calls.len(), 2, "{log}");
    for option in SETTINGS_AS_OPTIONS
        .iter()
        .chain(&["--array=1-3%2", "--signal=TERM@120"])
    {
        assert!(calls[0].contains(option), "{option} not in {}", calls[0]);
    }
    for option in [
        "--dependency=afterany:1",
        "--partition=debug",
        "--account=proj",
        "--qos=low",
        "--open-mode=truncate",
    ] {
        assert!(calls[1].contains(option), "{option} not in {}", calls[1]);
    }
    let rows = crate::util::table(&fs::read_to_string(&old).unwrap());
    assert_eq!(
        (rows[0]["total"].as_str(), rows[0]["verified"].as_str()),
        ("2680", "yes")
    );
    // Each task counted as a job step of one task on the CPUs the task was given.
    let steps = fs::read_to_string(dir.path().join("sbatch.log.srun")).unwrap();
    assert_eq!(steps.lines().count(), 3, "{steps}");
    assert!(
        steps
            .lines()
            .all(|l| l.starts_with("--ntasks=1 --cpus-per-task=1 nqueens count 11 --shard ")),
        "{steps}"
    );
    let merged = read(&dir.path().join("nqueens-n11-k3/shard-3.json"));
    assert_eq!(
        (merged["shard"].clone(), merged["shards"].clone()),
        (3.into(), 3.into())
    );
}

#[test]
fn the_slurm_example_resubmits_one_index_as_that_shard_and_never_leaves_a_stale_result() {
    let dir = TempDir::new().unwrap();
    let vars = [("N", "11"), ("SHARDS", "3")];
    // `sbatch --array=2 count.sbatch`: shard 2 of 3, not the whole board as shard 1 of 1.
    slurm_example(dir.path(), &vars, &["--array=2"], true);
    let run = dir.path().join("nqueens-n11-k3");
    let shard2 = read(&run.join("shard-2.json"));
    assert_eq!(
        (shard2["shard"].clone(), shard2["shards"].clone()),
        (2.into(), 3.into())
    );
    // A merge with shards missing fails and writes no result.txt, and an old one is gone.
    fs::write(run.join("result.txt"), "an old result").unwrap();
    let merge_only = [("N", "11"), ("SHARDS", "3"), ("MERGE_ONLY", "1")];
    slurm_example(dir.path(), &merge_only, &[], false);
    assert!(!run.join("result.txt").exists());
    assert!(
        !run.join("result.txt.tmp").exists(),
        "a failed merge left its file"
    );
    let log = fs::read_to_string(run.join("merge.log")).unwrap();
    assert!(
        log.contains("cannot merge: missing 2 shards of 3: 1, 3"),
        "{log}"
    );
    // It says how to go on: the missing indices, then the command that counts them and merges
    // again, with the folder and the script by their full paths.
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/slurm/count.sbatch");
    let advice = format!(
        "N=11 SHARDS=3 DIR={} ARRAY=1,3 bash {script}",
        fs::canonicalize(&run).unwrap().display()
    );
    assert!(
        log.contains("count the missing shards (1,3) and merge again with:")
            && log.contains(&advice),
        "{advice}\n{log}"
    );
    // That command runs as printed from another folder: it counts the missing shards (each
    // index logging to its own file in the run's folder) and merges.
    let elsewhere = dir.path().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    in_fake_slurm(&elsewhere, &[], "bash", &["-c", &advice]);
    assert!(
        fs::read_dir(&elsewhere).unwrap().all(|e| {
            let name = e.unwrap().file_name();
            ["bin", "sbatch.log", "sbatch.log.srun"].contains(&name.to_str().unwrap())
        }),
        "files landed outside the run's folder"
    );

    let rows = crate::util::table(&fs::read_to_string(run.join("result.txt")).unwrap());
    assert_eq!(
        (rows[0]["total"].as_str(), rows[0]["verified"].as_str()),
        ("2680", "yes")
    );
    // The merge's log is the last merge's: the failed one's error is gone.
    let log = fs::read_to_string(run.join("merge.log")).unwrap();
    assert!(!log.contains("cannot merge"), "{log}");
    assert!(log.contains("merged 3 shards of n = 11"), "{log}");
}

#[test]
fn the_slurm_example_resubmits_indices_with_the_run_s_own_settings() {
    let dir = TempDir::new().unwrap();
    slurm_example(dir.path(), &SETTINGS, &["--qos=low"], false);
    let run = dir.path().join("nqueens-n11-k3");
    fs::remove_file(run.join("shard-2.json")).unwrap();
    fs::remove_file(run.join("shard-3.json")).unwrap();
    // ARRAY=2,3 with nothing else: the tasks get the first submission's settings and options.
    let again = [("N", "11"), ("SHARDS", "3"), ("ARRAY", "2,3")];
    let (stdout, log) = slurm_example(dir.path(), &again, &[], false);
    assert!(stdout.contains("(shards 2,3 of 3, n = 11)"), "{stdout}");
    let calls: Vec<&str> = log.lines().collect();
    let resubmitted = calls[calls.len() - 2];
    for option in SETTINGS_AS_OPTIONS.iter().chain(&["--array=2,3"]) {
        assert!(
            resubmitted.contains(option),
            "{option} not in {resubmitted}"
        );
    }
    assert!(calls[calls.len() - 1].contains("--qos=low"), "{log}");
    // One log per shard index in the run's folder, which each run of that index appends to.
    let runs_in = |i: u32| {
        let log = fs::read_to_string(run.join(format!("shard-{i}.log"))).unwrap_or_default();
        log.matches(&format!("shard {i}/3 of n = 11: ")).count()
    };
    assert_eq!((runs_in(1), runs_in(2), runs_in(3)), (1, 2, 2));
    let outside: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| {
            !["bin", "sbatch.log", "sbatch.log.srun", "nqueens-n11-k3"].contains(&name.as_str())
        })
        .collect();
    assert!(outside.is_empty(), "outside the run's folder: {outside:?}");
    let rows = crate::util::table(&fs::read_to_string(run.join("result.txt")).unwrap());
    assert_eq!(
        (rows[0]["total"].as_str(), rows[0]["verified"].as_str()),
        ("2680", "yes")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Through the library: any K, any split depth, the shards add up to the table.
    #[test]
    fn shards_add_up_for_any_k(n in 1u32..=11, k in 1u32..=40, depth in prop::option::of(0u32..=4)) {
        let options = Options::default().with_threads(1).with_split_depth(depth);
        let inputs: Vec<Input> = Shard::all(k)
            .map(|s| Input {
                name: s.to_string(),
                text: cluster::count_shard(n, &options, s, &Unobserved).unwrap().json(),
            })
            .collect();
        let merged = merge::merge(&inputs, 1).unwrap();
        prop_assert_eq!(merged.counts.total, known::known(n).unwrap().total);
        prop_assert!(merged.warnings.is_empty());
    }
}

/// Shards are dealt out by the engines' prices of their subproblems: a change to a price deals
/// them out anew, and the shards of the same run written by an earlier build no longer merge
/// (`merge` refuses them). One shard of an odd board (join engine) as 99bf4fe dealt it.
#[test]
fn a_shard_of_an_odd_board_keeps_the_subproblems_earlier_builds_gave_it() {
    let out = nqueens()
        .args(["count", "17", "--shard", "3/8", "-j", "2", "-o", "-"])
        .assert()
        .success();
    let p: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(
        (&p["subproblems"], &p["ids_digest"], &p["total"]),
        (
            &Value::from(809),
            &Value::from("fnv1a64:905f7180432cd946"),
            &Value::from("12099284")
        )
    );
}

#[test]
fn an_output_that_cannot_be_written_is_refused_before_the_count() {
    // Held after no subproblem at all: a run that began counting would wait for a signal until
    // the timeout, so this passes only if the output is checked first.
    nqueens()
        .env("NQUEENS_TEST_HOLD_AFTER", "0")
        .args(["count", "16", "--engine", "mirror", "--shard", "1/3", "-q"])
        .args(["-o", "/nonexistent/x.json"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicates::str::contains(
            "cannot write /nonexistent/x.json: its folder /nonexistent does not exist",
        ));
    // The checkpoint and the result in one file: refused at once, whichever way it is named.
    let dir = TempDir::new().unwrap();
    let ckpt = dir.path().join("s.ckpt");
    let link = dir.path().join("link.json");
    fs::write(&ckpt, "").unwrap();
    std::os::unix::fs::symlink(&ckpt, &link).unwrap();
    for output in [&ckpt, &link] {
        let out = nqueens()
            .args(["count", "12", "--shard", "1/2", "--checkpoint"])
            .arg(&ckpt)
            .arg("-o")
            .arg(output)
            .assert()
            .code(2)
            .stdout("");
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        crate::cli::is_short_usage_error(&stderr);
        assert!(stderr.contains("--checkpoint and -o both name"), "{stderr}");
    }
    assert_eq!(fs::read(&ckpt).unwrap(), b"", "the checkpoint was touched");
}

#[test]
fn a_result_that_cannot_be_written_after_the_count_goes_to_stderr() {
    // /dev/full takes the open and fails the write, as a full disk does.
    let out = nqueens()
        .args(["count", "10", "--shard", "1/2", "-q", "-o", "/dev/full"])
        .assert()
        .code(1)
        .stdout("");
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("the partial result could not be written to /dev/full; here it is:"),
        "{stderr}"
    );
    let start = stderr.find("here it is:\n").expect("the result on stderr") + 12;
    let end = stderr.find("\nerror: ").expect("then the error");
    let result: Value = serde_json::from_str(&stderr[start..end]).unwrap();
    assert_eq!(
        (result["shard"].as_u64(), result["shards"].as_u64()),
        (Some(1), Some(2))
    );
    assert!(stderr.contains("error: cannot write /dev/full"), "{stderr}");
}

#[test]
fn merge_reads_the_shards_from_stdin() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 12, 3, &[]);
    let mut all = Vec::new();
    for file in &files {
        all.extend(fs::read(file).unwrap());
    }
    let out = nqueens()
        .args(["merge", "-", "--json"])
        .write_stdin(all.clone())
        .assert()
        .success();
    let json: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(json["total"].as_u64(), Some(14_200));
    assert_eq!(json["verified"], true);
    // Stdin with one shard short is refused like files are, naming the missing one.
    let two: Vec<u8> = files[..2]
        .iter()
        .flat_map(|f| fs::read(f).unwrap())
        .collect();
    nqueens()
        .args(["merge", "-"])
        .write_stdin(two)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicates::str::contains("3"));
    // Nothing on stdin is no run at all.
    nqueens()
        .args(["merge", "-"])
        .write_stdin(Vec::new())
        .assert()
        .code(1)
        .stdout("");
}

/// `text` (one shard result) with `edit` applied and its checksum made to match again.
fn resealed(text: &str, edit: impl Fn(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(text).unwrap();
    edit(&mut v);
    let r: cluster::PartialResult = serde_json::from_value(v.clone()).unwrap();
    v["checksum"] = r.expected_checksum().into();
    v.to_string()
}

#[test]
fn what_merge_quotes_of_a_file_is_escaped_and_cut() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 8, 2, &[]);
    let text = fs::read_to_string(&files[1]).unwrap();
    // A host of 10 MB with a terminal escape in it, and a checksum that matches: merge quotes
    // the file's program version and host nowhere in full.
    let hostile = format!("\u{1b}[2J{}", "h".repeat(10_000_000));
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["engine"] = hostile.clone().into();
    fs::write(&files[1], v.to_string()).unwrap();
    let out = nqueens()
        .arg("merge")
        .args(&files)
        .assert()
        .code(1)
        .stdout("");
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(!stderr.contains('\u{1b}'), "an escape got through");
    assert!(stderr.len() < 2_000, "{} bytes of message", stderr.len());
    assert!(
        stderr.contains("mixed engine"),
        "{}",
        &stderr[..stderr.len().min(500)]
    );
    assert!(
        stderr.contains("\\u{1b}[2Jhhhh"),
        "{}",
        &stderr[..stderr.len().min(500)]
    );
}

#[test]
fn merge_names_missing_shards_from_the_files_before_it_builds_a_plan() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 8, 3, &[]);
    // Shards that say n = 33: no plan of theirs can be built, so only a check of the files
    // alone can name the missing shard.
    let edited: Vec<PathBuf> = files[..2]
        .iter()
        .map(|f| {
            let text = resealed(&fs::read_to_string(f).unwrap(), |v| v["n"] = 33.into());
            fs::write(f, text).unwrap();
            f.clone()
        })
        .collect();
    nqueens()
        .args(["merge", "--quorum", "1"])
        .args(&edited)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicates::str::starts_with(
            "error: cannot merge: missing 1 shard of 3: 3",
        ));
    // Lists are capped: one shard of 10,000 names 20 missing ones and how many more.
    let one = run_shards(&dir.path().join("one"), 8, 1, &[]);
    let text = resealed(&fs::read_to_string(&one[0]).unwrap(), |v| {
        v["shards"] = 10_000.into()
    });
    fs::write(&one[0], text).unwrap();
    let out = nqueens().arg("merge").args(&one).assert().code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("missing 9999 shards of 10000: 2, 3, 4")
            && stderr.contains("and 9,979 more"),
        "{stderr}"
    );
    assert!(stderr.len() < 500, "{stderr}");
}

#[test]
fn a_quorum_asks_for_every_shard_from_different_hosts_with_equal_totals() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 9, 2, &[]);
    // The same shards as another host wrote them.
    let elsewhere: Vec<PathBuf> = files
        .iter()
        .map(|f| {
            let copy = f.with_file_name(format!("b-{}", f.file_name().unwrap().to_string_lossy()));
            let text = resealed(&fs::read_to_string(f).unwrap(), |v| {
                v["host"] = "node-b".into();
                v["machine"] = "machine-id:00000000000000b1 boot-id:00000000000000b2".into();
            });
            fs::write(&copy, text).unwrap();
            copy
        })
        .collect();
    let all: Vec<PathBuf> = files.iter().chain(&elsewhere).cloned().collect();
    let out = nqueens()
        .args(["merge", "--quorum", "2", "--json"])
        .args(&all)
        .assert()
        .success();
    let report: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(
        (report["total"].as_u64(), report["verified"].as_bool()),
        (Some(352), Some(true))
    );
    // Shard 2 from one host only: refused, naming it and its host.
    let out = nqueens()
        .args(["merge", "--quorum", "2"])
        .args([&files[0], &files[1], &elsewhere[0]])
        .assert()
        .code(1)
        .stdout("");
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("a quorum of 2 asks for every shard counted on 2 different machines")
            && stderr.contains("shard 2/2 on 1 machine"),
        "{stderr}"
    );
    // Two copies from one host are one machine: a copy, a copy renamed (`unshare -u` and
    // `hostname`, or a container: the same boot id), and names that differ only in case,
    // spaces or a NUL.
    let twin = dir.path().join("twin.json");
    fs::copy(&files[1], &twin).unwrap();
    let host = read(&files[1])["host"].as_str().unwrap().to_string();
    for (i, rename) in [
        "node-z".to_string(),
        host.to_uppercase(),
        format!("{host} "),
        format!("{host}\0"),
    ]
    .into_iter()
    .enumerate()
    {
        let renamed = dir.path().join(format!("renamed-{i}.json"));
        let machine = read(&files[1])["machine"].clone();
        let text = resealed(&fs::read_to_string(&files[1]).unwrap(), |v| {
            v["host"] = rename.clone().into();
            if i > 0 {
                // Names alone, as an older file without an identity would give them.
                v.as_object_mut().unwrap().remove("machine");
            } else {
                v["machine"] = machine.clone();
            }
        });
        fs::write(&renamed, text).unwrap();
        for twin in [&twin, &renamed] {
            nqueens()
                .args(["merge", "--quorum", "2"])
                .args([&files[0], &files[1], &elsewhere[0], twin])
                .assert()
                .code(1)
                .stderr(predicates::str::contains("shard 2/2 on 1 machine"));
        }
    }
    // A copy under another name with no machine identity (an older format, or `machine: ""`)
    // is no machine unless the user vouches for host names; then it is node-c.
    for (i, machine) in [None, Some("")].into_iter().enumerate() {
        let anonymous = dir.path().join(format!("anonymous-{i}.json"));
        let text = resealed(&fs::read_to_string(&files[1]).unwrap(), |v| {
            v["host"] = " Node C ".into();
            match machine {
                Some(m) => v["machine"] = m.into(),
                None => {
                    v.as_object_mut().unwrap().remove("machine");
                }
            }
        });
        fs::write(&anonymous, text).unwrap();
        let set = [&files[0], &files[1], &elsewhere[0], &anonymous];
        nqueens()
            .args(["merge", "--quorum", "2"])
            .args(set)
            .assert()
            .code(1)
            .stderr(predicates::str::contains("shard 2/2 on 1 machine"));
        nqueens()
            .args(["merge", "--quorum", "2", "--trust-host-names"])
            .args(set)
            .assert()
            .success();
    }
    // Two hosts that disagree: both files named, exit 1.
    let wrong = resealed(&fs::read_to_string(&elsewhere[1]).unwrap(), |v| {
        v["total"] = "1".into()
    });
    fs::write(&elsewhere[1], wrong).unwrap();
    let out = nqueens()
        .args(["merge", "--quorum", "2"])
        .args(&all)
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("shard 2/2 has different totals")
            && stderr.contains("b-s2.json")
            && stderr.contains("/s2.json"),
        "{stderr}"
    );
}

#[test]
fn above_the_table_merge_asks_for_a_quorum() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 9, 1, &[]);
    let text = resealed(&fs::read_to_string(&files[0]).unwrap(), |v| {
        v["n"] = 28.into()
    });
    fs::write(&files[0], text).unwrap();
    nqueens()
        .arg("merge")
        .args(&files)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicates::str::starts_with(
            "error: n = 28 has no published count to check the total against: count every shard \
             twice, on different hosts, and merge with a quorum of 2 (or accept one count of each with \
             a quorum of 1) (--quorum)",
        ));
}

#[test]
fn merge_reads_a_folder_of_shard_files() {
    let dir = TempDir::new().unwrap();
    let run = dir.path().join("run");
    fs::create_dir(&run).unwrap();
    run_shards(&run, 10, 3, &[]);
    // Anything that is not a .json file is passed over.
    fs::write(run.join("merge.log"), "not a result").unwrap();
    let report = merged(std::slice::from_ref(&run));
    assert_eq!(
        (report["total"].as_u64(), report["verified"].as_bool()),
        (Some(724), Some(true))
    );
    let empty = dir.path().join("empty");
    fs::create_dir(&empty).unwrap();
    refuses(&[empty], &["the folder holds no .json file"]);
}

/// Q(23) as counted in 64 shards and committed under `results/n23`: the files are the shards of
/// this program's plan, and they add up to the published count.
#[test]
fn the_committed_shards_of_n_23_merge_to_the_published_count() {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/results/n23"));
    let report = merged(&[dir]);
    assert_eq!(report["total"].as_u64(), Some(24_233_937_684_440));
    assert_eq!(report["unique"].as_u64(), Some(3_029_242_658_210));
    assert_eq!(report["verified"].as_bool(), Some(true));
}

/// Shards of the two decompositions of an even board each merge to the published count, and
/// never with each other: their plans' fingerprints differ.
#[test]
fn merge_never_mixes_the_decompositions_of_a_board() {
    let dir = TempDir::new().unwrap();
    let mut files = Vec::new();
    for decomposition in ["quarter-turn", "whole"] {
        let folder = dir.path().join(decomposition);
        fs::create_dir(&folder).unwrap();
        files.push(run_shards(
            &folder,
            14,
            2,
            &["--decomposition", decomposition],
        ));
        let report = merged(&files[files.len() - 1]);
        assert_eq!(report["total"], 365_596, "{decomposition}: {report}");
        // status reads the folder by the plan its files name.
        let out = nqueens().arg("status").arg(&folder).assert().success();
        let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        assert!(
            text.contains("100.00% of the work done") && !text.contains("warning"),
            "{text}"
        );
    }
    let out = nqueens()
        .arg("merge")
        .args([&files[0][0], &files[1][1]])
        .assert()
        .code(1);
    let said = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(said.contains("plan fingerprint"), "{said}");
}

/// `DECOMPOSITION=…` counts every task of the Slurm example by that decomposition, and the
/// merge job takes them as one run.
#[test]
fn the_slurm_example_counts_by_the_decomposition_asked_for() {
    let dir = TempDir::new().unwrap();
    let vars = [
        ("N", "12"),
        ("SHARDS", "2"),
        ("DECOMPOSITION", "quarter-turn"),
    ];
    slurm_example(dir.path(), &vars, &[], false);
    let steps = fs::read_to_string(dir.path().join("sbatch.log.srun")).unwrap();
    assert!(
        steps.lines().count() == 2
            && steps
                .lines()
                .all(|l| l.contains(" --decomposition quarter-turn ")),
        "{steps}"
    );
    let run = dir.path().join("nqueens-n12-k2");
    let rows = crate::util::table(&fs::read_to_string(run.join("result.txt")).unwrap());
    assert_eq!(
        (rows[0]["total"].as_str(), rows[0]["engine"].as_str()),
        ("14200", "join")
    );
    assert!(fs::read_to_string(run.join("settings"))
        .unwrap()
        .contains("DECOMPOSITION=quarter-turn"));
}

/// `ARRAY=5 bash count.sbatch` where the run's settings are not (a default DIR, or a typo) would
/// count a default run's shard, not the user's: it is refused, naming the settings file; and a
/// resubmission that names another N than the run's is refused too.
#[test]
fn the_slurm_example_refuses_a_resubmission_without_the_run_s_settings() {
    let dir = TempDir::new().unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/slurm/count.sbatch");
    let run = |vars: &[(&str, &str)]| {
        let mut cmd = Process::new("bash");
        cmd.arg(script)
            .current_dir(dir.path())
            .env_remove("SLURM_JOB_ID");
        // No sbatch on the PATH: a refusal must come before any submission.
        cmd.env("PATH", "/usr/bin:/bin").envs(vars.iter().copied());
        cmd.output().unwrap()
    };
    let out = run(&[("ARRAY", "5")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("its settings file nqueens-n21-k8/settings does not exist"),
        "{stderr}"
    );
    assert!(
        !dir.path().join("nqueens-n21-k8").exists(),
        "it made the folder"
    );
    fs::create_dir(dir.path().join("run")).unwrap();
    fs::write(dir.path().join("run/settings"), "N=17\nSHARDS=8\nCPUS=2\n").unwrap();
    let out = run(&[("ARRAY", "5"), ("DIR", "run"), ("N", "18")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("N=18 differs from the run's N=17 in run/settings"),
        "{stderr}"
    );
}

/// A checkpoint given to merge is named as one, not as broken JSON.
#[test]
fn a_checkpoint_given_to_merge_is_called_one() {
    let dir = TempDir::new().unwrap();
    let ckpt = dir.path().join("shard-1.ckpt");
    nqueens()
        .args(["count", "10", "--shard", "1/2", "-q", "-o"])
        .arg(dir.path().join("shard-1.json"))
        .arg("--checkpoint")
        .arg(&ckpt)
        .assert()
        .success();
    refuses(
        &[ckpt],
        &["shard-1.ckpt is a checkpoint, not a shard result"],
    );
}

/// The Kubernetes example: each pod of the Indexed Job runs the manifest's command with the
/// manifest's environment and its JOB_COMPLETION_INDEX; the K results merge to the table's count.
/// (The board is made smaller than the manifest's, so that the test takes a second.)
#[test]
fn the_kubernetes_indexed_job_counts_every_shard_once() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/kubernetes/count-job.json"
    );
    let job: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"], "Indexed");
    let completions = spec["completions"].as_u64().unwrap();
    let container = &spec["template"]["spec"]["containers"][0];
    let env: Vec<(String, String)> = container["env"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap().into(),
                e["value"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(env.contains(&("NQUEENS_SHARDS".into(), completions.to_string())));
    let dir = TempDir::new().unwrap();
    let results = dir.path().display().to_string();
    let args: Vec<String> = container["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().replace("/results", &results))
        .map(|a| if a == "20" { "14".to_string() } else { a })
        .collect();
    assert_eq!(container["command"][0], "nqueens");
    for index in 0..completions {
        let mut pod = Process::new(crate::util::binary());
        for var in LAUNCHER_VARS {
            pod.env_remove(var);
        }
        let out = pod
            .args(&args)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let report = merged(&[dir.path().to_path_buf()]);
    assert_eq!(report["total"], 365_596);
    assert_eq!(report["verified"], true);
}

/// A stand-in for Grid Engine's `qsub` that runs the jobs at once, in order: each task of
/// `-t FIRST-LAST[:STEP]` (or one index) with the variables Grid Engine sets, its `-o` file with
/// `$TASK_ID` replaced, then a `-b y` command; it prints the job id, as `-terse` does.
const FAKE_QSUB: &str = r#"#!/usr/bin/env bash
set -euo pipefail
echo "$*" >> "$QSUB_LOG"
range= out=/dev/null binary= vars=
args=("$@")
i=0
while [[ $i -lt ${#args[@]} ]]; do
  a=${args[$i]}
  case "$a" in
    -t) i=$((i + 1)); range=${args[$i]} ;;
    -o) i=$((i + 1)); out=${args[$i]} ;;
    -v) i=$((i + 1)); vars=${args[$i]} ;;
    -b) i=$((i + 1)); binary=${args[$i]} ;;
    -N|-hold_jid|-q|-P|-j|-S) i=$((i + 1)) ;;
    -*) ;;
    *) break ;;
  esac
  i=$((i + 1))
done
rest=("${args[@]:$i}")
# A binary job's command line is joined and read by a shell, as Grid Engine does.
if [[ $binary == y ]]; then sh -c "${rest[*]}" >> "$out" 2>&1 || true; echo 2; exit; fi
IFS=, read -ra pairs <<< "$vars"
for p in "${pairs[@]}"; do export "${p?}"; done
first=${range%%-*}; rest_range=${range#*-}; last=${rest_range%%:*}; step=1
[[ $range == *-* ]] || last=$first
[[ $range == *:* ]] && step=${range##*:}
for ((id = first; id <= last; id += step)); do
  JOB_ID=1 SGE_TASK_ID=$id SGE_TASK_FIRST=$first SGE_TASK_LAST=$last SGE_TASK_STEPSIZE=$step \
    NSLOTS=1 bash "${rest[0]}" >> "${out//\$TASK_ID/$id}" 2>&1 || true
done
echo "1.$first-$last:$step"
"#;

/// The Grid Engine example counts every task, merges, and a task counted again alone (`-t 2`)
/// is still shard 2 of K: the result merges to the table's count.
#[test]
fn the_grid_engine_example_counts_resubmits_and_merges() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new().unwrap();
    let bin = dir.path().join("bin");
    fs::create_dir_all(&bin).unwrap();
    fs::write(bin.join("qsub"), FAKE_QSUB).unwrap();
    fs::set_permissions(bin.join("qsub"), fs::Permissions::from_mode(0o755)).unwrap();
    let nqueens_dir = crate::util::binary().parent().unwrap().to_path_buf();
    let path = std::env::join_paths([bin, nqueens_dir].into_iter().chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/gridengine/count.sh");
    let submit = |vars: &[(&str, &str)]| {
        let mut cmd = Process::new("bash");
        for var in LAUNCHER_VARS {
            cmd.env_remove(var);
        }
        let out = cmd
            .arg(script)
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("QSUB_LOG", dir.path().join("qsub.log"))
            .envs(vars.iter().copied())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let said = submit(&[("N", "11"), ("SHARDS", "3")]);
    assert!(said.contains("(tasks 1-3 of 3, n = 11)"), "{said}");
    let run = dir.path().join("nqueens-n11-k3");
    let rows = crate::util::table(&fs::read_to_string(run.join("result.txt")).unwrap());
    assert_eq!(
        (rows[0]["total"].as_str(), rows[0]["verified"].as_str()),
        ("2680", "yes")
    );
    // Task 2 again, alone: shard 2 of 3, and the merge again.
    fs::remove_file(run.join("shard-2.json")).unwrap();
    fs::remove_file(run.join("result.txt")).unwrap();
    submit(&[("N", "11"), ("SHARDS", "3"), ("ARRAY", "2")]);
    let shard2 = read(&run.join("shard-2.json"));
    assert_eq!(
        (shard2["shard"].clone(), shard2["shards"].clone()),
        (2.into(), 3.into())
    );
    assert!(
        run.join("result.txt").exists(),
        "the merge did not run again"
    );
}
