//! `/mygames` with storage: the caller's games in play and those they run, read from the
//! database one game at a time under each game's own lock; the lines themselves are the
//! command layer's ([`crate::commands::mygames`]).

use super::*;
use crate::commands::mygames;

impl Service {
    /// Records the Discord server a game's thread is in (the front end knows it), so that
    /// `/mygames` there lists it. Failures are logged: the game stands.
    pub async fn set_guild(&self, thread: &str, guild: &str) {
        if let Some(store) = &self.store {
            if let Err(e) = store.set_guild(thread, guild).await {
                tracing::error!(error = %e, thread, "cannot record the game's server");
            }
        }
    }

    /// `/mygames` on one Discord server (`guild`): the games in play that wait on the caller,
    /// most urgent first (the earliest deadline, then the longest wait), then the other games
    /// they play, with whom those wait on; each game read under its own lock, one at a time.
    /// A server's games are its own and those stored without a server (before issue 41, or
    /// made on the console); every game when `None`.
    pub async fn my_games_on(&self, caller: &Caller<'_>, guild: Option<&str>) -> Reply {
        let (user, now) = (caller.user, caller.now);
        let att = self.attention();
        let games = self
            .games_of(user, guild, |thread, game, server| {
                mygames::my_game(thread, game, server, &att, now)
            })
            .await;
        let reply = match games {
            Ok(games) => crate::commands::my_games_reply(user, games),
            Err(e) => return internal_error(&e),
        };
        // The second part, for those who run games: those that need looking at.
        match self.games_run_by(caller, guild).await {
            Ok(run) => mygames::with_games_you_run(reply, &run),
            Err(e) => {
                tracing::error!(error = %e, "storage failed");
                reply
            }
        }
    }

    /// The games in play that `caller` runs (organises, or officiates as a Chess-Umpire or a
    /// Referee) on one server (`guild`; every game when `None`), as `/mygames` reads them for
    /// its part `games you run`. Each game is read under its own lock, one at a time.
    ///
    /// # Errors
    /// The games cannot be listed.
    pub(super) async fn games_run_by(
        &self,
        caller: &Caller<'_>,
        guild: Option<&str>,
    ) -> Result<Vec<crate::commands::RunGame>, StoreError> {
        let (user, now) = (caller.user, caller.now);
        let att = self.attention();
        let threads = match &self.store {
            Some(store) => Some(store.unfinished_threads_run_by(user, guild).await?),
            None => None,
        };
        let runs = |game: &dyn ThreadGame| mygames::runs(game, user);
        let out = self
            .each_game(threads, runs, |thread, game, _| {
                mygames::run_game(thread, game, &att, user, now)
            })
            .await;
        Ok(out)
    }

    /// Reads each game in play that `user` plays on one Discord server (`guild`; every game
    /// when `None`), under its own lock, one at a time, in the order of their threads: `read`
    /// gets the thread, the game and its server.
    ///
    /// # Errors
    /// The games cannot be listed (one that cannot be read is logged and passed over).
    pub(super) async fn games_of<T>(
        &self,
        user: &str,
        guild: Option<&str>,
        read: impl FnMut(&str, &dyn ThreadGame, Option<&str>) -> T,
    ) -> Result<Vec<T>, StoreError> {
        let threads = match &self.store {
            Some(store) => Some(store.unfinished_threads_on(user, guild).await?),
            None => None,
        };
        let plays = |game: &dyn ThreadGame| mygames::plays(game, user);
        Ok(self.each_game(threads, plays, read).await)
    }

    /// Reads each of `threads` (every game in memory when `None`, as without a database) whose
    /// game is in play and `keep`s, under its own lock, one at a time, in thread order: `read`
    /// gets the thread, the game and its server. A game that cannot be read is logged and
    /// passed over.
    pub(super) async fn each_game<T>(
        &self,
        threads: Option<Vec<String>>,
        keep: impl Fn(&dyn ThreadGame) -> bool,
        mut read: impl FnMut(&str, &dyn ThreadGame, Option<&str>) -> T,
    ) -> Vec<T> {
        let mut threads = threads.unwrap_or_else(|| lock(&self.slots).keys().cloned().collect());
        threads.sort();
        threads.dedup();
        let mut out = Vec::new();
        for thread in threads {
            let slot = self.slot(&thread);
            let mut cell = slot.cell.lock().await;
            if let Err(e) = self.sync(&mut cell, &thread).await {
                tracing::error!(error = %e, thread, "storage failed");
                continue;
            }
            if let Some(game) = cell.hub.game(&thread) {
                if !game.finished() && keep(game) {
                    out.push(read(&thread, game, cell.guild.as_deref()));
                }
            }
        }
        out
    }
}
