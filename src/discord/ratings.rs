//! Ratings and records on Discord: `/leaderboard` (paged with buttons), `/rating`,
//! `/history` and `/replay`.
//!
//! The leaderboard's Previous / Next buttons carry the family and the page they lead to in
//! their `custom_id` (`gb:lb:pente:2`), so anyone may page, and they keep working after a
//! restart: a click reads that page afresh and rewrites the message.

use poise::CreateReply;
use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, CreateActionRow, CreateAttachment, CreateButton, CreateInteractionResponse,
    CreateInteractionResponseMessage,
};

use super::choices::GameChoice;
use super::context::{actor_of, origin, private_lang, public_lang, say_error, say_private};
use super::rest::{Op, counted};
use super::text::{self, mention};
use super::{Context, Data, Error};
use crate::i18n::rules_text::preset_name;
use crate::i18n::{I18n, Lang};
use crate::rules::record::PsqError;
use crate::service::{
    Family, GameId, GameOutcome, GuildId, HistoryEntry, LeaderboardPage, PlayerRatings, Rating,
    ResultReason, UserId,
};

/// A leaderboard paging button: which family, which page it shows (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaderboardButton {
    /// The family ranked.
    pub family: Family,
    /// The page to show.
    pub page: u32,
}

const PREFIX: &str = "gb:lb:";

impl LeaderboardButton {
    /// The `custom_id`.
    pub fn custom_id(self) -> String {
        format!("{PREFIX}{}:{}", self.family, self.page)
    }

    /// Reads a `custom_id`; `None` unless it is exactly a leaderboard button's.
    pub fn parse(id: &str) -> Option<LeaderboardButton> {
        let (family, page) = id.strip_prefix(PREFIX)?.split_once(':')?;
        if !page.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(LeaderboardButton {
            family: family.parse().ok()?,
            page: page.parse().ok()?,
        })
    }
}

fn family_name(i18n: &I18n, lang: Lang, family: Family) -> String {
    preset_name(i18n, lang, family.preset())
}

fn family_of_choice(game: GameChoice) -> Family {
    match game {
        GameChoice::Gomoku => Family::Gomoku,
        GameChoice::GomokuStandard => Family::GomokuStandard,
        GameChoice::Pente => Family::Pente,
        GameChoice::Keryo => Family::Keryo,
        GameChoice::Renju => Family::Renju,
    }
}

/// A rating as shown: `1663 ±290`.
fn rating_value(r: &Rating) -> String {
    format!("{:.0} ±{:.0}", r.rating, r.deviation)
}

/// A rating change as shown: `+162`, `-12`, `+0`.
pub fn signed_change(before: f64, after: f64) -> String {
    // Saturating, and NaN becomes 0: never a panic or a "-0".
    let d = (after - before).round() as i64;
    format!("{d:+}")
}

/// The text and buttons of a leaderboard page.
pub fn leaderboard_message(
    i18n: &I18n,
    lang: Lang,
    page: &LeaderboardPage,
) -> (String, Vec<CreateActionRow>) {
    let game = family_name(i18n, lang, page.family);
    let mut lines = vec![i18n.tr(
        lang,
        "leaderboard-title",
        &[
            ("game", game.clone().into()),
            ("page", page.page.into()),
            ("pages", page.pages.into()),
        ],
    )];
    if page.entries.is_empty() {
        lines.push(i18n.tr(lang, "leaderboard-empty", &[("game", game.into())]));
    }
    for e in &page.entries {
        let r = &e.rating;
        lines.push(i18n.tr(
            lang,
            "leaderboard-line",
            &[
                ("rank", e.rank.into()),
                ("player", mention(e.user).into()),
                ("rating", rating_value(r).into()),
                ("games", r.games.into()),
                ("wins", r.wins.into()),
                ("losses", r.losses.into()),
                ("draws", r.draws.into()),
            ],
        ));
    }
    let button = |page_to: u32, key: &str, enabled: bool| {
        CreateButton::new(
            LeaderboardButton {
                family: page.family,
                page: page_to,
            }
            .custom_id(),
        )
        .label(i18n.get(lang, key))
        .style(ButtonStyle::Secondary)
        .disabled(!enabled)
    };
    // Both buttons always show (greyed out at the ends) so the message keeps its shape;
    // their ids differ because their pages do.
    let row = vec![
        button(
            page.page.saturating_sub(1),
            "button-previous",
            page.has_previous(),
        ),
        button(page.page.saturating_add(1), "button-next", page.has_next()),
    ];
    (
        text::clip(lines.join("\n")),
        vec![CreateActionRow::Buttons(row)],
    )
}

