//! Storage: games and their append-only action log in SQLite (the embedded default) or
//! PostgreSQL (for several bot processes sharing one database), through sqlx with migrations.
//!
//! Writes are optimistic: each game row has a version; a commit names the version it read, and
//! loses (with [`StoreError::Conflict`]) if another writer got there first. The caller then
//! reloads the game and re-checks the command against the new state. Commits of several games
//! arriving together are written in one transaction (the `group` module).

use std::str::FromStr;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Row};

mod group;
mod tournaments;

pub use tournaments::{LogLine, TournamentRows};

use crate::commands::{kind_of, LogRow, ThreadGame};
use crate::layer::attention::{nowait_key, Attention, NOTIFY_KEY, NOWAIT_KEY, RESUMED_KEY};
use crate::layer::prefs::Prefs;
use crate::layer::remind;
use crate::layer::vacation::{vacation_key, Taken, VACATION_KEY};
use crate::time::Timestamp;

/// The default database: a SQLite file in the working directory.
pub const DEFAULT_URL: &str = "sqlite://arbiter.db?mode=rwc";

/// Storage errors.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    /// Migrations failed.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored value does not decode.
    #[error("stored data does not decode: {0}")]
    Decode(String),
    /// Another writer committed first.
    #[error("another command on this game was committed first")]
    Conflict,
    /// A commit was left unfinished (its batch stopped before it could say).
    #[error("the commit was interrupted; nothing was saved")]
    Abandoned,
    /// A batch of commits failed as a whole (see the `group` module); the database's words.
    #[error("database error: {0}")]
    Batch(String),
    /// A SQLite database file that does not exist cannot be created there.
    #[error("cannot create the SQLite database {}: {reason}", .path.display())]
    Create {
        /// The database file.
        path: std::path::PathBuf,
        /// Why, in plain words.
        reason: String,
    },
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> Self {
        StoreError::Decode(e.to_string())
    }
}

/// Which database.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// SQLite (embedded).
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

/// A connection pool with the schema migrated.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// Commits of games, grouped (see [`group`]); shared by the clones of this store.
    group: std::sync::Arc<group::Group>,
    /// The SQLite file's checkpointer, stopped when the last clone of this store goes.
    _checkpointer: Option<std::sync::Arc<Checkpointer>>,
    /// Players' notification settings, dismissed waits and resumed games (stored in `meta`,
    /// read at connection; shared by the clones of this store and the service): reminders
    /// and the next due times stored with games depend on them.
    attention: Shared<Attention>,
}

/// A value shared between the store and the service: read as a snapshot (a cheap `Arc`
/// clone), changed by copy on write.
pub type Shared<T> = std::sync::Arc<std::sync::Mutex<std::sync::Arc<T>>>;

/// How often the checkpointer copies a SQLite file's write-ahead log into the database
/// (PASSIVE: it waits for no reader or writer), unless `ARBITER_SQLITE_CHECKPOINT_MS` says
/// otherwise (0: no checkpointer; commits checkpoint the log themselves every 1000 pages, as
/// SQLite does by default). Each checkpoint syncs the log and the database file, and on a
/// disk shared with other work those syncs can take a few hundred ms and hold up a commit's
/// own sync meanwhile: measured with the fake-Discord benchmark, checkpointing every 500 ms
/// made such stalls more frequent than SQLite's own every 1000 pages; every 5 s the log stays
/// well under 1000 pages at 20 moves a second, so no commit checkpoints, with as few syncs as
/// before.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// `synchronous` for a SQLite file: FULL (a committed move survives a power cut) unless
/// `ARBITER_SQLITE_SYNCHRONOUS=normal`. NORMAL (opt-in) skips the sync of each commit in WAL
/// mode: the database stays consistent, and a crash of the bot loses nothing, but a power cut
/// or an OS crash may lose the last commits (moves already answered).
fn synchronous() -> &'static str {
    match std::env::var("ARBITER_SQLITE_SYNCHRONOUS") {
        Ok(v) if v.trim().eq_ignore_ascii_case("normal") => "PRAGMA synchronous = NORMAL",
        _ => "PRAGMA synchronous = FULL",
    }
}

/// The checkpointer's period from `ARBITER_SQLITE_CHECKPOINT_MS` (`None`: none).
fn checkpoint_every() -> Option<std::time::Duration> {
    match std::env::var("ARBITER_SQLITE_CHECKPOINT_MS") {
        Ok(v) => match v.trim().parse::<u64>() {
            Ok(0) => None,
            Ok(ms) => Some(std::time::Duration::from_millis(ms)),
            Err(_) => Some(CHECKPOINT_EVERY),
        },
        Err(_) => Some(CHECKPOINT_EVERY),
    }
}

/// Pages (4 KiB) the write-ahead log may reach before the commit that finds it so runs the
/// checkpoint itself, on its own path: a backstop only, the checkpointer keeps it far below.
/// (SQLite's default, 1000 pages, had commits of a burst or a steady load checkpoint now and
/// then: the commit's caller waited for the copy and its fsyncs, tens to hundreds of ms.)
const WAL_AUTOCHECKPOINT: u32 = 10_000;

