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
    println!(
        "cargo:rustc-env=NQUEENS_GIT_COMMIT={}",
        commit.as_deref().unwrap_or("unknown")
    );
    // Rebuild when HEAD moves (a new commit or another branch), not on every file change.
    println!("cargo:rerun-if-changed=build.rs");
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
