//! The state's own steps, which every action and every deadline goes through: turns and the
//! undead, control of armies, time limits and pauses, and the closing of votes. Kept apart from
//! the actions (`fold`) so that replaying a deadline and applying a command share one code path.

use super::*;

impl State {
    pub(super) fn new(n: usize, settings: Settings, t: Timestamp) -> State {
        State {
            pos: Position::start(n, (0..n).collect()),
            settings,
            rules: Ruleset::starting(),
            proposals: Vec::new(),
            judgments: Vec::new(),
            paused: None,
            pauses: Vec::new(),
            stalled: false,
            ran_out: std::collections::BTreeSet::new(),
            over: false,
            winner: None,
            clock: t,
            proposed: false,
            demotion: None,
            last: None,
            now: t,
            held: None,
            holds: Vec::new(),
            calls: Vec::new(),
            mated: Vec::new(),
            ahead: None,
        }
    }

    pub(super) fn rules(&self) -> Rules {
        Rules {
            friendly_capture: self.settings.friendly_capture,
        }
    }

    pub(super) fn is_referee(&self, user: &str) -> bool {
        self.settings.referees.iter().any(|r| r == user)
    }

    /// Calls on every Referee to act.
    pub(super) fn call_referees(&mut self, what: &str) {
        for r in self.settings.referees.clone() {
            self.call(&r, what);
        }
    }

    /// Calls on a user to act.
    pub(super) fn call(&mut self, user: &str, what: &str) {
        let c = (user.to_string(), what.to_string());
        if !user.is_empty() && !self.calls.contains(&c) {
            self.calls.push(c);
        }
    }

    /// Calls on whoever judges a Judgment awaiting a ruling: the Referees who have not
    /// judged it, or the organiser once every Referee has.
    pub(super) fn call_judges(&mut self, n: u32, ctx: &Ctx<'_>) -> String {
        let Some(j) = self.judgments.iter().find(|j| j.n == n) else {
            return String::new();
        };
        let free: Vec<String> = self
            .settings
            .referees
            .iter()
            .filter(|r| !j.barred.contains(r))
            .cloned()
            .collect();
        let what = format!("judge judgment {n}: /judge judgment:{n} text:<your Judgment>");
        if free.is_empty() {
            self.call(ctx.organiser, &what);
            format!(
                "every Referee has judged it, so the organiser ({}) judges it",
                ctx.organiser
            )
        } else {
            for r in &free {
                self.call(r, &what);
            }
            "another Referee judges it".to_string()
        }
    }

    /// Living players (not forfeited, controlling an army).
    pub fn living(&self) -> Vec<usize> {
        (0..self.pos.players())
            .filter(|&p| !self.pos.forfeited[p] && !self.pos.armies_of(p).is_empty())
            .collect()
    }

    pub(super) fn playable(&self, army: usize) -> bool {
        matches!(self.pos.controllers.get(army), Some(Some(p)) if !self.pos.forfeited[*p])
    }

    /// The player whose turn it is (the army's controller, or the undead player).
    pub fn current_player(&self) -> Option<usize> {
        if self.over {
            return None;
        }
        match self.pos.turn.slot {
            Slot::Army(a) => self.pos.controllers.get(a).copied().flatten(),
            Slot::Undead(p) => Some(p),
            Slot::Idle => None,
        }
    }

    /// The open proposal.
    pub fn open_vote(&self) -> Option<&Proposal> {
        self.proposals.iter().find(|p| p.standing == Standing::Open)
    }

    /// Players who may vote (not forfeited).
    pub(super) fn voters(&self) -> Vec<usize> {
        (0..self.pos.players())
            .filter(|&p| !self.pos.forfeited[p])
            .collect()
    }

