//! The service under load and at scale (issues 21 and 22): games never wait for each other,
//! commands on one game are serialised, games load on demand and leave memory when idle, and
//! timers fall due for games not in memory. Runs on SQLite, and on PostgreSQL when
//! `ARBITER_TEST_POSTGRES` names a server.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use arbiter::commands::{parse_command, Caller, Reply, Roles};
use arbiter::games::kfb::adapter::state_lines;
use arbiter::games::kfb::Game;
use arbiter::service::Service;
use arbiter::store::Store;

const START: u64 = 1_767_225_600;

async fn send(
    svc: &Service,
    user: &str,
    thread: &str,
    now: u64,
    text: &str,
    id: Option<&str>,
) -> Reply {
    let cmd = parse_command(text).expect("a command");
    let roles = Roles {
        organiser: user == "org",
        moderator: user == "mod",
    };
    let caller = Caller {
        user,
        roles,
        thread,
        now,
    };
    let r = svc.handle(&caller, 1, &cmd, text, id).await;
    // A resignation asks once (issue 55): confirmed here.
    match r.buttons.iter().find(|b| b.starts_with("ask-confirm")) {
        Some(b) => svc.press(user, b, now).await,
        None => r,
    }
}

async fn new_game(svc: &Service, thread: &str) {
    let r = send(
        svc,
        "org",
        thread,
        START,
        "/kfb new team1:@a @b @c team2:@d @e @f seed:1 move_limit:6m",
        None,
    )
    .await;
    assert_eq!(r.ok, Some(true), "{}", r.text);
    for (u, p) in common::DRAFT {
        let r = send(svc, u, thread, START, p, None).await;
        assert_eq!(r.ok, Some(true), "{}", r.text);
    }
}

async fn service(url: &str) -> Service {
    Service::with_store(Store::connect(Some(url)).await.unwrap())
        .await
        .unwrap()
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .unwrap()
}

/// Drops every game from memory (those with a confirmation showing stay).
fn evict_all(svc: &Service) {
    svc.evict(Duration::ZERO, Duration::ZERO);
}

#[test]
fn a_game_blocked_mid_command_does_not_hold_up_another() {
    let url = common::fresh_db("side_by_side");
    rt().block_on(async {
        let svc = Arc::new(service(&url).await);
        new_game(&svc, "slow").await;
        new_game(&svc, "fast").await;
        // A reading of "slow" stops half-way, holding that game's lock, until released.
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let (inside, entered) = tokio::sync::oneshot::channel::<()>();
        let holder = {
            let svc = svc.clone();
            tokio::spawn(async move {
                svc.with_game("slow", move |_| {
                    inside.send(()).unwrap();
                    // Blocks this task only: the worker's other tasks move to another thread.
                    tokio::task::block_in_place(|| wait.recv().unwrap());
                })
                .await
            })
        };
        entered.await.unwrap();
        // Another game goes on meanwhile.
        let r = tokio::time::timeout(
            Duration::from_secs(10),
            send(&svc, "a", "fast", START, "/move e2-e4", None),
        )
        .await
        .expect("a move in another game is not held up");
        assert_eq!(r.ok, Some(true), "{}", r.text);
        // A command on the held game waits for it.
        let queued = {
            let svc = svc.clone();
            tokio::spawn(async move { send(&svc, "a", "slow", START, "/move e2-e4", None).await })
        };
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(!queued.is_finished(), "a command on the held game waited");
        release.send(()).unwrap();
        holder.await.unwrap();
        let r = queued.await.unwrap();
        assert_eq!(r.ok, Some(true), "{}", r.text);
    });
}

