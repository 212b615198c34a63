//! Board picture speed: drawing plus PNG encoding against PNG encoding alone.
//!
//! `cargo bench --bench render`. PNGs are deflated in bands that a shared cache keeps
//! (`src/render/deflate.rs`), so what a picture costs depends on what was encoded before:
//! - `encode_cold`: PNG-encoding an already drawn picture with nothing to reuse (every band
//!   deflated), the cost of encoding an image of that size from scratch;
//! - `render_png/next_move`: the bot's path, drawing and encoding a position when the caches
//!   hold the pictures before its last two moves and nothing else (the bot posts a game's
//!   board after every move): the picture is drawn over the one before it (only the cells
//!   and footer that differ), and only the bands that differ from both are deflated;
//! - `render_png_full/next_move`: the same position drawn in full (every cell, every band
//!   hashed), as before incremental pictures; the paired figures print both;
//! - `render_png/same_position`: drawing and encoding a position encoded just before, all
//!   bands found (drawing, hashing and assembling the file);
//! - `draw`: drawing alone.
//!
//! The issue-3 figure is render plus encode against encoding alone; the honest pair is the
//! bot's path (`render_png/next_move`) against `encode_cold`, measured in alternation in one
//! run. Positions: Pente 19x19 games of 100 moves, each picture one of the last 20 moves.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use gomoku_bot::render::{self, RenderOptions};
use gomoku_bot::rules::{Game, Preset, RuleSet};
use std::hint::black_box;
use std::time::Instant;

#[path = "../tests/common/mod.rs"]
mod common;

/// (Positions before the last two moves, position), Pente 19x19 around 90 stones.
fn transitions() -> Vec<([Game; 2], Game)> {
    let rules = RuleSet::preset(Preset::Pente);
    let mut v = Vec::new();
    for seed in [7, 11, 23] {
        let game = common::random_game(rules, 100, seed);
        let record = game.record();
        let at = |n: usize| Game::from_record(rules, &record[..n]).expect("a replayable game");
        for n in record.len() - 20..=record.len() {
            v.push(([at(n - 2), at(n - 1)], at(n)));
        }
    }
    v
}

