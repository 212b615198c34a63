//! Plain values shared by the store and the service: ids, times, settings, challenges, results.
//!
//! They carry no SQL and no Discord types, so the service can hand them to any front.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::rules::{Colours, RuleSet, WinReason};

macro_rules! snowflake {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u64);

        impl $name {
            /// The id as stored: the same 64 bits read as a signed integer (lossless).
            pub(crate) fn to_db(self) -> i64 {
                self.0 as i64
            }
            /// The id from its stored form.
            pub(crate) fn from_db(v: i64) -> Self {
                $name(v as u64)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

snowflake!(
    /// A Discord user id.
    UserId
);
snowflake!(
    /// A Discord guild (server) id.
    GuildId
);
snowflake!(
    /// A Discord channel or thread id.
    ChannelId
);
snowflake!(
    /// A Discord message id.
    MessageId
);

macro_rules! small_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub i64);

        /// Prints the bare number; the front adds `#` or whatever it shows.
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }

        /// Reads `12` or `#12` (as typed by users or found in button ids).
        impl FromStr for $name {
            type Err = std::num::ParseIntError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let s = s.trim();
                s.strip_prefix('#').unwrap_or(s).parse().map($name)
            }
        }
    };
}

small_id!(
    /// A game's number, shown to users as `#12` and put into button ids.
    GameId
);
small_id!(
    /// A challenge's (or lobby's) number, shown to users as `#12` and put into button ids.
    ChallengeId
);

/// A moment, in milliseconds since the Unix epoch (UTC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp(pub i64);

impl Timestamp {
    /// Whole seconds since the Unix epoch (what Discord's `<t:...>` markup wants).
    pub fn unix_seconds(self) -> i64 {
        self.0.div_euclid(1000)
    }

    /// The calendar date (UTC) of this moment: `(year, month 1-12, day 1-31)`, proleptic
    /// Gregorian (Howard Hinnant's `civil_from_days`; no date crate for one conversion).
    pub fn utc_date(self) -> (i64, u32, u32) {
        let days = self.0.div_euclid(86_400_000);
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        (year, month, day)
    }

    /// This moment plus a duration (saturating far in the future).
    pub fn plus(self, d: Duration) -> Timestamp {
        let ms = i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        Timestamp(self.0.saturating_add(ms))
    }
}

/// How long each player may think about a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TimeControl {
    /// No deadline (casual games).
    #[default]
    Unlimited,
    /// Each move is due within this many days of the previous one.
    DaysPerMove(u16),
    /// Live play: each move is due within this many minutes of the previous one.
    MinutesPerMove(u16),
}

impl TimeControl {
    /// The most days per move accepted.
    pub const MAX_DAYS: u16 = 14;
    /// The days per move a game may have.
    pub const ALLOWED_DAYS: [u16; 7] = [1, 2, 3, 5, 7, 10, 14];
    /// The minutes per move a live game may have.
    pub const ALLOWED_MINUTES: [u16; 6] = [1, 2, 5, 10, 30, 60];

    /// The time each move may take, `None` without a limit.
    pub fn per_move(self) -> Option<Duration> {
        match self {
            TimeControl::Unlimited => None,
            TimeControl::DaysPerMove(d) => Some(Duration::from_secs(u64::from(d) * 86_400)),
            TimeControl::MinutesPerMove(m) => Some(Duration::from_secs(u64::from(m) * 60)),
        }
    }

    /// Whether this is one of the time controls games may have.
    pub fn is_allowed(self) -> bool {
        match self {
            TimeControl::Unlimited => true,
            TimeControl::DaysPerMove(d) => Self::ALLOWED_DAYS.contains(&d),
            TimeControl::MinutesPerMove(m) => Self::ALLOWED_MINUTES.contains(&m),
        }
    }

    /// The deadline of the next move when it becomes due at `now`.
    pub fn deadline_after(self, now: Timestamp) -> Option<Timestamp> {
        self.per_move().map(|d| now.plus(d))
    }

