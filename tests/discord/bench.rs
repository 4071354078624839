//! The benchmark's breakdown: where the time of each accepted move went, read from the bot's
//! `move timing` log lines (the bot measures its own spans, so the fake Discord's work, such
//! as reading uploads, is not in them), and from the fake's clock for the first response.

use std::time::Duration;

/// The spans the bot logs per accepted move, in order, with what they mean.
const SPANS: [(&str, &str); 11] = [
    ("load_us", "lock + version check + load"),
    ("handle_us", "command handling, legality"),
    ("commit_us", "database commit"),
    ("service_us", "service total"),
    ("core_wait_us", "waiting for a core"),
    ("render_us", "rendering"),
    ("encode_us", "PNG encoding"),
    ("defer_us", "Discord: deferral"),
    ("answer_us", "Discord: answer + picture"),
    ("answered_us", "bot: interaction to answer"),
    ("status_notify_us", "Discord: status edit, notices"),
];

/// The value of `key=` in a log line, in microseconds.
fn field(line: &str, key: &str) -> Option<u64> {
    let at = line.find(&format!(" {key}="))? + key.len() + 2;
    let rest = &line[at..];
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// Median, p99 and max of some times, as `12.3 / 45.6 / 78.9 ms`.
pub fn figures(times: &mut [Duration]) -> String {
    if times.is_empty() {
        return "-".to_string();
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    format!(
        "{:7.2} / {:7.2} / {:7.2} ms",
        ms(at(0.5)),
        ms(at(0.99)),
        ms(times[times.len() - 1])
    )
}

/// The per-move breakdown of the bot's log: median / p99 / max of each span.
pub fn breakdown(log: &str) -> String {
    let lines: Vec<&str> = log.lines().filter(|l| l.contains("move timing")).collect();
    let mut out = format!(
        "breakdown of {} accepted moves (median / p99 / max):\n",
        lines.len()
    );
    for (key, what) in SPANS {
        let mut times: Vec<Duration> = lines
            .iter()
            .filter_map(|l| field(l, key))
            .map(Duration::from_micros)
            .collect();
        if times.is_empty() {
            continue;
        }
        out.push_str(&format!("  {what:<32} {}\n", figures(&mut times)));
    }
    out
}

#[test]
fn fields_are_read_from_log_lines() {
    let line = "2026-01-01T00:00:00Z  INFO arbiter::discord::slash: move timing thread=3 load_us=120 handle_us=45 commit_us=3000";
    assert_eq!(field(line, "load_us"), Some(120));
    assert_eq!(field(line, "commit_us"), Some(3000));
    assert_eq!(field(line, "us"), None);
    let b = breakdown(&format!("{line}\nother line\n{line}"));
    assert!(b.starts_with("breakdown of 2 accepted moves"), "{b}");
    assert!(b.contains("database commit") && b.contains("3.00"), "{b}");
}
