//! A Chex game as text, and back (`/export`, `arbiter import`).
//!
//! `[Key "Value"]` tags (event, variant, the two players, the settings, the seed's SHA-256,
//! the seed itself once the game is over, the result) and a `[Setup {…}]` line with the
//! players and settings as JSON (the seed left out, `null`, while the game is in play), a
//! blank line, then one line per logged entry:
//!
//! ```text
//! - t=1767225600 org: the game starts ;; {"number":null,…}
//! #1 t=1767225660 ann: White (ann) draws a Knight and places it ;; {…}
//! #2 t=1767225720 ben: Black (ben) draws a Pawn ;; {…}
//! #3 t=1767225780 ben: Black (ben) P@c3 ;; {…}
//! ```
//!
//! Importing a finished game replays it exactly. A game exported in play carries no seed, so
//! its pieces still face down are reshuffled on import from a seed derived from the hash (the
//! first 13 hexadecimal digits, as a number, limited to 53 bits): the draws already made are
//! replayed as logged, later draws differ from the original game's.
//!
//! A revert that reopened an ended game drew a fresh seed (Chex rules 5.5a): a `[Reseed "from
//! #9: SHA-256 …"]` tag names the revert it applies from, and its log line carries the hash;
//! the seed itself is written (in the tag and the line) only once the game is over. An export
//! made in play without it reshuffles from a seed derived from that hash, as above.

use super::game::{describe, Action, Entry, Game, Outcome, Settings};
use super::position::Side;
pub use crate::games::export_common::ImportError;
use crate::games::export_common::{
    head, limit_tag, push_result_and_log, push_tag, read_setup, Setup,
};
use crate::layer::log::export_line;

/// Settings with the seed optional (hidden while in play).
#[derive(serde::Serialize, serde::Deserialize)]
struct SettingsOut {
    draw_mode: super::DrawMode,
    stalemate: super::StalemateMode,
    max_board: u32,
    move_limit: Option<u64>,
    seed: Option<u64>,
    seed_hash: String,
}

/// The tag that marks a Chex export.
pub const EVENT_TAG: &str = "[Event \"Chex\"]";

/// The whole game as text.
pub fn export(game: &Game) -> String {
    let st = &game.settings;
    let over = game.finished();
    let mut s = head(EVENT_TAG, "chex");
    for side in Side::BOTH {
        push_tag(&mut s, side.name(), game.user(side));
    }
    push_tag(&mut s, "DrawMode", st.draw_mode.as_str());
    push_tag(&mut s, "Stalemate", st.stalemate.as_str());
    push_tag(&mut s, "MaxBoard", st.max_board);
    push_tag(&mut s, "MoveLimit", limit_tag(st.move_limit));
    push_tag(&mut s, "SeedHash", &st.seed_hash);
    if over {
        push_tag(&mut s, "Seed", st.seed);
    }
    // Seeds drawn at reverts that reopened the game (Chex rules 5.5a), each from its revert
    // on; the seed itself once the game is over.
    for r in game.seeds().iter().filter(|r| r.from.is_some()) {
        let from = r.from.map_or(String::new(), |n| format!("#{n}"));
        if over && r.known {
            s.push_str(&format!(
                "[Reseed \"from {from}: seed {}, SHA-256 {}\"]\n",
                r.seed, r.hash
            ));
        } else {
            s.push_str(&format!("[Reseed \"from {from}: SHA-256 {}\"]\n", r.hash));
        }
    }
    let result = match &game.state().outcome {
        Some(Outcome::Win { side, .. }) => match side {
            Side::White => "1-0",
            Side::Black => "0-1",
        },
        Some(Outcome::Draw(_)) => "1/2-1/2",
        None => "*",
    };
    let setup = Setup {
        users: game.original.clone(),
        settings: SettingsOut {
            draw_mode: st.draw_mode,
            stalemate: st.stalemate,
            max_board: st.max_board,
            move_limit: st.move_limit,
            seed: (over && !st.reshuffled).then_some(st.seed),
            seed_hash: st.seed_hash.clone(),
        },
    };
    push_result_and_log(&mut s, result, &setup, &game.log, |e| {
        let what = describe(&e.action, &game.users);
        if over {
            export_line(e, "", &what)
        } else {
            export_line(&hide_seed(e), "", &what)
        }
    });
    s
}

/// An entry as exported while the game is in play: a revert's fresh seed left out (its hash
/// stays).
fn hide_seed(e: &Entry) -> Entry {
    let mut e = e.clone();
    if let Action::Revert {
        reseed: Some(r), ..
    } = &mut e.action
    {
        r.seed = None;
    }
    e
}

/// Reads a game back from [`export`] text.
///
/// # Errors
/// An [`ImportError`] naming the line.
pub fn import(text: &str) -> Result<Game, ImportError> {
    let missing = "no [Setup …] line";
    let (setup, entries): (Setup<SettingsOut>, Vec<Entry>) = read_setup(text, "Chex", missing)?;
    if !text.lines().any(|l| l.trim() == EVENT_TAG) {
        return Err(ImportError::NotExport {
            game: "Chex",
            missing,
        });
    }
    let s = setup.settings;
    let settings = Settings {
        pace: crate::layer::pace::Pace::default(),
        draw_mode: s.draw_mode,
        stalemate: s.stalemate,
        max_board: s.max_board,
        move_limit: s.move_limit,
        seed: s
            .seed
            .unwrap_or_else(|| super::game::derived_seed(&s.seed_hash)),
        reshuffled: s.seed.is_none(),
        seed_hash: s.seed_hash,
    };
    Game::from_log(setup.users, settings, entries).map_err(|e| ImportError::Replay(e.to_string()))
}
