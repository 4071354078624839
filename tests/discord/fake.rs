//! An in-process fake Discord: REST under `/api/v10` and a gateway websocket on one loopback
//! port, enough for serenity 0.12.5 and poise 0.7.1.
//!
//! Everything the fake sends (dispatches and REST answers) is first deserialized into
//! serenity's own types, so a payload serenity would drop shows up as a test failure instead
//! of a silent timeout. Like Discord, it refuses an interaction response after 3 seconds
//! (10062) or a second one (40060). Any request it does not know, and any payload it finds
//! malformed, is recorded in `errors`, which the test checks at the end.
//!
//! It tells who was notified, by Discord's rule: a message notifies a user only when it is
//! newly created (an initial response that is not a deferral, a follow-up other than the one
//! completing a deferral, a channel message), not ephemeral, mentions the user in its content
//! (`<@id>`), and its `allowed_mentions` allow it (absent: every mention does). Edits and
//! deferral completions notify nobody; one whose allowed mentions would ping a user it
//! mentions is recorded as an error (a ping Discord drops). Tests read
//! [`Fake::notified_since`].

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post, put};
use axum::{Json, Router};
use serde_json::{json, Value};
use serenity::all as s;
use tokio::sync::{mpsc, Notify};

pub const APP: u64 = 900_000_000_000_000_001;
pub const GUILD: u64 = 900_000_000_000_000_002;
pub const TOKEN: &str = "fake-token-5ecret";
const TS: &str = "2026-11-21T00:00:00.000000+00:00";
/// Permissions of an ordinary member: view, send messages, send in threads, use commands.
pub const MEMBER: u64 = (1 << 10) | (1 << 11) | (1 << 38) | (1 << 31);
pub const MANAGE_MESSAGES: u64 = 1 << 13;
pub const MANAGE_THREADS: u64 = 1 << 34;
pub const MANAGE_GUILD: u64 = 1 << 5;

/// A user the test acts as.
#[derive(Clone, Debug)]
pub struct User {
    pub id: u64,
    pub name: &'static str,
    pub permissions: u64,
    /// Role ids the member has.
    pub roles: &'static [u64],
}

/// A message as Discord would show it.
#[derive(Clone, Debug, Default)]
pub struct Msg {
    pub id: u64,
    pub channel: u64,
    pub content: String,
    /// Only the interaction's user sees it.
    pub ephemeral: bool,
    /// Custom ids of its buttons.
    pub buttons: Vec<String>,
    /// Users it may ping (allowed_mentions.users).
    pub pings: Vec<String>,
    /// Users it notified when it was created.
    pub notified: Vec<String>,
    pub pinned: bool,
    pub edits: u32,
    pub files: Vec<String>,
    /// The interaction token it answers, if any.
    pub interaction: Option<String>,
}

#[derive(Debug)]
struct Interaction {
    id: u64,
    channel: u64,
    sent: Instant,
    /// When it was sent, in microseconds since the Unix epoch (for comparing with the bot's
    /// own log lines).
    sent_unix_us: u64,
    /// Callback type of the first response.
    response: Option<u64>,
    /// How long after the interaction was sent its first response came.
    responded: Option<Duration>,
    deferred_ephemeral: bool,
    /// The message standing for the original response.
    original: Option<u64>,
    /// The bot deleted its original response (a deferral it took back); the next follow-up
    /// stands for the answer.
    retracted: bool,
    choices: Option<Vec<String>>,
    /// How long after the interaction was sent its complete answer was in (see
    /// [`Inner::answer_of`]), noted when the request that completed it was handled.
    answered: Option<Duration>,
    /// Woken when a request about this interaction (its token in the path) was handled: the
    /// waiter for its answer is woken by its own requests only, not by every request.
    changed: Arc<Notify>,
}

enum WsCmd {
    Text(String),
    Close(u16),
}

#[derive(Default)]
pub struct Inner {
    port: u16,
    seq: u64,
    next_id: u64,
    gateway: Option<mpsc::UnboundedSender<WsCmd>>,
    pub identifies: Vec<Value>,
    pub resumes: Vec<Value>,
    pub commands: Vec<Value>,
    command_ids: HashMap<String, u64>,
    interactions: HashMap<String, Interaction>,
    pub threads: Vec<(u64, u64, String)>,
    pub messages: Vec<Msg>,
    pub errors: Vec<String>,
    pub requests: Vec<String>,
    /// Every file uploaded, by name, in order.
    pub uploads: Vec<(String, Bytes)>,
    /// Every notification, in order: (message, channel, user).
    pub notifications: Vec<(u64, u64, String)>,
    /// Refuse thread creation as Discord does without the permission (403, 50013).
    pub fail_threads: bool,
}

impl Inner {
    fn id(&mut self) -> u64 {
        self.next_id += 1;
        800_000_000_000_000_000 + self.next_id
    }

    fn error(&mut self, e: String) {
        eprintln!("fake discord: {e}");
        self.errors.push(e);
    }

    /// Records a newly created message and whom it notified.
    fn created(&mut self, m: Msg) {
        for u in &m.notified {
            self.notifications.push((m.id, m.channel, u.clone()));
        }
        self.messages.push(m);
    }

    /// Users notified by messages in `channel` since `mark` ([`Fake::mark`]), in order; a
    /// user notified twice appears twice.
    pub fn notified_since(&self, channel: u64, mark: usize) -> Vec<String> {
        self.notifications
            .iter()
            .skip(mark)
            .filter(|n| n.1 == channel)
            .map(|n| n.2.clone())
            .collect()
    }