#[test]
fn concurrent_commands_on_one_game_apply_once_each_in_order() {
    let url = common::fresh_db("one_game");
    rt().block_on(async {
        let svc = Arc::new(service(&url).await);
        new_game(&svc, "g").await;
        // The first movers of the three boards at once, then the second movers at once; each
        // move sent from two tasks with one interaction id (a retried delivery), and a chat
        // line from every task.
        let phases = [
            [("a", "e2-e4"), ("c", "e2-e4"), ("e", "e2-e4")],
            [("d", "e7-e5"), ("f", "e7-e5"), ("b", "e7-e5")],
        ];
        for (phase, moves) in phases.iter().enumerate() {
            let mut tasks = Vec::new();
            for copy in 0..2 {
                for (i, &(user, m)) in moves.iter().enumerate() {
                    let svc = svc.clone();
                    tasks.push(tokio::spawn(async move {
                        let id = format!("interaction-{phase}-{i}");
                        let text = format!("/move {m}");
                        let r = send(&svc, user, "g", START + 1, &text, Some(&id)).await;
                        svc.chat(user, "g", START + 1).await;
                        (i, copy, r)
                    }));
                }
            }
            let mut replies: Vec<Vec<Reply>> = vec![Vec::new(); moves.len()];
            for t in tasks {
                let (i, _, r) = t.await.unwrap();
                replies[i].push(r);
            }
            for (i, rs) in replies.iter().enumerate() {
                assert_eq!(
                    rs[0].text, rs[1].text,
                    "both deliveries of {i} answered alike"
                );
                assert_eq!(rs[0].ok, Some(true), "{}", rs[0].text);
            }
        }
        let store = Store::connect(Some(&url)).await.unwrap();
        let stored = store.load("g").await.unwrap().unwrap();
        let game = stored.game.downcast::<Game>().unwrap();
        let numbers: Vec<u32> = game.log.iter().filter_map(|e| e.number).collect();
        assert_eq!(
            numbers,
            (1..=12).collect::<Vec<u32>>(),
            "no gap, none twice"
        );
        let chats = game.log.iter().filter(|e| e.number.is_none()).count();
        assert_eq!(chats, 12, "every chat line counted once");
        let mut moved: Vec<&str> = game.log[6..]
            .iter()
            .filter(|e| e.number.is_some())
            .map(|e| e.actor.as_str())
            .collect();
        moved.sort_unstable();
        assert_eq!(moved, ["a", "b", "c", "d", "e", "f"]);
        let mine = svc
            .with_game_as::<Game, _>("g", |g| state_lines(g, START + 10))
            .await
            .unwrap();
        assert_eq!(mine, state_lines(game, START + 10));
    });
}

/// A game played through a service that drops it from memory before every command answers
/// exactly as the same game kept in memory throughout: state, locks, takeback, revert (with
/// its confirmation button), and a repeated interaction.
#[test]
fn an_evicted_game_answers_exactly_as_before() {
    let url = common::fresh_db("evicted");
    rt().block_on(async {
        let evicted = service(&url).await;
        let kept = Service::in_memory();
        let script: &[(&str, u64, &str)] = &[
            (
                "org",
                0,
                "/kfb new team1:@a @b @c team2:@d @e @f seed:1 move_limit:6m",
            ),
            ("a", 0, "/pick order:first color:red army:fide"),
            ("f", 0, "/pick order:second color:red army:fide"),
            ("a", 0, "/pick order:first color:red army:fide"),
            ("e", 0, "/pick order:first color:blue army:rookies"),
            ("b", 0, "/pick order:second color:lightgreen army:nutty"),
            (
                "d",
                0,
                "/pick order:second color:lightgreen army:clobberers",
            ),
            ("c", 0, "/pick order:first color:blue army:forward"),
            ("a", 10, "/move e2-e4"),
            ("a", 20, "/move d2-d4"),
            ("d", 30, "/move d7-d5"),
            ("a", 40, "/move e4xd5"),
            ("a", 50, "/takeback"),
            ("a", 60, "/takeback"),
            ("a", 70, "/move e4xd5"),
            ("e", 80, "/move e2-e4"),
            ("b", 90, "/move P@e6"),
            ("c", 100, "/status"),
            ("mod", 110, "/revert to:11 reason:disputed"),
            ("a", 400, "/move d2-d4"),
            ("b", 500, "/moves"),
            ("a", 600, "/export"),
        ];
        for (i, (user, at, text)) in script.iter().enumerate() {
            evict_all(&evicted);
            let id = format!("i{i}");
            let want = send(&kept, user, "t", START + at, text, None).await;
            let got = send(&evicted, user, "t", START + at, text, Some(&id)).await;
            assert_eq!(got, want, "{user} {text}");
            if want.text.starts_with('#') {
                // A logged action delivered again is answered as the first time.
                evict_all(&evicted);
                let again = send(&evicted, user, "t", START + at, text, Some(&id)).await;
                assert_eq!(
                    (again.ok, &again.text),
                    (want.ok, &want.text),
                    "repeated {user} {text}"
                );
            }
            for b in &want.buttons {
                evict_all(&evicted);
                let want = kept.press("mod", b, START + at + 5).await;
                let got = evicted.press("mod", b, START + at + 5).await;
                assert_eq!(got, want, "pressing {b}");
            }
            let lines = |g: &Game| state_lines(g, START + at + 1);
            let want = kept.with_game_as::<Game, _>("t", lines).await;
            evict_all(&evicted);
            assert_eq!(
                evicted.with_game_as::<Game, _>("t", lines).await,
                want,
                "after {text}"
            );
        }
        evict_all(&evicted);
        assert_eq!(evicted.loaded_games(), 0, "nothing held in memory");
    });
}

