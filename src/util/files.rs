//! Writing a whole output file (a shard result, an export, a chart) without destroying what it
//! replaces.
//!
//! [`write()`] is the one way the program writes such a file (and the way for a library user
//! writing a shard's [`crate::cluster::PartialResult`]):
//! - a **regular file, or a new path**, is replaced atomically: the bytes go to a temporary file
//!   in the same folder, which is synced and renamed over the target, and the folder is synced.
//!   A reader (or a crash) sees the old file or the new one, never half of one. A new file gets
//!   the umask's mode (0644 under the usual 022), a replaced one keeps its own mode;
//! - a **symbolic link** is followed: its target is written (atomically, when the target is a
//!   regular file or does not exist yet) and the link stays a link;
//! - a **device, FIFO or socket** (`-o /dev/null`, `-o /dev/stdout`, a named pipe) is written
//!   through in place: it is never replaced by a regular file.
//!
//! The checkpoint is not written here: it is a journal appended in place under a lock (see
//! [`crate::exec::Writer`]).

use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// How many symbolic links [`write`] follows before it gives up (as the kernel's `ELOOP`).
const MAX_LINKS: usize = 40;

/// Writes `bytes` as the whole content of `path`, as the module doc says.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = follow_links(path)?;
    match fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "it is a directory",
        )),
        Ok(meta) if meta.is_file() => replace(&target, bytes, Some(meta.permissions())),
        // A device, FIFO or socket: write through, never replace.
        Ok(_) => OpenOptions::new()
            .write(true)
            .open(&target)?
            .write_all(bytes),
        Err(e) if e.kind() == io::ErrorKind::NotFound => replace(&target, bytes, None),
        Err(e) => Err(e),
    }
}

/// [`write()`], except that a regular file at `path` for which `taken` says why it must stay
/// (another shard's result) is not replaced: the error says why. A new path is made without
/// replacing what another process made there meanwhile (a link, not a rename), so that two
/// writers of one path never lose a result in silence.
pub fn write_unless(
    path: &Path,
    bytes: &[u8],
    taken: &dyn Fn(&Path) -> Option<String>,
) -> io::Result<()> {
    let target = follow_links(path)?;
    let refused = |why: String| io::Error::new(io::ErrorKind::AlreadyExists, why);
    match fs::symlink_metadata(&target) {
        Ok(meta) if meta.is_file() => match taken(&target) {
            Some(why) => Err(refused(why)),
            None => replace(&target, bytes, Some(meta.permissions())),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let tmp = temporary(&target, bytes, None)?;
            match tmp.persist_noclobber(&target) {
                Ok(_) => {
                    sync_folder_of(&target);
                    Ok(())
                }
                Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => match taken(&target) {
                    Some(why) => Err(refused(why)),
                    None => write(path, bytes),
                },
                Err(e) => Err(e.error),
            }
        }
        _ => write(path, bytes),
    }
}

/// Whether [`write()`] can write `path` now, checked before a long run rather than after it:
/// its folder exists, and a new file can be made in it (a file is made and removed) or, for a
/// file that exists, it can be opened for writing (it is not changed). A device, FIFO or socket
/// is taken as writable (opening a FIFO would wait for a reader).
pub fn check_writable(path: &Path) -> io::Result<()> {
    let target = follow_links(path)?;
    match fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "it is a directory",
        )),
        Ok(meta) if meta.is_file() => {
            OpenOptions::new().write(true).open(&target)?;
            probe_folder(&target)
        }
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => probe_folder(&target),
        Err(e) => Err(e),
    }
}

/// A new file can be made beside `path` (as [`write()`]'s temporary file is).
fn probe_folder(path: &Path) -> io::Result<()> {
    let dir = folder(path);
    if !dir.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("its folder {} does not exist", dir.display()),
        ));
    }
    tempfile::Builder::new()
        .prefix(".nqueens-probe.")
        .tempfile_in(dir)
        .map(drop)
        // The probe's own name means nothing to the user: the error says only why the folder
        // takes no new file.
        .map_err(|e| {
            let why = e
                .raw_os_error()
                .map_or_else(|| io::Error::from(e.kind()), io::Error::from_raw_os_error);
            io::Error::new(
                e.kind(),
                format!("no new file can be made in {}: {why}", dir.display()),
            )
        })
}