    /// The complete answer to an interaction, if it is in: its message (after a deferral, the
    /// follow-up or edit that replaces the "thinking" state), or its autocomplete choices.
    fn answer_of(&self, token: &str) -> Option<Answer> {
        let i = self.interactions.get(token)?;
        let first = i.response?;
        if first == 8 {
            return Some(Answer {
                first,
                first_after: i.responded,
                answered_after: i.answered,
                message: None,
                choices: i.choices.clone().unwrap_or_default(),
            });
        }
        let id = i.original?;
        // Newest first: the answer is among the last messages.
        let message = self.messages.iter().rev().find(|m| m.id == id)?;
        if first == 5 && message.edits == 0 && !i.retracted {
            return None;
        }
        Some(Answer {
            first,
            first_after: i.responded,
            answered_after: i.answered,
            message: Some(message.clone()),
            choices: Vec::new(),
        })
    }

    /// After a request about the interaction `token` was handled: notes when its answer was
    /// complete, and wakes whoever waits for it.
    fn interaction_changed(&mut self, token: &str) {
        let complete = self.answer_of(token).is_some();
        if let Some(i) = self.interactions.get_mut(token) {
            if complete && i.answered.is_none() {
                i.answered = Some(i.sent.elapsed());
            }
            i.changed.notify_waiters();
        }
    }

    /// Messages in a channel that everyone sees.
    pub fn public(&self, channel: u64) -> Vec<&Msg> {
        self.messages
            .iter()
            .filter(|m| m.channel == channel && !m.ephemeral)
            .collect()
    }
}

#[derive(Clone)]
pub struct Fake {
    pub port: u16,
    inner: Arc<Mutex<Inner>>,
    notify: Arc<Notify>,
}

/// What an interaction was answered with.
#[derive(Clone, Debug)]
pub struct Answer {
    /// Callback type of the first response (4 message, 5 deferred, 8 autocomplete).
    pub first: u64,
    /// How long after the interaction was sent its first response came.
    pub first_after: Option<Duration>,
    /// How long after the interaction was sent the fake had its complete answer (noted when
    /// the request about the interaction that completed it was handled; `None` if something
    /// else completed it).
    pub answered_after: Option<Duration>,
    pub message: Option<Msg>,
    pub choices: Vec<String>,
}

fn check<T: serde::de::DeserializeOwned>(what: &str, v: &Value) -> Result<(), String> {
    serde_json::from_value::<T>(v.clone())
        .map(|_| ())
        .map_err(|e| format!("{what} does not deserialize as serenity's type: {e}: {v}"))
}

fn discord_error(status: StatusCode, code: u64, message: &str) -> Response {
    (
        status,
        Json(json!({"message": message, "code": code, "errors": {}})),
    )
        .into_response()
}

/// A request body: JSON, or multipart with `payload_json` and `files[n]`.
struct Payload {
    json: Value,
    files: Vec<String>,
    blobs: Vec<(String, Bytes)>,
}

impl<S: Send + Sync> FromRequest<S> for Payload {
    type Rejection = Response;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let multipart = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("multipart/form-data"));
        let bad = |e: String| discord_error(StatusCode::BAD_REQUEST, 50035, &e);
        if multipart {
            // The body is read whole first: the form is then parsed from one buffer, not
            // grown chunk by chunk as it arrives (the fake's own work, on the cores the bot
            // is measured on).
            let (parts, body) = req.into_parts();
            let body = axum::body::to_bytes(body, usize::MAX)
                .await
                .map_err(|e| bad(e.to_string()))?;
            let req = Request::from_parts(parts, axum::body::Body::from(body));
            let mut form = Multipart::from_request(req, state)
                .await
                .map_err(|e| bad(e.to_string()))?;
            let mut json = Value::Null;
            let mut files = Vec::new();
            let mut blobs = Vec::new();
            while let Some(field) = form.next_field().await.map_err(|e| bad(e.to_string()))? {
                let name = field.name().unwrap_or_default().to_string();
                let filename = field.file_name().map(str::to_string);
                let bytes = field.bytes().await.map_err(|e| bad(e.to_string()))?;
                if name == "payload_json" {
                    json = serde_json::from_slice(&bytes).map_err(|e| bad(e.to_string()))?;
                } else if name.starts_with("files[") {
                    let filename = filename.unwrap_or(name);
                    blobs.push((filename.clone(), bytes));
                    files.push(filename);
                }
            }
            Ok(Payload { json, files, blobs })
        } else {
            let bytes = Bytes::from_request(req, state)
                .await
                .map_err(|e| bad(e.to_string()))?;
            let json = if bytes.is_empty() {
                Value::Null
            } else {
                serde_json::from_slice(&bytes).map_err(|e| bad(e.to_string()))?
            };
            Ok(Payload {
                json,
                files: Vec::new(),
                blobs: Vec::new(),
            })
        }
    }
}

/// Checks the message fields the bot sends; returns a problem, if any.
fn check_outgoing_message(d: &Value) -> Option<String> {
    let content = d.get("content").and_then(Value::as_str).unwrap_or("");
    if content.chars().count() > 2000 {
        return Some(format!("content over 2000 characters ({})", content.len()));
    }
    if d.get("allowed_mentions").is_none() {
        return Some(format!("message without allowed_mentions: {d}"));
    }
    None
}

fn buttons_of(d: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for row in d
        .get("components")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        for c in row
            .get("components")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(id) = c.get("custom_id").and_then(Value::as_str) {
                out.push(id.to_string());
            }
        }
    }
    out
}

fn pings_of(d: &Value) -> Vec<String> {
    d.pointer("/allowed_mentions/users")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|u| {
            u.as_str()
                .map(str::to_string)
                .or_else(|| u.as_u64().map(|n| n.to_string()))
        })
        .collect()
}

