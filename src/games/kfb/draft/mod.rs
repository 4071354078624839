//! The Kung Fu Bughouse draft: every player chooses first/second, a colour and an army
//! (KFB rules 1.0 and 1.8).
//!
//! Pure logic: no I/O, no clock, no randomness. Who picks first (a player, drawn by the game
//! from its seed, or just a team) is an input.
//!
//! Players are indices `0..6`: team 0 is players 0, 1, 2 and team 1 is players 3, 4, 5.
//! [`Draft::pick`] never changes the draft; it returns a [`DraftOutcome`] (plain data, fit for
//! an append-only log) that [`Draft::apply`] then applies, so replaying the log rebuilds the
//! draft exactly.
//!
//! Messages in refusals and hand-over reasons name players and teams by these indices
//! (`player 4`, `team 1`); the fields carry the same numbers for front ends that prefer names.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

mod constraints;
use constraints::*;

/// Number of players in a draft.
pub const PLAYERS: usize = 6;
/// Number of players in a team.
pub const TEAM_SIZE: usize = 3;

/// The team (0 or 1) of a player index.
pub fn team_of(player: usize) -> usize {
    player / TEAM_SIZE
}

/// The player indices of a team (0 or 1; any other number is read modulo 2).
pub fn team_players(team: usize) -> [usize; TEAM_SIZE] {
    let base = (team % 2) * TEAM_SIZE;
    [base, base + 1, base + 2]
}

/// A word in a pick command that names no colour, order or army.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("`{word}` is not a {what}: use {expected}")]
pub struct ParseError {
    /// What was being parsed (`colour`, `order`, `army`).
    pub what: &'static str,
    /// The word as given.
    pub word: String,
    /// The accepted words, for the message.
    pub expected: &'static str,
}

/// A player's colour. Each team has exactly one player of each colour.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Colour {
    /// Red.
    Red,
    /// Light green.
    LightGreen,
    /// Blue.
    Blue,
}

impl Colour {
    /// All colours, in the order red, lightgreen, blue.
    pub const ALL: [Colour; 3] = [Colour::Red, Colour::LightGreen, Colour::Blue];

    /// Parses the command word (`red`, `lightgreen`, `blue`; case-insensitive).
    pub fn parse(word: &str) -> Result<Colour, ParseError> {
        let w = word.trim();
        Colour::ALL
            .into_iter()
            .find(|c| c.as_str().eq_ignore_ascii_case(w))
            .ok_or_else(|| ParseError {
                what: "colour",
                word: word.to_string(),
                expected: "red, lightgreen or blue",
            })
    }

    /// The command word.
    pub fn as_str(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::LightGreen => "lightgreen",
            Colour::Blue => "blue",
        }
    }

    fn index(self) -> usize {
        match self {
            Colour::Red => 0,
            Colour::LightGreen => 1,
            Colour::Blue => 2,
        }
    }
}

/// Whether a player moves first (bottom of the board, ranks 1–2) or second (top) on their board.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Order {
    /// Moves first.
    First,
    /// Moves second.
    Second,
}

impl Order {
    /// Both orders.
    pub const ALL: [Order; 2] = [Order::First, Order::Second];

    /// Parses the command word (`first`, `second`; case-insensitive).
    pub fn parse(word: &str) -> Result<Order, ParseError> {
        let w = word.trim();
        Order::ALL
            .into_iter()
            .find(|o| o.as_str().eq_ignore_ascii_case(w))
            .ok_or_else(|| ParseError {
                what: "order",
                word: word.to_string(),
                expected: "first or second",
            })
    }

    /// The command word.
    pub fn as_str(self) -> &'static str {
        match self {
            Order::First => "first",
            Order::Second => "second",
        }
    }
}

/// One of the five armies (KFB rules 1.1).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Army {
    /// Fabulous FIDEs.
    Fide,
    /// Colorbound Clobberers.
    Clobberers,
    /// Nutty Knights.
    Nutty,
    /// Remarkable Rookies.
    Rookies,
    /// Forward FIDEs.
    Forward,
}

impl Army {
    /// All armies.
    pub const ALL: [Army; 5] = [
        Army::Fide,
        Army::Clobberers,
        Army::Nutty,
        Army::Rookies,
        Army::Forward,
    ];

