//! What this CPU can run: the one place the hot loops ask which of their builds to take.
//!
//! The backtrack (`kernel`), the quadrant joins (`engines::join::half`) and the pair counter
//! (`engines::join::pairs`) are each compiled more than once with `#[target_feature]`, and call
//! the build this module names. Each answer is computed once and cached: the quadrant joins ask
//! many times per row set, and feature checks in the hot path cost measurable instructions.

/// The vector instructions of the quadrant joins and the pair counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Vector {
    /// Neither: the portable loops.
    Plain,
    /// AVX2, popcnt and BMI2.
    Avx2,
    /// AVX-512 F, BW, VL, VPOPCNTDQ and BITALG, popcnt and BMI2.
    Avx512,
}

impl Vector {
    /// The fastest this CPU has.
    #[inline]
    pub(crate) fn of_this_cpu() -> Vector {
        #[cfg(target_arch = "x86_64")]
        {
            if has_avx512() {
                return Vector::Avx512;
            }
            if has_avx2() {
                return Vector::Avx2;
            }
        }
        Vector::Plain
    }
}

/// Whether this CPU has the AVX-512 features the pair counter is compiled for. The AVX-512
/// keeping loops of the quadrant joins need only F and popcnt, a subset. BITALG comes with
/// VPOPCNTDQ and BW on every CPU that has them (Ice Lake and later, Zen 4 and later), so asking
/// for it turns none away.
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_avx512() -> bool {
    use std::arch::is_x86_feature_detected as has;
    static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HAS.get_or_init(|| {
        has!("avx512f")
            && has!("avx512vpopcntdq")
            && has!("avx512bw")
            && has!("avx512vl")
            && has!("avx512bitalg")
            && has!("popcnt")
            && has!("bmi2")
    })
}

/// Whether this CPU has AVX2, popcnt and BMI2.
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_avx2() -> bool {
    use std::arch::is_x86_feature_detected as has;
    static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HAS.get_or_init(|| has!("avx2") && has!("popcnt") && has!("bmi2"))
}

/// Whether this CPU has the bit-manipulation instructions of x86-64-v3 (BMI1, BMI2, LZCNT) that
/// the backtrack's second build uses.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn has_bmi() -> bool {
    use std::arch::is_x86_feature_detected as has;
    has!("bmi1") && has!("bmi2") && has!("lzcnt")
}

/// Whether `pext` is fast on this CPU: on every x86-64 CPU with BMI2 but AMD's (and Hygon's)
/// before Zen 3 (family 0x19), which run it in microcode (tens to hundreds of cycles, by
/// published instruction tables).
#[cfg(target_arch = "x86_64")]
pub(crate) fn fast_pext() -> bool {
    static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FAST.get_or_init(|| {
        use std::arch::x86_64::__cpuid;
        const AMD: u32 = u32::from_le_bytes(*b"Auth");
        const HYGON: u32 = u32::from_le_bytes(*b"Hygo");
        let vendor = __cpuid(0).ebx;
        let eax = __cpuid(1).eax;
        let base = eax >> 8 & 0xf;
        let family = base + if base == 0xf { eax >> 20 & 0xff } else { 0 };
        !((vendor == AMD || vendor == HYGON) && family < 0x19)
    })
}

/// The instructions the backtrack runs with on this CPU.
pub(crate) fn backtrack() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if has_bmi() {
        return "bmi1, bmi2, lzcnt";
    }
    "portable"
}

/// The instructions the pair counter and the quadrant joins run with on this CPU.
pub(crate) fn join() -> &'static str {
    match Vector::of_this_cpu() {
        Vector::Avx512 => "avx512 (f, bw, vl, vpopcntdq, bitalg), bmi2",
        #[cfg(target_arch = "x86_64")]
        Vector::Avx2 if !fast_pext() => "avx2, bmi2 (pext by tables: slow on this CPU)",
        Vector::Avx2 => "avx2, bmi2",
        Vector::Plain => "portable",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_is_named() {
        assert!(!backtrack().is_empty());
        assert!(!join().is_empty());
        #[cfg(target_arch = "x86_64")]
        if has_avx512() {
            assert!(has_avx2(), "every AVX-512 CPU with these features has AVX2");
        }
    }
}
