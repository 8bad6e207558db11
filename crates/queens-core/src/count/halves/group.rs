//! A half's group key: the columns that name its group within a pattern, stored above its
//! diagonal mask, and the counting sort that groups the halves of one side by it. It calls
//! nothing.

/// Where a half's group key goes in its stored word: above the `2N <= 48` mask bits.
pub(super) const KEY_AT: u32 = 48;

/// How a half's columns name its group within a pattern: `bits` columns from `shift`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Key {
    pub(super) shift: u32,
    pub(super) bits: u32,
}

impl Key {
    /// The stored word of a half: its mask, and its group key above [`KEY_AT`]. The keys of
    /// an upper and a lower half that fit are complementary, so they share no bit either.
    #[inline(always)]
    pub(super) fn word(self, cols: u32, mask: u64) -> u64 {
        let k = (cols >> self.shift) & ((1u32 << self.bits) - 1);
        mask | u64::from(k) << KEY_AT
    }
}

/// Groups `items` by key (a counting sort on the `2^bits` keys): the words of key `c` end up
/// in `masks[start[c]..start[c + 1]]`. (Its caller makes room in both buffers first, fallibly:
/// `pattern.rs`.)
#[inline(always)]
pub(super) fn bucket(bits: u32, items: &[u64], start: &mut Vec<u32>, masks: &mut Vec<u64>) {
    let size = 1usize << bits;
    debug_assert!(start.capacity() > size && masks.capacity() >= items.len());
    start.clear();
    start.resize(size + 1, 0);
    for &m in items {
        start[(m >> KEY_AT) as usize + 1] += 1;
    }
    for i in 0..size {
        start[i + 1] += start[i];
    }
    // Every word of `masks` is written below: only what it grows by is zeroed first (the
    // buffer is kept between subproblems, so that is seldom anything).
    masks.truncate(items.len());
    masks.resize(items.len(), 0);
    // Scatter with a moving cursor per key (start[c] is advanced, then restored).
    for &m in items {
        let slot = &mut start[(m >> KEY_AT) as usize];
        masks[*slot as usize] = m;
        *slot += 1;
    }
    // start[c] now holds the end of key c, which is the start of key c + 1: shift back.
    for i in (1..=size).rev() {
        start[i] = start[i - 1];
    }
    start[0] = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bucket` reuses its output buffer without zeroing it: a second, shorter grouping into a
    /// buffer left full of another's words must still give exactly the words of each key.
    #[test]
    fn a_reused_buffer_groups_exactly_the_new_words() {
        let words = |count: u64, salt: u64| -> Vec<u64> {
            (0..count)
                .map(|i| ((i * 7 + salt) % 16) << KEY_AT | ((i * 2_654_435_761 + salt) & 0xffff))
                .collect()
        };
        let (mut start, mut masks) = (Vec::new(), Vec::new());
        for (count, salt) in [(1000, 3), (10, 5), (0, 1), (300, 9)] {
            let items = words(count, salt);
            // The room its caller makes first.
            start.reserve(17);
            masks.reserve(items.len());
            bucket(4, &items, &mut start, &mut masks);
            assert_eq!(masks.len(), items.len());
            for key in 0..16u64 {
                let mut got =
                    masks[start[key as usize] as usize..start[key as usize + 1] as usize].to_vec();
                let mut want: Vec<u64> = items
                    .iter()
                    .copied()
                    .filter(|&m| m >> KEY_AT == key)
                    .collect();
                got.sort_unstable();
                want.sort_unstable();
                assert_eq!(got, want, "{count} words, key {key}");
            }
        }
    }
}
