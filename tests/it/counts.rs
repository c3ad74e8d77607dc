//! Every count equals the published table, however the run is split and scheduled.

use nqueens::{known, Options};

fn count(n: u32, threads: usize, split_depth: Option<u32>) -> u128 {
    let options = Options {
        threads,
        split_depth,
        ..Options::default()
    };
    nqueens::count(n, &options).unwrap().total
}

#[test]
fn every_n_up_to_16_matches_the_table() {
    for n in 1..=16 {
        let counts = nqueens::count(n, &Options::default()).unwrap();
        assert_eq!(counts.total, known::known(n).unwrap().total, "n = {n}");
        assert_eq!(counts.verified(), Some(true));
    }
}

#[test]
fn threads_and_split_depth_do_not_change_the_count() {
    for n in [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13] {
        let expected = known::known(n).unwrap().total;
        for threads in [1, 2, 3, 8] {
            for depth in 0..=4 {
                assert_eq!(
                    count(n, threads, Some(depth)),
                    expected,
                    "n = {n}, threads = {threads}, depth = {depth}"
                );
            }
            assert_eq!(count(n, threads, None), expected);
        }
    }
}

#[test]
fn the_embedded_table_agrees_with_the_shared_reference() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/reference/counts.csv"
    );
    let text =
        std::fs::read_to_string(path).expect("../shared/reference/counts.csv is beside the repo");
    let mut rows = 0;
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<u128> = line.split(',').map(|x| x.trim().parse().unwrap()).collect();
        let k = known::known(f[0] as u32).unwrap();
        assert_eq!((k.total, k.unique), (f[1], f[2]), "n = {}", f[0]);
        rows += 1;
    }
    assert_eq!(rows, known::table().len());
}

#[test]
fn node_counts_are_reported_and_do_not_change_the_total() {
    let options = Options {
        count_nodes: true,
        ..Options::default()
    };
    let c = nqueens::count(10, &options).unwrap();
    assert_eq!(c.total, 724);
    assert!(c.nodes.unwrap() > 724);
}

#[test]
fn a_plan_is_deterministic_and_its_weights_add_up() {
    let options = Options {
        threads: 2,
        split_depth: Some(3),
        ..Options::default()
    };
    let a = nqueens::plan(14, &options).unwrap();
    let b = nqueens::plan(14, &options).unwrap();
    assert_eq!(a, b);
    let by_hand: u128 = a
        .subproblems()
        .iter()
        .map(|s| u128::from(s.weight) * u128::from(nqueens::kernel::count(14, s.partial(14))))
        .sum();
    assert_eq!(by_hand, 365_596);
}
