//! The writing of a checkpoint: its text, line by line in the format's order (see the folder's
//! `mod.rs`), sealed by its checksum line and, under a key, its MAC line.

use std::fmt::Write as _;

use super::state::{has_pieces, Checkpoint, MAGIC, VERSION};
use crate::count::{checksum, mac};

impl Checkpoint {
    /// The file's text. The times spent are written within what the reader accepts (0 to
    /// [`MAX_RUN_SECONDS`](crate::count::MAX_RUN_SECONDS); 0 for a time that is not a number
    /// or is negative), so that the text always reads back.
    pub fn to_text(&self) -> String {
        use crate::count::types::recordable_seconds;
        let mut s = String::new();
        let _ = writeln!(s, "{MAGIC} {VERSION}");
        let _ = writeln!(s, "n {}", self.n);
        let _ = writeln!(s, "split {}", self.split);
        let _ = writeln!(s, "subproblems {}", self.subproblems);
        let _ = writeln!(s, "shard {}", self.shard);
        let _ = writeln!(s, "finished {}", self.tally.finished);
        let _ = writeln!(s, "total {}", self.tally.counts.total);
        let _ = writeln!(s, "unique {}", self.tally.counts.unique);
        let _ = writeln!(s, "seconds {}", recordable_seconds(self.seconds));
        if let Some(cpu) = self.cpu_seconds {
            let _ = writeln!(s, "cpu-seconds {}", recordable_seconds(cpu));
        }
        s.push_str("done ");
        for word in &self.tally.done {
            let _ = write!(s, "{word:016x}");
        }
        s.push_str("\nparts");
        for i in self.tally.finished_subproblems() {
            let p = self.tally.parts[i];
            let _ = write!(s, " {i}:{}/{}", p.total, p.unique);
        }
        s.push('\n');
        if has_pieces(self.n, &self.split) {
            s.push_str("pieces");
            for (f, fp) in &self.tally.pieces {
                let _ = write!(
                    s,
                    " {f}@{}:{}/{}",
                    fp.next, fp.counts.total, fp.counts.unique
                );
                for (start, end) in &fp.above {
                    let _ = write!(s, "+{start}-{end}");
                }
            }
            s.push('\n');
        }
        let sum = checksum::checksum(s.as_bytes());
        let _ = writeln!(s, "checksum {sum}");
        // Under a key, one more line: the MAC of every byte before it (`mac.rs`).
        if let Some(key) = mac::key() {
            let tag = mac::tag(key, s.as_bytes());
            let _ = writeln!(s, "mac {tag}");
        }
        s
    }
}
