//! The choices of the slash commands' options (game, size, opening, players, captures…) and
//! the rule set they make, shared by `/challenge`, `/settings` and `/tournament create`.

use super::Context;
use super::context::private_lang;
use super::text::{self, error_text};
use crate::rules::{Preset, RuleSet};
use crate::service::{GuildId, TimeControl};

/// Game presets.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum GameChoice {
    /// Freestyle Gomoku.
    #[name = "gomoku"]
    Gomoku,
    /// Standard Gomoku.
    #[name = "gomoku-standard"]
    GomokuStandard,
    /// Pente.
    #[name = "pente"]
    Pente,
    /// Keryo-Pente.
    #[name = "keryo"]
    Keryo,
    /// Renju.
    #[name = "renju"]
    Renju,
}

impl GameChoice {
    pub(super) fn preset(self) -> Preset {
        match self {
            GameChoice::Gomoku => Preset::Gomoku,
            GameChoice::GomokuStandard => Preset::GomokuStandard,
            GameChoice::Pente => Preset::Pente,
            GameChoice::Keryo => Preset::Keryo,
            GameChoice::Renju => Preset::Renju,
        }
    }
}

/// Board sizes.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum SizeChoice {
    /// 9x9.
    #[name = "9x9"]
    S9,
    /// 13x13.
    #[name = "13x13"]
    S13,
    /// 15x15.
    #[name = "15x15"]
    S15,
    /// 19x19.
    #[name = "19x19"]
    S19,
}

impl SizeChoice {
    pub(super) fn value(self) -> u8 {
        match self {
            SizeChoice::S9 => 9,
            SizeChoice::S13 => 13,
            SizeChoice::S15 => 15,
            SizeChoice::S19 => 19,
        }
    }
}

/// Opening rules.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum OpeningChoice {
    /// Free.
    #[name = "none"]
    None,
    /// Pro.
    #[name = "pro"]
    Pro,
    /// Long pro.
    #[name = "long-pro"]
    LongPro,
    /// Swap.
    #[name = "swap"]
    Swap,
    /// Swap2.
    #[name = "swap2"]
    Swap2,
    /// Taraguchi-10 (Renju).
    #[name = "taraguchi-10"]
    Taraguchi10,
    /// Soosõrv-8 (Renju).
    #[name = "soosorv-8"]
    Soosorv8,
}

impl OpeningChoice {
    pub(super) fn value(self) -> &'static str {
        match self {
            OpeningChoice::None => "none",
            OpeningChoice::Pro => "pro",
            OpeningChoice::LongPro => "long-pro",
            OpeningChoice::Swap => "swap",
            OpeningChoice::Swap2 => "swap2",
            OpeningChoice::Taraguchi10 => "taraguchi-10",
            OpeningChoice::Soosorv8 => "soosorv-8",
        }
    }
}

/// Number of players.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum PlayersChoice {
    /// Two.
    #[name = "2"]
    Two,
    /// Three (a lobby).
    #[name = "3"]
    Three,
    /// Four (a lobby).
    #[name = "4"]
    Four,
}

/// Which groups are captured.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum CapturesChoice {
    /// None.
    #[name = "none"]
    None,
    /// Pairs.
    #[name = "pairs"]
    Pairs,
    /// Pairs and triples.
    #[name = "pairs-and-triples"]
    PairsAndTriples,
}

/// Stones in a row that win.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum LineChoice {
    /// Four.
    #[name = "4"]
    Four,
    /// Five.
    #[name = "5"]
    Five,
}

/// Whether an overline wins.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum OverlineChoice {
    /// Longer rows win.
    #[name = "wins"]
    Wins,
    /// Only exact rows win.
    #[name = "no"]
    No,
}

/// Self-capture handling.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum SelfCaptureChoice {
    /// Safe.
    #[name = "none"]
    None,
    /// Captured.
    #[name = "capture"]
    Capture,
    /// Forbidden.
    #[name = "forbidden"]
    Forbidden,
}

/// Languages for preferences and settings.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum LanguageChoice {
    /// Follow Discord.
    #[name = "auto"]
    Auto,
    /// English.
    #[name = "en"]
    En,
    /// Spanish.
    #[name = "es"]
    Es,
    /// Finnish.
    #[name = "fi"]
    Fi,
}

impl LanguageChoice {
    pub(super) fn code(self) -> Option<String> {
        match self {
            LanguageChoice::Auto => None,
            LanguageChoice::En => Some("en".into()),
            LanguageChoice::Es => Some("es".into()),
            LanguageChoice::Fi => Some("fi".into()),
        }
    }
}

/// Turn notifications.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum PingsChoice {
    /// Mention in the game's channel.
    #[name = "mention"]
    Mention,
    /// Mention and direct message.
    #[name = "direct"]
    Direct,
    /// No mention.
    #[name = "off"]
    Off,
}

/// Export formats.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum FormatChoice {
    /// All of them.
    #[name = "all"]
    All,
    /// pente.org text (PGN).
    #[name = "pente"]
    Pgn,
    /// SGF.
    #[name = "sgf"]
    Sgf,
    /// Animated GIF.
    #[name = "gif"]
    Gif,
    /// Piskvork / Gomocup PSQ (Gomoku without captures only).
    #[name = "psq"]
    Psq,
}

