//! Cleaning display names before they are shaped: what a member types must never steer the
//! rest of the picture, hide, or paint over other rows.
//!
//! - Control characters, bidi embeddings, overrides and isolates (U+202A..U+202E,
//!   U+2066..U+2069) and marks (U+200E, U+200F, U+061C) are dropped: they would reorder the
//!   rest of the footer. Each name is laid out as a paragraph of its own instead.
//! - Invisible characters (zero-width space, word joiner, soft hyphen, fillers, variation
//!   selectors for text, stray emoji tags) are dropped, and so are enclosing marks but the
//!   keycap (U+20DD's circle, U+0489's ring of commas draw far outside their letter).
//! - Joiners (ZWJ, ZWNJ) are kept only where they do something: ZWJ between the pictographs
//!   of an emoji sequence, ZWJ and ZWNJ between letters (or a letter's marks) of one script
//!   that joins or forms conjuncts (Arabic, Persian, the Indic scripts, Sinhala...). Elsewhere
//!   they are invisible and dropped, and never more than one in a row.
//! - Each base character keeps at most [`MAX_MARKS`] non-spacing marks, never
//!   a mark repeated right after itself, and a grapheme cluster at most
//!   [`MAX_CLUSTER_CHARS`] characters: "Zalgo" floods become a letter with a few accents,
//!   while a conjunct's consonants each keep their own virama and vowel sign. No name or
//!   word starts with a mark.
//! - White space becomes one space between words; at most [`MAX_NAME_CLUSTERS`] clusters
//!   are kept, and the caller cuts the rest by drawn width with an ellipsis (`text::fit`).

use unicode_general_category::{GeneralCategory, get_general_category};
use unicode_script::{Script, UnicodeScript};
use unicode_segmentation::UnicodeSegmentation;

use super::fonts;

/// Most grapheme clusters of a name that are kept; the rest could never fit on the picture.
pub(crate) const MAX_NAME_CLUSTERS: usize = 80;
/// Most characters of a name that are looked at (bounds the work on hostile input).
pub(crate) const MAX_INPUT_CHARS: usize = 2000;
/// Combining marks kept per cluster (stops "Zalgo" text from painting over other rows).
pub(crate) const MAX_MARKS: usize = 3;
/// Most characters kept in one cluster: enough for a family emoji with skin tones or a
/// subdivision flag, far more than any conjunct.
pub(crate) const MAX_CLUSTER_CHARS: usize = 16;

const ZWNJ: char = '\u{200C}';
const ZWJ: char = '\u{200D}';

/// Characters that show nothing or steer layout: controls, bidi embeddings, overrides and
/// isolates (U+202A..U+202E, U+2066..U+2069) that would reorder the rest of the footer,
/// invisible fillers and separators; also enclosing marks other than the keycap (circles,
/// Cyrillic number signs), which draw far outside the letter they enclose. Joiners (ZWJ,
/// ZWNJ), emoji variation selectors and emoji tags are left to later steps.
pub(crate) fn is_invisible(c: char) -> bool {
    c.is_control()
        || (c != '\u{20E3}' && get_general_category(c) == GeneralCategory::EnclosingMark)
        || matches!(c as u32,
            0x00AD | 0x034F | 0x061C | 0x115F..=0x1160 | 0x17B4..=0x17B5 | 0x180B..=0x180F
            | 0x200B | 0x200E..=0x200F | 0x2028..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F
            | 0x3164 | 0xFE00..=0xFE0D | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFFB
            | 0xE0000..=0xE001F | 0xE0080..=0xE0FFF)
}

/// A mark that sits on the letter before it without taking room of its own (general
/// category Mn): these are what "Zalgo" text piles up, and what counts against
/// [`MAX_MARKS`].
pub(crate) fn is_mark(c: char) -> bool {
    get_general_category(c) == GeneralCategory::NonspacingMark
}

/// Any combining mark, spacing ones (Mc) too: none can start a name or a word.
fn is_any_mark(c: char) -> bool {
    matches!(
        get_general_category(c),
        GeneralCategory::NonspacingMark
            | GeneralCategory::EnclosingMark
            | GeneralCategory::SpacingMark
    )
}

