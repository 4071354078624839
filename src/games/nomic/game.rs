//! The Nomic Chess game (Nomic rules 6.1–6.11; shared rules 7.1–7.3): players and Referees,
//! settings, an append-only log of actions, and the state replaying it gives at a moment.
//!
//! Time is passed in. Limits fall due lazily: before an action at time `t` (and for a view at
//! `now`) the state is advanced to that moment, every deadline up to it applied in order, so
//! replaying the log always gives the same state.

use crate::games::export_common::listed;
use serde::{Deserialize, Serialize};

use crate::layer::log::{Bookkept, Folded, Reverting};
use crate::layer::table::Table;
use crate::time::{format_duration, Timestamp};

use super::position::{
    half_letter, move_text, parse_square, JBoard, Join, Kind, Local, Move, Piece, Position, Rules,
    Slot, Special,
};
use super::rules::Ruleset;
use super::text::TextError;

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

impl State {
    fn new(n: usize, settings: Settings, t: Timestamp) -> State {
        State {
            pos: Position::start(n, (0..n).collect()),
            settings,
            rules: Ruleset::starting(),
            proposals: Vec::new(),
            judgments: Vec::new(),
            paused: None,
            pauses: Vec::new(),
            stalled: false,
            ran_out: std::collections::BTreeSet::new(),
            over: false,
            winner: None,
            clock: t,
            proposed: false,
            demotion: None,
            last: None,
            now: t,
            held: None,
            holds: Vec::new(),
            calls: Vec::new(),
            mated: Vec::new(),
            ahead: None,
        }
    }

    fn rules(&self) -> Rules {
        Rules {
            friendly_capture: self.settings.friendly_capture,
        }
    }

    fn is_referee(&self, user: &str) -> bool {
        self.settings.referees.iter().any(|r| r == user)
    }

    /// Calls on every Referee to act.
    fn call_referees(&mut self, what: &str) {
        for r in self.settings.referees.clone() {
            self.call(&r, what);
        }
    }

    /// Calls on a user to act.
    fn call(&mut self, user: &str, what: &str) {
        let c = (user.to_string(), what.to_string());
        if !user.is_empty() && !self.calls.contains(&c) {
            self.calls.push(c);
        }
    }

    /// Calls on whoever judges a Judgment awaiting a ruling: the Referees who have not
    /// judged it, or the organiser once every Referee has.
    fn call_judges(&mut self, n: u32, ctx: &Ctx<'_>) -> String {
        let Some(j) = self.judgments.iter().find(|j| j.n == n) else {
            return String::new();
        };
        let free: Vec<String> = self
            .settings
            .referees
            .iter()
            .filter(|r| !j.barred.contains(r))
            .cloned()
            .collect();
        let what = format!("judge judgment {n}: /judge judgment:{n} text:<your Judgment>");
        if free.is_empty() {
            self.call(ctx.organiser, &what);
            format!(
                "every Referee has judged it, so the organiser ({}) judges it",
                ctx.organiser
            )
        } else {
            for r in &free {
                self.call(r, &what);
            }
            "another Referee judges it".to_string()
        }
    }

    /// Living players (not forfeited, controlling an army).
    pub fn living(&self) -> Vec<usize> {
        (0..self.pos.players())
            .filter(|&p| !self.pos.forfeited[p] && !self.pos.armies_of(p).is_empty())
            .collect()
    }

    fn playable(&self, army: usize) -> bool {
        matches!(self.pos.controllers.get(army), Some(Some(p)) if !self.pos.forfeited[*p])
    }

    /// The player whose turn it is (the army's controller, or the undead player).
    pub fn current_player(&self) -> Option<usize> {
        if self.over {
            return None;
        }
        match self.pos.turn.slot {
            Slot::Army(a) => self.pos.controllers.get(a).copied().flatten(),
            Slot::Undead(p) => Some(p),
            Slot::Idle => None,
        }
    }

    /// The open proposal.
    pub fn open_vote(&self) -> Option<&Proposal> {
        self.proposals.iter().find(|p| p.standing == Standing::Open)
    }

    /// Players who may vote (not forfeited).
    fn voters(&self) -> Vec<usize> {
        (0..self.pos.players())
            .filter(|&p| !self.pos.forfeited[p])
            .collect()
    }

    /// Keeps the undead list and the winner up to date after control changed.
    fn update_living(&mut self, lines: &mut Vec<String>, ctx: &Ctx<'_>) {
        let n = self.pos.players();
        for p in 0..n {
            let undead = !self.pos.forfeited[p] && self.pos.armies_of(p).is_empty();
            let listed = self.pos.infected.contains(&p);
            if undead && !listed {
                self.pos.infected.push(p);
                lines.push(format!("{} is undead (controls no army).", ctx.players[p]));
            } else if !undead && listed {
                self.pos.infected.retain(|&x| x != p);
                if !self.pos.forfeited[p] {
                    lines.push(format!("{} is living again.", ctx.players[p]));
                }
            }
        }
        if self.over {
            return;
        }
        let living = self.living();
        if living.len() <= 1 {
            self.over = true;
            self.winner = living.first().copied();
            self.pos.turn.slot = Slot::Idle;
            self.pos.turn.join = None;
            self.pos.offers.clear();
            match self.winner {
                Some(w) => lines.push(format!(
                    "{} is the only living player and wins the game.",
                    ctx.players[w]
                )),
                None => {
                    lines.push("No player is living: the game is over without a winner.".into())
                }
            }
        }
    }

    // ----- turns ---------------------------------------------------------------------

    fn begin_army(&mut self, army: usize, t: Timestamp, lines: &mut Vec<String>, ctx: &Ctx<'_>) {
        let n = self.pos.players();
        self.pos.turn.slot = Slot::Army(army);
        self.pos.turn.part = 1;
        self.pos.turn.s = self.pos.halves_of(army);
        self.pos.turn.involved = vec![false; n];
        self.pos.turn.join = None;
        self.pos.offers.clear();
        self.clock = t;
        self.proposed = false;
        if !self.pos.has_any_move(army, self.rules()) {
            lines.push(format!(
                "Army {} has no legal move anywhere and skips part 1.",
                army + 1
            ));
            self.enter_part2(t, lines, ctx);
        }
    }

    fn begin_undead(&mut self, p: usize, t: Timestamp) {
        let n = self.pos.players();
        self.pos.turn.slot = Slot::Undead(p);
        self.pos.turn.part = 3;
        self.pos.turn.s = vec![false; n];
        self.pos.turn.involved = vec![false; n];
        self.pos.turn.join = None;
        self.pos.offers.clear();
        self.clock = t;
        self.proposed = false;
    }

    fn enter_part2(&mut self, t: Timestamp, lines: &mut Vec<String>, ctx: &Ctx<'_>) {
        self.pos.turn.join = None;
        self.clock = t;
        if self.pos.offers.is_empty() {
            self.pos.turn.part = 3;
        } else {
            self.pos.turn.part = 2;
            let offers: Vec<String> = self
                .pos
                .offers
                .iter()
                .map(|a| (a + 1).to_string())
                .collect();
            lines.push(format!(
                "Part 2: {} may /take or /decline army {}.",
                self.current_player()
                    .map_or("-", |p| ctx.players[p].as_str()),
                offers.join(", army ")
            ));
        }
    }

    /// An offer was withdrawn (its army passed or was assigned elsewhere): with none left in
    /// part 2, part 3 begins now, as when part 2 opens with nothing to offer.
    fn offers_withdrawn(&mut self, t: Timestamp, lines: &mut Vec<String>, ctx: &Ctx<'_>) {
        if !self.over
            && self.pos.offers.is_empty()
            && matches!(self.pos.turn.slot, Slot::Army(_))
            && self.pos.turn.part == 2
        {
            lines.push("No army is left on offer: part 3 begins.".into());
            self.enter_part2(t, lines, ctx);
        }
    }

    fn undead_after(&self, after: Option<usize>) -> Option<usize> {
        let list = &self.pos.infected;
        let start = match after {
            Some(p) => list
                .iter()
                .position(|&x| x == p)
                .map_or(list.len(), |i| i + 1),
            None => 0,
        };
        list[start.min(list.len())..]
            .iter()
            .copied()
            .find(|&p| !self.pos.forfeited[p] && self.pos.armies_of(p).is_empty())
    }

    fn first_playable(&self, from: usize) -> Option<usize> {
        self.pos.order[from.min(self.pos.order.len())..]
            .iter()
            .copied()
            .find(|&a| self.playable(a))
    }

    /// Ends the turn (or undead slot) and begins the next (204).
    fn end_turn(&mut self, t: Timestamp, lines: &mut Vec<String>, ctx: &Ctx<'_>) {
        if self.over {
            return;
        }
        // Offers not answered are taken by default.
        let offers = std::mem::take(&mut self.pos.offers);
        if let (Some(p), false) = (self.current_player(), offers.is_empty()) {
            for a in offers {
                self.pos.controllers[a] = Some(p);
                lines.push(format!(
                    "{} takes army {} (by default).",
                    ctx.players[p],
                    a + 1
                ));
            }
            self.update_living(lines, ctx);
            if self.over {
                return;
            }
        }
        self.pos.turn.join = None;
        self.demotion = None;
        let next = match self.pos.turn.slot {
            Slot::Army(a) => {
                let i = self.pos.order.iter().position(|&x| x == a).unwrap_or(0);
                match self.first_playable(i + 1) {
                    Some(b) => Some(Slot::Army(b)),
                    None => match self.undead_after(None) {
                        Some(p) => Some(Slot::Undead(p)),
                        None => self.first_playable(0).map(Slot::Army),
                    },
                }
            }
            Slot::Undead(p) => match self.undead_after(Some(p)) {
                Some(q) => Some(Slot::Undead(q)),
                None => self.first_playable(0).map(Slot::Army),
            },
            Slot::Idle => self.first_playable(0).map(Slot::Army),
        };
        self.start_slot(next, t, lines, ctx);
    }

    fn start_slot(
        &mut self,
        next: Option<Slot>,
        t: Timestamp,
        lines: &mut Vec<String>,
        ctx: &Ctx<'_>,
    ) {
        match next {
            Some(Slot::Army(a)) => self.begin_army(a, t, lines, ctx),
            Some(Slot::Undead(p)) => self.begin_undead(p, t),
            _ => {
                self.pos.turn.slot = Slot::Idle;
                self.clock = t;
                lines.push(
                    "No army can take a turn: the game waits for a Referee (/assign).".into(),
                );
            }
        }
    }

    // ----- control -------------------------------------------------------------------

    /// A mated army passes (§6.6).
    fn pass_control(
        &mut self,
        army: usize,
        to: Option<usize>,
        mover: Option<usize>,
        lines: &mut Vec<String>,
        ctx: &Ctx<'_>,
    ) {
        if !self.mated.contains(&army) {
            self.mated.push(army);
        }
        match to {
            None => {
                self.pos.controllers[army] = None;
                self.pos.offers.retain(|&a| a != army);
                lines.push(format!(
                    "Army {} is checkmated; no one player has the most pieces attacking its king (a tie, or only armies whose control is pending attack it), so its control is pending until a Referee /assigns it.",
                    army + 1
                ));
                self.call_referees(&format!(
                    "army {} is checkmated and its control is pending: /assign army:{} to:@player",
                    army + 1,
                    army + 1
                ));
            }
            Some(p) if Some(p) == mover => {
                if self.pos.controllers[army] != Some(p) && !self.pos.offers.contains(&army) {
                    self.pos.offers.push(army);
                }
                lines.push(format!(
                    "Army {} is checkmated; {} may take it in part 2 (/take army:{} or /decline army:{}).",
                    army + 1,
                    ctx.players[p],
                    army + 1,
                    army + 1
                ));
                self.call(
                    &ctx.players[p],
                    &format!(
                        "army {} is checkmated: /take army:{} or /decline army:{} in part 2",
                        army + 1,
                        army + 1,
                        army + 1
                    ),
                );
            }
            Some(p) => {
                self.pos.controllers[army] = Some(p);
                self.pos.offers.retain(|&a| a != army);
                lines.push(format!(
                    "Army {} is checkmated and passes to {}.",
                    army + 1,
                    ctx.players[p]
                ));
                self.call(
                    &ctx.players[p],
                    &format!(
                        "army {} is checkmated and passes to you: you play its turns",
                        army + 1
                    ),
                );
            }
        }
        self.update_living(lines, ctx);
    }

    // ----- time ----------------------------------------------------------------------

    /// The next deadline: (when, code). A player's own limits (a turn's parts, a demotion)
    /// stop while they are away (shared rules 7.5); a vote's does not.
    fn next_deadline(&self, ctx: &Ctx<'_>) -> Option<(Timestamp, usize)> {
        if self.over || self.paused.is_some() {
            return None;
        }
        let which = self.running()?;
        let at = self.limit_end(which, ctx)?;
        let code = match which {
            Running::Vote(i) => 300 + self.proposals[i].n as usize,
            Running::Demotion => 400 + self.demotion.as_ref().map_or(0, |d| d.proposal as usize),
            Running::Turn => match (self.pos.turn.slot, self.pos.turn.part) {
                (Slot::Army(a), 1) => a,
                (Slot::Army(a), 2) => 100 + a,
                (Slot::Army(a), _) => 200 + a,
                (Slot::Undead(p), _) => 250 + p,
                (Slot::Idle, _) => return None,
            },
        };
        Some((at, code))
    }

