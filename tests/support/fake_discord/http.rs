//! The REST half of the fake: Discord's API v10 routes a bot uses, with realistic answers
//! (messages with ids, channels, threads) and Discord's error shapes.

use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use serenity::all::Permissions;
use tokio::net::TcpListener;

use super::record::{Body, ErrorAnswer, Part, RecordedRequest, parse_multipart};
use super::state::{
    InteractionState, PRIVATE_THREAD, PUBLIC_THREAD, Recorded, Shared, State, now_iso8601,
    snowflake_of,
};

/// The fake's answer to one request.
pub(crate) struct Answer {
    status: u16,
    body: Option<Value>,
    known_route: bool,
    deliberate: bool,
}

impl Answer {
    fn json(body: Value) -> Self {
        Self {
            status: 200,
            body: Some(body),
            known_route: true,
            deliberate: false,
        }
    }

    fn created(body: Value) -> Self {
        Self {
            status: 201,
            ..Self::json(body)
        }
    }

    fn no_content() -> Self {
        Self {
            status: 204,
            body: None,
            known_route: true,
            deliberate: false,
        }
    }

    fn error(error: ErrorAnswer) -> Self {
        Self {
            status: error.status,
            body: Some(error.body),
            known_route: true,
            deliberate: false,
        }
    }

    fn deliberate(error: ErrorAnswer) -> Self {
        Self {
            deliberate: true,
            ..Self::error(error)
        }
    }

    fn unknown_route() -> Self {
        Self {
            status: 404,
            body: Some(json!({"code": 0, "message": "404: Not Found"})),
            known_route: false,
            deliberate: false,
        }
    }
}

type Routed = Result<Answer, Answer>;

/// Accepts HTTP connections until the task is aborted.
pub(crate) async fn serve(listener: TcpListener, shared: Arc<Shared>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors or similar: give other tasks a turn instead of spinning.
            tokio::task::yield_now().await;
            continue;
        };
        // Without this, Nagle's algorithm meets the client's delayed ACK and an answer written
        // in two pieces can wait 40 ms, a delay Discord does not have.
        let _ = stream.set_nodelay(true);
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                let shared = Arc::clone(&shared);
                async move { Ok::<_, Infallible>(handle(&shared, request).await) }
            });
            // A client that hangs up mid-request is not the test's concern.
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

async fn handle(shared: &Shared, request: Request<Incoming>) -> Response<Full<Bytes>> {
    let (parts, body) = request.into_parts();
    let bytes = body
        .collect()
        .await
        .map(|c| c.to_bytes())
        .unwrap_or_default();
    let expected_auth = format!("Bot {}", shared.token);
    let mut authorized = false;
    let mut headers = Vec::new();
    for (name, value) in &parts.headers {
        if name == hyper::header::AUTHORIZATION {
            // The token is compared here and never stored.
            authorized = value.as_bytes() == expected_auth.as_bytes();
            continue;
        }
        headers.push((
            name.as_str().to_owned(),
            value.to_str().unwrap_or("<not text>").to_owned(),
        ));
    }
    let content_type = parts
        .headers
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let full_path = parts.uri.path();
    let (path, versioned) = match full_path.strip_prefix("/api/v10") {
        Some(rest) => (if rest.is_empty() { "/" } else { rest }, true),
        None => (full_path, false),
    };
    let mut recorded = RecordedRequest {
        index: 0,
        method: parts.method.as_str().to_owned(),
        path: path.to_owned(),
        query: parts.uri.query().map(str::to_owned),
        headers,
        authorized,
        body: read_body(&content_type, &bytes),
        status: 0,
        response: None,
        known_route: versioned,
        deliberate_error: false,
        at: shared.started.elapsed(),
    };

    let answer = {
        let mut st = shared.lock();
        let answer = if !versioned {
            Answer::unknown_route()
        } else if !authorized && path != "/gateway" {
            // GET /gateway needs no token at Discord (a bad token is refused by the gateway,
            // with close code 4004).
            Answer::error(ErrorAnswer::new(401, 0, "401: Unauthorized"))
        } else if let Some((error, applied)) = take_failure(&mut st, &recorded) {
            if applied {
                // Done, and the answer lost: whatever it was is dropped.
                let _ = route(shared, &mut st, &recorded);
            }
            Answer::deliberate(error)
        } else {
            route(shared, &mut st, &recorded).unwrap_or_else(|e| e)
        };
        recorded.index = st.requests.len();
        recorded.status = answer.status;
        recorded.response = answer.body.clone();
        recorded.known_route &= answer.known_route;
        recorded.deliberate_error = answer.deliberate;
        // Subscribers that hung up are forgotten.
        st.taps.retain(|tap| tap.send(recorded.clone()).is_ok());
        st.requests.push(Recorded {
            request: recorded,
            consumed: false,
        });
        answer
    };
    shared.bump();

    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = match answer.body {
        Some(body) => {
            let mut r = Response::new(Full::new(Bytes::from(body.to_string())));
            r.headers_mut().insert(
                hyper::header::CONTENT_TYPE,
                hyper::header::HeaderValue::from_static("application/json"),
            );
            r
        }
        None => Response::new(Full::new(Bytes::new())),
    };
    *response.status_mut() = status;
    response
}

