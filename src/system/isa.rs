//! What this CPU can run: the one place the hot loops ask which of their builds to take.
//!
//! The backtrack (`kernel`), the quadrant joins (`engines::join::half`) and the pair counter
//! (`engines::join::pairs`) are each compiled more than once with `#[target_feature]`, and call
//! the build this module names. Each answer is computed once and cached: the quadrant joins ask
//! many times per row set, and feature checks in the hot path cost measurable instructions.
//!
//! A function compiled for AVX2 or AVX-512 is reached only through a proof that the CPU has
//! it: [`Avx2`] and [`Avx512`] are tokens of no size that only this module makes, and only
//! after asking the CPU ([`avx2`], [`avx512`], [`Vector::of_this_cpu`]). A function that takes
//! a [`Vector`] may run the path its variant names without checking again.
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
    let Some(asked) = Level::parse(value.trim()) else {
        return Err(format!(
            "{VARIABLE}={:?} names no instruction set: give portable, avx2 or avx512",
            value.trim()
        ));
    };
    let best = fastest();
    if asked > best {
        return Err(format!(
            "{VARIABLE}={} asks for instructions this CPU lacks: it has {}",
            value.trim(),
            Level::ALL
                .into_iter()
                .rev()
                .filter(|v| *v <= best)
                .map(Level::name)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(Some(asked.name()))
}

/// The most `NQUEENS_ISA` allows (every path when it is not set, or names none).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn cap() -> Level {
    static CAP: std::sync::OnceLock<Level> = std::sync::OnceLock::new();
    *CAP.get_or_init(|| {
        let asked = std::env::var(VARIABLE).ok();
        asked
            .and_then(|v| Level::parse(v.trim()))
            .unwrap_or(Level::Avx512)
    })
}

/// The fastest path this CPU has, whatever the cap.
fn fastest() -> Level {
    #[cfg(target_arch = "x86_64")]
    {
        if detected_avx512() {
            return Level::Avx512;
        }
        if detected_avx2() {
            return Level::Avx2;
        }
    }
    Level::Portable
}

/// A path by name, as `NQUEENS_ISA` gives it: no proof that this CPU has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Portable,
    Avx2,
    Avx512,
}

impl Level {
    const ALL: [Level; 3] = [Level::Portable, Level::Avx2, Level::Avx512];

    /// The path `NQUEENS_ISA` names.
    fn parse(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|level| level.name() == name)
    }

    /// Its name in `NQUEENS_ISA`.
    fn name(self) -> &'static str {
        match self {
            Level::Portable => "portable",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
        }
    }
}

/// Proof that this CPU runs the AVX2 paths (AVX2, popcnt and BMI2, within the cap): made by
/// [`avx2`] alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct Avx2(());

/// Proof that this CPU runs the AVX-512 paths (F, BW, VL, VPOPCNTDQ and BITALG, with AVX2,
/// popcnt and BMI2, within the cap): made by [`avx512`] alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct Avx512(());

/// The proof that this CPU runs the AVX2 paths, if it does.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn avx2() -> Option<Avx2> {
    has_avx2().then_some(Avx2(()))
}

/// The proof that this CPU runs the AVX-512 paths, if it does.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn avx512() -> Option<Avx512> {
    has_avx512().then_some(Avx512(()))
}

/// The vector instructions of the quadrant joins, each with the proof that this CPU has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) enum Vector {
    /// Neither: the portable loops.
    Plain,
    /// AVX2, popcnt and BMI2.
    Avx2(Avx2),
    /// AVX-512 F, BW, VL, VPOPCNTDQ and BITALG, popcnt and BMI2.
    Avx512(Avx512),
}

impl Vector {
    /// The fastest this CPU has, within the cap.
    #[inline]
    pub(crate) fn of_this_cpu() -> Vector {
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(proof) = avx512() {
                return Vector::Avx512(proof);
            }
            if let Some(proof) = avx2() {
                return Vector::Avx2(proof);
            }
        }
        Vector::Plain
    }

    /// Every path this CPU has, within the cap, the portable first.
    #[cfg(test)]
    pub(crate) fn all_of_this_cpu() -> Vec<Vector> {
        let mut all = vec![Vector::Plain];
        #[cfg(target_arch = "x86_64")]
        {
            all.extend(avx2().map(Vector::Avx2));
            all.extend(avx512().map(Vector::Avx512));
        }
        all
    }
}

/// Whether this CPU has the AVX-512 features the pair counter is compiled for. The AVX-512
/// keeping loops of the quadrant joins need only F and popcnt, a subset. BITALG comes with
/// VPOPCNTDQ and BW on every CPU that has them so far, so asking for it turns none away.
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_avx512() -> bool {
    static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HAS.get_or_init(|| detected_avx512() && cap() >= Level::Avx512)
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
    *HAS.get_or_init(|| detected_avx2() && cap() >= Level::Avx2)
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
    *HAS.get_or_init(|| has!("bmi1") && has!("bmi2") && has!("lzcnt") && cap() >= Level::Avx2)
}

/// Whether `pext` is fast on this CPU: on every x86-64 CPU with BMI2 but AMD's (and Hygon's)
/// before family 0x19, which run it in microcode (tens to hundreds of cycles, by
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
        Vector::Avx512(_) => "avx512 (f, bw, vl, vpopcntdq, bitalg), bmi2",
        #[cfg(target_arch = "x86_64")]
        Vector::Avx2(_) if !fast_pext() => "avx2, bmi2 (pext by tables: slow on this CPU)",
        Vector::Avx2(_) => "avx2, bmi2",
        Vector::Plain => "portable",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each path's name in `NQUEENS_ISA` is the one `requested` reads back, and the paths
    /// this CPU has are named in order, each proved by its token.
    #[test]
    fn a_path_s_name_reads_back_and_every_path_here_has_its_proof() {
        for level in Level::ALL {
            assert_eq!(Level::parse(level.name()), Some(level));
        }
        assert_eq!(Level::parse("sse2"), None);
        let all = Vector::all_of_this_cpu();
        assert_eq!(all[0], Vector::Plain);
        assert_eq!(*all.last().unwrap(), Vector::of_this_cpu());
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(
                all.len(),
                1 + usize::from(has_avx2()) + usize::from(has_avx512())
            );
            if has_avx512() {
                assert!(has_avx2(), "every AVX-512 CPU with these features has AVX2");
            }
            let named = join();
            match Vector::of_this_cpu() {
                Vector::Avx512(_) => assert!(named.starts_with("avx512"), "{named}"),
                Vector::Avx2(_) => assert!(named.starts_with("avx2"), "{named}"),
                Vector::Plain => assert_eq!(named, "portable"),
            }
        }
    }
}
