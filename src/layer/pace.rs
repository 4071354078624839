//! How a game keeps its players moving, as created (`remind:` on `/<game> new`, and the
//! server's `/settings reminder_after:` and `stall_after:` filled in then): the reminder
//! interval and how long a game may sit untouched before it pauses. Every game's settings
//! carry one, stored with them.

use serde::{Deserialize, Serialize};

use crate::time::Timestamp;

/// The reminder interval when nobody set one: 12 hours.
pub const REMIND_AFTER: Timestamp = 12 * 3600;
/// How long a game may sit untouched before it pauses, when nobody set it: 30 days.
pub const STALL_AFTER: Timestamp = 30 * 24 * 3600;

/// A game's reminder interval and stall time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pace {
    /// How long a player is waited on before a reminder: `None` the default (12 hours),
    /// `Some(0)` never.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remind: Option<u64>,
    /// How long nobody may act before the game pauses: `None` the default (30 days),
    /// `Some(0)` never (not even when a whole round of turns runs out by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stall: Option<u64>,
    /// `vacation:off`: the game does not wait for players on vacation (`None`: it does).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vacation: Option<bool>,
}
