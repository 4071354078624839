//! What the layer knows of players beyond any one game's log (issue 41): each player's
//! notification settings (`/notify`), the waits a player said are not held up by them ("not
//! waiting on me"), and the games an organiser resumed after they stalled. Reminders read
//! them ([`super::remind`]); the service stores them (the `meta` table) and hands them in, so
//! the rules stay pure and testable with a fake clock.
//!
//! Quiet hours are whole local hours (`quiet:22-07`) in the player's zone, an IANA name
//! (`Europe/Paris`, with its summer time) or a fixed offset (`+05:30`): a reminder falling in
//! them waits for their end, a deadline warning is moved before they begin. Turn pings are
//! never held back: they are the one message a player needs.

use std::collections::{HashMap, HashSet};

use chrono::{TimeZone, Timelike};
use serde::{Deserialize, Serialize};

use super::Command;
use crate::time::{format_duration, parse_duration, Timestamp};

/// One player's notification settings, as `/notify` stores them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prefs {
    /// `reminders:off`: no reminders at all (turn pings still come).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub off: bool,
    /// Their own reminder interval (wins over the game's and the server's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Timestamp>,
    /// Quiet hours, local: from the first hour to the second (`22-07` spans midnight).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiet: Option<(u8, u8)>,
    /// Their zone as they gave it (`Europe/Paris`, `-03:00`); UTC when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
}

/// A time zone: an IANA zone or a fixed offset east of UTC, in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zone {
    /// A named zone with its rules (summer time).
    Named(chrono_tz::Tz),
    /// A fixed offset.
    Offset(i32),
}

impl Zone {
    /// Reads `Europe/Paris`, `UTC`, `+05:30`, `-3`, `UTC+2`.
    ///
    /// # Errors
    /// Neither a known zone nor an offset within ±14 hours.
    pub fn parse(text: &str) -> Result<Zone, String> {
        let t = text.trim();
        let offset = t
            .strip_prefix("UTC")
            .or_else(|| t.strip_prefix("utc"))
            .or_else(|| t.strip_prefix("GMT"))
            .filter(|r| !r.is_empty())
            .unwrap_or(t);
        if let Some(secs) = parse_offset(offset) {
            return Ok(Zone::Offset(secs));
        }
        chrono_tz::Tz::from_str_insensitive(t)
            .map(Zone::Named)
            .map_err(|_| {
                format!(
                    "zone: takes an IANA zone like Europe/Paris or an offset like +05:30; not {t}"
                )
            })
    }

    /// The local time of day at `t`, in seconds since local midnight.
    pub fn local_seconds(self, t: Timestamp) -> u32 {
        let secs = i64::try_from(t).unwrap_or(i64::MAX);
        match self {
            Zone::Named(tz) => tz
                .timestamp_opt(secs, 0)
                .single()
                .map_or(0, |d| d.num_seconds_from_midnight()),
            Zone::Offset(off) => {
                u32::try_from((secs + i64::from(off)).rem_euclid(86_400)).unwrap_or(0)
            }
        }
    }
}

/// `+05:30`, `-3`, `+0530`: seconds east of UTC, within ±14:00 with minutes under 60. Read
/// on characters: any text that is not ASCII digits where they belong is no offset.
fn parse_offset(t: &str) -> Option<i32> {
    let (sign, rest) = if let Some(r) = t.strip_prefix('+') {
        (1, r)
    } else {
        (-1, t.strip_prefix('-')?)
    };
    let digits = |s: &str| !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit());
    let (h, m) = match rest.split_once(':') {
        Some((h, m)) => (h, m),
        None if rest.len() == 4 && rest.is_ascii() => rest.split_at(2),
        None => (rest, "0"),
    };
    if !digits(h) || !digits(m) {
        return None;
    }
    let (h, m): (i32, i32) = (h.parse().ok()?, m.parse().ok()?);
    let secs = h * 3600 + m * 60;
    (m < 60 && secs <= 14 * 3600).then_some(sign * secs)
}

impl Prefs {
    /// The zone (UTC when unset or no longer readable).
    pub fn zone(&self) -> Zone {
        self.zone
            .as_deref()
            .and_then(|z| Zone::parse(z).ok())
            .unwrap_or(Zone::Offset(0))
    }

    /// Whether `t` falls in the quiet hours.
    pub fn quiet_at(&self, t: Timestamp) -> bool {
        let Some((from, to)) = self.quiet else {
            return false;
        };
        let hour = u8::try_from(self.zone().local_seconds(t) / 3600).unwrap_or(0);
        if from <= to {
            hour >= from && hour < to
        } else {
            hour >= from || hour < to
        }
    }

