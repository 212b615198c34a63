//! Engine review in Discord: `/review game:N` and the **Review** button under a finished
//! game's last board.
//!
//! The service claims the review (one analysis per game at a time, in any process) or finds
//! it stored. A stored review is answered at once. Otherwise the answer is a public message
//! "Analysing… 0/61" that is edited with progress while the engine evaluates the positions
//! one by one on its own low-priority threads (the pool that plays games against the
//! computer, so reviews and games share its bound and neither runs on the threads that answer
//! members), and finally with the review: the win-chance chart, the turning points' boards
//! and the players' figures. The message is recorded with the claim; after a restart, a
//! sweep finds analyses whose claim went stale and runs them again into the same message.

use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use serenity::{CreateAttachment, CreateInteractionResponseMessage, EditMessage, Http};
use tracing::{info, warn};

pub use super::components::review::{button_id, parse_button};
use super::components::{answer_click, reply_private};
use super::context::{actor_of, private_lang, say_error};
use super::engine_pool::Shared;
use super::ratings::autocomplete_any_game;
use super::rest::{Op, counted, edit_message};
use super::text::{self, error_text};
use super::{Context, Data, Error};
use crate::i18n::{I18n, Lang};
use crate::render::{self, RenderOptions};
use crate::service::review::{Analyser, Class, Review, ReviewStart};
use crate::service::{ChannelId, GameId, GameView, GuildId, MessageId, UserId};

/// The least time between two progress edits (Discord limits edits per channel).
const PROGRESS_EVERY: Duration = Duration::from_millis(1500);
/// How often stale analyses (their process stopped) are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(30);

/// Review a finished game with the engine: a win-chance chart and the turning points.
#[poise::command(slash_command, guild_only)]
pub async fn review(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_any_game"] game: i64,
) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let lang = super::context::public_lang(ctx).await;
    let (view, start) = match data
        .service
        .start_review(actor.guild, GameId(game), lang.code())
        .await
    {
        Ok(found) => found,
        Err(e) => return say_error(ctx, &e).await,
    };
    let shared = data.engine_shared(ctx.serenity_context());
    match start {
        ReviewStart::Busy => {
            let lang = private_lang(ctx).await;
            super::context::say_private(ctx, data.i18n.get(lang, "review-busy")).await
        }
        ReviewStart::Stored(r) => {
            let reply = finished_reply(&shared, lang, &view, &r).await;
            let mut out = poise::CreateReply::default().content(reply.content);
            for a in reply.files {
                out = out.attachment(a);
            }
            counted(Op::Answer, ctx.send(out)).await?;
            Ok(())
        }
        ReviewStart::Claimed(analyser) => {
            let first = progress_text(&data.i18n, lang, view.id, 0, analyser.len());
            let handle = match counted(
                Op::Answer,
                ctx.send(poise::CreateReply::default().content(first)),
            )
            .await
            {
                Ok(h) => h,
                Err(e) => {
                    let _ = data.service.abandon_review(view.id).await;
                    return Err(e.into());
                }
            };
            let message = handle.message().await?;
            spawn_analysis(
                shared,
                view,
                analyser,
                lang,
                ChannelId(message.channel_id.get()),
                MessageId(message.id.get()),
            );
            Ok(())
        }
    }
}

/// A Review button click: the same as `/review` for that game, answered in a new message.
///
/// # Errors
/// Only when Discord cannot be answered.
pub async fn handle_click(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    game: GameId,
) -> Result<(), Error> {
    let user = UserId(click.user.id.get());
    let private = data.private_lang(user, &click.locale).await;
    let Some(guild) = click.guild_id else {
        return reply_private(ctx, click, data.i18n.get(private, "err-guild-only")).await;
    };
    let guild = GuildId(guild.get());
    let lang = data.public_lang(guild, click.guild_locale.as_deref()).await;
    let (view, start) = match data.service.start_review(guild, game, lang.code()).await {
        Ok(found) => found,
        Err(e) => return reply_private(ctx, click, error_text(&data.i18n, private, &e)).await,
    };
    let shared = data.engine_shared(ctx);
    match start {
        ReviewStart::Busy => reply_private(ctx, click, data.i18n.get(private, "review-busy")).await,
        ReviewStart::Stored(r) => {
            let reply = finished_reply(&shared, lang, &view, &r).await;
            let message = CreateInteractionResponseMessage::new()
                .content(reply.content)
                .files(reply.files);
            answer_click(ctx, click, message).await?;
            Ok(())
        }
        ReviewStart::Claimed(analyser) => {
            let first = progress_text(&data.i18n, lang, view.id, 0, analyser.len());
            let message = CreateInteractionResponseMessage::new().content(first);
            if let Err(e) = answer_click(ctx, click, message).await {
                let _ = data.service.abandon_review(view.id).await;
                return Err(e.into());
            }
            let message = click.get_response(&ctx.http).await?;
            spawn_analysis(
                shared,
                view,
                analyser,
                lang,
                ChannelId(message.channel_id.get()),
                MessageId(message.id.get()),
            );
            Ok(())
        }
    }
}

