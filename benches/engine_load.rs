//! Do games against the computer delay other members' replies? The real bot against the fake
//! Discord of `tests/support/fake_discord`, on a SQLite file.
//!
//! In `GOMOKU_BENCH_ROUNDS` (default 3) rounds, alternately:
//! 1. Alone: two members play a game (`/move` after `/move`), the engine games paused.
//! 2. Load: `GOMOKU_BENCH_ENGINE_GAMES` (default 8) members each play the computer, as fast as
//!    it answers, so the engine always has positions waiting; the engine "thinks" by burning
//!    one core for `GOMOKU_BENCH_THINK_MS` (default 250, level 2's budget) per move and then
//!    choosing with [`SimplePlayer`], on at most `GOMOKU_BENCH_ENGINE_THREADS` (default 1,
//!    the configuration's default) threads. The same two members play again meanwhile.
//!
//! Latency of a move: from the fake sending INTERACTION_CREATE to the bot's interaction
//! callback (the board PNG) arriving at the fake, both by the fake's clock. The report gives
//! the median and p90 of both phases and their ratio.
//!
//! `GOMOKU_BENCH_THINK=sleep` makes the engine sleep instead of burning the CPU: the same
//! traffic (boards for the engine games' moves) without the thinking, as a control.
//!
//! Members pause 30 ms before each move, so each phase lasts a few seconds and spans many
//! engine moves.
//!
//! Run: `cargo bench --bench engine_load` (and, to see what the bound on threads buys,
//! `GOMOKU_BENCH_ENGINE_THREADS=2 cargo bench --bench engine_load` on a 2-core machine).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use gomoku_bot::discord::engine::{Engine, Thinker};
use gomoku_bot::discord::{self, Registration};
use gomoku_bot::engine::{Player, SimplePlayer};
use gomoku_bot::i18n::I18n;
use gomoku_bot::service::{EngineTurn, Service, ServiceConfig, SystemClock};
use gomoku_bot::store::StoreOptions;
use serenity::all::ChannelId;

#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)]
mod support;

use support::fake_discord::{
    FakeConfig, FakeDiscord, Req, RunningBot, Sent, SlashCommand, TestUser, message_id,
};

#[path = "e2e/members.rs"]
mod members;

// Only its start of a game is used here.
#[path = "e2e/play.rs"]
#[allow(dead_code)]
mod play;

use members::{
    content, env_number, is_ephemeral, measure, ms, playing_order, quantile, start_pair,
};

/// Moves measured in each phase of a round.
const PLIES: usize = 50;

/// One member playing the computer over and over (holding back while `paused`); counts the
/// engine's moves.
async fn engine_player(
    fake: Arc<FakeDiscord>,
    me: TestUser,
    paused: Arc<AtomicBool>,
    engine_moves: Arc<AtomicUsize>,
) {
    let bot = TestUser::new(fake.bot_user_id().get(), "gomoku-bot");
    let wait = Duration::from_secs(60);
    'games: loop {
        let started = fake
            .send(
                SlashCommand::new("challenge")
                    .by(&me)
                    .user("opponent", &bot)
                    .integer("game", 0)
                    .integer("size", 3)
                    .integer("level", 2),
            )
            .await;
        fake.next_request(&Req::callback(&started)).await;
        // The game is played in a thread opened from the answer (the thread takes its id).
        let Some(message) = fake.original_message(&started) else {
            continue;
        };
        let thread = message_id(&message);
        fake.next_request(&Req::post(&format!(
            "/channels/*/messages/{thread}/threads"
        )))
        .await;
        let thread = ChannelId::new(thread.get());
        // The engine's answers: in the thread at first, then as follow-ups of each move.
        let mut last: Option<Sent> = None;
        let mut candidates = playing_order(me.id as usize)[0].clone().into_iter();
        loop {
            while paused.load(Ordering::Relaxed) {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            let Some(point) = candidates.next() else {
                continue 'games;
            };
            let sent = fake
                .send(
                    SlashCommand::new("move")
                        .by(&me)
                        .in_channel(thread)
                        .string("at", &point),
                )
                .await;
            let answer = fake.next_request(&Req::callback(&sent)).await;
            let said = content(&answer);
            if is_ephemeral(&answer) {
                if said.contains("not your turn") {
                    // The engine moves first, or is still thinking: wait for its answer.
                    let engine_answer = match &last {
                        Some(last) => Req::followup(last),
                        None => Req::post(&format!("/channels/{thread}/messages")),
                    };
                    if fake.try_next_request(&engine_answer, wait).await.is_some() {
                        engine_moves.fetch_add(1, Ordering::Relaxed);
                    }
                    candidates = playing_order(me.id as usize)[0].clone().into_iter();
                    continue;
                }
                if said.contains("already taken") {
                    continue;
                }
                continue 'games; // over, or no game: start another
            }
            let followup = Req::followup(&sent);
            last = Some(sent);
            match fake.try_next_request(&followup, wait).await {
                Some(_) => {
                    engine_moves.fetch_add(1, Ordering::Relaxed);
                }
                None => continue 'games,
            }
        }
    }
}

/// A stand-in engine: burns one core for `think` (or only sleeps, with `burn` false: the same
/// traffic without the CPU, as a control), then plays the simple player's move.
fn busy_thinker(think: Duration, burn: bool) -> Thinker {
    Arc::new(move |turn: &EngineTurn| {
        if !burn {
            std::thread::sleep(think);
            return SimplePlayer::new().choose(&turn.game, think);
        }
        let until = Instant::now() + think;
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        while Instant::now() < until {
            for _ in 0..10_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
            }
            std::hint::black_box(x);
        }
        SimplePlayer::new().choose(&turn.game, think)
    })
}

