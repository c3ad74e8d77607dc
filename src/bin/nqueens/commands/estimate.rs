//! `nqueens estimate`: the predicted CPU and wall time of a count, and of one shard.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nqueens::estimate::{estimate_watched, Estimate, MIN_SAMPLES};
use nqueens::report::plural;
use nqueens::Options;

use crate::error::Error;
use crate::exit::Exit;
use crate::interrupt;
use crate::progress::{self, clock, note, Mode, Reading, Ticker};

/// Samples the count of `n` for about `seconds` from the stream `seed` and prints what it
/// predicts, showing the draws so far as `progress` says; stopped by SIGINT or SIGTERM, prints
/// what the draws done predict and exits with 128 + the signal.
pub fn run(
    n: u32,
    options: &Options,
    shards: Option<u32>,
    (seconds, seed): (f64, u64),
    progress: Mode,
) -> Result<Exit, Error> {
    let latest: Arc<Mutex<Option<Estimate>>> = Arc::default();
    let shown = Arc::clone(&latest);
    let start = Instant::now();
    // Stopped, the estimate reports the draws done (those under way take minutes at n ≥ 29).
    let kept = Arc::clone(&latest);
    let threads = options.threads;
    interrupt::quit_with(move |signal| {
        progress::clear();
        let name = signal.name();
        match kept.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            Some(e) if e.samples >= 2 => {
                note(&format!(
                    "{name}: stopped after {}; those under way are dropped, the estimate is of \
                     those done",
                    plural(e.samples, "draw")
                ));
                print!("{}", report(e, threads, shards));
                let _ = std::io::stdout().flush();
            }
            done => note(&format!(
                "{name}: stopped after {}: too few for an estimate",
                plural(done.map_or(0, |e| e.samples), "draw")
            )),
        }
    });
    let ticker = Ticker::start(progress, format!("estimate n = {n}"), move || {
        let latest = shown.lock().unwrap_or_else(|e| e.into_inner()).clone();
        sampling(latest.as_ref(), start.elapsed(), seconds)
    });
    let e = estimate_watched(n, options, seconds, seed, &|e| {
        *latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(e.clone());
    });
    if let Some(ticker) = ticker {
        ticker.stop();
    }
    print!("{}", report(&e?, options.threads, shards));
    Ok(Exit::Success)
}

/// How far the sampling is, `elapsed` into the estimate (plan included), sampling for
/// `seconds`: the bar fills with the sampling time, and says what the draws so far predict.
fn sampling(latest: Option<&Estimate>, elapsed: Duration, seconds: f64) -> Reading {
    let Some(e) = latest.filter(|e| e.samples > 0) else {
        let waiting = format!("no draw done yet, {} elapsed", clock(elapsed));
        return Reading {
            position: 0.0,
            short: waiting.clone(),
            line: waiting,
        };
    };
    let cpu = e.cpu + e.setup;
    let margin = if e.margin.is_finite() {
        format!(" ± {:.0}%", 100.0 * e.margin / cpu.max(f64::MIN_POSITIVE))
    } else {
        String::new()
    };
    let draws = plural(e.samples, "draw");
    let budget = clock(Duration::from_secs_f64(seconds));
    let sampled = clock(Duration::from_secs_f64(e.elapsed));
    Reading {
        position: e.elapsed / seconds.max(f64::MIN_POSITIVE),
        short: format!(
            "{draws}, {sampled} of {budget}: CPU {}{margin}",
            duration(cpu)
        ),
        line: format!(
            "{draws} in {sampled} of sampling (for {budget}, at least {MIN_SAMPLES} draws), \
             {} elapsed: CPU time {}{margin} so far",
            clock(elapsed),
            duration(cpu)
        ),
    }
}

/// The estimate as lines of text.
fn report(e: &Estimate, threads: usize, shards: Option<u32>) -> String {
    let pieces = match e.engine {
        nqueens::Engine::Join => "east row set",
        _ => "subproblem",
    };
    let among = e.share.map_or(String::new(), |p| {
        format!(" among the {:.1}% with a unit", 100.0 * p)
    });
    // Draws are with replacement: more pieces may be timed than the count has.
    let mut out = format!(
        "n = {}, {} engine, {}: {} draws{among}, {} timed (seed {}), {:.1} s; plan built in {}\n",
        e.n,
        e.engine,
        plural(e.population as usize, pieces),
        e.samples,
        plural(e.timed as usize, pieces),
        e.seed,
        e.elapsed,
        duration(e.setup)
    );
    let line = |what: &str, (value, margin): (f64, f64)| {
        format!(
            "{what:<22} {} ± {} ({:.0}%; 95% interval {} to {})\n",
            duration(value),
            duration(margin),
            100.0 * margin / value.max(f64::MIN_POSITIVE),
            duration((value - margin).max(0.0)),
            duration(value + margin)
        )
    };
    out += &line("CPU time", (e.cpu + e.setup, e.margin));
    out += &format!(
        "{:<22} {} ± {}\n",
        "CPU-core-years",
        significant((e.cpu + e.setup) / YEAR),
        significant(e.margin / YEAR)
    );
    let on = plural(threads, "thread");
    out += &line(&format!("wall time, {on}"), e.wall(threads));
    if let Some(k) = shards {
        out += &line(&format!("one of {k} shards, CPU"), e.per_shard(k));
        out += &line(&format!("one shard, {on}"), e.shard_wall(k, threads));
    }
    out
}

const YEAR: f64 = 365.25 * 86_400.0;

/// `x` to three significant digits (at least the units): 0.000476, 1.86, 150, 5173.
fn significant(x: f64) -> String {
    let digits = if x > 0.0 {
        (2 - x.log10().floor() as i32).max(0) as usize
    } else {
        0
    };
    format!("{x:.digits$}")
}

/// Seconds in the largest unit that keeps the number readable.
fn duration(seconds: f64) -> String {
    let units = [
        (YEAR, "years"),
        (86_400.0, "days"),
        (3_600.0, "h"),
        (60.0, "min"),
    ];
    units
        .iter()
        .find(|(size, _)| seconds >= 2.0 * size)
        .map_or_else(
            || format!("{seconds:.3} s"),
            |(size, name)| format!("{:.2} {name}", seconds / size),
        )
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
    fn core_years_keep_three_significant_digits() {
        assert_eq!(significant(0.000_476_2), "0.000476");
        assert_eq!(significant(1.8557), "1.86");
        assert_eq!(significant(150.495), "150");
        assert_eq!(significant(5173.18), "5173");
        assert_eq!(significant(0.0), "0");
    }
}
