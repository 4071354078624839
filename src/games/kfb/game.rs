//! The Kung Fu Bughouse game: six seats on three linked boards, an append-only log of
//! actions, and the state that replaying it gives (KFB rules 1.0–1.10).

use std::sync::Arc;

use crate::engine::{
    fen, notation, ArmyId, CaptureFate, Catalog, Colour, DropRules, Geometry, HandPiece, Move,
    Position, RuleSet, Rules, Side,
};
use crate::layer::log::{Bookkept, Folded, Log, Reverting};
use crate::layer::table::Table;
use crate::layer::Notify;
use crate::time::{stamp, Style, Timestamp};

use super::draft::{Choice, Draft, DraftOutcome, Order, Seating};

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

    /// A game rebuilt from its stored log.
    ///
    /// # Errors
    /// Bad seats, or a log that does not replay.
    pub fn from_log(
        users: Vec<String>,
        settings: Settings,
        log: impl Into<crate::layer::log::Log<Action>>,
    ) -> Result<Game, Refusal> {
        Game::from_log_away(users, settings, log, crate::layer::clock::Away::none())
    }

    /// [`Game::from_log`] with the players' vacations (posts made while a player was away
    /// did not count against them).
    ///
    /// # Errors
    /// Bad seats, or a log that does not replay.
    pub fn from_log_away(
        users: Vec<String>,
        settings: Settings,
        log: impl Into<crate::layer::log::Log<Action>>,
        away: crate::layer::clock::Away,
    ) -> Result<Game, Refusal> {
        let mut g = Game::new(users, settings)?;
        g.log = log.into();
        g.away = away;
        g.replay()?;
        Ok(g)
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

    // ----- queries -------------------------------------------------------------------

    /// Whether a seat is locked by Kung Fu timing at `now`.
    pub fn locked_until(&self, seat: usize, now: Timestamp) -> Option<Timestamp> {
        locked_until(&self.state, &self.settings, &self.away, seat, now)
    }

    /// Why a seat may not move because its board is frozen (KFB rules 1.5: a side there has
    /// no King) and it cannot unfreeze it by dropping a King of its own; `None` when it is not,
    /// before the boards are set up, and after the end.
    pub fn frozen_why(&self, seat: usize) -> Option<String> {
        let st = &self.state;
        if st.winner.is_some() {
            return None;
        }
        let boards = st.boards.as_ref()?;
        let p = st.players.get(seat)?;
        let b = &boards[p.board];
        if !frozen_for(st, &b.pos.rules().catalog, seat) {
            return None;
        }
        let n = p.board + 1;
        Some(if b.pos.royal_count(Side(1 - p.side.0)) == 0 {
            format!(
                "board {n} is frozen: {} has no King on it; nobody moves there until they drop a King of their colour",
                st.players[opponent(b, seat)].user
            )
        } else {
            format!(
                "board {n} is frozen: you have no King on it and hold none of your colour; nobody moves there until you drop one (a teammate who holds it can /give it to you)"
            )
        })
    }

    /// Whether a seat is free to move at `now` (for inactivity counting).
    pub fn is_free(&self, seat: usize, now: Timestamp) -> bool {
        is_free(&self.state, &self.settings, &self.away, seat, now)
    }

    /// The legal moves of a seat at `now`, honouring locks (empty when it may not move), each
    /// with the text [`Game::play`] accepts for it as it is (a pawn drop names its army when
    /// the hand holds pawns of several armies: `P@g6(nutty)`), sorted by text. This is what
    /// `/moves` lists and the `/move` autocomplete suggests.
    pub fn legal_moves(&self, seat: usize, now: Timestamp) -> Vec<(Move, String)> {
        if self.check_may_move(seat, now).is_err() {
            return Vec::new();
        }
        self.planned_moves(seat)
    }

    /// The moves a seat could make on its board in the position as it stands if it were free
    /// to move (locked or waiting for the opening move): the list `/moves` adds to its
    /// refusal, for planning. Empty before the boards are set up and after the end.
    pub fn planned_moves(&self, seat: usize) -> Vec<(Move, String)> {
        let Some(boards) = &self.state.boards else {
            return Vec::new();
        };
        if self.state.winner.is_some() {
            return Vec::new();
        }
        let Some(p) = self.state.players.get(seat) else {
            return Vec::new();
        };
        let b = &boards[p.board];
        let mut pos = b.pos.clone();
        pos.set_turn(p.side);
        let moves = allowed_moves(&mut pos, b, p.side);
        notation::offer(&pos, &moves)
    }

    /// The square of a seat's King when it is in check on its board (for the check-first
    /// line of a refused move).
    pub fn king_in_check(&self, seat: usize) -> Option<String> {
        let boards = self.state.boards.as_ref()?;
        let p = &self.state.players[seat];
        let pos = &boards[p.board].pos;
        if !pos.in_check(p.side) {
            return None;
        }
        let king = *pos.royal_squares(p.side).first()?;
        Some(pos.rules().geometry.name(king))
    }

    /// Whether a seat may move at `now`: why not (the game over, the draft running, the
    /// opening move not made on its board, its Kung Fu lock).
    ///
    /// # Errors
    /// The reason, for the player.
    pub fn check_may_move(&self, seat: usize, now: Timestamp) -> Result<(), Refusal> {
        let st = &self.state;
        if let Some((t, how)) = &st.winner {
            return refuse(format!("the game is over: {} won ({how})", team_name(*t)));
        }
        let Some(boards) = &st.boards else {
            return refuse("the game has not started: the draft is still running (use /pick)");
        };
        let p = &st.players[seat];
        let b = &boards[p.board];
        if seat == b.second && !b.first_moved {
            return refuse(format!(
                "{} moves first on board {}; your first move waits for theirs",
                st.players[b.first].user,
                p.board + 1
            ));
        }
        // A frozen board is said first: no lock's end lets anyone move there.
        if let Some(why) = self.frozen_why(seat) {
            return refuse(why);
        }
        if let Some(until) = locked_until(st, &self.settings, &self.away, seat, now) {
            return refuse(format!(
                "you are locked: you moved last on board {}; you may move again when {} moves or {} ({})",
                p.board + 1,
                st.players[opponent(b, seat)].user,
                stamp(until, Style::Relative),
                stamp(until, Style::Full)
            ));
        }
        Ok(())
    }

    // ----- commands --------------------------------------------------------------

    /// A draft pick (`for_player` for a replacement after a hand-over). A choice that breaks
    /// a constraint of KFB rules 1.8 is logged as a hand-over and comes back as
    /// [`PickOutcome::HandedOver`]: a refusal for the player, news for the other team.
    ///
    /// # Errors
    /// A plain refusal (malformed, out of turn, already picked, an impossible replacement).
    pub fn pick(
        &mut self,
        seat: usize,
        for_player: Option<usize>,
        choice: Choice,
        now: Timestamp,
        command: &str,
    ) -> Result<PickOutcome, Refusal> {
        if self.state.boards.is_some() {
            return refuse("the draft is over; the game has started");
        }
        let outcome = self
            .state
            .draft
            .pick(seat, for_player, choice)
            .map_err(|e| Refusal::Rule(self.humanize(&e.to_string())))?;
        let actor = self.users[seat].clone();
        let number = self.commit(&actor, now, command, Action::Pick(outcome.clone()))?;
        match &outcome {
            DraftOutcome::Picked { player, choice, .. } => {
                let mut text = format!(
                    "{} picks {} {} {}",
                    self.users[*player],
                    choice.order.as_str(),
                    choice.colour.as_str(),
                    choice.army.as_str()
                );
                if self.state.boards.is_some() {
                    text.push_str(". The draft is complete; the game starts.\n");
                    text.push_str(&self.seating_text());
                } else {
                    let t = self.draft_turn_team();
                    text.push_str(&format!(". {} to pick.", team_name(t)));
                }
                Ok(PickOutcome::Picked(Accepted {
                    number,
                    text,
                    notify: self.turn_notify(),
                }))
            }
            DraftOutcome::HandedOver {
                player,
                refused,
                reason,
            } => {
                let number = number.unwrap_or(0);
                let who = &self.users[*player];
                let (own, other) = (team_of(*player), 1 - team_of(*player));
                let reason = self.humanize(reason);
                let how = format!("/pick for:@{who} order:… color:… army:…");
                let replacing: Vec<String> = self.users[other * 3..other * 3 + 3].to_vec();
                let refusal = format!(
                    "{who}'s choice {refused} is refused: {reason}. The choice is handed over \
                     (#{number}): {} picks the replacement for {who} with {how}.",
                    team_name(other)
                );
                let last = self.state.draft.picks().iter().flatten().count() == 5;
                let then = if last {
                    "it completes the draft".to_string()
                } else {
                    format!(
                        "it counts as {}'s pick, and then it is {}'s turn",
                        team_name(own),
                        team_name(other)
                    )
                };
                let notice = format!("#{number} {who}'s choice {refused} is refused: {reason}.");
                let ask = format!(
                    "{}, pick the replacement for {who} with {how} (any of you may; {then}).",
                    team_name(other),
                );
                Ok(PickOutcome::HandedOver(HandOver {
                    number,
                    refusal,
                    notice,
                    ask,
                    replacing,
                }))
            }
        }
    }

    /// The seats that may pick now (KFB rules 1.8): the player who starts the draft, until the
    /// first pick; the replacing team during a hand-over; otherwise the players of the team
    /// on turn who have not picked. Empty once the draft is over.
    pub fn draft_pickers(&self) -> Vec<usize> {
        if self.state.boards.is_some() {
            return Vec::new();
        }
        self.state.draft.pickers()
    }

    /// Who picks next in the draft, in words (`f (team 2) makes the first pick`, `team 2
    /// picks the replacement for b`, `team 1 to pick`); `None` once the draft is over.
    pub fn draft_turn_text(&self) -> Option<String> {
        let draft = &self.state.draft;
        if self.state.boards.is_some() || draft.is_complete() {
            return None;
        }
        if let Some(player) = draft.pending() {
            return Some(format!(
                "{} picks the replacement for {} (/pick for:@{} …)",
                team_name(1 - team_of(player)),
                self.users[player],
                self.users[player]
            ));
        }
        if let Some(first) = draft.first_picker().filter(|_| draft.is_fresh()) {
            return Some(format!(
                "{} ({}) makes the first pick",
                self.users[first],
                team_name(team_of(first))
            ));
        }
        Some(format!("{} to pick", team_name(self.draft_turn_team())))
    }

    /// Refuses when the game has not started (draft running) or is over.
    fn check_playing(&self) -> Result<(), Refusal> {
        self.check_in_play()?;
        if self.state.boards.is_none() {
            return refuse("the game has not started yet");
        }
        Ok(())
    }

    /// `\nteam N wins: …` once the game is won, else nothing.
    fn winner_line(&self) -> String {
        match &self.state.winner {
            Some((t, how)) => format!("\n{} wins: {how}", team_name(*t)),
            None => String::new(),
        }
    }

    /// The team whose turn it is in the draft (the replacing team during a hand-over).
    pub fn draft_turn_team(&self) -> usize {
        self.state.draft.acting_team().unwrap_or(0)
    }

    /// Who must act now that the draft moved on: the players of the team on turn who may
    /// pick (the whole team when it picks a replacement), or, once the draft is complete, the
    /// player who moves first on each board.
    fn turn_notify(&self) -> Option<Notify> {
        let st = &self.state;
        if let Some(boards) = &st.boards {
            let lines = boards.iter().map(|b| {
                Notify::to(
                    [self.users[b.first].clone()],
                    format!(
                        "the draft is complete; you move first on {}",
                        self.board_label(b.first)
                    ),
                )
            });
            return lines.reduce(Notify::and);
        }
        let team = st.draft.acting_team()?;
        let users: Vec<String> = self
            .draft_pickers()
            .into_iter()
            .map(|s| self.users[s].clone())
            .collect();
        let what = match st.draft.pending() {
            Some(p) => format!(
                "your team picks the replacement for {}'s refused choice: /pick for:@{} order color army",
                self.users[p], self.users[p]
            ),
            None if st.draft.is_fresh() => {
                "you make the first pick of the draft: /pick order color army".to_string()
            }
            None => format!(
                "{}'s turn to pick in the draft: /pick order color army",
                team_name(team)
            ),
        };
        Notify::to(users, what).nonempty()
    }

    /// A seat's board, from that seat's side: `board 2 (Nutty vs FIDE)`, the seat's army first.
    pub fn board_label(&self, seat: usize) -> String {
        let st = &self.state;
        let p = &st.players[seat];
        let army = |s: usize| {
            st.players[s].army.map_or("?".to_string(), |a| {
                army_label(self.state.catalog.army(a).code)
            })
        };
        match &st.boards {
            Some(boards) => {
                let opp = opponent(&boards[p.board], seat);
                format!("board {} ({} vs {})", p.board + 1, army(seat), army(opp))
            }
            None => format!("board {}", p.board + 1),
        }
    }

    /// What kings must change hands for a kingless player to play again (KFB rules 1.5): a
    /// player without a king on their board who holds one of their colour must drop it; else
    /// each teammate holding one of that colour must give it to them. (seat that must act, what
    /// to do).
    fn king_needs(&self) -> Vec<(usize, String)> {
        let st = &self.state;
        let Some(boards) = &st.boards else {
            return Vec::new();
        };
        if st.winner.is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (seat, p) in st.players.iter().enumerate() {
            let board = p.board + 1;
            let (Some(colour), true) = (p.colour, boards[p.board].pos.royal_count(p.side) == 0)
            else {
                continue;
            };
            let name = COLOUR_NAMES[colour as usize % 3];
            if held_kings(st, &self.state.catalog, seat).contains(&colour) {
                out.push((
                    seat,
                    format!(
                        "drop your {name} king on board {board} to unfreeze it: /move K@<square>"
                    ),
                ));
                continue;
            }
            for mate in (0..6).filter(|&m| m != seat && team_of(m) == team_of(seat)) {
                if held_kings(st, &self.state.catalog, mate).contains(&colour) {
                    out.push((
                        mate,
                        format!(
                            "give your {name} king to {}, who has no king on board {board}: /give to:@{} color:{name}",
                            p.user, p.user
                        ),
                    ));
                }
            }
        }
        out
    }

    /// The king needs that were not there `before` an action, as a notification.
    fn new_king_needs(&self, before: &[(usize, String)]) -> Notify {
        self.king_needs()
            .into_iter()
            .filter(|n| !before.contains(n))
            .map(|(seat, what)| Notify::to([self.users[seat].clone()], what))
            .fold(Notify::default(), Notify::and)
    }

    /// Rewrites the draft's `player N` / `team N` (0-based) with user names and team numbers
    /// from 1.
    pub fn humanize(&self, text: &str) -> String {
        humanize(text, &self.users)
    }

    /// A line per board: who plays first and second, colours and armies.
    pub fn seating_text(&self) -> String {
        let Some(boards) = &self.state.boards else {
            return String::new();
        };
        let mut s = String::new();
        for (i, b) in boards.iter().enumerate() {
            let d = |seat: usize| {
                let p = &self.state.players[seat];
                format!(
                    "{} ({}, {})",
                    p.user,
                    p.colour.map_or("?", |c| COLOUR_NAMES[c as usize]),
                    p.army.map_or("?", |a| self.state.catalog.army(a).code)
                )
            };
            s.push_str(&format!(
                "board {}: {} first (bottom) vs {} second (top)\n",
                i + 1,
                d(b.first),
                d(b.second)
            ));
        }
        s
    }

    /// Resolves which seat a user acts for, given an optional board (proxy play, §1.9).
    ///
    /// # Errors
    /// Not seated, no grant, or a bad board number.
    pub fn acting_seat(&self, user: &str, board: Option<usize>) -> Result<usize, Refusal> {
        let own = self.seat_of(user);
        let Some(board) = board else {
            return own.ok_or_else(|| Refusal::Rule("you are not seated in this game".into()));
        };
        if !(1..=3).contains(&board) {
            return refuse("board must be 1, 2 or 3");
        }
        let Some(boards) = &self.state.boards else {
            return refuse("the game has not started yet");
        };
        let b = &boards[board - 1];
        if let Some(s) = own {
            if b.first == s || b.second == s {
                return Ok(s);
            }
        }
        for &seat in &[b.first, b.second] {
            let granted = self
                .state
                .proxies
                .iter()
                .any(|&(proxy, for_p)| for_p == seat && self.users[proxy] == user);
            if granted {
                return Ok(seat);
            }
        }
        refuse(format!(
            "you may act on board {board} only with a proxy grant from an organiser (/proxy grant)"
        ))
    }

    /// A move or drop.
    ///
    /// # Errors
    /// Locked, frozen, out of turn, or not a legal move (with what would work).
    pub fn play(
        &mut self,
        actor: &str,
        seat: usize,
        text: &str,
        army: Option<&str>,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        self.check_may_move(seat, now)?;
        let army_id = match army {
            Some(a) => Some(self.state.catalog.army_by_code(a).ok_or_else(|| {
                Refusal::Rule(format!(
                    "unknown army `{a}` (fide, clobberers, nutty, rookies, forward)"
                ))
            })?),
            None => None,
        };
        let boards = self
            .state
            .boards
            .as_ref()
            .ok_or_else(|| Refusal::Rule("not started".into()))?;
        let p = &self.state.players[seat];
        let b = &boards[p.board];
        let mut pos = b.pos.clone();
        pos.set_turn(p.side);
        let parsed = notation::parse_text(text)?;
        let all = pos.legal_moves();
        let allowed = allowed_moves(&mut pos, b, p.side);
        if all.is_empty() {
            let frozen = pos.royal_count(Side(0)) == 0 || pos.royal_count(Side(1)) == 0;
            if frozen {
                return refuse(format!(
                    "board {} is frozen: a side has no king there; only the kingless player may drop a king of their own colour",
                    p.board + 1
                ));
            }
            return refuse("you have no legal move");
        }
        let mv = match notation::resolve_in(&pos, text, &parsed, &allowed, army_id) {
            Ok(m) => m,
            Err(e) => {
                // Say so when the move would be legal but for the same-piece rule.
                if let Ok(m) = notation::resolve_in(&pos, text, &parsed, &all, army_id) {
                    return refuse(format!(
                        "{} moved since your opponent's last move; no piece moves twice before the opponent answers",
                        notation::format(&pos, m)
                    ));
                }
                return Err(e.into());
            }
        };
        let formatted = notation::format_with_check(&mut pos, mv);
        // The reply names the army of a pawn dropped from a hand of several armies, as the
        // move was offered (`P@g6(nutty)`); the log keeps the army apart.
        let shown = match mv {
            Move::Drop { piece, to } if self.state.catalog.def(piece.kind).pawn => {
                let several = allowed.iter().any(|m| {
                    matches!(m, Move::Drop { piece: q, to: t }
                        if *t == to && q.kind == piece.kind && q.army != piece.army)
                });
                if several {
                    let check = if formatted.ends_with('+') { "+" } else { "" };
                    format!("{}{check}", notation::format_with_army(&pos, mv))
                } else {
                    formatted.clone()
                }
            }
            _ => formatted.clone(),
        };
        let army_code = match mv {
            Move::Drop { piece, .. } if self.state.catalog.def(piece.kind).pawn => {
                Some(self.state.catalog.army(piece.army).code.to_string())
            }
            _ => None,
        };
        let action = Action::Move {
            player: seat,
            notation: formatted,
            army: army_code,
        };
        let board_no = p.board + 1;
        let opp = opponent(b, seat);
        let before_kings = self.kings_summary();
        let needs_before = self.king_needs();
        let number = self.commit(actor, now, command, action)?;
        let mut text = format!("{} on board {board_no}: {shown}", self.users[seat]);
        let after = self.kings_summary();
        if after != before_kings {
            text.push_str(&format!("\nkings: {after}"));
        }
        text.push_str(&self.winner_line());
        let mut notify = Notify::default();
        if !self.finished() && self.is_free(opp, now) {
            notify = Notify::to(
                [self.users[opp].clone()],
                format!("your move on {}", self.board_label(opp)),
            );
        }
        Ok(Accepted {
            number,
            text,
            notify: notify.and(self.new_king_needs(&needs_before)).nonempty(),
        })
    }

    /// Gives a held king to a teammate (§1.5).
    ///
    /// # Errors
    /// No such king held, not a teammate, or the game is over.
    pub fn give(
        &mut self,
        seat: usize,
        to_user: &str,
        colour: Option<&str>,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        self.check_playing()?;
        let Some(to) = self.seat_of(to_user) else {
            return refuse(format!("{to_user} is not seated in this game"));
        };
        if to == seat || team_of(to) != team_of(seat) {
            return refuse("kings are given to a teammate (another player of your team)");
        }
        let held: Vec<u8> = held_kings(&self.state, &self.state.catalog, seat);
        if held.is_empty() {
            return refuse("you hold no king to give");
        }
        let c = match colour {
            Some(name) => {
                let Some(c) = COLOUR_NAMES
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(name))
                else {
                    return refuse("colour must be red, lightgreen or blue");
                };
                let c = c as u8;
                if !held.contains(&c) {
                    return refuse(format!("you hold no {name} king"));
                }
                c
            }
            None => {
                let mut d = held.clone();
                d.sort_unstable();
                d.dedup();
                if d.len() > 1 {
                    let names: Vec<&str> = d.iter().map(|&c| COLOUR_NAMES[c as usize]).collect();
                    return refuse(format!(
                        "you hold kings of several colours ({}); say which with color:",
                        names.join(", ")
                    ));
                }
                d[0]
            }
        };
        let actor = self.users[seat].clone();
        let needs_before = self.king_needs();
        let number = self.commit(
            &actor,
            now,
            command,
            Action::Give {
                from: seat,
                to,
                colour: c,
            },
        )?;
        let mut text = format!(
            "{} gives the {} king to {}",
            self.users[seat], COLOUR_NAMES[c as usize], self.users[to]
        );
        text.push_str(&self.winner_line());
        Ok(Accepted {
            number,
            text,
            notify: self.new_king_needs(&needs_before).nonempty(),
        })
    }

    /// Claims inactivity against the board opponent (§1.7).
    ///
    /// # Errors
    /// The counter is below the limit, or there is no king to capture.
    pub fn claim(
        &mut self,
        seat: usize,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        self.check_playing()?;
        let Some(boards) = &self.state.boards else {
            return refuse("the game has not started yet");
        };
        let p = &self.state.players[seat];
        let b = &boards[p.board];
        let inactive = opponent(b, seat);
        let q = &self.state.players[inactive];
        if let Some(since) = self.away.paused_at(now) {
            return refuse(format!(
                "the game is paused since {}: no inactivity claim until a player moves or the organiser resumes it",
                crate::time::stamp(since, crate::time::Style::Full)
            ));
        }
        if let Some(back) = self.away.until(&q.user, now) {
            return refuse(format!(
                "{} is away on vacation until {}: no inactivity claim against them until then",
                q.user,
                crate::time::stamp(back, crate::time::Style::Full)
            ));
        }
        if q.counter < self.settings.inactivity_posts {
            return refuse(format!(
                "{} has {} of {} posts without moving; you may claim at {}",
                q.user, q.counter, self.settings.inactivity_posts, self.settings.inactivity_posts
            ));
        }
        if b.pos.royal_count(q.side) == 0 {
            return refuse(format!(
                "{} has no king on board {} to capture",
                q.user,
                p.board + 1
            ));
        }
        let actor = self.users[seat].clone();
        let needs_before = self.king_needs();
        let number = self.commit(
            &actor,
            now,
            command,
            Action::Claim {
                claimant: seat,
                inactive,
            },
        )?;
        let mut text = format!(
            "{} claims inactivity: {}'s king on board {} is captured",
            self.users[seat],
            self.users[inactive],
            self.state.players[seat].board + 1
        );
        text.push_str(&format!("\nkings: {}", self.kings_summary()));
        text.push_str(&self.winner_line());
        Ok(Accepted {
            number,
            text,
            notify: self.new_king_needs(&needs_before).nonempty(),
        })
    }

    /// A chat line by a seated player (a post for inactivity).
    pub fn chat(&mut self, seat: usize, now: Timestamp) {
        if self.state.boards.is_none() || self.finished() {
            return;
        }
        let actor = self.users[seat].clone();
        // Chat cannot fail to apply.
        let _ = self.commit(&actor, now, "", Action::Chat { player: seat });
    }

    /// Resigns for the player's team.
    ///
    /// # Errors
    /// The game is over or not started.
    pub fn resign(
        &mut self,
        seat: usize,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        self.check_playing()?;
        let actor = self.users[seat].clone();
        let number = self.commit(&actor, now, command, Action::Resign { player: seat })?;
        Ok(Accepted {
            number,
            text: format!(
                "{} resigns for {}; {} wins",
                self.users[seat],
                team_name(team_of(seat)),
                team_name(1 - team_of(seat))
            ),
            notify: None,
        })
    }

    /// Grants or revokes a proxy (organiser).
    ///
    /// # Errors
    /// Users not seated, or not teammates.
    pub fn proxy(
        &mut self,
        actor: &str,
        grant: bool,
        proxy_user: &str,
        for_user: &str,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        let (Some(proxy), Some(for_player)) = (self.seat_of(proxy_user), self.seat_of(for_user))
        else {
            return refuse("both players must be seated in this game");
        };
        if proxy == for_player || team_of(proxy) != team_of(for_player) {
            return refuse("a proxy acts for a teammate");
        }
        let exists = self.state.proxies.contains(&(proxy, for_player));
        if grant == exists {
            return refuse(if grant {
                "that grant already exists"
            } else {
                "there is no such grant to revoke"
            });
        }
        let number = self.commit(
            actor,
            now,
            command,
            Action::Proxy {
                grant,
                proxy,
                for_player,
            },
        )?;
        Ok(Accepted {
            number,
            text: if grant {
                format!("{proxy_user} may now act for {for_user} (add board:<n> to /move)")
            } else {
                format!("{proxy_user} may no longer act for {for_user}")
            },
            // The proxy is to act for the player from now on.
            notify: (grant && !self.finished()).then(|| {
                let what = match &self.state.boards {
                    Some(_) => {
                        let board = self.state.players[for_player].board + 1;
                        format!("you may now act for {for_user} on board {board}: /move board:{board} …")
                    }
                    None => format!("you may act for {for_user} once the game starts"),
                };
                Notify::to([proxy_user.to_string()], what)
            }),
        })
    }

    /// Players whose lock expires in `(after, until]` and who can then move.
    pub fn lock_expiries(&self, after: Timestamp, until: Timestamp) -> Vec<(usize, Timestamp)> {
        let st = &self.state;
        if st.boards.is_none() || st.winner.is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (seat, p) in st.players.iter().enumerate() {
            let Some(last) = p.last_move else { continue };
            if p.opponent_moved {
                continue;
            }
            let e = self.away.paused_deadline(last, self.settings.move_limit);
            if e > after && e <= until && !frozen_for(st, &self.state.catalog, seat) {
                out.push((seat, e));
            }
        }
        out.sort_by_key(|&(s, e)| (e, s));
        out
    }

    /// A text summary of held kings per team.
    pub fn kings_summary(&self) -> String {
        let mut parts = Vec::new();
        for (seat, p) in self.state.players.iter().enumerate() {
            let held = held_kings(&self.state, &self.state.catalog, seat);
            if !held.is_empty() {
                let names: Vec<&str> = held.iter().map(|&c| COLOUR_NAMES[c as usize]).collect();
                parts.push(format!("{} holds {}", p.user, names.join(", ")));
            }
        }
        if parts.is_empty() {
            "none held".into()
        } else {
            parts.join("; ")
        }
    }

    /// The catalogue of pieces.
    pub fn catalog(&self) -> &Catalog {
        &self.state.catalog
    }

    // ----- the fold ------------------------------------------------------------------

    fn apply_to(
        st: &mut State,
        settings: &Settings,
        away: &crate::layer::clock::Away,
        action: &Action,
        now: Timestamp,
    ) -> Result<(), Refusal> {
        let catalog = &st.catalog.clone();
        match action {
            Action::Substitute(h) => {
                if let Some(p) = st.players.get_mut(h.seat) {
                    p.user.clone_from(&h.to);
                    // The incoming player starts afresh: no posts count against them yet.
                    p.counter = 0;
                }
            }
            Action::Pick(outcome) => {
                st.draft.apply(outcome);
                if let Some(seating) = st.draft.seating() {
                    seat_boards(st, catalog, &seating)?;
                }
            }
            Action::Move {
                player,
                notation: text,
                army,
            } => {
                let seat = *player;
                count_posts(st, settings, away, seat, now);
                let army_id = army.as_deref().and_then(|a| catalog.army_by_code(a));
                let (board, side) = (st.players[seat].board, st.players[seat].side);
                let boards = st
                    .boards
                    .as_mut()
                    .ok_or_else(|| Refusal::Rule("not started".into()))?;
                let b = &mut boards[board];
                b.pos.set_turn(side);
                let mv = notation::resolve(&mut b.pos, text, army_id)?;
                let rec = b.pos.play_recorded(mv);
                b.locked_pieces[side.index()].push(rec.piece_id);
                if let Some((_, id)) = rec.corner {
                    b.locked_pieces[side.index()].push(id);
                }
                b.locked_pieces[1 - side.index()].clear();
                if seat == b.first {
                    b.first_moved = true;
                }
                b.last = mv.to().map(|t| (mv.from(), t));
                let opp = opponent(b, seat);
                let mut routed = Vec::new();
                for (_, piece, _) in &rec.captures {
                    let def = catalog.def(piece.kind);
                    let owner = if piece.side == side { seat } else { opp };
                    let colour = st.players[owner].colour.unwrap_or(0);
                    let (kind, promoted_back) = if piece.promoted && settings.promoted_to_pawn {
                        (catalog.pawn().unwrap_or(piece.kind), true)
                    } else {
                        (piece.kind, false)
                    };
                    let hp = HandPiece {
                        kind,
                        colour: Colour(colour),
                        army: piece.army,
                        promoted: piece.promoted && !promoted_back,
                    };
                    let to = if def.royal {
                        seat
                    } else {
                        (0..6)
                            .find(|&s| {
                                team_of(s) == team_of(seat) && st.players[s].colour == Some(colour)
                            })
                            .unwrap_or(seat)
                    };
                    routed.push((to, hp));
                }
                for (to, hp) in routed {
                    add_to_hand(st, to, hp);
                }
                let p = &mut st.players[seat];
                p.last_move = Some(now);
                p.opponent_moved = false;
                p.counter = 0;
                st.players[opp].opponent_moved = true;
                check_victory(st, catalog);
            }
            Action::Give { from, to, colour } => {
                count_posts(st, settings, away, *from, now);
                let king = catalog
                    .king()
                    .ok_or_else(|| Refusal::Rule("no king type".into()))?;
                let hp = held_king_piece(st, *from, king, *colour)
                    .ok_or_else(|| Refusal::Rule("the king is no longer held".into()))?;
                remove_from_hand(st, *from, hp);
                add_to_hand(st, *to, hp);
                check_victory(st, catalog);
            }
            Action::Claim { claimant, inactive } => {
                let king = catalog
                    .king()
                    .ok_or_else(|| Refusal::Rule("no king type".into()))?;
                let (board, side) = (st.players[*inactive].board, st.players[*inactive].side);
                let colour = st.players[*inactive].colour.unwrap_or(0);
                let boards = st
                    .boards
                    .as_mut()
                    .ok_or_else(|| Refusal::Rule("not started".into()))?;
                let pos = &mut boards[board].pos;
                let squares: Vec<_> = pos.royal_squares(side);
                let mut taken = Vec::new();
                for sq in squares {
                    if let Some(p) = pos.piece_at(sq) {
                        pos.put(sq, None);
                        taken.push(HandPiece {
                            kind: king,
                            colour: Colour(colour),
                            army: p.army,
                            promoted: false,
                        });
                    }
                }
                for hp in taken {
                    add_to_hand(st, *claimant, hp);
                }
                check_victory(st, catalog);
            }
            Action::Chat { player } => count_posts(st, settings, away, *player, now),
            Action::Resign { player } => {
                st.winner = Some((
                    1 - team_of(*player),
                    format!("{} resigned", st.players[*player].user),
                ));
            }
            Action::Proxy {
                grant,
                proxy,
                for_player,
            } => {
                if *grant {
                    st.proxies.push((*proxy, *for_player));
                } else {
                    st.proxies.retain(|g| *g != (*proxy, *for_player));
                }
            }
            Action::Takeback { .. } | Action::Revert { .. } => {}
        }
        Ok(())
    }
}

