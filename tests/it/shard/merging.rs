//! `merge` from the command line: every refusal says what is wrong (missing, conflicting,
//! foreign or damaged results, mixed runs, a quorum short of hosts), and what it reads (stdin,
//! folders, the committed shards of n = 23) sums to the table.

use super::*;

#[test]
fn merge_refuses_missing_shards() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 9, 4, &[]);
    refuses(
        &[files[0].clone(), files[2].clone()],
        &[
            "missing 2 shards of 4: 2, 4",
            "s1.json (shard 1)",
            "s3.json (shard 3)",
        ],
    );
}

#[test]
fn merge_refuses_two_different_results_for_one_shard_and_warns_of_identical_ones() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 9, 3, &[]);
    let copy = dir.path().join("copy.json");
    fs::copy(&files[1], &copy).unwrap();
    let mut all = files.clone();
    all.push(copy.clone());
    let out = nqueens().arg("merge").args(&all).assert().success();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("warning: shard 2/3 is given 2 times with the same total"),
        "{stderr}"
    );
    assert!(
        stderr.contains("s2.json") && stderr.contains("copy.json"),
        "{stderr}"
    );
    let rows = crate::util::table(&String::from_utf8_lossy(&out.get_output().stdout));
    assert_eq!(
        (rows[0]["total"].as_str(), rows[0]["verified"].as_str()),
        ("352", "yes")
    );

    let mut v = read(&copy);
    let total: u128 = v["total"].as_str().unwrap().parse().unwrap();
    v["total"] = (total + 2).to_string().into();
    reseal(&mut v);
    write(&copy, &v);
    refuses(
        &all,
        &[
            "shard 2/3 has different totals",
            &format!("{total} in {}", files[1].display()),
            &format!("{} in {}", total + 2, copy.display()),
        ],
    );
}

#[test]
fn merge_refuses_results_of_different_runs() {
    let dir = TempDir::new().unwrap();
    let sub = |name: &str| {
        let d = dir.path().join(name);
        fs::create_dir(&d).unwrap();
        d
    };
    let n9 = run_shards(&sub("n9"), 9, 2, &[]);
    let n10 = run_shards(&sub("n10"), 10, 2, &[]);
    refuses(
        &[n9[0].clone(), n10[1].clone()],
        &["mixed n", "9 in", "n9/s1.json", "10 in", "n10/s2.json"],
    );

    let k3 = run_shards(&sub("k3"), 9, 3, &[]);
    refuses(
        &[n9[0].clone(), k3[1].clone()],
        &["mixed number of shards K", "2 in", "3 in"],
    );

    let mirror = ["--engine", "mirror"];
    let d3 = run_shards(
        &sub("d3"),
        9,
        2,
        &[&mirror[..], &["--split-depth", "3"]].concat(),
    );
    let d2 = run_shards(
        &sub("d2"),
        9,
        2,
        &[&mirror[..], &["--split-depth", "2"]].concat(),
    );
    refuses(
        &[d3[0].clone(), d2[1].clone()],
        &["mixed split depth", "d3/s1.json", "d2/s2.json"],
    );

    let mut v = read(&d2[1]);
    v["engine"] = "symmetry".into();
    write(&d2[1], &v);
    refuses(
        &[d2[0].clone(), d2[1].clone()],
        &["mixed engine: mirror in", "symmetry in"],
    );

    v["engine"] = "mirror".into();
    v["format_version"] = 6.into();
    write(&d2[1], &v);
    refuses(
        &[d2[0].clone(), d2[1].clone()],
        &["s2.json has format version 6; this nqueens reads versions 2, 3, 4 and 5"],
    );
    // A shard of the same run as version 2 wrote it (no CPU time) merges with version 3 ones.
    let text = fs::read_to_string(&d2[0]).unwrap();
    let old = resealed(&text, |v| {
        v["format_version"] = 2.into();
        v.as_object_mut().unwrap().remove("cpu_seconds");
    });
    let v2 = dir.path().join("d2").join("v2.json");
    fs::write(&v2, old).unwrap();
    let again = run_shards(
        &sub("d2-again"),
        9,
        2,
        &[&mirror[..], &["--split-depth", "2"]].concat(),
    );
    let report = merged(&[v2, again[1].clone()]);
    assert_eq!(report["total"], 352);
}

