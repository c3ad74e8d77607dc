//! What this CPU can run: the one place the hot loops ask which of their builds to take.
//!
//! The backtrack (`kernel`), the quadrant joins (`engines::join::half`) and the pair counter
//! (`engines::join::pairs`) are each compiled more than once with `#[target_feature]`, and call
//! the build this module names. Each answer is computed once and cached: the quadrant joins ask
//! many times per row set, and feature checks in the hot path cost measurable instructions.
//!
//! `NQUEENS_ISA=portable|avx2|avx512` caps the paths at the one named (to compare them, or to
//! measure what a machine without the faster ones gets); [`requested`] says whether this CPU
//! has it, and the program refuses it when it does not.

/// The environment variable that caps the paths.
pub(crate) const VARIABLE: &str = "NQUEENS_ISA";

/// The path `NQUEENS_ISA` names, if any: `Ok(None)` when it is not set, an error naming the
/// problem when it names no path or one this CPU lacks.
pub(crate) fn requested() -> Result<Option<&'static str>, String> {
    let Ok(value) = std::env::var(VARIABLE) else {
        return Ok(None);
    };
    let asked = match value.trim() {
        "portable" => Vector::Plain,
        "avx2" => Vector::Avx2,
        "avx512" => Vector::Avx512,
        other => {
            return Err(format!(
                "{VARIABLE}={other:?} names no instruction set: give portable, avx2 or avx512"
            ))
        }
    };
    let best = fastest();
    if asked > best {
        return Err(format!(
            "{VARIABLE}={} asks for instructions this CPU lacks: it has {}",
            value.trim(),
            [Vector::Avx512, Vector::Avx2, Vector::Plain]
                .into_iter()
                .filter(|v| *v <= best)
                .map(Vector::name)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(Some(asked.name()))
}

/// The most `NQUEENS_ISA` allows (every path when it is not set, or names none).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn cap() -> Vector {
    static CAP: std::sync::OnceLock<Vector> = std::sync::OnceLock::new();
    *CAP.get_or_init(|| match std::env::var(VARIABLE).as_deref().map(str::trim) {
        Ok("portable") => Vector::Plain,
        Ok("avx2") => Vector::Avx2,
        _ => Vector::Avx512,
    })
}

/// The fastest path this CPU has, whatever the cap.
fn fastest() -> Vector {
    #[cfg(target_arch = "x86_64")]
    {
        if detected_avx512() {
            return Vector::Avx512;
        }
        if detected_avx2() {
            return Vector::Avx2;
        }
    }
    Vector::Plain
}

/// The vector instructions of the quadrant joins and the pair counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Vector {
    /// Neither: the portable loops.
    Plain,
    /// AVX2, popcnt and BMI2.
    Avx2,
    /// AVX-512 F, BW, VL, VPOPCNTDQ and BITALG, popcnt and BMI2.
    Avx512,
}

impl Vector {
    /// Its name in `NQUEENS_ISA`.
    fn name(self) -> &'static str {
        match self {
            Vector::Plain => "portable",
            Vector::Avx2 => "avx2",
            Vector::Avx512 => "avx512",
        }
    }

    /// The fastest this CPU has, within the cap.
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
    static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HAS.get_or_init(|| detected_avx512() && cap() >= Vector::Avx512)
}

/// Whether the CPU has the features of [`has_avx512`], whatever the cap.
#[cfg(target_arch = "x86_64")]
fn detected_avx512() -> bool {
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
    static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HAS.get_or_init(|| detected_avx2() && cap() >= Vector::Avx2)
}

/// Whether the CPU has the features of [`has_avx2`], whatever the cap.
#[cfg(target_arch = "x86_64")]
fn detected_avx2() -> bool {
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
    static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    // x86-64-v3's bit instructions come with AVX2: the portable path does without them.
    *HAS.get_or_init(|| has!("bmi1") && has!("bmi2") && has!("lzcnt") && cap() >= Vector::Avx2)
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
