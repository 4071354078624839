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

    // ----- queries ------------------------------------------------------------------------

    /// The position.
    pub fn position(&self) -> &Position {
        &self.state.pos
    }
    /// Every user seated, seat 1 first (removed seats included).
    pub fn users(&self) -> Vec<String> {
        self.state.users.clone()
    }
    /// The user of a seat.
    pub fn user(&self, seat: u8) -> &str {
        self.state
            .users
            .get(usize::from(seat).saturating_sub(1))
            .map_or("?", String::as_str)
    }
    /// The current seat of a user.
    pub fn seat_of(&self, user: &str) -> Option<u8> {
        self.state
            .pos
            .list
            .iter()
            .copied()
            .find(|&s| self.user(s) == user)
    }
    /// The next action number.
    pub fn next_number(&self) -> u32 {
        self.log.next_number()
    }
    /// The seat to play, once play has begun.
    pub fn to_play(&self) -> Option<u8> {
        if self.state.started && self.state.ended.is_none() {
            self.state.pos.to_play()
        } else {
            None
        }
    }
    /// Seats whose King is attacked.
    pub fn in_check(&self) -> Vec<u8> {
        let p = &self.state.pos;
        p.list.iter().copied().filter(|&s| in_check(p, s)).collect()
    }
    /// Whether the Umpire has ended the game.
    pub fn ended(&self) -> bool {
        self.state.ended.is_some()
    }
    /// The Weights line: `Weights: ann 39.5, ben 3.0`.
    pub fn weights_line(&self) -> String {
        let p = &self.state.pos;
        let parts: Vec<String> = p
            .seats()
            .into_iter()
            .map(|s| format!("{} {:.1}", self.user(s), weight(p, s)))
            .collect();
        format!("Weights: {}", parts.join(", "))
    }
    /// When the current turn expires: its limit (or the Umpire's extension) does not run
    /// while its player is away (shared rules 7.5) or the game is paused (the layer's clock:
    /// `None` while it is).
    pub fn deadline(&self) -> Option<Timestamp> {
        let seat = self.to_play()?;
        if self.state.stalled.is_some() {
            return None;
        }
        let start = self.state.turn_started;
        let limit = self
            .state
            .extended
            .map_or(self.settings.turn_limit, |e| e.saturating_sub(start));
        self.away.deadline(self.user(seat), start, limit)
    }
    /// The game as it stands at `now`: the default plays that fell due applied (the game
    /// itself, not a copy, when none did).
    pub fn at(&self, now: Timestamp) -> std::borrow::Cow<'_, Game> {
        if self.deadline().is_none_or(|d| d > now) {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut g = self.clone();
        g.materialize(now);
        std::borrow::Cow::Owned(g)
    }

    /// Writes the default plays that fell due by `now` into the log, every one of them (a
    /// catch-up is whole: a minute's limit over a day is 1,440), each folded once; their
    /// notices.
    fn materialize(&mut self, now: Timestamp) -> Vec<Expiry> {
        let first = self.next_number();
        self.run_out(now, first, true)
    }

    /// The turns that ran out by `now`, each folded into the state once, numbered from
    /// `first` on; written into the log when `write`.
    fn run_out(&mut self, now: Timestamp, first: u32, write: bool) -> Vec<Expiry> {
        let mut out: Vec<Expiry> = Vec::new();
        let mut number = first;
        while let Some(due) = self.deadline() {
            if due > now {
                break;
            }
            // Every limit is at least a second, so each default play falls due after the
            // last; one that would not could only repeat for ever.
            if out.last().is_some_and(|e| due <= e.at) {
                tracing::error!(
                    due,
                    "a Party Chess default play fell due no later than the last"
                );
                break;
            }
            let Some(seat) = self.to_play() else { break };
            let play = if in_check(&self.state.pos, seat) {
                "surrender"
            } else {
                "pass"
            };
            let action = Action::Play {
                seat,
                notation: play.to_string(),
                how: How::Default,
            };
            let mut lines = Vec::new();
            let mut st = self.state.clone();
            if fold(&mut st, &self.settings, &action, due, &mut lines).is_err() {
                break;
            }
            self.state = st;
            if write {
                self.log.push(
                    "arbiter",
                    due,
                    &format!("(turn expired: {play})"),
                    action,
                    true,
                );
            }
            // Numbered and with the Weights like every accepted action (shared rules 0.4;
            // Party rules 3.7).
            let text = self.accepted(Some(number), lines, true).text;
            out.push(Expiry {
                at: due,
                seat,
                text: format!("#{number} {text}"),
                next: self.to_play().map(|s| self.user(s).to_string()),
                paused: self.state.stalled == Some(due),
            });
            number = number.saturating_add(1);
        }
        out
    }

    /// Writes the default plays that fell due by `now` into the log (the timer sweep, once
    /// it has announced them).
    pub fn catch_up(&mut self, now: Timestamp) {
        self.materialize(now);
    }

    /// Expiries that fall due in `(after, until]`, found in one pass on a copy of the state
    /// (not of the log: a long one is not copied for each question).
    pub fn expiries(&self, after: Timestamp, until: Timestamp) -> Vec<Expiry> {
        let mut g = Game::with_log(
            self.settings.clone(),
            self.users.clone(),
            crate::layer::log::Log::default(),
            self.state.clone(),
        );
        g.away = self.away.clone();
        g.run_out(until, self.next_number(), false)
            .into_iter()
            .filter(|e| e.at > after)
            .collect()
    }

    // ----- actions ------------------------------------------------------------------------

    /// Applies a request by `actor` at `now` (`umpire`: the actor may act as Chess-Umpire).
    /// An accepted one first writes the default plays that fell due before it (its reply
    /// lists them).
    ///
    /// # Errors
    /// Why it is refused; nothing about the game changes, its log included (the default
    /// plays due are the timer sweep's to announce).
    pub fn apply(
        &mut self,
        actor: &str,
        umpire: bool,
        request: Request,
        now: Timestamp,
        command: &str,
    ) -> R<Accepted> {
        let (state, logged) = (self.state.clone(), self.log.len());
        let done = self.apply_caught_up(actor, umpire, request, now, command);
        if done.is_err() {
            self.state = state;
            self.log.truncate(logged);
        }
        done
    }

    /// [`Game::apply`], the default plays due written first whatever the outcome.
    fn apply_caught_up(
        &mut self,
        actor: &str,
        umpire: bool,
        request: Request,
        now: Timestamp,
        command: &str,
    ) -> R<Accepted> {
        let expired = self.materialize(now);
        let pre: Vec<String> = expired.into_iter().map(|e| e.text).collect();
        let umpire = umpire || actor == self.state.umpire;
        if let Some(result) = &self.state.ended {
            if !matches!(
                request,
                Request::Takeback | Request::Revert(..) | Request::Ledger(..)
            ) {
                return refuse(format!(
                    "this game has ended: the Chess-Umpire ended it with the result {result}"
                ));
            }
        }
        let before = self.to_play();
        let action = match request {
            Request::Pick(letters) => {
                let seat = self.seated(actor)?;
                if self.state.picked.contains(&seat) {
                    return Err("you have picked your pieces already".into());
                }
                let pieces = parse_pick(&letters)?;
                Action::Pick { seat, pieces }
            }
            Request::Play(text) => {
                let seat = self.my_turn(actor)?;
                let play = notation::resolve(&self.state.pos, &text)
                    .map_err(|e| self.check_first(seat, e))?;
                Action::Play {
                    seat,
                    notation: echo(&self.state.pos, &play),
                    how: How::Typed,
                }
            }
            Request::Pass => {
                let seat = self.my_turn(actor)?;
                let play = notation::resolve(&self.state.pos, "pass")
                    .map_err(|e| self.check_first(seat, e))?;
                Action::Play {
                    seat,
                    notation: echo(&self.state.pos, &play),
                    how: How::Typed,
                }
            }
            Request::Surrender => {
                let seat = self.seated(actor)?;
                if self.to_play() == Some(seat) {
                    Action::Play {
                        seat,
                        notation: "surrender".into(),
                        how: How::Typed,
                    }
                } else if self.state.warm.contains(&seat) && self.state.started {
                    Action::Play {
                        seat,
                        notation: "surrender".into(),
                        how: How::OutOfTurn,
                    }
                } else {
                    return refuse(self.not_your_turn());
                }
            }
            Request::Extend(user, until) => {
                self.need_umpire(umpire)?;
                let seat = self.seat_named(&user)?;
                if self.to_play() != Some(seat) {
                    return refuse(format!(
                        "only the current turn can be extended, and it is {}'s",
                        self.to_play().map_or("nobody", |s| self.user(s))
                    ));
                }
                if until > MAX_EXTENSION {
                    return Err(
                        "a turn can be extended to at most 7d after the announcement".into(),
                    );
                }
                let new = self.state.turn_started + until;
                if Some(new) <= self.deadline() {
                    return refuse(format!(
                        "that does not extend the turn: it already runs {} after the announcement",
                        format_duration(
                            self.deadline()
                                .unwrap_or(0)
                                .saturating_sub(self.state.turn_started)
                        )
                    ));
                }
                Action::Extend { seat, until }
            }
            Request::Resume => {
                self.need_umpire(umpire)?;
                if self.state.stalled.is_none() {
                    return Err("this game is not paused".into());
                }
                Action::Resume
            }
            Request::Warm(user, on) => {
                self.need_umpire(umpire)?;
                let seat = self.seat_named(&user)?;
                if self.state.warm.contains(&seat) == on {
                    return refuse(format!(
                        "{user} is {} Warm already",
                        if on { "" } else { "not" }
                    ));
                }
                Action::Warm { seat, on }
            }
            Request::Left(user) => {
                let seat = self.seat_named(&user)?;
                if self.state.warm.contains(&seat) {
                    return refuse(format!("{user} is Warm already"));
                }
                Action::Left { seat }
            }
            Request::Add(user) => {
                self.need_umpire(umpire)?;
                if self.seat_of(&user).is_some() {
                    return refuse(format!("{user} is a Swinger already"));
                }
                Action::AddSwinger { user }
            }
            Request::Remove(user) => {
                self.need_umpire(umpire)?;
                let seat = self.seat_named(&user)?;
                if self.state.pos.list.len() <= 2 {
                    return Err("Party Chess needs at least two Swingers".into());
                }
                Action::RemoveSwinger { seat }
            }
            Request::Create(letter, user) => {
                self.need_umpire(umpire)?;
                let seat = self.seat_named(&user)?;
                let kind = parse_kind(&letter)?;
                if let Some(l) = kind.limit() {
                    if self.state.pos.owned(seat, kind) >= l {
                        return refuse(format!(
                            "{user} owns a {} already (the limit is {l})",
                            kind.name()
                        ));
                    }
                }
                Action::Create { seat, kind }
            }
            Request::Ledger(entry, text) => {
                self.need_umpire(umpire)?;
                if text.trim().is_empty() {
                    return Err("say what the ledger line is with text:<text>".into());
                }
                if let Some(n) = entry {
                    if n == 0 || n > self.state.ledger.len() {
                        return refuse(format!(
                            "there is no ledger line {n} (lines 1 to {})",
                            self.state.ledger.len()
                        ));
                    }
                }
                Action::Ledger { entry, text }
            }
            Request::Substitute(h) => Action::Substitute(h),
            Request::End => {
                self.need_umpire(umpire)?;
                Action::End {
                    result: self.weights_line(),
                }
            }
            Request::Takeback => return self.takeback(actor, now, command, pre),
            Request::Revert(to, reason) => {
                return self.revert(Reverting::new(to, actor, &reason, now, command))
            }
        };
        let is_play = matches!(action, Action::Play { .. });
        let mut st = self.state.clone();
        let mut lines = Vec::new();
        fold(&mut st, &self.settings, &action, now, &mut lines)?;
        self.state = st;
        let number = self.log.push(actor, now, command, action, true);
        // Only a change of who must act pings: a play always begins a new turn; the
        // Umpire's bookkeeping (an extension, Warmth off, a ledger line) pings nobody.
        let fresh = is_play || self.to_play() != before;

        let mut out = lines;
        if !pre.is_empty() {
            out.push(format!("Fallen due before it:\n{}", pre.join("\n")));
        }
        Ok(self.accepted(number, out, fresh))
    }

    fn accepted(&self, number: Option<u32>, mut lines: Vec<String>, fresh: bool) -> Accepted {
        let mut notify = Vec::new();
        if let Some(result) = &self.state.ended {
            lines.push(format!("The game is over. Result: {result}"));
        } else if self.state.started {
            let checked = self.in_check();
            if !checked.is_empty() {
                let names: Vec<&str> = checked.iter().map(|&s| self.user(s)).collect();
                lines.push(format!("In check: {}.", names.join(", ")));
                if fresh {
                    for &s in &checked {
                        notify.push((
                            self.user(s).to_string(),
                            "you are in check in Party Chess".to_string(),
                        ));
                    }
                }
            }
            lines.push(self.weights_line());
            if let Some(s) = self.to_play() {
                lines.push(format!("{} to play.", self.user(s)));
                if fresh {
                    notify.push((
                        self.user(s).to_string(),
                        "your turn in Party Chess".to_string(),
                    ));
                }
            }
        } else {
            let waiting = self.waiting_picks();
            if !waiting.is_empty() {
                lines.push(format!("Waiting for pieces from: {}.", waiting.join(", ")));
            }
        }
        Accepted {
            number,
            text: lines.join("\n"),
            notify,
        }
    }

    /// Swingers who have not picked their pieces.
    pub fn waiting_picks(&self) -> Vec<String> {
        self.state
            .pos
            .list
            .iter()
            .filter(|s| !self.state.picked.contains(s))
            .map(|&s| self.user(s).to_string())
            .collect()
    }

    fn seated(&self, user: &str) -> R<u8> {
        self.seat_of(user)
            .ok_or_else(|| "you are not a Swinger in this game".into())
    }

    fn seat_named(&self, user: &str) -> R<u8> {
        let u = user.trim().trim_start_matches('@');
        self.seat_of(u)
            .ok_or_else(|| Refusal::Rule(format!("{u} is not a Swinger in this game")))
    }

    fn need_umpire(&self, umpire: bool) -> R<()> {
        if umpire {
            Ok(())
        } else {
            Err(Refusal::Rule(format!(
                "only the Chess-Umpire ({}) may do that",
                self.state.umpire
            )))
        }
    }

    fn not_your_turn(&self) -> String {
        match self.to_play() {
            Some(s) => format!("it is {}'s turn, not yours", self.user(s)),
            None => format!(
                "play has not begun: waiting for pieces from {} (/party pieces set:<five letters>)",
                self.waiting_picks().join(", ")
            ),
        }
    }

    /// A refusal while the mover is in check says so first, with the legal plays (at most
    /// 12, then `…`).
    fn check_first(&self, seat: u8, why: String) -> String {
        let pos = &self.state.pos;
        let Some(k) = pos.king(seat).filter(|_| in_check(pos, seat)) else {
            return why;
        };
        let legal = notation::legal_texts(pos);
        let mut list: Vec<String> = legal.iter().take(12).cloned().collect();
        if legal.len() > 12 {
            list.push("…".into());
        }
        format!(
            "your King on {} is in check; legal moves: {}\n{why}",
            k.name(),
            list.join(" ")
        )
    }

    fn my_turn(&self, user: &str) -> R<u8> {
        let seat = self.seated(user)?;
        if self.to_play() != Some(seat) {
            return refuse(self.not_your_turn());
        }
        Ok(seat)
    }

    fn takeback(
        &mut self,
        user: &str,
        now: Timestamp,
        command: &str,
        pre: Vec<String>,
    ) -> R<Accepted> {
        let (number, line) =
            self.take_back(user, now, command, |undone| Action::Takeback { undone })?;
        let mut out = vec![line];
        if !pre.is_empty() {
            out.push(format!("Fallen due before it: {}", pre.join(" ")));
        }
        Ok(self.accepted(number, out, true))
    }

    fn revert(&mut self, by: Reverting<'_>) -> R<Accepted> {
        let undone = self.revert_preview(by.to)?;
        let (number, line) =
            self.revert_to(&by, &undone, |to, reason| Action::Revert { to, reason })?;
        Ok(self.accepted(number, vec![line], true))
    }

    // ----- texts --------------------------------------------------------------------------

    /// The `/status` text.
    pub fn status_text(&self, now: Timestamp) -> String {
        let st = &self.state;
        let mut v = vec![format!(
            "Party Chess, Chess-Umpire {}, turn limit {}, seed {}, echo: {}",
            st.umpire,
            format_duration(self.settings.turn_limit),
            self.settings.seed,
            self.settings.echo.word()
        )];
        let list: Vec<String> = st.pos.list.iter().map(|&s| self.seat_name(s)).collect();
        v.push(format!("Play List: {}", list.join(", ")));
        if !st.started {
            v.push(format!(
                "Waiting for pieces from: {} (/party pieces set:<five letters, value at most 30>)",
                self.waiting_picks().join(", ")
            ));
        }
        let check: Vec<&str> = self.in_check().iter().map(|&s| self.user(s)).collect();
        v.push(format!(
            "In check: {}",
            if check.is_empty() {
                "nobody".to_string()
            } else {
                check.join(", ")
            }
        ));
        v.push(self.weights_line());
        v.push(format!("Off-board: {}", self.hands_line()));
        v.push(format!("RoundCount: {}", st.round_count));
        if !st.warm.is_empty() {
            let w: Vec<&str> = st.warm.iter().map(|&s| self.user(s)).collect();
            v.push(format!("Warm: {}", w.join(", ")));
        }
        if let Some(l) = &st.last {
            v.push(format!("Last play: {} {}", self.user(l.seat), l.text));
        }
        if let Some(result) = &st.ended {
            v.push(format!("Ended by the Chess-Umpire. Result: {result}"));
        }
        if let (Some(s), Some(due)) = (self.to_play(), self.deadline()) {
            v.push(format!(
                "To play: {} (time left {}, until {})",
                self.user(s),
                format_duration(due.saturating_sub(now)),
                crate::time::stamp(due, crate::time::Style::Full)
            ));
        }
        v.push(format!("position: {}", st.pos.to_text()));
        v.join("\n")
    }

    fn seat_name(&self, s: u8) -> String {
        format!("{} ({s})", self.user(s))
    }

    fn hands_line(&self) -> String {
        let parts: Vec<String> = self
            .state
            .pos
            .seats()
            .into_iter()
            .filter(|&s| !self.state.pos.hand(s).is_empty())
            .map(|s| {
                let h: String = self
                    .state
                    .pos
                    .hand(s)
                    .iter()
                    .map(|p| p.hand_text())
                    .collect();
                format!("{} {h}", self.user(s))
            })
            .collect();
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }

    /// The console's `!state` lines.
    pub fn state_lines(&self) -> Vec<String> {
        let st = &self.state;
        let mut v = board_lines(st.pos.placement(), st.pos.to_text());
        let seats: Vec<String> = (1..=st.users.len() as u8)
            .map(|s| {
                let gone = if st.pos.list.contains(&s) {
                    ""
                } else {
                    " (removed)"
                };
                format!("{s}:{}{gone}", self.user(s))
            })
            .collect();
        v.push(format!("seats: {}", seats.join(", ")));
        v.push(format!("umpire: {}", st.umpire));
        v.push(format!(
            "started: {}",
            if st.started { "yes" } else { "no" }
        ));
        v.push(self.weights_line());
        let check: Vec<&str> = self.in_check().iter().map(|&s| self.user(s)).collect();
        v.push(format!("in check: {}", listed(&check, ", ")));
        v.push(format!("round count: {}", st.round_count));
        let played: Vec<String> = st.played.iter().map(u8::to_string).collect();
        v.push(format!("played this round: {}", played.join(",")));
        let warm: Vec<String> = st.warm.iter().map(u8::to_string).collect();
        v.push(format!("warm: {}", listed(&warm, ",")));
        v.push(format!("turn started: {}", st.turn_started));
        if let Some(d) = self.deadline() {
            v.push(format!("turn expires: {d}"));
        }
        for (i, l) in st.ledger.iter().enumerate() {
            v.push(format!("ledger {}: {l}", i + 1));
        }
        v
    }

    /// A user left the server: every seat of theirs becomes Warm (Party rules 3.6), as the
    /// bot's own action; `None` when they hold no seat here or are Warm already.
    pub fn member_left(&mut self, user: &str, now: Timestamp) -> Option<Accepted> {
        self.seat_of(user)?;
        self.apply(
            "arbiter",
            false,
            Request::Left(user.to_string()),
            now,
            &format!("({user} left the server)"),
        )
        .ok()
    }

    /// The plays the user may make now, as `/move` accepts them.
    ///
    /// # Errors
    /// Not their turn.
    pub fn offered(&self, user: &str) -> R<Vec<String>> {
        self.my_turn(user)?;
        Ok(notation::legal_texts(&self.state.pos))
    }

    /// The plays `user` could make in the position as it stands if their seat were at the top
    /// of the Play List: the list `/moves` adds to its refusal off-turn, for planning. Empty
    /// before play begins, after the end and for a user without a seat.
    pub fn planned(&self, user: &str) -> Vec<String> {
        if self.to_play().is_none() {
            return Vec::new();
        }
        let Some(seat) = self.seat_of(user) else {
            return Vec::new();
        };
        let mut pos = self.state.pos.clone();
        pos.list.retain(|&s| s != seat);
        pos.list.insert(0, seat);
        notation::legal_texts(&pos)
    }
}

