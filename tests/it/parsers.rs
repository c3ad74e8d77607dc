//! No input file makes the program panic: the shard-result (merge) and checkpoint parsers, fed
//! mutated copies of real files and fields replaced by arbitrary JSON, answer with a count or a
//! refusal, never a panic and never a count that differs from the table.

use std::sync::OnceLock;

use nqueens::cluster::{self as merge, Input};
use nqueens::cluster::{self, Shard};
use nqueens::exec::Unobserved;
use nqueens::exec::Writer;
use nqueens::Search;
use nqueens::{known, Options};

use crate::util::identity;
use proptest::prelude::*;
use serde_json::Value;

/// The two shard results of n = 9 split 2 ways.
fn shard_texts() -> &'static [String; 2] {
    static TEXTS: OnceLock<[String; 2]> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let options = Options::default().with_threads(1);
        [1, 2].map(|i| {
            cluster::count_shard(9, &options, Shard::new(i, 2).unwrap(), &Unobserved)
                .unwrap()
                .json()
        })
    })
}

/// A byte-level mutation: overwrite, insert or cut at a position given as a fraction.
#[derive(Debug, Clone)]
enum Mutation {
    Overwrite(f64, u8),
    Insert(f64, String),
    Cut(f64),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (0.0..1.0, any::<u8>()).prop_map(|(at, b)| Mutation::Overwrite(at, b)),
        (0.0..1.0, "[0-9a-z\"{}:,. \\-e]{1,12}").prop_map(|(at, s)| Mutation::Insert(at, s)),
        (0.0..1.0).prop_map(Mutation::Cut),
    ]
}

fn apply(text: &str, mutations: &[Mutation]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for m in mutations {
        let at = |f: f64| ((bytes.len() as f64 * f) as usize).min(bytes.len());
        match m {
            Mutation::Overwrite(f, b) => {
                let i = at(*f).min(bytes.len().saturating_sub(1));
                if let Some(x) = bytes.get_mut(i) {
                    *x = *b;
                }
            }
            Mutation::Insert(f, s) => {
                let i = at(*f);
                bytes.splice(i..i, s.bytes());
            }
            Mutation::Cut(f) => bytes.truncate(at(*f)),
        }
    }
    bytes
}

/// Arbitrary JSON values, the strange ones likely.
fn json_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop::num::f64::ANY.prop_map(Value::from),
        Just(Value::from(1e19)),
        Just(Value::from(-1.0)),
        "[0-9]{0,45}".prop_map(Value::from),
        ".{0,20}".prop_map(Value::from),
        Just(serde_json::json!([1, 2])),
        Just(serde_json::json!({"a": 1})),
    ]
}

const FIELDS: [&str; 18] = [
    "format",
    "format_version",
    "program_version",
    "n",
    "engine",
    "split_depth",
    "plan_subproblems",
    "plan",
    "shard",
    "shards",
    "subproblems",
    "ids_digest",
    "total",
    "elapsed_seconds",
    "cpu_seconds",
    "threads",
    "host",
    "checksum",
];

/// Merges `second` with the intact first shard. A count must be the table's, unless the file was
/// forged (`forged`: edited, with its checksum made to match): then the table must catch it.
fn merge_with_first(second: String, forged: bool) {
    let inputs = [
        Input {
            name: "s1.json".into(),
            text: shard_texts()[0].clone(),
        },
        Input {
            name: "s2.json".into(),
            text: second,
        },
    ];
    if let Ok(m) = merge::merge(&inputs, 1) {
        let right = m.counts.total == known::known(9).unwrap().total;
        assert!(
            right || forged,
            "a wrong total {} got through",
            m.counts.total
        );
        assert_eq!(m.counts.verified(), Some(right));
    }
}

/// A real checkpoint of the mirror plan of n = 8, with a few records.
fn checkpoint_text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ck");
        let (writer, _) = Writer::open(&path, &identity()).unwrap();
        for id in 0..6 {
            let found = Search::new(id as u64 + 1, 0);
            writer.record(id, &found);
        }
        writer.finish().unwrap();
        std::fs::read_to_string(&path).unwrap()
    })
}

/// The untouched inputs are accepted: the mutation tests below would pass if every input were
/// refused, so this holds the parsers to reading the real thing.
#[test]
fn untouched_files_are_accepted() {
    let inputs: Vec<Input> = shard_texts()
        .iter()
        .enumerate()
        .map(|(i, text)| Input {
            name: format!("s{}.json", i + 1),
            text: text.clone(),
        })
        .collect();
    let merged = merge::merge(&inputs, 1).expect("two intact shards merge");
    assert_eq!(merged.counts.total, known::known(9).unwrap().total);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ck");
    std::fs::write(&path, checkpoint_text()).unwrap();
    let (writer, saved) = Writer::open(&path, &identity()).expect("an intact checkpoint opens");
    writer.finish().unwrap();
    assert_eq!(saved.finished.len(), 6);
}

