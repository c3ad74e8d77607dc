//! The join engine through the library and the CLI: totals, threads, memory limits. Its units,
//! quadrants and prices are tested against the textbook solver inside the crate
//! (`src/engines/join/against_reference.rs`).

use nqueens::{known, Decomposition, Engine, Options};

use crate::util::nqueens;

fn join_count(n: u32, threads: usize) -> u128 {
    let options = Options::default()
        .with_threads(threads)
        .with_engine(Some(Engine::Join));
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

#[test]
fn under_a_memory_limit_join_counts_on_demand_or_is_refused_at_once() {
    // 44 MiB of address space: the table of n = 17 (3 MiB) does not fit in the default budget
    // beside the rest, so its quadrants are made on demand, with the same count.
    let small = crate::util::under_ulimit(45_000, "count 17 --engine join -j 1");
    let stdout = String::from_utf8_lossy(&small.stdout);
    assert!(
        small.status.success(),
        "{}",
        String::from_utf8_lossy(&small.stderr)
    );
    let row = &crate::util::table(&stdout)[0];
    assert_eq!(
        (row["total"].as_str(), row["verified"].as_str()),
        ("95815104", "yes")
    );
    // The outline of n = 24 (64 MiB) cannot be had at all: refused before any thread starts.
    let refused = crate::util::under_ulimit(45_000, "count 24 --engine join");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error: the join engine for n = 24 needs at least 6")
            && stderr.trim_end().ends_with(" allowed"),
        "{stderr}"
    );
    // A budget that admits the table of n = 22 (over 500 MiB) where ulimit -v does not: the
    // refusal names the table and the system's limit, not the least the engine needs.
    let refused = crate::util::under_ulimit(400 << 10, "count 22 --memory 1500M --engine join -q");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error: the join engine's table for n = 22 (")
            && stderr.contains("could not be allocated: the system refused it")
            && stderr.contains("a smaller --memory makes its quadrants on demand"),
        "{stderr}"
    );
    // A budget given on the command line is held to the same way.
    nqueens()
        .args([
            "count", "16", "--engine", "join", "--memory", "1M", "-j", "1",
        ])
        .assert()
        .code(1)
        .stderr(
            "error: the join engine for n = 16 needs at least 2 MiB of memory, 1 MiB allowed\n",
        );
}

#[test]
fn the_cli_counts_with_join() {
    let out = nqueens()
        .args(["count", "12", "--engine", "join", "-j", "1"])
        .assert()
        .success();
    let rows = crate::util::table(&String::from_utf8_lossy(&out.get_output().stdout));
    let row = &rows[0];
    assert_eq!(
        (
            row["total"].as_str(),
            row["verified"].as_str(),
            row["engine"].as_str()
        ),
        ("14200", "yes", "join")
    );
}

#[test]
fn an_unknown_engine_names_join_among_the_choices() {
    nqueens()
        .args(["count", "8", "--engine", "joint"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "[possible values: mirror, symmetry, join]",
        ));
}

