//! `nqueens count N|A..B`: one table row (or JSON line) per board size, each checked against the
//! published counts; a long run resumes from its checkpoint and shows its progress.

use std::io::Write;
use std::ops::RangeInclusive;

use crate::report::{self, Report};
use nqueens::Options;

use crate::command::Watch;
use crate::error::Error;
use crate::exit::Exit;
use crate::interrupt::{self, Interrupt};
use crate::longrun;

/// Counts every size in `sizes`, printing each result as it comes.
pub fn run(
    sizes: RangeInclusive<u32>,
    options: &Options,
    json: bool,
    watch: &Watch,
) -> Result<Exit, Error> {
    let interrupt = Interrupt::install(watch.checkpoint.is_some(), &interrupt::resume_args(None));
    let mut out = crate::streams::stdout()?;
    // The table header comes with the first row, so a refusal prints nothing on stdout.
    let mut header = !json;
    let mut wrong = Vec::new();
    for n in sizes {
        let counts = longrun::count(n, options, watch, &interrupt)?;
        let r = Report::from(&counts);
        if r.verified == Some(false) {
            wrong.push(format!(
                "n = {} counted {}, not the published {}",
                r.n,
                r.total,
                r.expected.unwrap_or_default()
            ));
        }
        let line = if json {
            r.json()
        } else {
            report::table_row(&r)
        };
        let header = std::mem::take(&mut header).then(report::table_header);
        let written = header
            .map_or(Ok(()), |h| writeln!(out, "{h}"))
            .and_then(|()| writeln!(out, "{line}"))
            .and_then(|()| out.flush());
        match written {
            // The reader had what it wanted (`count 10..20 | head -3`): a wrong count seen so
            // far still fails the run.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
            written => written?,
        }
    }
    if wrong.is_empty() {
        Ok(Exit::Success)
    } else {
        Err(Error::Message(format!("wrong count: {}", wrong.join("; "))))
    }
}
