//! The half-board join engine: counts solutions as pairs of east and west halves with no shared diagonal.
//!
//! Instead of backtracking through the whole board, the engine makes every non-attacking
//! placement of the board's east half on a row set S (joined from two quadrants, see [`half`]),
//! and every west half on the other rows, and counts the pairs that share no diagonal (rows and
//! columns are disjoint by construction) with the bit-sliced counter of `pairs.rs`. Odd boards also
//! fix the row of the middle column's queen. Each (middle row, S) class under the north-south and
//! east-west reflections is one [`units::Unit`]; the plan's subproblems are blocks of units
//! ([`units::blocks`]), so progress, checkpoints and shards work unchanged. A worker thread
//! counts whole blocks with its own buffers.
//!
//! Memory is bounded by a budget ([`crate::Options::memory`]), not by n. The quadrants come from a
//! table (`quadrant.rs`: 8 bytes per placement, 526 MiB at n = 22, 4.8 GiB at n = 24) when it
//! fits in the budget, and are made group by group on demand otherwise (and always above
//! n = 24), each kept while its row set is counted, in a quarter of a thread's share (at most
//! 256 MiB). The halves of one row set are made and counted in pieces of at most
//! [`Join::piece`] keys, which the budget sets, so no list grows with n either.

pub(crate) mod half;
pub(crate) mod keyed;
pub(crate) mod pairs;
mod prices;
pub(crate) mod quadrant;
pub(crate) mod sample;
pub(crate) mod subsets;
pub(crate) mod turn;
pub(crate) mod units;

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use half::{keep_clear, Halves, Side, Window};
use quadrant::{Quadrants, Store};
use turn::Turned;
use units::Unit;

use crate::{Decomposition, Error};

/// The largest board whose quadrants may be held in a table (4.8 GiB at n = 24).
pub(crate) const MAX_TABLE_N: u32 = 24;

/// Bytes a worker thread holds per key of its pieces: the east keys and their diagonals, the
/// filtered east keys, the west keys, and the counter's sorted copies with their patterns (two
/// bytes a key, and at most about three a short key for its tables by pattern).
const BYTES_PER_KEY: u64 = 52;

/// Bytes more per key of an even board counted by the quarter turn: a piece's halves of part P
/// and of both parts copied apart, on each side ([`turn::count_runs`]); or by the innermost
/// key: one (a, b)'s filtered lists, on each side ([`keyed`]).
const TURN_BYTES_PER_KEY: u64 = 16;

/// The east lists (or pieces) of odd boards whose units that count alike are counted in one go,
/// by their length: shorter ones cost more in one go, and the longest are sorted by pivots
/// either way, so gain nothing; lists in between gain a few percent.
const JOINT: std::ops::RangeInclusive<usize> = 4_000..=32_768;

/// The most bytes a thread keeps of the groups it made on demand for one row set
/// ([`quadrant::Made`]): n = 27's largest row sets made 19 million placements (153 MB) in a
/// sample of 35.
const MAX_MADE_BYTES: u64 = 256 << 20;

/// The fewest keys a piece holds, whatever the budget.
const MIN_PIECE: usize = 1 << 14;

/// The least memory the join engine runs in, per worker thread, beside any table: pieces of
/// `MIN_PIECE` keys and the counter's work space.
pub(crate) const MIN_BYTES_PER_THREAD: u64 = 1 << 20;

