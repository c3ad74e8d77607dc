//! The text of a checkpoint's lines, made and read back: a finished piece's record, a piece's
//! part, a run's time; each with the CRC-32 that binds it to the plan's fingerprint.

use std::time::Duration;

use super::Identity;
use crate::plan::Part;
use crate::search::kernel::Search;
use crate::util::text::excerpt;

/// The three numbers and the checksum of a line's `fields` (after its `prefix` words): `what`
/// names the kind of line in the errors.
fn three_numbers<'a>(
    fields: &'a str,
    what: &str,
    prefix: usize,
) -> Result<([u64; 3], &'a str), String> {
    let f: Vec<&str> = fields.split(' ').collect();
    let [a, b, c, crc] = f[..] else {
        return Err(format!(
            "{what} has {} fields, this one has {}",
            4 + prefix,
            f.len() + prefix
        ));
    };
    let number = |s: &str| {
        s.parse::<u64>()
            .map_err(|_| format!("'{}' is not a number", excerpt(s)))
    };
    Ok(([number(a)?, number(b)?, number(c)?], crc))
}

/// The fields of a time line after `time `: run, wall and CPU microseconds, checksum.
pub(super) fn parse_time(fields: &str, plan: u32) -> Result<(u64, Duration, Duration), String> {
    let ([run, wall, cpu], crc) = three_numbers(fields, "a time line", 1)?;
    if crc != time_crc(plan, run, wall, cpu) {
        return Err("the time line's checksum does not match".to_string());
    }
    Ok((run, Duration::from_micros(wall), Duration::from_micros(cpu)))
}

/// The checksum of a time line of the plan with fingerprint `plan`.
fn time_crc(plan: u32, run: u64, wall: u64, cpu: u64) -> String {
    format!(
        "{:08x}",
        crc32fast::hash(format!("{plan:08x} time {run} {wall} {cpu}").as_bytes())
    )
}

/// The time line of run `run` after `wall` and `cpu`.
pub(super) fn time_line(plan: u32, run: u64, wall: Duration, cpu: Duration) -> String {
    let (wall, cpu) = (wall.as_micros() as u64, cpu.as_micros() as u64);
    format!(
        "time {run} {wall} {cpu} {}\n",
        time_crc(plan, run, wall, cpu)
    )
}

/// The fields of a part line after `part `: id, parts done, solutions, checksum.
pub(super) fn parse_part(fields: &str, identity: &Identity) -> Result<(usize, Part), String> {
    let ([id, done, solutions], crc) = three_numbers(fields, "a part line", 1)?;
    let id = piece_id(id, identity)?;
    let done = u32::try_from(done).map_err(|_| format!("{done} parts is too many"))?;
    let part = Part::new(done, solutions);
    if crc != record_crc(identity.plan, &part_body(id, part)) {
        return Err(
            "the part line's checksum does not match (a damaged line, or one from another plan)"
                .to_string(),
        );
    }
    Ok((id, part))
}

/// The text a part line's checksum covers, after the plan.
pub(super) fn part_body(id: usize, part: Part) -> String {
    format!("part {id} {} {}", part.done, part.solutions)
}

/// `id` as a piece of the plan `identity` names.
fn piece_id(id: u64, identity: &Identity) -> Result<usize, String> {
    let subproblems = identity.subproblems;
    usize::try_from(id)
        .ok()
        .filter(|&id| id < subproblems)
        .ok_or(format!(
            "subproblem {id} is not in the plan (0 to {})",
            subproblems.saturating_sub(1)
        ))
}

fn record_body(id: usize, found: &Search) -> String {
    format!("{id} {} {}", found.solutions, found.nodes)
}

/// The checksum of a record of the plan with fingerprint `plan`.
pub(super) fn record_crc(plan: u32, body: &str) -> String {
    format!(
        "{:08x}",
        crc32fast::hash(format!("{plan:08x} {body}").as_bytes())
    )
}

pub(super) fn record_line(plan: u32, id: usize, found: &Search) -> String {
    let body = record_body(id, found);
    format!("{body} {}\n", record_crc(plan, &body))
}

pub(super) fn parse_record(line: &str, identity: &Identity) -> Result<(usize, Search), String> {
    let ([id, solutions, nodes], crc) = three_numbers(line, "a record", 0)?;
    let id = piece_id(id, identity)?;
    let found = Search { solutions, nodes };
    if crc != record_crc(identity.plan, &record_body(id, &found)) {
        return Err(
            "the record's checksum does not match (a damaged record, or one from another plan)"
                .to_string(),
        );
    }
    Ok((id, found))
}
