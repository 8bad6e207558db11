//! The checksum of checkpoint files and shard results: 64-bit FNV-1a.
//!
//! The idea: every byte is XORed into a 64-bit state which is then multiplied by an odd
//! constant (the FNV prime). Both steps are bijections of the state, so a change of any one
//! byte always changes the result, and a random change of several goes unnoticed with a
//! probability of about 2^-64. It guards against damage and careless edits, not against
//! forgery (anyone can recompute it). Source: G. Fowler, L. C. Noll and K.-P. Vo, the FNV hash
//! (IETF draft-eastlake-fnv). Cost: one XOR and one multiplication per byte.

/// The FNV-1a 64-bit hash of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

/// The checksum as files write it: the algorithm's name, a colon, 16 hexadecimal digits.
pub fn checksum(bytes: &[u8]) -> String {
    format!("fnv1a64:{:016x}", fnv1a64(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_test_vectors_hold() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn every_change_of_one_byte_changes_the_checksum() {
        let text = b"queens-count-checkpoint 2\nn 12\ntotal 14200\n";
        let base = fnv1a64(text);
        let mut copy = text.to_vec();
        for i in 0..copy.len() {
            for b in 0..=255u8 {
                if b == text[i] {
                    continue;
                }
                copy[i] = b;
                assert_ne!(fnv1a64(&copy), base, "byte {i} set to {b}");
            }
            copy[i] = text[i];
        }
    }
}
