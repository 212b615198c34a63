//! The point picker: play without typing a coordinate.
//!
//! A **Play** button under each board in play (and `/move` without `at`) opens, for the player
//! whose turn it is only, a private message with a window of 5 columns by 4 rows of points as
//! buttons (labelled with their coordinates; occupied points disabled with their stone's
//! colour, points the rules refuse, such as Renju's forbidden points for black, disabled with
//! a cross) and a fifth row to move the window (◀ ▲ ▼ ▶) and to re-centre it on the last
//! stone. The window starts around the last stone played.
//!
//! Every `custom_id` names the game, the ply the picker was made for and the window's corner
//! (`gp:p:<game>:<ply>:<col>:<row>:<point>`, `gp:w:<game>:<ply>:<col>:<row>:<dir>`,
//! `gp:o:<game>:<ply>` for the Play button; under 40 characters), so a picker keeps working
//! after a restart and a stale one (the game moved on) gets a private explanation and changes
//! nothing. A point plays through the same path as `/move`: with move confirmation on, the
//! picker becomes the preview with Confirm / Cancel; otherwise the move is played, the board
//! posted, and the picker closed.
//!
//! The ids and the rows are built with the other buttons ([`super::components::picker`]);
//! this module opens pickers and handles their clicks.

use poise::serenity_prelude as serenity;
use serenity::{CreateAttachment, CreateInteractionResponse, CreateInteractionResponseMessage};

use super::announce::announce_click;
use super::components::picker::{HEIGHT, WIDTH, picker_rows};
pub use super::components::picker::{PickerId, Window};
use super::components::{answer_click, reply_private};
use super::post::{self, Origin};
use super::rest::{Op, counted};
use super::text::{self, error_text};
use super::{Context, Data, Error, actor};
use crate::i18n::{I18n, Lang};
use crate::rules::{Phase, Point};
use crate::service::{ChannelId, GameId, GameView, ServiceError, UserId};

/// The picker's text: which game and which part of the board.
pub fn picker_text(i18n: &I18n, lang: Lang, view: &GameView, w: Window) -> String {
    let size = view.game.size();
    let corner = |c: u8, r: u8| Point::new(c, r, size).map(Point::name).unwrap_or_default();
    i18n.tr(
        lang,
        "picker-title",
        &[
            ("id", view.id.0.into()),
            ("from", corner(w.col, w.row).into()),
            (
                "to",
                corner(
                    (w.col + WIDTH - 1).min(size - 1),
                    (w.row + HEIGHT - 1).min(size - 1),
                )
                .into(),
            ),
        ],
    )
}

/// Why this user may not pick in this game now, if they may not.
fn refusal(view: &GameView, user: UserId, ply: Option<u32>) -> Option<ServiceError> {
    if view.is_over() {
        return Some(ServiceError::GameOver);
    }
    if ply.is_some_and(|p| p != view.ply) {
        return Some(ServiceError::PositionChanged);
    }
    if view.seat_of(user).is_none() {
        return Some(ServiceError::NotAParticipant);
    }
    if view.to_act().map(|s| s.user) != Some(user) {
        return Some(ServiceError::NotYourTurn);
    }
    if !matches!(view.game.phase(), Phase::Playing | Phase::Placing { .. }) {
        return Some(ServiceError::Illegal(crate::rules::PlayError::WrongPhase(
            "a choice is due, not a stone",
        )));
    }
    None
}

/// The words of a refused click: a stale picker gets its own explanation.
fn refusal_words(i18n: &I18n, lang: Lang, e: &ServiceError) -> String {
    match e {
        ServiceError::PositionChanged => i18n.get(lang, "picker-stale"),
        other => error_text(i18n, lang, other),
    }
}

