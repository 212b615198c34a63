//! Board rows the interaction's own answer carried, left to the next group commit of moves to
//! mark sent (`store::outbox_answered`), instead of a round of the poster for each few moves.

use super::{GameId, OutboxKind, OutboxRow, Service};
use crate::store::LeftToCommit;

impl Service {
    /// The interaction's answer (message `message`, 0 for the answer itself) carried the board
    /// after `ply` of `game`, and its row owes nothing more (no direct message to the player
    /// to act): the next group commit marks it sent. Without one within
    /// [`crate::store::ANSWERED_WAIT`], the poster ends it as it would any answered row.
    pub fn outbox_answered(&self, game: GameId, ply: u32, message: u64) {
        if !self.outbox_on() {
            return;
        }
        self.store.outbox_answered_later(game, ply, message);
    }

    /// For the poster: whether `row` was left to the group commit ([`Self::outbox_answered`]);
    /// once it has waited [`crate::store::ANSWERED_WAIT`], it is taken back for the poster,
    /// with the message that carried the board. Only this process's board rows are ever left.
    pub fn outbox_left_to_commit(&self, row: &OutboxRow) -> LeftToCommit {
        if row.inherited || row.kind != OutboxKind::Board {
            return LeftToCommit::No;
        }
        self.store.outbox_left_to_commit(row.game, row.ply)
    }
}
