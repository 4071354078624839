//! Events of games other than Kung Fu Bughouse (tournament rules 2.5): which game an event
//! plays, its format, and the parts of an individual event (Chex) that a team event lacks:
//! the seeding draw and the round robin's Berger tables.
//!
//! An individual entrant is a one-player "team" of [`super::Tournament`], so the Swiss view,
//! results, standings and TRF are the team event's own code with one seat per side.

use super::{refused, Board, Paired, Team, Tournament, TournamentError};
use crate::games::seeded::{shuffle, Chain};

/// The game an event plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EventGame {
    /// Kung Fu Bughouse: teams of three (every event stored before games were named).
    #[default]
    Kfb,
    /// Chex: two players.
    Chex,
    /// Ultimate Chess: tables of four.
    Ultimate,
    /// Party Chess: tables of 3 to 8.
    Party,
    /// Nomic Chess: tables of 3 to 8.
    Nomic,
}

impl EventGame {
    /// Parses `game:`.
    ///
    /// # Errors
    /// Not one of the five games.
    pub fn parse(text: &str) -> Result<EventGame, String> {
        Ok(match text.trim().to_lowercase().as_str() {
            "kfb" | "kungfu" | "kung-fu-bughouse" => EventGame::Kfb,
            "chex" => EventGame::Chex,
            "ultimate" => EventGame::Ultimate,
            "party" => EventGame::Party,
            "nomic" => EventGame::Nomic,
            other => {
                return Err(format!(
                    "game:{other} is not a game: kfb, chex, ultimate, party or nomic"
                ))
            }
        })
    }

    /// Whether it is Kung Fu Bughouse (the stored default, left out of the stored settings).
    pub fn is_kfb(&self) -> bool {
        *self == EventGame::Kfb
    }

    /// The command group that creates its games (`/chex new`).
    pub fn group(self) -> &'static str {
        match self {
            EventGame::Kfb => "kfb",
            EventGame::Chex => "chex",
            EventGame::Ultimate => "ultimate",
            EventGame::Party => "party",
            EventGame::Nomic => "nomic",
        }
    }

    /// Its name for players.
    pub fn title(self) -> &'static str {
        match self {
            EventGame::Kfb => "Kung Fu Bughouse",
            EventGame::Chex => "Chex",
            EventGame::Ultimate => "Ultimate Chess",
            EventGame::Party => "Party Chess",
            EventGame::Nomic => "Nomic Chess",
        }
    }

    /// Whether a match seats several players at one table (a Swiss of tables).
    pub fn tables(self) -> bool {
        matches!(
            self,
            EventGame::Ultimate | EventGame::Party | EventGame::Nomic
        )
    }

    /// The fewest and most players a table of this game seats.
    pub fn table_sizes(self) -> (u32, u32) {
        match self {
            EventGame::Ultimate => (4, 4),
            EventGame::Party | EventGame::Nomic => (3, 8),
            EventGame::Kfb => (6, 6),
            EventGame::Chex => (2, 2),
        }
    }

    /// The fewest players a table may start with (a leftover table may be this small).
    pub fn min_players(self) -> u32 {
        match self {
            // Party Chess and Nomic Chess play from two (their own rules); Ultimate needs four.
            EventGame::Party | EventGame::Nomic | EventGame::Chex => 2,
            EventGame::Ultimate => 4,
            EventGame::Kfb => 6,
        }
    }
}

/// How rounds are paired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// The FIDE Dutch Swiss system (or a Swiss of tables).
    #[default]
    Swiss,
    /// Everyone meets everyone once, by the Berger tables.
    RoundRobin,
}

impl Format {
    /// Parses `format:`.
    ///
    /// # Errors
    /// Anything but swiss and roundrobin.
    pub fn parse(text: &str) -> Result<Format, String> {
        match text.trim().to_lowercase().as_str() {
            "swiss" => Ok(Format::Swiss),
            "roundrobin" | "round-robin" | "rr" => Ok(Format::RoundRobin),
            other => Err(format!(
                "format:{other} is not a format: swiss or roundrobin"
            )),
        }
    }