/// Whether `a` and `b` name the same file: the same file on disk when both exist (links
/// followed), otherwise the same absolute path.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (fs::metadata(a), fs::metadata(b)) {
            return (x.dev(), x.ino()) == (y.dev(), y.ino());
        }
    }
    let absolute = |p: &Path| {
        let p = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        match (
            p.parent().and_then(|d| d.canonicalize().ok()),
            p.file_name(),
        ) {
            (Some(dir), Some(name)) => dir.join(name),
            _ => p,
        }
    };
    absolute(a) == absolute(b)
}

/// `path` with every symbolic link along its last component followed.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a row"
    )))
}

/// Writes `bytes` to a temporary file beside `path` and renames it over `path`; the file gets
/// `mode` (that of the file it replaces), or 0666 less the umask when `None`.
fn replace(path: &Path, bytes: &[u8], mode: Option<Permissions>) -> io::Result<()> {
    let tmp = temporary(path, bytes, mode)?;
    tmp.persist(path).map_err(|e| e.error)?;
    sync_folder_of(path);
    Ok(())
}

/// A synced temporary file beside `path` holding `bytes`, with `mode` (or 0666 less the umask).
fn temporary(
    path: &Path,
    bytes: &[u8],
    mode: Option<Permissions>,
) -> io::Result<tempfile::NamedTempFile> {
    let dir = folder(path);
    if !dir.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("its folder {} does not exist", dir.display()),
        ));
    }
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let prefix = format!(".{name}.");
    let mut tmp = tempfile::Builder::new();
    tmp.prefix(&prefix).suffix(".tmp");
    // open(2) takes the umask off this mode, as it does for any new file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.permissions(Permissions::from_mode(0o666));
    }
    let mut tmp = tmp.tempfile_in(dir)?;
    if let Some(mode) = mode {
        tmp.as_file().set_permissions(mode)?;
    }
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    Ok(tmp)
}

/// The folder `path` names its file in (`.` for a bare file name).
fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Makes a new name (a rename, a created file) in the folder of `path` durable, where the system
/// allows it (not everywhere possible or needed, so a failure is not an error).
pub fn sync_folder_of(path: &Path) {
    let dir = folder(path);
    let _ = File::open(dir).and_then(|d| d.sync_all());
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::fs::{symlink, FileTypeExt};

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn a_new_file_gets_the_umask_mode_and_a_replaced_one_keeps_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        write(&path, b"one").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"one");
        // What open(2) gives a new file under the process's umask.
        let probe = dir.path().join("probe");
        File::create(&probe).unwrap();
        assert_eq!(mode(&path), mode(&probe));
        assert_ne!(mode(&path), 0o600, "a temporary file's mode leaked out");
        fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
        write(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(mode(&path), 0o640);
        // No temporary file is left behind.
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 2);
    }

    #[test]
    fn a_link_is_written_through_and_stays_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        let link = dir.path().join("link.json");
        fs::write(&real, "old").unwrap();
        symlink("real.json", &link).unwrap();
        write(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&real).unwrap(), b"new");
        // A dangling link: its target is created.
        let dangling = dir.path().join("dangling");
        symlink("made.json", &dangling).unwrap();
        write(&dangling, b"made").unwrap();
        assert_eq!(fs::read(dir.path().join("made.json")).unwrap(), b"made");
    }

    #[test]
    fn a_fifo_is_written_through_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        // Made by a call, not by running `mkfifo`: a child process starts as a fork of this
        // test binary, holding for an instant every file the other tests have open, and the
        // `flock` of one's checkpoint with them (seen once: its reopening refused as locked).
        let path = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
        // SAFETY: `path` is a NUL-terminated string that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).unwrap())
        };
        write(&fifo, b"through the pipe").unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }

    #[test]
    fn dev_null_stays_a_device() {
        write(Path::new("/dev/null"), b"nothing").unwrap();
        assert!(fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
    }

    #[test]
    fn a_missing_folder_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let e = write(&dir.path().join("no/such/out.json"), b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(e.to_string().starts_with("its folder "), "{e}");
        assert!(e.to_string().ends_with("no/such does not exist"), "{e}");
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let e = write(dir.path(), b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::IsADirectory);
    }
}
