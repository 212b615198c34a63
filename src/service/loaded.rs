//! A game held in memory, and the per-game lock and cache entry that holds it.

use super::resign::RESIGN;
use super::{
    Actor, GameId, GameResult, GameStatus, GameView, GuildId, ResultReason, SeatView, Service,
    ServiceError, StorageError, StorageErrorKind, Timestamp, UserId, UserInfo, clocks, offers,
};
use crate::rules::{Action, Colours, Game, Status};
use crate::store::{GameMeta, NewAction, Owed, SeatRow, StoredGame};
use std::sync::Arc;

/// A game held in memory: its row, its seats and the position rebuilt from its log.
#[derive(Debug)]
pub(super) struct Loaded {
    pub(super) meta: GameMeta,
    pub(super) seats: Vec<SeatRow>,
    pub(super) game: Game,
}

impl Loaded {
    pub(super) fn rebuild(stored: StoredGame) -> Result<Loaded, StorageError> {
        let StoredGame {
            meta,
            seats,
            actions,
        } = stored;
        let corrupt = |detail: String| StorageError {
            kind: StorageErrorKind::Corrupt,
            detail: format!("game {}: {detail}", meta.id),
        };
        let mut game = Game::new(meta.rules);
        for (i, row) in actions.iter().enumerate() {
            if usize::try_from(row.ply).ok() != Some(i + 1) {
                return Err(corrupt(format!(
                    "ply {} found where {} was due",
                    row.ply,
                    i + 1
                )));
            }
            if row.token == RESIGN || row.token == offers::DRAW || row.token == clocks::TIMEOUT {
                if i + 1 != actions.len() {
                    return Err(corrupt(format!(
                        "a move follows the resignation at ply {}",
                        row.ply
                    )));
                }
                continue;
            }
            // A take-back: the rules core restores the exact earlier position.
            if let Some(n) = offers::undo_count(&row.token) {
                if n == 0 || n > game.record().len() {
                    return Err(corrupt(format!("ply {}: cannot take back {n}", row.ply)));
                }
                for _ in 0..n {
                    game.undo();
                }
                continue;
            }
            if game.seat_to_act() != Some(row.seat) {
                return Err(corrupt(format!(
                    "seat {} acted out of turn at ply {}",
                    row.seat, row.ply
                )));
            }
            let action = Action::parse(&row.token, game.size())
                .map_err(|e| corrupt(format!("ply {}: {e}", row.ply)))?;
            game.apply(action)
                .map_err(|e| corrupt(format!("ply {} {}: {e}", row.ply, row.token)))?;
        }
        if usize::try_from(meta.ply).ok() != Some(actions.len()) {
            return Err(corrupt(format!(
                "the row says {} actions, the log holds {}",
                meta.ply,
                actions.len()
            )));
        }
        Ok(Loaded { meta, seats, game })
    }

    /// The move-log entry of `action`, which `seat` has just applied to this game's position
    /// with the outcome `status`: the next ply, the seat to act now, and the next deadline
    /// unless the action ended the game. A played action and a retirement on time are
    /// appended alike; only what they rename and owe differs.
    pub(super) fn entry_for_applied(
        &self,
        seat: u8,
        action: Action,
        status: Status,
        at: Timestamp,
        rename: Option<(GuildId, UserInfo)>,
        owed: Owed,
    ) -> NewAction {
        let finished = result_of(status);
        NewAction {
            game: self.meta.id,
            ply: self.meta.ply + 1,
            seat,
            token: action.to_string(),
            at,
            to_act: self.game.seat_to_act(),
            deadline: match finished {
                Some(_) => None,
                None => self.meta.time.deadline_after(at),
            },
            finished,
            rename,
            owed,
            computer: self.meta.against_computer,
        }
    }

    pub(super) fn seat_of(&self, user: UserId) -> Option<&SeatRow> {
        self.seats.iter().find(|s| s.user == user)
    }

    pub(super) fn view(&self) -> GameView {
        GameView {
            id: self.meta.id,
            guild: self.meta.guild,
            channel: self.meta.channel,
            thread: self.meta.thread,
            board_message: self.meta.board_message,
            challenge: self.meta.challenge,
            game: self.game.clone(),
            seats: self
                .seats
                .iter()
                .map(|s| SeatView {
                    seat: s.seat,
                    user: s.user,
                    name: display_name(s),
                    colour: self.game.colour_of_seat(s.seat),
                })
                .collect(),
            time: self.meta.time,
            deadline: crate::store::shown_deadline(&self.meta, &self.seats),
            rated: self.meta.rated,
            against_computer: self.meta.against_computer,
            status: self.meta.status,
            ply: self.meta.ply,
            created_at: self.meta.created_at,
            updated_at: self.meta.updated_at,
        }
    }
}

