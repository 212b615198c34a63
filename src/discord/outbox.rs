//! The outbox's poster (issue 16): sends what committed actions owe Discord, in order per
//! game, and marks each row done; retries what Discord could not take yet.
//!
//! What the rows ask for: the board after a move (posted in the game's place unless the
//! interaction's own answer carried it) with the direct-message ping of the player to act, a
//! loss on time, a reminder. The poster draws each from the game when the row's turn comes.
//!
//! - **No message twice.** Every channel message (direct messages included) carries the row's
//!   `nonce` with `enforce_nonce`: Discord answers a repeated nonce with the message it already
//!   made. A board answered in an interaction before a crash is found by asking Discord for
//!   the interaction's original answer (kept while the token is fresh).
//! - **Retries.** A 429 is retried after its `retry_after` (a global one holds every row; a
//!   route's only that game's row), a 5xx or a lost connection after a growing delay with
//!   jitter; rows of other games go on meanwhile. A 403 or 404 (or another refusal) is
//!   permanent: the row is given up, logged, counted, and a board that could not go in a
//!   game's thread is reported in the game's channel.
//! - The poster sends its messages itself (reqwest, already in the build for serenity)
//!   because serenity's errors drop a 429's `retry_after` and scope; requests are counted by
//!   operation and status like every other REST call ([`super::rest`]).

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use serde_json::{Value, json};
use serenity::{CreateAllowedMentions, Http};
use tracing::{info, warn};

use super::clocks;
use super::post::{self, Outgoing};
use super::rest::{Op, counted, error_status};
use super::text;
use crate::i18n::{I18n, Lang};
use crate::ops::metrics;
use crate::service::{
    ClockEvent, GameStatus, GameView, GuildId, LeftToCommit, OutboxEnd, OutboxKind, OutboxNote,
    OutboxRow, Preferences, Service, ServiceError, UserId,
};

/// Rows looked at per round (one per game).
const HEADS: u32 = 256;
/// How often the poster looks again without being woken (retries, held rows).
const IDLE: Duration = Duration::from_millis(500);
/// The first retry's delay; each further attempt doubles it, up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
/// The longest delay between two attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(300);
/// How often rows that ended more than a week ago are deleted.
const PRUNE_EVERY: Duration = Duration::from_secs(600);
/// The largest picture a board posted by the poster carries (Discord's smallest limit).
const PICTURE_LIMIT: u32 = 8 << 20;

/// Why an attempt did not go through.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// Try again after this long (`global`: every request waits).
    Retry {
        /// The delay.
        after: Duration,
        /// A global rate limit.
        global: bool,
        /// For the log and the row.
        why: String,
        /// The `reason` label of the retries counter.
        reason: &'static str,
    },
    /// Refused for good.
    Permanent {
        /// Discord's status (0: none).
        status: u16,
        /// Discord's JSON error code, if any.
        code: Option<i64>,
        /// For the log and the row.
        why: String,
    },
}

/// The delay before attempt `attempts + 1` after a transient failure: doubling from
/// [`FIRST_BACKOFF`], capped, with up to a quarter more at random so that rows failed together
/// do not come back together.
pub fn backoff(attempts: u32) -> Duration {
    let base = FIRST_BACKOFF
        .saturating_mul(1u32 << attempts.min(16))
        .min(MAX_BACKOFF);
    let jitter = rand::random::<f64>() * 0.25;
    base.mul_f64(1.0 + jitter)
}

/// What an unsuccessful answer means: `retry_after` (seconds) and `global` from a 429's body
/// or headers; `attempts` so far.
pub fn classify(
    status: u16,
    code: Option<i64>,
    retry_after: Option<f64>,
    global: bool,
    attempts: u32,
    why: String,
) -> Failure {
    match status {
        429 => Failure::Retry {
            // A few milliseconds more than asked, so the bucket has surely refilled.
            after: retry_after
                .filter(|s| s.is_finite() && *s >= 0.0)
                .map_or_else(|| backoff(attempts), Duration::from_secs_f64)
                + Duration::from_millis(5),
            global,
            why,
            reason: "rate_limited",
        },
        0 | 500..=599 => Failure::Retry {
            after: backoff(attempts),
            global: false,
            why,
            reason: if status == 0 {
                "no_answer"
            } else {
                "server_error"
            },
        },
        _ => Failure::Permanent { status, code, why },
    }
}

