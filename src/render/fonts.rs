//! The bundled fonts and the fallback chain: which font draws a grapheme cluster.
//!
//! Every font is embedded with `include_bytes!` (nothing is read from the system). DejaVu Sans
//! Bold draws Latin, Greek, Cyrillic and most symbols; Droid Sans Fallback (a subset) draws
//! Chinese, Japanese and Korean; one bold Noto Sans font per script draws Arabic and Persian,
//! Hebrew, the Indic scripts, Thai, Lao, Khmer, Myanmar, Georgian, Armenian and Ethiopic; Noto
//! Color Emoji (bitmaps scaled down to a 24 pixels-per-em strike) draws emoji. See
//! `assets/fonts/README.md` for where each comes from, how it was subset and its licence.
//!
//! A cluster goes to the first font that has a glyph for each of its characters, trying in
//! turn: the emoji font for an emoji cluster, the font made for the cluster's script, for
//! spaces, digits and punctuation the font of the cluster before (so that a run of Arabic or
//! Thai words stays in one font and shapes as one), then the whole chain in order.

use std::sync::LazyLock;

use ab_glyph::FontRef;
use unicode_script::{Script, UnicodeScript};

/// One bundled font, parsed once: for shaping (rustybuzz) and for outlines and bitmaps
/// (ab_glyph, on the same ttf-parser tables).
pub(crate) struct Bundled {
    /// The file name under `assets/fonts/`, for tests.
    #[cfg_attr(not(test), allow(dead_code))]
    pub name: &'static str,
    pub shaper: rustybuzz::Face<'static>,
    pub outlines: FontRef<'static>,
    /// Font units per em.
    pub upem: f32,
    /// A regular face beside bold ones: its strokes are widened by a pixel when drawn.
    pub embolden: bool,
    /// Glyphs are colour bitmaps, not outlines.
    pub colour: bool,
}

macro_rules! font {
    ($file:literal) => {
        (
            $file,
            include_bytes!(concat!("../../assets/fonts/", $file)) as &'static [u8],
        )
    };
}

/// The chain in fallback order. Indices are stored in shaped text as `u8`.
const FILES: [(&str, &[u8]); 21] = [
    font!("DejaVuSans-Bold.ttf"),
    font!("DroidSansFallback-subset.ttf"),
    font!("NotoSansArabic-Bold-subset.ttf"),
    font!("NotoSansHebrew-Bold-subset.ttf"),
    font!("NotoSansDevanagari-Bold-subset.ttf"),
    font!("NotoSansBengali-Bold-subset.ttf"),
    font!("NotoSansGurmukhi-Bold-subset.ttf"),
    font!("NotoSansGujarati-Bold-subset.ttf"),
    font!("NotoSansTamil-Bold-subset.ttf"),
    font!("NotoSansTelugu-Bold-subset.ttf"),
    font!("NotoSansKannada-Bold-subset.ttf"),
    font!("NotoSansMalayalam-Bold-subset.ttf"),
    font!("NotoSansSinhala-Bold-subset.ttf"),
    font!("NotoSansThai-Bold-subset.ttf"),
    font!("NotoSansLao-Bold-subset.ttf"),
    font!("NotoSansKhmer-Bold-subset.ttf"),
    font!("NotoSansMyanmar-Bold-subset.ttf"),
    font!("NotoSansGeorgian-Bold-subset.ttf"),
    font!("NotoSansArmenian-Bold-subset.ttf"),
    font!("NotoSansEthiopic-Bold-subset.ttf"),
    font!("NotoColorEmoji-small.ttf"),
];

/// Index of the CJK font in [`FILES`].
const CJK: u8 = 1;
/// Index of the emoji font in [`FILES`].
pub(crate) const EMOJI: u8 = 20;

/// All bundled fonts, in the order of [`FILES`]. A font that fails to parse (it cannot: they
/// are tested) would leave its scripts to the rest of the chain.
pub(crate) static FONTS: LazyLock<Vec<Option<Bundled>>> = LazyLock::new(|| {
    FILES
        .iter()
        .enumerate()
        .map(|(i, &(name, data))| {
            let shaper = rustybuzz::Face::from_slice(data, 0)?;
            let outlines = FontRef::try_from_slice(data).ok()?;
            let upem = f32::from(shaper.units_per_em() as u16).max(1.0);
            Some(Bundled {
                name,
                shaper,
                outlines,
                upem,
                embolden: i == usize::from(CJK),
                colour: i == usize::from(EMOJI),
            })
        })
        .collect()
});

