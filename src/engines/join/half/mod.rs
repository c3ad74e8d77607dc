//! Half placements: the east half of the board on a given row set, joined from two quadrants.
//!
//! An east half on rows S (h queens in columns `0..h`, one per row of S) is a north placement on
//! the rows of S above R with some column set C, joined with a south placement on the rows of S
//! from R down with the other east columns, when no diagonal is used by both.
//!
//! The west half needs no table of its own: reflecting the board east-west (c ↦ n-1-c) turns a west
//! half on rows T into an east half on rows T and swaps its diagonal directions, since
//! r + (n-1-c) = r - c + n - 1. So a west half is an east half read with its masks swapped.
//!
//! Only the diagonals that both halves can reach matter for the join, the window
//! `n-h .. n+h-1` of each direction (2h - 1 bits); a half is kept as one *key*: its "/" window
//! in the low bits and its "\" window above it (east view), or the other way round (west view),
//! so that an east and a west half fit together exactly when their keys share no bit.

#[cfg(test)]
pub(crate) mod tests;

use std::mem::MaybeUninit;

use super::pairs;
use super::quadrant::{Diagonals, Made, Quadrants};
use super::subsets::next_subset;
use crate::system::isa::{self, Isa};
isa::paths!();
#[cfg(target_arch = "x86_64")]
mod vector;

/// Which side of the board a half's key is read for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// Columns `0..h`: "/" window low, "\" window high.
    East,
    /// Columns `n-h..n`, given by its east mirror image: "\" window low, "/" window high.
    West,
}

/// How a list's keys are read: the board's window of diagonals, for one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct View {
    pub(super) window: Window,
    pub(super) side: Side,
}

/// How the diagonal masks of an `n`-board become keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    /// First diagonal both halves can reach (n - h).
    start: u32,
    /// Diagonals in the window, per direction (2h - 1).
    width: u32,
    /// Whether the board is odd: its east keys have two bits beyond the windows
    /// ([`Window::middle`]).
    odd: bool,
}

impl Window {
    /// The window of an `n`-board.
    pub(crate) fn new(n: u32) -> Window {
        let h = n / 2;
        Window {
            start: n - h,
            width: (2 * h).saturating_sub(1),
            odd: n % 2 == 1,
        }
    }

    /// Bits in a key: two windows, and on odd boards the two bits of [`Window::middle`].
    pub(crate) fn key_bits(&self) -> u32 {
        2 * self.width + if self.odd { 2 } else { 0 }
    }

    /// The key bits of the middle queen of an odd board in row `m`, for a west key: its two
    /// diagonals (both numbered m + h) where they are in the window. For m = 0 and m = n - 1
    /// only the east half reaches its diagonals ("/" h, "\" 3h, just outside the windows): an
    /// east key has a bit of its own for each that it uses, and this is that bit.
    pub(crate) fn middle(&self, m: u32) -> u64 {
        let d = m + self.width.div_ceil(2);
        match d {
            _ if d + 1 == self.start => 1 << (2 * self.width),
            _ if d == self.start + self.width => 1 << (2 * self.width + 1),
            _ => 1 << (d - self.start) | 1 << (d - self.start + self.width),
        }
    }

    /// The key of a part of a half (its north or south part, in the east view) by which the
    /// two parts are joined: its key ([`Window::key`]) and, for a west half of an odd board,
    /// whether it uses "\" diagonal 3h. Two parts share a diagonal exactly when their part keys
    /// share a bit: the "/" diagonals below the window are the north part's alone, and the "\"
    /// ones above it the south part's alone, but for 3h on odd boards (row h, the north part's
    /// last, reaches it in column 0), which an east key holds anyway.
    #[inline(always)]
    pub(super) fn part_key(&self, side: Side, d1: u64, d2: u64) -> u64 {
        let low = |d: u64| (d >> self.start) & ((1u64 << self.width) - 1);
        let windows = match side {
            Side::East => low(d1) | low(d2) << self.width,
            Side::West => low(d2) | low(d1) << self.width,
        };
        if !self.odd {
            return windows;
        }
        let (first, last) = (self.start - 1, self.start + self.width);
        let beyond = windows | (d2 >> last & 1) << (2 * self.width + 1);
        match side {
            Side::East => beyond | (d1 >> first & 1) << (2 * self.width),
            Side::West => beyond,
        }
    }

