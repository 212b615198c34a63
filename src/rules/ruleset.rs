//! Rule sets: a preset plus options, validated as a whole.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A named starting point for a rule set (DESIGN.md section 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// Freestyle Gomoku: 15x15, five or more wins.
    Gomoku,
    /// Standard Gomoku: 15x15, exactly five wins.
    GomokuStandard,
    /// Pente: 19x19, pair captures, 10 captured stones win, pro opening.
    Pente,
    /// Keryo-Pente: Pente where triples are captured too, 15 captured stones win.
    Keryo,
    /// Renju: 15x15, black may not make an overline, a double four or a double three (and
    /// wins with exactly five), white wins with five or more (DESIGN.md section 2b).
    Renju,
}

impl Preset {
    /// Every preset, in the order menus show them.
    pub const ALL: [Preset; 5] = [
        Preset::Gomoku,
        Preset::GomokuStandard,
        Preset::Pente,
        Preset::Keryo,
        Preset::Renju,
    ];

    /// The preset's name as typed on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Gomoku => "gomoku",
            Preset::GomokuStandard => "gomoku-standard",
            Preset::Pente => "pente",
            Preset::Keryo => "keryo",
            Preset::Renju => "renju",
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| RulesError::UnknownPreset(s.to_string()))
    }
}

/// Opening restrictions (two players only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opening {
    /// No restriction.
    None,
    /// Colour 1 starts on the centre; its second stone at least 3 points away from it.
    Pro,
    /// As `Pro` with at least 4 points.
    LongPro,
    /// The first seat places 2+2 stones, the second seat picks a colour.
    Swap,
    /// The first seat places 3 stones, the second seat picks a colour, adds one or places two more.
    Swap2,
}

/// Which runs of opposing stones are captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Captures {
    /// Stones never leave the board.
    None,
    /// Exactly two bracketed stones are captured.
    Pairs,
    /// Exactly two or exactly three bracketed stones are captured.
    PairsAndTriples,
}

/// What happens to a stone placed so that it completes a bracketed group of its own colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SelfCapture {
    /// Nothing: entering a bracket is safe.
    None,
    /// The group is removed and credited to the owner of the bracketing stones.
    Capture,
    /// Such a point may not be played.
    Forbidden,
}

macro_rules! keyword_enum {
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in menu order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];
            /// The value's name as written in options.
            pub fn name(self) -> &'static str {
                match self { $($ty::$variant => $name),+ }
            }
            fn parse(value: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.name().eq_ignore_ascii_case(value))
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

keyword_enum!(Opening { None => "none", Pro => "pro", LongPro => "long-pro", Swap => "swap", Swap2 => "swap2" });
keyword_enum!(Captures { None => "none", Pairs => "pairs", PairsAndTriples => "pairs-and-triples" });
keyword_enum!(SelfCapture { None => "none", Capture => "capture", Forbidden => "forbidden" });

/// The option keys, in the order they are written.
pub const OPTION_KEYS: [&str; 11] = [
    "size",
    "players",
    "teams",
    "opening",
    "captures",
    "capture_win",
    "line",
    "overline",
    "self_capture",
    "extra_time_capture",
    "mixed_captures",
];

/// Why a rule set could not be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// The preset name is not one of [`Preset::ALL`].
    #[error("unknown preset `{0}` (expected gomoku, gomoku-standard, pente, keryo or renju)")]
    UnknownPreset(String),
    /// The option key is not one of [`OPTION_KEYS`].
    #[error("unknown option `{0}` (expected one of: {keys})", keys = OPTION_KEYS.join(", "))]
    UnknownOption(String),
    /// An option is not written `key=value`.
    #[error("`{0}` is not an option (expected key=value)")]
    NotKeyValue(String),
    /// The same option given twice.
    #[error("option `{0}` is given twice")]
    Duplicate(String),
    /// A value outside the option's range.
    #[error("`{value}` is not a valid value for `{key}` (expected {expected})")]
    BadValue {
        /// The option.
        key: &'static str,
        /// The value as given.
        value: String,
        /// The accepted values, in words.
        expected: &'static str,
    },
    /// Options that do not make sense together.
    #[error("{0}")]
    Conflict(Conflict),
}

