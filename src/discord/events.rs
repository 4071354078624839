//! Gateway events other than slash commands: button presses, chat posts (inactivity counting),
//! and the ticker that posts lock-expiry notifications.

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{ComponentInteraction, CreateInteractionResponse, FullEvent, Http};

use super::context::{now, BotError, Data};
use super::respond::{
    channel_of, is_private, notify, post_notices, post_notify, refresh_status, Outgoing,
};
use crate::commands::Notify;

/// Handles one gateway event (poise has already dispatched slash commands).
pub(super) async fn handle(
    framework: poise::FrameworkContext<'_, Data, BotError>,
    event: &FullEvent,
) -> Result<(), BotError> {
    let state = framework.user_data;
    let http = &framework.serenity_context.http;
    match event {
        FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(press),
        } => on_press(http, state, press).await,
        FullEvent::Message { new_message } if !new_message.author.bot => {
            let user = new_message.author.id.to_string();
            let thread = new_message.channel_id.to_string();
            state.service.chat(&user, &thread, now()).await;
            Ok(())
        }
        FullEvent::GuildMemberRemoval { user, .. } => on_leave(http, state, user).await,
        FullEvent::Resume { .. } => {
            tracing::info!("gateway session resumed");
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A member left the server: every game that acts on it (a Party Swinger turns Warm) posts
/// what it did in its thread, pings whoever must act, and refreshes its pinned status.
async fn on_leave(http: &Http, state: &Data, user: &serenity::User) -> Result<(), BotError> {
    let id = user.id.to_string();
    let acted = state.service.member_left(&id, now()).await;
    tracing::info!(user = %id, games = acted.len(), "member left the server");
    for (thread, reply) in acted {
        let Some(channel) = channel_of(&thread) else {
            continue;
        };
        post_notices(http, state, &[(thread.clone(), reply.text.clone())]).await;
        post_notify(http, state, channel, &reply).await;
        refresh_status(http, state, channel).await;
    }
    Ok(())
}

/// A button press (the revert confirmation): answered ephemerally when refused, publicly when
/// it went through; news for a tournament thread is posted there.
async fn on_press(http: &Http, state: &Data, press: &ComponentInteraction) -> Result<(), BotError> {
    let user = press.user.id.to_string();
    let id = &press.data.custom_id;
    let reply = state.service.press(&user, id, now()).await;
    tracing::info!(user = %user, thread = %press.channel_id, button = %id, ok = ?reply.ok, "button");
    let private = is_private(&reply);
    let out = Outgoing::from_reply(state, press.channel_id, &user, &reply).await;
    // A game that reposts its board after a revert (Chex) gets its picture attached.
    let thread = press.channel_id.to_string();
    let job = if private {
        None
    } else {
        state.service.picture_after_press(&thread, now()).await
    };
    let picture = match job {
        Some(job) => state
            .service
            .cpu(move || super::picture::board_png(job))
            .await
            .ok()
            .and_then(|(png, _)| png),
        None => None,
    };
    let out = out.with_picture(picture);
    let sent = press
        .create_response(
            http,
            CreateInteractionResponse::Message(out.into_interaction(private)),
        )
        .await;
    if !private {
        refresh_status(http, state, press.channel_id).await;
        super::buttons::post(http, state, press.channel_id, &reply.buttons).await;
        super::buttons::sweep(http, state, press.channel_id).await;
    }
    // A revert can take back a match game's result: its tournament is told (and a move
    // played from a conditional line is echoed), before the pings.
    post_notices(http, state, &reply.notices).await;
    // A revert notifies the game's players, in a message of its own.
    post_notify(http, state, press.channel_id, &reply).await;
    sent?;
    Ok(())
}

/// Starts the task that posts lock-expiry messages every `every` (and lets idle games leave
/// memory).
pub(super) fn spawn_ticker(http: Arc<Http>, state: Data, every: Duration) {
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(every);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // The first sweep looks back to the beginning: what fell due while the bot was away is
        // announced once (late), as the console does on start. Each game's stored sweep time
        // keeps this from reading more than the games whose timers are due.
        let mut last = 0;
        loop {
            interval.tick().await;
            let until = now();
            if until <= last {
                continue;
            }
            // Each game's posts go out as soon as its sweep is committed, while the sweep
            // goes on with the other games.
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(String, Vec<Notify>)>();
            let sweep = async {
                state
                    .service
                    .sweep_timers(last, until, |_, thread, notes| {
                        let _ = tx.send((thread, notes));
                    })
                    .await;
                drop(tx);
            };
            let post = async {
                while let Some((thread, notes)) = rx.recv().await {
                    for n in &notes {
                        post_due(&http, &state, &thread, n).await;
                    }
                }
            };
            tokio::join!(sweep, post);
            last = until;
        }
    });
}

/// Posts a lock-expiry notification in its thread (pinging the player it names), then
/// refreshes the thread's pinned status.
async fn post_due(http: &Http, state: &Data, thread: &str, n: &Notify) {
    let Some(channel) = channel_of(thread) else {
        tracing::warn!(thread = %thread, "due message for a thread that is not a channel id");
        return;
    };
    notify(http, state, channel, n).await;
    refresh_status(http, state, channel).await;
    super::buttons::sweep(http, state, channel).await;
}