/// Everything the join engine needs to count any unit of one board size.
pub(crate) struct Join {
    n: u32,
    window: Window,
    quadrants: Quadrants,
    /// The plan's blocks: subproblem `i` counts the units of block `i` ([`units::blocks`]).
    blocks: Vec<u32>,
    /// Keys per piece of a half list.
    piece: usize,
    /// Placements of the groups made on demand that a thread keeps for the row set it counts
    /// ([`quadrant::Made`]).
    made: usize,
    /// The east pieces whose units that count alike are counted in one go ([`Join::count_units`]):
    /// by their length.
    joint: std::ops::RangeInclusive<usize>,
    /// The candidate halves of every h-row set, by its rank in colexicographic order: made on
    /// the first [`Join::cost`], when the quadrants' sizes are known (n ≤ [`MAX_TABLE_N`]).
    prices: OnceLock<Vec<u64>>,
    /// The guess at a row set's cost where the quadrants' sizes are not known
    /// ([`Join::guess`]): made on the first [`Join::cost`].
    guess: OnceLock<sample::space::Weight>,
    /// How a board's units are counted.
    way: Way,
    /// The pairs the counter ANDed and tested in the blocks counted so far
    /// ([`Join::pairs_anded`], [`Join::pairs_tested`]).
    anded: AtomicU64,
    tested: AtomicU64,
}

/// How the join engine counts a board's units (odd boards: [`Way::Whole`] or
/// [`Way::Innermost`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Way {
    /// Each unit's east halves against its west halves.
    Whole,
    /// By the quarter turn ([`turn`]).
    QuarterTurn,
    /// By the rows of the innermost columns' queens, and the quarter turn ([`keyed`]).
    Innermost,
}

/// How the join engine of one board keeps its quadrants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quadrant {
    /// In a table, built at the start.
    Table,
    /// Made on demand, group by group, within the budget.
    OnDemand,
}

impl Join {
    /// The join engine of an `n`-board with the default budget, for one thread.
    pub(crate) fn new(n: u32) -> Result<Join, Error> {
        Join::within(n, None, 1, Decomposition::Fastest)
    }

    /// The join engine of an `n`-board counting on `threads` threads within `budget` bytes
    /// (`None`: half of the memory this process may take, [`default_budget`]): its quadrants in a
    /// table when the table fits in half of the budget, made on demand otherwise. Refused when
    /// the budget cannot hold even the smallest pieces; asked before anything is allocated.
    pub(crate) fn within(
        n: u32,
        budget: Option<u64>,
        threads: usize,
        decomposition: Decomposition,
    ) -> Result<Join, Error> {
        let way = way(n, decomposition);
        let turn = way != Way::Whole;
        let how = Join::admit(n, budget, threads)?;
        let table = if how == Quadrant::Table {
            Quadrants::size(n).1
        } else {
            0
        };
        let given = budget.is_some();
        let budget = budget.or_else(default_budget).unwrap_or(u64::MAX);
        let mut per_thread = budget.saturating_sub(table) / threads.max(1) as u64;
        if !given {
            // Without a budget, a thread's share beside the table stays within
            // DEFAULT_THREAD_BYTES however much memory is free, so that a node's other jobs
            // keep theirs. Cutting the lists into smaller pieces costs a little time.
            per_thread = per_thread.min(DEFAULT_THREAD_BYTES);
        }
        // Groups made on demand are kept for the row set being counted in a quarter of a
        // thread's share, up to MAX_MADE_BYTES; the pieces take the rest.
        let made_bytes = if how == Quadrant::OnDemand {
            (per_thread / 4).min(MAX_MADE_BYTES)
        } else {
            0
        };
        let per_key = BYTES_PER_KEY + if turn { TURN_BYTES_PER_KEY } else { 0 };
        let piece = ((per_thread - made_bytes) / per_key).clamp(MIN_PIECE as u64, 1 << 28);
        let (piece, made) = (piece as usize, (made_bytes / 8) as usize);
        Join::with(n, how, piece)
            .map(|join| Join { made, way, ..join })
            .map_err(|_| match how {
                // The budget admitted the table, and the system refused it: that is the cause.
                Quadrant::Table => Error::TableRefused {
                    n,
                    table,
                    budget,
                    available: crate::system::memory::available(),
                },
                Quadrant::OnDemand => Join::too_small(n, Some(budget), threads),
            })
    }

