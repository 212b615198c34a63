//! End-to-end speed of the bot under load (issue 5): the real bot (`gomoku_bot::discord`, poise
//! on the real serenity client) against the fake Discord of `tests/support/fake_discord`, on a
//! SQLite database file on disk with the default durability (`synchronous=FULL`).
//!
//! 1. 25 two-player games (50 players) start through `/challenge` and the Accept button.
//! 2. Baseline: one more game, its two players alone, moving one after the other.
//! 3. Load: all 50 players move at once "as fast as the bot answers": a player sends `/move`
//!    when it is their turn and the opponent moves once the bot's answer has arrived.
//!
//! Latency of a move: from the fake sending INTERACTION_CREATE ([`Sent::sent_at`]) to the
//! bot's interaction callback, which carries the board PNG, arriving at the fake
//! ([`RecordedRequest::at`]). The fake and the bot share the process (and its two cores), so
//! memory and CPU figures cover both; the summary estimates the fake's share.
//!
//! Run: `cargo bench --bench discord`. Environment:
//! - `GOMOKU_BENCH_PLIES` (default 100): moves per game under load (25 times that in all);
//! - `GOMOKU_BENCH_DURABILITY=normal`: `synchronous=NORMAL` instead of the default `FULL`, to
//!   see what the sync per commit costs;
//! - `GOMOKU_BENCH_MARKS`: print the monotonic clock at the load's start and end, to cut a
//!   `perf record -k CLOCK_MONOTONIC` profile to the load phase.

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gomoku_bot::discord::{self, Registration};
use gomoku_bot::i18n::I18n;
use gomoku_bot::rules::Point;
use gomoku_bot::service::{Service, ServiceConfig, SystemClock};
use gomoku_bot::store::{Durability, StoreOptions};
use serde_json::Value;
use serenity::all::ChannelId;
use tokio::sync::{mpsc, oneshot};

// The harness allows its own dead code; the bench leaves some of its re-exports unused, and in
// a bench build the imports of its unit tests (whose #[test] functions are not built) as well.
#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)]
mod support;

use support::fake_discord::{
    Click, FakeConfig, FakeDiscord, RecordedRequest, Req, RunningBot, SlashCommand, TestUser,
    message_id,
};

/// Counts the bytes the Rust heap holds (SQLite's own C heap is not counted).
struct Counting;

static HEAP: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        HEAP.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HEAP.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        HEAP.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Games played at once under load (two players each).
const GAMES: usize = 25;
/// Board size: 19x19 leaves room for long games.
const SIZE: u8 = 19;
/// Moves of the uncontended baseline game.
const BASELINE_PLIES: usize = 60;
/// Issue 5's targets.
const TARGET_MEDIAN: Duration = Duration::from_millis(15);
const TARGET_P99: Duration = Duration::from_millis(50);
/// How long a player waits for the bot's answer before the benchmark gives up.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// The points of each colour, in playing order, for game number `game`.
///
/// Colour of (x, y) is bit 1 of `(x + 2y + game) mod 4`: along a row colours come in pairs,
/// down a column they alternate, and along both diagonals runs are at most two long, so no
/// one ever gets five in a row (Gomoku without captures) and a game lasts as long as the
/// board has room: about 180 moves per colour. Points closest to the centre come first, as
/// in real games, give or take a few rows of the board in an order of the game's own, so
/// that no two games show the same rows of stones (the board pictures' band cache would
/// otherwise find most of a game's picture in the other games'). The order is
/// deterministic.
fn playing_order(game: usize) -> [Vec<String>; 2] {
    let centre = i32::from(SIZE / 2);
    let mut points: Vec<(i32, u64, u8, u8)> = (0..SIZE)
        .flat_map(|x| (0..SIZE).map(move |y| (x, y)))
        .map(|(x, y)| {
            let (dx, dy) = (i32::from(x) - centre, i32::from(y) - centre);
            let tie = (game as u64 + 1)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(u64::from(x) << 8 | u64::from(y))
                .wrapping_mul(0xBF58_476D_1CE4_E5B9);
            (dx * dx + dy * dy + (tie >> 32) as i32 % 24, tie >> 32, x, y)
        })
        .collect();
    points.sort_unstable();
    let mut colours = [Vec::new(), Vec::new()];
    for (_, _, x, y) in points {
        let colour = ((usize::from(x) + 2 * usize::from(y) + game) % 4) / 2;
        let name = Point::new(x, y, SIZE).expect("on the board").name();
        colours[colour].push(name);
    }
    colours
}

