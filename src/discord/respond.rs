//! Turning a [`Reply`] into Discord messages, and keeping a game's pinned status message up
//! to date.
//!
//! Who is pinged: only the users of a reply's [`Notify`], by a newly created message in the
//! thread ([`post_notify`]), the one kind of message for which Discord notifies the users it
//! mentions. Every other message (replies, deferred completions, edits, the pinned status)
//! shows names as mentions but allows none (Discord would not notify for a deferred
//! completion or an edit anyway). Moments are written as Discord timestamps by the command
//! layer ([`crate::time::stamp`]), so each reader sees their own time zone.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, ChannelId, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateInteractionResponseMessage, CreateMessage, EditMessage, Http, UserId,
};

use super::context::{lock, now, State};
use super::text::{fit, mentionize};
use crate::commands::front::{button_face, Look};
use crate::commands::{Notify, Reply};
use crate::tournament::Tournament;

/// A reply ready to send anywhere (interaction response, follow-up, thread message).
#[derive(Debug, Default)]
pub(super) struct Outgoing {
    content: String,
    files: Vec<CreateAttachment>,
    pings: Vec<UserId>,
    buttons: Vec<String>,
}

/// Whether a reply goes to its sender only: refusals and private answers.
pub(super) fn is_private(reply: &Reply) -> bool {
    reply.ok == Some(false) || reply.ephemeral
}

/// Users whose ids in a thread's text become mentions: the game's players (in a game
/// thread) or everyone the tournament knows (in a tournament thread), and the reply's.
pub(super) async fn known_users(state: &State, thread: ChannelId, extra: &[String]) -> Vec<String> {
    let key = thread.to_string();
    let mut users: Vec<String> = match state.service.with_game(&key, |g| g.users()).await {
        Some(users) => users,
        None => state
            .service
            .with_tournament(&key, Tournament::people)
            .await
            .unwrap_or_default(),
    };
    users.extend(extra.iter().cloned());
    users
}

/// The channel a thread key of the command layer names, if it is a channel id.
pub(super) fn channel_of(thread: &str) -> Option<ChannelId> {
    thread
        .parse::<u64>()
        .ok()
        .filter(|&id| id != 0)
        .map(ChannelId::new)
}

/// Posts a reply's notification (who must act next), if it has one: see [`notify`].
pub(super) async fn post_notify(http: &Http, state: &State, thread: ChannelId, reply: &Reply) {
    if let Some(n) = &reply.notify {
        notify(http, state, thread, n).await;
    }
}

/// Posts a notification in the thread as a new message that pings exactly its users (the
/// only kind of message for which Discord notifies the users it mentions). Failures are
/// logged; the action stands.
pub(super) async fn notify(http: &Http, state: &State, thread: ChannelId, n: &Notify) {
    let users = known_users(state, thread, &[]).await;
    notify_among(http, thread, n, users).await;
}

/// [`notify`] in a thread whose users are known already.
pub(super) async fn notify_among(
    http: &Http,
    thread: ChannelId,
    n: &Notify,
    mut users: Vec<String>,
) {
    let to = n.users();
    users.extend(to.iter().cloned());
    let out = Outgoing::text(mentionize(&n.text(), &users))
        .pinging(&to)
        .with_buttons(n.buttons().to_vec());
    match thread.send_message(http, out.into_message()).await {
        Ok(_) => tracing::info!(thread = %thread, users = ?to, "notification posted"),
        Err(e) => tracing::warn!(thread = %thread, error = %e, "notification not posted"),
    }
}

