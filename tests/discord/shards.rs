//! Gateway shards (issue 11, part 2), with the real binary against the fake Discord: bad shard
//! options stop the bot at start with one line and nothing written; without options one
//! process runs every shard Discord recommends; two processes with one shard each of two, on
//! one PostgreSQL database, answer the guilds of their own shards and together behave as one
//! bot (every move once, every board once).

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::time::Duration;

use serenity::all::ChannelId;

use crate::bot::{Started, content, is_ephemeral, start_two_player_in};
use crate::ops::{BotProcess, slow_start};
use crate::support::fake_discord::{FakeConfig, FakeDiscord, Req, SlashCommand};
use crate::support::test_db::TestDb;

/// A configuration file registering the commands globally (a sharded bot serves many guilds).
const GLOBAL: &str = "shutdown_grace_seconds = 15\n";

/// The points of a game's first plies, far from any five: ply `n` (from 0).
pub(crate) fn point(n: usize) -> String {
    let column = ["A", "C", "E", "G", "J", "L", "N"][n / 2 % 7];
    let row = if n.is_multiple_of(2) {
        1 + n / 14
    } else {
        5 + n / 14
    };
    format!("{column}{row}")
}

/// Plays ply `n` of `game`; whether the answer was the public board of that move.
pub(crate) async fn play_ply(fake: &FakeDiscord, game: &Started, n: usize) -> bool {
    let p = point(n);
    let sent = fake
        .send(
            SlashCommand::new("move")
                .by(&game.order[n % 2])
                .in_channel(game.thread)
                .string("at", &p),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    !is_ephemeral(&answer) && content(&answer).contains(&format!("played {p}."))
}

/// For each thread, how many of its stored messages carry the board after each point played.
pub(crate) fn boards_posted(fake: &FakeDiscord, thread: ChannelId) -> HashMap<String, usize> {
    let mut out = HashMap::new();
    for m in fake.messages_in(thread) {
        if m["attachments"].as_array().is_none_or(|a| a.is_empty()) {
            continue;
        }
        let text = m["content"].as_str().unwrap_or_default();
        if let Some(rest) = text.split("played ").nth(1)
            && let Some(p) = rest.split('.').next()
        {
            *out.entry(p.to_owned()).or_insert(0) += 1;
        }
    }
    out
}

/// Nonces sent more than once in channel messages (the outbox's posts): a row posted by two
/// processes (Discord would answer the second with the first message).
pub(crate) fn nonces_sent_twice(fake: &FakeDiscord) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for r in fake.requests_matching(&Req::post("/channels/*/messages")) {
        if let Some(n) = r.json_or_null()["nonce"].as_str() {
            *seen.entry(n.to_owned()).or_insert(0) += 1;
        }
    }
    seen.into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(k, _)| k)
        .collect()
}

/// The `[shard_id, shard_total]` of every IDENTIFY so far.
pub(crate) fn identified_shards(fake: &FakeDiscord) -> BTreeSet<(u64, u64)> {
    fake.identify_payloads()
        .iter()
        .map(|i| {
            let s = &i["d"]["shard"];
            (s[0].as_u64().unwrap_or(0), s[1].as_u64().unwrap_or(1))
        })
        .collect()
}

