//! An evaluation by sets of line shapes fitted to a stronger engine's judgement
//! (`eval_sets.txt`, written by the `eval_sets_fit` example in its `shared` mode): one value
//! per set of four line shapes, for both colours, which replaces the hand-made point value in
//! the board's shape sums, and the weight of the waiting side's sum. The threats stay the
//! hand-made table's, and so does the move ordering. Read when a style asks for it
//! (`Style::eval_fit`); Renju keeps the hand-made values.

use std::sync::OnceLock;

use super::ordering::{SHAPE_SETS, shape_set};
use super::patterns::{self, CombinedTable, Threat};

/// The fitted values as the board uses them.
pub(crate) struct Fitted {
    /// What each set of four shapes (by `patterns::set_index`) makes: the hand-made threat,
    /// the fitted value.
    pub(crate) table: Vec<(Threat, i32)>,
    /// The waiting side's shape sum is weighed this many 256ths (the mover's: 32, an eighth).
    pub(crate) waiting: i32,
}

/// Reads `eval_sets.txt`'s text: a `waiting N` line and `A B C D VALUE` lines (shapes 0-7 in
/// any order); `#` starts a comment. Sets not listed keep their hand-made value.
pub(crate) fn read(text: &str) -> Result<Fitted, String> {
    let mut values: Vec<Option<i32>> = vec![None; SHAPE_SETS];
    let mut waiting = None;
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = || format!("line {}: `{line}`", n + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        if let ["waiting", w] = words.as_slice() {
            waiting = Some(w.parse::<i32>().map_err(|_| bad())?);
            continue;
        }
        let [a, b, c, d, v] = words.as_slice() else {
            return Err(bad());
        };
        let mut shapes = [0u8; 4];
        for (s, w) in shapes.iter_mut().zip([a, b, c, d]) {
            *s = w.parse().ok().filter(|&x: &u8| x < 8).ok_or_else(bad)?;
        }
        let v: i32 = v.parse().map_err(|_| bad())?;
        values[usize::from(shape_set(shapes))] = Some(v);
    }
    let waiting = waiting.ok_or("no `waiting` line")?;
    let hand = patterns::combined_table(false);
    let table = (0..4096usize)
        .map(|k| {
            let shapes = [0, 1, 2, 3].map(|a| (k >> (3 * a) & 7) as u8);
            let (threat, v) = hand[k];
            (threat, values[usize::from(shape_set(shapes))].unwrap_or(v))
        })
        .collect();
    Ok(Fitted { table, waiting })
}

/// The checked-in fit; `None` if it does not read (a test reads it whole).
pub(crate) fn fitted() -> Option<&'static Fitted> {
    static FIT: OnceLock<Option<Fitted>> = OnceLock::new();
    FIT.get_or_init(|| read(include_str!("eval_sets.txt")).ok())
        .as_ref()
}

/// The fitted table as the board takes it.
pub(crate) fn table(f: &'static Fitted) -> &'static CombinedTable {
    &f.table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checked_in_fit_reads_whole() {
        let f = read(include_str!("eval_sets.txt")).expect("eval_sets.txt reads");
        assert!(f.waiting > 0);
        assert_eq!(f.table.len(), 4096);
    }

    #[test]
    fn listed_sets_replace_the_hand_values_in_every_order_and_threats_stay() {
        let f = read("waiting 20\n0 0 2 4 777\n").expect("reads");
        let hand = patterns::combined_table(false);
        for shapes in [[0, 0, 2, 4], [4, 2, 0, 0], [0, 4, 0, 2]] {
            let k = patterns::set_index(shapes);
            assert_eq!(f.table[k], (hand[k].0, 777));
        }
        let other = patterns::set_index([0, 0, 2, 2]);
        assert_eq!(f.table[other], hand[other]);
        assert_eq!(f.waiting, 20);
    }

    #[test]
    fn bad_lines_are_refused() {
        assert!(read("0 0 2 4 777\n").is_err(), "no waiting line");
        assert!(read("waiting 20\n0 0 2 8 777\n").is_err(), "shape 8");
        assert!(read("waiting 20\n0 0 2 777\n").is_err(), "three shapes");
        assert!(read("waiting x\n").is_err());
    }
}
