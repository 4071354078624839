//! A Party Chess game as text, and back (`/export`, `arbiter import`).
//!
//! `[Key "Value"]` tags (event, variant, the Swingers by seat, the Chess-Umpire, turn limit,
//! seed, the Echo's reading, and a `[Setup {…}]` line with the settings as JSON), a blank line, then one line per
//! logged entry: `#N t=<unix seconds> <user>: <command> {reverted by <who>: <why>} ;; <JSON>`
//! (`-` for the start). What follows ` ;; ` is what [`import`] reads back.

use super::game::{Entry, Game, Settings};
use crate::games::export_common::{head, push_log, push_setup, push_tag};
use crate::layer::log::export_line;
use crate::time::format_duration;

/// The tag that marks a Party Chess export.
pub const EVENT_TAG: &str = "[Event \"Party Chess\"]";

#[derive(serde::Serialize, serde::Deserialize)]
struct Setup {
    settings: Settings,
}

/// The whole game as text.
pub fn export(game: &Game) -> String {
    let mut s = head(EVENT_TAG, "party");
    for (i, u) in game.users().iter().enumerate() {
        s.push_str(&format!("[Seat{} \"{u}\"]\n", i + 1));
    }
    push_tag(&mut s, "Umpire", &game.state().umpire);
    push_tag(
        &mut s,
        "TurnLimit",
        format_duration(game.settings.turn_limit),
    );
    push_tag(&mut s, "Seed", game.settings.seed);
    push_tag(&mut s, "Echo", game.settings.echo.word());
    let setup = Setup {
        settings: game.settings.clone(),
    };
    push_setup(&mut s, &setup);
    s.push('\n');
    push_log(&mut s, &game.log, |e| {
        let what = if e.command.is_empty() {
            "the game starts"
        } else {
            e.command.as_str()
        };
        export_line(e, "", what)
    });
    s
}

/// Reads a game back from [`export`] text.
///
/// # Errors
/// Not a Party Chess export, a line that does not decode (numbered), or a log that does not
/// replay.
pub fn import(text: &str) -> Result<Game, String> {
    if !text.lines().any(|l| l.trim() == EVENT_TAG) {
        return Err(
            "this is not an Arbiter Party Chess export (no [Event \"Party Chess\"])".into(),
        );
    }
    let (setup, entries): (Option<Setup>, Vec<Entry>) =
        crate::layer::log::read_export(text).map_err(|b| b.to_string())?;
    let setup = setup.ok_or("no [Setup …] line")?;
    Game::from_log(setup.settings, entries).map_err(|e| e.to_string())
}