    /// The game's own pauses as stops of the layer's clock: those that ended and the one
    /// still open (to `Timestamp::MAX`).
    fn pause_stops(&self) -> Vec<(Timestamp, Timestamp)> {
        let mut v = self.pauses.clone();
        if let Some(p) = self.paused {
            v.push((p, Timestamp::MAX));
        }
        v
    }

    /// What the layer's clock needs of a running limit: whose limit it is (`""`: nobody's,
    /// a vote's, which no vacation stops), when it started, how long it is, and the game's
    /// own stops of it (its pauses; for the turn's limit also the holds).
    fn limit_parts(
        &self,
        which: Running,
        ctx: &Ctx<'_>,
    ) -> (String, Timestamp, Timestamp, Vec<(Timestamp, Timestamp)>) {
        let user = |p: Option<usize>| {
            p.and_then(|p| ctx.players.get(p))
                .cloned()
                .unwrap_or_default()
        };
        let s = &self.settings;
        let mut stops = self.pause_stops();
        match which {
            Running::Vote(i) => (String::new(), self.proposals[i].opened, s.vote_limit, stops),
            Running::Demotion => {
                let (author, since) = self
                    .demotion
                    .as_ref()
                    .map_or((None, self.now), |d| (Some(d.author), d.since));
                (user(author), since, s.part3_limit, stops)
            }
            Running::Turn => {
                stops.extend_from_slice(&self.holds);
                if let Some(h) = self.held {
                    stops.push((h, Timestamp::MAX));
                }
                let limit = match self.pos.turn.slot {
                    Slot::Army(_) if self.pos.turn.part <= 2 => s.part1_limit,
                    _ => s.part3_limit,
                };
                (user(self.current_player()), self.clock, limit, stops)
            }
        }
    }

    /// When a running limit runs out on the layer's clock (its player's vacations, the
    /// layer's and the game's pauses, the turn's holds stop it); `None` while one of them
    /// still open stops it.
    fn limit_end(&self, which: Running, ctx: &Ctx<'_>) -> Option<Timestamp> {
        let (user, start, limit, stops) = self.limit_parts(which, ctx);
        ctx.away.deadline_also(&user, start, limit, &stops)
    }

    /// The limit running (paused or not): which it is ([`State::limit_parts`] tells the
    /// layer's clock its start, length and stops).
    fn running(&self) -> Option<Running> {
        if self.over {
            return None;
        }
        if let Some(i) = self
            .proposals
            .iter()
            .position(|p| p.standing == Standing::Open)
        {
            return Some(Running::Vote(i));
        }
        if let Some(d) = &self.demotion {
            return (!d.referee).then_some(Running::Demotion);
        }
        if self.held.is_some() {
            return None;
        }
        match self.pos.turn.slot {
            Slot::Army(_) | Slot::Undead(_) => Some(Running::Turn),
            Slot::Idle => None,
        }
    }

    /// Moves the running limit's end by `delta` seconds (later if positive).
    fn move_limit(&mut self, which: Running, delta: i64) {
        let f = |t: &mut Timestamp| {
            *t = if delta >= 0 {
                t.saturating_add(delta.unsigned_abs())
            } else {
                t.saturating_sub(delta.unsigned_abs())
            }
        };
        match which {
            Running::Vote(i) => f(&mut self.proposals[i].opened),
            Running::Demotion => {
                if let Some(d) = &mut self.demotion {
                    f(&mut d.since);
                }
            }
            Running::Turn => f(&mut self.clock),
        }
    }

    /// Applies every deadline up to `until`, recording what happened: all of them, however
    /// many (a catch-up is whole: a year of hourly limits is thousands).
    fn advance(&mut self, until: Timestamp, ctx: &Ctx<'_>, events: &mut Vec<TimeEvent>) {
        // Limits are at least a second, so deadlines move on; many at one moment could only
        // be a loop.
        let (mut last, mut same) = (None, 0u32);
        while let Some((at, code)) = self.next_deadline(ctx) {
            if at > until {
                break;
            }
            if last == Some(at) {
                same += 1;
                if same > 1_000 {
                    tracing::error!(at, "Nomic Chess deadlines stopped moving on; left for now");
                    break;
                }
            } else {
                (last, same) = (Some(at), 0);
            }
            let mut lines = Vec::new();
            self.calls.clear();
            LIMITS_RUN_OUT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.expire(at, code, &mut lines, ctx);
            events.push(TimeEvent {
                at,
                code,
                text: lines.join(" "),
                calls: std::mem::take(&mut self.calls),
            });
        }
        if until > self.now {
            self.now = until;
        }
    }

    fn expire(&mut self, at: Timestamp, code: usize, lines: &mut Vec<String>, ctx: &Ctx<'_>) {
        let who = self
            .current_player()
            .map_or("-".to_string(), |p| ctx.players[p].clone());
        if let Some(n) = self.open_vote().map(|p| p.n) {
            lines.push(format!("The vote on proposal {n} closes (time is up)."));
            self.close_vote(n, at, lines, ctx);
            return;
        }
        if let Some(d) = &mut self.demotion {
            d.referee = true;
            lines.push(format!(
                "{} has not demoted a piece within {}; a Referee chooses (/demote square:<half>:<sq>).",
                ctx.players[d.author],
                format_duration(self.settings.part3_limit)
            ));
            return;
        }
        let _ = code;
        match (self.pos.turn.slot, self.pos.turn.part) {
            (Slot::Army(a), 1) => {
                lines.push(format!(
                    "Army {} ({who}): part 1 ran out after {}; the turn ends.",
                    a + 1,
                    format_duration(self.settings.part1_limit)
                ));
                self.ran_out_turn(at, lines, ctx);
            }
            (Slot::Army(a), 2) => {
                lines.push(format!("Army {} ({who}): part 2 ran out.", a + 1));
                let offers = std::mem::take(&mut self.pos.offers);
                for o in offers {
                    if let Some(p) = self.current_player() {
                        self.pos.controllers[o] = Some(p);
                        lines.push(format!("{who} takes army {} (by default).", o + 1));
                    }
                }
                self.update_living(lines, ctx);
                if !self.over {
                    self.enter_part2(at, lines, ctx);
                }
            }
            (Slot::Army(a), _) => {
                lines.push(format!(
                    "Army {} ({who}): part 3 ran out after {}; the turn ends.",
                    a + 1,
                    format_duration(self.settings.part3_limit)
                ));
                self.ran_out_turn(at, lines, ctx);
            }
            (Slot::Undead(_), _) => {
                lines.push(format!(
                    "{who}'s undead slot ran out after {}.",
                    format_duration(self.settings.part3_limit)
                ));
                self.ran_out_turn(at, lines, ctx);
            }
            (Slot::Idle, _) => {}
        }
    }

    /// A turn that ran out ends; once every player still in the game has let a turn run
    /// out in a row, the game pauses (its limits stop) and the organiser and the Referees
    /// are called (issue 41).
    fn ran_out_turn(&mut self, at: Timestamp, lines: &mut Vec<String>, ctx: &Ctx<'_>) {
        if let Some(p) = self.current_player() {
            self.ran_out.insert(p);
        }
        self.end_turn(at, lines, ctx);
        let players = self.voters();
        // `stall:off`: the game never pauses.
        if self.over
            || self.settings.pace.stall == Some(0)
            || players.is_empty()
            || !players.iter().all(|p| self.ran_out.contains(p))
        {
            return;
        }
        self.paused = Some(at);
        self.stalled = true;
        lines.push(
            "Every player let a turn run out in a row: the game is paused (its limits stop) until a player acts or the organiser resumes it with /resume."
                .into(),
        );
        let what = "the Nomic Chess game is paused for want of play: /resume when it should go on";
        self.call(ctx.organiser, what);
        self.call_referees(what);
    }

    /// Ends a pause (a Referee's or the game's own) at `t`: it joins the game's pauses,
    /// which stop the running limits on the layer's clock, and turns no longer count as run
    /// out in a row.
    fn end_pause(&mut self, t: Timestamp) {
        if let Some(since) = self.paused.take() {
            self.pauses.push((since, t));
        }
        self.stalled = false;
        self.ran_out.clear();
    }

    /// A player acted: the game's own pause ends (a Referee's stays), and turns no longer
    /// count as run out in a row.
    fn unstall(&mut self, t: Timestamp) {
        if self.stalled {
            self.end_pause(t);
        }
        self.ran_out.clear();
    }

    // ----- votes ---------------------------------------------------------------------

    fn close_vote(&mut self, n: u32, t: Timestamp, lines: &mut Vec<String>, ctx: &Ctx<'_>) {
        let Some(i) = self.proposals.iter().position(|p| p.n == n) else {
            return;
        };
        let p = self.proposals[i].clone();
        let cast: Vec<bool> = p.votes.iter().flatten().copied().collect();
        let yes = cast.iter().filter(|&&v| v).count();
        let no = cast.len() - yes;
        let missing = self
            .voters()
            .into_iter()
            .filter(|&v| p.votes[v].is_none())
            .count();
        let adopted = 2 * yes > cast.len();
        let tally = format!("{yes} for, {no} against, {missing} not cast");
        if adopted {
            let rule = match &p.change {
                Change::Enact => Some(self.rules.enact(p.number, &p.text, p.immutable, n)),
                Change::Amend(r, text) => {
                    self.rules.amend(*r, text, n);
                    Some(*r)
                }
                Change::Repeal(r) => {
                    self.rules.repeal(*r, n);
                    Some(*r)
                }
            };
            self.proposals[i].standing = Standing::Adopted(rule);
            let what = match (&p.change, rule) {
                (Change::Enact, Some(r)) => format!("; it is rule {r}"),
                (Change::Amend(..), Some(r)) => format!("; rule {r} is amended"),
                (Change::Repeal(_), Some(r)) => format!("; rule {r} is repealed"),
                _ => String::new(),
            };
            lines.push(format!("Proposal {n} is adopted ({tally}){what}."));
            self.takes_effect(&p, rule, lines);
            self.after_proposal(p.held, t, lines, ctx);
        } else {
            self.proposals[i].standing = Standing::Defeated;
            lines.push(format!("Proposal {n} is defeated ({tally})."));
            let author = ctx.players.iter().position(|u| *u == p.author);
            match author {
                Some(a) if !self.demotable(a).is_empty() && !self.pos.forfeited[a] => {
                    self.demotion = Some(Demotion {
                        author: a,
                        proposal: n,
                        since: t,
                        referee: false,
                        held: p.held,
                    });
                    lines.push(format!(
                        "{} must demote one of their non-king pieces: /demote square:<half>:<sq>.",
                        ctx.players[a]
                    ));
                }
                Some(a) => {
                    lines.push(format!("{} has no piece to demote.", ctx.players[a]));
                    self.after_proposal(p.held, t, lines, ctx);
                }
                None => self.after_proposal(p.held, t, lines, ctx),
            }
        }
    }

    /// An adopted change takes effect at the close of its vote (§6.9): a change to the time
    /// limits of rule 206 is enforced at once; any other change the bot cannot enforce, and
    /// the Referees are called on to apply it.
    fn takes_effect(&mut self, p: &Proposal, rule: Option<u32>, lines: &mut Vec<String>) {
        let Some(r) = rule else {
            return;
        };
        match &p.change {
            Change::Amend(206, text) => {
                if let Some((one, three)) = limits_of(text) {
                    self.settings.part1_limit = one;
                    self.settings.part3_limit = three;
                    self.rules.set_enforced(206, true);
                    lines.push(format!(
                        "Rule 206 takes effect now: part 1 has {}, part 3 has {} (from the next part that begins).",
                        limit_text(one),
                        limit_text(three)
                    ));
                    return;
                }
            }
            Change::Repeal(206) => {
                self.settings.part1_limit = NO_LIMIT;
                self.settings.part3_limit = NO_LIMIT;
                lines.push(
                    "Rule 206 is repealed: parts 1 and 3 have no time limit from now.".into(),
                );
                return;
            }
            _ => {}
        }
        let what = match &p.change {
            Change::Enact => format!(
                "rule {r} is enacted (proposal {}) and the bot cannot enforce it: apply it from now on, correcting the game with /edit, /assign, /order or /set, and /pause play if needed",
                p.n
            ),
            Change::Amend(..) => format!(
                "rule {r} is amended (proposal {}) and the bot cannot enforce its new text{}: apply it as it now reads (/rules number:{r}), correcting the game with /edit, /assign, /order or /set, and /pause play if needed",
                p.n,
                if r == 206 {
                    " (it names no time limits the bot can read)"
                } else {
                    "; the bot still plays the rule as it first read"
                }
            ),
            Change::Repeal(_) => format!(
                "rule {r} is repealed (proposal {}){}: correct the game with /edit, /assign, /order or /set where it no longer applies",
                p.n,
                if super::rules::enforced_at_start(r) {
                    " but the bot still plays the rule as it first read"
                } else {
                    "; stop applying it"
                }
            ),
        };
        lines.push(format!(
            "Rule {r} is referee-enforced: the Referees are asked to apply the change."
        ));
        self.call_referees(&format!("Referees: {what}"));
    }

