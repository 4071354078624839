//! The rules engine: pure (no I/O, clock or randomness), variant-agnostic.
//!
//! A board is a [`Geometry`]; pieces are data ([`Catalog`], Betza strings parsed by
//! [`betza`]); a variant is a [`Rules`] value compiled once; a [`Position`] generates and
//! plays moves; [`fen`] and [`notation`] read and write text.

pub mod betza;
pub mod fen;
mod geometry;
mod movegen;
pub mod notation;
pub mod perft;
mod piece;
mod position;
mod rules;

pub use geometry::{
    split_square, Coord, Geometry, GeometryError, Square, SquareMap, MAX_SIDE, PAD,
};
pub use piece::{Army, ArmyId, Catalog, CatalogError, Hook, Kind, PieceDef};
pub use position::{
    CastleRight, Colour, EnPassant, Hand, HandPiece, Move, MoveRecord, Piece, Position,
    SpecialMove, Undo,
};
pub use rules::{
    orient, CaptureFate, DropRules, RuleSet, Rules, RulesRef, Side, VariantError, MAX_SIDES,
};

/// A position of a variant named as the command line names it (`chess`,
/// `kcwda:clobberers-nutty`, `kfb-board:fide-rookies`): from `fen` when given, else its start.
///
/// # Errors
/// A bad variant name or FEN.
pub fn position_of(variant: &str, fen_text: Option<&str>) -> Result<Position, PositionError> {
    let rules = std::sync::Arc::new(Rules::from_name(variant)?);
    let text = match fen_text {
        Some(t) => t.to_string(),
        None => rules.start_fen(),
    };
    Ok(fen::parse(rules, &text)?)
}

/// Why [`position_of`] read no position.
#[derive(Debug, thiserror::Error)]
pub enum PositionError {
    /// The variant name is wrong.
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// The FEN is wrong.
    #[error("bad --fen: {0}")]
    Fen(#[from] fen::FenError),
}
