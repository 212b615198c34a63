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
//!   changes made through this service show at once, another process's within that time
//!   (on PostgreSQL, as soon as its notice arrives: [`Service::follow_changes`]).
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

mod challenges;
mod changes;
mod clock;
mod clocks;
mod engine;
mod engine_jobs;
mod error;
mod games;
mod listings;
mod loaded;
mod memo;
mod offers;
mod ops;
mod outbox;
mod outbox_answered;
mod outbox_notices;
mod ratings;
mod replay_check;
mod resign;
pub mod review;
mod settings;
mod tournaments;
mod view;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

pub use crate::store::{ANSWERED_WAIT, LeftToCommit, OutboxEnd, OutboxRow};
pub use clock::{Clock, ManualClock, SystemClock};
pub use clocks::{ClockEvent, VacationBalance, reminder_time, utc_year};
pub use engine::{EngineTurn, take_last_nodes};
pub use engine_jobs::{EngineJob, JobTurn};
pub use error::ServiceError;
pub use offers::{Answered, OfferError, OfferMade, Outcome};
pub use outbox::{GuildShards, HOLD as OUTBOX_HOLD, OutboxKind, OutboxNote, OutboxScope};
pub use ratings::{
    Family, GameOutcome, HISTORY_LENGTH, HistoryEntry, LEADERBOARD_PAGE, LeaderboardPage,
    MIN_STONES_EACH, PlayerRatings, Ranked, Rating, RatingChange, START_RATING, Unrated,
};
pub use replay_check::replay_every_game;
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

use crate::store::{Store, StoreOptions};
use games::renamed;
use loaded::{Loaded, Slot, display_name};
use memo::Memo;
use settings::check_time;

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
    /// Nodes the engine searches per position of a review (fewer in tests).
    pub review_nodes: u64,
}

impl Default for ServiceConfig {
    fn default() -> Self {
        ServiceConfig {
            challenge_ttl: Duration::from_secs(24 * 3600),
            max_open_games_per_pair: 3,
            seat_seed: None,
            vacation_days_per_year: 10,
            clock_sweep_every: Duration::from_secs(60),
            review_nodes: review::NODE_BUDGET,
        }
    }
}

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
    /// The front's notes on outbox rows, for the poster.
    notes: outbox::Notes,
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
            notes: outbox::Notes::default(),
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

    /// The service clock's time now.
    pub fn now(&self) -> Timestamp {
        self.clock.now()
    }

    fn seat_order(&self, players: u8) -> Vec<u8> {
        let mut order: Vec<u8> = (1..=players).collect();
        if let Ok(mut rng) = self.rng.lock() {
            order.shuffle(&mut *rng);
        }
        order
    }
}
