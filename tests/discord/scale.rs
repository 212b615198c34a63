//! The whole bot at scale (issue 11, part 4), with the real binary against the fake Discord:
//! two bot processes with one gateway shard each (of two) and one `gomoku-bot worker`, on one
//! PostgreSQL schema. Members play games in guilds on both shards and against the computer
//! (the bots think for nobody: every move of the computer is the worker's); in the middle of
//! the load one bot process and the worker are SIGKILLed, and started again. Then:
//! - every acknowledged move is in the database, at its ply, and no point twice in a game;
//! - every committed move's board was posted once (the interaction's answer, or the outbox's
//!   post with its nonce, by whichever process ended up sending it);
//! - each due reminder was sent once;
//! - every request fits Discord's OpenAPI description.
//!
//! The binary's clock is the system's: a reminder is made due by moving a waiting game's turn
//! back 20 hours in the database (its start and its deadline), as if the clock had run on.
//! What a killed process had owed and not sent waits for the outbox's hold (30 s) before the
//! live bot of that guild's shard takes it over, so the test lasts about a minute.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::Rng;
use serde_json::Value;
use serenity::all::ChannelId;
use sqlx::{Connection as _, PgConnection, Row as _};

use crate::bot::start_two_player_in;
use crate::crash_storm::{playing_order, stop_players, try_move, violations_after_kills};
use crate::engine::against_the_computer;
use crate::ops::BotProcess;
use crate::support::fake_discord::{FakeConfig, FakeDiscord, Req, TestUser};
use crate::support::test_db::TestDb;

/// The bots: no engine threads (the worker thinks), deadlines checked every second.
const BOT_CONFIG: &str =
    "shutdown_grace_seconds = 15\n[game]\nengine_threads = 0\nclock_sweep_seconds = 1\n";
/// The worker: a short lease, so that a killed worker's job is taken over within moments.
const WORKER_CONFIG: &str = "[engine]\njob_lease_seconds = 2\njob_poll_ms = 50";
/// Moving a turn back this far makes a one-day turn's reminder due (at 80% of the day) and
/// leaves its deadline four hours ahead.
const BACKDATE_MS: i64 = 20 * 3_600_000;
const SIZE: i32 = 15;

/// A game under load: its id, thread, parent channel, and the members at its seats (the
/// computer's seat is absent).
#[derive(Clone)]
struct LoadGame {
    id: i64,
    number: usize,
    thread: ChannelId,
    channel: ChannelId,
    humans: HashMap<i64, TestUser>,
    /// A pause before each move (a member thinking): the games against the computer last.
    pause: Duration,
}

/// The bot process serving shard `shard` of two.
fn bot_process(fake: &FakeDiscord, dir: &std::path::Path, url: &str, shard: u32) -> BotProcess {
    let shard = shard.to_string();
    BotProcess::spawn(
        fake,
        dir,
        BOT_CONFIG,
        &[("DATABASE_URL", url)],
        &["--shards", &shard, "--shard-total", "2"],
    )
}

/// A worker process with one engine thread.
fn worker_process(fake: &FakeDiscord, dir: &std::path::Path, url: &str) -> BotProcess {
    BotProcess::start_command(
        fake,
        dir,
        &["worker", "--engine-threads", "1"],
        WORKER_CONFIG,
        &[("DATABASE_URL", url)],
    )
}

