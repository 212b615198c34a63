//! Tournaments in a server: entries, the start, rounds that advance by themselves, standings.
//!
//! # Life of a tournament
//! 1. [`Service::create_tournament`] records it, open for entries; members join and leave
//!    ([`Service::join_tournament`], [`Service::leave_tournament`]).
//! 2. [`Service::start_tournament`] (its creator, or a member who may manage the server; at
//!    least [`MIN_PLAYERS`]) closes entries, seeds the players by their server rating in the
//!    game's family (1500 when unrated), and creates round 1: every game at once.
//! 3. A tournament game is an ordinary game. The transaction that ends it writes its board's
//!    result (store), and [`Service::advance_after_game`] (the front calls it after any action
//!    that ended a game) or [`Service::advance_tournaments`] (a sweep, and at start-up) moves
//!    the tournament on once every board of the round has a result: the next round's boards
//!    and games, or the end. Advancing is one transaction claimed on the round number and the
//!    field's revision, so it happens exactly once with several processes or a restart.
//! 4. The front posts each round (threads, boards, pairings, standings) after claiming it with
//!    [`Service::claim_announcements`] and confirms with [`Service::mark_announced`]; a round
//!    whose posts were interrupted is claimed again when its lease runs out.
//!
//! # Withdrawing
//! Leaving after the start withdraws: the player resigns their running game (an ordinary
//! resignation), is not paired again, and in a round robin their remaining boards are
//! forfeits (won by the opponent without a game, unrated); a withdrawn player's bye is dropped.
//!
//! # Byes and seats
//! A bye scores one point (in a round robin everyone rests equally often, so it changes no
//! ranking). Seat 1 moves first; with a swap opening seat 1 places the opening stones and the
//! colours are chosen in the game.

use std::collections::HashMap;
use std::time::Duration;

use thiserror::Error;

use super::{Actor, GameView, Service, ServiceError, check_time};
use crate::rules::RuleSet;
use crate::store::{
    BoardRow, ChannelId, Family, GameId, GuildId, Joined, MessageId, NewTournament, PlannedBoard,
    Seeding, StoredTournament, TimeControl, TournamentId, TournamentStatus, UserId,
};
use crate::tournament::standings::{self, Participant, Standing};
use crate::tournament::swiss::{self, Entrant, PairingError};
use crate::tournament::{Board, BoardResult, Format, Round, default_swiss_rounds, round_robin};

pub use crate::store::{BoardRow as TournamentBoard, EntryRow as TournamentEntry};

/// A tournament with its players and boards.
pub type Tournament = StoredTournament;

/// The fewest players a tournament starts with.
pub const MIN_PLAYERS: u32 = 3;
/// The most players of a round robin (it plays `n - 1` rounds).
pub const MAX_ROUND_ROBIN_PLAYERS: u32 = 32;
/// The most players of a Swiss tournament.
pub const MAX_SWISS_PLAYERS: u32 = 256;
/// The most Swiss rounds.
pub const MAX_SWISS_ROUNDS: u32 = 20;
/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 60;
/// How many times a start or an advance is computed again when the field changed under it.
const ATTEMPTS: usize = 5;

/// A tournament about to be created.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRequest {
    /// Its name (1 to [`MAX_NAME_CHARS`] characters).
    pub name: String,
    /// Round robin or Swiss.
    pub format: Format,
    /// The games' rules; `None` takes the server's default. Two players only.
    pub rules: Option<RuleSet>,
    /// The games' time control; `None` takes the server's default.
    pub time: Option<TimeControl>,
    /// Whether the games are rated.
    pub rated: bool,
    /// The most players (default: 16 for a round robin, 64 for Swiss).
    pub max_players: Option<u32>,
    /// Swiss only: rounds (default: ceil(log2(players)) at the start).
    pub rounds: Option<u32>,
    /// Round robin only: 1 (default) or 2 (each pair plays once in each seat).
    pub games_per_pairing: Option<u8>,
}

