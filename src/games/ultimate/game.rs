//! The Ultimate Chess game (Ultimate rules 4.0–4.9; shared rules 7.1–7.3): four seats,
//! settings, an append-only log of actions, and the state that replaying it gives.
//!
//! The game is pure: the caller passes the time of every action and the seed; who may do
//! what beyond the players' own seats (organiser, moderator) is the caller's check.

use crate::games::export_common::{board_lines, listed};
use std::collections::HashMap;

use crate::engine::notation::NotationError;
use crate::engine::Square;
use crate::layer::clock::overran;
use crate::layer::log::{Bookkept, Logged, Reverting};
use crate::layer::table::Table;
use crate::time::{format_duration, Timestamp};

use super::board::{parse_square, Kind, Seat};
use super::notation;
use super::position::{Fate, Mode, Position};
use super::text::TextError;

/// The largest seed (shared rules 0.5: seeds are 0..2^53−1).
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// What happens when a player's turn begins, not in check, with no legal move (§4.6).
#[derive(
    Copy, Clone, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Stalemate {
    /// The game is drawn.
    #[default]
    Draw,
    /// The player is skipped until they have a move (all passing in turn: drawn).
    Pass,
}

impl Stalemate {
    /// `draw` or `pass`.
    pub fn as_str(self) -> &'static str {
        match self {
            Stalemate::Draw => "draw",
            Stalemate::Pass => "pass",
        }
    }
    /// Reads `draw` or `pass`.
    pub fn parse(text: &str) -> Option<Stalemate> {
        match text.trim().to_ascii_lowercase().as_str() {
            "draw" => Some(Stalemate::Draw),
            "pass" => Some(Stalemate::Pass),
            _ => None,
        }
    }
}

/// Per-game settings (§4.9).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// The reminder interval and stall time (`remind:` on `/… new`, the server's defaults;
    /// shared rules 7.4).
    #[serde(flatten)]
    pub pace: crate::layer::pace::Pace,
    /// Standard, conquest or devastation.
    pub mode: Mode,
    /// Stalemate: draw or pass.
    pub stalemate: Stalemate,
    /// A pawn at the end of a short file promotes (§4.2, decision 2).
    pub promote_at_file_end: bool,
    /// Seconds a player may take before the organiser may concede for them (§4.7).
    pub move_limit: Option<u64>,
    /// The seed that seated `players:`.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            pace: crate::layer::pace::Pace::default(),
            mode: Mode::Standard,
            stalemate: Stalemate::Draw,
            promote_at_file_end: false,
            move_limit: None,
            seed: 0,
        }
    }
}

/// How the four players are seated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seating {
    /// `silver: red: black: green:`.
    Named([String; 4]),
    /// `players:`: seated in an order drawn from the seed (in the order given when the game
    /// starts from a position).
    Players(Vec<String>),
}

/// What `/ultimate new` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// The players.
    pub seating: Seating,
    /// `mode:`, if given (a `position:` brings its own; a different one is refused).
    pub mode: Option<Mode>,
    /// `stalemate:`.
    pub stalemate: Stalemate,
    /// `promote_at_file_end:`.
    pub promote_at_file_end: bool,
    /// `move_limit:` in seconds.
    pub move_limit: Option<u64>,
    /// `seed:`.
    pub seed: u64,
    /// `position:` (a position text to start from).
    pub position: Option<String>,
}

impl NewGame {
    /// A new game request with default settings.
    pub fn new(seating: Seating) -> NewGame {
        NewGame {
            seating,
            mode: None,
            stalemate: Stalemate::Draw,
            promote_at_file_end: false,
            move_limit: None,
            seed: 0,
            position: None,
        }
    }
}

crate::layer::log::actions! {
    /// A logged action. Replaying the non-reverted actions in order gives the state.
    #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub enum Action {
        /// The game begins, from the start array or from a position text (§4.8a).
        Start {
            /// The position text, if not the start array.
            position: Option<String>,
        },
        /// A move, in the notation the game echoes.
        Move {
            /// The seat that moved.
            seat: Seat,
            /// The move (`e2-e5`, `Wd1xf3+`, `0-0`).
            notation: String,
        },
        /// A player concedes, or the organiser concedes for them after an overrun.
        Concede {
            /// Who is defeated.
            seat: Seat,
            /// The named victor.
            to: Option<Seat>,
            /// Conceded by the organiser (§4.7).
            organiser: bool,
        },
        /// A draw offer.
        OfferDraw {
            /// Who offers.
            seat: Seat,
        },
        /// A draw offer accepted.
        AcceptDraw {
            /// Who accepts.
            seat: Seat,
        },
        /// A draw offer declined (or withdrawn by its offerer).
        DeclineDraw {
            /// Who declines.
            seat: Seat,
        },
    }
    takeback {
        /// Who.
        seat: Seat,
    }
    revert {}
    bookkeeping: Start
}

/// One entry of the log.
pub type Entry = crate::layer::log::Entry<Action>;

/// What a player asks the game to do (the game layer builds it from a command).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `/move <notation>`.
    Move(String),
    /// `/concede [to:@x]`.
    Concede {
        /// The named victor.
        to: Option<String>,
    },
    /// `/ultimate concede player:@x [to:@y]` (the caller checks the actor is the organiser).
    OrganiserConcede {
        /// The player who overran.
        player: String,
        /// The named victor.
        to: Option<String>,
    },
    /// `/offer draw`.
    OfferDraw,
    /// `/accept`.
    AcceptDraw,
    /// `/decline`.
    DeclineDraw,
    /// `/takeback`.
    Takeback,
    /// `/revert` once confirmed (the caller checks the actor is a moderator).
    Revert {
        /// First action to undo.
        to: u32,
        /// Why.
        reason: String,
    },
}

