//! `solve` end to end on every core: every solution of n = 11..14 formatted as columns into a
//! sink, each count checked.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use nqueens::solve::{Format, ListOptions, Listing};

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for n in 11..=14u32 {
        let listing = Listing::new(n, &ListOptions::default()).unwrap();
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| {
                let written = listing
                    .write(Format::Columns, &mut std::io::sink())
                    .unwrap();
                assert_eq!(u128::from(written), nqueens::known::known(n).unwrap().total);
                written
            })
        });
    }
    group.finish();
}

criterion_group!(benches, solve);
criterion_main!(benches);
