//! Ultimate Chess (RULINGS §4): four players on a 16×16 board less its 2×2 corners.
//!
//! - [`board`]: seats, pieces (Betza data), the board and the castling table;
//! - [`Position`]: what the position text carries, legal moves, make/unmake, perft;
//! - [`notation`]: moves as players write them;
//! - [`Game`]: the append-only log of actions replayed into the state the game layer shows;
//! - [`export`]: the game as text, and back.
pub mod board;
pub mod export;
mod game;
pub mod notation;
mod position;
mod text;

pub use board::{is_dark, parse_square, square_name, CastleSide, Kind, Piece, Seat, PROMOTIONS};
pub use game::{
    describe, shuffle_seats, Accepted, Action, Defeat, DefeatHow, DrawOffer, DrawReason, Entry,
    Game, NewGame, Outcome, Refusal, Request, Seating, Settings, Stalemate, State, MAX_SEED,
};
pub use position::{Fate, Mode, Move, Position, Undo};
pub use text::{Field, TextError};
