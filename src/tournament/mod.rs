//! Tournaments: signups, teams formed with a shown seed, rounds paired with the FIDE Dutch
//! Swiss system (teams as entrants, [`crate::swiss`]), match results, two-pass elimination and
//! standings.
//!
//! Pure: the caller passes the time and the seed; storage and Discord are elsewhere. The
//! Swiss view of the event ([`Tournament::to_swiss`]) is rebuilt from the stored facts
//! (teams, boards, results) whenever it is needed, so there is one source of truth.
//!
//! The rules as the bot applies them follow. Section numbers (`2.2`) are the ones code
//! comments cite as "tournament rules 2.2".
//!
//! # 2.1 Signups and teams
//! A player signs up alone or names one or two teammates. A named trio is a team; a named pair
//! gets a random third from the players who signed up alone; the other solo players are drawn
//! into threes. One or two players left over are substitutes. At least three teams are needed,
//! more may join later. Everything random comes from one seed, shown when the teams are formed.
//!
//! # 2.2 Pairing and elimination
//! Rounds are paired by the FIDE Dutch Swiss system with teams as entrants, byes and forfeits
//! as FIDE's TRF defines them: exactly the pairing the reference engine gives. A team is
//! eliminated after its second match loss (setting: losses before elimination, 0 for a plain
//! Swiss) and is no longer paired; the event ends when one team remains, when the round limit
//! is reached, or when no pairing without a rematch exists.
//!
//! # 2.3 Scoring and standings
//! A match won scores 2, drawn 1, lost 0 (setting). Ties in the standings are broken by
//! Buchholz, then Sonneborn-Berger, then the direct encounter.
//!
//! # 2.4 Match threads
//! Each pairing is played in its own thread, which the bot opens with the match's Kung Fu
//! Bughouse draft started, from a seed one can type back (shared rules 0.5).
//!
//! # 2.5 Events of the other games
//! `game:` names the game (Kung Fu Bughouse when absent, as every event stored before it).
//! Players sign up alone; their pairing numbers are drawn from a seed shown when the first
//! round is paired (or with `/tournament teams seed:`), late entries seeded before the next
//! round. Players with a rating in the event's game are seeded first, highest first (shown
//! with it), the draw ordering the rest. The game's own options (`/tournament new draw_mode:blind …`) go to every match
//! game, tried on stand-in players when the event is created. A match game is created by
//! the organiser in its thread, seeded from the event's seed.
//! - Chex: the FIDE Dutch Swiss with players as entrants (colours by FIDE's rules; points
//!   win/draw/loss/bye, default 1/½/0/1), or `format:roundrobin`: the Berger tables, the
//!   bye for the player the table sits out, a withdrawn player's later games lost by
//!   forfeit. Results come from the games; the export is FIDE's TRF.
//!
//! # 2.6 The Swiss of tables (Ultimate, Party, Nomic)
//! Each round seats the active players at tables of `table:` (Ultimate 4; Party and Nomic
//! 3–8, default 4) by [`tables::pair_tables`], whose documentation states its rules: by
//! players ranked by score, then current rating (read afresh before every round, so equal
//! scores in later rounds rank by rating, the unrated after the rated), then pairing number;
//! tables cut for the fewest repeat table-mates, then the closest scores, the ranking
//! deciding among equal cuts, the byes, the table numbers and the seats; leftovers a
//! smaller table when the game starts with that many, else byes; seats balanced. A table
//! scores by place from its game (Ultimate: the last standing first, then the reverse order
//! of defeat; Party: the final Weights; Nomic: the winner first, the rest sharing second),
//! or as the organiser sets it (`result:1 2 2 4`, seat order). Places `n-1 … 0` by default
//! (`points:` sets them from the first; a smaller table scores its places from the top),
//! ties share the points of the places they cover, a bye scores a full table's average.
//! Standings: points, the sum of table-mates' scores, the direct encounter (how often one
//! finished ahead of the others tied), pairing number. The export is a plain table.

pub mod individual;
pub mod tables;
pub mod teams;

mod lookup;
mod rounds;
mod signups;
mod standings;

