//! The undo log: every action can be taken back exactly.

use super::{Action, Game, State, Undo};

impl Game {
    pub(super) fn commit(
        &mut self,
        before: State,
        placed_at: Option<usize>,
        removed_from: usize,
        action: Action,
    ) {
        self.undo.push(Undo {
            state: before,
            placed_at: placed_at.map(|i| i as u16),
            removed_from: removed_from as u32,
        });
        self.record.push(action);
    }

    /// Returns the action taken back, or `None` at the start of the game.
    pub fn undo(&mut self) -> Option<Action> {
        let u = self.undo.pop()?;
        let action = self.record.pop()?;
        while self.removed_log.len() > u.removed_from as usize {
            let (i, colour) = self.removed_log.pop()?;
            self.put(usize::from(i), colour);
        }
        if let Some(i) = u.placed_at {
            self.clear(usize::from(i));
        }
        self.state = u.state;
        Some(action)
    }
}
