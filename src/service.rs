//! The hub with storage: every command is checked against the stored state, committed before
//! it is answered, and retried against the new state when another writer got there first.
//! Both front ends (console and Discord) use this.
//!
//! Games never wait for each other: each game thread has a slot of its own (a hub holding
//! only that game, behind its own lock), so commands on one game are serialised while
//! commands on different games run side by side. Tournaments share one lock (they are few and
//! their commands rare); a command in a match thread takes its game's lock first and the
//! tournaments' second, never the other way round.
//!
//! Games load on demand: a slot reads its game from the database when first needed and is
//! dropped when idle (or finished), so memory grows with the games in play. Before each
//! command the stored version is checked, as it always was, so two processes writing one game
//! never act on a stale copy. Timers are found through each game's next due time, stored with
//! it: the sweep loads only the games whose timers fall due.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::Mutex;

mod anywhere;
mod ratings;
mod replay;
mod vacation;

pub use ratings::{stats_line, summarize, Summary, GAMES as RATED_GAMES};
pub use replay::ReplayGuard;

use crate::commands::{Caller, Command, Due, Hub, Notify, PictureJob, Reply, ThreadGame};
use crate::layer::attention::{read_nowait_button, Attention};
use crate::layer::remind;
use crate::store::{LogLine, Store, StoreError, TournamentRows};
use crate::time::Timestamp;

/// How often a command is re-checked after losing a write race. Sixteen: a burst of signups
/// split between two processes can lose one race per command of the other process (nine in
/// `tests/storage.rs`), and eight was seen to run out on PostgreSQL.
const RETRIES: usize = 16;

/// What one attempt at a change came to (see [`retrying`]).
enum Attempt<T> {
    /// The answer: the change was committed, refused, or failed for good.
    Done(T),
    /// Another writer got there first (the state is read again): check again.
    Lost,
}

/// A write that was not saved ([`Service::settle`]).
#[derive(Debug)]
enum Unsaved {
    /// Another writer got there first.
    Lost,
    /// The store failed.
    Failed(StoreError),
}

impl Unsaved {
    /// `Ok(())` for a saved write; otherwise why not, logged.
    fn of(saved: Result<bool, StoreError>, thread: &str) -> Result<(), Unsaved> {
        match saved {
            Ok(true) => Ok(()),
            Ok(false) => {
                tracing::debug!(thread, "lost a write race; re-checking");
                Err(Unsaved::Lost)
            }
            Err(e) => {
                tracing::error!(error = %e, thread, "storage failed");
                Err(Unsaved::Failed(e))
            }
        }
    }

    /// For the retry loop: a lost race is tried again; a failure is answered with `failed`.
    fn retry_or<T>(self, failed: impl FnOnce(&StoreError) -> T) -> Attempt<T> {
        match self {
            Unsaved::Lost => Attempt::Lost,
            Unsaved::Failed(e) => Attempt::Done(failed(&e)),
        }
    }
}

/// The commit-and-retry loop every change goes through: `$attempt`, an async block that
/// evaluates to an [`Attempt`], runs until it is [`Attempt::Done`], at most [`RETRIES`]
/// times; when every attempt lost its write race, `$exhausted` is the answer.
///
/// A macro rather than a function taking an async closure: the future of an async closure
/// called in a generic function cannot be shown to be `Send` (rustc reports "implementation
/// of `Send` is not general enough"), and the Discord front end runs these on tokio's threads.
macro_rules! retrying {
    ($attempt:expr, $exhausted:expr $(,)?) => {{
        let mut answer = None;
        for _ in 0..RETRIES {
            if let Attempt::Done(a) = $attempt.await {
                answer = Some(a);
                break;
            }
        }
        match answer {
            Some(a) => a,
            None => $exhausted,
        }
    }};
}

/// How long an untouched game stays in memory (finished games: [`FINISHED_IDLE`]).
pub const IDLE: Duration = Duration::from_secs(10 * 60);

/// How long an untouched finished game stays in memory.
pub const FINISHED_IDLE: Duration = Duration::from_secs(60);

/// A game with a revert confirmation shown stays in memory this long (the confirmation lives
/// in memory only; shared rules 7.3 give it 15 minutes).
const BUTTON_KEEP: Duration = Duration::from_secs(16 * 60);

/// How often the timer sweep runs (the Discord front end's ticker): a timer is announced
/// within this long of falling due.
pub const TICK: Duration = Duration::from_secs(2);

/// A timer announced this long after it fell due is late (the bot was away).
const LATE: Timestamp = 60;

/// A listed event's text is cut to this many characters (a post stays well within
/// Discord's 2,000).
const CATCH_UP_WIDTH: usize = 140;

/// What players see of one game's timers found by a sweep: one post per timer, as they fell
/// due; a timer more than a minute late says so.
///
/// Ruling (catch-up summary): when one sweep finds two or more late timers in a game (the bot
/// was away while a day of turn limits, default plays or vote closings ran out), the game
/// gets one post instead of one per timer: a line counting them with the first and last
/// time, every one of them listed one line each (each default play named with its number;
/// a long post goes out as a file, like any long text), then the last one's own
/// announcement, which says where the game stands now and notifies only whoever must act
/// now. Nobody is pinged for the timers in the list.
pub fn catch_up(dues: Vec<Due>, now: Timestamp) -> Vec<Notify> {
    // Reminders are each their own message to their one user, after the game's own timers.
    let (reminders, dues): (Vec<Due>, Vec<Due>) =
        dues.into_iter().partition(|d| remind::is_reminder(d.seat));
    let mut out = own_timers(dues, now);
    out.extend(reminders.into_iter().map(|d| marked_late(d, now)));
    out
}

/// A timer's message, saying so if it fell due more than a minute ago.
fn marked_late(d: Due, now: Timestamp) -> Notify {
    if now > d.at + LATE {
        d.notify.append(&format!(
            " (late: this fell due at {} while the bot was away)",
            crate::time::stamp(d.at, crate::time::Style::Full)
        ))
    } else {
        d.notify
    }
}

/// [`catch_up`] of a game's own timers.
fn own_timers(mut dues: Vec<Due>, now: Timestamp) -> Vec<Notify> {
    let late = dues.iter().filter(|d| now > d.at + LATE).count();
    if late < 2 {
        return dues.into_iter().map(|d| marked_late(d, now)).collect();
    }
    dues.sort_by_key(|d| d.at);
    let n = dues.len();
    let (Some(first), Some(last)) = (dues.first().map(|d| d.at), dues.last().map(|d| d.at)) else {
        return Vec::new();
    };
    let stamp = |t| crate::time::stamp(t, crate::time::Style::Full);
    let mut head = vec![format!(
        "While the bot was away, {n} timers fell due in this game, from {} to {}:",
        stamp(first),
        stamp(last)
    )];
    let line = |d: &Due| {
        let text = d.notify.text().replace('\n', " — ");
        let text = match text.char_indices().nth(CATCH_UP_WIDTH) {
            Some((cut, _)) => format!("{}…", &text[..cut]),
            None => text,
        };
        format!("• {}: {text}", stamp(d.at))
    };
    head.extend(dues.iter().map(line));
    head.push("Now:".to_string());
    let last = dues
        .into_iter()
        .next_back()
        .map(|d| d.notify)
        .unwrap_or_default();
    vec![last.beneath(head.join("\n"))]
}

/// One game thread's state: a hub holding only this thread's game, and what the service
/// knows about its stored copy.
#[derive(Default)]
struct Cell {
    hub: Hub,
    /// Stored version of the game (`None`: none stored).
    version: Option<i64>,
    /// Whether `hub` and `version` were read from the database (a new slot has not).
    synced: bool,
    /// Timers handled up to here.
    swept: Timestamp,
    /// The tournament this thread is a match of, once looked up.
    owner: Owner,
    /// The Discord server of its thread, as stored (vacations are a server's).
    guild: Option<String>,
}

/// Which tournament, if any, a game thread is a match of, as far as its slot knows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
enum Owner {
    /// Not looked up yet.
    #[default]
    Unknown,
    /// Looked up: a game of no tournament (a match's link is stored before its game, so a
    /// game without one never gets one).
    NoTournament,
    /// A match of the tournament in this thread.
    Tournament(String),
}

/// A thread's slot: its cell behind the lock that serialises the thread's commands.
#[derive(Default)]
struct Slot {
    cell: Mutex<Cell>,
}

/// A slot in the map, with what eviction looks at.
struct Entry {
    slot: Arc<Slot>,
    used: Instant,
    finished: bool,
}

/// Tournaments, with their stored versions.
#[derive(Default)]
struct Tours {
    hub: Hub,
    /// Stored version of each tournament, and its rows at that version.
    versions: HashMap<String, (i64, TournamentRows)>,
}

/// Revert confirmations: the ids shown (numbered across the process, as before) and the
/// thread and hub-local id each stands for.
#[derive(Default)]
struct Buttons {
    next: u64,
    ids: HashMap<String, (String, String, Instant)>,
}

/// Where the time of one command went (for the benchmark's breakdown).
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    /// Reading the game (version check, load on demand) and waiting for its lock.
    pub load: Duration,
    /// The command layer: parsing, legality, applying.
    pub handle: Duration,
    /// The database commit.
    pub commit: Duration,
}

pub use crate::cpu::CpuTiming;

/// A command's answer with what the front end shows next, taken under the game's lock right
/// after the commit (so nothing is read or drawn twice).
pub struct Handled {
    /// The reply.
    pub reply: Reply,
    /// The picture of the game after an accepted action, if asked for (drawn by
    /// [`Service::cpu`]).
    pub picture: Option<PictureJob>,
    /// The game's `/status` text after the command (for the pinned status message).
    pub status: Option<String>,
    /// The game's users (whose ids become mentions); `None` outside a game thread.
    pub users: Option<Vec<String>>,
    /// Where the time went.
    pub timing: Timing,
}

impl Handled {
    fn plain(reply: Reply) -> Handled {
        Handled {
            reply,
            picture: None,
            status: None,
            users: None,
            timing: Timing::default(),
        }
    }
}

