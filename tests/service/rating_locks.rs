//! Rated games ending at the same moment: on PostgreSQL the moves commit in several lanes at
//! once, each lane's batch in one transaction, and every game that ends in a batch locks its
//! players' ratings. Two batches that lock the same players in opposite orders would wait for
//! each other until PostgreSQL aborts one as a deadlock (the member sees "busy").

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use gomoku_bot::service::{
    Actor, ChallengeRequest, GameId, GameView, GuildId, ManualClock, Service, ServiceConfig,
    UserId, UserInfo,
};
use gomoku_bot::store::Family;

use crate::common::*;

/// Seat 1 wins a Gomoku game with a row H8-M8 after eight stones against seven.
const SEAT1_WINS: &str = "A1 O1 A3 O3 A5 O5 H8 O7 J8 O9 K8 O11 L8 O13 M8";

/// The players: every pair of them plays in both seat orders.
const PLAYERS: [u64; 4] = [501, 502, 503, 504];

/// Rounds of games ending together.
const ROUNDS: usize = 6;

/// Plays every move of [`SEAT1_WINS`] but the last (which wins) in game `id`.
async fn play_to_the_last_move(svc: &Service, seats: &[Actor; 2], id: GameId) {
    let tokens: Vec<&str> = SEAT1_WINS.split_whitespace().collect();
    for (i, token) in tokens[..tokens.len() - 1].iter().enumerate() {
        svc.play_token(&seats[i % 2], Some(id), token, None)
            .await
            .unwrap_or_else(|e| panic!("{token}: {e}"));
    }
}

async fn rated_games_ending_together_in_every_lane_all_commit(db: TestDb) {
    let config = ServiceConfig {
        max_open_games_per_pair: 100,
        ..config()
    };
    let svc = Arc::new(open_service(&db, config, Arc::new(ManualClock::new(T0))).await);
    let mut played: HashMap<u64, u32> = HashMap::new();
    for round in 0..ROUNDS {
        // Every ordered pair, in two servers: the same two players in both seat orders, and
        // each player's server and global ratings both locked.
        let mut games = Vec::new();
        for (k, &a) in PLAYERS.iter().enumerate() {
            for &b in &PLAYERS[k + 1..] {
                for guild in [GUILD, GUILD + 1] {
                    for (first, second) in [(a, b), (b, a)] {
                        let challenge = svc
                            .challenge(
                                &Actor::new(guild, CHANNEL, user(first, "P")),
                                ChallengeRequest {
                                    rated: true,
                                    ..request(Some(user(second, "P")), "gomoku")
                                },
                            )
                            .await
                            .expect("challenge");
                        let view = svc
                            .accept(&Actor::new(guild, CHANNEL, user(second, "P")), challenge.id)
                            .await
                            .expect("accept")
                            .game
                            .expect("started");
                        let seats = [seat_in(&view, 1, guild), seat_in(&view, 2, guild)];
                        *played.entry(first).or_default() += 1;
                        *played.entry(second).or_default() += 1;
                        games.push((view.id, seats));
                    }
                }
            }
        }
        let setup: Vec<_> = games
            .iter()
            .map(|(id, seats)| {
                let (svc, seats, id) = (svc.clone(), seats.clone(), *id);
                tokio::spawn(async move { play_to_the_last_move(&svc, &seats, id).await })
            })
            .collect();
        for task in setup {
            task.await.expect("set-up task");
        }
        // Every game's winning move at once, so that each lane commits several endings in
        // one transaction.
        let last = SEAT1_WINS.split_whitespace().last().expect("a move");
        let endings: Vec<_> = games
            .iter()
            .map(|(id, seats)| {
                let (svc, actor, id) = (svc.clone(), seats[0].clone(), *id);
                tokio::spawn(async move { svc.play_token(&actor, Some(id), last, None).await })
            })
            .collect();
        let ended = tokio::time::timeout(Duration::from_secs(120), async {
            let mut out = Vec::new();
            for task in endings {
                out.push(task.await.expect("ending task"));
            }
            out
        })
        .await
        .expect("the endings are answered");
        for (result, (id, _)) in ended.iter().zip(&games) {
            if let Err(e) = result {
                panic!("round {round}: the winning move of game {id} was refused: {e:?}");
            }
        }
    }
    // Every rated game counted once for both players, in their global rating.
    for &player in &PLAYERS {
        let ratings = svc.ratings(GuildId(GUILD), UserId(player)).await.unwrap();
        let global = ratings
            .global
            .iter()
            .find(|r| r.family == Family::Gomoku)
            .expect("rated");
        assert_eq!(global.games, played[&player], "player {player}");
    }
}

/// The actor of a seat of a game in `guild`.
fn seat_in(view: &GameView, seat: u8, guild: u64) -> Actor {
    let s = view.seats.iter().find(|s| s.seat == seat).expect("seat");
    Actor::new(guild, CHANNEL, UserInfo::new(s.user.0, s.name.clone()))
}

both_stores!(multi_thread 2: rated_games_ending_together_in_every_lane_all_commit);
