//! Group commit: the appends of several games, committed in one transaction.
//!
//! A game's commit (its new log rows, the rows newly marked reverted, its version bumped) is
//! queued; whoever holds the store's write gate takes everything queued and commits it in one
//! transaction, while the next batch gathers behind the gate. So a burst of moves in fifty
//! games costs a few transactions, not fifty, and the writers of one process never wait for
//! each other inside the database (SQLite's busy handler sleeps milliseconds between tries).
//!
//! The guarantees are those of one transaction per game: each game keeps its version check (a
//! game whose stored version moved on is a [`StoreError::Conflict`] for that game alone, having
//! written nothing, and the others go on); a repeated interaction is a conflict for its game
//! alone (the batch is then written again with each game in a savepoint of its own); and
//! nobody is answered before the transaction holding their rows is committed. Within a batch
//! the games are taken in the order of their threads, so two processes committing batches on
//! one PostgreSQL database lock rows in the same order and never deadlock.

use std::sync::{Arc, Mutex as StdMutex, PoisonError};

use sqlx::AnyPool;
use tokio::sync::{oneshot, Mutex};

use super::{conflict_if_duplicate, StoreError};
use crate::commands::LogRow;

/// One game's commit, with everything it writes.
pub(super) struct Append {
    /// The game's thread.
    pub thread: String,
    /// The version the game was read at.
    pub expected: i64,
    /// Whether the game is finished (as the games row stores it).
    pub finished: i64,
    /// The game's next due time.
    pub next_due: Option<i64>,
    /// New log rows, by their place in the log.
    pub rows: Vec<(i64, LogRow)>,
    /// The reply and interaction stored with the last new row.
    pub reply: String,
    /// The interaction (a Discord interaction id) the command came from.
    pub interaction: Option<String>,
    /// Rows newly marked reverted: place, by whom, why.
    pub reverted: Vec<(i64, String, String)>,
    /// The players' conditional moves, when they changed (JSON; empty for none).
    pub premoves: Option<String>,
    /// Who plays each seat now, when a substitution changed it (JSON).
    pub seated: Option<String>,
}

/// A queued commit and where its outcome goes.
struct Waiting {
    append: Append,
    done: oneshot::Sender<Result<i64, StoreError>>,
}

/// The queue of commits and the gate of whoever commits them.
#[derive(Default)]
pub(super) struct Group {
    queue: StdMutex<Vec<Waiting>>,
    gate: Mutex<()>,
}

impl std::fmt::Debug for Group {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Group")
    }
}

impl Group {
    /// Commits `append` (with whatever else is queued by then) and returns the game's new
    /// version.
    pub(super) async fn commit(
        self: &Arc<Self>,
        pool: &AnyPool,
        append: Append,
    ) -> Result<i64, StoreError> {
        let (done, mut outcome) = oneshot::channel();
        self.queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Waiting { append, done });
        let gate = self.gate.lock().await;
        match outcome.try_recv() {
            // Committed (or refused) in the batch of whoever held the gate before.
            Ok(r) => return r,
            Err(oneshot::error::TryRecvError::Closed) => return Err(StoreError::Abandoned),
            Err(oneshot::error::TryRecvError::Empty) => {}
        }
        // Still queued: only gate holders take from the queue, so this batch holds it.
        let batch = std::mem::take(&mut *self.queue.lock().unwrap_or_else(PoisonError::into_inner));
        // The batch runs as a task of its own, so that it completes (and answers everyone in
        // it) even if this caller stops waiting.
        let _ = tokio::spawn(run(pool.clone(), batch)).await;
        drop(gate);
        outcome.await.unwrap_or(Err(StoreError::Abandoned))
    }
}

/// Commits a batch and tells each waiting caller its outcome.
async fn run(pool: AnyPool, mut batch: Vec<Waiting>) {
    batch.sort_by(|a, b| a.append.thread.cmp(&b.append.thread));
    let (appends, senders): (Vec<Append>, Vec<_>) =
        batch.into_iter().map(|w| (w.append, w.done)).unzip();
    let t = std::time::Instant::now();
    let committed = commit_all(&pool, &appends).await;
    let took = t.elapsed();
    if took > std::time::Duration::from_millis(100) {
        tracing::info!(
            ms = took.as_millis() as u64,
            games = appends.len(),
            "slow group commit"
        );
    }
    let outcomes = match committed {
        Ok(outcomes) => outcomes,
        Err(e) => {
            tracing::error!(error = %e, games = appends.len(), "group commit failed");
            let text = e.to_string();
            appends
                .iter()
                .map(|_| Err(StoreError::Batch(text.clone())))
                .collect()
        }
    };
    for (done, outcome) in senders.into_iter().zip(outcomes) {
        let _ = done.send(outcome);
    }
}

