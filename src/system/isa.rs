//! What this CPU can run: the one dispatch of the hot loops to the build for its instructions.
//!
//! The backtrack (`search::kernel`), the quadrant joins (`engines::join::half`) and the pair
//! counter (`engines::join::pairs`) each have one file per *path*, named for it: `portable.rs`,
//! `avx2.rs`, `avx512.rs` (x86-64) and `neon.rs` (aarch64), declared by [`paths!`]. A path's
//! functions take its proof first: [`Portable`], [`Avx2`], [`Avx512`] or [`Neon`], tokens of no
//! size that only this module makes, and only after asking the CPU. A function compiled with
//! `#[target_feature]` is called only behind its token, so the `unsafe` of that call stands
//! once, in the path's file, beside the features the token proves.
//!
//! [`Isa::this_cpu`] chooses the path once per process; [`dispatch!`] calls the chosen path's
//! function of a module. Adding an instruction set is a token and a variant here, an arm in
//! [`dispatch!`] and [`paths!`], one file per hot path, and the tests: the algorithms, which
//! take an [`Isa`] and pass it on, do not change.
//!
//! `NQUEENS_ISA=portable|avx2|avx512|neon` caps the paths at the one named (to compare them, or
//! to measure what a machine without the faster ones gets); [`requested`] says whether this CPU
//! has it, and the program refuses it when it does not.

/// The environment variable that caps the paths.
pub(crate) const VARIABLE: &str = "NQUEENS_ISA";

/// A path by name, as `NQUEENS_ISA` gives it: no proof that this CPU has it. The x86-64 paths
/// in order, each a superset of the one before; NEON is aarch64's only one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Portable,
    Avx2,
    Avx512,
    Neon,
}

impl Level {
    const ALL: [Level; 4] = [Level::Portable, Level::Avx2, Level::Avx512, Level::Neon];

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
            Level::Neon => "neon",
        }
    }

    /// Whether this CPU has the path's instructions, whatever the cap.
    fn detected(self) -> bool {
        match self {
            Level::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => detected_avx2(),
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => detected_avx512(),
            #[cfg(target_arch = "aarch64")]
            Level::Neon => std::arch::is_aarch64_feature_detected!("neon"),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }
}

/// The path `NQUEENS_ISA` names, if any: `Ok(None)` when it is not set, an error naming the
/// problem when it names no path or one this CPU lacks.
pub(crate) fn requested() -> Result<Option<&'static str>, String> {
    let Ok(value) = std::env::var(VARIABLE) else {
        return Ok(None);
    };
    let names = |levels: &mut dyn Iterator<Item = Level>| {
        levels.map(Level::name).collect::<Vec<_>>().join(", ")
    };
    let Some(asked) = Level::parse(value.trim()) else {
        return Err(format!(
            "{VARIABLE}={:?} names no instruction set: give {}",
            value.trim(),
            names(&mut Level::ALL.into_iter())
        ));
    };
    if !asked.detected() {
        return Err(format!(
            "{VARIABLE}={} asks for instructions this CPU lacks: it has {}",
            value.trim(),
            names(&mut Level::ALL.into_iter().rev().filter(|l| l.detected()))
        ));
    }
    Ok(Some(asked.name()))
}

/// The most `NQUEENS_ISA` allows (every path when it is not set, or names none).
fn cap() -> Level {
    let asked = std::env::var(VARIABLE).ok();
    asked
        .and_then(|v| Level::parse(v.trim()))
        .unwrap_or(Level::Neon)
}

/// Proof that this CPU runs the portable paths: any CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Portable(());

impl Portable {
    /// The proof, which any code may hold: for a path that runs the portable code.
    pub(crate) const ANY: Portable = Portable(());
}

/// Proof that this CPU runs the AVX2 paths: AVX2, popcnt and the bit instructions of x86-64-v3
/// (BMI1, BMI2, LZCNT), within the cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg(target_arch = "x86_64")]
pub(crate) struct Avx2(());

