//! `queens list [N]`: every solution in lexicographic order, streamed to standard output.

use std::io;
use std::ops::ControlFlow;

use queens_core::board::is_canonical;

use crate::cli::ListArgs;
use crate::hint::budget_hint;
use crate::output::ListOutput;
use crate::status::Status;

/// Runs `queens list`.
pub fn run(args: &ListArgs) -> anyhow::Result<Status> {
    let n = args.size.n;
    args.format.check_size(n)?;
    let mut out = ListOutput::new(args.format, args.out.as_deref())?;
    let mut written = 0u64;
    if args.limit != Some(0) {
        // The visitor breaks with `Some(error)` when a write fails and `None` at the limit: the
        // error comes straight out of the search.
        let stopped = args
            .algo
            .algorithm()
            .for_each_solution(n, &args.search.options(), &mut |queens| -> ControlFlow<
                Option<io::Error>,
            > {
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
            })
            .map_err(budget_hint)?;
        if let ControlFlow::Break(Some(e)) = stopped {
            return Err(e.into());
        }
    }
    out.flush()?;
    Ok(Status::Success)
}
