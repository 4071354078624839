//! A game from its rules alone. [`Rules`] is the narrow trait a turn-based game implements (in
//! the spirit of boardgame.io's game object): set up from settings, read a play into an action
//! or a refusal, apply an action, say who acts next, the status, and the plays a seat may make.
//! [`RulesGame`] brings everything else once, on the game layer: the log with its numbering,
//! takeback, a moderator's revert and its preview, replay, stored rows, `/moves` (off-turn
//! too), export and import. A game written this way is its rules, a [`GameKind`] naming
//! [`create`], [`load`] and [`import`] for it, and [`super::register`] (or a line in
//! [`super::KINDS`]).

use std::fmt::Debug;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{Caller, Command, Notify, Reply};
use crate::layer::game::{
    Asker, Bookkeeping, Due, GameKind, LogAction, NewGame, PictureJob, ThreadGame,
};
use crate::layer::log::{Log, LogError, Logged};
use crate::layer::LogRow;
use crate::time::Timestamp;

/// Why a play or a setting is refused, in words for the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RuleError(pub String);

/// A game's rules: all a simple turn-based game supplies to the layer.
pub trait Rules: Clone + Send + Sync + Sized + 'static {
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

/// A game of [`Rules`] `R` on the game layer.
#[derive(Clone, Debug)]
pub struct RulesGame<R: Rules> {
    users: Vec<String>,
    settings: R::Settings,
    log: Log<Step<R::Action>>,
    state: R,
    away: crate::layer::clock::Away,
}

impl<R: Rules> RulesGame<R> {
    /// `/takeback` of `user`'s last play.
    fn take_back(&mut self, user: &str, now: Timestamp, raw: &str) -> Result<Reply, String> {
        if self.seat(user).is_none() {
            return Err("you do not play in this game".into());
        }
        let (i, e) = self.log.takeable(user).map_err(|e| e.to_string())?;
        if self.finished() {
            return Err(
                "the play that ended the game cannot be taken back (a moderator can revert it)"
                    .into(),
            );
        }
        let undone = e.number.unwrap_or(0);
        let what = match &e.action {
            Step::Play { action, .. } => R::describe(action),
            _ => String::new(),
        };
        let number = self
            .log
            .take_back(i, user, now, raw, Step::Takeback { undone });
        self.replay()?;
        Ok(self.accepted(
            number,
            vec![format!("{user} takes back #{undone} ({what}).")],
        ))
    }

    /// Replays a log from the start.
    ///
    /// # Errors
    /// Settings the game cannot start from.
    fn replayed(
        users: Vec<String>,
        settings: R::Settings,
        log: Log<Step<R::Action>>,
    ) -> Result<Self, RuleError> {
        let mut state = R::setup(&settings, users.len())?;
        for e in log.in_effect() {
            if let Step::Play { seat, action } = &e.action {
                state.apply(*seat, action);
            }
        }
        Ok(RulesGame {
            users,
            settings,
            log,
            state,
            away: crate::layer::clock::Away::none(),
        })
    }

    /// The rules' state now.
    pub fn rules(&self) -> &R {
        &self.state
    }

    fn replay(&mut self) -> Result<(), String> {
        let again = Self::replayed(self.users.clone(), self.settings.clone(), self.log.clone())
            .map_err(|e| e.to_string())?;
        self.state = again.state;
        Ok(())
    }

    fn seat(&self, user: &str) -> Option<usize> {
        self.users.iter().position(|u| u == user)
    }

    fn on_turn(&self, user: &str) -> Result<usize, String> {
        let seat = self
            .seat(user)
            .ok_or_else(|| "you do not play in this game".to_string())?;
        match self.state.to_act() {
            None => Err("the game is over".into()),
            Some(s) if s != seat => Err(format!("it is {}'s turn, not yours", self.users[s])),
            Some(_) => Ok(seat),
        }
    }

