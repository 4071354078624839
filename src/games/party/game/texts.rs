//! The game's texts: `/status`, the hands line, the state's lines, and the offered and planned
//! plays shown to a player.

use super::*;

impl Game {
    /// The `/status` text.
    pub fn status_text(&self, now: Timestamp) -> String {
        let st = &self.state;
        let mut v = vec![format!(
            "Party Chess, Chess-Umpire {}, turn limit {}, seed {}, echo: {}",
            st.umpire,
            format_duration(self.settings.turn_limit),
            self.settings.seed,
            self.settings.echo.word()
        )];
        let list: Vec<String> = st.pos.list.iter().map(|&s| self.seat_name(s)).collect();
        v.push(format!("Play List: {}", list.join(", ")));
        if !st.started {
            v.push(format!(
                "Waiting for pieces from: {} (/party pieces set:<five letters, value at most 30>)",
                self.waiting_picks().join(", ")
            ));
        }
        let check: Vec<&str> = self.in_check().iter().map(|&s| self.user(s)).collect();
        v.push(format!(
            "In check: {}",
            if check.is_empty() {
                "nobody".to_string()
            } else {
                check.join(", ")
            }
        ));
        v.push(self.weights_line());
        v.push(format!("Off-board: {}", self.hands_line()));
        v.push(format!("RoundCount: {}", st.round_count));
        if !st.warm.is_empty() {
            let w: Vec<&str> = st.warm.iter().map(|&s| self.user(s)).collect();
            v.push(format!("Warm: {}", w.join(", ")));
        }
        if let Some(l) = &st.last {
            v.push(format!("Last play: {} {}", self.user(l.seat), l.text));
        }
        if let Some(result) = &st.ended {
            v.push(format!("Ended by the Chess-Umpire. Result: {result}"));
        }
        if let (Some(s), Some(due)) = (self.to_play(), self.deadline()) {
            v.push(format!(
                "To play: {} (time left {}, until {})",
                self.user(s),
                format_duration(due.saturating_sub(now)),
                crate::time::stamp(due, crate::time::Style::Full)
            ));
        }
        v.push(format!("position: {}", st.pos.to_text()));
        v.join("\n")
    }

    pub(super) fn seat_name(&self, s: u8) -> String {
        format!("{} ({s})", self.user(s))
    }

    pub(super) fn hands_line(&self) -> String {
        let parts: Vec<String> = self
            .state
            .pos
            .seats()
            .into_iter()
            .filter(|&s| !self.state.pos.hand(s).is_empty())
            .map(|s| {
                let h: String = self
                    .state
                    .pos
                    .hand(s)
                    .iter()
                    .map(|p| p.hand_text())
                    .collect();
                format!("{} {h}", self.user(s))
            })
            .collect();
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }

    /// The console's `!state` lines.
    pub fn state_lines(&self) -> Vec<String> {
        let st = &self.state;
        let mut v = board_lines(st.pos.placement(), st.pos.to_text());
        let seats: Vec<String> = (1..=st.users.len() as u8)
            .map(|s| {
                let gone = if st.pos.list.contains(&s) {
                    ""
                } else {
                    " (removed)"
                };
                format!("{s}:{}{gone}", self.user(s))
            })
            .collect();
        v.push(format!("seats: {}", seats.join(", ")));
        v.push(format!("umpire: {}", st.umpire));
        v.push(format!(
            "started: {}",
            if st.started { "yes" } else { "no" }
        ));
        v.push(self.weights_line());
        let check: Vec<&str> = self.in_check().iter().map(|&s| self.user(s)).collect();
        v.push(format!("in check: {}", listed(&check, ", ")));
        v.push(format!("round count: {}", st.round_count));
        let played: Vec<String> = st.played.iter().map(u8::to_string).collect();
        v.push(format!("played this round: {}", played.join(",")));
        let warm: Vec<String> = st.warm.iter().map(u8::to_string).collect();
        v.push(format!("warm: {}", listed(&warm, ",")));
        v.push(format!("turn started: {}", st.turn_started));
        if let Some(d) = self.deadline() {
            v.push(format!("turn expires: {d}"));
        }
        for (i, l) in st.ledger.iter().enumerate() {
            v.push(format!("ledger {}: {l}", i + 1));
        }
        v
    }

    /// The plays the user may make now, as `/move` accepts them.
    ///
    /// # Errors
    /// Not their turn.
    pub fn offered(&self, user: &str) -> R<Vec<String>> {
        self.my_turn(user)?;
        Ok(notation::legal_texts(&self.state.pos))
    }

    /// The plays `user` could make in the position as it stands if their seat were at the top
    /// of the Play List: the list `/moves` adds to its refusal off-turn, for planning. Empty
    /// before play begins, after the end and for a user without a seat.
    pub fn planned(&self, user: &str) -> Vec<String> {
        if self.to_play().is_none() {
            return Vec::new();
        }
        let Some(seat) = self.seat_of(user) else {
            return Vec::new();
        };
        let mut pos = self.state.pos.clone();
        pos.list.retain(|&s| s != seat);
        pos.list.insert(0, seat);
        notation::legal_texts(&pos)
    }
}
