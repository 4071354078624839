//! A game from its rules alone. [`Rules`] is the narrow trait a turn-based game implements (in
//! the spirit of boardgame.io's game object): set up from settings, read a play into an action
//! or a refusal, apply an action, say who acts next, the status, and the plays a seat may make.
//! [`RulesGame`] brings everything else once, on the game layer: the log with its numbering,
//! takeback, a moderator's revert and its preview, replay, stored rows, `/moves` (off-turn
//! too), export and import. A game written this way is its rules, a [`GameKind`] naming
//! [`create`], [`load`] and [`import`] for it, and a line in the registry (`commands::registry`)
//! or a call to register it there. Such a game is a [`Table`] of its fold ([`Ruled`]), like
//! the five games: the table keeps its log, takeback and revert.

use std::fmt::Debug;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::game::{Asker, GameKind, NewGame, ThreadGame};
use super::log::{Bookkept, Entry, Folded, Log, LogError, Logged, Reverting, Substitution};
use super::table::{Fold, Table};
use super::{Caller, Command, LogRow, Notify, Reply};
use crate::time::Timestamp;

/// Why a play or a setting is refused, in words for the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RuleError(pub String);

/// A game's rules: all a simple turn-based game supplies to the layer.
pub trait Rules: Clone + Debug + Send + Sync + Sized + 'static {
    /// What a play does, as logged (the game's own JSON).
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// The game's settings, as stored.
    type Settings: Clone + Debug + Serialize + DeserializeOwned + Send + Sync;
    /// The game's entry in the layer.
    fn kind() -> &'static GameKind;
    /// The settings `/<group> new` asks for (`seed` drawn for it).
    ///
    /// # Errors
    /// An option out of range.
    fn settings(cmd: &Command, seed: u64) -> Result<Self::Settings, RuleError>;
    /// The start, for `seats` players.
    ///
    /// # Errors
    /// Settings or a number of seats the game cannot start from.
    fn setup(settings: &Self::Settings, seats: usize) -> Result<Self, RuleError>;
    /// `/move <text>` by `seat`, read against the position: the action, or why not.
    ///
    /// # Errors
    /// The play does not read or is not legal.
    fn read(&self, seat: usize, text: &str) -> Result<Self::Action, RuleError>;
    /// Applies an action [`Rules::read`] accepted: what happened, one line each.
    fn apply(&mut self, seat: usize, action: &Self::Action) -> Vec<String>;
    /// The seat to act; `None` once the game is over.
    fn to_act(&self) -> Option<usize>;
    /// The result once over (`ann wins`).
    fn result(&self) -> Option<String>;
    /// The `/status` text.
    fn status(&self) -> String;
    /// The plays `seat` could make in this position if it were to act, each as `/move`
    /// reads it.
    fn plays(&self, seat: usize) -> Vec<String>;
    /// An action in words, for the echo and a revert's preview.
    fn describe(action: &Self::Action) -> String;
}

/// An entry of a [`RulesGame`]'s log: a play, or the layer's own bookkeeping.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Step<A> {
    /// The game begins.
    Start,
    /// A seat's play.
    Play {
        /// Whose.
        seat: usize,
        /// What.
        action: A,
    },
    /// A player took back their last play.
    Takeback {
        /// Its number.
        undone: u32,
    },
    /// A moderator reverted to before an action.
    Revert {
        /// The first action undone.
        to: u32,
        /// Why.
        reason: String,
    },
}

impl<A: Serialize> Logged for Step<A> {
    fn bookkeeping(&self) -> bool {
        !matches!(self, Step::Play { .. })
    }
    fn revert_of(&self) -> Option<(u32, &str)> {
        match self {
            Step::Revert { to, reason } => Some((*to, reason)),
            _ => None,
        }
    }
}

/// The [`Fold`] of a game of [`Rules`] `R`: its state is the rules' own, set up from the
/// settings for the seats the game began with (or why it cannot start), and each play in
/// effect applied to it in turn.
#[derive(Clone, Debug)]
pub struct Ruled<R>(PhantomData<R>);

impl<R: Rules> Fold for Ruled<R> {
    type Settings = R::Settings;
    type State = Result<R, RuleError>;
    type Action = Step<R::Action>;
    type Refusal = RuleError;

    fn begin(table: &Table<Self>) -> Self::State {
        R::setup(&table.settings, table.original.len())
    }

    fn replay_entry(table: &mut Table<Self>, e: &Entry<Self::Action>) -> Result<(), RuleError> {
        let state = table.state.as_mut().map_err(|why| why.clone())?;
        if let Step::Play { seat, action } = &e.action {
            state.apply(*seat, action);
        }
        Ok(())
    }

    fn ended(table: &Table<Self>) -> Option<String> {
        let state = table.state.as_ref().ok()?;
        state
            .to_act()
            .is_none()
            .then(|| state.result().unwrap_or_default())
    }

