//! Games: the rules of each game built on the engine. Pure: time and seeds are passed in.
//!
//! Each game's module gives its rules as the bot applies them, in numbered sections: [`kfb`]
//! (1.x), [`party`] (3.x), [`ultimate`] (4.x), [`chex`] (5.x) and [`nomic`] (6.x); tournaments
//! are in [`crate::tournament`] (2.x). The rules below hold for every game; code comments cite
//! their sections as "shared rules 0.5".
//!
//! Every game is a [`table::Table`] of its rules: the table holds its settings, seats, log
//! ([`log`]), players' vacations and state, and does once what every game does alike (replay,
//! recording an action, takeback, a moderator's revert, a substitution); a game brings its
//! [`table::Fold`] and its own methods.
//!
//! # Rules every game shares
//!
//! ## 0.1 Notation
//! Long algebraic, as Kung Fu Bughouse defines it: `<piece><from>-<to>`, a capture with `x`;
//! pawns have no letter (`e2-e4`, `d4xe5`); a drop is `<piece>@<square>` (`N@f3`, `P@e4`), a
//! promotion adds `=<piece>` (`e7-e8=Q`); castling is `0-0` or `0-0-0` (`O-O` is read too). A
//! piece may have several letters (`Ca`, `FAD`): every split of the text is tried, the readings
//! that name a real piece of the mover on its square are kept, and two legal readings are
//! refused with both listed. A trailing `+`, `#`, `!` or `?` is ignored; the separator may be
//! left out where the text reads one way only (`e2e4`), a piece letter in lower case is read as
//! the piece where no file could be meant (`nb1-c3`), and a capture written with `-` is
//! accepted. The echo always gives the canonical form (a capture with `x`, and `+` where the
//! game's rules mark a check). Files past `h` follow the alphabet, ranks are numbers (`j10`,
//! `t20`).
//!
//! ## 0.2 Position text
//! FEN. A piece with more than one letter is written in braces, with an upper-case first letter
//! for the side moving up the board (`{Ca}`) and all in lower case for the other (`{ca}`); held
//! pieces follow the board in square brackets, and a promoted piece carries a `~`, both as in
//! crazyhouse FEN (`[{Ca}Pp]`, `Q~`). Games of more than two sides write a piece as
//! `{<letter><seat>}` (`{R3}`), with an optional `:<state>` (`{H2:4}`); each game's rules give
//! the fields after the board.
//!
//! ## 0.3 Refusals
//! A refused command is answered to its sender alone, saying what was wrong and what would be
//! accepted (for a move: the legal moves of that piece, or the pieces that reach that square).
//! A refusal changes nothing in the game.
//!
//! ## 0.4 Accepted actions
//! Every accepted action is stored before it is announced, carries its number (the reply shows
//! `#12`) and can be undone by a moderator (7.3).
//!
//! ## 0.5 Seeds
//! Seeds are whole numbers from 0 to 2^53 − 1 ([`MAX_SEED`]), so that a seed the bot shows can
//! always be typed back into a Discord integer option; a seed the bot draws is in that range.
//!
//! ## 0.6 Pings
//! Whoever must act next is notified in a newly created message: Discord notifies no one for a
//! mention in an edit or in the completion of a deferred reply.
//!
//! ## 7.1 The log
//! A game is an append-only log of actions; its position is what replaying the log gives.
//! Editing or deleting a Discord message changes nothing in the game.
//!
//! ## 7.2 Takeback
//! `/takeback`: a player may undo their own last action if it is the last action of the game.
//!
//! ## 7.3 Revert
//! `/revert`: a moderator (Manage Messages in the channel, or the configured moderator role)
//! rolls the game back to before a chosen action. The bot first shows what would be undone and
//! asks for a confirmation with a button, valid for 15 minutes inclusive and only until another
//! action is logged in that game. The undone actions stay in the log, marked reverted, with who
//! reverted them and why; pieces, hands, locks and timers return to what they were.
//!
//! ## 7.4 Substitutes
//! `/substitute player:@old by:@new` (the organiser, a moderator, or the game's Chess-Umpire or
//! Referees) hands a seat to someone who does not play in the game yet. The seat keeps
//! everything (pieces, hands, locks, clocks, armies, votes cast, proxies); from the next action
//! on the new user plays it, and the old one is a non-player. It is a numbered action: whoever
//! made it may take it back (as a revert of that one action when they hold no seat), a
//! moderator may revert it. A game's users are replayed from the log: the ones it began with
//! (stored with the game and in its export), then each substitution in effect.
//!
//! ## 7.5 Vacation
//! Each player has a bank of vacation days per server and year (`/settings vacation_days:`,
//! 14 by default). `/vacation until:<date or duration>` starts one at once (cut to the days
//! left), `/vacation until:` again moves its end, `/vacation off` ends it early. Whole days
//! are spent as they begin (a vacation of 25 hours spends two), in the year it began; one
//! ended in the second it began spends none. A vacation covers the player's games on the
//! server it was taken on (and games stored without a server).
//!
//! While a player is away, a limit running on them stops: its deadline moves by the time
//! away that falls before it (Party Chess's turn limit and the Umpire's extension, Nomic
//! Chess's part limits and a demotion's, Ultimate Chess's and Chex's move-limit overrun).
//! Limits running on others, a Nomic vote's, and Kung Fu Bughouse's lock are unaffected. No
//! reminders go to them, and a wait that ran through the vacation is reminded of from their
//! return. No inactivity claim is made against them, and posts made while they are away do
//! not count against them (counted from the second after the vacation began). `/status`,
//! `/mygames` and the pictures say until when they are away. A game or tournament created
//! with `vacation:off` waits for nobody: its limits run, and a player starting a vacation is
//! told which of their games will not wait.
//!
//! A vacation only ever begins at the moment it is taken and ends then or later, so a
//! deadline already passed never moves: a log replayed with the vacations as stored gives
//! the game as it was played ([`away`]).
//!
//! ## 8.1 The end of a game
//! The end of a game notifies its players once, in one new message naming the result, so that a
//! player who is not on turn learns it too.
//!
//! ## 8.2 Picture memory
//! The picture caches together stay within `ARBITER_PICTURE_CACHE_MB` megabytes (64 by
//! default): fewer games are kept drawn rather than more memory used.
pub mod chex;
pub mod export_common;
pub mod fide;
pub mod hint;
pub mod kfb;
pub mod pictures;
pub mod seeded;
pub mod text_error;

