//! A game's next picture drawn from its last one: the bot posts a game's board after every
//! move, and a move changes a few cells (the new stone, the last-move dot it takes over,
//! captured stones, a winning line) and the footer. Redrawing and rehashing the whole
//! picture for that was most of a picture's cost.
//!
//! For each recent "picture series" (the same names, options and rules: in practice one
//! game seen with one viewer's settings) a bounded cache keeps the last picture's palette
//! indices, what each of its cells showed, its footer and its bands' keys. The next picture
//! of the series starts from those indices, repaints only the cells whose content differs
//! and the footer if its words differ, and rehashes only the bands that hold a changed row
//! (or whose row above changed: a band's key covers it, see `deflate`). Bands then come from
//! the shared band cache by key or are deflated as before.
//!
//! The file is byte for byte the one a full redraw gives, whatever the series held before
//! (another position of the game, a take-back, another game with the same names): the diff
//! is between cell contents, and every cell is painted by the same code either way. Only
//! the geometry must match (board size, coordinates, theme, footer rows); when it does not,
//! the picture is drawn in full. A series is a hint for speed, never for correctness.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::sync::{Mutex, OnceLock, PoisonError};

use super::RenderOptions;
use super::cache;
use super::compose::{Cells, Painter};
use super::deflate::{self, Key};
use super::encode;
use super::layout::Layout;
use super::paint::filled;
use super::scene::{LineMark, Part, Row, Scene};
use super::theme::Theme;

/// The shared cache's budget in bytes of kept pictures: a board picture's indices are about
/// 0.75 MB whatever the board size (about 800 x 930 pixels), so this keeps the last
/// pictures of about 40 series. More active games than that each start afresh (a full
/// redraw, as without this cache) once their entry has been dropped.
pub(crate) const SHARED_BUDGET: usize = 32 << 20;

/// What must match for one picture to be drawn over another: the cached board (size,
/// theme, coordinates) and the layout (footer rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    size: u8,
    theme: Theme,
    coordinates: bool,
    rows: usize,
}

/// The footer's content: it is repainted whole when any of it differs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FooterContent {
    rows: Vec<Row>,
    team_split: Option<usize>,
    status: Vec<Part>,
}

/// The last picture of a series.
struct Kept {
    shape: Shape,
    cells: Cells,
    lines: Vec<LineMark>,
    footer: FooterContent,
    idx: Vec<u8>,
    keys: Vec<Key>,
    /// When it was last used, for dropping the least recently used first.
    used: u64,
}

impl Kept {
    fn cost(&self) -> usize {
        self.idx.len() + self.keys.len() * std::mem::size_of::<Key>() + 4 * self.cells.n.pow(2)
    }
}

#[derive(Default)]
struct Entries {
    map: HashMap<u64, Kept>,
    bytes: usize,
    tick: u64,
}

/// A bounded cache of the last picture of each series, shared between threads. A picture
/// takes its series' entry out while it is drawn and puts the new one back, so two threads
/// drawing the same series at once only cost one of them a full redraw.
pub(crate) struct PictureCache {
    budget: usize,
    inner: Mutex<Entries>,
}

/// Counters of how pictures were drawn, for tests and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Drawn {
    /// Cells repainted.
    pub cells: usize,
    /// Bands rehashed.
    pub bands: usize,
    /// Whether the picture was drawn in full.
    pub full: bool,
}

