//! The append-only log every game keeps: one entry per action, replayed into the game's
//! state. Each game brings its own action type; what is the same for every game is here once:
//! numbering, who may take back what, a moderator's revert and its preview, and the rows the
//! store keeps (shared rules 7.1–7.3). A game adds only its own checks (a Chex draw stays
//! drawn, a KFB proxy grant is revoked instead) and the words of its replies.

use std::ops::Deref;

use crate::time::Timestamp;

/// One entry of a game's log, as stored: the action is the game's own JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRow {
    /// Action number (entries without one, like chat lines, have none).
    pub number: Option<u32>,
    /// The user who issued it.
    pub actor: String,
    /// When.
    pub time: Timestamp,
    /// The command as typed.
    pub command: String,
    /// What it did, in the game's own JSON.
    pub action: String,
    /// If undone: by whom and why.
    pub reverted: Option<(String, String)>,
    /// For a moderator's revert: the audit line (`revert to before #12`) and the reason.
    pub audit: Option<(String, String)>,
}

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

/// A seat handed to a substitute (`/substitute`): from this entry on, `to` plays the seat
/// (an index into the game's users) that `from` played. Pieces, hands, locks, clocks and
/// everything else of the seat stay as they are.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Handover {
    /// The seat, as an index into the game's users.
    pub seat: usize,
    /// Who played it.
    pub from: String,
    /// Who plays it now.
    pub to: String,
}

impl Handover {
    /// What it does, as replies and exports say it: `zed plays ben's seat from now on`.
    pub fn text(&self) -> String {
        format!("{} plays {}'s seat from now on", self.to, self.from)
    }
}

/// A `/substitute` as the layer hands it to a game: who asked, the hand-over (checked: the
/// seat's user plays here, the new one does not, the game is not over), when, and the command
/// as typed.
#[derive(Clone, Debug)]
pub struct Substitution<'a> {
    /// Who hands the seat over (the organiser, a moderator, an Umpire or a Referee).
    pub actor: &'a str,
    /// The seat and its users.
    pub handover: Handover,
    /// When.
    pub now: Timestamp,
    /// The command as typed.
    pub raw: &'a str,
}

/// A substitution's change to the seats' users (none for any other action).
pub fn seat_change<A: Logged>(users: &mut [String], action: &A) {
    if let Some(h) = action.handover() {
        if let Some(u) = users.get_mut(h.seat) {
            u.clone_from(&h.to);
        }
    }
}

/// The log's own actions on a game (shared rules 7.2, 7.3 and 7.6), as the layer hands them
/// over once it has checked who may ask; a game answers each in its own words
/// (`layer::game::kept` dispatches them).
pub trait Bookkept {
    /// What an accepted action reports.
    type Accepted;
    /// Why one is refused.
    type Refusal;

    /// `/takeback`: `actor`'s last action in effect undone.
    ///
    /// # Errors
    /// Nothing of theirs to take back, or the game forbids it.
    fn takeback(
        &mut self,
        actor: &str,
        now: Timestamp,
        raw: &str,
    ) -> Result<Self::Accepted, Self::Refusal>;

