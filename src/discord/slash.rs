//! The interaction plumbing of slash commands: [`act`] hands a command to the service and
//! answers it in the thread's game; [`new_game`] opens a game in a thread of its own
//! ([`in_new_thread`], which a tournament's opening uses too); [`legal_moves`] offers the
//! completions of options declared to complete from the caller's legal moves. The command
//! layer decides everything else, and `discord/mod.rs` routes each declared command here or
//! elsewhere by its declaration: this file names no game and no command.

use poise::serenity_prelude as serenity;
use serenity::{
    AutoArchiveDuration, ChannelId, ChannelType, CommandDataOptionValue, CommandInteraction,
    CreateAutocompleteResponse, CreateThread,
};

use super::context::{entropy, lock, now, roles_of, BotError, Ctx, Data, State};
use super::respond::{
    is_private, known_users, notify, notify_among, post_notices, refresh_status, show_status,
    status_message, Outgoing,
};
use crate::commands::declare::Declared;
use crate::commands::{Asker, Caller, Command, Hub, Notify, Reply, Roles};
use crate::service::Service;

/// The command as it would be typed, for the game log.
pub(super) fn raw_text(cmd: &Command) -> String {
    let mut s = format!("/{}", cmd.name);
    for w in &cmd.positional {
        s.push_str(&format!(" {w}"));
    }
    for (k, v) in &cmd.options {
        s.push_str(&format!(" {k}:{v}"));
    }
    s
}

pub(super) fn caller_in<'a>(user: &'a str, roles: Roles, thread: &'a str) -> Caller<'a> {
    Caller {
        user,
        roles,
        thread,
        now: now(),
    }
}

/// A command as the service answered it, for this interaction's user in its channel.
pub(super) struct Handled {
    /// The command layer's reply.
    pub reply: Reply,
    /// The user, as the command layer knows them.
    pub caller: String,
    /// The channel (thread) the command was run in.
    pub thread: ChannelId,
    /// The command as typed.
    pub raw: String,
}

/// Hands a command to the service (committed before it is answered), as the interaction's
/// user, in the interaction's channel.
pub(super) async fn handle(ctx: Ctx<'_>, cmd: &Command) -> Handled {
    let state = ctx.data();
    let interaction = ctx.interaction;
    let caller = interaction.user.id.to_string();
    let thread = interaction.channel_id;
    let thread_key = thread.to_string();
    let roles = roles_of(state, interaction.guild_id, interaction.member.as_deref());
    let raw = raw_text(cmd);
    let interaction_id = interaction.id.to_string();
    let reply = state
        .service
        .handle(
            &caller_in(&caller, roles, &thread_key),
            entropy(),
            cmd,
            &raw,
            Some(&interaction_id),
        )
        .await;
    tracing::info!(user = %caller, thread = %thread, command = %raw, ok = ?reply.ok, "command");
    Handled {
        reply,
        caller,
        thread,
        raw,
    }
}

