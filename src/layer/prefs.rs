//! One player's notification settings, as `/notify` stores them: reminders on or off, the
//! interval, quiet hours and the zone they are read in.
//!
//! Quiet hours are whole local hours (`quiet:22-07`) in the player's zone, an IANA name
//! (`Europe/Paris`, with its summer time) or a fixed offset (`+05:30`): a reminder falling in
//! them waits for their end, a deadline warning is moved before they begin. Turn pings are
//! never held back: they are the one message a player needs.

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
