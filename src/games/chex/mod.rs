//! Chex (RULINGS §5): a board that grows and shrinks, pieces drawn at random from shuffled
//! stacks, and the group of pieces in play that must never break.
//!
//! - [`Position`]: pieces on absolute squares, stacks, legal plays, the shown board;
//! - the position text (`Position::from_text`, `Position::to_text`);
//! - [`shuffle`]: the seeded shuffle of the stacks and the seed's hash;
//! - [`Game`]: the append-only log of actions replayed into the state;
//! - [`export`]: the game as text, and back.
pub mod export;
mod game;
mod position;
pub mod shuffle;
mod text;

pub use game::{
    describe, outcome_text, parse_turn, relabel_line, Accepted, Action, DrawMode, DrawReason,
    Entry, Game, NewGame, Outcome, Refusal, Request, Settings, StalemateMode, State, WinHow,
    MAX_SEED,
};
pub use position::{
    connected, frame_of, full_set, Abs, Frame, Kind, Move, Piece, Position, Side, MAX_BOARD,
    MIN_BOARD,
};
pub use text::{Field, TextError};