/// Why a tournament action was refused. Nothing changed when one of these is returned.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TournamentError {
    /// No tournament with that number in this server.
    #[error("no such tournament")]
    NoSuchTournament,
    /// None was named and none is open or running here.
    #[error("no tournament here")]
    NoTournament,
    /// None was named and several are open or running here.
    #[error("ambiguous: name one of {0:?}")]
    Ambiguous(Vec<TournamentId>),
    /// The name is empty, too long, or has control characters.
    #[error("bad name")]
    BadName,
    /// `max_players` outside the format's range.
    #[error("max players must be {min} to {max}")]
    BadMaxPlayers {
        /// The fewest allowed.
        min: u32,
        /// The most allowed.
        max: u32,
    },
    /// `rounds` was given for a round robin (its rounds follow from the players).
    #[error("rounds are for Swiss tournaments")]
    RoundsForRoundRobin,
    /// `games_per_pairing` was given for a Swiss tournament.
    #[error("games per pairing are for round robins")]
    GamesPerPairingForSwiss,
    /// `rounds` outside 1 to the maximum.
    #[error("rounds must be 1 to {max}")]
    BadRounds {
        /// The most allowed.
        max: u32,
    },
    /// `games_per_pairing` other than 1 or 2.
    #[error("games per pairing must be 1 or 2")]
    BadGamesPerPairing,
    /// A rule set for 3-4 players: tournament games are between two.
    #[error("tournament games are for two players")]
    Multiplayer,
    /// A bot account cannot take part.
    #[error("bots cannot play in tournaments")]
    Bot,
    /// The member is in it already.
    #[error("already in the tournament")]
    AlreadyJoined,
    /// It has no room left.
    #[error("the tournament is full")]
    Full,
    /// It is not open for this (started, finished or cancelled).
    #[error("the tournament is {0:?}")]
    NotOpen(TournamentStatus),
    /// The member is not in it.
    #[error("not in the tournament")]
    NotJoined,
    /// The member has withdrawn already.
    #[error("already withdrawn")]
    AlreadyWithdrawn,
    /// Only its creator, or a member who may manage the server, may do this.
    #[error("not the tournament's creator")]
    NotCreator,
    /// Too few players to start.
    #[error("{have} players; at least {min} are needed")]
    TooFewPlayers {
        /// The fewest needed.
        min: u32,
        /// How many joined.
        have: u32,
    },
    /// More Swiss rounds were asked than the players allow without rematches.
    #[error("{asked} rounds for {players} players (at most {max})")]
    TooManyRounds {
        /// Rounds asked.
        asked: u32,
        /// Players joined.
        players: u32,
        /// The most the field allows.
        max: u32,
    },
    /// The field kept changing while starting or advancing: try again.
    #[error("the tournament changed; try again")]
    Changed,
    /// A failure of the game service (a bad time control, the database).
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl From<crate::store::StorageError> for TournamentError {
    fn from(e: crate::store::StorageError) -> Self {
        TournamentError::Service(ServiceError::Storage(e))
    }
}

/// What leaving did.
#[derive(Clone, Debug, PartialEq)]
pub struct Left {
    /// The tournament afterwards.
    pub tournament: Tournament,
    /// Whether the player withdrew from a running tournament (rather than left before it).
    pub withdrew: bool,
    /// The game they resigned by withdrawing, if one was running.
    pub resigned: Option<GameView>,
}

/// One line of the standings, with the player's name.
#[derive(Clone, Debug, PartialEq)]
pub struct StandingLine {
    /// Points, tiebreaks, games, rank.
    pub standing: Standing,
    /// Their display name (their user id in digits if it was never seen).
    pub name: String,
}

/// The standings of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct StandingsView {
    /// The tournament.
    pub tournament: Tournament,
    /// One line per player, leader first.
    pub lines: Vec<StandingLine>,
    /// Rounds whose every board has a result.
    pub rounds_complete: u32,
}

impl StandingsView {
    /// The winner(s): everyone ranked first.
    pub fn winners(&self) -> Vec<UserId> {
        self.lines
            .iter()
            .filter(|l| l.standing.rank == 1)
            .map(|l| UserId(l.standing.player))
            .collect()
    }
}

/// A round (or the end) to post, claimed for the caller.
#[derive(Clone, Debug, PartialEq)]
pub struct Announcement {
    /// The round: past the last one, the final result.
    pub round: u32,
    /// The games of that round, to open threads for and post.
    pub games: Vec<GameView>,
    /// The standings before the round (after the last one, the final standings).
    pub standings: StandingsView,
}

