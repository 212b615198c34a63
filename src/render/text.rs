//! Text: the bundled fonts, cleaning of hostile names, a small bidi and Arabic-joining pass,
//! shaping into positioned glyphs, ellipsis, and a shared cache of rasterised glyphs.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, RwLock};

use ab_glyph::{Font, FontRef, GlyphId, PxScale, point};

use super::paint::Canvas;
use super::theme::Rgb;

static DEJAVU: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");
static DROID: &[u8] = include_bytes!("../../assets/fonts/DroidSansFallback-subset.ttf");

/// The bundled fonts in fallback order: DejaVu Sans Bold, then the CJK font.
static FONTS: LazyLock<Vec<FontRef<'static>>> = LazyLock::new(|| {
    [DEJAVU, DROID]
        .iter()
        .filter_map(|data| FontRef::try_from_slice(data).ok())
        .collect()
});

/// Most characters of a name that are looked at; the rest could never fit on the picture.
const MAX_NAME_CHARS: usize = 80;
/// Combining marks kept per base character (stops "Zalgo" text from painting over rows).
const MAX_MARKS: usize = 2;
/// Glyph rasters kept before the cache is emptied (bounds memory under hostile names).
const GLYPH_CACHE_LIMIT: usize = 4096;

/// One thing drawn along the baseline.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Piece {
    Glyph {
        font: u8,
        id: u16,
    },
    /// A character no bundled font has: drawn as a small box.
    Missing,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Placed {
    piece: Piece,
    x: f32,
}

/// A line of text laid out at one size, ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Shaped {
    items: Vec<Placed>,
    em: f32,
    /// Advance width in pixels.
    pub width: f32,
}

fn scale_for(font: &FontRef<'_>, em: f32) -> PxScale {
    // ab_glyph scales by line height; convert so that both fonts share the em size.
    let upem = font.units_per_em().unwrap_or(1000.0);
    PxScale::from(em * font.height_unscaled() / upem)
}

fn piece_for(c: char) -> Piece {
    for (i, f) in FONTS.iter().enumerate() {
        let id = f.glyph_id(c);
        if id.0 != 0 {
            return Piece::Glyph {
                font: i as u8,
                id: id.0,
            };
        }
    }
    Piece::Missing
}

fn advance(piece: Piece, em: f32) -> f32 {
    match piece {
        Piece::Glyph { font, id } => FONTS.get(usize::from(font)).map_or(em * 0.6, |f| {
            let s = scale_for(f, em);
            f.h_advance_unscaled(GlyphId(id)) * s.x / f.height_unscaled()
        }),
        Piece::Missing => em * 0.78,
    }
}

/// Lays out text (already cleaned) at em size `em`, in visual order.
pub(crate) fn shape(text: &str, em: f32) -> Shaped {
    let chars: Vec<char> = text.chars().collect();
    let visual = visual_order(&join_arabic(&chars));
    let mut x = 0.0;
    let mut items = Vec::with_capacity(visual.len());
    for c in visual {
        let piece = piece_for(c);
        items.push(Placed { piece, x });
        x += advance(piece, em);
    }
    Shaped {
        items,
        em,
        width: x,
    }
}