/// A member's ratings, in words.
pub fn ratings_text(i18n: &I18n, lang: Lang, ratings: &PlayerRatings) -> String {
    let who = mention(ratings.user);
    if ratings.server.is_empty() && ratings.global.is_empty() {
        return i18n.tr(lang, "rating-none", &[("player", who.into())]);
    }
    let mut lines = vec![i18n.tr(lang, "rating-title", &[("player", who.into())])];
    for (key, list) in [
        ("rating-server", &ratings.server),
        ("rating-global", &ratings.global),
    ] {
        lines.push(format!("**{}**", i18n.get(lang, key)));
        if list.is_empty() {
            lines.push(i18n.get(lang, "rating-scope-none"));
        }
        for r in list {
            lines.push(i18n.tr(
                lang,
                "rating-line",
                &[
                    ("game", family_name(i18n, lang, r.family).into()),
                    ("rating", format!("{:.0}", r.rating).into()),
                    ("deviation", format!("{:.0}", r.deviation).into()),
                    ("games", r.games.into()),
                    ("wins", r.wins.into()),
                    ("losses", r.losses.into()),
                    ("draws", r.draws.into()),
                ],
            ));
        }
    }
    text::clip(lines.join("\n"))
}

fn reason_key(reason: ResultReason) -> &'static str {
    match reason {
        ResultReason::Line => "history-by-line",
        ResultReason::Captures => "history-by-captures",
        ResultReason::BoardFull => "history-by-board-full",
        ResultReason::Resignation { .. } => "history-by-resignation",
        ResultReason::Timeout { .. } => "history-by-timeout",
        ResultReason::DrawAgreed => "history-by-agreement",
    }
}

/// One game of a history, in words.
pub fn history_line(i18n: &I18n, lang: Lang, e: &HistoryEntry) -> String {
    let result = i18n.get(
        lang,
        match e.outcome {
            GameOutcome::Won => "history-won",
            GameOutcome::Lost => "history-lost",
            GameOutcome::Drawn => "history-drawn",
        },
    );
    let opponents = e
        .opponents
        .iter()
        .map(|p| mention(p.user))
        .collect::<Vec<_>>()
        .join(", ");
    let change = match e.change {
        Some(c) => signed_change(c.server.0, c.server.1),
        None => i18n.get(lang, "history-unrated"),
    };
    i18n.tr(
        lang,
        "history-line",
        &[
            ("id", e.game.0.into()),
            ("game", family_name(i18n, lang, e.family).into()),
            ("result", result.into()),
            ("reason", i18n.get(lang, reason_key(e.reason)).into()),
            ("opponents", opponents.into()),
            ("change", change.into()),
            (
                "when",
                format!("<t:{}:R>", e.finished_at.unix_seconds()).into(),
            ),
        ],
    )
}

/// Why a game cannot be exported as PSQ, in words.
pub fn psq_refusal(i18n: &I18n, lang: Lang, game: GameId, e: &PsqError) -> String {
    match e {
        PsqError::Captures => i18n.tr(lang, "export-psq-captures", &[("id", game.0.into())]),
        PsqError::Players(n) => i18n.tr(
            lang,
            "export-psq-players",
            &[("id", game.0.into()), ("players", (*n).into())],
        ),
    }
}

/// The autocomplete label of a finished game (`#12 · Bo · won`), at most 100 characters.
pub fn finished_label(i18n: &I18n, lang: Lang, e: &HistoryEntry) -> String {
    let opponents: Vec<&str> = e.opponents.iter().map(|p| p.name.as_str()).collect();
    let result = i18n.get(
        lang,
        match e.outcome {
            GameOutcome::Won => "history-won",
            GameOutcome::Lost => "history-lost",
            GameOutcome::Drawn => "history-drawn",
        },
    );
    let label = format!("#{} · {} · {}", e.game.0, opponents.join(", "), result);
    if label.chars().count() > 100 {
        label.chars().take(99).collect::<String>() + "…"
    } else {
        label
    }
}

