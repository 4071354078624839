//! What `/notify`, "not waiting on me" and `/resume` of a game the layer paused answer,
//! decided from the players' attention settings and the game alone. No storage here: the
//! service stores the change these allow (or keeps it in memory) and logs it.

use super::{Caller, Command, Reply, ThreadGame};
use crate::layer::attention::Attention;
use crate::layer::prefs::Prefs;
use crate::layer::remind;
use crate::time::Timestamp;

/// `/notify`: the caller's new settings (`now` changed as `cmd` asks), or `None` when no
/// option is named (the settings are shown: [`notify_shown`]).
///
/// # Errors
/// Why the change is refused; nothing is changed.
pub fn notify_change(now: &Prefs, cmd: &Command) -> Result<Option<Prefs>, String> {
    super::declare::check(cmd)?;
    let changing = !cmd.options.is_empty();
    if !changing {
        return Ok(None);
    }
    now.changed(cmd).map(Some)
}

/// `/notify` without options: the caller's settings and how to change them.
pub fn notify_shown(now: &Prefs) -> Reply {
    Reply {
        ephemeral: true,
        ..Reply::ok(format!(
            "your notifications: {}\nchange them with /notify reminders:on|off after:<duration> quiet:<HH-HH>|off zone:<IANA zone or ±HH:MM>",
            now.describe()
        ))
    }
}

/// `/notify`'s answer once the new settings are kept.
pub fn notify_changed(new: &Prefs) -> Reply {
    Reply {
        ephemeral: true,
        ..Reply::ok(format!("your notifications: {}", new.describe()))
    }
}

/// "not waiting on me" pressed by `user` on a reminder of `thread`'s wait on `waited` since
/// `since`: why it is refused when the reminder is someone else's or the wait is already
/// noted, `None` when it is to be noted.
pub fn not_waiting_refusal(
    att: &Attention,
    user: &str,
    thread: &str,
    waited: &str,
    since: Timestamp,
) -> Option<&'static str> {
    if user != waited {
        return Some(
            "this reminder is someone else's; only they can say the game is not waiting on them",
        );
    }
    if att.dismissed(thread, user, since) {
        return Some("already noted: no more reminders for this wait");
    }
    None
}

/// "not waiting on me"'s answer once the wait is noted.
pub fn not_waiting_noted() -> Reply {
    Reply {
        ephemeral: true,
        ..Reply::ok("noted: no more reminders for this wait; you will be pinged as usual when something new is asked of you")
    }
}

/// `/resume` of `game` in `thread`: `None` when the layer did not pause it (the game's own
/// `/resume`, if it has one, runs); else the moment it was paused since, for the organiser
/// (or the game's creator) to resume it from now, or why it is refused.
pub fn layer_resume(
    game: &dyn ThreadGame,
    thread: &str,
    att: &Attention,
    caller: &Caller<'_>,
) -> Option<Result<Timestamp, &'static str>> {
    let now = caller.now;
    let since = remind::paused(game, thread, att, now);
    if game.stalled(now).is_some() {
        return None;
    }
    let Some(since) = since else {
        // Not paused: the game's own /resume (a Nomic Referee's), or a refusal.
        let variant = game.kind().variant;
        let owns = super::declare::all().any(|d| d.path == "resume" && d.games.contains(&variant));
        return (!owns).then_some(Err("this game is not paused"));
    };
    let organiser = game.organiser();
    if !caller.roles.organiser && organiser.as_deref() != Some(caller.user) {
        return Some(Err(
            "only the organiser may resume a paused game (or any player, by playing)",
        ));
    }
    Some(Ok(since))
}

/// `/resume`'s answer once a game paused since `since` is resumed.
pub fn resumed(since: Timestamp) -> Reply {
    Reply::ok(format!(
        "resumed: the game was paused since {}; reminders run again from now",
        crate::time::stamp(since, crate::time::Style::Full)
    ))
}