use crate::games::kfb;
use crate::games::seeded::splitmix;
use crate::swiss::{self, BoardResult, Outcome, PointSystem, SwissError};
use crate::time::{format_duration, Timestamp};

pub use individual::{EventGame, Format};
pub use teams::{Formation, Origin};

/// Who set a result that came from the match's game.
pub const BY_GAME: &str = "(game)";

/// Tournament settings.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Match losses after which a team is eliminated (0: no elimination).
    pub losses_to_eliminate: u32,
    /// Round limit (`None`: enough rounds for the elimination to finish, see
    /// [`Tournament::round_limit`]).
    pub rounds: Option<u32>,
    /// Points for a match win.
    pub win: u32,
    /// Points for a drawn match.
    pub draw: u32,
    /// Points for a lost match.
    pub loss: u32,
    /// Move limit of the match games, in seconds.
    pub move_limit: u64,
    /// Inactivity posts of the match games.
    pub inactivity_posts: u32,
    /// `vacation:off`: the match games do not wait for players on vacation.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub no_vacation: bool,
    /// The game played (absent in events stored before: Kung Fu Bughouse).
    #[serde(skip_serializing_if = "EventGame::is_kfb")]
    pub game: EventGame,
    /// Swiss or round robin.
    #[serde(skip_serializing_if = "Format::is_swiss")]
    pub format: Format,
    /// An individual event's points in tenths: win, draw, loss, bye (`None`: the whole
    /// `win`/`draw`/`loss` above, the bye worth a win).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_points: Option<[u32; 4]>,
    /// The players a table seats (table events).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<u32>,
    /// Points of each place at a table, from the first (empty: `n-1, n-2, …, 0`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub places: Vec<u32>,
    /// The game's own options (`/chex new …`), passed to every match game.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<(String, String)>,
}

impl Default for Settings {
    fn default() -> Self {
        let game = kfb::Settings::default();
        Settings {
            losses_to_eliminate: 2,
            rounds: None,
            win: 2,
            draw: 1,
            loss: 0,
            move_limit: game.move_limit,
            inactivity_posts: game.inactivity_posts,
            no_vacation: false,
            game: EventGame::Kfb,
            format: Format::Swiss,
            match_points: None,
            table: None,
            places: Vec::new(),
            options: Vec::new(),
        }
    }
}

/// A signup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signup {
    /// The player.
    pub player: String,
    /// Teammates this player named.
    pub mates: Vec<String>,
    /// Withdrawn (before teams were formed, or as a substitute).
    pub withdrawn: bool,
    /// When.
    pub time: Timestamp,
}

/// A team (a Swiss entrant; its number is its pairing number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Team {
    /// Pairing number, from 1.
    pub number: u32,
    /// Its three players.
    pub players: Vec<String>,
    /// Withdrawn: not paired again.
    pub withdrawn: bool,
    /// Rounds already paired when the team was formed (0: from the start).
    pub joined: u32,
}

/// One board of a round: a match between two teams, or the bye (`black == 0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Round, from 1.
    pub round: u32,
    /// Board, from 1.
    pub board: u32,
    /// Team listed first (team 1 of the match game; "white" for the Swiss colour rules).
    pub white: u32,
    /// Team listed second, or 0 for the pairing-allocated bye.
    pub black: u32,
    /// The match's thread, once opened.
    pub thread: Option<String>,
    /// The players seated: the first team's three, then the second's (none for the bye's
    /// second). Recorded at pairing, so later substitutions do not rewrite history; empty for
    /// boards stored before seats were recorded, which then show the teams' current players.
    pub players: Vec<String>,
}

/// A match result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchResult {
    /// The first team won.
    WhiteWins,
    /// The second team won.
    BlackWins,
    /// Drawn.
    Draw,
    /// The first team won by forfeit.
    WhiteForfeitWin,
    /// The second team won by forfeit.
    BlackForfeitWin,
    /// Neither team played.
    DoubleForfeit,
    /// A table's placings ([`ResultEntry::places`]).
    Placed,
}

