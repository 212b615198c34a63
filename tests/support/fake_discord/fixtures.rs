//! The fixture files of `tests/fixtures/discord/` and the placeholders the fake fills in them.
//!
//! A placeholder is a JSON string that is exactly `"{{name}}"`; it is replaced by any JSON value
//! (string, number, object, array), or the key or array element holding it is left out. Text
//! around a placeholder is refused, so every fixture stays valid JSON that a reader can check
//! against Discord's documentation.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

use serde_json::{Map, Value};

/// What a placeholder becomes.
#[derive(Clone, Debug, PartialEq)]
pub enum Fill {
    /// This JSON value.
    Value(Value),
    /// Nothing: the key (or array element) holding the placeholder is left out.
    Omit,
}

/// Values for placeholders, by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Vars(BTreeMap<String, Fill>);

impl Vars {
    /// No values yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `name` to `value`.
    pub fn set(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.insert(name, value);
        self
    }

    /// Leaves the key holding `name` out.
    pub fn omit(mut self, name: &str) -> Self {
        self.0.insert(name.to_owned(), Fill::Omit);
        self
    }

    /// Sets `name` to `value` in place.
    pub fn insert(&mut self, name: &str, value: impl Into<Value>) {
        self.0.insert(name.to_owned(), Fill::Value(value.into()));
    }

    /// Sets `name` to `Some(value)` or leaves its key out for `None`.
    pub fn insert_opt(&mut self, name: &str, value: Option<impl Into<Value>>) {
        let fill = value.map_or(Fill::Omit, |v| Fill::Value(v.into()));
        self.0.insert(name.to_owned(), fill);
    }
}

/// Why a fixture could not be filled.
#[derive(Clone, Debug, PartialEq)]
pub enum FixtureError {
    /// The file is not valid JSON.
    Parse {
        /// The fixture's file name.
        file: &'static str,
        /// serde_json's reason.
        reason: String,
    },
    /// A placeholder had no value.
    Unfilled {
        /// The placeholder's name.
        name: String,
        /// JSON pointer of the placeholder.
        at: String,
    },
    /// A string holds a placeholder inside other text.
    Embedded {
        /// The string.
        text: String,
        /// JSON pointer of the string.
        at: String,
    },
}

impl fmt::Display for FixtureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Parse { file, reason } => write!(f, "fixture {file} is not valid JSON: {reason}"),
            Self::Unfilled { name, at } => {
                write!(f, "placeholder {{{{{name}}}}} at {at} has no value")
            }
            Self::Embedded { text, at } => write!(f, "placeholder inside text {text:?} at {at}"),
        }
    }
}

impl std::error::Error for FixtureError {}

/// The fixture files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fixture {
    /// `d` of the gateway READY dispatch.
    Ready,
    /// `d` of GUILD_CREATE.
    GuildCreate,
    /// A user object.
    User,
    /// A guild member with its user (as in `interaction.member` and GUILD_CREATE `members`).
    Member,
    /// A partial member as in `resolved.members` (no `user`, `deaf`, `mute`).
    ResolvedMember,
    /// INTERACTION_CREATE of a slash command (type 2).
    InteractionCommand,
    /// INTERACTION_CREATE of an autocomplete request (type 4).
    InteractionAutocomplete,
    /// INTERACTION_CREATE of a component click (type 3) with the clicked message.
    InteractionComponent,
}

impl Fixture {
    /// Every fixture, for tests that check them all.
    pub const ALL: [Fixture; 8] = [
        Self::Ready,
        Self::GuildCreate,
        Self::User,
        Self::Member,
        Self::ResolvedMember,
        Self::InteractionCommand,
        Self::InteractionAutocomplete,
        Self::InteractionComponent,
    ];

