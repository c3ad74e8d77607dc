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

use super::quarter::Quarters;

/// Which side of the board a half's key is read for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Columns `0..h`: "/" window low, "\" window high.
    East,
    /// Columns `n-h..n`, given by its east mirror image: "\" window low, "/" window high.
    West,
}

/// How the diagonal masks of an `n`-board become keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
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
    pub fn new(n: u32) -> Window {
        let h = n / 2;
        Window {
            start: n - h,
            width: (2 * h).saturating_sub(1),
            odd: n % 2 == 1,
        }
    }

    /// Bits in a key: two windows, and on odd boards the two bits of [`Window::middle`].
    pub fn key_bits(&self) -> u32 {
        2 * self.width + if self.odd { 2 } else { 0 }
    }

    /// The key bits of the middle queen of an odd board in row `m`, for a west key: its two
    /// diagonals (both numbered m + h) where they are in the window. For m = 0 and m = n - 1
    /// only the east half reaches its diagonals ("/" h, "\" 3h, just outside the windows): an
    /// east key has a bit of its own for each that it uses, and this is that bit.
    pub fn middle(&self, m: u32) -> u64 {
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
    pub fn key(&self, side: Side, d1: u64, d2: u64) -> u64 {
        let low = |d: u64| (d >> self.start) & ((1u64 << self.width) - 1);
        match side {
            Side::East if self.odd => {
                let (first, last) = (self.start - 1, self.start + self.width);
                low(d1)
                    | low(d2) << self.width
                    | (d1 >> first & 1) << (2 * self.width)
                    | (d2 >> last & 1) << (2 * self.width + 1)
            }
            Side::East => low(d1) | low(d2) << self.width,
            Side::West => low(d2) | low(d1) << self.width,
        }
    }
}

/// Group buffers for a table made on demand ([`Quarters::group`]): the north and south groups of
/// the column set being joined.
#[derive(Debug, Default)]
pub struct Buffers {
    north: Vec<u64>,
    south: Vec<u64>,
    /// The south placements of one column set that avoid `forbid`, moved down: (d1, d2, key).
    south_ok: Vec<[u64; 3]>,
}

/// The east halves on one row set, made a column set of their north part at a time, so that a
/// list too long for memory is made and counted in pieces.
#[derive(Debug, Clone, Copy)]
pub struct Halves {
    rows: u32,
    forbid: u64,
    side: Side,
    /// North queens (and columns they use).
    k: u32,
    /// The next north column set to join, or none when every one has been.
    next: Option<u64>,
}

impl Halves {
    /// The halves on the rows `rows` (bit r: board row r) of a board with `h` east columns and a
    /// north rectangle of `r` rows that use none of the diagonals in `forbid` (same bit in
    /// either direction), read for `side`.
    pub fn new(r: u32, h: u32, rows: u32, forbid: u64, side: Side) -> Halves {
        let north = rows & ((1 << r) - 1);
        let k = north.count_ones();
        let possible = k <= h && (rows >> r).count_ones() + k == h;
        Halves {
            rows,
            forbid,
            side,
            k,
            next: possible.then_some((1u64 << k) - 1),
        }
    }

    /// Appends the keys of the halves still to come to `out` (and, with `USED`, the union of each
    /// one's two diagonal masks to `used`, same order) until `out` holds at least `limit` keys
    /// or none is left; returns whether some are left. It stops only between column sets, so
    /// `out` may pass `limit` by one column set's halves.
    pub fn fill<const USED: bool>(
        &mut self,
        q: &Quarters,
        window: Window,
        out: &mut Vec<u64>,
        used: &mut Vec<u64>,
        limit: usize,
        buffers: &mut Buffers,
    ) -> bool {
        let h = window.width.div_ceil(2);
        while let Some(cols) = self.next {
            self.next = next_subset(cols, self.k, h);
            join::<USED>(q, window, self, cols as u32, out, used, buffers);
            if out.len() >= limit {
                break;
            }
        }
        self.next.is_some()
    }
}

