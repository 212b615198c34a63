//! The database: every SQL statement of the bot lives here, behind one type, [`Store`].
//!
//! The service calls domain operations ("append this action at ply 8", "accept challenge 3")
//! and never sees SQL, so a PostgreSQL backend can be added later by giving `Store` a second
//! implementation without touching the service. Queries are portable where that costs
//! nothing; the SQLite-only parts are the connection set-up and `BEGIN IMMEDIATE`.
//!
//! Concurrency rests on the database, not on memory (DESIGN.md section 4b): the move log's
//! primary key `(game_id, ply)` means two writers can never both append ply N, challenges and
//! lobbies are claimed with conditional `UPDATE`s, and deadline sweeps claim a row before
//! acting on it.

mod clocks;
mod engine;
mod model;
mod offers;
pub mod ratings;
mod tournaments;

use std::str::FromStr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use sqlx::Row;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow,
    SqliteSynchronous,
};
use thiserror::Error;

pub use clocks::ReminderCandidate;
pub use model::{
    Challenge, ChallengeId, ChallengeStatus, ChannelId, GameId, GameResult, GameStatus, GuildId,
    GuildSettings, MessageId, Notify, Preferences, ResultReason, TimeControl, Timestamp, UserId,
    UserInfo,
};
use model::{colours_from_mask, colours_to_mask};
pub use offers::{Offer, OfferId, OfferInsert, OfferKind, OfferStatus};
pub use ratings::{Family, Ranked, Rating, RatingChange, Scope, Unrated};
pub use tournaments::{
    BoardRow, EntryRow, Joined, NewTournament, PlannedBoard, Seeding, StoredTournament,
    TournamentId, TournamentRow, TournamentStatus,
};

use crate::rules::RuleSet;

/// The database used when none is configured: a file in the working directory.
pub const DEFAULT_URL: &str = "sqlite://gomoku-bot.db";

/// How hard SQLite works to keep a commit through an operating-system crash or power loss.
///
/// Both levels keep every acknowledged commit when the bot's process dies (a crash, a
/// SIGKILL, an out-of-memory kill): in WAL mode a commit is in the operating system's hands
/// once `COMMIT` returns, whatever this setting. They differ only when the whole machine
/// stops: `Normal` may then lose the last commits since the WAL was last synced (the
/// database itself stays consistent), `Full` loses nothing.
///
/// The default is `Full`, because the service promises that nothing acknowledged is lost
/// and the price is affordable: `Full` syncs the WAL on every commit, and measured on the
/// project's machine (`cargo bench --bench service`) a move then takes about 0.32 ms
/// (median) instead of 0.13 ms, and 1,000 games at once still commit well over 2,000 moves
/// per second, far inside the service's targets (2 ms per move, 300 moves per second).
/// `Normal` is there for disks whose syncs are slow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Durability {
    /// `synchronous=NORMAL`: safe across process crashes; a power cut may lose the last
    /// commits.
    Normal,
    /// `synchronous=FULL`: safe across power loss too, one sync per commit.
    #[default]
    Full,
}

/// How to open the database.
#[derive(Clone, Debug)]
pub struct StoreOptions {
    /// `sqlite://path/to/file.db` (created if missing).
    pub url: String,
    /// See [`Durability`].
    pub durability: Durability,
    /// How long a statement waits for another process's lock before failing with
    /// [`StorageErrorKind::Busy`].
    pub busy_timeout: Duration,
    /// Connections used for reads (writes use one connection: SQLite has one writer).
    pub readers: u32,
    /// Extra `PRAGMA`s run on every connection (for example `cache_size`).
    pub pragmas: Vec<(String, String)>,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            url: DEFAULT_URL.to_string(),
            durability: Durability::Full,
            busy_timeout: Duration::from_secs(5),
            readers: 4,
            pragmas: Vec::new(),
        }
    }
}

impl StoreOptions {
    /// The defaults, for the database at `url`.
    pub fn new(url: impl Into<String>) -> StoreOptions {
        StoreOptions {
            url: url.into(),
            ..StoreOptions::default()
        }
    }

    /// The defaults, for a database file at `path`.
    pub fn for_file(path: &std::path::Path) -> StoreOptions {
        StoreOptions::new(format!("sqlite://{}", path.display()))
    }
}

/// What kind of storage failure happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StorageErrorKind {
    /// The database is locked by someone else (or no connection was free in time).
    Busy,
    /// The disk (or the database's size limit) is full.
    Full,
    /// The file is damaged, or holds data this version cannot read.
    Corrupt,
    /// The database cannot be written (read-only file or file system).
    ReadOnly,
    /// The database cannot be reached (missing directory, I/O error, pool closed).
    Unavailable,
    /// The URL or options are wrong.
    Config,
    /// Anything else.
    Other,
}

/// A storage failure. Nothing that was acknowledged before it is lost, and the action that
/// met it did not happen.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("storage failure ({kind:?}): {detail}")]
pub struct StorageError {
    /// What kind of failure.
    pub kind: StorageErrorKind,
    /// The database's own words, for logs (not for users).
    pub detail: String,
}

impl StorageError {
    fn corrupt(detail: impl Into<String>) -> StorageError {
        StorageError {
            kind: StorageErrorKind::Corrupt,
            detail: detail.into(),
        }
    }
}

impl From<sqlx::Error> for StorageError {
    fn from(e: sqlx::Error) -> Self {
        let kind = match &e {
            sqlx::Error::Database(db) => {
                // SQLite reports the extended result code; the primary code is its low byte.
                let code = db
                    .code()
                    .and_then(|c| c.parse::<i32>().ok())
                    .map_or(0, |c| c & 0xff);
                match code {
                    5 | 6 => StorageErrorKind::Busy,          // BUSY, LOCKED
                    13 => StorageErrorKind::Full,             // FULL
                    11 | 26 => StorageErrorKind::Corrupt,     // CORRUPT, NOTADB
                    8 => StorageErrorKind::ReadOnly,          // READONLY
                    10 | 14 => StorageErrorKind::Unavailable, // IOERR, CANTOPEN
                    _ => StorageErrorKind::Other,
                }
            }
            sqlx::Error::PoolTimedOut => StorageErrorKind::Busy,
            sqlx::Error::PoolClosed | sqlx::Error::Io(_) => StorageErrorKind::Unavailable,
            sqlx::Error::Configuration(_) => StorageErrorKind::Config,
            sqlx::Error::ColumnDecode { .. } | sqlx::Error::Decode(_) => StorageErrorKind::Corrupt,
            _ => StorageErrorKind::Other,
        };
        StorageError {
            kind,
            detail: e.to_string(),
        }
    }
}

