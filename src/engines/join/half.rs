//! Half placements: the east half of the board on a given row set, joined from two quarters.
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

use std::mem::MaybeUninit;

use super::pairs;
use super::quarter::{Diagonals, Made, Quarters};
use super::subsets::next_subset;

/// Which side of the board a half's key is read for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// Columns `0..h`: "/" window low, "\" window high.
    East,
    /// Columns `n-h..n`, given by its east mirror image: "\" window low, "/" window high.
    West,
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

    /// The key of a half with diagonal masks `d1` ("/") and `d2` ("\") read for `side`: on odd
    /// boards an east key also says whether it uses "/" diagonal h and "\" diagonal 3h
    /// ([`Window::middle`]; no east half reaches the other diagonals of those numbers).
    #[inline(always)]
    #[cfg(test)]
    pub(crate) fn key(&self, side: Side, d1: u64, d2: u64) -> u64 {
        self.part_key(side, d1, d2) & self.shown(side)
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

/// A thread's buffers for the quarter joins: the groups made on demand (`quarter::Made`), the
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
    /// `capacity` placements of this one's are kept (`quarter::Made`).
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

/// Writes the value `keep` gives each of `items` to `out` at the cursor, and moves the cursor
/// past those it keeps, so that the loop has no branch to mispredict; returns how many it kept,
/// in the first slots. `out` holds a slot for each. (`avx2::keep_each` four at a time,
/// `avx512::keep_each` eight.)
#[inline(always)]
fn keep_each(items: &[u64], out: &mut [u64], keep: impl Fn(u64) -> (u64, bool)) -> usize {
    let mut len = 0;
    for &item in items {
        let (value, kept) = keep(item);
        out[len] = value;
        len += usize::from(kept);
    }
    len
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
    q: &Quarters,
    (placements, shift): (&[u64], u32),
    forbid: Diagonals,
    (window, side): (Window, Side),
    out: &mut [u64],
) -> usize {
    if placements.is_empty() {
        return 0;
    }
    match isa {
        // SAFETY: `Isa::Avx512` is chosen only where the CPU has AVX-512 F and popcnt.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe {
            avx512::keep_part(q, placements, shift, forbid, (window, side), out)
        },
        // SAFETY: `Isa::Avx2` is chosen only where the CPU has AVX2 and popcnt.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::keep_part(q, placements, shift, forbid, (window, side), out) },
        _ => keep_each(placements, out, |p| {
            let (d1, d2) = q.unpack(p);
            let (d1, d2) = (d1 << shift, d2 << shift);
            (
                window.part_key(side, d1, d2),
                d1 & forbid.0 | d2 & forbid.1 == 0,
            )
        }),
    }
}

impl South {
    /// The south `placements` of a quarter join, moved down below the `r` north rows, that avoid
    /// `forbid`, with their keys read for `side` ([`keep_part`]).
    #[inline(always)]
    fn fill(
        &mut self,
        isa: Isa,
        q: &Quarters,
        placements: &[u64],
        r: u32,
        forbid: Diagonals,
        (window, side): (Window, Side),
    ) {
        let keys = pairs::slots(&mut self.keys, placements.len() + SPARE);
        let len = keep_part(isa, q, (placements, r), forbid, (window, side), keys);
        // Zeros up to a whole number of LANES: LANES of them, a length known when compiled (the
        // `memset` calls of a variable length were 1.7% of n = 19's profile; at n = 17 callgrind
        // finds this padding their one caller of note).
        keys[len..len + LANES].fill(0);
        self.len = len;
        self.shown = window.shown(side);
    }

    /// The lists' length with their padding: a whole number of [`LANES`].
    fn padded(&self) -> usize {
        self.len.next_multiple_of(LANES)
    }
}

/// The instructions the quarter joins and the keeping loops run with: chosen once per fill of
/// halves ([`Halves::fill`]), or per list kept ([`keep_clear`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Isa {
    /// Neither: the plain loops.
    Plain,
    /// AVX2 and popcnt.
    Avx2,
    /// AVX-512 F, AVX2 and popcnt.
    Avx512,
}

impl Isa {
    /// The fastest this CPU has.
    fn of_this_cpu() -> Isa {
        #[cfg(target_arch = "x86_64")]
        {
            if pairs::has_avx512() {
                return Isa::Avx512;
            }
            if pairs::has_avx2() {
                return Isa::Avx2;
            }
        }
        Isa::Plain
    }
}

/// South placements the AVX2 join takes at once: a south list is padded with zeros to a whole
/// number of them (the room it may write past the last kept is [`SPARE`]).
const LANES: usize = 4;

/// Slots a candidates or keeping loop may write past the last item it keeps: the AVX2 loops
/// store whole vectors of [`LANES`], the AVX-512 ones of eight.
const SPARE: usize = 8;

