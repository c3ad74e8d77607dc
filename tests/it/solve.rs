//! `nqueens solve` and the listing API against the textbook solver and an independent validator.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::Mutex;

use nqueens::{known, reference, solve};
use predicates::prelude::*;

use crate::cli::refuses;
use crate::util::{is_solution, nqueens};

/// stdout and stderr of a successful `nqueens` run.
fn run(args: &[&str]) -> (String, String) {
    let out = nqueens().args(args).assert().success();
    let o = out.get_output();
    (
        String::from_utf8(o.stdout.clone()).unwrap(),
        String::from_utf8(o.stderr.clone()).unwrap(),
    )
}

fn parse_columns(text: &str) -> Vec<Vec<u8>> {
    text.lines()
        .map(|l| l.split(' ').map(|c| c.parse().unwrap()).collect())
        .collect()
}

/// The column of the `Q` in each row string.
fn columns_of_rows<S: AsRef<str>>(rows: &[S]) -> Vec<u8> {
    rows.iter()
        .map(|r| {
            let r = r.as_ref();
            assert_eq!(r.matches('Q').count(), 1, "{r}");
            assert!(r.chars().all(|c| c == 'Q' || c == '.'), "{r}");
            assert_eq!(r.len(), rows.len(), "{r}");
            r.find('Q').unwrap() as u8
        })
        .collect()
}

/// Boards separated by blank lines; the count line after the last one is returned apart.
fn parse_boards(text: &str) -> (Vec<Vec<u8>>, String) {
    let mut blocks: Vec<&str> = text.split("\n\n").collect();
    let count = blocks.pop().unwrap().trim().to_string();
    let boards = blocks
        .iter()
        .map(|b| columns_of_rows(&b.lines().collect::<Vec<_>>()))
        .collect();
    (boards, count)
}

fn parse_json(text: &str) -> Vec<Vec<u8>> {
    let boards: Vec<Vec<String>> = serde_json::from_str(text).unwrap();
    boards.iter().map(|b| columns_of_rows(b)).collect()
}

fn strictly_increasing(solutions: &[Vec<u8>]) -> bool {
    solutions.windows(2).all(|w| w[0] < w[1])
}

#[test]
fn every_solution_in_order_and_the_same_for_every_thread_count() {
    for n in 1..=12u32 {
        let arg = n.to_string();
        let (one, count) = run(&["solve", &arg, "--format", "columns", "-j", "1"]);
        let (three, _) = run(&["solve", &arg, "--format", "columns", "-j", "3"]);
        assert_eq!(one, three, "n = {n}");
        let listed = if one.is_empty() {
            Vec::new()
        } else {
            parse_columns(&one)
        };
        assert!(listed
            .iter()
            .all(|s| s.len() == n as usize && is_solution(s)));
        assert!(strictly_increasing(&listed), "n = {n}");
        assert_eq!(listed, reference::solutions(n as usize), "n = {n}");
        let total = known::known(n).unwrap().total;
        assert_eq!(
            count.trim(),
            format!(
                "{total} solution{} (as published: OEIS A000170)",
                if total == 1 { "" } else { "s" }
            )
        );
    }
}

/// The 8 images of a board, turned and mirrored as grids of characters (not with the library).
fn grid_images(cols: &[u8]) -> Vec<Vec<u8>> {
    let n = cols.len();
    let mut grid: Vec<Vec<bool>> = (0..n)
        .map(|r| (0..n).map(|c| usize::from(cols[r]) == c).collect())
        .collect();
    let mut out = Vec::new();
    for _ in 0..4 {
        // A quarter turn clockwise: new[r][c] = old[n-1-c][r].
        grid = (0..n)
            .map(|r| (0..n).map(|c| grid[n - 1 - c][r]).collect())
            .collect();
        for g in [
            grid.clone(),
            grid.iter()
                .map(|row| row.iter().rev().copied().collect())
                .collect(),
        ] {
            let g: Vec<Vec<bool>> = g;
            out.push(
                g.iter()
                    .map(|row| row.iter().position(|&q| q).unwrap() as u8)
                    .collect(),
            );
        }
    }
    out
}

