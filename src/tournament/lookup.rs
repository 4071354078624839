//! Looking things up in an event: its people, rounds and boards, results and what is missing,
//! teams, players and their seats, labels and entrant names, the match a thread belongs to,
//! and the round limit. Read-only.

use super::*;

impl Tournament {
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
    pub(super) fn team_size(&self) -> usize {
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

    pub(super) fn label_of(&self, team: u32, players: &[String]) -> String {
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
}
