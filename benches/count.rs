//! `count` end to end (plan, pool, fold) on every core, n = 12..15, each result checked.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use nqueens::Options;

fn count(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    group.sample_size(10);
    let options = Options::default();
    for n in 12..=15u32 {
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| {
                let counts = nqueens::count(n, &options).unwrap();
                assert_eq!(counts.verified(), Some(true));
                counts.total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, count);
criterion_main!(benches);
