//! Reminders (issue 41), written once for every game on [`ThreadGame::waits`]: when a user
//! has been waited on for the reminder interval, a new message pings that user alone with
//! what is expected, since when and the deadline; again after each further interval, at most
//! three times for one wait; and once, an hour before a limit of six hours or more runs out
//! on them. They are timers like the games' own ([`timers`]): the sweep finds them, the store
//! records each as sent (so two processes send it once) and a restart sends the last one
//! missed, marked late, rather than one per missed interval.

use super::layer::{Due, ThreadGame, Wait};
use super::Notify;
use crate::time::{stamp, Style, Timestamp};

/// The reminder interval when nobody set one: 12 hours.
pub const REMIND_AFTER: Timestamp = 12 * 3600;
/// At most this many reminders for one wait.
const REMINDERS: u64 = 3;
/// A limit at least this long gets a warning...
const WARNED_LIMIT: Timestamp = 6 * 3600;
/// ...this long before it runs out.
const WARNING: Timestamp = 3600;
/// Reminders are timers of their own seats, past any game's: `REMINDER_SEAT + ` the user's
/// place among the game's users.
const REMINDER_SEAT: usize = 1 << 20;

/// A game's reminder interval: its own `remind:`, else [`REMIND_AFTER`]; `None` when off.
fn interval(game: &dyn ThreadGame) -> Option<Timestamp> {
    match game.remind_after() {
        Some(0) => None,
        Some(s) => Some(s),
        None => Some(REMIND_AFTER),
    }
}

/// Whether a timer's seat is a reminder's.
pub fn is_reminder(seat: usize) -> bool {
    seat >= REMINDER_SEAT
}

/// The reminder times of one wait (the deadline warning last), oldest first.
fn times(w: &Wait, every: Timestamp) -> Vec<(Timestamp, bool)> {
    let mut v: Vec<(Timestamp, bool)> = (1..=REMINDERS)
        .map(|k| w.since.saturating_add(every.saturating_mul(k)))
        .filter(|&t| w.deadline.is_none_or(|d| t < d))
        .map(|t| (t, false))
        .collect();
    if let Some(d) = w.deadline {
        if d.saturating_sub(w.since) >= WARNED_LIMIT {
            v.push((d - WARNING, true));
        }
    }
    v.sort_unstable();
    v
}

/// What a reminder says.
fn text(game: &dyn ThreadGame, w: &Wait, warning: bool) -> String {
    let title = game.kind().title;
    let deadline = w
        .deadline
        .map(|d| format!(", deadline {}", stamp(d, Style::Relative)))
        .unwrap_or_default();
    if warning {
        format!("reminder: one hour left in {title}: {}{deadline}", w.what)
    } else {
        format!(
            "reminder: {title} waits on you: {} (since {}){deadline}",
            w.what,
            stamp(w.since, Style::Relative)
        )
    }
}

/// The reminders falling due in `(after, until]` for the waits as they stand at `until`: of
/// several for one wait, only the last (the others were missed while nobody swept). A wait
/// that ended meanwhile is reminded of no more.
pub fn reminders(game: &dyn ThreadGame, after: Timestamp, until: Timestamp) -> Vec<Due> {
    if until <= after || game.finished() {
        return Vec::new();
    }
    let Some(every) = interval(game) else {
        return Vec::new();
    };
    let users = game.users();
    game.waits(until)
        .into_iter()
        .filter_map(|w| {
            let (at, warning) = times(&w, every)
                .into_iter()
                .rfind(|(t, _)| *t > after && *t <= until)?;
            let seat = REMINDER_SEAT + users.iter().position(|u| *u == w.user)?;
            Some(Due {
                seat,
                at,
                notify: Notify::to([w.user.clone()], text(game, &w, warning)),
            })
        })
        .collect()
}

/// The next reminder after `after`, for the waits as they stand then (or after the game's
/// last action, if that is later).
pub fn next_reminder(game: &dyn ThreadGame, after: Timestamp) -> Option<Timestamp> {
    if game.finished() {
        return None;
    }
    let every = interval(game)?;
    let at = game.log().changed_at().map_or(after, |t| t.max(after));
    game.waits(at)
        .iter()
        .flat_map(|w| times(w, every))
        .map(|(t, _)| t)
        .filter(|&t| t > after)
        .min()
}

/// Every timer of a game falling due in `(after, until]`: its own, then the reminders.
pub fn timers(game: &dyn ThreadGame, after: Timestamp, until: Timestamp) -> Vec<Due> {
    let mut v = game.due(after, until);
    v.extend(reminders(game, after, until));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait(since: Timestamp, deadline: Option<Timestamp>) -> Wait {
        Wait {
            user: "ann".into(),
            what: "move".into(),
            since,
            deadline,
        }
    }

    #[test]
    fn three_reminders_then_none_and_a_warning_before_a_long_limit() {
        let h = 3600;
        let t = times(&wait(0, None), 12 * h);
        assert_eq!(t, vec![(12 * h, false), (24 * h, false), (36 * h, false)]);
        // A 30-hour limit: two reminders before it, and the warning an hour before.
        let t = times(&wait(0, Some(30 * h)), 12 * h);
        assert_eq!(t, vec![(12 * h, false), (24 * h, false), (29 * h, true)]);
        // A limit under six hours gets no warning.
        assert_eq!(times(&wait(0, Some(5 * h)), 12 * h), vec![]);
    }
}