    /// Keeps the undead list and the winner up to date after control changed.
    pub(super) fn update_living(&mut self, lines: &mut Vec<String>, ctx: &Ctx<'_>) {
        let n = self.pos.players();
        for p in 0..n {
            let undead = !self.pos.forfeited[p] && self.pos.armies_of(p).is_empty();
            let listed = self.pos.infected.contains(&p);
            if undead && !listed {
                self.pos.infected.push(p);
                lines.push(format!("{} is undead (controls no army).", ctx.players[p]));
            } else if !undead && listed {
                self.pos.infected.retain(|&x| x != p);
                if !self.pos.forfeited[p] {
                    lines.push(format!("{} is living again.", ctx.players[p]));
                }
            }
        }
        if self.over {
            return;
        }
        let living = self.living();
        if living.len() <= 1 {
            self.over = true;
            self.winner = living.first().copied();
            self.pos.turn.slot = Slot::Idle;
            self.pos.turn.join = None;
            self.pos.offers.clear();
            match self.winner {
                Some(w) => lines.push(format!(
                    "{} is the only living player and wins the game.",
                    ctx.players[w]
                )),
                None => {
                    lines.push("No player is living: the game is over without a winner.".into())
                }
            }
        }
    }

    // ----- turns ---------------------------------------------------------------------

    pub(super) fn begin_army(
        &mut self,
        army: usize,
        t: Timestamp,
        lines: &mut Vec<String>,
        ctx: &Ctx<'_>,
    ) {
        let n = self.pos.players();
        self.pos.turn.slot = Slot::Army(army);
        self.pos.turn.part = 1;
        self.pos.turn.s = self.pos.halves_of(army);
        self.pos.turn.involved = vec![false; n];
        self.pos.turn.join = None;
        self.pos.offers.clear();
        self.clock = t;
        self.proposed = false;
        if !self.pos.has_any_move(army, self.rules()) {
            lines.push(format!(
                "Army {} has no legal move anywhere and skips part 1.",
                army + 1
            ));
            self.enter_part2(t, lines, ctx);
        }
    }

    pub(super) fn begin_undead(&mut self, p: usize, t: Timestamp) {
        let n = self.pos.players();
        self.pos.turn.slot = Slot::Undead(p);
        self.pos.turn.part = 3;
        self.pos.turn.s = vec![false; n];
        self.pos.turn.involved = vec![false; n];
        self.pos.turn.join = None;
        self.pos.offers.clear();
        self.clock = t;
        self.proposed = false;
    }

    pub(super) fn enter_part2(&mut self, t: Timestamp, lines: &mut Vec<String>, ctx: &Ctx<'_>) {
        self.pos.turn.join = None;
        self.clock = t;
        if self.pos.offers.is_empty() {
            self.pos.turn.part = 3;
        } else {
            self.pos.turn.part = 2;
            let offers: Vec<String> = self
                .pos
                .offers
                .iter()
                .map(|a| (a + 1).to_string())
                .collect();
            lines.push(format!(
                "Part 2: {} may /take or /decline army {}.",
                self.current_player()
                    .map_or("-", |p| ctx.players[p].as_str()),
                offers.join(", army ")
            ));
        }
    }

    /// An offer was withdrawn (its army passed or was assigned elsewhere): with none left in
    /// part 2, part 3 begins now, as when part 2 opens with nothing to offer.
    pub(super) fn offers_withdrawn(
        &mut self,
        t: Timestamp,
        lines: &mut Vec<String>,
        ctx: &Ctx<'_>,
    ) {
        if !self.over
            && self.pos.offers.is_empty()
            && matches!(self.pos.turn.slot, Slot::Army(_))
            && self.pos.turn.part == 2
        {
            lines.push("No army is left on offer: part 3 begins.".into());
            self.enter_part2(t, lines, ctx);
        }
    }

    pub(super) fn undead_after(&self, after: Option<usize>) -> Option<usize> {
        let list = &self.pos.infected;
        let start = match after {
            Some(p) => list
                .iter()
                .position(|&x| x == p)
                .map_or(list.len(), |i| i + 1),
            None => 0,
        };
        list[start.min(list.len())..]
            .iter()
            .copied()
            .find(|&p| !self.pos.forfeited[p] && self.pos.armies_of(p).is_empty())
    }

