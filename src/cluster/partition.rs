//! The partition: which shard owns each subproblem of a run's plan, dealt out by estimated cost
//! so that the shards take about the same time (see [`crate::cluster`]).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hash::Hasher;

use rayon::prelude::*;

use super::shard::Shard;
use crate::plan::{Piece, Plan, SUBPROBLEMS_PER_THREAD};
use crate::Options;

/// The plan for K shards aims at this many subproblems per shard at least.
pub(crate) const SUBPROBLEMS_PER_SHARD: usize = 128;
/// Random walks per subproblem in the cost estimate, at most.
pub(crate) const PRICE_PROBES: u32 = 256;
/// Random walks per plan in the cost estimate: a plan of many subproblems gives each fewer (at
/// least [`MIN_PRICE_PROBES`]), so that the partition costs about the same, a fraction of a second,
/// whatever K.
pub(crate) const PRICE_PROBES_PER_PLAN: usize = 1 << 22;
/// Random walks per subproblem in the cost estimate, at least.
pub(crate) const MIN_PRICE_PROBES: u32 = 16;

/// The plan every shard of a run split `shards` ways executes.
///
/// With `options.split_depth` given, that depth; otherwise the automatic plan of a machine with
/// `shards × 4` threads (at least 128 subproblems per shard). The threads
/// of `options` only build it (the join engine's tables): every shard must see the same plan, so
/// where the join engine's tables do not fit the budget, the plan is refused
/// ([`crate::Error::ShardTooLarge`]) rather than another engine's.
pub fn plan(n: u32, options: &Options, shards: u32) -> Result<Plan, crate::Error> {
    use crate::plan::choose::{choose_for, FallBack};
    let virtual_threads = (SUBPROBLEMS_PER_SHARD / SUBPROBLEMS_PER_THREAD) * shards.max(1) as usize;
    choose_for(n, options, virtual_threads, FallBack::Refused).map_err(|e| match e {
        crate::Error::JoinTooLarge { .. } => crate::Error::ShardTooLarge {
            n,
            why: Box::new(e),
        },
        e => e,
    })
}

/// Which shard owns each subproblem of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partition {
    shards: u32,
    /// 0-based owner, indexed by subproblem id.
    owner: Vec<u32>,
}

impl Partition {
    /// Deals the subproblems of `plan` out to `shards` shards by estimated cost (see the module
    /// doc). `threads` only speeds the estimate up; the partition does not depend on it.
    pub fn new(plan: &Plan, shards: u32, threads: usize) -> Result<Partition, crate::Error> {
        Ok(Partition::dealt(&prices(plan, threads)?, shards))
    }

    /// Deals pieces of these `prices` (by id) out to `shards` shards.
    pub(crate) fn dealt(prices: &[u128], shards: u32) -> Partition {
        let shards = shards.max(1);
        let mut costs: Vec<(u128, usize)> =
            prices.iter().enumerate().map(|(id, &p)| (p, id)).collect();
        costs.sort_unstable_by_key(|&(cost, id)| (Reverse(cost), id));
        // Shards beyond the number of subproblems would stay empty: no need to queue them.
        let busy = u32::try_from(prices.len())
            .unwrap_or(u32::MAX)
            .clamp(1, shards);
        let mut load: BinaryHeap<Reverse<(u128, u32)>> =
            (0..busy).map(|s| Reverse((0, s))).collect();
        let mut owner = vec![0; prices.len()];
        for (cost, id) in costs {
            let Reverse((l, s)) = load.pop().expect("at least one shard");
            owner[id] = s;
            load.push(Reverse((l.saturating_add(cost), s)));
        }
        Partition { shards, owner }
    }

    /// K.
    pub fn shards(&self) -> u32 {
        self.shards
    }

    /// Whether `sub` belongs to `shard`: the selection to pass to [`crate::exec::execute`].
    pub fn owns(&self, shard: Shard, piece: Piece) -> bool {
        self.owner.get(piece.id) == Some(&(shard.index() - 1))
    }