/// Autocomplete for commands that also take finished games (/replay, /export): your games
/// in play, then your last finished ones.
pub async fn autocomplete_any_game(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let Some(actor) = actor_of(ctx) else {
        return serenity::CreateAutocompleteResponse::new();
    };
    let data = ctx.data();
    let lang = private_lang(ctx).await;
    let typed = partial.trim().trim_start_matches('#');
    let mut choices = Vec::new();
    if let Ok(active) = data.service.active_games(actor.guild, actor.user.id).await {
        choices.extend(active.iter().map(|g| {
            let label = text::summary_label(&data.i18n, lang, actor.user.id, g);
            (g.id, label)
        }));
    }
    if let Ok(done) = data.service.history(actor.guild, actor.user.id).await {
        choices.extend(
            done.iter()
                .map(|e| (e.game, finished_label(&data.i18n, lang, e))),
        );
    }
    let choices = choices
        .into_iter()
        .filter(|(id, _)| id.0.to_string().starts_with(typed))
        .take(25)
        .map(|(id, label)| serenity::AutocompleteChoice::new(label, id.0))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// The member a command is about: the one named, else the caller.
fn subject(ctx: Context<'_>, member: Option<&serenity::User>) -> UserId {
    UserId(member.unwrap_or_else(|| ctx.author()).id.get())
}

/// This server's ranking for a game (default: the server's default game), paged.
#[poise::command(slash_command, guild_only)]
pub async fn leaderboard(ctx: Context<'_>, game: Option<GameChoice>) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let family = match game {
        Some(g) => family_of_choice(g),
        None => match data.service.default_family(actor.guild).await {
            Ok(f) => f,
            Err(e) => return say_error(ctx, &e).await,
        },
    };
    let page = match data.service.leaderboard(actor.guild, family, 1).await {
        Ok(p) => p,
        Err(e) => return say_error(ctx, &e).await,
    };
    // Public, so that anyone can page through it.
    let lang = public_lang(ctx).await;
    let (content, components) = leaderboard_message(&data.i18n, lang, &page);
    counted(
        Op::Answer,
        ctx.send(
            CreateReply::default()
                .content(content)
                .components(components),
        ),
    )
    .await?;
    Ok(())
}

/// Shows another page of a leaderboard in the clicked message (anyone may click).
///
/// # Errors
/// Only when Discord cannot be answered.
pub async fn turn_page(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    button: LeaderboardButton,
) -> Result<(), Error> {
    let guild = GuildId(click.guild_id.map_or(0, |g| g.get()));
    match data
        .service
        .leaderboard(guild, button.family, button.page)
        .await
    {
        Ok(page) => {
            let lang = data.public_lang(guild, click.guild_locale.as_deref()).await;
            let (content, components) = leaderboard_message(&data.i18n, lang, &page);
            let update = CreateInteractionResponseMessage::new()
                .content(content)
                .components(components)
                .allowed_mentions(serenity::CreateAllowedMentions::new());
            counted(
                Op::Answer,
                click.create_response(&ctx.http, CreateInteractionResponse::UpdateMessage(update)),
            )
            .await?;
        }
        Err(e) => {
            let lang = data
                .private_lang(UserId(click.user.id.get()), &click.locale)
                .await;
            super::components::reply_private(ctx, click, text::error_text(&data.i18n, lang, &e))
                .await?;
        }
    }
    Ok(())
}

/// A member's ratings (default: yours), per game, on this server and on all servers.
#[poise::command(slash_command, guild_only)]
pub async fn rating(ctx: Context<'_>, member: Option<serenity::User>) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let user = subject(ctx, member.as_ref());
    match data.service.ratings(actor.guild, user).await {
        Ok(r) => {
            let lang = private_lang(ctx).await;
            say_private(ctx, ratings_text(&data.i18n, lang, &r)).await
        }
        Err(e) => say_error(ctx, &e).await,
    }
}

/// A member's recent games on this server (default: yours): results and rating changes.
#[poise::command(slash_command, guild_only)]
pub async fn history(ctx: Context<'_>, member: Option<serenity::User>) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let user = subject(ctx, member.as_ref());
    let lang = private_lang(ctx).await;
    match data.service.history(actor.guild, user).await {
        Ok(list) if list.is_empty() => {
            say_private(
                ctx,
                data.i18n
                    .tr(lang, "history-none", &[("player", mention(user).into())]),
            )
            .await
        }
        Ok(list) => {
            let mut lines =
                vec![
                    data.i18n
                        .tr(lang, "history-title", &[("player", mention(user).into())]),
                ];
            lines.extend(list.iter().map(|e| history_line(&data.i18n, lang, e)));
            say_private(ctx, lines.join("\n")).await
        }
        Err(e) => say_error(ctx, &e).await,
    }
}

