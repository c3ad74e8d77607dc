//! The plan: a deterministic, ordered list of independent weighted pieces, and the one place
//! that tells the engines apart.
//!
//! A plan holds its pieces as one of two kinds ([`Pieces`]). The backtracking engines' pieces
//! are subproblems ([`crate::search::subproblem`]): a board with some queens pre-placed, whose
//! solutions are the ways to complete it, and a weight that says how many solutions of the whole
//! board each of them stands for. The total is `Σ weight × completions`. Those engines differ in
//! which queens they pre-place:
//! - `mirror` fills rows `0..d` and uses the left-right mirror (weight 2);
//! - `symmetry` fills the border (rows 0 and n-1, columns 0 and n-1) up to the 8 symmetries of
//!   the square and then rows `1..=d` (see [`crate::engines::symmetry`]).
//!
//! The join engine's pieces are blocks of row sets (see [`crate::engines::join`]), each of
//! weight 1: a block's count already weighs its units.
//!
//! Progress, checkpoints and shards all refer to pieces by their `id`, the index in this list,
//! so a plan comes out the same on every machine for the same `(n, engine, split depth)`. Every
//! `match` on a plan's pieces is in this module; which plan a count gets is [`choose`]'s.

pub(crate) mod choose;
pub(crate) mod sample;

use std::sync::Arc;

use crate::engines::join::{self, Join, Way};
use crate::search::kernel::{self, board_mask, AllRows, Search};
use crate::search::subproblem::{Builder, Rule, Subproblem, MAX_SPLIT_DEPTH};
use crate::{Decomposition, Engine, Error};

/// Auto depth aims at this many subproblems per worker thread at least.
pub(crate) const SUBPROBLEMS_PER_THREAD: usize = 32;

/// One piece of a plan, as execution, progress, checkpoints and shards see it: its place in the
/// plan and the solutions of the whole board that each of its completions stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Piece {
    /// Position in the plan, from 0.
    pub id: usize,
    /// Solutions of the whole board that each completion stands for.
    pub weight: u32,
}

/// How far the count of one piece has come: its first `done` parts counted, which found
/// `solutions` (unweighted, as [`Search::solutions`]). A join block's parts are its row sets; a
/// subproblem is one part. A run stopped inside a piece keeps its part in the checkpoint and
/// resumes from it ([`Plan::count_piece_from`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Part {
    /// Parts counted, from the first.
    pub done: u32,
    /// What they found.
    pub solutions: u64,
}

impl Part {
    /// The first `done` parts of a piece, which found `solutions`.
    pub fn new(done: u32, solutions: u64) -> Part {
        Part { done, solutions }
    }
}

/// The independent pieces of one board size's count, in a fixed order.
///
/// What the pieces are depends on the engine: subproblems with pre-placed queens, or the join
/// engine's blocks of half-board row sets. Everything that tells the engines apart (counting a
/// piece, pricing it, the fingerprint) is in this module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub(crate) n: u32,
    pub(crate) pieces: Pieces,
    /// Why the default engine could not be used, when this plan stands in for it.
    fell_back: Option<Error>,
}

/// What a plan's pieces are, engine by engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Pieces {
    /// A backtracking engine's subproblems: queens pre-placed, then the kernel's search.
    Search {
        /// `mirror` or `symmetry`.
        engine: Engine,
        /// Rows pre-placed below the engine's own.
        split_depth: u32,
        /// The pieces, ordered by id.
        subproblems: Vec<Subproblem>,
    },
    /// The join engine's blocks of units (piece `i` is block `i`, weight 1), with its tables.
    Join(Arc<Join>),
}

impl Plan {
    /// The plan of a backtracking engine whose subproblems `build` lists.
    pub(crate) fn built(
        engine: Engine,
        n: u32,
        split_depth: u32,
        build: fn(&mut Builder) -> Result<(), Error>,
    ) -> Result<Plan, Error> {
        let mut builder = Builder::new(n, split_depth);
        build(&mut builder)?;
        Ok(Plan {
            n,
            pieces: Pieces::Search {
                engine,
                split_depth,
                subproblems: builder.into_subproblems(),
            },
            fell_back: None,
        })
    }

