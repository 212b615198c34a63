//! A week in an hour (issue 16): the service on a real SQLite file with a manual clock, about
//! 200 games at a time over a simulated week, players who answer within hours, late ones who
//! are reminded and spend vacation, and absent ones who lose on time; finished games are
//! replaced by new ones. Once a simulated day it samples the process's resident memory
//! (VmRSS), the Rust heap in use (counted by this binary's global allocator), the tokio tasks
//! alive, the database connections open and the games held in memory; from day 2 on none of
//! them may grow with time.
//!
//! Its own test binary, because the heap counter sees the whole process: a test running
//! beside it would blur the curve. The normal suite runs a short version (40 games, 4 days);
//! `cargo test --release --test soak -- --ignored --nocapture` runs the week and prints the
//! curve.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use gomoku_bot::rules::RuleSet;
use gomoku_bot::service::{
    Actor, ChallengeRequest, ClockEvent, GameId, ManualClock, Service, ServiceConfig, TimeControl,
    Timestamp, UserId, UserInfo,
};
use gomoku_bot::store::StoreOptions;

// The bot binary's allocator with a counter of the bytes the Rust heap holds (shared with
// the benches).
#[path = "../benches/e2e/heap.rs"]
mod heap;

#[global_allocator]
static ALLOCATOR: heap::Counting = heap::Counting;

const GUILD: u64 = 10;
const MINUTE: Duration = Duration::from_secs(60);
const DAY: Duration = Duration::from_secs(86_400);
const T0: Timestamp = Timestamp(1_700_000_000_000);

/// How a player answers.
#[derive(Clone, Copy, Debug)]
enum Habit {
    /// Within half an hour to 8 hours.
    Prompt,
    /// After 16 to 40 hours: reminded, sometimes late (vacation), sometimes out of time.
    Late,
    /// Never again: vacation runs out, then they lose on time.
    Absent,
}

struct Seat {
    actor: Actor,
    habit: Habit,
}

struct Playing {
    seats: [Seat; 2],
    /// When the player to act will move.
    next: Timestamp,
    /// The ply at which the player to act resigns (games end as real ones do: random stones
    /// rarely make five, and a week of games that never end would only measure their length).
    resign_at: u32,
}

/// One sample of the curve.
#[derive(Clone, Copy, Debug)]
struct Sample {
    day: u32,
    rss_kib: u64,
    heap_bytes: isize,
    tasks: usize,
    connections: u32,
    /// Connections held (not idle) when the day's work is done: a leaked one stays held.
    held: u32,
    cached_games: usize,
    /// Moves in the games being played (what the games in memory legitimately hold).
    live_moves: u64,
}

fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

/// What the week did.
#[derive(Debug, Default)]
struct Tally {
    games_started: u64,
    moves: u64,
    reminders: u64,
    vacation_spent: u64,
    timed_out: u64,
    won_or_drawn: u64,
    resigned: u64,
}

struct World {
    svc: Service,
    clock: Arc<ManualClock>,
    rng: StdRng,
    games: HashMap<GameId, Playing>,
    next_user: u64,
    tally: Tally,
}

fn delay(rng: &mut StdRng, habit: Habit) -> Duration {
    match habit {
        Habit::Prompt => Duration::from_secs(rng.random_range(1_800..8 * 3_600)),
        Habit::Late => Duration::from_secs(rng.random_range(16 * 3_600..40 * 3_600)),
        Habit::Absent => Duration::from_secs(400 * 86_400),
    }
}

impl World {
    fn now(&self) -> Timestamp {
        use gomoku_bot::service::Clock;
        self.clock.now()
    }

    fn habit(&mut self) -> Habit {
        match self.rng.random_range(0..20) {
            0 => Habit::Absent,
            1..=4 => Habit::Late,
            _ => Habit::Prompt,
        }
    }

