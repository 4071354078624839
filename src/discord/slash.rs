//! The slash commands. Each one only translates its typed options into a
//! [`Command`] and hands it to [`act`]; the command layer decides everything else.

use poise::serenity_prelude as serenity;
use poise::ChoiceParameter;
use serenity::{
    AutoArchiveDuration, ChannelId, ChannelType, CommandDataOptionValue, CommandInteraction,
    CreateAutocompleteResponse, CreateThread, RoleId, UserId,
};

use super::respond::{
    is_private, known_users, notify, notify_among, post_notices, refresh_status, show_status,
    status_message, Outgoing,
};
use super::{entropy, lock, now, roles_of, BotError, Ctx, Data, State};
use crate::commands::{Caller, Command, Hub, Notify, Reply, Roles};

/// Every command, for registration.
pub(super) fn all() -> Vec<poise::Command<Data, BotError>> {
    vec![
        kfb(),
        pick(),
        move_(),
        give(),
        takeback(),
        claim(),
        status(),
        moves(),
        export(),
        resign(),
        proxy(),
        revert(),
        help(),
        settings(),
        super::tournament::tournament(),
        super::tournament::signup(),
        super::tournament::withdraw(),
        super::ultimate::ultimate(),
        super::ultimate::concede(),
        super::ultimate::offer(),
        super::ultimate::accept(),
        super::ultimate::decline(),
        super::chex::chex(),
        super::chex::draw(),
        super::chex::place(),
        super::nomic::nomic(),
        super::nomic::push(),
        super::nomic::done(),
        super::nomic::take(),
        super::nomic::propose(),
        super::nomic::vote(),
        super::nomic::demote(),
        super::nomic::forfeit(),
        super::nomic::judgment(),
        super::nomic::judge(),
        super::nomic::overrule(),
        super::nomic::pause(),
        super::nomic::resume(),
        super::nomic::assign(),
        super::nomic::order(),
        super::nomic::set(),
        super::nomic::rules(),
        super::nomic::proposal(),
        super::nomic::edit(),
        super::party::party(),
        super::party::pass(),
        super::party::surrender(),
        super::party::pieces(),
        super::party::ledger(),
    ]
}

/// Draft: which player of a board moves first.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Order {
    /// Moves first (bottom of the board).
    #[name = "first"]
    First,
    /// Moves second (top of the board).
    #[name = "second"]
    Second,
}

/// Draft: a colour, which decides where captured pieces go.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Colour {
    /// Red.
    #[name = "red"]
    Red,
    /// Light green.
    #[name = "lightgreen"]
    LightGreen,
    /// Blue.
    #[name = "blue"]
    Blue,
}

/// An army of Chess with Different Armies.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Army {
    /// The FIDE army (orthodox chess).
    #[name = "fide"]
    Fide,
    /// Colorbound Clobberers.
    #[name = "clobberers"]
    Clobberers,
    /// Nutty Knights.
    #[name = "nutty"]
    Nutty,
    /// Remarkable Rookies.
    #[name = "rookies"]
    Rookies,
    /// Forward FIDE.
    #[name = "forward"]
    Forward,
}

pub(super) fn command(name: &str, options: Vec<(&str, Option<String>)>) -> Command {
    Command {
        name: name.to_string(),
        positional: Vec::new(),
        options: options
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k.to_string(), v)))
            .collect(),
    }
}