/// Proof that this CPU runs the AVX-512 paths: F, BW, VL, VPOPCNTDQ and BITALG, with all that
/// [`Avx2`] proves, within the cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg(target_arch = "x86_64")]
pub(crate) struct Avx512(());

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// The AVX2 proof, which this one implies: for a path that has no AVX-512 code of its own.
    #[inline(always)]
    pub(crate) fn avx2(self) -> Avx2 {
        Avx2(())
    }
}

/// Proof that this CPU runs the NEON paths (AdvSIMD, in every aarch64 CPU), within the cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg(target_arch = "aarch64")]
pub(crate) struct Neon(());

/// A path's proof ([`Portable`], [`Avx2`], …): what a path file's functions take first. Any
/// proof will do for the portable code, so a path with nothing better of its own takes the
/// portable functions as they are (`pub(super) use super::portable::…`).
pub(crate) trait Proof: Copy + Into<Isa> {}

/// Each token is a proof, and names its path.
macro_rules! proofs {
    ($($(#[$cfg:meta])* $token:ident),*) => {$(
        $(#[$cfg])*
        impl From<$token> for Isa {
            fn from(proof: $token) -> Isa {
                Isa::$token(proof)
            }
        }
        $(#[$cfg])*
        impl Proof for $token {}
    )*};
}
proofs!(
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
    #[cfg(target_arch = "aarch64")]
    Neon
);

/// The path the hot loops take, with the proof that this CPU has its instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Isa {
    /// Plain Rust, any CPU.
    Portable(Portable),
    /// AVX2, popcnt, BMI1, BMI2 and LZCNT.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// AVX-512 F, BW, VL, VPOPCNTDQ and BITALG, and all of AVX2's.
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
    /// AdvSIMD (NEON).
    #[cfg(target_arch = "aarch64")]
    Neon(Neon),
}

impl Isa {
    /// The fastest path this CPU has within the cap, chosen once: the joins ask many times per
    /// row set, and feature checks in the hot path cost measurable instructions.
    #[inline]
    pub(crate) fn this_cpu() -> Isa {
        static CHOSEN: std::sync::OnceLock<Isa> = std::sync::OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let cap = cap();
            Isa::all_of_this_cpu()
                .into_iter()
                .rev()
                .find(|isa| isa.level() <= cap)
                .unwrap_or(Isa::Portable(Portable::ANY))
        })
    }

    /// Every path this CPU has, whatever the cap, the portable first and the fastest last.
    pub(crate) fn all_of_this_cpu() -> Vec<Isa> {
        let mut all = vec![Isa::Portable(Portable::ANY)];
        #[cfg(target_arch = "x86_64")]
        {
            all.extend(Level::Avx2.detected().then_some(Isa::Avx2(Avx2(()))));
            all.extend(Level::Avx512.detected().then_some(Isa::Avx512(Avx512(()))));
        }
        #[cfg(target_arch = "aarch64")]
        all.extend(Level::Neon.detected().then_some(Isa::Neon(Neon(()))));
        all
    }

    fn level(self) -> Level {
        match self {
            Isa::Portable(_) => Level::Portable,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2(_) => Level::Avx2,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512(_) => Level::Avx512,
            #[cfg(target_arch = "aarch64")]
            Isa::Neon(_) => Level::Neon,
        }
    }

    /// Its name in `NQUEENS_ISA`.
    #[cfg(test)]
    pub(crate) fn name(self) -> &'static str {
        self.level().name()
    }
}

/// Declares the calling module's path files: `portable.rs`, and `avx2.rs` and `avx512.rs` on
/// x86-64, `neon.rs` on aarch64, beside the module's own file.
macro_rules! paths {
    () => {
        #[cfg(target_arch = "x86_64")]
        mod avx2;
        #[cfg(target_arch = "x86_64")]
        mod avx512;
        #[cfg(target_arch = "aarch64")]
        mod neon;
        mod portable;
    };
}
pub(crate) use paths;