    /// `t`, or the end of the quiet hours it falls in.
    pub fn after_quiet(&self, t: Timestamp) -> Timestamp {
        let mut at = t;
        // Whole local hours: at most a day of steps (a zone's change adds one).
        for _ in 0..26 {
            if !self.quiet_at(at) {
                return at;
            }
            let into_hour = Timestamp::from(self.zone().local_seconds(at) % 3600);
            at = at - into_hour + 3600;
        }
        t
    }

    /// `t`, or the last second before the quiet hours it falls in began.
    pub fn before_quiet(&self, t: Timestamp) -> Timestamp {
        let mut at = t;
        for _ in 0..26 {
            if !self.quiet_at(at) {
                return at;
            }
            let into_hour = Timestamp::from(self.zone().local_seconds(at) % 3600);
            at = at.saturating_sub(into_hour + 1);
        }
        t
    }

    /// The settings as `/notify` shows them.
    pub fn describe(&self) -> String {
        let reminders = if self.off {
            "reminders off (turn pings still come)".to_string()
        } else {
            match self.after {
                Some(s) => format!("reminders on, every {}", format_duration(s)),
                None => {
                    "reminders on, at each game's interval (12h unless the game or server sets one)"
                        .into()
                }
            }
        };
        let zone = self.zone.as_deref().unwrap_or("UTC");
        let quiet = match self.quiet {
            Some((a, b)) => format!("quiet hours {a:02}-{b:02} ({zone})"),
            None => format!("no quiet hours (zone {zone})"),
        };
        format!("{reminders}; {quiet}")
    }

    /// The settings after `/notify reminders:… after:… quiet:… zone:…`.
    ///
    /// # Errors
    /// An option that does not read; nothing changes then.
    pub fn changed(&self, cmd: &Command) -> Result<Prefs, String> {
        let mut p = self.clone();
        if let Some(v) = cmd.opt("reminders") {
            p.off = match v.trim().to_ascii_lowercase().as_str() {
                "on" | "yes" | "true" => false,
                "off" | "no" | "false" => true,
                _ => return Err(format!("reminders: takes on or off; not {v}")),
            };
        }
        if let Some(v) = cmd.opt("after") {
            p.after = match v.trim() {
                d if d.eq_ignore_ascii_case("default") => None,
                d => match parse_duration(d) {
                    Ok(s) if s >= 60 => Some(s),
                    _ => {
                        return Err(format!(
                            "after: takes a duration from a minute to a year (366d), like 8h or 2d, or default; not {d}"
                        ))
                    }
                },
            };
        }
        if let Some(v) = cmd.opt("quiet") {
            p.quiet = if v.trim().eq_ignore_ascii_case("off") {
                None
            } else {
                Some(parse_quiet(v)?)
            };
        }
        if let Some(v) = cmd.opt("zone") {
            Zone::parse(v)?;
            p.zone = Some(v.trim().to_string());
        }
        Ok(p)
    }
}

/// `22-07` (or `22:00-07:00`): the quiet hours, whole hours from 0 to 23.
fn parse_quiet(v: &str) -> Result<(u8, u8), String> {
    let bad = || format!("quiet: takes hours like 22-07 (from 22:00 to 07:00), or off; not {v}");
    let (a, b) = v.trim().split_once('-').ok_or_else(bad)?;
    let hour = |s: &str| -> Result<u8, String> {
        let s = s.trim();
        let s = s
            .strip_suffix(":00")
            .or_else(|| s.strip_suffix('h'))
            .unwrap_or(s);
        match s.parse::<u8>() {
            Ok(h) if h <= 24 => Ok(h),
            _ => Err(bad()),
        }
    };
    let (a, b) = (hour(a)?, hour(b)?);
    // `0-24` is every hour of the day, `7-7` none.
    let whole_day = a != b;
    let (a, b) = (a % 24, b % 24);
    if a == b && whole_day {
        return Err(format!(
            "quiet: {v} is every hour of the day; to have no reminders at all, write reminders:off"
        ));
    }
    if a == b {
        return Err(format!(
            "quiet: {v} is no hours at all; write off to have none"
        ));
    }
    Ok((a, b))
}

/// What the layer knows of players beyond the games' logs: settings, dismissed waits, and
/// stalled games resumed by their organiser.
#[derive(Clone, Debug, Default)]
pub struct Attention {
    prefs: HashMap<String, Prefs>,
    /// (thread, user, since): a wait its user said is not held up by them.
    dismissed: HashSet<(String, String, Timestamp)>,
    /// Thread → when its organiser resumed it (the layer's inactivity pause), in order:
    /// every one is kept, since the layer's clock reads the game's past pauses from them.
    resumed: HashMap<String, Vec<Timestamp>>,
    /// (server, user) → their vacations there (`/vacation`, [`super::vacation`]).
    vacations: HashMap<(String, String), super::vacation::Taken>,
}

