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

// ---------------------------------------------------------------------------------------------
// Constraint checking.

/// The two seatings: for each board (board 1, 2, 3), the colours of the team 0 and team 1
/// players seated there.
const SEATINGS: [[(Colour, Colour); 3]; 2] = [
    // Seating A: t0.red–t1.lightgreen, t0.blue–t1.red, t0.lightgreen–t1.blue.
    [
        (Colour::Red, Colour::LightGreen),
        (Colour::Blue, Colour::Red),
        (Colour::LightGreen, Colour::Blue),
    ],
    // Seating B: t0.lightgreen–t1.red, t0.red–t1.blue, t0.blue–t1.lightgreen.
    [
        (Colour::LightGreen, Colour::Red),
        (Colour::Red, Colour::Blue),
        (Colour::Blue, Colour::LightGreen),
    ],
];

/// The six ways to give a team's three players (in index order) the three colours.
const COLOUR_PERMS: [[Colour; 3]; 6] = {
    use Colour::{Blue as B, LightGreen as G, Red as R};
    [
        [R, G, B],
        [R, B, G],
        [G, R, B],
        [G, B, R],
        [B, R, G],
        [B, G, R],
    ]
};

/// Constraints beyond "each team has one player of each colour" (which the search always
/// enforces), in the order used to explain a refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    BoardOrders,
    TeamFirst,
    NoMirror,
    TeamTwoArmies,
    GameThreeArmies,
}

impl Rule {
    const ALL: [Rule; 5] = [
        Rule::BoardOrders,
        Rule::TeamFirst,
        Rule::NoMirror,
        Rule::TeamTwoArmies,
        Rule::GameThreeArmies,
    ];

    fn bit(self) -> u8 {
        match self {
            Rule::BoardOrders => 1,
            Rule::TeamFirst => 2,
            Rule::NoMirror => 4,
            Rule::TeamTwoArmies => 8,
            Rule::GameThreeArmies => 16,
        }
    }
}

const ALL_RULES: u8 = 31;

/// Board pairs: `(team 0 player, team 1 player)` for boards 1, 2, 3.
type Boards = [(usize, usize); 3];

fn boards_for(seating: usize, perm0: &[Colour; 3], perm1: &[Colour; 3]) -> Boards {
    let mut boards = [(0, TEAM_SIZE); 3];
    for (board, &(c0, c1)) in boards.iter_mut().zip(&SEATINGS[seating]) {
        let i = perm0.iter().position(|&c| c == c0).unwrap_or(0);
        let j = perm1.iter().position(|&c| c == c1).unwrap_or(0);
        *board = (i, TEAM_SIZE + j);
    }
    boards
}

fn colours_fit(picks: &[Option<Choice>; PLAYERS], team: usize, perm: &[Colour; 3]) -> bool {
    team_players(team)
        .into_iter()
        .zip(perm)
        .all(|(p, &c)| picks[p].is_none_or(|pick| pick.colour == c))
}

/// Whether some choices for the unpicked players and some seating satisfy the colour rule and
/// every rule in `rules` (a set of [`Rule`] bits).
fn completable(picks: &[Option<Choice>; PLAYERS], rules: u8) -> bool {
    // Orders and armies only depend on who faces whom, so cache by that pairing
    // (team 0 player i faces team 1 player opp[i]; key = opp in base 3).
    let mut memo = [None::<bool>; 27];
    for seating in 0..SEATINGS.len() {
        for perm0 in COLOUR_PERMS.iter().filter(|p| colours_fit(picks, 0, p)) {
            for perm1 in COLOUR_PERMS.iter().filter(|p| colours_fit(picks, 1, p)) {
                let boards = boards_for(seating, perm0, perm1);
                let mut opp = [0usize; 3];
                for &(a, b) in &boards {
                    opp[a] = b - TEAM_SIZE;
                }
                let key = opp[0] * 9 + opp[1] * 3 + opp[2];
                let ok = *memo[key].get_or_insert_with(|| {
                    orders_possible(picks, &boards, rules) && armies_possible(picks, &boards, rules)
                });
                if ok {
                    return true;
                }
            }
        }
    }
    false
}

fn orders_possible(picks: &[Option<Choice>; PLAYERS], boards: &Boards, rules: u8) -> bool {
    (0u8..64).any(|mask| {
        let first = |p: usize| mask >> p & 1 == 1;
        let fits =
            (0..PLAYERS).all(|p| picks[p].is_none_or(|c| (c.order == Order::First) == first(p)));
        fits && (rules & Rule::BoardOrders.bit() == 0
            || boards.iter().all(|&(a, b)| first(a) != first(b)))
            && (rules & Rule::TeamFirst.bit() == 0
                || (0..2).all(|t| team_players(t).into_iter().any(first)))
    })
}

