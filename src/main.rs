//! The `gomoku-bot` binary: the Discord bot (`run`, the default) and command-line tools.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use gomoku_bot::cli;

/// mimalloc instead of glibc's malloc: under load the bot allocates on every tokio worker
/// (HTTP, JSON, picture bands), where glibc's arenas cost 12.5% of the process's CPU.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "gomoku-bot",
    version,
    about = "Gomoku and Pente: rules tools and the Discord bot"
)]
struct Args {
    /// What to do; without a command the bot runs.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Runs the Discord bot (the default): SQLite by default, migrations applied at start,
    /// token from DISCORD_TOKEN or the configuration file.
    Run {
        /// The configuration file (optional; see config.example.toml).
        #[arg(long, default_value = "config.toml", value_name = "FILE")]
        config: std::path::PathBuf,
        /// The gateway shards this process runs, FIRST-LAST counted from 0 (e.g. 0-3); needs
        /// --shard-total. Without it, every shard Discord recommends (discord.shards).
        #[arg(long, value_name = "FIRST-LAST")]
        shards: Option<String>,
        /// How many shards the whole bot has; every process gives the same total. Alone, this
        /// process runs all of them (discord.shard_total).
        #[arg(long, value_name = "N")]
        shard_total: Option<u32>,
    },
    /// Thinks for the computer opponent without a gateway connection (PostgreSQL only): takes
    /// the moves it owes from the database, commits them, and posts the boards through
    /// Discord's REST API. Any number of workers and bot processes share the jobs.
    Worker {
        /// Moves thought about at once, on as many threads (1-64; default: the configuration's
        /// game.engine_threads, at least 1).
        #[arg(long, value_name = "N")]
        engine_threads: Option<usize>,
        /// The configuration file (optional; see config.example.toml).
        #[arg(long, default_value = "config.toml", value_name = "FILE")]
        config: std::path::PathBuf,
    },
    /// Replays a move list and prints the resulting position as one JSON object.
    Replay {
        /// The preset: gomoku, gomoku-standard, pente, keryo or renju.
        #[arg(long)]
        rules: String,
        /// An option as key=value (repeatable), e.g. --set size=13.
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// The moves, separated by spaces: "K10 L10 take:1".
        #[arg(long, default_value = "")]
        moves: String,
    },
    /// Draws a position as a PNG and/or the whole game as an animated GIF.
    Render {
        /// The preset: gomoku, gomoku-standard, pente, keryo or renju.
        #[arg(long)]
        rules: String,
        /// An option as key=value (repeatable), e.g. --set size=13.
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// The moves, separated by spaces: "K10 L10 take:1".
        #[arg(long, default_value = "")]
        moves: String,
        /// light or dark.
        #[arg(long, default_value = "light")]
        theme: String,
        /// Leave out the coordinates along the edges.
        #[arg(long)]
        no_coordinates: bool,
        /// Do not mark the last move.
        #[arg(long)]
        no_highlight: bool,
        /// Player names by seat, separated by commas: "Ann,Bo".
        #[arg(long, default_value = "")]
        names: String,
        /// Also draw a translucent stone of the mover's colour here (move preview).
        #[arg(long, value_name = "POINT")]
        tentative: Option<String>,
        /// Where to write the PNG of the final position.
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
        /// Where to write the animated GIF of the whole game.
        #[arg(long, value_name = "FILE")]
        replay: Option<std::path::PathBuf>,
    },
    /// Plays the Gomocup "pbrain" protocol on stdin/stdout (see README.md, "pbrain").
    Pbrain {
        /// The preset: gomoku, gomoku-standard, pente, keryo or renju.
        #[arg(long, default_value = "gomoku")]
        rules: String,
        /// An option as key=value (repeatable), e.g. --set size=19.
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// The engine's level, 1 to 6.
        #[arg(long, default_value = "3")]
        level: String,
    },
    /// Plays engine levels against each other and prints the score, Elo and move times.
    Arena {
        /// The preset: gomoku, gomoku-standard, pente, keryo or renju.
        #[arg(long)]
        rules: String,
        /// An option as key=value (repeatable), e.g. --set size=13.
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// Side A, as level=N, level=N,key=value… (a level with its style changed, for A/B
        /// tests), or pbrain=COMMAND for an external Gomocup engine.
        #[arg(long, value_name = "level=N")]
        a: String,
        /// Side B, written as side A.
        #[arg(long, value_name = "level=N")]
        b: String,
        /// An external (pbrain=…) side's time per move in milliseconds (INFO timeout_turn).
        #[arg(long, default_value_t = 2000)]
        pbrain_turn_ms: u64,
        /// Games to play (colours alternate).
        #[arg(long, default_value_t = 20)]
        games: usize,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Multiplies every level's time budget (1 = the real budgets).
        #[arg(long, default_value_t = 1.0)]
        budget_scale: f64,
        /// Seed of the openings and the engines' choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random stones near the centre before the engines take over.
        #[arg(long, default_value_t = 3)]
        opening_stones: usize,
        /// A file of openings, one a line (moves as the records write them; `#` comments),
        /// played in turn by the game pairs instead of random stones.
        #[arg(long, value_name = "FILE")]
        openings: Option<String>,
        /// Also print every game's moves.
        #[arg(long)]
        records: bool,
    },
    /// Asks a running bot's /readyz (for Docker's HEALTHCHECK); exits 0 when it is ready.
    Healthcheck {
        /// The bot's metrics.listen address (default: the METRICS_LISTEN environment variable).
        #[arg(long, value_name = "HOST:PORT")]
        addr: Option<String>,
        /// The endpoint to ask: /readyz (ready to work) or /healthz (the process is up).
        #[arg(long, default_value = "/readyz")]
        path: String,
    },
    /// Reviews a finished game with the engine: the win-chance chart as a PNG, and per move
    /// the evaluation, the engine's best move and the class (mistake, blunder...).
    Review {
        /// The preset: gomoku, gomoku-standard, pente, keryo or renju.
        #[arg(long)]
        rules: String,
        /// An option as key=value (repeatable), e.g. --set size=13.
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// The moves of the whole (finished) game, separated by spaces.
        #[arg(long)]
        moves: String,
        /// Where to write the chart (PNG).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
        /// Print the review as one JSON object instead of words.
        #[arg(long)]
        json: bool,
        /// Nodes the engine searches per position.
        #[arg(long, default_value_t = gomoku_bot::service::review::NODE_BUDGET)]
        nodes: u64,
        /// The chart's theme: light or dark.
        #[arg(long, default_value = "light")]
        theme: String,
    },
    /// Copies every table of a SQLite database into an empty PostgreSQL one (ids kept), in one
    /// transaction, then checks the row counts and replays every game's move log. Stop the
    /// bot first. The source is brought up to this release's schema, as `run` would do.
    MigrateStore {
        /// The SQLite database to copy: sqlite://path/to/gomoku-bot.db (must exist).
        #[arg(long, value_name = "URL")]
        from: String,
        /// The empty PostgreSQL database to fill: postgres://user@host/database.
        #[arg(long, value_name = "URL")]
        to: String,
    },
    /// Prints a rule set in words.
    Rules {
        /// The preset (default: pente).
        preset: Option<String>,
        /// An option as key=value (repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
    },
}

