//! A game as the layer keeps it, written once for every game: its settings, who sits in each
//! seat, its log, its players' vacations and the state the log folds into (shared rules 7.1).
//! A game brings only its [`Fold`]: its types, how its state begins, how one entry in effect
//! changes it, how an entry reads and whether it has ended. The table does the rest alike for
//! every game: replaying the log and walking a replay's states ([`Folded`]), recording a
//! checked action ([`Table::record`]), a takeback ([`Table::take_back`]), a moderator's revert
//! and its preview ([`Table::revert_logged`]), handing a seat to a substitute, and a game
//! rebuilt from its stored log with its players' vacations ([`Rebuilt`]). Each game's `Game` is
//! a `Table` of its rules, with its own methods beside it; every `Table` is the part of
//! [`ThreadGame`] that games keep alike ([`OnTable`], implemented here once).

use std::any::Any;
use std::fmt::Debug;

use serde::Serialize;

use crate::layer::clock::Away;
use crate::layer::game::{OnTable, ThreadGame};
use crate::layer::log::{Entry, Folded, Log, LogError, Logged, Reverting, StoredLog};
use crate::layer::pace::Pace;
use crate::time::Timestamp;

/// A game's own part of its [`Table`].
pub trait Fold: Sized {
    /// The settings, as stored.
    type Settings: Clone + Debug;
    /// What the log folds into.
    type State: Clone + Debug;
    /// A logged action.
    type Action: Clone + Debug + Logged;
    /// Why an action is refused (the log's own refusals among them).
    type Refusal: From<LogError> + From<String> + std::fmt::Display;

    /// The state before the log's first entry, for `table` as it stands (its settings, the
    /// users it began with, its whole log).
    fn begin(table: &Table<Self>) -> Self::State;

    /// Applies one entry in effect to the state while the log replays; who plays each seat
    /// afterwards is the table's to update.
    ///
    /// # Errors
    /// The entry no longer applies (a corrupted log): the table says so, with this reason.
    fn replay_entry(table: &mut Table<Self>, e: &Entry<Self::Action>) -> Result<(), Self::Refusal>;

    /// How the game ended, in words (`White wins by checkmate`), once it is over: what the
    /// refusal of a play afterwards says ([`Table::check_in_play`]). `None` while in play.
    fn ended(_table: &Table<Self>) -> Option<String> {
        None
    }

    /// An entry in words, for the line of a takeback and the list a revert's preview shows.
    fn describe(table: &Table<Self>, e: &Entry<Self::Action>) -> String;

    /// What a revert to before action `to` does besides undoing (Chex's reshuffle), as more
    /// lines of its preview.
    fn revert_notes(_table: &Table<Self>, _to: u32) -> Vec<String> {
        Vec::new()
    }

    /// Who plays each seat now: the table's users by default (Party Chess keeps its seats in
    /// its state).
    fn users(table: &Table<Self>) -> Vec<String> {
        table.users.clone()
    }

    /// Whether the game is over: once it has [`Fold::ended`], by default.
    fn finished(table: &Table<Self>) -> bool {
        Self::ended(table).is_some()
    }

    /// The reminder interval and stall time the game was made with: the layer's defaults
    /// unless its settings keep them.
    fn pace(_settings: &Self::Settings) -> Pace {
        Pace::default()
    }

    /// Whether the log's replay reads the players' vacations (the limits it runs out, the
    /// posts it counts: KFB, Nomic): the table then replays when they change.
    const REPLAYS_AWAY: bool = false;
}