#[test]
fn merge_refuses_malformed_truncated_and_foreign_files() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 9, 2, &[]);
    let text = fs::read_to_string(&files[1]).unwrap();
    let bad = |name: &str, contents: &str| {
        let f = dir.path().join(name);
        fs::write(&f, contents).unwrap();
        vec![files[0].clone(), f]
    };
    refuses(
        &bad("cut.json", &text[..text.len() / 2]),
        &["cut.json is truncated"],
    );
    refuses(&bad("empty.json", ""), &["empty.json is empty"]);
    refuses(&bad("junk.json", "hello"), &["junk.json is not valid JSON"]);
    refuses(
        &bad("report.json", r#"{"n":9,"total":352}"#),
        &["report.json is not an nqueens shard result"],
    );
    refuses(
        &bad("short.json", &text.replace("\"total\"", "\"sum\"")),
        &["short.json is not a complete shard result: missing field `total`"],
    );
    let mut v = read(&files[1]);
    v["ids_digest"] = "fnv1a64:0000000000000000".into();
    refuses(
        &bad("edited.json", &v.to_string()),
        &["edited.json: its checksum does not match its contents"],
    );
    reseal(&mut v);
    refuses(
        &bad("foreign.json", &v.to_string()),
        &["foreign.json: shard 2/2 has", "but this program gives it"],
    );
    // A plan of the same size but another fingerprint: beside this program's shards it is
    // another run; alone (every shard of it) it is not this program's plan.
    v = read(&files[1]);
    v["plan"] = "00000000".into();
    reseal(&mut v);
    let other_plan = bad("other-plan.json", &v.to_string());
    refuses(
        &other_plan,
        &["mixed plan fingerprint: 00000000 in", "other-plan.json"],
    );
    let first_text = fs::read_to_string(&files[0]).unwrap();
    let mut first = read(&files[0]);
    first["plan"] = "00000000".into();
    reseal(&mut first);
    fs::write(&other_plan[0], first.to_string()).unwrap();
    refuses(
        &other_plan,
        &[": its plan", "fingerprint 00000000) is not this program's"],
    );
    fs::write(&files[0], first_text).unwrap();
    v = read(&files[1]);
    v["shard"] = 3.into();
    reseal(&mut v);
    refuses(
        &bad("three.json", &v.to_string()),
        &["three.json: shard 3/2 does not exist"],
    );
    refuses(
        &[files[0].clone(), dir.path().join("absent.json")],
        &["cannot read", "absent.json"],
    );
}

#[test]
fn merge_reads_no_device_and_no_huge_file() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 9, 2, &[]);
    refuses(
        &[files[0].clone(), PathBuf::from("/dev/zero")],
        &["cannot read /dev/zero: it is not a file of shard results"],
    );
    let huge = dir.path().join("huge.json");
    let file = fs::File::create(&huge).unwrap();
    file.set_len(merge::MAX_INPUT_BYTES + 1).unwrap();
    refuses(
        &[files[0].clone(), huge],
        &["huge.json: it holds more than 64 MiB"],
    );
}

#[test]
fn a_wrong_total_is_caught_by_the_checksum_and_a_forged_one_by_the_table() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 10, 2, &[]);
    let mut v = read(&files[0]);
    let total: u128 = v["total"].as_str().unwrap().parse().unwrap();
    v["total"] = (total + 2).to_string().into();
    write(&files[0], &v);
    refuses(
        &files,
        &["s1.json: its checksum does not match its contents"],
    );
    // A forged file, checksum and all, is still caught by the table.
    reseal(&mut v);
    write(&files[0], &v);
    nqueens()
        .arg("merge")
        .args(&files)
        .assert()
        .code(1)
        .stdout(predicates::str::contains("NO (expected 724 / 92)"))
        .stderr(predicates::str::contains(
            "error: the merged total of n = 10 is 726, not the published 724",
        ));
}