fn usage_error(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                e.exit();
            }
            // Bad usage is one line on stderr (DESIGN.md section 3), not clap's full usage.
            let text = e.to_string();
            let line: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more"))
                .filter(|l| !l.is_empty())
                .collect();
            return usage_error(line.join(" ").trim_start_matches("error: "));
        }
    };
    let command = args.command.unwrap_or(Command::Run {
        config: std::path::PathBuf::from("config.toml"),
        shards: None,
        shard_total: None,
    });
    match command {
        Command::Run {
            config,
            shards,
            shard_total,
        } => run_bot(&config, shards, shard_total),
        Command::Worker {
            engine_threads,
            config,
        } => run_worker(&config, engine_threads),
        Command::Replay { rules, set, moves } => {
            let rules = match cli::rule_set(&rules, &set) {
                Ok(r) => r,
                Err(e) => return usage_error(e),
            };
            let (game, error) = cli::play_tokens(rules, &moves);
            let refused = error.is_some();
            let out = cli::replay_output(&game, error);
            let json = serde_json::to_string(&out).expect("plain data serializes");
            let mut stdout = std::io::stdout().lock();
            if writeln!(stdout, "{json}").is_err() {
                return ExitCode::from(1);
            }
            if refused {
                ExitCode::from(3)
            } else {
                ExitCode::SUCCESS
            }
        }
        Command::Render {
            rules,
            set,
            moves,
            theme,
            no_coordinates,
            no_highlight,
            names,
            tentative,
            out,
            replay,
        } => render_command(RenderArgs {
            rules,
            set,
            moves,
            theme,
            coordinates: !no_coordinates,
            highlight: !no_highlight,
            names,
            tentative,
            out,
            replay,
        }),
        Command::Pbrain { rules, set, level } => pbrain_command(&rules, set, &level),
        Command::Arena {
            rules,
            set,
            a,
            b,
            games,
            threads,
            budget_scale,
            seed,
            opening_stones,
            openings,
            records,
            pbrain_turn_ms,
        } => {
            let args = gomoku_bot::engine::arena::ArenaArgs {
                rules,
                set,
                a,
                b,
                pbrain_turn_ms,
                games,
                threads,
                budget_scale,
                seed,
                opening_stones,
                openings,
                records,
            };
            match args.run() {
                Ok(report) => {
                    println!("{report}");
                    ExitCode::SUCCESS
                }
                Err(e) => usage_error(e),
            }
        }
        Command::Healthcheck { addr, path } => {
            let Some(addr) = addr.or_else(|| std::env::var("METRICS_LISTEN").ok()) else {
                return usage_error("healthcheck needs --addr or METRICS_LISTEN");
            };
            match gomoku_bot::ops::healthcheck::check(
                addr.trim(),
                &path,
                std::time::Duration::from_secs(3),
            ) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("unhealthy: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Review {
            rules,
            set,
            moves,
            out,
            json,
            nodes,
            theme,
        } => review_command(&rules, &set, &moves, out.as_deref(), json, nodes, &theme),
        Command::MigrateStore { from, to } => migrate_store_command(&from, &to),
        Command::Rules { preset, set } => {
            match cli::rule_set(preset.as_deref().unwrap_or("pente"), &set) {
                Ok(r) => {
                    println!("{}", r.describe());
                    println!("\nAs options: {}", r.to_spec());
                    ExitCode::SUCCESS
                }
                Err(e) => usage_error(e),
            }
        }
    }
}