    fn describe(_table: &Table<Self>, e: &Entry<Self::Action>) -> String {
        match &e.action {
            Step::Play { action, .. } => R::describe(action),
            _ => String::new(),
        }
    }
}

impl From<LogError> for RuleError {
    fn from(e: LogError) -> Self {
        RuleError(e.to_string())
    }
}

impl From<String> for RuleError {
    fn from(why: String) -> Self {
        RuleError(why)
    }
}

/// A game of [`Rules`] `R` on the game layer: a [`Table`] of its fold, like every game.
pub type RulesGame<R> = Table<Ruled<R>>;

impl<R: Rules> Table<Ruled<R>> {
    /// Replays a log from the start.
    ///
    /// # Errors
    /// Settings the game cannot start from, or a log that no longer replays.
    fn replayed(
        users: Vec<String>,
        settings: R::Settings,
        log: Log<Step<R::Action>>,
    ) -> Result<Self, RuleError> {
        let start = R::setup(&settings, users.len())?;
        let mut table = Table::with_log(settings, users, log, Ok(start));
        Folded::replay(&mut table)?;
        Ok(table)
    }

    /// The rules' state now.
    ///
    /// # Errors
    /// The settings cannot start a game.
    pub fn rules(&self) -> Result<&R, RuleError> {
        self.state.as_ref().map_err(Clone::clone)
    }

    fn seat(&self, user: &str) -> Option<usize> {
        self.users.iter().position(|u| u == user)
    }

    fn to_act(&self) -> Option<usize> {
        self.state.as_ref().ok().and_then(Rules::to_act)
    }

    fn on_turn(&self, user: &str) -> Result<usize, String> {
        let seat = self
            .seat(user)
            .ok_or_else(|| "you do not play in this game".to_string())?;
        match self.to_act() {
            None => Err("the game is over".into()),
            Some(s) if s != seat => Err(format!("it is {}'s turn, not yours", self.users[s])),
            Some(_) => Ok(seat),
        }
    }

    /// The notification after an action: the end once, else the user to act.
    fn next(&self) -> Option<Notify> {
        match (
            self.to_act(),
            self.state.as_ref().ok().and_then(Rules::result),
        ) {
            (Some(s), _) => Some(Notify::to(
                [self.users[s].clone()],
                format!("your turn in {}", R::kind().title),
            )),
            (None, Some(r)) => Some(Notify::to(
                self.users.clone(),
                format!("the game is over: {r}"),
            )),
            (None, None) => None,
        }
    }

    fn accepted(&self, (number, lines): (Option<u32>, Vec<String>)) -> Reply {
        crate::layer::game::accepted(Some(number.unwrap_or(0)), lines.join("\n"), self.next())
    }

    fn play(&mut self, user: &str, text: &str, now: Timestamp, raw: &str) -> Reply {
        let seat = match self.on_turn(user) {
            Ok(s) => s,
            Err(e) => return Reply::refused(e),
        };
        let read = self.rules().and_then(|r| r.read(seat, text));
        let action = match read {
            Ok(a) => a,
            Err(e) => return Reply::refused(e.to_string()),
        };
        let head = format!("{user}: {}", R::describe(&action));
        let done = self.record(
            user,
            now,
            raw,
            Step::Play { seat, action },
            true,
            |st, _, a, lines| {
                let st = st.as_mut().map_err(|why| why.clone())?;
                if let Step::Play { seat, action } = a {
                    lines.push(head);
                    lines.extend(st.apply(*seat, action));
                }
                Ok(())
            },
        );
        match done {
            Ok(done) => self.accepted(done),
            Err(e) => Reply::refused(e.to_string()),
        }
    }
}

impl<R: Rules> Bookkept for Table<Ruled<R>> {
    type Accepted = (Option<u32>, Vec<String>);
    type Refusal = RuleError;

    fn takeback(
        &mut self,
        user: &str,
        now: Timestamp,
        raw: &str,
    ) -> Result<Self::Accepted, RuleError> {
        if self.seat(user).is_none() {
            return Err(RuleError("you do not play in this game".into()));
        }
        self.log.takeable(user)?;
        if self.to_act().is_none() {
            return Err(RuleError(
                "the play that ended the game cannot be taken back (a moderator can revert it)"
                    .into(),
            ));
        }
        let (number, line) = self.take_back(user, now, raw, |undone| Step::Takeback { undone })?;
        Ok((number, vec![line]))
    }

    fn revert(&mut self, by: Reverting<'_>, _entropy: u64) -> Result<Self::Accepted, RuleError> {
        let (number, line) = self.revert_logged(&by, |to, reason| Step::Revert { to, reason })?;
        Ok((number, vec![line]))
    }

    fn substitute(&mut self, _s: Substitution<'_>) -> Result<Self::Accepted, RuleError> {
        Err(RuleError("this game has no seats to hand over".into()))
    }
}

impl<R: Rules> ThreadGame for Table<Ruled<R>> {
    crate::layer::game::seam!(*R::kind(), Self::accepted;);

