//! What the game answers about itself: the position, seats and users, whose turn, check, the
//! end, the Weights line, the turn's deadline, and the game as it stands at a moment (turns
//! that ran out written as their default plays, `catch_up`, `expiries`).

use super::*;

impl Game {
    /// The position.
    pub fn position(&self) -> &Position {
        &self.state.pos
    }
    /// Every user seated, seat 1 first (removed seats included).
    pub fn users(&self) -> Vec<String> {
        self.state.users.clone()
    }
    /// The user of a seat.
    pub fn user(&self, seat: u8) -> &str {
        self.state
            .users
            .get(usize::from(seat).saturating_sub(1))
            .map_or("?", String::as_str)
    }
    /// The current seat of a user.
    pub fn seat_of(&self, user: &str) -> Option<u8> {
        self.state
            .pos
            .list
            .iter()
            .copied()
            .find(|&s| self.user(s) == user)
    }
    /// The next action number.
    pub fn next_number(&self) -> u32 {
        self.log.next_number()
    }
    /// The seat to play, once play has begun.
    pub fn to_play(&self) -> Option<u8> {
        if self.state.started && self.state.ended.is_none() {
            self.state.pos.to_play()
        } else {
            None
        }
    }
    /// Seats whose King is attacked.
    pub fn in_check(&self) -> Vec<u8> {
        let p = &self.state.pos;
        p.list.iter().copied().filter(|&s| in_check(p, s)).collect()
    }
    /// Whether the Umpire has ended the game.
    pub fn ended(&self) -> bool {
        self.state.ended.is_some()
    }
    /// The Weights line: `Weights: ann 39.5, ben 3.0`.
    pub fn weights_line(&self) -> String {
        let p = &self.state.pos;
        let parts: Vec<String> = p
            .seats()
            .into_iter()
            .map(|s| format!("{} {:.1}", self.user(s), weight(p, s)))
            .collect();
        format!("Weights: {}", parts.join(", "))
    }
    /// When the current turn expires: its limit (or the Umpire's extension) does not run
    /// while its player is away (shared rules 7.5) or the game is paused (the layer's clock:
    /// `None` while it is).
    pub fn deadline(&self) -> Option<Timestamp> {
        let seat = self.to_play()?;
        if self.state.stalled.is_some() {
            return None;
        }
        let start = self.state.turn_started;
        let limit = self
            .state
            .extended
            .map_or(self.settings.turn_limit, |e| e.saturating_sub(start));
        self.away.deadline(self.user(seat), start, limit)
    }
    /// The game as it stands at `now`: the default plays that fell due applied (the game
    /// itself, not a copy, when none did).
    pub fn at(&self, now: Timestamp) -> std::borrow::Cow<'_, Game> {
        if self.deadline().is_none_or(|d| d > now) {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut g = self.clone();
        g.materialize(now);
        std::borrow::Cow::Owned(g)
    }

    /// Writes the default plays that fell due by `now` into the log, every one of them (a
    /// catch-up is whole: a minute's limit over a day is 1,440), each folded once; their
    /// notices.
    pub(super) fn materialize(&mut self, now: Timestamp) -> Vec<Expiry> {
        let first = self.next_number();
        self.run_out(now, first, true)
    }

    /// The turns that ran out by `now`, each folded into the state once, numbered from
    /// `first` on; written into the log when `write`.
    pub(super) fn run_out(&mut self, now: Timestamp, first: u32, write: bool) -> Vec<Expiry> {
        let mut out: Vec<Expiry> = Vec::new();
        let mut number = first;
        while let Some(due) = self.deadline() {
            if due > now {
                break;
            }
            // Every limit is at least a second, so each default play falls due after the
            // last; one that would not could only repeat for ever.
            if out.last().is_some_and(|e| due <= e.at) {
                tracing::error!(
                    due,
                    "a Party Chess default play fell due no later than the last"
                );
                break;
            }
            let Some(seat) = self.to_play() else { break };
            let play = if in_check(&self.state.pos, seat) {
                "surrender"
            } else {
                "pass"
            };
            let action = Action::Play {
                seat,
                notation: play.to_string(),
                how: How::Default,
            };
            let mut lines = Vec::new();
            let mut st = self.state.clone();
            if fold(&mut st, &self.settings, &action, due, &mut lines).is_err() {
                break;
            }
            self.state = st;
            if write {
                self.log.push(
                    "arbiter",
                    due,
                    &format!("(turn expired: {play})"),
                    action,
                    true,
                );
            }
            // Numbered and with the Weights like every accepted action (shared rules 0.4;
            // Party rules 3.7).
            let text = self.accepted(Some(number), lines, true).text;
            out.push(Expiry {
                at: due,
                seat,
                text: format!("#{number} {text}"),
                next: self.to_play().map(|s| self.user(s).to_string()),
                paused: self.state.stalled == Some(due),
            });
            number = number.saturating_add(1);
        }
        out
    }

    /// Writes the default plays that fell due by `now` into the log (the timer sweep, once
    /// it has announced them).
    pub fn catch_up(&mut self, now: Timestamp) {
        self.materialize(now);
    }

    /// Expiries that fall due in `(after, until]`, found in one pass on a copy of the state
    /// (not of the log: a long one is not copied for each question).
    pub fn expiries(&self, after: Timestamp, until: Timestamp) -> Vec<Expiry> {
        let mut g = Game::with_log(
            self.settings.clone(),
            self.users.clone(),
            crate::layer::log::Log::default(),
            self.state.clone(),
        );
        g.away = self.away.clone();
        g.run_out(until, self.next_number(), false)
            .into_iter()
            .filter(|e| e.at > after)
            .collect()
    }
}