    /// The `days_per_move` column.
    pub(crate) fn to_db(self) -> Option<i64> {
        match self {
            TimeControl::DaysPerMove(d) => Some(i64::from(d)),
            _ => None,
        }
    }

    /// The `minutes_per_move` column.
    pub(crate) fn minutes_to_db(self) -> Option<i64> {
        match self {
            TimeControl::MinutesPerMove(m) => Some(i64::from(m)),
            _ => None,
        }
    }

    /// From the `days_per_move` and `minutes_per_move` columns (`None` when out of range).
    pub(crate) fn from_db(days: Option<i64>, minutes: Option<i64>) -> Option<TimeControl> {
        match (days, minutes) {
            (None, None) => Some(TimeControl::Unlimited),
            (Some(d), None) => u16::try_from(d).ok().map(TimeControl::DaysPerMove),
            (None, Some(m)) => u16::try_from(m).ok().map(TimeControl::MinutesPerMove),
            (Some(_), Some(_)) => None,
        }
    }
}

/// Someone as the caller knows them at the moment of the call.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UserInfo {
    /// The user's id.
    pub id: UserId,
    /// The name to show on boards (the member's display name in the guild).
    pub name: String,
    /// Whether the account is a bot (bots cannot be challenged).
    pub is_bot: bool,
}

impl UserInfo {
    /// A human user.
    pub fn new(id: u64, name: impl Into<String>) -> UserInfo {
        UserInfo {
            id: UserId(id),
            name: name.into(),
            is_bot: false,
        }
    }
}

/// How a player wants to be told that it is their turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Notify {
    /// Mention them with the board in the game's channel or thread.
    #[default]
    Mention,
    /// Mention them and also send a direct message.
    DirectMessage,
    /// Do not mention them.
    Off,
}

impl Notify {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Notify::Mention => "mention",
            Notify::DirectMessage => "direct",
            Notify::Off => "off",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Notify> {
        [Notify::Mention, Notify::DirectMessage, Notify::Off]
            .into_iter()
            .find(|n| n.name() == s)
    }
}

/// A player's own settings (seed 000's player options, plus language and notifications).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Preferences {
    /// Show the tentative stone with Confirm / Cancel before a move is played.
    pub confirm_move: bool,
    /// Mark the last stone played.
    pub highlight_last_move: bool,
    /// Draw coordinates around the board.
    pub show_coordinates: bool,
    /// Renju: mark black's forbidden points on the board while black is to move.
    pub show_forbidden: bool,
    /// A language (`en`, `es`, `fi`) that overrides the Discord client's locale.
    pub language: Option<String>,
    /// How to tell them it is their turn.
    pub notify: Notify,
}

impl Default for Preferences {
    fn default() -> Self {
        Preferences {
            confirm_move: false,
            highlight_last_move: true,
            show_coordinates: true,
            show_forbidden: true,
            language: None,
            notify: Notify::Mention,
        }
    }
}

/// A guild's defaults for new challenges and games.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GuildSettings {
    /// The rule set used when a challenge names none.
    pub default_rules: RuleSet,
    /// The time control used when a challenge names none.
    pub default_time: TimeControl,
    /// Whether each game gets its own thread.
    pub thread_per_game: bool,
    /// The locale of public messages (`en`, `es`, `fi`); `None` follows the guild's Discord locale.
    pub locale: Option<String>,
}

impl Default for GuildSettings {
    fn default() -> Self {
        GuildSettings {
            default_rules: RuleSet::preset(crate::rules::Preset::Pente),
            default_time: TimeControl::DaysPerMove(3),
            thread_per_game: true,
            locale: None,
        }
    }
}

/// Where a challenge (or lobby) stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChallengeStatus {
    /// Waiting for an answer (or, for a lobby, for players).
    Open,
    /// Accepted (or the lobby filled up): the game has started.
    Accepted,
    /// Declined by the challenged member.
    Declined,
    /// Withdrawn by the challenger.
    Cancelled,
    /// Nobody answered in time.
    Expired,
}

