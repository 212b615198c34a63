//! An evaluation of the empty points by the set of four line shapes a stone there makes,
//! with a value of its own for the side to move and for the side waiting, fitted offline to
//! a stronger engine's judgement of positions (`eval_sets.txt`, made by the `eval_sets_fit`
//! example). Today's evaluation gives each set one value (its shapes' value), counted an
//! eighth for the mover and a sixteenth for the other side; levels with `Style::eval_sets`
//! use these instead. The board keeps both sums up to date as stones come and go.

use std::sync::OnceLock;

use super::ordering::shape_set;

/// Per [`super::patterns::set_index`] of four shapes: the value (in sixteenths of the
/// evaluation's unit) of such a point for the side to move and for the side waiting.
pub(crate) type SetValues = [[i32; 2]];

/// The values of `eval_sets.txt` (a test checks it reads whole; all 0 if it did not).
pub(crate) fn set_values() -> &'static SetValues {
    static V: OnceLock<Vec<[i32; 2]>> = OnceLock::new();
    V.get_or_init(|| read(include_str!("eval_sets.txt")).unwrap_or_else(|_| vec![[0; 2]; 4096]))
}

/// Reads lines `A B C D MOVER WAITING` (four shapes in any order, values in sixteenths);
/// `#` comments. A set not named is worth 0.
pub(crate) fn read(text: &str) -> Result<Vec<[i32; 2]>, String> {
    let mut by_set = vec![[0i32; 2]; super::ordering::SHAPE_SETS];
    for (k, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = || format!("line {}: `{line}`", k + 1);
        let n: Vec<i32> = line
            .split_whitespace()
            .map(|w| w.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        let [a, b, c, d, mover, waiting] = n[..] else {
            return Err(bad());
        };
        let mut shapes = [0u8; 4];
        for (s, x) in shapes.iter_mut().zip([a, b, c, d]) {
            *s = u8::try_from(x).ok().filter(|s| *s < 8).ok_or_else(bad)?;
        }
        by_set[usize::from(shape_set(shapes))] = [mover, waiting];
    }
    Ok((0..4096usize)
        .map(|k| {
            let shapes = [0, 1, 2, 3].map(|a| (k >> (3 * a) & 7) as u8);
            by_set[usize::from(shape_set(shapes))]
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::patterns::set_index;

    #[test]
    fn the_checked_in_values_read_whole() {
        let v = read(include_str!("eval_sets.txt")).expect("eval_sets.txt reads");
        assert_eq!(v.len(), 4096);
    }

    #[test]
    fn a_set_s_values_apply_to_every_order_of_its_shapes() {
        let v = read("0 0 2 4 96 -16 # a comment\n").expect("reads");
        assert_eq!(v[set_index([4, 2, 0, 0])], [96, -16]);
        assert_eq!(v[set_index([0, 4, 0, 2])], [96, -16]);
        assert_eq!(v[set_index([0, 4, 0, 3])], [0, 0]);
        for bad in ["0 0 2 8 1 1", "0 0 2 1", "a 0 0 0 1 1"] {
            assert!(read(bad).expect_err(bad).starts_with("line 1"));
        }
    }
}
