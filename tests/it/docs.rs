//! The design documents name only what exists: every source path and every Rust item they
//! quote in backquotes, and every `a::b` path in their drawings, is checked against the tree,
//! a path segment by segment (each segment defined where the one before it is).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::util::{self, root};

/// The documents held to the tree.
const DESIGN: [&str; 2] = ["docs/design.md", "docs/join.md"];

/// The most lines each may hold: a newcomer reads it whole.
const MOST_LINES: usize = 700;

/// Names from outside this crate that the documents quote.
const FOREIGN: &[&str] = &[
    "nqueens",
    "crate",
    "std",
    "clippy",
    "OnceLock",
    "MemAvailable",
    "SAFETY",
];

fn is_ident(word: &str) -> bool {
    let mut chars = word.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Every name the sources define, with the files that define it: items, enum variants,
/// fields, aliases, macros, the modules their files and folders make, and the environment
/// settings they read (as quoted names).
fn defined() -> HashMap<String, HashSet<PathBuf>> {
    let mut files = Vec::new();
    util::rust_files(&root().join("src"), &mut files);
    let mut names: HashMap<String, HashSet<PathBuf>> = HashMap::new();
    let mut add = |name: &str, file: &Path| {
        names
            .entry(name.to_string())
            .or_default()
            .insert(file.to_path_buf());
    };
    for file in &files {
        for part in [file.file_stem(), file.parent().and_then(Path::file_name)] {
            add(&part.unwrap().to_string_lossy(), file);
        }
        let text = std::fs::read_to_string(file).unwrap();
        for quoted in text.split('"').skip(1).step_by(2) {
            if is_ident(quoted) {
                add(quoted, file);
            }
        }
        for line in text.lines() {
            let words: Vec<&str> = line
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '!'))
                .filter(|w| !w.is_empty())
                .collect();
            for pair in words.windows(2) {
                let keyword = [
                    "fn",
                    "struct",
                    "enum",
                    "const",
                    "static",
                    "type",
                    "trait",
                    "mod",
                    "as",
                    "macro_rules!",
                    // A type's methods may sit in another file's impl: that file is its too.
                    "impl",
                    "for",
                ];
                if keyword.contains(&pair[0]) && is_ident(pair[1]) {
                    add(pair[1], file);
                }
            }
            // Enum variants and fields: a name first on its line, then `(`, `{`, `,`, `:` or
            // `=`.
            let trimmed = line.trim_start().trim_start_matches("pub(crate) ");
            let trimmed = trimmed.trim_start_matches("pub(super) ");
            let trimmed = trimmed.trim_start_matches("pub ");
            let end = trimmed
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(trimmed.len());
            let (name, rest) = trimmed.split_at(end);
            if is_ident(name)
                && [" {", "(", ",", ":", " ="]
                    .iter()
                    .any(|s| rest.starts_with(s))
            {
                add(name, file);
            }
        }
    }
    names
}

/// The inline code spans of `text` outside fenced blocks, and the `a::b` paths inside them
/// (the drawings).
fn code_spans(text: &str) -> Vec<String> {
    let mut spans = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            let words = line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'));
            spans.extend(
                words
                    .map(|w| w.trim_matches(':'))
                    .filter(|w| w.contains("::"))
                    .map(str::to_string),
            );
            continue;
        }
        let parts: Vec<&str> = line.split('`').collect();
        spans.extend(parts.iter().skip(1).step_by(2).map(|s| s.to_string()));
    }
    spans
}

/// The files of what `name` names: where it is defined, and, for a module, its files (its own
/// and those of its folder).
fn scope(name: &str, names: &HashMap<String, HashSet<PathBuf>>) -> HashSet<PathBuf> {
    let mut files = names.get(name).cloned().unwrap_or_default();
    let mut all = Vec::new();
    util::rust_files(&root().join("src"), &mut all);
    for file in all {
        let folder = file.parent().and_then(Path::file_name);
        if folder.is_some_and(|f| f == name) {
            files.insert(file);
        }
    }
    files
}

