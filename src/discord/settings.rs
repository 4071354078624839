//! The server's settings (the command declared [`Run::Settings`]): which roles organise and moderate, and the defaults of new
//! games. They are Discord's own (roles, Manage Server), so the front end answers them; they
//! are stored in the database (see `context`).
//!
//! [`Run::Settings`]: crate::commands::declare::Run::Settings

use poise::serenity_prelude as serenity;
use serenity::RoleId;

use super::context::{lock, BotError, Ctx};
use super::respond::Outgoing;
use crate::commands::declare::Declared;

/// `/settings`: the server's organiser and moderator roles and the defaults of new games,
/// for server admins (Manage Server) only; the answer shows them all, to the admin only.
pub async fn run(ctx: Ctx<'_>, d: &Declared, given: &[(&str, String)]) -> Result<(), BotError> {
    let value = |name: &str| {
        given
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    };
    let role = |name: &str| {
        value(name)
            .and_then(|v| v.parse::<u64>().ok())
            .map(RoleId::new)
    };
    let organiser_role = role("organiser_role");
    let moderator_role = role("moderator_role");
    let default_move_limit = value("default_move_limit").map(str::to_string);
    let default_inactivity_posts =
        value("default_inactivity_posts").and_then(|v| v.parse::<u32>().ok());
    let vacation_days = value("vacation_days").and_then(|v| v.parse::<u32>().ok());
    let interaction = ctx.interaction;
    let pctx = poise::Context::Application(ctx);
    let perms = interaction
        .member
        .as_ref()
        .and_then(|m| m.permissions)
        .unwrap_or_default();
    let Some(guild) = interaction.guild_id else {
        let out = Outgoing::text(format!(
            "settings belong to a server; run /{} there",
            d.path
        ));
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
    let mut pace = [None, None];
    for (i, name) in ["reminder_after", "stall_after"].into_iter().enumerate() {
        if let Some(v) = value(name) {
            match crate::time::parse_pace(v) {
                Ok(secs) => pace[i] = Some(secs),
                Err(e) => {
                    let out = Outgoing::text(format!("refused: {name}: {e}"));
                    pctx.send(out.into_reply(true)).await?;
                    return Ok(());
                }
            }
        }
    }
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
        if pace[0].is_some() {
            entry.remind = pace[0];
        }
        if pace[1].is_some() {
            entry.stall = pace[1];
        }
        if vacation_days.is_some() {
            entry.vacation_days = vacation_days;
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
        "ok: organisers: {} or Manage Threads; moderators: {} or Manage Messages; new games: move limit {}, inactivity {} posts, {}; {} vacation days per player and year",
        show(now_set.organiser),
        show(now_set.moderator),
        crate::time::format_duration(now_set.move_limit.unwrap_or(6 * 3600)),
        now_set.inactivity_posts.unwrap_or(18),
        crate::time::paces_text(
            now_set.remind.unwrap_or(crate::layer::remind::REMIND_AFTER),
            now_set.stall.unwrap_or(crate::layer::remind::STALL_AFTER)
        ),
        now_set
            .vacation_days
            .unwrap_or(crate::layer::vacation::VACATION_DAYS),
    );
    pctx.send(Outgoing::text(text).into_reply(true)).await?;
    Ok(())
}
