//! Games against the computer: starting one at once, finding the positions the engine owes a
//! move in, and committing its moves like any player's.
//!
//! The engine's seat is the one whose user is the bot's own user; the game's row keeps the
//! engine's level. Thinking is CPU-bound and synchronous ([`EngineTurn::think`]): the front
//! runs it on a bounded blocking pool, never on the async runtime's threads, and commits the
//! answer with [`Service::play_engine_move`], which goes through the same checks (turn, ply)
//! as a member's move, so a stale answer is refused with [`ServiceError::PositionChanged`].

use std::time::Duration;

use super::{Actor, ChallengeRequest, GameView, Played, Service, ServiceError};
use crate::engine::{Level, player_for_game};
use crate::rules::{Action, Game};
use crate::store::{ChannelId, GameId, GameStatus, GuildId, NewChallenge, UserId, UserInfo};

/// A position where the engine must act.
#[derive(Clone, Debug)]
pub struct EngineTurn {
    /// The game.
    pub id: GameId,
    /// Its guild.
    pub guild: GuildId,
    /// Where it is played (its thread, else its channel).
    pub home: ChannelId,
    /// The position.
    pub game: Game,
    /// The engine's level in this game.
    pub level: Level,
    /// The ply the engine's move must follow.
    pub ply: u32,
}

impl EngineTurn {
    /// Chooses the engine's action, thinking at most the level's budget. CPU-bound: call it
    /// from a blocking thread. `None` only when the position has no legal action.
    pub fn think(&self) -> Option<Action> {
        self.think_for(self.level.budget())
    }

    /// As [`EngineTurn::think`], level 6 (correspondence) thinking `correspondence` instead
    /// of its default budget (the `[engine]` section of the configuration).
    pub fn think_correspondence(&self, correspondence: Duration) -> Option<Action> {
        self.think_for(self.budget(correspondence))
    }

    /// The budget of this turn's level when level 6 has `correspondence`.
    pub fn budget(&self, correspondence: Duration) -> Duration {
        if self.level == Level::MAX {
            correspondence
        } else {
            self.level.budget()
        }
    }

    /// As [`EngineTurn::think`] with another budget (tests and benchmarks).
    pub fn think_for(&self, budget: Duration) -> Option<Action> {
        let mut player = player_for_game(self.id.0 as u64, self.game.rules(), self.level);
        let action = player
            .choose(&self.game, budget)
            .filter(|&a| self.game.is_legal(a));
        // With the thinking time of `engine_move`, the nodes per second.
        crate::ops::metrics::engine_nodes(self.level.get(), player.nodes());
        LAST_NODES.with(|n| n.set(player.nodes()));
        action
    }

    /// Chooses the engine's action searching at most `nodes` positions (time is only a
    /// safety net of a minute): the same position gives the same work on any machine, for
    /// benchmarks that count moves per second.
    pub fn think_nodes(&self, nodes: u64) -> Option<Action> {
        let mut engine = crate::engine::Engine::seeded(self.level, 1);
        let limits = crate::engine::Limits {
            time: Duration::from_secs(60),
            nodes,
        };
        let action = engine
            .choose_with(&self.game, limits)
            .filter(|&a| self.game.is_legal(a));
        let visited = engine.last_info().nodes;
        crate::ops::metrics::engine_nodes(self.level.get(), visited);
        LAST_NODES.with(|n| n.set(visited));
        action
    }
}

