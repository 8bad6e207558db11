//! What the user can do about an engine error, in the command-line words the engine does not
//! know (flag and subcommand names): shared by every command, so that none imports another.
//! The engine's errors carry data and the engine's own words; the flags are added here.

use queens_core::count::shard_result::ShardResultError;

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
pub fn for_error(err: &anyhow::Error) -> String {
    use queens_core::count::CountError;
    for cause in err.chain() {
        let hint = match cause.downcast_ref::<CountError>() {
            Some(CountError::MemoryBudget { .. }) => {
                " (raise --max-memory or use --engine frame)".to_string()
            }
            Some(CountError::OutOfMemory { .. }) => {
                " (lower --max-memory or --threads, or use --engine frame)".to_string()
            }
            Some(CountError::CheckpointMemory { need, .. }) => {
                format!(
                    ": resume it with --max-memory {}M or more",
                    need.div_ceil(1 << 20)
                )
            }
            _ => continue,
        };
        return hint;
    }
    let malformed = err.chain().any(|cause| {
        matches!(
            cause.downcast_ref::<ShardResultError>(),
            Some(ShardResultError::Malformed { .. })
        )
    });
    if malformed {
        return " (a shard result is the line `queens count --shard I/M --json` writes)".into();
    }
    fixed_hint(err).into()
}

/// The hints of [`for_error`] that carry no figure of the error.
fn fixed_hint(err: &anyhow::Error) -> &'static str {
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
    let not_sharded = err.chain().any(|cause| {
        matches!(
            cause.downcast_ref::<ShardResultError>(),
            Some(ShardResultError::NotSharded { .. })
        )
    });
    let gpu = err.chain().any(|cause| {
        matches!(
            cause.downcast_ref::<queens_core::count::CountError>(),
            Some(queens_core::count::CountError::Gpu(_))
        ) || cause
            .downcast_ref::<queens_core::count::gpu::GpuError>()
            .is_some()
    });
    if gpu {
        " (docs/gpu.md says what --engine gpu needs and how to get it; --engine auto or frame \
         counts on the CPU)"
    } else if over_budget {
        "; raise --max-memory or use a depth-first algorithm such as bitboard"
    } else if not_sharded {
        " (count with --shard I/M --json)"
    } else if too_free {
        " (use `queens solve` for boards with few or no given queens)"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use queens_core::count::shard_result::{ShardResult, ShardResultError};

    /// A whole count's result given to `merge`: the engine says what is wrong, the hint how to
    /// count a shard, and together they read as before the words moved.
    #[test]
    fn a_result_without_a_shard_gets_the_flags_that_make_one() {
        let counts = queens_core::count::Counts {
            total: 92,
            unique: 12,
        };
        let line =
            queens_core::count::shard_result::result_line(8, counts, 0.5, None, "frame1-v1", 10);
        let err = ShardResult::parse("whole.json", &line).unwrap_err();
        assert!(matches!(err, ShardResultError::NotSharded { .. }));
        let err = anyhow::Error::from(err);
        assert_eq!(
            format!("{err:#}{}", super::for_error(&err)),
            "whole.json is not a shard result: it has no valid \"shard\" and \"shards\" (count \
             with --shard I/M --json)"
        );
    }

    /// The engine's count errors name no flag; the binary adds the flags and the figure.
    #[test]
    fn the_count_errors_get_their_flags_here() {
        use queens_core::count::CountError;
        let cases = [
            (
                CountError::MemoryBudget {
                    n: 18,
                    need: 3 << 20,
                    budget: 1 << 20,
                },
                " (raise --max-memory or use --engine frame)",
            ),
            (
                CountError::OutOfMemory {
                    n: 18,
                    bytes: 1 << 30,
                },
                " (lower --max-memory or --threads, or use --engine frame)",
            ),
            (
                CountError::CheckpointMemory {
                    path: "x.ckpt".into(),
                    split: "halves8-v1".into(),
                    need: (5 << 20) + 1,
                    budget: 1 << 20,
                },
                ": resume it with --max-memory 6M or more",
            ),
        ];
        for (err, hint) in cases {
            assert!(!err.to_string().contains("--"), "{err}");
            let err = anyhow::Error::from(err).context("count 18");
            assert_eq!(super::for_error(&err), hint);
        }
        let err = ShardResult::parse("x.json", "{").unwrap_err();
        assert!(!err.to_string().contains("queens count"), "{err}");
        let err = anyhow::Error::from(err);
        assert!(super::for_error(&err).contains("`queens count --shard I/M --json`"));
    }
}