    /// A moderator's confirmed revert; `entropy` seeds whatever the game must draw afresh (a
    /// Chex reshuffle; the other games ignore it).
    ///
    /// # Errors
    /// No such action, or nothing left to undo.
    fn revert(&mut self, by: Reverting<'_>, entropy: u64) -> Result<Self::Accepted, Self::Refusal>;

    /// `/substitute`: the seat handed over from now on (checked by the layer).
    ///
    /// # Errors
    /// The game is over.
    fn substitute(&mut self, s: Substitution<'_>) -> Result<Self::Accepted, Self::Refusal>;
}

/// What the log needs to know of a game's action.
pub trait Logged: serde::Serialize {
    /// A seat handed to a substitute, if the action is one.
    fn handover(&self) -> Option<&Handover> {
        None
    }
    /// Whether the action is the log's own bookkeeping (a takeback, a moderator's revert, the
    /// game's start): never itself taken back, nor listed among what a revert undoes.
    fn bookkeeping(&self) -> bool;
    /// For a moderator's revert: the action it went back to before and the reason given,
    /// for the audit table.
    fn revert_of(&self) -> Option<(u32, &str)>;
}

/// Declares a game's action enum with the log's own variants written once here, after the
/// game's: `Takeback` (the fields the game names the seat with, then `undone`), `Revert`
/// (`to`, `reason`, then the game's own fields) and `Substitute(Handover)`; implements
/// [`Logged`] for it (the takeback, the revert and any variants named after `bookkeeping:`
/// are the log's bookkeeping) and `From<Handover>`. The variants serialise exactly as if the
/// game had written them, so stored logs read unchanged.
macro_rules! actions {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $($own:tt)* }
        takeback { $($(#[$tm:meta])* $tf:ident : $tt:ty),* $(,)? }
        revert { $($(#[$rm:meta])* $rf:ident : $rt:ty),* $(,)? }
        bookkeeping: $($book:ident)|*
    ) => {
        $(#[$meta])*
        pub enum $name {
            $($own)*
            /// A player took back their last action.
            Takeback {
                $($(#[$tm])* $tf: $tt,)*
                /// The action undone.
                undone: u32,
            },
            /// A moderator reverted the game to before an action.
            Revert {
                /// First action undone.
                to: u32,
                /// Why.
                reason: String,
                $($(#[$rm])* $rf: $rt,)*
            },
            /// A seat handed to a substitute (`/substitute`).
            Substitute($crate::layer::log::Handover),
        }

        impl $crate::layer::log::Logged for $name {
            fn handover(&self) -> Option<&$crate::layer::log::Handover> {
                match self {
                    Self::Substitute(h) => Some(h),
                    _ => None,
                }
            }
            fn bookkeeping(&self) -> bool {
                matches!(self, Self::Takeback { .. } | Self::Revert { .. } $(| Self::$book { .. })*)
            }
            fn revert_of(&self) -> Option<(u32, &str)> {
                match self {
                    Self::Revert { to, reason, .. } => Some((*to, reason)),
                    _ => None,
                }
            }
        }

        impl From<$crate::layer::log::Handover> for $name {
            fn from(h: $crate::layer::log::Handover) -> Self {
                Self::Substitute(h)
            }
        }
    };
}
pub(crate) use actions;

/// Why the log refuses an undo.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    /// Nothing in effect can be taken back.
    #[error("there is nothing to take back")]
    NothingToTakeBack,
    /// The last action is someone else's.
    #[error("only the last action of the game can be taken back, and it is #{number} by {actor}")]
    NotYours {
        /// Its number.
        number: u32,
        /// Whose it is.
        actor: String,
    },
    /// A revert to an action that does not exist.
    #[error("there is no action #{to}; actions run from #1 to #{last}")]
    NoSuchAction {
        /// The number asked for.
        to: u32,
        /// The last action's number.
        last: u32,
    },
    /// The last action ended the game: only a moderator's revert reopens it.
    #[error("the action that ended the game cannot be taken back (a moderator can revert it)")]
    EndedTheGame,
    /// Everything from that action on is already undone.
    #[error("nothing from #{to} on is left to revert")]
    NothingToRevert {
        /// The number asked for.
        to: u32,
    },
}

/// A game's log: entries only ever appended, and marked when undone (never removed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Log<A>(Vec<Entry<A>>);

impl<A> Default for Log<A> {
    fn default() -> Self {
        Log(Vec::new())
    }
}

impl<A> From<Vec<Entry<A>>> for Log<A> {
    fn from(entries: Vec<Entry<A>>) -> Self {
        Log(entries)
    }
}

impl<A> Deref for Log<A> {
    type Target = [Entry<A>];
    fn deref(&self) -> &[Entry<A>] {
        &self.0
    }
}

impl<'a, A> IntoIterator for &'a Log<A> {
    type Item = &'a Entry<A>;
    type IntoIter = std::slice::Iter<'a, Entry<A>>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<A> Log<A> {
    /// A new game's log: its start, by the organiser who created it (unnumbered, typed as
    /// nothing).
    pub fn started(organiser: &str, time: Timestamp, start: A) -> Log<A> {
        Log(vec![Entry {
            number: None,
            actor: organiser.to_string(),
            time,
            command: String::new(),
            action: start,
            reverted: None,
        }])
    }

    /// Appends an entry as it stands, its number and marks kept (a game rebuilt one entry at
    /// a time, as a replay draws it).
    pub fn push_entry(&mut self, e: Entry<A>) {
        self.0.push(e);
    }

    /// Drops the entries appended after the first `len`: only for entries never stored (a
    /// refused command's catch-up, undone with it); a stored entry is never removed.
    pub fn truncate(&mut self, len: usize) {
        self.0.truncate(len);
    }

    /// The entries in effect (neither taken back nor reverted), in order: what a game's
    /// state replays from (shared rules 7.1).
    pub fn in_effect(&self) -> impl Iterator<Item = &Entry<A>> {
        self.0.iter().filter(|e| e.reverted.is_none())
    }

    /// [`Log::in_effect`], each with its place in the log (a play undone and played again
    /// is another place).
    pub fn in_effect_at(&self) -> impl Iterator<Item = (usize, &Entry<A>)> {
        self.0
            .iter()
            .enumerate()
            .filter(|(_, e)| e.reverted.is_none())
    }
}

/// Why a game's log does not replay, in the words every game uses: `why` is the refusal of
/// the entry that no longer applies.
pub fn replay_failed(why: impl std::fmt::Display) -> String {
    format!("the log does not replay: {why}")
}

/// A game whose state is its log folded (shared rules 7.1): it says how it began and how one
/// entry in effect changes it; replaying the log, and walking a replay's states, are written
/// once here ([`Folded::replay`], [`Folded::each_state`]). Every game's
/// [`crate::layer::table::Table`] implements it.
pub trait Folded: Sized {
    /// The game's action.
    type Action: Clone;
    /// Why a logged action no longer applies (a corrupted log).
    type Error;
    /// The log.
    fn log(&self) -> &Log<Self::Action>;
    /// The log, to append to.
    fn log_mut(&mut self) -> &mut Log<Self::Action>;
    /// The game as it began: its settings, the players it began with, its players' vacations,
    /// an empty log.
    fn begun(&self) -> Self;
    /// Applies one entry in effect: the state, and who plays each seat.
    ///
    /// # Errors
    /// The action no longer applies.
    fn fold_entry(&mut self, e: &Entry<Self::Action>) -> Result<(), Self::Error>;

    /// Rebuilds the state (and who plays each seat) from the log.
    ///
    /// # Errors
    /// A logged action that no longer applies (a corrupted log); the game is unchanged then.
    fn replay(&mut self) -> Result<(), Self::Error> {
        *self = fold(self, |_, _| {})?;
        Ok(())
    }

    /// Folds the log once, calling `each` with every entry in effect and the game as it stood
    /// just after it (its log up to that entry, its state then): a replay's positions, without
    /// replaying the log again for each.
    ///
    /// # Errors
    /// A logged action that no longer applies (a corrupted log).
    fn each_state(&self, each: impl FnMut(&Entry<Self::Action>, &Self)) -> Result<(), Self::Error> {
        fold(self, each).map(drop)
    }
}

/// `game`'s log folded from the start, `each` called with every entry in effect and the game
/// just after it; the game folded to the end.
fn fold<G: Folded>(game: &G, mut each: impl FnMut(&Entry<G::Action>, &G)) -> Result<G, G::Error> {
    let mut snap = game.begun();
    for e in game.log().iter() {
        snap.log_mut().push_entry(e.clone());
        if e.reverted.is_none() {
            snap.fold_entry(e)?;
            each(e, &snap);
        }
    }
    Ok(snap)
}

impl<A: Logged> Log<A> {
    /// Who plays each seat after the entries in effect, from the users the game began with
    /// (`/substitute` hands a seat over).
    pub fn seated(&self, original: &[String]) -> Vec<String> {
        let mut users = original.to_vec();
        for e in self.in_effect() {
            if let Some(h) = e.action.handover() {
                if let Some(u) = users.get_mut(h.seat) {
                    u.clone_from(&h.to);
                }
            }
        }
        users
    }

    /// The number the next numbered action gets: one past the last (numbers run from 1 in
    /// order and entries are never removed, so it is the count of numbered entries plus one),
    /// found from the end so that a long run of appends (a catch-up's default plays) costs
    /// nothing per entry.
    pub fn next_number(&self) -> u32 {
        self.0
            .iter()
            .rev()
            .find_map(|e| e.number)
            .map_or(1, |n| n.saturating_add(1))
    }

    /// Appends an action, numbered or not (a chat line, a game's start); its number.
    pub fn push(
        &mut self,
        actor: &str,
        time: Timestamp,
        command: &str,
        action: A,
        numbered: bool,
    ) -> Option<u32> {
        let number = numbered.then(|| self.next_number());
        self.0.push(Entry {
            number,
            actor: actor.to_string(),
            time,
            command: command.to_string(),
            action,
            reverted: None,
        });
        number
    }

    /// The last action in effect that can be undone (numbered, not bookkeeping), with its
    /// index.
    pub fn last_undoable(&self) -> Option<(usize, &Entry<A>)> {
        self.0
            .iter()
            .enumerate()
            .rev()
            .find(|(_, e)| e.reverted.is_none() && e.number.is_some() && !e.action.bookkeeping())
    }

    /// The action `user` would take back: the last in effect, if it is theirs.
    ///
    /// # Errors
    /// Nothing to take back, or the last action is someone else's.
    pub fn takeable(&self, user: &str) -> Result<(usize, &Entry<A>), LogError> {
        let (i, e) = self.last_undoable().ok_or(LogError::NothingToTakeBack)?;
        if e.actor != user {
            return Err(LogError::NotYours {
                number: e.number.unwrap_or(0),
                actor: e.actor.clone(),
            });
        }
        Ok((i, e))
    }

    /// Takes back entry `i` for `user` and appends the game's `takeback` action; its number.
    pub fn take_back(
        &mut self,
        i: usize,
        user: &str,
        time: Timestamp,
        command: &str,
        takeback: A,
    ) -> Option<u32> {
        if let Some(e) = self.0.get_mut(i) {
            e.reverted = Some((user.to_string(), "takeback".into()));
        }
        self.push(user, time, command, takeback, true)
    }

    /// The actions a revert to before `to` would undo, one line each as `describe` writes
    /// them (`#12 ann: e2-e4`).
    ///
    /// # Errors
    /// No action `to`, or nothing from it on left in effect.
    pub fn revert_preview(
        &self,
        to: u32,
        describe: impl Fn(&Entry<A>) -> String,
    ) -> Result<Vec<String>, LogError> {
        let last = self.next_number().saturating_sub(1);
        if to == 0 || to > last {
            return Err(LogError::NoSuchAction { to, last });
        }
        let undone: Vec<String> = self
            .0
            .iter()
            .filter(|e| e.reverted.is_none() && e.number.is_some_and(|n| n >= to))
            .filter(|e| !e.action.bookkeeping())
            .map(|e| format!("#{} {}: {}", e.number.unwrap_or(0), e.actor, describe(e)))
            .collect();
        if undone.is_empty() {
            return Err(LogError::NothingToRevert { to });
        }
        Ok(undone)
    }

    /// Whether an entry in effect numbered `to` or later satisfies `f`.
    pub fn any_in_effect_from(&self, to: u32, f: impl Fn(&A) -> bool) -> bool {
        self.0
            .iter()
            .any(|e| e.reverted.is_none() && e.number.is_some_and(|n| n >= to) && f(&e.action))
    }

    /// A moderator's revert to before `to`: every entry in effect from it on is marked undone
    /// by `moderator` for `reason`, and the game's `revert` action appended; its number.
    /// (Check first with [`Log::revert_preview`].)
    pub fn revert(
        &mut self,
        to: u32,
        moderator: &str,
        reason: &str,
        time: Timestamp,
        command: &str,
        revert: A,
    ) -> Option<u32> {
        for e in &mut self.0 {
            if e.reverted.is_none() && e.number.is_some_and(|n| n >= to) {
                e.reverted = Some((moderator.to_string(), reason.to_string()));
            }
        }
        self.push(moderator, time, command, revert, true)
    }
}

/// A moderator's revert as a game takes it (shared rules 7.3): to before action `to`, by
/// `moderator` for `reason`, at `time`, typed as `command`.
#[derive(Clone, Copy, Debug)]
pub struct Reverting<'a> {
    /// The first action undone.
    pub to: u32,
    /// Who confirmed it.
    pub moderator: &'a str,
    /// Why.
    pub reason: &'a str,
    /// When.
    pub time: Timestamp,
    /// The command as typed.
    pub command: &'a str,
}

impl<'a> Reverting<'a> {
    /// A revert to before `to` by `moderator` for `reason`, at `time`, typed as `command`.
    pub fn new(
        to: u32,
        moderator: &'a str,
        reason: &'a str,
        time: Timestamp,
        command: &'a str,
    ) -> Self {
        Reverting {
            to,
            moderator,
            reason,
            time,
            command,
        }
    }

    /// The line that announces it, naming what its preview listed as `undone`.
    pub fn text(&self, undone: &[String]) -> String {
        format!(
            "{} reverted the game to before #{} ({}); undone: {}",
            self.moderator,
            self.to,
            self.reason,
            undone.join("; ")
        )
    }
}

impl<A: Logged> Log<A> {
    /// [`Log::revert`] for `by`, whose preview listed `undone`, appending the game's revert
    /// action (`revert` makes it from `to` and the reason): its number, and the line that
    /// announces it ([`Reverting::text`]).
    pub fn revert_by(
        &mut self,
        by: &Reverting<'_>,
        undone: &[String],
        revert: impl FnOnce(u32, String) -> A,
    ) -> (Option<u32>, String) {
        let action = revert(by.to, by.reason.to_string());
        let number = self.revert(by.to, by.moderator, by.reason, by.time, by.command, action);
        (number, by.text(undone))
    }
}

/// A game's log as the store sees it, whatever the game's action type.
pub trait StoredLog {
    /// Number of entries.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Which entries are undone.
    fn reverted(&self) -> Vec<bool>;
    /// One entry as stored, with the audit line of a moderator's revert.
    ///
    /// # Errors
    /// The action does not serialise (never, for plain data).
    fn row(&self, i: usize) -> Option<Result<LogRow, serde_json::Error>>;
    /// When the game last changed: the time of its latest action in effect (numbered), or of
    /// its start; chat lines and undone actions do not count.
    fn changed_at(&self) -> Option<Timestamp>;
    /// Which entry that is ([`StoredLog::changed_at`]): its place in the log.
    fn changed_entry(&self) -> Option<usize>;
    /// When someone acted in the game, in order: its start and every numbered entry, undone
    /// ones too (an action taken ended a pause when it was taken), but not the bot's own
    /// entries (a default play when a limit ran out) nor chat lines. The layer's clock reads
    /// its pauses from these alone, so they never change for the past.
    fn acted_at(&self) -> Vec<Timestamp>;
    /// The seats handed over in effect, in the log's order, each with when: the layer's
    /// clock keeps each player's vacations to the time they held their seat.
    fn handovers(&self) -> Vec<(Timestamp, Handover)>;
}

/// The actor of the entries the bot writes itself (a default play when a limit ran out).
pub const BOT: &str = "arbiter";

impl<A: Logged> StoredLog for Log<A> {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn reverted(&self) -> Vec<bool> {
        self.0.iter().map(|e| e.reverted.is_some()).collect()
    }

    fn changed_at(&self) -> Option<Timestamp> {
        self.changed_entry()
            .and_then(|i| self.0.get(i))
            .map(|e| e.time)
    }

    fn changed_entry(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .rev()
            .find(|(i, e)| e.reverted.is_none() && (e.number.is_some() || *i == 0))
            .map(|(i, _)| i)
    }

    fn acted_at(&self) -> Vec<Timestamp> {
        self.0
            .iter()
            .enumerate()
            .filter(|(i, e)| (e.number.is_some() || *i == 0) && e.actor != BOT)
            .map(|(_, e)| e.time)
            .collect()
    }

    fn handovers(&self) -> Vec<(Timestamp, Handover)> {
        self.0
            .iter()
            .filter(|e| e.reverted.is_none())
            .filter_map(|e| e.action.handover().map(|h| (e.time, h.clone())))
            .collect()
    }

    fn row(&self, i: usize) -> Option<Result<LogRow, serde_json::Error>> {
        let e = self.0.get(i)?;
        let audit = e
            .action
            .revert_of()
            .map(|(to, reason)| (format!("revert to before #{to}"), reason.to_string()));
        Some(serde_json::to_string(&e.action).map(|action| LogRow {
            number: e.number,
            actor: e.actor.clone(),
            time: e.time,
            command: e.command.clone(),
            action,
            reverted: e.reverted.clone(),
            audit,
        }))
    }
}

/// One line of the log in an export, the same in every game:
/// `#12 t=<time><extra> <actor>: <what> {reverted by <who>: <why>} ;; <the entry as JSON>`
/// (`-` for an entry without a number; `extra` is a game's own note, like KFB's ` board 2`).
pub fn export_line<A: serde::Serialize>(e: &Entry<A>, extra: &str, what: &str) -> String {
    let num = e.number.map_or("-".to_string(), |n| format!("#{n}"));
    let rev = match &e.reverted {
        Some((by, why)) => format!(" {{reverted by {by}: {why}}}"),
        None => String::new(),
    };
    let data = serde_json::to_string(e).unwrap_or_default();
    format!(
        "{num} t={}{extra} {}: {what}{rev} ;; {data}\n",
        e.time, e.actor
    )
}

/// A line of an export that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct BadLine {
    /// Its number, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// What every game's export carries for import: the `[Setup {…}]` line's JSON (users and
/// settings) and the log, one entry's JSON after ` ;; ` on each line ([`export_line`]).
///
/// # Errors
/// A `[Setup` or entry line whose JSON does not decode.
pub fn read_export<S: serde::de::DeserializeOwned, A: serde::de::DeserializeOwned>(
    text: &str,
) -> Result<(Option<S>, Vec<Entry<A>>), BadLine> {
    let mut setup = None;
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let bad = |message: String| BadLine {
            line: i + 1,
            message,
        };
        if let Some(rest) = line.strip_prefix("[Setup ") {
            let json = rest
                .strip_suffix(']')
                .ok_or_else(|| bad("unclosed [Setup".into()))?;
            setup = Some(serde_json::from_str(json).map_err(|e| bad(e.to_string()))?);
        } else if let Some((_, json)) = line.split_once(" ;; ") {
            entries.push(serde_json::from_str(json).map_err(|e| bad(e.to_string()))?);
        }
    }
    Ok((setup, entries))
}

/// A log read back from its stored rows.
///
/// # Errors
/// An action that does not decode.
pub fn from_rows<A: serde::de::DeserializeOwned>(rows: Vec<LogRow>) -> Result<Log<A>, String> {
    rows.into_iter()
        .map(|r| {
            Ok(Entry {
                action: serde_json::from_str(&r.action).map_err(|e| e.to_string())?,
                number: r.number,
                actor: r.actor,
                time: r.time,
                command: r.command,
                reverted: r.reverted,
            })
        })
        .collect::<Result<Vec<_>, String>>()
        .map(Log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    enum Toy {
        Move(u8),
        Takeback,
        Revert(u32, String),
    }

    impl Logged for Toy {
        fn bookkeeping(&self) -> bool {
            !matches!(self, Toy::Move(_))
        }
        fn revert_of(&self) -> Option<(u32, &str)> {
            match self {
                Toy::Revert(to, why) => Some((*to, why)),
                _ => None,
            }
        }
    }

    fn log() -> Log<Toy> {
        let mut l = Log::default();
        l.push("ann", 1, "/move 1", Toy::Move(1), true);
        l.push("ben", 2, "/move 2", Toy::Move(2), true);
        l.push("ann", 3, "/move 3", Toy::Move(3), true);
        l
    }

    #[test]
    fn a_takeback_is_the_last_actions_own() {
        let mut l = log();
        assert_eq!(
            l.takeable("ben").map(|(i, _)| i),
            Err(LogError::NotYours {
                number: 3,
                actor: "ann".into()
            })
        );
        let (i, _) = l.takeable("ann").expect("ann's");
        assert_eq!(
            l.take_back(i, "ann", 4, "/takeback", Toy::Takeback),
            Some(4)
        );
        // The takeback itself is bookkeeping: ben's move is now the last undoable one.
        assert_eq!(l.last_undoable().map(|(i, _)| i), Some(1));
        assert_eq!(l.next_number(), 5);
    }

    #[test]
    fn a_revert_lists_then_marks_what_is_in_effect() {
        let mut l = log();
        let describe = |e: &Entry<Toy>| e.command.clone();
        assert_eq!(
            l.revert_preview(4, describe),
            Err(LogError::NoSuchAction { to: 4, last: 3 })
        );
        assert_eq!(
            l.revert_preview(2, describe).expect("preview"),
            vec!["#2 ben: /move 2", "#3 ann: /move 3"]
        );
        let n = l.revert(
            2,
            "mod",
            "misclick",
            5,
            "/revert",
            Toy::Revert(2, "misclick".into()),
        );
        assert_eq!(n, Some(4));
        assert_eq!(l.reverted(), vec![false, true, true, false]);
        assert_eq!(
            l.revert_preview(3, describe),
            Err(LogError::NothingToRevert { to: 3 })
        );
        let row = l.row(3).expect("a row").expect("serialises");
        assert_eq!(
            row.audit,
            Some(("revert to before #2".into(), "misclick".into()))
        );
        let rows: Vec<LogRow> = (0..l.len()).filter_map(|i| l.row(i)?.ok()).collect();
        assert_eq!(from_rows::<Toy>(rows), Ok(l));
    }

    crate::layer::log::actions! {
        /// An action declared through the macro.
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub enum Declared {
            /// A play.
            Play(u8),
        }
        takeback {
            /// Who.
            seat: u8,
        }
        revert {
            /// A game's own field.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            extra: Option<u64>,
        }
        bookkeeping:
    }

    /// The same action as a game wrote it by hand before the macro.
    #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    enum ByHand {
        Play(u8),
        Takeback {
            seat: u8,
            undone: u32,
        },
        Revert {
            to: u32,
            reason: String,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            extra: Option<u64>,
        },
        Substitute(Handover),
    }

    #[test]
    fn declared_actions_store_as_hand_written_ones() {
        let h = Handover {
            seat: 1,
            from: "ann".into(),
            to: "zed".into(),
        };
        let pairs = [
            (Declared::Play(3), ByHand::Play(3)),
            (
                Declared::Takeback { seat: 2, undone: 7 },
                ByHand::Takeback { seat: 2, undone: 7 },
            ),
            (
                Declared::Revert {
                    to: 4,
                    reason: "x".into(),
                    extra: None,
                },
                ByHand::Revert {
                    to: 4,
                    reason: "x".into(),
                    extra: None,
                },
            ),
            (
                Declared::Revert {
                    to: 4,
                    reason: "x".into(),
                    extra: Some(9),
                },
                ByHand::Revert {
                    to: 4,
                    reason: "x".into(),
                    extra: Some(9),
                },
            ),
            (
                Declared::Substitute(h.clone()),
                ByHand::Substitute(h.clone()),
            ),
        ];
        for (declared, by_hand) in pairs {
            let json = serde_json::to_string(&by_hand).unwrap();
            assert_eq!(serde_json::to_string(&declared).unwrap(), json);
            assert_eq!(serde_json::from_str::<Declared>(&json).unwrap(), declared);
        }
        assert!(Declared::Takeback { seat: 0, undone: 1 }.bookkeeping());
        assert!(!Declared::Play(1).bookkeeping());
        assert_eq!(Declared::from(h.clone()).handover(), Some(&h));
    }
}
