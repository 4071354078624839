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
