//! Vacation days (issue 42; shared rules 7.5): a player's bank per server and year
//! (`/settings vacation_days:`, default 14), `/vacation until:<date or duration>` and
//! `/vacation off`. Whole days are spent as they begin, in the year the vacation began.
//!
//! This module keeps the bank and reads the command; the service stores each player's
//! periods (the `meta` table), loads them into [`crate::layer::attention::Attention`] and hands each
//! game the periods of its players as [`crate::layer::clock::Away`], which the games' limits
//! and the reminders read.

use chrono::{Datelike, NaiveDate, NaiveDateTime, TimeZone};
use serde::{Deserialize, Serialize};

use super::Command;
use crate::layer::prefs::{Prefs, Zone};
use crate::time::{format_duration, parse_duration, stamp, Style, Timestamp};

/// Vacation days a player has per server and year when the server set none.
pub const VACATION_DAYS: u32 = 14;
/// A day.
pub const DAY: Timestamp = 86_400;
/// The `meta` key prefix of a player's vacations on a server: `vacation:<server> <user>`
/// (the console's server is the empty name).
pub const VACATION_KEY: &str = "vacation:";

/// The `meta` key of a player's vacations on a server.
pub fn vacation_key(server: &str, user: &str) -> String {
    format!("{VACATION_KEY}{server} {user}")
}

/// A `meta` key's (server, user).
pub fn read_vacation_key(key: &str) -> Option<(String, String)> {
    let rest = key.strip_prefix(VACATION_KEY)?;
    let (server, user) = rest.split_once(' ')?;
    (!user.is_empty()).then(|| (server.to_string(), user.to_string()))
}

/// One player's vacations on one server, as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Taken {
    /// The periods `[from, until)`, oldest first; the last may be under way or ahead.
    pub periods: Vec<(Timestamp, Timestamp)>,
}

/// The UTC year of a moment.
fn year_of(t: Timestamp) -> i32 {
    i64::try_from(t)
        .ok()
        .and_then(|s| chrono::DateTime::from_timestamp(s, 0))
        .map_or(1970, |d| d.year())
}

/// The days of a period spent by `now`: each day is spent as it begins.
fn spent(from: Timestamp, until: Timestamp, now: Timestamp) -> u32 {
    if until <= from || now < from {
        return 0;
    }
    let whole = (until - from).div_ceil(DAY);
    let begun = (now.min(until) - from) / DAY + 1;
    u32::try_from(begun.min(whole)).unwrap_or(u32::MAX)
}

/// How many days a period takes if it runs to its end.
fn days(from: Timestamp, until: Timestamp) -> u32 {
    u32::try_from(until.saturating_sub(from).div_ceil(DAY)).unwrap_or(u32::MAX)
}

impl Taken {
    /// Reads the stored JSON (none: nothing taken).
    pub fn from_json(text: &str) -> Taken {
        serde_json::from_str(text).unwrap_or_default()
    }

    /// The period under way at `now`, if any: (from, until).
    pub fn current(&self, now: Timestamp) -> Option<(Timestamp, Timestamp)> {
        self.periods
            .iter()
            .copied()
            .find(|&(a, b)| a <= now && now < b)
    }

    /// The days spent by `now` in vacations begun in `year`, the one under way counted in
    /// full (its days are promised).
    fn used_in(&self, year: i32, now: Timestamp) -> u32 {
        self.periods
            .iter()
            .filter(|&&(a, _)| year_of(a) == year)
            .map(|&(a, b)| {
                if a <= now && now < b {
                    days(a, b)
                } else {
                    spent(a, b, now)
                }
            })
            .sum()
    }

    /// The days left this year out of `bank`.
    pub fn left(&self, bank: u32, now: Timestamp) -> u32 {
        bank.saturating_sub(self.used_in(year_of(now), now))
    }

