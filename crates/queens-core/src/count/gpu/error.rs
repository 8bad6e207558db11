//! Why the GPU engine cannot run: [`GpuError`], in data, apart from the engine so that the
//! counting engine's shared error (`count/types.rs`) carries it without importing the engine.
//! It calls nothing of the counting engine.

/// Why the GPU engine cannot run, in data; the binary words the advice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GpuError {
    /// This build was made without the CUDA support (the `cuda` feature of queens-core).
    #[error("this build of queens has no GPU support (it was built without the `cuda` feature)")]
    NotBuilt,
    /// `QUEENS_GPU_DEVICE` names no device this build knows.
    #[error("QUEENS_GPU_DEVICE={name:?} names no device (use cuda, the default, or twin)")]
    UnknownDevice {
        /// The value given.
        name: String,
    },
    /// `QUEENS_GPU_SPLIT` names no split this build knows.
    #[error("QUEENS_GPU_SPLIT={name:?} names no split (use frames or halves, or leave it unset)")]
    UnknownSplit {
        /// The value given.
        name: String,
    },
    /// `QUEENS_GPU_JOIN` names no join this build knows.
    #[error(
        "QUEENS_GPU_JOIN={name:?} names no join (use sliced or lanes on every board, or leave \
         it unset: the join is then chosen by the board)"
    )]
    UnknownJoin {
        /// The value given.
        name: String,
    },
    /// The CUDA driver library could not be loaded.
    #[error("no NVIDIA driver found: the CUDA driver library ({looked_for}) could not be loaded")]
    NoDriver {
        /// The library names tried.
        looked_for: String,
    },
    /// The driver library loaded lacks functions the engine calls: it is no NVIDIA driver of
    /// CUDA 12 or later.
    #[error(
        "the CUDA driver library loaded lacks {}: it is not NVIDIA's driver, or one older than \
         CUDA 12.0",
        named(missing)
    )]
    DriverLacks {
        /// The functions missing, in the order the engine lists them.
        missing: Vec<String>,
    },
    /// The driver loaded, but it sees no device.
    #[error("the NVIDIA driver sees no GPU{}", visible.as_deref().map(|v| format!(" (CUDA_VISIBLE_DEVICES={v})")).unwrap_or_default())]
    NoDevice {
        /// `CUDA_VISIBLE_DEVICES`, when set.
        visible: Option<String>,
    },
    /// The NVRTC library, which compiles the kernel for the device, could not be loaded.
    #[error("the CUDA runtime compiler NVRTC could not be loaded (looked for {looked_for})")]
    NoNvrtc {
        /// The files and names tried.
        looked_for: String,
    },
    /// NVRTC refused the kernel.
    #[error("NVRTC could not compile the kernel for {arch}: {log}")]
    Compile {
        /// The target, such as `compute_90`.
        arch: String,
        /// NVRTC's log.
        log: String,
    },
    /// A call of the CUDA driver failed.
    #[error("the CUDA driver failed in {call}: {message}")]
    Driver {
        /// What was being done.
        call: String,
        /// The driver's words.
        message: String,
    },
    /// The device has too little free memory for one launch.
    #[error("the GPU has {} free, less than the {} one launch needs", crate::error::bytes(*free), crate::error::bytes(*need))]
    Memory {
        /// Bytes free on the device.
        free: u64,
        /// Bytes one launch needs.
        need: u64,
    },
}

/// `names`, the first three of them and how many more: `cuA, cuB, cuC and 4 more`.
fn named(names: &[String]) -> String {
    match names {
        [] => "nothing".to_string(),
        [one] => one.clone(),
        [first @ .., last] if names.len() <= 3 => format!("{} and {last}", first.join(", ")),
        _ => format!("{} and {} more", names[..3].join(", "), names.len() - 3),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_functions_a_driver_lacks_are_named_up_to_three() {
        let lacks = |names: &[&str]| {
            GpuError::DriverLacks {
                missing: names.iter().map(|n| n.to_string()).collect(),
            }
            .to_string()
        };
        assert!(lacks(&["cuA"]).starts_with("the CUDA driver library loaded lacks cuA: "));
        assert!(lacks(&["cuA", "cuB"]).contains(" lacks cuA and cuB: "));
        assert!(lacks(&["cuA", "cuB", "cuC"]).contains(" lacks cuA, cuB and cuC: "));
        let many = lacks(&["cuA", "cuB", "cuC", "cuD", "cuE"]);
        assert!(many.contains(" lacks cuA, cuB, cuC and 2 more: "), "{many}");
        assert!(
            many.ends_with("not NVIDIA's driver, or one older than CUDA 12.0"),
            "{many}"
        );
    }
}