/// What the caller of a command shows after it, besides the reply (see [`Service::run`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shows {
    /// The reply only ([`Service::handle`]).
    Reply,
    /// Also the game's status and users, as the command left them.
    Status,
    /// Also the picture of an accepted action, when the game pictures the command.
    Picture,
}

impl Shows {
    /// What a front end shows: the status, and the picture when it draws pictures.
    fn front_end(picture: bool) -> Shows {
        if picture {
            Shows::Picture
        } else {
            Shows::Status
        }
    }
}

/// The command layer plus its database.
pub struct Service {
    store: Option<Store>,
    slots: StdMutex<HashMap<String, Entry>>,
    tours: Mutex<Tours>,
    buttons: StdMutex<Buttons>,
    /// Timers announced (in memory; the database's `timers_fired` is the real guard).
    notified: StdMutex<HashSet<(String, usize, Timestamp)>>,
    /// CPU work (pictures): one low-priority thread per core, started when first needed.
    pictures: std::sync::OnceLock<crate::cpu::Pool>,
    idle: StdMutex<(Duration, Duration)>,
    loads: AtomicU64,
    /// Players' settings, dismissed waits and resumed games: the store's (read from the
    /// database), or the service's own without one.
    attention: crate::store::Shared<Attention>,
    /// Threads whose game's replay is being drawn (one at a time per game: `replay.rs`).
    replaying: StdMutex<HashSet<String>>,
    /// What the ratings read of each game, by thread, with its version (`ratings.rs`).
    summaries: StdMutex<HashMap<String, Arc<Summary>>>,
    /// The ratings last computed, by game kind and server, with the fingerprint of the games
    /// and versions they were computed from (`ratings.rs`).
    tables: StdMutex<HashMap<(String, Option<String>), ratings::Kept>>,
}

/// The line `/status` starts with while a game is paused.
fn paused_line(
    game: &dyn ThreadGame,
    thread: &str,
    att: &Attention,
    now: Timestamp,
) -> Option<String> {
    let since = remind::paused(game, thread, att, now)?;
    Some(format!(
        "paused since {} ({}): limits and reminders stop until a player acts or the organiser uses /resume",
        crate::time::stamp(since, crate::time::Style::Full),
        crate::time::stamp(since, crate::time::Style::Relative)
    ))
}

/// A game a timer ended: its kind (`variant`) and server, for its rating changes.
type Ended = Option<(&'static str, Option<String>)>;

/// A snapshot of a game's log, to find what a command changed.
struct Before {
    existed: bool,
    /// The game was over.
    finished: bool,
    len: usize,
    reverted: Vec<bool>,
    /// The conditional moves, as stored.
    book: String,
    /// Who plays each seat.
    users: Vec<String>,
}

fn before(hub: &Hub, thread: &str) -> Before {
    match hub.game(thread) {
        Some(g) => Before {
            existed: true,
            finished: g.finished(),
            len: g.log_len(),
            reverted: g.reverted(),
            book: hub.book_json(thread),
            users: g.users(),
        },
        None => Before {
            existed: false,
            finished: false,
            len: 0,
            reverted: Vec::new(),
            book: String::new(),
            users: Vec::new(),
        },
    }
}

/// How the reply of a logged refusal (a draft choice handed over to the other team) is stored
/// with its interaction, so that a repeated delivery is answered as a refusal again.
const REFUSED: &str = "refused: ";

/// The reply text stored with a command's interaction.
fn stored_reply(reply: &Reply) -> String {
    if reply.ok == Some(false) {
        format!("{REFUSED}{}", reply.text)
    } else {
        reply.text.clone()
    }
}

/// The answer to a repeated delivery of an interaction already applied.
fn replayed(text: String) -> Reply {
    match text.strip_prefix(REFUSED) {
        Some(refusal) => Reply {
            ok: Some(false),
            text: refusal.to_string(),
            ephemeral: true,
            ..Reply::default()
        },
        None => Reply {
            ok: Some(true),
            text,
            ..Reply::default()
        },
    }
}

fn internal_error(e: &StoreError) -> Reply {
    tracing::error!(error = %e, "storage failed");
    Reply {
        ok: Some(false),
        text: "the bot could not save this; nothing was changed. Please try again in a moment"
            .into(),
        ephemeral: true,
        ..Reply::default()
    }
}

/// The answer to a command whose handling panicked (issue 54): the game is read back from
/// its log, unchanged.
pub const PANICKED: &str = "something went wrong on our side; the game is unchanged";

/// What a panic carried, for the log.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

/// Runs a game's handling, catching a panic in it (issue 54: a panic never escapes one
/// command): `Err` after logging it at error level with the thread and the command.
fn guarded<T>(thread: &str, command: &str, f: impl FnOnce() -> T) -> Result<T, ()> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|panic| {
        let command: String = command.chars().take(200).collect();
        tracing::error!(
            thread,
            command,
            panic = %panic_text(&*panic),
            "a game's handling panicked; the game is read back from its log"
        );
    })
}

/// A game as it was before a command, for a service without a database to put back after a
/// panic (with one, the game is read back from its log).
struct Snapshot(Option<(Option<Box<dyn ThreadGame>>, String)>);

impl Snapshot {
    fn take(svc: &Service, cell: &Cell, thread: &str) -> Snapshot {
        Snapshot(svc.store.is_none().then(|| {
            (
                cell.hub.game(thread).map(|g| g.clone_box()),
                cell.hub.book_json(thread),
            )
        }))
    }
}

/// Locks a std mutex; a panic elsewhere while it was held does not make the state unusable.
fn lock<T>(m: &StdMutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Whether a command belongs to the tournaments (handled under their lock).
fn is_tournament_command(name: &str) -> bool {
    matches!(name, "signup" | "withdraw" | "tournament") || name.starts_with("tournament ")
}

/// How many pictures may be drawn at once: the cores there are.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
}

impl Service {
    fn new(store: Option<Store>) -> Service {
        Service {
            attention: store.as_ref().map(Store::attention).unwrap_or_default(),
            store,
            slots: StdMutex::default(),
            tours: Mutex::default(),
            buttons: StdMutex::default(),
            notified: StdMutex::default(),
            pictures: std::sync::OnceLock::new(),
            idle: StdMutex::new((IDLE, FINISHED_IDLE)),
            loads: AtomicU64::new(0),
            replaying: StdMutex::default(),
            summaries: StdMutex::default(),
            tables: StdMutex::default(),
        }
    }

    /// A service without a database (everything in memory, never evicted).
    pub fn in_memory() -> Service {
        Service::new(None)
    }

    /// A service over a database. Tournaments are loaded now; games are loaded on demand.
    ///
    /// # Errors
    /// The database cannot be read.
    pub async fn with_store(store: Store) -> Result<Service, StoreError> {
        let svc = Service::new(Some(store));
        svc.load_all().await?;
        Ok(svc)
    }

    /// The store, if any.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// Sets how long untouched games (and untouched finished games) stay in memory.
    pub fn set_idle(&self, idle: Duration, finished: Duration) {
        *lock(&self.idle) = (idle, finished);
    }

    /// (Re)loads every stored tournament (games are loaded on demand); returns how many.
    ///
    /// # Errors
    /// The database cannot be read.
    pub async fn load_all(&self) -> Result<usize, StoreError> {
        let Some(store) = &self.store else {
            return Ok(0);
        };
        let tournaments = store.tournament_threads().await?;
        let mut tours = self.tours.lock().await;
        for t in &tournaments {
            if let Some((tour, version)) = store.load_tournament(t).await? {
                let rows = TournamentRows::of(&tour)?;
                tours.hub.insert_tournament(tour);
                tours.versions.insert(t.clone(), (version, rows));
            }
        }
        tracing::info!(
            tournaments = tournaments.len(),
            "tournaments loaded from storage; games load on demand"
        );
        Ok(tournaments.len())
    }

    /// Games in memory now.
    pub fn loaded_games(&self) -> usize {
        lock(&self.slots).len()
    }

    /// Games read from the database so far.
    pub fn loads(&self) -> u64 {
        self.loads.load(Ordering::Relaxed)
    }

    /// The slot of a thread (created empty if there is none), marked as used now.
    fn slot(&self, thread: &str) -> Arc<Slot> {
        let mut slots = lock(&self.slots);
        let e = slots.entry(thread.to_string()).or_insert_with(|| Entry {
            slot: Arc::default(),
            used: Instant::now(),
            finished: false,
        });
        e.used = Instant::now();
        e.slot.clone()
    }

    /// The players' settings, dismissed waits and resumed games as they stand.
    fn attention(&self) -> std::sync::Arc<Attention> {
        lock(&self.attention).clone()
    }

    /// `/notify`: shows the caller's notification settings, or changes those named.
    async fn notify(&self, caller: &Caller<'_>, cmd: &Command) -> Reply {
        let user = caller.user;
        let now = self.attention().prefs(user);
        if let Err(e) = crate::commands::declare::check(cmd) {
            return Reply::refused(e);
        }
        let changing = !cmd.options.is_empty();
        if !changing {
            return Reply {
                ephemeral: true,
                ..Reply::ok(format!(
                    "your notifications: {}\nchange them with /notify reminders:on|off after:<duration> quiet:<HH-HH>|off zone:<IANA zone or ±HH:MM>",
                    now.describe()
                ))
            };
        }
        let new = match now.changed(cmd) {
            Ok(p) => p,
            Err(e) => return Reply::refused(e),
        };
        match &self.store {
            Some(store) => {
                if let Err(e) = store.set_prefs(user, &new).await {
                    return internal_error(&e);
                }
            }
            None => {
                std::sync::Arc::make_mut(&mut lock(&self.attention)).set_prefs(user, new.clone())
            }
        }
        tracing::info!(user, prefs = ?new, "notification settings changed");
        Reply {
            ephemeral: true,
            ..Reply::ok(format!("your notifications: {}", new.describe()))
        }
    }

