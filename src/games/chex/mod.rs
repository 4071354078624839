//! Chex: a board that grows and shrinks, pieces drawn at random from shuffled stacks, and the
//! group of pieces in play that must never break.
//!
//! This is the game as the bot applies it. Section numbers (`5.2`) are the ones code comments
//! cite as "Chex rules 5.2".
//!
//! # 5.0 Equipment
//! White (moves first) and Black each have the sixteen chess pieces, all off the board at the
//! start in a face-down stack. The board has no fixed size.
//!
//! # 5.1 Stacks and the seed
//! Each stack is shuffled once from the game's seed; a draw takes the top piece. `/chex new`
//! shows the SHA-256 of the seed's decimal text and the seed is revealed when the game ends, so
//! anyone can check every draw. Which pieces are still off the board is public, their order is
//! not. Undoing an action never changes what is drawn, except that a revert reopening an ended
//! game reshuffles (5.5a).
//!
//! # 5.2 A turn
//! Either a draw (`/draw` reveals the top piece, then `/place square:` puts it on an empty
//! square next to any piece in play, diagonals included; echoed as a drop `N@c3`, never a
//! capture; a blind mode names the square before the reveal), or a move of one of the mover's
//! pieces after which all pieces in play form one group of neighbours (no "break"). With no
//! legal move the player must draw; with an empty stack only moves remain; there is no pass.
//! White's first piece goes on the one square of the empty board by itself.
//!
//! # 5.3 Pieces
//! K, Q, R, B, N as in chess. Pawns step one square forward (White up, Black down) onto an
//! empty square and capture one square diagonally forward; no double step, en passant,
//! promotion or castling.
//!
//! # 5.4 End
//! No check rules: a King may stand attacked (the echo adds `+` when the opponent could capture
//! it). Capturing a King wins at once; a side whose King is still in its stack cannot lose. A
//! revealed King with no safe square to be placed on (King stalemate) and a mover with an empty
//! stack and no legal move (move stalemate) draw the game, declared by the bot (setting: or
//! offered). Draws by agreement with `/offer draw`.
//!
//! # 5.5 Coordinates and labels
//! Pieces stand on absolute squares, fixed for the game (White's first piece at (0, 0)), and
//! the log stores those. The board shown is the smallest rectangle holding every piece plus a
//! one-square border, White at the bottom, so labels move as it grows and shrinks; every board
//! carries its action number (`#14`) and a command is read against the latest one (`turn:` may
//! pin it: a command for an older board is refused).
//!
//! # 5.5a Colours, labels and reseeding
//! Square colours follow the absolute squares ((0, 0) is dark), so a piece standing still keeps
//! its colour whatever the labels do. Only a move's own echo keeps the labels it was typed in;
//! everything shown after it (picture, last-move line, `/status`, `/moves`) uses the current
//! labels. A revert that reopens an ended game (whose seed was revealed), or that undoes such a
//! reshuffle, reshuffles the pieces still face down from a fresh seed drawn then, announced by
//! its hash and revealed at the next end, as at `/chex new`; the export records every seed.
//!
//! # 5.6 Limits, takeback and time
//! A play after which the shown board would exceed 26 files or ranks is refused (setting
//! `max_board`). A placement or a move can be taken back; the reveal stays, so the same piece
//! must be placed again. No clock by default; `move_limit` announces an overrun.
//!
//! # 5.9 Position text
//! `<placement> [<stacks>] <w|b> <origin> <revealed>`: the FEN placement of the shown board; the
//! pieces left in both stacks as a multiset (`[QRRBNNPPPPP qrbnnpppppp]`), their order not being
//! public (the log and the seed give it); the side to move; the absolute square of the shown
//! `a1`; the revealed piece waiting to be placed.
//!
//! # 5.10 Commands
//! `/chex new white:@a black:@b` (organiser; options `draw_mode:reveal|blind`,
//! `stalemate:declare|offer`, `max_board:` (8–26), `move_limit:`, `seed:`, `position:`; the
//! reply shows the seed's hash); `/draw` (`/draw square:` in blind mode); `/place square:
//! [turn:]`; `/move [turn:]`; `/offer draw`, `/accept`, `/decline`; `/resign`; the shared
//! `/moves`, `/status`, `/takeback` and `/export` (with the seed once revealed). The organiser
//! has `/chex resign player:@x` after an overrun; a moderator has `/revert` (shared rules 7.3).
//!
//! # No conditional moves
//! `/premove` is refused: each turn begins with a random draw, so no reply can be known
//! before it.
//!
//! # Modules
//! - [`Position`]: pieces on absolute squares, stacks, legal plays, the shown board;
//! - the position text (`Position::from_text`, `Position::to_text`);
//! - [`shuffle`]: the seeded shuffle of the stacks and the seed's hash;
//! - [`Game`]: the append-only log of actions replayed into the state (`game.rs`: its types,
//!   queries and texts; `game/actions.rs`: requests checked and logged, takeback and revert;
//!   `game/fold.rs`: how one action changes the state);
//! - [`export`]: the game as text, and back.
pub mod adapter;
pub mod commands;
pub mod export;
mod game;
pub mod picture;
mod position;
pub mod shuffle;
mod text;

pub use adapter::KIND;
pub use game::{
    describe, outcome_text, parse_turn, relabel_line, Accepted, Action, DrawMode, DrawReason,
    Entry, Game, LastMove, NewGame, Outcome, Refusal, Request, Reseed, SeedInUse, Settings,
    StalemateMode, State, WinHow, MAX_SEED,
};
pub use position::{
    connected, frame_of, full_set, Abs, Frame, Kind, Move, Piece, Position, Side, MAX_BOARD,
    MIN_BOARD,
};
pub use text::{Field, TextError};
