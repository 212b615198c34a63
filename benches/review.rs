//! Engine review of a finished game: how long a review takes at the review's node budget, the
//! win-chance chart's PNG size and drawing time, and whether reviews delay members' replies.
//!
//! 1. Criterion: a whole review ([`Analyser::run`] then [`Analyser::review`]) of a 57-move
//!    Pente game and a 39-move Gomoku game (the issue asks for about 60 and 40: real games of
//!    those lengths) at [`NODE_BUDGET`] nodes per position, one thread
//!    (as the bot runs it: one position after another on the engine's pool); drawing and
//!    encoding the chart of the Pente review (both themes), with the PNG's size printed.
//! 2. Latency, the method of `benches/engine_load.rs`: the real bot against the fake Discord
//!    of `tests/support/fake_discord`, on a SQLite file seeded with finished games. In
//!    `GOMOKU_BENCH_ROUNDS` (default 3) rounds, two members play `PLIES` moves alone, then
//!    the same number while two `/review`s are always running (two members ask for one
//!    review after another, each of a game not reviewed yet). Latency of a move: from the fake
//!    sending INTERACTION_CREATE to the bot's callback (the board PNG) arriving, both by the
//!    fake's clock; medians, p90 and the ratio loaded/alone.
//!
//! The games are real: engine-against-engine games of `gomoku-bot arena`, chosen for their
//! length.
//!
//! Run: `cargo bench --bench review` (`GOMOKU_BENCH_LATENCY=0` skips part 2).

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use gomoku_bot::discord::{self, Registration};
use gomoku_bot::i18n::I18n;
use gomoku_bot::render::{Theme, render_chart_png};
use gomoku_bot::rules::{Action, Game, RuleSet};
use gomoku_bot::service::review::{Analyser, NODE_BUDGET, Review};
use gomoku_bot::service::{
    Actor, ChallengeRequest, GameId, Service, ServiceConfig, SystemClock, UserInfo,
};
use gomoku_bot::store::StoreOptions;

#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)]
mod support;

use support::fake_discord::{
    FakeConfig, FakeDiscord, Req, RunningBot, SlashCommand, TestUser, message_id,
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

/// A 57-move Pente game (`arena --rules pente --a level=3 --b level=3 --seed 7`, game 8;
/// the first player wins).
const PENTE: &str = "K10 O13 M7 N13 P13 M13 M8 M9 M6 L9 N9 L13 K13 K9 L7 K6 M4 M5 N5 J9 H9 \
    O4 L3 O6 K2 J1 P11 O10 P12 P10 N7 O7 O8 O3 O5 O6 P15 P14 O2 P5 N7 M8 Q10 P9 P8 P9 M7 N11 \
    M12 K7 Q4 M10 O6 N5 R3 P5 N7";
/// A 39-move Gomoku game (`arena --rules gomoku --a level=2 --b level=3 --seed 22`, game 11;
/// the first player wins).
const GOMOKU: &str = "K8 D9 J6 D8 D10 E9 F10 E10 E11 C9 F9 F11 C8 A9 B9 F6 E7 D6 D12 D7 D5 \
    G9 E6 G12 H13 C13 E5 E4 G8 C4 H8 J8 H9 F7 H7 K5 H10 H11 H6";

fn record(spec: &str, moves: &str) -> (RuleSet, Vec<Action>) {
    let rules = RuleSet::from_spec(spec).expect("valid rules");
    let mut game = Game::new(rules);
    let mut actions = Vec::new();
    for t in moves.split_whitespace() {
        let a = Action::parse(t, game.size()).expect("a move");
        game.apply(a).expect("legal");
        actions.push(a);
    }
    assert!(game.is_over(), "{spec}: the game is finished");
    (rules, actions)
}

fn review_of(rules: RuleSet, actions: &[Action]) -> Review {
    let mut analyser = Analyser::new(rules, actions).expect("reviewable");
    let evals = analyser.run(|_, _| {});
    analyser.review(&evals)
}

fn bench_reviews(c: &mut Criterion) {
    let mut group = c.benchmark_group("review");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(40));
    for (spec, moves) in [("pente", PENTE), ("gomoku", GOMOKU)] {
        let (rules, actions) = record(spec, moves);
        let name = format!("{spec}, {} moves, {NODE_BUDGET} nodes", actions.len());
        group.bench_function(name, |b| b.iter(|| black_box(review_of(rules, &actions))));
    }
    group.finish();
}

