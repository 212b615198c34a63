//! Request bodies checked against Discord's OpenAPI description.
//!
//! The description (about 1 MB) is read and parsed once per test process; the validator of each
//! operation is compiled on first use and kept. The spec's path comes from the environment
//! variable `DISCORD_OPENAPI_SPEC` (CI sets it to `../shared/discord-api-spec/openapi.json`), else the
//! copy in `tests/fixtures/discord-api-spec/` (MIT, with its licence).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::error::ValidationErrorKind;
use jsonschema::{Draft, ValidationError, Validator};
use serde_json::{Value, json};

use super::record::{Body, RecordedRequest};

/// Where the spec is read from.
pub fn spec_path() -> PathBuf {
    match std::env::var_os("DISCORD_OPENAPI_SPEC") {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        // A copy of Discord's spec (MIT) ships with the tests, so `cargo test` works anywhere.
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/discord-api-spec/openapi.json"),
    }
}

struct SpecPath {
    template: String,
    segments: Vec<String>,
    item: Value,
}

/// Discord's OpenAPI description, ready to validate request bodies.
pub struct OpenApi {
    paths: Vec<SpecPath>,
    components: Value,
    compiled: Mutex<HashMap<(String, String), CompiledSchema>>,
}

/// A compiled schema, or why the spec's schema did not compile.
type CompiledSchema = Arc<Result<Validator, String>>;

/// The spec of this process, read once.
///
/// # Errors
/// The file is missing or is not an OpenAPI description with `paths` and `components`.
pub fn spec() -> Result<&'static OpenApi, String> {
    static SPEC: OnceLock<Result<OpenApi, String>> = OnceLock::new();
    SPEC.get_or_init(|| {
        let path = spec_path();
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "cannot read the Discord OpenAPI spec at {} ({e}); set DISCORD_OPENAPI_SPEC",
                path.display()
            )
        })?;
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
        OpenApi::from_value(value)
    })
    .as_ref()
    .map_err(Clone::clone)
}

impl OpenApi {
    /// Builds from a parsed description.
    ///
    /// # Errors
    /// `paths` or `components` is missing.
    pub fn from_value(mut value: Value) -> Result<Self, String> {
        let components = value
            .get_mut("components")
            .map(Value::take)
            .ok_or("the spec has no components")?;
        let Some(Value::Object(paths)) = value.get_mut("paths").map(Value::take) else {
            return Err("the spec has no paths".to_owned());
        };
        let paths = paths
            .into_iter()
            .map(|(template, item)| SpecPath {
                segments: template
                    .trim_start_matches('/')
                    .split('/')
                    .map(str::to_owned)
                    .collect(),
                template,
                item,
            })
            .collect();
        Ok(Self {
            paths,
            components,
            compiled: Mutex::new(HashMap::new()),
        })
    }

    /// The spec's path template and operation object for a request, preferring the template
    /// with the most literal segments (`@original` over `{message_id}`).
    pub fn operation(&self, method: &str, path: &str) -> Option<(&str, &Value)> {
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        self.paths
            .iter()
            .filter(|p| {
                p.segments.len() == segments.len()
                    && p.segments
                        .iter()
                        .zip(&segments)
                        .all(|(t, s)| t.starts_with('{') || t == s)
            })
            .max_by_key(|p| p.segments.iter().filter(|t| !t.starts_with('{')).count())
            .and_then(|p| {
                Some((
                    p.template.as_str(),
                    p.item.get(method.to_ascii_lowercase())?,
                ))
            })
    }

    fn validator(
        &self,
        template: &str,
        method: &str,
        schema: &Value,
    ) -> Arc<Result<Validator, String>> {
        let key = (template.to_owned(), method.to_owned());
        let mut compiled = self.compiled.lock().unwrap_or_else(|e| e.into_inner());
        compiled
            .entry(key)
            .or_insert_with(|| {
                // `$ref`s point at `#/components/...`: give the operation's schema the components.
                let mut root = schema.clone();
                if let Value::Object(map) = &mut root {
                    map.insert("components".to_owned(), self.components.clone());
                } else {
                    root = json!({"allOf": [schema], "components": self.components});
                }
                Arc::new(
                    jsonschema::options()
                        .with_draft(Draft::Draft202012)
                        .build(&root)
                        .map_err(|e| {
                            format!(
                                "the spec's schema for {method} {template} does not compile: {e}"
                            )
                        }),
                )
            })
            .clone()
    }