    /// After a proposal is settled: a held one releases the turn's clock; else the turn
    /// ends.
    fn after_proposal(&mut self, held: bool, t: Timestamp, lines: &mut Vec<String>, ctx: &Ctx<'_>) {
        self.demotion = None;
        if held {
            if let Some(since) = self.held.take() {
                self.holds.push((since, t));
            }
        } else {
            self.end_turn(t, lines, ctx);
        }
    }

    /// Squares of the non-king pieces of armies a player controls.
    fn demotable(&self, player: usize) -> Vec<Local> {
        let armies = self.pos.armies_of(player);
        self.pos
            .pieces()
            .into_iter()
            .filter(|(_, p)| p.kind != Kind::King && armies.contains(&p.army))
            .map(|(l, _)| l)
            .collect()
    }
}

fn running_name(which: Running) -> &'static str {
    match which {
        Running::Vote(_) => "the vote",
        Running::Demotion => "the demotion",
        Running::Turn => "the turn's part",
    }
}

/// Parses a move as written (`Nb1-c3`, `e2xd3`, `e7-e8=Q`, `0-0`): (piece letter, from, to,
/// promotion) or castling.
/// A move as read: piece letter, from, to, promotion, castling.
type Written = (Option<Kind>, (u8, u8), (u8, u8), Option<Kind>, Special);

fn parse_move(text: &str) -> Option<Written> {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    match t {
        "0-0" | "O-O" => return Some((None, (0, 0), (0, 0), None, Special::CastleKing)),
        "0-0-0" | "O-O-O" => return Some((None, (0, 0), (0, 0), None, Special::CastleQueen)),
        _ => {}
    }
    let mut s = t;
    let mut letter = None;
    let mut c = s.chars();
    let (first, second) = (c.next()?, c.next());
    // A piece letter, upper case, or lower case where no file letter could be meant (a file
    // letter is followed by its rank: `nb1-c3` is the knight, `b1-c3` the pawn).
    if first.is_ascii_uppercase()
        || (first.is_ascii_lowercase() && second.is_some_and(|c| c.is_ascii_lowercase()))
    {
        letter = Some(Kind::from_letter(first.to_ascii_uppercase())?);
        s = &s[1..];
    }
    let (body, promo) = match s.split_once('=') {
        Some((b, p)) => {
            let mut pc = p.chars();
            let k = Kind::from_letter(pc.next()?.to_ascii_uppercase())?;
            if pc.next().is_some() {
                return None;
            }
            (b, Some(k))
        }
        None => (s, None),
    };
    // The separator may be left out (`e2e4`): the to-square starts at the next letter.
    let (from, to) = match body.find(['-', 'x']) {
        Some(sep) => (&body[..sep], &body[sep + 1..]),
        None => body.split_at(body.get(1..)?.find(|c: char| c.is_ascii_alphabetic())? + 1),
    };
    let from = parse_square(from, 8)?;
    let to = parse_square(to, 8)?;
    Some((letter, from, to, promo, Special::Plain))
}

/// A move written with upper-case square letters (`E2-E4`, `NB1-C3`, `D2XE3`: a capture mark
/// between two squares too) as it reads with them in lower case, if it then reads.
fn lower_squares(text: &str) -> Option<String> {
    let c: Vec<char> = text.trim().chars().collect();
    let out: String = c
        .iter()
        .enumerate()
        .map(|(i, &ch)| {
            let before_digit = c.get(i + 1).is_some_and(char::is_ascii_digit);
            let capture = ch == 'X'
                && i > 0
                && c.get(i - 1).is_some_and(char::is_ascii_digit)
                && c.get(i + 1).is_some_and(char::is_ascii_alphabetic);
            if (('A'..='H').contains(&ch) && before_digit) || capture {
                ch.to_ascii_lowercase()
            } else {
                ch
            }
        })
        .collect();
    (out != text.trim() && parse_move(&out).is_some()).then_some(out)
}

/// A move in short algebraic (`e4`, `Nf3`, `Nxf3`): the piece letter (`None`: a pawn) and the
/// to-square.
fn short_algebraic(text: &str) -> Option<(Option<Kind>, (u8, u8))> {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let mut c = t.chars();
    let first = c.next()?;
    let (letter, rest) = if first.is_ascii_uppercase() {
        (Some(Kind::from_letter(first)?), c.as_str())
    } else {
        (None, t)
    };
    let rest = rest.strip_prefix('x').unwrap_or(rest);
    Some((letter, parse_square(rest, 8)?))
}

/// Reads `Q1` (a piece letter and an army).
pub fn parse_piece(text: &str, n: usize) -> Option<(Kind, usize)> {
    let mut c = text.trim().chars();
    let k = Kind::from_letter(c.next()?.to_ascii_uppercase())?;
    let a: usize = c.as_str().parse().ok()?;
    (1..=n).contains(&a).then(|| (k, a - 1))
}

/// What a proposal's text does: `Repeal rule N`, `Amend rule N to read: …`, or an enactment.
pub fn change_of(text: &str) -> Change {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let number_after = |word: &str| -> Option<(u32, usize)> {
        let rest = lower.strip_prefix(word)?;
        let rest_trim = rest.trim_start();
        let rest_trim = rest_trim
            .strip_prefix("rule")
            .unwrap_or(rest_trim)
            .trim_start();
        let digits: String = rest_trim.chars().take_while(char::is_ascii_digit).collect();
        let n: u32 = digits.parse().ok()?;
        let consumed = lower.len() - rest_trim.len() + digits.len();
        Some((n, consumed))
    };
    if let Some((n, _)) = number_after("repeal") {
        return Change::Repeal(n);
    }
    if let Some((n, at)) = number_after("amend") {
        let rest = &t[at..];
        let body = match rest.to_ascii_lowercase().find("to read:") {
            Some(i) => rest[i + "to read:".len()..].trim(),
            None => rest.trim_start_matches([':', ',', '.', ' ']).trim(),
        };
        return Change::Amend(n, body.to_string());
    }
    Change::Enact
}