/// A method that calls [`Halves::fill_with`] with `$isa`, compiled with the instructions
/// `$features`: one for each instruction set the quarter joins have.
macro_rules! fill_for {
    ($name:ident, $features:literal, $isa:expr) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        fn $name(
            &mut self,
            q: &Quarters,
            window: Window,
            out: &mut Vec<u64>,
            limit: usize,
            buffers: &mut Buffers,
        ) -> bool {
            self.fill_with($isa, q, window, out, limit, buffers)
        }
    };
}

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
        Halves::on(r, (rows, (1 << h) - 1), (forbid, forbid), side)
    }

    /// The placements of one queen in each of the rows `rows` and in each of the columns
    /// `columns` (as many, east view) of a board with a north rectangle of `r` rows, that use
    /// none of the "/" diagonals `forbid.0` nor the "\" diagonals `forbid.1`, read for `side`:
    /// the rest of a half some of whose queens are placed already (`turn.rs`).
    pub(crate) fn on(r: u32, (rows, columns): (u32, u32), forbid: Diagonals, side: Side) -> Halves {
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
        q: &Quarters,
        window: Window,
        out: &mut Vec<u64>,
        limit: usize,
        buffers: &mut Buffers,
    ) -> bool {
        match Isa::of_this_cpu() {
            // SAFETY: the CPU has AVX-512 F, AVX2 and popcnt.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { self.fill_avx512(q, window, out, limit, buffers) },
            // SAFETY: the CPU has AVX2 and popcnt.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { self.fill_avx2(q, window, out, limit, buffers) },
            _ => self.fill_with(Isa::Plain, q, window, out, limit, buffers),
        }
    }

    fill_for!(fill_avx512, "avx512f,avx2,popcnt", Isa::Avx512);
    fill_for!(fill_avx2, "avx2,popcnt", Isa::Avx2);

    /// [`Halves::fill`] with the instructions `isa` (inlined into each of the above).
    #[inline(always)]
    fn fill_with(
        &mut self,
        isa: Isa,
        q: &Quarters,
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
/// (`pdep`; one loop per quarter join of an even board's start, never the costly part).
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

/// The quarter join of one north column set `cols`: every north placement on the north rows of
/// `halves` with the columns `cols` and every south one with the other columns, when no
/// diagonal is used by both, to `out`.
#[inline(always)]
fn join(
    isa: Isa,
    q: &Quarters,
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

/// The north placements of the quarter join of column set `cols` (left of the column of
/// [`Halves::left_of`]) and the south ones (moved down and padded) that avoid `forbid`; none
/// when either side is empty.
#[inline(always)]
fn groups<'a>(
    isa: Isa,
    q: &'a Quarters,
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
        Some(t) if north & 1 << (r - 1) != 0 => q.group_left_of((north, cols), t, made, top),
        _ => q.group(north, cols, made),
    };
    let north = North::avoiding(isa, q, window, side, forbid, group, north_ok);
    if north.keys.is_empty() {
        return None;
    }
    let placements = q.group(south, halves.columns ^ cols, made);
    south_ok.fill(isa, q, placements, r, forbid, (window, side));
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

/// The north placements of one quarter join that avoid the forbidden diagonals: the part key
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
        q: &Quarters,
        window: Window,
        side: Side,
        forbid: Diagonals,
        group: &[u64],
        out: &'a mut Vec<u64>,
    ) -> North<'a> {
        let room = pairs::slots(out, group.len() + SPARE);
        let len = keep_part(isa, q, (group, 0), forbid, (window, side), room);
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
    match isa {
        // SAFETY: `Isa::Avx512` is chosen only where the CPU has AVX-512 F and popcnt.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::candidates(north, south, keys) },
        // SAFETY: `Isa::Avx2` is chosen only where the CPU has AVX2 and popcnt.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::candidates(north, south, keys) },
        _ => candidates_plain(north, south, keys),
    }
}

/// [`candidates`] one candidate at a time: each written, the cursor moved past it when it fits,
/// so the loop has no branch to mispredict.
#[inline(always)]
fn candidates_plain(north: &North, south: &South, keys: &mut [Slot]) -> usize {
    north.each(|a, mut len| {
        for &b in &south.keys[..south.len] {
            keys[len].write((a | b) & south.shown);
            len += usize::from(a & b == 0);
        }
        len
    })
}

/// [`Window::part_key`] of vectors of masks, as a closure `|d1, d2| key` made of a vector
/// width's `set` (one value in every lane), `count` (a shift count), bitwise `and` and `or`,
/// and shifts of every lane by a count: the AVX2 and AVX-512 `keep_part` write it once.
#[cfg(target_arch = "x86_64")]
macro_rules! lanes_part_key {
    (
        ($window:expr, $side:expr),
        ($set:expr, $count:expr),
        ($and:ident, $or:ident),
        ($srl:ident, $sll:ident)
    ) => {{
        let Window { start, width, odd } = $window;
        let side = $side;
        let (first, last) = ($count(start - 1), $count(start + width));
        let (one, odd1, odd2) = ($set(1), $count(2 * width), $count(2 * width + 1));
        let (low_bits, start, width) = ($set((1u64 << width) - 1), $count(start), $count(width));
        let low = move |d| $and($srl(d, start), low_bits);
        move |a, b| {
            let windows = match side {
                Side::West => $or(low(b), $sll(low(a), width)),
                Side::East => $or(low(a), $sll(low(b), width)),
            };
            if !odd {
                return windows;
            }
            let bit = |d, at| $and($srl(d, at), one);
            let beyond = $or(windows, $sll(bit(b, last), odd2));
            match side {
                Side::West => beyond,
                Side::East => $or(beyond, $sll(bit(a, first), odd1)),
            }
        }
    }};
}

