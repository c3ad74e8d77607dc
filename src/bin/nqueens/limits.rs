//! The process under an address-space limit (`ulimit -v`), made to count its memory the same
//! way whatever the limit.
//!
//! glibc gives each thread that allocates its own arena, and reserves 64 MiB of address space
//! for each, as far as the limit lets it: under `ulimit -v` the join engine's budget (the limit
//! less what the process has mapped) then depended on how many arenas the limit happened to
//! leave room for, so a larger limit could give a smaller budget. Under a finite limit the
//! program keeps to one arena, and the budget grows with the limit. (The join engine allocates
//! its buffers once per thread, so one arena costs it nothing measurable.)
//!
//! An allocation that nothing could refuse and the system refuses ends the process; it is said
//! as a refusal with what the run needs ([`refuse_on_abort`]), not as an abort.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// The system's allocator, noting the size of the last allocation it could not make, for
/// [`refuse_on_abort`]. Fallible reservations (`try_reserve`) still get their null and refuse
/// in their own words; only an allocation nothing could refuse ends the process.
pub struct Noting;

/// Bytes of the last allocation the system refused (0: none yet).
static FAILED: AtomicUsize = AtomicUsize::new(0);

/// Notes `size` when `allocation` is null, and passes it on.
fn noted(allocation: *mut u8, size: usize) -> *mut u8 {
    if allocation.is_null() {
        FAILED.store(size, Ordering::Relaxed);
    }
    allocation
}

// SAFETY: every method hands its arguments to `System` unchanged, under the same contract.
unsafe impl GlobalAlloc for Noting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is System's.
        noted(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is System's.
        noted(unsafe { System.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract is System's.
        noted(unsafe { System.realloc(ptr, layout, new_size) }, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is System's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Turns the abort that follows an allocation nothing could refuse (Rust's runtime aborts the
/// process, status 134) into a refusal: a line that says how much more memory the run needs,
/// and status 1. Any other abort keeps its default action. The handler only writes to stderr
/// and exits: a checkpoint is at worst left with a torn last record, which the next run redoes,
/// and a shard's file is written whole or not at all.
pub fn refuse_on_abort() {
    #[cfg(unix)]
    {
        extern "C" fn on_abort(_: libc::c_int) {
            let size = FAILED.load(Ordering::Relaxed);
            if size == 0 {
                // SAFETY: restores the default action and raises the signal again: both are
                // async-signal-safe.
                unsafe {
                    libc::signal(libc::SIGABRT, libc::SIG_DFL);
                    libc::raise(libc::SIGABRT);
                }
                return;
            }
            let mut line = [0u8; 192];
            let mut len = 0;
            let mut put = |bytes: &[u8]| {
                let n = bytes.len().min(line.len() - len);
                line[len..len + n].copy_from_slice(&bytes[..n]);
                len += n;
            };
            put(b"error: out of memory: this run needs at least ");
            put(decimal(size.div_ceil(1 << 20).max(1), &mut [0u8; 20]));
            put(b" MiB more than this process may take (ulimit -v, its control group or the machine)\n");
            // SAFETY: write(2) and _exit(2) are async-signal-safe; `line` is valid for `len`.
            unsafe {
                libc::write(2, line.as_ptr().cast(), len);
                libc::_exit(1);
            }
        }
        // SAFETY: installs a handler that calls only async-signal-safe functions.
        unsafe {
            libc::signal(libc::SIGABRT, on_abort as *const () as libc::sighandler_t);
        }
    }
}

/// `k` in decimal digits, written into `buffer` without allocating.
#[cfg(any(unix, test))]
fn decimal(mut k: usize, buffer: &mut [u8; 20]) -> &[u8] {
    let mut at = buffer.len();
    loop {
        at -= 1;
        buffer[at] = b'0' + (k % 10) as u8;
        k /= 10;
        if k == 0 {
            return &buffer[at..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_without_allocating() {
        assert_eq!(decimal(0, &mut [0; 20]), b"0");
        assert_eq!(decimal(1234, &mut [0; 20]), b"1234");
        assert_eq!(
            decimal(usize::MAX, &mut [0; 20]),
            usize::MAX.to_string().as_bytes()
        );
    }
}