/// Posts a reply's news for other threads (like a match result in its tournament's
/// thread). Failures are logged; the action they report stands.
pub(super) async fn post_notices(http: &Http, state: &State, notices: &[(String, String)]) {
    for (thread, text) in notices {
        let Some(channel) = channel_of(thread) else {
            tracing::warn!(thread = %thread, "notice for a thread that is not a channel id");
            continue;
        };
        // A notice that begins by naming users (`@a: your conditional reply … was not
        // played`) is a new message for them: it pings them.
        let pinged = leading_mentions(text);
        let users = known_users(state, channel, &pinged).await;
        let out = Outgoing::text(mentionize(text, &users)).pinging(&pinged);
        match channel.send_message(http, out.into_message()).await {
            Ok(_) => tracing::info!(thread = %channel, "notice posted"),
            Err(e) => tracing::warn!(thread = %channel, error = %e, "notice not posted"),
        }
    }
}

/// The users a text's first line begins by naming, `@a @b: …` (none when it does not).
fn leading_mentions(text: &str) -> Vec<String> {
    let first = text.lines().next().unwrap_or_default();
    let Some((names, _)) = first.split_once(": ") else {
        return Vec::new();
    };
    let named: Option<Vec<String>> = names
        .split_whitespace()
        .map(|w| {
            w.strip_prefix('@')
                .filter(|u| !u.is_empty())
                .map(str::to_string)
        })
        .collect();
    named.unwrap_or_default()
}

fn ids(users: &[String]) -> Vec<UserId> {
    users
        .iter()
        .filter_map(|u| u.parse::<u64>().ok())
        .filter(|&id| id != 0)
        .map(UserId::new)
        .collect()
}

impl Outgoing {
    /// A reply from the command layer, posted in `thread` on behalf of `caller`. It names
    /// users but pings nobody: its notification goes out separately ([`post_notify`]).
    pub(super) async fn from_reply(
        state: &State,
        thread: ChannelId,
        caller: &str,
        reply: &Reply,
    ) -> Outgoing {
        let users = known_users(state, thread, &[]).await;
        Outgoing::from_reply_among(users, caller, reply)
    }

    /// [`Outgoing::from_reply`] in a thread whose users are known already.
    pub(super) fn from_reply_among(
        mut users: Vec<String>,
        caller: &str,
        reply: &Reply,
    ) -> Outgoing {
        users.extend(reply.notify.as_ref().map(Notify::users).unwrap_or_default());
        users.push(caller.to_string());
        let mut out = Outgoing::text(mentionize(&reply.text, &users));
        if !out.files.is_empty() {
            // The attached full text stays as the command layer wrote it (an export must
            // import again): mentions are for the message only.
            out.files = vec![CreateAttachment::bytes(
                reply.text.clone().into_bytes(),
                "reply.txt",
            )];
        }
        // Command buttons (votes) go in a message of their own (`buttons::post`).
        out.buttons = reply
            .buttons
            .iter()
            .filter(|b| crate::commands::command_button(b).is_none())
            .cloned()
            .collect();
        for (name, text) in &reply.attachments {
            out.files.push(CreateAttachment::bytes(
                text.clone().into_bytes(),
                name.as_str(),
            ));
        }
        out
    }

    /// Plain text (long text is attached as a file).
    pub(super) fn text(content: String) -> Outgoing {
        let (content, full) = fit(content);
        Outgoing {
            content,
            files: full
                .map(|f| CreateAttachment::bytes(f.into_bytes(), "reply.txt"))
                .into_iter()
                .collect(),
            ..Outgoing::default()
        }
    }

    /// Carries these buttons.
    pub(super) fn with_buttons(mut self, ids: Vec<String>) -> Outgoing {
        self.buttons = ids;
        self
    }

    /// Pings these users (only for a notification: [`notify`]).
    pub(super) fn pinging(mut self, users: &[String]) -> Outgoing {
        self.pings = ids(users);
        self
    }

    /// Attaches a board picture.
    pub(super) fn with_picture(self, png: Option<Vec<u8>>) -> Outgoing {
        self.with_file(png, "board.png")
    }