thread_local! {
    /// Positions the last search on this thread visited: the engine's threads read it after
    /// a move for the per-worker nodes per second (the thinker's signature stays an action).
    static LAST_NODES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Takes the count of positions the last search on this thread visited (0 when none ran
/// since the last call).
pub fn take_last_nodes() -> u64 {
    LAST_NODES.with(|n| n.replace(0))
}

impl Service {
    /// Starts a game between the actor and the engine (`engine` is the bot's own user) at
    /// once: no challenge to accept, seats drawn as usual, never rated.
    ///
    /// # Errors
    /// [`ServiceError::ChallengeBot`] (a bot actor), [`ServiceError::ChallengeSelf`] (the
    /// engine challenging itself), [`ServiceError::OpponentInLobby`] (3-4 players),
    /// [`ServiceError::BadTimeControl`], [`ServiceError::TooManyOpenGames`],
    /// [`ServiceError::Storage`].
    pub async fn challenge_engine(
        &self,
        actor: &Actor,
        engine: &UserInfo,
        level: Level,
        request: ChallengeRequest,
    ) -> Result<GameView, ServiceError> {
        if actor.user.is_bot {
            return Err(ServiceError::ChallengeBot);
        }
        if actor.user.id == engine.id {
            return Err(ServiceError::ChallengeSelf);
        }
        let (rules, time) = self
            .rules_and_time(actor.guild, request.rules, request.time)
            .await?;
        super::check_time(time)?;
        if rules.players != 2 {
            return Err(ServiceError::OpponentInLobby);
        }
        let now = self.now();
        self.check_pair(actor.guild, actor.user.id, engine.id, now)
            .await?;
        let new = NewChallenge {
            guild: actor.guild,
            channel: actor.channel,
            challenger: actor.user.clone(),
            opponent: Some(engine.clone()),
            rules,
            time,
            rated: false,
            now,
            expires_at: now.plus(self.config.challenge_ttl),
        };
        let order = self.seat_order(2);
        // The game's thread (from the answer that carries its first board) is owed in the
        // commit that starts it.
        let owes_start = (actor.owes_posts && self.outbox_on()).then_some(actor.reply.as_deref());
        let id = self
            .store
            .start_engine_game(&new, engine, level.get(), &order, owes_start)
            .await?;
        crate::ops::metrics::game_started(crate::store::Family::of(&new.rules).name());
        self.view_of(id).await
    }

    /// The engine's level in a game, `None` for a game between members.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] (an impossible stored level is reported as corrupt).
    pub async fn engine_level(&self, id: GameId) -> Result<Option<Level>, ServiceError> {
        match self.store.engine_level(id).await? {
            None => Ok(None),
            Some(n) => Level::new(n).map(Some).ok_or_else(|| {
                ServiceError::Storage(crate::store::StorageError {
                    kind: crate::store::StorageErrorKind::Corrupt,
                    detail: format!("game {}: engine level {n}", id.0),
                })
            }),
        }
    }

    /// The position the engine must answer in a game, if it is a game against the computer,
    /// still in play, and the engine's (`engine`'s) turn.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchGame`], [`ServiceError::Storage`].
    pub async fn engine_turn(
        &self,
        id: GameId,
        engine: UserId,
    ) -> Result<Option<EngineTurn>, ServiceError> {
        let Some(level) = self.engine_level(id).await? else {
            return Ok(None);
        };
        let view = self.view_of(id).await?;
        if view.status != GameStatus::Active || view.to_act().map(|s| s.user) != Some(engine) {
            return Ok(None);
        }
        Ok(Some(EngineTurn {
            id,
            guild: view.guild,
            home: view.home(),
            ply: view.ply,
            game: view.game,
            level,
        }))
    }

    /// Games against the computer waiting for the engine's move (after a restart).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn engine_games_to_move(&self, engine: UserId) -> Result<Vec<GameId>, ServiceError> {
        Ok(self.store.engine_games_to_move(engine).await?)
    }

    /// Commits the engine's action for `turn`, as `engine`, exactly on the position it
    /// thought about.
    ///
    /// # Errors
    /// As [`Service::play`]; [`ServiceError::PositionChanged`] when the game moved on.
    pub async fn play_engine_move(
        &self,
        turn: &EngineTurn,
        engine: &UserInfo,
        action: Action,
    ) -> Result<Played, ServiceError> {
        let actor = Actor {
            guild: turn.guild,
            channel: turn.home,
            user: engine.clone(),
            reply: None,
            owes_posts: true,
        };
        self.play(&actor, Some(turn.id), action, Some(turn.ply))
            .await
    }
}