    /// Whether it is the Swiss (the default, left out of the stored settings).
    pub fn is_swiss(&self) -> bool {
        *self == Format::Swiss
    }
}

/// Parses a number of points with at most one decimal (`1`, `0.5`, `½`) into tenths.
fn tenths_of(text: &str) -> Option<u32> {
    let t = text.trim();
    if t == "½" {
        return Some(5);
    }
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    let whole: u32 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let frac: u32 = match frac.len() {
        0 => 0,
        1 => frac.parse().ok()?,
        _ => return None,
    };
    whole.checked_mul(10)?.checked_add(frac)
}

/// Parses an individual event's `points:` — win/draw/loss, and optionally the bye, like
/// `1/0.5/0` or `3/1/0/1` — into tenths `[win, draw, loss, bye]` (the bye worth a win unless
/// given).
///
/// # Errors
/// Not three or four numbers, or a win not worth more than a draw, or a draw less than a loss.
pub fn parse_match_points(text: &str) -> Result<[u32; 4], String> {
    let parts: Vec<Option<u32>> = text.split(['/', ',']).map(tenths_of).collect();
    match parts.as_slice() {
        [Some(w), Some(d), Some(l), rest @ ..]
            if w > d && d >= l && rest.len() <= 1 && rest.iter().all(Option::is_some) =>
        {
            Ok([*w, *d, *l, rest.first().copied().flatten().unwrap_or(*w)])
        }
        _ => Err(
            "points are win/draw/loss[/bye], like 1/0.5/0 (the default) or 3/1/0/1: a win worth more than a draw, a draw no less than a loss"
                .into(),
        ),
    }
}

/// Parses a table event's `points:` — the points of each place from the first, like
/// `3/2/1/0` — into whole points.
///
/// # Errors
/// Not whole numbers, or a place worth more than the one before it.
pub fn parse_place_points(text: &str) -> Result<Vec<u32>, String> {
    let parts: Option<Vec<u32>> = text
        .split(['/', ','])
        .map(|p| p.trim().parse().ok())
        .collect();
    match parts {
        Some(v) if !v.is_empty() && v.windows(2).all(|w| w[0] >= w[1]) => Ok(v),
        _ => Err("points are the points of each place from the first, like 3/2/1/0 (never more for a lower place)".into()),
    }
}

/// The seeding draw: `players` in an order drawn with `seed` (their pairing numbers follow).
pub fn seeding(players: &[String], seed: u64) -> Vec<String> {
    let mut v = players.to_vec();
    shuffle(&mut Chain(seed), &mut v);
    v
}

/// Rounds of a round robin of `n` entrants: n − 1, or n when one sits out each round.
pub fn berger_rounds(n: u32) -> u32 {
    if n.is_multiple_of(2) {
        n.saturating_sub(1)
    } else {
        n
    }
}

/// Round `round` (from 1) of the Berger tables for `n` entrants (numbered from 1): the
/// boards in order as (white, black), with 0 for the entrant that sits out when `n` is odd
/// (the bye). FIDE's tables: with m = n rounded up to even, entrant m meets
/// `a = (round − 1)·m/2 mod (m − 1) + 1` on board 1 (m Black in odd rounds), then board k
/// pairs `a + k − 1` (White) with `a − k + 1`, counted round the circle of 1 … m − 1.
pub fn berger_round(n: u32, round: u32) -> Vec<(u32, u32)> {
    if n < 2 || round == 0 || round > berger_rounds(n) {
        return Vec::new();
    }
    let m = n + n % 2;
    let circle = m - 1;
    let r = round - 1;
    let a = (r * (m / 2)) % circle + 1;
    let wrap = |x: i64| -> u32 { ((x - 1).rem_euclid(i64::from(circle)) + 1) as u32 };
    let mut boards = Vec::new();
    boards.push(if round % 2 == 1 { (a, m) } else { (m, a) });
    for k in 1..m / 2 {
        let k = i64::from(k);
        boards.push((wrap(i64::from(a) + k), wrap(i64::from(a) - k)));
    }
    // The dummy entrant (m when n is odd) is the bye.
    boards
        .into_iter()
        .map(|(w, b)| match (w > n, b > n) {
            (true, _) => (b, 0),
            (_, true) => (w, 0),
            _ => (w, b),
        })
        .collect()
}

