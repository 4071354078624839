//! `/rating`, `/leaderboard` and `/stats` (issue 57), and the rating changes told at the end
//! of a game: the service reads each finished game's result and its players' waits once into
//! a summary, kept by thread with the game's stored version, and [`crate::rating::compute`]s
//! the ratings from the summaries on each question. A game whose version changed (a move, a
//! revert, a corrected result) is read again, so the log stays the truth; with 100k stored
//! games only the changed ones are replayed, and a listing of threads and versions is all
//! the database gives otherwise.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use super::{internal_error, lock, Service};
use crate::commands::{Caller, Command, Reply, ThreadGame};
use crate::rating::{self, GameResult, Rating, Table};
use crate::store::StoreError;
use crate::time::{format_duration, Timestamp};

/// The games rated, as `/rating game:` and `/leaderboard game:` name them.
pub const GAMES: &[&str] = &["kfb", "ultimate", "chex", "party", "nomic"];

/// How many players `/leaderboard` lists.
pub const LEADERBOARD: usize = 20;

/// A computed table kept with the fingerprint of the games and versions it was computed from.
pub(super) type Kept = (u64, Arc<Table>);

/// What the ratings and `/stats` read of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The game's stored version when read (`None` without a database).
    pub version: Option<i64>,
    /// Its kind.
    pub variant: String,
    /// Its server.
    pub guild: Option<String>,
    /// Its result, once finished.
    pub result: Option<GameResult>,
    /// Each seated player's waits: (player, seconds from the game waiting on them to their
    /// action).
    pub waits: Vec<(String, u64)>,
}

/// A game's summary: its result (when finished, at its last action in effect) and its
/// players' waits. A wait runs from the last action in effect by someone else (the game's
/// start for the first) to the player's action; a player's actions in a row count once.
pub fn summarize(game: &dyn ThreadGame, version: Option<i64>, guild: Option<String>) -> Summary {
    let result = game.placings().map(|sides| GameResult {
        thread: String::new(),
        at: game.last_change().unwrap_or(0),
        sides,
    });
    let users = game.users();
    let reverted = game.reverted();
    let mut waits = Vec::new();
    let mut last: Option<(String, Timestamp)> = None;
    for i in 0..game.log_len() {
        if reverted.get(i).copied().unwrap_or(false) {
            continue;
        }
        let Some(Ok(row)) = game.row(i) else { continue };
        // Numbered actions count, and the game's start (its first entry).
        if row.number.is_none() && i > 0 {
            continue;
        }
        if let Some((by, since)) = &last {
            if *by != row.actor && users.contains(&row.actor) {
                waits.push((row.actor.clone(), row.time.saturating_sub(*since)));
            }
        }
        last = Some((row.actor, row.time));
    }
    Summary {
        version,
        variant: game.kind().variant.to_string(),
        guild,
        result,
        waits,
    }
}

/// The kind named by `game:` (its variant), refused when unknown.
fn variant_of(cmd: &Command) -> Result<Option<&'static str>, String> {
    match cmd.opt("game") {
        None => Ok(None),
        Some(g) => {
            let g = g.trim().to_ascii_lowercase();
            GAMES
                .iter()
                .find(|v| **v == g)
                .copied()
                .map(Some)
                .ok_or(format!(
                    "refused: there is no game {g}; game: is one of {}",
                    GAMES.join(", ")
                ))
        }
    }
}

/// The game's name for players.
fn title(variant: &str) -> &'static str {
    crate::commands::kind_of(variant).map_or("?", |k| k.title)
}

/// The player asked about: `player:@x`, or the caller.
fn player_of(caller: &Caller<'_>, cmd: &Command) -> String {
    cmd.opt("player")
        .map(crate::layer::mention)
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| caller.user.to_string())
}

/// The median and the largest of some waits.
fn median_max(waits: &mut [u64]) -> Option<(u64, u64)> {
    waits.sort_unstable();
    let n = waits.len();
    let max = *waits.last()?;
    let median = if n % 2 == 1 {
        waits[n / 2]
    } else {
        (waits[n / 2 - 1] + waits[n / 2]) / 2
    };
    Some((median, max))
}

