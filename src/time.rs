//! Time as the game sees it: seconds, passed in by the caller (the game never reads a clock).

/// A moment, in seconds since the Unix epoch (or since the start of a test's fake clock).
pub type Timestamp = u64;

/// A malformed duration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a duration (write it like 6h, 6m, 90s, 45m, 1h30m or 2d)")]
pub struct DurationError(pub String);

/// Parses `6h`, `90s`, `1h30m`, `2d`, `5h59m59s` into seconds (at least one second).
///
/// # Errors
/// A [`DurationError`] for anything else.
pub fn parse_duration(text: &str) -> Result<u64, DurationError> {
    let t = text.trim().trim_start_matches('+');
    let err = || DurationError(text.to_string());
    if t.is_empty() {
        return Err(err());
    }
    let mut total: u64 = 0;
    let mut num = String::new();
    for c in t.chars() {
        if c.is_ascii_digit() {
            num.push(c);
            continue;
        }
        let unit = match c.to_ascii_lowercase() {
            'd' => 86_400,
            'h' => 3_600,
            'm' => 60,
            's' => 1,
            _ => return Err(err()),
        };
        let n: u64 = num.parse().map_err(|_| err())?;
        num.clear();
        total = n
            .checked_mul(unit)
            .and_then(|v| total.checked_add(v))
            .ok_or_else(err)?;
    }
    if !num.is_empty() || total == 0 || total > 366 * 86_400 {
        return Err(err());
    }
    Ok(total)
}

/// A reminder interval or stall time as `remind:`/`stall:` take it: a duration, or `off`
/// for 0.
pub fn pace_text(secs: u64) -> String {
    if secs == 0 {
        "off".into()
    } else {
        format_duration(secs)
    }
}

/// A reminder interval and stall time as a sentence tells them: `reminders after 12h,
/// paused when untouched for 30d`, or `no reminders, never paused` for `off`.
pub fn paces_text(remind: u64, stall: u64) -> String {
    let remind = if remind == 0 {
        "no reminders".to_string()
    } else {
        format!("reminders after {}", format_duration(remind))
    };
    let stall = if stall == 0 {
        "never paused when untouched".to_string()
    } else {
        format!("paused when untouched for {}", format_duration(stall))
    };
    format!("{remind}, {stall}")
}

/// Reads a reminder interval or stall time: a duration, or `off` (0).
///
/// # Errors
/// Neither.
pub fn parse_pace(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("off") {
        return Ok(0);
    }
    match parse_duration(t) {
        Ok(s) if s > 0 => Ok(s),
        _ => Err(format!("takes a duration like 12h or 30d, or off; not {t}")),
    }
}

/// Formats seconds as `6h`, `1h30m`, `90s` → `1m30s`.
pub fn format_duration(secs: u64) -> String {
    if secs == 0 {
        return "0s".into();
    }
    let mut s = String::new();
    let mut rest = secs;
    for (unit, name) in [(86_400, 'd'), (3_600, 'h'), (60, 'm'), (1, 's')] {
        if rest >= unit {
            s.push_str(&format!("{}{name}", rest / unit));
            rest %= unit;
        }
    }
    s
}

/// How a moment is shown: Discord's timestamp styles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Relative to the reader's now, live: `in 5 minutes`, `2 hours ago` (`R`).
    Relative,
    /// Date and time (`f`), where the exact time matters.
    Full,
    /// Time of day (`t`).
    Time,
}

/// A moment in a text for players, as a marker that each front end writes in its reader's
/// terms: `<t:1767225600:R>` is Discord's own timestamp markup (each reader sees their time
/// zone and a live countdown), and the console writes it in UTC with [`utc_text`]. The command
/// layer stays pure: it only writes the marker.
pub fn stamp(t: Timestamp, style: Style) -> String {
    let s = match style {
        Style::Relative => 'R',
        Style::Full => 'f',
        Style::Time => 't',
    };
    format!("<t:{t}:{s}>")
}

