//! The slash commands every game shares (`/move`, `/moves`, `/status`, `/takeback`,
//! `/export`, `/resign`, `/revert`, `/help`) and the server's `/settings`. Like every slash
//! command they only translate typed options into a [`Command`](crate::commands::Command);
//! the thread's game answers them. `/move`'s `army:` option takes KFB's choice of armies,
//! so this file names `kfb` (and only it, for that type).

use poise::serenity_prelude as serenity;
use poise::ChoiceParameter;
use serenity::RoleId;

use super::context::{lock, BotError, Ctx};
use super::kfb::Army;
use super::respond::Outgoing;
use super::slash::{act, command, legal_moves};

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

/// Take back your last action, if nothing happened since
#[poise::command(slash_command)]
pub async fn takeback(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("takeback", Vec::new())).await
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