impl From<sqlx::migrate::MigrateError> for StorageError {
    fn from(e: sqlx::migrate::MigrateError) -> Self {
        match e {
            sqlx::migrate::MigrateError::Execute(inner) => inner.into(),
            other => StorageError {
                kind: StorageErrorKind::Other,
                detail: other.to_string(),
            },
        }
    }
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db) if db.is_unique_violation())
}

/// Why an action could not be appended to the move log.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AppendError {
    /// Someone else appended that ply first, or the game ended: the position changed.
    #[error("the position changed")]
    Conflict,
    /// The database failed; nothing was written.
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// A challenge (or lobby) about to be made.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    /// The guild.
    pub guild: GuildId,
    /// The channel it is made in.
    pub channel: ChannelId,
    /// Who makes it (their name is remembered).
    pub challenger: UserInfo,
    /// The member challenged, if any (their name is remembered).
    pub opponent: Option<UserInfo>,
    /// The rules.
    pub rules: RuleSet,
    /// The time control.
    pub time: TimeControl,
    /// Whether the game will be rated.
    pub rated: bool,
    /// When it is made.
    pub now: Timestamp,
    /// When it expires.
    pub expires_at: Timestamp,
}

/// What became of an attempt to take a seat in a challenge or lobby.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seated {
    /// Seated; the lobby still waits for players.
    Waiting,
    /// Seated, and that filled it: the game has started.
    Started(GameId),
    /// It is no longer open, has expired, or has no free seat (read it again to know which).
    NotOpen,
    /// This user is already in it.
    AlreadyJoined,
}

/// One seat of a stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// The seat, from 1 (seat 1 acts first).
    pub seat: u8,
    /// Who sits there.
    pub user: UserId,
    /// Their last known display name in the game's guild.
    pub name: Option<String>,
}

/// A game's row: everything but the move log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameMeta {
    /// The game.
    pub id: GameId,
    /// Its guild.
    pub guild: GuildId,
    /// The channel the challenge was made in.
    pub channel: ChannelId,
    /// Its own thread, if it has one.
    pub thread: Option<ChannelId>,
    /// The last board message posted for it.
    pub board_message: Option<(ChannelId, MessageId)>,
    /// The challenge it came from.
    pub challenge: Option<ChallengeId>,
    /// Its rules.
    pub rules: RuleSet,
    /// Its time control.
    pub time: TimeControl,
    /// Whether it is rated.
    pub rated: bool,
    /// Whether one seat is the computer (a game started against the engine).
    pub against_computer: bool,
    /// Active or finished, with the result.
    pub status: GameStatus,
    /// Actions in the log.
    pub ply: u32,
    /// The seat to act (snapshot), `None` when finished.
    pub to_act: Option<u8>,
    /// When the seat to act runs out of time.
    pub deadline: Option<Timestamp>,
    /// When it started.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
}

/// One row of the move log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// 1 for the first action.
    pub ply: u32,
    /// The seat that acted.
    pub seat: u8,
    /// The record token (`K10`, `take:1`, `place`) or `resign`.
    pub token: String,
    /// When.
    pub at: Timestamp,
}

/// A game as stored: its row, its seats and its whole move log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The row.
    pub meta: GameMeta,
    /// The seats, seat 1 first.
    pub seats: Vec<SeatRow>,
    /// The move log, ply 1 first.
    pub actions: Vec<StoredAction>,
}

/// A game without its move log (for listings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameListing {
    /// The row.
    pub meta: GameMeta,
    /// The seats, seat 1 first.
    pub seats: Vec<SeatRow>,
}

/// An action to append to the move log, with the game row's new snapshot.
#[derive(Clone, Debug)]
pub struct NewAction {
    /// The game.
    pub game: GameId,
    /// The new ply: the ply the player saw plus one.
    pub ply: u32,
    /// The seat acting.
    pub seat: u8,
    /// The record token or `resign`.
    pub token: String,
    /// When.
    pub at: Timestamp,
    /// The seat to act afterwards (`None` when the game ends).
    pub to_act: Option<u8>,
    /// The next deadline.
    pub deadline: Option<Timestamp>,
    /// The result, when this action ends the game.
    pub finished: Option<GameResult>,
    /// A display name to remember in the same transaction, if it changed.
    pub rename: Option<(GuildId, UserInfo)>,
}

/// The only door to the database.
#[derive(Clone, Debug)]
pub struct Store {
    /// One connection: SQLite has a single writer, and queueing writers in the pool is
    /// fairer and faster than letting them spin in SQLite's busy handler.
    writer: SqlitePool,
    /// Reads run beside the writer (WAL readers never block it).
    reader: SqlitePool,
    /// Moves waiting for the next group commit (see [`Store::append_action`]).
    appends: Arc<Appends>,
}

/// A move waiting to be appended, and where its outcome goes.
type PendingAppend = (
    NewAction,
    tokio::sync::oneshot::Sender<Result<(), AppendError>>,
);

/// The group commit of moves: callers queue their move, and whoever gets the turn commits
/// every queued move in one transaction.
#[derive(Default)]
struct Appends {
    queue: Mutex<Vec<PendingAppend>>,
    turn: tokio::sync::Mutex<()>,
}

impl std::fmt::Debug for Appends {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Appends").finish_non_exhaustive()
    }
}

const CHALLENGE_COLUMNS: &str = "challenge_id, guild_id, channel_id, message_channel_id, \
    message_id, challenger_id, opponent_id, rules, days_per_move, minutes_per_move, rated, status, \
    created_at, expires_at, game_id";

const GAME_COLUMNS: &str = "g.game_id, g.guild_id, g.channel_id, g.thread_id, \
    g.board_channel_id, g.board_message_id, g.challenge_id, g.rules, g.days_per_move, \
    g.minutes_per_move, g.rated, g.engine_level, \
    g.status, g.ply, g.to_act_seat, g.result, g.winners, g.loser_seat, g.deadline, \
    g.created_at, g.updated_at";

fn rules_from(spec: &str) -> Result<RuleSet, StorageError> {
    RuleSet::from_spec(spec).map_err(|e| StorageError::corrupt(format!("rules `{spec}`: {e}")))
}

