//! A Nomic Chess game as text, and back (`/export`, `arbiter import`).
//!
//! `[Key "Value"]` tags (event, variant, the players with their halves, the Referees, limits
//! and options in force at the end of the log, the seed, the result, and a `[Setup {…}]` line
//! with the players and the settings of creation as JSON, which the log replays from), a
//! blank line, then one line per logged entry, a Referee's bookkeeping as it was typed
//! (`/set part1_limit:10m`, `/edit remove square:A:a1`) in its place:
//!
//! ```text
//! - t=1767225600 org: the game starts ;; {"number":null,…}
//! #1 t=1767225660 ann: push A/B ;; {"number":1,…}
//! #2 t=1767225670 ann: move e2-e4 ;; {…}
//! ```
//!
//! `#N` is the action number (`-` for the start), `t=` the time in Unix seconds, then the
//! user and what they did; undone entries carry `{reverted by <who>: <why>}`. After ` ;; `
//! each line carries the entry as JSON, which [`import`] reads back.

use super::game::{describe, limit_text, Entry, Game, Settings};
use super::position::half_letter;
use crate::games::log::export_line;

/// A game file that does not read back.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// Not a Nomic Chess export.
    #[error("this is not an Arbiter Nomic Chess export (no [Event \"Nomic Chess\"] and [Setup …] lines)")]
    NotNomic,
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
    players: Vec<String>,
    settings: Settings,
}

/// The tag that marks a Nomic Chess export.
pub const EVENT_TAG: &str = "[Event \"Nomic Chess\"]";

/// The whole game as text.
pub fn export(game: &Game) -> String {
    let mut s = String::new();
    s.push_str(EVENT_TAG);
    s.push('\n');
    s.push_str("[Variant \"nomic\"]\n");
    for (i, p) in game.players.iter().enumerate() {
        s.push_str(&format!("[Half{} \"{p}\"]\n", half_letter(i)));
    }
    // The settings in force (Referees' /set, adopted changes to rule 206, Referees added or
    // removed); [Setup] keeps those of creation, which the log replays from.
    let st = &game.state().settings;
    s.push_str(&format!("[Referees \"{}\"]\n", st.referees.join(", ")));
    s.push_str(&format!(
        "[Limits \"part1 {}, part3 {}, vote {}\"]\n",
        limit_text(st.part1_limit),
        limit_text(st.part3_limit),
        limit_text(st.vote_limit)
    ));
    s.push_str(&format!(
        "[Options \"proposal_max {}, friendly_capture {}\"]\n",
        st.proposal_max,
        if st.friendly_capture { "on" } else { "off" }
    ));
    s.push_str(&format!("[Seed \"{}\"]\n", st.seed));
    let state = game.state();
    let result = match (state.over, state.winner) {
        (true, Some(w)) => format!("{} wins", game.players[w]),
        (true, None) => "no winner".into(),
        _ => "*".into(),
    };
    s.push_str(&format!("[Result \"{result}\"]\n"));
    let setup = Setup {
        players: game.players.clone(),
        settings: game.settings.clone(),
    };
    if let Ok(json) = serde_json::to_string(&setup) {
        s.push_str(&format!("[Setup {json}]\n"));
    }
    s.push('\n');
    for e in &game.log {
        s.push_str(&export_line(e, "", &describe(&e.action, &game.players)));
    }
    s
}

/// Reads a game back from [`export`] text.
///
/// # Errors
/// An [`ImportError`] naming the line.
pub fn import(text: &str) -> Result<Game, ImportError> {
    if !text.lines().any(|l| l.trim() == EVENT_TAG) {
        return Err(ImportError::NotNomic);
    }
    let (setup, entries): (Option<Setup>, Vec<Entry>) = crate::games::log::read_export(text)
        .map_err(|b| ImportError::Bad {
            line: b.line,
            message: b.message,
        })?;
    let setup = setup.ok_or(ImportError::NotNomic)?;
    Game::from_log(setup.players, setup.settings, entries)
        .map_err(|e| ImportError::Replay(e.to_string()))
}
