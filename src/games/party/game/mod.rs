//! The Party Chess game (Party rules 3.3–3.10; shared rules 7.1–7.3): seats, piece selection,
//! the Play List, turn limits with default plays, Warmth, Rounds, Weights, the Umpire's ledger
//! and an append-only log replayed into the state.
//!
//! Pure: the caller passes the time of every action. A turn's expiry is applied when time
//! reaches it ([`Game::at`] gives the game as it stands at a moment; an action first writes
//! the default plays that fell due before it into the log).

use crate::games::export_common::{board_lines, listed};
use std::collections::{BTreeMap, BTreeSet};

use crate::layer::log::{Bookkept, Folded, Reverting};
use crate::layer::table::Table;
use crate::time::{format_duration, Timestamp};

use super::board::Position;
use super::notation;
use super::piece::{parse_kind, EchoRule, Kind, Piece};
use super::rules::{apply, in_check, Play};
use super::weight::weight;

mod actions;
mod fold;
mod queries;
mod texts;
pub use fold::*;

/// What the default play that pauses a game adds (issue 41).
pub const STALLED: &str = "Every Swinger let a turn run out in a row: the game is paused (the turn limit stops) until a Swinger plays or the organiser resumes it with /resume.";

/// Three days (the default turn limit).
pub const DEFAULT_LIMIT: u64 = 3 * 86_400;
/// Seven days (the longest extension).
pub const MAX_EXTENSION: u64 = 7 * 86_400;

/// A turn that ran out to its default play (Party rules 3.6): when, whose, its numbered
/// notice, who plays next, and whether it paused the game (a round of them, issue 41).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expiry {
    /// When it fell due.
    pub at: Timestamp,
    /// The seat whose turn ran out.
    pub seat: u8,
    /// The notice, numbered as the log numbers the default play.
    pub text: String,
    /// Who plays next, if anyone.
    pub next: Option<String>,
    /// It paused the game.
    pub paused: bool,
}

/// Per-game settings.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// The reminder interval and stall time (`remind:` on `/… new`, the server's defaults;
    /// shared rules 7.4).
    #[serde(flatten)]
    pub pace: crate::layer::pace::Pace,
    /// Seconds a turn lasts after the state is announced.
    pub turn_limit: u64,
    /// The seed that ordered the Play List.
    pub seed: u64,
    /// How Echoes read their source (`echo: rules | vector`, Party rules 3.2).
    #[serde(default)]
    pub echo: EchoRule,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            pace: crate::layer::pace::Pace::default(),
            turn_limit: DEFAULT_LIMIT,
            seed: 0,
            echo: EchoRule::Rules,
        }
    }
}

/// How a play was made.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum How {
    /// Typed by the Swinger.
    Typed,
    /// The default play when the turn expired.
    Default,
    /// A Warm Swinger's Surrender out of turn.
    OutOfTurn,
}

crate::layer::log::actions! {
    /// A logged action.
    #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub enum Action {
        /// The game begins: seats in Play List order, the Umpire, and a position when given.
        Start {
            /// The Swingers, seat 1 first.
            users: Vec<String>,
            /// The Chess-Umpire.
            umpire: String,
            /// A position text to start from (play begins at once).
            position: Option<String>,
        },
        /// A Swinger's five pieces.
        Pick {
            /// Who.
            seat: u8,
            /// The letters.
            pieces: Vec<Kind>,
        },
        /// A play.
        Play {
            /// Who.
            seat: u8,
            /// The play as echoed.
            notation: String,
            /// How.
            how: How,
        },
        /// The Umpire extends the current turn to `until` seconds after its announcement.
        Extend {
            /// Whose turn.
            seat: u8,
            /// Seconds after the announcement.
            until: u64,
        },
        /// The Umpire sets a seat Warm or not.
        Warm {
            /// Who.
            seat: u8,
            /// On or off.
            on: bool,
        },
        /// The Swinger left the server: the bot sets them Warm (Party rules 3.6).
        Left {
            /// Who.
            seat: u8,
        },
        /// A new Swinger joins at the bottom of the list.
        AddSwinger {
            /// The user.
            user: String,
        },
        /// A Swinger's office is destroyed, with its pieces.
        RemoveSwinger {
            /// Who.
            seat: u8,
        },
        /// A bought piece, off-board.
        Create {
            /// For whom.
            seat: u8,
            /// The type.
            kind: Kind,
        },
        /// A ledger line added (`entry: None`) or edited.
        Ledger {
            /// The line to replace (from 1).
            entry: Option<usize>,
            /// The text.
            text: String,
        },
        /// The organiser or the Chess-Umpire resumes a game paused because every Swinger let a
        /// turn run out: the turn limit runs from now.
        Resume,
        /// The Chess-Umpire ends the game (Party rules 3.10): the final Weights are its result.
        End {
            /// The final Weights line (`Weights: ann 39.5, ben 3.0`).
            result: String,
        },
    }
    takeback {}
    revert {}
    bookkeeping: Start
}

/// One entry of the log.
pub type Entry = crate::layer::log::Entry<Action>;

