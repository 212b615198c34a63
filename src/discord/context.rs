//! What every command reads from its context and how it answers privately: the actor, the
//! languages, the private answers and the origin of a board. A leaf of the Discord layer: the
//! command modules use it, it uses none of them.

use poise::CreateReply;
use poise::serenity_prelude as serenity;
use serenity::{AutocompleteChoice, CreateAutocompleteResponse};

use super::rest::{Op, counted};
use super::text::{self, error_text};
use super::{Context, Error, actor};
use crate::i18n::Lang;
use crate::service::{Actor, ChannelId, GuildId, ServiceError, UserId};

/// Where an interaction came from.
#[derive(Clone, Debug)]
pub struct Origin {
    /// Its channel.
    pub channel: ChannelId,
    /// The guild's Discord locale.
    pub guild_locale: Option<String>,
    /// The largest file the answer may carry.
    pub attachment_size_limit: u32,
}

/// The interaction behind a slash command.
pub(super) fn interaction<'a>(ctx: Context<'a>) -> Option<&'a serenity::CommandInteraction> {
    match ctx {
        poise::Context::Application(app) => Some(app.interaction),
        poise::Context::Prefix(_) => None,
    }
}

/// Who runs the command, where (`None` outside a server).
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

/// The language of answers only the user sees: their preference, else their Discord locale.
pub(super) async fn private_lang(ctx: Context<'_>) -> Lang {
    ctx.data()
        .private_lang(UserId(ctx.author().id.get()), ctx.locale().unwrap_or("en"))
        .await
}

/// The language of what the whole channel sees: the server's setting, else its locale.
pub(super) async fn public_lang(ctx: Context<'_>) -> Lang {
    let guild = GuildId(ctx.guild_id().map_or(0, |g| g.get()));
    let guild_locale = interaction(ctx).and_then(|i| i.guild_locale.as_deref());
    ctx.data().public_lang(guild, guild_locale).await
}

/// Answers the command with a message only the user sees.
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

/// Answers the command with a service refusal in words, only to the user.
pub(super) async fn say_error(ctx: Context<'_>, e: &ServiceError) -> Result<(), Error> {
    let lang = private_lang(ctx).await;
    say_private(ctx, error_text(&ctx.data().i18n, lang, e)).await
}

/// Where the command came from: its channel, the guild's locale, the upload limit.
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

/// Reads an option of the command being typed (for autocomplete of one option from another).
pub(super) fn typed_option(
    ctx: Context<'_>,
    name: &str,
) -> Option<serenity::CommandDataOptionValue> {
    interaction(ctx)?
        .data
        .options
        .iter()
        .find(|o| o.name == name)
        .map(|o| o.value.clone())
}

/// Autocompletes a game id among the user's active games on this server.
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
