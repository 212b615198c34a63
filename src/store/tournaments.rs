//! Tournaments' SQL: the tournament, its players, the boards of its rounds, and the games
//! created for them.
//!
//! Every change that must happen once is a conditional `UPDATE` (DESIGN.md section 4b):
//! joining takes a place with `entrants < max_players`, starting and advancing claim the row
//! on its `(round, revision)`, and a round's posts are claimed under a lease. A board's result
//! is written by [`record_board_result`], inside the transaction that ends its game (the same
//! place ratings change), so a finished game and its tournament result are never apart.
//!
//! New statements use `$1, $2` placeholders and portable SQL, for the PostgreSQL store.

use std::fmt;
use std::str::FromStr;

use sqlx::Row as _;

use super::model::{
    ChannelId, GameId, GameResult, GuildId, MessageId, ResultReason, TimeControl, Timestamp,
    UserId, UserInfo,
};
use super::ratings::{final_actions, stones_by_seat};
use super::rows::{flag, pair, rules_from, small, time_from};
use super::shown::Shown;
use super::{Row, StorageError, Store, Tx, is_unique_violation, upsert_member};
use crate::rules::RuleSet;
use crate::tournament::{BoardResult, Format};

/// A tournament's number, shown to users as `#3` and put into button ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TournamentId(pub i64);

impl fmt::Display for TournamentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Reads `3` or `#3`.
impl FromStr for TournamentId {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        s.strip_prefix('#').unwrap_or(s).parse().map(TournamentId)
    }
}

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TournamentStatus {
    /// Taking entries.
    Open,
    /// Rounds being played.
    Running,
    /// Every round played.
    Finished,
    /// Called off before the start.
    Cancelled,
}

impl TournamentStatus {
    /// Its name, as stored.
    pub fn name(self) -> &'static str {
        match self {
            TournamentStatus::Open => "open",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
            TournamentStatus::Cancelled => "cancelled",
        }
    }

    fn parse(s: &str) -> Option<TournamentStatus> {
        [
            TournamentStatus::Open,
            TournamentStatus::Running,
            TournamentStatus::Finished,
            TournamentStatus::Cancelled,
        ]
        .into_iter()
        .find(|t| t.name() == s)
    }
}

/// A tournament's row.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    /// Its number.
    pub id: TournamentId,
    /// Its guild.
    pub guild: GuildId,
    /// The channel it was created in (its games' threads open there).
    pub channel: ChannelId,
    /// The announcement with the Join / Leave buttons, once posted.
    pub message: Option<(ChannelId, MessageId)>,
    /// Who created it.
    pub creator: UserId,
    /// Its name.
    pub name: String,
    /// Round robin or Swiss.
    pub format: Format,
    /// The rules of its games.
    pub rules: RuleSet,
    /// The time control of its games.
    pub time: TimeControl,
    /// Whether its games are rated.
    pub rated: bool,
    /// The most players it takes.
    pub max_players: u32,
    /// Swiss rounds as asked (`None`: ceil(log2(players)) at the start).
    pub rounds: Option<u32>,
    /// Round robin: games each pair plays (1, or 2 with each in each seat).
    pub games_per_pairing: u8,
    /// Where it stands.
    pub status: TournamentStatus,
    /// Players in it now.
    pub entrants: u32,
    /// Rounds in all, fixed at the start.
    pub total_rounds: Option<u32>,
    /// The round being played: 0 before the start, `total_rounds + 1` once finished.
    pub round: u32,
    /// Changes of the field so far (joins, leaves, withdrawals).
    pub revision: i64,
    /// The last round whose start (or the final result) was posted.
    pub announced_round: u32,
    /// When it was created.
    pub created_at: Timestamp,
    /// When it started.
    pub started_at: Option<Timestamp>,
    /// When it finished.
    pub finished_at: Option<Timestamp>,
}

