//! The websocket half of the fake: HELLO, IDENTIFY, READY, heartbeats, and dispatches with
//! sequence numbers. Every dispatch is first parsed by serenity itself, because serenity drops a
//! payload it cannot parse without a word.

use std::collections::VecDeque;
use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use serenity::all::{
    Event, GatewayEvent, GuildChannel, GuildCreateEvent, Interaction, Message, Ready, ResumedEvent,
};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message as Frame;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::fixtures::{Fixture, Vars};
use super::state::{Out, PRIVATE_THREAD, PUBLIC_THREAD, Session, Shared, State};

/// Accepts gateway connections until the task is aborted.
pub(crate) async fn serve(listener: TcpListener, shared: Arc<Shared>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors or similar: give other tasks a turn instead of spinning.
            tokio::task::yield_now().await;
            continue;
        };
        tokio::spawn(connection(stream, Arc::clone(&shared)));
    }
}

/// Parses a dispatch the way serenity's shard does; `Err` carries serde's reason.
pub fn check_dispatch(event: &str, data: &Value) -> Result<Event, String> {
    let frame = json!({"op": 0, "s": 1, "t": event, "d": data});
    match serde_json::from_value::<GatewayEvent>(frame) {
        // A known event that fails to parse falls back to serde's untagged `Event::Unknown`,
        // which serenity then ignores: ask the specific type for the reason.
        Ok(GatewayEvent::Dispatch(_, Event::Unknown(_))) => Err(match parse_error(event, data) {
            Some(reason) => {
                format!("serenity cannot parse this {event} and would drop it: {reason}")
            }
            None => format!("serenity does not know the event {event}"),
        }),
        Ok(GatewayEvent::Dispatch(_, parsed)) => Ok(parsed),
        Ok(other) => Err(format!("parsed as {other:?}, not a dispatch")),
        Err(e) => Err(format!("serenity would drop this {event}: {e}")),
    }
}

/// Why `data` does not parse as the type serenity expects for `event`, for the events a bot
/// test sends; `None` for other events.
fn parse_error(event: &str, data: &Value) -> Option<String> {
    fn reason<T: serde::de::DeserializeOwned>(data: &Value) -> String {
        match serde_json::from_value::<T>(data.clone()) {
            Ok(_) => "it parses alone but not as a dispatch".to_owned(),
            Err(e) => e.to_string(),
        }
    }
    Some(match event {
        "INTERACTION_CREATE" => reason::<Interaction>(data),
        "GUILD_CREATE" => reason::<GuildCreateEvent>(data),
        "READY" => reason::<Ready>(data),
        "MESSAGE_CREATE" => reason::<Message>(data),
        "THREAD_CREATE" => reason::<GuildChannel>(data),
        "RESUMED" => reason::<ResumedEvent>(data),
        _ => return None,
    })
}

/// Sends a dispatch on shard `shard`'s session with the next sequence number; a payload
/// serenity would drop is recorded as the fake's own error.
pub(crate) fn enqueue(st: &mut State, shard: u64, event: &str, data: Value) -> Option<u64> {
    if let Err(reason) = check_dispatch(event, &data) {
        st.harness_errors.push(reason);
    }
    enqueue_on(st, shard, event, &data)
}

/// The shard a dispatch goes on: its guild's (`(guild_id >> 22) % total`, as Discord sends a
/// guild's events on that shard only); shard 0 for a dispatch of no guild.
pub(crate) fn shard_for(st: &State, data: &Value) -> u64 {
    data.get("guild_id")
        .and_then(Value::as_str)
        .and_then(|g| g.parse::<u64>().ok())
        .map_or(0, |g| st.gateway.shard_of(g))
}

/// Sends a dispatch that [`check_dispatch`] has already accepted (parsing is the costly part)
/// on the session of its guild's shard. With no live connection on that shard it goes to the
/// shard's resumable session when the test asked for that
/// ([`super::FakeDiscord::queue_while_away`]), to be replayed on RESUME; else `None` (the
/// caller waits for the shard to connect).
pub(crate) fn enqueue_checked(st: &mut State, event: &str, data: &Value) -> Option<u64> {
    let shard = shard_for(st, data);
    enqueue_on(st, shard, event, data)
}