/// What `span` names that does not exist, if anything.
fn missing_in(span: &str, names: &HashMap<String, HashSet<PathBuf>>) -> Option<String> {
    let span = span.split('(').next().unwrap().trim();
    let is_path = ["src/", "tests/", "benches/", "examples/", "docs/"]
        .iter()
        .any(|p| span.starts_with(p));
    if is_path {
        return (!root().join(span).exists()).then(|| span.to_string());
    }
    let mut segments: Vec<&str> = span.split("::").collect();
    if !segments.iter().all(|s| is_ident(s)) {
        return None;
    }
    // A path into another crate names nothing of ours; `crate::` and `nqueens::` are ours.
    if ["std", "clippy", "rayon", "libc"].contains(&segments[0]) {
        return None;
    }
    if segments.len() > 1 && ["crate", "nqueens"].contains(&segments[0]) {
        segments.remove(0);
    }
    // Single words: only the shapes of Rust items (CamelCase, CONSTANTS, snake_case with an
    // underscore), not flags, commands or values.
    if segments.len() == 1 {
        let word = segments[0];
        let camel = word.starts_with(|c: char| c.is_ascii_uppercase())
            && word.chars().any(|c| c.is_ascii_lowercase());
        let constant = word.len() > 3 && word.chars().all(|c| !c.is_ascii_lowercase());
        let snake = word.contains('_') && word.chars().all(|c| !c.is_ascii_uppercase());
        if !(camel || constant || snake) || FOREIGN.contains(&word) || names.contains_key(word) {
            return None;
        }
        return Some(format!("{word} (in `{span}`)"));
    }
    if !names.contains_key(segments[0]) && !FOREIGN.contains(&segments[0]) {
        return Some(format!("{} (in `{span}`)", segments[0]));
    }
    // Each segment is defined in a file of the one before it.
    for pair in segments.windows(2) {
        let within = scope(pair[0], names);
        let here = names.get(pair[1]).cloned().unwrap_or_default();
        if within.is_disjoint(&here) {
            return Some(format!("{} in {} (in `{span}`)", pair[1], pair[0]));
        }
    }
    None
}

#[test]
fn every_path_and_item_named_in_the_design_exists() {
    let names = defined();
    let mut missing = Vec::new();
    for doc in DESIGN {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        for span in code_spans(&text) {
            if let Some(what) = missing_in(&span, &names) {
                missing.push(format!("{doc}: {what}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "the design documents name what does not exist: {missing:?}"
    );
}

/// A stale path is caught whole: each segment exists somewhere, but not within the one before.
#[test]
fn a_path_whose_segments_exist_apart_is_caught() {
    let names = defined();
    assert!(missing_in("plan::choose", &names).is_none());
    assert!(missing_in("Plan::draw", &names).is_none());
    assert!(missing_in("engines::choose", &names).is_some());
    assert!(missing_in("estimate::draw_space", &names).is_some());
    let drawing = "```text\n   n ──► engines::choose ──► Plan\n```\n";
    assert_eq!(code_spans(drawing), ["engines::choose"]);
}

#[test]
fn the_design_documents_are_for_a_newcomer() {
    for doc in DESIGN {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        assert!(
            text.lines().count() <= MOST_LINES,
            "{doc}: at most {MOST_LINES} lines"
        );
        // What, why and the invariants: measurements, machines and commits belong to
        // docs/performance.md and the commit messages, which age with them.
        let dated: Vec<&str> = text.lines().filter(|line| util::dated(line)).collect();
        assert!(
            dated.is_empty(),
            "commits, machines or dates in {doc}: {dated:?}"
        );
    }
}

/// campaign.md's section 7, run as written in a fresh folder with this build on the PATH: each
/// command succeeds or fails as shown, and prints the lines shown, times aside.
#[test]
fn campaign_section_7_runs_as_written() {
    let guide = std::fs::read_to_string(root().join("docs/campaign.md")).unwrap();
    let section = &guide[guide.find("## 7.").expect("a section 7")..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let block = section
        .split("```console\n")
        .find(|b| b.starts_with("$ mkdir"))
        .expect("a console block that begins with mkdir");
    let block = &block[..block.find("```").unwrap()];
    // Times vary from run to run: every decimal number is compared as its shape.
    let decimals = |line: &str| {
        let mut out = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                let mut number = c.to_string();
                while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit() || **d == '.') {
                    number.push(d);
                    chars.next();
                }
                out += if number.contains('.') { "#.#" } else { &number };
            } else {
                out.push(c);
            }
        }
        out.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let dir = tempfile::tempdir().unwrap();
    let bin = crate::util::binary();
    let path = std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let mut commands: Vec<(String, Vec<String>)> = Vec::new();
    for line in block.lines() {
        match line.strip_prefix("$ ") {
            Some(command) => commands.push((command.to_string(), Vec::new())),
            None => commands.last_mut().unwrap().1.push(decimals(line)),
        }
    }
    for (command, shown) in commands {
        let out = std::process::Command::new("bash")
            .args(["-c", &command])
            .current_dir(dir.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        let printed: Vec<String> = String::from_utf8_lossy(&out.stderr)
            .lines()
            .chain(String::from_utf8_lossy(&out.stdout).lines())
            .map(decimals)
            .collect();
        let fails = shown.iter().any(|l| l.starts_with("error: "));
        assert_eq!(out.status.success(), !fails, "{command}: {printed:?}");
        assert_eq!(printed, shown, "{command}");
    }
}

/// A line's shape: every run of digits one `#`, cut at the 24 columns of a report's labels.
fn shape(line: &str) -> String {
    let mut out = String::new();
    for c in line.chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(c);
        }
    }
    out.chars().take(24).collect()
}

/// The `estimate` examples of README.md and campaign.md are as the program prints them: each
/// whole report of a few seconds run as written, the same lines in the same order, numbers
/// aside (they are timings).
#[test]
fn the_estimate_examples_are_as_the_program_prints_them() {
    for doc in ["README.md", "docs/campaign.md"] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        let mut found = 0;
        for block in text.split("```console\n").skip(1) {
            let block = &block[..block.find("```").unwrap()];
            let Some(command) = block
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("$ nqueens "))
            else {
                continue;
            };
            // Whole reports of a few seconds: longer runs are quoted in excerpts.
            let seconds = command
                .split_once("--seconds ")
                .and_then(|(_, rest)| rest.split_whitespace().next()?.parse::<f64>().ok());
            if !command.starts_with("estimate ")
                || !command.contains(" -q")
                || seconds.is_none_or(|s| s > 10.0)
            {
                continue;
            }
            found += 1;
            let out = crate::util::nqueens()
                .args(command.split_whitespace())
                .assert()
                .success();
            let printed = String::from_utf8_lossy(&out.get_output().stdout).to_string();
            let shown: Vec<String> = block.lines().skip(1).map(shape).collect();
            let printed: Vec<String> = printed.lines().map(shape).collect();
            assert_eq!(shown, printed, "{doc}: nqueens {command}");
        }
        assert!(found > 0, "{doc}: no estimate example");
    }
}

