//! Line shapes: what one more stone at an empty point makes along each of its four lines
//! (five, open four, four, open three, three, open two, two), and what the four lines make
//! together at that point (a win, an unstoppable four, four-three, double three...).
//!
//! A shape depends only on the five cells on each side of the point along the line (own,
//! empty, or blocked by the other colour or the edge), so every shape is looked up in a table
//! of the 3^10 neighbourhoods. The tables are built once per kind of line (its length and
//! whether an overline wins) by induction on the number of own stones: a point makes a four
//! when exactly one more own stone on the line makes a five through it, an open four when two
//! do, a three when one more stone makes a four, an open three when one more makes an open
//! four, and so on. The board keeps every point's shapes up to date as stones come and go
//! (captures too), see `Board`.

use std::sync::OnceLock;

/// No shape worth naming.
pub(crate) const NONE: u8 = 0;
/// A two that can only become a (closed) three.
pub(crate) const TWO: u8 = 1;
/// A two that can become an open three.
pub(crate) const OPEN_TWO: u8 = 2;
/// A three that can only become a (closed) four.
pub(crate) const THREE: u8 = 3;
/// An open three: one more stone makes an open four.
pub(crate) const OPEN_THREE: u8 = 4;
/// A four: one point left to make five.
pub(crate) const FOUR: u8 = 5;
/// An open four: two points make five.
pub(crate) const OPEN_FOUR: u8 = 6;
/// A winning row (exactly the line's length, or longer when overlines win).
pub(crate) const FIVE: u8 = 7;

/// Cells read on each side of the point.
pub(crate) const HALF: usize = 5;
/// Neighbourhoods of a point on one line: 3 states for each of the 10 cells.
const STATES: usize = 59_049;

/// A neighbour's state in a table index.
pub(crate) const OWN: usize = 1;
/// A neighbour's state in a table index: the other colour or the edge.
pub(crate) const BLOCKED: usize = 2;

/// Powers of three, one per neighbour: offsets -5..-1 then 1..5.
pub(crate) const POW3: [usize; 10] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];

/// The shape table of one kind of line: the shape by neighbourhood index.
pub(crate) type ShapeTable = [u8; STATES];

/// How many kinds of line the tables by neighbourhood are built for (see [`line_kind`]).
pub(crate) const LINE_KINDS: usize = 4;

/// The kind of a line of `line` stones (4 or 5; `exact`: a longer row does not win), the
/// index of its tables by neighbourhood (shapes here, codes in `lines.rs`), and the stones of
/// its winning row.
pub(crate) fn line_kind(line: u8, exact: bool) -> (usize, usize) {
    let stones = if line >= 5 { 5 } else { 4 };
    (usize::from(line >= 5) * 2 + usize::from(exact), stones)
}

/// The table for lines of `line` stones (4 or 5); `exact`: a longer row does not win.
pub(crate) fn shape_table(line: u8, exact: bool) -> &'static ShapeTable {
    static TABLES: [OnceLock<Box<ShapeTable>>; LINE_KINDS] = [const { OnceLock::new() }; 4];
    let (k, stones) = line_kind(line, exact);
    TABLES[k].get_or_init(|| build(stones, exact))
}

/// The neighbour of position `p` (0..10) as an offset from the point.
fn offset(p: usize) -> isize {
    if p < HALF {
        p as isize - HALF as isize
    } else {
        p as isize - HALF as isize + 1
    }
}

fn digit(s: usize, p: usize) -> usize {
    s / POW3[p] % 3
}

/// Whether the own run through the point (an own stone there) wins.
fn five_through_centre(s: usize, line: usize, exact: bool) -> bool {
    let mut len = 1;
    // Left: positions 4, 3, ...; right: positions 5, 6, ...
    for p in (0..HALF).rev() {
        if digit(s, p) != OWN {
            break;
        }
        len += 1;
    }
    for p in HALF..2 * HALF {
        if digit(s, p) != OWN {
            break;
        }
        len += 1;
    }
    len == line || (len > line && !exact)
}

fn build(line: usize, exact: bool) -> Box<ShapeTable> {
    let mut table: Box<ShapeTable> = vec![NONE; STATES]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the table has STATES entries"));
    let mut order: Vec<(u8, usize)> = (0..STATES)
        .map(|s| {
            let own = (0..10).filter(|&p| digit(s, p) == OWN).count() as u8;
            (own, s)
        })
        .collect();
    // Most own stones first: a shape is read from the shapes with one stone more.
    order.sort_unstable_by_key(|o| std::cmp::Reverse(o.0));
    for &(_, s) in &order {
        if five_through_centre(s, line, exact) {
            table[s] = FIVE;
            continue;
        }
        let mut fives = 0;
        let mut best = NONE;
        for p in 0..10 {
            // Only cells that could share a row with the point matter for the smaller shapes.
            if digit(s, p) != 0 || offset(p).unsigned_abs() >= line {
                continue;
            }
            let next = table[s + OWN * POW3[p]];
            if next == FIVE {
                fives += 1;
            }
            let down = match next {
                OPEN_FOUR => OPEN_THREE,
                FOUR => THREE,
                OPEN_THREE => OPEN_TWO,
                THREE => TWO,
                _ => NONE,
            };
            best = best.max(down);
        }
        table[s] = match fives {
            0 => best,
            1 => FOUR,
            _ => OPEN_FOUR,
        };
    }
    table
}