    /// "not waiting on me" on a reminder: no more reminders for that wait.
    async fn not_waiting_on_me(
        &self,
        user: &str,
        thread: &str,
        waited: &str,
        since: Timestamp,
    ) -> Reply {
        if user != waited {
            return Reply::refused("this reminder is someone else's; only they can say the game is not waiting on them");
        }
        if self.attention().dismissed(thread, user, since) {
            return Reply::refused("already noted: no more reminders for this wait");
        }
        match &self.store {
            Some(store) => {
                if let Err(e) = store.dismiss(thread, user, since).await {
                    return internal_error(&e);
                }
            }
            None => {
                std::sync::Arc::make_mut(&mut lock(&self.attention)).dismiss(thread, user, since);
            }
        }
        tracing::info!(user, thread, since, "not waiting on me");
        Reply {
            ephemeral: true,
            ..Reply::ok("noted: no more reminders for this wait; you will be pinged as usual when something new is asked of you")
        }
    }

    /// `/resume` of a game the layer paused (nobody acted for its stall time): the
    /// organiser (or the game's creator) resumes it, and reminders start again from now.
    /// `None` when the layer did not pause it (the game's own `/resume`, if it has one, runs).
    async fn layer_resume(&self, hub: &Hub, caller: &Caller<'_>) -> Option<Reply> {
        let thread = caller.thread;
        let game = hub.game(thread)?;
        let att = self.attention();
        let now = caller.now;
        let since = remind::paused(game, thread, &att, now);
        if game.stalled(now).is_some() {
            return None;
        }
        let Some(since) = since else {
            // Not paused: the game's own /resume (a Nomic Referee's), or a refusal.
            let variant = game.kind().variant;
            let owns = crate::commands::declare::all()
                .any(|d| d.path == "resume" && d.games.contains(&variant));
            return (!owns).then(|| Reply::refused("this game is not paused"));
        };
        let organiser = game.organiser();
        if !caller.roles.organiser && organiser.as_deref() != Some(caller.user) {
            return Some(Reply::refused(
                "only the organiser may resume a paused game (or any player, by playing)",
            ));
        }
        match &self.store {
            Some(store) => {
                if let Err(e) = store.resume(thread, now).await {
                    return Some(internal_error(&e));
                }
            }
            None => std::sync::Arc::make_mut(&mut lock(&self.attention)).resume(thread, now),
        }
        tracing::info!(thread, user = caller.user, "resumed");
        Some(Reply::ok(format!(
            "resumed: the game was paused since {}; reminders run again from now",
            crate::time::stamp(since, crate::time::Style::Full)
        )))
    }

    /// Records the Discord server a game's thread is in (the front end knows it), so that
    /// `/mygames` there lists it. Failures are logged: the game stands.
    pub async fn set_guild(&self, thread: &str, guild: &str) {
        if let Some(store) = &self.store {
            if let Err(e) = store.set_guild(thread, guild).await {
                tracing::error!(error = %e, thread, "cannot record the game's server");
            }
        }
    }

    /// `/mygames`: the games in play that wait on the caller, most urgent first (the earliest
    /// deadline, then the longest wait), then the other games they play, with whom those
    /// wait on. Each game is read under its own lock, one at a time.
    async fn my_games(&self, caller: &Caller<'_>) -> Reply {
        self.my_games_on(caller, None).await
    }

    /// `/mygames` on one Discord server (`guild`): its games, and those stored without a
    /// server (before issue 41, or made on the console); every game when `None`.
    pub async fn my_games_on(&self, caller: &Caller<'_>, guild: Option<&str>) -> Reply {
        let (user, now) = (caller.user, caller.now);
        let att = self.attention();
        let games = self
            .games_of(user, guild, |thread, game, server| {
                crate::commands::MyGame {
                    thread: thread.to_string(),
                    title: game.kind().title,
                    waits: game.waits(now),
                    paused: remind::paused(game, thread, &att, now),
                    away: att.away(&game.users(), server).away_at(now),
                }
            })
            .await;
        let mut reply = match games {
            Ok(games) => crate::commands::my_games_reply(user, games),
            Err(e) => return internal_error(&e),
        };
        // The second part, for those who run games: those that need looking at.
        match self.games_run_by(caller, guild).await {
            Ok(run) => {
                let lines = crate::commands::games_you_run(&run);
                if !lines.is_empty() {
                    reply.text = format!("{}\n{}", reply.text, lines.join("\n"));
                }
            }
            Err(e) => tracing::error!(error = %e, "storage failed"),
        }
        reply
    }

    /// The games in play that `caller` runs (organises, or officiates as a Chess-Umpire or a
    /// Referee) on one server (`guild`; every game when `None`), as `/mygames` reads them for
    /// its part `games you run`. Each game is read under its own lock, one at a time.
    ///
    /// # Errors
    /// The games cannot be listed.
    async fn games_run_by(
        &self,
        caller: &Caller<'_>,
        guild: Option<&str>,
    ) -> Result<Vec<crate::commands::RunGame>, StoreError> {
        let (user, now) = (caller.user, caller.now);
        let att = self.attention();
        let threads = match &self.store {
            Some(store) => Some(store.unfinished_threads_run_by(user, guild).await?),
            None => None,
        };
        let runs = |game: &dyn ThreadGame| {
            game.organiser().as_deref() == Some(user) || game.officials().iter().any(|o| o == user)
        };
        let mention = format!("@{user}");
        let out = self
            .each_game(threads, runs, |thread, game, _| {
                let waits = game.waits(now);
                let since = waits.iter().map(|w| w.since).min().unwrap_or(now);
                // A timer since the waits began that asked the caller to act: a limit overrun.
                let overdue = game
                    .due(since, now)
                    .into_iter()
                    .filter(|d| d.notify.users().iter().any(|u| u == user))
                    .filter_map(|d| {
                        let text = d.notify.text();
                        let line = text.lines().find(|l| {
                            l.split_once(": ")
                                .is_some_and(|(who, _)| who.split(' ').any(|w| w == mention))
                        })?;
                        Some((d.at, line.split_once(": ")?.1.to_string()))
                    })
                    .collect();
                crate::commands::RunGame {
                    thread: thread.to_string(),
                    title: game.kind().title,
                    paused: remind::paused(game, thread, &att, now),
                    overdue,
                    unstarted: game.log_len() <= 1,
                    waits,
                }
            })
            .await;
        Ok(out)
    }

    /// Reads each game in play that `user` plays on one Discord server (`guild`; every game
    /// when `None`), under its own lock, one at a time, in the order of their threads: `read`
    /// gets the thread, the game and its server.
    ///
    /// # Errors
    /// The games cannot be listed (one that cannot be read is logged and passed over).
    async fn games_of<T>(
        &self,
        user: &str,
        guild: Option<&str>,
        read: impl FnMut(&str, &dyn ThreadGame, Option<&str>) -> T,
    ) -> Result<Vec<T>, StoreError> {
        let threads = match &self.store {
            Some(store) => Some(store.unfinished_threads_on(user, guild).await?),
            None => None,
        };
        let plays = |game: &dyn ThreadGame| game.users().iter().any(|u| u == user);
        Ok(self.each_game(threads, plays, read).await)
    }

    /// Reads each of `threads` (every game in memory when `None`, as without a database) whose
    /// game is in play and `keep`s, under its own lock, one at a time, in thread order: `read`
    /// gets the thread, the game and its server. A game that cannot be read is logged and
    /// passed over.
    async fn each_game<T>(
        &self,
        threads: Option<Vec<String>>,
        keep: impl Fn(&dyn ThreadGame) -> bool,
        mut read: impl FnMut(&str, &dyn ThreadGame, Option<&str>) -> T,
    ) -> Vec<T> {
        let mut threads = threads.unwrap_or_else(|| lock(&self.slots).keys().cloned().collect());
        threads.sort();
        threads.dedup();
        let mut out = Vec::new();
        for thread in threads {
            let slot = self.slot(&thread);
            let mut cell = slot.cell.lock().await;
            if let Err(e) = self.sync(&mut cell, &thread).await {
                tracing::error!(error = %e, thread, "storage failed");
                continue;
            }
            if let Some(game) = cell.hub.game(&thread) {
                if !game.finished() && keep(game) {
                    out.push(read(&thread, game, cell.guild.as_deref()));
                }
            }
        }
        out
    }

    /// After a committed command: the game's summary for the ratings is noted and, when the
    /// command ended the game, its end-of-game message tells the rating changes.
    async fn rated(&self, cell: &Cell, thread: &str, was_finished: bool, reply: &mut Reply) {
        let Some(g) = cell.hub.game(thread) else {
            return;
        };
        let guild = cell.guild.as_deref();
        self.note_summary(thread, g, cell.version, guild);
        if !was_finished && g.finished() && reply.notify.is_some() {
            if let Some(line) = self.changes_line(thread, g.kind().variant, guild).await {
                reply.notify = reply.notify.take().map(|n| n.append(&format!("\n{line}")));
            }
        }
    }

    /// Notes what eviction needs of a slot after a command.
    fn touched(&self, thread: &str, cell: &Cell) {
        if let Some(e) = lock(&self.slots).get_mut(thread) {
            e.used = Instant::now();
            e.finished = cell.hub.game(thread).is_some_and(|g| g.finished());
        }
    }

    /// Forgets the confirmations shown in a thread (its hub has dropped them: an action was
    /// logged there, or one was used).
    fn drop_buttons(&self, thread: &str) {
        lock(&self.buttons).ids.retain(|_, (t, _, _)| t != thread);
    }

    /// Drops the games not used for a while (finished ones sooner) from memory; they are
    /// read again when needed. Games held by a command, or with a revert confirmation
    /// showing, stay. Without a database nothing is dropped. Returns how many left.
    pub fn evict_idle(&self) -> usize {
        let (idle, finished) = *lock(&self.idle);
        self.evict(idle, finished)
    }

    /// [`Service::evict_idle`] with these limits.
    pub fn evict(&self, idle: Duration, finished: Duration) -> usize {
        if self.store.is_none() {
            return 0;
        }
        let showing: HashSet<String> = lock(&self.buttons)
            .ids
            .values()
            .filter(|(_, _, at)| at.elapsed() < BUTTON_KEEP)
            .map(|(t, _, _)| t.clone())
            .collect();
        let mut slots = lock(&self.slots);
        let before = slots.len();
        slots.retain(|thread, e| {
            let in_use = Arc::strong_count(&e.slot) > 1 || e.slot.cell.try_lock().is_err();
            let limit = if e.finished { finished.min(idle) } else { idle };
            in_use || showing.contains(thread) || e.used.elapsed() < limit
        });
        let gone = before - slots.len();
        if gone > 0 {
            tracing::debug!(
                evicted = gone,
                loaded = slots.len(),
                "idle games left memory"
            );
        }
        gone
    }

