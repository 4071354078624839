//! The timer sweep at scale (issue 22): every timer that falls due in a game not in memory is
//! announced within one tick of the sweep (the service's [`TICK`]) of falling due, once; after a
//! restart what fell due meanwhile is announced once, a game with many late timers in one
//! catch-up post. Driven by a fake clock; runs on SQLite, and on PostgreSQL when
//! `ARBITER_TEST_POSTGRES` names a server.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashMap;
use std::time::Duration;

use arbiter::commands::{parse_command, Caller, Roles};
use arbiter::service::{Service, TICK};
use arbiter::store::Store;

const START: u64 = 1_767_225_600;

async fn send(svc: &Service, user: &str, thread: &str, now: u64, text: &str) {
    let cmd = parse_command(text).expect("a command");
    let caller = Caller {
        user,
        roles: Roles {
            organiser: user == "org",
            moderator: false,
        },
        thread,
        now,
    };
    let r = svc.handle(&caller, 1, &cmd, text, None).await;
    assert_eq!(r.ok, Some(true), "{thread}: {user} {text}: {}", r.text);
}

/// A runtime of two workers, as the bot runs on two cores.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

async fn service(url: &str) -> Service {
    Service::with_store(Store::connect(Some(url)).await.unwrap())
        .await
        .unwrap()
}

async fn kfb(svc: &Service, thread: &str) {
    send(
        svc,
        "org",
        thread,
        START,
        "/kfb new team1:@a @b @c team2:@d @e @f seed:1 move_limit:6m",
    )
    .await;
    for (u, p) in common::DRAFT {
        send(svc, u, thread, START, p).await;
    }
}

/// What each game's own timers say fell due in `(after, until]`: (thread, due time, text),
/// read from a copy of the stored game (independent of the sweep).
async fn expected(
    url: &str,
    threads: &[&str],
    after: u64,
    until: u64,
) -> Vec<(String, u64, String)> {
    let store = Store::connect(Some(url)).await.unwrap();
    let mut out = Vec::new();
    for t in threads {
        let g = store.load(t).await.unwrap().unwrap().game;
        for d in g.due(after, until) {
            out.push((t.to_string(), d.at, d.notify.text()));
        }
    }
    store.close().await;
    out
}

