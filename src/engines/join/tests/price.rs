//! The price of each decomposition of a board: the pairs it forms, its lists' lengths,
//! the time the counter's rate curve (docs/performance.md) predicts for them, and, where asked,
//! the time and the pairs ANDed when it counts. Every unit of a board to n = 18, and units of
//! drawn row sets above. A measurement, not a check:
//! `NQUEENS_PRICE="16 18 24:40 26:8 28:3" cargo test --release --lib price -- --ignored --nocapture`
//! (`n:draws`, or `n:draws:lists` to price by the lists only, without counting).

use crate::engines::join::units::{self, Unit};
use crate::engines::join::{pairs, Join, Quadrant, Way};
use crate::system::time::thread_cpu_seconds;
use crate::util::rng::SplitMix64;

/// The counter's rate curve, as docs/performance.md gives it: pairs formed per CPU second by
/// (long, short) keys, 10^2 to 10^7 each, measured by the `rates` test.
const CURVE: &str = include_str!("../../../../docs/rate-curve.csv");

/// A row of the curve: a long list's length, and its rates from 10^2 short keys up.
type Row = (f64, Vec<f64>);

/// The curve's rows for an `n`-board, each a long length and its rates from 10^2 short keys up:
/// n = 24's for boards to 24, n = 28's (the only one measured to 10^7) above. Read once: the
/// price reads it inside the counts it times.
fn curve(n: u32) -> &'static [Row] {
    static ROWS: std::sync::OnceLock<[Vec<Row>; 2]> = std::sync::OnceLock::new();
    let of = |board: &str| {
        CURVE
            .lines()
            .skip(1)
            .filter_map(|line| {
                let mut fields = line.split(',');
                (fields.next()? == board).then_some(())?;
                let long: f64 = fields.next()?.parse().ok()?;
                Some((long, fields.filter_map(|f| f.parse().ok()).collect()))
            })
            .collect()
    };
    &ROWS.get_or_init(|| [of("24"), of("28")])[usize::from(n > 24)]
}

/// The curve's file holds n = 24's and n = 28's rows whole: 10^4 to 10^6 and 10^5 to 10^7 long
/// keys, each with its rates from 10^2 short keys to as many as the long ones.
#[test]
fn the_curve_is_read_whole() {
    for (n, longs) in [(24, [4, 5, 6]), (28, [5, 6, 7])] {
        let rows = curve(n);
        assert_eq!(rows.len(), 3);
        for ((long, rates), exponent) in rows.iter().zip(longs) {
            assert_eq!(*long, 10f64.powi(exponent));
            assert_eq!(rates.len(), exponent as usize - 1);
            assert!(rates.windows(2).all(|w| w[0] < w[1]), "{rates:?}");
        }
    }
    assert!((rate(24, 100_000, 1000) / 1.4e11 - 1.0).abs() < 1e-9);
}

/// The curve's rate for lists of `long` and `short` keys: the row of the nearest long length,
/// log-log between its shorts, and along its first or last step beyond them.
fn rate(n: u32, long: usize, short: usize) -> f64 {
    let rows = curve(n);
    let (l, s) = (
        (long as f64).max(1.0).log10(),
        (short as f64).max(1.0).log10(),
    );
    let row = (rows.iter())
        .min_by(|a, b| (a.0.log10() - l).abs().total_cmp(&(b.0.log10() - l).abs()))
        .unwrap()
        .1
        .as_slice();
    // Every row has two points or more.
    let at = (s - 2.0).clamp(0.0, (row.len() - 1) as f64);
    let i = (at.floor() as usize).min(row.len() - 2);
    let (a, b) = (row[i].log10(), row[i + 1].log10());
    // Below 10^2 short keys the rate falls as the first step does; beyond the last, flat.
    let x = if s < 2.0 { s - 2.0 } else { at - i as f64 };
    10f64.powf(a + (b - a) * x)
}

/// One decomposition's price over the units seen.
#[derive(Debug, Default, Clone)]
struct Tally {
    /// Counts made, and the pairs they formed.
    counts: u64,
    pairs: f64,
    /// Σ pairs × log10 of the short and the long list: their means by pairs.
    log_short: f64,
    log_long: f64,
    /// Seconds the curve reads for the counts; pairs ANDed and CPU seconds taken, when counted.
    predicted: f64,
    anded: u64,
    seconds: f64,
}

