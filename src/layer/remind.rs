//! Reminders (issue 41), written once for every game on [`ThreadGame::waits`]: when a user
//! has been waited on for the reminder interval, a new message pings that user alone with
//! what is expected, since when and the deadline; again after each further interval, at most
//! three times for one wait; and once, an hour before a limit of six hours or more runs out
//! on them. They are timers like the games' own ([`timers`]): the sweep finds them, the store
//! records each as sent (so two processes send it once) and a restart sends the last one
//! missed, marked late, rather than one per missed interval.
//! [`next_due`], the earliest of a game's own timers and its reminders, is the time the store
//! keeps with each game for the sweep to find it by.

use super::attention::{nowait_button, Attention};
use super::game::{Due, ThreadGame, Wait};
use super::prefs::Prefs;
use super::Notify;
use crate::time::{format_duration, stamp, Style, Timestamp};

pub use super::pace::{REMIND_AFTER, STALL_AFTER};
/// At most this many reminders for one wait.
const REMINDERS: u64 = 3;
/// A limit at least this long gets a warning...
const WARNED_LIMIT: Timestamp = 6 * 3600;
/// ...this long before it runs out.
const WARNING: Timestamp = 3600;
/// Reminders are timers of their own seats, past any game's: `REMINDER_SEAT + ` the user's
/// place among the game's users.
const REMINDER_SEAT: usize = 1 << 20;
/// The seat of the layer's pause announcement (nobody acted for the stall time).
const PAUSE_SEAT: usize = REMINDER_SEAT - 1;

/// A user's reminder interval in a game: their own `/notify after:`, else the game's
/// `remind:` (which the server's default filled in), else [`REMIND_AFTER`]; `None` when off.
///
/// Ruling: the player's own interval wins even over a game's `remind:off` (they asked for
/// reminders); their `reminders:off` wins over everything.
fn interval(game: &dyn ThreadGame, prefs: &Prefs) -> Option<Timestamp> {
    if prefs.off {
        return None;
    }
    if let Some(s) = prefs.after {
        return Some(s);
    }
    match game.pace().remind {
        Some(0) => None,
        Some(s) => Some(s),
        None => Some(REMIND_AFTER),
    }
}

/// Whether a timer's seat is a reminder's.
pub fn is_reminder(seat: usize) -> bool {
    seat >= REMINDER_SEAT
}