/// Declares a game's rules for its [`Table`]: the unit type that names them and its [`Fold`]
/// (the module's own `Settings`, `State`, `Action` and `Refusal`, its pace kept in the
/// settings' `pace`; `begin`, `replay_entry` and the rest as the game writes them).
/// `described by f` words an entry as `f(action, users)` does ([`Fold::describe`]).
macro_rules! fold {
    ($(#[$meta:meta])* $rules:ident described by $describe:path { $($fns:tt)* }) => {
        $crate::layer::table::fold! {
            $(#[$meta])*
            $rules {
                fn describe(g: &Table<Self>, e: &$crate::layer::log::Entry<Action>) -> String {
                    $describe(&e.action, &g.users)
                }

                $($fns)*
            }
        }
    };
    ($(#[$meta:meta])* $rules:ident { $($fns:tt)* }) => {
        $(#[$meta])*
        #[derive(Clone, Debug)]
        pub struct $rules;

        impl $crate::layer::table::Fold for $rules {
            type Settings = Settings;
            type State = State;
            type Action = Action;
            type Refusal = Refusal;

            fn pace(settings: &Settings) -> $crate::layer::pace::Pace {
                settings.pace
            }

            $($fns)*
        }
    };
}
pub(crate) use fold;

/// A game: its rules' settings and state, its seats, its log and its players' vacations.
#[derive(Clone, Debug)]
pub struct Table<R: Fold> {
    /// Settings.
    pub settings: R::Settings,
    /// Who plays each seat now (Party Chess, whose players come and go, keeps its seats in its
    /// state and leaves this and `original` empty).
    pub users: Vec<String>,
    /// The users the game began with (a `/substitute` hands a seat to another).
    pub original: Vec<String>,
    /// The log.
    pub log: Log<R::Action>,
    /// What the log folds into.
    pub(crate) state: R::State,
    /// The players' vacations, handed in by the layer (shared rules 7.5).
    pub away: Away,
}

impl<R: Fold> Table<R> {
    /// A table before its log is replayed: its settings, the users it began with, its log
    /// and the state as the game begins; nobody away. [`Folded::replay`] brings it up to date.
    pub fn with_log(
        settings: R::Settings,
        users: Vec<String>,
        log: impl Into<Log<R::Action>>,
        state: R::State,
    ) -> Self {
        Table {
            settings,
            original: users.clone(),
            users,
            log: log.into(),
            state,
            away: Away::none(),
        }
    }

    /// A table of exactly `seats` users rebuilt from its stored log, its state beginning as
    /// `state` ([`Table::with_log`], then replayed); `wrong` is the refusal of any other
    /// number of users (`a Chex game has two seats`).
    ///
    /// # Errors
    /// Another number of users, or a log that does not replay.
    pub fn seated_from_log(
        settings: R::Settings,
        users: Vec<String>,
        log: impl Into<Log<R::Action>>,
        state: R::State,
        (seats, wrong): (usize, &str),
    ) -> Result<Self, R::Refusal> {
        if users.len() != seats {
            return Err(R::Refusal::from(wrong.to_string()));
        }
        let mut table = Table::with_log(settings, users, log, state);
        table.replay()?;
        Ok(table)
    }

    /// The state the log folds into.
    pub fn state(&self) -> &R::State {
        &self.state
    }

    /// When `seat`, to act since `started`, overruns a move limit of `limit` seconds on the
    /// layer's clock: the limit stops while its player `user` is away (shared rules 7.5).
    /// `None` without a limit, or while it stops.
    pub fn move_due<S>(
        &self,
        seat: S,
        user: &str,
        started: Timestamp,
        limit: Option<u64>,
    ) -> Option<(S, Timestamp)> {
        Some((seat, self.away.deadline(user, started, limit?)?))
    }

    /// The organiser, told of an overrun with its player: whoever created the game (the
    /// actor of the log's first entry).
    pub fn creator(&self) -> Option<&str> {
        self.log.first().map(|e| e.actor.as_str())
    }

    /// Refuses once the game is over (`the game is over: White wins by checkmate`).
    ///
    /// # Errors
    /// The game is over.
    pub fn check_in_play(&self) -> Result<(), R::Refusal> {
        match R::ended(self) {
            Some(how) => Err(format!("the game is over: {how}").into()),
            None => Ok(()),
        }
    }

    /// Runs `apply` on a copy of the state and keeps the copy only when it succeeds: an
    /// action applies whole or not at all.
    ///
    /// # Errors
    /// `apply`'s.
    pub fn try_state<T, E>(
        &mut self,
        apply: impl FnOnce(&mut R::State, &Self) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut st = self.state.clone();
        let out = apply(&mut st, self)?;
        self.state = st;
        Ok(out)
    }

    /// Appends an action the game has checked: `apply` applies it to a copy of the state
    /// (writing what happened to its lines), kept only when that succeeds; a substitution
    /// hands its seat over; then it is logged, numbered when `numbered`. Its number and the
    /// lines.
    ///
    /// # Errors
    /// `apply`'s refusal; nothing changes then.
    pub fn record(
        &mut self,
        actor: &str,
        now: Timestamp,
        command: &str,
        action: R::Action,
        numbered: bool,
        apply: impl FnOnce(&mut R::State, &Self, &R::Action, &mut Vec<String>) -> Result<(), R::Refusal>,
    ) -> Result<(Option<u32>, Vec<String>), R::Refusal> {
        let mut lines = Vec::new();
        self.try_state(|st, g| apply(st, g, &action, &mut lines))?;
        crate::layer::log::seat_change(&mut self.users, &action);
        let number = self.log.push(actor, now, command, action, numbered);
        Ok((number, lines))
    }

    /// `user`'s last action in effect taken back (shared rules 7.2), logged as the game's
    /// `takeback` of its number and the log replayed: the takeback's number and the line that
    /// says so (`ann takes back #4 (e2-e4).`). Refused when the last action in effect is not
    /// theirs, or when it ended the game (a moderator can revert that). Nothing changes when
    /// refused.
    ///
    /// # Errors
    /// The refusal; a log that no longer replays (it is put back as it was).
    pub fn take_back(
        &mut self,
        user: &str,
        now: Timestamp,
        command: &str,
        takeback: impl FnOnce(u32) -> R::Action,
    ) -> Result<(Option<u32>, String), R::Refusal> {
        let (idx, e) = self.log.takeable(user)?;
        if R::ended(self).is_some() {
            return Err(LogError::EndedTheGame.into());
        }
        let undone = e.number.unwrap_or(0);
        let what = R::describe(self, e);
        let saved = self.log.clone();
        let number = self
            .log
            .take_back(idx, user, now, command, takeback(undone));
        self.replayed_or(saved)?;
        Ok((number, format!("{user} takes back #{undone} ({what}).")))
    }

    /// What a revert to before action `to` would undo, one line each, then what else it does
    /// ([`Fold::revert_notes`]).
    ///
    /// # Errors
    /// No such action, or nothing from it on left to undo.
    pub fn revert_preview(&self, to: u32) -> Result<Vec<String>, R::Refusal> {
        let mut undone = self.log.revert_preview(to, |e| R::describe(self, e))?;
        undone.extend(R::revert_notes(self, to));
        Ok(undone)
    }

    /// A moderator's revert (shared rules 7.3) whose preview listed `undone`, logged as the
    /// game's `revert` action (made from the first action undone and the reason) and the log
    /// replayed: its number and the line that announces it.
    ///
    /// # Errors
    /// A log that no longer replays (it is put back as it was).
    pub fn revert_to(
        &mut self,
        by: &Reverting<'_>,
        undone: &[String],
        revert: impl FnOnce(u32, String) -> R::Action,
    ) -> Result<(Option<u32>, String), R::Refusal> {
        let saved = self.log.clone();
        let done = self.log.revert_by(by, undone, revert);
        self.replayed_or(saved)?;
        Ok(done)
    }

    /// Replays the log; when it no longer replays, puts `saved` back, replays that, and
    /// refuses with why.
    fn replayed_or(&mut self, saved: Log<R::Action>) -> Result<(), R::Refusal> {
        if let Err(e) = self.replay() {
            self.log = saved;
            // The saved log replayed before; should it not, the refusal above still stands.
            let _ = self.replay();
            return Err(e);
        }
        Ok(())
    }
}

impl<R: Fold> Folded for Table<R> {
    type Action = R::Action;
    type Error = R::Refusal;

    fn log(&self) -> &Log<R::Action> {
        &self.log
    }

    fn log_mut(&mut self) -> &mut Log<R::Action> {
        &mut self.log
    }

    fn begun(&self) -> Self {
        Table {
            settings: self.settings.clone(),
            users: self.original.clone(),
            original: self.original.clone(),
            log: Log::default(),
            state: R::begin(self),
            away: self.away.clone(),
        }
    }

    fn fold_entry(&mut self, e: &Entry<R::Action>) -> Result<(), R::Refusal> {
        R::replay_entry(self, e)
            .map_err(|why| R::Refusal::from(crate::layer::log::replay_failed(why)))?;
        crate::layer::log::seat_change(&mut self.users, &e.action);
        Ok(())
    }
}

/// What the layer keeps alike for every game, written once here: a game on a table is a
/// [`ThreadGame`] by writing only what differs.
impl<F> OnTable for Table<F>
where
    F: Fold + 'static,
    F::Settings: Serialize,
    Table<F>: ThreadGame + Clone,
{
    fn users(&self) -> Vec<String> {
        F::users(self)
    }

    fn finished(&self) -> bool {
        F::finished(self)
    }

    fn settings_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(&self.settings)
    }

    fn log(&self) -> &dyn StoredLog {
        &self.log
    }

    fn pace(&self) -> Pace {
        F::pace(&self.settings)
    }

    fn away(&self) -> &Away {
        &self.away
    }

    fn set_away(&mut self, away: Away) {
        if self.away == away {
            return;
        }
        // Only what the log's entries read needs a replay (a pause still to come does not).
        let same = !F::REPLAYS_AWAY
            || self
                .log
                .last()
                .is_some_and(|e| self.away.same_until(&away, e.time));
        self.away = away;
        if same {
            return;
        }
        if let Err(e) = self.replay() {
            let game = self.kind().title;
            tracing::error!(error = %e, game, "a game no longer replays with its players' vacations");
        }
    }

    fn revert_preview(&self, to: u32) -> Result<Vec<String>, String> {
        Table::revert_preview(self, to).map_err(|e| e.to_string())
    }

    fn clone_box(&self) -> Box<dyn ThreadGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

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