#[test]
fn every_timer_of_a_game_not_in_memory_is_announced_within_one_tick_once() {
    let url = common::fresh_db("sweep_tick");
    let rt = runtime();
    rt.block_on(async {
        let tick = TICK.as_secs();
        assert!(tick >= 1);
        let svc = service(&url).await;
        // Locks expiring at different times on several boards of two games, and a Party Chess
        // game whose turn limit recurs (each default play starts the next turn's limit; with
        // `stall:off` a round of them does not pause it).
        kfb(&svc, "k1").await;
        kfb(&svc, "k2").await;
        send(&svc, "a", "k1", START, "/move e2-e4").await;
        send(&svc, "d", "k1", START + 31, "/move e7-e5").await;
        send(&svc, "c", "k1", START + 45, "/move e2-e4").await;
        send(&svc, "e", "k2", START + 50, "/move e2-e4").await;
        send(
            &svc,
            "org",
            "p",
            START + 7,
            "/party new umpire:@uma swingers:@ann @ben @cat seed:7 turn_limit:10m stall:off",
        )
        .await;
        for u in ["ann", "ben", "cat"] {
            send(&svc, u, "p", START + 8, "/party pieces set:RRJPP").await;
        }
        let threads = ["k1", "k2", "p"];
        let begin = START + 60;
        let end = begin + 2 * 3600;
        let want = expected(&url, &threads, begin - 60, end).await;
        let count = |t: &str| want.iter().filter(|w| w.0 == t).count();
        assert!(count("k1") >= 2 && count("k2") >= 1, "{want:?}");
        assert!(count("p") >= 10, "a turn limit every 10 minutes: {want:?}");

        // The fake clock ticks; before each tick every game leaves memory.
        let mut announced: Vec<(String, u64, String)> = Vec::new();
        let mut last = 0;
        let mut now = begin;
        while now <= end {
            svc.evict(Duration::ZERO, Duration::ZERO);
            assert_eq!(svc.loaded_games(), 0);
            for (thread, n) in svc.due_messages(last, now).await {
                announced.push((thread, now, n.text()));
            }
            last = now;
            now += tick;
        }
        let mut left: Vec<Option<&(String, u64, String)>> = want.iter().map(Some).collect();
        for (thread, at_tick, text) in &announced {
            let found = left.iter_mut().find(|w| {
                w.is_some_and(|(t, at, x)| t == thread && x == text && *at <= *at_tick && *at_tick < at + tick)
            });
            assert!(
                found.is_some(),
                "announced at {at_tick} ({thread}) but not due within the tick before, or twice: {text}"
            );
            if let Some(f) = found {
                *f = None;
            }
        }
        let missed: Vec<_> = left.into_iter().flatten().collect();
        assert!(missed.is_empty(), "never announced: {missed:?}");
        assert_eq!(announced.len(), want.len());

        // The bot goes down; a move starts one more lock, and the Party game's limits keep
        // running out. A new process announces what fell due meanwhile, once: the single late
        // lock as itself, the Party game's many as one catch-up post.
        send(&svc, "a", "k2", end + 10, "/move e2-e4").await;
        drop(svc);
        let back = end + 6 * 3600;
        let late = expected(&url, &threads, end, back).await;
        let restarted = service(&url).await;
        let posts = restarted.due_messages(0, back).await;
        let by_thread: HashMap<&str, Vec<String>> =
            posts.iter().fold(HashMap::new(), |mut m, (t, n)| {
                m.entry(t.as_str()).or_default().push(n.text());
                m
            });
        let k2 = &by_thread["k2"];
        let k2_want: Vec<_> = late.iter().filter(|w| w.0 == "k2").collect();
        assert_eq!((k2.len(), k2_want.len()), (1, 1), "{k2:?}");
        assert!(
            k2[0].starts_with(&k2_want[0].2) && k2[0].contains("(late: this fell due at"),
            "{k2:?}"
        );
        let p = &by_thread["p"];
        let p_want = late.iter().filter(|w| w.0 == "p").count();
        assert!(p_want >= 30, "six hours of 10-minute limits: {p_want}");
        assert_eq!(p.len(), 1, "one catch-up post: {p:?}");
        assert!(
            p[0].starts_with(&format!(
                "While the bot was away, {p_want} timers fell due in this game"
            )),
            "{}",
            p[0]
        );
        // It ends with the last timer's own announcement, pinging whoever must act now.
        let last_text = &late.iter().rfind(|w| w.0 == "p").unwrap().2;
        assert!(p[0].ends_with(&format!("Now:\n{last_text}")), "{}", p[0]);
        assert!(!by_thread.contains_key("k1"), "nothing fell due in k1");
        // Another restart: nothing again, nothing read.
        drop(restarted);
        let again = service(&url).await;
        assert!(again.due_messages(0, back).await.is_empty());
        assert_eq!(again.loads(), 0);
    });
}

/// A game's timers found over a long window at once (the sweep's catch-up, one pass) are the
/// ones found window by window, one timer at a time (each from the game's own state): same
/// times, same seats, same messages. Nomic Chess's limits recur (a day of 5-minute parts).
#[test]
fn a_long_window_of_timers_is_the_timers_found_one_by_one() {
    let mut hub = arbiter::commands::Hub::new();
    // `stall:off`: turns running out never pause it.
    let text =
        "/nomic new players:@ann @ben @cat referees:@ref order:@ann @ben @cat seed:5 stall:off";
    let cmd = parse_command(text).unwrap();
    let caller = Caller {
        user: "org",
        roles: Roles {
            organiser: true,
            moderator: false,
        },
        thread: "n",
        now: START,
    };
    let r = hub.handle(&caller, 1, &cmd, text);
    assert_eq!(r.ok, Some(true), "{}", r.text);
    let game = hub.game("n").unwrap();
    let until = START + 6 * 3600;
    let all = game.due(START, until);
    assert!(
        all.len() >= 50,
        "six hours of 5-minute limits: {}",
        all.len()
    );
    let mut one_by_one = Vec::new();
    let mut from = START;
    while let Some(next) = game.due(from, until).first().map(|d| d.at) {
        one_by_one.extend(game.due(from, next));
        from = next;
    }
    assert_eq!(all, one_by_one);
}