    /// The periods after starting (or changing the end of) a vacation to `until`: at most
    /// the days left (the end is cut to them). Returns the new periods and the end given.
    ///
    /// # Errors
    /// No days left, or an end not after now.
    pub fn start(
        &self,
        bank: u32,
        until: Timestamp,
        now: Timestamp,
    ) -> Result<(Taken, Timestamp), String> {
        if until <= now {
            return Err("until: must be later than now".into());
        }
        let mut t = self.clone();
        let from = match t.current(now) {
            Some((from, _)) => {
                t.periods.retain(|&(a, _)| a != from);
                from
            }
            None => now,
        };
        // The days of its year (the one it began in) besides this vacation.
        let left = bank.saturating_sub(t.used_in(year_of(from), now));
        if left == 0 {
            return Err(format!(
                "you have no vacation days left this year on this server ({bank} of {bank} spent)"
            ));
        }
        let most = from.saturating_add(Timestamp::from(left) * DAY);
        let end = until.min(most);
        t.periods.push((from, end));
        t.periods.sort_unstable();
        Ok((t, end))
    }

    /// The periods after `/vacation off` at `now`.
    ///
    /// # Errors
    /// No vacation under way.
    pub fn end(&self, now: Timestamp) -> Result<Taken, String> {
        let Some((from, _)) = self.current(now) else {
            return Err("you are not on vacation".into());
        };
        let mut t = self.clone();
        for p in &mut t.periods {
            if p.0 == from {
                p.1 = now;
            }
        }
        // Ended the moment it began: nothing spent.
        t.periods.retain(|&(a, b)| b > a);
        Ok(t)
    }
}

/// What `/vacation` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asked {
    /// Show the vacation and the days left.
    Show,
    /// Be away until then (start, or change the end).
    Until(Timestamp),
    /// End it now.
    Off,
}

/// Reads `/vacation`, `/vacation until:<date or duration>`, `/vacation off`. A date is
/// midnight at its start in the player's zone (`/notify zone:`, UTC when unset);
/// `2026-01-05 18:00` names the hour too.
///
/// # Errors
/// An option that does not read.
pub fn read(cmd: &Command, prefs: &Prefs, now: Timestamp) -> Result<Asked, String> {
    let off_opt = match cmd.opt("off") {
        Some(v) => Some(crate::layer::game::on_off("off:", v)?),
        None => None,
    };
    let off = cmd.positional.iter().any(|w| w.eq_ignore_ascii_case("off")) || off_opt == Some(true);
    let until = cmd.opt("until");
    match (off, until) {
        (true, Some(_)) => Err("give until: or off, not both".into()),
        (true, None) => Ok(Asked::Off),
        (false, None) if cmd.positional.is_empty() => Ok(Asked::Show),
        (false, None) => Err(format!(
            "/vacation takes until:<date or duration> or off; not {}",
            cmd.positional.join(" ")
        )),
        (false, Some(v)) => until_of(v, prefs.zone(), now).map(Asked::Until),
    }
}

/// `3d`, `36h`, `2026-01-05`, `2026-01-05 18:00` (in `zone`).
fn until_of(v: &str, zone: Zone, now: Timestamp) -> Result<Timestamp, String> {
    let v = v.trim();
    if let Ok(secs) = parse_duration(v) {
        return Ok(now.saturating_add(secs));
    }
    let local = NaiveDateTime::parse_from_str(v, "%Y-%m-%d %H:%M")
        .or_else(|_| NaiveDateTime::parse_from_str(v, "%Y-%m-%dT%H:%M"))
        .ok()
        .or_else(|| {
            NaiveDate::parse_from_str(v, "%Y-%m-%d")
                .ok()
                .and_then(|d| d.and_hms_opt(0, 0, 0))
        })
        .ok_or_else(|| {
            format!("until: takes a duration like 3d or a date like 2026-01-05 (or 2026-01-05 18:00); not {v}")
        })?;
    let utc = match zone {
        Zone::Named(tz) => tz
            .from_local_datetime(&local)
            .earliest()
            .map(|d| d.timestamp()),
        Zone::Offset(off) => Some(local.and_utc().timestamp() - i64::from(off)),
    };
    utc.and_then(|t| Timestamp::try_from(t).ok())
        .ok_or_else(|| format!("until: {v} is not a moment in your zone"))
}

/// The answer to a vacation taken or changed: until when, the days, the games that will
/// not wait (`vacation:off`).
pub fn started_text(
    end: Timestamp,
    asked: Timestamp,
    left: u32,
    bank: u32,
    wont_wait: &[String],
) -> String {
    let mut s = format!(
        "you are away until {} ({}): the limits of your turns stop and reminders to you stop until then; {left} of your {bank} vacation days left this year",
        stamp(end, Style::Full),
        stamp(end, Style::Relative)
    );
    if end < asked {
        s.push_str(&format!(
            "\nyour bank had days for no more than that (you asked until {})",
            stamp(asked, Style::Full)
        ));
    }
    if !wont_wait.is_empty() {
        s.push_str(&format!(
            "\nthese games do not wait for you (vacation:off): their limits run and they remind you as usual: {}",
            wont_wait.join(", ")
        ));
    }
    s
}

