//! The Nomic Chess game (Nomic rules 6.1–6.11; shared rules 7.1–7.3): players and Referees,
//! settings, an append-only log of actions, and the state replaying it gives at a moment.
//!
//! Time is passed in. Limits fall due lazily: before an action at time `t` (and for a view at
//! `now`) the state is advanced to that moment, every deadline up to it applied in order, so
//! replaying the log always gives the same state.

use crate::games::export_common::listed;
use serde::{Deserialize, Serialize};

use crate::layer::log::{Bookkept, Reverting};
use crate::layer::table::Table;
use crate::time::{format_duration, Timestamp};

use super::position::{
    half_letter, move_text, parse_square, JBoard, Join, Kind, Local, Move, Piece, Position, Rules,
    Slot, Special,
};
use super::rules::Ruleset;
use super::text::TextError;

mod actions;
mod fold;
mod notation;
mod proposals;
mod referee;
mod state;
mod status;
use fold::*;
pub use notation::*;
use state::*;

/// The largest seed (shared rules 0.5).
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// Five minutes (`pace:live`).
pub const LIVE: u64 = 5 * 60;
/// A day (`pace:async`).
pub const ASYNC: u64 = 24 * 60 * 60;
/// No time limit (rule 206 repealed, or `/set part1_limit:none`): a hundred years.
pub const NO_LIMIT: u64 = 100 * 365 * ASYNC;

/// A limit as shown: `5m`, or `none`.
pub fn limit_text(secs: u64) -> String {
    if secs >= NO_LIMIT {
        "none".into()
    } else {
        format_duration(secs)
    }
}

/// The limits of parts 1 and 3 a text of rule 206 sets (§6.9: the bot enforces them from the
/// close of the vote that adopts it): each duration (`ten minutes`, `10 minutes`, `2h`) goes
/// with the part the text names after it (`the first part`, `part 3`), or, with none after
/// it, the last one named before; a part named with no duration has no limit. A single
/// duration in a text naming no part is both limits. `None` when the text gives no duration
/// or two for one part: the Referees enforce it then.
pub fn limits_of(text: &str) -> Option<(u64, u64)> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let number = |w: &str| -> Option<u64> {
        const N: [&str; 13] = [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve",
        ];
        match w {
            "a" | "an" => Some(1),
            "fifteen" => Some(15),
            "twenty" => Some(20),
            "thirty" => Some(30),
            "forty" => Some(40),
            "fifty" => Some(50),
            "sixty" => Some(60),
            _ => N
                .iter()
                .position(|n| *n == w)
                .map(|i| i as u64)
                .or_else(|| w.parse().ok()),
        }
    };
    let unit = |w: &str| -> Option<u64> {
        match w {
            "s" | "sec" | "secs" | "second" | "seconds" => Some(1),
            "m" | "min" | "mins" | "minute" | "minutes" => Some(60),
            "h" | "hr" | "hrs" | "hour" | "hours" => Some(3600),
            "d" | "day" | "days" => Some(86_400),
            _ => None,
        }
    };
    // (word index, seconds) of each duration; (word index, part) of each part named.
    let mut durations = Vec::new();
    let mut parts = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).copied().unwrap_or("");
        if let (Some(n), Some(u)) = (number(w), unit(next)) {
            if !matches!(*w, "a" | "an") || u > 1 {
                durations.push((i, n * u));
            }
        } else if let Some(split) = w.find(|c: char| !c.is_ascii_digit()).filter(|&k| k > 0) {
            if let (Ok(n), Some(u)) = (w[..split].parse::<u64>(), unit(&w[split..])) {
                durations.push((i, n * u));
            }
        }
        let prev = if i > 0 { words[i - 1] } else { "" };
        let part = match (*w, next, prev) {
            ("first", "part", _) | ("part", "1" | "one", _) => Some(1),
            ("third", "part", _) | ("part", "3" | "three", _) => Some(3),
            _ => None,
        };
        if let Some(p) = part {
            parts.push((i, p));
        }
    }
    if durations.is_empty() {
        return None;
    }
    if parts.is_empty() {
        return match durations.as_slice() {
            [(_, d)] => Some((*d, *d)),
            _ => None,
        };
    }
    let (mut one, mut three) = (None, None);
    for &(i, d) in &durations {
        let part = parts
            .iter()
            .find(|(j, _)| *j > i)
            .or_else(|| parts.iter().rev().find(|(j, _)| *j < i))
            .map(|&(_, p)| p);
        let slot = if part == Some(1) {
            &mut one
        } else {
            &mut three
        };
        if slot.is_some() {
            return None;
        }
        *slot = Some(d);
    }
    Some((one.unwrap_or(NO_LIMIT), three.unwrap_or(NO_LIMIT)))
}

