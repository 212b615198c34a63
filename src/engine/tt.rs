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

/// A fixed-size table indexed by the low bits of the hash.
pub(crate) struct Table {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` slots.
    pub(crate) fn new(bits: u32) -> Table {
        let n = 1usize << bits;
        Table {
            slots: vec![None; n],
            mask: n - 1,
        }
    }

    /// The entry stored for `key`, if it is still there.
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[key as usize & self.mask].filter(|e| e.key == key)
    }

    /// Stores a result; a deeper result for the same position is kept over a shallower one.
    pub(crate) fn store(&mut self, e: Entry) {
        let slot = &mut self.slots[e.key as usize & self.mask];
        if let Some(old) = slot
            && old.key == e.key
            && old.depth > e.depth
            && e.bound != Bound::Exact
        {
            return;
        }
        *slot = Some(e);
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
}
