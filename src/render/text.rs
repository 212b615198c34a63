//! Text: names cleaned by `sanitize.rs`, bidirectional order (unicode-bidi), grapheme clusters
//! (unicode-segmentation), a font per cluster (`fonts.rs`), shaping (rustybuzz), ellipsis,
//! and drawing, with shared caches of shaped lines and of rasterised glyphs.
//!
//! Outline glyphs are rasterised by ab_glyph (anti-aliased coverage) and colour emoji come
//! from the emoji font's PNG bitmaps, decoded and scaled by the `image` crate. Drawing then
//! blends the cached coverage or premultiplied colour into the picture: this blending is
//! the only pixel code here, since the pictures are palette images drawn through
//! [`Canvas`] (see `compose.rs`), not `image` buffers.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, RwLock};

use ab_glyph::{Font, GlyphId, GlyphImageFormat, PxScale, point};
use rustybuzz::{Direction, UnicodeBuffer};
use unicode_bidi::BidiInfo;
use unicode_segmentation::UnicodeSegmentation;

use super::fonts::{self, Bundled};
use super::paint::{Canvas, Clip, filled, over_premul};
pub(crate) use super::sanitize::sanitize;
use super::theme::Rgb;

/// Glyph rasters kept before the cache is emptied (bounds memory under hostile names).
const GLYPH_CACHE_LIMIT: usize = 4096;
/// Shaped lines kept before the cache is emptied.
const LINE_CACHE_LIMIT: usize = 2048;

/// One glyph placed along the baseline.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Placed {
    font: u8,
    id: u16,
    /// Pen position plus the glyph's offset, in pixels from the start of the line.
    x: f32,
    /// Vertical offset in pixels, down positive.
    dy: f32,
}

/// A line of text laid out at one size in visual order, ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Shaped {
    items: Vec<Placed>,
    em: f32,
    /// Advance width in pixels.
    pub width: f32,
}

impl Shaped {
    /// Whether some glyph is a font's `.notdef` (a box: no bundled font has the character).
    #[cfg(test)]
    pub(crate) fn has_notdef(&self) -> bool {
        self.items.iter().any(|p| p.id == 0)
    }

    /// The fonts used, in visual order, without repeats next to each other.
    #[cfg(test)]
    pub(crate) fn fonts(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = Vec::new();
        for p in &self.items {
            let name = fonts::font(p.font).map_or("?", |f| f.name);
            if v.last() != Some(&name) {
                v.push(name);
            }
        }
        v
    }
}

/// Splits a run of one direction into pieces of one font, in logical order.
fn font_runs(text: &str) -> Vec<(u8, &str)> {
    let mut runs: Vec<(u8, usize, usize)> = Vec::new();
    let mut previous = None;
    for (at, cluster) in text.grapheme_indices(true) {
        let font = fonts::pick(cluster, previous).unwrap_or(0);
        previous = Some(font);
        match runs.last_mut() {
            Some((f, _, end)) if *f == font => *end = at + cluster.len(),
            _ => runs.push((font, at, at + cluster.len())),
        }
    }
    runs.into_iter()
        .map(|(f, start, end)| (f, &text[start..end]))
        .collect()
}

/// Shapes one piece with one font, appending its glyphs at pen position `x`.
fn shape_run(text: &str, font: u8, rtl: bool, em: f32, x: &mut f32, out: &mut Vec<Placed>) {
    let Some(f) = fonts::font(font) else {
        return;
    };
    let mut buf = UnicodeBuffer::new();
    buf.push_str(text);
    buf.set_direction(if rtl {
        Direction::RightToLeft
    } else {
        Direction::LeftToRight
    });
    buf.guess_segment_properties();
    let glyphs = rustybuzz::shape(&f.shaper, &[], buf);
    let scale = em / f.upem;
    for (info, pos) in glyphs.glyph_infos().iter().zip(glyphs.glyph_positions()) {
        out.push(Placed {
            font,
            id: u16::try_from(info.glyph_id).unwrap_or(0),
            x: *x + pos.x_offset as f32 * scale,
            dy: -(pos.y_offset as f32) * scale,
        });
        *x += pos.x_advance as f32 * scale;
    }
}