/// Settings (§6.8, §6.9, §6.11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The reminder interval and stall time (`remind:` on `/… new`, the server's defaults;
    /// shared rules 7.4).
    #[serde(flatten)]
    pub pace: crate::layer::pace::Pace,
    /// Seconds for part 1 (and part 2).
    pub part1_limit: u64,
    /// Seconds for the submission of part 3 (and an undead slot).
    pub part3_limit: u64,
    /// Seconds a vote stays open.
    pub vote_limit: u64,
    /// Longest proposal, in characters.
    pub proposal_max: usize,
    /// Armies of one controller may capture each other.
    pub friendly_capture: bool,
    /// The seed that drew the Order.
    pub seed: u64,
    /// The Referees.
    pub referees: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            pace: crate::layer::pace::Pace::default(),
            part1_limit: LIVE,
            part3_limit: LIVE,
            vote_limit: LIVE,
            proposal_max: 600,
            friendly_capture: false,
            seed: 0,
            referees: Vec::new(),
        }
    }
}

/// What `/nomic new` asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewGame {
    /// Players in seating order (halves A, B, …; armies 1, 2, …).
    pub players: Vec<String>,
    /// Settings (referees included).
    pub settings: Settings,
    /// `order:` players, if given.
    pub order: Option<Vec<String>>,
    /// `position:`.
    pub position: Option<String>,
}

/// What a proposal does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Change {
    /// Enacts a new rule.
    Enact,
    /// Amends a rule to read the new text.
    Amend(u32, String),
    /// Repeals a rule.
    Repeal(u32),
}

/// Where a proposal stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Standing {
    /// Being voted on.
    Open,
    /// Adopted (the rule it enacted).
    Adopted(Option<u32>),
    /// Defeated.
    Defeated,
    /// Voided by a Referee.
    Void,
}

/// A proposal (§6.9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proposal {
    /// Its number (from 1).
    pub n: u32,
    /// Its author (user).
    pub author: String,
    /// The text.
    pub text: String,
    /// The number its author asked for.
    pub number: Option<u32>,
    /// An immutable change (a Referee's, 113).
    pub immutable: bool,
    /// What it does.
    pub change: Change,
    /// Per player: for (`true`), against, or not cast.
    pub votes: Vec<Option<bool>>,
    /// Where it stands.
    pub standing: Standing,
    /// When it was proposed (its limit starts then; pauses stop it on the layer's clock).
    pub opened: Timestamp,
    /// Spelling fixes: (old text, new text).
    pub fixes: Vec<(String, String)>,
    /// Made outside a turn's part 3 (a Referee's): the turn's clock is held meanwhile.
    pub held: bool,
}

/// A Judgment (§6.10).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgment {
    /// Its number.
    pub n: u32,
    /// The question.
    pub question: String,
    /// Who invoked it.
    pub by: String,
    /// Partisan users.
    pub partisan: Vec<String>,
    /// Rulings in order: (Referee, text).
    pub rulings: Vec<(String, String)>,
    /// The last ruling stands (not overruled).
    pub standing: bool,
    /// Players who voted to overrule the standing ruling.
    pub overrule: Vec<String>,
    /// Referees who may not judge it again.
    pub barred: Vec<String>,
}

