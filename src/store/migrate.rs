//! `gomoku-bot migrate-store`: copying every table of a SQLite database into an empty
//! PostgreSQL one, for a server admin who outgrows one machine.
//!
//! The copy is driven by [`TABLES`], the list of every table of the schema in an order where
//! a table comes after the tables it refers to. A table the list does not know (a later
//! migration added it) refuses the copy before anything is written, and a test fails until
//! it is listed, so no migration can be skipped silently.
//!
//! What happens, in order:
//! 1. The source is opened as the bot opens it at start: migrations of this release are
//!    applied to it (a source written by a newer release is refused). A missing source file
//!    is refused, never created.
//! 2. The target must be empty: no table of its schema holds a row (else refused, nothing
//!    written). This release's migrations are then applied to it.
//! 3. One transaction on the target: every table is locked, checked empty again, filled
//!    with the source's rows (ids kept as they are), the identity columns are moved past the
//!    copied ids, and each table's row count is compared with the source's before `COMMIT`.
//!    A failure anywhere rolls the whole copy back.
//!
//! The source is read in one read transaction (one snapshot): stop the bot before copying,
//! or moves made during the copy stay behind in the old file. After the copy the caller
//! counts the rows again and replays every game's move log (see
//! `service::replay_every_game`).

use std::collections::BTreeSet;
use std::str::FromStr as _;

use sqlx::postgres::PgConnection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{Connection as _, Executor as _, Row as _, ValueRef as _};
use thiserror::Error;

use super::connect::Backend;
use super::model::GameId;
use super::{StorageError, StorageErrorKind, Store, StoreOptions};

/// One table the copier knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Table {
    /// Its name.
    pub name: &'static str,
    /// The columns its rows are read in order of (its primary key), so that a copy is
    /// reproducible.
    pub key: &'static str,
}

const fn table(name: &'static str, key: &'static str) -> Table {
    Table { name, key }
}

/// Every table of the schema (but sqlx's own `_sqlx_migrations`), each after the tables its
/// foreign keys refer to. A migration that adds a table must add it here.
pub const TABLES: &[Table] = &[
    table("guild_settings", "guild_id"),
    table("user_preferences", "user_id"),
    table("members", "guild_id, user_id"),
    table("challenges", "challenge_id"),
    table("challenge_members", "challenge_id, user_id"),
    table("games", "game_id"),
    table("game_seats", "game_id, seat"),
    table("moves", "game_id, ply"),
    table("vacation_usage", "user_id, year"),
    table("offers", "offer_id"),
    table("rematches", "challenge_id"),
    table("ratings", "scope, family, user_id"),
    table("rating_changes", "game_id, user_id"),
    table("tournaments", "tournament_id"),
    table("tournament_players", "tournament_id, user_id"),
    table("tournament_boards", "tournament_id, round, board"),
    table("reviews", "game_id"),
    table("outbox", "outbox_id"),
    table("engine_jobs", "game_id, ply"),
];

/// Why `migrate-store` stopped.
#[derive(Debug, Error)]
pub enum MigrateStoreError {
    /// Bad input (a wrong URL, a database that cannot be opened, a non-empty target):
    /// nothing was copied. The text is one line for the operator.
    #[error("{0}")]
    Refused(String),
    /// The copy failed half-way and was rolled back, or a check after it found a
    /// difference.
    #[error("{0}")]
    Failed(String),
}

/// What was copied: each table with its number of rows, in [`TABLES`] order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copied {
    /// `(table, rows)`.
    pub tables: Vec<(&'static str, u64)>,
}

/// A database URL fit for messages: any password in it is hidden.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            format!("{}://<redacted>@{}", &url[..scheme], &url[at + 1..])
        }
        _ => url.to_string(),
    }
}

/// The SQLite URL opening an existing file only (`mode=rw`), unless the URL names a mode.
fn existing_sqlite(url: &str) -> String {
    match url.split_once('?') {
        None => format!("{url}?mode=rw"),
        Some((_, query)) if query.split('&').any(|kv| kv.starts_with("mode=")) => url.to_string(),
        Some(_) => format!("{url}&mode=rw"),
    }
}