/// The quarter join of one north column set `cols`: every north placement on the north rows of
/// `halves` with the columns `cols` and every south one with the other columns, when no
/// diagonal is used by both; `USED` fills `used`.
#[inline(always)]
fn join<const USED: bool>(
    q: &Quarters,
    window: Window,
    halves: &Halves,
    cols: u32,
    out: &mut Vec<u64>,
    used: &mut Vec<u64>,
    buffers: &mut Buffers,
) {
    let r = q.rows();
    let (north, south) = (halves.rows & ((1 << r) - 1), halves.rows >> r);
    let all_cols = (1u32 << window.width.div_ceil(2)) - 1;
    let (forbid, side) = (halves.forbid, halves.side);
    let Buffers {
        north: north_buffer,
        south: south_buffer,
        south_ok,
    } = buffers;
    let north_group = q.group(north, cols, north_buffer);
    if north_group.is_empty() {
        return;
    }
    south_ok.clear();
    for &b in q.group(south, all_cols ^ cols, south_buffer) {
        let (b1, b2) = q.unpack(b);
        let (b1, b2) = (b1 << r, b2 << r);
        if (b1 | b2) & forbid == 0 {
            south_ok.push([b1, b2, window.key(side, b1, b2)]);
        }
    }
    if south_ok.is_empty() {
        return;
    }
    // Room for every candidate at once (not zeroed first), then every candidate written and
    // those that fit kept: no branch in the loop.
    let room = north_group.len() * south_ok.len();
    out.reserve(room);
    let keys = &mut out.spare_capacity_mut()[..room];
    let diagonals = if USED {
        used.reserve(room);
        &mut used.spare_capacity_mut()[..room]
    } else {
        &mut []
    };
    let mut len = 0;
    for &a in north_group {
        let (a1, a2) = q.unpack(a);
        if (a1 | a2) & forbid != 0 {
            continue;
        }
        let a_key = window.key(side, a1, a2);
        for &[b1, b2, b_key] in south_ok.iter() {
            keys[len].write(a_key | b_key);
            if USED {
                diagonals[len].write(a1 | a2 | b1 | b2);
            }
            len += usize::from((a1 & b1) | (a2 & b2) == 0);
        }
    }
    // SAFETY: the first `len` slots past each list's end were written above (each candidate
    // writes the slot at `len`, below `room`, before `len` moves past it).
    unsafe {
        out.set_len(out.len() + len);
        if USED {
            used.set_len(used.len() + len);
        }
    }
}

/// The `k`-element subset of `0..bits` after `s` in increasing order (Gosper's hack), if any.
pub(crate) fn next_subset(s: u64, k: u32, bits: u32) -> Option<u64> {
    if k == 0 {
        return None;
    }
    let low = s & s.wrapping_neg();
    let ripple = s + low;
    let next = ripple | (((s ^ ripple) >> 2) / low);
    (next < 1u64 << bits).then_some(next)
}

/// Calls `f` for every `k`-element subset of `0..bits`, as a mask, in increasing order.
pub fn for_each_subset(bits: u32, k: u32, mut f: impl FnMut(u32)) {
    let mut s = (k <= bits).then_some((1u64 << k) - 1);
    while let Some(set) = s {
        f(set as u32);
        s = next_subset(set, k, bits);
    }
}

/// The diagonal masks of every east half on `rows` of an `n`-board, by plain backtracking over
/// the rows: the slow, obvious version the quarter join is tested against.
pub fn direct(n: u32, rows: u32) -> Vec<(u64, u64)> {
    fn go(n: u32, rows: u32, r: u32, used: u32, d: (u64, u64), out: &mut Vec<(u64, u64)>) {
        if r == n {
            out.push(d);
            return;
        }
        if rows & (1 << r) == 0 {
            return go(n, rows, r + 1, used, d, out);
        }
        for c in 0..n / 2 {
            let (a, b) = (1u64 << (r + c), 1u64 << (r + n - 1 - c));
            if used & (1 << c) == 0 && d.0 & a == 0 && d.1 & b == 0 {
                go(n, rows, r + 1, used | 1 << c, (d.0 | a, d.1 | b), out);
            }
        }
    }
    let mut out = Vec::new();
    if rows.count_ones() == n / 2 {
        go(n, rows, 0, 0, (0, 0), &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Appends to `out` the key of every east half on the rows `rows` (bit r: board row r) that uses
    /// none of the diagonals in `forbid` (same bit in either direction), read for `side`.
    fn keys(q: &Quarters, window: Window, rows: u32, forbid: u64, side: Side, out: &mut Vec<u64>) {
        let mut halves = Halves::new(q.rows(), window.width.div_ceil(2), rows, forbid, side);
        halves.fill::<false>(
            q,
            window,
            out,
            &mut Vec::new(),
            usize::MAX,
            &mut Buffers::default(),
        );
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

    #[test]
    fn halves_made_in_pieces_are_the_halves_made_at_once() {
        let n = 12;
        let (q, w) = (Quarters::on_demand(n), Window::new(n));
        let rows = 0b1010_1100_0011;
        let mut whole = Vec::new();
        keys(&q, w, rows, 1 << 9, Side::West, &mut whole);
        let mut halves = Halves::new(q.rows(), n / 2, rows, 1 << 9, Side::West);
        let (mut pieces, mut pieces_used, mut buffers) =
            (Vec::new(), Vec::new(), Buffers::default());
        let mut calls = 0;
        loop {
            let (mut piece, mut used) = (Vec::new(), Vec::new());
            let more = halves.fill::<true>(&q, w, &mut piece, &mut used, 4, &mut buffers);
            calls += 1;
            assert_eq!(piece.len(), used.len());
            pieces.extend(piece);
            pieces_used.extend(used);
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
        assert_eq!(pieces_used.len(), whole.len());
    }
}
