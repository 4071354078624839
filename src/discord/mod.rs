//! The Discord front end: a thin poise adapter around the command layer.
//!
//! Every slash command becomes a [`crate::commands::Command`] and goes through [`Service::handle`]; the
//! [`Reply`](crate::commands::Reply) comes back as a public message in the game's thread
//! (accepted actions) or as an ephemeral message to the sender only (refusals and private
//! answers), sent as the interaction's first response. Button presses go to [`Service::press`],
//! chat posts to [`Service::chat`], and a ticker posts [`Service::due_messages`]. Whoever must act
//! next is pinged by the reply's notification only, a new message in the thread (see
//! `respond`).
//!
//! Tournaments (`/tournament …`, `/signup`, `/withdraw`) live in a thread of their own; each
//! paired match gets a game thread in the same channel, and a match's result is announced in
//! the tournament's thread.
//!
//! Games are stored through [`Service`] (`DATABASE_URL`: SQLite by default, or PostgreSQL);
//! each command is committed before it is answered, keyed by its interaction id.

mod buttons;
mod chex;
mod config;
mod events;
mod nomic;
mod party;
mod picture;
mod respond;
mod slash;
mod text;
mod tournament;
mod ultimate;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{ChannelId, GuildId, Member, MessageId, RoleId};

use crate::commands::Roles;
use crate::service::Service;
use crate::store::{Store, StoreError};
use crate::time::Timestamp;

pub use config::{Config, ConfigError, Shards};
pub use picture::board_png;
pub use text::mentionize;

/// What can stop the bot or a command.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// A setting is missing or malformed.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Discord (REST or gateway) failed.
    #[error("Discord: {0}")]
    Discord(#[from] Box<serenity::Error>),
    /// The database cannot be opened or read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A blocking task panicked.
    #[error("a background task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
}

impl From<serenity::Error> for BotError {
    fn from(e: serenity::Error) -> BotError {
        BotError::Discord(Box::new(e))
    }
}

/// What a server admin configured with `/settings`: roles and defaults for new games. Stored
/// in the database (`meta` key `guild:<id>`), so a restart keeps them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RoleSettings {
    /// Members with this role are organisers.
    pub organiser: Option<RoleId>,
    /// Members with this role are moderators.
    pub moderator: Option<RoleId>,
    /// Default move limit of new games, in seconds.
    #[serde(default)]
    pub move_limit: Option<u64>,
    /// Default inactivity posts of new games.
    #[serde(default)]
    pub inactivity_posts: Option<u32>,
}

/// The bot's state, shared by commands, events and the ticker.
pub struct State {
    /// The command layer with its database.
    service: Service,
    /// The pinned status message of each game thread.
    status: Mutex<HashMap<ChannelId, MessageId>>,
    /// The messages of command buttons (votes) showing in each thread.
    buttons: Mutex<HashMap<ChannelId, Vec<buttons::Shown>>>,
    roles: Mutex<HashMap<GuildId, RoleSettings>>,
    /// Held while match threads are being opened, so two commands at once cannot open a
    /// match twice.
    opening: tokio::sync::Mutex<()>,
}

impl State {
    /// State around a service (in memory or over a database).
    pub fn new(service: Service) -> State {
        State {
            service,
            status: Mutex::default(),
            buttons: Mutex::default(),
            roles: Mutex::default(),
            opening: tokio::sync::Mutex::new(()),
        }
    }

    /// Loads the servers' `/settings` from the database.
    pub async fn load_settings(&self) {
        let Some(store) = self.service.store() else {
            return;
        };
        match store.meta_with_prefix("guild:").await {
            Ok(rows) => {
                let mut roles = lock(&self.roles);
                for (key, value) in rows {
                    let id = key.trim_start_matches("guild:").parse::<u64>().ok();
                    let settings = serde_json::from_str::<RoleSettings>(&value).ok();
                    if let (Some(id), Some(s)) = (id, settings) {
                        roles.insert(GuildId::new(id.max(1)), s);
                    }
                }
            }
            Err(e) => tracing::error!(error = %e, "cannot load server settings"),
        }
    }