/// One move as measured.
#[derive(Clone, Copy, Debug)]
struct Sample {
    /// INTERACTION_CREATE sent to the callback with the PNG received, by the fake's clock.
    latency: Duration,
    /// How long the fake took to build, check and send the interaction (not in `latency`
    /// except for the send itself).
    inject: Duration,
    /// Bytes of the board PNG.
    png_bytes: usize,
}

/// Hands each interaction callback to the player waiting for it.
#[derive(Default)]
struct Router {
    waiting: HashMap<u64, oneshot::Sender<RecordedRequest>>,
    /// Callbacks that arrived before their player asked (the bot can be that fast).
    early: HashMap<u64, RecordedRequest>,
    /// Requests other than interaction callbacks, by method and route shape.
    others: BTreeMap<String, usize>,
}

impl Router {
    fn expect(router: &Mutex<Router>, id: u64) -> oneshot::Receiver<RecordedRequest> {
        let (tx, rx) = oneshot::channel();
        let mut r = router.lock().expect("router lock");
        match r.early.remove(&id) {
            Some(request) => {
                let _ = tx.send(request);
            }
            None => {
                r.waiting.insert(id, tx);
            }
        }
        rx
    }

    async fn run(
        router: Arc<Mutex<Router>>,
        mut requests: mpsc::UnboundedReceiver<RecordedRequest>,
    ) {
        while let Some(request) = requests.recv().await {
            let segments = request.segments();
            let callback = match segments.as_slice() {
                ["interactions", id, _, "callback"] => id.parse::<u64>().ok(),
                _ => None,
            };
            let mut r = router.lock().expect("router lock");
            match callback {
                Some(id) => match r.waiting.remove(&id) {
                    Some(tx) => {
                        let _ = tx.send(request);
                    }
                    None => {
                        r.early.insert(id, request);
                    }
                },
                None => {
                    let shape: Vec<&str> = segments
                        .iter()
                        .map(|s| if s.parse::<u64>().is_ok() { "*" } else { s })
                        .collect();
                    *r.others
                        .entry(format!("{} /{}", request.method, shape.join("/")))
                        .or_default() += 1;
                }
            }
        }
    }
}

/// A started game: its thread and its players in playing order.
struct Game {
    thread: ChannelId,
    order: [TestUser; 2],
}

/// `a` challenges `b` to freestyle Gomoku on 19x19 with no opening rule; `b` accepts.
async fn start_game(fake: &FakeDiscord, a: &TestUser, b: &TestUser) -> Game {
    // Choice indices of /challenge: game 0 = gomoku, size 3 = 19x19, opening 0 = none.
    let challenge = SlashCommand::new("challenge")
        .by(a)
        .user("opponent", b)
        .integer("game", 0)
        .integer("size", 3)
        .integer("opening", 0);
    let sent = fake.send(challenge).await;
    fake.next_request(&Req::callback(&sent)).await;
    let message = message_id(&fake.original_message(&sent).expect("the challenge message"));
    let accept = buttons(&fake.message(message).expect("stored"))
        .into_iter()
        .find(|id| id.contains(":acc:"))
        .expect("an Accept button");
    let click = fake.send(Click::button(message, &accept).by(b)).await;
    fake.next_request(&Req::callback(&click)).await;
    let thread = fake
        .next_request(&Req::post("/channels/*/messages/*/threads"))
        .await;
    let thread = ChannelId::new(thread.created_id().expect("a thread id"));
    let board = fake
        .next_request(&Req::post(&format!("/channels/{thread}/messages")))
        .await;
    let content = board.json_or_null()["content"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let first = content
        .split("<@")
        .nth(1)
        .and_then(|rest| rest.split('>').next())
        .and_then(|id| id.parse::<u64>().ok())
        .expect("the first board mentions who moves first");
    let order = if first == a.id {
        [a.clone(), b.clone()]
    } else {
        [b.clone(), a.clone()]
    };
    Game { thread, order }
}

/// The custom ids of a message's buttons.
fn buttons(message: &Value) -> Vec<String> {
    message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|b| b["custom_id"].as_str().map(str::to_owned))
        .collect()
}

