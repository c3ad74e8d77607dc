//! The command line: clap definitions, checked and turned into plain [`Command`] values.
//!
//! Nothing below this module sees a clap type.

use std::ops::RangeInclusive;

use clap::{Args, Parser, Subcommand};
use nqueens::{plan::MAX_SPLIT_DEPTH, Engine, Options, MAX_N};

/// What the user asked for, in the program's own terms.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Count every solution for each board size in `sizes`.
    Count {
        sizes: RangeInclusive<u32>,
        options: Options,
        json: bool,
    },
}

const EXAMPLES: &str = "\
Examples:
  nqueens count 8               count the 92 solutions of the 8-queens problem
  nqueens count 16 -j 1         count n = 16 on one thread
  nqueens count 8..16           one table row per n from 8 to 16
  nqueens count 4..12 --json    JSON Lines, one object per n";

#[derive(Debug, Parser)]
#[command(
    name = "nqueens",
    version,
    about = "Counts the solutions of the N-Queens problem on every core, checked against OEIS A000170",
    after_help = EXAMPLES,
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: CliCommand,
}

#[derive(Debug, Subcommand)]
enum CliCommand {
    /// Count all solutions of one board size or of a range of sizes
    #[command(after_help = EXAMPLES)]
    Count(CountArgs),
}

#[derive(Debug, Args)]
struct CountArgs {
    /// Board size N (1 to 32), or an inclusive range A..B such as 8..16
    #[arg(value_name = "N|A..B", value_parser = parse_sizes, allow_hyphen_values = true)]
    sizes: RangeInclusive<u32>,

    /// Worker threads [default: all logical cores]
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,

    /// Search engine (mirror, join) [default: the fastest for each n]
    #[arg(long, value_name = "NAME", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<Engine>()))]
    engine: Option<Engine>,

    /// Pre-place this many rows to form the subproblems [default: enough for 32 per thread]
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_SPLIT_DEPTH)))]
    split_depth: Option<u32>,

    /// Print one JSON object per board size (JSON Lines) instead of a table
    #[arg(long)]
    json: bool,
}

/// Parses the command line. `Err` holds the exit status and what to print: help and version
/// (status 0, stdout) or one line naming the problem (status 2, stderr).
pub fn parse() -> Result<Command, clap::Error> {
    let cli = Cli::try_parse()?;
    Ok(match cli.command {
        CliCommand::Count(args) => Command::Count {
            sizes: args.sizes,
            options: Options {
                threads: args.threads.unwrap_or_else(num_cpus::get),
                split_depth: args.split_depth,
                engine: args.engine,
                ..Options::default()
            },
            json: args.json,
        },
    })
}

/// One line for a clap error: its first line, plus where to look when it names no valid values.
pub fn one_line(err: &clap::Error) -> String {
    use clap::error::ErrorKind::*;
    let text = err.to_string();
    // The first paragraph, folded onto one line (clap lists missing arguments below it).
    let first = text
        .split("\n\n")
        .next()
        .unwrap_or("error: invalid arguments")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    match err.kind() {
        UnknownArgument
        | InvalidSubcommand
        | MissingRequiredArgument
        | MissingSubcommand
        | DisplayHelpOnMissingArgumentOrSubcommand
        | TooManyValues
        | ArgumentConflict => {
            format!("{first} (see 'nqueens --help')")
        }
        _ => first.to_string(),
    }
}

fn parse_n(s: &str) -> Result<u32, String> {
    let n: i64 = s.trim().parse().map_err(|_| {
        format!("'{s}' is not a board size: expected a number from 1 to {MAX_N} or a range A..B such as 8..16")
    })?;
    u32::try_from(n)
        .ok()
        .filter(|n| nqueens::check_n(*n).is_ok())
        .ok_or_else(|| format!("n must be between 1 and {MAX_N}, got {n}"))
}

fn parse_sizes(s: &str) -> Result<RangeInclusive<u32>, String> {
    let Some((a, b)) = s.split_once("..") else {
        let n = parse_n(s)?;
        return Ok(n..=n);
    };
    let (a, b) = (parse_n(a)?, parse_n(b.strip_prefix('=').unwrap_or(b))?);
    if a > b {
        return Err(format!(
            "the range {s} is empty: write A..B with A ≤ B, both from 1 to {MAX_N}"
        ));
    }
    Ok(a..=b)
}

fn parse_threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<i64>() {
        Ok(t) if t >= 1 => usize::try_from(t).map_err(|_| format!("{t} threads is too many")),
        Ok(t) => Err(format!("the number of threads must be at least 1, got {t}")),
        Err(_) => Err(format!(
            "'{s}' is not a number of threads: expected a whole number, 1 or more"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_sizes("8"), Ok(8..=8));
        assert_eq!(parse_sizes("8..16"), Ok(8..=16));
        assert_eq!(parse_sizes("8..=16"), Ok(8..=16));
        assert!(parse_sizes("0")
            .unwrap_err()
            .contains("between 1 and 32, got 0"));
        assert!(parse_sizes("33").unwrap_err().contains("got 33"));
        assert!(parse_sizes("-4").unwrap_err().contains("got -4"));
        assert!(parse_sizes("x").unwrap_err().contains("not a board size"));
        assert!(parse_sizes("9..8").unwrap_err().contains("empty"));
        assert!(parse_sizes("8..").unwrap_err().contains("not a board size"));
    }

    #[test]
    fn threads() {
        assert_eq!(parse_threads("3"), Ok(3));
        assert!(parse_threads("0").unwrap_err().contains("at least 1"));
        assert!(parse_threads("many").unwrap_err().contains("not a number"));
    }

    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
