//! The merge's checks, each held to a set of shard results that breaks it.

use super::*;
use crate::cluster;
use crate::exec::Unobserved;

fn shards(n: u32, k: u32) -> Vec<Input> {
    let options = Options {
        threads: 2,
        ..Options::default()
    };
    Shard::all(k)
        .map(|s| Input {
            name: format!("s{}.json", s.index()),
            text: cluster::count_shard(n, &options, s, &Unobserved)
                .unwrap()
                .json(),
        })
        .collect()
}

#[test]
fn merged_shards_equal_the_table() {
    let m = merge(&shards(10, 3), 2).unwrap();
    assert_eq!(m.counts.total, 724);
    assert_eq!(m.counts.verified(), Some(true));
    assert!(m.warnings.is_empty());
}

#[test]
fn one_file_may_hold_several_shards() {
    let all: String = shards(9, 4).into_iter().map(|i| i.text).collect();
    let m = merge(
        &[Input {
            name: "all.json".into(),
            text: all,
        }],
        1,
    )
    .unwrap();
    assert_eq!(m.counts.total, 352);
}

#[test]
fn an_absurd_number_of_shards_is_refused_before_anything_is_built() {
    let mut r: PartialResult = serde_json::from_str(&shards(8, 1)[0].text).unwrap();
    r.shards = 4_000_000_000;
    r.checksum = r.expected_checksum();
    let input = Input {
        name: "big.json".into(),
        text: r.json(),
    };
    let e = merge(&[input], 1).unwrap_err().to_string();
    assert!(
        e.contains("big.json: the number of shards must be between 1 and 1000000"),
        "{e}"
    );
}

#[test]
fn a_changed_digit_fails_the_checksum() {
    let mut inputs = shards(10, 2);
    let r: PartialResult = serde_json::from_str(&inputs[1].text).unwrap();
    let (total, changed) = (r.total.to_string(), (r.total + 10).to_string());
    inputs[1].text = inputs[1].text.replace(&total, &changed);
    let e = merge(&inputs, 1).unwrap_err().to_string();
    assert!(e.contains("s2.json: its checksum does not match"), "{e}");
}

#[test]
fn absurd_times_and_totals_are_refused_not_panicked_on() {
    let reseal = |text: &str, edit: &dyn Fn(&mut PartialResult)| {
        let mut r: PartialResult = serde_json::from_str(text).unwrap();
        edit(&mut r);
        r.checksum = r.expected_checksum();
        r.json()
    };
    let mut inputs = shards(10, 2);
    // Times and threads no shard reports: refused, each named.
    type Edit<'a> = &'a dyn Fn(&mut PartialResult);
    let absurd: [(Edit, &str); 5] = [
        (
            &|r| r.elapsed_seconds = 1e19,
            "elapsed_seconds 10000000000000000000 is not",
        ),
        (&|r| r.elapsed_seconds = 1e300, "is not a plausible time"),
        (
            &|r| r.cpu_seconds = Some(1e14),
            "cpu_seconds 100000000000000 is not",
        ),
        (&|r| r.threads = 0, "threads 0 is not a plausible number"),
        (
            &|r| r.threads = 1 << 63,
            "is not a plausible number of threads",
        ),
    ];
    for (edit, message) in absurd {
        let mut bad = inputs.clone();
        bad[0].text = reseal(&bad[0].text, edit);
        let e = merge(&bad, 1).unwrap_err().to_string();
        assert!(e.contains(message), "{e}");
    }
    // The longest plausible times add up without overflow.
    for input in &mut inputs {
        input.text = reseal(&input.text, &|r| r.elapsed_seconds = 1e10);
    }
    let m = merge(&inputs, 1).unwrap();
    assert_eq!(m.counts.total, 724);
    assert_eq!(m.counts.elapsed, Duration::from_secs(20_000_000_000));
    for input in &mut inputs {
        input.text = reseal(&input.text, &|r| r.total = u128::MAX - 1);
    }
    let e = merge(&inputs, 1).unwrap_err().to_string();
    assert!(e.contains("more than 2^128"), "{e}");
    inputs[0].text = reseal(&inputs[0].text, &|r| r.elapsed_seconds = -1.0);
    let e = merge(&inputs, 1).unwrap_err().to_string();
    assert!(
        e.contains("elapsed_seconds -1 is not a plausible time"),
        "{e}"
    );
}

/// A shard of another build's plan of the same size (one that counts its blocks otherwise)
/// is named for its plan, not taken for a copy with another total.
#[test]
fn shards_of_plans_of_one_size_that_differ_are_refused_for_their_plan() {
    let mut inputs = shards(10, 2);
    let mut other = inputs[0].clone();
    let mut r: PartialResult = serde_json::from_str(&other.text).unwrap();
    r.plan = "0badf00d".into();
    r.total += 1;
    r.checksum = r.expected_checksum();
    other.text = serde_json::to_string(&r).unwrap();
    other.name = "other.json".into();
    inputs.push(other);
    let e = merge(&inputs, 1).unwrap_err().to_string();
    assert!(
        e.contains("mixed plan fingerprint: 0badf00d in other.json;"),
        "{e}"
    );
}

#[test]
fn same_names_the_odd_ones_out() {
    let items = vec![
        ("a".to_string(), 1),
        ("b".to_string(), 2),
        ("c".to_string(), 1),
    ];
    let e = same(&items, "n", |x| *x).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot merge results of different runs: mixed n: 1 in a, c; 2 in b"
    );
}
