//! The commands declared as an animation of the thread's game ([`Run::Animation`]): the
//! options and the game are checked first (a refusal is the first response, private); then the
//! interaction is deferred, the GIF drawn on a picture thread
//! ([`crate::service::Service::draw_replay`]) and posted in the thread as an attachment.
//!
//! [`Run::Animation`]: crate::commands::declare::Run::Animation

use super::context::{now, BotError, Ctx};
use super::respond::Outgoing;
use crate::commands::Command;

/// Answers a command declared as an animation.
pub(super) async fn run(ctx: Ctx<'_>, cmd: Command) -> Result<(), BotError> {
    let state = ctx.data();
    let thread = ctx.interaction.channel_id.to_string();
    let pctx = poise::Context::Application(ctx);
    let service = &state.service;
    let (job, guard) = match service.replay_job(&thread, &cmd, now()).await {
        Ok(ready) => ready,
        Err(why) => {
            pctx.send(Outgoing::text(format!("refused: {why}")).into_reply(true))
                .await?;
            return Ok(());
        }
    };
    pctx.defer().await?;
    let drawn = service.draw_replay(&thread, job).await;
    drop(guard);
    let out = match drawn {
        Ok(r) => {
            let name = r.file_name();
            Outgoing::text(r.text()).with_file(Some(r.replay.gif), &name)
        }
        Err(why) => Outgoing::text(why),
    };
    pctx.send(out.into_reply(false)).await?;
    Ok(())
}