fn enqueue_on(st: &mut State, shard: u64, event: &str, data: &Value) -> Option<u64> {
    let queue_while_away = st.gateway.queue_while_away;
    let (session, live) = match st.gateway.live.get_mut(&shard) {
        Some(live) => (live, true),
        None if queue_while_away => (st.gateway.resumable.get_mut(&shard)?, false),
        None => return None,
    };
    session.seq += 1;
    let seq = session.seq;
    let frame = json!({"op": 0, "s": seq, "t": event, "d": data}).to_string();
    session.unacked.push_back((seq, frame.clone()));
    if live && session.tx.send(Out::Frame(frame)).is_err() && !queue_while_away {
        // The connection is going away: let the caller wait for the next session.
        session.unacked.pop_back();
        session.seq -= 1;
        return None;
    }
    Some(seq)
}

/// The reason Discord gives with a gateway close code.
pub fn close_reason(code: u16) -> &'static str {
    match code {
        4000 => "Unknown error.",
        4001 => "Unknown opcode.",
        4002 => "Error while decoding payload.",
        4003 => "Not authenticated.",
        4004 => "Authentication failed.",
        4005 => "Already authenticated.",
        4007 => "Invalid seq.",
        4008 => "Rate limited.",
        4009 => "Session timed out.",
        4010 => "Invalid shard.",
        4011 => "Sharding required.",
        4012 => "Invalid API version.",
        4013 => "Invalid intent(s).",
        4014 => "Disallowed intent(s).",
        _ => "",
    }
}

/// Whether Discord's session survives a close with `code` (the client may RESUME it).
/// 4007 (invalid seq) and 4009 (session timed out) end it, as do the codes after which
/// Discord says not to reconnect at all.
pub fn close_keeps_session(code: u16) -> bool {
    matches!(code, 1001 | 4000 | 4001 | 4002 | 4003 | 4005 | 4008)
}

async fn connection(stream: TcpStream, shared: Arc<Shared>) {
    // A dispatch must not wait for the client's delayed ACK of the previous frame (Nagle's
    // algorithm would hold it up to 40 ms; Discord's gateway sends at once).
    let _ = stream.set_nodelay(true);
    let Ok(socket) = tokio_tungstenite::accept_async(stream).await else {
        return;
    };
    let (mut sink, mut source) = socket.split();
    // A held gateway accepts the websocket but says nothing until it opens.
    let mut open = shared.gateway_open.subscribe();
    if open.wait_for(|o| *o).await.is_err() {
        return;
    }
    let (tx, mut rx) = mpsc::unbounded_channel::<Out>();
    let connection = {
        let mut st = shared.lock();
        st.gateway.connections += 1;
        st.gateway.connections
    };
    let hello = json!({"op": 10, "s": null, "t": null, "d": {"heartbeat_interval": shared.config.heartbeat_interval_ms}});
    if sink.send(Frame::Text(hello.to_string())).await.is_err() {
        return;
    }
    // The close code the fake ended this connection with, if it did.
    let mut closed_with = None;
    loop {
        tokio::select! {
            outgoing = rx.recv() => {
                match outgoing {
                    None => break,
                    Some(Out::Frame(text)) => {
                        if sink.send(Frame::Text(text)).await.is_err() {
                            break;
                        }
                    }
                    Some(Out::Close(code, reason)) => {
                        let close = CloseFrame { code: CloseCode::from(code), reason: reason.into() };
                        let _ = sink.send(Frame::Close(Some(close))).await;
                        closed_with = Some(code);
                        break;
                    }
                }
            }
            incoming = source.next() => {
                let text = match incoming {
                    Some(Ok(Frame::Text(text))) => text,
                    Some(Ok(Frame::Close(_)) | Err(_)) | None => break,
                    Some(Ok(_)) => continue,
                };
                let Ok(frame) = serde_json::from_str::<Value>(&text) else {
                    let close = CloseFrame { code: CloseCode::Library(4002), reason: "Error while decoding payload.".into() };
                    let _ = sink.send(Frame::Close(Some(close))).await;
                    closed_with = Some(4002);
                    break;
                };
                match frame["op"].as_u64() {
                    Some(1) => heartbeat(&shared, &frame, &tx, connection),
                    Some(2) => match identify(&shared, &frame, tx.clone(), connection) {
                        Ok(_) => {}
                        Err((code, reason)) => {
                            let close = CloseFrame { code: CloseCode::from(code), reason: reason.into() };
                            let _ = sink.send(Frame::Close(Some(close))).await;
                            closed_with = Some(code);
                            break;
                        }
                    },
                    Some(6) => {
                        if !resume(&shared, frame, tx.clone(), connection) {
                            // Not resumable: tell the client to identify afresh.
                            let invalid = json!({"op": 9, "s": null, "t": null, "d": false});
                            let _ = tx.send(Out::Frame(invalid.to_string()));
                        }
                    }
                    _ => shared.lock().gateway.received.push(frame),
                }
            }
        }
    }
    let mut st = shared.lock();
    let shard = st
        .gateway
        .live
        .iter()
        .find(|(_, s)| s.connection == connection)
        .map(|(shard, _)| *shard);
    if let Some(mut left) = shard.and_then(|shard| st.gateway.live.remove(&shard)) {
        if let Some(code) = closed_with {
            left.invalidated |= !close_keeps_session(code);
        }
        st.gateway.resumable.insert(left.shard[0], left);
    }
    drop(st);
    shared.bump();
}

