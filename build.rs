//! Bakes what makes a benchmark comparable into the binary: the git commit (when git and a
//! repository are at hand; "unknown" otherwise, never a build failure), the build profile and the
//! target features the compiler was allowed to use.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short", "HEAD"]);
    // A tree with changes to tracked files is not the commit: say so, as `git describe` does.
    let dirty =
        commit.is_some() && git(&["status", "--porcelain", "--untracked-files=no"]).is_some();
    println!(
        "cargo:rustc-env=NQUEENS_GIT_COMMIT={}{}",
        commit.as_deref().unwrap_or("unknown"),
        if dirty { "-dirty" } else { "" }
    );
    // Rebuild when HEAD moves (a new commit or another branch) or a source changes (which can
    // make the tree dirty or clean).
    println!("cargo:rerun-if-changed=build.rs");
    for source in ["src", "Cargo.toml", "benches", "tests"] {
        println!("cargo:rerun-if-changed={source}");
    }
    if commit.is_some() {
        for path in [
            Some("HEAD".to_string()),
            git(&["symbolic-ref", "-q", "HEAD"]),
        ]
        .into_iter()
        .flatten()
        {
            if let Some(file) = git(&["rev-parse", "--git-path", &path]) {
                println!("cargo:rerun-if-changed={file}");
            }
        }
    }
    let profile = std::env::var("PROFILE").unwrap_or_else(|_| "unknown".into());
    println!("cargo:rustc-env=NQUEENS_BUILD_PROFILE={profile}");
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    println!("cargo:rustc-env=NQUEENS_TARGET_FEATURES={features}");
}
