//! A checkpoint matched against the run that would resume it: the same board, split, number of
//! subproblems and shard, or a refusal naming the first that differs.

use std::path::Path;

use super::state::Checkpoint;
use crate::count::shard::Shard;
use crate::count::types::CountError;

impl Checkpoint {
    /// Refuses a checkpoint of another board, split or shard.
    pub fn check_matches(
        &self,
        path: &Path,
        n: usize,
        split: &str,
        subproblems: usize,
        shard: Shard,
    ) -> Result<(), CountError> {
        let reason = if self.n != n {
            format!("it is for N = {}, not N = {n}", self.n)
        } else if self.split != split || self.subproblems != subproblems {
            format!(
                "it is for the split {} of {} subproblems, not {split} of {subproblems}",
                self.split, self.subproblems,
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
}
