//! Settings read lately, kept a few seconds: every interaction reads its user's preferences
//! and its guild's settings, often several times, and they rarely change.
//!
//! Writes through the service drop the entry, so within a process a cached value is never
//! older than the database. Another process writing to the same database (DESIGN.md
//! section 4b) is seen once the entry expires, or on PostgreSQL once its notice arrives
//! (`service::changes`).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

struct Entries<K, V> {
    map: HashMap<K, (V, Instant)>,
    /// Counts writes, so that a read that raced a write does not store the older value.
    writes: u64,
}

/// A small map of values read from the database, each kept for `ttl`.
pub(crate) struct Memo<K, V> {
    ttl: Duration,
    capacity: usize,
    entries: Mutex<Entries<K, V>>,
}

/// What a read saw before asking the database; hand it back to [`Memo::put_read`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReadTicket(u64);

impl<K: Eq + Hash + Copy, V: Clone> Memo<K, V> {
    /// An empty memo keeping at most `capacity` values, each for `ttl`.
    pub fn new(ttl: Duration, capacity: usize) -> Memo<K, V> {
        Memo {
            ttl,
            capacity: capacity.max(1),
            entries: Mutex::new(Entries {
                map: HashMap::new(),
                writes: 0,
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Entries<K, V>> {
        // Every update leaves the map whole, so a panic elsewhere cannot leave it broken.
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The value, if read or written less than `ttl` ago; otherwise a ticket for the read.
    pub fn get(&self, key: K) -> Result<V, ReadTicket> {
        let e = self.lock();
        match e.map.get(&key) {
            Some((v, at)) if at.elapsed() < self.ttl => Ok(v.clone()),
            _ => Err(ReadTicket(e.writes)),
        }
    }

    /// Keeps a value just read from the database, unless a write happened since the read
    /// began (the value read may then be the older one).
    pub fn put_read(&self, key: K, value: V, ticket: ReadTicket) {
        let mut e = self.lock();
        if e.writes == ticket.0 {
            self.insert(&mut e, key, value);
        }
    }

    /// Forgets a key whose value is being or was just written to the database (whether the
    /// write succeeded or not), so that the next read asks the database; a read that began
    /// before this does not store what it read.
    pub fn forget(&self, key: K) {
        let mut e = self.lock();
        e.writes += 1;
        e.map.remove(&key);
    }

    /// Forgets every value (another process may have changed any of them), as [`Memo::forget`]
    /// does one.
    pub fn clear(&self) {
        let mut e = self.lock();
        e.writes += 1;
        e.map.clear();
    }

    fn insert(&self, e: &mut Entries<K, V>, key: K, value: V) {
        if e.map.len() >= self.capacity && !e.map.contains_key(&key) {
            let ttl = self.ttl;
            e.map.retain(|_, (_, at)| at.elapsed() < ttl);
            if e.map.len() >= self.capacity {
                e.map.clear();
            }
        }
        e.map.insert(key, (value, Instant::now()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_kept_for_its_time_only() {
        let m: Memo<u32, &str> = Memo::new(Duration::from_millis(40), 10);
        let t = m.get(1).unwrap_err();
        m.put_read(1, "a", t);
        assert_eq!(m.get(1).ok(), Some("a"));
        std::thread::sleep(Duration::from_millis(60));
        assert!(m.get(1).is_err(), "expired");
    }

    #[test]
    fn a_read_that_raced_a_write_is_not_kept() {
        let m: Memo<u32, &str> = Memo::new(Duration::from_secs(60), 10);
        let t = m.get(1).unwrap_err();
        m.put_read(1, "old", t);
        assert_eq!(m.get(1).ok(), Some("old"));
        // A write makes the next read ask the database.
        let t = m.get(2).unwrap_err();
        m.forget(1);
        assert!(m.get(1).is_err());
        // A read that began before the write (of any key) does not store what it saw.
        m.put_read(2, "seen before the write", t);
        assert!(m.get(2).is_err());
        let t = m.get(1).unwrap_err();
        m.put_read(1, "new", t);
        assert_eq!(m.get(1).ok(), Some("new"));
    }

    #[test]
    fn it_never_holds_more_than_its_capacity() {
        let m: Memo<u32, u32> = Memo::new(Duration::from_secs(60), 3);
        for k in 0..10 {
            let t = m.get(k).unwrap_err();
            m.put_read(k, k * 2, t);
            assert!(m.lock().map.len() <= 3);
            assert_eq!(m.get(k).ok(), Some(k * 2));
        }
    }
}
