//! Timers through storage: the sweep that finds the games whose stored next due time has come,
//! catches each up in one commit and hands its announcements over (late ones summed up in one
//! post), and conditional moves that fall due with a timer.

use super::*;

/// A timer announced this long after it fell due is late (the bot was away).
pub(super) const LATE: Timestamp = 60;

/// A listed event's text is cut to this many characters (a post stays well within
/// Discord's 2,000).
pub(super) const CATCH_UP_WIDTH: usize = 140;

/// What players see of one game's timers found by a sweep: one post per timer, as they fell
/// due; a timer more than a minute late says so.
///
/// Ruling (catch-up summary): when one sweep finds two or more late timers in a game (the bot
/// was away while a day of turn limits, default plays or vote closings ran out), the game
/// gets one post instead of one per timer: a line counting them with the first and last
/// time, every one of them listed one line each (each default play named with its number;
/// a long post goes out as a file, like any long text), then the last one's own
/// announcement, which says where the game stands now and notifies only whoever must act
/// now. Nobody is pinged for the timers in the list.
pub fn catch_up(dues: Vec<Due>, now: Timestamp) -> Vec<Notify> {
    // Reminders are each their own message to their one user, after the game's own timers.
    let (reminders, dues): (Vec<Due>, Vec<Due>) =
        dues.into_iter().partition(|d| remind::is_reminder(d.seat));
    let mut out = own_timers(dues, now);
    out.extend(reminders.into_iter().map(|d| marked_late(d, now)));
    out
}

/// A timer's message, saying so if it fell due more than a minute ago.
pub(super) fn marked_late(d: Due, now: Timestamp) -> Notify {
    if now > d.at + LATE {
        d.notify.append(&format!(
            " (late: this fell due at {} while the bot was away)",
            crate::time::stamp(d.at, crate::time::Style::Full)
        ))
    } else {
        d.notify
    }
}

/// [`catch_up`] of a game's own timers.
pub(super) fn own_timers(mut dues: Vec<Due>, now: Timestamp) -> Vec<Notify> {
    let late = dues.iter().filter(|d| now > d.at + LATE).count();
    if late < 2 {
        return dues.into_iter().map(|d| marked_late(d, now)).collect();
    }
    dues.sort_by_key(|d| d.at);
    let n = dues.len();
    let (Some(first), Some(last)) = (dues.first().map(|d| d.at), dues.last().map(|d| d.at)) else {
        return Vec::new();
    };
    let stamp = |t| crate::time::stamp(t, crate::time::Style::Full);
    let mut head = vec![format!(
        "While the bot was away, {n} timers fell due in this game, from {} to {}:",
        stamp(first),
        stamp(last)
    )];
    let line = |d: &Due| {
        let text = d.notify.text().replace('\n', " — ");
        let text = match text.char_indices().nth(CATCH_UP_WIDTH) {
            Some((cut, _)) => format!("{}…", &text[..cut]),
            None => text,
        };
        format!("• {}: {text}", stamp(d.at))
    };
    head.extend(dues.iter().map(line));
    head.push("Now:".to_string());
    let last = dues
        .into_iter()
        .next_back()
        .map(|d| d.notify)
        .unwrap_or_default();
    vec![last.beneath(head.join("\n"))]
}

impl Service {
    /// Timer messages (lock expiries, turn limits) due by `now` (after `after`), each
    /// announced once even across restarts and processes; those that fell due more than a
    /// minute ago say they are late, and a game with several late ones gets one summary post
    /// instead ([`catch_up`]). With a database, only the games whose stored next due time has
    /// come are read; idle games then leave memory. In the order the games were found (by
    /// next due time); [`Service::sweep_timers`] hands each game's over as soon as it is done.
    pub async fn due_messages(&self, after: Timestamp, now: Timestamp) -> Vec<(String, Notify)> {
        let found = StdMutex::new(Vec::new());
        self.sweep_timers(after, now, |i, thread, notes| {
            lock(&found).push((i, thread, notes));
        })
        .await;
        let mut found = found.into_inner().unwrap_or_else(PoisonError::into_inner);
        found.sort_by_key(|f| f.0);
        found
            .into_iter()
            .flat_map(|(_, thread, notes)| notes.into_iter().map(move |n| (thread.clone(), n)))
            .collect()
    }

