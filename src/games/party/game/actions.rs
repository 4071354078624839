//! Requests applied to the game: checked against seats, turns and the Umpire's rights, then
//! written to the log and folded; takebacks, reverts and a member leaving the server. A
//! refused request changes nothing, its log included.

use super::*;

impl Game {
    /// Applies a request by `actor` at `now` (`umpire`: the actor may act as Chess-Umpire).
    /// An accepted one first writes the default plays that fell due before it (its reply
    /// lists them).
    ///
    /// # Errors
    /// Why it is refused; nothing about the game changes, its log included (the default
    /// plays due are the timer sweep's to announce).
    pub fn apply(
        &mut self,
        actor: &str,
        umpire: bool,
        request: Request,
        now: Timestamp,
        command: &str,
    ) -> R<Accepted> {
        let (state, logged) = (self.state.clone(), self.log.len());
        let done = self.apply_caught_up(actor, umpire, request, now, command);
        if done.is_err() {
            self.state = state;
            self.log.truncate(logged);
        }
        done
    }

    /// [`Game::apply`], the default plays due written first whatever the outcome.
    pub(super) fn apply_caught_up(
        &mut self,
        actor: &str,
        umpire: bool,
        request: Request,
        now: Timestamp,
        command: &str,
    ) -> R<Accepted> {
        let expired = self.materialize(now);
        let pre: Vec<String> = expired.into_iter().map(|e| e.text).collect();
        let umpire = umpire || actor == self.state.umpire;
        if let Some(result) = &self.state.ended {
            if !matches!(
                request,
                Request::Takeback | Request::Revert(..) | Request::Ledger(..)
            ) {
                return refuse(format!(
                    "this game has ended: the Chess-Umpire ended it with the result {result}"
                ));
            }
        }
        let before = self.to_play();
        let action = match request {
            Request::Pick(letters) => {
                let seat = self.seated(actor)?;
                if self.state.picked.contains(&seat) {
                    return Err("you have picked your pieces already".into());
                }
                let pieces = parse_pick(&letters)?;
                Action::Pick { seat, pieces }
            }
            Request::Play(text) => {
                let seat = self.my_turn(actor)?;
                let play = notation::resolve(&self.state.pos, &text)
                    .map_err(|e| self.check_first(seat, e))?;
                Action::Play {
                    seat,
                    notation: echo(&self.state.pos, &play),
                    how: How::Typed,
                }
            }
            Request::Pass => {
                let seat = self.my_turn(actor)?;
                let play = notation::resolve(&self.state.pos, "pass")
                    .map_err(|e| self.check_first(seat, e))?;
                Action::Play {
                    seat,
                    notation: echo(&self.state.pos, &play),
                    how: How::Typed,
                }
            }
            Request::Surrender => {
                let seat = self.seated(actor)?;
                if self.to_play() == Some(seat) {
                    Action::Play {
                        seat,
                        notation: "surrender".into(),
                        how: How::Typed,
                    }
                } else if self.state.warm.contains(&seat) && self.state.started {
                    Action::Play {
                        seat,
                        notation: "surrender".into(),
                        how: How::OutOfTurn,
                    }
                } else {
                    return refuse(self.not_your_turn());
                }
            }
            Request::Extend(user, until) => {
                self.need_umpire(umpire)?;
                let seat = self.seat_named(&user)?;
                if self.to_play() != Some(seat) {
                    return refuse(format!(
                        "only the current turn can be extended, and it is {}'s",
                        self.to_play().map_or("nobody", |s| self.user(s))
                    ));
                }
                if until > MAX_EXTENSION {
                    return Err(
                        "a turn can be extended to at most 7d after the announcement".into(),
                    );
                }
                let new = self.state.turn_started + until;
                if Some(new) <= self.deadline() {
                    return refuse(format!(
                        "that does not extend the turn: it already runs {} after the announcement",
                        format_duration(
                            self.deadline()
                                .unwrap_or(0)
                                .saturating_sub(self.state.turn_started)
                        )
                    ));
                }
                Action::Extend { seat, until }
            }
            Request::Resume => {
                self.need_umpire(umpire)?;
                if self.state.stalled.is_none() {
                    return Err("this game is not paused".into());
                }
                Action::Resume
            }
            Request::Warm(user, on) => {
                self.need_umpire(umpire)?;
                let seat = self.seat_named(&user)?;
                if self.state.warm.contains(&seat) == on {
                    return refuse(format!(
                        "{user} is {} Warm already",
                        if on { "" } else { "not" }
                    ));
                }
                Action::Warm { seat, on }
            }
            Request::Left(user) => {
                let seat = self.seat_named(&user)?;
                if self.state.warm.contains(&seat) {
                    return refuse(format!("{user} is Warm already"));
                }
                Action::Left { seat }
            }
            Request::Add(user) => {
                self.need_umpire(umpire)?;
                if self.seat_of(&user).is_some() {
                    return refuse(format!("{user} is a Swinger already"));
                }
                Action::AddSwinger { user }
            }
            Request::Remove(user) => {
                self.need_umpire(umpire)?;
                let seat = self.seat_named(&user)?;
                if self.state.pos.list.len() <= 2 {
                    return Err("Party Chess needs at least two Swingers".into());
                }
                Action::RemoveSwinger { seat }
            }
            Request::Create(letter, user) => {
                self.need_umpire(umpire)?;
                let seat = self.seat_named(&user)?;
                let kind = parse_kind(&letter)?;
                if let Some(l) = kind.limit() {
                    if self.state.pos.owned(seat, kind) >= l {
                        return refuse(format!(
                            "{user} owns a {} already (the limit is {l})",
                            kind.name()
                        ));
                    }
                }
                Action::Create { seat, kind }
            }
            Request::Ledger(entry, text) => {
                self.need_umpire(umpire)?;
                if text.trim().is_empty() {
                    return Err("say what the ledger line is with text:<text>".into());
                }
                if let Some(n) = entry {
                    if n == 0 || n > self.state.ledger.len() {
                        return refuse(format!(
                            "there is no ledger line {n} (lines 1 to {})",
                            self.state.ledger.len()
                        ));
                    }
                }
                Action::Ledger { entry, text }
            }
            Request::Substitute(h) => Action::Substitute(h),
            Request::End => {
                self.need_umpire(umpire)?;
                Action::End {
                    result: self.weights_line(),
                }
            }
            Request::Takeback => return self.takeback(actor, now, command, pre),
            Request::Revert(to, reason) => {
                return self.revert(Reverting::new(to, actor, &reason, now, command))
            }
        };
        let is_play = matches!(action, Action::Play { .. });
        let mut st = self.state.clone();
        let mut lines = Vec::new();
        fold(&mut st, &self.settings, &action, now, &mut lines)?;
        self.state = st;
        let number = self.log.push(actor, now, command, action, true);
        // Only a change of who must act pings: a play always begins a new turn; the
        // Umpire's bookkeeping (an extension, Warmth off, a ledger line) pings nobody.
        let fresh = is_play || self.to_play() != before;

        let mut out = lines;
        if !pre.is_empty() {
            out.push(format!("Fallen due before it:\n{}", pre.join("\n")));
        }
        Ok(self.accepted(number, out, fresh))
    }

