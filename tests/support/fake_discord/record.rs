//! What the fake remembers of each REST request, how a test picks requests out, and the error
//! answers a test can make the fake give.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::interactions::Sent;

/// One part of a `multipart/form-data` body.
#[derive(Clone, PartialEq, Eq)]
pub struct Part {
    /// The form field name, such as `payload_json` or `files[0]`.
    pub name: String,
    /// The file name, for file parts.
    pub filename: Option<String>,
    /// The part's own `Content-Type`, when it had one.
    pub content_type: Option<String>,
    /// The raw bytes.
    pub data: Vec<u8>,
}

impl fmt::Debug for Part {
    // File bytes would drown a failure message: show their length only.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Part")
            .field("name", &self.name)
            .field("filename", &self.filename)
            .field("content_type", &self.content_type)
            .field("bytes", &self.data.len())
            .finish()
    }
}

impl Part {
    /// The file index `n` of a `files[n]` part (serenity names its uploads that way).
    pub fn file_index(&self) -> Option<usize> {
        self.name
            .strip_prefix("files[")
            .and_then(|rest| rest.strip_suffix(']'))
            .and_then(|n| n.parse().ok())
    }
}

/// The body of a recorded request.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// No body at all.
    Empty,
    /// An `application/json` body.
    Json(Value),
    /// A `multipart/form-data` body; `payload_json` is its JSON part, parsed.
    Multipart {
        /// The parsed `payload_json` part, when present and valid JSON.
        payload_json: Option<Value>,
        /// Every part, `payload_json` included, in order.
        parts: Vec<Part>,
    },
    /// A body the fake could not read (bad JSON, bad multipart, another content type).
    Unreadable {
        /// The request's `Content-Type`.
        content_type: String,
        /// Why it could not be read.
        reason: String,
    },
}

/// One REST request the bot made, with the fake's answer.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    /// Position in arrival order, from 0.
    pub index: usize,
    /// HTTP method in upper case.
    pub method: String,
    /// The path after `/api/v10`, such as `/channels/1/messages`.
    pub path: String,
    /// The raw query string, without `?`.
    pub query: Option<String>,
    /// Request headers in lower case, without `authorization`.
    pub headers: Vec<(String, String)>,
    /// Whether the `Authorization` header carried the bot token.
    pub authorized: bool,
    /// The body.
    pub body: Body,
    /// The status the fake answered with.
    pub status: u16,
    /// The JSON the fake answered with, if any.
    pub response: Option<Value>,
    /// Whether the fake knows this route at all.
    pub known_route: bool,
    /// Whether an error answer was asked for by the test (a failure rule or withheld
    /// permissions) rather than a protocol error of the bot.
    pub deliberate_error: bool,
    /// Time since the fake started.
    pub at: Duration,
}

impl RecordedRequest {
    /// The id of what the fake created in answer (a thread, a message), if it did.
    pub fn created_id(&self) -> Option<u64> {
        self.response.as_ref()?["id"].as_str()?.parse().ok()
    }

    /// The JSON the bot sent: the JSON body, or the `payload_json` of a multipart body.
    pub fn json(&self) -> Option<&Value> {
        match &self.body {
            Body::Json(value) => Some(value),
            Body::Multipart { payload_json, .. } => payload_json.as_ref(),
            Body::Empty | Body::Unreadable { .. } => None,
        }
    }

    /// The JSON the bot sent, or an empty object (handy in assertions).
    pub fn json_or_null(&self) -> Value {
        self.json().cloned().unwrap_or(Value::Null)
    }

    /// The uploaded files (`files[n]` parts) in index order.
    pub fn files(&self) -> Vec<&Part> {
        let mut files: Vec<&Part> = match &self.body {
            Body::Multipart { parts, .. } => {
                parts.iter().filter(|p| p.file_index().is_some()).collect()
            }
            _ => Vec::new(),
        };
        files.sort_by_key(|p| p.file_index());
        files
    }

    /// Whether the body was multipart.
    pub fn is_multipart(&self) -> bool {
        matches!(self.body, Body::Multipart { .. })
    }

    /// A header value by lower-case name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The path's segments, without the leading empty one.
    pub fn segments(&self) -> Vec<&str> {
        self.path.trim_start_matches('/').split('/').collect()
    }

    /// One line for failure messages.
    pub fn summary(&self) -> String {
        let mut line = format!(
            "#{} {} {} -> {}",
            self.index, self.method, self.path, self.status
        );
        if let Some(json) = self.json() {
            let mut text = json.to_string();
            if text.len() > 300 {
                let cut = (0..=300)
                    .rev()
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap_or(0);
                text.truncate(cut);
                text.push_str("...");
            }
            line.push(' ');
            line.push_str(&text);
        }
        line
    }
}

type Predicate = Arc<dyn Fn(&RecordedRequest) -> bool + Send + Sync>;

/// Picks requests: a method, a path pattern (`*` stands for one segment) and optionally a
/// predicate on the whole request.
#[derive(Clone)]
pub struct Req {
    method: Option<String>,
    pattern: Vec<String>,
    predicate: Option<Predicate>,
    label: String,
}