/// What `/vacation` shows.
pub fn shown(taken: &Taken, bank: u32, now: Timestamp) -> String {
    let left = taken.left(bank, now);
    match taken.current(now) {
        Some((from, until)) => format!(
            "you are away until {} (since {}, {}); {left} of your {bank} vacation days left this year; /vacation off ends it",
            stamp(until, Style::Full),
            stamp(from, Style::Relative),
            format_duration(until - from)
        ),
        None => format!(
            "you are not on vacation; {left} of your {bank} vacation days left this year on this server; /vacation until:<date or duration> takes some"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-01-01T00:00:00Z.
    const JAN1: Timestamp = 1_767_225_600;

    #[test]
    fn days_are_spent_as_they_begin_and_the_bank_runs_out() {
        let t = Taken::default();
        // Three days of a bank of five.
        let (t, end) = t.start(5, JAN1 + 3 * DAY, JAN1).expect("starts");
        assert_eq!(end, JAN1 + 3 * DAY);
        assert_eq!(t.left(5, JAN1), 2);
        // Back after an hour and a half day: two days begun, two spent.
        let t = t.end(JAN1 + DAY + 12 * 3600).expect("ends");
        assert_eq!(t.left(5, JAN1 + 2 * DAY), 3);
        // Asking for five more is cut to the three left.
        let now = JAN1 + 10 * DAY;
        let (t, end) = t.start(5, now + 5 * DAY, now).expect("starts");
        assert_eq!(end, now + 3 * DAY);
        assert_eq!(t.left(5, now), 0);
        // Once it has run, none are left this year.
        let later = now + 4 * DAY;
        assert!(t.start(5, later + DAY, later).is_err());
        // A new year has a new bank.
        let next_year = JAN1 + 366 * DAY;
        assert_eq!(t.left(5, next_year), 5);
    }

    #[test]
    fn a_vacation_under_way_can_be_lengthened_within_the_bank() {
        let (t, _) = Taken::default()
            .start(14, JAN1 + DAY, JAN1)
            .expect("starts");
        let (t, end) = t.start(14, JAN1 + 4 * DAY, JAN1 + 3600).expect("changes");
        assert_eq!(end, JAN1 + 4 * DAY);
        assert_eq!(t.periods, vec![(JAN1, JAN1 + 4 * DAY)]);
        assert_eq!(t.left(14, JAN1 + 3600), 10);
        assert!(Taken::default().end(JAN1).is_err());
    }

    #[test]
    fn until_reads_durations_and_dates_in_the_zone() {
        let p = Prefs::default();
        // As the declarations read it: `until:` runs to the end of the line.
        let cmd = |s: &str| {
            crate::layer::Command::parse_with(s, |_| false, |k| k == "until").expect("parses")
        };
        assert_eq!(
            read(&cmd("/vacation until:3d"), &p, JAN1),
            Ok(Asked::Until(JAN1 + 3 * DAY))
        );
        assert_eq!(
            read(&cmd("/vacation until:2026-01-05"), &p, JAN1),
            Ok(Asked::Until(JAN1 + 4 * DAY))
        );
        let paris = Prefs {
            zone: Some("Europe/Paris".into()),
            ..Prefs::default()
        };
        assert_eq!(
            read(&cmd("/vacation until:2026-01-05 18:00"), &paris, JAN1),
            Ok(Asked::Until(JAN1 + 4 * DAY + 17 * 3600))
        );
        assert_eq!(read(&cmd("/vacation off"), &p, JAN1), Ok(Asked::Off));
        assert_eq!(read(&cmd("/vacation"), &p, JAN1), Ok(Asked::Show));
        assert!(read(&cmd("/vacation until:soon"), &p, JAN1).is_err());
        assert_eq!(
            read_vacation_key(&vacation_key("", "ann")),
            Some((String::new(), "ann".into()))
        );
    }
}