/// The echo of a play: its notation with `+` when it checks another Swinger.
fn echo(pos: &Position, play: &Play) -> String {
    let t = notation::format_exact(pos, play);
    if matches!(play, Play::Move(_) | Play::Place { .. }) && notation::gives_check(pos, play) {
        format!("{t}+")
    } else {
        t
    }
}

/// Reads a pick of five pieces (Party rules 3.3).
///
/// # Errors
/// Not five, an unknown letter, il-Nabi or a Zombie, a King, two Tornados, value over 30.
pub fn parse_pick(letters: &str) -> R<Vec<Kind>> {
    let mut kinds = Vec::new();
    for c in letters.chars().filter(|c| !c.is_whitespace() && *c != ',') {
        kinds.push(parse_kind(&c.to_string())?);
    }
    if kinds.len() != 5 {
        return refuse(format!(
            "pick exactly five pieces (you named {}), like set:RRCJP",
            kinds.len()
        ));
    }
    if kinds.contains(&Kind::King) {
        return Err("every Swinger receives one King; pick five other pieces".into());
    }
    if kinds.iter().filter(|&&k| k == Kind::Tornado).count() > 1 {
        return Err("at most one Tornado (its instance limit is one)".into());
    }
    let total: u32 = kinds.iter().map(|k| k.value()).sum();
    if total > 30 {
        return refuse(format!(
            "those pieces are worth {total}; the five may be worth at most 30"
        ));
    }
    Ok(kinds)
}

