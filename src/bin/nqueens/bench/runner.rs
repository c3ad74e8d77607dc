//! Runs a benchmark: choose n, then for each thread count warm-up runs and timed runs, each count
//! checked against the expected total before its time is kept.

use std::iter::successors;

use super::{Bench, Calibration, Error, Machine, Probe, Row};
use nqueens::{known, Counts, Engine, Options};

/// What to measure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Board size; `None` calibrates one so that the run on the most threads takes at least
    /// [`LEAST_SECONDS`], stepping n up on that thread count ([`calibrate`]).
    pub n: Option<u32>,
    /// Thread counts; empty means [`default_thread_counts`]. 1 is always measured: it is the baseline.
    pub threads: Vec<usize>,
    /// Untimed runs per thread count, before the timed ones.
    pub warmup: usize,
    /// Timed runs per thread count (at least 1).
    pub runs: usize,
    /// The engine; `None` picks the fastest for n.
    pub engine: Option<Engine>,
    /// The total every run must give; `None` takes it from the published table.
    ///
    /// Test-only: a wrong value here is how the tests see a wrong count make the bench fail.
    pub expected_total: Option<u128>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            n: None,
            threads: Vec::new(),
            warmup: 1,
            runs: 3,
            engine: None,
            expected_total: None,
        }
    }
}

/// What the runner is doing, for progress displays and for saving results as they come.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// A one-thread probe run of `n` for the calibration is starting.
    Calibrating {
        /// Board size of the probe.
        n: u32,
    },
    /// n is chosen and the header known; `runs` runs follow in all.
    Started {
        /// The benchmark so far (no rows yet).
        bench: &'a Bench,
        /// Warm-up and timed runs still to come, over all thread counts.
        runs: usize,
    },
    /// A run is starting.
    Run {
        /// Worker threads.
        threads: usize,
        /// 0-based index among this thread count's runs (warm-up first).
        index: usize,
        /// Whether it is a warm-up run.
        warmup: bool,
    },
    /// A thread count is finished: its row is the last of `bench.results`.
    Row {
        /// The benchmark so far.
        bench: &'a Bench,
    },
}

/// The least time a run on the most threads should take: below it, starting the threads and
/// building the plan weigh on the speedup, and the table measures start-up, not scaling.
pub const LEAST_SECONDS: f64 = 1.0;
/// The longest one-thread run the calibration aims at, however many threads there are (on a
/// very wide machine the widest run is then shorter, and the table says so).
pub(crate) const MOST_ONE_THREAD_SECONDS: f64 = 60.0;
/// The calibration starts here.
const FIRST_PROBE: u32 = 8;

