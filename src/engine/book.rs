//! The opening book: the first moves of Pente and Keryo under the pro and long-pro openings,
//! where every game against the computer starts from the same centre stone; and for the swap
//! and swap2 openings of Gomoku, standard Gomoku and Renju, the judgement of the 26 classic
//! three-stone openings (black on the centre, white next to it, black within two points), from
//! which the computer places a balanced opening and takes its colour.
//!
//! The book was made offline by the engine itself: `cargo run --release -p gomoku-core
//! --example make_book` searches each position of [`book_positions`] and
//! [`swap_openings`] at level 6's settings under a node cap (deterministic: the same cap and
//! seed give the same book) and prints the lines of `book.txt`, which is checked in and
//! compiled into the engine. A book move is
//! instant and comes from a search far longer than a live level's budget; the search takes
//! over as soon as the position leaves the book (another rule set, a stone elsewhere, a
//! capture).
//!
//! A position is looked up under the board's 8 symmetries, so one line covers its mirror
//! images. Lines that do not read (a hand edit gone wrong) are skipped, never a panic: the
//! tests read every line of the shipped book.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::rules::{Action, Game, Opening, Phase, Point, Preset, RuleSet, Symmetry};

/// The shipped book (see the module's documentation for how it was made).
const BOOK: &str = include_str!("book.txt");

/// The most stones of a position in the book ([`book_positions`]): past them no lookup.
const MOST_STONES: usize = 3;

/// The stones of a position as (column, row, colour), sorted: a key that ignores move order.
type Key = Vec<(u8, u8, u8)>;

/// The book in memory: by variant (the names of [`variant`]) and canonical key.
type Book = HashMap<(&'static str, &'static str, Key), BookMove>;

/// A move of the book and what the search that chose it saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub point: Point,
    /// The search's score for the side to move (see [`super::WIN`]).
    pub score: i32,
    /// The deepest iteration the search completed.
    pub depth: i32,
}

/// The book's name for a rule set it covers: `("pente" | "keryo", "pro" | "long-pro")`, or
/// `("gomoku" | "gomoku-standard" | "renju", "swap")` for both swap openings (their first
/// three stones are the same), for the presets exactly as they come apart from the opening;
/// `None` for everything else (a changed capture goal or board size makes other games).
pub fn variant(rules: &RuleSet) -> Option<(&'static str, &'static str)> {
    let name = match (rules.preset, rules.opening) {
        (Preset::Pente | Preset::Keryo, Opening::Pro | Opening::LongPro) => rules.opening.name(),
        (
            Preset::Gomoku | Preset::GomokuStandard | Preset::Renju,
            Opening::Swap | Opening::Swap2,
        ) => SWAP,
        _ => return None,
    };
    let preset = RuleSet {
        opening: rules.opening,
        ..RuleSet::preset(rules.preset)
    };
    (*rules == preset).then_some((rules.preset.name(), name))
}

/// The book's name of the swap openings.
const SWAP: &str = "swap";

/// Judged openings whose score lies within this of an even game are the balanced ones the
/// computer places (about a tenth of an open three: the colour choice gains little).
const BALANCED: i32 = 40;

/// The inverse of a symmetry (the one that maps its images back).
fn inverse(s: Symmetry, size: u8) -> Symmetry {
    // (1, 2) lies on no axis of symmetry, so exactly one symmetry maps its image back.
    let q = Point::new(1, 2, size).expect("every board has the point B3");
    Symmetry::ALL
        .into_iter()
        .find(|t| t.apply(s.apply(q, size), size) == q)
        .unwrap_or(s)
}

/// The stones turned by a symmetry, as (column, row, colour), in their order.
fn turned(stones: &[(Point, u8)], s: Symmetry, size: u8) -> Key {
    stones
        .iter()
        .map(|&(p, c)| {
            let q = s.apply(p, size);
            (q.col(), q.row(), c)
        })
        .collect()
}

/// The smallest key of the position over the 8 symmetries, with the symmetry that gives it.
fn canonical(stones: &[(Point, u8)], size: u8) -> (Key, Symmetry) {
    Symmetry::ALL
        .into_iter()
        .map(|s| {
            let mut key = turned(stones, s, size);
            key.sort_unstable();
            (key, s)
        })
        .min_by(|a, b| a.0.cmp(&b.0))
        .expect("there are 8 symmetries")
}

/// The position's key under its canonical symmetry: two positions are the same up to the
/// board's symmetries exactly when their keys are equal (the generator's deduplication).
pub fn canonical_key(game: &Game) -> Vec<(u8, u8, u8)> {
    canonical(&game.stones(), game.size()).0
}

