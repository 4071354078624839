//! The fake-Discord benchmark (`cargo test --release --test discord bench -- --ignored
//! --nocapture`): 50 games through the real bot, in four modes, on SQLite (or on PostgreSQL when
//! `ARBITER_TEST_POSTGRES` names a server):
//!
//! - `burst`: ten rounds of 50 moves sent at once (one in every game), the next round when the
//!   last answer is in;
//! - `sustained`: 20 moves a second spread over the 50 games for 30 seconds;
//! - `burst+busy`, `sustained+busy`: the same while a second process keeps one core busy (a
//!   shared machine).
//!
//! `ARBITER_BENCH_MODES=burst,sustained` picks some. Each mode runs a fresh bot on a fresh
//! database and prints its breakdown; one table at the end sums them all up. The answer time
//! runs from the interaction sent to its answer, with the board picture, seen by the fake; the
//! first response from the interaction sent to its first callback (the deferral). The bot's own
//! spans come from its `move timing` log lines (the bot measures them itself, so the fake
//! Discord's work, such as reading uploads, is not in them); the uploaded pictures are decoded
//! only after the measured run.
//!
//! The breakdown: where the time of each accepted move went, read from the bot's `move timing`
//! log lines, and from the fake's clock for the first response.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use super::fake::{Fake, User};
use super::{
    accepted, check_pictures, connected, drafted, message, scratch, seats_from, text, Bot,
};

#[path = "../common/mod.rs"]
mod common;