#[test]
fn unique_lists_one_canonical_board_per_class() {
    for n in 1..=12u32 {
        let arg = n.to_string();
        let (text, count) = run(&["solve", &arg, "--unique", "--format", "columns", "-j", "2"]);
        let (again, _) = run(&["solve", &arg, "--unique", "--format", "columns", "-j", "1"]);
        assert_eq!(text, again, "n = {n}");
        let listed = if text.is_empty() {
            Vec::new()
        } else {
            parse_columns(&text)
        };
        let fundamental = known::known(n).unwrap().unique;
        assert_eq!(listed.len() as u128, fundamental, "n = {n}");
        assert!(count.contains("fundamental solution"), "{count}");
        assert!(strictly_increasing(&listed));
        let mut classes = BTreeSet::new();
        for s in &listed {
            assert!(is_solution(s));
            let images = grid_images(s);
            assert!(
                images.iter().all(|i| s <= i),
                "n = {n}: {s:?} is not canonical"
            );
            // No two listed boards are images of each other.
            assert!(classes.insert(images.into_iter().min().unwrap()), "n = {n}");
        }
    }
}

#[test]
fn each_format_parses_back_to_the_same_solutions() {
    for (n, extra) in [("6", &[][..]), ("8", &[][..]), ("9", &["--unique"][..])] {
        let with = |format: &str| {
            let mut args = vec!["solve", n, "--format", format];
            args.extend_from_slice(extra);
            run(&args)
        };
        let (columns, _) = with("columns");
        let (json, json_count) = with("json");
        let (board, board_count) = with("board");
        let columns = parse_columns(&columns);
        let (boards, count_line) = parse_boards(&board);
        assert_eq!(parse_json(&json), columns, "n = {n}");
        assert_eq!(boards, columns, "n = {n}");
        assert!(board_count.is_empty());
        assert_eq!(count_line, json_count.trim());
        assert!(count_line.starts_with(&format!("{} ", columns.len())));
    }
    // No solutions: still valid JSON, and a board listing that is only the count.
    assert_eq!(
        parse_json(&run(&["solve", "3", "--format", "json"]).0),
        Vec::<Vec<u8>>::new()
    );
    assert_eq!(
        run(&["solve", "2"]).0,
        "0 solutions (as published: OEIS A000170)\n"
    );
}

#[test]
fn limit_writes_the_first_k_solutions() {
    let (text, count) = run(&["solve", "10", "--format", "columns", "--limit", "7"]);
    assert_eq!(parse_columns(&text), reference::solutions(10)[..7].to_vec());
    assert_eq!(count.trim(), "7 solutions (stopped at --limit 7)");
    let (board, _) = run(&["solve", "8", "--limit", "1"]);
    assert_eq!(parse_boards(&board).0, vec![vec![0, 4, 7, 5, 2, 6, 1, 3]]);
    // A limit above the total lists everything and checks the count.
    let (_, count) = run(&["solve", "6", "--format", "json", "--limit", "100"]);
    assert_eq!(count.trim(), "4 solutions (as published: OEIS A000170)");
    // A large board with a small limit comes back at once.
    let (json, _) = run(&["solve", "27", "--format", "json", "--limit", "3", "-j", "2"]);
    let first = parse_json(&json);
    assert_eq!(first.len(), 3);
    assert!(first.iter().all(|s| is_solution(s)) && strictly_increasing(&first));
    assert_eq!(&first[0][..3], &[0, 2, 4]);
}

/// `solve 14 | head -3`: the reader had what it wanted, so the listing ends quietly with 0, as
/// ripgrep's and fd's do (a `set -o pipefail` script goes on).
#[test]
fn a_listing_cut_by_its_reader_ends_quietly() {
    for format in ["board", "columns", "json"] {
        let mut child = crate::util::process()
            .args(["solve", "14", "--format", format])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        for _ in 0..3 {
            lines.next().unwrap().unwrap();
        }
        drop(lines); // like `| head -3`
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{format}: {stderr}");
        assert!(!stderr.contains("error"), "{format}: {stderr}");
    }
}