fn progress_text(i18n: &I18n, lang: Lang, game: GameId, done: usize, total: usize) -> String {
    i18n.tr(
        lang,
        "review-progress",
        &[
            ("id", game.0.into()),
            ("done", done.into()),
            ("total", total.into()),
        ],
    )
}

/// Runs an analysis in a task of its own: one position at a time on the engine's threads,
/// progress edited into `message`, the review stored and shown at the end.
fn spawn_analysis(
    shared: Shared,
    view: GameView,
    analyser: Box<Analyser>,
    lang: Lang,
    channel: ChannelId,
    message: MessageId,
) {
    tokio::spawn(async move {
        if let Err(e) = shared
            .service
            .review_message(view.id, channel, message)
            .await
        {
            warn!(%e, game = view.id.0, "could not record a review's message");
        }
        run_analysis(shared, view, analyser, lang, channel, message).await;
    });
}

async fn edit(http: &Http, channel: ChannelId, message: MessageId, edit: EditMessage) -> bool {
    match edit_message(http, channel.0, message.0, edit).await {
        Ok(_) => true,
        Err(e) => {
            warn!(%e, "could not edit a review's message");
            false
        }
    }
}

async fn run_analysis(
    shared: Shared,
    view: GameView,
    analyser: Box<Analyser>,
    lang: Lang,
    channel: ChannelId,
    message: MessageId,
) {
    let id = view.id;
    let total = analyser.len();
    let mut analyser = Some(analyser);
    let mut evals = Vec::with_capacity(total);
    let mut last_edit: Option<Instant> = None;
    for k in 0..total {
        let Some(mut a) = analyser.take() else {
            break;
        };
        let job = shared
            .engine
            .run_job(move || {
                let e = a.evaluate(k);
                (a, e)
            })
            .await;
        let Some((a, e)) = job else {
            // The engine's pool is gone or the search panicked: give the claim up.
            warn!(game = id.0, "a review's analysis failed");
            let _ = shared.service.abandon_review(id).await;
            let failed = shared
                .i18n
                .tr(lang, "review-failed", &[("id", id.0.into())]);
            edit(
                &shared.http,
                channel,
                message,
                EditMessage::new().content(failed),
            )
            .await;
            return;
        };
        analyser = Some(a);
        evals.push(e);
        if let Err(e) = shared.service.review_alive(id).await {
            warn!(%e, game = id.0, "could not renew a review's claim");
        }
        let due = last_edit.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY);
        if due && k + 1 < total {
            let text = progress_text(&shared.i18n, lang, id, k + 1, total);
            edit(
                &shared.http,
                channel,
                message,
                EditMessage::new().content(text),
            )
            .await;
            last_edit = Some(Instant::now());
        }
    }
    let Some(analyser) = analyser else {
        return;
    };
    let review = analyser.review(&evals);
    if let Err(e) = shared.service.save_review(id, &review).await {
        warn!(%e, game = id.0, "could not store a review");
    }
    let reply = finished_reply(&shared, lang, &view, &review).await;
    let mut e = EditMessage::new().content(reply.content);
    for f in reply.files {
        e = e.new_attachment(f);
    }
    if edit(&shared.http, channel, message, e).await {
        info!(game = id.0, positions = total, "review done");
    }
}

/// A finished review as a message.
struct Finished {
    content: String,
    files: Vec<CreateAttachment>,
}

/// The percentage of a chance, for text.
fn pct(c: f64) -> i64 {
    (c * 100.0).round() as i64
}

