//! Prints the queens placed by each engine for one n (a look at the work each engine does):
//! `cargo run --release --example nodes 14`.
use nqueens::{Engine, Options};

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(14);
    for engine in Engine::ALL {
        let options = Options::default()
            .with_engine(Some(engine))
            .with_count_nodes(true)
            .with_threads(1);
        let c = nqueens::count(n, &options).unwrap();
        let seconds = c.elapsed.as_secs_f64();
        match c.nodes {
            Some(nodes) => println!(
                "{engine:>9}: total {} nodes {nodes} ({:.1} M/s) in {seconds:.3} s",
                c.total,
                nodes as f64 / seconds / 1e6,
            ),
            // The join engine places no queens one by one: it counts pairs of half-boards.
            None => println!(
                "{engine:>9}: total {} (no queens placed one by one) in {seconds:.3} s",
                c.total
            ),
        }
    }
}