/// A failure of the bot's own database while handling a row (reading what the row is about,
/// or recording what was done): tried again later, as a request that got no answer is.
pub(super) fn read_failure(attempts: u32, what: &str, e: impl std::fmt::Display) -> Failure {
    classify(0, None, None, false, attempts, format!("{what}: {e}"))
}

/// A request serenity sent for a row that failed (an edit, a thread opened, a tournament round
/// posted): what Discord's status and JSON code say of the row, with what was being done and
/// the status as the reason.
pub(super) fn request_failure(e: &serenity::Error, attempts: u32, doing: &str) -> Failure {
    let status = error_status(e);
    classify(
        status,
        error_code(e),
        None,
        false,
        attempts,
        format!("{doing}: status {status}"),
    )
}

/// A message to send to a channel.
struct Message {
    channel: u64,
    content: String,
    components: Vec<serenity::CreateActionRow>,
    mentions: CreateAllowedMentions,
    png: Option<Vec<u8>>,
    nonce: String,
}

/// Sends what the rows ask for.
pub(super) struct Poster {
    pub(super) http: Arc<Http>,
    pub(super) service: Arc<Service>,
    pub(super) i18n: Arc<I18n>,
    client: reqwest::Client,
    bot: Option<UserId>,
}

impl Poster {
    /// Posts one message with its nonce; Discord's message id.
    async fn send(&self, op: Op, m: Message, attempts: u32) -> Result<u64, Failure> {
        let base = self
            .http
            .proxy
            .clone()
            .unwrap_or_else(|| "https://discord.com".to_owned());
        let url = format!(
            "{}/api/v10/channels/{}/messages",
            base.trim_end_matches('/'),
            m.channel
        );
        let mut payload = json!({
            "content": m.content,
            "allowed_mentions": m.mentions,
            "nonce": m.nonce,
            "enforce_nonce": true,
        });
        if !m.components.is_empty() {
            payload["components"] = json!(m.components);
        }
        let request = self
            .client
            .post(url)
            // The token goes in this header only; it is never logged.
            .header(reqwest::header::AUTHORIZATION, self.http.token())
            .header(
                reqwest::header::USER_AGENT,
                "DiscordBot (https://github.com/gomoku-bot, 0.1)",
            );
        let request = match m.png {
            Some(png) => {
                payload["attachments"] = json!([{"id": "0", "filename": "board.png"}]);
                let file = reqwest::multipart::Part::bytes(png)
                    .file_name("board.png")
                    .mime_str("image/png")
                    .map_err(|e| permanent(0, format!("picture part: {e}")))?;
                let form = reqwest::multipart::Form::new()
                    .text("payload_json", payload.to_string())
                    .part("files[0]", file);
                request.multipart(form)
            }
            None => request
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(payload.to_string()),
        };
        let response = match request.send().await {
            Ok(r) => r,
            Err(e) => {
                metrics::rest_request(op.name(), 0);
                return Err(classify(0, None, None, false, attempts, e.to_string()));
            }
        };
        let status = response.status().as_u16();
        metrics::rest_request(op.name(), status);
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let header_after = header("retry-after").and_then(|v| v.parse::<f64>().ok());
        let header_global = header("x-ratelimit-global").is_some()
            || header("x-ratelimit-scope").as_deref() == Some("global");
        let bytes = response.bytes().await.unwrap_or_default();
        let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        if (200..300).contains(&status) {
            return body["id"]
                .as_str()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| permanent(status, "an answer without a message id".into()));
        }
        let retry_after = body["retry_after"].as_f64().or(header_after);
        let global = body["global"].as_bool().unwrap_or(false) || header_global;
        let code = body["code"].as_i64();
        let why = format!(
            "{status} {}",
            body["message"].as_str().unwrap_or("(no message)")
        );
        Err(classify(status, code, retry_after, global, attempts, why))
    }

    /// Sends a direct message (the channel opened through serenity; the message with a nonce).
    async fn direct(
        &self,
        user: UserId,
        text: String,
        nonce: String,
        attempts: u32,
    ) -> Result<u64, Failure> {
        let opened = counted(
            Op::DirectMessage,
            serenity::UserId::new(user.0.max(1)).create_dm_channel(&*self.http),
        )
        .await;
        let dm = match opened {
            Ok(dm) => dm,
            Err(e) => {
                let status = error_status(&e);
                return Err(classify(
                    status,
                    None,
                    None,
                    false,
                    attempts,
                    format!("opening a direct message: status {status}"),
                ));
            }
        };
        self.send(
            Op::DirectMessage,
            Message {
                channel: dm.id.get(),
                content: text,
                components: Vec::new(),
                mentions: CreateAllowedMentions::new(),
                png: None,
                nonce,
            },
            attempts,
        )
        .await
    }

    /// The language of a guild's public messages (its setting, else English).
    pub(super) async fn guild_lang(&self, guild: GuildId) -> Lang {
        super::guild_lang(&self.service, guild, None).await
    }

    /// Does what one row asks; `Ok` with how it ended.
    async fn handle(
        &self,
        row: &OutboxRow,
        note: Option<OutboxNote>,
    ) -> Result<OutboxEnd, Failure> {
        // Rows about no game, or about more than a game's position.
        match row.kind {
            OutboxKind::Challenge => return self.challenge_closed(row).await,
            OutboxKind::Offers => return self.offers_lapsed(row).await,
            OutboxKind::Tournament => return self.tournament_round(row).await,
            _ => {}
        }
        let (view, current) = match self.service.game_at(row.game, row.ply).await {
            Ok(Some(v)) => v,
            Ok(None) => return Ok(OutboxEnd::Stale),
            Err(e) => {
                return Err(read_failure(row.attempts, "reading the game", e));
            }
        };
        match row.kind {
            OutboxKind::Board => self.board(row, note, view, current).await,
            OutboxKind::Start => self.start(row, note, view, current).await,
            OutboxKind::Timeout | OutboxKind::Reminder | OutboxKind::Vacation => {
                self.clock(row, view, current).await
            }
            OutboxKind::Challenge | OutboxKind::Offers | OutboxKind::Tournament => {
                Ok(OutboxEnd::Stale)
            }
        }
    }

    /// A game's start: its thread (when the server wants one and the game has none yet),
    /// then its first board like any other board row.
    ///
    /// The thread is opened from the challenge message, and Discord opens one thread per
    /// message, whose id is the message's: an attempt after a crash between Discord's answer
    /// and the record of the thread ("already created", 160004) takes that id, so a retried
    /// start never opens a second thread. A refusal for good (no permission, the message
    /// deleted) leaves the game in its channel, the board saying why.
    async fn start(
        &self,
        row: &OutboxRow,
        note: Option<OutboxNote>,
        mut view: GameView,
        current: bool,
    ) -> Result<OutboxEnd, Failure> {
        let mut note = note.unwrap_or_default();
        // A game the computer plays starts with the interaction's answer carrying its first
        // board, and its thread opens from that answer: after a restart, ask Discord for it.
        if note.thread_from.is_none()
            && note.answered.is_none()
            && row.message_id.is_none()
            && row.inherited
            && let Some(token) = &row.reply_token
            && let Some(id) = self.answered_before(token, row.attempts).await?
        {
            // Not recorded as the row's message: that would mean its board went out in the
            // thread, and the thread would not be opened on a later attempt.
            note.answered = Some(id);
            note.thread_from = Some((view.channel.0, id));
        }
        let threads = super::guild_threads(&self.service, view.guild).await;
        if threads && view.thread.is_none() && row.message_id.is_none() {
            match self
                .open_thread(&view, note.thread_from, row.attempts)
                .await
            {
                Ok(Some(thread)) => {
                    // Recorded before the board goes up, so that a move typed in the thread
                    // the moment it appears finds its game.
                    if let Err(e) = self.service.set_game_thread(view.id, thread).await {
                        return Err(read_failure(row.attempts, "recording the game's thread", e));
                    }
                    view.thread = Some(thread);
                }
                Ok(None) => {}
                Err(Failure::Permanent { why, .. }) => {
                    warn!(game = view.id.0, %why, "could not open a thread for the game");
                    let lang = note_lang(&note, row).unwrap_or(self.guild_lang(view.guild).await);
                    note.lead = Some(self.i18n.get(lang, "thread-unavailable"));
                }
                Err(retry) => return Err(retry),
            }
        }
        self.board(row, Some(note), view, current).await
    }

    /// Opens the game's thread from the message `from` (the Accept click's, when the front
    /// said), else from its challenge's recorded message: the thread's id, or `None` when
    /// there is no message to open it from.
    async fn open_thread(
        &self,
        view: &GameView,
        from: Option<(u64, u64)>,
        attempts: u32,
    ) -> Result<Option<crate::service::ChannelId>, Failure> {
        let recorded = match (from, view.challenge) {
            (Some(_), _) | (None, None) => None,
            (None, Some(challenge)) => {
                match self.service.challenge_info(view.guild, challenge).await {
                    Ok(c) => c.message.map(|(channel, message)| (channel.0, message.0)),
                    Err(ServiceError::NoSuchChallenge) => None,
                    Err(e) => {
                        return Err(read_failure(attempts, "reading the challenge", e));
                    }
                }
            }
        };
        let Some((channel, message)) = from.or(recorded) else {
            return Ok(None);
        };
        match open_thread_from(&self.http, view, channel, message).await {
            Ok(thread) => Ok(Some(thread)),
            Err(e) => Err(request_failure(&e, attempts, "opening the game's thread")),
        }
    }

    async fn board(
        &self,
        row: &OutboxRow,
        note: Option<OutboxNote>,
        view: GameView,
        current: bool,
    ) -> Result<OutboxEnd, Failure> {
        let note = note.unwrap_or_default();
        let lang = match note_lang(&note, row) {
            Some(lang) => lang,
            None => self.guild_lang(view.guild).await,
        };
        // Only a board of the game's current ply is drawn with its player to act's preferences.
        let prefs = if current {
            post::viewer_prefs(&self.service, &view).await
        } else {
            Preferences::default()
        };
        let engine_acts = self
            .bot
            .is_some_and(|b| view.to_act().map(|s| s.user) == Some(b));
        let mut answered = note.answered.or(row.message_id);
        if answered.is_none()
            && row.inherited
            && let Some(token) = &row.reply_token
        {
            answered = self.answered_before(token, row.attempts).await?;
            if let Some(id) = answered {
                info!(
                    game = row.game.0,
                    ply = row.ply,
                    "the interaction's answer carried the board before the restart"
                );
                let _ = self.service.outbox_posted(row, id).await;
            }
        }
        if answered.is_none() {
            let ping = current && post::wants_ping(&view, &prefs) && !engine_acts;
            let lead = note
                .lead
                .or_else(|| row.lead.clone())
                .or_else(|| recovered_lead(&self.i18n, lang, &view));
            let board: Outgoing = post::board_message_with(
                &self.i18n,
                lang,
                &view,
                &prefs,
                lead,
                ping,
                note.picture_limit.unwrap_or(PICTURE_LIMIT),
            );
            let sent = self
                .send(
                    Op::Post,
                    Message {
                        channel: view.home().0,
                        content: board.content,
                        components: board.components,
                        mentions: board.mentions,
                        png: board.png,
                        nonce: row.nonce.clone(),
                    },
                    row.attempts,
                )
                .await;
            match sent {
                Ok(id) => {
                    // Recorded at once: a later attempt at this row (a failed ping, or a
                    // crash before the round marks it sent) must not post the board again,
                    // even after Discord has forgotten the nonce (a few minutes).
                    let _ = self.service.outbox_posted(row, id).await;
                }
                Err(f) => {
                    if let Failure::Permanent { status, code, .. } = &f {
                        self.report(&view, lang, *status, *code).await;
                    }
                    return Err(f);
                }
            }
        }
        if post::dm_owed(&view, &prefs, current, engine_acts)
            && let Some(seat) = view.to_act()
        {
            let text = self.i18n.tr(
                lang,
                "dm-your-turn",
                &[
                    ("id", view.id.0.into()),
                    ("place", format!("<#{}>", view.home().0).into()),
                ],
            );
            match self
                .direct(seat.user, text, format!("{}d", row.nonce), row.attempts)
                .await
            {
                Ok(_) => {}
                // A member who closed their direct messages does not hold up the game.
                Err(Failure::Permanent { why, .. }) => {
                    warn!(user = seat.user.0, %why, "could not send a turn reminder by direct message");
                }
                Err(f) => return Err(f),
            }
        }
        Ok(OutboxEnd::Sent)
    }

    /// Asks Discord whether the interaction `token` answered (with a public message) before
    /// the restart: `Some(id)` when it did, `None` when it did not (or the token expired).
    async fn answered_before(&self, token: &str, attempts: u32) -> Result<Option<u64>, Failure> {
        match counted(
            Op::Answer,
            self.http.get_original_interaction_response(token),
        )
        .await
        {
            Ok(m) => {
                let private = m
                    .flags
                    .is_some_and(|f| f.contains(serenity::MessageFlags::EPHEMERAL));
                Ok((!private && !m.attachments.is_empty()).then_some(m.id.get()))
            }
            Err(e) => {
                let status = error_status(&e);
                match classify(status, None, None, false, attempts, String::new()) {
                    // Unknown message or webhook (no answer, or the token is too old).
                    Failure::Permanent { .. } => Ok(None),
                    retry => Err(retry),
                }
            }
        }
    }

    /// Tells the game's channel that its board could not go in the game's thread.
    async fn report(&self, view: &GameView, lang: Lang, status: u16, code: Option<i64>) {
        warn!(
            game = view.id.0,
            status,
            ?code,
            "gave up posting a game's board"
        );
        if view.home() == view.channel {
            return;
        }
        let place = format!("<#{}>", view.home().0);
        let key = match code {
            Some(50013 | 50001) => "err-missing-permissions",
            _ => "err-post-failed",
        };
        let text = self.i18n.tr(lang, key, &[("place", place.into())]);
        let sent = serenity::ChannelId::new(view.channel.0.max(1))
            .send_message(&*self.http, serenity::CreateMessage::new().content(text));
        if let Err(e) = counted(Op::Post, sent).await {
            warn!(%e, game = view.id.0, "could not report a failed board in the game's channel");
        }
    }

    /// A loss on time or a reminder.
    async fn clock(
        &self,
        row: &OutboxRow,
        view: GameView,
        current: bool,
    ) -> Result<OutboxEnd, Failure> {
        let Some(seat) = row.seat else {
            return Ok(OutboxEnd::Stale);
        };
        let Some(user) = view.seats.iter().find(|s| s.seat == seat).map(|s| s.user) else {
            return Ok(OutboxEnd::Stale);
        };
        let event = match row.kind {
            OutboxKind::Reminder => {
                // A reminder of a turn already played is moot.
                if !current || !matches!(view.status, GameStatus::Active) {
                    return Ok(OutboxEnd::Stale);
                }
                ClockEvent::Reminder {
                    user,
                    seat,
                    game: view,
                }
            }
            OutboxKind::Vacation => {
                // So is the notice of a vacation on a turn already played.
                if !current || !matches!(view.status, GameStatus::Active) {
                    return Ok(OutboxEnd::Stale);
                }
                ClockEvent::VacationUsed {
                    game: view,
                    user,
                    hours: 0,
                    left: row
                        .detail
                        .as_deref()
                        .and_then(|d| d.parse().ok())
                        .unwrap_or(0),
                    first_of_turn: true,
                }
            }
            _ => ClockEvent::TimedOut {
                game: view,
                user,
                seat,
            },
        };
        let Some(n) = clocks::notice_of(&self.service, &self.i18n, &event).await else {
            return Ok(OutboxEnd::Stale);
        };
        let mentions = CreateAllowedMentions::new().users(
            n.pings
                .iter()
                .map(|u| serenity::UserId::new(u.0.max(1)))
                .collect::<Vec<_>>(),
        );
        // Posted by an earlier attempt (only its direct messages failed): not again.
        let posted = if row.message_id.is_some() {
            Ok(0)
        } else {
            self.send(
                Op::Post,
                Message {
                    channel: n.channel.0,
                    content: n.content,
                    components: Vec::new(),
                    mentions,
                    png: None,
                    nonce: row.nonce.clone(),
                },
                row.attempts,
            )
            .await
        };
        if let Ok(id) = posted
            && row.message_id.is_none()
        {
            let _ = self.service.outbox_posted(row, id).await;
        }
        if let Err(f) = posted {
            if let Failure::Permanent { why, .. } = &f {
                warn!(game = row.game.0, %why, "gave up posting a clock notice");
            }
            return Err(f);
        }
        for (i, (user, text)) in n.direct.into_iter().enumerate() {
            match self
                .direct(user, text, format!("{}d{i}", row.nonce), row.attempts)
                .await
            {
                Ok(_) => {}
                Err(Failure::Permanent { why, .. }) => {
                    warn!(user = user.0, %why, "could not send a clock notice by direct message");
                }
                Err(f) => return Err(f),
            }
        }
        Ok(OutboxEnd::Sent)
    }
}