impl ChallengeStatus {
    pub(crate) fn name(self) -> &'static str {
        match self {
            ChallengeStatus::Open => "open",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Cancelled => "cancelled",
            ChallengeStatus::Expired => "expired",
        }
    }

    /// The status as a metrics label.
    pub fn metric_name(self) -> &'static str {
        self.name()
    }

    pub(crate) fn parse(s: &str) -> Option<ChallengeStatus> {
        [
            ChallengeStatus::Open,
            ChallengeStatus::Accepted,
            ChallengeStatus::Declined,
            ChallengeStatus::Cancelled,
            ChallengeStatus::Expired,
        ]
        .into_iter()
        .find(|c| c.name() == s)
    }
}

/// A challenge to a named member, an open challenge, or (3-4 players) a lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    /// Its number.
    pub id: ChallengeId,
    /// The guild it was made in.
    pub guild: GuildId,
    /// The channel it was made in.
    pub channel: ChannelId,
    /// The message that shows it, once the front has posted it: `(channel, message)`.
    pub message: Option<(ChannelId, MessageId)>,
    /// Who made it.
    pub challenger: UserId,
    /// The member challenged; `None` for an open challenge or a lobby.
    pub opponent: Option<UserId>,
    /// The rules of the game to be.
    pub rules: RuleSet,
    /// The time control of the game to be.
    pub time: TimeControl,
    /// Whether the game will be rated.
    pub rated: bool,
    /// Where it stands.
    pub status: ChallengeStatus,
    /// Lobby members in the order they joined, the challenger first (for two players: the
    /// challenger, then whoever accepted).
    pub members: Vec<UserId>,
    /// When it was made.
    pub created_at: Timestamp,
    /// When it stops being acceptable.
    pub expires_at: Timestamp,
    /// The game it became, once accepted or full.
    pub game: Option<GameId>,
}

impl Challenge {
    /// Whether this is a lobby (3-4 players) rather than a two-player challenge.
    pub fn is_lobby(&self) -> bool {
        self.rules.players > 2
    }

    /// Seats still free in a lobby (for a two-player challenge: 1 while open, else 0).
    pub fn free_seats(&self) -> usize {
        if self.status != ChallengeStatus::Open {
            return 0;
        }
        usize::from(self.rules.players).saturating_sub(self.members.len())
    }
}

/// Why a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResultReason {
    /// A winning row.
    Line,
    /// Enough captured stones.
    Captures,
    /// The board filled up (or the player to move had no legal point): a draw.
    BoardFull,
    /// A player resigned; every other side won (see [`crate::service`] on multiplayer).
    Resignation {
        /// The seat that resigned.
        seat: u8,
    },
    /// The seat to act ran out of time; every other side won.
    Timeout {
        /// The seat whose clock ran out.
        seat: u8,
    },
    /// The players agreed to a draw.
    DrawAgreed,
}

impl ResultReason {
    pub(crate) fn name(self) -> &'static str {
        match self {
            ResultReason::Line => "line",
            ResultReason::Captures => "captures",
            ResultReason::BoardFull => "board_full",
            ResultReason::Resignation { .. } => "resignation",
            ResultReason::Timeout { .. } => "timeout",
            ResultReason::DrawAgreed => "draw",
        }
    }
}