    /// The bits of a part key ([`Window::part_key`]) that a half's key keeps for `side`: all of
    /// them for an east half, the windows for a west one (its diagonals beyond them are no east
    /// half's).
    #[inline(always)]
    pub(super) fn shown(&self, side: Side) -> u64 {
        match side {
            Side::West if self.odd => (1 << (2 * self.width)) - 1,
            _ => u64::MAX,
        }
    }
}

/// A thread's buffers for the quadrant joins: the groups made on demand (`quadrant::Made`), the
/// groups cut at a column of the rectangle's last row, and the parts of the column set being
/// joined.
#[derive(Debug, Default)]
pub(crate) struct Buffers {
    /// Groups made on demand, kept for the row set being counted ([`Buffers::new_row_set`]).
    made: Made,
    /// North placements left of a column made on demand ([`Halves::left_of`]).
    top: Vec<u64>,
    /// The south placements of one column set that avoid `forbid`, moved down.
    south_ok: South,
    /// The part keys of the north placements that avoid `forbid`.
    north_ok: Vec<u64>,
}

impl Buffers {
    /// Starts a new row set: the groups kept for the last one are forgotten, and at most
    /// `capacity` placements of this one's are kept (`quadrant::Made`).
    pub(crate) fn new_row_set(&mut self, capacity: usize) {
        self.made.clear(capacity);
    }
}

/// The part keys ([`Window::part_key`]) of the south placements of a join, the first `len` slots
/// of `keys`, followed by zeros up to a whole number of [`LANES`] (read, never counted, by the
/// AVX2 join); the list grows and never shrinks: what lies beyond is not theirs. And the bits of
/// a part key that the halves' keys keep ([`Window::shown`]).
#[derive(Debug, Default)]
struct South {
    keys: Vec<u64>,
    len: usize,
    shown: u64,
}

/// Writes the part key ([`Window::part_key`] for `side`) of each of `placements`, its masks
/// moved down by `shift` rows, to `out`, keeping those that avoid the "/" diagonals `forbid.0`
/// and the "\\" diagonals `forbid.1` (an odd board's middle queen forbids the same numbers both
/// ways, the queens an even board's start places others: `turn.rs`), in order ([`keep_each`];
/// four at a time with AVX2, eight with AVX-512);
/// returns how many it kept. `out` holds a slot for each and [`SPARE`] more. An empty group
/// (a north group with no queen left of a unit's level column) returns at once.
#[inline(always)]
fn keep_part(
    isa: Isa,
    q: &Quadrants,
    placements: &[u64],
    shift: u32,
    forbid: Diagonals,
    view: View,
    out: &mut [u64],
) -> usize {
    if placements.is_empty() {
        return 0;
    }
    isa::dispatch!(isa, keep_part(q, placements, shift, forbid, view, out))
}

impl South {
    /// The south `placements` of a quadrant join, moved down below the `r` north rows, that avoid
    /// `forbid`, with their keys read for `view` ([`keep_part`]).
    #[inline(always)]
    fn fill(
        &mut self,
        isa: Isa,
        q: &Quadrants,
        placements: &[u64],
        r: u32,
        forbid: Diagonals,
        view: View,
    ) {
        let keys = pairs::slots(&mut self.keys, placements.len() + SPARE);
        let len = keep_part(isa, q, placements, r, forbid, view, keys);
        // Zeros up to a whole number of LANES: LANES of them, a length known when compiled, so
        // no `memset` call of a variable length (a visible share of a profile, this its caller).
        keys[len..len + LANES].fill(0);
        self.len = len;
        self.shown = view.window.shown(view.side);
    }
}

/// South placements the AVX2 join takes at once (NEON's, two, divides it): a south list is padded
/// with zeros to a whole number of them (the room it may write past the last kept is [`SPARE`]).
const LANES: usize = 4;

/// Slots a candidates or keeping loop may write past the last item it keeps: the AVX2 loops
/// store whole vectors of [`LANES`], the AVX-512 ones of eight.
pub(super) const SPARE: usize = 8;

/// The east halves on one row set, made a column set of their north part at a time, so that a
/// list too long for memory is made and counted in pieces.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Halves {
    rows: u32,
    /// The columns the halves' queens stand in: `k` of them in the north rows, the rest south.
    columns: u32,
    forbid: Diagonals,
    side: Side,
    /// The column of the queen in the north rectangle's last row that the halves' queen there
    /// stands left of ([`Halves::left_of`]), if any.
    before: Option<u32>,
    /// North queens (and columns they use).
    k: u32,
    /// The next north column set to join, or none when every one has been.
    next: Option<u64>,
}