fn bench_chart(c: &mut Criterion) {
    let (rules, actions) = record("pente", PENTE);
    let review = review_of(rules, &actions);
    let chart = review.chart("Black's chance of winning".into(), "Move".into());
    for theme in [Theme::Light, Theme::Dark] {
        let png = render_chart_png(&chart, theme);
        println!(
            "chart PNG of the {}-move Pente review ({theme:?}): {} bytes, {} marks",
            actions.len(),
            png.len(),
            chart.marks.len()
        );
        c.bench_function(
            &format!("chart draw+encode, {} moves, {theme:?}", actions.len()),
            |b| b.iter(|| black_box(render_chart_png(&chart, theme))),
        );
    }
}

criterion_group!(benches, bench_reviews, bench_chart);

// ---- Part 2: members' reply latency while two reviews run ----

/// Moves measured in each phase of a round.
const PLIES: usize = 50;
/// Finished games seeded for the reviews (each is reviewed once; a second `/review` would be
/// answered from storage and load nothing).
const SEEDED: usize = 40;

/// Plays the finished games into the database before the bot starts; returns their ids.
async fn seed_games(db: &std::path::Path, guild: u64, channel: u64) -> Vec<GameId> {
    let svc = Service::open(
        &StoreOptions::for_file(db),
        ServiceConfig {
            max_open_games_per_pair: 1_000,
            ..ServiceConfig::default()
        },
        Arc::new(SystemClock),
    )
    .await
    .expect("open the database");
    let ann = Actor::new(guild, channel, UserInfo::new(11, "Ann"));
    let bo = Actor::new(guild, channel, UserInfo::new(12, "Bo"));
    let mut ids = Vec::new();
    for k in 0..SEEDED {
        let (spec, moves) = if k % 2 == 0 {
            ("pente", PENTE)
        } else {
            ("gomoku", GOMOKU)
        };
        let request = ChallengeRequest {
            opponent: Some(bo.user.clone()),
            rules: Some(RuleSet::from_spec(spec).expect("rules")),
            time: None,
            rated: false,
        };
        let challenge = svc.challenge(&ann, request).await.expect("challenge");
        let view = svc
            .accept(&bo, challenge.id)
            .await
            .expect("accept")
            .game
            .expect("a game");
        let first_is_ann = view.to_act().expect("in play").user == ann.user.id;
        for (i, t) in moves.split_whitespace().enumerate() {
            let who = if (i % 2 == 0) == first_is_ann {
                &ann
            } else {
                &bo
            };
            svc.play_token(who, Some(view.id), t, None)
                .await
                .expect("a move of the record");
        }
        ids.push(view.id);
    }
    svc.close().await;
    ids
}

/// Asks for one review after another (as `me`) while not `paused`, taking game ids from
/// `next`; counts the finished reviews and the reviews in flight.
async fn reviewer(
    fake: Arc<FakeDiscord>,
    me: TestUser,
    games: Arc<Vec<GameId>>,
    next: Arc<AtomicUsize>,
    paused: Arc<AtomicBool>,
    in_flight: Arc<AtomicUsize>,
    done: Arc<AtomicUsize>,
) {
    loop {
        while paused.load(Ordering::Relaxed) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let Some(&game) = games.get(next.fetch_add(1, Ordering::Relaxed)) else {
            eprintln!("out of games to review: seed more (SEEDED)");
            return;
        };
        in_flight.fetch_add(1, Ordering::Relaxed);
        let sent = fake
            .send(SlashCommand::new("review").by(&me).integer("game", game.0))
            .await;
        let answer = fake.next_request(&Req::callback(&sent)).await;
        assert!(!is_ephemeral(&answer), "refused: {}", content(&answer));
        let message = message_id(&fake.original_message(&sent).expect("the progress message"));
        let finished = Req::patch(&format!("/channels/*/messages/{message}"))
            .matching(|r| !r.files().is_empty());
        let ok = fake
            .try_next_request(&finished, Duration::from_secs(600))
            .await
            .is_some();
        in_flight.fetch_sub(1, Ordering::Relaxed);
        if ok {
            done.fetch_add(1, Ordering::Relaxed);
        }
    }
}