fn read_body(content_type: &str, bytes: &[u8]) -> Body {
    let mime = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if bytes.is_empty() {
        return Body::Empty;
    }
    match mime.as_str() {
        "application/json" => match serde_json::from_slice(bytes) {
            Ok(value) => Body::Json(value),
            Err(e) => Body::Unreadable {
                content_type: content_type.to_owned(),
                reason: e.to_string(),
            },
        },
        "multipart/form-data" => match parse_multipart(content_type, bytes) {
            Ok(parts) => {
                let payload_json = parts
                    .iter()
                    .find(|p| p.name == "payload_json")
                    .and_then(|p| serde_json::from_slice(&p.data).ok());
                Body::Multipart {
                    payload_json,
                    parts,
                }
            }
            Err(reason) => Body::Unreadable {
                content_type: content_type.to_owned(),
                reason,
            },
        },
        _ => Body::Unreadable {
            content_type: content_type.to_owned(),
            reason: "not JSON or multipart".to_owned(),
        },
    }
}

/// The failure rule for `request`, if one applies: its answer, and whether the request is
/// carried out first.
fn take_failure(st: &mut State, request: &RecordedRequest) -> Option<(ErrorAnswer, bool)> {
    let index = st
        .failures
        .iter()
        .position(|rule| rule.matcher.matches(request))?;
    let rule = &mut st.failures[index];
    let answer = (rule.answer.clone(), rule.applied);
    if let Some(remaining) = &mut rule.remaining {
        *remaining = remaining.saturating_sub(1);
        if *remaining == 0 {
            st.failures.remove(index);
        }
    }
    Some(answer)
}

fn snowflake(field: &str, text: &str) -> Result<u64, Answer> {
    text.parse().map_err(|_| {
        Answer::error(ErrorAnswer::invalid_field(
            field,
            "NUMBER_TYPE_COERCE",
            &format!("Value \"{text}\" is not snowflake."),
        ))
    })
}

fn route(shared: &Shared, st: &mut State, req: &RecordedRequest) -> Routed {
    let segments = req.segments();
    let method = req.method.as_str();
    match (method, segments.as_slice()) {
        ("GET", ["gateway"]) => Ok(Answer::json(json!({"url": shared.gateway_url}))),
        ("GET", ["gateway", "bot"]) => Ok(Answer::json(json!({
            "url": shared.gateway_url,
            "shards": shared.config.shards.max(1),
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1},
        }))),
        ("GET", ["oauth2", "applications", "@me"] | ["applications", "@me"]) => {
            Ok(Answer::json(shared.application_json(st)))
        }
        ("GET", ["users", "@me"]) => Ok(Answer::json(shared.current_user_json())),
        ("POST", ["users", "@me", "channels"]) => {
            // Opens (or reopens) a direct-message channel with a known user.
            let body = req.json_or_null();
            let recipient = body
                .get("recipient_id")
                .and_then(super::state::snowflake_of)
                .ok_or_else(|| {
                    Answer::error(ErrorAnswer::invalid_field(
                        "recipient_id",
                        "BASE_TYPE_REQUIRED",
                        "This field is required",
                    ))
                })?;
            let user = st
                .users
                .get(&recipient)
                .ok_or_else(|| Answer::error(ErrorAnswer::new(404, 10013, "Unknown User")))?
                .user_json();
            let existing = st
                .channels
                .iter()
                .find(|(_, c)| c["type"] == 1 && c["recipients"][0]["id"] == user["id"]);
            if let Some((_, channel)) = existing {
                return Ok(Answer::json(channel.clone()));
            }
            let id = shared.next_id();
            let channel = json!({
                "id": id.to_string(),
                "type": 1,
                "last_message_id": null,
                "recipients": [user],
                "flags": 0,
            });
            st.channels.insert(id, channel.clone());
            Ok(Answer::json(channel))
        }
        ("GET", ["users", user]) => {
            let id = snowflake("user_id", user)?;
            if id == shared.bot_user_id {
                return Ok(Answer::json(shared.bot_user_json()));
            }
            let user = st
                .users
                .get(&id)
                .ok_or_else(|| Answer::error(ErrorAnswer::new(404, 10013, "Unknown User")))?;
            Ok(Answer::json(user.user_json()))
        }
        (
            _,
            ["applications", app, "commands", ..]
            | ["applications", app, "guilds", _, "commands", ..],
        ) => {
            check_application(shared, app)?;
            commands(shared, st, req, &segments)
        }
        ("POST", ["interactions", id, token, "callback"]) => {
            interaction_callback(shared, st, req, id, token)
        }
        (_, ["webhooks", app, token, ..]) => {
            check_application(shared, app)
                .map_err(|_| Answer::error(ErrorAnswer::new(404, 10015, "Unknown Webhook")))?;
            webhook(shared, st, req, token, &segments[3..])
        }
        (_, ["channels", channel, rest @ ..]) => {
            let channel_id = snowflake("channel_id", channel)?;
            if !st.channels.contains_key(&channel_id) {
                return Err(Answer::error(ErrorAnswer::unknown_channel()));
            }
            channels(shared, st, req, channel_id, rest)
        }
        (_, ["guilds", guild, rest @ ..]) => {
            let guild = snowflake("guild_id", guild)?;
            if guild != shared.guild_id && !st.other_guilds.contains_key(&guild) {
                return Err(Answer::error(ErrorAnswer::new(404, 10004, "Unknown Guild")));
            }
            guilds(shared, st, method, guild, rest)
        }
        _ => Err(Answer::unknown_route()),
    }
}