/// The places between JSON tokens where white space may go: after `{`, `[`, `,` and `:`.
fn gaps(text: &str) -> Vec<usize> {
    let mut in_string = false;
    let mut out = Vec::new();
    for (i, c) in text.char_indices() {
        match c {
            '"' => in_string = !in_string,
            '{' | '[' | ',' | ':' if !in_string => out.push(i + 1),
            _ => {}
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Benign changes (white space between tokens, the fields in another order) are accepted
    /// and merge to the table's count.
    #[test]
    fn merge_accepts_benign_changes(
        spaces in prop::collection::vec((any::<prop::sample::Index>(), "[ \t\n\r]{1,4}"), 0..6),
        reorder in any::<bool>(),
    ) {
        let mut text = if reorder {
            // serde_json's map keeps its keys sorted: another order than the writer's.
            serde_json::from_str::<Value>(&shard_texts()[1]).unwrap().to_string()
        } else {
            shard_texts()[1].clone()
        };
        for (at, ws) in spaces {
            let places = gaps(&text);
            let i = places[at.index(places.len())];
            text.insert_str(i, &ws);
        }
        let inputs = [
            Input { name: "s1.json".into(), text: shard_texts()[0].clone() },
            Input { name: "s2.json".into(), text },
        ];
        let merged = merge::merge(&inputs, 1);
        prop_assert!(merged.is_ok(), "{:?}", merged.err().map(|e| e.to_string()));
        prop_assert_eq!(merged.unwrap().counts.total, known::known(9).unwrap().total);
    }

    /// A checkpoint whose last record was torn by a crash (cut anywhere before its newline) is
    /// accepted: the torn record is dropped and every other one read.
    #[test]
    fn a_torn_last_record_is_accepted(cut in 1usize..16) {
        // The records without the run's time line, so that the last line is a record.
        let text: String = checkpoint_text()
            .lines()
            .filter(|l| !l.starts_with("time "))
            .map(|l| format!("{l}\n"))
            .collect();
        let last_start = text.trim_end_matches('\n').rfind('\n').unwrap() + 1;
        let last_len = text.len() - 1 - last_start;
        let torn = &text[..last_start + cut.min(last_len)];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ck");
        std::fs::write(&path, torn).unwrap();
        let opened = Writer::open(&path, &identity());
        prop_assert!(opened.is_ok(), "{:?}", opened.err().map(|e| e.to_string()));
        let (writer, saved) = opened.unwrap();
        writer.finish().unwrap();
        prop_assert_eq!(saved.finished.len(), 5);
        prop_assert_eq!(saved.torn_line, Some(7));
    }

    #[test]
    fn merge_survives_mutated_files(mutations in prop::collection::vec(mutation(), 1..4)) {
        let bytes = apply(&shard_texts()[1], &mutations);
        merge_with_first(String::from_utf8_lossy(&bytes).into_owned(), false);
    }

    #[test]
    fn merge_survives_any_field_value(field in 0..FIELDS.len(), value in json_value(), reseal in any::<bool>()) {
        let mut v: Value = serde_json::from_str(&shard_texts()[1]).unwrap();
        v[FIELDS[field]] = value;
        if reseal {
            // With a checksum that matches, the checks behind it are reached too.
            if let Ok(r) = serde_json::from_value::<cluster::PartialResult>(v.clone()) {
                v["checksum"] = r.expected_checksum().into();
            }
        }
        merge_with_first(v.to_string(), reseal);
    }

    /// A result written and read back keeps its checksum, whatever its time: every `f64` goes
    /// through JSON and back to the same bits (serde_json's `float_roundtrip`).
    #[test]
    fn a_result_read_back_keeps_its_checksum(seconds in 0.0f64..1e7, threads in 1usize..512) {
        let mut r: cluster::PartialResult = serde_json::from_str(&shard_texts()[0]).unwrap();
        r.elapsed_seconds = seconds;
        r.threads = threads;
        r.checksum = r.expected_checksum();
        let back: cluster::PartialResult = serde_json::from_str(&r.json()).unwrap();
        prop_assert_eq!(back.elapsed_seconds.to_bits(), seconds.to_bits());
        prop_assert_eq!(back.checksum.clone(), back.expected_checksum());
    }

    #[test]
    fn checkpoints_survive_mutation(mutations in prop::collection::vec(mutation(), 1..4)) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ck");
        std::fs::write(&path, apply(checkpoint_text(), &mutations)).unwrap();
        if let Ok((writer, saved)) = Writer::open(&path, &identity()) {
            writer.finish().unwrap();
            // Whatever is read back is what was written, never an altered count.
            for (id, found) in saved.finished {
                prop_assert_eq!(found.solutions, id as u64 + 1);
            }
        }
    }
}
