//! Tournaments on Discord: the commands declared to open a tournament
//! ([`Run::NewTournament`]) or to go to the thread's tournament ([`Run::Tournament`]).
//!
//! Like the game commands, each one only translates its typed options into a [`Command`] for
//! the command layer. What is Discord's own: the tournament gets a public thread of its own,
//! every paired match gets a public thread in the same channel ([`Reply::opens`]), the
//! standings come with a picture ([`Reply::standings`]), a command declared with a file
//! ([`Declared::file`]) is answered with one, and one declared to remember names
//! ([`Declared::remembers_names`]) keeps the players' display names for the standings.
//!
//! [`Run::NewTournament`]: crate::commands::declare::Run::NewTournament
//! [`Run::Tournament`]: crate::commands::declare::Run::Tournament

use poise::serenity_prelude as serenity;
use serenity::{AutoArchiveDuration, Channel, ChannelId, ChannelType, CreateThread, Http};

use super::context::{now, BotError, Ctx, Data, State};
use super::declared::users;
use super::respond::{channel_of, is_private, post_notices, post_notify, Outgoing};
use super::slash::{handle, in_new_thread, open_game, with_defaults, Handled};
use crate::commands::declare::Declared;
use crate::commands::{standings_picture_named, Command, MatchOpen, Reply};
use crate::tournament::Tournament;

/// Discord's limit on a thread's name.
const THREAD_NAME: usize = 100;

fn thread_name(name: &str) -> String {
    name.trim().chars().take(THREAD_NAME).collect()
}