/// One line of `book.txt`: `pente pro | K10 L11 | N13 | score 35 depth 9 ...`, or a judged
/// opening without a move, `gomoku swap | H8 H9 J10 | - | score -60 depth 9 ...` (the point
/// of its [`BookMove`] is then the last stone, unused).
fn parse_line(line: &str) -> Option<((&str, &str), Vec<Point>, BookMove)> {
    let mut fields = line.split('|').map(str::trim);
    let mut name = fields.next()?.split_whitespace();
    let (preset, opening) = (name.next()?, name.next()?);
    let size = if opening == SWAP { 15 } else { 19 };
    let stones = fields
        .next()?
        .split_whitespace()
        .map(|t| Point::parse(t, size).ok())
        .collect::<Option<Vec<_>>>()?;
    let point = match fields.next()? {
        "-" => *stones.last()?,
        p => Point::parse(p, size).ok()?,
    };
    let mut info = fields.next()?.split_whitespace();
    let (mut score, mut depth) = (None, None);
    while let (Some(k), Some(v)) = (info.next(), info.next()) {
        match k {
            "score" => score = v.parse().ok(),
            "depth" => depth = v.parse().ok(),
            _ => {}
        }
    }
    let m = BookMove {
        point,
        score: score?,
        depth: depth?,
    };
    Some(((preset, opening), stones, m))
}

/// The game a book line describes, if its stones are a legal start of that variant.
fn replay(preset: &str, opening: &str, stones: &[Point]) -> Option<Game> {
    let preset = Preset::ALL.into_iter().find(|p| p.name() == preset)?;
    let opening = match opening {
        SWAP => Opening::Swap2,
        name => Opening::ALL.iter().copied().find(|o| o.name() == name)?,
    };
    let rules = RuleSet {
        opening,
        ..RuleSet::preset(preset)
    };
    variant(&rules)?;
    let mut game = Game::new(rules);
    for &p in stones {
        game.apply(Action::Place(p)).ok()?;
    }
    Some(game)
}

/// Every line of `text` that reads as a legal book entry, keyed by variant and canonical key
/// (the move turned by the same symmetry).
fn load(text: &str) -> Book {
    let mut book = Book::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some(((preset, opening), stones, m)) = parse_line(line) else {
            continue;
        };
        let Some(game) = replay(preset, opening, &stones) else {
            continue;
        };
        let Some((preset, opening)) = variant(game.rules()) else {
            continue;
        };
        let fits = if opening == SWAP {
            // A judged opening: the colour choice is due.
            matches!(game.phase(), Phase::Choosing { .. })
        } else {
            game.phase() == Phase::Playing && game.is_legal(Action::Place(m.point))
        };
        if !fits {
            continue;
        }
        let (key, s) = canonical(&game.stones(), game.size());
        let m = BookMove {
            point: s.apply(m.point, game.size()),
            ..m
        };
        book.insert((preset, opening, key), m);
    }
    book
}

fn shipped() -> &'static Book {
    static BOOK_MAP: OnceLock<Book> = OnceLock::new();
    BOOK_MAP.get_or_init(|| load(BOOK))
}

/// The book's move in `game`, if the book covers its rule set and position (under any of the
/// board's symmetries) and the move is legal there.
pub fn lookup(game: &Game) -> Option<BookMove> {
    lookup_in(shipped(), game)
}

fn lookup_in(book: &Book, game: &Game) -> Option<BookMove> {
    let (preset, opening) = variant(game.rules()).filter(|v| v.1 != SWAP)?;
    // Captures cannot happen in the book's first stones; a removed stone means another game.
    if game.phase() != Phase::Playing
        || game.stones_placed() > MOST_STONES
        || game.stones_removed() > 0
        || game.is_over()
    {
        return None;
    }
    let size = game.size();
    let (key, s) = canonical(&game.stones(), size);
    let m = book.get(&(preset, opening, key))?;
    let point = inverse(s, size).apply(m.point, size);
    game.is_legal(Action::Place(point))
        .then_some(BookMove { point, ..*m })
}

/// The book's judgement of a swap opening whose colour choice is due: the score, for the
/// colour that moves next, of the position as it will be played; `None` for a position the
/// book does not hold.
pub fn judgement(game: &Game) -> Option<BookMove> {
    judgement_in(shipped(), game)
}

fn judgement_in(book: &Book, game: &Game) -> Option<BookMove> {
    let (preset, SWAP) = variant(game.rules())? else {
        return None;
    };
    if !matches!(game.phase(), Phase::Choosing { .. }) || game.stones_placed() > MOST_STONES {
        return None;
    }
    let (key, _) = canonical(&game.stones(), game.size());
    book.get(&(preset, SWAP, key)).copied()
}

/// The next stone of a balanced swap opening (judged within [`BALANCED`] of an even game;
/// the four nearest even when fewer are) that the stones placed so far begin, at random among
/// them; `None` once the opening's three stones are down, or where the book has no opening.
pub fn opening_stone(game: &Game, rng: &mut impl rand::Rng) -> Option<Point> {
    opening_stone_in(shipped(), game, rng)
}

