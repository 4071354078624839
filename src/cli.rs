//! Command-line tools over the engine: `moves`, `perft`, `bench`.

use std::time::Instant;

use crate::engine::{fen, notation, Position};
use crate::games::ultimate;

/// Errors of the command-line tools.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The variant name is wrong.
    #[error(transparent)]
    Variant(#[from] crate::engine::VariantError),
    /// The FEN is wrong.
    #[error("bad --fen: {0}")]
    Fen(#[from] fen::FenError),
    /// The variant or its FEN is wrong.
    #[error(transparent)]
    Position(#[from] crate::engine::PositionError),
    /// The Ultimate Chess position text is wrong.
    #[error("bad --fen: {0}")]
    Ultimate(#[from] ultimate::TextError),
    /// The Chex position text is wrong.
    #[error("bad --fen: {0}")]
    Chex(#[from] crate::games::chex::TextError),
    /// The Party Chess position text is wrong.
    #[error("bad --fen: {0}")]
    Party(#[from] crate::games::party::TextError),
    /// The Nomic Chess position text is wrong.
    #[error("bad --fen: {0}")]
    Nomic(#[from] crate::games::nomic::TextError),
}

/// The variant name of Chex on the command line.
pub const CHEX: &str = "chex";

/// Every legal play of the Chex side to move in a position text (the empty board without
/// one), sorted; nothing when there is none.
///
/// # Errors
/// A text that does not read (the error names the field).
pub fn chex_moves(fen_text: Option<&str>) -> Result<Vec<String>, CliError> {
    let pos = match fen_text {
        Some(t) => crate::games::chex::Position::from_text(t)?,
        None => crate::games::chex::Position::start(),
    };
    Ok(pos.legal_texts())
}

/// The variant name of Party Chess on the command line.
pub const PARTY: &str = "party";

/// Every legal play of the Party Chess seat to play, sorted (nothing when there is none).
///
/// # Errors
/// A position text that does not read (the error names the field).
pub fn party_moves(fen_text: &str) -> Result<Vec<String>, CliError> {
    let pos = crate::games::party::Position::from_text(fen_text)?;
    Ok(crate::games::party::notation::legal_texts(&pos))
}

/// The variant name of Nomic Chess on the command line.
pub const NOMIC: &str = "nomic";

/// The plays of the army to move in a Nomic Chess position text (Nomic rules 6.10): with a push
/// standing, its moves on J (in J's coordinates, sorted); else every push after which the
/// army has a move (`push bottom:A top:B`); nothing outside part 1 or when there is no play.
///
/// # Errors
/// A text that does not read (the error names the field).
pub fn nomic_moves(text: &str) -> Result<Vec<String>, CliError> {
    use crate::games::nomic::{half_letter, position::move_text, position::Rules, Position, Slot};
    let pos = Position::from_text(text)?;
    let Slot::Army(army) = pos.turn.slot else {
        return Ok(Vec::new());
    };
    if pos.turn.part != 1 {
        return Ok(Vec::new());
    }
    let mut pos = pos;
    if pos.turn.s.iter().all(|s| !s) {
        pos.turn.s = pos.halves_of(army);
    }
    let rules = Rules::default();
    Ok(match pos.turn.join {
        Some(j) => {
            let b = pos.joined(j);
            let mut v: Vec<String> = pos
                .budget_moves(j, army, rules)
                .into_iter()
                .map(|m| move_text(&b, m))
                .collect();
            v.sort();
            v
        }
        None => pos
            .pushes_with_moves(army, rules)
            .into_iter()
            .map(|j| {
                format!(
                    "push bottom:{} top:{}",
                    half_letter(j.bottom),
                    half_letter(j.top)
                )
            })
            .collect(),
    })
}

/// The variant name of Ultimate Chess on the command line.
pub const ULTIMATE: &str = "ultimate";

/// An Ultimate Chess position from a position text, or the start position.
///
/// # Errors
/// A text that does not read (the error names the field).
pub fn ultimate_position(fen_text: Option<&str>) -> Result<ultimate::Position, CliError> {
    Ok(match fen_text {
        Some(t) => ultimate::Position::from_text(t)?,
        None => ultimate::Position::start(ultimate::Mode::Standard),
    })
}

/// Every legal play of the Ultimate Chess seat to move, formatted and sorted (nothing when
/// there is none).
pub fn ultimate_moves(pos: &ultimate::Position) -> Vec<String> {
    ultimate::notation::legal_texts(pos)
}

/// Ultimate Chess perft, optionally divided; the last line is the node count.
pub fn ultimate_perft(pos: &mut ultimate::Position, depth: u32, divide: bool) -> Vec<String> {
    let mut out = Vec::new();
    if divide {
        let before = pos.clone();
        let mut rows: Vec<(String, u64)> = pos
            .perft_divide(depth)
            .into_iter()
            .map(|(m, n)| (ultimate::notation::format(&before, m), n))
            .collect();
        rows.sort();
        let total: u64 = rows.iter().map(|r| r.1).sum();
        for (m, n) in rows {
            out.push(format!("{m} {n}"));
        }
        out.push(total.to_string());
    } else {
        out.push(pos.perft(depth).to_string());
    }
    out
}

/// Builds a position from a variant name and an optional FEN (the variant's start position
/// if none).
///
/// # Errors
/// A bad variant name or FEN.
pub fn position(variant: &str, fen_text: Option<&str>) -> Result<Position, CliError> {
    Ok(crate::engine::position_of(variant, fen_text)?)
}

/// Every legal move, formatted and sorted.
pub fn moves(pos: &mut Position) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| notation::format(pos, m))
        .collect();
    v.sort();
    v
}

/// Perft, optionally divided; the last line is the node count.
pub fn perft(pos: &mut Position, depth: u32, divide: bool) -> Vec<String> {
    let mut out = Vec::new();
    if divide {
        let mut rows: Vec<(String, u64)> = pos
            .perft_divide(depth)
            .into_iter()
            .map(|(m, n)| (notation::format(pos, m), n))
            .collect();
        rows.sort();
        let total: u64 = rows.iter().map(|r| r.1).sum();
        for (m, n) in rows {
            out.push(format!("{m} {n}"));
        }
        out.push(total.to_string());
    } else {
        out.push(pos.perft(depth).to_string());
    }
    out
}

/// One benchmark row: variant, depth, nodes, seconds, nodes per second.
pub struct BenchRow {
    /// Variant name.
    pub variant: String,
    /// Depth.
    pub depth: u32,
    /// Leaf nodes.
    pub nodes: u64,
    /// Median seconds over the runs.
    pub seconds: f64,
}

/// The default bench depth of a variant: 5, or 4 for Ultimate Chess (four seats with some
/// 60 moves each make its depth 5 too long for a quick measure).
pub fn bench_depth(variant: &str) -> u32 {
    if variant == ULTIMATE {
        4
    } else {
        5
    }
}

/// Times perft on the start positions of the given variants (median of `runs`) at `depth`,
/// or each variant's [`bench_depth`].
///
/// # Errors
/// A bad variant name.
pub fn bench(
    variants: &[String],
    depth: Option<u32>,
    runs: usize,
) -> Result<Vec<BenchRow>, CliError> {
    let mut rows = Vec::new();
    for v in variants {
        let depth = depth.unwrap_or_else(|| bench_depth(v));
        let mut perft: Box<dyn FnMut() -> u64> = if v == ULTIMATE {
            let mut pos = ultimate_position(None)?;
            Box::new(move || pos.perft(depth))
        } else {
            let mut pos = position(v, None)?;
            Box::new(move || pos.perft(depth))
        };
        let mut times = Vec::new();
        let mut nodes = 0;
        for _ in 0..runs.max(1) {
            let t = Instant::now();
            nodes = perft();
            times.push(t.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        rows.push(BenchRow {
            variant: v.clone(),
            depth,
            nodes,
            seconds: times[times.len() / 2],
        });
    }
    Ok(rows)
}