/// The first line of a board whose front's words were lost (a restart): what its last action
/// did, replayed from the record. `None` when the game's last row is not in the record (a
/// resignation, a loss on time, an agreed draw).
fn recovered_lead(i18n: &I18n, lang: Lang, view: &GameView) -> Option<String> {
    if view.ended_off_record() {
        return None;
    }
    let mut game = view.game.clone();
    let action = game.undo()?;
    let seat = game.seat_to_act()?;
    let user = view.seats.iter().find(|s| s.seat == seat)?.user;
    let report = game.apply(action).ok()?;
    Some(text::move_text(i18n, lang, view, user, &report))
}

/// Opens `view`'s thread from `message` in `channel`: the thread's id. Discord opens one
/// thread per message, whose id is the message's: an attempt after one whose answer was lost
/// (a crash, a restart) meets "already created" and takes that thread, never a second.
///
/// # Errors
/// Discord's refusal, for the caller to classify.
pub(super) async fn open_thread_from(
    http: &Http,
    view: &GameView,
    channel: u64,
    message: u64,
) -> Result<crate::service::ChannelId, serenity::Error> {
    let opened = counted(
        Op::Thread,
        serenity::ChannelId::new(channel.max(1)).create_thread_from_message(
            http,
            serenity::MessageId::new(message.max(1)),
            serenity::CreateThread::new(post::thread_name(view)),
        ),
    )
    .await;
    match opened {
        Ok(thread) => Ok(crate::service::ChannelId(thread.id.get())),
        Err(e) if error_code(&e) == Some(THREAD_EXISTS) => {
            info!(game = view.id.0, "the game's thread was opened before");
            Ok(crate::service::ChannelId(message))
        }
        Err(e) => Err(e),
    }
}

