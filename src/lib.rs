//! nqueens counts the solutions of the N-Queens problem on every core, and checks every count
//! against the published values (OEIS A000170 and A002562).
//!
//! A run is *plan → execute → fold*: a [`Plan`] splits the board into independent weighted
//! pieces, [`exec::execute`] runs them on a rayon pool, and their weighted counts are summed in
//! `u128`. Three engines make plans ([`Engine`]): two pre-place queens and backtrack, the third
//! joins half-boards. [`known`] holds the published counts every result is checked against, and
//! [`mod@reference`] a textbook solver the tests hold every engine to.
//!
//! ```
//! let counts = nqueens::count(8, &nqueens::Options::default()).unwrap();
//! assert_eq!(counts.total, 92);
//! assert_eq!(counts.verified(), Some(true));
//! ```
//!
//! The same count as a plan executed piece by piece, as checkpoints, shards and progress bars
//! see it:
//!
//! ```
//! use nqueens::exec::{execute, Execution, Unobserved};
//!
//! let plan = nqueens::plan(10, &nqueens::Options::default()).unwrap();
//! let how = Execution { threads: 2, count_nodes: false };
//! let outcome = execute(&plan, &|_| true, how, &Unobserved).unwrap();
//! assert_eq!(outcome.tally.total, 724);
//! ```
//!
//! Beyond that: [`solve`] lists the boards, [`estimate`] predicts a count's time, [`cluster`]
//! splits a count into shards and merges their files.
//!
//! Each run starts a pool of `Options::threads` workers, except when it is called from a rayon
//! pool of that many threads: it then runs on that pool, as every phase of one run does on its
//! own (so a caller that counts many boards, as a benchmark does, starts one pool).

#![warn(missing_docs, unreachable_pub)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod cluster;
mod dihedral;
mod engines;
mod error;
pub mod estimate;
pub mod exec;
mod options;
mod plan;
mod search;
pub mod solve;
mod system;
mod truth;
pub mod util;

pub use error::{check_n, Error, Interrupted};
pub use exec::{Observer, Tally};
pub use options::{default_threads, Decomposition, Engine, Options};
pub use plan::{Part, Piece, Plan};
pub use search::kernel::Search;
pub use search::subproblem::MAX_SPLIT_DEPTH;
pub use system::memory;
pub use truth::counts::Counts;
pub use truth::{known, reference};

/// The largest board: one `u32` per attack set.
pub const MAX_N: u32 = 32;

/// The instructions the backtrack and the join engine run with on this CPU, chosen at run time
/// (an x86-64 build carries AVX-512, AVX2 and portable code, an aarch64 one NEON and portable
/// code): "backtrack …; join …".
pub fn dispatch() -> String {
    format!(
        "backtrack {}; join {}",
        system::isa::backtrack(),
        system::isa::join()
    )
}

/// The instruction set `NQUEENS_ISA=portable|avx2|avx512|neon` caps every engine at, if it is
/// set: an error that names the problem when it names no instruction set or one this CPU lacks
/// (then the engines run the fastest path they have, and a program should refuse to run).
pub fn instruction_set_asked() -> Result<Option<&'static str>, String> {
    system::isa::requested()
}

/// The plan `count` would execute for `n` with these options: the engine asked for or the
/// fastest, and symmetry in place of join when its tables do not fit ([`Plan::fell_back`]).
pub fn plan(n: u32, options: &Options) -> Result<Plan, Error> {
    plan::choose::choose(n, options)
}

/// Counts every solution of the `n`-queens problem.
///
/// The one-shot form of [`exec::Run`]: no checkpoint, nothing that stops it early.
pub fn count(n: u32, options: &Options) -> Result<Counts, Error> {
    let plan = plan(n, options)?;
    let finished = exec::Run::once(
        &plan,
        exec::Selection::all(),
        options.threads,
        options.count_nodes,
        &exec::Unobserved,
    )?;
    Ok(finished.counts(&plan, options.threads, options.count_nodes))
}
