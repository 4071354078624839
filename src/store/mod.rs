//! Storage: games and their append-only action log in SQLite (the embedded default) or
//! PostgreSQL (for several bot processes sharing one database), through sqlx with migrations.
//!
//! Writes are optimistic: each game row has a version; a commit names the version it read, and
//! loses (with [`StoreError::Conflict`]) if another writer got there first. The caller then
//! reloads the game and re-checks the command against the new state.

use std::str::FromStr;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Row};

mod tournaments;

pub use tournaments::{LogLine, TournamentRows};

use crate::commands::{kind_of, LogRow, ThreadGame};
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

impl Store {
    /// Connects (creating a SQLite file if needed) and runs the migrations.
    ///
    /// # Errors
    /// The database cannot be reached or migrated.
    pub async fn connect(url: Option<&str>) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let url = url.unwrap_or(DEFAULT_URL);
        let backend = if url.starts_with("postgres") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        };
        let options = AnyConnectOptions::from_str(url)?;
        let memory = url.contains(":memory:");
        let pool = AnyPoolOptions::new()
            .max_connections(if memory { 1 } else { 8 })
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
                            sqlx::query("PRAGMA synchronous = FULL")
                                .execute(&mut *conn)
                                .await?;
                        }
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        Ok(Store { pool, backend })
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
            "INSERT INTO games (thread, variant, users, settings, version, finished, created_at) \
             VALUES ($1, $2, $3, $4, 0, 0, $5) ON CONFLICT (thread) DO NOTHING",
        )
        .bind(thread)
        .bind(game.kind().variant)
        .bind(serde_json::to_string(&game.users())?)
        .bind(game.settings_json()?)
        .bind(i64_of(now))
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
        let mut tx = self.pool.begin().await?;
        let r = sqlx::query("UPDATE games SET version = version + 1, finished = $1 WHERE thread = $2 AND version = $3")
            .bind(i64::from(game.finished()))
            .bind(thread)
            .bind(expected)
            .execute(&mut *tx)
            .await?;
        if r.rows_affected() != 1 {
            tx.rollback().await?;
            return Err(StoreError::Conflict);
        }
        let len = game.log_len();
        for i in base_len..len {
            let Some(e) = game.row(i) else { continue };
            let e = e?;
            let last = i + 1 == len;
            sqlx::query(
                "INSERT INTO actions (thread, seq, number, actor, time, command, action, reply, interaction, reverted_by, reverted_reason) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            )
            .bind(thread)
            .bind(i as i64)
            .bind(e.number.map(i64::from))
            .bind(&e.actor)
            .bind(i64_of(e.time))
            .bind(&e.command)
            .bind(&e.action)
            .bind(if last { reply } else { "" })
            .bind(if last { interaction } else { None })
            .bind(e.reverted.as_ref().map(|r| r.0.clone()))
            .bind(e.reverted.as_ref().map(|r| r.1.clone()))
            .execute(&mut *tx)
            .await
            .map_err(conflict_if_duplicate)?;
            if let Some((what, reason)) = &e.audit {
                sqlx::query("INSERT INTO audit (thread, seq, moderator, what, reason, time) VALUES ($1, $2, $3, $4, $5, $6)")
                    .bind(thread)
                    .bind(i as i64)
                    .bind(&e.actor)
                    .bind(what)
                    .bind(reason)
                    .bind(i64_of(e.time))
                    .execute(&mut *tx)
                    .await?;
            }
        }
        for &i in newly_reverted {
            let Some(e) = game.row(i) else { continue };
            let Some((by, why)) = e?.reverted else {
                continue;
            };
            sqlx::query("UPDATE actions SET reverted_by = $1, reverted_reason = $2 WHERE thread = $3 AND seq = $4")
                .bind(by)
                .bind(why)
                .bind(thread)
                .bind(i as i64)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(expected + 1)
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
        let Some(row) =
            sqlx::query("SELECT users, settings, version, variant FROM games WHERE thread = $1")
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
        let game = (kind.load)(users, &settings, entries)
            .map_err(|e| StoreError::Decode(format!("game {thread}: {e}")))?;
        Ok(Some(StoredGame {
            thread: thread.to_string(),
            game,
            version,
        }))
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
        let rows = sqlx::query("SELECT key, value FROM meta ORDER BY key")
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
