//! The Chex game (Chex rules 5.0–5.10; shared rules 7.1–7.3): two seats, settings, an
//! append-only log of actions and the state replaying it gives. Pure: the caller passes every
//! action's time and the seed.

use crate::games::export_common::board_lines;
use crate::layer::clock::overran;
use crate::layer::log::{Bookkept, Logged, Reverting};
use crate::layer::table::Table;
use crate::time::{format_duration, Timestamp};

use super::position::{Abs, Frame, Kind, Move, Piece, Position, Side, MAX_BOARD, MIN_BOARD};
use super::shuffle::{seed_hash, shuffle_stacks};
use super::text::TextError;

mod actions;
mod fold;

use fold::fold;

/// The largest seed (shared rules 0.5).
pub const MAX_SEED: u64 = crate::games::MAX_SEED;

/// How a draw is made (§5.2, decision 4).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, serde::Serialize, serde::Deserialize)]
pub enum DrawMode {
    /// `/draw` reveals, then `/place square:`.
    #[default]
    Reveal,
    /// `/draw square:<sq>`: the square is named before the reveal.
    Blind,
}

impl DrawMode {
    /// `reveal` or `blind`.
    pub fn as_str(self) -> &'static str {
        match self {
            DrawMode::Reveal => "reveal",
            DrawMode::Blind => "blind",
        }
    }
    /// Reads `reveal` or `blind`.
    pub fn parse(t: &str) -> Option<DrawMode> {
        match t.trim().to_ascii_lowercase().as_str() {
            "reveal" => Some(DrawMode::Reveal),
            "blind" => Some(DrawMode::Blind),
            _ => None,
        }
    }
}

/// What a stalemate does (§5.4).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, serde::Serialize, serde::Deserialize)]
pub enum StalemateMode {
    /// The bot declares the game drawn.
    #[default]
    Declare,
    /// The bot offers a draw in the stalemated player's name; the opponent answers.
    Offer,
}

impl StalemateMode {
    /// `declare` or `offer`.
    pub fn as_str(self) -> &'static str {
        match self {
            StalemateMode::Declare => "declare",
            StalemateMode::Offer => "offer",
        }
    }
    /// Reads `declare` or `offer`.
    pub fn parse(t: &str) -> Option<StalemateMode> {
        match t.trim().to_ascii_lowercase().as_str() {
            "declare" => Some(StalemateMode::Declare),
            "offer" => Some(StalemateMode::Offer),
            _ => None,
        }
    }
}

/// Per-game settings (§5.10).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// The reminder interval and stall time (`remind:` on `/… new`, the server's defaults;
    /// shared rules 7.4).
    #[serde(flatten)]
    pub pace: crate::layer::pace::Pace,
    /// `draw_mode:`.
    pub draw_mode: DrawMode,
    /// `stalemate:`.
    pub stalemate: StalemateMode,
    /// `max_board:` (8–26).
    pub max_board: u32,
    /// `move_limit:` in seconds.
    pub move_limit: Option<u64>,
    /// The seed the stacks are shuffled from.
    pub seed: u64,
    /// The SHA-256 shown at creation (of the original seed's decimal text).
    pub seed_hash: String,
    /// Set for a game imported in play from an export without its seed: the pieces left
    /// were reshuffled from a seed derived from the hash, so later draws differ from the
    /// original game's.
    #[serde(default)]
    pub reshuffled: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            pace: crate::layer::pace::Pace::default(),
            draw_mode: DrawMode::Reveal,
            stalemate: StalemateMode::Declare,
            max_board: MAX_BOARD,
            move_limit: None,
            seed: 0,
            seed_hash: seed_hash(0),
            reshuffled: false,
        }
    }
}

/// What `/chex new` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// White's and Black's users.
    pub users: [String; 2],
    /// `draw_mode:`.
    pub draw_mode: DrawMode,
    /// `stalemate:`.
    pub stalemate: StalemateMode,
    /// `max_board:`.
    pub max_board: u32,
    /// `move_limit:` in seconds.
    pub move_limit: Option<u64>,
    /// `seed:` or the drawn seed.
    pub seed: u64,
    /// `position:`.
    pub position: Option<String>,
}