fn check_application(shared: &Shared, app: &str) -> Result<(), Answer> {
    if snowflake("application_id", app)? == shared.application_id {
        Ok(())
    } else {
        Err(Answer::error(ErrorAnswer::new(
            403,
            50001,
            "Missing Access",
        )))
    }
}

fn commands(shared: &Shared, st: &mut State, req: &RecordedRequest, segments: &[&str]) -> Routed {
    let guild = match segments {
        ["applications", _, "guilds", guild, ..] => {
            let id = snowflake("guild_id", guild)?;
            if id != shared.guild_id && !st.other_guilds.contains_key(&id) {
                return Err(Answer::error(ErrorAnswer::new(
                    403,
                    50001,
                    "Missing Access",
                )));
            }
            Some(id)
        }
        _ => None,
    };
    let tail = if guild.is_some() {
        &segments[5..]
    } else {
        &segments[3..]
    };
    let existing = match guild {
        Some(g) => st.guild_commands.get(&g).cloned().unwrap_or_default(),
        None => st.global_commands.clone(),
    };
    match (req.method.as_str(), tail) {
        ("GET", []) => Ok(Answer::json(Value::Array(existing))),
        ("PUT", []) => {
            let Some(Value::Array(bodies)) = req.json() else {
                return Err(Answer::error(ErrorAnswer::invalid_field(
                    "_",
                    "ARRAY_TYPE_CONVERT",
                    "Only iterables may be used in a ListType.",
                )));
            };
            if let Some(error) = bodies
                .iter()
                .enumerate()
                .find_map(|(i, b)| check_command(b, &i.to_string()))
            {
                return Err(Answer::error(error));
            }
            let registered: Vec<Value> = bodies
                .iter()
                .map(|b| registered_command(shared, b, guild, &existing))
                .collect();
            store_commands(st, guild, registered.clone());
            Ok(Answer::json(Value::Array(registered)))
        }
        ("POST", []) => {
            let body = req.json().cloned().unwrap_or(Value::Null);
            if let Some(error) = check_command(&body, "") {
                return Err(Answer::error(error));
            }
            let command = registered_command(shared, &body, guild, &existing);
            let mut all: Vec<Value> = existing
                .into_iter()
                .filter(|c| c["name"] != command["name"])
                .collect();
            all.push(command.clone());
            store_commands(st, guild, all);
            Ok(Answer::created(command))
        }
        ("GET", [id]) => existing
            .into_iter()
            .find(|c| c["id"] == *id)
            .map(Answer::json)
            .ok_or_else(|| {
                Answer::error(ErrorAnswer::new(404, 10063, "Unknown application command"))
            }),
        ("DELETE", [id]) => {
            let kept: Vec<Value> = existing
                .iter()
                .filter(|c| c["id"] != *id)
                .cloned()
                .collect();
            if kept.len() == existing.len() {
                return Err(Answer::error(ErrorAnswer::new(
                    404,
                    10063,
                    "Unknown application command",
                )));
            }
            store_commands(st, guild, kept);
            Ok(Answer::no_content())
        }
        _ => Err(Answer::unknown_route()),
    }
}

fn store_commands(st: &mut State, guild: Option<u64>, commands: Vec<Value>) {
    match guild {
        Some(g) => {
            st.guild_commands.insert(g, commands);
        }
        None => st.global_commands = commands,
    }
}

/// Discord's rules for chat-input commands that its API description does not state: names (and
/// their localisations) match `^[-_'\p{L}\p{N}]{1,32}$` in lower case, descriptions have 1-100
/// characters, required options come first, at most 25 options and 25 choices each, and at most
/// 4000 characters in all.
fn check_command(command: &Value, at: &str) -> Option<ErrorAnswer> {
    if command["type"].as_u64().unwrap_or(1) != 1 {
        return None;
    }
    let mut total = 0;
    check_named(command, at, &mut total).or_else(|| {
        (total > 4000).then(|| {
            let message = "Command exceeds maximum size (4000)";
            if at.is_empty() {
                ErrorAnswer::new(400, 50035, message)
            } else {
                ErrorAnswer::invalid_field(at, "APPLICATION_COMMAND_TOO_LARGE", message)
            }
        })
    })
}

