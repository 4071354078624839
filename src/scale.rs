//! `arbiter scale-bench`: what start-up, memory, a cold game's first command and the timer
//! sweep cost with many stored games (issue 22).
//!
//! The database is filled with copies of one template game per kind of [`KINDS`] (so a new
//! game is measured as soon as it is listed there): a finished one, and one in play with a
//! timer. The template is played through the command layer: created with the first of a few
//! usual ways of seating players that the kind accepts, then moved by its players' offered
//! moves. Then a fresh process (this binary again, `--measure`) opens the database and
//! measures, so the filling's own memory is not counted.

use std::time::{Duration, Instant};

use crate::commands::{parse_command, Caller, GameKind, Hub, Roles, ThreadGame, KINDS};
use crate::service::Service;
use crate::store::{Store, StoreError};
use crate::time::Timestamp;

/// The template games' clock start (2026-01-01).
const START: Timestamp = 1_767_225_600;
/// When the measuring process acts: a day after the games' start, past every template's
/// first timer (games whose limits recur, like Nomic Chess's turn parts, catch up on every
/// limit that ran out meanwhile, so a later time measures that catching up instead).
const LATER: Timestamp = START + 86_400;

/// Resident memory of this process, in bytes (Linux; 0 elsewhere).
pub fn rss() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// One kind's templates: the game in play (with a timer ahead) and its move that the bench
/// sends to a cold copy, and the finished game.
struct Template {
    kind: &'static GameKind,
    playing: Box<dyn ThreadGame>,
    next: Option<(String, String)>,
    finished: Box<dyn ThreadGame>,
}

fn caller<'a>(user: &'a str, thread: &'a str, now: Timestamp) -> Caller<'a> {
    Caller {
        user,
        roles: Roles {
            organiser: true,
            moderator: true,
        },
        thread,
        now,
    }
}