    /// The plan whose pieces are the blocks of `join`, each of weight 1: a block's count
    /// already weighs each of its units by its symmetry class.
    pub(crate) fn of_join(join: Join) -> Plan {
        Plan {
            n: join.n(),
            pieces: Pieces::Join(Arc::new(join)),
            fell_back: None,
        }
    }

    /// This plan, standing in for the default engine's, which refused with `why`.
    pub(crate) fn falling_back(self, why: Error) -> Plan {
        Plan {
            fell_back: Some(why),
            ..self
        }
    }

    /// Why the default engine's plan could not be built, when this plan stands in for it (the
    /// join engine's tables would not fit in memory): worth telling the user.
    pub fn fell_back(&self) -> Option<&Error> {
        self.fell_back.as_ref()
    }

    /// Board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The pieces, ordered by id.
    pub fn pieces(&self) -> impl ExactSizeIterator<Item = Piece> + '_ {
        (0..self.len()).map(|id| self.piece(id))
    }

    /// True when the board has no solution (n = 2, 3).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The plans' constructors, by engine.
impl Plan {
    /// The plan of `engine` for an `n`-board split after `split_depth` rows.
    ///
    /// Mirror: rows `0..split_depth` are pre-placed (depth 0 is the whole board as one subproblem
    /// of weight 1). Symmetry: the border and then rows `1..=split_depth`.
    pub fn new(engine: Engine, n: u32, split_depth: u32) -> Result<Plan, Error> {
        crate::check_n(n)?;
        if split_depth > MAX_SPLIT_DEPTH {
            return Err(Error::SplitDepth {
                depth: split_depth,
                max: MAX_SPLIT_DEPTH,
            });
        }
        choose::plan(engine, n, split_depth.min(n))
    }

    /// The plan of `engine` with the shallowest split that gives every thread enough work
    /// (at least 32 subproblems per thread, and 2^min(n-8, 17) in all).
    pub fn auto(engine: Engine, n: u32, threads: usize) -> Result<Plan, Error> {
        choose::auto(engine, n, threads, threads)
    }

    /// The join plan of an `n`-board: one piece per block of units of the join engine. No
    /// queens are pre-placed (split depth 0): its subproblems are counted by
    /// the plan's tables, not by a search.
    pub fn join(n: u32) -> Result<Plan, Error> {
        Ok(Plan::of_join(join::Join::new(n)?))
    }
}

/// Everything that tells the engines' plans apart.
impl Plan {
    /// The engine whose plan this is.
    pub fn engine(&self) -> Engine {
        match &self.pieces {
            Pieces::Search { engine, .. } => *engine,
            Pieces::Join(_) => Engine::Join,
        }
    }

    /// The split depth the plan was built with (0 for the join engine, which has none).
    pub fn split_depth(&self) -> u32 {
        match &self.pieces {
            Pieces::Search { split_depth, .. } => *split_depth,
            Pieces::Join(_) => 0,
        }
    }

    /// Number of pieces.
    pub fn len(&self) -> usize {
        match &self.pieces {
            Pieces::Search { subproblems, .. } => subproblems.len(),
            Pieces::Join(join) => join.blocks().len(),
        }
    }

    /// Piece `id` (< [`Plan::len`]).
    pub fn piece(&self, id: usize) -> Piece {
        let weight = match &self.pieces {
            Pieces::Search { subproblems, .. } => subproblems[id].weight,
            Pieces::Join(_) => 1,
        };
        Piece { id, weight }
    }