    /// The ids of `shard`'s subproblems, ascending.
    pub fn ids(&self, shard: Shard) -> Vec<usize> {
        let want = shard.index() - 1;
        (0..self.owner.len())
            .filter(|&id| self.owner[id] == want)
            .collect()
    }

    /// A fingerprint of `shard`'s ids: FNV-1a (64 bits) of each id as 8 little-endian bytes.
    pub fn digest(&self, shard: Shard) -> String {
        digest(&self.ids(shard))
    }

    /// For every shard, from shard 1: the sum of `prices` (by id) over its pieces, in one pass.
    pub(crate) fn totals(&self, prices: &[u128]) -> Vec<u128> {
        let mut totals = vec![0u128; self.shards as usize];
        for (&owner, &price) in self.owner.iter().zip(prices) {
            totals[owner as usize] += price;
        }
        totals
    }

    /// For every shard, from shard 1: how many subproblems it has and their [`Partition::digest`],
    /// in one pass over the plan.
    pub fn summaries(&self) -> Vec<(usize, String)> {
        let mut ids = vec![Vec::new(); self.shards as usize];
        for (id, &owner) in self.owner.iter().enumerate() {
            ids[owner as usize].push(id);
        }
        ids.iter().map(|ids| (ids.len(), digest(ids))).collect()
    }
}

/// The estimated price of every piece of `plan`, by id, as the partition deals them: the same
/// on every machine (see the module doc).
pub(crate) fn prices(plan: &Plan, threads: usize) -> Result<Vec<u128>, crate::Error> {
    let probes = (PRICE_PROBES_PER_PLAN / plan.len().max(1))
        .clamp(MIN_PRICE_PROBES as usize, PRICE_PROBES as usize) as u32;
    crate::system::on_pool(threads, || {
        plan.prepare_costs();
        (0..plan.len())
            .into_par_iter()
            .map(|id| plan.cost(id, probes))
            .collect()
    })
}

