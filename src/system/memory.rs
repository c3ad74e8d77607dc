//! How much memory this process may still take: the least of what the machine has free, what its
//! control group (a Slurm job, a container) allows, and its address-space limit (`ulimit -v`).
//!
//! The join engine asks before it builds its tables, so that a board whose tables would not fit is
//! refused (or counted by another engine) at once, instead of aborting the process when an
//! allocation fails.

use std::cell::Cell;
use std::fs;

thread_local! {
    /// How deep this thread is in reservations whose refusal its caller handles ([`fallibly`]).
    static FALLIBLE: Cell<u32> = const { Cell::new(0) };
}

/// Runs `reserve`, a reservation whose refusal the caller handles (`try_reserve`), so that an
/// allocator that ends the process on a refused allocation ([`refusal_is_handled`]) lets this
/// one return its error.
pub(crate) fn fallibly<T>(reserve: impl FnOnce() -> T) -> T {
    FALLIBLE.with(|depth| depth.set(depth.get() + 1));
    let result = reserve();
    FALLIBLE.with(|depth| depth.set(depth.get() - 1));
    result
}

/// Whether an allocation refused on this thread now would be handled by its caller: it is one
/// of the library's own reservations (`try_reserve`, marked as such). Any other refused
/// allocation ends the process (Rust's runtime aborts): a global allocator may say so in its
/// own words first. It allocates nothing, so it may be called from inside an allocator.
pub fn refusal_is_handled() -> bool {
    FALLIBLE.try_with(|depth| depth.get() > 0).unwrap_or(false)
}

/// Keeps malloc to one arena when the address space is limited (glibc on Linux; elsewhere
/// nothing to do), and says whether it did: a program using the library's memory budget calls
/// it first, before it starts a thread.
///
/// glibc gives each thread that allocates its own arena, and reserves 64 MiB of address space
/// for each, as far as the limit lets it: under `ulimit -v` the join engine's budget (the limit
/// less what the process has mapped) then depended on how many arenas the limit happened to
/// leave room for, so a larger limit could give a smaller budget. Under a finite limit one arena
/// makes the budget grow with the limit. (The join engine allocates its buffers once per thread,
/// so one arena costs it nothing measurable.)
pub fn one_arena_under_a_limit() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes one rlimit through a valid pointer.
        let read = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
        if read && limit.rlim_cur != libc::RLIM_INFINITY {
            // SAFETY: mallopt only sets a malloc parameter, under malloc's own lock.
            return unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) } == 1;
        }
    }
    false
}

/// Bytes this process may still allocate, as far as the system says; `None` when it says
/// nothing (no limit could be read). The three sources are Linux's (`/proc`, cgroups) and
/// Unix's (`getrlimit`): elsewhere (Windows) none is read, and on macOS only `ulimit -v`; with
/// none, the join engine's budget is unbounded unless one is given (`--memory`).
pub(crate) fn available() -> Option<u64> {
    let cgroup = fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    [
        meminfo_available(&fs::read_to_string("/proc/meminfo").unwrap_or_default()),
        cgroup_room(&cgroup, &|path| fs::read_to_string(path).ok()),
        address_space_room(&fs::read_to_string("/proc/self/status").unwrap_or_default()),
    ]
    .into_iter()
    .flatten()
    .min()
}

/// The address space this process may still map under `ulimit -v`; `None` without a limit.
pub(crate) fn address_space_left() -> Option<u64> {
    address_space_room(&fs::read_to_string("/proc/self/status").unwrap_or_default())
}

/// `MemAvailable` of /proc/meminfo, in bytes.
fn meminfo_available(meminfo: &str) -> Option<u64> {
    kib_field(meminfo, "MemAvailable:")
}

/// The `field` of a /proc file whose value is in kB, in bytes.
fn kib_field(text: &str, field: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// Limit less usage of this process's memory control group (cgroup v2 `memory.max` and
/// `memory.current`, or v1 `memory.limit_in_bytes` and `memory.usage_in_bytes`), looked up in
/// its own group and in the root of the mount (where a container sees its group); `read` reads a
/// file.
fn cgroup_room(proc_self_cgroup: &str, read: &dyn Fn(&str) -> Option<String>) -> Option<u64> {
    let number = |path: String| read(&path)?.trim().parse::<u64>().ok();
    let mut rooms = Vec::new();
    for line in proc_self_cgroup.lines() {
        // "0::/path" (v2) or "4:memory:/path" (v1)
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next(), fields.next(), fields.next());
        let Some(path) = path else { continue };
        let path = path.trim_end_matches('/');
        let (base, limit, usage) = match controllers {
            Some("") => ("/sys/fs/cgroup", "memory.max", "memory.current"),
            Some(c) if c.split(',').any(|c| c == "memory") => (
                "/sys/fs/cgroup/memory",
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
            ),
            _ => continue,
        };
        for dir in [format!("{base}{path}"), base.to_string()] {
            // "max" (v2) does not parse: no limit.
            if let Some(limit) = number(format!("{dir}/{limit}")) {
                let used = number(format!("{dir}/{usage}")).unwrap_or(0);
                rooms.push(limit.saturating_sub(used));
            }
        }
    }
    rooms.into_iter().min()
}

/// The address-space limit (`RLIMIT_AS`, `ulimit -v`) less what the process has mapped
/// (`VmSize` of /proc/self/status).
#[cfg(unix)]
fn address_space_room(status: &str) -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit through a valid pointer and touches nothing else.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0
        || limit.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    let mapped = kib_field(status, "VmSize:").unwrap_or(0);
    Some(limit.rlim_cur.saturating_sub(mapped))
}

/// No address-space limit is read outside Unix: the budget then rests on the other two.
#[cfg(not(unix))]
fn address_space_room(_status: &str) -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without an address-space limit, as the tests run, malloc keeps its arenas.
    #[test]
    fn no_limit_keeps_malloc_s_arenas() {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes one rlimit through a valid pointer.
        assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) }, 0);
        if limit.rlim_cur == libc::RLIM_INFINITY {
            assert!(!one_arena_under_a_limit());
        }
    }

    #[test]
    fn meminfo_is_read_in_bytes() {
        let text = "MemTotal:  24000000 kB\nMemAvailable:   1000 kB\n";
        assert_eq!(meminfo_available(text), Some(1_024_000));
        assert_eq!(meminfo_available("MemTotal: 5 kB\n"), None);
    }

    #[test]
    fn a_cgroup_limit_less_its_usage() {
        let files = |path: &str| match path {
            "/sys/fs/cgroup/job/memory.max" => Some("1000\n".to_string()),
            "/sys/fs/cgroup/job/memory.current" => Some("400\n".to_string()),
            "/sys/fs/cgroup/memory.max" => Some("max\n".to_string()),
            "/sys/fs/cgroup/memory/slurm/memory.limit_in_bytes" => Some("5000".to_string()),
            "/sys/fs/cgroup/memory/slurm/memory.usage_in_bytes" => Some("1000".to_string()),
            _ => None,
        };
        assert_eq!(cgroup_room("0::/job\n", &files), Some(600));
        assert_eq!(cgroup_room("4:memory:/slurm\n", &files), Some(4000));
        assert_eq!(cgroup_room("0::/\n", &files), None);
        assert_eq!(cgroup_room("3:cpuset:/job\n", &files), None);
    }

    #[test]
    fn there_is_an_answer_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(available().is_some_and(|bytes| bytes > 0));
        }
    }
}
