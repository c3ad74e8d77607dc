//! The help says what the code does: its lists are the library's, and a bad value is quoted
//! once, cut when long.

use crate::util::nqueens;

#[test]
fn decomposition_help_lists_every_decomposition_and_where_the_fastest_changes() {
    let out = nqueens().args(["count", "--help"]).assert().success();
    let help = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let from = nqueens::Decomposition::INNERMOST_FROM;
    for decomposition in nqueens::Decomposition::ALL {
        assert!(
            flat.contains(&format!("{decomposition} ("))
                || flat.contains(&format!("{decomposition}:")),
            "{decomposition}: {flat}"
        );
    }
    let odd = nqueens::Decomposition::ODD_INNERMOST_FROM;
    let fastest = format!(
        "[default: fastest: {} from n = {from} and odd n = {odd}, {} below]",
        nqueens::Decomposition::fastest_for(from),
        nqueens::Decomposition::fastest_for(from - 2)
    );
    assert!(flat.contains(&fastest), "{flat}");
    assert!(!flat.contains("two independent ways"), "{flat}");
}

#[test]
fn a_long_bad_value_is_quoted_once_and_cut() {
    let long = "7".repeat(5000);
    for args in [
        vec!["count".to_string(), format!("x{long}")],
        vec![
            "count".into(),
            "12".into(),
            "--shard".into(),
            format!("1/{long}"),
        ],
    ] {
        let out = nqueens().args(&args).assert().code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(stderr.len() < 600, "{} bytes: {stderr}", stderr.len());
        assert!(
            stderr.contains("(5001 characters)") || stderr.contains("(5002 characters)"),
            "{stderr}"
        );
        assert_eq!(stderr.matches('…').count(), 1, "{stderr}");
        crate::cli::is_short_usage_error(&stderr);
    }
}