/// A defeated author's demotion the game waits for (§6.9, 210).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Demotion {
    /// The author (player).
    pub author: usize,
    /// The proposal.
    pub proposal: u32,
    /// Since when (its limit starts then; pauses stop it on the layer's clock).
    pub since: Timestamp,
    /// The part-3 limit passed: a Referee may choose.
    pub referee: bool,
    /// The proposal was a held (out-of-turn) one.
    pub held: bool,
}

/// The last move, for the picture and the status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastMove {
    /// The push it was made on.
    pub join: Join,
    /// J from.
    pub from: (u8, u8),
    /// J to.
    pub to: (u8, u8),
    /// As echoed.
    pub text: String,
}

/// The state replay gives.
#[derive(Clone, Debug)]
pub struct State {
    /// The position (turn state included).
    pub pos: Position,
    /// The settings now (Referees may change them).
    pub settings: Settings,
    /// The ruleset.
    pub rules: Ruleset,
    /// Proposals.
    pub proposals: Vec<Proposal>,
    /// Judgments.
    pub judgments: Vec<Judgment>,
    /// Paused by a Referee since (or, when `stalled`, by the game itself).
    pub paused: Option<Timestamp>,
    /// The game's own pauses that ended, `[from, until)`, oldest first: with the open one
    /// ([`State::pause_stops`]) they stop every limit on the layer's clock
    /// ([`crate::layer::clock::Away::deadline_also`]); no limit is moved by them (issue 53).
    pub pauses: Vec<(Timestamp, Timestamp)>,
    /// The pause is the game's own: every player let a turn run out in a row (issue 41). A
    /// player's action or `/resume` (a Referee or the organiser) ends it.
    pub stalled: bool,
    /// Players whose turns ran out since a player last acted.
    pub ran_out: std::collections::BTreeSet<usize>,
    /// The game is over.
    pub over: bool,
    /// The winner.
    pub winner: Option<usize>,
    /// When the current part (or slot) began (pauses and holds stop its limit on the
    /// layer's clock; Referees' clock edits move it).
    pub clock: Timestamp,
    /// The current player has proposed this turn.
    pub proposed: bool,
    /// A demotion waited for.
    pub demotion: Option<Demotion>,
    /// The last move.
    pub last: Option<LastMove>,
    /// The state's time.
    pub now: Timestamp,
    /// Held since (an out-of-turn vote holds the turn's clock).
    pub held: Option<Timestamp>,
    /// The holds of the turn's clock that ended, `[from, until)`, oldest first: they stop
    /// the turn's limit (not a vote's) as pauses do.
    pub holds: Vec<(Timestamp, Timestamp)>,
    /// Whom the last action or event calls on to act, beyond whose turn it is: (user, what).
    pub calls: Vec<(String, String)>,
    /// Armies checkmated by the last action (for the picture).
    pub mated: Vec<usize>,
    /// Where the timer sweep left the limits since the last action ([`Game::catch_up`]).
    ahead: Option<std::sync::Arc<Ahead>>,
}

/// The states a game's limits ran out to, kept by the timer sweep ([`Game::catch_up`]) so
/// that the next sweep and every question until the next action start there instead of at
/// the last action (a year of hourly limits would otherwise be run out again each time).
#[derive(Clone)]
struct Ahead {
    /// The log they follow from: its length and how many of its entries are undone.
    key: (usize, usize),
    /// The state at moments after the last action, oldest first.
    points: Vec<(Timestamp, State)>,
}

impl std::fmt::Debug for Ahead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at: Vec<Timestamp> = self.points.iter().map(|p| p.0).collect();
        write!(f, "Ahead {{ key: {:?}, at: {at:?} }}", self.key)
    }
}

