//! Completion instances (CSPLib parameters or a drawn board) from arbitrary text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(instance) = queens_core::complete::parse_instance(text) {
            // Small boards only: the search itself is exponential by nature.
            if instance.n <= 12 {
                let _ = instance.solve();
            }
        }
    }
});