    /// The join engine of an `n`-board with its quadrants kept as `how` says and pieces of
    /// `piece` keys (at least 2^14), keeping every group it makes on demand for the row set it
    /// counts, whatever memory this process may take: for tests and measurements;
    /// [`Join::within`] chooses all three from a budget. Its only error is an
    /// allocation that failed.
    pub(crate) fn with(n: u32, how: Quadrant, piece: usize) -> Result<Join, Error> {
        crate::check_n(n)?;
        let quadrants = match how {
            Quadrant::Table if n <= MAX_TABLE_N => Quadrants::build(n),
            // The outline (4 bytes a group: 64 MiB at n = 24) prices the units.
            _ if n <= MAX_TABLE_N => Quadrants::outline(n).map(Quadrants::made_on_demand),
            _ => Ok(Quadrants::on_demand(n)),
        }
        .map_err(|_| Join::too_small(n, None, 1))?;
        Ok(Join {
            n,
            window: Window::new(n),
            quadrants,
            blocks: units::blocks(n),
            piece: piece.max(MIN_PIECE),
            made: usize::MAX,
            joint: JOINT,
            prices: OnceLock::new(),
            guess: OnceLock::new(),
            way: way(n, Decomposition::Fastest),
            anded: AtomicU64::new(0),
            tested: AtomicU64::new(0),
        })
    }

    /// The blocks of an `n`-board with the outline of its table ([`Quadrants::outline`]) and
    /// its quadrants made on demand: enough to price and partition the plan (what `merge`
    /// needs) without the table's memory and time.
    pub(crate) fn outline(n: u32, decomposition: Decomposition) -> Result<Join, Error> {
        Join::with(n, Quadrant::OnDemand, MIN_PIECE).map(|join| Join {
            way: way(n, decomposition),
            ..join
        })
    }

    /// How the engine of an `n`-board keeps its quadrants within `budget` on `threads` threads,
    /// or why it cannot count there: a board size out of range, or a budget too small for the
    /// smallest pieces. Asked at once, before anything is allocated or any thread started.
    pub(crate) fn admit(n: u32, budget: Option<u64>, threads: usize) -> Result<Quadrant, Error> {
        crate::check_n(n)?;
        let budget = budget.or_else(default_budget);
        if budget.is_some_and(|b| b < least_bytes(n, threads)) {
            return Err(Join::too_small(n, budget, threads));
        }
        let table = (n <= MAX_TABLE_N).then(|| Quadrants::size(n).1);
        Ok(match (table, budget) {
            (Some(table), Some(budget)) if table <= budget / 2 => Quadrant::Table,
            (Some(_), None) => Quadrant::Table,
            _ => Quadrant::OnDemand,
        })
    }

    /// The refusal of an `n`-board for want of memory: the least it needs on `threads` threads,
    /// and what it may take.
    fn too_small(n: u32, budget: Option<u64>, threads: usize) -> Error {
        Error::JoinTooLarge {
            n,
            needed: least_bytes(n, threads),
            available: budget.or_else(default_budget),
        }
    }

    /// Board size.
    pub(crate) fn n(&self) -> u32 {
        self.n
    }

    /// How this board's units are counted: by the quarter turn (either way), what each block
    /// adds to the total differs from its solutions, so a plan's fingerprint says it.
    pub(crate) fn way(&self) -> Way {
        self.way
    }

    /// The blocks, in plan order: block `i` is subproblem `i` ([`units::blocks`]).
    pub(crate) fn blocks(&self) -> &[u32] {
        &self.blocks
    }

    /// Whether the quadrants are in a table or made on demand.
    pub(crate) fn quadrants(&self) -> Quadrant {
        match self.quadrants.store() {
            Store::Table => Quadrant::Table,
            Store::Outline | Store::OnDemand => Quadrant::OnDemand,
        }
    }

    /// Solutions of the whole board in block `i`: Σ weight × solutions over its units.
    pub(crate) fn count_block(&self, i: usize) -> u64 {
        self.count_block_from(i, (0, 0), |_, _| true)
            .expect("a count that is never stopped finishes")
    }

