//! Vacations as the games see them (shared rules 7.5): the periods each player is away,
//! handed in by the layer as it hands in `now`, so every rule stays testable with a fake
//! clock. A limit running on an away player's turn stops: its deadline moves by the time away
//! that falls before it. Limits running on others, and the Kung Fu lock, are unaffected.
//!
//! Periods only ever begin at the moment they are taken and end at the latest then or later
//! (`/vacation off` ends one early at that moment), so a deadline already passed never moves:
//! replaying a log with the vacations as stored gives the same game at any later time.
//!
//! The layer hands in the game's pauses the same way (issue 53: one clock, owned by the
//! layer): while a game is paused every limit stops, whoever it runs on, and every counter
//! of absence with it. A game never subtracts pause or away time itself: [`Away::deadline`]
//! and [`Away::away_after_start`] do.

use std::collections::BTreeMap;

use crate::time::Timestamp;

/// The vacations of a game's players: user → periods `[from, until)`, in order, disjoint.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Away {
    periods: BTreeMap<String, Vec<(Timestamp, Timestamp)>>,
    /// The game's pauses `[from, until)` (the last may be open: `Timestamp::MAX`), in
    /// order, disjoint: every seat's limits and counters stop in them.
    paused: Vec<(Timestamp, Timestamp)>,
}

impl Away {
    /// Nobody away.
    pub fn none() -> Away {
        Away::default()
    }

    /// Whether nobody was ever away.
    pub fn is_empty(&self) -> bool {
        self.periods.is_empty()
    }

    /// Sets the game's pauses, as the layer's clock finds them (oldest first, disjoint).
    pub fn set_pauses(&mut self, pauses: Vec<(Timestamp, Timestamp)>) {
        self.paused = pauses;
    }

    /// Whether `self` and `other` say the same of every moment up to `t` (a replay of
    /// entries up to `t` reads the same from both: the layer's clock moves the start of a
    /// pause still to come after every action, which needs no replay).
    pub fn same_until(&self, other: &Away, t: Timestamp) -> bool {
        let cut = |v: &[(Timestamp, Timestamp)]| -> Vec<(Timestamp, Timestamp)> {
            v.iter()
                .filter(|&&(a, _)| a <= t)
                .map(|&(a, b)| (a, b.min(t.saturating_add(1))))
                .collect()
        };
        let users = |a: &Away| -> BTreeMap<String, Vec<(Timestamp, Timestamp)>> {
            a.periods
                .iter()
                .map(|(u, v)| (u.clone(), cut(v)))
                .filter(|(_, v)| !v.is_empty())
                .collect()
        };
        cut(&self.paused) == cut(&other.paused) && users(self) == users(other)
    }

    /// Since when the game is paused at `t`, if it is.
    pub fn paused_at(&self, t: Timestamp) -> Option<Timestamp> {
        self.paused
            .iter()
            .find(|&&(a, b)| a <= t && t < b)
            .map(|&(a, _)| a)
    }

