//! Glicko-2 ratings: who is rated for what, the update when a game finishes, and the queries
//! behind leaderboards, rating cards and histories.
//!
//! # When a game changes ratings
//! Only a finished game that is rated, has two players, no bot (engine) seat, and at least
//! [`MIN_STONES_EACH`] stones placed by each player in its final record (taken-back moves do
//! not count). Draws (full board, agreed draw, a shared victory) score half a point;
//! resignation and timeout lose.
//!
//! # Where it happens
//! In [`Store::append_action`](super::Store::append_action), inside the transaction that
//! finishes the game, so every way a game can end (a winning move, resignation, timeout, an
//! agreed draw) updates ratings exactly once and atomically with the result: a crash either
//! keeps both or neither.
//!
//! # The computation
//! Each game is a rating period of its own (skillratings' `glicko2`, tau 0.5), applied twice:
//! to the players' ratings in the game's server and to their ratings across all servers
//! (scope 0). Deviations do not grow with inactivity.

use std::fmt;
use std::str::FromStr;

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use sqlx::Row as _;

use super::rows::{flag, rules_from, small};
use super::{GameId, GuildId, Row, StorageError, Store, Timestamp, Tx, UserId};
use crate::rules::{Action, Captures, Colours, Game, Preset, RuleSet};

/// Stones each player must have placed for a game to change ratings (6 moves per player).
pub const MIN_STONES_EACH: u32 = 6;

/// The rating a player starts from (Glicko-2's defaults).
pub const START_RATING: f64 = 1500.0;

/// The rating family of a rule set: ratings are kept apart per family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Freestyle Gomoku: no captures, longer rows win.
    Gomoku,
    /// Standard Gomoku: no captures, exactly `line` stones win.
    GomokuStandard,
    /// Pente: pairs are captured.
    Pente,
    /// Keryo-Pente: pairs and triples are captured.
    Keryo,
    /// Renju: black's forbidden points make it a game of its own.
    Renju,
}

/// Why a text is not a family.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a game family (expected gomoku, gomoku-standard, pente, keryo or renju)")]
pub struct UnknownFamily(pub String);

impl Family {
    /// Every family, in menu order.
    pub const ALL: [Family; 5] = [
        Family::Gomoku,
        Family::GomokuStandard,
        Family::Pente,
        Family::Keryo,
        Family::Renju,
    ];

    /// The family a rule set is rated in.
    ///
    /// What decides it is what changes the game's character most: whether stones can be
    /// captured (none, pairs, pairs and triples) and, without captures, whether an overline
    /// wins. A customised rule set is rated with the preset it plays like, not the one it
    /// was made from: `gomoku captures=pairs` is rated as Pente and `pente captures=none` as
    /// Gomoku. Board size, opening, row length, capture target and the other options are
    /// variants inside a family. Renju (whatever its opening) is a family of its own.
    pub fn of(rules: &RuleSet) -> Family {
        if rules.is_renju() {
            return Family::Renju;
        }
        match rules.captures {
            Captures::None if rules.overline_wins => Family::Gomoku,
            Captures::None => Family::GomokuStandard,
            Captures::Pairs => Family::Pente,
            Captures::PairsAndTriples => Family::Keryo,
        }
    }

    /// The family named after a preset.
    pub fn of_preset(preset: Preset) -> Family {
        match preset {
            Preset::Gomoku => Family::Gomoku,
            Preset::GomokuStandard => Family::GomokuStandard,
            Preset::Pente => Family::Pente,
            Preset::Keryo => Family::Keryo,
            Preset::Renju => Family::Renju,
        }
    }

    /// Its name, as stored and put into button ids (the preset's name).
    pub fn name(self) -> &'static str {
        match self {
            Family::Gomoku => "gomoku",
            Family::GomokuStandard => "gomoku-standard",
            Family::Pente => "pente",
            Family::Keryo => "keryo",
            Family::Renju => "renju",
        }
    }

    /// The preset of the same name (for its localised name).
    pub fn preset(self) -> Preset {
        match self {
            Family::Gomoku => Preset::Gomoku,
            Family::GomokuStandard => Preset::GomokuStandard,
            Family::Pente => Preset::Pente,
            Family::Keryo => Preset::Keryo,
            Family::Renju => Preset::Renju,
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Family {
    type Err = UnknownFamily;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Family::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownFamily(s.to_string()))
    }
}

