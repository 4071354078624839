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

use crate::commands::{parse_command, Asker, Caller, GameKind, Hub, Roles, ThreadGame, KINDS};
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

/// Bytes the allocator has handed out and not had back (glibc's `mallinfo2`: every arena,
/// plus the large blocks it maps itself): a per-game figure without the page rounding and
/// arena slack that make resident memory noisy. `None` where there is no glibc.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn heap() -> Option<u64> {
    /// glibc's `struct mallinfo2` (every field a `size_t`).
    #[repr(C)]
    struct MallInfo2 {
        arena: usize,
        ordblks: usize,
        smblks: usize,
        hblks: usize,
        hblkhd: usize,
        usmblks: usize,
        fsmblks: usize,
        uordblks: usize,
        fordblks: usize,
        keepcost: usize,
    }
    extern "C" {
        fn mallinfo2() -> MallInfo2;
    }
    // SAFETY: `mallinfo2` takes no arguments, only reads the allocator's statistics under its
    // own locks, and returns the struct by value (glibc 2.33 and later).
    let m = unsafe { mallinfo2() };
    Some((m.uordblks + m.hblkhd) as u64)
}

/// Bytes the allocator has handed out (not measured here).
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn heap() -> Option<u64> {
    None
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

/// Creates a game of `kind` in `hub` at `thread` the first usual way it accepts, at `now`.
fn create(hub: &mut Hub, kind: &GameKind, thread: &str, now: Timestamp) -> bool {
    let mut ways = vec![
        format!("team1:{} team2:{}", players(3, 1), players(3, 4)),
        format!("umpire:@p9 swingers:{}", players(3, 1)),
        "white:@p1 black:@p2".to_string(),
    ];
    ways.extend((2..=8).map(|n| format!("players:{}", players(n, 1))));
    for way in ways {
        for limit in [
            " move_limit:1h turn_limit:1h",
            " move_limit:1h",
            " turn_limit:1h",
            "",
        ] {
            let text = format!("/{} new {way}{limit} seed:1", kind.group);
            let Some(cmd) = parse_command(&text) else {
                continue;
            };
            let r = hub.handle(&caller("org", thread, now), 1, &cmd, &text);
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
    let r = hub.handle(&caller(user, thread, now), 1, &cmd, text);
    // A resignation, concession or forfeit asks once: confirmed.
    match r.buttons.iter().find(|b| b.starts_with("ask-confirm")) {
        Some(id) => hub.press(user, id, now).ok == Some(true),
        None => r.ok == Some(true),
    }
}

/// The next offered move of some player at `now`: (user, `/move …`).
fn next_move(game: &dyn ThreadGame, now: Timestamp, turn: usize) -> Option<(String, String)> {
    let users = game.users();
    (0..users.len()).find_map(|i| {
        let u = &users[(turn + i) % users.len()];
        let moves = game.offered_moves(&Asker::new(u, now)).ok()?;
        let m = moves.get((turn * 7) % moves.len().max(1))?;
        // A play offered as a word is a command of its own (Chex's `draw`).
        if m.chars().all(|c| c.is_ascii_lowercase()) {
            return Some((u.clone(), format!("/{m}")));
        }
        Some((u.clone(), format!("/move {m}")))
    })
}

/// Plays a template of `kind` up to `actions` log entries, from `start`.
fn template(kind: &'static GameKind, actions: usize, start: Timestamp) -> Option<Template> {
    let thread = "template";
    let mut hub = Hub::new();
    if !create(&mut hub, kind, thread, start) {
        return None;
    }
    let mut now = start;
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
    // Party Chess: every Swinger picks pieces before play begins.
    if kind.variant == "party" {
        for u in hub.game(thread).map(|g| g.users()).unwrap_or_default() {
            run(&mut hub, thread, &u, now, "/party pieces set:RRJPP");
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
    // The move the bench sends to a cold copy, as it stands when the bench measures (a day
    // on: turns left to their limits have passed meanwhile).
    let next = (1..40).find_map(|t| next_move(&*playing, LATER, turn + t));
    // Finished: the first of the usual ways to end a game that it accepts (a resignation, a
    // concession, or every player but the last forfeiting). Party Chess has none: its games
    // never end (Party rules 3.10: no end rule of its own; Swingers come and go), so its
    // "finished" copies are in play.
    let users = playing.users();
    'end: for text in ["/resign", "/concede", "/forfeit"] {
        for u in users.iter().take(users.len().saturating_sub(1).max(1)) {
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
    /// Of which (in play, after the `due` ones) left unswept since their last action, as if
    /// the bot had been away: the catch-up case, swept separately.
    pub catch_up: usize,
    /// Log entries per game (at most).
    pub actions: usize,
}

/// The last action's time of a game (0 without one).
fn last_action(game: &dyn ThreadGame) -> Timestamp {
    game.log_len()
        .checked_sub(1)
        .and_then(|i| game.row(i))
        .and_then(Result::ok)
        .map_or(0, |r| r.time)
}

/// The tick of the sweep, in seconds.
fn tick() -> Timestamp {
    crate::service::TICK.as_secs().max(1)
}

/// When the catch-up games are swept (a restart after a day away).
const CATCH_UP_AT: Timestamp = LATER + 10;

/// A template of `kind` played so that its first timer after its last action falls due one
/// second before [`LATER`]: the copies stored swept up to the tick before are due within the
/// last tick when the bench sweeps at [`LATER`].
fn due_template(kind: &'static GameKind, plan: Plan, t: &Template) -> Option<Template> {
    let first = crate::layer::remind::next_due(
        &*t.playing,
        "",
        &crate::layer::attention::Attention::default(),
        last_action(&*t.playing),
    )?;
    let shift = (LATER - 1).checked_sub(first)?;
    template(kind, plan.actions, START + shift)
}

/// The kinds' templates: (kind's templates, its due template if it has a timer).
fn templates(plan: Plan) -> Vec<(Template, Option<Template>)> {
    KINDS
        .iter()
        .filter_map(|k| template(k, plan.actions, START))
        .map(|t| {
            let d = due_template(t.kind, plan, &t);
            (t, d)
        })
        .collect()
}

/// Fills the database at `url` (which should be empty) with the plan's games.
///
/// # Errors
/// The database fails, or no kind could be created.
pub async fn fill(url: Option<&str>, plan: Plan) -> Result<String, StoreError> {
    let store = Store::connect(url).await?;
    let templates = templates(plan);
    if templates.is_empty() {
        return Err(StoreError::Decode("no game kind could be created".into()));
    }
    let mut out = String::new();
    for k in KINDS {
        match templates.iter().find(|t| std::ptr::eq(t.0.kind, *k)) {
            Some((t, d)) => out.push_str(&format!(
                "{}: in play {} entries (next timer {:?} s after its last action; due copy's at LATER{:+}), finished {} entries ({}); catch-up: {} timers (found in {:.1} ms)\n",
                k.variant,
                t.playing.log_len(),
                crate::layer::remind::next_due(&*t.playing, "", &crate::layer::attention::Attention::default(), last_action(&*t.playing))
                    .map(|d| d.saturating_sub(last_action(&*t.playing))),
                d.as_ref()
                    .and_then(|d| crate::layer::remind::next_due(&*d.playing, "", &crate::layer::attention::Attention::default(), LATER - tick()))
                    .map_or(i64::MIN, |at| at as i64 - LATER as i64),
                t.finished.log_len(),
                if t.finished.finished() {
                    "over"
                } else {
                    "no way to end it: finished games are of the other kinds"
                },
                t.playing.due(last_action(&*t.playing), CATCH_UP_AT).len(),
                {
                    let c = Instant::now();
                    t.playing.due(last_action(&*t.playing), CATCH_UP_AT);
                    c.elapsed().as_secs_f64() * 1000.0
                },
            )),
            None => out.push_str(&format!(
                "{}: skipped (no usual way to create one)\n",
                k.variant
            )),
        }
    }
    let started = Instant::now();
    let mut batch = Vec::new();
    let (mut in_play, mut due, mut catch_up) = (0, 0, 0);
    // The other games were swept at the tick before LATER, as the running bot does: their
    // next timers (some games' limits recur without end) are after LATER.
    let swept = LATER - tick();
    let quiet: Vec<Option<Timestamp>> = templates
        .iter()
        .map(|t| {
            crate::layer::remind::next_due(
                &*t.0.playing,
                "",
                &crate::layer::attention::Attention::default(),
                swept,
            )
        })
        .collect();
    // Finished games are of the kinds that end (a Party Chess game never does).
    let ending: Vec<&Template> = templates
        .iter()
        .map(|t| &t.0)
        .filter(|t| t.finished.finished())
        .collect();
    for i in 0..plan.games {
        let k = i % templates.len();
        let (t, d) = &templates[k];
        let (game, swept, next) = if i < plan.due && d.is_some() {
            let d = d.as_ref().map_or(&*t.playing, |d| &*d.playing);
            due += 1;
            (
                d,
                swept,
                crate::layer::remind::next_due(
                    d,
                    "",
                    &crate::layer::attention::Attention::default(),
                    swept,
                ),
            )
        } else if i >= plan.due && i < plan.due + plan.catch_up {
            // Left unswept since the last action; the sweep is told to look at LATER + 10 s,
            // when the bot comes back.
            catch_up += 1;
            (&*t.playing, last_action(&*t.playing), Some(CATCH_UP_AT))
        } else if i < plan.active || ending.is_empty() {
            (&*t.playing, swept, quiet[k])
        } else {
            let f = &ending[i % ending.len()].finished;
            (&**f, swept, None)
        };
        if !game.finished() {
            in_play += 1;
        }
        batch.push((thread_name(i), game, swept, next));
        if batch.len() == 2000 || i + 1 == plan.games {
            store.bulk_games(&batch).await?;
            batch.clear();
        }
    }
    out.push_str(&format!(
        "filled {} games ({in_play} in play, {due} with a timer due in the last tick, {catch_up} to catch up) in {:.1} s\n",
        plan.games,
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
    let templates: Vec<Template> = templates(plan).into_iter().map(|t| t.0).collect();
    // The first command on a game not in memory: a move, committed (the `due` and catch-up
    // games are left for the sweep).
    let cold: Vec<usize> = (plan.due + plan.catch_up..plan.active).take(100).collect();
    let mut firsts = Vec::new();
    let mut accepted = 0;
    let mut refused: Vec<String> = Vec::new();
    let mut slowest = Vec::new();
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
        let h = svc.handle_full(&c, 1, &cmd, text, None, false).await;
        let r = h.reply;
        firsts.push(took.elapsed());
        slowest.push((took.elapsed(), t.kind.variant, h.timing));
        if r.ok == Some(true) {
            accepted += 1;
        } else if refused.len() < 3 {
            refused.push(format!("{} {text}: {}", t.kind.variant, r.text));
        }
    }
    out.push_str(&format!(
        "first command on a game not in memory: median {:.2} ms, p99 {:.2} ms over {} games ({} accepted)\n",
        percentile(&mut firsts, 0.5),
        percentile(&mut firsts, 0.99),
        firsts.len(),
        accepted
    ));
    for r in refused {
        out.push_str(&format!("  refused: {r}\n"));
    }
    slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
    for (took, kind, timing) in slowest.iter().take(3) {
        out.push_str(&format!(
            "  slowest: {kind} {:.2} ms (read {:.2}, handle {:.2}, commit {:.2})\n",
            took.as_secs_f64() * 1000.0,
            timing.load.as_secs_f64() * 1000.0,
            timing.handle.as_secs_f64() * 1000.0,
            timing.commit.as_secs_f64() * 1000.0
        ));
    }
    // Touch every game in play, kind by kind.
    let mut last = rss();
    let mut last_heap = heap();
    for (k, t) in templates.iter().enumerate() {
        let mine: Vec<usize> = (0..plan.active)
            .filter(|i| i % templates.len() == k)
            .collect();
        for &i in &mine {
            svc.with_game(&thread_name(i), |g| g.log_len()).await;
        }
        let now = rss();
        let now_heap = heap();
        let per = |after: u64, before: u64| {
            after.saturating_sub(before) as f64 / 1024.0 / mine.len().max(1) as f64
        };
        out.push_str(&format!(
            "touched {} {} games in play: resident {:.1} MB, {:.1} KB per game{}\n",
            mine.len(),
            t.kind.variant,
            mb(now),
            per(now, last),
            match (now_heap, last_heap) {
                (Some(a), Some(b)) => format!(" (heap: {:.1} KB per game)", per(a, b)),
                _ => String::new(),
            }
        ));
        last = now;
        last_heap = now_heap;
    }
    out.push_str(&format!(
        "after touching all {} games in play: resident {:.1} MB ({} in memory)\n",
        plan.active,
        mb(rss()),
        svc.loaded_games()
    ));
    svc.evict(Duration::ZERO, Duration::ZERO);
    // The timer sweep, as the bot runs it every tick: the games with a timer due in the last
    // tick are read and announced, once.
    let loads = svc.loads();
    let t = Instant::now();
    let due = svc.due_messages(LATER - tick(), LATER).await;
    let sweep = t.elapsed();
    let late = due
        .iter()
        .filter(|(_, n)| n.text().contains("while the bot was away"))
        .count();
    out.push_str(&format!(
        "timer sweep (one tick, {} due games): {} announced ({} late) from {} games read in {:.1} ms\n",
        plan.due,
        due.len(),
        late,
        svc.loads() - loads,
        sweep.as_secs_f64() * 1000.0
    ));
    // The catch-up: the bot comes back after a day away; the games left unswept since their
    // last action are caught up, one post each.
    let loads = svc.loads();
    let t = Instant::now();
    let caught = svc.due_messages(0, CATCH_UP_AT).await;
    let sweep = t.elapsed();
    let summaries = caught
        .iter()
        .filter(|(_, n)| n.text().starts_with("While the bot was away"))
        .count();
    out.push_str(&format!(
        "catch-up sweep ({} games a day behind): {} posts ({} catch-up summaries) from {} games read in {:.1} ms\n",
        plan.catch_up,
        caught.len(),
        summaries,
        svc.loads() - loads,
        sweep.as_secs_f64() * 1000.0
    ));
    let t = Instant::now();
    let again = svc.due_messages(CATCH_UP_AT, CATCH_UP_AT + tick()).await;
    out.push_str(&format!(
        "the next tick (nothing due): {} in {:.2} ms\n",
        again.len(),
        t.elapsed().as_secs_f64() * 1000.0
    ));
    Ok(out)
}
