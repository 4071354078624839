//! End to end: the real `arbiter bot` binary against an in-process fake Discord (REST and
//! gateway on loopback), driven as six players, an organiser and a moderator.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod anywhere;
mod bench;
mod chex;
mod draft;
mod fake;
mod nomic;
mod notify;
mod offered;
mod party;
mod premove;
mod substitute;
mod tournament;
mod ultimate;
mod vacation;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fake::{
    Answer, Fake, User, APP, GUILD, MANAGE_GUILD, MANAGE_MESSAGES, MANAGE_THREADS, MEMBER, TOKEN,
};
use serde_json::{json, Value};

const CHANNEL: u64 = 300_000_000_000_000_001;

/// The ids of users, as the fake Discord reports whom a message notifies.
fn ids(users: &[&User]) -> Vec<String> {
    users.iter().map(|u| u.id.to_string()).collect()
}

/// `v` in order.
fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// The wall clock, in Unix seconds (the bot runs on it).
fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The moments `<t:N:style>` written in a text, in order.
fn timestamps(text: &str, style: char) -> Vec<u64> {
    let marker = format!(":{style}>");
    text.split("<t:")
        .skip(1)
        .filter_map(|rest| {
            let end = rest.find(&marker)?;
            rest[..end].parse().ok()
        })
        .collect()
}

