//! Scoring (tournament rules 2.2, 2.3): losses and elimination, the Swiss view rebuilt from the
//! stored facts (`to_swiss`, the TRF export), the champion, the standings with their
//! tie-breaks and the texts that show them.

use super::*;

impl Tournament {
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

    pub(super) fn points(&self) -> PointSystem {
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
    pub(super) fn progress_text(&self, entrants: &str) -> String {
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
}
