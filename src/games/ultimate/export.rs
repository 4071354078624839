//! An Ultimate Chess game as text, and back (`/export`, `arbiter import`).
//!
//! `[Key "Value"]` tags (event, variant, the four seats, mode, stalemate, promotion at the end
//! of short files, move limit, seed, result, the start position when there is one, and a
//! `[Setup {…}]` line with the seats and settings as JSON), a blank line, then one line per
//! logged entry in order:
//!
//! ```text
//! - t=1767225600 org: the game starts ;; {"number":null,…}
//! #1 t=1767225660 ann: Silver (ann) e2-e5 ;; {"number":1,…}
//! #2 t=1767225700 ben: Red (ben) Nb6-d7 {reverted by mod: disputed} ;; {…}
//! #3 t=1767225800 mod: revert to before #2 (disputed) ;; {…}
//! ```
//!
//! `#N` is the action number (`-` for the start), `t=` the time in Unix seconds, then the user
//! who issued it and what it did; undone entries carry `{reverted by <who>: <why>}`. After
//! ` ;; ` each line carries the entry as JSON, which is what [`import`] reads back.

use super::game::{Entry, Game, Outcome, Settings};
use super::Seat;
pub use crate::games::export_common::ImportError;
use crate::games::export_common::{
    head, limit_tag, push_result_and_table, push_tag, read_setup, Setup,
};

/// The tag that marks an Ultimate Chess export.
pub const EVENT_TAG: &str = "[Event \"Ultimate Chess\"]";

/// Whether a text is an Ultimate Chess export.
pub fn is_export(text: &str) -> bool {
    text.lines().any(|l| l.trim() == EVENT_TAG)
}

/// The whole game as text (see the module documentation).
pub fn export(game: &Game) -> String {
    let mut s = head(EVENT_TAG, "ultimate");
    for seat in Seat::ALL {
        push_tag(&mut s, seat.name(), game.user(seat));
    }
    let st = &game.settings;
    push_tag(&mut s, "Mode", st.mode.as_str());
    push_tag(&mut s, "Stalemate", st.stalemate.as_str());
    push_tag(
        &mut s,
        "PromoteAtFileEnd",
        if st.promote_at_file_end { "on" } else { "off" },
    );
    push_tag(&mut s, "MoveLimit", limit_tag(st.move_limit));
    push_tag(&mut s, "Seed", st.seed);
    let result = game.state().outcome.as_ref().map(|o| match o {
        Outcome::Win(w) => format!("{} wins", w.name()),
        Outcome::Draw { .. } => "draw".into(),
    });
    push_result_and_table(&mut s, result, &Setup::of(game), game);
    s
}

/// Reads a game back from [`export`] text.
///
/// # Errors
/// An [`ImportError`] naming the line.
pub fn import(text: &str) -> Result<Game, ImportError> {
    let (setup, entries): (Setup<Settings>, Vec<Entry>) =
        read_setup(text, "Ultimate Chess", "no [Setup …] line")?;
    Game::from_log(setup.users, setup.settings, entries)
        .map_err(|e| ImportError::Replay(e.to_string()))
}