/// Users mentioned in a message's content: `<@id>` or `<@!id>`.
fn mentioned(content: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = content;
    while let Some(i) = rest.find("<@") {
        rest = &rest[i + 2..];
        let id = rest.strip_prefix('!').unwrap_or(rest);
        let digits: String = id.chars().take_while(char::is_ascii_digit).collect();
        if !digits.is_empty() && id[digits.len()..].starts_with('>') && !out.contains(&digits) {
            out.push(digits);
        }
    }
    out
}

/// Whom a message with this payload would notify if it were newly created and public: the
/// users its content mentions that its `allowed_mentions` allow (all of them when it has none,
/// as on Discord).
fn would_notify(d: &Value) -> Vec<String> {
    let content = d.get("content").and_then(Value::as_str).unwrap_or("");
    let users = mentioned(content);
    match d.get("allowed_mentions") {
        None | Some(Value::Null) => users,
        Some(am) => {
            let all = am
                .get("parse")
                .and_then(Value::as_array)
                .is_some_and(|p| p.iter().any(|v| v == "users"));
            let allowed = pings_of(d);
            users
                .into_iter()
                .filter(|u| all || allowed.contains(u))
                .collect()
        }
    }
}

/// Discord notifies nobody for an edit or a deferral's completion: a ping meant there is lost.
fn check_no_lost_ping(inner: &mut Inner, what: &str, d: &Value) {
    let lost = would_notify(d);
    if !lost.is_empty() {
        inner.error(format!(
            "{what} allows pinging {lost:?}, but Discord notifies nobody there: {d}"
        ));
    }
}

fn user_json(id: u64, name: &str, bot: bool) -> Value {
    json!({"id": id.to_string(), "username": name, "discriminator": "0", "global_name": null,
           "avatar": null, "bot": bot})
}

impl Fake {
    pub async fn start() -> Fake {
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
            .await
            .unwrap();
        let port = listener.local_addr().unwrap().port();
        let fake = Fake {
            port,
            inner: Arc::new(Mutex::new(Inner {
                port,
                ..Inner::default()
            })),
            notify: Arc::new(Notify::new()),
        };
        let api = Router::new()
            .route("/gateway", get(gateway_url))
            .route("/gateway/bot", get(gateway_bot))
            .route("/oauth2/applications/@me", get(application))
            .route("/applications/{app}/guilds/{guild}/commands", put(register))
            .route("/applications/{app}/commands", put(register))
            .route("/interactions/{id}/{token}/callback", post(callback))
            .route("/webhooks/{app}/{token}", post(followup))
            .route(
                "/webhooks/{app}/{token}/messages/{message}",
                patch(edit_webhook).delete(delete_webhook),
            )
            .route("/channels/{channel}/threads", post(create_thread))
            .route("/channels/{channel}/messages", post(create_message))
            .route(
                "/channels/{channel}/messages/{message}",
                patch(edit_message),
            )
            .route("/channels/{channel}/pins/{message}", put(pin));
        let app = Router::new()
            .nest("/api/v10", api)
            .route("/gateway-ws", get(gateway_ws))
            .fallback(unknown)
            .layer(axum::middleware::from_fn_with_state(
                fake.clone(),
                log_request,
            ))
            .with_state(fake.clone());
        // Every connection without Nagle's algorithm, as a real server of this kind sets it:
        // with it, a burst of dispatches on the gateway socket waited for the bot's delayed
        // ACK (about 40 ms) after the first (measured with the benchmark's "gateway" line).
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        fake
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn changed(&self) {
        self.notify.notify_waiters();
    }

    /// A mark in the list of notifications: [`Inner::notified_since`] counts from it.
    pub fn mark(&self) -> usize {
        self.lock().notifications.len()
    }

    /// Waits until the bot has sent nothing for a moment (everything an action causes has
    /// arrived), at most 10 seconds.
    pub async fn settle(&self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut seen = self.lock().requests.len();
        loop {
            tokio::time::sleep(Duration::from_millis(300)).await;
            let now_seen = self.lock().requests.len();
            if now_seen == seen || Instant::now() > deadline {
                return;
            }
            seen = now_seen;
        }
    }

    /// Who was notified in `channel` since `mark`, once the bot has settled.
    pub async fn notified_since(&self, channel: u64, mark: usize) -> Vec<String> {
        self.settle().await;
        self.lock().notified_since(channel, mark)
    }

    /// Waits until `f` finds something, or fails the test after `secs`.
    pub async fn wait<T>(&self, what: &str, secs: u64, f: impl Fn(&Inner) -> Option<T>) -> T {
        self.wait_woken(what, secs, |_| Some(self.notify.clone()), f)
            .await
    }

    /// [`Fake::wait`], woken by the notifier `by` names (and looking again every 200 ms).
    async fn wait_woken<T>(
        &self,
        what: &str,
        secs: u64,
        by: impl Fn(&Inner) -> Option<Arc<Notify>>,
        f: impl Fn(&Inner) -> Option<T>,
    ) -> T {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            // Registered before looking, so a change in between still wakes it.
            let wake = by(&self.lock());
            let notified = wake.as_ref().map(|n| n.notified());
            if let Some(v) = f(&self.lock()) {
                return v;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                let inner = self.lock();
                panic!(
                    "timed out waiting for {what}\nlast requests: {:#?}\nerrors: {:#?}",
                    inner.requests.iter().rev().take(15).collect::<Vec<_>>(),
                    inner.errors
                );
            }
            let nap = left.min(Duration::from_millis(200));
            match notified {
                Some(n) => {
                    let _ = tokio::time::timeout(nap, n).await;
                }
                None => tokio::time::sleep(nap).await,
            }
        }
    }

    fn dispatch(&self, t: &str, d: Value) {
        let mut inner = self.lock();
        inner.seq += 1;
        let frame = json!({"op": 0, "s": inner.seq, "t": t, "d": d});
        match &inner.gateway {
            Some(tx) => {
                let _ = tx.send(WsCmd::Text(frame.to_string()));
            }
            None => inner.error(format!("dispatch {t} with no gateway connection")),
        }
    }