impl PictureCache {
    /// An empty cache keeping at most about `budget` bytes of pictures.
    pub fn new(budget: usize) -> PictureCache {
        PictureCache {
            budget,
            inner: Mutex::new(Entries::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        // Entries stay consistent if a thread panicked holding the lock (it only moves
        // whole entries in and out); at worst the byte count is off until they are dropped.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn take(&self, series: u64) -> Option<Kept> {
        let mut g = self.lock();
        let kept = g.map.remove(&series)?;
        g.bytes -= kept.cost();
        Some(kept)
    }

    fn put(&self, series: u64, mut kept: Kept) {
        let cost = kept.cost();
        if cost > self.budget {
            return;
        }
        let mut dropped = Vec::new();
        let mut g = self.lock();
        g.tick += 1;
        kept.used = g.tick;
        while g.bytes + cost > self.budget {
            let Some(oldest) = g.map.iter().min_by_key(|(_, k)| k.used).map(|(s, _)| *s) else {
                break;
            };
            if let Some(k) = g.map.remove(&oldest) {
                g.bytes -= k.cost();
                dropped.push(k);
            }
        }
        g.bytes += cost;
        if let Some(old) = g.map.insert(series, kept) {
            g.bytes -= old.cost();
            dropped.push(old);
        }
        drop(g);
        // Pictures of 0.75 MB are freed after unlocking.
        drop(dropped);
    }

    /// Drops every picture.
    pub fn clear(&self) {
        let old = std::mem::take(&mut *self.lock());
        drop(old);
    }

    /// Pictures kept and their bytes.
    #[cfg(test)]
    pub fn len_and_bytes(&self) -> (usize, usize) {
        let g = self.lock();
        (g.map.len(), g.bytes)
    }
}

/// The cache every thread's board pictures share.
pub(crate) fn shared() -> &'static PictureCache {
    static SHARED: OnceLock<PictureCache> = OnceLock::new();
    SHARED.get_or_init(|| PictureCache::new(SHARED_BUDGET))
}

/// The series of pictures that `players` and `opts` for a game with these rules draw.
pub(crate) fn series(players: &[String], opts: &RenderOptions, size: u8, rows: usize) -> u64 {
    // A fixed seed: a collision only costs speed (the pictures stay right), so the key need
    // not resist anyone.
    let state = foldhash::fast::FixedState::with_seed(0x005E_ED11);
    let mut h = state.build_hasher();
    players.hash(&mut h);
    opts.hash(&mut h);
    size.hash(&mut h);
    rows.hash(&mut h);
    std::hash::Hasher::finish(&h)
}

/// Draws `scene` as `opts` ask and encodes it as a PNG through the shared band cache,
/// starting from the last picture of `series` in `pictures` when there is one, and keeps the
/// new picture there in its place. Also says how much was drawn.
pub(crate) fn render(
    pictures: &PictureCache,
    series: u64,
    scene: &Scene,
    opts: &RenderOptions,
) -> (Vec<u8>, Drawn) {
    let theme = opts.theme;
    let assets = cache::theme_assets(theme);
    let bg = cache::background(scene.size, theme, opts.coordinates);
    let layout = Layout::new(scene.size, opts.coordinates, scene.rows.len() as u32);
    let painter = Painter {
        layout: &layout,
        bg: &bg,
        icons: &assets.icons,
        colours: theme.colours(),
        quant: &assets.quant,
    };
    let shape = Shape {
        size: scene.size,
        theme,
        coordinates: opts.coordinates,
        rows: scene.rows.len(),
    };
    let (w, h) = (layout.width as usize, layout.height() as usize);
    let bounds = deflate::boundaries(&layout.band_starts(), h);
    let cells = Cells::of(scene, &layout);
    let footer = FooterContent {
        rows: scene.rows.clone(),
        team_split: scene.team_split,
        status: scene.status.clone(),
    };
    let mut drawn = Drawn::default();
    let (idx, keys) = match pictures.take(series).filter(|k| k.shape == shape) {
        None => {
            let idx = painter.compose(&cells, scene);
            let keys: Vec<Key> = bounds
                .windows(2)
                .map(|r| deflate::band_key(w, &idx, r[0], r[1]))
                .collect();
            drawn = Drawn {
                cells: cells.n * cells.n,
                bands: keys.len(),
                full: true,
            };
            (idx, keys)
        }
        Some(kept) => {
            let mut idx = kept.idx;
            let mut keys = kept.keys;
            // Rows whose pixels may have changed.
            let mut dirty = vec![false; h];
            let same_lines = kept.lines == scene.lines;
            let mut tile = filled(layout.cell, layout.cell, [0; 3]);
            let s = layout.cell as usize;
            for i in 0..cells.n * cells.n {
                if cells.same_cell(&kept.cells, i, same_lines) {
                    continue;
                }
                painter.paint_cell(&cells, i, &mut idx, &mut tile, true);
                let y0 = layout
                    .cell_origin((i % cells.n) as u8, (i / cells.n) as u8)
                    .1;
                dirty[y0 as usize..y0 as usize + s].fill(true);
                drawn.cells += 1;
            }
            if kept.footer != footer {
                painter.paint_footer(scene, &mut idx);
                dirty[layout.width as usize..].fill(true);
            }
            for (k, r) in bounds.windows(2).enumerate() {
                // A band's key covers the row above it too.
                if dirty[r[0].saturating_sub(1)..r[1]].contains(&true) {
                    keys[k] = deflate::band_key(w, &idx, r[0], r[1]);
                    drawn.bands += 1;
                }
            }
            (idx, keys)
        }
    };
    let cache = deflate::shared();
    let png = deflate::keyed_bands(w, &idx, &bounds, &keys, Some(cache))
        .map_err(encode::PngError::from)
        .and_then(|bands| {
            encode::png_of_bands(layout.width, layout.height(), &assets.quant.palette, &bands)
        })
        // A picture of the renderer's own dimensions and palette always encodes.
        .expect("the renderer's pictures have valid dimensions and palettes");
    pictures.put(
        series,
        Kept {
            shape,
            cells,
            lines: scene.lines.clone(),
            footer,
            idx,
            keys,
            used: 0,
        },
    );
    (png, drawn)
}

#[cfg(test)]
mod tests;
