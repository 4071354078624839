//! Ultimate Chess: four players on a cross-shaped board, each against the other three.
//!
//! This is the game as the bot applies it. Section numbers (`4.4`) are the ones code comments
//! cite as "Ultimate rules 4.4".
//!
//! # 4.0 Board
//! A 16×16 square less its four 2×2 corners: 240 squares, files `a`–`p`, ranks 1–16. The cut
//! corners (`a1 b1 a2 b2` and the like) are off the board for every slide and leap. Each side's
//! 12×2 staging field is made of ordinary squares. A square is dark when its file number
//! (`a` = 1) plus its rank is odd.
//!
//! # 4.1 Seats
//! Silver (south, moving up the ranks), Red (west, moving up the files), Black (north), Green
//! (east); they play in that order. Seats are named at creation or drawn from the seed (the
//! same seed and players give the same seats). Each has 24 pieces: from its left, Mage,
//! Warrior, Rook, Knight, Bishop, Queen and King (each queen on her own colour), Bishop, Knight,
//! Rook, Warrior, Mage, and twelve pawns in front.
//!
//! # 4.2 Pieces
//! King, Queen, Rook, Bishop and Knight as in chess. Warrior `W`: one step orthogonally, or a
//! jump of two orthogonally or diagonally. Mage `M`: one step diagonally or a (3,1) leap. Pawn:
//! one step forward, or two or three on its first move over empty squares; captures one step
//! diagonally forward; no en passant; promotes on the far row to Q, R, B, N, W or M. A pawn at
//! the end of a short file does not promote (setting `promote_at_file_end`, off).
//!
//! # 4.3 Castling
//! King and rook unmoved, the squares between empty, the King not in check and crossing and
//! landing only on squares no opponent attacks; the King moves two squares toward the rook, the
//! rook to the square crossed. `0-0` is toward the rook three squares away.
//!
//! # 4.4 Check and defeat
//! A King is in check when a piece of another player still in the game attacks it; no move may
//! leave the mover's own King attacked. Checkmate is judged when a player's turn begins; the
//! victor is the first player after the mated one, in turn order, with a piece attacking that
//! King. A move that exposes another player's King to a third player lets that player capture
//! it: the owner is defeated, the capturer the victor. Defeated players are skipped; the game
//! ends when three are defeated or on a draw.
//!
//! # 4.5 Modes
//! Standard: a defeated player's pieces leave the board. Conquest: they stay as neutral
//! obstacles anyone may capture and that give no check. Devastation: the defeated King leaves
//! and the victor controls the rest, moving exactly one piece a turn, own or taken over (taken
//! pieces keep their forward direction, lose castling rights, and check for the victor).
//!
//! # 4.6 Draws
//! Among the players still in: stalemate (setting: draw, or pass until a move exists; if every
//! player would pass, a draw), insufficient material (only bare Kings, or two Kings and one
//! minor piece, with no obstacles), threefold repetition of the position at a turn's start
//! (controllers included), 50 moves by every player since a capture or pawn move (a stalemate
//! pass counts), and a draw all players still in accept. One draw offer at a time; it stands
//! until declined or its offerer moves. `/concede [to:@x]`: the named player is the victor,
//! otherwise the pieces leave as in Standard; a concession by the player to move passes the
//! turn.
//!
//! # 4.7 Time and fine points
//! No clock by default; `move_limit` makes the bot announce an overrun, after which the
//! organiser may concede for that player. `+` marks only the mover's own check; a King exposed
//! to a third player shows on an "in check" line. A game may start from a position text; its
//! counters start there.
//!
//! # 4.8 Position text
//! Pieces are written `{<letter><seat>}` with seats 1–4 for Silver, Red, Black and Green
//! (`{K1}`, `{W3}`), cut squares as `*`; the board is followed by the seat to move, each seat's
//! castling rights, the defeated seats, the mode and the controllers (`3>1,4>1`: seats 3 and 4
//! played by seat 1; `-` when none, and only Devastation has any). A pawn on its owner's second
//! row counts as unmoved, so the text needs no moved flags (read by [`Position::from_text`]).
//!
//! # 4.8a Fine points
//! - A move that captures a King is judged after that King's owner is defeated and the mode
//!   applied, so a defeated player's pieces attack nothing.
//! - Castling needs the King's path and landing square unattacked before the move and the King
//!   unattacked after it; a right goes when the King or that rook moves or the rook is
//!   captured, and a defeated seat has none.
//! - A concession by the player to move passes the turn; anyone else's leaves it where it is.
//! - A draw offer stands until declined or until its offerer moves.
//! - One seed with one `players:` list always seats the players alike.
//! - A game begun from a position text has that position as the first entry of its log; mate
//!   and stalemate of the seat to move are judged at once, as at the start of any turn.
//!
//! # 4.9 Commands
//! `/ultimate new` (organiser) with the seats named (`silver:`, `red:`, `black:`, `green:`) or
//! `players:@a @b @c @d` seated from the seed, and the options `mode:`, `stalemate:`,
//! `promote_at_file_end:`, `move_limit:`, `seed:` and `position:`; `/move` (`e2-e5`, `Wd1-f3`,
//! `c15-c16=M`, `0-0`); `/concede [to:@x]`; `/offer draw`, `/accept`, `/decline`; the shared
//! `/moves`, `/status`, `/takeback` and `/export`. The organiser has `/ultimate concede
//! player:@x [to:@y]` after an overrun; a moderator has `/revert` (shared rules 7.3).
//!
//! # Conditional moves
//! A line names a play (or `*`) for each seat still in the game that moves before the player,
//! in turn order, then the reply; it is checked when the player's turn begins.
//!
//! # Modules
//! - [`board`]: seats, pieces (Betza data), the board and the castling table;
//! - [`Position`]: what the position text carries, legal moves, make/unmake, perft;
//! - [`notation`]: moves as players write them;
//! - [`Game`]: the append-only log of actions replayed into the state the game layer shows;
//! - [`export`]: the game as text, and back.
pub mod adapter;
pub mod board;
pub mod commands;
pub mod export;
mod game;
pub mod notation;
pub mod picture;
mod position;
mod text;

pub use adapter::KIND;
pub use board::{is_dark, parse_square, square_name, CastleSide, Kind, Piece, Seat, PROMOTIONS};
pub use game::{
    describe, shuffle_seats, Accepted, Action, Defeat, DefeatHow, DrawOffer, DrawReason, Entry,
    Game, NewGame, Outcome, Refusal, Request, Seating, Settings, Stalemate, State, MAX_SEED,
};
pub use position::{Fate, Mode, Move, Position, Undo};
pub use text::{Field, TextError};
