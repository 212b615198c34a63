//! Telling the other processes on a PostgreSQL database what a commit changed, so that they
//! drop what they hold in memory about it at once (PostgreSQL `LISTEN`/`NOTIFY`).
//!
//! Each process keeps loaded games and a memo of settings in memory. Another process's commit
//! never makes a process act on a stale copy (a move is appended at the ply its player saw,
//! and the move log's key `(game_id, ply)` refuses it otherwise; settings are kept seconds),
//! but a stale copy costs a refused action and a reload, or shows old settings for a while.
//! So each commit that changes a game or someone's settings also sends a notice naming them
//! (`pg_notify`, inside the commit's transaction where there is one: PostgreSQL delivers it
//! only once the transaction commits, and never if it rolls back), and each process listens
//! ([`Store::listen_changes`]) and forgets what the notices name.
//!
//! - One notice per transaction (a batch of moves sends one for all its games), to keep the
//!   commit path as short as it was: one more statement per batch.
//! - A notice names the process that sent it, which ignores its own (it keeps its memory up
//!   to date itself).
//! - Notices are not kept while a listener is disconnected: after a reconnection the
//!   listener reports [`Heard::Lost`], and everything held is dropped.
//! - The channel is named after the store's schema, so that stores in different schemas of
//!   one database (the test suites' way) do not hear each other.
//! - SQLite runs in one process: nothing is sent, nobody listens.

use std::time::Duration;

use rand::Rng as _;
use sqlx::Row as _;
use sqlx::postgres::PgListener;
use tokio::sync::mpsc;

use super::{GameId, GuildId, StorageError, Store, Tx, UserId};

/// What a commit changed, as far as other processes' memory goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// These games: their rows, seats or move logs.
    Games(Vec<GameId>),
    /// A guild's settings.
    Guild(GuildId),
    /// A user's preferences.
    User(UserId),
}

/// What a listener heard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// Another process committed this change.
    Changed(Change),
    /// The listener was disconnected (it has reconnected since): changes made meanwhile
    /// were not heard, so anything held may be stale.
    Lost,
}

/// Where a PostgreSQL store's notices go, and this store's name in them.
#[derive(Debug)]
pub(crate) struct Notices {
    /// The database URL, for the listener's own connection.
    url: String,
    /// The channel: `gomoku_changes` and the schema.
    channel: String,
    /// This store's mark (random), so that it can ignore its own notices.
    origin: String,
}

/// PostgreSQL's longest identifier, in bytes (a channel is one).
const MAX_IDENTIFIER: usize = 63;

/// A payload holds at most 8,000 bytes: longer lists of games go in several notices.
const MAX_PAYLOAD: usize = 7_000;

impl Notices {
    /// The notices of a store on `url`, whose connections use `schema`.
    pub(crate) fn new(url: &str, schema: &str) -> Notices {
        let mut channel = format!("gomoku_changes_{schema}");
        while channel.len() > MAX_IDENTIFIER {
            channel.pop();
        }
        Notices {
            url: url.to_string(),
            channel,
            origin: format!("{:016x}", rand::rng().random::<u64>()),
        }
    }

    /// The channel the notices go to.
    pub(super) fn channel(&self) -> &str {
        &self.channel
    }

    /// The payloads telling `change` (several when a long list of games does not fit one).
    pub(super) fn payloads(&self, change: &Change) -> Vec<String> {
        let (kind, ids): (&str, Vec<i64>) = match change {
            Change::Games(games) => ("g", games.iter().map(|g| g.0).collect()),
            Change::Guild(guild) => ("s", vec![guild.to_db()]),
            Change::User(user) => ("p", vec![user.to_db()]),
        };
        let prefix = format!("{} {kind} ", self.origin);
        let mut out = Vec::new();
        let mut payload = String::new();
        for id in ids {
            if payload.len() > MAX_PAYLOAD {
                out.push(std::mem::take(&mut payload));
            }
            if payload.is_empty() {
                payload.push_str(&prefix);
            } else {
                payload.push(',');
            }
            payload.push_str(&id.to_string());
        }
        if !payload.is_empty() {
            out.push(payload);
        }
        out
    }

    /// What a payload tells, unless this store sent it or it cannot be read.
    fn heard(&self, payload: &str) -> Option<Change> {
        let mut parts = payload.splitn(3, ' ');
        let (origin, kind, ids) = (parts.next()?, parts.next()?, parts.next()?);
        if origin == self.origin {
            return None;
        }
        let ids: Vec<i64> = ids
            .split(',')
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        match (kind, ids.as_slice()) {
            ("g", _) => Some(Change::Games(ids.into_iter().map(GameId).collect())),
            ("s", [guild]) => Some(Change::Guild(GuildId::from_db(*guild))),
            ("p", [user]) => Some(Change::User(UserId::from_db(*user))),
            _ => None,
        }
    }
}

/// The statement sending one payload (counted, not selected: the Any driver has no type for
/// the function's `void`).
const NOTIFY: &str = "SELECT COUNT(*) FROM (SELECT pg_notify($1, $2)) AS sent";