/// Hands a command to the hub and answers: refusals and private answers ephemerally as the
/// first response; accepted actions publicly in the thread (moves deferred first, to leave
/// time for the board picture), then the pinned status is refreshed and news for other
/// threads (a match result for its tournament) is posted there.
///
/// The game is read once, under its lock, right after the commit: the picture job, the
/// status text and the users to mention all come from that one reading, and the picture is
/// drawn once, off the async executor, on one of the cores ([`crate::service::Service::cpu`]). Each accepted
/// move logs where its time went (`move timing`), which the fake-Discord benchmark reads.
pub(super) async fn act(ctx: Ctx<'_>, cmd: Command) -> Result<(), BotError> {
    let started = std::time::Instant::now();
    let started_unix_us = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64);
    let state = ctx.data();
    let interaction = ctx.interaction;
    let caller = interaction.user.id.to_string();
    let thread = interaction.channel_id;
    let thread_key = thread.to_string();
    let roles = roles_of(state, interaction.guild_id, interaction.member.as_deref());
    let raw = raw_text(&cmd);
    let interaction_id = interaction.id.to_string();
    let ctx = poise::Context::Application(ctx);
    // The deferral goes out as soon as the command layer has accepted an action it will
    // picture, while the commit is under way: the first response waits for neither the
    // database's write nor the picture. A refusal is still the first response, ephemeral.
    let (tell, told) = tokio::sync::oneshot::channel();
    let caller_now = caller_in(&caller, roles, &thread_key);
    let service: &Service = &state.service;
    let handling = service.handle_telling(
        &caller_now,
        entropy(),
        &cmd,
        &raw,
        Some(&interaction_id),
        true,
        tell,
    );
    let early = async {
        told.await.ok()?;
        let t = std::time::Instant::now();
        let r = ctx.defer().await;
        Some((r, t.elapsed(), started.elapsed()))
    };
    let (handled, early) = tokio::join!(handling, early);
    let service_took = started.elapsed();
    tracing::info!(user = %caller, thread = %thread, command = %raw, ok = ?handled.reply.ok, "command");
    let reply = &handled.reply;
    let users = match &handled.users {
        Some(u) => u.clone(),
        None => known_users(state, thread, &[]).await,
    };
    let mut deferral = std::time::Duration::ZERO;
    let mut deferred_at = None;
    if let Some((r, took, at)) = early {
        r?;
        deferral = took;
        deferred_at = Some(at);
    }
    let out = Outgoing::from_reply_among(users.clone(), &caller, reply);
    let status = |http| {
        let text = handled.status.as_deref();
        let users = &users;
        async move {
            match text {
                Some(t) => show_status(http, state, thread, t, users).await,
                None => refresh_status(http, state, thread).await,
            }
        }
    };
    if is_private(reply) {
        if deferred_at.is_some() {
            // Deferred publicly, then the commit failed (or lost to another writer, which
            // refused it): the "thinking" message goes, and the answer comes privately.
            if let Err(e) = interaction.delete_response(ctx.http()).await {
                tracing::warn!(thread = %thread, error = %e, "deferral not taken back");
            }
        }
        let sent = ctx.send(out.into_reply(true)).await;
        if reply.notify.is_some() {
            // A refusal that others must act on (a draft hand-over) changed the game.
            status(ctx.http()).await;
        }
        // News first (a move played from a conditional line), then whom it asks to act.
        post_notices(ctx.http(), state, &reply.notices).await;
        if let Some(n) = &reply.notify {
            notify_among(ctx.http(), thread, n, users.clone()).await;
        }
        sent?;
        return Ok(());
    }
    let mut drawn = None;
    let picture = match handled.picture {
        Some(job) => {
            if deferred_at.is_none() {
                let t = std::time::Instant::now();
                ctx.defer().await?;
                deferral = t.elapsed();
                deferred_at = Some(started.elapsed());
            }
            let (png, cpu) = state
                .service
                .cpu(move || super::picture::board_png(job))
                .await?;
            drawn = Some(cpu);
            png
        }
        None => None,
    };
    // The action is committed: the status and the news go out even if the answer failed.
    let t = std::time::Instant::now();
    let sent = ctx.send(out.with_picture(picture).into_reply(false)).await;
    let answered = started.elapsed();
    let answering = t.elapsed();
    let t = std::time::Instant::now();
    if reply.ok == Some(true) {
        status(ctx.http()).await;
        super::buttons::post(ctx.http(), state, thread, &reply.buttons).await;
        super::buttons::sweep(ctx.http(), state, thread).await;
    }
    post_notices(ctx.http(), state, &reply.notices).await;
    if let Some(n) = &reply.notify {
        notify_among(ctx.http(), thread, n, users.clone()).await;
    }
    let following = t.elapsed();
    if let Some(cpu) = drawn {
        let us = |d: std::time::Duration| d.as_micros() as u64;
        let timing = &handled.timing;
        tracing::info!(
            thread = %thread,
            interaction = %interaction_id,
            started_unix_us,
            answered_us = us(answered),
            service_us = us(service_took),
            load_us = us(timing.load),
            handle_us = us(timing.handle),
            commit_us = us(timing.commit),
            core_wait_us = us(cpu.waited),
            render_us = us(cpu.drawing),
            encode_us = us(cpu.encoding),
            defer_us = us(deferral),
            deferred_us = us(deferred_at.unwrap_or_default()),
            answer_us = us(answering),
            status_notify_us = us(following),
            "move timing"
        );
    }
    sent?;
    Ok(())
}

