//! Posting: board messages, challenge messages, and where they go (the interaction's answer,
//! the game's thread, or the channel when a thread cannot be had).
//!
//! Low in the Discord layer: the outbox's poster, the engine's moves and tournaments post
//! boards with it, so it calls none of them; what follows an action (pings, stale offers, the
//! next round, the engine's answer) is [`super::announce`]'s.

use poise::CreateReply;
use poise::serenity_prelude as serenity;
use serenity::{
    CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, CreateMessage, CreateThread, EditMessage,
};
use tracing::warn;

use super::components;
use super::rest::{Op, counted, edit_message};
use super::text::{self, board_caption};
use super::{Context, Data, Error};
use crate::i18n::{I18n, Lang};
use crate::render;
use crate::rules::{Action, Game, Point};
use crate::service::{
    Challenge, ChannelId, GameStatus, GameView, Notify, OutboxNote, Preferences, Service,
    ServiceError, UserId,
};

// Defined beside the other context helpers, a leaf module; most callers know it from here.
pub use super::context::Origin;

/// A message about to be sent anywhere (answer, follow-up, channel message).
pub struct Outgoing {
    /// The text.
    pub content: String,
    /// The board picture, if it fits.
    pub png: Option<Vec<u8>>,
    /// Buttons.
    pub components: Vec<CreateActionRow>,
    /// Who may be pinged.
    pub mentions: CreateAllowedMentions,
}

impl Outgoing {
    fn attachment(&self, name: &str) -> Option<CreateAttachment> {
        self.png
            .as_ref()
            .map(|p| CreateAttachment::bytes(p.clone(), name.to_string()))
    }

    /// As a poise reply.
    pub fn reply(self) -> CreateReply {
        let file = self.attachment("board.png");
        let mut r = CreateReply::default()
            .content(self.content)
            .components(self.components)
            .allowed_mentions(self.mentions);
        if let Some(f) = file {
            r = r.attachment(f);
        }
        r
    }

    /// As a channel message.
    pub fn message(self) -> CreateMessage {
        let file = self.attachment("board.png");
        let mut m = CreateMessage::new()
            .content(self.content)
            .components(self.components)
            .allowed_mentions(self.mentions);
        if let Some(f) = file {
            m = m.add_file(f);
        }
        m
    }

    /// As an interaction follow-up.
    pub fn followup(self) -> CreateInteractionResponseFollowup {
        let file = self.attachment("board.png");
        let mut m = CreateInteractionResponseFollowup::new()
            .content(self.content)
            .components(self.components)
            .allowed_mentions(self.mentions);
        if let Some(f) = file {
            m = m.add_file(f);
        }
        m
    }
}

/// Who answers: a slash command, or a clicked button (whose message becomes `update`).
pub enum Responder<'a> {
    /// A slash command.
    Command(Context<'a>),
    /// A button click; the clicked message is replaced by `update` before anything else.
    Component {
        /// The click.
        click: &'a serenity::ComponentInteraction,
        /// What the clicked message becomes.
        update: CreateInteractionResponseMessage,
    },
}

