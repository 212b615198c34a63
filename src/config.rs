//! Configuration: `config.toml` (every setting documented in `config.example.toml`) plus
//! environment overrides (`DISCORD_TOKEN`, `DATABASE_URL`, `DISCORD_API_URL`).

pub mod shards;

use std::fmt;
use std::path::Path;

use serde::Deserialize;
use thiserror::Error;

/// The default database: SQLite in the working directory, created if missing.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://gomoku-bot.db";

/// Why the configuration could not be loaded.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The file exists but cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid TOML or has unknown or mistyped settings.
    #[error("{path} is not a valid configuration: {message}")]
    Parse {
        /// The file.
        path: String,
        /// The parser's message (it never contains the token: values are not echoed).
        message: String,
    },
    /// No token in the environment or the file.
    #[error("no Discord bot token: set DISCORD_TOKEN or discord.token in config.toml")]
    MissingToken,
    /// A setting has a value out of range.
    #[error("setting {key}: {why}")]
    Invalid {
        /// The setting.
        key: &'static str,
        /// What is wrong.
        why: String,
    },
}

/// The bot token, kept out of every log line: its `Debug` and `Display` print a placeholder.
#[derive(Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(transparent)]
pub struct Token(String);

impl Token {
    /// Wraps a token.
    pub fn new(token: impl Into<String>) -> Token {
        Token(token.into())
    }
    /// The secret itself, for the Discord client only.
    pub fn expose(&self) -> &str {
        &self.0
    }
    /// Whether no token was given.
    pub fn is_empty(&self) -> bool {
        self.0.trim().is_empty()
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// `[discord]` settings.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct DiscordConfig {
    /// The bot token (prefer the `DISCORD_TOKEN` environment variable).
    pub token: Token,
    /// Base URL for all REST calls (an HTTP proxy that does rate limiting); empty = discord.com.
    pub api_url: Option<String>,
    /// Register commands to this guild only (instant, for development); none = globally.
    pub dev_guild_id: Option<u64>,
    /// The gateway shards this process runs, `FIRST-LAST` (e.g. `0-3`); needs `shard_total`.
    /// `--shards` overrides it. None = every shard Discord recommends.
    pub shards: Option<String>,
    /// How many shards the whole bot has (every process gives the same); `--shard-total`
    /// overrides it. Alone, this process runs all of them.
    pub shard_total: Option<u32>,
}

impl DiscordConfig {
    /// The shards this process runs.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] naming `discord.shards` for a bad range or total.
    pub fn shard_plan(&self) -> Result<shards::Shards, ConfigError> {
        shards::parse(self.shards.as_deref(), self.shard_total).map_err(|why| {
            ConfigError::Invalid {
                key: "discord.shards",
                why,
            }
        })
    }
}

/// `[database]` settings.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct DatabaseConfig {
    /// sqlx URL of the database.
    pub url: String,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig {
            url: DEFAULT_DATABASE_URL.to_string(),
        }
    }
}

/// `[game]` settings.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct GameConfig {
    /// Hours before an unanswered challenge expires.
    pub challenge_expiry_hours: u32,
    /// Most games (open challenges included) two members may have running against each other.
    pub max_open_games_per_pair: u32,
    /// Vacation days per player and calendar year, spent an hour at a time when a deadline
    /// passes in a game counted in days (0: none, a passed deadline loses at once).
    pub vacation_days_per_year: u32,
    /// Seconds between two checks of the games' deadlines (reminders, vacation, loss on time).
    pub clock_sweep_seconds: u32,
    /// Most threads thinking for the computer opponent at once, over all games (0-64). 0: this
    /// process thinks for nobody and leaves the computer's moves to `gomoku-bot worker`
    /// processes (PostgreSQL).
    pub engine_threads: usize,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            challenge_expiry_hours: 24,
            max_open_games_per_pair: 3,
            vacation_days_per_year: 10,
            clock_sweep_seconds: 60,
            engine_threads: 1,
        }
    }
}

