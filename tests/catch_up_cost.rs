//! Issue 54: catching up costs what fell due, not everything since the last action. Nomic
//! Chess counts the limits it runs out (`limits_run_out`), each time any question runs one
//! out; this binary holds this one test, so the count is this test's alone.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter::console::Console;
use arbiter::games::nomic::limits_run_out;

/// A Nomic Chess game of hourly limits that never pauses, swept after 30 days, 30 days more,
/// then an hour: each catch-up runs out a bounded number of times the limits that fell due
/// in it (720 in 30 days), and the hour after 60 days costs what one hour does, not a run
/// of the 1,440 limits since the last action (which every question once replayed).
#[test]
fn a_catch_up_runs_out_what_fell_due_not_all_since_the_last_action() {
    let url = common::fresh_db("catch_up_cost");
    let mut c = Console::open(Some(&url), 7).expect("a test database");
    for line in [
        "!as organiser org",
        "!thread n1",
        "org /nomic new players:@ann @ben @cat referees:@ref order:@ann @ben @cat seed:5 part1_limit:1h part3_limit:1h stall:off",
    ] {
        c.line(line);
    }
    let cost = |c: &mut Console, line: &str| {
        let before = limits_run_out();
        let out = c.line(line);
        (limits_run_out() - before, out)
    };
    let (first, out) = cost(&mut c, "!clock +30d");
    assert!(
        out.iter()
            .any(|l| l.contains("While the bot was away, 720 timers fell due in this game")),
        "{out:?}"
    );
    let (second, out) = cost(&mut c, "!clock +30d");
    assert!(
        out.iter()
            .any(|l| l.contains("While the bot was away, 720 timers fell due in this game")),
        "{out:?}"
    );
    let (hour, out) = cost(&mut c, "!clock +1h");
    assert!(
        out.iter().any(|l| l.contains("ran out after 1h")),
        "{out:?}"
    );
    // Each limit that fell due is run out a few times (the sweep, the waits, the next due
    // time, the kept states), never once per limit before it.
    eprintln!("limits run out: {first}, {second}, {hour}");
    assert!(first <= 40 * 720, "first 30 days: {first}");
    assert!(second <= 40 * 720, "next 30 days: {second}");
    assert!(hour < 200, "one hour after 60 days: {hour}");
}