    /// [`Join::count_block`] of block `i` resumed after its first `from.0` row sets, which found
    /// `from.1` solutions. After each row set but the last, `each` hears where the count stands
    /// (row sets done, solutions so far) and says whether to go on: `None` when it said no.
    /// A block of n ≥ 25 is many row sets and an hour of a core, so a run stopped or killed
    /// keeps what its row sets found ([`crate::exec`]'s checkpoints).
    pub(crate) fn count_block_from(
        &self,
        i: usize,
        from: (u32, u64),
        mut each: impl FnMut(u32, u64) -> bool,
    ) -> Option<u64> {
        let (mut total, mut k, mut stopped) = (from.1, 0u32, false);
        let last = units::row_sets_in(self.n, self.blocks[i]);
        let before = work_here();
        units::row_sets(self.n, self.blocks[i], |east| {
            if stopped || k < from.0 {
                k += 1;
                return;
            }
            total += self.count_row_set(east);
            k += 1;
            stopped = u64::from(k) < last && !each(k, total);
        });
        let after = work_here();
        self.anded
            .fetch_add(after[0] - before[0], Ordering::Relaxed);
        self.tested
            .fetch_add(after[1] - before[1], Ordering::Relaxed);
        (!stopped).then_some(total)
    }

    /// Row sets in block `i`: the parts a count of it can stop after.
    pub(crate) fn row_sets_in(&self, i: usize) -> u64 {
        units::row_sets_in(self.n, self.blocks[i])
    }

    /// The pairs the counter ANDed (those its pivots did not skip) in the blocks this engine
    /// counted so far, on every thread.
    pub(crate) fn pairs_anded(&self) -> u64 {
        self.anded.load(Ordering::Relaxed)
    }

    /// The pairs the counter tested (ANDed, or skipped by its pivots) in the blocks this engine
    /// counted so far, on every thread.
    pub(crate) fn pairs_tested(&self) -> u64 {
        self.tested.load(Ordering::Relaxed)
    }

    /// Solutions of the whole board in the units of the east row set `east` that are the
    /// smallest of their classes, each weighed by its class (0 when it has none): what a run
    /// spends on `east`.
    pub(crate) fn count_row_set(&self, east: u32) -> u64 {
        self.count_row_set_with(east, pairs::count_disjoint)
    }

    /// [`Join::count_row_set`] with `count` in place of the pair counter: the estimator
    /// (`crate::estimate`) passes one that counts a sample of the pairs of long lists.
    pub(crate) fn count_row_set_with(&self, east: u32, count: impl PairCounter) -> u64 {
        let mut found = [Unit::default(); 32];
        let mut len = 0;
        units::units_of(self.n, east, |u| {
            found[len] = u;
            len += 1;
        });
        let mut total = 0;
        self.count_units(east, &found[..len], count, |times, solutions| {
            total += u64::from(times) * solutions;
        });
        total
    }

