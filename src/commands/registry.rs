//! The registry of games: every game the bot referees, one line each, and those registered
//! while the process runs (a game kept outside the crate, or a test's toy game). It sits in
//! the command layer, above the games: a game knows the layer it implements, never the list
//! it is on.

use crate::layer::{GameKind, ThreadGame};

/// Every game the bot referees.
pub static KINDS: &[&GameKind] = &[
    &crate::games::kfb::KIND,
    &crate::games::ultimate::KIND,
    &crate::games::chex::KIND,
    &crate::games::nomic::KIND,
    &crate::games::party::KIND,
];

/// Games registered beside [`KINDS`] while the process runs (a game kept outside the crate,
/// or a test's toy game): see [`register`].
static REGISTERED: std::sync::RwLock<Vec<&'static GameKind>> = std::sync::RwLock::new(Vec::new());

/// Adds a game to those the layer serves, from now on and in every hub of the process: its
/// `/<group> new`, its stored games and its exports. A kind already known (by its variant)
/// is not added twice.
pub fn register(kind: &'static GameKind) {
    let mut extra = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    if !KINDS
        .iter()
        .chain(extra.iter())
        .any(|k| k.variant == kind.variant)
    {
        extra.push(kind);
    }
}

/// Every game the layer serves: [`KINDS`], then those [`register`]ed.
pub fn kinds() -> Vec<&'static GameKind> {
    let extra = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    KINDS.iter().chain(extra.iter()).copied().collect()
}

/// The kinds whose games act when a member leaves the server ([`GameKind::acts_on_leave`]).
pub fn acting_on_leave() -> impl Iterator<Item = &'static GameKind> {
    kinds().into_iter().filter(|k| k.acts_on_leave)
}

/// The kind stored under `variant`.
pub fn kind_of(variant: &str) -> Option<&'static GameKind> {
    kinds().into_iter().find(|k| k.variant == variant)
}

/// A game read from any game's export text: the first kind that reads it.
///
/// # Errors
/// No kind reads it: each kind's reason.
pub fn import(text: &str) -> Result<Box<dyn ThreadGame>, String> {
    let mut why = Vec::new();
    for k in kinds() {
        match (k.import)(text) {
            Ok(g) => return Ok(g),
            Err(e) => why.push(format!("not a {} export: {e}", k.title)),
        }
    }
    Err(why.join("; "))
}