#[test]
fn trace_shows_each_placement_and_backtrack() {
    let (text, _) = run(&["solve", "4", "--trace"]);
    assert!(text.starts_with("step 1: place a queen in row 0, column 0\nQ...\n....\n....\n....\n"));
    assert!(text.contains("backtrack: take the queen off row 1, column 2\nQ...\n....\n"));
    assert!(text.contains("solution 2: columns 2 0 3 1"));
    assert!(text
        .trim_end()
        .ends_with("2 solutions (as published: OEIS A000170)"));
    let (text, _) = run(&["solve", "8", "--trace", "--limit", "1"]);
    assert!(text.contains("solution 1: columns 0 4 7 5 2 6 1 3"));
    assert!(!text.contains("solution 2"));
    assert!(text
        .trim_end()
        .ends_with("1 solution (stopped at --limit 1)"));
}

#[test]
fn help_says_the_columns_are_0_based() {
    nqueens()
        .args(["solve", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("0-based"))
        .stdout(predicate::str::contains("nqueens solve 8 --unique"));
}

#[test]
fn bad_solve_input_gets_one_clear_line_and_status_2() {
    let cases: [(&[&str], &str); 12] = [
        (&["solve", "0"], "n must be between 1 and 32, got 0"),
        (&["solve", "33"], "n must be between 1 and 32, got 33"),
        (&["solve", "eight"], "'eight' is not a board size"),
        (&["solve", "8..9"], "is not a board size"),
        (
            &["solve", "8", "--limit", "0"],
            "at least 1 solution, got 0",
        ),
        (
            &["solve", "8", "--limit", "-2"],
            "at least 1 solution, got -2",
        ),
        (
            &["solve", "8", "--limit", "some"],
            "'some' is not a number of solutions",
        ),
        (
            &["solve", "8", "--format", "xml"],
            "possible values: board, json, columns",
        ),
        (&["solve", "8", "-j", "0"], "at least 1, got 0"),
        (
            &["solve", "8", "--trace", "--unique"],
            "cannot be used with",
        ),
        (&["solve", "8", "--trace", "-j", "2"], "cannot be used with"),
        (&["solve"], "required"),
    ];
    for (args, message) in cases {
        refuses(args, message);
    }
}

#[test]
fn library_iterator_and_parallel_visitor() {
    for n in [1u32, 4, 7, 10] {
        let slow = reference::solutions(n as usize);
        let listed: Vec<Vec<u8>> = solve::solutions(n).unwrap().collect();
        assert_eq!(listed, slow);
        let seen = Mutex::new(Vec::new());
        let count = solve::for_each(n, 3, |s| seen.lock().unwrap().push(s.to_vec())).unwrap();
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        assert_eq!(count as usize, slow.len());
        assert_eq!(seen, slow);
    }
    assert!(solve::solutions(0).is_err());
    assert!(solve::for_each(33, 1, |_| ()).is_err());
}

#[test]
fn library_listing_is_byte_for_byte_the_same_on_any_thread_count() {
    let write = |threads| {
        let options = solve::ListOptions::default().with_threads(threads);
        let mut out = Vec::new();
        let listing = solve::Listing::new(13, &options).unwrap();
        let written = listing.write(solve::Format::Columns, &mut out).unwrap();
        (written, out)
    };
    let (one, a) = write(1);
    let (four, b) = write(4);
    assert_eq!(one, 73_712);
    assert_eq!(four, one);
    assert!(a == b);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// The listing kernel lists the textbook solver's completions of any prefix, in its order.
    #[test]
    fn walker_agrees_on_random_prefixes(
        n in 1usize..=11,
        prefix in proptest::collection::vec(0u8..11, 0..6),
    ) {
        let prefix: Vec<u8> = prefix.into_iter().take(n).collect();
        let slow = reference::solutions_from(n, &prefix);
        let fast: Vec<Vec<u8>> = match solve::Walker::new(n as u32, &prefix, n) {
            Some(mut w) => std::iter::from_fn(|| w.next_placement().map(<[u8]>::to_vec)).collect(),
            None => Vec::new(),
        };
        proptest::prop_assert_eq!(fast, slow);
    }
}