/// Moves the mover to the bottom, then every checked Swinger above the unchecked ones,
/// keeping their order (Party rules 3.3); returns the checked.
fn reorder(pos: &mut Position, mover: Option<u8>) -> Vec<u8> {
    if let Some(m) = mover {
        if let Some(i) = pos.list.iter().position(|&s| s == m) {
            pos.list.remove(i);
            pos.list.push(m);
        }
    }
    let checked: Vec<u8> = pos
        .list
        .iter()
        .copied()
        .filter(|&s| in_check(pos, s))
        .collect();
    let rest: Vec<u8> = pos
        .list
        .iter()
        .copied()
        .filter(|s| !checked.contains(s))
        .collect();
    pos.list = checked.iter().copied().chain(rest).collect();
    checked
}

/// Marks a seat as having played; ends the Round when everyone has, with Warmth's count.
fn played(st: &mut State, seat: u8, lines: &mut Vec<String>) {
    st.played.insert(seat);
    round_check(st, lines);
}

fn round_check(st: &mut State, lines: &mut Vec<String>) {
    if st.pos.list.is_empty() || !st.pos.list.iter().all(|s| st.played.contains(s)) {
        return;
    }
    st.round_count += 1;
    st.played.clear();
    lines.push(format!("Round {} is over.", st.round_count));
    let warm: Vec<u8> = st.warm.iter().copied().collect();
    for s in warm {
        if st.warm_at_round_start.contains(&s) {
            let n = st.warm_rounds.entry(s).or_default();
            *n += 1;
            if *n >= 2 {
                *n = 0;
                apply(&mut st.pos, s, &Play::Surrender);
                lines.push(format!(
                    "{} has been Warm for two whole Rounds and is considered to have Surrendered.",
                    user_of(st, s)
                ));
            }
        }
    }
    st.warm_at_round_start = st.warm.clone();
}