/// Replaces or adds `key=value` in an option list.
pub(super) fn set_option(options: &mut Vec<String>, key: &str, value: impl std::fmt::Display) {
    let prefix = format!("{key}=");
    options.retain(|o| !o.starts_with(&prefix));
    options.push(format!("{key}={value}"));
}

/// The preset and options a command starts from: the chosen game without options, or the
/// server's default game with its options; then the chosen board size.
pub(super) fn starting_options(
    default: &RuleSet,
    game: Option<GameChoice>,
    size: Option<SizeChoice>,
) -> (Preset, Vec<String>) {
    let (preset, mut options) = match game {
        Some(g) => (g.preset(), Vec::new()),
        None => (default.preset, default.changed_options()),
    };
    if let Some(s) = size {
        set_option(&mut options, "size", s.value());
    }
    (preset, options)
}

/// A switch as a rule option's value.
pub(super) fn on_off(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

/// The rule options of `/challenge`, also taken by `/tournament create`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RuleChoices {
    pub game: Option<GameChoice>,
    pub size: Option<SizeChoice>,
    pub opening: Option<OpeningChoice>,
    pub players: Option<PlayersChoice>,
    pub teams: Option<bool>,
    pub captures: Option<CapturesChoice>,
    pub capture_win: Option<u16>,
    pub line: Option<LineChoice>,
    pub overline: Option<OverlineChoice>,
    pub self_capture: Option<SelfCaptureChoice>,
    pub extra_time_capture: Option<bool>,
    pub mixed_captures: Option<bool>,
}

/// The time control and rules a command that starts play asked for (`/challenge`,
/// `/tournament create`): the time from its two time options (`None`: the server's default),
/// the rules from `choices` over the server's default game. Both commands refuse the same
/// three ways, so the refusal comes back as words to answer privately.
///
/// # Errors
/// The refusal in the user's language: both time options given, the server's settings not
/// read, or rule options that make no sense together.
pub(super) async fn chosen_time_and_rules(
    ctx: Context<'_>,
    guild: GuildId,
    days_per_move: Option<u16>,
    minutes_per_move: Option<u16>,
    choices: RuleChoices,
) -> Result<(Option<TimeControl>, RuleSet), String> {
    let i18n = &ctx.data().i18n;
    let time = match super::clocks::time_choice(days_per_move, minutes_per_move) {
        Ok(t) => t,
        Err(e) => {
            let lang = private_lang(ctx).await;
            return Err(super::clocks::time_choice_error_text(i18n, lang, e));
        }
    };
    let settings = match ctx.data().service.guild_settings(guild).await {
        Ok(s) => s,
        Err(e) => return Err(error_text(i18n, private_lang(ctx).await, &e)),
    };
    match choices.rules(&settings.default_rules) {
        Ok(rules) => Ok((time, rules)),
        Err(e) => Err(text::rules_error_text(i18n, private_lang(ctx).await, &e)),
    }
}

impl RuleChoices {
    /// The rule set chosen, starting from the server's default game when none is chosen.
    ///
    /// # Errors
    /// The rules core's reason when the options make no sense together.
    pub(super) fn rules(&self, default: &RuleSet) -> Result<RuleSet, crate::rules::RulesError> {
        let (preset, mut options) = starting_options(default, self.game, self.size);
        if let Some(p) = self.players {
            let n = match p {
                PlayersChoice::Two => 2,
                PlayersChoice::Three => 3,
                PlayersChoice::Four => 4,
            };
            set_option(&mut options, "players", n);
            if n > 2 && self.opening.is_none() {
                // The server's default opening is for two players; a lobby has none.
                options.retain(|o| !o.starts_with("opening="));
            }
        }
        if let Some(o) = self.opening {
            set_option(&mut options, "opening", o.value());
        }
        if let Some(t) = self.teams {
            set_option(&mut options, "teams", on_off(t));
        }
        if let Some(c) = self.captures {
            set_option(
                &mut options,
                "captures",
                match c {
                    CapturesChoice::None => "none",
                    CapturesChoice::Pairs => "pairs",
                    CapturesChoice::PairsAndTriples => "pairs-and-triples",
                },
            );
        }
        if let Some(w) = self.capture_win {
            set_option(&mut options, "capture_win", w);
        }
        if let Some(l) = self.line {
            set_option(
                &mut options,
                "line",
                if matches!(l, LineChoice::Four) { 4 } else { 5 },
            );
        }
        if let Some(o) = self.overline {
            set_option(
                &mut options,
                "overline",
                if matches!(o, OverlineChoice::Wins) {
                    "wins"
                } else {
                    "no"
                },
            );
        }
        if let Some(s) = self.self_capture {
            set_option(
                &mut options,
                "self_capture",
                match s {
                    SelfCaptureChoice::None => "none",
                    SelfCaptureChoice::Capture => "capture",
                    SelfCaptureChoice::Forbidden => "forbidden",
                },
            );
        }
        if let Some(e) = self.extra_time_capture {
            set_option(&mut options, "extra_time_capture", on_off(e));
        }
        if let Some(m) = self.mixed_captures {
            set_option(&mut options, "mixed_captures", on_off(m));
        }
        RuleSet::with_options(preset, &options)
    }
}
