//! Party Chess (RULINGS §3): any number of Swingers on a 20×20 board, every piece of the rule
//! suite.
//!
//! - [`piece`]: the types, letters, values, limits, and the simple pieces' Betza data;
//! - [`board`]: squares and the position (board, off-board pieces, Play List, Echo sources);
//! - [`text`]: the position text, read and written;
//! - [`rules`]: each piece's rule as a named function, attacks, checks and legal plays;
//! - [`notation`]: plays as players write them;
//! - [`weight`]: Mobility and Weights (§3.7).
pub mod board;
pub mod export;
mod game;
pub mod notation;
pub mod piece;
pub mod rules;
pub mod text;
pub mod weight;

pub use board::{Position, Sq};
pub use game::{
    parse_pick, seating, Accepted, Action, Entry, Game, How, LastPlay, NewGame, Request, Settings,
    State, DEFAULT_LIMIT, MAX_EXTENSION,
};
pub use piece::{EchoRule, Kind, Piece, Src};
pub use rules::{legal_plays, Mv, Play};
pub use text::{Field, TextError};