/// The last play, for the picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastPlay {
    /// Who.
    pub seat: u8,
    /// The play.
    pub play: Play,
    /// As echoed.
    pub text: String,
}

/// The state replay gives.
#[derive(Clone, Debug)]
pub struct State {
    /// The position.
    pub pos: Position,
    /// Users by seat (seat n is `users[n-1]`; a removed seat keeps its entry).
    pub users: Vec<String>,
    /// The Chess-Umpire.
    pub umpire: String,
    /// The seats that have picked.
    pub picked: BTreeSet<u8>,
    /// Play has begun (every first Swinger picked, or a position was given).
    pub started: bool,
    /// Warm seats.
    pub warm: BTreeSet<u8>,
    /// Whole Rounds each Warm seat has been Warm for.
    pub warm_rounds: BTreeMap<u8, u32>,
    /// Seats Warm when the current Round began.
    pub warm_at_round_start: BTreeSet<u8>,
    /// Rounds completed.
    pub round_count: u32,
    /// Seats that played (or were skipped) in the current Round.
    pub played: BTreeSet<u8>,
    /// When the current turn was announced.
    pub turn_started: Timestamp,
    /// An extension of the current turn (its deadline).
    pub extended: Option<Timestamp>,
    /// The last play.
    pub last: Option<LastPlay>,
    /// The Umpire's ledger.
    pub ledger: Vec<String>,
    /// The game was ended by its Umpire (`/party end`): the final Weights.
    pub ended: Option<String>,
    /// Seats whose turns ran out to their default play since anyone last played.
    pub ran_out: BTreeSet<u8>,
    /// Paused since: every Swinger not Warm let a turn run out in a row (issue 41). The
    /// turn limit stops; a play or the organiser's `/resume` ends it.
    pub stalled: Option<Timestamp>,
}

impl State {
    fn empty() -> State {
        State {
            pos: Position::empty(Vec::new()),
            users: Vec::new(),
            umpire: String::new(),
            picked: BTreeSet::new(),
            started: false,
            warm: BTreeSet::new(),
            warm_rounds: BTreeMap::new(),
            warm_at_round_start: BTreeSet::new(),
            round_count: 0,
            played: BTreeSet::new(),
            turn_started: 0,
            extended: None,
            last: None,
            ledger: Vec::new(),
            ended: None,
            ran_out: BTreeSet::new(),
            stalled: None,
        }
    }
}

/// What `/party new` asks for.
#[derive(Clone, Debug, Default)]
pub struct NewGame {
    /// The Swingers as named.
    pub swingers: Vec<String>,
    /// The first (NAP) Swinger.
    pub first: Option<String>,
    /// The Chess-Umpire.
    pub umpire: String,
    /// Turn limit in seconds.
    pub turn_limit: Option<u64>,
    /// Seed.
    pub seed: u64,
    /// A position text to start from.
    pub position: Option<String>,
    /// How Echoes read their source; `None`: the position text's reading, else `rules`.
    pub echo: Option<EchoRule>,
}

/// What a user asks the game to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `/substitute`: a seat handed over (checked by the layer).
    Substitute(crate::layer::log::Handover),
    /// `/party pieces set:<letters>`.
    Pick(String),
    /// `/move <notation>`.
    Play(String),
    /// `/pass`.
    Pass,
    /// `/surrender`.
    Surrender,
    /// `/party extend player:@x until:<duration>` (seconds).
    Extend(String, u64),
    /// `/party warm player:@x on|off`.
    Warm(String, bool),
    /// The user left the server (no command: the bot's own action, Party rules 3.6).
    Left(String),
    /// `/party swinger add player:@x`.
    Add(String),
    /// `/party swinger remove player:@x`.
    Remove(String),
    /// `/party create piece:<letter> for:@x`.
    Create(String, String),
    /// `/ledger add|edit`.
    Ledger(Option<usize>, String),
    /// `/resume` (the organiser or the Chess-Umpire) of a game paused for want of play.
    Resume,
    /// `/party end` (the Chess-Umpire).
    End,
    /// `/takeback`.
    Takeback,
    /// `/revert` confirmed.
    Revert(u32, String),
}

/// What an accepted action reports: its number, what happened and who must act next.
pub type Accepted = crate::layer::log::Accepted<Vec<(String, String)>>;

/// A Party Chess game: its [`Table`], and Party Chess's methods on it. Its players come and
/// go, so its seats are in its state; the table's `users` and `original` stay empty.
pub type Game = Table<Party>;

crate::games::refusal! {
    /// Why an action is refused (shown as it is).
    pub enum Refusal {
    }
}

type R<T> = Result<T, Refusal>;

/// The seat order at the start: the first Swinger, then the rest in a seeded order.
pub fn seating(swingers: &[String], first: Option<&str>, seed: u64) -> R<Vec<String>> {
    let first = first.map_or_else(
        || swingers.first().cloned().unwrap_or_default(),
        str::to_string,
    );
    if !swingers.contains(&first) {
        return refuse(format!("first:@{first} is not one of the swingers:"));
    }
    let rest: Vec<String> = swingers.iter().filter(|u| **u != first).cloned().collect();
    let mut v = vec![first];
    v.extend(crate::games::ultimate::shuffle_seats(&rest, seed));
    Ok(v)
}

