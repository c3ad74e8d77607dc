//! Every count equals the published table, however the run is split and scheduled.

use nqueens::{known, Engine, Options};

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
    let options = Options::default().with_nodes(true);
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
