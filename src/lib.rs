//! Arbiter: a referee for chess-variant forum games.
pub mod engine;