impl Announcement {
    /// Whether this is the final result rather than a round's start (a Swiss tournament may
    /// end before its last round when fewer than two players are left).
    pub fn is_final(&self) -> bool {
        let row = &self.standings.tournament.row;
        row.status == TournamentStatus::Finished && self.round >= row.round
    }
}

impl StoredTournament {
    /// A player's display name (their user id in digits if it was never seen).
    pub fn name_of(&self, user: UserId) -> String {
        self.players
            .iter()
            .find(|p| p.user == user)
            .and_then(|p| p.name.clone())
            .unwrap_or_else(|| user.0.to_string())
    }

    /// Whether `user` joined (and did not leave before the start).
    pub fn has_player(&self, user: UserId) -> bool {
        self.players.iter().any(|p| p.user == user)
    }

    /// The players still in (not withdrawn).
    pub fn active_players(&self) -> Vec<UserId> {
        self.players
            .iter()
            .filter(|p| p.withdrawn_round.is_none())
            .map(|p| p.user)
            .collect()
    }

    /// The boards of a round.
    pub fn round_boards(&self, round: u32) -> Vec<&BoardRow> {
        self.boards.iter().filter(|b| b.round == round).collect()
    }

    /// Every board as the pure tournament code sees it.
    pub fn history(&self) -> Vec<Board> {
        self.boards
            .iter()
            .map(|b| Board {
                round: b.round,
                first: b.first.0,
                second: b.second.map(|s| s.0),
                result: b.result,
            })
            .collect()
    }

    fn rating_of(&self, user: UserId) -> f64 {
        self.players
            .iter()
            .find(|p| p.user == user)
            .and_then(|p| p.rating)
            .unwrap_or(super::START_RATING)
    }

    /// The players in seed order (the seeds fixed at the start).
    fn by_seed(&self) -> Vec<UserId> {
        let mut players: Vec<_> = self.players.iter().collect();
        players.sort_by_key(|p| (p.seed.unwrap_or(u32::MAX), p.joined_at, p.user));
        players.iter().map(|p| p.user).collect()
    }
}

fn check_name(name: &str) -> Result<String, TournamentError> {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    let len = name.chars().count();
    if len == 0 || len > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(TournamentError::BadName);
    }
    Ok(name)
}

/// Counts the games a round opened (byes and forfeits open none) in the games-started metric,
/// once its transaction has committed.
fn count_games_started(family: Family, boards: &[PlannedBoard]) {
    for _ in boards.iter().filter(|b| b.result.is_none()) {
        crate::ops::metrics::game_started(family.name());
    }
}

/// The boards to create for a round: `Round`'s games and bye, with forfeits for withdrawn
/// players (and no bye for a withdrawn player).
fn planned(round: &Round, withdrawn: &[UserId]) -> Vec<PlannedBoard> {
    let out_ = |k: u64| withdrawn.contains(&UserId(k));
    let mut boards: Vec<PlannedBoard> = round
        .pairs
        .iter()
        .map(|&(a, b)| PlannedBoard {
            first: UserId(a),
            second: Some(UserId(b)),
            result: match (out_(a), out_(b)) {
                (false, false) => None,
                (true, false) => Some(BoardResult::SecondWonByForfeit),
                (false, true) => Some(BoardResult::FirstWonByForfeit),
                (true, true) => Some(BoardResult::DoubleForfeit),
            },
        })
        .collect();
    if let Some(b) = round.bye.filter(|&b| !out_(b)) {
        boards.push(PlannedBoard {
            first: UserId(b),
            second: None,
            result: Some(BoardResult::Bye),
        });
    }
    boards
}

fn pairing_failed(e: PairingError) -> TournamentError {
    TournamentError::Service(ServiceError::Storage(crate::store::StorageError {
        kind: crate::store::StorageErrorKind::Other,
        detail: format!("pairing failed: {e}"),
    }))
}