    /// Counts the `units` of the east row set `east` (odd n: several middle rows), calling
    /// `found` with the times they count and the solutions of each group of them ([`groups`]).
    /// The east halves are made once for all of them, in pieces of [`Join::piece`] keys; the
    /// west halves of each unit (those left of its level column, [`units::level_column`]) once
    /// per east piece; each east piece against each west piece by `count`.
    ///
    /// A unit is counted alone with the east halves that avoid its middle queen's diagonals;
    /// the units of a group, when the east piece's length is in [`JOINT`], in one go: every
    /// east half against the west halves of all of them, each west key carrying its middle
    /// queen's two diagonals as bits of its own, so that an east half on one of them clashes
    /// with it as with any west queen. That tests more pairs, but one count of longer lists is
    /// sorted by pivots where several short ones were not.
    fn count_units(
        &self,
        east: u32,
        units: &[Unit],
        mut count: impl PairCounter,
        mut found: impl FnMut(u32, u64),
    ) {
        if units.is_empty() {
            return;
        }
        let (n, h, q, window) = (self.n, self.n / 2, &self.quadrants, self.window);
        if self.way != Way::Whole && n.is_multiple_of(2) {
            // An even board: one unit per row set, counted by the quarter turn, and by the
            // innermost key or not.
            let (unit, bits) = (units[0], window.key_bits());
            let solutions = BUFFERS.with(|b| {
                let b = &mut *b.borrow_mut();
                let Buffers {
                    scratch,
                    groups,
                    turned,
                    turn,
                    keyed,
                    keyed_scratch,
                    ..
                } = b;
                let mut count = |e: &[u64], w: &[u64]| count(e, w, bits, scratch);
                match self.way {
                    Way::Innermost => {
                        self.count_pieces(keyed, groups, &unit, keyed::label, |e, w| {
                            keyed::count_piece(n, window, e, w, keyed_scratch, &mut count)
                        })
                    }
                    _ => self.count_pieces(
                        turned,
                        groups,
                        &unit,
                        |s| s.class,
                        |e, w| turn::count_runs(n, e, w, turn, &mut count),
                    ),
                }
            });
            return found(unit.weight, solutions);
        }
        let (groups, len) = groups(n, units);
        let groups = &groups[..len];
        let mut totals = [0u64; 32];
        // By the innermost key, the east halves come in order of their innermost queen's row.
        let keyed = self.way == Way::Innermost;
        BUFFERS.with(|b| {
            let b = &mut *b.borrow_mut();
            b.groups.new_row_set(self.made);
            let mut east_halves = Halves::new(q.rows(), h, east, 0, Side::East);
            let mut keyed_halves = keyed.then(|| {
                let starts = keyed::odd_starts(n, east);
                Turned::of(starts, Side::East, keyed::label)
            });
            loop {
                b.all_east.clear();
                b.all_east_runs.clear();
                let (out, runs, made) = (&mut b.all_east, &mut b.all_east_runs, &mut b.groups);
                let more = match &mut keyed_halves {
                    Some(halves) => halves.fill(q, window, out, runs, self.piece, made),
                    None => east_halves.fill(q, window, out, self.piece, made),
                };
                for (&(_, group), total) in groups.iter().zip(&mut totals) {
                    let joint = group.count_ones() > 1 && self.joint.contains(&b.all_east.len());
                    let mut rest = group;
                    while rest != 0 {
                        let members = if joint {
                            rest
                        } else {
                            rest & rest.wrapping_neg()
                        };
                        rest &= !members;
                        *total += self.count_members(b, units, members, joint, &mut count);
                    }
                }
                if !more {
                    break;
                }
            }
        });
        for (&(times, _), &total) in groups.iter().zip(&totals) {
            found(times, total);
        }
    }

    /// Σ over every piece of `unit`'s east halves and every piece of its west halves, made
    /// start by start in the order of `label` ([`Turned::by`]) into `lists`, of `each(east
    /// piece, west piece)`: the loop of an even board's unit, by the quarter turn or the
    /// innermost key.
    fn count_pieces<K: Copy + Ord>(
        &self,
        lists: &mut turn::Lists<K>,
        groups: &mut half::Buffers,
        unit: &Unit,
        label: fn(&turn::Start) -> K,
        mut each: impl FnMut(turn::Classed<K>, turn::Classed<K>) -> u64,
    ) -> u64 {
        let (n, q, window) = (self.n, &self.quadrants, self.window);
        let turn::Lists {
            east,
            east_runs,
            west,
            west_runs,
        } = lists;
        groups.new_row_set(self.made);
        let mut total = 0;
        let mut east_halves = Turned::by(n, unit.east, Side::East, label);
        loop {
            east.clear();
            east_runs.clear();
            let more = east_halves.fill(q, window, east, east_runs, self.piece, groups);
            let mut west_halves = Turned::by(n, unit.west(n), Side::West, label);
            loop {
                west.clear();
                west_runs.clear();
                let more_west = west_halves.fill(q, window, west, west_runs, self.piece, groups);
                total += each(
                    turn::Classed {
                        keys: east,
                        runs: east_runs,
                    },
                    turn::Classed {
                        keys: west,
                        runs: west_runs,
                    },
                );
                if !more_west {
                    break;
                }
            }
            if !more {
                break;
            }
        }
        total
    }