    pub(super) fn first_playable(&self, from: usize) -> Option<usize> {
        self.pos.order[from.min(self.pos.order.len())..]
            .iter()
            .copied()
            .find(|&a| self.playable(a))
    }

    /// Ends the turn (or undead slot) and begins the next (204).
    pub(super) fn end_turn(&mut self, t: Timestamp, lines: &mut Vec<String>, ctx: &Ctx<'_>) {
        if self.over {
            return;
        }
        // Offers not answered are taken by default.
        let offers = std::mem::take(&mut self.pos.offers);
        if let (Some(p), false) = (self.current_player(), offers.is_empty()) {
            for a in offers {
                self.pos.controllers[a] = Some(p);
                lines.push(format!(
                    "{} takes army {} (by default).",
                    ctx.players[p],
                    a + 1
                ));
            }
            self.update_living(lines, ctx);
            if self.over {
                return;
            }
        }
        self.pos.turn.join = None;
        self.demotion = None;
        let next = match self.pos.turn.slot {
            Slot::Army(a) => {
                let i = self.pos.order.iter().position(|&x| x == a).unwrap_or(0);
                match self.first_playable(i + 1) {
                    Some(b) => Some(Slot::Army(b)),
                    None => match self.undead_after(None) {
                        Some(p) => Some(Slot::Undead(p)),
                        None => self.first_playable(0).map(Slot::Army),
                    },
                }
            }
            Slot::Undead(p) => match self.undead_after(Some(p)) {
                Some(q) => Some(Slot::Undead(q)),
                None => self.first_playable(0).map(Slot::Army),
            },
            Slot::Idle => self.first_playable(0).map(Slot::Army),
        };
        self.start_slot(next, t, lines, ctx);
    }

    pub(super) fn start_slot(
        &mut self,
        next: Option<Slot>,
        t: Timestamp,
        lines: &mut Vec<String>,
        ctx: &Ctx<'_>,
    ) {
        match next {
            Some(Slot::Army(a)) => self.begin_army(a, t, lines, ctx),
            Some(Slot::Undead(p)) => self.begin_undead(p, t),
            _ => {
                self.pos.turn.slot = Slot::Idle;
                self.clock = t;
                lines.push(
                    "No army can take a turn: the game waits for a Referee (/assign).".into(),
                );
            }
        }
    }

    // ----- control -------------------------------------------------------------------

    /// A mated army passes (§6.6).
    pub(super) fn pass_control(
        &mut self,
        army: usize,
        to: Option<usize>,
        mover: Option<usize>,
        lines: &mut Vec<String>,
        ctx: &Ctx<'_>,
    ) {
        if !self.mated.contains(&army) {
            self.mated.push(army);
        }
        match to {
            None => {
                self.pos.controllers[army] = None;
                self.pos.offers.retain(|&a| a != army);
                lines.push(format!(
                    "Army {} is checkmated; no one player has the most pieces attacking its king (a tie, or only armies whose control is pending attack it), so its control is pending until a Referee /assigns it.",
                    army + 1
                ));
                self.call_referees(&format!(
                    "army {} is checkmated and its control is pending: /assign army:{} to:@player",
                    army + 1,
                    army + 1
                ));
            }
            Some(p) if Some(p) == mover => {
                if self.pos.controllers[army] != Some(p) && !self.pos.offers.contains(&army) {
                    self.pos.offers.push(army);
                }
                lines.push(format!(
                    "Army {} is checkmated; {} may take it in part 2 (/take army:{} or /decline army:{}).",
                    army + 1,
                    ctx.players[p],
                    army + 1,
                    army + 1
                ));
                self.call(
                    &ctx.players[p],
                    &format!(
                        "army {} is checkmated: /take army:{} or /decline army:{} in part 2",
                        army + 1,
                        army + 1,
                        army + 1
                    ),
                );
            }
            Some(p) => {
                self.pos.controllers[army] = Some(p);
                self.pos.offers.retain(|&a| a != army);
                lines.push(format!(
                    "Army {} is checkmated and passes to {}.",
                    army + 1,
                    ctx.players[p]
                ));
                self.call(
                    &ctx.players[p],
                    &format!(
                        "army {} is checkmated and passes to you: you play its turns",
                        army + 1
                    ),
                );
            }
        }
        self.update_living(lines, ctx);
    }