/// Why one game's statements stopped.
enum Stop {
    /// The version check failed: nothing of this game was written.
    Stale,
    /// A statement failed (maybe after others of this game were written).
    Failed(StoreError),
}

impl From<sqlx::Error> for Stop {
    fn from(e: sqlx::Error) -> Stop {
        Stop::Failed(e.into())
    }
}

/// One transaction for all. First without savepoints (a game refused by its version check has
/// written nothing, so the others go on); if a statement fails (a repeated interaction), the
/// transaction is rolled back and the batch written again with each game in a savepoint of
/// its own, so that only that game fails.
async fn commit_all(
    pool: &AnyPool,
    appends: &[Append],
) -> Result<Vec<Result<i64, StoreError>>, StoreError> {
    let mut tx = pool.begin().await?;
    let mut outcomes = Vec::with_capacity(appends.len());
    for a in appends {
        match append(&mut tx, a).await {
            Ok(v) => outcomes.push(Ok(v)),
            Err(Stop::Stale) => outcomes.push(Err(StoreError::Conflict)),
            Err(Stop::Failed(e)) => {
                tx.rollback().await?;
                if appends.len() == 1 {
                    return Ok(vec![Err(e)]);
                }
                return commit_apart(pool, appends).await;
            }
        }
    }
    tx.commit().await?;
    Ok(outcomes)
}

/// [`commit_all`] with each game in a savepoint of its own.
async fn commit_apart(
    pool: &AnyPool,
    appends: &[Append],
) -> Result<Vec<Result<i64, StoreError>>, StoreError> {
    let mut tx = pool.begin().await?;
    let mut outcomes = Vec::with_capacity(appends.len());
    for a in appends {
        let mut savepoint = sqlx::Connection::begin(&mut *tx).await?;
        match append(&mut savepoint, a).await {
            Ok(v) => {
                savepoint.commit().await?;
                outcomes.push(Ok(v));
            }
            Err(stop) => {
                savepoint.rollback().await?;
                outcomes.push(Err(match stop {
                    Stop::Stale => StoreError::Conflict,
                    Stop::Failed(e) => e,
                }));
            }
        }
    }
    tx.commit().await?;
    Ok(outcomes)
}