/// `[log]` settings.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct LogConfig {
    /// A tracing filter, e.g. `info` or `gomoku_bot=debug,serenity=warn`; `RUST_LOG` overrides it.
    pub filter: String,
    /// `text` (for people, the default) or `json` (one object per line); `LOG_FORMAT`
    /// overrides it.
    pub format: LogFormat,
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            filter: "info,serenity=warn,poise=warn,sqlx=warn".to_string(),
            format: LogFormat::Text,
        }
    }
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// `[metrics]` settings (issue 17).
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct MetricsConfig {
    /// Where to serve `/metrics`, `/healthz` and `/readyz` (`host:port`); none = off.
    /// `METRICS_LISTEN` overrides it.
    pub listen: Option<String>,
}

/// `[engine]` settings: the computer opponent's thinking.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct EngineConfig {
    /// Most seconds level 6 (correspondence) thinks about one move (1-600; default 10).
    /// Levels 1-5 keep their own budgets (0.1 s to 2 s).
    pub correspondence_seconds: u32,
    /// Seconds a process holds an engine job it took (1-600; default 30), renewed every
    /// third of it while thinking: a process killed while thinking delays that move by at
    /// most this long before another process takes it.
    pub job_lease_seconds: u32,
    /// Milliseconds between two looks for engine jobs written by other processes (10-60000;
    /// default 250). A process's own commits wake its job taker at once.
    pub job_poll_ms: u32,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            correspondence_seconds: 10,
            job_lease_seconds: 30,
            job_poll_ms: 250,
        }
    }
}

impl EngineConfig {
    /// How long a taken engine job is held.
    pub fn job_lease(&self) -> std::time::Duration {
        std::time::Duration::from_secs(u64::from(self.job_lease_seconds))
    }

    /// How often to look for engine jobs of other processes.
    pub fn job_poll(&self) -> std::time::Duration {
        std::time::Duration::from_millis(u64::from(self.job_poll_ms))
    }

    /// Level 6's budget per move.
    pub fn correspondence_budget(&self) -> std::time::Duration {
        std::time::Duration::from_secs(u64::from(self.correspondence_seconds))
    }
}

/// The default of `shutdown_grace_seconds`.
pub const DEFAULT_SHUTDOWN_GRACE_SECONDS: u32 = 20;

fn default_grace() -> u32 {
    DEFAULT_SHUTDOWN_GRACE_SECONDS
}

/// The whole configuration.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Seconds a shutdown (SIGTERM, Ctrl-C) may take: interactions in flight finish, then
    /// the gateway closes; after that the process exits regardless.
    #[serde(default = "default_grace")]
    pub shutdown_grace_seconds: u32,
    /// Discord connection.
    pub discord: DiscordConfig,
    /// Storage.
    pub database: DatabaseConfig,
    /// Game defaults and limits.
    pub game: GameConfig,
    /// Logging.
    pub log: LogConfig,
    /// The operations listener.
    pub metrics: MetricsConfig,
    /// The computer opponent.
    pub engine: EngineConfig,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            shutdown_grace_seconds: DEFAULT_SHUTDOWN_GRACE_SECONDS,
            discord: DiscordConfig::default(),
            database: DatabaseConfig::default(),
            game: GameConfig::default(),
            log: LogConfig::default(),
            metrics: MetricsConfig::default(),
            engine: EngineConfig::default(),
        }
    }
}

/// `text` with its control characters (newlines, tabs, escapes) written as Rust escapes.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

impl Config {
    /// Parses TOML text.
    ///
    /// # Errors
    /// [`ConfigError::Parse`] naming the file.
    pub fn from_toml(text: &str, path: &str) -> Result<Config, ConfigError> {
        toml::from_str(text).map_err(|e: toml::de::Error| ConfigError::Parse {
            path: path.to_string(),
            // The message names the key and position; it never quotes a token's value. It
            // may quote another value (an unknown variant), whose control characters are
            // escaped so that the binary's `error:` stays one line (found by the fuzzer:
            // `format = "jso\n"`).
            message: one_line(e.message()),
        })
    }