impl Tournament {
    /// An individual event's signup: alone, no mates (tournament rules 2.5).
    pub(super) fn signup_alone(
        &mut self,
        player: &str,
        mates: &[String],
        now: crate::time::Timestamp,
    ) -> Result<String, TournamentError> {
        if mates.iter().any(|m| !m.is_empty()) {
            return Err(refused(format!(
                "{} is played alone: sign up without mates",
                self.settings.game.title()
            )));
        }
        if let Some(n) = self
            .team_of(player)
            .filter(|&n| self.team(n).is_some_and(|t| !t.withdrawn))
        {
            return Err(refused(format!(
                "you are already in, with pairing number {n}"
            )));
        }
        if self
            .signups
            .iter()
            .any(|s| s.player == player && !s.withdrawn)
        {
            return Err(refused("you are already signed up"));
        }
        if self.team_of(player).is_some() {
            return Err(refused(
                "you withdrew from this event once paired; you cannot come back",
            ));
        }
        let late = !self.teams.is_empty();
        if late && self.settings.format == Format::RoundRobin {
            return Err(refused(
                "the round robin's players are drawn already: nobody can join it now",
            ));
        }
        match self.signups.iter_mut().find(|s| s.player == player) {
            Some(s) => {
                s.withdrawn = false;
                s.time = now;
            }
            None => self.signups.push(super::Signup {
                player: player.to_string(),
                mates: Vec::new(),
                withdrawn: false,
                time: now,
            }),
        }
        let count = self.signups.iter().filter(|s| !s.withdrawn).count();
        let mut text = format!("{player} signed up; {count} players signed up");
        if late {
            text.push_str("; the event has begun: you are paired from the next round");
        }
        Ok(text)
    }

    /// An individual event's withdrawal: a signup goes; a seeded player is not paired again.
    pub(super) fn withdraw_alone(
        &mut self,
        player: &str,
        now: crate::time::Timestamp,
    ) -> Result<String, TournamentError> {
        let Some(s) = self
            .signups
            .iter_mut()
            .find(|s| s.player == player && !s.withdrawn)
        else {
            return Err(refused("you are not signed up"));
        };
        s.withdrawn = true;
        s.time = now;
        match self.team_of(player) {
            None => Ok(format!("{player} withdrew")),
            Some(n) => self.withdraw_team(n),
        }
    }

    /// Draws the pairing numbers of the players signed up and not yet seeded, with `seed`
    /// (they come after any seeded before: late entries join from the next round).
    ///
    /// # Errors
    /// The event is over, nobody waits to be seeded, or fewer than two players at the start.
    pub fn seed_players(&mut self, seed: u64) -> Result<String, TournamentError> {
        if self.finished {
            return Err(refused("this tournament is over"));
        }
        let waiting = self.unassigned();
        let least = if self.table_event() {
            self.table_size()
        } else {
            2
        };
        if self.teams.is_empty() && waiting.len() < least {
            return Err(refused(format!(
                "at least {least} players are needed; {} signed up",
                waiting.len()
            )));
        }
        if waiting.is_empty() {
            return Err(refused("every player signed up is seeded already"));
        }
        if !self.teams.is_empty() && self.settings.format == Format::RoundRobin {
            return Err(refused("the round robin's players are drawn already"));
        }
        let joined = self.paired_rounds();
        // Rated players first, highest first; the draw orders the rest (and equal ratings).
        let mut order = seeding(&waiting, seed);
        order.sort_by_key(|p| std::cmp::Reverse(self.ratings.get(p).map(|r| r.tenths)));
        let how = if order.iter().any(|p| self.ratings.contains_key(p)) {
            "by rating, then by a draw"
        } else {
            "by a draw"
        };
        let mut text = if self.teams.is_empty() {
            format!("players seeded {how} with seed {seed}:")
        } else {
            format!(
                "late entries seeded {how} with seed {seed}, from round {}:",
                joined + 1
            )
        };
        self.seed = seed;
        for p in order {
            let number = self.teams.len() as u32 + 1;
            match self.ratings.get(&p) {
                Some(r) => text.push_str(&format!("\n{number}. {p} (rating {})", r.shown)),
                None => text.push_str(&format!("\n{number}. {p}")),
            }
            self.teams.push(Team {
                number,
                players: vec![p],
                withdrawn: false,
                joined,
            });
        }
        Ok(text)
    }

