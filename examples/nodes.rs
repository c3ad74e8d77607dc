//! Prints the queens placed by each engine for one n (a look at the work each engine does).
use nqueens::{Engine, Options};

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(14);
    for engine in Engine::ALL {
        let options = Options::default()
            .with_engine(Some(engine))
            .with_nodes(true)
            .with_threads(1);
        let c = nqueens::count(n, &options).unwrap();
        let nodes = c.nodes.unwrap();
        println!(
            "{engine:>9}: total {} nodes {} ({:.1} M/s) in {:.3} s",
            c.total,
            nodes,
            nodes as f64 / c.elapsed.as_secs_f64() / 1e6,
            c.elapsed.as_secs_f64()
        );
    }
}
