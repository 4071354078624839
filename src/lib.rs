//! Arbiter: a referee for chess-variant forum games played in Discord threads.
//!
//! Players type slash commands (`/move Nb1-c3`); the bot checks each against the rules, stores
//! it, and answers with the board's picture. Five games are refereed: [Kung Fu Bughouse with
//! Different Armies](games::kfb), [Ultimate Chess](games::ultimate), [Chex](games::chex),
//! [Party Chess](games::party) and [Nomic Chess](games::nomic); each module's documentation
//! gives that game's rules as the bot applies them, [`games`] the [rules every game
//! shares](games#rules-every-game-shares) and [`tournament`] the rules of tournaments.
//!
//! # Rooms
//! Data flows down this list: a room uses the rooms below it, never one above it, and no two
//! folders import each other.
//! - Front ends: [`discord`] (poise on serenity; it names no game and no command: what a
//!   command needs is in its declaration), [`console`] (the same commands as text, for scripts
//!   and tests), the command line (`main.rs`), and [`bench`] (benchmarks and their example
//!   games; nothing depends on them).
//! - [`service`]: the hub with storage. One lock per game thread (games never wait for each
//!   other), games loaded on demand and dropped when idle, every command committed before it
//!   is answered, timers swept from the stored due times, ratings from the stored results;
//!   `/notify`, `/mygames` and `/resume` store through it, while what they answer is the
//!   command layer's (`commands::attention`, `commands::mygames`).
//!   [`store`]: SQLite or PostgreSQL.
//! - [`commands`]: the command layer. The hub routes a command to its game or to the layer,
//!   asks confirmations and answers `/help`; the **registry** (`commands::registry`) lists the
//!   games, one line each; every declared command is gathered in `commands::declare`.
//!   [`tournament`] (with [`swiss`]) runs events of every game; [`cli`] holds engine tools.
//! - [`games`]: one folder per game, the whole game: its rules on the engine as an append-only
//!   log replayed into its state, its position text, notation and export, its commands'
//!   declarations (`commands.rs`), its adapter to the layer (`adapter.rs`: its `ThreadGame`
//!   and `GameKind`) and its picture (`picture.rs`). Time and seeds are passed in, so every
//!   rule is testable with a fake clock.
//! - [`layer`]: the game layer, below the games: what every game does alike, written once.
//!   A game is a `layer::GameKind` (its name, its `/<game> new`, how to load and import one)
//!   and a `layer::table::Table` of its `Fold` (replay, recording a checked action, takeback,
//!   a moderator's revert and its preview, substitution); everything above sees games only
//!   through one seam, `layer::ThreadGame`. Its core is small: a game writes its kind, its own
//!   commands, its answer to the log's own actions, `/status`, `!state`, `/moves` and
//!   `/export` (everything else has a default, timers included). What every game keeps alike
//!   (seats, end, settings, log, vacations, a revert's preview, a copy) is
//!   `layer::game::OnTable`, written once for every `Table` by a blanket implementation. What
//!   only some games do are capabilities they opt into by returning themselves:
//!   `Conditional` (conditional moves), `Pictured` (a board picture), `Animated` (`/replay`).
//!   The layer also knows whom each game waits on, since when and by when
//!   (`ThreadGame::waits`): `/mygames` and the reminders
//!   (`layer::remind`) are written once on it, with what the layer knows of players beyond the
//!   logs (`layer::attention`: `/notify` settings, quiet hours, "not waiting on me", an
//!   organiser's `/resume`; `layer::vacation`). Its one clock (`layer::clock::Away`) holds
//!   vacations and pauses as time away: a limit moves with `Away::deadline`, so no game
//!   subtracts pause or away time itself. Conditional moves (`layer::premove`) are written
//!   once too: a game says where a player sits and which plays it has made, and the layer
//!   matches lines and plays replies through the game's own `/move`.
//! - [`render`]: drawing primitives that know no game (canvas, shapes, PNG, palette, an engine
//!   board, the standings table) and GIF writing (`render::animation`: a game hands its
//!   replay's frames over as `Still` pictures). [`rating`]: Glicko-2 and Weng-Lin ratings.
//! - [`engine`]: pure rules. Board geometry, pieces as Betza data, positions, move generation,
//!   position text (FEN) and notation. No I/O, no clock, no randomness. [`time`]: time as the
//!   games see it.
//!
//! # One command, from Discord to the database and back
//! 1. A slash command arrives; [`discord`] turns its options into a `layer::Command` as the
//!    command's declaration says (the console parses the same from text with
//!    `commands::parse_command`, and refuses an option the declaration lacks).
//! 2. `Service::handle` routes by the command's declared `Run` (`commands::declare::run_of`:
//!    a command of no game to its desk, a tournament's to the tournaments), takes the
//!    thread's lock, loads the game if it is not in memory and checks that the stored version
//!    is the one it holds.
//! 3. The hub checks the options once and finds the command's owner (a game's own command
//!    goes to `ThreadGame::act`, shared ones like `/takeback`, `/revert`, `/status` and
//!    `/moves` to the layer) and gets a `layer::Reply`: accepted or refused, its text,
//!    buttons, and whom it notifies.
//! 4. An accepted action's new log rows are written in one transaction; if another process
//!    wrote first, the command is checked again against the new state.
//! 5. The reply goes back: refusals privately to the sender, accepted actions publicly with
//!    the board's picture (drawn off the async executor), and a new message pinging whoever
//!    must act next.
//!
//! # Adding a game
//! A game is one folder `src/games/<game>/` and one line in `commands::registry::KINDS`. The
//! folder holds its rules, its `GameKind` and `ThreadGame` (`adapter.rs`: one line of
//! `layer::game::seam!` names its kind, its reply and the capabilities it opts into; the rest
//! is what only this game does), its slash commands
//! declared once, as data (`commands.rs`, in the vocabulary of `layer::declare`: names,
//! options, choices, descriptions, who may use them; Discord's registration, the console's
//! parser and `/help` are made from them, and the commands every game shares come with the
//! layer) and its picture (`picture.rs`, drawn with [`render`]'s primitives). The game itself
//! is a `layer::table::Table` of its rules: it supplies its `Fold` (how its state begins, how
//! one entry folds, how an entry reads, whether it has ended); its action enum and `Refusal`
//! are declared with `layer::log::actions!` and `games::refusal!`, and the log's own actions
//! reach it through one dispatch (`layer::log::Bookkept`, answered with `layer::game::kept`).
//! A simple turn-based game may supply only its rules (`layer::rules::Rules`: set up, read a play,
//! apply it, who acts, status, plays): it is then a `Table` of its fold like the five;
//! `tests/toy_game.rs` registers such a game and plays it through the console, storage,
//! export and a restart.
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
