//! The shape of the source tree, kept: no source file over 800 lines (tests included), no loop
//! between modules at any level (not only between files), and no commit, machine or date in a
//! comment of `src/`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::util::{self, root};

/// The most lines a source file may hold before it is split by concern.
const MOST_LINES: usize = 800;

#[test]
fn no_source_file_passes_800_lines() {
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches", "examples", "build.rs"] {
        let path = root().join(dir);
        if path.is_dir() {
            util::rust_files(&path, &mut files);
        } else if path.exists() {
            files.push(path);
        }
    }
    let long: Vec<String> = files
        .iter()
        .filter_map(|file| {
            let lines = std::fs::read_to_string(file).unwrap().lines().count();
            (lines > MOST_LINES).then(|| format!("{}: {lines} lines", file.display()))
        })
        .collect();
    assert!(long.is_empty(), "split these by concern: {long:?}");
}

#[test]
fn comments_in_the_sources_carry_no_commit_machine_or_date() {
    let mut files = Vec::new();
    util::rust_files(&root().join("src"), &mut files);
    let dated: Vec<String> = files
        .iter()
        .flat_map(|file| {
            let text = std::fs::read_to_string(file).unwrap();
            // An example in a fenced block of a doc comment (a file's lines) is data, not a
            // claim: its hexadecimal checksums are not commits.
            let mut example = false;
            text.lines()
                .enumerate()
                .filter_map(|(i, line)| {
                    let comment = line.find("//").map(|at| &line[at..])?;
                    let fence = comment.trim_start_matches('/').trim_start_matches('!');
                    if fence.trim_start().starts_with("```") {
                        example = !example;
                    }
                    (!example && util::dated(comment))
                        .then(|| format!("{}:{}: {line}", file.display(), i + 1))
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        dated.is_empty(),
        "measurements age: commits, machines and dates go in docs/performance.md and the \
         commit messages, comments say why: {dated:?}"
    );
}

/// A crate's modules: each file's module path, the text of its code outside tests, and the
/// names its root re-exports (name → the path it stands for).
struct Crate {
    modules: BTreeMap<Vec<String>, (PathBuf, String)>,
    exports: BTreeMap<String, Vec<String>>,
}

impl Crate {
    fn read(dir: &Path, root_file: &str) -> Crate {
        let mut files = Vec::new();
        util::rust_files(dir, &mut files);
        let mut modules = BTreeMap::new();
        let mut test_files = BTreeSet::new();
        for file in &files {
            let relative = file.strip_prefix(dir).unwrap();
            if relative.starts_with("bin") && root_file == "lib.rs" {
                continue;
            }
            let mut path: Vec<String> = relative
                .with_extension("")
                .iter()
                .map(|part| part.to_string_lossy().into_owned())
                .collect();
            if path.last().is_some_and(|last| last == "mod") || relative == Path::new(root_file) {
                path.pop();
            }
            let text = std::fs::read_to_string(file).unwrap();
            // Files that only tests compile: `#[cfg(test)]` on their `mod` line.
            let lines: Vec<&str> = text.lines().map(str::trim).collect();
            for pair in lines.windows(2) {
                let declared = pair[1]
                    .trim_start_matches("pub(crate) ")
                    .trim_start_matches("pub ");
                if pair[0] == "#[cfg(test)]"
                    && declared.starts_with("mod ")
                    && declared.ends_with(';')
                {
                    let name = declared.trim_start_matches("mod ").trim_end_matches(';');
                    let mut child = path.clone();
                    child.push(name.to_string());
                    test_files.insert(child);
                }
            }
            modules.insert(path, (file.clone(), without_tests(&text)));
        }
        modules.retain(|path, _| !test_files.iter().any(|t| path.starts_with(t)));
        let exports = modules
            .get(&Vec::new())
            .map(|(_, text)| re_exports(text))
            .unwrap_or_default();
        Crate { modules, exports }
    }

    /// The module a path names: its longest prefix that is a module, after the root's
    /// re-exports; `None` for the crate root itself.
    fn module_of(&self, path: &[String]) -> Option<Vec<String>> {
        let mut path = path.to_vec();
        if let Some(first) = path.first() {
            if !self.modules.contains_key(&vec![first.clone()]) {
                let target = self.exports.get(first)?;
                path.splice(0..1, target.iter().cloned());
            }
        }
        (1..=path.len())
            .rev()
            .map(|k| path[..k].to_vec())
            .find(|prefix| self.modules.contains_key(prefix))
    }

    /// The loops among the children of each module, each as its members and one reference of
    /// each step.
    fn loops(&self) -> Vec<String> {
        // Edges between siblings: a reference from inside one to inside another, lifted to the
        // children of the modules' nearest common ancestor.
        let mut edges: BTreeMap<(Vec<String>, String, String), String> = BTreeMap::new();
        for (from, (file, text)) in &self.modules {
            for path in references(from, text) {
                let Some(to) = self.module_of(&path) else {
                    continue;
                };
                let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
                if common == from.len() || common == to.len() {
                    continue;
                }
                let key = (
                    from[..common].to_vec(),
                    from[common].clone(),
                    to[common].clone(),
                );
                edges
                    .entry(key)
                    .or_insert_with(|| format!("{} uses {}", file.display(), path.join("::")));
            }
        }
        let mut found = Vec::new();
        let parents: BTreeSet<&Vec<String>> = edges.keys().map(|k| &k.0).collect();
        for parent in parents {
            let next = |node: &str| -> Vec<String> {
                edges
                    .keys()
                    .filter(|k| &k.0 == parent && k.1 == node)
                    .map(|k| k.2.clone())
                    .collect()
            };
            let nodes: BTreeSet<String> = edges
                .keys()
                .filter(|k| &k.0 == parent)
                .map(|k| k.1.clone())
                .collect();
            for start in &nodes {
                // A path back to `start` through modules after it (each loop found once).
                let mut stack = vec![(start.clone(), vec![start.clone()])];
                while let Some((node, trail)) = stack.pop() {
                    for to in next(&node) {
                        if &to == start {
                            let steps: Vec<String> = trail
                                .iter()
                                .zip(trail.iter().skip(1).chain([start]))
                                .map(|(a, b)| {
                                    edges[&(parent.clone(), a.clone(), b.clone())].clone()
                                })
                                .collect();
                            found.push(format!(
                                "{}: {} → {start} ({})",
                                if parent.is_empty() {
                                    "crate".into()
                                } else {
                                    parent.join("::")
                                },
                                trail.join(" → "),
                                steps.join("; ")
                            ));
                        } else if to > *start && !trail.contains(&to) {
                            let mut longer = trail.clone();
                            longer.push(to.clone());
                            stack.push((to, longer));
                        }
                    }
                }
            }
        }
        found
    }
}

/// `text` without its comments and without the items marked `#[cfg(test)]` (a `mod …;` line or
/// a braced block).
fn without_tests(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let code = line.split("//").next().unwrap_or("");
        if line.trim() != "#[cfg(test)]" {
            out.push_str(code);
            out.push('\n');
            continue;
        }
        let mut depth = 0i64;
        for item in lines.by_ref() {
            let code = item.split("//").next().unwrap_or("");
            depth += code.matches('{').count() as i64 - code.matches('}').count() as i64;
            if depth <= 0 && (code.contains('}') || code.trim_end().ends_with(';')) {
                break;
            }
        }
    }
    out
}

/// The names the root re-exports with `pub use`, each with the path it stands for.
fn re_exports(text: &str) -> BTreeMap<String, Vec<String>> {
    let mut exports = BTreeMap::new();
    let flat = text.replace('\n', " ");
    for statement in flat.split(';') {
        let Some(rest) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let (base, names) = match rest.split_once('{') {
            Some((base, names)) => (base.trim_end_matches("::"), names.trim_end_matches('}')),
            None => match rest.rsplit_once("::") {
                Some((base, name)) => (base, name),
                None => continue,
            },
        };
        let base: Vec<String> = base.split("::").map(|s| s.trim().to_string()).collect();
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let (name, alias) = match name.split_once(" as ") {
                Some((name, alias)) => (name.trim(), alias.trim()),
                None => (name, name),
            };
            let mut path = base.clone();
            path.push(name.to_string());
            exports.insert(alias.to_string(), path);
        }
    }
    exports
}

/// The paths that `text`, the code of module `module`, names through `crate::` and `super::`,
/// as paths from the crate root (a `use` group gives one path per member).
fn references(module: &[String], text: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    for (at, _) in text
        .match_indices("crate::")
        .chain(text.match_indices("super::"))
    {
        if at > 0 && text[..at].ends_with(|c: char| ident(c) || c == ':') {
            continue;
        }
        let mut rest = &text[at..];
        let mut path: Vec<String> = Vec::new();
        if rest.starts_with("super::") {
            path = module.to_vec();
            while let Some(up) = rest.strip_prefix("super::") {
                path.pop();
                rest = up;
            }
        } else {
            rest = &rest["crate::".len()..];
        }
        let segments: String = rest.chars().take_while(|&c| ident(c) || c == ':').collect();
        path.extend(
            segments
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string),
        );
        let after = &rest[segments.len()..];
        if let Some(group) = after.strip_prefix('{') {
            // One path per member of a `use` group (a nested group counts by its first name).
            for member in group.split('}').next().unwrap_or("").split(',') {
                let first: String = member.trim().chars().take_while(|&c| ident(c)).collect();
                if !first.is_empty() && first != "self" {
                    let mut member_path = path.clone();
                    member_path.push(first);
                    found.push(member_path);
                }
            }
        }
        found.push(path);
    }
    found
}

