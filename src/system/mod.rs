//! What this machine and process offer, asked of the system: the instruction sets of the CPU
//! ([`isa`]), the memory the process may take ([`memory`]), CPU clocks ([`time`]), and the
//! thread pools every part of the library runs on.

pub(crate) mod isa;
pub mod memory;
pub(crate) mod time;

use crate::Error;

/// The stack each worker thread reserves: the engines keep their stacks explicit and small, and
/// a fixed size lets a refusal say what the threads need.
const STACK_BYTES: usize = 2 << 20;

/// What a thread maps beside its stack (guard pages, the runtime's signal stack), with room.
const THREAD_EXTRA_BYTES: u64 = 256 << 10;

/// Runs `work` on a pool of `threads` workers (at least one): on the pool it is called from,
/// when that has as many (the phases of one run, such as an estimate's plan, space and draws,
/// share one pool, and a benchmark times counts, not pool start-ups), or on a new one
/// ([`pool`]).
pub(crate) fn on_pool<T: Send>(
    threads: usize,
    work: impl FnOnce() -> T + Send,
) -> Result<T, Error> {
    let threads = threads.max(1);
    if rayon::current_thread_index().is_some() && rayon::current_num_threads() == threads {
        return Ok(work());
    }
    Ok(pool(threads)?.install(work))
}

/// Whether `threads` workers and `helpers` other threads (of the standard library's default
/// stack) fit in the address space left under `ulimit -v`, asked without starting any: the
/// error says what they need. Without such a limit, nothing is known to stop them.
pub(crate) fn room_for(threads: usize, helpers: usize) -> Result<(), Error> {
    let needed = (threads * STACK_BYTES) as u64
        + (helpers as u64) * HELPER_STACK_BYTES
        + (threads + helpers) as u64 * THREAD_EXTRA_BYTES;
    match memory::address_space_left() {
        Some(left) if left < needed => Err(Error::Pool {
            threads,
            needed,
            reason: format!("{} MiB of address space is left", left >> 20),
        }),
        _ => Ok(()),
    }
}

/// The stack of a thread the standard library starts with its defaults.
const HELPER_STACK_BYTES: u64 = 2 << 20;

/// A rayon pool of `threads` workers (at least one), the one way the library starts threads: an
/// error that says what they need, not a panic, when the system refuses them.
pub(crate) fn pool(threads: usize) -> Result<rayon::ThreadPool, Error> {
    let threads = threads.max(1);
    // Under `ulimit -v`, threads that would not fit are not started: one that started and then
    // could not map its signal stack would panic in the runtime, beside the refusal.
    room_for(threads, 0)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(STACK_BYTES)
        .thread_name(|i| format!("nqueens-{i}"))
        .build()
        .map_err(|e| Error::Pool {
            threads,
            needed: (threads * STACK_BYTES) as u64,
            reason: e.to_string(),
        })
}