impl MatchResult {
    /// Parses `1-0`, `0-1`, `draw` (`1/2`, `=`), `+-`, `-+`, `--` and their word forms.
    ///
    /// # Errors
    /// Anything else.
    pub fn parse(text: &str) -> Result<MatchResult, TournamentError> {
        Ok(match text.trim().to_lowercase().as_str() {
            "1-0" | "white" | "first" => MatchResult::WhiteWins,
            "0-1" | "black" | "second" => MatchResult::BlackWins,
            "draw" | "1/2" | "=" | "1/2-1/2" | "½-½" => MatchResult::Draw,
            "+-" | "+/-" | "first-forfeit-win" | "white-forfeit-win" => {
                MatchResult::WhiteForfeitWin
            }
            "-+" | "-/+" | "second-forfeit-win" | "black-forfeit-win" => {
                MatchResult::BlackForfeitWin
            }
            "--" | "-/-" | "double-forfeit" => MatchResult::DoubleForfeit,
            _ => return Err(refused(format!(
                "`{text}` is not a result: write 1-0 or 0-1 (the first or second team listed won), draw, +- or -+ (won by forfeit), -- (double forfeit), or auto (follow the game)"
            ))),
        })
    }

    /// The stored code.
    pub fn code(self) -> &'static str {
        match self {
            MatchResult::WhiteWins => "1-0",
            MatchResult::BlackWins => "0-1",
            MatchResult::Draw => "draw",
            MatchResult::WhiteForfeitWin => "+-",
            MatchResult::BlackForfeitWin => "-+",
            MatchResult::DoubleForfeit => "--",
            MatchResult::Placed => "places",
        }
    }

    fn swiss(self) -> BoardResult {
        match self {
            MatchResult::WhiteWins => BoardResult::WhiteWins,
            MatchResult::BlackWins => BoardResult::BlackWins,
            MatchResult::Draw => BoardResult::Draw,
            MatchResult::WhiteForfeitWin => BoardResult::WhiteForfeitWin,
            MatchResult::BlackForfeitWin => BoardResult::BlackForfeitWin,
            // A table is never a Swiss board.
            MatchResult::DoubleForfeit | MatchResult::Placed => BoardResult::DoubleForfeit,
        }
    }

    /// Whether the first (`true`) or second team lost.
    fn lost(self, first: bool) -> bool {
        match self {
            MatchResult::WhiteWins | MatchResult::WhiteForfeitWin => !first,
            MatchResult::BlackWins | MatchResult::BlackForfeitWin => first,
            MatchResult::Draw => false,
            MatchResult::DoubleForfeit => true,
            MatchResult::Placed => false,
        }
    }
}

/// A recorded result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultEntry {
    /// Round.
    pub round: u32,
    /// Board.
    pub board: u32,
    /// The result.
    pub result: MatchResult,
    /// The organiser who set it, or [`BY_GAME`].
    pub set_by: String,
    /// When.
    pub time: Timestamp,
    /// A table's places in seat order (1 first; ties share a place); empty for a match.
    pub places: Vec<u32>,
}

impl ResultEntry {
    /// The text stored for the result: its code, or `places:1,2,2,4` for a table.
    pub fn stored_code(&self) -> String {
        match self.result {
            MatchResult::Placed => format!(
                "places:{}",
                self.places
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            r => r.code().to_string(),
        }
    }

    /// Reads [`ResultEntry::stored_code`] back: the result and the places.
    ///
    /// # Errors
    /// A code that is not a result.
    pub fn from_code(code: &str) -> Result<(MatchResult, Vec<u32>), TournamentError> {
        if let Some(list) = code.strip_prefix("places:") {
            let places: Option<Vec<u32>> = list.split(',').map(|p| p.trim().parse().ok()).collect();
            return places
                .map(|p| (MatchResult::Placed, p))
                .ok_or_else(|| refused(format!("`{code}` is not a table's places")));
        }
        MatchResult::parse(code).map(|r| (r, Vec::new()))
    }
}

impl Board {
    /// Whether it is a table of several players (pairing numbers 0 and 0, seats in
    /// `players`).
    pub fn is_table(&self) -> bool {
        self.white == 0
    }

