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

fn cargo(dir: &Path, args: &[&str]) {
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
}

#[test]
fn the_readme_library_example_builds_with_the_line_it_gives() {
    let section = library_section();
    let line = blocks(&section, "console")
        .concat()
        .lines()
        .find_map(|l| l.strip_prefix("$ cargo add "))
        .expect("a cargo add line")
        .to_string();
    let example = blocks(&section, "rust").concat();
    assert!(!example.is_empty());

    let dir = tempfile::tempdir().unwrap();
    // The README's `../nqueens` is the clone beside the project: here, this checkout.
    let project = dir.path().join("app");
    cargo(dir.path(), &["new", "--bin", "--quiet", "app"]);
    let args: Vec<String> = line
        .split_whitespace()
        .map(|a| a.replace("../nqueens", &root().display().to_string()))
        .collect();
    let args: Vec<&str> = std::iter::once("add")
        .chain(args.iter().map(String::as_str))
        .collect();
    cargo(&project, &args);
    // The example is a whole program, as written: it builds and runs.
    std::fs::write(project.join("src/main.rs"), &example).unwrap();
    cargo(&project, &["run", "--quiet"]);
}