    /// Loads `path` if it exists (defaults otherwise), then applies the environment.
    ///
    /// # Errors
    /// [`ConfigError`] for an unreadable or invalid file, a missing token or a bad value.
    pub fn load(path: &Path, env: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let shown = path.display().to_string();
        let mut config = match std::fs::read_to_string(path) {
            Ok(text) => Config::from_toml(&text, &shown)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Config::default(),
            Err(source) => {
                return Err(ConfigError::Read {
                    path: shown,
                    source,
                });
            }
        };
        let set = |v: Option<String>| v.filter(|s| !s.trim().is_empty());
        if let Some(token) = set(env("DISCORD_TOKEN")) {
            config.discord.token = Token::new(token);
        }
        if let Some(url) = set(env("DATABASE_URL")) {
            config.database.url = url;
        }
        if let Some(url) = set(env("DISCORD_API_URL")) {
            config.discord.api_url = Some(url);
        }
        config.discord.api_url = config.discord.api_url.filter(|u| !u.trim().is_empty());
        if let Some(listen) = set(env("METRICS_LISTEN")) {
            config.metrics.listen = Some(listen);
        }
        config.metrics.listen = config.metrics.listen.filter(|l| !l.trim().is_empty());
        if let Some(format) = set(env("LOG_FORMAT")) {
            config.log.format = match format.trim() {
                "text" => LogFormat::Text,
                "json" => LogFormat::Json,
                _ => {
                    return Err(ConfigError::Invalid {
                        key: "log.format",
                        why: "LOG_FORMAT must be text or json".to_string(),
                    });
                }
            };
        }
        config.validate()?;
        Ok(config)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        if self.discord.token.is_empty() {
            return Err(ConfigError::MissingToken);
        }
        if let Some(url) = &self.discord.api_url
            && !(url.starts_with("http://") || url.starts_with("https://"))
        {
            return Err(ConfigError::Invalid {
                key: "discord.api_url",
                why: "must start with http:// or https://".to_string(),
            });
        }
        self.discord.shard_plan()?;
        if self.game.challenge_expiry_hours == 0 || self.game.challenge_expiry_hours > 24 * 30 {
            return Err(ConfigError::Invalid {
                key: "game.challenge_expiry_hours",
                why: "must be between 1 and 720".to_string(),
            });
        }
        if self.game.max_open_games_per_pair == 0 {
            return Err(ConfigError::Invalid {
                key: "game.max_open_games_per_pair",
                why: "must be at least 1".to_string(),
            });
        }
        if self.game.vacation_days_per_year > 366 {
            return Err(ConfigError::Invalid {
                key: "game.vacation_days_per_year",
                why: "must be between 0 and 366".to_string(),
            });
        }
        if !(1..=3600).contains(&self.game.clock_sweep_seconds) {
            return Err(ConfigError::Invalid {
                key: "game.clock_sweep_seconds",
                why: "must be between 1 and 3600".to_string(),
            });
        }
        if let Some(listen) = &self.metrics.listen
            && listen.trim().parse::<std::net::SocketAddr>().is_err()
        {
            return Err(ConfigError::Invalid {
                key: "metrics.listen",
                why: format!("`{listen}` is not host:port, e.g. 127.0.0.1:9100"),
            });
        }
        if !(1..=600).contains(&self.shutdown_grace_seconds) {
            return Err(ConfigError::Invalid {
                key: "shutdown_grace_seconds",
                why: "must be between 1 and 600".to_string(),
            });
        }
        if !(1..=600).contains(&self.engine.correspondence_seconds) {
            return Err(ConfigError::Invalid {
                key: "engine.correspondence_seconds",
                why: "must be between 1 and 600".to_string(),
            });
        }
        if !(0..=64).contains(&self.game.engine_threads) {
            return Err(ConfigError::Invalid {
                key: "game.engine_threads",
                why: "must be between 0 and 64".to_string(),
            });
        }
        if !(1..=600).contains(&self.engine.job_lease_seconds) {
            return Err(ConfigError::Invalid {
                key: "engine.job_lease_seconds",
                why: "must be between 1 and 600".to_string(),
            });
        }
        if !(10..=60_000).contains(&self.engine.job_poll_ms) {
            return Err(ConfigError::Invalid {
                key: "engine.job_poll_ms",
                why: "must be between 10 and 60000".to_string(),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn the_example_file_documents_every_setting_and_parses() {
        let text = include_str!("../config.example.toml");
        let c = Config::from_toml(text, "config.example.toml").unwrap();
        assert_eq!(c.database.url, DEFAULT_DATABASE_URL);
        assert_eq!(c.game, GameConfig::default());
        for key in [
            "token",
            "api_url",
            "dev_guild_id",
            "shards",
            "shard_total",
            "url",
            "challenge_expiry_hours",
            "max_open_games_per_pair",
            "vacation_days_per_year",
            "clock_sweep_seconds",
            "engine_threads",
            "correspondence_seconds",
            "job_lease_seconds",
            "job_poll_ms",
            "filter",
            "format",
            "listen",
            "shutdown_grace_seconds",
        ] {
            assert!(
                text.contains(&format!("{key} =")),
                "config.example.toml lacks {key}"
            );
        }
    }

    #[test]
    fn environment_overrides_the_file_and_a_token_is_required() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(
            &path,
            "[discord]\ntoken = \"from-file\"\n[database]\nurl = \"sqlite://x.db\"\n",
        )
        .unwrap();
        let c = Config::load(&path, env(&[("DATABASE_URL", "sqlite://y.db")])).unwrap();
        assert_eq!(c.discord.token.expose(), "from-file");
        assert_eq!(c.database.url, "sqlite://y.db");
        let c = Config::load(
            &path,
            env(&[
                ("DISCORD_TOKEN", "from-env"),
                ("DISCORD_API_URL", "http://127.0.0.1:9"),
            ]),
        )
        .unwrap();
        assert_eq!(c.discord.token.expose(), "from-env");
        assert_eq!(c.discord.api_url.as_deref(), Some("http://127.0.0.1:9"));
        let missing = dir.path().join("absent.toml");
        assert!(matches!(
            Config::load(&missing, env(&[])),
            Err(ConfigError::MissingToken)
        ));
        assert_eq!(
            Config::load(&missing, env(&[("DISCORD_TOKEN", "t")]))
                .unwrap()
                .database
                .url,
            DEFAULT_DATABASE_URL
        );
    }

    #[test]
    fn a_quoted_value_with_a_newline_stays_on_one_line() {
        let Err(e) = Config::from_toml("[log]\nformat = \"jso\\n\"\n", "c") else {
            panic!("an unknown log format must be refused");
        };
        let line = e.to_string();
        assert!(!line.contains('\n'), "{line:?}");
        assert!(line.contains("jso\\n"), "{line:?}");
    }

    #[test]
    fn bad_files_are_refused_with_the_key_named() {
        assert!(matches!(
            Config::from_toml("[discord]\ntokn = 1", "c"),
            Err(ConfigError::Parse { .. })
        ));
        assert!(matches!(
            Config::from_toml("[game]\nchallenge_expiry_hours = \"x\"", "c"),
            Err(ConfigError::Parse { .. })
        ));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.toml");
        std::fs::write(&path, "[discord]\ntoken = \"t\"\napi_url = \"ftp://x\"\n").unwrap();
        assert!(matches!(
            Config::load(&path, env(&[])),
            Err(ConfigError::Invalid {
                key: "discord.api_url",
                ..
            })
        ));
        std::fs::write(
            &path,
            "[discord]\ntoken = \"t\"\n[game]\nchallenge_expiry_hours = 0\n",
        )
        .unwrap();
        assert!(matches!(
            Config::load(&path, env(&[])),
            Err(ConfigError::Invalid { .. })
        ));
        std::fs::write(
            &path,
            "[discord]\ntoken = \"t\"\nshards = \"2-3\"\nshard_total = 2\n",
        )
        .unwrap();
        assert!(matches!(
            Config::load(&path, env(&[])),
            Err(ConfigError::Invalid { key: "discord.shards", why }) if why.contains("outside")
        ));
        for (line, key) in [
            (
                "vacation_days_per_year = 400",
                "game.vacation_days_per_year",
            ),
            ("clock_sweep_seconds = 0", "game.clock_sweep_seconds"),
        ] {
            std::fs::write(&path, format!("[discord]\ntoken = \"t\"\n[game]\n{line}\n")).unwrap();
            assert!(
                matches!(Config::load(&path, env(&[])), Err(ConfigError::Invalid { key: k, .. }) if k == key),
                "{line}"
            );
        }
    }

    #[test]
    fn the_correspondence_budget_defaults_to_ten_seconds_and_stays_in_range() {
        assert_eq!(
            EngineConfig::default().correspondence_budget(),
            std::time::Duration::from_secs(10)
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.toml");
        for (seconds, ok) in [(0, false), (1, true), (30, true), (600, true), (601, false)] {
            std::fs::write(
                &path,
                format!("[discord]\ntoken = \"t\"\n[engine]\ncorrespondence_seconds = {seconds}\n"),
            )
            .unwrap();
            let loaded = Config::load(&path, env(&[]));
            assert_eq!(loaded.is_ok(), ok, "{seconds}: {loaded:?}");
            match loaded {
                Ok(c) => assert_eq!(c.engine.correspondence_seconds, seconds),
                Err(e) => assert!(
                    e.to_string().contains("engine.correspondence_seconds"),
                    "{seconds}: {e}"
                ),
            }
        }
        std::fs::write(&path, "[discord]\ntoken = \"t\"\n[engine]\nlevel7 = 1\n").unwrap();
        assert!(
            Config::load(&path, env(&[])).is_err(),
            "unknown engine keys are refused"
        );
    }

    #[test]
    fn engine_threads_default_to_one_and_stay_in_range_zero_included() {
        assert_eq!(GameConfig::default().engine_threads, 1);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.toml");
        // 0: the process leaves the computer's moves to workers.
        for (threads, ok) in [(0, true), (1, true), (4, true), (65, false)] {
            std::fs::write(
                &path,
                format!("[discord]\ntoken = \"t\"\n[game]\nengine_threads = {threads}\n"),
            )
            .unwrap();
            let loaded = Config::load(&path, env(&[]));
            assert_eq!(loaded.is_ok(), ok, "{threads}: {loaded:?}");
            if let Ok(c) = loaded {
                assert_eq!(c.game.engine_threads, threads);
            }
        }
    }

    #[test]
    fn operations_settings_have_defaults_env_overrides_and_checks() {
        let c = Config::default();
        assert_eq!(c.metrics.listen, None, "metrics are off by default");
        assert_eq!(c.shutdown_grace_seconds, 20);
        assert_eq!(c.log.format, LogFormat::Text);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.toml");
        std::fs::write(
            &path,
            "shutdown_grace_seconds = 25\n[discord]\ntoken = \"t\"\n[metrics]\nlisten = \"127.0.0.1:9100\"\n[log]\nformat = \"json\"\n",
        )
        .unwrap();
        let c = Config::load(&path, env(&[])).unwrap();
        assert_eq!(c.metrics.listen.as_deref(), Some("127.0.0.1:9100"));
        assert_eq!(c.shutdown_grace_seconds, 25);
        assert_eq!(c.log.format, LogFormat::Json);
        let c = Config::load(
            &path,
            env(&[("METRICS_LISTEN", "0.0.0.0:9200"), ("LOG_FORMAT", "text")]),
        )
        .unwrap();
        assert_eq!(c.metrics.listen.as_deref(), Some("0.0.0.0:9200"));
        assert_eq!(c.log.format, LogFormat::Text);
        for (vars, key) in [
            (&[("METRICS_LISTEN", "localhost")][..], "metrics.listen"),
            (
                &[("METRICS_LISTEN", "127.0.0.1:99999")][..],
                "metrics.listen",
            ),
            (&[("LOG_FORMAT", "xml")][..], "log.format"),
        ] {
            let e = Config::load(&path, env(vars)).unwrap_err();
            assert!(
                matches!(e, ConfigError::Invalid { key: k, .. } if k == key),
                "{vars:?}: {e}"
            );
        }
        std::fs::write(
            &path,
            "shutdown_grace_seconds = 0\n[discord]\ntoken = \"t\"\n",
        )
        .unwrap();
        assert!(matches!(
            Config::load(&path, env(&[])),
            Err(ConfigError::Invalid {
                key: "shutdown_grace_seconds",
                ..
            })
        ));
        std::fs::write(&path, "[discord]\ntoken = \"t\"\n[log]\nformat = \"xml\"\n").unwrap();
        assert!(matches!(
            Config::load(&path, env(&[])),
            Err(ConfigError::Parse { .. })
        ));
    }

    #[test]
    fn the_token_never_shows_in_debug_output() {
        let mut c = Config::default();
        c.discord.token = Token::new("super-secret-token-value");
        let shown = format!("{c:?} {}", c.discord.token);
        assert!(!shown.contains("super-secret"), "{shown}");
        let err = Config::from_toml(
            "[discord]\ntoken = \"super-secret-token-value\"\nextra = 1",
            "c",
        )
        .unwrap_err();
        assert!(!err.to_string().contains("super-secret"), "{err}");
    }
}
