//! `arbiter render-bench`'s pictures: an 8×8 board, every game's picture and a standings
//! table, timed cold and warm.

use std::time::Instant;

use crate::games::chex::picture::{self as chex, example_chex};
use crate::games::kfb::picture::{self as kfb, example_kfb};
use crate::games::nomic::picture::{self as nomic, example_nomic};
use crate::games::party::picture as party;
use crate::games::pictures::clear_caches;
use crate::games::ultimate::picture::{self as ultimate, example_ultimate};
use crate::render::canvas::Canvas;
use crate::render::{draw_position, table, LastMove, RenderError, RenderOptions};

/// Timings of one picture: medians in milliseconds.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PictureTiming {
    /// Drawing and encoding, median.
    pub ms: f64,
    /// Drawing alone, median.
    pub draw_ms: f64,
    /// Encoding alone (deflating the rows), median.
    pub encode_ms: f64,
    /// Drawing and encoding, fastest run (the cost without the waits of a loaded machine).
    pub best_ms: f64,
    /// The first render after [`clear_caches`].
    pub cold_ms: f64,
    /// PNG size in bytes.
    pub bytes: usize,
}

/// One picture of the benchmark.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchLine {
    /// What is drawn.
    pub name: &'static str,
    /// Its timings.
    pub timing: PictureTiming,
}

/// Timings of [`bench()`]: medians in milliseconds (render and PNG encoding, release build
/// recommended) and the sizes of the files, with the 8×8 board as the reference the other
/// pictures are measured against (a ratio holds from one machine to another; milliseconds
/// do not).
#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    /// Runs timed per picture.
    pub runs: usize,
    /// Median time for one 8×8 board (CwDA start position with a last move).
    pub board_ms: f64,
    /// Its PNG size in bytes.
    pub board_bytes: usize,
    /// Median time for the KFB three-board picture ([`example_kfb`]).
    pub kfb_ms: f64,
    /// Its PNG size in bytes.
    pub kfb_bytes: usize,
    /// First (cold-cache) KFB render in milliseconds, piece sprites drawn from scratch.
    pub kfb_cold_ms: f64,
    /// Median time for the Ultimate Chess picture of a busy position ([`example_ultimate`]).
    pub ultimate_ms: f64,
    /// Its PNG size in bytes.
    pub ultimate_bytes: usize,
    /// First (cold-cache) Ultimate Chess render in milliseconds.
    pub ultimate_cold_ms: f64,
    /// Every picture.
    pub lines: Vec<BenchLine>,
}

impl std::fmt::Display for BenchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "ms, medians of {} runs (every band deflated afresh); best: the fastest run; cold: \
             the first render after the caches are cleared; x board: the median over the 8x8 \
             board's\n",
            self.runs
        )?;
        writeln!(
            f,
            "{:<26} {:>6} {:>6} {:>6} {:>6} {:>7} {:>7} {:>8}",
            "picture", "draw", "encode", "total", "best", "cold", "bytes", "x board"
        )?;
        let reference = self.board_ms;
        for l in &self.lines {
            let t = &l.timing;
            let ratio = if reference > 0.0 {
                t.ms / reference
            } else {
                0.0
            };
            writeln!(
                f,
                "{:<26} {:>6.2} {:>6.2} {:>6.2} {:>6.2} {:>7.2} {:>7} {:>7.1}x",
                l.name, t.draw_ms, t.encode_ms, t.ms, t.best_ms, t.cold_ms, t.bytes, ratio
            )?;
        }
        Ok(())
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Times one picture: a cold render, then `runs` warm ones. Every band is deflated afresh
/// ([`crate::render::deflate::without_reuse`]): bands kept from the run before would all be found.
fn bench_picture(
    name: &'static str,
    runs: usize,
    draw: &dyn Fn() -> Result<Canvas, RenderError>,
) -> Result<BenchLine, RenderError> {
    crate::render::deflate::without_reuse(|| {
        let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;
        clear_caches();
        let t = Instant::now();
        draw()?.encode()?;
        let cold_ms = ms(t);
        let (mut total, mut drawn, mut encoded) = (Vec::new(), Vec::new(), Vec::new());
        let mut bytes = 0;
        for _ in 0..runs {
            let t = Instant::now();
            let canvas = draw()?;
            drawn.push(ms(t));
            let t2 = Instant::now();
            bytes = canvas.encode()?.len();
            encoded.push(ms(t2));
            total.push(ms(t));
        }
        Ok(BenchLine {
            name,
            timing: PictureTiming {
                best_ms: total.iter().copied().fold(f64::INFINITY, f64::min),
                ms: median(total),
                draw_ms: median(drawn),
                encode_ms: median(encoded),
                cold_ms,
                bytes,
            },
        })
    })
}

/// Times rendering and encoding of an 8×8 board and of every game's picture and a standings
/// table (median of `runs`).
///
/// # Errors
/// If a picture cannot be drawn.
pub fn bench(runs: usize) -> Result<BenchReport, RenderError> {
    let runs = runs.max(1);
    let view = example_kfb()?;
    let pos = crate::engine::position_of("kcwda:clobberers-nutty", None)?;
    let last = LastMove::from_text(&pos, "e2-e4")?;
    let cross = example_ultimate();
    let table = table::example_table();
    let chex = example_chex();
    let nomic = example_nomic();
    let party = party::example_party().map_err(RenderError::Message)?;
    let lines = vec![
        bench_picture("8x8 board", runs, &|| {
            draw_position(&pos, Some(last.clone()), &RenderOptions::default())
        })?,
        bench_picture("KFB three boards", runs, &|| kfb::draw_kfb(&view))?,
        bench_picture("Ultimate cross board", runs, &|| {
            ultimate::draw_ultimate(&cross)
        })?,
        bench_picture("standings table", runs, &|| table::draw_table(&table))?,
        bench_picture("Chex board", runs, &|| chex::draw_chex(&chex))?,
        bench_picture("Nomic half-boards and J", runs, &|| {
            nomic::draw_nomic(&nomic)
        })?,
        bench_picture("Party Chess 20x20 board", runs, &|| {
            party::draw_party(&party)
        })?,
    ];
    Ok(BenchReport {
        runs,
        board_ms: lines[0].timing.ms,
        board_bytes: lines[0].timing.bytes,
        kfb_ms: lines[1].timing.ms,
        kfb_bytes: lines[1].timing.bytes,
        kfb_cold_ms: lines[1].timing.cold_ms,
        ultimate_ms: lines[2].timing.ms,
        ultimate_bytes: lines[2].timing.bytes,
        ultimate_cold_ms: lines[2].timing.cold_ms,
        lines,
    })
}
