//! `/rating`, `/leaderboard` and `/stats` on Discord (issue 57): the answers of this server's
//! games, and the leaderboard's picture with the players named as the tournaments know them.

use super::context::{roles_of, BotError, Ctx, State};
use super::respond::Outgoing;
use super::slash::caller_in;
use crate::commands::Command;

/// `/rating`, `/leaderboard` and `/stats` on Discord: this server's games (and those stored
/// without one); `/rating` answered privately, the others in the channel.
pub(super) async fn run(ctx: Ctx<'_>, cmd: Command) -> Result<(), BotError> {
    let state = ctx.data();
    let interaction = ctx.interaction;
    let user = interaction.user.id.to_string();
    let thread = interaction.channel_id.to_string();
    let roles = roles_of(state, interaction.guild_id, interaction.member.as_deref());
    let guild = interaction.guild_id.map(|g| g.to_string());
    let caller = caller_in(&user, roles, &thread);
    let service = &state.service;
    let reply = match cmd.name.as_str() {
        "rating" => service.rating_on(&caller, &cmd, guild.as_deref()).await,
        "leaderboard" => service.leaderboard_on(&cmd, guild.as_deref()).await,
        _ => service.stats_on(&caller, &cmd, guild.as_deref()).await,
    };
    tracing::info!(user = %user, guild = ?guild, command = %cmd.name, "ratings");
    let private = reply.ephemeral || reply.ok != Some(true);
    // The players the answer names (Discord ids) become mentions, which ping nobody here.
    let named: Vec<String> = reply
        .text
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| w.len() >= 15)
        .map(str::to_string)
        .collect();
    let mut out = Outgoing::from_reply_among(named, &user, &reply);
    let pctx = poise::Context::Application(ctx);
    if cmd.name == "leaderboard" && !private {
        pctx.defer().await?;
        let names = known_names(state).await;
        let name = move |p: &str| names.get(p).cloned().unwrap_or_else(|| p.to_string());
        let view = service
            .leaderboard_picture_on(&cmd, guild.as_deref(), &name)
            .await;
        let png = match view {
            Some(view) => match service
                .cpu(move || crate::render::render_table(&view))
                .await
            {
                Ok((Ok(png), _)) => Some(png),
                Ok((Err(e), _)) => {
                    tracing::warn!(error = %e, "leaderboard picture not drawn");
                    None
                }
                Err(e) => {
                    tracing::error!(error = %e, "leaderboard picture task failed");
                    None
                }
            },
            None => None,
        };
        out = out.with_file(png, "leaderboard.png");
    }
    pctx.send(out.into_reply(private)).await?;
    Ok(())
}

/// How players are called (meta `name:<user id>`, remembered at `/signup`): the picture's
/// names; a player without one is shown by id.
async fn known_names(state: &State) -> std::collections::HashMap<String, String> {
    let Some(store) = state.service.store() else {
        return std::collections::HashMap::new();
    };
    match store.meta_with_prefix("name:").await {
        Ok(rows) => rows
            .into_iter()
            .filter_map(|(k, v)| Some((k.strip_prefix("name:")?.to_string(), v)))
            .collect(),
        Err(e) => {
            tracing::warn!(error = %e, "player names not read");
            std::collections::HashMap::new()
        }
    }
}