/// Reminders (issue 41) are timers too: one that fell due while the bot was down is sent
/// once when it is back, marked late, and only the last one missed for each wait, not one per
/// missed interval; it pings the one user waited on, and the next sweep sends nothing again.
#[test]
fn a_reminder_missed_while_down_is_sent_once_after_a_restart() {
    let url = common::fresh_db("reminder_restart");
    let rt = runtime();
    rt.block_on(async {
        let svc = service(&url).await;
        kfb(&svc, "k1").await;
        send(&svc, "a", "k1", START + 60, "/move e2-e4").await;
        // Swept up to a minute later: nothing to remind of yet.
        assert!(svc.due_messages(START, START + 120).await.len() <= 1);
        drop(svc);
        // Down for 40 hours: three reminders of d's wait fell due (12h, 24h, 36h after a's move).
        let svc = service(&url).await;
        let back = START + 60 + 40 * 3600;
        let sent: Vec<String> = svc
            .due_messages(START + 120, back)
            .await
            .into_iter()
            .map(|(_, n)| n.text())
            .filter(|t| t.contains("reminder:"))
            .collect();
        let to_d: Vec<&String> = sent.iter().filter(|t| t.starts_with("@d:")).collect();
        assert_eq!(to_d.len(), 1, "{sent:?}");
        assert!(to_d[0].contains("move on board 1"), "{}", to_d[0]);
        assert!(to_d[0].contains("(late: this fell due at"), "{}", to_d[0]);
        let again = svc.due_messages(back, back + 60).await;
        assert!(
            again.iter().all(|(_, n)| !n.text().contains("reminder:")),
            "{again:?}"
        );
    });
}

/// Issue 41: a player's `/notify` made through one process decides the reminders that another
/// process on the same database sends, and a "not waiting on me" pressed in one holds in the
/// other.
#[test]
fn notification_settings_made_in_one_process_hold_in_another() {
    let url = common::fresh_db("sweep_notify");
    let rt = runtime();
    rt.block_on(async {
        let a = service(&url).await;
        let b = service(&url).await;
        let new = "/ultimate new silver:@sil red:@rex black:@bea green:@gus seed:7 remind:1h";
        send(&a, "org", "u", START, new).await;
        let reminders = |sent: &[(String, arbiter::commands::Notify)]| {
            sent.iter()
                .filter(|(_, n)| n.text().contains("reminder:"))
                .count()
        };
        // Process b reminds sil after an hour...
        let sent = b.due_messages(START, START + 3600).await;
        assert_eq!(reminders(&sent), 1, "{sent:?}");
        // ...until she turns reminders off through process a.
        send(&a, "sil", "dm", START + 3700, "/notify reminders:off").await;
        let sent = b.due_messages(START + 3600, START + 3 * 3600).await;
        assert_eq!(reminders(&sent), 0, "{sent:?}");
        // rex's turn: his first reminder comes from a.
        send(&b, "sil", "u", START + 4 * 3600, "/move e2-e4").await;
        let sent = a.due_messages(START + 3 * 3600, START + 5 * 3600).await;
        assert_eq!(reminders(&sent), 1, "{sent:?}");
        // "Not waiting on me" is offered where a game waits on several (issue 53: a KFB game
        // after its draft, each board's first mover); pressed through a, it stops b's.
        let at = START + 5 * 3600;
        send(
            &a,
            "org",
            "k",
            at,
            "/kfb new team1:@a @b @c team2:@d @e @f seed:1 remind:1h",
        )
        .await;
        for (u, p) in common::DRAFT {
            send(&a, u, "k", at, p).await;
        }
        let in_k =
            |sent: &[(String, arbiter::commands::Notify)]| -> Vec<arbiter::commands::Notify> {
                sent.iter()
                    .filter(|(t, n)| t == "k" && n.text().contains("reminder:"))
                    .map(|(_, n)| n.clone())
                    .collect()
            };
        let sent = a.due_messages(at, at + 3600).await;
        let (who, button) = in_k(&sent)
            .iter()
            .find_map(|n| Some((n.users().first()?.clone(), n.buttons().first()?.clone())))
            .expect("the reminder's button");
        let r = a.press(&who, &button, at + 3600).await;
        assert_eq!(r.ok, Some(true), "{}", r.text);
        let sent = b.due_messages(at + 3600, at + 5 * 3600).await;
        let mention = format!("@{who}:");
        assert!(
            in_k(&sent).iter().all(|n| !n.text().starts_with(&mention)),
            "{sent:?}"
        );
    });
}