/// Lays out text no wider than `max_width`, cutting it with an ellipsis when needed.
pub(crate) fn fit(text: &str, em: f32, max_width: f32, cut_already: bool) -> Shaped {
    let whole = shape(text, em);
    if whole.width <= max_width && !cut_already {
        return whole;
    }
    let chars: Vec<char> = text.chars().collect();
    let with_ellipsis = |k: usize| {
        let mut s: String = chars[..k].iter().collect();
        s = s.trim_end().to_string();
        s.push('…');
        shape(&s, em)
    };
    // Widths grow with the number of characters kept: search for the longest prefix that fits.
    let (mut lo, mut hi) = (0usize, chars.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if with_ellipsis(mid).width <= max_width {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    with_ellipsis(lo)
}

/// Draws shaped text with its baseline starting at `(x, baseline)`.
pub(crate) fn draw(buf: &mut impl Canvas, shaped: &Shaped, x: f32, baseline: f32, colour: Rgb) {
    for item in &shaped.items {
        let gx = (x + item.x).round() as i32;
        let by = baseline.round() as i32;
        match item.piece {
            Piece::Glyph { font, id } => {
                let Some(r) = raster(font, id, shaped.em) else {
                    continue;
                };
                for yy in 0..r.h {
                    for xx in 0..r.w {
                        let a = r.cov[(yy * r.w + xx) as usize];
                        if a > 0 {
                            buf.blend(
                                gx + r.left + xx as i32,
                                by + r.top + yy as i32,
                                colour,
                                f32::from(a) / 255.0,
                            );
                        }
                    }
                }
            }
            Piece::Missing => {
                let em = shaped.em;
                let (x0, x1) = (gx as f32 + em * 0.1, gx as f32 + em * 0.68);
                let (y0, y1) = (by as f32 - em * 0.72, by as f32);
                let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
                let (hw, hh) = ((x1 - x0) / 2.0, (y1 - y0) / 2.0);
                let stroke = (em * 0.07).max(1.0);
                buf.paint_sdf((x0, y0, x1, y1), colour, 1.0, |px, py| {
                    let dx = (px - cx).abs() - hw;
                    let dy = (py - cy).abs() - hh;
                    let outside = dx.max(0.0).hypot(dy.max(0.0));
                    let d = outside + dx.max(dy).min(0.0);
                    d.abs() - stroke / 2.0
                });
            }
        }
    }
}

/// Height above the baseline of capital letters, for centring text vertically.
pub(crate) fn cap_height(em: f32) -> f32 {
    em * 0.73
}

#[derive(Debug)]
struct Raster {
    left: i32,
    top: i32,
    w: u32,
    h: u32,
    cov: Vec<u8>,
}

type GlyphKey = (u8, u16, u16);

static GLYPHS: LazyLock<RwLock<HashMap<GlyphKey, Arc<Raster>>>> =
    LazyLock::new(|| RwLock::new(HashMap::new()));

fn raster(font: u8, id: u16, em: f32) -> Option<Arc<Raster>> {
    let key = (font, id, (em * 4.0).round() as u16);
    if let Some(r) = GLYPHS.read().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Some(r.clone());
    }
    let f = FONTS.get(usize::from(font))?;
    let glyph = GlyphId(id).with_scale_and_position(scale_for(f, em), point(0.0, 0.0));
    let r = match f.outline_glyph(glyph) {
        Some(outlined) => {
            let b = outlined.px_bounds();
            let (w, h) = (b.width() as u32, b.height() as u32);
            let mut cov = vec![0u8; (w * h) as usize];
            outlined.draw(|x, y, c| {
                if x < w && y < h {
                    cov[(y * w + x) as usize] = (c.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
                }
            });
            if font == 1 {
                // The CJK font has no bold face: thicken its strokes by one pixel sideways
                // so that it sits beside DejaVu Sans Bold without looking faint.
                let (w, cov) = embolden(w, h, &cov);
                return cache_raster(
                    key,
                    Raster {
                        left: b.min.x as i32,
                        top: b.min.y as i32,
                        w,
                        h,
                        cov,
                    },
                );
            }
            Raster {
                left: b.min.x as i32,
                top: b.min.y as i32,
                w,
                h,
                cov,
            }
        }
        // Blank glyphs such as spaces.
        None => Raster {
            left: 0,
            top: 0,
            w: 0,
            h: 0,
            cov: Vec::new(),
        },
    };
    cache_raster(key, r)
}

fn cache_raster(key: GlyphKey, r: Raster) -> Option<Arc<Raster>> {
    let r = Arc::new(r);
    let mut map = GLYPHS.write().unwrap_or_else(|e| e.into_inner());
    if map.len() >= GLYPH_CACHE_LIMIT {
        map.clear();
    }
    map.insert(key, r.clone());
    Some(r)
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

fn is_combining(c: char) -> bool {
    matches!(c as u32,
        0x0300..=0x036F | 0x0483..=0x0489 | 0x0591..=0x05BD | 0x05BF | 0x05C1..=0x05C2
        | 0x05C4..=0x05C5 | 0x05C7 | 0x0610..=0x061A | 0x064B..=0x065F | 0x0670
        | 0x06D6..=0x06DC | 0x06DF..=0x06E4 | 0x06E7..=0x06E8 | 0x06EA..=0x06ED
        | 0x0E31 | 0x0E34..=0x0E3A | 0x0E47..=0x0E4E | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF
        | 0x20D0..=0x20FF | 0x302A..=0x302F | 0x3099..=0x309A | 0xFE20..=0xFE2F)
}

/// Characters that change nothing visible or steer layout: dropped.
fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(c as u32,
            0x00AD | 0x034F | 0x061C | 0x115F..=0x1160 | 0x17B4..=0x17B5 | 0x180B..=0x180F
            | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
            | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFF8 | 0x1F3FB..=0x1F3FF | 0xE0000..=0xE0FFF)
}

/// Cleans a display name: no control or format characters, one space between words, at most
/// two combining marks per letter, an emoji sequence reduced to one character, and at most
/// [`MAX_NAME_CHARS`] characters. Returns the text and whether it was cut.
pub(crate) fn sanitize(name: &str) -> (String, bool) {
    let mut out = String::new();
    let mut count = 0;
    let mut marks = 0;
    let mut skip_next = false;
    let mut pending_space = false;
    let mut last_regional = false;
    for c in name.chars() {
        if skip_next {
            skip_next = false;
            if !c.is_whitespace() {
                continue;
            }
        }
        if c == '\u{200D}' {
            // Zero-width joiner: the next character joins the previous emoji; keep one.
            skip_next = true;
            continue;
        }
        if c.is_whitespace() {
            pending_space = !out.is_empty();
            continue;
        }
        if is_invisible(c) {
            continue;
        }
        if is_combining(c) {
            if out.is_empty() || marks >= MAX_MARKS {
                continue;
            }
            marks += 1;
            out.push(c);
            continue;
        }
        // A flag is two regional indicator letters: keep the first only.
        let regional = matches!(c as u32, 0x1F1E6..=0x1F1FF);
        if regional && last_regional {
            last_regional = false;
            continue;
        }
        last_regional = regional;
        if count >= MAX_NAME_CHARS {
            return (out, true);
        }
        if pending_space {
            out.push(' ');
            count += 1;
            pending_space = false;
        }
        marks = 0;
        out.push(c);
        count += 1;
    }
    (out, false)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    L,
    R,
    Digit,
    Neutral,
    Mark,
}

fn class(c: char) -> Class {
    let u = c as u32;
    if is_combining(c) {
        return Class::Mark;
    }
    if matches!(u, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF)
        && !matches!(u, 0x0660..=0x0669 | 0x06F0..=0x06F9)
    {
        return Class::R;
    }
    if c.is_numeric() {
        return Class::Digit;
    }
    if c.is_alphabetic() {
        return Class::L;
    }
    Class::Neutral
}

fn mirror(c: char) -> char {
    match c {
        '(' => ')',
        ')' => '(',
        '[' => ']',
        ']' => '[',
        '{' => '}',
        '}' => '{',
        '<' => '>',
        '>' => '<',
        '«' => '»',
        '»' => '«',
        _ => c,
    }
}

/// Reorders logical text for display: a reduced Unicode bidi algorithm (one paragraph, no
/// explicit embeddings, which `sanitize` removes) that handles RTL names with digits and
/// Latin words inside.
fn visual_order(chars: &[char]) -> Vec<char> {
    if !chars.iter().any(|&c| class(c) == Class::R) {
        return chars.to_vec();
    }
    let mut classes: Vec<Class> = chars.iter().map(|&c| class(c)).collect();
    for i in 1..classes.len() {
        if classes[i] == Class::Mark {
            classes[i] = classes[i - 1];
        }
    }
    let base_rtl = classes
        .iter()
        .find(|c| matches!(c, Class::L | Class::R))
        .is_some_and(|&c| c == Class::R);
    let base: u8 = u8::from(base_rtl);
    let n = chars.len();
    let mut levels = vec![base; n];
    let mut last_strong_r = base_rtl;
    let mut r_before = vec![base_rtl; n];
    // Strong and number levels.
    for i in 0..n {
        r_before[i] = last_strong_r;
        levels[i] = match classes[i] {
            Class::L => {
                last_strong_r = false;
                if base_rtl { 2 } else { 0 }
            }
            Class::R => {
                last_strong_r = true;
                1
            }
            Class::Digit => {
                if base_rtl || last_strong_r {
                    2
                } else {
                    0
                }
            }
            _ => u8::MAX,
        };
    }
    // Neutrals take the direction shared by the strong characters around them (numbers
    // count as right-to-left here), else the paragraph's.
    let dir_of = |i: usize| -> Option<bool> {
        match classes[i] {
            Class::L => Some(false),
            Class::R => Some(true),
            Class::Digit => Some(r_before[i]),
            _ => None,
        }
    };
    let mut i = 0;
    while i < n {
        if levels[i] != u8::MAX {
            i += 1;
            continue;
        }
        let start = i;
        while i < n && levels[i] == u8::MAX {
            i += 1;
        }
        let before = (0..start).rev().find_map(&dir_of).unwrap_or(base_rtl);
        let after = (i..n).find_map(&dir_of).unwrap_or(base_rtl);
        let level = if before == after {
            if before {
                1
            } else if base_rtl {
                2
            } else {
                0
            }
        } else {
            base
        };
        for l in &mut levels[start..i] {
            *l = level;
        }
    }
    let mut out: Vec<(char, u8)> = chars.iter().copied().zip(levels.iter().copied()).collect();
    for (c, l) in &mut out {
        if *l % 2 == 1 {
            *c = mirror(*c);
        }
    }
    let max = out.iter().map(|p| p.1).max().unwrap_or(0);
    for level in (1..=max).rev() {
        let mut i = 0;
        while i < n {
            if out[i].1 >= level {
                let start = i;
                while i < n && out[i].1 >= level {
                    i += 1;
                }
                out[start..i].reverse();
            } else {
                i += 1;
            }
        }
    }
    // Combining marks now precede their base in reversed runs: put them back after it.
    let mut result: Vec<char> = Vec::with_capacity(n);
    let mut marks: Vec<char> = Vec::new();
    for (c, l) in out {
        if is_combining(c) && l % 2 == 1 {
            marks.push(c);
        } else {
            result.push(c);
            result.append(&mut marks);
        }
    }
    result.append(&mut marks);
    result
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Joining {
    /// Joins on neither side (hamza).
    None,
    /// Joins to the letter before it only.
    Right,
    /// Joins on both sides.
    Dual,
}

/// Arabic letters with presentation forms, in the order of the FE80 block.
const ARABIC: [(u32, Joining); 36] = {
    use Joining::{Dual as D, None as U, Right as R};
    [
        (0x621, U),
        (0x622, R),
        (0x623, R),
        (0x624, R),
        (0x625, R),
        (0x626, D),
        (0x627, R),
        (0x628, D),
        (0x629, R),
        (0x62A, D),
        (0x62B, D),
        (0x62C, D),
        (0x62D, D),
        (0x62E, D),
        (0x62F, R),
        (0x630, R),
        (0x631, R),
        (0x632, R),
        (0x633, D),
        (0x634, D),
        (0x635, D),
        (0x636, D),
        (0x637, D),
        (0x638, D),
        (0x639, D),
        (0x63A, D),
        (0x641, D),
        (0x642, D),
        (0x643, D),
        (0x644, D),
        (0x645, D),
        (0x646, D),
        (0x647, D),
        (0x648, R),
        (0x649, R),
        (0x64A, D),
    ]
};

/// The joining type and the first presentation form (isolated) of an Arabic letter.
fn arabic(c: char) -> Option<(Joining, u32)> {
    let mut form = 0xFE80;
    for &(code, joining) in &ARABIC {
        if code == c as u32 {
            return Some((joining, form));
        }
        form += match joining {
            Joining::None => 1,
            Joining::Right => 2,
            Joining::Dual => 4,
        };
    }
    if c == '\u{640}' {
        return Some((Joining::Dual, 0)); // tatweel joins both ways and has no forms
    }
    None
}

/// Replaces Arabic letters by their contextual presentation forms (initial, medial, final,
/// isolated) and lam-alef by its ligature, so that words join without a shaping engine.
fn join_arabic(chars: &[char]) -> Vec<char> {
    if !chars.iter().any(|&c| arabic(c).is_some()) {
        return chars.to_vec();
    }
    let neighbour = |from: usize, back: bool| -> Option<(Joining, u32)> {
        let mut i = from;
        loop {
            if back {
                i = i.checked_sub(1)?;
            } else {
                i += 1;
            }
            let c = *chars.get(i)?;
            if is_combining(c) {
                continue;
            }
            return arabic(c);
        }
    };
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let Some((joining, iso)) = arabic(c) else {
            out.push(c);
            i += 1;
            continue;
        };
        let joins_prev =
            joining != Joining::None && neighbour(i, true).is_some_and(|(j, _)| j == Joining::Dual);
        let next = neighbour(i, false);
        if c == '\u{644}' {
            let lig = match chars.get(i + 1) {
                Some('\u{622}') => Some(0xFEF5),
                Some('\u{623}') => Some(0xFEF7),
                Some('\u{625}') => Some(0xFEF9),
                Some('\u{627}') => Some(0xFEFB),
                _ => None,
            };
            if let Some(l) = lig {
                out.extend(char::from_u32(l + u32::from(joins_prev)));
                i += 2;
                continue;
            }
        }
        let joins_next = joining == Joining::Dual && next.is_some_and(|(j, _)| j != Joining::None);
        let offset = match (joins_prev, joins_next) {
            (false, false) => 0,
            (true, false) => 1,
            (false, true) => 2,
            (true, true) => 3,
        };
        if iso == 0 {
            out.push(c);
        } else {
            out.extend(char::from_u32(iso + offset));
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_drops_controls_and_collapses_spaces() {
        assert_eq!(sanitize("  a\n\tb\u{7}  c  "), ("a b c".to_string(), false));
        assert_eq!(sanitize("\u{202E}evil"), ("evil".to_string(), false));
        assert_eq!(sanitize(""), (String::new(), false));
        assert_eq!(sanitize("\u{200B}\u{FEFF}"), (String::new(), false));
    }

    #[test]
    fn sanitize_limits_marks_and_length() {
        let zalgo = format!("a{}", "\u{0301}".repeat(50));
        assert_eq!(sanitize(&zalgo).0.chars().count(), 3);
        let (long, cut) = sanitize(&"x".repeat(200));
        assert!(cut);
        assert_eq!(long.chars().count(), MAX_NAME_CHARS);
    }

    #[test]
    fn sanitize_keeps_one_character_of_an_emoji_sequence() {
        // family: man ZWJ woman ZWJ girl; thumbs up with a skin tone; a flag
        assert_eq!(
            sanitize("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}")
                .0
                .chars()
                .count(),
            1
        );
        assert_eq!(sanitize("\u{1F44D}\u{1F3FD}").0.chars().count(), 1);
        assert_eq!(sanitize("\u{1F1EB}\u{1F1EE}").0.chars().count(), 1);
    }

    #[test]
    fn hebrew_is_reversed_and_digits_keep_their_order() {
        let v: String = visual_order(&"שלום 42".chars().collect::<Vec<_>>())
            .into_iter()
            .collect();
        assert_eq!(v, "42 םולש");
        let v: String = visual_order(&"Ann (שלום)".chars().collect::<Vec<_>>())
            .into_iter()
            .collect();
        assert_eq!(v, "Ann (םולש)");
    }

    #[test]
    fn latin_text_is_untouched() {
        let s: Vec<char> = "Ann Bo-1 (x)".chars().collect();
        assert_eq!(visual_order(&s), s);
    }

    #[test]
    fn arabic_letters_take_their_joining_forms() {
        // beh + alef + beh: initial beh, final alef, isolated beh (alef does not join forward)
        let j = join_arabic(&['\u{628}', '\u{627}', '\u{628}']);
        assert_eq!(j, vec!['\u{FE91}', '\u{FE8E}', '\u{FE8F}']);
        // lam + alef ligature
        assert_eq!(join_arabic(&['\u{644}', '\u{627}']), vec!['\u{FEFB}']);
        // seen medial between two dual-joining letters
        assert_eq!(
            join_arabic(&['\u{628}', '\u{633}', '\u{628}'])[1],
            '\u{FEB4}'
        );
    }

    #[test]
    fn both_fonts_load_and_cover_their_scripts() {
        assert_eq!(FONTS.len(), 2);
        assert!(matches!(piece_for('K'), Piece::Glyph { font: 0, .. }));
        assert!(matches!(piece_for('漢'), Piece::Glyph { font: 1, .. }));
        assert!(matches!(piece_for('한'), Piece::Glyph { font: 1, .. }));
        assert_eq!(piece_for('\u{1F9E0}'), Piece::Missing);
    }

    #[test]
    fn fit_cuts_with_an_ellipsis() {
        let long = "W".repeat(60);
        let s = fit(&long, 20.0, 200.0, false);
        assert!(s.width <= 200.0);
        assert!(s.width > 150.0);
        let short = fit("Ann", 20.0, 200.0, false);
        assert_eq!(short, shape("Ann", 20.0));
        let tiny = fit(&long, 20.0, 1.0, false);
        assert_eq!(tiny.items.len(), 1, "only the ellipsis is left");
    }
}
