//! Operating the bot (issue 17), with the real binary as a child process against the fake
//! Discord: `/metrics` counts exactly what was played, `/healthz` and `/readyz` answer with the
//! right status before and after the gateway connects, a SIGTERM in the middle of a burst of
//! moves loses nothing, JSON logs parse, the token never appears, and bad operations settings
//! stop the bot at start with status 2.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use prometheus_parse::{Sample, Scrape, Value as Metric};
use serde_json::Value;
use sqlx::Connection;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use gomoku_bot::discord::{self, Registration};
use gomoku_bot::i18n::I18n;
use gomoku_bot::ops::shutdown::Drain;
use gomoku_bot::service::{GameView, GuildId, Service, ServiceConfig, SystemClock, UserId};
use gomoku_bot::store::StoreOptions;

use crate::bot::{
    content, is_ephemeral, play, ready_with_a_game, ready_with_a_game_speaking, start_two_player,
};
use crate::support::fake_discord::{
    FakeConfig, FakeDiscord, Req, RunningBot, SlashCommand, TestUser,
};
pub(crate) use crate::support::process::BotProcess;
use serenity::all::Permissions;

/// A plain HTTP/1.1 GET; returns the status and body.
async fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: bot\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

/// Scrapes `/metrics` and parses it with a Prometheus text-format parser.
async fn scrape(addr: SocketAddr) -> Scrape {
    let (status, body) = get(addr, "/metrics").await;
    assert_eq!(status, 200, "{body}");
    Scrape::parse(body.lines().map(|l| Ok(l.to_string()))).expect("Prometheus text format")
}

fn matches(sample: &Sample, name: &str, labels: &[(&str, &str)]) -> bool {
    sample.metric == name && labels.iter().all(|(k, v)| sample.labels.get(k) == Some(*v))
}

/// The value of a counter or gauge (summed over series matching `labels`; 0 when none).
fn value(scrape: &Scrape, name: &str, labels: &[(&str, &str)]) -> f64 {
    scrape
        .samples
        .iter()
        .filter(|s| matches(s, name, labels))
        .map(|s| match &s.value {
            Metric::Counter(v) | Metric::Gauge(v) | Metric::Untyped(v) => *v,
            other => panic!("{name} is not a single value: {other:?}"),
        })
        .sum()
}

/// How many observations a histogram holds (its `+Inf` bucket), over series matching `labels`.
fn observations(scrape: &Scrape, name: &str, labels: &[(&str, &str)]) -> f64 {
    scrape
        .samples
        .iter()
        .filter(|s| matches(s, name, labels))
        .filter_map(|s| match &s.value {
            Metric::Histogram(buckets) => buckets
                .iter()
                .find(|b| b.less_than.is_infinite())
                .map(|b| b.count),
            _ => None,
        })
        .sum()
}