    /// Runs CPU work (a picture) on one of the picture threads (one per core, at a lower
    /// priority than the async executor: [`crate::cpu`]), so a burst never starves the
    /// gateway or the first responses, which go out before it.
    ///
    /// # Errors
    /// The work panicked.
    pub async fn cpu<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<(T, CpuTiming), tokio::task::JoinError> {
        self.pictures
            .get_or_init(|| crate::cpu::Pool::new(cores()))
            .run(work)
            .await
    }

    /// Draws the warm-up pictures ([`crate::render::warm_up`]) on the picture threads, one
    /// job each, so a command's picture queues behind at most one of them; the first move of
    /// each game then finds its pieces drawn. Run once as the bot starts.
    pub async fn warm_pictures(&self) {
        let started = std::time::Instant::now();
        for step in 0..crate::games::pictures::WARM_PICTURES {
            match self
                .cpu(move || crate::games::pictures::warm_up(step))
                .await
            {
                Ok((Some(Ok(())), _)) => {}
                Ok((None, _)) => break,
                Ok((Some(Err(e)), _)) => {
                    tracing::warn!(step, error = %e, "a warm-up picture failed");
                }
                Err(e) => tracing::warn!(step, error = %e, "a warm-up picture panicked"),
            }
        }
        tracing::info!(
            ms = started.elapsed().as_millis() as u64,
            "picture caches warmed"
        );
    }

    // ----- tournaments -------------------------------------------------------------------

