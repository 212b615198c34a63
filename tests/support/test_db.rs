//! A database of its own for each test, on either store: a SQLite file in a temporary
//! directory, or a PostgreSQL schema of its own in the server named by `TEST_DATABASE_URL`.
//!
//! One body of tests runs on both stores with [`both_stores!`]: it makes a `sqlite` and a
//! `postgres` test of one `async fn name(db: TestDb)`. Without `TEST_DATABASE_URL` the
//! PostgreSQL half prints one line saying it was skipped, and why, and passes.
//!
//! Why schemas, not databases: `DROP DATABASE` forces a checkpoint (about two seconds each
//! on this machine), while a schema is created and dropped in milliseconds. Each test's
//! connections set `search_path` to its schema, so the migrations, the tables, the
//! append-only trigger and `_sqlx_migrations` all live there and tests never meet.

// Each test crate uses a different part of this file.
#![allow(dead_code, unused_macros)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use gomoku_bot::store::{Backend, StoreOptions};
use sqlx::{Connection as _, Executor as _, PgConnection};

/// The environment variable naming the PostgreSQL server for tests.
pub const TEST_DATABASE_URL: &str = "TEST_DATABASE_URL";

/// Every schema this harness makes starts so, then the test process's id, then a counter.
const PREFIX: &str = "gbt_";

/// One test's database.
pub struct TestDb {
    /// Which store it is.
    pub backend: Backend,
    /// The URL a store opens it with.
    pub url: String,
    /// SQLite: the file (kept alive by `_dir`).
    path: Option<PathBuf>,
    /// SQLite: the temporary directory holding the file.
    _dir: Option<tempfile::TempDir>,
    /// PostgreSQL: the server's URL and the schema to drop afterwards.
    schema: Option<(String, String)>,
}

/// Why the PostgreSQL half of a test does not run here (said once per test, however many
/// cases a property test runs).
pub fn postgres_skipped(test: &str) {
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut said = SAID
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if said.iter().any(|t| t == test) {
        return;
    }
    said.push(test.to_string());
    println!(
        "skipped {test} on PostgreSQL: {TEST_DATABASE_URL} is not set \
         (set it to e.g. postgres://root@127.0.0.1:5432/test to run it)"
    );
}

impl TestDb {
    /// A new, empty SQLite file in a temporary directory (not created yet: the store
    /// creates it).
    pub fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        TestDb {
            backend: Backend::Sqlite,
            url: format!("sqlite://{}", path.display()),
            path: Some(path),
            _dir: Some(dir),
            schema: None,
        }
    }

    /// A new, empty database of this store, or `None` when it is PostgreSQL and
    /// `TEST_DATABASE_URL` is not set (see [`TestDb::postgres`]).
    pub async fn of(backend: Backend, test: &str) -> Option<TestDb> {
        match backend {
            Backend::Sqlite => Some(TestDb::sqlite()),
            Backend::Postgres => TestDb::postgres(test).await,
        }
    }

    /// A new, empty PostgreSQL schema, or `None` (after saying so) when
    /// `TEST_DATABASE_URL` is not set. `test` names the test for the message.
    ///
    /// # Panics
    /// When the server named by `TEST_DATABASE_URL` cannot be reached: a set variable is a
    /// promise that PostgreSQL is there, and a silent skip would hide a broken CI.
    pub async fn postgres(test: &str) -> Option<TestDb> {
        let Some(server) = std::env::var(TEST_DATABASE_URL)
            .ok()
            .filter(|u| !u.is_empty())
        else {
            postgres_skipped(test);
            return None;
        };
        Some(TestDb::postgres_at(&server).await)
    }

    /// A new, empty schema in the PostgreSQL database at `server`.
    pub async fn postgres_at(server: &str) -> TestDb {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let mut conn = PgConnection::connect(server)
            .await
            .unwrap_or_else(|e| panic!("{TEST_DATABASE_URL} ({server}) cannot be reached: {e}"));
        if NEXT.load(Ordering::Relaxed) == 0 {
            drop_orphans(&mut conn).await;
        }
        let schema = format!(
            "{PREFIX}{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        conn.execute(format!("DROP SCHEMA IF EXISTS {schema} CASCADE").as_str())
            .await
            .expect("drop an old schema of the same name");
        conn.execute(format!("CREATE SCHEMA {schema}").as_str())
            .await
            .expect("create the test's schema");
        conn.close().await.ok();
        TestDb {
            backend: Backend::Postgres,
            url: with_search_path(server, &schema),
            path: None,
            _dir: None,
            schema: Some((server.to_string(), schema)),
        }
    }

    /// The store options for this database (the defaults).
    pub fn options(&self) -> StoreOptions {
        StoreOptions::new(self.url.clone())
    }

    /// SQLite: the database file. PostgreSQL: `None`.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The SQLite file, for tests that are about SQLite files.
    ///
    /// # Panics
    /// On PostgreSQL.
    pub fn file(&self) -> &Path {
        self.path().expect("a SQLite test database")
    }

    /// Whether this is the PostgreSQL store.
    pub fn is_postgres(&self) -> bool {
        self.backend == Backend::Postgres
    }

    /// A raw connection of sqlx's `Any` driver to this database, beside the store (for
    /// tests that tamper with rows or hold locks). Placeholders are `$1, $2, ...`.
    pub async fn raw(&self) -> sqlx::AnyConnection {
        sqlx::any::install_default_drivers();
        sqlx::AnyConnection::connect(&self.url)
            .await
            .expect("raw connection")
    }
}