/// Shard files, merge's table and its JSON say how the count was made: the plan's fingerprint
/// and, on an even board, its decomposition; the table's seconds are the shards' summed.
#[test]
fn merged_results_name_their_plan_and_decomposition() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 16, 2, &[]);
    let shard = read(&files[0]);
    assert_eq!(shard["decomposition"], "whole");
    assert_eq!(shard["format_version"], 5);
    let report = merged(&files);
    assert_eq!(
        (&report["plan"], &report["decomposition"]),
        (&shard["plan"], &shard["decomposition"])
    );
    let out = nqueens().arg("merge").args(&files).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        text.lines().next().unwrap().contains("shard_secs"),
        "{text}"
    );
    let plan = shard["plan"].as_str().unwrap();
    assert!(
        text.contains(&format!(
            "# n = 16: 2 shards of plan {plan}, decomposition whole"
        )),
        "{text}"
    );
    // An odd board names its decomposition too.
    let odd = run_shards(&dir.path().join("odd"), 15, 2, &[]);
    assert_eq!(read(&odd[0])["decomposition"], "whole");
}

/// `merge --json` of `files`, the campaigns of one board by several decompositions: each line
/// of its output, every one `total` and confirmed, and what it said on stderr.
fn merged_confirmed(files: &[PathBuf], total: u64) -> (Vec<Value>, String) {
    let out = nqueens()
        .args(["merge", "--json"])
        .args(files)
        .assert()
        .success();
    let out = out.get_output();
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for line in &lines {
        assert_eq!(
            (line["total"].as_u64(), &line["confirmed"]),
            (Some(total), &true.into())
        );
    }
    (lines, String::from_utf8_lossy(&out.stderr).to_string())
}

/// An odd board's two decompositions (whole units and the innermost key), merged together,
/// confirm each other; their shards mixed in one set are refused.
#[test]
fn an_odd_board_is_confirmed_by_its_innermost_key() {
    let dir = TempDir::new().unwrap();
    let whole = run_shards(&dir.path().join("whole"), 15, 2, &[]);
    let inner = run_shards(
        &dir.path().join("inner"),
        15,
        3,
        &["--decomposition", "innermost"],
    );
    assert_eq!(read(&inner[0])["decomposition"], "innermost");
    let (_, stderr) = merged_confirmed(&[whole.clone(), inner.clone()].concat(), 2_279_184);
    assert!(
        stderr.contains("confirmed: the whole and innermost decompositions give the same total"),
        "{stderr}"
    );
    refuses(
        &[whole[0].clone(), inner[1].clone(), inner[2].clone()],
        &["cannot merge results of different runs: mixed"],
    );
}

/// The decompositions' campaigns of one board, merged together, give every total and say
/// whether they agree; shards of two mixed in one set are still refused.
#[test]
fn a_count_confirmed_by_the_other_decompositions_merges_as_each() {
    let dir = TempDir::new().unwrap();
    let whole = run_shards(&dir.path().join("whole"), 16, 2, &[]);
    let turn = run_shards(
        &dir.path().join("turn"),
        16,
        3,
        &["--decomposition", "quarter-turn"],
    );
    let inner = run_shards(
        &dir.path().join("inner"),
        16,
        2,
        &["--decomposition", "innermost"],
    );
    let all = [whole.clone(), turn.clone(), inner.clone()].concat();
    let (lines, stderr) = merged_confirmed(&all, 14_772_512);
    let names: Vec<&str> = (lines.iter())
        .map(|l| l["decomposition"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["whole", "quarter-turn", "innermost"]);
    assert!(
        stderr.contains(
            "confirmed: the whole, quarter-turn and innermost decompositions give the same total"
        ),
        "{stderr}"
    );
    // Two of them: the message of two.
    let out = nqueens()
        .arg("merge")
        .args([whole.clone(), turn.clone()].concat())
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("confirmed: the whole and quarter-turn decompositions give the same total"),
        "{stderr}"
    );
    refuses(
        &[whole[0].clone(), turn[1].clone(), turn[2].clone()],
        &["cannot merge results of different runs: mixed"],
    );
    refuses(
        &[inner[0].clone(), turn[1].clone(), turn[2].clone()],
        &["cannot merge results of different runs: mixed"],
    );
}

