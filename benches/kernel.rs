//! The bitboard kernel on one thread: whole boards, n = 8..14.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use nqueens::kernel::{self, Partial};
use std::hint::black_box;

fn kernel(c: &mut Criterion) {
    let mut group = c.benchmark_group("kernel");
    for n in 8..=14u32 {
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| kernel::count(black_box(n), Partial::EMPTY))
        });
    }
    group.finish();
}

criterion_group!(benches, kernel);
criterion_main!(benches);
