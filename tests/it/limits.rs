//! Under an address-space limit (`ulimit -v`) every command either succeeds with the right
//! answer or refuses with status 1 and says what it needs: never an abort (status 134) or a panic.

use crate::util::under_ulimit;

/// Each command, what its standard output holds when it succeeds, and the largest limit (MiB)
/// it is tried under: n = 26's estimate runs in tiny pieces under a small budget, for minutes.
const COMMANDS: &[(&str, &str, u32)] = &[
    ("count 12 -j 2", " 14200 ", 4096),
    ("count 22 --shard 1/100000 -j 1", "", 4096),
    ("estimate 26 --seconds 0.3 -j 1 -q", "CPU time", 32),
    ("estimate 20 --seconds 0.3 -j 1 -q", "CPU time", 4096),
    ("solve 8 --format columns", "0 4 7 5 2 6 1 3", 4096),
];

#[test]
fn every_command_succeeds_or_says_what_it_needs_under_a_memory_limit() {
    for mib in [8u32, 12, 16, 24, 32, 48, 64, 128, 4096] {
        for &(args, answer, _) in COMMANDS.iter().filter(|c| mib <= c.2) {
            let out = under_ulimit(mib << 10, args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let stdout = String::from_utf8_lossy(&out.stdout);
            match out.status.code() {
                Some(0) => assert!(stdout.contains(answer), "{mib} MiB, {args}: {stdout}"),
                Some(1) => assert!(
                    stderr.contains("needs at least") || stderr.contains("need at least"),
                    "{mib} MiB, {args}: {stderr}"
                ),
                other => panic!("{mib} MiB, {args}: status {other:?}: {stderr}"),
            }
            assert!(!stderr.contains("panicked"), "{mib} MiB, {args}: {stderr}");
        }
    }
}
