//! `queens list [N]`: every solution in lexicographic order, streamed to standard output.

use std::io;
use std::ops::ControlFlow;

use queens_core::board::is_canonical;

use crate::cli::ListArgs;
use crate::hint::budget_hint;
use crate::output::{note, ListOutput, SignOfLife};
use crate::status::Status;
use queens_core::text::escape_path;

/// Runs `queens list`.
pub fn run(args: &ListArgs) -> anyhow::Result<Status> {
    let n = args.size.n;
    args.format.check_size(n)?;
    let mut out = ListOutput::new(args.format, args.out.as_deref())?;
    let mut written = 0u64;
    if args.limit != Some(0) {
        let algorithm = args.algo.algorithm();
        let mut sign = SignOfLife::new(format!("listing N = {n} ({algorithm})"), args.quiet);
        let watched = sign.is_some();
        let mut report = |progress| {
            if let Some(sign) = &mut sign {
                sign.report(progress);
            }
            ControlFlow::Continue(())
        };
        // The visitor breaks with `Some(error)` when a write fails and `None` at the limit: the
        // error comes straight out of the search.
        let mut visit = |queens: &[usize]| -> ControlFlow<Option<io::Error>> {
            if args.unique && !is_canonical(queens) {
                return ControlFlow::Continue(());
            }
            if let Err(e) = out.write(queens) {
                return ControlFlow::Break(Some(e));
            }
            written += 1;
            if args.limit == Some(written) {
                ControlFlow::Break(None)
            } else {
                ControlFlow::Continue(())
            }
        };
        let options = args.search.options();
        // Without a sign of life to show, the plain search: the watch costs a little per step.
        let stopped = if watched {
            algorithm.for_each_solution_watched(n, &options, &mut report, &mut visit)
        } else {
            algorithm.for_each_solution(n, &options, &mut visit)
        }
        .map_err(budget_hint)?;
        if let ControlFlow::Break(Some(e)) = stopped {
            return Err(e.into());
        }
    }
    out.flush()?;
    // A search that ran to its end and wrote nothing found no solution (every class has a
    // canonical member, so `--unique` keeps one when there is any). The empty listing is a
    // full answer (status 0, as `count` prints 0); a word on standard error says why.
    if written == 0 && args.limit != Some(0) {
        note!("queens: note: the {n}x{n} board has no solution, so there is nothing to list");
    }
    if let Some((dir, written, older)) = out.older_files().filter(|&(_, _, older)| older > 0) {
        note!(
            "queens: note: {} also holds {older} solution-*.svg file{} numbered past the {written} \
             this listing wrote, left from an earlier one; remove them, or list into an empty \
             folder",
            escape_path(dir),
            if older == 1 { "" } else { "s" }
        );
    }
    Ok(Status::Success)
}