/// [`candidates`] four south placements at a time: the four candidates made side by side, those
/// that fit moved to the front of the vector (a permutation looked up by which fit) and the
/// whole vector stored at the cursor, which moves past those that fit.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{Diagonals, North, Quarters, Side, Slot, South, Window, LANES};

    /// For each set of fitting lanes (bit i: lane i), the 32-bit elements that bring those
    /// 64-bit lanes to the front, in order.
    const FRONT: [[i32; 8]; 16] = {
        let mut table = [[0i32; 8]; 16];
        let mut fits = 0;
        while fits < 16 {
            let (mut lane, mut at) = (0, 0);
            while lane < 4 {
                if fits >> lane & 1 != 0 {
                    table[fits][2 * at] = 2 * lane;
                    table[fits][2 * at + 1] = 2 * lane + 1;
                    at += 1;
                }
                lane += 1;
            }
            fits += 1;
        }
        table
    };

    /// The permutation of [`FRONT`] for the lanes `fits` (bit i: lane i).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn front(fits: u32) -> __m256i {
        // SAFETY: a row of `FRONT` is 32 readable bytes; the loads need no alignment.
        unsafe { _mm256_loadu_si256(FRONT[fits as usize].as_ptr().cast()) }
    }

    /// Stores `v` at `to` with the lanes that `front` ([`front`]) brings to the front first, in
    /// order: all four slots are written, those past the fitting lanes with whatever.
    ///
    /// # Safety
    /// Slots `to..to + LANES` must be writable.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store_front(to: *mut u64, v: __m256i, front: __m256i) {
        // SAFETY: as the caller says; the store needs no alignment.
        unsafe { _mm256_storeu_si256(to.cast(), _mm256_permutevar8x32_epi32(v, front)) }
    }

    /// [`super::keep_each`] four items at a time: `keep` gives, for four items side by side,
    /// the values to store and which to keep (lanes of all ones); the values kept are moved to
    /// the front (as in [`candidates`]) and stored at the cursor, which moves past them. The
    /// last one to three items are loaded alone, masked (what lies beyond is not read).
    /// Returns how many were kept; `out` has room for `items.len()` slots and [`LANES`] more.
    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    fn keep_each(
        items: &[u64],
        out: &mut [u64],
        mut keep: impl FnMut(__m256i) -> (__m256i, __m256i),
    ) -> usize {
        assert!(out.len() >= items.len() + LANES);
        // Four items, of which those in `valid` exist, kept at `len`.
        let mut step = |v: __m256i, valid: u32, len: usize| {
            let (value, kept) = keep(v);
            let fits = _mm256_movemask_pd(_mm256_castsi256_pd(kept)) as u32 & valid;
            // SAFETY: len ≤ the items before these, so slots len..len + LANES lie in `out`.
            unsafe { store_front(out.as_mut_ptr().add(len), value, front(fits)) };
            fits.count_ones() as usize
        };
        let mut chunks = items.chunks_exact(LANES);
        let mut len = 0;
        for chunk in &mut chunks {
            // SAFETY: a chunk is LANES readable slots; the load needs no alignment.
            len += step(
                unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) },
                0b1111,
                len,
            );
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            // The lanes that exist, by their sign bits: the others are not read.
            let index = _mm256_set_epi64x(3, 2, 1, 0);
            let lanes = _mm256_cmpgt_epi64(_mm256_set1_epi64x(rest.len() as i64), index);
            // SAFETY: the lanes loaded exist.
            let v = unsafe { _mm256_maskload_epi64(rest.as_ptr().cast(), lanes) };
            len += step(v, (1 << rest.len()) - 1, len);
        }
        len
    }

    /// [`super::keep_part`] four `placements` at a time ([`keep_each`]): each four unpacked,
    /// moved down `r` rows and keyed side by side.
    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) fn keep_part(
        q: &Quarters,
        placements: &[u64],
        r: u32,
        forbid: Diagonals,
        (window, side): (Window, Side),
        keys: &mut [u64],
    ) -> usize {
        let (d1_bits, rows) = q.packing();
        let set = |x: u64| _mm256_set1_epi64x(x as i64);
        let count = |x: u32| _mm_cvtsi32_si128(x as i32);
        let (d1_bits, zero) = (set(d1_bits), _mm256_setzero_si256());
        let (forbid1, forbid2, same) = (set(forbid.0), set(forbid.1), forbid.0 == forbid.1);
        let (down1, down2) = (count(r), count(rows + r));
        let key = lanes_part_key!(
            (window, side),
            (set, count),
            (_mm256_and_si256, _mm256_or_si256),
            (_mm256_srl_epi64, _mm256_sll_epi64)
        );
        keep_each(placements, keys, |p| {
            let a = _mm256_sll_epi64(_mm256_and_si256(p, d1_bits), down1);
            let b = _mm256_sll_epi64(_mm256_srli_epi64::<32>(p), down2);
            // One mask both ways (all but an even board's starts): one AND fewer.
            let clash = if same {
                _mm256_and_si256(_mm256_or_si256(a, b), forbid1)
            } else {
                _mm256_or_si256(_mm256_and_si256(a, forbid1), _mm256_and_si256(b, forbid2))
            };
            (key(a, b), _mm256_cmpeq_epi64(clash, zero))
        })
    }

    /// [`super::keep_clear`] four `keys` at a time ([`keep_each`]).
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) fn keep_clear(keys: &[u64], forbid: u64, out: &mut [u64]) -> usize {
        let (forbid, zero) = (_mm256_set1_epi64x(forbid as i64), _mm256_setzero_si256());
        keep_each(keys, out, |k| {
            (k, _mm256_cmpeq_epi64(_mm256_and_si256(k, forbid), zero))
        })
    }

    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) fn candidates(north: &North, south: &South, keys: &mut [Slot]) -> usize {
        let n = south.len;
        let (whole, rest) = (n / LANES * LANES, n % LANES);
        let padded = south.padded();
        // SAFETY (the loads): the list holds `padded` slots (`South::fill`); the slice checks.
        let load =
            |i: usize| unsafe { _mm256_loadu_si256(south.keys[i..i + LANES].as_ptr().cast()) };
        let (zero, shown) = (
            _mm256_setzero_si256(),
            _mm256_set1_epi64x(south.shown as i64),
        );
        north.each(|a, mut len| {
            // A row's steps write within `len..len + padded`: each at most LANES slots past the
            // candidates of the row before it.
            assert!(len + padded <= keys.len());
            let a = _mm256_set1_epi64x(a as i64);
            // Candidates i..i + LANES, of which those in `valid` exist: written at `len`.
            let mut step = |i: usize, valid: u32, len: usize| {
                let b = load(i);
                let fit = _mm256_cmpeq_epi64(_mm256_and_si256(a, b), zero);
                let fits = _mm256_movemask_pd(_mm256_castsi256_pd(fit)) as u32 & valid;
                let front = front(fits);
                let key = _mm256_and_si256(_mm256_or_si256(a, b), shown);
                // SAFETY: slots len..len + LANES are in `keys`, as the row's check above says.
                unsafe { store_front(keys.as_mut_ptr().add(len).cast(), key, front) };
                fits.count_ones() as usize
            };
            for i in (0..whole).step_by(LANES) {
                len += step(i, 0b1111, len);
            }
            if rest != 0 {
                len += step(whole, (1 << rest) - 1, len);
            }
            len
        })
    }
}