/// Scrapes until `ready` holds (the counters of an interaction move once its handling ends,
/// just after its answer reached the fake), at most 10 s.
async fn scrape_when(addr: SocketAddr, ready: impl Fn(&Scrape) -> bool) -> Scrape {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let s = scrape(addr).await;
        if ready(&s) || Instant::now() > deadline {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits for `/readyz` to say `status`.
async fn readyz_becomes(addr: SocketAddr, status: u16) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (got, body) = get(addr, "/readyz").await;
        if got == status {
            return body;
        }
        assert!(
            Instant::now() < deadline,
            "/readyz stayed {got} ({body}), expected {status}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A fake Discord for the gateway tests: [`slow_start`], heartbeats every `heartbeat_ms` (the
/// client notices a dead or silent connection at its next heartbeat), resumes accepted.
pub(crate) async fn resuming_fake(heartbeat_ms: u64) -> FakeDiscord {
    let fake = FakeDiscord::start_with(FakeConfig {
        heartbeat_interval_ms: heartbeat_ms,
        ..slow_start()
    })
    .await;
    fake.accept_resumes(true);
    fake
}

/// The fake for a bot process: a debug build warms its picture caches for several seconds
/// before it connects, more on a loaded machine.
pub(crate) fn slow_start() -> FakeConfig {
    FakeConfig {
        wait_timeout: Duration::from_secs(60),
        ..FakeConfig::default()
    }
}

const GOMOKU_WIN: [&str; 9] = ["H8", "A1", "J8", "A2", "K8", "A3", "L8", "A4", "M8"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_exactly_what_was_played_and_readiness_follows_the_gateway() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start_with(slow_start()).await;
    fake.hold_gateway();
    let bot = BotProcess::start(
        &fake,
        dir.path(),
        "[metrics]\nlisten = \"127.0.0.1:0\"",
        &[],
    );
    let addr = bot.listen_addr().await;
    assert_eq!(get(addr, "/healthz").await, (200, "ok\n".to_string()));
    let (status, body) = get(addr, "/readyz").await;
    assert_eq!(
        (status, body.as_str()),
        (503, "not ready: 0 of 1 gateway shards connected\n"),
        "not ready while the gateway is held"
    );
    fake.open_gateway();
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    readyz_becomes(addr, 200).await;

    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0)]).await;
    let [first, second] = &started.order;
    for (i, point) in GOMOKU_WIN.iter().enumerate() {
        let user = if i % 2 == 0 { first } else { second };
        let (_, answer) = play(&fake, user, started.thread, point).await;
        assert!(!is_ephemeral(&answer), "{point}: {}", content(&answer));
    }
    // A refused move: the game is over.
    let (_, refused) = play(&fake, second, started.thread, "B1").await;
    assert!(is_ephemeral(&refused));

    let moves = |s: &Scrape| {
        value(
            s,
            "gomoku_interactions_total",
            &[("kind", "command"), ("name", "move")],
        )
    };
    let s = scrape_when(addr, |s| {
        moves(s) >= 10.0
            && value(s, "gomoku_games_finished_total", &[]) >= 1.0
            && value(s, "gomoku_interactions_total", &[("kind", "component")]) >= 1.0
    })
    .await;
    let ok = [("kind", "command"), ("name", "move"), ("outcome", "ok")];
    let refused = [
        ("kind", "command"),
        ("name", "move"),
        ("outcome", "refused"),
    ];
    assert_eq!(value(&s, "gomoku_interactions_total", &ok), 9.0);
    assert_eq!(value(&s, "gomoku_interactions_total", &refused), 1.0);
    assert_eq!(
        value(
            &s,
            "gomoku_interactions_total",
            &[
                ("kind", "command"),
                ("name", "challenge"),
                ("outcome", "ok")
            ]
        ),
        1.0
    );
    assert_eq!(
        value(
            &s,
            "gomoku_interactions_total",
            &[("kind", "component"), ("outcome", "ok")]
        ),
        1.0,
        "the Accept click"
    );
    assert_eq!(
        observations(
            &s,
            "gomoku_interaction_seconds",
            &[("kind", "command"), ("name", "move")]
        ),
        10.0,
        "one latency per move interaction"
    );
    assert_eq!(value(&s, "gomoku_moves_committed_total", &[]), 9.0);
    assert_eq!(
        value(&s, "gomoku_games_started_total", &[("family", "gomoku")]),
        1.0
    );
    assert_eq!(
        value(
            &s,
            "gomoku_games_finished_total",
            &[("family", "gomoku"), ("reason", "line")]
        ),
        1.0
    );
    assert_eq!(
        value(&s, "gomoku_challenges_total", &[("outcome", "created")]),
        1.0
    );
    assert_eq!(
        value(&s, "gomoku_challenges_total", &[("outcome", "accepted")]),
        1.0
    );
    assert_eq!(value(&s, "gomoku_games_active", &[]), 0.0);
    assert_eq!(value(&s, "gomoku_challenges_open", &[]), 0.0);
    assert_eq!(value(&s, "gomoku_gateway_shards_connected", &[]), 1.0);
    assert_eq!(
        value(&s, "gomoku_gateway_sessions_total", &[("kind", "identify")]),
        1.0
    );
    // Discord REST requests, by operation: the challenge's answer, the Accept click's update,
    // the thread opened from the challenge, the first board posted there, the nine boards
    // answered in the thread and the refused move's private answer.
    let requests = |op: &str| {
        value(
            &s,
            "gomoku_discord_requests_total",
            &[("op", op), ("status", "2xx")],
        )
    };
    for r in fake.requests() {
        eprintln!("REQ {} {}", r.method, r.path);
    }
    for op in [
        "answer",
        "followup",
        "post",
        "edit",
        "thread",
        "direct_message",
    ] {
        eprintln!("OP {op} {}", requests(op));
    }
    assert_eq!(requests("answer"), 12.0);
    assert_eq!(requests("thread"), 1.0);
    assert_eq!(requests("post"), 1.0);
    assert_eq!(value(&s, "gomoku_discord_requests_total", &[]), 14.0);
    // Every request the bot's handlers sent is counted once: all that reached the fake, but
    // serenity's and poise's own (the gateway's address, the bot's user, the commands' set).
    let sent = fake
        .requests()
        .iter()
        .filter(|r| r.method != "GET" && !r.path.ends_with("/commands"))
        .count();
    assert_eq!(
        value(&s, "gomoku_discord_requests_total", &[]),
        sent as f64,
        "requests counted against requests the fake received"
    );
    assert_eq!(value(&s, "gomoku_discord_rest_failures_total", &[]), 0.0);
    assert!(
        observations(&s, "gomoku_db_commit_seconds", &[("op", "moves")]) >= 1.0,
        "moves are committed in groups, at least one commit"
    );
    // Label values are bounded: no ids anywhere.
    for sample in &s.samples {
        for (key, value) in sample.labels.iter() {
            assert!(
                !value.chars().any(|c| c.is_ascii_digit())
                    || ["le", "shard", "status", "level"].contains(&key.as_str()),
                "{} has an id-like label {key}={value}",
                sample.metric
            );
        }
    }
    assert!(s.docs.contains_key("gomoku_moves_committed_total"));
    fake.assert_all_requests_valid();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_operations_settings_stop_the_bot_at_start_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start_with(slow_start()).await;
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let taken_addr = taken.local_addr().unwrap().to_string();
    for (setting, expected) in [
        (
            format!("[metrics]\nlisten = \"{taken_addr}\""),
            format!("error: metrics.listen {taken_addr}: cannot listen:"),
        ),
        (
            "[metrics]\nlisten = \"localhost\"".to_string(),
            "error: setting metrics.listen: `localhost` is not host:port".to_string(),
        ),
    ] {
        let mut bot = BotProcess::start(&fake, dir.path(), &setting, &[]);
        assert_eq!(bot.exit_code(Duration::from_secs(20)).await, Some(2));
        // Let the readers drain the closed pipes.
        tokio::time::sleep(Duration::from_millis(50)).await;
        let output = bot.output();
        let errors: Vec<&String> = output.iter().filter(|l| l.starts_with("error:")).collect();
        assert_eq!(errors.len(), 1, "{output:?}");
        assert!(errors[0].starts_with(&expected), "{output:?}");
    }
    drop(taken);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sigterm_in_a_burst_of_moves_loses_nothing_and_a_restart_continues() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start_with(slow_start()).await;
    let mut bot = BotProcess::start(&fake, dir.path(), "", &[]);
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    // Four games, so that a burst has several moves in flight at once.
    let mut games = Vec::new();
    for n in 0..4 {
        let a = fake.add_user(&format!("a{n}"));
        let b = fake.add_user(&format!("b{n}"));
        games.push(start_two_player(&fake, &a, &b, &[("game", 0)]).await);
    }
    // The burst: every game's first move sent at once, then the signal.
    let mut sent = Vec::new();
    for g in &games {
        let s = fake
            .send(
                SlashCommand::new("move")
                    .by(&g.order[0])
                    .in_channel(g.thread)
                    .string("at", "H8"),
            )
            .await;
        sent.push(s);
    }
    // The signal comes once the bot is answering the burst: the first answer is out, the
    // others are in flight or waiting.
    let first = fake.next_request(&Req::callback(&sent[0])).await;
    bot.terminate();
    let code = bot.exit_code(Duration::from_secs(15)).await;
    assert_eq!(code, Some(0), "{}", bot.output().join("\n"));
    // Every move of the burst was answered before the exit: played (those the bot had taken
    // before the signal) or "restarting" (those that arrived after it).
    assert!(!is_ephemeral(&first), "{}", content(&first));
    let mut played = vec![true];
    for s in &sent[1..] {
        let answer = fake.next_request(&Req::callback(s)).await;
        if is_ephemeral(&answer) {
            assert!(
                content(&answer).contains("restarting"),
                "{}",
                content(&answer)
            );
        }
        played.push(!is_ephemeral(&answer));
    }
    let lines = bot.output();
    assert!(
        lines
            .iter()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .any(|v| v["message"] == "stopped"),
        "{lines:?}"
    );
    drop(bot);
    // What the played moves owed Discord went out before the exit: nothing is left owed.
    let mut db = sqlx::SqliteConnection::connect(&format!(
        "sqlite://{}?mode=ro",
        dir.path().join("bot.db").display()
    ))
    .await
    .expect("the bot's database");
    let owed: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE state = 'pending'")
        .fetch_one(&mut db)
        .await
        .expect("the outbox");
    assert_eq!(owed, 0, "rows left owed after a graceful stop");
    drop(db);

    // What was answered as played is in the database, and nothing else: the restarted bot
    // continues each game from there.
    let restarted = BotProcess::start(&fake, dir.path(), "", &[]);
    fake.wait_for_session(2).await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    for (g, played) in games.iter().zip(&played) {
        if *played {
            let (_, taken) = play(&fake, &g.order[1], g.thread, "H8").await;
            assert!(is_ephemeral(&taken), "{}", content(&taken));
            let (_, next) = play(&fake, &g.order[1], g.thread, "J9").await;
            assert!(!is_ephemeral(&next), "{}", content(&next));
        } else {
            let (_, again) = play(&fake, &g.order[0], g.thread, "H8").await;
            assert!(!is_ephemeral(&again), "{}", content(&again));
        }
    }
    drop(restarted);
    fake.assert_all_requests_valid();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_parse_and_never_show_the_token() {
    for format in ["json", "text"] {
        let dir = tempfile::tempdir().unwrap();
        let fake = FakeDiscord::start_with(slow_start()).await;
        let mut bot = BotProcess::start(
            &fake,
            dir.path(),
            "",
            &[("LOG_FORMAT", format), ("RUST_LOG", "trace")],
        );
        let (_, _, started) = ready_with_a_game(&fake).await;
        play(&fake, &started.order[0], started.thread, "H8").await;
        bot.terminate();
        assert_eq!(bot.exit_code(Duration::from_secs(15)).await, Some(0));
        tokio::time::sleep(Duration::from_millis(50)).await;
        let lines = bot.output();
        assert!(lines.len() > 10, "{format}: {lines:?}");
        let token = fake.token().to_string();
        for line in &lines {
            assert!(
                !line.contains(&token),
                "{format}: the token is in a log line"
            );
        }
        if format == "json" {
            for line in &lines {
                let v: Value =
                    serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
                for key in ["timestamp", "level", "target"] {
                    assert!(v.get(key).is_some(), "{key} missing: {line}");
                }
            }
            let stopped = lines
                .iter()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .find(|v| v["message"] == "stopped")
                .expect("the last line says stopped");
            assert_eq!(stopped["level"], "INFO");
            assert_eq!(stopped["target"], "gomoku_bot::discord");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_draining_interactions_are_answered_restarting_in_the_members_language() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let service = Service::open(
        &StoreOptions::for_file(&dir.path().join("bot.db")),
        ServiceConfig::default(),
        Arc::new(SystemClock),
    )
    .await
    .unwrap();
    let framework = discord::framework(
        Arc::new(service),
        Arc::new(I18n::load()),
        Registration::Guild(fake.guild_id().get()),
    );
    let drain = Drain::new();
    let client = discord::client_with_drain(fake.http(), framework, Arc::clone(&drain))
        .await
        .unwrap();
    let bot = RunningBot::spawn(client);
    let (alice, bob, started) = ready_with_a_game_speaking(&fake, Some("es-ES")).await;
    let work = drain.begin().expect("not draining yet");
    assert!(drain.start());
    for user in [&alice, &bob] {
        let sent = fake
            .send(
                SlashCommand::new("move")
                    .by(user)
                    .in_channel(started.thread)
                    .string("at", "H8"),
            )
            .await;
        let answer = fake.next_request(&Req::callback(&sent)).await;
        assert!(is_ephemeral(&answer));
        let expected = if user.user_id() == alice.user_id() {
            "El bot se está reiniciando"
        } else {
            "The bot is restarting"
        };
        assert!(
            content(&answer).starts_with(expected),
            "{}",
            content(&answer)
        );
    }
    let typing = fake
        .send(
            SlashCommand::new("move")
                .by(&bob)
                .in_channel(started.thread)
                .focused("at", "h"),
        )
        .await;
    fake.next_request(&Req::callback(&typing)).await;
    assert_eq!(
        fake.autocomplete_choices(&typing),
        Some(serde_json::json!([])),
        "no suggestions while restarting"
    );
    assert!(
        !drain.wait_idle(Duration::from_millis(50)).await,
        "the work begun before the drain is waited for"
    );
    drop(work);
    assert!(drain.wait_idle(Duration::from_secs(5)).await);
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

/// The only active game of `user`, as the bot (a child process) committed it to the database
/// in `dir`.
async fn only_game(dir: &Path, fake: &FakeDiscord, user: &TestUser) -> GameView {
    let reader = Service::open(
        &StoreOptions::for_file(&dir.join("bot.db")),
        ServiceConfig::default(),
        Arc::new(SystemClock),
    )
    .await
    .expect("open the bot's database");
    let guild = GuildId(fake.guild_id().get());
    let games = reader
        .active_games(guild, UserId(user.id))
        .await
        .expect("list the games");
    assert_eq!(games.len(), 1, "{games:?}");
    let view = reader.game(guild, games[0].id).await.expect("the game");
    reader.close().await;
    view
}

/// Whether a series of `name` matching `labels` is in the scrape.
fn present(scrape: &Scrape, name: &str, labels: &[(&str, &str)]) -> bool {
    scrape.samples.iter().any(|s| matches(s, name, labels))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gateway_reconnects_heartbeats_the_engine_and_refused_requests_show_in_the_metrics() {
    let dir = tempfile::tempdir().unwrap();
    // Heartbeats every half second, so that a round trip is measured early.
    let fake = resuming_fake(500).await;
    let bot = BotProcess::start(
        &fake,
        dir.path(),
        "[metrics]\nlisten = \"127.0.0.1:0\"",
        &[],
    );
    let addr = bot.listen_addr().await;
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    readyz_becomes(addr, 200).await;
    let heartbeat = [("shard", "0")];
    let s = scrape_when(addr, |s| {
        present(s, "gomoku_gateway_heartbeat_seconds", &heartbeat)
    })
    .await;
    let latency = value(&s, "gomoku_gateway_heartbeat_seconds", &heartbeat);
    assert!(
        present(&s, "gomoku_gateway_heartbeat_seconds", &heartbeat)
            && latency.is_finite()
            && latency >= 0.0,
        "shard 0's heartbeat round trip: {latency}"
    );
    let sessions =
        |s: &Scrape, kind: &str| value(s, "gomoku_gateway_sessions_total", &[("kind", kind)]);
    assert_eq!(sessions(&s, "identify"), 1.0);
    assert_eq!(value(&s, "gomoku_gateway_reconnects_total", &[]), 0.0);

    // Discord asks for a reconnect: the shard resumes its session.
    assert!(fake.ask_reconnect());
    let s = scrape_when(addr, |s| sessions(s, "resume") >= 1.0).await;
    assert_eq!(fake.resumes(), 1);
    assert_eq!(
        (sessions(&s, "identify"), sessions(&s, "resume")),
        (1.0, 1.0)
    );
    assert_eq!(value(&s, "gomoku_gateway_reconnects_total", &[]), 1.0);
    readyz_becomes(addr, 200).await;
    // The resumed session carries interactions: a game starts and a move is answered.
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0)]).await;

    // A resume refused (the session is gone): the shard identifies afresh.
    fake.accept_resumes(false);
    assert!(fake.ask_reconnect());
    fake.wait_for_session(2).await;
    let s = scrape_when(addr, |s| sessions(s, "identify") >= 2.0).await;
    assert_eq!(
        (sessions(&s, "identify"), sessions(&s, "resume")),
        (2.0, 1.0)
    );
    assert_eq!(value(&s, "gomoku_gateway_reconnects_total", &[]), 2.0);
    readyz_becomes(addr, 200).await;

    // A board the thread refuses: the move, made from another channel, is acknowledged
    // privately, and the refused post is counted with Discord's status.
    fake.set_app_permissions(started.thread, Permissions::VIEW_CHANNEL);
    let elsewhere = fake.add_text_channel("lounge");
    let sent = fake
        .send(
            SlashCommand::new("move")
                .by(&started.order[0])
                .in_channel(elsewhere)
                .string("at", "H8")
                .integer("game", 1),
        )
        .await;
    let ack = fake.next_request(&Req::callback(&sent)).await;
    assert!(is_ephemeral(&ack), "{}", content(&ack));
    fake.next_request(&Req::followup(&sent)).await;
    let refused = [("op", "post"), ("status", "403")];
    let s = scrape_when(addr, |s| {
        value(s, "gomoku_discord_requests_total", &refused) >= 1.0
    })
    .await;
    assert_eq!(value(&s, "gomoku_discord_requests_total", &refused), 1.0);
    assert_eq!(value(&s, "gomoku_moves_committed_total", &[]), 1.0);

    // A game against the engine (level 3): every move it plays is counted with its thinking
    // time and the positions its search visited.
    let the_bot = TestUser::new(fake.bot_user_id().get(), "gomoku-bot");
    let carol = fake.add_user("carol");
    let thread = crate::engine::against_the_computer(&fake, None, &carol, 3).await;
    // The bot records the thread once Discord has answered: a move sent there before that
    // finds no game in the channel.
    let mut view = only_game(dir.path(), &fake, &carol).await;
    for _ in 0..200 {
        if view.thread.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        view = only_game(dir.path(), &fake, &carol).await;
    }
    assert_eq!(view.thread.map(|t| t.0), Some(thread.get()));
    // When the engine has the first turn, its opening move goes up in the thread first.
    let engine_first = view
        .seats
        .iter()
        .any(|s| s.seat == 1 && s.user.0 == the_bot.id);
    let point = if engine_first {
        fake.next_request(&Req::post(&format!("/channels/{thread}/messages")))
            .await;
        let view = only_game(dir.path(), &fake, &carol).await;
        ["H8", "J9"]
            .into_iter()
            .find(|p| {
                let p = gomoku_bot::rules::Point::parse(p, 15).expect("a point");
                view.game.stone_at(p).is_none()
            })
            .expect("the engine placed one stone")
    } else {
        "H8"
    };
    // Carol moves, and the engine answers.
    let (moved, reply) = play(&fake, &carol, thread, point).await;
    assert!(!is_ephemeral(&reply), "{}", content(&reply));
    fake.next_request(&Req::followup(&moved)).await;
    let level = [("level", "3")];
    let s = scrape_when(addr, |s| {
        value(s, "gomoku_engine_moves_total", &level) >= 1.0
            && value(s, "gomoku_engine_workers_busy", &[]) == 0.0
    })
    .await;
    let engine_moves = value(&s, "gomoku_engine_moves_total", &level);
    assert!(
        engine_moves == 1.0 || engine_moves == 2.0,
        "one answer, and the opening move when the engine had the first turn: {engine_moves}"
    );
    assert_eq!(
        observations(&s, "gomoku_engine_thinking_seconds", &level),
        engine_moves,
        "one thinking time per engine move"
    );
    assert!(
        value(&s, "gomoku_engine_nodes_total", &level) > 0.0,
        "the search visited positions"
    );
    assert_eq!(value(&s, "gomoku_engine_jobs_waiting", &[]), 0.0);
    assert_eq!(
        value(&s, "gomoku_games_started_total", &[("family", "gomoku")]),
        2.0
    );
    fake.assert_all_requests_valid();
}
