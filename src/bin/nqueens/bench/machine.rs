//! The header of a benchmark: what makes its numbers comparable with another machine's.

use serde::Serialize;

/// The machine and the build a benchmark ran on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Machine {
    /// CPU model name.
    pub cpu: String,
    /// Logical cores (hardware threads).
    pub logical_cores: usize,
    /// Physical cores.
    pub physical_cores: usize,
    /// Operating system and version.
    pub os: String,
    /// nqueens version.
    pub nqueens_version: String,
    /// Short git commit of the build, or "unknown".
    pub git_commit: String,
    /// Cargo profile of the build ("release" or "debug").
    pub build_profile: String,
    /// Target features the compiler could use, comma-separated (e.g. "fxsr,sse,sse2").
    pub target_features: String,
    /// The instructions the engines chose on this CPU at run time (the build carries code for
    /// several): what the kernels ran, where `target_features` is only the build's floor.
    pub dispatch: String,
    /// Runnable processes averaged over the minute before the benchmark (0 where the OS does not
    /// say): above the core count, other work was competing for the cores.
    pub load_average: f64,
}

impl Machine {
    /// The machine this process runs on, and the build it runs (baked in by `build.rs`).
    pub fn detect() -> Machine {
        use sysinfo::{CpuRefreshKind, RefreshKind, System};
        let system =
            System::new_with_specifics(RefreshKind::nothing().with_cpu(CpuRefreshKind::nothing()));
        let cpu = system
            .cpus()
            .first()
            .map(|c| c.brand().trim().to_string())
            .filter(|b| !b.is_empty())
            .unwrap_or_else(|| "unknown".to_string());
        Machine {
            cpu,
            logical_cores: num_cpus::get(),
            physical_cores: num_cpus::get_physical(),
            os: System::long_os_version().unwrap_or_else(|| std::env::consts::OS.to_string()),
            nqueens_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: env!("NQUEENS_GIT_COMMIT").to_string(),
            build_profile: env!("NQUEENS_BUILD_PROFILE").to_string(),
            target_features: env!("NQUEENS_TARGET_FEATURES").to_string(),
            dispatch: nqueens::dispatch(),
            load_average: System::load_average().one,
        }
    }

    /// The header as (label, value) lines, for the text and Markdown summaries.
    pub fn lines(&self) -> [(&'static str, String); 6] {
        [
            (
                "cpu",
                format!(
                    "{} ({} logical, {} physical cores)",
                    self.cpu, self.logical_cores, self.physical_cores
                ),
            ),
            ("os", self.os.clone()),
            (
                "nqueens",
                format!(
                    "{} (commit {}, {} build)",
                    self.nqueens_version, self.git_commit, self.build_profile
                ),
            ),
            (
                "features",
                format!("{} (the build's floor)", self.target_features),
            ),
            ("dispatch", self.dispatch.clone()),
            (
                "load",
                format!("{:.2} (1-minute average at the start)", self.load_average),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detect_fills_every_field() {
        let m = Machine::detect();
        assert!(m.logical_cores >= 1 && m.physical_cores >= 1);
        assert!(!m.cpu.is_empty() && !m.os.is_empty() && !m.git_commit.is_empty());
        assert_eq!(m.nqueens_version, env!("CARGO_PKG_VERSION"));
        assert!(["debug", "release"].contains(&m.build_profile.as_str()));
        assert!(m.dispatch.starts_with("backtrack ") && m.dispatch.contains("; join "));
    }
}

/// The CPU time the whole machine and this process had spent at one moment, so that the CPU
/// other processes took between then and later can be told: their work slows the runs, and a
/// load average sampled once before the benchmark does not show it.
#[derive(Debug, Clone, Copy)]
pub struct CpuMark {
    machine: f64,
    own: f64,
}

impl CpuMark {
    /// Now; `None` where the system does not say (it is read from `/proc/stat` on Linux).
    pub fn now() -> Option<CpuMark> {
        Some(CpuMark {
            machine: machine_busy_seconds()?,
            own: own_cpu_seconds()?,
        })
    }

    /// CPU seconds other processes took since this mark (never below 0: the two clocks tick
    /// apart).
    pub fn others_since(&self) -> Option<f64> {
        let now = CpuMark::now()?;
        Some(((now.machine - self.machine) - (now.own - self.own)).max(0.0))
    }
}

/// CPU seconds every core of the machine has been busy since boot: the first line of
/// `/proc/stat` (user, nice, system, irq, softirq and steal, in clock ticks; not idle or iowait).
#[cfg(target_os = "linux")]
fn machine_busy_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let fields: Vec<f64> = stat
        .lines()
        .next()?
        .strip_prefix("cpu ")?
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal (guest time is inside user already).
    let busy: f64 = [0, 1, 2, 5, 6, 7]
        .iter()
        .filter_map(|&i| fields.get(i))
        .sum();
    // SAFETY: sysconf only reads a system constant.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (ticks > 0).then(|| busy / ticks as f64)
}

#[cfg(not(target_os = "linux"))]
fn machine_busy_seconds() -> Option<f64> {
    None
}

/// CPU seconds this process has spent, every thread counted.
#[cfg(unix)]
fn own_cpu_seconds() -> Option<f64> {
    // SAFETY: getrusage writes into the zeroed struct it is given and reads nothing else.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        (libc::getrusage(libc::RUSAGE_SELF, &mut usage) == 0).then_some(usage)
    }?;
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Some(seconds(usage.ru_utime) + seconds(usage.ru_stime))
}

#[cfg(not(unix))]
fn own_cpu_seconds() -> Option<f64> {
    None
}
