//! `/notify`, "not waiting on me" and `/resume` of a game the layer paused, with storage: what
//! to answer is decided in the command layer ([`crate::commands::attention`]); here the change
//! is stored (or kept in memory without a database) and logged.

use super::*;
use crate::commands::attention;

impl Service {
    /// The players' settings, dismissed waits and resumed games as they stand.
    pub(super) fn attention(&self) -> std::sync::Arc<Attention> {
        lock(&self.attention).clone()
    }

    /// `/notify`: shows the caller's notification settings, or changes those named.
    pub(super) async fn notify(&self, caller: &Caller<'_>, cmd: &Command) -> Reply {
        let user = caller.user;
        let now = self.attention().prefs(user);
        let new = match attention::notify_change(&now, cmd) {
            Ok(Some(p)) => p,
            Ok(None) => return attention::notify_shown(&now),
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
        attention::notify_changed(&new)
    }

    /// "not waiting on me" on a reminder: no more reminders for that wait.
    pub(super) async fn not_waiting_on_me(
        &self,
        user: &str,
        thread: &str,
        waited: &str,
        since: Timestamp,
    ) -> Reply {
        if let Some(refusal) =
            attention::not_waiting_refusal(&self.attention(), user, thread, waited, since)
        {
            return Reply::refused(refusal);
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
        attention::not_waiting_noted()
    }

    /// `/resume` of a game the layer paused (nobody acted for its stall time): the
    /// organiser (or the game's creator) resumes it, and reminders start again from now.
    /// `None` when the layer did not pause it (the game's own `/resume`, if it has one, runs).
    pub(super) async fn layer_resume(&self, hub: &Hub, caller: &Caller<'_>) -> Option<Reply> {
        let thread = caller.thread;
        let game = hub.game(thread)?;
        let since = match attention::layer_resume(game, thread, &self.attention(), caller)? {
            Ok(since) => since,
            Err(refusal) => return Some(Reply::refused(refusal)),
        };
        let now = caller.now;
        match &self.store {
            Some(store) => {
                if let Err(e) = store.resume(thread, now).await {
                    return Some(internal_error(&e));
                }
            }
            None => std::sync::Arc::make_mut(&mut lock(&self.attention)).resume(thread, now),
        }
        tracing::info!(thread, user = caller.user, "resumed");
        Some(attention::resumed(since))
    }
}