    /// Attaches a file under `name`, if there is one.
    pub(super) fn with_file(mut self, bytes: Option<Vec<u8>>, name: &str) -> Outgoing {
        if let Some(bytes) = bytes {
            self.files.push(CreateAttachment::bytes(bytes, name));
        }
        self
    }

    fn allowed(&self) -> CreateAllowedMentions {
        CreateAllowedMentions::new().users(self.pings.clone())
    }

    fn components(&self) -> Vec<CreateActionRow> {
        if self.buttons.is_empty() {
            return Vec::new();
        }
        let buttons = self
            .buttons
            .iter()
            .map(|id| {
                let (label, look) = button_face(id);
                let style = match look {
                    Look::Danger => ButtonStyle::Danger,
                    Look::Secondary => ButtonStyle::Secondary,
                    Look::Success => ButtonStyle::Success,
                };
                CreateButton::new(id.clone()).label(label).style(style)
            })
            .collect();
        vec![CreateActionRow::Buttons(buttons)]
    }

    /// As a slash command's response (poise sends it as the first response or a follow-up).
    pub(super) fn into_reply(self, ephemeral: bool) -> poise::CreateReply {
        let (allowed, components) = (self.allowed(), self.components());
        let mut r = poise::CreateReply::default()
            .content(self.content)
            .ephemeral(ephemeral)
            .allowed_mentions(allowed);
        if !components.is_empty() {
            r = r.components(components);
        }
        for f in self.files {
            r = r.attachment(f);
        }
        r
    }

    /// As a component interaction's response.
    pub(super) fn into_interaction(self, ephemeral: bool) -> CreateInteractionResponseMessage {
        let (allowed, components) = (self.allowed(), self.components());
        let mut r = CreateInteractionResponseMessage::new()
            .content(self.content)
            .ephemeral(ephemeral)
            .allowed_mentions(allowed);
        if !components.is_empty() {
            r = r.components(components);
        }
        r.files(self.files)
    }

    /// As a message posted in a channel.
    pub(super) fn into_message(self) -> CreateMessage {
        let (allowed, components) = (self.allowed(), self.components());
        let mut m = CreateMessage::new()
            .content(self.content)
            .allowed_mentions(allowed);
        if !components.is_empty() {
            m = m.components(components);
        }
        m.files(self.files)
    }
}

/// The text of a game's pinned status message.
pub(super) async fn status_message(state: &State, thread: ChannelId) -> Option<String> {
    let now = now();
    let text = state
        .service
        .with_game(&thread.to_string(), |game| {
            mentionize(&game.status(now), &game.users())
        })
        .await?;
    Some(format!(
        "**Game status** (updated as the game goes)\n{text}"
    ))
}

/// Edits the pinned status message of a thread's game, if it has one. Failures are logged.
pub(super) async fn refresh_status(http: &Http, state: &State, thread: ChannelId) {
    let Some(message) = lock(&state.status).get(&thread).copied() else {
        return;
    };
    let Some(text) = status_message(state, thread).await else {
        return;
    };
    edit_status(http, thread, message, text).await;
}

/// Edits the pinned status message of a thread's game to the game's status `text` (as the
/// command that changed it read it), if the thread has one.
pub(super) async fn show_status(
    http: &Http,
    state: &State,
    thread: ChannelId,
    text: &str,
    users: &[String],
) {
    let Some(message) = lock(&state.status).get(&thread).copied() else {
        return;
    };
    let text = format!(
        "**Game status** (updated as the game goes)\n{}",
        mentionize(text, users)
    );
    edit_status(http, thread, message, text).await;
}

async fn edit_status(http: &Http, thread: ChannelId, message: serenity::MessageId, text: String) {
    let (text, _) = fit(text);
    let edit = EditMessage::new()
        .content(text)
        .allowed_mentions(CreateAllowedMentions::new());
    if let Err(e) = thread.edit_message(http, message, edit).await {
        tracing::warn!(thread = %thread, error = %e, "status message not updated");
    }
}
