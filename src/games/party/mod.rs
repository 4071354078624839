//! Party Chess: any number of Swingers on a 20×20 board, with a suite of exotic pieces.
//!
//! This is the game as the bot applies it. Section numbers (`3.7`) are the ones code comments
//! cite as "Party rules 3.7".
//!
//! # 3.0 Board and seats
//! 20×20, files `a`–`t`, ranks 1–20; distance is Chebyshev (the larger of the file and rank
//! differences). At least two Swingers, seated 1, 2, … in Play List order at the start. The
//! Chess-Umpire is the game's organiser; the bot keeps a ledger the Umpire edits and enforces
//! no money.
//!
//! # 3.1 What every piece shares
//! A multi-square move that is not a jump is a slide: no skipping. A capture lands on a square
//! the piece could move to that holds an opposing piece, and the captured piece (with its
//! state) joins the capturer's off-board pieces. Friendly pieces are never captured. A piece
//! attacks what its capture rules could take now, whoever is to play; it defends a friendly
//! piece it would attack if that piece were an opponent's. Each Swinger has at most one King
//! and one Tornado, off-board pieces included; an excess is destroyed at once. A Cantor's aura
//! beats a piece's own rule.
//!
//! # 3.2 Pieces
//! Simple pieces are Betza data: King `K` (one step, value 0), Rook `R` (up to 10, value 9),
//! Bishop `B` (up to 10, 6), Camel `C` (jump, 5), Jester `J` (`DA` jumps, 3), HarfyBlob `H` (a
//! queen slide up to its range, 7), Bouncy!Ball `!` (5), Cantor `%` (`FA` jumps, 5). Each other
//! piece is a named rule in [`rules`]:
//! - Pawn (1): one step orthogonally any way, two (lame) if it defends a friendly piece;
//!   captures one step diagonally; promotes on `j10 j11 k10 k11` to any type but Pawn within
//!   the limits; placed only on the outer two files or ranks.
//! - CopyCat `O` (7): moves exactly 3 or 5 squares along a line; captures a piece by that
//!   piece's own capture rule from the CopyCat's square.
//! - Echo `E` (7): moves as the friendly piece its controller moved last (as that piece then
//!   was); nothing after a pass, placement, surrender or skipped turn.
//! - Qball `Q` (7): slides diagonally to the first edge square, then 1–10 squares along the
//!   reflected diagonal; a corner is a scratch (back to its owner's hand).
//! - Archer `A` (7): moves along an L of four squares, never capturing; shoots an opposing
//!   piece up to 4 squares orthogonally or 3 diagonally and stays where it is.
//! - Kamikaze `Z` (6): 1–6 squares orthogonally then 1–6 across; destroyed by its own capture.
//! - Demon `D` (2): one step inside ranks 6–14 and files `f`–`n`, two (lame) outside; after its
//!   controller's move or capture it may promote when strictly inside the box of two other
//!   friendly pieces of one type at most 10 apart (`Rc3-c9 Di8=H`).
//! - Tornado `T` (11): slides up to 2; after a capture it may slide again up to the captured
//!   piece's value, in any direction but the last one's (`Te5xf6xf7xl7`). It attacks and
//!   defends whatever a legal chain could reach.
//! - Cantor aura: any piece next to a Cantor may also move or capture 1–4 squares diagonally,
//!   jumping.
//!
//! il-Nabi and the Zombie are not pieces; commands naming them are refused.
//!
//! # 3.3 Start and the Play List
//! Each Swinger gets a King and picks five pieces of total value at most 30, all off the board.
//! The organiser names the first Swinger; the rest follow in seeded order. After every play the
//! mover goes to the bottom and every Swinger whose King is now attacked moves up above the
//! unchecked ones, keeping their order. With seven or more Swingers with pieces on the board,
//! one with none is skipped.
//!
//! # 3.5 Plays
//! Move, capture, placement (`R@c5`: onto an empty square where it attacks no opposing piece),
//! pass, and surrender (every own piece on the board, King included, goes off the board). No
//! play may end with the mover's King attacked; pass is illegal in check; surrender is always
//! legal. A King can be captured; its owner plays on without one.
//!
//! # 3.6 Time, Warmth and Rounds
//! A turn's limit is 3 days (setting); the Umpire may extend it up to 7. On expiry the bot plays
//! a pass if legal, else a surrender. A Warm seat (set by the Umpire, or by the bot when the
//! Swinger leaves the server) passes automatically unless in check, and is surrendered after two
//! whole Rounds Warm. A Round ends when every current Swinger has played since the last one.
//!
//! # 3.7 Weight
//! Posted after every play, one decimal, for every Swinger: 0 without a King on the board,
//! otherwise the values of their pieces on the board, plus each piece's Mobility, plus 5 for
//! each piece attacking an opposing piece and 4 for each defending a friendly one. Mobility
//! over a piece's non-capturing moves: none → 0; when the least distance is over 1 and the
//! spread at most 2 → half their number; otherwise the greatest distance.
//!
//! # 3.8 Position text
//! Pieces are written `{<letter><seat>}` (`{R3}`), a HarfyBlob with its range (`{H2:4}`; a bare
//! `H` reads as range 1); the board is followed by each seat's off-board pieces
//! (`[1:RRP 2:{H:3}T]`), the Play List, and each seat's Echo source (what its Echo would move
//! as, which depends on the seat's last play). [`text`] gives the fields in full.
//!
//! # 3.8a Fine points
//! - A placement's attacks are judged with the piece on its square.
//! - Mobility's distances are Chebyshev distances from the piece to each distinct destination
//!   of its non-capturing plays (a Qball's landing square, not its path).
//! - A capture written the same way by the piece's own rule and by a Cantor-lent move is the
//!   own-rule one (an Archer next to a Cantor shoots and stays).
//! - Weights are posted on one line naming each Swinger: `Weights: ann 39.5, ben 3.0`.
//! - A game started from a position text takes exactly as many Swingers as the text has seats;
//!   seat n is the n-th one named.
//!
//! # 3.9 Commands
//! `/party new swingers:@a @b …` (organiser; options `umpire:`, `first:`, `turn_limit:` (3d),
//! `seed:`, `echo:rules|vector`, `position:`); `/party pieces set:<letters>` before the start;
//! `/pieces`; `/move` for moves, captures, promotions and placements (`R@c5`); `/pass`;
//! `/surrender`; and the shared `/moves`, `/status`, `/takeback`, `/export`. The Chess-Umpire
//! has `/party extend`, `/party warm`, `/party swinger add|remove`, `/party create` (a bought
//! piece, off the board), `/party end` and `/ledger`; a moderator has `/revert` (shared rules
//! 7.3).
//!
//! # 3.10 The end
//! Party Chess has no end rule of its own: the Umpire ends the game with `/party end`, a
//! numbered action that can be reverted, which records the final Weights as its result.
//!
//! # Conditional moves
//! A line names a play (or `*`) for each Swinger above the player on the Play List, then the
//! reply, checked when the player's turn begins. Conditions are matched by the Swinger who
//! actually played, so a check that reorders the list does not break a line; a play by a
//! Swinger the line did not name (one moved up by a check) does. Default plays count as plays.
//!
//! # Modules
//! - [`piece`]: the types, letters, values, limits, and the simple pieces' Betza data;
//! - [`board`]: squares and the position (board, off-board pieces, Play List, Echo sources);
//! - [`text`]: the position text, read and written;
//! - [`rules`]: each piece's rule as a named function, attacks, checks and legal plays;
//! - [`notation`]: plays as players write them;
//! - [`weight`]: Mobility and Weights (3.7).
pub mod adapter;
pub mod board;
pub mod commands;
pub mod export;
mod game;
pub mod notation;
pub mod picture;
pub mod piece;
pub mod rules;
pub mod text;
pub mod weight;

pub use adapter::KIND;
pub use board::{Position, Sq};
pub use game::{
    parse_pick, seating, Accepted, Action, Entry, Expiry, Game, How, LastPlay, NewGame, Refusal,
    Request, Settings, State, DEFAULT_LIMIT, MAX_EXTENSION,
};
pub use piece::{EchoRule, Kind, Piece, Src};
pub use rules::{legal_plays, Mv, Play};
pub use text::{Field, TextError};
