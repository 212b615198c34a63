//! The outbox's other kinds on both stores (issue 16): each is owed in the commit that makes
//! it due, and only then: an expired challenge's edit (when it has a message), the vacation
//! notice, the edit of offers a move made stale (after the move's board), a tournament round's
//! post (which the claims of the fronts before the outbox then leave alone). Rows about no game
//! queue on their own, and another process's poster finds them by its shards.

use std::time::Duration;

use gomoku_bot::service::{
    ChannelId, ClockEvent, GuildId, GuildShards, MessageId, OutboxKind, OutboxRow, OutboxScope,
    Service, TimeControl, TournamentRequest,
};
use gomoku_bot::store::{challenge_queue, row_tournament, tournament_queue};
use gomoku_bot::tournament::Format;

use crate::common::*;

const HOUR: Duration = Duration::from_secs(3600);

/// Ends every pending row, as a poster would after sending them.
async fn send_all(svc: &Service) {
    loop {
        let rows = heads(svc).await;
        if rows.is_empty() {
            return;
        }
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        svc.outbox_sent_many(&ids).await.unwrap();
    }
}

async fn challenges_and_vacation_owe_their_messages(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    // Two challenges expire: only the one shown in a message owes an edit.
    let shown = svc
        .challenge(&at(alice()), request(Some(bob()), "gomoku"))
        .await
        .unwrap();
    svc.set_challenge_message(shown.id, ChannelId(CHANNEL), MessageId(555))
        .await
        .unwrap();
    let unseen = svc
        .challenge(&at(carol()), request(Some(dave()), "gomoku"))
        .await
        .unwrap();
    env.clock.advance(Duration::from_secs(25 * 3600));
    let expired = svc.expire_challenges_for(true).await.unwrap();
    assert_eq!(expired.len(), 2);
    let rows = heads(svc).await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].kind, OutboxKind::Challenge);
    assert_eq!(rows[0].game, challenge_queue(shown.id));
    let c = svc.outbox_challenge(&rows[0]).await.unwrap().unwrap();
    assert_eq!(c.id, shown.id);
    assert_ne!(c.id, unseen.id);

    // Another process (a bot of other shards) takes it once its writer has left it for a
    // while, when the challenge's guild is on its shards, and not otherwise.
    let mut other = open_service(&env.db, config(), env.clock.clone()).await;
    let ours = GuildShards {
        first: 0,
        last: 0,
        total: 2,
    };
    assert!(ours.has(GUILD));
    other.set_outbox_scope(OutboxScope::Shards(ours));
    assert!(heads(&other).await.is_empty(), "still its writer's");
    env.clock.advance(Duration::from_secs(31));
    assert_eq!(heads(&other).await.len(), 1);
    other.set_outbox_scope(OutboxScope::Shards(GuildShards { first: 1, ..ours }));
    assert!(heads(&other).await.is_empty(), "another shard's guild");
    other.close().await;
    other = open_service(&env.db, config(), env.clock.clone()).await;
    send_all(&other).await;
    other.close().await;

    // A deadline passes in a game counted in days: vacation starts, and its notice is owed
    // with the hours left, once per turn.
    let (game, _, _) = start_two(svc, "gomoku").await;
    assert_eq!(game.time, TimeControl::DaysPerMove(3));
    env.clock.advance(3 * 24 * HOUR + HOUR);
    let events = svc.sweep_clocks().await.unwrap();
    let left = events
        .iter()
        .find_map(|e| match e {
            ClockEvent::VacationUsed { left, .. } => Some(*left),
            _ => None,
        })
        .expect("vacation was spent");
    let rows = heads(svc).await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].kind, OutboxKind::Vacation);
    assert_eq!(rows[0].game, game.id);
    assert_eq!(rows[0].seat, game.to_act().map(|s| s.seat));
    assert_eq!(rows[0].detail.as_deref(), Some(left.to_string().as_str()));
    send_all(svc).await;
    env.clock.advance(HOUR);
    svc.sweep_clocks().await.unwrap();
    assert!(heads(svc).await.is_empty(), "one notice per turn");
}