    /// Parses the command word (`fide`, `clobberers`, `nutty`, `rookies`, `forward`;
    /// case-insensitive).
    pub fn parse(word: &str) -> Result<Army, ParseError> {
        let w = word.trim();
        Army::ALL
            .into_iter()
            .find(|a| a.as_str().eq_ignore_ascii_case(w))
            .ok_or_else(|| ParseError {
                what: "army",
                word: word.to_string(),
                expected: "fide, clobberers, nutty, rookies or forward",
            })
    }

    /// The command word.
    pub fn as_str(self) -> &'static str {
        match self {
            Army::Fide => "fide",
            Army::Clobberers => "clobberers",
            Army::Nutty => "nutty",
            Army::Rookies => "rookies",
            Army::Forward => "forward",
        }
    }

    /// The army's full name, as the rule document writes it.
    pub fn name(self) -> &'static str {
        match self {
            Army::Fide => "Fabulous FIDEs",
            Army::Clobberers => "Colorbound Clobberers",
            Army::Nutty => "Nutty Knights",
            Army::Rookies => "Remarkable Rookies",
            Army::Forward => "Forward FIDEs",
        }
    }

    fn bit(self) -> u8 {
        match self {
            Army::Fide => 1,
            Army::Clobberers => 2,
            Army::Nutty => 4,
            Army::Rookies => 8,
            Army::Forward => 16,
        }
    }
}

macro_rules! display_and_from_str {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl FromStr for $t {
            type Err = ParseError;
            fn from_str(s: &str) -> Result<Self, ParseError> {
                <$t>::parse(s)
            }
        }
    )*};
}
display_and_from_str!(Colour, Order, Army);

/// One player's draft choice.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Choice {
    /// First or second on the board.
    pub order: Order,
    /// The player's colour.
    pub colour: Colour,
    /// The player's army.
    pub army: Army,
}

impl Choice {
    /// A choice from its three parts.
    pub fn new(order: Order, colour: Colour, army: Army) -> Choice {
        Choice {
            order,
            colour,
            army,
        }
    }

    /// All 30 choices, ordered by order, then colour, then army.
    pub fn all() -> impl Iterator<Item = Choice> {
        Order::ALL.into_iter().flat_map(|order| {
            Colour::ALL.into_iter().flat_map(move |colour| {
                Army::ALL
                    .into_iter()
                    .map(move |army| Choice::new(order, colour, army))
            })
        })
    }
}

impl fmt::Display for Choice {
    /// The command words: `first red fide`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.order, self.colour, self.army)
    }
}

/// The players of one board: who moves first and who moves second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardSeat {
    /// The player moving first (bottom of the board).
    pub first: usize,
    /// The player moving second (top of the board).
    pub second: usize,
}

/// Where everyone sits once the draft is complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seating {
    /// Index 0 is board 1 {red, lightgreen}, index 1 board 2 {blue, red}, index 2 board 3
    /// {lightgreen, blue}.
    pub boards: [BoardSeat; 3],
}

impl Seating {
    /// The board index (0..3) of a player.
    pub fn board_of(&self, player: usize) -> Option<usize> {
        self.boards
            .iter()
            .position(|b| b.first == player || b.second == player)
    }

    /// The player facing `player` on their board.
    pub fn opponent_of(&self, player: usize) -> Option<usize> {
        self.boards.iter().find_map(|b| {
            if b.first == player {
                Some(b.second)
            } else if b.second == player {
                Some(b.first)
            } else {
                None
            }
        })
    }
}

/// What a pick does. Plain data: the game logs it and replays it with [`Draft::apply`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum DraftOutcome {
    /// `choice` is recorded for `player`; `by` is who made the pick (the player themselves, or
    /// a player of the other team choosing a replacement after a hand-over).
    Picked {
        /// Whose choice this is.
        player: usize,
        /// The recorded choice.
        choice: Choice,
        /// Who picked it.
        by: usize,
    },
    /// `player`'s own choice `refused` broke a constraint or made the draft impossible to
    /// complete. It is not recorded; a player of the other team must now pick for `player`.
    HandedOver {
        /// Whose choice was refused.
        player: usize,
        /// The refused choice.
        refused: Choice,
        /// Why, in plain words.
        reason: String,
    },
}

