//! Shard result lines (`queens count --shard I/M --json`, read by `queens merge`) from arbitrary
//! text: refused with a typed error or read, never a panic; a line read is written back as a
//! line that reads as the same result.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_core::count::shard_result::ShardResult;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(part) = ShardResult::parse("fuzz", text) {
            let again = ShardResult::parse("fuzz", &part.to_line()).expect("a written line reads");
            assert_eq!(again, part);
        }
    }
});
