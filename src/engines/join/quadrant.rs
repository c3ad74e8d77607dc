//! The quadrant table: every non-attacking placement in a quadrant, grouped by rows and columns.
//!
//! The east half of an n-board is columns `0..h` (h = ⌊n/2⌋). Its north part, rows `0..R` with
//! R = n - h (R = h for even n, h + 1 for odd n), is a R×h rectangle. The table holds every set of
//! queens in that rectangle that attack each other neither by row, column nor diagonal, from the
//! empty set up, grouped by (row set, column set), and stores only each placement's diagonals in
//! board coordinates, packed in one `u64` (8 bytes a placement):
//!
//! ```text
//!   d1 = r + c           "/" diagonals: 0 ..= n-2 in the rectangle      bits  0..32
//!   d2 = r - c + n - 1   "\" diagonals: R ..= n+R-2, stored minus R     bits 32..64
//! ```
//!
//! The south part of the east half (rows `R..n`, at most R rows) uses the same table: a placement
//! moved down by R rows keeps its columns and adds R to both of its diagonals, so its masks are
//! the stored ones shifted left by R.

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

/// Every non-attacking placement in the R×h north-east rectangle, by (row set, column set): held
/// in a table, or made on demand group by group.
#[derive(Debug, Clone)]
pub(crate) struct Quadrants {
    /// Board size.
    n: u32,
    /// Whether the placements are in `packed` (a table), only counted (an outline), or made when
    /// asked for (neither).
    store: Store,
    /// Rows of the rectangle (R).
    rows: u32,
    /// Columns of the rectangle (h).
    cols: u32,
    /// `offsets[g]..offsets[g + 1]` are the placements of group `g = row_set << h | col_set`.
    offsets: Vec<u32>,
    /// The placements, group after group, packed (see the module header).
    packed: Vec<u64>,
    /// For an odd board's table, whose groups on the rectangle's last row are in order of the
    /// column of their queen there ([`Quadrants::group_left_of`]): for each such group (the
    /// upper half) and each column c, how many of its placements have that queen in columns
    /// `0..=c`, h counts a group. Empty otherwise.
    ending: Vec<u16>,
    /// The bits of a packed placement's "/" mask: a table's also hold [`LAST_COLUMN`].
    d1_bits: u64,
}

/// Where a table's placement on the rectangle's last row keeps the column of its queen there
/// (bits 27..32, above the "/" mask of a table's boards, bits 0..n-1): [`last_column`].
const LAST_COLUMN: u32 = 27;
const _: () = assert!(super::MAX_TABLE_N - 1 <= LAST_COLUMN);

/// The column of the queen on the rectangle's last row of a table's packed placement that has
/// one ([`LAST_COLUMN`]).
#[inline(always)]
fn last_column(packed: u64) -> u32 {
    (packed >> LAST_COLUMN & 31) as u32
}

/// A queen at row `r`, column `c` of the rectangle of an `n`-board with `rows` rows, packed
/// (the module header): "/" diagonal r + c, "\" diagonal r - c + n - 1 less `rows`.
#[inline(always)]
fn packed_queen(n: u32, rows: u32, r: u32, c: u32) -> u64 {
    1u64 << (r + c) | 1u64 << (32 + r + n - 1 - c - rows)
}

/// Where a [`Quadrants`] finds its placements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Store {
    /// Every group in memory.
    Table,
    /// The size of every group, no placement: enough to price units, not to count them.
    Outline,
    /// Nothing held: each group is made when it is asked for, by a backtrack over its rows
    /// restricted to its columns (about 3 times the time of reading it from a table), and kept
    /// while its row set is counted, within a thread's share of the budget ([`Made`]).
    OnDemand,
}

/// A placement's two diagonal masks in board coordinates.
pub(crate) type Diagonals = (u64, u64);

/// Placements in the table of an `n`-board, by n (0 to [`super::MAX_TABLE_N`]), as counted by
/// walking the rectangle (the tests walk it again: up to 20 always, all with `--ignored`). The
/// walk takes seconds at n = 24; this table lets a board that does not fit be refused at once.
pub(crate) const ENTRIES: [u64; 25] = [
    1,
    1,
    2,
    3,
    5,
    9,
    18,
    37,
    87,
    185,
    462,
    1_039,
    2_635,
    6_335,
    16_870,
    42_807,
    118_969,
    316_395,
    915_442,
    2_524_999,
    7_535_369,
    21_637_115,
    66_807_234,
    198_770_307,
    633_443_407,
];