/// How a seat was defeated.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum DefeatHow {
    /// Checkmated when its turn began.
    Checkmate,
    /// Its King was captured.
    KingCaptured,
    /// It conceded.
    Conceded,
    /// The organiser conceded for it after an overrun.
    OrganiserConceded,
}

/// A defeat.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Defeat {
    /// Who.
    pub seat: Seat,
    /// The victor, if any.
    pub victor: Option<Seat>,
    /// How.
    pub how: DefeatHow,
}

/// Why a game was drawn.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum DrawReason {
    /// The player whose turn began had no legal move and was not in check.
    Stalemate(Seat),
    /// Under `stalemate:pass`, every player in play would pass.
    AllPass,
    /// Insufficient material.
    InsufficientMaterial,
    /// The same position a third time.
    Repetition,
    /// Fifty moves of every player without a capture or a pawn move.
    FiftyMoves,
    /// All players in play agreed.
    Agreement,
}

/// How the game ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// Three players are defeated; the fourth wins.
    Win(Seat),
    /// Drawn among the players not defeated.
    Draw {
        /// Why.
        reason: DrawReason,
        /// The players in play when it was drawn.
        among: Vec<Seat>,
    },
}

/// A draw offer standing.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DrawOffer {
    /// Who offered.
    pub by: Seat,
    /// Who has accepted (the offerer included).
    pub accepted: Vec<Seat>,
}

/// The state replay gives.
#[derive(Clone, Debug)]
pub struct State {
    /// The position.
    pub pos: Position,
    /// The result, once the game is over.
    pub outcome: Option<Outcome>,
    /// Defeats in order.
    pub defeats: Vec<Defeat>,
    /// The draw offer standing, if any.
    pub draw_offer: Option<DrawOffer>,
    /// Per seat: turns taken since the last capture or pawn move.
    pub quiet_turns: [u32; 4],
    /// How often each position has occurred at the start of a turn, by a 64-bit hash of its
    /// text (the texts themselves, one per turn, were a large part of a loaded game's memory;
    /// issue 22). Only counted, never shown.
    pub seen: HashMap<u64, u32>,
    /// When the current turn began.
    pub turn_started: Timestamp,
    /// The last move's squares (from, to).
    pub last: Option<(Square, Square)>,
    /// The last move as echoed.
    pub last_text: Option<String>,
}

