//! Opening the store: which database a URL names, the connections, and the migrations.

use std::sync::Arc;
use std::time::Duration;

use sqlx::AnyConnection;
use sqlx::any::AnyPoolOptions;
use sqlx::{Connection as _, Executor as _, Row as _};

use super::moves::Appends;
use super::notify::Notices;
use super::patience::Waits;
use super::{StorageError, StorageErrorKind, Store};

/// The database used when none is configured: a file in the working directory.
pub const DEFAULT_URL: &str = "sqlite://gomoku-bot.db";

/// How hard SQLite works to keep a commit through an operating-system crash or power loss.
///
/// Both levels keep every acknowledged commit when the bot's process dies (a crash, a
/// SIGKILL, an out-of-memory kill): in WAL mode a commit is in the operating system's hands
/// once `COMMIT` returns, whatever this setting. They differ only when the whole machine
/// stops: `Normal` may then lose the last commits since the WAL was last synced (the
/// database itself stays consistent), `Full` loses nothing.
///
/// The default is `Full`, because the service promises that nothing acknowledged is lost
/// and the price is affordable: `Full` syncs the WAL on every commit, and measured on the
/// project's machine (`cargo bench --bench service`) a move then takes about 0.32 ms
/// (median) instead of 0.13 ms, and 1,000 games at once still commit well over 2,000 moves
/// per second, far inside the service's targets (2 ms per move, 300 moves per second).
/// `Normal` is there for disks whose syncs are slow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Durability {
    /// `synchronous=NORMAL`: safe across process crashes; a power cut may lose the last
    /// commits.
    Normal,
    /// `synchronous=FULL`: safe across power loss too, one sync per commit.
    #[default]
    Full,
}

/// How to open the database.
#[derive(Clone, Debug)]
pub struct StoreOptions {
    /// `sqlite://path/to/file.db` (created if missing) or `postgres://user@host/database`.
    pub url: String,
    /// See [`Durability`].
    pub durability: Durability,
    /// How long a statement waits for another process's lock before failing with
    /// [`StorageErrorKind::Busy`].
    pub busy_timeout: Duration,
    /// How long a write transaction begun while a member waits for an answer
    /// ([`interactive`](super::interactive)) waits for locks, at most `busy_timeout`: Discord
    /// shows an interaction not answered within 3 s as failed.
    pub interaction_wait: Duration,
    /// Connections used for reads (writes use one connection: SQLite has one writer).
    pub readers: u32,
    /// Extra `PRAGMA`s run on every connection (for example `cache_size`).
    pub pragmas: Vec<(String, String)>,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            url: DEFAULT_URL.to_string(),
            durability: Durability::Full,
            busy_timeout: Duration::from_secs(5),
            interaction_wait: super::INTERACTION_WAIT,
            readers: 4,
            pragmas: Vec::new(),
        }
    }
}

impl StoreOptions {
    /// The defaults, for the database at `url`.
    pub fn new(url: impl Into<String>) -> StoreOptions {
        StoreOptions {
            url: url.into(),
            ..StoreOptions::default()
        }
    }

    /// The defaults, for a database file at `path`.
    pub fn for_file(path: &std::path::Path) -> StoreOptions {
        StoreOptions::new(format!("sqlite://{}", path.display()))
    }
}

/// Which database a store runs on, chosen by the URL's scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// `sqlite:`: one file, one process (the default).
    Sqlite,
    /// `postgres:` or `postgresql:`: a server, any number of processes.
    Postgres,
}

impl Backend {
    /// The store a URL names, or why none does.
    ///
    /// # Errors
    /// [`StorageErrorKind::Config`] for any other scheme, or no scheme at all.
    pub fn of_url(url: &str) -> Result<Backend, StorageError> {
        let scheme = url.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
        match scheme.as_deref() {
            Some("sqlite") => Ok(Backend::Sqlite),
            Some("postgres" | "postgresql") => Ok(Backend::Postgres),
            _ => Err(StorageError {
                kind: StorageErrorKind::Config,
                detail: "unsupported database URL: it must start with sqlite:// or postgres://"
                    .to_string(),
            }),
        }
    }

    /// The name for messages: `SQLite` or `PostgreSQL`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres => "PostgreSQL",
        }
    }
}

/// The SQLite URL with `mode=rwc` (create the file if missing) unless it names a mode.
fn sqlite_url(url: &str) -> String {
    match url.split_once('?') {
        None => format!("{url}?mode=rwc"),
        Some((_, query)) if query.split('&').any(|kv| kv.starts_with("mode=")) => url.to_string(),
        Some(_) => format!("{url}&mode=rwc"),
    }
}

/// Statements run on every new connection.
type Setup = Arc<Vec<String>>;

