//! Tournaments in the database (migrations 0002 to 0004): one row per tournament with a
//! version for optimistic writes, and rows for signups, teams, pairings and results. A save
//! writes only the rows that changed since the version it read.

use std::collections::BTreeMap;

use sqlx::Row;

use super::{conflict_if_duplicate, i64_of, Store, StoreError};
use crate::time::Timestamp;
use crate::tournament::{Board, ResultEntry, Settings, Signup, Team, Tournament};

/// One stored value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Cell {
    Int(i64),
    Text(String),
    MaybeText(Option<String>),
}

/// A child table of a tournament: its key columns (after `tournament`) and value columns.
struct Table {
    name: &'static str,
    keys: &'static [&'static str],
    values: &'static [&'static str],
}

const TABLES: [Table; 4] = [
    Table {
        name: "signups",
        keys: &["player"],
        values: &["seq", "mates", "withdrawn", "time"],
    },
    Table {
        name: "teams",
        keys: &["number"],
        values: &["players", "withdrawn", "joined"],
    },
    Table {
        name: "pairings",
        keys: &["round", "board"],
        values: &["white", "black", "thread", "players"],
    },
    Table {
        name: "results",
        keys: &["round", "board"],
        values: &["result", "set_by", "time"],
    },
];

/// Rows of one table: key cells to value cells.
type Rows = BTreeMap<Vec<Cell>, Vec<Cell>>;

/// A tournament as rows, keyed like the tables, to find what a command changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TournamentRows {
    header: (String, String, i64, i64, i64, String),
    /// Rows of each of [`TABLES`], in the same order.
    tables: [Rows; 4],
}

/// A logged tournament command.
#[derive(Clone, Copy, Debug)]
pub struct LogLine<'a> {
    /// Who.
    pub actor: &'a str,
    /// When.
    pub time: Timestamp,
    /// As typed.
    pub command: &'a str,
    /// The reply.
    pub reply: &'a str,
    /// The Discord interaction, if any.
    pub interaction: Option<&'a str>,
}

impl TournamentRows {
    /// The rows of a tournament.
    ///
    /// # Errors
    /// Settings that do not serialise (never in practice).
    pub fn of(t: &Tournament) -> Result<TournamentRows, StoreError> {
        Ok(TournamentRows {
            header: (
                t.name.clone(),
                serde_json::to_string(&t.settings)?,
                t.seed as i64,
                i64::from(t.finished),
                i64_of(t.created_at),
                t.organiser.clone(),
            ),
            tables: [
                t.signups
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        Ok((
                            vec![Cell::Text(s.player.clone())],
                            vec![
                                Cell::Int(i as i64),
                                Cell::Text(serde_json::to_string(&s.mates)?),
                                Cell::Int(i64::from(s.withdrawn)),
                                Cell::Int(i64_of(s.time)),
                            ],
                        ))
                    })
                    .collect::<Result<_, StoreError>>()?,
                t.teams
                    .iter()
                    .map(|tm| {
                        Ok((
                            vec![Cell::Int(i64::from(tm.number))],
                            vec![
                                Cell::Text(serde_json::to_string(&tm.players)?),
                                Cell::Int(i64::from(tm.withdrawn)),
                                Cell::Int(i64::from(tm.joined)),
                            ],
                        ))
                    })
                    .collect::<Result<_, StoreError>>()?,
                t.boards
                    .iter()
                    .map(|b| {
                        Ok((
                            vec![Cell::Int(i64::from(b.round)), Cell::Int(i64::from(b.board))],
                            vec![
                                Cell::Int(i64::from(b.white)),
                                Cell::Int(i64::from(b.black)),
                                Cell::MaybeText(b.thread.clone()),
                                Cell::Text(serde_json::to_string(&b.players)?),
                            ],
                        ))
                    })
                    .collect::<Result<_, StoreError>>()?,
                t.results
                    .iter()
                    .map(|r| {
                        (
                            vec![Cell::Int(i64::from(r.round)), Cell::Int(i64::from(r.board))],
                            vec![
                                Cell::Text(r.stored_code()),
                                Cell::Text(r.set_by.clone()),
                                Cell::Int(i64_of(r.time)),
                            ],
                        )
                    })
                    .collect(),
            ],
        })
    }
}

