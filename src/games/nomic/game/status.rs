//! The game's texts for `/status` and the state's lines: whose turn, clocks, open proposals and
//! judgments, the Order and the settings, as players read them.

use super::*;

impl Game {
    /// `/status`.
    pub fn status_text(&self, now: Timestamp) -> String {
        let st = self.state_at(now);
        let mut v = Vec::new();
        let seats: Vec<String> = self
            .users
            .iter()
            .enumerate()
            .map(|(i, u)| format!("{u} (half {}, army {})", half_letter(i), i + 1))
            .collect();
        v.push(format!(
            "Nomic Chess: {}; Referees: {}",
            seats.join(", "),
            st.settings.referees.join(", ")
        ));
        let order: Vec<String> = st
            .pos
            .order
            .iter()
            .map(|&a| self.army_name(&st, a))
            .collect();
        v.push(format!("Order: {}", order.join(", ")));
        v.push(self.whose_line(&st));
        if let Slot::Army(_) = st.pos.turn.slot {
            if st.pos.turn.part == 1 {
                let left: String = (0..st.pos.players())
                    .filter(|&h| st.pos.turn.s[h] && !st.pos.turn.involved[h])
                    .map(half_letter)
                    .collect();
                let s: String = (0..st.pos.players())
                    .filter(|&h| st.pos.turn.s[h])
                    .map(half_letter)
                    .collect();
                let inv: String = (0..st.pos.players())
                    .filter(|&h| st.pos.turn.involved[h])
                    .map(half_letter)
                    .collect();
                v.push(format!(
                    "Budget: S {}, involved {}, halves left to move from: {}",
                    if s.is_empty() { "-" } else { &s },
                    if inv.is_empty() { "-" } else { &inv },
                    if left.is_empty() { "-" } else { &left }
                ));
            }
        }
        if !st.pos.offers.is_empty() {
            let o: Vec<String> = st.pos.offers.iter().map(|a| (a + 1).to_string()).collect();
            v.push(format!("Offered (Take/Decline): army {}", o.join(", ")));
        }
        let living: Vec<String> = st.living().iter().map(|&p| self.users[p].clone()).collect();
        let undead: Vec<String> = st
            .pos
            .infected
            .iter()
            .map(|&p| self.users[p].clone())
            .collect();
        let forfeited: Vec<String> = (0..self.users.len())
            .filter(|&p| st.pos.forfeited[p])
            .map(|p| self.users[p].clone())
            .collect();
        v.push(format!(
            "Living: {}; undead: {}; forfeited: {}",
            listed(&living, ", "),
            listed(&undead, ", "),
            listed(&forfeited, ", ")
        ));
        if let Some(p) = st.open_vote() {
            let waiting: Vec<String> = st
                .voters()
                .into_iter()
                .filter(|&q| p.votes[q].is_none())
                .map(|q| self.users[q].clone())
                .collect();
            let until = st
                .proposals
                .iter()
                .position(|q| q.n == p.n)
                .and_then(|i| st.limit_end(Running::Vote(i), &self.ctx(true)))
                .map_or("play resumes and its limit runs out".to_string(), |at| {
                    crate::time::stamp(at, crate::time::Style::Full)
                });
            v.push(format!(
                "Proposal {} by {} open until {until}: {} (waiting for: {})",
                p.n,
                p.author,
                p.text,
                waiting.join(", ")
            ));
        }
        if let Some(d) = &st.demotion {
            v.push(format!(
                "Demotion: {} must /demote a non-king piece (proposal {} defeated){}",
                self.users[d.author],
                d.proposal,
                if d.referee {
                    "; a Referee may choose now"
                } else {
                    ""
                }
            ));
        }
        for j in st
            .judgments
            .iter()
            .filter(|j| j.standing || j.rulings.is_empty())
        {
            v.push(format!(
                "Judgment {}: {} — {}",
                j.n,
                j.question,
                j.rulings
                    .last()
                    .map_or("awaiting a Referee".to_string(), |(r, t)| format!(
                        "{r}: {t}"
                    ))
            ));
        }
        if st.paused.is_some() {
            v.push(if st.stalled {
                "Play is paused for want of play (every player let a turn run out).".into()
            } else {
                "Play is paused by a Referee.".into()
            });
        }
        if let Some(l) = &st.last {
            v.push(format!("Last move: {}", l.text));
        }
        if let Some((at, _)) = st.next_deadline(&self.ctx(true)) {
            v.push(format!(
                "The current limit runs out at {} ({})",
                crate::time::stamp(at, crate::time::Style::Full),
                crate::time::stamp(at, crate::time::Style::Relative)
            ));
        }
        v.push(format!(
            "Limits: part 1 {}, part 3 {}, vote {}; proposals up to {} characters",
            limit_text(st.settings.part1_limit),
            limit_text(st.settings.part3_limit),
            limit_text(st.settings.vote_limit),
            st.settings.proposal_max
        ));
        v.join("\n")
    }

    /// `!state` lines.
    pub fn state_lines(&self, now: Timestamp) -> Vec<String> {
        let st = self.state_at(now);
        let mut v: Vec<String> = (0..st.pos.players())
            .map(|h| format!("board {}: {}", half_letter(h), st.pos.half_placement(h)))
            .collect();
        v.push(format!("position: {}", st.pos.to_text()));
        v.push(format!("players: {}", self.users.join(", ")));
        v.push(format!("referees: {}", st.settings.referees.join(", ")));
        v.push(self.whose_line(&st).to_lowercase());
        v.push(format!("clock: {}", st.clock));
        for p in &st.proposals {
            let votes: Vec<String> = p
                .votes
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    format!(
                        "{}:{}",
                        self.users[i],
                        match x {
                            Some(true) => "for",
                            Some(false) => "against",
                            None => "-",
                        }
                    )
                })
                .collect();
            v.push(format!(
                "proposal {}: {:?} by {}: {} [{}]",
                p.n,
                p.standing,
                p.author,
                p.text,
                votes.join(" ")
            ));
        }
        for j in &st.judgments {
            v.push(format!(
                "judgment {}: standing {} rulings {}",
                j.n,
                j.standing,
                j.rulings.len()
            ));
        }
        v.push(format!(
            "rules: {} (highest {})",
            st.rules.rules.len(),
            st.rules.max_number()
        ));
        if let Some(w) = st.winner {
            v.push(format!("winner: {}", self.users[w]));
        }
        v
    }
}
