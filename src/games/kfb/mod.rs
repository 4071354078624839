//! Kung Fu Bughouse with Different Armies (RULINGS §1).
pub mod draft;
pub mod export;
mod game;

pub use game::{
    describe, splitmix, team_of, Accepted, Action, BoardState, Entry, Game, HandOver, PickOutcome,
    PlayerState, Refusal, Settings, State, COLOUR_NAMES,
};