    /// A new pair of members starts a game with days per move.
    async fn start_game(&mut self) {
        let (a, b) = (self.next_user, self.next_user + 1);
        self.next_user += 2;
        let days = [1, 1, 2, 3][self.rng.random_range(0..4)];
        let channel = 1_000 + a;
        let alice = Actor::new(GUILD, channel, UserInfo::new(a, format!("player {a}")));
        let bob = Actor::new(GUILD, channel, UserInfo::new(b, format!("player {b}")));
        let request = ChallengeRequest {
            opponent: Some(bob.user.clone()),
            rules: Some(RuleSet::from_spec("gomoku").expect("a preset")),
            time: Some(TimeControl::DaysPerMove(days)),
            rated: self.rng.random_bool(0.5),
        };
        let challenge = self
            .svc
            .challenge(&alice, request)
            .await
            .expect("challenge");
        let view = self
            .svc
            .accept(&bob, challenge.id)
            .await
            .expect("accept")
            .game
            .expect("a game");
        let first_is_alice = view
            .seats
            .iter()
            .any(|s| s.seat == 1 && s.user == UserId(a));
        let (first, second) = if first_is_alice {
            (alice, bob)
        } else {
            (bob, alice)
        };
        let habits = [self.habit(), self.habit()];
        let next = self.now().plus(delay(&mut self.rng, habits[0]));
        let resign_at = self.rng.random_range(6..24);
        self.games.insert(
            view.id,
            Playing {
                seats: [
                    Seat {
                        actor: first,
                        habit: habits[0],
                    },
                    Seat {
                        actor: second,
                        habit: habits[1],
                    },
                ],
                next,
                resign_at,
            },
        );
        self.tally.games_started += 1;
    }

    /// Every player whose time has come moves (a random legal stone near the centre).
    async fn play_due(&mut self) {
        let now = self.now();
        let due: Vec<GameId> = self
            .games
            .iter()
            .filter(|(_, g)| g.next <= now)
            .map(|(id, _)| *id)
            .collect();
        for id in due {
            let view = self.svc.game(gomoku_bot::service::GuildId(GUILD), id).await;
            let Ok(view) = view else { continue };
            if view.is_over() {
                self.finish(id);
                continue;
            }
            let Some(seat) = view.to_act().map(|s| s.seat) else {
                continue;
            };
            if view.ply >= self.games[&id].resign_at {
                let actor = self.games[&id].seats[usize::from(seat - 1)].actor.clone();
                self.svc
                    .resign(&actor, Some(id))
                    .await
                    .expect("a resignation");
                self.tally.resigned += 1;
                self.finish(id);
                continue;
            }
            let legal = view.game.legal_actions();
            let action = legal[self.rng.random_range(0..legal.len())];
            let playing = &self.games[&id];
            let actor = playing.seats[usize::from(seat - 1)].actor.clone();
            let played = self
                .svc
                .play(&actor, Some(id), action, Some(view.ply))
                .await
                .expect("a move by the player to act");
            self.tally.moves += 1;
            if played.view.is_over() {
                self.tally.won_or_drawn += 1;
                self.finish(id);
                continue;
            }
            let next_habit = self.games[&id].seats[usize::from(seat % 2)].habit;
            let next = self.now().plus(delay(&mut self.rng, next_habit));
            if let Some(g) = self.games.get_mut(&id) {
                g.next = next;
            }
        }
    }

    fn finish(&mut self, id: GameId) {
        self.games.remove(&id);
    }

    async fn sweep(&mut self) {
        for event in self.svc.sweep_clocks().await.expect("a sweep") {
            match event {
                ClockEvent::Reminder { .. } => self.tally.reminders += 1,
                ClockEvent::VacationUsed { .. } => self.tally.vacation_spent += 1,
                ClockEvent::TimedOut { game, .. } => {
                    self.tally.timed_out += 1;
                    if game.is_over() {
                        self.finish(game.id);
                    }
                }
                ClockEvent::Failed { game, error } => panic!("game {game:?}: {error}"),
            }
        }
    }

    async fn live_moves(&self) -> u64 {
        let mut moves = 0;
        for id in self.games.keys() {
            if let Ok(view) = self
                .svc
                .game(gomoku_bot::service::GuildId(GUILD), *id)
                .await
            {
                moves += u64::from(view.ply);
            }
        }
        moves
    }