    /// Whether it is played (a match or a table, not a bye).
    pub fn is_played(&self) -> bool {
        self.black != 0 || self.white == 0
    }
}

/// Why a tournament command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    /// The command does not fit the tournament's state; the text says why.
    #[error("{0}")]
    Refused(String),
    /// The Swiss data did not build (a bug, logged).
    #[error("the pairing program failed: {0}")]
    Swiss(#[from] SwissError),
}

fn refused(text: impl Into<String>) -> TournamentError {
    TournamentError::Refused(text.into())
}

/// A tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    /// Its own thread (signups, pairings, standings).
    pub thread: String,
    /// Name.
    pub name: String,
    /// The organiser who created it.
    pub organiser: String,
    /// When it was created.
    pub created_at: Timestamp,
    /// Settings.
    pub settings: Settings,
    /// Seed of the last team formation (shown when teams are formed).
    pub seed: u64,
    /// Signups in order.
    pub signups: Vec<Signup>,
    /// Teams by number.
    pub teams: Vec<Team>,
    /// Boards of every round paired so far.
    pub boards: Vec<Board>,
    /// Results.
    pub results: Vec<ResultEntry>,
    /// The event is over.
    pub finished: bool,
    /// The players' ratings in the event's game, as the caller read them just before a
    /// seeding or a table event's pairing (never stored: the seeding and pairing they decide
    /// are). A rated player is seeded above the unrated ones (tournament rules 2.5); at
    /// equal scores a table ranks by them (2.6).
    pub ratings: std::collections::BTreeMap<String, Seed>,
}

/// A player's rating as a seeding reads it: an order (higher first) and how it is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed {
    /// The rating in tenths, to order by.
    pub tenths: i64,
    /// The rating as players read it (`1662`, `27.6`).
    pub shown: String,
}

/// A round just paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paired {
    /// The round.
    pub round: u32,
    /// Its boards (the bye last, with `black == 0`).
    pub boards: Vec<Board>,
    /// The pairing table to post.
    pub text: String,
}

/// What `/tournament pair` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairOutcome {
    /// A new round.
    Round(Paired),
    /// No round: the event is over (the text says why and who won).
    Ended(String),
}

/// A line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingRow {
    /// Place.
    pub place: u32,
    /// Team number.
    pub team: u32,
    /// Players.
    pub players: Vec<String>,
    /// Score in tenths of a point.
    pub score: u32,
    /// Buchholz in tenths.
    pub buchholz: u32,
    /// Sonneborn-Berger in hundredths.
    pub sonneborn_berger: u64,
    /// Match losses.
    pub losses: u32,
    /// `active`, `eliminated (round N)`, `withdrawn`, `champion`.
    pub status: String,
}

/// Formats tenths of a point: `4`, `4.5`.
pub fn tenths(v: u32) -> String {
    if v.is_multiple_of(10) {
        format!("{}", v / 10)
    } else {
        format!("{}.{}", v / 10, v % 10)
    }
}

impl Tournament {
    /// A new tournament in `thread`.
    pub fn new(
        thread: &str,
        name: &str,
        organiser: &str,
        settings: Settings,
        now: Timestamp,
    ) -> Tournament {
        Tournament {
            thread: thread.to_string(),
            name: name.to_string(),
            organiser: organiser.to_string(),
            created_at: now,
            settings,
            seed: 0,
            signups: Vec::new(),
            teams: Vec::new(),
            boards: Vec::new(),
            results: Vec::new(),
            finished: false,
            ratings: std::collections::BTreeMap::new(),
        }
    }
}

/// `Team 3 (a, b, c)`, or `Team 3` without players.
fn label(team: u32, players: &[String]) -> String {
    if players.is_empty() {
        format!("Team {team}")
    } else {
        format!("Team {team} ({})", players.join(", "))
    }
}

/// Formats hundredths: `12`, `12.5`, `12.25`.
pub fn hundredths(v: u64) -> String {
    let (i, f) = (v / 100, v % 100);
    match f {
        0 => format!("{i}"),
        f if f % 10 == 0 => format!("{i}.{}", f / 10),
        f => format!("{i}.{f:02}"),
    }
}