/// A player of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryRow {
    /// Who.
    pub user: UserId,
    /// Their last known display name in the guild.
    pub name: Option<String>,
    /// When they joined.
    pub joined_at: Timestamp,
    /// Their seed (1 = highest rated at the start), once started.
    pub seed: Option<u32>,
    /// Their server rating at the start.
    pub rating: Option<f64>,
    /// The round they withdrew in, if they did.
    pub withdrawn_round: Option<u32>,
}

/// A board of a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRow {
    /// The round, from 1.
    pub round: u32,
    /// The board, from 1.
    pub board: u32,
    /// Seat 1.
    pub first: UserId,
    /// Seat 2; `None` for a bye.
    pub second: Option<UserId>,
    /// The game played on it (none for a bye or a forfeit).
    pub game: Option<GameId>,
    /// Where that game is played: its thread, else its channel.
    pub home: Option<ChannelId>,
    /// How it ended, once it has.
    pub result: Option<BoardResult>,
}

/// A tournament with its players (in joining order) and every board so far.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTournament {
    /// The row.
    pub row: TournamentRow,
    /// The players.
    pub players: Vec<EntryRow>,
    /// The boards, by round and board.
    pub boards: Vec<BoardRow>,
}

/// A tournament about to be created.
#[derive(Clone, Debug)]
pub struct NewTournament {
    /// The guild.
    pub guild: GuildId,
    /// The channel it is created in.
    pub channel: ChannelId,
    /// Who creates it.
    pub creator: UserInfo,
    /// Its name.
    pub name: String,
    /// Its format.
    pub format: Format,
    /// Its games' rules (two players).
    pub rules: RuleSet,
    /// Its games' time control.
    pub time: TimeControl,
    /// Whether its games are rated.
    pub rated: bool,
    /// The most players.
    pub max_players: u32,
    /// Swiss rounds, if asked.
    pub rounds: Option<u32>,
    /// Round robin games per pairing.
    pub games_per_pairing: u8,
    /// When.
    pub now: Timestamp,
}

/// What became of an attempt to join.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joined {
    /// In.
    Joined,
    /// Already in it.
    AlreadyJoined,
    /// Not open, or full (read it again to know which).
    NotOpen,
}

/// A board to create: a game between two players, or (with a result) a bye or a forfeit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedBoard {
    /// Seat 1.
    pub first: UserId,
    /// Seat 2; `None` for a bye.
    pub second: Option<UserId>,
    /// Set for a bye or a forfeit (no game is created); `None` creates the game.
    pub result: Option<BoardResult>,
}

/// A player's seed and rating at the start.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Seeding {
    /// Who.
    pub user: UserId,
    /// 1 for the highest rated.
    pub seed: u32,
    /// Their rating.
    pub rating: f64,
}

/// The tournaments' table for the statement it shares with challenges and offers.
const TOURNAMENTS: Shown = Shown {
    table: "tournaments",
    key: "tournament_id",
};

const TOURNAMENT_COLUMNS: &str = "tournament_id, guild_id, channel_id, message_channel_id, \
    message_id, creator_id, name, format, rules, days_per_move, minutes_per_move, rated, \
    max_players, rounds, games_per_pairing, status, entrants, total_rounds, round, revision, \
    announced_round, created_at, started_at, finished_at";

fn count(row: &Row, column: &str) -> Result<u32, StorageError> {
    let v: i64 = row.try_get(column)?;
    u32::try_from(v).map_err(|_| StorageError::corrupt(format!("{column} {v}")))
}

fn maybe_count(row: &Row, column: &str) -> Result<Option<u32>, StorageError> {
    row.try_get::<Option<i64>, _>(column)?
        .map(|v| u32::try_from(v).map_err(|_| StorageError::corrupt(format!("{column} {v}"))))
        .transpose()
}