impl NewGame {
    /// A request with default settings.
    pub fn new(white: &str, black: &str, seed: u64) -> NewGame {
        NewGame {
            users: [white.to_string(), black.to_string()],
            draw_mode: DrawMode::Reveal,
            stalemate: StalemateMode::Declare,
            max_board: MAX_BOARD,
            move_limit: None,
            seed,
            position: None,
        }
    }
}

crate::layer::log::actions! {
    /// A logged action; replaying the non-reverted ones in order gives the state.
    #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub enum Action {
        /// The game begins, from the empty board or a position text.
        Start {
            /// The position text, if any.
            position: Option<String>,
        },
        /// A draw: the top of the stack is revealed (and placed at once on `square` for White's
        /// first piece and in blind mode).
        Draw {
            /// Who.
            side: Side,
            /// The piece drawn.
            piece: Kind,
            /// Where it was placed at once, if it was.
            square: Option<Abs>,
        },
        /// The revealed piece placed.
        Place {
            /// Who.
            side: Side,
            /// What.
            piece: Kind,
            /// Where (absolute).
            square: Abs,
            /// As echoed (`N@c3`), in the labels it was written in.
            notation: String,
        },
        /// A move.
        Move {
            /// Who.
            side: Side,
            /// From (absolute).
            from: Abs,
            /// To (absolute).
            to: Abs,
            /// As echoed, in the labels it was written in.
            notation: String,
        },
        /// The console's `!stack`: the order of a side's remaining stack, top first.
        Stack {
            /// Whose stack.
            side: Side,
            /// The order.
            order: Vec<Kind>,
        },
        /// A draw offer.
        OfferDraw {
            /// Who.
            side: Side,
        },
        /// A draw offer accepted.
        AcceptDraw {
            /// Who.
            side: Side,
        },
        /// A draw offer declined (or withdrawn).
        DeclineDraw {
            /// Who.
            side: Side,
        },
        /// A resignation (by the player, or by the organiser after an overrun).
        Resign {
            /// Who loses.
            side: Side,
            /// By the organiser.
            organiser: bool,
        },
    }
    takeback {
        /// Who.
        side: Side,
    }
    revert {
        /// The fresh seed the pieces still face down were reshuffled from, when the revert
        /// reopened an ended game or undid an earlier reshuffle (Chex rules 5.5a). Absent in
        /// logs written before it existed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reseed: Option<Reseed>,
    }
    bookkeeping: Start
}

/// A fresh seed drawn at a revert (Chex rules 5.5a).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Reseed {
    /// The seed; `None` in an export made while the game is in play (it stays secret until
    /// the game ends). A game imported without it reshuffles from a seed derived from the
    /// hash, like a game imported in play without its first seed.
    pub seed: Option<u64>,
    /// The SHA-256 of the seed's decimal text, announced with the revert.
    pub hash: String,
}

/// A seed the stacks follow, and since when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedInUse {
    /// The seed the stacks were shuffled from.
    pub seed: u64,
    /// Whether it is the game's real seed (not one derived from the hash on import).
    pub known: bool,
    /// Its SHA-256, as announced.
    pub hash: String,
    /// The revert that drew it (`None`: the game's start).
    pub from: Option<u32>,
}

/// The last move or placement, kept to be shown in the current labels (Chex rules 5.5a).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LastMove {
    /// The piece that moved or was placed.
    pub piece: Piece,
    /// From (absolute); `None` for a placement.
    pub from: Option<Abs>,
    /// To (absolute).
    pub to: Abs,
    /// Whether it captured.
    pub capture: bool,
    /// Whether it left a King capturable (the echo's `+`).
    pub check: bool,
}

impl LastMove {
    /// The move in a frame's labels (`Nc4-e5`, `P@b2`, with `+` when it checked).
    pub fn text(&self, frame: &Frame) -> String {
        let check = if self.check { "+" } else { "" };
        match self.from {
            None => format!(
                "{}@{}{check}",
                self.piece.kind.letter(),
                frame.label(self.to)
            ),
            Some(from) => {
                let letter = match self.piece.kind {
                    Kind::Pawn => String::new(),
                    k => k.letter().to_string(),
                };
                let sep = if self.capture { 'x' } else { '-' };
                format!(
                    "{letter}{}{sep}{}{check}",
                    frame.label(from),
                    frame.label(self.to)
                )
            }
        }
    }
}

