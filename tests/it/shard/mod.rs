//! Shards from the command line: the merged count equals the table, a shard's file and plan,
//! `--shard auto` reading each launcher, outputs that cannot be written; merge's checks
//! ([`merging`]) and the schedulers' examples ([`schedulers`]) in files of their own.

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

mod merging;
mod schedulers;

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

/// `text` (one shard result) with `edit` applied and its checksum made to match again.
fn resealed(text: &str, edit: impl Fn(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(text).unwrap();
    edit(&mut v);
    let r: cluster::PartialResult = serde_json::from_value(v.clone()).unwrap();
    v["checksum"] = r.expected_checksum().into();
    v.to_string()
}