/// One game's statements: the version check and bump, the new rows, the reverted marks.
async fn append(conn: &mut sqlx::AnyConnection, a: &Append) -> Result<i64, Stop> {
    let r = sqlx::query(
        "UPDATE games SET version = version + 1, finished = $1, next_due = $2, \
         premoves = COALESCE($5, premoves), seated = COALESCE($6, seated) \
         WHERE thread = $3 AND version = $4",
    )
    .bind(a.finished)
    .bind(a.next_due)
    .bind(&a.thread)
    .bind(a.expected)
    .bind(a.premoves.as_deref())
    .bind(a.seated.as_deref())
    .execute(&mut *conn)
    .await?;
    if r.rows_affected() != 1 {
        return Err(Stop::Stale);
    }
    let last = a.rows.len().saturating_sub(1);
    for (k, (seq, e)) in a.rows.iter().enumerate() {
        let is_last = k == last;
        sqlx::query(
            "INSERT INTO actions (thread, seq, number, actor, time, command, action, reply, interaction, reverted_by, reverted_reason) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(&a.thread)
        .bind(*seq)
        .bind(e.number.map(i64::from))
        .bind(&e.actor)
        .bind(super::i64_of(e.time))
        .bind(&e.command)
        .bind(&e.action)
        .bind(if is_last { a.reply.as_str() } else { "" })
        .bind(if is_last { a.interaction.as_deref() } else { None })
        .bind(e.reverted.as_ref().map(|r| r.0.clone()))
        .bind(e.reverted.as_ref().map(|r| r.1.clone()))
        .execute(&mut *conn)
        .await
        .map_err(|e| Stop::Failed(conflict_if_duplicate(e)))?;
        if let Some((what, reason)) = &e.audit {
            sqlx::query(
                "INSERT INTO audit (thread, seq, moderator, what, reason, time) VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&a.thread)
            .bind(*seq)
            .bind(&e.actor)
            .bind(what)
            .bind(reason)
            .bind(super::i64_of(e.time))
            .execute(&mut *conn)
            .await?;
        }
    }
    for (seq, by, why) in &a.reverted {
        sqlx::query(
            "UPDATE actions SET reverted_by = $1, reverted_reason = $2 WHERE thread = $3 AND seq = $4",
        )
        .bind(by)
        .bind(why)
        .bind(&a.thread)
        .bind(*seq)
        .execute(&mut *conn)
        .await?;
    }
    Ok(a.expected + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use sqlx::Row;

    fn row(seq: i64, actor: &str) -> (i64, LogRow) {
        (
            seq,
            LogRow {
                number: Some(seq as u32 + 1),
                actor: actor.to_string(),
                time: 100,
                command: "/move e2-e4".to_string(),
                action: "{}".to_string(),
                reverted: None,
                audit: None,
            },
        )
    }

    /// One new row at `seq` for a game read at version `expected`.
    fn append(thread: &str, expected: i64, seq: i64, interaction: &str) -> Append {
        Append {
            thread: thread.to_string(),
            expected,
            finished: 0,
            next_due: None,
            rows: vec![row(seq, "a")],
            reply: format!("ok: {thread}"),
            interaction: Some(interaction.to_string()),
            reverted: Vec::new(),
            premoves: None,
            seated: None,
        }
    }

    async fn counts(pool: &AnyPool, thread: &str) -> (i64, i64) {
        let r = sqlx::query(
            "SELECT version, (SELECT CAST(COUNT(*) AS BIGINT) FROM actions WHERE thread = $1) FROM games WHERE thread = $1",
        )
        .bind(thread)
        .fetch_one(pool)
        .await
        .unwrap();
        (r.try_get(0).unwrap(), r.try_get(1).unwrap())
    }

    /// One batch, four games: a stale version and a repeated interaction fail alone (their
    /// savepoints rolled back), the others commit.
    #[test]
    fn a_conflict_in_a_batch_fails_only_its_game() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let store = Store::connect(Some("sqlite::memory:")).await.unwrap();
            let pool = &store.pool;
            for (t, v) in [("g1", 0), ("g2", 3), ("g3", 0), ("g4", 0)] {
                sqlx::query(
                    "INSERT INTO games (thread, variant, users, settings, version, finished, created_at) VALUES ($1, 'kfb', '[]', '{}', $2, 0, 0)",
                )
                .bind(t)
                .bind(v)
                .execute(pool)
                .await
                .unwrap();
            }
            let batch = [
                append("g1", 0, 0, "i1"),
                // Read at version 2; stored is 3.
                append("g2", 2, 0, "i2"),
                // The interaction of g1's command again.
                append("g3", 0, 0, "i1"),
                append("g4", 0, 0, "i4"),
            ];
            let outcomes = commit_all(pool, &batch).await.unwrap();
            let outcomes: Vec<String> = outcomes
                .into_iter()
                .map(|o| match o {
                    Ok(v) => format!("ok {v}"),
                    Err(StoreError::Conflict) => "conflict".to_string(),
                    Err(e) => format!("error {e}"),
                })
                .collect();
            assert_eq!(outcomes, ["ok 1", "conflict", "conflict", "ok 1"]);
            assert_eq!(counts(pool, "g1").await, (1, 1));
            assert_eq!(counts(pool, "g2").await, (3, 0));
            assert_eq!(counts(pool, "g3").await, (0, 0), "g3's version bump undone");
            assert_eq!(counts(pool, "g4").await, (1, 1));
            // Through the queue: several callers at once, each told its own outcome.
            let stale = store.group.commit(pool, append("g2", 2, 0, "i5"));
            let fresh = store.group.commit(pool, append("g2", 3, 0, "i6"));
            let other = store.group.commit(pool, append("g1", 1, 1, "i7"));
            let (stale, fresh, other) = tokio::join!(stale, fresh, other);
            assert!(matches!(stale, Err(StoreError::Conflict)), "{stale:?}");
            assert_eq!((fresh.ok(), other.ok()), (Some(4), Some(2)));
        });
    }
}