impl TestDb {
    /// Another session, beside the store, keeping writers out of the move log until
    /// `ROLLBACK` on the returned connection: SQLite's write lock (`BEGIN IMMEDIATE`), or on
    /// PostgreSQL `LOCK TABLE moves IN EXCLUSIVE MODE` (readers still get in).
    pub async fn hold_move_log(&self) -> sqlx::AnyConnection {
        let mut other = self.raw().await;
        let lock: &[&str] = if self.is_postgres() {
            &["BEGIN", "LOCK TABLE moves IN EXCLUSIVE MODE"]
        } else {
            &["BEGIN IMMEDIATE"]
        };
        for statement in lock {
            sqlx::query(statement)
                .execute(&mut other)
                .await
                .expect("hold the move log");
        }
        other
    }

    /// Another session, beside the store, holding a lock that a move in `game` (in every game
    /// when `None`) must wait for: SQLite's write lock (`BEGIN IMMEDIATE`), or on PostgreSQL
    /// the games' rows (`SELECT ... FOR UPDATE`). `ROLLBACK` on the returned connection
    /// releases it.
    pub async fn hold_move_lock(&self, game: Option<i64>) -> sqlx::AnyConnection {
        let mut other = self.raw().await;
        if self.is_postgres() {
            sqlx::query("BEGIN")
                .execute(&mut other)
                .await
                .expect("BEGIN");
            sqlx::query("SELECT game_id FROM games WHERE $1 IS NULL OR game_id = $1 FOR UPDATE")
                .bind(game)
                .fetch_all(&mut other)
                .await
                .expect("lock the games' rows");
        } else {
            sqlx::query("BEGIN IMMEDIATE")
                .execute(&mut other)
                .await
                .expect("take the write lock");
        }
        other
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let Some((server, schema)) = self.schema.take() else {
            return;
        };
        // Drop runs inside the test's runtime, which cannot be blocked on: the schema is
        // dropped from a thread of its own with a small runtime of its own.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async {
                let mut conn = PgConnection::connect(&server).await?;
                // The test's own connections may still be open, even inside a transaction
                // that their runtime (blocked here) would roll back later: end them first,
                // or the drop would wait for their locks forever.
                sqlx::query(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                     WHERE application_name = $1 AND pid <> pg_backend_pid()",
                )
                .bind(&schema)
                .execute(&mut conn)
                .await?;
                conn.execute(format!("DROP SCHEMA IF EXISTS {schema} CASCADE").as_str())
                    .await?;
                conn.close().await
            })
        })
        .join();
        if let Ok(Err(e)) = dropped {
            eprintln!("the test's schema was not dropped: {e}");
        }
    }
}

/// `server` with `search_path` set to `schema` on every connection, and the schema's name
/// as the connections' application name (so that they can be found and ended).
fn with_search_path(server: &str, schema: &str) -> String {
    let separator = if server.contains('?') { '&' } else { '?' };
    format!("{server}{separator}options=-c%20search_path%3D{schema}&application_name={schema}")
}

/// Drops the schemas left by test processes that no longer run (killed before their
/// `Drop`), so that an interrupted run does not leave them forever.
async fn drop_orphans(conn: &mut PgConnection) {
    let names: Vec<String> =
        sqlx::query_scalar("SELECT nspname::text FROM pg_namespace WHERE nspname LIKE 'gbt\\_%'")
            .fetch_all(&mut *conn)
            .await
            .unwrap_or_default();
    for name in names {
        let pid = name
            .strip_prefix(PREFIX)
            .and_then(|rest| rest.split('_').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        let alive = pid.is_none_or(|pid| Path::new(&format!("/proc/{pid}")).exists());
        if !alive {
            let _ = conn
                .execute(format!("DROP SCHEMA IF EXISTS {name} CASCADE").as_str())
                .await;
        }
    }
}

/// Makes a `sqlite` and a `postgres` test (in a module named after the function) of each
/// `async fn name(db: TestDb)`. `multi_thread N` gives both a multi-threaded runtime of N
/// workers.
macro_rules! both_stores {
    ($($name:ident),+ $(,)?) => {
        $(
            mod $name {
                #[tokio::test]
                async fn sqlite() {
                    super::$name($crate::test_db::TestDb::sqlite()).await;
                }
                #[tokio::test]
                async fn postgres() {
                    if let Some(db) = $crate::test_db::TestDb::postgres(
                        concat!(module_path!())
                    ).await {
                        super::$name(db).await;
                    }
                }
            }
        )+
    };
    (multi_thread $threads:literal: $($name:ident),+ $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = $threads)]
                async fn sqlite() {
                    super::$name($crate::test_db::TestDb::sqlite()).await;
                }
                #[tokio::test(flavor = "multi_thread", worker_threads = $threads)]
                async fn postgres() {
                    if let Some(db) = $crate::test_db::TestDb::postgres(
                        concat!(module_path!())
                    ).await {
                        super::$name(db).await;
                    }
                }
            }
        )+
    };
}
