//! Failures that stop the bot for good, in one line for the operator: Discord refusing the
//! token (401 on `GET /gateway/bot`, asked for the recommended shard count) or the token or
//! the intents (gateway close codes 4004, 4013, 4014: serenity gives up and
//! `client.start()` returns, so the bot never loops reconnecting with a bad token), and a
//! database the bot cannot read at start (not a database, damaged, or written by a newer
//! release), which it leaves untouched, or cannot reach (a wrong URL, credentials the server
//! refuses, a database that does not exist, a server that is down).

use poise::serenity_prelude as serenity;
use serenity::GatewayError;
use thiserror::Error;

use crate::store::{StorageError, StorageErrorKind};

/// The database could not be opened at start.
#[derive(Debug, Error)]
#[error("the database {database} cannot be opened: {source}")]
pub struct DatabaseAtStart {
    /// The database URL with any password left out.
    pub database: String,
    /// Why.
    #[source]
    pub source: StorageError,
}

/// The one line (without the `error: ` prefix) saying why the bot stopped and what to do,
/// when `e` is a failure that no retry can mend; `None` for other failures.
pub fn fatal_line(e: &(dyn std::error::Error + 'static)) -> Option<String> {
    if let Some(serenity::Error::Gateway(gateway)) = e.downcast_ref::<serenity::Error>() {
        return gateway_line(gateway);
    }
    if let Some(refused) = e.downcast_ref::<super::shards::TokenRefused>() {
        return Some(refused.to_string());
    }
    let db = e.downcast_ref::<DatabaseAtStart>()?;
    let what = match db.source.kind {
        StorageErrorKind::Newer => format!(
            "the database {} was written by a newer release of gomoku-bot; it was left untouched: run that release, or restore a backup made by this one",
            db.database
        ),
        StorageErrorKind::Corrupt => format!(
            "the database {} cannot be read (not a database, or damaged: {}); it was left untouched: restore a backup or point DATABASE_URL elsewhere",
            db.database, db.source.detail
        ),
        StorageErrorKind::Config => format!(
            "the database {}: {}; check DATABASE_URL (or database.url); nothing was written",
            db.database, db.source.detail
        ),
        // At start, an unreachable database is a wrong URL or a server that is down: said
        // once, status 2, rather than a supervisor restarting into the same wall.
        StorageErrorKind::Unavailable => format!(
            "the database {} cannot be reached ({}): check DATABASE_URL (or database.url) and that the server is up; nothing was written",
            db.database, db.source.detail
        ),
        _ => return None,
    };
    Some(what)
}

fn gateway_line(e: &GatewayError) -> Option<String> {
    Some(
        match e {
            GatewayError::InvalidAuthentication => {
                "Discord refused the bot token (gateway close 4004, authentication failed): check DISCORD_TOKEN or discord.token"
            }
            GatewayError::InvalidGatewayIntents => {
                "Discord refused the gateway intents as invalid (gateway close 4013)"
            }
            GatewayError::DisallowedGatewayIntents => {
                "Discord refused the gateway intents (gateway close 4014, disallowed intents): allow them for this application in the Developer Portal"
            }
            _ => return None,
        }
        .to_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fatal_failures_have_a_line_and_passing_ones_none() {
        let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(serenity::Error::Gateway(
            GatewayError::InvalidAuthentication,
        ));
        assert!(fatal_line(boxed.as_ref()).is_some_and(|l| l.contains("4004")));
        let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(serenity::Error::Gateway(
            GatewayError::DisallowedGatewayIntents,
        ));
        assert!(fatal_line(boxed.as_ref()).is_some_and(|l| l.contains("4014")));
        let boxed: Box<dyn std::error::Error + Send + Sync> =
            Box::new(super::super::shards::TokenRefused);
        assert!(fatal_line(boxed.as_ref()).is_some_and(|l| l.contains("401")));
        let boxed: Box<dyn std::error::Error + Send + Sync> =
            Box::new(serenity::Error::Gateway(GatewayError::NoSessionId));
        assert_eq!(fatal_line(boxed.as_ref()), None);
        for (kind, fatal) in [
            (StorageErrorKind::Newer, true),
            (StorageErrorKind::Corrupt, true),
            (StorageErrorKind::Busy, false),
            (StorageErrorKind::Unavailable, true),
            (StorageErrorKind::Config, true),
            (StorageErrorKind::Full, false),
        ] {
            let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(DatabaseAtStart {
                database: "sqlite://bot.db".into(),
                source: StorageError {
                    kind,
                    detail: "x".into(),
                },
            });
            assert_eq!(fatal_line(boxed.as_ref()).is_some(), fatal, "{kind:?}");
        }
    }
}