fn tournament_from(row: &Row) -> Result<TournamentRow, StorageError> {
    let format: String = row.try_get("format")?;
    let status: String = row.try_get("status")?;
    Ok(TournamentRow {
        id: TournamentId(row.try_get("tournament_id")?),
        guild: GuildId::from_db(row.try_get("guild_id")?),
        channel: ChannelId::from_db(row.try_get("channel_id")?),
        message: pair(
            row.try_get("message_channel_id")?,
            row.try_get("message_id")?,
        ),
        creator: UserId::from_db(row.try_get("creator_id")?),
        name: row.try_get("name")?,
        format: format
            .parse()
            .map_err(|e: crate::tournament::UnknownFormat| StorageError::corrupt(e.to_string()))?,
        rules: rules_from(row.try_get("rules")?)?,
        time: time_from(row)?,
        rated: flag(row, "rated")?,
        max_players: count(row, "max_players")?,
        rounds: maybe_count(row, "rounds")?,
        games_per_pairing: small(row.try_get("games_per_pairing")?, "games per pairing")?,
        status: TournamentStatus::parse(&status)
            .ok_or_else(|| StorageError::corrupt(format!("tournament status `{status}`")))?,
        entrants: count(row, "entrants")?,
        total_rounds: maybe_count(row, "total_rounds")?,
        round: count(row, "round")?,
        revision: row.try_get("revision")?,
        announced_round: count(row, "announced_round")?,
        created_at: Timestamp(row.try_get("created_at")?),
        started_at: row.try_get::<Option<i64>, _>("started_at")?.map(Timestamp),
        finished_at: row.try_get::<Option<i64>, _>("finished_at")?.map(Timestamp),
    })
}

fn board_from(row: &Row) -> Result<BoardRow, StorageError> {
    let result: Option<String> = row.try_get("result")?;
    Ok(BoardRow {
        round: count(row, "round")?,
        board: count(row, "board")?,
        first: UserId::from_db(row.try_get("first_id")?),
        second: row
            .try_get::<Option<i64>, _>("second_id")?
            .map(UserId::from_db),
        game: row.try_get::<Option<i64>, _>("game_id")?.map(GameId),
        home: row
            .try_get::<Option<i64>, _>("home")?
            .map(ChannelId::from_db),
        result: result
            .map(|r| {
                BoardResult::parse(&r)
                    .ok_or_else(|| StorageError::corrupt(format!("board result `{r}`")))
            })
            .transpose()?,
    })
}

/// Creates one game of a round inside the round's transaction: seat 1 `first`, seat 2
/// `second`, the tournament's rules and time, no challenge behind it.
async fn create_game(
    tx: &mut Tx,
    t: &TournamentRow,
    first: UserId,
    second: UserId,
    now: Timestamp,
) -> Result<GameId, StorageError> {
    let game: i64 = sqlx::query(
        "INSERT INTO games (guild_id, channel_id, challenge_id, rules, players, days_per_move, \
         rated, status, ply, to_act_seat, deadline, created_at, updated_at, minutes_per_move) \
         VALUES ($1, $2, NULL, $3, 2, $4, $5, 'active', 0, 1, $6, $7, $7, $8) \
         RETURNING game_id",
    )
    .bind(t.guild.to_db())
    .bind(t.channel.to_db())
    .bind(t.rules.to_spec())
    .bind(t.time.to_db())
    .bind(t.rated)
    .bind(t.time.deadline_after(now).map(|d| d.0))
    .bind(now.0)
    .bind(t.time.minutes_to_db())
    .fetch_one(&mut **tx)
    .await?
    .try_get(0)?;
    for (seat, user) in [(1i64, first), (2, second)] {
        sqlx::query("INSERT INTO game_seats (game_id, seat, user_id) VALUES ($1, $2, $3)")
            .bind(game)
            .bind(seat)
            .bind(user.to_db())
            .execute(&mut **tx)
            .await?;
    }
    Ok(GameId(game))
}

