//! Proposals, votes and judgments (Nomic rules 6.5–6.9): proposing and what may be proposed,
//! voting, the demotion a held proposal asks for, Judges' questions and rulings and their
//! overruling, and a Referee voiding or fixing a proposal.

use super::*;

impl<'a> Fold<'a> {
    /// `/propose`: a rule-change, opened to the vote (Nomic rules 6.8, 6.9).
    pub(super) fn propose(
        &mut self,
        text: &str,
        number: Option<u32>,
        immutable: bool,
    ) -> Result<(), Refusal> {
        let held = self.may_propose(immutable)?;
        let len = text.chars().count();
        if text.trim().is_empty() {
            return refuse("write the rule-change: /propose text:<text>");
        }
        if len > self.st.settings.proposal_max {
            return refuse(format!(
                "the proposal is {len} characters long; at most {} are allowed",
                self.st.settings.proposal_max
            ));
        }
        let change = change_of(text);
        self.may_change(&change, immutable)?;
        let (actor, t) = (self.actor, self.t);
        let pn = self.st.proposals.len() as u32 + 1;
        self.st.proposals.push(Proposal {
            n: pn,
            author: actor.to_string(),
            text: text.to_string(),
            number,
            immutable,
            change: change.clone(),
            votes: vec![None; self.n],
            standing: Standing::Open,
            opened: t,
            fixes: Vec::new(),
            held,
        });
        if held {
            self.st.held = Some(t);
        } else {
            self.st.proposed = true;
        }
        let what = match &change {
            Change::Enact => match number {
                Some(k) => format!("enacts a rule (number {k} asked)"),
                None => "enacts a rule".into(),
            },
            Change::Amend(r, _) => format!("amends rule {r}"),
            Change::Repeal(r) => format!("repeals rule {r}"),
        };
        self.lines.push(format!(
            "proposal {pn} by {actor} {what}: {text}\nVote with /vote proposal:{pn} choice:for|against (open {}).",
            format_duration(self.st.settings.vote_limit)
        ));
        Ok(())
    }

    /// Whether the actor may propose now: in part 3 of their turn (or their undead slot),
    /// or as a Referee at any time, which holds the turn's clock (the answer: held).
    pub(super) fn may_propose(&self, immutable: bool) -> Result<bool, Refusal> {
        self.in_play()?;
        if immutable && !self.referee {
            return refuse("only a Referee may propose a change to an immutable rule (113)");
        }
        if self.st.open_vote().is_some() {
            return refuse("a vote is open; wait for it to close");
        }
        if self.st.demotion.is_some() {
            return refuse("a demotion is waited for (/demote)");
        }
        let mine = self.player.is_some() && self.st.current_player() == self.player;
        let in_part3 =
            matches!(self.st.pos.turn.slot, Slot::Undead(_)) || self.st.pos.turn.part == 3;
        if mine && in_part3 {
            if self.st.proposed {
                return refuse("you have proposed already this turn");
            }
            Ok(false)
        } else if self.referee {
            Ok(true)
        } else if mine {
            refuse(format!(
                "proposals are made in part 3 (it is part {}; /done ends the current part)",
                self.st.pos.turn.part
            ))
        } else {
            let _ = self.turn_player()?;
            refuse("you may propose only in part 3 of your turn")
        }
    }

    /// Refuses a change to a rule that does not exist, is repealed, or is immutable when
    /// the proposal is not marked immutable (Nomic rules 6.9).
    pub(super) fn may_change(&self, change: &Change, immutable: bool) -> Result<(), Refusal> {
        match change {
            Change::Amend(r, _) | Change::Repeal(r) => match self.st.rules.get(*r) {
                None => refuse(format!("there is no rule {r}")),
                Some(rule) if rule.repealed.is_some() => {
                    refuse(format!("rule {r} is repealed already"))
                }
                Some(rule) if rule.immutable && !immutable => refuse(format!(
                    "rule {r} is immutable; only a Referee may propose changing it (immutable:true)"
                )),
                Some(_) => Ok(()),
            },
            Change::Enact => Ok(()),
        }
    }

