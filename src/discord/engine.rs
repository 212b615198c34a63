//! The computer opponent in Discord: `/challenge opponent:@the-bot level:N` starts a game at
//! once, and the engine's moves arrive as follow-up messages with the board.
//!
//! The engine thinks on a pool of its own dedicated threads, at a lower priority, so that
//! members are answered first (the pool and what its work shares: `engine_pool`, re-exported
//! here). After a restart, every game where the engine owes a move gets it ([`resume`]); the
//! move log's ply check makes a duplicate attempt harmless.

use poise::CreateReply;
use poise::serenity_prelude as serenity;
use serenity::CreateAttachment;
use tracing::{info, warn};

pub use super::engine_pool::{Engine, JobOptions, Reply, Shared, Thinker};
use super::post::{self, board_message_with};
use super::rest::{Op, counted};
use super::text::{self, error_text};
use super::{Context, Error};
use crate::engine::Level;
use crate::rules::RuleSet;
use crate::service::{Actor, ChallengeRequest, GameView, OutboxNote, TimeControl, UserId};

/// The level used when `/challenge` names the bot without one: 3.
pub fn default_level() -> Level {
    Level::new(3).unwrap_or(Level::MIN)
}

/// After start-up: writes the job of any game waiting for the computer without one (a
/// database upgraded before jobs existed gets them from its migration; this is the safety
/// net), then takes jobs for as long as the process runs, when it takes any.
pub async fn resume(shared: Shared) {
    if shared.engine.job_options().slots > 0
        && let Err(e) = shared.service.release_engine_jobs_of_the_dead().await
    {
        warn!(%e, "could not take back the engine jobs of an earlier run");
    }
    match shared.service.owe_missing_engine_jobs().await {
        Ok(0) => {}
        Ok(n) => info!(jobs = n, "games waiting for the computer got their job"),
        Err(e) => warn!(%e, "could not list the games waiting for the engine"),
    }
    super::engine_jobs::take_jobs(shared).await;
}

/// After an action committed by a member: when the computer is to act, its job was written
/// in the action's transaction, leased to this process when it thinks; the job is answered
/// at once, as a follow-up to `reply` (the member's reply has been sent already).
pub fn after_action(shared: Shared, view: &GameView, reply: Reply) {
    if !shared.engine.acts_in(view) {
        return;
    }
    if shared.engine.jobs.slots == 0 || shared.engine.is_stopping() {
        // Left to the workers (or to the next process).
        return;
    }
    let (game, ply) = (view.id, view.ply);
    tokio::spawn(super::engine_jobs::answer_own(shared, game, ply, reply));
}