impl Service {
    /// Creates a tournament, open for entries (its creator does not join by creating it).
    ///
    /// # Errors
    /// [`TournamentError::Bot`], [`TournamentError::BadName`], [`TournamentError::Multiplayer`],
    /// [`TournamentError::RoundsForRoundRobin`], [`TournamentError::GamesPerPairingForSwiss`],
    /// [`TournamentError::BadRounds`], [`TournamentError::BadGamesPerPairing`],
    /// [`TournamentError::BadMaxPlayers`], a bad time control or a storage failure
    /// ([`TournamentError::Service`]).
    pub async fn create_tournament(
        &self,
        actor: &Actor,
        request: TournamentRequest,
    ) -> Result<Tournament, TournamentError> {
        if actor.user.is_bot {
            return Err(TournamentError::Bot);
        }
        let name = check_name(&request.name)?;
        let (rules, time) = self
            .rules_and_time(actor.guild, request.rules, request.time)
            .await?;
        if rules.players != 2 {
            return Err(TournamentError::Multiplayer);
        }
        check_time(time)?;
        let (max_allowed, default_max) = match request.format {
            Format::RoundRobin => {
                if request.rounds.is_some() {
                    return Err(TournamentError::RoundsForRoundRobin);
                }
                (MAX_ROUND_ROBIN_PLAYERS, 16)
            }
            Format::Swiss => {
                if request.games_per_pairing.is_some() {
                    return Err(TournamentError::GamesPerPairingForSwiss);
                }
                if let Some(r) = request.rounds
                    && !(1..=MAX_SWISS_ROUNDS).contains(&r)
                {
                    return Err(TournamentError::BadRounds {
                        max: MAX_SWISS_ROUNDS,
                    });
                }
                (MAX_SWISS_PLAYERS, 64)
            }
        };
        let games_per_pairing = request.games_per_pairing.unwrap_or(1);
        if !(1..=2).contains(&games_per_pairing) {
            return Err(TournamentError::BadGamesPerPairing);
        }
        let max_players = request.max_players.unwrap_or(default_max);
        if !(MIN_PLAYERS..=max_allowed).contains(&max_players) {
            return Err(TournamentError::BadMaxPlayers {
                min: MIN_PLAYERS,
                max: max_allowed,
            });
        }
        let new = NewTournament {
            guild: actor.guild,
            channel: actor.channel,
            creator: actor.user.clone(),
            name,
            format: request.format,
            rules,
            time,
            rated: request.rated,
            max_players,
            rounds: request.rounds,
            games_per_pairing,
            now: self.now(),
        };
        let row = self.store.insert_tournament(&new).await?;
        self.tournament(actor.guild, row.id).await
    }

    /// A tournament of this guild.
    ///
    /// # Errors
    /// [`TournamentError::NoSuchTournament`], a storage failure.
    pub async fn tournament(
        &self,
        guild: GuildId,
        id: TournamentId,
    ) -> Result<Tournament, TournamentError> {
        self.store
            .tournament(id)
            .await?
            .filter(|t| t.row.guild == guild)
            .ok_or(TournamentError::NoSuchTournament)
    }

    /// The guild's tournaments, newest first (finished and cancelled ones when asked).
    ///
    /// # Errors
    /// A storage failure.
    pub async fn tournaments(
        &self,
        guild: GuildId,
        include_over: bool,
    ) -> Result<Vec<crate::store::TournamentRow>, TournamentError> {
        Ok(self.store.tournaments_of_guild(guild, include_over).await?)
    }

    /// Which tournament a command means: the one named, else the guild's only one that is
    /// open or running.
    ///
    /// # Errors
    /// [`TournamentError::NoSuchTournament`], [`TournamentError::NoTournament`],
    /// [`TournamentError::Ambiguous`], a storage failure.
    pub async fn resolve_tournament(
        &self,
        guild: GuildId,
        named: Option<TournamentId>,
    ) -> Result<Tournament, TournamentError> {
        if let Some(id) = named {
            return self.tournament(guild, id).await;
        }
        let live = self.store.tournaments_of_guild(guild, false).await?;
        match live.as_slice() {
            [] => Err(TournamentError::NoTournament),
            [one] => self.tournament(guild, one.id).await,
            many => Err(TournamentError::Ambiguous(
                many.iter().map(|t| t.id).collect(),
            )),
        }
    }