    /// `/vote`: a player's vote on the open proposal, closing it once everyone has voted
    /// (Nomic rules 6.9).
    pub(super) fn vote(&mut self, proposal: u32, choice: bool) -> Result<(), Refusal> {
        self.in_play()?;
        let Some(p) = self.player else {
            return refuse("only players vote");
        };
        if self.st.pos.forfeited[p] {
            return refuse("you have forfeited the game");
        }
        let Some(i) = self.st.proposals.iter().position(|x| x.n == proposal) else {
            return refuse(format!("there is no proposal {proposal}"));
        };
        if self.st.proposals[i].standing != Standing::Open {
            return refuse(format!("the vote on proposal {proposal} is closed"));
        }
        if self.st.proposals[i].votes[p].is_some() {
            return refuse(format!("you have voted on proposal {proposal} already"));
        }
        self.st.proposals[i].votes[p] = Some(choice);
        let actor = self.actor;
        self.lines.push(format!(
            "{actor} votes {} proposal {proposal}.",
            if choice { "for" } else { "against" }
        ));
        let all = self
            .st
            .voters()
            .iter()
            .all(|&v| self.st.proposals[i].votes[v].is_some());
        if all {
            self.lines.push("Everyone has voted.".into());
            self.close_vote(proposal);
        }
        Ok(())
    }

    /// `/demote`: the defeated author (or, once the part-3 limit has passed, a Referee)
    /// demotes one non-king piece (Nomic rules 6.9).
    pub(super) fn demote(&mut self, square: Local) -> Result<(), Refusal> {
        self.in_play()?;
        let Some(d) = self.st.demotion.clone() else {
            return refuse("no demotion is waited for");
        };
        let author = &self.ctx.players[d.author];
        let may = self.player == Some(d.author) || (self.referee && d.referee);
        if !may {
            return refuse(if self.referee {
                format!(
                    "{author} chooses first; a Referee chooses once the part-3 limit has passed"
                )
            } else {
                format!("only {author} demotes now")
            });
        }
        let ok = self.st.demotable(d.author);
        if !ok.contains(&square) {
            let list: Vec<String> = ok.iter().map(|l| l.name()).collect();
            return refuse(format!(
                "{} holds no non-king piece of an army {author} controls; choose one of: {}",
                square.name(),
                list.join(" ")
            ));
        }
        let Some(mut piece) = self.st.pos.at(square) else {
            return refuse("no piece there");
        };
        let was = piece.kind;
        match super::super::position::demoted(was) {
            Some(k) => {
                piece.kind = k;
                piece.moved = true;
                self.st.pos.set(square, Some(piece));
                self.lines.push(format!(
                    "The {} on {} is demoted to a {}.",
                    was.lower_name(),
                    square.name(),
                    k.lower_name()
                ));
            }
            None => {
                self.st.pos.set(square, None);
                self.lines.push(format!(
                    "The pawn on {} is demoted off the board.",
                    square.name()
                ));
            }
        }
        self.after_proposal(d.held);
        Ok(())
    }

    /// `/judgment`: a player or Referee opens a question for the Referees to judge
    /// (Nomic rules 6.10).
    pub(super) fn judgment(&mut self, question: &str, partisan: &[String]) -> Result<(), Refusal> {
        if self.player.is_none() && !self.referee {
            return refuse("only players and Referees invoke Judgment");
        }
        if question.trim().is_empty() {
            return refuse("ask the question: /judgment question:<text>");
        }
        let actor = self.actor;
        let mut part: Vec<String> = Vec::new();
        if self.player.is_some() {
            part.push(actor.to_string());
        }
        for u in partisan.iter().chain(self.st.settings.referees.iter()) {
            if self.ctx.players.contains(u) && !part.contains(u) {
                part.push(u.clone());
            }
        }
        let jn = self.st.judgments.len() as u32 + 1;
        self.lines.push(format!(
            "judgment {jn} opened by {actor}: {question} (partisan: {})",
            part.join(", ")
        ));
        self.st.judgments.push(Judgment {
            n: jn,
            question: question.to_string(),
            by: actor.to_string(),
            partisan: part,
            rulings: Vec::new(),
            standing: false,
            overrule: Vec::new(),
            barred: Vec::new(),
        });
        self.st.call_judges(jn, self.ctx);
        Ok(())
    }

