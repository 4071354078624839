//! `/vacation` on the service (issue 42): the player's vacations on a server read from the
//! players' attention, changed by [`crate::layer::vacation`], stored, and handed to their
//! games at the next command or sweep of each ([`Service::sync`]). The answer is private and
//! pings nobody; it names the games that will not wait (`vacation:off`).

use super::{internal_error, lock, Service};
use crate::commands::{declare, Caller, Command, Reply, ThreadGame};
use crate::layer::clock::Away;
use crate::layer::vacation::{self, Asked};
use crate::time::{stamp, Style, Timestamp};

fn private(reply: Reply) -> Reply {
    Reply {
        ephemeral: true,
        ..reply
    }
}

/// The lines `/status` starts with while players of the game are away: until when, and
/// whether the game waits for them.
pub(super) fn away_lines(game: &dyn ThreadGame, away: &Away, now: Timestamp) -> Vec<String> {
    let waits = game.pace().vacation != Some(false);
    away.away_at(now)
        .into_iter()
        .map(|(user, back)| {
            let how = if waits {
                "the limits of their turns wait for them"
            } else {
                "this game does not wait for them (vacation:off)"
            };
            format!(
                "{user} is away until {} ({}): {how}",
                stamp(back, Style::Full),
                stamp(back, Style::Relative)
            )
        })
        .collect()
}

/// An accepted action that asks a player away on vacation to act says so (their turn ping
/// still comes), so whoever acted knows why they may wait.
pub(super) fn note_away(reply: &mut Reply, game: &dyn ThreadGame, now: Timestamp) {
    let Some(n) = &reply.notify else {
        return;
    };
    let lines: Vec<String> = n
        .users()
        .into_iter()
        .filter_map(|u| {
            let back = game.away().until(&u, now)?;
            Some(format!(
                "{u} is away until {} ({}): the limits of their turns wait for them",
                stamp(back, Style::Full),
                stamp(back, Style::Relative)
            ))
        })
        .collect();
    if !lines.is_empty() {
        reply.text = format!("{}\n{}", reply.text, lines.join("\n"));
    }
}

impl Service {
    /// `/vacation [until:<date or duration>] [off]` on a server (`server`: a Discord guild's
    /// id, empty on the console) whose players have `bank` days a year.
    pub async fn vacation_on(
        &self,
        caller: &Caller<'_>,
        cmd: &Command,
        server: &str,
        bank: u32,
    ) -> Reply {
        if let Err(e) = declare::check(cmd) {
            return private(Reply::refused(e));
        }
        let (user, now) = (caller.user, caller.now);
        let att = self.attention();
        let taken = att.vacations(server, user);
        let asked = match vacation::read(cmd, &att.prefs(user), now) {
            Ok(a) => a,
            Err(e) => return private(Reply::refused(e)),
        };
        let (new, text) = match asked {
            Asked::Show => return private(Reply::ok(vacation::shown(&taken, bank, now))),
            Asked::Off => match taken.end(now) {
                Ok(t) => {
                    let left = t.left(bank, now);
                    let text = format!(
                        "welcome back: your vacation ended; the limits of your turns run again from now; {left} of your {bank} vacation days left this year"
                    );
                    (t, text)
                }
                Err(e) => return private(Reply::refused(e)),
            },
            Asked::Until(until) => {
                if bank == 0 {
                    return private(Reply::refused(
                        "this server gives no vacation days (its /settings vacation_days: is 0)",
                    ));
                }
                match taken.start(bank, until, now) {
                    Ok((t, end)) => {
                        let wont = self.wont_wait(caller, server).await;
                        let left = t.left(bank, now);
                        (t, vacation::started_text(end, until, left, bank, &wont))
                    }
                    Err(e) => return private(Reply::refused(e)),
                }
            }
        };
        match &self.store {
            Some(store) => {
                if let Err(e) = store.set_vacations(server, user, &new).await {
                    return internal_error(&e);
                }
            }
            None => std::sync::Arc::make_mut(&mut lock(&self.attention)).set_vacations(
                server,
                user,
                new.clone(),
            ),
        }
        tracing::info!(user, server, periods = ?new.periods, "vacation changed");
        private(Reply::ok(text))
    }

    /// The caller's games in play on `server` that do not wait for players on vacation.
    async fn wont_wait(&self, caller: &Caller<'_>, server: &str) -> Vec<String> {
        let guild = (!server.is_empty()).then_some(server);
        let games = self
            .games_of(caller.user, guild, |thread, game, _| {
                (game.pace().vacation == Some(false)).then(|| {
                    format!(
                        "{} ({})",
                        crate::commands::thread_ref(thread),
                        game.kind().title
                    )
                })
            })
            .await;
        match games {
            Ok(v) => v.into_iter().flatten().collect(),
            Err(e) => {
                tracing::error!(error = %e, "storage failed");
                Vec::new()
            }
        }
    }
}
