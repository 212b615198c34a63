//! Between the players on Discord: `/undo` and `/draw` offers with Accept / Decline buttons,
//! the Rematch button of finished games, and pings that follow each player's preference.
//!
//! - An offer is posted in the game's home (its thread, else its channel), naming the
//!   players who must answer; each is mentioned unless they chose no pings, and sent a
//!   direct message as well if they chose that (`/prefs pings`).
//! - Its buttons carry the game, the ply it was made at and the offer's number
//!   (`gb:oy:12:8:3` accepts offer 3 of game 12 made at ply 8), so they work after a
//!   restart. A click on an offer the game has moved past gets a private word and strikes
//!   the buttons; so does every announced action for the offers it made stale.
//! - The Rematch button proposes, in the game's channel, a challenge to the other player
//!   with the seats swapped; the opponent accepts it with the challenge's own Accept button.

use poise::CreateReply;
use poise::serenity_prelude as serenity;
use serenity::{
    CreateAllowedMentions, CreateInteractionResponse, CreateInteractionResponseMessage,
    CreateMessage, EditMessage,
};
use tracing::warn;

use super::announce::announce;
pub use super::components::offers::SocialButton;
use super::components::offers::{answer_buttons, name_in};
use super::components::reply_private;
use super::context::{actor_of, autocomplete_game, public_lang, say_error};
use super::post::{self, Origin, Responder};
use super::rest::{Op, counted};
use super::text::{self, error_text, mention};
use super::{Context, Data, Error};
use crate::i18n::{I18n, Lang};
use crate::rules::Action;
use crate::service::{
    Actor, Challenge, ChannelId, GameId, MessageId, Notify, OfferError, OfferId, OfferKind,
    OfferMade, Outcome, ServiceError, UserId,
};