/// Discord's JSON code for "a thread has already been created for this message".
const THREAD_EXISTS: i64 = 160_004;

/// Discord's JSON error code in a refused request, if any.
pub(super) fn error_code(e: &serenity::Error) -> Option<i64> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(answer)) => {
            i64::try_from(answer.error.code).ok()
        }
        _ => None,
    }
}

/// The language the front chose for a row (its note, else the row's), if any.
fn note_lang(note: &OutboxNote, row: &OutboxRow) -> Option<Lang> {
    note.lang
        .as_deref()
        .or(row.lang.as_deref())
        .map(|code| Lang::from_code(code).unwrap_or_default())
}

fn permanent(status: u16, why: String) -> Failure {
    Failure::Permanent {
        status,
        code: None,
        why,
    }
}

/// Whether the poster may take a row now: rows of an earlier process at once; a board or a
/// start of this process once the front noted it (or gave it up too long), other rows at once.
fn ready(service: &Service, row: &OutboxRow) -> bool {
    row.inherited
        || !matches!(row.kind, OutboxKind::Board | OutboxKind::Start)
        || service.outbox_has_note(row.game, row.ply)
        || service.outbox_held_too_long(row)
}

/// Sends the outbox's rows until the client that started it is gone (it holds only weak
/// handles). `bot` is the bot's own user (no ping when the engine is to act).
pub async fn run(http: Weak<Http>, service: Weak<Service>, i18n: Arc<I18n>, bot: Option<UserId>) {
    let client = match reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
    {
        Ok(c) => c,
        Err(e) => {
            warn!(%e, "the outbox's poster could not start");
            return;
        }
    };
    let mut global_until: Option<Instant> = None;
    let mut pruned = Instant::now();
    // Held until this returns: a stop waits for the round under way.
    let _running = match service.upgrade() {
        Some(service) => match service.outbox_poster_running().await {
            Some(running) => running,
            None => return,
        },
        None => return,
    };
    loop {
        let (Some(http), Some(service)) = (http.upgrade(), service.upgrade()) else {
            return;
        };
        if service.outbox_poster_stopping() {
            return;
        }
        let poster = Poster {
            http,
            service,
            i18n: Arc::clone(&i18n),
            client: client.clone(),
            bot,
        };
        if let Some(until) = global_until.take() {
            let now = Instant::now();
            if until > now {
                tokio::select! {
                    () = tokio::time::sleep(until - now) => {}
                    () = poster.service.outbox_poster_stop_asked() => return,
                }
            }
        }
        let (until, progressed) = round(&poster).await;
        global_until = until;
        if pruned.elapsed() > PRUNE_EVERY {
            pruned = Instant::now();
            if let Err(e) = poster.service.outbox_prune().await {
                warn!(%e, "could not prune the outbox");
            }
        }
        if let Ok(n) = poster.service.outbox_pending().await {
            metrics::outbox_waiting(usize::try_from(n).unwrap_or(usize::MAX));
        }
        let service = Arc::clone(&poster.service);
        drop(poster);
        // A game's next row can go as soon as the one before it went.
        if progressed && global_until.is_none() {
            continue;
        }
        tokio::select! {
            () = service.outbox_woken() => {}
            () = service.outbox_poster_stop_asked() => {}
            () = tokio::time::sleep(IDLE) => {}
        }
    }
}

