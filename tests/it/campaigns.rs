//! Several campaigns of one board in one set (decompositions, values of K): what each lacks is
//! named, and two that disagree say of which board.

use std::path::Path;

use crate::util::nqueens;

/// Counts shard `i` of `k` of `n` by `decomposition` into `dir/name`.
fn shard(dir: &Path, name: &str, n: u32, i: u32, k: u32, decomposition: &str) {
    let extra = ["-j", "1", "--decomposition", decomposition];
    crate::util::count_shard(&dir.join(name), n, i, k, &extra);
}

fn merge_refuses(dir: &Path) -> String {
    let out = nqueens().arg("merge").arg(dir).assert().code(1);
    String::from_utf8_lossy(&out.get_output().stderr).to_string()
}

#[test]
fn merge_names_the_shard_each_campaign_lacks() {
    let dir = tempfile::tempdir().unwrap();
    // Whole: complete; innermost: shard 3 of 4 missing.
    for i in 1..=4 {
        shard(dir.path(), &format!("whole-{i}.json"), 14, i, 4, "whole");
    }
    for i in [1, 2, 4] {
        shard(
            dir.path(),
            &format!("inner-{i}.json"),
            14,
            i,
            4,
            "innermost",
        );
    }
    let stderr = merge_refuses(dir.path());
    assert!(
        stderr.starts_with("error: cannot merge: of the 2 campaigns given, the campaign by the innermost decomposition of K = 4")
            && stderr.contains("lacks 1 shard of 4: 3"),
        "{stderr}"
    );
    assert!(!stderr.contains("mixed"), "{stderr}");
}

#[test]
fn merge_names_the_shards_each_k_lacks() {
    let dir = tempfile::tempdir().unwrap();
    for i in 1..=2 {
        shard(dir.path(), &format!("k2-{i}.json"), 14, i, 2, "whole");
    }
    shard(dir.path(), "k3-1.json", 14, 1, 3, "whole");
    let stderr = merge_refuses(dir.path());
    assert!(
        stderr.contains("of K = 3") && stderr.contains("lacks 2 shards of 3: 2, 3"),
        "{stderr}"
    );
}

#[test]
fn decompositions_that_disagree_name_the_board() {
    let dir = tempfile::tempdir().unwrap();
    shard(dir.path(), "whole.json", 12, 1, 1, "whole");
    shard(dir.path(), "turn.json", 12, 1, 1, "quarter-turn");
    // One campaign's total forged, its checksum made again: only the other campaign can tell.
    let path = dir.path().join("turn.json");
    let mut forged: nqueens::cluster::PartialResult =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    forged.total = 14201;
    forged.checksum = forged.expected_checksum();
    std::fs::write(&path, serde_json::to_string_pretty(&forged).unwrap()).unwrap();
    let stderr = merge_refuses(dir.path());
    assert!(
        stderr.contains(
            "the decompositions of n = 12 disagree: 14200 by whole, 14201 by quarter-turn"
        ) || stderr.contains(
            "the decompositions of n = 12 disagree: 14201 by quarter-turn, 14200 by whole"
        ),
        "{stderr}"
    );
}