/// [`keep_part`] and [`keep_clear`] eight at a time with AVX-512, as `avx2`'s four at a time,
/// but for the store: the values kept are compressed to the front of a register, which is
/// stored whole at the cursor (up to [`SPARE`] slots past the last one kept are written).
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::{Diagonals, North, Quarters, Side, Slot, South, Window, SPARE};

    /// Compresses the lanes of `value` that `kept` says to the front of the register and stores
    /// it whole at `to` (a masked store was slower); returns how many were kept.
    ///
    /// # Safety
    /// Slots `to..to + 8` must be writable.
    #[inline]
    #[target_feature(enable = "avx512f,popcnt")]
    unsafe fn store_kept(to: *mut u64, value: __m512i, kept: __mmask8) -> usize {
        // SAFETY: as the caller says; the store needs no alignment.
        unsafe { _mm512_storeu_si512(to.cast(), _mm512_maskz_compress_epi64(kept, value)) };
        kept.count_ones() as usize
    }

    /// [`super::keep_each`] eight items at a time: `keep` gives, for eight items side by side
    /// of which those in its second argument exist, the values to store and which to keep.
    /// The last one to seven items are loaded with a mask (what lies beyond is not read).
    /// Returns how many were kept; `out` has room for `items.len()` slots and [`SPARE`] more:
    /// the kept values are stored as a whole vector ([`store_kept`]).
    #[inline]
    #[target_feature(enable = "avx512f,popcnt")]
    fn keep_each(
        items: &[u64],
        out: &mut [u64],
        mut keep: impl FnMut(__m512i, __mmask8) -> (__m512i, __mmask8),
    ) -> usize {
        assert!(out.len() >= items.len() + SPARE);
        let mut len = 0;
        let mut step = |v: __m512i, valid: __mmask8| {
            let (value, kept) = keep(v, valid);
            // SAFETY: len is at most the items before these, so slots len..len + 8 lie in
            // `out`.
            len += unsafe { store_kept(out.as_mut_ptr().add(len), value, kept) };
        };
        let mut chunks = items.chunks_exact(8);
        for chunk in &mut chunks {
            // SAFETY: a chunk is eight readable slots; the load needs no alignment.
            step(unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) }, 0xff);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let valid = ((1u32 << rest.len()) - 1) as __mmask8;
            // SAFETY: only the lanes that exist are read.
            step(
                unsafe { _mm512_maskz_loadu_epi64(valid, rest.as_ptr().cast()) },
                valid,
            );
        }
        len
    }

    /// [`super::keep_part`] eight `placements` at a time ([`keep_each`]): each eight
    /// unpacked, moved down `r` rows and keyed side by side.
    #[inline]
    #[target_feature(enable = "avx512f,popcnt")]
    pub(super) fn keep_part(
        q: &Quarters,
        placements: &[u64],
        r: u32,
        forbid: Diagonals,
        (window, side): (Window, Side),
        keys: &mut [u64],
    ) -> usize {
        let (d1_bits, rows) = q.packing();
        let set = |x: u64| _mm512_set1_epi64(x as i64);
        let count = |x: u32| _mm_cvtsi32_si128(x as i32);
        let (d1_bits, forbid1, forbid2) = (set(d1_bits), set(forbid.0), set(forbid.1));
        let same = forbid.0 == forbid.1;
        let (down1, down2) = (count(r), count(rows + r));
        let key = lanes_part_key!(
            (window, side),
            (set, count),
            (_mm512_and_si512, _mm512_or_si512),
            (_mm512_srl_epi64, _mm512_sll_epi64)
        );
        keep_each(placements, keys, |p, valid| {
            let a = _mm512_sll_epi64(_mm512_and_si512(p, d1_bits), down1);
            let b = _mm512_sll_epi64(_mm512_srli_epi64::<32>(p), down2);
            // One mask both ways (all but an even board's starts): one test.
            let kept = if same {
                _mm512_mask_testn_epi64_mask(valid, _mm512_or_si512(a, b), forbid1)
            } else {
                let clear1 = _mm512_mask_testn_epi64_mask(valid, a, forbid1);
                _mm512_mask_testn_epi64_mask(clear1, b, forbid2)
            };
            (key(a, b), kept)
        })
    }

    /// [`super::candidates`] eight placements of the longer side at a time, against each one of
    /// the shorter (a unit's west joins are short on both sides: at n = 19 its quarter joins
    /// take 24% fewer steps than with the south side in eights, its west joins 22.5%): the
    /// eight candidates made side by side, those that fit stored at the cursor ([`store_kept`]),
    /// which then moves past them. The last one to seven are loaded with a mask.
    #[inline]
    #[target_feature(enable = "avx512f,popcnt")]
    pub(super) fn candidates(north: &North, south: &South, keys: &mut [Slot]) -> usize {
        let south_keys = &south.keys[..south.len];
        let (wide, each) = if north.keys.len() > south_keys.len() {
            (north.keys, south_keys)
        } else {
            (south_keys, north.keys)
        };
        let n = wide.len();
        let (whole, rest) = (n - n % 8, n % 8);
        let tail = ((1u32 << rest) - 1) as __mmask8;
        let shown = _mm512_set1_epi64(south.shown as i64);
        let mut len = 0;
        for &a in each {
            // A row's steps write within `len..len + n` and up to SPARE slots past it.
            assert!(len + n + SPARE <= keys.len());
            let a = _mm512_set1_epi64(a as i64);
            // Eight candidates, of which those in `valid` exist, kept at `len`.
            let mut step = |b: __m512i, valid: __mmask8, len: usize| {
                let fits = _mm512_mask_testn_epi64_mask(valid, a, b);
                let key = _mm512_and_si512(_mm512_or_si512(a, b), shown);
                // SAFETY: slots len..len + 8 lie in `keys`: at most the row's placements so far
                // are kept, and the row's check above says.
                unsafe { store_kept(keys.as_mut_ptr().add(len).cast(), key, fits) }
            };
            for i in (0..whole).step_by(8) {
                // SAFETY: slots i..i + 8 are placements; the load needs no alignment.
                len += step(
                    unsafe { _mm512_loadu_si512(wide[i..i + 8].as_ptr().cast()) },
                    0xff,
                    len,
                );
            }
            if rest != 0 {
                // SAFETY: only the lanes that exist are read.
                let b = unsafe { _mm512_maskz_loadu_epi64(tail, wide[whole..].as_ptr().cast()) };
                len += step(b, tail, len);
            }
        }
        len
    }

    /// [`super::keep_clear`] eight `keys` at a time ([`keep_each`]).
    #[target_feature(enable = "avx512f,popcnt")]
    pub(super) fn keep_clear(keys: &[u64], forbid: u64, out: &mut [u64]) -> usize {
        let forbid = _mm512_set1_epi64(forbid as i64);
        keep_each(keys, out, |k, valid| {
            (k, _mm512_mask_testn_epi64_mask(valid, k, forbid))
        })
    }
}