/// A pick that is refused without consequences: nothing changes and the same player (or team)
/// tries again.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DraftRefusal {
    /// Every player has picked.
    #[error("the draft is already complete: every player has picked and the boards are seated")]
    Complete,
    /// A player index outside `0..6`.
    #[error("player {player} is not in this draft (players are 0 to 5)")]
    NoSuchPlayer {
        /// The index given.
        player: usize,
    },
    /// Before the first pick: someone other than the player who starts the draft picked.
    #[error(
        "player {player} makes the first pick of the draft (drawn with the seed); after it the \
         teams take turns, team {} first, and any player of the team on turn who has not \
         picked may pick",
        1 - team_of(*.player)
    )]
    FirstPick {
        /// The player who makes the first pick.
        player: usize,
    },
    /// The actor's team is not the one to pick.
    #[error(
        "it is team {team}'s turn to pick: {} may pick now",
        list_players(.waiting)
    )]
    NotYourTurn {
        /// The team whose turn it is.
        team: usize,
        /// That team's players who have not picked yet.
        waiting: Vec<usize>,
    },
    /// The player has already made their choice.
    #[error("player {player} has already picked ({choice}); each player picks once")]
    AlreadyPicked {
        /// The player.
        player: usize,
        /// Their recorded choice.
        choice: Choice,
    },
    /// A pick for a teammate outside a hand-over.
    #[error(
        "player {player} must make their own pick: `for` is only for choosing a replacement \
         after an opponent's choice was refused, and no hand-over is pending"
    )]
    ForTeammate {
        /// The teammate named.
        player: usize,
    },
    /// A pick for an opponent outside a hand-over.
    #[error(
        "you cannot pick for player {player} of the other team: that happens only after one of \
         their choices is refused, and no hand-over is pending"
    )]
    ForOpponent {
        /// The opponent named.
        player: usize,
    },
    /// A player of the refused team tried to pick while the other team owes a replacement.
    #[error(
        "player {player}'s choice was refused, so team {team} now picks a replacement for them \
         (with `for` player {player}); nobody else picks until then"
    )]
    AwaitingReplacement {
        /// The player whose choice was refused.
        player: usize,
        /// The team that must pick the replacement.
        team: usize,
    },
    /// A player of the replacing team picked without naming the handed-over player.
    #[error(
        "a hand-over is pending: pick the replacement for player {player} by naming them with \
         `for`"
    )]
    ReplacementNeedsFor {
        /// The player whose replacement is due.
        player: usize,
    },
    /// The replacement named the wrong player.
    #[error(
        "the pending hand-over is for player {pending}, not player {asked}: pick with `for` \
         player {pending}"
    )]
    WrongReplacementTarget {
        /// The player whose replacement is due.
        pending: usize,
        /// The player named.
        asked: usize,
    },
    /// The replacement itself breaks a constraint or makes the draft impossible to complete.
    #[error(
        "{choice} for player {player} does not work either ({reason}); choices that would work \
         include {}",
        list_choices(.options)
    )]
    ReplacementImpossible {
        /// The player whose replacement is due.
        player: usize,
        /// The refused replacement.
        choice: Choice,
        /// Why, in plain words.
        reason: String,
        /// Some choices that would be accepted.
        options: Vec<Choice>,
    },
}

fn list_players(players: &[usize]) -> String {
    let names: Vec<String> = players.iter().map(|p| format!("player {p}")).collect();
    join_or(&names)
}

fn list_choices(choices: &[Choice]) -> String {
    let names: Vec<String> = choices.iter().map(|c| format!("`{c}`")).collect();
    join_or(&names)
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => "none".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// The state of a draft.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Draft {
    first_team: usize,
    first_picker: Option<usize>,
    turn: usize,
    picks: [Option<Choice>; PLAYERS],
    pending: Option<usize>,
}

impl Draft {
    /// A new draft in which `first_team` (0 or 1; other numbers are read modulo 2) picks first,
    /// by any of its players.
    pub fn new(first_team: usize) -> Draft {
        Draft {
            first_team: first_team % 2,
            first_picker: None,
            turn: first_team % 2,
            picks: [None; PLAYERS],
            pending: None,
        }
    }

