//! Logging: human-readable lines (the default) or one JSON object per line (`log.format =
//! "json"`), with the timestamp, level, target, message and the event's fields (game id,
//! guild id, shard, ...) at the top level of each object.
//!
//! The bot token never reaches a log line: the configuration keeps it in a type whose
//! `Debug` and `Display` print `<redacted>`, and serenity does not log it (a test runs the
//! binary with both formats at `trace` level and searches its output for the token).

use crate::config::LogFormat;

/// Installs the process's log subscriber (once; later calls do nothing). `filter` is a
/// tracing filter; an invalid one falls back to `info`.
pub fn init(filter: &str, format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    let installed = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false)
            .try_init(),
    };
    // Already installed (a test, or a second call): keep the first.
    let _ = installed;
}