/// Limits run out so far, by every game of the process (a replay's, a question's, the
/// sweep's): what catching up costs, counted for tests and benchmarks ([`limits_run_out`]).
static LIMITS_RUN_OUT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many limits every Nomic Chess game of the process has run out so far, each time one
/// was run out (the same limit run out by two questions counts twice).
pub fn limits_run_out() -> u64 {
    LIMITS_RUN_OUT.load(std::sync::atomic::Ordering::Relaxed)
}

/// How far behind the sweep's time [`Game::catch_up`] keeps a state too: the reminders look
/// back an hour, a day and 30 days for when a wait began.
const KEPT_BEHIND: [Timestamp; 3] = [30 * 24 * 3600, 24 * 3600, 3600];

crate::layer::log::actions! {
    /// A logged action.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub enum Action {
        /// The game begins (from a position text, if given).
        Start {
            /// Position text.
            position: Option<String>,
            /// The Order (armies).
            order: Vec<usize>,
        },
        /// `/push`.
        Push {
            /// Join.
            join: Join,
        },
        /// `/move` (the move as echoed, in J's coordinates).
        Move {
            /// Notation.
            notation: String,
        },
        /// `/done`.
        Done,
        /// `/take`.
        Take {
            /// Army.
            army: usize,
        },
        /// `/decline`.
        Decline {
            /// Army.
            army: usize,
        },
        /// `/propose`.
        Propose {
            /// Text.
            text: String,
            /// Asked-for number.
            number: Option<u32>,
            /// Immutable (Referees).
            immutable: bool,
        },
        /// `/vote`.
        Vote {
            /// Proposal.
            proposal: u32,
            /// For.
            choice: bool,
        },
        /// `/demote`.
        Demote {
            /// The square.
            square: Local,
        },
        /// `/forfeit`.
        Forfeit,
        /// `/judgment`.
        Judgment {
            /// Question.
            question: String,
            /// Partisan users named.
            partisan: Vec<String>,
        },
        /// `/judge`.
        Judge {
            /// Judgment.
            judgment: u32,
            /// Text.
            text: String,
        },
        /// `/overrule`.
        Overrule {
            /// Judgment.
            judgment: u32,
        },
        /// `/pause`.
        Pause,
        /// `/resume`.
        Resume,
        /// `/assign`.
        Assign {
            /// Army.
            army: usize,
            /// Player.
            player: usize,
        },
        /// `/edit …` by a Referee.
        Edit(Edit),
        /// `/order set:`.
        Order {
            /// Armies.
            order: Vec<usize>,
        },
        /// `/set key:value`.
        Set {
            /// Setting.
            key: String,
            /// Value.
            value: String,
        },
        /// `/proposal void`.
        Void {
            /// Proposal.
            proposal: u32,
        },
        /// `/proposal fix`.
        Fix {
            /// Proposal.
            proposal: u32,
            /// New text.
            text: String,
        },
        /// `/nomic referee add|remove player:@x` (the organiser).
        Referee {
            /// Added (else removed).
            add: bool,
            /// The user.
            user: String,
        },
    }
    takeback {}
    revert {}
    bookkeeping: Start
}

/// A Referee's edit (§6.10, 6.10a).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Edit {
    /// Puts a piece (`K1`) on a square.
    Put {
        /// Square.
        square: Local,
        /// Kind.
        kind: Kind,
        /// Army.
        army: usize,
    },
    /// Removes a piece.
    Remove {
        /// Square.
        square: Local,
    },
    /// Moves a piece.
    Move {
        /// From.
        from: Local,
        /// To.
        to: Local,
    },
    /// Replaces the whole position (text).
    Position {
        /// Position text.
        text: String,
    },
    /// Gives the running limit more time (seconds).
    Clock {
        /// Seconds added.
        add: u64,
    },
    /// Sets the budget: S and the halves involved.
    Budget {
        /// S.
        s: Vec<bool>,
        /// Involved.
        involved: Vec<bool>,
    },
    /// Sets or clears a player's forfeit.
    Forfeited {
        /// Player.
        player: usize,
        /// Forfeited.
        on: bool,
    },
    /// Sets an army's controller (`None`: control pending).
    Controller {
        /// Army.
        army: usize,
        /// Player, or pending.
        player: Option<usize>,
    },
    /// Sets the times of infection: the undead players, earliest first.
    Undead {
        /// Players.
        order: Vec<usize>,
    },
    /// Sets the time left on the running limit (seconds from the edit, or from the pause).
    ClockLeft {
        /// Seconds left.
        left: u64,
    },
}