/// Option combinations that are refused rather than silently changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum Conflict {
    /// `teams=on` needs exactly 4 players.
    #[error("teams need exactly 4 players")]
    TeamsNeedFourPlayers,
    /// Opening rules are for two players.
    #[error("opening={0} is for 2 players only (games with 3 or 4 players have no opening rule)")]
    OpeningNeedsTwoPlayers(Opening),
    /// A capture win cannot be turned off with 3-4 players (games would never end).
    #[error("capture_win=0 is refused for 3 or 4 players: games would last too long")]
    CaptureWinNeededForMultiplayer,
    /// `capture_win` without captures.
    #[error("capture_win needs captures (set captures=pairs or captures=pairs-and-triples)")]
    CaptureWinWithoutCaptures,
    /// `self_capture` without captures.
    #[error("self_capture needs captures (set captures=pairs or captures=pairs-and-triples)")]
    SelfCaptureWithoutCaptures,
    /// `extra_time_capture` without captures.
    #[error("extra_time_capture needs captures (set captures=pairs or captures=pairs-and-triples)")]
    ExtraTimeWithoutCaptures,
    /// `mixed_captures` only means something with 3-4 players.
    #[error("mixed_captures=on means something only with 3 or 4 players")]
    MixedCapturesNeedMultiplayer,
    /// Renju fixes this option (its key is named): no captures, two players, five in a row,
    /// its own overline rule, and its own openings.
    #[error("renju does not allow changing `{0}`: {why}", why = renju_fixed_reason(.0))]
    RenjuFixes(&'static str),
    /// An opening Renju does not use (pro, long-pro, swap).
    #[error("opening={0} is not a Renju opening (use taraguchi-10, soosorv-8, swap2 or none)")]
    NotARenjuOpening(Opening),
}

fn renju_fixed_reason(key: &str) -> &'static str {
    match key {
        "players" => "it is a game for two players",
        "teams" => "it is a game for two players",
        "line" => "a row of five wins",
        "overline" => "an overline is forbidden for black and wins for white",
        _ => "it has no captures",
    }
}

/// A complete, validated rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// The preset it started from (used for names and for writing it back compactly).
    pub preset: Preset,
    /// Board side: 9, 13, 15 or 19.
    pub size: u8,
    /// 2, 3 or 4 players.
    pub players: u8,
    /// Colours 1+3 against 2+4 (4 players only).
    pub teams: bool,
    /// Opening restriction.
    pub opening: Opening,
    /// Which groups are captured.
    pub captures: Captures,
    /// Captured stones that win (per team with teams); 0 = off.
    pub capture_win: u16,
    /// Stones in a row that win: 4 or 5.
    pub line: u8,
    /// Whether more than `line` in a row wins.
    pub overline_wins: bool,
    /// Self-capture handling.
    pub self_capture: SelfCapture,
    /// Extra-time capture (Boat-Pente).
    pub extra_time_capture: bool,
    /// Multiplayer: captured groups may mix colours.
    pub mixed_captures: bool,
}

/// Options as given by the user, before defaults are derived.
#[derive(Clone, Copy, Debug, Default)]
struct Given {
    size: Option<u8>,
    players: Option<u8>,
    teams: Option<bool>,
    opening: Option<Opening>,
    captures: Option<Captures>,
    capture_win: Option<u16>,
    line: Option<u8>,
    overline_wins: Option<bool>,
    self_capture: Option<SelfCapture>,
    extra_time_capture: Option<bool>,
    mixed_captures: Option<bool>,
}

fn on_off(key: &'static str, value: &str) -> Result<bool, RulesError> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" => Ok(true),
        "off" | "false" | "no" => Ok(false),
        _ => Err(bad(key, value, "on or off")),
    }
}

fn bad(key: &'static str, value: &str, expected: &'static str) -> RulesError {
    RulesError::BadValue {
        key,
        value: value.to_string(),
        expected,
    }
}

