//! The checkpoint file: written, read back, torn, damaged and locked.

use super::*;

#[test]
fn a_foreign_header_is_quoted_escaped_cut_and_capped() {
    let mut body = String::from("nqueens-checkpoint format=2 program=0.1.0 n=\u{1b}[2J");
    body.push_str(&"9".repeat(100_000));
    for k in 0..1000 {
        body.push_str(&format!(" extra{k}=1"));
    }
    let line = format!("{body} crc={:08x}", crc32fast::hash(body.as_bytes()));
    let differences = identity().compare(&line).unwrap().expect("it differs");
    assert!(!differences.contains('\u{1b}'), "an escape got through");
    assert!(differences.contains("n is \\u{1b}[2J999"), "{differences}");
    assert!(differences.len() < 2_000, "{} bytes", differences.len());
    assert!(differences.ends_with("more"), "{differences}");
}

fn identity() -> Identity {
    Identity::new(
        &Plan::new(crate::Engine::Mirror, 8, 2).unwrap(),
        false,
        "all",
    )
}

fn file(records: &[(usize, u64)]) -> String {
    let mut text = identity().header();
    for &(id, solutions) in records {
        text += &record_line(
            identity().plan,
            id,
            &Search {
                solutions,
                nodes: 0,
            },
        );
    }
    text
}

#[test]
fn runs_record_their_time_and_a_version_2_file_is_resumed_without() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ck");
    for round in 1..=3u64 {
        let (writer, saved) = Writer::open(&path, &identity()).unwrap();
        assert_eq!(saved.runs.len() as u64, round - 1);
        writer.record(
            round as usize,
            &Search {
                solutions: 1,
                nodes: 0,
            },
        );
        std::thread::sleep(Duration::from_millis(20));
        writer.finish().unwrap();
    }
    let text = fs::read_to_string(&path).unwrap();
    let saved = accepted(&text);
    assert_eq!(
        saved.runs.keys().copied().collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    let (wall, _cpu) = saved.earlier();
    assert!(wall >= Duration::from_millis(60), "{wall:?}");
    // A changed digit in a time line is damage, as in a record.
    let line = text.lines().position(|l| l.starts_with("time 2 ")).unwrap() + 1;
    let bad = text.replacen("time 2 ", "time 7 ", 1);
    assert_eq!(damaged_line(&bad), line);
    // A version 2 file: its header as that version wrote it, records and no time lines.
    let old = text
        .lines()
        .filter(|l| !l.starts_with("time "))
        .skip(1)
        .fold(v2_header(), |t, l| t + l + "\n");
    fs::write(&path, &old).unwrap();
    let (writer, saved) = Writer::open(&path, &identity()).unwrap();
    assert_eq!((saved.finished.len(), saved.runs.len()), (3, 0));
    writer.record(
        9,
        &Search {
            solutions: 1,
            nodes: 0,
        },
    );
    writer.finish().unwrap();
    let resumed = fs::read_to_string(&path).unwrap();
    assert!(
        resumed.starts_with(&v2_header()) && !resumed.contains("time "),
        "{resumed}"
    );
}

/// This identity's header as version 2 wrote it.
fn v2_header() -> String {
    header_of_version(2)
}

/// This identity's header as version `v` wrote it.
fn header_of_version(v: u32) -> String {
    let body = identity().header().split(" crc=").next().unwrap().replacen(
        "format=4",
        &format!("format={v}"),
        1,
    );
    format!("{body} crc={:08x}\n", crc32fast::hash(body.as_bytes()))
}

/// A part line of this identity's plan.
fn part_line(id: usize, done: u32, solutions: u64) -> String {
    let body = part_body(id, Part::new(done, solutions));
    format!("{body} {}\n", record_crc(identity().plan, &body))
}

/// Part lines read back: the furthest of each piece counts; a line changed, from another plan,
/// or saying other counts at the same part is damage; a version 3 file takes none.
#[test]
fn parts_read_back_and_the_furthest_counts() {
    let text = file(&[(3, 7)]) + &part_line(5, 2, 40) + &part_line(5, 4, 90) + &part_line(5, 3, 60);
    let saved = accepted(&text);
    assert_eq!(saved.parts[&5], (Part::new(4, 90), 4));
    assert_eq!(saved.finished.len(), 1);
    let again = text.clone() + &part_line(5, 4, 91);
    assert_eq!(damaged_line(&again), 6);
    assert_eq!(
        damaged_line(&text.replacen("part 5 4 90", "part 5 4 99", 1)),
        4
    );
    assert_eq!(damaged_line(&(file(&[]) + &part_line(99, 1, 1))), 2);
    assert_eq!(damaged_line(&(file(&[]) + "part 1 2\n")), 2);
    let other = Plan::new(crate::Engine::Mirror, 8, 3)
        .unwrap()
        .fingerprint();
    let body = part_body(1, Part::new(1, 1));
    let spliced = file(&[]) + &format!("{body} {}\n", record_crc(other, &body));
    assert_eq!(damaged_line(&spliced), 2);
    // Written by a run, read back by the next; a version 3 file is resumed and takes none.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ck");
    let (writer, _) = Writer::open(&path, &identity()).unwrap();
    writer.record_part(6, Part::new(1, 11));
    writer.finish().unwrap();
    let (writer, saved) = Writer::open(&path, &identity()).unwrap();
    assert_eq!(saved.parts[&6].0, Part::new(1, 11));
    writer.finish().unwrap();
    fs::write(&path, header_of_version(3)).unwrap();
    let (writer, saved) = Writer::open(&path, &identity()).unwrap();
    assert!(saved.parts.is_empty());
    writer.record_part(6, Part::new(1, 11));
    writer.finish().unwrap();
    assert!(!fs::read_to_string(&path).unwrap().contains("part "));
}