/// What the four lines of a point make together, for one colour: the strongest threat first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub(crate) enum Threat {
    /// Nothing forcing.
    Quiet = 0,
    /// A lone open three.
    Three = 1,
    /// A lone four.
    Four = 2,
    /// Two open threes.
    DoubleThree = 3,
    /// A four and an open three.
    FourThree = 4,
    /// An open four or two fours: wins unless the other side wins first.
    OpenFour = 5,
    /// A winning row now.
    Five = 6,
}

/// Number of [`Threat`] kinds.
pub(crate) const THREATS: usize = 7;

/// The value of one line's shape for the evaluation and the ordering.
const SHAPE_VALUE: [i32; 8] = [0, 3, 10, 12, 45, 50, 400, 10_000];

/// A point's combined threat and value by [`set_index`] of its four shapes.
pub(crate) type CombinedTable = [(Threat, i32)];

/// [`combine`] of every set of four shapes, by [`set_index`] (`renju_black`: as
/// [`combine_renju_black`]).
pub(crate) fn combined_table(renju_black: bool) -> &'static CombinedTable {
    static TABLES: [OnceLock<Vec<(Threat, i32)>>; 2] = [OnceLock::new(), OnceLock::new()];
    if renju_black {
        TABLES[1].get_or_init(|| every_set_of_four(combine_renju_black))
    } else {
        TABLES[0].get_or_init(|| every_set_of_four(combine))
    }
}

/// [`combine`] through a table of every set of four shapes.
#[cfg(test)]
pub(crate) fn combined(shapes: [u8; 4]) -> (Threat, i32) {
    combined_table(false)[set_index(shapes)]
}

/// [`combine_renju_black`] through a table of every set of four shapes.
#[cfg(test)]
pub(crate) fn combined_renju_black(shapes: [u8; 4]) -> (Threat, i32) {
    combined_table(true)[set_index(shapes)]
}

/// `judge` of every set of four shapes (three bits each), indexed by [`set_index`].
fn every_set_of_four(judge: fn([u8; 4]) -> (Threat, i32)) -> Vec<(Threat, i32)> {
    (0..4096usize)
        .map(|k| judge([0, 1, 2, 3].map(|a| (k >> (3 * a) & 7) as u8)))
        .collect()
}

/// The index of a set of four shapes in the tables of [`every_set_of_four`].
pub(crate) fn set_index(shapes: [u8; 4]) -> usize {
    usize::from(shapes[0])
        | usize::from(shapes[1]) << 3
        | usize::from(shapes[2]) << 6
        | usize::from(shapes[3]) << 9
}

/// As [`combine`] for black in Renju, where a point that makes two fours or two open threes
/// (and no five) is forbidden: no threat and no value. Such a point is a hole in black's
/// shape, not a strength, so the evaluation stops counting it for black and white's
/// ordering stops defending it. (Renju's recursive three can make a double three legal; the
/// rules core decides what may be played, this only judges shapes.)
pub(crate) fn combine_renju_black(shapes: [u8; 4]) -> (Threat, i32) {
    let mut n = [0u8; 8];
    for s in shapes {
        n[usize::from(s)] += 1;
    }
    let fours = n[usize::from(FOUR)] + n[usize::from(OPEN_FOUR)];
    let threes = n[usize::from(OPEN_THREE)];
    let five = n[usize::from(FIVE)] > 0;
    if !five && (fours >= 2 || (fours == 0 && threes >= 2)) {
        return (Threat::Quiet, 0);
    }
    combine(shapes)
}

