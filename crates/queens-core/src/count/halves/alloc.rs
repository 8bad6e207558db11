//! The fallible growth of the half-board engine's buffers: a buffer that cannot grow ends the
//! subproblem with an [`AllocError`] naming the bytes asked, never an abort of the process
//! ("memory allocation of N bytes failed"). The memory budget checked before a run is what
//! keeps a run within the memory the process can have; this is for what that check cannot see
//! (a limit lowered while the run goes on, memory taken by another program, a subproblem
//! larger than the model). It calls nothing.

use std::fmt;

/// A buffer of the half-board engine could not grow: `bytes` is what it asked for in all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocError {
    /// The bytes the buffer would have held after growing.
    pub bytes: u64,
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "could not allocate a buffer of {}",
            crate::error::bytes(self.bytes)
        )
    }
}

impl std::error::Error for AllocError {}

/// Makes room in `v` for `extra` more items, doubling its capacity as `Vec::push` does (or
/// more when `extra` asks more), by a fallible reservation: after `Ok`, `extra` pushes or a
/// `resize` to `len + extra` allocate nothing.
#[cold]
#[inline(never)]
pub(super) fn grow<T>(v: &mut Vec<T>, extra: usize) -> Result<(), AllocError> {
    let need = v.len().saturating_add(extra);
    if need <= v.capacity() {
        return Ok(());
    }
    let target = need.max(v.capacity().saturating_mul(2)).max(8);
    let failed = || AllocError {
        bytes: (target as u64).saturating_mul(size_of::<T>() as u64),
    };
    let more = target.checked_sub(v.len()).ok_or_else(failed)?;
    v.try_reserve_exact(more).map_err(|_| failed())
}

/// [`grow`] to hold `len` items in all.
pub(super) fn room_for<T>(v: &mut Vec<T>, len: usize) -> Result<(), AllocError> {
    grow(v, len.saturating_sub(v.len()))
}

/// Room in `v` for `len` items in all, exactly: for a buffer that is refilled whole each time
/// (`v`'s items are dropped when it grows), so that its room is the longest it ever had to
/// hold rather than up to twice that. The old block is given back before the new one is asked
/// for, so the two are never held at once.
#[cold]
#[inline(never)]
pub(super) fn room_exact<T>(v: &mut Vec<T>, len: usize) -> Result<(), AllocError> {
    if len <= v.capacity() {
        return Ok(());
    }
    *v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| AllocError {
        bytes: (len as u64).saturating_mul(size_of::<T>() as u64),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impossible_reservation_is_an_error_and_leaves_the_buffer_as_it_was() {
        let mut v: Vec<u64> = vec![1, 2, 3];
        let err = grow(&mut v, usize::MAX / 16).unwrap_err();
        assert_eq!(v, [1, 2, 3]);
        // The whole buffer asked for: more than 2^63 bytes, named as such.
        assert!(err.bytes >= 1 << 63, "{err:?}");
        assert!(err
            .to_string()
            .starts_with("could not allocate a buffer of "));
        // Past what any allocator gives (more than isize::MAX bytes), the same.
        assert!(room_for(&mut v, usize::MAX / 8).is_err());
        assert_eq!(v, [1, 2, 3]);
    }

    #[test]
    fn a_possible_reservation_doubles_and_then_pushes_allocate_nothing() {
        let mut v: Vec<u64> = Vec::with_capacity(16);
        v.extend(0..16);
        grow(&mut v, 1).unwrap();
        assert_eq!(v.capacity(), 32);
        let (at, cap) = (v.as_ptr(), v.capacity());
        v.extend(16..32);
        assert_eq!((v.as_ptr(), v.capacity()), (at, cap));
        room_for(&mut v, 100).unwrap();
        assert_eq!(v.capacity(), 100);
        // Room already there: nothing changes.
        room_for(&mut v, 50).unwrap();
        assert_eq!(v.capacity(), 100);
    }

    #[test]
    fn an_exact_reservation_holds_the_longest_asked_and_no_more() {
        let mut v: Vec<u64> = Vec::new();
        room_exact(&mut v, 100).unwrap();
        assert_eq!(v.capacity(), 100);
        // 101 doubles no more: the room is what was asked.
        room_exact(&mut v, 101).unwrap();
        assert_eq!(v.capacity(), 101);
        // Less than the room: nothing changes, the items stay.
        v.extend(0..10);
        room_exact(&mut v, 50).unwrap();
        assert_eq!((v.capacity(), v.len()), (101, 10));
        // Past any allocator: an error naming the bytes, and the buffer keeps no room.
        let err = room_exact(&mut v, usize::MAX / 4).unwrap_err();
        assert!(err.bytes >= 1 << 63, "{err:?}");
        assert_eq!((v.capacity(), v.len()), (0, 0));
    }
}