/// Runs the binary with `args`; expects status 2, one `error:` line starting with `expected`,
/// no database file and no request to Discord.
async fn refused(dir: &Path, args: &[&str], expected: &str) {
    let fake = FakeDiscord::start_with(slow_start()).await;
    let mut bot = BotProcess::spawn(&fake, dir, GLOBAL, &[], args);
    let status = bot.exit_code(Duration::from_secs(30)).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    let output = bot.output();
    assert_eq!(status, Some(2), "{args:?}: {output:?}");
    let errors: Vec<&String> = output.iter().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{args:?}: {output:?}");
    assert!(
        errors[0].starts_with(expected),
        "{args:?}: {} (expected {expected})",
        errors[0]
    );
    assert!(
        !dir.join("bot.db").exists(),
        "{args:?}: a database was made"
    );
    assert!(fake.requests().is_empty(), "{args:?}: Discord was asked");
    assert_eq!(fake.identifies(), 0, "{args:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_shard_options_stop_the_bot_with_one_line_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for (args, expected) in [
        (
            &["--shards", "2-3", "--shard-total", "2"][..],
            "error: --shards/--shard-total: the shard range 2-3 is outside the shard total 2",
        ),
        (
            &["--shards", "3-1", "--shard-total", "8"][..],
            "error: --shards/--shard-total: the shard range 3-1 is reversed",
        ),
        (
            &["--shards", "0-1", "--shard-total", "0"][..],
            "error: --shards/--shard-total: the shard total must be at least 1",
        ),
        (
            &["--shards", "zero-one", "--shard-total", "2"][..],
            "error: --shards/--shard-total: `zero-one` is not a shard range",
        ),
        (
            &["--shards", "0-1"][..],
            "error: --shards/--shard-total: the shard range 0-1 needs the shard total",
        ),
        (
            &["--shards", "0", "--shard-total", "x"][..],
            "error: invalid value 'x' for '--shard-total <N>'",
        ),
    ] {
        refused(dir.path(), args, expected).await;
    }
    // The same checks on the configuration file's settings.
    let fake = FakeDiscord::start_with(slow_start()).await;
    let config = format!("{GLOBAL}[discord]\nshards = \"1-2\"\nshard_total = 2\n");
    let mut bot = BotProcess::spawn(&fake, dir.path(), &config, &[], &[]);
    assert_eq!(bot.exit_code(Duration::from_secs(30)).await, Some(2));
    tokio::time::sleep(Duration::from_millis(50)).await;
    let errors: Vec<String> = bot
        .output()
        .into_iter()
        .filter(|l| l.starts_with("error:"))
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("error: setting discord.shards: the shard range 1-2 is outside"),
        "{}",
        errors[0]
    );
    assert!(!dir.path().join("bot.db").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_shard_options_one_process_runs_every_shard_discord_recommends() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start_with(FakeConfig {
        shards: 2,
        // Serenity boots the shards of one process five seconds apart.
        wait_timeout: Duration::from_secs(60),
        ..FakeConfig::default()
    })
    .await;
    let (_, zero) = fake.add_guild_on_shard("Shard zero", 0, 2);
    let (_, one) = fake.add_guild_on_shard("Shard one", 1, 2);
    let mut bot = BotProcess::spawn(&fake, dir.path(), GLOBAL, &[], &[]);
    fake.wait_for_shard(0).await;
    fake.wait_for_shard(1).await;
    fake.next_request(&Req::put("/applications/*/commands"))
        .await;
    assert_eq!(
        identified_shards(&fake),
        BTreeSet::from([(0, 2), (1, 2)]),
        "both recommended shards, from one process"
    );
    assert_eq!(
        fake.requests_matching(&Req::get("/gateway/bot")).len(),
        1,
        "it asked Discord for the shard count"
    );
    // A game in a guild of each shard: each shard's connection carries its guild's events.
    let (a, b) = (fake.add_user("ann"), fake.add_user("bo"));
    for channel in [zero, one] {
        let game = start_two_player_in(&fake, Some(channel), &a, &b, &[("game", 0)]).await;
        assert!(play_ply(&fake, &game, 0).await);
        assert!(play_ply(&fake, &game, 1).await);
    }
    fake.assert_all_requests_valid();
    bot.kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_with_a_shard_each_on_one_postgres_database_behave_as_one_bot() {
    let Some(db) = TestDb::postgres("two_processes_with_a_shard_each").await else {
        return;
    };
    let fake = FakeDiscord::start_with(FakeConfig {
        shards: 2,
        wait_timeout: Duration::from_secs(60),
        ..FakeConfig::default()
    })
    .await;
    let (_, zero) = fake.add_guild_on_shard("Shard zero", 0, 2);
    let (_, one) = fake.add_guild_on_shard("Shard one", 1, 2);
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let env = [("DATABASE_URL", db.url.as_str())];
    let bots: Vec<BotProcess> = ["0", "1"]
        .iter()
        .zip(&dirs)
        .map(|(shard, dir)| {
            let args = ["--shards", shard, "--shard-total", "2"];
            BotProcess::spawn(&fake, dir.path(), GLOBAL, &env, &args)
        })
        .collect();
    fake.wait_for_shard(0).await;
    fake.wait_for_shard(1).await;
    for _ in 0..2 {
        fake.next_request(&Req::put("/applications/*/commands"))
            .await;
    }
    assert_eq!(identified_shards(&fake), BTreeSet::from([(0, 2), (1, 2)]));
    assert!(
        fake.requests_matching(&Req::get("/gateway/bot")).is_empty(),
        "with a range given, nobody asks for the recommended count"
    );
    // Two games in each shard's guild, played in turns across all four.
    let mut games = Vec::new();
    for (n, channel) in [zero, one, zero, one].into_iter().enumerate() {
        let a = fake.add_user(&format!("a{n}"));
        let b = fake.add_user(&format!("b{n}"));
        games.push(start_two_player_in(&fake, Some(channel), &a, &b, &[("game", 0)]).await);
    }
    const PLIES: usize = 6;
    for n in 0..PLIES {
        for game in &games {
            assert!(play_ply(&fake, game, n).await, "ply {n}");
        }
    }
    // The database holds each move once (its unique key), in both shards' games.
    let mut conn = db.raw().await;
    let rows = sqlx::query("SELECT game_id, ply, action FROM moves ORDER BY game_id, ply")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    use sqlx::Row as _;
    let mut by_game: HashMap<i64, Vec<String>> = HashMap::new();
    for r in &rows {
        by_game
            .entry(r.get::<i64, _>(0))
            .or_default()
            .push(r.get::<String, _>(2));
    }
    assert_eq!(by_game.len(), games.len(), "{by_game:?}");
    let expected: Vec<String> = (0..PLIES).map(point).collect();
    for moves in by_game.values() {
        assert_eq!(moves, &expected);
    }
    // Each board once in its thread, and no outbox row posted by both processes.
    for game in &games {
        let posted = boards_posted(&fake, game.thread);
        for p in &expected {
            assert_eq!(posted.get(p), Some(&1), "{p}: {posted:?}");
        }
    }
    let twice = nonces_sent_twice(&fake);
    assert!(twice.is_empty(), "posted by both processes: {twice:?}");
    fake.assert_all_requests_valid();
    drop(bots);
}
