//! Tournaments through storage: one lock for all events, each synced, persisted or discarded
//! against the database; a match's thread tied to its event, its seats and results
//! reconciled, match threads opened, and tournament commands run with retries.

use super::*;

impl Service {
    /// Brings one thread's tournament up to date with the database.
    pub(super) async fn sync_tournament(
        &self,
        tours: &mut Tours,
        thread: &str,
    ) -> Result<(), StoreError> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let stored = store.tournament_version(thread).await?;
        if stored == tours.versions.get(thread).map(|v| v.0) {
            return Ok(());
        }
        match store.load_tournament(thread).await? {
            Some((t, version)) => {
                let rows = TournamentRows::of(&t)?;
                tours.hub.insert_tournament(t);
                tours.versions.insert(thread.to_string(), (version, rows));
            }
            None => {
                tours.hub.remove_tournament(thread);
                tours.versions.remove(thread);
            }
        }
        Ok(())
    }

    /// Saves a tournament's changes. `Ok(false)`: another writer won; reload and retry.
    pub(super) async fn persist_tournament(
        &self,
        tours: &mut Tours,
        thread: &str,
        log: Option<LogLine<'_>>,
    ) -> Result<bool, StoreError> {
        let Some(store) = &self.store else {
            return Ok(true);
        };
        let Some(t) = tours.hub.tournament(thread) else {
            return Ok(true);
        };
        if !tours.versions.contains_key(thread) {
            if !store.create_tournament(t).await? {
                return Ok(false);
            }
            tours
                .versions
                .insert(thread.to_string(), (0, TournamentRows::default()));
        }
        let Some((expected, old)) = tours.versions.get(thread) else {
            return Ok(true);
        };
        if TournamentRows::of(t)? == *old && *expected > 0 {
            return Ok(true);
        }
        match store.save_tournament(t, *expected, old, log).await {
            Ok((v, rows)) => {
                tours.versions.insert(thread.to_string(), (v, rows));
                Ok(true)
            }
            Err(StoreError::Conflict) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Undoes an unsaved tournament change by reloading it.
    pub(super) async fn discard_tournament(&self, tours: &mut Tours, thread: &str) {
        tours.versions.remove(thread);
        tours.hub.remove_tournament(thread);
        if let Err(e) = self.sync_tournament(tours, thread).await {
            tracing::error!(error = %e, thread, "reload after a failed write failed");
        }
    }

    /// The tournament a game thread is a match of, looked up once per slot.
    pub(super) async fn match_owner(
        &self,
        cell: &mut Cell,
        tours: &mut Tours,
        thread: &str,
    ) -> Result<Option<String>, StoreError> {
        if let Some(owner) = tours.hub.tournament_of_match(thread) {
            return Ok(Some(owner));
        }
        match &cell.owner {
            Owner::Unknown => {}
            Owner::NoTournament => return Ok(None),
            Owner::Tournament(t) => return Ok(Some(t.clone())),
        }
        let Some(store) = &self.store else {
            return Ok(None);
        };
        // A match's link is stored before its game, so a game without a link now never
        // gets one.
        let owner = store.tournament_of_match(thread).await?;
        if let Some(o) = &owner {
            tours.hub.link_match(thread, o);
        }
        cell.owner = match &owner {
            Some(o) => Owner::Tournament(o.clone()),
            None => Owner::NoTournament,
        };
        Ok(owner)
    }

    /// `/substitute` in a match thread: why its tournament refuses `by:` (on another team,
    /// or seated in another of its running matches); `None` outside a match or when allowed.
    pub(super) async fn match_seat_refusal(
        &self,
        cell: &mut Cell,
        thread: &str,
        cmd: &Command,
    ) -> Option<String> {
        let mention = |k: &str| {
            cmd.opt(k).map(|v| {
                v.trim()
                    .trim_start_matches("<@")
                    .trim_start_matches('@')
                    .trim_end_matches('>')
                    .to_string()
            })
        };
        let (player, by) = (mention("player")?, mention("by")?);
        if cell.owner == Owner::NoTournament || cell.hub.game(thread).is_none() {
            return None;
        }
        let mut tours = self.tours.lock().await;
        let owner = match self.match_owner(cell, &mut tours, thread).await {
            Ok(o) => o?,
            Err(e) => {
                tracing::error!(error = %e, thread, "match lookup failed");
                return None;
            }
        };
        if let Err(e) = self.sync_tournament(&mut tours, &owner).await {
            tracing::error!(error = %e, "storage failed");
        }
        tours
            .hub
            .tournament(&owner)
            .and_then(|t| t.match_substitute_refusal(thread, &player, &by))
    }

    /// After an action in a match thread: the tournament takes the game's result (a separate
    /// write, retried until it lands; the game's own write is already done).
    pub(super) async fn reconcile(
        &self,
        cell: &mut Cell,
        thread: &str,
        now: Timestamp,
        reply: &mut Reply,
    ) {
        if cell.owner == Owner::NoTournament || cell.hub.game(thread).is_none() {
            return;
        }
        let mut tours = self.tours.lock().await;
        let owner = match self.match_owner(cell, &mut tours, thread).await {
            Ok(Some(o)) => o,
            Ok(None) => return,
            Err(e) => {
                tracing::error!(error = %e, thread, "match lookup failed");
                return;
            }
        };
        let Some(game) = cell.hub.game(thread).map(|g| g.clone_box()) else {
            return;
        };
        retrying!(
            async {
                if let Err(e) = self.sync_tournament(&mut tours, &owner).await {
                    tracing::error!(error = %e, "storage failed");
                    return Attempt::Done(());
                }
                tours.hub.insert_game(thread, game.clone());
                let news = tours.hub.reconcile_match(thread, now);
                tours.hub.remove_game(thread);
                let saved = self.persist_tournament(&mut tours, &owner, None).await;
                match Unsaved::of(saved, &owner) {
                    Ok(()) => {
                        if let Some(n) = news {
                            reply.notices.push(n);
                        }
                        Attempt::Done(())
                    }
                    Err(unsaved) => {
                        self.discard_tournament(&mut tours, &owner).await;
                        unsaved.retry_or(|_| ())
                    }
                }
            },
            ()
        );
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
        let slot = self.slot(match_thread);
        let mut cell = slot.cell.lock().await;
        let mut tours = self.tours.lock().await;
        let reply = self
            .open_match_locked(
                &mut cell,
                &mut tours,
                tournament,
                round,
                board,
                match_thread,
                now,
            )
            .await;
        self.touched(match_thread, &cell);
        reply
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) async fn open_match_locked(
        &self,
        cell: &mut Cell,
        tours: &mut Tours,
        tournament: &str,
        round: u32,
        board: u32,
        match_thread: &str,
        now: Timestamp,
    ) -> Reply {
        retrying!(
            async {
                if let Err(e) = self.sync_tournament(tours, tournament).await {
                    return Attempt::Done(internal_error(&e));
                }
                if let Err(e) = self.sync(cell, match_thread).await {
                    return Attempt::Done(internal_error(&e));
                }
                let was = before(&cell.hub, match_thread);
                if let Some(g) = cell.hub.game(match_thread) {
                    tours.hub.insert_game(match_thread, g.clone_box());
                }
                let reply = tours
                    .hub
                    .open_match(tournament, round, board, match_thread, now);
                if let Some(g) = tours.hub.game(match_thread) {
                    cell.hub.insert_game(match_thread, g.clone_box());
                }
                tours.hub.remove_game(match_thread);
                if reply.ok != Some(true) {
                    return Attempt::Done(reply);
                }
                cell.owner = Owner::Tournament(tournament.to_string());
                match self.persist_tournament(tours, tournament, None).await {
                    Ok(true) => {}
                    Ok(false) => {
                        self.discard_tournament(tours, tournament).await;
                        self.discard(cell, match_thread).await;
                        return Attempt::Lost;
                    }
                    Err(e) => {
                        self.discard_tournament(tours, tournament).await;
                        self.discard(cell, match_thread).await;
                        return Attempt::Done(internal_error(&e));
                    }
                }
                let saved = self
                    .persist(cell, match_thread, &was, now, None, &reply)
                    .await;
                match self.settle(saved, cell, match_thread).await {
                    Ok(()) => Attempt::Done(reply),
                    Err(unsaved) => unsaved.retry_or(internal_error),
                }
            },
            internal_error(&StoreError::Conflict)
        )
    }

    /// Runs `f` on a tournament (for pictures and exports).
    pub async fn with_tournament<T>(
        &self,
        thread: &str,
        f: impl FnOnce(&crate::tournament::Tournament) -> T,
    ) -> Option<T> {
        let mut tours = self.tours.lock().await;
        if let Err(e) = self.sync_tournament(&mut tours, thread).await {
            tracing::error!(error = %e, "storage failed");
        }
        tours.hub.tournament(thread).map(f)
    }

    /// A command in a tournament's thread, or a tournament command anywhere, under the
    /// tournaments' lock. `game`: the thread's game, if it has one (a tournament cannot start
    /// in a game's thread).
    pub(super) async fn handle_tournament(
        &self,
        caller: &Caller<'_>,
        entropy: u64,
        cmd: &Command,
        raw: &str,
        interaction: Option<&str>,
        game: Option<Box<dyn ThreadGame>>,
    ) -> Reply {
        let thread = caller.thread;
        let mut tours = self.tours.lock().await;
        retrying!(
            async {
                if let Err(e) = self.sync_tournament(&mut tours, thread).await {
                    return Attempt::Done(internal_error(&e));
                }
                if let Some(g) = &game {
                    tours.hub.insert_game(thread, g.clone());
                }
                let ratings = self.seeding_ratings(&tours.hub, thread, cmd).await;
                if let Some(t) = tours.hub.tournament_mut(thread) {
                    t.ratings = ratings;
                }
                let reply = tours.hub.handle(caller, entropy, cmd, raw);
                if let Some(t) = tours.hub.tournament_mut(thread) {
                    t.ratings.clear();
                }
                tours.hub.remove_game(thread);
                let log = LogLine {
                    actor: caller.user,
                    time: caller.now,
                    command: raw,
                    reply: &reply.text,
                    interaction,
                };
                let saved = self.persist_tournament(&mut tours, thread, Some(log)).await;
                match Unsaved::of(saved, thread) {
                    Ok(()) => Attempt::Done(reply),
                    Err(unsaved) => {
                        self.discard_tournament(&mut tours, thread).await;
                        unsaved.retry_or(internal_error)
                    }
                }
            },
            internal_error(&StoreError::Conflict)
        )
    }
}