impl Halves {
    /// The halves on the rows `rows` (bit r: board row r) of a board with `h` east columns and a
    /// north rectangle of `r` rows that use none of the diagonals in `forbid` (same bit in
    /// either direction), read for `side`.
    pub(crate) fn new(r: u32, h: u32, rows: u32, forbid: u64, side: Side) -> Halves {
        Halves::on(r, rows, (1 << h) - 1, (forbid, forbid), side)
    }

    /// The placements of one queen in each of the rows `rows` and in each of the columns
    /// `columns` (as many, east view) of a board with a north rectangle of `r` rows, that use
    /// none of the "/" diagonals `forbid.0` nor the "\" diagonals `forbid.1`, read for `side`:
    /// the rest of a half some of whose queens are placed already (`turn.rs`).
    pub(crate) fn on(r: u32, rows: u32, columns: u32, forbid: Diagonals, side: Side) -> Halves {
        let north = rows & ((1 << r) - 1);
        let k = north.count_ones();
        let possible = k <= columns.count_ones() && rows.count_ones() == columns.count_ones();
        Halves {
            rows,
            columns,
            forbid,
            side,
            before: None,
            k,
            next: possible.then_some((1u64 << k) - 1),
        }
    }

    /// Those of these halves whose queen in the last row of the north rectangle (row n - h - 1,
    /// the middle row of an odd board; columns of the east view) stands left of column `t`; all
    /// of them when `t` is none or the rows do not hold that row.
    pub(crate) fn left_of(self, t: Option<u32>) -> Halves {
        Halves { before: t, ..self }
    }

    /// Appends the keys of the halves still to come to `out` until it holds at least `limit` keys
    /// or none is left; returns whether some are left. It stops only between column sets, so
    /// `out` may pass `limit` by one column set's halves.
    ///
    /// The instructions the joins run with are chosen once here, so that their loops are
    /// compiled into one function with them, their set-up out of the loop over column sets.
    pub(crate) fn fill(
        &mut self,
        q: &Quadrants,
        window: Window,
        out: &mut Vec<u64>,
        limit: usize,
        buffers: &mut Buffers,
    ) -> bool {
        isa::dispatch!(Isa::this_cpu(), fill(self, q, window, out, limit, buffers))
    }

    /// [`Halves::fill`] with the instructions `isa`: inlined into each path's `fill`, which
    /// compiles it with the path's instructions.
    #[inline(always)]
    fn fill_with(
        &mut self,
        isa: Isa,
        q: &Quadrants,
        window: Window,
        out: &mut Vec<u64>,
        limit: usize,
        buffers: &mut Buffers,
    ) -> bool {
        let (columns, width) = (self.columns, self.columns.count_ones());
        // Every column (all but an even board's starts): the chosen set is the column set.
        let every = columns & columns.wrapping_add(1) == 0;
        while let Some(chosen) = self.next {
            self.next = next_subset(chosen, self.k, width);
            let cols = if every {
                chosen as u32
            } else {
                deposit(chosen as u32, columns)
            };
            join(isa, q, window, self, cols, out, buffers);
            if out.len() >= limit {
                break;
            }
        }
        self.next.is_some()
    }
}

/// The bits of `mask` picked by `chosen`: bit i of `chosen` for the i-th lowest bit of `mask`
/// (`pdep`; one loop per quadrant join of an even board's start, never the costly part).
fn deposit(mut chosen: u32, mask: u32) -> u32 {
    let (mut rest, mut out) = (mask, 0);
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        out |= low & (chosen & 1).wrapping_neg();
        chosen >>= 1;
        rest ^= low;
    }
    out
}

/// The quadrant join of one north column set `cols`: every north placement on the north rows of
/// `halves` with the columns `cols` and every south one with the other columns, when no
/// diagonal is used by both, to `out`.
#[inline(always)]
fn join(
    isa: Isa,
    q: &Quadrants,
    window: Window,
    halves: &Halves,
    cols: u32,
    out: &mut Vec<u64>,
    buffers: &mut Buffers,
) {
    if let Some((north, south)) = groups(isa, q, window, halves, cols, buffers) {
        write(&north, south, out, |n, s, k| candidates(isa, n, s, k));
    }
}

