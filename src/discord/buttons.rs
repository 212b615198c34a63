//! What a click does: each click is routed by its `custom_id` ([`super::components`]) to the
//! module that owns that kind of button; the challenge buttons are answered here.

use poise::serenity_prelude as serenity;
use serenity::{CreateInteractionResponse, CreateInteractionResponseMessage};

use super::announce::announce_click;
use super::components::{ButtonAction, reply_private};
use super::post::{self, Origin};
use super::rest::{Op, counted};
use super::text::{self, error_text};
use super::{Data, Error, actor};
use crate::i18n::Lang;
use crate::rules::Action;
use crate::service::{Challenge, ChallengeId, ChannelId, UserId};

/// Rewrites the clicked challenge message to show the challenge as it now stands.
async fn refresh_challenge(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    c: &Challenge,
) -> Result<(), Error> {
    let lang = data
        .public_lang(
            crate::service::GuildId(c.guild.0),
            click.guild_locale.as_deref(),
        )
        .await;
    let message = post::challenge_message(data, lang, c);
    let update = CreateInteractionResponseMessage::new()
        .content(message.content)
        .components(message.components)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    counted(
        Op::Answer,
        click.create_response(&ctx.http, CreateInteractionResponse::UpdateMessage(update)),
    )
    .await?;
    Ok(())
}

/// Explains a refused challenge click privately; when the challenge turns out to be closed
/// (expired since the last sweep, say), its message loses its buttons too.
async fn refuse_challenge_click(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    id: ChallengeId,
    lang: Lang,
    e: &crate::service::ServiceError,
) -> Result<(), Error> {
    reply_private(ctx, click, error_text(&data.i18n, lang, e)).await?;
    use crate::service::ServiceError::{ChallengeClosed, ChallengeExpired};
    if matches!(e, ChallengeExpired | ChallengeClosed(_)) && !shows_no_buttons(click) {
        let guild = crate::service::GuildId(click.guild_id.map_or(0, |g| g.get()));
        if let Ok(mut c) = data.service.challenge_info(guild, id).await {
            // The clicked message is the challenge's, even if the click came before the
            // bot had recorded where its message is.
            c.message = Some((
                crate::service::ChannelId(click.message.channel_id.get()),
                crate::service::MessageId(click.message.id.get()),
            ));
            post::show_closed_challenge(&ctx.http, &data.service, &data.i18n, &c).await;
        }
    }
    Ok(())
}

/// Whether the clicked message already shows no buttons (nothing to strike).
fn shows_no_buttons(click: &serenity::ComponentInteraction) -> bool {
    click.message.components.is_empty()
}

/// Handles a button click.
///
/// # Errors
/// Only when Discord cannot be answered; refusals are answered privately.
pub async fn handle(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    let user = UserId(click.user.id.get());
    let lang = data.private_lang(user, &click.locale).await;
    let Some(guild) = click.guild_id else {
        return reply_private(ctx, click, data.i18n.get(lang, "err-guild-only")).await;
    };
    if let Some(page) = super::ratings::LeaderboardButton::parse(&click.data.custom_id) {
        return super::ratings::turn_page(ctx, data, click, page).await;
    }
    if let Some(b) = super::tournaments::TournamentButton::parse(&click.data.custom_id) {
        return super::tournaments::handle_click(ctx, data, click, b).await;
    }
    if let Some(p) = super::picker::PickerId::parse(&click.data.custom_id) {
        return super::picker::handle_click(ctx, data, click, p).await;
    }
    if let Some(game) = super::review::parse_button(&click.data.custom_id) {
        return super::review::handle_click(ctx, data, click, game).await;
    }
    if let Some(c) = super::renju::RenjuComponent::parse(&click.data.custom_id) {
        return super::renju::handle_click(ctx, data, click, c).await;
    }
    let who = actor(guild, click.channel_id, &click.user, click.member.as_ref());
    let service = &data.service;
    let origin = Origin {
        channel: ChannelId(click.channel_id.get()),
        guild_locale: click.guild_locale.clone(),
        attachment_size_limit: click.attachment_size_limit,
    };
    let Some(action) = ButtonAction::parse(&click.data.custom_id) else {
        // An offer's or a rematch's button is the offers module's; anything else is unknown.
        return match super::offers::SocialButton::parse(&click.data.custom_id) {
            Some(s) => super::offers::handle_click(ctx, data, click, &who, &origin, s, lang).await,
            None => reply_private(ctx, click, data.i18n.get(lang, "err-unknown-button")).await,
        };
    };
    match action {
        ButtonAction::Accept(id) | ButtonAction::Join(id) => match service.accept(&who, id).await {
            Ok(acceptance) => {
                refresh_challenge(ctx, data, click, &acceptance.challenge).await?;
                if let Some(view) = acceptance.game {
                    post::start_game(ctx, data, click, view).await?;
                }
                Ok(())
            }
            Err(e) => refuse_challenge_click(ctx, data, click, id, lang, &e).await,
        },
        ButtonAction::Decline(id) | ButtonAction::Cancel(id) | ButtonAction::Leave(id) => {
            let result = match action {
                ButtonAction::Decline(_) => service.decline(&who, id).await,
                ButtonAction::Cancel(_) => service.cancel(&who, id).await,
                _ => service.leave(&who, id).await,
            };
            match result {
                Ok(c) => refresh_challenge(ctx, data, click, &c).await,
                Err(e) => refuse_challenge_click(ctx, data, click, id, lang, &e).await,
            }
        }
        ButtonAction::Take { game, ply, .. } | ButtonAction::PlaceTwo { game, ply } => {
            let act = match action {
                ButtonAction::Take { colour, .. } => Action::Take(colour),
                _ => Action::PlaceTwo,
            };
            let played = service.play(&who, Some(game), act, Some(ply)).await;
            // The old board keeps its text, loses its buttons, and says what was chosen.
            announce_click(ctx, data, click, &origin, played, |said| {
                text::clip(format!("{}\n{said}", click.message.content))
            })
            .await
        }
        ButtonAction::Confirm { game, ply, point } => {
            let played = service
                .play_token(&who, Some(game), &point.name(), Some(ply))
                .await;
            let done = data.i18n.tr(
                lang,
                "confirm-done",
                &[("point", point.name().into()), ("id", game.0.into())],
            );
            announce_click(ctx, data, click, &origin, played, |_| done).await
        }
        ButtonAction::Abort { game } => {
            let update = CreateInteractionResponseMessage::new()
                .content(
                    data.i18n
                        .tr(lang, "confirm-dropped", &[("id", game.0.into())]),
                )
                .components(Vec::new());
            counted(
                Op::Answer,
                click.create_response(&ctx.http, CreateInteractionResponse::UpdateMessage(update)),
            )
            .await?;
            Ok(())
        }
    }
}
