//! Games in play: which game an action means, looking at it, moves, and where its
//! messages live.

use std::time::Duration;

use super::{
    Actor, ChannelId, GameId, GameView, GuildId, Loaded, MessageId, Played, Service, ServiceError,
    Timestamp, UserInfo,
};
use crate::rules::Action;
use crate::store::{AppendError, Owed, SeatRow};

/// An action, or its text still to be read against the game's board.
#[derive(Clone, Copy, Debug)]
pub(super) enum Input<'a> {
    Action(Action),
    Token(&'a str),
}

impl Service {
    /// Which game an action means: the one named (if it is in this guild), else the
    /// caller's single active game in this channel or thread.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchGame`], [`ServiceError::NoActiveGame`],
    /// [`ServiceError::Ambiguous`], [`ServiceError::Storage`].
    pub async fn resolve_game(
        &self,
        actor: &Actor,
        game: Option<GameId>,
    ) -> Result<GameId, ServiceError> {
        if let Some(id) = game {
            return Ok(id);
        }
        let mine = self
            .store
            .active_games_in_channel(actor.guild, actor.channel, Some(actor.user.id))
            .await?;
        match mine.as_slice() {
            [] => Err(ServiceError::NoActiveGame),
            [one] => Ok(*one),
            _ => Err(ServiceError::Ambiguous(mine)),
        }
    }

    /// The state of a game for anyone to look at: the one named, else the caller's single
    /// active game here, else the single active game of this channel (a game's thread).
    ///
    /// # Errors
    /// [`ServiceError::NoSuchGame`], [`ServiceError::NoActiveGame`],
    /// [`ServiceError::Ambiguous`], [`ServiceError::Storage`].
    pub async fn board(
        &self,
        actor: &Actor,
        game: Option<GameId>,
    ) -> Result<GameView, ServiceError> {
        let id = match self.resolve_game(actor, game).await {
            Err(ServiceError::NoActiveGame) => {
                let here = self
                    .store
                    .active_games_in_channel(actor.guild, actor.channel, None)
                    .await?;
                match here.as_slice() {
                    [] => return Err(ServiceError::NoActiveGame),
                    [one] => *one,
                    _ => return Err(ServiceError::Ambiguous(here)),
                }
            }
            other => other?,
        };
        self.game(actor.guild, id).await
    }

    /// The state of a game of this guild, as committed (a cached position is checked
    /// against the database's ply first, so another process's moves are never hidden).
    ///
    /// # Errors
    /// [`ServiceError::NoSuchGame`], [`ServiceError::Storage`].
    pub async fn game(&self, guild: GuildId, id: GameId) -> Result<GameView, ServiceError> {
        let view = self.view_of(id).await?;
        if view.guild == guild {
            Ok(view)
        } else {
            Err(ServiceError::NoSuchGame)
        }
    }

    pub(super) async fn view_of(&self, id: GameId) -> Result<GameView, ServiceError> {
        let slot = self.slot(id);
        let mut cached = slot.lock().await;
        if let Some(loaded) = cached.as_ref() {
            let ply = self.store.game_ply(id).await?;
            if ply != Some(loaded.meta.ply) {
                *cached = None;
            }
        }
        let result = self.ensure_loaded(&mut cached, id).await.map(|l| l.view());
        self.settle(id, cached);
        result
    }

    /// Plays a stone or a swap choice for the caller, who must be the seat to act.
    /// `expected_ply` is the ply the caller saw (a button's); when given, any other
    /// position is refused.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchGame`], [`ServiceError::NoActiveGame`],
    /// [`ServiceError::Ambiguous`], [`ServiceError::GameOver`],
    /// [`ServiceError::NotAParticipant`], [`ServiceError::NotYourTurn`],
    /// [`ServiceError::PositionChanged`], [`ServiceError::Illegal`],
    /// [`ServiceError::Storage`].
    pub async fn play(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        action: Action,
        expected_ply: Option<u32>,
    ) -> Result<Played, ServiceError> {
        self.play_input(actor, game, Input::Action(action), expected_ply)
            .await
    }

    /// As [`Service::play`], for an action as typed or put into a button: a point (`K10`,
    /// `k10`), `take:1`, `take:2` or `place`, read against the game's board size.
    ///
    /// # Errors
    /// As [`Service::play`], and [`ServiceError::BadPoint`] for text that is not an action
    /// on this board (checked after the turn, so "not your turn" comes first).
    pub async fn play_token(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        token: &str,
        expected_ply: Option<u32>,
    ) -> Result<Played, ServiceError> {
        self.play_input(actor, game, Input::Token(token), expected_ply)
            .await
    }

