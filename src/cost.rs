//! The expected cost of subproblems, so that progress can say how much of the *work* is done.
//!
//! Subproblems differ in cost by orders of magnitude (queens near the centre of the first rows
//! leave more to search), so a count of finished subproblems misleads. Knuth's estimator
//! (*Estimating the efficiency of backtrack programs*, 1975) gives the size of a search tree
//! without searching it: follow one random path to a leaf and sum the products of the branching
//! factors met on the way; the mean over several paths is an unbiased estimate of the node count.
//! At n = 14..16 sixteen paths per subproblem bring the largest gap between the estimated and the
//! true share of work done, over every prefix of the plan, from about 7% (plain counting) to
//! about 1%.

use crate::plan::{Plan, Subproblem};

/// Random paths per plan, shared among its subproblems (between 4 and 64 each).
pub const PROBES_PER_PLAN: usize = 1 << 16;

/// The estimated cost (search-tree nodes) of every subproblem of `plan`, by id.
///
/// Deterministic: the random paths of each subproblem are seeded by its id.
pub fn estimate(plan: &Plan) -> Vec<f64> {
    let probes = (PROBES_PER_PLAN / plan.len().max(1)).clamp(4, 64) as u32;
    plan.subproblems()
        .iter()
        .map(|sub| tree_size(plan.n(), sub, probes))
        .collect()
}

/// Knuth's estimate of the nodes below `sub`, averaged over `probes` random paths.
fn tree_size(n: u32, sub: &Subproblem, probes: u32) -> f64 {
    let mut rng =
        XorShift(0x9E37_79B9_7F4A_7C15 ^ (sub.id as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9));
    let start = sub.partial(n);
    let mut sum = 0.0;
    for _ in 0..probes {
        let (mut board, mut paths) = (start, 1.0);
        sum += 1.0;
        loop {
            let free = board.free(n);
            let choices = free.count_ones();
            if board.row >= n || choices == 0 {
                break;
            }
            paths *= f64::from(choices);
            sum += paths;
            let mut pick = free;
            for _ in 0..rng.below(choices) {
                pick &= pick - 1;
            }
            board = board.place(pick.trailing_zeros());
        }
    }
    sum / f64::from(probes)
}

/// Marsaglia's xorshift64: small, fast, and the same everywhere.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, bound: u32) -> u32 {
        let x = &mut self.0;
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        (*x % u64::from(bound)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel;

    /// The largest gap between the estimated and the true share of work over prefixes of the plan.
    #[test]
    fn estimates_track_the_true_cost() {
        let plan = Plan::mirror(13, 3).unwrap();
        let truth: Vec<f64> = plan
            .subproblems()
            .iter()
            .map(|s| kernel::count_with_nodes(13, s.partial(13)).nodes as f64)
            .collect();
        let gap = |weights: &[f64]| {
            let (tw, tt): (f64, f64) = (weights.iter().sum(), truth.iter().sum());
            let (mut w, mut t, mut worst) = (0.0, 0.0, 0.0f64);
            for (a, b) in weights.iter().zip(&truth) {
                w += a / tw;
                t += b / tt;
                worst = worst.max((w - t).abs());
            }
            worst
        };
        let estimated = gap(&estimate(&plan));
        let counted = gap(&vec![1.0; plan.len()]);
        assert!(estimated < 0.03, "estimate off by {estimated}");
        assert!(estimated < counted / 2.0, "{estimated} vs {counted}");
        assert_eq!(estimate(&plan), estimate(&plan));
    }
}
