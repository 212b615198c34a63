//! The game service: challenges, lobbies, moves, preferences and guild settings, for any
//! front (DESIGN.md section 1). It speaks in plain ids and typed values and returns no
//! user-facing text: refusals are [`ServiceError`] variants the front localises.
//!
//! # Guarantees
//! - A reply is produced only after its action is committed to the database; a
//!   [`ServiceError::Storage`] means the action did not happen and nothing acknowledged
//!   before it is lost.
//! - Actions on one game are serialised by an in-process lock per game; different games run
//!   in parallel. The real guarantee is the move log's key `(game_id, ply)`: an action is
//!   appended at the ply its player saw plus one, so of two writers (in this process or
//!   another) exactly one gets ply N and the other gets [`ServiceError::PositionChanged`].
//! - Positions are rebuilt from the move log with the rules core; the cache of loaded
//!   games is only an optimisation and is rebuilt from the database after a restart.
//! - Preferences and guild settings read from the database are reused for 10 seconds:
//!   changes made through this service show at once, another process's within that time.
//!
//! # Seats
//! Who sits where is drawn at random when a game starts (two-player challenges too: seat 1
//! moves first, or places the swap stones) and recorded in the database.
//!
//! # Resigning
//! A player may resign at any time, on their turn or not. The game ends at once and every
//! other side wins: in a two-player game the opponent; with teams, the other team; in a
//! three- or four-player free-for-all, all the remaining players share the victory (players
//! already out on time excepted: see [`clocks`](self#clocks)). The resignation is the last row
//! of the move log (`resign`).
//!
//! # Clocks
//! Deadlines, reminders, vacation and losses on time are swept by [`Service::sweep_clocks`]
//! (module `clocks`): in a 3-4 player free-for-all a player who runs out of time retires
//! (`retire:C`, the rules core skips their colour) and the others play on.
//!
//! # Take-backs, draws and rematches
//! Accepted take-backs are appended as `undo:N` rows (N actions taken back, replayed with the
//! rules core's `Game::undo`) and agreed draws as a final `draw` row; offers live in their own
//! table and lapse once the game is past the ply they were made at. Details in
//! `src/service/offers.rs`.

mod clock;
mod clocks;
mod engine;
mod error;
mod memo;
mod offers;
mod ratings;
mod tournaments;
mod view;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

pub use clock::{Clock, ManualClock, SystemClock};
pub use clocks::{ClockEvent, VacationBalance, reminder_time, utc_year};
pub use engine::EngineTurn;
pub use error::ServiceError;
pub use offers::{Answered, OfferError, OfferMade, Outcome};
pub use ratings::{
    Family, GameOutcome, HISTORY_LENGTH, HistoryEntry, LEADERBOARD_PAGE, LeaderboardPage,
    MIN_STONES_EACH, PlayerRatings, Ranked, Rating, RatingChange, START_RATING, Unrated,
};
pub use tournaments::{
    Announcement, Left, MAX_NAME_CHARS, MAX_ROUND_ROBIN_PLAYERS, MAX_SWISS_PLAYERS,
    MAX_SWISS_ROUNDS, MIN_PLAYERS, StandingLine, StandingsView, Tournament, TournamentBoard,
    TournamentEntry, TournamentError, TournamentRequest,
};
pub use view::{
    Acceptance, Actor, ChallengeRequest, GameSummary, GameView, Played, PlayerEntry, SeatView,
};

pub use crate::store::{
    Challenge, ChallengeId, ChallengeStatus, ChannelId, GameId, GameResult, GameStatus, GuildId,
    GuildSettings, MessageId, Notify, Offer, OfferId, OfferKind, OfferStatus, Preferences,
    ResultReason, StorageError, StorageErrorKind, TimeControl, Timestamp, TournamentId,
    TournamentRow, TournamentStatus, UserId, UserInfo,
};

use crate::rules::{Action, Colours, Game, Status};
use crate::store::{
    AppendError, GameMeta, NewAction, NewChallenge, SeatRow, Seated, Store, StoreOptions,
    StoredGame,
};
use memo::Memo;

/// The record token of a resignation in the move log.
const RESIGN: &str = "resign";