/// The spans the bot logs per accepted move, in order, with what they mean.
const SPANS: [(&str, &str); 12] = [
    ("deferred_us", "bot: interaction to deferral"),
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

/// Games in play.
const GAMES: u64 = 50;

/// Each game's moves, in order, as (seat, move) with a=0 b=1 c=2 d=3 e=4 f=5: the burst plays
/// the first ten (one round each), the sustained load all twelve.
const MOVES: [(usize, &str); 12] = [
    (0, "e2-e4"),
    (3, "d7-d6"),
    (2, "e2-e4"),
    (5, "e7-e5"),
    (4, "e2-e4"),
    (1, "e7-e5"),
    (0, "a2-a3"),
    (3, "a7-a6"),
    (2, "a2-a3"),
    (5, "a7-a6"),
    (4, "a2-a3"),
    (1, "a7-a6"),
];

/// Rounds of the burst.
const ROUNDS: usize = 10;

/// The sustained load: moves per second, for this long.
const RATE: u64 = 20;
const SUSTAINED: Duration = Duration::from_secs(30);

/// The targets (issue 21): burst answers, sustained answers, first responses (p99).
const BURST_P99: Duration = Duration::from_millis(150);
const SUSTAINED_P99: Duration = Duration::from_millis(50);
const FIRST_P99: Duration = Duration::from_millis(50);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Load {
    Burst,
    Sustained,
}

#[derive(Clone, Copy, Debug)]
struct Mode {
    load: Load,
    /// A second process keeps one core busy meanwhile.
    busy: bool,
}

impl Mode {
    fn name(self) -> String {
        let load = match self.load {
            Load::Burst => "burst",
            Load::Sustained => "sustained",
        };
        if self.busy {
            format!("{load}+busy")
        } else {
            load.to_string()
        }
    }
}

const MODES: [Mode; 4] = [
    Mode {
        load: Load::Burst,
        busy: false,
    },
    Mode {
        load: Load::Sustained,
        busy: false,
    },
    Mode {
        load: Load::Burst,
        busy: true,
    },
    Mode {
        load: Load::Sustained,
        busy: true,
    },
];

/// A process keeping one core busy (a shell loop); killed when dropped.
struct Busy(Child);

impl Busy {
    fn start() -> Busy {
        let child = Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .expect("start the busy process");
        Busy(child)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".to_string())
}

/// Processor time so far: every core's busy and total time (`/proc/stat`), and the time
/// used by the bot's process and by this one (the fake), in clock ticks (Linux only; zeros
/// elsewhere).
#[derive(Clone, Copy, Default)]
struct CpuUse {
    busy: u64,
    /// Time the machine's host gave to others (counted in `busy`).
    steal: u64,
    total: u64,
    bot: u64,
    fake: u64,
}

impl CpuUse {
    fn now(bot: u32) -> CpuUse {
        // utime and stime of /proc/PID/stat: fields 14 and 15, the 12th and 13th after the
        // `)` that ends the command name (field 2).
        let process = |path: String| -> u64 {
            let Ok(stat) = std::fs::read_to_string(path) else {
                return 0;
            };
            let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
            let f: Vec<&str> = rest.split_whitespace().collect();
            let field = |k: usize| f.get(k).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
            field(11) + field(12)
        };
        let (mut busy, mut steal, mut total) = (0, 0, 0);
        if let Ok(stat) = std::fs::read_to_string("/proc/stat") {
            if let Some(cpu) = stat.lines().find(|l| l.starts_with("cpu ")) {
                let f: Vec<u64> = cpu
                    .split_whitespace()
                    .skip(1)
                    .filter_map(|x| x.parse().ok())
                    .collect();
                // user nice system idle iowait irq softirq steal (guest time is in user).
                total = f.iter().take(8).sum();
                busy = total - f.get(3).copied().unwrap_or(0) - f.get(4).copied().unwrap_or(0);
                steal = f.get(7).copied().unwrap_or(0);
            }
        }
        CpuUse {
            busy,
            steal,
            total,
            bot: process(format!("/proc/{bot}/stat")),
            fake: process("/proc/self/stat".to_string()),
        }
    }

    /// What was used from `self` to `later`, per move: "cores busy N% (M% taken by the
    /// host); bot, fake and the rest (the database server, other processes) in ms a move".
    fn report(self, later: CpuUse, moves: usize) -> String {
        // Clock ticks are 100 a second on Linux.
        let per_move = |ticks: u64| ticks as f64 * 10.0 / moves.max(1) as f64;
        let busy = later.busy.saturating_sub(self.busy);
        let bot = later.bot.saturating_sub(self.bot);
        let fake = later.fake.saturating_sub(self.fake);
        let total = later.total.saturating_sub(self.total).max(1) as f64;
        format!(
            "cores busy {:.0}% ({:.0}% taken by the host); CPU a move: bot {:.2}, fake {:.2}, the rest {:.2} ms",
            100.0 * busy as f64 / total,
            100.0 * later.steal.saturating_sub(self.steal) as f64 / total,
            per_move(bot),
            per_move(fake),
            per_move(busy.saturating_sub(bot + fake)),
        )
    }
}

/// What one mode measured.
struct Run {
    mode: Mode,
    moves: usize,
    wall: Duration,
    answers: Vec<Duration>,
    firsts: Vec<Duration>,
    log: String,
    /// From each interaction sent to the bot's command starting.
    delivery: Vec<Duration>,
    load: (String, String),
    /// Processor use during the run (see [`CpuUse::report`]).
    cpu: String,
    /// The burst's slowest answer in each round, in order (empty for the sustained load).
    round_max: Vec<Duration>,
}

/// Sends one move and waits for its answer: (answer time, first response time).
async fn play(fake: &Fake, user: &User, thread: u64, notation: &str) -> (Duration, Duration) {
    let t = fake.slash(
        user,
        thread,
        "move",
        json!([text("notation", notation)]),
        &[],
    );
    let answer = fake.answer_within(&t, 60).await;
    // As the fake noted it when the answer came in (not when this task woke up to look).
    let took = answer
        .answered_after
        .expect("the fake notes when an interaction's answer comes in");
    accepted(&answer, notation);
    assert_eq!(message(&answer).files, ["board.png"], "{answer:?}");
    (took, answer.first_after.unwrap_or_default())
}

/// Ten rounds, each one move in every game sent at once.
async fn burst(fake: &Fake, games: &[([User; 6], u64)]) -> Vec<(Duration, Duration)> {
    let mut out = Vec::new();
    for &(seat, notation) in &MOVES[..ROUNDS] {
        let mut set = tokio::task::JoinSet::new();
        for (p, thread) in games {
            let (fake, user, thread) = (fake.clone(), p[seat].clone(), *thread);
            set.spawn(async move { play(&fake, &user, thread, notation).await });
        }
        while let Some(r) = set.join_next().await {
            out.push(r.unwrap());
        }
    }
    out
}

/// [`RATE`] moves a second for [`SUSTAINED`], in turn over the games (each game's moves one
/// after the other, every `games / RATE` seconds).
async fn sustained(fake: &Fake, games: &[([User; 6], u64)]) -> Vec<(Duration, Duration)> {
    let total = RATE * SUSTAINED.as_secs();
    let per_game = total.div_ceil(games.len() as u64) as usize;
    assert!(per_game <= MOVES.len(), "{per_game} moves per game");
    let gap = Duration::from_secs(1) / RATE as u32;
    let start = tokio::time::Instant::now();
    let mut set = tokio::task::JoinSet::new();
    for (g, (p, thread)) in games.iter().enumerate() {
        let (fake, p, thread) = (fake.clone(), p.clone(), *thread);
        let n = games.len();
        set.spawn(async move {
            let mut out = Vec::new();
            for (k, &(seat, notation)) in MOVES[..per_game].iter().enumerate() {
                let slot = (k * n + g) as u32;
                if u64::from(slot) >= total {
                    break;
                }
                tokio::time::sleep_until(start + gap * slot).await;
                out.push(play(&fake, &p[seat], thread, notation).await);
            }
            out
        });
    }
    let mut out = Vec::new();
    while let Some(r) = set.join_next().await {
        out.extend(r.unwrap());
    }
    out
}

/// One mode: a fresh bot on the database `db`, 50 games drafted, then the load.
async fn run(mode: Mode, db: String) -> Run {
    let fake = Fake::start().await;
    let dir = scratch(&format!("bot-bench-{}", mode.name().replace('+', "-")));
    let bot = Bot::start(&fake, dir, Some(db));
    connected(&fake, 1).await;
    let mut games = Vec::new();
    for g in 0..GAMES {
        let (p, org) = seats_from(1000 + 10 * g);
        let thread = drafted(&fake, &p, &org).await;
        games.push((p, thread));
    }
    let busy = mode.busy.then(Busy::start);
    let load_before = loadavg();
    let cpu_before = CpuUse::now(bot.pid());
    let started = Instant::now();
    let measured = match mode.load {
        Load::Burst => burst(&fake, &games).await,
        Load::Sustained => sustained(&fake, &games).await,
    };
    let wall = started.elapsed();
    let cpu = cpu_before.report(CpuUse::now(bot.pid()), measured.len());
    let load_after = loadavg();
    drop(busy);
    // Outside the measured run: every picture decodes.
    assert!(check_pictures(&fake) >= measured.len());
    let errors = fake.lock().errors.clone();
    assert!(errors.is_empty(), "{errors:#?}");
    let log = bot.log();
    drop(bot);
    // Delivery: from the interaction sent (the fake's clock) to the bot's command starting
    // (the bot's clock; one machine, one clock).
    let delivery: Vec<Duration> = log
        .lines()
        .filter(|l| l.contains("move timing"))
        .filter_map(|l| {
            let sent = fake.sent_unix_us(field(l, "interaction")?)?;
            let started = field(l, "started_unix_us")?;
            Some(Duration::from_micros(started.saturating_sub(sent)))
        })
        .collect();
    let (answers, firsts): (Vec<_>, Vec<_>) = measured.into_iter().unzip();
    // The burst's answers come round by round, one per game.
    let round_max = match mode.load {
        Load::Burst => answers
            .chunks(games.len())
            .filter_map(|round| round.iter().max().copied())
            .collect(),
        Load::Sustained => Vec::new(),
    };
    Run {
        mode,
        moves: answers.len(),
        wall,
        answers,
        firsts,
        log,
        delivery,
        load: (load_before, load_after),
        cpu,
        round_max,
    }
}

/// The `q` quantile of some times (sorted here).
fn quantile(times: &mut [Duration], q: f64) -> Duration {
    if times.is_empty() {
        return Duration::ZERO;
    }
    times.sort();
    times[((times.len() - 1) as f64 * q).round() as usize]
}

/// The bot's own span `key` of every accepted move.
fn spans(log: &str, key: &str) -> Vec<Duration> {
    log.lines()
        .filter(|l| l.contains("move timing"))
        .filter_map(|l| field(l, key))
        .map(Duration::from_micros)
        .collect()
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

/// p99 against a target: `42.0 ok` or `180.3 OVER`.
fn against(d: Duration, target: Duration) -> String {
    format!("{} {}", ms(d), if d < target { "ok" } else { "OVER" })
}

/// One table of every mode run.
fn summary(db: &str, runs: &mut [Run]) -> String {
    let mut out = format!(
        "\nsummary ({db}; ms; targets p99: burst answer < {}, sustained answer < {}, first response < {}):\n",
        ms(BURST_P99),
        ms(SUSTAINED_P99),
        ms(FIRST_P99)
    );
    out.push_str(&format!(
        "{:<15} {:>5} {:>7} | {:>7} {:>12} {:>7} | {:>6} {:>11} | {:>8} {:>7} {:>7} {:>7} {:>7} | {:>11}\n",
        "mode", "moves", "wall s", "answer", "p99", "max", "first", "p99",
        "bot p99", "load", "commit", "core", "render", "loadavg"
    ));
    out.push_str(&format!(
        "{:<15} {:>5} {:>7} | {:>7} {:>12} {:>7} | {:>6} {:>11} | {:>8} {:>7} {:>7} {:>7} {:>7} | {:>11}\n",
        "", "", "", "median", "", "", "median", "", "answered", "p99", "p99", "wait p99", "p99", "before/after"
    ));
    for r in runs.iter_mut() {
        let target = match r.mode.load {
            Load::Burst => BURST_P99,
            Load::Sustained => SUSTAINED_P99,
        };
        let bot = |key: &str| ms(quantile(&mut spans(&r.log, key), 0.99));
        let answer_max = r.answers.iter().max().copied().unwrap_or_default();
        out.push_str(&format!(
            "{:<15} {:>5} {:>7.1} | {:>7} {:>12} {:>7} | {:>6} {:>11} | {:>8} {:>7} {:>7} {:>7} {:>7} | {:>11}\n",
            r.mode.name(),
            r.moves,
            r.wall.as_secs_f64(),
            ms(quantile(&mut r.answers, 0.5)),
            against(quantile(&mut r.answers, 0.99), target),
            ms(answer_max),
            ms(quantile(&mut r.firsts, 0.5)),
            against(quantile(&mut r.firsts, 0.99), FIRST_P99),
            bot("answered_us"),
            bot("load_us"),
            bot("commit_us"),
            bot("core_wait_us"),
            bot("render_us"),
            format!("{}/{}", r.load.0, r.load.1),
        ));
    }
    out
}

/// The benchmark: every mode asked for (`ARBITER_BENCH_MODES`, default all four), then the
/// summary table.
#[test]
#[ignore]
fn bench_fifty_games() {
    let wanted = std::env::var("ARBITER_BENCH_MODES").unwrap_or_default();
    let wanted: Vec<&str> = wanted
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect();
    let modes: Vec<Mode> = MODES
        .into_iter()
        .filter(|m| wanted.is_empty() || wanted.contains(&m.name().as_str()))
        .collect();
    assert!(
        !modes.is_empty(),
        "ARBITER_BENCH_MODES names none of burst, sustained, burst+busy, sustained+busy"
    );
    let db_name = if common::postgres_server().is_some() {
        "PostgreSQL"
    } else {
        "SQLite"
    };
    // Each mode has a database of its own (made before the runtime starts: making one on
    // PostgreSQL runs a runtime of its own).
    let dbs: Vec<String> = modes
        .iter()
        .map(|m| common::fresh_db(&format!("bench_{}", m.name().replace('+', "_"))))
        .collect();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .unwrap();
    let mut runs = Vec::new();
    for (mode, db) in modes.into_iter().zip(dbs) {
        let r = rt.block_on(run(mode, db));
        let mut answers = r.answers.clone();
        let mut firsts = r.firsts.clone();
        eprintln!(
            "{} on {db_name}: {} moves in {:?} (load average {} before, {} after)",
            mode.name(),
            r.moves,
            r.wall,
            r.load.0,
            r.load.1
        );
        eprintln!("  {}", r.cpu);
        eprintln!("  answer (median / p99 / max):   {}", figures(&mut answers));
        eprintln!("  first response:                {}", figures(&mut firsts));
        let mut delivery = r.delivery.clone();
        eprintln!(
            "  gateway: sent to bot's command {}",
            figures(&mut delivery)
        );
        if !r.round_max.is_empty() {
            let each: Vec<String> = r.round_max.iter().map(|d| ms(*d)).collect();
            eprintln!("  slowest answer of each round:   {} ms", each.join(", "));
        }
        eprint!("{}", breakdown(&r.log));
        // The database's stalls the bot reported (slow group commits, slow checkpoints).
        for line in r.log.lines().filter(|l| l.contains(" slow ")) {
            eprintln!(
                "  bot: {}",
                line.split_once("INFO ").map_or(line, |(_, l)| l)
            );
        }
        runs.push(r);
    }
    eprint!("{}", summary(db_name, &mut runs));
}