/// Where a rating counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// In one server.
    Server(GuildId),
    /// Across all servers.
    Global,
}

impl Scope {
    fn to_db(self) -> i64 {
        match self {
            Scope::Server(g) => g.to_db(),
            Scope::Global => 0,
        }
    }
}

/// A player's rating in one family and scope.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The family.
    pub family: Family,
    /// The rating (1500 to start).
    pub rating: f64,
    /// Its deviation (350 to start; lower is surer).
    pub deviation: f64,
    /// Glicko-2's volatility.
    pub volatility: f64,
    /// Rated games played.
    pub games: u32,
    /// Of which won.
    pub wins: u32,
    /// Lost.
    pub losses: u32,
    /// Drawn.
    pub draws: u32,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked {
    /// 1 for the best.
    pub rank: u32,
    /// Who.
    pub user: UserId,
    /// Their last known display name in the server.
    pub name: Option<String>,
    /// Their rating.
    pub rating: Rating,
}

/// What one rated game did to one player's ratings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    /// The family it was rated in.
    pub family: Family,
    /// 1 won, 0.5 drawn, 0 lost.
    pub score: f64,
    /// The server rating before and after.
    pub server: (f64, f64),
    /// The rating across all servers before and after.
    pub global: (f64, f64),
}

/// Why a finished game left ratings alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unrated {
    /// It was played as unrated.
    NotRated,
    /// It had 3 or 4 players.
    Multiplayer,
    /// A seat is a bot (the engine).
    AgainstBot,
    /// A player placed fewer than [`MIN_STONES_EACH`] stones.
    TooShort {
        /// The fewest stones a player placed.
        fewest: u32,
    },
    /// The move log cannot be replayed, or the update gave no finite rating: nothing is
    /// rated rather than something wrong (the result itself still stands).
    Unreadable,
}

/// A game that changes ratings: the two players and seat 1's score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedOutcome {
    /// The family.
    pub family: Family,
    /// Seat 1's player, then seat 2's.
    pub players: [UserId; 2],
    /// Seat 1's score: 1, 0.5 or 0.
    pub score: f64,
}

/// The move log's tokens as the final record of actions: a take-back row `undo:N` removes
/// the N actions before it (as the service logs accepted take-backs in the append-only move
/// log), and meta rows (`resign`, `draw`, any other word that is not an action) are skipped.
pub fn final_actions<'a>(size: u8, tokens: impl IntoIterator<Item = &'a str>) -> Vec<Action> {
    let mut actions = Vec::new();
    for token in tokens {
        if let Some(n) = undo_count(token) {
            actions.truncate(actions.len().saturating_sub(n));
        } else if let Ok(a) = Action::parse(token, size) {
            actions.push(a);
        }
    }
    actions
}

/// How many actions a move-log row `undo:N` takes back (`None` for other rows).
fn undo_count(token: &str) -> Option<usize> {
    token.trim().strip_prefix(UNDO_PREFIX)?.parse().ok()
}

/// How a take-back row of the move log starts (`undo:2` takes back two actions).
pub const UNDO_PREFIX: &str = "undo:";

/// Stones placed by each seat (index 0 for seat 1) when `actions` are played from the start,
/// and the game they lead to; `None` if the record is not legal.
pub fn stones_by_seat(rules: RuleSet, actions: &[Action]) -> Option<([u32; 4], Game)> {
    let mut game = Game::new(rules);
    let mut placed = [0u32; 4];
    for &action in actions {
        let seat = game.seat_to_act()?;
        if matches!(action, Action::Place(_)) {
            placed[usize::from(seat.checked_sub(1)?).min(3)] += 1;
        }
        game.apply(action).ok()?;
    }
    Some((placed, game))
}