#[test]
fn merge_reads_the_shards_from_stdin() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 12, 3, &[]);
    let mut all = Vec::new();
    for file in &files {
        all.extend(fs::read(file).unwrap());
    }
    let out = nqueens()
        .args(["merge", "-", "--json"])
        .write_stdin(all.clone())
        .assert()
        .success();
    let json: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(json["total"].as_u64(), Some(14_200));
    assert_eq!(json["verified"], true);
    // Stdin with one shard short is refused like files are, naming the missing one.
    let two: Vec<u8> = files[..2]
        .iter()
        .flat_map(|f| fs::read(f).unwrap())
        .collect();
    nqueens()
        .args(["merge", "-"])
        .write_stdin(two)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicates::str::contains("3"));
    // Nothing on stdin is no run at all.
    nqueens()
        .args(["merge", "-"])
        .write_stdin(Vec::new())
        .assert()
        .code(1)
        .stdout("");
}

#[test]
fn what_merge_quotes_of_a_file_is_escaped_and_cut() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 8, 2, &[]);
    let text = fs::read_to_string(&files[1]).unwrap();
    // A host of 10 MB with a terminal escape in it, and a checksum that matches: merge quotes
    // the file's program version and host nowhere in full.
    let hostile = format!("\u{1b}[2J{}", "h".repeat(10_000_000));
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["engine"] = hostile.clone().into();
    fs::write(&files[1], v.to_string()).unwrap();
    let out = nqueens()
        .arg("merge")
        .args(&files)
        .assert()
        .code(1)
        .stdout("");
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(!stderr.contains('\u{1b}'), "an escape got through");
    assert!(stderr.len() < 2_000, "{} bytes of message", stderr.len());
    assert!(
        stderr.contains("mixed engine"),
        "{}",
        &stderr[..stderr.len().min(500)]
    );
    assert!(
        stderr.contains("\\u{1b}[2Jhhhh"),
        "{}",
        &stderr[..stderr.len().min(500)]
    );
}

#[test]
fn merge_names_missing_shards_from_the_files_before_it_builds_a_plan() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 8, 3, &[]);
    // Shards that say n = 33: no plan of theirs can be built, so only a check of the files
    // alone can name the missing shard.
    let edited: Vec<PathBuf> = files[..2]
        .iter()
        .map(|f| {
            let text = resealed(&fs::read_to_string(f).unwrap(), |v| v["n"] = 33.into());
            fs::write(f, text).unwrap();
            f.clone()
        })
        .collect();
    nqueens()
        .args(["merge", "--quorum", "1"])
        .args(&edited)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicates::str::starts_with(
            "error: cannot merge: missing 1 shard of 3: 3",
        ));
    // Lists are capped: one shard of 10,000 names 20 missing ones and how many more.
    let one = run_shards(&dir.path().join("one"), 8, 1, &[]);
    let text = resealed(&fs::read_to_string(&one[0]).unwrap(), |v| {
        v["shards"] = 10_000.into()
    });
    fs::write(&one[0], text).unwrap();
    let out = nqueens().arg("merge").args(&one).assert().code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("missing 9999 shards of 10000: 2, 3, 4")
            && stderr.contains("and 9,979 more"),
        "{stderr}"
    );
    assert!(stderr.len() < 500, "{stderr}");
}

