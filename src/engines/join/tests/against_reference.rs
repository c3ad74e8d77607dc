//! The join engine's parts against the textbook solver: every unit's count, the quadrants made on
//! demand, the plan's blocks and their prices.

use std::collections::HashMap;

use crate::engines::join::{half, units, Join, Quadrant, Way};
use crate::{Engine, Options, Plan};

/// n = 17 and 18 take a few seconds each on demand: `cargo test -- --ignored`.
#[test]
#[ignore]
fn n_17_and_18_on_demand_match_the_table() {
    for n in [17, 18] {
        counts_the_published_total(&Join::with(n, Quadrant::OnDemand, 1 << 16).unwrap());
    }
}

/// Solutions of the textbook solver by unit: (row of the middle-column queen, east rows), each
/// as a unit counts it: on odd boards twice when the middle row's queen is farther from the
/// centre than the middle column's, once when as far, not at all when nearer (the quarter turn).
///
/// With `turn`, even boards too by their quarter turn (`turn.rs`): twice when the queens of the
/// middle rows reach farther from the centre than those of the middle columns, once when as
/// far, not at all when less far.
fn by_unit(n: u32, turn: bool) -> HashMap<(Option<u8>, u32), u64> {
    let h = (n / 2) as u8;
    let mut tally = HashMap::new();
    let compare = |p: u8, q: u8| match p.cmp(&q) {
        std::cmp::Ordering::Greater => 2,
        std::cmp::Ordering::Equal => 1,
        std::cmp::Ordering::Less => 0,
    };
    for cols in crate::truth::reference::solutions(n as usize) {
        let east = (0..n)
            .filter(|&r| cols[r as usize] < h)
            .fold(0, |s, r| s | 1 << r);
        let middle = (n % 2 == 1).then(|| cols.iter().position(|&c| c == h).unwrap() as u8);
        // Twice the distance from the centre line of row or column i, of an even board.
        let far = |i: u8| (2 * i).abs_diff(n as u8 - 1);
        let times = match middle {
            Some(m) => compare(cols[h as usize].abs_diff(h), m.abs_diff(h)),
            None if turn && n >= 2 => {
                let row_of = |c: u8| cols.iter().position(|&x| x == c).unwrap() as u8;
                let p = far(cols[h as usize - 1]).max(far(cols[h as usize]));
                let q = far(row_of(h - 1)).max(far(row_of(h)));
                compare(p, q)
            }
            None => 1,
        };
        *tally.entry((middle, east)).or_insert(0) += times;
    }
    tally
}

/// Why a unit keeps no west half with its middle row's queen in the level column: two distinct
/// queens at (m, h) and (h, c) as far from the centre (|m - h| = |c - h|) share a diagonal, so
/// only the centre's queen has d_c = d_m.
#[test]
fn the_middle_queens_are_never_as_far_from_the_centre_but_at_the_centre() {
    for n in (1..=11u32).step_by(2) {
        let h = (n / 2) as u8;
        for cols in crate::truth::reference::solutions(n as usize) {
            let m = cols.iter().position(|&c| c == h).unwrap() as u8;
            let d = cols[h as usize].abs_diff(h);
            assert!(m == h || d != m.abs_diff(h), "n = {n}, {cols:?}");
        }
    }
}

/// The join engine of `n` with its quadrants made on demand, in the smallest pieces.
fn on_demand(n: u32) -> Join {
    let join = Join::with(n, Quadrant::OnDemand, 0).unwrap();
    assert_eq!(join.quadrants(), Quadrant::OnDemand, "n = {n}");
    join
}

#[test]
fn every_unit_counts_the_solutions_whose_east_queens_use_its_rows() {
    // Odd boards: the units' east rows miss the middle row.
    assert!(units::tests::units(11).iter().all(|u| u.east >> 5 & 1 == 0));
    let even = |way| (2..=12).step_by(2).map(move |n| (n, way));
    for (n, way) in (2..=13u32)
        .map(|n| (n, Way::Whole))
        .chain(even(Way::QuarterTurn))
        .chain((3..=13).map(|n| (n, Way::Innermost)))
    {
        let turn = way != Way::Whole;
        let tally = by_unit(n, turn);
        for join in [Join::new(n).unwrap(), on_demand(n)] {
            let join = Join { way, ..join };
            let mut covered = 0;
            for unit in units::tests::units(n) {
                let expected = tally.get(&(unit.middle, unit.east)).copied().unwrap_or(0);
                assert_eq!(
                    join.count_unit(&unit),
                    expected,
                    "n = {n}, {unit:?}, {way:?}"
                );
                covered += u64::from(unit.weight) * expected;
            }
            // The weights stand for the other members of each class: nothing missed, nothing
            // twice.
            assert_eq!(covered, tally.values().sum::<u64>(), "n = {n}");
        }
    }
}

#[test]
fn quadrants_made_on_demand_in_small_pieces_give_the_published_totals() {
    for n in [13, 14, 15] {
        let join = on_demand(n);
        assert_eq!(join.piece(), 1 << 14);
        counts_the_published_total(&join);
    }
}

#[test]
fn the_plan_has_one_subproblem_per_block_each_weighing_its_own_units() {
    let plan = Plan::join(12).unwrap();
    let join = plan.join_tables().unwrap();
    assert_eq!(plan.len(), join.blocks().len());
    assert!(plan.pieces().all(|piece| piece.weight == 1));
    let total: u64 = (0..plan.len()).map(|b| join.count_block(b)).sum();
    assert_eq!(total, 14200);
    assert_eq!(plan, Plan::join(12).unwrap());
    assert!(join.table_bytes() > 0);
}