/// Copies every table of the SQLite database at `from` into the empty PostgreSQL database
/// at `to` (see the module's documentation).
///
/// # Errors
/// [`MigrateStoreError::Refused`] for bad input (nothing copied),
/// [`MigrateStoreError::Failed`] when the copy failed and was rolled back.
pub async fn copy_sqlite_to_postgres(from: &str, to: &str) -> Result<Copied, MigrateStoreError> {
    let refused = MigrateStoreError::Refused;
    let shown_from = redact_url(from);
    let shown_to = redact_url(to);
    match Backend::of_url(from) {
        Ok(Backend::Sqlite) => {}
        _ => {
            return Err(refused(format!(
                "--from must be a SQLite database URL (sqlite://path/to/file.db), not `{shown_from}`"
            )));
        }
    }
    match Backend::of_url(to) {
        Ok(Backend::Postgres) => {}
        _ => {
            return Err(refused(format!(
                "--to must be a PostgreSQL database URL (postgres://user@host/database), not `{shown_to}`"
            )));
        }
    }

    // The target first: an unreachable or non-empty target is refused before the source is
    // touched (opening the source upgrades its schema).
    let cannot_reach = |e: sqlx::Error| {
        refused(format!(
            "the target database {shown_to} cannot be reached: {}",
            StorageError::from(e).detail
        ))
    };
    let mut target = PgConnection::connect(to).await.map_err(cannot_reach)?;
    if let Some((table, rows)) = first_filled_table(&mut target)
        .await
        .map_err(cannot_reach)?
    {
        return Err(refused(format!(
            "the target database {shown_to} is not empty (table {table} holds {rows} rows): migrate-store copies only into an empty database; nothing was written"
        )));
    }

    let source_url = existing_sqlite(from);
    let source_store = Store::open(&StoreOptions::new(source_url.clone()))
        .await
        .map_err(|e| {
            refused(match e.kind {
                StorageErrorKind::Newer => format!(
                    "the source database {shown_from} was written by a newer release of gomoku-bot: run migrate-store of that release"
                ),
                _ => format!(
                    "the source database {shown_from} cannot be opened (it must be an existing gomoku-bot database): {}",
                    e.detail
                ),
            })
        })?;
    source_store.close().await;
    let source = SqliteConnectOptions::from_str(&source_url)
        .map(|o| o.read_only(true).foreign_keys(false))
        .map_err(|e| refused(format!("--from {shown_from}: {e}")))?;
    let mut source = SqliteConnection::connect_with(&source)
        .await
        .map_err(|e| refused(format!("the source database {shown_from}: {e}")))?;
    let source_tables = sqlite_tables(&mut source)
        .await
        .map_err(|e| refused(format!("the source database {shown_from}: {e}")))?;
    check_known(&source_tables).map_err(|t| {
        refused(format!(
            "the source database {shown_from} has a table migrate-store does not know: {t}; nothing was written"
        ))
    })?;

    // This release's schema on the target (a target written by a newer release is refused).
    let target_store = Store::open(&StoreOptions::new(to.to_string()))
        .await
        .map_err(|e| {
            refused(match e.kind {
                StorageErrorKind::Newer => format!(
                    "the target database {shown_to} was written by a newer release of gomoku-bot; nothing was written"
                ),
                _ => format!(
                    "the target database {shown_to} cannot be prepared: {}",
                    e.detail
                ),
            })
        })?;
    target_store.close().await;

    let failed = |what: &str, e: sqlx::Error| {
        MigrateStoreError::Failed(format!(
            "the copy into {shown_to} failed ({what}) and was rolled back: {}",
            StorageError::from(e).detail
        ))
    };
    let target_tables = postgres_tables(&mut target)
        .await
        .map_err(|e| failed("listing tables", e))?;
    check_known(&target_tables).map_err(|t| {
        MigrateStoreError::Failed(format!(
            "the target database {shown_to} has a table migrate-store does not know: {t}"
        ))
    })?;

    sqlx::query("BEGIN")
        .execute(&mut source)
        .await
        .map_err(|e| failed("reading the source", e))?;
    let mut tx = target.begin().await.map_err(|e| failed("beginning", e))?;
    let names: Vec<&str> = TABLES.iter().map(|t| t.name).collect();
    tx.execute(format!("LOCK TABLE {} IN ACCESS EXCLUSIVE MODE", names.join(", ")).as_str())
        .await
        .map_err(|e| failed("locking the tables", e))?;
    if let Some((table, rows)) = first_filled_table(&mut tx)
        .await
        .map_err(|e| failed("checking the target is empty", e))?
    {
        return Err(refused(format!(
            "the target database {shown_to} is not empty (table {table} holds {rows} rows): migrate-store copies only into an empty database; nothing was written"
        )));
    }
    let mut copied = Vec::with_capacity(TABLES.len());
    for t in TABLES {
        let rows = copy_table(&mut source, &mut tx, t).await?;
        let counted: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {}", t.name))
            .fetch_one(&mut *tx)
            .await
            .map_err(|e| failed(t.name, e))?;
        if u64::try_from(counted).ok() != Some(rows) {
            return Err(MigrateStoreError::Failed(format!(
                "the copy into {shown_to} was rolled back: table {} has {counted} rows after copying {rows}",
                t.name
            )));
        }
        reset_identities(&mut tx, t.name)
            .await
            .map_err(|e| failed(t.name, e))?;
        copied.push((t.name, rows));
    }
    tx.commit().await.map_err(|e| failed("committing", e))?;
    let _ = sqlx::query("COMMIT").execute(&mut source).await;
    let _ = source.close().await;
    let _ = target.close().await;
    Ok(Copied { tables: copied })
}