fn pool_options(connections: u32, setup: Setup) -> AnyPoolOptions {
    AnyPoolOptions::new()
        .max_connections(connections.max(1))
        .after_connect(move |conn: &mut AnyConnection, _| {
            let setup = Arc::clone(&setup);
            Box::pin(async move {
                for statement in setup.iter() {
                    conn.execute(statement.as_str()).await?;
                }
                Ok(())
            })
        })
}

impl Store {
    /// Opens (creating if missing) the database and brings its schema up to date.
    ///
    /// # Errors
    /// [`StorageError`] when the URL is wrong, the database cannot be reached, or a migration
    /// fails.
    pub async fn open(options: &StoreOptions) -> Result<Store, StorageError> {
        sqlx::any::install_default_drivers();
        match Backend::of_url(&options.url)? {
            Backend::Sqlite => open_sqlite(options).await,
            Backend::Postgres => open_postgres(options).await,
        }
    }

    /// Checks the database's own consistency (SQLite: `PRAGMA integrity_check`): `Ok(())`
    /// when it is sound. PostgreSQL checks its pages itself; there this only asks that the
    /// server answers.
    ///
    /// # Errors
    /// [`StorageErrorKind::Corrupt`] with SQLite's findings, or the failure to ask.
    pub async fn check_integrity(&self) -> Result<(), StorageError> {
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT 1").fetch_one(&self.reader).await?;
            return Ok(());
        }
        let rows = sqlx::query("PRAGMA integrity_check")
            .fetch_all(&self.reader)
            .await?;
        let lines: Vec<String> = rows
            .iter()
            .map(|r| r.try_get::<String, _>(0))
            .collect::<Result<_, _>>()?;
        if lines == ["ok"] {
            Ok(())
        } else {
            Err(StorageError::corrupt(lines.join("; ")))
        }
    }
}

async fn open_sqlite(options: &StoreOptions) -> Result<Store, StorageError> {
    let url = sqlite_url(&options.url);
    let mut setup = vec![
        // First, so that the statements after it wait for another process's lock too.
        format!("PRAGMA busy_timeout = {}", options.busy_timeout.as_millis()),
        format!(
            "PRAGMA synchronous = {}",
            match options.durability {
                Durability::Normal => "NORMAL",
                Durability::Full => "FULL",
            }
        ),
    ];
    for (key, value) in &options.pragmas {
        setup.push(format!("PRAGMA {key} = {value}"));
    }
    // Migrations run on a connection of their own with foreign keys off, as SQLite's
    // documented way to rebuild a table requires (a CHECK cannot be altered in place, and
    // with foreign keys on, dropping the old table would delete or orphan its children).
    // The references are checked as a whole once the schema is up to date. WAL is a lasting
    // property of the file, set here once: readers then never block the writer.
    // One plain connection first: a file that is not a database (or is damaged) fails here
    // at once with SQLite's reason, where a pool would retry it until its acquire timeout
    // and report only a timeout. Reading the header writes nothing.
    let mut probe = AnyConnection::connect(&url).await?;
    let header = match probe.execute(setup[0].as_str()).await {
        Ok(_) => sqlx::query("PRAGMA schema_version")
            .fetch_one(&mut probe)
            .await
            .map(|_| ()),
        Err(e) => Err(e),
    };
    let _ = probe.close().await;
    header?;
    let mut migrating_setup = setup.clone();
    migrating_setup.push("PRAGMA journal_mode = WAL".to_string());
    migrating_setup.push("PRAGMA foreign_keys = OFF".to_string());
    let migrating = pool_options(1, Arc::new(migrating_setup))
        .connect(&url)
        .await?;
    let migrated = sqlx::migrate!("./migrations/sqlite").run(&migrating).await;
    let dangling = match migrated {
        Ok(()) => sqlx::query("PRAGMA foreign_key_check")
            .fetch_all(&migrating)
            .await
            .map_err(StorageError::from),
        Err(e) => Err(e.into()),
    };
    migrating.close().await;
    let dangling = dangling?;
    if !dangling.is_empty() {
        return Err(StorageError::corrupt(format!(
            "{} rows refer to missing rows after the schema upgrade",
            dangling.len()
        )));
    }
    setup.push("PRAGMA foreign_keys = ON".to_string());
    let setup = Arc::new(setup);
    let writer = pool_options(1, Arc::clone(&setup)).connect(&url).await?;
    let reader = pool_options(options.readers, setup).connect(&url).await?;
    Ok(Store {
        backend: Backend::Sqlite,
        writer,
        reader,
        appends: Arc::default(),
        notices: None,
        waits: Waits::new(options.busy_timeout, options.interaction_wait),
    })
}

