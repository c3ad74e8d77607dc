//! The batch count in plain Rust: any CPU, any number of chunks.

use super::lanes::{combo, Lanes, Span, HALF};
use super::{COMBOS, WORDS};

/// Σ over `short` of the keys of `base` (of the batch) disjoint from it, with `CH` chunks per key.
#[inline(always)]
pub(super) fn count_batch<const CH: usize>(short: &[u64], combos: &[Lanes], base: &Lanes) -> u64 {
    match base.span() {
        Span::Empty => 0,
        Span::Whole => count_words::<CH, 0, WORDS>(short, combos, base),
        Span::Half(0) => count_words::<CH, 0, HALF>(short, combos, base),
        Span::Half(_) => count_words::<CH, HALF, WORDS>(short, combos, base),
    }
}

/// [`count_batch`] over the words `FROM..TO` of the batch.
#[inline(always)]
pub(super) fn count_words<const CH: usize, const FROM: usize, const TO: usize>(
    short: &[u64],
    combos: &[Lanes],
    base: &Lanes,
) -> u64 {
    let combos = &combos[..CH * COMBOS];
    let mut sums = [0u64; WORDS];
    for &key in short {
        let mut acc = *base;
        for c in 0..CH {
            let combo = combo(combos, c, key);
            for i in FROM..TO {
                acc[i] &= combo[i];
            }
        }
        for i in FROM..TO {
            sums[i] += u64::from(acc[i].count_ones());
        }
    }
    sums.iter().sum()
}
