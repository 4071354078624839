//! A Referee's and the organiser's bookkeeping: pausing and resuming, assigning armies, edits
//! of the position, clocks, controllers, the undead and the budget, the Order, settings and the
//! list of Referees. Each checks the right to act first and changes nothing when refused.

use super::*;

impl<'a> Fold<'a> {
    /// `/pause`: a Referee pauses play (Nomic rules 6.10).
    pub(super) fn pause(&mut self) -> Result<(), Refusal> {
        self.need_referee("pause play")?;
        if self.st.paused.is_some() {
            return refuse("play is paused already");
        }
        if self.st.over {
            return refuse("the game is over");
        }
        self.st.paused = Some(self.t);
        self.lines
            .push("Play is paused by a Referee; player actions are refused until /resume.".into());
        Ok(())
    }

    /// `/resume`: a Referee resumes play; the running limits are extended by the pause
    /// (Nomic rules 6.10).
    pub(super) fn resume(&mut self) -> Result<(), Refusal> {
        if self.st.paused.is_none() {
            return refuse("play is not paused");
        }
        if self.st.stalled && self.organiser() {
            // The organiser resumes a game paused for want of play.
        } else {
            self.need_referee("resume play")?;
        }
        self.st.end_pause(self.t);
        self.lines
            .push("Play resumes; the running limits are extended by the pause.".into());
        Ok(())
    }

    /// `/assign`: a Referee gives an army to a player, such as a tied or forfeited player's
    /// army (Nomic rules 6.6, 6.10a).
    pub(super) fn assign(&mut self, army: usize, to: usize) -> Result<(), Refusal> {
        self.need_referee("assign an army")?;
        if self.st.over {
            return refuse("the game is over");
        }
        if army >= self.n || to >= self.n {
            return refuse("no such army or player");
        }
        let name = &self.ctx.players[to];
        if self.st.pos.forfeited[to] {
            return refuse(format!("{name} has forfeited"));
        }
        if self.st.pos.controllers[army] != Some(to) {
            self.st.call(
                name,
                &format!("army {} is assigned to you: you play its turns", army + 1),
            );
        }
        self.st.pos.controllers[army] = Some(to);
        self.st.pos.offers.retain(|&a| a != army);
        self.lines
            .push(format!("Army {} is assigned to {name}.", army + 1));
        self.update_living();
        self.offers_withdrawn();
        if !self.st.over && self.st.pos.turn.slot == Slot::Idle {
            self.start_first();
        }
        Ok(())
    }

    /// `/edit …`: a Referee edits the position, a clock, the budget, a forfeit, a controller
    /// or the undead; a demotion the edit leaves nothing to do for is settled (Nomic rules
    /// 6.10).
    pub(super) fn edit(&mut self, edit: &Edit) -> Result<(), Refusal> {
        self.need_referee("edit the game")?;
        match edit {
            Edit::Put { square, kind, army } => self.edit_put(*square, *kind, *army)?,
            Edit::Remove { square } => self.edit_remove(*square)?,
            Edit::Move { from, to } => self.edit_move(*from, *to)?,
            Edit::Position { text } => self.edit_position(text)?,
            Edit::Clock { add } => self.edit_clock(*add)?,
            Edit::ClockLeft { left } => self.edit_clock_left(*left)?,
            Edit::Controller { army, player } => self.edit_controller(*army, *player)?,
            Edit::Undead { order } => self.edit_undead(order)?,
            Edit::Budget { s, involved } => self.edit_budget(s, involved)?,
            Edit::Forfeited { player, on } => self.edit_forfeited(*player, *on)?,
        }
        self.demotion_settled();
        Ok(())
    }

    /// `/edit put`: a piece put on a square.
    pub(super) fn edit_put(
        &mut self,
        square: Local,
        kind: Kind,
        army: usize,
    ) -> Result<(), Refusal> {
        if square.half >= self.n || army >= self.n {
            return refuse("no such half or army");
        }
        self.st.pos.set(
            square,
            Some(Piece {
                kind,
                army,
                moved: true,
            }),
        );
        self.lines.push(format!(
            "Edit: {}{} put on {}.",
            kind.letter(),
            army + 1,
            square.name()
        ));
        Ok(())
    }