impl Quadrants {
    /// The table of an `n`-board's north-east rectangle (n ≤ [`super::MAX_TABLE_N`]), or an
    /// error when its memory cannot be had: every allocation is fallible, so a board too large
    /// for the machine is refused, not a reason for the process to abort.
    ///
    /// The outline's walk (the groups' sizes) runs on the current rayon pool; then each row
    /// set's groups are made from those of the row set without its highest row, a queen added in
    /// that row in each column the group has, in increasing order of the column
    /// ([`Quadrants::fill_row_set`]): row sets of one size at a time, in parallel, each writing
    /// its own part of the table, which leaves each group on the rectangle's last row in order of
    /// the column of its queen there. (A second walk that scattered every placement to its
    /// group's next slot was more than twice as slow: it writes all over the table.)
    pub(crate) fn build(n: u32) -> Result<Quadrants, TryReserveError> {
        let mut q = Quadrants::outline(n)?;
        let total = q.offsets[q.offsets.len() - 1] as usize;
        crate::system::memory::fallibly(|| q.packed.try_reserve_exact(total))?;
        q.packed.resize(total, 0u64);
        q.store = Store::Table;
        q.d1_bits = (1 << LAST_COLUMN) - 1;
        let packed = Slots(q.packed.as_mut_ptr());
        // The empty placement, group (0, 0), is the zero already there.
        for size in 1..=q.rows.min(q.cols) {
            let mut sets = Vec::new();
            super::subsets::for_each_subset(q.rows, size, |rows| sets.push(rows));
            // SAFETY: each row set writes only its own groups' slots, below `total`; the groups
            // it reads are of row sets one row smaller, all written before this size began, and
            // none is written again; `q.packed` is neither moved nor read through a reference
            // until the loop ends.
            sets.par_iter()
                .for_each(|&rows| unsafe { q.fill_row_set(rows, &packed) });
        }
        // Only odd boards cut their west halves at that row's queen ([`Quadrants::group_left_of`]).
        if n % 2 == 1 {
            q.count_by_last_column()?;
        }
        Ok(q)
    }

    /// Writes the groups of `row_set` from those of the row set without its highest row r: in
    /// each group (`row_set`, C), for c in C from the lowest, every placement of (`row_set`
    /// without r, C without c) that no queen at (r, c) attacks, with that queen.
    ///
    /// # Safety
    /// The groups of the smaller row set are written and no longer written; no other thread
    /// writes or reads the groups of `row_set`; `packed` points to the table's placements.
    unsafe fn fill_row_set(&self, row_set: u32, packed: &Slots) {
        let r = 31 - row_set.leading_zeros();
        let before = row_set ^ 1 << r;
        let k = row_set.count_ones();
        let last = r + 1 == self.rows;
        super::subsets::for_each_subset(self.cols, k, |col_set| {
            let g = self.index(row_set, col_set);
            let (mut at, end) = (self.offsets[g] as usize, self.offsets[g + 1] as usize);
            let mut cols = col_set;
            while cols != 0 {
                let c = cols.trailing_zeros();
                cols &= cols - 1;
                let queen = packed_queen(self.n, self.rows, r, c);
                let mark = if last { u64::from(c) << LAST_COLUMN } else { 0 };
                let h = self.index(before, col_set ^ 1 << c);
                let (from, to) = (self.offsets[h] as usize, self.offsets[h + 1] as usize);
                for i in from..to {
                    // Each candidate is written at the cursor, which moves past those no queen
                    // attacks: no branch to mispredict but the group's end, after which every
                    // candidate fails (the outline counted exactly the group's placements).
                    // SAFETY: slot i is of a smaller row set's group, written and no longer
                    // written (the caller); slot `at` < `end` is of this row set's group g.
                    unsafe {
                        let p = packed.read(i);
                        if at < end {
                            packed.write(at, p | queen | mark);
                        }
                        at += usize::from(p & queen == 0);
                    }
                }
            }
            debug_assert_eq!(at, end, "group {row_set:b} {col_set:b}");
        });
    }