/// Checks that an answer is the public board with its picture; returns the PNG's size.
fn board_png(answer: &RecordedRequest) -> Result<usize, String> {
    let flags = answer.json_or_null()["data"]["flags"].as_u64().unwrap_or(0);
    let png = answer
        .files()
        .first()
        .filter(|f| f.data.starts_with(b"\x89PNG\r\n\x1a\n"))
        .map(|f| f.data.len());
    match (answer.status, flags & 64, png) {
        (204, 0, Some(bytes)) => Ok(bytes),
        _ => Err(format!(
            "not a public board with a PNG: {}",
            answer.summary()
        )),
    }
}

/// One player: waits for their turn (the ply number), moves, waits for the bot's answer,
/// passes the turn. Stops after `plies` moves in the game, or when the opponent stops.
#[allow(clippy::too_many_arguments)]
async fn player(
    fake: Arc<FakeDiscord>,
    router: Arc<Mutex<Router>>,
    me: TestUser,
    thread: ChannelId,
    points: Vec<String>,
    plies: usize,
    mut my_turn: mpsc::UnboundedReceiver<usize>,
    their_turn: mpsc::UnboundedSender<usize>,
) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    while let Some(ply) = my_turn.recv().await {
        if ply >= plies {
            break;
        }
        let at = points
            .get(ply / 2)
            .ok_or_else(|| format!("no point left for ply {ply}"))?;
        let started = Instant::now();
        let sent = fake
            .try_send(
                SlashCommand::new("move")
                    .by(&me)
                    .in_channel(thread)
                    .string("at", at),
            )
            .await
            .map_err(|e| e.to_string())?;
        let inject = started.elapsed();
        let answer = tokio::time::timeout(ANSWER_TIMEOUT, Router::expect(&router, sent.id.get()))
            .await
            .map_err(|_| {
                format!(
                    "no answer to {} at ply {ply} within {ANSWER_TIMEOUT:?}",
                    me.username
                )
            })?
            .map_err(|_| "the router stopped".to_owned())?;
        let png_bytes = board_png(&answer).map_err(|e| format!("{} at {at}: {e}", me.username))?;
        samples.push(Sample {
            latency: answer.at.saturating_sub(sent.sent_at),
            inject,
            png_bytes,
        });
        if their_turn.send(ply + 1).is_err() {
            break;
        }
    }
    Ok(samples)
}

/// Plays `plies` moves in every game at once; returns the samples and the wall time.
async fn play_all(
    fake: &Arc<FakeDiscord>,
    router: &Arc<Mutex<Router>>,
    games: &[(usize, &Game)],
    plies: usize,
) -> (Vec<Sample>, Duration) {
    let mut tasks = Vec::new();
    let mut openers = Vec::new();
    for (number, game) in games {
        let [first_points, second_points] = playing_order(*number);
        let (first_tx, first_rx) = mpsc::unbounded_channel();
        let (second_tx, second_rx) = mpsc::unbounded_channel();
        openers.push(first_tx.clone());
        for (user, points, rx, tx) in [
            (&game.order[0], first_points, first_rx, second_tx),
            (&game.order[1], second_points, second_rx, first_tx),
        ] {
            tasks.push(tokio::spawn(player(
                Arc::clone(fake),
                Arc::clone(router),
                user.clone(),
                game.thread,
                points,
                plies,
                rx,
                tx,
            )));
        }
    }
    let started = Instant::now();
    for opener in openers {
        opener.send(0).expect("the first player waits");
    }
    let mut samples = Vec::new();
    for task in tasks {
        match task.await {
            Ok(Ok(mine)) => samples.extend(mine),
            Ok(Err(e)) => panic!("a player failed: {e}"),
            Err(e) => panic!("a player task failed: {e}"),
        }
    }
    (samples, started.elapsed())
}

/// The `q` quantile (nearest rank) of sorted durations.
fn quantile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

fn mb(bytes: f64) -> String {
    format!("{:.1}", bytes / (1024.0 * 1024.0))
}

/// Latency figures of one phase.
struct Summary {
    moves: usize,
    median: Duration,
    p90: Duration,
    p99: Duration,
    max: Duration,
    per_second: f64,
    inject_median: Duration,
    png_mean: f64,
}

