//! A checkpoint on the disk: loaded within the size bound of its split (`bound.rs`), saved
//! atomically (a new temporary file beside the target, created exclusively, flushed to the disk,
//! renamed over it), and the temporary files of killed saves found and removed.

use std::collections::hash_map::RandomState;
use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::bound::{head_limit, HeadProblem, HEAD_BYTES};
use super::state::Checkpoint;
use crate::count::types::CountError;

impl Checkpoint {
    /// Loads the checkpoint at `path` for a run of the `n` x `n` board, or `None` when there
    /// is no such file. Only a regular file is read, and no further than the largest
    /// checkpoint its split of `n` can have (`bound.rs`): a file that says it is of another
    /// board is refused after its first lines, one longer than that bound from its size alone.
    pub fn load(path: &Path, n: usize) -> Result<Option<Checkpoint>, CountError> {
        let name = || path.display().to_string();
        let io_error = |source| CountError::CheckpointIo {
            path: name(),
            source,
        };
        let bad = |reason: String| CountError::CheckpointMalformed {
            path: name(),
            reason,
        };
        let file = match File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(io_error(source)),
        };
        let meta = file.metadata().map_err(io_error)?;
        if !meta.is_file() {
            return Err(bad(
                "it is not a regular file (a device, pipe or folder)".to_string()
            ));
        }
        let mut bytes = Vec::new();
        let mut reader = io::Read::take(file, HEAD_BYTES);
        io::Read::read_to_end(&mut reader, &mut bytes).map_err(io_error)?;
        if bytes.len() as u64 == HEAD_BYTES {
            // A long file: its first lines name the board and the split, which bound the rest.
            let head = String::from_utf8_lossy(&bytes);
            let limit = head_limit(&head, n).map_err(|e| match e {
                HeadProblem::Malformed(reason) => bad(reason),
                HeadProblem::OtherBoard(m) => CountError::CheckpointMismatch {
                    path: name(),
                    reason: format!("it is for N = {m}, not N = {n}"),
                },
            })?;
            let too_long = |len: u64| {
                bad(format!(
                    "it is {len} bytes long, more than the {limit} bytes the largest \
                     checkpoint of its split can take"
                ))
            };
            if meta.len() > limit {
                return Err(too_long(meta.len()));
            }
            let mut file = reader.into_inner();
            let mut rest = io::Read::take(&mut file, limit + 1 - HEAD_BYTES);
            io::Read::read_to_end(&mut rest, &mut bytes).map_err(io_error)?;
            if bytes.len() as u64 > limit {
                return Err(too_long(bytes.len() as u64));
            }
        }
        let text =
            String::from_utf8(bytes).map_err(|_| bad("it is not text (not UTF-8)".to_string()))?;
        Checkpoint::from_text(path, &text).map(Some)
    }

    /// Writes the checkpoint to `path` atomically: a new temporary file in the same directory
    /// (named `.NAME.PID.RANDOM.tmp`), given the permission bits of the file it replaces
    /// (where there is one), flushed to the disk, then renamed over `path`.
    pub fn save(&self, path: &Path) -> Result<(), CountError> {
        let io_err = |source| CountError::CheckpointIo {
            path: path.display().to_string(),
            source,
        };
        // Through a symbolic link, the file it points to is replaced and the link kept.
        let target = through_links(path);
        let (mut file, temp) = create_temporary(&target).map_err(io_err)?;
        let written = (|| {
            // The old file's mode is kept (a `chmod` of the checkpoint outlives the saves); the
            // file is written through the descriptor already open, whatever the mode says.
            if let Ok(old) = fs::metadata(&target) {
                file.set_permissions(old.permissions())?;
            }
            file.write_all(self.to_text().as_bytes())?;
            file.sync_all()?;
            drop(file);
            fs::rename(&temp, &target)?;
            sync_parent(&target);
            Ok(())
        })();
        if written.is_err() {
            let _ = fs::remove_file(&temp);
        }
        written.map_err(io_err)
    }
}

/// Creates a new temporary file in the folder of `path`, named after it with the process id
/// and a random number (`.NAME.PID.RANDOM.tmp`), exclusively: `create_new` (`O_CREAT | O_EXCL`)
/// fails on any existing name, a symlink included, so the write can never land in another
/// file, nor in another run's temporary file. Tries a few names.
pub fn create_temporary(path: &Path) -> io::Result<(File, PathBuf)> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "the checkpoint path names no file",
        )
    })?;
    let mut last = None;
    for _ in 0..16 {
        let random = RandomState::new().build_hasher().finish();
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".{}.{random:016x}.tmp", std::process::id()));
        let temp = path.with_file_name(temp_name);
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((file, temp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

/// Whether `file_name` is a temporary file of the checkpoint named `name`, as
/// `create_temporary` names them: `.NAME.PID.RANDOM.tmp`, PID decimal and RANDOM 16
/// hexadecimal digits. Nothing else matches, so no other file of the folder is ever taken
/// for one.
pub fn is_temporary_of(name: &std::ffi::OsStr, file_name: &std::ffi::OsStr) -> bool {
    // Compared as bytes: a name that is not UTF-8 (`ck\xff`) has its temporary files removed too.
    let (name, file) = (name.as_encoded_bytes(), file_name.as_encoded_bytes());
    let Some(rest) = (file.strip_prefix(b".".as_slice()))
        .and_then(|f| f.strip_prefix(name))
        .and_then(|f| f.strip_prefix(b".".as_slice()))
        .and_then(|f| f.strip_suffix(b".tmp".as_slice()))
    else {
        return false;
    };
    let Some(dot) = rest.iter().position(|&b| b == b'.') else {
        return false;
    };
    let (pid, random) = (&rest[..dot], &rest[dot + 1..]);
    !pid.is_empty()
        && pid.iter().all(|b| b.is_ascii_digit())
        && random.len() == 16
        && random.iter().all(|b| b.is_ascii_hexdigit())
}

/// Removes the temporary files that saves of the checkpoint `path` left behind (a process
/// killed between creating its temporary file and renaming it: SIGKILL, a power cut), and
/// returns how many it removed. Only the caller holding the checkpoint's lock may call it:
/// every run that saves holds that lock, so no temporary file of the checkpoint is being
/// written, whatever process id its name carries (a process id says nothing about the
/// processes of another machine sharing the folder). The folder is the one of the file the
/// path resolves to through its links, where saves write. Files that cannot be removed are
/// left, silently: they cost only space.
pub fn remove_stale_temporaries(path: &Path) -> usize {
    let target = through_links(path);
    let Some(name) = target.file_name() else {
        return 0;
    };
    let folder = match target.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    let Ok(entries) = fs::read_dir(folder) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        if !is_temporary_of(name, &entry.file_name()) {
            continue;
        }
        // Only regular files: a link or a folder of that name is not a save's.
        let regular = entry.file_type().is_ok_and(|t| t.is_file());
        if regular && fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// `path` with the symbolic links of its last component followed (at most 40, as Linux's
/// `MAXSYMLINKS`), so that a save through a link replaces the file the link points to, not the
/// link. The target may not exist yet.
fn through_links(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        let Ok(target) = fs::read_link(&path) else {
            break;
        };
        path = match path.parent() {
            Some(folder) => folder.join(target),
            None => target,
        };
    }
    path
}

/// Makes the rename itself durable where the platform allows opening a directory.
fn sync_parent(path: &Path) {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(parent) {
        let _ = dir.sync_all();
    }
}