/// `1st`, `2nd`, `3rd`, `4th`…
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// One game's `/stats` line for `player`, or `None` when they played none of its finished
/// games.
pub fn stats_line(player: &str, variant: &str, games: &[Summary]) -> Option<String> {
    let mine: Vec<&Summary> = games
        .iter()
        .filter(|s| s.variant == variant)
        .filter(|s| {
            s.result.as_ref().is_some_and(|r| {
                r.sides
                    .iter()
                    .any(|d| d.players.iter().any(|p| p == player))
            })
        })
        .collect();
    if mine.is_empty() {
        return None;
    }
    let (mut won, mut drawn, mut lost) = (0, 0, 0);
    let mut places: std::collections::BTreeMap<u32, u32> = Default::default();
    let mut two_sided = true;
    for s in &mine {
        let Some(r) = &s.result else { continue };
        let Some(me) = r
            .sides
            .iter()
            .find(|d| d.players.iter().any(|p| p == player))
        else {
            continue;
        };
        two_sided &= r.sides.len() == 2;
        *places.entry(me.place).or_default() += 1;
        let level = r.sides.iter().filter(|d| d.place == me.place).count();
        match (me.place, level) {
            (1, 1) => won += 1,
            (1, _) => drawn += 1,
            _ => lost += 1,
        }
    }
    let results = if two_sided {
        format!("{won} won, {drawn} drawn, {lost} lost")
    } else {
        let parts: Vec<String> = places
            .iter()
            .map(|(p, n)| format!("{} ×{n}", ordinal(*p)))
            .collect();
        format!("placed {}", parts.join(", "))
    };
    let mut waits: Vec<u64> = mine
        .iter()
        .flat_map(|s| s.waits.iter())
        .filter(|(p, _)| p == player)
        .map(|(_, w)| *w)
        .collect();
    let acts = waits.len();
    let time = match median_max(&mut waits) {
        Some((median, max)) => format!(
            "time to act: median {}, slowest {} ({acts} actions)",
            format_duration(median),
            format_duration(max)
        ),
        None => "time to act: no actions".to_string(),
    };
    Some(format!(
        "{}: {} games: {results}; {time}",
        title(variant),
        mine.len()
    ))
}

/// The leaderboard as a table to draw: place, player (as `name` calls them), rating,
/// deviation and games, provisional ratings dimmed, the leader tinted.
pub fn leaderboard_view(
    variant: &str,
    table: &Table,
    name: &(dyn Fn(&str) -> String + Sync),
) -> crate::render::TableView {
    let top = table.top(LEADERBOARD);
    let m = table.model;
    crate::render::TableView {
        title: format!("{} leaderboard", title(variant)),
        header: ["#", "player", "rating", "±", "games"]
            .map(String::from)
            .to_vec(),
        rows: top
            .iter()
            .enumerate()
            .map(|(i, (p, r))| {
                vec![
                    (i + 1).to_string(),
                    name(p),
                    m.show(r.rating),
                    m.show(r.deviation),
                    format!("{}{}", r.games, if r.provisional() { "?" } else { "" }),
                ]
            })
            .collect(),
        highlight: if top.is_empty() { vec![] } else { vec![0] },
        dimmed: top
            .iter()
            .enumerate()
            .filter(|(_, (_, r))| r.provisional())
            .map(|(i, _)| i)
            .collect(),
    }
}

impl Service {
    /// `/leaderboard game:`'s picture on one server, players named by `name`; `None` when the
    /// game is not named or the ratings cannot be read (logged).
    pub async fn leaderboard_picture_on(
        &self,
        cmd: &Command,
        guild: Option<&str>,
        name: &(dyn Fn(&str) -> String + Sync),
    ) -> Option<crate::render::TableView> {
        let variant = variant_of(cmd).ok().flatten()?;
        match self.ratings(variant, guild).await {
            Ok(t) => Some(leaderboard_view(variant, &t, name)),
            Err(e) => {
                tracing::error!(error = %e, "the ratings cannot be read");
                None
            }
        }
    }

    /// Notes a game just handled (under its thread's lock): its summary replaces the one
    /// kept, so the ratings read it without loading it again.
    pub(super) fn note_summary(
        &self,
        thread: &str,
        game: &dyn ThreadGame,
        version: Option<i64>,
        guild: Option<&str>,
    ) {
        let s = summarize(game, version, guild.map(str::to_string));
        lock(&self.summaries).insert(thread.to_string(), Arc::new(s));
    }