fn accepted(text: &str) -> Saved {
    parse(text.as_bytes(), &identity()).ok().expect("accepted")
}

fn damaged_line(text: &str) -> usize {
    match parse(text.as_bytes(), &identity()) {
        Err(Problem::Damaged(line, _)) => line,
        Err(_) => panic!("another error"),
        Ok(_) => panic!("accepted"),
    }
}

#[test]
fn records_read_back() {
    let saved = accepted(&file(&[(3, 7), (0, 2)]));
    assert_eq!(saved.finished.len(), 2);
    assert_eq!(saved.finished[&3].solutions, 7);
    assert_eq!(saved.torn_line, None);
}

#[test]
fn a_torn_last_record_is_dropped() {
    let whole = file(&[(3, 7), (0, 2)]);
    let torn = &whole[..whole.len() - 4];
    let saved = accepted(torn);
    assert_eq!(saved.finished.len(), 1);
    assert_eq!(saved.torn_line, Some(3));
    assert_eq!(saved.valid_len as usize, file(&[(3, 7)]).len());
}

#[test]
fn damage_is_found_and_placed() {
    let text = file(&[(3, 7), (0, 2), (1, 4)]);
    assert_eq!(damaged_line(&text.replacen("\n3 7 ", "\n3 8 ", 1)), 2);
    assert_eq!(damaged_line(&text.replacen("\n0 2 0", "\n0 2", 1)), 3);
    assert_eq!(damaged_line(&(file(&[(2, 1)]) + "garbage\n")), 3);
    assert_eq!(damaged_line(&text.replacen("format=4", "format=5", 1)), 1);
    assert_eq!(damaged_line(&file(&[(99, 1)])), 2); // not in the plan
}

#[test]
fn a_duplicate_counts_once_and_a_contradiction_is_refused() {
    let saved = accepted(&file(&[(3, 7), (3, 7)]));
    assert_eq!(saved.finished.len(), 1);
    assert_eq!(damaged_line(&file(&[(3, 7), (3, 6)])), 3);
}

#[test]
fn a_record_from_another_plan_fails_its_checksum() {
    let other = Plan::new(crate::Engine::Mirror, 8, 3)
        .unwrap()
        .fingerprint();
    assert_ne!(other, identity().plan);
    let found = Search {
        solutions: 7,
        nodes: 0,
    };
    let spliced = identity().header() + &record_line(other, 3, &found);
    assert_eq!(damaged_line(&spliced), 2);
}

#[test]
fn a_second_writer_is_refused_and_told_who_holds_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ck");
    let (first, _) = Writer::open(&path, &identity()).unwrap();
    let refused = Writer::open(&path, &identity()).err().expect("refused");
    let text = refused.to_string();
    assert!(matches!(refused, CheckpointError::Locked { .. }), "{text}");
    assert!(
        text.contains(&format!("is in use by process {}", std::process::id())),
        "{text}"
    );
    first.finish().unwrap();
    // Released with the writer.
    let (again, saved) = Writer::open(&path, &identity()).unwrap();
    assert!(saved.finished.is_empty());
    again.finish().unwrap();
}

#[test]
fn a_header_torn_by_a_crash_is_written_anew() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ck");
    let header = identity().header();
    fs::write(&path, &header[..20]).unwrap();
    let (writer, saved) = Writer::open(&path, &identity()).unwrap();
    writer.record(
        2,
        &Search {
            solutions: 4,
            nodes: 0,
        },
    );
    writer.finish().unwrap();
    assert!(saved.finished.is_empty());
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(&header), "{text}");
    assert_eq!(accepted(&text).finished[&2].solutions, 4);
    // Text of another kind, without a newline, is not taken for a torn header.
    fs::write(&path, "my notes").unwrap();
    let refused = Writer::open(&path, &identity()).err().expect("refused");
    assert!(matches!(refused, CheckpointError::NotACheckpoint { .. }));
    assert_eq!(fs::read_to_string(&path).unwrap(), "my notes");
}

#[test]
fn another_run_is_named() {
    let other = Identity::new(
        &Plan::new(crate::Engine::Mirror, 9, 3).unwrap(),
        false,
        "all",
    );
    match parse(other.header().as_bytes(), &identity()) {
        Err(Problem::OtherRun(d)) => {
            assert!(d.contains("n is 9 in the file but 8 here"), "{d}");
            assert!(d.contains("split-depth is 3 in the file but 2 here"), "{d}");
        }
        _ => panic!("accepted another run"),
    }
    assert!(matches!(
        parse(b"hello\n", &identity()),
        Err(Problem::NotACheckpoint)
    ));
}
