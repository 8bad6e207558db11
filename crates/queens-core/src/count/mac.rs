//! Keyed signatures of shard results and checkpoints: HMAC-SHA256 ([RFC 2104], with the
//! RustCrypto `hmac` and `sha2` crates) under a secret key the user gives (`QUEENS_KEY`, read
//! by the binary and handed here once, [`use_key`]).
//!
//! A checksum (`checksum.rs`) catches damage, but anyone can compute it: a part edited with
//! care and re-summed passes every check but a recount. A MAC can only be made with the key, so
//! under a key a part or a checkpoint that was edited, or written without the key, is refused.
//! Without a key nothing changes: files are written as before (no MAC) and a MAC in a file is
//! not checked. See `docs/integrity.md`. Cost: one HMAC of a few hundred bytes (a shard result)
//! to a few MB (a checkpoint of N = 27) per write and read, microseconds to milliseconds.
//!
//! [RFC 2104]: https://www.rfc-editor.org/rfc/rfc2104

use std::fmt::Write as _;
use std::sync::OnceLock;

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// How a MAC is written: this prefix, then 64 lowercase hexadecimal digits.
pub const PREFIX: &str = "hmac-sha256:";

static KEY: OnceLock<Vec<u8>> = OnceLock::new();

/// Signs every shard result and checkpoint this process writes, and requires a matching MAC of
/// every one it reads, with `key` (its bytes). Set once, before any is written or read; `false`
/// when a key was already set.
pub fn use_key(key: &[u8]) -> bool {
    KEY.set(key.to_vec()).is_ok()
}

/// The key of this process, if [`use_key`] gave one.
pub fn key() -> Option<&'static [u8]> {
    KEY.get().map(Vec::as_slice)
}

/// The MAC of `bytes` under `key`, as written: [`PREFIX`] and 64 hexadecimal digits.
pub fn tag(key: &[u8], bytes: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(bytes);
    let mut out = String::from(PREFIX);
    for byte in mac.finalize().into_bytes() {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// Whether `claimed` is the MAC of `bytes` under `key` (compared in constant time).
pub fn verify(key: &[u8], bytes: &[u8], claimed: &str) -> bool {
    let Some(hex) = claimed.strip_prefix(PREFIX) else {
        return false;
    };
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return false;
    }
    let Ok(raw) = (0..32)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16))
        .collect::<Result<Vec<u8>, _>>()
    else {
        return false;
    };
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(bytes);
    mac.verify_slice(&raw).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mac_is_rfc_4231s_hmac_sha256() {
        // RFC 4231, test case 2.
        assert_eq!(
            tag(b"Jefe", b"what do ya want for nothing?"),
            "hmac-sha256:5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn only_the_mac_of_the_same_bytes_under_the_same_key_verifies() {
        let t = tag(b"k", b"text");
        assert!(verify(b"k", b"text", &t));
        assert!(!verify(b"k", b"texT", &t));
        assert!(!verify(b"K", b"text", &t));
        assert!(!verify(b"k", b"text", &t[..t.len() - 1]));
        assert!(!verify(b"k", b"text", &t.replace(PREFIX, "hmac-md5:")));
        assert!(!verify(b"k", b"text", "hmac-sha256:zz"));
    }
}