#[test]
fn every_board_size_has_a_join_plan_whatever_its_size() {
    // Above n = 24 there is no table, and a block holds many row sets: the plan stays small.
    for n in [25, 28, 32] {
        let options = Options::default()
            .with_threads(1)
            .with_engine(Some(Engine::Join))
            .with_memory(Some(64 << 20));
        let plan = crate::plan(n, &options).unwrap();
        let join = plan.join_tables().unwrap();
        assert_eq!(join.quadrants(), Quadrant::OnDemand);
        assert!(
            plan.len() <= 1 << 20 && plan.len() > 1 << 16,
            "n = {n}: {}",
            plan.len()
        );
    }
}

/// What counting a join unit costs, from the exact numbers of its halves: the measure that
/// [`Join::cost`] estimates from table sizes alone.
fn real_work(n: u32, unit: &units::Unit) -> u128 {
    let e = half::tests::direct(n, unit.east).len() as u128;
    let w = half::tests::direct(n, unit.west(n)).len() as u128;
    e + w + e * w / 64
}

#[test]
fn join_shards_are_priced_by_their_halves_and_balance() {
    use crate::cluster::{Partition, Shard};
    let (n, k) = (16, 32);
    let plan = Plan::join(n).unwrap();
    let join = plan.join_tables().unwrap();
    let work: Vec<u128> = (join.blocks().iter())
        .map(|&east| {
            let mut work = 0;
            units::units_of(n, east, |unit| work += real_work(n, &unit));
            work
        })
        .collect();
    let spread = |owner: &dyn Fn(usize) -> usize| {
        let mut load = vec![0u128; k as usize];
        for (id, w) in work.iter().enumerate() {
            load[owner(id)] += w;
        }
        let mean = load.iter().sum::<u128>() as f64 / f64::from(k);
        *load.iter().max().unwrap() as f64 / mean
    };
    let partition = Partition::new(&plan, k, 2).unwrap();
    let owners: HashMap<usize, usize> = Shard::all(k)
        .flat_map(|s| {
            partition
                .ids(s)
                .into_iter()
                .map(move |id| (id, s.index() as usize - 1))
        })
        .collect();
    let priced = spread(&|id| owners[&id]);
    let dealt = spread(&|id| id % k as usize);
    eprintln!("join n = {n}, K = {k}: slowest/mean {priced:.3} priced, {dealt:.3} dealt by id");
    // Priced shards stay within the bound where shards dealt by id alone may not.
    assert!(priced < 1.06, "{priced} vs {dealt}");
}

/// The quarter turn of even boards (`turn.rs`), and the innermost key (`keyed.rs`), against
/// the published totals, made on demand in the smallest pieces and from the table.
#[test]
fn the_quarter_turn_and_the_innermost_key_count_even_boards() {
    for n in [4, 6, 8, 10, 12, 14, 16] {
        for way in [Way::QuarterTurn, Way::Innermost] {
            for join in [Join::new(n).unwrap(), on_demand(n)] {
                counts_the_published_total(&Join { way, ..join });
            }
        }
    }
}

/// The innermost key of odd boards (`keyed.rs`) against the published totals, from the table
/// and made on demand in the smallest pieces.
#[test]
fn the_innermost_key_counts_odd_boards() {
    for n in [3, 5, 7, 9, 11, 13, 15, 17] {
        for join in [Join::new(n).unwrap(), on_demand(n)] {
            counts_the_published_total(&Join {
                way: Way::Innermost,
                ..join
            });
        }
    }
}

/// The innermost key at n = 18 to 22, from the table: seconds, minutes and hours, the key being
/// slower than whole units on such boards (`cargo test --release -- --ignored`).
#[test]
#[ignore]
fn the_innermost_key_counts_n_18_to_22() {
    timed_by_the_innermost_key(&[18, 20, 22]);
}

/// The innermost key of odd boards at n = 19 and 21, from the table: seconds and minutes
/// (`cargo test --release -- --ignored`).
#[test]
#[ignore]
fn the_innermost_key_counts_n_19_and_21() {
    timed_by_the_innermost_key(&[19, 21]);
}

/// Counts each of `boards` by the innermost key, from the table, to the published total, and
/// says how long each took.
fn timed_by_the_innermost_key(boards: &[u32]) {
    for &n in boards {
        let join = Join {
            way: Way::Innermost,
            ..Join::new(n).unwrap()
        };
        let start = std::time::Instant::now();
        let total = counts_the_published_total(&join);
        let seconds = start.elapsed().as_secs_f64();
        eprintln!("n = {n}, innermost key: {total}, verified, {seconds:.1} s");
    }
}

/// Counts every block of `join` (on the rayon pool) and asserts that the total is the
/// published one; returns it.
fn counts_the_published_total(join: &Join) -> u64 {
    use rayon::prelude::*;
    let total: u64 = (0..join.blocks().len())
        .into_par_iter()
        .map(|b| join.count_block(b))
        .sum();
    let n = join.n();
    let way = join.way();
    let known = crate::truth::known::known(n).unwrap().total;
    assert_eq!(u128::from(total), known, "n = {n}, {way:?}");
    total
}