    /// Counts the completions of piece `id`: a search from its pre-placed queens, or the pairs
    /// of half-boards of a join block (queens placed are counted by the searches only, and
    /// only when `count_nodes`; a join reports none).
    pub fn count_piece(&self, id: usize, count_nodes: bool) -> Search {
        let n = self.n;
        match &self.pieces {
            Pieces::Search { subproblems, .. } => match subproblems[id].start(n) {
                (start, None) => kernel::search(n, &AllRows(board_mask(n)), start, count_nodes),
                (start, Some(rows)) => kernel::search(n, &rows, start, count_nodes),
            },
            Pieces::Join(join) => Search {
                solutions: join.count_block(id),
                nodes: 0,
            },
        }
    }

    /// [`Plan::count_piece`] resumed `from` a part of the piece counted before (a join block's
    /// first row sets; [`Part::default`] to start afresh). After each part but the last, `each`
    /// hears where the count stands and says whether to go on: `None` when it said no. A
    /// subproblem is one part, counted whole.
    pub fn count_piece_from(
        &self,
        id: usize,
        count_nodes: bool,
        from: Part,
        each: &mut dyn FnMut(Part) -> bool,
    ) -> Option<Search> {
        match &self.pieces {
            Pieces::Search { .. } => Some(self.count_piece(id, count_nodes)),
            Pieces::Join(join) => join
                .count_block_from(id, (from.done, from.solutions), |done, solutions| {
                    each(Part { done, solutions })
                })
                .map(|solutions| Search {
                    solutions,
                    nodes: 0,
                }),
        }
    }

    /// The bytes of the join engine's quadrant table where this plan makes its quadrants on
    /// demand (3 to 4 times slower) although its board has a table: the budget could not hold
    /// it. `None` otherwise.
    pub fn table_not_held(&self) -> Option<u64> {
        let join = self.join_tables()?;
        (join.quadrants() == join::Quadrant::OnDemand && self.n <= join::MAX_TABLE_N)
            .then(|| crate::engines::join::quadrant::Quadrants::size(self.n).1)
    }