    /// Solutions of the `members` of one group (bit i: `units[i]`) with the east piece in `b`:
    /// one member alone, or (`joint`) all of them in one go ([`Join::count_units`]).
    fn count_members(
        &self,
        b: &mut Buffers,
        units: &[Unit],
        mut members: u32,
        joint: bool,
        count: &mut impl PairCounter,
    ) -> u64 {
        let (n, h, q, window) = (self.n, self.n / 2, &self.quadrants, self.window);
        // Alone: the east halves that avoid the middle queen's diagonals (the first `clear` of
        // `b.east`, or by the innermost key, those of each row apart); in one go, or on even
        // boards, all of them.
        let keyed = self.way == Way::Innermost;
        let alone = units[members.trailing_zeros() as usize]
            .middle
            .filter(|_| !joint)
            .map(u32::from);
        let clear = match alone {
            Some(m) if !keyed => Some(keep_clear(&b.all_east, window.middle(m), &mut b.east).len()),
            _ => None,
        };
        // The west halves of the members, one after another, in pieces.
        let mut next_member = || {
            (members != 0).then(|| {
                let unit = units[members.trailing_zeros() as usize];
                members &= members - 1;
                let middle = unit.middle.map_or(0, |m| window.middle(u32::from(m)));
                let halves =
                    Halves::new(q.rows(), h, unit.west(n), forbidden(h, &unit), Side::West)
                        .left_of(units::level_column(n, &unit));
                (halves, middle)
            })
        };
        let mut found = 0;
        let mut member = next_member();
        while member.is_some() {
            b.west.clear();
            while let Some((halves, middle)) = &mut member {
                let from = b.west.len();
                let more = halves.fill(q, window, &mut b.west, self.piece, &mut b.groups);
                if joint {
                    mark(&mut b.west[from..], *middle);
                }
                if more {
                    break;
                }
                member = next_member();
            }
            let bits = window.key_bits();
            if keyed {
                let east = turn::Classed {
                    keys: &b.all_east,
                    runs: &b.all_east_runs,
                };
                let Buffers {
                    west,
                    scratch,
                    keyed_scratch,
                    ..
                } = b;
                found += keyed::count_odd_piece(n, window, east, west, alone, keyed_scratch, {
                    &mut |e: &[u64], w: &[u64]| count(e, w, bits, scratch)
                });
                continue;
            }
            let east_keys = clear.map_or(&b.all_east[..], |len| &b.east[..len]);
            if !east_keys.is_empty() && !b.west.is_empty() {
                found += count(east_keys, &b.west, bits, &mut b.scratch);
            }
        }
        found
    }
}

/// Adds a middle queen's diagonals (`middle`, key bits) to each of `keys`.
fn mark(keys: &mut [u64], middle: u64) {
    for key in keys {
        *key |= middle;
    }
}

/// The diagonals a unit's middle queen forbids its halves, as a mask of diagonal numbers: it
/// stands at (m, h), on "/" diagonal m + h and "\" diagonal m - h + n - 1, the same number.
fn forbidden(h: u32, unit: &Unit) -> u64 {
    unit.middle.map_or(0, |m| 1u64 << (u32::from(m) + h))
}

/// The units of one row set in groups counted together, each with the times each of its
/// solutions counts in the board's total (a unit's weight, twice by the quarter turn where it
/// has a level column: [`units::level_column`]) and its members (bit i: `units[i]`): the units
/// that count alike, in order (for odd n: one per middle row).
fn groups(n: u32, units: &[Unit]) -> ([(u32, u32); 32], usize) {
    let mut groups = [(0u32, 0u32); 32];
    let mut len = 0;
    for (i, unit) in units.iter().enumerate() {
        let times = unit.weight
            * if units::level_column(n, unit).is_some() {
                2
            } else {
                1
            };
        match groups[..len].iter().position(|&(t, _)| t == times) {
            Some(g) => groups[g].1 |= 1 << i,
            None => {
                groups[len] = (times, 1 << i);
                len += 1;
            }
        }
    }
    (groups, len)
}

