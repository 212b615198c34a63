//! The static evaluation of a position.

use super::{Search, Style, Tactics, WIN};
use crate::engine::board::{Board, Sums, weigh};
use crate::engine::patterns::Threat;

pub(super) fn capture_value(n: u16, goal: u16) -> i32 {
    let n = i64::from(n);
    let mut v = 40 * n;
    if goal > 0 {
        // In i64: with a goal of 100 stones the cube alone passes i32.
        let g = i64::from(goal);
        let k = n.min(g);
        v += 4000 * k * k * k / (g * g * g);
    }
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// The evaluation's terms other than the shapes of the empty points and the captures, from
/// `me`'s side: the windows (the mover's weighed a tenth more), and the tempo: the side to
/// move plays its best threat first, unless the other side can make a four first. The offline
/// fits (`crate::engine::tuning`) hold these while they weigh the shapes.
pub(crate) fn line_terms(b: &Board, me: u8) -> i32 {
    windows(&b.sums(), me, 100) + tempo(b, me)
}

/// The windows of a position with these sums, for `me` to move (the mover's weighed a tenth
/// more, the other side's `balance` percent).
fn windows(sums: &Sums, me: u8, balance: u32) -> i32 {
    let (mi, oi) = (usize::from(me - 1), usize::from(2 - me));
    sums.pattern[mi] * 11 / 10 - weigh(sums.pattern[oi], balance)
}

/// The side to move plays its best threat first, unless the other side can make a four
/// first.
fn tempo(b: &Board, me: u8) -> i32 {
    let opp = 3 - me;
    if b.threats_at_least(opp, Threat::Four) > 0 {
        0
    } else if b.threats_at_least(me, Threat::OpenFour) > 0 {
        1_500
    } else if b.threats_at_least(me, Threat::FourThree) > 0 {
        800
    } else if b.threats_at_least(me, Threat::DoubleThree) > 0 {
        200
    } else {
        0
    }
}

/// The part of the evaluation that sums points and windows (no threats, no tempo) of a
/// position with these sums, for `me` to move: the windows and the empty points' values,
/// fitted where the board has a fit, else hand-made (the mover's over 8, the other's over
/// 16); the waiting side's terms weighed `style.balance` percent, the points `style.points`
/// percent.
fn basic(b: &Board, sums: &Sums, me: u8, style: &Style) -> i32 {
    let (mi, oi) = (usize::from(me - 1), usize::from(2 - me));
    let points = b
        .fitted_points(sums, me, style.balance)
        .unwrap_or_else(|| sums.shapes[mi] / 8 - weigh(sums.shapes[oi], style.balance) / 16);
    windows(sums, me, style.balance) + weigh(points, style.points)
}

/// The basic part of the evaluation for `me`, the side to move, blended with that of the
/// position before the last move (seen from `me`'s side) by `parent_pct` percent, as
/// Rapfi's classical evaluation averages the two (read, not copied): a sum of point values
/// swings with whose turn it is, and the blend damps the swing from one ply to the next, so
/// margins and windows that compare depths hold better. Without a parent (the search's
/// first position) or at 0%, the position's own.
pub(crate) fn blended_basic(b: &Board, me: u8, style: &Style) -> i32 {
    let now = basic(b, &b.sums(), me, style);
    match b.parent_sums() {
        Some(before) if style.smooth > 0 => {
            let pct = i64::from(style.smooth.min(100));
            // The parent had the other side to move: its value for that side, negated.
            let then = -basic(b, &before, 3 - me, style);
            i32::try_from((i64::from(now) * (100 - pct) + i64::from(then) * pct) / 100)
                .unwrap_or(now)
        }
        _ => now,
    }
}

impl Search<'_> {
    /// Whether nobody can win on the next move (no four, no capture win in reach, no pending
    /// row), so a leaf can be scored without generating moves.
    pub(super) fn quiet(&self, me: u8) -> bool {
        let b = &self.b;
        let reach = |c: u8| b.capture_win > 0 && b.captured(c) + 6 >= b.capture_win;
        b.fours == [0, 0] && !reach(me) && !reach(3 - me) && b.game.threatened_line().is_none()
    }

    pub(super) fn evaluate(&self, me: u8, tac: &Tactics, ply: i32) -> i32 {
        let opp = 3 - me;
        let b = &self.b;
        if tac.my_wins.is_empty()
            && tac.opp_wins.len() >= 2
            && tac.my_captures.is_empty()
            && b.game.threatened_line().is_none()
        {
            // Two winning points and no capture to break them: lost.
            return -(WIN - ply - 1);
        }
        if tac.my_wins.is_empty()
            && !tac.opp_wins.is_empty()
            && tac.opp_wins_forbidden == tac.opp_wins.len()
            && tac.my_captures.is_empty()
        {
            // Renju: white's five comes on a point black may not play: lost.
            return -(WIN - ply - 1);
        }
        let (mi, oi) = (usize::from(me - 1), usize::from(opp - 1));
        // The windows and the shapes of the empty points (the moves each side has), the
        // tempo, and with a fit the value of the two sides' threats.
        let mut s = blended_basic(b, me, &self.style)
            + weigh(tempo(b, me), self.style.tempo)
            + b.situation(me);
        if b.captures != crate::rules::Captures::None {
            let goal = b.capture_win;
            let (cm, co) = (b.captured(me), b.captured(opp));
            let mut c = capture_value(cm, goal) - capture_value(co, goal);
            let t = b.capture_threats();
            let tm = t[mi].min(6) as u16;
            let to = t[oi].min(6) as u16;
            c += (capture_value(cm + tm, goal) - capture_value(cm, goal)) * 6 / 10;
            c -= (capture_value(co + to, goal) - capture_value(co, goal)) * 3 / 10;
            s += c * self.style.cap_weight / 100;
            if self.style.open_pair != 0 {
                let open = b.open_runs();
                s += (open[oi] - open[mi]) * self.style.open_pair;
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::{game, gomoku, node_budget};
    use std::time::Instant;

    use super::super::{Search, Style, Table, Tactics};
    use crate::engine::Level;
    use crate::engine::board::Board;
    use crate::engine::fitted;
    use crate::engine::patterns::set_index;
    use crate::engine::tuning::{eval_sets, shape_sets};
    use crate::rules::Game;

    /// Quiet freestyle positions (no four on the board) the tests evaluate.
    const QUIET: [&str; 3] = [
        "H8 J9 H9 J10 K8",
        "H8 J9 H9 J10 K8 G8",
        "H8 J9 H10 K10 G7 H9 J7",
    ];

    /// A board of `g`, evaluating with the fit when `fit`.
    fn board(g: &Game, fit: bool) -> Board {
        let mut b = Board::new(g);
        if fit {
            assert!(b.use_fit(fitted::fitted().expect("eval_sets.txt reads")));
        }
        b
    }

    /// `check` run on every quiet position (its moves and game), with and without the fit.
    fn each_quiet(check: impl Fn(&str, &Game, bool)) {
        for moves in QUIET {
            let g = gomoku(moves);
            for fit in [false, true] {
                check(moves, &g, fit);
            }
        }
    }

    fn evaluation(g: &Game, eval_fit: bool) -> i32 {
        weighed(g, eval_fit, "balance", 100)
    }

    /// The evaluation of `g` with the weight `key` (`balance`, `points`, `tempo`) at `pct`.
    fn weighed(g: &Game, eval_fit: bool, key: &str, pct: u32) -> i32 {
        let mut style = Style::for_level(Level::LIVE_MAX);
        style.eval_fit = eval_fit;
        style.set(key, &pct.to_string()).expect("a weight");
        let limits = node_budget(1_000);
        let mut tt = Table::new(10);
        let s = Search::threats(&mut tt, style, g, limits, Instant::now()).expect("in play");
        s.evaluate(g.to_move(), &Tactics::default(), 0)
    }

    /// With `eval_fit` the engine evaluates a quiet position as the fit modelled it: the
    /// windows and the tempo, the mover's points by their values as the side to move and the
    /// other side's by their values as the side waiting, and the value of the situation of
    /// threats (`eval_sets_fit`'s model), whoever is to move; without it, as before.
    #[test]
    fn the_fitted_evaluation_is_the_fit_s_model() {
        let f = fitted::fitted().expect("eval_sets.txt reads");
        let (m, w) = f.weights;
        for moves in QUIET {
            let g = gomoku(moves);
            let e = eval_sets(&g).expect("a quiet position");
            let value = |s: &u16| set_index(shape_sets()[usize::from(*s)]);
            let mine: i32 = e.mine.iter().map(|s| f.mover[value(s)]).sum();
            let theirs: i32 = e.theirs.iter().map(|s| f.waiting[value(s)]).sum();
            assert_eq!(
                evaluation(&g, true),
                e.fixed
                    + (mine * m - theirs * w) / 256
                    + f.masks.as_ref().map_or(0, |t| t[usize::from(e.mask)]),
                "{moves}"
            );
            assert_eq!(evaluation(&g, false), e.today, "{moves}");
        }
    }

    /// `blended_basic` with the strongest level's style blending `pct` percent.
    fn blend(b: &Board, me: u8, pct: u32) -> i32 {
        let mut style = Style::for_level(Level::LIVE_MAX);
        style.smooth = pct;
        super::blended_basic(b, me, &style)
    }

    /// The blend weighs the position before the last move as a fresh board of that position
    /// values it for the side then to move, negated; at 0% or without a last move the
    /// position's own; with and without a fit.
    #[test]
    fn the_blend_weighs_the_position_before_the_last_move() {
        use crate::rules::{Action, Point};
        for with_fit in [false, true] {
            let parent = gomoku("H8 J9 H10 K10 G7 H9");
            let board = |g: &Game| board(g, with_fit);
            let mut b = board(&parent);
            assert_eq!(blend(&b, 1, 50), blend(&b, 1, 0));
            b.apply(Action::Place(Point::parse("J7", 15).expect("point")))
                .expect("legal");
            let me = b.game.to_move();
            assert_eq!(me, 2);
            let now = blend(&b, me, 0);
            let then = blend(&b, me, 100);
            assert_eq!(then, -blend(&board(&parent), 1, 0));
            assert_ne!(now, then, "fit {with_fit}: black's J7 changed the sums");
            assert_eq!(blend(&b, me, 50), (now + then) / 2);
            assert_eq!(
                blend(&b, me, 25),
                (i64::from(now) * 75 + i64::from(then) * 25) as i32 / 100
            );
        }
        setting(("smooth", |s| s.smooth), 0, 50, ["101", "-1"]);
    }

    /// The setting `key` (read by `get`) is `default` at the strongest level, takes `good`
    /// and refuses each of `bad`.
    fn setting(key: (&str, fn(&Style) -> u32), default: u32, good: u32, bad: [&str; 2]) {
        let (key, get) = key;
        let mut style = Style::for_level(Level::LIVE_MAX);
        assert_eq!(get(&style), default, "{key}: the strongest level's weight");
        style.set(key, &good.to_string()).expect(key);
        assert_eq!(get(&style), good, "{key}");
        for b in bad {
            assert!(style.set(key, b).is_err(), "{key}={b}");
        }
    }

    /// `balance` weighs the waiting side's terms alone: the evaluation falls as it grows, by
    /// the same amount per percent (a linear weight, rounding aside), with and without a fit.
    #[test]
    fn balance_weighs_the_waiting_side() {
        let f = fitted::fitted().expect("eval_sets.txt reads");
        each_quiet(|moves, g, fit| {
            let e = |b| weighed(g, fit, "balance", b);
            let (e50, e100, e150, e200) = (e(50), e(100), e(150), e(200));
            assert!(
                e50 > e100 && e100 > e150 && e150 > e200,
                "{moves} fit {fit}"
            );
            assert!(
                ((e100 - e200) - 2 * (e100 - e150)).abs() <= 2,
                "{moves} fit {fit}"
            );
            assert!(
                ((e50 - e100) - (e100 - e150)).abs() <= 2,
                "{moves} fit {fit}"
            );
            // Twice the weight takes the waiting side's terms off once more: its windows
            // and its point values, fitted or hand-made, as the board sums them.
            let (sums, oi) = (board(g, fit).sums(), usize::from(2 - g.to_move()));
            let points = if fit {
                sums.fitted[1][oi] * f.weights.1 / 256
            } else {
                sums.shapes[oi] / 16
            };
            let waiting = sums.pattern[oi] + points;
            assert!((e100 - e200 - waiting).abs() <= 2, "{moves} fit {fit}");
        });
        setting(("balance", |s| s.balance), 80, 130, ["49", "201"]);
        for level in 1..=4 {
            let s = Style::for_level(Level::new(level).expect("level"));
            assert_eq!(s.balance, 100, "level {level} as before");
        }
    }

    /// `points` scales the point values alone, linearly, with and without a fit; `tempo` the
    /// mover's threat bonus alone (an open three to make an open four of: 1,500).
    #[test]
    fn points_and_tempo_weigh_their_terms() {
        each_quiet(|moves, g, fit| {
            let e = |p| weighed(g, fit, "points", p);
            let (e100, e200, e300) = (e(100), e(200), e(300));
            assert_ne!(e100, e200, "{moves} fit {fit}: the points count");
            assert!(
                ((e300 - e200) - (e200 - e100)).abs() <= 2,
                "{moves} fit {fit}"
            );
            assert_eq!(
                weighed(g, fit, "tempo", 0),
                e100,
                "{moves}: no threat to make"
            );
        });
        // Black, to move, makes an open four of H8-H10; white's stones make no four.
        let g = gomoku("H8 A15 H9 C14 H10 E15");
        for fit in [false, true] {
            let t = |p| weighed(&g, fit, "tempo", p);
            assert_eq!(t(200) - t(100), 1_500, "fit {fit}");
            assert_eq!(t(100) - t(0), 1_500, "fit {fit}");
        }
        setting(("points", |s| s.points), 100, 140, ["24", "401"]);
        setting(("tempo", |s| s.tempo), 100, 0, ["-1", "401"]);
    }

    /// The fit is for five in a row without captures: Pente evaluates as before.
    #[test]
    fn capture_games_keep_the_hand_made_values() {
        let g = game("pente", "K10 L11 N10 L12 M9");
        assert_eq!(evaluation(&g, true), evaluation(&g, false));
    }
}