/// Marks the rows of a round sent. Should this fail (or the process die first), the rows are
/// sent again later: their nonces make Discord return the messages it already made.
async fn mark_sent(poster: &Poster, ids: &[i64]) {
    if let Err(e) = poster.service.outbox_sent_many(ids).await {
        warn!(%e, rows = ids.len(), "could not mark outbox rows sent");
    }
}

/// One pass over the games' first rows: the moment a global rate limit ends, if one began,
/// and whether any row ended.
async fn round(poster: &Poster) -> (Option<Instant>, bool) {
    let heads = match poster.service.outbox_heads(HEADS).await {
        Ok(h) => h,
        Err(e) => {
            warn!(%e, "could not read the outbox");
            return (None, false);
        }
    };
    let mut progressed = false;
    let mut sent = Vec::new();
    let mut oldest: Option<crate::service::Timestamp> = None;
    for (row, due) in heads {
        oldest = Some(oldest.map_or(row.created_at, |o| o.min(row.created_at)));
        if !due {
            continue;
        }
        let note = match poster.service.outbox_left_to_commit(&row) {
            // The next group commit of moves marks it sent.
            LeftToCommit::Waiting => continue,
            // None came in time: ended here, as any board the answer carried.
            LeftToCommit::TakenBack(message) => Some(OutboxNote {
                answered: Some(message),
                ..OutboxNote::default()
            }),
            LeftToCommit::No if !ready(&poster.service, &row) => continue,
            LeftToCommit::No => poster.service.outbox_take_note(row.game, row.ply),
        };
        match poster.handle(&row, note.clone()).await {
            // Marked together at the end of the round: one commit for all.
            Ok(OutboxEnd::Sent) => {
                progressed = true;
                metrics::outbox_sent("sent");
                sent.push(row.id);
            }
            Ok(end) => {
                progressed = true;
                metrics::outbox_sent(match end {
                    OutboxEnd::Sent => "sent",
                    OutboxEnd::Stale => "stale",
                    OutboxEnd::Failed => "failed",
                });
                if let Err(e) = poster.service.outbox_done(&row, end, None).await {
                    warn!(%e, game = row.game.0, "could not mark an outbox row done");
                }
            }
            Err(Failure::Permanent { status, why, .. }) => {
                progressed = true;
                metrics::outbox_sent("failed");
                warn!(game = row.game.0, ply = row.ply, status, %why, "gave up an outbox message");
                if let Err(e) = poster
                    .service
                    .outbox_done(&row, OutboxEnd::Failed, Some(&why))
                    .await
                {
                    warn!(%e, game = row.game.0, "could not mark an outbox row given up");
                }
            }
            Err(Failure::Retry {
                after,
                global,
                why,
                reason,
            }) => {
                metrics::outbox_retry(reason);
                // The note stays with the row for its next attempt.
                if let Some(n) = note {
                    poster.service.outbox_release(row.game, row.ply, n);
                }
                if let Err(e) = poster.service.outbox_retry_after(&row, after, &why).await {
                    warn!(%e, game = row.game.0, "could not put an outbox row off");
                }
                if global {
                    mark_sent(poster, &sent).await;
                    return (Some(Instant::now() + after), progressed);
                }
            }
        }
    }
    mark_sent(poster, &sent).await;
    if let Some(o) = oldest {
        let age = poster.service.now().0.saturating_sub(o.0);
        metrics::outbox_oldest_age(Duration::from_millis(u64::try_from(age).unwrap_or(0)));
    } else {
        metrics::outbox_oldest_age(Duration::ZERO);
    }
    (None, progressed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_limits_wait_what_discord_asks_and_server_errors_back_off() {
        let Failure::Retry { after, global, .. } =
            classify(429, None, Some(1.5), true, 0, String::new())
        else {
            panic!("a 429 is retried");
        };
        assert!(global);
        assert!(after >= Duration::from_millis(1500) && after < Duration::from_millis(1600));
        for (attempts, low) in [(0, 500), (1, 1000), (3, 4000), (30, 300_000)] {
            let Failure::Retry { after, global, .. } =
                classify(502, None, None, false, attempts, String::new())
            else {
                panic!("a 5xx is retried");
            };
            assert!(!global);
            let low = Duration::from_millis(low);
            assert!(
                after >= low && after <= low.mul_f64(1.25),
                "{attempts}: {after:?}"
            );
        }
        assert!(matches!(
            classify(0, None, None, false, 0, String::new()),
            Failure::Retry {
                reason: "no_answer",
                ..
            }
        ));
        for status in [400, 403, 404, 413] {
            assert!(matches!(
                classify(status, Some(50013), None, false, 0, String::new()),
                Failure::Permanent { .. }
            ));
        }
    }
}