/// Acknowledges a heartbeat (unless this connection is a zombie) and forgets the dispatches
/// up to the sequence number it carries: the client has them.
fn heartbeat(shared: &Shared, frame: &Value, tx: &mpsc::UnboundedSender<Out>, connection: u64) {
    let mut st = shared.lock();
    st.gateway.heartbeats.push(connection);
    let session = st
        .gateway
        .live
        .values_mut()
        .find(|s| s.connection == connection);
    if let (Some(session), Some(seen)) = (session, frame["d"].as_u64()) {
        while session.unacked.front().is_some_and(|(s, _)| *s <= seen) {
            session.unacked.pop_front();
        }
    }
    let silent = st.gateway.silent_connection == Some(connection);
    drop(st);
    if !silent {
        let ack = json!({"op": 11, "s": null, "t": null, "d": null});
        let _ = tx.send(Out::Frame(ack.to_string()));
    }
    shared.bump();
}

/// Takes up the session a RESUME names on this connection, replays the dispatches after the
/// sequence number the client names, and says RESUMED, when resumes are accepted and it is
/// the last session (live on a connection the client is leaving, or closed) and was not
/// invalidated; else `false`.
fn resume(shared: &Shared, frame: Value, tx: mpsc::UnboundedSender<Out>, connection: u64) -> bool {
    let mut st = shared.lock();
    let asked = frame["d"]["session_id"].as_str().map(str::to_owned);
    let seen = frame["d"]["seq"].as_u64().unwrap_or(0);
    st.gateway.received.push(frame);
    if !st.gateway.accept_resumes {
        return false;
    }
    let named = |s: &Session| !s.invalidated && asked == Some(format!("fake-session-{}", s.number));
    let live = st
        .gateway
        .live
        .iter()
        .find(|(_, s)| named(s))
        .map(|(shard, _)| *shard);
    let left = st
        .gateway
        .resumable
        .iter()
        .find(|(_, s)| named(s))
        .map(|(shard, _)| *shard);
    let session = match (live, left) {
        (Some(shard), _) => st.gateway.live.remove(&shard),
        (None, Some(shard)) => st.gateway.resumable.remove(&shard),
        (None, None) => None,
    };
    let Some(mut session) = session else {
        return false;
    };
    let shard = session.shard[0];
    st.gateway.resumable.remove(&shard);
    st.gateway.resumes += 1;
    for (seq, text) in &session.unacked {
        if *seq > seen {
            let _ = tx.send(Out::Frame(text.clone()));
            st.gateway.replayed += 1;
        }
    }
    session.tx = tx;
    session.connection = connection;
    st.gateway.live.insert(shard, session);
    enqueue(&mut st, shard, "RESUMED", json!({}));
    drop(st);
    shared.bump();
    true
}

