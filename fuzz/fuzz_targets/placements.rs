//! Placements and boards read from arbitrary bytes: a value or a typed error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_core::parse::EntryReader;

fuzz_target!(|data: &[u8]| {
    // The streaming reader with a small budget, as `queens verify` uses it.
    for entry in EntryReader::with_budget(data, 1 << 20).take(1000) {
        if entry.is_err() {
            break;
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = queens_core::parse::parse_entries(text);
    }
});