/// Which limit is running (for clock edits).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Running {
    /// An open vote.
    Vote(usize),
    /// A demotion waited for from its author.
    Demotion,
    /// The turn's part or slot.
    Turn,
}

/// One entry of the log.
pub type Entry = crate::layer::log::Entry<Action>;

crate::games::refusal! {
    /// Why an action is refused (shown as it is).
    pub enum Refusal {
        /// A position text that does not read.
        #[error("the position does not read: {0}")]
        Position(#[from] TextError),
    }
}

/// What an accepted action reports: its number, what happened and who must act next.
pub type Accepted = crate::layer::log::Accepted<Vec<(String, String)>>;

/// An event of time passing: a limit running out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeEvent {
    /// When.
    pub at: Timestamp,
    /// Stable code (kind and slot).
    pub code: usize,
    /// What happened.
    pub text: String,
    /// Whom it calls on to act, beyond whose turn it is: (user, what).
    pub calls: Vec<(String, String)>,
}

/// A Nomic Chess game: its [`Table`] (its `users` are the players in seating order), and
/// Nomic Chess's methods on it.
pub type Game = Table<Nomic>;

/// The Order drawn from a seed: a Fisher–Yates shuffle of the armies on the chained stream.
pub fn drawn_order(n: usize, seed: u64) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    crate::games::seeded::shuffle(&mut crate::games::seeded::Chain(seed), &mut v);
    v
}

/// Context of a fold: who is who.
struct Ctx<'a> {
    players: &'a [String],
    /// The organiser who created the game.
    organiser: &'a str,
    /// The actor holds the organiser role (on replay: trusted, checked when accepted).
    organiser_role: bool,
    /// The players' vacations: a limit on an away player's turn or demotion stops.
    away: &'a crate::layer::clock::Away,
}

/// One action being applied: the state, who acts, and the reply so far.
struct Fold<'a> {
    st: &'a mut State,
    ctx: &'a Ctx<'a>,
    actor: &'a str,
    /// The actor's seat, if they are a player.
    player: Option<usize>,
    /// The actor is a Referee.
    referee: bool,
    /// Players (as many half-boards and armies).
    n: usize,
    /// The action's time.
    t: Timestamp,
    /// The reply's lines.
    lines: Vec<String>,
}

/// A push moved on: the joined board J and the moves the budget allows on it (Nomic rules
/// 6.3, 6.4).
struct OnJ {
    join: Join,
    army: usize,
    b: JBoard,
    legal: Vec<Move>,
}

/// The log's own actions go through [`Game::apply`], after the limits that ran out before
/// them; a hand-over is applied as the organiser's (the layer checked the right to it).
impl Bookkept for Game {
    type Accepted = Accepted;
    type Refusal = Refusal;

    fn takeback(&mut self, actor: &str, now: Timestamp, raw: &str) -> Result<Accepted, Refusal> {
        self.apply(actor, Action::Takeback { undone: 0 }, now, raw)
    }

    fn revert(&mut self, by: Reverting<'_>, _entropy: u64) -> Result<Accepted, Refusal> {
        let a = Action::Revert {
            to: by.to,
            reason: by.reason.to_string(),
        };
        self.apply(by.moderator, a, by.time, by.command)
    }