/// A bundled font by index.
pub(crate) fn font(i: u8) -> Option<&'static Bundled> {
    FONTS.get(usize::from(i)).and_then(Option::as_ref)
}

/// The font made for a script, if one is bundled.
fn script_font(s: Script) -> Option<u8> {
    Some(match s {
        Script::Han | Script::Hiragana | Script::Katakana | Script::Hangul | Script::Bopomofo => {
            CJK
        }
        Script::Arabic => 2,
        Script::Hebrew => 3,
        Script::Devanagari => 4,
        Script::Bengali => 5,
        Script::Gurmukhi => 6,
        Script::Gujarati => 7,
        Script::Tamil => 8,
        Script::Telugu => 9,
        Script::Kannada => 10,
        Script::Malayalam => 11,
        Script::Sinhala => 12,
        Script::Thai => 13,
        Script::Lao => 14,
        Script::Khmer => 15,
        Script::Myanmar => 16,
        Script::Georgian => 17,
        Script::Armenian => 18,
        Script::Ethiopic => 19,
        _ => return None,
    })
}

/// Characters that shaping hides when a font has no glyph for them (joiners, variation
/// selectors, emoji tags): they do not count against a font's coverage.
pub(crate) fn is_default_ignorable(c: char) -> bool {
    matches!(c as u32, 0x200C..=0x200D | 0xFE00..=0xFE0F | 0xE0020..=0xE007F | 0xE0100..=0xE01EF)
}

/// Whether a cluster is drawn as an emoji: it asks for emoji presentation (U+FE0F), is a
/// keycap, a flag or a ZWJ sequence, or starts with a character shown as emoji by default.
pub(crate) fn is_emoji_cluster(cluster: &str) -> bool {
    let mut chars = cluster.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if cluster.contains('\u{FE0E}') {
        return false; // text presentation asked for
    }
    emoji_by_default(first)
        || cluster.contains('\u{FE0F}')
        || cluster.contains('\u{20E3}')
        || (cluster.contains('\u{200D}') && is_pictographic(first))
}

/// Emoji_Presentation=Yes characters (Unicode 15), which are emoji even without U+FE0F.
fn emoji_by_default(c: char) -> bool {
    let u = c as u32;
    matches!(u,
        0x231A..=0x231B | 0x23E9..=0x23EC | 0x23F0 | 0x23F3 | 0x25FD..=0x25FE
        | 0x2614..=0x2615 | 0x2648..=0x2653 | 0x267F | 0x2693 | 0x26A1 | 0x26AA..=0x26AB
        | 0x26BD..=0x26BE | 0x26C4..=0x26C5 | 0x26CE | 0x26D4 | 0x26EA | 0x26F2..=0x26F3
        | 0x26F5 | 0x26FA | 0x26FD | 0x2705 | 0x270A..=0x270B | 0x2728 | 0x274C | 0x274E
        | 0x2753..=0x2755 | 0x2757 | 0x2795..=0x2797 | 0x27B0 | 0x27BF | 0x2B1B..=0x2B1C
        | 0x2B50 | 0x2B55 | 0x1F004 | 0x1F0CF | 0x1F18E | 0x1F191..=0x1F19A
        | 0x1F1E6..=0x1F1FF | 0x1F201 | 0x1F21A | 0x1F22F | 0x1F232..=0x1F236
        | 0x1F238..=0x1F23A | 0x1F250..=0x1F251 | 0x1F300..=0x1F320 | 0x1F32D..=0x1F335
        | 0x1F337..=0x1F37C | 0x1F37E..=0x1F393 | 0x1F3A0..=0x1F3CA | 0x1F3CF..=0x1F3D3
        | 0x1F3E0..=0x1F3F0 | 0x1F3F4 | 0x1F3F8..=0x1F43E | 0x1F440 | 0x1F442..=0x1F4FC
        | 0x1F4FF..=0x1F53D | 0x1F54B..=0x1F54E | 0x1F550..=0x1F567 | 0x1F57A
        | 0x1F595..=0x1F596 | 0x1F5A4 | 0x1F5FB..=0x1F64F | 0x1F680..=0x1F6C5 | 0x1F6CC
        | 0x1F6D0..=0x1F6D2 | 0x1F6D5..=0x1F6D7 | 0x1F6DC..=0x1F6DF | 0x1F6EB..=0x1F6EC
        | 0x1F6F4..=0x1F6FC | 0x1F7E0..=0x1F7EB | 0x1F7F0 | 0x1F90C..=0x1F93A
        | 0x1F93C..=0x1F945 | 0x1F947..=0x1F9FF | 0x1FA70..=0x1FAFF)
}