/// Conditional moves are stored with their game (issue 43): a line set before a restart is
/// played after it; a line set in one process is played by another that handles the
/// opponent's move, once; and a `now:` move waiting on a lock is played by the sweep that
/// lifts the lock, committed with the game.
#[test]
fn conditional_moves_survive_a_restart_and_cross_processes() {
    let url = common::fresh_db("premove_restart");
    let rt = runtime();
    rt.block_on(async {
        let svc = service(&url).await;
        kfb(&svc, "k1").await;
        send(&svc, "a", "k1", START + 10, "/move e2-e4").await;
        send(
            &svc,
            "a",
            "k1",
            START + 20,
            "/premove line:e7-e5 Ng1-f3 d7-d6 d2-d4",
        )
        .await;
        drop(svc);
        // After a restart d's move is answered from the stored line.
        let svc = service(&url).await;
        let cmd = parse_command("/move e7-e5").unwrap();
        let caller = Caller {
            user: "d",
            roles: Roles::default(),
            thread: "k1",
            now: START + 30,
        };
        let r = svc.handle(&caller, 1, &cmd, "/move e7-e5", None).await;
        assert_eq!(r.ok, Some(true), "{}", r.text);
        assert!(
            r.notices
                .iter()
                .any(|(t, n)| t == "k1" && n.contains("Ng1-f3 (premove)")),
            "{:?}",
            r.notices
        );
        // A second process on the same database: it sees the rest of the line.
        let other = service(&url).await;
        let cmd = parse_command("/move d7-d6").unwrap();
        let caller = Caller {
            now: START + 40,
            ..caller
        };
        let r = other.handle(&caller, 1, &cmd, "/move d7-d6", None).await;
        assert!(
            r.notices.iter().any(|(_, n)| n.contains("d2-d4 (premove)")),
            "{:?}",
            r.notices
        );
        // The first process reads the game again and plays nothing twice.
        let log = svc
            .with_game("k1", |g| {
                (0..g.log_len())
                    .filter_map(|i| g.row(i).and_then(Result::ok))
                    .filter(|r| r.command.ends_with("(premove)"))
                    .count()
            })
            .await;
        assert_eq!(log, Some(2));
        // `now:` waits on a's lock (6 minutes after d2-d4); the sweep lifting it plays it.
        send(&svc, "a", "k1", START + 50, "/premove now:Bf1-c4").await;
        let posts = svc.due_messages(START + 50, START + 40 + 360).await;
        let texts: Vec<String> = posts.iter().map(|(_, n)| n.text()).collect();
        assert!(
            texts.iter().any(|t| t.contains("Bf1-c4 (premove)")),
            "{texts:?}"
        );
        assert!(
            texts.iter().all(|t| !t.contains("@a: your lock")),
            "{texts:?}"
        );
        drop(svc);
        drop(other);
        let store = Store::connect(Some(&url)).await.unwrap();
        let g = store.load("k1").await.unwrap().unwrap();
        let played = (0..g.game.log_len())
            .filter_map(|i| g.game.row(i).and_then(Result::ok))
            .filter(|r| r.command.ends_with("(premove)"))
            .count();
        assert_eq!(played, 3);
        assert!(g.premoves.is_empty(), "{}", g.premoves);
        store.close().await;
    });
}