    /// Stores a server's `/settings`.
    pub async fn save_settings(&self, guild: GuildId, settings: RoleSettings) {
        let Some(store) = self.service.store() else {
            return;
        };
        let Ok(json) = serde_json::to_string(&settings) else {
            return;
        };
        if let Err(e) = store.set_meta(&format!("guild:{guild}"), &json).await {
            tracing::error!(error = %e, "cannot save server settings");
        }
    }
}

/// poise's user data.
pub type Data = Arc<State>;
type Ctx<'a> = poise::ApplicationContext<'a, Data, BotError>;

/// Locks a mutex; a panic elsewhere while it was held does not make the state unusable.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The system clock in Unix seconds (the game itself never reads a clock).
fn now() -> Timestamp {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Seeds games created without `seed:`: the clock's nanoseconds, stirred, in
/// `0..=MAX_SEED` so the seed the bot shows can be typed back (shared rules 0.5; the command layer
/// keeps only those bits of any entropy too).
fn entropy() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    crate::games::drawn_seed(crate::games::kfb::splitmix(nanos))
}

/// Organiser and moderator rights from the member's permissions in the channel (as the
/// interaction carries them) and the roles configured for the server.
fn roles_of(state: &State, guild: Option<GuildId>, member: Option<&Member>) -> Roles {
    let Some(member) = member else {
        return Roles::default();
    };
    let perms = member.permissions.unwrap_or_default();
    let configured = guild
        .and_then(|g| lock(&state.roles).get(&g).copied())
        .unwrap_or_default();
    let has = |role: Option<RoleId>| role.is_some_and(|r| member.roles.contains(&r));
    Roles {
        organiser: perms.administrator() || perms.manage_threads() || has(configured.organiser),
        moderator: perms.administrator() || perms.manage_messages() || has(configured.moderator),
    }
}

/// How often lock-expiry messages are looked for.
const TICK: Duration = crate::service::TICK;