/// The words of a review (without pictures).
pub fn review_text(i18n: &I18n, lang: Lang, view: &GameView, r: &Review) -> String {
    let name = |seat: u8| {
        view.seats
            .iter()
            .find(|s| s.seat == seat)
            .map_or_else(|| format!("{seat}"), |s| s.name.clone())
    };
    let colour = |c: u8| {
        i18n.get(
            lang,
            match c {
                1 => "colour-black",
                _ => "colour-white",
            },
        )
    };
    let mut lines = vec![i18n.tr(lang, "review-title", &[("id", view.id.0.into())])];
    for p in &r.players {
        lines.push(i18n.tr(
            lang,
            "review-player",
            &[
                ("name", text::clip(name(p.seat)).into()),
                ("accuracy", (p.accuracy.round() as i64).into()),
                ("inaccuracies", p.inaccuracies.into()),
                ("mistakes", p.mistakes.into()),
                ("blunders", p.blunders.into()),
            ],
        ));
    }
    if r.turning_points.is_empty() {
        lines.push(i18n.get(lang, "review-no-turning-points"));
    } else {
        lines.push(i18n.get(lang, "review-turning-points"));
    }
    for &i in &r.turning_points {
        let Some(m) = r.moves.get(i) else {
            continue;
        };
        let mut line = i18n.tr(
            lang,
            "review-turning-point",
            &[
                ("number", m.number.into()),
                ("point", m.action.clone().into()),
                ("name", name(m.seat).into()),
                ("colour", colour(1).into()),
                ("before", pct(m.before).into()),
                ("after", pct(m.after).into()),
                (
                    "class",
                    i18n.get(
                        lang,
                        if m.class == Class::Blunder {
                            "review-class-blunder"
                        } else {
                            "review-class-mistake"
                        },
                    )
                    .into(),
                ),
            ],
        );
        if let Some(b) = &m.best {
            line.push_str(&i18n.tr(
                lang,
                "review-better",
                &[
                    ("point", b.clone().into()),
                    ("before", pct(m.before).into()),
                ],
            ));
        }
        lines.push(format!("• {line}"));
    }
    lines.push(i18n.get(lang, "review-method"));
    lines.join("\n")
}

/// The review as a message: words, the chart and a board per turning point (drawn off the
/// runtime's threads).
async fn finished_reply(shared: &Shared, lang: Lang, view: &GameView, r: &Review) -> Finished {
    let content = text::clip(review_text(&shared.i18n, lang, view, r));
    let chart = r.chart(
        shared.i18n.get(lang, "review-chart-title"),
        shared.i18n.get(lang, "review-chart-move"),
    );
    let opts = RenderOptions {
        labels: text::render_options(&shared.i18n, lang, &Default::default()).labels,
        ..RenderOptions::default()
    };
    let names: Vec<String> = view.seats.iter().map(|s| s.name.clone()).collect();
    let rules = *view.game.rules();
    let record = view.game.record().to_vec();
    let review = r.clone();
    let id = view.id.0;
    let drawn = tokio::task::spawn_blocking(move || {
        let mut files = vec![CreateAttachment::bytes(
            render::render_chart_png(&chart, opts.theme),
            format!("review-{id}.png"),
        )];
        for (k, &i) in review.turning_points.iter().enumerate() {
            let Some((game, better)) = review.turning_position(rules, &record, i) else {
                continue;
            };
            let colour = review.moves[i].colour;
            let png = match better {
                Some(p) => render::render_png_with_alternative(&game, &names, &opts, p, colour),
                None => render::render_png(&game, &names, &opts),
            };
            files.push(CreateAttachment::bytes(
                png,
                format!("review-{id}-turning-{}.png", k + 1),
            ));
        }
        files
    })
    .await
    .unwrap_or_default();
    Finished {
        content,
        files: drawn,
    }
}

/// Runs again, into their messages, the analyses whose process stopped: once at start, then
/// every [`SWEEP_EVERY`]. Holds only what [`Shared`] holds; ends when the service is closed
/// (its store errors are logged and the sweep goes on).
pub async fn sweep_reviews(shared: Shared) {
    let mut tick = tokio::time::interval(SWEEP_EVERY);
    loop {
        tick.tick().await;
        let stale = match shared.service.stale_reviews().await {
            Ok(s) => s,
            Err(e) => {
                warn!(%e, "review sweep failed");
                continue;
            }
        };
        for running in stale {
            let lang = Lang::from_code(&running.lang).unwrap_or_default();
            let (view, start) = match shared
                .service
                .resume_review(running.game, lang.code())
                .await
            {
                Ok(found) => found,
                Err(e) => {
                    warn!(%e, game = running.game.0, "could not resume a review");
                    let _ = shared.service.abandon_review(running.game).await;
                    continue;
                }
            };
            let ReviewStart::Claimed(analyser) = start else {
                continue;
            };
            info!(game = view.id.0, "resuming a review stopped by a restart");
            let target = match running.message {
                Some(m) => Some(m),
                None => {
                    // The message was never recorded: post a new one where the game lives.
                    let text = progress_text(&shared.i18n, lang, view.id, 0, analyser.len());
                    counted(
                        Op::Post,
                        serenity::ChannelId::new(view.home().0.max(1)).send_message(
                            &shared.http,
                            serenity::CreateMessage::new().content(text),
                        ),
                    )
                    .await
                    .ok()
                    .map(|m| (ChannelId(m.channel_id.get()), MessageId(m.id.get())))
                }
            };
            let Some((channel, message)) = target else {
                let _ = shared.service.abandon_review(view.id).await;
                continue;
            };
            spawn_analysis(shared.clone(), view, analyser, lang, channel, message);
        }
    }
}
