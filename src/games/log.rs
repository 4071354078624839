//! The append-only log every game keeps: one entry per action, replayed into the game's
//! state. Each game brings its own action type.

use crate::time::Timestamp;

/// What an accepted action reports back; each game says in `N` who is told to act next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accepted<N> {
    /// Action number (shown as `#N`; none for actions without one).
    pub number: Option<u32>,
    /// What happened, one or more lines.
    pub text: String,
    /// Whoever must act next.
    pub notify: N,
}

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