    /// The finished games of one kind on one server (`guild`; every game when `None`), read
    /// from the database where their version changed since last read.
    ///
    /// # Errors
    /// The database cannot be read.
    async fn finished_summaries(
        &self,
        variant: &str,
        guild: Option<&str>,
    ) -> Result<Vec<(String, Arc<Summary>)>, StoreError> {
        let Some(store) = &self.store else {
            // Without a database, every game passed through the service.
            let kept = lock(&self.summaries);
            return Ok(kept
                .iter()
                .filter(|(_, s)| s.variant == variant && s.result.is_some())
                .filter(|(_, s)| {
                    guild.is_none() || s.guild.is_none() || s.guild.as_deref() == guild
                })
                .map(|(t, s)| (t.clone(), s.clone()))
                .collect());
        };
        let listed = store.finished_games(variant, guild).await?;
        let mut out = Vec::with_capacity(listed.len());
        for (thread, version, server) in listed {
            let kept = lock(&self.summaries)
                .get(&thread)
                .filter(|s| s.version == Some(version))
                .cloned();
            let summary = match kept {
                Some(s) => s,
                None => {
                    let Some(sg) = store.load(&thread).await? else {
                        continue;
                    };
                    let s = Arc::new(summarize(&*sg.game, Some(sg.version), server));
                    lock(&self.summaries).insert(thread.clone(), s.clone());
                    s
                }
            };
            if summary.result.is_some() {
                out.push((thread, summary));
            }
        }
        Ok(out)
    }

    /// The ratings of one game kind (`variant`) on one server (`guild`; every game when
    /// `None`), recomputed from its finished games.
    ///
    /// # Errors
    /// The database cannot be read.
    pub async fn ratings(
        &self,
        variant: &str,
        guild: Option<&str>,
    ) -> Result<Arc<Table>, StoreError> {
        let games = self.finished_summaries(variant, guild).await?;
        // The same games at the same versions give the same table: kept, keyed by them
        // (games without a stored version are never taken as the same).
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        games.len().hash(&mut hasher);
        let mut versioned = true;
        for (thread, s) in &games {
            thread.hash(&mut hasher);
            s.version.hash(&mut hasher);
            versioned &= s.version.is_some();
        }
        let key = (variant.to_string(), guild.map(str::to_string));
        let print = hasher.finish();
        if versioned {
            if let Some((p, t)) = lock(&self.tables).get(&key) {
                if *p == print {
                    return Ok(t.clone());
                }
            }
        }
        let results: Vec<GameResult> = games
            .iter()
            .filter_map(|(thread, s)| {
                s.result.as_ref().map(|r| GameResult {
                    thread: thread.clone(),
                    ..r.clone()
                })
            })
            .collect();
        let table = Arc::new(rating::compute(variant, &results));
        if versioned {
            lock(&self.tables).insert(key, (print, table.clone()));
        }
        Ok(table)
    }

    /// The current ratings of `players` in one game kind on one server (a new player's
    /// rating for those without one): what a tournament seeds by.
    ///
    /// # Errors
    /// The database cannot be read.
    pub async fn current(
        &self,
        guild: Option<&str>,
        variant: &str,
        players: &[String],
    ) -> Result<HashMap<String, Rating>, StoreError> {
        let table = self.ratings(variant, guild).await?;
        Ok(players.iter().map(|p| (p.clone(), table.of(p))).collect())
    }

