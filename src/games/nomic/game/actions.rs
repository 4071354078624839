//! The game's entry points, as the adapter calls them: creating a game and reading it back from
//! its log, the state at a moment and the deadlines between two moments, applying an action,
//! what the game asks of whom, takebacks, reverts, offered and planned moves.

use super::*;

impl Game {
    /// Creates a game.
    ///
    /// # Errors
    /// Fewer than two players, duplicates, a bad order, or a position that does not read.
    pub fn create(new: NewGame, organiser: &str, now: Timestamp) -> Result<Game, Refusal> {
        let r = |m: &str| Refusal::Rule(m.to_string());
        let n = new.players.len();
        if n < 2 {
            return Err(r("Nomic Chess needs at least two players: players:@a @b …"));
        }
        if n > 26 {
            return Err(r("at most 26 players"));
        }
        let mut sorted = new.players.clone();
        sorted.sort();
        sorted.dedup();
        if sorted.len() != n || new.players.iter().any(|p| p.trim().is_empty()) {
            return Err(r("the players must be different users"));
        }
        if new.settings.seed > MAX_SEED {
            return Err(r("seed out of range"));
        }
        let mut settings = new.settings.clone();
        if settings.referees.is_empty() {
            settings.referees.push(organiser.to_string());
        }
        let order = match &new.order {
            Some(list) => {
                let mut o = Vec::new();
                for u in list {
                    match new.players.iter().position(|p| p == u) {
                        Some(i) if !o.contains(&i) => o.push(i),
                        _ => {
                            return Err(Refusal::Rule(format!(
                                "order: {u} is not a player (or named twice)"
                            )))
                        }
                    }
                }
                if o.len() != n {
                    return Err(r("order: must name every player once"));
                }
                o
            }
            None => drawn_order(n, settings.seed),
        };
        let position = match &new.position {
            Some(text) => {
                let mut p = Position::from_text(text)?;
                if p.players() != n {
                    return Err(Refusal::Rule(format!(
                        "the position has {} half-boards but {n} players are named",
                        p.players()
                    )));
                }
                if new.order.is_some() {
                    p.order = order.clone();
                }
                Some(p.to_text())
            }
            None => None,
        };
        let log =
            crate::layer::log::Log::started(organiser, now, Action::Start { position, order });
        Game::from_log(new.players, settings, log)
    }

    /// A game rebuilt from its log, nobody away ([`Game::from_log_away`] with the players'
    /// vacations: the limits the replay runs out wait for an away player).
    ///
    /// # Errors
    /// Fewer than two players, or a log that does not replay.
    pub fn from_log(
        players: Vec<String>,
        settings: Settings,
        log: impl Into<crate::layer::log::Log<Action>>,
    ) -> Result<Game, Refusal> {
        Game::from_log_away(players, settings, log, crate::layer::clock::Away::none())
    }

