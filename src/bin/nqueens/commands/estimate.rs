//! `nqueens estimate`: the predicted CPU and wall time of a count, and of one shard.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::units::plural;
use nqueens::cluster::MAX_SHARDS;
use nqueens::estimate::{estimate_watched, Estimate, Sampling, MIN_SAMPLES};
use nqueens::Options;
use serde::Serialize;

use crate::error::Error;
use crate::exit::Exit;
use crate::interrupt;
use crate::progress::{self, note, Mode, Reading, Ticker};
use crate::units::{clock, duration, report_unit, HOUR, YEAR};

/// How an estimate is written: with the time of one of `shards` shards if asked, as text or as
/// one JSON object.
#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub shards: Option<u32>,
    pub json: bool,
}

impl Output {
    /// The estimate for `threads` threads as this output writes it, ending with a newline.
    fn render(&self, e: &Estimate, threads: usize) -> String {
        let figures = Figures::of(e, threads, self.shards);
        if self.json {
            serde_json::to_string(&figures).expect("an estimate always serialises") + "\n"
        } else {
            report(&figures)
        }
    }
}

/// Samples the count of `n` as `sampling` says from the stream `seed` and writes what it
/// predicts as `output` says, showing the draws so far as `progress` says; stopped by SIGINT or
/// SIGTERM, writes what the draws done predict and exits with 128 + the signal.
pub fn run(
    n: u32,
    options: &Options,
    sampling: Sampling,
    seed: u64,
    output: Output,
    progress: Mode,
) -> Result<Exit, Error> {
    let latest: Arc<Mutex<Latest>> = Arc::default();
    let shown = Arc::clone(&latest);
    let start = Instant::now();
    // Stopped, the estimate reports the draws done (those under way take minutes at n ≥ 29).
    let (kept, threads) = (Arc::clone(&latest), options.threads);
    interrupt::quit_with(move |signal| {
        stop_early(&kept, output, threads, Early::Signal(signal.name()));
    });
    // --seconds bounds the sampling: draws under way when it is up are finished, but one that
    // takes far longer (n ≥ 29, or any board under a tight memory limit, where the join counts
    // in small pieces) is not waited for past OVERDUE.
    // The thread says it has started before the sampling allocates: a thread maps its signal
    // stack as it starts, and one that cannot (under a tight memory limit, after the sampling
    // took the memory) aborts the process in the runtime's words, not ours.
    let (watched, seconds) = (Arc::clone(&latest), sampling.seconds);
    let (ready, started) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("nqueens-deadline".to_string())
        .spawn(move || {
            let _ = ready.send(());
            loop {
                std::thread::sleep(std::time::Duration::from_millis(100));
                let began = lock(&watched).began;
                if began.is_some_and(|t| t.elapsed().as_secs_f64() > overdue(seconds)) {
                    let reported = stop_early(&watched, output, threads, Early::Overdue(seconds));
                    std::process::exit(if reported {
                        Exit::Success
                    } else {
                        Exit::Failure
                    } as i32);
                }
            }
        })
        .map(|_| started.recv())
        .ok();
    let ticker = Ticker::start(progress, format!("estimate n = {n}"), move || {
        let latest = lock(&shown).estimate.clone();
        reading(latest.as_ref(), start.elapsed(), sampling.seconds)
    });
    // What other processes take while the draws are timed slows them: said, as bench says it.
    let mark = crate::bench::machine::CpuMark::now();
    let e = estimate_watched(n, options, sampling, seed, &|e| {
        let mut latest = lock(&latest);
        latest.began.get_or_insert_with(Instant::now);
        latest.estimate = Some(e.clone());
    });
    if let Some(ticker) = ticker {
        ticker.stop();
    }
    let e = e?;
    let cores = num_cpus::get().max(1) as f64;
    let others = mark.and_then(|m| m.others_since());
    if let Some(share) = others
        .and_then(|o| crate::bench::table::busy_share(o, cores, start.elapsed().as_secs_f64(), 1))
    {
        progress::clear();
        note(&format!(
            "warning: other processes took {:.0}% of the machine's CPU while the draws were \
             timed: the estimate is slower than this machine is idle; estimate on an idle machine",
            100.0 * share
        ));
    }
    let mut latest = lock(&latest);
    crate::streams::print(output.render(&e, threads))?;
    latest.reported = true;
    Ok(Exit::Success)
}

