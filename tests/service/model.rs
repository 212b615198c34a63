//! The service against the rules core as a model: for any sequence of attempts by either
//! player, the service accepts exactly what the rules accept from the seat to act, refuses
//! the rest with the rules' reason, and a restart rebuilds the very same game.

use std::sync::Arc;

use gomoku_bot::rules::{Action, Game, Point};
use gomoku_bot::service::{GuildId, ManualClock, ServiceError};
use gomoku_bot::store::Backend;
use proptest::prelude::*;

use crate::common::*;

/// One attempt: which seat tries, where, and whether it names the ply it saw.
#[derive(Clone, Debug)]
struct Attempt {
    seat: u8,
    col: u8,
    row: u8,
    with_ply: bool,
}

fn attempts() -> impl Strategy<Value = Vec<Attempt>> {
    // A 9x9 board and a small area keep collisions (occupied points, captures) frequent.
    prop::collection::vec(
        (1u8..=2, 2u8..7, 2u8..7, any::<bool>()).prop_map(|(seat, col, row, with_ply)| Attempt {
            seat,
            col,
            row,
            with_ply,
        }),
        1..40,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn the_service_accepts_exactly_what_the_rules_accept_on_sqlite(spec in specs(), tries in attempts()) {
        run_model(Backend::Sqlite, spec, &tries)?;
    }

    #[test]
    fn the_service_accepts_exactly_what_the_rules_accept_on_postgres(spec in specs(), tries in attempts()) {
        run_model(Backend::Postgres, spec, &tries)?;
    }
}

fn specs() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "gomoku size=9",
        "pente size=9 opening=none",
        "keryo size=9 opening=none self_capture=capture",
        "pente size=9 opening=swap2",
    ])
}

/// One case of the model test on one store.
fn run_model(backend: Backend, spec: &str, tries: &[Attempt]) -> Result<(), TestCaseError> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let Some(db) = TestDb::of(
            backend,
            "model::the_service_accepts_exactly_what_the_rules_accept",
        )
        .await
        else {
            return Ok(());
        };
        let clock = Arc::new(ManualClock::new(T0));
        let svc = open_service(&db, config(), clock.clone()).await;
        let (view, first, second) = start_two(&svc, spec).await;
        let mut model = Game::new(*view.game.rules());
        for t in tries {
            let actor = if t.seat == 1 { &first } else { &second };
            let point = Point::new(t.col, t.row, 9).unwrap();
            // During a swap choice, try the choice instead of a stone half of the time.
            let action = match model.phase() {
                gomoku_bot::rules::Phase::Choosing { .. } if t.col % 2 == 0 => {
                    Action::Take(1 + t.row % 2)
                }
                _ => Action::Place(point),
            };
            let expected = t.with_ply.then_some(model.record().len() as u32);
            let got = svc.play(actor, Some(view.id), action, expected).await;
            let want = if model.is_over() {
                Err(ServiceError::GameOver)
            } else if model.seat_to_act() != Some(t.seat) {
                Err(ServiceError::NotYourTurn)
            } else {
                model.check(action).map_err(ServiceError::Illegal)
            };
            match (&got, &want) {
                (Ok(played), Ok(())) => {
                    let report = model.apply(action).unwrap();
                    prop_assert_eq!(&played.report, &report);
                    prop_assert_eq!(&played.view.game, &model);
                }
                (Err(g), Err(w)) => prop_assert_eq!(g, w),
                _ => prop_assert!(false, "service {:?}, rules {:?}", got, want),
            }
        }
        svc.close().await;
        let svc = open_service(&db, config(), clock).await;
        let again = svc.game(GuildId(GUILD), view.id).await.unwrap();
        prop_assert_eq!(&again.game, &model);
        prop_assert_eq!(again.ply as usize, model.record().len());
        Ok::<(), TestCaseError>(())
    })
}