    /// Counts each group on the rectangle's last row (the upper half of the groups), which the
    /// fill left in order of the column of its queen there, by that column ([`Quadrants::ending`]),
    /// on the current rayon pool. No count is kept when a group is longer than a `u16` holds
    /// (none is, up to n = [`super::MAX_TABLE_N`]: 7714 placements at most, at n = 23).
    fn count_by_last_column(&mut self) -> Result<(), TryReserveError> {
        let groups = self.offsets.len() - 1;
        let first = groups / 2;
        let cols = self.cols as usize;
        let longest = self.offsets[first..].windows(2).map(|w| w[1] - w[0]).max();
        if cols == 0 || longest.is_none_or(|l| l > u32::from(u16::MAX)) {
            return Ok(());
        }
        let mut ending = Vec::new();
        crate::system::memory::fallibly(|| ending.try_reserve_exact((groups - first) * cols))?;
        ending.resize((groups - first) * cols, 0u16);
        let (offsets, packed) = (&self.offsets, &self.packed);
        ending
            .par_chunks_mut(cols)
            .enumerate()
            .for_each(|(i, ends)| {
                let g = first + i;
                let group = &packed[offsets[g] as usize..offsets[g + 1] as usize];
                debug_assert!(group.is_sorted_by_key(|&p| last_column(p)), "group {g}");
                for (c, end) in ends.iter_mut().enumerate() {
                    // At most the group's length, which fits (`longest`).
                    *end = group.partition_point(|&p| last_column(p) <= c as u32) as u16;
                }
            });
        self.ending = ending;
        Ok(())
    }

    /// The table's outline: how many placements each group holds, and no placement (one walk,
    /// 4 bytes a group). Enough for [`Quadrants::group_len`], which prices the join's units; an
    /// outline's [`Quadrants::group`] is empty.
    pub(crate) fn outline(n: u32) -> Result<Quadrants, TryReserveError> {
        let cols = n / 2;
        let rows = n - cols;
        let groups = 1usize << (rows + cols);
        let tally = atomic_zeros(groups + 1)?;
        walk(rows, cols, &|g| {
            tally[g + 1].fetch_add(1, Ordering::Relaxed);
        });
        let mut counts = Vec::new();
        crate::system::memory::fallibly(|| counts.try_reserve_exact(groups + 1))?;
        let mut sum = 0;
        counts.extend(tally.iter().map(|c| {
            sum += c.load(Ordering::Relaxed);
            sum
        }));
        Ok(Quadrants {
            n,
            store: Store::Outline,
            rows,
            cols,
            offsets: counts,
            packed: Vec::new(),
            ending: Vec::new(),
            d1_bits: u64::from(u32::MAX),
        })
    }

    /// No table: every group is made when asked for ([`Store::OnDemand`]), for any n ≤ 32.
    pub(crate) fn on_demand(n: u32) -> Quadrants {
        let cols = n / 2;
        Quadrants {
            n,
            store: Store::OnDemand,
            rows: n - cols,
            cols,
            offsets: Vec::new(),
            packed: Vec::new(),
            ending: Vec::new(),
            d1_bits: u64::from(u32::MAX),
        }
    }

    /// This outline, its groups made on demand ([`Store::OnDemand`]) but their sizes known.
    pub(crate) fn made_on_demand(self) -> Quadrants {
        Quadrants {
            store: Store::OnDemand,
            ..self
        }
    }

    /// Whether [`Quadrants::group_len`] can be asked: a table, or an outline.
    pub(crate) fn sizes_known(&self) -> bool {
        !self.offsets.is_empty()
    }

    /// Where the placements come from.
    pub(crate) fn store(&self) -> Store {
        self.store
    }

    /// The placements the table of an `n`-board holds (n ≤ [`super::MAX_TABLE_N`]), the most
    /// bytes [`Quadrants::build`] takes at once, and the bytes of [`Quadrants::outline`], without
    /// building anything: from [`ENTRIES`], at once.
    pub(crate) fn size(n: u32) -> (u64, u64, u64) {
        let entries = ENTRIES[n as usize];
        let offsets = 4 * ((1u64 << n) + 1);
        // An odd board's counts by the last row's queen: h of 2 bytes for half of the groups.
        let ending = if n % 2 == 1 {
            (1u64 << n) * u64::from(n / 2)
        } else {
            0
        };
        // The placements, the offsets, and the offsets' copy used while filling.
        (entries, entries * 8 + 2 * offsets + ending, offsets)
    }