    /// The timer sweep: every game with a timer due by `now` (after `after`) is caught up in
    /// one pass (read once, every due timer found, one commit) and its announcements handed
    /// to `each` (the game's index in the sweep, its thread, its posts) as soon as they are
    /// committed. Four games are worked on at once, so a slow game (a long
    /// catch-up, a game held by a command) does not hold up the others. Returns how many
    /// games were due.
    pub async fn sweep_timers(
        &self,
        after: Timestamp,
        now: Timestamp,
        each: impl Fn(usize, String, Vec<Notify>) + Sync,
    ) -> usize {
        let threads = match &self.store {
            Some(store) => match store.due_threads(now).await {
                Ok(t) => {
                    // Settings another process may have changed decide the reminders.
                    if !t.is_empty() {
                        if let Err(e) = store.reload_attention().await {
                            tracing::error!(error = %e, "storage failed");
                        }
                    }
                    t
                }
                Err(e) => {
                    tracing::error!(error = %e, "storage failed");
                    return 0;
                }
            },
            None => {
                let mut v: Vec<String> = lock(&self.slots).keys().cloned().collect();
                v.sort();
                v
            }
        };
        let next = AtomicU64::new(0);
        let (threads_ref, next_ref, each_ref) = (&threads, &next, &each);
        let worker = || async move {
            loop {
                let i = next_ref.fetch_add(1, Ordering::Relaxed) as usize;
                let Some(thread) = threads_ref.get(i) else {
                    break;
                };
                let notes = self.sweep(thread, after, now).await;
                let mut ended = None;
                if !notes.is_empty() {
                    ended = self.caught_up(thread).await;
                }
                let (mut notes, ended_now) = self.timed_premoves(thread, now, notes).await;
                if let Some((variant, guild)) = ended.or(ended_now) {
                    self.tell_changes(thread, variant, guild.as_deref(), &mut notes)
                        .await;
                }
                if !notes.is_empty() {
                    each_ref(i, thread.clone(), notes);
                }
            }
        };
        tokio::join!(worker(), worker(), worker(), worker());
        self.evict_idle();
        threads.len()
    }

    /// One game's timers falling due in `(after, now]` (and after its last sweep): read once,
    /// claimed and recorded in one commit, announced (see [`catch_up`]).
    pub(super) async fn sweep(
        &self,
        thread: &str,
        after: Timestamp,
        now: Timestamp,
    ) -> Vec<Notify> {
        let slot = self.slot(thread);
        let mut cell = slot.cell.lock().await;
        retrying!(
            async {
                if let Some(store) = &self.store {
                    // The stored sweep time (another process may have swept since).
                    match store.sweep_state(thread).await {
                        Ok(Some((_, swept))) => cell.swept = swept,
                        Ok(None) => return Attempt::Done(Vec::new()),
                        Err(e) => {
                            tracing::error!(error = %e, thread, "storage failed");
                            return Attempt::Done(Vec::new());
                        }
                    }
                }
                if let Err(e) = self.sync(&mut cell, thread).await {
                    tracing::error!(error = %e, thread, "storage failed");
                    return Attempt::Done(Vec::new());
                }
                let Some(game) = cell.hub.game(thread) else {
                    return Attempt::Done(Vec::new());
                };
                if now <= cell.swept {
                    return Attempt::Done(Vec::new());
                }
                let from = after.max(cell.swept);
                // Finding the timers is CPU work (a day of recurring limits replays many
                // states): on a blocking thread, so the other games of the sweep go on.
                let game = game.clone_box();
                let stored = self.store.is_some();
                let att = self.attention();
                let place = thread.to_string();
                // A panic in the game's timers ends that task only: logged below, the game
                // untouched (the timers are found on a copy).
                let found = tokio::task::spawn_blocking(move || {
                    let dues = remind::timers(&*game, &place, &att, from, now);
                    let next = if stored {
                        crate::layer::remind::next_due(&*game, &place, &att, now)
                    } else {
                        None
                    };
                    (dues, next)
                })
                .await;
                let (dues, next) = match found {
                    Ok(f) => f,
                    Err(e) => {
                        tracing::error!(error = %e, thread, command = "timer sweep", "finding the timers failed");
                        return Attempt::Done(Vec::new());
                    }
                };
                let fresh: Vec<bool> = match (&self.store, cell.version) {
                    (Some(store), Some(version)) => {
                        let fired: Vec<(usize, Timestamp)> =
                            dues.iter().map(|d| (d.seat, d.at)).collect();
                        match store
                            .sweep_game(thread, version, cell.swept, now, next, &fired, now)
                            .await
                        {
                            Ok(Some(fresh)) => fresh,
                            // The game changed or was swept elsewhere: read it again.
                            Ok(None) => return Attempt::Lost,
                            Err(e) => {
                                tracing::error!(error = %e, thread, "storage failed");
                                return Attempt::Done(Vec::new());
                            }
                        }
                    }
                    (Some(_), None) => return Attempt::Done(Vec::new()),
                    (None, _) => {
                        let mut notified = lock(&self.notified);
                        dues.iter()
                            .map(|d| notified.insert((thread.to_string(), d.seat, d.at)))
                            .collect()
                    }
                };
                cell.swept = now;
                let dues: Vec<Due> = dues
                    .into_iter()
                    .zip(fresh)
                    .filter_map(|(d, f)| f.then_some(d))
                    .collect();
                Attempt::Done(catch_up(dues, now))
            },
            {
                tracing::warn!(
                    thread,
                    "timer sweep kept losing to other writers; next tick"
                );
                Vec::new()
            }
        )
    }

