//! `count` end to end (plan and fold) on every core, n = 12..15, each result checked. The counts
//! run on one pool of as many threads, which the library uses as its own: the bench times the
//! counts, not the start-up of a pool for each.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use nqueens::Options;

fn count(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    group.sample_size(10);
    let options = Options::default();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .unwrap();
    for n in 12..=15u32 {
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            pool.install(|| {
                b.iter(|| {
                    let counts = nqueens::count(n, &options).unwrap();
                    assert_eq!(counts.verified(), Some(true));
                    counts.total
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, count);
criterion_main!(benches);
