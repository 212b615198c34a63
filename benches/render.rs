//! Board picture speed: drawing plus PNG encoding against PNG encoding alone.
//!
//! `cargo bench --bench render`. The figure that counts is the ratio of
//! `render_png/pente_19x19_90_stones` to `encode_only/same_picture`, measured in one run.

use criterion::{Criterion, criterion_group, criterion_main};
use gomoku_bot::render::{self, RenderOptions};
use gomoku_bot::rules::{Preset, RuleSet};
use std::hint::black_box;

#[path = "../tests/common/mod.rs"]
mod common;

fn bench(c: &mut Criterion) {
    let game = common::random_game(RuleSet::preset(Preset::Pente), 100, 7);
    let names = vec!["Ann".to_string(), "Bo".to_string()];
    let opts = RenderOptions::default();
    let png = render::render_png(&game, &names, &opts);
    eprintln!(
        "position: {} stones on the board, PNG {} bytes",
        game.stone_count(),
        png.len()
    );

    // The same picture, decoded back to palette indices, for encoding alone.
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png.clone()));
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder.read_info().expect("own PNG decodes");
    let palette = reader.info().palette.clone().expect("palette PNG").to_vec();
    let mut indices = vec![0; reader.output_buffer_size().expect("size fits")];
    let info = reader.next_frame(&mut indices).expect("own PNG decodes");
    let (w, h) = (info.width, info.height);

    // The machine is shared, so load drifts between criterion's groups. Alongside them,
    // measure the two in alternation, pair by pair, and report the medians and the median
    // of the pairwise ratios.
    let mut draw_and_encode = Vec::new();
    let mut encode_alone = Vec::new();
    let mut ratios = Vec::new();
    for _ in 0..2000 {
        let t = std::time::Instant::now();
        black_box(render::render_png(black_box(&game), &names, &opts));
        let a = t.elapsed().as_secs_f64();
        let t = std::time::Instant::now();
        black_box(render::encode_indexed_png(
            w,
            h,
            black_box(&palette),
            black_box(&indices),
        ));
        let b = t.elapsed().as_secs_f64();
        draw_and_encode.push(a);
        encode_alone.push(b);
        ratios.push(a / b);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    eprintln!(
        "paired, 2000 pairs: render+encode median {:.3} ms, encode alone median {:.3} ms, \
         median ratio {:.3}",
        median(&mut draw_and_encode) * 1e3,
        median(&mut encode_alone) * 1e3,
        median(&mut ratios)
    );

    let mut group = c.benchmark_group("png_19x19");
    group.bench_function("render_png/pente_19x19_90_stones", |b| {
        b.iter(|| render::render_png(black_box(&game), black_box(&names), black_box(&opts)))
    });
    group.bench_function("encode_only/same_picture", |b| {
        b.iter(|| render::encode_indexed_png(w, h, black_box(&palette), black_box(&indices)))
    });
    group.finish();

    let actions = game.record().to_vec();
    let rules = *game.rules();
    c.bench_function("replay_gif/pente_100_moves", |b| {
        b.iter(|| render::render_replay_gif(&rules, black_box(&actions), &names, &opts))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(60);
    targets = bench
}
criterion_main!(benches);
