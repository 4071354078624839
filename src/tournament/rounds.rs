//! Rounds (tournament rules 2.2, 2.4): pairing the next round, its text, each match's seed,
//! settings, players and thread, results set by hand or by a game, elimination and the end of
//! the event, and a result withdrawn when its game is reverted.

use super::*;

impl Tournament {
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
    pub(super) fn result_text(&self, b: &Board, res: MatchResult) -> String {
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
    pub(super) fn elimination_text(&self, b: &Board) -> String {
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
    pub(super) fn round_news(&mut self, round: u32) -> String {
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

    pub(super) fn put_result(
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
    pub(super) fn check_end(&mut self) -> Option<String> {
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

    /// A match's result withdrawn because its game is no longer over (a move was reverted),
    /// while its round is the current one; `what` names it (`board 2`, `table 2`).
    pub(super) fn withdraw_reverted(&mut self, round: u32, board: u32, what: &str) -> String {
        self.results
            .retain(|r| !(r.round == round && r.board == board));
        format!(
            "round {round} {what} {board}: the game is no longer over (a move was reverted); its result is withdrawn"
        )
    }
}