fn small(v: i64, what: &str) -> Result<u8, StorageError> {
    u8::try_from(v).map_err(|_| StorageError::corrupt(format!("{what} {v} out of range")))
}

fn time_from(row: &SqliteRow) -> Result<TimeControl, StorageError> {
    let days: Option<i64> = row.try_get("days_per_move")?;
    let minutes: Option<i64> = row.try_get("minutes_per_move")?;
    TimeControl::from_db(days, minutes).ok_or_else(|| {
        StorageError::corrupt(format!(
            "time control: days {days:?}, minutes {minutes:?} out of range"
        ))
    })
}

fn pair(c: Option<i64>, m: Option<i64>) -> Option<(ChannelId, MessageId)> {
    Some((ChannelId::from_db(c?), MessageId::from_db(m?)))
}

fn challenge_from(row: &SqliteRow, members: Vec<UserId>) -> Result<Challenge, StorageError> {
    let status: String = row.try_get("status")?;
    Ok(Challenge {
        id: ChallengeId(row.try_get("challenge_id")?),
        guild: GuildId::from_db(row.try_get("guild_id")?),
        channel: ChannelId::from_db(row.try_get("channel_id")?),
        message: pair(
            row.try_get("message_channel_id")?,
            row.try_get("message_id")?,
        ),
        challenger: UserId::from_db(row.try_get("challenger_id")?),
        opponent: row
            .try_get::<Option<i64>, _>("opponent_id")?
            .map(UserId::from_db),
        rules: rules_from(row.try_get("rules")?)?,
        time: time_from(row)?,
        rated: row.try_get("rated")?,
        status: ChallengeStatus::parse(&status)
            .ok_or_else(|| StorageError::corrupt(format!("challenge status `{status}`")))?,
        members,
        created_at: Timestamp(row.try_get("created_at")?),
        expires_at: Timestamp(row.try_get("expires_at")?),
        game: row.try_get::<Option<i64>, _>("game_id")?.map(GameId),
    })
}

fn game_meta_from(row: &SqliteRow) -> Result<GameMeta, StorageError> {
    let status: String = row.try_get("status")?;
    let status = match status.as_str() {
        "active" => GameStatus::Active,
        "finished" => {
            let result: Option<String> = row.try_get("result")?;
            let winners = colours_from_mask(row.try_get::<Option<i64>, _>("winners")?.unwrap_or(0));
            let reason = match result.as_deref() {
                Some("line") => ResultReason::Line,
                Some("captures") => ResultReason::Captures,
                Some("board_full") => ResultReason::BoardFull,
                Some("resignation") => ResultReason::Resignation {
                    seat: small(
                        row.try_get::<Option<i64>, _>("loser_seat")?.unwrap_or(0),
                        "loser seat",
                    )?,
                },
                Some("timeout") => ResultReason::Timeout {
                    seat: small(
                        row.try_get::<Option<i64>, _>("loser_seat")?.unwrap_or(0),
                        "loser seat",
                    )?,
                },
                Some("draw") => ResultReason::DrawAgreed,
                other => {
                    return Err(StorageError::corrupt(format!("game result {other:?}")));
                }
            };
            GameStatus::Finished(GameResult { winners, reason })
        }
        other => return Err(StorageError::corrupt(format!("game status `{other}`"))),
    };
    let ply: i64 = row.try_get("ply")?;
    Ok(GameMeta {
        id: GameId(row.try_get("game_id")?),
        guild: GuildId::from_db(row.try_get("guild_id")?),
        channel: ChannelId::from_db(row.try_get("channel_id")?),
        thread: row
            .try_get::<Option<i64>, _>("thread_id")?
            .map(ChannelId::from_db),
        board_message: pair(
            row.try_get("board_channel_id")?,
            row.try_get("board_message_id")?,
        ),
        challenge: row
            .try_get::<Option<i64>, _>("challenge_id")?
            .map(ChallengeId),
        rules: rules_from(row.try_get("rules")?)?,
        time: time_from(row)?,
        rated: row.try_get("rated")?,
        against_computer: row.try_get::<Option<i64>, _>("engine_level")?.is_some(),
        status,
        ply: u32::try_from(ply).map_err(|_| StorageError::corrupt(format!("ply {ply}")))?,
        to_act: row
            .try_get::<Option<i64>, _>("to_act_seat")?
            .map(|s| small(s, "seat"))
            .transpose()?,
        deadline: row.try_get::<Option<i64>, _>("deadline")?.map(Timestamp),
        created_at: Timestamp(row.try_get("created_at")?),
        updated_at: Timestamp(row.try_get("updated_at")?),
    })
}

fn seat_from(row: &SqliteRow) -> Result<SeatRow, StorageError> {
    Ok(SeatRow {
        seat: small(row.try_get("seat")?, "seat")?,
        user: UserId::from_db(row.try_get("user_id")?),
        name: row.try_get("display_name")?,
    })
}

type Tx = sqlx::Transaction<'static, sqlx::Sqlite>;

/// A condition on a `games` row: the seat to act is not the computer's. The engine answers at
/// once (and, after a restart, before anything else), so its turns have no clock: a deadline
/// that passed while the bot was down must not make the computer lose on time or be reminded.
pub(crate) const HUMAN_TO_ACT: &str = "NOT (games.engine_level IS NOT NULL AND EXISTS (\
     SELECT 1 FROM game_seats s JOIN members m ON m.user_id = s.user_id \
     AND m.guild_id = games.guild_id WHERE s.game_id = games.game_id \
     AND s.seat = games.to_act_seat AND m.is_bot = 1))";

/// The same failure for each of `n` moves.
fn every_failed(n: usize, e: StorageError) -> Vec<Result<(), AppendError>> {
    (0..n)
        .map(|_| Err(AppendError::Storage(e.clone())))
        .collect()
}

/// The answer of a move whose commit task died (a panic, or the runtime shutting down).
fn outcome_unknown() -> AppendError {
    AppendError::Storage(StorageError {
        kind: StorageErrorKind::Other,
        detail: "the commit was interrupted".into(),
    })
}