    /// Brings one thread's tournament up to date with the database.
    async fn sync_tournament(&self, tours: &mut Tours, thread: &str) -> Result<(), StoreError> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let stored = store.tournament_version(thread).await?;
        if stored == tours.versions.get(thread).map(|v| v.0) {
            return Ok(());
        }
        match store.load_tournament(thread).await? {
            Some((t, version)) => {
                let rows = TournamentRows::of(&t)?;
                tours.hub.insert_tournament(t);
                tours.versions.insert(thread.to_string(), (version, rows));
            }
            None => {
                tours.hub.remove_tournament(thread);
                tours.versions.remove(thread);
            }
        }
        Ok(())
    }

    /// Saves a tournament's changes. `Ok(false)`: another writer won; reload and retry.
    async fn persist_tournament(
        &self,
        tours: &mut Tours,
        thread: &str,
        log: Option<LogLine<'_>>,
    ) -> Result<bool, StoreError> {
        let Some(store) = &self.store else {
            return Ok(true);
        };
        let Some(t) = tours.hub.tournament(thread) else {
            return Ok(true);
        };
        if !tours.versions.contains_key(thread) {
            if !store.create_tournament(t).await? {
                return Ok(false);
            }
            tours
                .versions
                .insert(thread.to_string(), (0, TournamentRows::default()));
        }
        let Some((expected, old)) = tours.versions.get(thread) else {
            return Ok(true);
        };
        if TournamentRows::of(t)? == *old && *expected > 0 {
            return Ok(true);
        }
        match store.save_tournament(t, *expected, old, log).await {
            Ok((v, rows)) => {
                tours.versions.insert(thread.to_string(), (v, rows));
                Ok(true)
            }
            Err(StoreError::Conflict) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Undoes an unsaved tournament change by reloading it.
    async fn discard_tournament(&self, tours: &mut Tours, thread: &str) {
        tours.versions.remove(thread);
        tours.hub.remove_tournament(thread);
        if let Err(e) = self.sync_tournament(tours, thread).await {
            tracing::error!(error = %e, thread, "reload after a failed write failed");
        }
    }

    /// The tournament a game thread is a match of, looked up once per slot.
    async fn match_owner(
        &self,
        cell: &mut Cell,
        tours: &mut Tours,
        thread: &str,
    ) -> Result<Option<String>, StoreError> {
        if let Some(owner) = tours.hub.tournament_of_match(thread) {
            return Ok(Some(owner));
        }
        match &cell.owner {
            Owner::Unknown => {}
            Owner::NoTournament => return Ok(None),
            Owner::Tournament(t) => return Ok(Some(t.clone())),
        }
        let Some(store) = &self.store else {
            return Ok(None);
        };
        // A match's link is stored before its game, so a game without a link now never
        // gets one.
        let owner = store.tournament_of_match(thread).await?;
        if let Some(o) = &owner {
            tours.hub.link_match(thread, o);
        }
        cell.owner = match &owner {
            Some(o) => Owner::Tournament(o.clone()),
            None => Owner::NoTournament,
        };
        Ok(owner)
    }

    /// `/substitute` in a match thread: why its tournament refuses `by:` (on another team,
    /// or seated in another of its running matches); `None` outside a match or when allowed.
    async fn match_seat_refusal(
        &self,
        cell: &mut Cell,
        thread: &str,
        cmd: &Command,
    ) -> Option<String> {
        let mention = |k: &str| {
            cmd.opt(k).map(|v| {
                v.trim()
                    .trim_start_matches("<@")
                    .trim_start_matches('@')
                    .trim_end_matches('>')
                    .to_string()
            })
        };
        let (player, by) = (mention("player")?, mention("by")?);
        if cell.owner == Owner::NoTournament || cell.hub.game(thread).is_none() {
            return None;
        }
        let mut tours = self.tours.lock().await;
        let owner = match self.match_owner(cell, &mut tours, thread).await {
            Ok(o) => o?,
            Err(e) => {
                tracing::error!(error = %e, thread, "match lookup failed");
                return None;
            }
        };
        if let Err(e) = self.sync_tournament(&mut tours, &owner).await {
            tracing::error!(error = %e, "storage failed");
        }
        tours
            .hub
            .tournament(&owner)
            .and_then(|t| t.match_substitute_refusal(thread, &player, &by))
    }

    /// After an action in a match thread: the tournament takes the game's result (a separate
    /// write, retried until it lands; the game's own write is already done).
    async fn reconcile(&self, cell: &mut Cell, thread: &str, now: Timestamp, reply: &mut Reply) {
        if cell.owner == Owner::NoTournament || cell.hub.game(thread).is_none() {
            return;
        }
        let mut tours = self.tours.lock().await;
        let owner = match self.match_owner(cell, &mut tours, thread).await {
            Ok(Some(o)) => o,
            Ok(None) => return,
            Err(e) => {
                tracing::error!(error = %e, thread, "match lookup failed");
                return;
            }
        };
        let Some(game) = cell.hub.game(thread).map(|g| g.clone_box()) else {
            return;
        };
        retrying!(
            async {
                if let Err(e) = self.sync_tournament(&mut tours, &owner).await {
                    tracing::error!(error = %e, "storage failed");
                    return Attempt::Done(());
                }
                tours.hub.insert_game(thread, game.clone());
                let news = tours.hub.reconcile_match(thread, now);
                tours.hub.remove_game(thread);
                let saved = self.persist_tournament(&mut tours, &owner, None).await;
                match Unsaved::of(saved, &owner) {
                    Ok(()) => {
                        if let Some(n) = news {
                            reply.notices.push(n);
                        }
                        Attempt::Done(())
                    }
                    Err(unsaved) => {
                        self.discard_tournament(&mut tours, &owner).await;
                        unsaved.retry_or(|_| ())
                    }
                }
            },
            ()
        );
    }

    /// Opens a paired match in `match_thread` (created by the front end): the tournament
    /// notes the thread, then the game is created with its draft. Safe to repeat.
    pub async fn open_match(
        &self,
        tournament: &str,
        round: u32,
        board: u32,
        match_thread: &str,
        now: Timestamp,
    ) -> Reply {
        let slot = self.slot(match_thread);
        let mut cell = slot.cell.lock().await;
        let mut tours = self.tours.lock().await;
        let reply = self
            .open_match_locked(
                &mut cell,
                &mut tours,
                tournament,
                round,
                board,
                match_thread,
                now,
            )
            .await;
        self.touched(match_thread, &cell);
        reply
    }

    #[allow(clippy::too_many_arguments)]
    async fn open_match_locked(
        &self,
        cell: &mut Cell,
        tours: &mut Tours,
        tournament: &str,
        round: u32,
        board: u32,
        match_thread: &str,
        now: Timestamp,
    ) -> Reply {
        retrying!(
            async {
                if let Err(e) = self.sync_tournament(tours, tournament).await {
                    return Attempt::Done(internal_error(&e));
                }
                if let Err(e) = self.sync(cell, match_thread).await {
                    return Attempt::Done(internal_error(&e));
                }
                let was = before(&cell.hub, match_thread);
                if let Some(g) = cell.hub.game(match_thread) {
                    tours.hub.insert_game(match_thread, g.clone_box());
                }
                let reply = tours
                    .hub
                    .open_match(tournament, round, board, match_thread, now);
                if let Some(g) = tours.hub.game(match_thread) {
                    cell.hub.insert_game(match_thread, g.clone_box());
                }
                tours.hub.remove_game(match_thread);
                if reply.ok != Some(true) {
                    return Attempt::Done(reply);
                }
                cell.owner = Owner::Tournament(tournament.to_string());
                match self.persist_tournament(tours, tournament, None).await {
                    Ok(true) => {}
                    Ok(false) => {
                        self.discard_tournament(tours, tournament).await;
                        self.discard(cell, match_thread).await;
                        return Attempt::Lost;
                    }
                    Err(e) => {
                        self.discard_tournament(tours, tournament).await;
                        self.discard(cell, match_thread).await;
                        return Attempt::Done(internal_error(&e));
                    }
                }
                let saved = self
                    .persist(cell, match_thread, &was, now, None, &reply)
                    .await;
                match self.settle(saved, cell, match_thread).await {
                    Ok(()) => Attempt::Done(reply),
                    Err(unsaved) => unsaved.retry_or(internal_error),
                }
            },
            internal_error(&StoreError::Conflict)
        )
    }

    /// Runs `f` on a tournament (for pictures and exports).
    pub async fn with_tournament<T>(
        &self,
        thread: &str,
        f: impl FnOnce(&crate::tournament::Tournament) -> T,
    ) -> Option<T> {
        let mut tours = self.tours.lock().await;
        if let Err(e) = self.sync_tournament(&mut tours, thread).await {
            tracing::error!(error = %e, "storage failed");
        }
        tours.hub.tournament(thread).map(f)
    }

    /// A command in a tournament's thread, or a tournament command anywhere, under the
    /// tournaments' lock. `game`: the thread's game, if it has one (a tournament cannot start
    /// in a game's thread).
    async fn handle_tournament(
        &self,
        caller: &Caller<'_>,
        entropy: u64,
        cmd: &Command,
        raw: &str,
        interaction: Option<&str>,
        game: Option<Box<dyn ThreadGame>>,
    ) -> Reply {
        let thread = caller.thread;
        let mut tours = self.tours.lock().await;
        retrying!(
            async {
                if let Err(e) = self.sync_tournament(&mut tours, thread).await {
                    return Attempt::Done(internal_error(&e));
                }
                if let Some(g) = &game {
                    tours.hub.insert_game(thread, g.clone());
                }
                let ratings = self.seeding_ratings(&tours.hub, thread, cmd).await;
                if let Some(t) = tours.hub.tournament_mut(thread) {
                    t.ratings = ratings;
                }
                let reply = tours.hub.handle(caller, entropy, cmd, raw);
                if let Some(t) = tours.hub.tournament_mut(thread) {
                    t.ratings.clear();
                }
                tours.hub.remove_game(thread);
                let log = LogLine {
                    actor: caller.user,
                    time: caller.now,
                    command: raw,
                    reply: &reply.text,
                    interaction,
                };
                let saved = self.persist_tournament(&mut tours, thread, Some(log)).await;
                match Unsaved::of(saved, thread) {
                    Ok(()) => Attempt::Done(reply),
                    Err(unsaved) => {
                        self.discard_tournament(&mut tours, thread).await;
                        unsaved.retry_or(internal_error)
                    }
                }
            },
            internal_error(&StoreError::Conflict)
        )
    }

    // ----- games -------------------------------------------------------------------------

    /// Brings one thread's game up to date with the database (reading it if this slot has
    /// not, or if another writer changed it).
    async fn sync(&self, cell: &mut Cell, thread: &str) -> Result<(), StoreError> {
        self.load_cell(cell, thread).await?;
        cell.hub
            .hand_away(thread, &self.attention(), cell.guild.as_deref());
        Ok(())
    }

    /// [`Service::sync`] but for the vacations handed to the game.
    async fn load_cell(&self, cell: &mut Cell, thread: &str) -> Result<(), StoreError> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let stored = store.version(thread).await?;
        if cell.synced && stored == cell.version {
            return Ok(());
        }
        if cell.synced {
            // Another process wrote the game; it may have been a vacation's change of version.
            store.reload_vacations().await?;
        }
        let loaded = match stored {
            Some(_) => match store.load(thread).await {
                // A log that replays only with a vacation another process stored since this
                // one last read them: read them, and the game, again.
                Err(StoreError::Decode(_)) => {
                    store.reload_vacations().await?;
                    store.load(thread).await?
                }
                loaded => loaded?,
            },
            None => None,
        };
        match loaded {
            Some(sg) => {
                self.loads.fetch_add(1, Ordering::Relaxed);
                cell.hub.insert_game(thread, sg.game);
                if let Err(e) = cell.hub.set_book_json(thread, &sg.premoves) {
                    tracing::error!(error = %e, thread, "stored conditional moves do not read; dropped");
                }
                cell.version = Some(sg.version);
                cell.swept = cell.swept.max(sg.swept);
                cell.guild = sg.guild;
            }
            None => {
                cell.hub.remove_game(thread);
                cell.version = None;
            }
        }
        cell.synced = true;
        Ok(())
    }

    /// Saves what a command changed. `Ok(false)`: another writer won; reload and retry.
    async fn persist(
        &self,
        cell: &mut Cell,
        thread: &str,
        was: &Before,
        now: Timestamp,
        interaction: Option<&str>,
        reply: &Reply,
    ) -> Result<bool, StoreError> {
        let Some(store) = &self.store else {
            return Ok(true);
        };
        let Some(game) = cell.hub.game(thread) else {
            return Ok(true);
        };
        if !was.existed {
            if !store.create_game(thread, game, now).await? {
                return Ok(false);
            }
            cell.version = Some(0);
            if game.log_len() == 0 {
                return Ok(true);
            }
        }
        let newly: Vec<usize> = game
            .reverted()
            .into_iter()
            .enumerate()
            .take(was.len)
            .filter(|&(i, r)| r && !was.reverted.get(i).copied().unwrap_or(false))
            .map(|(i, _)| i)
            .collect();
        let book = cell.hub.book_json(thread);
        let book_changed = book != was.book;
        let users = game.users();
        let seated = (was.existed && users != was.users)
            .then(|| serde_json::to_string(&users))
            .transpose()?;
        if game.log_len() == was.len && newly.is_empty() && !book_changed {
            return Ok(true);
        }
        let expected = cell.version.unwrap_or(0);
        match store
            .commit_swept(
                thread,
                expected,
                game,
                was.len,
                &newly,
                interaction,
                &stored_reply(reply),
                cell.swept,
                book_changed.then_some(book.as_str()),
                seated.as_deref(),
            )
            .await
        {
            Ok(v) => {
                cell.version = Some(v);
                Ok(true)
            }
            Err(StoreError::Conflict) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Undoes an unsaved change by reloading the game from the database.
    /// A game's write settled: `Ok(())` when it was saved; otherwise the game is read back
    /// from the store, and [`Unsaved`] says whether the retry loop tries again.
    async fn settle(
        &self,
        saved: Result<bool, StoreError>,
        cell: &mut Cell,
        thread: &str,
    ) -> Result<(), Unsaved> {
        let Err(unsaved) = Unsaved::of(saved, thread) else {
            return Ok(());
        };
        self.discard(cell, thread).await;
        Err(unsaved)
    }

    /// After a panic in a game's handling: the game as its log has it (with a database, read
    /// back; without, as it was before the command).
    async fn recover(&self, cell: &mut Cell, thread: &str, snapshot: Snapshot) {
        match snapshot.0 {
            Some((game, book)) => match game {
                Some(g) => {
                    cell.hub.insert_game(thread, g);
                    if let Err(e) = cell.hub.set_book_json(thread, &book) {
                        tracing::error!(error = %e, thread, "conditional moves not restored");
                    }
                }
                None => cell.hub.remove_game(thread),
            },
            None => self.discard(cell, thread).await,
        }
        self.drop_buttons(thread);
    }

    async fn discard(&self, cell: &mut Cell, thread: &str) {
        cell.synced = false;
        if self.store.is_none() {
            return;
        }
        if let Err(e) = self.sync(cell, thread).await {
            tracing::error!(error = %e, thread, "reload after a failed write failed");
        }
    }

    /// Shows a hub's revert confirmations under ids numbered across the process (command
    /// buttons keep their own ids).
    fn issue_buttons(&self, thread: &str, local: Vec<String>) -> Vec<String> {
        if local.is_empty() {
            return local;
        }
        let mut b = lock(&self.buttons);
        b.ids.retain(|_, (_, _, at)| at.elapsed() < BUTTON_KEEP);
        local
            .into_iter()
            .map(|l| {
                if crate::commands::command_button(&l).is_some() {
                    // A button standing for a command (a vote) names its thread itself.
                    return l;
                }
                b.next += 1;
                let id = match l.rsplit_once('-') {
                    Some((stem, _)) => format!("{stem}-{}", b.next),
                    None => format!("{l}-{}", b.next),
                };
                b.ids
                    .insert(id.clone(), (thread.to_string(), l, Instant::now()));
                id
            })
            .collect()
    }

    /// Handles a command: checked, committed, then answered. `interaction` makes a repeated
    /// delivery (the same Discord interaction) apply once.
    pub async fn handle(
        &self,
        caller: &Caller<'_>,
        entropy: u64,
        cmd: &Command,
        raw: &str,
        interaction: Option<&str>,
    ) -> Reply {
        self.run(caller, entropy, cmd, raw, interaction, Shows::Reply, None)
            .await
            .reply
    }

    /// [`Service::handle`], with what the front end shows next: the game's status and users
    /// and, with `picture`, an accepted action and a game that pictures the command, the job drawing its picture.
    pub async fn handle_full(
        &self,
        caller: &Caller<'_>,
        entropy: u64,
        cmd: &Command,
        raw: &str,
        interaction: Option<&str>,
        picture: bool,
    ) -> Handled {
        let shows = Shows::front_end(picture);
        self.run(caller, entropy, cmd, raw, interaction, shows, None)
            .await
    }

    /// [`Service::handle_full`], telling `accepted` as soon as the command layer has accepted
    /// an action it will picture, before the commit (the Discord front end sends its deferral
    /// then, so the first response never waits for the database's write). The reply still
    /// comes only once committed; if the commit then fails, the reply says so.
    #[allow(clippy::too_many_arguments)]
    pub async fn handle_telling(
        &self,
        caller: &Caller<'_>,
        entropy: u64,
        cmd: &Command,
        raw: &str,
        interaction: Option<&str>,
        picture: bool,
        accepted: tokio::sync::oneshot::Sender<()>,
    ) -> Handled {
        let shows = Shows::front_end(picture);
        self.run(
            caller,
            entropy,
            cmd,
            raw,
            interaction,
            shows,
            Some(accepted),
        )
        .await
    }

    /// Handles a command, with what the front end `shows` next; `accepted` is told once an
    /// action to picture is accepted (before its commit).
    #[allow(clippy::too_many_arguments)]
    async fn run(
        &self,
        caller: &Caller<'_>,
        entropy: u64,
        cmd: &Command,
        raw: &str,
        interaction: Option<&str>,
        shows: Shows,
        mut accepted: Option<tokio::sync::oneshot::Sender<()>>,
    ) -> Handled {
        if let Err(why) = crate::commands::declare::check(cmd) {
            // Unknown or repeated options, for the commands answered here too.
            return Handled::plain(Reply::refused(why));
        }
        if cmd.name == "mygames" {
            // Across threads: no thread's lock is held while the games are read.
            return Handled::plain(self.my_games(caller).await);
        }
        match cmd.name.as_str() {
            // Across threads, like /mygames; on the one server a front end without servers has.
            "rating" => return Handled::plain(self.rating_on(caller, cmd, None).await),
            "leaderboard" => return Handled::plain(self.leaderboard_on(cmd, None).await),
            "stats" => return Handled::plain(self.stats_on(caller, cmd, None).await),
            _ => {}
        }
        if cmd.name == "notify" {
            // The caller's own settings, in no thread.
            return Handled::plain(self.notify(caller, cmd).await);
        }
        if cmd.name == "vacation" {
            // The caller's own, on the one server a front end without servers has.
            let bank = crate::layer::vacation::VACATION_DAYS;
            return Handled::plain(self.vacation_on(caller, cmd, "", bank).await);
        }
        let started = Instant::now();
        let thread = caller.thread;
        let tournament_command = is_tournament_command(&cmd.name);
        let slot = self.slot(thread);
        let mut cell = slot.cell.lock().await;
        let mut timing = Timing::default();
        retrying!(
            async {
                // Under the thread's lock: a delivery repeated while the first is in flight
                // waits for it, then finds its stored reply.
                if let (Some(store), Some(id)) = (&self.store, interaction) {
                    match store.interaction_reply(id).await {
                        Ok(Some(text)) => return Attempt::Done(Handled::plain(replayed(text))),
                        Ok(None) => {}
                        Err(e) => return Attempt::Done(Handled::plain(internal_error(&e))),
                    }
                }
                if let Err(e) = self.sync(&mut cell, thread).await {
                    return Attempt::Done(Handled::plain(internal_error(&e)));
                }
                if tournament_command || cell.hub.game(thread).is_none() {
                    // A tournament command, or a thread without a game (maybe a tournament's).
                    let is_tournament = tournament_command || {
                        let mut tours = self.tours.lock().await;
                        if let Err(e) = self.sync_tournament(&mut tours, thread).await {
                            return Attempt::Done(Handled::plain(internal_error(&e)));
                        }
                        tours.hub.tournament(thread).is_some()
                    };
                    if is_tournament {
                        // The thread's lock stays held (threads first, tournaments second).
                        let game = cell.hub.game(thread).map(|g| g.clone_box());
                        let reply = self
                            .handle_tournament(caller, entropy, cmd, raw, interaction, game)
                            .await;
                        return Attempt::Done(Handled::plain(reply));
                    }
                }
                timing.load = started.elapsed();
                if cmd.name == "resume" {
                    if let Some(reply) = self.layer_resume(&cell.hub, caller).await {
                        return Attempt::Done(Handled::plain(reply));
                    }
                }
                if cmd.name == "substitute" {
                    if let Some(why) = self.match_seat_refusal(&mut cell, thread, cmd).await {
                        return Attempt::Done(Handled::plain(Reply::refused(why)));
                    }
                }
                let was = before(&cell.hub, thread);
                let t = Instant::now();
                let snapshot = Snapshot::take(self, &cell, thread);
                let handled = guarded(thread, raw, || cell.hub.handle(caller, entropy, cmd, raw));
                let Ok(mut reply) = handled else {
                    self.recover(&mut cell, thread, snapshot).await;
                    return Attempt::Done(Handled::plain(Reply::refused(PANICKED)));
                };
                // A game just made meets its players' vacations here.
                let guild = cell.guild.clone();
                cell.hub
                    .hand_away(thread, &self.attention(), guild.as_deref());
                if reply.ok == Some(true) {
                    if let Some(g) = cell.hub.game(thread) {
                        vacation::note_away(&mut reply, g, caller.now);
                    }
                }
                timing.handle = t.elapsed();
                if cmd.name == "status" && reply.ok == Some(true) {
                    if let Some(g) = cell.hub.game(thread) {
                        let att = self.attention();
                        let away = att.away(&g.users(), cell.guild.as_deref());
                        let lines = paused_line(g, thread, &att, caller.now)
                            .into_iter()
                            .chain(vacation::away_lines(g, &away, caller.now));
                        for line in lines.collect::<Vec<_>>().into_iter().rev() {
                            reply.text = format!("{line}\n{}", reply.text);
                        }
                    }
                }
                if reply.ok == Some(true)
                    && shows == Shows::Picture
                    && cell.hub.game(thread).is_some_and(|g| g.pictured(&cmd.name))
                {
                    if let Some(tell) = accepted.take() {
                        let _ = tell.send(());
                    }
                }
                let t = Instant::now();
                let saved = self
                    .persist(&mut cell, thread, &was, caller.now, interaction, &reply)
                    .await;
                timing.commit += t.elapsed();
                match self.settle(saved, &mut cell, thread).await {
                    Ok(()) => {
                        if cell.hub.game(thread).map(|g| g.log_len()) != Some(was.len) {
                            self.drop_buttons(thread);
                        }
                        reply.buttons =
                            self.issue_buttons(thread, std::mem::take(&mut reply.buttons));
                        if reply.ok == Some(true) && was.existed {
                            self.reconcile(&mut cell, thread, caller.now, &mut reply)
                                .await;
                        }
                        self.rated(&cell, thread, was.finished, &mut reply).await;
                        self.touched(thread, &cell);
                        let game = cell.hub.game(thread).filter(|_| shows != Shows::Reply);
                        let job = match game {
                            Some(g)
                                if shows == Shows::Picture
                                    && reply.ok == Some(true)
                                    && g.pictured(&cmd.name) =>
                            {
                                Some(g.picture(thread, caller.now))
                            }
                            _ => None,
                        };
                        Attempt::Done(Handled {
                            picture: job,
                            status: game.map(|g| g.status(caller.now)),
                            users: game.map(|g| g.users()),
                            reply,
                            timing,
                        })
                    }
                    Err(unsaved) => unsaved.retry_or(|e| Handled::plain(internal_error(e))),
                }
            },
            Handled::plain(internal_error(&StoreError::Conflict))
        )
    }

    /// A chat line in a thread (a post for inactivity).
    pub async fn chat(&self, user: &str, thread: &str, now: Timestamp) {
        let slot = self.slot(thread);
        let mut cell = slot.cell.lock().await;
        retrying!(
            async {
                if let Err(e) = self.sync(&mut cell, thread).await {
                    tracing::error!(error = %e, "storage failed");
                    return Attempt::Done(());
                }
                let was = before(&cell.hub, thread);
                let snapshot = Snapshot::take(self, &cell, thread);
                if guarded(thread, "chat", || cell.hub.chat(user, thread, now)).is_err() {
                    self.recover(&mut cell, thread, snapshot).await;
                    return Attempt::Done(());
                }
                let saved = self
                    .persist(&mut cell, thread, &was, now, None, &Reply::default())
                    .await;
                match self.settle(saved, &mut cell, thread).await {
                    Ok(()) => {
                        self.touched(thread, &cell);
                        Attempt::Done(())
                    }
                    Err(unsaved) => unsaved.retry_or(|_| ()),
                }
            },
            ()
        );
    }

    /// A user left the server: each unfinished game that acts on it (a Party Swinger turns
    /// Warm, Party rules 3.6) logs its action, saved like a command. Returns (thread, reply)
    /// for each game that acted.
    pub async fn member_left(&self, user: &str, now: Timestamp) -> Vec<(String, Reply)> {
        let threads = match &self.store {
            Some(store) => {
                let mut v = Vec::new();
                for kind in crate::commands::acting_on_leave() {
                    match store.open_threads_of(kind.variant).await {
                        Ok(t) => v.extend(t),
                        Err(e) => tracing::error!(error = %e, "storage failed"),
                    }
                }
                v
            }
            None => {
                let mut v: Vec<String> = lock(&self.slots).keys().cloned().collect();
                v.sort();
                v
            }
        };
        let mut out = Vec::new();
        for thread in threads {
            let slot = self.slot(&thread);
            let mut cell = slot.cell.lock().await;
            retrying!(
                async {
                    if let Err(e) = self.sync(&mut cell, &thread).await {
                        tracing::error!(error = %e, "storage failed");
                        return Attempt::Done(());
                    }
                    let was = before(&cell.hub, &thread);
                    let Some(reply) = cell.hub.member_left(&thread, user, now) else {
                        return Attempt::Done(());
                    };
                    let saved = self
                        .persist(&mut cell, &thread, &was, now, None, &reply)
                        .await;
                    match self.settle(saved, &mut cell, &thread).await {
                        Ok(()) => {
                            self.drop_buttons(&thread);
                            self.touched(&thread, &cell);
                            out.push((thread.clone(), reply));
                            Attempt::Done(())
                        }
                        Err(unsaved) => unsaved.retry_or(|_| ()),
                    }
                },
                ()
            );
        }
        self.evict_idle();
        out
    }

    /// A console-only `!` line of the thread's game (`!stack …`), saved like a command: the
    /// lines to print, or `None` when the game does not take it.
    pub async fn console_line(
        &self,
        thread: &str,
        words: &[&str],
        now: Timestamp,
    ) -> Option<Vec<String>> {
        let slot = self.slot(thread);
        let mut cell = slot.cell.lock().await;
        retrying!(
            async {
                if let Err(e) = self.sync(&mut cell, thread).await {
                    tracing::error!(error = %e, "storage failed");
                    return Attempt::Done(Some(vec![format!("error: storage failed: {e}")]));
                }
                let was = before(&cell.hub, thread);
                let Some(out) = cell.hub.console_line(thread, words, now) else {
                    return Attempt::Done(None);
                };
                let saved = self
                    .persist(&mut cell, thread, &was, now, None, &Reply::default())
                    .await;
                match self.settle(saved, &mut cell, thread).await {
                    Ok(()) => {
                        self.touched(thread, &cell);
                        Attempt::Done(Some(out))
                    }
                    Err(unsaved) => {
                        unsaved.retry_or(|e| Some(vec![format!("error: storage failed: {e}")]))
                    }
                }
            },
            Some(vec!["error: storage kept changing; try again".into()])
        )
    }

    /// The picture of a thread's game after a button press went through, if the game
    /// reposts its board then (a revert's confirmation in Chex).
    pub async fn picture_after_press(&self, thread: &str, now: Timestamp) -> Option<PictureJob> {
        self.with_game(thread, |g| {
            g.pictured("revert").then(|| g.picture(thread, now))
        })
        .await
        .flatten()
    }

    /// A button press.
    pub async fn press(&self, user: &str, id: &str, now: Timestamp) -> Reply {
        if let Some((thread, waited, since)) = read_nowait_button(id) {
            return self.not_waiting_on_me(user, &thread, &waited, since).await;
        }
        if let Some((thread, text)) = crate::commands::command_button(id) {
            // A button standing for a command (a Nomic vote): handled as if the presser typed
            // it in its thread, like any command.
            let Some(cmd) = crate::commands::parse_command(&text) else {
                return Reply {
                    ok: Some(false),
                    text: "this button does nothing".into(),
                    ephemeral: true,
                    ..Reply::default()
                };
            };
            let caller = Caller {
                user,
                roles: crate::commands::Roles::default(),
                thread: &thread,
                now,
            };
            return self.handle(&caller, 0, &cmd, &text, None).await;
        }
        let known = lock(&self.buttons).ids.get(id).cloned();
        let Some((thread, local, _)) = known else {
            return Hub::new().press(user, id, now);
        };
        let slot = self.slot(&thread);
        let mut cell = slot.cell.lock().await;
        if let Err(e) = self.sync(&mut cell, &thread).await {
            return internal_error(&e);
        }
        let was = before(&cell.hub, &thread);
        let snapshot = Snapshot::take(self, &cell, &thread);
        let Ok(mut reply) = guarded(&thread, id, || cell.hub.press(user, &local, now)) else {
            self.recover(&mut cell, &thread, snapshot).await;
            return Reply::refused(PANICKED);
        };
        let reply = match self
            .persist(&mut cell, &thread, &was, now, None, &reply)
            .await
        {
            Ok(true) => {
                if reply.ok == Some(true) {
                    self.drop_buttons(&thread);
                    self.reconcile(&mut cell, &thread, now, &mut reply).await;
                }
                self.rated(&cell, &thread, was.finished, &mut reply).await;
                reply
            }
            Ok(false) => {
                self.discard(&mut cell, &thread).await;
                Reply {
                    ok: Some(false),
                    text: "the game changed while you confirmed; ask again with /revert".into(),
                    ephemeral: true,
                    ..Reply::default()
                }
            }
            Err(e) => {
                self.discard(&mut cell, &thread).await;
                internal_error(&e)
            }
        };
        self.touched(&thread, &cell);
        reply
    }

    /// Timer messages (lock expiries, turn limits) due by `now` (after `after`), each
    /// announced once even across restarts and processes; those that fell due more than a
    /// minute ago say they are late, and a game with several late ones gets one summary post
    /// instead ([`catch_up`]). With a database, only the games whose stored next due time has
    /// come are read; idle games then leave memory. In the order the games were found (by
    /// next due time); [`Service::sweep_timers`] hands each game's over as soon as it is done.
    pub async fn due_messages(&self, after: Timestamp, now: Timestamp) -> Vec<(String, Notify)> {
        let found = StdMutex::new(Vec::new());
        self.sweep_timers(after, now, |i, thread, notes| {
            lock(&found).push((i, thread, notes));
        })
        .await;
        let mut found = found.into_inner().unwrap_or_else(PoisonError::into_inner);
        found.sort_by_key(|f| f.0);
        found
            .into_iter()
            .flat_map(|(_, thread, notes)| notes.into_iter().map(move |n| (thread.clone(), n)))
            .collect()
    }

    /// The timer sweep: every game with a timer due by `now` (after `after`) is caught up in
    /// one pass (read once, every due timer found, one commit) and its announcements handed
    /// to `each` (the game's index in the sweep, its thread, its posts) as soon as they are
    /// committed. Four games are worked on at once, so a slow game (a long
    /// catch-up, a game held by a command) does not hold up the others. Returns how many
    /// games were due.
    pub async fn sweep_timers(
        &self,
        after: Timestamp,
        now: Timestamp,
        each: impl Fn(usize, String, Vec<Notify>) + Sync,
    ) -> usize {
        let threads = match &self.store {
            Some(store) => match store.due_threads(now).await {
                Ok(t) => {
                    // Settings another process may have changed decide the reminders.
                    if !t.is_empty() {
                        if let Err(e) = store.reload_attention().await {
                            tracing::error!(error = %e, "storage failed");
                        }
                    }
                    t
                }
                Err(e) => {
                    tracing::error!(error = %e, "storage failed");
                    return 0;
                }
            },
            None => {
                let mut v: Vec<String> = lock(&self.slots).keys().cloned().collect();
                v.sort();
                v
            }
        };
        let next = AtomicU64::new(0);
        let (threads_ref, next_ref, each_ref) = (&threads, &next, &each);
        let worker = || async move {
            loop {
                let i = next_ref.fetch_add(1, Ordering::Relaxed) as usize;
                let Some(thread) = threads_ref.get(i) else {
                    break;
                };
                let notes = self.sweep(thread, after, now).await;
                let mut ended = None;
                if !notes.is_empty() {
                    ended = self.caught_up(thread).await;
                }
                let (mut notes, ended_now) = self.timed_premoves(thread, now, notes).await;
                if let Some((variant, guild)) = ended.or(ended_now) {
                    self.tell_changes(thread, variant, guild.as_deref(), &mut notes)
                        .await;
                }
                if !notes.is_empty() {
                    each_ref(i, thread.clone(), notes);
                }
            }
        };
        tokio::join!(worker(), worker(), worker(), worker());
        self.evict_idle();
        threads.len()
    }

    /// One game's timers falling due in `(after, now]` (and after its last sweep): read once,
    /// claimed and recorded in one commit, announced (see [`catch_up`]).
    async fn sweep(&self, thread: &str, after: Timestamp, now: Timestamp) -> Vec<Notify> {
        let slot = self.slot(thread);
        let mut cell = slot.cell.lock().await;
        retrying!(
            async {
                if let Some(store) = &self.store {
                    // The stored sweep time (another process may have swept since).
                    match store.sweep_state(thread).await {
                        Ok(Some((_, swept))) => cell.swept = swept,
                        Ok(None) => return Attempt::Done(Vec::new()),
                        Err(e) => {
                            tracing::error!(error = %e, thread, "storage failed");
                            return Attempt::Done(Vec::new());
                        }
                    }
                }
                if let Err(e) = self.sync(&mut cell, thread).await {
                    tracing::error!(error = %e, thread, "storage failed");
                    return Attempt::Done(Vec::new());
                }
                let Some(game) = cell.hub.game(thread) else {
                    return Attempt::Done(Vec::new());
                };
                if now <= cell.swept {
                    return Attempt::Done(Vec::new());
                }
                let from = after.max(cell.swept);
                // Finding the timers is CPU work (a day of recurring limits replays many
                // states): on a blocking thread, so the other games of the sweep go on.
                let game = game.clone_box();
                let stored = self.store.is_some();
                let att = self.attention();
                let place = thread.to_string();
                // A panic in the game's timers ends that task only: logged below, the game
                // untouched (the timers are found on a copy).
                let found = tokio::task::spawn_blocking(move || {
                    let dues = remind::timers(&*game, &place, &att, from, now);
                    let next = if stored {
                        crate::store::next_due(&*game, &place, &att, now)
                    } else {
                        None
                    };
                    (dues, next)
                })
                .await;
                let (dues, next) = match found {
                    Ok(f) => f,
                    Err(e) => {
                        tracing::error!(error = %e, thread, command = "timer sweep", "finding the timers failed");
                        return Attempt::Done(Vec::new());
                    }
                };
                let fresh: Vec<bool> = match (&self.store, cell.version) {
                    (Some(store), Some(version)) => {
                        let fired: Vec<(usize, Timestamp)> =
                            dues.iter().map(|d| (d.seat, d.at)).collect();
                        match store
                            .sweep_game(thread, version, cell.swept, now, next, &fired, now)
                            .await
                        {
                            Ok(Some(fresh)) => fresh,
                            // The game changed or was swept elsewhere: read it again.
                            Ok(None) => return Attempt::Lost,
                            Err(e) => {
                                tracing::error!(error = %e, thread, "storage failed");
                                return Attempt::Done(Vec::new());
                            }
                        }
                    }
                    (Some(_), None) => return Attempt::Done(Vec::new()),
                    (None, _) => {
                        let mut notified = lock(&self.notified);
                        dues.iter()
                            .map(|d| notified.insert((thread.to_string(), d.seat, d.at)))
                            .collect()
                    }
                };
                cell.swept = now;
                let dues: Vec<Due> = dues
                    .into_iter()
                    .zip(fresh)
                    .filter_map(|(d, f)| f.then_some(d))
                    .collect();
                Attempt::Done(catch_up(dues, now))
            },
            {
                tracing::warn!(
                    thread,
                    "timer sweep kept losing to other writers; next tick"
                );
                Vec::new()
            }
        )
    }

    /// After a game's sweep announced what fell due: the game brought up to then
    /// ([`ThreadGame::catch_up`]: Party Chess's default plays written into its log and
    /// stored, Nomic Chess's limits kept where they ran out to), so that the next sweep and
    /// the next command start there, not at its last action. Done on a copy off the
    /// executor; kept once stored (on a conflict the game is read again, and the next sweep
    /// tries again). Its summary is noted for the ratings; returns the game's kind and server
    /// when this ended it.
    async fn caught_up(&self, thread: &str) -> Ended {
        let slot = self.slot(thread);
        let mut cell = slot.cell.lock().await;
        if let Err(e) = self.sync(&mut cell, thread).await {
            tracing::error!(error = %e, thread, "storage failed");
            return None;
        }
        let game = cell.hub.game(thread).filter(|g| !g.finished())?;
        let swept = cell.swept;
        let mut copy = game.clone_box();
        let copy = match tokio::task::spawn_blocking(move || {
            copy.catch_up(swept);
            copy
        })
        .await
        {
            Ok(c) => c,
            Err(e) => {
                tracing::error!(error = %e, thread, "catching up failed");
                return None;
            }
        };
        let was = before(&cell.hub, thread);
        cell.hub.insert_game(thread, copy);
        let saved = self
            .persist(&mut cell, thread, &was, swept, None, &Reply::ok(""))
            .await;
        // Not stored (another writer won): the game was read again; the next sweep retries.
        match self.settle(saved, &mut cell, thread).await {
            Ok(()) => self.noted_at_timer(&cell, thread, &was),
            Err(_) => None,
        }
    }

    /// After a timer changed a game (a catch-up, a conditional move it made due), committed:
    /// the game's summary is noted for the ratings (without a database nothing else reads
    /// it); the game's kind and server when the change ended it.
    fn noted_at_timer(&self, cell: &Cell, thread: &str, was: &Before) -> Ended {
        let g = cell.hub.game(thread)?;
        self.note_summary(thread, g, cell.version, cell.guild.as_deref());
        (!was.finished && g.finished()).then(|| (g.kind().variant, cell.guild.clone()))
    }

    /// A game just ended at a timer: its rating changes (`ratings: …`) appended to the last
    /// of the posts about it (a post of their own when there is none), pinging nobody more.
    async fn tell_changes(
        &self,
        thread: &str,
        variant: &str,
        guild: Option<&str>,
        notes: &mut Vec<Notify>,
    ) {
        let Some(line) = self.changes_line(thread, variant, guild).await else {
            return;
        };
        match notes.pop() {
            Some(last) => notes.push(last.then(&format!("\n{line}"))),
            None => notes.push(Notify::default().then(&line)),
        }
    }

    /// Conditional moves a timer made due (a lock lifted by time, a turn's default play):
    /// played and committed under the game's lock, posted after the timer's own messages
    /// (`notes`), from which the ping of a player whose line answered it is left out. With
    /// the game's kind and server when a move played ended it (its summary noted, as after
    /// any timer that changed the game).
    async fn timed_premoves(
        &self,
        thread: &str,
        now: Timestamp,
        notes: Vec<Notify>,
    ) -> (Vec<Notify>, Ended) {
        let slot = self.slot(thread);
        let mut cell = slot.cell.lock().await;
        if !cell.hub.has_lines(thread) {
            return (notes, None);
        }
        retrying!(
            async {
                if let Err(e) = self.sync(&mut cell, thread).await {
                    tracing::error!(error = %e, thread, "storage failed");
                    return Attempt::Done((notes.clone(), None));
                }
                let was = before(&cell.hub, thread);
                let snapshot = Snapshot::take(self, &cell, thread);
                let settled = guarded(thread, "conditional moves at a timer", || {
                    cell.hub.settle_premoves(thread, now)
                });
                let Ok((posts, authors)) = settled else {
                    self.recover(&mut cell, thread, snapshot).await;
                    return Attempt::Done((notes.clone(), None));
                };
                if posts.is_empty() && was.book == cell.hub.book_json(thread) {
                    return Attempt::Done((notes.clone(), None));
                }
                let texts: Vec<String> = posts.iter().map(Notify::text).collect();
                let reply = Reply::ok(texts.join("\n"));
                let saved = self
                    .persist(&mut cell, thread, &was, now, None, &reply)
                    .await;
                match self.settle(saved, &mut cell, thread).await {
                    Ok(()) => {
                        self.touched(thread, &cell);
                        let ended = self.noted_at_timer(&cell, thread, &was);
                        let mut out: Vec<Notify> = notes
                            .iter()
                            .cloned()
                            .filter_map(|n| authors.iter().try_fold(n, |n, a| n.without(a)))
                            .collect();
                        out.extend(posts);
                        Attempt::Done((out, ended))
                    }
                    Err(unsaved) => unsaved.retry_or(|_| (notes.clone(), None)),
                }
            },
            (notes, None)
        )
    }

    /// Runs `f` on a game (for pictures, state dumps and autocomplete).
    pub async fn with_game<T>(
        &self,
        thread: &str,
        f: impl FnOnce(&dyn ThreadGame) -> T,
    ) -> Option<T> {
        let slot = self.slot(thread);
        let mut cell = slot.cell.lock().await;
        if let Err(e) = self.sync(&mut cell, thread).await {
            tracing::error!(error = %e, "storage failed");
        }
        cell.hub.game(thread).map(f)
    }

    /// Runs `f` on a thread's game if it is a game of type `G` (one game's own type, like
    /// `games::kfb::Game`): `None` without a game or with a game of another kind.
    pub async fn with_game_as<G: 'static, T>(
        &self,
        thread: &str,
        f: impl FnOnce(&G) -> T,
    ) -> Option<T> {
        self.with_game(thread, |g| g.downcast::<G>().map(f))
            .await
            .flatten()
    }
}

/// Figures of a storage benchmark.
#[derive(Debug, Clone)]
pub struct StoreBench {
    /// Actions committed.
    pub actions: usize,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Median time from command to committed action, in milliseconds.
    pub median_ms: f64,
    /// 99th percentile of the same, in milliseconds.
    pub p99_ms: f64,
}

impl std::fmt::Display for StoreBench {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} actions committed in {:.2} s: {:.0} actions/s; command to committed action: median {:.2} ms, p99 {:.2} ms",
            self.actions,
            self.seconds,
            self.actions as f64 / self.seconds.max(1e-9),
            self.median_ms,
            self.p99_ms
        )
    }
}