/// Scripts whose letters join or form conjuncts, where ZWJ and ZWNJ choose a form.
fn joins(s: Script) -> bool {
    !matches!(
        s,
        Script::Common
            | Script::Inherited
            | Script::Unknown
            | Script::Latin
            | Script::Greek
            | Script::Cyrillic
            | Script::Armenian
            | Script::Georgian
            | Script::Han
            | Script::Hiragana
            | Script::Katakana
            | Script::Hangul
            | Script::Bopomofo
            | Script::Hebrew
            | Script::Ethiopic
    )
}

/// Emoji modifiers (skin tones) and the emoji variation selector, which may sit between a
/// pictograph and the ZWJ that follows it.
fn is_emoji_part(c: char) -> bool {
    matches!(c as u32, 0x1F3FB..=0x1F3FF | 0xFE0F) || fonts::is_pictographic(c)
}

/// Whether a joiner between `before` (the last character kept) and `after` does anything.
fn joiner_works(j: char, before: Option<char>, after: Option<char>) -> bool {
    if before.is_some_and(is_virama) {
        return after != Some(ZWJ) && after != Some(ZWNJ);
    }
    let (Some(b), Some(a)) = (before, after) else {
        return false;
    };
    if j == ZWJ && is_emoji_part(b) && fonts::is_pictographic(a) {
        return true;
    }
    let (sb, sa) = (b.script(), a.script());
    // A mark of the inherited script takes the script of the letter it sits on, which is
    // not at hand here: let the letter after it decide.
    let sb = if sb == Script::Inherited { sa } else { sb };
    sb == sa && joins(sa)
}

/// A virama (combining class 9) of a script that joins: a joiner after it picks a half form
/// or a chillu (Malayalam's "ന്\u{200D}") even at the end of a word.
fn is_virama(c: char) -> bool {
    unicode_ccc::get_canonical_combining_class(c) as u8 == 9 && joins(c.script())
}

/// Drops joiners left at the end of `out` unless a virama takes them.
fn trim_joiners(out: &mut String) {
    while out.ends_with([ZWJ, ZWNJ]) {
        let mut rest = out.chars().rev().skip(1);
        if rest.next().is_some_and(is_virama) {
            break;
        }
        out.pop();
    }
}

/// Drops invisible characters and joiners that do nothing; white space becomes a space.
fn visible_chars(name: &str) -> (String, bool) {
    let cut = name.chars().nth(MAX_INPUT_CHARS).is_some();
    let chars: Vec<char> = name
        .chars()
        .take(MAX_INPUT_CHARS)
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|&c| !is_invisible(c))
        .collect();
    let mut out = String::with_capacity(chars.len() * 2);
    let mut last = None;
    for (i, &c) in chars.iter().enumerate() {
        if (c == ZWJ || c == ZWNJ) && !joiner_works(c, last, chars.get(i + 1).copied()) {
            continue;
        }
        out.push(c);
        last = Some(c);
    }
    (out, cut)
}

/// One grapheme cluster, trimmed: at most [`MAX_MARKS`] marks per base character, no mark
/// right after the same mark, at most [`MAX_CLUSTER_CHARS`] characters, emoji tags only
/// after a black flag, and no leading mark or joiner when it would start a word (nothing
/// to sit on).
fn trim_cluster(cluster: &str, starts_word: bool) -> String {
    let flag = cluster.starts_with('\u{1F3F4}');
    let mut out = String::new();
    let mut marks = 0;
    let mut kept = 0;
    let mut previous = None;
    for c in cluster.chars() {
        if kept >= MAX_CLUSTER_CHARS {
            // A sequence cut short leaves a joiner that joins nothing.
            trim_joiners(&mut out);
            break;
        }
        let tag = matches!(c as u32, 0xE0020..=0xE007F);
        if tag && !flag {
            continue;
        }
        if starts_word && kept == 0 && (is_any_mark(c) || c == ZWJ || c == ZWNJ) {
            continue;
        }
        // A repeated mark draws on itself (no script doubles one); regional indicators
        // and tags may repeat.
        let regional = matches!(c as u32, 0x1F1E6..=0x1F1FF);
        if kept > 0 && previous == Some(c) && !tag && !regional {
            continue;
        }
        if is_mark(c) {
            marks += 1;
            if marks > MAX_MARKS {
                continue;
            }
        } else if !is_any_mark(c) && c != ZWJ && c != ZWNJ {
            // A letter inside the cluster (a conjunct's next consonant) takes marks of its
            // own: the cap is per base character.
            marks = 0;
        }
        out.push(c);
        kept += 1;
        previous = Some(c);
    }
    out
}