/// One entry of the log.
pub type Entry = crate::layer::log::Entry<Action>;

/// What a user asks for (the adapter builds it from a command).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `/draw [square:<sq>] [turn:<n>]`.
    Draw {
        /// The square (blind mode).
        square: Option<String>,
        /// `turn:`.
        turn: Option<u32>,
    },
    /// `/place square:<sq> [turn:<n>]`.
    Place {
        /// The square.
        square: String,
        /// `turn:`.
        turn: Option<u32>,
    },
    /// `/move notation:<text> [turn:<n>]`.
    Move {
        /// The move.
        text: String,
        /// `turn:`.
        turn: Option<u32>,
    },
    /// `/offer draw`.
    OfferDraw,
    /// `/accept`.
    AcceptDraw,
    /// `/decline`.
    DeclineDraw,
    /// `/resign`.
    Resign,
    /// `/chex resign player:@x` (the caller checks the organiser).
    OrganiserResign {
        /// The player who overran.
        player: String,
    },
    /// `/takeback`.
    Takeback,
    /// `/revert` confirmed (the caller checks the moderator).
    Revert {
        /// First action undone.
        to: u32,
        /// Why.
        reason: String,
        /// Fresh entropy, drawn by the caller: the new seed when the revert reopens an ended
        /// game (Chex rules 5.5a). Its low 53 bits are used.
        entropy: u64,
    },
    /// The console's `!stack <side> <letters>`.
    Stack {
        /// Whose.
        side: Side,
        /// Letters, top first.
        letters: String,
    },
}

/// How a game was won.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum WinHow {
    /// The loser's King was captured.
    KingCaptured,
    /// The loser resigned.
    Resigned,
    /// The organiser resigned for the loser after an overrun.
    OrganiserResigned,
}

/// Why a game was drawn.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum DrawReason {
    /// A revealed King had no safe square.
    KingStalemate(Side),
    /// Empty stack and no legal move.
    MoveStalemate(Side),
    /// A revealed piece had no square at all (the board limit).
    NoSquare(Side),
    /// Agreed.
    Agreement,
}

/// How the game ended.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// A side won.
    Win {
        /// Who.
        side: Side,
        /// How.
        how: WinHow,
    },
    /// Drawn.
    Draw(DrawReason),
}

/// The state replay gives.
#[derive(Clone, Debug)]
pub struct State {
    /// The position.
    pub pos: Position,
    /// The result.
    pub outcome: Option<Outcome>,
    /// A standing draw offer, by whom.
    pub draw_offer: Option<Side>,
    /// When the current turn began.
    pub turn_started: Timestamp,
    /// The last move or placement: (from, to) absolute.
    pub last: Option<(Option<Abs>, Abs)>,
    /// The last move or placement as echoed (in the labels it was written in).
    pub last_text: Option<String>,
    /// The last move or placement, to be shown in the current labels.
    pub last_move: Option<LastMove>,
    /// The current board's number: the last action still in effect (§5.1).
    pub board_number: u32,
    /// The seeds the stacks followed, the one in force last (Chex rules 5.5a).
    pub seeds: Vec<SeedInUse>,
}

