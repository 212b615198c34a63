//! Operating the bot on Discord (issue 17): every interaction counted and timed, interactions
//! answered "restarting" while the bot drains for a shutdown, and the readiness probe (the
//! database answers, every shard of this process is connected).

use std::sync::Arc;
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use serenity::{
    CreateAutocompleteResponse, CreateInteractionResponse, CreateInteractionResponseMessage,
    FullEvent, Interaction, ShardManager,
};
use tracing::{debug, warn};

use super::rest::{Op, counted};
use super::{Data, Error};
use crate::ops::metrics::{self, Outcome};
use crate::ops::server::Probe;
use crate::ops::shutdown::Drain;
use crate::service::{Service, UserId};

/// poise's framework with the interactions counted, timed, and refused while draining.
pub struct Instrumented {
    inner: poise::Framework<Data, Error>,
    drain: Arc<Drain>,
    /// Shards that have had a session: a later READY is a reconnect.
    identified: std::sync::Mutex<std::collections::BTreeSet<u32>>,
}

impl Instrumented {
    /// Wraps `inner`; `drain` tells when to stop taking interactions.
    pub fn new(inner: poise::Framework<Data, Error>, drain: Arc<Drain>) -> Instrumented {
        Instrumented {
            inner,
            drain,
            identified: std::sync::Mutex::default(),
        }
    }
}

/// The `kind` and `name` labels of an interaction; `None` for pings.
///
/// Names are bounded: a command's top-level name (Discord only sends registered commands),
/// a component's first two `custom_id` segments when they are short lower-case words (Discord
/// only sends the ids of components the bot made), else `other`.
pub fn labels(interaction: &Interaction) -> Option<(&'static str, String)> {
    let word = |s: &str| {
        !s.is_empty() && s.len() <= 12 && s.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
    };
    let component = |id: &str| {
        let mut parts = id.split(':');
        match (parts.next(), parts.next()) {
            (Some(a), Some(b)) if word(a) && word(b) => format!("{a}:{b}"),
            (Some(a), _) if word(a) => a.to_string(),
            _ => "other".to_string(),
        }
    };
    let command = |name: &str| {
        if word(name) {
            name.to_string()
        } else {
            "other".to_string()
        }
    };
    match interaction {
        Interaction::Ping(_) => None,
        Interaction::Command(c) => Some(("command", command(&c.data.name))),
        Interaction::Autocomplete(c) => Some(("autocomplete", command(&c.data.name))),
        Interaction::Component(c) => Some(("component", component(&c.data.custom_id))),
        Interaction::Modal(m) => Some(("modal", component(&m.data.custom_id))),
        _ => Some(("other", "other".to_string())),
    }
}

#[serenity::async_trait]
impl serenity::Framework for Instrumented {
    async fn init(&mut self, client: &serenity::Client) {
        self.inner.init(client).await;
    }

    async fn dispatch(&self, ctx: serenity::Context, event: FullEvent) {
        let interaction = match &event {
            FullEvent::Ready { .. } => {
                metrics::gateway_session("identify");
                let first = self
                    .identified
                    .lock()
                    .is_ok_and(|mut shards| shards.insert(ctx.shard_id.0));
                if !first {
                    metrics::gateway_reconnect();
                }
                None
            }
            FullEvent::Resume { .. } => {
                metrics::gateway_session("resume");
                metrics::gateway_reconnect();
                None
            }
            FullEvent::InteractionCreate { interaction } => labels(interaction),
            _ => None,
        };
        let Some((kind, name)) = interaction else {
            return self.inner.dispatch(ctx, event).await;
        };
        let received = Instant::now();
        let Some(working) = self.drain.begin() else {
            let _answering = self.drain.begin_anyway();
            if let FullEvent::InteractionCreate { interaction } = &event {
                self.answer_restarting(&ctx, interaction).await;
            }
            metrics::interaction(kind, name, Outcome::Restarting, received.elapsed());
            return;
        };
        // A member waits for the answer: writes give up waiting for locks in time for
        // Discord's 3-second window (`store::interactive`).
        let handling = crate::store::interactive(self.inner.dispatch(ctx, event));
        let ((), outcome) = metrics::tracked(handling).await;
        metrics::interaction(kind, name, outcome, received.elapsed());
        drop(working);
    }
}

impl Instrumented {
    /// Tells the member, privately and in their language, that the bot is restarting.
    async fn answer_restarting(&self, ctx: &serenity::Context, interaction: &Interaction) {
        let data = self.inner.user_data().await;
        let (user, locale) = match interaction {
            Interaction::Command(c) | Interaction::Autocomplete(c) => (c.user.id, &c.locale),
            Interaction::Component(c) => (c.user.id, &c.locale),
            Interaction::Modal(m) => (m.user.id, &m.locale),
            _ => return,
        };
        let lang = data.private_lang(UserId(user.get()), locale).await;
        let message = CreateInteractionResponse::Message(
            CreateInteractionResponseMessage::new()
                .content(data.i18n.get(lang, "ops-restarting"))
                .ephemeral(true),
        );
        let answered = match interaction {
            Interaction::Command(c) => {
                counted(Op::Answer, c.create_response(&ctx.http, message)).await
            }
            Interaction::Component(c) => {
                counted(Op::Answer, c.create_response(&ctx.http, message)).await
            }
            Interaction::Modal(m) => {
                counted(Op::Answer, m.create_response(&ctx.http, message)).await
            }
            // No choices while restarting: the command itself will then say why.
            Interaction::Autocomplete(c) => {
                counted(
                    Op::Answer,
                    c.create_response(
                        &ctx.http,
                        CreateInteractionResponse::Autocomplete(CreateAutocompleteResponse::new()),
                    ),
                )
                .await
            }
            _ => return,
        };
        metrics::rest_request(
            super::rest::Op::Answer.name(),
            super::rest::status_of(&answered),
        );
        if let Err(e) = answered {
            debug!(%e, "could not answer an interaction while restarting");
        }
    }
}

