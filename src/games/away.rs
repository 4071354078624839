//! Vacations as the games see them (shared rules 7.5): the periods each player is away,
//! handed in by the layer as it hands in `now`, so every rule stays testable with a fake
//! clock. A limit running on an away player's turn stops: its deadline moves by the time away
//! that falls before it. Limits running on others, and the Kung Fu lock, are unaffected.
//!
//! Periods only ever begin at the moment they are taken and end at the latest then or later
//! (`/vacation off` ends one early at that moment), so a deadline already passed never moves:
//! replaying a log with the vacations as stored gives the same game at any later time.

use std::collections::BTreeMap;

use crate::time::Timestamp;

/// The vacations of a game's players: user → periods `[from, until)`, in order, disjoint.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Away {
    periods: BTreeMap<String, Vec<(Timestamp, Timestamp)>>,
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
        }
    }

    /// Until when `user` is away at `t`, if they are.
    pub fn until(&self, user: &str, t: Timestamp) -> Option<Timestamp> {
        self.periods
            .get(user)?
            .iter()
            .find(|&&(a, b)| a <= t && t < b)
            .map(|&(_, b)| b)
    }

    /// Whether `user` was away at `t` for what a replay counts (a post against them): only
    /// after the second their vacation began, so what happened in that second, before it
    /// was taken, replays as it happened.
    pub fn away_after_start(&self, user: &str, t: Timestamp) -> bool {
        self.periods
            .get(user)
            .is_some_and(|v| v.iter().any(|&(a, b)| a < t && t < b))
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
    /// run while they are away.
    pub fn deadline(&self, user: &str, start: Timestamp, limit: Timestamp) -> Timestamp {
        let mut t = start;
        let mut left = limit;
        for &(a, b) in self.periods.get(user).map_or(&[][..], Vec::as_slice) {
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

/// `away until 2026-01-05 18:00 UTC`, for pictures.
pub fn until_text(back: Timestamp, now: Timestamp) -> String {
    let when = crate::time::utc_text(&crate::time::stamp(back, crate::time::Style::Full), now);
    format!("away until {when}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: Timestamp = 3600;

    #[test]
    fn a_limit_stops_while_its_player_is_away() {
        let mut a = Away::none();
        // 24h limit from 0; away from 10h to 40h: 10h ran before, 14h are left at 40h.
        a.add("ann", 10 * H, 40 * H);
        assert_eq!(a.deadline("ann", 0, 24 * H), 54 * H);
        // Others' limits are unaffected.
        assert_eq!(a.deadline("bob", 0, 24 * H), 24 * H);
        // A period after the deadline changes nothing; one already under way at the start
        // counts from the start.
        assert_eq!(a.deadline("ann", 0, 5 * H), 5 * H);
        assert_eq!(a.deadline("ann", 20 * H, 5 * H), 45 * H);
        // Two periods in one limit.
        a.add("ann", 50 * H, 60 * H);
        assert_eq!(a.deadline("ann", 0, 24 * H), 64 * H);
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
}