    /// The file name under `tests/fixtures/discord/`.
    pub fn file_name(self) -> &'static str {
        match self {
            Self::Ready => "ready.json",
            Self::GuildCreate => "guild_create.json",
            Self::User => "user.json",
            Self::Member => "member.json",
            Self::ResolvedMember => "resolved_member.json",
            Self::InteractionCommand => "interaction_command.json",
            Self::InteractionAutocomplete => "interaction_autocomplete.json",
            Self::InteractionComponent => "interaction_component.json",
        }
    }

    // Embedded at compile time: an edited fixture rebuilds the tests, and no test reads files.
    fn text(self) -> &'static str {
        match self {
            Self::Ready => include_str!("../../fixtures/discord/ready.json"),
            Self::GuildCreate => include_str!("../../fixtures/discord/guild_create.json"),
            Self::User => include_str!("../../fixtures/discord/user.json"),
            Self::Member => include_str!("../../fixtures/discord/member.json"),
            Self::ResolvedMember => include_str!("../../fixtures/discord/resolved_member.json"),
            Self::InteractionCommand => {
                include_str!("../../fixtures/discord/interaction_command.json")
            }
            Self::InteractionAutocomplete => {
                include_str!("../../fixtures/discord/interaction_autocomplete.json")
            }
            Self::InteractionComponent => {
                include_str!("../../fixtures/discord/interaction_component.json")
            }
        }
    }

    /// The parsed template.
    ///
    /// # Errors
    /// The file is not valid JSON.
    pub fn template(self) -> Result<&'static Value, FixtureError> {
        static PARSED: [OnceLock<Result<Value, FixtureError>>; 8] = [const { OnceLock::new() }; 8];
        let index = Self::ALL.iter().position(|f| *f == self).unwrap_or(0);
        PARSED[index]
            .get_or_init(|| {
                serde_json::from_str(self.text()).map_err(|e| FixtureError::Parse {
                    file: self.file_name(),
                    reason: e.to_string(),
                })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The names of all placeholders in the file.
    ///
    /// # Errors
    /// The file is not valid JSON.
    pub fn placeholders(self) -> Result<Vec<String>, FixtureError> {
        fn walk(value: &Value, out: &mut Vec<String>) {
            match value {
                Value::String(s) => out.extend(placeholder_name(s).map(str::to_owned)),
                Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
                Value::Object(map) => map.values().for_each(|v| walk(v, out)),
                _ => {}
            }
        }
        let mut names = Vec::new();
        walk(self.template()?, &mut names);
        names.sort();
        names.dedup();
        Ok(names)
    }

    /// The template with every placeholder filled from `vars`.
    ///
    /// # Errors
    /// Bad JSON, a placeholder without a value, or a placeholder inside text.
    pub fn fill(self, vars: &Vars) -> Result<Value, FixtureError> {
        fill(self.template()?, vars)
    }
}

fn placeholder_name(s: &str) -> Option<&str> {
    let name = s.strip_prefix("{{")?.strip_suffix("}}")?;
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then_some(name)
}

/// Fills every placeholder of `template` from `vars`.
///
/// # Errors
/// A placeholder without a value, or a placeholder inside text.
pub fn fill(template: &Value, vars: &Vars) -> Result<Value, FixtureError> {
    Ok(fill_at(template, vars, "")?.unwrap_or(Value::Null))
}

fn fill_at(value: &Value, vars: &Vars, at: &str) -> Result<Option<Value>, FixtureError> {
    Ok(match value {
        Value::String(s) => {
            if let Some(name) = placeholder_name(s) {
                match vars.0.get(name) {
                    Some(Fill::Value(v)) => Some(v.clone()),
                    Some(Fill::Omit) => None,
                    None => {
                        return Err(FixtureError::Unfilled {
                            name: name.to_owned(),
                            at: at.to_owned(),
                        });
                    }
                }
            } else if s.contains("{{") {
                return Err(FixtureError::Embedded {
                    text: s.clone(),
                    at: at.to_owned(),
                });
            } else {
                Some(value.clone())
            }
        }
        Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                out.extend(fill_at(item, vars, &format!("{at}/{i}"))?);
            }
            Some(Value::Array(out))
        }
        Value::Object(map) => {
            let mut out = Map::new();
            for (key, item) in map {
                if let Some(filled) = fill_at(item, vars, &format!("{at}/{key}"))? {
                    out.insert(key.clone(), filled);
                }
            }
            Some(Value::Object(out))
        }
        _ => Some(value.clone()),
    })
}