async fn start_bot(fake: &FakeDiscord, db: &std::path::Path, engine: Engine) -> RunningBot {
    let service = Service::open(
        &StoreOptions::for_file(db),
        ServiceConfig {
            max_open_games_per_pair: 1_000,
            ..ServiceConfig::default()
        },
        Arc::new(SystemClock),
    )
    .await
    .expect("open the database");
    gomoku_bot::render::warm_up();
    let framework = discord::framework_with_engine(
        Arc::new(service),
        Arc::new(I18n::load()),
        Registration::Guild(fake.guild_id().get()),
        engine,
    );
    let client = discord::client(fake.http(), framework)
        .await
        .expect("build the client");
    RunningBot::spawn(client)
}

async fn bench() {
    let engine_games = env_number("GOMOKU_BENCH_ENGINE_GAMES", 8) as usize;
    let think = Duration::from_millis(env_number("GOMOKU_BENCH_THINK_MS", 250));
    let threads = env_number("GOMOKU_BENCH_ENGINE_THREADS", 1) as usize;
    let burn = std::env::var("GOMOKU_BENCH_THINK").as_deref() != Ok("sleep");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let fake = Arc::new(
        FakeDiscord::start_with(FakeConfig {
            wait_timeout: Duration::from_secs(60),
            ..FakeConfig::default()
        })
        .await,
    );
    let bot = start_bot(
        &fake,
        &dir.path().join("bot.db"),
        Engine::with_thinker(threads, busy_thinker(think, burn)),
    )
    .await;
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;

    let (a, b) = (fake.add_user("ann"), fake.add_user("bo"));
    let (thread, order) = start_pair(&fake, &a, &b).await;
    let points = playing_order(0);
    let rounds = env_number("GOMOKU_BENCH_ROUNDS", 3) as usize;
    measure(&fake, thread, &order, &points, 0, 10).await; // warm-up
    let mut ply = 10;

    let paused = Arc::new(AtomicBool::new(false));
    let engine_moves = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for i in 0..engine_games {
        let me = fake.add_user(&format!("solo{i:02}"));
        tasks.push(tokio::spawn(engine_player(
            Arc::clone(&fake),
            me,
            Arc::clone(&paused),
            Arc::clone(&engine_moves),
        )));
    }
    // Alone and loaded phases alternate, so that the machine's other work (it is shared)
    // weighs on both alike. Pausing lets the positions already queued drain first.
    let drain = think * u32::try_from(engine_games.div_ceil(threads)).unwrap_or(1)
        + Duration::from_millis(500);
    let (mut alone, mut loaded) = (Vec::new(), Vec::new());
    let (mut engine_during, mut loaded_wall) = (0, Duration::ZERO);
    for _ in 0..rounds {
        paused.store(true, Ordering::Relaxed);
        tokio::time::sleep(drain).await;
        alone.extend(measure(&fake, thread, &order, &points, ply, PLIES).await);
        ply += PLIES;
        paused.store(false, Ordering::Relaxed);
        // Let the engine's queue fill again.
        tokio::time::sleep(think * 2 + Duration::from_millis(500)).await;
        let before = engine_moves.load(Ordering::Relaxed);
        let start = Instant::now();
        loaded.extend(measure(&fake, thread, &order, &points, ply, PLIES).await);
        ply += PLIES;
        loaded_wall += start.elapsed();
        engine_during += engine_moves.load(Ordering::Relaxed) - before;
    }
    for t in tasks {
        t.abort();
    }
    bot.shutdown().await;

    alone.sort_unstable();
    loaded.sort_unstable();
    let (m0, m1) = (quantile(&alone, 0.5), quantile(&loaded, 0.5));
    println!();
    println!(
        "load average: {}",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    println!(
        "engine load: {engine_games} games against the computer, {} ms of {} per engine move, \
         {threads} engine thread(s); {rounds} rounds of {PLIES} moves alone, then loaded; {} cores",
        think.as_millis(),
        if burn { "CPU" } else { "sleep (control)" },
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!(
        "{:<44} {:>6} {:>9} {:>9} {:>9}",
        "members' move -> reply latency (ms)", "moves", "median", "p90", "max"
    );
    for (label, s) in [
        ("2 members alone", &alone),
        ("2 members, engine games thinking", &loaded),
    ] {
        println!(
            "{label:<44} {:>6} {:>9.2} {:>9.2} {:>9.2}",
            s.len(),
            ms(quantile(s, 0.5)),
            ms(quantile(s, 0.9)),
            ms(*s.last().expect("samples"))
        );
    }
    println!(
        "median ratio loaded/alone: {:.2}; the engine made {engine_during} moves in the {:.1} s \
         of the loaded phase ({:.1} per second; at most {:.1} with {threads} thread(s))",
        m1.as_secs_f64() / m0.as_secs_f64(),
        loaded_wall.as_secs_f64(),
        engine_during as f64 / loaded_wall.as_secs_f64(),
        threads as f64 / think.as_secs_f64()
    );
}

fn main() {
    // `cargo test --benches` runs benches with `--bench`-less arguments: keep that quick.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    // The same runtime as `gomoku-bot run`: multi-threaded, one worker per core.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(bench());
}
