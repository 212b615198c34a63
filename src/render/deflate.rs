//! A PNG's image data as a zlib stream of separately deflated horizontal bands, each band
//! cached by content, so that a board picture that differs from an earlier one in a few rows
//! of cells only deflates those rows.
//!
//! A zlib stream is a two-byte header, deflate blocks and the Adler-32 of the uncompressed
//! data. Every band (a run of whole picture rows, each row a filter byte and its pixels) is
//! deflated on its own by a fresh compressor, so no match reaches into another band, and
//! ends with a sync flush: an empty stored block that leaves it byte-aligned and not final.
//! Bands can then be laid end to end in any combination, followed by an empty final block;
//! the stream's Adler-32 is combined from the bands' own. The result is a pure function of
//! the picture and the band boundaries: a cached band is byte for byte what deflating it
//! again would give, so whether the cache holds a band never changes the file.
//!
//! Rows are filtered with `Up` (each byte minus the byte above it), so a band's first row
//! depends on the last row of the band above. The cache key therefore covers the band's
//! pixels together with the row above it: one contiguous slice of the picture, hashed with
//! two independently and randomly seeded 64-bit hashes (128 bits; the seeds are drawn from
//! the operating system at first use, so colliding pictures cannot be prepared in advance).
//!
//! Bands share nothing. Deflating a band with the band above as preset dictionary (the
//! decoder has it in its window) makes files smaller, as a stone's rows then match those of
//! a stone one cell up (19x19, 86 stones: 43 KB, against 62 KB here and 45 KB as one
//! stream), but a band's bytes then depend on the band above as well, so a move changes
//! twice as many: 0.64 ms against 0.42 ms per picture, and 1.28 against 1.17 ms of CPU per
//! move through the whole bot (`cargo bench --bench render`, `--bench discord`).

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use flate2::{Compress, CompressError, Compression, FlushCompress};
use foldhash::SharedSeed;
use foldhash::fast::SeedableRandomState;
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};

/// Deflate level. Per 30 KB band of a 19x19 board with stones, level 1 takes 21 µs for
/// 4.2 KB, level 2 46 µs for 3.4 KB, level 3 60 µs for 3.4 KB; whole pictures of 86 stones
/// are 67, 54 and 53 KB. Level 1: under load through the fake Discord, deflating took 11% of
/// the whole process's CPU at level 2 (`perf`, 25 games on PostgreSQL), the largest single
/// item after the allocator, while 13 KB more per picture is nothing to Discord's upload
/// limits (8 MiB and up).
const LEVEL: u32 = 1;
/// PNG filter type `Up`.
const FILTER_UP: u8 = 2;
/// The zlib header: deflate with a 32 KiB window, "fastest" compression (level 1), no
/// dictionary (`0x7801` is a multiple of 31, as the format requires).
const ZLIB_HEADER: [u8; 2] = [0x78, 0x01];
/// An empty final block with fixed codes: BFINAL=1, BTYPE=01, end-of-block code.
const FINAL_BLOCK: [u8; 2] = [0x03, 0x00];
/// The modulus of Adler-32.
const ADLER_MOD: u64 = 65_521;

/// The shared cache's budget: deflated bytes plus a fixed overhead per entry. A 19x19 board
/// picture is 26 bands and about 60 KB, most of it bands with stones that only its own game
/// has; a move adds about 3 bands (7 KB). 16 MiB keeps the bands of a few hundred games'
/// latest pictures.
pub(crate) const SHARED_BUDGET: usize = 16 << 20;
/// What an entry costs besides its deflated bytes: the map's slot, the `Arc` and its header.
const ENTRY_OVERHEAD: usize = 96;

/// One deflated band.
pub(crate) struct Band {
    /// Raw deflate blocks ending in a sync flush.
    deflated: Box<[u8]>,
    /// Adler-32 of the band's filtered bytes.
    adler: u32,
    /// Number of filtered bytes: rows times (width + 1).
    len: u64,
}

impl Band {
    fn cost(&self) -> usize {
        self.deflated.len() + ENTRY_OVERHEAD
    }
}

/// What identifies a band's filtered bytes: the hashes of its pixels and the row above, the
/// width, the number of rows, and whether it is the picture's top band (with no row above).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    hash: [u64; 2],
    width: u32,
    rows: u32,
    top: bool,
}

