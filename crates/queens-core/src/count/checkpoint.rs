//! Checkpoint files: which subproblems of a run are counted, and their sum, saved atomically.
//!
//! The idea: a run's state between subproblems is small — one bit per subproblem and two sums —
//! so it is written whole, as a short text file, to a temporary file beside the target, flushed
//! to the disk (`fsync`) and renamed over the target. A rename is atomic on POSIX file systems,
//! so the file is always either the previous or the new state, never a torn one, and a run
//! killed at any moment loses at most the work since the last save. The same command run again
//! loads the file, skips the subproblems it lists and adds the rest, so the final count is
//! exact. Source: the write-to-temporary-then-rename pattern of durable file updates (as in
//! maildir and most databases' control files). Cost: O(subproblems / 4) bytes per save.
//!
//! The format, one `key value` per line:
//!
//! ```text
//! queens-count-checkpoint 1
//! n 18
//! split frame1-v1
//! subproblems 5728
//! shard 0/1
//! finished 2
//! total 480
//! unique 60
//! seconds 0.25
//! done 0000000000000003
//! ```
//!
//! `done` is the bit set of finished subproblems, 16 hexadecimal digits per 64 subproblems.

use std::fmt::Write as _;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::{CountError, Counts, Shard, Tally};

const MAGIC: &str = "queens-count-checkpoint";
const VERSION: &str = "1";

/// The saved state of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    /// The board size.
    pub n: usize,
    /// The name of the split (see [`super::SPLIT`]).
    pub split: String,
    /// How many subproblems the whole board has.
    pub subproblems: usize,
    /// Which shard the run counts.
    pub shard: Shard,
    /// What is counted so far.
    pub tally: Tally,
    /// Seconds spent counting so far, over every session of the run.
    pub seconds: f64,
}

impl Checkpoint {
    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{MAGIC} {VERSION}");
        let _ = writeln!(s, "n {}", self.n);
        let _ = writeln!(s, "split {}", self.split);
        let _ = writeln!(s, "subproblems {}", self.subproblems);
        let _ = writeln!(s, "shard {}", self.shard);
        let _ = writeln!(s, "finished {}", self.tally.finished);
        let _ = writeln!(s, "total {}", self.tally.counts.total);
        let _ = writeln!(s, "unique {}", self.tally.counts.unique);
        let _ = writeln!(s, "seconds {}", self.seconds);
        s.push_str("done ");
        for word in &self.tally.done {
            let _ = write!(s, "{word:016x}");
        }
        s.push('\n');
        s
    }

    /// Parses a file's text; `path` only names the file in errors.
    pub fn from_text(path: &Path, text: &str) -> Result<Checkpoint, CountError> {
        let bad = |reason: String| CountError::CheckpointMalformed {
            path: path.display().to_string(),
            reason,
        };
        let mut lines = text.lines();
        let mut field = |key: &str| -> Result<String, CountError> {
            let line = lines
                .next()
                .ok_or_else(|| bad(format!("it ends before the '{key}' line")))?;
            match line.split_once(' ') {
                Some((k, v)) if k == key => Ok(v.to_string()),
                _ => Err(bad(format!("expected a '{key}' line, found '{line}'"))),
            }
        };
        let version = field(MAGIC)?;
        if version != VERSION {
            return Err(bad(format!("unknown version '{version}'")));
        }
        fn num<T: std::str::FromStr>(
            v: String,
            key: &str,
            bad: &dyn Fn(String) -> CountError,
        ) -> Result<T, CountError> {
            v.parse()
                .map_err(|_| bad(format!("'{key}' is not a number: '{v}'")))
        }
        let n = num(field("n")?, "n", &bad)?;
        let split = field("split")?;
        let subproblems: usize = num(field("subproblems")?, "subproblems", &bad)?;
        let shard_text = field("shard")?;
        let shard = shard_text
            .parse()
            .map_err(|_| bad(format!("bad shard '{shard_text}'")))?;
        let finished: u64 = num(field("finished")?, "finished", &bad)?;
        let total = num(field("total")?, "total", &bad)?;
        let unique = num(field("unique")?, "unique", &bad)?;
        let seconds = num(field("seconds")?, "seconds", &bad)?;
        let hex = field("done")?;
        let words = subproblems.div_ceil(64);
        if hex.len() != 16 * words || !hex.is_ascii() {
            return Err(bad(format!(
                "'done' should have {} hexadecimal digits for {subproblems} subproblems",
                16 * words
            )));
        }
        let mut done = Vec::with_capacity(words);
        for k in 0..words {
            let word = u64::from_str_radix(&hex[16 * k..16 * k + 16], 16)
                .map_err(|_| bad("'done' is not hexadecimal".to_string()))?;
            done.push(word);
        }
        let counted: u64 = done.iter().map(|w| u64::from(w.count_ones())).sum();
        let spare = words * 64 - subproblems;
        let beyond = spare > 0 && done.last().is_some_and(|w| w >> (64 - spare) != 0);
        if counted != finished || beyond {
            return Err(bad(format!(
                "'finished' says {finished} but 'done' lists {counted} subproblems"
            )));
        }
        Ok(Checkpoint {
            n,
            split,
            subproblems,
            shard,
            tally: Tally {
                done,
                finished,
                counts: Counts { total, unique },
            },
            seconds,
        })
    }

    /// Loads the checkpoint at `path`, or `None` when there is no such file.
    pub fn load(path: &Path) -> Result<Option<Checkpoint>, CountError> {
        match fs::read_to_string(path) {
            Ok(text) => Checkpoint::from_text(path, &text).map(Some),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(CountError::CheckpointIo {
                path: path.display().to_string(),
                source,
            }),
        }
    }

    /// Refuses a checkpoint of another board, split or shard.
    pub fn check_matches(
        &self,
        path: &Path,
        n: usize,
        subproblems: usize,
        shard: Shard,
    ) -> Result<(), CountError> {
        let reason = if self.n != n {
            format!("it is for N = {}, not N = {n}", self.n)
        } else if self.split != super::SPLIT || self.subproblems != subproblems {
            format!(
                "it is for the split {} of {} subproblems, not {} of {subproblems}",
                self.split,
                self.subproblems,
                super::SPLIT
            )
        } else if self.shard != shard {
            format!("it is for shard {}, not shard {shard}", self.shard)
        } else {
            return Ok(());
        };
        Err(CountError::CheckpointMismatch {
            path: path.display().to_string(),
            reason,
        })
    }

    /// Writes the checkpoint to `path` atomically: a temporary file in the same directory,
    /// flushed to the disk, then renamed over `path`.
    pub fn save(&self, path: &Path) -> Result<(), CountError> {
        let io_err = |source| CountError::CheckpointIo {
            path: path.display().to_string(),
            source,
        };
        let temp = temp_path(path);
        let written = (|| {
            let mut file = File::create(&temp)?;
            file.write_all(self.to_text().as_bytes())?;
            file.sync_all()?;
            drop(file);
            fs::rename(&temp, path)?;
            sync_parent(path);
            Ok(())
        })();
        if written.is_err() {
            let _ = fs::remove_file(&temp);
        }
        written.map_err(io_err)
    }
}

fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Checkpoint {
        let mut tally = Tally::new(130);
        tally.record(
            0,
            Counts {
                total: 16,
                unique: 2,
            },
        );
        tally.record(
            129,
            Counts {
                total: 8,
                unique: 1,
            },
        );
        Checkpoint {
            n: 12,
            split: super::super::SPLIT.to_string(),
            subproblems: 130,
            shard: Shard::WHOLE,
            tally,
            seconds: 1.5,
        }
    }

    #[test]
    fn a_checkpoint_survives_a_save_and_a_load() {
        let dir = std::env::temp_dir().join(format!("queens-ckpt-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.ckpt");
        let c = sample();
        c.save(&path).unwrap();
        assert!(!temp_path(&path).exists());
        assert_eq!(Checkpoint::load(&path).unwrap(), Some(c));
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(Checkpoint::load(&path).unwrap(), None);
    }

    #[test]
    fn damaged_checkpoints_are_refused_with_the_reason() {
        let path = Path::new("x.ckpt");
        let text = sample().to_text();
        let cases = [
            (
                text.replace("finished 2", "finished 3"),
                "'finished' says 3",
            ),
            (text.replace("n 12", "n twelve"), "'n' is not a number"),
            (
                text.replace("queens-count-checkpoint 1", "hello"),
                "expected",
            ),
            (
                text.lines().take(4).collect::<Vec<_>>().join("\n"),
                "ends before",
            ),
        ];
        for (bad, why) in cases {
            let err = Checkpoint::from_text(path, &bad).unwrap_err().to_string();
            assert!(err.contains(why), "{err}");
        }
    }

    #[test]
    fn a_checkpoint_of_another_run_is_refused() {
        let c = sample();
        let p = Path::new("x");
        assert!(c.check_matches(p, 12, 130, Shard::WHOLE).is_ok());
        let err = c.check_matches(p, 13, 130, Shard::WHOLE).unwrap_err();
        assert!(err.to_string().contains("N = 12, not N = 13"));
        let err = c.check_matches(p, 12, 130, Shard::new(1, 2).unwrap());
        assert!(err.unwrap_err().to_string().contains("shard 0/1"));
    }
}