/// The task checkpointing a SQLite file in the background (aborted when dropped).
#[derive(Debug)]
struct Checkpointer(tokio::task::AbortHandle);

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Checkpoints the write-ahead log every [`CHECKPOINT_EVERY`], off every command's path, until
/// the pool is closed. Durability is unchanged: a commit is durable once its WAL frames are
/// synced (`synchronous = FULL`); the checkpoint only moves them into the database file.
async fn checkpoint_loop(pool: AnyPool, period: std::time::Duration) {
    let mut every = tokio::time::interval(period);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if pool.is_closed() {
            return;
        }
        let t = std::time::Instant::now();
        match sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_optional(&pool)
            .await
        {
            Ok(row) => {
                let took = t.elapsed();
                if took > std::time::Duration::from_millis(50) {
                    let pages = row.and_then(|r| r.try_get::<i64, _>(2).ok());
                    tracing::info!(ms = took.as_millis() as u64, pages = ?pages, "slow background checkpoint");
                }
            }
            Err(e) => {
                if pool.is_closed() {
                    return;
                }
                tracing::debug!(error = %e, "background checkpoint failed; the next one retries");
            }
        }
    }
}

/// A game as stored: the game and its version.
#[derive(Clone)]
pub struct StoredGame {
    /// Thread.
    pub thread: String,
    /// The game, replayed.
    pub game: Box<dyn ThreadGame>,
    /// Version for optimistic writes.
    pub version: i64,
    /// The time up to which its timers were swept (announced or found announced).
    pub swept: Timestamp,
    /// Its players' conditional moves (JSON; empty for none).
    pub premoves: String,
    /// The Discord server its thread is in (none: made on the console, or stored before
    /// servers were kept).
    pub guild: Option<String>,
}

/// A duplicate key on insert means another writer (or an earlier delivery of the same
/// interaction) got there first: a [`StoreError::Conflict`]. The transaction is rolled back
/// when it is dropped.
fn conflict_if_duplicate(e: sqlx::Error) -> StoreError {
    match e {
        sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::Conflict,
        e => e.into(),
    }
}

fn i64_of(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// A database named by the user, as [`Store::connect`] reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A PostgreSQL URL, as given.
    Postgres(String),
    /// A SQLite database kept in memory (`sqlite::memory:`), as given.
    SqliteMemory(String),
    /// A SQLite file: the URL to open it with and the file's path.
    SqliteFile {
        /// The URL for sqlx: `mode=rwc` (create if missing) unless the user chose a mode.
        url: String,
        /// The database file.
        path: std::path::PathBuf,
        /// Whether a missing file is created (no `mode` other than `rwc` was asked for).
        create: bool,
    },
    /// Any other URL (`scheme://…`), left for sqlx to accept or refuse.
    Other(String),
}

impl Target {
    /// Reads a database URL or a plain file path: `postgres://…` (or `postgresql://…`),
    /// `sqlite::memory:`, `sqlite://games.db` or `sqlite:games.db` (relative to the working
    /// directory), `sqlite:///abs/games.db`, or a plain path such as `games.db`. A SQLite file
    /// is created if it is missing (`mode=rwc`), unless the URL sets `mode` itself.
    pub fn parse(url: &str) -> Target {
        let url = url.trim();
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Target::Postgres(url.to_string());
        }
        if url.contains("://") && !url.starts_with("sqlite://") {
            return Target::Other(url.to_string());
        }
        let Some(rest) = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
        else {
            // A plain path: the whole text names the file.
            return Target::SqliteFile {
                url: format!("sqlite://{}?mode=rwc", encode_path(url)),
                path: std::path::PathBuf::from(url),
                create: true,
            };
        };
        let (database, params) = match rest.split_once('?') {
            Some((d, p)) => (d, Some(p)),
            None => (rest, None),
        };
        let params: Vec<&str> = params
            .into_iter()
            .flat_map(|p| p.split('&'))
            .filter(|p| !p.is_empty())
            .collect();
        let memory =
            database.is_empty() || database == ":memory:" || params.contains(&"mode=memory");
        if memory {
            return Target::SqliteMemory(url.to_string());
        }
        let mut params: Vec<String> = params.into_iter().map(str::to_string).collect();
        if !params.iter().any(|p| p.starts_with("mode=")) {
            params.push("mode=rwc".to_string());
        }
        Target::SqliteFile {
            url: format!("sqlite://{database}?{}", params.join("&")),
            path: std::path::PathBuf::from(decode_path(database)),
            create: params.iter().any(|p| p == "mode=rwc"),
        }
    }

    fn backend(&self) -> Backend {
        match self {
            Target::Postgres(_) | Target::Other(_) => Backend::Postgres,
            Target::SqliteMemory(_) | Target::SqliteFile { .. } => Backend::Sqlite,
        }
    }

    /// The URL sqlx opens.
    pub fn url(&self) -> &str {
        match self {
            Target::Postgres(u)
            | Target::SqliteMemory(u)
            | Target::Other(u)
            | Target::SqliteFile { url: u, .. } => u,
        }
    }
}