/// Checks the name, description and options of a command or option, adding to `total`.
fn check_named(item: &Value, at: &str, total: &mut usize) -> Option<ErrorAnswer> {
    let field = |rest: &str| {
        if at.is_empty() {
            rest.to_owned()
        } else {
            format!("{at}.{rest}")
        }
    };
    let name = item["name"].as_str().unwrap_or_default();
    let names = std::iter::once(name.to_owned()).chain(
        item["name_localizations"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(_, v)| v.as_str().map(str::to_owned)),
    );
    for candidate in names {
        if !valid_command_name(&candidate) {
            return Some(ErrorAnswer::invalid_field(
                &field("name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                &format!("Command name is invalid: {candidate:?}"),
            ));
        }
    }
    let description = item["description"].as_str().unwrap_or_default();
    let descriptions = std::iter::once(description.to_owned()).chain(
        item["description_localizations"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(_, v)| v.as_str().map(str::to_owned)),
    );
    for candidate in descriptions {
        let length = candidate.chars().count();
        if !(1..=100).contains(&length) {
            return Some(ErrorAnswer::invalid_field(
                &field("description"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            ));
        }
    }
    *total += name.chars().count() + description.chars().count();
    let options = item["options"].as_array().cloned().unwrap_or_default();
    if options.len() > 25 {
        return Some(ErrorAnswer::invalid_field(
            &field("options"),
            "BASE_TYPE_MAX_LENGTH",
            "Must be 25 or fewer in length.",
        ));
    }
    let mut optional_seen = false;
    for (i, option) in options.iter().enumerate() {
        let option_field = field(&format!("options.{i}"));
        let required = option["required"] == true;
        if required && optional_seen {
            return Some(ErrorAnswer::invalid_field(
                &option_field,
                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                "Required options must be placed before non-required options",
            ));
        }
        optional_seen |= !required;
        let choices = option["choices"].as_array().cloned().unwrap_or_default();
        if choices.len() > 25 {
            return Some(ErrorAnswer::invalid_field(
                &format!("{option_field}.choices"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 25 or fewer in length.",
            ));
        }
        for choice in &choices {
            *total += choice["name"].as_str().map_or(0, |n| n.chars().count());
            *total += choice["value"].as_str().map_or(0, |v| v.chars().count());
        }
        if let Some(error) = check_named(option, &option_field, total) {
            return Some(error);
        }
    }
    None
}

fn valid_command_name(name: &str) -> bool {
    let length = name.chars().count();
    (1..=32).contains(&length)
        && name.chars().all(|c| {
            (c.is_alphanumeric() || c == '-' || c == '_' || c == '\'')
                && c.to_lowercase().eq(std::iter::once(c))
        })
}

/// Discord's answer for one registered command: the request plus ids, keeping a command's id
/// across re-registrations as Discord does.
fn registered_command(
    shared: &Shared,
    body: &Value,
    guild: Option<u64>,
    existing: &[Value],
) -> Value {
    let mut command = body.as_object().cloned().unwrap_or_default();
    let kind = command.get("type").and_then(Value::as_u64).unwrap_or(1);
    let id = existing
        .iter()
        .find(|c| {
            c["name"] == command.get("name").cloned().unwrap_or_default() && c["type"] == kind
        })
        .and_then(|c| c["id"].as_str().map(str::to_owned))
        .unwrap_or_else(|| shared.next_id().to_string());
    command.insert("id".to_owned(), json!(id));
    command.insert("type".to_owned(), json!(kind));
    command.insert(
        "application_id".to_owned(),
        json!(shared.application_id.to_string()),
    );
    command.insert("version".to_owned(), json!(shared.next_id().to_string()));
    if let Some(g) = guild {
        command.insert("guild_id".to_owned(), json!(g.to_string()));
    }
    command.entry("description").or_insert(json!(""));
    // Discord answers without the options' null fields, and with permissions as a string.
    let mut options = command
        .get("options")
        .cloned()
        .filter(Value::is_array)
        .unwrap_or(json!([]));
    drop_nulls(&mut options);
    command.insert("options".to_owned(), options);
    let permissions = match command.get("default_member_permissions") {
        Some(Value::Number(n)) => json!(n.to_string()),
        Some(Value::String(s)) => json!(s),
        _ => Value::Null,
    };
    command.insert("default_member_permissions".to_owned(), permissions);
    command.entry("nsfw").or_insert(json!(false));
    command.entry("dm_permission").or_insert(json!(true));
    command.entry("integration_types").or_insert(json!([0]));
    command.entry("contexts").or_insert(Value::Null);
    Value::Object(command)
}

fn drop_nulls(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(drop_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}

/// The JSON payload and files of a message-carrying request.
fn payload_and_files(req: &RecordedRequest) -> (Value, Vec<Part>) {
    match &req.body {
        Body::Json(v) => (v.clone(), Vec::new()),
        Body::Multipart {
            payload_json,
            parts,
        } => (
            payload_json.clone().unwrap_or_else(|| json!({})),
            parts
                .iter()
                .filter(|p| p.file_index().is_some())
                .cloned()
                .collect(),
        ),
        Body::Empty | Body::Unreadable { .. } => (json!({}), Vec::new()),
    }
}

fn interaction_callback(
    shared: &Shared,
    st: &mut State,
    req: &RecordedRequest,
    id: &str,
    token: &str,
) -> Routed {
    let id = snowflake("interaction_id", id)?;
    let Some(interaction) = st
        .interactions
        .get(&id)
        .filter(|i| i.token == token)
        .cloned()
    else {
        return Err(Answer::error(ErrorAnswer::unknown_interaction()));
    };
    if interaction.acknowledged.is_some() {
        return Err(Answer::error(ErrorAnswer::already_acknowledged()));
    }
    if shared
        .config
        .interaction_deadline
        .is_some_and(|limit| interaction.sent_at.elapsed() > limit)
    {
        return Err(Answer::error(ErrorAnswer::unknown_interaction()));
    }
    let (payload, files) = payload_and_files(req);
    let kind = payload["type"].as_u64().unwrap_or(0);
    let data = payload
        .get("data")
        .cloned()
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}));
    let wrong_type = || {
        Answer::error(ErrorAnswer::invalid_field(
            "type",
            "INTERACTION_TYPE_INVALID",
            "Invalid interaction response type for this interaction.",
        ))
    };
    let mut original = None;
    let mut choices = None;
    match kind {
        4 | 5 => {
            let mut data = data;
            if kind == 5 {
                // A deferred answer shows "thinking..." until the original is edited.
                let flags = data["flags"].as_u64().unwrap_or(0) | 128;
                data = json!({"flags": flags});
            }
            let message_kind = if interaction.kind == 2 { 20 } else { 0 };
            let message = new_message(
                shared,
                st,
                interaction.channel_id,
                &data,
                &files,
                message_kind,
                Some(&interaction),
                kind == 4,
            )?;
            original = Some(store_message(st, message));
        }
        6 | 7 => {
            let Some(message_id) = interaction.message_id else {
                return Err(wrong_type());
            };
            if kind == 7 {
                let mut message = st
                    .messages
                    .get(&message_id)
                    .cloned()
                    .ok_or_else(|| Answer::error(ErrorAnswer::unknown_message()))?;
                edit_message(shared, &mut message, &data, &files)?;
                st.messages.insert(message_id, message);
            }
            original = Some(message_id);
        }
        8 => {
            if interaction.kind != 4 {
                return Err(wrong_type());
            }
            choices = Some(data.get("choices").cloned().unwrap_or(json!([])));
        }
        9 => {
            if interaction.kind == 4 {
                return Err(wrong_type());
            }
        }
        _ => return Err(wrong_type()),
    }
    if let Some(state) = st.interactions.get_mut(&id) {
        state.acknowledged = Some(kind);
        state.original = original;
        state.autocomplete_choices = choices;
    }
    Ok(Answer::no_content())
}

fn webhook(
    shared: &Shared,
    st: &mut State,
    req: &RecordedRequest,
    token: &str,
    tail: &[&str],
) -> Routed {
    let unknown_webhook = || Answer::error(ErrorAnswer::new(404, 10015, "Unknown Webhook"));
    let interaction = st
        .interaction_by_token(token)
        .cloned()
        .ok_or_else(unknown_webhook)?;
    if interaction.acknowledged.is_none() {
        return Err(unknown_webhook());
    }
    let message_id = match tail {
        [] if req.method == "POST" => {
            let (payload, files) = payload_and_files(req);
            let message = new_message(
                shared,
                st,
                interaction.channel_id,
                &payload,
                &files,
                0,
                Some(&interaction),
                true,
            )?;
            let id = store_message(st, message.clone());
            if let Some(state) = st.interactions.get_mut(&interaction.id) {
                state.followups.push(id);
            }
            return Ok(Answer::json(message));
        }
        ["messages", "@original"] => interaction
            .original
            .ok_or_else(|| Answer::error(ErrorAnswer::unknown_message()))?,
        ["messages", id] => {
            let id = snowflake("message_id", id)?;
            if interaction.original != Some(id) && !interaction.followups.contains(&id) {
                return Err(Answer::error(ErrorAnswer::unknown_message()));
            }
            id
        }
        _ => return Err(Answer::unknown_route()),
    };
    let mut message = st
        .messages
        .get(&message_id)
        .cloned()
        .ok_or_else(|| Answer::error(ErrorAnswer::unknown_message()))?;
    match req.method.as_str() {
        "GET" => Ok(Answer::json(message)),
        "PATCH" => {
            let (payload, files) = payload_and_files(req);
            edit_message(shared, &mut message, &payload, &files)?;
            st.messages.insert(message_id, message.clone());
            Ok(Answer::json(message))
        }
        "DELETE" => {
            st.messages.remove(&message_id);
            Ok(Answer::no_content())
        }
        _ => Err(Answer::unknown_route()),
    }
}

fn require(
    shared: &Shared,
    st: &State,
    channel_id: u64,
    needed: Permissions,
) -> Result<(), Answer> {
    let have = st.app_permissions(channel_id, shared.config.app_permissions);
    if !have.contains(Permissions::VIEW_CHANNEL) {
        return Err(Answer::deliberate(ErrorAnswer::missing_access()));
    }
    if !have.contains(needed) {
        return Err(Answer::deliberate(ErrorAnswer::missing_permissions()));
    }
    Ok(())
}

fn channels(
    shared: &Shared,
    st: &mut State,
    req: &RecordedRequest,
    channel_id: u64,
    rest: &[&str],
) -> Routed {
    match (req.method.as_str(), rest) {
        ("GET", []) => Ok(Answer::json(st.channels[&channel_id].clone())),
        ("POST", ["messages"]) => {
            let (payload, files) = payload_and_files(req);
            let mut needed = if st.is_thread(channel_id) {
                Permissions::SEND_MESSAGES_IN_THREADS
            } else {
                Permissions::SEND_MESSAGES
            };
            if !files.is_empty() {
                needed |= Permissions::ATTACH_FILES;
            }
            require(shared, st, channel_id, needed)?;
            // Discord's de-duplication: the same nonce from the same author (only the bot
            // posts here) within a few minutes returns the message already made.
            let nonce = match &payload["nonce"] {
                Value::String(s) => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            };
            let enforced = payload["enforce_nonce"].as_bool() == Some(true);
            if let Some(nonce) = nonce.as_ref().filter(|_| enforced) {
                if nonce.len() > 25 {
                    return Err(Answer::error(ErrorAnswer::invalid_field(
                        "nonce",
                        "BASE_TYPE_MAX_LENGTH",
                        "Must be 25 or fewer in length.",
                    )));
                }
                if let Some((id, at)) = st.nonces.get(nonce)
                    && at.elapsed() < shared.config.nonce_window
                    && let Some(existing) = st.messages.get(id)
                {
                    return Ok(Answer::json(existing.clone()));
                }
            }
            let kind = if payload.get("message_reference").is_some() {
                19
            } else {
                0
            };
            let mut message =
                new_message(shared, st, channel_id, &payload, &files, kind, None, true)?;
            if let Some(nonce) = &nonce {
                message["nonce"] = json!(nonce);
            }
            let id = store_message(st, message.clone());
            if let Some(nonce) = nonce.filter(|_| enforced) {
                st.nonces.insert(nonce, (id, std::time::Instant::now()));
            }
            Ok(Answer::json(message))
        }
        (method, ["messages", id]) => {
            let id = snowflake("message_id", id)?;
            let mut message = st
                .messages
                .get(&id)
                .filter(|m| snowflake_of(&m["channel_id"]) == Some(channel_id))
                .cloned()
                .ok_or_else(|| Answer::error(ErrorAnswer::unknown_message()))?;
            match method {
                "GET" => {
                    require(shared, st, channel_id, Permissions::READ_MESSAGE_HISTORY)?;
                    Ok(Answer::json(message))
                }
                "PATCH" => {
                    if snowflake_of(&message["author"]["id"]) != Some(shared.bot_user_id) {
                        return Err(Answer::error(ErrorAnswer::new(
                            403,
                            50005,
                            "Cannot edit a message authored by another user",
                        )));
                    }
                    let (payload, files) = payload_and_files(req);
                    edit_message(shared, &mut message, &payload, &files)?;
                    st.messages.insert(id, message.clone());
                    Ok(Answer::json(message))
                }
                "DELETE" => {
                    st.messages.remove(&id);
                    Ok(Answer::no_content())
                }
                _ => Err(Answer::unknown_route()),
            }
        }
        ("POST", ["messages", id, "threads"]) => {
            let id = snowflake("message_id", id)?;
            let in_channel = st.messages.get(&id).map(|m| snowflake_of(&m["channel_id"]));
            if in_channel != Some(Some(channel_id)) {
                return Err(Answer::error(ErrorAnswer::unknown_message()));
            }
            if st.is_thread(channel_id) {
                return Err(Answer::error(ErrorAnswer::new(
                    400,
                    50024,
                    "Cannot execute action on this channel type",
                )));
            }
            require(shared, st, channel_id, Permissions::CREATE_PUBLIC_THREADS)?;
            if st.channels.contains_key(&id) {
                return Err(Answer::error(ErrorAnswer::new(
                    400,
                    160004,
                    "A thread has already been created for this message",
                )));
            }
            let body = req.json().cloned().unwrap_or(Value::Null);
            let thread = new_thread(shared, st, id, channel_id, PUBLIC_THREAD, &body)?;
            if let Some(message) = st.messages.get_mut(&id) {
                message["thread"] = thread.clone();
                message["flags"] = json!(message["flags"].as_u64().unwrap_or(0) | 32);
            }
            Ok(Answer::created(thread))
        }
        ("POST", ["threads"]) => {
            if st.is_thread(channel_id) {
                return Err(Answer::error(ErrorAnswer::new(
                    400,
                    50024,
                    "Cannot execute action on this channel type",
                )));
            }
            let body = req.json().cloned().unwrap_or(Value::Null);
            let kind = body["type"].as_u64().unwrap_or(PRIVATE_THREAD);
            let needed = if kind == PRIVATE_THREAD {
                Permissions::CREATE_PRIVATE_THREADS
            } else {
                Permissions::CREATE_PUBLIC_THREADS
            };
            require(shared, st, channel_id, needed)?;
            let id = shared.next_id();
            let thread = new_thread(shared, st, id, channel_id, kind, &body)?;
            Ok(Answer::created(thread))
        }
        ("PUT" | "DELETE", ["thread-members", user]) => {
            if !st.is_thread(channel_id) {
                return Err(Answer::error(ErrorAnswer::new(
                    400,
                    50024,
                    "Cannot execute action on this channel type",
                )));
            }
            if *user != "@me" {
                let id = snowflake("user_id", user)?;
                if !st.users.contains_key(&id) && id != shared.bot_user_id {
                    return Err(Answer::error(ErrorAnswer::new(404, 10013, "Unknown User")));
                }
            }
            Ok(Answer::no_content())
        }
        _ => Err(Answer::unknown_route()),
    }
}

fn new_thread(
    shared: &Shared,
    st: &mut State,
    id: u64,
    parent: u64,
    kind: u64,
    body: &Value,
) -> Result<Value, Answer> {
    let name = body["name"].as_str().unwrap_or_default();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(Answer::error(ErrorAnswer::invalid_field(
            "name",
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 100 in length.",
        )));
    }
    let archive = body["auto_archive_duration"].as_u64().unwrap_or(4320);
    let mut thread = shared.thread_json(id, parent, kind, name, archive);
    // A thread lives in its parent's guild.
    if let Some(guild) = st.guild_of_channel(parent) {
        thread["guild_id"] = json!(guild.to_string());
    }
    st.channels.insert(id, thread.clone());
    Ok(thread)
}