/// The whole draft, as `/pick` commands by player, of the Kung Fu Bughouse game
/// `/kfb new team1:@a @b @c team2:@d @e @f seed:1`: seed 1 names f as the first picker
/// (KFB rules 1.8). The store benchmark plays it; tests share it.
pub const SEED_ONE_DRAFT: [(&str, &str); 6] = [
    ("f", "/pick order:second color:red army:fide"),
    ("a", "/pick order:first color:red army:fide"),
    ("e", "/pick order:first color:blue army:rookies"),
    ("b", "/pick order:second color:lightgreen army:nutty"),
    ("d", "/pick order:second color:lightgreen army:clobberers"),
    ("c", "/pick order:first color:blue army:forward"),
];

/// Plays random legal moves in `games` new games through the service on `store`, from
/// `tasks` concurrent tasks, and times each command until its action is committed.
///
/// # Errors
/// The database fails.
pub async fn bench(
    store: Store,
    games: usize,
    actions: usize,
    tasks: usize,
) -> Result<StoreBench, StoreError> {
    use std::sync::Arc;
    use std::time::Instant;
    let svc = Arc::new(Service::with_store(store).await?);
    let start_time: Timestamp = 1_767_225_600;
    let tag = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let threads: Vec<String> = (0..games.max(1))
        .map(|i| format!("bench-{tag}-{i}"))
        .collect();
    let org = Caller {
        user: "org",
        roles: crate::commands::Roles {
            organiser: true,
            moderator: false,
        },
        thread: "",
        now: start_time,
    };
    for t in &threads {
        let text = "/kfb new team1:@a @b @c team2:@d @e @f seed:1 move_limit:6m";
        if let Some(cmd) = crate::commands::parse_command(text) {
            svc.handle(&Caller { thread: t, ..org }, 1, &cmd, text, None)
                .await;
        }
        for (u, p) in SEED_ONE_DRAFT {
            if let Some(cmd) = crate::commands::parse_command(p) {
                let c = Caller {
                    user: u,
                    roles: crate::commands::Roles::default(),
                    thread: t,
                    now: start_time,
                };
                svc.handle(&c, 1, &cmd, p, None).await;
            }
        }
    }
    let threads = Arc::new(threads);
    let per_task = actions.div_ceil(tasks.max(1));
    let wall = Instant::now();
    let mut handles = Vec::new();
    for task in 0..tasks.max(1) {
        let svc = svc.clone();
        let threads = threads.clone();
        handles.push(tokio::spawn(async move {
            let mut rng = crate::games::seeded::splitmix(task as u64 + 11);
            let mut times = Vec::new();
            let mut now = start_time;
            let users = ["a", "b", "c", "d", "e", "f"];
            let mut attempts = 0;
            while times.len() < per_task && attempts < per_task * 20 {
                attempts += 1;
                rng = crate::games::seeded::splitmix(rng);
                now += 400;
                let thread = &threads[(rng % threads.len() as u64) as usize];
                let seat = (crate::games::seeded::splitmix(rng) % 6) as usize;
                let Some(moves) = svc
                    .with_game_as::<crate::games::kfb::Game, _>(thread, |g| {
                        g.legal_moves(seat, now)
                    })
                    .await
                else {
                    continue;
                };
                if moves.is_empty() {
                    continue;
                }
                let text = format!("/move {}", moves[(rng % moves.len() as u64) as usize].1);
                let Some(cmd) = crate::commands::parse_command(&text) else {
                    continue;
                };
                let c = Caller {
                    user: users[seat],
                    roles: crate::commands::Roles::default(),
                    thread,
                    now,
                };
                let t = Instant::now();
                let r = svc.handle(&c, 1, &cmd, &text, None).await;
                if r.ok == Some(true) {
                    times.push(t.elapsed().as_secs_f64() * 1000.0);
                }
            }
            times
        }));
    }
    let mut times = Vec::new();
    for h in handles {
        if let Ok(t) = h.await {
            times.extend(t);
        }
    }
    let seconds = wall.elapsed().as_secs_f64();
    times.sort_by(f64::total_cmp);
    let pct = |p: f64| -> f64 {
        if times.is_empty() {
            0.0
        } else {
            times[((times.len() - 1) as f64 * p).round() as usize]
        }
    };
    Ok(StoreBench {
        actions: times.len(),
        seconds,
        median_ms: pct(0.5),
        p99_ms: pct(0.99),
    })
}
