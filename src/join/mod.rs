//! The half-board join engine: counts solutions as pairs of east and west halves with no shared diagonal.
//!
//! Instead of backtracking through the whole board, the engine builds every non-attacking
//! placement of the board's east half on a row set S (from the [`quarter`] table, see [`half`]),
//! and every west half on the other rows, and counts the pairs that share no diagonal (rows and
//! columns are disjoint by construction) with the bit-sliced counter of [`pairs`]. Odd boards also
//! fix the row of the middle column's queen. Each (middle row, S) class under the north-south and
//! east-west reflections is one [`units::Unit`] and one subproblem of the plan, so progress,
//! checkpoints and shards work unchanged; a worker thread counts whole units with its own buffers.
//!
//! Memory: the quarter table, 8 bytes per placement plus 4 bytes per (row set, column set)
//! group; [`Join::new`] refuses a board whose table would not fit in the memory available.

pub mod half;
pub mod pairs;
pub mod quarter;
pub mod units;

use std::cell::RefCell;

use half::{Side, Window};
use quarter::Quarters;
use units::Unit;

use crate::Error;

/// The largest board the join engine takes: its table is about 8 times larger for every 2 more
/// rows (8 MiB at n = 18, 62 MiB at n = 20, 4.8 GiB at n = 24).
pub const MAX_JOIN_N: u32 = 24;

/// Everything the join engine needs to count any unit of one board size.
pub struct Join {
    n: u32,
    window: Window,
    quarters: Quarters,
    units: Vec<Unit>,
}

impl Join {
    /// The tables and units of an `n`-board, or an error when the tables would not fit in memory.
    pub fn new(n: u32) -> Result<Join, Error> {
        crate::check_n(n)?;
        if n > MAX_JOIN_N {
            return Err(Error::JoinTooLarge {
                n,
                needed: None,
                available: None,
            });
        }
        let (_, needed) = Quarters::size(n);
        let available = available_memory();
        if let Some(available) = available {
            // Leave room for the plan, the buffers and everyone else.
            if needed as u64 > available / 2 {
                return Err(Error::JoinTooLarge {
                    n,
                    needed: Some(needed as u64),
                    available: Some(available),
                });
            }
        }
        Ok(Join {
            n,
            window: Window::new(n),
            quarters: Quarters::build(n),
            units: units::units(n),
        })
    }

    /// Board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The units, in plan order: unit `i` is subproblem `i`.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// Bytes held by the quarter table.
    pub fn table_bytes(&self) -> usize {
        self.quarters.bytes()
    }

    /// Solutions in one unit: pairs of an east half on its east rows and a west half on its west
    /// rows that share no diagonal (and, for odd n, avoid the middle queen's diagonals).
    pub fn count_unit(&self, unit: &Unit) -> u64 {
        thread_local! {
            static BUFFERS: RefCell<Buffers> = RefCell::default();
        }
        let h = self.n / 2;
        let q = &self.quarters;
        BUFFERS.with(|b| {
            let b = &mut *b.borrow_mut();
            b.east.clear();
            b.west.clear();
            let forbid = match unit.middle {
                None => {
                    half::keys(q, self.window, unit.east, 0, Side::East, &mut b.east);
                    0
                }
                Some(m) => {
                    // The middle queen at (m, h) is on "/" diagonal m + h and "\" diagonal
                    // m - h + n - 1, the same number. The units of one east row set come one
                    // after the other: their east halves are joined once and filtered.
                    let forbid = 1u64 << (u32::from(m) + h);
                    if b.cached != Some((self.n, unit.east)) {
                        b.all_east.clear();
                        b.all_used.clear();
                        let (keys, used) = (&mut b.all_east, &mut b.all_used);
                        half::keys_and_diagonals(q, self.window, unit.east, Side::East, keys, used);
                        b.cached = Some((self.n, unit.east));
                    }
                    let fit = b.all_east.iter().zip(&b.all_used);
                    b.east
                        .extend(fit.filter(|(_, &u)| u & forbid == 0).map(|(&k, _)| k));
                    forbid
                }
            };
            if b.east.is_empty() {
                return 0;
            }
            half::keys(
                q,
                self.window,
                unit.west(self.n),
                forbid,
                Side::West,
                &mut b.west,
            );
            pairs::count_disjoint(&b.east, &b.west, self.window.key_bits(), &mut b.scratch)
        })
    }
}

/// A worker thread's buffers, reused from unit to unit.
#[derive(Default)]
struct Buffers {
    /// The east halves of the last odd-n unit's row set, unfiltered: (n, east rows) they are for.
    cached: Option<(u32, u32)>,
    all_east: Vec<u64>,
    all_used: Vec<u64>,
    east: Vec<u64>,
    west: Vec<u64>,
    scratch: pairs::Scratch,
}

impl std::fmt::Debug for Join {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Join")
            .field("n", &self.n)
            .field("units", &self.units.len())
            .field("table_entries", &self.quarters.len())
            .finish()
    }
}

/// Tables are a function of n: two are equal when their boards are.
impl PartialEq for Join {
    fn eq(&self, other: &Join) -> bool {
        self.n == other.n
    }
}

impl Eq for Join {}

/// `MemAvailable` of /proc/meminfo in bytes, where there is one.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