    /// The ratings a seeding or a pairing in `thread` reads (tournament rules 2.5, 2.6):
    /// before `/tournament teams` or `/tournament pair` of an individual event, those of its
    /// players waiting to be seeded; before every `/tournament pair` of a table event
    /// (Ultimate, Party, Nomic), also those of every active entrant, as the tables rank them.
    /// Only players with a rated game in the event's game count, on the event's server (that
    /// of its match games; every server before any is opened, or on the console). Empty
    /// otherwise, or when they cannot be read (logged: the draw alone then decides).
    pub(crate) async fn seeding_ratings(
        &self,
        hub: &crate::commands::Hub,
        thread: &str,
        cmd: &Command,
    ) -> std::collections::BTreeMap<String, crate::tournament::Seed> {
        let mut out = std::collections::BTreeMap::new();
        let Some(t) = hub.tournament(thread) else {
            return out;
        };
        if !t.individual() || t.finished {
            return out;
        }
        let mut players = Vec::new();
        if matches!(cmd.name.as_str(), "tournament teams" | "tournament pair") {
            players = t.unassigned();
        }
        if cmd.name == "tournament pair" && t.table_event() {
            players.extend(
                t.teams
                    .iter()
                    .filter(|e| !e.withdrawn)
                    .flat_map(|e| e.players.iter().cloned()),
            );
        }
        if players.is_empty() {
            return out;
        }
        let variant = t.settings.game.group();
        let matched = t.boards.iter().find_map(|b| b.thread.clone());
        let guild = match (&self.store, matched) {
            (Some(store), Some(m)) => match store.guild_of(&m).await {
                Ok(g) => g,
                Err(e) => {
                    tracing::error!(thread, error = %e, "the event's server for its ratings");
                    None
                }
            },
            _ => None,
        };
        let model = rating::Model::of(variant);
        match self.ratings(variant, guild.as_deref()).await {
            Ok(table) => {
                for p in players {
                    let r = table.of(&p);
                    if r.games > 0 {
                        let seed = crate::tournament::Seed {
                            tenths: (r.rating * 10.0).round() as i64,
                            shown: model.show(r.rating),
                        };
                        out.insert(p, seed);
                    }
                }
            }
            Err(e) => tracing::error!(thread, error = %e, "ratings for a seeding"),
        }
        out
    }

    /// The line telling a game's rating changes (`ratings: a 1500 → 1662 (+162), …`), for
    /// the end-of-game message; `None` when the game was not rated.
    pub(super) async fn changes_line(
        &self,
        thread: &str,
        variant: &str,
        guild: Option<&str>,
    ) -> Option<String> {
        match self.ratings(variant, guild).await {
            Ok(t) => t.changes_text(thread).map(|c| format!("ratings: {c}")),
            Err(e) => {
                tracing::error!(error = %e, thread, "the ratings cannot be read");
                None
            }
        }
    }

    /// `/rating [player:@x] [game:]` on one server (`guild`; every game when `None`): the
    /// player's rating in the game named, or in every game they played.
    pub async fn rating_on(
        &self,
        caller: &Caller<'_>,
        cmd: &Command,
        guild: Option<&str>,
    ) -> Reply {
        let player = player_of(caller, cmd);
        let variant = match variant_of(cmd) {
            Ok(v) => v,
            Err(why) => return Reply::refused(why.trim_start_matches("refused: ")),
        };
        let mut lines = Vec::new();
        for v in GAMES.iter().filter(|g| variant.is_none_or(|v| v == **g)) {
            let table = match self.ratings(v, guild).await {
                Ok(t) => t,
                Err(e) => return internal_error(&e),
            };
            if variant.is_none() && !table.players.contains_key(&player) {
                continue;
            }
            let r = table.of(&player);
            let mut line = format!("{player}: {} rating {}", title(v), table.line(&r));
            if r.games > 0 {
                line.push_str(&format!(
                    "; last change {}",
                    table.model.show_change(r.last_change)
                ));
            }
            lines.push(line);
        }
        if lines.is_empty() {
            lines.push(format!("{player}: no rated games yet"));
        }
        let mut reply = Reply::ok(lines.join("\n"));
        reply.ephemeral = true;
        reply
    }

    /// `/leaderboard game:` on one server: the top [`LEADERBOARD`] players.
    pub async fn leaderboard_on(&self, cmd: &Command, guild: Option<&str>) -> Reply {
        let variant = match variant_of(cmd) {
            Ok(Some(v)) => v,
            Ok(None) => {
                return Reply::refused(format!(
                    "name the game: /leaderboard game:<{}>",
                    GAMES.join("|")
                ))
            }
            Err(why) => return Reply::refused(why.trim_start_matches("refused: ")),
        };
        let table = match self.ratings(variant, guild).await {
            Ok(t) => t,
            Err(e) => return internal_error(&e),
        };
        let top = table.top(LEADERBOARD);
        if top.is_empty() {
            return Reply::ok(format!(
                "{} leaderboard: no rated games yet",
                title(variant)
            ));
        }
        let mut lines = vec![format!("{} leaderboard:", title(variant))];
        for (i, (p, r)) in top.iter().enumerate() {
            lines.push(format!("{}. {p} {}", i + 1, table.line(r)));
        }
        Reply::ok(lines.join("\n"))
    }