/// Discord's JSON error code of a failed request, if it was one.
pub fn discord_code(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

/// The words for a failed post into `channel`.
pub fn post_failure_text(
    i18n: &I18n,
    lang: Lang,
    channel: ChannelId,
    e: &serenity::Error,
) -> String {
    let place = format!("<#{}>", channel.0);
    match discord_code(e) {
        Some(50013 | 50001) => i18n.tr(lang, "err-missing-permissions", &[("place", place.into())]),
        _ => i18n.tr(lang, "err-post-failed", &[("place", place.into())]),
    }
}

/// Renders a board for a viewer, falling back to text only when the picture is too big.
fn picture(
    i18n: &I18n,
    lang: Lang,
    view: &GameView,
    prefs: &Preferences,
    tentative: Option<Point>,
    limit: u32,
) -> Option<Vec<u8>> {
    let names: Vec<String> = view.seats.iter().map(|s| s.name.clone()).collect();
    let opts = text::render_options(i18n, lang, prefs);
    let png = match tentative {
        Some(p) => render::render_png_with_tentative(&view.game, &names, &opts, p),
        None => render::render_png(&view.game, &names, &opts),
    };
    (png.len() as u64 <= u64::from(limit)).then_some(png)
}

/// A board message: caption (with `lead` first), picture, and colour-choice buttons when due.
pub fn board_message(
    data: &Data,
    lang: Lang,
    view: &GameView,
    prefs: &Preferences,
    lead: Option<String>,
    ping: bool,
    limit: u32,
) -> Outgoing {
    board_message_with(&data.i18n, lang, view, prefs, lead, ping, limit)
}

/// [`board_message`] with only the translations (for work outside an interaction).
pub fn board_message_with(
    i18n: &I18n,
    lang: Lang,
    view: &GameView,
    prefs: &Preferences,
    lead: Option<String>,
    ping: bool,
    limit: u32,
) -> Outgoing {
    let mut content = String::new();
    if let Some(l) = lead {
        content.push_str(&l);
        content.push('\n');
    }
    content.push_str(&board_caption(i18n, lang, view, ping));
    let png = picture(i18n, lang, view, prefs, None, limit);
    if png.is_none() {
        content.push('\n');
        content.push_str(&i18n.get(lang, "board-too-large"));
    }
    let mut mentions = CreateAllowedMentions::new();
    if ping && let Some(seat) = view.to_act() {
        mentions = mentions.users(vec![serenity::UserId::new(seat.user.0.max(1))]);
    }
    Outgoing {
        content: text::clip(content),
        png,
        components: components::board_rows(i18n, lang, view),
        mentions,
    }
}

/// The private preview of a move awaiting confirmation.
pub fn confirmation(
    data: &Data,
    lang: Lang,
    view: &GameView,
    prefs: &Preferences,
    point: Point,
    limit: u32,
) -> Outgoing {
    let content = data.i18n.tr(
        lang,
        "confirm-move",
        &[("point", point.name().into()), ("id", view.id.0.into())],
    );
    Outgoing {
        content,
        png: picture(&data.i18n, lang, view, prefs, Some(point), limit),
        components: components::confirm_buttons(&data.i18n, lang, view, point),
        mentions: CreateAllowedMentions::new(),
    }
}

/// Checks a typed move against a game the way the service will, without playing it.
///
/// # Errors
/// The [`ServiceError`] the service would return.
pub fn check_move(view: &GameView, user: UserId, token: &str) -> Result<Action, ServiceError> {
    if view.is_over() {
        return Err(ServiceError::GameOver);
    }
    if view.seat_of(user).is_none() {
        return Err(ServiceError::NotAParticipant);
    }
    if view.to_act().map(|s| s.user) != Some(user) {
        return Err(ServiceError::NotYourTurn);
    }
    let action = Action::parse(token, view.game.size()).map_err(ServiceError::BadPoint)?;
    view.game.check(action).map_err(ServiceError::Illegal)?;
    Ok(action)
}

/// Up to 25 legal actions matching what was typed, nearest to the last stone first.
pub fn point_suggestions(game: &Game, typed: &str) -> Vec<String> {
    let typed = typed.trim().to_ascii_uppercase();
    let last = game
        .last_stone()
        .unwrap_or_else(|| Point::centre(game.size()));
    let mut legal: Vec<(u8, String)> = game
        .legal_actions()
        .into_iter()
        .map(|a| match a {
            Action::Place(p) => (p.distance(last), p.name()),
            other => (0, other.to_string()),
        })
        .filter(|(_, name)| name.to_ascii_uppercase().starts_with(&typed))
        .collect();
    legal.sort();
    legal.into_iter().take(25).map(|(_, n)| n).collect()
}

/// A challenge or lobby message: text and buttons, pinging only the challenged member.
pub fn challenge_message(data: &Data, lang: Lang, c: &Challenge) -> Outgoing {
    let content = text::challenge_text(&data.i18n, lang, c);
    let mut mentions = CreateAllowedMentions::new();
    if let Some(o) = c.opponent {
        mentions = mentions.users(vec![serenity::UserId::new(o.0.max(1))]);
    }
    Outgoing {
        content: text::clip(content),
        png: None,
        components: components::challenge_buttons(&data.i18n, lang, c),
        mentions,
    }
}

/// Rewrites a challenge's message once it is closed (expired, by the sweeper): no buttons.
pub async fn show_closed_challenge(
    http: &serenity::Http,
    service: &Service,
    i18n: &I18n,
    c: &Challenge,
) {
    let Some((channel, message)) = c.message else {
        return;
    };
    let lang = super::guild_lang(service, c.guild, None).await;
    let content = text::clip(text::challenge_text(i18n, lang, c));
    let edit = EditMessage::new().content(content).components(Vec::new());
    if let Err(e) = edit_message(http, channel.0, message.0, edit).await {
        warn!(%e, challenge = c.id.0, "could not update an expired challenge's message");
    }
}

/// The preferences the public board is drawn with: those of the player to act (the
/// defaults once the game is over, or when they cannot be read). Every public board is drawn
/// so: answered, posted by the engine, or posted by the outbox.
pub(super) async fn viewer_prefs(service: &Service, view: &GameView) -> Preferences {
    match view.to_act() {
        Some(seat) => service.preferences(seat.user).await.unwrap_or_default(),
        None => Preferences::default(),
    }
}

/// Whether to mention the player to act (their notification preference).
pub(super) fn wants_ping(view: &GameView, prefs: &Preferences) -> bool {
    matches!(view.status, GameStatus::Active)
        && view.to_act().is_some()
        && prefs.notify != Notify::Off
}

/// Whether the player to act gets a direct message with this board.
pub(super) fn dm_owed(
    view: &GameView,
    prefs: &Preferences,
    current: bool,
    engine_acts: bool,
) -> bool {
    current
        && !engine_acts
        && prefs.notify == Notify::DirectMessage
        && matches!(view.status, GameStatus::Active)
        && view.to_act().is_some()
}

/// Sends a direct message to the player to act, when they asked for it. Best effort.
pub(super) async fn direct_ping(
    http: &serenity::Http,
    data: &Data,
    view: &GameView,
    prefs: &Preferences,
    lang: Lang,
) {
    direct_ping_with(http, &data.i18n, view, prefs, lang).await;
}

/// [`direct_ping`] with only the translations (for work outside an interaction).
pub(super) async fn direct_ping_with(
    http: &serenity::Http,
    i18n: &I18n,
    view: &GameView,
    prefs: &Preferences,
    lang: Lang,
) {
    let Some(seat) = view.to_act() else { return };
    if prefs.notify != Notify::DirectMessage || !matches!(view.status, GameStatus::Active) {
        return;
    }
    let text = i18n.tr(
        lang,
        "dm-your-turn",
        &[
            ("id", view.id.0.into()),
            ("place", format!("<#{}>", view.home().0).into()),
        ],
    );
    let user = serenity::UserId::new(seat.user.0.max(1));
    let result = match counted(Op::DirectMessage, user.create_dm_channel(http)).await {
        Ok(dm) => counted(
            Op::DirectMessage,
            dm.id.send_message(http, CreateMessage::new().content(text)),
        )
        .await
        .map(|_| ()),
        Err(e) => Err(e),
    };
    if let Err(e) = result {
        warn!(%e, user = seat.user.0, "could not send a turn reminder by direct message");
    }
}

/// The name of a game's thread: its number and its players, within Discord's 100 characters.
pub fn thread_name(view: &GameView) -> String {
    let names: Vec<&str> = view.seats.iter().map(|s| s.name.as_str()).collect();
    let name = format!("#{} · {}", view.id.0, names.join(" · "));
    if name.chars().count() > 100 {
        name.chars().take(99).collect::<String>() + "…"
    } else {
        name
    }
}

/// Starts a game after its challenge was accepted (or its lobby filled): opens its thread
/// from the challenge message when the server wants threads, and posts the first board there
/// (or in the channel when a thread cannot be created or written to).
///
/// With the outbox on, the commit that started the game owes all of that (a `start` row):
/// this only hands the poster the interaction's language and upload limit, so that a crash
/// or a Discord error after the commit cannot lose the game's thread and first board.
///
/// # Errors
/// Only when the interaction's follow-up cannot be sent.
pub async fn start_game(
    sctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    view: GameView,
) -> Result<(), Error> {
    let lang = data
        .public_lang(view.guild, click.guild_locale.as_deref())
        .await;
    if data.service.outbox_on() {
        data.service.outbox_release(
            view.id,
            0,
            OutboxNote {
                lang: Some(lang.code().to_owned()),
                picture_limit: Some(click.attachment_size_limit),
                thread_from: Some((click.channel_id.get(), click.message.id.get())),
                ..OutboxNote::default()
            },
        );
        return Ok(());
    }
    let threads = super::guild_threads(&data.service, view.guild).await;
    let prefs = viewer_prefs(&data.service, &view).await;
    let limit = click.attachment_size_limit;
    let mut notice = None;
    if threads {
        let name = thread_name(&view);
        let thread = counted(
            Op::Thread,
            click.channel_id.create_thread_from_message(
                &sctx.http,
                click.message.id,
                CreateThread::new(name),
            ),
        )
        .await;
        match thread {
            Ok(t) => {
                let thread_id = ChannelId(t.id.get());
                // Recorded before the board goes up, so that a move typed in the thread the
                // moment it appears finds its game.
                if let Err(e) = data.service.set_game_thread(view.id, thread_id).await {
                    warn!(%e, game = view.id.0, "could not record the game's thread");
                    notice = Some(data.i18n.get(lang, "thread-unavailable"));
                } else {
                    let mut in_thread = view.clone();
                    in_thread.thread = Some(thread_id);
                    let board = board_message(
                        data,
                        lang,
                        &in_thread,
                        &prefs,
                        None,
                        wants_ping(&in_thread, &prefs),
                        limit,
                    );
                    match counted(Op::Post, t.id.send_message(&sctx.http, board.message())).await {
                        Ok(_) => {
                            direct_ping(&sctx.http, data, &in_thread, &prefs, lang).await;
                            return Ok(());
                        }
                        Err(e) => {
                            warn!(%e, game = view.id.0, "could not post in the game's thread");
                            notice = Some(post_failure_text(&data.i18n, lang, thread_id, &e));
                            // Home goes back to the challenge's channel: a "thread" equal to the
                            // channel makes the channel the game's home.
                            if let Err(e) =
                                data.service.set_game_thread(view.id, view.channel).await
                            {
                                warn!(%e, game = view.id.0, "could not move the game back to its channel");
                            }
                        }
                    }
                }
            }
            Err(e) => {
                warn!(%e, game = view.id.0, "could not open a thread for the game");
                notice = Some(data.i18n.get(lang, "thread-unavailable"));
            }
        }
    }
    let board = board_message(
        data,
        lang,
        &view,
        &prefs,
        notice,
        wants_ping(&view, &prefs),
        limit,
    );
    counted(
        Op::Followup,
        click.create_followup(&sctx.http, board.followup()),
    )
    .await?;
    direct_ping(&sctx.http, data, &view, &prefs, lang).await;
    Ok(())
}
