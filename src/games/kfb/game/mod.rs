//! The Kung Fu Bughouse game: six seats on three linked boards, an append-only log of
//! actions, and the state that replaying it gives (KFB rules 1.0–1.10).

use std::sync::Arc;

use crate::engine::{
    fen, notation, ArmyId, CaptureFate, Catalog, Colour, DropRules, Geometry, HandPiece, Move,
    Position, RuleSet, Rules, Side,
};
use crate::layer::log::{Bookkept, Folded, Log, Reverting};
use crate::layer::table::Rebuilt;
use crate::layer::table::Table;
use crate::layer::Notify;
use crate::time::{stamp, Style, Timestamp};

use super::draft::{Choice, Draft, DraftOutcome, Order, Seating};

mod actions;
mod describe;
mod fold;
mod queries;
pub use describe::*;
use fold::*;

/// Colour names, indexed by colour number.
pub const COLOUR_NAMES: [&str; 3] = ["red", "lightgreen", "blue"];

/// Per-game settings.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// The reminder interval and stall time (`remind:` on `/… new`, the server's defaults;
    /// shared rules 7.4).
    #[serde(flatten)]
    pub pace: crate::layer::pace::Pace,
    /// Kung Fu move limit in seconds (KFB rules 1.6).
    pub move_limit: u64,
    /// Posts before inactivity may be claimed (§1.7).
    pub inactivity_posts: u32,
    /// Seed of the draft's random start.
    pub seed: u64,
    /// A captured promoted piece returns to hand as a pawn (§1.2).
    pub promoted_to_pawn: bool,
    /// Who created the game and when (its log starts with the first pick): the organiser
    /// pinged when it pauses, and the start of the draft's first wait. Games stored before
    /// issue 41 have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<(String, crate::time::Timestamp)>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            pace: crate::layer::pace::Pace::default(),
            move_limit: 6 * 3600,
            inactivity_posts: 18,
            seed: 0,
            promoted_to_pawn: true,
            created: None,
        }
    }
}

crate::layer::log::actions! {
    /// A logged action. Replaying the non-reverted actions in order gives the state.
    #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub enum Action {
        /// A draft pick or a hand-over of a refused choice.
        Pick(DraftOutcome),
        /// A move or drop by `player` (possibly made by a proxy) in normalised notation.
        Move {
            /// Seat.
            player: usize,
            /// The move as the engine formats it.
            notation: String,
            /// Army chosen for a pawn drop.
            army: Option<String>,
        },
        /// A held king passed to a teammate.
        Give {
            /// Giver.
            from: usize,
            /// Receiver.
            to: usize,
            /// The king's colour.
            colour: u8,
        },
        /// An inactivity claim.
        Claim {
            /// Claimant.
            claimant: usize,
            /// The inactive player.
            inactive: usize,
        },
        /// A chat line by a seated player (a post; not numbered).
        Chat {
            /// Seat.
            player: usize,
        },
        /// A team resigns.
        Resign {
            /// Seat of the player who resigned.
            player: usize,
        },
        /// A proxy grant or revocation.
        Proxy {
            /// Grant (true) or revoke.
            grant: bool,
            /// Who may act.
            proxy: usize,
            /// For whom.
            for_player: usize,
        },
    }
    takeback {
        /// Seat.
        player: usize,
    }
    revert {}
    bookkeeping:
}

impl Action {
    /// Whether the action changes the position (what replay folds).
    fn is_numbered(&self) -> bool {
        !matches!(self, Action::Chat { .. })
    }
}

/// One entry of the log.
pub type Entry = crate::layer::log::Entry<Action>;

/// The state of one board.
#[derive(Clone, Debug)]
pub struct BoardState {
    /// The position (side 0 = the first player, at the bottom).
    pub pos: Position,
    /// Seat playing first (bottom).
    pub first: usize,
    /// Seat playing second (top).
    pub second: usize,
    /// Whether the first player has made the board's first move.
    pub first_moved: bool,
    /// Identities of pieces that moved since the other side last moved, per side.
    pub locked_pieces: [Vec<u32>; 2],
    /// Squares of the last action on this board (from, to).
    pub last: Option<(Option<crate::engine::Square>, crate::engine::Square)>,
}

/// The state of one seat.
#[derive(Clone, Debug, Default)]
pub struct PlayerState {
    /// The user in the seat.
    pub user: String,
    /// Colour number once drafted.
    pub colour: Option<u8>,
    /// Army once drafted.
    pub army: Option<ArmyId>,
    /// First or second once drafted.
    pub order: Option<Order>,
    /// Board index (0..3) once seated.
    pub board: usize,
    /// Side on that board.
    pub side: Side,
    /// Time of the player's last move.
    pub last_move: Option<Timestamp>,
    /// Whether the board opponent moved since.
    pub opponent_moved: bool,
    /// Inactivity counter.
    pub counter: u32,
}

