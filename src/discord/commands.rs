//! The slash commands. English names here; Spanish and Finnish names, descriptions and choice
//! labels come from the Fluent files ([`super::localize`]).

use poise::CreateReply;
use poise::serenity_prelude as serenity;
use serenity::{AutocompleteChoice, CreateAttachment, CreateAutocompleteResponse};

use super::post::{self, Origin};
use super::rest::{Op, counted};
use super::text::{self, error_text};
use super::{Context, Error, actor};
use crate::i18n::{Lang, rules_text};
use crate::rules::record::GameRecord;
use crate::rules::{Action, Preset, RuleSet};
use crate::service::{
    Actor, ChallengeRequest, ChannelId, GameId, GuildId, MessageId, Notify, ServiceError, UserId,
    UserInfo,
};

/// Every command of the bot, in menu order.
pub fn all() -> Vec<poise::Command<super::Data, Error>> {
    vec![
        challenge(),
        move_(),
        board(),
        games(),
        resign(),
        rules(),
        prefs(),
        settings(),
        export(),
        super::offers::undo(),
        super::offers::draw(),
        super::clocks::vacation(),
        super::ratings::leaderboard(),
        super::ratings::rating(),
        super::ratings::history(),
        super::ratings::replay(),
        super::tournaments::tournament(),
        super::review::review(),
    ]
}

/// The interaction behind a slash command.
pub(super) fn interaction<'a>(ctx: Context<'a>) -> Option<&'a serenity::CommandInteraction> {
    match ctx {
        poise::Context::Application(app) => Some(app.interaction),
        poise::Context::Prefix(_) => None,
    }
}

pub(super) fn actor_of(ctx: Context<'_>) -> Option<Actor> {
    let guild = ctx.guild_id()?;
    let member = interaction(ctx).and_then(|i| i.member.as_deref());
    Some(actor(guild, ctx.channel_id(), ctx.author(), member))
}

/// The actor of a command whose own answer may carry the game's board: the interaction's
/// token goes with it to the outbox (a board answered before a crash is not posted again).
pub(super) fn answering_actor_of(ctx: Context<'_>) -> Option<Actor> {
    let mut actor = actor_of(ctx)?;
    actor.reply = interaction(ctx).map(|i| i.token.clone());
    Some(actor)
}

pub(super) async fn private_lang(ctx: Context<'_>) -> Lang {
    ctx.data()
        .private_lang(UserId(ctx.author().id.get()), ctx.locale().unwrap_or("en"))
        .await
}

pub(super) async fn public_lang(ctx: Context<'_>) -> Lang {
    let guild = GuildId(ctx.guild_id().map_or(0, |g| g.get()));
    let guild_locale = interaction(ctx).and_then(|i| i.guild_locale.as_deref());
    ctx.data().public_lang(guild, guild_locale).await
}

pub(super) async fn say_private(ctx: Context<'_>, text: String) -> Result<(), Error> {
    counted(
        Op::Answer,
        ctx.send(
            CreateReply::default()
                .content(text::clip(text))
                .ephemeral(true),
        ),
    )
    .await?;
    Ok(())
}

pub(super) async fn say_error(ctx: Context<'_>, e: &ServiceError) -> Result<(), Error> {
    let lang = private_lang(ctx).await;
    say_private(ctx, error_text(&ctx.data().i18n, lang, e)).await
}

