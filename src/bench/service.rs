//! The service benchmark (`arbiter store-bench`): random legal moves in new Kung Fu Bughouse
//! games through the service on a real store, from concurrent tasks, each command timed until
//! its action is committed. It sets its games up from the shared fixtures
//! ([`super::fixtures::KFB_NEW`], [`super::fixtures::SEED_ONE_DRAFT`]).

use super::fixtures::{EXAMPLE_START, KFB_NEW, SEED_ONE_DRAFT};
use crate::commands::Caller;
use crate::service::Service;
use crate::store::{Store, StoreError};
use crate::time::Timestamp;

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
    let start_time: Timestamp = EXAMPLE_START;
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
        let text = KFB_NEW;
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
