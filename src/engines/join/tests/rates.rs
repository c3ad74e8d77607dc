//! The pair counter's rate as a function of its lists' lengths, on the keys of real halves: what
//! any decomposition's time follows from (docs/performance.md). A measurement, not a check:
//! `NQUEENS_RATES="24 26 28" cargo test --release --lib rates -- --ignored --nocapture`.

use crate::engines::join::half::{self, Halves, Side, Window};
use crate::engines::join::quadrant::Quadrants;
use crate::engines::join::{pairs, units};
use crate::system::time::thread_cpu_seconds;
use crate::util::rng::SplitMix64;

/// The most keys of each side made for the measurement.
const MOST: usize = 10_000_000;

/// Up to `MOST` keys of the halves on `rows`, read for `side`, shuffled.
fn keys(n: u32, q: &Quadrants, rows: u32, side: Side, rng: &mut SplitMix64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut halves = Halves::new(q.rows(), n / 2, rows, 0, side);
    halves.fill(
        q,
        Window::new(n),
        &mut out,
        MOST,
        &mut half::Buffers::default(),
    );
    out.truncate(MOST);
    for i in (1..out.len()).rev() {
        out.swap(i, (rng.next() % (i as u64 + 1)) as usize);
    }
    out
}

#[test]
#[ignore]
fn the_counters_rate_by_the_lengths_of_its_lists() {
    let boards = std::env::var("NQUEENS_RATES").unwrap_or_else(|_| "24".into());
    let lengths = [100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];
    for n in boards.split(' ').map(|x| x.parse::<u32>().unwrap()) {
        let (h, q) = (n / 2, Quadrants::on_demand(n));
        let mut rng = SplitMix64(u64::from(n));
        // The first drawn row set with a unit whose halves number at least 10^6 a side.
        let (east, west) = loop {
            let rows = rng.subset(n, h);
            if !units::has_unit(n, rows) {
                continue;
            }
            let west = units::all_rows(n) ^ rows;
            let e = keys(n, &q, rows, Side::East, &mut rng);
            if e.len() < 1_000_000 {
                continue;
            }
            let w = keys(n, &q, west, Side::West, &mut rng);
            if w.len() >= 1_000_000 {
                break (e, w);
            }
        };
        eprintln!(
            "n = {n}: {} east and {} west keys (pairs per CPU second, long × short)",
            east.len(),
            west.len()
        );
        let mut scratch = pairs::Scratch::default();
        let bits = Window::new(n).key_bits();
        for &long in lengths.iter().filter(|&&l| l >= 10_000 && l <= east.len()) {
            let mut row = format!("long {long:>10}:");
            for &short in lengths.iter().filter(|&&s| s <= long.min(west.len())) {
                let (a, b) = (&east[..long], &west[..short]);
                let (mut reps, start) = (0u64, thread_cpu_seconds());
                while reps == 0 || thread_cpu_seconds() - start < 0.3 {
                    std::hint::black_box(pairs::count_disjoint(a, b, bits, &mut scratch));
                    reps += 1;
                }
                let rate = (long * short) as f64 * reps as f64 / (thread_cpu_seconds() - start);
                row += &format!("  {short:>8}: {rate:.2e}");
            }
            eprintln!("{row}");
        }
    }
}