impl Game {
    /// Creates a game (`/party new`).
    ///
    /// # Errors
    /// Fewer than two distinct Swingers, a bad first:, a position that does not read (its
    /// field named) or whose seats differ in number from the Swingers.
    pub fn create(new: NewGame, organiser: &str, now: Timestamp) -> R<Game> {
        let mut uniq = new.swingers.clone();
        uniq.sort();
        uniq.dedup();
        if uniq.len() != new.swingers.len() {
            return Err("each Swinger may be named once".into());
        }
        if new.swingers.len() < 2 {
            return Err("Party Chess needs at least two Swingers: swingers:@a @b …".into());
        }
        if new.seed > crate::games::MAX_SEED {
            return refuse(format!(
                "seed must be a whole number from 0 to {}",
                crate::games::MAX_SEED
            ));
        }
        let mut echo = new.echo.unwrap_or_default();
        let (users, position) = match &new.position {
            Some(text) => {
                let mut pos = Position::from_text(text)
                    .map_err(|e| format!("the position does not read: {e}"))?;
                if let Some(rule) = new.echo {
                    pos.echo_rule = rule;
                    pos.check_echo_vectors()
                        .map_err(|e| format!("the position does not read: {e}"))?;
                }
                echo = pos.echo_rule;
                let n = pos.list.len();
                let mut seats = pos.seats();
                seats.dedup();
                if seats != (1..=n as u8).collect::<Vec<_>>() {
                    return Err("the position does not read: play list: its seats must be 1 to the number of Swingers".into());
                }
                if n != new.swingers.len() {
                    return refuse(format!(
                        "the position has {n} seats but {} swingers: were named (seat n is the n-th Swinger named)",
                        new.swingers.len()
                    ));
                }
                (new.swingers.clone(), Some(pos.to_text()))
            }
            None => (
                seating(&new.swingers, new.first.as_deref(), new.seed)?,
                None,
            ),
        };
        let settings = Settings {
            pace: crate::layer::pace::Pace::default(),
            turn_limit: new.turn_limit.unwrap_or(DEFAULT_LIMIT),
            seed: new.seed,
            echo,
        };
        let log = crate::layer::log::Log::started(
            organiser,
            now,
            Action::Start {
                users,
                umpire: new.umpire,
                position,
            },
        );
        Game::from_log(settings, log)
    }

    /// A game rebuilt from its log.
    ///
    /// # Errors
    /// A log that does not replay.
    pub fn from_log(settings: Settings, log: impl Into<crate::layer::log::Log<Action>>) -> R<Game> {
        let mut g = Game::with_log(settings, Vec::new(), log, State::empty());
        g.replay()?;
        Ok(g)
    }
}

/// The log's own actions go through [`Game::apply`], after the turns that ran out before
/// them; only a hand-over is asked by someone with the right to it (an organiser or the
/// Umpire: the layer checked), a takeback and a revert carry their own rights.
impl Bookkept for Game {
    type Accepted = Accepted;
    type Refusal = Refusal;

    fn takeback(&mut self, actor: &str, now: Timestamp, raw: &str) -> R<Accepted> {
        self.apply(actor, false, Request::Takeback, now, raw)
    }

    fn revert(&mut self, by: Reverting<'_>, _entropy: u64) -> R<Accepted> {
        let req = Request::Revert(by.to, by.reason.to_string());
        self.apply(by.moderator, false, req, by.time, by.command)
    }

    fn substitute(&mut self, s: crate::layer::log::Substitution<'_>) -> R<Accepted> {
        self.apply(s.actor, true, Request::Substitute(s.handover), s.now, s.raw)
    }
}

crate::layer::table::fold! {
    /// Party Chess's rules, as its [`Table`] folds them.
    Party {
        fn users(g: &Game) -> Vec<String> {
            Game::users(g)
        }

        fn finished(g: &Game) -> bool {
            g.ended()
        }

        fn begin(_: &Game) -> State {
            State::empty()
        }

        fn replay_entry(g: &mut Game, e: &Entry) -> R<()> {
            fold(&mut g.state, &g.settings, &e.action, e.time, &mut Vec::new())
        }

        fn describe(_: &Game, e: &Entry) -> String {
            e.command.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_typed_and_the_log_says_its_own() {
        let new = NewGame {
            swingers: vec!["ann".into(), "ben".into()],
            umpire: "uma".into(),
            ..NewGame::default()
        };
        let mut g = Game::create(new, "org", 0).expect("a game of two");
        let r = g.apply("ann", false, Request::Takeback, 1, "/takeback");
        assert_eq!(
            r.map(|a| a.text),
            Err(Refusal::Log(crate::layer::log::LogError::NothingToTakeBack))
        );
        let r = g.apply(
            "zed",
            false,
            Request::Pick("QRBNP".into()),
            1,
            "/party pieces",
        );
        assert_eq!(
            r.map(|a| a.text),
            Err(Refusal::Rule("you are not a Swinger in this game".into()))
        );
    }
}