    pub(super) fn ctx(&self, organiser_role: bool) -> Ctx<'_> {
        Ctx {
            players: &self.users,
            organiser: self.organiser(),
            organiser_role,
            away: &self.away,
        }
    }

    /// The organiser who created the game.
    pub fn organiser(&self) -> &str {
        self.log.first().map_or("", |e| e.actor.as_str())
    }

    /// The state at `now` (limits that fell due applied).
    pub fn state_at(&self, now: Timestamp) -> State {
        let mut st = self.start(now);
        let ctx = self.ctx(false);
        st.advance(now, &ctx, &mut Vec::new());
        st
    }

    /// Limits falling due in `(after, until]`.
    pub fn events(&self, after: Timestamp, until: Timestamp) -> Vec<TimeEvent> {
        let mut st = self.start(after);
        let ctx = self.ctx(false);
        st.advance(after, &ctx, &mut Vec::new());
        let mut ev = Vec::new();
        st.advance(until, &ctx, &mut ev);
        ev.retain(|e| e.at > after && e.at <= until);
        ev
    }

    /// Each limit falling due in `(after, until]`, in order, with the state at its time (as
    /// [`Game::state_at`] gives it), found in one pass rather than one replay per event (a
    /// day of 5-minute limits is hundreds of them; issue 22's timer sweep).
    pub fn each_event(
        &self,
        after: Timestamp,
        until: Timestamp,
        mut f: impl FnMut(TimeEvent, &State),
    ) {
        let mut st = self.start(after);
        let ctx = self.ctx(false);
        for e in self.events(after, until) {
            st.advance(e.at, &ctx, &mut Vec::new());
            f(e, &st);
        }
    }

    /// What [`Ahead`] follows from: the log's length and its undone entries (every action,
    /// takeback, revert or hand-over changes one; new vacations replay the log).
    pub(super) fn ahead_key(&self) -> (usize, usize) {
        let undone = self.log.iter().filter(|e| e.reverted.is_some()).count();
        (self.log.len(), undone)
    }

    /// The state to run the limits on from to reach `t`: the latest one the sweep kept at
    /// or before `t` ([`Game::catch_up`]), else the one the log gives.
    pub(super) fn start(&self, t: Timestamp) -> State {
        let kept = self
            .state
            .ahead
            .as_deref()
            .filter(|a| a.key == self.ahead_key())
            .and_then(|a| a.points.iter().rev().find(|(at, _)| *at <= t));
        match kept {
            Some((_, st)) => st.clone(),
            None => {
                let mut st = self.state.clone();
                st.ahead = None;
                st
            }
        }
    }

    /// Keeps the state the limits ran out to by `now` (the timer sweep, once it announced
    /// them), and those an hour, a day and 30 days before, so that the next sweep and every
    /// question until the next action start there: catching up costs what fell due since,
    /// not everything since the last action.
    pub fn catch_up(&mut self, now: Timestamp) {
        let key = self.ahead_key();
        let ctx = self.ctx(false);
        let mut points: Vec<(Timestamp, State)> = Vec::new();
        for t in KEPT_BEHIND
            .iter()
            .map(|b| now.saturating_sub(*b))
            .chain(std::iter::once(now))
        {
            if points.last().is_some_and(|(at, _)| *at >= t) {
                continue;
            }
            let mut st = self.start(t);
            st.advance(t, &ctx, &mut Vec::new());
            st.ahead = None;
            points.push((t, st));
        }
        self.state.ahead = Some(std::sync::Arc::new(Ahead { key, points }));
    }

    /// The next action number.
    pub fn next_number(&self) -> u32 {
        self.log.next_number()
    }

    /// Whether the game is over (at the last action).
    pub fn finished(&self) -> bool {
        self.state.over
    }

    /// A player's index.
    pub fn player_of(&self, user: &str) -> Option<usize> {
        self.users.iter().position(|u| u == user)
    }

    /// `army 2 (ben)`.
    pub fn army_name(&self, st: &State, a: usize) -> String {
        match st.pos.controllers.get(a).copied().flatten() {
            Some(p) => format!("army {} ({})", a + 1, self.users[p]),
            None => format!("army {} (control pending)", a + 1),
        }
    }

    /// Applies an action by `actor` at `now`.
    ///
    /// # Errors
    /// Why it is refused; nothing changes.
    pub fn apply(
        &mut self,
        actor: &str,
        action: Action,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        self.apply_as(actor, false, action, now, command)
    }

    /// Applies an action by `actor` at `now`; `organiser` says whether the actor holds the
    /// organiser role (the game's creator always counts as its organiser). Only a change of
    /// who must act notifies: whoever was already asked to act is not asked again.
    ///
    /// # Errors
    /// Why it is refused; nothing changes.
    pub fn apply_as(
        &mut self,
        actor: &str,
        organiser: bool,
        action: Action,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        match action {
            Action::Takeback { .. } => return self.takeback(actor, now, command),
            Action::Revert { to, reason } => {
                return self.revert(Reverting::new(to, actor, &reason, now, command))
            }
            Action::Start { .. } => return refuse("the game has started"),
            _ => {}
        }
        let ctx = self.ctx(organiser);
        let mut st = self.start(now);
        st.advance(now, &ctx, &mut Vec::new());
        let before = self.asks(&st);
        let mut action = action;
        let lines = fold(&mut st, &ctx, actor, &mut action, now)?;
        let calls = std::mem::take(&mut st.calls);
        self.state = st;
        crate::layer::log::seat_change(&mut self.users, &action);
        let number = self.log.push(actor, now, command, action, true);
        let mut a = self.accepted(number, lines);
        a.notify.retain(|x| !before.contains(x));
        for c in calls {
            if !a.notify.contains(&c) {
                a.notify.push(c);
            }
        }
        Ok(a)
    }

    /// What the current state asks of whom: (user, what).
    pub fn asks(&self, st: &State) -> Vec<(String, String)> {
        let mut v = Vec::new();
        if st.over || st.paused.is_some() {
            return v;
        }
        if let Some(p) = st.open_vote() {
            for q in st.voters() {
                if p.votes[q].is_none() {
                    v.push((
                        self.users[q].clone(),
                        format!(
                            "vote on proposal {}: /vote proposal:{} choice:for|against",
                            p.n, p.n
                        ),
                    ));
                }
            }
            return v;
        }
        if let Some(d) = &st.demotion {
            v.push((
                self.users[d.author].clone(),
                "demote one of your non-king pieces: /demote square:<half>:<sq>".into(),
            ));
            return v;
        }
        if let Some(p) = st.current_player() {
            let what = match (st.pos.turn.slot, st.pos.turn.part) {
                (Slot::Army(a), 1) => format!("your turn with army {}: /push then /move", a + 1),
                (Slot::Army(_), 2) => "part 2: /take or /decline the armies offered".into(),
                (Slot::Army(_), _) => "part 3: /propose a rule-change or /done".into(),
                (Slot::Undead(_), _) => "your undead slot: /propose a rule-change or /done".into(),
                _ => String::new(),
            };
            v.push((self.users[p].clone(), what));
        }
        v
    }

    pub(super) fn accepted(&self, number: Option<u32>, mut lines: Vec<String>) -> Accepted {
        let st = &self.state;
        lines.push(self.whose_line(st));
        Accepted {
            number,
            text: lines.join("\n"),
            notify: self.asks(st),
        }
    }

    /// One line: whose turn and which part, or the result.
    pub fn whose_line(&self, st: &State) -> String {
        if st.over {
            return match st.winner {
                Some(w) => format!("Game over: {} wins.", self.users[w]),
                None => "Game over: no winner.".into(),
            };
        }
        let mut s = match (st.pos.turn.slot, st.pos.turn.part) {
            (Slot::Army(a), part) => {
                let extra = match (part, st.pos.turn.join) {
                    (1, Some(j)) => format!(", pushed {}", j.text()),
                    (1, None) => ", to push".into(),
                    _ => String::new(),
                };
                format!("Turn: {}, part {part}{extra}.", self.army_name(st, a))
            }
            (Slot::Undead(p), _) => {
                format!("Turn: {}'s undead slot (propose or /done).", self.users[p])
            }
            (Slot::Idle, _) => "Turn: nobody (waiting for a Referee).".into(),
        };
        if let Some(p) = st.open_vote() {
            s.push_str(&format!(" Vote open on proposal {}.", p.n));
        }
        if let Some(d) = &st.demotion {
            s.push_str(&format!(
                " Waiting for {}'s demotion.",
                self.users[d.author]
            ));
        }
        if st.paused.is_some() {
            s.push_str(" Paused.");
        }
        s
    }

    pub(super) fn takeback(
        &mut self,
        user: &str,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        if self.player_of(user).is_none() && !self.settings.referees.iter().any(|r| r == user) {
            return refuse("you are not in this game");
        }
        let (number, line) =
            self.take_back(user, now, command, |undone| Action::Takeback { undone })?;
        Ok(self.accepted(number, vec![line]))
    }

    pub(super) fn revert(&mut self, by: Reverting<'_>) -> Result<Accepted, Refusal> {
        let (number, line) = self.revert_logged(&by, |to, reason| Action::Revert { to, reason })?;
        Ok(self.accepted(number, vec![line]))
    }

    /// The plays offered to a user now: pushes (`push bottom:A top:B`) before a push, then
    /// the moves on J.
    ///
    /// # Errors
    /// Not their turn to move.
    pub fn offered(&self, user: &str, now: Timestamp) -> Result<Vec<String>, Refusal> {
        let st = self.state_at(now);
        let Some(p) = self.player_of(user) else {
            return refuse("you are not a player in this game");
        };
        if st.over {
            return refuse("the game is over");
        }
        if st.current_player() != Some(p) {
            return refuse("it is not your turn");
        }
        let Slot::Army(army) = st.pos.turn.slot else {
            return refuse("an undead player does not move");
        };
        if st.pos.turn.part != 1 {
            return refuse(format!("it is part {}; no moves now", st.pos.turn.part));
        }
        let rules = st.rules();
        match st.pos.turn.join {
            Some(j) => {
                let b = st.pos.joined(j);
                let mut v: Vec<String> = st
                    .pos
                    .budget_moves(j, army, rules)
                    .into_iter()
                    .map(|m| move_text(&b, m))
                    .collect();
                v.sort();
                Ok(v)
            }
            None => Ok(st
                .pos
                .pushes_with_moves(army, rules)
                .into_iter()
                .map(|j| {
                    format!(
                        "push bottom:{} top:{}",
                        half_letter(j.bottom),
                        half_letter(j.top)
                    )
                })
                .collect()),
        }
    }

    /// What `user` could do in the position as it stands when their army's turn comes (the
    /// pushes with a move, for each army they control, `army 2: push bottom:A top:B` when
    /// they control several): the list `/moves` adds to its refusal off-turn, for planning.
    /// Empty for a non-player and after the end.
    pub fn planned(&self, user: &str, now: Timestamp) -> Vec<String> {
        let st = self.state_at(now);
        let Some(p) = self.player_of(user) else {
            return Vec::new();
        };
        if st.over {
            return Vec::new();
        }
        let rules = st.rules();
        let armies = st.pos.armies_of(p);
        let mut v = Vec::new();
        for &army in &armies {
            // The army's turn as it would begin now: every half holding its pieces usable.
            let mut pos = st.pos.clone();
            let n = pos.players();
            pos.turn.slot = Slot::Army(army);
            pos.turn.part = 1;
            pos.turn.s = pos.halves_of(army);
            pos.turn.involved = vec![false; n];
            pos.turn.join = None;
            for j in pos.pushes_with_moves(army, rules) {
                let push = format!(
                    "push bottom:{} top:{}",
                    half_letter(j.bottom),
                    half_letter(j.top)
                );
                v.push(if armies.len() > 1 {
                    format!("army {}: {push}", army + 1)
                } else {
                    push
                });
            }
        }
        v
    }
}

/// A stored game is rebuilt with the players' vacations ([`Game::from_log_away`]): the limits
/// the replay runs out wait for an away player.
impl crate::layer::table::Rebuilt for Nomic {
    fn unreplayed(
        players: Vec<String>,
        settings: Settings,
        log: crate::layer::log::Log<Action>,
    ) -> Result<Game, Refusal> {
        if players.len() < 2 {
            return refuse("a Nomic Chess game has at least two players");
        }
        let state = State::new(players.len(), settings.clone(), 0);
        Ok(Game::with_log(settings, players, log, state))
    }
}