impl fmt::Debug for Req {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label)
    }
}

impl Req {
    fn new(method: Option<&str>, pattern: &str) -> Self {
        let label = format!("{} {}", method.unwrap_or("ANY"), pattern);
        Self {
            method: method.map(str::to_owned),
            pattern: pattern
                .trim_start_matches('/')
                .split('/')
                .map(str::to_owned)
                .collect(),
            predicate: None,
            label,
        }
    }

    /// Any method on the path pattern.
    pub fn any(pattern: &str) -> Self {
        Self::new(None, pattern)
    }

    /// `GET` on the path pattern.
    pub fn get(pattern: &str) -> Self {
        Self::new(Some("GET"), pattern)
    }

    /// `POST` on the path pattern.
    pub fn post(pattern: &str) -> Self {
        Self::new(Some("POST"), pattern)
    }

    /// `PUT` on the path pattern.
    pub fn put(pattern: &str) -> Self {
        Self::new(Some("PUT"), pattern)
    }

    /// `PATCH` on the path pattern.
    pub fn patch(pattern: &str) -> Self {
        Self::new(Some("PATCH"), pattern)
    }

    /// `DELETE` on the path pattern.
    pub fn delete(pattern: &str) -> Self {
        Self::new(Some("DELETE"), pattern)
    }

    /// The initial response to one injected interaction.
    pub fn callback(sent: &Sent) -> Self {
        Self::post(&format!(
            "/interactions/{}/{}/callback",
            sent.id, sent.token
        ))
    }

    /// An edit of one interaction's original response.
    pub fn original_edit(sent: &Sent) -> Self {
        Self::patch(&format!(
            "/webhooks/{}/{}/messages/@original",
            sent.application_id, sent.token
        ))
    }

    /// A follow-up message to one interaction.
    pub fn followup(sent: &Sent) -> Self {
        Self::post(&format!("/webhooks/{}/{}", sent.application_id, sent.token))
    }

    /// Any request about one interaction (callback or its webhook routes).
    pub fn about(sent: &Sent) -> Self {
        let token = sent.token.clone();
        let id = sent.id.to_string();
        Self::any("/**").matching(move |r| {
            let segs = r.segments();
            (segs.first() == Some(&"interactions") && segs.get(1) == Some(&id.as_str()))
                || (segs.first() == Some(&"webhooks") && segs.get(2) == Some(&token.as_str()))
        })
    }

    /// Also require `predicate` to hold.
    pub fn matching(
        mut self,
        predicate: impl Fn(&RecordedRequest) -> bool + Send + Sync + 'static,
    ) -> Self {
        let previous = self.predicate.take();
        self.predicate = Some(Arc::new(move |r| {
            previous.as_ref().is_none_or(|p| p(r)) && predicate(r)
        }));
        self.label.push_str(" (+ predicate)");
        self
    }

    /// Whether `request` is picked.
    pub fn matches(&self, request: &RecordedRequest) -> bool {
        if let Some(method) = &self.method
            && !method.eq_ignore_ascii_case(&request.method)
        {
            return false;
        }
        let segs = request.segments();
        let wildcard_tail = self.pattern.last().is_some_and(|p| p == "**");
        let fixed = if wildcard_tail {
            self.pattern.len() - 1
        } else {
            self.pattern.len()
        };
        let length_ok = if wildcard_tail {
            segs.len() >= fixed
        } else {
            segs.len() == fixed
        };
        length_ok
            && self.pattern[..fixed]
                .iter()
                .zip(&segs)
                .all(|(p, s)| p == "*" || p == s)
            && self.predicate.as_ref().is_none_or(|p| p(request))
    }
}

/// An error answer in Discord's shape.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorAnswer {
    /// HTTP status.
    pub status: u16,
    /// JSON body (`code`, `message`, maybe `errors`).
    pub body: Value,
}

impl ErrorAnswer {
    /// Any Discord error: HTTP `status`, JSON error `code` and `message`.
    pub fn new(status: u16, code: u64, message: &str) -> Self {
        Self {
            status,
            body: json!({"code": code, "message": message}),
        }
    }

    /// 403, 50013 Missing Permissions.
    pub fn missing_permissions() -> Self {
        Self::new(403, 50013, "Missing Permissions")
    }

    /// 403, 50001 Missing Access (the bot cannot see the channel).
    pub fn missing_access() -> Self {
        Self::new(403, 50001, "Missing Access")
    }

    /// 404, 10003 Unknown Channel.
    pub fn unknown_channel() -> Self {
        Self::new(404, 10003, "Unknown Channel")
    }

    /// 404, 10008 Unknown Message.
    pub fn unknown_message() -> Self {
        Self::new(404, 10008, "Unknown Message")
    }

    /// 404, 10062 Unknown interaction (answered too late, or never sent).
    pub fn unknown_interaction() -> Self {
        Self::new(404, 10062, "Unknown interaction")
    }

