//! Storage: concurrency, idempotency, timers fired once, crash recovery. Runs on SQLite, and
//! on PostgreSQL when `ARBITER_TEST_POSTGRES` names a server.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command as Proc, Stdio};
use std::sync::Arc;

use arbiter::commands::{parse_command, Caller, Roles};
use arbiter::games::kfb::adapter::state_lines;
use arbiter::games::kfb::{splitmix, Game};
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
) -> arbiter::commands::Reply {
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

/// A service over the database at `url`: one bot process.
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

/// Checks a stored game: no gaps (the loader refuses them), numbers 1..n once each, and the
/// state the service holds equals a fresh replay of the stored log.
async fn check_stored(store: &Store, svc: &Service, thread: &str, now: u64) -> usize {
    let stored = store
        .load(thread)
        .await
        .expect("load")
        .expect("stored game");
    let game = stored.game.downcast::<Game>().expect("a KFB game");
    let numbers: Vec<u32> = game.log.iter().filter_map(|e| e.number).collect();
    let expected: Vec<u32> = (1..=numbers.len() as u32).collect();
    assert_eq!(numbers, expected, "action numbers of {thread}");
    let mine = svc
        .with_game_as::<Game, _>(thread, |g| state_lines(g, now))
        .await
        .expect("game");
    assert_eq!(
        mine,
        state_lines(game, now),
        "{thread}: state equals the replayed log"
    );
    game.log.len()
}

#[test]
fn concurrent_commands_are_serialised_without_gaps_or_duplicates() {
    let url = common::fresh_db("concurrency");
    rt().block_on(async {
        // Two services on one database stand for two bot processes.
        let a = Arc::new(service(&url).await);
        let b = Arc::new(service(&url).await);
        for t in ["g1", "g2", "g3"] {
            new_game(&a, t).await;
        }
        let mut tasks = Vec::new();
        for task in 0..24u64 {
            let svc = if task % 2 == 0 { a.clone() } else { b.clone() };
            tasks.push(tokio::spawn(async move {
                let mut rng = splitmix(task + 1);
                let mut accepted = 0;
                for step in 0..25u64 {
                    rng = splitmix(rng);
                    let thread = ["g1", "g2", "g3"][(rng % 3) as usize];
                    let now = START + 400 * (step + 1);
                    let seat = (splitmix(rng) % 6) as usize;
                    let moves = svc
                        .with_game_as::<Game, _>(thread, |g| g.legal_moves(seat, now))
                        .await
                        .unwrap();
                    if moves.is_empty() {
                        continue;
                    }
                    let (_, text) = &moves[(splitmix(rng ^ 7) % moves.len() as u64) as usize];
                    let user = ["a", "b", "c", "d", "e", "f"][seat];
                    let r = send(&svc, user, thread, now, &format!("/move {text}"), None).await;
                    if r.ok == Some(true) {
                        accepted += 1;
                    }
                }
                accepted
            }));
        }
        let mut total = 0;
        for t in tasks {
            total += t.await.unwrap();
        }
        assert!(total > 20, "enough moves went through ({total})");
        let store = Store::connect(Some(&url)).await.unwrap();
        let mut logged = 0;
        for t in ["g1", "g2", "g3"] {
            // Both processes converge on the stored log.
            logged += check_stored(&store, &a, t, START + 100_000).await - 6;
            check_stored(&store, &b, t, START + 100_000).await;
        }
        assert_eq!(logged, total, "every accepted move is logged exactly once");
    });
}

#[test]
fn a_repeated_interaction_is_applied_once() {
    let url = common::fresh_db("idempotent");
    rt().block_on(async {
        let svc = service(&url).await;
        new_game(&svc, "t").await;
        let r1 = send(&svc, "a", "t", START, "/move e2-e4", Some("interaction-1")).await;
        let r2 = send(&svc, "a", "t", START, "/move e2-e4", Some("interaction-1")).await;
        assert_eq!(r1.ok, Some(true));
        assert_eq!(r2.ok, Some(true));
        assert_eq!(r1.text, r2.text);
        let other = service(&url).await;
        let r3 = send(
            &other,
            "a",
            "t",
            START,
            "/move e2-e4",
            Some("interaction-1"),
        )
        .await;
        assert_eq!(r3.text, r1.text);
        let store = Store::connect(Some(&url)).await.unwrap();
        assert_eq!(check_stored(&store, &svc, "t", START).await, 7);

        // A draft choice handed over is logged once and stays a refusal when delivered again.
        send(
            &svc,
            "org",
            "h",
            START,
            "/kfb new team1:@a @b @c team2:@d @e @f seed:1",
            None,
        )
        .await;
        for (u, p) in &common::DRAFT[..3] {
            let r = send(&svc, u, "h", START, p, None).await;
            assert_eq!(r.ok, Some(true), "{}", r.text);
        }
        let red_again = "/pick order:second color:red army:nutty";
        let h1 = send(&svc, "b", "h", START, red_again, Some("interaction-2")).await;
        assert_eq!(h1.ok, Some(false), "{}", h1.text);
        assert!(h1.notify.is_some(), "{h1:?}");
        for svc in [&svc, &other] {
            let h2 = send(svc, "b", "h", START, red_again, Some("interaction-2")).await;
            assert_eq!((h2.ok, h2.ephemeral), (Some(false), true), "{h2:?}");
            assert_eq!(h2.text, h1.text);
        }
        assert_eq!(check_stored(&store, &svc, "h", START).await, 4);
    });
}

#[test]
fn a_lock_expiry_is_announced_once_even_across_processes_and_late_after_downtime() {
    let url = common::fresh_db("timers");
    rt().block_on(async {
        let a = service(&url).await;
        new_game(&a, "t").await;
        let r = send(&a, "a", "t", START, "/move e2-e4", None).await;
        assert_eq!(r.ok, Some(true));
        let b = service(&url).await;
        // Nothing before the limit.
        assert!(a.due_messages(START, START + 359).await.is_empty());
        // The process was down when it fell due: it fires once, late, with a note.
        let first = b.due_messages(0, START + 3_600).await;
        assert_eq!(first.len(), 1, "{first:?}");
        let (thread, notify) = &first[0];
        assert_eq!(thread, "t");
        assert_eq!(notify.users(), vec!["a".to_string()], "it notifies a only");
        // The moment it fell due is a timestamp each front end writes in its reader's terms.
        let due = START + 360;
        assert_eq!(
            notify.text(),
            format!(
                "@a: your lock has expired; you may move on board 1 (late: this fell due at <t:{due}:f> while the bot was away)"
            )
        );
        assert!(
            a.due_messages(0, START + 3_600).await.is_empty(),
            "never twice"
        );
        let c = service(&url).await;
        assert!(
            c.due_messages(0, START + 7_200).await.is_empty(),
            "not after a restart either"
        );
    });
}

/// The console as a child process on a database.
struct Proc1 {
    child: Child,
    out: BufReader<std::process::ChildStdout>,
}

impl Proc1 {
    fn start(url: &str) -> Proc1 {
        let mut child = Proc::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["console", "--db", url, "--entropy", "5"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the console");
        let out = BufReader::new(child.stdout.take().unwrap());
        Proc1 { child, out }
    }
    fn write(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        let _ = writeln!(stdin, "{line}");
        let _ = stdin.flush();
    }
    /// Sends a line and waits until the console has finished it; returns its output.
    fn ack(&mut self, line: &str) -> Vec<String> {
        self.write(line);
        self.write("!time");
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            if self.out.read_line(&mut l).unwrap() == 0 {
                panic!("console ended early");
            }
            let l = l.trim_end().to_string();
            if l.starts_with("time ") {
                return lines;
            }
            lines.push(l);
        }
    }
    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The crash script: every command carries an interaction id, as Discord's would.
fn crash_script() -> Vec<String> {
    let mut lines = vec![
        "!as organiser org".to_string(),
        "!as moderator mod".to_string(),
    ];
    let mut cmds: Vec<(String, String)> = vec![(
        "org".into(),
        "/kfb new team1:@a @b @c team2:@d @e @f seed:1 move_limit:6m".into(),
    )];
    cmds.extend(
        common::DRAFT
            .iter()
            .map(|(u, c)| (u.to_string(), c.to_string())),
    );
    let moves = [
        ("a", "e2-e4"),
        ("d", "f7-f6"),
        ("a", "Qd1-h5"),
        ("d", "g7-g5"),
        ("c", "e2-e4"),
        ("f", "d7-d5"),
        ("c", "e4xd5"),
        ("f", "Qd8xd5"),
        ("e", "e2-e4"),
        ("b", "d7-d5"),
        ("e", "e4xd5"),
        ("b", "Cod8xd5"),
        ("e", "P@e6"),
        ("c", "P@h6"),
        ("a", "Qh5xe8"),
        ("b", "a7-a6"),
        ("e", "Chd1-e3"),
    ];
    for (u, m) in moves {
        cmds.push((u.into(), format!("/move {m}")));
    }
    cmds.push(("e".into(), "/takeback".into()));
    cmds.push(("e".into(), "/move Chd1-c3".into()));
    cmds.push(("a".into(), "/give piece:K to:@b".into()));
    for (i, (u, c)) in cmds.into_iter().enumerate() {
        lines.push(format!("@@cmd{i} {u} {c}"));
    }
    lines
}

fn run_with_crashes(url: &str, seed: u64) -> (Vec<String>, HashSet<String>) {
    let script = crash_script();
    let mut acknowledged = HashSet::new();
    let mut i = 0;
    let mut rng = seed;
    let mut restarts = 0;
    while i < script.len() {
        let mut p = Proc1::start(url);
        // Roles are per console process: set them again after every start.
        p.ack("!as organiser org");
        p.ack("!as moderator mod");
        rng = splitmix(rng);
        let run = 1 + (rng % 6) as usize;
        let mut crashed = false;
        for _ in 0..run {
            if i >= script.len() {
                break;
            }
            rng = splitmix(rng);
            if rng.is_multiple_of(4) {
                // Kill while the command may be half-way: it is sent again after the restart.
                p.write(&script[i]);
                std::thread::sleep(std::time::Duration::from_millis(rng % 15));
                crashed = true;
                break;
            }
            let out = p.ack(&script[i]);
            if out.first().is_some_and(|l| l.starts_with("ok:")) {
                acknowledged.insert(script[i].clone());
            }
            i += 1;
        }
        if crashed || i < script.len() {
            restarts += 1;
            p.kill();
        } else {
            let state = p.ack("!state");
            p.kill();
            assert!(
                restarts > 2,
                "the test crashed the console several times ({restarts})"
            );
            return (state, acknowledged);
        }
    }
    let mut p = Proc1::start(url);
    let state = p.ack("!state");
    p.kill();
    (state, acknowledged)
}

#[test]
fn killed_at_random_points_the_console_loses_nothing_and_applies_nothing_twice() {
    // Reference: the same script without crashes.
    let clean_url = common::fresh_db("crash_clean");
    let mut p = Proc1::start(&clean_url);
    let mut ok_lines = 0;
    for l in crash_script() {
        if p.ack(&l).first().is_some_and(|o| o.starts_with("ok:")) {
            ok_lines += 1;
        }
    }
    let clean_state = p.ack("!state");
    p.kill();
    let commands = crash_script()
        .iter()
        .filter(|l| l.starts_with("@@"))
        .count();
    assert_eq!(ok_lines, commands, "the script itself plays");
    for seed in 1..=8u64 {
        let url = common::fresh_db("crash");
        let (state, _acknowledged) = run_with_crashes(&url, seed);
        assert_eq!(
            state, clean_state,
            "seed {seed}: final state equals the run without crashes"
        );
        // Every accepted command is in the log exactly once.
        let rt = rt();
        rt.block_on(async {
            let store = Store::connect(Some(&url)).await.unwrap();
            let game = store.load("main").await.unwrap().unwrap().game;
            let clean = Store::connect(Some(&clean_url))
                .await
                .unwrap()
                .load("main")
                .await
                .unwrap()
                .unwrap()
                .game;
            let summary = |g: &arbiter::games::kfb::Game| -> Vec<(Option<u32>, String, bool)> {
                g.log
                    .iter()
                    .map(|e| (e.number, e.command.clone(), e.reverted.is_some()))
                    .collect()
            };
            let (game, clean) = (
                game.downcast::<arbiter::games::kfb::Game>()
                    .expect("a KFB game"),
                clean
                    .downcast::<arbiter::games::kfb::Game>()
                    .expect("a KFB game"),
            );
            assert_eq!(summary(game), summary(clean), "seed {seed}: the same log");
        });
    }
}

#[test]
fn a_game_moves_between_databases_through_export_and_import() {
    let from = common::fresh_db("export_from");
    let to = common::fresh_db("export_to");
    let mut p = Proc1::start(&from);
    for l in crash_script() {
        p.ack(&l);
    }
    let original = p.ack("!state");
    p.kill();
    let file = std::env::temp_dir().join(format!("{}.txt", common::unique("export")));
    let run = |args: &[&str]| {
        let out = Proc::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .output()
            .expect("run arbiter");
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    run(&[
        "export",
        "--game",
        "main",
        "--db",
        &from,
        "-o",
        file.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("[Board1 \"a red fide - d lightgreen clobberers\"]"),
        "{text}"
    );
    assert!(text.contains("{reverted by e: takeback}"), "{text}");
    let said = run(&[
        "import",
        file.to_str().unwrap(),
        "--thread",
        "main",
        "--db",
        &to,
    ]);
    assert!(said.contains("imported"), "{said}");
    // Importing twice into the same thread is refused, changing nothing.
    let again = Proc::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "import",
            file.to_str().unwrap(),
            "--thread",
            "main",
            "--db",
            &to,
        ])
        .output()
        .unwrap();
    assert!(!again.status.success());
    let mut q = Proc1::start(&to);
    // The console clock is not part of the game; move it to where the original stood.
    let state = q.ack("!state");
    q.kill();
    let strip = |v: &[String]| -> Vec<String> {
        v.iter()
            .filter(|l| !l.starts_with("lock "))
            .cloned()
            .collect()
    };
    assert_eq!(strip(&state), strip(&original));
    let _ = std::fs::remove_file(file);
}

/// Two processes take signups for one tournament at once: every signup is stored once, a
/// repeated interaction applies once, and a match game ending in one process reaches the
/// tournament the other process holds.
#[test]
fn tournament_signups_from_two_processes_and_a_result_from_a_game() {
    let url = common::fresh_db("tournament");
    rt().block_on(async {
        let a = Arc::new(service(&url).await);
        let b = Arc::new(service(&url).await);
        let r = send(&a, "org", "cup", START, "/tournament new name:Cup", None).await;
        assert_eq!(r.ok, Some(true), "{}", r.text);
        let mut tasks = Vec::new();
        for i in 0..18u32 {
            let svc = if i % 2 == 0 { a.clone() } else { b.clone() };
            tasks.push(tokio::spawn(async move {
                let user = format!("p{i:02}");
                let id = format!("signup-{i}");
                let first = send(&svc, &user, "cup", START + 1, "/signup", Some(&id)).await;
                // The same interaction delivered again (to either process) changes nothing.
                let again = send(&svc, &user, "cup", START + 2, "/signup", Some(&id)).await;
                assert_eq!(first.ok, Some(true), "{}", first.text);
                assert_eq!(again.ok, Some(true), "{}", again.text);
                assert_eq!(first.text, again.text);
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        let store = Store::connect(Some(&url)).await.unwrap();
        let (stored, _) = store.load_tournament("cup").await.unwrap().unwrap();
        let mut players: Vec<String> = stored.signups.iter().map(|s| s.player.clone()).collect();
        players.sort();
        let want: Vec<String> = (0..18).map(|i| format!("p{i:02}")).collect();
        assert_eq!(players, want, "every signup stored once");
        let r = send(
            &b,
            "org",
            "cup",
            START + 3,
            "/tournament teams seed:4",
            None,
        )
        .await;
        assert_eq!(r.ok, Some(true), "{}", r.text);
        let r = send(&a, "org", "cup", START + 4, "/tournament pair", None).await;
        assert_eq!(r.ok, Some(true), "{}", r.text);
        assert_eq!(r.opens.len(), 3, "six teams, three matches");
        for m in &r.opens {
            let thread = format!("cup/{}", m.board);
            let opened = a
                .open_match(&m.tournament, m.round, m.board, &thread, START + 5)
                .await;
            assert_eq!(opened.ok, Some(true), "{}", opened.text);
            // Opening twice is harmless.
            let again = b
                .open_match(&m.tournament, m.round, m.board, &thread, START + 5)
                .await;
            assert_eq!(again.ok, Some(true), "{}", again.text);
        }
        // Process b ends match 1 by a resignation after the draft; a still knows nothing of it.
        let users = b
            .with_game_as::<Game, _>("cup/1", |g| g.users.clone())
            .await
            .expect("match game");
        let first = b
            .with_game_as::<Game, _>("cup/1", |g| {
                arbiter::games::kfb::Game::first_picker(&g.settings)
            })
            .await
            .unwrap();
        // A valid draft: team 1 takes a's, b's, c's choices of the victory script, team 2 d's,
        // e's, f's; the first picker starts, and within a team who takes which choice does
        // not matter, so the first picker's team is rotated to put them first.
        let t1 = [
            "/pick order:first color:red army:fide",
            "/pick order:second color:lightgreen army:nutty",
            "/pick order:first color:blue army:forward",
        ];
        let t2 = [
            "/pick order:second color:lightgreen army:clobberers",
            "/pick order:first color:blue army:rookies",
            "/pick order:second color:red army:fide",
        ];
        let seat = |team: usize, k: usize| {
            if team == first / 3 {
                team * 3 + (first % 3 + k) % 3
            } else {
                team * 3 + k
            }
        };
        let order: Vec<(usize, &str)> = if first < 3 {
            (0..3)
                .flat_map(|k| [(seat(0, k), t1[k]), (seat(1, k), t2[k])])
                .collect()
        } else {
            (0..3)
                .flat_map(|k| [(seat(1, k), t2[k]), (seat(0, k), t1[k])])
                .collect()
        };
        for (seat, pick) in order {
            let r = send(&b, &users[seat], "cup/1", START + 6, pick, None).await;
            assert_eq!(r.ok, Some(true), "{}", r.text);
        }
        let r = send(&b, &users[4], "cup/1", START + 7, "/resign", None).await;
        assert_eq!(r.ok, Some(true), "{}", r.text);
        assert_eq!(
            r.notices.len(),
            1,
            "the result goes to the tournament thread"
        );
        assert!(
            r.notices[0].1.contains("round 1 board 1:"),
            "{:?}",
            r.notices
        );
        let seen = a
            .with_tournament("cup", |t| t.result(1, 1).map(|r| r.result))
            .await
            .flatten();
        assert_eq!(seen, Some(arbiter::tournament::MatchResult::WhiteWins));
        // Reloaded from scratch, the tournament is the same.
        let fresh = service(&url).await;
        let x = a.with_tournament("cup", Clone::clone).await.unwrap();
        let y = fresh.with_tournament("cup", Clone::clone).await.unwrap();
        assert_eq!(x, y);
    });
}

// ---------------------------------------------------------------------------------------------
// Naming a SQLite database (issue 11): every URL form and a plain path create a missing file,
// through the one `Store::connect` that the bot, the console and the CLI share.

/// A new, empty directory for database files.
fn db_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir()
        .join("arbiter-tests")
        .join(common::unique(name));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// How many migrations the SQLite file at `path` has applied (opened without `Store`).
fn migrations_in(path: &std::path::Path) -> i64 {
    use sqlx::Connection;
    rt().block_on(async {
        let options = sqlx::sqlite::SqliteConnectOptions::new().filename(path);
        let mut conn = sqlx::SqliteConnection::connect_with(&options)
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations WHERE success")
            .fetch_one(&mut conn)
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        n
    })
}

/// The number of migrations in the repository.
fn migrations_wanted() -> i64 {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/migrations");
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "sql"))
        })
        .count() as i64
}

#[test]
fn a_sqlite_file_named_by_url_or_path_is_created_and_migrated() {
    let dir = db_dir("urls");
    let at = |name: &str| dir.join(name);
    // (what the user types, the file it names)
    let forms = [
        (
            format!("sqlite://{}", at("slashes.db").display()),
            at("slashes.db"),
        ),
        (
            format!("sqlite:{}", at("colon.db").display()),
            at("colon.db"),
        ),
        (
            format!("sqlite://{}?cache=private", at("params.db").display()),
            at("params.db"),
        ),
        (
            format!("sqlite://{}", at("pct%20name.db").display()),
            at("pct name.db"),
        ),
        (at("plain.db").display().to_string(), at("plain.db")),
        (
            at("plain with space #1.db").display().to_string(),
            at("plain with space #1.db"),
        ),
    ];
    let wanted = migrations_wanted();
    assert!(wanted >= 4, "{wanted} migrations");
    let rt = rt();
    for (url, file) in &forms {
        assert!(!file.exists());
        let store = rt
            .block_on(Store::connect(Some(url)))
            .unwrap_or_else(|e| panic!("{url}: {e}"));
        assert!(file.is_file(), "{url}: {} was not created", file.display());
        assert_eq!(migrations_in(file), wanted, "{url}");
        // Usable: a game goes in and comes out.
        rt.block_on(async {
            let svc = Service::with_store(store).await.unwrap();
            new_game(&svc, "t").await;
            assert_eq!(svc.store().unwrap().threads().await.unwrap(), vec!["t"]);
        });
        // Opened again, the same database.
        let again = rt.block_on(Store::connect(Some(url))).unwrap();
        assert_eq!(rt.block_on(again.threads()).unwrap(), vec!["t"], "{url}");
    }
    // A mode the user chose is kept: read-only does not create the file.
    let ro = at("read-only.db");
    let url = format!("sqlite://{}?mode=ro", ro.display());
    assert!(rt.block_on(Store::connect(Some(&url))).is_err());
    assert!(!ro.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the built binary in `dir` with `DATABASE_URL` set to `env` (or unset).
fn arbiter_in(dir: &std::path::Path, args: &[&str], env: Option<&str>) -> std::process::Output {
    let mut cmd = Proc::new(env!("CARGO_BIN_EXE_arbiter"));
    cmd.args(args).current_dir(dir).stdin(Stdio::null());
    match env {
        Some(url) => cmd.env("DATABASE_URL", url),
        None => cmd.env_remove("DATABASE_URL"),
    };
    cmd.output().expect("run arbiter")
}

#[test]
fn the_cli_creates_a_relative_sqlite_file_in_its_working_directory() {
    let dir = db_dir("relative");
    let wanted = migrations_wanted();
    let runs: [(&[&str], Option<&str>, &str); 4] = [
        (
            &[
                "store-bench",
                "--db",
                "sqlite://bench.db",
                "--games",
                "1",
                "--actions",
                "1",
            ],
            None,
            "bench.db",
        ),
        (
            &["console", "--db", "sqlite:console.db"],
            None,
            "console.db",
        ),
        (&["console", "--db", "plain.db"], None, "plain.db"),
        (&["console"], Some("sqlite://env.db"), "env.db"),
    ];
    for (args, env, file) in runs {
        let out = arbiter_in(&dir, args, env);
        assert!(
            out.status.success(),
            "{args:?} {env:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let path = dir.join(file);
        assert!(path.is_file(), "{args:?} {env:?}: no {}", path.display());
        assert_eq!(migrations_in(&path), wanted, "{args:?} {env:?}");
        if args[0] == "store-bench" {
            // The benchmark's own draft went through (seed 1: f picks first) and its move
            // was committed.
            let said = String::from_utf8_lossy(&out.stdout);
            assert!(said.starts_with("1 actions committed"), "{said}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A directory this process cannot create files in: a read-only one, or (for root, who may
/// write anywhere on an ordinary file system) `/sys`.
#[cfg(unix)]
fn unwritable_dir(base: &std::path::Path) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let writable = |d: &std::path::Path| {
        let probe = d.join("probe");
        let ok = std::fs::write(&probe, b"").is_ok();
        let _ = std::fs::remove_file(&probe);
        ok
    };
    let ro = base.join("read-only");
    std::fs::create_dir_all(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    if !writable(&ro) {
        return Some(ro);
    }
    let sys = std::path::PathBuf::from("/sys");
    (sys.is_dir() && !writable(&sys)).then_some(sys)
}

#[cfg(unix)]
#[test]
fn a_sqlite_file_that_cannot_be_created_is_a_clear_error_and_exit_status_1() {
    let dir = db_dir("uncreatable");
    let missing_dir = dir.join("no-such-dir");
    let a_file = dir.join("a-file");
    std::fs::write(&a_file, b"not a directory").unwrap();
    let unwritable = unwritable_dir(&dir).expect("a directory this test cannot write");
    let rt = rt();
    // (database, what the message says)
    let cases = [
        (
            missing_dir.join("games.db"),
            format!("the directory {} does not exist", missing_dir.display()),
        ),
        (
            a_file.join("games.db"),
            format!("{} is not a directory", a_file.display()),
        ),
        (
            unwritable.join("arbiter-games.db"),
            format!("the directory {} cannot be written (", unwritable.display()),
        ),
    ];
    for (db, reason) in &cases {
        let message = format!(
            "cannot create the SQLite database {}: {reason}",
            db.display()
        );
        for url in [
            format!("sqlite://{}", db.display()),
            db.display().to_string(),
        ] {
            let err = rt
                .block_on(Store::connect(Some(&url)))
                .expect_err(&url)
                .to_string();
            assert!(err.starts_with(&message), "{url}: {err}");
            assert!(!db.exists(), "{url}");
        }
        // The CLI (and the console, and the bot, which share `Store::connect`) says so on
        // standard error and exits with status 1.
        let url = format!("sqlite://{}", db.display());
        let runs: [(&[&str], Option<&str>); 3] = [
            (&["store-bench", "--db", &url], None),
            (&["console", "--db", &url], None),
            (&["console"], Some(&url)),
        ];
        for (args, env) in runs {
            let out = arbiter_in(&dir, args, env);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?} {env:?}: {stderr}");
            assert!(
                stderr.contains(&format!("error: {message}")),
                "{args:?} {env:?}: {stderr}"
            );
            assert!(!db.exists());
        }
    }
    if unwritable.starts_with(&dir) {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&unwritable, std::fs::Permissions::from_mode(0o755));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