#[test]
fn a_split_depth_is_refused_for_join_and_picks_symmetry_by_default() {
    nqueens()
        .args(["count", "12", "--engine", "join", "--split-depth", "3"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "a split depth does not apply to the join engine (it splits the board its own way) \
             (--split-depth)",
        ));
    let options = Options::default().with_split_depth(Some(3));
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

/// The default budget under `ulimit -v` grows with the limit: a larger limit never allows less
/// (glibc's per-thread arenas once took more of a larger limit than of a smaller one).
#[test]
fn the_budget_under_an_address_space_limit_grows_with_the_limit() {
    let mut allowed = Vec::new();
    for kib in [60_000, 70_000, 80_000, 100_000, 120_000, 150_000, 170_000] {
        // n = 24 on 16 threads needs 81 MiB, more than half of any of these limits; their
        // stacks fit in each (below 60,000 KiB the threads are refused first).
        let out = crate::util::under_ulimit(kib, "count 24 --engine join -j 16");
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(1), "{kib} KiB: {stderr}");
        let mib: u64 = stderr
            .trim_end()
            .strip_suffix(" MiB allowed")
            .and_then(|s| s.rsplit(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{kib} KiB: {stderr}"));
        allowed.push(mib);
    }
    assert!(
        allowed.windows(2).all(|w| w[0] <= w[1]),
        "allowed MiB by limit: {allowed:?}"
    );
}

/// The count of `n` by `decomposition`, and its plan's fingerprint.
fn decomposed(n: u32, decomposition: Decomposition) -> (u128, u32) {
    let options = Options::default()
        .with_threads(2)
        .with_engine(Some(Engine::Join))
        .with_decomposition(decomposition);
    let plan = nqueens::plan(n, &options).unwrap();
    (
        nqueens::count(n, &options).unwrap().total,
        plan.fingerprint(),
    )
}

/// Every decomposition of every board up to 17 gives the published total, each with a plan of a
/// fingerprint of its own; odd boards have no quarter turn to ask for, the other engines no
/// decomposition.
#[test]
fn every_decomposition_matches_the_table() {
    let ways = [
        Decomposition::Whole,
        Decomposition::QuarterTurn,
        Decomposition::Innermost,
    ];
    for n in (2..=16).step_by(2) {
        let known = known::known(n).unwrap().total;
        let counted = ways.map(|way| decomposed(n, way));
        for (way, (total, _)) in ways.iter().zip(&counted) {
            assert_eq!(*total, known, "n = {n}, {way}");
        }
        let mut plans: Vec<u32> = counted.iter().map(|c| c.1).collect();
        plans.sort_unstable();
        plans.dedup();
        assert_eq!(plans.len(), ways.len(), "n = {n}: {counted:?}");
        // Below n = 26 the fastest of the join engine is whole units.
        assert_eq!(decomposed(n, Decomposition::Fastest).1, counted[0].1);
    }
    // Odd boards: whole units and the innermost key, two plans.
    for n in (3..=17).step_by(2) {
        let known = known::known(n).unwrap().total;
        let (whole, key) = (
            decomposed(n, Decomposition::Whole),
            decomposed(n, Decomposition::Innermost),
        );
        assert_eq!((whole.0, key.0), (known, known), "n = {n}");
        assert_ne!(whole.1, key.1, "n = {n}");
        // Below n = 27 the fastest of the join engine is whole units.
        assert_eq!(decomposed(n, Decomposition::Fastest).1, whole.1);
    }
    // Refused: an odd board's quarter turn, and a decomposition of another engine.
    for (n, options, why) in [
        (
            15,
            Options::default().with_decomposition(Decomposition::QuarterTurn),
            "counted by their quarter turn in every decomposition",
        ),
        (
            14,
            (Options::default().with_engine(Some(Engine::Mirror)))
                .with_decomposition(Decomposition::Whole),
            "the mirror engine has no whole decomposition: decompositions are the join engine's",
        ),
    ] {
        let refused = nqueens::count(n, &options).unwrap_err().to_string();
        assert!(refused.contains(why), "{refused}");
    }
}

/// n = 18 to 22 every way (minutes: `cargo test -- --ignored`).
#[test]
#[ignore]
fn every_decomposition_counts_n_18_to_22() {
    for n in [18, 20, 22] {
        let known = known::known(n).unwrap().total;
        for decomposition in [
            Decomposition::QuarterTurn,
            Decomposition::Whole,
            Decomposition::Innermost,
        ] {
            assert_eq!(
                decomposed(n, decomposition).0,
                known,
                "n = {n}, {decomposition}"
            );
        }
    }
}

/// A join count's JSON says how many pairs its counter tested and ANDed, more on a larger board,
/// never more ANDed than tested nor tested than there are; a backtracking count says nothing of
/// pairs.
#[test]
fn a_join_count_reports_the_pairs_it_tested_and_anded() {
    let count = |n: &str, engine: &str| -> serde_json::Value {
        let out = nqueens()
            .args(["count", n, "--json", "-j", "2", "--engine", engine])
            .assert()
            .success();
        serde_json::from_slice(&out.get_output().stdout).unwrap()
    };
    let (small, large) = (count("14", "join"), count("16", "join"));
    let pairs = |c: &serde_json::Value, what: &str| c[what].as_u64().unwrap();
    let (anded, tested) = (pairs(&small, "pairs_anded"), pairs(&small, "pairs_tested"));
    assert!(0 < anded && anded <= tested, "{anded} {tested}");
    let (anded, tested) = (pairs(&large, "pairs_anded"), pairs(&large, "pairs_tested"));
    assert!(
        pairs(&small, "pairs_anded") < anded && anded < tested,
        "{anded} {tested}"
    );
    // n = 16 has C(16, 8) row sets of at most 8! × 8! pairs each; far fewer are tested.
    assert!(tested < 12_870 * 40_320 * 40_320, "{tested}");
    let backtracking = count("14", "symmetry");
    assert!(backtracking["pairs_anded"].is_null() && backtracking["pairs_tested"].is_null());
}