    /// The notification after an action: the end once, else the user to act.
    fn next(&self) -> Option<Notify> {
        match (self.state.to_act(), self.state.result()) {
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

    fn accepted(&self, number: Option<u32>, lines: Vec<String>) -> Reply {
        crate::layer::game::accepted(Some(number.unwrap_or(0)), lines.join("\n"), self.next())
    }

    fn play(&mut self, user: &str, text: &str, now: Timestamp, raw: &str) -> Reply {
        let seat = match self.on_turn(user) {
            Ok(s) => s,
            Err(e) => return Reply::refused(e),
        };
        let action = match self.state.read(seat, text) {
            Ok(a) => a,
            Err(e) => return Reply::refused(e.to_string()),
        };
        let mut lines = vec![format!("{user}: {}", R::describe(&action))];
        lines.extend(self.state.apply(seat, &action));
        let number = self
            .log
            .push(user, now, raw, Step::Play { seat, action }, true);
        self.accepted(number, lines)
    }
}

impl<R: Rules> ThreadGame for RulesGame<R> {
    crate::layer::game::common_methods!(*R::kind(), without_pace);

    fn users(&self) -> Vec<String> {
        self.users.clone()
    }

    fn finished(&self) -> bool {
        self.state.to_act().is_none()
    }

    fn act(&mut self, caller: &Caller<'_>, cmd: &Command, raw: &str) -> Option<Reply> {
        (cmd.name == "move").then(|| {
            let text = cmd
                .opt("notation")
                .map(str::to_string)
                .unwrap_or_else(|| cmd.positional.join(" "));
            self.play(caller.user, &text, caller.now, raw)
        })
    }

    fn revert_preview(&self, to: u32) -> Result<Vec<String>, String> {
        self.log
            .revert_preview(to, |e| match &e.action {
                Step::Play { action, .. } => R::describe(action),
                _ => String::new(),
            })
            .map_err(|e: LogError| e.to_string())
    }

    fn bookkeeping(&mut self, b: Bookkeeping<'_>) -> Result<Reply, String> {
        match b.action {
            LogAction::Takeback => self.take_back(b.actor, b.now, b.raw),
            LogAction::Revert { to, reason, .. } => {
                let undone = self.revert_preview(to)?;
                let (number, line) =
                    self.log
                        .revert_by(&b.reverting(to, reason), &undone, |to, reason| {
                            Step::Revert { to, reason }
                        });
                self.replay()?;
                Ok(self.accepted(number, vec![line]))
            }
            LogAction::Substitute(_) => Err("this game has no seats to hand over".into()),
        }
    }

    fn status(&self, _now: Timestamp) -> String {
        self.state.status()
    }

    fn state_lines(&self, _now: Timestamp) -> Vec<String> {
        let next = match self.state.to_act() {
            Some(s) => format!("to act: {}", self.users[s]),
            None => format!("over: {}", self.state.result().unwrap_or_default()),
        };
        vec![format!("status: {}", self.state.status()), next]
    }

    fn offered_moves(&self, a: &Asker<'_>) -> Result<Vec<String>, String> {
        self.on_turn(a.user).map(|seat| self.state.plays(seat))
    }

    fn planned_moves(&self, a: &Asker<'_>) -> Vec<String> {
        match self.seat(a.user) {
            Some(seat) if !self.finished() => self.state.plays(seat),
            _ => Vec::new(),
        }
    }

    fn result(&self) -> Option<String> {
        self.state.result()
    }

    fn awaited(&self, _now: Timestamp) -> Option<Vec<(String, String)>> {
        Some(
            self.state
                .to_act()
                .map(|s| (self.users[s].clone(), "move".to_string()))
                .into_iter()
                .collect(),
        )
    }

    fn export(&self) -> String {
        let header = Export::<R> {
            game: R::kind().variant.to_string(),
            users: self.users.clone(),
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

    fn due(&self, _after: Timestamp, _until: Timestamp) -> Vec<Due> {
        Vec::new()
    }

    fn pictured(&self, _command: &str) -> bool {
        false
    }

    fn picture(&self, _thread: &str, _now: Timestamp) -> PictureJob {
        Box::new(|| Err("this game has no picture".to_string()))
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
            game.users.join(", ")
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