/// The `keys` with no bit of `forbid`, in order, in the first slots of `out`: an east list kept
/// for one middle queen, whose diagonals an east key holds as the bits [`Window::middle`] gives
/// (in its windows, or the two bits beyond them): [`keep_each`], four at a time with AVX2 (eight
/// with AVX-512), as the parts of a join are kept.
pub(super) fn keep_clear<'a>(keys: &[u64], forbid: u64, out: &'a mut Vec<u64>) -> &'a [u64] {
    // What `out` held is overwritten, not zeroed first: every slot below the final cursor is
    // written, those above it are not part of the answer.
    let room = pairs::slots(out, keys.len() + SPARE);
    let len = match Isa::of_this_cpu() {
        // SAFETY: `Isa::Avx512` is chosen only where the CPU has AVX-512 F and popcnt.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::keep_clear(keys, forbid, room) },
        // SAFETY: `Isa::Avx2` is chosen only where the CPU has AVX2 and popcnt.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::keep_clear(keys, forbid, room) },
        _ => keep_each(keys, room, |key| (key, key & forbid == 0)),
    };
    &room[..len]
}

/// The diagonal masks of every east half on `rows` of an `n`-board, by plain backtracking over
/// the rows: the slow, obvious version the quarter join is tested against.
#[cfg(test)]
pub(crate) fn direct(n: u32, rows: u32) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    if rows.count_ones() == n / 2 {
        backtrack(n, rows, 0, 0, (0, 0, 0), &mut |(d1, d2, _)| {
            out.push((d1, d2))
        });
    }
    out
}