/// Runs the benchmark, telling `on` of each step; `on` failing stops it.
pub fn run(
    settings: &Settings,
    on: &mut dyn FnMut(Event<'_>) -> Result<(), Error>,
) -> Result<Bench, Error> {
    if settings.runs == 0 {
        return Err(Error::NoRuns);
    }
    // Before the calibration, so that the load average is the machine's own.
    let machine = Machine::detect();
    let threads = thread_counts(&settings.threads);
    let widest = threads.iter().copied().max().unwrap_or(1);
    let (n, calibration) = match settings.n {
        Some(n) => (n, None),
        None => {
            // The widest run itself, stepped up until it takes LEAST_SECONDS: no growth from n
            // to n+1 is assumed (it differs by machine), so what it predicts it measured.
            let c = calibrate(widest, |n| {
                on(Event::Calibrating { n })?;
                let counts = count(n, widest, settings.engine, published(n)?, false)?;
                Ok(counts.elapsed.as_secs_f64())
            })?;
            (c.0, Some(c.1))
        }
    };
    let expected = match settings.expected_total {
        Some(total) => total,
        None => published(n)?,
    };
    let mut bench = Bench {
        machine,
        n,
        calibration,
        engine: settings.engine.unwrap_or_else(|| Engine::fastest(n)),
        expected_total: expected,
        warmup: settings.warmup,
        runs: settings.runs,
        results: Vec::new(),
    };
    let per_thread_count = settings.warmup + settings.runs;
    on(Event::Started {
        bench: &bench,
        runs: threads.len() * per_thread_count,
    })?;
    for threads in threads {
        let mut times = Vec::with_capacity(settings.runs);
        let mut others = Some(0.0);
        let mut first = None;
        for index in 0..per_thread_count {
            let warmup = index < settings.warmup;
            on(Event::Run {
                threads,
                index,
                warmup,
            })?;
            // Counting the queens placed costs a few percent: only the first run does it, which
            // is a warm-up run unless there are none.
            let mark = super::machine::CpuMark::now();
            let counts = count(n, threads, Some(bench.engine), expected, index == 0)?;
            if !warmup {
                times.push(counts.elapsed.as_secs_f64());
                let took = mark.and_then(|m| m.others_since());
                others = others.zip(took).map(|(sum, took)| sum + took);
            }
            first.get_or_insert(counts);
        }
        let counts = first.expect("at least one run");
        let baseline = bench.results.first().map(|r| r.median_seconds);
        let mut row = Row::new(times, &counts, baseline);
        row.others_cpu_seconds = others;
        bench.results.push(row);
        on(Event::Row { bench: &bench })?;
    }
    Ok(bench)
}

/// The published total of `n`.
fn published(n: u32) -> Result<u128, Error> {
    known::known(n).map(|k| k.total).ok_or(Error::Unknown { n })
}

/// One run, checked against `expected`.
fn count(
    n: u32,
    threads: usize,
    engine: Option<Engine>,
    expected: u128,
    count_nodes: bool,
) -> Result<Counts, Error> {
    let options = Options::default()
        .with_threads(threads)
        .with_engine(engine)
        .with_count_nodes(count_nodes);
    let counts = nqueens::count(n, &options)?;
    if counts.total != expected {
        return Err(Error::WrongCount {
            n,
            threads,
            got: counts.total,
            expected,
        });
    }
    Ok(counts)
}

/// 1, 2, 4, … up to the logical cores (included), plus the physical core count.
pub fn default_thread_counts(logical: usize, physical: usize) -> Vec<usize> {
    let mut threads: Vec<usize> = successors(Some(1usize), |t| t.checked_mul(2))
        .take_while(|&t| t < logical)
        .collect();
    threads.extend([logical, physical]);
    thread_counts(&threads)
}

/// The thread counts to measure: `asked` (or the default when empty) with 1 added, sorted, once.
pub fn thread_counts(asked: &[usize]) -> Vec<usize> {
    if asked.is_empty() {
        return default_thread_counts(num_cpus::get(), num_cpus::get_physical());
    }
    let mut threads = asked.to_vec();
    threads.push(1);
    threads.sort_unstable();
    threads.dedup();
    threads
}

/// Chooses n from runs of growing n on the `widest` thread count (`probe(n)` returns seconds),
/// from [`FIRST_PROBE`]: the first whose run takes at least [`LEAST_SECONDS`], or whose
/// one-thread run, `widest` times as long if it scales, would pass
/// [`MOST_ONE_THREAD_SECONDS`] (the largest known n if none does). The chosen n's probe is a run
/// of the widest thread count: what the bench will time there, measured.
pub fn calibrate(
    widest: usize,
    mut probe: impl FnMut(u32) -> Result<f64, Error>,
) -> Result<(u32, Calibration), Error> {
    let last_n = known::table().len() as u32;
    let mut probes = Vec::new();
    for n in FIRST_PROBE..=last_n {
        let seconds = probe(n)?;
        probes.push(Probe {
            n,
            seconds,
            threads: widest,
        });
        if seconds >= LEAST_SECONDS || seconds * widest as f64 >= MOST_ONE_THREAD_SECONDS {
            break;
        }
    }
    let Probe { n, seconds, .. } = *probes.last().expect("at least one probe");
    Ok((
        n,
        Calibration {
            probes,
            estimated_seconds: seconds,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_threads_double_up_to_the_cores_and_add_the_physical_count() {
        assert_eq!(default_thread_counts(1, 1), vec![1]);
        assert_eq!(default_thread_counts(2, 2), vec![1, 2]);
        assert_eq!(default_thread_counts(8, 4), vec![1, 2, 4, 8]);
        assert_eq!(default_thread_counts(12, 6), vec![1, 2, 4, 6, 8, 12]);
        assert_eq!(default_thread_counts(16, 12), vec![1, 2, 4, 8, 12, 16]);
    }

    #[test]
    fn asked_threads_always_include_the_baseline() {
        assert_eq!(thread_counts(&[8, 2, 2]), vec![1, 2, 8]);
        assert_eq!(thread_counts(&[1]), vec![1]);
    }

    /// A machine on which n takes `base × 6.5^(n - 8)` seconds.
    fn machine(base: f64) -> impl FnMut(u32) -> Result<f64, Error> {
        move |n| Ok(base * 6.5f64.powi(n as i32 - 8))
    }

    #[test]
    fn calibration_steps_up_until_the_widest_run_takes_a_second() {
        // 1e-6 s at n = 8: n = 15 takes 0.49 s, n = 16 3.2 s: chosen, and measured.
        let (n, c) = calibrate(2, machine(1e-6)).unwrap();
        assert_eq!((n, c.probes.len()), (16, 9));
        assert!((c.estimated_seconds - 1e-6 * 6.5f64.powi(8)).abs() < 1e-9);
        assert!(c.probes.iter().all(|p| p.threads == 2));
        // Whatever the growth from one n to the next: 2× here, 10× there.
        let times = [1e-3, 2e-3, 0.02, 0.04, 0.4, 0.8, 8.0];
        let (n, c) = calibrate(4, |n| Ok(times[n as usize - 8])).unwrap();
        assert_eq!((n, c.estimated_seconds), (14, 8.0));
        // A very slow machine: n = 8 already takes 5 s.
        assert_eq!(calibrate(1, machine(5.0)).unwrap().0, 8);
        // A hundred threads: the one-thread run of a widest run of 0.61 s would take 61 s.
        let (n, c) = calibrate(100, |n| Ok(0.7 * f64::from(n - 7) / 8.0)).unwrap();
        assert_eq!((n, c.probes.len()), (14, 7));
    }

    #[test]
    fn calibration_stops_at_the_last_known_n() {
        let (n, c) = calibrate(1, machine(1e-30)).unwrap();
        assert_eq!(n, 27);
        assert_eq!(c.probes.len(), 20);
    }

    #[test]
    fn a_wrong_expected_total_fails_the_bench() {
        let settings = Settings {
            n: Some(8),
            threads: vec![2],
            warmup: 0,
            runs: 1,
            expected_total: Some(93),
            ..Settings::default()
        };
        let err = run(&settings, &mut |_| Ok(())).unwrap_err();
        assert!(matches!(
            err,
            Error::WrongCount {
                n: 8,
                threads: 1,
                got: 92,
                expected: 93
            }
        ));
        assert!(err.to_string().contains("WRONG COUNT"));
    }

    #[test]
    fn a_short_bench_has_one_verified_row_per_thread_count() {
        let settings = Settings {
            n: Some(9),
            threads: vec![2],
            warmup: 1,
            runs: 2,
            ..Settings::default()
        };
        let mut runs = 0;
        let bench = run(&settings, &mut |e| {
            runs += usize::from(matches!(e, Event::Run { .. }));
            Ok(())
        })
        .unwrap();
        assert_eq!(runs, 6);
        let threads: Vec<_> = bench.results.iter().map(|r| r.threads).collect();
        assert_eq!(threads, vec![1, 2]);
        for r in &bench.results {
            assert_eq!((r.total, r.verified, r.times_seconds.len()), (352, true, 2));
            assert!(r.nodes.is_some_and(|q| q > 352) && r.subproblems > 0);
        }
        assert_eq!(bench.results[0].speedup, 1.0);
    }
}
