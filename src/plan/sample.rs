//! How an estimate draws from a plan, whatever its engine: what the draws are drawn among
//! ([`Plan::draw_space`]) and one draw, done as a run does it and timed ([`Plan::draw`]). A
//! backtracking plan's draw is one subproblem, drawn uniformly; the join engine's is its own
//! (`engines::join::sample`). The estimator sees only these and the types they return.

use crate::plan::Plan;
use crate::system::time::thread_cpu_seconds;
use crate::util::rng::SplitMix64;

pub(crate) use crate::engines::join::sample::{Drawn, Space};

impl Plan {
    /// What an estimate of this plan draws among: its subproblems, uniformly, or the join
    /// engine's row sets (measured from `seed` on the current rayon pool).
    pub(crate) fn draw_space(&self, seed: u64) -> Space {
        match self.join_tables() {
            Some(join) => crate::engines::join::sample::space_of(join, seed),
            None => Space::uniform(self.len() as u64),
        }
    }

    /// One draw of the plan's work from `space`, done as a run does it and timed.
    pub(crate) fn draw(&self, space: &Space, rng: &mut SplitMix64) -> Drawn {
        if let Some(join) = self.join_tables() {
            return crate::engines::join::sample::draw_row_sets(join, space, rng);
        }
        let before = thread_cpu_seconds();
        if space.population > 0 {
            let id = (rng.next() % space.population) as usize;
            std::hint::black_box(self.count_piece(id, false));
        }
        Drawn {
            stands_for: space.stands_for(1.0, 1),
            pieces: 1,
            seconds: thread_cpu_seconds() - before,
            pairs: 0.0,
            anded: 0.0,
        }
    }

    /// Whether the plan's pieces count pairs of half-boards (the join engine's), whose pairs an
    /// estimate reports.
    pub(crate) fn counts_pairs(&self) -> bool {
        self.join_tables().is_some()
    }
}