/// Percent-encodes what would end or bend the path part of a `sqlite://` URL.
fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            '%' => out.push_str("%25"),
            '?' => out.push_str("%3F"),
            '#' => out.push_str("%23"),
            ' ' => out.push_str("%20"),
            c => out.push(c),
        }
    }
    out
}

/// Decodes `%xx` escapes in a URL's path (as sqlx does), leaving anything malformed as is.
fn decode_path(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Makes sure a SQLite file exists (an empty file is a new database), creating it if it is
/// missing, with an error that names the path and why it cannot be created.
fn ensure_file(path: &std::path::Path) -> Result<(), StoreError> {
    let fail = |reason: String| StoreError::Create {
        path: path.to_path_buf(),
        reason,
    };
    if path.is_dir() {
        return Err(fail("that is a directory".to_string()));
    }
    if path.exists() {
        return Ok(());
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    if !parent.exists() {
        return Err(fail(format!(
            "the directory {} does not exist",
            parent.display()
        )));
    }
    if !parent.is_dir() {
        return Err(fail(format!("{} is not a directory", parent.display())));
    }
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map(|_| ())
        .map_err(|e| {
            fail(format!(
                "the directory {} cannot be written ({e})",
                parent.display()
            ))
        })
}

impl Store {
    /// Connects and runs the migrations. `url` is a database URL or a plain file path (see
    /// [`Target::parse`]); `None` is the default SQLite file `arbiter.db` here. A SQLite file
    /// that does not exist yet is created, whichever way it is named.
    ///
    /// # Errors
    /// The database cannot be created, reached or migrated.
    pub async fn connect(url: Option<&str>) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let target = Target::parse(url.unwrap_or(DEFAULT_URL));
        let backend = target.backend();
        if let Target::SqliteFile {
            path, create: true, ..
        } = &target
        {
            ensure_file(path)?;
        }
        let options = AnyConnectOptions::from_str(target.url())?;
        let memory = matches!(target, Target::SqliteMemory(_));
        let period = checkpoint_every().filter(|_| backend == Backend::Sqlite && !memory);
        let checkpointing = period.is_some();
        let sync = synchronous();
        let pool = AnyPoolOptions::new()
            .max_connections(if memory { 1 } else { 8 })
            // A SQLite connection is a file in this process: no need to ping it before each
            // use (a round trip to its worker thread); a server's connection may have dropped.
            .test_before_acquire(backend == Backend::Postgres)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        sqlx::query("PRAGMA busy_timeout = 10000")
                            .execute(&mut *conn)
                            .await?;
                        if !memory {
                            sqlx::query("PRAGMA journal_mode = WAL")
                                .execute(&mut *conn)
                                .await?;
                            sqlx::query(sync).execute(&mut *conn).await?;
                            if checkpointing {
                                sqlx::query(&format!(
                                    "PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT}"
                                ))
                                .execute(&mut *conn)
                                .await?;
                            }
                        }
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        let checkpointer = period.and_then(|period| {
            let rt = tokio::runtime::Handle::try_current().ok()?;
            let task = rt.spawn(checkpoint_loop(pool.clone(), period));
            Some(std::sync::Arc::new(Checkpointer(task.abort_handle())))
        });
        let store = Store {
            pool,
            backend,
            group: std::sync::Arc::default(),
            _checkpointer: checkpointer,
            attention: Shared::default(),
        };
        store.reload_attention().await?;
        Ok(store)
    }

    /// Reads the players' settings, dismissed waits and resumed games again (another process
    /// on this database may have changed them): the timer sweep does before it reads games.
    ///
    /// # Errors
    /// Database failure.
    pub async fn reload_attention(&self) -> Result<(), StoreError> {
        let mut attention = Attention::default();
        for prefix in [NOTIFY_KEY, NOWAIT_KEY, RESUMED_KEY, VACATION_KEY] {
            for (k, v) in self.meta_with_prefix(prefix).await? {
                attention.load_row(&k, &v);
            }
        }
        *self.attention_mut() = std::sync::Arc::new(attention);
        Ok(())
    }

    /// The players' settings, dismissed waits and resumed games, shared with the service.
    pub fn attention(&self) -> Shared<Attention> {
        self.attention.clone()
    }

    fn attention_mut(&self) -> std::sync::MutexGuard<'_, std::sync::Arc<Attention>> {
        self.attention
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// [`Store::attention`] as it stands.
    pub fn attention_now(&self) -> std::sync::Arc<Attention> {
        self.attention_mut().clone()
    }

    /// Stores a player's `/notify` settings; the games they play are swept at once, so
    /// their next due times follow the new settings.
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_prefs(&self, user: &str, prefs: &Prefs) -> Result<(), StoreError> {
        self.set_meta(
            &format!("{NOTIFY_KEY}{user}"),
            &serde_json::to_string(prefs)?,
        )
        .await?;
        std::sync::Arc::make_mut(&mut self.attention_mut()).set_prefs(user, prefs.clone());
        for thread in self.unfinished_threads_of(user).await? {
            self.sweep_soon(&thread).await?;
        }
        Ok(())
    }

    /// Stores a player's vacations on a server; their games are swept at once, so their next
    /// due times follow (a limit moved later, or earlier again by `/vacation off`).
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_vacations(
        &self,
        server: &str,
        user: &str,
        taken: &Taken,
    ) -> Result<(), StoreError> {
        self.set_meta(&vacation_key(server, user), &serde_json::to_string(taken)?)
            .await?;
        std::sync::Arc::make_mut(&mut self.attention_mut()).set_vacations(
            server,
            user,
            taken.clone(),
        );
        // A new version makes another process read the game, and the vacations, again.
        for thread in self.unfinished_threads_of(user).await? {
            sqlx::query(
                "UPDATE games SET next_due = 0, version = version + 1 WHERE thread = $1 AND finished = 0",
            )
            .bind(&thread)
            .execute(&self.pool)
            .await?;
        }
        Ok(())
    }

    /// Reads the players' vacations again (another process may have changed them).
    ///
    /// # Errors
    /// Database failure.
    pub async fn reload_vacations(&self) -> Result<(), StoreError> {
        let rows = self.meta_with_prefix(VACATION_KEY).await?;
        let mut att = self.attention_mut();
        let att = std::sync::Arc::make_mut(&mut att);
        for (k, v) in rows {
            att.load_row(&k, &v);
        }
        Ok(())
    }

    /// Stores a "not waiting on me" for a wait.
    ///
    /// # Errors
    /// Database failure.
    pub async fn dismiss(
        &self,
        thread: &str,
        user: &str,
        since: Timestamp,
    ) -> Result<(), StoreError> {
        self.set_meta(&nowait_key(thread, user, since), "").await?;
        std::sync::Arc::make_mut(&mut self.attention_mut()).dismiss(thread, user, since);
        self.sweep_soon(thread).await
    }

    /// Stores an organiser's `/resume` of a game paused for want of action.
    ///
    /// # Errors
    /// Database failure.
    pub async fn resume(&self, thread: &str, at: Timestamp) -> Result<(), StoreError> {
        // Every resume is kept (the layer's clock reads the game's past pauses from them).
        let mut every = self.attention_now().resumes_text(thread);
        if !every.is_empty() {
            every.push(' ');
        }
        every.push_str(&at.to_string());
        self.set_meta(&format!("{RESUMED_KEY}{thread}"), &every)
            .await?;
        std::sync::Arc::make_mut(&mut self.attention_mut()).resume(thread, at);
        self.sweep_soon(thread).await
    }

    /// Has the next sweep read the game in `thread` (its next due time recomputed then).
    async fn sweep_soon(&self, thread: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET next_due = 0 WHERE thread = $1 AND finished = 0")
            .bind(thread)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Which database this is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Stores a new game. Returns false if the thread already has one.
    ///
    /// # Errors
    /// Database failure.
    pub async fn create_game(
        &self,
        thread: &str,
        game: &dyn ThreadGame,
        now: Timestamp,
    ) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "INSERT INTO games (thread, variant, users, settings, version, finished, created_at, next_due, swept) \
             VALUES ($1, $2, $3, $4, 0, 0, $5, $6, 0) ON CONFLICT (thread) DO NOTHING",
        )
        .bind(thread)
        .bind(game.kind().variant)
        .bind(serde_json::to_string(&game.users())?)
        .bind(game.settings_json()?)
        .bind(i64_of(now))
        .bind(remind::next_due(game, thread, &self.attention_now(), 0).map(i64_of))
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// The first column of the row `sql` finds for `key` (bound as `$1`), if there is one.
    async fn one<T>(&self, sql: &str, key: &str) -> Result<Option<T>, StoreError>
    where
        T: for<'r> sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any>,
    {
        let row = sqlx::query(sql)
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some(r.try_get::<T, _>(0)?),
            None => None,
        })
    }

    /// The version of a game, if stored.
    ///
    /// # Errors
    /// Database failure.
    pub async fn version(&self, thread: &str) -> Result<Option<i64>, StoreError> {
        self.one("SELECT version FROM games WHERE thread = $1", thread)
            .await
    }

    /// Commits a game's new log entries (from `base_len` on), the entries newly marked
    /// reverted, and the reply, if the stored version is still `expected`.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if another writer committed first; database failure.
    #[allow(clippy::too_many_arguments)]
    pub async fn commit(
        &self,
        thread: &str,
        expected: i64,
        game: &dyn ThreadGame,
        base_len: usize,
        newly_reverted: &[usize],
        interaction: Option<&str>,
        reply: &str,
    ) -> Result<i64, StoreError> {
        self.commit_swept(
            thread,
            expected,
            game,
            base_len,
            newly_reverted,
            interaction,
            reply,
            0,
            None,
            None,
        )
        .await
    }

    /// [`Store::commit`] for a game whose timers were swept up to `swept`: the game's next
    /// due time (after `swept`) is stored with it, for the timer sweep; so are its players'
    /// conditional moves (`premoves`, JSON) when they changed.
    ///
    /// Commits arriving together (moves in several games at once) share one transaction, each
    /// game with its own version check (see the `group` module); this returns once the transaction
    /// holding this game's rows is committed.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if another writer committed first; database failure.
    #[allow(clippy::too_many_arguments)]
    pub async fn commit_swept(
        &self,
        thread: &str,
        expected: i64,
        game: &dyn ThreadGame,
        base_len: usize,
        newly_reverted: &[usize],
        interaction: Option<&str>,
        reply: &str,
        swept: Timestamp,
        premoves: Option<&str>,
        seated: Option<&str>,
    ) -> Result<i64, StoreError> {
        let len = game.log_len();
        let mut rows = Vec::with_capacity(len.saturating_sub(base_len));
        for i in base_len..len {
            if let Some(e) = game.row(i) {
                rows.push((i as i64, e?));
            }
        }
        let mut reverted = Vec::with_capacity(newly_reverted.len());
        for &i in newly_reverted {
            let Some(e) = game.row(i) else { continue };
            if let Some((by, why)) = e?.reverted {
                reverted.push((i as i64, by, why));
            }
        }
        let append = group::Append {
            thread: thread.to_string(),
            expected,
            finished: i64::from(game.finished()),
            next_due: remind::next_due(game, thread, &self.attention_now(), swept).map(i64_of),
            rows,
            reply: reply.to_string(),
            interaction: interaction.map(str::to_string),
            reverted,
            premoves: premoves.map(str::to_string),
            seated: seated.map(str::to_string),
        };
        self.group.commit(&self.pool, append).await
    }

    /// The stored reply of an interaction already applied.
    ///
    /// # Errors
    /// Database failure.
    pub async fn interaction_reply(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.one(
            "SELECT reply FROM actions WHERE interaction = $1 \
             UNION ALL SELECT reply FROM tournament_log WHERE interaction = $1",
            id,
        )
        .await
    }

    /// Loads one game by replaying its log.
    ///
    /// # Errors
    /// Database failure or a log that does not replay.
    pub async fn load(&self, thread: &str) -> Result<Option<StoredGame>, StoreError> {
        let Some(row) = sqlx::query(
            "SELECT users, settings, version, variant, swept, premoves, guild FROM games WHERE thread = $1",
        )
        .bind(thread)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let users: Vec<String> = serde_json::from_str(&row.try_get::<String, _>(0)?)?;
        let settings: String = row.try_get(1)?;
        let version: i64 = row.try_get(2)?;
        let variant: String = row.try_get(3)?;
        let swept = row.try_get::<i64, _>(4)?.max(0) as u64;
        let premoves: String = row.try_get(5)?;
        let guild: Option<String> = row.try_get(6)?;
        let kind = kind_of(&variant).ok_or_else(|| {
            StoreError::Decode(format!("game {thread}: unknown game kind {variant:?}"))
        })?;
        let rows = sqlx::query(
            "SELECT seq, number, actor, time, command, action, reverted_by, reverted_reason FROM actions WHERE thread = $1 ORDER BY seq",
        )
        .bind(thread)
        .fetch_all(&self.pool)
        .await?;
        let mut entries = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            let seq: i64 = r.try_get(0)?;
            if seq != i as i64 {
                return Err(StoreError::Decode(format!(
                    "game {thread}: gap in the log at {i}"
                )));
            }
            let number: Option<i64> = r.try_get(1)?;
            let by: Option<String> = r.try_get(6)?;
            let why: Option<String> = r.try_get(7)?;
            entries.push(LogRow {
                number: number.map(|n| n as u32),
                actor: r.try_get(2)?,
                time: r.try_get::<i64, _>(3)?.max(0) as u64,
                command: r.try_get(4)?,
                action: r.try_get(5)?,
                reverted: by.map(|b| (b, why.unwrap_or_default())),
                audit: None,
            });
        }
        // A replay that runs out limits reads who was away (shared rules 7.5).
        let away = if crate::layer::vacation_off(&settings) {
            crate::layer::clock::Away::none()
        } else {
            self.attention_now().away(&users, guild.as_deref())
        };
        let game = (kind.load)(users, &settings, entries, &away)
            .map_err(|e| StoreError::Decode(format!("game {thread}: {e}")))?;
        Ok(Some(StoredGame {
            thread: thread.to_string(),
            game,
            version,
            swept,
            premoves,
            guild,
        }))
    }

    /// The threads of the games in play that `user` is seated in (for `/mygames`).
    ///
    /// # Errors
    /// Database failure.
    pub async fn unfinished_threads_of(&self, user: &str) -> Result<Vec<String>, StoreError> {
        self.unfinished_threads_on(user, None).await
    }

    /// [`Store::unfinished_threads_of`] on one server (`guild`): its games, and the games
    /// whose server is not known (stored before issue 41, or made on the console).
    ///
    /// # Errors
    /// Database failure.
    pub async fn unfinished_threads_on(
        &self,
        user: &str,
        guild: Option<&str>,
    ) -> Result<Vec<String>, StoreError> {
        // The users are a JSON list of strings: a user's games hold `"<user>"`. LIKE's
        // wildcards in a name only widen the search; the caller checks each game's users.
        let rows = sqlx::query(
            "SELECT thread FROM games WHERE finished = 0 AND (users LIKE $1 OR seated LIKE $1) \
             AND ($2 = '' OR guild IS NULL OR guild = $2) ORDER BY thread",
        )
        .bind(format!("%\"{user}\"%"))
        .bind(guild.unwrap_or(""))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(StoreError::from))
            .collect()
    }

    /// The threads of the games in play on one server (`guild`, as for
    /// [`Store::unfinished_threads_on`]) that `user` may run: named in their settings (a
    /// Referee, a KFB game's creator), in their first entry (a Party game's Chess-Umpire), or
    /// the author of their first entry.
    /// The caller checks each game's organiser and officials.
    ///
    /// # Errors
    /// Database failure.
    pub async fn unfinished_threads_run_by(
        &self,
        user: &str,
        guild: Option<&str>,
    ) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT thread FROM games WHERE finished = 0 \
             AND ($2 = '' OR guild IS NULL OR guild = $2) \
             AND (settings LIKE $1 OR EXISTS (SELECT 1 FROM actions a WHERE a.thread = games.thread \
             AND (a.actor = $3 OR a.action LIKE $1) \
             AND a.seq = (SELECT MIN(b.seq) FROM actions b WHERE b.thread = games.thread))) \
             ORDER BY thread",
        )
        .bind(format!("%\"{user}\"%"))
        .bind(guild.unwrap_or(""))
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(StoreError::from))
            .collect()
    }

    /// The finished games of one kind (`variant`) on one server (`guild`, as for
    /// [`Store::unfinished_threads_on`]: its games and those stored without a server; every
    /// game when `None`), each with its version and server: the ratings (issue 57) read again
    /// only the games whose version changed since they last read them.
    ///
    /// # Errors
    /// Database failure.
    pub async fn finished_games(
        &self,
        variant: &str,
        guild: Option<&str>,
    ) -> Result<Vec<(String, i64, Option<String>)>, StoreError> {
        let rows = sqlx::query(
            "SELECT thread, version, guild FROM games WHERE finished = 1 AND variant = $1 \
             AND ($2 = '' OR guild IS NULL OR guild = $2) ORDER BY thread",
        )
        .bind(variant)
        .bind(guild.unwrap_or(""))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
            .collect()
    }

    /// Records the Discord server a game's thread is in (for `/mygames` there).
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_guild(&self, thread: &str, guild: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET guild = $2 WHERE thread = $1")
            .bind(thread)
            .bind(guild)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The Discord server recorded for a game's thread (`None`: none recorded, or no such
    /// game).
    ///
    /// # Errors
    /// Database failure.
    pub async fn guild_of(&self, thread: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT guild FROM games WHERE thread = $1")
            .bind(thread)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(r) => Ok(r.try_get(0)?),
            None => Ok(None),
        }
    }

    /// Games with a timer falling due by `now` (by their stored next due time, indexed).
    ///
    /// # Errors
    /// Database failure.
    pub async fn due_threads(&self, now: Timestamp) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT thread FROM games WHERE next_due IS NOT NULL AND next_due <= $1 ORDER BY next_due, thread",
        )
        .bind(i64_of(now))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(StoreError::from))
            .collect()
    }

    /// After a timer sweep of a game at `version`: its timers are handled up to `swept` and
    /// the next falls due at `next_due`. False if the game changed meanwhile (its commit
    /// stored its own next due time; the next sweep looks again).
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_swept(
        &self,
        thread: &str,
        version: i64,
        swept: Timestamp,
        next_due: Option<Timestamp>,
    ) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "UPDATE games SET swept = $1, next_due = $2 WHERE thread = $3 AND version = $4",
        )
        .bind(i64_of(swept))
        .bind(next_due.map(i64_of))
        .bind(thread)
        .bind(version)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// A game's stored version and the time up to which its timers were swept (for the
    /// sweep, which claims a game's timers by that pair).
    ///
    /// # Errors
    /// Database failure.
    pub async fn sweep_state(&self, thread: &str) -> Result<Option<(i64, Timestamp)>, StoreError> {
        let row = sqlx::query("SELECT version, swept FROM games WHERE thread = $1")
            .bind(thread)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some((r.try_get(0)?, r.try_get::<i64, _>(1)?.max(0) as u64)),
            None => None,
        })
    }

    /// One game's timer sweep, in one transaction: claims the game's timers from `from`
    /// (its stored sweep time, at `version`) up to `swept`, stores its next due time, and
    /// records the timers `fired` (seat, due time). Returns, for each of `fired`, whether it
    /// is new (not recorded before, by this or another process); `None` when the claim is
    /// lost (the game changed, or another process swept it meanwhile): nothing is written
    /// and the caller reads the game again.
    ///
    /// # Errors
    /// Database failure.
    #[allow(clippy::too_many_arguments)]
    pub async fn sweep_game(
        &self,
        thread: &str,
        version: i64,
        from: Timestamp,
        swept: Timestamp,
        next_due: Option<Timestamp>,
        fired: &[(usize, Timestamp)],
        now: Timestamp,
    ) -> Result<Option<Vec<bool>>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let r = sqlx::query(
            "UPDATE games SET swept = $1, next_due = $2 WHERE thread = $3 AND version = $4 AND swept = $5",
        )
        .bind(i64_of(swept))
        .bind(next_due.map(i64_of))
        .bind(thread)
        .bind(version)
        .bind(i64_of(from))
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(None);
        }
        let (Some(lo), Some(hi)) = (
            fired.iter().map(|f| f.1).min(),
            fired.iter().map(|f| f.1).max(),
        ) else {
            tx.commit().await?;
            return Ok(Some(Vec::new()));
        };
        // Timers recorded before (by a process before this sweep column existed, or
        // announced by another path) are not announced again.
        let rows = sqlx::query(
            "SELECT seat, due FROM timers_fired WHERE thread = $1 AND due >= $2 AND due <= $3",
        )
        .bind(thread)
        .bind(i64_of(lo))
        .bind(i64_of(hi))
        .fetch_all(&mut *tx)
        .await?;
        let mut known = std::collections::HashSet::new();
        for r in rows {
            let seat: i64 = r.try_get(0)?;
            let due: i64 = r.try_get(1)?;
            known.insert((seat, due));
        }
        let mut fresh = Vec::with_capacity(fired.len());
        let mut new_rows: Vec<(i64, i64)> = Vec::new();
        for &(seat, due) in fired {
            let key = (seat as i64, i64_of(due));
            let is_new = known.insert(key);
            fresh.push(is_new);
            if is_new {
                new_rows.push(key);
            }
        }
        // Many rows per statement (four parameters a row, well under either database's
        // limit).
        for chunk in new_rows.chunks(500) {
            let mut sql =
                String::from("INSERT INTO timers_fired (thread, seat, due, fired_at) VALUES ");
            for i in 0..chunk.len() {
                let b = i * 4;
                if i > 0 {
                    sql.push_str(", ");
                }
                sql.push_str(&format!("(${}, ${}, ${}, ${})", b + 1, b + 2, b + 3, b + 4));
            }
            sql.push_str(" ON CONFLICT (thread, seat, due) DO NOTHING");
            let mut q = sqlx::query(&sql);
            for &(seat, due) in chunk {
                q = q.bind(thread).bind(seat).bind(due).bind(i64_of(now));
            }
            q.execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(Some(fresh))
    }

    /// Stores many games at once, each at version 1 with its whole log, its timers swept up to
    /// `swept` and its next due time (for benchmarks: `arbiter scale-bench`).
    ///
    /// # Errors
    /// Database failure, or a thread that already has a game.
    pub async fn bulk_games(
        &self,
        games: &[(String, &dyn ThreadGame, Timestamp, Option<Timestamp>)],
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        for (thread, game, swept, next) in games {
            sqlx::query(
                "INSERT INTO games (thread, variant, users, settings, version, finished, created_at, next_due, swept) \
                 VALUES ($1, $2, $3, $4, 1, $5, 0, $6, $7)",
            )
            .bind(thread)
            .bind(game.kind().variant)
            .bind(serde_json::to_string(&game.users())?)
            .bind(game.settings_json()?)
            .bind(i64::from(game.finished()))
            .bind(next.map(i64_of))
            .bind(i64_of(*swept))
            .execute(&mut *tx)
            .await?;
            let rows: Vec<LogRow> = (0..game.log_len())
                .filter_map(|i| game.row(i))
                .collect::<Result<_, _>>()?;
            if rows.is_empty() {
                continue;
            }
            let mut sql = String::from(
                "INSERT INTO actions (thread, seq, number, actor, time, command, action, reply, reverted_by, reverted_reason) VALUES ",
            );
            for i in 0..rows.len() {
                let b = i * 10;
                if i > 0 {
                    sql.push_str(", ");
                }
                sql.push_str(&format!(
                    "(${}, ${}, ${}, ${}, ${}, ${}, ${}, ${}, ${}, ${})",
                    b + 1,
                    b + 2,
                    b + 3,
                    b + 4,
                    b + 5,
                    b + 6,
                    b + 7,
                    b + 8,
                    b + 9,
                    b + 10
                ));
            }
            let mut q = sqlx::query(&sql);
            for (i, e) in rows.iter().enumerate() {
                q = q
                    .bind(thread)
                    .bind(i as i64)
                    .bind(e.number.map(i64::from))
                    .bind(&e.actor)
                    .bind(i64_of(e.time))
                    .bind(&e.command)
                    .bind(&e.action)
                    .bind("")
                    .bind(e.reverted.as_ref().map(|r| r.0.clone()))
                    .bind(e.reverted.as_ref().map(|r| r.1.clone()));
            }
            q.execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// How many games are stored, and how many of them are not finished.
    ///
    /// # Errors
    /// Database failure.
    pub async fn game_counts(&self) -> Result<(i64, i64), StoreError> {
        let row = sqlx::query(
            "SELECT CAST(COUNT(*) AS BIGINT), CAST(COALESCE(SUM(CASE WHEN finished = 0 THEN 1 ELSE 0 END), 0) AS BIGINT) FROM games",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get::<i64, _>(0)?, row.try_get::<i64, _>(1)?))
    }

    /// Every stored thread with a game, unfinished ones first.
    ///
    /// # Errors
    /// Database failure.
    pub async fn threads(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT thread FROM games ORDER BY finished, thread")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(StoreError::from))
            .collect()
    }

    /// The threads of unfinished games of a variant.
    ///
    /// # Errors
    /// Database failure.
    pub async fn open_threads_of(&self, variant: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT thread FROM games WHERE finished = 0 AND variant = $1 ORDER BY thread",
        )
        .bind(variant)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(StoreError::from))
            .collect()
    }

    /// Records that a timer fired; false if it had already fired (never announce twice).
    ///
    /// # Errors
    /// Database failure.
    pub async fn fire_timer(
        &self,
        thread: &str,
        seat: usize,
        due: Timestamp,
        now: Timestamp,
    ) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "INSERT INTO timers_fired (thread, seat, due, fired_at) VALUES ($1, $2, $3, $4) ON CONFLICT (thread, seat, due) DO NOTHING",
        )
        .bind(thread)
        .bind(seat as i64)
        .bind(i64_of(due))
        .bind(i64_of(now))
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// A stored setting.
    ///
    /// # Errors
    /// Database failure.
    pub async fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        self.one("SELECT value FROM meta WHERE key = $1", key).await
    }

    /// Stores a setting.
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_meta(&self, key: &str, value: &str) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
            .bind(key)
            .bind(value)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Every stored setting whose key starts with `prefix`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn meta_with_prefix(
        &self,
        prefix: &str,
    ) -> Result<Vec<(String, String)>, StoreError> {
        // LIKE narrows the rows (`_` in a prefix matches any one character, so the prefix is
        // checked again below).
        let rows = sqlx::query("SELECT key, value FROM meta WHERE key LIKE $1 ORDER BY key")
            .bind(format!("{}%", prefix.replace('%', "")))
            .fetch_all(&self.pool)
            .await?;
        let mut out = Vec::new();
        for r in rows {
            let key: String = r.try_get(0)?;
            if key.starts_with(prefix) {
                out.push((key, r.try_get(1)?));
            }
        }
        Ok(out)
    }

    /// Closes the pool.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn file(url: &str, path: &str, create: bool) -> Target {
        Target::SqliteFile {
            url: url.to_string(),
            path: PathBuf::from(path),
            create,
        }
    }

    #[test]
    fn every_way_of_naming_a_sqlite_file_creates_it() {
        let cases = [
            (
                "sqlite://games.db",
                file("sqlite://games.db?mode=rwc", "games.db", true),
            ),
            (
                "sqlite:games.db",
                file("sqlite://games.db?mode=rwc", "games.db", true),
            ),
            (
                "sqlite:///abs/games.db",
                file("sqlite:///abs/games.db?mode=rwc", "/abs/games.db", true),
            ),
            (
                "games.db",
                file("sqlite://games.db?mode=rwc", "games.db", true),
            ),
            (
                "dir/my games #2.db",
                file(
                    "sqlite://dir/my%20games%20%232.db?mode=rwc",
                    "dir/my games #2.db",
                    true,
                ),
            ),
            (
                "sqlite://my%20games.db?cache=private",
                file(
                    "sqlite://my%20games.db?cache=private&mode=rwc",
                    "my games.db",
                    true,
                ),
            ),
            (DEFAULT_URL, file(DEFAULT_URL, "arbiter.db", true)),
            // A mode the user chose stays.
            (
                "sqlite://games.db?mode=ro",
                file("sqlite://games.db?mode=ro", "games.db", false),
            ),
            (
                "sqlite://games.db?mode=rw",
                file("sqlite://games.db?mode=rw", "games.db", false),
            ),
        ];
        for (given, want) in cases {
            assert_eq!(Target::parse(given), want, "{given}");
        }
    }

    #[test]
    fn memory_and_servers_are_left_as_they_are() {
        for url in [
            "sqlite::memory:",
            "sqlite://:memory:",
            "sqlite://?mode=memory",
        ] {
            assert_eq!(Target::parse(url), Target::SqliteMemory(url.to_string()));
        }
        for url in ["postgres://u:p@host/db", "postgresql://host/db"] {
            assert_eq!(Target::parse(url), Target::Postgres(url.to_string()));
            assert_eq!(Target::parse(url).backend(), Backend::Postgres);
        }
        assert_eq!(
            Target::parse("mysql://host/db"),
            Target::Other("mysql://host/db".to_string())
        );
        assert_eq!(Target::parse("games.db").backend(), Backend::Sqlite);
    }

    #[test]
    fn percent_escapes_decode_and_encode() {
        assert_eq!(decode_path("a%20b%23c%3F%25"), "a b#c?%");
        assert_eq!(decode_path("100%"), "100%");
        assert_eq!(decode_path("%zz%2"), "%zz%2");
        for path in ["plain.db", "a b#c?d%e.db", "/x/y z.db"] {
            assert_eq!(decode_path(&encode_path(path)), path);
        }
    }
}