/// Writes every moment marker of `text` ([`stamp`]) in UTC: relative ones against `now`
/// (`in 5m59s`, `3m ago`, `now`), the others as `2026-01-01 00:06 UTC` or `00:06 UTC`.
pub fn utc_text(text: &str, now: Timestamp) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("<t:") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 3..];
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        let tail = &after[digits..];
        let (style, len) = match tail.as_bytes() {
            [b'>', ..] => (Some('f'), 1),
            [b':', s, b'>', ..] if s.is_ascii_alphabetic() => (Some(char::from(*s)), 3),
            _ => (None, 0),
        };
        match (after[..digits].parse::<Timestamp>(), style) {
            (Ok(t), Some(style)) if digits > 0 => {
                out.push_str(&utc_moment(t, style, now));
                rest = &tail[len..];
            }
            _ => {
                out.push_str("<t:");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn utc_moment(t: Timestamp, style: char, now: Timestamp) -> String {
    let day = t % 86_400;
    let (h, m, s) = (day / 3600, (day % 3600) / 60, day % 60);
    let date = || {
        let (y, mo, d) = civil_date(t / 86_400);
        format!("{y:04}-{mo:02}-{d:02}")
    };
    match style {
        'R' if t > now => format!("in {}", format_duration(t - now)),
        'R' if t < now => format!("{} ago", format_duration(now - t)),
        'R' => "now".to_string(),
        't' => format!("{h:02}:{m:02} UTC"),
        'T' => format!("{h:02}:{m:02}:{s:02} UTC"),
        'd' | 'D' => date(),
        _ => format!("{} {h:02}:{m:02} UTC", date()),
    }
}

/// The calendar date (year, month, day) of a day counted from 1970-01-01, in the proleptic
/// Gregorian calendar (days are counted in 400-year cycles of 146 097 days, from a year that
/// starts on 1 March so that the leap day ends it).
fn civil_date(days: u64) -> (u64, u64, u64) {
    // Days from 0000-03-01 to 1970-01-01.
    let z = days + 719_468;
    let cycle = z / 146_097;
    let day_of_cycle = z % 146_097;
    let year_of_cycle =
        (day_of_cycle - day_of_cycle / 1460 + day_of_cycle / 36_524 - day_of_cycle / 146_096) / 365;
    let day_of_year =
        day_of_cycle - (365 * year_of_cycle + year_of_cycle / 4 - year_of_cycle / 100);
    // Months from March: 0 is March, 11 is February.
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_cycle + cycle * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_are_markers_the_console_writes_in_utc() {
        let t = 1_767_225_960; // 2026-01-01T00:06:00Z
        assert_eq!(stamp(t, Style::Relative), "<t:1767225960:R>");
        assert_eq!(stamp(t, Style::Full), "<t:1767225960:f>");
        assert_eq!(stamp(t, Style::Time), "<t:1767225960:t>");
        let text = format!(
            "free {} ({}), by {}",
            stamp(t, Style::Relative),
            stamp(t, Style::Full),
            stamp(t, Style::Time)
        );
        assert_eq!(
            utc_text(&text, t - 359),
            "free in 5m59s (2026-01-01 00:06 UTC), by 00:06 UTC"
        );
        assert_eq!(
            utc_text(&text, t + 60),
            "free 1m ago (2026-01-01 00:06 UTC), by 00:06 UTC"
        );
        assert_eq!(utc_text("<t:1767225960:R>", t), "now");
        // Not markers: left as they are.
        for plain in ["<t:", "<t:x:R>", "<t:12:R", "a <t::R> b", "<@42> <#7>"] {
            assert_eq!(utc_text(plain, t), plain);
        }
    }

    #[test]
    fn calendar_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(1_767_225_600 / 86_400), (2026, 1, 1));
        assert_eq!(civil_date(951_782_400 / 86_400), (2000, 2, 29));
        assert_eq!(civil_date(951_868_800 / 86_400), (2000, 3, 1));
        assert_eq!(civil_date(4_107_456_000 / 86_400), (2100, 2, 28));
        assert_eq!(civil_date(4_107_542_400 / 86_400), (2100, 3, 1));
        // Day by day over a few years, against a count of month lengths.
        let mut expected = (1999, 1, 1);
        for day in 10_592..12_100 {
            assert_eq!(civil_date(day), expected, "day {day}");
            let (y, m, d) = expected;
            let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
            let len = match m {
                2 if leap => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            expected = if d < len {
                (y, m, d + 1)
            } else if m < 12 {
                (y, m + 1, 1)
            } else {
                (y + 1, 1, 1)
            };
        }
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("6h"), Ok(21_600));
        assert_eq!(parse_duration("+5h59m59s"), Ok(21_599));
        assert_eq!(parse_duration("90s"), Ok(90));
        assert_eq!(parse_duration("2d"), Ok(172_800));
        assert!(parse_duration("6x").is_err());
        assert!(parse_duration("h").is_err());
        assert!(parse_duration("0s").is_err());
        assert_eq!(format_duration(5_400), "1h30m");
    }
}
