//! Checkpoint files from arbitrary text: refused with a typed error or read, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = queens_core::count::Checkpoint::from_text(std::path::Path::new("fuzz"), text);
    }
});
