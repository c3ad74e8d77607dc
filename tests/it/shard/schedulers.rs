//! The schedulers' examples run for real or with stand-ins: GNU parallel, Slurm (`sbatch` and
//! `srun` stand-ins), a Kubernetes indexed job and Grid Engine (a `qsub` stand-in), each
//! counting, resubmitting and merging to the table.

use super::*;

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
    // status gives the same line, word for word.
    let out = nqueens()
        .args(["status", "--json"])
        .arg(&run)
        .assert()
        .success();
    let status: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(status["resubmit"], advice.as_str());
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
    // A run short of shards: the merge's advice names them, the folder by its full path and
    // the script, and run as it is it counts them and merges.
    submit(&[
        ("N", "11"),
        ("SHARDS", "3"),
        ("ARRAY", "1"),
        ("DIR", "ge-miss"),
    ]);
    let log = fs::read_to_string(dir.path().join("ge-miss/merge.log")).unwrap();
    let advice = log
        .lines()
        .find_map(|l| l.split_once("merge again with: "))
        .map(|(said, line)| {
            assert!(said.contains("count the missing shards (2,3)"), "{log}");
            line.to_string()
        })
        .unwrap_or_else(|| panic!("no advice in: {log}"));
    let full = dir.path().join("ge-miss");
    assert!(
        advice.starts_with(&format!(
            "N=11 SHARDS=3 DIR={} ARRAY=2,3 bash ",
            full.display()
        )),
        "{advice}"
    );
    assert!(!advice.contains("  "), "{advice}");
    let elsewhere = TempDir::new().unwrap();
    let out = Process::new("bash")
        .args(["-c", &advice])
        .current_dir(elsewhere.path())
        .env("PATH", &path)
        .env("QSUB_LOG", dir.path().join("qsub.log"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = crate::util::table(&fs::read_to_string(full.join("result.txt")).unwrap());
    assert_eq!(rows[0]["total"], "2680");
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