/// Lays out text (already cleaned) at em size `em`: bidi runs in visual order, each cut
/// into pieces of one font and shaped.
fn shape_uncached(text: &str, em: f32) -> Shaped {
    let mut items = Vec::with_capacity(text.len());
    let mut x = 0.0;
    if !text.is_empty() {
        let bidi = BidiInfo::new(text, None);
        for para in &bidi.paragraphs {
            let (levels, runs) = bidi.visual_runs(para, para.range.clone());
            for run in runs {
                let rtl = levels[run.start].is_rtl();
                let mut pieces = font_runs(&text[run]);
                if rtl {
                    pieces.reverse();
                }
                for (font, piece) in pieces {
                    shape_run(piece, font, rtl, em, &mut x, &mut items);
                }
            }
        }
    }
    Shaped {
        items,
        em,
        width: x,
    }
}

type LineKey = (String, u32, u32, bool);

static LINES: LazyLock<RwLock<HashMap<LineKey, Arc<Shaped>>>> =
    LazyLock::new(|| RwLock::new(HashMap::new()));

/// Looks a line up in the shared cache, or makes and keeps it.
fn cached(key: LineKey, make: impl FnOnce() -> Shaped) -> Arc<Shaped> {
    if let Some(s) = LINES.read().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return s.clone();
    }
    let s = Arc::new(make());
    let mut map = LINES.write().unwrap_or_else(|e| e.into_inner());
    if map.len() >= LINE_CACHE_LIMIT {
        map.clear();
    }
    map.insert(key, s.clone());
    s
}

/// Lays out text (already cleaned) at em size `em`, in visual order.
pub(crate) fn shape(text: &str, em: f32) -> Arc<Shaped> {
    cached((text.to_owned(), em.to_bits(), 0, false), || {
        shape_uncached(text, em)
    })
}

/// Lays out text no wider than `max_width`, cutting it after a grapheme cluster with an
/// ellipsis when it is too wide or was cut already (`cut_already`); nothing at all when not
/// even the ellipsis fits. Lines are shaped once and cached, so the next picture of a game
/// does not shape its names again.
pub(crate) fn fit(text: &str, em: f32, max_width: f32, cut_already: bool) -> Arc<Shaped> {
    let max_width = max_width.max(0.0);
    let key = (
        text.to_owned(),
        em.to_bits(),
        max_width.to_bits(),
        cut_already,
    );
    cached(key, || fit_uncached(text, em, max_width, cut_already))
}

