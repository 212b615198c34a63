//! Helpers shared by the service tests: real databases (a SQLite file in a temporary
//! directory, or a PostgreSQL schema of the test's own; see `test_db`).

use std::sync::Arc;

use gomoku_bot::rules::{Action, RuleSet};
use gomoku_bot::service::{
    Actor, ChallengeRequest, GameView, ManualClock, Service, ServiceConfig, Timestamp, UserInfo,
};

pub use crate::test_db::TestDb;

/// 2023-11-14, a fixed start for manual clocks.
pub const T0: Timestamp = Timestamp(1_700_000_000_000);
/// The guild most tests play in.
pub const GUILD: u64 = 10;
/// The channel most tests play in.
pub const CHANNEL: u64 = 100;

/// A test's own database, its clock, and a service on it.
pub struct Env {
    /// The database (dropped with the environment).
    pub db: TestDb,
    /// The service's clock.
    pub clock: Arc<ManualClock>,
    /// The service.
    pub svc: Service,
}

impl Env {
    /// A service with the default configuration (seeded seat draws) on a fresh database.
    pub async fn new(db: TestDb) -> Env {
        Env::with_config(db, config()).await
    }

    /// A service with this configuration on a fresh database.
    pub async fn with_config(db: TestDb, config: ServiceConfig) -> Env {
        let clock = Arc::new(ManualClock::new(T0));
        let svc = open_service(&db, config, clock.clone()).await;
        Env { db, clock, svc }
    }

    /// The time the service's clock shows.
    pub fn clock_now(&self) -> Timestamp {
        use gomoku_bot::service::Clock;
        self.clock.now()
    }

    /// Closes the service and opens a new one on the same database (a restart).
    pub async fn restart(&mut self) {
        self.svc.close().await;
        self.svc = open_service(&self.db, config(), self.clock.clone()).await;
    }
}

/// The test configuration: defaults with a fixed seed for seat draws.
pub fn config() -> ServiceConfig {
    ServiceConfig {
        seat_seed: Some(7),
        ..ServiceConfig::default()
    }
}

/// Opens a service on a test database.
pub async fn open_service(db: &TestDb, config: ServiceConfig, clock: Arc<ManualClock>) -> Service {
    Service::open(&db.options(), config, clock)
        .await
        .expect("open service")
}

/// A human member.
pub fn user(id: u64, name: &str) -> UserInfo {
    UserInfo::new(id, name)
}

/// Alice (id 1).
pub fn alice() -> UserInfo {
    user(1, "Alice")
}
/// Bob (id 2).
pub fn bob() -> UserInfo {
    user(2, "Bob")
}
/// Carol (id 3).
pub fn carol() -> UserInfo {
    user(3, "Carol")
}
/// Dave (id 4).
pub fn dave() -> UserInfo {
    user(4, "Dave")
}
/// Erin (id 5).
pub fn erin() -> UserInfo {
    user(5, "Erin")
}
/// A bot account (id 99).
pub fn robot() -> UserInfo {
    UserInfo {
        is_bot: true,
        ..user(99, "Robot")
    }
}

/// `who` acting in the test guild's main channel.
pub fn at(who: UserInfo) -> Actor {
    Actor::new(GUILD, CHANNEL, who)
}

/// `who` acting in another channel of the test guild.
pub fn at_channel(channel: u64, who: UserInfo) -> Actor {
    Actor::new(GUILD, channel, who)
}

/// A rule set from a spec.
pub fn rules(spec: &str) -> RuleSet {
    RuleSet::from_spec(spec).expect("valid spec")
}

/// A stone (or choice) token for a board of `size`.
pub fn act(token: &str, size: u8) -> Action {
    Action::parse(token, size).expect("valid token")
}

/// A challenge request with these rules.
pub fn request(opponent: Option<UserInfo>, spec: &str) -> ChallengeRequest {
    ChallengeRequest {
        opponent,
        rules: Some(rules(spec)),
        time: None,
        rated: false,
    }
}

/// Alice challenges Bob under `spec`, Bob accepts: the game, and the actors of seat 1 and 2.
pub async fn start_two(svc: &Service, spec: &str) -> (GameView, Actor, Actor) {
    start_pair(svc, alice(), bob(), spec).await
}

/// `a` challenges `b` under `spec`, `b` accepts: the game, and the actors of seat 1 and 2.
pub async fn start_pair(
    svc: &Service,
    a: UserInfo,
    b: UserInfo,
    spec: &str,
) -> (GameView, Actor, Actor) {
    let c = svc
        .challenge(&at(a.clone()), request(Some(b.clone()), spec))
        .await
        .expect("challenge");
    let accepted = svc.accept(&at(b.clone()), c.id).await.expect("accept");
    let view = accepted.game.expect("a two-player challenge starts a game");
    let (first, second) = (seat_actor(&view, 1), seat_actor(&view, 2));
    (view, first, second)
}

/// The actor of a seat of a game (by the names recorded for it).
pub fn seat_actor(view: &GameView, seat: u8) -> Actor {
    let s = view
        .seats
        .iter()
        .find(|s| s.seat == seat)
        .expect("seat exists");
    at(UserInfo::new(s.user.0, s.name.clone()))
}

/// Every outbox row the service's poster would look at now (the first pending one of each
/// queue).
pub async fn heads(svc: &Service) -> Vec<gomoku_bot::service::OutboxRow> {
    svc.outbox_heads(100)
        .await
        .unwrap()
        .into_iter()
        .map(|(row, _)| row)
        .collect()
}
