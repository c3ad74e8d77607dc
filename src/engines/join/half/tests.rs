//! The quadrant join against plain backtracking, on every path this CPU can run.

use super::*;
use crate::system::isa::Portable;

impl Window {
    /// The key of a half with diagonal masks `d1` ("/") and `d2` ("\") read for `side`: on odd
    /// boards an east key also says whether it uses "/" diagonal h and "\" diagonal 3h
    /// ([`Window::middle`]; no east half reaches the other diagonals of those numbers).
    pub(crate) fn key(&self, side: Side, d1: u64, d2: u64) -> u64 {
        self.part_key(side, d1, d2) & self.shown(side)
    }
}
use crate::engines::join::subsets::for_each_subset;

/// Appends to `out` the key of every east half on the rows `rows` (bit r: board row r) that uses
/// none of the diagonals in `forbid` (same bit in either direction), read for `side`.
fn keys(q: &Quadrants, window: Window, rows: u32, forbid: u64, side: Side, out: &mut Vec<u64>) {
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
        let table = Quadrants::build(n).unwrap();
        let w = Window::new(n);
        for_each_subset(n, n / 2, |rows| {
            let mut plain: Vec<u64> = direct(n, rows)
                .into_iter()
                .map(|(a, b)| w.key(Side::East, a, b))
                .collect();
            plain.sort_unstable();
            for q in [&table, &Quadrants::on_demand(n)] {
                let mut joined = Vec::new();
                keys(q, w, rows, 0, Side::East, &mut joined);
                joined.sort_unstable();
                assert_eq!(joined, plain, "n = {n}, rows = {rows:b}, {:?}", q.store());
            }
        });
    }
}

/// The halves left of a column of the middle row are the halves whose queen there stands
/// left of the column, with the quadrants in a table (sorted by that column) and made on
/// demand, in pieces.
#[test]
fn halves_left_of_a_column_of_the_middle_row() {
    for n in [7u32, 9, 11] {
        let (h, w) = (n / 2, Window::new(n));
        let table = Quadrants::build(n).unwrap();
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
                let mut below: Vec<u64> = plain.iter().filter(|p| p.0 < t).map(|p| p.1).collect();
                below.sort_unstable();
                for q in [&table, &Quadrants::on_demand(n)] {
                    let mut halves = Halves::new(q.rows(), h, rows, 0, Side::West).left_of(Some(t));
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

/// The vector quadrant joins this CPU has write what the plain one writes for every column
/// set of every row set (south groups of every length modulo eight, north groups longer
/// and shorter than them), with and without forbidden diagonals.
#[test]
fn every_candidate_loop_keeps_the_same_candidates() {
    let isas = Isa::all_of_this_cpu().split_off(1);
    if isas.is_empty() {
        return;
    }
    let (mut compared, mut north_longer) = ([0usize; 8], 0);
    for n in [9u32, 12, 13, 14] {
        let (q, w) = (Quadrants::on_demand(n), Window::new(n));
        let h = n / 2;
        for_each_subset(n, h, |rows| {
            for (forbid, side) in [(0, Side::East), (1 << (h + 2), Side::West)] {
                let halves = Halves::new(q.rows(), h, rows, forbid, side);
                let mut buffers = Buffers::default();
                for_each_subset(h, halves.k, |cols| {
                    let Some((north, south)) =
                        groups(Isa::this_cpu(), &q, w, &halves, cols, &mut buffers)
                    else {
                        return;
                    };
                    let plain = kept(&north, south, Isa::Portable(Portable::ANY));
                    for &isa in &isas {
                        let got = kept(&north, south, isa);
                        assert_eq!(got, plain, "{isa:?}, n = {n}, rows {rows:b}, cols {cols:b}");
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

/// `keep_clear` keeps (on every path), in order, exactly the keys with no forbidden bit (their
/// dropped bits cleared), for lists of every
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
            let drop = next();
            let dropped: Vec<u64> = expected.iter().map(|k| k & !drop).collect();
            for path in Isa::all_of_this_cpu() {
                let room = pairs::slots(&mut out, keys.len() + SPARE);
                let len = isa::dispatch!(path, keep_clear(&keys, (forbid, 0), room));
                assert_eq!(room[..len], expected, "{}", path.name());
                let len = isa::dispatch!(path, keep_clear(&keys, (forbid, drop), room));
                assert_eq!(room[..len], dropped, "{} dropping", path.name());
            }
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
        let (q, window) = (Quadrants::on_demand(n), Window::new(n));
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
        let (q, window) = (Quadrants::on_demand(n), Window::new(n));
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
                        south.fill(
                            Isa::Portable(Portable::ANY),
                            &q,
                            &group,
                            shift,
                            forbid,
                            View { window, side },
                        );
                        let expected: Vec<_> = group
                            .iter()
                            .map(|&p| q.unpack(p))
                            .map(|(d1, d2)| (d1 << shift, d2 << shift))
                            .filter(|&(d1, d2)| d1 & forbid.0 == 0 && d2 & forbid.1 == 0)
                            .map(|(d1, d2)| window.part_key(side, d1, d2))
                            .collect();
                        let (got, padding) =
                            south.keys[..south.len.next_multiple_of(LANES)].split_at(south.len);
                        assert_eq!(got, expected, "n = {n}, rows {rows:b}, cols {cols:b}");
                        assert!(padding.iter().all(|&k| k == 0));
                        // Each path the CPU has.
                        for path in Isa::all_of_this_cpu() {
                            let mut out = vec![0; group.len() + SPARE];
                            let view = View { window, side };
                            let len = keep_part(path, &q, &group, shift, forbid, view, &mut out);
                            assert_eq!(out[..len], expected, "{}, n = {n}", path.name());
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
    let (q, w) = (Quadrants::on_demand(n), Window::new(n));
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

/// The diagonal masks of every east half on `rows` of an `n`-board, by plain backtracking over
/// the rows: the slow, obvious version the quadrant join is tested against.
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
