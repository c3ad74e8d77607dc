//! The command line's value parsers: each turns one argument's text into its value, or says in
//! one line what is wrong with it (clap prints that line as the error).

use std::ops::RangeInclusive;
use std::time::Duration;

use nqueens::cluster::Shard;
use nqueens::MAX_N;

use crate::bench;

/// `--shard`: given, or from the launcher's environment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum ShardArg {
    Given(Shard),
    Auto,
}

pub(super) fn parse_n(s: &str) -> Result<u32, String> {
    let n: i64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a board size: expected a number from 1 to {MAX_N}"))?;
    u32::try_from(n)
        .ok()
        .filter(|n| nqueens::check_n(*n).is_ok())
        .ok_or_else(|| format!("n must be between 1 and {MAX_N}, got {n}"))
}

/// A board size with a published count: the bench checks every result.
pub(super) fn parse_known_n(s: &str) -> Result<u32, String> {
    let n = parse_n(s)?;
    match nqueens::known::known(n) {
        Some(_) => Ok(n),
        None => Err(bench::Error::Unknown { n }.to_string()),
    }
}

pub(super) fn parse_sizes(s: &str) -> Result<RangeInclusive<u32>, String> {
    // One size or a range: an error says both are allowed.
    let size = |s: &str| {
        parse_n(s).map_err(|e| {
            e.replace(
                &format!("to {MAX_N}"),
                &format!("to {MAX_N} or a range A..B such as 8..16"),
            )
        })
    };
    let Some((a, b)) = s.split_once("..") else {
        let n = size(s)?;
        return Ok(n..=n);
    };
    let (a, b) = (size(a)?, size(b.strip_prefix('=').unwrap_or(b))?);
    if a > b {
        return Err(format!(
            "the range {s} is empty: write A..B with A ≤ B, both from 1 to {MAX_N}"
        ));
    }
    Ok(a..=b)
}

pub(super) fn parse_shard(s: &str) -> Result<ShardArg, String> {
    if s.trim() == "auto" {
        return Ok(ShardArg::Auto);
    }
    s.parse()
        .map(ShardArg::Given)
        .map_err(|e: nqueens::cluster::ShardError| e.to_string())
}

/// A size in bytes: a number with an optional K, M, G or T (powers of 1024, `iB` or `B` may
/// follow), at least 1 MiB.
pub(super) fn parse_memory(s: &str) -> Result<u64, String> {
    let bad = || {
        format!("'{s}' is not a memory size: expected a number of bytes with K, M, G or T, e.g. 4G, at least 1M")
    };
    let too_small = || format!("'{s}' is too small: at least 1 MiB");
    let t = s.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (number, shift) = match t.char_indices().last() {
        Some((i, unit)) if unit.is_ascii_alphabetic() => {
            let shift = match unit.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return Err(bad()),
            };
            (&t[..i], shift)
        }
        _ => (t, 0),
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    let bytes =
        value * f64::from(1u32 << shift.min(30)) * f64::from(1u32 << (shift - shift.min(30)));
    if (0.0..1048576.0).contains(&bytes) {
        return Err(too_small());
    }
    if !bytes.is_finite() || !(1048576.0..=1.8e19).contains(&bytes) {
        return Err(bad());
    }
    Ok(bytes as u64)
}

/// A random seed: the keys of the standard library's hasher, which it draws from the operating
/// system (no crate for one number).
pub(super) fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}

/// `10%` or `10` as the share 0.1: 0.1% to 100%.
pub(super) fn parse_percent(s: &str) -> Result<f64, String> {
    let number = s.trim().trim_end_matches('%').trim();
    match number.parse::<f64>() {
        Ok(x) if (0.1..=100.0).contains(&x) => Ok(x / 100.0),
        Ok(_) => Err(format!("{s} is out of range: give 0.1% to 100%")),
        Err(_) => Err(format!("'{s}' is not a percentage (such as 10%)")),
    }
}

pub(super) fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if (0.1..=86_400.0).contains(&x) => Ok(Duration::from_secs_f64(x)),
        Ok(_) => Err(format!("{s} seconds is out of range: give 0.1 to 86400")),
        Err(_) => Err(format!("'{s}' is not a number of seconds (0.1 to 86400)")),
    }
}

/// `-j` may ask for at most this many threads per logical core: more only slows a run down, and
/// a mistyped `-j 100000` would start that many threads.
const THREADS_PER_CORE: usize = 16;

pub(super) fn parse_threads(s: &str) -> Result<usize, String> {
    let threads = at_least_one(s, "the number of threads", "1", "threads")?;
    let cores = num_cpus::get();
    let most = THREADS_PER_CORE * cores;
    if threads > most {
        return Err(format!(
            "{threads} threads are too many: at most {THREADS_PER_CORE} per logical core, \
             {most} for the {cores} this process may use"
        ));
    }
    Ok(threads)
}

pub(super) fn parse_limit(s: &str) -> Result<u64, String> {
    at_least_one(s, "the limit", "1 solution", "solutions")
}

/// A whole number of `unit`, 1 or more; `what` and `least` word the error when it is smaller.
fn at_least_one<T: TryFrom<i128>>(
    s: &str,
    what: &str,
    least: &str,
    unit: &str,
) -> Result<T, String> {
    match s.trim().parse::<i128>() {
        Ok(k) if k >= 1 => T::try_from(k).map_err(|_| format!("{k} {unit} is too many")),
        Ok(k) => Err(format!("{what} must be at least {least}, got {k}")),
        Err(_) => Err(format!(
            "'{s}' is not a number of {unit}: expected a whole number, 1 or more"
        )),
    }
}

/// A setting that only the tests give, through the environment, so that no test hook is an
/// option of the program: `NQUEENS_TEST_HOLD_AFTER=K` hands out no more subproblems after the
/// first K until a signal comes (a test stops a run at a known point, whatever the speed of the
/// machine), `NQUEENS_TEST_EXPECTED_TOTAL=T` holds `bench` to T instead of the published total.
/// Read only by a build with debug assertions, as the tests' is: a release build, what users
/// run, has no such hook, and nothing in its environment can change what it verifies against.
#[cfg(debug_assertions)]
pub(super) fn test_seam<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok()?.trim().parse().ok()
}

/// A release build reads no test setting (see the debug build's).
#[cfg(not(debug_assertions))]
pub(super) fn test_seam<T: std::str::FromStr>(_name: &str) -> Option<T> {
    None
}
