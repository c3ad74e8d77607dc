//! The bitboard kernel on one thread: whole boards, n = 8..14, as the one piece of a mirror plan
//! split after no row (so the kernel searches the whole board, on one worker thread).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use nqueens::{Engine, Plan};
use std::hint::black_box;

fn kernel(c: &mut Criterion) {
    let mut group = c.benchmark_group("kernel");
    for n in 8..=14u32 {
        let plan = Plan::new(Engine::Mirror, n, 0).expect("a plan of one piece");
        group.bench_with_input(BenchmarkId::from_parameter(n), &plan, |b, plan| {
            b.iter(|| black_box(plan).count_piece(0, false))
        });
    }
    group.finish();
}

criterion_group!(benches, kernel);
criterion_main!(benches);