    fn interaction_json(
        &self,
        kind: u64,
        user: &User,
        channel: u64,
        data: Value,
    ) -> (String, Value) {
        let mut inner = self.lock();
        let id = inner.id();
        let token = format!("itoken-{id}");
        // In a thread, Discord's partial channel names the thread's parent channel.
        let parent = inner.threads.iter().find(|t| t.0 == channel).map(|t| t.1);
        let mut partial = json!({"id": channel.to_string(), "type": 0, "name": "games",
                                 "permissions": user.permissions.to_string()});
        if let Some(parent) = parent {
            partial["type"] = json!(11);
            partial["parent_id"] = json!(parent.to_string());
        }
        let v = json!({
            "id": id.to_string(), "application_id": APP.to_string(), "type": kind, "data": data,
            "guild_id": GUILD.to_string(), "channel_id": channel.to_string(),
            "channel": partial,
            "member": {"user": user_json(user.id, user.name, false),
                       "roles": user.roles.iter().map(u64::to_string).collect::<Vec<_>>(), "deaf": false,
                       "mute": false, "flags": 0, "joined_at": TS,
                       "permissions": user.permissions.to_string()},
            "token": token, "version": 1, "locale": "en-US", "guild_locale": "en-US",
            "app_permissions": ((1u64 << 35) | (1 << 38) | (1 << 15) | (1 << 11)).to_string(),
            "entitlements": [], "attachment_size_limit": 10_485_760, "context": 0,
            "authorizing_integration_owners": {"0": GUILD.to_string()}
        });
        inner.interactions.insert(
            token.clone(),
            Interaction {
                id,
                channel,
                sent: Instant::now(),
                sent_unix_us: unix_us(),
                response: None,
                responded: None,
                deferred_ephemeral: false,
                original: None,
                retracted: false,
                choices: None,
                answered: None,
                changed: Arc::new(Notify::new()),
            },
        );
        (token, v)
    }

    /// When the interaction with this id was sent, in microseconds since the Unix epoch.
    pub fn sent_unix_us(&self, id: u64) -> Option<u64> {
        self.lock()
            .interactions
            .values()
            .find(|i| i.id == id)
            .map(|i| i.sent_unix_us)
    }

    fn send_interaction(&self, token: &str, v: Value) {
        if let Err(e) = check::<s::Interaction>("INTERACTION_CREATE", &v) {
            self.lock().error(e);
            return;
        }
        let _ = token;
        self.dispatch("INTERACTION_CREATE", v);
    }

    fn command_data(
        &self,
        name: &str,
        options: Value,
        users: &[&User],
        roles: &[(u64, &str)],
    ) -> Value {
        let inner = self.lock();
        let root = name.split(' ').next().unwrap_or(name);
        let id = inner.command_ids.get(root).copied().unwrap_or(1);
        let options = match name.split_once(' ') {
            Some((_, sub)) => json!([{"name": sub, "type": 1, "options": options}]),
            None => options,
        };
        let resolved: serde_json::Map<String, Value> = users
            .iter()
            .map(|u| (u.id.to_string(), user_json(u.id, u.name, false)))
            .collect();
        let roles: serde_json::Map<String, Value> = roles
            .iter()
            .map(|(id, name)| {
                let role = json!({
                    "id": id.to_string(), "name": name, "color": 0,
                    "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
                    "hoist": false, "icon": null, "unicode_emoji": null, "position": 1,
                    "permissions": "0", "managed": false, "mentionable": true, "flags": 0
                });
                (id.to_string(), role)
            })
            .collect();
        json!({"id": id.to_string(), "name": root, "type": 1, "options": options,
               "guild_id": GUILD.to_string(), "resolved": {"users": resolved, "roles": roles}})
    }

    /// A user runs a slash command (`name` may be `kfb new`); `users` are resolved user options.
    pub fn slash(
        &self,
        user: &User,
        channel: u64,
        name: &str,
        options: Value,
        users: &[&User],
    ) -> String {
        let data = self.command_data(name, options, users, &[]);
        let (token, v) = self.interaction_json(2, user, channel, data);
        self.send_interaction(&token, v);
        token
    }

    /// A user runs a slash command with role options (`roles` are resolved: id, name).
    pub fn slash_roles(
        &self,
        user: &User,
        channel: u64,
        name: &str,
        options: Value,
        roles: &[(u64, &str)],
    ) -> String {
        let data = self.command_data(name, options, &[], roles);
        let (token, v) = self.interaction_json(2, user, channel, data);
        self.send_interaction(&token, v);
        token
    }

    /// An interaction the bot is told nothing about (for checking the fake itself).
    pub fn pending_interaction(&self, user: &User, channel: u64) -> (u64, String) {
        let data = json!({"id": "1", "name": "status", "type": 1});
        let (token, _) = self.interaction_json(2, user, channel, data);
        let id = self.lock().interactions[&token].id;
        (id, token)
    }

    /// Makes an interaction look `secs` older.
    pub fn age(&self, token: &str, secs: u64) {
        if let Some(i) = self.lock().interactions.get_mut(token) {
            i.sent -= Duration::from_secs(secs);
        }
    }

    /// A user types in an autocompleted option.
    pub fn autocomplete(&self, user: &User, channel: u64, name: &str, options: Value) -> String {
        let data = self.command_data(name, options, &[], &[]);
        let (token, v) = self.interaction_json(4, user, channel, data);
        self.send_interaction(&token, v);
        token
    }

