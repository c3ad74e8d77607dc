//! The join engine: totals, unit by unit against the textbook solver, threads, limits, CLI.

use std::collections::HashMap;

use nqueens::join::{Join, MAX_JOIN_N};
use nqueens::{known, Engine, Error, Options, Plan};

use crate::util::nqueens;

fn join_count(n: u32, threads: usize) -> u128 {
    let options = Options {
        threads,
        engine: Some(Engine::Join),
        ..Options::default()
    };
    let counts = nqueens::count(n, &options).unwrap();
    assert_eq!(counts.engine, Engine::Join);
    counts.total
}

#[test]
fn every_n_up_to_16_matches_the_table() {
    for n in 1..=16 {
        assert_eq!(join_count(n, 2), known::known(n).unwrap().total, "n = {n}");
    }
}

#[test]
fn one_thread_or_three_give_the_same_totals() {
    for n in [5, 8, 11, 14] {
        assert_eq!(join_count(n, 1), join_count(n, 3), "n = {n}");
    }
}

/// n = 17 and 18 take a few seconds each: `cargo test -- --ignored`.
#[test]
#[ignore]
fn n_17_and_18_match_the_table() {
    for n in [17, 18] {
        assert_eq!(join_count(n, 2), known::known(n).unwrap().total, "n = {n}");
    }
}

/// Solutions of the textbook solver by unit: (row of the middle-column queen, east rows).
fn by_unit(n: u32) -> HashMap<(Option<u8>, u32), u64> {
    let h = (n / 2) as u8;
    let mut tally = HashMap::new();
    for cols in nqueens::reference::solutions(n as usize) {
        let east = (0..n)
            .filter(|&r| cols[r as usize] < h)
            .fold(0, |s, r| s | 1 << r);
        let middle = (n % 2 == 1).then(|| cols.iter().position(|&c| c == h).unwrap() as u8);
        *tally.entry((middle, east)).or_insert(0) += 1;
    }
    tally
}

#[test]
fn every_unit_counts_the_solutions_whose_east_queens_use_its_rows() {
    for n in 2..=12u32 {
        let join = Join::new(n).unwrap();
        let tally = by_unit(n);
        let mut covered = 0;
        for unit in join.units() {
            let expected = tally.get(&(unit.middle, unit.east)).copied().unwrap_or(0);
            assert_eq!(join.count_unit(unit), expected, "n = {n}, {unit:?}");
            covered += u64::from(unit.weight) * expected;
        }
        // The weights stand for the other members of each class: nothing missed, nothing twice.
        assert_eq!(covered, tally.values().sum::<u64>(), "n = {n}");
    }
}

#[test]
fn the_plan_has_one_subproblem_per_unit_with_its_weight() {
    let plan = Plan::join(12).unwrap();
    let join = plan.join_tables().unwrap();
    assert_eq!(plan.len(), join.units().len());
    for (sub, unit) in plan.subproblems().iter().zip(join.units()) {
        assert_eq!(sub.weight, unit.weight);
    }
    assert_eq!(plan, Plan::join(12).unwrap());
    assert!(join.table_bytes() > 0);
}

#[test]
fn boards_beyond_the_limit_are_refused_with_a_reason() {
    let err = Join::new(MAX_JOIN_N + 1).unwrap_err();
    assert!(matches!(err, Error::JoinTooLarge { .. }));
    let text = err.to_string();
    assert!(text.contains("would not fit in memory"), "{text}");
    assert!(text.contains("--engine mirror"), "{text}");
}

#[test]
fn the_cli_counts_with_join() {
    nqueens()
        .args(["count", "12", "--engine", "join", "-j", "1"])
        .assert()
        .success()
        .stdout(predicates::str::contains("14200"))
        .stdout(predicates::str::contains("join"));
}

#[test]
fn an_unknown_engine_names_join_among_the_choices() {
    nqueens()
        .args(["count", "8", "--engine", "joint"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "expected one of mirror, symmetry, join",
        ));
}

#[test]
fn a_split_depth_is_refused_for_join_and_picks_symmetry_by_default() {
    nqueens()
        .args(["count", "12", "--engine", "join", "--split-depth", "3"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--split-depth does not apply to the join engine",
        ));
    let options = Options {
        split_depth: Some(3),
        ..Options::default()
    };
    assert_eq!(
        nqueens::plan(16, &options).unwrap().engine(),
        Engine::Symmetry
    );
}

#[test]
fn join_is_the_default_from_n_15() {
    assert_eq!(
        nqueens::plan(15, &Options::default()).unwrap().engine(),
        Engine::Join
    );
    assert_eq!(
        nqueens::plan(14, &Options::default()).unwrap().engine(),
        Engine::Symmetry
    );
}
