//! What the user can do about an engine error, in the command-line words the engine does not
//! know (flag and subcommand names): shared by every command, so that none imports another.

/// Adds what the user can do to an engine error that refused a request over the memory budget
/// (the engine names no flag). The breadth-first search's own refusal gets its hint in `main`.
pub fn budget_hint(err: queens_core::Error) -> anyhow::Error {
    if matches!(err, queens_core::Error::OverBudget { .. }) {
        anyhow::anyhow!("{err}; raise --max-memory to allow it")
    } else {
        err.into()
    }
}

/// What the user can do about an engine error, in command-line words the engine does not know.
pub fn for_error(err: &anyhow::Error) -> &'static str {
    let over_budget = err.chain().any(|cause| {
        matches!(
            cause.downcast_ref::<queens_core::Error>(),
            Some(queens_core::Error::MemoryBudget { .. })
        )
    });
    let too_free = err.chain().any(|cause| {
        matches!(
            cause.downcast_ref::<queens_core::complete::InstanceError>(),
            Some(queens_core::complete::InstanceError::TooManyFree { .. })
        )
    });
    if over_budget {
        "; raise --max-memory or use a depth-first algorithm such as bitboard"
    } else if too_free {
        " (use `queens solve` for boards with few or no given queens)"
    } else {
        ""
    }
}
