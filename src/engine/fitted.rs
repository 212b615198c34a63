//! An evaluation by sets of line shapes fitted to a stronger engine's judgement
//! (`eval_sets.txt`, written by the `eval_sets_fit` example): a value per set of four line
//! shapes for the side to move and one for the side waiting (or one for both, from its
//! `shared` mode), and the weights of the two sums. A board that uses a fit keeps these sums
//! beside its hand-made ones, which the threats, the move ordering and the threat searches
//! keep using. Read when a style asks for it (`Style::eval_fit`); Renju keeps the hand-made
//! values.

use std::sync::OnceLock;

use super::data_lines::data_lines;
use super::lines::LINE_CODES;
use super::ordering::{SHAPE_SETS, shape_set};
use super::patterns;

/// The fitted values as the board uses them, by set of four shapes
/// (`patterns::set_index`).
pub(crate) struct Fitted {
    /// Each set's value when its colour is the side to move.
    pub(crate) mover: Vec<i32>,
    /// Each set's value when its colour is the side waiting (the mover's values again for a
    /// fit with one value a set).
    pub(crate) waiting: Vec<i32>,
    /// The weights of the mover's and the waiting side's sums, in 256ths.
    pub(crate) weights: (i32, i32),
    /// The value of each situation of threats, by `Board::threat_mask` (0 when not listed);
    /// `None` when the fit lists none, so the evaluation need not look.
    pub(crate) masks: Option<Vec<i32>>,
    /// The value of each line code (`lines.rs`) on an axis of an empty point, added to the
    /// point's set value, for the side to move and for the side waiting; `None` when the fit
    /// lists none, so the board need not follow the codes.
    pub(crate) lines: Option<[Vec<i32>; 2]>,
    /// Each set's [`SetRecord`], built at first use.
    pub(crate) records: OnceLock<Vec<SetRecord>>,
}

/// What a board with a fit reads of a point's set of four shapes, in one record: its threat
/// and hand-made value (`patterns::combine`) and its fitted values as the side to move and as
/// the side waiting. One read instead of three where a point's shapes change, some thirty
/// million times in a second's search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SetRecord {
    pub(crate) threat: patterns::Threat,
    pub(crate) hand: i32,
    pub(crate) roles: [i32; 2],
}

impl SetRecord {
    /// An occupied point's: no threat, no value.
    pub(crate) const EMPTY: SetRecord = SetRecord {
        threat: patterns::Threat::Quiet,
        hand: 0,
        roles: [0, 0],
    };
}

impl Fitted {
    /// Every set's record, by set index, with the combined table of every rule set a fit is
    /// used in (Renju keeps the hand-made values, so never Renju's black).
    pub(crate) fn records(&self) -> &[SetRecord] {
        self.records.get_or_init(|| {
            let combine = patterns::combined_table(false);
            combine
                .iter()
                .zip(self.mover.iter().zip(&self.waiting))
                .map(|(&(threat, hand), (&mover, &waiting))| SetRecord {
                    threat,
                    hand,
                    roles: [mover, waiting],
                })
                .collect()
        })
    }
}

/// How many situations of threats `Board::threat_mask` tells apart.
pub(crate) const MASKS: usize = 1024;

/// Reads `eval_sets.txt`'s text: the weights (`mover N`, default 32, and `waiting N`, in
/// 256ths), the value of situations of threats (`mask M VALUE`, in the evaluation's units),
/// the value of line codes (`line CODE MOVER WAITING`, in the sets' units),
/// and a set a line, `A B C D VALUE` (one value for both roles) or `A B C D MOVER
/// WAITING` (a value for each), shapes 0-7 in any order; `#` starts a comment. Sets not
/// listed keep their hand-made value (none as the side waiting, with values by role).
pub(crate) fn read(text: &str) -> Result<Fitted, String> {
    let mut values: Vec<Option<i32>> = vec![None; SHAPE_SETS];
    let mut waiting_values: Vec<Option<i32>> = vec![None; SHAPE_SETS];
    let (mut waiting, mut mover) = (None, 32);
    let mut masks = vec![0; MASKS];
    let mut lines = [vec![0; LINE_CODES], vec![0; LINE_CODES]];
    for (n, line) in data_lines(text) {
        let bad = || format!("line {n}: `{line}`");
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["waiting", w] => {
                waiting = Some(w.parse::<i32>().map_err(|_| bad())?);
                continue;
            }
            ["mover", m] => {
                mover = m.parse::<i32>().map_err(|_| bad())?;
                continue;
            }
            ["line", c, m, w] => {
                let c = c.parse::<usize>().ok().filter(|&c| c < LINE_CODES);
                let c = c.ok_or_else(bad)?;
                lines[0][c] = m.parse().map_err(|_| bad())?;
                lines[1][c] = w.parse().map_err(|_| bad())?;
                continue;
            }
            ["mask", m, v] => {
                let m = m.parse::<usize>().ok().filter(|&m| m < MASKS);
                masks[m.ok_or_else(bad)?] = v.parse().map_err(|_| bad())?;
                continue;
            }
            _ => {}
        }
        let (shape_words, numbers) = match words.len() {
            5 | 6 => words.split_at(4),
            _ => return Err(bad()),
        };
        let mut shapes = [0u8; 4];
        for (s, w) in shapes.iter_mut().zip(shape_words) {
            *s = w.parse().ok().filter(|&x: &u8| x < 8).ok_or_else(bad)?;
        }
        let set = usize::from(shape_set(shapes));
        let numbers: Vec<i32> = numbers
            .iter()
            .map(|w| w.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        values[set] = Some(numbers[0]);
        if let Some(&w) = numbers.get(1) {
            waiting_values[set] = Some(w);
        }
    }
    let waiting = waiting.ok_or("no `waiting` line")?;
    let by_role = waiting_values.iter().any(Option::is_some);
    let hand = patterns::combined_table(false);
    // Spread the values by set over every order of the four shapes (the board's index).
    let spread = |value: &dyn Fn(usize, i32) -> i32| -> Vec<i32> {
        (0..4096usize)
            .map(|k| {
                let shapes = [0, 1, 2, 3].map(|a| (k >> (3 * a) & 7) as u8);
                value(usize::from(shape_set(shapes)), hand[k].1)
            })
            .collect()
    };
    let mover_table = spread(&|set, v| values[set].unwrap_or(v));
    let waiting_table = if by_role {
        spread(&|set, _| waiting_values[set].unwrap_or(0))
    } else {
        mover_table.clone()
    };
    Ok(Fitted {
        mover: mover_table,
        waiting: waiting_table,
        weights: (mover, waiting),
        masks: masks.iter().any(|&v| v != 0).then_some(masks),
        lines: lines.iter().flatten().any(|&v| v != 0).then_some(lines),
        records: OnceLock::new(),
    })
}

