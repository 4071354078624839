//! Nothing a user types breaks a game (issue 54): every declared option of every command
//! (read from the declarations, so a new command is covered), and every notation entry point
//! (`/move`, `/premove`, `/moves square:`), fed multi-byte, combining, right-to-left,
//! NUL/control and 100k-character values on the console, in games of all five kinds: exactly
//! one `ok:`/`refused:` answer each, and no panic anywhere (caught ones included).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;

use arbiter::commands::declare;
use arbiter::console::{Console, START_TIME};

static PANICS: AtomicUsize = AtomicUsize::new(0);
static HOOK: Once = Once::new();

/// Counts every panic of the process, caught or not.
fn count_panics() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            previous(info);
        }));
    });
}

/// The hostile values.
fn values() -> Vec<String> {
    vec![
        "é4".into(),
        "aé1".into(),
        "Nb1xé3".into(),
        "Rc3-c9 Dé8=H".into(),
        "+1ü1".into(),
        "e\u{301}2-e\u{301}4".into(),
        "\u{202e}e2-e4\u{202c}".into(),
        "שלום".into(),
        "مرحبا d7-d9".into(),
        "a\u{0}b".into(),
        "\u{7}\u{1b}[31m\u{8}".into(),
        "İİİ1".into(),
        "😀@f6".into(),
        "e2-😀".into(),
        "ß1-ẞ2".into(),
        "\u{feff}+05:30".into(),
        "Ⅻ".into(),
        "１２".into(),
        "x".repeat(100_000),
        "é".repeat(50_000),
    ]
}

/// The five games, each in its thread, past their setup so moves are read.
const GAMES: &[(&str, &[&str])] = &[
    (
        "k1",
        &[
            "org /kfb new team1:@a @b @c team2:@d @e @f seed:1 move_limit:6m",
            "f /pick order:second color:red army:fide",
            "a /pick order:first color:red army:fide",
            "e /pick order:first color:blue army:rookies",
            "b /pick order:second color:lightgreen army:nutty",
            "d /pick order:second color:lightgreen army:clobberers",
            "c /pick order:first color:blue army:forward",
        ],
    ),
    (
        "u1",
        &["org /ultimate new silver:@a red:@b black:@c green:@d seed:7 move_limit:2d"],
    ),
    ("c1", &["org /chex new white:@a black:@b seed:42"]),
    (
        "p1",
        &["org /party new umpire:@org swingers:@a @b @c seed:7 turn_limit:3d"],
    ),
    (
        "n1",
        &["org /nomic new players:@a @b @c referees:@org order:@a @b @c seed:5"],
    ),
];

fn console() -> Console {
    let mut c = Console::new(START_TIME, 11);
    c.line("!as organiser org");
    c.line("!as moderator org");
    for (thread, setup) in GAMES {
        c.line(&format!("!thread {thread}"));
        for l in *setup {
            let out = c.line(l);
            assert!(
                out.first().is_some_and(|f| f.starts_with("ok:")),
                "{l}: {out:?}"
            );
        }
    }
    c
}

/// Every line the fuzz sends in one thread: each declared option of each command with each
/// value, then the notation entry points with each value as typed.
fn lines(values: &[String]) -> Vec<String> {
    // The notation entry points first, while every game is still in play.
    let mut out = Vec::new();
    for v in values {
        out.push(format!("/move {v}"));
        out.push(format!("/move notation:{v}"));
        out.push(format!("/premove now:{v}"));
        out.push(format!("/premove line:{v}"));
        out.push(format!("/premove line:e7-e5 {v}"));
        out.push(format!("/moves square:{v}"));
    }
    for d in declare::all() {
        for o in d.options {
            for v in values {
                out.push(format!("/{} {}:{v}", d.path, o.name));
            }
        }
        for v in values {
            out.push(format!("/{} {v}", d.path));
        }
    }
    out
}

/// Sends `line` as `user` and checks its one answer.
fn one_answer(c: &mut Console, thread: &str, user: &str, line: &str) {
    let out = c.line(&format!("{user} {line}"));
    let answers = out
        .iter()
        .filter(|l| l.starts_with("ok:") || l.starts_with("refused:"))
        .count();
    if answers != 1 {
        let shown: String = line.chars().take(80).collect();
        let out: Vec<String> = out.iter().map(|l| l.chars().take(120).collect()).collect();
        panic!("[{thread}] {user} {shown}: {answers} answers: {out:?}");
    }
}

#[test]
fn every_option_of_every_command_takes_hostile_text() {
    count_panics();
    let mut c = console();
    let all = lines(&values());
    let commands = declare::all().count();
    assert!(commands > 50, "the declarations list {commands} commands");
    println!("{} lines in each of {} games", all.len(), GAMES.len());
    for (thread, _) in GAMES {
        c.line(&format!("!thread {thread}"));
        for line in &all {
            // Commands that change what the game is (a new game, a revert's confirmation)
            // are sent too: each still answers once.
            one_answer(&mut c, thread, "a", line);
        }
        // The game is still there and still answers.
        one_answer(&mut c, thread, "b", "/status");
    }
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "panics while fuzzing");
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_run_goes_on() {
    let mut c = console();
    c.line("!thread k1");
    assert_eq!(
        c.line_bytes(b"a /move e2-e\xff4"),
        vec!["refused: not valid UTF-8".to_string()]
    );
    let out = c.line_bytes(b"a /move e2-e4");
    assert!(out[0].starts_with("ok: #"), "{out:?}");
}

#[test]
fn the_consoles_settings_survive_a_restart() {
    let url = common::fresh_db("console_settings");
    let mut c = Console::open(Some(&url), 1).expect("open");
    c.line("!as organiser org");
    let out = c.line("org /settings vacation_days:3 reminder_after:2h stall_after:5d");
    assert!(out[0].starts_with("ok:"), "{out:?}");
    let shown = c.line("org /settings");
    drop(c);
    let mut c = Console::open(Some(&url), 1).expect("reopen");
    assert_eq!(c.line("org /settings"), shown);
    assert!(shown[0].contains("3 vacation days"), "{shown:?}");
}

/// A million hostile lines over the five games, with 0 panics (run by hand:
/// `cargo test --test robust_fuzz -- --ignored --nocapture`).
#[test]
#[ignore]
fn a_million_hostile_lines() {
    count_panics();
    let mut c = console();
    let mut values = values();
    values.retain(|v| v.len() < 1000);
    values.push("x".repeat(100_000));
    let all = lines(&values);
    let users = ["a", "b", "d", "org", "zed"];
    let mut rng = common::play::Rng::new(54);
    let started = std::time::Instant::now();
    let total = 1_000_000;
    for i in 0..total {
        if i % 20_000 == 0 {
            // A fresh console now and then, so no game is worn down to its end.
            if i % 200_000 == 0 && i > 0 {
                c = console();
            }
        }
        let (thread, _) = GAMES[rng.below(GAMES.len())];
        c.line(&format!("!thread {thread}"));
        let line = &all[rng.below(all.len())];
        one_answer(&mut c, thread, users[rng.below(users.len())], line);
    }
    let took = started.elapsed();
    println!("{total} hostile lines in {took:?}");
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "panics while fuzzing");
}