crate::games::refusal! {
    /// Why a game action is refused. Messages are shown to the user as they are.
    pub enum Refusal {
        /// A move that does not read or is not legal.
        #[error("{0}")]
        Notation(#[from] notation::NotationError),
    }
}

/// The state replay gives.
#[derive(Clone, Debug)]
pub struct State {
    /// The draft.
    pub draft: Draft,
    /// The boards, once the draft is complete.
    pub boards: Option<Vec<BoardState>>,
    /// The six seats.
    pub players: Vec<PlayerState>,
    /// Winning team, once decided, and how.
    pub winner: Option<(usize, String)>,
    /// Proxy grants (proxy, for whom).
    pub proxies: Vec<(usize, usize)>,
    /// The pieces' catalogue (one for every game).
    catalog: Arc<Catalog>,
}

/// The CwDA catalogue, built once and shared by every game: it is the same table for all,
/// and a copy built per game was most of a loaded game's memory (issue 22).
fn shared_catalog() -> Result<Arc<Catalog>, String> {
    static CWDA: std::sync::OnceLock<Result<Arc<Catalog>, String>> = std::sync::OnceLock::new();
    CWDA.get_or_init(|| Catalog::cwda().map(Arc::new).map_err(|e| e.to_string()))
        .clone()
}

/// A Kung Fu Bughouse game: its [`Table`] (seats 0..6: team 1 = seats 0–2, team 2 = seats
/// 3–5), and its methods on it.
pub type Game = Table<Kfb>;

/// What an accepted action reports: its number, what happened and who must act because of it
/// (the actor not yet removed: the command layer does that).
pub type Accepted = crate::layer::log::Accepted<Option<Notify>>;

/// What a draft pick did: either the choice is recorded, or it broke a constraint (KFB rules
/// 1.8) and was handed over to the other team. A hand-over is a refusal for the player who
/// chose, yet it is logged and numbered like an accepted action, so that replay and revert
/// reproduce it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PickOutcome {
    /// The choice (or a replacement) is recorded.
    Picked(Accepted),
    /// The choice is refused and the other team picks the replacement.
    HandedOver(HandOver),
}

/// A refused choice, handed over to the other team (logged as action `number`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandOver {
    /// The hand-over's action number.
    pub number: u32,
    /// For the player who chose: why the choice is refused and what the other team does next.
    pub refusal: String,
    /// For the thread: the refused choice.
    pub notice: String,
    /// For the team that picks the replacement: whose replacement they pick, and how.
    pub ask: String,
    /// The players of the team that picks the replacement (whom `ask` is for).
    pub replacing: Vec<String>,
}

pub use crate::games::seeded::splitmix;

/// Team of a seat.
pub fn team_of(seat: usize) -> usize {
    seat / 3
}

/// `team 1` or `team 2`.
pub fn team_name(t: usize) -> &'static str {
    if t == 0 {
        "team 1"
    } else {
        "team 2"
    }
}

impl Game {
    /// A new game in its draft. `users` are the six players, team 1 first.
    ///
    /// # Errors
    /// Fewer or more than six distinct players.
    pub fn new(users: Vec<String>, settings: Settings) -> Result<Game, Refusal> {
        if users.len() != 6 {
            return refuse(format!(
                "a game needs exactly three players per team (got {})",
                users.len()
            ));
        }
        let mut sorted = users.clone();
        sorted.sort();
        sorted.dedup();
        if sorted.len() != 6 {
            return refuse("the six players must all be different users");
        }
        let catalog = shared_catalog().map_err(Refusal::Rule)?;
        let state = Self::initial_state(&users, &settings, catalog);
        Ok(Game::with_log(settings, users, Log::default(), state))
    }

    /// The seat that starts the draft (seeded).
    pub fn first_picker(settings: &Settings) -> usize {
        (splitmix(settings.seed) % 6) as usize
    }

    fn initial_state(users: &[String], settings: &Settings, catalog: Arc<Catalog>) -> State {
        let first = Self::first_picker(settings);
        State {
            draft: Draft::starting_with(first),
            boards: None,
            players: users
                .iter()
                .map(|u| PlayerState {
                    user: u.clone(),
                    ..PlayerState::default()
                })
                .collect(),
            winner: None,
            proxies: Vec::new(),
            catalog,
        }
    }