/// [`direct`]'s halves from row `r` on, with the column of each one's queen in row n/2.
#[cfg(test)]
fn backtrack(
    n: u32,
    rows: u32,
    r: u32,
    used: u32,
    (d1, d2, middle): (u64, u64, u32),
    out: &mut dyn FnMut((u64, u64, u32)),
) {
    if r == n {
        return out((d1, d2, middle));
    }
    if rows & (1 << r) == 0 {
        return backtrack(n, rows, r + 1, used, (d1, d2, middle), out);
    }
    for c in 0..n / 2 {
        let (a, b) = (1u64 << (r + c), 1u64 << (r + n - 1 - c));
        if used & (1 << c) == 0 && d1 & a == 0 && d2 & b == 0 {
            let middle = if r == n / 2 { c } else { middle };
            backtrack(n, rows, r + 1, used | 1 << c, (d1 | a, d2 | b, middle), out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::join::subsets::for_each_subset;

    /// Appends to `out` the key of every east half on the rows `rows` (bit r: board row r) that uses
    /// none of the diagonals in `forbid` (same bit in either direction), read for `side`.
    fn keys(q: &Quarters, window: Window, rows: u32, forbid: u64, side: Side, out: &mut Vec<u64>) {
        let mut halves = Halves::new(q.rows(), window.width.div_ceil(2), rows, forbid, side);
        halves.fill(q, window, out, usize::MAX, &mut Buffers::default());
    }

    #[test]
    fn subsets_in_order() {
        let mut seen = Vec::new();
        for_each_subset(4, 2, |s| seen.push(s));
        assert_eq!(seen, vec![0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100]);
        let mut none = 0;
        for_each_subset(2, 3, |_| none += 1);
        assert_eq!(none, 0);
    }

    #[test]
    fn the_quarter_join_finds_every_half_and_no_other() {
        for n in 2..=11u32 {
            let table = Quarters::build(n).unwrap();
            let w = Window::new(n);
            for_each_subset(n, n / 2, |rows| {
                let mut plain: Vec<u64> = direct(n, rows)
                    .into_iter()
                    .map(|(a, b)| w.key(Side::East, a, b))
                    .collect();
                plain.sort_unstable();
                for q in [&table, &Quarters::on_demand(n)] {
                    let mut joined = Vec::new();
                    keys(q, w, rows, 0, Side::East, &mut joined);
                    joined.sort_unstable();
                    assert_eq!(joined, plain, "n = {n}, rows = {rows:b}, {:?}", q.store());
                }
            });
        }
    }

    /// The halves left of a column of the middle row are the halves whose queen there stands
    /// left of the column, with the quarters in a table (sorted by that column) and made on
    /// demand, in pieces.
    #[test]
    fn halves_left_of_a_column_of_the_middle_row() {
        for n in [7u32, 9, 11] {
            let (h, w) = (n / 2, Window::new(n));
            let table = Quarters::build(n).unwrap();
            for_each_subset(n, h, |rows| {
                if rows >> h & 1 == 0 {
                    return;
                }
                // Every half by plain backtracking, with the column of its queen in row h.
                let mut plain = Vec::new();
                backtrack(n, rows, 0, 0, (0, 0, 0), &mut |(d1, d2, c)| {
                    plain.push((c, w.key(Side::West, d1, d2)))
                });
                for t in 0..=h {
                    let mut below: Vec<u64> =
                        plain.iter().filter(|p| p.0 < t).map(|p| p.1).collect();
                    below.sort_unstable();
                    for q in [&table, &Quarters::on_demand(n)] {
                        let mut halves =
                            Halves::new(q.rows(), h, rows, 0, Side::West).left_of(Some(t));
                        let mut got = Vec::new();
                        let mut buffers = Buffers::default();
                        while halves.fill(q, w, &mut got, 3, &mut buffers) {}
                        got.sort_unstable();
                        let at_t = format!("n = {n}, rows {rows:b}, t = {t}, {:?}", q.store());
                        assert_eq!(got, below, "{at_t}");
                    }
                }
            });
        }
    }

    /// The candidates [`write`] keeps of `north` × `south` with the loop of `isa` (only one the
    /// CPU has): their keys, sorted (the AVX-512 loop runs over the longer side).
    fn kept(north: &North, south: &South, isa: Isa) -> Vec<u64> {
        let mut keys = Vec::new();
        write(north, south, &mut keys, |n, s, k| candidates(isa, n, s, k));
        keys.sort_unstable();
        keys
    }

    /// The vector quarter joins this CPU has write what the plain one writes for every column
    /// set of every row set (south groups of every length modulo eight, north groups longer
    /// and shorter than them), with and without forbidden diagonals.
    #[test]
    fn every_candidate_loop_keeps_the_same_candidates() {
        let isas = match Isa::of_this_cpu() {
            Isa::Plain => return,
            Isa::Avx2 => &[Isa::Avx2][..],
            Isa::Avx512 => &[Isa::Avx2, Isa::Avx512][..],
        };
        let (mut compared, mut north_longer) = ([0usize; 8], 0);
        for n in [9u32, 12, 13, 14] {
            let (q, w) = (Quarters::on_demand(n), Window::new(n));
            let h = n / 2;
            for_each_subset(n, h, |rows| {
                for (forbid, side) in [(0, Side::East), (1 << (h + 2), Side::West)] {
                    let halves = Halves::new(q.rows(), h, rows, forbid, side);
                    let mut buffers = Buffers::default();
                    for_each_subset(h, halves.k, |cols| {
                        let Some((north, south)) =
                            groups(Isa::of_this_cpu(), &q, w, &halves, cols, &mut buffers)
                        else {
                            return;
                        };
                        let plain = kept(&north, south, Isa::Plain);
                        for &isa in isas {
                            let got = kept(&north, south, isa);
                            assert_eq!(
                                got, plain,
                                "{isa:?}, n = {n}, rows {rows:b}, cols {cols:b}"
                            );
                        }
                        compared[south.len % 8] += 1;
                        north_longer += usize::from(north.keys.len() > south.len);
                    });
                }
            });
        }
        assert!(compared.iter().all(|&c| c > 10), "{compared:?}");
        assert!(north_longer > 10, "{north_longer}");
    }

    /// `keep_clear` keeps, in order, exactly the keys with no forbidden bit, for lists of every
    /// length modulo LANES and modulo eight (the vector groups and the tail), whatever `out`
    /// held.
    #[test]
    fn keep_clear_keeps_in_order_the_keys_with_no_forbidden_bit() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut out = vec![u64::MAX; 3];
        for len in 0..40 {
            let keys: Vec<u64> = (0..len).map(|_| next() & next()).collect();
            for forbid in [0, 1 << 5, next() & next() & next(), u64::MAX] {
                let expected: Vec<u64> = keys.iter().copied().filter(|k| k & forbid == 0).collect();
                assert_eq!(keep_clear(&keys, forbid, &mut out), &expected[..]);
            }
        }
    }

    /// An east half of an odd board avoids the middle queen of row m (both its diagonals,
    /// numbered m + h) exactly when its key has no bit of `Window::middle(m)`: what lets an east
    /// list be kept for a middle queen by its keys alone.
    #[test]
    fn an_east_key_shows_whether_its_half_avoids_a_middle_queen() {
        for n in [5u32, 7, 9, 11] {
            let (h, w) = (n / 2, Window::new(n));
            let mut clashes = 0;
            for_each_subset(n, h, |rows| {
                for (d1, d2) in direct(n, rows) {
                    let key = w.key(Side::East, d1, d2);
                    for m in (0..n).filter(|m| rows & 1 << m == 0) {
                        let avoids = (d1 | d2) & 1 << (m + h) == 0;
                        assert_eq!(key & w.middle(m) == 0, avoids, "n = {n}, {rows:b}, m = {m}");
                        clashes += usize::from(!avoids);
                    }
                }
            });
            assert!(clashes > 0);
        }
    }

    /// A north part and a south part of a half (on disjoint columns) share a diagonal exactly
    /// when their part keys share a bit, on either side, odd boards and even.
    #[test]
    fn parts_clash_exactly_when_their_part_keys_share_a_bit() {
        for n in 4..=12u32 {
            let (q, window) = (Quarters::on_demand(n), Window::new(n));
            let (r, h) = (q.rows(), n / 2);
            let (mut north, mut south, mut clashes) = (Made::default(), Made::default(), 0);
            for rows in 0..1u32 << r {
                let k = rows.count_ones();
                for_each_subset(h, k.min(h), |cols| {
                    let north = q.group(rows, cols, &mut north).to_vec();
                    let rest = ((1 << h) - 1) ^ cols;
                    for south_rows in (0..1u32 << (n - r)).filter(|s| s.count_ones() + k <= h) {
                        for_each_subset(h - k, south_rows.count_ones(), |pick| {
                            let south_cols = deposit(pick, rest);
                            for &a in &north {
                                for &b in q.group(south_rows, south_cols, &mut south) {
                                    let (a1, a2) = q.unpack(a);
                                    let (b1, b2) = q.unpack(b);
                                    let (b1, b2) = (b1 << r, b2 << r);
                                    let clash = (a1 & b1) | (a2 & b2) != 0;
                                    clashes += usize::from(clash);
                                    for side in [Side::East, Side::West] {
                                        let ka = window.part_key(side, a1, a2);
                                        let kb = window.part_key(side, b1, b2);
                                        assert_eq!(ka & kb != 0, clash, "n = {n}");
                                    }
                                }
                            }
                        });
                    }
                });
            }
            assert!(clashes > 0, "n = {n}");
        }
    }

    /// A join's south side, filled (eight or four at a time where the CPU has AVX-512 or AVX2;
    /// each vector loop it has is also tried alone), keeps the part keys of the placements that
    /// avoid the forbidden diagonals, in order, read for each side with their masks moved down
    /// (odd boards' with their two bits beyond the windows), padded with zeros, for groups of
    /// every length modulo LANES and modulo the eight lanes of AVX-512.
    #[test]
    fn a_south_side_filled_keeps_what_avoids_the_forbidden_diagonals_with_its_keys() {
        let mut lengths = [0usize; 8];
        for n in [12u32, 13] {
            let (q, window) = (Quarters::on_demand(n), Window::new(n));
            let (r, h) = (q.rows(), n / 2);
            let mut made = Made::default();
            for rows in 0..1u32 << r {
                for_each_subset(h, rows.count_ones().min(h), |cols| {
                    let group = q.group(rows, cols, &mut made).to_vec();
                    lengths[group.len() % 8] += 1;
                    for side in [Side::East, Side::West] {
                        // The same diagonals both ways (odd boards' middle queens), and two
                        // different ones (a queen placed already, `turn.rs`).
                        let cases = [
                            (0, (0, 0)),
                            (r, (1 << (h + 3), 1 << (h + 3))),
                            (r - 1, (0b11 << h, 0b11 << h)),
                            (r, (1 << (h + 2), 1 << (h + 5))),
                            (0, (0b101 << h, 0)),
                        ];
                        for (shift, forbid) in cases {
                            let mut south = South::default();
                            south.fill(Isa::Plain, &q, &group, shift, forbid, (window, side));
                            let expected: Vec<_> = group
                                .iter()
                                .map(|&p| q.unpack(p))
                                .map(|(d1, d2)| (d1 << shift, d2 << shift))
                                .filter(|&(d1, d2)| d1 & forbid.0 == 0 && d2 & forbid.1 == 0)
                                .map(|(d1, d2)| window.part_key(side, d1, d2))
                                .collect();
                            let (got, padding) = south.keys[..south.padded()].split_at(south.len);
                            assert_eq!(got, expected, "n = {n}, rows {rows:b}, cols {cols:b}");
                            assert!(padding.iter().all(|&k| k == 0));
                            // Each vector loop the CPU has.
                            #[cfg(target_arch = "x86_64")]
                            {
                                let mut out = vec![0; group.len() + SPARE];
                                let view = (window, side);
                                if pairs::has_avx2() {
                                    // SAFETY: the CPU has AVX2 and popcnt.
                                    let len = unsafe {
                                        avx2::keep_part(&q, &group, shift, forbid, view, &mut out)
                                    };
                                    assert_eq!(out[..len], expected, "AVX2, n = {n}");
                                }
                                if pairs::has_avx512() {
                                    // SAFETY: the CPU has AVX-512 F and popcnt.
                                    let len = unsafe {
                                        avx512::keep_part(&q, &group, shift, forbid, view, &mut out)
                                    };
                                    assert_eq!(out[..len], expected, "AVX-512, n = {n}");
                                }
                            }
                        }
                    }
                });
            }
        }
        assert!(lengths.iter().all(|&c| c > 10), "{lengths:?}");
    }

    #[test]
    fn halves_made_in_pieces_are_the_halves_made_at_once() {
        let n = 12;
        let (q, w) = (Quarters::on_demand(n), Window::new(n));
        let rows = 0b1010_1100_0011;
        let mut whole = Vec::new();
        keys(&q, w, rows, 1 << 9, Side::West, &mut whole);
        let mut halves = Halves::new(q.rows(), n / 2, rows, 1 << 9, Side::West);
        let (mut pieces, mut buffers) = (Vec::new(), Buffers::default());
        let mut calls = 0;
        loop {
            let mut piece = Vec::new();
            let more = halves.fill(&q, w, &mut piece, 4, &mut buffers);
            calls += 1;
            pieces.extend(piece);
            if !more {
                break;
            }
        }
        assert!(
            calls > 3 && whole.len() > 20,
            "{calls} calls, {} halves",
            whole.len()
        );
        assert_eq!(pieces, whole);
    }
}