/// Opens a tournament in a new thread of this channel, named after it (its `name:` option).
/// The server's defaults from /settings fill what the organiser left out, as for games.
pub(super) async fn new(
    ctx: Ctx<'_>,
    d: &Declared,
    mut given: Vec<(&'static str, String)>,
) -> Result<(), BotError> {
    with_defaults(ctx, &mut given);
    let cmd = d.command(&given);
    let name = cmd.opt("name").unwrap_or_default().to_string();
    let Some(started) = in_new_thread(ctx, d, &cmd, &thread_name(&name)).await? else {
        return Ok(());
    };
    let out = if is_private(&started.reply) {
        started.out
    } else {
        started
            .thread
            .send_message(ctx.http(), started.out.into_message())
            .await?;
        Outgoing::text(format!("Tournament created in <#{}>.", started.thread))
    };
    poise::Context::Application(ctx)
        .send(out.into_reply(false))
        .await?;
    Ok(())
}

/// Remembers how players are called, for the standings picture: the caller and the users
/// the command's options name.
async fn remember_names(ctx: Ctx<'_>) {
    let names: Vec<(String, String)> = std::iter::once(&ctx.interaction.user)
        .chain(users(ctx.args))
        .map(|u| {
            let name = u.global_name.clone().unwrap_or_else(|| u.name.clone());
            (u.id.to_string(), name)
        })
        .collect();
    ctx.data().service.remember_names(&names).await;
}

/// Hands a tournament command to the command layer and answers: refusals and private answers
/// ephemerally (a command declared with a file, once accepted, with its file); the rest
/// publicly in the tournament thread, with the standings picture when asked for; then the
/// match threads a pairing opens.
pub(super) async fn act(ctx: Ctx<'_>, d: &Declared, cmd: Command) -> Result<(), BotError> {
    if d.remembers_names {
        remember_names(ctx).await;
    }
    let state = ctx.data();
    let Handled {
        reply,
        caller,
        thread,
        raw,
    } = handle(ctx, &cmd).await;
    let pctx = poise::Context::Application(ctx);
    if let (Some(file), Some(true)) = (d.file, reply.ok) {
        // The file is the reply itself, as the command layer wrote it.
        let out =
            Outgoing::text(file.caption.into()).with_file(Some(reply.text.into_bytes()), file.name);
        pctx.send(out.into_reply(true)).await?;
        return Ok(());
    }
    let out = Outgoing::from_reply(state, thread, &caller, &reply).await;
    if is_private(&reply) {
        let sent = pctx.send(out.into_reply(true)).await;
        post_notify(ctx.http(), state, thread, &reply).await;
        post_notices(ctx.http(), state, &reply.notices).await;
        sent?;
        return Ok(());
    }
    // A picture to draw or threads to open: acknowledge first.
    if reply.standings || !reply.opens.is_empty() {
        pctx.defer().await?;
    }
    let picture = if reply.standings {
        standings_png(state, thread).await
    } else {
        None
    };
    // The command is committed: its news and match threads go out even if the answer failed.
    let sent = pctx
        .send(out.with_file(picture, "standings.png").into_reply(false))
        .await;
    post_notify(ctx.http(), state, thread, &reply).await;
    post_notices(ctx.http(), state, &reply.notices).await;
    if !reply.opens.is_empty() {
        open_matches(ctx, &reply.opens, &raw).await?;
    }
    sent?;
    Ok(())
}

/// The standings picture of a thread's tournament, drawn on a picture thread; `None` (logged)
/// when it cannot be drawn: the standings then go out as text only.
async fn standings_png(state: &State, thread: ChannelId) -> Option<Vec<u8>> {
    let t = state
        .service
        .with_tournament(&thread.to_string(), Tournament::clone)
        .await?;
    let names = state.service.player_names().await;
    let picture = move || {
        standings_picture_named(&t, &|p: &str| {
            names.get(p).cloned().unwrap_or_else(|| p.to_string())
        })
    };
    match state.service.cpu(picture).await.map(|(png, _)| png) {
        Ok(Ok(png)) => Some(png),
        Ok(Err(e)) => {
            tracing::warn!(thread = %thread, error = %e, "standings picture not drawn");
            None
        }
        Err(e) => {
            tracing::error!(thread = %thread, error = %e, "standings picture task failed");
            None
        }
    }
}

/// The text channel a tournament thread belongs to: match threads are opened there, since
/// threads do not nest.
async fn parent_channel(ctx: Ctx<'_>, tournament: ChannelId) -> Option<ChannelId> {
    let interaction = ctx.interaction;
    if interaction.channel_id == tournament {
        if let Some(parent) = interaction.channel.as_ref().and_then(|c| c.parent_id) {
            return Some(parent);
        }
    }
    match tournament.to_channel(ctx.http()).await {
        Ok(Channel::Guild(c)) => c.parent_id,
        Ok(_) => None,
        Err(e) => {
            tracing::error!(thread = %tournament, error = %e, "cannot look up the tournament thread");
            None
        }
    }
}

/// Why a match thread did not open.
enum OpenFailure {
    /// Discord refused or failed (logged; the organiser is told without details).
    Discord(serenity::Error),
    /// The command layer refused (its text is for users).
    Refused(String),
}

/// Opens each paired match in a new public thread of the tournament's channel, with the
/// game's first messages as for `/kfb new`; then lists the threads in the tournament thread.
/// A match whose thread cannot be opened stays paired: the organiser is told, privately, to
/// run `/tournament pair` again, which offers it again. Openings are serialised, and a match
/// opened meanwhile (by another command) is skipped.
async fn open_matches(ctx: Ctx<'_>, opens: &[MatchOpen], raw: &str) -> Result<(), BotError> {
    let state = ctx.data();
    let http = ctx.http();
    let _opening = state.opening.lock().await;
    let caller = ctx.interaction.user.id.to_string();
    let mut links = Vec::new();
    let mut failed = Vec::new();
    let mut tournament_thread = ctx.interaction.channel_id;
    for m in opens {
        let Some(tournament) = channel_of(&m.tournament) else {
            tracing::error!(thread = %m.tournament, "a match of a tournament that is not in a channel");
            failed.push(format!("round {} board {}", m.round, m.board));
            continue;
        };
        tournament_thread = tournament;
        let open = state
            .service
            .with_tournament(&m.tournament, |t| {
                t.board(m.round, m.board).map(|b| b.thread.is_some())
            })
            .await
            .flatten();
        if open == Some(true) {
            tracing::info!(tournament = %tournament, round = m.round, board = m.board, "match already opened");
            continue;
        }
        let Some(parent) = parent_channel(ctx, tournament).await else {
            tracing::error!(thread = %tournament, "the tournament thread has no parent channel");
            failed.push(format!("round {} board {}", m.round, m.board));
            continue;
        };
        match open_match(http, state, parent, m, &caller).await {
            Ok(thread) => {
                if let Some(guild) = ctx.interaction.guild_id {
                    state
                        .service
                        .set_guild(&thread.to_string(), &guild.to_string())
                        .await;
                }
                tracing::info!(tournament = %tournament, thread = %thread, round = m.round, board = m.board, command = %raw, "match opened");
                links.push(format!("{}: <#{thread}>", m.title));
            }
            Err(OpenFailure::Discord(e)) => {
                tracing::error!(tournament = %tournament, round = m.round, board = m.board, error = %e, "match thread not opened");
                failed.push(format!("round {} board {}", m.round, m.board));
            }
            Err(OpenFailure::Refused(text)) => {
                tracing::warn!(tournament = %tournament, round = m.round, board = m.board, reason = %text, "match not opened");
                failed.push(format!("round {} board {} ({text})", m.round, m.board));
            }
        }
    }
    if !links.is_empty() {
        let out = Outgoing::text(links.join("\n"));
        if let Err(e) = tournament_thread
            .send_message(http, out.into_message())
            .await
        {
            tracing::warn!(thread = %tournament_thread, error = %e, "match links not posted");
        }
    }
    if !failed.is_empty() {
        let text = crate::commands::front::matches_not_opened(&failed.join(", "));
        let pctx = poise::Context::Application(ctx);
        pctx.send(Outgoing::text(text).into_reply(true)).await?;
    }
    Ok(())
}

/// Opens one match: its thread in `parent`, the game in it (through the service), and the
/// game's first messages.
async fn open_match(
    http: &Http,
    state: &Data,
    parent: ChannelId,
    m: &MatchOpen,
    caller: &str,
) -> Result<ChannelId, OpenFailure> {
    let thread = parent
        .create_thread(
            http,
            CreateThread::new(thread_name(&m.title))
                .kind(ChannelType::PublicThread)
                .auto_archive_duration(AutoArchiveDuration::OneWeek),
        )
        .await
        .map_err(OpenFailure::Discord)?
        .id;
    let reply: Reply = state
        .service
        .open_match(&m.tournament, m.round, m.board, &thread.to_string(), now())
        .await;
    if reply.ok != Some(true) {
        // No game in the new thread: remove it, or at least say why it is empty.
        if let Err(e) = thread.delete(http).await {
            tracing::warn!(thread = %thread, error = %e, "empty match thread not deleted");
            let note = Outgoing::text(format!(
                "This match could not be opened here ({}); the organiser has been told.",
                reply.text
            ));
            if let Err(e) = thread.send_message(http, note.into_message()).await {
                tracing::warn!(thread = %thread, error = %e, "empty match thread not explained");
            }
        }
        return Err(OpenFailure::Refused(reply.text));
    }
    let out = Outgoing::from_reply(state, thread, caller, &reply).await;
    if let Err(e) = open_game(http, state, thread, out, reply.notify.as_ref()).await {
        // The game exists and its thread is linked; only its first messages are missing.
        tracing::warn!(thread = %thread, error = %e, "match game's first messages not all posted");
    }
    Ok(thread)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_names_fit() {
        assert_eq!(thread_name("  Cup "), "Cup");
        assert_eq!(thread_name(&"x".repeat(150)).chars().count(), THREAD_NAME);
    }
}
