//! Applying one action to the state (`fold`): the checks every action shares, the state's steps
//! reported in the reply, and the players' actions on the board (start, push, move on J, done,
//! take, forfeit). Proposals and votes are in `proposals`, a Referee's actions in `referee`.

use super::*;

/// Applies one action by `actor` at `t`: the reply's lines, or a refusal. A `/move` is stored
/// as echoed (`notation` becomes the canonical move text).
pub(super) fn fold(
    st: &mut State,
    ctx: &Ctx<'_>,
    actor: &str,
    action: &mut Action,
    t: Timestamp,
) -> Result<Vec<String>, Refusal> {
    st.calls.clear();
    st.mated.clear();
    let mut woke = false;
    if ctx.players.iter().any(|p| p == actor)
        && !matches!(action, Action::Start { .. } | Action::Resume)
    {
        // A player's action: turns no longer run out in a row, and a game paused for want
        // of play resumes (if the action is refused, this state is dropped with it).
        woke = st.stalled;
        st.unstall(t);
    }
    let mut f = Fold::new(st, ctx, actor, t);
    if woke {
        f.lines.push(
            "Play resumes (the game was paused for want of play); the limits run from now.".into(),
        );
    }
    match action {
        Action::Start { position, order } => f.start(position.as_deref(), order)?,
        Action::Push { join } => f.push(*join)?,
        Action::Move { notation } => f.move_on_j(notation)?,
        Action::Done => f.done()?,
        Action::Take { army } => f.take(*army, true)?,
        Action::Decline { army } => f.take(*army, false)?,
        Action::Propose {
            text,
            number,
            immutable,
        } => f.propose(text, *number, *immutable)?,
        Action::Vote { proposal, choice } => f.vote(*proposal, *choice)?,
        Action::Demote { square } => f.demote(*square)?,
        Action::Forfeit => f.forfeit()?,
        Action::Judgment { question, partisan } => f.judgment(question, partisan)?,
        Action::Judge { judgment, text } => f.judge(*judgment, text)?,
        Action::Overrule { judgment } => f.overrule(*judgment)?,
        Action::Pause => f.pause()?,
        Action::Resume => f.resume()?,
        Action::Substitute(h) => {
            // The incoming player starts with a fresh limit (RULINGS §9).
            if f.st.current_player() == Some(h.seat) && f.st.paused.is_none() {
                f.st.clock = f.t;
            }
            f.lines
                .push(format!("@{} plays @{}'s seat from now on.", h.to, h.from));
        }
        Action::Assign { army, player } => f.assign(*army, *player)?,
        Action::Edit(edit) => f.edit(edit)?,
        Action::Order { order } => f.order(order)?,
        Action::Set { key, value } => f.set(key, value)?,
        Action::Void { proposal } => f.void(*proposal)?,
        Action::Fix { proposal, text } => f.fix(*proposal, text)?,
        Action::Referee { add, user } => f.referees(*add, user)?,
        Action::Takeback { .. } | Action::Revert { .. } => {}
    }
    Ok(f.lines)
}