    /// Rows of the rectangle (R = n - ⌊n/2⌋).
    pub(crate) fn rows(&self) -> u32 {
        self.rows
    }

    /// The placements on exactly the rows `row_set` (bit r: row r of the rectangle) and the
    /// columns `col_set`, packed: [`Quadrants::unpack`] gives their "/" and "\" masks. A table
    /// hands out its own; on demand they are made once into `made` and handed out from there while it keeps
    /// them ([`Made`]); an outline has none.
    #[inline(always)]
    pub(crate) fn group<'a>(&'a self, row_set: u32, col_set: u32, made: &'a mut Made) -> &'a [u64] {
        if self.store == Store::OnDemand {
            return self.made_group(row_set, col_set, made);
        }
        let g = self.index(row_set, col_set);
        self.packed
            .get(self.offsets[g] as usize..self.offsets[g + 1] as usize)
            .unwrap_or_default()
    }

    /// [`Quadrants::group`] on demand: kept in `made`, or made there. Not inlined, so that a
    /// table's reads stay a few instructions in the joins (inlined, this path grows the hot
    /// loop of a count with a table, which never takes it).
    #[inline(never)]
    fn made_group<'a>(&self, row_set: u32, col_set: u32, made: &'a mut Made) -> &'a [u64] {
        made.group(row_set, col_set, |out| {
            place(self.n, self.rows, row_set, col_set, out)
        })
    }

    /// The placements of the group of `row_set` (which holds the rectangle's last row) and
    /// `col_set` whose queen in the last row stands left of column `t`. A table's groups are in
    /// order of that column, counted by it ([`Quadrants::ending`]): a run of one, found at once;
    /// on demand they are made in `out`, from the groups without that row (kept in `made`) and
    /// that queen.
    pub(crate) fn group_left_of<'a>(
        &'a self,
        row_set: u32,
        col_set: u32,
        t: u32,
        made: &'a mut Made,
        out: &'a mut Vec<u64>,
    ) -> &'a [u64] {
        if self.store == Store::Table && !self.ending.is_empty() {
            let group = self.group(row_set, col_set, made);
            return match t.checked_sub(1) {
                None => &[],
                Some(c) if c >= self.cols => group,
                // Placements with that queen in columns 0..=c.
                Some(c) => {
                    let upper = self.index(row_set, col_set) - (self.offsets.len() - 1) / 2;
                    &group[..usize::from(self.ending[upper * self.cols as usize + c as usize])]
                }
            };
        }
        let row = self.rows - 1;
        out.clear();
        let mut cols = col_set & ((1u32 << t.min(31)) - 1);
        while cols != 0 {
            let c = cols.trailing_zeros();
            cols &= cols - 1;
            let queen = packed_queen(self.n, self.rows, row, c);
            let rest = self.group(row_set & !(1 << row), col_set & !(1 << c), made);
            out.extend(rest.iter().filter(|&&p| p & queen == 0).map(|&p| p | queen));
        }
        out
    }

    /// The number of the group of `row_set` and `col_set`: `row_set << h | col_set`.
    #[inline(always)]
    fn index(&self, row_set: u32, col_set: u32) -> usize {
        ((row_set as usize) << self.cols) | col_set as usize
    }

    /// How many placements the group of `row_set` and `col_set` holds (a table or an outline).
    #[inline]
    pub(crate) fn group_len(&self, row_set: u32, col_set: u32) -> usize {
        let g = self.index(row_set, col_set);
        (self.offsets[g + 1] - self.offsets[g]) as usize
    }

    /// The "/" and "\" masks of a packed placement.
    #[inline(always)]
    pub(crate) fn unpack(&self, packed: u64) -> Diagonals {
        let (d1_bits, rows) = self.packing();
        (packed & d1_bits, (packed >> 32) << rows)
    }

    /// How placements are packed: the bits of the "/" mask, and the shift (the rectangle's rows)
    /// of the "\\" mask in the high half ([`Quadrants::unpack`]).
    pub(crate) fn packing(&self) -> (u64, u32) {
        (self.d1_bits, self.rows)
    }
}