fn armies_possible(picks: &[Option<Choice>; PLAYERS], boards: &Boards, rules: u8) -> bool {
    let mut seq = [0usize; PLAYERS];
    for (i, &(a, b)) in boards.iter().enumerate() {
        seq[2 * i] = a;
        seq[2 * i + 1] = b;
    }
    let mut armies = [Army::Fide; PLAYERS];
    assign_armies(picks, &seq, rules, 0, &mut armies)
}

/// Backtracking over the players in board order (`seq`), so that a mirror is pruned as soon
/// as the second player of a board gets an army.
fn assign_armies(
    picks: &[Option<Choice>; PLAYERS],
    seq: &[usize; PLAYERS],
    rules: u8,
    depth: usize,
    armies: &mut [Army; PLAYERS],
) -> bool {
    if depth == PLAYERS {
        return armies_satisfy(armies, rules);
    }
    let p = seq[depth];
    let fixed = picks[p].map(|c| c.army);
    for army in Army::ALL {
        if fixed.is_some_and(|f| f != army) {
            continue;
        }
        if depth % 2 == 1 && rules & Rule::NoMirror.bit() != 0 && armies[seq[depth - 1]] == army {
            continue;
        }
        armies[p] = army;
        if assign_armies(picks, seq, rules, depth + 1, armies) {
            return true;
        }
    }
    false
}

fn army_set(armies: impl IntoIterator<Item = Army>) -> u8 {
    armies.into_iter().fold(0, |acc, a| acc | a.bit())
}

fn armies_satisfy(armies: &[Army; PLAYERS], rules: u8) -> bool {
    (rules & Rule::TeamTwoArmies.bit() == 0
        || (army_set(armies[..TEAM_SIZE].iter().copied()).count_ones() >= 2
            && army_set(armies[TEAM_SIZE..].iter().copied()).count_ones() >= 2))
        && (rules & Rule::GameThreeArmies.bit() == 0
            || army_set(armies.iter().copied()).count_ones() >= 3)
}

/// Checks a complete set of choices against one seating (index into [`SEATINGS`]), directly
/// from the rules, and returns the seats if everything holds.
fn valid_seating(choices: &[Choice; PLAYERS], seating: usize) -> Option<Seating> {
    // Each team: one player of each colour.
    for team in 0..2 {
        let seen = team_players(team)
            .into_iter()
            .fold(0u8, |acc, p| acc | 1 << choices[p].colour.index());
        if seen != 0b111 {
            return None;
        }
    }
    let find = |team: usize, colour: Colour| {
        team_players(team)
            .into_iter()
            .find(|&p| choices[p].colour == colour)
    };
    let mut boards = [BoardSeat {
        first: 0,
        second: 0,
    }; 3];
    for (seat, &(c0, c1)) in boards.iter_mut().zip(&SEATINGS[seating]) {
        let (a, b) = (find(0, c0)?, find(1, c1)?);
        let (ca, cb) = (choices[a], choices[b]);
        if ca.army == cb.army || ca.order == cb.order {
            return None;
        }
        *seat = if ca.order == Order::First {
            BoardSeat {
                first: a,
                second: b,
            }
        } else {
            BoardSeat {
                first: b,
                second: a,
            }
        };
    }
    for team in 0..2 {
        let players = team_players(team);
        if !players.iter().any(|&p| choices[p].order == Order::First) {
            return None;
        }
        if army_set(players.iter().map(|&p| choices[p].army)).count_ones() < 2 {
            return None;
        }
    }
    if army_set(choices.iter().map(|c| c.army)).count_ones() < 3 {
        return None;
    }
    Some(Seating { boards })
}

