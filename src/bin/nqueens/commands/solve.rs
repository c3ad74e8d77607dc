//! `nqueens solve`: streams the solutions to stdout, then says how many there were.

use std::io::{BufWriter, Write};

use nqueens::solve::{self, Format, Listing};

use crate::error::Error;
use crate::exit::Exit;

/// Lists (or traces) the solutions of the `n`-board on stdout. The count follows the solutions
/// on stdout for boards and traces, and goes to stderr for JSON and columns so that stdout stays
/// pure data. A full listing whose count is not the published one fails.
pub fn run(
    n: u32,
    options: &solve::ListOptions,
    format: Format,
    trace: bool,
) -> Result<Exit, Error> {
    let listing = Listing::new(n, options)?;
    let mut out = BufWriter::with_capacity(1 << 16, crate::streams::stdout()?);
    let written = if trace {
        solve::trace(n, options.limit, &mut out)?
    } else {
        listing.write(format, &mut out)?
    };
    let (line, exit) = summary(n, options, written);
    if trace || format == Format::Board {
        writeln!(out, "{line}")?;
        out.flush()?;
    } else {
        out.flush()?;
        crate::streams::say(&line);
    }
    Ok(exit)
}

/// The closing line, checked against the published count when the listing is complete.
fn summary(n: u32, options: &solve::ListOptions, written: u64) -> (String, Exit) {
    let noun = match (options.unique, written) {
        (false, 1) => "solution",
        (false, _) => "solutions",
        (true, 1) => "fundamental solution",
        (true, _) => "fundamental solutions",
    };
    let head = format!("{written} {noun}");
    if let Some(k) = options.limit.filter(|&k| written >= k) {
        return (format!("{head} (stopped at --limit {k})"), Exit::Success);
    }
    let (expected, source) = match nqueens::known::known(n) {
        Some(k) if options.unique => (k.unique, "OEIS A002562"),
        Some(k) => (k.total, "OEIS A000170"),
        None => return (head, Exit::Success),
    };
    if u128::from(written) == expected {
        (format!("{head} (as published: {source})"), Exit::Success)
    } else {
        (
            format!("{head}, but {source} says {expected}: the listing is WRONG"),
            Exit::Failure,
        )
    }
}
