//! The transposition table: search results by position hash, always-replace with a depth bias.

/// How a stored score bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The exact score.
    Exact,
    /// At least this score (a beta cut-off).
    Lower,
    /// At most this score (no move raised alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// The full hash, to tell positions sharing a slot apart.
    pub key: u64,
    /// The score, mate distances relative to this node.
    pub score: i32,
    /// The best (or refuting) move's cell, `u16::MAX` for none.
    pub best: u16,
    /// Remaining depth the score was searched to.
    pub depth: i8,
    /// What the score means.
    pub bound: Bound,
}

/// A fixed-size table of two-slot buckets indexed by the low bits of the hash: the first slot
/// keeps the deepest result of the current search (deep results near the root are the ones
/// iterative deepening and the next move reuse, and a single always-replaced slot lost them
/// to the leaves within a few thousand nodes), the second takes whatever comes.
pub(crate) struct Table {
    slots: Vec<Option<Entry>>,
    /// The search each slot's entry was stored in: an older search's deep entry gives way.
    /// Only equality is asked, so the count may wrap: an entry left untouched for exactly a
    /// multiple of 256 searches passes for a current one, which costs a slot, never a wrong
    /// score (the key still decides).
    ages: Vec<u8>,
    age: u8,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` slots (`bits` at least 1).
    pub(crate) fn new(bits: u32) -> Table {
        let n = 1usize << bits.max(1);
        Table {
            slots: vec![None; n],
            ages: vec![0; n],
            age: 0,
            mask: n - 1,
        }
    }

    /// The first slot of `key`'s bucket.
    fn bucket(&self, key: u64) -> usize {
        key as usize & self.mask & !1
    }

    /// The entry stored for `key`, if it is still there.
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let i = self.bucket(key);
        self.slots[i..i + 2]
            .iter()
            .flatten()
            .find(|e| e.key == key)
            .copied()
    }

    /// Starts a new search: what earlier searches stored stays readable but no longer holds
    /// its slot against this one's results.
    pub(crate) fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// Stores a result. A deeper bound for the same position is kept over a shallower one; a
    /// new position takes the first slot when it is searched at least as deep as what is
    /// there (or that is from an earlier search), else the second.
    pub(crate) fn store(&mut self, e: Entry) {
        let i = self.bucket(e.key);
        let slot = match (self.slots[i], self.slots[i + 1]) {
            (Some(old), _) if old.key == e.key => i,
            (_, Some(old)) if old.key == e.key => i + 1,
            (Some(old), _) if self.ages[i] == self.age && old.depth > e.depth => i + 1,
            _ => i,
        };
        if let Some(old) = self.slots[slot]
            && old.key == e.key
            && old.depth > e.depth
            && e.bound != Bound::Exact
        {
            return;
        }
        if slot == i
            && let Some(old) = self.slots[i]
            && old.key != e.key
        {
            // The first slot's entry moves down rather than vanish: it was the deeper one.
            self.slots[i + 1] = Some(old);
            self.ages[i + 1] = self.ages[i];
        }
        self.slots[slot] = Some(e);
        self.ages[slot] = self.age;
    }

    /// How many slots it has.
    #[cfg(test)]
    pub(crate) fn slots(&self) -> usize {
        self.slots.len()
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes_by_full_key() {
        let mut t = Table::new(4);
        let e = Entry {
            key: 0x1234,
            score: 7,
            best: 3,
            depth: 2,
            bound: Bound::Exact,
        };
        t.store(e);
        assert_eq!(t.probe(0x1234).map(|e| e.score), Some(7));
        assert!(t.probe(0x1234 + 16).is_none(), "same slot, other key");
        t.store(Entry {
            depth: 1,
            bound: Bound::Lower,
            score: 1,
            ..e
        });
        assert_eq!(
            t.probe(0x1234).map(|e| e.score),
            Some(7),
            "shallower bound kept out"
        );
        t.clear();
        assert!(t.probe(0x1234).is_none());
    }

    fn entry(key: u64, depth: i8) -> Entry {
        Entry {
            key,
            score: i32::from(depth),
            best: 0,
            depth,
            bound: Bound::Lower,
        }
    }

    #[test]
    fn a_deep_result_outlives_the_leaves_of_its_search() {
        let mut t = Table::new(4);
        t.new_search();
        t.store(entry(0x20, 9));
        // Leaves landing in the same bucket (the low four bits, less the slot bit) one after
        // another: each takes the second slot, the deep result keeps the first.
        for k in 1..50u64 {
            t.store(entry(0x20 + (k << 4), 0));
            assert_eq!(t.probe(0x20).map(|e| e.depth), Some(9), "after {k} leaves");
            assert_eq!(t.probe(0x20 + (k << 4)).map(|e| e.depth), Some(0));
        }
        // The other slot of the bucket (key bit 0 set) is the same bucket.
        t.store(entry(0x21, 1));
        assert_eq!(t.probe(0x20).map(|e| e.depth), Some(9));
        assert!(t.probe(0x21).is_some());
    }

    #[test]
    fn an_earlier_search_gives_way_but_stays_readable_for_a_while() {
        let mut t = Table::new(4);
        t.new_search();
        t.store(entry(0x20, 9));
        t.new_search();
        t.store(entry(0x30, 2));
        // The new search's result takes the first slot; the old deep one moves to the second.
        assert_eq!(t.probe(0x30).map(|e| e.depth), Some(2));
        assert_eq!(t.probe(0x20).map(|e| e.depth), Some(9));
        t.store(entry(0x40, 1));
        assert_eq!(
            t.probe(0x30).map(|e| e.depth),
            Some(2),
            "the deeper of this search"
        );
        assert!(t.probe(0x20).is_none(), "the old result went last");
    }

    proptest::proptest! {
        /// Whatever was stored before, a result is found right after it is stored, unless a
        /// deeper bound for the same position was kept instead.
        #[test]
        fn a_stored_result_is_found(
            ops in proptest::collection::vec((0u64..64, 0i8..12, proptest::bool::ANY), 1..200)
        ) {
            let mut t = Table::new(3);
            for (key, depth, new_search) in ops {
                if new_search {
                    t.new_search();
                }
                t.store(entry(key, depth));
                let found = t.probe(key);
                proptest::prop_assert!(found.is_some_and(|e| e.key == key && e.depth >= depth));
            }
        }
    }
}