    /// The periods in which a limit on `user` stops: their vacations, the game's pauses and
    /// `also` (the game's own stops of that limit, handed in as periods), merged, in order.
    fn stops(&self, user: &str, also: &[(Timestamp, Timestamp)]) -> Vec<(Timestamp, Timestamp)> {
        let own = self.periods.get(user).map_or(&[][..], Vec::as_slice);
        if self.paused.is_empty() && also.is_empty() {
            return own.to_vec();
        }
        let mut v: Vec<(Timestamp, Timestamp)> = own
            .iter()
            .chain(self.paused.iter())
            .chain(also.iter())
            .copied()
            .filter(|&(a, b)| a < b)
            .collect();
        v.sort_unstable();
        let mut merged: Vec<(Timestamp, Timestamp)> = Vec::with_capacity(v.len());
        for (a, b) in v {
            match merged.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        merged
    }

    /// Adds a period `[from, until)` for `user` (overlapping periods merge).
    pub fn add(&mut self, user: &str, from: Timestamp, until: Timestamp) {
        if until <= from {
            return;
        }
        let v = self.periods.entry(user.to_string()).or_default();
        v.push((from, until));
        v.sort_unstable();
        let mut merged: Vec<(Timestamp, Timestamp)> = Vec::with_capacity(v.len());
        for &(a, b) in v.iter() {
            match merged.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        *v = merged;
    }

    /// The periods of the users named only.
    pub fn of_users(&self, users: &[String]) -> Away {
        Away {
            periods: self
                .periods
                .iter()
                .filter(|(u, _)| users.contains(u))
                .map(|(u, p)| (u.clone(), p.clone()))
                .collect(),
            paused: self.paused.clone(),
        }
    }

    /// The vacations as the seats held them, for a game whose seats were handed over
    /// (`handovers`: when, which seat, from whom, to whom, in order; `users`: who holds each
    /// seat now). A player's vacation counts only while they held their seat, and every
    /// holder of a seat, past or present, is given the seat's whole history: so a later
    /// substitution or vacation never moves a limit of the past (issue 54.3), and the
    /// incoming player does not bring earlier vacations of their own.
    pub fn by_seat(
        &self,
        users: &[String],
        handovers: &[(Timestamp, crate::layer::log::Handover)],
    ) -> Away {
        if handovers.is_empty() {
            return self.clone();
        }
        let mut first = users.to_vec();
        for (_, h) in handovers.iter().rev() {
            if let Some(u) = first.get_mut(h.seat) {
                *u = h.from.clone();
            }
        }
        let mut out = Away {
            periods: BTreeMap::new(),
            paused: self.paused.clone(),
        };
        for (seat, start) in first.iter().enumerate() {
            // The seat's holders, each with the time they took it.
            let mut holders: Vec<(Timestamp, &str)> = vec![(0, start.as_str())];
            holders.extend(
                handovers
                    .iter()
                    .filter(|(_, h)| h.seat == seat)
                    .map(|(t, h)| (*t, h.to.as_str())),
            );
            let mut seat_periods = Vec::new();
            for (i, &(from, user)) in holders.iter().enumerate() {
                let until = holders.get(i + 1).map_or(Timestamp::MAX, |h| h.0);
                for &(a, b) in self.periods.get(user).map_or(&[][..], Vec::as_slice) {
                    let (a, b) = (a.max(from), b.min(until));
                    if a < b {
                        seat_periods.push((a, b));
                    }
                }
            }
            for &(_, user) in &holders {
                for &(a, b) in &seat_periods {
                    out.add(user, a, b);
                }
            }
        }
        out
    }

    /// Until when `user` is away at `t`, if they are.
    pub fn until(&self, user: &str, t: Timestamp) -> Option<Timestamp> {
        self.periods
            .get(user)?
            .iter()
            .find(|&&(a, b)| a <= t && t < b)
            .map(|&(_, b)| b)
    }

    /// Whether `user` was away at `t` for what a replay counts (a post against them), or
    /// the game was paused then: from the second their vacation (or the pause) began, since
    /// the log cannot tell a post in that second before it from one after it, and a post
    /// made just after a vacation was taken must not count (issue 53). (Ruling: a post in
    /// the very second before the vacation does not count either.)
    pub fn away_after_start(&self, user: &str, t: Timestamp) -> bool {
        self.periods
            .get(user)
            .is_some_and(|v| v.iter().any(|&(a, b)| a <= t && t < b))
            || self.paused.iter().any(|&(a, b)| a <= t && t < b)
    }

    /// The users away at `t`, with when they are back.
    pub fn away_at(&self, t: Timestamp) -> Vec<(String, Timestamp)> {
        self.periods
            .keys()
            .filter_map(|u| self.until(u, t).map(|b| (u.clone(), b)))
            .collect()
    }

    /// What a picture says of the players away at `now` (`ann away until 2026-01-05 18:00
    /// UTC`): pictures cannot show each reader's own time, so the time is UTC.
    pub fn picture_note(&self, now: Timestamp) -> Option<String> {
        let v: Vec<String> = self
            .away_at(now)
            .into_iter()
            .map(|(u, b)| format!("{u} {}", until_text(b, now)))
            .collect();
        (!v.is_empty()).then(|| v.join("; "))
    }

    /// When a limit of `limit` seconds on `user`, started at `start`, runs out: it does not
    /// run while they are away, nor while the game is paused; `None` when a pause still
    /// open stops it (it runs out at no known time).
    pub fn deadline(&self, user: &str, start: Timestamp, limit: Timestamp) -> Option<Timestamp> {
        self.deadline_also(user, start, limit, &[])
    }

    /// [`Away::deadline`] for a limit that also stops in `also`: a game's own pauses (a
    /// Nomic Referee's `/pause`, a round of turns run out), or a hold of one limit by its
    /// rules (a Nomic turn's clock held by an out-of-turn vote). The game states the
    /// periods; the clock alone computes what they do to the deadline.
    pub fn deadline_also(
        &self,
        user: &str,
        start: Timestamp,
        limit: Timestamp,
        also: &[(Timestamp, Timestamp)],
    ) -> Option<Timestamp> {
        let at = run_out(self.stops(user, also), start, limit);
        (at != Timestamp::MAX).then_some(at)
    }

    /// The start a limit on `user` must have for `ran` seconds of it to have run by `at`
    /// (stopped as [`Away::deadline_also`] stops it): a limit given a time left at `at`
    /// (Nomic's `/edit clock left:`) is one of `limit` seconds started here, `limit - left`
    /// having run.
    pub fn start_for(
        &self,
        user: &str,
        at: Timestamp,
        ran: Timestamp,
        also: &[(Timestamp, Timestamp)],
    ) -> Timestamp {
        let mut t = at;
        let mut need = ran;
        for (a, b) in self.stops(user, also).into_iter().rev() {
            if a >= t {
                continue;
            }
            let b = b.min(t);
            if t - b >= need {
                break;
            }
            need -= t - b;
            t = a;
        }
        t.saturating_sub(need)
    }

    /// When a limit of `limit` seconds started at `start` runs out if only the game's pauses
    /// stop it (the Kung Fu lock: a player's vacation does not).
    pub fn paused_deadline(&self, start: Timestamp, limit: Timestamp) -> Timestamp {
        run_out(self.paused.iter().copied(), start, limit)
    }

    /// The latest end of a period of `user` in `(after, until]`: a wait that ran through a
    /// vacation counts from the player's return (reminders start again then).
    pub fn back_in(&self, user: &str, after: Timestamp, until: Timestamp) -> Option<Timestamp> {
        self.periods
            .get(user)?
            .iter()
            .map(|&(_, b)| b)
            .filter(|&b| b > after && b <= until)
            .max()
    }
}

/// When a limit of `limit` seconds started at `start` runs out, stopped in `stops` (periods
/// `[from, until)` in order, disjoint).
fn run_out(
    stops: impl IntoIterator<Item = (Timestamp, Timestamp)>,
    start: Timestamp,
    limit: Timestamp,
) -> Timestamp {
    let mut t = start;
    let mut left = limit;
    for (a, b) in stops {
        if b <= t {
            continue;
        }
        let a = a.max(t);
        if a >= t.saturating_add(left) {
            break;
        }
        left -= a - t;
        t = b;
    }
    t.saturating_add(left)
}

/// `away until 2026-01-05 18:00 UTC`, for pictures.
pub fn until_text(back: Timestamp, now: Timestamp) -> String {
    let when = crate::time::utc_text(&crate::time::stamp(back, crate::time::Style::Full), now);
    format!("away until {when}")
}

/// Whether `name`'s move limit has run out by `now`, for an organiser who resigns or
/// concedes for them: `due` is when it runs out on this clock, `None` while it stops (the
/// game paused, the player away: no overrun can be resigned for then); `limit`, when given,
/// is named in the refusal.
///
/// # Errors
/// The limit stops, or has not run out yet.
pub fn overran(
    name: &str,
    due: Option<Timestamp>,
    now: Timestamp,
    limit: Option<u64>,
) -> Result<(), String> {
    let Some(due) = due else {
        return Err(format!(
            "{name} has not overrun: the move limit stops while the game is paused or they are away"
        ));
    };
    if now < due {
        let limit = limit.map_or(String::new(), |l| {
            format!(" ({})", crate::time::format_duration(l))
        });
        return Err(format!(
            "{name} has not overrun yet: the move limit{limit} runs out in {}",
            crate::time::format_duration(due - now)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: Timestamp = 3600;

    #[test]
    fn an_overrun_stands_only_once_the_limit_ran_out() {
        let stopped = overran("ann", None, 5 * H, Some(H)).unwrap_err();
        assert!(
            stopped.contains("ann has not overrun: the move limit stops"),
            "{stopped}"
        );
        assert_eq!(
            overran("ann", Some(2 * H), H, Some(H)).unwrap_err(),
            "ann has not overrun yet: the move limit (1h) runs out in 1h"
        );
        assert_eq!(
            overran("bob", Some(2 * H), H, None).unwrap_err(),
            "bob has not overrun yet: the move limit runs out in 1h"
        );
        assert_eq!(overran("ann", Some(2 * H), 2 * H, None), Ok(()));
        assert_eq!(overran("ann", Some(2 * H), 3 * H, Some(H)), Ok(()));
    }

    #[test]
    fn a_limit_stops_while_its_player_is_away() {
        let mut a = Away::none();
        // 24h limit from 0; away from 10h to 40h: 10h ran before, 14h are left at 40h.
        a.add("ann", 10 * H, 40 * H);
        assert_eq!(a.deadline("ann", 0, 24 * H), Some(54 * H));
        // Others' limits are unaffected.
        assert_eq!(a.deadline("bob", 0, 24 * H), Some(24 * H));
        // A period after the deadline changes nothing; one already under way at the start
        // counts from the start.
        assert_eq!(a.deadline("ann", 0, 5 * H), Some(5 * H));
        assert_eq!(a.deadline("ann", 20 * H, 5 * H), Some(45 * H));
        // Two periods in one limit.
        a.add("ann", 50 * H, 60 * H);
        assert_eq!(a.deadline("ann", 0, 24 * H), Some(64 * H));
        assert_eq!(a.until("ann", 55 * H), Some(60 * H));
        assert_eq!(a.until("ann", 60 * H), None);
    }

    #[test]
    fn overlapping_periods_merge_and_a_return_is_found() {
        let mut a = Away::none();
        a.add("ann", 10, 20);
        a.add("ann", 15, 30);
        a.add("ann", 40, 40);
        assert_eq!(a.periods["ann"], vec![(10, 30)]);
        assert_eq!(a.back_in("ann", 0, 100), Some(30));
        assert_eq!(a.back_in("ann", 30, 100), None);
        assert_eq!(a.away_at(12), vec![("ann".to_string(), 30)]);
        assert!(a.of_users(&["bob".into()]).is_empty());
    }

    #[test]
    fn a_pause_stops_every_limit_and_counter() {
        let mut a = Away::none();
        a.add("ann", 10 * H, 20 * H);
        a.set_pauses(vec![(15 * H, 30 * H), (50 * H, Timestamp::MAX)]);
        // ann: away 10–20, paused 15–30: her 24h limit from 0 stops 10–30.
        assert_eq!(a.deadline("ann", 0, 24 * H), Some(44 * H));
        // bob: only the pause stops his.
        assert_eq!(a.deadline("bob", 0, 24 * H), Some(39 * H));
        // An open pause: the limit never runs out while it lasts.
        assert_eq!(a.deadline("bob", 40 * H, 24 * H), None);
        assert_eq!(a.paused_at(16 * H), Some(15 * H));
        assert_eq!(a.paused_at(30 * H), None);
        assert!(a.away_after_start("bob", 16 * H));
        assert!(a.away_after_start("bob", 15 * H));
        assert!(!a.away_after_start("bob", 30 * H));
        // A player's own vacation is still theirs alone.
        assert_eq!(a.until("bob", 16 * H), None);
        // A pause still to come after `t` changes nothing up to it.
        let mut b = a.clone();
        b.set_pauses(vec![(15 * H, 30 * H), (60 * H, Timestamp::MAX)]);
        assert!(a.same_until(&b, 49 * H));
        assert!(!a.same_until(&b, 55 * H));
    }

    #[test]
    fn a_games_own_stops_join_the_clock_and_a_time_left_finds_its_start() {
        let mut a = Away::none();
        a.add("ann", 10 * H, 20 * H);
        // A game's own pause 30–40 and ann's vacation stop her 24h limit from 0: 44h.
        let own = [(30 * H, 40 * H)];
        assert_eq!(a.deadline_also("ann", 0, 24 * H, &own), Some(44 * H));
        // An open one: no deadline.
        assert_eq!(
            a.deadline_also("bob", 0, 24 * H, &[(5 * H, Timestamp::MAX)]),
            None
        );
        // 2h left at 50h of a 24h limit: 22h ran, counted back past the stops.
        let start = a.start_for("ann", 50 * H, 22 * H, &own);
        assert_eq!(start, 8 * H);
        assert_eq!(a.deadline_also("ann", start, 24 * H, &own), Some(52 * H));
        // Left at a moment inside a stop: it runs from the stop's end.
        let open = [(30 * H, Timestamp::MAX)];
        let start = a.start_for("bob", 35 * H, 20 * H, &open);
        assert_eq!(start, 10 * H);
        assert_eq!(
            a.deadline_also("bob", start, 24 * H, &[(30 * H, 60 * H)]),
            Some(64 * H)
        );
    }
}