/// The game whose thread is `thread`, once the bot has recorded it; its seats by member.
async fn game_of_thread(
    conn: &mut PgConnection,
    thread: ChannelId,
    members: &[&TestUser],
) -> (i64, HashMap<i64, TestUser>) {
    let deadline = Instant::now() + Duration::from_secs(30);
    let id = loop {
        let id: Option<i64> = sqlx::query_scalar("SELECT game_id FROM games WHERE thread_id = $1")
            .bind(i64::try_from(thread.get()).expect("a snowflake"))
            .fetch_optional(&mut *conn)
            .await
            .expect("read the games");
        if let Some(id) = id {
            break id;
        }
        assert!(Instant::now() < deadline, "no game recorded in {thread}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let seats = sqlx::query("SELECT seat, user_id FROM game_seats WHERE game_id = $1")
        .bind(id)
        .fetch_all(&mut *conn)
        .await
        .expect("read the seats");
    let humans = seats
        .iter()
        .filter_map(|r| {
            let user: i64 = r.get(1);
            let member = members.iter().find(|m| m.id as i64 == user)?;
            Some((r.get::<i64, _>(0), (*member).clone()))
        })
        .collect();
    (id, humans)
}

/// One game's members, moving whenever the database says it is one of theirs to act, until
/// `stop` (or the game ends); returns the acknowledged moves as (game, ply, point).
async fn players(
    fake: Arc<FakeDiscord>,
    url: String,
    game: LoadGame,
    stop: Arc<AtomicBool>,
) -> Vec<(i64, i64, String)> {
    let mut conn = PgConnection::connect(&url).await.expect("connect");
    let order = playing_order(SIZE, game.number);
    let mut acked = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let row = sqlx::query("SELECT status, ply, to_act_seat FROM games WHERE game_id = $1")
            .bind(game.id)
            .fetch_one(&mut conn)
            .await
            .expect("read the game");
        let (status, ply, seat): (String, i64, Option<i64>) = (row.get(0), row.get(1), row.get(2));
        if status != "active" {
            break;
        }
        let Some((seat, member)) = seat.and_then(|s| Some((s, game.humans.get(&s)?))) else {
            // The computer's turn: the worker's job.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let taken: HashSet<String> =
            sqlx::query_scalar("SELECT action FROM moves WHERE game_id = $1")
                .bind(game.id)
                .fetch_all(&mut conn)
                .await
                .expect("read the moves")
                .into_iter()
                .collect();
        let colour = usize::try_from(seat - 1).expect("a seat") % 2;
        let Some(point) = order[colour].iter().find(|p| !taken.contains(*p)).cloned() else {
            break;
        };
        tokio::time::sleep(game.pause).await;
        // Waits for the shard's session while its process is down.
        match try_move(&fake, member, game.thread, &point).await {
            Some(true) => acked.push((game.id, ply + 1, point)),
            // Refused (the position changed, the bot is restarting) or unanswered (killed):
            // the database says where the game is.
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    acked
}

/// Moves the turn of `game` back by [`BACKDATE_MS`]: its reminder is due now.
async fn make_reminder_due(conn: &mut PgConnection, game: i64) {
    let done = sqlx::query(
        "UPDATE games SET updated_at = updated_at - $1, deadline = deadline - $1 \
         WHERE game_id = $2 AND deadline IS NOT NULL AND status = 'active'",
    )
    .bind(BACKDATE_MS)
    .bind(game)
    .execute(&mut *conn)
    .await
    .expect("move the turn back");
    assert_eq!(done.rows_affected(), 1, "game {game} has a clock");
}

/// Counts of the outbox's rows by state, and the engine jobs left.
async fn owed(conn: &mut PgConnection) -> (HashMap<String, i64>, i64) {
    let states = sqlx::query("SELECT state, COUNT(*) FROM outbox GROUP BY state")
        .fetch_all(&mut *conn)
        .await
        .expect("the outbox")
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let jobs: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM engine_jobs")
        .fetch_one(&mut *conn)
        .await
        .expect("the engine jobs");
    (states, jobs)
}

/// The rows of `sql` (game, ply, text) about the games `ids`, by game and ply.
async fn by_game_and_ply(
    conn: &mut PgConnection,
    sql: &str,
    ids: &[i64],
) -> BTreeMap<(i64, i64), String> {
    sqlx::query(sql)
        .bind(ids)
        .fetch_all(&mut *conn)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .iter()
        .map(|r| ((r.get(0), r.get(1)), r.get(2)))
        .collect()
}

/// Whether a stored message carries a board picture.
fn has_picture(m: &Value) -> bool {
    m["attachments"].as_array().is_some_and(|a| !a.is_empty())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bots_and_a_worker_killed_mid_load_lose_double_and_skip_nothing() {
    let Some(db) = TestDb::postgres("two_bots_and_a_worker_killed_mid_load").await else {
        return;
    };
    let began = Instant::now();
    let fake = Arc::new(
        FakeDiscord::start_with(FakeConfig {
            shards: 2,
            // Debug binaries on a loaded machine take their time to connect.
            wait_timeout: Duration::from_secs(60),
            ..FakeConfig::default()
        })
        .await,
    );
    let channels = [
        fake.add_guild_on_shard("Shard zero", 0, 2).1,
        fake.add_guild_on_shard("Shard one", 1, 2).1,
    ];
    let dirs = [(); 3].map(|()| tempfile::tempdir().unwrap());
    let mut bots = [
        bot_process(&fake, dirs[0].path(), &db.url, 0),
        bot_process(&fake, dirs[1].path(), &db.url, 1),
    ];
    let mut worker = worker_process(&fake, dirs[2].path(), &db.url);
    fake.wait_for_shard(0).await;
    fake.wait_for_shard(1).await;
    for _ in 0..2 {
        fake.next_request(&Req::put("/applications/*/commands"))
            .await;
    }
    worker.log_line("engine worker taking jobs").await;

    // On each shard: two games between members, two against the computer, and one with a
    // one-day clock that nobody plays (its reminder is made due below).
    let mut conn = PgConnection::connect(&db.url).await.expect("connect");
    let mut load = Vec::new();
    let mut waiting = Vec::new();
    for (shard, &channel) in channels.iter().enumerate() {
        for n in 0..2 {
            let a = fake.add_user(&format!("s{shard}-a{n}"));
            let b = fake.add_user(&format!("s{shard}-b{n}"));
            let game = start_two_player_in(&fake, Some(channel), &a, &b, &[("game", 0)]).await;
            let (id, humans) = game_of_thread(&mut conn, game.thread, &[&a, &b]).await;
            load.push(LoadGame {
                id,
                number: load.len(),
                thread: game.thread,
                channel,
                humans,
                pause: Duration::ZERO,
            });
        }
        for n in 0..2 {
            let member = fake.add_user(&format!("s{shard}-c{n}"));
            let thread = against_the_computer(&fake, Some(channel), &member, 1).await;
            let (id, humans) = game_of_thread(&mut conn, thread, &[&member]).await;
            assert_eq!(humans.len(), 1, "one member against the computer");
            load.push(LoadGame {
                id,
                number: load.len(),
                thread,
                channel,
                humans,
                pause: Duration::from_millis(200),
            });
        }
        let a = fake.add_user(&format!("s{shard}-late"));
        let b = fake.add_user(&format!("s{shard}-waiting"));
        let options = [("game", 0), ("days_per_move", 1)];
        let game = start_two_player_in(&fake, Some(channel), &a, &b, &options).await;
        let (id, _) = game_of_thread(&mut conn, game.thread, &[&a, &b]).await;
        waiting.push((id, game.thread, game.order[0].clone()));
    }
    let set_up = began.elapsed();

    let stop = Arc::new(AtomicBool::new(false));
    let tasks: Vec<_> = load
        .iter()
        .map(|g| {
            tokio::spawn(players(
                Arc::clone(&fake),
                db.url.clone(),
                g.clone(),
                Arc::clone(&stop),
            ))
        })
        .collect();
    tokio::time::sleep(Duration::from_secs(3)).await;
    // Both reminders fall due (each bot sweeps its own shard's games), then shard 1's bot and
    // the worker die at once, whatever they were doing: committing, answering, posting,
    // sweeping, thinking.
    for (id, _, _) in &waiting {
        make_reminder_due(&mut conn, *id).await;
    }
    let pause = rand::rng().random_range(0..1500);
    tokio::time::sleep(Duration::from_millis(pause)).await;
    bots[1].kill();
    worker.kill();
    let jobs_at_kill: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM engine_jobs")
        .fetch_one(&mut conn)
        .await
        .expect("the engine jobs");
    tokio::time::sleep(Duration::from_millis(500)).await;
    bots[1] = bot_process(&fake, dirs[1].path(), &db.url, 1);
    worker = worker_process(&fake, dirs[2].path(), &db.url);
    fake.wait_for_shard_session(1, 2).await;
    // A stretch of play with everyone back, then the members stop.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let acked = stop_players(&stop, tasks).await;

    // What is owed goes out: the computer's moves, and the posts the killed processes left
    // (taken over by the live bot of their guild's shard after the outbox's hold).
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (states, jobs) = owed(&mut conn).await;
        if jobs == 0 && states.get("pending").copied().unwrap_or(0) == 0 {
            assert_eq!(states.get("failed"), None, "{states:?}");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "still owed: {states:?}, {jobs} engine jobs\nbot 0:\n{}\nbot 1:\n{}\nworker:\n{}",
            bots[0].output().join("\n"),
            bots[1].output().join("\n"),
            worker.output().join("\n")
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // Every acknowledged move is in the database at its ply, and no game has a point twice.
    let ids: Vec<i64> = load.iter().map(|g| g.id).collect();
    let moves = by_game_and_ply(
        &mut conn,
        "SELECT game_id, ply, action FROM moves WHERE game_id = ANY($1)",
        &ids,
    )
    .await;
    let lost: Vec<_> = acked
        .iter()
        .filter(|(g, p, point)| moves.get(&(*g, *p)) != Some(point))
        .collect();
    assert!(
        lost.is_empty(),
        "acknowledged but not in the database: {lost:?}"
    );
    for id in &ids {
        let points: Vec<&String> = moves
            .iter()
            .filter(|((g, _), _)| g == id)
            .map(|(_, a)| a)
            .collect();
        let distinct: HashSet<&&String> = points.iter().collect();
        assert_eq!(distinct.len(), points.len(), "game {id}: {points:?}");
    }

    // Every committed move's board was posted once: in the game's thread, or (the computer's
    // first move, when it beat the thread) wherever the outbox's nonce for it went.
    let nonces = by_game_and_ply(
        &mut conn,
        "SELECT game_id, ply, nonce FROM outbox WHERE kind = 'board' AND game_id = ANY($1)",
        &ids,
    )
    .await;
    let mut stored: HashMap<ChannelId, Vec<Value>> = HashMap::new();
    for g in &load {
        for channel in [g.thread, g.channel] {
            stored
                .entry(channel)
                .or_insert_with(|| fake.messages_in(channel));
        }
    }
    let mut not_once = Vec::new();
    let mut computer_moves = 0;
    for g in &load {
        for ((_, ply), token) in moves.range((g.id, 0)..=(g.id, i64::MAX)) {
            let needle = format!("played {token}.");
            let nonce = nonces.get(&(g.id, *ply));
            let posted = [g.thread, g.channel]
                .iter()
                .flat_map(|c| &stored[c])
                .filter(|m| has_picture(m))
                .filter(|m| m["content"].as_str().is_some_and(|c| c.contains(&needle)))
                .filter(|m| {
                    m["channel_id"] == g.thread.get().to_string().as_str()
                        || nonce.is_some_and(|n| m["nonce"].as_str() == Some(n))
                })
                .count();
            if posted != 1 {
                not_once.push((g.id, *ply, token.clone(), posted));
            }
            // Seat s acts at the plies p with (p - 1) mod 2 = s - 1.
            let computer = if g.humans.contains_key(&1) { 2 } else { 1 };
            if g.humans.len() == 1 && (ply - 1) % 2 == computer - 1 {
                computer_moves += 1;
            }
        }
    }
    assert!(not_once.is_empty(), "boards not posted once: {not_once:?}");

    // Each reminder was owed once and sent once, in its game's thread, to the player to act.
    for (id, thread, first) in &waiting {
        let rows: Vec<String> =
            sqlx::query_scalar("SELECT state FROM outbox WHERE game_id = $1 AND kind = 'reminder'")
                .bind(id)
                .fetch_all(&mut conn)
                .await
                .expect("the reminders");
        assert_eq!(rows, ["sent"], "game {id}");
        let reminders: Vec<String> = fake
            .messages_in(*thread)
            .iter()
            .filter_map(|m| m["content"].as_str().map(str::to_owned))
            .filter(|c| c.contains(&format!("your move in game #{id} is due")))
            .collect();
        assert_eq!(reminders.len(), 1, "game {id}: {reminders:?}");
        assert!(reminders[0].contains(&first.mention()), "{}", reminders[0]);
    }

    // The load was real: moves on both shards, the computer played, shard 1 came back.
    for &channel in &channels {
        let played = acked
            .iter()
            .filter(|(g, _, _)| load.iter().any(|l| l.id == *g && l.channel == channel))
            .count();
        assert!(played > 0, "no move acknowledged in {channel}");
    }
    assert!(computer_moves > 0, "the worker never played");
    let violations = violations_after_kills(&fake);
    assert!(violations.is_empty(), "{violations:#?}");
    let outbox_posts = fake
        .requests_matching(&Req::post("/channels/*/messages"))
        .iter()
        .filter(|r| r.json_or_null()["enforce_nonce"] == true)
        .count();
    println!(
        "two bots and a worker: set up in {set_up:.0?}, {} moves acknowledged, {} committed \
         ({computer_moves} by the computer), {jobs_at_kill} engine jobs at the kill, {outbox_posts} \
         posts by the outboxes, {:.0?} in all",
        acked.len(),
        moves.len(),
        began.elapsed()
    );
    conn.close().await.ok();
    drop((bots, worker));
}