    /// `/edit remove`: the piece on a square removed.
    pub(super) fn edit_remove(&mut self, square: Local) -> Result<(), Refusal> {
        if self.st.pos.at(square).is_none() {
            return refuse(format!("{} is empty", square.name()));
        }
        self.st.pos.set(square, None);
        self.lines
            .push(format!("Edit: the piece on {} is removed.", square.name()));
        Ok(())
    }

    /// `/edit move`: a piece moved from one square to another.
    pub(super) fn edit_move(&mut self, from: Local, to: Local) -> Result<(), Refusal> {
        let Some(p) = self.st.pos.at(from) else {
            return refuse(format!("{} is empty", from.name()));
        };
        if to.half >= self.n {
            return refuse("no such half");
        }
        self.st.pos.set(from, None);
        self.st.pos.set(to, Some(Piece { moved: true, ..p }));
        self.lines.push(format!(
            "Edit: the piece on {} moved to {}.",
            from.name(),
            to.name()
        ));
        Ok(())
    }

    /// `/edit position`: the whole position replaced from its text; another turn or part
    /// starts its limit now.
    pub(super) fn edit_position(&mut self, text: &str) -> Result<(), Refusal> {
        let pos =
            Position::from_text(text).map_err(|e| format!("the position does not read: {e}"))?;
        let n = self.n;
        if pos.players() != n {
            return refuse(format!("the game has {n} half-boards"));
        }
        if (pos.turn.slot, pos.turn.part) != (self.st.pos.turn.slot, self.st.pos.turn.part) {
            // Another turn or part: its limit starts now.
            self.st.clock = self.t;
        }
        self.st.pos = pos;
        self.lines.push("Edit: the position is replaced.".into());
        self.update_living();
        Ok(())
    }

    /// `/edit clock add:`: the running limit gets more time.
    pub(super) fn edit_clock(&mut self, add: u64) -> Result<(), Refusal> {
        let Some(which) = self.st.running() else {
            return refuse("no limit is running now");
        };
        self.st
            .move_limit(which, i64::try_from(add).unwrap_or(i64::MAX));
        self.lines.push(format!(
            "Edit: the running limit ({}) gets {} more.",
            running_name(which),
            format_duration(add)
        ));
        Ok(())
    }

    /// `/edit clock left:`: the time left on the running limit, from now or, while paused,
    /// from the resumption: the limit's start is put where the layer's clock has `left` of
    /// it remain now.
    pub(super) fn edit_clock_left(&mut self, left: u64) -> Result<(), Refusal> {
        let Some(which) = self.st.running() else {
            return refuse("no limit is running now");
        };
        let (user, start, limit, stops) = self.st.limit_parts(which, self.ctx);
        let want = self
            .ctx
            .away
            .start_for(&user, self.t, limit.saturating_sub(left), &stops)
            .saturating_add(left.saturating_sub(limit));
        let delta =
            i64::try_from(want).unwrap_or(i64::MAX) - i64::try_from(start).unwrap_or(i64::MAX);
        self.st.move_limit(which, delta);
        self.lines.push(format!(
            "Edit: the running limit ({}) has {} left{}.",
            running_name(which),
            format_duration(left),
            if self.st.paused.is_some() {
                " once play resumes"
            } else {
                ""
            }
        ));
        Ok(())
    }