    /// What the pieces are called where a user reads of them: "blocks" (the join engine's
    /// blocks of row sets) or "subproblems".
    pub fn pieces_are(&self) -> &'static str {
        match &self.pieces {
            Pieces::Search { .. } => "subproblems",
            Pieces::Join(_) => "blocks",
        }
    }

    /// The parts piece `id` is counted in ([`Part`]): a join block's row sets, or 1.
    pub fn parts(&self, id: usize) -> u64 {
        match &self.pieces {
            Pieces::Search { .. } => 1,
            Pieces::Join(join) => join.row_sets_in(id),
        }
    }

    /// The share of piece `id`'s estimated cost in its first `done` parts, from 0 to 1.
    pub fn part_share(&self, id: usize, done: u32) -> f64 {
        match &self.pieces {
            Pieces::Search { .. } => f64::from(done.min(1)),
            Pieces::Join(join) => join.block_share(id, done),
        }
    }

    /// Whether counting this plan's pieces can count the queens it places (the join engine
    /// places none one by one).
    pub fn counts_nodes(&self) -> bool {
        matches!(self.pieces, Pieces::Search { .. })
    }

    /// The price of piece `id`, for progress and the shard partition: Knuth's estimate of its
    /// search tree over `probes` random paths ([`crate::search::cost::tree_size`]), or, for a join
    /// block, which has no tree, its own cost model ([`join::Join::block_cost`]) times `probes`.
    /// Deterministic: the partition, and so the shard files, depend on it.
    pub(crate) fn cost(&self, id: usize, probes: u32) -> u128 {
        match &self.pieces {
            Pieces::Search { subproblems, .. } => {
                crate::search::cost::tree_size(self.n, &subproblems[id], probes)
            }
            Pieces::Join(join) => join.block_cost(id) * u128::from(probes),
        }
    }

    /// Makes now, on the caller's rayon pool, what pricing the pieces ([`Plan::cost`]) shares
    /// among them (the join engine's price of every row set, or its guess at their costs),
    /// rather than on the first call.
    pub(crate) fn prepare_costs(&self) {
        if let Pieces::Join(join) = &self.pieces {
            join.prepare_prices();
        }
    }

    /// The estimated cost of every piece, by id, for progress: its price (as for shards) with 4 to 64
    /// random paths each, 2^16 for the whole plan. Deterministic: the random paths of each
    /// piece are seeded by its id.
    pub fn costs(&self) -> Vec<f64> {
        const PROGRESS_PROBES_PER_PLAN: usize = 1 << 16;
        let probes = (PROGRESS_PROBES_PER_PLAN / self.len().max(1)).clamp(4, 64) as u32;
        (0..self.len())
            .map(|id| self.cost(id, probes) as f64 / f64::from(probes))
            .collect()
    }

    /// The plan's identity: CRC-32 of every piece (a subproblem's weight, rule and queens; a join
    /// block's rows), fed as explicit little-endian bytes so that it is the same on every
    /// machine and with every compiler. Checkpoints and shard results carry it, so that nothing
    /// from one plan is ever mixed into a count of another, however alike their parameters look.
    pub fn fingerprint(&self) -> u32 {
        let mut h = crc32fast::Hasher::new();
        h.update(self.engine().name().as_bytes());
        h.update(&self.n.to_le_bytes());
        h.update(&self.split_depth().to_le_bytes());
        h.update(&(self.len() as u64).to_le_bytes());
        let mut piece = |id: usize, weight: u32, rule: Rule, queens: &[(u8, u8)]| {
            h.update(&(id as u64).to_le_bytes());
            h.update(&weight.to_le_bytes());
            let rule = match rule {
                Rule::Free => [0, 0, 0],
                Rule::Corner { j } => [1, j, 0],
                Rule::Far { d, free } => [2, d, free],
            };
            h.update(&rule);
            h.update(&[queens.len() as u8]);
            for &(r, c) in queens {
                h.update(&[r, c]);
            }
        };
        match &self.pieces {
            Pieces::Search { subproblems, .. } => {
                for sub in subproblems {
                    piece(sub.id, sub.weight, sub.rule, sub.queens());
                }
            }
            Pieces::Join(join) => {
                // Each block as the weight-1 piece with no queens it once stood for, then the
                // blocks' rows: the bytes that checkpoints and shard files already carry.
                for id in 0..join.blocks().len() {
                    piece(id, 1, Rule::Free, &[]);
                }
                for block in join.blocks() {
                    h.update(&block.to_le_bytes());
                }
                // The blocks of an even board counted by the quarter turn add other sums.
                match join.way() {
                    Way::Whole => {}
                    Way::QuarterTurn => h.update(b"quarter turn"),
                    Way::Innermost => h.update(b"innermost key"),
                }
            }
        }
        h.finalize()
    }

    /// How the plan counts a board's units ([`Decomposition::Whole`],
    /// [`Decomposition::QuarterTurn`] (even boards) or [`Decomposition::Innermost`]): `None`
    /// for the backtracking engines, which have one way only.
    pub fn decomposition(&self) -> Option<Decomposition> {
        let join = self.join_tables()?;
        Some(match join.way() {
            Way::Whole => Decomposition::Whole,
            Way::QuarterTurn => Decomposition::QuarterTurn,
            Way::Innermost => Decomposition::Innermost,
        })
    }

    /// The pairs the join engine's counter ANDed (those its pivots did not skip) in the pieces
    /// this plan counted in this process; `None` for the other engines.
    pub fn pairs_anded(&self) -> Option<u64> {
        self.join_tables().map(join::Join::pairs_anded)
    }

    /// The pairs of half-boards the join engine's counter tested (ANDed, or skipped by its
    /// pivots) in the pieces this plan counted in this process; `None` for the other engines.
    pub fn pairs_tested(&self) -> Option<u64> {
        self.join_tables().map(join::Join::pairs_tested)
    }

    /// The join engine's tables and units, for a join plan: what an estimate draws from.
    pub(crate) fn join_tables(&self) -> Option<&join::Join> {
        match &self.pieces {
            Pieces::Join(join) => Some(join),
            Pieces::Search { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fingerprint is fed explicit bytes: these values must never change, or every
    /// checkpoint and shard result written before would be refused.
    #[test]
    fn fingerprints_are_pinned() {
        let print = |engine, n, depth| Plan::new(engine, n, depth).unwrap().fingerprint();
        assert_eq!(format!("{:08x}", print(Engine::Mirror, 8, 2)), "c9ec032b");
        assert_eq!(
            format!("{:08x}", print(Engine::Symmetry, 12, 3)),
            "bdf2f1f0"
        );
        assert_eq!(format!("{:08x}", print(Engine::Join, 11, 0)), "ac241a0c");
        assert_ne!(print(Engine::Mirror, 8, 2), print(Engine::Mirror, 8, 3));
    }

    /// Plans are equal exactly when their fingerprints are: two decompositions of one board are
    /// two plans.
    #[test]
    fn plans_of_two_decompositions_differ() {
        let join = crate::Options::default().with_engine(Some(Engine::Join));
        let of = |d| crate::plan(12, &join.with_decomposition(d)).unwrap();
        let [whole, turn, key] = [
            Decomposition::Whole,
            Decomposition::QuarterTurn,
            Decomposition::Innermost,
        ]
        .map(of);
        // (Plans print long: the comparisons are asserted as booleans.)
        assert!(whole != turn && turn != key && whole != key);
        assert!(whole == of(Decomposition::Fastest));
        assert!(whole == Plan::join(12).unwrap());
        assert!(Plan::join(12).unwrap() != Plan::join(14).unwrap());
        for (a, b) in [(&whole, &turn), (&whole, &whole), (&turn, &key)] {
            assert_eq!(a == b, a.fingerprint() == b.fingerprint());
        }
    }

    fn columns(s: &Subproblem) -> Vec<u8> {
        s.queens().iter().map(|q| q.1).collect()
    }

    #[test]
    fn sizes_match_the_design_notes() {
        // Before the mirror: 16 / 210 / 2236 prefixes at n = 16; the mirror keeps half.
        assert_eq!(Plan::new(Engine::Mirror, 16, 1).unwrap().len(), 8);
        assert_eq!(Plan::new(Engine::Mirror, 16, 2).unwrap().len(), 105);
        assert_eq!(Plan::new(Engine::Mirror, 16, 3).unwrap().len(), 1118);
    }

    #[test]
    fn ids_are_positions_and_order_is_lexicographic() {
        let plan = Plan::new(Engine::Mirror, 9, 3).unwrap();
        for (i, s) in plan.subproblems().iter().enumerate() {
            assert_eq!(s.id, i);
        }
        let prefixes: Vec<_> = plan.subproblems().iter().map(columns).collect();
        assert!(prefixes.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn odd_middle_column_pairs_through_row_one() {
        let plan = Plan::new(Engine::Mirror, 5, 1).unwrap();
        let queens: Vec<_> = plan.subproblems().iter().map(columns).collect();
        assert_eq!(queens, vec![vec![0], vec![1], vec![2, 0]]);
        assert!(plan.subproblems().iter().all(|s| s.weight == 2));
    }

    #[test]
    fn auto_depth_gives_every_thread_work() {
        // The join plan has no depth: its units are the row sets of the board.
        for engine in [Engine::Mirror, Engine::Symmetry] {
            for n in 4..=18 {
                let plan = Plan::auto(engine, n, 2).unwrap();
                assert!(
                    plan.len() >= 64 || plan.split_depth() == n,
                    "{engine} n = {n}"
                );
            }
        }
    }

    #[test]
    fn too_deep_a_split_is_refused() {
        assert!(matches!(
            Plan::new(Engine::Mirror, 8, MAX_SPLIT_DEPTH + 1),
            Err(Error::SplitDepth { .. })
        ));
    }

    impl Plan {
        /// The subproblems of a backtracking plan, ordered by id (none for the join engine).
        pub(crate) fn subproblems(&self) -> &[Subproblem] {
            match &self.pieces {
                Pieces::Search { subproblems, .. } => subproblems,
                Pieces::Join(_) => &[],
            }
        }
    }
}
