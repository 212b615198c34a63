//! Storage failures: what went wrong, in kinds the service and the front can act on.

use thiserror::Error;

/// What kind of storage failure happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StorageErrorKind {
    /// The database is locked by someone else (or no connection was free in time).
    Busy,
    /// The disk (or the database's size limit) is full.
    Full,
    /// The file is damaged, or holds data this version cannot read.
    Corrupt,
    /// The database cannot be written (read-only file or file system).
    ReadOnly,
    /// The database cannot be reached (missing directory, I/O error, pool closed).
    Unavailable,
    /// The URL or options are wrong.
    Config,
    /// The database was written by a newer release (a migration this binary does not know):
    /// it is left as it is.
    Newer,
    /// Anything else.
    Other,
}

/// A storage failure. Nothing that was acknowledged before it is lost, and the action that
/// met it did not happen.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("storage failure ({kind:?}): {detail}")]
pub struct StorageError {
    /// What kind of failure.
    pub kind: StorageErrorKind,
    /// The database's own words, for logs (not for users).
    pub detail: String,
}

impl StorageError {
    pub(crate) fn corrupt(detail: impl Into<String>) -> StorageError {
        StorageError {
            kind: StorageErrorKind::Corrupt,
            detail: detail.into(),
        }
    }
}

impl From<sqlx::Error> for StorageError {
    fn from(e: sqlx::Error) -> Self {
        let kind = match &e {
            sqlx::Error::Database(db) => {
                if let Some(pg) = db.try_downcast_ref::<sqlx::postgres::PgDatabaseError>() {
                    postgres_kind(pg.code())
                } else {
                    // SQLite reports the extended result code; the primary code is its low
                    // byte.
                    let code = db
                        .code()
                        .and_then(|c| c.parse::<i32>().ok())
                        .map_or(0, |c| c & 0xff);
                    sqlite_kind(code)
                }
            }
            sqlx::Error::PoolTimedOut => StorageErrorKind::Busy,
            sqlx::Error::PoolClosed | sqlx::Error::Io(_) | sqlx::Error::Tls(_) => {
                StorageErrorKind::Unavailable
            }
            sqlx::Error::Configuration(_) => StorageErrorKind::Config,
            sqlx::Error::ColumnDecode { .. } | sqlx::Error::Decode(_) => StorageErrorKind::Corrupt,
            _ => StorageErrorKind::Other,
        };
        crate::ops::metrics::db_error(kind.name());
        StorageError {
            kind,
            detail: e.to_string(),
        }
    }
}

impl StorageErrorKind {
    /// The kind as a metrics label.
    pub fn name(self) -> &'static str {
        match self {
            StorageErrorKind::Busy => "busy",
            StorageErrorKind::Full => "full",
            StorageErrorKind::Corrupt => "corrupt",
            StorageErrorKind::ReadOnly => "read_only",
            StorageErrorKind::Unavailable => "unavailable",
            StorageErrorKind::Config => "config",
            StorageErrorKind::Newer => "newer",
            StorageErrorKind::Other => "other",
        }
    }
}

/// The kind of a SQLite primary result code.
fn sqlite_kind(code: i32) -> StorageErrorKind {
    match code {
        5 | 6 => StorageErrorKind::Busy,          // BUSY, LOCKED
        13 => StorageErrorKind::Full,             // FULL
        11 | 26 => StorageErrorKind::Corrupt,     // CORRUPT, NOTADB
        8 => StorageErrorKind::ReadOnly,          // READONLY
        10 | 14 => StorageErrorKind::Unavailable, // IOERR, CANTOPEN
        _ => StorageErrorKind::Other,
    }
}

/// The kind of a PostgreSQL SQLSTATE.
fn postgres_kind(code: &str) -> StorageErrorKind {
    match code {
        // lock_not_available (lock_timeout), deadlock_detected, serialization_failure,
        // too_many_connections: worth another try.
        "55P03" | "40P01" | "40001" | "53300" => StorageErrorKind::Busy,
        "53100" => StorageErrorKind::Full, // disk_full
        "XX001" | "XX002" => StorageErrorKind::Corrupt,
        "25006" => StorageErrorKind::ReadOnly, // read_only_sql_transaction
        // authentication and unknown database: the URL is wrong.
        "3D000" => StorageErrorKind::Config,
        c if c.starts_with("28") => StorageErrorKind::Config,
        // connection exceptions, the server shutting down or starting.
        c if c.starts_with("08") || c.starts_with("57P") => StorageErrorKind::Unavailable,
        _ => StorageErrorKind::Other,
    }
}

impl From<sqlx::migrate::MigrateError> for StorageError {
    fn from(e: sqlx::migrate::MigrateError) -> Self {
        match e {
            sqlx::migrate::MigrateError::Execute(inner) => inner.into(),
            // A version applied that this binary's migrations do not list: a newer release
            // wrote the file. Nothing was changed (sqlx checks before it applies anything).
            sqlx::migrate::MigrateError::VersionMissing(version) => StorageError {
                kind: StorageErrorKind::Newer,
                detail: format!(
                    "the database was written by a newer release (its migration {version} is unknown to this one)"
                ),
            },
            other => StorageError {
                kind: StorageErrorKind::Other,
                detail: other.to_string(),
            },
        }
    }
}

pub(crate) fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db) if db.is_unique_violation())
}

/// Why an action could not be appended to the move log.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AppendError {
    /// Someone else appended that ply first, or the game ended: the position changed.
    #[error("the position changed")]
    Conflict,
    /// The database failed; nothing was written.
    #[error(transparent)]
    Storage(#[from] StorageError),
}