    /// `/edit controller`: an army's controller set, or its control made pending; a turn
    /// its army can no longer play ends (Nomic rules 6.6).
    pub(super) fn edit_controller(
        &mut self,
        army: usize,
        to: Option<usize>,
    ) -> Result<(), Refusal> {
        if army >= self.n {
            return refuse("no such army");
        }
        if to.is_some_and(|p| p >= self.n) {
            return refuse("no such player");
        }
        if let Some(p) = to.filter(|&p| self.st.pos.controllers[army] != Some(p)) {
            self.st.call(
                &self.ctx.players[p],
                &format!("army {} is now yours: you play its turns", army + 1),
            );
        }
        self.st.pos.controllers[army] = to;
        self.st.pos.offers.retain(|&a| a != army);
        self.lines.push(match to {
            Some(p) => format!(
                "Edit: army {} is controlled by {}.",
                army + 1,
                self.ctx.players[p]
            ),
            None => format!("Edit: army {}'s control is pending.", army + 1),
        });
        self.update_living();
        self.offers_withdrawn();
        if !self.st.over {
            match self.st.pos.turn.slot {
                Slot::Idle => self.start_first(),
                Slot::Army(a) if !self.st.playable(a) && self.st.open_vote().is_none() => {
                    self.lines.push(format!(
                        "Army {} has no controller who may play it: its turn ends.",
                        a + 1
                    ));
                    self.st.pos.offers.clear();
                    self.st.demotion = None;
                    self.end_turn();
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// `/edit undead`: the times of infection, as the undead players earliest first
    /// (Nomic rules 6.7).
    pub(super) fn edit_undead(&mut self, order: &[usize]) -> Result<(), Refusal> {
        let players = self.ctx.players;
        let names_of = |undead: &[usize]| -> String {
            let names: Vec<&str> = undead.iter().map(|&p| players[p].as_str()).collect();
            if names.is_empty() {
                "-".to_string()
            } else {
                names.join(", ")
            }
        };
        let mut want = order.to_vec();
        want.sort_unstable();
        want.dedup();
        let mut now_undead = self.st.pos.infected.clone();
        now_undead.sort_unstable();
        if want.len() != order.len() || want != now_undead {
            return refuse(format!(
                "name every undead player once, earliest infection first (undead now: {}); a player becomes living or undead by the armies they control (/edit controller)",
                names_of(&self.st.pos.infected)
            ));
        }
        self.st.pos.infected = order.to_vec();
        let names = names_of(order);
        self.lines.push(format!(
            "Edit: the undead, earliest infection first: {names}."
        ));
        Ok(())
    }

    /// `/edit budget`: the halves of the move budget, and those involved already (Nomic
    /// rules 6.4).
    pub(super) fn edit_budget(&mut self, s: &[bool], involved: &[bool]) -> Result<(), Refusal> {
        if s.len() != self.n || involved.len() != self.n {
            return refuse("no such half");
        }
        self.st.pos.turn.s = s.to_vec();
        self.st.pos.turn.involved = involved.to_vec();
        self.lines.push("Edit: the budget is set.".into());
        Ok(())
    }

    /// `/edit forfeited`: a player's forfeit set or cleared.
    pub(super) fn edit_forfeited(&mut self, q: usize, on: bool) -> Result<(), Refusal> {
        if q >= self.n {
            return refuse("no such player");
        }
        self.st.pos.forfeited[q] = on;
        self.lines.push(format!(
            "Edit: {} is {}.",
            self.ctx.players[q],
            if on {
                "marked as forfeited"
            } else {
                "back in the game"
            }
        ));
        self.update_living();
        Ok(())
    }

    /// After an edit, a demotion waited for from an author who has forfeited or holds no
    /// non-king piece is settled: there is nothing to demote.
    pub(super) fn demotion_settled(&mut self) {
        let Some(d) = self.st.demotion.clone() else {
            return;
        };
        if self.st.over {
            return;
        }
        let author = &self.ctx.players[d.author];
        if self.st.pos.forfeited[d.author] {
            self.lines
                .push(format!("{author} has forfeited: no demotion."));
            self.after_proposal(d.held);
        } else if self.st.demotable(d.author).is_empty() {
            self.lines.push(format!("{author} has no piece to demote."));
            self.after_proposal(d.held);
        }
    }

    /// `/order set:`: a Referee sets the Order of armies (Nomic rules 6.7).
    pub(super) fn order(&mut self, order: &[usize]) -> Result<(), Refusal> {
        self.need_referee("set the Order")?;
        let n = self.n;
        let mut s = order.to_vec();
        s.sort_unstable();
        if s != (0..n).collect::<Vec<_>>() {
            return refuse(format!("list every army 1 to {n} once, like set:2,1,3"));
        }
        self.st.pos.order = order.to_vec();
        let o: Vec<String> = order.iter().map(|a| (a + 1).to_string()).collect();
        self.lines
            .push(format!("The Order is now {}.", o.join(", ")));
        Ok(())
    }

    /// `/set key:value`: a Referee changes a setting: a time limit, the proposal length,
    /// friendly capture or the pace (Nomic rules 6.8, 6.10).
    pub(super) fn set(&mut self, key: &str, value: &str) -> Result<(), Refusal> {
        self.need_referee("change settings")?;
        let dur = |v: &str| match v {
            "none" | "off" => Ok(NO_LIMIT),
            _ => crate::time::parse_duration(v).map_err(|e| e.to_string()),
        };
        let settings = &mut self.st.settings;
        match key {
            "part1_limit" => settings.part1_limit = dur(value)?,
            "part3_limit" => settings.part3_limit = dur(value)?,
            "vote_limit" => settings.vote_limit = dur(value)?,
            "proposal_max" => {
                settings.proposal_max = match value.parse::<usize>() {
                    Ok(v) if v > 0 => v,
                    _ => return refuse("proposal_max is a number of characters"),
                }
            }
            "friendly_capture" => {
                settings.friendly_capture = match value {
                    "on" | "true" | "yes" => true,
                    "off" | "false" | "no" => false,
                    _ => return refuse("friendly_capture is on or off"),
                }
            }
            "pace" => {
                let l = match value {
                    "live" => LIVE,
                    "async" => ASYNC,
                    _ => return refuse("pace is live or async"),
                };
                settings.part1_limit = l;
                settings.part3_limit = l;
                settings.vote_limit = l;
            }
            _ => {
                return refuse(
                    "settings: part1_limit, part3_limit, vote_limit, proposal_max, friendly_capture, pace",
                )
            }
        }
        self.lines.push(format!("Setting {key} is now {value}."));
        Ok(())
    }

    /// `/nomic referee add|remove`: the organiser adds or removes a Referee; at least one
    /// stays (Nomic rules 6.10).
    pub(super) fn referees(&mut self, add: bool, user: &str) -> Result<(), Refusal> {
        if !self.organiser() {
            return refuse("only the organiser may add or remove Referees");
        }
        let user = user.trim().to_string();
        if user.is_empty() {
            return refuse("name the Referee: /nomic referee add player:@x");
        }
        let actor = self.actor;
        if add {
            if self.st.is_referee(&user) {
                return refuse(format!("{user} is a Referee already"));
            }
            self.st.settings.referees.push(user.clone());
            self.lines.push(format!(
                "{user} is now a Referee (added by {actor}); Referees: {}.",
                self.st.settings.referees.join(", ")
            ));
            self.st.call(
                &user,
                "you are now a Referee of this Nomic Chess game (/help lists the Referees' commands)",
            );
        } else {
            if !self.st.is_referee(&user) {
                return refuse(format!(
                    "{user} is not a Referee (Referees: {})",
                    self.st.settings.referees.join(", ")
                ));
            }
            if self.st.settings.referees.len() == 1 {
                return refuse(
                    "a game keeps at least one Referee: add another first (/nomic referee add player:@x)",
                );
            }
            self.st.settings.referees.retain(|r| *r != user);
            self.lines.push(format!(
                "{user} is no longer a Referee (removed by {actor}); Referees: {}.",
                self.st.settings.referees.join(", ")
            ));
        }
        Ok(())
    }
}