/// Inserts a round's boards (and the games of those without a result) inside a transaction.
async fn insert_round(
    tx: &mut Tx,
    t: &TournamentRow,
    round: u32,
    boards: &[PlannedBoard],
    now: Timestamp,
) -> Result<Vec<GameId>, StorageError> {
    let mut games = Vec::new();
    for (i, b) in boards.iter().enumerate() {
        let game = match (b.second, b.result) {
            (Some(second), None) => {
                let g = create_game(tx, t, b.first, second, now).await?;
                games.push(g);
                Some(g)
            }
            _ => None,
        };
        let result = match (b.second, b.result) {
            (None, _) => Some(BoardResult::Bye),
            (Some(_), r) => r,
        };
        sqlx::query(
            "INSERT INTO tournament_boards (tournament_id, round, board, first_id, second_id, \
             game_id, result) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(t.id.0)
        .bind(i64::from(round))
        .bind(i64::try_from(i + 1).unwrap_or(i64::MAX))
        .bind(b.first.to_db())
        .bind(b.second.map(UserId::to_db))
        .bind(game.map(|g| g.0))
        .bind(result.map(BoardResult::name))
        .execute(&mut **tx)
        .await?;
    }
    Ok(games)
}

async fn tournament_in(tx: &mut Tx, id: TournamentId) -> Result<TournamentRow, StorageError> {
    let row = sqlx::query(&format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE tournament_id = $1"
    ))
    .bind(id.0)
    .fetch_one(&mut **tx)
    .await?;
    tournament_from(&row)
}

