//! Subsets of a small set as bit masks, in increasing order: the row sets and column sets the
//! join engine walks.

/// The `k`-element subset of `0..bits` after `s` in increasing order (Gosper's hack), if any.
pub(crate) fn next_subset(s: u64, k: u32, bits: u32) -> Option<u64> {
    if k == 0 {
        return None;
    }
    let low = s & s.wrapping_neg();
    let ripple = s + low;
    // The division of the classic hack by `low`, a power of two, as a shift.
    let next = ripple | (((s ^ ripple) >> 2) >> low.trailing_zeros());
    (next < 1u64 << bits).then_some(next)
}

/// Calls `f` for every `k`-element subset of `0..bits`, as a mask, in increasing order.
pub(crate) fn for_each_subset(bits: u32, k: u32, mut f: impl FnMut(u32)) {
    let mut s = (k <= bits).then_some((1u64 << k) - 1);
    while let Some(set) = s {
        f(set as u32);
        s = next_subset(set, k, bits);
    }
}