/// Creates a game in a new thread of this channel (`title` names the thread), opens it with
/// its first messages, and answers with a link; a refusal goes to the sender only.
pub(super) async fn new_game(
    ctx: Ctx<'_>,
    d: &Declared,
    cmd: &Command,
    title: &str,
) -> Result<(), BotError> {
    let name: String = format!("{title}: {}'s game", ctx.interaction.user.name);
    let Some(started) = in_new_thread(ctx, d, cmd, &name).await? else {
        return Ok(());
    };
    let out = if is_private(&started.reply) {
        started.out
    } else {
        if let Some(guild) = ctx.interaction.guild_id {
            ctx.data()
                .service
                .set_guild(&started.thread.to_string(), &guild.to_string())
                .await;
        }
        let notification = started.reply.notify.as_ref();
        open_game(
            ctx.http(),
            ctx.data(),
            started.thread,
            started.out,
            notification,
        )
        .await?;
        Outgoing::text(format!("Game created in <#{}>.", started.thread))
    };
    poise::Context::Application(ctx)
        .send(out.into_reply(false))
        .await?;
    Ok(())
}

/// The server's `/settings` (the defaults when it has none).
pub(super) fn server_settings(ctx: Ctx<'_>) -> super::context::RoleSettings {
    ctx.interaction
        .guild_id
        .and_then(|g| lock(&ctx.data().roles).get(&g).copied())
        .unwrap_or_default()
}

/// Adds `name:value` to the options given, unless the user gave that option.
fn fill(given: &mut Vec<(&'static str, String)>, name: &'static str, value: Option<String>) {
    if let Some(v) = value {
        if !given.iter().any(|(k, _)| *k == name) {
            given.push((name, v));
        }
    }
}

/// The server's defaults from `/settings` fill what the organiser left out: the move limit
/// and the inactivity posts of new games (KFB's and tournaments').
pub(super) fn with_defaults(ctx: Ctx<'_>, given: &mut Vec<(&'static str, String)>) {
    let d = server_settings(ctx);
    fill(
        given,
        "move_limit",
        d.move_limit.map(crate::time::format_duration),
    );
    fill(
        given,
        "inactivity_posts",
        d.inactivity_posts.map(|p| p.to_string()),
    );
}

/// Fills in the server's reminder interval and stall time (`/settings reminder_after:`,
/// `stall_after:`) on any game's `new` that does not give its own.
pub(super) fn with_pace(ctx: Ctx<'_>, given: &mut Vec<(&'static str, String)>) {
    let d = server_settings(ctx);
    fill(given, "remind", d.remind.map(crate::time::pace_text));
    fill(given, "stall", d.stall.map(crate::time::pace_text));
}

/// A command that starts something in a thread of its own, once handled there.
pub(super) struct Started {
    /// The new thread.
    pub(super) thread: ChannelId,
    /// The command layer's reply.
    pub(super) reply: Reply,
    /// The reply ready to post.
    pub(super) out: Outgoing,
}

/// Runs a command declared to open a thread (a game's `new`, a tournament's): checked first on
/// a scratch hub, so a refusal is answered privately and creates nothing (`None`); then the
/// thread named `name` is created in this channel and the command handled there.
pub(super) async fn in_new_thread(
    ctx: Ctx<'_>,
    d: &Declared,
    cmd: &Command,
    name: &str,
) -> Result<Option<Started>, BotError> {
    let (place, what) = (Place::of(d), d.run.opens().unwrap_or_default());
    let state = ctx.data();
    let interaction = ctx.interaction;
    let caller = interaction.user.id.to_string();
    let roles = roles_of(state, interaction.guild_id, interaction.member.as_deref());
    let raw = raw_text(cmd);
    let seed = entropy();
    let probe = Hub::new().handle(&caller_in(&caller, roles, "probe"), seed, cmd, &raw);
    let pctx = poise::Context::Application(ctx);
    if let Some(refusal) = new_thread_refusal(state, interaction, &probe, place).await {
        tracing::info!(user = %caller, command = %raw, what, "refused before a thread exists");
        pctx.send(refusal.into_reply(true)).await?;
        return Ok(None);
    }
    pctx.defer().await?;
    let name: String = name.chars().take(100).collect();
    let thread = interaction
        .channel_id
        .create_thread(
            ctx.http(),
            CreateThread::new(name)
                .kind(ChannelType::PublicThread)
                .auto_archive_duration(AutoArchiveDuration::OneWeek),
        )
        .await?
        .id;
    let thread_key = thread.to_string();
    let interaction_id = interaction.id.to_string();
    let reply = state
        .service
        .handle(
            &caller_in(&caller, roles, &thread_key),
            seed,
            cmd,
            &raw,
            Some(&interaction_id),
        )
        .await;
    tracing::info!(user = %caller, thread = %thread, ok = ?reply.ok, what, "created in a new thread");
    let out = Outgoing::from_reply(state, thread, &caller, &reply).await;
    Ok(Some(Started { thread, reply, out }))
}