    fn substitute(&mut self, s: crate::layer::log::Substitution<'_>) -> Result<Accepted, Refusal> {
        self.apply_as(s.actor, true, Action::Substitute(s.handover), s.now, s.raw)
    }
}

crate::layer::table::fold! {
    /// Nomic Chess's rules, as its [`Table`] folds them.
    Nomic described by describe {
        // The limits a replay runs out depend on who was away: replay with them.
        const REPLAYS_AWAY: bool = true;

        fn begin(g: &Game) -> State {
            let start = g.log.first().map_or(0, |e| e.time);
            State::new(g.users.len(), g.settings.clone(), start)
        }

        /// The limits that ran out before the entry, then the entry.
        fn replay_entry(g: &mut Game, e: &Entry) -> Result<(), Refusal> {
            let ctx = Ctx {
                players: &g.users,
                organiser: g.log.first().map_or("", |f| f.actor.as_str()),
                organiser_role: true,
                away: &g.away,
            };
            g.state.advance(e.time, &ctx, &mut Vec::new());
            let mut a = e.action.clone();
            fold(&mut g.state, &ctx, &e.actor, &mut a, e.time)?;
            Ok(())
        }

        fn ended(g: &Game) -> Option<String> {
            g.state.over.then(|| match g.state.winner {
                Some(w) => format!("{} won", g.users[w]),
                None => "no winner".to_string(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_typed_and_the_log_says_its_own() {
        let new = NewGame {
            players: vec!["ann".into(), "ben".into()],
            ..NewGame::default()
        };
        let mut g = Game::create(new, "org", 0).expect("a game of two");
        let r = g.apply("ann", Action::Takeback { undone: 0 }, 1, "/takeback");
        assert_eq!(
            r.map(|a| a.text),
            Err(Refusal::Log(crate::layer::log::LogError::NothingToTakeBack))
        );
        let r = g.apply("zed", Action::Takeback { undone: 0 }, 1, "/takeback");
        assert_eq!(
            r.map(|a| a.text),
            Err(Refusal::Rule("you are not in this game".into()))
        );
    }

    /// Issue 54: the states the sweep keeps ([`Game::catch_up`]) change no answer: the
    /// limits found over any window (before the kept states too) and the state at any
    /// moment are those run out from the last action; an action leaves them behind.
    #[test]
    fn kept_states_answer_as_the_log_does() {
        let settings = Settings {
            part1_limit: 3600,
            part3_limit: 3600,
            pace: crate::layer::pace::Pace {
                stall: Some(0),
                ..crate::layer::pace::Pace::default()
            },
            ..Settings::default()
        };
        let new = NewGame {
            players: vec!["ann".into(), "ben".into(), "cat".into()],
            settings,
            ..NewGame::default()
        };
        let plain = Game::create(new, "org", 0).expect("a game of three");
        let day = 86_400;
        let mut kept = plain.clone();
        let same = |kept: &Game, plain: &Game| {
            for (a, b) in [
                (0, 40 * day),
                (10 * day, 10 * day + 3600),
                (39 * day, 41 * day),
                (40 * day - 1, 40 * day + 7200),
                (79 * day, 81 * day),
            ] {
                assert_eq!(kept.events(a, b), plain.events(a, b), "({a}, {b}]");
                let (mut k, mut p) = (Vec::new(), Vec::new());
                kept.each_event(a, b, |e, st| k.push((e, st.pos.to_text(), st.clock)));
                plain.each_event(a, b, |e, st| p.push((e, st.pos.to_text(), st.clock)));
                assert_eq!(k, p, "({a}, {b}]");
            }
            for t in [
                1,
                5 * day,
                40 * day - 3600,
                40 * day,
                40 * day + 1,
                80 * day + 1800,
            ] {
                let (k, p) = (kept.state_at(t), plain.state_at(t));
                assert_eq!(
                    (k.pos.to_text(), k.clock, k.now, &k.ran_out),
                    (p.pos.to_text(), p.clock, p.now, &p.ran_out),
                    "at {t}"
                );
                assert_eq!(kept.asks(&k), plain.asks(&p), "at {t}");
            }
        };
        kept.catch_up(40 * day);
        same(&kept, &plain);
        kept.catch_up(80 * day);
        same(&kept, &plain);
        // An action is applied where the limits stand, then the kept states are left behind.
        let (mut kept2, mut plain2) = (kept.clone(), plain.clone());
        let now = 80 * day + 60;
        let who = plain.asks(&plain.state_at(now));
        let user = who.first().map(|w| w.0.clone()).expect("someone is asked");
        let a = kept2
            .apply(&user, Action::Forfeit, now, "/forfeit")
            .map(|a| a.text);
        let b = plain2
            .apply(&user, Action::Forfeit, now, "/forfeit")
            .map(|a| a.text);
        assert_eq!(a, b);
        same(&kept2, &plain2);
    }

    #[test]
    fn proposals_read_as_enactment_amendment_or_repeal() {
        assert_eq!(change_of("Repeal rule 215."), Change::Repeal(215));
        assert_eq!(change_of("repeal 203"), Change::Repeal(203));
        assert_eq!(
            change_of("Amend rule 206 to read: Ten minutes."),
            Change::Amend(206, "Ten minutes.".into())
        );
        assert_eq!(
            change_of("Amend 206: Ten minutes."),
            Change::Amend(206, "Ten minutes.".into())
        );
        assert_eq!(change_of("Knights wear hats."), Change::Enact);
        assert_eq!(change_of("Repealing is fun."), Change::Enact);
    }

    #[test]
    fn moves_read_with_letters_promotions_and_castling() {
        assert_eq!(
            parse_move("Nb1-c3+"),
            Some((Some(Kind::Knight), (1, 0), (2, 2), None, Special::Plain))
        );
        assert_eq!(
            parse_move("e7xd8=Q"),
            Some((None, (4, 6), (3, 7), Some(Kind::Queen), Special::Plain))
        );
        assert_eq!(parse_move("O-O-O").map(|m| m.4), Some(Special::CastleQueen));
        assert_eq!(
            parse_move("e2e4"),
            Some((None, (4, 1), (4, 3), None, Special::Plain))
        );
        assert_eq!(
            parse_move("nb1-c3"),
            Some((Some(Kind::Knight), (1, 0), (2, 2), None, Special::Plain))
        );
        assert_eq!(
            parse_move("b2-b3").map(|m| m.0),
            Some(None),
            "a file letter, not a bishop"
        );
        assert_eq!(parse_move("bb2-c3").map(|m| m.0), Some(Some(Kind::Bishop)));
        assert_eq!(parse_move("Xe2-e4"), None);
        assert_eq!(parse_move("E2-E4"), None);
        assert_eq!(lower_squares("E2-E4").as_deref(), Some("e2-e4"));
        assert_eq!(lower_squares("NB1-C3").as_deref(), Some("Nb1-c3"));
        assert_eq!(lower_squares("D2XE3").as_deref(), Some("d2xe3"));
        assert_eq!(lower_squares("E2XE4").as_deref(), Some("e2xe4"));
        assert_eq!(short_algebraic("Nf3"), Some((Some(Kind::Knight), (5, 2))));
        assert_eq!(short_algebraic("e4"), Some((None, (4, 3))));
        assert_eq!(parse_piece("Q1", 2), Some((Kind::Queen, 0)));
        assert_eq!(parse_piece("Q3", 2), None);
    }

    #[test]
    fn the_order_is_a_seeded_shuffle() {
        let a = drawn_order(5, 42);
        let mut s = a.clone();
        s.sort_unstable();
        assert_eq!(s, vec![0, 1, 2, 3, 4]);
        assert_eq!(a, drawn_order(5, 42));
        assert!((0..20).any(|seed| drawn_order(5, seed) != a));
    }
}
