//! Entrants (tournament rules 2.1): signups and named mates, withdrawals, substitutes, a team
//! withdrawn, and teams formed from one shown seed. Each refuses with a reason and changes
//! nothing when refused.

use super::*;

impl Tournament {
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
    pub(super) fn mate_links(&self) -> Vec<(String, String)> {
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
    pub(super) fn team_in_play(&self, team: u32) -> Result<usize, TournamentError> {
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
    pub(super) fn seat_in_next_match(&mut self, player: &str, by: &str) {
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

    pub(super) fn unfinished_match_of(&self, team: u32) -> Option<(u32, u32)> {
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
}