/// Runs a pbrain session on stdin/stdout; bad usage exits 2 before any input is read.
fn pbrain_command(rules: &str, set: Vec<String>, level: &str) -> ExitCode {
    use gomoku_bot::engine::pbrain::{Session, Setup};

    let preset = match rules.parse() {
        Ok(p) => p,
        Err(e) => return usage_error(e),
    };
    let level = match level.parse() {
        Ok(l) => l,
        Err(e) => return usage_error(e),
    };
    let setup = Setup {
        preset,
        options: set,
        level,
    };
    let mut session = match Session::new(setup) {
        Ok(s) => s,
        Err(e) => return usage_error(e),
    };
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match session.run(stdin, stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// Reviews a finished game: chart to `out`, the review to stdout (JSON or words).
fn review_command(
    rules: &str,
    set: &[String],
    moves: &str,
    out: Option<&std::path::Path>,
    json: bool,
    nodes: u64,
    theme: &str,
) -> ExitCode {
    use gomoku_bot::service::review::Analyser;

    let rules = match cli::rule_set(rules, set) {
        Ok(r) => r,
        Err(e) => return usage_error(e),
    };
    let theme: gomoku_bot::render::Theme = match theme.parse() {
        Ok(t) => t,
        Err(e) => return usage_error(e),
    };
    if nodes == 0 {
        return usage_error("--nodes must be at least 1");
    }
    let (game, error) = cli::play_tokens(rules, moves);
    if let Some((index, token, e)) = error {
        eprintln!("error: move {} `{token}` is refused: {e}", index + 1);
        return ExitCode::from(3);
    }
    let mut analyser = match Analyser::with_budget(rules, game.record(), nodes) {
        Ok(a) => a,
        Err(e) => return usage_error(e),
    };
    let evals = analyser.run(|_, _| {});
    let review = analyser.review(&evals);
    if let Some(path) = out {
        let chart = review.chart("Black's chance of winning".into(), "Move".into());
        let png = gomoku_bot::render::render_chart_png(&chart, theme);
        if let Err(e) = std::fs::write(path, png) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(1);
        }
    }
    let mut stdout = std::io::stdout().lock();
    let written = if json {
        let text = serde_json::to_string(&review).expect("plain data serializes");
        writeln!(stdout, "{text}")
    } else {
        let mut text = String::new();
        for p in &review.players {
            text.push_str(&format!(
                "Seat {}: accuracy {:.0}%; inaccuracies: {}, mistakes: {}, blunders: {}; moves judged: {}\n",
                p.seat, p.accuracy, p.inaccuracies, p.mistakes, p.blunders, p.moves
            ));
        }
        for &i in &review.turning_points {
            if let Some(line) = review.describe_english(i) {
                text.push_str(&line);
                text.push('\n');
            }
        }
        write!(stdout, "{text}")
    };
    if written.is_err() {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// `migrate-store`: the copy, then the checks on the copy. Bad input exits 2 (nothing
/// written); a failed copy (rolled back) or a failed check exits 1.
fn migrate_store_command(from: &str, to: &str) -> ExitCode {
    use gomoku_bot::store::{MigrateStoreError, Store, StoreOptions, redact_url};

    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::from(1);
        }
    };
    runtime.block_on(async {
        let copied = match gomoku_bot::store::copy_sqlite_to_postgres(from, to).await {
            Ok(c) => c,
            Err(MigrateStoreError::Refused(line)) => return usage_error(line),
            Err(MigrateStoreError::Failed(line)) => {
                eprintln!("error: {line}");
                return ExitCode::from(1);
            }
        };
        for (table, rows) in &copied.tables {
            println!("copied {table}: {rows} rows");
        }
        let check_failed = |what: String| {
            eprintln!(
                "error: the copy into {} was committed, but {what}: do not start the bot on it; empty it and copy again",
                redact_url(to)
            );
            ExitCode::from(1)
        };
        let target = match Store::open(&StoreOptions::new(to)).await {
            Ok(s) => s,
            Err(e) => return check_failed(format!("it cannot be opened to check it: {}", e.detail)),
        };
        match target.table_counts().await {
            Ok(counts) if counts == copied.tables => {}
            Ok(counts) => {
                return check_failed(format!(
                    "its row counts {counts:?} differ from the copied {:?}",
                    copied.tables
                ));
            }
            Err(e) => return check_failed(format!("counting its rows failed: {}", e.detail)),
        }
        let games = match gomoku_bot::service::replay_every_game(&target).await {
            Ok(n) => n,
            Err(e) => return check_failed(format!("a replay differs: {}", e.detail)),
        };
        target.close().await;
        println!(
            "checked: every table's row count is the source's, and {games} games' move logs replay to their stored state"
        );
        ExitCode::SUCCESS
    })
}

/// Loads the configuration, sets up logging and runs the bot until it stops.
fn run_bot(path: &std::path::Path, shards: Option<String>, shard_total: Option<u32>) -> ExitCode {
    let mut config = match gomoku_bot::config::Config::load(path, |k| std::env::var(k).ok()) {
        Ok(c) => c,
        Err(e) => return usage_error(e),
    };
    // The command line overrides the file's shards; a bad range stops here, before the
    // database or Discord is touched.
    if shards.is_some() || shard_total.is_some() {
        config.discord.shards = shards.or(config.discord.shards);
        config.discord.shard_total = shard_total.or(config.discord.shard_total);
        if let Err(gomoku_bot::config::ConfigError::Invalid { why, .. }) =
            config.discord.shard_plan()
        {
            return usage_error(format!("--shards/--shard-total: {why}"));
        }
    }
    serve(config, "the bot stopped", gomoku_bot::discord::run)
}

/// Loads the configuration and runs an engine worker until it stops; refused at once (one
/// line, status 2, nothing written) on a database that is not PostgreSQL.
fn run_worker(path: &std::path::Path, threads: Option<usize>) -> ExitCode {
    let config = match gomoku_bot::config::Config::load(path, |k| std::env::var(k).ok()) {
        Ok(c) => c,
        Err(e) => return usage_error(e),
    };
    let threads = threads.unwrap_or(config.game.engine_threads.max(1));
    if !(1..=64).contains(&threads) {
        return usage_error(format!(
            "--engine-threads {threads}: must be between 1 and 64"
        ));
    }
    if let Some(why) = gomoku_bot::discord::worker::refusal(&config.database.url) {
        return usage_error(why);
    }
    serve(config, "the worker stopped", move |config, operations| {
        gomoku_bot::discord::worker::run(config, threads, operations)
    })
}

/// Sets up logging, the async runtime and the operations listener for `config`, then runs
/// `role` (the bot, or a worker) until it stops; `stopped` is the log line of a failure that
/// a restart may mend.
fn serve<F, Fut>(config: gomoku_bot::config::Config, stopped: &str, role: F) -> ExitCode
where
    F: FnOnce(gomoku_bot::config::Config, gomoku_bot::discord::Operations) -> Fut,
    Fut: std::future::Future<Output = Result<(), gomoku_bot::discord::Error>>,
{
    let filter = std::env::var("RUST_LOG").unwrap_or_else(|_| config.log.filter.clone());
    gomoku_bot::ops::logs::init(&filter, config.log.format);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::from(1);
        }
    };
    // A taken or wrong metrics address is bad configuration: one line, status 2, at start.
    let operations = match runtime.block_on(operations(&config)) {
        Ok(o) => o,
        Err(e) => return usage_error(e),
    };
    match runtime.block_on(role(config, operations)) {
        Ok(()) => ExitCode::SUCCESS,
        // Nothing a restart mends (a refused token, a database it cannot read): one line on
        // stderr and status 2, so that a supervisor does not loop restarting it.
        Err(e) => match gomoku_bot::discord::fatal::fatal_line(e.as_ref()) {
            Some(line) => usage_error(line),
            None => {
                tracing::error!(%e, "{stopped}");
                ExitCode::from(1)
            }
        },
    }
}