/// A file size for people: `3.2 MB`, `512 KB` (units are the same in every language).
fn size_text(bytes: u64) -> String {
    const MB: f64 = 1024.0 * 1024.0;
    if bytes as f64 >= MB {
        format!("{:.1} MB", bytes as f64 / MB)
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}

/// The animated replay of a game (finished or not), for everyone in the channel.
#[poise::command(slash_command, guild_only)]
pub async fn replay(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_any_game"] game: Option<i64>,
) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let view = match data.service.board(&actor, game.map(GameId)).await {
        Ok(v) => v,
        Err(e) => return say_error(ctx, &e).await,
    };
    // Drawing every frame takes a while for long games: acknowledge first.
    counted(Op::Answer, ctx.defer()).await?;
    let lang = public_lang(ctx).await;
    let prefs = data
        .service
        .preferences(actor.user.id)
        .await
        .unwrap_or_default();
    let opts = text::render_options(&data.i18n, lang, &prefs);
    let rules = *view.game.rules();
    let actions = view.game.record().to_vec();
    let names: Vec<String> = view.seats.iter().map(|s| s.name.clone()).collect();
    // CPU-bound: off the runtime's threads.
    let gif = tokio::task::spawn_blocking(move || {
        crate::render::render_replay_gif(&rules, &actions, &names, &opts)
    })
    .await;
    let limit = u64::from(origin(ctx).attachment_size_limit);
    let id = view.id.0;
    let reply = match gif {
        Ok(Ok(bytes)) if bytes.len() as u64 <= limit => CreateReply::default()
            .content(data.i18n.tr(lang, "replay-ready", &[("id", id.into())]))
            .attachment(CreateAttachment::bytes(bytes, format!("game-{id}.gif"))),
        Ok(Ok(bytes)) => CreateReply::default().content(data.i18n.tr(
            lang,
            "replay-too-large",
            &[
                ("id", id.into()),
                ("size", size_text(bytes.len() as u64).into()),
                ("limit", size_text(limit).into()),
            ],
        )),
        Ok(Err(e)) => {
            tracing::warn!(game = id, %e, "could not draw a replay");
            CreateReply::default().content(data.i18n.tr(
                lang,
                "replay-failed",
                &[("id", id.into())],
            ))
        }
        Err(e) => {
            tracing::error!(game = id, %e, "the replay task failed");
            CreateReply::default().content(data.i18n.tr(
                lang,
                "replay-failed",
                &[("id", id.into())],
            ))
        }
    };
    counted(Op::Answer, ctx.send(reply)).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaderboard_ids_round_trip_and_garbled_ones_are_refused() {
        for family in Family::ALL {
            for page in [0, 1, 2, u32::MAX] {
                let b = LeaderboardButton { family, page };
                let id = b.custom_id();
                assert!(id.len() <= 100, "{id}");
                assert_eq!(LeaderboardButton::parse(&id), Some(b));
            }
        }
        for id in [
            "",
            "gb:lb:",
            "gb:lb:pente",
            "gb:lb:pente:",
            "gb:lb:pente:x",
            "gb:lb:pente:+2",
            "gb:lb:pente:-1",
            "gb:lb:chess:1",
            "gb:lb:Pente:1",
            "gb:lb:pente:1:2",
            "gb:lb:pente:99999999999",
            "xx:lb:pente:1",
            "gb:acc:1",
        ] {
            assert_eq!(LeaderboardButton::parse(id), None, "{id:?}");
        }
    }

    #[test]
    fn sizes_read_naturally() {
        assert_eq!(size_text(4096), "4 KB");
        assert_eq!(size_text(4097), "5 KB");
        assert_eq!(size_text(10 * 1024 * 1024), "10.0 MB");
        assert_eq!(size_text(25_500_000), "24.3 MB");
    }

    #[test]
    fn changes_carry_their_sign() {
        assert_eq!(signed_change(1500.0, 1662.31), "+162");
        assert_eq!(signed_change(1500.0, 1337.69), "-162");
        assert_eq!(signed_change(1500.0, 1500.2), "+0");
        assert_eq!(signed_change(1500.0, 1499.8), "+0");
    }
}
