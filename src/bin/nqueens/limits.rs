//! The process's allocator, made to say a refused allocation as a refusal (the arena setting
//! its memory budget needs is the library's: `nqueens::memory::one_arena_under_a_limit`).
//!
//! An allocation that nothing could refuse and the system refuses would end the process with
//! Rust's abort (its own message, a backtrace under `RUST_BACKTRACE`, status 134): the allocator
//! says it as a refusal instead, and exits with status 1 ([`Refusing`]). Any other abort keeps
//! its default action (a core dump, status 134).

use std::alloc::{GlobalAlloc, Layout, System};

/// The system's allocator, which ends the process with a refusal in the program's words when
/// the system refuses an allocation that nothing could refuse. The library's own fallible
/// reservations ([`nqueens::memory::refusal_is_handled`]) still get their null and refuse in
/// their own words.
pub struct Refusing;

/// `allocation` when it was made; otherwise, unless the caller handles the refusal, the end of
/// the process with a line on stderr that says what was refused and what to do.
fn made(allocation: *mut u8, size: usize) -> *mut u8 {
    if allocation.is_null() && !nqueens::memory::refusal_is_handled() {
        refuse(size);
    }
    allocation
}

/// Says that `size` bytes were refused and exits with status 1, allocating nothing (the
/// allocator is what failed): a fixed buffer, write(2) and _exit(2). A checkpoint is at worst
/// left with a torn last record, which the next run redoes, and a shard's file is written whole
/// or not at all.
fn refuse(size: usize) -> ! {
    let mut line = [0u8; 320];
    let mut len = 0;
    let mut put = |bytes: &[u8]| {
        let n = bytes.len().min(line.len() - len);
        line[len..len + n].copy_from_slice(&bytes[..n]);
        len += n;
    };
    put(b"error: out of memory: the system refused this run ");
    put(decimal(size.div_ceil(1 << 20).max(1), &mut [0u8; 20]));
    put(
        b" MiB more (ulimit -v, its control group or the machine's memory): give it more \
memory, or fewer threads (-j) or a smaller --memory budget\n",
    );
    #[cfg(unix)]
    // SAFETY: write(2) and _exit(2) take a valid buffer of `len` bytes and a status.
    unsafe {
        libc::write(2, line.as_ptr().cast(), len);
        libc::_exit(1);
    }
    #[cfg(not(unix))]
    {
        use std::io::Write;
        let _ = std::io::stderr().write_all(&line[..len]);
        std::process::exit(1);
    }
}

// SAFETY: every method hands its arguments to `System` unchanged, under the same contract.
unsafe impl GlobalAlloc for Refusing {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is System's.
        made(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is System's.
        made(unsafe { System.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract is System's.
        made(unsafe { System.realloc(ptr, layout, new_size) }, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is System's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// `k` in decimal digits, written into `buffer` without allocating.
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