/// The command as it would be typed, for the game log.
pub(super) fn raw_text(cmd: &Command) -> String {
    let mut s = format!("/{}", cmd.name);
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

pub(super) fn user(u: UserId) -> Option<String> {
    Some(u.to_string())
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
    let service = state.service.handle_telling(
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
    let (handled, early) = tokio::join!(service, early);
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
        if let Some(n) = &reply.notify {
            notify_among(ctx.http(), thread, n, users.clone()).await;
        }
        post_notices(ctx.http(), state, &reply.notices).await;
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
            let (png, cpu) = state.service.cpu(move || super::board_png(job)).await?;
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
    if let Some(n) = &reply.notify {
        notify_among(ctx.http(), thread, n, users.clone()).await;
    }
    post_notices(ctx.http(), state, &reply.notices).await;
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

/// Kung Fu Bughouse with Different Armies: start a game.
#[poise::command(slash_command, subcommands("kfb_new"), subcommand_required)]
pub async fn kfb(_: Ctx<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Start a game in a new thread of this channel (organisers)
#[poise::command(slash_command, rename = "new")]
pub async fn kfb_new(
    ctx: Ctx<'_>,
    #[description = "Team 1: three players, as mentions (@a @b @c)"] team1: String,
    #[description = "Team 2: three players, as mentions (@d @e @f)"] team2: String,
    #[description = "Kung Fu move limit: how long a mover stays locked, like 6h or 45m (default 6h)"]
    move_limit: Option<String>,
    #[description = "Posts in the thread before inactivity may be claimed (default 18)"]
    #[min = 1]
    inactivity_posts: Option<u32>,
    #[description = "Seed for the draft order (default: random)"] seed: Option<u64>,
) -> Result<(), BotError> {
    let (move_limit, inactivity_posts) = with_defaults(ctx, move_limit, inactivity_posts);
    let cmd = command(
        "kfb new",
        vec![
            ("team1", Some(team1)),
            ("team2", Some(team2)),
            ("move_limit", move_limit),
            ("inactivity_posts", inactivity_posts.map(|n| n.to_string())),
            ("seed", seed.map(|n| n.to_string())),
        ],
    );
    new_game(ctx, &cmd, KFB_PLACE, "Kung Fu Bughouse").await
}

/// Creates a game in a new thread of this channel (`title` names the thread), opens it with
/// its first messages, and answers with a link; a refusal goes to the sender only.
pub(super) async fn new_game(
    ctx: Ctx<'_>,
    cmd: &Command,
    place: Place,
    title: &str,
) -> Result<(), BotError> {
    let name: String = format!("{title}: {}'s game", ctx.interaction.user.name);
    let Some(started) = in_new_thread(ctx, cmd, place, &name, "game").await? else {
        return Ok(());
    };
    let out = if is_private(&started.reply) {
        started.out
    } else {
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

/// The server's defaults from `/settings` fill what the organiser left out: the move limit
/// and the inactivity posts of new games.
pub(super) fn with_defaults(
    ctx: Ctx<'_>,
    move_limit: Option<String>,
    inactivity_posts: Option<u32>,
) -> (Option<String>, Option<u32>) {
    let defaults = ctx
        .interaction
        .guild_id
        .and_then(|g| lock(&ctx.data().roles).get(&g).copied())
        .unwrap_or_default();
    (
        move_limit.or(defaults.move_limit.map(crate::time::format_duration)),
        inactivity_posts.or(defaults.inactivity_posts),
    )
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

/// Runs a command that needs a new thread (`/kfb new`, `/tournament new`): checked first on a
/// scratch hub, so a refusal is answered privately and creates nothing (`None`); then the
/// thread named `name` is created in this channel and the command handled there.
pub(super) async fn in_new_thread(
    ctx: Ctx<'_>,
    cmd: &Command,
    place: Place,
    name: &str,
    what: &str,
) -> Result<Option<Started>, BotError> {
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
pub(super) struct Place {
    /// Outside a server.
    pub not_in_dm: &'static str,
    /// Inside a thread.
    pub not_in_thread: &'static str,
}

const KFB_PLACE: Place = Place {
    not_in_dm: "games are played in server channels, not in direct messages",
    not_in_thread: "run /kfb new in a text channel: the game gets a thread of its own",
};

/// Why a command that opens a thread (`/kfb new`, `/tournament new`) cannot run here, if it
/// cannot: the command layer's refusal (checked on a scratch hub: `probe`), or the place.
pub(super) async fn new_thread_refusal(
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
        place.not_in_dm
    } else if in_thread {
        place.not_in_thread
    } else if !(bot_may.create_public_threads() && bot_may.send_messages_in_threads()) {
        "I need the Create Public Threads and Send Messages in Threads permissions here"
    } else {
        return None;
    };
    Some(Outgoing::text(format!("refused: {text}")))
}

/// Posts a new game's first messages in its thread: the game, its notification (the six
/// players, told who picks first: the one message that pings them), and the status message,
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

/// Make your draft pick: order, colour and army
#[poise::command(slash_command)]
pub async fn pick(
    ctx: Ctx<'_>,
    #[description = "Move first or second on your board"] order: Order,
    #[description = "Your colour"] color: Colour,
    #[description = "Your army"] army: Army,
    #[description = "Pick for this player of the other team (after a handed-over choice)"]
    #[rename = "for"]
    for_player: Option<UserId>,
) -> Result<(), BotError> {
    let cmd = command(
        "pick",
        vec![
            ("order", Some(order.name().to_string())),
            ("color", Some(color.name().to_string())),
            ("army", Some(army.name().to_string())),
            ("for", for_player.and_then(user)),
        ],
    );
    act(ctx, cmd).await
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
        .with_game(&thread, |g| g.offered_moves(&user, board, now).ok())
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

/// Make a move or a drop: Nb1-c3, d4xe5, N@f3, e7-e8=Q, 0-0
#[poise::command(slash_command, rename = "move")]
pub async fn move_(
    ctx: Ctx<'_>,
    #[description = "The move in long algebraic notation (Nb1-c3, N@f3, e7-e8=Q, P@g6(nutty))"]
    #[autocomplete = "legal_moves"]
    notation: String,
    #[description = "The board to play on, when you play for someone by proxy"]
    #[min = 1]
    #[max = 3]
    board: Option<u8>,
    #[description = "Which army's pawn to drop, when you hold pawns of several armies"]
    army: Option<Army>,
    #[description = "Chex: the board number your move refers to (refused if the board changed)"]
    turn: Option<u32>,
) -> Result<(), BotError> {
    let cmd = command(
        "move",
        vec![
            ("notation", Some(notation)),
            ("board", board.map(|b| b.to_string())),
            ("army", army.map(|a| a.name().to_string())),
            ("turn", turn.map(|n| n.to_string())),
        ],
    );
    act(ctx, cmd).await
}

/// Give a king you hold to a teammate
#[poise::command(slash_command)]
pub async fn give(
    ctx: Ctx<'_>,
    #[description = "The teammate who receives it"] to: UserId,
    #[description = "The piece: K (only kings are given by hand)"] piece: Option<String>,
    #[description = "Which king, by colour, when you hold several"] color: Option<Colour>,
) -> Result<(), BotError> {
    let cmd = command(
        "give",
        vec![
            ("piece", Some(piece.unwrap_or_else(|| "K".to_string()))),
            ("to", user(to)),
            ("color", color.map(|c| c.name().to_string())),
        ],
    );
    act(ctx, cmd).await
}

/// Take back your last action, if nothing happened since
#[poise::command(slash_command)]
pub async fn takeback(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("takeback", Vec::new())).await
}

/// Claim inactivity against your board opponent once their post counter is at the limit
#[poise::command(slash_command)]
pub async fn claim(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("claim", Vec::new())).await
}

/// Show the game: draft or boards, locks, inactivity, kings
#[poise::command(slash_command)]
pub async fn status(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("status", Vec::new())).await
}

/// List your legal moves, optionally those touching a square
#[poise::command(slash_command)]
pub async fn moves(
    ctx: Ctx<'_>,
    #[description = "Only moves that mention this square, like e2"] square: Option<String>,
    #[description = "Party Chess: only placements of this piece, like R"] piece: Option<String>,
) -> Result<(), BotError> {
    act(
        ctx,
        command("moves", vec![("square", square), ("piece", piece)]),
    )
    .await
}

/// Export the game as text (tags, then the action log)
#[poise::command(slash_command)]
pub async fn export(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("export", Vec::new())).await
}

/// Resign the game for your team
#[poise::command(slash_command)]
pub async fn resign(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("resign", Vec::new())).await
}

/// Let a player act for another one (organisers)
#[poise::command(
    slash_command,
    subcommands("proxy_grant", "proxy_revoke"),
    subcommand_required
)]
pub async fn proxy(_: Ctx<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Let a player move for another one (organisers)
#[poise::command(slash_command, rename = "grant")]
pub async fn proxy_grant(
    ctx: Ctx<'_>,
    #[description = "Who may act"] player: UserId,
    #[description = "For whom"]
    #[rename = "for"]
    for_player: UserId,
) -> Result<(), BotError> {
    let cmd = command(
        "proxy grant",
        vec![("player", user(player)), ("for", user(for_player))],
    );
    act(ctx, cmd).await
}

/// Withdraw a proxy grant (organisers)
#[poise::command(slash_command, rename = "revoke")]
pub async fn proxy_revoke(
    ctx: Ctx<'_>,
    #[description = "Who may no longer act"] player: UserId,
    #[description = "For whom"]
    #[rename = "for"]
    for_player: UserId,
) -> Result<(), BotError> {
    let cmd = command(
        "proxy revoke",
        vec![("player", user(player)), ("for", user(for_player))],
    );
    act(ctx, cmd).await
}

/// Undo the game back to before an action (moderators; asks for confirmation)
#[poise::command(slash_command)]
pub async fn revert(
    ctx: Ctx<'_>,
    #[description = "The action number to undo, with all after it (as in replies: #12)"]
    #[min = 1]
    to: u32,
    #[description = "Why (kept in the game log)"] reason: String,
) -> Result<(), BotError> {
    let cmd = command(
        "revert",
        vec![("to", Some(to.to_string())), ("reason", Some(reason))],
    );
    act(ctx, cmd).await
}

/// How to play with Arbiter: the commands
#[poise::command(slash_command)]
pub async fn help(
    ctx: Ctx<'_>,
    #[description = "Only this game's commands: kfb, ultimate, chex, nomic, party or tournament"]
    game: Option<String>,
) -> Result<(), BotError> {
    act(ctx, command("help", vec![("game", game)])).await
}

/// Choose the organiser and moderator roles and the defaults of new games (server admins)
#[poise::command(slash_command, default_member_permissions = "MANAGE_GUILD")]
pub async fn settings(
    ctx: Ctx<'_>,
    #[description = "Members with this role may start games and grant proxies"]
    organiser_role: Option<RoleId>,
    #[description = "Members with this role may revert games"] moderator_role: Option<RoleId>,
    #[description = "Default move limit of new games, like 6h, 6m or 45m"]
    default_move_limit: Option<String>,
    #[description = "Default posts before inactivity may be claimed in new games"]
    #[min = 1]
    default_inactivity_posts: Option<u32>,
) -> Result<(), BotError> {
    let interaction = ctx.interaction;
    let pctx = poise::Context::Application(ctx);
    let perms = interaction
        .member
        .as_ref()
        .and_then(|m| m.permissions)
        .unwrap_or_default();
    let Some(guild) = interaction.guild_id else {
        let out = Outgoing::text("settings belong to a server; run /settings there".into());
        pctx.send(out.into_reply(true)).await?;
        return Ok(());
    };
    if !(perms.administrator() || perms.manage_guild()) {
        let out = Outgoing::text(
            "refused: only server admins (Manage Server) may change the settings".into(),
        );
        pctx.send(out.into_reply(true)).await?;
        return Ok(());
    }
    let limit = match default_move_limit
        .as_deref()
        .map(crate::time::parse_duration)
    {
        Some(Err(e)) => {
            let out = Outgoing::text(format!("refused: {e}"));
            pctx.send(out.into_reply(true)).await?;
            return Ok(());
        }
        Some(Ok(secs)) => Some(secs),
        None => None,
    };
    let now_set = {
        let mut roles = lock(&ctx.data().roles);
        let entry = roles.entry(guild).or_default();
        if organiser_role.is_some() {
            entry.organiser = organiser_role;
        }
        if moderator_role.is_some() {
            entry.moderator = moderator_role;
        }
        if limit.is_some() {
            entry.move_limit = limit;
        }
        if default_inactivity_posts.is_some() {
            entry.inactivity_posts = default_inactivity_posts;
        }
        *entry
    };
    ctx.data().save_settings(guild, now_set).await;
    tracing::info!(guild = %guild, user = %interaction.user.id, settings = ?now_set, "settings changed");
    let show = |r: Option<RoleId>| {
        r.map_or("none (permissions only)".to_string(), |r| {
            format!("<@&{r}>")
        })
    };
    let text = format!(
        "ok: organisers: {} or Manage Threads; moderators: {} or Manage Messages; new games: move limit {}, inactivity {} posts",
        show(now_set.organiser),
        show(now_set.moderator),
        crate::time::format_duration(now_set.move_limit.unwrap_or(6 * 3600)),
        now_set.inactivity_posts.unwrap_or(18)
    );
    pctx.send(Outgoing::text(text).into_reply(true)).await?;
    Ok(())
}

/// Logs a failed command and tells its sender, without details.
pub(super) async fn on_error(error: poise::FrameworkError<'_, Data, BotError>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            tracing::error!(command = %ctx.command().qualified_name, error = %error, "command failed");
            let text = "something went wrong on our side; check /status to see whether the action was recorded";
            let reply = poise::CreateReply::default().content(text).ephemeral(true);
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