/// Checks the token, makes this connection the current session, sends READY and GUILD_CREATE.
fn identify(
    shared: &Shared,
    frame: &Value,
    tx: mpsc::UnboundedSender<Out>,
    connection: u64,
) -> Result<u64, (u16, String)> {
    let token = frame["d"]["token"].as_str().unwrap_or_default();
    let accepted =
        token == shared.token || token.strip_prefix("Bot ") == Some(shared.token.as_str());
    let mut redacted = frame.clone();
    redacted["d"]["token"] = json!("<redacted>");
    // `[shard_id, shard_total]`; a client that does not shard sends none (shard 0 of 1).
    let shard = match frame["d"].get("shard") {
        None | Some(Value::Null) => Some([0, 1]),
        Some(v) => match (v[0].as_u64(), v[1].as_u64(), v.as_array().map(Vec::len)) {
            (Some(id), Some(total), Some(2)) if id < total => Some([id, total]),
            _ => None,
        },
    };
    let mut st = shared.lock();
    st.gateway.identifies.push(redacted);
    let totals_differ =
        shard.is_some_and(|[_, total]| st.gateway.live.values().any(|s| s.shard[1] != total));
    let refused = if !accepted {
        Some((4004, close_reason(4004).to_owned()))
    } else if shard.is_none() || totals_differ {
        // Discord refuses a shard id not below the total; the fake also refuses a total other
        // than the live shards' (one bot, one total).
        Some((4010, close_reason(4010).to_owned()))
    } else {
        st.gateway.refuse_identify.take()
    };
    if let Some(refused) = refused {
        drop(st);
        shared.bump();
        return Err(refused);
    }
    let [shard_id, shard_total] = shard.unwrap_or([0, 1]);
    st.gateway.sessions_started += 1;
    let number = st.gateway.sessions_started;
    // A new session of this shard: its last one can no longer be resumed.
    st.gateway.resumable.remove(&shard_id);
    st.gateway.live.insert(
        shard_id,
        Session {
            number,
            shard: [shard_id, shard_total],
            seq: 0,
            tx,
            connection,
            unacked: VecDeque::new(),
            invalidated: false,
        },
    );
    // This shard's guilds only.
    let guilds: Vec<u64> = std::iter::once(shared.guild_id)
        .chain(st.other_guilds.keys().copied())
        .filter(|g| (g >> 22) % shard_total == shard_id)
        .collect();
    let unavailable: Vec<Value> = guilds
        .iter()
        .map(|g| json!({"id": g.to_string(), "unavailable": true}))
        .collect();
    let ready = Fixture::Ready.fill(
        &Vars::new()
            .set("bot_user_id", shared.bot_user_id.to_string())
            .set("bot_username", shared.bot_username.clone())
            .set("unavailable_guilds", json!(unavailable))
            .set("session_id", format!("fake-session-{number}"))
            .set("resume_gateway_url", shared.gateway_url.clone())
            .set("application_id", shared.application_id.to_string()),
    );
    match ready {
        Ok(mut ready) => {
            ready["shard"] = json!([shard_id, shard_total]);
            enqueue(&mut st, shard_id, "READY", ready);
        }
        Err(e) => st.harness_errors.push(e.to_string()),
    }
    if shared.config.send_guild_create {
        for guild in guilds {
            match guild_create(shared, &st, guild) {
                Ok(payload) => {
                    enqueue(&mut st, shard_id, "GUILD_CREATE", payload);
                }
                Err(e) => st.harness_errors.push(e.to_string()),
            }
        }
    }
    drop(st);
    shared.bump();
    Ok(number)
}

/// The GUILD_CREATE payload of a guild (the test guild or another) as it is now.
pub(crate) fn guild_create(
    shared: &Shared,
    st: &State,
    guild: u64,
) -> Result<Value, super::fixtures::FixtureError> {
    let is_thread = |c: &&Value| c["type"] == PUBLIC_THREAD || c["type"] == PRIVATE_THREAD;
    let in_guild = |c: &&Value| super::state::snowflake_of(&c["guild_id"]) == Some(guild);
    let channels: Vec<Value> = st
        .channels
        .values()
        .filter(in_guild)
        .filter(|c| !is_thread(c))
        .cloned()
        .collect();
    let threads: Vec<Value> = st
        .channels
        .values()
        .filter(in_guild)
        .filter(is_thread)
        .cloned()
        .collect();
    let name = st
        .other_guilds
        .get(&guild)
        .cloned()
        .unwrap_or_else(|| shared.config.guild_name.clone());
    let system_channel = st
        .first_channel_of(guild)
        .unwrap_or(shared.default_channel_id);
    // @everyone's id is its guild's.
    let mut everyone = shared.everyone_role_json();
    everyone["id"] = json!(guild.to_string());
    let mut members = vec![shared.bot_member_json()];
    members.extend(st.users.values().map(|u| u.member_json(&shared.joined_at)));
    Fixture::GuildCreate.fill(
        &Vars::new()
            .set("guild_id", guild.to_string())
            .set("guild_name", name)
            .set("owner_id", shared.owner_id.to_string())
            .set("roles", json!([everyone]))
            .set("system_channel_id", system_channel.to_string())
            .set("preferred_locale", shared.config.guild_locale.clone())
            .set("joined_at", shared.joined_at.clone())
            .set("member_count", members.len())
            .set("members", members)
            .set("channels", channels)
            .set("threads", threads),
    )
}
