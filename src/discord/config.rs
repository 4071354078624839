//! The bot's settings, read from the environment (and `.env` through dotenvy).

use std::fmt;

/// A setting that is missing or malformed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// `DISCORD_TOKEN` is unset or empty.
    #[error("DISCORD_TOKEN is not set: put the bot token in the environment or in .env (see .env.example)")]
    MissingToken,
    /// `GUILD_ID` is not a snowflake.
    #[error("GUILD_ID must be a server id (a positive number), got `{0}`")]
    GuildId(String),
    /// `SHARDS` is not `first..=last/total`.
    #[error("SHARDS must look like `0..=1/4` (first..=last/total, last < total), got `{0}`")]
    Shards(String),
    /// `DISCORD_API_BASE` is not an `http://` or `https://` base.
    #[error("DISCORD_API_BASE must be a base like http://127.0.0.1:PORT, got `{0}`")]
    ApiBase(String),
    /// `.env` exists but cannot be read.
    #[error(".env cannot be read: {0}")]
    DotEnv(String),
}

/// Which shards this process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shards {
    /// First shard id (inclusive).
    pub first: u32,
    /// Last shard id (inclusive).
    pub last: u32,
    /// Total shard count of the bot.
    pub total: u32,
}

impl Shards {
    /// Parses `first..=last/total`.
    ///
    /// # Errors
    /// [`ConfigError::Shards`] when malformed or out of range.
    pub fn parse(text: &str) -> Result<Shards, ConfigError> {
        let err = || ConfigError::Shards(text.to_string());
        let (range, total) = text.trim().split_once('/').ok_or_else(err)?;
        let (first, last) = range.split_once("..=").ok_or_else(err)?;
        let num = |s: &str| s.trim().parse::<u32>().map_err(|_| err());
        let shards = Shards {
            first: num(first)?,
            last: num(last)?,
            total: num(total)?,
        };
        if shards.first > shards.last || shards.last >= shards.total {
            return Err(err());
        }
        Ok(shards)
    }
}

/// Everything the bot reads at start-up.
#[derive(Clone, PartialEq, Eq)]
pub struct Config {
    /// The bot token (never printed: `Debug` hides it).
    pub token: String,
    /// The database (`sqlite://…` or `postgres://…`); an `arbiter.db` SQLite file if unset.
    pub database_url: Option<String>,
    /// Register the commands in this server only (fast updates while testing); globally if unset.
    pub guild_id: Option<u64>,
    /// Run a range of shards; all shards Discord recommends if unset.
    pub shards: Option<Shards>,
    /// Tests only: send REST and gateway traffic to this base (turns serenity's ratelimiter off).
    pub api_base: Option<String>,
    /// `MEMBER_EVENTS=1`: ask for the privileged GUILD_MEMBERS intent (switch it on in the
    /// Developer Portal first), so a Swinger leaving the server turns Warm (Party rules 3.6).
    pub member_events: bool,
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("token", &"<hidden>")
            .field("database_url", &self.database_url.as_ref().map(|_| "<set>"))
            .field("guild_id", &self.guild_id)
            .field("shards", &self.shards)
            .field("api_base", &self.api_base)
            .field("member_events", &self.member_events)
            .finish()
    }
}

impl Config {
    /// Reads `.env` (if there is one) and then the environment.
    ///
    /// # Errors
    /// A [`ConfigError`] naming the variable at fault.
    pub fn from_env() -> Result<Config, ConfigError> {
        match dotenvy::dotenv() {
            Ok(_) => {}
            Err(e) if e.not_found() => {}
            Err(e) => return Err(ConfigError::DotEnv(e.to_string())),
        }
        Config::from_lookup(|key| std::env::var(key).ok())
    }

    /// Builds the settings from a variable lookup (the environment, or a map in tests).
    ///
    /// # Errors
    /// A [`ConfigError`] naming the variable at fault.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let get = |key: &str| get(key).filter(|v| !v.trim().is_empty());
        let token = get("DISCORD_TOKEN").ok_or(ConfigError::MissingToken)?;
        let guild_id = match get("GUILD_ID") {
            Some(g) => match g.trim().parse::<u64>() {
                Ok(id) if id > 0 => Some(id),
                _ => return Err(ConfigError::GuildId(g)),
            },
            None => None,
        };
        let shards = get("SHARDS").map(|s| Shards::parse(&s)).transpose()?;
        let api_base = match get("DISCORD_API_BASE") {
            Some(b) => {
                let b = b.trim().trim_end_matches('/').to_string();
                if !(b.starts_with("http://") || b.starts_with("https://")) {
                    return Err(ConfigError::ApiBase(b));
                }
                Some(b)
            }
            None => None,
        };
        Ok(Config {
            token: token.trim().to_string(),
            database_url: get("DATABASE_URL"),
            guild_id,
            shards,
            api_base,
            member_events: get("MEMBER_EVENTS").is_some_and(|v| {
                matches!(
                    v.trim().to_ascii_lowercase().as_str(),
                    "1" | "true" | "yes" | "on"
                )
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn token_is_required_and_hidden() {
        assert_eq!(config(&[]), Err(ConfigError::MissingToken));
        assert_eq!(
            config(&[("DISCORD_TOKEN", " ")]),
            Err(ConfigError::MissingToken)
        );
        let c = config(&[("DISCORD_TOKEN", "secret-token")]).unwrap();
        assert!(!format!("{c:?}").contains("secret-token"));
        assert!(ConfigError::MissingToken
            .to_string()
            .contains("DISCORD_TOKEN"));
    }

    #[test]
    fn shards_and_guild() {
        assert_eq!(
            Shards::parse("0..=1/4"),
            Ok(Shards {
                first: 0,
                last: 1,
                total: 4
            })
        );
        assert!(Shards::parse("2..=1/4").is_err());
        assert!(Shards::parse("0..=4/4").is_err());
        assert!(Shards::parse("0..4").is_err());
        let c = config(&[
            ("DISCORD_TOKEN", "t"),
            ("GUILD_ID", "123"),
            ("DISCORD_API_BASE", "http://127.0.0.1:9/"),
        ])
        .unwrap();
        assert_eq!(c.guild_id, Some(123));
        assert_eq!(c.api_base.as_deref(), Some("http://127.0.0.1:9"));
        assert!(config(&[("DISCORD_TOKEN", "t"), ("GUILD_ID", "x")]).is_err());
        assert!(config(&[("DISCORD_TOKEN", "t"), ("DISCORD_API_BASE", "ftp://x")]).is_err());
        assert!(!c.member_events);
        let m = config(&[("DISCORD_TOKEN", "t"), ("MEMBER_EVENTS", "1")]).unwrap();
        assert!(m.member_events);
    }
}