    // ----- time ----------------------------------------------------------------------

    /// The next deadline: (when, code). A player's own limits (a turn's parts, a demotion)
    /// stop while they are away (shared rules 7.5); a vote's does not.
    pub(super) fn next_deadline(&self, ctx: &Ctx<'_>) -> Option<(Timestamp, usize)> {
        if self.over || self.paused.is_some() {
            return None;
        }
        let which = self.running()?;
        let at = self.limit_end(which, ctx)?;
        let code = match which {
            Running::Vote(i) => 300 + self.proposals[i].n as usize,
            Running::Demotion => 400 + self.demotion.as_ref().map_or(0, |d| d.proposal as usize),
            Running::Turn => match (self.pos.turn.slot, self.pos.turn.part) {
                (Slot::Army(a), 1) => a,
                (Slot::Army(a), 2) => 100 + a,
                (Slot::Army(a), _) => 200 + a,
                (Slot::Undead(p), _) => 250 + p,
                (Slot::Idle, _) => return None,
            },
        };
        Some((at, code))
    }

    /// The game's own pauses as stops of the layer's clock: those that ended and the one
    /// still open (to `Timestamp::MAX`).
    pub(super) fn pause_stops(&self) -> Vec<(Timestamp, Timestamp)> {
        let mut v = self.pauses.clone();
        if let Some(p) = self.paused {
            v.push((p, Timestamp::MAX));
        }
        v
    }

    /// What the layer's clock needs of a running limit: whose limit it is (`""`: nobody's,
    /// a vote's, which no vacation stops), when it started, how long it is, and the game's
    /// own stops of it (its pauses; for the turn's limit also the holds).
    pub(super) fn limit_parts(
        &self,
        which: Running,
        ctx: &Ctx<'_>,
    ) -> (String, Timestamp, Timestamp, Vec<(Timestamp, Timestamp)>) {
        let user = |p: Option<usize>| {
            p.and_then(|p| ctx.players.get(p))
                .cloned()
                .unwrap_or_default()
        };
        let s = &self.settings;
        let mut stops = self.pause_stops();
        match which {
            Running::Vote(i) => (String::new(), self.proposals[i].opened, s.vote_limit, stops),
            Running::Demotion => {
                let (author, since) = self
                    .demotion
                    .as_ref()
                    .map_or((None, self.now), |d| (Some(d.author), d.since));
                (user(author), since, s.part3_limit, stops)
            }
            Running::Turn => {
                stops.extend_from_slice(&self.holds);
                if let Some(h) = self.held {
                    stops.push((h, Timestamp::MAX));
                }
                let limit = match self.pos.turn.slot {
                    Slot::Army(_) if self.pos.turn.part <= 2 => s.part1_limit,
                    _ => s.part3_limit,
                };
                (user(self.current_player()), self.clock, limit, stops)
            }
        }
    }

    /// When a running limit runs out on the layer's clock (its player's vacations, the
    /// layer's and the game's pauses, the turn's holds stop it); `None` while one of them
    /// still open stops it.
    pub(super) fn limit_end(&self, which: Running, ctx: &Ctx<'_>) -> Option<Timestamp> {
        let (user, start, limit, stops) = self.limit_parts(which, ctx);
        ctx.away.deadline_also(&user, start, limit, &stops)
    }

    /// The limit running (paused or not): which it is ([`State::limit_parts`] tells the
    /// layer's clock its start, length and stops).
    pub(super) fn running(&self) -> Option<Running> {
        if self.over {
            return None;
        }
        if let Some(i) = self
            .proposals
            .iter()
            .position(|p| p.standing == Standing::Open)
        {
            return Some(Running::Vote(i));
        }
        if let Some(d) = &self.demotion {
            return (!d.referee).then_some(Running::Demotion);
        }
        if self.held.is_some() {
            return None;
        }
        match self.pos.turn.slot {
            Slot::Army(_) | Slot::Undead(_) => Some(Running::Turn),
            Slot::Idle => None,
        }
    }