    /// After a game's sweep announced what fell due: the game brought up to then
    /// ([`ThreadGame::catch_up`]: Party Chess's default plays written into its log and
    /// stored, Nomic Chess's limits kept where they ran out to), so that the next sweep and
    /// the next command start there, not at its last action. Done on a copy off the
    /// executor; kept once stored (on a conflict the game is read again, and the next sweep
    /// tries again). Its summary is noted for the ratings; returns the game's kind and server
    /// when this ended it.
    pub(super) async fn caught_up(&self, thread: &str) -> Ended {
        let slot = self.slot(thread);
        let mut cell = slot.cell.lock().await;
        if let Err(e) = self.sync(&mut cell, thread).await {
            tracing::error!(error = %e, thread, "storage failed");
            return None;
        }
        let game = cell.hub.game(thread).filter(|g| !g.finished())?;
        let swept = cell.swept;
        let mut copy = game.clone_box();
        let copy = match tokio::task::spawn_blocking(move || {
            copy.catch_up(swept);
            copy
        })
        .await
        {
            Ok(c) => c,
            Err(e) => {
                tracing::error!(error = %e, thread, "catching up failed");
                return None;
            }
        };
        let was = before(&cell.hub, thread);
        cell.hub.insert_game(thread, copy);
        let saved = self
            .persist(&mut cell, thread, &was, swept, None, &Reply::ok(""))
            .await;
        // Not stored (another writer won): the game was read again; the next sweep retries.
        match self.settle(saved, &mut cell, thread).await {
            Ok(()) => self.noted_at_timer(&cell, thread, &was),
            Err(_) => None,
        }
    }

    /// After a timer changed a game (a catch-up, a conditional move it made due), committed:
    /// the game's summary is noted for the ratings (without a database nothing else reads
    /// it); the game's kind and server when the change ended it.
    fn noted_at_timer(&self, cell: &Cell, thread: &str, was: &Before) -> Ended {
        let g = cell.hub.game(thread)?;
        self.note_summary(thread, g, cell.version, cell.guild.as_deref());
        (!was.finished && g.finished()).then(|| (g.kind().variant, cell.guild.clone()))
    }

    /// A game just ended at a timer: its rating changes (`ratings: …`) appended to the last
    /// of the posts about it (a post of their own when there is none), pinging nobody more.
    async fn tell_changes(
        &self,
        thread: &str,
        variant: &str,
        guild: Option<&str>,
        notes: &mut Vec<Notify>,
    ) {
        let Some(line) = self.changes_line(thread, variant, guild).await else {
            return;
        };
        match notes.pop() {
            Some(last) => notes.push(last.then(&format!("\n{line}"))),
            None => notes.push(Notify::default().then(&line)),
        }
    }

    /// Conditional moves a timer made due (a lock lifted by time, a turn's default play):
    /// played and committed under the game's lock, posted after the timer's own messages
    /// (`notes`), from which the ping of a player whose line answered it is left out. With
    /// the game's kind and server when a move played ended it (its summary noted, as after
    /// any timer that changed the game).
    pub(super) async fn timed_premoves(
        &self,
        thread: &str,
        now: Timestamp,
        notes: Vec<Notify>,
    ) -> (Vec<Notify>, Ended) {
        let slot = self.slot(thread);
        let mut cell = slot.cell.lock().await;
        if !cell.hub.has_lines(thread) {
            return (notes, None);
        }
        retrying!(
            async {
                if let Err(e) = self.sync(&mut cell, thread).await {
                    tracing::error!(error = %e, thread, "storage failed");
                    return Attempt::Done((notes.clone(), None));
                }
                let was = before(&cell.hub, thread);
                let snapshot = Snapshot::take(self, &cell, thread);
                let settled = guarded(thread, "conditional moves at a timer", || {
                    cell.hub.settle_premoves(thread, now)
                });
                let Ok((posts, authors)) = settled else {
                    self.recover(&mut cell, thread, snapshot).await;
                    return Attempt::Done((notes.clone(), None));
                };
                if posts.is_empty() && was.book == cell.hub.book_json(thread) {
                    return Attempt::Done((notes.clone(), None));
                }
                let texts: Vec<String> = posts.iter().map(Notify::text).collect();
                let reply = Reply::ok(texts.join("\n"));
                let saved = self
                    .persist(&mut cell, thread, &was, now, None, &reply)
                    .await;
                match self.settle(saved, &mut cell, thread).await {
                    Ok(()) => {
                        self.touched(thread, &cell);
                        let ended = self.noted_at_timer(&cell, thread, &was);
                        let mut out: Vec<Notify> = notes
                            .iter()
                            .cloned()
                            .filter_map(|n| authors.iter().try_fold(n, |n, a| n.without(a)))
                            .collect();
                        out.extend(posts);
                        Attempt::Done((out, ended))
                    }
                    Err(unsaved) => unsaved.retry_or(|_| (notes.clone(), None)),
                }
            },
            (notes, None)
        )
    }
}