fn fit_uncached(text: &str, em: f32, max_width: f32, cut_already: bool) -> Shaped {
    let whole = shape_uncached(text, em);
    if whole.width <= max_width && !cut_already {
        return whole;
    }
    let ends: Vec<usize> = text
        .grapheme_indices(true)
        .map(|(at, g)| at + g.len())
        .collect();
    let with_ellipsis = |k: usize| {
        let kept = if k == 0 { "" } else { &text[..ends[k - 1]] };
        let mut s = kept.trim_end().to_string();
        s.push('…');
        shape_uncached(&s, em)
    };
    // Widths grow with the clusters kept: search for the longest prefix that fits.
    let (mut lo, mut hi) = (0usize, ends.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if with_ellipsis(mid).width <= max_width {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let best = with_ellipsis(lo);
    if best.width <= max_width {
        best
    } else {
        Shaped {
            items: Vec::new(),
            em,
            width: 0.0,
        }
    }
}

/// Draws shaped text with its baseline starting at `(x, baseline)`.
pub(crate) fn draw(buf: &mut impl Canvas, shaped: &Shaped, x: f32, baseline: f32, colour: Rgb) {
    let (w, h) = buf.dims();
    for item in &shaped.items {
        let Some(r) = raster(item.font, item.id, shaped.em) else {
            continue;
        };
        let gx = (x + item.x).round() as i32 + r.left;
        let gy = (baseline + item.dy).round() as i32 + r.top;
        match &r.pixels {
            Pixels::Coverage(cov) => {
                for yy in 0..r.h {
                    for xx in 0..r.w {
                        let a = cov[(yy * r.w + xx) as usize];
                        if a > 0 {
                            buf.blend(gx + xx as i32, gy + yy as i32, colour, f32::from(a) / 255.0);
                        }
                    }
                }
            }
            Pixels::Colour(rgba) => {
                for yy in 0..r.h {
                    for xx in 0..r.w {
                        let (px, py) = (gx + xx as i32, gy + yy as i32);
                        let i = ((yy * r.w + xx) * 4) as usize;
                        let p = [rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]];
                        if p[3] == 0 || px < 0 || py < 0 || px >= w as i32 || py >= h as i32 {
                            continue;
                        }
                        let under = buf.get(px as u32, py as u32);
                        buf.set(px as u32, py as u32, over_premul(under, p));
                    }
                }
            }
        }
    }
}

/// Draws shaped text like [`draw`], keeping every pixel inside `clip` (left, top, right,
/// bottom; right and bottom outside): glyphs that overhang their advance or stack tall
/// never paint over a neighbouring row or column.
pub(crate) fn draw_in(
    buf: &mut impl Canvas,
    shaped: &Shaped,
    x: f32,
    baseline: f32,
    colour: Rgb,
    clip: (i32, i32, i32, i32),
) {
    let mut clipped = Clip {
        canvas: buf,
        rect: clip,
    };
    draw(&mut clipped, shaped, x, baseline, colour);
}

/// Shapes and draws one player's name as a board's footer does (cleaned, fitted to `room`
/// pixels at the footer's size, clipped to its row) on a white strip of its own, and returns
/// the strip's RGB pixels, `room + 8` by 38. `shape_again` bypasses the cache of shaped
/// lines (the glyph rasters stay cached, as in a running bot) to measure what a name costs
/// the first time it is drawn. For benchmarks.
pub fn name_strip(name: &str, room: u32, shape_again: bool) -> Vec<u8> {
    let em = super::compose::NAME_EM;
    let (clean, cut) = sanitize(name);
    let room_px = room as f32;
    let shaped = if shape_again {
        Arc::new(fit_uncached(&clean, em, room_px, cut))
    } else {
        fit(&clean, em, room_px, cut)
    };
    let (w, h) = (room + 8, super::layout::ROW_H);
    let mut buf = filled(w, h, [255; 3]);
    let baseline = h as f32 / 2.0 + cap_height(em) / 2.0;
    draw_in(
        &mut buf,
        &shaped,
        4.0,
        baseline,
        [0; 3],
        (0, 0, w as i32, h as i32),
    );
    buf.into_raw()
}

/// Height above the baseline of capital letters, for centring text vertically.
pub(crate) fn cap_height(em: f32) -> f32 {
    em * 0.73
}

#[derive(Debug)]
enum Pixels {
    /// Anti-aliased coverage, one byte a pixel, drawn in the text's colour.
    Coverage(Vec<u8>),
    /// Premultiplied RGBA (colour emoji).
    Colour(Vec<u8>),
}

#[derive(Debug)]
struct Raster {
    left: i32,
    top: i32,
    w: u32,
    h: u32,
    pixels: Pixels,
}

type GlyphKey = (u8, u16, u16);

static GLYPHS: LazyLock<RwLock<HashMap<GlyphKey, Arc<Raster>>>> =
    LazyLock::new(|| RwLock::new(HashMap::new()));

fn raster(font: u8, id: u16, em: f32) -> Option<Arc<Raster>> {
    let key = (font, id, (em * 4.0).round() as u16);
    if let Some(r) = GLYPHS.read().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Some(r.clone());
    }
    let f = fonts::font(font)?;
    let r = if f.colour {
        bitmap(f, id, em).unwrap_or_else(|| outline(f, id, em))
    } else {
        outline(f, id, em)
    };
    let r = Arc::new(r);
    let mut map = GLYPHS.write().unwrap_or_else(|e| e.into_inner());
    if map.len() >= GLYPH_CACHE_LIMIT {
        map.clear();
    }
    map.insert(key, r.clone());
    Some(r)
}