    /// 400, 40060 Interaction has already been acknowledged.
    pub fn already_acknowledged() -> Self {
        Self::new(400, 40060, "Interaction has already been acknowledged.")
    }

    /// 400, 50035 Invalid Form Body with Discord's nested `errors` object.
    pub fn invalid_form_body(errors: Value) -> Self {
        Self {
            status: 400,
            body: json!({"code": 50035, "message": "Invalid Form Body", "errors": errors}),
        }
    }

    /// 400, 50035 for one field: `field` is a dotted path such as `data.content`.
    pub fn invalid_field(field: &str, code: &str, message: &str) -> Self {
        let mut errors = json!({"_errors": [{"code": code, "message": message}]});
        for key in field.rsplit('.') {
            errors = json!({ key: errors });
        }
        Self::invalid_form_body(errors)
    }

    /// A global 429 with `retry_after` seconds: every request waits, not only this route's.
    pub fn rate_limited_globally(retry_after: f64) -> Self {
        Self {
            status: 429,
            body: json!({"code": 0, "message": "You are being rate limited.", "retry_after": retry_after, "global": true}),
        }
    }

    /// A 5xx: Discord (or the network in front of it) failed; worth trying again.
    pub fn server_error(status: u16) -> Self {
        Self::new(status, 0, "Internal Server Error")
    }

    /// 429 with `retry_after` seconds (serenity's own limiter is off in tests, so it surfaces).
    pub fn rate_limited(retry_after: f64) -> Self {
        Self {
            status: 429,
            body: json!({"code": 0, "message": "You are being rate limited.", "retry_after": retry_after, "global": false}),
        }
    }
}

/// A test's standing instruction to answer matching requests with an error.
#[derive(Clone, Debug)]
pub(crate) struct FailureRule {
    pub matcher: Req,
    pub answer: ErrorAnswer,
    /// How many more times to apply; `None` for always.
    pub remaining: Option<u32>,
    /// Whether the request is carried out before the error is answered: Discord did it, but
    /// its answer was lost on the way (a 502 from the edge, a connection cut).
    pub applied: bool,
}

/// Splits a `multipart/form-data` body.
///
/// # Errors
/// A missing boundary, a missing delimiter or a part without headers is reported in words.
pub fn parse_multipart(content_type: &str, body: &[u8]) -> Result<Vec<Part>, String> {
    let boundary = content_type
        .split(';')
        .filter_map(|param| param.trim().split_once('='))
        .find(|(key, _)| key.trim().eq_ignore_ascii_case("boundary"))
        .map(|(_, value)| value.trim().trim_matches('"').to_owned())
        .filter(|b| !b.is_empty())
        .ok_or_else(|| format!("no boundary in content type {content_type:?}"))?;
    let delimiter = format!("--{boundary}").into_bytes();
    let mut rest = match find(body, &delimiter) {
        Some(start) => &body[start + delimiter.len()..],
        None => return Err("the first boundary is missing".to_owned()),
    };
    let next_delimiter = [b"\r\n".as_slice(), &delimiter].concat();
    let mut parts = Vec::new();
    loop {
        if rest.starts_with(b"--") {
            return Ok(parts);
        }
        rest = rest
            .strip_prefix(b"\r\n")
            .ok_or("a boundary is not followed by CRLF")?;
        let header_end = find(rest, b"\r\n\r\n").ok_or("a part has no end of headers")?;
        let headers = std::str::from_utf8(&rest[..header_end])
            .map_err(|_| "a part's headers are not UTF-8")?;
        let content = &rest[header_end + 4..];
        let end = find(content, &next_delimiter).ok_or("a part is not closed by a boundary")?;
        parts.push(part_from(headers, content[..end].to_vec())?);
        rest = &content[end + next_delimiter.len()..];
    }
}

fn part_from(headers: &str, data: Vec<u8>) -> Result<Part, String> {
    let mut name = None;
    let mut filename = None;
    let mut content_type = None;
    for line in headers.split("\r\n") {
        let Some((key, value)) = line.split_once(':') else {
            return Err(format!("bad part header line {line:?}"));
        };
        if key.trim().eq_ignore_ascii_case("content-disposition") {
            for param in value.split(';').skip(1) {
                if let Some((k, v)) = param.trim().split_once('=') {
                    let v = v.trim().trim_matches('"').to_owned();
                    match k.trim() {
                        "name" => name = Some(v),
                        "filename" => filename = Some(v),
                        _ => {}
                    }
                }
            }
        } else if key.trim().eq_ignore_ascii_case("content-type") {
            content_type = Some(value.trim().to_owned());
        }
    }
    let name = name.ok_or_else(|| format!("a part has no name: {headers:?}"))?;
    Ok(Part {
        name,
        filename,
        content_type,
        data,
    })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    // memchr's vectorised search: a window-by-window scan of each board PNG's upload was a
    // visible share of the fake's CPU under load (it shares the bot's cores in benchmarks).
    memchr::memmem::find(haystack, needle)
}
