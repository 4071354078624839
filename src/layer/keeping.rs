//! What the games' own bookkeeping on a [`Table`] does alike, written once below them: a
//! moderator's revert from its preview to the log (every game and the toy game), and a game
//! rebuilt from its stored log with the players' vacations (KFB, Nomic Chess: [`Rebuilt`]).
//! `table.rs` keeps the log's primitives; these are the steps the games used to repeat
//! around them.

use super::clock::Away;
use super::log::{Folded, Log, Reverting};
use super::table::{Fold, Table};

/// A game the layer rebuilds from its stored log with the players' vacations, whose replay
/// reads them ([`Fold::REPLAYS_AWAY`]): it says only what its table is before the replay.
pub trait Rebuilt: Fold {
    /// The table of `users` with `log`, before the replay; the game's checks of its seats.
    ///
    /// # Errors
    /// Seats the game cannot be played with.
    fn unreplayed(
        users: Vec<String>,
        settings: Self::Settings,
        log: Log<Self::Action>,
    ) -> Result<Table<Self>, Self::Refusal>;
}

impl<R: Rebuilt> Table<R> {
    /// A game rebuilt from its stored log ([`Rebuilt::unreplayed`]) and replayed with the
    /// players' vacations ([`Table::replayed_away`]; an export has none: [`Away::none`]).
    ///
    /// # Errors
    /// Seats the game refuses, or a log that does not replay.
    pub fn from_log_away(
        users: Vec<String>,
        settings: R::Settings,
        log: impl Into<Log<R::Action>>,
        away: Away,
    ) -> Result<Self, R::Refusal> {
        R::unreplayed(users, settings, log.into())?.replayed_away(away)
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layer::log::{Entry, LogError};

    crate::layer::log::actions! {
        /// A play of a number.
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub enum Action {
            /// Plays `n`.
            Play(u32),
        }
        takeback {}
        revert {}
        bookkeeping:
    }

    #[derive(Debug, PartialEq, thiserror::Error)]
    enum Refusal {
        #[error("{0}")]
        Rule(String),
        #[error(transparent)]
        Log(#[from] LogError),
    }

    impl From<String> for Refusal {
        fn from(why: String) -> Self {
            Refusal::Rule(why)
        }
    }

    /// The numbers played, but not those played by someone away at the time.
    #[derive(Clone, Debug)]
    struct Tally;

    impl Fold for Tally {
        type Settings = ();
        type State = Vec<u32>;
        type Action = Action;
        type Refusal = Refusal;

        fn begin(_: &Table<Self>) -> Vec<u32> {
            Vec::new()
        }

        fn replay_entry(t: &mut Table<Self>, e: &Entry<Action>) -> Result<(), Refusal> {
            if let Action::Play(n) = e.action {
                if t.away.until(&e.actor, e.time).is_none() {
                    t.state.push(n);
                }
            }
            Ok(())
        }

        fn describe(_: &Table<Self>, e: &Entry<Action>) -> String {
            e.command.clone()
        }

        const REPLAYS_AWAY: bool = true;
    }

    fn played(plays: &[(&str, u32)]) -> Table<Tally> {
        let mut log = Log::default();
        for (i, &(who, n)) in plays.iter().enumerate() {
            let t = 10 * (i as u64 + 1);
            log.push(who, t, &format!("play {n}"), Action::Play(n), true);
        }
        let users = vec!["ann".to_string(), "ben".to_string()];
        Table::with_log((), users, log, Vec::new())
    }

    #[test]
    fn a_revert_is_previewed_then_logged_and_refused_without_change() {
        let mut t = played(&[("ann", 1), ("ben", 2), ("ann", 3)])
            .replayed_away(Away::none())
            .expect("replays");
        let by = Reverting::new(9, "mod", "typo", 50, "/revert to:9");
        assert!(t
            .revert_logged(&by, |to, reason| Action::Revert { to, reason })
            .is_err());
        assert_eq!((t.log.len(), t.state().clone()), (3, vec![1, 2, 3]));
        let by = Reverting::new(2, "mod", "typo", 50, "/revert to:2");
        let (number, line) = t
            .revert_logged(&by, |to, reason| Action::Revert { to, reason })
            .expect("reverts");
        assert_eq!(number, Some(4));
        assert_eq!(
            line,
            "mod reverted the game to before #2 (typo); undone: #2 ben: play 2; #3 ann: play 3"
        );
        assert_eq!(t.state(), &vec![1]);
    }

    #[test]
    fn a_rebuilt_table_replays_with_the_vacations_given() {
        let mut away = Away::none();
        away.add("ben", 0, 100);
        let t = played(&[("ann", 1), ("ben", 2), ("ann", 3)])
            .replayed_away(away)
            .expect("replays");
        assert_eq!(t.state(), &vec![1, 3]);
        assert_eq!(t.away.until("ben", 20), Some(100));
    }
}