/// `/move` without `at`: the picker for the caller's game.
pub async fn open_from_command(ctx: Context<'_>, game: Option<GameId>) -> Result<(), Error> {
    let Some(actor) = super::context::actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let view = match data.service.board(&actor, game).await {
        Ok(v) => v,
        Err(e) => return super::context::say_error(ctx, &e).await,
    };
    if let Some(e) = refusal(&view, actor.user.id, None) {
        return super::context::say_error(ctx, &e).await;
    }
    let lang = super::context::private_lang(ctx).await;
    let w = Window::start(&view.game);
    let reply = poise::CreateReply::default()
        .content(picker_text(&data.i18n, lang, &view, w))
        .components(picker_rows(&data.i18n, lang, &view, w))
        .ephemeral(true);
    counted(Op::Answer, ctx.send(reply)).await?;
    Ok(())
}

/// Handles a picker click.
///
/// # Errors
/// Only when Discord cannot be answered; refusals are answered privately.
pub async fn handle_click(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    id: PickerId,
) -> Result<(), Error> {
    let user = UserId(click.user.id.get());
    let lang = data.private_lang(user, &click.locale).await;
    let Some(guild) = click.guild_id else {
        return reply_private(ctx, click, data.i18n.get(lang, "err-guild-only")).await;
    };
    let who = actor(guild, click.channel_id, &click.user, click.member.as_ref());
    let game = match &id {
        PickerId::Open { game, .. }
        | PickerId::Window { game, .. }
        | PickerId::Point { game, .. } => *game,
    };
    let view = match data.service.game(who.guild, game).await {
        Ok(v) => v,
        Err(e) => return reply_private(ctx, click, error_text(&data.i18n, lang, &e)).await,
    };
    let ply = match &id {
        // The Play button stays under boards that were current; a newer board has its own.
        PickerId::Open { ply, .. } | PickerId::Window { ply, .. } | PickerId::Point { ply, .. } => {
            *ply
        }
    };
    if let Some(e) = refusal(&view, user, Some(ply)) {
        return reply_private(ctx, click, refusal_words(&data.i18n, lang, &e)).await;
    }
    let size = view.game.size();
    match id {
        PickerId::Open { .. } => {
            let w = Window::start(&view.game);
            let message = CreateInteractionResponseMessage::new()
                .content(picker_text(&data.i18n, lang, &view, w))
                .components(picker_rows(&data.i18n, lang, &view, w))
                .ephemeral(true);
            answer_click(ctx, click, message).await?;
            Ok(())
        }
        PickerId::Window { to, .. } => {
            // Kept on this board whatever the id says.
            let w = Window::clamped(i32::from(to.col), i32::from(to.row), size);
            let update = CreateInteractionResponseMessage::new()
                .content(picker_text(&data.i18n, lang, &view, w))
                .components(picker_rows(&data.i18n, lang, &view, w));
            counted(
                Op::Answer,
                click.create_response(&ctx.http, CreateInteractionResponse::UpdateMessage(update)),
            )
            .await?;
            Ok(())
        }
        PickerId::Point { point, .. } => {
            let token = point.name();
            if let Err(e) = post::check_move(&view, user, &token) {
                return reply_private(ctx, click, error_text(&data.i18n, lang, &e)).await;
            }
            let prefs = data.service.preferences(user).await.unwrap_or_default();
            if prefs.confirm_move {
                let preview = post::confirmation(
                    data,
                    lang,
                    &view,
                    &prefs,
                    point,
                    click.attachment_size_limit,
                );
                let mut update = CreateInteractionResponseMessage::new()
                    .content(text::clip(preview.content))
                    .components(preview.components);
                if let Some(png) = preview.png {
                    update = update.add_file(CreateAttachment::bytes(png, "preview.png"));
                }
                counted(
                    Op::Answer,
                    click.create_response(
                        &ctx.http,
                        CreateInteractionResponse::UpdateMessage(update),
                    ),
                )
                .await?;
                return Ok(());
            }
            let origin = Origin {
                channel: ChannelId(click.channel_id.get()),
                guild_locale: click.guild_locale.clone(),
                attachment_size_limit: click.attachment_size_limit,
            };
            let played = data
                .service
                .play_token(&who, Some(view.id), &token, Some(view.ply))
                .await;
            let done = data.i18n.tr(
                lang,
                "picker-played",
                &[("point", token.clone().into()), ("id", view.id.0.into())],
            );
            announce_click(ctx, data, click, &origin, played, |_| done).await
        }
    }
}
