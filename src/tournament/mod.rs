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

    /// Everyone the tournament knows, each once: the organiser, signed-up players and the
    /// mates they named, and the teams' players (their ids in the tournament thread's text
    /// become mentions).
    pub fn people(&self) -> Vec<String> {
        let mut users = vec![self.organiser.clone()];
        for s in &self.signups {
            users.push(s.player.clone());
            users.extend(s.mates.iter().cloned());
        }
        for team in &self.teams {
            users.extend(team.players.iter().cloned());
        }
        users.sort();
        users.dedup();
        users
    }

    /// Rounds paired so far.
    pub fn paired_rounds(&self) -> u32 {
        self.boards.iter().map(|b| b.round).max().unwrap_or(0)
    }

    /// The boards of a round, in board order.
    pub fn round_boards(&self, round: u32) -> Vec<&Board> {
        let mut v: Vec<&Board> = self.boards.iter().filter(|b| b.round == round).collect();
        v.sort_by_key(|b| b.board);
        v
    }

    /// One board.
    pub fn board(&self, round: u32, board: u32) -> Option<&Board> {
        self.boards
            .iter()
            .find(|b| b.round == round && b.board == board)
    }

    /// The result of a board.
    pub fn result(&self, round: u32, board: u32) -> Option<&ResultEntry> {
        self.results
            .iter()
            .find(|r| r.round == round && r.board == board)
    }

    /// Boards of `round` (byes aside) still without a result.
    pub fn missing(&self, round: u32) -> Vec<u32> {
        self.round_boards(round)
            .into_iter()
            .filter(|b| b.is_played() && self.result(b.round, b.board).is_none())
            .map(|b| b.board)
            .collect()
    }

    /// Rounds whose every match has a result.
    pub fn complete_rounds(&self) -> u32 {
        let r = self.paired_rounds();
        if r > 0 && !self.missing(r).is_empty() {
            r - 1
        } else {
            r
        }
    }

    /// A team by number.
    pub fn team(&self, number: u32) -> Option<&Team> {
        (number as usize)
            .checked_sub(1)
            .and_then(|i| self.teams.get(i))
    }

    /// Whether entrants are single players (every game but Kung Fu Bughouse).
    pub fn individual(&self) -> bool {
        !self.settings.game.is_kfb()
    }

    /// Seats an entrant fills on a board: three for a Kung Fu Bughouse team, else one.
    fn team_size(&self) -> usize {
        if self.individual() {
            1
        } else {
            3
        }
    }

    /// Everyone seated on board `b`: a table's players in seat order, or the first team's
    /// then the second's.
    pub fn board_players(&self, b: &Board) -> Vec<String> {
        if b.is_table() {
            return b.players.clone();
        }
        let mut v = self.seated(b, b.white);
        if b.black != 0 {
            v.extend(self.seated(b, b.black));
        }
        v
    }

    /// The players `team` fielded on board `b` (the team's current players if not recorded).
    pub fn seated(&self, b: &Board, team: u32) -> Vec<String> {
        let k = self.team_size();
        let half = if team == b.white && b.players.len() >= k {
            Some(&b.players[..k])
        } else if team == b.black && b.players.len() >= 2 * k {
            Some(&b.players[k..2 * k])
        } else {
            None
        };
        half.map(<[String]>::to_vec)
            .or_else(|| self.team(team).map(|t| t.players.clone()))
            .unwrap_or_default()
    }

    /// `Team 3 (a, b, c)` with the players `team` fielded on board `b` (the player's name in
    /// an individual event).
    pub fn board_label(&self, b: &Board, team: u32) -> String {
        self.label_of(team, &self.seated(b, team))
    }

    /// `Team 3 (a, b, c)` (the player's name in an individual event).
    pub fn team_label(&self, number: u32) -> String {
        self.label_of(
            number,
            self.team(number).map_or(&[], |t| t.players.as_slice()),
        )
    }

    /// `Team 3` or, in an individual event, the player (`Player 3` if unknown).
    pub fn entrant_name(&self, number: u32) -> String {
        if self.individual() {
            self.team_label(number)
        } else {
            format!("Team {number}")
        }
    }

    fn label_of(&self, team: u32, players: &[String]) -> String {
        if self.individual() {
            players
                .first()
                .cloned()
                .unwrap_or_else(|| format!("Player {team}"))
        } else {
            label(team, players)
        }
    }

    /// The team a player is on (the latest, if substituted around).
    pub fn team_of(&self, player: &str) -> Option<u32> {
        self.teams
            .iter()
            .rev()
            .find(|t| t.players.iter().any(|p| p == player))
            .map(|t| t.number)
    }

    /// Signed-up players not on any team (in signup order): the substitutes once teams exist.
    pub fn unassigned(&self) -> Vec<String> {
        self.signups
            .iter()
            .filter(|s| !s.withdrawn && self.team_of(&s.player).is_none())
            .map(|s| s.player.clone())
            .collect()
    }

    /// The running match (round, board) other than in thread `except` in which `user` holds
    /// a seat.
    pub fn seated_elsewhere(&self, user: &str, except: Option<&str>) -> Option<(u32, u32)> {
        self.boards
            .iter()
            .filter(|b| b.is_played() && self.result(b.round, b.board).is_none())
            .filter(|b| except.is_none() || b.thread.as_deref() != except)
            .find(|b| self.board_players(b).iter().any(|p| p == user))
            .map(|b| (b.round, b.board))
    }

    /// Why `by` may not take a seat in the match of thread `thread` (`/substitute` in a
    /// match thread): they play for another team of this tournament, or sit in another of
    /// its running matches. `player` is the one they would replace.
    pub fn match_substitute_refusal(&self, thread: &str, player: &str, by: &str) -> Option<String> {
        let own = self.match_of_thread(thread).and_then(|(r, b)| {
            let board = self.boards.iter().find(|x| x.round == r && x.board == b)?;
            [board.white, board.black]
                .into_iter()
                .find(|&t| self.seated(board, t).iter().any(|p| p == player))
        });
        if let Some(team) = self.team_of(by).filter(|&t| Some(t) != own) {
            return Some(format!("{by} plays for Team {team} in this tournament"));
        }
        self.seated_elsewhere(by, Some(thread)).map(|(r, b)| {
            format!("{by} is seated in round {r} board {b} of this tournament, still running")
        })
    }

    /// The match (round, board) played in a thread.
    pub fn match_of_thread(&self, thread: &str) -> Option<(u32, u32)> {
        self.boards
            .iter()
            .find(|b| b.thread.as_deref() == Some(thread))
            .map(|b| (b.round, b.board))
    }

    /// The round limit: the `rounds` setting, or by default enough rounds for the elimination
    /// to run its course (losses × ⌈log₂ teams⌉ + 1), or ⌈log₂ teams⌉ without elimination.
    pub fn round_limit(&self) -> u32 {
        if self.settings.format == Format::RoundRobin {
            let all = individual::berger_rounds(self.teams.len() as u32);
            return self.settings.rounds.map_or(all, |r| r.min(all));
        }
        if let Some(r) = self.settings.rounds {
            return r;
        }
        let n = self.teams.len().max(2) as u32;
        let lg = 32 - (n - 1).leading_zeros();
        match self.settings.losses_to_eliminate {
            0 => lg,
            l => l * lg + 1,
        }
    }

    /// Match losses of a team in rounds up to `round`.
    pub fn losses(&self, team: u32, round: u32) -> u32 {
        self.results
            .iter()
            .filter(|r| r.round <= round)
            .filter_map(|r| {
                let b = self.board(r.round, r.board)?;
                if b.white == team {
                    Some(r.result.lost(true))
                } else if b.black == team {
                    Some(r.result.lost(false))
                } else {
                    None
                }
            })
            .filter(|&l| l)
            .count() as u32
    }

    /// The round in which a team was eliminated.
    pub fn eliminated_in(&self, team: u32) -> Option<u32> {
        let l = self.settings.losses_to_eliminate;
        if l == 0 {
            return None;
        }
        (1..=self.paired_rounds()).find(|&r| self.losses(team, r) >= l)
    }

    /// Whether a team is still paired.
    pub fn active(&self, team: u32) -> bool {
        self.team(team)
            .is_some_and(|t| !t.withdrawn && self.eliminated_in(team).is_none())
    }

    /// Teams still paired.
    pub fn active_teams(&self) -> Vec<u32> {
        self.teams
            .iter()
            .map(|t| t.number)
            .filter(|&n| self.active(n))
            .collect()
    }

    fn points(&self) -> PointSystem {
        let s = &self.settings;
        if let Some([win, draw, loss, bye]) = s.match_points {
            return PointSystem {
                win,
                draw,
                loss,
                zero_bye: 0,
                forfeit_loss: 0,
                pairing_bye: bye,
            };
        }
        PointSystem {
            win: s.win * 10,
            draw: s.draw * 10,
            loss: s.loss * 10,
            zero_bye: 0,
            forfeit_loss: 0,
            pairing_bye: s.win * 10,
        }
    }

    /// The Swiss view of the first `rounds` rounds (each must be complete): teams as entrants,
    /// their pairing numbers their team numbers, absences where a team was not paired.
    ///
    /// # Errors
    /// A round without all its results, or data the pairing module refuses.
    pub fn to_swiss(&self, rounds: u32) -> Result<swiss::Tournament, TournamentError> {
        let mut t = swiss::Tournament::new(
            &self.name,
            self.teams.len() as u32,
            self.round_limit().max(rounds + 1),
        );
        t.points = self.points();
        for (e, team) in t.entrants.iter_mut().zip(&self.teams) {
            e.name = if self.individual() {
                self.team_label(team.number)
            } else {
                format!("Team {} {}", team.number, team.players.join(" "))
            };
        }
        for r in 1..=rounds {
            let mut pairing = swiss::Pairing::default();
            let mut results = Vec::new();
            for b in self.round_boards(r) {
                if b.black == 0 {
                    pairing.bye = Some(b.white);
                    continue;
                }
                let res = self.result(r, b.board).ok_or_else(|| {
                    refused(format!("round {r} board {} has no result yet", b.board))
                })?;
                pairing.pairs.push((b.white, b.black));
                results.push(res.result.swiss());
            }
            swiss::record_round(&mut t, &pairing, &results, &[])?;
        }
        Ok(t)
    }

    /// The Swiss view ready to pair the next round: complete rounds, and teams that are not
    /// to be paired (withdrawn, eliminated) marked absent for it.
    ///
    /// # Errors
    /// As [`Tournament::to_swiss`].
    pub fn to_swiss_for_next(&self) -> Result<swiss::Tournament, TournamentError> {
        let rounds = self.complete_rounds();
        let mut t = self.to_swiss(rounds)?;
        if rounds == self.paired_rounds() && !self.finished {
            for team in &self.teams {
                if !self.active(team.number) {
                    swiss::preassign_bye(&mut t, team.number, Outcome::Loss)?;
                }
            }
        }
        Ok(t)
    }

    /// The FIDE TRF of the event (complete rounds; withdrawn and eliminated teams marked absent
    /// for the next round, so any pairing program gives the next round from it).
    ///
    /// # Errors
    /// As [`Tournament::to_swiss`].
    pub fn trf(&self) -> Result<String, TournamentError> {
        let t = self.to_swiss_for_next()?;
        Ok(swiss::write_trf(&t))
    }

    /// `/tournament export`: the TRF of a two-sided event, a plain table for a Swiss of
    /// tables.
    ///
    /// # Errors
    /// As [`Tournament::trf`].
    pub fn export(&self) -> Result<String, TournamentError> {
        if self.table_event() {
            Ok(self.table_export())
        } else {
            self.trf()
        }
    }

    /// Records a signup (with mates named, who are signed up too).
    ///
    /// # Errors
    /// The event is over, the player is already signed up, a mate is on a team or in another
    /// group, or the group would exceed three.
    pub fn signup(
        &mut self,
        player: &str,
        mates: &[String],
        now: Timestamp,
    ) -> Result<String, TournamentError> {
        if self.finished {
            return Err(refused("this tournament is over"));
        }
        if self.individual() {
            return self.signup_alone(player, mates, now);
        }
        let mut mates: Vec<String> = mates.iter().filter(|m| !m.is_empty()).cloned().collect();
        mates.dedup();
        if mates.iter().any(|m| m == player) {
            return Err(refused("name your teammates, not yourself"));
        }
        if mates.len() == 2 && mates[0] == mates[1] {
            return Err(refused("name two different teammates"));
        }
        let active =
            |t: &Tournament, p: &str| t.signups.iter().any(|s| s.player == p && !s.withdrawn);
        if active(self, player) {
            return Err(refused(match self.team_of(player) {
                Some(n) => format!("you are already on Team {n}"),
                None => "you are already signed up (use /withdraw first to change your teammates)"
                    .to_string(),
            }));
        }
        for m in &mates {
            if let Some(n) = self.team_of(m) {
                return Err(refused(format!("{m} is already on Team {n}")));
            }
            if self.signups.iter().any(|s| &s.player == m && s.withdrawn) {
                return Err(refused(format!(
                    "{m} withdrew; they must sign up again themselves"
                )));
            }
        }
        // The group this signup makes must stay within three players.
        let mut players: Vec<String> = self.unassigned();
        players.push(player.to_string());
        for m in &mates {
            if !players.contains(m) {
                players.push(m.clone());
            }
        }
        let mut links = self.mate_links();
        for m in &mates {
            links.push((player.to_string(), m.clone()));
        }
        let group = teams::groups(&players, &links)
            .into_iter()
            .find(|g| g.iter().any(|p| p == player))
            .unwrap_or_default();
        if group.len() > 3 {
            return Err(refused(format!(
                "a team has three players: this would group {}",
                group.join(", ")
            )));
        }
        match self.signups.iter_mut().find(|s| s.player == player) {
            Some(s) => {
                s.withdrawn = false;
                s.mates.clone_from(&mates);
                s.time = now;
            }
            None => self.signups.push(Signup {
                player: player.to_string(),
                mates: mates.clone(),
                withdrawn: false,
                time: now,
            }),
        }
        let mut added = Vec::new();
        for m in &mates {
            if !self.signups.iter().any(|s| &s.player == m) {
                self.signups.push(Signup {
                    player: m.clone(),
                    mates: Vec::new(),
                    withdrawn: false,
                    time: now,
                });
                added.push(m.clone());
            }
        }
        let count = self.signups.iter().filter(|s| !s.withdrawn).count();
        let mut text = format!("{player} signed up");
        if group.len() > 1 {
            text.push_str(&format!(
                " with {}",
                group
                    .iter()
                    .filter(|p| *p != player)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" and ")
            ));
            text.push_str(match group.len() {
                3 => " (a named trio: one team)",
                _ => " (a named pair: a random third joins when teams are formed)",
            });
        }
        if !added.is_empty() {
            text.push_str(&format!(
                "; {} signed up by being named (/withdraw to leave)",
                added.join(" and ")
            ));
        }
        text.push_str(&format!("; {count} players signed up"));
        if !self.teams.is_empty() {
            text.push_str("; teams are already formed: you wait as a substitute until an organiser forms more teams");
        }
        Ok(text)
    }

    /// Mate links among players not yet on a team.
    fn mate_links(&self) -> Vec<(String, String)> {
        let free = self.unassigned();
        self.signups
            .iter()
            .filter(|s| free.contains(&s.player))
            .flat_map(|s| {
                s.mates
                    .iter()
                    .filter(|m| free.contains(m))
                    .map(|m| (s.player.clone(), m.clone()))
            })
            .collect()
    }

    /// A player withdraws: before teams exist, the signup goes; a substitute leaves the list;
    /// a team member is replaced by the first substitute, or the team withdraws.
    ///
    /// # Errors
    /// Not signed up, or the event is over.
    pub fn withdraw(&mut self, player: &str, now: Timestamp) -> Result<String, TournamentError> {
        if self.finished {
            return Err(refused("this tournament is over"));
        }
        if self.individual() {
            return self.withdraw_alone(player, now);
        }
        let Some(team) = self.team_of(player) else {
            let Some(s) = self
                .signups
                .iter_mut()
                .find(|s| s.player == player && !s.withdrawn)
            else {
                return Err(refused("you are not signed up"));
            };
            s.withdrawn = true;
            s.time = now;
            return Ok(format!("{player} withdrew"));
        };
        let idx = team as usize - 1;
        if self.teams[idx].withdrawn {
            return Err(refused(format!("Team {team} has already withdrawn")));
        }
        if let Some(s) = self.signups.iter_mut().find(|s| s.player == player) {
            s.withdrawn = true;
            s.time = now;
        }
        let playing = self.unfinished_match_of(team);
        let note = match playing {
            Some((r, b)) => format!(
                "; round {r} board {b} keeps its seats (an organiser may /proxy the newcomer there or set a result)"
            ),
            None => String::new(),
        };
        match self.unassigned().first().cloned() {
            Some(sub) => {
                if let Some(slot) = self.teams[idx].players.iter_mut().find(|p| *p == player) {
                    slot.clone_from(&sub);
                }
                self.seat_in_next_match(player, &sub);
                Ok(format!(
                    "{player} withdrew from Team {team}; substitute {sub} takes their place from the next match{note}"
                ))
            }
            None => {
                self.teams[idx].withdrawn = true;
                let mut text = format!(
                    "{player} withdrew and there is no substitute: Team {team} withdraws and is not paired again{note}"
                );
                if let Some(end) = self.check_end() {
                    text.push('\n');
                    text.push_str(&end);
                }
                Ok(text)
            }
        }
    }

    /// An organiser hands `player`'s place on Team `team` to `by` from the team's next match
    /// on (a match already opened keeps its seats: its own `/substitute` changes it). `by` may
    /// be a signed-up substitute or someone new, but not a member of a team.
    ///
    /// # Errors
    /// No such team, `player` not on it, `by` on a team already, or the event is over.
    pub fn substitute(
        &mut self,
        team: u32,
        player: &str,
        by: &str,
    ) -> Result<String, TournamentError> {
        let idx = self.team_in_play(team)?;
        if !self.teams[idx].players.iter().any(|p| p == player) {
            return Err(refused(format!("{player} is not on Team {team}")));
        }
        if let Some(other) = self.team_of(by) {
            return Err(refused(format!("{by} is on Team {other} already")));
        }
        if let Some((r, b)) = self.seated_elsewhere(by, None) {
            return Err(refused(format!(
                "{by} is seated in round {r} board {b} of this tournament, still running"
            )));
        }
        if let Some(slot) = self.teams[idx].players.iter_mut().find(|p| *p == player) {
            *slot = by.to_string();
        }
        self.seat_in_next_match(player, by);
        let note = match self.unfinished_match_of(team) {
            Some((r, b)) => format!(
                "; round {r} board {b} is under way and keeps its seats (/substitute in its thread changes them)"
            ),
            None => String::new(),
        };
        Ok(format!(
            "{by} takes {player}'s place on Team {team} from its next match{note}"
        ))
    }

    /// The index of Team `team`, still in the event.
    ///
    /// # Errors
    /// The event is over, there is no such team, or it has withdrawn.
    fn team_in_play(&self, team: u32) -> Result<usize, TournamentError> {
        if self.finished {
            return Err(refused("this tournament is over"));
        }
        let idx = (team as usize)
            .checked_sub(1)
            .filter(|&i| i < self.teams.len())
            .ok_or_else(|| refused(format!("there is no Team {team}")))?;
        if self.teams[idx].withdrawn {
            return Err(refused(format!(
                "{} has already withdrawn",
                self.entrant_name(team)
            )));
        }
        Ok(idx)
    }

    /// `by` takes `player`'s seat in the current round's matches whose games have not started
    /// yet (the team's next match).
    fn seat_in_next_match(&mut self, player: &str, by: &str) {
        let waiting: Vec<(u32, u32)> = self
            .unopened()
            .into_iter()
            .filter(|&(r, b)| self.result(r, b).is_none())
            .collect();
        for b in self
            .boards
            .iter_mut()
            .filter(|b| waiting.contains(&(b.round, b.board)))
        {
            if let Some(slot) = b.players.iter_mut().find(|p| *p == player) {
                *slot = by.to_string();
            }
        }
    }

    /// An organiser withdraws a whole team.
    ///
    /// # Errors
    /// No such team, or already withdrawn.
    pub fn withdraw_team(&mut self, team: u32) -> Result<String, TournamentError> {
        let idx = self.team_in_play(team)?;
        self.teams[idx].withdrawn = true;
        let mut text = format!(
            "{} withdraws and is not paired again",
            self.entrant_name(team)
        );
        if let Some((r, b)) = self.unfinished_match_of(team) {
            text.push_str(&format!(
                "; round {r} board {b} still needs a result (/tournament result)"
            ));
        }
        if let Some(end) = self.check_end() {
            text.push('\n');
            text.push_str(&end);
        }
        Ok(text)
    }

    fn unfinished_match_of(&self, team: u32) -> Option<(u32, u32)> {
        let r = self.paired_rounds();
        self.round_boards(r)
            .into_iter()
            .find(|b| {
                let on = if b.is_table() {
                    self.team(team)
                        .is_some_and(|t| t.players.iter().any(|p| b.players.contains(p)))
                } else {
                    b.black != 0 && (b.white == team || b.black == team)
                };
                on && self.result(r, b.board).is_none()
            })
            .map(|b| (b.round, b.board))
    }

    /// Forms teams from the players not yet on one, with `seed`. The first formation needs at
    /// least three teams; a later one adds late entries.
    ///
    /// # Errors
    /// Too few players, or the event is over.
    pub fn form_teams(&mut self, seed: u64) -> Result<String, TournamentError> {
        if self.individual() {
            return self.seed_players(seed);
        }
        if self.finished {
            return Err(refused("this tournament is over"));
        }
        let players = self.unassigned();
        let f = teams::form(&players, &self.mate_links(), seed);
        if self.teams.is_empty() && f.teams.len() < 3 {
            return Err(refused(format!(
                "at least three teams (nine players) are needed; {} players are signed up",
                players.len()
            )));
        }
        if f.teams.is_empty() {
            return Err(refused(format!(
                "no new team can be formed from {} waiting player(s): {}",
                players.len(),
                if players.is_empty() {
                    "nobody".to_string()
                } else {
                    players.join(", ")
                }
            )));
        }
        self.seed = seed;
        let joined = self.paired_rounds();
        let mut text = if self.teams.is_empty() {
            format!("teams formed with seed {seed}:")
        } else {
            format!(
                "late entries: teams added with seed {seed}, from round {}:",
                joined + 1
            )
        };
        for (players, origin) in f.teams {
            let number = self.teams.len() as u32 + 1;
            text.push_str(&format!(
                "\nTeam {number}: {} ({})",
                players.join(", "),
                origin.describe()
            ));
            self.teams.push(Team {
                number,
                players,
                withdrawn: false,
                joined,
            });
        }
        if f.substitutes.is_empty() {
            text.push_str("\nsubstitutes: none");
        } else {
            text.push_str(&format!("\nsubstitutes: {}", f.substitutes.join(", ")));
        }
        Ok(text)
    }

    /// Pairs the next round.
    ///
    /// # Errors
    /// No teams, the current round unfinished, the event over, or a pairing failure.
    pub fn pair_next(&mut self) -> Result<PairOutcome, TournamentError> {
        if self.teams.is_empty() {
            return Err(refused(if self.individual() {
                "there are no players yet: they sign up with /signup"
            } else {
                "there are no teams yet: an organiser forms them with /tournament teams"
            }));
        }
        if self.finished {
            return Err(refused(format!(
                "this tournament is over; {}",
                self.winner_line()
            )));
        }
        let r = self.paired_rounds();
        let missing = self.missing(r);
        if r > 0 && !missing.is_empty() {
            let list: Vec<String> = missing.iter().map(u32::to_string).collect();
            return Err(refused(format!(
                "round {r} is still being played: board{} {} without a result (results come from the match games, or an organiser sets one with /tournament result)",
                if list.len() == 1 { "" } else { "s" },
                list.join(", ")
            )));
        }
        if let Some(end) = self.check_end() {
            return Ok(PairOutcome::Ended(end));
        }
        if self.settings.format == Format::RoundRobin {
            let now = self
                .results
                .iter()
                .map(|r| r.time)
                .max()
                .unwrap_or(self.created_at);
            let mut paired = self.pair_berger(r + 1, now);
            // A round decided by withdrawals alone may end the event at once.
            if let Some(end) = self.check_end() {
                paired.text.push_str(&format!("\n{end}"));
            }
            return Ok(PairOutcome::Round(paired));
        }
        if self.table_event() {
            return self.pair_table_round();
        }
        let t = self.to_swiss_for_next()?;
        let pairing = match swiss::pair_next_round(&t) {
            Ok(p) => p,
            Err(SwissError::NoValidPairing) => {
                self.finished = true;
                return Ok(PairOutcome::Ended(format!(
                    "no pairing is possible among the {} remaining teams (they have all met): the tournament is over. {}",
                    self.active_teams().len(),
                    self.winner_line()
                )));
            }
            Err(e) => return Err(e.into()),
        };
        let round = r + 1;
        let players_of = |team: u32| {
            self.team(team)
                .map(|t| t.players.clone())
                .unwrap_or_default()
        };
        let mut boards = Vec::new();
        for (i, &(w, b)) in pairing.pairs.iter().enumerate() {
            let mut players = players_of(w);
            players.extend(players_of(b));
            boards.push(Board {
                round,
                board: i as u32 + 1,
                white: w,
                black: b,
                thread: None,
                players,
            });
        }
        if let Some(b) = pairing.bye {
            boards.push(Board {
                round,
                board: boards.len() as u32 + 1,
                white: b,
                black: 0,
                thread: None,
                players: players_of(b),
            });
        }
        self.boards.extend(boards.iter().cloned());
        let text = self.pairing_text(round);
        Ok(PairOutcome::Round(Paired {
            round,
            boards,
            text,
        }))
    }

    /// The pairing table of a round.
    pub fn pairing_text(&self, round: u32) -> String {
        let limit = self.round_limit();
        let mut text = format!("{}: round {round} of at most {limit}", self.name);
        for b in self.round_boards(round) {
            if self.table_event() {
                text.push('\n');
                text.push_str(&self.table_line(b));
                continue;
            }
            if b.black == 0 {
                let bye = self.points().pairing_bye;
                text.push_str(&format!(
                    "\nbye: {} ({} point{})",
                    self.board_label(b, b.white),
                    tenths(bye),
                    if bye == 10 { "" } else { "s" }
                ));
                continue;
            }
            let result = match self.result(round, b.board) {
                Some(r) => format!(" [{}]", r.result.code()),
                None => String::new(),
            };
            text.push_str(&format!(
                "\nboard {}: {} vs {}{result}",
                b.board,
                self.board_label(b, b.white),
                self.board_label(b, b.black)
            ));
        }
        let out: Vec<String> = self
            .teams
            .iter()
            .filter(|t| !self.active(t.number))
            .map(|t| match self.eliminated_in(t.number) {
                Some(_) if !t.withdrawn => format!("{} (eliminated)", self.entrant_name(t.number)),
                _ => format!("{} (withdrawn)", self.entrant_name(t.number)),
            })
            .collect();
        if !out.is_empty() {
            text.push_str(&format!("\nnot paired: {}", out.join(", ")));
        }
        text
    }

    /// The seed of a match's game (drawn from the event's seed, so it can be typed back).
    pub fn match_seed(&self, round: u32, board: u32) -> u64 {
        crate::games::drawn_seed(splitmix(
            self.seed ^ (u64::from(round) << 32 | u64::from(board)),
        ))
    }

    /// The settings for the game of a match.
    pub fn game_settings(&self, round: u32, board: u32) -> kfb::Settings {
        kfb::Settings {
            pace: crate::layer::pace::Pace {
                vacation: self.settings.no_vacation.then_some(false),
                ..crate::layer::pace::Pace::default()
            },
            created: None,
            move_limit: self.settings.move_limit,
            inactivity_posts: self.settings.inactivity_posts,
            // Shown in the match's announcement: a seed one can type back (shared rules 0.5).
            seed: crate::games::drawn_seed(splitmix(
                self.seed ^ (u64::from(round) << 32 | u64::from(board)),
            )),
            ..kfb::Settings::default()
        }
    }

    /// The six players of a match, the first team's three first.
    ///
    /// # Errors
    /// No such board, or it is the bye.
    pub fn match_players(&self, round: u32, board: u32) -> Result<Vec<String>, TournamentError> {
        let b = self
            .board(round, board)
            .ok_or_else(|| refused(format!("there is no board {board} in round {round}")))?;
        if !b.is_played() {
            return Err(refused("the bye has no game"));
        }
        Ok(self.board_players(b))
    }

    /// Notes the thread a match is played in.
    pub fn set_thread(&mut self, round: u32, board: u32, thread: &str) {
        if let Some(b) = self
            .boards
            .iter_mut()
            .find(|b| b.round == round && b.board == board)
        {
            b.thread = Some(thread.to_string());
        }
    }

    /// Boards of the current round whose thread is not open yet.
    pub fn unopened(&self) -> Vec<(u32, u32)> {
        self.round_boards(self.paired_rounds())
            .into_iter()
            .filter(|b| {
                b.is_played() && b.thread.is_none() && self.result(b.round, b.board).is_none()
            })
            .map(|b| (b.round, b.board))
            .collect()
    }

    /// `Team 3 beat Team 5` and the like.
    fn result_text(&self, b: &Board, res: MatchResult) -> String {
        let (w, k) = (self.board_label(b, b.white), self.board_label(b, b.black));
        let what = match res {
            MatchResult::WhiteWins => format!("{w} beat {k}"),
            MatchResult::BlackWins => format!("{k} beat {w}"),
            MatchResult::Draw => format!("{w} and {k} drew"),
            MatchResult::WhiteForfeitWin => format!("{w} won by forfeit against {k}"),
            MatchResult::BlackForfeitWin => format!("{k} won by forfeit against {w}"),
            MatchResult::DoubleForfeit => format!("{w} and {k} both forfeited"),
            MatchResult::Placed => format!("{w} and {k} placed"),
        };
        format!("round {} board {}: {what}", b.round, b.board)
    }

    /// Elimination news after a result on board `b`.
    fn elimination_text(&self, b: &Board) -> String {
        let mut s = String::new();
        for t in [b.white, b.black] {
            if self.eliminated_in(t) == Some(b.round) {
                s.push_str(&format!(
                    "\nTeam {t} is eliminated ({} losses)",
                    self.losses(t, b.round)
                ));
            }
        }
        s
    }

    /// An organiser sets (`Some`) or clears (`None`: follow the game again) a result.
    ///
    /// # Errors
    /// No such board, or the bye.
    pub fn set_result(
        &mut self,
        round: u32,
        board: u32,
        result: Option<MatchResult>,
        by: &str,
        now: Timestamp,
    ) -> Result<String, TournamentError> {
        let b = self
            .board(round, board)
            .cloned()
            .ok_or_else(|| refused(format!("there is no board {board} in round {round}")))?;
        if !b.is_played() {
            return Err(refused("the bye needs no result"));
        }
        if b.is_table() {
            return Err(refused(
                "a table's result is its places in seat order, like result:1 2 3 4 (ties share a place)",
            ));
        }
        let later = round < self.paired_rounds();
        let mut text = match result {
            Some(res) => {
                self.put_result(round, board, res, by, now);
                format!("{} (set by {by})", self.result_text(&b, res))
            }
            None => {
                self.results
                    .retain(|r| !(r.round == round && r.board == board && r.set_by != BY_GAME));
                format!(
                    "round {round} board {board} follows its game again{}",
                    match self.result(round, board) {
                        Some(r) => format!(": {}", r.result.code()),
                        None => " (no result yet)".to_string(),
                    }
                )
            }
        };
        if later {
            text.push_str(&format!(
                "\nnote: round {} is already paired; its pairing stands, standings and later pairings use the corrected result",
                self.paired_rounds()
            ));
        }
        text.push_str(&self.elimination_text(&b));
        text.push_str(&self.round_news(round));
        Ok(text)
    }

    /// After a result in `round`: the end of the event, or that the round is complete.
    fn round_news(&mut self, round: u32) -> String {
        if let Some(end) = self.check_end() {
            format!("\n{end}")
        } else if round == self.paired_rounds() && self.missing(round).is_empty() && !self.finished
        {
            format!(
                "\nround {round} is complete: an organiser pairs the next with /tournament pair"
            )
        } else {
            String::new()
        }
    }

    fn put_result(
        &mut self,
        round: u32,
        board: u32,
        result: MatchResult,
        by: &str,
        now: Timestamp,
    ) {
        self.results
            .retain(|r| !(r.round == round && r.board == board));
        self.results.push(ResultEntry {
            round,
            board,
            result,
            set_by: by.to_string(),
            time: now,
            places: Vec::new(),
        });
        self.results.sort_by_key(|r| (r.round, r.board));
    }

    /// The match game in `thread` now says `result` (`None`: not over, e.g. after a revert).
    /// Results an organiser set stand. Returns the news to post in the tournament thread.
    pub fn game_result(
        &mut self,
        thread: &str,
        result: Option<MatchResult>,
        now: Timestamp,
    ) -> Option<String> {
        let (round, board) = self.match_of_thread(thread)?;
        let b = self.board(round, board)?.clone();
        let current = self.result(round, board).cloned();
        if current.as_ref().is_some_and(|c| c.set_by != BY_GAME) {
            return None;
        }
        match result {
            Some(res) if current.as_ref().map(|c| c.result) != Some(res) => {
                self.put_result(round, board, res, BY_GAME, now);
                let mut text = self.result_text(&b, res);
                text.push_str(&self.elimination_text(&b));
                text.push_str(&self.round_news(round));
                Some(text)
            }
            None if current.is_some() && round == self.paired_rounds() && !self.finished => {
                Some(self.withdraw_reverted(round, board, "board"))
            }
            _ => None,
        }
    }

    /// Ends the event if the current round is complete and one team remains or the round
    /// limit is reached; returns the announcement.
    fn check_end(&mut self) -> Option<String> {
        if self.finished || self.teams.is_empty() {
            return None;
        }
        let r = self.paired_rounds();
        if r == 0 || !self.missing(r).is_empty() {
            return None;
        }
        let active = self.active_teams().len();
        let why = if active <= 1 {
            match (active, self.individual()) {
                (1, false) => "one team remains",
                (_, false) => "no team remains",
                (1, true) => "one player remains",
                (_, true) => "no player remains",
            }
        } else if r >= self.round_limit() {
            "the round limit is reached"
        } else {
            return None;
        };
        self.finished = true;
        Some(format!(
            "the tournament is over after round {r} ({why}). {}",
            self.winner_line()
        ))
    }

    /// The winning team: the last one standing in an elimination, else the top of the
    /// standings.
    pub fn champion(&self) -> Option<u32> {
        let active = self.active_teams();
        if self.settings.losses_to_eliminate > 0 && active.len() == 1 {
            return active.first().copied();
        }
        self.standings().ok()?.first().map(|s| s.team)
    }

    /// `Winner: Team 3 (a, b, c)`.
    pub fn winner_line(&self) -> String {
        match self.champion() {
            Some(t) => format!("Winner: {}", self.team_label(t)),
            None => "No winner.".to_string(),
        }
    }

    /// Standings after the complete rounds: score, Buchholz, Sonneborn-Berger, direct
    /// encounter; with each team's losses and status.
    ///
    /// # Errors
    /// As [`Tournament::to_swiss`].
    pub fn standings(&self) -> Result<Vec<StandingRow>, TournamentError> {
        if self.table_event() {
            return Ok(self.table_standings());
        }
        let t = self.to_swiss(self.complete_rounds())?;
        let mut rows: Vec<StandingRow> = swiss::standings(&t)
            .into_iter()
            .map(|s| {
                let team = self.team(s.id);
                StandingRow {
                    place: s.place,
                    team: s.id,
                    players: team.map(|t| t.players.clone()).unwrap_or_default(),
                    score: s.score,
                    buchholz: s.buchholz,
                    sonneborn_berger: s.sonneborn_berger,
                    losses: self.losses(s.id, self.paired_rounds()),
                    status: match (team.is_some_and(|t| t.withdrawn), self.eliminated_in(s.id)) {
                        (true, _) => "withdrawn".to_string(),
                        (false, Some(r)) => format!("eliminated (round {r})"),
                        (false, None) => "active".to_string(),
                    },
                }
            })
            .collect();
        rows.sort_by_key(|r| r.place);
        if self.finished {
            let active = self.active_teams();
            if self.settings.losses_to_eliminate > 0 && active.len() == 1 {
                if let Some(row) = rows.iter_mut().find(|r| r.team == active[0]) {
                    row.status = "champion".to_string();
                }
            } else if let Some(row) = rows.first_mut() {
                row.status = "champion".to_string();
            }
        }
        Ok(rows)
    }

    /// The standings as text.
    ///
    /// # Errors
    /// As [`Tournament::standings`].
    pub fn standings_text(&self) -> Result<String, TournamentError> {
        if self.table_event() {
            return Ok(self.table_standings_text());
        }
        if self.individual() {
            return self.individual_standings_text();
        }
        let rows = self.standings()?;
        let mut text = format!(
            "{}: standings after round {} (win {}, draw {}, loss {}; {})",
            self.name,
            self.complete_rounds(),
            self.settings.win,
            self.settings.draw,
            self.settings.loss,
            match self.settings.losses_to_eliminate {
                0 => "no elimination".to_string(),
                l => format!("eliminated after {l} losses"),
            }
        );
        text.push_str("\n# team: score, Buchholz, SB, losses, status");
        for r in rows {
            text.push_str(&format!(
                "\n{}. {}: {}, {}, {}, {}, {}",
                r.place,
                self.team_label(r.team),
                tenths(r.score),
                tenths(r.buchholz),
                hundredths(r.sonneborn_berger),
                r.losses,
                r.status
            ));
        }
        if self.finished {
            text.push('\n');
            text.push_str(&self.winner_line());
        }
        Ok(text)
    }

    /// A summary for `/tournament` without a subcommand and for the pinned message.
    pub fn summary(&self) -> String {
        if self.individual() {
            return self.individual_summary();
        }
        let mut s = format!(
            "{} (organiser {}): {}; move limit {}; ",
            self.name,
            self.organiser,
            match self.settings.losses_to_eliminate {
                0 => "Swiss without elimination".to_string(),
                l => format!("two-pass Swiss, eliminated after {l} losses"),
            },
            format_duration(self.settings.move_limit)
        );
        s.push_str(&self.progress_text("teams"));
        s
    }

    /// Where an event stands, after `/tournament status`'s settings: who signed up before
    /// the first round, the winner once over, else its `entrants` and the round.
    fn progress_text(&self, entrants: &str) -> String {
        if self.teams.is_empty() {
            let players: Vec<String> = self.unassigned();
            format!(
                "{} signed up: {}",
                players.len(),
                if players.is_empty() {
                    "nobody yet".to_string()
                } else {
                    players.join(", ")
                }
            )
        } else if self.finished {
            format!("over. {}", self.winner_line())
        } else {
            format!(
                "{} {entrants}, {} active; round {} of at most {}",
                self.teams.len(),
                self.active_teams().len(),
                self.paired_rounds(),
                self.round_limit()
            )
        }
    }

    /// A match's result withdrawn because its game is no longer over (a move was reverted),
    /// while its round is the current one; `what` names it (`board 2`, `table 2`).
    fn withdraw_reverted(&mut self, round: u32, board: u32, what: &str) -> String {
        self.results
            .retain(|r| !(r.round == round && r.board == board));
        format!(
            "round {round} {what} {board}: the game is no longer over (a move was reverted); its result is withdrawn"
        )
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