/// An army as a player calls it: `FIDE`, `Clobberers`, `Nutty`, `Rookies`, `Forward`.
fn army_label(code: &str) -> String {
    if code == "fide" {
        return "FIDE".to_string();
    }
    let mut c = code.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn opponent(b: &BoardState, seat: usize) -> usize {
    if b.first == seat {
        b.second
    } else {
        b.first
    }
}

/// The legal moves of `side` on a board minus those of pieces locked by the same-piece rule.
fn allowed_moves(pos: &mut Position, b: &BoardState, side: Side) -> Vec<Move> {
    let locked = &b.locked_pieces[side.index()];
    pos.legal_moves()
        .into_iter()
        .filter(|m| match *m {
            Move::Castle {
                king_from,
                corner_from,
                ..
            } => {
                !locked.contains(&pos.piece_id(king_from))
                    && !locked.contains(&pos.piece_id(corner_from))
            }
            _ => m.from().is_none_or(|f| !locked.contains(&pos.piece_id(f))),
        })
        .collect()
}

/// Until when `seat` is locked at `now`: the Kung Fu lock does not run while the game is
/// paused (a player's vacation does not stop it).
fn locked_until(
    st: &State,
    settings: &Settings,
    away: &crate::layer::clock::Away,
    seat: usize,
    now: Timestamp,
) -> Option<Timestamp> {
    let p = st.players.get(seat)?;
    let last = p.last_move?;
    if p.opponent_moved {
        return None;
    }
    let until = away.paused_deadline(last, settings.move_limit);
    (now < until).then_some(until)
}

fn frozen_for(st: &State, catalog: &Catalog, seat: usize) -> bool {
    let Some(boards) = &st.boards else {
        return true;
    };
    let p = &st.players[seat];
    let pos = &boards[p.board].pos;
    let opp = Side(1 - p.side.0);
    if pos.royal_count(opp) == 0 {
        return true;
    }
    if pos.royal_count(p.side) == 0 {
        let colour = p.colour.unwrap_or(0);
        return !held_kings(st, catalog, seat).contains(&colour);
    }
    false
}

fn is_free(
    st: &State,
    settings: &Settings,
    away: &crate::layer::clock::Away,
    seat: usize,
    now: Timestamp,
) -> bool {
    let Some(boards) = &st.boards else {
        return false;
    };
    if st.winner.is_some() {
        return false;
    }
    let p = &st.players[seat];
    let b = &boards[p.board];
    if seat == b.second && !b.first_moved {
        return false;
    }
    locked_until(st, settings, away, seat, now).is_none()
        && !frozen_for(st, &b.pos.rules().catalog, seat)
}

/// A post counts against every other player free to move, but not one away on vacation
/// (shared rules 7.5: no inactivity claim against an away player).
fn count_posts(
    st: &mut State,
    settings: &Settings,
    away: &crate::layer::clock::Away,
    poster: usize,
    now: Timestamp,
) {
    let free: Vec<usize> = (0..6)
        .filter(|&s| s != poster && is_free(st, settings, away, s, now))
        .filter(|&s| !away.away_after_start(&st.players[s].user, now))
        .collect();
    for s in free {
        st.players[s].counter += 1;
    }
}

fn hand_of(st: &State, seat: usize) -> Option<&crate::engine::Hand> {
    let p = &st.players[seat];
    st.boards.as_ref().map(|b| b[p.board].pos.hand(p.side))
}

fn held_kings(st: &State, catalog: &Catalog, seat: usize) -> Vec<u8> {
    let Some(h) = hand_of(st, seat) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (hp, n) in h.entries() {
        if catalog.def(hp.kind).royal {
            for _ in 0..*n {
                out.push(hp.colour.0);
            }
        }
    }
    out
}

fn held_king_piece(
    st: &State,
    seat: usize,
    king: crate::engine::Kind,
    colour: u8,
) -> Option<HandPiece> {
    hand_of(st, seat)?
        .entries()
        .iter()
        .find(|(hp, _)| hp.kind == king && hp.colour.0 == colour)
        .map(|(hp, _)| *hp)
}

fn add_to_hand(st: &mut State, seat: usize, hp: HandPiece) {
    let (board, side) = (st.players[seat].board, st.players[seat].side);
    if let Some(boards) = st.boards.as_mut() {
        boards[board].pos.hand_mut(side).add(hp);
    }
}

fn remove_from_hand(st: &mut State, seat: usize, hp: HandPiece) {
    let (board, side) = (st.players[seat].board, st.players[seat].side);
    if let Some(boards) = st.boards.as_mut() {
        boards[board].pos.hand_mut(side).remove(hp);
    }
}

fn check_victory(st: &mut State, catalog: &Catalog) {
    if st.winner.is_some() {
        return;
    }
    let Some(boards) = &st.boards else { return };
    let mut kings = [0usize; 2];
    for b in boards {
        for (_, p) in b.pos.pieces() {
            if catalog.def(p.kind).royal {
                let seat = if p.side == Side(0) { b.first } else { b.second };
                kings[team_of(seat)] += 1;
            }
        }
    }
    for seat in 0..6 {
        kings[team_of(seat)] += held_kings(st, catalog, seat).len();
    }
    if let Some(t) = kings.iter().position(|&k| k == 6) {
        st.winner = Some((t, "all six kings are on its side".into()));
    }
}

/// The rules of a board between two armies (named by them), built once per pair of armies and
/// shared by every board of every game: they are the same for all, and built per board they
/// (each with its own copy of the catalogue and move tables) were most of a loaded game's
/// memory (issue 22).
fn board_rules(
    catalog: &Arc<Catalog>,
    name: String,
    a1: ArmyId,
    a2: ArmyId,
) -> Result<Arc<Rules>, Refusal> {
    type Cache = std::sync::Mutex<std::collections::HashMap<String, Arc<Rules>>>;
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    let lock = || {
        cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    if let Some(r) = lock().get(&name) {
        return Ok(r.clone());
    }
    let rules = Rules::new(
        name.clone(),
        (**catalog).clone(),
        Geometry::chess(),
        vec![a1, a2],
        RuleSet::KingCapture,
        true,
        DropRules::KFB,
        CaptureFate::LeaveBoard,
    )
    .map_err(|e| Refusal::Rule(e.to_string()))?;
    let rules = Arc::new(rules);
    lock().insert(name, rules.clone());
    Ok(rules)
}

fn seat_boards(st: &mut State, catalog: &Arc<Catalog>, seating: &Seating) -> Result<(), Refusal> {
    let mut boards = Vec::new();
    for (i, seat) in seating.boards.iter().enumerate() {
        let (first, second) = (seat.first, seat.second);
        let choice = |s: usize| {
            st.draft
                .choice(s)
                .ok_or_else(|| Refusal::Rule("draft incomplete".into()))
        };
        let (c1, c2) = (choice(first)?, choice(second)?);
        let army = |c: &Choice| {
            catalog
                .army_by_code(c.army.as_str())
                .ok_or_else(|| Refusal::Rule("unknown army".into()))
        };
        let (a1, a2) = (army(&c1)?, army(&c2)?);
        let rules = board_rules(
            catalog,
            format!("kfb-board:{}-{}", c1.army.as_str(), c2.army.as_str()),
            a1,
            a2,
        )?;
        let mut pos = fen::parse(rules.clone(), &rules.start_fen())
            .map_err(|e| Refusal::Rule(e.to_string()))?;
        pos.set_colour(Side(0), Colour(colour_number(c1.colour)));
        pos.set_colour(Side(1), Colour(colour_number(c2.colour)));
        for (seat, c, a, side) in [(first, c1, a1, Side(0)), (second, c2, a2, Side(1))] {
            let p = &mut st.players[seat];
            p.colour = Some(colour_number(c.colour));
            p.army = Some(a);
            p.order = Some(c.order);
            p.board = i;
            p.side = side;
        }
        boards.push(BoardState {
            pos,
            first,
            second,
            first_moved: false,
            locked_pieces: [Vec::new(), Vec::new()],
            last: None,
        });
    }
    st.boards = Some(boards);
    Ok(())
}

/// The colour number (index into [`COLOUR_NAMES`]) of a draft colour.
pub fn colour_number(c: super::draft::Colour) -> u8 {
    super::draft::Colour::ALL
        .iter()
        .position(|&x| x == c)
        .unwrap_or(0) as u8
}

/// Rewrites the draft's `player N` / `team N` (0-based) with the seats' users and team numbers
/// from 1.
fn humanize(text: &str, users: &[String]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let player = rest.strip_prefix("player ").and_then(|r| {
            let d = r.chars().next()?.to_digit(10)? as usize;
            users.get(d).map(|u| (u.clone(), &r[1..]))
        });
        let team = rest.strip_prefix("team ").and_then(|r| {
            let d = r.chars().next()?.to_digit(10)? as usize;
            (d < 2).then(|| (format!("team {}", d + 1), &r[1..]))
        });
        match (player, team) {
            (Some((name, r)), _) | (None, Some((name, r))) => {
                out.push_str(&name);
                rest = r;
            }
            (None, None) => {
                let c = rest.chars().next().unwrap_or(' ');
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

/// A one-line description of an action.
pub fn describe(a: &Action, users: &[String]) -> String {
    let u = |s: usize| users.get(s).cloned().unwrap_or_default();
    match a {
        Action::Pick(DraftOutcome::Picked { player, choice, .. }) => format!(
            "pick for {}: {} {} {}",
            u(*player),
            choice.order.as_str(),
            choice.colour.as_str(),
            choice.army.as_str()
        ),
        Action::Pick(DraftOutcome::HandedOver { player, reason, .. }) => {
            format!(
                "hand-over of {}'s pick ({})",
                u(*player),
                humanize(reason, users)
            )
        }
        Action::Move {
            player, notation, ..
        } => format!("{} {notation}", u(*player)),
        Action::Give { from, to, colour } => format!(
            "{} gives the {} king to {}",
            u(*from),
            COLOUR_NAMES[*colour as usize % 3],
            u(*to)
        ),
        Action::Claim { claimant, inactive } => {
            format!("{} claims inactivity of {}", u(*claimant), u(*inactive))
        }
        Action::Chat { player } => format!("chat by {}", u(*player)),
        Action::Resign { player } => format!("{} resigns", u(*player)),
        Action::Takeback { player, undone } => format!("{} takes back #{undone}", u(*player)),
        Action::Revert { to, reason } => format!("revert to before #{to} ({reason})"),
        Action::Substitute(h) => h.text(),
        Action::Proxy {
            grant,
            proxy,
            for_player,
        } => format!(
            "proxy {} {} for {}",
            if *grant { "grant" } else { "revoke" },
            u(*proxy),
            u(*for_player)
        ),
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
        let undone = self.revert_preview(by.to)?;
        let (number, line) =
            self.revert_to(&by, &undone, |to, reason| Action::Revert { to, reason })?;
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