/// Actions as a list: `J9, A2`.
fn actions_text(actions: &[Action]) -> String {
    actions
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whom of `users` to mention, and whom to send a direct message, by their preferences.
async fn ping_plan(data: &Data, users: &[UserId]) -> (Vec<UserId>, Vec<UserId>) {
    let mut mention = Vec::new();
    let mut direct = Vec::new();
    for &u in users {
        let notify = data
            .service
            .preferences(u)
            .await
            .map(|p| p.notify)
            .unwrap_or_default();
        match notify {
            Notify::Mention => mention.push(u),
            Notify::DirectMessage => {
                mention.push(u);
                direct.push(u);
            }
            Notify::Off => {}
        }
    }
    (mention, direct)
}

fn allowed(users: &[UserId]) -> CreateAllowedMentions {
    CreateAllowedMentions::new().users(users.iter().map(|u| serenity::UserId::new(u.0.max(1))))
}

/// Sends each user a direct message `key` (in their own language). Best effort.
async fn send_dms(
    http: &serenity::Http,
    data: &Data,
    users: &[UserId],
    key: &str,
    args: &[(&str, String)],
) {
    for &u in users {
        let lang = data.private_lang(u, "en").await;
        let fargs: Vec<(&str, fluent_bundle::FluentValue<'_>)> =
            args.iter().map(|(k, v)| (*k, v.clone().into())).collect();
        let content = data.i18n.tr(lang, key, &fargs);
        let user = serenity::UserId::new(u.0.max(1));
        let sent = match counted(Op::DirectMessage, user.create_dm_channel(http)).await {
            Ok(dm) => counted(
                Op::DirectMessage,
                dm.id
                    .send_message(http, CreateMessage::new().content(content)),
            )
            .await
            .map(|_| ()),
            Err(e) => Err(e),
        };
        if let Err(e) = sent {
            warn!(%e, user = u.0, "could not send a direct message about an offer");
        }
    }
}

/// Applies the challenged member's ping preference to a challenge message (no mention
/// when they chose no pings); returns who also wants a direct message.
pub(super) async fn challenge_pings(
    data: &Data,
    message: &mut post::Outgoing,
    c: &Challenge,
) -> Vec<UserId> {
    let named: Vec<UserId> = c.opponent.into_iter().collect();
    let (mentioned, direct) = ping_plan(data, &named).await;
    message.mentions = allowed(&mentioned);
    direct
}

/// Tells the challenged member by direct message, when they asked for that. Best effort.
pub(super) async fn challenge_dms(
    http: &serenity::Http,
    data: &Data,
    direct: &[UserId],
    actor: &Actor,
    c: &Challenge,
) {
    let args = [
        ("player", actor.user.name.clone()),
        ("place", format!("<#{}>", c.channel.0)),
    ];
    send_dms(http, data, direct, "dm-challenge", &args).await;
}

/// The public text of an open offer; answerers are mentioned when `mentioned` holds them.
fn offer_text(i18n: &I18n, lang: Lang, made: &OfferMade, mentioned: &[UserId]) -> String {
    let view = &made.view;
    let answerers = made
        .answerers
        .iter()
        .map(|u| {
            if mentioned.contains(u) {
                mention(*u)
            } else {
                format!("**{}**", name_in(view, *u))
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    let player = format!("**{}**", name_in(view, made.offer.user));
    let mut args = vec![
        ("id", view.id.0.into()),
        ("player", player.into()),
        ("answerers", answerers.into()),
    ];
    let key = match made.offer.kind {
        OfferKind::Undo => {
            args.push(("moves", actions_text(&made.taken_back).into()));
            "offer-undo"
        }
        OfferKind::Draw => "offer-draw",
    };
    text::clip(i18n.tr(lang, key, &args))
}

/// Posts a new offer in the game's home (as the command's answer when made there).
async fn post_offer(ctx: Context<'_>, made: OfferMade) -> Result<(), Error> {
    let data = ctx.data();
    let lang = public_lang(ctx).await;
    let (mentioned, direct) = ping_plan(data, &made.answerers).await;
    let content = offer_text(&data.i18n, lang, &made, &mentioned);
    let components = answer_buttons(&data.i18n, lang, &made.offer);
    let home = made.view.home();
    let posted: Option<(ChannelId, MessageId)> = if ctx.channel_id().get() == home.0 {
        let handle = counted(
            Op::Answer,
            ctx.send(
                CreateReply::default()
                    .content(content)
                    .components(components)
                    .allowed_mentions(allowed(&mentioned)),
            ),
        )
        .await?;
        match handle.message().await {
            Ok(m) => Some((ChannelId(m.channel_id.get()), MessageId(m.id.get()))),
            Err(e) => {
                warn!(%e, "could not read back an offer's message");
                None
            }
        }
    } else {
        let plang = super::context::private_lang(ctx).await;
        let message = CreateMessage::new()
            .content(content)
            .components(components)
            .allowed_mentions(allowed(&mentioned));
        match counted(
            Op::Post,
            serenity::ChannelId::new(home.0.max(1)).send_message(ctx.http(), message),
        )
        .await
        {
            Ok(m) => {
                let ack = data.i18n.tr(
                    plang,
                    "offer-posted",
                    &[("place", format!("<#{}>", home.0).into())],
                );
                counted(
                    Op::Answer,
                    ctx.send(CreateReply::default().content(ack).ephemeral(true)),
                )
                .await?;
                Some((ChannelId(m.channel_id.get()), MessageId(m.id.get())))
            }
            Err(e) => {
                let text = post::post_failure_text(&data.i18n, plang, home, &e);
                counted(
                    Op::Answer,
                    ctx.send(CreateReply::default().content(text).ephemeral(true)),
                )
                .await?;
                None
            }
        }
    };
    if let Some((channel, message)) = posted
        && let Err(e) = data
            .service
            .set_offer_message(made.offer.id, channel, message)
            .await
    {
        warn!(%e, offer = made.offer.id.0, "could not record an offer's message");
    }
    let key = match made.offer.kind {
        OfferKind::Undo => "dm-offer-undo",
        OfferKind::Draw => "dm-offer-draw",
    };
    let args = [
        ("player", name_in(&made.view, made.offer.user)),
        ("id", made.view.id.0.to_string()),
        ("place", format!("<#{}>", home.0)),
    ];
    send_dms(ctx.http(), data, &direct, key, &args).await;
    Ok(())
}

/// Ask your opponent to take back your last move.
#[poise::command(slash_command, guild_only)]
pub async fn undo(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_game"] game: Option<i64>,
) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    match ctx
        .data()
        .service
        .offer_undo(&actor, game.map(GameId))
        .await
    {
        Ok(made) => post_offer(ctx, made).await,
        // The computer agrees at once: take back and post the board.
        Err(ServiceError::Offer(OfferError::AgainstComputer)) => {
            take_back_from_computer(ctx, &actor, game.map(GameId)).await
        }
        Err(e) => say_error(ctx, &e).await,
    }
}

/// `/undo` in a game against the computer: taken back at once, the board reposted.
async fn take_back_from_computer(
    ctx: Context<'_>,
    actor: &Actor,
    game: Option<GameId>,
) -> Result<(), Error> {
    let data = ctx.data();
    match data.service.take_back_from_computer(actor, game).await {
        Ok((view, taken_back)) => {
            let lang = public_lang(ctx).await;
            let line = data.i18n.tr(
                lang,
                "offer-undo-computer",
                &[
                    (
                        "player",
                        format!("**{}**", name_in(&view, actor.user.id)).into(),
                    ),
                    ("moves", actions_text(&taken_back).into()),
                ],
            );
            announce(
                ctx.serenity_context(),
                data,
                Responder::Command(ctx),
                &super::context::origin(ctx),
                &view,
                Some(line),
            )
            .await
        }
        Err(e) => say_error(ctx, &e).await,
    }
}

/// Offer your opponent a draw.
#[poise::command(slash_command, guild_only)]
pub async fn draw(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_game"] game: Option<i64>,
) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    match ctx
        .data()
        .service
        .offer_draw(&actor, game.map(GameId))
        .await
    {
        Ok(made) => post_offer(ctx, made).await,
        Err(e) => say_error(ctx, &e).await,
    }
}

/// Rewrites the clicked offer message: its text plus `line`, and `keep_buttons` or none.
fn updated(
    click: &serenity::ComponentInteraction,
    line: &str,
    keep_buttons: bool,
) -> CreateInteractionResponseMessage {
    let mut update = CreateInteractionResponseMessage::new()
        .content(text::clip(format!("{}\n{line}", click.message.content)))
        .allowed_mentions(CreateAllowedMentions::new());
    if !keep_buttons {
        update = update.components(Vec::new());
    }
    update
}

/// Handles a click on an offer's or a finished game's button.
///
/// # Errors
/// Only when Discord cannot be answered; refusals are answered privately.
pub(super) async fn handle_click(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Actor,
    origin: &Origin,
    button: SocialButton,
    lang: Lang,
) -> Result<(), Error> {
    match button {
        SocialButton::Answer { offer, accept, .. } => {
            answer(ctx, data, click, who, origin, offer, accept, lang).await
        }
        SocialButton::Rematch { game } => rematch(ctx, data, click, who, game, lang).await,
    }
}

#[allow(clippy::too_many_arguments)]
async fn answer(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Actor,
    origin: &Origin,
    offer: OfferId,
    accept: bool,
    lang: Lang,
) -> Result<(), Error> {
    let answered = match data.service.answer_offer(who, offer, accept).await {
        Ok(a) => a,
        Err(e) => {
            let words = match &e {
                ServiceError::NotAParticipant => data.i18n.get(lang, "err-offer-not-yours"),
                other => error_text(&data.i18n, lang, other),
            };
            reply_private(ctx, click, words).await?;
            let lapsed = matches!(
                e,
                ServiceError::Offer(OfferError::Expired | OfferError::Closed(_))
            );
            if lapsed && !click.message.components.is_empty() {
                let glang = data
                    .public_lang(who.guild, origin.guild_locale.as_deref())
                    .await;
                let edit = EditMessage::new()
                    .content(text::clip(format!(
                        "{}\n{}",
                        click.message.content,
                        data.i18n.get(glang, "offer-expired")
                    )))
                    .components(Vec::new())
                    .allowed_mentions(CreateAllowedMentions::new());
                if let Err(e) = counted(
                    Op::Edit,
                    click
                        .channel_id
                        .edit_message(&ctx.http, click.message.id, edit),
                )
                .await
                {
                    warn!(%e, offer = offer.0, "could not strike a lapsed offer's buttons");
                }
            }
            return Ok(());
        }
    };
    let view = &answered.view;
    let glang = data
        .public_lang(view.guild, origin.guild_locale.as_deref())
        .await;
    let me = format!("**{}**", name_in(view, who.user.id));
    let update = match &answered.outcome {
        Outcome::Accepted { taken_back } => {
            let line = match answered.offer.kind {
                OfferKind::Undo => data.i18n.tr(
                    glang,
                    "offer-undo-accepted",
                    &[
                        ("player", me.into()),
                        ("moves", actions_text(taken_back).into()),
                    ],
                ),
                OfferKind::Draw => {
                    data.i18n
                        .tr(glang, "offer-draw-accepted", &[("player", me.into())])
                }
            };
            let update = updated(click, &line, false);
            let responder = Responder::Component { click, update };
            return announce(ctx, data, responder, origin, view, Some(line)).await;
        }
        Outcome::Waiting { waiting } => {
            let names = waiting
                .iter()
                .map(|u| format!("**{}**", name_in(view, *u)))
                .collect::<Vec<_>>()
                .join(", ");
            let line = data.i18n.tr(
                glang,
                "offer-waiting",
                &[("player", me.into()), ("waiting", names.into())],
            );
            updated(click, &line, true)
        }
        Outcome::Declined => {
            let line = data
                .i18n
                .tr(glang, "offer-declined", &[("player", me.into())]);
            updated(click, &line, false)
        }
        Outcome::Withdrawn => {
            let line = data
                .i18n
                .tr(glang, "offer-withdrawn", &[("player", me.into())]);
            updated(click, &line, false)
        }
    };
    counted(
        Op::Answer,
        click.create_response(&ctx.http, CreateInteractionResponse::UpdateMessage(update)),
    )
    .await?;
    Ok(())
}

/// Proposes a rematch: the proposal (a challenge) goes to the finished game's channel, the
/// clicker is told where privately.
async fn rematch(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Actor,
    game: GameId,
    lang: Lang,
) -> Result<(), Error> {
    let c = match data.service.propose_rematch(who, game).await {
        Ok(c) => c,
        Err(e) => return reply_private(ctx, click, error_text(&data.i18n, lang, &e)).await,
    };
    let glang = data
        .public_lang(c.guild, click.guild_locale.as_deref())
        .await;
    let opponents: Vec<UserId> = c.opponent.into_iter().collect();
    let (mentioned, direct) = ping_plan(data, &opponents).await;
    let mut message = post::challenge_message(data, glang, &c);
    message.content = text::clip(format!(
        "{}\n{}",
        data.i18n
            .tr(glang, "rematch-lead", &[("id", game.0.into())]),
        message.content
    ));
    message.mentions = allowed(&mentioned);
    let place = format!("<#{}>", c.channel.0);
    match counted(
        Op::Post,
        serenity::ChannelId::new(c.channel.0.max(1)).send_message(&ctx.http, message.message()),
    )
    .await
    {
        Ok(m) => {
            if let Err(e) = data
                .service
                .set_challenge_message(c.id, ChannelId(m.channel_id.get()), MessageId(m.id.get()))
                .await
            {
                warn!(%e, challenge = c.id.0, "could not record a rematch's message");
            }
            let ack = data
                .i18n
                .tr(lang, "rematch-posted", &[("place", place.clone().into())]);
            reply_private(ctx, click, ack).await?;
            let proposer = data
                .service
                .game(c.guild, game)
                .await
                .map(|v| name_in(&v, who.user.id))
                .unwrap_or_else(|_| who.user.name.clone());
            let args = [
                ("player", proposer),
                ("id", game.0.to_string()),
                ("place", place),
            ];
            send_dms(&ctx.http, data, &direct, "dm-rematch", &args).await;
            Ok(())
        }
        Err(e) => {
            // Nobody can see the proposal: withdraw it rather than leave it open unseen.
            if let Err(e) = data.service.cancel(who, c.id).await {
                warn!(%e, challenge = c.id.0, "could not withdraw an unposted rematch");
            }
            let text = post::post_failure_text(&data.i18n, lang, c.channel, &e);
            reply_private(ctx, click, text).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::OfferStatus;

    #[test]
    fn every_offer_error_has_words_in_every_language() {
        let i18n = I18n::load();
        let errors = [
            OfferError::NoSuchOffer,
            OfferError::NothingToUndo,
            OfferError::DrawTwoPlayersOnly,
            OfferError::RematchTwoPlayersOnly,
            OfferError::AgainstComputer,
            OfferError::NotAgainstComputer,
            OfferError::OwnOffer,
            OfferError::Expired,
            OfferError::Closed(OfferStatus::Accepted),
            OfferError::Closed(OfferStatus::Declined),
            OfferError::Closed(OfferStatus::Withdrawn),
            OfferError::Pending(OfferId(1)),
            OfferError::GameNotOver,
            OfferError::RematchPending(crate::service::ChallengeId(1)),
            OfferError::AlreadyRematched(Some(GameId(7))),
            OfferError::AlreadyRematched(None),
        ];
        for lang in Lang::ALL {
            for e in &errors {
                let words = text::offer_error_text(&i18n, lang, e);
                assert!(!words.starts_with("err-"), "{lang} {e:?}: {words}");
            }
            assert!(text::offer_error_text(&i18n, lang, &errors[14]).contains('7'));
        }
    }
}
