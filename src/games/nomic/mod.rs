//! Nomic Chess (RULINGS §6): half-boards pushed together, armies changing hands, and a ruleset
//! the players vote on.
//!
//! - [`position`]: half-boards, the joined board J, FIDE moves on J, check, the move budget;
//! - [`text`]: the position text (§6.10);
//! - [`rules`]: the numbered ruleset (the seed's rules 100–217 to start with);
//! - [`Game`]: the append-only log of actions replayed into the state at a moment;
//! - [`export`]: the game as text, and back.
pub mod export;
mod game;
pub mod position;
pub mod rules;
mod text;

pub use game::{
    change_of, describe, drawn_order, parse_piece, Accepted, Action, Change, Demotion, Edit, Entry,
    Game, Judgment, LastMove, NewGame, Proposal, Refusal, Settings, Standing, State, TimeEvent,
    ASYNC, LIVE, MAX_SEED,
};
pub use position::{half_letter, Join, Kind, Local, Piece, Position, Slot};
pub use text::{Field, TextError};