impl From<WinReason> for ResultReason {
    fn from(r: WinReason) -> Self {
        match r {
            WinReason::Line => ResultReason::Line,
            WinReason::Captures => ResultReason::Captures,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The winning colours (empty for a draw; both team members for a team win).
    pub winners: Colours,
    /// Why it ended.
    pub reason: ResultReason,
}

pub(crate) fn colours_to_mask(c: Colours) -> i64 {
    c.iter().fold(0, |m, colour| m | (1 << colour))
}

pub(crate) fn colours_from_mask(mask: i64) -> Colours {
    let mut c = Colours::EMPTY;
    for colour in 1..=4u8 {
        if mask & (1 << colour) != 0 {
            c.insert(colour);
        }
    }
    c
}

/// Whether a game is still being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// Being played.
    Active,
    /// Over.
    Finished(GameResult),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates_fall_on_the_calendar() {
        let day = 86_400_000;
        assert_eq!(Timestamp(0).utc_date(), (1970, 1, 1));
        assert_eq!(Timestamp(day - 1).utc_date(), (1970, 1, 1));
        assert_eq!(Timestamp(-1).utc_date(), (1969, 12, 31));
        // 2000-02-29 (a leap day of a century divisible by 400) and the day after.
        assert_eq!(Timestamp(951_782_400_000).utc_date(), (2000, 2, 29));
        assert_eq!(Timestamp(951_782_400_000 + day).utc_date(), (2000, 3, 1));
        // 2100 is no leap year: 28 February is followed by 1 March.
        assert_eq!(Timestamp(4_107_456_000_000).utc_date(), (2100, 2, 28));
        assert_eq!(Timestamp(4_107_456_000_000 + day).utc_date(), (2100, 3, 1));
        assert_eq!(Timestamp(1_796_083_200_000).utc_date(), (2026, 12, 1));
        assert_eq!(Timestamp(1_798_675_199_999).utc_date(), (2026, 12, 30));
    }

    #[test]
    fn snowflakes_round_trip_through_their_stored_form() {
        for v in [0, 1, 1 << 62, u64::MAX, i64::MAX as u64 + 1] {
            assert_eq!(UserId::from_db(UserId(v).to_db()), UserId(v));
        }
    }

    #[test]
    fn small_ids_parse_with_or_without_hash() {
        assert_eq!("#12".parse::<GameId>(), Ok(GameId(12)));
        assert_eq!(" 7 ".parse::<ChallengeId>(), Ok(ChallengeId(7)));
        assert!("#".parse::<GameId>().is_err());
        assert!("twelve".parse::<GameId>().is_err());
    }

    #[test]
    fn colour_masks_round_trip() {
        let mut c = Colours::one(1);
        c.insert(3);
        assert_eq!(colours_from_mask(colours_to_mask(c)), c);
        assert_eq!(colours_from_mask(0), Colours::EMPTY);
    }

    #[test]
    fn days_per_move_sets_a_deadline() {
        let now = Timestamp(1_000);
        assert_eq!(TimeControl::Unlimited.deadline_after(now), None);
        assert_eq!(
            TimeControl::DaysPerMove(2).deadline_after(now),
            Some(Timestamp(1_000 + 2 * 86_400_000))
        );
        assert_eq!(
            TimeControl::MinutesPerMove(5).deadline_after(now),
            Some(Timestamp(1_000 + 5 * 60_000))
        );
        assert_eq!(TimeControl::from_db(Some(-1), None), None);
        assert_eq!(
            TimeControl::from_db(None, None),
            Some(TimeControl::Unlimited)
        );
        assert_eq!(
            TimeControl::from_db(None, Some(30)),
            Some(TimeControl::MinutesPerMove(30))
        );
        assert_eq!(TimeControl::from_db(Some(1), Some(30)), None);
        for t in [
            TimeControl::Unlimited,
            TimeControl::DaysPerMove(14),
            TimeControl::MinutesPerMove(2),
        ] {
            assert_eq!(TimeControl::from_db(t.to_db(), t.minutes_to_db()), Some(t));
        }
    }

    #[test]
    fn only_the_listed_time_controls_are_allowed() {
        let days: Vec<u16> = (0..=40)
            .filter(|&d| TimeControl::DaysPerMove(d).is_allowed())
            .collect();
        assert_eq!(days, TimeControl::ALLOWED_DAYS);
        let minutes: Vec<u16> = (0..=120)
            .filter(|&m| TimeControl::MinutesPerMove(m).is_allowed())
            .collect();
        assert_eq!(minutes, TimeControl::ALLOWED_MINUTES);
        assert!(TimeControl::Unlimited.is_allowed());
    }
}