impl Attention {
    /// A user's settings (the defaults when they set none).
    pub fn prefs(&self, user: &str) -> Prefs {
        self.prefs.get(user).cloned().unwrap_or_default()
    }

    /// Sets a user's settings.
    pub fn set_prefs(&mut self, user: &str, prefs: Prefs) {
        self.prefs.insert(user.to_string(), prefs);
    }

    /// Whether the wait of `user` in `thread` since `since` was dismissed.
    pub fn dismissed(&self, thread: &str, user: &str, since: Timestamp) -> bool {
        self.dismissed
            .contains(&(thread.to_string(), user.to_string(), since))
    }

    /// Records "not waiting on me" for a wait; `false` if it was already.
    pub fn dismiss(&mut self, thread: &str, user: &str, since: Timestamp) -> bool {
        self.dismissed
            .insert((thread.to_string(), user.to_string(), since))
    }

    /// When the organiser last resumed the game in `thread`.
    pub fn resumed(&self, thread: &str) -> Option<Timestamp> {
        self.resumed.get(thread).and_then(|v| v.last().copied())
    }

    /// Every `/resume` of the game in `thread` by its organiser, in order.
    pub fn resumes(&self, thread: &str) -> &[Timestamp] {
        self.resumed.get(thread).map_or(&[][..], Vec::as_slice)
    }

    /// Records an organiser's `/resume` of a stalled game.
    pub fn resume(&mut self, thread: &str, at: Timestamp) {
        let v = self.resumed.entry(thread.to_string()).or_default();
        if !v.contains(&at) {
            v.push(at);
            v.sort_unstable();
        }
    }

    /// The stored form of the resumes of `thread` (`meta`: their times, space-separated).
    pub fn resumes_text(&self, thread: &str) -> String {
        let v: Vec<String> = self.resumes(thread).iter().map(|t| t.to_string()).collect();
        v.join(" ")
    }

    /// A user's vacations on a server (the console's is the empty name).
    pub fn vacations(&self, server: &str, user: &str) -> super::vacation::Taken {
        self.vacations
            .get(&(server.to_string(), user.to_string()))
            .cloned()
            .unwrap_or_default()
    }

    /// Sets a user's vacations on a server.
    pub fn set_vacations(&mut self, server: &str, user: &str, taken: super::vacation::Taken) {
        self.vacations
            .insert((server.to_string(), user.to_string()), taken);
    }

    /// The vacations of `users` that a game on `guild` honours: those taken on its server,
    /// or on any server for a game stored without one (before issue 41, or on the console).
    pub fn away(&self, users: &[String], guild: Option<&str>) -> crate::layer::clock::Away {
        let mut away = crate::layer::clock::Away::none();
        if self.vacations.is_empty() {
            return away;
        }
        for ((server, user), taken) in &self.vacations {
            if users.contains(user) && guild.is_none_or(|g| g == server) {
                for &(a, b) in &taken.periods {
                    away.add(user, a, b);
                }
            }
        }
        away
    }

    /// Reads one stored `meta` row (`notify:<user>`, `nowait:<thread> <user> <since>`,
    /// `resumed:<thread>`, `vacation:<server> <user>`); rows of other kinds and rows that do
    /// not read are skipped.
    pub fn load_row(&mut self, key: &str, value: &str) {
        if let Some((server, user)) = super::vacation::read_vacation_key(key) {
            let taken = super::vacation::Taken::from_json(value);
            self.set_vacations(&server, &user, taken);
        } else if let Some(user) = key.strip_prefix(NOTIFY_KEY) {
            if let Ok(p) = serde_json::from_str::<Prefs>(value) {
                self.prefs.insert(user.to_string(), p);
            }
        } else if let Some(rest) = key.strip_prefix(NOWAIT_KEY) {
            let mut w = rest.rsplitn(3, ' ');
            if let (Some(since), Some(user), Some(thread)) = (w.next(), w.next(), w.next()) {
                if let Ok(since) = since.parse() {
                    self.dismiss(thread, user, since);
                }
            }
        } else if let Some(thread) = key.strip_prefix(RESUMED_KEY) {
            // One time (as stored before every resume was kept) or several.
            for t in value.split_whitespace().filter_map(|t| t.parse().ok()) {
                self.resume(thread, t);
            }
        }
    }
}