/// Decides whether and how a finished game is rated (pure: the store's update and the
/// tests share it).
///
/// `seats` are `(seat, user, is_bot)`, `tokens` the move log in order, `winners` the
/// result's winning colours.
///
/// # Errors
/// Why the game leaves ratings alone.
pub fn rated_outcome<'a>(
    rules: RuleSet,
    rated: bool,
    seats: &[(u8, UserId, bool)],
    tokens: impl IntoIterator<Item = &'a str>,
    winners: Colours,
) -> Result<RatedOutcome, Unrated> {
    if !rated {
        return Err(Unrated::NotRated);
    }
    if rules.players != 2 || seats.len() != 2 {
        return Err(Unrated::Multiplayer);
    }
    if seats.iter().any(|s| s.2) {
        return Err(Unrated::AgainstBot);
    }
    let actions = final_actions(rules.size, tokens);
    let (placed, game) = stones_by_seat(rules, &actions).ok_or(Unrated::Unreadable)?;
    let fewest = placed[0].min(placed[1]);
    if fewest < MIN_STONES_EACH {
        return Err(Unrated::TooShort { fewest });
    }
    let user_of = |seat: u8| seats.iter().find(|s| s.0 == seat).map(|s| s.1);
    let (Some(one), Some(two)) = (user_of(1), user_of(2)) else {
        return Err(Unrated::Multiplayer);
    };
    let seat1_won = winners.iter().any(|c| game.seat_of_colour(c) == 1);
    let seat2_won = winners.iter().any(|c| game.seat_of_colour(c) == 2);
    let score = match (seat1_won, seat2_won) {
        (true, false) => 1.0,
        (false, true) => 0.0,
        // No winner, or a shared victory: a draw.
        _ => 0.5,
    };
    Ok(RatedOutcome {
        family: Family::of(&rules),
        players: [one, two],
        score,
    })
}

/// One Glicko-2 update of two players for a game scored `score` for the first.
pub fn update_pair(first: Glicko2Rating, second: Glicko2Rating, score: f64) -> [Glicko2Rating; 2] {
    let outcome = if score > 0.75 {
        Outcomes::WIN
    } else if score < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let (a, b) = glicko2(&first, &second, &outcome, &Glicko2Config::new());
    [a, b]
}

fn rating_from(row: &Row) -> Result<Rating, StorageError> {
    let family: String = row.try_get("family")?;
    let count = |k: &str| -> Result<u32, StorageError> {
        let v: i64 = row.try_get(k)?;
        u32::try_from(v).map_err(|_| StorageError::corrupt(format!("{k} {v}")))
    };
    Ok(Rating {
        family: family
            .parse()
            .map_err(|e: UnknownFamily| StorageError::corrupt(e.to_string()))?,
        rating: row.try_get("rating")?,
        deviation: row.try_get("deviation")?,
        volatility: row.try_get("volatility")?,
        games: count("games")?,
        wins: count("wins")?,
        losses: count("losses")?,
        draws: count("draws")?,
    })
}

const RATING_COLUMNS: &str =
    "r.family, r.rating, r.deviation, r.volatility, r.games, r.wins, r.losses, r.draws";