impl Summary {
    fn of(samples: &[Sample], wall: Duration) -> Self {
        let mut latencies: Vec<Duration> = samples.iter().map(|s| s.latency).collect();
        latencies.sort_unstable();
        let mut injects: Vec<Duration> = samples.iter().map(|s| s.inject).collect();
        injects.sort_unstable();
        Self {
            moves: samples.len(),
            median: quantile(&latencies, 0.5),
            p90: quantile(&latencies, 0.9),
            p99: quantile(&latencies, 0.99),
            max: latencies.last().copied().unwrap_or_default(),
            per_second: samples.len() as f64 / wall.as_secs_f64(),
            inject_median: quantile(&injects, 0.5),
            png_mean: samples.iter().map(|s| s.png_bytes as f64).sum::<f64>()
                / samples.len().max(1) as f64,
        }
    }

    fn row(&self, name: &str) -> String {
        format!(
            "{name:<34} {:>6} {:>8} {:>8} {:>8} {:>8} {:>9.0} {:>8} {:>7.1}",
            self.moves,
            ms(self.median),
            ms(self.p90),
            ms(self.p99),
            ms(self.max),
            self.per_second,
            ms(self.inject_median),
            self.png_mean / 1024.0,
        )
    }
}

/// Resident set size now and at its peak, in bytes, from /proc/self/status.
fn rss() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<f64>()
                    .ok()
            })
            .map_or(f64::NAN, |kb| kb * 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// CPU time used so far by the process's threads, grouped by thread name (digits dropped),
/// from /proc/self/task/*/stat. Linux only; empty elsewhere.
fn cpu_by_thread() -> BTreeMap<String, Duration> {
    let mut out = BTreeMap::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    // USER_HZ is 100 on every Linux this runs on.
    let tick = Duration::from_millis(10);
    for task in tasks.flatten() {
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let name: String = stat[open + 1..close]
            .chars()
            .filter(|c| !c.is_ascii_digit())
            .collect();
        let fields: Vec<&str> = stat[close + 2..].split(' ').collect();
        // utime and stime are fields 14 and 15 of stat; 3 is the first after the name.
        let ticks: u32 = [11, 12]
            .iter()
            .filter_map(|&i| fields.get(i)?.parse::<u32>().ok())
            .sum();
        *out.entry(name.trim_end_matches(['-', '_']).to_owned())
            .or_insert(Duration::ZERO) += tick * ticks;
    }
    out
}

fn cpu_delta(
    before: &BTreeMap<String, Duration>,
    after: &BTreeMap<String, Duration>,
) -> Vec<(String, Duration)> {
    let mut delta: Vec<(String, Duration)> = after
        .iter()
        .map(|(name, t)| {
            let was = before.get(name).copied().unwrap_or_default();
            (name.clone(), t.saturating_sub(was))
        })
        .filter(|(_, t)| !t.is_zero())
        .collect();
    delta.sort_by_key(|(_, t)| std::cmp::Reverse(*t));
    delta
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}

/// With `GOMOKU_BENCH_MARKS` set, prints the monotonic clock (`Instant`'s debug form is the
/// raw `CLOCK_MONOTONIC` on Linux) so that a profile taken with
/// `perf record -k CLOCK_MONOTONIC` can be cut to the load phase.
fn mark(what: &str) {
    if std::env::var_os("GOMOKU_BENCH_MARKS").is_some() {
        eprintln!("mark: {what} {:?}", Instant::now());
    }
}

fn heap() -> f64 {
    HEAP.load(Ordering::Relaxed) as f64
}

/// Memory at one point of the run.
struct Memory {
    label: &'static str,
    rss: f64,
    hwm: f64,
    heap: f64,
}

impl Memory {
    fn now(label: &'static str) -> Self {
        let (rss, hwm) = rss();
        Self {
            label,
            rss,
            hwm,
            heap: heap(),
        }
    }
}

/// Starts the bot; also returns the heap its picture caches took (built ahead, as in `run`).
async fn start_bot(fake: &FakeDiscord, db: &Path, durability: Durability) -> (RunningBot, f64) {
    let options = StoreOptions {
        durability,
        ..StoreOptions::for_file(db)
    };
    let service = Service::open(&options, ServiceConfig::default(), Arc::new(SystemClock))
        .await
        .expect("open the database");
    // As `gomoku-bot run` does before connecting.
    let before = heap();
    gomoku_bot::render::warm_up();
    let caches = heap() - before;
    let framework = discord::framework(
        Arc::new(service),
        Arc::new(I18n::load()),
        Registration::Guild(fake.guild_id().get()),
    );
    let client = discord::client(fake.http(), framework)
        .await
        .expect("build the client");
    (RunningBot::spawn(client), caches)
}

async fn bench(plies: usize, durability: Durability) {
    let load_before = load_average();
    let mut memory = vec![Memory::now("start (runtime only)")];
    let dir = tempfile::tempdir().expect("a temporary directory");
    let fake = Arc::new(
        FakeDiscord::start_with(FakeConfig {
            // Discord's own rule: an answer after 3 s is refused (and would fail the run).
            interaction_deadline: Some(Duration::from_secs(3)),
            ..FakeConfig::default()
        })
        .await,
    );
    let (bot, picture_caches) = start_bot(&fake, &dir.path().join("bot.db"), durability).await;
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    memory.push(Memory::now("bot connected, caches warm"));

    let users: Vec<TestUser> = (0..2 * (GAMES + 1))
        .map(|i| fake.add_user(&format!("player{i:02}")))
        .collect();
    let setup = Instant::now();
    let mut games = Vec::new();
    for pair in users.chunks(2) {
        games.push(start_game(&fake, &pair[0], &pair[1]).await);
    }
    let setup = setup.elapsed();
    memory.push(Memory::now("26 games started"));

    let router = Arc::new(Mutex::new(Router::default()));
    tokio::spawn(Router::run(Arc::clone(&router), fake.subscribe_requests()));

    // Baseline: one game alone, no other traffic.
    let (baseline_game, loaded_games) = games.split_last().expect("games");
    let (baseline, baseline_wall) =
        play_all(&fake, &router, &[(GAMES, baseline_game)], BASELINE_PLIES).await;

    // Load: 25 games, 50 players at once.
    let cpu_before = cpu_by_thread();
    let numbered: Vec<(usize, &Game)> = loaded_games.iter().enumerate().collect();
    mark("load start");
    let (loaded, loaded_wall) = play_all(&fake, &router, &numbered, plies).await;
    mark("load end");
    let cpu = cpu_delta(&cpu_before, &cpu_by_thread());
    memory.push(Memory::now("after the load"));
    let load_after = load_average();

    let others = std::mem::take(&mut router.lock().expect("router lock").others);
    // The fake keeps every request (with its body, PNG bytes included) and every message it
    // created. A copy of that record takes as much heap as the record: copy it and measure.
    let before_copy = heap();
    let record = (
        fake.requests(),
        std::iter::once(fake.channel_id())
            .chain(games.iter().map(|g| g.thread))
            .map(|channel| fake.messages_in(channel))
            .collect::<Vec<_>>(),
    );
    let fake_record = heap() - before_copy;
    let recorded = (record.0.len(), record.1.iter().map(Vec::len).sum::<usize>());
    drop(record);
    bot.shutdown().await;
    let violations = fake.violations();

    let base = Summary::of(&baseline, baseline_wall);
    let load = Summary::of(&loaded, loaded_wall);
    println!();
    println!(
        "gomoku-bot end to end: fake Discord + real serenity/poise client + SQLite file ({})",
        match durability {
            Durability::Full => "synchronous=FULL",
            Durability::Normal => "synchronous=NORMAL",
        }
    );
    println!(
        "machine: {} cores; load average {load_before} before, {load_after} after",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!(
        "setup: 26 games started by /challenge + Accept in {:.2} s",
        setup.as_secs_f64()
    );
    println!();
    println!(
        "{:<34} {:>6} {:>8} {:>8} {:>8} {:>8} {:>9} {:>8} {:>7}",
        "latency (ms), INTERACTION_CREATE",
        "moves",
        "median",
        "p90",
        "p99",
        "max",
        "moves/s",
        "inject",
        "PNG KB"
    );
    println!("{}", base.row("1 game, 2 players, alone"));
    println!("{}", load.row("25 games, 50 players at once"));
    println!(
        "{:<34} {:>6} {:>8} {:>8}",
        "target (issue 5)",
        "",
        ms(TARGET_MEDIAN),
        format!("p99 {}", ms(TARGET_P99))
    );
    let verdict = |ok: bool| if ok { "met" } else { "MISSED" };
    println!(
        "under load: median {} ({}), p99 {} ({}); {:.1} s of wall time",
        ms(load.median),
        verdict(load.median <= TARGET_MEDIAN),
        ms(load.p99),
        verdict(load.p99 <= TARGET_P99),
        loaded_wall.as_secs_f64()
    );
    println!(
        "(\"inject\": the fake building, checking and dispatching one INTERACTION_CREATE, median; \
         it runs on the same cores.)"
    );
    // With every player waiting for the answer before the next move, 25 moves are always in
    // flight, so the mean latency is 25 / throughput (Little's law): a latency target under
    // this load is a throughput target.
    let needed = GAMES as f64 / TARGET_MEDIAN.as_secs_f64();
    println!(
        "{GAMES} moves always in flight: mean latency = {GAMES} / throughput = {:.1} ms; a {} ms \
         median needs about {needed:.0} moves/s",
        1000.0 * GAMES as f64 / load.per_second,
        ms(TARGET_MEDIAN)
    );
    println!();
    let cpu_total: Duration = cpu.iter().map(|(_, t)| *t).sum();
    println!(
        "CPU during the load: {:.2} s = {:.2} ms per move ({:.0}% of the machine's cores)",
        cpu_total.as_secs_f64(),
        cpu_total.as_secs_f64() * 1000.0 / load.moves.max(1) as f64,
        100.0 * cpu_total.as_secs_f64()
            / (loaded_wall.as_secs_f64()
                * std::thread::available_parallelism().map_or(1.0, |n| n.get() as f64))
    );
    for (name, t) in &cpu {
        println!("  {name:<28} {:>7.2} s", t.as_secs_f64());
    }
    let cores = std::thread::available_parallelism().map_or(1.0, |n| n.get() as f64);
    println!(
        "  {needed:.0} moves/s on {cores} cores leaves at most {:.2} ms of CPU per move (bot, fake and \
         client together)",
        1000.0 * cores / needed
    );
    println!();
    println!("memory (the bot and the fake share the process):");
    println!(
        "  {:<36} {:>9} {:>9} {:>10}",
        "", "VmRSS MB", "VmHWM MB", "Rust heap MB"
    );
    for m in &memory {
        println!(
            "  {:<36} {:>9} {:>9} {:>10}",
            m.label,
            mb(m.rss),
            mb(m.hwm),
            mb(m.heap)
        );
    }
    println!(
        "  of the heap at connection, {} MB are the board pictures' caches (backgrounds and \
         palettes of every size and theme)",
        mb(picture_caches)
    );
    let after = &memory[memory.len() - 1];
    println!(
        "  the fake's record ({} requests, {} messages) holds {} MB of that heap (measured by \
         copying it); without it: heap {} MB, RSS about {} MB",
        recorded.0,
        recorded.1,
        mb(fake_record),
        mb(after.heap - fake_record),
        mb(after.rss - fake_record)
    );
    let bands = gomoku_bot::render::png_cache_stats();
    println!(
        "  the PNG band cache (part of that heap): {} bands, {} MB; {} of {} bands found",
        bands.entries,
        mb(bands.bytes as f64),
        bands.hits,
        bands.hits + bands.misses
    );
    if !others.is_empty() {
        println!("requests other than interaction callbacks during the moves:");
        for (route, n) in &others {
            println!("  {n:>6} {route}");
        }
    }
    if violations.is_empty() {
        println!("every request the bot sent fits Discord's API description");
    } else {
        eprintln!("{} violation(s) of Discord's API:", violations.len());
        for v in violations.iter().take(20) {
            eprintln!("  {v}");
        }
        std::process::exit(1);
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too: keep that short.
    let args: Vec<String> = std::env::args().collect();
    let quick = !args.iter().any(|a| a == "--bench");
    let plies = std::env::var("GOMOKU_BENCH_PLIES")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(if quick { 4 } else { 100 });
    let durability = match std::env::var("GOMOKU_BENCH_DURABILITY").as_deref() {
        Ok("normal") => Durability::Normal,
        _ => Durability::Full,
    };
    // The same runtime as `gomoku-bot run`: multi-threaded, one worker per core.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(bench(plies, durability));
}
