//! Members playing each other through the fake Discord while their answers are timed: the
//! shared half of the load benchmarks that measure members' latency beside other work
//! (`engine_load`: the computer thinking; `review`: reviews running).
//!
//! Include with `#[path = "e2e/members.rs"] mod members;` beside `mod support;` (the fake Discord)
//! and `#[path = "e2e/play.rs"] mod play;` (how games start).

use std::time::Duration;

use gomoku_bot::rules::Point;
use serde_json::Value;
use serenity::all::ChannelId;

use crate::support::fake_discord::{FakeDiscord, RecordedRequest, Req, SlashCommand, TestUser};

/// Board size of the members' games.
pub(crate) const SIZE: u8 = 19;
/// A member's pause between seeing the board and moving, so a phase spans many other jobs.
pub(crate) const PAUSE: Duration = Duration::from_millis(30);

pub(crate) fn env_number(key: &str, default: u64) -> u64 {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The points of each colour in playing order: no colour ever gets five in a row (the same
/// pattern as `benches/e2e/play.rs`, on a board without captures).
pub(crate) fn playing_order(game: usize) -> [Vec<String>; 2] {
    let centre = i32::from(SIZE / 2);
    let mut points: Vec<(i32, u8, u8)> = (0..SIZE)
        .flat_map(|x| (0..SIZE).map(move |y| (x, y)))
        .map(|(x, y)| {
            let (dx, dy) = (i32::from(x) - centre, i32::from(y) - centre);
            (dx * dx + dy * dy, x, y)
        })
        .collect();
    points.sort_unstable();
    let mut colours = [Vec::new(), Vec::new()];
    for (_, x, y) in points {
        let colour = ((usize::from(x) + 2 * usize::from(y) + game) % 4) / 2;
        colours[colour].push(Point::new(x, y, SIZE).expect("on the board").name());
    }
    colours
}

pub(crate) fn content(r: &RecordedRequest) -> String {
    let json = r.json_or_null();
    json.get("content")
        .or_else(|| json.get("data").and_then(|d| d.get("content")))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

pub(crate) fn is_ephemeral(r: &RecordedRequest) -> bool {
    let flags = r.json_or_null()["data"]["flags"].as_u64().unwrap_or(0);
    flags & 64 != 0
}

/// `a` challenges `b` to Gomoku on 19x19; `b` accepts (`play::start_game`). Returns the thread
/// and the players in playing order.
pub(crate) async fn start_pair(
    fake: &FakeDiscord,
    a: &TestUser,
    b: &TestUser,
) -> (ChannelId, [TestUser; 2]) {
    let game = crate::play::start_game(fake, a, b).await;
    (game.thread, game.order)
}

/// Plays `plies` moves of the members' game from ply `from`; returns each move's latency.
pub(crate) async fn measure(
    fake: &FakeDiscord,
    thread: ChannelId,
    order: &[TestUser; 2],
    points: &[Vec<String>; 2],
    from: usize,
    plies: usize,
) -> Vec<Duration> {
    let mut out = Vec::new();
    for ply in from..from + plies {
        tokio::time::sleep(PAUSE).await;
        let side = ply % 2;
        let sent = fake
            .send(
                SlashCommand::new("move")
                    .by(&order[side])
                    .in_channel(thread)
                    .string("at", &points[side][ply / 2]),
            )
            .await;
        let answer = fake.next_request(&Req::callback(&sent)).await;
        assert!(!is_ephemeral(&answer), "refused: {}", content(&answer));
        out.push(answer.at.saturating_sub(sent.sent_at));
    }
    out
}

pub(crate) fn quantile(sorted: &[Duration], q: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

pub(crate) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
