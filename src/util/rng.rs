//! The one random generator: deterministic, so that plans, partitions and estimates drawn from a
//! seed come out the same on every machine.

/// SplitMix64 (Steele, Lea, Flood 2014): written out here because the shard partition, and so
/// the file format, depends on its exact output, which no dependency upgrade may change.
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    /// A `k`-element subset of `0..n` (k ≤ n ≤ 32) drawn uniformly (Floyd's algorithm), as a
    /// mask.
    pub(crate) fn subset(&mut self, n: u32, k: u32) -> u32 {
        let mut set = 0u32;
        for j in n - k..n {
            let t = (self.next() % u64::from(j + 1)) as u32;
            set |= if set & (1 << t) == 0 { 1 << t } else { 1 << j };
        }
        set
    }

    /// A number drawn uniformly from [0, 1), of 53 random bits.
    pub(crate) fn uniform(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
