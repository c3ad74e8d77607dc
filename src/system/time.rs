//! CPU time: the calling thread's, which the estimator times its draws by (other processes on
//! the machine do not count), and the whole process's, which a run's records say it took.

use std::time::Duration;

/// CPU seconds this thread has used.
#[cfg(unix)]
pub(crate) fn thread_cpu_seconds() -> f64 {
    cpu_clock(libc::CLOCK_THREAD_CPUTIME_ID).map_or(0.0, |d| d.as_secs_f64())
}

/// The CPU time of this process, all its threads together (zero where it cannot be read).
pub(crate) fn process_cpu() -> Duration {
    #[cfg(unix)]
    return cpu_clock(libc::CLOCK_PROCESS_CPUTIME_ID).unwrap_or_default();
    #[cfg(not(unix))]
    Duration::ZERO
}

/// The CPU clock `clock` (of this thread or this process), when the system reads it.
#[cfg(unix)]
fn cpu_clock(clock: libc::clockid_t) -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write to; `clock` is one of the CPU clocks above.
    let ok = unsafe { libc::clock_gettime(clock, &mut ts) } == 0;
    ok.then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

/// Seconds since the first call: where no per-thread CPU clock is read (not Unix), the
/// estimator times its draws by the wall clock, which counts what else the machine does too.
#[cfg(not(unix))]
pub(crate) fn thread_cpu_seconds() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_clock_moves_with_work() {
        let before = super::thread_cpu_seconds();
        let mut x = 1u64;
        for i in 0..20_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
        }
        assert!(super::thread_cpu_seconds() > before, "{x}");
    }
}
