//! Arbiter: a referee for chess-variant forum games.
//!
//! The [`engine`] is pure rules; front ends (the command line, the console, the Discord bot)
//! are thin adapters around it.
pub mod cli;
pub mod commands;
pub mod console;
pub mod cpu;
pub mod discord;
pub mod engine;
pub mod games;
pub mod render;
pub mod scale;
pub mod service;
pub mod store;
pub mod swiss;
pub mod time;
pub mod timing;
pub mod tournament;