    /// Pairs round `round` of a round robin by the Berger tables; a withdrawn player's games
    /// are lost by forfeit at once (and get no thread).
    pub(super) fn pair_berger(&mut self, round: u32, now: crate::time::Timestamp) -> Paired {
        let n = self.teams.len() as u32;
        let players_of =
            |t: &Tournament, e: u32| t.team(e).map(|t| t.players.clone()).unwrap_or_default();
        let mut boards = Vec::new();
        let mut bye = None;
        for (w, b) in berger_round(n, round) {
            if b == 0 {
                bye = Some(w);
                continue;
            }
            let mut players = players_of(self, w);
            players.extend(players_of(self, b));
            boards.push(Board {
                round,
                board: boards.len() as u32 + 1,
                white: w,
                black: b,
                thread: None,
                players,
            });
        }
        // A withdrawn player who sits out has no bye: they are simply not paired.
        if let Some(w) = bye.filter(|&w| self.team(w).is_some_and(|t| !t.withdrawn)) {
            boards.push(Board {
                round,
                board: boards.len() as u32 + 1,
                white: w,
                black: 0,
                thread: None,
                players: players_of(self, w),
            });
        }
        self.boards.extend(boards.iter().cloned());
        for b in boards.iter().filter(|b| b.black != 0) {
            let gone = |e: u32| self.team(e).is_some_and(|t| t.withdrawn);
            let res = match (gone(b.white), gone(b.black)) {
                (false, false) => continue,
                (true, true) => super::MatchResult::DoubleForfeit,
                (true, false) => super::MatchResult::BlackForfeitWin,
                (false, true) => super::MatchResult::WhiteForfeitWin,
            };
            self.put_result(round, b.board, res, WITHDRAWN, now);
        }
        let text = self.pairing_text(round);
        Paired {
            round,
            boards,
            text,
        }
    }
}

impl Tournament {
    /// How the event is run, in a few words: `Chex, Swiss` and the like.
    pub fn format_text(&self) -> String {
        let s = &self.settings;
        if self.table_event() {
            return format!(
                "{}, Swiss of tables of {}; points by place {}, bye {}",
                s.game.title(),
                self.table_size(),
                self.places_text(),
                super::tenths(self.table_bye_points())
            );
        }
        let mut text = format!(
            "{}, {}",
            s.game.title(),
            match s.format {
                Format::Swiss => "Swiss (FIDE Dutch)",
                Format::RoundRobin => "round robin (Berger tables)",
            }
        );
        let p = self.points();
        text.push_str(&format!(
            "; win {}, draw {}, loss {}, bye {}",
            super::tenths(p.win),
            super::tenths(p.draw),
            super::tenths(p.loss),
            super::tenths(p.pairing_bye)
        ));
        if s.losses_to_eliminate > 0 {
            text.push_str(&format!(
                "; eliminated after {} losses",
                s.losses_to_eliminate
            ));
        }
        text
    }

    /// The standings of an individual event: `<place>. <player> <points> (Buchholz …, SB …)`.
    pub(super) fn individual_standings_text(&self) -> Result<String, TournamentError> {
        let rows = self.standings()?;
        let mut text = format!(
            "{}: standings after round {} ({})",
            self.name,
            self.complete_rounds(),
            self.format_text()
        );
        for r in rows {
            let status = match r.status.as_str() {
                "active" => String::new(),
                other => format!(", {other}"),
            };
            text.push_str(&format!(
                "\n{}. {} {} (Buchholz {}, SB {}{status})",
                r.place,
                self.team_label(r.team),
                super::tenths(r.score),
                super::tenths(r.buchholz),
                super::hundredths(r.sonneborn_berger),
            ));
        }
        if self.finished {
            text.push('\n');
            text.push_str(&self.winner_line());
        }
        Ok(text)
    }