    /// Moves the running limit's end by `delta` seconds (later if positive).
    pub(super) fn move_limit(&mut self, which: Running, delta: i64) {
        let f = |t: &mut Timestamp| {
            *t = if delta >= 0 {
                t.saturating_add(delta.unsigned_abs())
            } else {
                t.saturating_sub(delta.unsigned_abs())
            }
        };
        match which {
            Running::Vote(i) => f(&mut self.proposals[i].opened),
            Running::Demotion => {
                if let Some(d) = &mut self.demotion {
                    f(&mut d.since);
                }
            }
            Running::Turn => f(&mut self.clock),
        }
    }

    /// Applies every deadline up to `until`, recording what happened: all of them, however
    /// many (a catch-up is whole: a year of hourly limits is thousands).
    pub(super) fn advance(&mut self, until: Timestamp, ctx: &Ctx<'_>, events: &mut Vec<TimeEvent>) {
        // Limits are at least a second, so deadlines move on; many at one moment could only
        // be a loop.
        let (mut last, mut same) = (None, 0u32);
        while let Some((at, code)) = self.next_deadline(ctx) {
            if at > until {
                break;
            }
            if last == Some(at) {
                same += 1;
                if same > 1_000 {
                    tracing::error!(at, "Nomic Chess deadlines stopped moving on; left for now");
                    break;
                }
            } else {
                (last, same) = (Some(at), 0);
            }
            let mut lines = Vec::new();
            self.calls.clear();
            LIMITS_RUN_OUT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.expire(at, code, &mut lines, ctx);
            events.push(TimeEvent {
                at,
                code,
                text: lines.join(" "),
                calls: std::mem::take(&mut self.calls),
            });
        }
        if until > self.now {
            self.now = until;
        }
    }

    pub(super) fn expire(
        &mut self,
        at: Timestamp,
        code: usize,
        lines: &mut Vec<String>,
        ctx: &Ctx<'_>,
    ) {
        let who = self
            .current_player()
            .map_or("-".to_string(), |p| ctx.players[p].clone());
        if let Some(n) = self.open_vote().map(|p| p.n) {
            lines.push(format!("The vote on proposal {n} closes (time is up)."));
            self.close_vote(n, at, lines, ctx);
            return;
        }
        if let Some(d) = &mut self.demotion {
            d.referee = true;
            lines.push(format!(
                "{} has not demoted a piece within {}; a Referee chooses (/demote square:<half>:<sq>).",
                ctx.players[d.author],
                format_duration(self.settings.part3_limit)
            ));
            return;
        }
        let _ = code;
        match (self.pos.turn.slot, self.pos.turn.part) {
            (Slot::Army(a), 1) => {
                lines.push(format!(
                    "Army {} ({who}): part 1 ran out after {}; the turn ends.",
                    a + 1,
                    format_duration(self.settings.part1_limit)
                ));
                self.ran_out_turn(at, lines, ctx);
            }
            (Slot::Army(a), 2) => {
                lines.push(format!("Army {} ({who}): part 2 ran out.", a + 1));
                let offers = std::mem::take(&mut self.pos.offers);
                for o in offers {
                    if let Some(p) = self.current_player() {
                        self.pos.controllers[o] = Some(p);
                        lines.push(format!("{who} takes army {} (by default).", o + 1));
                    }
                }
                self.update_living(lines, ctx);
                if !self.over {
                    self.enter_part2(at, lines, ctx);
                }
            }
            (Slot::Army(a), _) => {
                lines.push(format!(
                    "Army {} ({who}): part 3 ran out after {}; the turn ends.",
                    a + 1,
                    format_duration(self.settings.part3_limit)
                ));
                self.ran_out_turn(at, lines, ctx);
            }
            (Slot::Undead(_), _) => {
                lines.push(format!(
                    "{who}'s undead slot ran out after {}.",
                    format_duration(self.settings.part3_limit)
                ));
                self.ran_out_turn(at, lines, ctx);
            }
            (Slot::Idle, _) => {}
        }
    }