fn guilds(shared: &Shared, st: &State, method: &str, guild: u64, rest: &[&str]) -> Routed {
    let in_guild = |c: &&Value| super::state::snowflake_of(&c["guild_id"]) == Some(guild);
    match (method, rest) {
        ("GET", []) => Ok(Answer::json(shared.guild_json(st, guild))),
        ("GET", ["channels"]) => Ok(Answer::json(Value::Array(
            st.channels
                .values()
                .filter(in_guild)
                .filter(|c| c["type"] != PUBLIC_THREAD && c["type"] != PRIVATE_THREAD)
                .cloned()
                .collect(),
        ))),
        ("GET", ["members", user]) => {
            let id = snowflake("user_id", user)?;
            if id == shared.bot_user_id {
                return Ok(Answer::json(shared.bot_member_json()));
            }
            let user = st
                .users
                .get(&id)
                .ok_or_else(|| Answer::error(ErrorAnswer::new(404, 10007, "Unknown Member")))?;
            Ok(Answer::json(user.member_json(&shared.joined_at)))
        }
        ("GET", ["threads", "active"]) => Ok(Answer::json(json!({
            "threads": st.channels.values().filter(in_guild).filter(|c| c["type"] == PUBLIC_THREAD || c["type"] == PRIVATE_THREAD).cloned().collect::<Vec<_>>(),
            "members": [],
        }))),
        _ => Err(Answer::unknown_route()),
    }
}