    /// `/judge`: a Referee's ruling on a Judgment, or the organiser's once every Referee has
    /// judged it and been overruled (Nomic rules 6.10).
    pub(super) fn judge(&mut self, judgment: u32, text: &str) -> Result<(), Refusal> {
        let organiser = self.organiser();
        let (actor, referee) = (self.actor, self.referee);
        let Some(i) = self.st.judgments.iter().position(|j| j.n == judgment) else {
            if !referee {
                self.need_referee("judge")?;
            }
            return refuse(format!("there is no judgment {judgment}"));
        };
        let referees = &self.st.settings.referees;
        let j = &mut self.st.judgments[i];
        // Once every Referee has judged it and been overruled, the organiser judges.
        let by_organiser = organiser && referees.iter().all(|r| j.barred.contains(r));
        if !referee && !by_organiser {
            return refuse(if organiser {
                format!("only a Referee may judge; the organiser judges judgment {judgment} only once every Referee has judged it and been overruled")
            } else {
                "only a Referee may judge".to_string()
            });
        }
        if j.standing {
            return refuse(format!(
                "judgment {judgment} stands; it can be judged again only once overruled"
            ));
        }
        if j.barred.iter().any(|r| r == actor) && !by_organiser {
            return refuse(format!("you judged judgment {judgment} before and were overruled; another Referee judges it"));
        }
        if text.trim().is_empty() {
            return refuse("write the Judgment: /judge judgment:<n> text:<text>");
        }
        j.rulings.push((actor.to_string(), text.to_string()));
        j.standing = true;
        j.overrule.clear();
        self.lines.push(format!(
            "judgment {judgment}: {actor} rules: {text} (it has the force of an immutable rule; non-partisan players may /overrule judgment:{judgment})"
        ));
        Ok(())
    }

    /// `/overrule`: a non-partisan player's vote to overrule a standing Judgment; a unanimous
    /// vote overrules it and calls on another judge (Nomic rules 6.10).
    pub(super) fn overrule(&mut self, judgment: u32) -> Result<(), Refusal> {
        let Some(p) = self.player else {
            return refuse("only players may overrule");
        };
        if self.st.pos.forfeited[p] {
            return refuse("you have forfeited the game");
        }
        let actor = self.actor;
        let voters: Vec<String> = (0..self.n)
            .filter(|&q| !self.st.pos.forfeited[q])
            .map(|q| self.ctx.players[q].clone())
            .collect();
        let Some(j) = self.st.judgments.iter_mut().find(|j| j.n == judgment) else {
            return refuse(format!("there is no judgment {judgment}"));
        };
        if !j.standing {
            return refuse(format!(
                "judgment {judgment} has no standing ruling to overrule"
            ));
        }
        if j.partisan.iter().any(|u| u == actor) {
            return refuse(format!("you are partisan in judgment {judgment}"));
        }
        if j.overrule.iter().any(|u| u == actor) {
            return refuse("you have voted to overrule it already");
        }
        j.overrule.push(actor.to_string());
        self.lines
            .push(format!("{actor} votes to overrule judgment {judgment}."));
        let need: Vec<&String> = voters.iter().filter(|u| !j.partisan.contains(u)).collect();
        if need.iter().all(|u| j.overrule.contains(u)) {
            j.standing = false;
            if let Some((r, _)) = j.rulings.last() {
                let r = r.clone();
                if !j.barred.contains(&r) {
                    j.barred.push(r);
                }
            }
            j.overrule.clear();
            let who = self.st.call_judges(judgment, self.ctx);
            self.lines.push(format!(
                "Judgment {judgment} is overruled (unanimous); {who}."
            ));
        }
        Ok(())
    }

    /// `/proposal void`: a Referee voids the open proposal; it has no effect (Nomic rules
    /// 6.9, 6.10).
    pub(super) fn void(&mut self, proposal: u32) -> Result<(), Refusal> {
        self.need_referee("void a proposal")?;
        let i = self.open_proposal(proposal)?;
        self.st.proposals[i].standing = Standing::Void;
        let held = self.st.proposals[i].held;
        self.lines.push(format!(
            "Proposal {proposal} is void (a Referee's decision); it has no effect."
        ));
        self.after_proposal(held);
        Ok(())
    }

    /// `/proposal fix`: a Referee fixes the open proposal's spelling, grammar or punctuation
    /// (Nomic rules 6.9, 6.10).
    pub(super) fn fix(&mut self, proposal: u32, text: &str) -> Result<(), Refusal> {
        self.need_referee("fix a proposal")?;
        let i = self.open_proposal(proposal)?;
        if text.chars().count() > self.st.settings.proposal_max || text.trim().is_empty() {
            return refuse("the fixed text must be 1 to proposal_max characters");
        }
        let fixed = &mut self.st.proposals[i];
        let old = std::mem::replace(&mut fixed.text, text.to_string());
        fixed.change = change_of(text);
        fixed.fixes.push((old.clone(), text.to_string()));
        self.lines.push(format!("Proposal {proposal} fixed (spelling, grammar or punctuation): was: {old} / now: {text}"));
        Ok(())
    }
}
