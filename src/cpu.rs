//! CPU work (pictures) on threads of its own, one per core, at a lower priority than the rest
//! of the bot.
//!
//! A burst of moves queues its pictures here. The async executor (the gateway, the first
//! responses, the database round trips) keeps its normal priority, so the operating system
//! favours it whenever both want a core: a first response does not queue behind pictures,
//! while pictures still use every core the rest leaves idle. On Linux the threads are niced
//! ([`NICE`]); elsewhere they run at normal priority.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How much lower the picture threads run (a nice value: 5 gives a thread about a third of
/// the share of a normal one when both want a core). Measured with the fake-Discord benchmark
/// on a loaded two-core machine: 10 kept first responses of a burst a little faster but
/// starved the pictures behind other processes (answers several times slower with a second
/// process busy); 0 let pictures delay first responses of a burst (p99 about 4× slower); 5
/// came close to the best of both.
pub const NICE: i32 = 5;

type Job = Box<dyn FnOnce() + Send>;

/// Where the time of CPU work (a picture) went.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuTiming {
    /// Waiting for a core (queued behind other pictures).
    pub waited: Duration,
    /// Running, less PNG encoding (drawing the picture).
    pub drawing: Duration,
    /// PNG encoding (as the encoder marks it: [`crate::timing`]).
    pub encoding: Duration,
}

/// A fixed set of low-priority threads taking jobs from one queue.
pub struct Pool {
    queue: Mutex<Option<mpsc::Sender<Job>>>,
    threads: usize,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pool({} threads)", self.threads)
    }
}

/// Lowers the calling thread's priority by `nice` (Linux: per thread).
#[cfg(target_os = "linux")]
fn lower_priority(nice: i32) {
    // SAFETY: plain system calls on the calling thread's own id; no memory is shared.
    let done = unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, nice)
    };
    if done != 0 {
        tracing::debug!(
            error = %std::io::Error::last_os_error(),
            "picture thread keeps normal priority"
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority(_nice: i32) {}

impl Pool {
    /// A pool of `threads` threads (at least one), niced by [`NICE`] or by
    /// `ARBITER_PICTURE_NICE` when set (0: the priority of the rest of the bot).
    pub fn new(threads: usize) -> Pool {
        let nice = std::env::var("ARBITER_PICTURE_NICE")
            .ok()
            .and_then(|v| v.trim().parse::<i32>().ok())
            .unwrap_or(NICE)
            .clamp(0, 19);
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        let mut started = 0;
        for i in 0..threads.max(1) {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("arbiter-cpu-{i}"))
                .spawn(move || {
                    if nice > 0 {
                        lower_priority(nice);
                    }
                    loop {
                        let job = rx.lock().unwrap_or_else(PoisonError::into_inner).recv();
                        match job {
                            Ok(job) => job(),
                            // The pool is gone.
                            Err(_) => return,
                        }
                    }
                });
            match spawned {
                Ok(_) => started += 1,
                Err(e) => tracing::warn!(error = %e, "cannot start a picture thread"),
            }
        }
        Pool {
            queue: Mutex::new((started > 0).then_some(tx)),
            threads: started,
        }
    }

    /// How many threads run the work.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `work` on one of the pool's threads once one is free.
    ///
    /// # Errors
    /// The work panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<(T, CpuTiming), tokio::task::JoinError> {
        let asked = Instant::now();
        let timed = move || {
            let waited = asked.elapsed();
            crate::timing::take_encoding();
            let start = Instant::now();
            let out = work();
            let ran = start.elapsed();
            let encoding = crate::timing::take_encoding().min(ran);
            let timing = CpuTiming {
                waited,
                drawing: ran - encoding,
                encoding,
            };
            (out, timing)
        };
        let queue = self
            .queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let Some(queue) = queue else {
            // No thread could be started: the runtime's blocking threads do it.
            return tokio::task::spawn_blocking(timed).await;
        };
        let (done, outcome) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = done.send(catch_unwind(AssertUnwindSafe(timed)));
        });
        if let Err(mpsc::SendError(job)) = queue.send(job) {
            // No thread takes jobs any more: the runtime's blocking threads run it.
            drop(tokio::task::spawn_blocking(job));
        }
        // A panic in the work is handed back as the runtime hands back a panicked task's.
        tokio::spawn(async move {
            match outcome.await {
                Ok(Ok(out)) => out,
                Ok(Err(panic)) => resume_unwind(panic),
                Err(_) => resume_unwind(gone()),
            }
        })
        .await
    }
}

fn gone() -> Box<dyn std::any::Any + Send> {
    Box::new("the picture thread stopped")
}