/// Binds the operations listener and installs the metrics recorder, when `metrics.listen` is
/// set.
async fn operations(
    config: &gomoku_bot::config::Config,
) -> Result<gomoku_bot::discord::Operations, String> {
    let Some(listen) = &config.metrics.listen else {
        return Ok(gomoku_bot::discord::Operations::default());
    };
    let listener = gomoku_bot::ops::server::Listener::bind(listen.trim())
        .await
        .map_err(|e| e.to_string())?;
    let metrics = gomoku_bot::ops::metrics::install()
        .map_err(|e| format!("cannot start the metrics: {e}"))?;
    Ok(gomoku_bot::discord::Operations {
        listener: Some(listener),
        metrics: Some(metrics),
    })
}

struct RenderArgs {
    rules: String,
    set: Vec<String>,
    moves: String,
    theme: String,
    coordinates: bool,
    highlight: bool,
    names: String,
    tentative: Option<String>,
    out: Option<std::path::PathBuf>,
    replay: Option<std::path::PathBuf>,
}

fn render_command(args: RenderArgs) -> ExitCode {
    use gomoku_bot::render::{self, RenderOptions};
    use gomoku_bot::rules::Point;

    if args.out.is_none() && args.replay.is_none() {
        return usage_error("render needs --out FILE.png, --replay FILE.gif, or both");
    }
    let rules = match cli::rule_set(&args.rules, &args.set) {
        Ok(r) => r,
        Err(e) => return usage_error(e),
    };
    let theme = match args.theme.parse() {
        Ok(t) => t,
        Err(e) => return usage_error(e),
    };
    let tentative = match args
        .tentative
        .as_deref()
        .map(|t| Point::parse(t, rules.size))
    {
        None => None,
        Some(Ok(p)) => Some(p),
        Some(Err(e)) => return usage_error(format!("--tentative: {e}")),
    };
    let names: Vec<String> = if args.names.is_empty() {
        Vec::new()
    } else {
        args.names
            .split(',')
            .map(|n| n.trim().to_string())
            .collect()
    };
    let opts = RenderOptions {
        theme,
        coordinates: args.coordinates,
        highlight_last: args.highlight,
        ..RenderOptions::default()
    };
    let (game, error) = cli::play_tokens(rules, &args.moves);
    if let Some((index, token, e)) = error {
        eprintln!("error: move {} `{token}` is refused: {e}", index + 1);
        return ExitCode::from(3);
    }
    if let Some(path) = &args.out {
        let png = match tentative {
            Some(p) => render::render_png_with_tentative(&game, &names, &opts, p),
            None => render::render_png(&game, &names, &opts),
        };
        if let Err(e) = std::fs::write(path, png) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(1);
        }
    }
    if let Some(path) = &args.replay {
        let gif = match render::render_replay_gif(&rules, game.record(), &names, &opts) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        };
        if let Err(e) = std::fs::write(path, gif) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}
