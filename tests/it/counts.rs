//! Every count equals the published table, however the run is split and scheduled.

use nqueens::{known, Engine, Options};

use crate::util::nqueens;

fn count(engine: Engine, n: u32, threads: usize, split_depth: Option<u32>) -> (u128, Option<u128>) {
    let options = Options::default()
        .with_engine(Some(engine))
        .with_threads(threads)
        .with_split_depth(split_depth);
    let c = nqueens::count(n, &options).unwrap();
    (c.total, c.unique)
}

#[test]
fn every_engine_matches_the_table_up_to_16() {
    for engine in Engine::ALL {
        for n in 1..=16 {
            let k = known::known(n).unwrap();
            assert_eq!(
                count(engine, n, 2, None),
                (k.total, Some(k.unique)),
                "{engine} n = {n}"
            );
        }
    }
}

#[test]
fn the_default_engine_verifies() {
    for n in 1..=12 {
        let counts = nqueens::count(n, &Options::default()).unwrap();
        assert_eq!(counts.verified(), Some(true), "n = {n}");
    }
}

#[test]
fn threads_and_split_depth_do_not_change_the_count() {
    for engine in Engine::ALL {
        for n in [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13] {
            let k = known::known(n).unwrap();
            let expected = (k.total, Some(k.unique));
            for threads in [1, 2, 3, 8] {
                // The join engine has no split depth (it refuses one).
                let depths: &[u32] = if engine == Engine::Join {
                    &[]
                } else {
                    &[0, 1, 2, 3, 4]
                };
                for &depth in depths {
                    assert_eq!(
                        count(engine, n, threads, Some(depth)),
                        expected,
                        "{engine} n = {n}, threads = {threads}, depth = {depth}"
                    );
                }
                assert_eq!(count(engine, n, threads, None), expected);
            }
        }
    }
}

#[test]
fn the_embedded_table_agrees_with_the_reference_file() {
    // tests/data/counts.csv: OEIS A000170 and A002562, kept in the repository.
    let text = include_str!("../data/counts.csv");
    let mut rows = 0;
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<u128> = line.split(',').map(|x| x.trim().parse().unwrap()).collect();
        let k = known::known(f[0] as u32).unwrap();
        assert_eq!((k.total, k.unique), (f[1], f[2]), "n = {}", f[0]);
        rows += 1;
    }
    assert_eq!(rows, known::table().len());
}

/// The yardstick of the README's "× baseline" figures, `benches/baseline/baseline.c`, builds
/// with the system's C compiler and counts right.
#[test]
fn the_baseline_counter_builds_and_matches_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("baseline");
    let source = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/baseline/baseline.c");
    let built = std::process::Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(source)
        .status()
        .expect("a C compiler, cc, is installed (.ci/run installs gcc)");
    assert!(built.success(), "cc failed on {source}");
    for n in 1..=12 {
        let out = std::process::Command::new(&exe)
            .arg(n.to_string())
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let total = known::known(n).unwrap().total;
        assert_eq!(text.trim(), format!("N={n} total={total}"), "n = {n}");
    }
}

#[test]
fn node_counts_are_reported_and_do_not_change_the_total() {
    let options = Options::default().with_count_nodes(true);
    let c = nqueens::count(10, &options).unwrap();
    assert_eq!(c.total, 724);
    assert!(c.nodes.unwrap() > 724);
    // The join engine places no queens one by one: it has no node count to report, not zero.
    let join = options.with_engine(Some(Engine::Join));
    let c = nqueens::count(10, &join).unwrap();
    assert_eq!((c.total, c.nodes), (724, None));
}

#[test]
fn a_plan_is_deterministic_and_its_weights_add_up() {
    let options = Options::default().with_threads(2).with_split_depth(Some(3));
    let a = nqueens::plan(14, &options).unwrap();
    let b = nqueens::plan(14, &options).unwrap();
    assert_eq!(a, b);
    let by_hand: u128 = a
        .pieces()
        .map(|p| u128::from(p.weight) * u128::from(a.count_piece(p.id, false).solutions))
        .sum();
    assert_eq!(by_hand, 365_596);
}

/// Every instruction set this CPU has, asked for with NQUEENS_ISA, counts every n from 12 to 16
/// with each engine to the table, and says which it runs (bench's header); one it lacks, or a
/// name that is none, is refused before anything runs.
#[test]
fn every_instruction_set_this_cpu_has_counts_to_the_table() {
    let mut ran = Vec::new();
    for isa in ["portable", "avx2", "avx512", "neon"] {
        let probe = nqueens()
            .env("NQUEENS_ISA", isa)
            .args(["count", "4"])
            .output()
            .unwrap();
        if probe.status.code() == Some(2) {
            let said = String::from_utf8_lossy(&probe.stderr);
            assert!(
                said.contains("asks for instructions this CPU lacks"),
                "{said}"
            );
            continue;
        }
        for engine in ["mirror", "symmetry", "join"] {
            let out = nqueens()
                .env("NQUEENS_ISA", isa)
                .args(["count", "12..16", "--json", "--engine", engine])
                .assert()
                .success();
            for line in String::from_utf8_lossy(&out.get_output().stdout).lines() {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                let n = v["n"].as_u64().unwrap() as u32;
                assert_eq!(
                    v["total"].as_u64().map(u128::from),
                    Some(known::known(n).unwrap().total),
                    "{isa} {engine} n = {n}"
                );
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("b.json");
        nqueens()
            .env("NQUEENS_ISA", isa)
            .args([
                "bench",
                "--n",
                "9",
                "--threads",
                "1",
                "--runs",
                "1",
                "--warmup",
                "0",
            ])
            .arg("--export-json")
            .arg(&json)
            .assert()
            .success();
        let dispatch = std::fs::read_to_string(&json).unwrap();
        let named = match isa {
            "portable" => "join portable",
            "neon" => "join neon",
            _ => "join avx",
        };
        assert!(dispatch.contains(named), "{isa}: {dispatch}");
        if isa == "avx2" {
            assert!(dispatch.contains("join avx2"), "{dispatch}");
        }
        ran.push(isa);
    }
    assert!(
        ran.contains(&"portable"),
        "the portable path runs everywhere"
    );
    nqueens()
        .env("NQUEENS_ISA", "sse")
        .args(["count", "8"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "NQUEENS_ISA=\"sse\" names no instruction set",
        ));
}
