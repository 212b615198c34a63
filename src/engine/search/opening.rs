//! Swap and swap2: the opening stones and the colour choice.

use super::*;

impl Search<'_> {
    /// Swap/swap2 placement: a stone near the centre that keeps the position balanced, so the
    /// other seat's colour choice gains little.
    pub(super) fn place_opening_stone(&mut self, rng: &mut StdRng) -> Option<Point> {
        let colour = self.b.to_move();
        let centre = Point::centre(self.b.size);
        let mut options: Vec<(i32, Point)> = Vec::new();
        for &i in &self.b.on_board.clone() {
            let i = usize::from(i);
            let Some(p) = self.b.point(i) else { continue };
            if self.b.cells[i] != EMPTY || p.distance(centre) > 2 {
                continue;
            }
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let diff = self.b.pattern[0] - self.b.pattern[1];
            self.b.undo();
            options.push((diff.abs(), p));
        }
        let _ = colour;
        options.sort_by_key(|o| o.0);
        let k = options.len().min(4);
        if k == 0 {
            return None;
        }
        Some(options[rng.random_range(0..k)].1)
    }

    /// Swap/swap2 colour choice: searches the position for the colour that moves next (or
    /// takes `known`, the opening book's score of it) and takes the colour that comes out
    /// ahead. `place` (swap2) is worth about nothing to the chooser (the other seat gets the
    /// choice back after a balancing pair), so it is chosen only when neither colour is better
    /// than an even game.
    pub(super) fn choose_colour(
        &mut self,
        may_place: bool,
        known: Option<i32>,
        rng: &mut StdRng,
        start: Instant,
        budget: Duration,
    ) -> (Action, i32) {
        let next = self.b.to_move();
        // Look at the position as it will be played: take colour 1 on a scratch copy so the
        // phase is normal play; the colour to move does not depend on who takes what.
        let score = if let Some(s) = known {
            s
        } else if self.b.apply(Action::Take(1)).is_ok() {
            let (_, s, _, _) = self.root(rng, start, budget.mul_f64(0.8));
            self.b.undo();
            s
        } else {
            0
        };
        let take_next = score;
        let take_other = -score;
        const EVEN: i32 = 20;
        if may_place && take_next.max(take_other) < EVEN && take_next.min(take_other) > -EVEN {
            return (Action::PlaceTwo, 0);
        }
        if take_next >= take_other {
            (Action::Take(next), take_next)
        } else {
            (Action::Take(3 - next), take_other)
        }
    }
}
