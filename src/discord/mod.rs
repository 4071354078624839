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
//! Tournaments live in a thread of their own; each paired match gets a game thread in the
//! same channel, and a match's result is announced in the tournament's thread.
//!
//! Games are stored through [`Service`] (`DATABASE_URL`: SQLite by default, or PostgreSQL);
//! each command is committed before it is answered, keyed by its interaction id.
//!
//! Every slash command is declared once, as data, in [`crate::commands::declare`]:
//! `declared` makes the declarations into Discord's registration and poise's commands, and
//! reads an interaction's typed options back into the command layer's text. What a command
//! needs of the front end (a thread of its own, a deferred animation, a picture, a private
//! answer, a file, which of the service's entries answers it) is part of its declaration, and
//! one function (`run_declared`) routes every command by it: no file here names a game or a
//! command (a test reads them for command names).
//!
//! The files form no circle: `context` (the shared state and helpers), `config`, `text` and
//! `picture` are leaves; the plumbing (`respond`, `buttons`, `slash`, `events`, `declared`)
//! names none of the routes that plug into `slash` (`tournament`, `settings`, `anywhere`,
//! `animation`); this module only wires them together (`run_declared`). A test checks the
//! circle stays gone.

mod animation;
mod anywhere;
mod buttons;
mod config;
mod context;
mod declared;
mod events;
mod picture;
mod respond;
mod settings;
mod slash;
mod text;
mod tournament;

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::GuildId;

use crate::commands::declare::{Declared, Run};
use crate::service::Service;
use crate::store::Store;

pub use config::{Config, ConfigError, Shards};
pub use context::{BotError, Data, RoleSettings, State};
pub use picture::board_png;
pub use text::mentionize;

