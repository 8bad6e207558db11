//! A half's group key, and the groups of one side of a subproblem: one list of halves per key,
//! filled by the listing as it finds them (so no sort is needed before the join). It calls
//! `alloc.rs` (to grow a list).

use super::alloc::{grow, room_for, AllocError};

/// Where a half's group key goes in the word [`Groups::words`] gives for it: above the
/// `2N <= 48` mask bits.
#[cfg(test)]
pub(super) const KEY_AT: u32 = 48;

/// How a half's columns name its group within a pattern: `bits` columns from `shift`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Key {
    pub(super) shift: u32,
    pub(super) bits: u32,
}

impl Key {
    /// The group of a half that uses the columns `cols`. The keys of an upper and a lower
    /// half that fit are complementary.
    #[inline(always)]
    pub(super) fn of(self, cols: u32) -> usize {
        ((cols >> self.shift) & ((1u32 << self.bits) - 1)) as usize
    }

    /// A half as one word: its mask, and its group key above [`KEY_AT`].
    #[cfg(test)]
    pub(super) fn word(self, cols: u32, mask: u64) -> u64 {
        mask | (self.of(cols) as u64) << KEY_AT
    }
}

/// The halves of one side of a subproblem, grouped by key: the masks of the halves of key `c`
/// are `lists[c]`. The lists keep their room from one subproblem to the next (the dearest
/// comes first, so they seldom grow again), unless the room kept exceeds the most halves one
/// subproblem held: the subproblems spread their halves over the keys differently, and the
/// largest list of every key, kept, held 36 MiB at N = 18 on one thread where giving the room
/// back held 20 MiB and this rule 29 MiB, at the same speed. The bound: at a reset at most the
/// most halves one subproblem held (and 64 per key); while a side is listed its lists may
/// double past that, so in the worst case about 3 words per half of the largest subproblem (24
/// bytes) against the 16 of the memory model (`memory.rs`; the old list and its grouped copy
/// could reach as much). The measured peaks are below the model (docs/performance.md).
#[derive(Default)]
pub(super) struct Groups {
    lists: Vec<Vec<u64>>,
    /// The most halves one subproblem held on this side.
    most: usize,
}

impl Groups {
    /// Empties the groups for a side of `2^bits` keys; an error when the table of lists
    /// cannot be made (up to 1.5 MiB for 2^16 keys).
    pub(super) fn reset(&mut self, bits: u32) -> Result<(), AllocError> {
        let keys = 1usize << bits;
        let kept: usize = self.lists.iter().map(Vec::capacity).sum();
        if self.lists.len() != keys || kept > self.most + 64 * keys {
            self.lists = Vec::new();
            room_for(&mut self.lists, keys)?;
            self.lists.resize_with(keys, Vec::new);
        }
        for list in &mut self.lists {
            list.clear();
        }
        Ok(())
    }

    /// Stores `mask` in the group `key`; an error when that list cannot grow.
    #[inline(always)]
    pub(super) fn push(&mut self, key: usize, mask: u64) -> Result<(), AllocError> {
        let list = &mut self.lists[key];
        if list.len() == list.capacity() {
            grow(list, 1)?;
        }
        let len = list.len();
        list.spare_capacity_mut()[0].write(mask);
        // SAFETY: the slot past the end was just written (there is one: grown above).
        unsafe { list.set_len(len + 1) };
        Ok(())
    }

    /// Records the size of the subproblem just listed (for the room [`Groups::reset`] keeps).
    pub(super) fn done(&mut self) {
        self.most = self.most.max(self.len());
    }

    /// The masks of the halves of group `key`.
    #[inline(always)]
    pub(super) fn get(&self, key: usize) -> &[u64] {
        &self.lists[key]
    }

    /// Every group, by key.
    pub(super) fn all(&self) -> impl Iterator<Item = &[u64]> {
        self.lists.iter().map(Vec::as_slice)
    }

    /// The number of halves in all.
    pub(super) fn len(&self) -> usize {
        self.lists.iter().map(Vec::len).sum()
    }