fn opening_stone_in(book: &Book, game: &Game, rng: &mut impl rand::Rng) -> Option<Point> {
    let (preset, SWAP) = variant(game.rules())? else {
        return None;
    };
    if !matches!(game.phase(), Phase::Placing { .. }) || game.stones_placed() >= MOST_STONES {
        return None;
    }
    let size = game.size();
    let placed = game.stones();
    if placed.is_empty() {
        // Every opening of the book starts on the centre.
        let centre = Point::centre(size);
        return game.is_legal(Action::Place(centre)).then_some(centre);
    }
    let mut judged: Vec<(&Key, i32)> = book
        .iter()
        .filter(|((p, o, _), _)| *p == preset && *o == SWAP)
        .map(|((_, _, k), m)| (k, m.score.abs()))
        .collect();
    // Nearest even first; the key breaks ties so the choice does not follow the map's order.
    judged.sort_unstable_by(|a, b| (a.1, a.0).cmp(&(b.1, b.0)));
    let balanced = judged.iter().filter(|j| j.1 <= BALANCED).count();
    judged.truncate(balanced.max(4));
    let colour = game.to_move();
    let mut next: Vec<Point> = Vec::new();
    for (key, _) in judged {
        for s in Symmetry::ALL {
            let turned = turned(&placed, s, size);
            if !turned.iter().all(|t| key.contains(t)) {
                continue;
            }
            let back = inverse(s, size);
            for &(col, row, c) in key {
                if c != colour || turned.contains(&(col, row, c)) {
                    continue;
                }
                let Ok(p) = Point::new(col, row, size) else {
                    continue;
                };
                let p = back.apply(p, size);
                if !next.contains(&p) && game.is_legal(Action::Place(p)) {
                    next.push(p);
                }
            }
        }
    }
    if next.is_empty() {
        return None;
    }
    Some(next[rng.random_range(0..next.len())])
}

/// The 26 classic openings of the swap book for a swap variant (black on the centre, white on
/// a neighbour, black within two points of the centre; one per class of symmetric ones), as
/// games whose colour choice is due; empty for other rule sets.
pub fn swap_openings(rules: &RuleSet) -> Vec<Game> {
    let Some((_, SWAP)) = variant(rules) else {
        return Vec::new();
    };
    let rules = RuleSet {
        opening: Opening::Swap2,
        ..*rules
    };
    let size = rules.size;
    let centre = Point::centre(size);
    let near = |dc: i8, dr: i8| {
        let col = u8::try_from(i16::from(centre.col()) + i16::from(dc)).ok()?;
        let row = u8::try_from(i16::from(centre.row()) + i16::from(dr)).ok()?;
        Point::new(col, row, size).ok()
    };
    let mut out: Vec<Game> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for white in [near(0, 1), near(1, 1)].into_iter().flatten() {
        for third in Game::new(rules).points() {
            if third.distance(centre) > 2 {
                continue;
            }
            let mut game = Game::new(rules);
            if [centre, white, third]
                .iter()
                .all(|&p| game.apply(Action::Place(p)).is_ok())
                && seen.insert(canonical_key(&game))
            {
                out.push(game);
            }
        }
    }
    out
}

/// The positions the book covers for a variant, as the generator searches them:
/// the centre stone alone (colour 2's first move); the centre and a stone of colour 2 within
/// 3 points of it (colour 1's restricted second move); and, after the book's answer `reply`
/// to the centre, a second stone of colour 1 on the nearest ring the opening allows (colour
/// 2's second move). One position per class of symmetric positions.
///
/// `reply` is `None` before the book knows colour 2's first move; then the third group is
/// empty.
pub fn book_positions(rules: &RuleSet, reply: Option<Point>) -> Vec<Game> {
    if !matches!(variant(rules), Some((_, "pro" | "long-pro"))) {
        return Vec::new();
    }
    let size = rules.size;
    let centre = Point::centre(size);
    let mut out: Vec<Game> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut push = |stones: &[Point]| {
        let mut game = Game::new(*rules);
        if stones.iter().all(|&p| game.apply(Action::Place(p)).is_ok())
            && seen.insert(canonical_key(&game))
        {
            out.push(game);
        }
    };
    push(&[centre]);
    let near: Vec<Point> = Game::new(*rules)
        .points()
        .filter(|&p| p != centre && p.distance(centre) <= 3)
        .collect();
    for &x in &near {
        push(&[centre, x]);
    }
    if let Some(x) = reply {
        let ring = match rules.opening {
            Opening::LongPro => 4,
            _ => 3,
        };
        let points: Vec<Point> = Game::new(*rules)
            .points()
            .filter(|&p| p.distance(centre) == ring)
            .collect();
        for y in points {
            push(&[centre, x, y]);
        }
    }
    out
}

#[cfg(test)]
mod tests;