pub(super) fn origin(ctx: Context<'_>) -> Origin {
    let (limit, locale) = interaction(ctx).map_or((8 << 20, None), |i| {
        (i.attachment_size_limit, i.guild_locale.clone())
    });
    Origin {
        channel: ChannelId(ctx.channel_id().get()),
        guild_locale: locale,
        attachment_size_limit: limit,
    }
}

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
    fn preset(self) -> Preset {
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
    fn value(self) -> u8 {
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
    fn value(self) -> &'static str {
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
    fn code(self) -> Option<String> {
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
fn set_option(options: &mut Vec<String>, key: &str, value: impl std::fmt::Display) {
    let prefix = format!("{key}=");
    options.retain(|o| !o.starts_with(&prefix));
    options.push(format!("{key}={value}"));
}

/// The preset and options a command starts from: the chosen game without options, or the
/// server's default game with its options; then the chosen board size.
fn starting_options(
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

fn on_off(b: bool) -> &'static str {
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

/// Challenge a member (or anyone, or start a lobby for 3-4 players).
#[poise::command(slash_command, guild_only)]
#[allow(clippy::too_many_arguments)]
pub async fn challenge(
    ctx: Context<'_>,
    opponent: Option<serenity::User>,
    game: Option<GameChoice>,
    size: Option<SizeChoice>,
    opening: Option<OpeningChoice>,
    players: Option<PlayersChoice>,
    teams: Option<bool>,
    #[min = 0]
    #[max = 14]
    days_per_move: Option<u16>,
    rated: Option<bool>,
    captures: Option<CapturesChoice>,
    #[min = 0]
    #[max = 100]
    capture_win: Option<u16>,
    line: Option<LineChoice>,
    overline: Option<OverlineChoice>,
    self_capture: Option<SelfCaptureChoice>,
    extra_time_capture: Option<bool>,
    mixed_captures: Option<bool>,
    #[min = 1]
    #[max = 60]
    minutes_per_move: Option<u16>,
    #[max = 6] level: Option<u8>,
) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let against_engine = opponent
        .as_ref()
        .is_some_and(|u| u.id == ctx.framework().bot_id());
    if level.is_some() && !against_engine {
        let lang = private_lang(ctx).await;
        return say_private(ctx, ctx.data().i18n.get(lang, "engine-level-without-bot")).await;
    }
    let data = ctx.data();
    let time = match super::clocks::time_choice(days_per_move, minutes_per_move) {
        Ok(t) => t,
        Err(e) => {
            let lang = private_lang(ctx).await;
            return say_private(
                ctx,
                super::clocks::time_choice_error_text(&data.i18n, lang, e),
            )
            .await;
        }
    };
    let settings = match data.service.guild_settings(actor.guild).await {
        Ok(s) => s,
        Err(e) => return say_error(ctx, &e).await,
    };
    let choices = RuleChoices {
        game,
        size,
        opening,
        players,
        teams,
        captures,
        capture_win,
        line,
        overline,
        self_capture,
        extra_time_capture,
        mixed_captures,
    };
    let rules = match choices.rules(&settings.default_rules) {
        Ok(r) => r,
        Err(e) => {
            let lang = private_lang(ctx).await;
            return say_private(ctx, text::rules_error_text(&data.i18n, lang, &e)).await;
        }
    };
    if against_engine {
        // The answer carries the game's first board: its token goes to the outbox with the
        // game's start, so that after a crash the thread opens from that answer.
        let mut actor = actor;
        actor.reply = interaction(ctx).map(|i| i.token.clone());
        return super::engine::challenge(ctx, actor, rules, time, level).await;
    }
    let opponent_info = opponent.as_ref().map(|u| {
        let nick = interaction(ctx)
            .and_then(|i| i.data.resolved.members.get(&u.id))
            .and_then(|m| m.nick.clone());
        UserInfo {
            id: UserId(u.id.get()),
            name: nick.unwrap_or_else(|| super::display_name(u, None)),
            is_bot: u.bot,
        }
    });
    let request = ChallengeRequest {
        opponent: opponent_info,
        rules: Some(rules),
        time,
        rated: rated.unwrap_or(false),
    };
    let challenge = match data.service.challenge(&actor, request).await {
        Ok(c) => c,
        Err(e) => return say_error(ctx, &e).await,
    };
    let lang = public_lang(ctx).await;
    let mut message = post::challenge_message(data, lang, &challenge);
    let direct = super::offers::challenge_pings(data, &mut message, &challenge).await;
    let handle = counted(
        Op::Answer,
        ctx.send(
            CreateReply::default()
                .content(message.content)
                .components(message.components)
                .allowed_mentions(message.mentions),
        ),
    )
    .await?;
    match handle.message().await {
        Ok(m) => {
            if let Err(e) = data
                .service
                .set_challenge_message(
                    challenge.id,
                    ChannelId(m.channel_id.get()),
                    MessageId(m.id.get()),
                )
                .await
            {
                tracing::warn!(%e, challenge = challenge.id.0, "could not record the challenge message");
            }
        }
        Err(e) => tracing::warn!(%e, "could not read back the challenge message"),
    }
    super::offers::challenge_dms(ctx.http(), data, &direct, &actor, &challenge).await;
    Ok(())
}

/// Reads an option of the command being typed (for autocomplete of one option from another).
fn typed_option(ctx: Context<'_>, name: &str) -> Option<serenity::CommandDataOptionValue> {
    interaction(ctx)?
        .data
        .options
        .iter()
        .find(|o| o.name == name)
        .map(|o| o.value.clone())
}

pub(super) async fn autocomplete_game(
    ctx: Context<'_>,
    partial: &str,
) -> CreateAutocompleteResponse {
    let Some(actor) = actor_of(ctx) else {
        return CreateAutocompleteResponse::new();
    };
    let data = ctx.data();
    let lang = private_lang(ctx).await;
    let Ok(list) = data.service.active_games(actor.guild, actor.user.id).await else {
        return CreateAutocompleteResponse::new();
    };
    let typed = partial.trim().trim_start_matches('#');
    let choices = list
        .iter()
        .filter(|g| g.id.0.to_string().starts_with(typed))
        .take(25)
        .map(|g| {
            let label = text::summary_label(&data.i18n, lang, actor.user.id, g);
            AutocompleteChoice::new(label, g.id.0)
        })
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

async fn autocomplete_point(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let Some(actor) = actor_of(ctx) else {
        return CreateAutocompleteResponse::new();
    };
    let game = match typed_option(ctx, "game") {
        Some(serenity::CommandDataOptionValue::Integer(i)) => Some(GameId(i)),
        _ => None,
    };
    let Ok(view) = ctx.data().service.board(&actor, game).await else {
        return CreateAutocompleteResponse::new();
    };
    let choices = post::point_suggestions(&view.game, partial)
        .into_iter()
        .map(|name| AutocompleteChoice::new(name.clone(), name))
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// Play a stone (or a swap choice: take:1, take:2, place).
#[poise::command(slash_command, guild_only, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_point"] at: Option<String>,
    #[autocomplete = "autocomplete_game"] game: Option<i64>,
) -> Result<(), Error> {
    // Without a point: the point picker (buttons), for the player to act.
    let Some(at) = at else {
        return super::picker::open_from_command(ctx, game.map(GameId)).await;
    };
    let Some(actor) = answering_actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let game = game.map(GameId);
    let prefs = data
        .service
        .preferences(actor.user.id)
        .await
        .unwrap_or_default();
    if prefs.confirm_move {
        let view = match data.service.board(&actor, game).await {
            Ok(v) => v,
            Err(e) => return say_error(ctx, &e).await,
        };
        match post::check_move(&view, actor.user.id, &at) {
            Err(e) => return say_error(ctx, &e).await,
            Ok(Action::Place(point)) => {
                let lang = private_lang(ctx).await;
                let preview = post::confirmation(
                    data,
                    lang,
                    &view,
                    &prefs,
                    point,
                    origin(ctx).attachment_size_limit,
                );
                let mut reply = CreateReply::default()
                    .content(preview.content)
                    .components(preview.components)
                    .ephemeral(true);
                if let Some(png) = preview.png {
                    reply = reply.attachment(CreateAttachment::bytes(png, "preview.png"));
                }
                counted(Op::Answer, ctx.send(reply)).await?;
                return Ok(());
            }
            // Colour choices are buttons already; typed ones need no second confirmation.
            Ok(_) => {}
        }
    }
    match data.service.play_token(&actor, game, &at, None).await {
        Ok(played) => {
            let lead = {
                let lang = public_lang(ctx).await;
                text::move_text(
                    &data.i18n,
                    lang,
                    &played.view,
                    actor.user.id,
                    &played.report,
                )
            };
            post::announce(
                ctx.serenity_context(),
                data,
                post::Responder::Command(ctx),
                &origin(ctx),
                &played.view,
                Some(lead),
            )
            .await
        }
        Err(e) => say_error(ctx, &e).await,
    }
}

/// Show a game's board (only to you).
#[poise::command(slash_command, guild_only)]
pub async fn board(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_game"] game: Option<i64>,
) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    match data.service.board(&actor, game.map(GameId)).await {
        Ok(view) => {
            let lang = private_lang(ctx).await;
            let prefs = data
                .service
                .preferences(actor.user.id)
                .await
                .unwrap_or_default();
            let message = post::board_message(
                data,
                lang,
                &view,
                &prefs,
                None,
                false,
                origin(ctx).attachment_size_limit,
            );
            let mut reply = CreateReply::default()
                .content(message.content)
                .ephemeral(true);
            if let Some(png) = message.png {
                reply = reply.attachment(CreateAttachment::bytes(png, "board.png"));
            }
            counted(Op::Answer, ctx.send(reply)).await?;
            Ok(())
        }
        Err(e) => say_error(ctx, &e).await,
    }
}

/// List your games on this server: whose turn, deadlines.
#[poise::command(slash_command, guild_only)]
pub async fn games(ctx: Context<'_>) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let lang = private_lang(ctx).await;
    match data.service.active_games(actor.guild, actor.user.id).await {
        Ok(list) if list.is_empty() => say_private(ctx, data.i18n.get(lang, "games-none")).await,
        Ok(list) => {
            let mut lines =
                vec![
                    data.i18n
                        .tr(lang, "games-header", &[("count", list.len().into())]),
                ];
            lines.extend(
                list.iter()
                    .map(|g| text::summary_line(&data.i18n, lang, actor.user.id, g)),
            );
            say_private(ctx, lines.join("\n")).await
        }
        Err(e) => say_error(ctx, &e).await,
    }
}

/// Resign a game.
#[poise::command(slash_command, guild_only)]
pub async fn resign(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_game"] game: Option<i64>,
) -> Result<(), Error> {
    let Some(actor) = answering_actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    match data.service.resign(&actor, game.map(GameId)).await {
        Ok(view) => {
            post::announce(
                ctx.serenity_context(),
                data,
                post::Responder::Command(ctx),
                &origin(ctx),
                &view,
                None,
            )
            .await
        }
        Err(e) => say_error(ctx, &e).await,
    }
}

/// The rules of a game (or of this server's default game), in your language.
#[poise::command(slash_command, guild_only)]
pub async fn rules(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_game"] game: Option<i64>,
) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let lang = private_lang(ctx).await;
    let (title, rule_set) = match data.service.board(&actor, game.map(GameId)).await {
        Ok(view) => (
            text::game_title(&data.i18n, lang, &view),
            *view.game.rules(),
        ),
        Err(ServiceError::NoActiveGame) if game.is_none() => {
            match data.service.guild_settings(actor.guild).await {
                Ok(s) => (data.i18n.get(lang, "rules-server-default"), s.default_rules),
                Err(e) => return say_error(ctx, &e).await,
            }
        }
        Err(e) => return say_error(ctx, &e).await,
    };
    let mut lines = vec![format!("**{title}**")];
    lines.extend(
        rules_text::describe(&data.i18n, lang, &rule_set)
            .into_iter()
            .map(|l| format!("• {l}")),
    );
    lines.push(format!("`{}`", rule_set.to_spec()));
    say_private(ctx, lines.join("\n")).await
}

/// Your preferences: coordinates, highlight, confirmation, language, pings, forbidden points.
#[poise::command(slash_command, guild_only)]
pub async fn prefs(
    ctx: Context<'_>,
    coordinates: Option<bool>,
    highlight: Option<bool>,
    confirm: Option<bool>,
    language: Option<LanguageChoice>,
    pings: Option<PingsChoice>,
    forbidden: Option<bool>,
) -> Result<(), Error> {
    let data = ctx.data();
    let user = UserId(ctx.author().id.get());
    let mut p = match data.service.preferences(user).await {
        Ok(p) => p,
        Err(e) => return say_error(ctx, &e).await,
    };
    let changed = coordinates.is_some()
        || highlight.is_some()
        || confirm.is_some()
        || language.is_some()
        || pings.is_some()
        || forbidden.is_some();
    if let Some(v) = coordinates {
        p.show_coordinates = v;
    }
    if let Some(v) = highlight {
        p.highlight_last_move = v;
    }
    if let Some(v) = confirm {
        p.confirm_move = v;
    }
    if let Some(v) = forbidden {
        p.show_forbidden = v;
    }
    if let Some(l) = language {
        p.language = l.code();
    }
    if let Some(n) = pings {
        p.notify = match n {
            PingsChoice::Mention => Notify::Mention,
            PingsChoice::Direct => Notify::DirectMessage,
            PingsChoice::Off => Notify::Off,
        };
    }
    if changed && let Err(e) = data.service.set_preferences(user, p.clone()).await {
        return say_error(ctx, &e).await;
    }
    let lang = private_lang(ctx).await;
    say_private(ctx, text::prefs_text(&data.i18n, lang, &p, changed)).await
}

/// Server defaults (Manage Server only): default game, board size, opening, time, threads, language.
#[poise::command(
    slash_command,
    guild_only,
    default_member_permissions = "MANAGE_GUILD",
    required_permissions = "MANAGE_GUILD"
)]
#[allow(clippy::too_many_arguments)]
pub async fn settings(
    ctx: Context<'_>,
    game: Option<GameChoice>,
    size: Option<SizeChoice>,
    opening: Option<OpeningChoice>,
    #[min = 0]
    #[max = 14]
    days_per_move: Option<u16>,
    threads: Option<bool>,
    language: Option<LanguageChoice>,
    #[min = 1]
    #[max = 60]
    minutes_per_move: Option<u16>,
) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let lang = private_lang(ctx).await;
    let mut s = match data.service.guild_settings(actor.guild).await {
        Ok(s) => s,
        Err(e) => return say_error(ctx, &e).await,
    };
    let changed = game.is_some()
        || size.is_some()
        || opening.is_some()
        || days_per_move.is_some()
        || minutes_per_move.is_some()
        || threads.is_some()
        || language.is_some();
    if game.is_some() || size.is_some() || opening.is_some() {
        let (preset, mut options) = starting_options(&s.default_rules, game, size);
        if let Some(o) = opening {
            set_option(&mut options, "opening", o.value());
        }
        match RuleSet::with_options(preset, &options) {
            Ok(r) => s.default_rules = r,
            Err(e) => return say_private(ctx, text::rules_error_text(&data.i18n, lang, &e)).await,
        }
    }
    match super::clocks::time_choice(days_per_move, minutes_per_move) {
        Ok(Some(t)) => s.default_time = t,
        Ok(None) => {}
        Err(e) => {
            return say_private(
                ctx,
                super::clocks::time_choice_error_text(&data.i18n, lang, e),
            )
            .await;
        }
    }
    if let Some(t) = threads {
        s.thread_per_game = t;
    }
    if let Some(l) = language {
        s.locale = l.code();
    }
    if changed
        && let Err(e) = data
            .service
            .set_guild_settings(actor.guild, s.clone())
            .await
    {
        return say_error(ctx, &e).await;
    }
    say_private(ctx, text::settings_text(&data.i18n, lang, &s, changed)).await
}

