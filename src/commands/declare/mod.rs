//! Every slash command the bot serves, gathered from their declarations: the commands every
//! game shares ([`shared`]), the tournaments' ([`tournament`]) and each registered game's own
//! ([`GameKind::declared`](crate::layer::GameKind)). The declaration types are the layer's
//! ([`crate::layer::declare`]); this module answers questions about all of them at once.

pub mod shared;
pub mod tournament;

pub use crate::layer::declare::*;

use super::registry::kinds;
use crate::layer::Command;
use crate::layer::GameKind;

/// Every top-level command, in the order they are registered: the shared ones, the
/// tournaments', then each game's own.
pub fn entries() -> Vec<&'static Entry> {
    let mut all: Vec<&'static Entry> = shared::ENTRIES.iter().collect();
    all.extend(tournament::ENTRIES.iter());
    for k in kinds() {
        all.extend(k.declared.iter());
    }
    all
}

/// Every command and subcommand.
pub fn all() -> impl Iterator<Item = &'static Declared> {
    entries().into_iter().flat_map(Entry::commands)
}

/// How the command is run, as its declaration says ([`Run`]): the front ends and the service
/// route by it, never by the command's name. A group typed alone (`/tournament`) runs as its
/// first subcommand does; a command not declared is the thread's game's ([`Run::Act`]).
pub fn run_of(cmd: &Command) -> Run {
    let group = |d: &Declared| d.path.split_once(' ').is_some_and(|(g, _)| g == cmd.name);
    all()
        .find(|d| d.path == cmd.name)
        .or_else(|| all().find(|d| group(d)))
        .map_or(Run::Act, |d| d.run)
}

/// Whether a group's subcommand is part of the command's name (`/kfb new`, `/proxy grant`).
pub fn takes_subcommand(name: &str) -> bool {
    all().any(|d| d.layer == Layer::Path && d.path.split_once(' ').is_some_and(|(g, _)| g == name))
}

/// Whether a console option's value is the rest of the line.
pub fn runs_to_end(key: &str) -> bool {
    all().any(|d| {
        d.options
            .iter()
            .any(|o| o.kind == Kind::Line && o.name == key)
    })
}

/// Refuses an option the command does not have, naming those it has. Commands that are not
/// declared, and options that a `/set`-like command takes by value, are the layer's to read.
///
/// # Errors
/// The refusal's text.
pub fn check(cmd: &Command) -> Result<(), String> {
    let candidates: Vec<&Declared> = all()
        .filter(|d| match d.layer {
            Layer::Path => d.path == cmd.name,
            Layer::Word => d.path.split_once(' ').is_some_and(|(g, _)| g == cmd.name),
        })
        .collect();
    if candidates.is_empty()
        || candidates
            .iter()
            .any(|d| d.options.iter().any(|o| matches!(o.to, To::KeyOf(_))))
    {
        return Ok(());
    }
    // An option given twice is refused, never read once (`/replay from:1 from:2`).
    let repeated = cmd.options.iter().enumerate().find(|(i, (k, _))| {
        cmd.options
            .iter()
            .take(*i)
            .any(|(j, _)| j.eq_ignore_ascii_case(k))
    });
    if let Some((_, (k, _))) = repeated {
        return Err(format!(
            "/{} has {k}: twice; give each option once",
            cmd.name
        ));
    }
    let known = |key: &str| {
        candidates
            .iter()
            .any(|d| d.options.iter().any(|o| o.name.eq_ignore_ascii_case(key)))
    };
    match cmd.options.iter().find(|(k, _)| !known(k)) {
        None => Ok(()),
        Some((k, _)) => {
            let mut names: Vec<&str> = candidates
                .iter()
                .flat_map(|d| d.options.iter())
                .filter(|o| o.shown != Shown::Alias)
                .map(|o| o.name)
                .collect();
            names.sort_unstable();
            names.dedup();
            let has = if names.is_empty() {
                "it takes no options".to_string()
            } else {
                format!("its options are {}", names.join(", "))
            };
            Err(format!(
                "/{} has no option {k}: {has} (see /help)",
                cmd.name
            ))
        }
    }
}

/// `/help`'s line for a game: its title, then every command it has, its own first.
pub fn help_line(variant: &str, title: &str) -> String {
    let own = kinds()
        .into_iter()
        .filter(|k| k.variant == variant)
        .flat_map(|k| k.declared.iter())
        .flat_map(Entry::commands);
    let shared = shared::ENTRIES.iter().flat_map(Entry::commands);
    let lines: Vec<String> = own
        .chain(shared)
        .filter(|d| d.games == EVERY || d.games.contains(&variant))
        .map(|d| d.usage(Some(variant)))
        .collect();
    format!("{title}: {}", lines.join(" | "))
}

/// `/help` in a game's thread (or with `game:`): its players' commands first, one a line with
/// what it does, its own before the shared ones; then those only organisers, moderators and
/// the game's officials use.
pub fn help_text(variant: &str, title: &str) -> String {
    let own = kinds()
        .into_iter()
        .filter(|k| k.variant == variant)
        .flat_map(|k| k.declared.iter())
        .flat_map(Entry::commands);
    let shared = shared::ENTRIES.iter().flat_map(Entry::commands);
    let (players, officials): (Vec<&Declared>, Vec<&Declared>) = own
        .chain(shared)
        .filter(|d| d.games == EVERY || d.games.contains(&variant))
        .partition(|d| d.who == Who::Anyone);
    let line = |d: &&Declared| format!("{}: {}", d.usage(Some(variant)), d.description);
    let mut out = vec![format!("{title}, the players' commands:")];
    out.extend(players.iter().map(line));
    if !officials.is_empty() {
        out.push("For organisers, moderators and the game's officials:".into());
        out.extend(officials.iter().map(line));
    }
    out.join("\n")
}