/// `/challenge` naming the bot: starts the game against the engine at once and answers with
/// the board; the engine moves at once when it has the first turn.
///
/// # Errors
/// Only when Discord cannot be answered; refusals are answered privately.
pub async fn challenge(
    ctx: Context<'_>,
    actor: Actor,
    rules: RuleSet,
    time: Option<TimeControl>,
    level: Option<u8>,
) -> Result<(), Error> {
    let data = ctx.data();
    let private = data
        .private_lang(UserId(ctx.author().id.get()), ctx.locale().unwrap_or("en"))
        .await;
    let say = |text: String| {
        CreateReply::default()
            .content(text::clip(text))
            .ephemeral(true)
    };
    if rules.players != 2 {
        counted(
            Op::Answer,
            ctx.send(say(data.i18n.get(private, "engine-two-players-only"))),
        )
        .await?;
        return Ok(());
    }
    let level = match level {
        None => default_level(),
        Some(n) => match Level::new(n) {
            Some(l) => l,
            None => {
                counted(
                    Op::Answer,
                    ctx.send(say(data.i18n.get(private, "engine-bad-level"))),
                )
                .await?;
                return Ok(());
            }
        },
    };
    let Some(bot) = data.engine.bot().cloned() else {
        counted(
            Op::Answer,
            ctx.send(say(data.i18n.get(private, "err-internal"))),
        )
        .await?;
        return Ok(());
    };
    let request = ChallengeRequest {
        opponent: None,
        rules: Some(rules),
        time,
        rated: false,
    };
    let view = match data
        .service
        .challenge_engine(&actor, &bot, level, request)
        .await
    {
        Ok(v) => v,
        Err(e) => {
            counted(
                Op::Answer,
                ctx.send(say(error_text(&data.i18n, private, &e))),
            )
            .await?;
            return Ok(());
        }
    };
    let (token, guild_locale, limit) = match ctx {
        poise::Context::Application(app) => (
            Some(app.interaction.token.clone()),
            app.interaction.guild_locale.clone(),
            Some(app.interaction.attachment_size_limit),
        ),
        poise::Context::Prefix(_) => (None, None, None),
    };
    let lang = data.public_lang(view.guild, guild_locale.as_deref()).await;
    let prefs = post::viewer_prefs(&data.service, &view).await;
    let lead = data.i18n.tr(
        lang,
        "engine-started",
        &[
            ("player", format!("<@{}>", actor.user.id.0).into()),
            ("level", i64::from(level.get()).into()),
            ("id", view.id.0.into()),
        ],
    );
    let ping = post::wants_ping(&view, &prefs) && !data.engine.acts_in(&view);
    let lead_copy = lead.clone();
    let board = board_message_with(
        &data.i18n,
        lang,
        &view,
        &prefs,
        Some(lead),
        ping,
        limit.unwrap_or(8 << 20),
    );
    let mut answer = CreateReply::default()
        .content(board.content)
        .components(board.components)
        .allowed_mentions(board.mentions);
    if let Some(png) = board.png {
        answer = answer.attachment(CreateAttachment::bytes(png, "board.png"));
    }
    // With the outbox on, the game's start was owed in its commit: its thread is opened here
    // at once (the engine's first move follows in it), and the poster finishes what Discord
    // refused for now, or all of it after a crash.
    let outbox = data.service.outbox_on();
    let mut note = OutboxNote {
        lang: Some(lang.code().to_owned()),
        picture_limit: limit,
        ..OutboxNote::default()
    };
    let handle = match counted(Op::Answer, ctx.send(answer)).await {
        Ok(h) => h,
        Err(e) => {
            // The poster posts the first board in the channel instead.
            if outbox {
                note.lead = Some(lead_copy);
                data.service.outbox_release(view.id, 0, note);
            }
            return Err(e.into());
        }
    };
    note.answered = Some(0);
    let mut view = view;
    let threads = super::guild_threads(&data.service, view.guild).await;
    if threads {
        // As for games between members: the game gets a thread from its first message, and
        // is played there from now on (in the channel when no thread can be had).
        match handle.message().await {
            Ok(message) => {
                let (channel, id) = (ctx.channel_id().get(), message.id.get());
                note.answered = Some(id);
                match super::outbox::open_thread_from(ctx.http(), &view, channel, id).await {
                    Ok(thread) => match data.service.set_game_thread(view.id, thread).await {
                        Ok(()) => view.thread = Some(thread),
                        Err(e) => {
                            warn!(%e, game = view.id.0, "could not record the engine game's thread");
                            note.thread_from = Some((channel, id));
                        }
                    },
                    Err(e) => {
                        warn!(%e, game = view.id.0, "could not open a thread for the engine game");
                        note.thread_from = Some((channel, id));
                    }
                }
            }
            Err(e) => warn!(%e, game = view.id.0, "could not read back the engine game's message"),
        }
    }
    if outbox {
        data.service.outbox_release(view.id, 0, note);
    }
    // The engine's first move follows the answer while the game stays in this channel.
    let token = token.filter(|_| view.home().0 == ctx.channel_id().get());
    after_action(
        data.engine_shared(ctx.serenity_context()),
        &view,
        Reply {
            token,
            guild_locale,
            attachment_size_limit: limit,
        },
    );
    Ok(())
}