impl Given {
    fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let value = value.trim();
        let key_lc = key.trim().to_ascii_lowercase().replace('-', "_");
        let dup = |taken: bool| {
            if taken {
                Err(RulesError::Duplicate(key_lc.clone()))
            } else {
                Ok(())
            }
        };
        match key_lc.as_str() {
            "size" => {
                dup(self.size.is_some())?;
                let v = match value {
                    "9" => 9,
                    "13" => 13,
                    "15" => 15,
                    "19" => 19,
                    _ => return Err(bad("size", value, "9, 13, 15 or 19")),
                };
                self.size = Some(v);
            }
            "players" => {
                dup(self.players.is_some())?;
                let v = match value {
                    "2" => 2,
                    "3" => 3,
                    "4" => 4,
                    _ => return Err(bad("players", value, "2, 3 or 4")),
                };
                self.players = Some(v);
            }
            "teams" => {
                dup(self.teams.is_some())?;
                self.teams = Some(on_off("teams", value)?);
            }
            "opening" => {
                dup(self.opening.is_some())?;
                self.opening =
                    Some(Opening::parse(value).ok_or_else(|| {
                        bad("opening", value, "none, pro, long-pro, swap or swap2")
                    })?);
            }
            "captures" => {
                dup(self.captures.is_some())?;
                self.captures =
                    Some(Captures::parse(value).ok_or_else(|| {
                        bad("captures", value, "none, pairs or pairs-and-triples")
                    })?);
            }
            "capture_win" => {
                dup(self.capture_win.is_some())?;
                let expected = "a number of captured stones from 2 to 100, or 0 (off)";
                let v: u16 = value
                    .parse()
                    .map_err(|_| bad("capture_win", value, expected))?;
                if v == 1 || v > 100 {
                    return Err(bad("capture_win", value, expected));
                }
                self.capture_win = Some(v);
            }
            "line" => {
                dup(self.line.is_some())?;
                self.line = Some(match value {
                    "4" => 4,
                    "5" => 5,
                    _ => return Err(bad("line", value, "4 or 5")),
                });
            }
            "overline" => {
                dup(self.overline_wins.is_some())?;
                self.overline_wins = Some(match value.to_ascii_lowercase().as_str() {
                    "wins" | "on" | "yes" => true,
                    "no" | "off" => false,
                    _ => return Err(bad("overline", value, "wins or no")),
                });
            }
            "self_capture" => {
                dup(self.self_capture.is_some())?;
                self.self_capture = Some(
                    SelfCapture::parse(value)
                        .ok_or_else(|| bad("self_capture", value, "none, capture or forbidden"))?,
                );
            }
            "extra_time_capture" => {
                dup(self.extra_time_capture.is_some())?;
                self.extra_time_capture = Some(on_off("extra_time_capture", value)?);
            }
            "mixed_captures" => {
                dup(self.mixed_captures.is_some())?;
                self.mixed_captures = Some(on_off("mixed_captures", value)?);
            }
            _ => return Err(RulesError::UnknownOption(key.to_string())),
        }
        Ok(())
    }
}

impl RuleSet {
    /// The preset with every option at its default.
    pub fn preset(preset: Preset) -> RuleSet {
        Self::build(preset, Given::default()).expect("preset defaults are consistent")
    }

