//! The players of the end-to-end benchmarks (`discord`, `metrics`): games started through
//! `/challenge` and the Accept button, and players that move "as fast as the bot answers" while
//! each move's latency is measured from INTERACTION_CREATE to the bot's answer at the fake.
//!
//! Include with `#[path = "e2e/play.rs"] mod play;` beside `mod support;` (the fake Discord).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gomoku_bot::rules::Point;
use serde_json::Value;
use serenity::all::ChannelId;
use tokio::sync::{mpsc, oneshot};

use crate::support::fake_discord::{
    Click, FakeDiscord, RecordedRequest, Req, SlashCommand, TestUser, message_id,
};

/// Board size: 19x19 leaves room for long games.
pub(crate) const SIZE: u8 = 19;

/// How long a player waits for the bot's answer before the benchmark gives up.
pub(crate) const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

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
pub(crate) fn playing_order(game: usize) -> [Vec<String>; 2] {
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
pub(crate) struct Sample {
    /// INTERACTION_CREATE sent to the callback with the PNG received, by the fake's clock.
    pub(crate) latency: Duration,
    /// How long the fake took to build, check and send the interaction (not in `latency`
    /// except for the send itself).
    pub(crate) inject: Duration,
    /// Bytes of the board PNG.
    pub(crate) png_bytes: usize,
}

/// Hands each interaction callback to the player waiting for it.
#[derive(Default)]
pub(crate) struct Router {
    waiting: HashMap<u64, oneshot::Sender<RecordedRequest>>,
    /// Callbacks that arrived before their player asked (the bot can be that fast).
    early: HashMap<u64, RecordedRequest>,
    /// Requests other than interaction callbacks, by method and route shape.
    pub(crate) others: BTreeMap<String, usize>,
}

impl Router {
    pub(crate) fn expect(router: &Mutex<Router>, id: u64) -> oneshot::Receiver<RecordedRequest> {
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

    pub(crate) async fn run(
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
pub(crate) struct Game {
    pub(crate) thread: ChannelId,
    pub(crate) order: [TestUser; 2],
}

/// `a` challenges `b` to freestyle Gomoku on 19x19 with no opening rule; `b` accepts.
pub(crate) async fn start_game(fake: &FakeDiscord, a: &TestUser, b: &TestUser) -> Game {
    start_game_in(fake, None, a, b).await
}

/// [`start_game`] in `channel` (`None`: the fake's default channel), such as a channel of a
/// guild on another gateway shard.
pub(crate) async fn start_game_in(
    fake: &FakeDiscord,
    channel: Option<ChannelId>,
    a: &TestUser,
    b: &TestUser,
) -> Game {
    // Choice indices of /challenge: game 0 = gomoku, size 3 = 19x19, opening 0 = none.
    let mut challenge = SlashCommand::new("challenge")
        .by(a)
        .user("opponent", b)
        .integer("game", 0)
        .integer("size", 3)
        .integer("opening", 0);
    if let Some(channel) = channel {
        challenge = challenge.in_channel(channel);
    }
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
pub(crate) fn buttons(message: &Value) -> Vec<String> {
    message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|b| b["custom_id"].as_str().map(str::to_owned))
        .collect()
}

/// Checks that an answer is the public board with its picture; returns the PNG's size.
pub(crate) fn board_png(answer: &RecordedRequest) -> Result<usize, String> {
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
pub(crate) async fn player(
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

/// Plays the moves numbered `plies` (from 0, the game's first) in every game at once; returns
/// the samples and the wall time. A later range continues the games where an earlier one
/// stopped.
pub(crate) async fn play_all(
    fake: &Arc<FakeDiscord>,
    router: &Arc<Mutex<Router>>,
    games: &[(usize, &Game)],
    plies: std::ops::Range<usize>,
) -> (Vec<Sample>, Duration) {
    let mut tasks = Vec::new();
    let mut openers = Vec::new();
    for (number, game) in games {
        let [first_points, second_points] = playing_order(*number);
        let (first_tx, first_rx) = mpsc::unbounded_channel();
        let (second_tx, second_rx) = mpsc::unbounded_channel();
        // Whoever is to move at the range's first ply opens it.
        openers.push(if plies.start.is_multiple_of(2) {
            first_tx.clone()
        } else {
            second_tx.clone()
        });
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
                plies.end,
                rx,
                tx,
            )));
        }
    }
    let started = Instant::now();
    for opener in openers {
        opener.send(plies.start).expect("the first player waits");
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

/// Latency figures of one phase.
pub(crate) struct Summary {
    pub(crate) moves: usize,
    pub(crate) median: Duration,
    pub(crate) p90: Duration,
    pub(crate) p99: Duration,
    pub(crate) max: Duration,
    pub(crate) per_second: f64,
    pub(crate) inject_median: Duration,
    pub(crate) png_mean: f64,
}

impl Summary {
    /// The table's heading.
    pub(crate) fn header() -> String {
        format!(
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
        )
    }

    /// The figures of `samples`, played in `wall`.
    pub(crate) fn of(samples: &[Sample], wall: Duration) -> Self {
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

    /// One row of the table under [`Summary::header`], named `name`.
    pub(crate) fn row(&self, name: &str) -> String {
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

/// The `q` quantile (nearest rank) of sorted durations.
pub(crate) fn quantile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

pub(crate) fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}