fn user_of(st: &State, seat: u8) -> String {
    st.users
        .get(usize::from(seat).saturating_sub(1))
        .cloned()
        .unwrap_or_default()
}

/// Turn start: skips (seven or more Swingers with on-board pieces) and Warm passes.
fn begin_turn(st: &mut State, now: Timestamp, lines: &mut Vec<String>) {
    st.turn_started = now;
    st.extended = None;
    if !st.started {
        return;
    }
    for _ in 0..st.pos.list.len() {
        let Some(top) = st.pos.to_play() else { return };
        let with_pieces = st.pos.list.iter().filter(|&&s| st.pos.on_board(s)).count();
        if with_pieces >= 7 && !st.pos.on_board(top) {
            st.pos.list.remove(0);
            st.pos.list.push(top);
            st.pos.echo.insert(top, None);
            lines.push(format!(
                "{} has no pieces on the board and is skipped (seven or more Swingers have).",
                user_of(st, top)
            ));
            played(st, top, lines);
            continue;
        }
        if st.warm.contains(&top) && !in_check(&st.pos, top) {
            apply(&mut st.pos, top, &Play::Pass);
            reorder(&mut st.pos, Some(top));
            lines.push(format!("{} is Warm and passes.", user_of(st, top)));
            played(st, top, lines);
            continue;
        }
        return;
    }
}