/// Why `picks` (which include `player`'s new choice) can no longer be completed, in plain
/// words: the first rule, in a fixed order, that cannot be met together with the earlier ones.
fn explain(picks: &[Option<Choice>; PLAYERS], player: usize) -> String {
    let Some(choice) = picks.get(player).copied().flatten() else {
        return "that choice cannot be accepted".to_string();
    };
    let team = team_of(player);
    let players = team_players(team);
    if let Some(mate) = players
        .into_iter()
        .find(|&q| q != player && picks[q].is_some_and(|c| c.colour == choice.colour))
    {
        return format!(
            "team {team} already has a {} player (player {mate}); each team needs one red, one \
             lightgreen and one blue player",
            choice.colour
        );
    }
    let team_picks: Vec<Choice> = players.iter().filter_map(|&p| picks[p]).collect();
    let all_picks: Vec<Choice> = picks.iter().flatten().copied().collect();
    let mut rules = 0;
    for rule in Rule::ALL {
        rules |= rule.bit();
        if completable(picks, rules) {
            continue;
        }
        return match rule {
            Rule::BoardOrders => {
                let firsts = all_picks.iter().filter(|c| c.order == Order::First).count();
                let seconds = all_picks.len() - firsts;
                if firsts > 3 || seconds > 3 {
                    let (n, which) = if firsts > 3 {
                        (firsts, "first")
                    } else {
                        (seconds, "second")
                    };
                    format!(
                        "{n} players would go {which}, but each of the three boards has exactly \
                         one player going first and one going second"
                    )
                } else {
                    "with this choice, either seating would put two players going first (or two \
                     going second) on the same board; each board needs one of each"
                        .to_string()
                }
            }
            Rule::TeamFirst => {
                if team_picks.len() == TEAM_SIZE
                    && team_picks.iter().all(|c| c.order == Order::Second)
                {
                    format!(
                        "nobody in team {team} would go first; each team needs at least one \
                         player going first"
                    )
                } else if team_picks.len() == TEAM_SIZE
                    && team_picks.iter().all(|c| c.order == Order::First)
                {
                    format!(
                        "everyone in team {team} would go first, so nobody in team {} could \
                         (each board has one player going first and one going second); each \
                         team needs at least one player going first",
                        1 - team
                    )
                } else {
                    "with this choice, no way of finishing the draft leaves each team with at \
                     least one player going first"
                        .to_string()
                }
            }
            Rule::NoMirror => "with this choice, every seating still possible would put the \
                               same army on both sides of a board; no army may face itself"
                .to_string(),
            Rule::TeamTwoArmies => {
                if team_picks.len() == TEAM_SIZE && team_picks.iter().all(|c| c.army == choice.army)
                {
                    format!(
                        "all of team {team} would play {}; each team needs at least two \
                         different armies",
                        choice.army.name()
                    )
                } else {
                    "with this choice, no way of finishing the draft gives each team at least \
                     two different armies"
                        .to_string()
                }
            }
            Rule::GameThreeArmies => {
                if all_picks.len() == PLAYERS {
                    let n = army_set(all_picks.iter().map(|c| c.army)).count_ones();
                    format!(
                        "the game would have only {n} different armies; it needs at least three"
                    )
                } else {
                    "with this choice, no way of finishing the draft brings the game to at \
                     least three different armies"
                        .to_string()
                }
            }
        };
    }
    "with this choice the draft could no longer be completed".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `"first red fide"` → a choice.
    fn ch(words: &str) -> Choice {
        let w: Vec<&str> = words.split_whitespace().collect();
        assert_eq!(w.len(), 3, "bad test choice {words}");
        Choice::new(
            Order::parse(w[0]).unwrap(),
            Colour::parse(w[1]).unwrap(),
            Army::parse(w[2]).unwrap(),
        )
    }

    /// `actor` picks for themselves; the pick must be accepted; it is applied.
    fn ok(d: &mut Draft, actor: usize, words: &str) {
        let choice = ch(words);
        let out = d.pick(actor, None, choice).unwrap();
        assert_eq!(
            out,
            DraftOutcome::Picked {
                player: actor,
                choice,
                by: actor
            },
            "player {actor} picking {words}"
        );
        d.apply(&out);
        assert_eq!(d.choice(actor), Some(choice));
    }

    /// `actor` picks for themselves; the choice must be handed over; returns the reason.
    /// The draft is not changed.
    fn handed(d: &Draft, actor: usize, words: &str) -> String {
        let choice = ch(words);
        match d.pick(actor, None, choice).unwrap() {
            DraftOutcome::HandedOver {
                player,
                refused,
                reason,
            } => {
                assert_eq!((player, refused), (actor, choice));
                reason
            }
            other => panic!("expected a hand-over for {words}, got {other:?}"),
        }
    }

    /// Plays the listed picks in order (each must be accepted).
    fn draft(first_team: usize, picks: &[(usize, &str)]) -> Draft {
        let mut d = Draft::new(first_team);
        for &(p, w) in picks {
            ok(&mut d, p, w);
        }
        d
    }

    /// Deterministic pseudo-random numbers for the test enumerations.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    #[test]
    fn words_parse_case_insensitively_and_round_trip() {
        assert_eq!(Colour::parse("LightGreen"), Ok(Colour::LightGreen));
        assert_eq!(Order::parse("SECOND"), Ok(Order::Second));
        assert_eq!(Army::parse(" Nutty "), Ok(Army::Nutty));
        assert_eq!("rookies".parse::<Army>(), Ok(Army::Rookies));
        for c in Colour::ALL {
            assert_eq!(Colour::parse(c.as_str()), Ok(c));
        }
        for o in Order::ALL {
            assert_eq!(Order::parse(o.as_str()), Ok(o));
        }
        for a in Army::ALL {
            assert_eq!(Army::parse(a.as_str()), Ok(a));
        }
        let e = Colour::parse("green").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`green` is not a colour: use red, lightgreen or blue"
        );
        assert!(Army::parse("fides").is_err());
        assert!(Order::parse("1st").is_err());
        assert_eq!(ch("first red fide").to_string(), "first red fide");
        assert_eq!(Choice::all().count(), 30);
    }

    #[test]
    fn full_draft_seats_the_boards() {
        let d = draft(
            0,
            &[
                (0, "first red fide"),
                (3, "second lightgreen clobberers"),
                (1, "second blue nutty"),
                (4, "first red rookies"),
                (2, "second lightgreen nutty"),
            ],
        );
        assert!(!d.is_complete());
        assert_eq!(d.seating(), None);
        assert_eq!(d.turn(), Some(1));
        let mut d = d;
        ok(&mut d, 5, "first blue forward");
        assert!(d.is_complete());
        assert_eq!(d.turn(), None);
        let seating = d.seating().unwrap();
        // Seating A: t0.red–t1.lightgreen (board 1), t0.blue–t1.red (board 2),
        // t0.lightgreen–t1.blue (board 3).
        assert_eq!(
            seating.boards,
            [
                BoardSeat {
                    first: 0,
                    second: 3
                },
                BoardSeat {
                    first: 4,
                    second: 1
                },
                BoardSeat {
                    first: 5,
                    second: 2
                },
            ]
        );
        assert_eq!(seating.board_of(2), Some(2));
        assert_eq!(seating.opponent_of(4), Some(1));
        assert_eq!(
            d.pick(3, None, ch("first red fide")),
            Err(DraftRefusal::Complete)
        );
    }

    #[test]
    fn full_draft_in_the_other_seating() {
        // Team 1 starts; seating B: t0.lightgreen–t1.red, t0.red–t1.blue, t0.blue–t1.lightgreen.
        let d = draft(
            1,
            &[
                (3, "first red fide"),
                (0, "first red nutty"),
                (4, "second blue rookies"),
                (1, "second lightgreen clobberers"),
                (5, "first lightgreen forward"),
                (2, "second blue clobberers"),
            ],
        );
        let seating = d.seating().unwrap();
        assert_eq!(
            seating.boards,
            [
                BoardSeat {
                    first: 3,
                    second: 1
                },
                BoardSeat {
                    first: 0,
                    second: 4
                },
                BoardSeat {
                    first: 5,
                    second: 2
                },
            ]
        );
    }

    #[test]
    fn colour_rule() {
        let d = draft(
            0,
            &[(0, "first red fide"), (3, "second lightgreen clobberers")],
        );
        let reason = handed(&d, 1, "first red nutty");
        assert!(
            reason.contains("already has a red player (player 0)"),
            "{reason}"
        );
        let mut d = d;
        ok(&mut d, 1, "first lightgreen nutty");
    }

    #[test]
    fn board_orders_rule_counts_firsts() {
        let d = draft(
            0,
            &[
                (0, "first red fide"),
                (3, "first lightgreen clobberers"),
                (1, "first lightgreen nutty"),
            ],
        );
        let reason = handed(&d, 4, "first red rookies");
        assert!(reason.contains("4 players would go first"), "{reason}");
        let mut d = d;
        ok(&mut d, 4, "second red rookies");
    }

    #[test]
    fn board_orders_rule_in_both_seatings() {
        let d = draft(
            0,
            &[
                (0, "first red fide"),
                (3, "first lightgreen clobberers"),
                (1, "second blue nutty"),
            ],
        );
        // Team 0's red (first) would face team 1's lightgreen or blue, both going first.
        let reason = handed(&d, 4, "first blue rookies");
        assert!(reason.contains("either seating"), "{reason}");
        assert!(reason.contains("one of each"), "{reason}");
        let mut d = d;
        ok(&mut d, 4, "second blue rookies");
    }

    #[test]
    fn board_orders_rule_refuses_a_choice_that_forces_both_seatings_out() {
        // Team 0's red and team 1's lightgreen both go first, so seating A is out; in seating
        // B team 0's blue faces team 1's lightgreen and must go second.
        let d = draft(
            0,
            &[(0, "first red fide"), (3, "first lightgreen clobberers")],
        );
        let reason = handed(&d, 1, "first blue nutty");
        assert!(reason.contains("either seating"), "{reason}");
        let mut d = d;
        ok(&mut d, 1, "second blue nutty");
    }

    #[test]
    fn team_first_rule() {
        let d = draft(
            0,
            &[
                (0, "second red fide"),
                (3, "first lightgreen clobberers"),
                (1, "second blue nutty"),
                (4, "first blue rookies"),
            ],
        );
        let reason = handed(&d, 2, "second lightgreen nutty");
        assert!(
            reason.contains("nobody in team 0 would go first"),
            "{reason}"
        );
        let mut d = d;
        ok(&mut d, 2, "first lightgreen nutty");
    }

    #[test]
    fn team_first_rule_for_the_other_team() {
        let d = draft(
            1,
            &[
                (3, "first red fide"),
                (0, "second red clobberers"),
                (4, "first lightgreen nutty"),
                (1, "second blue nutty"),
            ],
        );
        let reason = handed(&d, 5, "first blue rookies");
        assert!(
            reason.contains("everyone in team 1 would go first, so nobody in team 0 could"),
            "{reason}"
        );
        let mut d = d;
        ok(&mut d, 5, "second blue rookies");
    }

    #[test]
    fn no_mirror_rule() {
        // Team 1's lightgreen fide rules out seating A (it would face team 0's red fide)...
        let d = draft(
            0,
            &[
                (0, "first red fide"),
                (3, "second lightgreen fide"),
                (1, "first blue nutty"),
            ],
        );
        // ...and team 1's blue fide would face team 0's red fide in seating B.
        let reason = handed(&d, 4, "second blue fide");
        assert!(reason.contains("no army may face itself"), "{reason}");
        let mut d = d;
        ok(&mut d, 4, "second blue rookies");
    }

    #[test]
    fn team_two_armies_rule() {
        let d = draft(
            0,
            &[
                (0, "first red fide"),
                (3, "second lightgreen clobberers"),
                (1, "second blue fide"),
                (4, "first red rookies"),
            ],
        );
        let reason = handed(&d, 2, "second lightgreen fide");
        assert!(
            reason.contains("all of team 0 would play Fabulous FIDEs"),
            "{reason}"
        );
        let mut d = d;
        ok(&mut d, 2, "second lightgreen nutty");
    }

    #[test]
    fn game_three_armies_rule() {
        let d = draft(
            0,
            &[
                (0, "first red fide"),
                (3, "second lightgreen nutty"),
                (1, "second lightgreen fide"),
                (4, "first blue nutty"),
                (2, "second blue nutty"),
            ],
        );
        let reason = handed(&d, 5, "first red fide");
        assert!(
            reason.contains("only 2 different armies; it needs at least three"),
            "{reason}"
        );
        let mut d = d;
        ok(&mut d, 5, "first red forward");
        assert!(d.seating().is_some());
    }

    #[test]
    fn completion_impossible_is_handed_over() {
        let d = draft(
            0,
            &[
                (0, "second red fide"),
                (3, "first red clobberers"),
                (1, "second lightgreen fide"),
            ],
        );
        // No rule is broken by the players picked so far, but team 0's blue would face team
        // 1's red (seating A) or lightgreen (seating B), both going first: team 0 would have
        // nobody going first.
        let reason = handed(&d, 4, "first lightgreen nutty");
        assert!(
            reason.contains("no way of finishing the draft leaves each team with at least one"),
            "{reason}"
        );
        // The search sees through the rules together: it agrees with brute force on every
        // choice for player 4 here.
        for choice in Choice::all() {
            let trial = d.with(4, choice);
            assert_eq!(
                completable(&trial, ALL_RULES),
                brute_force_completable(&trial),
                "{choice}"
            );
        }
        let mut d = d;
        ok(&mut d, 4, "second lightgreen nutty");
    }

    #[test]
    fn hand_over_flow() {
        let mut d = draft(
            0,
            &[(0, "first red fide"), (3, "second lightgreen clobberers")],
        );
        let refused = ch("first red nutty");
        let out = d.pick(1, None, refused).unwrap();
        assert!(matches!(out, DraftOutcome::HandedOver { player: 1, .. }));
        let before = d.clone();
        d.apply(&out);
        assert_eq!(d.pending(), Some(1));
        assert_eq!(d.acting_team(), Some(1));
        assert_eq!(d.choice(1), None, "a refused choice is not recorded");
        assert_ne!(d, before);

        // The refused player and their teammates cannot pick now.
        let any = ch("second blue nutty");
        for actor in [0, 1, 2] {
            assert_eq!(
                d.pick(actor, None, any),
                Err(DraftRefusal::AwaitingReplacement { player: 1, team: 1 })
            );
            assert_eq!(
                d.pick(actor, Some(1), any),
                Err(DraftRefusal::AwaitingReplacement { player: 1, team: 1 })
            );
        }
        // The other team must name the player.
        assert_eq!(
            d.pick(3, None, any),
            Err(DraftRefusal::ReplacementNeedsFor { player: 1 })
        );
        assert_eq!(
            d.pick(4, Some(2), any),
            Err(DraftRefusal::WrongReplacementTarget {
                pending: 1,
                asked: 2
            })
        );
        assert_eq!(
            d.pick(4, Some(4), any),
            Err(DraftRefusal::WrongReplacementTarget {
                pending: 1,
                asked: 4
            })
        );
        // An impossible replacement is a plain refusal listing choices that work.
        match d.pick(3, Some(1), refused) {
            Err(DraftRefusal::ReplacementImpossible {
                player,
                choice,
                reason,
                options,
            }) => {
                assert_eq!((player, choice), (1, refused));
                assert!(reason.contains("already has a red player"), "{reason}");
                assert!(!options.is_empty());
                let valid = d.valid_choices(1);
                assert!(options.iter().all(|o| valid.contains(o)));
                let message = d.pick(3, Some(1), refused).unwrap_err().to_string();
                assert!(
                    message.contains("choices that would work include"),
                    "{message}"
                );
                assert!(message.contains(&format!("`{}`", options[0])), "{message}");
            }
            other => panic!("expected ReplacementImpossible, got {other:?}"),
        }
        // A completable replacement is recorded for player 1, made by player 4.
        let out = d.pick(4, Some(1), any).unwrap();
        assert_eq!(
            out,
            DraftOutcome::Picked {
                player: 1,
                choice: any,
                by: 4
            }
        );
        d.apply(&out);
        assert_eq!(d.pending(), None);
        assert_eq!(d.choice(1), Some(any));
        // The turn passes to the replacing team.
        assert_eq!(d.turn(), Some(1));
        assert_eq!(d.acting_team(), Some(1));
        assert_eq!(
            d.pick(2, None, ch("second lightgreen rookies")),
            Err(DraftRefusal::NotYourTurn {
                team: 1,
                waiting: vec![4, 5]
            })
        );
        ok(&mut d, 4, "first red rookies");
        ok(&mut d, 2, "second lightgreen rookies");
        ok(&mut d, 5, "first blue forward");
        assert!(d.seating().is_some());
    }

    #[test]
    fn hand_over_replay_reproduces_the_draft() {
        let mut d = Draft::new(1);
        let mut log = Vec::new();
        let steps: [(usize, Option<usize>, &str); 5] = [
            (3, None, "first red fide"),
            (0, None, "first lightgreen fide"), // seating B is out (two firsts, two fides)
            (4, None, "first lightgreen nutty"),
            (1, None, "second red clobberers"),
            (5, None, "first blue rookies"), // four players going first: handed over
        ];
        for (actor, for_player, words) in steps {
            let out = d.pick(actor, for_player, ch(words)).unwrap();
            d.apply(&out);
            log.push(out);
        }
        assert_eq!(d.pending(), Some(5));
        let out = d.pick(2, Some(5), ch("second blue rookies")).unwrap();
        d.apply(&out);
        log.push(out);
        assert_eq!(Draft::replay(Draft::new(1), &log), d);
        assert_eq!(d.turn(), Some(0));
    }

    #[test]
    fn pick_does_not_change_the_draft() {
        let d = draft(0, &[(0, "first red fide")]);
        let copy = d.clone();
        let _ = d.pick(3, None, ch("second lightgreen nutty"));
        let _ = d.pick(3, None, ch("first red nutty"));
        let _ = d.pick(1, None, ch("first red nutty"));
        assert_eq!(d, copy);
    }

    #[test]
    fn out_of_turn_and_already_picked() {
        let d = Draft::new(1);
        assert_eq!(d.turn(), Some(1));
        assert_eq!(d.first_team(), 1);
        let refusal = d.pick(0, None, ch("first red fide")).unwrap_err();
        assert_eq!(
            refusal,
            DraftRefusal::NotYourTurn {
                team: 1,
                waiting: vec![3, 4, 5]
            }
        );
        assert_eq!(
            refusal.to_string(),
            "it is team 1's turn to pick: player 3, player 4 or player 5 may pick now"
        );

        let d = draft(0, &[(0, "first red fide"), (3, "second lightgreen nutty")]);
        assert_eq!(
            d.pick(0, None, ch("first blue fide")),
            Err(DraftRefusal::AlreadyPicked {
                player: 0,
                choice: ch("first red fide")
            })
        );
        assert_eq!(
            d.pick(3, None, ch("first blue fide")),
            Err(DraftRefusal::AlreadyPicked {
                player: 3,
                choice: ch("second lightgreen nutty")
            })
        );
        assert_eq!(
            d.pick(4, None, ch("first blue fide")),
            Err(DraftRefusal::NotYourTurn {
                team: 0,
                waiting: vec![1, 2]
            })
        );
    }

    #[test]
    fn the_named_player_makes_the_first_pick() {
        for first in 0..PLAYERS {
            let d = Draft::starting_with(first);
            assert_eq!(d.first_picker(), Some(first));
            assert_eq!(d.first_team(), team_of(first));
            assert_eq!(d.turn(), Some(team_of(first)));
            assert_eq!(d.pickers(), vec![first]);
            let c = ch("first red fide");
            // Everyone else is refused, naming the player who starts: teammates and the
            // other team alike.
            for actor in (0..PLAYERS).filter(|&a| a != first) {
                let refusal = d.pick(actor, None, c).unwrap_err();
                assert_eq!(refusal, DraftRefusal::FirstPick { player: first });
                let text = refusal.to_string();
                assert!(
                    text.starts_with(&format!("player {first} makes the first pick")),
                    "{text}"
                );
                assert!(
                    text.contains(&format!("team {} first", 1 - team_of(first))),
                    "{text}"
                );
            }
            // The starter's pick is accepted; from then on any player of the other team who
            // has not picked may pick, and nobody of the starter's team.
            let mut d = d;
            ok(&mut d, first, "first red fide");
            let others = team_players(1 - team_of(first));
            assert_eq!(d.pickers(), others.to_vec());
            for actor in others {
                assert!(
                    matches!(
                        d.pick(actor, None, ch("second lightgreen nutty")),
                        Ok(DraftOutcome::Picked { .. })
                    ),
                    "player {actor} after {first}"
                );
            }
            for mate in team_players(team_of(first)) {
                assert!(
                    matches!(
                        d.pick(mate, None, ch("second lightgreen nutty")),
                        Err(DraftRefusal::NotYourTurn { .. } | DraftRefusal::AlreadyPicked { .. })
                    ),
                    "player {mate} after {first}"
                );
            }
            // Then the teams alternate, any unpicked player of the team on turn picking.
            let second = others[2];
            ok(&mut d, second, "second lightgreen nutty");
            let mates: Vec<usize> = team_players(team_of(first))
                .into_iter()
                .filter(|&p| p != first)
                .collect();
            assert_eq!(d.pickers(), mates);
        }
    }

    #[test]
    fn pickers_during_a_hand_over_and_at_the_end() {
        let mut d = Draft::starting_with(0);
        ok(&mut d, 0, "first red fide");
        ok(&mut d, 3, "second lightgreen clobberers");
        let out = d.pick(1, None, ch("first red nutty")).unwrap();
        d.apply(&out);
        assert_eq!(d.pickers(), vec![3, 4, 5], "the replacing team, all of it");
        let d = draft(
            0,
            &[
                (0, "first red fide"),
                (3, "second lightgreen clobberers"),
                (1, "second lightgreen nutty"),
                (4, "first blue rookies"),
                (2, "first blue forward"),
                (5, "second red fide"),
            ],
        );
        assert!(d.is_complete());
        assert!(d.pickers().is_empty());
        // A draft without a named starter lets any player of the first team start.
        assert_eq!(Draft::new(1).pickers(), vec![3, 4, 5]);
        assert_eq!(Draft::new(1).first_picker(), None);
    }

    #[test]
    fn picking_for_others_outside_a_hand_over() {
        let d = Draft::new(0);
        let c = ch("first red fide");
        assert_eq!(
            d.pick(0, Some(1), c),
            Err(DraftRefusal::ForTeammate { player: 1 })
        );
        assert_eq!(
            d.pick(0, Some(4), c),
            Err(DraftRefusal::ForOpponent { player: 4 })
        );
        assert_eq!(
            d.pick(0, Some(0), c),
            Ok(DraftOutcome::Picked {
                player: 0,
                choice: c,
                by: 0
            })
        );
        assert_eq!(
            d.pick(6, None, c),
            Err(DraftRefusal::NoSuchPlayer { player: 6 })
        );
        assert_eq!(
            d.pick(0, Some(9), c),
            Err(DraftRefusal::NoSuchPlayer { player: 9 })
        );
    }

    #[test]
    fn valid_choices_match_pick() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..40 {
            let mut d = Draft::new(rng.next(2));
            while !d.is_complete() {
                let team = d.turn().unwrap();
                let unpicked: Vec<usize> = team_players(team)
                    .into_iter()
                    .filter(|&p| d.choice(p).is_none())
                    .collect();
                let actor = unpicked[rng.next(unpicked.len())];
                let valid = d.valid_choices(actor);
                assert!(!valid.is_empty());
                for c in Choice::all() {
                    let accepted =
                        matches!(d.pick(actor, None, c), Ok(DraftOutcome::Picked { .. }));
                    assert_eq!(accepted, valid.contains(&c), "{c} for {actor} in {d:?}");
                }
                ok(&mut d, actor, &valid[rng.next(valid.len())].to_string());
            }
            assert!(d.seating().is_some());
            assert!(d.valid_choices(0).is_empty());
        }
    }

    /// Every complete set of choices and seating, checked directly.
    fn brute_force_completable(picks: &[Option<Choice>; PLAYERS]) -> bool {
        fn rec(picks: &mut [Option<Choice>; PLAYERS], i: usize) -> bool {
            if i == PLAYERS {
                let mut full = [ch("first red fide"); PLAYERS];
                for (f, p) in full.iter_mut().zip(picks.iter()) {
                    *f = p.unwrap();
                }
                return (0..2).any(|s| valid_seating(&full, s).is_some());
            }
            if picks[i].is_some() {
                return rec(picks, i + 1);
            }
            for c in Choice::all() {
                picks[i] = Some(c);
                if rec(picks, i + 1) {
                    picks[i] = None;
                    return true;
                }
            }
            picks[i] = None;
            false
        }
        let mut p = *picks;
        rec(&mut p, 0)
    }

    #[test]
    fn completability_agrees_with_brute_force() {
        let mut rng = Rng(12345);
        let mut seen = [0usize; 2];
        for n in 0..3000 {
            let known = 3 + n % 3; // 3..=5 players picked (any choices, legal or not)
            let mut picks = [None; PLAYERS];
            let mut placed = 0;
            while placed < known {
                let p = rng.next(PLAYERS);
                if picks[p].is_none() {
                    let all: Vec<Choice> = Choice::all().collect();
                    picks[p] = Some(all[rng.next(all.len())]);
                    placed += 1;
                }
            }
            let fast = completable(&picks, ALL_RULES);
            assert_eq!(fast, brute_force_completable(&picks), "{picks:?}");
            seen[usize::from(fast)] += 1;
        }
        // Both answers occur, so the comparison means something.
        assert!(seen[0] > 100 && seen[1] > 100, "{seen:?}");
    }

    #[test]
    fn no_complete_draft_allows_both_seatings() {
        let mut unique = 0u64;
        let mut both = 0u64;
        let mut choices = [ch("first red fide"); PLAYERS];
        for perm0 in &COLOUR_PERMS {
            for perm1 in &COLOUR_PERMS {
                for (p, c) in perm0.iter().chain(perm1).enumerate() {
                    choices[p].colour = *c;
                }
                for orders in 0u32..64 {
                    for (p, choice) in choices.iter_mut().enumerate() {
                        choice.order = if orders >> p & 1 == 1 {
                            Order::First
                        } else {
                            Order::Second
                        };
                    }
                    for armies in 0u32..15625 {
                        let mut a = armies;
                        for choice in choices.iter_mut() {
                            choice.army = Army::ALL[(a % 5) as usize];
                            a /= 5;
                        }
                        match (
                            valid_seating(&choices, 0).is_some(),
                            valid_seating(&choices, 1).is_some(),
                        ) {
                            (true, true) => both += 1,
                            (true, false) | (false, true) => unique += 1,
                            (false, false) => {}
                        }
                    }
                }
            }
        }
        assert_eq!(both, 0);
        assert!(unique > 0);
    }

    #[test]
    fn seatings_pair_the_board_colours() {
        let boards = [
            [Colour::Red, Colour::LightGreen],
            [Colour::Blue, Colour::Red],
            [Colour::LightGreen, Colour::Blue],
        ];
        for seating in &SEATINGS {
            for (&(c0, c1), pair) in seating.iter().zip(&boards) {
                assert!(c0 != c1 && pair.contains(&c0) && pair.contains(&c1));
            }
            // Each team uses each colour once.
            for side in 0..2 {
                let mut cs: Vec<Colour> = seating
                    .iter()
                    .map(|&(a, b)| if side == 0 { a } else { b })
                    .collect();
                cs.sort();
                assert_eq!(cs, Colour::ALL.to_vec());
            }
        }
        assert_ne!(SEATINGS[0], SEATINGS[1]);
    }

    /// Worst-case timing of `pick` over random drafts, including refused replacements (which
    /// also list suggestions). Each call is timed five times and the fastest run counts, to
    /// keep scheduler noise out. Run with `--ignored` (and
    /// `CARGO_PROFILE_TEST_OPT_LEVEL=0` to check the 5 ms budget unoptimised).
    #[test]
    #[ignore]
    fn pick_is_fast() {
        use std::time::{Duration, Instant};
        fn time(f: impl Fn()) -> Duration {
            (0..5)
                .map(|_| {
                    let t = Instant::now();
                    f();
                    t.elapsed()
                })
                .min()
                .unwrap()
        }
        let mut rng = Rng(777);
        let mut worst = Duration::ZERO;
        let mut total = Duration::ZERO;
        let mut calls = 0u32;
        for _ in 0..100 {
            let mut d = Draft::new(rng.next(2));
            while !d.is_complete() {
                let team = d.turn().unwrap();
                let actor = team_players(team)
                    .into_iter()
                    .find(|&p| d.choice(p).is_none())
                    .unwrap();
                let other = team_players(1 - team)[0];
                for c in Choice::all() {
                    let took = time(|| {
                        let _ = d.pick(actor, None, c);
                    });
                    worst = worst.max(took);
                    total += took;
                    calls += 1;
                    let out = d.pick(actor, None, c).unwrap();
                    if matches!(out, DraftOutcome::HandedOver { .. }) {
                        let mut h = d.clone();
                        h.apply(&out);
                        let took = time(|| {
                            let _ = h.pick(other, Some(actor), c);
                        });
                        worst = worst.max(took);
                        total += took;
                        calls += 1;
                    }
                }
                let valid = d.valid_choices(actor);
                ok(&mut d, actor, &valid[rng.next(valid.len())].to_string());
            }
        }
        eprintln!("{calls} picks: worst {worst:?}, mean {:?}", total / calls);
        assert!(worst < Duration::from_millis(5), "{worst:?}");
    }
}