    /// `/stats [player:@x] [game:]` on one server: the player's finished games, results and
    /// times to act, one line per game.
    pub async fn stats_on(&self, caller: &Caller<'_>, cmd: &Command, guild: Option<&str>) -> Reply {
        let player = player_of(caller, cmd);
        let variant = match variant_of(cmd) {
            Ok(v) => v,
            Err(why) => return Reply::refused(why.trim_start_matches("refused: ")),
        };
        let mut lines = Vec::new();
        for v in GAMES.iter().filter(|g| variant.is_none_or(|v| v == **g)) {
            let games = match self.finished_summaries(v, guild).await {
                Ok(g) => g,
                Err(e) => return internal_error(&e),
            };
            let games: Vec<Summary> = games.into_iter().map(|(_, s)| (*s).clone()).collect();
            if let Some(line) = stats_line(&player, v, &games) {
                lines.push(format!("{player}: {line}"));
            }
        }
        if lines.is_empty() {
            lines.push(format!("{player}: no finished games"));
        }
        Reply::ok(lines.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::Side;

    fn summary(variant: &str, sides: &[(&str, u32)], waits: &[(&str, u64)]) -> Summary {
        Summary {
            version: None,
            variant: variant.into(),
            guild: None,
            result: Some(GameResult {
                thread: String::new(),
                at: 0,
                sides: sides
                    .iter()
                    .map(|(p, place)| Side {
                        players: vec![p.to_string()],
                        place: *place,
                    })
                    .collect(),
            }),
            waits: waits.iter().map(|(p, w)| (p.to_string(), *w)).collect(),
        }
    }

    #[test]
    fn leaderboard_picture_lists_the_top_players() {
        let results: Vec<GameResult> = (0..6)
            .map(|i| GameResult {
                thread: format!("g{i}"),
                at: i,
                sides: vec![
                    Side {
                        players: vec!["a".into()],
                        place: 1,
                    },
                    Side {
                        players: vec![format!("p{i}")],
                        place: 2,
                    },
                ],
            })
            .collect();
        let table = rating::compute("chex", &results);
        let view = leaderboard_view("chex", &table, &|p| p.to_uppercase());
        assert_eq!(view.rows.len(), 7);
        assert_eq!(view.rows[0][1], "A");
        assert_eq!(view.rows[0][4], "6");
        assert!(view.rows[1][4].ends_with('?'));
        assert_eq!(view.dimmed, (1..7).collect::<Vec<_>>());
        let png = crate::render::render_table(&view).expect("drawn");
        assert!(png.starts_with(b"\x89PNG"));
    }

    #[test]
    fn stats_count_results_and_times_to_act() {
        let games = vec![
            summary("chex", &[("a", 1), ("b", 2)], &[("a", 60), ("b", 7200)]),
            summary("chex", &[("a", 1), ("c", 1)], &[("a", 120), ("a", 3600)]),
            summary("chex", &[("c", 1), ("a", 2)], &[("a", 30)]),
            summary("chex", &[("c", 1), ("b", 2)], &[("c", 1)]),
        ];
        assert_eq!(
            stats_line("a", "chex", &games).as_deref(),
            Some("Chex: 3 games: 1 won, 1 drawn, 1 lost; time to act: median 1m30s, slowest 1h (4 actions)")
        );
        assert_eq!(stats_line("z", "chex", &games), None);
        let party = vec![
            summary("party", &[("a", 2), ("b", 1), ("c", 3)], &[]),
            summary("party", &[("a", 2), ("b", 1), ("c", 2)], &[]),
        ];
        assert_eq!(
            stats_line("a", "party", &party).as_deref(),
            Some("Party Chess: 2 games: placed 2nd ×2; time to act: no actions")
        );
    }
}
