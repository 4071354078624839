//! The hub with storage: every command is checked against the stored state, committed before
//! it is answered, and retried against the new state when another writer got there first.
//! Both front ends (console and Discord) use this.

use std::collections::{HashMap, HashSet};

use tokio::sync::Mutex;

use crate::commands::{Caller, Command, Hub, Notify, Reply, ThreadGame};
use crate::games::kfb::Game;
use crate::store::{LogLine, Store, StoreError, TournamentRows};
use crate::time::Timestamp;

/// How often a command is re-checked after losing a write race.
const RETRIES: usize = 8;

#[derive(Default)]
struct Inner {
    hub: Hub,
    versions: HashMap<String, i64>,
    /// Stored version of each tournament, and its rows at that version.
    t_versions: HashMap<String, (i64, TournamentRows)>,
    /// Game threads known not to be tournament matches.
    unlinked: HashSet<String>,
}

/// The command layer plus its database.
pub struct Service {
    store: Option<Store>,
    inner: Mutex<Inner>,
}

/// A snapshot of a game's log, to find what a command changed.
struct Before {
    existed: bool,
    len: usize,
    reverted: Vec<bool>,
}

fn before(hub: &Hub, thread: &str) -> Before {
    match hub.game(thread) {
        Some(g) => Before {
            existed: true,
            len: g.log_len(),
            reverted: g.reverted(),
        },
        None => Before {
            existed: false,
            len: 0,
            reverted: Vec::new(),
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

impl Service {
    /// A service without a database (everything in memory).
    pub fn in_memory() -> Service {
        Service {
            store: None,
            inner: Mutex::new(Inner::default()),
        }
    }

    /// A service over a database; every stored game is loaded by replaying its log.
    ///
    /// # Errors
    /// The database cannot be read.
    pub async fn with_store(store: Store) -> Result<Service, StoreError> {
        let svc = Service {
            store: Some(store),
            inner: Mutex::new(Inner::default()),
        };
        svc.load_all().await?;
        Ok(svc)
    }

    /// The store, if any.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// Loads (or reloads) every stored game.
    ///
    /// # Errors
    /// The database cannot be read.
    pub async fn load_all(&self) -> Result<usize, StoreError> {
        let Some(store) = &self.store else {
            return Ok(0);
        };
        let threads = store.threads().await?;
        let mut inner = self.inner.lock().await;
        for t in &threads {
            if let Some(sg) = store.load(t).await? {
                inner.hub.insert_game(t, sg.game);
                inner.versions.insert(t.clone(), sg.version);
            }
        }
        let tournaments = store.tournament_threads().await?;
        for t in &tournaments {
            if let Some((tour, version)) = store.load_tournament(t).await? {
                let rows = TournamentRows::of(&tour)?;
                inner.hub.insert_tournament(tour);
                inner.t_versions.insert(t.clone(), (version, rows));
            }
        }
        tracing::info!(
            games = threads.len(),
            tournaments = tournaments.len(),
            "games and tournaments loaded from storage"
        );
        Ok(threads.len())
    }

    /// Brings one thread's tournament up to date with the database.
    async fn sync_tournament(&self, inner: &mut Inner, thread: &str) -> Result<(), StoreError> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let stored = store.tournament_version(thread).await?;
        if stored == inner.t_versions.get(thread).map(|v| v.0) {
            return Ok(());
        }
        match store.load_tournament(thread).await? {
            Some((t, version)) => {
                let rows = TournamentRows::of(&t)?;
                inner.hub.insert_tournament(t);
                inner.t_versions.insert(thread.to_string(), (version, rows));
            }
            None => {
                inner.hub.remove_tournament(thread);
                inner.t_versions.remove(thread);
            }
        }
        Ok(())
    }

    /// The tournament a game thread is a match of, looked up once in the database.
    async fn match_owner(
        &self,
        inner: &mut Inner,
        thread: &str,
    ) -> Result<Option<String>, StoreError> {
        if let Some(owner) = inner.hub.tournament_of_match(thread) {
            return Ok(Some(owner));
        }
        let Some(store) = &self.store else {
            return Ok(None);
        };
        if inner.hub.game(thread).is_none() || inner.unlinked.contains(thread) {
            return Ok(None);
        }
        match store.tournament_of_match(thread).await? {
            Some(owner) => {
                inner.hub.link_match(thread, &owner);
                Ok(Some(owner))
            }
            None => {
                // A match's link is stored before its game, so a game without a link now
                // never gets one.
                inner.unlinked.insert(thread.to_string());
                Ok(None)
            }
        }
    }

    /// Saves a tournament's changes. `Ok(false)`: another writer won; reload and retry.
    async fn persist_tournament(
        &self,
        inner: &mut Inner,
        thread: &str,
        log: Option<LogLine<'_>>,
    ) -> Result<bool, StoreError> {
        let Some(store) = &self.store else {
            return Ok(true);
        };
        let Some(t) = inner.hub.tournament(thread) else {
            return Ok(true);
        };
        if !inner.t_versions.contains_key(thread) {
            if !store.create_tournament(t).await? {
                return Ok(false);
            }
            inner
                .t_versions
                .insert(thread.to_string(), (0, TournamentRows::default()));
        }
        let Some((expected, old)) = inner.t_versions.get(thread) else {
            return Ok(true);
        };
        if TournamentRows::of(t)? == *old && *expected > 0 {
            return Ok(true);
        }
        match store.save_tournament(t, *expected, old, log).await {
            Ok((v, rows)) => {
                inner.t_versions.insert(thread.to_string(), (v, rows));
                Ok(true)
            }
            Err(StoreError::Conflict) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Undoes an unsaved tournament change by reloading it.
    async fn discard_tournament(&self, inner: &mut Inner, thread: &str) {
        inner.t_versions.remove(thread);
        inner.hub.remove_tournament(thread);
        if let Err(e) = self.sync_tournament(inner, thread).await {
            tracing::error!(error = %e, thread, "reload after a failed write failed");
        }
    }

    /// After an action in a match thread: the tournament takes the game's result (a separate
    /// write, retried until it lands; the game's own write is already done).
    async fn reconcile(&self, inner: &mut Inner, thread: &str, now: Timestamp, reply: &mut Reply) {
        let owner = match self.match_owner(inner, thread).await {
            Ok(Some(o)) => o,
            Ok(None) => return,
            Err(e) => {
                tracing::error!(error = %e, thread, "match lookup failed");
                return;
            }
        };
        for _ in 0..RETRIES {
            if let Err(e) = self.sync_tournament(inner, &owner).await {
                tracing::error!(error = %e, "storage failed");
                return;
            }
            let news = inner.hub.reconcile_match(thread, now);
            match self.persist_tournament(inner, &owner, None).await {
                Ok(true) => {
                    if let Some(n) = news {
                        reply.notices.push(n);
                    }
                    return;
                }
                Ok(false) => self.discard_tournament(inner, &owner).await,
                Err(e) => {
                    tracing::error!(error = %e, "storage failed");
                    self.discard_tournament(inner, &owner).await;
                    return;
                }
            }
        }
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
        let mut inner = self.inner.lock().await;
        for _ in 0..RETRIES {
            if let Err(e) = self.sync_tournament(&mut inner, tournament).await {
                return internal_error(&e);
            }
            if let Err(e) = self.sync(&mut inner, match_thread).await {
                return internal_error(&e);
            }
            let was = before(&inner.hub, match_thread);
            let reply = inner.hub.open_match(tournament, round, board, match_thread);
            if reply.ok != Some(true) {
                return reply;
            }
            match self.persist_tournament(&mut inner, tournament, None).await {
                Ok(true) => {}
                Ok(false) => {
                    self.discard_tournament(&mut inner, tournament).await;
                    self.discard(&mut inner, match_thread).await;
                    continue;
                }
                Err(e) => {
                    self.discard_tournament(&mut inner, tournament).await;
                    self.discard(&mut inner, match_thread).await;
                    return internal_error(&e);
                }
            }
            match self
                .persist(&mut inner, match_thread, &was, now, None, &reply)
                .await
            {
                Ok(true) => return reply,
                Ok(false) => self.discard(&mut inner, match_thread).await,
                Err(e) => {
                    self.discard(&mut inner, match_thread).await;
                    return internal_error(&e);
                }
            }
        }
        internal_error(&StoreError::Conflict)
    }

    /// Runs `f` on a tournament (for pictures and exports).
    pub async fn with_tournament<T>(
        &self,
        thread: &str,
        f: impl FnOnce(&crate::tournament::Tournament) -> T,
    ) -> Option<T> {
        let mut inner = self.inner.lock().await;
        if let Err(e) = self.sync_tournament(&mut inner, thread).await {
            tracing::error!(error = %e, "storage failed");
        }
        inner.hub.tournament(thread).map(f)
    }

    /// Brings one thread's game up to date with the database.
    async fn sync(&self, inner: &mut Inner, thread: &str) -> Result<(), StoreError> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let stored = store.version(thread).await?;
        if stored == inner.versions.get(thread).copied() {
            return Ok(());
        }
        match store.load(thread).await? {
            Some(sg) => {
                inner.hub.insert_game(thread, sg.game);
                inner.versions.insert(thread.to_string(), sg.version);
            }
            None => {
                inner.hub.remove_game(thread);
                inner.versions.remove(thread);
            }
        }
        Ok(())
    }

    /// Saves what a command changed. `Ok(false)`: another writer won; reload and retry.
    async fn persist(
        &self,
        inner: &mut Inner,
        thread: &str,
        was: &Before,
        now: Timestamp,
        interaction: Option<&str>,
        reply: &Reply,
    ) -> Result<bool, StoreError> {
        let Some(store) = &self.store else {
            return Ok(true);
        };
        let Some(game) = inner.hub.game(thread) else {
            return Ok(true);
        };
        if !was.existed {
            if !store.create_game(thread, game, now).await? {
                return Ok(false);
            }
            inner.versions.insert(thread.to_string(), 0);
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
        if game.log_len() == was.len && newly.is_empty() {
            return Ok(true);
        }
        let expected = inner.versions.get(thread).copied().unwrap_or(0);
        match store
            .commit(
                thread,
                expected,
                game,
                was.len,
                &newly,
                interaction,
                &stored_reply(reply),
            )
            .await
        {
            Ok(v) => {
                inner.versions.insert(thread.to_string(), v);
                Ok(true)
            }
            Err(StoreError::Conflict) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Undoes an unsaved change by reloading the game from the database.
    async fn discard(&self, inner: &mut Inner, thread: &str) {
        inner.versions.remove(thread);
        if let Err(e) = self.sync(inner, thread).await {
            tracing::error!(error = %e, thread, "reload after a failed write failed");
        }
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
        if let (Some(store), Some(id)) = (&self.store, interaction) {
            match store.interaction_reply(id).await {
                Ok(Some(text)) => return replayed(text),
                Ok(None) => {}
                Err(e) => return internal_error(&e),
            }
        }
        let thread = caller.thread;
        let mut inner = self.inner.lock().await;
        for _ in 0..RETRIES {
            if let Err(e) = self.sync(&mut inner, thread).await {
                return internal_error(&e);
            }
            if let Err(e) = self.sync_tournament(&mut inner, thread).await {
                return internal_error(&e);
            }
            let was = before(&inner.hub, thread);
            let mut reply = inner.hub.handle(caller, entropy, cmd, raw);
            let saved = match self
                .persist(&mut inner, thread, &was, caller.now, interaction, &reply)
                .await
            {
                Ok(true) => {
                    let log = LogLine {
                        actor: caller.user,
                        time: caller.now,
                        command: raw,
                        reply: &reply.text,
                        interaction,
                    };
                    self.persist_tournament(&mut inner, thread, Some(log)).await
                }
                other => other,
            };
            match saved {
                Ok(true) => {
                    if reply.ok == Some(true) && was.existed {
                        self.reconcile(&mut inner, thread, caller.now, &mut reply)
                            .await;
                    }
                    return reply;
                }
                Ok(false) => {
                    tracing::debug!(thread, "lost a write race; re-checking");
                    self.discard(&mut inner, thread).await;
                    self.discard_tournament(&mut inner, thread).await;
                }
                Err(e) => {
                    self.discard(&mut inner, thread).await;
                    self.discard_tournament(&mut inner, thread).await;
                    return internal_error(&e);
                }
            }
        }
        internal_error(&StoreError::Conflict)
    }

    /// A chat line in a thread (a post for inactivity).
    pub async fn chat(&self, user: &str, thread: &str, now: Timestamp) {
        let mut inner = self.inner.lock().await;
        for _ in 0..RETRIES {
            if let Err(e) = self.sync(&mut inner, thread).await {
                tracing::error!(error = %e, "storage failed");
                return;
            }
            let was = before(&inner.hub, thread);
            inner.hub.chat(user, thread, now);
            match self
                .persist(&mut inner, thread, &was, now, None, &Reply::default())
                .await
            {
                Ok(true) => return,
                Ok(false) => self.discard(&mut inner, thread).await,
                Err(e) => {
                    tracing::error!(error = %e, "storage failed");
                    self.discard(&mut inner, thread).await;
                    return;
                }
            }
        }
    }

    /// A console-only `!` line of the thread's game (`!stack …`), saved like a command: the
    /// lines to print, or `None` when the game does not take it.
    pub async fn console_line(
        &self,
        thread: &str,
        words: &[&str],
        now: Timestamp,
    ) -> Option<Vec<String>> {
        let mut inner = self.inner.lock().await;
        for _ in 0..RETRIES {
            if let Err(e) = self.sync(&mut inner, thread).await {
                tracing::error!(error = %e, "storage failed");
                return Some(vec![format!("error: storage failed: {e}")]);
            }
            let was = before(&inner.hub, thread);
            let out = inner.hub.console_line(thread, words, now)?;
            match self
                .persist(&mut inner, thread, &was, now, None, &Reply::default())
                .await
            {
                Ok(true) => return Some(out),
                Ok(false) => self.discard(&mut inner, thread).await,
                Err(e) => {
                    self.discard(&mut inner, thread).await;
                    return Some(vec![format!("error: storage failed: {e}")]);
                }
            }
        }
        Some(vec!["error: storage kept changing; try again".into()])
    }

    /// A button press.
    pub async fn press(&self, user: &str, id: &str, now: Timestamp) -> Reply {
        let mut inner = self.inner.lock().await;
        let Some(thread) = inner.hub.button_thread(id) else {
            return inner.hub.press(user, id, now);
        };
        if let Err(e) = self.sync(&mut inner, &thread).await {
            return internal_error(&e);
        }
        let was = before(&inner.hub, &thread);
        let reply = inner.hub.press(user, id, now);
        let mut reply = reply;
        match self
            .persist(&mut inner, &thread, &was, now, None, &reply)
            .await
        {
            Ok(true) => {
                if reply.ok == Some(true) {
                    self.reconcile(&mut inner, &thread, now, &mut reply).await;
                }
                reply
            }
            Ok(false) => {
                self.discard(&mut inner, &thread).await;
                Reply {
                    ok: Some(false),
                    text: "the game changed while you confirmed; ask again with /revert".into(),
                    ephemeral: true,
                    ..Reply::default()
                }
            }
            Err(e) => {
                self.discard(&mut inner, &thread).await;
                internal_error(&e)
            }
        }
    }

    /// Timer messages (lock expiries, turn limits) due by `now` (after `after`), each
    /// announced once even across restarts and processes; those that fell due more than a
    /// minute ago say they are late.
    pub async fn due_messages(&self, after: Timestamp, now: Timestamp) -> Vec<(String, Notify)> {
        let mut inner = self.inner.lock().await;
        let due = inner.hub.due_timers(after, now);
        let mut out = Vec::new();
        for (thread, d) in due {
            let fresh = match &self.store {
                Some(store) => match store.fire_timer(&thread, d.seat, d.at, now).await {
                    Ok(f) => f,
                    Err(e) => {
                        tracing::error!(error = %e, "storage failed");
                        continue;
                    }
                },
                None => true,
            };
            inner.hub.mark_notified(&thread, d.seat, d.at);
            if fresh {
                let notify = d.notify;
                let notify = if now > d.at + 60 {
                    notify.append(&format!(
                        " (late: this fell due at {} while the bot was away)",
                        crate::time::stamp(d.at, crate::time::Style::Full)
                    ))
                } else {
                    notify
                };
                out.push((thread, notify));
            }
        }
        out
    }

    /// Runs `f` on a game (for pictures, state dumps and autocomplete).
    pub async fn with_game<T>(
        &self,
        thread: &str,
        f: impl FnOnce(&dyn ThreadGame) -> T,
    ) -> Option<T> {
        let mut inner = self.inner.lock().await;
        if let Err(e) = self.sync(&mut inner, thread).await {
            tracing::error!(error = %e, "storage failed");
        }
        inner.hub.game(thread).map(f)
    }

    /// Runs `f` on a thread's game if it is a Kung Fu Bughouse game.
    pub async fn with_kfb<T>(&self, thread: &str, f: impl FnOnce(&Game) -> T) -> Option<T> {
        self.with_game(thread, |g| g.as_any().downcast_ref::<Game>().map(f))
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
    // Seed 1 names f as the first picker (RULINGS §1.8).
    let picks = [
        ("f", "/pick order:second color:red army:fide"),
        ("a", "/pick order:first color:red army:fide"),
        ("e", "/pick order:first color:blue army:rookies"),
        ("b", "/pick order:second color:lightgreen army:nutty"),
        ("d", "/pick order:second color:lightgreen army:clobberers"),
        ("c", "/pick order:first color:blue army:forward"),
    ];
    for t in &threads {
        let text = "/kfb new team1:@a @b @c team2:@d @e @f seed:1 move_limit:6m";
        if let Some(cmd) = crate::commands::parse_command(text) {
            svc.handle(&Caller { thread: t, ..org }, 1, &cmd, text, None)
                .await;
        }
        for (u, p) in picks {
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
            let mut rng = crate::games::kfb::splitmix(task as u64 + 11);
            let mut times = Vec::new();
            let mut now = start_time;
            let users = ["a", "b", "c", "d", "e", "f"];
            let mut attempts = 0;
            while times.len() < per_task && attempts < per_task * 20 {
                attempts += 1;
                rng = crate::games::kfb::splitmix(rng);
                now += 400;
                let thread = &threads[(rng % threads.len() as u64) as usize];
                let seat = (crate::games::kfb::splitmix(rng) % 6) as usize;
                let Some(moves) = svc.with_kfb(thread, |g| g.legal_moves(seat, now)).await else {
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
