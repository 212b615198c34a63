//! The table's score as a better guess than the static evaluation (`Style::tt_eval`).
//!
//! A free node the transposition table knows from a shallower search cannot take its score
//! as the result (too shallow), but that score, read in the direction its bound allows, is a
//! better estimate of the node than the static evaluation: Stockfish and Rapfi use it in
//! place of the evaluation for their pruning decisions (reverse futility, razoring, the
//! likely fail-high), while "improving" keeps comparing static evaluations.

use crate::engine::tt::Bound;

use super::WIN_MIN;

/// A node's trend (its static evaluation and whether it is improving, see `improving.rs`)
/// with the evaluation replaced by the table's score `hint` (score and bound, already taken
/// back to this ply) where the bound says the true value lies beyond the evaluation on that
/// side: a lower bound above it, an upper bound below it, or an exact score. Unchanged when
/// `on` is false, there is no trend or hint, or either is a won or lost score.
pub(super) fn refine(
    on: bool,
    trend: Option<(i32, bool)>,
    hint: Option<(i32, Bound)>,
) -> Option<(i32, bool)> {
    let (Some((eval, improving)), Some((score, bound))) = (trend, hint) else {
        return trend;
    };
    if !on || eval.abs() >= WIN_MIN || score.abs() >= WIN_MIN {
        return trend;
    }
    let better = match bound {
        Bound::Exact => true,
        Bound::Lower => score > eval,
        Bound::Upper => score < eval,
    };
    Some((if better { score } else { eval }, improving))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_bound_replaces_the_evaluation_only_on_its_own_side() {
        let t = Some((100, true));
        assert_eq!(
            refine(true, t, Some((150, Bound::Lower))),
            Some((150, true))
        );
        assert_eq!(refine(true, t, Some((50, Bound::Lower))), t);
        assert_eq!(refine(true, t, Some((50, Bound::Upper))), Some((50, true)));
        assert_eq!(refine(true, t, Some((150, Bound::Upper))), t);
        assert_eq!(
            refine(true, t, Some((-20, Bound::Exact))),
            Some((-20, true))
        );
        // Whether the node improves is the static evaluations' business.
        assert_eq!(
            refine(true, Some((100, false)), Some((300, Bound::Exact))),
            Some((300, false))
        );
    }

    #[test]
    fn off_without_a_hint_or_near_a_win_nothing_changes() {
        let t = Some((100, true));
        assert_eq!(refine(false, t, Some((150, Bound::Exact))), t);
        assert_eq!(refine(true, t, None), t);
        assert_eq!(refine(true, None, Some((150, Bound::Exact))), None);
        assert_eq!(refine(true, t, Some((WIN_MIN, Bound::Lower))), t);
        assert_eq!(
            refine(true, Some((-WIN_MIN, false)), Some((0, Bound::Exact))),
            Some((-WIN_MIN, false))
        );
    }

    proptest! {
        /// The refined evaluation is the evaluation or the table's score, never anything else.
        #[test]
        fn the_result_is_one_of_the_two(eval in -5000i32..5000, score in -5000i32..5000, b in 0u8..3) {
            let bound = [Bound::Exact, Bound::Lower, Bound::Upper][usize::from(b)];
            let (r, _) = refine(true, Some((eval, true)), Some((score, bound))).expect("trend");
            prop_assert!(r == eval || r == score);
        }
    }
}