/// Inside the transaction that ends `game` with `result`: writes the result of its tournament
/// board, if it is a tournament game. Seats are read from the game's log, so a swap opening
/// (where seat 1 may end up with either colour) is scored by seat, not by colour.
pub(super) async fn record_board_result(
    tx: &mut Tx,
    game: GameId,
    result: GameResult,
) -> Result<(), StorageError> {
    let board = sqlx::query(
        "SELECT tournament_id, round, board FROM tournament_boards \
         WHERE game_id = $1 AND result IS NULL",
    )
    .bind(game.0)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(board) = board else { return Ok(()) };
    let outcome = match result.reason {
        ResultReason::Resignation { seat } | ResultReason::Timeout { seat } => {
            if seat == 1 {
                BoardResult::SecondWon
            } else {
                BoardResult::FirstWon
            }
        }
        _ if result.winners.is_empty() => BoardResult::Draw,
        _ => {
            let rules = rules_from(
                sqlx::query_scalar::<_, String>("SELECT rules FROM games WHERE game_id = $1")
                    .bind(game.0)
                    .fetch_one(&mut **tx)
                    .await?
                    .as_str(),
            )?;
            let tokens: Vec<String> =
                sqlx::query_scalar("SELECT action FROM moves WHERE game_id = $1 ORDER BY ply")
                    .bind(game.0)
                    .fetch_all(&mut **tx)
                    .await?;
            let actions = final_actions(rules.size, tokens.iter().map(String::as_str));
            let (_, position) = stones_by_seat(rules, &actions).ok_or_else(|| {
                StorageError::corrupt(format!("game {}: the log does not replay", game.0))
            })?;
            let seats: Vec<u8> = result
                .winners
                .iter()
                .map(|c| position.seat_of_colour(c))
                .collect();
            match (seats.contains(&1), seats.contains(&2)) {
                (true, false) => BoardResult::FirstWon,
                (false, true) => BoardResult::SecondWon,
                _ => BoardResult::Draw,
            }
        }
    };
    sqlx::query(
        "UPDATE tournament_boards SET result = $1 WHERE tournament_id = $2 AND round = $3 \
         AND board = $4 AND result IS NULL",
    )
    .bind(outcome.name())
    .bind(board.try_get::<i64, _>("tournament_id")?)
    .bind(board.try_get::<i64, _>("round")?)
    .bind(board.try_get::<i64, _>("board")?)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl Store {
    /// Records a new tournament, open for entries (its creator's name is remembered).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn insert_tournament(
        &self,
        new: &NewTournament,
    ) -> Result<TournamentRow, StorageError> {
        let mut tx = self.begin_write().await?;
        let row = sqlx::query(&format!(
            "INSERT INTO tournaments (guild_id, channel_id, creator_id, name, format, rules, \
             days_per_move, minutes_per_move, rated, max_players, rounds, games_per_pairing, \
             status, entrants, round, revision, announced_round, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'open', 0, 0, 0, 0, $13) \
             RETURNING {TOURNAMENT_COLUMNS}"
        ))
        .bind(new.guild.to_db())
        .bind(new.channel.to_db())
        .bind(new.creator.id.to_db())
        .bind(&new.name)
        .bind(new.format.name())
        .bind(new.rules.to_spec())
        .bind(new.time.to_db())
        .bind(new.time.minutes_to_db())
        .bind(new.rated)
        .bind(i64::from(new.max_players))
        .bind(new.rounds.map(i64::from))
        .bind(i64::from(new.games_per_pairing))
        .bind(new.now.0)
        .fetch_one(&mut *tx)
        .await?;
        let t = tournament_from(&row)?;
        upsert_member(&mut tx, new.guild, &new.creator, new.now).await?;
        tx.commit().await?;
        Ok(t)
    }

    /// A tournament with its players and boards, read in one snapshot.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn tournament(
        &self,
        id: TournamentId,
    ) -> Result<Option<StoredTournament>, StorageError> {
        let mut tx = self.begin_read().await?;
        let row = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE tournament_id = $1"
        ))
        .bind(id.0)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let row = tournament_from(&row)?;
        let players = sqlx::query(
            "SELECT p.user_id, m.display_name, p.joined_at, p.seed, p.rating, \
             p.withdrawn_round FROM tournament_players p \
             LEFT JOIN members m ON m.guild_id = $1 AND m.user_id = p.user_id \
             WHERE p.tournament_id = $2 ORDER BY p.joined_at, p.user_id",
        )
        .bind(row.guild.to_db())
        .bind(id.0)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| {
            Ok(EntryRow {
                user: UserId::from_db(r.try_get("user_id")?),
                name: r.try_get("display_name")?,
                joined_at: Timestamp(r.try_get("joined_at")?),
                seed: maybe_count(r, "seed")?,
                rating: r.try_get("rating")?,
                withdrawn_round: maybe_count(r, "withdrawn_round")?,
            })
        })
        .collect::<Result<Vec<_>, StorageError>>()?;
        let boards = sqlx::query(
            "SELECT b.round, b.board, b.first_id, b.second_id, b.game_id, b.result, \
             COALESCE(g.thread_id, g.channel_id) AS home FROM tournament_boards b \
             LEFT JOIN games g ON g.game_id = b.game_id \
             WHERE b.tournament_id = $1 ORDER BY b.round, b.board",
        )
        .bind(id.0)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(board_from)
        .collect::<Result<Vec<_>, _>>()?;
        tx.commit().await?;
        Ok(Some(StoredTournament {
            row,
            players,
            boards,
        }))
    }

    /// A guild's tournaments, newest first; finished and cancelled ones only when asked.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn tournaments_of_guild(
        &self,
        guild: GuildId,
        include_over: bool,
    ) -> Result<Vec<TournamentRow>, StorageError> {
        let rows = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id = $1 \
             AND (status IN ('open', 'running') OR $2) ORDER BY tournament_id DESC LIMIT 100"
        ))
        .bind(guild.to_db())
        .bind(include_over)
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(tournament_from).collect()
    }

    /// Records the announcement message. `false` if there is no such tournament.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn set_tournament_message(
        &self,
        id: TournamentId,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<bool, StorageError> {
        self.set_shown_message(TOURNAMENTS, id.0, channel, message)
            .await
    }

    /// Adds `user` to an open tournament that has room (their name is remembered).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn join_tournament(
        &self,
        id: TournamentId,
        user: &UserInfo,
        now: Timestamp,
    ) -> Result<Joined, StorageError> {
        let mut tx = self.begin_write().await?;
        let claimed = sqlx::query(
            "UPDATE tournaments SET entrants = entrants + 1, revision = revision + 1 \
             WHERE tournament_id = $1 AND status = 'open' AND entrants < max_players \
             RETURNING guild_id",
        )
        .bind(id.0)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(claimed) = claimed else {
            return Ok(Joined::NotOpen);
        };
        let guild = GuildId::from_db(claimed.try_get(0)?);
        let inserted = sqlx::query(
            "INSERT INTO tournament_players (tournament_id, user_id, joined_at) \
             VALUES ($1, $2, $3)",
        )
        .bind(id.0)
        .bind(user.id.to_db())
        .bind(now.0)
        .execute(&mut *tx)
        .await;
        match inserted {
            Err(e) if is_unique_violation(&e) => return Ok(Joined::AlreadyJoined),
            other => {
                other?;
            }
        }
        upsert_member(&mut tx, guild, user, now).await?;
        tx.commit().await?;
        Ok(Joined::Joined)
    }

    /// Takes `user` out of an open tournament. `false` when they were not in it or it is no
    /// longer open.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn leave_tournament(
        &self,
        id: TournamentId,
        user: UserId,
    ) -> Result<bool, StorageError> {
        let mut tx = self.begin_write().await?;
        let gone = sqlx::query(
            "DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2 \
             AND EXISTS (SELECT 1 FROM tournaments t WHERE t.tournament_id = $1 \
             AND t.status = 'open')",
        )
        .bind(id.0)
        .bind(user.to_db())
        .execute(&mut *tx)
        .await?;
        if gone.rows_affected() == 0 {
            return Ok(false);
        }
        sqlx::query(
            "UPDATE tournaments SET entrants = entrants - 1, revision = revision + 1 \
             WHERE tournament_id = $1",
        )
        .bind(id.0)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Cancels an open tournament. `false` when it is not open (started, or cancelled already).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn cancel_tournament(
        &self,
        id: TournamentId,
        now: Timestamp,
    ) -> Result<bool, StorageError> {
        let done = sqlx::query(
            "UPDATE tournaments SET status = 'cancelled', finished_at = $1, \
             revision = revision + 1 WHERE tournament_id = $2 AND status = 'open'",
        )
        .bind(now.0)
        .bind(id.0)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Marks `user` as withdrawn from a running tournament in `round`. `false` when they are
    /// not in it, already withdrew, or it is not running.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn withdraw_from_tournament(
        &self,
        id: TournamentId,
        user: UserId,
        round: u32,
    ) -> Result<bool, StorageError> {
        let mut tx = self.begin_write().await?;
        let bumped = sqlx::query(
            "UPDATE tournaments SET revision = revision + 1 \
             WHERE tournament_id = $1 AND status = 'running'",
        )
        .bind(id.0)
        .execute(&mut *tx)
        .await?;
        if bumped.rows_affected() != 1 {
            return Ok(false);
        }
        let done = sqlx::query(
            "UPDATE tournament_players SET withdrawn_round = $1 WHERE tournament_id = $2 \
             AND user_id = $3 AND withdrawn_round IS NULL",
        )
        .bind(i64::from(round))
        .bind(id.0)
        .bind(user.to_db())
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Server ratings in `family` of the players of a tournament (missing: never rated).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn tournament_ratings(
        &self,
        id: TournamentId,
        guild: GuildId,
        family: super::Family,
    ) -> Result<Vec<(UserId, Option<f64>)>, StorageError> {
        let rows = sqlx::query(
            "SELECT p.user_id, r.rating FROM tournament_players p \
             LEFT JOIN ratings r ON r.scope = $1 AND r.family = $2 AND r.user_id = p.user_id \
             WHERE p.tournament_id = $3 ORDER BY p.user_id",
        )
        .bind(guild.to_db())
        .bind(family.name())
        .bind(id.0)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    UserId::from_db(r.try_get("user_id")?),
                    r.try_get::<Option<f64>, _>("rating")?,
                ))
            })
            .collect()
    }

    /// Starts an open tournament whose field is still at `revision`: closes entries, records
    /// seeds, and creates round 1 (its boards and games) in one transaction. `None` when the
    /// field changed or someone else started it first (nothing is written). With
    /// `owes_post`, round 1's post is owed through the outbox in the same transaction.
    ///
    /// # Errors
    /// [`StorageError`].
    #[allow(clippy::too_many_arguments)]
    pub async fn start_tournament(
        &self,
        id: TournamentId,
        revision: i64,
        total_rounds: u32,
        seeds: &[Seeding],
        round_one: &[PlannedBoard],
        now: Timestamp,
        owes_post: bool,
    ) -> Result<Option<Vec<GameId>>, StorageError> {
        let mut tx = self.begin_write().await?;
        let claimed = sqlx::query(
            "UPDATE tournaments SET status = 'running', round = 1, revision = revision + 1, \
             total_rounds = $1, started_at = $2 \
             WHERE tournament_id = $3 AND status = 'open' AND revision = $4",
        )
        .bind(i64::from(total_rounds))
        .bind(now.0)
        .bind(id.0)
        .bind(revision)
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() != 1 {
            return Ok(None);
        }
        for s in seeds {
            sqlx::query(
                "UPDATE tournament_players SET seed = $1, rating = $2 \
                 WHERE tournament_id = $3 AND user_id = $4",
            )
            .bind(i64::from(s.seed))
            .bind(s.rating)
            .bind(id.0)
            .bind(s.user.to_db())
            .execute(&mut *tx)
            .await?;
        }
        let t = tournament_in(&mut tx, id).await?;
        let games = insert_round(&mut tx, &t, 1, round_one, now).await?;
        if owes_post {
            super::outbox_notices::owe_tournament_round(&mut tx, &self.appends.boot, id, 1, now)
                .await?;
        }
        tx.commit().await?;
        Ok(Some(games))
    }

    /// Moves a running tournament from `from_round` (every board of which has a result) to
    /// the next round with `next`'s boards, or, when `next` is `None`, finishes it; all in one
    /// transaction, claimed on `(round, revision)`, so of several processes (or a restart)
    /// exactly one advances each round. `None` when the claim was lost or a board of
    /// `from_round` is still being played (nothing is written). With `owes_post`, the new
    /// round's post (or the final result's) is owed through the outbox in the same transaction.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn advance_tournament(
        &self,
        id: TournamentId,
        from_round: u32,
        revision: i64,
        next: Option<&[PlannedBoard]>,
        now: Timestamp,
        owes_post: bool,
    ) -> Result<Option<Vec<GameId>>, StorageError> {
        let mut tx = self.begin_write().await?;
        let open: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM tournament_boards WHERE tournament_id = $1 AND round = $2 \
             AND result IS NULL",
        )
        .bind(id.0)
        .bind(i64::from(from_round))
        .fetch_one(&mut *tx)
        .await?;
        if open > 0 {
            return Ok(None);
        }
        let finish = next.is_none();
        let claimed = sqlx::query(
            "UPDATE tournaments SET round = round + 1, revision = revision + 1, \
             status = CASE WHEN $1 THEN 'finished' ELSE status END, \
             finished_at = CASE WHEN $1 THEN $2 ELSE finished_at END \
             WHERE tournament_id = $3 AND status = 'running' AND round = $4 AND revision = $5",
        )
        .bind(finish)
        .bind(now.0)
        .bind(id.0)
        .bind(i64::from(from_round))
        .bind(revision)
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() != 1 {
            return Ok(None);
        }
        let games = match next {
            Some(boards) => {
                let t = tournament_in(&mut tx, id).await?;
                insert_round(&mut tx, &t, from_round + 1, boards, now).await?
            }
            None => Vec::new(),
        };
        if owes_post {
            super::outbox_notices::owe_tournament_round(
                &mut tx,
                &self.appends.boot,
                id,
                from_round + 1,
                now,
            )
            .await?;
        }
        tx.commit().await?;
        Ok(Some(games))
    }

    /// Running tournaments whose current round has no board left to play: `(id, round,
    /// revision)`.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn tournaments_to_advance(
        &self,
    ) -> Result<Vec<(TournamentId, u32, i64)>, StorageError> {
        let rows = sqlx::query(
            "SELECT t.tournament_id, t.round, t.revision FROM tournaments t \
             WHERE t.status = 'running' AND NOT EXISTS (SELECT 1 FROM tournament_boards b \
             WHERE b.tournament_id = t.tournament_id AND b.round = t.round \
             AND b.result IS NULL) ORDER BY t.tournament_id",
        )
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    TournamentId(r.try_get("tournament_id")?),
                    count(r, "round")?,
                    r.try_get("revision")?,
                ))
            })
            .collect()
    }

    /// The tournament a game is played for, if any.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn tournament_of_game(
        &self,
        game: GameId,
    ) -> Result<Option<TournamentId>, StorageError> {
        Ok(sqlx::query_scalar::<_, i64>(
            "SELECT tournament_id FROM tournament_boards WHERE game_id = $1",
        )
        .bind(game.0)
        .fetch_optional(&self.reader)
        .await?
        .map(TournamentId))
    }

    /// Claims, until `lease_until`, the posting of the rounds started (or results reached)
    /// but not yet posted, of `only` or of every tournament: `(id, round)` pairs. Two
    /// claimers never get the same tournament while the lease runs.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn claim_announcements(
        &self,
        only: Option<TournamentId>,
        now: Timestamp,
        lease_until: Timestamp,
    ) -> Result<Vec<(TournamentId, u32)>, StorageError> {
        // A round owed through the outbox is the poster's (issue 16).
        let due_text = format!(
            "SELECT tournament_id, round FROM tournaments t \
             WHERE status IN ('running', 'finished') AND announced_round < round \
             AND (announce_lease IS NULL OR announce_lease <= $1) AND NOT EXISTS \
             (SELECT 1 FROM outbox o WHERE o.state = 'pending' AND o.kind = 'tournament' \
             AND o.game_id = -({} + t.tournament_id))",
            super::outbox_notices::TOURNAMENT_QUEUES
        );
        let due_text = due_text.as_str();
        let due = match only {
            Some(id) => {
                sqlx::query(&format!("{due_text} AND tournament_id = $2"))
                    .bind(now.0)
                    .bind(id.0)
                    .fetch_all(&self.reader)
                    .await?
            }
            None => {
                sqlx::query(&format!("{due_text} ORDER BY tournament_id"))
                    .bind(now.0)
                    .fetch_all(&self.reader)
                    .await?
            }
        };
        let mut claimed = Vec::new();
        for row in due {
            let id = TournamentId(row.try_get("tournament_id")?);
            let round = count(&row, "round")?;
            let done = sqlx::query(
                "UPDATE tournaments SET announce_lease = $1 WHERE tournament_id = $2 \
                 AND round = $3 AND announced_round < round \
                 AND (announce_lease IS NULL OR announce_lease <= $4)",
            )
            .bind(lease_until.0)
            .bind(id.0)
            .bind(i64::from(round))
            .bind(now.0)
            .execute(&self.writer)
            .await?;
            if done.rows_affected() == 1 {
                claimed.push((id, round));
            }
        }
        Ok(claimed)
    }

    /// Records that `round` of a tournament was posted, and releases the lease.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn mark_announced(&self, id: TournamentId, round: u32) -> Result<(), StorageError> {
        sqlx::query(
            "UPDATE tournaments SET announced_round = $1, announce_lease = NULL \
             WHERE tournament_id = $2 AND announced_round < $1",
        )
        .bind(i64::from(round))
        .bind(id.0)
        .execute(&self.writer)
        .await?;
        Ok(())
    }
}
