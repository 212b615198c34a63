//! The deadline sweeper: checks the games' clocks at start-up and then periodically, wakes
//! the outbox's poster for the notices the sweep owed (their words are [`super::clocks`]'s),
//! and lets a loss on time end a tournament round.
//!
//! Apart from `clocks` because it calls `tournaments`, which itself uses `clocks` (the time
//! options of `/tournament`); only the setup in `mod.rs` starts it.

use std::sync::{Arc, Weak};

use poise::serenity_prelude as serenity;
use serenity::Http;
use tracing::warn;

use crate::i18n::I18n;
use crate::service::{ClockEvent, Service};

/// Handles one clock event: reminders, losses on time and vacation notices are owed through
/// the outbox, in the transaction that claimed them, and the poster sends them; failures are
/// logged.
fn post_event(service: &Service, event: &ClockEvent) {
    match event {
        ClockEvent::Reminder { .. }
        | ClockEvent::TimedOut { .. }
        | ClockEvent::VacationUsed { .. } => service.outbox_wake(),
        ClockEvent::Failed { game, error } => {
            warn!(%error, game = game.0, "a game's deadline could not be handled");
        }
    }
}

/// Checks deadlines at start-up and then every [`crate::service::ServiceConfig::clock_sweep_every`]:
/// reminders, vacation and losses on time, each posted in the game's thread.
///
/// It holds only weak handles, so it ends once the client that started it is gone.
pub async fn sweep_clocks(http: Weak<Http>, service: Weak<Service>, i18n: Arc<I18n>) {
    let Some(period) = service.upgrade().map(|s| s.config().clock_sweep_every) else {
        return;
    };
    let mut tick = tokio::time::interval(period.max(std::time::Duration::from_millis(10)));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        // The first tick completes at once: what ran out while the bot was down is handled
        // at start-up.
        tick.tick().await;
        let (Some(http), Some(service)) = (http.upgrade(), service.upgrade()) else {
            return;
        };
        match service.sweep_clocks().await {
            Ok(events) => {
                for event in &events {
                    post_event(&service, event);
                    // A loss on time can end a tournament round.
                    if let ClockEvent::TimedOut { game, .. } = event {
                        super::tournaments::after_game(
                            Arc::clone(&http),
                            Arc::clone(&service),
                            Arc::clone(&i18n),
                            game,
                        );
                    }
                }
            }
            Err(e) => warn!(%e, "deadline sweep failed"),
        }
    }
}