/// Appends one move inside a transaction: the move log's row and the game row's new
/// snapshot, refused as [`AppendError::Conflict`] when the ply was taken or the game ended.
async fn append_in(tx: &mut Tx, action: &NewAction) -> Result<(), AppendError> {
    let inserted = sqlx::query(
        "INSERT INTO moves (game_id, ply, seat, action, played_at) VALUES (?, ?, ?, ?, ?)",
    )
    .bind(action.game.0)
    .bind(i64::from(action.ply))
    .bind(i64::from(action.seat))
    .bind(&action.token)
    .bind(action.at.0)
    .execute(&mut **tx)
    .await;
    match inserted {
        Err(e) if is_unique_violation(&e) => return Err(AppendError::Conflict),
        other => {
            other.map_err(StorageError::from)?;
        }
    }
    let (status, result, winners, loser, finished_at) = match action.finished {
        None => ("active", None, None, None, None),
        Some(r) => (
            "finished",
            Some(r.reason.name()),
            Some(colours_to_mask(r.winners)),
            match r.reason {
                ResultReason::Resignation { seat } | ResultReason::Timeout { seat } => {
                    Some(i64::from(seat))
                }
                _ => None,
            },
            Some(action.at.0),
        ),
    };
    let updated = sqlx::query(
        "UPDATE games SET ply = ?, to_act_seat = ?, deadline = ?, sweep_lease = NULL, \
         status = ?, result = ?, winners = ?, loser_seat = ?, finished_at = ?, \
         updated_at = ? WHERE game_id = ? AND ply = ? AND status = 'active'",
    )
    .bind(i64::from(action.ply))
    .bind(action.to_act.map(i64::from))
    .bind(action.deadline.map(|t| t.0))
    .bind(status)
    .bind(result)
    .bind(winners)
    .bind(loser)
    .bind(finished_at)
    .bind(action.at.0)
    .bind(action.game.0)
    .bind(i64::from(action.ply) - 1)
    .execute(&mut **tx)
    .await
    .map_err(StorageError::from)?;
    if updated.rows_affected() != 1 {
        return Err(AppendError::Conflict);
    }
    if let Some((guild, user)) = &action.rename {
        upsert_member(tx, *guild, user, action.at)
            .await
            .map_err(StorageError::from)?;
    }
    // Every way a game ends passes here: ratings change in the same transaction (and the
    // same savepoint, when moves are committed in a batch).
    if let Some(result) = action.finished {
        // Rated or not (and why) is read back later from `rating_changes`.
        let _rated =
            ratings::rate_finished_game(tx, action.game, result.winners, action.at).await?;
        // A tournament game's board gets its result in the same transaction.
        tournaments::record_board_result(tx, action.game, result).await?;
    }
    Ok(())
}