#[test]
fn a_quorum_asks_for_every_shard_from_different_hosts_with_equal_totals() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 9, 2, &[]);
    // The same shards as another host wrote them.
    let elsewhere: Vec<PathBuf> = files
        .iter()
        .map(|f| {
            let copy = f.with_file_name(format!("b-{}", f.file_name().unwrap().to_string_lossy()));
            let text = resealed(&fs::read_to_string(f).unwrap(), |v| {
                v["host"] = "node-b".into();
                v["machine"] = "machine-id:00000000000000b1 boot-id:00000000000000b2".into();
            });
            fs::write(&copy, text).unwrap();
            copy
        })
        .collect();
    let all: Vec<PathBuf> = files.iter().chain(&elsewhere).cloned().collect();
    let out = nqueens()
        .args(["merge", "--quorum", "2", "--json"])
        .args(&all)
        .assert()
        .success();
    let report: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(
        (report["total"].as_u64(), report["verified"].as_bool()),
        (Some(352), Some(true))
    );
    // Shard 2 from one host only: refused, naming it and its host.
    let out = nqueens()
        .args(["merge", "--quorum", "2"])
        .args([&files[0], &files[1], &elsewhere[0]])
        .assert()
        .code(1)
        .stdout("");
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("a quorum of 2 asks for every shard counted on 2 different machines")
            && stderr.contains("shard 2/2 on 1 machine"),
        "{stderr}"
    );
    // Two copies from one host are one machine: a copy, a copy renamed (`unshare -u` and
    // `hostname`, or a container: the same boot id), and names that differ only in case,
    // spaces or a NUL.
    let twin = dir.path().join("twin.json");
    fs::copy(&files[1], &twin).unwrap();
    let host = read(&files[1])["host"].as_str().unwrap().to_string();
    for (i, rename) in [
        "node-z".to_string(),
        host.to_uppercase(),
        format!("{host} "),
        format!("{host}\0"),
    ]
    .into_iter()
    .enumerate()
    {
        let renamed = dir.path().join(format!("renamed-{i}.json"));
        let machine = read(&files[1])["machine"].clone();
        let text = resealed(&fs::read_to_string(&files[1]).unwrap(), |v| {
            v["host"] = rename.clone().into();
            if i > 0 {
                // Names alone, as an older file without an identity would give them.
                v.as_object_mut().unwrap().remove("machine");
            } else {
                v["machine"] = machine.clone();
            }
        });
        fs::write(&renamed, text).unwrap();
        for twin in [&twin, &renamed] {
            nqueens()
                .args(["merge", "--quorum", "2"])
                .args([&files[0], &files[1], &elsewhere[0], twin])
                .assert()
                .code(1)
                .stderr(predicates::str::contains("shard 2/2 on 1 machine"));
        }
    }
    // A copy under another name with no machine identity (an older format, or `machine: ""`)
    // is no machine unless the user vouches for host names; then it is node-c.
    for (i, machine) in [None, Some("")].into_iter().enumerate() {
        let anonymous = dir.path().join(format!("anonymous-{i}.json"));
        let text = resealed(&fs::read_to_string(&files[1]).unwrap(), |v| {
            v["host"] = " Node C ".into();
            match machine {
                Some(m) => v["machine"] = m.into(),
                None => {
                    v.as_object_mut().unwrap().remove("machine");
                }
            }
        });
        fs::write(&anonymous, text).unwrap();
        let set = [&files[0], &files[1], &elsewhere[0], &anonymous];
        nqueens()
            .args(["merge", "--quorum", "2"])
            .args(set)
            .assert()
            .code(1)
            .stderr(predicates::str::contains("shard 2/2 on 1 machine"));
        nqueens()
            .args(["merge", "--quorum", "2", "--trust-host-names"])
            .args(set)
            .assert()
            .success();
    }
    // Two hosts that disagree: both files named, exit 1.
    let wrong = resealed(&fs::read_to_string(&elsewhere[1]).unwrap(), |v| {
        v["total"] = "1".into()
    });
    fs::write(&elsewhere[1], wrong).unwrap();
    let out = nqueens()
        .args(["merge", "--quorum", "2"])
        .args(&all)
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("shard 2/2 has different totals")
            && stderr.contains("b-s2.json")
            && stderr.contains("/s2.json"),
        "{stderr}"
    );
}

