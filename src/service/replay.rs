//! `/replay` on the service: the options checked and the frames collected under the game's
//! lock (a snapshot, quickly), then drawn on a picture thread with the lock released, so the
//! game goes on while its replay is drawn. One replay at a time per game: a second asked
//! while one is drawn is refused rather than queued (each is seconds of a core).

use std::collections::HashSet;
use std::sync::Mutex as StdMutex;

use super::{lock, Service};
use crate::commands::{declare, Command};
use crate::layer::replay::{ReplayJob, ReplayOptions, Replayed};
use crate::time::Timestamp;

/// A game's replay being drawn: its thread is in the service's set until this is dropped
/// (also when the drawing fails or the caller goes away).
#[derive(Debug)]
pub struct ReplayGuard<'a> {
    running: &'a StdMutex<HashSet<String>>,
    thread: String,
}

impl Drop for ReplayGuard<'_> {
    fn drop(&mut self) {
        lock(self.running).remove(&self.thread);
    }
}

impl Service {
    /// `/replay` in `thread` at `now`: the job that draws it, and the guard that keeps a
    /// second replay of the game from starting until it is dropped.
    ///
    /// # Errors
    /// Why it is refused, for the user: an option that does not read or is out of range, no
    /// game here, nothing to show, or a replay of this game already being drawn.
    pub async fn replay_job(
        &self,
        thread: &str,
        cmd: &Command,
        now: Timestamp,
    ) -> Result<(ReplayJob, ReplayGuard<'_>), String> {
        declare::check(cmd)?;
        let opts = ReplayOptions::of_command(cmd)?;
        if !lock(&self.replaying).insert(thread.to_string()) {
            return Err(
                "a replay of this game is being drawn already; it is posted in a moment".into(),
            );
        }
        let guard = ReplayGuard {
            running: &self.replaying,
            thread: thread.to_string(),
        };
        let job = self
            .with_game(thread, |g| g.replay_job(&opts, now))
            .await
            .ok_or_else(|| "there is no game in this thread".to_string())??;
        Ok((job, guard))
    }

    /// Draws a replay on a picture thread ([`Service::cpu`]).
    ///
    /// # Errors
    /// It could not be drawn (logged; the user is told in general terms).
    pub async fn draw_replay(&self, thread: &str, job: ReplayJob) -> Result<Replayed, String> {
        let failed = "the replay could not be drawn; try a shorter one with from: and to:";
        match self.cpu(job).await {
            Ok((Ok(r), cpu)) => {
                tracing::info!(
                    thread,
                    frames = r.replay.frames,
                    bytes = r.replay.gif.len(),
                    passes = r.replay.passes,
                    drawn = r.replay.drawn,
                    drawing_us = cpu.drawing.as_micros() as u64,
                    "replay drawn"
                );
                Ok(r)
            }
            Ok((Err(e), _)) => {
                tracing::error!(thread, error = %e, "replay not drawn");
                Err(failed.into())
            }
            Err(e) => {
                tracing::error!(thread, error = %e, "replay drawing panicked");
                Err(failed.into())
            }
        }
    }

    /// `/replay` in `thread` at `now`, drawn ([`Service::replay_job`], then
    /// [`Service::draw_replay`]).
    ///
    /// # Errors
    /// Either's.
    pub async fn replay(
        &self,
        thread: &str,
        cmd: &Command,
        now: Timestamp,
    ) -> Result<Replayed, String> {
        let (job, _guard) = self.replay_job(thread, cmd, now).await?;
        self.draw_replay(thread, job).await
    }
}