    /// A rule set from a preset and `key=value` options.
    ///
    /// # Errors
    /// [`RulesError`] naming the first unknown option, bad value or refused combination.
    pub fn with_options<S: AsRef<str>>(
        preset: Preset,
        options: &[S],
    ) -> Result<RuleSet, RulesError> {
        let mut given = Given::default();
        for option in options {
            let option = option.as_ref();
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| RulesError::NotKeyValue(option.to_string()))?;
            given.set(key, value)?;
        }
        Self::build(preset, given)
    }

    /// Parses the compact form written by [`RuleSet::to_spec`]: `pente size=15 opening=none`.
    ///
    /// # Errors
    /// [`RulesError`] as [`RuleSet::with_options`], or for a missing preset.
    pub fn from_spec(spec: &str) -> Result<RuleSet, RulesError> {
        let mut words = spec.split_whitespace();
        let preset: Preset = words
            .next()
            .ok_or_else(|| RulesError::UnknownPreset(String::new()))?
            .parse()?;
        let options: Vec<&str> = words.collect();
        Self::with_options(preset, &options)
    }

    fn build(preset: Preset, g: Given) -> Result<RuleSet, RulesError> {
        let players = g.players.unwrap_or(2);
        let teams = g.teams.unwrap_or(false);
        if teams && players != 4 {
            return Err(RulesError::Conflict(Conflict::TeamsNeedFourPlayers));
        }
        let (p_size, p_captures, p_overline, p_opening) = match preset {
            Preset::Gomoku => (15, Captures::None, true, Opening::None),
            Preset::GomokuStandard => (15, Captures::None, false, Opening::None),
            Preset::Pente => (19, Captures::Pairs, true, Opening::Pro),
            Preset::Keryo => (19, Captures::PairsAndTriples, true, Opening::Pro),
            // White's overline wins; black's can never be made (it is forbidden).
            Preset::Renju => (15, Captures::None, true, Opening::None),
        };
        if preset == Preset::Renju {
            Self::refuse_for_renju(&g)?;
        }
        let multiplayer = players > 2;
        let opening = match g.opening {
            Some(o) if multiplayer && o != Opening::None => {
                return Err(RulesError::Conflict(Conflict::OpeningNeedsTwoPlayers(o)));
            }
            Some(o) => o,
            None if multiplayer => Opening::None,
            None => p_opening,
        };
        let captures = g.captures.unwrap_or(p_captures);
        let free_for_all = multiplayer && !teams;
        let capture_win = match (captures, g.capture_win) {
            (Captures::None, Some(v)) if v > 0 => {
                return Err(RulesError::Conflict(Conflict::CaptureWinWithoutCaptures));
            }
            (Captures::None, _) => 0,
            (_, Some(0)) if multiplayer => {
                return Err(RulesError::Conflict(
                    Conflict::CaptureWinNeededForMultiplayer,
                ));
            }
            (_, Some(v)) => v,
            (Captures::Pairs, None) => {
                if free_for_all {
                    8
                } else {
                    10
                }
            }
            (Captures::PairsAndTriples, None) => {
                if free_for_all {
                    12
                } else {
                    15
                }
            }
        };
        let self_capture = g.self_capture.unwrap_or(SelfCapture::None);
        if captures == Captures::None && self_capture != SelfCapture::None {
            return Err(RulesError::Conflict(Conflict::SelfCaptureWithoutCaptures));
        }
        let extra_time_capture = g.extra_time_capture.unwrap_or(false);
        if captures == Captures::None && extra_time_capture {
            return Err(RulesError::Conflict(Conflict::ExtraTimeWithoutCaptures));
        }
        let mixed_captures = g.mixed_captures.unwrap_or(false);
        if mixed_captures && !multiplayer {
            return Err(RulesError::Conflict(Conflict::MixedCapturesNeedMultiplayer));
        }
        Ok(RuleSet {
            preset,
            size: g.size.unwrap_or(p_size),
            players,
            teams,
            opening,
            captures,
            capture_win,
            line: g.line.unwrap_or(if free_for_all { 4 } else { 5 }),
            overline_wins: g.overline_wins.unwrap_or(p_overline),
            self_capture,
            extra_time_capture,
            mixed_captures,
        })
    }

    /// Renju's fixed options may be given only with the value Renju has.
    fn refuse_for_renju(g: &Given) -> Result<(), RulesError> {
        let fixed = |key: &'static str| Err(RulesError::Conflict(Conflict::RenjuFixes(key)));
        if g.players.is_some_and(|p| p != 2) {
            return fixed("players");
        }
        if g.teams == Some(true) {
            return fixed("teams");
        }
        if g.line.is_some_and(|l| l != 5) {
            return fixed("line");
        }
        // Renju's own value is written `wins` (white's overline wins; black's is forbidden).
        if g.overline_wins == Some(false) {
            return fixed("overline");
        }
        if g.captures.is_some_and(|c| c != Captures::None) {
            return fixed("captures");
        }
        if g.capture_win.is_some_and(|c| c != 0) {
            return fixed("capture_win");
        }
        if g.self_capture.is_some_and(|c| c != SelfCapture::None) {
            return fixed("self_capture");
        }
        if g.extra_time_capture == Some(true) {
            return fixed("extra_time_capture");
        }
        if g.mixed_captures == Some(true) {
            return fixed("mixed_captures");
        }
        match g.opening {
            Some(o @ (Opening::Pro | Opening::LongPro | Opening::Swap)) => {
                Err(RulesError::Conflict(Conflict::NotARenjuOpening(o)))
            }
            _ => Ok(()),
        }
    }

    /// Whether these are Renju's rules: black's forbidden points, black wins with exactly five.
    pub fn is_renju(&self) -> bool {
        self.preset == Preset::Renju
    }

    /// Every option as `(key, value)`, in [`OPTION_KEYS`] order.
    pub fn options(&self) -> [(&'static str, String); 11] {
        let on = |b: bool| if b { "on" } else { "off" }.to_string();
        [
            ("size", self.size.to_string()),
            ("players", self.players.to_string()),
            ("teams", on(self.teams)),
            ("opening", self.opening.name().to_string()),
            ("captures", self.captures.name().to_string()),
            ("capture_win", self.capture_win.to_string()),
            ("line", self.line.to_string()),
            (
                "overline",
                if self.overline_wins { "wins" } else { "no" }.to_string(),
            ),
            ("self_capture", self.self_capture.name().to_string()),
            ("extra_time_capture", on(self.extra_time_capture)),
            ("mixed_captures", on(self.mixed_captures)),
        ]
    }

    /// The options that differ from what the preset would derive, as `key=value`.
    ///
    /// Feeding them back to [`RuleSet::with_options`] gives this rule set again.
    pub fn changed_options(&self) -> Vec<String> {
        // Options are written in an order that lets each derived default be recomputed:
        // players and captures first, because line, opening and capture_win depend on them.
        let mut given = Given::default();
        let mut out = Vec::new();
        let mine = self.options();
        for key in [
            "players",
            "teams",
            "captures",
            "size",
            "opening",
            "capture_win",
            "line",
            "overline",
            "self_capture",
            "extra_time_capture",
            "mixed_captures",
        ] {
            let current = Self::build(self.preset, given).ok();
            let value = &mine.iter().find(|(k, _)| *k == key).expect("known key").1;
            let derived = current.map(|r| {
                r.options()
                    .into_iter()
                    .find(|(k, _)| *k == key)
                    .expect("known key")
                    .1
            });
            if derived.as_deref() != Some(value.as_str()) {
                out.push(format!("{key}={value}"));
            }
            given.set(key, value).expect("own values parse");
        }
        out
    }

    /// The compact text form: the preset and the changed options (`pente size=15`).
    pub fn to_spec(&self) -> String {
        let mut s = self.preset.name().to_string();
        for o in self.changed_options() {
            s.push(' ');
            s.push_str(&o);
        }
        s
    }

    /// The team partner of a colour, with teams on.
    pub fn teammate(&self, colour: u8) -> Option<u8> {
        self.teams.then(|| (colour + 1) % 4 + 1)
    }

    /// The colour that moves after `colour`.
    pub fn next_colour(&self, colour: u8) -> u8 {
        colour % self.players + 1
    }

    /// The rule set in English words, one rule per line.
    pub fn describe(&self) -> String {
        let mut lines = Vec::new();
        let name = match self.preset {
            Preset::Gomoku => "Gomoku (freestyle)",
            Preset::GomokuStandard => "Gomoku (standard)",
            Preset::Pente => "Pente",
            Preset::Keryo => "Keryo-Pente",
            Preset::Renju => "Renju",
        };
        lines.push(format!(
            "{name} on a {s}x{s} board, {p} players{t}.",
            s = self.size,
            p = self.players,
            t = if self.teams {
                " in two teams (colours 1 and 3 against 2 and 4)"
            } else {
                ""
            }
        ));
        lines.push(
            "Players take turns placing one stone on an empty point; colour 1 (black) moves first."
                .to_string(),
        );
        if self.is_renju() {
            lines.push(
                "Win: five in a row. Black (who moves first) wins only with exactly five; white wins with five or more."
                    .to_string(),
            );
            lines.push("Black may not play a forbidden point: one that makes an overline (six or more in a row), a double four (two fours at once, also on one line) or a double three (two open threes at once). A move that makes exactly five wins even if it also makes one of these. White has no restrictions.".to_string());
        } else {
            let overline = if self.overline_wins {
                format!("{} or more", self.line)
            } else {
                format!("exactly {}", self.line)
            };
            lines.push(format!(
                "Win: {overline} stones in an unbroken row, horizontally, vertically or diagonally{}.",
                if self.overline_wins {
                    ""
                } else {
                    " (a longer row does not win)"
                }
            ));
        }
        match self.captures {
            Captures::None => {
                lines.push("There are no captures: stones stay where they are.".into())
            }
            c => {
                let what = if c == Captures::Pairs {
                    "exactly two"
                } else {
                    "exactly two or exactly three"
                };
                lines.push(format!(
                    "Capture: bracket {what} opposing stones in a line between two of your own to remove them. Placing a stone into a bracket is {}.",
                    match self.self_capture {
                        SelfCapture::None => "safe",
                        SelfCapture::Capture => "not safe: the bracketed stones are removed and credited to the bracketing player",
                        SelfCapture::Forbidden => "forbidden",
                    }
                ));
                if self.mixed_captures {
                    lines.push("Bracketed stones may belong to different opponents.".into());
                } else if self.players > 2 {
                    lines.push("Bracketed stones must all belong to one player.".into());
                }
                if self.capture_win > 0 {
                    lines.push(format!(
                        "Win: capture {} stones{}.",
                        self.capture_win,
                        if self.teams {
                            " as a team (teammates' stones score nothing)"
                        } else {
                            ""
                        }
                    ));
                } else {
                    lines.push("Captures do not win the game.".into());
                }
                if self.extra_time_capture {
                    lines.push("Extra-time capture: a winning row that the next player can break by a capture wins only if it survives their move.".into());
                }
            }
        }
        lines.push(match self.opening {
            Opening::None => "Opening: no restriction.".to_string(),
            Opening::Pro => "Opening (pro): colour 1's first stone on the centre, its second at least 3 points from the centre.".to_string(),
            Opening::LongPro => "Opening (long pro): colour 1's first stone on the centre, its second at least 4 points from the centre.".to_string(),
            Opening::Swap => "Opening (swap): the first player places two stones of each colour, then the second player chooses a colour.".to_string(),
            Opening::Swap2 => "Opening (swap2): the first player places three stones (two black, one white); the second player takes black, takes white and places a stone, or places two more and lets the first player choose.".to_string(),
        });
        lines.push("A full board with no winner is a draw.".to_string());
        lines.join("\n")
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_spec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rs(preset: Preset, opts: &[&str]) -> Result<RuleSet, RulesError> {
        RuleSet::with_options(preset, opts)
    }

    #[test]
    fn presets_have_the_designed_defaults() {
        let g = RuleSet::preset(Preset::Gomoku);
        assert_eq!(
            (g.size, g.line, g.overline_wins, g.captures, g.opening),
            (15, 5, true, Captures::None, Opening::None)
        );
        let s = RuleSet::preset(Preset::GomokuStandard);
        assert!(!s.overline_wins);
        let p = RuleSet::preset(Preset::Pente);
        assert_eq!(
            (p.size, p.captures, p.capture_win, p.opening),
            (19, Captures::Pairs, 10, Opening::Pro)
        );
        let k = RuleSet::preset(Preset::Keryo);
        assert_eq!((k.captures, k.capture_win), (Captures::PairsAndTriples, 15));
    }

    #[test]
    fn multiplayer_defaults_follow_the_seed() {
        let p3 = rs(Preset::Pente, &["players=3"]).unwrap();
        assert_eq!((p3.line, p3.capture_win, p3.opening), (4, 8, Opening::None));
        let k4 = rs(Preset::Keryo, &["players=4"]).unwrap();
        assert_eq!((k4.line, k4.capture_win), (4, 12));
        let t = rs(Preset::Pente, &["players=4", "teams=on"]).unwrap();
        assert_eq!(
            (t.line, t.capture_win, t.teammate(1), t.teammate(2)),
            (5, 10, Some(3), Some(4))
        );
        let kt = rs(Preset::Keryo, &["players=4", "teams=on"]).unwrap();
        assert_eq!(kt.capture_win, 15);
    }

    #[test]
    fn nonsense_combinations_are_refused() {
        let conflict = |r: Result<RuleSet, RulesError>| match r {
            Err(RulesError::Conflict(c)) => c,
            other => panic!("expected a conflict, got {other:?}"),
        };
        assert_eq!(
            conflict(rs(Preset::Pente, &["players=3", "capture_win=0"])),
            Conflict::CaptureWinNeededForMultiplayer
        );
        assert_eq!(
            conflict(rs(Preset::Pente, &["players=3", "teams=on"])),
            Conflict::TeamsNeedFourPlayers
        );
        assert_eq!(
            conflict(rs(Preset::Pente, &["teams=on"])),
            Conflict::TeamsNeedFourPlayers
        );
        assert_eq!(
            conflict(rs(Preset::Pente, &["players=4", "opening=pro"])),
            Conflict::OpeningNeedsTwoPlayers(Opening::Pro)
        );
        assert_eq!(
            conflict(rs(Preset::Gomoku, &["capture_win=10"])),
            Conflict::CaptureWinWithoutCaptures
        );
        assert_eq!(
            conflict(rs(Preset::Gomoku, &["self_capture=forbidden"])),
            Conflict::SelfCaptureWithoutCaptures
        );
        assert_eq!(
            conflict(rs(Preset::Gomoku, &["extra_time_capture=on"])),
            Conflict::ExtraTimeWithoutCaptures
        );
        assert_eq!(
            conflict(rs(Preset::Pente, &["mixed_captures=on"])),
            Conflict::MixedCapturesNeedMultiplayer
        );
        assert!(matches!(
            rs(Preset::Pente, &["size=7"]),
            Err(RulesError::BadValue { key: "size", .. })
        ));
        assert!(matches!(
            rs(Preset::Pente, &["size=7x"]),
            Err(RulesError::BadValue { key: "size", .. })
        ));
        assert!(matches!(
            rs(Preset::Pente, &["colour=red"]),
            Err(RulesError::UnknownOption(_))
        ));
        assert!(matches!(
            rs(Preset::Pente, &["size"]),
            Err(RulesError::NotKeyValue(_))
        ));
        assert!(matches!(
            rs(Preset::Pente, &["size=9", "size=13"]),
            Err(RulesError::Duplicate(_))
        ));
        assert!(matches!(
            rs(Preset::Pente, &["capture_win=1"]),
            Err(RulesError::BadValue { .. })
        ));
        assert!(matches!(
            "chess".parse::<Preset>(),
            Err(RulesError::UnknownPreset(_))
        ));
    }

    #[test]
    fn explicit_values_are_kept_not_changed() {
        let r = rs(Preset::Gomoku, &["captures=pairs"]).unwrap();
        assert_eq!(r.capture_win, 10);
        let r = rs(Preset::Pente, &["capture_win=0", "opening=none", "size=13"]).unwrap();
        assert_eq!((r.capture_win, r.opening, r.size), (0, Opening::None, 13));
        let r = rs(
            Preset::Pente,
            &["players=3", "opening=none", "mixed_captures=on", "line=5"],
        )
        .unwrap();
        assert_eq!(
            (r.opening, r.mixed_captures, r.line),
            (Opening::None, true, 5)
        );
    }

    #[test]
    fn spec_round_trips() {
        let cases: &[(Preset, &[&str])] = &[
            (Preset::Pente, &[]),
            (
                Preset::Pente,
                &["size=13", "opening=swap2", "self_capture=capture"],
            ),
            (Preset::Keryo, &["players=4", "teams=on", "capture_win=20"]),
            (Preset::Gomoku, &["players=3", "line=5", "captures=pairs"]),
            (Preset::GomokuStandard, &["size=19", "overline=wins"]),
            (
                Preset::Pente,
                &["players=3", "mixed_captures=on", "extra_time_capture=on"],
            ),
        ];
        for (p, o) in cases {
            let r = rs(*p, o).unwrap();
            let back = RuleSet::from_spec(&r.to_spec()).unwrap();
            assert_eq!(back, r, "{}", r.to_spec());
        }
        assert_eq!(RuleSet::preset(Preset::Pente).to_spec(), "pente");
        assert_eq!(
            rs(Preset::GomokuStandard, &["size=19", "overline=wins"])
                .unwrap()
                .to_spec(),
            "gomoku-standard size=19 overline=wins"
        );
    }
}