#[test]
fn above_the_table_merge_asks_for_a_quorum() {
    let dir = TempDir::new().unwrap();
    let files = run_shards(dir.path(), 9, 1, &[]);
    let text = resealed(&fs::read_to_string(&files[0]).unwrap(), |v| {
        v["n"] = 28.into()
    });
    fs::write(&files[0], text).unwrap();
    nqueens()
        .arg("merge")
        .args(&files)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicates::str::starts_with(
            "error: n = 28 has no published count to check the total against: count every shard \
             twice, on different hosts, and merge with a quorum of 2 (or accept one count of each with \
             a quorum of 1) (--quorum)",
        ));
}

#[test]
fn merge_reads_a_folder_of_shard_files() {
    let dir = TempDir::new().unwrap();
    let run = dir.path().join("run");
    fs::create_dir(&run).unwrap();
    run_shards(&run, 10, 3, &[]);
    // Anything that is not a .json file is passed over.
    fs::write(run.join("merge.log"), "not a result").unwrap();
    let report = merged(std::slice::from_ref(&run));
    assert_eq!(
        (report["total"].as_u64(), report["verified"].as_bool()),
        (Some(724), Some(true))
    );
    let empty = dir.path().join("empty");
    fs::create_dir(&empty).unwrap();
    refuses(&[empty], &["the folder holds no .json file"]);
}

/// Q(23) as counted in 64 shards and committed under `results/n23`: the files are the shards of
/// this program's plan, and they add up to the published count.
#[test]
fn the_committed_shards_of_n_23_merge_to_the_published_count() {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/results/n23"));
    let report = merged(&[dir]);
    assert_eq!(report["total"].as_u64(), Some(24_233_937_684_440));
    assert_eq!(report["unique"].as_u64(), Some(3_029_242_658_210));
    assert_eq!(report["verified"].as_bool(), Some(true));
}

/// Shards of the two decompositions of an even board each merge to the published count, and
/// never with each other: their plans' fingerprints differ.
#[test]
fn merge_never_mixes_the_decompositions_of_a_board() {
    let dir = TempDir::new().unwrap();
    let mut files = Vec::new();
    for decomposition in ["quarter-turn", "whole"] {
        let folder = dir.path().join(decomposition);
        fs::create_dir(&folder).unwrap();
        files.push(run_shards(
            &folder,
            14,
            2,
            &["--decomposition", decomposition],
        ));
        let report = merged(&files[files.len() - 1]);
        assert_eq!(report["total"], 365_596, "{decomposition}: {report}");
        // status reads the folder by the plan its files name.
        let out = nqueens().arg("status").arg(&folder).assert().success();
        let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        assert!(
            text.contains("100.00% of the work done") && !text.contains("warning"),
            "{text}"
        );
    }
    let out = nqueens()
        .arg("merge")
        .args([&files[0][0], &files[1][1]])
        .assert()
        .code(1);
    let said = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(said.contains("plan fingerprint"), "{said}");
}

/// A checkpoint given to merge is named as one, not as broken JSON.
#[test]
fn a_checkpoint_given_to_merge_is_called_one() {
    let dir = TempDir::new().unwrap();
    let ckpt = dir.path().join("shard-1.ckpt");
    nqueens()
        .args(["count", "10", "--shard", "1/2", "-q", "-o"])
        .arg(dir.path().join("shard-1.json"))
        .arg("--checkpoint")
        .arg(&ckpt)
        .assert()
        .success();
    refuses(
        &[ckpt],
        &["shard-1.ckpt is a checkpoint, not a shard result"],
    );
}
