//! The static evaluation of a position.

use super::{Search, Tactics, WIN};
use crate::engine::board::Board;
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
    let opp = 3 - me;
    let (mi, oi) = (usize::from(me - 1), usize::from(opp - 1));
    let windows = b.pattern[mi] * 11 / 10 - b.pattern[oi];
    let tempo = if b.threats_at_least(opp, Threat::Four) > 0 {
        0
    } else if b.threats_at_least(me, Threat::OpenFour) > 0 {
        1_500
    } else if b.threats_at_least(me, Threat::FourThree) > 0 {
        800
    } else if b.threats_at_least(me, Threat::DoubleThree) > 0 {
        200
    } else {
        0
    };
    windows + tempo
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
        // The shapes of the empty points (the moves each side has) beside the windows and the
        // tempo.
        let shapes = match b.fit_waiting {
            Some(w) => (b.shape_sum[mi] * 32 - b.shape_sum[oi] * w) / 256,
            None => b.shape_sum[mi] / 8 - b.shape_sum[oi] / 16,
        };
        let mut s = line_terms(b, me) + shapes;
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