/// Records a failed Discord REST call seen by a handler (its status; 0 when none came back).
pub fn count_rest_failure(error: &(dyn std::error::Error + 'static)) {
    if let Some(serenity::Error::Http(http)) = error.downcast_ref::<serenity::Error>() {
        let status = match http {
            serenity::HttpError::UnsuccessfulRequest(answer) => answer.status_code.as_u16(),
            serenity::HttpError::Request(e) => e.status().map_or(0, |s| s.as_u16()),
            _ => 0,
        };
        metrics::rest_failure(status);
    }
}

/// Reads the engine jobs nobody holds (whole database) into their gauge, at scrape time.
pub async fn refresh_engine_jobs(service: &Service) {
    match service.engine_jobs_waiting().await {
        Ok(n) => metrics::engine_jobs_waiting(usize::try_from(n).unwrap_or(usize::MAX)),
        Err(e) => debug!(%e, "could not count the engine jobs for the metrics"),
    }
}

/// The readiness probe and scrape-time gauges of one bot process.
pub struct BotProbe {
    service: Arc<Service>,
    shards: Arc<ShardManager>,
    expected_shards: u32,
    drain: Arc<Drain>,
}

impl BotProbe {
    /// The probe of a process that runs `expected_shards` shards through `shards`.
    pub fn new(
        service: Arc<Service>,
        shards: Arc<ShardManager>,
        expected_shards: u32,
        drain: Arc<Drain>,
    ) -> BotProbe {
        BotProbe {
            service,
            shards,
            expected_shards,
            drain,
        }
    }

    /// Connected shards, and each shard's last heartbeat round trip.
    async fn shard_states(&self) -> (usize, Vec<(u32, Option<Duration>)>) {
        let runners = self.shards.runners.lock().await;
        let connected = runners
            .values()
            .filter(|r| r.stage == serenity::ConnectionStage::Connected)
            .count();
        let latencies = runners.iter().map(|(id, r)| (id.0, r.latency)).collect();
        (connected, latencies)
    }
}

#[async_trait::async_trait]
impl Probe for BotProbe {
    async fn ready(&self) -> Result<(), String> {
        if self.drain.is_draining() {
            return Err("shutting down".into());
        }
        match tokio::time::timeout(Duration::from_secs(2), self.service.ping()).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                warn!(%e, "readiness: the database does not answer");
                return Err("the database does not answer".into());
            }
            Err(_) => return Err("the database did not answer within 2 s".into()),
        }
        let (connected, _) = self.shard_states().await;
        if connected < self.expected_shards as usize {
            return Err(format!(
                "{connected} of {} gateway shards connected",
                self.expected_shards
            ));
        }
        Ok(())
    }

    async fn refresh(&self) {
        match self.service.open_counts().await {
            Ok(c) => metrics::game_counts(c.active_games, c.overdue_games, c.open_challenges),
            Err(e) => debug!(%e, "could not count the open games for the metrics"),
        }
        refresh_engine_jobs(&self.service).await;
        let pools = self.service.pool_use();
        metrics::db_connections_in_use("writer", pools.writer);
        metrics::db_connections_in_use("reader", pools.reader);
        let (connected, latencies) = self.shard_states().await;
        metrics::gateway_shards(connected, &latencies);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interaction(v: serde_json::Value) -> Interaction {
        serde_json::from_value(v).expect("an interaction")
    }

    fn base(kind: u8, data: serde_json::Value) -> serde_json::Value {
        serde_json::json!({
            "id": "1", "application_id": "2", "type": kind, "token": "t", "version": 1,
            "channel_id": "3", "locale": "en-US", "entitlements": [],
            "attachment_size_limit": 8388608,
            "user": {"id": "4", "username": "u", "discriminator": "0", "avatar": null},
            "data": data,
            "message": {
                "id": "5", "channel_id": "3", "author": {"id": "2", "username": "bot",
                "discriminator": "0", "avatar": null}, "content": "", "timestamp":
                "2026-12-01T00:00:00+00:00", "tts": false, "mention_everyone": false,
                "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
                "pinned": false, "type": 0
            }
        })
    }

    #[test]
    fn labels_are_bounded_and_never_carry_ids() {
        let command = interaction(base(
            2,
            serde_json::json!({"id": "9", "name": "move", "type": 1}),
        ));
        assert_eq!(labels(&command), Some(("command", "move".to_string())));
        for (custom_id, expected) in [
            ("g:acc:123", "g:acc"),
            ("g:take:5:12:1", "g:take"),
            ("tour:join:77", "tour:join"),
            ("1234:5678", "other"),
            ("G:ACC:1", "other"),
            ("averyveryverylongprefix:x", "other"),
            ("plain", "plain"),
        ] {
            let click = interaction(base(
                3,
                serde_json::json!({"custom_id": custom_id, "component_type": 2}),
            ));
            assert_eq!(
                labels(&click),
                Some(("component", expected.to_string())),
                "{custom_id}"
            );
        }
    }
}