/// The two hashers of band contents, seeded independently (each its own shared seed too).
fn hashers() -> &'static [SeedableRandomState; 2] {
    static SEEDS: OnceLock<[SharedSeed; 2]> = OnceLock::new();
    static HASHERS: OnceLock<[SeedableRandomState; 2]> = OnceLock::new();
    HASHERS.get_or_init(|| {
        // Without the system's randomness (never seen), the clock is still unpredictable
        // enough for a cache key.
        let mut rng = StdRng::try_from_os_rng().unwrap_or_else(|_| {
            let t = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            StdRng::seed_from_u64(t.as_nanos() as u64)
        });
        let seeds = SEEDS.get_or_init(|| {
            [
                SharedSeed::from_u64(rng.next_u64()),
                SharedSeed::from_u64(rng.next_u64()),
            ]
        });
        [
            SeedableRandomState::with_seed(rng.next_u64(), &seeds[0]),
            SeedableRandomState::with_seed(rng.next_u64(), &seeds[1]),
        ]
    })
}

/// Counters and size of a band cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Bands held.
    pub entries: usize,
    /// Deflated bytes held, plus a fixed overhead per entry: what the budget bounds.
    pub bytes: usize,
    /// Bands found in the cache since start-up (or since the last clear).
    pub hits: u64,
    /// Bands deflated because the cache did not hold them.
    pub misses: u64,
}

/// Two generations of bands: new bands go to the young one; a band found in the old one
/// moves to the young one. When the young generation has used half the budget it becomes
/// the old one and the old one is dropped, so bands not used for a whole generation go
/// and the total stays within the budget, at the price of one map lookup per band.
#[derive(Default)]
struct Generations {
    young: HashMap<Key, Arc<Band>>,
    old: HashMap<Key, Arc<Band>>,
    young_bytes: usize,
    old_bytes: usize,
    hits: u64,
    misses: u64,
}

impl Generations {
    fn get(&mut self, key: &Key) -> Option<Arc<Band>> {
        if let Some(b) = self.young.get(key) {
            return Some(b.clone());
        }
        let b = self.old.remove(key)?;
        self.old_bytes -= b.cost();
        self.put(*key, b.clone());
        Some(b)
    }

    fn put(&mut self, key: Key, band: Arc<Band>) {
        let cost = band.cost();
        if let Some(old) = self.young.insert(key, band) {
            self.young_bytes -= old.cost();
        }
        self.young_bytes += cost;
    }
}

/// A thread-safe, size-bounded cache of deflated bands.
pub(crate) struct BandCache {
    budget: usize,
    inner: Mutex<Generations>,
}

