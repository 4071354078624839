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

use super::game::{describe, Entry, Game, Outcome, Settings};
use super::Seat;
use crate::games::log::export_line;
use crate::time::format_duration;

/// A game file that does not read back.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// No `[Setup …]` line.
    #[error("this is not an Arbiter Ultimate Chess export (no [Setup …] line)")]
    NoSetup,
    /// A line's data does not decode.
    #[error("line {line}: {message}")]
    Bad {
        /// Line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The log does not replay.
    #[error("the game does not replay: {0}")]
    Replay(String),
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Setup {
    users: Vec<String>,
    settings: Settings,
}

/// The tag that marks an Ultimate Chess export.
pub const EVENT_TAG: &str = "[Event \"Ultimate Chess\"]";

/// Whether a text is an Ultimate Chess export.
pub fn is_export(text: &str) -> bool {
    text.lines().any(|l| l.trim() == EVENT_TAG)
}

/// The whole game as text (see the module documentation).
pub fn export(game: &Game) -> String {
    let mut s = String::new();
    s.push_str(EVENT_TAG);
    s.push('\n');
    s.push_str("[Variant \"ultimate\"]\n");
    for seat in Seat::ALL {
        s.push_str(&format!("[{} \"{}\"]\n", seat.name(), game.user(seat)));
    }
    let st = &game.settings;
    s.push_str(&format!("[Mode \"{}\"]\n", st.mode.as_str()));
    s.push_str(&format!("[Stalemate \"{}\"]\n", st.stalemate.as_str()));
    s.push_str(&format!(
        "[PromoteAtFileEnd \"{}\"]\n",
        if st.promote_at_file_end { "on" } else { "off" }
    ));
    s.push_str(&format!(
        "[MoveLimit \"{}\"]\n",
        st.move_limit.map_or("off".into(), format_duration)
    ));
    s.push_str(&format!("[Seed \"{}\"]\n", st.seed));
    let result = match &game.state().outcome {
        Some(Outcome::Win(w)) => format!("{} wins", w.name()),
        Some(Outcome::Draw { .. }) => "draw".into(),
        None => "*".into(),
    };
    s.push_str(&format!("[Result \"{result}\"]\n"));
    let setup = Setup {
        users: game.users.clone(),
        settings: game.settings.clone(),
    };
    if let Ok(json) = serde_json::to_string(&setup) {
        s.push_str(&format!("[Setup {json}]\n"));
    }
    s.push('\n');
    for e in &game.log {
        s.push_str(&export_line(e, "", &describe(&e.action, &game.users)));
    }
    s
}

/// Reads a game back from [`export`] text.
///
/// # Errors
/// An [`ImportError`] naming the line.
pub fn import(text: &str) -> Result<Game, ImportError> {
    let (setup, entries): (Option<Setup>, Vec<Entry>) = crate::games::log::read_export(text)
        .map_err(|b| ImportError::Bad {
            line: b.line,
            message: b.message,
        })?;
    let setup = setup.ok_or(ImportError::NoSetup)?;
    Game::from_log(setup.users, setup.settings, entries)
        .map_err(|e| ImportError::Replay(e.to_string()))
}