/// `Err(name)` of the first table in `tables` that [`TABLES`] does not list.
fn check_known(tables: &BTreeSet<String>) -> Result<(), String> {
    let known: BTreeSet<&str> = TABLES.iter().map(|t| t.name).collect();
    match tables.iter().find(|t| !known.contains(t.as_str())) {
        Some(t) => Err(t.clone()),
        None => Ok(()),
    }
}

/// The tables of a SQLite database (but SQLite's and sqlx's own).
async fn sqlite_tables(conn: &mut SqliteConnection) -> Result<BTreeSet<String>, sqlx::Error> {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
         AND name <> '_sqlx_migrations'",
    )
    .fetch_all(conn)
    .await?;
    Ok(names.into_iter().collect())
}

/// The tables of the PostgreSQL schema the connection works in (but sqlx's own).
async fn postgres_tables(conn: &mut PgConnection) -> Result<BTreeSet<String>, sqlx::Error> {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables \
         WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' \
         AND table_name <> '_sqlx_migrations'",
    )
    .fetch_all(conn)
    .await?;
    Ok(names.into_iter().collect())
}

/// The first table of the target's schema holding a row (any table, not only gomoku-bot's:
/// another application's data is not to be mixed with the copy), with its row count.
async fn first_filled_table(conn: &mut PgConnection) -> Result<Option<(String, i64)>, sqlx::Error> {
    for table in postgres_tables(conn).await? {
        let rows: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM \"{table}\""))
            .fetch_one(&mut *conn)
            .await?;
        if rows > 0 {
            return Ok(Some((table, rows)));
        }
    }
    Ok(None)
}

/// How a column's values travel from SQLite to PostgreSQL.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Integer,
    Boolean,
    Real,
    Text,
    Bytes,
}

/// One value read from SQLite, typed as its PostgreSQL column wants it.
enum Value {
    Integer(Option<i64>),
    Boolean(Option<bool>),
    Real(Option<f64>),
    Text(Option<String>),
    Bytes(Option<Vec<u8>>),
}

/// The binds in one `INSERT` at most (PostgreSQL allows 65,535).
const BINDS_PER_INSERT: usize = 30_000;