fn bind_cells<'q>(
    mut q: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    cells: &'q [Cell],
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    for c in cells {
        q = match c {
            Cell::Int(v) => q.bind(*v),
            Cell::Text(v) => q.bind(v.as_str()),
            Cell::MaybeText(v) => q.bind(v.as_deref()),
        };
    }
    q
}

fn u32_of(v: i64) -> u32 {
    u32::try_from(v).unwrap_or(0)
}

impl Store {
    /// Stores a new tournament. Returns false if the thread already has one.
    ///
    /// # Errors
    /// Database failure.
    pub async fn create_tournament(&self, t: &Tournament) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "INSERT INTO tournaments (thread, name, settings, seed, version, finished, created_at, organiser) \
             VALUES ($1, $2, $3, $4, 0, 0, $5, $6) ON CONFLICT (thread) DO NOTHING",
        )
        .bind(&t.thread)
        .bind(&t.name)
        .bind(serde_json::to_string(&t.settings)?)
        .bind(t.seed as i64)
        .bind(i64_of(t.created_at))
        .bind(&t.organiser)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// The version of a tournament, if stored.
    ///
    /// # Errors
    /// Database failure.
    pub async fn tournament_version(&self, thread: &str) -> Result<Option<i64>, StoreError> {
        self.one("SELECT version FROM tournaments WHERE thread = $1", thread)
            .await
    }

    /// Every tournament's thread.
    ///
    /// # Errors
    /// Database failure.
    pub async fn tournament_threads(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT thread FROM tournaments ORDER BY thread")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(StoreError::from))
            .collect()
    }

    /// The tournament a match thread belongs to.
    ///
    /// # Errors
    /// Database failure.
    pub async fn tournament_of_match(&self, thread: &str) -> Result<Option<String>, StoreError> {
        self.one("SELECT tournament FROM pairings WHERE thread = $1", thread)
            .await
    }

    /// Loads a tournament with its version.
    ///
    /// # Errors
    /// Database failure or rows that do not decode.
    pub async fn load_tournament(
        &self,
        thread: &str,
    ) -> Result<Option<(Tournament, i64)>, StoreError> {
        let Some(row) = sqlx::query(
            "SELECT name, settings, seed, version, finished, created_at, organiser FROM tournaments WHERE thread = $1",
        )
        .bind(thread)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let settings: Settings = serde_json::from_str(&row.try_get::<String, _>(1)?)?;
        let mut t = Tournament::new(
            thread,
            &row.try_get::<String, _>(0)?,
            &row.try_get::<String, _>(6)?,
            settings,
            row.try_get::<i64, _>(5)?.max(0) as u64,
        );
        t.seed = row.try_get::<i64, _>(2)? as u64;
        let version: i64 = row.try_get(3)?;
        t.finished = row.try_get::<i64, _>(4)? != 0;
        for r in sqlx::query(
            "SELECT player, mates, withdrawn, time FROM signups WHERE tournament = $1 ORDER BY seq",
        )
        .bind(thread)
        .fetch_all(&self.pool)
        .await?
        {
            t.signups.push(Signup {
                player: r.try_get(0)?,
                mates: serde_json::from_str(&r.try_get::<String, _>(1)?)?,
                withdrawn: r.try_get::<i64, _>(2)? != 0,
                time: r.try_get::<i64, _>(3)?.max(0) as u64,
            });
        }
        for r in sqlx::query(
            "SELECT number, players, withdrawn, joined FROM teams WHERE tournament = $1 ORDER BY number",
        )
        .bind(thread)
        .fetch_all(&self.pool)
        .await?
        {
            let number = u32_of(r.try_get(0)?);
            if number as usize != t.teams.len() + 1 {
                return Err(StoreError::Decode(format!(
                    "tournament {thread}: team numbers have a gap at {number}"
                )));
            }
            t.teams.push(Team {
                number,
                players: serde_json::from_str(&r.try_get::<String, _>(1)?)?,
                withdrawn: r.try_get::<i64, _>(2)? != 0,
                joined: u32_of(r.try_get(3)?),
            });
        }
        for r in sqlx::query(
            "SELECT round, board, white, black, thread, players FROM pairings WHERE tournament = $1 ORDER BY round, board",
        )
        .bind(thread)
        .fetch_all(&self.pool)
        .await?
        {
            t.boards.push(Board {
                round: u32_of(r.try_get(0)?),
                board: u32_of(r.try_get(1)?),
                white: u32_of(r.try_get(2)?),
                black: u32_of(r.try_get(3)?),
                thread: r.try_get(4)?,
                players: serde_json::from_str(&r.try_get::<String, _>(5)?)?,
            });
        }
        for r in sqlx::query(
            "SELECT round, board, result, set_by, time FROM results WHERE tournament = $1 ORDER BY round, board",
        )
        .bind(thread)
        .fetch_all(&self.pool)
        .await?
        {
            let code: String = r.try_get(2)?;
            let (result, places) =
                ResultEntry::from_code(&code).map_err(|e| StoreError::Decode(e.to_string()))?;
            t.results.push(ResultEntry {
                round: u32_of(r.try_get(0)?),
                board: u32_of(r.try_get(1)?),
                result,
                set_by: r.try_get(3)?,
                time: r.try_get::<i64, _>(4)?.max(0) as u64,
                places,
            });
        }
        Ok(Some((t, version)))
    }

    /// Saves what changed from `old` to the tournament's rows now, with a log line, if the
    /// stored version is still `expected`. Returns the new version.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if another writer committed first (or the interaction was
    /// already applied); database failure.
    pub async fn save_tournament(
        &self,
        t: &Tournament,
        expected: i64,
        old: &TournamentRows,
        log: Option<LogLine<'_>>,
    ) -> Result<(i64, TournamentRows), StoreError> {
        let new = TournamentRows::of(t)?;
        let thread = t.thread.as_str();
        let mut tx = self.pool.begin().await?;
        let r = sqlx::query(
            "UPDATE tournaments SET version = version + 1, name = $1, settings = $2, seed = $3, finished = $4 WHERE thread = $5 AND version = $6",
        )
        .bind(&new.header.0)
        .bind(&new.header.1)
        .bind(new.header.2)
        .bind(new.header.3)
        .bind(thread)
        .bind(expected)
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            tx.rollback().await?;
            return Err(StoreError::Conflict);
        }
        for ((table, old), new) in TABLES.iter().zip(&old.tables).zip(&new.tables) {
            // A changed row is deleted and inserted again; a row no longer there is deleted.
            let keys: Vec<String> = table
                .keys
                .iter()
                .enumerate()
                .map(|(i, k)| format!("{k} = ${}", i + 2))
                .collect();
            let delete = format!(
                "DELETE FROM {} WHERE tournament = $1 AND {}",
                table.name,
                keys.join(" AND ")
            );
            let columns: Vec<&str> = table.keys.iter().chain(table.values).copied().collect();
            let places: Vec<String> = (1..=columns.len() + 1).map(|i| format!("${i}")).collect();
            let insert = format!(
                "INSERT INTO {} (tournament, {}) VALUES ({})",
                table.name,
                columns.join(", "),
                places.join(", ")
            );
            for key in old.keys().filter(|k| !new.contains_key(*k)) {
                bind_cells(sqlx::query(&delete).bind(thread), key)
                    .execute(&mut *tx)
                    .await?;
            }
            for (key, values) in new.iter().filter(|(k, v)| old.get(*k) != Some(v)) {
                bind_cells(sqlx::query(&delete).bind(thread), key)
                    .execute(&mut *tx)
                    .await?;
                bind_cells(bind_cells(sqlx::query(&insert).bind(thread), key), values)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        if let Some(l) = log {
            sqlx::query("INSERT INTO tournament_log (tournament, seq, actor, time, command, reply, interaction) VALUES ($1, $2, $3, $4, $5, $6, $7)")
                .bind(thread)
                .bind(expected + 1)
                .bind(l.actor)
                .bind(i64_of(l.time))
                .bind(l.command)
                .bind(l.reply)
                .bind(l.interaction)
                .execute(&mut *tx)
                .await
                .map_err(conflict_if_duplicate)?;
        }
        tx.commit().await?;
        Ok((expected + 1, new))
    }
}