async fn start_bot(fake: &FakeDiscord, db: &std::path::Path) -> RunningBot {
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
    // One engine thread: the configuration's default (`game.engine_threads`).
    let framework = discord::framework(
        Arc::new(service),
        Arc::new(I18n::load()),
        Registration::Guild(fake.guild_id().get()),
    );
    let client = discord::client(fake.http(), framework)
        .await
        .expect("build the client");
    RunningBot::spawn(client)
}

async fn latency() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("bot.db");
    let fake = Arc::new(
        FakeDiscord::start_with(FakeConfig {
            wait_timeout: Duration::from_secs(120),
            ..FakeConfig::default()
        })
        .await,
    );
    let games = Arc::new(seed_games(&db, fake.guild_id().get(), fake.channel_id().get()).await);
    let bot = start_bot(&fake, &db).await;
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;

    let (a, b) = (fake.add_user("ann"), fake.add_user("bo"));
    let (thread, order) = start_pair(&fake, &a, &b).await;
    let points = playing_order(0);
    let rounds = env_number("GOMOKU_BENCH_ROUNDS", 3) as usize;
    measure(&fake, thread, &order, &points, 0, 10).await; // warm-up
    let mut ply = 10;

    let paused = Arc::new(AtomicBool::new(true));
    let (next, in_flight, done) = (
        Arc::new(AtomicUsize::new(0)),
        Arc::new(AtomicUsize::new(0)),
        Arc::new(AtomicUsize::new(0)),
    );
    let mut tasks = Vec::new();
    for i in 0..2 {
        tasks.push(tokio::spawn(reviewer(
            Arc::clone(&fake),
            fake.add_user(&format!("reviewer{i}")),
            Arc::clone(&games),
            Arc::clone(&next),
            Arc::clone(&paused),
            Arc::clone(&in_flight),
            Arc::clone(&done),
        )));
    }
    let (mut alone, mut loaded) = (Vec::new(), Vec::new());
    let (mut reviews_during, mut loaded_wall) = (0, Duration::ZERO);
    for _ in 0..rounds {
        // Alone: no review starts, and those running finish first.
        paused.store(true, Ordering::Relaxed);
        while in_flight.load(Ordering::Relaxed) > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        alone.extend(measure(&fake, thread, &order, &points, ply, PLIES).await);
        ply += PLIES;
        paused.store(false, Ordering::Relaxed);
        while in_flight.load(Ordering::Relaxed) < 2 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // Let both analyses get going.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let before = done.load(Ordering::Relaxed);
        let start = Instant::now();
        loaded.extend(measure(&fake, thread, &order, &points, ply, PLIES).await);
        ply += PLIES;
        loaded_wall += start.elapsed();
        reviews_during += done.load(Ordering::Relaxed) - before;
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
        "review load: two /review always running ({NODE_BUDGET} nodes a position, 1 engine \
         thread); {rounds} rounds of {PLIES} moves alone, then loaded; {} cores",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!(
        "{:<44} {:>6} {:>9} {:>9} {:>9}",
        "members' move -> reply latency (ms)", "moves", "median", "p90", "max"
    );
    for (label, s) in [
        ("2 members alone", &alone),
        ("2 members, two reviews running", &loaded),
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
        "median ratio loaded/alone: {:.2}; {reviews_during} reviews finished during the {:.1} s \
         of the loaded phases",
        m1.as_secs_f64() / m0.as_secs_f64(),
        loaded_wall.as_secs_f64(),
    );
}

fn main() {
    // `cargo test --benches` runs benches without `--bench`: keep that quick.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
    if env_number("GOMOKU_BENCH_LATENCY", 1) != 0 {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(latency());
    }
}