/// `/help`'s line for the commands of no game: a player's own (`/mygames`, `/notify`,
/// `/vacation`), `/help` and the server's `/settings`.
pub fn anywhere_help() -> String {
    let lines: Vec<String> = shared::ENTRIES
        .iter()
        .flat_map(Entry::commands)
        .filter(|d| d.games.is_empty())
        .map(|d| d.usage(None))
        .collect();
    format!("Anywhere: {}", lines.join(" | "))
}

/// `/help`'s line for tournaments.
pub fn tournament_help() -> String {
    let lines: Vec<String> = tournament::ENTRIES
        .iter()
        .flat_map(Entry::commands)
        .map(|d| d.usage(None))
        .collect();
    format!("Tournaments: {}", lines.join(" | "))
}

/// The games a command is declared for (by name, or by its group's name), to tell a
/// player which game it belongs to when used elsewhere; none for a command of every game.
pub fn owners_of_command(name: &str) -> Vec<&'static GameKind> {
    let group = name.split_whitespace().next().unwrap_or(name);
    let games: Vec<&str> = all()
        .filter(|d| d.path == name || d.path.split_whitespace().next() == Some(group))
        .flat_map(|d| d.games.iter().copied())
        .collect();
    if games.contains(&"*") {
        return Vec::new();
    }
    kinds()
        .into_iter()
        .filter(|k| games.contains(&k.variant) || k.group == group)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_run_as_declared_whatever_their_name() {
        let run = |text: &str| run_of(&crate::commands::parse_command(text).expect("a command"));
        assert_eq!(run("/mygames"), Run::Anywhere(Desk::MyGames));
        assert_eq!(run("/vacation days:3"), Run::Anywhere(Desk::Vacation));
        assert_eq!(run("/leaderboard"), Run::Anywhere(Desk::Leaderboard));
        assert_eq!(run("/replay"), Run::Animation);
        assert_eq!(run("/signup"), Run::Tournament);
        assert_eq!(run("/withdraw"), Run::Tournament);
        assert_eq!(run("/tournament pair"), Run::Tournament);
        assert_eq!(run("/tournament new name:x"), Run::NewTournament);
        assert_eq!(run("/tournament"), Run::NewTournament);
        assert_eq!(run("/move e2-e4"), Run::Act);
        assert_eq!(run("/status"), Run::Act);
        assert_eq!(run("/no-such-command"), Run::Act);
        // Every tournament command, by name, runs as one: the service serialises them.
        for d in all() {
            let cmd = crate::layer::Command {
                name: d.path.to_string(),
                ..Default::default()
            };
            let tournament =
                d.path == "signup" || d.path == "withdraw" || d.path.starts_with("tournament ");
            assert_eq!(
                matches!(run_of(&cmd), Run::Tournament | Run::NewTournament),
                tournament,
                "/{}",
                d.path
            );
        }
    }

    #[test]
    fn every_description_fits_discord() {
        for e in entries() {
            if let Entry::Group { description, .. } = e {
                assert!(description.chars().count() <= 100, "{description}");
            }
            for d in e.commands() {
                assert!(d.description.chars().count() <= 100, "{}", d.path);
                for o in d.options {
                    assert!(
                        o.description.chars().count() <= 100,
                        "{} {}",
                        d.path,
                        o.name
                    );
                }
            }
        }
    }

    #[test]
    fn names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for e in entries() {
            assert!(seen.insert(e.name()), "{} twice", e.name());
        }
    }

    #[test]
    fn a_command_reads_as_typed_on_the_console() {
        let give = all().find(|d| d.path == "give").unwrap();
        let cmd = give.command(&[("to", "@7".into())]);
        assert_eq!(cmd.opt("piece"), Some("K"));
        assert_eq!(cmd.opt("to"), Some("@7"));
        let put = all().find(|d| d.path == "edit put").unwrap();
        let cmd = put.command(&[("square", "A:d1".into()), ("piece", "Q1".into())]);
        assert_eq!(cmd.name, "edit");
        assert_eq!(cmd.positional, vec!["put".to_string()]);
        let set = all().find(|d| d.path == "set").unwrap();
        let cmd = set.command(&[("setting", "pace".into()), ("value", "live".into())]);
        assert_eq!(cmd.options, vec![("pace".to_string(), "live".to_string())]);
        let propose = all().find(|d| d.path == "propose").unwrap();
        let cmd = propose.command(&[("text", "Repeal rule 3".into()), ("number", "4".into())]);
        assert_eq!(cmd.options.last().unwrap().0, "text");
    }

    #[test]
    fn unknown_options_are_refused_with_the_known_ones() {
        let cmd = super::super::parse_command("/move e2-e4 bord:2").unwrap();
        let e = check(&cmd).unwrap_err();
        assert!(e.contains("no option bord") && e.contains("board"), "{e}");
        let cmd = super::super::parse_command("/move e2-e4 board:2").unwrap();
        assert!(check(&cmd).is_ok());
        let cmd = super::super::parse_command("/set part1_limit:5m").unwrap();
        assert!(check(&cmd).is_ok());
    }
}