    /// Checks a JSON body sent to `method path`; the list of violations is empty when it is valid.
    pub fn check_json(&self, method: &str, path: &str, body: &Value) -> Vec<String> {
        let Some((template, operation)) = self.operation(method, path) else {
            return vec![format!(
                "{method} {path} is not in Discord's API description"
            )];
        };
        let Some(schema) = operation.pointer("/requestBody/content/application~1json/schema")
        else {
            return vec![format!(
                "{method} {template} takes no JSON body, but one was sent"
            )];
        };
        let mut body = body.clone();
        normalise(&mut body);
        match &*self.validator(template, method, schema) {
            Ok(validator) => validator
                .iter_errors(&body)
                .flat_map(|e| explain(&e))
                .map(|(at, why)| format!("{method} {template}: at {at}: {why}"))
                .collect(),
            Err(reason) => vec![reason.clone()],
        }
    }

    /// Checks an answer of the fake against the response schema the description gives for its
    /// status (`4XX` included), so the fake stays as realistic as the description.
    pub fn check_response(
        &self,
        method: &str,
        path: &str,
        status: u16,
        body: &Value,
    ) -> Vec<String> {
        let Some((template, operation)) = self.operation(method, path) else {
            return Vec::new();
        };
        let class = format!("{}XX", status / 100);
        let Some(mut response) = operation
            .get("responses")
            .and_then(|r| r.get(status.to_string()).or_else(|| r.get(&class)))
        else {
            return vec![format!(
                "{method} {template}: the description has no {status} answer"
            )];
        };
        if let Some(reference) = response.get("$ref").and_then(Value::as_str) {
            let pointer = reference.trim_start_matches("#/components");
            match self.components.pointer(pointer) {
                Some(resolved) => response = resolved,
                None => return vec![format!("{method} {template}: unresolved {reference}")],
            }
        }
        let Some(schema) = response.pointer("/content/application~1json/schema") else {
            return vec![format!(
                "{method} {template}: the {status} answer has no JSON body"
            )];
        };
        match &*self.validator(template, &format!("{method} answer {status}"), schema) {
            Ok(validator) => validator
                .iter_errors(body)
                .flat_map(|e| explain(&e))
                .map(|(at, why)| format!("answer to {method} {template}: at {at}: {why}"))
                .collect(),
            Err(reason) => vec![reason.clone()],
        }
    }

    /// Checks one recorded request: its body against the spec, and the multipart parts against
    /// the attachments the JSON lists.
    pub fn check_request(&self, request: &RecordedRequest) -> Vec<String> {
        let (method, path) = (request.method.as_str(), request.path.as_str());
        match &request.body {
            Body::Empty => {
                let required = self
                    .operation(method, path)
                    .and_then(|(_, op)| op.pointer("/requestBody/required"))
                    .and_then(Value::as_bool)
                    .unwrap_or(false);
                if required {
                    vec![format!("{method} {path} needs a body, but none was sent")]
                } else {
                    Vec::new()
                }
            }
            Body::Json(value) => self.check_json(method, path, value),
            Body::Unreadable {
                content_type,
                reason,
            } => {
                vec![format!(
                    "{method} {path}: unreadable {content_type} body: {reason}"
                )]
            }
            Body::Multipart {
                payload_json,
                parts,
            } => {
                let Some(payload) = payload_json else {
                    return vec![format!(
                        "{method} {path}: multipart body without a valid payload_json part"
                    )];
                };
                let mut violations = self.check_json(method, path, payload);
                violations.extend(check_files(method, path, payload, parts));
                violations
            }
        }
    }
}

/// The JSON of a message payload: the top level, or `data` of an interaction callback.
fn message_payload(payload: &Value) -> &Value {
    payload
        .get("data")
        .filter(|d| d.is_object())
        .unwrap_or(payload)
}