async fn upsert_member(
    tx: &mut Tx,
    guild: GuildId,
    user: &UserInfo,
    now: Timestamp,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO members (guild_id, user_id, display_name, is_bot, updated_at) \
         VALUES (?, ?, ?, ?, ?) \
         ON CONFLICT (guild_id, user_id) DO UPDATE SET display_name = excluded.display_name, \
         is_bot = excluded.is_bot, updated_at = excluded.updated_at",
    )
    .bind(guild.to_db())
    .bind(user.id.to_db())
    .bind(&user.name)
    .bind(user.is_bot)
    .bind(now.0)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl Store {
    /// Opens (creating if missing) the database and brings its schema up to date.
    ///
    /// # Errors
    /// [`StorageError`] when the URL is wrong, the file cannot be opened, or a migration fails.
    pub async fn open(options: &StoreOptions) -> Result<Store, StorageError> {
        let mut connect = SqliteConnectOptions::from_str(&options.url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(match options.durability {
                Durability::Normal => SqliteSynchronous::Normal,
                Durability::Full => SqliteSynchronous::Full,
            })
            .busy_timeout(options.busy_timeout)
            .foreign_keys(true);
        for (key, value) in &options.pragmas {
            connect = connect.pragma(key.clone(), value.clone());
        }
        // Migrations run on a connection of their own with foreign keys off, as SQLite's
        // documented way to rebuild a table requires (a CHECK cannot be altered in place, and
        // with foreign keys on, dropping the old table would delete or orphan its children).
        // The references are checked as a whole once the schema is up to date.
        let migrating = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(connect.clone().foreign_keys(false))
            .await?;
        sqlx::migrate!("./migrations").run(&migrating).await?;
        let dangling = sqlx::query("PRAGMA foreign_key_check")
            .fetch_all(&migrating)
            .await?;
        migrating.close().await;
        if !dangling.is_empty() {
            return Err(StorageError::corrupt(format!(
                "{} rows refer to missing rows after the schema upgrade",
                dangling.len()
            )));
        }
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(connect.clone())
            .await?;
        let reader = SqlitePoolOptions::new()
            .max_connections(options.readers.max(1))
            .connect_with(connect)
            .await?;
        Ok(Store {
            writer,
            reader,
            appends: Arc::default(),
        })
    }

    /// Closes every connection (after waiting for those in use).
    pub async fn close(&self) {
        self.reader.close().await;
        self.writer.close().await;
    }

    /// Runs `PRAGMA integrity_check`: `Ok(())` when the database is sound.
    ///
    /// # Errors
    /// [`StorageErrorKind::Corrupt`] with SQLite's findings, or the failure to ask.
    pub async fn check_integrity(&self) -> Result<(), StorageError> {
        let rows = sqlx::query("PRAGMA integrity_check")
            .fetch_all(&self.reader)
            .await?;
        let lines: Vec<String> = rows
            .iter()
            .map(|r| r.try_get::<String, _>(0))
            .collect::<Result<_, _>>()?;
        if lines == ["ok"] {
            Ok(())
        } else {
            Err(StorageError::corrupt(lines.join("; ")))
        }
    }

    async fn begin_write(&self) -> Result<Tx, sqlx::Error> {
        // IMMEDIATE takes the write lock at once (waiting in the busy handler), so a
        // transaction that reads before it writes can never fail half-way on a snapshot
        // that another process has moved past.
        self.writer.begin_with("BEGIN IMMEDIATE").await
    }

    // ----- guild settings, preferences, names -------------------------------------------

    /// A guild's settings, if it ever saved any.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn guild_settings(
        &self,
        guild: GuildId,
    ) -> Result<Option<GuildSettings>, StorageError> {
        let row = sqlx::query(
            "SELECT default_rules, days_per_move, minutes_per_move, thread_per_game, locale \
             FROM guild_settings WHERE guild_id = ?",
        )
        .bind(guild.to_db())
        .fetch_optional(&self.reader)
        .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(GuildSettings {
            default_rules: rules_from(row.try_get("default_rules")?)?,
            default_time: time_from(&row)?,
            thread_per_game: row.try_get("thread_per_game")?,
            locale: row.try_get("locale")?,
        }))
    }

    /// Saves a guild's settings.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn put_guild_settings(
        &self,
        guild: GuildId,
        settings: &GuildSettings,
        now: Timestamp,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "INSERT INTO guild_settings \
             (guild_id, default_rules, days_per_move, thread_per_game, locale, updated_at, \
             minutes_per_move) VALUES (?, ?, ?, ?, ?, ?, ?) \
             ON CONFLICT (guild_id) DO UPDATE SET default_rules = excluded.default_rules, \
             days_per_move = excluded.days_per_move, thread_per_game = excluded.thread_per_game, \
             minutes_per_move = excluded.minutes_per_move, \
             locale = excluded.locale, updated_at = excluded.updated_at",
        )
        .bind(guild.to_db())
        .bind(settings.default_rules.to_spec())
        .bind(settings.default_time.to_db())
        .bind(settings.thread_per_game)
        .bind(&settings.locale)
        .bind(now.0)
        .bind(settings.default_time.minutes_to_db())
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// A user's preferences, if they ever saved any.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn preferences(&self, user: UserId) -> Result<Option<Preferences>, StorageError> {
        let row = sqlx::query(
            "SELECT confirm_move, highlight_last_move, show_coordinates, language, notify \
             FROM user_preferences WHERE user_id = ?",
        )
        .bind(user.to_db())
        .fetch_optional(&self.reader)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let notify: String = row.try_get("notify")?;
        Ok(Some(Preferences {
            confirm_move: row.try_get("confirm_move")?,
            highlight_last_move: row.try_get("highlight_last_move")?,
            show_coordinates: row.try_get("show_coordinates")?,
            language: row.try_get("language")?,
            notify: Notify::parse(&notify)
                .ok_or_else(|| StorageError::corrupt(format!("notify `{notify}`")))?,
        }))
    }

    /// Saves a user's preferences.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn put_preferences(
        &self,
        user: UserId,
        prefs: &Preferences,
        now: Timestamp,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "INSERT INTO user_preferences (user_id, confirm_move, highlight_last_move, \
             show_coordinates, language, notify, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) \
             ON CONFLICT (user_id) DO UPDATE SET confirm_move = excluded.confirm_move, \
             highlight_last_move = excluded.highlight_last_move, \
             show_coordinates = excluded.show_coordinates, language = excluded.language, \
             notify = excluded.notify, updated_at = excluded.updated_at",
        )
        .bind(user.to_db())
        .bind(prefs.confirm_move)
        .bind(prefs.highlight_last_move)
        .bind(prefs.show_coordinates)
        .bind(&prefs.language)
        .bind(prefs.notify.name())
        .bind(now.0)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Remembers the names members go by in a guild.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn remember_members(
        &self,
        guild: GuildId,
        users: &[&UserInfo],
        now: Timestamp,
    ) -> Result<(), StorageError> {
        let mut tx = self.begin_write().await?;
        for user in users {
            upsert_member(&mut tx, guild, user, now).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The last known display name of a member.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn member_name(
        &self,
        guild: GuildId,
        user: UserId,
    ) -> Result<Option<String>, StorageError> {
        Ok(
            sqlx::query("SELECT display_name FROM members WHERE guild_id = ? AND user_id = ?")
                .bind(guild.to_db())
                .bind(user.to_db())
                .fetch_optional(&self.reader)
                .await?
                .map(|r| r.try_get("display_name"))
                .transpose()?,
        )
    }

    // ----- challenges and lobbies -------------------------------------------------------

    /// Records a new challenge or lobby, with its challenger as first member.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn insert_challenge(&self, new: &NewChallenge) -> Result<Challenge, StorageError> {
        let mut tx = self.begin_write().await?;
        let id: i64 = sqlx::query(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, rules, \
             players, days_per_move, rated, status, seats_taken, created_at, expires_at, \
             minutes_per_move) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', 1, ?, ?, ?) RETURNING challenge_id",
        )
        .bind(new.guild.to_db())
        .bind(new.channel.to_db())
        .bind(new.challenger.id.to_db())
        .bind(new.opponent.as_ref().map(|o| o.id.to_db()))
        .bind(new.rules.to_spec())
        .bind(i64::from(new.rules.players))
        .bind(new.time.to_db())
        .bind(new.rated)
        .bind(new.now.0)
        .bind(new.expires_at.0)
        .bind(new.time.minutes_to_db())
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        sqlx::query(
            "INSERT INTO challenge_members (challenge_id, user_id, position, joined_at) \
             VALUES (?, ?, 1, ?)",
        )
        .bind(id)
        .bind(new.challenger.id.to_db())
        .bind(new.now.0)
        .execute(&mut *tx)
        .await?;
        upsert_member(&mut tx, new.guild, &new.challenger, new.now).await?;
        if let Some(opponent) = &new.opponent {
            upsert_member(&mut tx, new.guild, opponent, new.now).await?;
        }
        tx.commit().await?;
        self.challenge(ChallengeId(id))
            .await?
            .ok_or_else(|| StorageError::corrupt(format!("challenge {id} vanished")))
    }

    /// A challenge by number.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn challenge(&self, id: ChallengeId) -> Result<Option<Challenge>, StorageError> {
        let mut tx = self.reader.begin().await?;
        let row = sqlx::query(&format!(
            "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE challenge_id = ?"
        ))
        .bind(id.0)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let members = sqlx::query(
            "SELECT user_id FROM challenge_members WHERE challenge_id = ? \
             ORDER BY position, joined_at, user_id",
        )
        .bind(id.0)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| r.try_get::<i64, _>(0).map(UserId::from_db))
        .collect::<Result<Vec<_>, _>>()?;
        tx.commit().await?;
        challenge_from(&row, members).map(Some)
    }

    /// Records the message that shows a challenge. `false` if there is no such challenge.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn set_challenge_message(
        &self,
        id: ChallengeId,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<bool, StorageError> {
        let done = sqlx::query(
            "UPDATE challenges SET message_channel_id = ?, message_id = ? WHERE challenge_id = ?",
        )
        .bind(channel.to_db())
        .bind(message.to_db())
        .bind(id.0)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Closes an open challenge as declined, cancelled or expired. `false` when it was not
    /// open (someone else closed or accepted it first).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn close_challenge(
        &self,
        id: ChallengeId,
        status: ChallengeStatus,
        by: Option<UserId>,
        now: Timestamp,
    ) -> Result<bool, StorageError> {
        let done = sqlx::query(
            "UPDATE challenges SET status = ?, closed_at = ?, closed_by = ? \
             WHERE challenge_id = ? AND status = 'open'",
        )
        .bind(status.name())
        .bind(now.0)
        .bind(by.map(UserId::to_db))
        .bind(id.0)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Marks every open challenge whose time has run out as expired, and returns them.
    /// Each row is claimed by its own conditional update, so two sweepers never both
    /// report the same challenge.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn expire_challenges(
        &self,
        now: Timestamp,
    ) -> Result<Vec<ChallengeId>, StorageError> {
        let due = sqlx::query(
            "SELECT challenge_id FROM challenges WHERE status = 'open' AND expires_at <= ? \
             ORDER BY challenge_id",
        )
        .bind(now.0)
        .fetch_all(&self.reader)
        .await?;
        let mut expired = Vec::new();
        for row in due {
            let id = ChallengeId(row.try_get(0)?);
            let claimed = sqlx::query(
                "UPDATE challenges SET status = 'expired', closed_at = ? \
                 WHERE challenge_id = ? AND status = 'open' AND expires_at <= ?",
            )
            .bind(now.0)
            .bind(id.0)
            .bind(now.0)
            .execute(&self.writer)
            .await?;
            if claimed.rows_affected() == 1 {
                expired.push(id);
            }
        }
        Ok(expired)
    }

    /// Takes a seat in an open, unexpired challenge or lobby; when that fills it, starts the
    /// game with the members seated by `seat_order` (member k in joining order, the
    /// challenger first, gets seat `seat_order[k]`). For a two-player challenge to a named
    /// member, only that member gets a seat.
    ///
    /// # Errors
    /// [`StorageError`]; a `seat_order` that is not a permutation of the seats is
    /// [`StorageErrorKind::Other`] (a caller's bug, refused before anything is written).
    pub async fn take_seat(
        &self,
        id: ChallengeId,
        user: &UserInfo,
        now: Timestamp,
        seat_order: &[u8],
    ) -> Result<Seated, StorageError> {
        let mut tx = self.begin_write().await?;
        let claimed = sqlx::query(
            "UPDATE challenges SET seats_taken = seats_taken + 1 \
             WHERE challenge_id = ? AND status = 'open' AND expires_at > ? \
             AND seats_taken < players AND (opponent_id IS NULL OR opponent_id = ?) \
             RETURNING seats_taken, players, guild_id",
        )
        .bind(id.0)
        .bind(now.0)
        .bind(user.id.to_db())
        .fetch_optional(&mut *tx)
        .await?;
        let Some(claimed) = claimed else {
            return Ok(Seated::NotOpen);
        };
        let taken: i64 = claimed.try_get(0)?;
        let players: i64 = claimed.try_get(1)?;
        let guild = GuildId::from_db(claimed.try_get(2)?);
        let joined = sqlx::query(
            "INSERT INTO challenge_members (challenge_id, user_id, position, joined_at) \
             VALUES (?, ?, ?, ?)",
        )
        .bind(id.0)
        .bind(user.id.to_db())
        .bind(taken)
        .bind(now.0)
        .execute(&mut *tx)
        .await;
        match joined {
            Err(e) if is_unique_violation(&e) => return Ok(Seated::AlreadyJoined),
            other => {
                other?;
            }
        }
        upsert_member(&mut tx, guild, user, now).await?;
        if taken < players {
            tx.commit().await?;
            return Ok(Seated::Waiting);
        }
        let game = self
            .start_game(&mut tx, id, user.id, now, seat_order)
            .await?;
        tx.commit().await?;
        Ok(Seated::Started(game))
    }

    /// Inside `take_seat`'s transaction: closes the full challenge and creates its game.
    async fn start_game(
        &self,
        tx: &mut Tx,
        id: ChallengeId,
        closer: UserId,
        now: Timestamp,
        seat_order: &[u8],
    ) -> Result<GameId, StorageError> {
        let row = sqlx::query(&format!(
            "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE challenge_id = ?"
        ))
        .bind(id.0)
        .fetch_one(&mut **tx)
        .await?;
        let members = sqlx::query(
            "SELECT user_id FROM challenge_members WHERE challenge_id = ? \
             ORDER BY position, joined_at, user_id",
        )
        .bind(id.0)
        .fetch_all(&mut **tx)
        .await?
        .iter()
        .map(|r| r.try_get::<i64, _>(0).map(UserId::from_db))
        .collect::<Result<Vec<_>, _>>()?;
        let challenge = challenge_from(&row, members)?;
        let players = usize::from(challenge.rules.players);
        let mut sorted = seat_order.to_vec();
        sorted.sort_unstable();
        if challenge.members.len() != players
            || sorted != (1..=challenge.rules.players).collect::<Vec<u8>>()
        {
            return Err(StorageError {
                kind: StorageErrorKind::Other,
                detail: format!(
                    "cannot seat {} members by {seat_order:?} for {players} players",
                    challenge.members.len()
                ),
            });
        }
        sqlx::query(
            "UPDATE challenges SET status = 'accepted', closed_at = ?, closed_by = ? \
             WHERE challenge_id = ?",
        )
        .bind(now.0)
        .bind(closer.to_db())
        .bind(id.0)
        .execute(&mut **tx)
        .await?;
        let game: i64 = sqlx::query(
            "INSERT INTO games (guild_id, channel_id, challenge_id, rules, players, \
             days_per_move, rated, status, ply, to_act_seat, deadline, created_at, updated_at, \
             minutes_per_move) \
             VALUES (?, ?, ?, ?, ?, ?, ?, 'active', 0, 1, ?, ?, ?, ?) RETURNING game_id",
        )
        .bind(challenge.guild.to_db())
        .bind(challenge.channel.to_db())
        .bind(id.0)
        .bind(challenge.rules.to_spec())
        .bind(i64::from(challenge.rules.players))
        .bind(challenge.time.to_db())
        .bind(challenge.rated)
        .bind(challenge.time.deadline_after(now).map(|t| t.0))
        .bind(now.0)
        .bind(now.0)
        .bind(challenge.time.minutes_to_db())
        .fetch_one(&mut **tx)
        .await?
        .try_get(0)?;
        for (user, seat) in challenge.members.iter().zip(seat_order) {
            sqlx::query("INSERT INTO game_seats (game_id, seat, user_id) VALUES (?, ?, ?)")
                .bind(game)
                .bind(i64::from(*seat))
                .bind(user.to_db())
                .execute(&mut **tx)
                .await?;
        }
        sqlx::query("UPDATE challenges SET game_id = ? WHERE challenge_id = ?")
            .bind(game)
            .bind(id.0)
            .execute(&mut **tx)
            .await?;
        Ok(GameId(game))
    }

    /// Leaves an open lobby. `false` when the user was not in it or it is not open.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn leave_lobby(&self, id: ChallengeId, user: UserId) -> Result<bool, StorageError> {
        let mut tx = self.begin_write().await?;
        let gone = sqlx::query(
            "DELETE FROM challenge_members WHERE challenge_id = ? AND user_id = ? \
             AND EXISTS (SELECT 1 FROM challenges c WHERE c.challenge_id = ? \
             AND c.status = 'open')",
        )
        .bind(id.0)
        .bind(user.to_db())
        .bind(id.0)
        .execute(&mut *tx)
        .await?;
        if gone.rows_affected() == 0 {
            return Ok(false);
        }
        sqlx::query("UPDATE challenges SET seats_taken = seats_taken - 1 WHERE challenge_id = ?")
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Active games between two members in a guild, plus open challenges between them.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn open_games_between(
        &self,
        guild: GuildId,
        a: UserId,
        b: UserId,
        now: Timestamp,
    ) -> Result<u32, StorageError> {
        let games: i64 = sqlx::query(
            "SELECT COUNT(*) FROM games g \
             JOIN game_seats sa ON sa.game_id = g.game_id AND sa.user_id = ? \
             JOIN game_seats sb ON sb.game_id = g.game_id AND sb.user_id = ? \
             WHERE g.guild_id = ? AND g.status = 'active'",
        )
        .bind(a.to_db())
        .bind(b.to_db())
        .bind(guild.to_db())
        .fetch_one(&self.reader)
        .await?
        .try_get(0)?;
        let challenges: i64 = sqlx::query(
            "SELECT COUNT(*) FROM challenges WHERE guild_id = ? AND status = 'open' \
             AND expires_at > ? AND ((challenger_id = ? AND opponent_id = ?) \
             OR (challenger_id = ? AND opponent_id = ?))",
        )
        .bind(guild.to_db())
        .bind(now.0)
        .bind(a.to_db())
        .bind(b.to_db())
        .bind(b.to_db())
        .bind(a.to_db())
        .fetch_one(&self.reader)
        .await?
        .try_get(0)?;
        Ok(u32::try_from(games + challenges).unwrap_or(u32::MAX))
    }

    // ----- games --------------------------------------------------------------------------

    /// A game with its seats and whole move log, read in one snapshot.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn load_game(&self, id: GameId) -> Result<Option<StoredGame>, StorageError> {
        let mut tx = self.reader.begin().await?;
        let row = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games g WHERE g.game_id = ?"
        ))
        .bind(id.0)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let meta = game_meta_from(&row)?;
        let seats = sqlx::query(
            "SELECT s.seat, s.user_id, m.display_name FROM game_seats s \
             LEFT JOIN members m ON m.guild_id = ? AND m.user_id = s.user_id \
             WHERE s.game_id = ? ORDER BY s.seat",
        )
        .bind(meta.guild.to_db())
        .bind(id.0)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(seat_from)
        .collect::<Result<Vec<_>, _>>()?;
        let actions = sqlx::query(
            "SELECT ply, seat, action, played_at FROM moves WHERE game_id = ? ORDER BY ply",
        )
        .bind(id.0)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| {
            let ply: i64 = r.try_get("ply")?;
            Ok(StoredAction {
                ply: u32::try_from(ply).map_err(|_| StorageError::corrupt(format!("ply {ply}")))?,
                seat: small(r.try_get("seat")?, "seat")?,
                token: r.try_get("action")?,
                at: Timestamp(r.try_get("played_at")?),
            })
        })
        .collect::<Result<Vec<_>, StorageError>>()?;
        tx.commit().await?;
        Ok(Some(StoredGame {
            meta,
            seats,
            actions,
        }))
    }

    /// The number of actions in a game's log (from the row's snapshot).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn game_ply(&self, id: GameId) -> Result<Option<u32>, StorageError> {
        let row = sqlx::query("SELECT ply FROM games WHERE game_id = ?")
            .bind(id.0)
            .fetch_optional(&self.reader)
            .await?;
        row.map(|r| {
            let ply: i64 = r.try_get(0)?;
            u32::try_from(ply).map_err(|_| StorageError::corrupt(format!("ply {ply}")))
        })
        .transpose()
    }

    /// Appends one action to the move log and updates the game's row, in one transaction.
    ///
    /// Moves that wait for the writer while a commit is under way are committed together
    /// in the next transaction (a group commit), each in its own savepoint: one sync of the
    /// disk for all, and each answered only once its commit is durable.
    ///
    /// # Errors
    /// [`AppendError::Conflict`] when that ply is taken or the game is no longer active at
    /// the previous ply (nothing is written); [`AppendError::Storage`] on failure.
    pub async fn append_action(&self, action: &NewAction) -> Result<(), AppendError> {
        // Group commit: each commit waits for a sync (`synchronous=FULL`), so moves that
        // arrive while one is under way are committed together by the next, one sync for
        // all, each still answered only once it is durable.
        let (reply, mut answer) = tokio::sync::oneshot::channel();
        self.appends
            .queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((action.clone(), reply));
        let turn = tokio::select! {
            biased;
            done = &mut answer => return done.unwrap_or_else(|_| Err(outcome_unknown())),
            turn = self.appends.turn.lock() => turn,
        };
        // The commit before this turn may have taken our move.
        if let Ok(done) = answer.try_recv() {
            return done;
        }
        let batch = std::mem::take(
            &mut *self
                .appends
                .queue
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        if !batch.is_empty() {
            // In a task of its own, so that the moves of others are committed and answered
            // even if this caller goes away.
            let _ = tokio::spawn(self.clone().commit_appends(batch)).await;
        }
        drop(turn);
        answer.await.unwrap_or_else(|_| Err(outcome_unknown()))
    }

    /// Appends a batch of moves in one transaction and answers each.
    async fn commit_appends(self, batch: Vec<PendingAppend>) {
        let (actions, replies): (Vec<NewAction>, Vec<_>) = batch.into_iter().unzip();
        let results = self.append_all(&actions).await;
        for (reply, result) in replies.into_iter().zip(results) {
            // A caller that went away no longer needs its answer.
            let _ = reply.send(result);
        }
    }

    /// One transaction for all the moves; each in a savepoint, so that a move refused
    /// (another writer's ply) leaves the others in.
    async fn append_all(&self, actions: &[NewAction]) -> Vec<Result<(), AppendError>> {
        let mut tx = match self.begin_write().await {
            Ok(tx) => tx,
            Err(e) => return every_failed(actions.len(), e.into()),
        };
        let mut results = Vec::with_capacity(actions.len());
        if actions.len() == 1 {
            results.push(append_in(&mut tx, &actions[0]).await);
        } else {
            for action in actions {
                let result = match sqlx::query("SAVEPOINT append").execute(&mut *tx).await {
                    Ok(_) => append_in(&mut tx, action).await,
                    Err(e) => Err(StorageError::from(e).into()),
                };
                let undo = if result.is_ok() {
                    Ok(())
                } else {
                    sqlx::query("ROLLBACK TO append")
                        .execute(&mut *tx)
                        .await
                        .map(|_| ())
                };
                let released = match undo {
                    Ok(()) => sqlx::query("RELEASE append").execute(&mut *tx).await,
                    Err(e) => Err(e),
                };
                if let Err(e) = released {
                    // The transaction is in doubt: give it up whole.
                    return every_failed(actions.len(), e.into());
                }
                results.push(result);
            }
        }
        if results.iter().all(Result::is_err) {
            // Nothing to keep; dropping the transaction rolls it back.
            return results;
        }
        match tx.commit().await {
            Ok(()) => results,
            Err(e) => every_failed(actions.len(), e.into()),
        }
    }

    /// Records the game's own thread. `false` if there is no such game.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn set_game_thread(
        &self,
        id: GameId,
        thread: ChannelId,
    ) -> Result<bool, StorageError> {
        let done = sqlx::query("UPDATE games SET thread_id = ? WHERE game_id = ?")
            .bind(thread.to_db())
            .bind(id.0)
            .execute(&self.writer)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records the last board message posted for a game. `false` if there is no such game.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn set_board_message(
        &self,
        id: GameId,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<bool, StorageError> {
        let done = sqlx::query(
            "UPDATE games SET board_channel_id = ?, board_message_id = ? WHERE game_id = ?",
        )
        .bind(channel.to_db())
        .bind(message.to_db())
        .bind(id.0)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// A member's active games in a guild, with their seats (no move logs).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn active_games_of(
        &self,
        guild: GuildId,
        user: UserId,
    ) -> Result<Vec<GameListing>, StorageError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS}, s.seat, s.user_id, m.display_name \
             FROM game_seats me JOIN games g ON g.game_id = me.game_id \
             JOIN game_seats s ON s.game_id = g.game_id \
             LEFT JOIN members m ON m.guild_id = g.guild_id AND m.user_id = s.user_id \
             WHERE me.user_id = ? AND g.guild_id = ? AND g.status = 'active' \
             ORDER BY g.game_id, s.seat"
        ))
        .bind(user.to_db())
        .bind(guild.to_db())
        .fetch_all(&self.reader)
        .await?;
        let mut out: Vec<GameListing> = Vec::new();
        for row in &rows {
            let id = GameId(row.try_get("game_id")?);
            let seat = seat_from(row)?;
            match out.last_mut() {
                Some(last) if last.meta.id == id => last.seats.push(seat),
                _ => out.push(GameListing {
                    meta: game_meta_from(row)?,
                    seats: vec![seat],
                }),
            }
        }
        Ok(out)
    }

    /// Active games in a guild whose channel or thread is `channel`; only those where
    /// `player` sits, when given.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn active_games_in_channel(
        &self,
        guild: GuildId,
        channel: ChannelId,
        player: Option<UserId>,
    ) -> Result<Vec<GameId>, StorageError> {
        let rows =
            match player {
                Some(user) => {
                    sqlx::query(
                        "SELECT g.game_id FROM games g JOIN game_seats s ON s.game_id = g.game_id \
                     WHERE g.guild_id = ? AND g.status = 'active' AND s.user_id = ? \
                     AND (g.channel_id = ? OR g.thread_id = ?) ORDER BY g.game_id",
                    )
                    .bind(guild.to_db())
                    .bind(user.to_db())
                    .bind(channel.to_db())
                    .bind(channel.to_db())
                    .fetch_all(&self.reader)
                    .await?
                }
                None => sqlx::query(
                    "SELECT g.game_id FROM games g WHERE g.guild_id = ? AND g.status = 'active' \
                     AND (g.channel_id = ? OR g.thread_id = ?) ORDER BY g.game_id",
                )
                .bind(guild.to_db())
                .bind(channel.to_db())
                .bind(channel.to_db())
                .fetch_all(&self.reader)
                .await?,
            };
        rows.iter()
            .map(|r| Ok(GameId(r.try_get(0)?)))
            .collect::<Result<_, StorageError>>()
    }

    /// Claims up to `limit` active games whose deadline has passed, for a sweep that will
    /// act on them: each row is leased until `lease_until` by a conditional update, so
    /// sweeps running at once in several processes never claim the same game. A move
    /// clears the lease (and moves the deadline). Returns the games and their deadlines.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn claim_overdue_games(
        &self,
        now: Timestamp,
        lease_until: Timestamp,
        limit: u32,
    ) -> Result<Vec<(GameId, Timestamp)>, StorageError> {
        let due = sqlx::query(&format!(
            "SELECT game_id, deadline FROM games WHERE status = 'active' AND deadline <= ? \
             AND (sweep_lease IS NULL OR sweep_lease <= ?) AND {HUMAN_TO_ACT} \
             ORDER BY deadline LIMIT ?"
        ))
        .bind(now.0)
        .bind(now.0)
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        let mut claimed = Vec::new();
        for row in due {
            let id = GameId(row.try_get(0)?);
            let deadline = Timestamp(row.try_get(1)?);
            let done = sqlx::query(
                "UPDATE games SET sweep_lease = ? WHERE game_id = ? AND status = 'active' \
                 AND deadline <= ? AND (sweep_lease IS NULL OR sweep_lease <= ?)",
            )
            .bind(lease_until.0)
            .bind(id.0)
            .bind(now.0)
            .bind(now.0)
            .execute(&self.writer)
            .await?;
            if done.rows_affected() == 1 {
                claimed.push((id, deadline));
            }
        }
        Ok(claimed)
    }
}
