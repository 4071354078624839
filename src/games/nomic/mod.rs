//! Nomic Chess: half-boards pushed together, armies changing hands, and a ruleset the players
//! vote on.
//!
//! This is the game as the bot applies it: it enforces the starting ruleset (rules 100–217 of
//! [`rules`]) and records the rest. Section numbers (`6.5`) are the ones code comments cite as
//! "Nomic rules 6.5".
//!
//! # 6.1 Equipment
//! Each player owns a half-board of 8 files by 4 ranks, named A, B, … in the order of
//! `players:`, its rank 1 the owner's home edge, and one army (numbered 1, 2, … likewise) set
//! up as in chess on ranks 1–2. An army's home half is its first player's.
//!
//! # 6.2 Pushes
//! Before every move the mover pushes two halves together: the rank-4 edges meet, the top half
//! turned round, giving the joined board J (with two players, ordinary chess). `bottom:` only
//! fixes the coordinates the move is written in. After the move the halves part and every piece
//! stays where it stands.
//!
//! # 6.3 Moves on J
//! Chess moves written in J's coordinates (the echo adds the local squares). A pawn on its
//! home half moves toward local rank 4, elsewhere toward that half's rank 1, where it promotes.
//! Double step only from home rank 2, en passant only as the next move, castling only with king
//! and rook unmoved at home. Armies with the same controller never check or capture each other.
//!
//! # 6.4 The move budget
//! The halves holding the army's pieces when its turn begins are its budget. Each half takes
//! part in one move a turn; a move leaves from a budget half not yet used. The first move is
//! compulsory if any exists, further ones optional (`/done`). A push after which no move could
//! be made is refused; part 1 ends by itself when none is left.
//!
//! # 6.5 Check and mate
//! A move may not leave, on J, a king of an army the mover controls attacked by another
//! controller's army. Right after a push, every other controller's king attacked on J is mated
//! at once; if the mover's own king is attacked the move must end that, or the army is mated.
//! After a move, an enemy king on J attacked with no answer on J is mated.
//!
//! # 6.6 Control
//! A mated army passes to the player whose pieces attack its king (most attackers; a tie waits
//! for a Referee's `/assign`). An entitled mover chooses in part 2 to Take or Decline (Take when
//! the part times out). Kings are never captured; the army keeps its place in the Order.
//!
//! # 6.7 Order, living and winning
//! The Order of armies is fixed at the start (seeded unless set). Each army's turn is played by
//! its controller; a player controlling no army is undead and may propose a rule-change after
//! the last army's turn. When exactly one player is living, that player wins.
//!
//! # 6.8 Turn parts and time
//! Part 1 moves, part 2 takes control, part 3 proposes one rule-change and has it voted on;
//! parts 2 and 3 are optional. Part 1 and the submission of part 3 have a limit each, the vote
//! its own (5 minutes each, or 24 hours with `pace:async`); a limit falls due at exactly its
//! length and an overrun ends the whole turn.
//!
//! # 6.9 Proposals and votes
//! A rule-change enacts, repeals or amends one mutable rule, in at most 600 characters. Every
//! player has one vote; a proposal is adopted if more than half of the votes cast are for it. An
//! adopted change takes effect at the close: a change to a rule the bot enforces (a time limit)
//! at once, one it cannot enforce by the Referees, who are told. A defeated author demotes one
//! non-king piece of an army they control (Q→R→B→N→P→removed).
//!
//! # 6.10 Referees, Judgments and the position text
//! Referees are the game's moderators (`/revert` included); the organiser may add or remove
//! them (at least one stays). `/judgment` opens a question; a Referee may pause play and
//! records the Judgment, which the non-partisan players may overrule unanimously; then another
//! Referee judges, and when every Referee has judged it, the organiser. Referees may edit the
//! position, controllers, the Order, clocks and settings; each edit is a numbered, revertible
//! action shown as it was typed (`/edit remove square:A:a1`).
//!
//! The position text gives one placement per half-board in local coordinates, rank 4 first,
//! pieces written `{<letter><army>}` (`{K2}`), then the controllers, the Order, the moved flags
//! and the turn state (army, part, S, the halves involved, the push standing).
//!
//! # 6.10a Fine points
//! - Halves and army numbers follow the order of `players:`; `order:` sets only the Order.
//! - A push after which the army could make no move under 6.4 is refused. A push that shows the
//!   mover's own king attacked with no move to end it is accepted: that army is mated and
//!   passes (6.6), and its turn ends.
//! - `/done` ends the current part. Part 2 is skipped when nothing is offered and lasts until
//!   every offer is answered. `/propose` only in part 3 or an undead player's slot.
//! - Armies are named by number (`/take army:3`, `/assign army:3 to:@p`); armies whose control
//!   is pending, and a forfeited player's armies until assigned, are skipped in the Order.
//! - Proposals and Judgments are numbered per game from 1.
//! - Referees have every moderator power in their game's thread, `/revert` included (shared
//!   rules 7.3).
//!
//! # 6.11 Commands
//! `/nomic new players:@a @b …` (organiser; options `referees:`, `order:`, `pace:live|async`,
//! `part1_limit:`, `part3_limit:`, `vote_limit:`, `proposal_max:`, `seed:`, `position:`);
//! `/nomic referee add|remove` (organiser). Players: `/push bottom:<half> top:<half>`, then
//! `/move`; `/done`; `/take` and `/decline`; `/propose`; `/vote` (or its buttons); `/demote`;
//! `/forfeit`; `/judgment`; `/overrule`; `/rules`; and the shared `/moves`, `/status`,
//! `/takeback` and `/export`. Referees: `/pause`, `/resume`, `/judge`, `/assign`, `/edit …`,
//! `/order`, `/set`, `/proposal void|fix` and `/revert`.
//!
//! # No conditional moves
//! `/premove` is refused: a turn is pushes, votes and army moves, not one play that a reply
//! could answer.
//!
//! # Modules
//! - [`position`]: half-boards, the joined board J, FIDE moves on J, check, the move budget;
//! - `text`: the position text (one FEN per half, then controllers, Order, turn state);
//! - [`rules`]: the numbered ruleset (the seed's rules 100–217 to start with);
//! - [`Game`]: the append-only log of actions replayed into the state at a moment;
//! - [`export`]: the game as text, and back.
pub mod adapter;
pub mod commands;
pub mod export;
mod game;
pub mod picture;
pub mod position;
pub mod rules;
mod text;

pub use adapter::KIND;
pub use game::{
    change_of, describe, drawn_order, limit_text, limits_of, limits_run_out, parse_piece, Accepted,
    Action, Change, Demotion, Edit, Entry, Game, Judgment, LastMove, NewGame, Proposal, Refusal,
    Settings, Standing, State, TimeEvent, ASYNC, LIVE, MAX_SEED, NO_LIMIT,
};
pub use position::{half_letter, Join, Kind, Local, Piece, Position, Slot};
pub use text::{Field, TextError};