fn check_files(
    method: &str,
    path: &str,
    payload: &Value,
    parts: &[super::record::Part],
) -> Vec<String> {
    let mut violations = Vec::new();
    let files: Vec<usize> = parts
        .iter()
        .filter_map(super::record::Part::file_index)
        .collect();
    for part in parts {
        if part.file_index().is_some() && part.filename.is_none() {
            violations.push(format!(
                "{method} {path}: part {} has no filename",
                part.name
            ));
        } else if part.file_index().is_none() && part.name != "payload_json" {
            violations.push(format!(
                "{method} {path}: unexpected multipart field {:?}",
                part.name
            ));
        }
    }
    if let Some(Value::Array(attachments)) = message_payload(payload).get("attachments") {
        for attachment in attachments {
            let id = attachment.get("id").and_then(|id| match id {
                Value::Number(n) => n.as_u64(),
                Value::String(s) => s.parse().ok(),
                _ => None,
            });
            // Small ids are indexes of files in this request; snowflakes are kept attachments.
            if let Some(index) = id.filter(|&id| id < 1_000_000)
                && !files.contains(&(index as usize))
            {
                violations.push(format!(
                    "{method} {path}: attachment id {index} names no files[{index}] part"
                ));
            }
        }
    }
    violations
}

/// The errors that explain a failure: for `anyOf`/`oneOf`, those of the branch that got
/// furthest into the body (the one the sender most likely meant), else the error itself.
fn explain(error: &ValidationError<'_>) -> Vec<(String, String)> {
    let branches = match error.kind() {
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            context
        }
        _ => {
            let at = error.instance_path().to_string();
            let mut instance = error.instance().to_string();
            if instance.len() > 80 {
                let cut = (0..=80)
                    .rev()
                    .find(|&i| instance.is_char_boundary(i))
                    .unwrap_or(0);
                instance.truncate(cut);
                instance.push_str("...");
            }
            let why = format!("{} (value {instance})", error.masked());
            return vec![(if at.is_empty() { "/".to_owned() } else { at }, why)];
        }
    };
    let best = branches
        .iter()
        .filter(|branch| !branch.is_empty())
        .max_by_key(|branch| {
            (
                // A branch refused only for its `type` tag is about another kind of object.
                !branch.iter().any(is_type_tag_mismatch),
                branch.iter().map(depth).max().unwrap_or(0),
                std::cmp::Reverse(branch.len()),
            )
        });
    match best {
        Some(branch) => branch.iter().flat_map(explain).collect(),
        None => vec![(
            error.instance_path().to_string(),
            error.masked().to_string(),
        )],
    }
}

/// Whether an error is a `type` field outside its branch's `enum`/`const` (Discord's tagged unions).
fn is_type_tag_mismatch(error: &ValidationError<'_>) -> bool {
    matches!(
        error.kind(),
        ValidationErrorKind::Enum { .. } | ValidationErrorKind::Constant { .. }
    ) && error.instance_path().as_str().ends_with("/type")
}

/// How deep into the body an error (or its deepest sub-error) points.
fn depth(error: &ValidationError<'_>) -> usize {
    let own = error.instance_path().as_str().matches('/').count();
    let nested = match error.kind() {
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            context.iter().flatten().map(depth).max().unwrap_or(0)
        }
        _ => 0,
    };
    own.max(nested)
}

/// Where serenity and the description disagree although Discord accepts both, bring the body to
/// the description's form so that the spec checks everything else:
/// - a new attachment's `id` is sent as the number 0; the description says string;
/// - `default_member_permissions` is sent as a string of digits (as Discord's documentation
///   says); the description says integer.
pub fn normalise(body: &mut Value) {
    match body {
        Value::Object(map) => {
            if let Some(permissions) = map.get_mut("default_member_permissions")
                && let Some(bits) = permissions.as_str().and_then(|s| s.parse::<u64>().ok())
            {
                *permissions = Value::from(bits);
            }
            if let Some(Value::Array(attachments)) = map.get_mut("attachments") {
                for attachment in attachments.iter_mut() {
                    if let Some(id) = attachment.get_mut("id")
                        && let Value::Number(n) = id
                    {
                        *id = Value::String(n.to_string());
                    }
                }
            }
            map.values_mut().for_each(normalise);
        }
        Value::Array(items) => items.iter_mut().for_each(normalise),
        _ => {}
    }
}