/// Runs a declared command with the options given: the one place that routes every declared
/// command, by what its declaration says ([`Run`]) and nothing else.
async fn run_declared(
    ctx: context::Ctx<'_>,
    d: &'static Declared,
    mut given: Vec<(&'static str, String)>,
) -> Result<(), BotError> {
    match d.run {
        Run::Act => slash::act(ctx, d.command(&given)).await,
        Run::Anywhere(desk) => anywhere::run(ctx, d, desk, d.command(&given)).await,
        Run::NewGame {
            title,
            server_defaults,
        } => {
            if server_defaults {
                slash::with_defaults(ctx, &mut given);
            }
            slash::with_pace(ctx, &mut given);
            slash::new_game(ctx, d, &d.command(&given), title).await
        }
        Run::Settings => settings::run(ctx, d, &given).await,
        Run::Tournament => tournament::act(ctx, d, d.command(&given)).await,
        Run::NewTournament => tournament::new(ctx, d, given).await,
        Run::Animation => animation::run(ctx, d.command(&given)).await,
    }
}

/// [`run_declared`] as the [`declared::Route`] every poise command hands its interactions to.
fn route<'a>(
    ctx: context::Ctx<'a>,
    d: &'static Declared,
    given: Vec<(&'static str, String)>,
) -> poise::BoxFuture<'a, Result<(), BotError>> {
    Box::pin(run_declared(ctx, d, given))
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
            commands: declared::commands(route),
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
        .setup(move |ctx, ready, _framework| {
            Box::pin(async move {
                let commands = declared::registration();
                let count = commands.len();
                match guild {
                    Some(g) => {
                        g.set_commands(ctx, commands).await?;
                    }
                    None => {
                        serenity::Command::set_global_commands(ctx, commands).await?;
                    }
                }
                tracing::info!(bot = %ready.user.id, guild = ?guild, count, "commands registered");
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
    use std::collections::{BTreeMap, BTreeSet};

    /// The slash commands as Discord receives them at registration: servers and users must see
    /// no change unless one is meant. `UPDATE_SNAPSHOT=1 cargo test --lib registration` rewrites
    /// `tests/data/registration.json` after an intended change. The commands are compared by
    /// name: Discord's bulk registration is a set (its clients sort the list themselves), and
    /// the declarations list the shared commands before the games' own.
    #[test]
    fn registration_matches_the_snapshot() {
        let commands = declared::registration();
        let json = serde_json::to_string_pretty(&commands).unwrap() + "\n";
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/registration.json");
        if std::env::var_os("UPDATE_SNAPSHOT").is_some_and(|v| v == "1") {
            std::fs::write(&path, &json).unwrap();
            return;
        }
        let by_name = |text: &str| -> BTreeMap<String, serde_json::Value> {
            let list: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
            list.into_iter()
                .map(|c| (c["name"].as_str().unwrap().to_string(), c))
                .collect()
        };
        let want = std::fs::read_to_string(&path).unwrap();
        if by_name(&want) != by_name(&json) {
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

    /// The files of `src/discord` other than this one that a file's source names: every
    /// `super::<file>` path (in `use` lists too: `use super::{a::x, b}`) and every
    /// `crate::discord::<file>` path, comments left out.
    fn named_files(source: &str, files: &BTreeSet<String>) -> BTreeSet<String> {
        let code: String = source
            .lines()
            .map(|l| l.find("//").map_or(l, |i| &l[..i]))
            .collect::<Vec<_>>()
            .join("\n");
        let ident = |s: &str| -> String {
            s.trim_start()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        };
        let mut named = BTreeSet::new();
        for prefix in ["super::", "crate::discord::"] {
            for (at, _) in code.match_indices(prefix) {
                let rest = &code[at + prefix.len()..];
                let mut heads = Vec::new();
                if let Some(list) = rest.strip_prefix('{') {
                    // The top-level items of the list, up to its closing brace.
                    let (mut depth, mut item) = (0, String::new());
                    for c in list.chars() {
                        match c {
                            '{' => depth += 1,
                            '}' if depth == 0 => break,
                            '}' => depth -= 1,
                            ',' if depth == 0 => {
                                heads.push(ident(&item));
                                item.clear();
                                continue;
                            }
                            _ => {}
                        }
                        if depth == 0 {
                            item.push(c);
                        }
                    }
                    heads.push(ident(&item));
                } else {
                    heads.push(ident(rest));
                }
                named.extend(heads.into_iter().filter(|h| files.contains(h)));
            }
        }
        named
    }

    /// The files of `src/discord` name one another without a circle: following what each
    /// file names from file to file never comes back (`mod.rs`, which only wires them, is
    /// left out). The plumbing names no game, and only `mod.rs` names the tournament's
    /// commands.
    #[test]
    fn the_files_of_discord_form_no_circle() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/discord");
        let mut sources = BTreeMap::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            if path.extension().is_some_and(|e| e == "rs") && stem != "mod" {
                sources.insert(stem.to_string(), std::fs::read_to_string(&path).unwrap());
            }
        }
        let names = names_between(&sources);
        let names_of = |file: &str| names.get(file).cloned().unwrap_or_default();
        // The reading finds the references that are there.
        assert!(names_of("slash").contains("respond"), "{names:?}");
        assert!(names_of("slash").contains("context"), "{names:?}");
        assert!(names_of("tournament").contains("slash"), "{names:?}");
        assert!(names_of("anywhere").contains("slash"), "{names:?}");
        let games = ["settings", "tournament", "anywhere", "animation"];
        for plumbing in [
            "context", "respond", "buttons", "slash", "events", "declared",
        ] {
            for game in games {
                assert!(
                    !names_of(plumbing).contains(game),
                    "{plumbing}.rs names {game}.rs: the plumbing must not name a game"
                );
            }
        }
        for (file, named) in &names {
            assert!(
                !named.contains("tournament"),
                "{file}.rs names tournament.rs: only mod.rs wires it"
            );
        }
        let circle = in_a_circle(&names);
        assert!(
            circle.is_empty(),
            "the files of src/discord name one another in a circle: {circle:?}"
        );
    }

    /// The string literals of a source (escapes kept as written), comments and char literals
    /// left out.
    fn literals(source: &str) -> Vec<String> {
        let chars: Vec<char> = source.chars().collect();
        let (mut out, mut i) = (Vec::new(), 0);
        while i < chars.len() {
            match chars[i] {
                '/' if chars.get(i + 1) == Some(&'/') => {
                    while i < chars.len() && chars[i] != '\n' {
                        i += 1;
                    }
                }
                '\'' if chars.get(i + 1) == Some(&'\\') || chars.get(i + 2) == Some(&'\'') => {
                    // A char literal ('"', '\n'); a lifetime has no closing quote.
                    i += 2;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                }
                'r' if chars.get(i + 1) == Some(&'#') || chars.get(i + 1) == Some(&'"') => {
                    let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
                    let start = i + 1 + hashes;
                    if chars.get(start) != Some(&'"') {
                        i += 1;
                        continue;
                    }
                    let close: String = std::iter::once('"')
                        .chain(std::iter::repeat_n('#', hashes))
                        .collect();
                    let rest: String = chars[start + 1..].iter().collect();
                    let end = rest.find(&close).unwrap_or(rest.len());
                    out.push(rest[..end].to_string());
                    i = start + 1 + rest[..end].chars().count() + close.chars().count();
                }
                '"' => {
                    let mut lit = String::new();
                    i += 1;
                    while i < chars.len() && chars[i] != '"' {
                        if chars[i] == '\\' {
                            lit.push(chars[i]);
                            i += 1;
                        }
                        if let Some(c) = chars.get(i) {
                            lit.push(*c);
                        }
                        i += 1;
                    }
                    out.push(lit);
                    i += 1;
                }
                c if c.is_alphanumeric() || c == '_' => {
                    // A word (so that the `r` of `for"` or `bar#` is not a raw string).
                    while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                        i += 1;
                    }
                }
                _ => i += 1,
            }
        }
        out
    }

    /// Whether a string literal names a command: it is a command's name or path
    /// (`"leaderboard"`, `"tournament export"`), or it says `/<command>` in a sentence.
    fn names_a_command(lit: &str, names: &BTreeSet<&str>) -> bool {
        if names.contains(lit) {
            return true;
        }
        lit.match_indices('/').any(|(at, _)| {
            let word: String = lit[at + 1..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            names.contains(word.as_str())
        })
    }

    /// Every command's names: its path, and its group's.
    fn command_names() -> BTreeSet<&'static str> {
        let mut names = BTreeSet::new();
        for e in crate::commands::declare::entries() {
            names.insert(e.name());
            names.extend(e.commands().iter().map(|d| d.path));
        }
        names
    }

    /// No file of `src/discord` names a command (tests left out): what a command needs is
    /// part of its declaration, and the front end routes every command by it.
    #[test]
    fn no_file_of_discord_names_a_command() {
        let names = command_names();
        assert!(names.contains("tournament export") && names.contains("move"));
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/discord");
        let mut found = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap();
            let code = source.split("#[cfg(test)]").next().unwrap();
            for lit in literals(code) {
                if names_a_command(&lit, &names) {
                    found.push(format!("{}: {lit:?}", path.display()));
                }
            }
        }
        assert!(
            found.is_empty(),
            "commands named in src/discord: {found:#?}"
        );
    }

    /// The reading above finds the commands named, in code only.
    #[test]
    fn a_command_named_in_a_literal_is_found() {
        let source = r##"
            // "mygames" in a comment
            let c = '"'; let l: &'static str = "x";
            match d.path { "rating" | "stats" => {} }
            let t = "run /leaderboard there";
            let r = r#"a "raw" /tournament"#;
            let ok = "ratings and a path/to";
        "##;
        let lits = literals(source);
        assert_eq!(
            lits,
            [
                "x",
                "rating",
                "stats",
                "run /leaderboard there",
                "a \"raw\" /tournament",
                "ratings and a path/to"
            ]
        );
        let names = command_names();
        let named: Vec<bool> = lits.iter().map(|l| names_a_command(l, &names)).collect();
        assert_eq!(named, [false, true, true, true, true, false]);
    }

    /// The check above finds a circle where there is one, through `use` lists and paths.
    #[test]
    fn a_circle_between_files_is_found() {
        let sources: BTreeMap<String, String> = [
            ("a", "use super::b::x;\n// super::d is only a comment"),
            ("b", "use super::{c::y, other};"),
            ("c", "fn f() { super::a::z() }"),
            ("d", "use super::{a, b::w};"),
        ]
        .into_iter()
        .map(|(f, s)| (f.to_string(), s.to_string()))
        .collect();
        let names = names_between(&sources);
        assert_eq!(names["a"], BTreeSet::from(["b".to_string()]));
        assert_eq!(names["d"].len(), 2);
        let circle = in_a_circle(&names);
        assert_eq!(circle, ["a", "b", "c", "d"].map(String::from).into());
    }

    /// What each file names ([`named_files`]), itself left out.
    fn names_between(sources: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
        let files: BTreeSet<String> = sources.keys().cloned().collect();
        sources
            .iter()
            .map(|(file, source)| {
                let mut named = named_files(source, &files);
                named.remove(file);
                (file.clone(), named)
            })
            .collect()
    }

    /// The files in a circle, or depending on one: what is left after taking away, again and
    /// again, the files that name no file left. Empty when there is no circle.
    fn in_a_circle(names: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<String> {
        let mut left = names.clone();
        loop {
            let free: Vec<String> = left
                .iter()
                .filter(|(_, named)| named.iter().all(|n| !left.contains_key(n)))
                .map(|(file, _)| file.clone())
                .collect();
            if free.is_empty() {
                return left.into_keys().collect();
            }
            for file in free {
                left.remove(&file);
            }
        }
    }
}
