//! What the service hands back: typed values the front turns into messages and pictures.

use crate::rules::{Game, MoveReport, RuleSet};
use crate::store::{
    Challenge, ChallengeId, ChannelId, GameId, GameStatus, GuildId, MessageId, ResultReason,
    TimeControl, Timestamp, UserId, UserInfo,
};

/// Who acts, and where (an interaction, stripped of Discord's types).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    /// The guild it happens in.
    pub guild: GuildId,
    /// The channel (or thread) it happens in; used to find "the" game when none is named.
    pub channel: ChannelId,
    /// The member acting, as the front knows them now (their name is kept up to date).
    pub user: UserInfo,
    /// The interaction token whose own answer will carry the board, if any: the outbox keeps
    /// it with the board it owes, so that after a crash the poster can ask Discord whether
    /// that answer went out before posting the board itself.
    pub reply: Option<String>,
    /// Whether a front that posts is behind the actor: its actions owe their boards through
    /// the outbox. Tools and tests acting on the service directly owe nothing.
    pub owes_posts: bool,
}

impl Actor {
    /// An actor from plain numbers (handy in tests and tools).
    pub fn new(guild: u64, channel: u64, user: UserInfo) -> Actor {
        Actor {
            guild: GuildId(guild),
            channel: ChannelId(channel),
            user,
            reply: None,
            owes_posts: false,
        }
    }
}

/// A challenge about to be made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChallengeRequest {
    /// The member challenged; `None` for an open challenge (and always for a lobby).
    pub opponent: Option<UserInfo>,
    /// The rules; `None` takes the guild's default. 3-4 players make it a lobby.
    pub rules: Option<RuleSet>,
    /// The time control; `None` takes the guild's default.
    pub time: Option<TimeControl>,
    /// Whether the game will be rated.
    pub rated: bool,
}

/// A seat of a game as the renderer shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// The seat, from 1 (seat 1 acts first).
    pub seat: u8,
    /// Who sits there.
    pub user: UserId,
    /// Their display name (their user id in digits if it was never seen).
    pub name: String,
    /// The colour they play now (during a swap opening, before the choice: their seat).
    pub colour: u8,
}

/// The state of a game, ready for the renderer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameView {
    /// The game.
    pub id: GameId,
    /// Its guild.
    pub guild: GuildId,
    /// The channel the challenge was made in.
    pub channel: ChannelId,
    /// Its own thread, if any.
    pub thread: Option<ChannelId>,
    /// The last board message posted for it, if the front recorded one.
    pub board_message: Option<(ChannelId, MessageId)>,
    /// The challenge or lobby it came from.
    pub challenge: Option<ChallengeId>,
    /// The position, rules and record.
    pub game: Game,
    /// The players, seat 1 first.
    pub seats: Vec<SeatView>,
    /// The time control.
    pub time: TimeControl,
    /// When the player to act runs out of time.
    pub deadline: Option<Timestamp>,
    /// Whether the game is rated.
    pub rated: bool,
    /// Whether one seat is the computer: it answers at once, and does not take part in
    /// take-backs, draw offers or rematches.
    pub against_computer: bool,
    /// Active, or finished with its result (resignations included).
    pub status: GameStatus,
    /// Actions so far; pass it back as `expected_ply` to act on exactly this position.
    pub ply: u32,
    /// When the game started.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
}

impl GameView {
    /// The channel where the game is played: its thread, else the challenge's channel.
    pub fn home(&self) -> ChannelId {
        self.thread.unwrap_or(self.channel)
    }

    /// Whether the game is over (won, drawn or resigned).
    pub fn is_over(&self) -> bool {
        matches!(self.status, GameStatus::Finished(_))
    }

    /// Whether the game ended with a row of the move log that is not in the rules' record
    /// (a resignation, a loss on time, an agreed draw): that last row put no stone on the
    /// board, so whoever walks the log back from the record must not count it.
    pub fn ended_off_record(&self) -> bool {
        matches!(
            self.status,
            GameStatus::Finished(r) if matches!(
                r.reason,
                ResultReason::Resignation { .. }
                    | ResultReason::Timeout { .. }
                    | ResultReason::DrawAgreed
            )
        )
    }

    /// The seat that must act now, `None` when the game is over.
    pub fn to_act(&self) -> Option<&SeatView> {
        if self.is_over() {
            return None;
        }
        let seat = self.game.seat_to_act()?;
        self.seats.iter().find(|s| s.seat == seat)
    }

    /// The seat of a user, if they play in this game.
    pub fn seat_of(&self, user: UserId) -> Option<&SeatView> {
        self.seats.iter().find(|s| s.user == user)
    }

    /// The users who won (several for a shared or team victory; none for a draw or an
    /// unfinished game).
    pub fn winners(&self) -> Vec<UserId> {
        match self.status {
            GameStatus::Finished(r) => self
                .seats
                .iter()
                .filter(|s| r.winners.contains(self.game.colour_of_seat(s.seat)))
                .map(|s| s.user)
                .collect(),
            GameStatus::Active => Vec::new(),
        }
    }
}

/// A move that was committed, and the game after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The game after the move.
    pub view: GameView,
    /// What the move did (captures, status, extra-time threat).
    pub report: MoveReport,
}

/// What accepting a challenge (or joining a lobby) led to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acceptance {
    /// The challenge or lobby afterwards.
    pub challenge: Challenge,
    /// The game, when it started (always for a two-player challenge; for a lobby once full).
    pub game: Option<GameView>,
}

/// A player in a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerEntry {
    /// The seat, from 1.
    pub seat: u8,
    /// Who sits there.
    pub user: UserId,
    /// Their display name (their user id in digits if it was never seen).
    pub name: String,
}

/// One line of a member's list of active games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The game.
    pub id: GameId,
    /// The challenge's channel.
    pub channel: ChannelId,
    /// Its own thread, if any.
    pub thread: Option<ChannelId>,
    /// Its rules.
    pub rules: RuleSet,
    /// Its time control.
    pub time: TimeControl,
    /// The players, seat 1 first.
    pub players: Vec<PlayerEntry>,
    /// Who must act now.
    pub to_act: Option<UserId>,
    /// Whether that is the member the list is for.
    pub your_turn: bool,
    /// Actions so far.
    pub ply: u32,
    /// When the player to act runs out of time.
    pub deadline: Option<Timestamp>,
}