    /// The bytes these groups hold room for (their lists and the table of lists).
    #[cfg(test)]
    pub(super) fn bytes(&self) -> u64 {
        let words: usize = self.lists.iter().map(Vec::capacity).sum();
        (words * size_of::<u64>() + self.lists.capacity() * size_of::<Vec<u64>>()) as u64
    }

    /// The most bytes the groups of a side of `2^bits` keys can hold room for on a thread
    /// whose subproblems had at most `most` halves on that side, by the rules above: after a
    /// reset the room kept is at most `most` words plus 64 a key; a list that grows doubles,
    /// to at most twice its halves (or 8); so at most `3 most` words plus 72 a key, and the
    /// table of lists. (Groups of the same keys left by an earlier run on the same thread may
    /// keep that run's room: the ceiling is of a run on threads of its own.)
    pub(super) fn ceiling(bits: u32, most: u64) -> u64 {
        let keys = 1u64 << bits;
        let words = 3 * most + 72 * keys;
        words * size_of::<u64>() as u64 + keys.max(8) * size_of::<Vec<u64>>() as u64
    }

    /// Every half as its word (its mask, and its key above [`KEY_AT`]), group by group.
    #[cfg(test)]
    pub(super) fn words(&self) -> Vec<u64> {
        let mut words = Vec::with_capacity(self.len());
        for (key, list) in self.lists.iter().enumerate() {
            words.extend(list.iter().map(|&m| m | (key as u64) << KEY_AT));
        }
        words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Groups reused from one side to the next hold exactly the halves stored since their
    /// reset, by key; the room they keep never exceeds the most halves one side held (and a
    /// little per key), and is kept when it does not.
    #[test]
    fn reused_groups_hold_exactly_the_new_halves() {
        let mut groups = Groups::default();
        let kept = |g: &Groups| g.lists.iter().map(Vec::capacity).sum::<usize>();
        let words = |count: u64, salt: u64| -> Vec<(usize, u64)> {
            (0..count)
                .map(|i| {
                    (
                        ((i * 7 + salt) % 16) as usize,
                        (i * 2_654_435_761 + salt) & 0xffff,
                    )
                })
                .collect()
        };
        for (count, salt) in [
            (16_384, 0),
            (1000, 3),
            (100_000, 3),
            (10, 5),
            (0, 1),
            (300, 9),
        ] {
            groups.reset(4).unwrap();
            assert!(kept(&groups) <= groups.most + 64 * 16);
            if salt == 3 && count == 1000 {
                // 1024 halves of each key before, room for exactly them: kept.
                assert!(groups.lists.iter().all(|l| l.capacity() == 1024));
            }
            let items = words(count, salt);
            for &(key, mask) in &items {
                groups.push(key, mask).unwrap();
            }
            groups.done();
            assert_eq!(groups.len(), items.len());
            for key in 0..16 {
                let mut got = groups.get(key).to_vec();
                let mut want: Vec<u64> = items
                    .iter()
                    .filter(|&&(k, _)| k == key)
                    .map(|&(_, m)| m)
                    .collect();
                got.sort_unstable();
                want.sort_unstable();
                assert_eq!(got, want, "{count} halves, key {key}");
            }
        }
        // A side of other keys: the room is made anew.
        groups.reset(5).unwrap();
        assert_eq!(groups.lists.len(), 32);
        assert_eq!(kept(&groups), 0);
    }

    /// The ceiling's three words a half are needed, not two: a side whose halves all went to
    /// one key, kept, then a slightly larger side whose halves all go to the other key, which
    /// doubles past them; the room held is then nearly 3 words a half, under the ceiling.
    #[test]
    fn groups_can_hold_three_times_their_largest_side_and_no_more() {
        let mut groups = Groups::default();
        for (key, count) in [(0, 8192), (1, 8193)] {
            groups.reset(1).unwrap();
            for mask in 0..count {
                groups.push(key, mask).unwrap();
            }
            groups.done();
            assert!(groups.bytes() <= Groups::ceiling(1, groups.most as u64));
        }
        // Two keys: a table of 8 lists (the least a reservation makes).
        let words = (groups.bytes() - 8 * size_of::<Vec<u64>>() as u64) / 8;
        assert_eq!(words, 8192 + 16384);
        assert!(words > 2 * 8193 + 72 * 2, "{words} words");
    }
}