/// Copies one table's rows; returns how many.
async fn copy_table(
    source: &mut SqliteConnection,
    target: &mut PgConnection,
    table: &Table,
) -> Result<u64, MigrateStoreError> {
    let failed = |e: sqlx::Error| {
        MigrateStoreError::Failed(format!(
            "the copy failed at table {} and was rolled back: {}",
            table.name,
            StorageError::from(e).detail
        ))
    };
    let columns: Vec<(String, String)> = sqlx::query_as(
        "SELECT column_name::text, data_type::text FROM information_schema.columns \
         WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
    )
    .bind(table.name)
    .fetch_all(&mut *target)
    .await
    .map_err(failed)?;
    let mut kinds = Vec::with_capacity(columns.len());
    for (name, data_type) in &columns {
        kinds.push(match data_type.as_str() {
            "bigint" | "integer" | "smallint" => Kind::Integer,
            "boolean" => Kind::Boolean,
            "double precision" | "real" => Kind::Real,
            "text" | "character varying" => Kind::Text,
            "bytea" => Kind::Bytes,
            other => {
                return Err(MigrateStoreError::Failed(format!(
                    "column {}.{name} has type {other}, which migrate-store cannot copy",
                    table.name
                )));
            }
        });
    }
    let source_columns: BTreeSet<String> = sqlx::query_scalar(&format!(
        "SELECT name FROM pragma_table_info('{}')",
        table.name
    ))
    .fetch_all(&mut *source)
    .await
    .map_err(failed)?
    .into_iter()
    .collect();
    let target_columns: BTreeSet<String> = columns.iter().map(|(n, _)| n.clone()).collect();
    if source_columns != target_columns {
        return Err(MigrateStoreError::Failed(format!(
            "table {} has columns {:?} in the source but {:?} in the target",
            table.name, source_columns, target_columns
        )));
    }
    let list = columns
        .iter()
        .map(|(n, _)| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let select = format!(
        "SELECT {list} FROM \"{}\" ORDER BY {} LIMIT $1 OFFSET $2",
        table.name, table.key
    );
    let per_insert = (BINDS_PER_INSERT / columns.len().max(1)).max(1);
    let mut total = 0u64;
    // Page by page (all in the source's one read transaction), so that a large move log
    // is never held in memory at once.
    loop {
        let rows = sqlx::query(&select)
            .bind(i64::try_from(per_insert).unwrap_or(i64::MAX))
            .bind(i64::try_from(total).unwrap_or(i64::MAX))
            .fetch_all(&mut *source)
            .await
            .map_err(failed)?;
        if rows.is_empty() {
            break;
        }
        let mut batch = Vec::with_capacity(rows.len());
        for row in &rows {
            batch.push(read_row(row, &kinds).map_err(failed)?);
        }
        total += insert(&mut *target, table.name, &list, batch)
            .await
            .map_err(failed)?;
        if rows.len() < per_insert {
            break;
        }
    }
    Ok(total)
}

/// One SQLite row's values, typed as the target's columns want them.
fn read_row(row: &sqlx::sqlite::SqliteRow, kinds: &[Kind]) -> Result<Vec<Value>, sqlx::Error> {
    let mut values = Vec::with_capacity(kinds.len());
    for (i, kind) in kinds.iter().enumerate() {
        if row.try_get_raw(i)?.is_null() {
            values.push(match kind {
                Kind::Integer => Value::Integer(None),
                Kind::Boolean => Value::Boolean(None),
                Kind::Real => Value::Real(None),
                Kind::Text => Value::Text(None),
                Kind::Bytes => Value::Bytes(None),
            });
            continue;
        }
        // Unchecked: SQLite converts between its storage classes as a column's affinity
        // allows (an integer in a REAL column), which is what the copy wants.
        values.push(match kind {
            Kind::Integer => Value::Integer(Some(row.try_get_unchecked(i)?)),
            Kind::Boolean => Value::Boolean(Some(row.try_get_unchecked::<i64, _>(i)? != 0)),
            Kind::Real => Value::Real(Some(row.try_get_unchecked(i)?)),
            Kind::Text => Value::Text(Some(row.try_get_unchecked(i)?)),
            Kind::Bytes => Value::Bytes(Some(row.try_get_unchecked(i)?)),
        });
    }
    Ok(values)
}

/// Inserts the rows of `batch` (not empty); returns how many.
async fn insert(
    target: &mut PgConnection,
    table: &str,
    list: &str,
    batch: Vec<Vec<Value>>,
) -> Result<u64, sqlx::Error> {
    let mut query =
        sqlx::QueryBuilder::<sqlx::Postgres>::new(format!("INSERT INTO \"{table}\" ({list}) "));
    query.push_values(batch, |mut b, row| {
        for value in row {
            match value {
                Value::Integer(v) => b.push_bind(v),
                Value::Boolean(v) => b.push_bind(v),
                Value::Real(v) => b.push_bind(v),
                Value::Text(v) => b.push_bind(v),
                Value::Bytes(v) => b.push_bind(v),
            };
        }
    });
    Ok(query.build().execute(target).await?.rows_affected())
}

/// Moves every identity column of `table` past the largest id copied, so that the next row
/// the bot inserts gets a new id.
async fn reset_identities(conn: &mut PgConnection, table: &str) -> Result<(), sqlx::Error> {
    let identities: Vec<String> = sqlx::query_scalar(
        "SELECT column_name::text FROM information_schema.columns \
         WHERE table_schema = current_schema() AND table_name = $1 AND is_identity = 'YES'",
    )
    .bind(table)
    .fetch_all(&mut *conn)
    .await?;
    for column in identities {
        sqlx::query(&format!(
            "SELECT setval(pg_get_serial_sequence($1, $2), \
             COALESCE((SELECT MAX(\"{column}\") FROM \"{table}\"), 0) + 1, false)"
        ))
        .bind(format!("\"{table}\""))
        .bind(&column)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

impl Store {
    /// Every game's id, in order (for checks over the whole database).
    ///
    /// # Errors
    /// [`StorageError`] when the database cannot be read.
    pub async fn all_game_ids(&self) -> Result<Vec<GameId>, StorageError> {
        let ids: Vec<i64> = sqlx::query_scalar("SELECT game_id FROM games ORDER BY game_id")
            .fetch_all(&self.reader)
            .await?;
        Ok(ids.into_iter().map(GameId).collect())
    }

    /// The number of rows of each table of [`TABLES`], in its order.
    ///
    /// # Errors
    /// [`StorageError`] when the database cannot be read.
    pub async fn table_counts(&self) -> Result<Vec<(&'static str, u64)>, StorageError> {
        let mut counts = Vec::with_capacity(TABLES.len());
        for t in TABLES {
            let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {}", t.name))
                .fetch_one(&self.reader)
                .await?;
            counts.push((t.name, u64::try_from(n).unwrap_or(0)));
        }
        Ok(counts)
    }

    /// The tables of this database's schema (but sqlx's own), by name.
    ///
    /// # Errors
    /// [`StorageError`] when the database cannot be read.
    pub async fn table_names(&self) -> Result<Vec<String>, StorageError> {
        let query = match self.backend {
            Backend::Sqlite => {
                "SELECT name FROM sqlite_master WHERE type = 'table' \
                 AND name NOT LIKE 'sqlite_%' AND name <> '_sqlx_migrations' ORDER BY name"
            }
            Backend::Postgres => {
                "SELECT CAST(table_name AS TEXT) FROM information_schema.tables \
                 WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' \
                 AND table_name <> '_sqlx_migrations' ORDER BY table_name"
            }
        };
        Ok(sqlx::query_scalar(query).fetch_all(&self.reader).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_opened_never_created() {
        assert_eq!(existing_sqlite("sqlite://a.db"), "sqlite://a.db?mode=rw");
        assert_eq!(
            existing_sqlite("sqlite://a.db?cache=shared"),
            "sqlite://a.db?cache=shared&mode=rw"
        );
        assert_eq!(
            existing_sqlite("sqlite://a.db?mode=ro"),
            "sqlite://a.db?mode=ro"
        );
    }

    #[test]
    fn every_table_is_listed_once() {
        let names: BTreeSet<&str> = TABLES.iter().map(|t| t.name).collect();
        assert_eq!(names.len(), TABLES.len());
    }
}