/// Download a game: pente.org text (PGN), SGF, and an animated replay.
#[poise::command(slash_command, guild_only)]
pub async fn export(
    ctx: Context<'_>,
    #[autocomplete = "super::ratings::autocomplete_any_game"] game: Option<i64>,
    format: Option<FormatChoice>,
) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let view = match data.service.board(&actor, game.map(GameId)).await {
        Ok(v) => v,
        Err(e) => return say_error(ctx, &e).await,
    };
    let lang = private_lang(ctx).await;
    // The GIF takes a while for long games: acknowledge first.
    counted(Op::Answer, ctx.defer_ephemeral()).await?;
    let names: Vec<String> = view.seats.iter().map(|s| s.name.clone()).collect();
    let mut record = GameRecord::from_game(&view.game, &names);
    record.event = Some(text::game_title(&data.i18n, Lang::En, &view));
    // The day the game started (UTC): PGN's `[Date "YYYY.MM.DD"]`, SGF's `DT[YYYY-MM-DD]`.
    let (y, m, d) = view.created_at.utc_date();
    record.date = Some(format!("{y:04}.{m:02}.{d:02}"));
    if let crate::service::GameStatus::Finished(r) = view.status {
        record.result = if r.winners.is_empty() {
            crate::rules::record::RecordResult::Draw
        } else {
            crate::rules::record::RecordResult::Won(r.winners.iter().collect())
        };
    }
    let format = format.unwrap_or(FormatChoice::All);
    let mut reply = CreateReply::default()
        .content(
            data.i18n
                .tr(lang, "export-ready", &[("id", view.id.0.into())]),
        )
        .ephemeral(true);
    let stem = format!("game-{}", view.id.0);
    if matches!(format, FormatChoice::All | FormatChoice::Pgn) {
        reply = reply.attachment(CreateAttachment::bytes(
            record.to_pgn().into_bytes(),
            format!("{stem}.pgn"),
        ));
    }
    if matches!(format, FormatChoice::All | FormatChoice::Sgf) {
        reply = reply.attachment(CreateAttachment::bytes(
            record.to_sgf().into_bytes(),
            format!("{stem}.sgf"),
        ));
    }
    if matches!(format, FormatChoice::All | FormatChoice::Psq) {
        // PSQ cannot show captures: refused when asked for, left out of "all".
        match record.to_psq() {
            Ok(psq) => {
                reply = reply.attachment(CreateAttachment::bytes(
                    psq.into_bytes(),
                    format!("{stem}.psq"),
                ));
            }
            Err(e) if matches!(format, FormatChoice::Psq) => {
                return say_private(
                    ctx,
                    super::ratings::psq_refusal(&data.i18n, lang, view.id, &e),
                )
                .await;
            }
            Err(_) => {}
        }
    }
    if matches!(format, FormatChoice::All | FormatChoice::Gif) {
        let prefs = data
            .service
            .preferences(actor.user.id)
            .await
            .unwrap_or_default();
        let opts = text::render_options(&data.i18n, lang, &prefs);
        let rules = *view.game.rules();
        let actions = view.game.record().to_vec();
        let gif = tokio::task::spawn_blocking(move || {
            crate::render::render_replay_gif(&rules, &actions, &names, &opts)
        })
        .await;
        match gif {
            Ok(Ok(bytes)) if bytes.len() as u64 <= u64::from(origin(ctx).attachment_size_limit) => {
                reply = reply.attachment(CreateAttachment::bytes(bytes, format!("{stem}.gif")));
            }
            _ => {
                reply = reply.content(data.i18n.tr(
                    lang,
                    "export-no-gif",
                    &[("id", view.id.0.into())],
                ));
            }
        }
    }
    counted(Op::Answer, ctx.send(reply)).await?;
    Ok(())
}
