//! The process under an address-space limit (`ulimit -v`), made to count its memory the same
//! way whatever the limit.
//!
//! glibc gives each thread that allocates its own arena, and reserves 64 MiB of address space
//! for each, as far as the limit lets it: under `ulimit -v` the join engine's budget (the limit
//! less what the process has mapped) then depended on how many arenas the limit happened to
//! leave room for, so a larger limit could give a smaller budget. Under a finite limit the
//! program keeps to one arena, and the budget grows with the limit. (The join engine allocates
//! its buffers once per thread, so one arena costs it nothing measurable.)

/// Keeps malloc to one arena when the address space is limited (glibc on Linux; elsewhere
/// nothing to do).
pub fn one_arena_under_a_limit() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes one rlimit through a valid pointer; mallopt only sets a
        // malloc parameter, before any other thread is started.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_AS, &mut limit) == 0
                && limit.rlim_cur != libc::RLIM_INFINITY
            {
                libc::mallopt(libc::M_ARENA_MAX, 1);
            }
        }
    }
}
