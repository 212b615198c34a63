//! Random playouts: how many moves per second the rules core applies (captures and win checks
//! included; Renju's forbidden-point test on every black move next to freestyle Gomoku), and how
//! long listing Renju's forbidden points of a 60-stone position takes.
//!
//! Run with `cargo bench --bench rules`; criterion reports the throughput in elements (moves,
//! or positions) per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gomoku_bot::rules::{Action, Game, Point, RuleSet};

/// Moves applied per measured iteration.
const MOVES: u64 = 20_000;

/// xorshift64*: tiny, fast and good enough to pick random empty points.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Plays random games back to back until `moves` moves have been applied; returns games finished.
fn playouts(template: &Game, rng: &mut Rng, moves: u64) -> u64 {
    let mut game = template.clone();
    let mut applied = 0;
    let mut finished = 0;
    while applied < moves {
        let n = game.empty_count() as u64;
        let Some(p) = game.empty_point((rng.next() % n) as usize) else {
            break;
        };
        // Refusals (the opening rule, forbidden points) are retried and not counted.
        if let Ok(report) = game.apply(Action::Place(p)) {
            applied += 1;
            if report.status != gomoku_bot::rules::Status::Ongoing {
                finished += 1;
                game = template.clone();
            }
        }
    }
    finished
}

fn bench_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random playouts");
    group.throughput(Throughput::Elements(MOVES));
    for spec in [
        "pente",
        "gomoku",
        "keryo self_capture=capture extra_time_capture=on",
        "renju opening=none",
    ] {
        let template = Game::new(RuleSet::from_spec(spec).expect("valid spec"));
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        group.bench_function(spec, |b| {
            b.iter(|| black_box(playouts(&template, &mut rng, MOVES)))
        });
    }
    group.finish();
}

/// Renju positions of 60 stones (30 each, black to move, nobody has won), grown by random legal
/// moves within 5 points of the centre so that they are dense with threes and fours.
fn renju_positions(count: usize, rng: &mut Rng) -> Vec<Game> {
    let template = Game::new(RuleSet::from_spec("renju opening=none").expect("valid spec"));
    let centre = Point::centre(15);
    let near: Vec<Point> = template
        .points()
        .filter(|p| p.distance(centre) <= 5)
        .collect();
    let mut out = Vec::new();
    while out.len() < count {
        let mut game = template.clone();
        let mut tries = 0;
        while game.stone_count() < 60 && !game.is_over() && tries < 10_000 {
            let p = near[(rng.next() % near.len() as u64) as usize];
            let _ = game.apply(Action::Place(p));
            tries += 1;
        }
        if !game.is_over() && game.stone_count() == 60 {
            out.push(game);
        }
    }
    out
}

fn bench_forbidden_points(c: &mut Criterion) {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let positions = renju_positions(32, &mut rng);
    let listed: usize = positions.iter().map(|g| g.forbidden_points().len()).sum();
    eprintln!(
        "{} positions of 60 stones, {listed} forbidden points in all",
        positions.len()
    );
    let mut group = c.benchmark_group("renju forbidden points");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("60 stones", |b| {
        b.iter(|| {
            for g in &positions {
                black_box(g.forbidden_points());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench_playouts, bench_forbidden_points);
criterion_main!(benches);