/// The groups made on demand for one east row set, kept while it is counted: its units' west
/// halves read the same groups again (the units of a row set share their north or their south
/// rows), and its east halves some of them: most of the placements made on demand are of a
/// group made before for the same row set. Cleared for each
/// row set ([`Made::clear`]), so that a count and an estimate's draw (one row set) see the same
/// hits; it keeps at most its capacity in placements, and makes the rest in a buffer of its own
/// each time they are asked for.
#[derive(Debug, Default)]
pub(crate) struct Made {
    /// Where each kept group is in `kept`: `(row_set << 32 | col_set)` ↦ its start and end.
    /// Hashed by FNV (the crate the shard digests use): the keys are the program's own, and the
    /// standard library's SipHash, made to resist chosen keys, took a visible share of a count
    /// made on demand.
    at: fnv::FnvHashMap<u64, (usize, usize)>,
    /// The kept groups' placements, group after group.
    kept: Vec<u64>,
    /// Placements `kept` may hold.
    capacity: usize,
    /// The group last made, before it is kept (and handed out from here when there is no room).
    spare: Vec<u64>,
}

impl Made {
    /// Forgets every group, and keeps at most `capacity` placements from now on.
    pub(crate) fn clear(&mut self, capacity: usize) {
        self.at.clear();
        self.kept.clear();
        self.kept.shrink_to(capacity);
        self.capacity = capacity;
    }

    /// The group of `row_set` and `col_set`: as kept, or made by `make` (which appends it to the
    /// vector it is given) and kept when there is room. The kept vector grows by doubling, but
    /// never past the capacity, so the memory it holds stays within it; a growth the allocator
    /// refuses leaves the group unkept.
    #[inline]
    fn group(&mut self, row_set: u32, col_set: u32, make: impl FnOnce(&mut Vec<u64>)) -> &[u64] {
        let key = u64::from(row_set) << 32 | u64::from(col_set);
        if let Some(&(start, end)) = self.at.get(&key) {
            return &self.kept[start..end];
        }
        self.spare.clear();
        make(&mut self.spare);
        let (start, end) = (self.kept.len(), self.kept.len() + self.spare.len());
        if end > self.capacity {
            return &self.spare;
        }
        if end > self.kept.capacity() {
            let grown = (2 * self.kept.capacity()).clamp(end, self.capacity);
            if crate::system::memory::fallibly(|| self.kept.try_reserve_exact(grown - start))
                .is_err()
            {
                return &self.spare;
            }
        }
        self.kept.extend_from_slice(&self.spare);
        self.at.insert(key, (start, end));
        &self.kept[start..]
    }
}

/// Appends every placement of one queen on each row of `row_set` (rows of the `rows`×h rectangle
/// of an `n`-board), using exactly the columns `col_set`, with no two on a diagonal, packed.
///
/// Rows are taken from the top; `left` and `right` are the columns the diagonals of the queens
/// above attack on the current row ("/" moves one column left per row down, "\" one right):
///
/// ```text
///   row r:      . Q . .        left  = Q's column - (r' - r)
///   row r':     ? . ? .        right = Q's column + (r' - r)
/// ```
fn place(n: u32, rows: u32, row_set: u32, col_set: u32, out: &mut Vec<u64>) {
    #[allow(clippy::too_many_arguments)]
    fn go(
        n: u32,
        rows: u32,
        todo: u32,
        r: u32,
        free: u32,
        left: u64,
        right: u64,
        d: u64,
        out: &mut Vec<u64>,
    ) {
        if todo == 0 {
            out.push(d);
            return;
        }
        let next = todo.trailing_zeros();
        let gap = next - r;
        let (left, right) = (left >> gap, right << gap);
        let mut open = free & !(left | right) as u32;
        while open != 0 {
            let bit = open & open.wrapping_neg();
            open ^= bit;
            let c = bit.trailing_zeros();
            let here = packed_queen(n, rows, next, c);
            let b = u64::from(bit);
            go(
                n,
                rows,
                todo & (todo - 1),
                next,
                free ^ bit,
                left | b,
                right | b,
                d | here,
                out,
            );
        }
    }
    if row_set.count_ones() == col_set.count_ones() {
        go(n, rows, row_set, 0, col_set, 0, 0, 0, out);
    }
}