/// Tunable behaviour of the service.
#[derive(Clone, Debug)]
pub struct ServiceConfig {
    /// How long a challenge or lobby stays open.
    pub challenge_ttl: Duration,
    /// The most open games (active games plus open challenges) two members may have
    /// together in a guild.
    pub max_open_games_per_pair: u32,
    /// A seed for seat draws (tests); `None` seeds from the operating system.
    pub seat_seed: Option<u64>,
    /// Vacation days each player has per calendar year (spent an hour at a time when a
    /// deadline passes in a game counted in days).
    pub vacation_days_per_year: u32,
    /// How often the front checks deadlines (reminders, vacation, loss on time).
    pub clock_sweep_every: Duration,
}

impl Default for ServiceConfig {
    fn default() -> Self {
        ServiceConfig {
            challenge_ttl: Duration::from_secs(24 * 3600),
            max_open_games_per_pair: 3,
            seat_seed: None,
            vacation_days_per_year: 10,
            clock_sweep_every: Duration::from_secs(60),
        }
    }
}

/// A game held in memory: its row, its seats and the position rebuilt from its log.
#[derive(Debug)]
struct Loaded {
    meta: GameMeta,
    seats: Vec<SeatRow>,
    game: Game,
}

impl Loaded {
    fn rebuild(stored: StoredGame) -> Result<Loaded, StorageError> {
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

    fn seat_of(&self, user: UserId) -> Option<&SeatRow> {
        self.seats.iter().find(|s| s.user == user)
    }

    fn view(&self) -> GameView {
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
            deadline: self.meta.deadline,
            rated: self.meta.rated,
            against_computer: self.meta.against_computer,
            status: self.meta.status,
            ply: self.meta.ply,
            created_at: self.meta.created_at,
            updated_at: self.meta.updated_at,
        }
    }
}

fn display_name(s: &SeatRow) -> String {
    s.name.clone().unwrap_or_else(|| s.user.to_string())
}