crate::games::refusal! {
    /// Why an action is refused. Messages are shown to the user as they are.
    pub enum Refusal {
        /// A move that does not read or is not legal.
        #[error("{0}")]
        Notation(#[from] NotationError),
        /// A position text that does not read (the field is named).
        #[error("the position does not read: {0}")]
        Position(#[from] TextError),
    }
}

/// What an accepted action reports: its number, what happened and who must act next.
pub type Accepted = crate::layer::log::Accepted<Vec<String>>;

/// An Ultimate Chess game: its [`Table`], and Ultimate Chess's methods on it.
pub type Game = Table<Ultimate>;

/// The seating `players:` gives with a seed: a Fisher–Yates shuffle driven by splitmix64
/// (the same seed and list always give the same seats, §4.8a).
pub fn shuffle_seats(players: &[String], seed: u64) -> Vec<String> {
    let mut v = players.to_vec();
    crate::games::seeded::shuffle(&mut crate::games::seeded::Chain(seed), &mut v);
    v
}

impl State {
    fn new(pos: Position, time: Timestamp) -> State {
        State {
            pos,
            outcome: None,
            defeats: Vec::new(),
            draw_offer: None,
            quiet_turns: [0; 4],
            seen: HashMap::new(),
            turn_started: time,
            last: None,
            last_text: None,
        }
    }
}

impl Game {
    /// Creates a game (`/ultimate new`): seats the players, reads a `position:` if given, and
    /// logs the start (by `organiser` at `now`).
    ///
    /// # Errors
    /// Not four distinct players, a seed out of range, a position that does not read (the
    /// field is named) or whose mode differs from `mode:`.
    pub fn create(new: NewGame, organiser: &str, now: Timestamp) -> Result<Game, Refusal> {
        if new.seed > MAX_SEED {
            return refuse(format!("seed must be between 0 and {MAX_SEED}"));
        }
        let start = match &new.position {
            Some(text) => Some(Position::from_text(text)?),
            None => None,
        };
        let users = match &new.seating {
            Seating::Named(names) => names.to_vec(),
            Seating::Players(list) if list.len() == 4 => {
                if start.is_some() {
                    list.clone()
                } else {
                    shuffle_seats(list, new.seed)
                }
            }
            Seating::Players(list) => {
                return refuse(format!(
                    "Ultimate Chess needs exactly four players (got {})",
                    list.len()
                ))
            }
        };
        if users.iter().any(|u| u.trim().is_empty()) {
            return refuse("every seat needs a player (silver: red: black: green:, or players: with four names)");
        }
        let mut sorted = users.clone();
        sorted.sort();
        sorted.dedup();
        if sorted.len() != 4 {
            return refuse("the four players must be different users");
        }
        let mode = match (&start, new.mode) {
            (Some(p), Some(m)) if p.mode() != m => {
                return Err(Refusal::Position(TextError {
                    field: super::text::Field::Mode,
                    message: format!(
                        "the position is in {} mode but mode:{} was asked for (leave mode: out, or make them agree)",
                        p.mode().as_str(),
                        m.as_str()
                    ),
                }))
            }
            (Some(p), _) => p.mode(),
            (None, m) => m.unwrap_or_default(),
        };
        let settings = Settings {
            pace: crate::layer::pace::Pace::default(),
            mode,
            stalemate: new.stalemate,
            promote_at_file_end: new.promote_at_file_end,
            move_limit: new.move_limit,
            seed: new.seed,
        };
        let log = crate::layer::log::Log::started(
            organiser,
            now,
            Action::Start {
                position: start.as_ref().map(Position::to_text),
            },
        );
        Game::from_log(users, settings, log)
    }

    /// A game rebuilt from its stored log.
    ///
    /// # Errors
    /// Bad seats, or a log that does not replay.
    pub fn from_log(
        users: Vec<String>,
        settings: Settings,
        log: impl Into<crate::layer::log::Log<Action>>,
    ) -> Result<Game, Refusal> {
        let state = State::new(Position::start(settings.mode), 0);
        let seats = (4, "an Ultimate Chess game has four seats");
        Game::seated_from_log(settings, users, log, state, seats)
    }

    // ----- queries -------------------------------------------------------------------

    /// The position.
    pub fn position(&self) -> &Position {
        &self.state.pos
    }
    /// The seat of a user.
    pub fn seat_of(&self, user: &str) -> Option<Seat> {
        self.users
            .iter()
            .position(|u| u == user)
            .and_then(Seat::from_index)
    }
    /// The user in a seat.
    pub fn user(&self, seat: Seat) -> &str {
        &self.users[seat.index()]
    }
    /// Whether the game is over.
    pub fn finished(&self) -> bool {
        self.state.outcome.is_some()
    }
    /// The seat to move, while the game is in play.
    pub fn to_move(&self) -> Option<Seat> {
        (!self.finished()).then(|| self.state.pos.turn())
    }
    /// The next action number.
    pub fn next_number(&self) -> u32 {
        self.log.next_number()
    }
    /// The last move's squares (for the picture).
    pub fn last_move(&self) -> Option<(Square, Square)> {
        self.state.last
    }
    /// Players still in the game whose King is attacked.
    pub fn in_check(&self) -> Vec<Seat> {
        let p = &self.state.pos;
        p.active().into_iter().filter(|&s| p.in_check(s)).collect()
    }
    /// `Silver (ann)`.
    pub fn name(&self, seat: Seat) -> String {
        name(&self.users, seat)
    }
    /// The result as the replies write it (`Green (bob) wins`), once the game is over.
    pub fn result_text(&self) -> Option<String> {
        self.state
            .outcome
            .as_ref()
            .map(|o| outcome_text(&self.users, o))
    }
    /// The last defeat in words, who did it to whom (`Silver (ann) mated Red (ben)`), if any
    /// player is defeated.
    pub fn last_defeat_text(&self) -> Option<String> {
        let d = self.state.defeats.last()?;
        let who = self.name(d.seat);
        let by = d.victor.map(|v| self.name(v));
        Some(match (d.how, by) {
            (DefeatHow::Checkmate, Some(v)) => format!("{v} mated {who}"),
            (DefeatHow::Checkmate, None) => format!("{who} is mated"),
            (DefeatHow::KingCaptured, Some(v)) => format!("{v} took {who}'s King"),
            (DefeatHow::KingCaptured, None) => format!("{who}'s King was taken"),
            (DefeatHow::Conceded, Some(v)) => format!("{who} conceded to {v}"),
            (DefeatHow::Conceded, None) => format!("{who} conceded"),
            (DefeatHow::OrganiserConceded, Some(v)) => {
                format!("{who} conceded to {v} by the organiser")
            }
            (DefeatHow::OrganiserConceded, None) => format!("{who} conceded by the organiser"),
        })
    }

    /// The legal moves of a user's seat, formatted and sorted, optionally only those from
    /// or to a square.
    ///
    /// # Errors
    /// Not seated, not their turn, the game over, or a bad square.
    pub fn legal_moves_for(
        &self,
        user: &str,
        square: Option<&str>,
    ) -> Result<Vec<String>, Refusal> {
        self.check_may_move(user)?;
        let sq = match square {
            Some(t) => Some(
                parse_square(t.trim())
                    .ok_or_else(|| Refusal::Notation(NotationError::OffBoard(t.trim().into())))?,
            ),
            None => None,
        };
        let pos = &self.state.pos;
        let mut v: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| sq.is_none_or(|s| m.from == s || m.to == s))
            .map(|m| notation::format(pos, m))
            .collect();
        v.sort();
        Ok(v)
    }

    /// The moves `user` could make in the position as it stands if it were their turn: the
    /// list `/moves` adds to its refusal off-turn, for planning. Empty for a user who does not
    /// play (or no longer plays) and after the end.
    pub fn planned_moves(&self, user: &str) -> Vec<String> {
        if self.check_in_play().is_err() {
            return Vec::new();
        }
        let Some(seat) = self.seat_of(user) else {
            return Vec::new();
        };
        if self.state.pos.is_defeated(seat) {
            return Vec::new();
        }
        let mut pos = self.state.pos.clone();
        pos.turn = seat;
        let mut v: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .map(|m| notation::format(&pos, m))
            .collect();
        v.sort();
        v
    }

    fn seated(&self, user: &str) -> Result<Seat, Refusal> {
        self.seat_of(user)
            .ok_or_else(|| Refusal::Rule("you are not seated in this game".into()))
    }

    fn check_active(&self, seat: Seat) -> Result<(), Refusal> {
        if self.state.pos.is_defeated(seat) {
            return refuse(format!(
                "you are out of the game ({})",
                self.defeat_text(seat)
            ));
        }
        Ok(())
    }

    fn check_may_move(&self, user: &str) -> Result<Seat, Refusal> {
        self.check_in_play()?;
        let seat = self.seated(user)?;
        self.check_active(seat)?;
        let turn = self.state.pos.turn();
        if turn != seat {
            return refuse(format!("it is {}'s turn, not yours", self.name(turn)));
        }
        Ok(seat)
    }

    fn defeat_text(&self, seat: Seat) -> String {
        match self.state.defeats.iter().find(|d| d.seat == seat) {
            Some(d) => defeat_line(&self.users, d),
            None => format!("{} is defeated", self.name(seat)),
        }
    }

    /// When the player to move overruns `move_limit`, if it is set and the game in play (it
    /// does not run while they are away, shared rules 7.5).
    pub fn due(&self) -> Option<(Seat, Timestamp)> {
        let seat = self.to_move()?;
        let limit = self.settings.move_limit;
        self.move_due(seat, self.user(seat), self.state.turn_started, limit)
    }

    /// Overruns that fall due in `(after, until]`.
    pub fn overruns(&self, after: Timestamp, until: Timestamp) -> Vec<(Seat, Timestamp)> {
        self.due()
            .filter(|&(_, t)| t > after && t <= until)
            .into_iter()
            .collect()
    }

    /// The announcement of an overrun.
    pub fn overrun_text(&self, seat: Seat) -> String {
        let limit = self.settings.move_limit.unwrap_or(0);
        format!(
            "{} has not moved within the move limit ({}); the organiser may concede for them with /ultimate concede player:@{} [to:@…]",
            self.name(seat),
            format_duration(limit),
            self.user(seat)
        )
    }

    // ----- actions -------------------------------------------------------------------

    /// Applies a request by `actor` at `now`; `command` is the command as typed (logged).
    ///
    /// # Errors
    /// A [`Refusal`] saying what is wrong and what would work; nothing changes.
    pub fn apply(
        &mut self,
        actor: &str,
        request: Request,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        let action = match request {
            Request::Move(text) => {
                let seat = self.check_may_move(actor)?;
                let pos = &self.state.pos;
                let mv = notation::resolve(pos, &text)?;
                let mut p = pos.clone();
                let echo = notation::format_with_check(&mut p, mv);
                Action::Move {
                    seat,
                    notation: echo,
                }
            }
            Request::Concede { to } => {
                self.check_in_play()?;
                let seat = self.seated(actor)?;
                self.check_active(seat)?;
                let to = self.victor_named(seat, to.as_deref())?;
                Action::Concede {
                    seat,
                    to,
                    organiser: false,
                }
            }
            Request::OrganiserConcede { player, to } => {
                self.check_in_play()?;
                let player = player.trim_start_matches('@');
                let Some(seat) = self.seat_of(player) else {
                    return refuse(format!("{player} is not seated in this game"));
                };
                if self.state.pos.is_defeated(seat) {
                    return refuse(format!("{} is already out of the game", self.name(seat)));
                }
                let Some(limit) = self.settings.move_limit else {
                    return refuse("this game has no move limit (move_limit:), so there is no overrun to concede for");
                };
                if self.state.pos.turn() != seat {
                    return refuse(format!(
                        "{} is not to move; only the player to move can overrun (it is {}'s turn)",
                        self.name(seat),
                        self.name(self.state.pos.turn())
                    ));
                }
                let due = self.due().map(|(_, at)| at);
                overran(&self.name(seat), due, now, Some(limit))?;
                let to = self.victor_named(seat, to.as_deref())?;
                Action::Concede {
                    seat,
                    to,
                    organiser: true,
                }
            }
            Request::OfferDraw => {
                self.check_in_play()?;
                let seat = self.seated(actor)?;
                self.check_active(seat)?;
                if let Some(o) = &self.state.draw_offer {
                    return refuse(format!(
                        "{} has offered a draw already; answer it with /accept or /decline",
                        self.name(o.by)
                    ));
                }
                Action::OfferDraw { seat }
            }
            Request::AcceptDraw => {
                self.check_in_play()?;
                let seat = self.seated(actor)?;
                self.check_active(seat)?;
                let Some(o) = &self.state.draw_offer else {
                    return refuse("there is no draw offer to accept (make one with /offer draw)");
                };
                if o.accepted.contains(&seat) {
                    return refuse("you have accepted this draw offer already");
                }
                Action::AcceptDraw { seat }
            }
            Request::DeclineDraw => {
                self.check_in_play()?;
                let seat = self.seated(actor)?;
                self.check_active(seat)?;
                if self.state.draw_offer.is_none() {
                    return refuse("there is no draw offer to decline");
                }
                Action::DeclineDraw { seat }
            }
            Request::Takeback => return self.takeback(actor, now, command),
            Request::Revert { to, reason } => {
                return self.revert(Reverting::new(to, actor, &reason, now, command), 0)
            }
        };
        self.commit(actor, now, command, action)
    }

    fn victor_named(&self, seat: Seat, to: Option<&str>) -> Result<Option<Seat>, Refusal> {
        let Some(name) = to else { return Ok(None) };
        let name = name.trim().trim_start_matches('@');
        let Some(v) = self.seat_of(name) else {
            return refuse(format!("{name} is not seated in this game"));
        };
        if v == seat {
            return refuse("you cannot concede to yourself");
        }
        if self.state.pos.is_defeated(v) {
            return refuse(format!("{} is out of the game", self.name(v)));
        }
        Ok(Some(v))
    }

    fn commit(
        &mut self,
        actor: &str,
        now: Timestamp,
        command: &str,
        action: Action,
    ) -> Result<Accepted, Refusal> {
        let answering = matches!(action, Action::OfferDraw { .. } | Action::AcceptDraw { .. });
        let (number, lines) =
            self.record(actor, now, command, action, true, |st, g, a, lines| {
                fold(st, &g.settings, &g.users, a, now, lines)
            })?;
        let mut reply = self.accepted(number, lines);
        if answering && !self.finished() {
            reply.notify = self
                .draw_offer_waiting()
                .into_iter()
                .map(|s| self.user(s).to_string())
                .collect();
        }
        Ok(reply)
    }

    /// The reply: what happened, then whose turn it is (or the result), and who is notified.
    fn accepted(&self, number: Option<u32>, mut lines: Vec<String>) -> Accepted {
        let mut notify = Vec::new();
        match &self.state.outcome {
            Some(o) => lines.push(format!("Game over: {}.", outcome_text(&self.users, o))),
            None => {
                let turn = self.state.pos.turn();
                let others: Vec<String> = self
                    .in_check()
                    .into_iter()
                    .filter(|&s| s != turn)
                    .map(|s| self.name(s))
                    .collect();
                if !others.is_empty() {
                    lines.push(format!("In check: {}.", others.join(", ")));
                }
                let check = if self.state.pos.in_check(turn) {
                    " (in check)"
                } else {
                    ""
                };
                lines.push(format!("{} to move{check}.", self.name(turn)));
                notify.push(self.user(turn).to_string());
            }
        }
        Accepted {
            number,
            text: lines.join("\n"),
            notify,
        }
    }

    /// The players a standing draw offer still waits for.
    pub fn draw_offer_waiting(&self) -> Vec<Seat> {
        match &self.state.draw_offer {
            Some(o) => self
                .state
                .pos
                .active()
                .into_iter()
                .filter(|s| !o.accepted.contains(s))
                .collect(),
            None => Vec::new(),
        }
    }

    // ----- texts -----------------------------------------------------------------------

    /// `/status`: mode, whose turn, who is in check, defeated players, the draw offer, the
    /// result.
    pub fn status_text(&self) -> String {
        let st = &self.state;
        let mut lines = vec![format!(
            "Ultimate Chess, {} mode, stalemate: {}{}{}",
            self.settings.mode.as_str(),
            self.settings.stalemate.as_str(),
            if self.settings.promote_at_file_end {
                ", pawns promote at the end of short files"
            } else {
                ""
            },
            crate::games::export_common::limit_note(self.settings.move_limit)
        )];
        let seats: Vec<String> = Seat::ALL.iter().map(|&s| self.name(s)).collect();
        lines.push(format!("Seats: {}", seats.join(", ")));
        match &st.outcome {
            Some(o) => lines.push(format!("Game over: {}.", outcome_text(&self.users, o))),
            None => lines.push(format!("To move: {}", self.name(st.pos.turn()))),
        }
        let check: Vec<String> = self.in_check().iter().map(|&s| self.name(s)).collect();
        if !check.is_empty() {
            lines.push(format!("In check: {}", check.join(", ")));
        }
        for d in &st.defeats {
            lines.push(format!("Defeated: {}", defeat_line(&self.users, d)));
        }
        if let Some(o) = &st.draw_offer {
            let waiting: Vec<String> = self
                .draw_offer_waiting()
                .into_iter()
                .map(|s| self.name(s))
                .collect();
            lines.push(format!(
                "Draw offer by {}; waiting for {}",
                self.name(o.by),
                waiting.join(", ")
            ));
        }
        if let Some(t) = &st.last_text {
            lines.push(format!("Last move: {t}"));
        }
        if let Some((seat, due)) = self.due() {
            lines.push(format!(
                "{} overruns the move limit at {} ({})",
                self.name(seat),
                crate::time::stamp(due, crate::time::Style::Full),
                crate::time::stamp(due, crate::time::Style::Relative)
            ));
        }
        lines.join("\n")
    }

    /// The console's `!state` lines: `board 1: <placement>`, `position: <position text>`,
    /// then the rest of the state.
    pub fn state_lines(&self) -> Vec<String> {
        let st = &self.state;
        let mut v = board_lines(st.pos.placement(), st.pos.to_text());
        let seats: Vec<String> = Seat::ALL.iter().map(|&s| self.name(s)).collect();
        v.push(format!("seats: {}", seats.join(", ")));
        v.push(format!(
            "settings: mode {}, stalemate {}, promote_at_file_end {}, move_limit {}, seed {}",
            self.settings.mode.as_str(),
            self.settings.stalemate.as_str(),
            if self.settings.promote_at_file_end {
                "on"
            } else {
                "off"
            },
            self.settings
                .move_limit
                .map_or("off".to_string(), format_duration),
            self.settings.seed
        ));
        match &st.outcome {
            Some(o) => v.push(format!("result: {}", outcome_text(&self.users, o))),
            None => v.push(format!("to move: {}", self.name(st.pos.turn()))),
        }
        let check: Vec<String> = self.in_check().iter().map(|&s| self.name(s)).collect();
        v.push(format!("in check: {}", listed(&check, ", ")));
        for d in &st.defeats {
            v.push(format!("defeated: {}", defeat_line(&self.users, d)));
        }
        if let Some(o) = &st.draw_offer {
            let acc: Vec<String> = o.accepted.iter().map(|&s| self.name(s)).collect();
            v.push(format!(
                "draw offer: by {}, accepted by {}",
                self.name(o.by),
                acc.join(", ")
            ));
        }
        v.push(format!(
            "quiet turns: {}",
            Seat::ALL
                .iter()
                .map(|s| format!("{}:{}", s.number(), st.quiet_turns[s.index()]))
                .collect::<Vec<_>>()
                .join(",")
        ));
        if let Some(t) = &st.last_text {
            v.push(format!("last move: {t}"));
        }
        v.push(format!("turn started: {}", st.turn_started));
        v
    }
}

/// `Silver (ann)`.
fn name(users: &[String], seat: Seat) -> String {
    format!("{} ({})", seat.name(), users[seat.index()])
}

fn defeat_line(users: &[String], d: &Defeat) -> String {
    let who = name(users, d.seat);
    let by = d
        .victor
        .map(|v| format!("; victor {}", name(users, v)))
        .unwrap_or_default();
    match d.how {
        DefeatHow::Checkmate => format!("{who}, checkmated{by}"),
        DefeatHow::KingCaptured => format!("{who}, King captured{by}"),
        DefeatHow::Conceded => format!("{who}, conceded{by}"),
        DefeatHow::OrganiserConceded => {
            format!("{who}, conceded by the organiser after an overrun{by}")
        }
    }
}

fn outcome_text(users: &[String], o: &Outcome) -> String {
    match o {
        Outcome::Win(s) => format!("{} wins", name(users, *s)),
        Outcome::Draw { reason, among } => {
            let among: Vec<String> = among.iter().map(|&s| name(users, s)).collect();
            let why = match reason {
                DrawReason::Stalemate(s) => format!(
                    "stalemate: {} has no legal move and is not in check",
                    name(users, *s)
                ),
                DrawReason::AllPass => "every player in play would pass".into(),
                DrawReason::InsufficientMaterial => "insufficient material".into(),
                DrawReason::Repetition => "the same position a third time".into(),
                DrawReason::FiftyMoves => {
                    "fifty moves by every player without a capture or a pawn move".into()
                }
                DrawReason::Agreement => "agreed".into(),
            };
            format!("drawn ({why}) among {}", among.join(", "))
        }
    }
}

/// A short description of an action (for previews and the export).
pub fn describe(a: &Action, users: &[String]) -> String {
    let u = |s: Seat| name(users, s);
    match a {
        Action::Start { position } => crate::games::start_text(position.as_deref()),
        Action::Move { seat, notation } => format!("{} {notation}", u(*seat)),
        Action::Concede {
            seat,
            to,
            organiser,
        } => {
            let who = if *organiser {
                format!("the organiser concedes for {}", u(*seat))
            } else {
                format!("{} concedes", u(*seat))
            };
            match to {
                Some(v) => format!("{who} to {}", u(*v)),
                None => who,
            }
        }
        Action::OfferDraw { seat } => format!("{} offers a draw", u(*seat)),
        Action::AcceptDraw { seat } => format!("{} accepts the draw", u(*seat)),
        Action::DeclineDraw { seat } => format!("{} declines the draw", u(*seat)),
        Action::Takeback { seat, undone } => format!("{} takes back #{undone}", u(*seat)),
        Action::Revert { to, reason } => format!("revert to before #{to} ({reason})"),
        Action::Substitute(h) => h.text(),
    }
}

// ----- the fold -----------------------------------------------------------------------

/// Applies one action to the state, writing what happened into `lines`.
fn fold(
    st: &mut State,
    settings: &Settings,
    users: &[String],
    action: &Action,
    time: Timestamp,
    lines: &mut Vec<String>,
) -> Result<(), Refusal> {
    let nm = |s: Seat| name(users, s);
    // Only the log's own bookkeeping comes after the end (a substitution does not).
    if let (false, Some(o)) = (action.bookkeeping(), &st.outcome) {
        return refuse(format!("the game is over: {}", outcome_text(users, o)));
    }
    match action {
        Action::Start { position } => {
            let mut pos = match position {
                Some(text) => Position::from_text(text)?,
                None => Position::start(settings.mode),
            };
            pos.set_promote_at_file_end(settings.promote_at_file_end);
            *st = State::new(pos, time);
            lines.push(format!(
                "Ultimate Chess ({} mode): {}.",
                settings.mode.as_str(),
                Seat::ALL.map(nm).join(", ")
            ));
            begin_turn(st, settings, users, lines);
        }
        Action::Move {
            seat,
            notation: text,
        } => {
            let turn = st.pos.turn();
            if *seat != turn {
                return refuse(format!("it is {}'s turn", nm(turn)));
            }
            let mv = notation::resolve(&st.pos, text)?;
            let echo = notation::format_with_check(&mut st.pos.clone(), mv);
            let zeroing = st.pos.is_capture(&mv) || st.pos.is_pawn_move(&mv);
            let before = st.pos.defeated();
            st.pos.make(mv);
            st.last = Some((mv.from, mv.to));
            st.last_text = Some(echo.clone());
            lines.push(format!("{} {echo}", nm(*seat)));
            if zeroing {
                st.quiet_turns = [0; 4];
            } else {
                st.quiet_turns[seat.index()] += 1;
            }
            if st.draw_offer.as_ref().is_some_and(|o| o.by == *seat) {
                st.draw_offer = None;
                lines.push(format!(
                    "{}'s draw offer lapses with their move.",
                    nm(*seat)
                ));
            }
            for d in st.pos.defeated() {
                if !before.contains(&d) {
                    let defeat = Defeat {
                        seat: d,
                        victor: Some(*seat),
                        how: DefeatHow::KingCaptured,
                    };
                    lines.push(format!(
                        "{} captures {}'s King: {} is defeated. {}",
                        nm(*seat),
                        d.name(),
                        nm(d),
                        fate_text(&st.pos, users, d, Some(*seat), false)
                    ));
                    record_defeat(st, users, defeat, lines);
                }
            }
            st.turn_started = time;
            begin_turn(st, settings, users, lines);
        }
        Action::Concede {
            seat,
            to,
            organiser,
        } => {
            if st.pos.is_defeated(*seat) {
                return refuse(format!("{} is already out of the game", nm(*seat)));
            }
            if let Some(v) = to {
                if *v == *seat || st.pos.is_defeated(*v) {
                    return refuse(format!("{} cannot be the victor", nm(*v)));
                }
            }
            let was_turn = st.pos.turn() == *seat;
            let fate = match to {
                Some(v) => Fate::Mode(*v),
                None => Fate::Leave,
            };
            let fate_line = fate_text(&st.pos, users, *seat, *to, to.is_none());
            st.pos.defeat(*seat, fate);
            let who = if *organiser {
                format!("The organiser concedes for {}", nm(*seat))
            } else {
                format!("{} concedes", nm(*seat))
            };
            let to_text = to.map(|v| format!(" to {}", nm(v))).unwrap_or_default();
            lines.push(format!("{who}{to_text}. {fate_line}"));
            record_defeat(
                st,
                users,
                Defeat {
                    seat: *seat,
                    victor: *to,
                    how: if *organiser {
                        DefeatHow::OrganiserConceded
                    } else {
                        DefeatHow::Conceded
                    },
                },
                lines,
            );
            if was_turn {
                let next = st.pos.next_active(*seat);
                st.pos.set_turn(next);
                st.turn_started = time;
            }
            begin_turn(st, settings, users, lines);
        }
        Action::OfferDraw { seat } => {
            if st.draw_offer.is_some() {
                return refuse("a draw offer stands already");
            }
            st.draw_offer = Some(DrawOffer {
                by: *seat,
                accepted: vec![*seat],
            });
            lines.push(format!(
                "{} offers a draw; every other player in the game may /accept or /decline.",
                nm(*seat)
            ));
            settle_offer(st, lines);
        }
        Action::AcceptDraw { seat } => {
            let Some(o) = &mut st.draw_offer else {
                return refuse("there is no draw offer");
            };
            if !o.accepted.contains(seat) {
                o.accepted.push(*seat);
            }
            lines.push(format!("{} accepts the draw offer.", nm(*seat)));
            settle_offer(st, lines);
        }
        Action::DeclineDraw { seat } => {
            let Some(o) = st.draw_offer.take() else {
                return refuse("there is no draw offer");
            };
            if o.by == *seat {
                lines.push(format!("{} withdraws their draw offer.", nm(*seat)));
            } else {
                lines.push(format!("{} declines {}'s draw offer.", nm(*seat), nm(o.by)));
            }
        }
        Action::Takeback { .. } | Action::Revert { .. } => {
            // The undone actions are skipped by the replay; the player to move gets a fresh
            // turn from now.
            st.turn_started = time;
        }
        Action::Substitute(h) => {
            // The incoming player starts with a fresh limit (RULINGS §9).
            if st.pos.turn().index() == h.seat {
                st.turn_started = time;
            }
            lines.push(format!("{}.", h.text()));
        }
    }
    Ok(())
}

/// Describes where a defeated seat's pieces go (before the defeat is applied).
fn fate_text(
    pos: &Position,
    users: &[String],
    d: Seat,
    victor: Option<Seat>,
    leave: bool,
) -> String {
    let mut seats = vec![d];
    seats.extend(
        Seat::ALL
            .into_iter()
            .filter(|&s| s != d && pos.is_defeated(s) && pos.controller(s) == Some(d)),
    );
    let list = seats
        .iter()
        .map(|s| format!("{}'s", s.name()))
        .collect::<Vec<_>>()
        .join(" and ");
    match (pos.mode(), victor) {
        _ if leave => format!("{list} pieces leave the board."),
        (Mode::Devastation, Some(v)) => format!(
            "{}'s King leaves the board; {} now plays {list} pieces.",
            d.name(),
            name(users, v)
        ),
        (Mode::Conquest, Some(_)) => {
            format!("{}'s pieces stay on the board as obstacles.", d.name())
        }
        _ => format!("{list} pieces leave the board."),
    }
}

fn record_defeat(st: &mut State, users: &[String], d: Defeat, lines: &mut Vec<String>) {
    st.defeats.push(d);
    if let Some(o) = &st.draw_offer {
        if o.by == d.seat {
            st.draw_offer = None;
            lines.push(format!(
                "{}'s draw offer lapses with their defeat.",
                name(users, d.seat)
            ));
        }
    }
    let active = st.pos.active();
    if active.len() == 1 {
        st.outcome = Some(Outcome::Win(active[0]));
        return;
    }
    settle_offer(st, lines);
}

/// Ends the game drawn when every player in the game has accepted the standing offer.
fn settle_offer(st: &mut State, lines: &mut Vec<String>) {
    let Some(o) = &st.draw_offer else { return };
    if st.outcome.is_some() {
        return;
    }
    let active = st.pos.active();
    if active.iter().all(|s| o.accepted.contains(s)) {
        st.draw_offer = None;
        st.outcome = Some(Outcome::Draw {
            reason: DrawReason::Agreement,
            among: active,
        });
        lines.push("Every player in the game accepts: the game is drawn.".into());
    }
}

/// What happens as a turn begins (§4.4, §4.6): a player with no legal move is checkmated
/// (defeated; the victor is the first player after them in turn order attacking their King)
/// or stalemated (draw, or a pass under `stalemate:pass`); then the automatic draws.
fn begin_turn(st: &mut State, settings: &Settings, users: &[String], lines: &mut Vec<String>) {
    let nm = |s: Seat| name(users, s);
    let mut passes = 0;
    loop {
        if st.outcome.is_some() {
            return;
        }
        let active = st.pos.active();
        if active.len() <= 1 {
            if let Some(&w) = active.first() {
                st.outcome = Some(Outcome::Win(w));
            }
            return;
        }
        let seat = st.pos.turn();
        if !st.pos.legal_moves().is_empty() {
            break;
        }
        if st.pos.in_check(seat) {
            let king = st.pos.king(seat);
            let mut victor = None;
            let mut v = seat;
            for _ in 0..3 {
                v = st.pos.next_active(v);
                if v == seat {
                    break;
                }
                if king.is_some_and(|k| st.pos.attacked_by_player(k, v)) {
                    victor = Some(v);
                    break;
                }
            }
            let fate = fate_text(&st.pos, users, seat, victor, victor.is_none());
            let by = victor
                .map(|v| format!("; {} is the victor", nm(v)))
                .unwrap_or_default();
            lines.push(format!("{} is checkmated{by}. {fate}", nm(seat)));
            st.pos.defeat(
                seat,
                match victor {
                    Some(v) => Fate::Mode(v),
                    None => Fate::Leave,
                },
            );
            let next = st.pos.next_active(seat);
            st.pos.set_turn(next);
            record_defeat(
                st,
                users,
                Defeat {
                    seat,
                    victor,
                    how: DefeatHow::Checkmate,
                },
                lines,
            );
            passes = 0;
            continue;
        }
        match settings.stalemate {
            Stalemate::Draw => {
                st.outcome = Some(Outcome::Draw {
                    reason: DrawReason::Stalemate(seat),
                    among: active,
                });
                return;
            }
            Stalemate::Pass => {
                passes += 1;
                if passes >= active.len() {
                    st.outcome = Some(Outcome::Draw {
                        reason: DrawReason::AllPass,
                        among: active,
                    });
                    return;
                }
                lines.push(format!(
                    "{} has no legal move and is not in check: they pass.",
                    nm(seat)
                ));
                st.quiet_turns[seat.index()] += 1;
                let next = st.pos.next_active(seat);
                st.pos.set_turn(next);
            }
        }
    }
    let active = st.pos.active();
    if insufficient_material(&st.pos) {
        st.outcome = Some(Outcome::Draw {
            reason: DrawReason::InsufficientMaterial,
            among: active,
        });
        return;
    }
    if active.iter().all(|s| st.quiet_turns[s.index()] >= 50) {
        st.outcome = Some(Outcome::Draw {
            reason: DrawReason::FiftyMoves,
            among: active,
        });
        return;
    }
    let key = {
        use std::hash::{Hash, Hasher};
        // Fixed keys: the same position always hashes alike.
        let mut h = std::hash::DefaultHasher::new();
        st.pos.to_text().hash(&mut h);
        h.finish()
    };
    let n = st.seen.entry(key).or_insert(0);
    *n += 1;
    if *n >= 3 {
        st.outcome = Some(Outcome::Draw {
            reason: DrawReason::Repetition,
            among: active,
        });
    }
}

/// §4.6: automatic only when every player in the game has a bare King, or two remain with
/// King against King and one Bishop, Knight or Mage; never with obstacles on the board.
fn insufficient_material(pos: &Position) -> bool {
    let mut extra = Vec::new();
    for (_, p) in pos.pieces() {
        if pos.controller(p.seat).is_none() {
            return false;
        }
        if p.kind != Kind::King {
            extra.push(p.kind);
        }
    }
    match extra.as_slice() {
        [] => true,
        [k] => pos.active().len() == 2 && matches!(k, Kind::Bishop | Kind::Knight | Kind::Mage),
        _ => false,
    }
}

impl Bookkept for Game {
    type Accepted = Accepted;
    type Refusal = Refusal;

    /// Takes back the user's own last action if it is the last action of the game (shared rules 7.2).
    fn takeback(&mut self, user: &str, now: Timestamp, command: &str) -> Result<Accepted, Refusal> {
        let seat = self.seated(user)?;
        let (number, line) = self.take_back(user, now, command, |undone| Action::Takeback {
            seat,
            undone,
        })?;
        Ok(self.accepted(number, vec![line]))
    }

    /// Reverts the game to before action `to` (a moderator, after confirmation).
    fn revert(&mut self, by: Reverting<'_>, _entropy: u64) -> Result<Accepted, Refusal> {
        let (number, line) = self.revert_logged(&by, |to, reason| Action::Revert { to, reason })?;
        Ok(self.accepted(number, vec![line]))
    }

    fn substitute(&mut self, s: crate::layer::log::Substitution<'_>) -> Result<Accepted, Refusal> {
        self.commit(s.actor, s.now, s.raw, Action::Substitute(s.handover))
    }
}

crate::layer::table::fold! {
    /// Ultimate Chess's rules, as its [`Table`] folds them.
    Ultimate described by describe {
        fn begin(g: &Game) -> State {
            State::new(Position::start(g.settings.mode), 0)
        }

        fn replay_entry(g: &mut Game, e: &Entry) -> Result<(), Refusal> {
            fold(&mut g.state, &g.settings, &g.users, &e.action, e.time, &mut Vec::new())
        }

        fn ended(g: &Game) -> Option<String> {
            Some(outcome_text(&g.users, g.state.outcome.as_ref()?))
        }
    }
}