/// A point's combined threat and value from its four shapes.
pub(crate) fn combine(shapes: [u8; 4]) -> (Threat, i32) {
    let mut n = [0u8; 8];
    let mut value = 0;
    for s in shapes {
        n[usize::from(s)] += 1;
        value += SHAPE_VALUE[usize::from(s)];
    }
    let fours = n[usize::from(FOUR)];
    let threes = n[usize::from(OPEN_THREE)];
    let threat = if n[usize::from(FIVE)] > 0 {
        Threat::Five
    } else if n[usize::from(OPEN_FOUR)] > 0 || fours >= 2 {
        value += 1_000;
        Threat::OpenFour
    } else if fours == 1 && threes > 0 {
        value += 800;
        Threat::FourThree
    } else if threes >= 2 {
        value += 300;
        Threat::DoubleThree
    } else if fours == 1 {
        Threat::Four
    } else if threes == 1 {
        Threat::Three
    } else {
        // Twos that cross make the next threes.
        let twos = n[usize::from(OPEN_TWO)];
        if twos >= 2 {
            value += 20 * i32::from(twos - 1);
        }
        Threat::Quiet
    };
    (threat, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table index of a line written around the point `*`: `x` own, `o` blocked, `.` empty;
    /// cells beyond the text are blocked.
    fn index(text: &str) -> usize {
        let centre = text.find('*').expect("a centre");
        let bytes = text.as_bytes();
        let mut s = 0;
        for (p, pow) in POW3.iter().enumerate() {
            let at = centre as isize + offset(p);
            let c = if at < 0 {
                b'o'
            } else {
                bytes.get(at as usize).copied().unwrap_or(b'o')
            };
            s += pow
                * match c {
                    b'x' => OWN,
                    b'.' => 0,
                    _ => BLOCKED,
                };
        }
        s
    }

    fn shape(text: &str, line: u8, exact: bool) -> u8 {
        shape_table(line, exact)[index(text)]
    }

    #[test]
    fn shapes_of_lines_of_five() {
        let cases = [
            ("..xx*xx..", FIVE),
            ("...*xxx...", OPEN_FOUR),
            ("o*xxx....", FOUR),
            ("..x*.xx..", FOUR),
            ("....*xx....", OPEN_THREE),
            ("...x.*x....", OPEN_THREE),
            ("o*xx.....", THREE),
            ("...*x.....", OPEN_TWO),
            ("...*.x....", OPEN_TWO),
            ("o*x......", TWO),
            ("....*.....", NONE),
            ("o*xx.o", NONE), // no room for five
            ("ox*xxo", NONE),
        ];
        for (text, want) in cases {
            assert_eq!(shape(text, 5, false), want, "{text}");
        }
    }

    #[test]
    fn overlines_win_only_where_the_rules_say() {
        assert_eq!(shape("..xxx*xx..", 5, false), FIVE);
        assert_eq!(shape("..xxx*xx..", 5, true), NONE);
        // An exact-five player's four next to an own stone: only one end makes five.
        assert_eq!(shape("...x.*xxx...", 5, false), OPEN_FOUR);
        assert_eq!(shape("..x.*xxx...", 5, true), FOUR);
        assert_eq!(shape("..xxxx*...", 4, true), NONE);
        assert_eq!(shape("..xxxx*...", 4, false), FIVE);
        assert_eq!(shape("...xx*...", 4, true), OPEN_FOUR);
        assert_eq!(shape("...x*x...", 4, true), OPEN_FOUR);
    }

    #[test]
    fn combinations_rank_the_threats() {
        assert_eq!(combine([FOUR, OPEN_THREE, NONE, NONE]).0, Threat::FourThree);
        assert_eq!(combine([FOUR, FOUR, NONE, NONE]).0, Threat::OpenFour);
        assert_eq!(
            combine([OPEN_THREE, OPEN_THREE, TWO, NONE]).0,
            Threat::DoubleThree
        );
        assert_eq!(combine([FIVE, NONE, NONE, NONE]).0, Threat::Five);
        for shapes in [[FOUR, OPEN_THREE, TWO, NONE], [NONE, OPEN_TWO, FIVE, THREE]] {
            assert_eq!(combined(shapes), combine(shapes));
        }
        assert_eq!(combine([OPEN_TWO, NONE, NONE, NONE]).0, Threat::Quiet);
        assert!(combine([FOUR, OPEN_THREE, NONE, NONE]).1 > combine([FOUR, NONE, NONE, NONE]).1);
    }

    #[test]
    fn black_s_forbidden_shapes_in_renju_are_holes() {
        // Double four (also an open four with a four) and double three: nothing for black.
        for shapes in [
            [FOUR, FOUR, NONE, NONE],
            [OPEN_FOUR, FOUR, NONE, NONE],
            [OPEN_THREE, OPEN_THREE, TWO, NONE],
            [OPEN_THREE, OPEN_THREE, OPEN_THREE, NONE],
        ] {
            assert_eq!(
                combine_renju_black(shapes),
                (Threat::Quiet, 0),
                "{shapes:?}"
            );
            assert_eq!(combined_renju_black(shapes), (Threat::Quiet, 0));
        }
        // Five wins whatever else the move makes; four-three and a lone open four stay.
        assert_eq!(
            combine_renju_black([FIVE, FOUR, FOUR, NONE]).0,
            Threat::Five
        );
        assert_eq!(
            combine_renju_black([FOUR, OPEN_THREE, NONE, NONE]).0,
            Threat::FourThree
        );
        assert_eq!(
            combine_renju_black([OPEN_FOUR, NONE, NONE, NONE]).0,
            Threat::OpenFour
        );
        for shapes in [
            [FOUR, OPEN_THREE, TWO, NONE],
            [NONE, OPEN_TWO, THREE, THREE],
        ] {
            assert_eq!(combine_renju_black(shapes), combine(shapes));
        }
    }
}