    fn act(&mut self, caller: &Caller<'_>, cmd: &Command, raw: &str) -> Option<Reply> {
        (cmd.name == "move").then(|| {
            let text = cmd
                .opt("notation")
                .map(str::to_string)
                .unwrap_or_else(|| cmd.positional.join(" "));
            self.play(caller.user, &text, caller.now, raw)
        })
    }

    fn status(&self, _now: Timestamp) -> String {
        match &self.state {
            Ok(st) => st.status(),
            Err(why) => why.to_string(),
        }
    }

    fn state_lines(&self, now: Timestamp) -> Vec<String> {
        let next = match self.to_act() {
            Some(s) => format!("to act: {}", self.users[s]),
            None => format!("over: {}", self.result().unwrap_or_default()),
        };
        vec![format!("status: {}", self.status(now)), next]
    }

    fn offered_moves(&self, a: &Asker<'_>) -> Result<Vec<String>, String> {
        let seat = self.on_turn(a.user)?;
        Ok(self.rules().map(|r| r.plays(seat)).unwrap_or_default())
    }

    fn planned_moves(&self, a: &Asker<'_>) -> Vec<String> {
        match (self.seat(a.user), self.rules()) {
            (Some(seat), Ok(r)) if self.to_act().is_some() => r.plays(seat),
            _ => Vec::new(),
        }
    }

    fn result(&self) -> Option<String> {
        self.state.as_ref().ok().and_then(Rules::result)
    }

    fn awaited(&self, _now: Timestamp) -> Option<Vec<(String, String)>> {
        Some(
            self.to_act()
                .map(|s| (self.users[s].clone(), "move".to_string()))
                .into_iter()
                .collect(),
        )
    }

    fn export(&self) -> String {
        let header = Export::<R> {
            game: R::kind().variant.to_string(),
            users: self.original.clone(),
            settings: self.settings.clone(),
            rules: PhantomData,
        };
        let mut lines = vec![serde_json::to_string(&header).unwrap_or_default()];
        lines.extend(
            self.log
                .iter()
                .filter_map(|e| serde_json::to_string(e).ok()),
        );
        lines.join("\n")
    }
}

/// The first line of an export: the game, its players and settings (JSON); one entry of the
/// log per line follows.
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
struct Export<R: Rules> {
    game: String,
    users: Vec<String>,
    settings: R::Settings,
    #[serde(skip)]
    rules: PhantomData<R>,
}

/// `/<group> new players:@a @b …` for a game of rules `R` (an organiser's; the layer checks).
///
/// # Errors
/// Fewer than two players, or settings the rules refuse.
pub fn create<R: Rules>(caller: &Caller<'_>, cmd: &Command, seed: u64) -> Result<NewGame, String> {
    let users: Vec<String> = cmd
        .opt("players")
        .unwrap_or("")
        .split_whitespace()
        .map(|u| u.trim_start_matches('@').to_string())
        .collect();
    if users.len() < 2 {
        return Err(format!(
            "name the players: /{} new players:@a @b",
            R::kind().group
        ));
    }
    let settings = R::settings(cmd, seed).map_err(|e| e.to_string())?;
    let mut log = Log::default();
    log.push(caller.user, caller.now, "", Step::Start, false);
    let game = RulesGame::<R>::replayed(users, settings, log).map_err(|e| e.to_string())?;
    let reply = Reply {
        ok: Some(true),
        text: format!(
            "{} created by {}: {}",
            R::kind().title,
            caller.user,
            game.original.join(", ")
        ),
        notify: game.next(),
        ..Reply::default()
    };
    Ok(NewGame {
        game: Box::new(game),
        reply,
    })
}

/// A game of rules `R` rebuilt from its stored users, settings and log.
///
/// # Errors
/// Rows or settings that do not decode.
pub fn load<R: Rules>(
    users: Vec<String>,
    settings: &str,
    rows: Vec<LogRow>,
    away: &crate::layer::clock::Away,
) -> Result<Box<dyn ThreadGame>, String> {
    crate::layer::game::load_with(users, settings, rows, away, |u, s, l, _| {
        RulesGame::<R>::replayed(u, s, l)
    })
}

/// A game of rules `R` read from its export.
///
/// # Errors
/// Not an export of this game, or one that does not decode.
pub fn import<R: Rules>(text: &str) -> Result<Box<dyn ThreadGame>, String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let head: Export<R> = serde_json::from_str(lines.next().unwrap_or(""))
        .map_err(|e| format!("the first line does not read: {e}"))?;
    if head.game != R::kind().variant {
        return Err(format!("this is a {} export", head.game));
    }
    let entries = lines
        .map(serde_json::from_str)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("a log line does not read: {e}"))?;
    let game = RulesGame::<R>::replayed(head.users, head.settings, Log::from(entries))
        .map_err(|e| e.to_string())?;
    Ok(Box::new(game))
}