    pub(super) fn accepted(
        &self,
        number: Option<u32>,
        mut lines: Vec<String>,
        fresh: bool,
    ) -> Accepted {
        let mut notify = Vec::new();
        if let Some(result) = &self.state.ended {
            lines.push(format!("The game is over. Result: {result}"));
        } else if self.state.started {
            let checked = self.in_check();
            if !checked.is_empty() {
                let names: Vec<&str> = checked.iter().map(|&s| self.user(s)).collect();
                lines.push(format!("In check: {}.", names.join(", ")));
                if fresh {
                    for &s in &checked {
                        notify.push((
                            self.user(s).to_string(),
                            "you are in check in Party Chess".to_string(),
                        ));
                    }
                }
            }
            lines.push(self.weights_line());
            if let Some(s) = self.to_play() {
                lines.push(format!("{} to play.", self.user(s)));
                if fresh {
                    notify.push((
                        self.user(s).to_string(),
                        "your turn in Party Chess".to_string(),
                    ));
                }
            }
        } else {
            let waiting = self.waiting_picks();
            if !waiting.is_empty() {
                lines.push(format!("Waiting for pieces from: {}.", waiting.join(", ")));
            }
        }
        Accepted {
            number,
            text: lines.join("\n"),
            notify,
        }
    }

