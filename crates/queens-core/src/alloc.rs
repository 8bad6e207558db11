//! Fallible allocation of the arrays a memory-budget check let through: the check compares the
//! bytes a request needs with the caller's budget, but a budget of `u64::MAX` (no limit) lets
//! through what the allocator cannot give, and `vec![x; n]` would then abort the process. These
//! helpers ask first ([`Vec::try_reserve_exact`]) and say `None`, which each caller turns into
//! its own typed error.

/// An empty vector with room for `len` items, or `None` when the allocator refuses the memory
/// (or `len` items cannot be addressed).
pub(crate) fn room<T>(len: usize) -> Option<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).ok()?;
    Some(v)
}

/// `len` copies of `value`, or `None` when the allocator refuses the memory (or `len` items
/// cannot be addressed).
pub(crate) fn filled<T: Clone>(len: usize, value: T) -> Option<Vec<T>> {
    let mut v = room(len)?;
    v.resize(len, value);
    Some(v)
}

/// A copy of `items`, or `None` when the allocator refuses the memory.
pub(crate) fn copied<T: Clone>(items: &[T]) -> Option<Vec<T>> {
    let mut v = room(items.len())?;
    v.extend_from_slice(items);
    Some(v)
}

/// Whether the allocator refuses `bytes` now: a test that needs an allocation to fail skips
/// (and says so) on a machine that would grant it. Nothing is written, so a grant costs only
/// address space, given back at once.
#[cfg(test)]
pub(crate) fn refuses(bytes: usize) -> bool {
    let refused = Vec::<u8>::new().try_reserve_exact(bytes).is_err();
    if !refused {
        eprintln!("skipped: this machine's allocator grants {bytes} bytes");
    }
    refused
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_cannot_be_addressed_is_refused() {
        assert!(room::<u64>(3).is_some_and(|v| v.capacity() >= 3));
        assert!(room::<u64>(usize::MAX).is_none());
        assert_eq!(filled(3, 7u8), Some(vec![7, 7, 7]));
        assert_eq!(filled(usize::MAX, 0u64), None);
        assert_eq!(copied(&[1, 2]), Some(vec![1, 2]));
        assert!(refuses(usize::MAX));
    }
}