impl Tally {
    /// Adds one count of lists `a` and `b`.
    fn record(&mut self, n: u32, a: &[u64], b: &[u64]) {
        let (long, short) = (a.len().max(b.len()), a.len().min(b.len()));
        let pairs = (long * short) as f64;
        self.counts += 1;
        self.pairs += pairs;
        self.log_short += pairs * (short as f64).log10();
        self.log_long += pairs * (long as f64).log10();
        self.predicted += pairs / rate(n, long, short);
    }
}

/// The decompositions of an `n`-board priced, with their names, in the order of [`price`]'s
/// tallies: an odd board's units are counted by the quarter turn in either.
fn ways(n: u32) -> &'static [(Way, &'static str)] {
    if n.is_multiple_of(2) {
        &[
            (Way::Whole, "whole"),
            (Way::QuarterTurn, "quarter turn"),
            (Way::Innermost, "innermost"),
        ]
    } else {
        &[(Way::Whole, "whole"), (Way::Innermost, "innermost")]
    }
}

/// Prices `unit` by each decomposition into `tallies`, counting its pairs when `measure`.
fn price(joins: &[Join], unit: &Unit, measure: bool, tallies: &mut [Tally]) {
    let n = joins[0].n;
    for (c, tally) in tallies.iter_mut().enumerate() {
        let start = thread_cpu_seconds();
        let mut counter = |a: &[u64], b: &[u64], bits: u32, s: &mut pairs::Scratch| {
            tally.record(n, a, b);
            if !measure {
                return 0;
            }
            let before = s.anded;
            let found = pairs::count_disjoint(a, b, bits, s);
            tally.anded += s.anded - before;
            found
        };
        joins[c].count_units(unit.east, &[*unit], &mut counter, |_, _| ());
        tally.seconds += thread_cpu_seconds() - start;
    }
}

#[test]
#[ignore]
fn the_decompositions_priced() {
    let spec = std::env::var("NQUEENS_PRICE").unwrap_or_else(|_| "16".into());
    for item in spec.split(' ') {
        // n, then the draws (none: every unit), then "lists" to price without counting.
        let fields: Vec<&str> = item.split(':').collect();
        let n: u32 = fields[0].parse().unwrap();
        let draws: Option<u32> = fields.get(1).map(|d| d.parse().unwrap());
        let measure = fields.get(2) != Some(&"lists");
        let how = if n <= 20 {
            Quadrant::Table
        } else {
            Quadrant::OnDemand
        };
        let joins: Vec<Join> = (ways(n).iter())
            .map(|&(way, _)| Join {
                way,
                ..Join::with(n, how, 1 << 25).unwrap()
            })
            .collect();
        let units: Vec<Unit> = match draws {
            None => units::tests::units(n),
            Some(d) => {
                let mut rng = SplitMix64(u64::from(n) * 7919);
                let mut out = Vec::new();
                while out.len() < d as usize {
                    units::units_of(n, rng.subset(n, n / 2), |u| out.push(u));
                }
                out
            }
        };
        let mut tallies = vec![Tally::default(); joins.len()];
        for unit in &units {
            let before = tallies.clone();
            price(&joins, unit, measure, &mut tallies);
            if draws.is_some() {
                let took: Vec<String> = (tallies.iter().zip(&before))
                    .map(|(t, b)| format!("{:.2}", t.seconds - b.seconds))
                    .collect();
                eprintln!("  row set {:#x}: {} s", unit.east, took.join(" / "));
            }
        }
        // Every unit: per solution; drawn units: their sums.
        let (q, per) = match draws {
            None => {
                let q = crate::truth::known::known(n).unwrap().total as f64;
                (q, format!("per solution (Q = {q:.4e})"))
            }
            Some(d) => (1.0, format!("over {d} drawn units")),
        };
        eprintln!("n = {n}, {} units, {per}, measured: {measure}", units.len());
        for ((_, name), t) in ways(n).iter().zip(&tallies) {
            eprintln!(
                "  {name:>12}: {} counts, pairs {:.3e}, lists 10^{:.2} × 10^{:.2}, predicted \
                 {:.2} s, measured {:.2} s, ANDed {:.3e}",
                t.counts,
                t.pairs / q,
                t.log_long / t.pairs,
                t.log_short / t.pairs,
                t.predicted,
                t.seconds,
                t.anded as f64 / q,
            );
        }
    }
}
