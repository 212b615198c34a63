//! The slash commands. English names here; Spanish and Finnish names, descriptions and choice
//! labels come from the Fluent files ([`super::localize`]).

use poise::CreateReply;
use poise::serenity_prelude as serenity;
use serenity::{AutocompleteChoice, CreateAttachment, CreateAutocompleteResponse};

use super::announce::announce;
use super::choices::{
    CapturesChoice, FormatChoice, GameChoice, LanguageChoice, LineChoice, OpeningChoice,
    OverlineChoice, PingsChoice, PlayersChoice, RuleChoices, SelfCaptureChoice, SizeChoice,
    chosen_time_and_rules, set_option, starting_options,
};
use super::context::{
    actor_of, answering_actor_of, autocomplete_game, interaction, origin, private_lang,
    public_lang, say_error, say_private, typed_option,
};
use super::post;
use super::rest::{Op, counted};
use super::text;
use super::{Context, Error};
use crate::i18n::{Lang, rules_text};
use crate::rules::record::GameRecord;
use crate::rules::{Action, RuleSet};
use crate::service::{
    ChallengeRequest, ChannelId, GameId, MessageId, Notify, ServiceError, UserId, UserInfo,
};

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
    let chosen = chosen_time_and_rules(ctx, actor.guild, days_per_move, minutes_per_move, choices);
    let (time, rules) = match chosen.await {
        Ok(chosen) => chosen,
        Err(refusal) => return say_private(ctx, refusal).await,
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
            announce(
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
            announce(
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
