//! The game layer: the one seam between "a game in a thread" and everything that serves it
//! (the command layer, storage, the console, pictures, export, timers and the Discord front
//! end), and everything every game does alike, written once.
//!
//! Every game is an append-only log of actions replayed into its state. A game plugs in with
//! a [`GameKind`] (its name, its commands, how to create and load one) and an implementation
//! of [`ThreadGame`] for its state. The seam is a trait object rather than an enum over the
//! games: the hub, the store and the front ends then never name a game, so adding one touches
//! only its own folder and one line of the registry (`commands::registry`).
//!
//! The rooms, bottom up:
//! - [`command`]: a command as typed, its caller and the reply (plain data);
//! - [`declare`]: the vocabulary slash commands are declared in;
//! - [`log`]: the append-only log and its stored rows, undo, revert, substitution;
//! - [`clock`]: time away (vacations, pauses) and deadlines on the layer's clock;
//! - [`table`]: `Table<F>`, a game as a fold over its log, with what every game does alike;
//! - [`game`]: [`ThreadGame`], waits, timers and the helpers a game's adapter uses;
//! - [`attention`], [`remind`]: players' notification settings and the reminders;
//! - [`premove`]: conditional moves, for the games that offer them;
//! - [`replay`]: a game's log replayed into frames for `/replay`.

pub mod attention;
pub mod clock;
pub mod command;
pub mod declare;
pub mod game;
pub mod log;
pub mod notify;
pub mod pace;
pub mod prefs;
pub mod premove;
pub mod remind;
pub mod replay;
pub mod rules;
pub mod seed;
pub mod table;
pub mod vacation;

pub use command::{
    command_button, command_button_id, mention, Caller, Command, MatchOpen, Reply, Roles,
};
pub use game::{
    imported, vacation_off, waiting, Asker, Bookkeeping, Due, Effect, GameKind, LogAction, NewGame,
    PictureJob, Played, PremoveSeat, SquareSeen, ThreadGame, Wait,
};
pub use log::LogRow;
pub use notify::Notify;