/// Applies one action by `actor` at `t`: the reply's lines, or a refusal. A `/move` is stored
/// as echoed (`notation` becomes the canonical move text).
fn fold(
    st: &mut State,
    ctx: &Ctx<'_>,
    actor: &str,
    action: &mut Action,
    t: Timestamp,
) -> Result<Vec<String>, Refusal> {
    st.calls.clear();
    st.mated.clear();
    let mut woke = false;
    if ctx.players.iter().any(|p| p == actor)
        && !matches!(action, Action::Start { .. } | Action::Resume)
    {
        // A player's action: turns no longer run out in a row, and a game paused for want
        // of play resumes (if the action is refused, this state is dropped with it).
        woke = st.stalled;
        st.unstall(t);
    }
    let mut f = Fold::new(st, ctx, actor, t);
    if woke {
        f.lines.push(
            "Play resumes (the game was paused for want of play); the limits run from now.".into(),
        );
    }
    match action {
        Action::Start { position, order } => f.start(position.as_deref(), order)?,
        Action::Push { join } => f.push(*join)?,
        Action::Move { notation } => f.move_on_j(notation)?,
        Action::Done => f.done()?,
        Action::Take { army } => f.take(*army, true)?,
        Action::Decline { army } => f.take(*army, false)?,
        Action::Propose {
            text,
            number,
            immutable,
        } => f.propose(text, *number, *immutable)?,
        Action::Vote { proposal, choice } => f.vote(*proposal, *choice)?,
        Action::Demote { square } => f.demote(*square)?,
        Action::Forfeit => f.forfeit()?,
        Action::Judgment { question, partisan } => f.judgment(question, partisan)?,
        Action::Judge { judgment, text } => f.judge(*judgment, text)?,
        Action::Overrule { judgment } => f.overrule(*judgment)?,
        Action::Pause => f.pause()?,
        Action::Resume => f.resume()?,
        Action::Substitute(h) => {
            // The incoming player starts with a fresh limit (RULINGS §9).
            if f.st.current_player() == Some(h.seat) && f.st.paused.is_none() {
                f.st.clock = f.t;
            }
            f.lines
                .push(format!("@{} plays @{}'s seat from now on.", h.to, h.from));
        }
        Action::Assign { army, player } => f.assign(*army, *player)?,
        Action::Edit(edit) => f.edit(edit)?,
        Action::Order { order } => f.order(order)?,
        Action::Set { key, value } => f.set(key, value)?,
        Action::Void { proposal } => f.void(*proposal)?,
        Action::Fix { proposal, text } => f.fix(*proposal, text)?,
        Action::Referee { add, user } => f.referees(*add, user)?,
        Action::Takeback { .. } | Action::Revert { .. } => {}
    }
    Ok(f.lines)
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

impl<'a> Fold<'a> {
    fn new(st: &'a mut State, ctx: &'a Ctx<'a>, actor: &'a str, t: Timestamp) -> Fold<'a> {
        let player = ctx.players.iter().position(|u| u == actor);
        let referee = st.is_referee(actor);
        let n = st.pos.players();
        Fold {
            st,
            ctx,
            actor,
            player,
            referee,
            n,
            t,
            lines: Vec::new(),
        }
    }

    // ----- shared checks -------------------------------------------------------------

    /// Refuses unless the actor is a Referee.
    fn need_referee(&self, what: &str) -> Result<(), Refusal> {
        if self.referee {
            Ok(())
        } else {
            refuse(format!("only a Referee may {what}"))
        }
    }

    /// Refuses once the game is over, or while a Referee has paused play.
    fn in_play(&self) -> Result<(), Refusal> {
        if self.st.over {
            return refuse(match self.st.winner {
                Some(w) => format!(
                    "the game is over: {} won; no more game actions",
                    self.ctx.players[w]
                ),
                None => "the game is over".into(),
            });
        }
        if self.st.paused.is_some() {
            return refuse("play is paused by a Referee; wait for /resume");
        }
        Ok(())
    }

    /// The player whose turn it is, checked to be the actor.
    fn turn_player(&self) -> Result<usize, Refusal> {
        self.in_play()?;
        let Some(p) = self.player else {
            return refuse("you are not a player in this game");
        };
        if self.st.pos.forfeited[p] {
            return refuse("you have forfeited the game");
        }
        match self.st.current_player() {
            Some(c) if c == p => Ok(p),
            Some(c) => refuse(format!("it is {}'s turn, not yours", self.ctx.players[c])),
            None => refuse("no one's turn: the game waits for a Referee"),
        }
    }

    /// The player whose turn it is and the army they move, checked.
    fn mover(&self) -> Result<(usize, usize), Refusal> {
        let p = self.turn_player()?;
        let Slot::Army(army) = self.st.pos.turn.slot else {
            return refuse("an undead player does not move; /propose or /done");
        };
        Ok((p, army))
    }

    /// The actor holds the organiser role, or created the game.
    fn organiser(&self) -> bool {
        self.ctx.organiser_role || self.actor == self.ctx.organiser
    }

    /// The index of a proposal a Referee acts on, checked to be open.
    fn open_proposal(&self, proposal: u32) -> Result<usize, Refusal> {
        let Some(i) = self.st.proposals.iter().position(|x| x.n == proposal) else {
            return refuse(format!("there is no proposal {proposal}"));
        };
        if self.st.proposals[i].standing != Standing::Open {
            return refuse(format!("proposal {proposal} is not open"));
        }
        Ok(i)
    }

    // ----- the state's steps, reported in the reply -----------------------------------

    fn update_living(&mut self) {
        self.st.update_living(&mut self.lines, self.ctx);
    }

    fn enter_part2(&mut self) {
        self.st.enter_part2(self.t, &mut self.lines, self.ctx);
    }

    fn end_turn(&mut self) {
        self.st.end_turn(self.t, &mut self.lines, self.ctx);
    }

    fn after_proposal(&mut self, held: bool) {
        self.st
            .after_proposal(held, self.t, &mut self.lines, self.ctx);
    }

    fn close_vote(&mut self, proposal: u32) {
        self.st
            .close_vote(proposal, self.t, &mut self.lines, self.ctx);
    }

    fn offers_withdrawn(&mut self) {
        self.st.offers_withdrawn(self.t, &mut self.lines, self.ctx);
    }

    /// A mated army passes, the mover `p` moving (Nomic rules 6.6).
    fn pass_control(&mut self, army: usize, to: Option<usize>, p: usize) {
        self.st
            .pass_control(army, to, Some(p), &mut self.lines, self.ctx);
    }

    /// With no turn running, the first playable army's turn begins.
    fn start_first(&mut self) {
        let first = self.st.first_playable(0).map(Slot::Army);
        self.st.start_slot(first, self.t, &mut self.lines, self.ctx);
    }

    // ----- the actions ----------------------------------------------------------------

    /// The game begins, from a position text or with the Order drawn, and the first turn
    /// with it (Nomic rules 6.7, 6.10).
    fn start(&mut self, position: Option<&str>, order: &[usize]) -> Result<(), Refusal> {
        if let Some(text) = position {
            let pos = Position::from_text(text).map_err(|e| e.to_string())?;
            if pos.players() != self.n {
                return refuse("the position has a different number of half-boards");
            }
            self.st.pos = pos;
        } else {
            self.st.pos.order = order.to_vec();
        }
        let (st, ctx, t) = (&mut *self.st, self.ctx, self.t);
        st.clock = t;
        st.now = t;
        // The start reports nothing.
        let mut none = Vec::new();
        st.update_living(&mut none, ctx);
        if !st.over {
            match st.pos.turn.slot {
                Slot::Idle => {
                    let first = st.first_playable(0).map(Slot::Army);
                    st.start_slot(first, t, &mut none, ctx);
                }
                Slot::Army(a) if st.pos.turn.part == 1 && st.pos.turn.s.iter().all(|s| !s) => {
                    st.pos.turn.s = st.pos.halves_of(a);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// `/push`: two halves pushed together for the mover's army; every other side's king
    /// attacked on J is mated at once (Nomic rules 6.2, 6.4, 6.5).
    fn push(&mut self, join: Join) -> Result<(), Refusal> {
        let (p, army) = self.mover()?;
        let pos = &self.st.pos;
        if pos.turn.part != 1 {
            return refuse(format!(
                "part 1 is over (it is part {}); pushes are made in part 1",
                pos.turn.part
            ));
        }
        if let Some(j) = pos.turn.join {
            return refuse(format!(
                "you have pushed {} already; now /move on it",
                j.text()
            ));
        }
        if let Some(why) = pos.push_blocked(join, army) {
            return refuse(format!("push refused: {why}"));
        }
        let moves = pos.budget_moves(join, army, self.st.rules());
        let b = pos.joined(join);
        let attacked = pos.attacked_kings(&b, join);
        let own: Vec<((u8, u8), usize)> = attacked
            .iter()
            .copied()
            .filter(|&(_, y)| pos.same_side(y, army))
            .collect();
        if moves.is_empty() && own.is_empty() {
            return refuse(format!(
                "push refused: army {} would have no legal move on {} (try another push)",
                army + 1,
                join.text()
            ));
        }
        self.lines.push(format!(
            "{} pushes {} (bottom) and {} (top) together for army {}.",
            self.ctx.players[p],
            half_letter(join.bottom),
            half_letter(join.top),
            army + 1
        ));
        self.st.pos.turn.join = Some(join);
        // 217: every other side's attacked king is checkmated at once.
        for &(sq, y) in &attacked {
            if !self.st.pos.same_side(y, army) {
                let to = self.st.pos.entitled(&b, join, sq, y);
                self.lines.push(format!(
                    "Army {}'s king is attacked at the push (217).",
                    y + 1
                ));
                self.pass_control(y, to, p);
                if self.st.over {
                    return Ok(());
                }
            }
        }
        if moves.is_empty() {
            // The mover's own king attacked with no move to end it: that army is mated.
            for &(sq, y) in &own {
                let to = self.st.pos.entitled(&b, join, sq, y);
                self.lines.push(format!(
                    "Army {}'s king is attacked and no move ends the attack.",
                    y + 1
                ));
                self.pass_control(y, to, p);
                if self.st.over {
                    return Ok(());
                }
            }
            self.lines.push(format!("Army {}'s turn ends.", army + 1));
            self.end_turn();
        } else if !own.is_empty() {
            self.lines
                .push("Your king is attacked: the move must end the attack.".into());
        }
        Ok(())
    }

    /// `/move`: a move on the pushed board J, stored as echoed; enemy kings left without an
    /// answer on J are mated (Nomic rules 6.3–6.5).
    fn move_on_j(&mut self, notation: &mut String) -> Result<(), Refusal> {
        let (p, army) = self.mover()?;
        if self.st.pos.turn.part != 1 {
            return refuse(format!(
                "part 1 is over (it is part {})",
                self.st.pos.turn.part
            ));
        }
        let Some(join) = self.st.pos.turn.join else {
            return refuse("push two half-boards together first: /push bottom:<half> top:<half>");
        };
        let rules = self.st.rules();
        let on = OnJ {
            join,
            army,
            b: self.st.pos.joined(join),
            legal: self.st.pos.budget_moves(join, army, rules),
        };
        let mv = on.read(&self.st.pos, notation)?;
        let canon = move_text(&on.b, mv);
        let pos = &mut self.st.pos;
        let involves = pos.involves(join, mv);
        let lfrom = join.local(mv.from.0, mv.from.1);
        let lto = join.local(mv.to.0, mv.to.1);
        pos.make(join, mv);
        for h in involves {
            pos.turn.involved[h] = true;
        }
        pos.turn.join = None;
        let after = pos.joined(join);
        let attacked = pos.attacked_kings(&after, join);
        let check = attacked.iter().any(|&(_, y)| !pos.same_side(y, army));
        let echo = format!("{canon}{}", if check { "+" } else { "" });
        self.lines.push(format!(
            "Army {} ({}) {echo} ({} → {})",
            army + 1,
            self.ctx.players[p],
            lfrom.name(),
            lto.name()
        ));
        self.st.last = Some(LastMove {
            join,
            from: mv.from,
            to: mv.to,
            text: format!("{echo} ({} → {})", lfrom.name(), lto.name()),
        });
        *notation = canon;
        for (sq, y) in attacked {
            if !self.st.pos.same_side(y, army) && !self.st.pos.side_can_move(join, y, rules) {
                let to = self.st.pos.entitled(&after, join, sq, y);
                self.pass_control(y, to, p);
                if self.st.over {
                    return Ok(());
                }
            }
        }
        if self.st.current_player() != Some(p) {
            self.lines.push(format!("Army {}'s turn ends.", army + 1));
            self.end_turn();
        } else if !self.st.pos.has_any_move(army, rules) {
            self.enter_part2();
        }
        Ok(())
    }

    /// `/done`: the current part ends; the first move of a turn is compulsory (Nomic rules
    /// 6.4, 6.8, 6.10a).
    fn done(&mut self) -> Result<(), Refusal> {
        let _ = self.turn_player()?;
        match (self.st.pos.turn.slot, self.st.pos.turn.part) {
            (Slot::Army(a), 1) => {
                let moved = self.st.pos.turn.involved.iter().any(|&x| x);
                if !moved && self.st.pos.has_any_move(a, self.st.rules()) {
                    return refuse("the first move of a turn is compulsory (push and /move; /moves lists them)");
                }
                self.lines.push(format!("Army {} stops moving.", a + 1));
                self.enter_part2();
            }
            (Slot::Army(_), 2) => {
                return refuse("answer each offer with /take army:<n> or /decline army:<n>");
            }
            _ => {
                if self.st.open_vote().is_some() {
                    return refuse("the vote is open; the turn ends when it closes");
                }
                if self.st.demotion.is_some() {
                    return refuse("a demotion is waited for (/demote)");
                }
                self.lines.push("The turn ends.".into());
                self.end_turn();
            }
        }
        Ok(())
    }

    /// `/take` (or, `take` false, `/decline`): the mover answers an army offered in part 2
    /// (Nomic rules 6.6).
    fn take(&mut self, army: usize, take: bool) -> Result<(), Refusal> {
        let p = self.turn_player()?;
        let offers = &self.st.pos.offers;
        if self.st.pos.turn.part == 1 && offers.contains(&army) {
            return refuse(format!(
                "Take comes in part 2, after the move: finish part 1 first (push and /move, or /done once you have moved), then /{} army:{}",
                if take { "take" } else { "decline" },
                army + 1
            ));
        }
        if self.st.pos.turn.part != 2 || !offers.contains(&army) {
            let offers: Vec<String> = offers.iter().map(|a| (a + 1).to_string()).collect();
            return refuse(if offers.is_empty() {
                "no army is offered to you now".to_string()
            } else {
                format!(
                    "army {} is not offered to you; offered: {}",
                    army + 1,
                    offers.join(", ")
                )
            });
        }
        self.st.pos.offers.retain(|&a| a != army);
        if take {
            self.st.pos.controllers[army] = Some(p);
            self.lines
                .push(format!("{} takes army {}.", self.ctx.players[p], army + 1));
            self.update_living();
        } else {
            self.lines.push(format!(
                "{} declines army {}; it stays with its controller.",
                self.ctx.players[p],
                army + 1
            ));
        }
        if !self.st.over && self.st.pos.offers.is_empty() {
            self.enter_part2();
        }
        Ok(())
    }

    /// `/propose`: a rule-change, opened to the vote (Nomic rules 6.8, 6.9).
    fn propose(&mut self, text: &str, number: Option<u32>, immutable: bool) -> Result<(), Refusal> {
        let held = self.may_propose(immutable)?;
        let len = text.chars().count();
        if text.trim().is_empty() {
            return refuse("write the rule-change: /propose text:<text>");
        }
        if len > self.st.settings.proposal_max {
            return refuse(format!(
                "the proposal is {len} characters long; at most {} are allowed",
                self.st.settings.proposal_max
            ));
        }
        let change = change_of(text);
        self.may_change(&change, immutable)?;
        let (actor, t) = (self.actor, self.t);
        let pn = self.st.proposals.len() as u32 + 1;
        self.st.proposals.push(Proposal {
            n: pn,
            author: actor.to_string(),
            text: text.to_string(),
            number,
            immutable,
            change: change.clone(),
            votes: vec![None; self.n],
            standing: Standing::Open,
            opened: t,
            fixes: Vec::new(),
            held,
        });
        if held {
            self.st.held = Some(t);
        } else {
            self.st.proposed = true;
        }
        let what = match &change {
            Change::Enact => match number {
                Some(k) => format!("enacts a rule (number {k} asked)"),
                None => "enacts a rule".into(),
            },
            Change::Amend(r, _) => format!("amends rule {r}"),
            Change::Repeal(r) => format!("repeals rule {r}"),
        };
        self.lines.push(format!(
            "proposal {pn} by {actor} {what}: {text}\nVote with /vote proposal:{pn} choice:for|against (open {}).",
            format_duration(self.st.settings.vote_limit)
        ));
        Ok(())
    }

    /// Whether the actor may propose now: in part 3 of their turn (or their undead slot),
    /// or as a Referee at any time, which holds the turn's clock (the answer: held).
    fn may_propose(&self, immutable: bool) -> Result<bool, Refusal> {
        self.in_play()?;
        if immutable && !self.referee {
            return refuse("only a Referee may propose a change to an immutable rule (113)");
        }
        if self.st.open_vote().is_some() {
            return refuse("a vote is open; wait for it to close");
        }
        if self.st.demotion.is_some() {
            return refuse("a demotion is waited for (/demote)");
        }
        let mine = self.player.is_some() && self.st.current_player() == self.player;
        let in_part3 =
            matches!(self.st.pos.turn.slot, Slot::Undead(_)) || self.st.pos.turn.part == 3;
        if mine && in_part3 {
            if self.st.proposed {
                return refuse("you have proposed already this turn");
            }
            Ok(false)
        } else if self.referee {
            Ok(true)
        } else if mine {
            refuse(format!(
                "proposals are made in part 3 (it is part {}; /done ends the current part)",
                self.st.pos.turn.part
            ))
        } else {
            let _ = self.turn_player()?;
            refuse("you may propose only in part 3 of your turn")
        }
    }

    /// Refuses a change to a rule that does not exist, is repealed, or is immutable when
    /// the proposal is not marked immutable (Nomic rules 6.9).
    fn may_change(&self, change: &Change, immutable: bool) -> Result<(), Refusal> {
        match change {
            Change::Amend(r, _) | Change::Repeal(r) => match self.st.rules.get(*r) {
                None => refuse(format!("there is no rule {r}")),
                Some(rule) if rule.repealed.is_some() => {
                    refuse(format!("rule {r} is repealed already"))
                }
                Some(rule) if rule.immutable && !immutable => refuse(format!(
                    "rule {r} is immutable; only a Referee may propose changing it (immutable:true)"
                )),
                Some(_) => Ok(()),
            },
            Change::Enact => Ok(()),
        }
    }

    /// `/vote`: a player's vote on the open proposal, closing it once everyone has voted
    /// (Nomic rules 6.9).
    fn vote(&mut self, proposal: u32, choice: bool) -> Result<(), Refusal> {
        self.in_play()?;
        let Some(p) = self.player else {
            return refuse("only players vote");
        };
        if self.st.pos.forfeited[p] {
            return refuse("you have forfeited the game");
        }
        let Some(i) = self.st.proposals.iter().position(|x| x.n == proposal) else {
            return refuse(format!("there is no proposal {proposal}"));
        };
        if self.st.proposals[i].standing != Standing::Open {
            return refuse(format!("the vote on proposal {proposal} is closed"));
        }
        if self.st.proposals[i].votes[p].is_some() {
            return refuse(format!("you have voted on proposal {proposal} already"));
        }
        self.st.proposals[i].votes[p] = Some(choice);
        let actor = self.actor;
        self.lines.push(format!(
            "{actor} votes {} proposal {proposal}.",
            if choice { "for" } else { "against" }
        ));
        let all = self
            .st
            .voters()
            .iter()
            .all(|&v| self.st.proposals[i].votes[v].is_some());
        if all {
            self.lines.push("Everyone has voted.".into());
            self.close_vote(proposal);
        }
        Ok(())
    }

    /// `/demote`: the defeated author (or, once the part-3 limit has passed, a Referee)
    /// demotes one non-king piece (Nomic rules 6.9).
    fn demote(&mut self, square: Local) -> Result<(), Refusal> {
        self.in_play()?;
        let Some(d) = self.st.demotion.clone() else {
            return refuse("no demotion is waited for");
        };
        let author = &self.ctx.players[d.author];
        let may = self.player == Some(d.author) || (self.referee && d.referee);
        if !may {
            return refuse(if self.referee {
                format!(
                    "{author} chooses first; a Referee chooses once the part-3 limit has passed"
                )
            } else {
                format!("only {author} demotes now")
            });
        }
        let ok = self.st.demotable(d.author);
        if !ok.contains(&square) {
            let list: Vec<String> = ok.iter().map(|l| l.name()).collect();
            return refuse(format!(
                "{} holds no non-king piece of an army {author} controls; choose one of: {}",
                square.name(),
                list.join(" ")
            ));
        }
        let Some(mut piece) = self.st.pos.at(square) else {
            return refuse("no piece there");
        };
        let was = piece.kind;
        match super::position::demoted(was) {
            Some(k) => {
                piece.kind = k;
                piece.moved = true;
                self.st.pos.set(square, Some(piece));
                self.lines.push(format!(
                    "The {} on {} is demoted to a {}.",
                    was.lower_name(),
                    square.name(),
                    k.lower_name()
                ));
            }
            None => {
                self.st.pos.set(square, None);
                self.lines.push(format!(
                    "The pawn on {} is demoted off the board.",
                    square.name()
                ));
            }
        }
        self.after_proposal(d.held);
        Ok(())
    }

    /// `/forfeit`: the actor leaves the game; their armies are skipped until a Referee
    /// assigns them (Nomic rules 6.10a).
    fn forfeit(&mut self) -> Result<(), Refusal> {
        if self.st.over {
            return refuse("the game is over");
        }
        let Some(p) = self.player else {
            return refuse("you are not a player in this game");
        };
        if self.st.pos.forfeited[p] {
            return refuse("you have forfeited already");
        }
        let current = self.st.current_player() == Some(p);
        self.st.pos.forfeited[p] = true;
        self.st.pos.infected.retain(|&x| x != p);
        let actor = self.actor;
        self.lines.push(format!(
            "{actor} forfeits the game; the Referees decide what happens to their armies (/assign), which are skipped until then."
        ));
        if self.st.demotion.as_ref().is_some_and(|d| d.author == p) {
            let held = self.st.demotion.as_ref().is_some_and(|d| d.held);
            self.after_proposal(held);
        }
        self.update_living();
        if !self.st.over {
            if let Some(i) = self
                .st
                .proposals
                .iter()
                .position(|x| x.standing == Standing::Open)
            {
                let pn = self.st.proposals[i].n;
                if self
                    .st
                    .voters()
                    .iter()
                    .all(|&v| self.st.proposals[i].votes[v].is_some())
                {
                    self.close_vote(pn);
                }
            } else if current && self.st.demotion.is_none() {
                self.st.pos.offers.clear();
                self.end_turn();
            }
        }
        // The Referees must act: they are pinged (the reply's line alone pinged nobody).
        if !self.st.over {
            let armies: Vec<String> = self
                .st
                .pos
                .controllers
                .iter()
                .enumerate()
                .filter(|(_, c)| **c == Some(p))
                .map(|(a, _)| (a + 1).to_string())
                .collect();
            let which = match armies.as_slice() {
                [] => "their armies".to_string(),
                [one] => format!("army {one}"),
                many => format!("armies {}", many.join(", ")),
            };
            self.st.call_referees(&format!(
                "{actor} forfeited: decide what happens to {which} with /assign army:<n> to:@player (skipped until then)"
            ));
        }
        Ok(())
    }

    /// `/judgment`: a player or Referee opens a question for the Referees to judge
    /// (Nomic rules 6.10).
    fn judgment(&mut self, question: &str, partisan: &[String]) -> Result<(), Refusal> {
        if self.player.is_none() && !self.referee {
            return refuse("only players and Referees invoke Judgment");
        }
        if question.trim().is_empty() {
            return refuse("ask the question: /judgment question:<text>");
        }
        let actor = self.actor;
        let mut part: Vec<String> = Vec::new();
        if self.player.is_some() {
            part.push(actor.to_string());
        }
        for u in partisan.iter().chain(self.st.settings.referees.iter()) {
            if self.ctx.players.contains(u) && !part.contains(u) {
                part.push(u.clone());
            }
        }
        let jn = self.st.judgments.len() as u32 + 1;
        self.lines.push(format!(
            "judgment {jn} opened by {actor}: {question} (partisan: {})",
            part.join(", ")
        ));
        self.st.judgments.push(Judgment {
            n: jn,
            question: question.to_string(),
            by: actor.to_string(),
            partisan: part,
            rulings: Vec::new(),
            standing: false,
            overrule: Vec::new(),
            barred: Vec::new(),
        });
        self.st.call_judges(jn, self.ctx);
        Ok(())
    }

    /// `/judge`: a Referee's ruling on a Judgment, or the organiser's once every Referee has
    /// judged it and been overruled (Nomic rules 6.10).
    fn judge(&mut self, judgment: u32, text: &str) -> Result<(), Refusal> {
        let organiser = self.organiser();
        let (actor, referee) = (self.actor, self.referee);
        let Some(i) = self.st.judgments.iter().position(|j| j.n == judgment) else {
            if !referee {
                self.need_referee("judge")?;
            }
            return refuse(format!("there is no judgment {judgment}"));
        };
        let referees = &self.st.settings.referees;
        let j = &mut self.st.judgments[i];
        // Once every Referee has judged it and been overruled, the organiser judges.
        let by_organiser = organiser && referees.iter().all(|r| j.barred.contains(r));
        if !referee && !by_organiser {
            return refuse(if organiser {
                format!("only a Referee may judge; the organiser judges judgment {judgment} only once every Referee has judged it and been overruled")
            } else {
                "only a Referee may judge".to_string()
            });
        }
        if j.standing {
            return refuse(format!(
                "judgment {judgment} stands; it can be judged again only once overruled"
            ));
        }
        if j.barred.iter().any(|r| r == actor) && !by_organiser {
            return refuse(format!("you judged judgment {judgment} before and were overruled; another Referee judges it"));
        }
        if text.trim().is_empty() {
            return refuse("write the Judgment: /judge judgment:<n> text:<text>");
        }
        j.rulings.push((actor.to_string(), text.to_string()));
        j.standing = true;
        j.overrule.clear();
        self.lines.push(format!(
            "judgment {judgment}: {actor} rules: {text} (it has the force of an immutable rule; non-partisan players may /overrule judgment:{judgment})"
        ));
        Ok(())
    }

    /// `/overrule`: a non-partisan player's vote to overrule a standing Judgment; a unanimous
    /// vote overrules it and calls on another judge (Nomic rules 6.10).
    fn overrule(&mut self, judgment: u32) -> Result<(), Refusal> {
        let Some(p) = self.player else {
            return refuse("only players may overrule");
        };
        if self.st.pos.forfeited[p] {
            return refuse("you have forfeited the game");
        }
        let actor = self.actor;
        let voters: Vec<String> = (0..self.n)
            .filter(|&q| !self.st.pos.forfeited[q])
            .map(|q| self.ctx.players[q].clone())
            .collect();
        let Some(j) = self.st.judgments.iter_mut().find(|j| j.n == judgment) else {
            return refuse(format!("there is no judgment {judgment}"));
        };
        if !j.standing {
            return refuse(format!(
                "judgment {judgment} has no standing ruling to overrule"
            ));
        }
        if j.partisan.iter().any(|u| u == actor) {
            return refuse(format!("you are partisan in judgment {judgment}"));
        }
        if j.overrule.iter().any(|u| u == actor) {
            return refuse("you have voted to overrule it already");
        }
        j.overrule.push(actor.to_string());
        self.lines
            .push(format!("{actor} votes to overrule judgment {judgment}."));
        let need: Vec<&String> = voters.iter().filter(|u| !j.partisan.contains(u)).collect();
        if need.iter().all(|u| j.overrule.contains(u)) {
            j.standing = false;
            if let Some((r, _)) = j.rulings.last() {
                let r = r.clone();
                if !j.barred.contains(&r) {
                    j.barred.push(r);
                }
            }
            j.overrule.clear();
            let who = self.st.call_judges(judgment, self.ctx);
            self.lines.push(format!(
                "Judgment {judgment} is overruled (unanimous); {who}."
            ));
        }
        Ok(())
    }

    /// `/pause`: a Referee pauses play (Nomic rules 6.10).
    fn pause(&mut self) -> Result<(), Refusal> {
        self.need_referee("pause play")?;
        if self.st.paused.is_some() {
            return refuse("play is paused already");
        }
        if self.st.over {
            return refuse("the game is over");
        }
        self.st.paused = Some(self.t);
        self.lines
            .push("Play is paused by a Referee; player actions are refused until /resume.".into());
        Ok(())
    }

    /// `/resume`: a Referee resumes play; the running limits are extended by the pause
    /// (Nomic rules 6.10).
    fn resume(&mut self) -> Result<(), Refusal> {
        if self.st.paused.is_none() {
            return refuse("play is not paused");
        }
        if self.st.stalled && self.organiser() {
            // The organiser resumes a game paused for want of play.
        } else {
            self.need_referee("resume play")?;
        }
        self.st.end_pause(self.t);
        self.lines
            .push("Play resumes; the running limits are extended by the pause.".into());
        Ok(())
    }

    /// `/assign`: a Referee gives an army to a player, such as a tied or forfeited player's
    /// army (Nomic rules 6.6, 6.10a).
    fn assign(&mut self, army: usize, to: usize) -> Result<(), Refusal> {
        self.need_referee("assign an army")?;
        if self.st.over {
            return refuse("the game is over");
        }
        if army >= self.n || to >= self.n {
            return refuse("no such army or player");
        }
        let name = &self.ctx.players[to];
        if self.st.pos.forfeited[to] {
            return refuse(format!("{name} has forfeited"));
        }
        if self.st.pos.controllers[army] != Some(to) {
            self.st.call(
                name,
                &format!("army {} is assigned to you: you play its turns", army + 1),
            );
        }
        self.st.pos.controllers[army] = Some(to);
        self.st.pos.offers.retain(|&a| a != army);
        self.lines
            .push(format!("Army {} is assigned to {name}.", army + 1));
        self.update_living();
        self.offers_withdrawn();
        if !self.st.over && self.st.pos.turn.slot == Slot::Idle {
            self.start_first();
        }
        Ok(())
    }

    /// `/edit …`: a Referee edits the position, a clock, the budget, a forfeit, a controller
    /// or the undead; a demotion the edit leaves nothing to do for is settled (Nomic rules
    /// 6.10).
    fn edit(&mut self, edit: &Edit) -> Result<(), Refusal> {
        self.need_referee("edit the game")?;
        match edit {
            Edit::Put { square, kind, army } => self.edit_put(*square, *kind, *army)?,
            Edit::Remove { square } => self.edit_remove(*square)?,
            Edit::Move { from, to } => self.edit_move(*from, *to)?,
            Edit::Position { text } => self.edit_position(text)?,
            Edit::Clock { add } => self.edit_clock(*add)?,
            Edit::ClockLeft { left } => self.edit_clock_left(*left)?,
            Edit::Controller { army, player } => self.edit_controller(*army, *player)?,
            Edit::Undead { order } => self.edit_undead(order)?,
            Edit::Budget { s, involved } => self.edit_budget(s, involved)?,
            Edit::Forfeited { player, on } => self.edit_forfeited(*player, *on)?,
        }
        self.demotion_settled();
        Ok(())
    }

    /// `/edit put`: a piece put on a square.
    fn edit_put(&mut self, square: Local, kind: Kind, army: usize) -> Result<(), Refusal> {
        if square.half >= self.n || army >= self.n {
            return refuse("no such half or army");
        }
        self.st.pos.set(
            square,
            Some(Piece {
                kind,
                army,
                moved: true,
            }),
        );
        self.lines.push(format!(
            "Edit: {}{} put on {}.",
            kind.letter(),
            army + 1,
            square.name()
        ));
        Ok(())
    }

    /// `/edit remove`: the piece on a square removed.
    fn edit_remove(&mut self, square: Local) -> Result<(), Refusal> {
        if self.st.pos.at(square).is_none() {
            return refuse(format!("{} is empty", square.name()));
        }
        self.st.pos.set(square, None);
        self.lines
            .push(format!("Edit: the piece on {} is removed.", square.name()));
        Ok(())
    }

    /// `/edit move`: a piece moved from one square to another.
    fn edit_move(&mut self, from: Local, to: Local) -> Result<(), Refusal> {
        let Some(p) = self.st.pos.at(from) else {
            return refuse(format!("{} is empty", from.name()));
        };
        if to.half >= self.n {
            return refuse("no such half");
        }
        self.st.pos.set(from, None);
        self.st.pos.set(to, Some(Piece { moved: true, ..p }));
        self.lines.push(format!(
            "Edit: the piece on {} moved to {}.",
            from.name(),
            to.name()
        ));
        Ok(())
    }

    /// `/edit position`: the whole position replaced from its text; another turn or part
    /// starts its limit now.
    fn edit_position(&mut self, text: &str) -> Result<(), Refusal> {
        let pos =
            Position::from_text(text).map_err(|e| format!("the position does not read: {e}"))?;
        let n = self.n;
        if pos.players() != n {
            return refuse(format!("the game has {n} half-boards"));
        }
        if (pos.turn.slot, pos.turn.part) != (self.st.pos.turn.slot, self.st.pos.turn.part) {
            // Another turn or part: its limit starts now.
            self.st.clock = self.t;
        }
        self.st.pos = pos;
        self.lines.push("Edit: the position is replaced.".into());
        self.update_living();
        Ok(())
    }

    /// `/edit clock add:`: the running limit gets more time.
    fn edit_clock(&mut self, add: u64) -> Result<(), Refusal> {
        let Some(which) = self.st.running() else {
            return refuse("no limit is running now");
        };
        self.st
            .move_limit(which, i64::try_from(add).unwrap_or(i64::MAX));
        self.lines.push(format!(
            "Edit: the running limit ({}) gets {} more.",
            running_name(which),
            format_duration(add)
        ));
        Ok(())
    }

    /// `/edit clock left:`: the time left on the running limit, from now or, while paused,
    /// from the resumption: the limit's start is put where the layer's clock has `left` of
    /// it remain now.
    fn edit_clock_left(&mut self, left: u64) -> Result<(), Refusal> {
        let Some(which) = self.st.running() else {
            return refuse("no limit is running now");
        };
        let (user, start, limit, stops) = self.st.limit_parts(which, self.ctx);
        let want = self
            .ctx
            .away
            .start_for(&user, self.t, limit.saturating_sub(left), &stops)
            .saturating_add(left.saturating_sub(limit));
        let delta =
            i64::try_from(want).unwrap_or(i64::MAX) - i64::try_from(start).unwrap_or(i64::MAX);
        self.st.move_limit(which, delta);
        self.lines.push(format!(
            "Edit: the running limit ({}) has {} left{}.",
            running_name(which),
            format_duration(left),
            if self.st.paused.is_some() {
                " once play resumes"
            } else {
                ""
            }
        ));
        Ok(())
    }

    /// `/edit controller`: an army's controller set, or its control made pending; a turn
    /// its army can no longer play ends (Nomic rules 6.6).
    fn edit_controller(&mut self, army: usize, to: Option<usize>) -> Result<(), Refusal> {
        if army >= self.n {
            return refuse("no such army");
        }
        if to.is_some_and(|p| p >= self.n) {
            return refuse("no such player");
        }
        if let Some(p) = to.filter(|&p| self.st.pos.controllers[army] != Some(p)) {
            self.st.call(
                &self.ctx.players[p],
                &format!("army {} is now yours: you play its turns", army + 1),
            );
        }
        self.st.pos.controllers[army] = to;
        self.st.pos.offers.retain(|&a| a != army);
        self.lines.push(match to {
            Some(p) => format!(
                "Edit: army {} is controlled by {}.",
                army + 1,
                self.ctx.players[p]
            ),
            None => format!("Edit: army {}'s control is pending.", army + 1),
        });
        self.update_living();
        self.offers_withdrawn();
        if !self.st.over {
            match self.st.pos.turn.slot {
                Slot::Idle => self.start_first(),
                Slot::Army(a) if !self.st.playable(a) && self.st.open_vote().is_none() => {
                    self.lines.push(format!(
                        "Army {} has no controller who may play it: its turn ends.",
                        a + 1
                    ));
                    self.st.pos.offers.clear();
                    self.st.demotion = None;
                    self.end_turn();
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// `/edit undead`: the times of infection, as the undead players earliest first
    /// (Nomic rules 6.7).
    fn edit_undead(&mut self, order: &[usize]) -> Result<(), Refusal> {
        let players = self.ctx.players;
        let names_of = |undead: &[usize]| -> String {
            let names: Vec<&str> = undead.iter().map(|&p| players[p].as_str()).collect();
            if names.is_empty() {
                "-".to_string()
            } else {
                names.join(", ")
            }
        };
        let mut want = order.to_vec();
        want.sort_unstable();
        want.dedup();
        let mut now_undead = self.st.pos.infected.clone();
        now_undead.sort_unstable();
        if want.len() != order.len() || want != now_undead {
            return refuse(format!(
                "name every undead player once, earliest infection first (undead now: {}); a player becomes living or undead by the armies they control (/edit controller)",
                names_of(&self.st.pos.infected)
            ));
        }
        self.st.pos.infected = order.to_vec();
        let names = names_of(order);
        self.lines.push(format!(
            "Edit: the undead, earliest infection first: {names}."
        ));
        Ok(())
    }

    /// `/edit budget`: the halves of the move budget, and those involved already (Nomic
    /// rules 6.4).
    fn edit_budget(&mut self, s: &[bool], involved: &[bool]) -> Result<(), Refusal> {
        if s.len() != self.n || involved.len() != self.n {
            return refuse("no such half");
        }
        self.st.pos.turn.s = s.to_vec();
        self.st.pos.turn.involved = involved.to_vec();
        self.lines.push("Edit: the budget is set.".into());
        Ok(())
    }

    /// `/edit forfeited`: a player's forfeit set or cleared.
    fn edit_forfeited(&mut self, q: usize, on: bool) -> Result<(), Refusal> {
        if q >= self.n {
            return refuse("no such player");
        }
        self.st.pos.forfeited[q] = on;
        self.lines.push(format!(
            "Edit: {} is {}.",
            self.ctx.players[q],
            if on {
                "marked as forfeited"
            } else {
                "back in the game"
            }
        ));
        self.update_living();
        Ok(())
    }

    /// After an edit, a demotion waited for from an author who has forfeited or holds no
    /// non-king piece is settled: there is nothing to demote.
    fn demotion_settled(&mut self) {
        let Some(d) = self.st.demotion.clone() else {
            return;
        };
        if self.st.over {
            return;
        }
        let author = &self.ctx.players[d.author];
        if self.st.pos.forfeited[d.author] {
            self.lines
                .push(format!("{author} has forfeited: no demotion."));
            self.after_proposal(d.held);
        } else if self.st.demotable(d.author).is_empty() {
            self.lines.push(format!("{author} has no piece to demote."));
            self.after_proposal(d.held);
        }
    }

    /// `/order set:`: a Referee sets the Order of armies (Nomic rules 6.7).
    fn order(&mut self, order: &[usize]) -> Result<(), Refusal> {
        self.need_referee("set the Order")?;
        let n = self.n;
        let mut s = order.to_vec();
        s.sort_unstable();
        if s != (0..n).collect::<Vec<_>>() {
            return refuse(format!("list every army 1 to {n} once, like set:2,1,3"));
        }
        self.st.pos.order = order.to_vec();
        let o: Vec<String> = order.iter().map(|a| (a + 1).to_string()).collect();
        self.lines
            .push(format!("The Order is now {}.", o.join(", ")));
        Ok(())
    }

    /// `/set key:value`: a Referee changes a setting: a time limit, the proposal length,
    /// friendly capture or the pace (Nomic rules 6.8, 6.10).
    fn set(&mut self, key: &str, value: &str) -> Result<(), Refusal> {
        self.need_referee("change settings")?;
        let dur = |v: &str| match v {
            "none" | "off" => Ok(NO_LIMIT),
            _ => crate::time::parse_duration(v).map_err(|e| e.to_string()),
        };
        let settings = &mut self.st.settings;
        match key {
            "part1_limit" => settings.part1_limit = dur(value)?,
            "part3_limit" => settings.part3_limit = dur(value)?,
            "vote_limit" => settings.vote_limit = dur(value)?,
            "proposal_max" => {
                settings.proposal_max = match value.parse::<usize>() {
                    Ok(v) if v > 0 => v,
                    _ => return refuse("proposal_max is a number of characters"),
                }
            }
            "friendly_capture" => {
                settings.friendly_capture = match value {
                    "on" | "true" | "yes" => true,
                    "off" | "false" | "no" => false,
                    _ => return refuse("friendly_capture is on or off"),
                }
            }
            "pace" => {
                let l = match value {
                    "live" => LIVE,
                    "async" => ASYNC,
                    _ => return refuse("pace is live or async"),
                };
                settings.part1_limit = l;
                settings.part3_limit = l;
                settings.vote_limit = l;
            }
            _ => {
                return refuse(
                    "settings: part1_limit, part3_limit, vote_limit, proposal_max, friendly_capture, pace",
                )
            }
        }
        self.lines.push(format!("Setting {key} is now {value}."));
        Ok(())
    }

    /// `/proposal void`: a Referee voids the open proposal; it has no effect (Nomic rules
    /// 6.9, 6.10).
    fn void(&mut self, proposal: u32) -> Result<(), Refusal> {
        self.need_referee("void a proposal")?;
        let i = self.open_proposal(proposal)?;
        self.st.proposals[i].standing = Standing::Void;
        let held = self.st.proposals[i].held;
        self.lines.push(format!(
            "Proposal {proposal} is void (a Referee's decision); it has no effect."
        ));
        self.after_proposal(held);
        Ok(())
    }

    /// `/proposal fix`: a Referee fixes the open proposal's spelling, grammar or punctuation
    /// (Nomic rules 6.9, 6.10).
    fn fix(&mut self, proposal: u32, text: &str) -> Result<(), Refusal> {
        self.need_referee("fix a proposal")?;
        let i = self.open_proposal(proposal)?;
        if text.chars().count() > self.st.settings.proposal_max || text.trim().is_empty() {
            return refuse("the fixed text must be 1 to proposal_max characters");
        }
        let fixed = &mut self.st.proposals[i];
        let old = std::mem::replace(&mut fixed.text, text.to_string());
        fixed.change = change_of(text);
        fixed.fixes.push((old.clone(), text.to_string()));
        self.lines.push(format!("Proposal {proposal} fixed (spelling, grammar or punctuation): was: {old} / now: {text}"));
        Ok(())
    }

    /// `/nomic referee add|remove`: the organiser adds or removes a Referee; at least one
    /// stays (Nomic rules 6.10).
    fn referees(&mut self, add: bool, user: &str) -> Result<(), Refusal> {
        if !self.organiser() {
            return refuse("only the organiser may add or remove Referees");
        }
        let user = user.trim().to_string();
        if user.is_empty() {
            return refuse("name the Referee: /nomic referee add player:@x");
        }
        let actor = self.actor;
        if add {
            if self.st.is_referee(&user) {
                return refuse(format!("{user} is a Referee already"));
            }
            self.st.settings.referees.push(user.clone());
            self.lines.push(format!(
                "{user} is now a Referee (added by {actor}); Referees: {}.",
                self.st.settings.referees.join(", ")
            ));
            self.st.call(
                &user,
                "you are now a Referee of this Nomic Chess game (/help lists the Referees' commands)",
            );
        } else {
            if !self.st.is_referee(&user) {
                return refuse(format!(
                    "{user} is not a Referee (Referees: {})",
                    self.st.settings.referees.join(", ")
                ));
            }
            if self.st.settings.referees.len() == 1 {
                return refuse(
                    "a game keeps at least one Referee: add another first (/nomic referee add player:@x)",
                );
            }
            self.st.settings.referees.retain(|r| *r != user);
            self.lines.push(format!(
                "{user} is no longer a Referee (removed by {actor}); Referees: {}.",
                self.st.settings.referees.join(", ")
            ));
        }
        Ok(())
    }
}

/// A push moved on: the joined board J and the moves the budget allows on it (Nomic rules
/// 6.3, 6.4).
struct OnJ {
    join: Join,
    army: usize,
    b: JBoard,
    legal: Vec<Move>,
}

impl OnJ {
    /// The legal move a text written in J's coordinates names, or why it is refused.
    fn read(&self, pos: &Position, notation: &str) -> Result<Move, Refusal> {
        let Some((letter, from, to, promo, special)) = parse_move(notation) else {
            return refuse(self.unreadable(pos, notation));
        };
        let b = &self.b;
        let cands: Vec<Move> = self
            .legal
            .iter()
            .copied()
            .filter(|m| match special {
                Special::CastleKing | Special::CastleQueen => m.special == special,
                _ => {
                    m.from == from
                        && m.to == to
                        && !matches!(m.special, Special::CastleKing | Special::CastleQueen)
                }
            })
            .filter(|m| m.promo == promo)
            .collect();
        let piece_ok = |m: &Move| match letter {
            None => true,
            Some(k) => b[m.from.1 as usize][m.from.0 as usize].is_some_and(|p| p.kind == k),
        };
        match cands.into_iter().find(piece_ok) {
            Some(m) => Ok(m),
            None => refuse(self.illegal(pos, notation, from, special)),
        }
    }

    /// A refused move says first that a king of the mover's is in check, with the legal
    /// moves (Nomic rules 6.5).
    fn check_first(&self, pos: &Position) -> Option<String> {
        let (sq, _) = pos
            .attacked_kings(&self.b, self.join)
            .into_iter()
            .find(|&(_, y)| pos.same_side(y, self.army))?;
        let mut list: Vec<String> = self.legal.iter().map(|&m| move_text(&self.b, m)).collect();
        list.sort();
        if list.len() > 12 {
            list.truncate(12);
            list.push("…".into());
        }
        Some(format!(
            "your King on {} is in check; legal moves: {}",
            super::position::square_text(sq.0, sq.1),
            list.join(" ")
        ))
    }

    /// Why a text that is not a move is refused, with a hint at how to write it.
    fn unreadable(&self, pos: &Position, notation: &str) -> String {
        if let Some(why) = self.check_first(pos) {
            return why;
        }
        if let Some(lower) = lower_squares(notation) {
            return format!("square letters are lower case: {lower}");
        }
        if let Some((kind, sq)) = short_algebraic(notation) {
            let kind = kind.unwrap_or(Kind::Pawn);
            let reach: Vec<String> = self
                .legal
                .iter()
                .filter(|m| {
                    m.to == sq
                        && self.b[m.from.1 as usize][m.from.0 as usize]
                            .is_some_and(|p| p.kind == kind)
                })
                .map(|&m| move_text(&self.b, m))
                .collect();
            return match reach.as_slice() {
                [one] => format!("write the move from-to: {one}"),
                _ => "write the move from-to, like e2-e4".to_string(),
            };
        }
        format!(
            "`{notation}` is not a move (write it in J's coordinates like e2-e4, Nb1-c3, e7-e8=Q, 0-0)"
        )
    }

    /// Why a move that reads but is not legal now is refused, with what may be played.
    fn illegal(&self, pos: &Position, notation: &str, from: (u8, u8), special: Special) -> String {
        if let Some(why) = self.check_first(pos) {
            return why;
        }
        let of: Vec<String> = self
            .legal
            .iter()
            .filter(|m| m.from == from)
            .map(|&m| move_text(&self.b, m))
            .collect();
        let sq = super::position::square_text(from.0, from.1);
        if special != Special::Plain {
            format!("{notation} is not legal now")
        } else if of.is_empty() {
            let legal: Vec<String> = self.legal.iter().map(|&m| move_text(&self.b, m)).collect();
            format!(
                "{notation} is not legal: army {} has no legal move from {sq} (J {}, local {}); its legal moves on this push: {}",
                self.army + 1,
                sq,
                self.join.local(from.0, from.1).name(),
                legal.join(" ")
            )
        } else {
            format!(
                "{notation} is not legal: the piece on {sq} can play: {}",
                of.join(" ")
            )
        }
    }
}

impl Game {
    /// Creates a game.
    ///
    /// # Errors
    /// Fewer than two players, duplicates, a bad order, or a position that does not read.
    pub fn create(new: NewGame, organiser: &str, now: Timestamp) -> Result<Game, Refusal> {
        let r = |m: &str| Refusal::Rule(m.to_string());
        let n = new.players.len();
        if n < 2 {
            return Err(r("Nomic Chess needs at least two players: players:@a @b …"));
        }
        if n > 26 {
            return Err(r("at most 26 players"));
        }
        let mut sorted = new.players.clone();
        sorted.sort();
        sorted.dedup();
        if sorted.len() != n || new.players.iter().any(|p| p.trim().is_empty()) {
            return Err(r("the players must be different users"));
        }
        if new.settings.seed > MAX_SEED {
            return Err(r("seed out of range"));
        }
        let mut settings = new.settings.clone();
        if settings.referees.is_empty() {
            settings.referees.push(organiser.to_string());
        }
        let order = match &new.order {
            Some(list) => {
                let mut o = Vec::new();
                for u in list {
                    match new.players.iter().position(|p| p == u) {
                        Some(i) if !o.contains(&i) => o.push(i),
                        _ => {
                            return Err(Refusal::Rule(format!(
                                "order: {u} is not a player (or named twice)"
                            )))
                        }
                    }
                }
                if o.len() != n {
                    return Err(r("order: must name every player once"));
                }
                o
            }
            None => drawn_order(n, settings.seed),
        };
        let position = match &new.position {
            Some(text) => {
                let mut p = Position::from_text(text)?;
                if p.players() != n {
                    return Err(Refusal::Rule(format!(
                        "the position has {} half-boards but {n} players are named",
                        p.players()
                    )));
                }
                if new.order.is_some() {
                    p.order = order.clone();
                }
                Some(p.to_text())
            }
            None => None,
        };
        let log =
            crate::layer::log::Log::started(organiser, now, Action::Start { position, order });
        Game::from_log(new.players, settings, log)
    }

    /// A game rebuilt from its log.
    ///
    /// # Errors
    /// A log that does not replay.
    pub fn from_log(
        players: Vec<String>,
        settings: Settings,
        log: impl Into<crate::layer::log::Log<Action>>,
    ) -> Result<Game, Refusal> {
        Game::from_log_away(players, settings, log, crate::layer::clock::Away::none())
    }

    /// [`Game::from_log`] with the players' vacations (the limits the replay runs out wait
    /// for an away player).
    ///
    /// # Errors
    /// A log that does not replay.
    pub fn from_log_away(
        players: Vec<String>,
        settings: Settings,
        log: impl Into<crate::layer::log::Log<Action>>,
        away: crate::layer::clock::Away,
    ) -> Result<Game, Refusal> {
        if players.len() < 2 {
            return Err(Refusal::Rule(
                "a Nomic Chess game has at least two players".into(),
            ));
        }
        let state = State::new(players.len(), settings.clone(), 0);
        let mut g = Game::with_log(settings, players, log, state);
        g.away = away;
        g.replay()?;
        Ok(g)
    }

    fn ctx(&self, organiser_role: bool) -> Ctx<'_> {
        Ctx {
            players: &self.users,
            organiser: self.organiser(),
            organiser_role,
            away: &self.away,
        }
    }

    /// The organiser who created the game.
    pub fn organiser(&self) -> &str {
        self.log.first().map_or("", |e| e.actor.as_str())
    }

    /// The state at `now` (limits that fell due applied).
    pub fn state_at(&self, now: Timestamp) -> State {
        let mut st = self.start(now);
        let ctx = self.ctx(false);
        st.advance(now, &ctx, &mut Vec::new());
        st
    }

    /// Limits falling due in `(after, until]`.
    pub fn events(&self, after: Timestamp, until: Timestamp) -> Vec<TimeEvent> {
        let mut st = self.start(after);
        let ctx = self.ctx(false);
        st.advance(after, &ctx, &mut Vec::new());
        let mut ev = Vec::new();
        st.advance(until, &ctx, &mut ev);
        ev.retain(|e| e.at > after && e.at <= until);
        ev
    }

    /// Each limit falling due in `(after, until]`, in order, with the state at its time (as
    /// [`Game::state_at`] gives it), found in one pass rather than one replay per event (a
    /// day of 5-minute limits is hundreds of them; issue 22's timer sweep).
    pub fn each_event(
        &self,
        after: Timestamp,
        until: Timestamp,
        mut f: impl FnMut(TimeEvent, &State),
    ) {
        let mut st = self.start(after);
        let ctx = self.ctx(false);
        for e in self.events(after, until) {
            st.advance(e.at, &ctx, &mut Vec::new());
            f(e, &st);
        }
    }

    /// What [`Ahead`] follows from: the log's length and its undone entries (every action,
    /// takeback, revert or hand-over changes one; new vacations replay the log).
    fn ahead_key(&self) -> (usize, usize) {
        let undone = self.log.iter().filter(|e| e.reverted.is_some()).count();
        (self.log.len(), undone)
    }

    /// The state to run the limits on from to reach `t`: the latest one the sweep kept at
    /// or before `t` ([`Game::catch_up`]), else the one the log gives.
    fn start(&self, t: Timestamp) -> State {
        let kept = self
            .state
            .ahead
            .as_deref()
            .filter(|a| a.key == self.ahead_key())
            .and_then(|a| a.points.iter().rev().find(|(at, _)| *at <= t));
        match kept {
            Some((_, st)) => st.clone(),
            None => {
                let mut st = self.state.clone();
                st.ahead = None;
                st
            }
        }
    }

    /// Keeps the state the limits ran out to by `now` (the timer sweep, once it announced
    /// them), and those an hour, a day and 30 days before, so that the next sweep and every
    /// question until the next action start there: catching up costs what fell due since,
    /// not everything since the last action.
    pub fn catch_up(&mut self, now: Timestamp) {
        let key = self.ahead_key();
        let ctx = self.ctx(false);
        let mut points: Vec<(Timestamp, State)> = Vec::new();
        for t in KEPT_BEHIND
            .iter()
            .map(|b| now.saturating_sub(*b))
            .chain(std::iter::once(now))
        {
            if points.last().is_some_and(|(at, _)| *at >= t) {
                continue;
            }
            let mut st = self.start(t);
            st.advance(t, &ctx, &mut Vec::new());
            st.ahead = None;
            points.push((t, st));
        }
        self.state.ahead = Some(std::sync::Arc::new(Ahead { key, points }));
    }

    /// The next action number.
    pub fn next_number(&self) -> u32 {
        self.log.next_number()
    }

    /// Whether the game is over (at the last action).
    pub fn finished(&self) -> bool {
        self.state.over
    }

    /// A player's index.
    pub fn player_of(&self, user: &str) -> Option<usize> {
        self.users.iter().position(|u| u == user)
    }

    /// `army 2 (ben)`.
    pub fn army_name(&self, st: &State, a: usize) -> String {
        match st.pos.controllers.get(a).copied().flatten() {
            Some(p) => format!("army {} ({})", a + 1, self.users[p]),
            None => format!("army {} (control pending)", a + 1),
        }
    }

    /// Applies an action by `actor` at `now`.
    ///
    /// # Errors
    /// Why it is refused; nothing changes.
    pub fn apply(
        &mut self,
        actor: &str,
        action: Action,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        self.apply_as(actor, false, action, now, command)
    }

    /// Applies an action by `actor` at `now`; `organiser` says whether the actor holds the
    /// organiser role (the game's creator always counts as its organiser). Only a change of
    /// who must act notifies: whoever was already asked to act is not asked again.
    ///
    /// # Errors
    /// Why it is refused; nothing changes.
    pub fn apply_as(
        &mut self,
        actor: &str,
        organiser: bool,
        action: Action,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        match action {
            Action::Takeback { .. } => return self.takeback(actor, now, command),
            Action::Revert { to, reason } => {
                return self.revert(Reverting::new(to, actor, &reason, now, command))
            }
            Action::Start { .. } => return refuse("the game has started"),
            _ => {}
        }
        let ctx = self.ctx(organiser);
        let mut st = self.start(now);
        st.advance(now, &ctx, &mut Vec::new());
        let before = self.asks(&st);
        let mut action = action;
        let lines = fold(&mut st, &ctx, actor, &mut action, now)?;
        let calls = std::mem::take(&mut st.calls);
        self.state = st;
        crate::layer::log::seat_change(&mut self.users, &action);
        let number = self.log.push(actor, now, command, action, true);
        let mut a = self.accepted(number, lines);
        a.notify.retain(|x| !before.contains(x));
        for c in calls {
            if !a.notify.contains(&c) {
                a.notify.push(c);
            }
        }
        Ok(a)
    }

    /// What the current state asks of whom: (user, what).
    pub fn asks(&self, st: &State) -> Vec<(String, String)> {
        let mut v = Vec::new();
        if st.over || st.paused.is_some() {
            return v;
        }
        if let Some(p) = st.open_vote() {
            for q in st.voters() {
                if p.votes[q].is_none() {
                    v.push((
                        self.users[q].clone(),
                        format!(
                            "vote on proposal {}: /vote proposal:{} choice:for|against",
                            p.n, p.n
                        ),
                    ));
                }
            }
            return v;
        }
        if let Some(d) = &st.demotion {
            v.push((
                self.users[d.author].clone(),
                "demote one of your non-king pieces: /demote square:<half>:<sq>".into(),
            ));
            return v;
        }
        if let Some(p) = st.current_player() {
            let what = match (st.pos.turn.slot, st.pos.turn.part) {
                (Slot::Army(a), 1) => format!("your turn with army {}: /push then /move", a + 1),
                (Slot::Army(_), 2) => "part 2: /take or /decline the armies offered".into(),
                (Slot::Army(_), _) => "part 3: /propose a rule-change or /done".into(),
                (Slot::Undead(_), _) => "your undead slot: /propose a rule-change or /done".into(),
                _ => String::new(),
            };
            v.push((self.users[p].clone(), what));
        }
        v
    }

    fn accepted(&self, number: Option<u32>, mut lines: Vec<String>) -> Accepted {
        let st = &self.state;
        lines.push(self.whose_line(st));
        Accepted {
            number,
            text: lines.join("\n"),
            notify: self.asks(st),
        }
    }

    /// One line: whose turn and which part, or the result.
    pub fn whose_line(&self, st: &State) -> String {
        if st.over {
            return match st.winner {
                Some(w) => format!("Game over: {} wins.", self.users[w]),
                None => "Game over: no winner.".into(),
            };
        }
        let mut s = match (st.pos.turn.slot, st.pos.turn.part) {
            (Slot::Army(a), part) => {
                let extra = match (part, st.pos.turn.join) {
                    (1, Some(j)) => format!(", pushed {}", j.text()),
                    (1, None) => ", to push".into(),
                    _ => String::new(),
                };
                format!("Turn: {}, part {part}{extra}.", self.army_name(st, a))
            }
            (Slot::Undead(p), _) => {
                format!("Turn: {}'s undead slot (propose or /done).", self.users[p])
            }
            (Slot::Idle, _) => "Turn: nobody (waiting for a Referee).".into(),
        };
        if let Some(p) = st.open_vote() {
            s.push_str(&format!(" Vote open on proposal {}.", p.n));
        }
        if let Some(d) = &st.demotion {
            s.push_str(&format!(
                " Waiting for {}'s demotion.",
                self.users[d.author]
            ));
        }
        if st.paused.is_some() {
            s.push_str(" Paused.");
        }
        s
    }

    fn takeback(&mut self, user: &str, now: Timestamp, command: &str) -> Result<Accepted, Refusal> {
        if self.player_of(user).is_none() && !self.settings.referees.iter().any(|r| r == user) {
            return refuse("you are not in this game");
        }
        let (number, line) =
            self.take_back(user, now, command, |undone| Action::Takeback { undone })?;
        Ok(self.accepted(number, vec![line]))
    }

    fn revert(&mut self, by: Reverting<'_>) -> Result<Accepted, Refusal> {
        let undone = self.revert_preview(by.to)?;
        let (number, line) =
            self.revert_to(&by, &undone, |to, reason| Action::Revert { to, reason })?;
        Ok(self.accepted(number, vec![line]))
    }

    /// The plays offered to a user now: pushes (`push bottom:A top:B`) before a push, then
    /// the moves on J.
    ///
    /// # Errors
    /// Not their turn to move.
    pub fn offered(&self, user: &str, now: Timestamp) -> Result<Vec<String>, Refusal> {
        let st = self.state_at(now);
        let Some(p) = self.player_of(user) else {
            return refuse("you are not a player in this game");
        };
        if st.over {
            return refuse("the game is over");
        }
        if st.current_player() != Some(p) {
            return refuse("it is not your turn");
        }
        let Slot::Army(army) = st.pos.turn.slot else {
            return refuse("an undead player does not move");
        };
        if st.pos.turn.part != 1 {
            return refuse(format!("it is part {}; no moves now", st.pos.turn.part));
        }
        let rules = st.rules();
        match st.pos.turn.join {
            Some(j) => {
                let b = st.pos.joined(j);
                let mut v: Vec<String> = st
                    .pos
                    .budget_moves(j, army, rules)
                    .into_iter()
                    .map(|m| move_text(&b, m))
                    .collect();
                v.sort();
                Ok(v)
            }
            None => Ok(st
                .pos
                .pushes_with_moves(army, rules)
                .into_iter()
                .map(|j| {
                    format!(
                        "push bottom:{} top:{}",
                        half_letter(j.bottom),
                        half_letter(j.top)
                    )
                })
                .collect()),
        }
    }

    /// What `user` could do in the position as it stands when their army's turn comes (the
    /// pushes with a move, for each army they control, `army 2: push bottom:A top:B` when
    /// they control several): the list `/moves` adds to its refusal off-turn, for planning.
    /// Empty for a non-player and after the end.
    pub fn planned(&self, user: &str, now: Timestamp) -> Vec<String> {
        let st = self.state_at(now);
        let Some(p) = self.player_of(user) else {
            return Vec::new();
        };
        if st.over {
            return Vec::new();
        }
        let rules = st.rules();
        let armies = st.pos.armies_of(p);
        let mut v = Vec::new();
        for &army in &armies {
            // The army's turn as it would begin now: every half holding its pieces usable.
            let mut pos = st.pos.clone();
            let n = pos.players();
            pos.turn.slot = Slot::Army(army);
            pos.turn.part = 1;
            pos.turn.s = pos.halves_of(army);
            pos.turn.involved = vec![false; n];
            pos.turn.join = None;
            for j in pos.pushes_with_moves(army, rules) {
                let push = format!(
                    "push bottom:{} top:{}",
                    half_letter(j.bottom),
                    half_letter(j.top)
                );
                v.push(if armies.len() > 1 {
                    format!("army {}: {push}", army + 1)
                } else {
                    push
                });
            }
        }
        v
    }

    // ----- texts -----------------------------------------------------------------------

    /// `/status`.
    pub fn status_text(&self, now: Timestamp) -> String {
        let st = self.state_at(now);
        let mut v = Vec::new();
        let seats: Vec<String> = self
            .users
            .iter()
            .enumerate()
            .map(|(i, u)| format!("{u} (half {}, army {})", half_letter(i), i + 1))
            .collect();
        v.push(format!(
            "Nomic Chess: {}; Referees: {}",
            seats.join(", "),
            st.settings.referees.join(", ")
        ));
        let order: Vec<String> = st
            .pos
            .order
            .iter()
            .map(|&a| self.army_name(&st, a))
            .collect();
        v.push(format!("Order: {}", order.join(", ")));
        v.push(self.whose_line(&st));
        if let Slot::Army(_) = st.pos.turn.slot {
            if st.pos.turn.part == 1 {
                let left: String = (0..st.pos.players())
                    .filter(|&h| st.pos.turn.s[h] && !st.pos.turn.involved[h])
                    .map(half_letter)
                    .collect();
                let s: String = (0..st.pos.players())
                    .filter(|&h| st.pos.turn.s[h])
                    .map(half_letter)
                    .collect();
                let inv: String = (0..st.pos.players())
                    .filter(|&h| st.pos.turn.involved[h])
                    .map(half_letter)
                    .collect();
                v.push(format!(
                    "Budget: S {}, involved {}, halves left to move from: {}",
                    if s.is_empty() { "-" } else { &s },
                    if inv.is_empty() { "-" } else { &inv },
                    if left.is_empty() { "-" } else { &left }
                ));
            }
        }
        if !st.pos.offers.is_empty() {
            let o: Vec<String> = st.pos.offers.iter().map(|a| (a + 1).to_string()).collect();
            v.push(format!("Offered (Take/Decline): army {}", o.join(", ")));
        }
        let living: Vec<String> = st.living().iter().map(|&p| self.users[p].clone()).collect();
        let undead: Vec<String> = st
            .pos
            .infected
            .iter()
            .map(|&p| self.users[p].clone())
            .collect();
        let forfeited: Vec<String> = (0..self.users.len())
            .filter(|&p| st.pos.forfeited[p])
            .map(|p| self.users[p].clone())
            .collect();
        v.push(format!(
            "Living: {}; undead: {}; forfeited: {}",
            listed(&living, ", "),
            listed(&undead, ", "),
            listed(&forfeited, ", ")
        ));
        if let Some(p) = st.open_vote() {
            let waiting: Vec<String> = st
                .voters()
                .into_iter()
                .filter(|&q| p.votes[q].is_none())
                .map(|q| self.users[q].clone())
                .collect();
            let until = st
                .proposals
                .iter()
                .position(|q| q.n == p.n)
                .and_then(|i| st.limit_end(Running::Vote(i), &self.ctx(true)))
                .map_or("play resumes and its limit runs out".to_string(), |at| {
                    crate::time::stamp(at, crate::time::Style::Full)
                });
            v.push(format!(
                "Proposal {} by {} open until {until}: {} (waiting for: {})",
                p.n,
                p.author,
                p.text,
                waiting.join(", ")
            ));
        }
        if let Some(d) = &st.demotion {
            v.push(format!(
                "Demotion: {} must /demote a non-king piece (proposal {} defeated){}",
                self.users[d.author],
                d.proposal,
                if d.referee {
                    "; a Referee may choose now"
                } else {
                    ""
                }
            ));
        }
        for j in st
            .judgments
            .iter()
            .filter(|j| j.standing || j.rulings.is_empty())
        {
            v.push(format!(
                "Judgment {}: {} — {}",
                j.n,
                j.question,
                j.rulings
                    .last()
                    .map_or("awaiting a Referee".to_string(), |(r, t)| format!(
                        "{r}: {t}"
                    ))
            ));
        }
        if st.paused.is_some() {
            v.push(if st.stalled {
                "Play is paused for want of play (every player let a turn run out).".into()
            } else {
                "Play is paused by a Referee.".into()
            });
        }
        if let Some(l) = &st.last {
            v.push(format!("Last move: {}", l.text));
        }
        if let Some((at, _)) = st.next_deadline(&self.ctx(true)) {
            v.push(format!(
                "The current limit runs out at {} ({})",
                crate::time::stamp(at, crate::time::Style::Full),
                crate::time::stamp(at, crate::time::Style::Relative)
            ));
        }
        v.push(format!(
            "Limits: part 1 {}, part 3 {}, vote {}; proposals up to {} characters",
            limit_text(st.settings.part1_limit),
            limit_text(st.settings.part3_limit),
            limit_text(st.settings.vote_limit),
            st.settings.proposal_max
        ));
        v.join("\n")
    }

    /// `!state` lines.
    pub fn state_lines(&self, now: Timestamp) -> Vec<String> {
        let st = self.state_at(now);
        let mut v: Vec<String> = (0..st.pos.players())
            .map(|h| format!("board {}: {}", half_letter(h), st.pos.half_placement(h)))
            .collect();
        v.push(format!("position: {}", st.pos.to_text()));
        v.push(format!("players: {}", self.users.join(", ")));
        v.push(format!("referees: {}", st.settings.referees.join(", ")));
        v.push(self.whose_line(&st).to_lowercase());
        v.push(format!("clock: {}", st.clock));
        for p in &st.proposals {
            let votes: Vec<String> = p
                .votes
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    format!(
                        "{}:{}",
                        self.users[i],
                        match x {
                            Some(true) => "for",
                            Some(false) => "against",
                            None => "-",
                        }
                    )
                })
                .collect();
            v.push(format!(
                "proposal {}: {:?} by {}: {} [{}]",
                p.n,
                p.standing,
                p.author,
                p.text,
                votes.join(" ")
            ));
        }
        for j in &st.judgments {
            v.push(format!(
                "judgment {}: standing {} rulings {}",
                j.n,
                j.standing,
                j.rulings.len()
            ));
        }
        v.push(format!(
            "rules: {} (highest {})",
            st.rules.rules.len(),
            st.rules.max_number()
        ));
        if let Some(w) = st.winner {
            v.push(format!("winner: {}", self.users[w]));
        }
        v
    }
}

/// A short description of an action (for previews and exports): a Referee's or the
/// organiser's bookkeeping as it was typed (`/edit remove square:A:a1`), halves by letter and
/// armies and players as the game names them.
pub fn describe(a: &Action, players: &[String]) -> String {
    let user = |p: usize| {
        players
            .get(p)
            .map_or_else(|| format!("player {}", p + 1), |u| format!("@{u}"))
    };
    let halves = |v: &[bool]| -> String {
        let s: String = (0..v.len()).filter(|&h| v[h]).map(half_letter).collect();
        if s.is_empty() {
            "-".into()
        } else {
            s
        }
    };
    match a {
        Action::Start { .. } => "the game starts".into(),
        Action::Push { join } => format!("push {}", join.text()),
        Action::Move { notation } => format!("move {notation}"),
        Action::Done => "done".into(),
        Action::Take { army } => format!("take army {}", army + 1),
        Action::Decline { army } => format!("decline army {}", army + 1),
        Action::Propose { text, .. } => format!("propose: {text}"),
        Action::Vote { proposal, choice } => format!(
            "vote {} proposal {proposal}",
            if *choice { "for" } else { "against" }
        ),
        Action::Demote { square } => format!("demote {}", square.name()),
        Action::Forfeit => "forfeit".into(),
        Action::Judgment { question, .. } => format!("judgment: {question}"),
        Action::Judge { judgment, text } => format!("judge {judgment}: {text}"),
        Action::Overrule { judgment } => format!("overrule judgment {judgment}"),
        Action::Pause => "/pause".into(),
        Action::Resume => "/resume".into(),
        Action::Substitute(h) => format!("/substitute player:@{} by:@{}", h.from, h.to),
        Action::Assign { army, player } => {
            format!("/assign army:{} to:{}", army + 1, user(*player))
        }
        Action::Edit(e) => match e {
            Edit::Put { square, kind, army } => format!(
                "/edit put square:{} piece:{}{}",
                square.name(),
                kind.letter(),
                army + 1
            ),
            Edit::Remove { square } => format!("/edit remove square:{}", square.name()),
            Edit::Move { from, to } => {
                format!("/edit move from:{} to:{}", from.name(), to.name())
            }
            Edit::Position { text } => format!("/edit position text:{text}"),
            Edit::Clock { add } => format!("/edit clock add:{}", format_duration(*add)),
            Edit::ClockLeft { left } => format!("/edit clock left:{}", format_duration(*left)),
            Edit::Budget { s, involved } => {
                format!("/edit budget s:{} involved:{}", halves(s), halves(involved))
            }
            Edit::Forfeited { player, on } => format!(
                "/edit player player:{} forfeited:{}",
                user(*player),
                if *on { "on" } else { "off" }
            ),
            Edit::Controller { army, player } => format!(
                "/edit controller army:{} to:{}",
                army + 1,
                player.map_or_else(|| "pending".to_string(), user)
            ),
            Edit::Undead { order } => {
                let v: Vec<String> = order.iter().map(|&p| user(p)).collect();
                format!(
                    "/edit undead order:{}",
                    if v.is_empty() {
                        "-".into()
                    } else {
                        v.join(" ")
                    }
                )
            }
        },
        Action::Order { order } => format!(
            "/order set:{}",
            order
                .iter()
                .map(|a| (a + 1).to_string())
                .collect::<Vec<_>>()
                .join(",")
        ),
        Action::Set { key, value } => format!("/set {key}:{value}"),
        Action::Void { proposal } => format!("/proposal void proposal:{proposal}"),
        Action::Fix { proposal, text } => {
            format!("/proposal fix proposal:{proposal} text:{text}")
        }
        Action::Referee { add, user } => format!(
            "/nomic referee {} player:@{user}",
            if *add { "add" } else { "remove" }
        ),
        Action::Takeback { undone } => format!("takeback of #{undone}"),
        Action::Revert { to, .. } => format!("revert to before #{to}"),
    }
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
