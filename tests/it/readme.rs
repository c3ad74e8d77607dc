//! README's library section works as written: a new project adds the library by the line it
//! gives and builds its example.

use std::path::Path;
use std::process::Command;

use crate::util::root;

/// The README's text between `## As a library` and the next heading.
fn library_section() -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find("## As a library").expect("a library section");
    let rest = &readme[start + 3..];
    rest[..rest.find("\n## ").unwrap_or(rest.len())].to_string()
}

/// The contents of the fenced blocks of `kind` in `text`.
fn blocks(text: &str, kind: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line.trim_start()) {
            (None, l) if l == format!("```{kind}") => current = Some(String::new()),
            (Some(block), "```") => {
                out.push(std::mem::take(block));
                current = None;
            }
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            _ => {}
        }
    }
    out
}

/// Runs `cargo ARGS --offline` in `dir` and returns its stdout.
fn cargo(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO"))
        .args(args)
        .arg("--offline")
        .current_dir(dir)
        // Built apart from the tests' own target folder, and kept there between runs.
        .env("CARGO_TARGET_DIR", root().join("target/readme-example"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The section's console block run as a new user runs it, in a new project beside this
/// checkout (the README's `$CLONE`, whatever the checkout's name): `cargo add`, the lock file copied, `cargo run`, whose
/// output is the block's.
#[test]
fn the_readme_library_example_builds_with_the_lines_it_gives() {
    let section = library_section();
    let console = blocks(&section, "console").concat();
    let example = blocks(&section, "rust").concat();
    assert!(!example.is_empty());
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("app");
    cargo(dir.path(), &["new", "--bin", "--quiet", "app"]);
    std::fs::write(project.join("src/main.rs"), &example).unwrap();
    let mut lines = console.lines().peekable();
    let mut ran = Vec::new();
    while let Some(line) = lines.next() {
        let command = line.strip_prefix("$ ").expect("a command");
        let command = command.split('#').next().unwrap().trim();
        let mut shown = String::new();
        while let Some(out) = lines.next_if(|l| !l.starts_with("$ ")) {
            shown += out;
            shown.push('\n');
        }
        let words: Vec<String> = command
            .split_whitespace()
            .map(|a| a.replace("$CLONE", &root().display().to_string()))
            .collect();
        let printed = match words.iter().map(String::as_str).collect::<Vec<_>>()[..] {
            ["cargo", ref args @ ..] => {
                // `--offline` is added to every cargo command; the README's own is dropped.
                let mut args: Vec<&str> =
                    args.iter().copied().filter(|a| *a != "--offline").collect();
                if args.first() == Some(&"run") {
                    args.push("--quiet");
                }
                cargo(&project, &args)
            }
            ["cp", from, "."] => {
                std::fs::copy(from, project.join("Cargo.lock")).unwrap();
                String::new()
            }
            _ => panic!("a command this test does not know: {command}"),
        };
        assert_eq!(printed, shown, "{command}");
        ran.push(format!("{} {}", words[0], words[1]));
    }
    assert_eq!(ran.len(), 3, "{ran:?}");
    assert!(ran[0] == "cargo add" && ran[1].starts_with("cp ") && ran[2] == "cargo run");
}

/// Every `cargo install` the documents give builds the dependency set the tests ran: with
/// `--locked`, not the newest versions the registry has that day.
#[test]
fn every_install_line_is_locked() {
    for doc in ["README.md", "docs/campaign.md", "docs/performance.md"] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        for line in text.lines().filter(|l| l.contains("cargo install")) {
            assert!(line.contains("--locked"), "{doc}: {line}");
        }
    }
}
