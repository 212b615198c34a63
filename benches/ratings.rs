//! What ratings cost.
//!
//! - `ratings/outcome-40`: deciding whether and how a finished 40-move game is rated (the
//!   move log read back into a record, replayed, stones counted per seat), no database.
//! - `ratings/finish-rated` and `ratings/finish-unrated`: ending a 40-move game by
//!   resignation through the service, rated (the Glicko-2 update and its rows in the same
//!   transaction) and not; the difference is what a rated finish adds. Run with
//!   `Durability::Normal` so that the disk's sync time does not hide it.
//!
//! Run: `cargo bench --bench ratings`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::Criterion;
use gomoku_bot::rules::{Action, Colours, Game, Point, RuleSet, Status};
use gomoku_bot::service::{
    Actor, ChallengeRequest, GameId, Service, ServiceConfig, SystemClock, UserId, UserInfo,
};
use gomoku_bot::store::ratings::rated_outcome;
use gomoku_bot::store::{Durability, StoreOptions};
use tempfile::TempDir;

const MOVES: usize = 40;

fn rules() -> RuleSet {
    RuleSet::from_spec("gomoku size=19").expect("valid")
}

/// Moves that never end the game.
fn quiet_sequence(max: usize) -> Vec<Point> {
    let mut game = Game::new(rules());
    let mut seq = Vec::new();
    'next: while seq.len() < max {
        let points: Vec<Point> = game.points().collect();
        for p in points {
            if game.stone_at(p).is_some() {
                continue;
            }
            let mut trial = game.clone();
            if let Ok(r) = trial.apply(Action::Place(p))
                && r.status == Status::Ongoing
            {
                game = trial;
                seq.push(p);
                continue 'next;
            }
        }
        break;
    }
    seq
}

fn bench_outcome(c: &mut Criterion) {
    let tokens: Vec<String> = quiet_sequence(MOVES)
        .into_iter()
        .map(Point::name)
        .chain(["resign".to_string()])
        .collect();
    let seats = [(1, UserId(1), false), (2, UserId(2), false)];
    c.bench_function("ratings/outcome-40", |b| {
        b.iter(|| {
            rated_outcome(
                rules(),
                true,
                &seats,
                tokens.iter().map(String::as_str),
                Colours::one(1),
            )
        })
    });
}

struct Bench {
    _dir: TempDir,
    svc: Service,
    next_user: u64,
    seq: Vec<Point>,
}

impl Bench {
    async fn new() -> Bench {
        let dir = tempfile::Builder::new()
            .prefix("gomoku-bench")
            .tempdir_in(std::env::temp_dir())
            .expect("temp dir");
        let options = StoreOptions {
            durability: Durability::Normal,
            ..StoreOptions::for_file(&dir.path().join("bench.db"))
        };
        let config = ServiceConfig {
            max_open_games_per_pair: u32::MAX,
            ..ServiceConfig::default()
        };
        let svc = Service::open(&options, config, Arc::new(SystemClock))
            .await
            .expect("open");
        Bench {
            _dir: dir,
            svc,
            next_user: 1,
            seq: quiet_sequence(MOVES),
        }
    }

    /// A game of `MOVES` moves between two players who have played before (so that their
    /// rating rows exist), ready to be ended: its id and the actor of seat 1.
    async fn game_to_end(&mut self, rated: bool) -> (GameId, Actor) {
        // Eight pairs take turns, so ratings are updated, not created, after the first round.
        let pair = self.next_user % 8;
        self.next_user += 1;
        let a = UserInfo::new(pair * 2 + 1, "Player A");
        let b = UserInfo::new(pair * 2 + 2, "Player B");
        let request = ChallengeRequest {
            opponent: Some(b.clone()),
            rules: Some(rules()),
            rated,
            ..ChallengeRequest::default()
        };
        let (actor_a, actor_b) = (Actor::new(1, 2, a), Actor::new(1, 2, b));
        let c = self
            .svc
            .challenge(&actor_a, request)
            .await
            .expect("challenge");
        let view = self
            .svc
            .accept(&actor_b, c.id)
            .await
            .expect("accept")
            .game
            .expect("started");
        let seats = if view.seats[0].user == actor_a.user.id {
            [actor_a, actor_b]
        } else {
            [actor_b, actor_a]
        };
        for (ply, p) in self.seq.iter().enumerate() {
            self.svc
                .play(&seats[ply % 2], Some(view.id), Action::Place(*p), None)
                .await
                .expect("move");
        }
        let [first, _] = seats;
        (view.id, first)
    }
}

fn bench_finish(c: &mut Criterion, rated: bool, name: &str) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let mut bench = rt.block_on(Bench::new());
    c.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let (id, actor) = rt.block_on(bench.game_to_end(rated));
                let start = Instant::now();
                let view = rt.block_on(bench.svc.resign(&actor, Some(id)));
                total += start.elapsed();
                std::hint::black_box(view.expect("resigned"));
            }
            total
        });
    });
    rt.block_on(bench.svc.close());
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    bench_outcome(&mut c);
    bench_finish(&mut c, false, "ratings/finish-unrated");
    bench_finish(&mut c, true, "ratings/finish-rated");
    c.final_summary();
}