    async fn sample(&self, day: u32) -> Sample {
        let live_moves = self.live_moves().await;
        let pools = self.svc.store().pool_open();
        // The fewest tasks alive over a few looks: a leaked task is alive in every look, while
        // one finishing the day's last work (a commit, the count of finished games) is not.
        // One look caught such a task now and then and failed the check below.
        // The same for the connections held: one can be in the middle of that last work.
        let mut tasks = usize::MAX;
        let mut held = u32::MAX;
        for _ in 0..20 {
            let alive = tokio::runtime::Handle::current()
                .metrics()
                .num_alive_tasks();
            tasks = tasks.min(alive);
            let busy = self.svc.store().pool_use();
            held = held.min(busy.writer + busy.reader);
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        Sample {
            day,
            rss_kib: rss_kib(),
            heap_bytes: heap::heap_bytes(),
            tasks,
            connections: pools.writer + pools.reader,
            held,
            cached_games: self.svc.cached_games(),
            live_moves,
        }
    }
}

/// Runs `days` simulated days with `games` games at a time, in steps of `step`; returns the
/// samples taken at the end of each day (day 0 is the start) and what happened.
async fn week(games: usize, days: u32, step: Duration) -> (Vec<Sample>, Tally) {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new(T0));
    let config = ServiceConfig {
        vacation_days_per_year: 1,
        ..ServiceConfig::default()
    };
    let svc = Service::open(
        &StoreOptions::for_file(&dir.path().join("soak.db")),
        config,
        clock.clone(),
    )
    .await
    .unwrap();
    let mut world = World {
        svc,
        clock,
        rng: StdRng::seed_from_u64(7),
        games: HashMap::new(),
        next_user: 1_000_000,
        tally: Tally::default(),
    };
    let mut samples = vec![world.sample(0).await];
    let steps_per_day = u32::try_from(DAY.as_secs() / step.as_secs()).unwrap();
    for day in 1..=days {
        for _ in 0..steps_per_day {
            while world.games.len() < games {
                world.start_game().await;
            }
            world.clock.advance(step);
            world.sweep().await;
            world.play_due().await;
        }
        let sample = world.sample(day).await;
        println!(
            "day {}: rss {} KiB, heap {} KiB, tasks {}, connections {} ({} held), cached games {}, moves in them {} | {:?}",
            sample.day,
            sample.rss_kib,
            sample.heap_bytes / 1024,
            sample.tasks,
            sample.connections,
            sample.held,
            sample.cached_games,
            sample.live_moves,
            world.tally
        );
        samples.push(sample);
    }
    world.svc.close().await;
    (samples, world.tally)
}

/// From day 2 on nothing grows: the heap stays within 25% + 256 KiB of day 2's and RSS
/// within 25% + 16 MiB (allocator and page-cache noise), tasks do not rise, the games in
/// memory stay bounded by the games being played. Connections: none is held once a day's work
/// is done, and the pools never open more than they may (the writer and `readers`). Their
/// number may rise until then: the pools open connections lazily, as reads happen to overlap
/// (more of them on a loaded machine), and keep them; a check that it stays at day 2's failed
/// on a busy machine with the pools at their cap and nothing held.
fn assert_flat(samples: &[Sample], games: usize) {
    for s in samples {
        assert_eq!(s.held, 0, "a connection is held: {samples:#?}");
        assert!(
            s.connections <= 1 + StoreOptions::default().readers,
            "connections: {samples:#?}"
        );
    }
    let day2 = samples[2];
    for s in &samples[3..] {
        assert!(
            s.heap_bytes <= day2.heap_bytes + day2.heap_bytes / 4 + (256 << 10),
            "the heap grew from {} to {} bytes by day {}: {samples:#?}",
            day2.heap_bytes,
            s.heap_bytes,
            s.day
        );
        assert!(
            s.rss_kib <= day2.rss_kib + day2.rss_kib / 4 + 16 * 1024,
            "RSS grew from {} to {} KiB by day {}: {samples:#?}",
            day2.rss_kib,
            s.rss_kib,
            s.day
        );
        assert!(s.tasks <= day2.tasks + 2, "tasks: {samples:#?}");
        assert!(
            s.cached_games <= 2 * games + 64,
            "games in memory: {samples:#?}"
        );
    }
}

fn assert_lived(tally: &Tally) {
    assert!(tally.moves > 0, "{tally:?}");
    assert!(tally.reminders > 0, "no reminders: {tally:?}");
    assert!(tally.vacation_spent > 0, "no vacation: {tally:?}");
    assert!(tally.timed_out > 0, "nobody lost on time: {tally:?}");
    assert!(tally.resigned > 0, "nobody resigned: {tally:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_days_with_forty_games_stay_flat() {
    let (samples, tally) = week(40, 4, 30 * MINUTE).await;
    assert_lived(&tally);
    assert_flat(&samples, 40);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "long: a simulated week with 200 games"]
async fn a_week_with_two_hundred_games_stays_flat() {
    let (samples, tally) = week(200, 7, 10 * MINUTE).await;
    assert_lived(&tally);
    assert!(tally.games_started >= 200);
    assert_flat(&samples, 200);
}
