//! What the games' own bookkeeping on a [`Table`] does alike, written once below them: a
//! moderator's revert from its preview to the log (Chex, KFB, Ultimate, the toy game), and a
//! table rebuilt from its log with the players' vacations (KFB, Nomic Chess). `table.rs` keeps
//! the log's primitives; these are the steps the games used to repeat around them.

use super::clock::Away;
use super::log::{Folded, Reverting};
use super::table::{Fold, Table};

impl<R: Fold> Table<R> {
    /// A moderator's confirmed revert to before `by.to` (shared rules 7.3): what it undoes
    /// ([`Table::revert_preview`]), then logged as the game's `revert` action (made from the
    /// first action undone and the reason) and the log replayed ([`Table::revert_to`]). Its
    /// number and the line that announces it.
    ///
    /// # Errors
    /// No such action, nothing from it on left to undo, or a log that no longer replays
    /// (nothing changes then).
    pub fn revert_logged(
        &mut self,
        by: &Reverting<'_>,
        revert: impl FnOnce(u32, String) -> R::Action,
    ) -> Result<(Option<u32>, String), R::Refusal> {
        let undone = self.revert_preview(by.to)?;
        self.revert_to(by, &undone, revert)
    }

    /// The table with the players' vacations (shared rules 7.5), its log replayed: what a
    /// game whose replay reads who was away rebuilds a stored game with.
    ///
    /// # Errors
    /// A log that does not replay.
    pub fn replayed_away(mut self, away: Away) -> Result<Self, R::Refusal> {
        self.away = away;
        self.replay()?;
        Ok(self)
    }
}