    /// `/tournament status` of an individual event.
    pub(super) fn individual_summary(&self) -> String {
        let mut s = format!(
            "{} (organiser {}): {}; ",
            self.name,
            self.organiser,
            self.format_text()
        );
        s.push_str(&self.progress_text("players"));
        s
    }
}

/// Who set a result that a withdrawal decided.
pub const WITHDRAWN: &str = "(withdrawn)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn berger_tables_match_fides_for_six() {
        // FIDE handbook C.05 annex 1, six players.
        assert_eq!(berger_round(6, 1), vec![(1, 6), (2, 5), (3, 4)]);
        assert_eq!(berger_round(6, 2), vec![(6, 4), (5, 3), (1, 2)]);
        assert_eq!(berger_round(6, 3), vec![(2, 6), (3, 1), (4, 5)]);
        assert_eq!(berger_round(6, 4), vec![(6, 5), (1, 4), (2, 3)]);
        assert_eq!(berger_round(6, 5), vec![(3, 6), (4, 2), (5, 1)]);
        assert!(berger_round(6, 6).is_empty());
    }

    #[test]
    fn every_pair_meets_once_and_odd_fields_sit_out_once() {
        for n in 2..=13u32 {
            let mut met = std::collections::BTreeSet::new();
            let mut byes = Vec::new();
            for r in 1..=berger_rounds(n) {
                let mut seen = std::collections::BTreeSet::new();
                for (w, b) in berger_round(n, r) {
                    assert!(seen.insert(w));
                    if b == 0 {
                        byes.push(w);
                        continue;
                    }
                    assert!(seen.insert(b));
                    assert!(met.insert((w.min(b), w.max(b))), "n {n} round {r}");
                }
                assert_eq!(seen.len() as u32, n);
            }
            assert_eq!(met.len() as u32, n * (n - 1) / 2);
            byes.sort_unstable();
            let expected: Vec<u32> = if n % 2 == 1 {
                (1..=n).collect()
            } else {
                vec![]
            };
            assert_eq!(byes, expected);
        }
    }

    #[test]
    fn kfb_settings_store_as_before_and_old_ones_read_as_kfb() {
        let json = serde_json::to_string(&super::super::Settings::default()).unwrap();
        for key in [
            "game",
            "format",
            "match_points",
            "table",
            "places",
            "options",
        ] {
            assert!(!json.contains(key), "{json}");
        }
        let old = r#"{"losses_to_eliminate":2,"rounds":null,"win":2,"draw":1,"loss":0,"move_limit":21600,"inactivity_posts":18}"#;
        let s: super::super::Settings = serde_json::from_str(old).unwrap();
        assert_eq!(s.game, EventGame::Kfb);
        assert_eq!(s.format, Format::Swiss);
        assert!(s.options.is_empty() && s.match_points.is_none());
    }

    #[test]
    fn a_tables_places_store_and_read_back() {
        let e = super::super::ResultEntry {
            round: 1,
            board: 2,
            result: super::super::MatchResult::Placed,
            set_by: "org".into(),
            time: 0,
            places: vec![1, 2, 2, 4],
        };
        assert_eq!(e.stored_code(), "places:1,2,2,4");
        assert_eq!(
            super::super::ResultEntry::from_code(&e.stored_code()),
            Ok((super::super::MatchResult::Placed, vec![1, 2, 2, 4]))
        );
        assert!(super::super::ResultEntry::from_code("places:1,x").is_err());
    }

    #[test]
    fn points_parse_in_tenths() {
        assert_eq!(parse_match_points("1/0.5/0"), Ok([10, 5, 0, 10]));
        assert_eq!(parse_match_points("3/1/0/1"), Ok([30, 10, 0, 10]));
        assert!(parse_match_points("1/1/0").is_err());
        assert!(parse_match_points("1/0.25/0").is_err());
        assert_eq!(parse_place_points("3/2/1/0"), Ok(vec![3, 2, 1, 0]));
        assert!(parse_place_points("1/2").is_err());
    }
}
