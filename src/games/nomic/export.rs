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

use super::game::{limit_text, Entry, Game, Settings};
use super::position::half_letter;
pub use crate::games::export_common::ImportError;
use crate::games::export_common::{head, push_result_and_table, push_tag, read_setup};

/// What a text lacks when it is not a Nomic Chess export.
const MISSING: &str = "no [Event \"Nomic Chess\"] and [Setup …] lines";

#[derive(serde::Serialize, serde::Deserialize)]
struct Setup {
    players: Vec<String>,
    settings: Settings,
}

/// The tag that marks a Nomic Chess export.
pub const EVENT_TAG: &str = "[Event \"Nomic Chess\"]";

/// The whole game as text.
pub fn export(game: &Game) -> String {
    let mut s = head(EVENT_TAG, "nomic");
    for (i, p) in game.users.iter().enumerate() {
        s.push_str(&format!("[Half{} \"{p}\"]\n", half_letter(i)));
    }
    // The settings in force (Referees' /set, adopted changes to rule 206, Referees added or
    // removed); [Setup] keeps those of creation, which the log replays from.
    let st = &game.state().settings;
    push_tag(&mut s, "Referees", st.referees.join(", "));
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
    push_tag(&mut s, "Seed", st.seed);
    let state = game.state();
    let result = state.over.then(|| {
        state
            .winner
            .map_or("no winner".into(), |w| format!("{} wins", game.users[w]))
    });
    let setup = Setup {
        players: game.original.clone(),
        settings: game.settings.clone(),
    };
    push_result_and_table(&mut s, result, &setup, game);
    s
}

/// Reads a game back from [`export`] text.
///
/// # Errors
/// An [`ImportError`] naming the line.
pub fn import(text: &str) -> Result<Game, ImportError> {
    if !text.lines().any(|l| l.trim() == EVENT_TAG) {
        return Err(ImportError::NotExport {
            game: "Nomic Chess",
            missing: MISSING,
        });
    }
    let (setup, entries): (Setup, Vec<Entry>) = read_setup(text, "Nomic Chess", MISSING)?;
    Game::from_log(setup.players, setup.settings, entries)
        .map_err(|e| ImportError::Replay(e.to_string()))
}
