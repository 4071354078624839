//! What every file of the Discord front end shares: the bot's state, its error, poise's
//! context type, and small helpers (the clock, the seed of new games, a member's rights).
//! A leaf: it names no other file of `discord`, so the plumbing (`slash`, `respond`,
//! `buttons`) and the games' commands can all use it without a circle.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use poise::serenity_prelude as serenity;
use serenity::{ChannelId, GuildId, Member, MessageId, RoleId};

use super::config::ConfigError;
use crate::commands::Roles;
use crate::service::Service;
use crate::store::StoreError;
use crate::time::Timestamp;

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
    /// Reminder interval of new games, in seconds (`Some(0)`: off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remind: Option<u64>,
    /// Stall time of new games, in seconds (`Some(0)`: off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stall: Option<u64>,
    /// Vacation days per player and year (`None`: the default, 14).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vacation_days: Option<u32>,
}

/// A thread's message carrying command buttons: its id, the button ids and its heading (see
/// `buttons`).
pub(super) type Shown = (MessageId, Vec<String>, String);

/// The bot's state, shared by commands, events and the ticker.
pub struct State {
    /// The command layer with its database.
    pub(super) service: Service,
    /// The pinned status message of each game thread.
    pub(super) status: Mutex<HashMap<ChannelId, MessageId>>,
    /// The messages of command buttons (votes) showing in each thread.
    pub(super) buttons: Mutex<HashMap<ChannelId, Vec<Shown>>>,
    /// Each server's `/settings`.
    pub(super) roles: Mutex<HashMap<GuildId, RoleSettings>>,
    /// Held while match threads are being opened, so two commands at once cannot open a
    /// match twice.
    pub(super) opening: tokio::sync::Mutex<()>,
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
pub(super) type Ctx<'a> = poise::ApplicationContext<'a, Data, BotError>;

/// Locks a mutex; a panic elsewhere while it was held does not make the state unusable.
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The system clock in Unix seconds (the game itself never reads a clock).
pub(super) fn now() -> Timestamp {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Seeds games created without `seed:`: the clock's nanoseconds, stirred, in
/// `0..=MAX_SEED` so the seed the bot shows can be typed back (shared rules 0.5; the command layer
/// keeps only those bits of any entropy too).
pub(super) fn entropy() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    crate::games::drawn_seed(crate::games::seeded::splitmix(nanos))
}

/// Organiser and moderator rights from the member's permissions in the channel (as the
/// interaction carries them) and the roles configured for the server.
pub(super) fn roles_of(state: &State, guild: Option<GuildId>, member: Option<&Member>) -> Roles {
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
                remind: Some(3600),
                stall: None,
                vacation_days: Some(5),
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
}
