//! The websocket half of the fake: HELLO, IDENTIFY, READY, heartbeats, and dispatches with
//! sequence numbers. Every dispatch is first parsed by serenity itself, because serenity drops a
//! payload it cannot parse without a word.

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
use super::state::{PRIVATE_THREAD, PUBLIC_THREAD, Session, Shared, State};

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

/// Sends a dispatch on the current session with the next sequence number; a payload serenity
/// would drop is recorded as the fake's own error.
pub(crate) fn enqueue(st: &mut State, event: &str, data: Value) -> Option<u64> {
    if let Err(reason) = check_dispatch(event, &data) {
        st.harness_errors.push(reason);
    }
    enqueue_checked(st, event, &data)
}

/// Sends a dispatch that [`check_dispatch`] has already accepted (parsing is the costly part).
pub(crate) fn enqueue_checked(st: &mut State, event: &str, data: &Value) -> Option<u64> {
    let session = st.gateway.current.as_mut()?;
    session.seq += 1;
    let frame = json!({"op": 0, "s": session.seq, "t": event, "d": data});
    session.tx.send(frame.to_string()).ok()?;
    Some(session.seq)
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
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let connection = {
        let mut st = shared.lock();
        st.gateway.connections += 1;
        st.gateway.connections
    };
    let hello = json!({"op": 10, "s": null, "t": null, "d": {"heartbeat_interval": shared.config.heartbeat_interval_ms}});
    if sink.send(Frame::Text(hello.to_string())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            outgoing = rx.recv() => {
                let Some(text) = outgoing else { break };
                if sink.send(Frame::Text(text)).await.is_err() {
                    break;
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
                    break;
                };
                match frame["op"].as_u64() {
                    Some(1) => {
                        let ack = json!({"op": 11, "s": null, "t": null, "d": null});
                        let _ = tx.send(ack.to_string());
                    }
                    Some(2) => match identify(&shared, &frame, tx.clone(), connection) {
                        Some(_) => {}
                        None => {
                            let close = CloseFrame { code: CloseCode::Library(4004), reason: "Authentication failed.".into() };
                            let _ = sink.send(Frame::Close(Some(close))).await;
                            break;
                        }
                    },
                    Some(6) => {
                        if !resume(&shared, frame, tx.clone(), connection) {
                            // Not resumable: tell the client to identify afresh.
                            let invalid = json!({"op": 9, "s": null, "t": null, "d": false});
                            let _ = tx.send(invalid.to_string());
                        }
                    }
                    _ => shared.lock().gateway.received.push(frame),
                }
            }
        }
    }
    let mut st = shared.lock();
    if st
        .gateway
        .current
        .as_ref()
        .is_some_and(|s| s.connection == connection)
    {
        st.gateway.resumable = st.gateway.current.take().map(|s| (s.number, s.seq));
    }
    drop(st);
    shared.bump();
}

/// Takes up the session a RESUME names on this connection, and says RESUMED, when resumes are
/// accepted and it is the last session (live on a connection the client is leaving, or
/// closed); else `false`.
fn resume(
    shared: &Shared,
    frame: Value,
    tx: mpsc::UnboundedSender<String>,
    connection: u64,
) -> bool {
    let mut st = shared.lock();
    let asked = frame["d"]["session_id"].as_str().map(str::to_owned);
    st.gateway.received.push(frame);
    if !st.gateway.accept_resumes {
        return false;
    }
    let last = match &st.gateway.current {
        Some(s) => Some((s.number, s.seq)),
        None => st.gateway.resumable,
    };
    let Some((number, seq)) = last.filter(|(n, _)| asked == Some(format!("fake-session-{n}")))
    else {
        return false;
    };
    st.gateway.resumable = None;
    st.gateway.resumes += 1;
    st.gateway.current = Some(Session {
        number,
        seq,
        tx,
        connection,
    });
    enqueue(&mut st, "RESUMED", json!({}));
    drop(st);
    shared.bump();
    true
}

/// Checks the token, makes this connection the current session, sends READY and GUILD_CREATE.
fn identify(
    shared: &Shared,
    frame: &Value,
    tx: mpsc::UnboundedSender<String>,
    connection: u64,
) -> Option<u64> {
    let token = frame["d"]["token"].as_str().unwrap_or_default();
    let accepted =
        token == shared.token || token.strip_prefix("Bot ") == Some(shared.token.as_str());
    let mut redacted = frame.clone();
    redacted["d"]["token"] = json!("<redacted>");
    let mut st = shared.lock();
    st.gateway.identifies.push(redacted);
    if !accepted {
        drop(st);
        shared.bump();
        return None;
    }
    st.gateway.sessions_started += 1;
    let number = st.gateway.sessions_started;
    st.gateway.current = Some(Session {
        number,
        seq: 0,
        tx,
        connection,
    });
    let ready = Fixture::Ready.fill(
        &Vars::new()
            .set("bot_user_id", shared.bot_user_id.to_string())
            .set("bot_username", shared.bot_username.clone())
            .set(
                "unavailable_guilds",
                json!([{"id": shared.guild_id.to_string(), "unavailable": true}]),
            )
            .set("session_id", format!("fake-session-{number}"))
            .set("resume_gateway_url", shared.gateway_url.clone())
            .set("application_id", shared.application_id.to_string()),
    );
    match ready {
        Ok(ready) => {
            enqueue(&mut st, "READY", ready);
        }
        Err(e) => st.harness_errors.push(e.to_string()),
    }
    if shared.config.send_guild_create {
        match guild_create(shared, &st) {
            Ok(guild) => {
                enqueue(&mut st, "GUILD_CREATE", guild);
            }
            Err(e) => st.harness_errors.push(e.to_string()),
        }
    }
    drop(st);
    shared.bump();
    Some(number)
}

/// The GUILD_CREATE payload of the test guild as it is now.
pub(crate) fn guild_create(
    shared: &Shared,
    st: &State,
) -> Result<Value, super::fixtures::FixtureError> {
    let is_thread = |c: &&Value| c["type"] == PUBLIC_THREAD || c["type"] == PRIVATE_THREAD;
    let channels: Vec<Value> = st
        .channels
        .values()
        .filter(|c| !is_thread(c))
        .cloned()
        .collect();
    let threads: Vec<Value> = st.channels.values().filter(is_thread).cloned().collect();
    let mut members = vec![shared.bot_member_json()];
    members.extend(st.users.values().map(|u| u.member_json(&shared.joined_at)));
    Fixture::GuildCreate.fill(
        &Vars::new()
            .set("guild_id", shared.guild_id.to_string())
            .set("guild_name", shared.config.guild_name.clone())
            .set("owner_id", shared.owner_id.to_string())
            .set("roles", json!([shared.everyone_role_json()]))
            .set("system_channel_id", shared.default_channel_id.to_string())
            .set("preferred_locale", shared.config.guild_locale.clone())
            .set("joined_at", shared.joined_at.clone())
            .set("member_count", members.len())
            .set("members", members)
            .set("channels", channels)
            .set("threads", threads),
    )
}