/// One rank of a position text's placement field, as FEN writes it: each piece's letters,
/// each run of empty squares as its length (`r2k3`).
pub fn fen_rank<P: std::fmt::Display>(squares: impl IntoIterator<Item = Option<P>>) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let mut empty = 0;
    for square in squares {
        match square {
            Some(p) => {
                if empty > 0 {
                    let _ = write!(s, "{empty}");
                    empty = 0;
                }
                let _ = write!(s, "{p}");
            }
            None => empty += 1,
        }
    }
    if empty > 0 {
        let _ = write!(s, "{empty}");
    }
    s
}

/// How exports and previews describe a game's logged start (Chex, Ultimate Chess): `the game
/// starts`, or `the game starts from <position text>` when it began from a position.
pub fn start_text(position: Option<&str>) -> String {
    match position {
        None => "the game starts".into(),
        Some(p) => format!("the game starts from {p}"),
    }
}

/// Declares a game's `Refusal`: `Rule(String)`, a refusal in the players' words, first; the
/// game's own variants; then `Log`, an undo the log refuses ([`log::LogError`]). Gives it
/// `From` a message (so `?` carries a helper's `String` refusal on) and the game's
/// `refuse(msg)`, an `Err` of it.
macro_rules! refusal {
    ($(#[$meta:meta])* pub enum $refusal:ident { $($own:tt)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
        pub enum $refusal {
            /// Any refusal of the rules, in the words players read.
            #[error("{0}")]
            Rule(String),
            $($own)*
            /// An undo the log refuses.
            #[error(transparent)]
            Log(#[from] $crate::layer::log::LogError),
        }

        impl From<String> for $refusal {
            fn from(why: String) -> Self {
                $refusal::Rule(why)
            }
        }

        impl From<&str> for $refusal {
            fn from(why: &str) -> Self {
                $refusal::Rule(why.to_string())
            }
        }

        fn refuse<T>(msg: impl Into<String>) -> Result<T, $refusal> {
            Err($refusal::Rule(msg.into()))
        }
    };
}
pub(crate) use refusal;

pub use crate::layer::seed::{drawn_seed, parse_seed, MAX_SEED};

pub mod nomic;
pub mod party;
pub mod ultimate;

#[cfg(test)]
mod tests {
    #[test]
    fn a_rank_counts_its_empty_squares() {
        assert_eq!(
            super::fen_rank([Some('r'), None, None, Some('k'), None]),
            "r2k1"
        );
        assert_eq!(super::fen_rank::<char>([None, None, None]), "3");
        assert_eq!(super::fen_rank([Some("{H:3}"), Some("T")]), "{H:3}T");
        assert_eq!(super::fen_rank::<char>([]), "");
    }
}