/// The north placements of the quadrant join of column set `cols` (left of the column of
/// [`Halves::left_of`]) and the south ones (moved down and padded) that avoid `forbid`; none
/// when either side is empty.
#[inline(always)]
fn groups<'a>(
    isa: Isa,
    q: &'a Quadrants,
    window: Window,
    halves: &Halves,
    cols: u32,
    buffers: &'a mut Buffers,
) -> Option<(North<'a>, &'a South)> {
    let r = q.rows();
    let (north, south) = (halves.rows & ((1 << r) - 1), halves.rows >> r);
    let (forbid, side) = (halves.forbid, halves.side);
    let Buffers {
        made,
        top,
        south_ok,
        north_ok,
    } = buffers;
    let group = match halves.before {
        Some(t) if north & 1 << (r - 1) != 0 => q.group_left_of(north, cols, t, made, top),
        _ => q.group(north, cols, made),
    };
    let north = North::avoiding(isa, q, window, side, forbid, group, north_ok);
    if north.keys.is_empty() {
        return None;
    }
    let placements = q.group(south, halves.columns ^ cols, made);
    south_ok.fill(isa, q, placements, r, forbid, View { window, side });
    if south_ok.len == 0 {
        return None;
    }
    Some((north, south_ok))
}

/// Appends the candidates that fit to `out` with `candidates`, which has room for all of them
/// and [`SPARE`] slots more, not zeroed first.
#[inline(always)]
fn write(
    north: &North,
    south: &South,
    out: &mut Vec<u64>,
    candidates: impl Fn(&North, &South, &mut [Slot]) -> usize,
) {
    let room = north.keys.len() * south.len + SPARE;
    out.reserve(room);
    let len = candidates(north, south, &mut out.spare_capacity_mut()[..room]);
    // SAFETY: `candidates` wrote the first `len` slots past the list's end.
    unsafe { out.set_len(out.len() + len) };
}

/// A slot of a list not yet written.
type Slot = MaybeUninit<u64>;

/// The north placements of one quadrant join that avoid the forbidden diagonals: the part key
/// ([`Window::part_key`]) of each.
struct North<'a> {
    keys: &'a [u64],
}

impl<'a> North<'a> {
    /// The placements of `group` that avoid `forbid`, unpacked to `out` with their keys read
    /// for `side` ([`keep_part`]), so that a join none of whose north placements fits is
    /// known before its south group is read (3.3 million of n = 19's 25.9 million joins with
    /// north placements).
    #[inline(always)]
    fn avoiding(
        isa: Isa,
        q: &Quadrants,
        window: Window,
        side: Side,
        forbid: Diagonals,
        group: &[u64],
        out: &'a mut Vec<u64>,
    ) -> North<'a> {
        let room = pairs::slots(out, group.len() + SPARE);
        let len = keep_part(isa, q, group, 0, forbid, View { window, side }, room);
        North { keys: &room[..len] }
    }

    /// Calls `row(key, len)` for every placement, with its part key and the candidates kept so
    /// far, which it returns with its own added.
    #[inline(always)]
    fn each(&self, mut row: impl FnMut(u64, usize) -> usize) -> usize {
        let mut len = 0;
        for &key in self.keys {
            len = row(key, len);
        }
        len
    }
}

/// Writes every north × south candidate's key (the union of their part keys, the bits shown)
/// to `keys`, moving past those whose parts share no diagonal (no bit of their part keys); returns
/// how many it kept (north by north, south by south, but with AVX-512: each placement of the
/// shorter side against the longer). The slice holds every candidate and [`SPARE`] slots more.
#[inline(always)]
fn candidates(isa: Isa, north: &North, south: &South, keys: &mut [Slot]) -> usize {
    isa::dispatch!(isa, candidates(north, south, keys))
}

/// The `keys` with no bit of `forbid`, in order, in the first slots of `out`: an east list kept
/// for one middle queen, whose diagonals an east key holds as the bits [`Window::middle`] gives
/// (in its windows, or the two bits beyond them): [`keep_each`], four at a time with AVX2 (eight
/// with AVX-512), as the parts of a join are kept.
pub(super) fn keep_clear<'a>(keys: &[u64], forbid: u64, out: &'a mut Vec<u64>) -> &'a [u64] {
    // What `out` held is overwritten, not zeroed first: every slot below the final cursor is
    // written, those above it are not part of the answer.
    let room = pairs::slots(out, keys.len() + SPARE);
    let len = keep_clear_into(keys, (forbid, 0), room);
    &room[..len]
}

/// The `keys` with no bit of `clear.0`, in order, each with the bits `clear.1` cleared, in the
/// first slots of `out`, which holds `keys.len()` and [`SPARE`] more; returns how many
/// ([`keep_clear`]).
pub(super) fn keep_clear_into(keys: &[u64], clear: (u64, u64), out: &mut [u64]) -> usize {
    isa::dispatch!(Isa::this_cpu(), keep_clear(keys, clear, out))
}
