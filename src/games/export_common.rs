//! What every game's export text shares (`/export`, `arbiter import`): the `[Setup {…}]`
//! line with the players and settings as JSON, the log one entry a line after a blank line
//! ([`crate::layer::log::export_line`]), and the errors of reading one back. Each game's own `export` module
//! adds only its tags and the words of its entries.

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::layer::log::{read_export, BadLine, Entry};
use crate::layer::table::{Fold, Table};

/// A game file that does not read back.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// Not an export of this game: `missing` says what it lacks.
    #[error("this is not an Arbiter {game} export ({missing})")]
    NotExport {
        /// The game, as the message names it.
        game: &'static str,
        /// What the text lacks (`no [Setup …] line`).
        missing: &'static str,
    },
    /// A line's data does not decode.
    #[error(transparent)]
    Bad(#[from] BadLine),
    /// The log does not replay.
    #[error("the game does not replay: {0}")]
    Replay(String),
}

/// The `[Setup {…}]` line of a game seated by its users: what the log replays from.
#[derive(Serialize, serde::Deserialize)]
pub struct Setup<S> {
    /// The users, by seat.
    pub users: Vec<String>,
    /// The settings.
    pub settings: S,
}

impl<S: Clone> Setup<S> {
    /// A game's on a [`Table`]: the users it began with and its settings.
    pub fn of<R: Fold<Settings = S>>(game: &Table<R>) -> Setup<S> {
        Setup {
            users: game.original.clone(),
            settings: game.settings.clone(),
        }
    }
}

/// An export's first lines: `[Event "…"]` (`event_tag`) and `[Variant "<variant>"]`.
pub fn head(event_tag: &str, variant: &str) -> String {
    let mut s = format!("{event_tag}\n");
    push_tag(&mut s, "Variant", variant);
    s
}

/// A `[Key "Value"]` tag line.
pub fn push_tag(s: &mut String, key: &str, value: impl std::fmt::Display) {
    s.push_str(&format!("[{key} \"{value}\"]\n"));
}

/// Items as the console's `!state` lines list them: joined by `sep`, or `-` for none.
pub fn listed<S: AsRef<str>>(items: &[S], sep: &str) -> String {
    if items.is_empty() {
        return "-".to_string();
    }
    items
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join(sep)
}

/// The first two `!state` lines of a game on one board: `board 1: <placement>` and
/// `position: <position text>`.
pub fn board_lines(placement: impl std::fmt::Display, text: impl std::fmt::Display) -> Vec<String> {
    vec![format!("board 1: {placement}"), format!("position: {text}")]
}

/// A move limit as the games' status lines add it: `, move limit 2d`, or nothing.
pub fn limit_note(limit: Option<u64>) -> String {
    limit.map_or(String::new(), |l| {
        format!(", move limit {}", crate::time::format_duration(l))
    })
}

/// A move limit's tag value: the duration, or `off`.
pub fn limit_tag(limit: Option<u64>) -> String {
    limit.map_or("off".into(), crate::time::format_duration)
}

/// Ends an export: `[Result "<result>"]`, then [`push_log`] after the `setup` line.
pub fn push_result_and_log<S: Serialize, A: Serialize>(
    s: &mut String,
    result: &str,
    setup: &S,
    log: &[Entry<A>],
    line: impl Fn(&Entry<A>) -> String,
) {
    push_tag(s, "Result", result);
    push_setup(s, setup);
    s.push('\n');
    push_log(s, log, line);
}

/// [`push_result_and_log`] for a game on a [`Table`], each entry worded as its rules
/// describe it ([`Fold::describe`]); the result is `*` while the game is in play (`None`).
pub fn push_result_and_table<S: Serialize, R: Fold>(
    s: &mut String,
    result: Option<String>,
    setup: &S,
    game: &Table<R>,
) where
    R::Action: Serialize,
{
    let result = result.as_deref().unwrap_or("*");
    push_result_and_log(s, result, setup, &game.log, |e| {
        crate::layer::log::export_line(e, "", &R::describe(game, e))
    });
}

/// The `[Setup {…}]` line (left out if it does not serialise, which plain data never fails).
pub fn push_setup<S: Serialize>(s: &mut String, setup: &S) {
    if let Ok(json) = serde_json::to_string(setup) {
        s.push_str(&format!("[Setup {json}]\n"));
    }
}

/// Every entry of the log, one line each, as `line` writes it (mostly [`crate::layer::log::export_line`]).
pub fn push_log<A>(s: &mut String, log: &[Entry<A>], line: impl Fn(&Entry<A>) -> String) {
    for e in log {
        s.push_str(&line(e));
    }
}

/// Reads an export's `[Setup {…}]` line and log ([`read_export`]).
///
/// # Errors
/// A line that does not decode, or no `[Setup …]` line ([`ImportError::NotExport`] for
/// `game`, lacking `missing`).
pub fn read_setup<S: DeserializeOwned, A: DeserializeOwned>(
    text: &str,
    game: &'static str,
    missing: &'static str,
) -> Result<(S, Vec<Entry<A>>), ImportError> {
    let (setup, entries) = read_export(text)?;
    let setup = setup.ok_or(ImportError::NotExport { game, missing })?;
    Ok((setup, entries))
}