fn store_message(st: &mut State, message: Value) -> u64 {
    let id = message["id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let channel = message["channel_id"]
        .as_str()
        .and_then(|s| s.parse::<u64>().ok());
    if let Some(channel) = channel.and_then(|c| st.channels.get_mut(&c)) {
        channel["last_message_id"] = json!(id.to_string());
    }
    st.messages.insert(id, message);
    id
}

fn check_content(payload: &Value) -> Result<(), Answer> {
    if payload["content"]
        .as_str()
        .is_some_and(|c| c.chars().count() > 2000)
    {
        return Err(Answer::error(ErrorAnswer::invalid_field(
            "content",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 2000 or fewer in length.",
        )));
    }
    Ok(())
}

fn check_files(shared: &Shared, files: &[Part]) -> Result<(), Answer> {
    if files
        .iter()
        .any(|f| f.data.len() as u64 > shared.config.attachment_size_limit)
    {
        return Err(Answer::error(ErrorAnswer::new(
            413,
            40005,
            "Request entity too large",
        )));
    }
    Ok(())
}

/// A new message as Discord would return it. `check_empty` is off for a deferred answer's
/// placeholder, which Discord creates without content.
#[allow(clippy::too_many_arguments)]
fn new_message(
    shared: &Shared,
    st: &State,
    channel_id: u64,
    payload: &Value,
    files: &[Part],
    kind: u64,
    interaction: Option<&InteractionState>,
    check_empty: bool,
) -> Result<Value, Answer> {
    check_content(payload)?;
    check_files(shared, files)?;
    let id = shared.next_id();
    let attachments = attachments(shared, channel_id, payload, files, &[])?;
    let content = payload["content"].as_str().unwrap_or_default();
    let embeds = embeds(payload);
    let components = payload
        .get("components")
        .cloned()
        .filter(Value::is_array)
        .unwrap_or(json!([]));
    let empty = content.is_empty()
        && attachments.is_empty()
        && embeds.as_array().is_none_or(Vec::is_empty)
        && components.as_array().is_none_or(Vec::is_empty)
        && payload["sticker_ids"].as_array().is_none_or(Vec::is_empty)
        && payload["poll"].is_null();
    if check_empty && empty {
        return Err(Answer::error(ErrorAnswer::new(
            400,
            50006,
            "Cannot send an empty message",
        )));
    }
    let mut message = json!({
        "id": id.to_string(),
        "channel_id": channel_id.to_string(),
        "author": shared.bot_user_json(),
        "content": content,
        "timestamp": now_iso8601(),
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": mentions(shared, st, content),
        "mention_roles": [],
        "attachments": attachments,
        "embeds": embeds,
        "pinned": false,
        "type": kind,
        "flags": payload["flags"].as_u64().unwrap_or(0),
        "components": components,
    });
    if let Some(reference) = payload.get("message_reference").filter(|r| r.is_object()) {
        message["message_reference"] = reference.clone();
    }
    if let Some(interaction) = interaction {
        message["webhook_id"] = json!(shared.application_id.to_string());
        message["application_id"] = json!(shared.application_id.to_string());
        let mut metadata = json!({
            "id": interaction.id.to_string(),
            "type": interaction.kind,
            "user": interaction.user.user_json(),
            "authorizing_integration_owners": {"0": shared.guild_id.to_string()},
        });
        if let Some(original) = interaction.original {
            metadata["original_response_message_id"] = json!(original.to_string());
        }
        if let Some(clicked) = interaction.message_id {
            metadata["interacted_message_id"] = json!(clicked.to_string());
        }
        if let Some(name) = &interaction.command_name {
            metadata["name"] = json!(name);
            metadata["command_type"] = json!(1);
            message["interaction"] = json!({
                "id": interaction.id.to_string(),
                "type": interaction.kind,
                "name": name,
                "user": interaction.user.user_json(),
            });
        }
        message["interaction_metadata"] = metadata;
    }
    Ok(message)
}

/// Applies an edit: fields present replace, `attachments` lists the files to keep.
fn edit_message(
    shared: &Shared,
    message: &mut Value,
    payload: &Value,
    files: &[Part],
) -> Result<(), Answer> {
    check_content(payload)?;
    check_files(shared, files)?;
    let channel_id = message["channel_id"]
        .as_str()
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let existing = message["attachments"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if payload.get("attachments").is_some() || !files.is_empty() {
        message["attachments"] =
            Value::Array(attachments(shared, channel_id, payload, files, &existing)?);
    }
    if let Some(content) = payload.get("content") {
        message["content"] = if content.is_null() {
            json!("")
        } else {
            content.clone()
        };
    }
    if payload.get("embeds").is_some() {
        message["embeds"] = embeds(payload);
    }
    if let Some(components) = payload.get("components") {
        message["components"] = if components.is_null() {
            json!([])
        } else {
            components.clone()
        };
    }
    // Editing a deferred answer ends its "thinking..." state.
    let flags = message["flags"].as_u64().unwrap_or(0) & !128;
    message["flags"] = json!(flags);
    message["edited_timestamp"] = json!(now_iso8601());
    Ok(())
}

fn embeds(payload: &Value) -> Value {
    let mut embeds = payload
        .get("embeds")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for embed in &mut embeds {
        if let Some(map) = embed.as_object_mut() {
            map.entry("type").or_insert(json!("rich"));
        }
    }
    Value::Array(embeds)
}

/// The attachments of a created or edited message. `payload.attachments` lists kept
/// attachments (by snowflake) and new files (by index into `files[n]`); files it does not list
/// are attached as well, as Discord does.
fn attachments(
    shared: &Shared,
    channel_id: u64,
    payload: &Value,
    files: &[Part],
    existing: &[Value],
) -> Result<Vec<Value>, Answer> {
    let listed = payload.get("attachments").and_then(Value::as_array);
    let mut out = Vec::new();
    let mut used = Vec::new();
    match listed {
        Some(entries) => {
            for (i, entry) in entries.iter().enumerate() {
                let id = match &entry["id"] {
                    Value::Number(n) => n.as_u64(),
                    Value::String(s) => s.parse().ok(),
                    _ => None,
                };
                let Some(id) = id else {
                    return Err(Answer::error(ErrorAnswer::invalid_field(
                        &format!("attachments.{i}.id"),
                        "BASE_TYPE_REQUIRED",
                        "This field is required",
                    )));
                };
                if let Some(kept) = existing.iter().find(|a| snowflake_of(&a["id"]) == Some(id)) {
                    out.push(kept.clone());
                } else if let Some(file) =
                    files.iter().find(|f| f.file_index() == Some(id as usize))
                {
                    used.push(id as usize);
                    let name = entry["filename"]
                        .as_str()
                        .or(file.filename.as_deref())
                        .unwrap_or("file");
                    out.push(attachment(
                        shared,
                        channel_id,
                        file,
                        name,
                        entry["description"].as_str(),
                    ));
                } else {
                    return Err(Answer::error(ErrorAnswer::invalid_field(
                        &format!("attachments.{i}.id"),
                        "ATTACHMENT_NOT_FOUND",
                        "Unknown attachment",
                    )));
                }
            }
        }
        None => out.extend(existing.iter().cloned()),
    }
    for file in files {
        if file.file_index().is_some_and(|i| !used.contains(&i)) {
            out.push(attachment(
                shared,
                channel_id,
                file,
                file.filename.as_deref().unwrap_or("file"),
                None,
            ));
        }
    }
    Ok(out)
}

fn attachment(
    shared: &Shared,
    channel_id: u64,
    file: &Part,
    filename: &str,
    description: Option<&str>,
) -> Value {
    let id = shared.next_id();
    let mut attachment = json!({
        "id": id.to_string(),
        "filename": filename,
        "size": file.data.len(),
        "url": format!("https://cdn.discordapp.com/attachments/{channel_id}/{id}/{filename}"),
        "proxy_url": format!("https://media.discordapp.net/attachments/{channel_id}/{id}/{filename}"),
    });
    if let Some(content_type) = &file.content_type {
        attachment["content_type"] = json!(content_type);
    }
    if let Some(description) = description {
        attachment["description"] = json!(description);
    }
    if let Some((width, height)) = png_size(&file.data) {
        attachment["width"] = json!(width);
        attachment["height"] = json!(height);
        attachment["content_type"] = json!("image/png");
    }
    attachment
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(data: &[u8]) -> Option<(u32, u32)> {
    if data.len() < 24 || &data[..8] != b"\x89PNG\r\n\x1a\n" || &data[12..16] != b"IHDR" {
        return None;
    }
    let width = u32::from_be_bytes(data[16..20].try_into().ok()?);
    let height = u32::from_be_bytes(data[20..24].try_into().ok()?);
    Some((width, height))
}

/// User objects for the `<@id>` pings in `content` (known users and the bot).
fn mentions(shared: &Shared, st: &State, content: &str) -> Vec<Value> {
    let mut found: Vec<Value> = Vec::new();
    let mut rest = content;
    while let Some(start) = rest.find("<@") {
        rest = &rest[start + 2..];
        let digits: String = rest
            .trim_start_matches('!')
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let Ok(id) = digits.parse::<u64>() else {
            continue;
        };
        let user = if id == shared.bot_user_id {
            Some(shared.bot_user_json())
        } else {
            st.users
                .get(&id)
                .map(super::interactions::TestUser::user_json)
        };
        if let Some(user) = user
            && !found.iter().any(|u| u["id"] == user["id"])
        {
            found.push(user);
        }
    }
    found
}