/// What an estimate has shown: the estimate so far (none while the plan is built), and whether
/// its report is written (a signal then has nothing to add).
#[derive(Default)]
struct Latest {
    estimate: Option<Estimate>,
    reported: bool,
    /// When the sampling began (the plan built).
    began: Option<Instant>,
}

/// Seconds after the sampling began past which an estimate asked to sample for `seconds` is not
/// waited for: twice the time asked, and ten seconds more.
fn overdue(seconds: f64) -> f64 {
    2.0 * seconds + 10.0
}

/// Ends an estimate before its draws are in, because of `why` (a signal, or `--seconds` long
/// overdue): the report of the draws done when there are two or more, or a line saying there
/// were too few. The lock on `latest` is held until the program exits, so that a finished
/// estimate's report cannot follow.
fn stop_early(latest: &Mutex<Latest>, output: Output, threads: usize, why: Early) -> bool {
    let latest = lock(latest);
    if latest.reported {
        // The whole report is out: nothing more to say.
        return true;
    }
    progress::clear();
    let (late, asked, why) = match why {
        Early::Signal(name) => (false, 0.0, name),
        Early::Overdue(seconds) => (true, seconds, "--seconds"),
    };
    let reported = latest.estimate.as_ref().is_some_and(|e| e.samples >= 2);
    let began = latest.began.map_or(0.0, |t| t.elapsed().as_secs_f64());
    match &latest.estimate {
        Some(e) if e.samples >= 2 => {
            if late {
                note(&format!(
                    "warning: the draws under way were not done {began:.0} s into the sampling \
                     (--seconds {asked}): the estimate is of the {} done",
                    plural(e.samples, "draw")
                ));
            } else {
                note(&format!(
                    "{why}: stopped after {}; those under way are dropped, the estimate is of \
                     those done",
                    plural(e.samples, "draw")
                ));
            }
            let _ = crate::streams::print(output.render(e, threads));
        }
        done if late => note(&format!(
            "error: {} done {began:.0} s into the sampling, too few for an estimate: one draw of \
             this board takes longer here (far longer under a tight memory limit, where the join \
             counts in small pieces); give it more --seconds or more memory",
            plural(done.as_ref().map_or(0, |e| e.samples), "draw")
        )),
        done => note(&format!(
            "{why}: stopped after {}: too few for an estimate",
            plural(done.as_ref().map_or(0, |e| e.samples), "draw")
        )),
    }
    // Held until the program exits.
    std::mem::forget(latest);
    reported
}

/// Why an estimate ends before its draws are in.
#[derive(Debug, Clone, Copy)]
enum Early {
    /// A signal, by name.
    Signal(&'static str),
    /// `--seconds` (this many) long overdue ([`overdue`]).
    Overdue(f64),
}

/// `latest` locked (a thread that panicked holding it left a whole value).
fn lock(latest: &Mutex<Latest>) -> MutexGuard<'_, Latest> {
    latest.lock().unwrap_or_else(|e| e.into_inner())
}

/// What an estimate says, as the text report and the JSON object both give it: every time in
/// seconds (CPU times include building the plan), each with the half-width of its 95% interval.
#[derive(Debug, Serialize)]
struct Figures {
    n: u32,
    engine: nqueens::Engine,
    /// Pieces of work in the count (east row sets, or subproblems).
    population: u64,
    draws: usize,
    /// The interval's width asked for (`--until`), as a share of the value.
    until: Option<f64>,
    /// Whether the interval came within it: `false` when `--seconds` came first.
    precise: Option<bool>,
    /// Whether the sampling stopped early because counting takes less time than it had spent.
    count_sooner: bool,
    /// Pieces of work timed in those draws.
    timed: u64,
    /// The share of the row sets that hold a unit, where the draws are of those only.
    share_with_unit: Option<f64>,
    /// Whether each piece was drawn in proportion to a guess at its cost.
    weighed: bool,
    /// The pairs of half-boards the join engine's count would test, and how many per CPU
    /// second (null for the other engines).
    pairs: Option<f64>,
    /// Half the width of the pairs' 95% interval: work, which no clock enters.
    pairs_margin: Option<f64>,
    pairs_per_cpu_second: Option<f64>,
    /// Of those, the pairs its counter would AND (those its pivots do not skip), with their
    /// margin, and how many per solution where the total is known.
    pairs_anded: Option<f64>,
    pairs_anded_margin: Option<f64>,
    pairs_anded_per_solution: Option<f64>,
    seed: u64,
    sampling_seconds: f64,
    setup_seconds: f64,
    cpu_seconds: f64,
    cpu_margin_seconds: f64,
    cpu_core_years: f64,
    cpu_core_years_margin: f64,
    threads: usize,
    wall_seconds: f64,
    wall_margin_seconds: f64,
    /// One shard's times, when asked for.
    shard: Option<Shard>,
    /// The fewest shards K of which each takes at most an hour of CPU by the upper end of the
    /// interval (its plan included); `None` when the plan alone takes an hour.
    shards_for_an_hour: Option<u64>,
    /// CPU seconds of one of the most shards a run may have, by the upper end of the interval,
    /// when they are fewer than `shards_for_an_hour` (said in the text only).
    #[serde(skip)]
    each_of_the_most: Option<f64>,
}