/// Pictographs that may start a ZWJ sequence although they are text by default (❤, ☠, ♀…).
pub(crate) fn is_pictographic(c: char) -> bool {
    emoji_by_default(c) || matches!(c as u32, 0x2600..=0x27BF | 0x1F000..=0x1FAFF)
}

fn covers(f: &Bundled, cluster: &str) -> bool {
    cluster
        .chars()
        .all(|c| is_default_ignorable(c) || f.shaper.glyph_index(c).is_some())
}

/// The font that draws a cluster, given the font of the cluster before it; `None` when no
/// bundled font has every character (the caller then shapes with the first font, whose
/// `.notdef` glyph is a box).
pub(crate) fn pick(cluster: &str, previous: Option<u8>) -> Option<u8> {
    let try_font = |i: u8| font(i).is_some_and(|f| covers(f, cluster)).then_some(i);
    if is_emoji_cluster(cluster)
        && let Some(i) = try_font(EMOJI)
    {
        return Some(i);
    }
    let first = cluster.chars().next()?;
    let script = first.script();
    if let Some(i) = script_font(script).and_then(try_font) {
        return Some(i);
    }
    if matches!(script, Script::Common | Script::Inherited)
        && let Some(i) = previous.filter(|&p| p != EMOJI).and_then(try_font)
    {
        return Some(i);
    }
    (0..FILES.len() as u8)
        .filter(|&i| i != EMOJI)
        .find_map(try_font)
        .or_else(|| try_font(EMOJI))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_font_parses() {
        for (i, f) in FONTS.iter().enumerate() {
            assert!(f.is_some(), "{} does not parse", FILES[i].0);
        }
        assert!(font(EMOJI).is_some_and(|f| f.colour));
    }

    #[test]
    fn clusters_go_to_the_font_of_their_script() {
        let name = |c: &str| pick(c, None).and_then(font).map(|f| f.name);
        assert_eq!(name("K"), Some("DejaVuSans-Bold.ttf"));
        assert_eq!(name("Ж"), Some("DejaVuSans-Bold.ttf"));
        assert_eq!(name("漢"), Some("DroidSansFallback-subset.ttf"));
        assert_eq!(name("ม"), Some("NotoSansThai-Bold-subset.ttf"));
        assert_eq!(name("ش"), Some("NotoSansArabic-Bold-subset.ttf"));
        assert_eq!(name("क्ष"), Some("NotoSansDevanagari-Bold-subset.ttf"));
        assert_eq!(name("🐉"), Some("NotoColorEmoji-small.ttf"));
        assert_eq!(name("1\u{FE0F}\u{20E3}"), Some("NotoColorEmoji-small.ttf"));
        // ▶ and ★ stay text: the footer uses them as marks.
        assert_eq!(name("▶"), Some("DejaVuSans-Bold.ttf"));
        assert_eq!(name("★"), Some("DejaVuSans-Bold.ttf"));
    }

    #[test]
    fn spaces_and_digits_stay_in_the_font_before_them() {
        let arabic = pick("ش", None);
        assert_eq!(pick(" ", arabic), arabic);
        assert_eq!(pick(" ", None), Some(0));
        // Emoji never carry on to the spaces after them.
        assert_eq!(pick(" ", Some(EMOJI)), Some(0));
    }

    #[test]
    fn emoji_clusters_are_recognised() {
        assert!(is_emoji_cluster("🐉"));
        assert!(is_emoji_cluster("✨"));
        assert!(is_emoji_cluster("❤\u{FE0F}"));
        assert!(is_emoji_cluster("👍🏽"));
        assert!(is_emoji_cluster("🇫🇮"));
        assert!(is_emoji_cluster("#\u{FE0F}\u{20E3}"));
        assert!(!is_emoji_cluster("❤"));
        assert!(!is_emoji_cluster("🐉\u{FE0E}"));
        assert!(!is_emoji_cluster("A"));
        assert!(!is_emoji_cluster(""));
    }
}