const BLANK: Raster = Raster {
    left: 0,
    top: 0,
    w: 0,
    h: 0,
    pixels: Pixels::Coverage(Vec::new()),
};

/// An outline glyph's anti-aliased coverage at em size `em`.
fn outline(f: &Bundled, id: u16, em: f32) -> Raster {
    let font = &f.outlines;
    // ab_glyph scales by line height; convert so that every font shares the em size.
    let scale = PxScale::from(em * font.height_unscaled() / f.upem);
    let glyph = GlyphId(id).with_scale_and_position(scale, point(0.0, 0.0));
    // Blank glyphs such as spaces have no outline.
    let Some(outlined) = font.outline_glyph(glyph) else {
        return BLANK;
    };
    let b = outlined.px_bounds();
    let (w, h) = (b.width() as u32, b.height() as u32);
    let mut cov = vec![0u8; (w * h) as usize];
    outlined.draw(|x, y, c| {
        if x < w && y < h {
            cov[(y * w + x) as usize] = (c.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
        }
    });
    let (w, cov) = if f.embolden {
        // A regular face among bold ones: thicken its strokes by one pixel sideways so that
        // it sits beside DejaVu Sans Bold without looking faint.
        embolden(w, h, &cov)
    } else {
        (w, cov)
    };
    Raster {
        left: b.min.x as i32,
        top: b.min.y as i32,
        w,
        h,
        pixels: Pixels::Coverage(cov),
    }
}

/// A colour glyph's bitmap, decoded and scaled from its strike to em size `em`.
fn bitmap(f: &Bundled, id: u16, em: f32) -> Option<Raster> {
    let img = f
        .outlines
        .glyph_raster_image2(GlyphId(id), em.ceil() as u16)?;
    if !matches!(img.format, GlyphImageFormat::Png) || img.pixels_per_em == 0 {
        return None;
    }
    let decoded = image::load_from_memory_with_format(img.data, image::ImageFormat::Png)
        .ok()?
        .to_rgba8();
    let s = em / f32::from(img.pixels_per_em);
    let w = ((decoded.width() as f32 * s).round() as u32).max(1);
    let h = ((decoded.height() as f32 * s).round() as u32).max(1);
    let scaled = image::imageops::resize(&decoded, w, h, image::imageops::FilterType::Triangle);
    let mut px = scaled.into_raw();
    for p in px.chunks_exact_mut(4) {
        let a = u16::from(p[3]);
        for c in &mut p[..3] {
            *c = ((u16::from(*c) * a + 127) / 255) as u8;
        }
    }
    // The bitmap's origin is its bottom-left corner, y up from the baseline.
    let left = (img.origin.x * s).round() as i32;
    let top = -((img.origin.y + f32::from(img.height)) * s).round() as i32;
    Some(Raster {
        left,
        top,
        w,
        h,
        pixels: Pixels::Colour(px),
    })
}

/// Widens a coverage map by one column: each pixel takes the larger of itself and its left
/// neighbour.
fn embolden(w: u32, h: u32, cov: &[u8]) -> (u32, Vec<u8>) {
    let nw = w + 1;
    let mut out = vec![0u8; (nw * h) as usize];
    for y in 0..h as usize {
        for x in 0..nw as usize {
            let at = |x: usize| {
                if x < w as usize {
                    cov[y * w as usize + x]
                } else {
                    0
                }
            };
            let left = if x > 0 { at(x - 1) } else { 0 };
            out[y * nw as usize + x] = at(x).max(left);
        }
    }
    (nw, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hebrew_is_shaped_right_to_left() {
        // Visual order, left to right: "42", then the word from its last letter to its first.
        let s = shape_uncached("שלום 42", 20.0);
        assert_eq!(
            s.fonts(),
            ["DejaVuSans-Bold.ttf", "NotoSansHebrew-Bold-subset.ttf"]
        );
        let ids: Vec<(u8, u16)> = s.items.iter().map(|p| (p.font, p.id)).collect();
        let glyph = |font: u8, c: char| {
            let f = fonts::font(font).expect("font");
            (font, f.shaper.glyph_index(c).expect("glyph").0)
        };
        let pos = |g: (u8, u16)| ids.iter().position(|&i| i == g).expect("placed");
        assert!(pos(glyph(0, '4')) < pos(glyph(0, '2')), "{ids:?}");
        assert!(pos(glyph(3, 'ם')) < pos(glyph(3, 'ש')), "{ids:?}");
        assert!(pos(glyph(0, '2')) < pos(glyph(3, 'ם')), "{ids:?}");
    }

    /// `script<TAB>name` lines of `tests/fixtures/names.txt`.
    fn fixture_names() -> Vec<(&'static str, &'static str)> {
        include_str!("../../tests/fixtures/names.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| l.split_once('\t'))
            .collect()
    }

    #[test]
    fn every_script_of_the_fixture_shapes_without_notdef() {
        let names = fixture_names();
        assert!(names.len() >= 25, "{}", names.len());
        for (script, name) in names {
            let (clean, cut) = sanitize(name);
            assert_eq!(
                (clean.as_str(), cut),
                (name, false),
                "{script}: cleaning changed it"
            );
            let s = shape_uncached(&clean, 21.0);
            assert!(
                !s.has_notdef(),
                "{script}: {name:?} has a .notdef glyph: {:?}",
                s.fonts()
            );
            assert!(s.width > 0.0, "{script}");
            if script.starts_with("Emoji") {
                assert!(s.fonts().contains(&"NotoColorEmoji-small.ttf"), "{script}");
            }
        }
    }

    #[test]
    fn arabic_letters_join() {
        // Shaped as a word, beh takes its initial form: not the glyph of the lone letter.
        let word = shape_uncached("بب", 20.0);
        let lone = shape_uncached("ب", 20.0);
        assert_eq!(word.items.len(), 2);
        assert!(word.items.iter().all(|p| p.id != lone.items[0].id));
        assert!(!word.has_notdef());
    }

    #[test]
    fn fit_cuts_with_an_ellipsis() {
        let long = "W".repeat(60);
        let s = fit(&long, 20.0, 200.0, false);
        assert!(s.width <= 200.0);
        assert!(s.width > 150.0);
        let short = fit("Ann", 20.0, 200.0, false);
        assert_eq!(*short, shape_uncached("Ann", 20.0));
        let tiny = fit(&long, 20.0, 1.0, false);
        assert!(tiny.items.is_empty(), "not even the ellipsis fits");
        let cut = fit("Ann", 20.0, 200.0, true);
        assert_eq!(*cut, shape_uncached("Ann…", 20.0));
    }

    #[test]
    fn an_emoji_is_one_colour_bitmap() {
        let s = shape_uncached("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", 21.0);
        assert_eq!(s.items.len(), 1, "the family is one ligature");
        let r = raster(s.items[0].font, s.items[0].id, 21.0).expect("raster");
        assert!(matches!(r.pixels, Pixels::Colour(_)));
        assert!(r.w >= 18 && r.w <= 30, "scaled to the text: {}", r.w);
    }

    /// The box of pixels that drawing changes, if any: (left, top, right, bottom), right
    /// and bottom outside.
    fn ink(buf: &super::super::paint::RgbBuf, blank: [u8; 3]) -> Option<(u32, u32, u32, u32)> {
        let mut b: Option<(u32, u32, u32, u32)> = None;
        for y in 0..buf.height() {
            for x in 0..buf.width() {
                if buf.get(x, y) != blank {
                    let e = b.get_or_insert((x, y, x + 1, y + 1));
                    *e = (e.0.min(x), e.1.min(y), e.2.max(x + 1), e.3.max(y + 1));
                }
            }
        }
        b
    }

    const WHITE: Rgb = [255, 255, 255];

    /// Draws a line unclipped in the middle of a large canvas; returns its ink box relative
    /// to the pen's start and the baseline.
    fn ink_relative(shaped: &Shaped) -> Option<(i32, i32, i32, i32)> {
        let mut buf = filled(1200, 200, WHITE);
        draw(&mut buf, shaped, 300.0, 100.0, [0, 0, 0]);
        ink(&buf, WHITE).map(|(l, t, r, b)| {
            (
                l as i32 - 300,
                t as i32 - 100,
                r as i32 - 300,
                b as i32 - 100,
            )
        })
    }

    /// The footer gives a name at em 21 a 38-pixel row whose baseline sits 7.7 pixels below
    /// its middle (see `compose.rs`): real names in every script must fit in it whole, so
    /// that the footer's clip never cuts them.
    #[test]
    fn fixture_names_fit_their_row_without_clipping() {
        let em = 21.0;
        let baseline_in_row = 19.0 + cap_height(em) / 2.0;
        for (script, name) in fixture_names() {
            let s = shape_uncached(name, em);
            let (l, t, r, b) = ink_relative(&s).expect("ink");
            assert!(l >= -4, "{script}: starts {l} px before the pen");
            assert!(
                r <= s.width.ceil() as i32 + 2,
                "{script}: ends at {r}, advance {}",
                s.width
            );
            assert!(
                t as f32 + baseline_in_row >= 0.0,
                "{script}: {t} above the baseline"
            );
            assert!(
                (b as f32 + baseline_in_row) <= 38.0,
                "{script}: {b} below the baseline"
            );
        }
    }

    #[test]
    fn drawing_in_a_box_keeps_every_pixel_inside_it() {
        let s = shape_uncached("Ẫ̃̃ W Ω \u{1F409}", 30.0);
        let mut buf = filled(200, 60, WHITE);
        draw_in(&mut buf, &s, 20.0, 40.0, [0, 0, 0], (25, 20, 60, 45));
        let (l, t, r, b) = ink(&buf, WHITE).expect("some ink inside");
        assert!(
            l >= 25 && t >= 20 && r <= 60 && b <= 45,
            "{:?}",
            (l, t, r, b)
        );
        // Unclipped, the same line reaches outside that box.
        let mut whole = filled(200, 60, WHITE);
        draw(&mut whole, &s, 20.0, 40.0, [0, 0, 0]);
        let (l, t, r, _) = ink(&whole, WHITE).expect("ink");
        assert!(l < 25 && t < 20 && r > 60);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// Any name, cleaned and fitted to any room: no panic, an advance no wider than
        /// the room, and the ink within a couple of pixels of it.
        #[test]
        fn any_name_fits_its_room(
            name in super::super::sanitize::tests::name_strategy(),
            room in 0.0f32..500.0,
        ) {
            let (clean, cut) = sanitize(&name);
            let s = fit(&clean, 21.0, room, cut);
            proptest::prop_assert!(s.width <= room, "{} > {room}", s.width);
            if let Some((l, _, r, _)) = ink_relative(&s) {
                proptest::prop_assert!(l >= -6, "{l}");
                proptest::prop_assert!(r as f32 <= room + 6.0, "ink to {r}, room {room}");
            }
        }
    }
}