    async fn play_input(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        input: Input<'_>,
        expected_ply: Option<u32>,
    ) -> Result<Played, ServiceError> {
        let id = self.resolve_game(actor, game).await?;
        let slot = self.slot(id);
        let mut cached = slot.lock().await;
        let mut result = self
            .play_locked(&mut cached, id, actor, input, expected_ply)
            .await;
        // A refusal read from a cached position that another process has moved past is
        // checked again on the stored one (refusals only: an accepted move is guarded by
        // the move log's key, and a conflict there has already reloaded the game).
        if matches!(
            result,
            Err(ServiceError::GameOver
                | ServiceError::NotYourTurn
                | ServiceError::PositionChanged
                | ServiceError::Illegal(_))
        ) && matches!(self.refresh(&mut cached, id).await, Ok(true))
        {
            result = self
                .play_locked(&mut cached, id, actor, input, expected_ply)
                .await;
        }
        self.settle(id, cached);
        result
    }

    async fn play_locked(
        &self,
        cached: &mut Option<Loaded>,
        id: GameId,
        actor: &Actor,
        input: Input<'_>,
        expected_ply: Option<u32>,
    ) -> Result<Played, ServiceError> {
        let loaded = self.active_game(cached, id, actor.guild).await?;
        let seat = loaded
            .seat_of(actor.user.id)
            .ok_or(ServiceError::NotAParticipant)?;
        let (seat, rename) = (seat.seat, renamed(seat, actor));
        match loaded.game.seat_to_act() {
            None => return Err(ServiceError::GameOver),
            Some(s) if s != seat => return Err(ServiceError::NotYourTurn),
            Some(_) => {}
        }
        if expected_ply.is_some_and(|p| p != loaded.meta.ply) {
            return Err(ServiceError::PositionChanged);
        }
        let action = match input {
            Input::Action(a) => a,
            Input::Token(t) => {
                Action::parse(t, loaded.game.size()).map_err(ServiceError::BadPoint)?
            }
        };
        let report = loaded.game.apply(action).map_err(ServiceError::Illegal)?;
        let new = loaded.entry_for_applied(
            seat,
            action,
            report.status,
            self.now(),
            rename,
            Owed::board_for(actor.owes_posts && self.outbox_on(), actor.reply.clone()),
        );
        if let Err(e) = self.store.append_action(&new).await {
            loaded.game.undo();
            return Err(match e {
                AppendError::Conflict => self.refusal_after_conflict(cached, id, actor).await,
                AppendError::Storage(s) => ServiceError::Storage(s),
            });
        }
        Self::committed(loaded, &new);
        Ok(Played {
            view: loaded.view(),
            report,
        })
    }

    /// Records the game's own thread (its home from now on).
    ///
    /// # Errors
    /// [`ServiceError::NoSuchGame`], [`ServiceError::Storage`].
    pub async fn set_game_thread(&self, id: GameId, thread: ChannelId) -> Result<(), ServiceError> {
        let slot = self.slot(id);
        let mut cached = slot.lock().await;
        let found = self.store.set_game_thread(id, thread).await;
        if let (Ok(true), Some(loaded)) = (&found, cached.as_mut()) {
            loaded.meta.thread = Some(thread);
        }
        self.settle(id, cached);
        found?.then_some(()).ok_or(ServiceError::NoSuchGame)
    }

    /// Records the last board message posted for a game (so its buttons can be removed).
    ///
    /// # Errors
    /// [`ServiceError::NoSuchGame`], [`ServiceError::Storage`].
    pub async fn set_board_message(
        &self,
        id: GameId,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<(), ServiceError> {
        let slot = self.slot(id);
        let mut cached = slot.lock().await;
        let found = self.store.set_board_message(id, channel, message).await;
        if let (Ok(true), Some(loaded)) = (&found, cached.as_mut()) {
            loaded.meta.board_message = Some((channel, message));
        }
        self.settle(id, cached);
        found?.then_some(()).ok_or(ServiceError::NoSuchGame)
    }

    /// Claims up to `limit` games whose deadline has passed, for `lease` (a deadline sweep
    /// then acts on them; two sweeps never claim the same game). Returns the games with
    /// their deadlines.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn claim_overdue_games(
        &self,
        lease: Duration,
        limit: u32,
    ) -> Result<Vec<(GameId, Timestamp)>, ServiceError> {
        let now = self.now();
        Ok(self
            .store
            .claim_overdue_games(now, now.plus(lease), limit)
            .await?)
    }
}

/// The actor's current name, when it differs from the one the game knows.
pub(super) fn renamed(seat: &SeatRow, actor: &Actor) -> Option<(GuildId, UserInfo)> {
    (seat.name.as_deref() != Some(actor.user.name.as_str()))
        .then(|| (actor.guild, actor.user.clone()))
}
