//! Times and counts as a person reads them: the one duration formatter (a value in the largest
//! unit that keeps it readable), the running clock of a progress line, and plurals.

use std::time::Duration;

pub use nqueens::util::text::plural;

/// A year of 365.25 days, in seconds.
pub const YEAR: f64 = 365.25 * 86_400.0;
/// An hour, in seconds.
pub const HOUR: f64 = 3_600.0;

/// A unit of time: its length in seconds and its name.
pub type Unit = (f64, &'static str);

/// The units of time a report uses, smallest first.
const UNITS: [Unit; 5] = [
    (1.0, "s"),
    (60.0, "min"),
    (3_600.0, "h"),
    (86_400.0, "days"),
    (YEAR, "years"),
];

/// The largest unit that keeps `seconds` readable (at least two of it; seconds below that).
pub fn unit_of(seconds: f64) -> Unit {
    UNITS
        .into_iter()
        .rev()
        .find(|(size, _)| seconds >= 2.0 * size)
        .unwrap_or(UNITS[0])
}

/// The one unit of a report showing `times`: the largest that keeps the smallest of them at two
/// or more of it (as [`unit_of`]), made larger while the largest would take seven digits.
pub fn report_unit(times: &[f64]) -> Unit {
    let least = times.iter().copied().fold(f64::INFINITY, f64::min);
    let most = times.iter().copied().fold(0.0, f64::max);
    let from = unit_of(if least.is_finite() { least } else { 0.0 });
    UNITS
        .into_iter()
        .skip_while(|unit| unit.0 < from.0)
        .find(|unit| most / unit.0 < 1e6)
        .unwrap_or(UNITS[4])
}

/// `seconds` in `unit`: three decimals for seconds, two for the larger units.
pub fn in_unit(seconds: f64, (size, name): Unit) -> String {
    if size == 1.0 {
        format!("{seconds:.3} s")
    } else {
        format!("{:.2} {name}", seconds / size)
    }
}

/// Seconds in the largest unit that keeps the number readable: the one way the program writes
/// a duration (a running clock aside: [`clock`]).
pub fn duration(seconds: f64) -> String {
    in_unit(seconds, unit_of(seconds))
}

/// `h:mm:ss`.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_their_unit() {
        assert_eq!(duration(1.5), "1.500 s");
        assert_eq!(duration(150.0), "2.50 min");
        assert_eq!(duration(3.0 * 86_400.0), "3.00 days");
        assert_eq!(duration(4.0 * YEAR), "4.00 years");
    }

    #[test]
    fn a_clock_reads_hours_minutes_and_seconds() {
        assert_eq!(clock(Duration::from_secs(3 * 3600 + 62)), "3:01:02");
        assert_eq!(plural(1, "thread"), "1 thread");
        assert_eq!(plural(2, "thread"), "2 threads");
    }
}