/// Cleans a display name as the module docs say. Returns the text and whether it was cut
/// (then the caller draws an ellipsis after it).
pub(crate) fn sanitize(name: &str) -> (String, bool) {
    // One pass can leave a shape that a second pass trims further (a joiner whose next
    // mark was cut: `"ऄ\u{301}\u{fe0f}\u{301}\u{200c}\u{94d}\u{3fc40}"` keeps the ZWNJ
    // once, then loses it). Passes only ever remove characters, so repeating them until
    // nothing changes ends, and the name shown is the same however often it is cleaned.
    let (mut out, mut cut) = sanitize_once(name);
    loop {
        let (again, cut_again) = sanitize_once(&out);
        cut |= cut_again;
        if again == out {
            return (out, cut);
        }
        out = again;
    }
}

/// One cleaning pass of [`sanitize`].
fn sanitize_once(name: &str) -> (String, bool) {
    let (visible, mut cut) = visible_chars(name);
    let mut out = String::new();
    let mut clusters = 0;
    let mut pending_space = false;
    for cluster in visible.graphemes(true) {
        if cluster.starts_with(' ') {
            pending_space = !out.is_empty();
            continue;
        }
        let kept = trim_cluster(cluster, out.is_empty() || pending_space);
        if kept.is_empty() {
            continue;
        }
        if clusters + usize::from(pending_space) >= MAX_NAME_CLUSTERS {
            cut = true;
            break;
        }
        if pending_space {
            out.push(' ');
            clusters += 1;
            pending_space = false;
        }
        out.push_str(&kept);
        clusters += 1;
    }
    // A name cut after a joiner: it joins nothing now.
    trim_joiners(&mut out);
    (out, cut)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn clean(s: &str) -> String {
        sanitize(s).0
    }

    #[test]
    fn a_joiner_left_before_a_cut_mark_is_cleaned_the_same_twice() {
        // Found by `any_name_comes_out_clean`: one pass kept the ZWNJ, a second dropped it.
        let (once, _) = sanitize("\u{904}\u{301}\u{fe0f}\u{301}\u{200c}\u{94d}\u{3fc40}");
        assert_eq!(sanitize(&once).0, once);
        assert!(!once.contains('\u{94d}'), "{once:?}");
    }

    #[test]
    fn controls_become_nothing_and_white_space_one_space() {
        assert_eq!(sanitize("  a\n\tb\u{7}  c  "), ("a b c".to_string(), false));
        assert_eq!(
            sanitize("\u{0}\u{1b}[31mred\u{7f}"),
            ("[31mred".to_string(), false)
        );
        assert_eq!(clean("a\u{2028}b\u{2029}c\u{85}d"), "a b c d");
        assert_eq!(sanitize(""), (String::new(), false));
        assert_eq!(sanitize("   "), (String::new(), false));
    }

    #[test]
    fn bidi_overrides_isolates_and_marks_are_dropped() {
        assert_eq!(clean("\u{202E}evil"), "evil");
        for c in (0x202A..=0x202E)
            .chain(0x2066..=0x2069)
            .chain([0x200E, 0x200F, 0x061C])
        {
            let c = char::from_u32(c).expect("char");
            assert_eq!(clean(&format!("a{c}b{c}")), "ab", "U+{:04X}", c as u32);
        }
        // An override meant to flip what follows it in the footer: only letters are left.
        assert_eq!(clean("Bob\u{202E} wins\u{202C}"), "Bob wins");
        assert_eq!(clean("\u{2067}שלום\u{2069}"), "שלום");
    }

    #[test]
    fn invisible_characters_are_dropped() {
        assert_eq!(sanitize("\u{200B}\u{FEFF}"), (String::new(), false));
        assert_eq!(clean("a\u{200B}d\u{2060}m\u{AD}i\u{FEFF}n"), "admin");
        assert_eq!(clean("\u{3164}\u{115F}x\u{FFA0}"), "x");
        // Text presentation and other variation selectors go; the emoji one stays.
        assert_eq!(clean("x\u{FE00}"), "x");
        assert_eq!(clean("\u{2764}\u{FE0F}"), "\u{2764}\u{FE0F}");
        // Tags outside a flag sequence go.
        assert_eq!(clean("a\u{E0061}b"), "ab");
    }

    #[test]
    fn combining_floods_keep_a_few_marks_per_letter() {
        let zalgo = format!("a{}", "\u{0301}".repeat(500));
        assert_eq!(clean(&zalgo), "a\u{0301}");
        let mixed: String = "Z\u{0301}\u{0302}\u{0303}\u{0304}\u{0305}\u{0306}a".into();
        assert_eq!(clean(&mixed).chars().count(), 1 + MAX_MARKS + 1);
        // Enclosing circles and signs would draw far around the letter: dropped.
        let enclosing = format!("b{}", "\u{20DD}\u{0488}".repeat(100));
        assert_eq!(clean(&enclosing), "b");
        // Spacing vowel signs (combining class 0) are bounded per cluster.
        let vowels = format!("क{}", "ा\u{093F}".repeat(100));
        assert!(clean(&vowels).chars().count() <= MAX_CLUSTER_CHARS);
        // Leading marks have nothing to sit on.
        assert_eq!(clean("\u{0301}\u{0302}x"), "x");
        // Vietnamese needs two marks on a letter, and keeps them.
        assert_eq!(clean("Nguyê\u{0303}n"), "Nguyê\u{0303}n");
    }

    #[test]
    fn overlong_names_are_cut_and_say_so() {
        let (long, cut) = sanitize(&"x".repeat(200));
        assert!(cut);
        assert_eq!(long.chars().count(), MAX_NAME_CLUSTERS);
        let (huge, cut) = sanitize(&"y".repeat(100_000));
        assert!(cut);
        assert_eq!(huge.chars().count(), MAX_NAME_CLUSTERS);
        let (words, cut) = sanitize(&"ab ".repeat(100));
        assert!(cut);
        assert!(!words.ends_with(' '));
        let (fits, cut) = sanitize(&"z".repeat(MAX_NAME_CLUSTERS));
        assert!(!cut);
        assert_eq!(fits.len(), MAX_NAME_CLUSTERS);
    }

    #[test]
    fn emoji_sequences_and_script_joiners_stay_whole() {
        for s in [
            "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
            "\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}",
            "\u{2764}\u{FE0F}\u{200D}\u{1F525}",
            "\u{1F44D}\u{1F3FD}",
            "\u{1F1EB}\u{1F1EE}",
            "\u{1F1E6}\u{1F1E6}",
            "1\u{FE0F}\u{20E3}",
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
            "می\u{200C}خواهم",
            "ශ්\u{200D}රී",
            "क्\u{200D}ष",
            "क्\u{200C}ष",
            "ന്\u{200D}",
            "क्ष",
        ] {
            assert_eq!(sanitize(s), (s.to_string(), false), "{s:?}");
        }
    }

    #[test]
    fn joiners_that_join_nothing_are_dropped() {
        // Between Latin letters, at either end, after a space, repeated.
        assert_eq!(clean("a\u{200D}b\u{200C}c"), "abc");
        assert_eq!(clean("\u{200D}\u{200C}x\u{200D}"), "x");
        assert_eq!(clean("a \u{200D}b"), "a b");
        assert_eq!(
            clean("م\u{200C}\u{200C}\u{200C}ی"),
            "م\u{200C}ی",
            "one joiner in a row"
        );
        // Between two scripts, or an emoji and a letter.
        assert_eq!(clean("ب\u{200D}a"), "بa");
        assert_eq!(clean("\u{1F409}\u{200D}x"), "\u{1F409}x");
        assert_eq!(
            clean(&format!("a{}", "\u{200D}".repeat(300))),
            "a",
            "a flood of joiners"
        );
        // A family cut at the cluster's length keeps no dangling joiner.
        let family = "\u{1F468}\u{1F3FB}\u{200D}".repeat(8);
        assert!(!clean(&format!("{family} x")).contains("\u{200D} "));
    }

    #[test]
    fn cleaning_is_idempotent_on_examples() {
        for s in [
            "Zoë \u{202E}x\u{0301}\u{0301}",
            "\u{1F468}\u{200D}\u{200D}\u{1F469}",
            "ك\u{200C} \u{200D}",
            "  ",
        ] {
            let once = clean(s);
            assert_eq!(clean(&once), once, "{s:?}");
        }
    }

    /// Characters that hostile or unusual names are made of, mixed with any character.
    pub(crate) fn name_strategy() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let hostile: Vec<char> = [
            '\u{0}',
            '\n',
            '\t',
            '\u{7f}',
            '\u{85}',
            ' ',
            '\u{3000}',
            '\u{200B}',
            '\u{200C}',
            '\u{200D}',
            '\u{200E}',
            '\u{200F}',
            '\u{202A}',
            '\u{202B}',
            '\u{202C}',
            '\u{202D}',
            '\u{202E}',
            '\u{2066}',
            '\u{2067}',
            '\u{2068}',
            '\u{2069}',
            '\u{061C}',
            '\u{FEFF}',
            '\u{AD}',
            '\u{0301}',
            '\u{0316}',
            '\u{0489}',
            '\u{20DD}',
            '\u{20E3}',
            '\u{FE0F}',
            '\u{FE0E}',
            '\u{094D}',
            '\u{0DCA}',
            '\u{0E48}',
            '\u{0E34}',
            '\u{1F3FD}',
            '\u{1F468}',
            '\u{1F469}',
            '\u{1F1EB}',
            '\u{1F1EE}',
            '\u{1F3F4}',
            '\u{E0067}',
            '\u{E007F}',
            '\u{2764}',
            'a',
            'W',
            '#',
            '1',
            'ب',
            'ی',
            'ש',
            'क',
            'ष',
            'ශ',
            'ර',
            'ก',
            'ន',
            '្',
            'က',
            '김',
            '漢',
            'ა',
            'Ա',
            'አ',
            '\u{FFFD}',
            '\u{10FFFF}',
        ]
        .into();
        proptest::collection::vec(
            prop_oneof![any::<char>(), proptest::sample::select(hostile)],
            0..160,
        )
        .prop_map(|v| v.into_iter().collect())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

        /// Whatever is typed: no panic, nothing invisible or steering left, a bounded
        /// number of clusters and marks, and cleaning the result changes nothing.
        #[test]
        fn any_name_comes_out_clean(name in name_strategy()) {
            let (out, cut) = sanitize(&name);
            proptest::prop_assert!(!out.chars().any(is_invisible), "{out:?}");
            proptest::prop_assert!(!out.starts_with(' ') && !out.ends_with(' '));
            proptest::prop_assert!(!out.contains("  "));
            let clusters: Vec<&str> = out.graphemes(true).collect();
            proptest::prop_assert!(clusters.len() <= MAX_NAME_CLUSTERS);
            for g in &clusters {
                proptest::prop_assert!(g.chars().count() <= MAX_CLUSTER_CHARS, "{g:?}");
            }
            let mut run = 0;
            for c in out.chars() {
                run = if is_mark(c) { run + 1 } else if is_any_mark(c) { run } else { 0 };
                proptest::prop_assert!(run <= MAX_MARKS, "{out:?}");
            }
            let doubled = out.contains("\u{200D}\u{200D}") || out.contains("\u{200C}\u{200C}");
            proptest::prop_assert!(!doubled, "{:?}", out);
            let (again, cut_again) = sanitize(&out);
            proptest::prop_assert_eq!(&again, &out);
            proptest::prop_assert!(!cut_again || cut);
        }
    }
}