/// `dispatch!(isa, f(args…))`: calls `f` of the calling module's path file that `isa` names
/// (`portable::f`, `avx2::f`, …) with the path's proof first: `avx2::f(proof, args…)`.
macro_rules! dispatch {
    ($isa:expr, $f:ident $(::<$($g:tt),*>)? ($($arg:expr),* $(,)?)) => {
        match $isa {
            $crate::system::isa::Isa::Portable(proof) => {
                portable::$f $(::<$($g),*>)? (proof, $($arg),*)
            }
            #[cfg(target_arch = "x86_64")]
            $crate::system::isa::Isa::Avx2(proof) => avx2::$f $(::<$($g),*>)? (proof, $($arg),*),
            #[cfg(target_arch = "x86_64")]
            $crate::system::isa::Isa::Avx512(proof) => {
                avx512::$f $(::<$($g),*>)? (proof, $($arg),*)
            }
            #[cfg(target_arch = "aarch64")]
            $crate::system::isa::Isa::Neon(proof) => neon::$f $(::<$($g),*>)? (proof, $($arg),*),
        }
    };
}
pub(crate) use dispatch;

/// Whether the CPU has the features of [`Avx512`]. The AVX-512 keeping loops of the quadrant
/// joins need only F and popcnt, a subset. BITALG comes with VPOPCNTDQ and BW on every CPU
/// that has them so far, so asking for it turns none away.
#[cfg(target_arch = "x86_64")]
fn detected_avx512() -> bool {
    use std::arch::is_x86_feature_detected as has;
    detected_avx2()
        && has!("avx512f")
        && has!("avx512vpopcntdq")
        && has!("avx512bw")
        && has!("avx512vl")
        && has!("avx512bitalg")
}

/// Whether the CPU has the features of [`Avx2`].
#[cfg(target_arch = "x86_64")]
fn detected_avx2() -> bool {
    use std::arch::is_x86_feature_detected as has;
    has!("avx2") && has!("popcnt") && has!("bmi1") && has!("bmi2") && has!("lzcnt")
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
    match Isa::this_cpu() {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2(_) | Isa::Avx512(_) => "bmi1, bmi2, lzcnt",
        _ => "portable",
    }
}

/// The instructions the pair counter and the quadrant joins run with on this CPU.
pub(crate) fn join() -> &'static str {
    match Isa::this_cpu() {
        Isa::Portable(_) => "portable",
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512(_) => "avx512 (f, bw, vl, vpopcntdq, bitalg), bmi2",
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2(_) if !fast_pext() => "avx2, bmi2 (pext by tables: slow on this CPU)",
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2(_) => "avx2, bmi2",
        #[cfg(target_arch = "aarch64")]
        Isa::Neon(_) => "neon",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each path's name in `NQUEENS_ISA` is the one `requested` reads back, the paths this CPU
    /// has are listed in order, and the one chosen is the fastest of them within the cap.
    #[test]
    fn a_path_s_name_reads_back_and_the_fastest_within_the_cap_is_chosen() {
        for level in Level::ALL {
            assert_eq!(Level::parse(level.name()), Some(level));
        }
        assert_eq!(Level::parse("sse2"), None);
        let all = Isa::all_of_this_cpu();
        assert_eq!(all[0].level(), Level::Portable);
        assert!(all.windows(2).all(|w| w[0].level() < w[1].level()));
        let chosen = Isa::this_cpu();
        assert!(all.contains(&chosen));
        assert!(all
            .iter()
            .all(|isa| isa.level() <= chosen.level() || isa.level() > cap()));
        assert!(join().starts_with(chosen.name()), "{}", join());
        #[cfg(target_arch = "aarch64")]
        assert!(all.iter().any(|isa| matches!(isa, Isa::Neon(_))));
    }
}
