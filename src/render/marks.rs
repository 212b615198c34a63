//! Marks drawn on board points: Renju's forbidden points for black (a small red cross on the
//! empty point) and the numbers of the offered fifth moves (on their translucent stones).
//!
//! A marked cell goes through the RGB tile path of `compose` (like a cell crossed by a
//! line): a few cells per picture, so the cost stays that of a handful of tiles.

use crate::rules::{Game, Phase, Point};

use super::paint::{Canvas, Look, RgbBuf};
use super::scene::Scene;
use super::text;
use super::theme::Colours;

/// What is drawn on a point over whatever lies there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// A point black may not play now (Renju): a small cross.
    Forbidden,
    /// An offered fifth move, numbered from 1 in the order of the offer (the order of the
    /// Discord buttons that choose them).
    Number(u8),
}

/// Black's forbidden points when black is to move in a Renju game in normal play (also the
/// placements of the openings), nothing otherwise. `self_capture=forbidden` points are not
/// marked: they are rare and follow from the capture the player can see.
pub(crate) fn forbidden(game: &Game) -> Vec<Point> {
    let renju_black = game.rules().is_renju() && !game.is_over() && game.to_move() == 1;
    if renju_black && game.phase() == Phase::Playing {
        game.forbidden_points()
    } else {
        Vec::new()
    }
}

impl Scene {
    /// Adds the offered fifth moves as translucent black stones with their numbers.
    pub(crate) fn mark_candidates(&mut self, game: &Game) {
        for (k, &p) in game.offered().iter().enumerate() {
            if game.stone_at(p).is_some() {
                continue;
            }
            self.stones.retain(|s| s.0 != p);
            self.stones.push((p, 1, Look::Tentative));
            // At most 10 offers: the number always fits a byte.
            self.marks
                .push((p, Mark::Number(u8::try_from(k + 1).unwrap_or(u8::MAX))));
        }
    }

    /// Adds a cross on each of `points` that holds no stone (nor a tentative one).
    pub(crate) fn mark_forbidden(&mut self, points: &[Point]) {
        for &p in points {
            if self.stones.iter().any(|s| s.0 == p) {
                continue;
            }
            self.marks.push((p, Mark::Forbidden));
        }
    }
}

/// Paints a mark over a cell's tile (the tile's centre is the point).
pub(crate) fn paint(mark: Mark, tile: &mut RgbBuf, colours: &Colours) {
    let s = tile.width() as f32;
    let c = (tile.width() / 2) as f32;
    match mark {
        Mark::Forbidden => {
            // Small enough to leave the grid crossing readable, thick enough for a phone.
            let k = 0.17 * s;
            let w = (0.05 * s).max(1.3);
            let sdf = |x: f32, y: f32| {
                let d1 = super::paint::segment_distance(x, y, (c - k, c - k), (c + k, c + k)).0;
                let d2 = super::paint::segment_distance(x, y, (c - k, c + k), (c + k, c - k)).0;
                d1.min(d2) - w
            };
            let r = k + w + 1.0;
            tile.paint_sdf((c - r, c - r, c + r, c + r), colours.cross, 1.0, sdf);
        }
        Mark::Number(n) => {
            let em = (0.52 * s).clamp(12.0, 26.0);
            let t = text::shape(&n.to_string(), em);
            let baseline = c + text::cap_height(em) / 2.0;
            // The light mark colour of black stones: readable on the translucent black stone.
            text::draw(
                tile,
                &t,
                c - t.width / 2.0,
                baseline,
                colours.stones[0].mark,
            );
        }
    }
}
