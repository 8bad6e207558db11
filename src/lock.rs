//! The advisory lock of a checkpoint file: `flock` on `FILE.lock` beside it (the checkpoint
//! itself is replaced by every save, so a lock on it would not outlive the first rename). Held
//! for the run, released when the process ends however it ends; a second run on the same file
//! is refused at once. The lock file is left in place (removing it would let two runs lock two
//! different files of one name). Off Unix there are no locks.
//!
//! May call: the standard library and `libc`; nothing else of the crate.

use std::fs::File;
use std::path::Path;

/// A held lock (dropping it, or the end of the process, releases it).
#[derive(Debug)]
pub struct Lock(#[allow(dead_code)] File);

/// `FILE.lock`, beside `FILE`.
pub fn path_of(path: &Path) -> std::path::PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    path.with_file_name(name)
}

/// Locks the checkpoint `path`, or says why not. `Ok(None)` when the file system has no
/// locks (some network file systems): a warning, and the run goes on unlocked.
#[cfg(unix)]
pub fn acquire(path: &Path) -> anyhow::Result<Option<Lock>> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;

    use anyhow::{bail, Context};

    let lock_path = path_of(path);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&lock_path)
        .with_context(|| {
            format!(
                "cannot open the lock file {} of the checkpoint",
                lock_path.display()
            )
        })?;
    // SAFETY: `flock` on a descriptor this function owns (the file stays open while the
    // `Lock` lives); no memory is passed.
    let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if locked == 0 {
        return Ok(Some(Lock(file)));
    }
    let err = std::io::Error::last_os_error();
    if err.kind() == std::io::ErrorKind::WouldBlock {
        bail!(
            "the checkpoint {} is in use by another run (it holds the lock {}): wait for \
             that run to end, or give this one another file",
            path.display(),
            lock_path.display()
        );
    }
    eprintln!(
        "queens: warning: cannot lock {} ({err}); going on without a lock: make sure no \
         other run uses {}",
        lock_path.display(),
        path.display()
    );
    Ok(None)
}

/// No locks off Unix.
#[cfg(not(unix))]
pub fn acquire(_path: &Path) -> anyhow::Result<Option<Lock>> {
    Ok(None)
}
