//! The expected cost of subproblems, so that progress can say how much of the *work* is done.
//!
//! Subproblems differ in cost by orders of magnitude (queens near the centre of the first rows
//! leave more to search), so a count of finished subproblems misleads. Knuth's estimator
//! (*Estimating the efficiency of backtrack programs*, 1975) gives the size of a search tree
//! without searching it: follow one random path to a leaf and sum the products of the branching
//! factors met on the way; the mean over several paths is an unbiased estimate of the node count.
//! A few paths per subproblem bring the share of work a progress bar shows close to the true
//! share of the nodes searched, where a count of finished subproblems strays far from it.

use crate::search::kernel::{board_mask, Partial, RowMasks, Rows};
use crate::search::subproblem::Subproblem;
use crate::util::rng::SplitMix64;

/// Knuth's estimate of the nodes below `sub`, summed over `probes` random paths that honour the
/// squares the subproblem allows and end where the kernel's search would (a backtracking
/// engine's subproblem; [`crate::Plan::cost`] prices any piece).
///
/// Integer arithmetic and a fixed generator seeded by n and the id: every machine gets the same
/// answer, which the shard partition (and so its file format) depends on.
pub(crate) fn tree_size(n: u32, sub: &Subproblem, probes: u32) -> u128 {
    let (start, masks) = sub.start(n);
    walks(
        n,
        start,
        masks.as_ref(),
        u64::from(n) << 48 ^ sub.id as u64,
        probes,
    )
}

/// Knuth's estimate of the nodes below `start` on an `n`-board, using only the squares `masks`
/// allows (every square when `None`): the sum of the sizes of `probes` random paths drawn from
/// a generator seeded by `seed`.
pub(crate) fn walks(
    n: u32,
    start: Partial,
    masks: Option<&RowMasks>,
    seed: u64,
    probes: u32,
) -> u128 {
    let allowed = |row: u32| masks.map_or(board_mask(n), |m| m.allowed(row));
    // Columns no later row can fill end the walk, as they end the kernel's search.
    let stuck = |row: u32| masks.map_or(0, |m| m.stuck(row));
    let mut rng = SplitMix64(seed);
    let mut sum = 0u128;
    for _ in 0..probes {
        let (mut board, mut width, mut size) = (start, 1u128, 1u128);
        loop {
            let mut free = board.free(n) & allowed(board.row);
            if board.row > 0 && stuck(board.row - 1) & !board.cols != 0 {
                free = 0;
            }
            let choices = free.count_ones();
            if choices == 0 {
                break;
            }
            width = width.saturating_mul(u128::from(choices));
            size = size.saturating_add(width);
            for _ in 0..rng.next() % u64::from(choices) {
                free &= free - 1;
            }
            board = board.place(free.trailing_zeros());
        }
        sum = sum.saturating_add(size);
    }
    sum
}

#[cfg(test)]
mod tests {
    use crate::{Engine, Plan};

    /// The largest gap between the estimated and the true share of work over prefixes of the plan.
    #[test]
    fn estimates_track_the_true_cost() {
        let plan = Plan::new(Engine::Mirror, 13, 3).unwrap();
        let truth: Vec<f64> = plan
            .pieces()
            .map(|p| plan.count_piece(p.id, true).nodes as f64)
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
        let estimated = gap(&plan.costs());
        let counted = gap(&vec![1.0; plan.len()]);
        assert!(estimated < 0.03, "estimate off by {estimated}");
        assert!(estimated < counted / 2.0, "{estimated} vs {counted}");
        assert_eq!(plan.costs(), plan.costs());
    }
}
