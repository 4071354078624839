//! Arbiter: a referee for chess-variant forum games played in Discord threads.
//!
//! Players type slash commands (`/move Nb1-c3`); the bot checks each against the rules, stores
//! it, and answers with the board's picture. Five games are refereed: [Kung Fu Bughouse with
//! Different Armies](games::kfb), [Ultimate Chess](games::ultimate), [Chex](games::chex),
//! [Party Chess](games::party) and [Nomic Chess](games::nomic); each module's documentation
//! gives that game's rules as the bot applies them, [`games`] the [rules every game
//! shares](games#rules-every-game-shares) and [`tournament`] the rules of tournaments.
//!
//! # Layers
//! Dependencies point inward: a layer uses the ones above it in this list, never below.
//! - [`engine`]: pure rules. Board geometry, pieces as Betza data, positions, move generation,
//!   position text (FEN) and notation. No I/O, no clock, no randomness.
//! - [`games`]: each game's rules on the engine, as an append-only log of actions replayed
//!   into its state. Time and seeds are passed in, so every rule is testable with a fake
//!   clock.
//! - [`commands`]: the command layer and the game layer (the seam). A game is a `GameKind`
//!   (its name, its `/<game> new`, how to load and import one) and a `ThreadGame` (its log,
//!   commands, status, offered moves, export, timers, picture and replay). Everything below this layer
//!   sees games only through that seam.
//!   The layer also knows whom each game waits on, since when and by when
//!   (`ThreadGame::waits`): `/mygames` and the reminders (`layer::remind`, timers like
//!   the games' own) are written once on it, with what the layer knows of players beyond the
//!   logs (`layer::attention`: `/notify` settings, quiet hours, "not waiting on me", an
//!   organiser's `/resume`), stored in `meta` and passed in. A game pauses when nobody acts
//!   for its stall time (the layer) or when a round of turns runs out by default (Party and
//!   Nomic, `ThreadGame::stalled`). Conditional moves (`/premove`, `layer::premove`) are
//!   written once too: a game says where a player sits and which plays it has made
//!   (`ThreadGame::premove_seat`, `ThreadGame::plays`), and the layer matches lines against
//!   those plays and plays their replies through the game's own `/move`.
//! - [`render`]: pictures (PNG) of every game and of tournament standings, and replays
//!   (`/replay`: a game as one animated GIF, `render::animation`); [`swiss`] and
//!   [`tournament`]: FIDE Dutch pairings, signups, teams and rounds.
//! - [`service`]: the hub with storage. One lock per game thread (games never wait for each
//!   other), games loaded on demand and dropped when idle, every command committed before it
//!   is answered, timers swept from the stored due times; `/notify`, `/mygames` and `/resume`
//!   store through it, while what they answer is the command layer's (`commands::attention`,
//!   `commands::mygames`). [`store`]: SQLite or PostgreSQL.
//! - Front ends: [`discord`] (poise on serenity), [`console`] (the same commands as text, for
//!   scripts and tests) and [`cli`] (engine tools: perft, moves, import, export, benches).
//!
//! # One command, from Discord to the database and back
//! 1. A slash command arrives; [`discord`] turns its options into a `commands::Command` as
//!    the command's declaration says (the console parses the same from text with
//!    `commands::parse_command`, and refuses an option the declaration lacks).
//! 2. `Service::handle` takes the thread's lock, loads the game if it is not in memory and
//!    checks that the stored version is the one it holds.
//! 3. The hub finds the command's owner (a game's own command goes to `ThreadGame::act`,
//!    shared ones like `/takeback`, `/revert`, `/status` and `/moves` to the layer) and gets a
//!    `commands::Reply`: accepted or refused, its text, buttons, and whom it notifies.
//! 4. An accepted action's new log rows are written in one transaction; if another process
//!    wrote first, the command is checked again against the new state.
//! 5. The reply goes back: refusals privately to the sender, accepted actions publicly with
//!    the board's picture (drawn off the async executor), and a new message pinging whoever
//!    must act next.
//!
//! # Adding a game
//! A game is a module `src/games/<game>/` (its rules, position and export), its `GameKind`
//! and `ThreadGame` in `src/commands/<game>.rs`, and one line in the game layer's list of
//! kinds (`commands::KINDS`). Its slash commands are declared once, as data, in its
//! `GameKind` (`commands::declare`: names, options, choices, descriptions, who may use them):
//! Discord's registration, the console's parser and `/help` are made from them, and the
//! commands every game shares (`/move`, `/takeback`, `/revert`, …) come with the layer. The
//! game itself is a `layer::table::Table` of its rules: settings, seats, log, vacations and
//! state are held there once, with what every game does to them alike (replay, recording a
//! checked action on a copy of the state, a takeback, a moderator's revert and its preview,
//! a substitution); the game supplies its `Fold` (how its state begins, how one entry
//! folds, how an entry reads, whether it has ended). Its action enum and its `Refusal` are
//! declared with `layer::log::actions!` and `games::refusal!`, which add what every game
//! logs and refuses alike; the log's own actions reach it through one dispatch
//! (`layer::log::Bookkept`, `layer::game::bookkeep`). The layer hands it
//! the time (`now`) and its players' vacations and its pauses (`layer::clock::Away`, the
//! layer's one clock: `layer::remind::pauses`); a limit it runs on a player moves with
//! `Away::deadline`, so no game subtracts pause or away time itself. A simple turn-based game may
//! instead supply only its rules (`commands::rules::Rules`: set up, read a play, apply it, who
//! acts, status, plays) and get the rest; `tests/toy_game.rs` declares and plays such a game
//! through the console, storage, export and a restart. Its board picture is its own
//! (`ThreadGame::picture`), drawn with [`render`]'s painter.
pub mod bench;
pub mod cli;
pub mod commands;
pub mod console;
pub mod cpu;
pub mod discord;
pub mod engine;
pub mod games;
pub mod layer;
pub mod rating;
pub mod render;
pub mod service;
pub mod store;
pub mod swiss;
pub mod time;
pub mod timing;
pub mod tournament;