/// `len` zeros that threads may add to at once, or the error of allocating them.
fn atomic_zeros(len: usize) -> Result<Vec<AtomicU32>, TryReserveError> {
    let mut v = Vec::new();
    crate::system::memory::fallibly(|| v.try_reserve_exact(len))?;
    v.resize_with(len, || AtomicU32::new(0));
    Ok(v)
}

/// The placements' slots, written from several threads at indices that no two writers share.
struct Slots(*mut u64);

// SAFETY: the pointer is only written through [`Slots::write`], whose callers guarantee that no
// index is written twice and that the vector outlives the writes.
unsafe impl Sync for Slots {}

impl Slots {
    /// Reads slot `i`.
    ///
    /// # Safety
    /// `i` is below the length of the vector, and no thread writes slot `i` any more.
    unsafe fn read(&self, i: usize) -> u64 {
        // SAFETY: as the caller guarantees.
        unsafe { *self.0.add(i) }
    }

    /// Writes slot `i`.
    ///
    /// # Safety
    /// `i` is below the length of the vector, no other thread touches slot `i`, and the vector is
    /// neither moved nor read until every write has ended.
    unsafe fn write(&self, i: usize, value: u64) {
        // SAFETY: as the caller guarantees.
        unsafe { *self.0.add(i) = value }
    }
}

/// The rows enumerated one after another before the walk goes parallel: up to (h + 1)^3 branches,
/// enough to keep every core busy.
const SERIAL_ROWS: u32 = 3;