#[test]
fn idle_and_finished_games_leave_memory_and_come_back_on_demand() {
    let url = common::fresh_db("idle");
    rt().block_on(async {
        let svc = service(&url).await;
        for t in ["g1", "g2", "g3"] {
            new_game(&svc, t).await;
        }
        let r = send(&svc, "a", "g3", START, "/resign", None).await;
        assert_eq!(r.ok, Some(true), "{}", r.text);
        assert_eq!(svc.loaded_games(), 3);
        // Finished games leave first.
        svc.evict(Duration::from_secs(3600), Duration::ZERO);
        assert_eq!(svc.loaded_games(), 2);
        svc.evict(Duration::ZERO, Duration::ZERO);
        assert_eq!(svc.loaded_games(), 0);
        // A new process starts with nothing in memory and reads a game when it is needed.
        let other = service(&url).await;
        assert_eq!((other.loaded_games(), other.loads()), (0, 0));
        let r = send(&other, "a", "g2", START, "/move e2-e4", None).await;
        assert_eq!(r.ok, Some(true), "{}", r.text);
        assert_eq!((other.loaded_games(), other.loads()), (1, 1));
    });
}

#[test]
fn a_timer_falls_due_for_a_game_not_in_memory_and_after_a_restart() {
    let url = common::fresh_db("timers_cold");
    rt().block_on(async {
        let svc = service(&url).await;
        for t in ["due", "quiet"] {
            new_game(&svc, t).await;
        }
        let r = send(&svc, "a", "due", START, "/move e2-e4", None).await;
        assert_eq!(r.ok, Some(true), "{}", r.text);
        evict_all(&svc);
        let loads = svc.loads();
        assert!(svc.due_messages(START, START + 359).await.is_empty());
        assert_eq!(svc.loads(), loads, "no game read before its timer");
        let due = svc.due_messages(START + 359, START + 362).await;
        let texts: Vec<(String, String)> = due.iter().map(|(t, n)| (t.clone(), n.text())).collect();
        assert_eq!(
            texts,
            [(
                "due".to_string(),
                "@a: your lock has expired; you may move on board 1".to_string()
            )]
        );
        assert_eq!(
            svc.loads(),
            loads + 1,
            "only the game with the timer is read"
        );
        let r = send(&svc, "d", "due", START + 1000, "/move e7-e5", None).await;
        assert_eq!(r.ok, Some(true), "{}", r.text);
        evict_all(&svc);
        let loads = svc.loads();
        assert!(svc
            .due_messages(START + 1000, START + 1300)
            .await
            .is_empty());
        assert_eq!(svc.loads(), loads, "the next timer is not due yet");
        // The bot is down when b's lock expires; a new process announces it once, late.
        drop(svc);
        let restarted = service(&url).await;
        let due = restarted.due_messages(0, START + 5000).await;
        let texts: Vec<String> = due.iter().map(|(_, n)| n.text()).collect();
        assert_eq!(texts.len(), 1, "{texts:?}");
        assert!(
            texts[0].starts_with("@d: your lock has expired") && texts[0].contains("late"),
            "{texts:?}"
        );
        assert_eq!(restarted.loads(), 1, "only that game is read");
        let again = service(&url).await;
        assert!(again.due_messages(0, START + 9000).await.is_empty());
        assert_eq!(again.loads(), 0, "nothing left to sweep, nothing read");
    });
}

