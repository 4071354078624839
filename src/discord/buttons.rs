//! Command buttons (a Nomic vote's For and Against) are posted in a message of their own
//! under the reply that offered them, a channel message the bot can edit for as long as the
//! vote lasts (an interaction's token lasts 15 minutes; a vote can last a day). After every
//! answered command, button press and posted timer in a thread, the thread's button messages
//! are checked against the game ([`crate::layer::game::ThreadGame::button_live`]): once
//! their buttons do nothing any more (the vote closed, or its proposal was taken back or
//! reverted) the message is edited, the buttons removed and the text saying the vote is
//! closed. A press that reaches the bot anyway is refused by the game with its reason.
//!
//! The messages are remembered in memory: after a restart, the buttons of votes then open
//! stay on their messages, and pressing them after the close is refused as above.

use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateAllowedMentions, EditMessage, Http};

use super::context::{lock, now, Shown, State};
use super::respond::Outgoing;
use crate::commands::command_button;
use crate::commands::front::buttons_heading;

/// Posts a reply's command buttons, if it has any, in a message of their own in `thread`.
pub(super) async fn post(http: &Http, state: &State, thread: ChannelId, buttons: &[String]) {
    let ids: Vec<String> = buttons
        .iter()
        .filter(|b| command_button(b).is_some())
        .cloned()
        .collect();
    if ids.is_empty() {
        return;
    }
    let head = buttons_heading(&ids);
    let out = Outgoing::text(format!(
        "{head}: press a button (they go when the vote closes)."
    ))
    .with_buttons(ids.clone());
    match thread.send_message(http, out.into_message()).await {
        Ok(m) => lock(&state.buttons)
            .entry(thread)
            .or_default()
            .push((m.id, ids, head)),
        Err(e) => tracing::warn!(thread = %thread, error = %e, "vote buttons not posted"),
    }
}

/// Takes the buttons that no longer do anything off their messages in `thread`.
pub(super) async fn sweep(http: &Http, state: &State, thread: ChannelId) {
    let shown: Vec<Shown> = lock(&state.buttons)
        .get(&thread)
        .cloned()
        .unwrap_or_default();
    if shown.is_empty() {
        return;
    }
    let at = now();
    let live: Vec<bool> = state
        .service
        .with_game(&thread.to_string(), |g| {
            shown
                .iter()
                .map(|(_, ids, _)| {
                    ids.iter().any(|id| {
                        command_button(id).is_some_and(|(_, cmd)| g.button_live(&cmd, at))
                    })
                })
                .collect()
        })
        .await
        .unwrap_or_else(|| vec![false; shown.len()]);
    for ((message, _, head), live) in shown.iter().zip(live) {
        if live {
            continue;
        }
        let edit = EditMessage::new()
            .content(format!("{head}: closed (see the thread for the result)."))
            .components(Vec::new())
            .allowed_mentions(CreateAllowedMentions::new());
        if let Err(e) = thread.edit_message(http, *message, edit).await {
            tracing::warn!(thread = %thread, error = %e, "closed vote's buttons not removed");
        }
        // Forgotten either way: a message that cannot be edited is not tried again.
        if let Some(list) = lock(&state.buttons).get_mut(&thread) {
            list.retain(|(m, _, _)| m != message);
        }
    }
}
