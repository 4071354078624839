//! The append-only log every game keeps: one entry per action, replayed into the game's
//! state. Each game brings its own action type.

use crate::time::Timestamp;

/// One entry of a game's log.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Entry<A> {
    /// Action number (entries without one, like chat lines or a game's start, have none).
    pub number: Option<u32>,
    /// The user who issued it.
    pub actor: String,
    /// When.
    pub time: Timestamp,
    /// The command as given.
    pub command: String,
    /// What it did.
    pub action: A,
    /// If undone: by whom and why.
    pub reverted: Option<(String, String)>,
}