/// Calls `visit(group)` for every non-attacking placement in the `rows`×`cols` rectangle at the
/// top left of a board, the empty one included, from the threads of the current rayon pool: the
/// first [`SERIAL_ROWS`] rows are enumerated here, the rest of each branch in parallel. (It
/// counts the groups, [`Quadrants::outline`]; the table is filled from them.) Only the
/// rectangle's queens attack its squares, so the board's size does not enter: a row's free
/// columns are those no queen above holds or attacks along a diagonal, the diagonals kept as
/// the columns they reach in the current row (shifted a column east and west each row; those
/// that leave the rectangle never come back).
fn walk(rows: u32, cols: u32, visit: &(dyn Fn(usize) + Sync)) {
    /// Row set, column set, and the columns of the current row attacked along the diagonals
    /// running east and west.
    type State = (u32, u32, u32, u32);
    fn go(r: u32, stop: u32, cols: u32, state: State, out: &mut dyn FnMut(u32, State)) {
        if r == stop {
            out(r, state);
            return;
        }
        let (row_set, col_set, east, west) = state;
        let within = (1u32 << cols) - 1;
        go(
            r + 1,
            stop,
            cols,
            (row_set, col_set, east << 1 & within, west >> 1),
            out,
        );
        let mut free = !(col_set | east | west) & within;
        while free != 0 {
            let queen = free & free.wrapping_neg();
            free ^= queen;
            let next = (
                row_set | 1 << r,
                col_set | queen,
                (east | queen) << 1 & within,
                (west | queen) >> 1,
            );
            go(r + 1, stop, cols, next, out);
        }
    }
    let leaf =
        |(row_set, col_set, _, _): State| visit(((row_set as usize) << cols) | col_set as usize);
    let mut branches = Vec::new();
    go(0, SERIAL_ROWS.min(rows), cols, (0, 0, 0, 0), &mut |r, s| {
        branches.push((r, s))
    });
    branches.par_iter().for_each(|&(r, state)| {
        go(r, rows, cols, state, &mut |_, s| leaf(s));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Quadrants {
        /// Placements stored.
        pub(crate) fn len(&self) -> usize {
            self.packed.len()
        }

        /// True when the table holds nothing (never: the empty placement is always there).
        pub(crate) fn is_empty(&self) -> bool {
            self.packed.is_empty()
        }

        /// Bytes held by the table.
        pub(crate) fn bytes(&self) -> usize {
            self.packed.len() * 8 + self.offsets.len() * 4 + self.ending.len() * 2
        }
    }

    #[test]
    fn a_two_by_two_corner_of_a_four_board() {
        // Rows 0..2, columns 0..2: the empty set, 4 single queens, and no two queens (the only
        // row- and column-disjoint pairs share a diagonal).
        let q = Quadrants::build(4).unwrap();
        assert_eq!(q.len(), 5);
        let mut made = Made::default();
        let group = q.group(0b01, 0b10, &mut made);
        assert_eq!(group.len(), 1);
        assert_eq!(q.unpack(group[0]), (1 << 1, 1 << 2));
        assert!(q.group(0b11, 0b11, &mut made).is_empty());
        assert_eq!(Quadrants::size(4).0, 5);
        assert_eq!(walked(4), 5);
    }

    /// Groups made on demand are the table's, whether kept or not: each is asked for twice, with
    /// room to keep none, some (the first groups, until the room runs out, then handed out from the
    /// spare buffer) or all.
    #[test]
    fn groups_made_on_demand_are_the_table_groups() {
        for (n, capacity) in [(6, 0), (9, 300), (12, 2_000), (12, usize::MAX)] {
            let (table, made) = (Quadrants::build(n).unwrap(), Quadrants::on_demand(n));
            let (rows, cols) = (table.rows, table.cols);
            let (mut kept, mut unused) = (Made::default(), Made::default());
            kept.clear(capacity);
            for g in 0..1u32 << (rows + cols) {
                let (row_set, col_set) = (g >> cols, g & ((1 << cols) - 1));
                let group = table.group(row_set, col_set, &mut unused);
                let mut a: Vec<_> = group.iter().map(|&p| table.unpack(p)).collect();
                a.sort_unstable();
                for _ in 0..2 {
                    let mut b: Vec<_> = (made.group(row_set, col_set, &mut kept).iter())
                        .map(|&p| made.unpack(p))
                        .collect();
                    b.sort_unstable();
                    assert_eq!(a, b, "n = {n}, rows {row_set:b}, columns {col_set:b}");
                }
                assert!(kept.kept.len() <= capacity);
                assert!(capacity == usize::MAX || kept.kept.capacity() <= capacity);
                // An odd board's table groups on the last row are in order of its queen's
                // column there.
                let sorted = group.is_sorted_by_key(|&p| last_column(p));
                assert!(sorted || n % 2 == 0, "n = {n}, rows {row_set:b}");
            }
        }
    }

    #[test]
    fn odd_boards_have_one_row_more_than_columns() {
        let q = Quadrants::build(7).unwrap();
        let outline = Quadrants::outline(7).unwrap();
        assert_eq!(
            outline.group_len(0b11, 0b101),
            q.group(0b11, 0b101, &mut Made::default()).len()
        );
        assert!(outline.is_empty());
        assert_eq!(q.rows(), 4);
        assert_eq!(q.group(0, 0, &mut Made::default()), &[0u64][..]);
        assert_eq!(Quadrants::size(7).0, q.len() as u64);
    }

    fn walked(n: u32) -> u64 {
        let cols = n / 2;
        let entries = std::sync::atomic::AtomicU64::new(0);
        walk(n - cols, cols, &|_| {
            entries.fetch_add(1, Ordering::Relaxed);
        });
        entries.into_inner()
    }

    /// The parallel build writes the same table, placement for placement and count for count,
    /// as a build on one thread: each row set's groups come in one order, whatever the threads.
    #[test]
    fn any_number_of_threads_builds_the_same_table() {
        let on = |threads: usize, n: u32| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| Quadrants::build(n).unwrap())
        };
        for n in [5, 10, 13, 14] {
            let (one, four) = (on(1, n), on(4, n));
            assert_eq!(one.offsets, four.offsets, "n = {n}");
            assert!(one.packed == four.packed, "n = {n}");
            assert_eq!(one.ending, four.ending, "n = {n}");
            assert_eq!(one.ending.is_empty(), n % 2 == 0, "n = {n}");
        }
    }

    #[test]
    fn the_table_of_sizes_is_what_the_walk_counts() {
        for n in 1..=20 {
            assert_eq!(ENTRIES[n as usize], walked(n), "n = {n}");
        }
    }

    #[test]
    #[ignore = "walks 900 million placements: about 20 s"]
    fn the_table_of_sizes_is_what_the_walk_counts_up_to_24() {
        for n in 21..=super::super::MAX_TABLE_N {
            assert_eq!(ENTRIES[n as usize], walked(n), "n = {n}");
        }
    }
}
