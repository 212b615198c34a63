//! Resigning (see the module documentation of `service`).

use super::{
    Actor, GameId, GameResult, GameView, Loaded, ResultReason, Service, ServiceError, renamed,
};
use crate::rules::Colours;
use crate::store::{AppendError, NewAction, Owed};

/// The record token of a resignation in the move log.
pub(super) const RESIGN: &str = "resign";

impl Service {
    /// Resigns the caller from a game (at any time); see the module documentation for what
    /// that means with 3-4 players.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchGame`], [`ServiceError::NoActiveGame`],
    /// [`ServiceError::Ambiguous`], [`ServiceError::GameOver`],
    /// [`ServiceError::NotAParticipant`], [`ServiceError::PositionChanged`] (another
    /// process moved at that instant: try again), [`ServiceError::Storage`].
    pub async fn resign(
        &self,
        actor: &Actor,
        game: Option<GameId>,
    ) -> Result<GameView, ServiceError> {
        let id = self.resolve_game(actor, game).await?;
        let slot = self.slot(id);
        let mut cached = slot.lock().await;
        let result = self.resign_locked(&mut cached, id, actor).await;
        self.settle(id, cached);
        result
    }

    async fn resign_locked(
        &self,
        cached: &mut Option<Loaded>,
        id: GameId,
        actor: &Actor,
    ) -> Result<GameView, ServiceError> {
        let loaded = self.active_game(cached, id, actor.guild).await?;
        let seat = loaded
            .seat_of(actor.user.id)
            .ok_or(ServiceError::NotAParticipant)?;
        let (seat, rename) = (seat.seat, renamed(seat, actor));
        if loaded
            .game
            .retired()
            .contains(loaded.game.colour_of_seat(seat))
        {
            // Out on time already: the game goes on without them.
            return Err(ServiceError::GameOver);
        }
        let rules = loaded.game.rules();
        let colour = loaded.game.colour_of_seat(seat);
        let side = [Some(colour), rules.teammate(colour)];
        let mut winners = Colours::EMPTY;
        let out = loaded.game.retired();
        for c in (1..=rules.players).filter(|c| !side.contains(&Some(*c)) && !out.contains(*c)) {
            winners.insert(c);
        }
        let new = NewAction {
            game: id,
            ply: loaded.meta.ply + 1,
            seat,
            token: RESIGN.to_string(),
            at: self.now(),
            to_act: None,
            deadline: None,
            finished: Some(GameResult {
                winners,
                reason: ResultReason::Resignation { seat },
            }),
            rename,
            owed: Owed::board_for(actor.owes_posts && self.outbox_on(), actor.reply.clone()),
            computer: loaded.meta.against_computer,
        };
        match self.store.append_action(&new).await {
            Ok(()) => {}
            Err(AppendError::Conflict) => {
                // Resigning does not depend on the position: only the game having ended
                // in the meantime stops it, and the caller may simply resign again.
                return Err(match self.refusal_after_conflict(cached, id, actor).await {
                    ServiceError::NotYourTurn => ServiceError::PositionChanged,
                    other => other,
                });
            }
            Err(AppendError::Storage(s)) => return Err(s.into()),
        }
        Self::committed(loaded, &new);
        Ok(loaded.view())
    }
}