    /// A user presses a button of a message.
    pub fn press(&self, user: &User, message: &Msg, custom_id: &str) -> String {
        let msg = json!({
            "id": message.id.to_string(), "channel_id": message.channel.to_string(),
            "author": user_json(APP, "arbiter", true), "content": message.content,
            "timestamp": TS, "edited_timestamp": null, "tts": false, "mention_everyone": false,
            "mentions": [], "mention_roles": [], "attachments": [], "embeds": [], "pinned": false,
            "type": 20, "flags": if message.ephemeral { 64 } else { 0 }
        });
        let data = json!({"custom_id": custom_id, "component_type": 2});
        let (token, mut v) = self.interaction_json(3, user, message.channel, data);
        v["message"] = msg;
        self.send_interaction(&token, v);
        token
    }

    /// A user posts a chat message (MESSAGE_CREATE without content: no MESSAGE_CONTENT intent).
    pub fn chat(&self, user: &User, channel: u64) {
        let id = self.lock().id();
        let v = json!({
            "id": id.to_string(), "channel_id": channel.to_string(), "guild_id": GUILD.to_string(),
            "author": user_json(user.id, user.name, false), "content": "",
            "timestamp": TS, "edited_timestamp": null, "tts": false, "mention_everyone": false,
            "mentions": [], "mention_roles": [], "attachments": [], "embeds": [], "pinned": false,
            "type": 0
        });
        match check::<s::Message>("MESSAGE_CREATE", &v) {
            Ok(()) => self.dispatch("MESSAGE_CREATE", v),
            Err(e) => self.lock().error(e),
        }
    }

    /// A member leaves the server (GUILD_MEMBER_REMOVE; Discord sends it only with the
    /// privileged GUILD_MEMBERS intent).
    pub fn member_leaves(&self, user: &User) {
        let v = json!({
            "guild_id": GUILD.to_string(),
            "user": user_json(user.id, user.name, false)
        });
        match check::<s::GuildMemberRemoveEvent>("GUILD_MEMBER_REMOVE", &v) {
            Ok(()) => self.dispatch("GUILD_MEMBER_REMOVE", v),
            Err(e) => self.lock().error(e),
        }
    }

    /// Closes the gateway socket with a close code (4000: unknown error, resumable).
    pub fn drop_gateway(&self, code: u16) {
        if let Some(tx) = self.lock().gateway.take() {
            let _ = tx.send(WsCmd::Close(code));
        }
    }

    /// Waits for the complete answer to an interaction: its message (after a deferral, the
    /// follow-up or edit that replaces the "thinking" state), or its autocomplete choices.
    pub async fn answer(&self, token: &str) -> Answer {
        self.answer_within(token, 10).await
    }

    /// The answer to an interaction, waiting up to `secs`. The wait is woken by the
    /// interaction's own requests (and looks again every 200 ms, for an answer completed some
    /// other way), so fifty waiters are not all woken by each of the bot's requests.
    pub async fn answer_within(&self, token: &str, secs: u64) -> Answer {
        self.wait_woken(
            &format!("the answer to {token}"),
            secs,
            |inner| inner.interactions.get(token).map(|i| i.changed.clone()),
            |inner| inner.answer_of(token),
        )
        .await
    }
}

/// The system clock in microseconds since the Unix epoch.
pub fn unix_us() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

async fn log_request(
    State(fake): State<Fake>,
    req: Request,
    next: axum::middleware::Next,
) -> Response {
    let line = format!("{} {}", req.method(), req.uri().path());
    let auth_ok = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == format!("Bot {TOKEN}"));
    // Interaction requests carry their token in the path instead of the bot's:
    // /api/v10/interactions/{id}/{token}/... and /api/v10/webhooks/{app}/{token}/... name it
    // fifth.
    let path = req.uri().path();
    let is_interaction =
        path.starts_with("/api/v10/interactions/") || path.starts_with("/api/v10/webhooks/");
    let token = is_interaction
        .then(|| path.split('/').nth(5).map(str::to_string))
        .flatten();
    {
        let mut inner = fake.lock();
        inner.requests.push(line.clone());
        let is_ws = path == "/gateway-ws";
        if !auth_ok && !is_ws && !is_interaction {
            inner.error(format!("{line} without the bot token"));
        }
    }
    let resp = next.run(req).await;
    if let Some(token) = token {
        fake.lock().interaction_changed(&token);
    }
    fake.changed();
    resp
}

async fn unknown(State(fake): State<Fake>, method: Method, uri: Uri) -> Response {
    fake.lock()
        .error(format!("unexpected request {method} {}", uri.path()));
    discord_error(StatusCode::NOT_FOUND, 0, "404: Not Found")
}

async fn gateway_url(State(fake): State<Fake>) -> Json<Value> {
    Json(json!({"url": format!("ws://127.0.0.1:{}/gateway-ws", fake.port)}))
}

/// serenity asks for its application (id and owners) when the client is built.
async fn application(State(fake): State<Fake>) -> Response {
    let v = json!({
        "id": APP.to_string(), "name": "arbiter", "icon": null, "description": "",
        "bot_public": true, "bot_require_code_grant": false, "verify_key": "00",
        "owner": user_json(100_000_000_000_000_099, "owner", false), "team": null, "flags": 0
    });
    if let Err(e) = check::<s::CurrentApplicationInfo>("application", &v) {
        fake.lock().error(e);
    }
    Json(v).into_response()
}

async fn gateway_bot(State(fake): State<Fake>) -> Json<Value> {
    Json(json!({
        "url": format!("ws://127.0.0.1:{}/gateway-ws", fake.port), "shards": 1,
        "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
    }))
}

