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

use crate::commands::declare::Run;
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

mod attention;
mod mygames;
mod timers;
mod tournaments;
pub use timers::*;

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
        let run = crate::commands::declare::run_of(cmd);
        if let Run::Anywhere(desk) = run {
            // Across threads: no thread's lock is held while the games are read; on the one
            // server a front end without servers has.
            let bank = crate::layer::vacation::VACATION_DAYS;
            return Handled::plain(self.answer_here(desk, caller, cmd, bank).await);
        }
        if cmd.name == "notify" {
            // The caller's own settings, in no thread.
            return Handled::plain(self.notify(caller, cmd).await);
        }
        let started = Instant::now();
        let thread = caller.thread;
        let tournament_command = matches!(run, Run::Tournament | Run::NewTournament);
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
                let hub: &mut Hub = &mut cell.hub;
                let handled = guarded(thread, raw, || hub.handle(caller, entropy, cmd, raw));
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
                    && cell
                        .hub
                        .game(thread)
                        .is_some_and(|g| g.pictures().is_some_and(|p| p.pictured(&cmd.name)))
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
                        let job = game
                            .filter(|_| shows == Shows::Picture && reply.ok == Some(true))
                            .and_then(|g| g.picture_after(&cmd.name, thread, caller.now));
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
        self.with_game(thread, |g| g.picture_after("revert", thread, now))
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
