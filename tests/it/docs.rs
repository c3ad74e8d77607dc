//! The design document names only what exists: every source path and every Rust item it quotes
//! in backquotes is checked against the tree.

use std::collections::HashSet;
use std::path::Path;

use crate::util::{self, root};

/// Names from outside this crate that the document quotes.
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

/// Every name the sources define: items, enum variants, fields, aliases, macros, the modules
/// their files and folders make, and the environment settings they read (as quoted names).
fn defined() -> HashSet<String> {
    let mut files = Vec::new();
    util::rust_files(&root().join("src"), &mut files);
    let mut names = HashSet::new();
    for file in &files {
        for part in [file.file_stem(), file.parent().and_then(Path::file_name)] {
            names.insert(part.unwrap().to_string_lossy().into_owned());
        }
        let text = std::fs::read_to_string(file).unwrap();
        for quoted in text.split('"').skip(1).step_by(2) {
            if is_ident(quoted) {
                names.insert(quoted.to_string());
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
                ];
                if keyword.contains(&pair[0]) && is_ident(pair[1]) {
                    names.insert(pair[1].to_string());
                }
            }
            // Enum variants and fields: a name first on its line, then `(`, `{`, `,`, `:` or
            // `=`.
            let trimmed = line.trim_start().trim_start_matches("pub(crate) ");
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
                names.insert(name.to_string());
            }
        }
    }
    names
}

/// The inline code spans of `text`, outside fenced blocks.
fn code_spans(text: &str) -> Vec<String> {
    let mut spans = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let parts: Vec<&str> = line.split('`').collect();
        spans.extend(parts.iter().skip(1).step_by(2).map(|s| s.to_string()));
    }
    spans
}

#[test]
fn every_path_and_item_named_in_the_design_exists() {
    let text = std::fs::read_to_string(root().join("docs/design.md")).unwrap();
    let names = defined();
    let mut missing = Vec::new();
    for span in code_spans(&text) {
        let span = span.split('(').next().unwrap().trim();
        let is_path = ["src/", "tests/", "benches/", "examples/", "docs/"]
            .iter()
            .any(|p| span.starts_with(p));
        if is_path {
            if !root().join(span).exists() {
                missing.push(span.to_string());
            }
            continue;
        }
        let segments: Vec<&str> = span.split("::").collect();
        if !segments.iter().all(|s| is_ident(s)) {
            continue;
        }
        // Single words: only the shapes of Rust items (CamelCase, CONSTANTS, snake_case with an
        // underscore), not flags, commands or values.
        if segments.len() == 1 {
            let word = segments[0];
            let camel = word.starts_with(|c: char| c.is_ascii_uppercase())
                && word.chars().any(|c| c.is_ascii_lowercase());
            let constant = word.len() > 3 && word.chars().all(|c| !c.is_ascii_lowercase());
            let snake = word.contains('_') && word.chars().all(|c| !c.is_ascii_uppercase());
            if !(camel || constant || snake) {
                continue;
            }
        }
        // A path into another crate names nothing of ours.
        if ["std", "clippy"].contains(&segments[0]) {
            continue;
        }
        for segment in segments {
            if !FOREIGN.contains(&segment) && !names.contains(segment) {
                missing.push(format!("{segment} (in `{span}`)"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/design.md names what does not exist: {missing:?}"
    );
}

#[test]
fn the_design_document_is_for_a_newcomer() {
    let text = std::fs::read_to_string(root().join("docs/design.md")).unwrap();
    assert!(text.lines().count() <= 700, "at most 700 lines");
    // What, why and the invariants: measurements, machines and commits belong to
    // docs/performance.md and the commit messages, which age with them.
    let dated: Vec<&str> = text.lines().filter(|line| util::dated(line)).collect();
    assert!(
        dated.is_empty(),
        "commits, machines or dates in design.md: {dated:?}"
    );
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