    /// The seat of a user.
    pub fn seat_of(&self, user: &str) -> Option<usize> {
        self.users.iter().position(|u| u == user)
    }

    /// Whether the game is over.
    pub fn finished(&self) -> bool {
        self.state.winner.is_some()
    }

    /// The next action number.
    pub fn next_number(&self) -> u32 {
        self.log.next_number()
    }

    /// Appends an already validated action and applies it.
    fn commit(
        &mut self,
        actor: &str,
        time: Timestamp,
        command: &str,
        action: Action,
    ) -> Result<Option<u32>, Refusal> {
        let numbered = action.is_numbered();
        let (number, _) = self.record(actor, time, command, action, numbered, |st, g, a, _| {
            Self::apply_to(st, &g.settings, &g.away, a, time)
        })?;
        Ok(number)
    }
}

/// A stored game is rebuilt with the players' vacations ([`Game::from_log_away`]): posts made
/// while a player was away did not count against them.
impl Rebuilt for Kfb {
    fn unreplayed(
        users: Vec<String>,
        settings: Settings,
        log: Log<Action>,
    ) -> Result<Game, Refusal> {
        let mut g = Game::new(users, settings)?;
        g.log = log;
        Ok(g)
    }
}

impl Bookkept for Game {
    type Accepted = Accepted;
    type Refusal = Refusal;

    fn substitute(&mut self, s: crate::layer::log::Substitution<'_>) -> Result<Accepted, Refusal> {
        let text = s.handover.text();
        let number = self.commit(s.actor, s.now, s.raw, Action::Substitute(s.handover))?;
        Ok(Accepted {
            number,
            text,
            notify: None,
        })
    }

    /// Takes back the player's own last action if it is the last in the game (shared rules 7.2).
    ///
    /// # Errors
    /// Someone else acted since, nothing to take back, or it won the game.
    fn takeback(&mut self, user: &str, now: Timestamp, command: &str) -> Result<Accepted, Refusal> {
        let (idx, e) = self.log.takeable(user)?;
        if matches!(e.action, Action::Proxy { .. }) {
            return refuse("a proxy grant is undone with /proxy revoke");
        }
        if let Action::Pick(DraftOutcome::HandedOver { player, .. }) = &e.action {
            return refuse(format!(
                "#{} is the hand-over of {}'s refused choice: the other team picks the \
                 replacement, and the hand-over cannot be taken back (a moderator can revert it)",
                e.number.unwrap_or(0),
                self.users.get(*player).map_or("a player", String::as_str)
            ));
        }
        if self.finished() {
            return refuse("the winning action cannot be taken back (a moderator can revert it)");
        }
        let undone = e.number.unwrap_or(0);
        let seat = self.seat_of(user).unwrap_or(0);
        self.log.take_back(
            idx,
            user,
            now,
            command,
            Action::Takeback {
                player: seat,
                undone,
            },
        );
        self.replay()?;
        Ok(Accepted {
            number: Some(self.next_number() - 1),
            text: format!("{user} takes back #{undone}"),
            notify: None,
        })
    }

    /// Reverts the game to before action `to` (moderator, after confirmation).
    ///
    /// # Errors
    /// As [`Game::revert_preview`].
    fn revert(&mut self, by: Reverting<'_>, _entropy: u64) -> Result<Accepted, Refusal> {
        let (number, line) = self.revert_logged(&by, |to, reason| Action::Revert { to, reason })?;
        Ok(Accepted {
            number,
            text: line,
            // Everyone's position may have changed.
            notify: Some(Notify::to(
                self.users.clone(),
                format!(
                    "{} reverted the game to before #{} ({}); see where it stands with /status",
                    by.moderator, by.to, by.reason
                ),
            )),
        })
    }
}

crate::layer::table::fold! {
    /// Kung Fu Bughouse's rules, as its [`Table`] folds them.
    Kfb described by describe {
        // Posts while a player is away do not count against them: replay with the vacations.
        const REPLAYS_AWAY: bool = true;

        fn begin(g: &Game) -> State {
            Game::initial_state(&g.original, &g.settings, g.state.catalog.clone())
        }

        fn replay_entry(g: &mut Game, e: &Entry) -> Result<(), Refusal> {
            Game::apply_to(&mut g.state, &g.settings, &g.away, &e.action, e.time)
        }

        fn ended(g: &Game) -> Option<String> {
            let (t, _) = g.state.winner.as_ref()?;
            Some(format!("{} won", team_name(*t)))
        }
    }
}