pub(super) fn display_name(s: &SeatRow) -> String {
    s.name.clone().unwrap_or_else(|| s.user.to_string())
}

pub(super) fn result_of(status: Status) -> Option<GameResult> {
    match status {
        Status::Ongoing => None,
        Status::Won { winners, reason } => Some(GameResult {
            winners,
            reason: reason.into(),
        }),
        Status::Draw => Some(GameResult {
            winners: Colours::EMPTY,
            reason: ResultReason::BoardFull,
        }),
    }
}

pub(super) type Slot = Arc<tokio::sync::Mutex<Option<Loaded>>>;

impl Service {
    pub(super) fn slot(&self, id: GameId) -> Slot {
        // A poisoned map only means another thread panicked while inserting; the map
        // itself is still sound, so keep using it.
        let mut slots = self.slots.lock().unwrap_or_else(|p| p.into_inner());
        slots.entry(id).or_default().clone()
    }

    fn drop_slot(&self, id: GameId) {
        let mut slots = self.slots.lock().unwrap_or_else(|p| p.into_inner());
        slots.remove(&id);
    }

    /// Fills an empty cache entry from the database.
    pub(super) async fn ensure_loaded<'a>(
        &self,
        cached: &'a mut Option<Loaded>,
        id: GameId,
    ) -> Result<&'a mut Loaded, ServiceError> {
        if cached.is_none() {
            let stored = self
                .store
                .load_game(id)
                .await?
                .ok_or(ServiceError::NoSuchGame)?;
            *cached = Some(Loaded::rebuild(stored)?);
        }
        cached.as_mut().ok_or(ServiceError::NoSuchGame)
    }

    /// Drops a cached game whose ply no longer matches the database (another process
    /// acted): `true` when it was dropped.
    pub(super) async fn refresh(
        &self,
        cached: &mut Option<Loaded>,
        id: GameId,
    ) -> Result<bool, ServiceError> {
        if let Some(loaded) = cached.as_ref()
            && self.store.game_ply(id).await? != Some(loaded.meta.ply)
        {
            *cached = None;
            return Ok(true);
        }
        Ok(false)
    }

    /// Why an action met a conflict in the move log (another process or task acted on the
    /// game first): the game is reloaded and the action checked again against the position
    /// now stored. It is never played on that position, which its author has not seen:
    /// the answer is the game being over, the turn having passed, or else the position
    /// having changed.
    pub(super) async fn refusal_after_conflict(
        &self,
        cached: &mut Option<Loaded>,
        id: GameId,
        actor: &Actor,
    ) -> ServiceError {
        *cached = None;
        match self.active_game(cached, id, actor.guild).await {
            Err(e @ (ServiceError::GameOver | ServiceError::NoSuchGame)) => e,
            // The reload failed: the next action loads the game again.
            Err(_) => ServiceError::PositionChanged,
            Ok(loaded) => match loaded.seat_of(actor.user.id).map(|s| s.seat) {
                Some(seat) if loaded.game.seat_to_act() != Some(seat) => ServiceError::NotYourTurn,
                _ => ServiceError::PositionChanged,
            },
        }
    }

    /// Removes a game's lock and cache entry unless it holds a game still in play, so that
    /// finished games and unknown numbers do not pile up in memory.
    pub(super) fn settle(&self, id: GameId, cached: tokio::sync::MutexGuard<'_, Option<Loaded>>) {
        let keep = matches!(&*cached, Some(l) if l.meta.status == GameStatus::Active);
        drop(cached);
        if !keep {
            self.drop_slot(id);
        }
    }

    /// Loads a game of the actor's guild that is still in play.
    pub(super) async fn active_game<'a>(
        &self,
        cached: &'a mut Option<Loaded>,
        id: GameId,
        guild: GuildId,
    ) -> Result<&'a mut Loaded, ServiceError> {
        let loaded = self.ensure_loaded(cached, id).await?;
        if loaded.meta.guild != guild {
            return Err(ServiceError::NoSuchGame);
        }
        if loaded.meta.status != GameStatus::Active {
            return Err(ServiceError::GameOver);
        }
        Ok(loaded)
    }

    /// Brings the cached row in line with an action just committed.
    pub(super) fn committed(loaded: &mut Loaded, new: &NewAction) {
        let meta = &mut loaded.meta;
        meta.ply = new.ply;
        meta.to_act = new.to_act;
        meta.deadline = new.deadline;
        meta.updated_at = new.at;
        if let Some(result) = new.finished {
            meta.status = GameStatus::Finished(result);
        }
        if let Some((_, user)) = &new.rename
            && let Some(seat) = loaded.seats.iter_mut().find(|s| s.user == user.id)
        {
            seat.name = Some(user.name.clone());
        }
    }
}
