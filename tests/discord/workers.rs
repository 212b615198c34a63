//! Engine workers (issue 11) with the real binary: `gomoku-bot worker` thinks for a bot
//! process that thinks for nobody (`engine_threads = 0`), on one PostgreSQL database; a worker
//! SIGKILLed while thinking loses nothing (its lease runs out and a second worker plays the
//! move, once, and its board is posted once); a worker against SQLite is refused.

use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use gomoku_bot::service::{GameView, GuildId, Service, ServiceConfig, SystemClock, UserId};
use sqlx::Connection as _;

use crate::bot::{content, is_ephemeral, play};
use crate::ops::BotProcess;
use crate::support::fake_discord::{FakeDiscord, Req, TestUser};

use crate::support::test_db::TestDb;

/// The only game of `user`, read from the database.
async fn game_of(svc: &Service, fake: &FakeDiscord, user: &TestUser) -> GameView {
    let guild = GuildId(fake.guild_id().get());
    let list = svc
        .active_games(guild, UserId(user.id))
        .await
        .expect("list");
    assert_eq!(list.len(), 1, "{list:?}");
    svc.game(guild, list[0].id).await.expect("the game")
}

/// The holder of the lease on the job at `ply` of `game`, if the job is there and held.
async fn holder_of(db: &TestDb, game: i64, ply: i64) -> Option<String> {
    let mut conn = sqlx::PgConnection::connect(&db.url).await.expect("connect");
    let holder: Option<Option<String>> =
        sqlx::query_scalar("SELECT lease_holder FROM engine_jobs WHERE game_id = $1 AND ply = $2")
            .bind(game)
            .bind(ply)
            .fetch_optional(&mut conn)
            .await
            .expect("read the jobs");
    conn.close().await.ok();
    holder.flatten()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_killed_while_thinking_loses_nothing_and_another_plays_the_move_once() {
    let Some(db) = TestDb::postgres("a_worker_killed_while_thinking").await else {
        return;
    };
    let env = [("DATABASE_URL", db.url.as_str())];
    let fake = FakeDiscord::start_with(crate::ops::slow_start()).await;
    let bot_dir = tempfile::tempdir().unwrap();
    // The bot thinks for nobody: every move of the computer is a worker's.
    let bot = BotProcess::start(&fake, bot_dir.path(), "[game]\nengine_threads = 0", &env);
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    // The first worker thinks at level 5 (up to 2 s a move; it is killed in the middle); the
    // leases are short.
    let slow_dir = tempfile::tempdir().unwrap();
    let mut slow = BotProcess::start_command(
        &fake,
        slow_dir.path(),
        &["worker", "--engine-threads", "1"],
        "[engine]\njob_lease_seconds = 2\njob_poll_ms = 50",
        &env,
    );
    slow.log_line("engine worker taking jobs").await;
    let alice = fake.add_user("alice");
    let thread = crate::engine::against_the_computer(&fake, None, &alice, 5).await;
    let svc = Service::open(
        &db.options(),
        ServiceConfig::default(),
        Arc::new(SystemClock),
    )
    .await
    .expect("open the database");
    // Alice moves until the computer has a position to think about (its very first stone, on
    // an empty board, needs no thinking) and the slow worker holds that job.
    let deadline = Instant::now() + Duration::from_secs(60);
    let (game, ply) = loop {
        assert!(
            Instant::now() < deadline,
            "the slow worker never took a job"
        );
        let view = game_of(&svc, &fake, &alice).await;
        let alice_to_act = view.to_act().expect("in play").user.0 == alice.id;
        if alice_to_act && view.thread.is_some() {
            let point = ["H8", "J9", "G7", "K10"]
                .into_iter()
                .find(|p| {
                    let p = gomoku_bot::rules::Point::parse(p, 15).expect("a point");
                    view.game.stone_at(p).is_none()
                })
                .expect("a free point");
            let (_, reply) = play(&fake, &alice, thread, point).await;
            assert!(!is_ephemeral(&reply), "{}", content(&reply));
            continue;
        }
        if !alice_to_act
            && view.ply >= 1
            && holder_of(&db, view.id.0, i64::from(view.ply))
                .await
                .is_some_and(|h| h.starts_with("worker-"))
        {
            break (view.id, view.ply);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    // It is thinking (level 5 takes most of its 2 s): kill it with no chance to finish or
    // hand back.
    tokio::time::sleep(Duration::from_millis(100)).await;
    slow.kill();
    assert_eq!(
        game_of(&svc, &fake, &alice).await.ply,
        ply,
        "the killed worker played nothing"
    );
    // A second worker takes the job once the lease lapses, and plays it.
    let quick_dir = tempfile::tempdir().unwrap();
    let quick = BotProcess::start_command(
        &fake,
        quick_dir.path(),
        &["worker", "--engine-threads", "1"],
        "[engine]\njob_lease_seconds = 2\njob_poll_ms = 50",
        &env,
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    let after = loop {
        let view = game_of(&svc, &fake, &alice).await;
        if view.ply > ply {
            break view;
        }
        assert!(
            Instant::now() < deadline,
            "the second worker never played; its output:\n{}",
            quick.output().join("\n")
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(after.ply, ply + 1, "exactly one move at that ply");
    assert_eq!(after.to_act().expect("in play").user.0, alice.id);
    assert!(
        svc.engine_jobs()
            .await
            .expect("jobs")
            .iter()
            .all(|j| j.game != game),
        "the job ended with the move"
    );
    // The board of that move goes out once, in the game's thread, through the REST API.
    let mut conn = sqlx::PgConnection::connect(&db.url).await.expect("connect");
    let deadline = Instant::now() + Duration::from_secs(30);
    let nonce: String = loop {
        let row: Option<(String, String)> = sqlx::query_as(
            "SELECT nonce, state FROM outbox WHERE game_id = $1 AND ply = $2 AND kind = 'board'",
        )
        .bind(game.0)
        .bind(i64::from(ply + 1))
        .fetch_optional(&mut conn)
        .await
        .expect("the outbox");
        match row {
            Some((nonce, state)) if state == "sent" => break nonce,
            other => assert!(Instant::now() < deadline, "board not sent: {other:?}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    conn.close().await.ok();
    let posted: Vec<_> = fake
        .messages_in(thread)
        .into_iter()
        .filter(|m| m["nonce"].as_str() == Some(nonce.as_str()))
        .collect();
    assert_eq!(posted.len(), 1, "{posted:?}");
    let text = posted[0]["content"].as_str().unwrap_or_default();
    assert!(text.contains(&format!("<@{}>", alice.id)), "{text}");
    svc.close().await;
    drop((quick, bot));
    fake.assert_all_requests_valid();
}

#[test]
fn a_worker_against_sqlite_is_refused_with_one_line_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bot.db");
    let out = Command::new(env!("CARGO_BIN_EXE_gomoku-bot"))
        .args(["worker", "--engine-threads", "2", "--config"])
        .arg(dir.path().join("none.toml"))
        .env("DISCORD_TOKEN", "t")
        .env("DATABASE_URL", format!("sqlite://{}", file.display()))
        .env_remove("METRICS_LISTEN")
        .output()
        .expect("run the binary");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].contains("PostgreSQL"), "{stderr}");
    assert!(lines[0].contains("SQLite is one process"), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(!file.exists(), "nothing is written");
    // Bad thread counts are refused the same way.
    let out = Command::new(env!("CARGO_BIN_EXE_gomoku-bot"))
        .args(["worker", "--engine-threads", "0", "--config"])
        .arg(dir.path().join("none.toml"))
        .env("DISCORD_TOKEN", "t")
        .env("DATABASE_URL", "postgres://nobody@127.0.0.1:1/none")
        .output()
        .expect("run the binary");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}
