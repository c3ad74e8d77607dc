//! The program's two streams: results on stdout, checked to be open, and notes on stderr, which
//! never panic when stderr cannot be written (a full disk under a Slurm log, a closed descriptor).

use std::io::{self, Write};

/// Standard output for a result: an error, not silence, when descriptor 1 is closed (Rust's
/// stdout drops writes to a closed descriptor without a word, so `count 8 >&-` would lose its
/// result and exit 0).
pub fn stdout() -> io::Result<io::Stdout> {
    if !stdout_open() {
        return Err(io::Error::other("standard output is closed"));
    }
    Ok(io::stdout())
}

/// Writes `bytes` to stdout and flushes it: a result that cannot be printed is an error.
pub fn print(bytes: impl AsRef<[u8]>) -> io::Result<()> {
    let mut out = stdout()?.lock();
    out.write_all(bytes.as_ref())?;
    out.flush()
}

/// Writes `text` that is no result (help, version, a completion script, a manual page) to
/// stdout: a reader that closed the pipe had enough of it, so a broken pipe is success, whether
/// the reader closed before the write or after it. Any other failure is an error.
pub fn print_text(text: impl AsRef<[u8]>) -> io::Result<()> {
    match print(text) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        done => done,
    }
}

/// Writes `message` and a newline to stderr, whatever becomes of it: when stderr cannot be
/// written there is nowhere left to say so, and the run's result (its exit status, its files)
/// must not depend on it.
pub fn say(message: &str) {
    say_to(&mut io::stderr().lock(), message);
}

/// [`say`] to `out`: a failed write is dropped, never a panic (`eprintln!` panics).
fn say_to(out: &mut impl Write, message: &str) {
    let _ = writeln!(out, "{message}");
}

/// Whether descriptor 1 was open when the process started. Rust's runtime opens /dev/null on a
/// closed standard descriptor before `main`, so the question is asked earlier, by a function the
/// loader runs first ([`record_stdout`]); elsewhere than Linux the descriptor counts as open.
fn stdout_open() -> bool {
    !STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Set when descriptor 1 was closed at start-up.
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Runs before Rust's runtime starts (an entry of `.init_array`), while a closed descriptor 1 is
/// still closed.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static RECORD_STDOUT: extern "C" fn() = record_stdout;

/// Records whether descriptor 1 is open.
#[cfg(target_os = "linux")]
extern "C" fn record_stdout() {
    // SAFETY: F_GETFD reads the descriptor's flags; it touches no memory.
    let open = unsafe { libc::fcntl(1, libc::F_GETFD) } != -1;
    STDOUT_CLOSED.store(!open, std::sync::atomic::Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream that refuses every write, as a full disk or a closed descriptor does.
    struct Refusing;

    impl Write for Refusing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("no space left on the device"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::Error::other("no space left on the device"))
        }
    }

    #[test]
    fn a_note_is_written_whole_or_dropped_without_a_panic() {
        let mut written = Vec::new();
        say_to(&mut written, "a note");
        assert_eq!(written, b"a note\n");
        say_to(&mut Refusing, "a note nobody can read");
    }
}