    /// A new draft that `player` starts (KFB rules 1.8): until the first pick is made, only
    /// they may pick; then the teams alternate as usual. A number outside `0..6` is read
    /// modulo 6.
    pub fn starting_with(player: usize) -> Draft {
        let player = player % PLAYERS;
        Draft {
            first_picker: Some(player),
            ..Draft::new(team_of(player))
        }
    }

    /// A draft rebuilt by applying logged outcomes in order to `start` (a new draft).
    pub fn replay<'a>(start: Draft, log: impl IntoIterator<Item = &'a DraftOutcome>) -> Draft {
        let mut draft = start;
        for outcome in log {
            draft.apply(outcome);
        }
        draft
    }

    /// The team that picked first.
    pub fn first_team(&self) -> usize {
        self.first_team
    }

    /// The player who makes the first pick, if the draft names one.
    pub fn first_picker(&self) -> Option<usize> {
        self.first_picker
    }

    /// Whether nothing has been picked or handed over yet.
    pub fn is_fresh(&self) -> bool {
        self.pending.is_none() && self.picks.iter().all(Option::is_none)
    }

    /// The players who may pick now, in index order: the player who starts while nothing has
    /// been picked, during a hand-over the three players of the replacing team, otherwise
    /// the players of the team on turn who have not picked. Empty once the draft is complete.
    pub fn pickers(&self) -> Vec<usize> {
        if self.is_complete() {
            return Vec::new();
        }
        if let Some(pending) = self.pending {
            return team_players(1 - team_of(pending)).to_vec();
        }
        match self.first_picker {
            Some(first) if self.is_fresh() => vec![first],
            _ => self.unpicked(self.turn),
        }
    }

    /// The team whose turn it is, `None` once the draft is complete. While a hand-over is
    /// pending this is still the refused player's team (their pick is not done); see
    /// [`Draft::pending`] for who picks.
    pub fn turn(&self) -> Option<usize> {
        (!self.is_complete()).then_some(self.turn)
    }

    /// The team whose players may pick now: during a hand-over the team picking the
    /// replacement, otherwise the team whose turn it is; `None` once the draft is complete.
    pub fn acting_team(&self) -> Option<usize> {
        match self.pending {
            Some(player) => Some(1 - team_of(player)),
            None => self.turn(),
        }
    }

    /// The player whose refused choice the other team must replace, if any.
    pub fn pending(&self) -> Option<usize> {
        self.pending
    }

    /// The recorded choice of a player.
    pub fn choice(&self, player: usize) -> Option<Choice> {
        self.picks.get(player).copied().flatten()
    }

    /// All recorded choices, by player index.
    pub fn picks(&self) -> &[Option<Choice>; PLAYERS] {
        &self.picks
    }

    /// Whether all six players have a recorded choice.
    pub fn is_complete(&self) -> bool {
        self.pending.is_none() && self.picks.iter().all(Option::is_some)
    }

    /// What `actor` picking `choice` would do; `for_player` names the handed-over player when
    /// `actor` picks a replacement (naming `actor` themselves is the same as `None`).
    /// Does not change the draft: pass the outcome to [`Draft::apply`].
    pub fn pick(
        &self,
        actor: usize,
        for_player: Option<usize>,
        choice: Choice,
    ) -> Result<DraftOutcome, DraftRefusal> {
        if self.is_complete() {
            return Err(DraftRefusal::Complete);
        }
        if actor >= PLAYERS {
            return Err(DraftRefusal::NoSuchPlayer { player: actor });
        }
        if let Some(target) = for_player.filter(|&t| t >= PLAYERS) {
            return Err(DraftRefusal::NoSuchPlayer { player: target });
        }
        if let Some(pending) = self.pending {
            return self.pick_replacement(actor, for_player, choice, pending);
        }
        if let Some(target) = for_player.filter(|&t| t != actor) {
            return Err(if team_of(target) == team_of(actor) {
                DraftRefusal::ForTeammate { player: target }
            } else {
                DraftRefusal::ForOpponent { player: target }
            });
        }
        if let Some(previous) = self.picks[actor] {
            return Err(DraftRefusal::AlreadyPicked {
                player: actor,
                choice: previous,
            });
        }
        if let Some(first) = self.first_picker.filter(|&f| f != actor && self.is_fresh()) {
            return Err(DraftRefusal::FirstPick { player: first });
        }
        if team_of(actor) != self.turn {
            return Err(DraftRefusal::NotYourTurn {
                team: self.turn,
                waiting: self.unpicked(self.turn),
            });
        }
        let trial = self.with(actor, choice);
        if completable(&trial, ALL_RULES) {
            Ok(DraftOutcome::Picked {
                player: actor,
                choice,
                by: actor,
            })
        } else {
            Ok(DraftOutcome::HandedOver {
                player: actor,
                refused: choice,
                reason: explain(&trial, actor),
            })
        }
    }

    fn pick_replacement(
        &self,
        actor: usize,
        for_player: Option<usize>,
        choice: Choice,
        pending: usize,
    ) -> Result<DraftOutcome, DraftRefusal> {
        let refused_team = team_of(pending);
        if team_of(actor) == refused_team {
            return Err(DraftRefusal::AwaitingReplacement {
                player: pending,
                team: 1 - refused_team,
            });
        }
        match for_player {
            None => Err(DraftRefusal::ReplacementNeedsFor { player: pending }),
            Some(asked) if asked != pending => {
                Err(DraftRefusal::WrongReplacementTarget { pending, asked })
            }
            Some(_) => {
                let trial = self.with(pending, choice);
                if completable(&trial, ALL_RULES) {
                    Ok(DraftOutcome::Picked {
                        player: pending,
                        choice,
                        by: actor,
                    })
                } else {
                    Err(DraftRefusal::ReplacementImpossible {
                        player: pending,
                        choice,
                        reason: explain(&trial, pending),
                        options: self.suggestions(pending),
                    })
                }
            }
        }
    }

    /// Applies an outcome returned by [`Draft::pick`] on this same state (or read back from
    /// the log in order). Outcomes naming players outside `0..6` are ignored.
    pub fn apply(&mut self, outcome: &DraftOutcome) {
        match *outcome {
            DraftOutcome::Picked { player, choice, .. } => {
                if let Some(slot) = self.picks.get_mut(player) {
                    *slot = Some(choice);
                    self.pending = None;
                    // The pick counts for the player's team; the turn passes to the other team
                    // (after a replacement, that is the team that made it).
                    self.turn = 1 - team_of(player);
                }
            }
            DraftOutcome::HandedOver { player, .. } => {
                if player < PLAYERS {
                    self.pending = Some(player);
                }
            }
        }
    }

    /// The choices for `player` that keep the draft completable (empty if they have picked).
    /// Ordered by order, colour, army.
    pub fn valid_choices(&self, player: usize) -> Vec<Choice> {
        if player >= PLAYERS || self.picks[player].is_some() {
            return Vec::new();
        }
        Choice::all()
            .filter(|&c| completable(&self.with(player, c), ALL_RULES))
            .collect()
    }

    /// The seats once the draft is complete: the unique seating the choices allow.
    pub fn seating(&self) -> Option<Seating> {
        if !self.is_complete() {
            return None;
        }
        let mut choices = [Choice::new(Order::First, Colour::Red, Army::Fide); PLAYERS];
        for (slot, pick) in choices.iter_mut().zip(self.picks) {
            *slot = pick?;
        }
        (0..SEATINGS.len()).find_map(|s| valid_seating(&choices, s))
    }

    fn with(&self, player: usize, choice: Choice) -> [Option<Choice>; PLAYERS] {
        let mut picks = self.picks;
        if let Some(slot) = picks.get_mut(player) {
            *slot = Some(choice);
        }
        picks
    }

    fn unpicked(&self, team: usize) -> Vec<usize> {
        team_players(team)
            .into_iter()
            .filter(|&p| self.picks[p].is_none())
            .collect()
    }

    /// A varied handful of valid choices: for each order and colour, the first army that works.
    fn suggestions(&self, player: usize) -> Vec<Choice> {
        let valid = self.valid_choices(player);
        let mut out: Vec<Choice> = Vec::new();
        for c in valid {
            if !out
                .iter()
                .any(|o| o.order == c.order && o.colour == c.colour)
            {
                out.push(c);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
