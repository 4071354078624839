//! The commands that run in any channel, without a game ([`Run::Anywhere`]): the service's
//! entry that the declaration names answers for the caller on this server (and the games
//! stored without one); the answer goes to the caller only when the declaration or the reply
//! says so, with the picture the declaration asks for when in public.
//!
//! [`Run::Anywhere`]: crate::commands::declare::Run::Anywhere

use super::context::{roles_of, BotError, Ctx};
use super::respond::Outgoing;
use super::slash::{caller_in, server_settings};
use crate::commands::declare::{Declared, Desk};
use crate::commands::Command;

/// Answers a command declared to run anywhere, through its `desk`.
pub(super) async fn run(
    ctx: Ctx<'_>,
    d: &Declared,
    desk: Desk,
    cmd: Command,
) -> Result<(), BotError> {
    let state = ctx.data();
    let interaction = ctx.interaction;
    let user = interaction.user.id.to_string();
    let thread = interaction.channel_id.to_string();
    let roles = roles_of(state, interaction.guild_id, interaction.member.as_deref());
    let guild = interaction.guild_id.map(|g| g.to_string());
    let caller = caller_in(&user, roles, &thread);
    let vacation_days = server_settings(ctx)
        .vacation_days
        .unwrap_or(crate::layer::vacation::VACATION_DAYS);
    let service = &state.service;
    let reply = service
        .answer_anywhere(desk, &caller, &cmd, guild.as_deref(), vacation_days)
        .await;
    tracing::info!(user = %user, guild = ?guild, command = %cmd.name, ok = ?reply.ok, "answered without a game");
    let private = d.private || reply.ephemeral || reply.ok != Some(true);
    // The players the answer names (Discord ids) become mentions, which ping nobody here.
    let named: Vec<String> = if desk.names_players() {
        reply
            .text
            .split(|c: char| !c.is_ascii_digit())
            .filter(|w| w.len() >= 15)
            .map(str::to_string)
            .collect()
    } else {
        Vec::new()
    };
    let mut out = Outgoing::from_reply_among(named, &user, &reply);
    let pctx = poise::Context::Application(ctx);
    if let (Some(file), false) = (d.picture, private) {
        pctx.defer().await?;
        let png = service.anywhere_picture(desk, &cmd, guild.as_deref()).await;
        out = out.with_file(png, file);
    }
    pctx.send(out.into_reply(private)).await?;
    Ok(())
}