    /// Swingers who have not picked their pieces.
    pub fn waiting_picks(&self) -> Vec<String> {
        self.state
            .pos
            .list
            .iter()
            .filter(|s| !self.state.picked.contains(s))
            .map(|&s| self.user(s).to_string())
            .collect()
    }

    pub(super) fn seated(&self, user: &str) -> R<u8> {
        self.seat_of(user)
            .ok_or_else(|| "you are not a Swinger in this game".into())
    }

    pub(super) fn seat_named(&self, user: &str) -> R<u8> {
        let u = user.trim().trim_start_matches('@');
        self.seat_of(u)
            .ok_or_else(|| Refusal::Rule(format!("{u} is not a Swinger in this game")))
    }

    pub(super) fn need_umpire(&self, umpire: bool) -> R<()> {
        if umpire {
            Ok(())
        } else {
            Err(Refusal::Rule(format!(
                "only the Chess-Umpire ({}) may do that",
                self.state.umpire
            )))
        }
    }

    pub(super) fn not_your_turn(&self) -> String {
        match self.to_play() {
            Some(s) => format!("it is {}'s turn, not yours", self.user(s)),
            None => format!(
                "play has not begun: waiting for pieces from {} (/party pieces set:<five letters>)",
                self.waiting_picks().join(", ")
            ),
        }
    }

    /// A refusal while the mover is in check says so first, with the legal plays (at most
    /// 12, then `…`).
    pub(super) fn check_first(&self, seat: u8, why: String) -> String {
        let pos = &self.state.pos;
        let Some(k) = pos.king(seat).filter(|_| in_check(pos, seat)) else {
            return why;
        };
        let legal = notation::legal_texts(pos);
        let mut list: Vec<String> = legal.iter().take(12).cloned().collect();
        if legal.len() > 12 {
            list.push("…".into());
        }
        format!(
            "your King on {} is in check; legal moves: {}\n{why}",
            k.name(),
            list.join(" ")
        )
    }

    pub(super) fn my_turn(&self, user: &str) -> R<u8> {
        let seat = self.seated(user)?;
        if self.to_play() != Some(seat) {
            return refuse(self.not_your_turn());
        }
        Ok(seat)
    }

    pub(super) fn takeback(
        &mut self,
        user: &str,
        now: Timestamp,
        command: &str,
        pre: Vec<String>,
    ) -> R<Accepted> {
        let (number, line) =
            self.take_back(user, now, command, |undone| Action::Takeback { undone })?;
        let mut out = vec![line];
        if !pre.is_empty() {
            out.push(format!("Fallen due before it: {}", pre.join(" ")));
        }
        Ok(self.accepted(number, out, true))
    }

    pub(super) fn revert(&mut self, by: Reverting<'_>) -> R<Accepted> {
        let (number, line) = self.revert_logged(&by, |to, reason| Action::Revert { to, reason })?;
        Ok(self.accepted(number, vec![line], true))
    }

    /// A user left the server: every seat of theirs becomes Warm (Party rules 3.6), as the
    /// bot's own action; `None` when they hold no seat here or are Warm already.
    pub fn member_left(&mut self, user: &str, now: Timestamp) -> Option<Accepted> {
        self.seat_of(user)?;
        self.apply(
            "arbiter",
            false,
            Request::Left(user.to_string()),
            now,
            &format!("({user} left the server)"),
        )
        .ok()
    }
}