/// Counts the pairs of two key lists that share no bit, keys below `2^bits`, with a thread's
/// work space: [`pairs::count_disjoint`], or an estimator's stand-in.
pub(crate) trait PairCounter:
    FnMut(&[u64], &[u64], u32, &mut pairs::Scratch) -> u64
{
}

impl<F: FnMut(&[u64], &[u64], u32, &mut pairs::Scratch) -> u64> PairCounter for F {}

/// How the engine of an `n`-board counts its units, as `decomposition` says.
/// An odd board has no quarter turn of its own to ask for (its units are always counted by
/// theirs), so only whole units and the innermost key.
fn way(n: u32, decomposition: Decomposition) -> Way {
    let decomposition = match decomposition {
        Decomposition::Fastest => Decomposition::fastest_for(n),
        asked => asked,
    };
    match decomposition {
        Decomposition::Fastest | Decomposition::Whole => Way::Whole,
        Decomposition::QuarterTurn if n.is_multiple_of(2) => Way::QuarterTurn,
        Decomposition::QuarterTurn => Way::Whole,
        Decomposition::Innermost => Way::Innermost,
    }
}

/// The least memory the engine of an `n`-board counts in on `threads` threads: the smallest
/// pieces, and the table's outline up to n = [`MAX_TABLE_N`].
fn least_bytes(n: u32, threads: usize) -> u64 {
    let outline = if n <= MAX_TABLE_N {
        Quadrants::size(n).2
    } else {
        0
    };
    outline + MIN_BYTES_PER_THREAD * threads.max(1) as u64
}

/// The most a thread's pieces take beside the table when no budget is given.
pub(crate) const DEFAULT_THREAD_BYTES: u64 = 2 << 30;

/// The budget of a run that names none: half of what this process may take
/// (`memory::available`: free memory, its control group, `ulimit -v`).
pub(crate) fn default_budget() -> Option<u64> {
    crate::system::memory::available().map(|a| a / 2)
}

thread_local! {
    /// This thread's buffers ([`Join::count_units`]).
    static BUFFERS: RefCell<Buffers> = RefCell::default();
}

/// The pairs this thread's counter has ANDed and tested so far ([`pairs::Scratch::anded`],
/// [`pairs::Scratch::tested`]).
fn work_here() -> [u64; 2] {
    BUFFERS.with(|b| {
        let scratch = &b.borrow().scratch;
        [scratch.anded, scratch.tested]
    })
}

/// A worker thread's buffers, reused from row set to row set.
#[derive(Default)]
struct Buffers {
    /// A piece of the east halves of a row set, and its runs by innermost row when an odd
    /// board is counted by the innermost key ([`keyed`]).
    all_east: Vec<u64>,
    all_east_runs: turn::Runs<keyed::Label>,
    east: Vec<u64>,
    west: Vec<u64>,
    scratch: pairs::Scratch,
    groups: half::Buffers,
    /// The pieces of an even board's unit, in class order (the quarter turn) or by innermost
    /// row ([`keyed`]), and the scratch of each.
    turned: turn::Lists<turn::Class>,
    turn: turn::Scratch,
    keyed: turn::Lists<keyed::Label>,
    keyed_scratch: keyed::Scratch,
}

impl std::fmt::Debug for Join {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Join")
            .field("n", &self.n)
            .field("blocks", &self.blocks.len())
            .field("quadrants", &self.quadrants.store())
            .field("piece", &self.piece)
            .finish()
    }
}

/// Two are equal when they count the same pieces the same way: the board, its blocks and the
/// decomposition, what [`crate::Plan::fingerprint`] covers. The tables are a function of n, and
/// how they are held (in memory or made on demand, the pieces' sizes) changes no count.
impl PartialEq for Join {
    fn eq(&self, other: &Join) -> bool {
        (self.n, &self.blocks, self.way) == (other.n, &other.blocks, other.way)
    }
}

impl Eq for Join {}

#[cfg(test)]
mod tests;
