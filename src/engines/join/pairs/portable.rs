//! The batch count in plain Rust: any CPU, any number of chunks.

use super::lanes::{combo, low_bits, Lanes, Span, HALF};
use super::{
    Lists,
    count_chunks, each_pattern, sliced, table_readers, Course, KeyMap, Pattern, Readers, Scratch,
    COMBOS, WORDS,
};
use crate::system::isa::Portable;

/// [`super::sliced`] with this file's batch count, its keys read by [`KeyMap`]'s tables.
pub(super) fn count_sliced(
    _: Portable,
    lists: Lists,
    c: Course,
    s: &mut Scratch,
) -> u64 {
    let count = |ch, keys: &[u64], combos: &[Lanes], base: &Lanes| {
        count_chunks!(ch, count_batch, keys, combos, base)
    };
    sliced(lists, c, s, table_readers!(), count)
}

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

/// [`count_batch`] behind this path's proof, for the tests.
#[cfg(test)]
pub(super) fn count_batch_of<const CH: usize>(
    _: Portable,
    short: &[u64],
    combos: &[Lanes],
    base: &Lanes,
) -> u64 {
    count_batch::<CH>(short, combos, base)
}