impl<'a> Fold<'a> {
    pub(super) fn new(
        st: &'a mut State,
        ctx: &'a Ctx<'a>,
        actor: &'a str,
        t: Timestamp,
    ) -> Fold<'a> {
        let player = ctx.players.iter().position(|u| u == actor);
        let referee = st.is_referee(actor);
        let n = st.pos.players();
        Fold {
            st,
            ctx,
            actor,
            player,
            referee,
            n,
            t,
            lines: Vec::new(),
        }
    }

    // ----- shared checks -------------------------------------------------------------

    /// Refuses unless the actor is a Referee.
    pub(super) fn need_referee(&self, what: &str) -> Result<(), Refusal> {
        if self.referee {
            Ok(())
        } else {
            refuse(format!("only a Referee may {what}"))
        }
    }

    /// Refuses once the game is over, or while a Referee has paused play.
    pub(super) fn in_play(&self) -> Result<(), Refusal> {
        if self.st.over {
            return refuse(match self.st.winner {
                Some(w) => format!(
                    "the game is over: {} won; no more game actions",
                    self.ctx.players[w]
                ),
                None => "the game is over".into(),
            });
        }
        if self.st.paused.is_some() {
            return refuse("play is paused by a Referee; wait for /resume");
        }
        Ok(())
    }

    /// The player whose turn it is, checked to be the actor.
    pub(super) fn turn_player(&self) -> Result<usize, Refusal> {
        self.in_play()?;
        let Some(p) = self.player else {
            return refuse("you are not a player in this game");
        };
        if self.st.pos.forfeited[p] {
            return refuse("you have forfeited the game");
        }
        match self.st.current_player() {
            Some(c) if c == p => Ok(p),
            Some(c) => refuse(format!("it is {}'s turn, not yours", self.ctx.players[c])),
            None => refuse("no one's turn: the game waits for a Referee"),
        }
    }

    /// The player whose turn it is and the army they move, checked.
    pub(super) fn mover(&self) -> Result<(usize, usize), Refusal> {
        let p = self.turn_player()?;
        let Slot::Army(army) = self.st.pos.turn.slot else {
            return refuse("an undead player does not move; /propose or /done");
        };
        Ok((p, army))
    }

    /// The actor holds the organiser role, or created the game.
    pub(super) fn organiser(&self) -> bool {
        self.ctx.organiser_role || self.actor == self.ctx.organiser
    }

    /// The index of a proposal a Referee acts on, checked to be open.
    pub(super) fn open_proposal(&self, proposal: u32) -> Result<usize, Refusal> {
        let Some(i) = self.st.proposals.iter().position(|x| x.n == proposal) else {
            return refuse(format!("there is no proposal {proposal}"));
        };
        if self.st.proposals[i].standing != Standing::Open {
            return refuse(format!("proposal {proposal} is not open"));
        }
        Ok(i)
    }

    // ----- the state's steps, reported in the reply -----------------------------------

    pub(super) fn update_living(&mut self) {
        self.st.update_living(&mut self.lines, self.ctx);
    }

    pub(super) fn enter_part2(&mut self) {
        self.st.enter_part2(self.t, &mut self.lines, self.ctx);
    }

    pub(super) fn end_turn(&mut self) {
        self.st.end_turn(self.t, &mut self.lines, self.ctx);
    }

    pub(super) fn after_proposal(&mut self, held: bool) {
        self.st
            .after_proposal(held, self.t, &mut self.lines, self.ctx);
    }

    pub(super) fn close_vote(&mut self, proposal: u32) {
        self.st
            .close_vote(proposal, self.t, &mut self.lines, self.ctx);
    }

    pub(super) fn offers_withdrawn(&mut self) {
        self.st.offers_withdrawn(self.t, &mut self.lines, self.ctx);
    }

    /// A mated army passes, the mover `p` moving (Nomic rules 6.6).
    pub(super) fn pass_control(&mut self, army: usize, to: Option<usize>, p: usize) {
        self.st
            .pass_control(army, to, Some(p), &mut self.lines, self.ctx);
    }

    /// With no turn running, the first playable army's turn begins.
    pub(super) fn start_first(&mut self) {
        let first = self.st.first_playable(0).map(Slot::Army);
        self.st.start_slot(first, self.t, &mut self.lines, self.ctx);
    }

    // ----- the actions ----------------------------------------------------------------

    /// The game begins, from a position text or with the Order drawn, and the first turn
    /// with it (Nomic rules 6.7, 6.10).
    pub(super) fn start(&mut self, position: Option<&str>, order: &[usize]) -> Result<(), Refusal> {
        if let Some(text) = position {
            let pos = Position::from_text(text).map_err(|e| e.to_string())?;
            if pos.players() != self.n {
                return refuse("the position has a different number of half-boards");
            }
            self.st.pos = pos;
        } else {
            self.st.pos.order = order.to_vec();
        }
        let (st, ctx, t) = (&mut *self.st, self.ctx, self.t);
        st.clock = t;
        st.now = t;
        // The start reports nothing.
        let mut none = Vec::new();
        st.update_living(&mut none, ctx);
        if !st.over {
            match st.pos.turn.slot {
                Slot::Idle => {
                    let first = st.first_playable(0).map(Slot::Army);
                    st.start_slot(first, t, &mut none, ctx);
                }
                Slot::Army(a) if st.pos.turn.part == 1 && st.pos.turn.s.iter().all(|s| !s) => {
                    st.pos.turn.s = st.pos.halves_of(a);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// `/push`: two halves pushed together for the mover's army; every other side's king
    /// attacked on J is mated at once (Nomic rules 6.2, 6.4, 6.5).
    pub(super) fn push(&mut self, join: Join) -> Result<(), Refusal> {
        let (p, army) = self.mover()?;
        let pos = &self.st.pos;
        if pos.turn.part != 1 {
            return refuse(format!(
                "part 1 is over (it is part {}); pushes are made in part 1",
                pos.turn.part
            ));
        }
        if let Some(j) = pos.turn.join {
            return refuse(format!(
                "you have pushed {} already; now /move on it",
                j.text()
            ));
        }
        if let Some(why) = pos.push_blocked(join, army) {
            return refuse(format!("push refused: {why}"));
        }
        let moves = pos.budget_moves(join, army, self.st.rules());
        let b = pos.joined(join);
        let attacked = pos.attacked_kings(&b, join);
        let own: Vec<((u8, u8), usize)> = attacked
            .iter()
            .copied()
            .filter(|&(_, y)| pos.same_side(y, army))
            .collect();
        if moves.is_empty() && own.is_empty() {
            return refuse(format!(
                "push refused: army {} would have no legal move on {} (try another push)",
                army + 1,
                join.text()
            ));
        }
        self.lines.push(format!(
            "{} pushes {} (bottom) and {} (top) together for army {}.",
            self.ctx.players[p],
            half_letter(join.bottom),
            half_letter(join.top),
            army + 1
        ));
        self.st.pos.turn.join = Some(join);
        // 217: every other side's attacked king is checkmated at once.
        for &(sq, y) in &attacked {
            if !self.st.pos.same_side(y, army) {
                let to = self.st.pos.entitled(&b, join, sq, y);
                self.lines.push(format!(
                    "Army {}'s king is attacked at the push (217).",
                    y + 1
                ));
                self.pass_control(y, to, p);
                if self.st.over {
                    return Ok(());
                }
            }
        }
        if moves.is_empty() {
            // The mover's own king attacked with no move to end it: that army is mated.
            for &(sq, y) in &own {
                let to = self.st.pos.entitled(&b, join, sq, y);
                self.lines.push(format!(
                    "Army {}'s king is attacked and no move ends the attack.",
                    y + 1
                ));
                self.pass_control(y, to, p);
                if self.st.over {
                    return Ok(());
                }
            }
            self.lines.push(format!("Army {}'s turn ends.", army + 1));
            self.end_turn();
        } else if !own.is_empty() {
            self.lines
                .push("Your king is attacked: the move must end the attack.".into());
        }
        Ok(())
    }

    /// `/move`: a move on the pushed board J, stored as echoed; enemy kings left without an
    /// answer on J are mated (Nomic rules 6.3–6.5).
    pub(super) fn move_on_j(&mut self, notation: &mut String) -> Result<(), Refusal> {
        let (p, army) = self.mover()?;
        if self.st.pos.turn.part != 1 {
            return refuse(format!(
                "part 1 is over (it is part {})",
                self.st.pos.turn.part
            ));
        }
        let Some(join) = self.st.pos.turn.join else {
            return refuse("push two half-boards together first: /push bottom:<half> top:<half>");
        };
        let rules = self.st.rules();
        let on = OnJ {
            join,
            army,
            b: self.st.pos.joined(join),
            legal: self.st.pos.budget_moves(join, army, rules),
        };
        let mv = on.read(&self.st.pos, notation)?;
        let canon = move_text(&on.b, mv);
        let pos = &mut self.st.pos;
        let involves = pos.involves(join, mv);
        let lfrom = join.local(mv.from.0, mv.from.1);
        let lto = join.local(mv.to.0, mv.to.1);
        pos.make(join, mv);
        for h in involves {
            pos.turn.involved[h] = true;
        }
        pos.turn.join = None;
        let after = pos.joined(join);
        let attacked = pos.attacked_kings(&after, join);
        let check = attacked.iter().any(|&(_, y)| !pos.same_side(y, army));
        let echo = format!("{canon}{}", if check { "+" } else { "" });
        self.lines.push(format!(
            "Army {} ({}) {echo} ({} → {})",
            army + 1,
            self.ctx.players[p],
            lfrom.name(),
            lto.name()
        ));
        self.st.last = Some(LastMove {
            join,
            from: mv.from,
            to: mv.to,
            text: format!("{echo} ({} → {})", lfrom.name(), lto.name()),
        });
        *notation = canon;
        for (sq, y) in attacked {
            if !self.st.pos.same_side(y, army) && !self.st.pos.side_can_move(join, y, rules) {
                let to = self.st.pos.entitled(&after, join, sq, y);
                self.pass_control(y, to, p);
                if self.st.over {
                    return Ok(());
                }
            }
        }
        if self.st.current_player() != Some(p) {
            self.lines.push(format!("Army {}'s turn ends.", army + 1));
            self.end_turn();
        } else if !self.st.pos.has_any_move(army, rules) {
            self.enter_part2();
        }
        Ok(())
    }

    /// `/done`: the current part ends; the first move of a turn is compulsory (Nomic rules
    /// 6.4, 6.8, 6.10a).
    pub(super) fn done(&mut self) -> Result<(), Refusal> {
        let _ = self.turn_player()?;
        match (self.st.pos.turn.slot, self.st.pos.turn.part) {
            (Slot::Army(a), 1) => {
                let moved = self.st.pos.turn.involved.iter().any(|&x| x);
                if !moved && self.st.pos.has_any_move(a, self.st.rules()) {
                    return refuse("the first move of a turn is compulsory (push and /move; /moves lists them)");
                }
                self.lines.push(format!("Army {} stops moving.", a + 1));
                self.enter_part2();
            }
            (Slot::Army(_), 2) => {
                return refuse("answer each offer with /take army:<n> or /decline army:<n>");
            }
            _ => {
                if self.st.open_vote().is_some() {
                    return refuse("the vote is open; the turn ends when it closes");
                }
                if self.st.demotion.is_some() {
                    return refuse("a demotion is waited for (/demote)");
                }
                self.lines.push("The turn ends.".into());
                self.end_turn();
            }
        }
        Ok(())
    }

    /// `/take` (or, `take` false, `/decline`): the mover answers an army offered in part 2
    /// (Nomic rules 6.6).
    pub(super) fn take(&mut self, army: usize, take: bool) -> Result<(), Refusal> {
        let p = self.turn_player()?;
        let offers = &self.st.pos.offers;
        if self.st.pos.turn.part == 1 && offers.contains(&army) {
            return refuse(format!(
                "Take comes in part 2, after the move: finish part 1 first (push and /move, or /done once you have moved), then /{} army:{}",
                if take { "take" } else { "decline" },
                army + 1
            ));
        }
        if self.st.pos.turn.part != 2 || !offers.contains(&army) {
            let offers: Vec<String> = offers.iter().map(|a| (a + 1).to_string()).collect();
            return refuse(if offers.is_empty() {
                "no army is offered to you now".to_string()
            } else {
                format!(
                    "army {} is not offered to you; offered: {}",
                    army + 1,
                    offers.join(", ")
                )
            });
        }
        self.st.pos.offers.retain(|&a| a != army);
        if take {
            self.st.pos.controllers[army] = Some(p);
            self.lines
                .push(format!("{} takes army {}.", self.ctx.players[p], army + 1));
            self.update_living();
        } else {
            self.lines.push(format!(
                "{} declines army {}; it stays with its controller.",
                self.ctx.players[p],
                army + 1
            ));
        }
        if !self.st.over && self.st.pos.offers.is_empty() {
            self.enter_part2();
        }
        Ok(())
    }

    /// `/forfeit`: the actor leaves the game; their armies are skipped until a Referee
    /// assigns them (Nomic rules 6.10a).
    pub(super) fn forfeit(&mut self) -> Result<(), Refusal> {
        if self.st.over {
            return refuse("the game is over");
        }
        let Some(p) = self.player else {
            return refuse("you are not a player in this game");
        };
        if self.st.pos.forfeited[p] {
            return refuse("you have forfeited already");
        }
        let current = self.st.current_player() == Some(p);
        self.st.pos.forfeited[p] = true;
        self.st.pos.infected.retain(|&x| x != p);
        let actor = self.actor;
        self.lines.push(format!(
            "{actor} forfeits the game; the Referees decide what happens to their armies (/assign), which are skipped until then."
        ));
        if self.st.demotion.as_ref().is_some_and(|d| d.author == p) {
            let held = self.st.demotion.as_ref().is_some_and(|d| d.held);
            self.after_proposal(held);
        }
        self.update_living();
        if !self.st.over {
            if let Some(i) = self
                .st
                .proposals
                .iter()
                .position(|x| x.standing == Standing::Open)
            {
                let pn = self.st.proposals[i].n;
                if self
                    .st
                    .voters()
                    .iter()
                    .all(|&v| self.st.proposals[i].votes[v].is_some())
                {
                    self.close_vote(pn);
                }
            } else if current && self.st.demotion.is_none() {
                self.st.pos.offers.clear();
                self.end_turn();
            }
        }
        // The Referees must act: they are pinged (the reply's line alone pinged nobody).
        if !self.st.over {
            let armies: Vec<String> = self
                .st
                .pos
                .controllers
                .iter()
                .enumerate()
                .filter(|(_, c)| **c == Some(p))
                .map(|(a, _)| (a + 1).to_string())
                .collect();
            let which = match armies.as_slice() {
                [] => "their armies".to_string(),
                [one] => format!("army {one}"),
                many => format!("armies {}", many.join(", ")),
            };
            self.st.call_referees(&format!(
                "{actor} forfeited: decide what happens to {which} with /assign army:<n> to:@player (skipped until then)"
            ));
        }
        Ok(())
    }
}