fn player(n: u64, name: &'static str) -> User {
    User {
        id: 100_000_000_000_000_000 + n,
        name,
        permissions: MEMBER,
        roles: &[],
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The bot process; killed when dropped (its directory is kept if the test failed).
struct Bot {
    child: Child,
    dir: PathBuf,
    log: PathBuf,
}

impl Bot {
    fn spawn(fake: &Fake) -> Bot {
        let dir = scratch("bot");
        let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
        Bot::start(fake, dir, Some(db))
    }

    /// Runs `arbiter bot` in `dir` against the fake; without `db`, no DATABASE_URL is set.
    fn start(fake: &Fake, dir: PathBuf, db: Option<String>) -> Bot {
        let log = dir.join("bot.log");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
        cmd.arg("bot").current_dir(&dir);
        match db {
            Some(db) => cmd.env("DATABASE_URL", db),
            None => cmd.env_remove("DATABASE_URL"),
        };
        let child = cmd
            .env_remove("SHARDS")
            .env("DISCORD_TOKEN", TOKEN)
            .env("DISCORD_API_BASE", fake.base())
            .env("GUILD_ID", GUILD.to_string())
            .env("RUST_LOG", "info,arbiter=debug")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        Bot { child, dir, log }
    }

    /// Kills the process (keeping its directory and database) and starts a new one there.
    fn restart(mut self, fake: &Fake) -> Bot {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        let dir = self.dir.clone();
        let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
        std::mem::forget(self);
        Bot::start(fake, dir, Some(db))
    }

    /// The process id (for the benchmark's processor times).
    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

fn text(name: &str, value: &str) -> Value {
    json!({"name": name, "type": 3, "value": value})
}

/// `/move notation:<notation>` by `user` in `thread`: the interaction's token.
fn move_as(fake: &Fake, user: &User, thread: u64, notation: &str) -> String {
    fake.slash(
        user,
        thread,
        "move",
        json!([text("notation", notation)]),
        &[],
    )
}

fn int(name: &str, value: u64) -> Value {
    json!({"name": name, "type": 4, "value": value})
}

/// A draft pick by choice indices (order: first 0, second 1; color: red 0, lightgreen 1,
/// blue 2; army: fide 0, clobberers 1, nutty 2, rookies 3, forward 4).
fn pick(order: u64, color: u64, army: u64) -> Value {
    json!([int("order", order), int("color", color), int("army", army)])
}

fn message(a: &Answer) -> &fake::Msg {
    a.message.as_ref().expect("an answer with a message")
}

/// An accepted action: answered publicly, with its text.
fn accepted(a: &Answer, what: &str) -> String {
    let m = message(a);
    assert!(!m.ephemeral, "{what}: expected a public answer, got {m:?}");
    assert!(
        !m.content.starts_with("refused"),
        "{what}: refused: {}",
        m.content
    );
    m.content.clone()
}

/// A refusal: the first response, ephemeral, before any deferral.
fn refused(a: &Answer, what: &str) -> String {
    let m = message(a);
    assert_eq!(
        a.first, 4,
        "{what}: a refusal must be the first response, not deferred"
    );
    assert!(
        m.ephemeral,
        "{what}: a refusal must be ephemeral, got {m:?}"
    );
    m.content.clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_through_discord() {
    let started = Instant::now();
    let fake = Fake::start().await;
    let bot = Bot::spawn(&fake);
    let (a, b, c) = (player(1, "a"), player(2, "b"), player(3, "c"));
    let (d, e, f) = (player(4, "d"), player(5, "e"), player(6, "f"));
    let org = User {
        id: 100_000_000_000_000_010,
        name: "org",
        permissions: MEMBER | MANAGE_THREADS,
        roles: &[],
    };
    let modr = User {
        id: 100_000_000_000_000_011,
        name: "mod",
        permissions: MEMBER | MANAGE_MESSAGES,
        roles: &[],
    };
    let mention = |u: &User| format!("<@{}>", u.id);

    // Start-up: IDENTIFY with non-privileged intents, then the commands in the guild.
    let identify = fake
        .wait("IDENTIFY", 30, |i| i.identifies.first().cloned())
        .await;
    let intents = identify["intents"].as_u64().unwrap();
    assert_eq!(intents & 1, 1, "GUILDS");
    assert_ne!(intents & (1 << 9), 0, "GUILD_MESSAGES");
    for privileged in [1 << 1, 1 << 8, 1 << 15] {
        assert_eq!(
            intents & privileged,
            0,
            "privileged intent {privileged} requested"
        );
    }
    let commands = fake
        .wait("command registration", 30, |i| {
            (!i.commands.is_empty()).then(|| i.commands.clone())
        })
        .await;
    let names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    for want in [
        "kfb", "pick", "move", "give", "takeback", "claim", "status", "moves", "export", "resign",
        "proxy", "revert", "help", "settings",
    ] {
        assert!(names.contains(&want), "/{want} not registered: {names:?}");
    }
    let by_name = |n: &str| commands.iter().find(|c| c["name"] == n).unwrap().clone();
    assert_eq!(by_name("kfb")["options"][0]["name"], "new");
    assert_eq!(by_name("kfb")["options"][0]["type"], 1);
    assert_eq!(by_name("move")["options"][0]["autocomplete"], true);
    let army_choices = by_name("pick")["options"][2]["choices"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(army_choices, 5);
    let requests_at_start = fake.lock().requests.clone();
    assert!(
        requests_at_start
            .iter()
            .any(|r| r == &format!("PUT /api/v10/applications/{APP}/guilds/{GUILD}/commands")),
        "{requests_at_start:?}"
    );

    // Only organisers start games.
    let teams = json!([
        text(
            "team1",
            &format!("{} {} {}", mention(&a), mention(&b), mention(&c))
        ),
        text(
            "team2",
            &format!("{} {} {}", mention(&d), mention(&e), mention(&f))
        ),
        int("seed", 1),
        text("move_limit", "2s"),
    ]);
    let t = fake.slash(&a, CHANNEL, "kfb new", teams.clone(), &[]);
    let r = refused(&fake.answer(&t).await, "kfb new by a player");
    assert!(r.contains("organiser"), "{r}");

    // The organiser's game gets a public thread with the game, one message notifying its six
    // players (team 2 picks first), and a pinned status.
    let t = fake.slash(&org, CHANNEL, "kfb new", teams.clone(), &[]);
    let created = accepted(&fake.answer(&t).await, "kfb new");
    let thread = {
        let inner = fake.lock();
        assert_eq!(inner.threads.len(), 1);
        assert_eq!(inner.threads[0].1, CHANNEL);
        inner.threads[0].0
    };
    assert!(created.contains(&format!("<#{thread}>")), "{created}");
    {
        let inner = fake.lock();
        let posts = inner.public(thread);
        assert_eq!(posts.len(), 3, "{posts:#?}");
        assert!(posts[0].content.contains("seed 1"), "{}", posts[0].content);
        assert!(posts[0].notified.is_empty(), "{:?}", posts[0]);
        // Seed 1 names f as the first picker (RULINGS §1.8).
        assert!(
            posts[1]
                .content
                .contains(&format!("{} (team 2) makes the first pick", mention(&f))),
            "{}",
            posts[1].content
        );
        let six: Vec<String> = [&a, &b, &c, &d, &e, &f]
            .iter()
            .map(|u| u.id.to_string())
            .collect();
        assert_eq!(
            posts[1].notified, six,
            "one message notifies the six players"
        );
        assert!(posts[2].pinned && posts[2].content.contains("Game status"));
        assert!(posts[2].notified.is_empty(), "{:?}", posts[2]);
    }

    // A game thread holds one game: /kfb new is for text channels.
    let t = fake.slash(&org, thread, "kfb new", teams.clone(), &[]);
    let r = refused(&fake.answer(&t).await, "kfb new in a thread");
    assert!(r.contains("text channel"), "{r}");

    // The draft (tests/scripts/routing.txt): f, named by the seed, makes the first pick.
    let t = fake.slash(&a, thread, "pick", pick(0, 0, 0), &[]);
    let r = refused(&fake.answer(&t).await, "out-of-turn pick");
    assert!(
        r.contains(&format!("{} makes the first pick", mention(&f))),
        "{r}"
    );
    let mark = fake.mark();
    let t = fake.slash(&f, thread, "pick", pick(1, 0, 0), &[]);
    let answer = fake.answer(&t).await;
    let r = accepted(&answer, "f's pick");
    assert!(r.contains("#1") && r.contains("team 1 to pick"), "{r}");
    let team1: Vec<String> = [&a, &b, &c].iter().map(|u| u.id.to_string()).collect();
    assert!(message(&answer).notified.is_empty(), "{answer:?}");
    assert_eq!(
        fake.notified_since(thread, mark).await,
        team1,
        "the draft's next turn notifies team 1"
    );
    for (user, choice) in [
        (&a, pick(0, 0, 0)),
        (&e, pick(0, 2, 3)),
        (&b, pick(1, 1, 2)),
        (&d, pick(1, 1, 1)),
    ] {
        let t = fake.slash(user, thread, "pick", choice, &[]);
        accepted(&fake.answer(&t).await, "pick");
    }
    let t = fake.slash(&c, thread, "pick", pick(0, 2, 4), &[]);
    let r = accepted(&fake.answer(&t).await, "c's pick");
    assert!(r.contains("#6") && r.contains("the game starts"), "{r}");

    // Autocomplete offers the player's legal moves matching what was typed.
    let t = fake.autocomplete(
        &a,
        thread,
        "move",
        json!([{"name": "notation", "type": 3, "value": "e2", "focused": true}]),
    );
    let choices = fake.answer(&t).await.choices;
    assert!(choices.contains(&"e2-e4".to_string()), "{choices:?}");
    assert!(
        choices.len() <= 25 && choices.iter().all(|m| m.contains("e2")),
        "{choices:?}"
    );

    // Moves: deferred, then answered publicly in the thread.
    let play = |user: &User, notation: &str| {
        fake.slash(
            user,
            thread,
            "move",
            json!([text("notation", notation)]),
            &[],
        )
    };
    let t = play(&a, "e2-e4");
    let answer = fake.answer(&t).await;
    assert_eq!(
        answer.first, 5,
        "an accepted move is deferred (room for the picture)"
    );
    let files = &message(&answer).files;
    assert_eq!(files, &vec!["board.png".to_string()], "the board picture");
    let r = accepted(&answer, "a e2-e4");
    assert!(r.contains("#7") && r.contains("e2-e4"), "{r}");
    let t = play(&d, "d7-d5");
    accepted(&fake.answer(&t).await, "d d7-d5");

    // An illegal move is refused, to its sender only.
    let t = play(&e, "Ra1-a2");
    let r = refused(&fake.answer(&t).await, "illegal move");
    assert!(r.contains("not legal"), "{r}");

    // a captures a lightgreen pawn: it goes to b, who drops it on board 3.
    let t = play(&a, "e4xd5");
    let r = accepted(&fake.answer(&t).await, "a e4xd5");
    assert!(r.contains("#9"), "{r}");
    let t = play(&e, "e2-e4");
    accepted(&fake.answer(&t).await, "e e2-e4");
    let t = play(&b, "P@e6");
    let r = accepted(&fake.answer(&t).await, "b P@e6");
    assert!(r.contains("#11") && r.contains("P@e6"), "{r}");

    // The gateway drops; the bot RESUMEs the session and goes on.
    fake.drop_gateway(4000);
    fake.wait("RESUME", 15, |i| (!i.resumes.is_empty()).then_some(()))
        .await;
    let t = play(&d, "e7-e6");
    let r = accepted(&fake.answer(&t).await, "d e7-e6 after the resume");
    assert!(r.contains("#12"), "{r}");
    assert_eq!(
        fake.lock().identifies.len(),
        1,
        "resumed, not identified again"
    );

    // Chat posts are counted (no message content needed); /status is private.
    fake.chat(&c, thread);
    let t = fake.slash(&c, thread, "status", json!([]), &[]);
    let answer = fake.answer(&t).await;
    assert!(message(&answer).ephemeral && message(&answer).content.contains("inactivity"));

    // /export is private too, and holds the log.
    let t = fake.slash(&a, thread, "export", json!([]), &[]);
    let answer = fake.answer(&t).await;
    let export = message(&answer);
    assert!(
        export.ephemeral && export.content.contains("[Event"),
        "{export:?}"
    );
    let whole = export.content.contains("P@e6") || export.files == ["reply.txt"];
    assert!(
        whole,
        "the whole export is in the message or attached: {export:?}"
    );

    // Revert: refused to a player; a moderator confirms with the button.
    let revert = json!([int("to", 11), text("reason", "disputed")]);
    let t = fake.slash(&b, thread, "revert", revert.clone(), &[]);
    let r = refused(&fake.answer(&t).await, "revert by a player");
    assert!(r.contains("only a moderator"), "{r}");
    let t = fake.slash(&modr, thread, "revert", revert, &[]);
    let preview = fake.answer(&t).await;
    let preview = message(&preview).clone();
    assert!(preview.ephemeral, "the preview goes to the moderator only");
    assert!(preview.content.contains("P@e6"), "{}", preview.content);
    assert_eq!(preview.buttons, vec!["revert-confirm-1".to_string()]);
    let t = fake.press(&b, &preview, "revert-confirm-1");
    let r = refused(&fake.answer(&t).await, "a player pressing the confirmation");
    assert!(r.contains("only the moderator"), "{r}");
    let t = fake.press(&modr, &preview, "revert-confirm-1");
    let r = accepted(&fake.answer(&t).await, "confirmed revert");
    assert!(r.contains("#13") && r.contains("reverted"), "{r}");
    let t = play(&b, "P@e6");
    accepted(&fake.answer(&t).await, "the drop again after the revert");

    // The pinned status follows the game; lock expiries are posted by the ticker.
    let status = fake
        .wait("the status edits", 5, |i| {
            i.public(thread)
                .into_iter()
                .find(|m| m.pinned && m.edits >= 5)
                .cloned()
        })
        .await;
    assert!(status.content.contains("kings"), "{}", status.content);
    let expiry = fake
        .wait("a lock-expiry message", 10, |i| {
            i.public(thread)
                .into_iter()
                .find(|m| m.content.contains("your lock has expired"))
                .cloned()
        })
        .await;
    assert_eq!(expiry.notified.len(), 1, "{expiry:?}");
    assert!(
        expiry
            .content
            .starts_with(&format!("<@{}>: ", expiry.notified[0])),
        "{}",
        expiry.content
    );

    // /settings: server admins choose a moderator role; its members may revert.
    const REFEREES: u64 = 200_000_000_000_000_001;
    let admin = User {
        id: 100_000_000_000_000_012,
        name: "admin",
        permissions: MEMBER | MANAGE_GUILD,
        roles: &[],
    };
    let referee = User {
        id: 100_000_000_000_000_013,
        name: "referee",
        permissions: MEMBER,
        roles: &[REFEREES],
    };
    let revert = json!([int("to", 14), text("reason", "check")]);
    let t = fake.slash(&referee, thread, "revert", revert.clone(), &[]);
    refused(
        &fake.answer(&t).await,
        "revert before the role is configured",
    );
    let role = json!([{"name": "moderator_role", "type": 8, "value": REFEREES.to_string()}]);
    let t = fake.slash_roles(
        &a,
        CHANNEL,
        "settings",
        role.clone(),
        &[(REFEREES, "referees")],
    );
    let r = refused(&fake.answer(&t).await, "settings by a player");
    assert!(r.contains("server admins"), "{r}");
    let t = fake.slash_roles(&admin, CHANNEL, "settings", role, &[(REFEREES, "referees")]);
    let answer = fake.answer(&t).await;
    let r = message(&answer);
    assert!(
        r.ephemeral && r.content.contains(&format!("<@&{REFEREES}>")),
        "{r:?}"
    );
    let t = fake.slash(&referee, thread, "revert", revert, &[]);
    let preview = fake.answer(&t).await;
    assert_eq!(message(&preview).buttons.len(), 1, "{preview:?}");

    let pictures = check_pictures(&fake);
    assert!(pictures >= 7, "only {pictures} board pictures");
    let inner = fake.lock();
    assert!(
        inner.errors.is_empty(),
        "fake Discord saw: {:#?}",
        inner.errors
    );
    let log = bot.log();
    assert!(!log.contains(TOKEN), "the token appears in the log");
    assert!(
        log.contains("command"),
        "no structured command logs:\n{log}"
    );
    eprintln!("e2e took {:?}", started.elapsed());
}

/// Decodes every PNG the bot uploaded: a plausible board picture, under Discord's 8 MB.
fn check_pictures(fake: &Fake) -> usize {
    let uploads = fake.lock().uploads.clone();
    let mut n = 0;
    for (name, bytes) in uploads.iter().filter(|(n, _)| n.ends_with(".png")) {
        assert!(
            bytes.len() < 8 * 1024 * 1024,
            "{name}: {} bytes",
            bytes.len()
        );
        let img = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
            .unwrap_or_else(|e| panic!("{name} does not decode: {e}"));
        // Three equal boards side by side, or a move's board large above the other two
        // (issue 55: readable on a phone).
        assert!(
            (img.width() >= 1200 && img.height() >= 700)
                || (img.width() >= 600 && img.height() >= 1200),
            "{name}: {}x{}",
            img.width(),
            img.height()
        );
        n += 1;
    }
    n
}

/// The six players of tests/scripts/routing.txt and its organiser.
fn seats() -> ([User; 6], User) {
    seats_from(0)
}

/// Six players numbered from `n + 1`, and the organiser.
fn seats_from(n: u64) -> ([User; 6], User) {
    let players = [
        player(n + 1, "a"),
        player(n + 2, "b"),
        player(n + 3, "c"),
        player(n + 4, "d"),
        player(n + 5, "e"),
        player(n + 6, "f"),
    ];
    let org = User {
        id: 100_000_000_000_000_010,
        name: "org",
        permissions: MEMBER | MANAGE_THREADS,
        roles: &[],
    };
    (players, org)
}

/// Waits for the bot to connect and register its commands (the `n`th IDENTIFY).
async fn connected(fake: &Fake, n: usize) {
    fake.wait("IDENTIFY", 30, |i| (i.identifies.len() >= n).then_some(()))
        .await;
    fake.wait("command registration", 30, |i| {
        (!i.commands.is_empty()).then_some(())
    })
    .await;
}

/// `/kfb new` (seed 1, move limit 6m) and the draft of routing.txt; returns the thread.
async fn drafted(fake: &Fake, p: &[User; 6], org: &User) -> u64 {
    drafted_with(fake, p, org, "6m").await
}

/// `/kfb new` (seed 1, this move limit) and the draft of routing.txt; returns the thread.
async fn drafted_with(fake: &Fake, p: &[User; 6], org: &User, move_limit: &str) -> u64 {
    let [a, b, c, d, e, f] = p;
    let mention = |u: &User| format!("<@{}>", u.id);
    let teams = json!([
        text(
            "team1",
            &format!("{} {} {}", mention(a), mention(b), mention(c))
        ),
        text(
            "team2",
            &format!("{} {} {}", mention(d), mention(e), mention(f))
        ),
        int("seed", 1),
        text("move_limit", move_limit),
    ]);
    let known = fake.lock().threads.len();
    let t = fake.slash(org, CHANNEL, "kfb new", teams, &[]);
    accepted(&fake.answer(&t).await, "kfb new");
    let thread = fake.lock().threads[known].0;
    for (n, (user, choice)) in [
        (f, pick(1, 0, 0)),
        (a, pick(0, 0, 0)),
        (e, pick(0, 2, 3)),
        (b, pick(1, 1, 2)),
        (d, pick(1, 1, 1)),
        (c, pick(0, 2, 4)),
    ]
    .into_iter()
    .enumerate()
    {
        let t = fake.slash(user, thread, "pick", choice, &[]);
        let answer = fake.answer(&t).await;
        accepted(&answer, "pick");
        // The pick that completes the draft shows the boards about to be played.
        let files: &[&str] = if n == 5 { &["board.png"] } else { &[] };
        assert_eq!(message(&answer).files, files, "pick {n}: {answer:?}");
    }
    thread
}

/// A promotion, a king captured and given to a teammate, then a restart of the bot process
/// on the same database: nothing is lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn promotion_king_give_and_restart() {
    let fake = Fake::start().await;
    let dir = scratch("bot-kings");
    let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
    let bot = Bot::start(&fake, dir, Some(db));
    connected(&fake, 1).await;
    let (p, org) = seats();
    let thread = drafted(&fake, &p, &org).await;
    let [a, b, c, d, _e, f] = &p;
    let play = |user: &User, notation: &str| {
        fake.slash(
            user,
            thread,
            "move",
            json!([text("notation", notation)]),
            &[],
        )
    };
    let mut moves = vec![
        (c, "e2-e4"),
        (f, "d7-d5"),
        // c takes a red pawn: it goes to a, who drops it on d's 7th rank and promotes.
        (c, "e4xd5"),
        (a, "e2-e4"),
        (d, "f7-f6"),
        (a, "P@f7"),
        (d, "g7-g5"),
    ];
    for (user, m) in moves.drain(..) {
        let t = play(user, m);
        let r = accepted(&fake.answer(&t).await, m);
        assert!(r.contains(m), "{r}");
    }
    let t = play(a, "f7xg8=Q");
    let r = accepted(&fake.answer(&t).await, "promotion");
    assert!(r.contains("#14") && r.contains("f7xg8=Q"), "{r}");
    // The king capture of tests/scripts/kings.txt.
    for (user, m) in [(d, "h7-h6"), (a, "Qd1-h5"), (d, "a7-a6")] {
        let t = play(user, m);
        accepted(&fake.answer(&t).await, m);
    }
    let t = play(a, "Qh5xe8");
    let r = accepted(&fake.answer(&t).await, "king capture");
    assert!(
        r.contains("Qh5xe8") && r.contains(&format!("<@{}> holds lightgreen", a.id)),
        "{r}"
    );
    let give = json!([
        text("piece", "K"),
        json!({"name": "to", "type": 6, "value": b.id.to_string()})
    ]);
    let mark = fake.mark();
    let t = fake.slash(a, thread, "give", give, &[b]);
    let answer = fake.answer(&t).await;
    let r = accepted(&answer, "give");
    assert!(
        r.contains("#19") && r.contains(&format!("<@{}>", b.id)),
        "{r}"
    );
    // b has a king on the board: nobody must act on the gift.
    assert_eq!(
        fake.notified_since(thread, mark).await,
        Vec::<String>::new()
    );

    // Restart: kill the process, start another on the same database.
    let bot = bot.restart(&fake);
    connected(&fake, 2).await;
    let t = play(a, "Qg8xf8");
    let r = refused(&fake.answer(&t).await, "a after the restart");
    // The board is frozen (d's King is gone): said before any lock (issue 55).
    assert!(r.contains("frozen"), "{r}");
    let t = fake.slash(c, thread, "status", json!([]), &[]);
    let answer = fake.answer(&t).await;
    let status = &message(&answer).content;
    assert!(
        status.contains(&format!("<@{}> holds lightgreen", b.id)) && status.contains("locked"),
        "{status}"
    );
    // Move numbers go on from the stored log: f retakes on board 2.
    let t = play(f, "Qd8xd5");
    let r = accepted(&fake.answer(&t).await, "f after the restart");
    assert!(r.contains("#20") && r.contains("Qd8xd5"), "{r}");
    let t = fake.slash(a, thread, "export", json!([]), &[]);
    let answer = fake.answer(&t).await;
    let export = message(&answer);
    assert!(
        export.files == ["reply.txt"] || export.content.contains("Qh5xe8"),
        "{export:?}"
    );

    // The replay of the game (the longest KFB game of these tests), from the stored log:
    // deferred, then a GIF under Discord's upload limit with the start and every move.
    let t = fake.slash(a, thread, "replay", json!([int("speed", 2)]), &[]);
    let answer = fake.answer_within(&t, 60).await;
    let r = accepted(&answer, "replay");
    assert!(r.contains("replay of actions #7–#20"), "{r}");
    assert_eq!(message(&answer).files, ["replay-7-20.gif"], "{answer:?}");
    let gif = fake
        .lock()
        .uploads
        .iter()
        .rev()
        .find(|(n, _)| n.ends_with(".gif"))
        .map(|(_, b)| b.clone())
        .expect("the GIF uploaded");
    assert!(gif.len() < 10 * 1024 * 1024, "{} bytes", gif.len());
    let mut decoder = gif::DecodeOptions::new().read_info(&gif[..]).unwrap();
    let mut frames = 0;
    // A frame shown for an instant (two hundredths: the caption band's own rectangle) is
    // part of the picture after it.
    while let Some(f) = decoder.read_next_frame().unwrap() {
        if f.delay != 2 {
            frames += 1;
        }
    }
    assert_eq!(frames, 15, "the start, 13 moves and the king given");
    // Bad options are refused privately, before any deferral.
    let t = fake.slash(a, thread, "replay", json!([int("from", 30)]), &[]);
    let r = refused(&fake.answer(&t).await, "replay from:30");
    assert!(r.contains("no action #30"), "{r}");

    assert!(check_pictures(&fake) >= 11);
    let inner = fake.lock();
    assert!(
        inner.errors.is_empty(),
        "fake Discord saw: {:#?}",
        inner.errors
    );
    drop(inner);
    drop(bot);
}

/// Without DATABASE_URL the bot keeps its games in `arbiter.db` in its working directory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_database_url_the_bot_uses_arbiter_db_here() {
    let fake = Fake::start().await;
    let dir = scratch("bot-nodb");
    let bot = Bot::start(&fake, dir.clone(), None);
    connected(&fake, 1).await;
    assert!(
        dir.join("arbiter.db").exists(),
        "{:?}",
        std::fs::read_dir(&dir).unwrap().collect::<Vec<_>>()
    );
    drop(bot);
}

// The benchmark (50 games under load, `--ignored`) is in bench.rs.

#[test]
fn without_a_token_the_bot_exits_at_once() {
    let dir = scratch("notoken");
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("bot")
        .current_dir(&dir)
        .env_remove("DISCORD_TOKEN")
        .env_remove("DISCORD_API_BASE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "still running without a token"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("DISCORD_TOKEN"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The fake answers like Discord: a second acknowledgement is 40060, a late one 10062; and it
/// reads files the way serenity uploads them.
#[tokio::test]
async fn the_fake_refuses_double_and_late_acknowledgements_and_takes_files() {
    let fake = Fake::start().await;
    let http = serenity::all::HttpBuilder::new(TOKEN)
        .proxy(fake.base())
        .ratelimiter_disabled(true)
        .build();
    let deferral = json!({"type": 5});
    let ack = |id: u64, token: String| {
        let http = &http;
        let deferral = &deferral;
        async move {
            http.create_interaction_response(
                serenity::all::InteractionId::new(id),
                &token,
                deferral,
                Vec::new(),
            )
            .await
        }
    };
    let (id, token) = fake.pending_interaction(&player(1, "a"), CHANNEL);
    ack(id, token.clone()).await.unwrap();
    let twice = ack(id, token).await.unwrap_err();
    assert!(format!("{twice:?}").contains("40060"), "{twice:?}");
    let (id, token) = fake.pending_interaction(&player(1, "a"), CHANNEL);
    fake.age(&token, 4);
    let late = ack(id, token).await.unwrap_err();
    assert!(format!("{late:?}").contains("10062"), "{late:?}");
    // Attachments (board pictures) arrive as multipart `files[n]` with `payload_json`.
    let picture = serenity::all::CreateMessage::new()
        .content("board")
        .allowed_mentions(serenity::all::CreateAllowedMentions::new())
        .add_file(serenity::all::CreateAttachment::bytes(
            vec![0x89, b'P', b'N', b'G'],
            "board.png",
        ));
    let sent = serenity::all::ChannelId::new(CHANNEL)
        .send_message(&http, picture)
        .await
        .unwrap();
    assert_eq!(sent.attachments.len(), 1);
    let files = fake.lock().public(CHANNEL).last().map(|m| m.files.clone());
    assert_eq!(files, Some(vec!["board.png".to_string()]));
    let errors = fake.lock().errors.clone();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].contains("twice") && errors[1].contains("after 3 s"));
}

/// The fake tells who was notified by Discord's rule: newly created public messages only, the
/// users their content mentions and their allowed mentions allow (all of them without
/// allowed mentions); an edit or a deferral's completion notifies nobody, and one meant to
/// ping is an error.
#[tokio::test]
async fn the_fake_tells_who_was_notified() {
    let fake = Fake::start().await;
    let http = serenity::all::HttpBuilder::new(TOKEN)
        .proxy(fake.base())
        .ratelimiter_disabled(true)
        .build();
    http.set_application_id(serenity::all::ApplicationId::new(APP));
    let (one, two) = (player(1, "a"), player(2, "b"));
    let content = format!("<@{}> and <@!{}>: your move", one.id, two.id);
    let only_one = json!({"users": [one.id.to_string()], "parse": []});
    let channel = serenity::all::ChannelId::new(CHANNEL);
    let mark = fake.mark();
    let sent = http
        .send_message(
            channel,
            Vec::new(),
            &json!({"content": content, "allowed_mentions": only_one}),
        )
        .await
        .unwrap();
    assert_eq!(
        fake.lock().notified_since(CHANNEL, mark),
        [one.id.to_string()]
    );
    let mark = fake.mark();
    http.send_message(channel, Vec::new(), &json!({"content": content}))
        .await
        .unwrap();
    assert_eq!(
        fake.lock().notified_since(CHANNEL, mark),
        [one.id.to_string(), two.id.to_string()],
        "without allowed mentions, every mention notifies"
    );
    let mark = fake.mark();
    let everyone = json!({"parse": ["users"]});
    http.edit_message(
        channel,
        sent.id,
        &json!({"content": content, "allowed_mentions": everyone}),
        Vec::new(),
    )
    .await
    .unwrap();
    // A deferred interaction: its completion notifies nobody, a second follow-up does; an
    // ephemeral answer nobody.
    let (id, token) = fake.pending_interaction(&one, CHANNEL);
    http.create_interaction_response(
        serenity::all::InteractionId::new(id),
        &token,
        &json!({"type": 5}),
        Vec::new(),
    )
    .await
    .unwrap();
    let message = json!({"content": content, "allowed_mentions": only_one});
    http.create_followup_message(&token, &message, Vec::new())
        .await
        .unwrap();
    assert!(fake.lock().notified_since(CHANNEL, mark).is_empty());
    http.create_followup_message(&token, &message, Vec::new())
        .await
        .unwrap();
    assert_eq!(
        fake.lock().notified_since(CHANNEL, mark),
        [one.id.to_string()]
    );
    let mark = fake.mark();
    let (id, token) = fake.pending_interaction(&one, CHANNEL);
    let ephemeral = json!({"type": 4, "data": {"content": content, "flags": 64,
                                               "allowed_mentions": everyone}});
    http.create_interaction_response(
        serenity::all::InteractionId::new(id),
        &token,
        &ephemeral,
        Vec::new(),
    )
    .await
    .unwrap();
    let (id, token) = fake.pending_interaction(&one, CHANNEL);
    let public = json!({"type": 4, "data": {"content": content, "allowed_mentions": everyone}});
    http.create_interaction_response(
        serenity::all::InteractionId::new(id),
        &token,
        &public,
        Vec::new(),
    )
    .await
    .unwrap();
    assert_eq!(
        fake.lock().notified_since(CHANNEL, mark),
        [one.id.to_string(), two.id.to_string()],
        "the public answer notifies, the ephemeral one does not"
    );
    let errors = fake.lock().errors.clone();
    assert_eq!(errors.len(), 3, "{errors:#?}");
    assert!(errors[0].contains("without allowed_mentions"), "{errors:?}");
    assert!(
        errors[1].contains("a message edit allows pinging"),
        "{errors:?}"
    );
    assert!(
        errors[2].contains("the completion of a deferral allows pinging"),
        "{errors:?}"
    );
}