    /// A turn that ran out ends; once every player still in the game has let a turn run
    /// out in a row, the game pauses (its limits stop) and the organiser and the Referees
    /// are called (issue 41).
    pub(super) fn ran_out_turn(&mut self, at: Timestamp, lines: &mut Vec<String>, ctx: &Ctx<'_>) {
        if let Some(p) = self.current_player() {
            self.ran_out.insert(p);
        }
        self.end_turn(at, lines, ctx);
        let players = self.voters();
        // `stall:off`: the game never pauses.
        if self.over
            || self.settings.pace.stall == Some(0)
            || players.is_empty()
            || !players.iter().all(|p| self.ran_out.contains(p))
        {
            return;
        }
        self.paused = Some(at);
        self.stalled = true;
        lines.push(
            "Every player let a turn run out in a row: the game is paused (its limits stop) until a player acts or the organiser resumes it with /resume."
                .into(),
        );
        let what = "the Nomic Chess game is paused for want of play: /resume when it should go on";
        self.call(ctx.organiser, what);
        self.call_referees(what);
    }

    /// Ends a pause (a Referee's or the game's own) at `t`: it joins the game's pauses,
    /// which stop the running limits on the layer's clock, and turns no longer count as run
    /// out in a row.
    pub(super) fn end_pause(&mut self, t: Timestamp) {
        if let Some(since) = self.paused.take() {
            self.pauses.push((since, t));
        }
        self.stalled = false;
        self.ran_out.clear();
    }

    /// A player acted: the game's own pause ends (a Referee's stays), and turns no longer
    /// count as run out in a row.
    pub(super) fn unstall(&mut self, t: Timestamp) {
        if self.stalled {
            self.end_pause(t);
        }
        self.ran_out.clear();
    }

    // ----- votes ---------------------------------------------------------------------

    pub(super) fn close_vote(
        &mut self,
        n: u32,
        t: Timestamp,
        lines: &mut Vec<String>,
        ctx: &Ctx<'_>,
    ) {
        let Some(i) = self.proposals.iter().position(|p| p.n == n) else {
            return;
        };
        let p = self.proposals[i].clone();
        let cast: Vec<bool> = p.votes.iter().flatten().copied().collect();
        let yes = cast.iter().filter(|&&v| v).count();
        let no = cast.len() - yes;
        let missing = self
            .voters()
            .into_iter()
            .filter(|&v| p.votes[v].is_none())
            .count();
        let adopted = 2 * yes > cast.len();
        let tally = format!("{yes} for, {no} against, {missing} not cast");
        if adopted {
            let rule = match &p.change {
                Change::Enact => Some(self.rules.enact(p.number, &p.text, p.immutable, n)),
                Change::Amend(r, text) => {
                    self.rules.amend(*r, text, n);
                    Some(*r)
                }
                Change::Repeal(r) => {
                    self.rules.repeal(*r, n);
                    Some(*r)
                }
            };
            self.proposals[i].standing = Standing::Adopted(rule);
            let what = match (&p.change, rule) {
                (Change::Enact, Some(r)) => format!("; it is rule {r}"),
                (Change::Amend(..), Some(r)) => format!("; rule {r} is amended"),
                (Change::Repeal(_), Some(r)) => format!("; rule {r} is repealed"),
                _ => String::new(),
            };
            lines.push(format!("Proposal {n} is adopted ({tally}){what}."));
            self.takes_effect(&p, rule, lines);
            self.after_proposal(p.held, t, lines, ctx);
        } else {
            self.proposals[i].standing = Standing::Defeated;
            lines.push(format!("Proposal {n} is defeated ({tally})."));
            let author = ctx.players.iter().position(|u| *u == p.author);
            match author {
                Some(a) if !self.demotable(a).is_empty() && !self.pos.forfeited[a] => {
                    self.demotion = Some(Demotion {
                        author: a,
                        proposal: n,
                        since: t,
                        referee: false,
                        held: p.held,
                    });
                    lines.push(format!(
                        "{} must demote one of their non-king pieces: /demote square:<half>:<sq>.",
                        ctx.players[a]
                    ));
                }
                Some(a) => {
                    lines.push(format!("{} has no piece to demote.", ctx.players[a]));
                    self.after_proposal(p.held, t, lines, ctx);
                }
                None => self.after_proposal(p.held, t, lines, ctx),
            }
        }
    }

