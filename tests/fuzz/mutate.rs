//! Mutations of valid inputs, as proptest strategies: a seed from a corpus of valid inputs,
//! then up to a few edits, each drawn from the format's own dictionary (its separators,
//! keywords and numbers at the edges of their types) or from any character. Edits work on
//! characters, so every input stays a `&str` like what Discord or a file hands over.

use proptest::prelude::*;
use proptest::sample::Index;

/// One edit of a text.
#[derive(Clone, Debug)]
pub enum Edit {
    /// Removes up to `len` characters at `at`.
    Delete { at: Index, len: usize },
    /// Inserts a dictionary word at `at`.
    Word { at: Index, word: Index },
    /// Inserts any character at `at`.
    Char { at: Index, c: char },
    /// Replaces the character at `at` with a dictionary word.
    Replace { at: Index, word: Index },
    /// Repeats up to `len` characters at `at` `times` times.
    Repeat { at: Index, len: usize, times: usize },
    /// Cuts the text at `at`.
    Truncate { at: Index },
    /// Moves a slice of up to `len` characters from `from` to `to`.
    Splice { from: Index, len: usize, to: Index },
}

/// Any edit.
pub fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => (any::<Index>(), 1..8usize).prop_map(|(at, len)| Edit::Delete { at, len }),
        4 => (any::<Index>(), any::<Index>()).prop_map(|(at, word)| Edit::Word { at, word }),
        2 => (any::<Index>(), any::<char>()).prop_map(|(at, c)| Edit::Char { at, c }),
        3 => (any::<Index>(), any::<Index>()).prop_map(|(at, word)| Edit::Replace { at, word }),
        1 => (any::<Index>(), 1..16usize, 1..6usize)
            .prop_map(|(at, len, times)| Edit::Repeat { at, len, times }),
        1 => any::<Index>().prop_map(|at| Edit::Truncate { at }),
        1 => (any::<Index>(), 1..24usize, any::<Index>())
            .prop_map(|(from, len, to)| Edit::Splice { from, len, to }),
    ]
}

/// Applies `edits` to `seed`, with words from `dict`.
pub fn apply(seed: &str, edits: &[Edit], dict: &[&str]) -> String {
    let mut chars: Vec<char> = seed.chars().collect();
    for e in edits {
        // A position in 0..=len (insertions may go at the end).
        let at = |i: &Index, chars: &Vec<char>| i.index(chars.len() + 1);
        match e {
            Edit::Delete { at: i, len } => {
                let a = at(i, &chars).min(chars.len());
                let b = (a + len).min(chars.len());
                chars.drain(a..b);
            }
            Edit::Word { at: i, word } => {
                let a = at(i, &chars);
                let w = dict[word.index(dict.len())];
                chars.splice(a..a, w.chars());
            }
            Edit::Char { at: i, c } => {
                let a = at(i, &chars);
                chars.insert(a, *c);
            }
            Edit::Replace { at: i, word } => {
                let a = at(i, &chars).min(chars.len());
                let b = (a + 1).min(chars.len());
                let w = dict[word.index(dict.len())];
                chars.splice(a..b, w.chars());
            }
            Edit::Repeat { at: i, len, times } => {
                let a = at(i, &chars).min(chars.len());
                let b = (a + len).min(chars.len());
                let part: Vec<char> = chars[a..b].to_vec();
                for _ in 0..*times {
                    chars.splice(b..b, part.iter().copied());
                }
            }
            Edit::Truncate { at: i } => {
                let a = at(i, &chars).min(chars.len());
                chars.truncate(a);
            }
            Edit::Splice { from, len, to } => {
                let a = at(from, &chars).min(chars.len());
                let b = (a + len).min(chars.len());
                let part: Vec<char> = chars.drain(a..b).collect();
                let t = to.index(chars.len() + 1);
                chars.splice(t..t, part);
            }
        }
    }
    chars.into_iter().collect()
}

/// A seed from `corpus` with up to `max_edits` edits (none in about one case in eight, so
/// the valid inputs themselves are checked too).
pub fn mutated(
    corpus: Vec<String>,
    dict: &'static [&'static str],
    max_edits: usize,
) -> impl Strategy<Value = String> {
    (
        any::<Index>(),
        prop_oneof![1 => Just(0usize), 7 => 1..=max_edits],
        proptest::collection::vec(edit(), max_edits),
    )
        .prop_map(move |(seed, n, edits)| {
            let seed = &corpus[seed.index(corpus.len())];
            apply(seed, &edits[..n], dict)
        })
}

/// Numbers at the edges of the types ids and counts are parsed into, and a few malformed ones.
pub const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "+1",
    "01",
    "007",
    "255",
    "256",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551616",
    "1e3",
    "0x10",
    "1.5",
    "NaN",
    "inf",
    "١٢",
];

/// Text that trips parsers: empty, whitespace, controls, wide and combining characters, marks
/// that change direction, and characters that change length when upper-cased.
pub const AWKWARD: &[&str] = &[
    "",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\0",
    "\u{7f}",
    "\u{200b}",
    "\u{202e}",
    "\u{fe0f}",
    "é",
    "e\u{301}",
    "ß",
    "ﬃ",
    "İ",
    "ǅ",
    "🎲",
    "👩‍👩‍👧",
    "Ｋ",
    "１０",
    "\u{10ffff}",
    "\\",
    "\"",
    "'",
];
