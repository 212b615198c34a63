//! Which gateway shards this process connects: the configured range, or every shard Discord
//! recommends (`GET /gateway/bot`) when none is configured.
//!
//! Several processes, each with its own range of one total, behave as one bot on one
//! PostgreSQL database: Discord sends each guild's events on shard `(guild_id >> 22) % total`
//! only, so each process answers the guilds of its own shards.

use std::ops::Range;

use poise::serenity_prelude as serenity;
use thiserror::Error;

pub use crate::config::shards::{ShardRange, Shards};

/// Discord refused the token when asked how many shards to run (401 on `GET /gateway/bot`):
/// no retry mends that, so the process stops with one line (see [`super::fatal`]).
#[derive(Debug, Error)]
#[error(
    "Discord refused the bot token (401 Unauthorized on GET /gateway/bot): check DISCORD_TOKEN or discord.token"
)]
pub struct TokenRefused;

/// The shards this process runs: `plan`'s range, or `0..N-1` of the `N` Discord recommends.
///
/// # Errors
/// [`TokenRefused`] for a refused token; serenity's error when Discord cannot be asked.
pub async fn resolve(plan: Shards, http: &serenity::Http) -> Result<ShardRange, super::Error> {
    match plan {
        Shards::Range(range) => Ok(range),
        Shards::Recommended => match http.get_bot_gateway().await {
            // Discord always recommends at least one; a zero would be nonsense to connect.
            Ok(gateway) => Ok(recommended(gateway.shards)),
            Err(serenity::Error::Http(e)) if e.status_code().map(|s| s.as_u16()) == Some(401) => {
                Err(Box::new(TokenRefused))
            }
            Err(e) => Err(Box::new(e)),
        },
    }
}

/// Every shard of a recommended total (at least one).
fn recommended(total: u32) -> ShardRange {
    let total = total.max(1);
    ShardRange {
        first: 0,
        last: total - 1,
        total,
    }
}

/// Connects `range`'s shards and runs until they stop (see `serenity::Client::start`).
///
/// # Errors
/// serenity's, as `Client::start`'s.
pub async fn start(client: &mut serenity::Client, range: ShardRange) -> serenity::Result<()> {
    client
        .start_shard_range(serenity_range(range), range.total)
        .await
}

/// The range as serenity 0.12 reads it: `start_shard_range(a..b, n)` connects shards `a`
/// through `b` *inclusive* (it hands `b` on as the last shard), so the end is our last shard,
/// not one past it.
fn serenity_range(range: ShardRange) -> Range<u32> {
    Range {
        start: range.first,
        end: range.last,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serenity_gets_the_last_shard_as_the_end_of_its_range() {
        let r = ShardRange {
            first: 2,
            last: 3,
            total: 8,
        };
        assert_eq!(serenity_range(r), 2..3);
        assert_eq!(recommended(0), recommended(1));
        assert_eq!(recommended(4).count(), 4);
    }
}