    /// Records the announcement message (with the Join / Leave buttons).
    ///
    /// # Errors
    /// [`TournamentError::NoSuchTournament`], a storage failure.
    pub async fn set_tournament_message(
        &self,
        id: TournamentId,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<(), TournamentError> {
        if self
            .store
            .set_tournament_message(id, channel, message)
            .await?
        {
            Ok(())
        } else {
            Err(TournamentError::NoSuchTournament)
        }
    }

    /// Joins an open tournament.
    ///
    /// # Errors
    /// [`TournamentError::NoSuchTournament`], [`TournamentError::Bot`],
    /// [`TournamentError::NotOpen`], [`TournamentError::AlreadyJoined`],
    /// [`TournamentError::Full`], a storage failure.
    pub async fn join_tournament(
        &self,
        actor: &Actor,
        id: TournamentId,
    ) -> Result<Tournament, TournamentError> {
        let t = self.tournament(actor.guild, id).await?;
        if actor.user.is_bot {
            return Err(TournamentError::Bot);
        }
        if t.row.status != TournamentStatus::Open {
            return Err(TournamentError::NotOpen(t.row.status));
        }
        if t.has_player(actor.user.id) {
            return Err(TournamentError::AlreadyJoined);
        }
        match self
            .store
            .join_tournament(id, &actor.user, self.now())
            .await?
        {
            Joined::Joined => self.tournament(actor.guild, id).await,
            Joined::AlreadyJoined => Err(TournamentError::AlreadyJoined),
            Joined::NotOpen => {
                let t = self.tournament(actor.guild, id).await?;
                Err(if t.row.status != TournamentStatus::Open {
                    TournamentError::NotOpen(t.row.status)
                } else {
                    TournamentError::Full
                })
            }
        }
    }

    /// Leaves a tournament: before the start, the player is simply out; after it, they
    /// withdraw (see the module documentation), resigning their running game.
    ///
    /// # Errors
    /// [`TournamentError::NoSuchTournament`], [`TournamentError::NotJoined`],
    /// [`TournamentError::AlreadyWithdrawn`], [`TournamentError::NotOpen`] (finished or
    /// cancelled), a storage failure.
    pub async fn leave_tournament(
        &self,
        actor: &Actor,
        id: TournamentId,
    ) -> Result<Left, TournamentError> {
        let t = self.tournament(actor.guild, id).await?;
        let me = actor.user.id;
        let entry = t.players.iter().find(|p| p.user == me);
        match t.row.status {
            TournamentStatus::Open => {
                if entry.is_none() || !self.store.leave_tournament(id, me).await? {
                    let now = self.tournament(actor.guild, id).await?;
                    return Err(match now.row.status {
                        TournamentStatus::Open => TournamentError::NotJoined,
                        other => TournamentError::NotOpen(other),
                    });
                }
                Ok(Left {
                    tournament: self.tournament(actor.guild, id).await?,
                    withdrew: false,
                    resigned: None,
                })
            }
            TournamentStatus::Running => {
                let Some(entry) = entry else {
                    return Err(TournamentError::NotJoined);
                };
                if entry.withdrawn_round.is_some() {
                    return Err(TournamentError::AlreadyWithdrawn);
                }
                if !self
                    .store
                    .withdraw_from_tournament(id, me, t.row.round)
                    .await?
                {
                    let now = self.tournament(actor.guild, id).await?;
                    return Err(match now.row.status {
                        TournamentStatus::Running => TournamentError::AlreadyWithdrawn,
                        other => TournamentError::NotOpen(other),
                    });
                }
                let running = t
                    .round_boards(t.row.round)
                    .into_iter()
                    .find(|b| b.result.is_none() && (b.first == me || b.second == Some(me)))
                    .and_then(|b| b.game);
                let mut resigned = None;
                if let Some(game) = running {
                    match self.resign(actor, Some(game)).await {
                        Ok(view) => resigned = Some(view),
                        // It ended at that instant: nothing left to resign.
                        Err(ServiceError::GameOver) => {}
                        Err(e) => return Err(e.into()),
                    }
                }
                Ok(Left {
                    tournament: self.tournament(actor.guild, id).await?,
                    withdrew: true,
                    resigned,
                })
            }
            other => Err(TournamentError::NotOpen(other)),
        }
    }

    /// Cancels an open tournament (its creator, or `may_manage`).
    ///
    /// # Errors
    /// [`TournamentError::NoSuchTournament`], [`TournamentError::NotCreator`],
    /// [`TournamentError::NotOpen`], a storage failure.
    pub async fn cancel_tournament(
        &self,
        actor: &Actor,
        id: TournamentId,
        may_manage: bool,
    ) -> Result<Tournament, TournamentError> {
        let t = self.tournament(actor.guild, id).await?;
        if t.row.creator != actor.user.id && !may_manage {
            return Err(TournamentError::NotCreator);
        }
        if !self.store.cancel_tournament(id, self.now()).await? {
            let now = self.tournament(actor.guild, id).await?;
            return Err(TournamentError::NotOpen(now.row.status));
        }
        self.tournament(actor.guild, id).await
    }

    /// Starts an open tournament (its creator, or `may_manage`): entries close, players are
    /// seeded, and round 1 begins with all its games at once. The front then claims round 1
    /// with [`Service::claim_announcements`] to post it.
    ///
    /// # Errors
    /// [`TournamentError::NoSuchTournament`], [`TournamentError::NotCreator`],
    /// [`TournamentError::NotOpen`], [`TournamentError::TooFewPlayers`],
    /// [`TournamentError::TooManyRounds`], [`TournamentError::Changed`] (players kept joining
    /// at that instant), a storage failure.
    pub async fn start_tournament(
        &self,
        actor: &Actor,
        id: TournamentId,
        may_manage: bool,
    ) -> Result<Tournament, TournamentError> {
        for _ in 0..ATTEMPTS {
            let t = self.tournament(actor.guild, id).await?;
            if t.row.creator != actor.user.id && !may_manage {
                return Err(TournamentError::NotCreator);
            }
            if t.row.status != TournamentStatus::Open {
                return Err(TournamentError::NotOpen(t.row.status));
            }
            let n = u32::try_from(t.players.len()).unwrap_or(u32::MAX);
            if n < MIN_PLAYERS {
                return Err(TournamentError::TooFewPlayers {
                    min: MIN_PLAYERS,
                    have: n,
                });
            }
            let total = match t.row.format {
                Format::RoundRobin => round_robin::rounds(t.players.len(), t.row.games_per_pairing),
                Format::Swiss => {
                    let asked = t
                        .row
                        .rounds
                        .unwrap_or_else(|| default_swiss_rounds(t.players.len()));
                    if asked > n - 1 {
                        return Err(TournamentError::TooManyRounds {
                            asked,
                            players: n,
                            max: n - 1,
                        });
                    }
                    asked
                }
            };
            let family = Family::of(&t.row.rules);
            let ratings: HashMap<UserId, f64> = self
                .store
                .tournament_ratings(id, t.row.guild, family)
                .await?
                .into_iter()
                .map(|(u, r)| (u, r.unwrap_or(super::START_RATING)))
                .collect();
            let rating = |u: UserId| ratings.get(&u).copied().unwrap_or(super::START_RATING);
            let mut order: Vec<_> = t.players.iter().collect();
            order.sort_by(|a, b| {
                rating(b.user)
                    .total_cmp(&rating(a.user))
                    .then(a.joined_at.cmp(&b.joined_at))
                    .then(a.user.cmp(&b.user))
            });
            let seeds: Vec<Seeding> = order
                .iter()
                .enumerate()
                .map(|(i, p)| Seeding {
                    user: p.user,
                    seed: u32::try_from(i + 1).unwrap_or(u32::MAX),
                    rating: rating(p.user),
                })
                .collect();
            let round_one = match t.row.format {
                Format::RoundRobin => {
                    let keys: Vec<u64> = seeds.iter().map(|s| s.user.0).collect();
                    round_robin::schedule(&keys, t.row.games_per_pairing)
                        .into_iter()
                        .next()
                        .unwrap_or_default()
                }
                Format::Swiss => {
                    let entrants: Vec<Entrant> = seeds
                        .iter()
                        .map(|s| Entrant {
                            key: s.user.0,
                            rating: s.rating,
                        })
                        .collect();
                    swiss::pair_round(&entrants, &[]).map_err(pairing_failed)?
                }
            };
            let boards = planned(&round_one, &[]);
            if self
                .store
                .start_tournament(
                    id,
                    t.row.revision,
                    total,
                    &seeds,
                    &boards,
                    self.now(),
                    self.outbox_posted_by_poster(),
                )
                .await?
                .is_some()
            {
                self.outbox_wake();
                count_games_started(family, &boards);
                return self.tournament(actor.guild, id).await;
            }
        }
        Err(TournamentError::Changed)
    }

    /// The boards of the round after the current one, or `None` when the tournament ends.
    fn next_round(t: &Tournament) -> Result<Option<Vec<PlannedBoard>>, TournamentError> {
        let next = t.row.round + 1;
        if next > t.row.total_rounds.unwrap_or(0) {
            return Ok(None);
        }
        let withdrawn: Vec<UserId> = t
            .players
            .iter()
            .filter(|p| p.withdrawn_round.is_some())
            .map(|p| p.user)
            .collect();
        match t.row.format {
            Format::RoundRobin => {
                let keys: Vec<u64> = t.by_seed().iter().map(|u| u.0).collect();
                let schedule = round_robin::schedule(&keys, t.row.games_per_pairing);
                let idx = usize::try_from(next - 1).unwrap_or(usize::MAX);
                Ok(schedule.get(idx).map(|r| planned(r, &withdrawn)))
            }
            Format::Swiss => {
                let entrants: Vec<Entrant> = t
                    .active_players()
                    .into_iter()
                    .map(|u| Entrant {
                        key: u.0,
                        rating: t.rating_of(u),
                    })
                    .collect();
                if entrants.len() < 2 {
                    return Ok(None);
                }
                let round = swiss::pair_round(&entrants, &t.history()).map_err(pairing_failed)?;
                Ok(Some(planned(&round, &[])))
            }
        }
    }

    /// Moves a tournament on as far as its results allow: each round whose boards all have
    /// results is followed by the next (a round robin round of forfeits only is passed at
    /// once), or by the end. Returns the rounds this call started (the end counts as the
    /// round after the last). Safe to call from several processes at once.
    ///
    /// # Errors
    /// A storage failure; [`TournamentError::Changed`] if the field kept changing.
    pub async fn advance_tournament(&self, id: TournamentId) -> Result<Vec<u32>, TournamentError> {
        let mut started = Vec::new();
        let mut lost = 0;
        loop {
            let Some(t) = self.store.tournament(id).await? else {
                return Ok(started);
            };
            if t.row.status != TournamentStatus::Running
                || t.round_boards(t.row.round)
                    .iter()
                    .any(|b| b.result.is_none())
            {
                return Ok(started);
            }
            let next = Self::next_round(&t)?;
            match self
                .store
                .advance_tournament(
                    id,
                    t.row.round,
                    t.row.revision,
                    next.as_deref(),
                    self.now(),
                    self.outbox_posted_by_poster(),
                )
                .await?
            {
                Some(_) => {
                    self.outbox_wake();
                    if let Some(boards) = &next {
                        count_games_started(Family::of(&t.row.rules), boards);
                    }
                    started.push(t.row.round + 1);
                }
                None => {
                    // Another process advanced it, or the field changed: look again.
                    lost += 1;
                    if lost >= ATTEMPTS {
                        return Err(TournamentError::Changed);
                    }
                }
            }
        }
    }

    /// After an action that ended `game`: moves its tournament on if that was the last game
    /// of the round. Returns the tournament and the rounds started (none for other games).
    ///
    /// # Errors
    /// As [`Service::advance_tournament`].
    pub async fn advance_after_game(
        &self,
        game: GameId,
    ) -> Result<Option<(TournamentId, Vec<u32>)>, TournamentError> {
        let Some(id) = self.store.tournament_of_game(game).await? else {
            return Ok(None);
        };
        Ok(Some((id, self.advance_tournament(id).await?)))
    }

    /// Moves on every tournament whose round is complete (a sweep, and at start-up for what
    /// finished while the bot was down). Returns those that moved.
    ///
    /// # Errors
    /// A storage failure.
    pub async fn advance_tournaments(&self) -> Result<Vec<TournamentId>, TournamentError> {
        let mut moved = Vec::new();
        for (id, _, _) in self.store.tournaments_to_advance().await? {
            match self.advance_tournament(id).await {
                Ok(rounds) if !rounds.is_empty() => moved.push(id),
                Ok(_) => {}
                Err(TournamentError::Changed) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(moved)
    }

    /// The standings of a tournament.
    pub fn standings_of(&self, t: Tournament) -> StandingsView {
        let participants: Vec<Participant> = t
            .players
            .iter()
            .map(|p| Participant {
                player: p.user.0,
                rating: p.rating.unwrap_or(super::START_RATING),
                withdrawn: p.withdrawn_round.is_some(),
            })
            .collect();
        // The standings after the complete rounds: a bye or forfeit of the round being played
        // counts once that round is over, like its games.
        let last = t.boards.iter().map(|b| b.round).max().unwrap_or(0);
        let rounds_complete = (1..=last)
            .take_while(|&r| t.round_boards(r).iter().all(|b| b.result.is_some()))
            .count() as u32;
        let history: Vec<Board> = t
            .history()
            .into_iter()
            .filter(|b| b.round <= rounds_complete)
            .collect();
        let table = standings::standings(t.row.format, &participants, &history);
        let lines = table
            .into_iter()
            .map(|standing| StandingLine {
                name: t.name_of(UserId(standing.player)),
                standing,
            })
            .collect();
        StandingsView {
            tournament: t,
            lines,
            rounds_complete,
        }
    }

    /// The standings of a tournament of this guild.
    ///
    /// # Errors
    /// [`TournamentError::NoSuchTournament`], a storage failure.
    pub async fn tournament_standings(
        &self,
        guild: GuildId,
        id: TournamentId,
    ) -> Result<StandingsView, TournamentError> {
        Ok(self.standings_of(self.tournament(guild, id).await?))
    }

    /// Claims, for `lease`, the rounds (and final results) started but not yet posted, of
    /// one tournament or all: the front posts each and then calls
    /// [`Service::mark_announced`]. What is not confirmed is claimed again after the lease.
    ///
    /// # Errors
    /// A storage failure.
    pub async fn claim_announcements(
        &self,
        only: Option<TournamentId>,
        lease: Duration,
    ) -> Result<Vec<Announcement>, TournamentError> {
        let now = self.now();
        let claimed = self
            .store
            .claim_announcements(only, now, now.plus(lease))
            .await?;
        let mut out = Vec::with_capacity(claimed.len());
        for (id, round) in claimed {
            let Some(t) = self.store.tournament(id).await? else {
                continue;
            };
            let mut games = Vec::new();
            for b in t.round_boards(round) {
                if let Some(g) = b.game {
                    games.push(self.view_of(g).await?);
                }
            }
            out.push(Announcement {
                round,
                games,
                standings: self.standings_of(t),
            });
        }
        Ok(out)
    }

    /// The post owed for `round` of a tournament (the final result past its last round), as
    /// [`Service::claim_announcements`] gives it, without a claim: the outbox's poster holds
    /// the row. `None` when the tournament is gone or that round was posted already.
    ///
    /// # Errors
    /// A storage failure.
    pub async fn announcement(
        &self,
        id: TournamentId,
        round: u32,
    ) -> Result<Option<Announcement>, TournamentError> {
        let Some(t) = self.store.tournament(id).await? else {
            return Ok(None);
        };
        if t.row.announced_round >= round {
            return Ok(None);
        }
        let mut games = Vec::new();
        for b in t.round_boards(round) {
            if let Some(g) = b.game {
                games.push(self.view_of(g).await?);
            }
        }
        Ok(Some(Announcement {
            round,
            games,
            standings: self.standings_of(t),
        }))
    }

    /// Records that a tournament's `round` was posted.
    ///
    /// # Errors
    /// A storage failure.
    pub async fn mark_announced(
        &self,
        id: TournamentId,
        round: u32,
    ) -> Result<(), TournamentError> {
        Ok(self.store.mark_announced(id, round).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_counts_only_the_games_it_opens() {
        let round = Round {
            pairs: vec![(1, 2), (3, 4), (5, 6)],
            bye: Some(7),
        };
        // Player 4 withdrew: (3, 4) is a forfeit and 7's bye opens no game either.
        let boards = planned(&round, &[UserId(4)]);
        let recorder = crate::ops::metrics::builder().unwrap().build_recorder();
        let handle = recorder.handle();
        metrics::with_local_recorder(&recorder, || {
            count_games_started(Family::Renju, &boards);
        });
        let text = handle.render();
        assert!(
            text.contains("gomoku_games_started_total{family=\"renju\"} 2"),
            "{text}"
        );
    }
}
