//! The search engine's speed: nodes per second on middle-game positions, and the time to find
//! a continuous-four (VCF) win.
//!
//! Run with `cargo bench --bench engine`; the search benches report elements (nodes) per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gomoku_core::engine::{Engine, Level, Limits};
use gomoku_core::rules::{Game, RuleSet};

/// Nodes searched per measured iteration.
const NODES: u64 = 20_000;

fn position(spec: &str, moves: &str) -> Game {
    let mut g = Game::new(RuleSet::from_spec(spec).expect("valid spec"));
    for m in moves.split_whitespace() {
        g.apply_token(m).expect("legal move");
    }
    g
}

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search nodes");
    group.throughput(Throughput::Elements(NODES));
    group.sample_size(20);
    let positions = [
        (
            "gomoku 15x15 middle game",
            position("gomoku", "D8 F12 J8 H12 F8 H8 E9 G12 E12 H11 D10 G7"),
        ),
        (
            "pente 19x19 middle game",
            position("pente", "K10 M14 L13 K14 L14 L15 N13 L12 K16 N12 M12 O14"),
        ),
    ];
    for (name, game) in positions {
        // The position must be quiet enough that the search runs to its node cap; a forced
        // answer would measure nothing.
        let mut probe = Engine::seeded(Level::MAX, 1);
        probe.choose_with(
            &game,
            Limits {
                time: Duration::from_secs(60),
                nodes: NODES,
            },
        );
        assert!(
            probe.last_info().nodes >= NODES,
            "{name}: only {} nodes",
            probe.last_info().nodes
        );
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut engine = Engine::seeded(Level::MAX, 1);
                let limits = Limits {
                    time: Duration::from_secs(60),
                    nodes: NODES,
                };
                black_box(engine.choose_with(&game, limits))
            })
        });
    }
    group.finish();
}

fn bench_vcf(c: &mut Criterion) {
    // Black: F8 G8 H8 (closed by E8), G7 H8 K10 on the diagonal, J10 J11 on column J:
    // J9 (or J8) starts a run of fours that ends in a double four.
    let game = position("gomoku", "F8 E8 G8 F6 H8 J12 G7 A1 K10 A3 J10 A5 J11 O1");
    c.bench_function("vcf solve (gomoku, four then double four)", |b| {
        b.iter(|| {
            let mut engine = Engine::seeded(Level::MAX, 1);
            let wins = engine.vcf_wins(&game, Limits::time(Duration::from_secs(60)));
            assert!(!wins.is_empty());
            black_box(wins)
        })
    });
}

criterion_group!(benches, bench_search, bench_vcf);
criterion_main!(benches);