    /// An adopted change takes effect at the close of its vote (§6.9): a change to the time
    /// limits of rule 206 is enforced at once; any other change the bot cannot enforce, and
    /// the Referees are called on to apply it.
    pub(super) fn takes_effect(
        &mut self,
        p: &Proposal,
        rule: Option<u32>,
        lines: &mut Vec<String>,
    ) {
        let Some(r) = rule else {
            return;
        };
        match &p.change {
            Change::Amend(206, text) => {
                if let Some((one, three)) = limits_of(text) {
                    self.settings.part1_limit = one;
                    self.settings.part3_limit = three;
                    self.rules.set_enforced(206, true);
                    lines.push(format!(
                        "Rule 206 takes effect now: part 1 has {}, part 3 has {} (from the next part that begins).",
                        limit_text(one),
                        limit_text(three)
                    ));
                    return;
                }
            }
            Change::Repeal(206) => {
                self.settings.part1_limit = NO_LIMIT;
                self.settings.part3_limit = NO_LIMIT;
                lines.push(
                    "Rule 206 is repealed: parts 1 and 3 have no time limit from now.".into(),
                );
                return;
            }
            _ => {}
        }
        let what = match &p.change {
            Change::Enact => format!(
                "rule {r} is enacted (proposal {}) and the bot cannot enforce it: apply it from now on, correcting the game with /edit, /assign, /order or /set, and /pause play if needed",
                p.n
            ),
            Change::Amend(..) => format!(
                "rule {r} is amended (proposal {}) and the bot cannot enforce its new text{}: apply it as it now reads (/rules number:{r}), correcting the game with /edit, /assign, /order or /set, and /pause play if needed",
                p.n,
                if r == 206 {
                    " (it names no time limits the bot can read)"
                } else {
                    "; the bot still plays the rule as it first read"
                }
            ),
            Change::Repeal(_) => format!(
                "rule {r} is repealed (proposal {}){}: correct the game with /edit, /assign, /order or /set where it no longer applies",
                p.n,
                if super::super::rules::enforced_at_start(r) {
                    " but the bot still plays the rule as it first read"
                } else {
                    "; stop applying it"
                }
            ),
        };
        lines.push(format!(
            "Rule {r} is referee-enforced: the Referees are asked to apply the change."
        ));
        self.call_referees(&format!("Referees: {what}"));
    }

    /// After a proposal is settled: a held one releases the turn's clock; else the turn
    /// ends.
    pub(super) fn after_proposal(
        &mut self,
        held: bool,
        t: Timestamp,
        lines: &mut Vec<String>,
        ctx: &Ctx<'_>,
    ) {
        self.demotion = None;
        if held {
            if let Some(since) = self.held.take() {
                self.holds.push((since, t));
            }
        } else {
            self.end_turn(t, lines, ctx);
        }
    }

    /// Squares of the non-king pieces of armies a player controls.
    pub(super) fn demotable(&self, player: usize) -> Vec<Local> {
        let armies = self.pos.armies_of(player);
        self.pos
            .pieces()
            .into_iter()
            .filter(|(_, p)| p.kind != Kind::King && armies.contains(&p.army))
            .map(|(l, _)| l)
            .collect()
    }
}

pub(super) fn running_name(which: Running) -> &'static str {
    match which {
        Running::Vote(_) => "the vote",
        Running::Demotion => "the demotion",
        Running::Turn => "the turn's part",
    }
}