/// A substitution is stored with its game (issue 42): after a restart the new player holds
/// the seat, `/mygames` lists the game for them and no longer for the player replaced, and
/// the export reads back into the same game.
#[test]
fn a_substitution_survives_a_restart_and_moves_mygames() {
    let url = common::fresh_db("substitute_restart");
    let rt = runtime();
    rt.block_on(async {
        let svc = service(&url).await;
        send(
            &svc,
            "org",
            "u1",
            START,
            "/ultimate new silver:@ann red:@ben black:@cat green:@dan seed:7",
        )
        .await;
        send(&svc, "ann", "u1", START + 10, "/move e2-e5").await;
        send(
            &svc,
            "org",
            "u1",
            START + 20,
            "/substitute player:@ben by:@zed",
        )
        .await;
        drop(svc);
        let svc = service(&url).await;
        let users = svc.with_game("u1", |g| g.users()).await.unwrap();
        assert_eq!(users, ["ann", "zed", "cat", "dan"]);
        let mine = |user: &'static str| {
            let svc = &svc;
            async move {
                let cmd = parse_command("/mygames").unwrap();
                let caller = Caller {
                    user,
                    roles: Roles::default(),
                    thread: "elsewhere",
                    now: START + 30,
                };
                svc.handle(&caller, 1, &cmd, "/mygames", None).await.text
            }
        };
        assert!(mine("zed").await.contains("u1"), "{}", mine("zed").await);
        assert!(!mine("ben").await.contains("u1"), "{}", mine("ben").await);
        send(&svc, "zed", "u1", START + 40, "/move b5-d5").await;
        let export = svc.with_game("u1", |g| g.export()).await.unwrap();
        let back = arbiter::commands::import(&export).unwrap();
        assert_eq!(back.users(), ["ann", "zed", "cat", "dan"]);
        let now = START + 50;
        let status = svc.with_game("u1", |g| g.status(now)).await.unwrap();
        assert_eq!(back.status(now), status);
    });
}

/// Vacations cross processes (issue 42): one taken through process a moves the limit of a
/// Nomic game process b had already read (its version changes, and b reads the vacations
/// again); b's sweep does not run the limit out, ben's late push is accepted by b, and a fresh
/// process replays the log, which holds only with the vacation, to the same game.
#[test]
fn a_vacation_taken_in_one_process_holds_in_another_and_after_a_restart() {
    let url = common::fresh_db("sweep_vacation");
    let rt = runtime();
    rt.block_on(async {
        let a = service(&url).await;
        let b = service(&url).await;
        let new = "/nomic new players:@ann @ben @cat referees:@ref order:@ann @ben @cat seed:5 part1_limit:1h part3_limit:1h";
        send(&a, "org", "n", START, new).await;
        // b reads the game before the vacation.
        let before = b.with_game("n", |g| g.status(START + 1)).await.unwrap();
        assert!(before.contains("Turn: army 1 (ann)"), "{before}");
        // ben is away from 0:30 to 3:30; his turn begins at 1:00, so his hour runs 3:30-4:30.
        send(&a, "ben", "dm", START + 1800, "/vacation until:3h").await;
        let ran_out = |sent: &[(String, arbiter::commands::Notify)], who: &str| {
            sent.iter()
                .any(|(_, n)| n.text().contains(&format!("Army 2 ({who}): part 1 ran out")))
        };
        let sent = b.due_messages(START, START + 4 * 3600).await;
        assert!(
            sent.iter().any(|(_, n)| n.text().contains("Army 1 (ann): part 1 ran out")),
            "{sent:?}"
        );
        assert!(!ran_out(&sent, "ben"), "{sent:?}");
        send(&b, "ben", "n", START + 4 * 3600, "/push bottom:B top:C").await;
        let sent = b.due_messages(START + 4 * 3600, START + 5 * 3600).await;
        assert!(ran_out(&sent, "ben"), "{sent:?}");
        let now = START + 5 * 3600;
        let status = b.with_game("n", |g| g.status(now)).await.unwrap();
        drop((a, b));
        let c = service(&url).await;
        let again = c.with_game("n", |g| g.status(now)).await.unwrap();
        assert_eq!(again, status);
        assert!(status.contains("army 3 (cat)"), "{status}");
    });
}
