//! `arbiter render-bench`'s replays: long games replayed whole, timed.

use super::fixtures::{example_game, last_number, EXAMPLE_START};
use crate::layer::replay::{ReplayOptions, Replayed};

/// One replay of the benchmark.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayBench {
    /// What is replayed.
    pub name: &'static str,
    /// The actions in the game.
    pub actions: u32,
    /// The replay drawn.
    pub replayed: Replayed,
    /// Milliseconds to draw it (the palette's pictures and every pass).
    pub ms: f64,
}

/// `arbiter render-bench`'s replays: a 200-action KFB game, a 300-play Party Chess game and
/// a 500-action KFB game ([`example_game`]), each replayed whole at normal speed.
///
/// # Errors
/// A game that cannot be played or drawn.
pub fn bench() -> Result<Vec<ReplayBench>, String> {
    let mut out = Vec::new();
    for (name, game, plays) in [
        ("KFB, 200 actions", "kfb", 200),
        ("Party Chess, 300 plays", "party", 300),
        ("KFB, 500 actions", "kfb", 500),
    ] {
        let g = example_game(game, plays)?;
        let actions = last_number(&*g);
        let job = g.replay_job(&ReplayOptions::default(), EXAMPLE_START)?;
        let t = std::time::Instant::now();
        let replayed = job()?;
        out.push(ReplayBench {
            name,
            actions,
            replayed,
            ms: t.elapsed().as_secs_f64() * 1e3,
        });
    }
    Ok(out)
}

/// The benchmark's lines, as `arbiter render-bench` prints them.
pub fn bench_text(lines: &[ReplayBench]) -> String {
    let mut s = format!(
        "{:<26} {:>7} {:>6} {:>9} {:>10} {:>6} {:>7} {:>6} {:>8}\n",
        "replay", "actions", "frames", "ms", "bytes", "scale", "passes", "drawn", "px/frame"
    );
    for l in lines {
        let r = &l.replayed.replay;
        s.push_str(&format!(
            "{:<26} {:>7} {:>6} {:>9.0} {:>10} {:>5.0}% {:>7} {:>6} {:>8}\n",
            l.name,
            l.actions,
            r.frames,
            l.ms,
            r.gif.len(),
            r.scale * 100.0,
            r.passes,
            r.sampled + r.drawn,
            r.encoded / r.frames.saturating_sub(1).max(1) as u64
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::fixtures::{example_game, last_number, EXAMPLE_START};

    #[test]
    #[ignore = "times the replays of `arbiter render-bench` (run with --ignored --nocapture)"]
    fn replay_bench() {
        print!("{}", bench_text(&bench().unwrap()));
    }

    #[test]
    #[ignore = "prints how far the example games get"]
    fn example_games_play() {
        for g in ["kfb", "ultimate", "chex", "nomic", "party"] {
            let game = example_game(g, 40).unwrap();
            println!("{g}: {} actions", last_number(&*game));
            println!("{}", game.status(EXAMPLE_START));
        }
    }
}