/// Sends `change` on PostgreSQL inside the transaction `tx`: delivered at its commit, never if
/// it rolls back. Nothing on SQLite.
pub(crate) async fn notify_in(
    tx: &mut Tx,
    notices: Option<&Notices>,
    change: &Change,
) -> Result<(), sqlx::Error> {
    let Some(notices) = notices else {
        return Ok(());
    };
    for payload in notices.payloads(change) {
        notify_payload_in(tx, notices, &payload).await?;
    }
    Ok(())
}

/// Sends one payload of a change inside the transaction `tx` (see [`notify_in`]).
pub(crate) async fn notify_payload_in(
    tx: &mut Tx,
    notices: &Notices,
    payload: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(NOTIFY)
        .bind(&notices.channel)
        .bind(payload)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// How long a listener that lost the server waits before it tries again.
const RECONNECT_PAUSE: Duration = Duration::from_secs(1);

impl Store {
    /// The schema a PostgreSQL store's connections use (for its channel's name).
    pub(crate) async fn current_schema(pool: &sqlx::AnyPool) -> Result<String, StorageError> {
        let row = sqlx::query("SELECT CAST(current_schema() AS TEXT) AS schema")
            .fetch_one(pool)
            .await?;
        Ok(row.try_get("schema")?)
    }

    /// Sends `change` to the other processes on this database, now (for a write that
    /// committed on its own; a transaction sends it inside with [`notify_in`]). A notice that
    /// cannot be sent is only logged: the write it tells of is done, and the others find the
    /// change anyway (a refused move reloads the game, settings are kept seconds).
    pub(crate) async fn notify_now(&self, change: &Change) {
        let Some(notices) = self.notices.as_deref() else {
            return;
        };
        for payload in notices.payloads(change) {
            let sent = sqlx::query(NOTIFY)
                .bind(&notices.channel)
                .bind(payload)
                .execute(&self.writer)
                .await;
            if let Err(e) = sent {
                tracing::warn!(%e, ?change, "could not tell the other processes of a change");
            }
        }
    }

    /// On PostgreSQL, listens for the other processes' changes on a connection of its own
    /// and hands them over in order, reconnecting (and reporting [`Heard::Lost`]) when the
    /// connection drops; `None` on SQLite, where there are no other processes. The listener
    /// stops when the receiver is dropped.
    ///
    /// # Errors
    /// [`StorageError`] when the first connection cannot listen.
    pub async fn listen_changes(&self) -> Result<Option<mpsc::Receiver<Heard>>, StorageError> {
        let Some(notices) = self.notices.clone() else {
            return Ok(None);
        };
        let mut listener = listen(&notices).await?;
        let (send, receive) = mpsc::channel(1024);
        tokio::spawn(async move {
            loop {
                let heard = tokio::select! {
                    () = send.closed() => return,
                    heard = listener.try_recv() => heard,
                };
                let heard = match heard {
                    Ok(Some(notice)) => match notices.heard(notice.payload()) {
                        Some(change) => Heard::Changed(change),
                        None => continue,
                    },
                    // Reconnected already (sqlx's eager reconnection), but deaf meanwhile.
                    Ok(None) => Heard::Lost,
                    Err(e) => {
                        tracing::warn!(%e, "the listener for other processes' changes failed");
                        listener = loop {
                            tokio::select! {
                                () = send.closed() => return,
                                () = tokio::time::sleep(RECONNECT_PAUSE) => {}
                            }
                            match listen(&notices).await {
                                Ok(l) => break l,
                                Err(e) => tracing::warn!(%e, "cannot listen again yet"),
                            }
                        };
                        Heard::Lost
                    }
                };
                if send.send(heard).await.is_err() {
                    return;
                }
            }
        });
        Ok(Some(receive))
    }
}

/// A listener on its own connection, listening.
async fn listen(notices: &Notices) -> Result<PgListener, StorageError> {
    let mut listener = PgListener::connect(&notices.url).await?;
    listener.listen(&notices.channel).await?;
    Ok(listener)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_hears_others_and_not_itself() {
        let (one, two) = (Notices::new("u", "s"), Notices::new("u", "s"));
        for change in [
            Change::Games(vec![GameId(3), GameId(41)]),
            Change::Guild(GuildId(7)),
            Change::User(UserId(9)),
        ] {
            let payloads = one.payloads(&change);
            assert_eq!(payloads.len(), 1);
            assert_eq!(two.heard(&payloads[0]), Some(change));
            assert_eq!(one.heard(&payloads[0]), None);
        }
        assert_eq!(two.heard("x g 1,a"), None);
        assert_eq!(two.heard("x s 1,2"), None);
        assert_eq!(two.heard("garbage"), None);
    }

    #[test]
    fn long_lists_of_games_are_split_and_channels_fit_an_identifier() {
        let (one, two) = (Notices::new("u", "s"), Notices::new("u", &"x".repeat(100)));
        assert_eq!(two.channel.len(), MAX_IDENTIFIER);
        let games: Vec<GameId> = (1_000_000_000..1_000_002_000).map(GameId).collect();
        let payloads = one.payloads(&Change::Games(games.clone()));
        assert!(payloads.len() > 1);
        assert!(payloads.iter().all(|p| p.len() < 8_000));
        let heard: Vec<GameId> = payloads
            .iter()
            .flat_map(|p| match two.heard(p) {
                Some(Change::Games(g)) => g,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(heard, games);
    }
}