/// The `meta` key prefix of a user's settings.
pub const NOTIFY_KEY: &str = "notify:";
/// The `meta` key prefix of a dismissed wait.
pub const NOWAIT_KEY: &str = "nowait:";
/// The `meta` key prefix of an organiser's resume.
pub const RESUMED_KEY: &str = "resumed:";

/// The `meta` key of a dismissed wait.
pub fn nowait_key(thread: &str, user: &str, since: Timestamp) -> String {
    format!("{NOWAIT_KEY}{thread} {user} {since}")
}

/// The id of a reminder's "not waiting on me" button.
pub fn nowait_button(thread: &str, user: &str, since: Timestamp) -> String {
    format!("nowait:{since}:{user}:{thread}")
}

/// A "not waiting on me" button's (thread, user, since).
pub fn read_nowait_button(id: &str) -> Option<(String, String, Timestamp)> {
    let rest = id.strip_prefix("nowait:")?;
    let (since, rest) = rest.split_once(':')?;
    let (user, thread) = rest.split_once(':')?;
    Some((thread.to_string(), user.to_string(), since.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefs(quiet: (u8, u8), zone: &str) -> Prefs {
        Prefs {
            quiet: Some(quiet),
            zone: Some(zone.into()),
            ..Prefs::default()
        }
    }

    /// 2026-01-01T00:00:00Z.
    const JAN1: Timestamp = 1_767_225_600;
    /// 2026-07-01T00:00:00Z.
    const JUL1: Timestamp = 1_782_864_000;

    #[test]
    fn zones_read_names_and_offsets() {
        assert_eq!(Zone::parse("+05:30"), Ok(Zone::Offset(19_800)));
        assert_eq!(Zone::parse("UTC-3"), Ok(Zone::Offset(-10_800)));
        assert_eq!(Zone::parse("+0200"), Ok(Zone::Offset(7_200)));
        assert!(matches!(Zone::parse("europe/paris"), Ok(Zone::Named(_))));
        assert!(Zone::parse("Mars/Olympus").is_err());
        assert!(Zone::parse("+15:00").is_err());
        assert_eq!(Zone::parse("-14:00"), Ok(Zone::Offset(-50_400)));
        for bad in [
            "+-100000",
            "UTC+14:30",
            "+14:59",
            "+1ü1",
            "+ü",
            "-1:60",
            "+1é",
            "+٣",
        ] {
            assert!(Zone::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn quiet_hours_follow_the_zone_and_its_summer_time() {
        let p = prefs((22, 7), "Europe/Paris");
        // Paris is UTC+1 in January: 22:00 local is 21:00 UTC.
        assert!(!p.quiet_at(JAN1 - 3 * 3600 - 1));
        assert!(p.quiet_at(JAN1 - 3 * 3600));
        assert_eq!(p.after_quiet(JAN1), JAN1 + 6 * 3600);
        assert_eq!(p.before_quiet(JAN1), JAN1 - 3 * 3600 - 1);
        // UTC+2 in July: quiet ends at 05:00 UTC.
        assert_eq!(p.after_quiet(JUL1), JUL1 + 5 * 3600);
        let q = prefs((0, 8), "-05:00");
        assert_eq!(q.after_quiet(JAN1 + 6 * 3600), JAN1 + 13 * 3600);
        assert_eq!(q.after_quiet(JAN1 + 14 * 3600), JAN1 + 14 * 3600);
    }

    #[test]
    fn notify_options_change_only_what_they_name() {
        let cmd = crate::layer::Command::parse_with(
            "/notify quiet:23-6 zone:+01:00",
            |_| false,
            |_| false,
        )
        .expect("parses");
        let p = Prefs::default().changed(&cmd).expect("reads");
        assert_eq!(p.quiet, Some((23, 6)));
        assert!(!p.off);
        let cmd =
            crate::layer::Command::parse_with("/notify reminders:maybe", |_| false, |_| false)
                .expect("parses");
        assert!(Prefs::default().changed(&cmd).is_err());
        let cmd = crate::layer::Command::parse_with("/notify quiet:7-7", |_| false, |_| false)
            .expect("parses");
        assert!(Prefs::default().changed(&cmd).is_err());
    }

    #[test]
    fn buttons_and_keys_read_back() {
        let id = nowait_button("123:4", "ann", 99);
        assert_eq!(
            read_nowait_button(&id),
            Some(("123:4".into(), "ann".into(), 99))
        );
        let mut a = Attention::default();
        a.load_row(&nowait_key("t 1", "bob", 5), "");
        assert!(a.dismissed("t 1", "bob", 5));
    }
}