/// Players `p1`… as mentions.
fn players(n: usize, from: usize) -> String {
    (from..from + n)
        .map(|i| format!("@p{i}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Creates a game of `kind` in `hub` at `thread` the first usual way it accepts.
fn create(hub: &mut Hub, kind: &GameKind, thread: &str) -> bool {
    let mut ways = vec![
        format!("team1:{} team2:{}", players(3, 1), players(3, 4)),
        "white:@p1 black:@p2".to_string(),
    ];
    ways.extend((2..=8).map(|n| format!("players:{}", players(n, 1))));
    for way in ways {
        for limit in [" move_limit:1h", ""] {
            let text = format!("/{} new {way}{limit} seed:1", kind.group);
            let Some(cmd) = parse_command(&text) else {
                continue;
            };
            let r = hub.handle(&caller("org", thread, START), 1, &cmd, &text);
            if r.ok == Some(true) && hub.game(thread).is_some() {
                return true;
            }
        }
    }
    false
}

/// A command by `user` in the template's thread; whether it was accepted.
fn run(hub: &mut Hub, thread: &str, user: &str, now: Timestamp, text: &str) -> bool {
    let Some(cmd) = parse_command(text) else {
        return false;
    };
    hub.handle(&caller(user, thread, now), 1, &cmd, text).ok == Some(true)
}

/// The next offered move of some player at `now`: (user, `/move …`).
fn next_move(game: &dyn ThreadGame, now: Timestamp, turn: usize) -> Option<(String, String)> {
    let users = game.users();
    (0..users.len()).find_map(|i| {
        let u = &users[(turn + i) % users.len()];
        let moves = game.offered_moves(u, None, now).ok()?;
        let m = moves.get((turn * 7) % moves.len().max(1))?;
        Some((u.clone(), format!("/move {m}")))
    })
}

/// Plays a template of `kind` up to `actions` log entries.
fn template(kind: &'static GameKind, actions: usize) -> Option<Template> {
    let thread = "template";
    let mut hub = Hub::new();
    if !create(&mut hub, kind, thread) {
        return None;
    }
    let mut now = START;
    // A game with a set-up before its moves: Kung Fu Bughouse's draft (seed 1).
    if kind.variant == "kfb" {
        for (u, p) in [
            ("p6", "/pick order:second color:red army:fide"),
            ("p1", "/pick order:first color:red army:fide"),
            ("p5", "/pick order:first color:blue army:rookies"),
            ("p2", "/pick order:second color:lightgreen army:nutty"),
            ("p4", "/pick order:second color:lightgreen army:clobberers"),
            ("p3", "/pick order:first color:blue army:forward"),
        ] {
            run(&mut hub, thread, u, now, p);
        }
    }
    let mut turn = 0;
    let mut stuck = 0;
    while hub
        .game(thread)
        .is_some_and(|g| g.log_len() < actions && !g.finished())
        && stuck < 50
    {
        now += 60;
        turn += 1;
        let Some((user, text)) = hub.game(thread).and_then(|g| next_move(g, now, turn)) else {
            stuck += 1;
            continue;
        };
        if !run(&mut hub, thread, &user, now, &text) {
            stuck += 1;
        }
    }
    let playing = hub.game(thread)?.clone_box();
    let next = (1..40).find_map(|t| next_move(&*playing, now + 60, turn + t));
    // Finished: the first of the usual ways to end a game that it accepts.
    let users = playing.users();
    'end: for text in ["/resign", "/concede"] {
        for u in &users {
            run(&mut hub, thread, u, now + 120, text);
            if hub.game(thread).is_some_and(|g| g.finished()) {
                break 'end;
            }
        }
    }
    let finished = hub.game(thread)?.clone_box();
    Some(Template {
        kind,
        playing,
        next,
        finished,
    })
}

/// What `arbiter scale-bench` fills and measures.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Stored games in all (of every kind, in turn).
    pub games: usize,
    /// Of which in play.
    pub active: usize,
    /// Of which (in play) with a timer due when measured.
    pub due: usize,
    /// Log entries per game (at most).
    pub actions: usize,
}

/// Fills the database at `url` (which should be empty) with the plan's games.
///
/// # Errors
/// The database fails, or no kind could be created.
pub async fn fill(url: Option<&str>, plan: Plan) -> Result<String, StoreError> {
    let store = Store::connect(url).await?;
    let templates: Vec<Template> = KINDS
        .iter()
        .filter_map(|k| template(k, plan.actions))
        .collect();
    if templates.is_empty() {
        return Err(StoreError::Decode("no game kind could be created".into()));
    }
    let mut out = String::new();
    for k in KINDS {
        match templates.iter().find(|t| std::ptr::eq(t.kind, *k)) {
            Some(t) => out.push_str(&format!(
                "{}: in play {} entries (timer at {:?}), finished {} entries ({})\n",
                k.variant,
                t.playing.log_len(),
                crate::store::next_due(&*t.playing, 0).map(|d| d.saturating_sub(START)),
                t.finished.log_len(),
                if t.finished.finished() {
                    "over"
                } else {
                    "could not be ended"
                }
            )),
            None => out.push_str(&format!(
                "{}: skipped (no usual way to create one)\n",
                k.variant
            )),
        }
    }
    let started = Instant::now();
    let mut batch = Vec::new();
    for i in 0..plan.games {
        let t = &templates[i % templates.len()];
        let active = i < plan.active;
        let (game, swept, next) = if active {
            if i < plan.due {
                (&*t.playing, 0, crate::store::next_due(&*t.playing, 0))
            } else {
                // Swept ten years ahead (some games' limits recur without end): none due.
                (&*t.playing, START + 3650 * 86_400, None)
            }
        } else {
            (&*t.finished, 0, None)
        };
        batch.push((thread_name(i), game, swept, next));
        if batch.len() == 500 || i + 1 == plan.games {
            store.bulk_games(&batch).await?;
            batch.clear();
        }
    }
    out.push_str(&format!(
        "filled {} games ({} in play, {} with a timer due) in {:.1} s\n",
        plan.games,
        plan.active,
        plan.due,
        started.elapsed().as_secs_f64()
    ));
    store.close().await;
    Ok(out)
}

/// The thread of the `i`th stored game.
fn thread_name(i: usize) -> String {
    format!("scale-{i:07}")
}

fn percentile(times: &mut [Duration], q: f64) -> f64 {
    if times.is_empty() {
        return 0.0;
    }
    times.sort();
    times[((times.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1000.0
}

/// Opens the filled database as the bot does and measures (run in a fresh process).
///
/// # Errors
/// The database fails.
pub async fn measure(url: Option<&str>, plan: Plan) -> Result<String, StoreError> {
    let rss_before = rss();
    let started = Instant::now();
    let store = Store::connect(url).await?;
    let svc = Service::with_store(store).await?;
    let startup = started.elapsed();
    let rss_start = rss();
    let mut out = String::new();
    let (stored, playing) = match svc.store() {
        Some(s) => s.game_counts().await?,
        None => (0, 0),
    };
    out.push_str(&format!(
        "{stored} stored games, {playing} in play; start-up {:.0} ms; resident {:.1} MB after start ({:.1} MB before opening)\n",
        startup.as_secs_f64() * 1000.0,
        mb(rss_start),
        mb(rss_before)
    ));
    let templates: Vec<Template> = KINDS
        .iter()
        .filter_map(|k| template(k, plan.actions))
        .collect();
    // The first command on a game not in memory: a move, committed (the `due` games are
    // left for the sweep).
    let cold: Vec<usize> = (plan.due..plan.active).take(100).collect();
    let mut firsts = Vec::new();
    let mut accepted = 0;
    for &i in &cold {
        let t = &templates[i % templates.len()];
        let Some((user, text)) = &t.next else {
            continue;
        };
        let Some(cmd) = parse_command(text) else {
            continue;
        };
        let thread = thread_name(i);
        let c = Caller {
            user,
            roles: Roles::default(),
            thread: &thread,
            now: LATER,
        };
        let took = Instant::now();
        let r = svc.handle(&c, 1, &cmd, text, None).await;
        firsts.push(took.elapsed());
        if r.ok == Some(true) {
            accepted += 1;
        }
    }
    out.push_str(&format!(
        "first command on a game not in memory: median {:.2} ms, p99 {:.2} ms over {} games ({} accepted)\n",
        percentile(&mut firsts, 0.5),
        percentile(&mut firsts, 0.99),
        firsts.len(),
        accepted
    ));
    // Touch every game in play, kind by kind.
    let mut last = rss();
    for (k, t) in templates.iter().enumerate() {
        let mine: Vec<usize> = (0..plan.active)
            .filter(|i| i % templates.len() == k)
            .collect();
        for &i in &mine {
            svc.with_game(&thread_name(i), |g| g.log_len()).await;
        }
        let now = rss();
        out.push_str(&format!(
            "touched {} {} games in play: resident {:.1} MB, {:.1} KB per game\n",
            mine.len(),
            t.kind.variant,
            mb(now),
            now.saturating_sub(last) as f64 / 1024.0 / mine.len().max(1) as f64
        ));
        last = now;
    }
    out.push_str(&format!(
        "after touching all {} games in play: resident {:.1} MB ({} in memory)\n",
        plan.active,
        mb(rss()),
        svc.loaded_games()
    ));
    svc.evict(Duration::ZERO, Duration::ZERO);
    // The timer sweep: the games with a timer due are read and announced, once.
    let loads = svc.loads();
    let now = LATER;
    let t = Instant::now();
    let due = svc.due_messages(0, now).await;
    let sweep = t.elapsed();
    out.push_str(&format!(
        "timer sweep: {} announced from {} games read in {:.1} ms; ",
        due.len(),
        svc.loads() - loads,
        sweep.as_secs_f64() * 1000.0
    ));
    let t = Instant::now();
    let again = svc.due_messages(now, now + 2).await;
    out.push_str(&format!(
        "the next tick (nothing due): {} in {:.2} ms\n",
        again.len(),
        t.elapsed().as_secs_f64() * 1000.0
    ));
    Ok(out)
}