impl Figures {
    /// The times the text report shows, without their margins.
    fn times(&self) -> Vec<f64> {
        let mut times = vec![self.cpu_seconds, self.wall_seconds];
        if let Some(shard) = &self.shard {
            times.extend([shard.cpu_seconds, shard.wall_seconds]);
        }
        times
    }
}

/// One of `of` shards: its CPU time, and its wall time on the estimate's threads.
#[derive(Debug, Serialize)]
struct Shard {
    of: u32,
    cpu_seconds: f64,
    cpu_margin_seconds: f64,
    wall_seconds: f64,
    wall_margin_seconds: f64,
}

impl Figures {
    fn of(e: &Estimate, threads: usize, shards: Option<u32>) -> Figures {
        let (cpu, cpu_margin) = e.total();
        let (wall, wall_margin) = e.wall(threads);
        Figures {
            n: e.n,
            engine: e.engine,
            population: e.population,
            draws: e.samples,
            until: e.until,
            precise: e.precise(),
            count_sooner: e.sooner,
            timed: e.timed,
            share_with_unit: e.share,
            weighed: e.weighed,
            pairs: e.pairs,
            pairs_margin: e.pairs_margin,
            pairs_per_cpu_second: e.pairs.map(|p| p / e.cpu.max(f64::MIN_POSITIVE)),
            pairs_anded: e.anded,
            pairs_anded_margin: e.anded_margin,
            pairs_anded_per_solution: e.anded.and_then(|a| {
                let known = nqueens::known::known(e.n)?.total;
                (known > 0).then(|| a / known as f64)
            }),
            seed: e.seed,
            sampling_seconds: e.elapsed,
            setup_seconds: e.setup,
            cpu_seconds: cpu,
            cpu_margin_seconds: cpu_margin,
            cpu_core_years: cpu / YEAR,
            cpu_core_years_margin: cpu_margin / YEAR,
            threads,
            wall_seconds: wall,
            wall_margin_seconds: wall_margin,
            shards_for_an_hour: e.shards_within(HOUR),
            each_of_the_most: e
                .shards_within(HOUR)
                .filter(|&k| k > u64::from(MAX_SHARDS))
                .map(|_| {
                    let (cpu, margin) = e.per_shard(MAX_SHARDS);
                    cpu + margin
                }),
            shard: shards.map(|of| {
                let ((cpu, cpu_margin), (wall, wall_margin)) =
                    (e.per_shard(of), e.shard_wall(of, threads));
                Shard {
                    of,
                    cpu_seconds: cpu,
                    cpu_margin_seconds: cpu_margin,
                    wall_seconds: wall,
                    wall_margin_seconds: wall_margin,
                }
            }),
        }
    }
}