/// Whether `name` matches the `.gitignore` pattern `glob` (`*`, and `[a-z]`-style classes: what
/// the repository's own patterns use).
fn matches(glob: &[u8], name: &[u8]) -> bool {
    match (glob.first(), name.first()) {
        (None, None) => true,
        (Some(b'*'), _) => {
            matches(&glob[1..], name) || (!name.is_empty() && matches(glob, &name[1..]))
        }
        (Some(b'['), Some(&c)) => {
            let end = glob.iter().position(|&g| g == b']').unwrap();
            let (lo, hi) = (glob[1], glob[3]);
            (lo..=hi).contains(&c) && matches(&glob[end + 1..], &name[1..])
        }
        (Some(g), Some(c)) => g == c && matches(&glob[1..], &name[1..]),
        _ => false,
    }
}

/// The folders the campaign guide makes in the clone (its `DIR=`s, the scripts' default
/// `nqueens-nN-kK`, the quorum's and section 7's) are ignored by git: a campaign run from the
/// clone leaves it clean.
#[test]
fn the_guide_s_campaign_folders_are_ignored() {
    let ignore = std::fs::read_to_string(root().join(".gitignore")).unwrap();
    let patterns: Vec<&str> = ignore
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.trim_start_matches('/').trim_end_matches('/'))
        .collect();
    let guide = std::fs::read_to_string(root().join("docs/campaign.md")).unwrap();
    let mut folders: Vec<String> = Vec::new();
    for word in guide.split(|c: char| c.is_whitespace() || c == '`') {
        let word = word.strip_prefix("DIR=").unwrap_or(word);
        let name = word.rsplit('/').next().unwrap_or(word);
        let default = name.starts_with("nqueens-n") && name.contains("-k");
        let own = [
            "q22",
            "q16",
            "q16-turn",
            "q28-b",
            "q28-turn",
            "qa",
            "qb",
            "q14-slurm",
            "q14-sge",
        ]
        .contains(&name);
        if (default || own) && word.len() > 1 {
            folders.push(name.trim_end_matches(['.', ',', ':', ')']).to_string());
        }
    }
    assert!(
        folders.iter().any(|f| f.starts_with("nqueens-n21-k8")),
        "{folders:?}"
    );
    for folder in &folders {
        assert!(
            patterns
                .iter()
                .any(|p| matches(p.as_bytes(), folder.as_bytes())),
            "{folder} is not ignored by .gitignore"
        );
    }
    for kept in ["results", "src", "docs", "tests"] {
        assert!(
            !patterns
                .iter()
                .any(|p| matches(p.as_bytes(), kept.as_bytes())),
            "{kept}"
        );
    }
}