fn check_option(inner: &mut Inner, command: &str, o: &Value) {
    let name = o.get("name").and_then(Value::as_str).unwrap_or("");
    let desc = o.get("description").and_then(Value::as_str).unwrap_or("");
    if desc.is_empty() || desc.chars().count() > 100 || desc.contains("A slash command") {
        inner.error(format!(
            "/{command} option {name}: bad description {desc:?}"
        ));
    }
    if name.is_empty() || name != name.to_lowercase() || name.len() > 32 {
        inner.error(format!("/{command}: bad option name {name:?}"));
    }
    let choices = o
        .get("choices")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let autocomplete = o.get("autocomplete").and_then(Value::as_bool) == Some(true);
    if choices > 25 || (choices > 0 && autocomplete) {
        inner.error(format!(
            "/{command} option {name}: {choices} choices, autocomplete {autocomplete}"
        ));
    }
    for sub in o
        .get("options")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        check_option(inner, command, sub);
    }
}

async fn register(
    State(fake): State<Fake>,
    Path(params): Path<Vec<(String, String)>>,
    body: Payload,
) -> Response {
    let mut inner = fake.lock();
    let guild = params
        .iter()
        .find(|(k, _)| k == "guild")
        .map(|(_, v)| v.clone());
    if params
        .iter()
        .any(|(k, v)| k == "app" && *v != APP.to_string())
    {
        inner.error(format!(
            "commands registered for another application: {params:?}"
        ));
    }
    let Some(list) = body.json.as_array().cloned() else {
        inner.error(format!("command registration is not a list: {}", body.json));
        return discord_error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body");
    };
    let mut out = Vec::new();
    for mut c in list {
        let name = c
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let desc = c.get("description").and_then(Value::as_str).unwrap_or("");
        if desc.is_empty() || desc.chars().count() > 100 {
            inner.error(format!("/{name}: bad description {desc:?}"));
        }
        for o in c
            .get("options")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
        {
            check_option(&mut inner, &name, &o);
        }
        let id = inner.id();
        inner.command_ids.insert(name.clone(), id);
        c["id"] = json!(id.to_string());
        c["application_id"] = json!(APP.to_string());
        c["version"] = json!("1");
        if c.get("type").is_none() {
            c["type"] = json!(1);
        }
        if let Some(g) = &guild {
            c["guild_id"] = json!(g);
        }
        out.push(c);
    }
    let v = Value::Array(out);
    if let Err(e) = check::<Vec<s::Command>>("registered commands", &v) {
        inner.error(e);
    }
    inner.commands = v.as_array().cloned().unwrap_or_default();
    Json(v).into_response()
}

fn message_json(m: &Msg) -> Value {
    let attachments: Vec<Value> = m
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            json!({"id": (700 + i).to_string(), "filename": f, "size": 1,
                             "url": "http://127.0.0.1/a", "proxy_url": "http://127.0.0.1/a"})
        })
        .collect();
    json!({
        "id": m.id.to_string(), "channel_id": m.channel.to_string(),
        "author": user_json(APP, "arbiter", true), "content": m.content,
        "timestamp": TS, "edited_timestamp": null, "tts": false, "mention_everyone": false,
        "mentions": [], "mention_roles": [], "attachments": attachments, "embeds": [],
        "pinned": m.pinned, "type": 0, "flags": if m.ephemeral { 64 } else { 0 }
    })
}

fn reply_message(inner: &mut Inner, m: &Msg) -> Response {
    let v = message_json(m);
    if let Err(e) = check::<s::Message>("message", &v) {
        inner.error(e);
    }
    Json(v).into_response()
}