/// Two processes on one database, each loading on demand: neither acts on a stale copy.
#[test]
fn two_processes_loading_on_demand_never_act_on_a_stale_game() {
    let url = common::fresh_db("stale");
    rt().block_on(async {
        let a = service(&url).await;
        let b = service(&url).await;
        new_game(&a, "t").await;
        // b reads the game, then a moves: b sees the move before acting.
        let before = b
            .with_game_as::<Game, _>("t", |g| state_lines(g, START))
            .await
            .unwrap();
        let r = send(&a, "a", "t", START, "/move e2-e4", None).await;
        assert_eq!(r.ok, Some(true), "{}", r.text);
        let r = send(&b, "a", "t", START + 1, "/move d2-d4", None).await;
        assert_eq!(r.ok, Some(false), "a is locked after e2-e4: {}", r.text);
        assert!(r.text.contains("locked"), "{}", r.text);
        let after = b
            .with_game_as::<Game, _>("t", |g| state_lines(g, START))
            .await
            .unwrap();
        assert_ne!(before, after);
        // Interleaved moves from both, each on its own copy kept in memory or not.
        let mut seen = HashSet::new();
        let moves = [
            ("d", "d7-d5"),
            ("c", "e2-e4"),
            ("f", "e7-e5"),
            ("e", "d2-d4"),
            ("b", "d7-d5"),
        ];
        for (i, (user, m)) in moves.iter().enumerate() {
            let (me, other) = if i % 2 == 0 { (&a, &b) } else { (&b, &a) };
            if i % 3 == 0 {
                evict_all(me);
            }
            let r = send(me, user, "t", START + 10, &format!("/move {m}"), None).await;
            assert_eq!(r.ok, Some(true), "{user} {m}: {}", r.text);
            assert!(seen.insert(r.text.clone()));
            // The same move again from the other process is refused: it reads the new state.
            let r = send(other, user, "t", START + 11, &format!("/move {m}"), None).await;
            assert_eq!(r.ok, Some(false), "{user} {m} twice: {}", r.text);
        }
        let store = Store::connect(Some(&url)).await.unwrap();
        let stored = store.load("t").await.unwrap().unwrap();
        assert_eq!(stored.game.log_len(), 12);
        let lines = |g: &Game| state_lines(g, START + 20);
        assert_eq!(
            a.with_game_as::<Game, _>("t", lines).await,
            b.with_game_as::<Game, _>("t", lines).await,
            "both converge on the stored game"
        );
    });
}

/// The Discord front end sends its deferral when the service tells it a move was accepted
/// (before the commit): that signal comes for an accepted move it will picture, and never for
/// a refused move, a command without a picture, or a call that asks for no picture.
#[test]
fn the_early_signal_comes_for_accepted_pictured_moves_only() {
    let url = common::fresh_db("early_signal");
    rt().block_on(async {
        let svc = service(&url).await;
        new_game(&svc, "t").await;
        let told = |user: &'static str, text: &'static str, picture: bool| {
            let svc = &svc;
            async move {
                let cmd = parse_command(text).expect("a command");
                let caller = Caller {
                    user,
                    roles: Roles::default(),
                    thread: "t",
                    now: START,
                };
                let (tell, heard) = tokio::sync::oneshot::channel();
                let handled = svc
                    .handle_telling(&caller, 1, &cmd, text, None, picture, tell)
                    .await;
                (handled.reply, heard.await.is_ok())
            }
        };
        let (reply, heard) = told("a", "/move e2-e5", true).await;
        assert_eq!(reply.ok, Some(false), "{}", reply.text);
        assert!(!heard, "a refused move gives no early signal");
        let (reply, heard) = told("a", "/status", true).await;
        assert!(
            !heard,
            "a command without a picture gives none: {}",
            reply.text
        );
        let (reply, heard) = told("a", "/move e2-e4", true).await;
        assert_eq!(reply.ok, Some(true), "{}", reply.text);
        assert!(heard, "an accepted move is signalled");
        let (reply, heard) = told("d", "/move e7-e5", false).await;
        assert_eq!(reply.ok, Some(true), "{}", reply.text);
        assert!(!heard, "no picture asked for, no signal");
    });
}

/// Issue 41: `/mygames` on a Discord server lists the caller's games on that server and those
/// stored without one (older games, console games), not those of another server.
#[test]
fn my_games_lists_the_games_of_the_server_asked_on() {
    let url = common::fresh_db("mygames_guild");
    rt().block_on(async {
        let svc = service(&url).await;
        for t in ["here", "there", "nowhere"] {
            let r = send(
                &svc,
                "org",
                t,
                START,
                "/chex new white:@ann black:@ben seed:7",
                None,
            )
            .await;
            assert_eq!(r.ok, Some(true), "{}", r.text);
        }
        svc.set_guild("here", "1").await;
        svc.set_guild("there", "2").await;
        evict_all(&svc);
        let caller = Caller {
            user: "ann",
            roles: Roles::default(),
            thread: "dm",
            now: START + 60,
        };
        let r = svc.my_games_on(&caller, Some("1")).await;
        assert!(r.text.starts_with("2 of your 2 games"), "{}", r.text);
        let listed: Vec<&str> = r
            .text
            .lines()
            .skip(1)
            .filter_map(|l| l.split(':').next())
            .collect();
        assert_eq!(listed, ["here", "nowhere"], "{}", r.text);
        let r = svc.my_games_on(&caller, None).await;
        assert!(r.text.starts_with("3 of your 3 games"), "{}", r.text);
    });
}