/// The checked-in fit; `None` if it does not read (a test reads it whole).
pub(crate) fn fitted() -> Option<&'static Fitted> {
    static FIT: OnceLock<Option<Fitted>> = OnceLock::new();
    FIT.get_or_init(|| read(include_str!("eval_sets.txt")).ok())
        .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checked_in_fit_reads_whole() {
        let f = read(include_str!("eval_sets.txt")).expect("eval_sets.txt reads");
        assert!(f.weights.0 > 0 && f.weights.1 > 0);
        assert_eq!(f.mover.len(), 4096);
        assert_eq!(f.waiting.len(), 4096);
        assert_ne!(f.mover, f.waiting, "the checked-in fit is by role");
    }

    #[test]
    fn listed_sets_replace_the_hand_values_in_every_order_for_both_roles() {
        let f = read("waiting 20\n0 0 2 4 777\n").expect("reads");
        let hand = patterns::combined_table(false);
        for shapes in [[0, 0, 2, 4], [4, 2, 0, 0], [0, 4, 0, 2]] {
            let k = patterns::set_index(shapes);
            assert_eq!(f.mover[k], 777);
            assert_eq!(f.waiting[k], 777);
        }
        let other = patterns::set_index([0, 0, 2, 2]);
        assert_eq!(f.mover[other], hand[other].1);
        assert_eq!(f.weights, (32, 20));
        assert_eq!(f.mover, f.waiting, "one value a set");
        assert!(f.lines.is_none(), "no line codes listed");
    }

    #[test]
    fn line_codes_read_by_role_and_bad_ones_are_refused() {
        let f = read("waiting 16\nline 7 12 -3\nline 40 5 6\n").expect("reads");
        let lines = f.lines.expect("line codes listed");
        assert_eq!((lines[0][7], lines[1][7]), (12, -3));
        assert_eq!((lines[0][40], lines[1][40]), (5, 6));
        assert_eq!(lines[0][8], 0);
        assert!(
            read("waiting 16\nline 48 1 1\n").is_err(),
            "code out of range"
        );
        assert!(
            read("waiting 16\nline 3 x 1\n").is_err(),
            "value not a number"
        );
    }

    #[test]
    fn values_by_role_fill_a_waiting_table() {
        let f = read("mover 16\nwaiting 16\n0 0 2 4 777 -5\n").expect("reads");
        assert_eq!(f.weights, (16, 16));
        assert_eq!(f.waiting[patterns::set_index([4, 0, 2, 0])], -5);
        assert_eq!(
            f.waiting[patterns::set_index([0, 0, 2, 2])],
            0,
            "not listed"
        );
        assert_eq!(f.mover[patterns::set_index([0, 0, 4, 2])], 777);
        assert!(f.masks.is_none());
    }

    #[test]
    fn masks_are_read_by_number() {
        let f = read("waiting 16\nmask 3 -40\nmask 1023 9\n").expect("reads");
        let m = f.masks.expect("listed");
        assert_eq!((m[3], m[1023], m[2]), (-40, 9, 0));
        assert_eq!(m.len(), MASKS);
    }

    #[test]
    fn bad_lines_are_refused() {
        assert!(read("0 0 2 4 777\n").is_err(), "no waiting line");
        assert!(read("waiting 20\n0 0 2 8 777\n").is_err(), "shape 8");
        assert!(read("waiting 20\n0 0 2 777\n").is_err(), "three shapes");
        assert!(read("waiting x\n").is_err());
        assert!(read("waiting 1\n0 0 2 4 7 8 9\n").is_err(), "seven numbers");
        assert!(read("waiting 1\nmover y\n").is_err());
        assert!(
            read("waiting 1\nmask 1024 5\n").is_err(),
            "mask out of range"
        );
        assert!(read("waiting 1\nmask 3 x\n").is_err());
        let e = read("waiting 1\n# a comment\n\n0 0 2 4 x\n")
            .err()
            .expect("refused");
        assert!(e.starts_with("line 4:"), "{e}");
    }
}