async fn callback(
    State(fake): State<Fake>,
    Path((id, token)): Path<(String, String)>,
    body: Payload,
) -> Response {
    let mut inner = fake.lock();
    inner.uploads.extend(body.blobs.iter().cloned());
    let Some(i) = inner.interactions.get(&token) else {
        inner.error(format!("callback for an unknown interaction {id}"));
        return discord_error(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
    };
    let (own_id, elapsed, answered, channel) =
        (i.id, i.sent.elapsed(), i.response.is_some(), i.channel);
    if own_id.to_string() != id {
        inner.error(format!("callback with a token of another interaction {id}"));
    }
    if elapsed > Duration::from_secs(3) {
        inner.error(format!("interaction {id} acknowledged after 3 s"));
        return discord_error(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
    }
    if answered {
        inner.error(format!("interaction {id} acknowledged twice"));
        return discord_error(
            StatusCode::BAD_REQUEST,
            40060,
            "Interaction has already been acknowledged.",
        );
    }
    let kind = body.json.get("type").and_then(Value::as_u64).unwrap_or(0);
    let d = body.json.get("data").cloned().unwrap_or(Value::Null);
    let ephemeral = d.get("flags").and_then(Value::as_u64).unwrap_or(0) & 64 != 0;
    let mut original = None;
    let mut choices = None;
    match kind {
        4 => {
            if let Some(p) = check_outgoing_message(&d) {
                inner.error(format!("interaction {id}: {p}"));
            }
            let mid = inner.id();
            inner.created(Msg {
                id: mid,
                channel,
                content: d
                    .get("content")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                ephemeral,
                buttons: buttons_of(&d),
                pings: pings_of(&d),
                notified: if ephemeral {
                    Vec::new()
                } else {
                    would_notify(&d)
                },
                files: body.files.clone(),
                interaction: Some(token.clone()),
                ..Msg::default()
            });
            original = Some(mid);
        }
        5 => {
            let mid = inner.id();
            inner.messages.push(Msg {
                id: mid,
                channel,
                content: String::new(),
                ephemeral,
                interaction: Some(token.clone()),
                ..Msg::default()
            });
            original = Some(mid);
        }
        8 => {
            let list = d
                .get("choices")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if list.len() > 25 {
                inner.error(format!(
                    "interaction {id}: {} autocomplete choices",
                    list.len()
                ));
            }
            choices = Some(
                list.iter()
                    .filter_map(|c| c.get("name").and_then(Value::as_str).map(str::to_string))
                    .collect(),
            );
        }
        other => inner.error(format!(
            "interaction {id}: unexpected callback type {other}"
        )),
    }
    if let Some(i) = inner.interactions.get_mut(&token) {
        i.response = Some(kind);
        i.responded = Some(i.sent.elapsed());
        i.deferred_ephemeral = kind == 5 && ephemeral;
        i.original = original;
        i.choices = choices;
    }
    StatusCode::NO_CONTENT.into_response()
}

async fn followup(
    State(fake): State<Fake>,
    Path((app, token)): Path<(String, String)>,
    body: Payload,
) -> Response {
    let mut inner = fake.lock();
    inner.uploads.extend(body.blobs.iter().cloned());
    if app != APP.to_string() {
        inner.error(format!("follow-up for another application {app}"));
    }
    let Some(i) = inner.interactions.get(&token) else {
        inner.error("follow-up for an unknown interaction".to_string());
        return discord_error(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
    };
    let Some(first) = i.response else {
        inner.error("follow-up before the interaction was acknowledged".to_string());
        return discord_error(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
    };
    let (channel, deferred_ephemeral, original) = (i.channel, i.deferred_ephemeral, i.original);
    let d = body.json;
    if let Some(p) = check_outgoing_message(&d) {
        inner.error(format!("follow-up: {p}"));
    }
    let content = d
        .get("content")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    // Discord (deprecated compatibility): the first follow-up after a deferral edits the
    // "thinking" message, whose visibility was fixed at the deferral; it notifies nobody.
    if first == 5 {
        let completes = inner
            .messages
            .iter()
            .any(|m| Some(m.id) == original && m.edits == 0);
        if completes && !deferred_ephemeral {
            check_no_lost_ping(&mut inner, "the completion of a deferral", &d);
        }
        if let Some(m) = inner
            .messages
            .iter_mut()
            .rev()
            .find(|m| Some(m.id) == original && m.edits == 0)
        {
            m.content = content;
            m.edits += 1;
            m.buttons = buttons_of(&d);
            m.pings = pings_of(&d);
            m.files = body.files;
            m.ephemeral = deferred_ephemeral;
            let m = m.clone();
            return reply_message(&mut inner, &m);
        }
    }
    let ephemeral = d.get("flags").and_then(Value::as_u64).unwrap_or(0) & 64 != 0;
    let m = Msg {
        id: inner.id(),
        channel,
        content,
        ephemeral,
        buttons: buttons_of(&d),
        pings: pings_of(&d),
        notified: if ephemeral {
            Vec::new()
        } else {
            would_notify(&d)
        },
        files: body.files,
        interaction: Some(token.clone()),
        ..Msg::default()
    };
    if let Some(i) = inner.interactions.get_mut(&token) {
        if i.retracted && i.original.is_none() {
            i.original = Some(m.id);
        }
    }
    inner.created(m.clone());
    reply_message(&mut inner, &m)
}

/// Deletes an interaction's original response (`@original` only): a deferral the bot takes
/// back before answering privately with a follow-up.
async fn delete_webhook(
    State(fake): State<Fake>,
    Path((_app, token, message)): Path<(String, String, String)>,
) -> Response {
    let mut inner = fake.lock();
    let original = inner.interactions.get(&token).and_then(|i| i.original);
    let (Some(id), "@original") = (original, message.as_str()) else {
        inner.error(format!(
            "delete of an unknown interaction message {message}"
        ));
        return discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message");
    };
    inner.messages.retain(|m| m.id != id);
    if let Some(i) = inner.interactions.get_mut(&token) {
        i.original = None;
        i.retracted = true;
    }
    StatusCode::NO_CONTENT.into_response()
}

async fn edit_webhook(
    State(fake): State<Fake>,
    Path((_app, token, message)): Path<(String, String, String)>,
    body: Payload,
) -> Response {
    let mut inner = fake.lock();
    inner.uploads.extend(body.blobs.iter().cloned());
    let original = inner.interactions.get(&token).and_then(|i| i.original);
    let target = if message == "@original" {
        original
    } else {
        message.parse().ok()
    };
    let d = body.json;
    let public = inner
        .messages
        .iter()
        .rev()
        .any(|m| Some(m.id) == target && !m.ephemeral);
    if public {
        check_no_lost_ping(&mut inner, "an edit of an interaction response", &d);
    }
    let Some(m) = inner
        .messages
        .iter_mut()
        .rev()
        .find(|m| Some(m.id) == target)
    else {
        inner.error(format!("edit of an unknown interaction message {message}"));
        return discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message");
    };
    if let Some(c) = d.get("content").and_then(Value::as_str) {
        m.content = c.to_string();
    }
    m.edits += 1;
    m.files.extend(body.files);
    let m = m.clone();
    reply_message(&mut inner, &m)
}

async fn create_thread(
    State(fake): State<Fake>,
    Path(channel): Path<u64>,
    body: Payload,
) -> Response {
    let mut inner = fake.lock();
    if inner.fail_threads {
        return discord_error(StatusCode::FORBIDDEN, 50013, "Missing Permissions");
    }
    let d = body.json;
    let name = d
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if name.is_empty() || name.chars().count() > 100 {
        inner.error(format!("thread name {name:?}"));
    }
    if d.get("type").and_then(Value::as_u64) != Some(11) {
        inner.error(format!("thread is not public (type 11): {d}"));
    }
    let archive = d
        .get("auto_archive_duration")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    if ![60, 1440, 4320, 10080].contains(&archive) {
        inner.error(format!("bad auto_archive_duration {archive}"));
    }
    let id = inner.id();
    inner.threads.push((id, channel, name.clone()));
    let v = json!({
        "id": id.to_string(), "type": 11, "name": name, "guild_id": GUILD.to_string(),
        "parent_id": channel.to_string(), "owner_id": APP.to_string(),
        "thread_metadata": {"archived": false, "auto_archive_duration": archive,
                            "archive_timestamp": TS, "locked": false},
        "member_count": 1, "message_count": 0, "rate_limit_per_user": 0, "flags": 0
    });
    if let Err(e) = check::<s::GuildChannel>("thread", &v) {
        inner.error(e);
    }
    (StatusCode::CREATED, Json(v)).into_response()
}

async fn create_message(
    State(fake): State<Fake>,
    Path(channel): Path<u64>,
    body: Payload,
) -> Response {
    let mut inner = fake.lock();
    inner.uploads.extend(body.blobs.iter().cloned());
    let d = body.json;
    if let Some(p) = check_outgoing_message(&d) {
        inner.error(format!("message in {channel}: {p}"));
    }
    let m = Msg {
        id: inner.id(),
        channel,
        content: d
            .get("content")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        buttons: buttons_of(&d),
        pings: pings_of(&d),
        notified: would_notify(&d),
        files: body.files,
        ..Msg::default()
    };
    inner.created(m.clone());
    reply_message(&mut inner, &m)
}

async fn edit_message(
    State(fake): State<Fake>,
    Path((channel, message)): Path<(u64, u64)>,
    body: Payload,
) -> Response {
    let mut inner = fake.lock();
    inner.uploads.extend(body.blobs.iter().cloned());
    let d = body.json;
    check_no_lost_ping(&mut inner, "a message edit", &d);
    let Some(m) = inner
        .messages
        .iter_mut()
        .find(|m| m.id == message && m.channel == channel && m.interaction.is_none())
    else {
        inner.error(format!("edit of unknown message {message} in {channel}"));
        return discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message");
    };
    if let Some(c) = d.get("content").and_then(Value::as_str) {
        m.content = c.to_string();
    }
    // Components sent replace the message's buttons (`[]` removes them).
    if d.get("components").is_some() {
        m.buttons = buttons_of(&d);
    }
    m.edits += 1;
    let m = m.clone();
    reply_message(&mut inner, &m)
}

async fn pin(State(fake): State<Fake>, Path((channel, message)): Path<(u64, u64)>) -> Response {
    let mut inner = fake.lock();
    match inner
        .messages
        .iter_mut()
        .find(|m| m.id == message && m.channel == channel)
    {
        Some(m) => {
            m.pinned = true;
            StatusCode::NO_CONTENT.into_response()
        }
        None => {
            inner.error(format!("pin of unknown message {message} in {channel}"));
            discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message")
        }
    }
}

async fn gateway_ws(State(fake): State<Fake>, ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(move |socket| gateway(socket, fake))
}

async fn gateway(mut socket: WebSocket, fake: Fake) {
    let (tx, mut rx) = mpsc::unbounded_channel();
    fake.lock().gateway = Some(tx.clone());
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}});
    if socket
        .send(WsMessage::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    loop {
        tokio::select! {
            frame = socket.recv() => {
                let text = match frame {
                    Some(Ok(WsMessage::Text(t))) => t.to_string(),
                    Some(Ok(WsMessage::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                let v: Value = match serde_json::from_str(&text) {
                    Ok(v) => v,
                    Err(e) => { fake.lock().error(format!("gateway frame not JSON: {e}")); continue; }
                };
                let reply = on_frame(&fake, &v);
                fake.changed();
                if let Some(r) = reply {
                    if socket.send(WsMessage::Text(r.to_string().into())).await.is_err() {
                        break;
                    }
                }
            }
            cmd = rx.recv() => match cmd {
                Some(WsCmd::Text(t)) => {
                    if socket.send(WsMessage::Text(t.into())).await.is_err() { break; }
                }
                Some(WsCmd::Close(code)) => {
                    let _ = socket.send(WsMessage::Close(Some(CloseFrame { code, reason: "".into() }))).await;
                    break;
                }
                None => break,
            }
        }
    }
    let mut inner = fake.lock();
    if inner.gateway.as_ref().is_some_and(|g| g.same_channel(&tx)) {
        inner.gateway = None;
    }
}

fn on_frame(fake: &Fake, v: &Value) -> Option<Value> {
    let mut inner = fake.lock();
    match v.get("op").and_then(Value::as_u64) {
        Some(1) => Some(json!({"op": 11})),
        Some(2) => {
            let d = v.get("d").cloned().unwrap_or(Value::Null);
            if d.get("token").and_then(Value::as_str) != Some(&format!("Bot {TOKEN}")) {
                inner.error("IDENTIFY with a wrong token".to_string());
            }
            inner.identifies.push(d);
            inner.seq += 1;
            let ready = json!({
                "v": 10, "user": user_json(APP, "arbiter", true), "guilds": [],
                "session_id": "session-1",
                "resume_gateway_url": format!("ws://127.0.0.1:{}/gateway-ws", inner.port),
                "application": {"id": APP.to_string(), "flags": 0}, "shard": [0, 1]
            });
            if let Err(e) = check::<s::Ready>("READY", &ready) {
                inner.error(e);
            }
            Some(json!({"op": 0, "s": inner.seq, "t": "READY", "d": ready}))
        }
        Some(6) => {
            let d = v.get("d").cloned().unwrap_or(Value::Null);
            if d.get("session_id").and_then(Value::as_str) != Some("session-1") {
                inner.error(format!("RESUME of an unknown session: {d}"));
            }
            inner.resumes.push(d);
            inner.seq += 1;
            Some(json!({"op": 0, "s": inner.seq, "t": "RESUMED", "d": {}}))
        }
        Some(3) => None,
        other => {
            inner.error(format!("unexpected gateway op {other:?}: {v}"));
            None
        }
    }
}
