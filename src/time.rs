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

#[cfg(test)]
mod tests {
    use super::*;

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