/// Empties the cache and encodes the positions before a move, as the bot did.
fn prime(before: &[Game; 2], names: &[String], opts: &RenderOptions) {
    render::clear_png_cache();
    for g in before {
        render::render_png(g, names, opts);
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn bench(c: &mut Criterion) {
    let names = vec!["Ann".to_string(), "Bo".to_string()];
    let opts = RenderOptions::default();

    // The issue-3 position: its file size and the bands a move changes.
    let game = common::random_game(RuleSet::preset(Preset::Pente), 100, 7);
    let png = render::render_png(&game, &names, &opts);
    eprintln!(
        "position: {} stones on the board, PNG {} bytes",
        game.stone_count(),
        png.len()
    );

    let pairs = transitions();
    let (mut bytes, mut misses, mut bands) = (0, 0, 0);
    for (before, after) in &pairs {
        prime(before, &names, &opts);
        let s0 = render::png_cache_stats();
        bytes += render::render_png(after, &names, &opts).len();
        let s1 = render::png_cache_stats();
        misses += s1.misses - s0.misses;
        bands += s1.misses + s1.hits - s0.misses - s0.hits;
    }
    eprintln!(
        "{} moves: PNG {:.1} KB on average; {:.2} of {:.0} bands deflated per picture",
        pairs.len(),
        bytes as f64 / pairs.len() as f64 / 1024.0,
        misses as f64 / pairs.len() as f64,
        bands as f64 / pairs.len() as f64,
    );

    // The machine is shared, so load drifts between criterion's groups. Alongside them,
    // measure the bot's path and the cold encoding in alternation, pair by pair, and report
    // the medians and the median of the pairwise ratios.
    let (mut next_move, mut cold, mut same, mut draw, mut ratios) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut full, mut gains) = (Vec::new(), Vec::new());
    for i in 0..1500 {
        let (before, after) = &pairs[i % pairs.len()];
        // The next move drawn in full (as before incremental pictures), then drawn over the
        // game's last picture: each after the same priming.
        prime(before, &names, &opts);
        let t = Instant::now();
        black_box(render::render_png_full(black_box(after), &names, &opts));
        let f = t.elapsed().as_secs_f64();
        prime(before, &names, &opts);
        let t = Instant::now();
        black_box(render::render_png(black_box(after), &names, &opts));
        let a = t.elapsed().as_secs_f64();
        full.push(f);
        gains.push(a / f);
        let t = Instant::now();
        black_box(render::render_png(black_box(after), &names, &opts));
        same.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let drawn = render::draw_picture(black_box(after), &names, &opts);
        draw.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        black_box(drawn.encode_cold());
        let b = t.elapsed().as_secs_f64();
        next_move.push(a);
        cold.push(b);
        ratios.push(a / b);
    }
    eprintln!(
        "paired, 1500 moves (medians): render_png next move {:.3} ms, encode cold {:.3} ms, \
         ratio {:.3}; render_png same position {:.3} ms; draw {:.3} ms",
        median(&mut next_move) * 1e3,
        median(&mut cold) * 1e3,
        median(&mut ratios),
        median(&mut same) * 1e3,
        median(&mut draw) * 1e3,
    );
    eprintln!(
        "paired, 1500 moves (medians): next move drawn in full {:.3} ms, incrementally {:.3} \
         ms, ratio {:.3}",
        median(&mut full) * 1e3,
        median(&mut next_move) * 1e3,
        median(&mut gains),
    );

    let (before, after) = &pairs[pairs.len() - 1];
    let mut group = c.benchmark_group("png_19x19");
    group.bench_function("render_png/next_move", |b| {
        b.iter_batched(
            || prime(before, &names, &opts),
            |()| render::render_png(black_box(after), black_box(&names), black_box(&opts)),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("render_png_full/next_move", |b| {
        b.iter_batched(
            || prime(before, &names, &opts),
            |()| render::render_png_full(black_box(after), black_box(&names), black_box(&opts)),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("render_png/same_position", |b| {
        b.iter(|| render::render_png(black_box(&game), black_box(&names), black_box(&opts)))
    });
    let drawn = render::draw_picture(&game, &names, &opts);
    group.bench_function("encode_cold/same_picture", |b| {
        b.iter(|| black_box(&drawn).encode_cold())
    });
    group.bench_function("draw", |b| {
        b.iter(|| render::draw_picture(black_box(&game), black_box(&names), black_box(&opts)))
    });
    group.finish();

    let actions = game.record().to_vec();
    let rules = *game.rules();
    c.bench_function("replay_gif/pente_100_moves", |b| {
        b.iter(|| render::render_replay_gif(&rules, black_box(&actions), &names, &opts))
    });
}

/// One player's name, cleaned, shaped and drawn as the footer does: `shape_and_draw` the
/// first time (no shaped line cached; glyph rasters cached, as in a running bot), `cached`
/// every later picture of the game (the shaped line is found).
fn names(c: &mut Criterion) {
    let mut group = c.benchmark_group("name");
    for (script, name) in [
        ("latin", "Zoë Ångström-Ñúñez"),
        ("arabic", "محمد علي"),
        ("devanagari", "राहुल शर्मा"),
        (
            "emoji",
            "👨\u{200D}👩\u{200D}👧\u{200D}👦 Family 👩🏽\u{200D}💻",
        ),
        ("mixed", "Ann (שלום) 42"),
    ] {
        // Fill the glyph cache first.
        render::name_strip(name, 500, true);
        group.bench_function(format!("shape_and_draw/{script}"), |b| {
            b.iter(|| render::name_strip(black_box(name), 500, true))
        });
        group.bench_function(format!("cached/{script}"), |b| {
            b.iter(|| render::name_strip(black_box(name), 500, false))
        });
    }
    group.finish();
}

/// Renju 15x15 with black to move (60 stones): the bot's next picture with black's forbidden
/// points marked (the default) against the same picture without the marks, paired.
fn renju(c: &mut Criterion) {
    let names = vec!["Ann".to_string(), "Bo".to_string()];
    let marks = RenderOptions::default();
    let plain = RenderOptions {
        forbidden_marks: false,
        ..RenderOptions::default()
    };
    let rules = RuleSet::from_spec("renju opening=none").expect("valid spec");
    let mut pairs = Vec::new();
    for seed in 0..40 {
        let game = common::random_game(rules, 60, seed);
        let record = game.record();
        if record.len() < 60 || game.forbidden_points().is_empty() {
            continue;
        }
        let at = |n: usize| Game::from_record(rules, &record[..n]).expect("a replayable game");
        pairs.push(([at(58), at(59)], game));
    }
    let marked: usize = pairs.iter().map(|p| p.1.forbidden_points().len()).sum();
    eprintln!(
        "renju: {} positions of 60 stones, black to move, {:.1} forbidden points on average",
        pairs.len(),
        marked as f64 / pairs.len() as f64
    );
    let (mut with, mut without, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..1000 {
        let (before, after) = &pairs[i % pairs.len()];
        prime(before, &names, &marks);
        let t = Instant::now();
        black_box(render::render_png(black_box(after), &names, &marks));
        let a = t.elapsed().as_secs_f64();
        prime(before, &names, &plain);
        let t = Instant::now();
        black_box(render::render_png(black_box(after), &names, &plain));
        let b = t.elapsed().as_secs_f64();
        with.push(a);
        without.push(b);
        ratios.push(a / b);
    }
    eprintln!(
        "renju, paired, 1000 moves (medians): next picture with forbidden marks {:.3} ms, \
         without {:.3} ms, ratio {:.3}",
        median(&mut with) * 1e3,
        median(&mut without) * 1e3,
        median(&mut ratios),
    );
    let (before, after) = &pairs[0];
    let mut group = c.benchmark_group("png_15x15_renju");
    for (name, opts) in [("marks", &marks), ("no_marks", &plain)] {
        group.bench_function(format!("render_png/next_move/{name}"), |b| {
            b.iter_batched(
                || prime(before, &names, opts),
                |()| render::render_png(black_box(after), black_box(&names), black_box(opts)),
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(60);
    targets = bench, names, renju
}
criterion_main!(benches);