async fn a_move_owes_the_edit_of_the_offers_it_made_stale_after_its_board(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let (game, mut first, mut second) = start_two(svc, "gomoku").await;
    first.owes_posts = true;
    second.owes_posts = true;
    svc.play(&first, Some(game.id), act("H8", 15), None)
        .await
        .unwrap();
    // A move owes nothing more when no offer lapses.
    let kinds: Vec<OutboxKind> = heads(svc).await.iter().map(|r| r.kind).collect();
    assert_eq!(kinds, vec![OutboxKind::Board]);
    send_all(svc).await;
    // An offer that lapses is owed an edit, after the board; the poster finds no message to
    // edit when nobody showed it in one.
    svc.offer_draw(&first, Some(game.id)).await.unwrap();
    svc.play(&second, Some(game.id), act("A1", 15), None)
        .await
        .unwrap();
    let board = heads(svc).await;
    assert_eq!(board[0].kind, OutboxKind::Board);
    svc.outbox_sent_many(&[board[0].id]).await.unwrap();
    let rows = heads(svc).await;
    assert_eq!(rows[0].kind, OutboxKind::Offers);
    assert!(svc.outbox_lapsed_offers(&rows[0]).await.unwrap().is_empty());
    send_all(svc).await;
    // One shown in a message is found, and edited.
    let made = svc.offer_draw(&second, Some(game.id)).await.unwrap();
    svc.set_offer_message(made.offer.id, ChannelId(CHANNEL), MessageId(777))
        .await
        .unwrap();
    svc.play(&first, Some(game.id), act("J9", 15), None)
        .await
        .unwrap();
    let board = heads(svc).await;
    assert_eq!(board.len(), 1);
    assert_eq!(board[0].kind, OutboxKind::Board);
    svc.outbox_sent_many(&[board[0].id]).await.unwrap();
    let rows = heads(svc).await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].kind, OutboxKind::Offers);
    assert_eq!(rows[0].ply, board[0].ply);
    // The poster finds the offer (closing it as lapsed), and again on a retry.
    for _ in 0..2 {
        let lapsed = svc.outbox_lapsed_offers(&rows[0]).await.unwrap();
        assert_eq!(
            lapsed.iter().map(|o| o.id).collect::<Vec<_>>(),
            vec![made.offer.id]
        );
        assert_eq!(
            lapsed[0].message,
            Some((ChannelId(CHANNEL), MessageId(777)))
        );
    }
}

async fn a_tournament_round_is_owed_in_the_commit_that_starts_it(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    svc.set_outbox_poster();
    let request = TournamentRequest {
        name: "Winter Cup".into(),
        format: Format::Swiss,
        rules: Some(rules("gomoku")),
        time: Some(TimeControl::DaysPerMove(3)),
        rated: false,
        max_players: None,
        rounds: None,
        games_per_pairing: None,
    };
    let t = svc.create_tournament(&at(alice()), request).await.unwrap();
    for who in [alice(), bob(), carol()] {
        svc.join_tournament(&at(who), t.row.id).await.unwrap();
    }
    svc.start_tournament(&at(alice()), t.row.id, false)
        .await
        .unwrap();
    let rows: Vec<OutboxRow> = heads(svc)
        .await
        .into_iter()
        .filter(|r| r.kind == OutboxKind::Tournament)
        .collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].game, tournament_queue(t.row.id));
    assert_eq!(row_tournament(&rows[0]), Some((t.row.id, 1)));
    // The poster's row: the claims of the fronts before the outbox leave it alone.
    assert!(
        svc.claim_announcements(None, Duration::from_secs(60))
            .await
            .unwrap()
            .is_empty()
    );
    let a = svc.announcement(t.row.id, 1).await.unwrap().expect("owed");
    assert_eq!(a.round, 1);
    assert_eq!(a.games.len(), 1, "three players: one game, one rests");
    // Another process of the tournament's shards takes it once left long enough.
    let other = open_service(&env.db, config(), env.clock.clone()).await;
    other.set_outbox_scope(OutboxScope::Shards(GuildShards {
        first: 0,
        last: 0,
        total: 1,
    }));
    env.clock.advance(Duration::from_secs(31));
    assert!(
        heads(&other)
            .await
            .iter()
            .any(|r| r.kind == OutboxKind::Tournament)
    );
    other.close().await;
    svc.mark_announced(t.row.id, 1).await.unwrap();
    assert!(svc.announcement(t.row.id, 1).await.unwrap().is_none());
    let guild = GuildId(GUILD);
    assert_eq!(
        svc.tournament(guild, t.row.id)
            .await
            .unwrap()
            .row
            .announced_round,
        1
    );
}

both_stores!(
    challenges_and_vacation_owe_their_messages,
    a_move_owes_the_edit_of_the_offers_it_made_stale_after_its_board,
    a_tournament_round_is_owed_in_the_commit_that_starts_it,
);