/// What a command that opens a thread of its own says when run in the wrong place.
struct Place {
    /// Outside a server.
    not_in_dm: String,
    /// Inside a thread.
    not_in_thread: String,
}

impl Place {
    /// For a command declared to open a thread (for a `game`, a `tournament`).
    fn of(d: &Declared) -> Place {
        let (path, what) = (d.path, d.run.opens().unwrap_or_default());
        Place {
            not_in_dm: format!("{what}s are played in server channels, not in direct messages"),
            not_in_thread: format!(
                "run /{path} in a text channel: the {what} gets a thread of its own"
            ),
        }
    }
}

/// Why a command that opens a thread (a game's `new`, a tournament's) cannot run here, if it
/// cannot: the command layer's refusal (checked on a scratch hub: `probe`), or the place.
async fn new_thread_refusal(
    state: &State,
    interaction: &CommandInteraction,
    probe: &Reply,
    place: Place,
) -> Option<Outgoing> {
    let caller = interaction.user.id.to_string();
    if is_private(probe) {
        return Some(Outgoing::from_reply(state, interaction.channel_id, &caller, probe).await);
    }
    let in_thread = interaction.channel.as_ref().is_some_and(|c| {
        matches!(
            c.kind,
            ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread
        )
    });
    let bot_may = interaction.app_permissions.unwrap_or_default();
    let text = if interaction.guild_id.is_none() {
        place.not_in_dm.as_str()
    } else if in_thread {
        place.not_in_thread.as_str()
    } else if !(bot_may.create_public_threads() && bot_may.send_messages_in_threads()) {
        "I need the Create Public Threads and Send Messages in Threads permissions here"
    } else {
        return None;
    };
    Some(Outgoing::text(format!("refused: {text}")))
}

/// Posts a new game's first messages in its thread: the game, its notification (its
/// players, told who acts first: the one message that pings them), and the status message,
/// pinned.
pub(super) async fn open_game(
    http: &serenity::Http,
    state: &State,
    thread: ChannelId,
    game: Outgoing,
    notification: Option<&Notify>,
) -> Result<(), BotError> {
    thread.send_message(http, game.into_message()).await?;
    if let Some(n) = notification {
        notify(http, state, thread, n).await;
    }
    if let Some(text) = status_message(state, thread).await {
        let msg = thread
            .send_message(http, Outgoing::text(text).into_message())
            .await?;
        if let Err(e) = thread.pin(http, msg.id).await {
            tracing::warn!(thread = %thread, error = %e, "status message not pinned");
        }
        lock(&state.status).insert(thread, msg.id);
    }
    Ok(())
}

/// Suggests the caller's legal moves that contain what was typed (at most 25).
pub(super) async fn legal_moves(ctx: Ctx<'_>, partial: &str) -> CreateAutocompleteResponse {
    let interaction = ctx.interaction;
    let user = interaction.user.id.to_string();
    let thread = interaction.channel_id.to_string();
    let board = interaction
        .data
        .options
        .iter()
        .find(|o| o.name == "board")
        .and_then(|o| match o.value {
            CommandDataOptionValue::Integer(n) => usize::try_from(n).ok(),
            _ => None,
        });
    let typed = partial.trim().to_lowercase();
    let now = now();
    let moves: Vec<String> = ctx
        .data()
        .service
        .with_game(&thread, |g| {
            g.offered_moves(&Asker::new(&user, now).on(board)).ok()
        })
        .await
        .flatten()
        .unwrap_or_default();
    let (mut first, rest): (Vec<String>, Vec<String>) = moves
        .into_iter()
        .filter(|m| m.to_lowercase().contains(&typed))
        .partition(|m| m.to_lowercase().starts_with(&typed));
    first.extend(rest);
    let choices = first
        .into_iter()
        .take(25)
        .map(serenity::AutocompleteChoice::from)
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// Logs a failed command and tells its sender, without details.
pub(super) async fn on_error(error: poise::FrameworkError<'_, Data, BotError>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            tracing::error!(command = %ctx.command().qualified_name, error = %error, "command failed");
            let reply = poise::CreateReply::default()
                .content(crate::commands::front::FAILED_ON_OUR_SIDE)
                .ephemeral(true);
            if let Err(e) = ctx.send(reply).await {
                tracing::error!(error = %e, "could not report the failure");
            }
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::error!(error = %e, "error while handling an error");
            }
        }
    }
}