fn fold(
    st: &mut State,
    settings: &Settings,
    action: &Action,
    now: Timestamp,
    lines: &mut Vec<String>,
) -> R<()> {
    match action {
        Action::Start {
            users,
            umpire,
            position,
        } => {
            st.users = users.clone();
            st.umpire = umpire.clone();
            match position {
                Some(text) => {
                    st.pos = Position::from_text(text).map_err(|e| e.to_string())?;
                    st.picked = st.pos.list.iter().copied().collect();
                    st.started = true;
                }
                None => {
                    let n = users.len() as u8;
                    st.pos = Position::empty((1..=n).collect());
                    st.pos.echo_rule = settings.echo;
                    for s in 1..=n {
                        st.pos.give(s, Piece::new(Kind::King, s));
                    }
                }
            }
            st.turn_started = now;
        }
        Action::Pick { seat, pieces } => {
            for &k in pieces {
                st.pos.give(*seat, Piece::new(k, *seat));
            }
            st.pos.enforce_limits(*seat);
            st.picked.insert(*seat);
            let picks: String = pieces.iter().map(|k| k.letter()).collect();
            lines.push(format!("{} picks {picks}.", user_of(st, *seat)));
            if !st.started && st.pos.list.iter().all(|s| st.picked.contains(s)) {
                st.started = true;
                lines.push("Every Swinger has picked: play begins.".into());
                begin_turn(st, now, lines);
            }
        }
        Action::Play {
            seat,
            notation: text,
            how,
        } => {
            if *how == How::OutOfTurn {
                apply(&mut st.pos, *seat, &Play::Surrender);
                lines.push(format!(
                    "{} (Warm) surrenders out of turn.",
                    user_of(st, *seat)
                ));
                return Ok(());
            }
            if st.pos.to_play() != Some(*seat) {
                return refuse(format!("seat {seat} is not to play"));
            }
            let play = notation::resolve(&st.pos, text)?;
            let shown = echo(&st.pos, &play);
            apply(&mut st.pos, *seat, &play);
            let who = user_of(st, *seat);
            lines.push(match how {
                How::Default => format!("{who}'s turn expired: {shown} (the default play)."),
                _ => format!("{who}: {shown}"),
            });
            st.last = Some(LastPlay {
                seat: *seat,
                play,
                text: shown,
            });
            reorder(&mut st.pos, Some(*seat));
            played(st, *seat, lines);
            begin_turn(st, now, lines);
            if *how == How::Default {
                st.ran_out.insert(*seat);
                let active: Vec<u8> = st
                    .pos
                    .list
                    .iter()
                    .copied()
                    .filter(|s| !st.warm.contains(s))
                    .collect();
                // `stall:off`: the game never pauses.
                if settings.pace.stall != Some(0) && active.iter().all(|s| st.ran_out.contains(s)) {
                    st.stalled = Some(now);
                    lines.push(STALLED.into());
                }
            } else {
                st.ran_out.clear();
                st.stalled = None;
            }
        }
        Action::Substitute(h) => {
            if let Some(u) = st.users.get_mut(h.seat) {
                u.clone_from(&h.to);
            }
            // The incoming player starts with a fresh limit (RULINGS §9).
            if st.started && st.pos.to_play().map(usize::from) == Some(h.seat) {
                st.turn_started = now;
                st.extended = None;
            }
            lines.push(format!("{}.", h.text()));
        }
        Action::Resume => {
            st.stalled = None;
            st.ran_out.clear();
            st.turn_started = now;
            st.extended = None;
            lines.push("The game resumes: the turn limit runs from now.".into());
        }
        Action::Extend { seat, until } => {
            st.extended = Some(st.turn_started + until);
            lines.push(format!(
                "{}'s turn is extended to {} after its announcement.",
                user_of(st, *seat),
                format_duration(*until)
            ));
        }
        Action::Warm { seat, on } => {
            if *on {
                st.warm.insert(*seat);
            } else {
                st.warm.remove(seat);
                st.warm_rounds.remove(seat);
                st.warm_at_round_start.remove(seat);
            }
            lines.push(format!(
                "{} is {}Warm.",
                user_of(st, *seat),
                if *on { "" } else { "no longer " }
            ));
            if *on && st.pos.to_play() == Some(*seat) {
                begin_turn(st, now, lines);
            }
        }
        Action::Left { seat } => {
            st.warm.insert(*seat);
            lines.push(format!(
                "{} left the server and is Warm.",
                user_of(st, *seat)
            ));
            if st.pos.to_play() == Some(*seat) {
                begin_turn(st, now, lines);
            }
        }
        Action::AddSwinger { user } => {
            st.users.push(user.clone());
            let seat = st.users.len() as u8;
            st.pos.list.push(seat);
            st.pos.echo.insert(seat, None);
            st.pos.give(seat, Piece::new(Kind::King, seat));
            lines.push(format!(
                "{user} joins as seat {seat}, at the bottom of the Play List, with a King; pick five pieces with /party pieces set:"
            ));
        }
        Action::RemoveSwinger { seat } => {
            st.pos.remove_seat(*seat);
            st.played.remove(seat);
            st.warm.remove(seat);
            lines.push(format!(
                "{}'s office is destroyed with all its pieces.",
                user_of(st, *seat)
            ));
            round_check(st, lines);
            begin_turn(st, now, lines);
        }
        Action::Create { seat, kind } => {
            st.pos.give(*seat, Piece::new(*kind, *seat));
            let cost = 1 + 7 * kind.value();
            let line = format!(
                "{} bought for {}: A${cost}",
                kind.name(),
                user_of(st, *seat)
            );
            lines.push(format!("{line} (noted in the ledger)."));
            st.ledger.push(line);
        }
        Action::Ledger { entry, text } => match entry {
            Some(n) => {
                if let Some(l) = st.ledger.get_mut(n.saturating_sub(1)) {
                    *l = text.clone();
                }
                lines.push(format!("Ledger line {n}: {text}"));
            }
            None => {
                st.ledger.push(text.clone());
                lines.push(format!("Ledger line {}: {text}", st.ledger.len()));
            }
        },
        Action::End { result } => {
            st.ended = Some(result.clone());
            lines.push("The Chess-Umpire ends the game (Party Chess has no other end).".into());
        }
        Action::Takeback { .. } | Action::Revert { .. } => {
            st.turn_started = now;
            st.extended = None;
        }
    }
    Ok(())
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