/// How far the sampling is, `elapsed` into the estimate (plan included), sampling for
/// `seconds`: the bar fills with the sampling time, and says what the draws so far predict.
fn reading(latest: Option<&Estimate>, elapsed: Duration, seconds: f64) -> Reading {
    let Some(e) = latest.filter(|e| e.samples > 0) else {
        let doing = match latest {
            None => "building the plan",
            Some(_) => "first draw under way",
        };
        let waiting = format!("{doing}, {} elapsed", clock(elapsed));
        return Reading {
            position: 0.0,
            short: waiting.clone(),
            line: waiting,
        };
    };
    let (cpu, cpu_margin) = e.total();
    let margin = if cpu_margin.is_finite() {
        format!(" ± {:.0}%", 100.0 * cpu_margin / cpu.max(f64::MIN_POSITIVE))
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
fn report(f: &Figures) -> String {
    // One unit for every time of the report, named once per line, and three significant
    // digits: each line fits 80 columns however far apart the times are.
    let unit = report_unit(&f.times());
    [
        heading(f),
        width(f),
        sooner(f),
        work(f, unit),
        wall(f, unit),
        shards_of_an_hour(f),
    ]
    .concat()
}

/// The report's first two lines of at most 80 columns: the plan, then the sample.
fn heading(f: &Figures) -> String {
    let pieces = match f.engine {
        nqueens::Engine::Join => "east row set",
        _ => "subproblem",
    };
    let among = f.share_with_unit.map_or(String::new(), |p| {
        format!(" among the {:.1}% with a unit", 100.0 * p)
    }) + if f.weighed { ", weighed by cost," } else { "" };
    // Draws are with replacement: more pieces may be timed than the count has.
    format!(
        "n = {}, {} engine, {}, {} timed; plan built in {}\n{} draws{among} in {:.1} s (seed {})\n",
        f.n,
        f.engine,
        plural(f.population as usize, pieces),
        f.timed,
        duration(f.setup_seconds),
        f.draws,
        f.sampling_seconds,
        f.seed,
    )
}

/// A time of the report in `unit` with its margin and interval, as one line.
fn timed(unit: (f64, &str), what: &str, value: f64, margin: f64) -> String {
    let at = |x: f64| {
        let x = x / unit.0;
        // Three significant digits, but no finer than a ten-thousandth.
        let digits = significant(x).split('.').nth(1).map_or(0, str::len).min(4);
        format!("{x:.digits$}")
    };
    format!(
        "{what:<24} {} ± {} {} ({:.0}%), 95% interval {}–{}\n",
        at(value),
        at(margin),
        unit.1,
        100.0 * margin / value.max(f64::MIN_POSITIVE),
        at((value - margin).max(0.0)),
        at(value + margin)
    )
}

/// Where the sampling stopped early because the count takes less time than it had spent: the
/// command that counts instead.
fn sooner(f: &Figures) -> String {
    if !f.count_sooner {
        return String::new();
    }
    format!(
        "stopped early: counting takes less than the {:.1} s sampled; count it instead: \
         nqueens count {} -j {}\n",
        f.setup_seconds + f.sampling_seconds,
        f.n,
        f.threads
    )
}

/// Whether the width asked for with --until was reached, where one was asked for.
fn width(f: &Figures) -> String {
    let (Some(until), Some(precise)) = (f.until, f.precise) else {
        return String::new();
    };
    // 10% or 0.5%: the width as it was asked for.
    let asked = format!("{}%", (1000.0 * until).round() / 10.0);
    let got = 100.0 * f.cpu_margin_seconds / f.cpu_seconds.max(f64::MIN_POSITIVE);
    if precise && got > 100.0 * until {
        // Draws under way when it got there were added after: they may widen it a little.
        format!(
            "sampled until the interval was within ±{asked} (±{got:.1}% with the draws that \
             were under way then)\n"
        )
    } else if precise {
        format!("sampled until the interval was within ±{asked}\n")
    } else {
        format!(
            "the --seconds cap came before ±{asked}: ±{got:.0}% after {:.1} s\n",
            f.sampling_seconds
        )
    }
}

/// The count's work: its CPU time, in core-years too, and the join's pairs.
fn work(f: &Figures, unit: (f64, &str)) -> String {
    let mut out = timed(unit, "CPU time", f.cpu_seconds, f.cpu_margin_seconds);
    out += &format!(
        "{:<24} {} ± {}\n",
        "CPU-core-years",
        significant(f.cpu_core_years),
        significant(f.cpu_core_years_margin)
    );
    if let (Some(pairs), Some(rate)) = (f.pairs, f.pairs_per_cpu_second) {
        let margin = pairs_margin(pairs, f.pairs_margin);
        out += &format!(
            "{:<24} {pairs:.3e}{margin} ({rate:.3e} per CPU second)\n",
            "pairs tested"
        );
    }
    if let Some(anded) = f.pairs_anded {
        let margin = pairs_margin(anded, f.pairs_anded_margin);
        let per = (f.pairs_anded_per_solution)
            .map_or(String::new(), |p| format!(" ({p:.3e} per solution)"));
        out += &format!("{:<24} {anded:.3e}{margin}{per}\n", "pairs ANDed");
    }
    out
}

/// A count of pairs' margin as the report shows it: ± its share of the value, where it is
/// finite (two draws at least).
fn pairs_margin(value: f64, margin: Option<f64>) -> String {
    match margin {
        Some(m) if m.is_finite() && value > 0.0 => format!(" ± {:.1}%", 100.0 * m / value),
        _ => String::new(),
    }
}

/// The wall time on the run's threads, and one shard's where shards were asked for.
fn wall(f: &Figures, unit: (f64, &str)) -> String {
    let on = plural(f.threads, "thread");
    let mut out = timed(
        unit,
        &format!("wall time, {on}"),
        f.wall_seconds,
        f.wall_margin_seconds,
    );
    if let Some(shard) = &f.shard {
        let of = shard.of;
        out += &timed(
            unit,
            &format!("one of {of} shards, CPU"),
            shard.cpu_seconds,
            shard.cpu_margin_seconds,
        );
        out += &timed(
            unit,
            &format!("one shard, {on}"),
            shard.wall_seconds,
            shard.wall_margin_seconds,
        );
    }
    out
}

/// How many shards keep each within an hour of CPU.
fn shards_of_an_hour(f: &Figures) -> String {
    match (f.shards_for_an_hour, f.each_of_the_most) {
        // More than a run may have: what the most shards give instead.
        (Some(k), Some(each)) => format!(
            "{:<24} {k} (a run may have {MAX_SHARDS}: each then {:.1} h)\n",
            "shards of an hour",
            each / HOUR
        ),
        (Some(k), None) => format!(
            "{:<24} {k} or more (--shards K: one shard at most 1 h of CPU)\n",
            "shards of an hour"
        ),
        (None, _) => format!(
            "{:<24} none: the plan alone takes an hour\n",
            "shards of an hour"
        ),
    }
}

/// `x` to three significant digits (at least the units): 0.000476, 1.86, 150, 5173.
fn significant(x: f64) -> String {
    let digits = if x > 0.0 {
        (2 - x.log10().floor() as i32).max(0) as usize
    } else {
        0
    };
    format!("{x:.digits$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An estimate with these figures: one the library made (only it builds a result), its
    /// fields then set by `set`.
    fn estimate_with(set: impl FnOnce(&mut Estimate)) -> Estimate {
        let options = nqueens::Options::default().with_threads(1);
        let mut e = nqueens::estimate::estimate(6, &options, 0.01, 1).unwrap();
        set(&mut e);
        e
    }

    /// `e` with the fields `set` changes.
    fn with(e: &Estimate, set: impl FnOnce(&mut Estimate)) -> Estimate {
        let mut e = e.clone();
        set(&mut e);
        e
    }

    #[test]
    fn the_shards_of_an_hour_are_the_fewest_that_fit_with_their_plan() {
        let e = estimate_with(|e| {
            e.n = 28;
            e.engine = nqueens::Engine::Join;
            e.population = 1;
            e.samples = 10;
            e.timed = 10;
            e.cpu = 10.0 * HOUR;
            e.margin = HOUR;
            e.setup = 60.0;
            e.elapsed = 1.0;
            e.seed = 1;
            e.share = None;
        });
        // 11 h by the interval's upper end, 59 min of room per shard: 12 shards.
        assert_eq!(e.shards_within(HOUR), Some(12));
        assert!(e.per_shard(12).0 + e.per_shard(12).1 <= HOUR);
        assert!(e.per_shard(11).0 + e.per_shard(11).1 > HOUR);
        assert_eq!(
            with(&e.clone(), |e| {
                e.cpu = 1.0;
                e.margin = 0.0;
            })
            .shards_within(HOUR),
            Some(1)
        );
        assert_eq!(
            with(&e, |e| {
                e.setup = 2.0 * HOUR;
            })
            .shards_within(HOUR),
            None
        );
    }

    /// Every time of a report in one unit, and every line within 80 columns, from a count of
    /// seconds to one of decades split a million ways on a thousand threads.
    #[test]
    fn a_report_keeps_one_unit_within_80_columns() {
        let drawn = estimate_with(|e| {
            e.n = 27;
            e.engine = nqueens::Engine::Join;
            e.population = 20_058_300;
            e.samples = 10;
            e.timed = 10;
            e.cpu = 1.0;
            e.margin = 0.1;
            e.setup = 0.0;
            e.elapsed = 1.0;
            e.seed = u64::MAX;
            e.share = Some(0.26);
        });
        let report_of = |cpu: f64, margin: f64, threads: usize, shards: Option<u32>| {
            report(&Figures::of(
                &with(&drawn, |e| {
                    e.cpu = cpu;
                    e.margin = margin;
                }),
                threads,
                shards,
            ))
        };
        let text = report_of(158.4, 12.0, 2, None);
        // 2.64 min of CPU beside 79.2 s of wall time: both in seconds.
        let cpu = text.lines().find(|l| l.starts_with("CPU time")).unwrap();
        assert!(
            cpu.contains("158 ± 12.0 s (8%), 95% interval 146–170"),
            "{cpu}"
        );
        let wall = text.lines().find(|l| l.starts_with("wall time")).unwrap();
        assert!(wall.contains("79.2 ± 6.00 s"), "{wall}");
        let text = report_of(8.2 * YEAR, 1.28 * YEAR, 2, Some(100_000));
        for line in text
            .lines()
            .filter(|l| l.contains(" ± ") && !l.starts_with("CPU-"))
        {
            assert!(line.contains(" h ("), "not in hours: {line}\n{text}");
        }
        for (cpu, threads, shards) in [
            (0.001, 1, None),
            (150.0, 2, Some(8)),
            (90.0 * YEAR, 1024, Some(1_000_000)),
            (90.0 * YEAR, 2, Some(1)),
            (1e3 * YEAR, 16, Some(1_000_000)),
        ] {
            let text = report_of(cpu, cpu / 3.0, threads, shards);
            let units: Vec<&str> = text
                .lines()
                .filter(|l| l.contains(" ± ") && !l.starts_with("CPU-"))
                .map(|l| l.split(" (").next().unwrap().rsplit(' ').next().unwrap())
                .collect();
            assert!(units.windows(2).all(|w| w[0] == w[1]), "{units:?}\n{text}");
            for line in text.lines() {
                assert!(line.chars().count() <= 80, "over 80 columns: {line}");
            }
        }
    }

    /// More shards of an hour than a run may have: the most it may, and how long each takes.
    #[test]
    fn shards_beyond_the_most_a_run_may_have_are_said() {
        let e = estimate_with(|e| {
            e.n = 28;
            e.engine = nqueens::Engine::Join;
            e.population = 40_116_600;
            e.samples = 24;
            e.timed = 24;
            e.cpu = 90.0 * YEAR;
            e.margin = 32.0 * YEAR;
            e.setup = 0.0;
            e.elapsed = 150.0;
            e.seed = 11;
            e.share = Some(0.25);
        });
        let text = report(&Figures::of(&e, 2, None));
        let line = text
            .lines()
            .find(|l| l.starts_with("shards of an hour"))
            .unwrap();
        assert!(
            line.contains("1069452 (a run may have 1000000: each then 1.1 h)"),
            "{line}"
        );
    }

    #[test]
    fn before_the_first_draw_the_reading_says_what_is_under_way() {
        let elapsed = Duration::from_secs(65);
        let planning = reading(None, elapsed, 10.0);
        assert_eq!(planning.line, "building the plan, 0:01:05 elapsed");
        let started = estimate_with(|e| {
            e.n = 20;
            e.engine = nqueens::Engine::Join;
            e.population = 184_756;
            e.samples = 0;
            e.timed = 0;
            e.cpu = 0.0;
            e.margin = f64::INFINITY;
            e.setup = 1.0;
            e.elapsed = 0.0;
            e.seed = 1;
            e.share = None;
        });
        let drawing = reading(Some(&started), elapsed, 10.0);
        assert_eq!(drawing.line, "first draw under way, 0:01:05 elapsed");
        assert_eq!((planning.position, drawing.position), (0.0, 0.0));
        let one = with(&started, |e| {
            e.samples = 1;
            e.cpu = 120.0;
            e.elapsed = 2.5;
        });
        let read = reading(Some(&one), elapsed, 10.0);
        assert!(
            read.line.starts_with("1 draw in 0:00:02 of sampling"),
            "{}",
            read.line
        );
        assert_eq!(read.position, 0.25);
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