impl BandCache {
    /// An empty cache holding at most about `budget` bytes (see [`CacheStats::bytes`]).
    pub fn new(budget: usize) -> BandCache {
        BandCache {
            budget,
            inner: Mutex::new(Generations::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Generations> {
        // The maps stay consistent even if a thread panicked while holding the lock: the
        // worst case is a miscounted size, which the next generation change resets.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Looks up every key at once (one lock for the whole picture).
    fn get_all(&self, keys: &[Key]) -> Vec<Option<Arc<Band>>> {
        let mut g = self.lock();
        let found: Vec<_> = keys.iter().map(|k| g.get(k)).collect();
        let hits = found.iter().filter(|b| b.is_some()).count() as u64;
        g.hits += hits;
        g.misses += keys.len() as u64 - hits;
        found
    }

    /// Adds freshly deflated bands.
    fn put_all(&self, bands: &[(Key, Arc<Band>)]) {
        // Thousands of bands leave with an old generation: free them after unlocking.
        let mut dropped = Vec::new();
        let mut g = self.lock();
        for (key, band) in bands {
            let cost = band.cost();
            // A band larger than half the budget is not kept at all.
            if cost > self.budget / 2 {
                continue;
            }
            // Bands found in the old generation move to the young one, so the young one may
            // have grown past half the budget without an insert: check the total as well.
            // Two turns at most empty both generations.
            while g.young_bytes + cost > self.budget / 2
                || g.young_bytes + g.old_bytes + cost > self.budget
            {
                let young = std::mem::take(&mut g.young);
                dropped.push(std::mem::replace(&mut g.old, young));
                g.old_bytes = std::mem::take(&mut g.young_bytes);
            }
            g.put(*key, band.clone());
        }
        drop(g);
        drop(dropped);
    }

    /// Entries, bytes held and counters.
    pub fn stats(&self) -> CacheStats {
        let g = self.lock();
        CacheStats {
            entries: g.young.len() + g.old.len(),
            bytes: g.young_bytes + g.old_bytes,
            hits: g.hits,
            misses: g.misses,
        }
    }

    /// Drops every band and resets the counters.
    pub fn clear(&self) {
        *self.lock() = Generations::default();
    }
}

/// The cache shared by every board picture of the process.
pub(crate) fn shared() -> &'static BandCache {
    static SHARED: OnceLock<BandCache> = OnceLock::new();
    SHARED.get_or_init(|| BandCache::new(SHARED_BUDGET))
}

/// Per-thread scratch space: a compressor (its state is a few hundred KB, too much to
/// allocate per band) and the filtered rows and output of the band being deflated.
struct Scratch {
    deflate: Compress,
    filtered: Vec<u8>,
    out: Vec<u8>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch {
        deflate: Compress::new(Compression::new(LEVEL), false),
        filtered: Vec::new(),
        out: Vec::new(),
    });
}

/// Filters rows with `Up` into `out`: each row is the filter byte and its pixels minus those
/// of the row above (`above` for the first row; none for a picture's top row).
fn filter_into(out: &mut Vec<u8>, above: Option<&[u8]>, rows: &[u8], width: usize) {
    out.clear();
    let mut prev = above;
    for row in rows.chunks_exact(width) {
        out.push(FILTER_UP);
        match prev {
            Some(p) => out.extend(row.iter().zip(p).map(|(a, b)| a.wrapping_sub(*b))),
            None => out.extend_from_slice(row),
        }
        prev = Some(row);
    }
}

/// Filters and deflates one band. `above` is the row above the band (none for the top band),
/// `rows` the band's pixels, `width` pixels a row.
fn deflate_band(above: Option<&[u8]>, rows: &[u8], width: usize) -> Result<Band, CompressError> {
    SCRATCH.with_borrow_mut(|s| {
        filter_into(&mut s.filtered, above, rows, width);
        s.deflate.reset();
        let data = &s.filtered[..];
        s.out.clear();
        // Deflate never grows data by more than 5 bytes per 16 KiB stored block; with room
        // for that the loop runs once.
        s.out.reserve(data.len() + data.len() / 1024 + 64);
        loop {
            let done = s.deflate.total_in() as usize;
            s.deflate
                .compress_vec(&data[done..], &mut s.out, FlushCompress::Sync)?;
            // Finished once all input is taken and the flush had room to complete.
            if s.deflate.total_in() as usize == data.len() && s.out.len() < s.out.capacity() {
                break;
            }
            s.out.reserve(s.out.capacity().max(1024));
        }
        Ok(Band {
            deflated: s.out.as_slice().into(),
            adler: simd_adler32::adler32(&data),
            len: data.len() as u64,
        })
    })
}

/// Adler-32 of the concatenation of two byte strings, from their checksums and the second
/// one's length.
pub(crate) fn adler32_combine(first: u32, second: u32, second_len: u64) -> u32 {
    let rem = second_len % ADLER_MOD;
    let (a1, b1) = (u64::from(first & 0xFFFF), u64::from(first >> 16));
    let (a2, b2) = (u64::from(second & 0xFFFF), u64::from(second >> 16));
    let a = (a1 + a2 + ADLER_MOD - 1) % ADLER_MOD;
    let b = (b1 + b2 + rem * a1 + ADLER_MOD - rem) % ADLER_MOD;
    ((b << 16) | a) as u32
}

/// The rows where bands start: `starts` cleaned (inside the picture, sorted, unique) with the
/// first row added, and the picture's height as the final boundary.
pub(crate) fn boundaries(starts: &[u32], height: usize) -> Vec<usize> {
    let mut cuts: Vec<usize> = starts
        .iter()
        .map(|&s| s as usize)
        .filter(|&s| s > 0 && s < height)
        .collect();
    cuts.push(0);
    cuts.push(height);
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

/// The key of the band of rows `from..to` of a picture of `width` pixels a row: its pixels
/// and the row above it hashed together.
pub(crate) fn band_key(width: usize, idx: &[u8], from: usize, to: usize) -> Key {
    let [h0, h1] = hashers();
    let slice = &idx[from.saturating_sub(1) * width..to * width];
    Key {
        hash: [h0.hash_one(slice), h1.hash_one(slice)],
        width: width as u32,
        rows: (to - from) as u32,
        top: from == 0,
    }
}

/// The deflated bands of a picture of `width` pixels a row and `idx.len() / width` rows,
/// split where `starts` says (row numbers; others than 0 mark further boundaries), found in
/// `cache` where it has them and added to it otherwise. Without a cache, every band is
/// deflated (once, if the picture repeats it).
///
/// `width` must be positive and divide `idx.len()`.
pub(crate) fn bands(
    width: usize,
    idx: &[u8],
    starts: &[u32],
    cache: Option<&BandCache>,
) -> Result<Vec<Arc<Band>>, CompressError> {
    let height = idx.len() / width.max(1);
    let bounds = boundaries(starts, height);
    let keys: Vec<Key> = bounds
        .windows(2)
        .map(|r| band_key(width, idx, r[0], r[1]))
        .collect();
    keyed_bands(width, idx, &bounds, &keys, cache)
}

/// [`bands`] for a picture whose band boundaries (from [`boundaries`]) and keys (from
/// [`band_key`], one per band) are known already: an incremental picture only hashes the
/// bands it changed.
pub(crate) fn keyed_bands(
    width: usize,
    idx: &[u8],
    bounds: &[usize],
    keys: &[Key],
    cache: Option<&BandCache>,
) -> Result<Vec<Arc<Band>>, CompressError> {
    let mut found = match cache {
        Some(c) => c.get_all(keys),
        None => vec![None; keys.len()],
    };
    let mut fresh: Vec<(Key, Arc<Band>)> = Vec::new();
    for (i, r) in bounds.windows(2).enumerate() {
        if found[i].is_some() {
            continue;
        }
        // A band repeated within the picture (rows of cells without stones) is deflated once.
        if let Some((_, b)) = fresh.iter().find(|(k, _)| *k == keys[i]) {
            found[i] = Some(b.clone());
            continue;
        }
        let above = (r[0] > 0).then(|| &idx[(r[0] - 1) * width..r[0] * width]);
        let band = Arc::new(deflate_band(
            above,
            &idx[r[0] * width..r[1] * width],
            width,
        )?);
        found[i] = Some(band.clone());
        fresh.push((keys[i], band));
    }
    if let Some(c) = cache
        && !fresh.is_empty()
    {
        c.put_all(&fresh);
    }
    Ok(found.into_iter().flatten().collect())
}

/// Length of the zlib stream made of these bands.
pub(crate) fn zlib_len(bands: &[Arc<Band>]) -> usize {
    ZLIB_HEADER.len() + bands.iter().map(|b| b.deflated.len()).sum::<usize>() + 2 + 4
}

/// Appends the zlib stream made of these bands to `out`.
pub(crate) fn write_zlib(bands: &[Arc<Band>], out: &mut Vec<u8>) {
    out.extend_from_slice(&ZLIB_HEADER);
    let mut adler = 1;
    for b in bands {
        out.extend_from_slice(&b.deflated);
        adler = adler32_combine(adler, b.adler, b.len);
    }
    out.extend_from_slice(&FINAL_BLOCK);
    out.extend_from_slice(&adler.to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn inflate(zlib: &[u8]) -> Vec<u8> {
        let mut d = flate2::Decompress::new(true);
        let mut out = Vec::with_capacity(1 << 20);
        loop {
            let before = d.total_in() as usize;
            let st = d
                .decompress_vec(&zlib[before..], &mut out, flate2::FlushDecompress::Finish)
                .expect("a valid zlib stream");
            if st == flate2::Status::StreamEnd {
                break;
            }
            out.reserve(out.capacity());
        }
        assert_eq!(
            d.total_in() as usize,
            zlib.len(),
            "nothing after the stream"
        );
        out
    }

    fn up_filtered(width: usize, idx: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        for (y, row) in idx.chunks_exact(width).enumerate() {
            v.push(FILTER_UP);
            for (x, &p) in row.iter().enumerate() {
                let above = if y == 0 { 0 } else { idx[(y - 1) * width + x] };
                v.push(p.wrapping_sub(above));
            }
        }
        v
    }

    fn zlib_of(width: usize, idx: &[u8], starts: &[u32], cache: Option<&BandCache>) -> Vec<u8> {
        let b = bands(width, idx, starts, cache).unwrap();
        let mut out = Vec::new();
        write_zlib(&b, &mut out);
        assert_eq!(out.len(), zlib_len(&b));
        out
    }

    proptest! {
        #[test]
        fn adler_of_a_concatenation_combines(a in proptest::collection::vec(any::<u8>(), 0..3000),
                                             b in proptest::collection::vec(any::<u8>(), 0..3000)) {
            let whole: Vec<u8> = a.iter().chain(&b).copied().collect();
            let combined = adler32_combine(
                simd_adler32::adler32(&a.as_slice()),
                simd_adler32::adler32(&b.as_slice()),
                b.len() as u64,
            );
            prop_assert_eq!(combined, simd_adler32::adler32(&whole.as_slice()));
        }

        #[test]
        fn any_banding_inflates_to_the_up_filtered_rows(
            width in 1usize..70,
            rows in 1usize..60,
            seed in any::<u64>(),
            starts in proptest::collection::vec(0u32..80, 0..12),
        ) {
            // Runs of a few values, like a picture, so that deflate finds matches.
            let mut x = seed | 1;
            let idx: Vec<u8> = (0..width * rows)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % 5) as u8 * 50
                })
                .collect();
            let cache = BandCache::new(1 << 20);
            let cold = zlib_of(width, &idx, &starts, None);
            prop_assert_eq!(inflate(&cold), up_filtered(width, &idx));
            // Through a cache, first empty then full: the same bytes.
            prop_assert_eq!(&zlib_of(width, &idx, &starts, Some(&cache)), &cold);
            prop_assert_eq!(&zlib_of(width, &idx, &starts, Some(&cache)), &cold);
        }
    }

    #[test]
    fn repeated_bands_are_deflated_once_and_found_again() {
        let width = 40;
        // Four identical bands of 10 rows after a different first one.
        let mut idx = vec![7u8; width * 50];
        idx[..width * 10].fill(3);
        let starts = [0, 10, 20, 30, 40];
        let cache = BandCache::new(1 << 20);
        let first = zlib_of(width, &idx, &starts, Some(&cache));
        let s = cache.stats();
        // The second band follows a different row; the last three are the same slice.
        assert_eq!((s.entries, s.hits, s.misses), (3, 0, 5));
        let again = zlib_of(width, &idx, &starts, Some(&cache));
        assert_eq!(again, first);
        let s = cache.stats();
        assert_eq!((s.entries, s.hits, s.misses), (3, 5, 5));
        cache.clear();
        assert_eq!(cache.stats(), CacheStats::default());
    }

    #[test]
    fn the_cache_stays_within_its_budget_and_keeps_what_is_used() {
        let width = 64;
        let budget = 40 * 1024;
        let cache = BandCache::new(budget);
        // Noise compresses badly: each band costs about its 64 * 8 bytes.
        let mut x = 99u64;
        let mut noise = |n: usize| -> Vec<u8> {
            (0..n)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (x >> 56) as u8
                })
                .collect()
        };
        let kept = noise(width * 8);
        zlib_of(width, &kept, &[], Some(&cache));
        for _ in 0..400 {
            zlib_of(width, &noise(width * 8), &[], Some(&cache));
            // A band in use stays, moving from the old generation to the young one.
            zlib_of(width, &kept, &[], Some(&cache));
            assert!(cache.stats().bytes <= budget, "{:?}", cache.stats());
        }
        let s = cache.stats();
        assert_eq!(s.misses, 401, "only the noise missed: {s:?}");
        assert!(s.entries < 400, "old bands were dropped: {s:?}");
    }

    #[test]
    fn threads_share_the_cache() {
        let width = 100;
        let cache = BandCache::new(1 << 20);
        let pictures: Vec<Vec<u8>> = (0..8u8)
            .map(|k| (0..width * 60).map(|i| ((i / 7) as u8 ^ k) % 9).collect())
            .collect();
        let cold: Vec<Vec<u8>> = pictures
            .iter()
            .map(|p| zlib_of(width, p, &[10, 20, 30, 40, 50], None))
            .collect();
        std::thread::scope(|s| {
            for t in 0..4 {
                let (cache, pictures, cold) = (&cache, &pictures, &cold);
                s.spawn(move || {
                    for round in 0..20 {
                        let k = (t + round) % pictures.len();
                        let got = zlib_of(width, &pictures[k], &[10, 20, 30, 40, 50], Some(cache));
                        assert_eq!(got, cold[k]);
                    }
                });
            }
        });
        assert!(cache.stats().hits > 0);
    }
}