/// On PostgreSQL, locks the ratings of the players of every game in `ending` until the
/// transaction ends: two games ending at once in two transactions would otherwise both read
/// a player's old rating and one update would be lost. (SQLite has one writer at a time.)
///
/// The locks are advisory, so they hold for ratings not written yet. They are taken for all
/// of a transaction's endings at once, before anything else in it, and in one order (by
/// key): a group commit ends several games in one transaction, and taking each game's locks
/// as its move came up would let two lanes' transactions (or two processes') each hold one
/// game's players and wait for the other's, which PostgreSQL ends as a deadlock, a "busy"
/// refusal of a move that did nothing wrong. Sorted, and with no other lock held yet, no
/// transaction waits for a lock while holding one another wants.
pub(super) async fn lock_ratings_of_endings(
    tx: &mut Tx,
    ending: &[GameId],
) -> Result<(), StorageError> {
    if ending.is_empty() || (**tx).backend_name() != "PostgreSQL" {
        return Ok(());
    }
    let mut keys = Vec::new();
    for game in ending {
        let rows = sqlx::query(
            "SELECT g.guild_id, g.rules, g.rated, s.user_id FROM games g \
             JOIN game_seats s ON s.game_id = g.game_id WHERE g.game_id = $1",
        )
        .bind(game.0)
        .fetch_all(&mut **tx)
        .await?;
        let Some(first) = rows.first() else { continue };
        // Only two-player rated games change ratings (`rate_finished_game` decides the rest
        // and may lock nothing more).
        if !flag(first, "rated")? || rows.len() != 2 {
            continue;
        }
        let guild = GuildId::from_db(first.try_get("guild_id")?);
        let family = Family::of(&rules_from(first.try_get("rules")?)?);
        for row in &rows {
            let user = UserId::from_db(row.try_get("user_id")?);
            for scope in [Scope::Server(guild), Scope::Global] {
                keys.push(rating_lock_key(scope, family, user));
            }
        }
    }
    keys.sort_unstable();
    keys.dedup();
    for key in keys {
        // Counted, not selected: the Any driver has no type for the function's `void`.
        sqlx::query("SELECT COUNT(*) FROM (SELECT pg_advisory_xact_lock($1)) AS taken")
            .bind(key)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// A rating's advisory lock number: FNV-1a of its key, the same in every process.
fn rating_lock_key(scope: Scope, family: Family, user: UserId) -> i64 {
    let text = format!(
        "rating/{}/{}/{}",
        scope.to_db(),
        family.name(),
        user.to_db()
    );
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    i64::from_ne_bytes(hash.to_ne_bytes())
}

async fn current(
    tx: &mut Tx,
    scope: Scope,
    family: Family,
    user: UserId,
) -> Result<Glicko2Rating, sqlx::Error> {
    let row = sqlx::query(
        "SELECT rating, deviation, volatility FROM ratings \
         WHERE scope = $1 AND family = $2 AND user_id = $3",
    )
    .bind(scope.to_db())
    .bind(family.name())
    .bind(user.to_db())
    .fetch_optional(&mut **tx)
    .await?;
    Ok(match row {
        Some(r) => Glicko2Rating {
            rating: r.try_get(0)?,
            deviation: r.try_get(1)?,
            volatility: r.try_get(2)?,
        },
        None => Glicko2Rating::new(),
    })
}

async fn save(
    tx: &mut Tx,
    scope: Scope,
    family: Family,
    user: UserId,
    r: Glicko2Rating,
    score: f64,
    at: Timestamp,
) -> Result<(), sqlx::Error> {
    let (w, l, d) = match score {
        s if s > 0.75 => (1, 0, 0),
        s if s < 0.25 => (0, 1, 0),
        _ => (0, 0, 1),
    };
    sqlx::query(
        "INSERT INTO ratings (scope, family, user_id, rating, deviation, volatility, games, \
         wins, losses, draws, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $9, $10) \
         ON CONFLICT (scope, family, user_id) DO UPDATE SET rating = excluded.rating, \
         deviation = excluded.deviation, volatility = excluded.volatility, \
         games = ratings.games + 1, wins = ratings.wins + excluded.wins, \
         losses = ratings.losses + excluded.losses, draws = ratings.draws + excluded.draws, \
         updated_at = excluded.updated_at",
    )
    .bind(scope.to_db())
    .bind(family.name())
    .bind(user.to_db())
    .bind(r.rating)
    .bind(r.deviation)
    .bind(r.volatility)
    .bind(w)
    .bind(l)
    .bind(d)
    .bind(at.0)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn finite(r: &Glicko2Rating) -> bool {
    r.rating.is_finite() && r.deviation.is_finite() && r.volatility.is_finite()
}

/// Inside the transaction that finishes `game` (with `winners`): updates its players'
/// ratings if the game is rated (see the module documentation), and records the change.
/// Returns why not, when it is not. The transaction must have taken the ratings' locks with
/// [`lock_ratings_of_endings`] first.
pub(super) async fn rate_finished_game(
    tx: &mut Tx,
    game: GameId,
    winners: Colours,
    at: Timestamp,
) -> Result<Result<RatedOutcome, Unrated>, StorageError> {
    let row = sqlx::query("SELECT guild_id, rules, rated FROM games WHERE game_id = $1")
        .bind(game.0)
        .fetch_one(&mut **tx)
        .await?;
    let guild = GuildId::from_db(row.try_get("guild_id")?);
    let rules = rules_from(row.try_get("rules")?)?;
    let rated = flag(&row, "rated")?;
    if !rated {
        return Ok(Err(Unrated::NotRated));
    }
    let seats = sqlx::query(
        "SELECT s.seat, s.user_id, COALESCE(m.is_bot, FALSE) AS is_bot FROM game_seats s \
         LEFT JOIN members m ON m.guild_id = $1 AND m.user_id = s.user_id \
         WHERE s.game_id = $2 ORDER BY s.seat",
    )
    .bind(guild.to_db())
    .bind(game.0)
    .fetch_all(&mut **tx)
    .await?
    .iter()
    .map(|r| {
        Ok((
            small(r.try_get("seat")?, "seat")?,
            UserId::from_db(r.try_get("user_id")?),
            flag(r, "is_bot")?,
        ))
    })
    .collect::<Result<Vec<_>, StorageError>>()?;
    let tokens: Vec<String> =
        sqlx::query_scalar("SELECT action FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(game.0)
            .fetch_all(&mut **tx)
            .await?;
    let outcome = match rated_outcome(
        rules,
        rated,
        &seats,
        tokens.iter().map(String::as_str),
        winners,
    ) {
        Ok(o) => o,
        Err(why) => return Ok(Err(why)),
    };
    let [one, two] = outcome.players;
    let family = outcome.family;
    let mut before = Vec::new();
    let mut after = Vec::new();
    for scope in [Scope::Server(guild), Scope::Global] {
        let a = current(tx, scope, family, one).await?;
        let b = current(tx, scope, family, two).await?;
        let [a2, b2] = update_pair(a, b, outcome.score);
        if !finite(&a2) || !finite(&b2) {
            // Cannot happen with ratings this module wrote; never let it block a result.
            return Ok(Err(Unrated::Unreadable));
        }
        before.push([a, b]);
        after.push([a2, b2]);
    }
    for (k, scope) in [Scope::Server(guild), Scope::Global]
        .into_iter()
        .enumerate()
    {
        save(tx, scope, family, one, after[k][0], outcome.score, at).await?;
        save(tx, scope, family, two, after[k][1], 1.0 - outcome.score, at).await?;
    }
    for (i, (user, score)) in [(one, outcome.score), (two, 1.0 - outcome.score)]
        .into_iter()
        .enumerate()
    {
        sqlx::query(
            "INSERT INTO rating_changes (game_id, user_id, family, score, server_before, \
             server_after, global_before, global_after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(game.0)
        .bind(user.to_db())
        .bind(family.name())
        .bind(score)
        .bind(before[0][i].rating)
        .bind(after[0][i].rating)
        .bind(before[1][i].rating)
        .bind(after[1][i].rating)
        .execute(&mut **tx)
        .await?;
    }
    Ok(Ok(outcome))
}

impl Store {
    /// A player's ratings in a server and across all servers, each in family order.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn ratings_of(
        &self,
        guild: GuildId,
        user: UserId,
    ) -> Result<(Vec<Rating>, Vec<Rating>), StorageError> {
        let mut out = [Vec::new(), Vec::new()];
        for (k, scope) in [Scope::Server(guild), Scope::Global]
            .into_iter()
            .enumerate()
        {
            let rows = sqlx::query(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings r WHERE r.scope = $1 AND r.user_id = $2"
            ))
            .bind(scope.to_db())
            .bind(user.to_db())
            .fetch_all(&self.reader)
            .await?;
            let mut list = rows
                .iter()
                .map(rating_from)
                .collect::<Result<Vec<_>, _>>()?;
            list.sort_by_key(|r| r.family);
            out[k] = list;
        }
        let [server, global] = out;
        Ok((server, global))
    }

    /// How many players a server's leaderboard for a family has.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn ranked_players(
        &self,
        guild: GuildId,
        family: Family,
    ) -> Result<u32, StorageError> {
        let total: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM ratings WHERE scope = $1 AND family = $2")
                .bind(Scope::Server(guild).to_db())
                .bind(family.name())
                .fetch_one(&self.reader)
                .await?;
        Ok(u32::try_from(total).unwrap_or(u32::MAX))
    }

    /// Up to `limit` players of a server's leaderboard for a family from `offset` (best
    /// first; ties by more games, then by user id).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn leaderboard(
        &self,
        guild: GuildId,
        family: Family,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<Ranked>, StorageError> {
        let rows = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS}, r.user_id, m.display_name FROM ratings r \
             LEFT JOIN members m ON m.guild_id = $1 AND m.user_id = r.user_id \
             WHERE r.scope = $2 AND r.family = $3 \
             ORDER BY r.rating DESC, r.games DESC, r.user_id LIMIT $4 OFFSET $5"
        ))
        .bind(guild.to_db())
        .bind(Scope::Server(guild).to_db())
        .bind(family.name())
        .bind(i64::from(limit))
        .bind(i64::from(offset))
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .zip(1u32..)
            .map(|(r, k)| {
                Ok(Ranked {
                    rank: offset.saturating_add(k),
                    user: UserId::from_db(r.try_get("user_id")?),
                    name: r.try_get("display_name")?,
                    rating: rating_from(r)?,
                })
            })
            .collect()
    }

    /// A member's finished games in a server, the latest first.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn finished_games_of(
        &self,
        guild: GuildId,
        user: UserId,
        limit: u32,
    ) -> Result<Vec<GameId>, StorageError> {
        let ids: Vec<i64> = sqlx::query_scalar(
            "SELECT g.game_id FROM game_seats s JOIN games g ON g.game_id = s.game_id \
             WHERE s.user_id = $1 AND g.guild_id = $2 AND g.status = 'finished' \
             ORDER BY g.finished_at DESC, g.game_id DESC LIMIT $3",
        )
        .bind(user.to_db())
        .bind(guild.to_db())
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        Ok(ids.into_iter().map(GameId).collect())
    }

    /// What a game did to a player's ratings; `None` when it did not change them.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn rating_change(
        &self,
        game: GameId,
        user: UserId,
    ) -> Result<Option<RatingChange>, StorageError> {
        let row = sqlx::query(
            "SELECT family, score, server_before, server_after, global_before, global_after \
             FROM rating_changes WHERE game_id = $1 AND user_id = $2",
        )
        .bind(game.0)
        .bind(user.to_db())
        .fetch_optional(&self.reader)
        .await?;
        let Some(r) = row else { return Ok(None) };
        let family: String = r.try_get("family")?;
        Ok(Some(RatingChange {
            family: family
                .parse()
                .map_err(|e: UnknownFamily| StorageError::corrupt(e.to_string()))?,
            score: r.try_get("score")?,
            server: (r.try_get("server_before")?, r.try_get("server_after")?),
            global: (r.try_get("global_before")?, r.try_get("global_after")?),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(spec: &str) -> RuleSet {
        RuleSet::from_spec(spec).unwrap()
    }

    #[test]
    fn families_follow_captures_and_the_overline_rule() {
        for p in Preset::ALL {
            assert_eq!(Family::of(&RuleSet::preset(p)), Family::of_preset(p));
            assert_eq!(Family::of_preset(p).preset(), p);
        }
        assert_eq!(Family::of(&rules("gomoku captures=pairs")), Family::Pente);
        assert_eq!(Family::of(&rules("pente captures=none")), Family::Gomoku);
        assert_eq!(
            Family::of(&rules("pente captures=none overline=no")),
            Family::GomokuStandard
        );
        assert_eq!(
            Family::of(&rules("keryo size=13 opening=swap2")),
            Family::Keryo
        );
        for f in Family::ALL {
            assert_eq!(f.name().parse::<Family>(), Ok(f));
        }
        assert!("Pente".parse::<Family>().is_err());
        assert!("".parse::<Family>().is_err());
    }

    #[test]
    fn take_backs_and_meta_rows_leave_the_final_record() {
        let a = final_actions(
            15,
            [
                "H8", "J9", "undo:1", "K10", "L11", "M12", "undo:2", "N13", "resign", "zz",
            ],
        );
        let names: Vec<String> = a.iter().map(Action::to_string).collect();
        assert_eq!(names, ["H8", "K10", "N13"]);
        assert!(final_actions(15, ["H8", "undo:5", "undo:x", "undo"]).is_empty());
        assert_eq!(final_actions(15, ["H8", "undo:0", "draw"]).len(), 1);
    }

    #[test]
    fn stones_are_counted_per_seat_through_swap_choices() {
        // swap2: seat 1 places three stones, seat 2 takes colour 1, then colours alternate.
        let r = rules("gomoku opening=swap2");
        let actions = final_actions(15, ["H8", "J9", "K10", "take:1", "L11", "M12"]);
        let (placed, game) = stones_by_seat(r, &actions).unwrap();
        // After take:1, seat 1 plays colour 2 and moves next (L11); seat 2 then plays M12.
        assert_eq!(placed, [4, 1, 0, 0]);
        assert_eq!(game.seat_of_colour(1), 2);
        let illegal = final_actions(15, ["H8", "H8"]);
        assert!(stones_by_seat(r, &illegal).is_none());
    }

    fn seats() -> Vec<(u8, UserId, bool)> {
        vec![(1, UserId(10), false), (2, UserId(20), false)]
    }

    const TWELVE: &str = "A1 B1 A2 B2 A3 B3 A4 B4 C6 D7 E8 F9";

    #[test]
    fn unrated_games_say_why() {
        let g = rules("gomoku");
        let t: Vec<&str> = TWELVE.split(' ').collect();
        let w = Colours::one(1);
        assert_eq!(
            rated_outcome(g, false, &seats(), t.clone(), w),
            Err(Unrated::NotRated)
        );
        let mut bot = seats();
        bot[1].2 = true;
        assert_eq!(
            rated_outcome(g, true, &bot, t.clone(), w),
            Err(Unrated::AgainstBot)
        );
        let three = rules("gomoku players=3");
        assert_eq!(
            rated_outcome(three, true, &seats(), t.clone(), w),
            Err(Unrated::Multiplayer)
        );
        // Six each, then the last two taken back: five each, too short.
        let short: Vec<&str> = TWELVE.split(' ').chain(["undo:2", "resign"]).collect();
        assert_eq!(
            rated_outcome(g, true, &seats(), short, w),
            Err(Unrated::TooShort { fewest: 5 })
        );
        let ok = rated_outcome(g, true, &seats(), t, w).unwrap();
        assert_eq!(ok.players, [UserId(10), UserId(20)]);
        assert_eq!(ok.score, 1.0);
        assert_eq!(ok.family, Family::Gomoku);
    }

    #[test]
    fn scores_follow_the_winning_colours_to_their_seats() {
        let g = rules("gomoku");
        let t: Vec<&str> = TWELVE.split(' ').collect();
        let score = |w: Colours| {
            rated_outcome(g, true, &seats(), t.clone(), w)
                .unwrap()
                .score
        };
        assert_eq!(score(Colours::one(2)), 0.0);
        assert_eq!(score(Colours::EMPTY), 0.5);
        let mut both = Colours::one(1);
        both.insert(2);
        assert_eq!(score(both), 0.5);
        // After swap2's take:1, colour 1 belongs to seat 2.
        let swap = rules("gomoku opening=swap2");
        let moves = "H8 J9 K10 take:1 A1 B1 A2 B2 A3 B3 A4 B4 C6 D7 E8 F9 G10 H11";
        let won_by_colour_1 =
            rated_outcome(swap, true, &seats(), moves.split(' '), Colours::one(1)).unwrap();
        assert_eq!(won_by_colour_1.score, 0.0);
    }

    #[test]
    fn an_unreplayable_log_is_not_rated() {
        let g = rules("gomoku");
        let t = TWELVE.split(' ').chain(["A1"]);
        assert_eq!(
            rated_outcome(g, true, &seats(), t, Colours::one(1)),
            Err(Unrated::Unreadable)
        );
    }

    proptest::proptest! {
        #[test]
        fn winners_never_lose_points_and_losers_never_gain(
            a in 100.0f64..3000.0, da in 30.0f64..350.0, va in 0.03f64..0.1,
            b in 100.0f64..3000.0, db in 30.0f64..350.0, vb in 0.03f64..0.1,
            score in proptest::sample::select(&[0.0, 0.5, 1.0][..]),
        ) {
            let first = Glicko2Rating { rating: a, deviation: da, volatility: va };
            let second = Glicko2Rating { rating: b, deviation: db, volatility: vb };
            let [x, y] = update_pair(first, second, score);
            proptest::prop_assert!(finite(&x) && finite(&y));
            proptest::prop_assert!(x.deviation > 0.0 && y.deviation > 0.0);
            if score == 1.0 {
                proptest::prop_assert!(x.rating >= a && y.rating <= b);
            }
            if score == 0.0 {
                proptest::prop_assert!(x.rating <= a && y.rating >= b);
            }
            if score == 0.5 {
                // A draw moves the higher-rated player down and the lower-rated one up.
                proptest::prop_assert!((x.rating - a) * (a - b) <= 1e-9);
            }
        }
    }

    #[test]
    fn a_win_between_newcomers_moves_both_by_the_same_amount() {
        let [a, b] = update_pair(Glicko2Rating::new(), Glicko2Rating::new(), 1.0);
        assert!(a.rating > 1600.0 && b.rating < 1400.0, "{a:?} {b:?}");
        assert!((a.rating - 1500.0 + (b.rating - 1500.0)).abs() < 1e-9);
        assert!(a.deviation < 350.0);
        let [c, d] = update_pair(Glicko2Rating::new(), Glicko2Rating::new(), 0.5);
        assert!((c.rating - 1500.0).abs() < 1e-9 && (d.rating - 1500.0).abs() < 1e-9);
    }
}