fn digest(ids: &[usize]) -> String {
    let mut h = fnv::FnvHasher::default();
    for &id in ids {
        h.write(&(id as u64).to_le_bytes());
    }
    format!("fnv1a64:{:016x}", h.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::shard::tests::shard;
    use crate::Engine;

    #[test]
    fn every_subproblem_belongs_to_exactly_one_shard() {
        let options = Options::default();
        for (n, k) in [(10, 1), (12, 7), (6, 1000)] {
            let plan = plan(n, &options, k).unwrap();
            let partition = Partition::new(&plan, k, 2).unwrap();
            for piece in plan.pieces() {
                let owners = Shard::all(k).filter(|&s| partition.owns(s, piece)).count();
                assert_eq!(owners, 1, "n = {n}, K = {k}, id = {}", piece.id);
            }
            let sizes: usize = Shard::all(k).map(|s| partition.ids(s).len()).sum();
            assert_eq!(sizes, plan.len());
            let one_pass: Vec<_> = Shard::all(k)
                .map(|s| (partition.ids(s).len(), partition.digest(s)))
                .collect();
            assert_eq!(partition.summaries(), one_pass);
        }
    }

    #[test]
    fn the_partition_depends_on_n_and_k_only() {
        let few = Options {
            threads: 1,
            ..Options::default()
        };
        let many = Options {
            threads: 64,
            ..Options::default()
        };
        let (a, b) = (plan(14, &few, 5).unwrap(), plan(14, &many, 5).unwrap());
        assert_eq!(a, b);
        assert_eq!(
            Partition::new(&a, 5, 1).unwrap(),
            Partition::new(&b, 5, 3).unwrap()
        );
        assert_eq!(
            Partition::new(&a, 5, 1).unwrap().digest(shard(2, 5)),
            Partition::new(&a, 5, 2).unwrap().digest(shard(2, 5))
        );
    }

    #[test]
    fn many_shards_get_a_finer_plan_and_every_shard_gets_work() {
        // A backtracking engine: the join plan's units are fixed by n.
        let options = Options {
            engine: Some(Engine::Symmetry),
            ..Options::default()
        };
        let coarse = plan(16, &options, 1).unwrap();
        let fine = plan(16, &options, 200).unwrap();
        assert!(fine.split_depth() > coarse.split_depth());
        assert!(fine.len() >= 200 * SUBPROBLEMS_PER_SHARD);
        let partition = Partition::new(&fine, 200, 2).unwrap();
        assert!(Shard::all(200).all(|s| !partition.ids(s).is_empty()));
    }

    #[test]
    fn more_shards_than_subproblems_leaves_some_empty() {
        let plan = plan(5, &Options::default(), 1000).unwrap();
        assert!(plan.len() < 1000);
        let partition = Partition::new(&plan, 1000, 2).unwrap();
        let empty = Shard::all(1000)
            .filter(|&s| partition.ids(s).is_empty())
            .count();
        assert_eq!(empty, 1000 - plan.len());
    }

    /// The work of each shard, in queens placed by the real search.
    fn work(plan: &Plan, owner: impl Fn(usize) -> usize, k: usize) -> Vec<u64> {
        let mut load = vec![0; k];
        for piece in plan.pieces() {
            load[owner(piece.id)] += plan.count_piece(piece.id, true).nodes;
        }
        load
    }

    fn spread(load: &[u64]) -> f64 {
        let mean = load.iter().sum::<u64>() as f64 / load.len() as f64;
        *load.iter().max().unwrap() as f64 / mean
    }

    #[test]
    fn the_estimate_balances_real_work_better_than_dealing_by_id() {
        let (n, k) = (14, 16);
        let plan = plan(n, &Options::default(), k).unwrap();
        let partition = Partition::new(&plan, k, 2).unwrap();
        let balanced = spread(&work(&plan, |id| partition.owner[id] as usize, k as usize));
        let dealt = spread(&work(&plan, |id| id % k as usize, k as usize));
        eprintln!("slowest/mean: estimate {balanced:.3}, by id {dealt:.3}");
        assert!(balanced < dealt, "{balanced} vs {dealt}");
        assert!(balanced < 1.03, "{balanced}");
    }
}

#[cfg(test)]
mod spread {
    use super::*;

    /// The spread of shard prices at large n (`NQUEENS_SPREAD="26:100000 28:100000"`): the
    /// dearest shard and the cheapest against the mean, and how long pricing took.
    #[test]
    #[ignore = "prices whole boards of n ≥ 25: seconds each"]
    fn shard_prices_at_large_n() {
        let spec = std::env::var("NQUEENS_SPREAD").unwrap_or_else(|_| "26:100000".to_string());
        for item in spec.split_whitespace() {
            let (n, k) = item.split_once(':').unwrap();
            let (n, k): (u32, u32) = (n.parse().unwrap(), k.parse().unwrap());
            let start = std::time::Instant::now();
            let plan = plan(n, &Options::default(), k).unwrap();
            let built = start.elapsed();
            let prices = prices(&plan, 2).unwrap();
            let priced = start.elapsed() - built;
            let partition = Partition::dealt(&prices, k);
            let totals = partition.totals(&prices);
            let mean = totals.iter().sum::<u128>() as f64 / f64::from(k);
            let max = *totals.iter().max().unwrap() as f64;
            let min = *totals.iter().min().unwrap() as f64;
            let dearest = *prices.iter().max().unwrap() as f64;
            eprintln!(
                "n = {n}, K = {k}: {} blocks, plan {built:.2?}, priced in {priced:.2?}; shards: \
                 dearest {:.3} × the mean, cheapest {:.3}; dearest block {:.3} × a shard's mean",
                plan.len(),
                max / mean,
                min / mean,
                dearest / mean
            );
        }
    }
}