fn result_of(status: Status) -> Option<GameResult> {
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

/// An action, or its text still to be read against the game's board.
#[derive(Clone, Copy, Debug)]
enum Input<'a> {
    Action(Action),
    Token(&'a str),
}

type Slot = Arc<tokio::sync::Mutex<Option<Loaded>>>;

/// The game service. Share it (it is `Send + Sync`) behind an `Arc`.
pub struct Service {
    store: Store,
    clock: Arc<dyn Clock>,
    config: ServiceConfig,
    /// One lock (and cache entry) per game in play; finished games leave it.
    slots: Mutex<HashMap<GameId, Slot>>,
    rng: Mutex<StdRng>,
    /// Preferences and guild settings read lately: each interaction reads them, several
    /// times, and sqlx round trips are much of a move's cost under load.
    prefs: Memo<UserId, Preferences>,
    settings: Memo<GuildId, GuildSettings>,
}

/// How long preferences and guild settings read from the database are reused. Writes
/// through this service are seen at once; another process's, after this at most.
const SETTINGS_TTL: Duration = Duration::from_secs(10);
/// How many users' preferences, and how many guilds' settings, are kept at most.
const SETTINGS_KEPT: usize = 10_000;

impl std::fmt::Debug for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Service {
    /// A service over an open store.
    pub fn new(store: Store, config: ServiceConfig, clock: Arc<dyn Clock>) -> Service {
        let rng = match config.seat_seed {
            Some(seed) => StdRng::seed_from_u64(seed),
            None => StdRng::from_os_rng(),
        };
        Service {
            store,
            clock,
            config,
            slots: Mutex::new(HashMap::new()),
            rng: Mutex::new(rng),
            prefs: Memo::new(SETTINGS_TTL, SETTINGS_KEPT),
            settings: Memo::new(SETTINGS_TTL, SETTINGS_KEPT),
        }
    }

    /// Opens the database (creating and migrating it as needed) and starts the service.
    ///
    /// # Errors
    /// [`StorageError`] when the database cannot be opened or migrated.
    pub async fn open(
        options: &StoreOptions,
        config: ServiceConfig,
        clock: Arc<dyn Clock>,
    ) -> Result<Service, StorageError> {
        Ok(Service::new(Store::open(options).await?, config, clock))
    }

    /// Closes the database connections (after the calls in flight).
    pub async fn close(&self) {
        self.store.close().await;
    }

    /// The store under the service (for maintenance such as integrity checks).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The configuration.
    pub fn config(&self) -> &ServiceConfig {
        &self.config
    }

    /// How many games are held in memory (for monitoring).
    pub fn cached_games(&self) -> usize {
        self.slots.lock().map_or(0, |s| s.len())
    }

    fn now(&self) -> Timestamp {
        self.clock.now()
    }

    fn seat_order(&self, players: u8) -> Vec<u8> {
        let mut order: Vec<u8> = (1..=players).collect();
        if let Ok(mut rng) = self.rng.lock() {
            order.shuffle(&mut *rng);
        }
        order
    }

    fn slot(&self, id: GameId) -> Slot {
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
    async fn ensure_loaded<'a>(
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

    // ----- preferences and settings -----------------------------------------------------

    /// A user's preferences (the defaults if they never set any).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn preferences(&self, user: UserId) -> Result<Preferences, ServiceError> {
        let ticket = match self.prefs.get(user) {
            Ok(p) => return Ok(p),
            Err(ticket) => ticket,
        };
        let prefs = self.store.preferences(user).await?.unwrap_or_default();
        self.prefs.put_read(user, prefs.clone(), ticket);
        Ok(prefs)
    }

    /// Saves a user's preferences (an empty language means "follow the client").
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn set_preferences(
        &self,
        user: UserId,
        mut prefs: Preferences,
    ) -> Result<Preferences, ServiceError> {
        prefs.language = prefs
            .language
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty());
        let written = self.store.put_preferences(user, &prefs, self.now()).await;
        // Whatever happened, the next read asks the database.
        self.prefs.forget(user);
        written?;
        Ok(prefs)
    }

    /// A guild's settings (the defaults if it never set any).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn guild_settings(&self, guild: GuildId) -> Result<GuildSettings, ServiceError> {
        let ticket = match self.settings.get(guild) {
            Ok(s) => return Ok(s),
            Err(ticket) => ticket,
        };
        let settings = self.store.guild_settings(guild).await?.unwrap_or_default();
        self.settings.put_read(guild, settings.clone(), ticket);
        Ok(settings)
    }

    /// Saves a guild's settings.
    ///
    /// # Errors
    /// [`ServiceError::BadTimeControl`], [`ServiceError::Storage`].
    pub async fn set_guild_settings(
        &self,
        guild: GuildId,
        mut settings: GuildSettings,
    ) -> Result<GuildSettings, ServiceError> {
        check_time(settings.default_time)?;
        settings.locale = settings
            .locale
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty());
        let written = self
            .store
            .put_guild_settings(guild, &settings, self.now())
            .await;
        // Whatever happened, the next read asks the database.
        self.settings.forget(guild);
        written?;
        Ok(settings)
    }

    // ----- challenges and lobbies -------------------------------------------------------

    /// Makes a challenge to a member, an open challenge, or (3-4 players) a lobby.
    ///
    /// # Errors
    /// [`ServiceError::ChallengeSelf`], [`ServiceError::ChallengeBot`],
    /// [`ServiceError::TooManyOpenGames`], [`ServiceError::OpponentInLobby`],
    /// [`ServiceError::BadTimeControl`], [`ServiceError::Storage`].
    pub async fn challenge(
        &self,
        actor: &Actor,
        request: ChallengeRequest,
    ) -> Result<Challenge, ServiceError> {
        let now = self.now();
        if actor.user.is_bot {
            return Err(ServiceError::ChallengeBot);
        }
        let (rules, time) = match (request.rules, request.time) {
            (Some(r), Some(t)) => (r, t),
            (r, t) => {
                let defaults = self.guild_settings(actor.guild).await?;
                (
                    r.unwrap_or(defaults.default_rules),
                    t.unwrap_or(defaults.default_time),
                )
            }
        };
        check_time(time)?;
        if let Some(opponent) = &request.opponent {
            if rules.players > 2 {
                return Err(ServiceError::OpponentInLobby);
            }
            if opponent.id == actor.user.id {
                return Err(ServiceError::ChallengeSelf);
            }
            if opponent.is_bot {
                return Err(ServiceError::ChallengeBot);
            }
            self.check_pair(actor.guild, actor.user.id, opponent.id, now)
                .await?;
        }
        let new = NewChallenge {
            guild: actor.guild,
            channel: actor.channel,
            challenger: actor.user.clone(),
            opponent: request.opponent,
            rules,
            time,
            rated: request.rated,
            now,
            expires_at: now.plus(self.config.challenge_ttl),
        };
        Ok(self.store.insert_challenge(&new).await?)
    }

    async fn check_pair(
        &self,
        guild: GuildId,
        a: UserId,
        b: UserId,
        now: Timestamp,
    ) -> Result<(), ServiceError> {
        let max = self.config.max_open_games_per_pair;
        if self.store.open_games_between(guild, a, b, now).await? >= max {
            return Err(ServiceError::TooManyOpenGames { max });
        }
        Ok(())
    }

    /// A challenge or lobby of this guild.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchChallenge`], [`ServiceError::Storage`].
    pub async fn challenge_info(
        &self,
        guild: GuildId,
        id: ChallengeId,
    ) -> Result<Challenge, ServiceError> {
        self.store
            .challenge(id)
            .await?
            .filter(|c| c.guild == guild)
            .ok_or(ServiceError::NoSuchChallenge)
    }

    /// Refuses a challenge that is not open; marks it expired if its time has run out.
    async fn check_open(&self, c: &Challenge, now: Timestamp) -> Result<(), ServiceError> {
        match c.status {
            ChallengeStatus::Open if c.expires_at <= now => {
                self.store
                    .close_challenge(c.id, ChallengeStatus::Expired, None, now)
                    .await?;
                Err(ServiceError::ChallengeExpired)
            }
            ChallengeStatus::Open => Ok(()),
            ChallengeStatus::Expired => Err(ServiceError::ChallengeExpired),
            other => Err(ServiceError::ChallengeClosed(other)),
        }
    }

    /// After a conditional update found a challenge no longer open: says why.
    async fn explain_closed(&self, id: ChallengeId, now: Timestamp) -> ServiceError {
        match self.store.challenge(id).await {
            Err(e) => e.into(),
            Ok(None) => ServiceError::NoSuchChallenge,
            Ok(Some(c)) => match self.check_open(&c, now).await {
                Err(e) => e,
                Ok(()) if c.is_lobby() && c.free_seats() == 0 => ServiceError::LobbyFull,
                Ok(()) => ServiceError::NotChallenged,
            },
        }
    }

    /// Records the message that shows a challenge (so it can be edited later).
    ///
    /// # Errors
    /// [`ServiceError::NoSuchChallenge`], [`ServiceError::Storage`].
    pub async fn set_challenge_message(
        &self,
        id: ChallengeId,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<(), ServiceError> {
        if self
            .store
            .set_challenge_message(id, channel, message)
            .await?
        {
            Ok(())
        } else {
            Err(ServiceError::NoSuchChallenge)
        }
    }

    /// Accepts a two-player challenge, or joins a lobby; the game starts when the last seat
    /// is taken, with seats drawn at random.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchChallenge`], [`ServiceError::ChallengeExpired`],
    /// [`ServiceError::ChallengeClosed`], [`ServiceError::ChallengeSelf`],
    /// [`ServiceError::ChallengeBot`], [`ServiceError::NotChallenged`],
    /// [`ServiceError::TooManyOpenGames`], [`ServiceError::AlreadyJoined`],
    /// [`ServiceError::LobbyFull`], [`ServiceError::Storage`].
    pub async fn accept(&self, actor: &Actor, id: ChallengeId) -> Result<Acceptance, ServiceError> {
        let now = self.now();
        let c = self.challenge_info(actor.guild, id).await?;
        self.check_open(&c, now).await?;
        let me = actor.user.id;
        if c.is_lobby() {
            if c.members.contains(&me) {
                return Err(ServiceError::AlreadyJoined);
            }
        } else if me == c.challenger {
            return Err(ServiceError::ChallengeSelf);
        }
        if actor.user.is_bot {
            return Err(ServiceError::ChallengeBot);
        }
        match c.opponent {
            Some(named) if named != me => return Err(ServiceError::NotChallenged),
            None if !c.is_lobby() => self.check_pair(c.guild, c.challenger, me, now).await?,
            _ => {}
        }
        if c.free_seats() == 0 {
            return Err(ServiceError::LobbyFull);
        }
        let order = self.seat_order_for(&c).await?;
        match self.store.take_seat(id, &actor.user, now, &order).await? {
            Seated::Waiting => Ok(Acceptance {
                challenge: self.challenge_info(actor.guild, id).await?,
                game: None,
            }),
            Seated::Started(game) => {
                let view = self.view_of(game).await?;
                Ok(Acceptance {
                    challenge: self.challenge_info(actor.guild, id).await?,
                    game: Some(view),
                })
            }
            Seated::AlreadyJoined => Err(ServiceError::AlreadyJoined),
            Seated::NotOpen => Err(self.explain_closed(id, now).await),
        }
    }

    /// Declines a challenge addressed to the caller.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchChallenge`], [`ServiceError::NotChallenged`] (also for open
    /// challenges and lobbies, which are simply not accepted), [`ServiceError::ChallengeExpired`],
    /// [`ServiceError::ChallengeClosed`], [`ServiceError::Storage`].
    pub async fn decline(&self, actor: &Actor, id: ChallengeId) -> Result<Challenge, ServiceError> {
        let now = self.now();
        let c = self.challenge_info(actor.guild, id).await?;
        self.check_open(&c, now).await?;
        if c.opponent != Some(actor.user.id) {
            return Err(ServiceError::NotChallenged);
        }
        self.close_as(actor, id, ChallengeStatus::Declined, now)
            .await
    }

    /// Withdraws the caller's own challenge or lobby.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchChallenge`], [`ServiceError::NotChallenger`],
    /// [`ServiceError::ChallengeExpired`], [`ServiceError::ChallengeClosed`],
    /// [`ServiceError::Storage`].
    pub async fn cancel(&self, actor: &Actor, id: ChallengeId) -> Result<Challenge, ServiceError> {
        let now = self.now();
        let c = self.challenge_info(actor.guild, id).await?;
        self.check_open(&c, now).await?;
        if c.challenger != actor.user.id {
            return Err(ServiceError::NotChallenger);
        }
        self.close_as(actor, id, ChallengeStatus::Cancelled, now)
            .await
    }

    async fn close_as(
        &self,
        actor: &Actor,
        id: ChallengeId,
        status: ChallengeStatus,
        now: Timestamp,
    ) -> Result<Challenge, ServiceError> {
        if !self
            .store
            .close_challenge(id, status, Some(actor.user.id), now)
            .await?
        {
            return Err(self.explain_closed(id, now).await);
        }
        self.challenge_info(actor.guild, id).await
    }

    /// Leaves a lobby the caller joined; the lobby's creator leaving cancels it.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchChallenge`], [`ServiceError::NotJoined`],
    /// [`ServiceError::ChallengeExpired`], [`ServiceError::ChallengeClosed`],
    /// [`ServiceError::Storage`].
    pub async fn leave(&self, actor: &Actor, id: ChallengeId) -> Result<Challenge, ServiceError> {
        let now = self.now();
        let c = self.challenge_info(actor.guild, id).await?;
        self.check_open(&c, now).await?;
        if c.challenger == actor.user.id {
            return self.cancel(actor, id).await;
        }
        if !c.is_lobby() || !c.members.contains(&actor.user.id) {
            return Err(ServiceError::NotJoined);
        }
        if !self.store.leave_lobby(id, actor.user.id).await? {
            return Err(self.explain_closed(id, now).await);
        }
        self.challenge_info(actor.guild, id).await
    }

    /// Closes every open challenge and lobby whose time has run out and returns them (so
    /// the front can update their messages). Safe to run from several processes at once.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn expire_challenges(&self) -> Result<Vec<Challenge>, ServiceError> {
        let ids = self.store.expire_challenges(self.now()).await?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(c) = self.store.challenge(id).await? {
                out.push(c);
            }
        }
        Ok(out)
    }

    // ----- games ------------------------------------------------------------------------

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

    async fn view_of(&self, id: GameId) -> Result<GameView, ServiceError> {
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
        let result = self
            .play_locked(&mut cached, id, actor, input, expected_ply)
            .await;
        self.settle(id, cached);
        result
    }

    /// Removes a game's lock and cache entry unless it holds a game still in play, so that
    /// finished games and unknown numbers do not pile up in memory.
    fn settle(&self, id: GameId, cached: tokio::sync::MutexGuard<'_, Option<Loaded>>) {
        let keep = matches!(&*cached, Some(l) if l.meta.status == GameStatus::Active);
        drop(cached);
        if !keep {
            self.drop_slot(id);
        }
    }

    /// Loads a game of the actor's guild that is still in play.
    async fn active_game<'a>(
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
        let now = self.now();
        let finished = result_of(report.status);
        let new = NewAction {
            game: id,
            ply: loaded.meta.ply + 1,
            seat,
            token: action.to_string(),
            at: now,
            to_act: loaded.game.seat_to_act(),
            deadline: match finished {
                Some(_) => None,
                None => loaded.meta.time.deadline_after(now),
            },
            finished,
            rename,
        };
        if let Err(e) = self.store.append_action(&new).await {
            loaded.game.undo();
            return Err(match e {
                AppendError::Conflict => {
                    // Another writer got there first: our copy is stale.
                    *cached = None;
                    ServiceError::PositionChanged
                }
                AppendError::Storage(s) => ServiceError::Storage(s),
            });
        }
        Self::committed(loaded, &new);
        Ok(Played {
            view: loaded.view(),
            report,
        })
    }

    /// Brings the cached row in line with an action just committed.
    fn committed(loaded: &mut Loaded, new: &NewAction) {
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
        };
        match self.store.append_action(&new).await {
            Ok(()) => {}
            Err(AppendError::Conflict) => {
                *cached = None;
                return Err(ServiceError::PositionChanged);
            }
            Err(AppendError::Storage(s)) => return Err(s.into()),
        }
        Self::committed(loaded, &new);
        Ok(loaded.view())
    }

    /// A member's active games in a guild: those where it is their turn first, then by
    /// nearest deadline, then by number.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn active_games(
        &self,
        guild: GuildId,
        user: UserId,
    ) -> Result<Vec<GameSummary>, ServiceError> {
        let mut out: Vec<GameSummary> = self
            .store
            .active_games_of(guild, user)
            .await?
            .into_iter()
            .map(|l| {
                let to_act = l
                    .meta
                    .to_act
                    .and_then(|seat| l.seats.iter().find(|s| s.seat == seat))
                    .map(|s| s.user);
                GameSummary {
                    id: l.meta.id,
                    channel: l.meta.channel,
                    thread: l.meta.thread,
                    rules: l.meta.rules,
                    time: l.meta.time,
                    players: l
                        .seats
                        .iter()
                        .map(|s| PlayerEntry {
                            seat: s.seat,
                            user: s.user,
                            name: display_name(s),
                        })
                        .collect(),
                    to_act,
                    your_turn: to_act == Some(user),
                    ply: l.meta.ply,
                    deadline: l.meta.deadline,
                }
            })
            .collect();
        out.sort_by_key(|g| (!g.your_turn, g.deadline.is_none(), g.deadline, g.id));
        Ok(out)
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
fn renamed(seat: &SeatRow, actor: &Actor) -> Option<(GuildId, UserInfo)> {
    (seat.name.as_deref() != Some(actor.user.name.as_str()))
        .then(|| (actor.guild, actor.user.clone()))
}

fn check_time(time: TimeControl) -> Result<(), ServiceError> {
    match time {
        _ if time.is_allowed() => Ok(()),
        TimeControl::MinutesPerMove(m) => Err(ServiceError::BadMinutesPerMove(m)),
        TimeControl::DaysPerMove(d) => Err(ServiceError::BadTimeControl(d)),
        TimeControl::Unlimited => Ok(()),
    }
}
