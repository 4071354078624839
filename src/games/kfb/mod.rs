//! Kung Fu Bughouse with Different Armies: three linked boards, six players in two teams of
//! three, five armies, drops, and "Kung Fu" timing instead of turns.
//!
//! This is the game as the bot applies it. Section numbers (`1.4`) are the ones code comments
//! cite as "KFB rules 1.4".
//!
//! # 1.0 Seats and boards
//! Each team has one red, one lightgreen and one blue player. Each board seats one player of
//! each team, of different colours: board 1 is {red, lightgreen}, board 2 {blue, red}, board 3
//! {lightgreen, blue}. On each board one player goes first (bottom side, ranks 1–2) and the
//! other second (top side).
//!
//! # 1.1 Armies
//! Five armies, each with the ordinary pawn and king; the home rank from `a` to `h`:
//!
//! | army | home rank |
//! |---|---|
//! | Fabulous FIDEs | R N B Q K B N R |
//! | Colorbound Clobberers | Be W FAD Ca K FAD W Be |
//! | Nutty Knights | CR Fb CN Co K CN Fb CR |
//! | Remarkable Rookies | R WR HD Ch K HD WR R |
//! | Forward FIDEs | CR NB BN FQ K BN NB CR |
//!
//! Pieces are Betza data ([`crate::engine::Catalog`]), never code per piece. The Cardinal
//! slides at most 4 squares diagonally (plus the knight's leap); the Rookies' rook is a full
//! rook. "Forward" is toward the opponent's home rank on that board.
//!
//! # 1.2 Capture routing
//! A captured piece keeps its colour and army and goes to the hand of the capturer's teammate
//! of that colour, who may drop it on their own board. A captured king goes to the capturer's
//! own hand. A captured promoted piece comes back as a pawn of its army (setting, on).
//!
//! # 1.3 Drops
//! `X@sq` on any empty square of the dropper's board, only pieces of the dropper's colour.
//! Pawns drop on every rank: one dropped on the last rank stays there, one on the first rank
//! steps one square at a time. With pawns of several armies in hand the drop names the army
//! (`P@g6(nutty)` or `army:nutty`). A pawn promotes only by moving onto the last rank, and
//! only to a piece of the army it came from.
//!
//! # 1.4 No check; kings are captured
//! Moving into check, leaving a king attacked and castling through attacked squares are legal.
//! Castling needs the king and that side's corner piece (whatever it is) unmoved and the squares
//! between empty; the king goes two squares, the corner piece to the square it crossed. En
//! passant only as the next move on that board.
//!
//! # 1.5 Kings and the end
//! A held king can be passed to a teammate with `/give` (not a move). A board where either side
//! has no king is frozen: nobody moves or drops there, except that the kingless side may drop a
//! king of its colour. A team wins when all six kings are on its side (on boards as its pieces,
//! or in its players' hands); after that the game takes no more actions.
//!
//! # 1.6 Kung Fu timing
//! After moving or dropping, a player may not move again until the move limit has passed
//! (default 6 hours; 6 minutes for fast play; any length) or their board opponent has moved.
//! The first move on a board belongs to the player who goes first. A piece that moved (or was
//! dropped, or castled as the rook) is locked until the board opponent moves. When a lock
//! expires and the player can really move, the bot says so once.
//!
//! # 1.7 Inactivity
//! A post is an accepted action or a chat line by a seated player in the thread. A player's
//! counter counts posts made while that player was free to move; it restarts when they move.
//! At 18 (setting) the board opponent may `/claim`: the inactive player's kings on that board
//! go to the claimant's hand as if captured. The post that frees a player, their own chat and
//! gives, and draft picks never count on their own counter.
//!
//! # 1.8 The draft
//! A seeded random player picks first; teams alternate; any player of the team on turn who has
//! not picked states first/second, colour and army. Constraints: each team one player of each
//! colour; no colour faces itself; at least three armies in the game and two per team; no army
//! faces itself; each team has a first player; each board one first and one second player. A
//! pick that breaks a constraint, or leaves the draft impossible to complete, is refused and
//! handed to the other team, which picks the replacement (`/pick for:@player`); the hand-over
//! is logged. When all six have picked, the first/second choices fix the seating.
//!
//! # 1.9 Proxies
//! An organiser may let a player act for a teammate (`/proxy`, then `board:`). Naming one's own
//! board with `board:` needs no grant.
//!
//! # 1.10 Fine points
//! - A player may drop a king of their colour on a board that is not frozen too: it is then a
//!   second king there.
//! - Action numbers count every logged action from 1 (picks and hand-overs included).
//! - The winning action and a hand-over cannot be taken back by a player; a moderator can
//!   revert them (shared rules 7.3). A revert's confirmation lasts 15 minutes inclusive and ends
//!   when any other action (a takeback, a revert, a hand-over) is logged.
//!
//! # Conditional moves
//! `/premove line:` holds pairs on the player's own board: the board opponent's move, then the
//! reply. The reply of the first line whose move is played is played at once (the opponent's
//! move lifts the Kung Fu lock), checked then against the position: a drop needs the piece in
//! hand at that moment, which the other boards may have changed. `/premove now:` plays when the
//! lock lifts, by the opponent's move or by time. The lock itself is unchanged.
//!
//! # Modules
//! - [`draft`]: the draft's constraints and seating;
//! - [`Game`]: the append-only log replayed into the state (seats, boards, hands, locks,
//!   counters, kings);
//! - [`export`]: the game as text, and back.
pub mod adapter;
pub mod commands;
pub mod draft;
pub mod export;
mod game;
pub mod picture;
pub mod view;

pub use adapter::KIND;
pub use game::{
    describe, splitmix, team_name, team_of, Accepted, Action, BoardState, Entry, Game, HandOver,
    PickOutcome, PlayerState, Refusal, Settings, State, COLOUR_NAMES,
};