/// Runs the bot until Discord closes the session for good or the process is interrupted.
///
/// # Errors
/// A [`BotError`] when the client cannot start or a shard fails fatally (bad token,
/// disallowed intents).
pub async fn run(config: Config) -> Result<(), BotError> {
    let store = Store::connect(config.database_url.as_deref()).await?;
    let service = Service::with_store(store).await?;
    let mut http = serenity::HttpBuilder::new(&config.token)
        .default_allowed_mentions(serenity::CreateAllowedMentions::new());
    if let Some(base) = &config.api_base {
        tracing::warn!(base = %base, "DISCORD_API_BASE set: talking to a test server, ratelimiter off");
        http = http.proxy(base.clone()).ratelimiter_disabled(true);
    }
    let http = http.build();
    let mut intents = serenity::GatewayIntents::GUILDS | serenity::GatewayIntents::GUILD_MESSAGES;
    if config.member_events {
        // Privileged: without it Discord sends no GUILD_MEMBER_REMOVE (Party rules 3.6, Warmth).
        intents |= serenity::GatewayIntents::GUILD_MEMBERS;
    }
    let guild = config.guild_id.map(GuildId::new);
    let setup_state: Data = Arc::new(State::new(service));
    setup_state.load_settings().await;
    // The piece sprites of the first pictures are drawn while the gateway connects.
    let warming = setup_state.clone();
    tokio::spawn(async move { warming.service.warm_pictures().await });
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: slash::all(),
            event_handler: |framework, event| Box::pin(events::handle(framework, event)),
            on_error: |error| Box::pin(slash::on_error(error)),
            initialize_owners: false,
            // poise's default lets every reply ping the users it mentions; ours ping nobody
            // (only notifications do, with their own allowed mentions).
            allowed_mentions: Some(serenity::CreateAllowedMentions::new()),
            // Slash commands only: no message is ever read as a command.
            prefix_options: poise::PrefixFrameworkOptions {
                mention_as_prefix: false,
                ..Default::default()
            },
            ..Default::default()
        })
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                let commands = &framework.options().commands;
                match guild {
                    Some(g) => poise::builtins::register_in_guild(ctx, commands, g).await?,
                    None => poise::builtins::register_globally(ctx, commands).await?,
                }
                tracing::info!(bot = %ready.user.id, guild = ?guild, count = commands.len(), "commands registered");
                events::spawn_ticker(ctx.http.clone(), setup_state.clone(), TICK);
                Ok(setup_state)
            })
        })
        .build();
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .await?;
    let manager = client.shard_manager.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            tracing::info!("interrupted; closing the gateway sessions");
            manager.shutdown_all().await;
        }
    });
    tracing::info!(shards = ?config.shards, "connecting");
    match config.shards {
        // serenity boots `first..=last` from the range `first..last`.
        Some(s) => client.start_shard_range(s.first..s.last, s.total).await?,
        None => client.start_autosharded().await?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(permissions: u64, roles: &[u64]) -> Member {
        let roles: Vec<String> = roles.iter().map(u64::to_string).collect();
        serde_json::from_value(serde_json::json!({
            "guild_id": "9", "user": {"id": "5", "username": "u", "discriminator": "0"},
            "roles": roles, "deaf": false, "mute": false, "flags": 0,
            "permissions": permissions.to_string()
        }))
        .unwrap()
    }

    #[test]
    fn server_settings_survive_a_restart() {
        let file = std::env::temp_dir().join(format!("arbiter-settings-{}.db", std::process::id()));
        let url = format!("sqlite://{}?mode=rwc", file.display());
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let open = || async {
                let store = crate::store::Store::connect(Some(&url)).await.unwrap();
                State::new(Service::with_store(store).await.unwrap())
            };
            let state = open().await;
            let s = RoleSettings {
                organiser: Some(RoleId::new(7)),
                moderator: Some(RoleId::new(8)),
                move_limit: Some(360),
                inactivity_posts: Some(12),
            };
            state.save_settings(GuildId::new(9), s).await;
            let again = open().await;
            again.load_settings().await;
            assert_eq!(lock(&again.roles).get(&GuildId::new(9)).copied(), Some(s));
        });
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
        }
    }

    #[test]
    fn roles_come_from_permissions_or_configured_roles() {
        let state = State::new(Service::in_memory());
        let guild = Some(GuildId::new(9));
        let none = Roles::default();
        assert_eq!(roles_of(&state, guild, None), none);
        assert_eq!(roles_of(&state, guild, Some(&member(1 << 11, &[7]))), none);
        let threads = roles_of(&state, guild, Some(&member(1 << 34, &[])));
        assert!(threads.organiser && !threads.moderator);
        let messages = roles_of(&state, guild, Some(&member(1 << 13, &[])));
        assert!(!messages.organiser && messages.moderator);
        let admin = roles_of(&state, guild, Some(&member(1 << 3, &[])));
        assert!(admin.organiser && admin.moderator);
        lock(&state.roles).insert(
            GuildId::new(9),
            RoleSettings {
                organiser: Some(RoleId::new(7)),
                ..RoleSettings::default()
            },
        );
        let organiser = roles_of(&state, guild, Some(&member(1 << 11, &[7])));
        assert!(organiser.organiser && !organiser.moderator);
        assert_eq!(roles_of(&state, None, Some(&member(1 << 11, &[7]))), none);
    }

    /// The slash commands as Discord receives them at registration: servers and users must see
    /// no change unless one is meant. `UPDATE_SNAPSHOT=1 cargo test --lib registration` rewrites
    /// `tests/data/registration.json` after an intended change.
    #[test]
    fn registration_matches_the_snapshot() {
        let commands = poise::builtins::create_application_commands(&slash::all());
        let json = serde_json::to_string_pretty(&commands).unwrap() + "\n";
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/registration.json");
        if std::env::var_os("UPDATE_SNAPSHOT").is_some_and(|v| v == "1") {
            std::fs::write(&path, &json).unwrap();
            return;
        }
        let want = std::fs::read_to_string(&path).unwrap();
        if want != json {
            let actual = path.with_extension("actual.json");
            std::fs::write(&actual, &json).unwrap();
            panic!(
                "the registered commands differ from {} (the actual list is in {}; rerun with \
                 UPDATE_SNAPSHOT=1 if the change is intended)",
                path.display(),
                actual.display()
            );
        }
    }
}