crate::games::refusal! {
    /// Why an action is refused (shown as it is).
    pub enum Refusal {
        /// A position text that does not read.
        #[error("the position does not read: {0}")]
        Position(#[from] TextError),
    }
}

/// What an accepted action reports: its number, what happened and who must act next.
pub type Accepted = crate::layer::log::Accepted<Vec<String>>;

/// A Chex game: its [`Table`], and Chex's methods on it.
pub type Game = Table<Chex>;

impl State {
    fn new(pos: Position, time: Timestamp) -> State {
        State {
            pos,
            outcome: None,
            draw_offer: None,
            turn_started: time,
            last: None,
            last_text: None,
            last_move: None,
            board_number: 0,
            seeds: Vec::new(),
        }
    }

    /// The last move or placement in the current labels (`None` before any).
    pub fn last_now(&self) -> Option<String> {
        self.last_move.map(|m| m.text(&self.pos.frame()))
    }
}

/// `White (ann)`.
fn name(users: &[String], side: Side) -> String {
    format!(
        "{} ({})",
        side.name(),
        users.get(side.index()).map_or("", String::as_str)
    )
}

/// Reads `turn:` (`12` or `#12`).
pub fn parse_turn(text: &str) -> Option<u32> {
    text.trim().trim_start_matches('#').parse().ok()
}

/// A move as typed: piece letter (if any), from, to, capture mark.
struct Typed {
    letter: Option<Kind>,
    from: String,
    to: String,
}

/// The text with its square letters in lower case (a leading piece letter kept): what a
/// move typed `E2-E4` or `NB1-C3` was meant to be.
fn lower_squares(text: &str) -> String {
    let t = text.trim();
    let mut chars = t.chars();
    let mut out = String::new();
    if let Some(c) = chars.next() {
        let next = t.chars().nth(1);
        if Kind::from_either_case(c).is_some()
            && (next.is_some_and(|d| d.is_ascii_alphabetic()) || next == Some('@'))
        {
            out.push(c.to_ascii_uppercase());
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
    out.extend(chars.map(|c| c.to_ascii_lowercase()));
    out
}

/// A square written alone, with an optional (upper-case) piece letter and capture mark
/// (`e4`, `Nd4`, `Bxd4`): short algebraic, which the bot does not read.
fn short_algebraic(text: &str) -> Option<(Option<Kind>, String)> {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let mut letter = None;
    let mut rest = t;
    if let Some(c) = t.chars().next().filter(char::is_ascii_uppercase) {
        letter = Some(Kind::from_either_case(c)?);
        rest = &t[1..];
    }
    let rest = rest.strip_prefix(['x', ':']).unwrap_or(rest);
    match parse_square_text(rest) {
        Some((sq, "")) => Some((letter, sq)),
        _ => None,
    }
}

fn parse_square_text(s: &str) -> Option<(String, &str)> {
    let mut it = s.char_indices();
    let (_, f) = it.next()?;
    if !f.is_ascii_lowercase() {
        return None;
    }
    let digits: String = s[1..].chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() {
        return None;
    }
    let end = 1 + digits.len();
    Some((s[..end].to_string(), &s[end..]))
}

fn parse_typed(text: &str) -> Result<Typed, String> {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let mut rest = t;
    let mut letter = None;
    let mut chars = rest.chars();
    if let Some(c) = chars.next() {
        // A piece letter: upper case, or lower case where no file letter could be meant
        // (`nb1-c3`: a file letter is followed by a rank, never by another letter).
        let lower_piece = c.is_ascii_lowercase()
            && chars.next().is_some_and(|d| d.is_ascii_lowercase())
            && Kind::from_either_case(c).is_some();
        if c.is_ascii_uppercase() || lower_piece {
            letter = Some(Kind::from_either_case(c).ok_or_else(|| {
                format!("`{c}` is not a Chex piece (K Q R B N, pawns without a letter)")
            })?);
            rest = &rest[1..];
        }
    }
    let Some((from, r)) = parse_square_text(rest) else {
        return Err(format!(
            "`{text}` does not read as a move (write it like Nb3-d4, Bc3xd2 or b2-b3)"
        ));
    };
    let r = r.strip_prefix(['-', 'x', ':']).unwrap_or(r);
    let Some((to, tail)) = parse_square_text(r) else {
        return Err(format!(
            "`{text}` does not read as a move (write it like Nb3-d4, Bc3xd2 or b2-b3)"
        ));
    };
    if !tail.is_empty() {
        return Err(format!("`{text}` has `{tail}` after the move"));
    }
    Ok(Typed { letter, from, to })
}

impl Game {
    /// Creates a game (`/chex new`), logging the start.
    ///
    /// # Errors
    /// Bad players or settings, or a position that does not read (the field is named).
    pub fn create(new: NewGame, organiser: &str, now: Timestamp) -> Result<Game, Refusal> {
        if new.seed > MAX_SEED {
            return refuse(format!("seed must be between 0 and {MAX_SEED}"));
        }
        if !(MIN_BOARD..=MAX_BOARD).contains(&new.max_board) {
            return refuse(format!("max_board must be from {MIN_BOARD} to {MAX_BOARD}"));
        }
        if new.users.iter().any(|u| u.trim().is_empty()) {
            return refuse("Chex needs two players: white:@a black:@b");
        }
        if new.users[0] == new.users[1] {
            return refuse("the two players must be different users");
        }
        let position = match &new.position {
            Some(t) => {
                let mut p = Position::from_text(t)?;
                p.max_board = new.max_board;
                let f = p.frame();
                if f.width > new.max_board || f.height > new.max_board {
                    return refuse(format!(
                        "the position's board is {}×{}, beyond max_board {}",
                        f.width, f.height, new.max_board
                    ));
                }
                Some(p.to_text())
            }
            None => None,
        };
        let settings = Settings {
            pace: crate::layer::pace::Pace::default(),
            draw_mode: new.draw_mode,
            stalemate: new.stalemate,
            max_board: new.max_board,
            move_limit: new.move_limit,
            seed: new.seed,
            seed_hash: seed_hash(new.seed),
            reshuffled: false,
        };
        let log = crate::layer::log::Log::started(organiser, now, Action::Start { position });
        Game::from_log(new.users.to_vec(), settings, log)
    }

    /// A game rebuilt from its log.
    ///
    /// # Errors
    /// Bad seats or a log that does not replay.
    pub fn from_log(
        users: Vec<String>,
        settings: Settings,
        log: impl Into<crate::layer::log::Log<Action>>,
    ) -> Result<Game, Refusal> {
        let state = State::new(Position::start(), 0);
        Game::seated_from_log(
            settings,
            users,
            log,
            state,
            (2, "a Chex game has two seats"),
        )
    }

    // ----- queries ----------------------------------------------------------------------

    /// The position.
    pub fn position(&self) -> &Position {
        &self.state.pos
    }
    /// The shown board's frame.
    pub fn frame(&self) -> Frame {
        self.state.pos.frame()
    }
    /// The current board's number.
    pub fn board_number(&self) -> u32 {
        self.state.board_number
    }
    /// The side of a user.
    pub fn side_of(&self, user: &str) -> Option<Side> {
        match self.users.iter().position(|u| u == user) {
            Some(0) => Some(Side::White),
            Some(1) => Some(Side::Black),
            _ => None,
        }
    }
    /// The user of a side.
    pub fn user(&self, side: Side) -> &str {
        &self.users[side.index()]
    }
    /// `White (ann)`.
    pub fn name(&self, side: Side) -> String {
        name(&self.users, side)
    }
    /// Whether the game is over.
    pub fn finished(&self) -> bool {
        self.state.outcome.is_some()
    }
    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.state.outcome
    }
    /// The side to act, while in play.
    pub fn to_move(&self) -> Option<Side> {
        (!self.finished()).then_some(self.state.pos.to_move)
    }
    /// The seeds the stacks followed, the one in force last (Chex rules 5.5a).
    pub fn seeds(&self) -> &[SeedInUse] {
        &self.state.seeds
    }
    /// The SHA-256 of the seed in force (announced at `/chex new`, or at the revert that
    /// drew it).
    pub fn seed_hash(&self) -> &str {
        self.state
            .seeds
            .last()
            .map_or(self.settings.seed_hash.as_str(), |s| s.hash.as_str())
    }
    /// The sentence revealing the seeds at the end: `The seed was 7 (SHA-256 …).`, or every
    /// seed in force and since when.
    pub fn seeds_revealed(&self) -> String {
        let one = |s: &SeedInUse| {
            let seed = if s.known {
                s.seed.to_string()
            } else {
                format!("not known here (imported; reshuffled from {})", s.seed)
            };
            format!("{seed} (SHA-256 {})", s.hash)
        };
        match self.state.seeds.as_slice() {
            [] => format!(
                "The seed was {} (SHA-256 {}).",
                self.settings.seed, self.settings.seed_hash
            ),
            [s] => format!("The seed was {}.", one(s)),
            all => {
                let v: Vec<String> = all
                    .iter()
                    .map(|s| match s.from {
                        None => format!("{} from the start", one(s)),
                        Some(n) => format!("{} from the revert #{n}", one(s)),
                    })
                    .collect();
                format!("The seeds were {}.", v.join("; then "))
            }
        }
    }
    /// The next action number.
    pub fn next_number(&self) -> u32 {
        self.log.next_number()
    }

    /// The plays a user may make now, sorted, as the commands accept them: moves (`Nb3-d4`),
    /// `draw`, or the revealed piece's placements (`N@c3`).
    ///
    /// # Errors
    /// Not seated, not their turn, the game over.
    pub fn legal_for(&self, user: &str) -> Result<Vec<String>, Refusal> {
        self.check_may_act(user)?;
        Ok(self.offered())
    }

    fn seated(&self, user: &str) -> Result<Side, Refusal> {
        self.side_of(user)
            .ok_or_else(|| Refusal::Rule("you are not playing in this game".into()))
    }

    fn check_may_act(&self, user: &str) -> Result<Side, Refusal> {
        self.check_in_play()?;
        let side = self.seated(user)?;
        let turn = self.state.pos.to_move;
        if side != turn {
            return refuse(format!("it is {}'s turn, not yours", self.name(turn)));
        }
        Ok(side)
    }

    fn check_turn(&self, turn: Option<u32>) -> Result<(), Refusal> {
        match turn {
            Some(n) if n != self.state.board_number => refuse(format!(
                "this refers to board #{n}; the current board is #{} (coordinates may have changed)",
                self.state.board_number
            )),
            _ => Ok(()),
        }
    }

    /// When the player to act overruns `move_limit` (it does not run while they are away,
    /// shared rules 7.5).
    pub fn due(&self) -> Option<(Side, Timestamp)> {
        let side = self.to_move()?;
        self.move_due(
            side,
            self.user(side),
            self.state.turn_started,
            self.settings.move_limit,
        )
    }

    /// The overrun text.
    pub fn overrun_text(&self, side: Side) -> String {
        format!(
            "{} has not played within the move limit ({}); the organiser may resign for them with /chex resign player:@{}",
            self.name(side),
            format_duration(self.settings.move_limit.unwrap_or(0)),
            self.user(side)
        )
    }

    /// Why a square cannot take a placement (it is not one of the placement squares).
    fn placement_refusal(&self, sq: Abs, label: &str) -> String {
        let pos = &self.state.pos;
        let squares = pos.placement_squares();
        let frame = self.frame();
        let list: Vec<String> = squares.iter().map(|&s| frame.label(s)).collect();
        let why = if pos.at(sq).is_some() {
            format!("{label} is occupied; a placement never captures")
        } else if pos.count() > 0
            && !pos
                .pieces()
                .any(|(s, _)| (s.0 - sq.0).abs() <= 1 && (s.1 - sq.1).abs() <= 1)
        {
            format!("{label} is not next to any piece in play")
        } else {
            format!(
                "board limit {0}×{0}: a piece on {label} would make the board too big",
                self.settings.max_board
            )
        };
        format!("{why}; the squares you may place on: {}", list.join(" "))
    }

    fn read_square(&self, text: &str) -> Result<Abs, Refusal> {
        let frame = self.frame();
        let lower = text.trim().to_ascii_lowercase();
        if lower != text.trim() && frame.parse(&lower).is_some() {
            return refuse(format!("square letters are lower case: {lower}"));
        }
        frame.parse(text).ok_or_else(|| {
            Refusal::Rule(format!(
                "`{}` is not a square of board #{} (files a–{}, ranks 1–{})",
                text.trim(),
                self.state.board_number,
                (b'a' + (frame.width.min(26) as u8).saturating_sub(1)) as char,
                frame.height
            ))
        })
    }
}

impl Game {
    // ----- texts ------------------------------------------------------------------------

    /// The board as text, with its labels (top rank first).
    pub fn diagram(&self) -> Vec<String> {
        let pos = &self.state.pos;
        let f = self.frame();
        let mut out = Vec::new();
        for r in (0..f.height as i32).rev() {
            let mut row = format!("{:>2} ", r + 1);
            for c in 0..f.width as i32 {
                row.push(match pos.at((f.origin.0 + c, f.origin.1 + r)) {
                    Some(p) => p.fen(),
                    None => '.',
                });
                row.push(' ');
            }
            out.push(row.trim_end().to_string());
        }
        let files: String = (0..f.width.min(26))
            .map(|c| format!("{} ", (b'a' + c as u8) as char))
            .collect();
        out.push(format!("   {}", files.trim_end()));
        out
    }

    /// The pieces left in a side's stack, by type (`Q1 R2 P5`, or `none`).
    pub fn left_text(&self, side: Side) -> String {
        let v: Vec<String> = self
            .state
            .pos
            .stack_counts(side)
            .into_iter()
            .map(|(k, n)| format!("{}{n}", k.letter()))
            .collect();
        if v.is_empty() {
            "none".into()
        } else {
            v.join(" ")
        }
    }

    /// `/status`.
    pub fn status_text(&self) -> String {
        let st = &self.state;
        let mut lines = vec![format!(
            "Chex: {}, {}; draw_mode {}, stalemate {}, board limit {}×{}{}",
            self.name(Side::White),
            self.name(Side::Black),
            self.settings.draw_mode.as_str(),
            self.settings.stalemate.as_str(),
            self.settings.max_board,
            self.settings.max_board,
            crate::games::export_common::limit_note(self.settings.move_limit)
        )];
        lines.push(self.turn_line());
        lines.extend(self.diagram());
        lines.push(format!(
            "Pieces left: White {}; Black {}",
            self.left_text(Side::White),
            self.left_text(Side::Black)
        ));
        if let Some(k) = st.pos.revealed {
            lines.push(format!("Revealed: {} {}", st.pos.to_move.name(), k.name()));
        }
        if let Some(t) = st.last_now() {
            lines.push(format!("Last: {t}"));
        }
        lines.push(format!("Seed hash (SHA-256): {}", self.seed_hash()));
        lines.join("\n")
    }

    /// The console's `!state` lines.
    pub fn state_lines(&self) -> Vec<String> {
        let st = &self.state;
        let mut v = board_lines(st.pos.placement(), st.pos.to_text());
        v.extend([
            format!(
                "seats: {}, {}",
                self.name(Side::White),
                self.name(Side::Black)
            ),
            format!(
                "settings: draw_mode {}, stalemate {}, max_board {}, move_limit {}, seed hash {}",
                self.settings.draw_mode.as_str(),
                self.settings.stalemate.as_str(),
                self.settings.max_board,
                self.settings
                    .move_limit
                    .map_or("off".to_string(), format_duration),
                self.seed_hash()
            ),
            format!("board number: #{}", st.board_number),
        ]);
        match &st.outcome {
            Some(o) => v.push(format!(
                "result: {}; {}",
                outcome_text(&self.users, o),
                self.seeds_revealed()
            )),
            None => v.push(format!("to move: {}", self.name(st.pos.to_move))),
        }
        v.push(format!(
            "left: White {}; Black {}",
            self.left_text(Side::White),
            self.left_text(Side::Black)
        ));
        if let Some(by) = st.draw_offer {
            v.push(format!("draw offer: by {}", self.name(by)));
        }
        if let Some(t) = st.last_now() {
            v.push(format!("last: {t}"));
        }
        v.push(format!("turn started: {}", st.turn_started));
        v
    }
}

/// The result for people.
pub fn outcome_text(users: &[String], o: &Outcome) -> String {
    match o {
        Outcome::Win { side, how } => {
            let loser = name(users, side.other());
            let how = match how {
                WinHow::KingCaptured => format!("{loser}'s King is captured"),
                WinHow::Resigned => format!("{loser} resigns"),
                WinHow::OrganiserResigned => {
                    format!("the organiser resigns for {loser} after an overrun")
                }
            };
            format!("{} wins ({how})", name(users, *side))
        }
        Outcome::Draw(r) => {
            let why = match r {
                DrawReason::KingStalemate(s) => format!(
                    "King stalemate: {} drew the King and has no safe square",
                    name(users, *s)
                ),
                DrawReason::MoveStalemate(s) => format!(
                    "move stalemate: {} has no piece left to draw and no legal move",
                    name(users, *s)
                ),
                DrawReason::NoSquare(s) => format!(
                    "{} drew a piece that has no square to go to",
                    name(users, *s)
                ),
                DrawReason::Agreement => "agreed".into(),
            };
            format!("drawn ({why})")
        }
    }
}

/// A short description of an action.
pub fn describe(a: &Action, users: &[String]) -> String {
    let u = |s: Side| name(users, s);
    match a {
        Action::Substitute(h) => h.text(),
        Action::Start { position } => crate::games::start_text(position.as_deref()),
        Action::Draw {
            side,
            piece,
            square,
        } => match square {
            Some(_) => format!("{} draws a {} and places it", u(*side), piece.name()),
            None => format!("{} draws a {}", u(*side), piece.name()),
        },
        Action::Place { side, notation, .. } | Action::Move { side, notation, .. } => {
            format!("{} {notation}", u(*side))
        }
        Action::Stack { side, .. } => format!("{}'s stack order set (console)", side.name()),
        Action::OfferDraw { side } => format!("{} offers a draw", u(*side)),
        Action::AcceptDraw { side } => format!("{} accepts the draw", u(*side)),
        Action::DeclineDraw { side } => format!("{} declines the draw", u(*side)),
        Action::Resign { side, organiser } => {
            if *organiser {
                format!("the organiser resigns for {}", u(*side))
            } else {
                format!("{} resigns", u(*side))
            }
        }
        Action::Takeback { side, undone } => format!("{} takes back #{undone}", u(*side)),
        Action::Revert {
            to,
            reason,
            reseed: None,
        } => format!("revert to before #{to} ({reason})"),
        Action::Revert {
            to,
            reason,
            reseed: Some(r),
        } => format!(
            "revert to before #{to} ({reason}); the pieces face down reshuffled from a fresh seed (SHA-256 {})",
            r.hash
        ),
    }
}

/// The line a reply carries when the labels changed.
pub fn relabel_line(was: &Frame, now: &Frame, pos: &Position) -> Option<String> {
    if was.origin == now.origin {
        return None;
    }
    let dx = was.origin.0 - now.origin.0;
    let dy = was.origin.1 - now.origin.1;
    let part = |n: i32, pos: &str, neg: &str, unit: &str| -> Option<String> {
        match n {
            0 => None,
            n if n > 0 => Some(format!("{n} {unit}{} {pos}", if n == 1 { "" } else { "s" })),
            n => Some(format!(
                "{} {unit}{} {neg}",
                -n,
                if n == -1 { "" } else { "s" }
            )),
        }
    };
    let parts: Vec<String> = [
        part(dx, "right", "left", "file"),
        part(dy, "up", "down", "rank"),
    ]
    .into_iter()
    .flatten()
    .collect();
    let example = pos
        .pieces()
        .find_map(|(s, _)| Some((was.name(s)?, now.name(s)?)))
        .map(|(a, b)| format!(" ({a} is now {b})"))
        .unwrap_or_default();
    Some(format!(
        "The board is relabelled (now {}×{}): every square's name moved {}{example}.",
        now.width,
        now.height,
        parts.join(" and "),
    ))
}

crate::layer::table::fold! {
    /// Chex's rules, as its [`Table`] folds them.
    Chex described by describe {
        fn begin(_: &Game) -> State {
            State::new(Position::start(), 0)
        }

        fn replay_entry(g: &mut Game, e: &Entry) -> Result<(), Refusal> {
            fold(&mut g.state, &g.settings, &g.users, &e.action, e.time, e.number, &mut Vec::new())
        }

        fn ended(g: &Game) -> Option<String> {
            Some(outcome_text(&g.users, g.state.outcome.as_ref()?))
        }

        /// A revert that reopens an ended game, or undoes an earlier reshuffle, reshuffles the
        /// pieces still face down (Chex rules 5.5a).
        fn revert_notes(g: &Game, to: u32) -> Vec<String> {
            if g.revert_reseeds(to) {
                vec!["and the pieces still face down will be reshuffled from a fresh seed (the seed they follow has been revealed)".to_string()]
            } else {
                Vec::new()
            }
        }
    }
}
/// The seed an import without one reshuffles from (see the export module's documentation).
pub fn derived_seed(hash: &str) -> u64 {
    let head: String = hash.chars().take(13).collect();
    u64::from_str_radix(&head, 16).unwrap_or(0) & crate::games::MAX_SEED
}
