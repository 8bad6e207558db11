//! The advisory lock of a checkpoint file: `File::try_lock` (`flock`) on `FILE.lock` beside it (the checkpoint
//! itself is replaced by every save, so a lock on it would not outlive the first rename). Held
//! for the run, released when the process ends however it ends; a second run on the same file
//! is refused at once. The lock file is left in place (removing it would let two runs lock two
//! different files of one name).
//!
//! The lock is taken beside the file the path resolves to ([`resolve`]), not beside the path as
//! written: `ln -s l.ck s.ck`, or `dir/../l.ck`, names the same checkpoint as `l.ck` and takes
//! the same lock, so that two runs never count one checkpoint twice over.
//!
//! The run that holds the lock writes its process id and host name into the lock file (`pid
//! 4242 host node17`), so that a run refused names the one in its way: a stopped or hung
//! holder keeps the lock for as long as it lives, and the user must find it.
//!
//! May call: the standard library (`File::try_lock`), `libc` (`O_NOFOLLOW`, `gethostname`),
//! `queens_core::text` (names in messages are shown with their control characters escaped)
//! and [`crate::output::note`] (its warning); nothing else of the crate.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::output::note;

/// A held lock (dropping it, or the end of the process, releases it).
#[derive(Debug)]
pub struct Lock(#[allow(dead_code)] File);

/// `FILE.lock`, beside `FILE`.
pub fn path_of(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    path.with_file_name(name)
}

/// The most symbolic links followed from one path, as Linux's `MAXSYMLINKS`.
const MAX_LINKS: usize = 40;

/// The file `path` names once every symbolic link is followed: the canonical path of an
/// existing file; for one to create (or a link to one), the canonical path of its folder and
/// its name. A path whose folder cannot be resolved (it does not exist) is returned as it is:
/// the save names the error.
pub fn resolve(path: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    // A dangling link (to a checkpoint not made yet) is followed by hand.
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let Ok(target) = std::fs::read_link(&path) else {
            break;
        };
        path = match path.parent() {
            Some(folder) => folder.join(target),
            None => target,
        };
    }
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(folder), path.file_name()) {
        (Ok(folder), Some(name)) => folder.join(name),
        _ => path,
    }
}

