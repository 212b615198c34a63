//! After a committed action: the new board goes to the game's place (the interaction's answer
//! when it was made there, else posted with the outbox row that owes it), the player to act is
//! pinged, the offers the action made stale are struck, a finished game may start a
//! tournament's next round, and the computer answers when it is to act.
//!
//! Above the modules it calls after an action (`post`, which builds and sends messages,
//! `tournaments`, `engine`), and below the commands and click handlers that call it (`offers`,
//! `picker`, `renju`, `buttons`, `commands`): `post` stays low, since the outbox's poster, the
//! engine and tournaments post boards too.

use poise::CreateReply;
use poise::serenity_prelude as serenity;
use serenity::{
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
};
use tracing::warn;

use super::components::offers::lapsed_edit;
use super::components::reply_private;
use super::post::{
    self, Origin, Outgoing, Responder, board_message, direct_ping, post_failure_text, viewer_prefs,
    wants_ping,
};
use super::rest::{Op, counted, edit_message, error_status};
use super::text;
use super::{Data, Error};
use crate::i18n::Lang;
use crate::service::{GameView, OutboxEnd, OutboxNote, Preferences, UserId};

/// How long a board posted by the front waits for its game's earlier outbox rows to go out
/// before it leaves the board to the poster.
const EARLIER_ROW_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Posts an owed board in the game's place with its outbox row's nonce (so that the poster's
/// retry after a crash cannot post it twice), and hands the row to the poster: done when the
/// post went out, to be retried when Discord failed for now. Returns a permanent refusal, for
/// the member to hear about (the row is then given up).
async fn post_owed_board(
    http: &serenity::Http,
    data: &Data,
    view: &GameView,
    board: Outgoing,
    unanswered: OutboxNote,
) -> Option<serenity::Error> {
    let channel = serenity::ChannelId::new(view.home().0.max(1));
    let row = data
        .service
        .outbox_board(view.id, view.ply)
        .await
        .ok()
        .flatten();
    let Some(row) = row else {
        // No row owes it (the outbox could not be read): post it as before.
        return counted(Op::Post, channel.send_message(http, board.message()))
            .await
            .err();
    };
    // An earlier row of this game still waits in the outbox: this one goes after it. Most
    // often that row is being sent right now (a game's first board, a moment ago): wait a
    // little for it, so that this board still goes out here and a refusal is told to the
    // member who moved; after that, the poster sends this board in its turn.
    let mut first = data.service.outbox_is_first(&row).await.unwrap_or(false);
    let waited = std::time::Instant::now();
    while !first && waited.elapsed() < EARLIER_ROW_WAIT {
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        first = data.service.outbox_is_first(&row).await.unwrap_or(false);
    }
    if !first {
        data.service.outbox_release(view.id, view.ply, unanswered);
        return None;
    }
    let message = board
        .message()
        .nonce(serenity::Nonce::String(row.nonce.clone()))
        .enforce_nonce(true);
    match counted(Op::Post, channel.send_message(http, message)).await {
        Ok(m) => {
            // Recorded at once, as the poster records its own posts: the note below lives in
            // memory until the poster's next round, and a crash before that would leave the
            // row to be posted again, deduplicated only while Discord remembers the nonce.
            if let Err(e) = data.service.outbox_posted(&row, m.id.get()).await {
                warn!(%e, game = view.id.0, "could not record a posted board's message");
            }
            data.service.outbox_release(
                view.id,
                view.ply,
                OutboxNote {
                    answered: Some(m.id.get()),
                    ..OutboxNote::default()
                },
            );
            None
        }
        Err(e) if matches!(error_status(&e), 0 | 429 | 500..=599) => {
            warn!(%e, game = view.id.0, "the board could not be posted yet; the outbox retries");
            data.service.outbox_release(view.id, view.ply, unanswered);
            None
        }
        Err(e) => {
            warn!(%e, game = view.id.0, "could not post the board in the game's place");
            let why = e.to_string();
            if let Err(db) = data
                .service
                .outbox_done(&row, OutboxEnd::Failed, Some(&why))
                .await
            {
                warn!(%db, game = view.id.0, "could not mark an outbox row given up");
            }
            Some(e)
        }
    }
}

/// Hands the board row that the interaction's answer (`message`, 0 for the answer itself)
/// carried on: when the player to act gets no direct message, the row owes nothing more and
/// the next group commit of moves marks it sent; else the poster sends the message (`note`).
fn release_answered(
    data: &Data,
    view: &GameView,
    prefs: &Preferences,
    message: u64,
    note: OutboxNote,
) {
    // The poster's own test with the game current and nobody's engine to act: when even that
    // owes no direct message, the poster would owe none either.
    if post::dm_owed(view, prefs, true, false) {
        data.service.outbox_release(view.id, view.ply, note);
    } else {
        data.service.outbox_answered(view.id, view.ply, message);
    }
}

/// Announces a game's new state after a committed action: the board (mentioning whoever acts
/// next) goes to the game's channel; an answer made elsewhere is acknowledged privately.
///
/// # Errors
/// Only when the interaction itself cannot be answered.
pub async fn announce(
    sctx: &serenity::Context,
    data: &Data,
    responder: Responder<'_>,
    origin: &Origin,
    view: &GameView,
    lead: Option<String>,
) -> Result<(), Error> {
    let lang = data
        .public_lang(view.guild, origin.guild_locale.as_deref())
        .await;
    let prefs = viewer_prefs(&data.service, view).await;
    let ping = wants_ping(view, &prefs) && !data.engine.acts_in(view);
    let lead_copy = lead.clone();
    let board = board_message(
        data,
        lang,
        view,
        &prefs,
        lead,
        ping,
        origin.attachment_size_limit,
    );
    let home = view.home();
    let in_place = origin.channel == home;
    // The engine answers on the same interaction while its answer lands in the game's channel.
    let token = match &responder {
        Responder::Command(poise::Context::Application(app)) => Some(app.interaction.token.clone()),
        Responder::Command(poise::Context::Prefix(_)) => None,
        Responder::Component { click, .. } => Some(click.token.clone()),
    }
    .filter(|_| in_place);
    // What the poster needs to post this board itself if the answer below cannot carry it.
    let unanswered = OutboxNote {
        answered: None,
        lead: lead_copy,
        lang: Some(lang.code().to_owned()),
        picture_limit: Some(origin.attachment_size_limit),
        thread_from: None,
    };
    let answered = OutboxNote {
        answered: Some(0),
        ..OutboxNote::default()
    };
    match responder {
        Responder::Command(ctx) => {
            if in_place {
                // The answer carries the board; the outbox row only owes the ping now.
                if let Err(e) = counted(Op::Answer, ctx.send(board.reply())).await {
                    data.service.outbox_release(view.id, view.ply, unanswered);
                    return Err(e.into());
                }
                release_answered(data, view, &prefs, 0, answered);
            } else {
                let plang = ctx
                    .data()
                    .private_lang(UserId(ctx.author().id.get()), ctx.locale().unwrap_or("en"))
                    .await;
                let ack = data.i18n.tr(
                    plang,
                    "moved-elsewhere",
                    &[
                        ("id", view.id.0.into()),
                        ("place", format!("<#{}>", home.0).into()),
                    ],
                );
                counted(
                    Op::Answer,
                    ctx.send(CreateReply::default().content(ack).ephemeral(true)),
                )
                .await?;
                if let Some(e) = post_owed_board(&sctx.http, data, view, board, unanswered).await {
                    let text = post_failure_text(&data.i18n, plang, home, &e);
                    counted(
                        Op::Answer,
                        ctx.send(CreateReply::default().content(text).ephemeral(true)),
                    )
                    .await?;
                }
            }
        }
        Responder::Component { click, update } => {
            counted(
                Op::Answer,
                click.create_response(&sctx.http, CreateInteractionResponse::UpdateMessage(update)),
            )
            .await
            .inspect_err(|_| {
                data.service
                    .outbox_release(view.id, view.ply, unanswered.clone())
            })?;
            if in_place {
                match counted(
                    Op::Followup,
                    click.create_followup(&sctx.http, board.followup()),
                )
                .await
                {
                    Ok(m) => release_answered(
                        data,
                        view,
                        &prefs,
                        m.id.get(),
                        OutboxNote {
                            answered: Some(m.id.get()),
                            ..OutboxNote::default()
                        },
                    ),
                    Err(e) => {
                        data.service.outbox_release(view.id, view.ply, unanswered);
                        return Err(e.into());
                    }
                }
            } else {
                let plang = data
                    .private_lang(UserId(click.user.id.get()), &click.locale)
                    .await;
                if let Some(e) = post_owed_board(&sctx.http, data, view, board, unanswered).await {
                    let text = post_failure_text(&data.i18n, plang, home, &e);
                    counted(
                        Op::Followup,
                        click.create_followup(
                            &sctx.http,
                            CreateInteractionResponseFollowup::new()
                                .content(text)
                                .ephemeral(true),
                        ),
                    )
                    .await?;
                }
            }
        }
    }
    // With the outbox the poster sends the ping (after the commit, retried); without it (a
    // benchmark's comparison), it goes now as before.
    if !data.service.outbox_on() {
        direct_ping(&sctx.http, data, view, &prefs, lang).await;
    }
    strike_stale_offers(&sctx.http, data, view, lang).await;
    // The last game of a tournament round starts the next one.
    super::tournaments::after_game(
        std::sync::Arc::clone(&sctx.http),
        std::sync::Arc::clone(&data.service),
        std::sync::Arc::clone(&data.i18n),
        view,
    );
    super::engine::after_action(
        data.engine_shared(sctx),
        view,
        super::engine::Reply {
            token,
            guild_locale: origin.guild_locale.clone(),
            attachment_size_limit: Some(origin.attachment_size_limit),
        },
    );
    Ok(())
}

/// Strikes the buttons of the game's offers that its last action made stale. Best effort.
/// With the outbox on, the action owed these edits in its commit and the poster makes them.
async fn strike_stale_offers(http: &serenity::Http, data: &Data, view: &GameView, lang: Lang) {
    if data.service.outbox_on() {
        return;
    }
    let stale = match data.service.expire_stale_offers(view.id).await {
        Ok(s) => s,
        Err(e) => {
            warn!(%e, game = view.id.0, "could not expire stale offers");
            return;
        }
    };
    for offer in stale {
        let Some((channel, message)) = offer.message else {
            continue;
        };
        let edit = lapsed_edit(&data.i18n, lang, view, &offer);
        if let Err(e) = edit_message(http, channel.0, message.0, edit).await {
            warn!(%e, offer = offer.id.0, "could not strike a lapsed offer's buttons");
        }
    }
}

/// Answers a click that played an action: the clicked message becomes `update_text(said)`
/// (where `said` tells what was played) and the new board goes to the game's channel; a
/// refusal is explained privately.
pub(super) async fn announce_click(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    origin: &Origin,
    played: Result<crate::service::Played, crate::service::ServiceError>,
    update_text: impl FnOnce(&str) -> String,
) -> Result<(), Error> {
    let user = UserId(click.user.id.get());
    match played {
        Ok(played) => {
            let lang = data
                .public_lang(played.view.guild, click.guild_locale.as_deref())
                .await;
            let said = text::move_text(&data.i18n, lang, &played.view, user, &played.report);
            let update = CreateInteractionResponseMessage::new()
                .content(update_text(&said))
                .components(Vec::new());
            let responder = Responder::Component { click, update };
            announce(ctx, data, responder, origin, &played.view, Some(said)).await
        }
        Err(e) => {
            let lang = data.private_lang(user, &click.locale).await;
            reply_private(ctx, click, text::error_text(&data.i18n, lang, &e)).await
        }
    }
}