/// The reminder times of one wait (the deadline warning marked), oldest first: reminders in
/// the user's quiet hours wait for their end (and are dropped if that is past the deadline),
/// a warning in them is moved before they begin.
fn times(w: &Wait, every: Timestamp, prefs: &Prefs) -> Vec<(Timestamp, bool)> {
    let mut v: Vec<(Timestamp, bool)> = (1..=REMINDERS)
        .map(|k| prefs.after_quiet(w.since.saturating_add(every.saturating_mul(k))))
        .filter(|&t| w.deadline.is_none_or(|d| t < d))
        .map(|t| (t, false))
        .collect();
    if let Some(d) = w.deadline {
        if d.saturating_sub(w.since) >= WARNED_LIMIT {
            let at = prefs.before_quiet(d - WARNING);
            if at > w.since {
                v.push((at, true));
            }
        }
    }
    v.sort_unstable();
    v.dedup_by_key(|t| t.0);
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

/// How long the game may sit untouched before it pauses; `None`: never.
fn stall_time(game: &dyn ThreadGame) -> Option<Timestamp> {
    match game.pace().stall {
        Some(0) => None,
        Some(s) => Some(s),
        None => Some(STALL_AFTER),
    }
}

/// When the layer's pause falls due: the stall time after the last action by someone
/// (the bot's own default plays do not count) or the organiser's `/resume`, if later.
fn pause_at(game: &dyn ThreadGame, thread: &str, att: &Attention) -> Option<Timestamp> {
    if game.finished() {
        return None;
    }
    let last = acted(game).last().copied()?;
    let last = att.resumed(thread).map_or(last, |r| r.max(last));
    Some(last.saturating_add(stall_time(game)?))
}

/// When someone acted in the game ([`crate::layer::log::StoredLog::acted_at`]); for a game
/// whose log is still empty (a tournament match before its first pick), when it began.
fn acted(game: &dyn ThreadGame) -> Vec<Timestamp> {
    let v = game.log().acted_at();
    if v.is_empty() {
        return game.last_change().into_iter().collect();
    }
    v
}

/// The layer's pauses of a game (nobody acted for its stall time), oldest first, as the
/// layer's clock hands them to the game with its players' vacations
/// ([`crate::layer::clock::Away::set_pauses`]): each begins the stall time after someone
/// acted (or the organiser's `/resume`) and lasts until the next action or `/resume`; the
/// last may still be open (`Timestamp::MAX`). Every limit and counter of the game stops in
/// them. Read from the log's actions ([`crate::layer::log::StoredLog::acted_at`]) and the
/// stored resumes alone, so a pause of the past never changes.
pub fn pauses(game: &dyn ThreadGame, thread: &str, att: &Attention) -> Vec<(Timestamp, Timestamp)> {
    let Some(idle) = stall_time(game) else {
        return Vec::new();
    };
    let mut marks = acted(game);
    marks.extend_from_slice(att.resumes(thread));
    marks.sort_unstable();
    marks.dedup();
    marks
        .iter()
        .enumerate()
        .filter_map(|(i, &t)| {
            let from = t.saturating_add(idle);
            let until = marks.get(i + 1).copied().unwrap_or(Timestamp::MAX);
            (from < until).then_some((from, until))
        })
        .collect()
}

/// Since when the game is paused at `now`, if it is: by its own rules (a round of turns run
/// out, [`ThreadGame::stalled`]), or by the layer because nobody acted for the stall time
/// (`/settings stall_after:`, default 30 days). Reminders stop while it is; a player's
/// accepted action or the organiser's `/resume` ends it.
pub fn paused(
    game: &dyn ThreadGame,
    thread: &str,
    att: &Attention,
    now: Timestamp,
) -> Option<Timestamp> {
    if game.finished() {
        return None;
    }
    game.stalled(now)
        .or_else(|| pause_at(game, thread, att).filter(|&t| t <= now))
}

/// Who looks after a game, pinged when it pauses: its organiser, then its officials (a
/// Party game's Umpire, a Nomic game's Referees).
pub fn keepers(game: &dyn ThreadGame) -> Vec<String> {
    game.organiser()
        .into_iter()
        .chain(game.officials())
        .collect()
}

/// The announcement of the layer's pause, pinging the organiser.
fn pause_due(game: &dyn ThreadGame, thread: &str, att: &Attention) -> Option<Due> {
    let at = pause_at(game, thread, att)?;
    let idle = stall_time(game)?;
    let text = format!(
        "this {} game is paused: nobody has acted for {}; reminders stop until a player acts or the organiser resumes it with /resume",
        game.kind().title,
        format_duration(idle)
    );
    Some(Due {
        seat: PAUSE_SEAT,
        at,
        notify: Notify::to(keepers(game), text),
        limit_of: None,
    })
}

/// A wait as reminders count it: from the organiser's `/resume` if that came later, and
/// from the player's return if they were away on vacation meanwhile (the reminders start
/// again then; none come while they are away, shared rules 7.5).
fn resumed(game: &dyn ThreadGame, w: &Wait, thread: &str, att: &Attention) -> Wait {
    let mut w = w.clone();
    if let Some(r) = att.resumed(thread) {
        w.since = w.since.max(r);
    }
    if let Some(back) = game.away().back_in(&w.user, w.since, Timestamp::MAX) {
        w.since = w.since.max(back);
    }
    w
}

/// Whether the game waits on someone besides `user`: only then does a reminder offer "not
/// waiting on me" (a game waiting on that player alone is held up by them).
fn waits_on_others(waits: &[Wait], user: &str) -> bool {
    waits.iter().any(|o| o.user != user)
}

/// The reminders falling due in `(after, until]` for the waits as they stand at `until`: of
/// several for one wait, only the last (the others were missed while nobody swept). A wait
/// that ended meanwhile is reminded of no more, nor one dismissed ("not waiting on me":
/// its warning an hour before the deadline still comes), nor any once the game is paused,
/// nor a player away on vacation.
pub fn reminders(
    game: &dyn ThreadGame,
    thread: &str,
    att: &Attention,
    after: Timestamp,
    until: Timestamp,
) -> Vec<Due> {
    if until <= after || game.finished() {
        return Vec::new();
    }
    let pause = paused(game, thread, att, until);
    let users = game.users();
    let waits = game.waits(until);
    waits
        .iter()
        .filter_map(|w| {
            let prefs = att.prefs(&w.user);
            let every = interval(game, &prefs)?;
            let dismissed = att.dismissed(thread, &w.user, w.since);
            let (at, warning) = times(&resumed(game, w, thread, att), every, &prefs)
                .into_iter()
                .filter(|(t, _)| pause.is_none_or(|p| *t < p))
                .filter(|&(_, warning)| warning || !dismissed)
                .rfind(|(t, _)| *t > after && *t <= until)?;
            let seat = REMINDER_SEAT + users.iter().position(|u| *u == w.user)?;
            let mut notify = Notify::to([w.user.clone()], text(game, w, warning));
            if waits_on_others(&waits, &w.user) {
                notify = notify.with_button(nowait_button(thread, &w.user, w.since));
            }
            Some(Due {
                seat,
                at,
                notify,
                limit_of: None,
            })
        })
        .collect()
}

/// The next reminder (or the layer's pause) after `after`, for the waits as they stand then
/// (or after the game's last action, if that is later).
pub fn next_reminder(
    game: &dyn ThreadGame,
    thread: &str,
    att: &Attention,
    after: Timestamp,
) -> Option<Timestamp> {
    if game.finished() {
        return None;
    }
    let at = game.last_change().map_or(after, |t| t.max(after));
    let pause = pause_at(game, thread, att);
    let next = game
        .waits(at)
        .iter()
        .flat_map(|w| {
            let prefs = att.prefs(&w.user);
            let dismissed = att.dismissed(thread, &w.user, w.since);
            interval(game, &prefs)
                .map(|every| times(&resumed(game, w, thread, att), every, &prefs))
                .unwrap_or_default()
                .into_iter()
                .filter(move |&(_, warning)| warning || !dismissed)
        })
        .map(|(t, _)| t)
        .filter(|&t| t > after && pause.is_none_or(|p| t < p))
        .min();
    match (next, pause.filter(|&p| p > after)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The earliest time a timer of `game` falls due after `swept`, if it has any.
///
/// Games whose limits recur (a Party Chess turn left to its default play starts the next
/// turn's limit, and so on) have endless timers, so the question is asked over windows that
/// double from the game's last action (a minute, two, four… up to about eight years) and the
/// first window holding a timer answers it.
pub fn next_due(
    game: &dyn ThreadGame,
    thread: &str,
    att: &Attention,
    swept: Timestamp,
) -> Option<Timestamp> {
    let last = game
        .log_len()
        .checked_sub(1)
        .and_then(|i| game.row(i))
        .and_then(Result::ok)
        .map_or(0, |r| r.time);
    let base = last.max(swept);
    let own = (0..23).find_map(|k| {
        let until = base.saturating_add(60 << k);
        game.due(swept, until).iter().map(|d| d.at).min()
    });
    let reminder = next_reminder(game, thread, att, swept);
    match (own, reminder) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Every timer of a game falling due in `(after, until]`: its own, the layer's pause, then
/// the reminders.
pub fn timers(
    game: &dyn ThreadGame,
    thread: &str,
    att: &Attention,
    after: Timestamp,
    until: Timestamp,
) -> Vec<Due> {
    let mut v = game.due(after, until);
    if let Some(p) = pause_due(game, thread, att).filter(|d| d.at > after && d.at <= until) {
        // Only while nothing in the game paused it first.
        if game.stalled(p.at).is_none() {
            v.push(p);
        }
    }
    v.extend(reminders(game, thread, att, after, until));
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
            began: 0,
            deadline,
            effect: None,
        }
    }

    #[test]
    fn three_reminders_then_none_and_a_warning_before_a_long_limit() {
        let h = 3600;
        let q = Prefs::default();
        let t = times(&wait(0, None), 12 * h, &q);
        assert_eq!(t, vec![(12 * h, false), (24 * h, false), (36 * h, false)]);
        // A 30-hour limit: two reminders before it, and the warning an hour before.
        let t = times(&wait(0, Some(30 * h)), 12 * h, &q);
        assert_eq!(t, vec![(12 * h, false), (24 * h, false), (29 * h, true)]);
        // A limit under six hours gets no warning.
        assert_eq!(times(&wait(0, Some(5 * h)), 12 * h, &q), vec![]);
    }

    #[test]
    fn quiet_hours_hold_reminders_back_and_move_warnings_forward() {
        let h = 3600;
        // Quiet 22-07 UTC; the wait began at midnight (a console day starts there).
        let q = Prefs {
            quiet: Some((22, 7)),
            ..Prefs::default()
        };
        // Every 12h: 12:00 stays, 24:00 is quiet (moved to 07:00 next day), 36:00 stays.
        let t = times(&wait(0, None), 12 * h, &q);
        assert_eq!(t, vec![(12 * h, false), (31 * h, false), (36 * h, false)]);
        // A deadline at 23:30 + 24h: the warning (22:30) is moved to 21:59:59.
        let t = times(&wait(0, Some(47 * h + 1800)), 40 * h, &q);
        assert_eq!(t, vec![(40 * h, false), (46 * h - 1, true)]);
    }
}