#[test]
fn no_module_loop_in_the_library_or_the_program() {
    for (dir, root_file) in [("src", "lib.rs"), ("src/bin/nqueens", "main.rs")] {
        let krate = Crate::read(&root().join(dir), root_file);
        assert!(krate.modules.len() > 5, "{dir}: {:?}", krate.modules.keys());
        let loops = krate.loops();
        assert!(
            loops.is_empty(),
            "modules of {dir} in a loop (make the imports run one way):\n{}",
            loops.join("\n")
        );
    }
}

/// The check finds a loop where there is one: two sibling modules each using the other, from
/// a file inside one of them.
#[test]
fn a_loop_between_modules_is_found() {
    let modules = [
        (vec![], "pub use b::Thing;"),
        (vec!["a"], "mod inner;"),
        (vec!["a", "inner"], "use crate::b::Thing;"),
        (vec!["b"], "fn f() { crate::a::g() }"),
        (vec!["c"], "use crate::Thing; use super::b;"),
    ];
    let krate = Crate {
        modules: modules
            .iter()
            .map(|(path, text)| {
                let path: Vec<String> = path.iter().map(|s| s.to_string()).collect();
                (path, (PathBuf::from("x.rs"), without_tests(text)))
            })
            .collect(),
        exports: re_exports(modules[0].1),
    };
    assert_eq!(krate.module_of(&["Thing".into()]), Some(vec!["b".into()]));
    let loops = krate.loops();
    assert_eq!(loops.len(), 1, "{loops:?}");
    assert!(loops[0].starts_with("crate: a → b → a"), "{loops:?}");
    let tests_only = "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::a::g;\n}\n";
    assert!(references(&["b".into()], &without_tests(tests_only)).is_empty());
}