/// How long the first connection to a PostgreSQL server may take before the server is
/// taken as unreachable.
const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// How many group commits of moves run at once on PostgreSQL (one per lane, games spread over
/// them). One, as on SQLite, left a process committing one transaction at a time: 627 moves/s
/// through the fake Discord at 46% of two cores (`cargo bench --bench discord`).
const POSTGRES_LANES: u32 = 4;

async fn open_postgres(options: &StoreOptions) -> Result<Store, StorageError> {
    // A statement waiting for another transaction's row lock gives up like SQLite's busy
    // handler does.
    let setup = Arc::new(vec![format!(
        "SET lock_timeout = {}",
        options.busy_timeout.as_millis()
    )]);
    // One plain connection first: a server that is down, refused credentials or a database
    // that does not exist fail here at once with the server's reason, where the pool would
    // retry a refused connection until its acquire timeout and report only a timeout.
    let probe = tokio::time::timeout(PROBE_TIMEOUT, AnyConnection::connect(&options.url)).await;
    match probe {
        Ok(Ok(conn)) => {
            let _ = conn.close().await;
        }
        Ok(Err(e)) => return Err(e.into()),
        Err(_) => {
            return Err(StorageError {
                kind: StorageErrorKind::Unavailable,
                detail: format!(
                    "the server did not answer within {} s",
                    PROBE_TIMEOUT.as_secs()
                ),
            });
        }
    }
    // Each commit lane holds a connection while it commits; the readers keep theirs.
    let pool = pool_options(options.readers.saturating_add(POSTGRES_LANES), setup)
        .acquire_timeout(Duration::from_secs(10))
        .connect(&options.url)
        .await?;
    // The migrator holds an advisory lock while it works, so processes starting together
    // apply each migration once.
    if let Err(e) = sqlx::migrate!("./migrations/postgres").run(&pool).await {
        pool.close().await;
        return Err(e.into());
    }
    let schema = match Store::current_schema(&pool).await {
        Ok(schema) => schema,
        Err(e) => {
            pool.close().await;
            return Err(e);
        }
    };
    Ok(Store {
        backend: Backend::Postgres,
        writer: pool.clone(),
        reader: pool,
        appends: Arc::new(Appends::with_lanes(POSTGRES_LANES as usize)),
        notices: Some(Arc::new(Notices::new(&options.url, &schema))),
        waits: Waits::new(options.busy_timeout, options.interaction_wait),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scheme_picks_the_store() {
        assert_eq!(Backend::of_url("sqlite://bot.db"), Ok(Backend::Sqlite));
        assert_eq!(Backend::of_url("sqlite:bot.db"), Ok(Backend::Sqlite));
        assert_eq!(
            Backend::of_url("postgres://bot@db/games"),
            Ok(Backend::Postgres)
        );
        assert_eq!(
            Backend::of_url("PostgreSQL://bot@db/games"),
            Ok(Backend::Postgres)
        );
        for bad in ["mysql://db/games", "bot.db", "", "://x", "sqlite"] {
            let e = Backend::of_url(bad).unwrap_err();
            assert_eq!(e.kind, StorageErrorKind::Config, "{bad}");
        }
    }

    #[test]
    fn sqlite_files_are_created_unless_the_url_names_a_mode() {
        assert_eq!(sqlite_url("sqlite://a.db"), "sqlite://a.db?mode=rwc");
        assert_eq!(
            sqlite_url("sqlite://a.db?cache=shared"),
            "sqlite://a.db?cache=shared&mode=rwc"
        );
        assert_eq!(sqlite_url("sqlite://a.db?mode=ro"), "sqlite://a.db?mode=ro");
    }

    fn sql_files(dir: &str) -> Vec<String> {
        let path = format!("{}/migrations/{dir}", env!("CARGO_MANIFEST_DIR"));
        let mut names: Vec<String> = std::fs::read_dir(path)
            .expect("migrations folder")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".sql"))
            .collect();
        names.sort();
        names
    }

    /// Every schema change after the PostgreSQL baseline exists for both stores, under the
    /// same name, and nothing lies where neither migrator looks.
    #[test]
    fn both_stores_have_every_migration() {
        assert_eq!(sql_files(""), Vec::<String>::new(), "migrations/*.sql");
        let sqlite = sql_files("sqlite");
        let postgres = sql_files("postgres");
        let baseline = postgres.first().expect("a PostgreSQL baseline").clone();
        assert!(baseline.ends_with("_baseline.sql"), "{baseline}");
        assert!(sqlite.contains(&baseline.replace("_baseline", "_engine_games")));
        let version = |n: &str| n.split('_').next().unwrap_or_default().to_string();
        let later: Vec<&String> = sqlite
            .iter()
            .filter(|n| version(n) > version(&baseline))
            .collect();
        assert_eq!(later, postgres[1..].iter().collect::<Vec<_>>());
    }
}