/// The host's name (`gethostname`), where it has one that is text.
fn host_name() -> Option<String> {
    #[cfg(unix)]
    {
        let mut buf = [0u8; 256];
        // SAFETY: the buffer is writable for its length; the name is NUL-terminated within it
        // or cut at its end, and only the bytes before the first NUL are read.
        if unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } != 0 {
            return None;
        }
        let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        let name = std::str::from_utf8(&buf[..end]).ok()?;
        (!name.is_empty()).then(|| name.to_string())
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The most bytes of a lock file read to name its holder.
const HOLDER_BYTES: u64 = 512;

/// Writes who holds the lock into the lock `file`: `pid PID host NAME` (best effort: a lock
/// file that cannot be written still locks).
fn write_holder(file: &mut File) {
    use std::io::{Seek, Write};
    let host = host_name().unwrap_or_else(|| "?".to_string());
    let _ = file.set_len(0);
    let _ = file.seek(std::io::SeekFrom::Start(0));
    let _ = writeln!(file, "pid {} host {host}", std::process::id());
    let _ = file.flush();
}

/// Who holds the lock, as the lock file at `lock_path` says (`process 4242 on node17`), where
/// it says so in the form [`write_holder`] writes.
fn holder(lock_path: &Path) -> Option<String> {
    use std::io::Read;
    let mut text = String::new();
    open_lock_to_read(lock_path)?
        .take(HOLDER_BYTES)
        .read_to_string(&mut text)
        .ok()?;
    let mut words = text.lines().next()?.split(' ');
    let (Some("pid"), Some(pid), Some("host"), Some(host), None) = (
        words.next(),
        words.next(),
        words.next(),
        words.next(),
        words.next(),
    ) else {
        return None;
    };
    let pid: u32 = pid.parse().ok()?;
    Some(format!(
        "process {pid} on {}",
        queens_core::text::shorten(host, 80)
    ))
}

/// How a lock file is opened: never through a symbolic link on Unix, and, to read its holder's
/// line, without waiting on a FIFO put in its place (`O_NONBLOCK`); else to lock it, made when
/// missing.
fn lock_options(to_read: bool) -> std::fs::OpenOptions {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    if !to_read {
        options.write(true).create(true).truncate(false);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let nonblock = if to_read { libc::O_NONBLOCK } else { 0 };
        options.custom_flags(libc::O_NOFOLLOW | nonblock);
    }
    options
}

/// The lock file at `lock_path` opened to read, without following a link on Unix.
fn open_lock_to_read(lock_path: &Path) -> Option<File> {
    lock_options(true).open(lock_path).ok()
}

/// The lock file at `lock_path`, made when missing, opened without following a link on Unix.
fn open_lock(lock_path: &Path) -> std::io::Result<File> {
    lock_options(false).open(lock_path)
}

/// [`acquire`] for a command that only reads the checkpoint, once and whole (`count
/// --recount`; a save replaces the file whole, so a read never sees half of one): where the
/// lock file cannot be opened (a read-only mount, a folder it may not write to) it goes on
/// unlocked, `Ok(None)`, instead of refusing. A lock that another run holds is refused as
/// [`acquire`] refuses it: that file is changing.
pub fn acquire_to_read(path: &Path) -> anyhow::Result<Option<Lock>> {
    if open_lock(&path_of(&resolve(path))).is_err() {
        return Ok(None);
    }
    acquire(path)
}

/// Locks the checkpoint `path` (the file it resolves to, [`resolve`]), or says why not.
/// `Ok(None)` when the file system has no locks (some network file systems): a warning, and the
/// run goes on unlocked. The lock is the standard library's [`File::try_lock`] (`flock` on
/// Unix, `LockFileEx` on Windows); on Unix the lock file is opened without following a link.
pub fn acquire(path: &Path) -> anyhow::Result<Option<Lock>> {
    use anyhow::{bail, Context};
    use queens_core::text::escape_path;
    use std::fs::TryLockError;

    let lock_path = path_of(&resolve(path));
    let shown = escape_path;
    let mut file = open_lock(&lock_path).with_context(|| {
        // A folder that is not there is the likeliest cause: said in words.
        let folder = lock_path.parent().filter(|p| !p.as_os_str().is_empty());
        let link = std::fs::symlink_metadata(&lock_path).is_ok_and(|m| m.file_type().is_symlink());
        match folder.filter(|p| !p.is_dir()) {
            _ if link => format!(
                "the lock file {} of the checkpoint is a symbolic link, which is refused (a link \
                 could make two runs lock two files of one checkpoint): remove it, if no run \
                 uses the checkpoint",
                shown(&lock_path)
            ),
            Some(folder) => format!(
                "cannot open the lock file {} of the checkpoint: its folder {} does not exist \
                 (the checkpoint's folder is not made for it)",
                shown(&lock_path),
                shown(folder)
            ),
            None => format!(
                "cannot open the lock file {} of the checkpoint",
                shown(&lock_path)
            ),
        }
    })?;
    match file.try_lock() {
        Ok(()) => {
            write_holder(&mut file);
            Ok(Some(Lock(file)))
        }
        Err(TryLockError::WouldBlock) => {
            let who = holder(&lock_path)
                .map(|who| format!("{who}, which"))
                .unwrap_or_else(|| "it".to_string());
            bail!(
                "the checkpoint {} is in use by another run ({who} holds the lock {}): wait \
                 for that run to end, or give this one another file",
                shown(path),
                shown(&lock_path)
            )
        }
        Err(TryLockError::Error(err)) => {
            note!(
                "queens: warning: cannot lock {} ({err}); going on without a lock: make sure no \
                 other run uses {}",
                shown(&lock_path),
                shown(path)
            );
            Ok(None)
        }
    }
}
