//! Tournament commands (tournament rules 2.1–2.4):
//! `/tournament new|teams|pair|result|standings|export|withdraw`, `/signup`, `/withdraw`, and
//! the link between a match's game and its tournament.

use super::Hub;
use crate::games::kfb::adapter::{game_announcement, new_game_notify};
use crate::games::kfb::Game;
use crate::layer::MatchOpen;
use crate::layer::{mention, Caller, Command, Notify, Reply};
use crate::time::{format_duration, parse_duration, Timestamp};
use crate::tournament;
use crate::tournament::{EventGame, Format, MatchResult, PairOutcome, Settings, Tournament};

impl MatchOpen {
    /// The match on board `b` of the tournament in `thread`.
    fn of(t: &Tournament, thread: &str, b: &tournament::Board) -> MatchOpen {
        MatchOpen {
            tournament: thread.to_string(),
            round: b.round,
            board: b.board,
            slot: if b.is_table() { "t" } else { "b" },
            title: if b.is_table() {
                format!(
                    "{}: round {} table {} ({})",
                    t.name,
                    b.round,
                    b.board,
                    b.players.join(", ")
                )
            } else if t.individual() {
                format!(
                    "{}: round {} board {} ({} vs {})",
                    t.name,
                    b.round,
                    b.board,
                    t.board_label(b, b.white),
                    t.board_label(b, b.black)
                )
            } else {
                format!(
                    "{}: round {} board {} (Team {} vs Team {})",
                    t.name, b.round, b.board, b.white, b.black
                )
            },
        }
    }
}

fn accepted(text: impl Into<String>) -> Reply {
    Reply::ok(text)
}

fn private(text: impl Into<String>) -> Reply {
    Reply {
        ok: Some(true),
        text: text.into(),
        ephemeral: true,
        ..Reply::default()
    }
}

fn number(cmd: &Command, key: &str) -> Result<Option<u32>, String> {
    match cmd.opt(key) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse::<u32>()
            .map(Some)
            .map_err(|_| format!("{key} must be a whole number")),
    }
}

/// The options `/tournament new` reads itself; a non-KFB event passes the others to its games.
const EVENT_OPTIONS: &[&str] = &[
    "name",
    "game",
    "format",
    "rounds",
    "table",
    "points",
    "losses_to_eliminate",
];

/// The game kind that creates `game`'s matches.
fn kind_of(game: EventGame) -> Option<&'static crate::layer::game::GameKind> {
    super::registry::KINDS
        .iter()
        .copied()
        .find(|k| k.group == game.group())
}

/// The `/<game> new` that starts a match of `players` (seat order) with the event's options.
fn match_command(game: EventGame, options: &[(String, String)], players: &[String]) -> Command {
    let mut options = options.to_vec();
    match game {
        EventGame::Ultimate if players.len() == 4 => {
            for (seat, p) in ["silver", "red", "black", "green"].iter().zip(players) {
                options.push((seat.to_string(), p.clone()));
            }
        }
        EventGame::Party => options.push(("swingers".to_string(), players.join(" "))),
        _ => options.push(("players".to_string(), players.join(" "))),
    }
    Command {
        name: format!("{} new", game.group()),
        positional: Vec::new(),
        options,
    }
}

/// A non-KFB event's settings (tournament rules 2.5): its game, format, points and the
/// game's own options, tried on a game of stand-in players so that a bad option is refused
/// now rather than at the first pairing.
fn event_settings(cmd: &Command, game: EventGame, caller: &Caller<'_>) -> Result<Settings, String> {
    let mut s = Settings {
        game,
        losses_to_eliminate: 0,
        ..Settings::default()
    };
    if let Some(f) = cmd.opt("format") {
        s.format = Format::parse(f)?;
    }
    if let Some(l) = number(cmd, "losses_to_eliminate")? {
        s.losses_to_eliminate = l;
    }
    if let Some(r) = number(cmd, "rounds")? {
        if r == 0 {
            return Err("rounds must be at least 1".into());
        }
        s.rounds = Some(r);
    }
    if game.tables() {
        if s.format == Format::RoundRobin {
            return Err(format!(
                "{} events are a Swiss of tables: format:roundrobin is for two-player games",
                game.title()
            ));
        }
        let (lo, hi) = game.table_sizes();
        let size = number(cmd, "table")?.unwrap_or(lo.max(4).min(hi));
        if size < lo || size > hi {
            return Err(if lo == hi {
                format!("a table of {} seats {lo}", game.title())
            } else {
                format!("table: takes {lo} to {hi} players for {}", game.title())
            });
        }
        s.table = Some(size);
        if s.losses_to_eliminate > 0 {
            return Err(
                "a Swiss of tables eliminates nobody: losses_to_eliminate is for two-sided matches"
                    .into(),
            );
        }
        if let Some(p) = cmd.opt("points") {
            s.places = crate::tournament::individual::parse_place_points(p)?;
        }
    } else {
        if cmd.opt("table").is_some() {
            return Err(format!(
                "{} is played by two: it has no tables",
                game.title()
            ));
        }
        s.match_points = Some(match cmd.opt("points") {
            Some(p) => crate::tournament::individual::parse_match_points(p)?,
            None => [10, 5, 0, 10],
        });
    }
    let kind = kind_of(game).ok_or_else(|| format!("{} is not available", game.title()))?;
    let new = format!("{} new", game.group());
    let allowed: Vec<&str> = kind
        .declared
        .iter()
        .flat_map(super::declare::Entry::commands)
        .filter(|d| d.path == new)
        .flat_map(|d| d.options.iter().map(|o| o.name))
        .filter(|o| {
            !matches!(
                *o,
                "players"
                    | "white"
                    | "black"
                    | "swingers"
                    | "silver"
                    | "red"
                    | "green"
                    | "seed"
                    | "position"
            )
        })
        .collect();
    for (k, v) in &cmd.options {
        let key = k.to_lowercase();
        if EVENT_OPTIONS.contains(&key.as_str()) {
            continue;
        }
        if !allowed.contains(&key.as_str()) {
            let mut names: Vec<&str> = allowed.clone();
            names.sort_unstable();
            return Err(format!(
                "{key}: is not an option of a {} event (its games take {})",
                game.title(),
                names.join(", ")
            ));
        }
        s.options.push((key, v.clone()));
    }
    let size = s.table.unwrap_or(2) as usize;
    let stand_ins: Vec<String> = (1..=size).map(|i| format!("player{i}")).collect();
    let trial = Caller {
        user: caller.user,
        roles: caller.roles,
        thread: caller.thread,
        now: caller.now,
    };
    (kind.create)(&trial, &match_command(game, &s.options, &stand_ins), 1)
        .map_err(|e| format!("the match games would refuse these options: {e}"))?;
    Ok(s)
}

fn settings_from(cmd: &Command, caller: &Caller<'_>) -> Result<Settings, String> {
    let game = match cmd.opt("game") {
        Some(g) => EventGame::parse(g)?,
        None => EventGame::Kfb,
    };
    if !game.is_kfb() {
        return event_settings(cmd, game, caller);
    }
    if cmd.opt("table").is_some() {
        return Err("Kung Fu Bughouse matches are team against team: it has no tables".into());
    }
    if cmd
        .opt("format")
        .is_some_and(|f| Format::parse(f) != Ok(Format::Swiss))
    {
        return Err("a Kung Fu Bughouse event is a Swiss of teams: format:swiss only".into());
    }
    let mut s = Settings::default();
    if let Some(l) = number(cmd, "losses_to_eliminate")? {
        s.losses_to_eliminate = l;
    }
    if let Some(r) = number(cmd, "rounds")? {
        if r == 0 {
            return Err("rounds must be at least 1".into());
        }
        s.rounds = Some(r);
    }
    if let Some(l) = cmd.opt("move_limit") {
        s.move_limit = parse_duration(l).map_err(|e| e.to_string())?;
    }
    if let Some(n) = number(cmd, "inactivity_posts")? {
        if n == 0 {
            return Err("inactivity_posts must be a whole number above 0".into());
        }
        s.inactivity_posts = n;
    }
    if let Some(v) = cmd.opt("vacation") {
        s.no_vacation = !crate::layer::game::on_off("vacation", v)?;
    }
    if let Some(p) = cmd.opt("points") {
        let parts: Vec<Option<u32>> = p
            .split(['/', ',', '-'])
            .map(|x| x.trim().parse().ok())
            .collect();
        match parts.as_slice() {
            [Some(w), Some(d), Some(l)] if w > d && d >= l => {
                (s.win, s.draw, s.loss) = (*w, *d, *l);
            }
            _ => {
                return Err(
                    "points are win/draw/loss, like 2/1/0 (a win worth more than a draw, a draw no less than a loss)"
                        .into(),
                )
            }
        }
    }
    Ok(s)
}

/// An individual event seeds the players waiting before a round is paired: all of them at
/// the first round, late entries before a later Swiss round. Returns the draw's text.
fn seed_before_pairing(
    t: &mut Tournament,
    entropy: u64,
) -> Result<Option<String>, tournament::TournamentError> {
    let r = t.paired_rounds();
    let due = t.individual()
        && !t.finished
        && !t.unassigned().is_empty()
        && (t.teams.is_empty() || (t.settings.format == Format::Swiss && t.missing(r).is_empty()));
    if !due {
        return Ok(None);
    }
    t.seed_players(crate::games::drawn_seed(entropy)).map(Some)
}

impl Hub {
    /// The tournament in a thread.
    pub fn tournament(&self, thread: &str) -> Option<&Tournament> {
        self.tournaments.get(thread)
    }

    /// The tournament in a thread, to change (the service hands it ratings for a seeding).
    pub fn tournament_mut(&mut self, thread: &str) -> Option<&mut Tournament> {
        self.tournaments.get_mut(thread)
    }

    /// Puts a tournament (loaded from storage) in its thread, replacing any there.
    pub fn insert_tournament(&mut self, t: Tournament) {
        self.links.retain(|_, owner| *owner != t.thread);
        for b in &t.boards {
            if let Some(th) = &b.thread {
                self.links.insert(th.clone(), t.thread.clone());
            }
        }
        self.tournaments.insert(t.thread.clone(), t);
    }

    /// Forgets the tournament of a thread.
    pub fn remove_tournament(&mut self, thread: &str) {
        self.tournaments.remove(thread);
        self.links.retain(|_, owner| owner != thread);
    }

    /// Threads with a tournament.
    pub fn tournament_threads(&self) -> Vec<String> {
        let mut v: Vec<String> = self.tournaments.keys().cloned().collect();
        v.sort();
        v
    }

    /// The tournament a match thread belongs to, as far as this hub knows.
    pub fn tournament_of_match(&self, thread: &str) -> Option<String> {
        self.links.get(thread).cloned()
    }

    /// Notes that a match thread belongs to a tournament (found in storage).
    pub fn link_match(&mut self, thread: &str, tournament: &str) {
        self.links
            .insert(thread.to_string(), tournament.to_string());
    }

    pub(super) fn tournament_command(
        &mut self,
        caller: &Caller<'_>,
        entropy: u64,
        cmd: &Command,
    ) -> Reply {
        let Caller {
            user,
            roles,
            thread,
            now,
        } = *caller;
        let name = cmd.name.as_str();
        if name == "tournament new" {
            return self.new_tournament(caller, cmd);
        }
        if name == "tournament help" {
            return private(super::declare::tournament_help());
        }
        let Some(t) = self.tournaments.get_mut(thread) else {
            return Reply::refused(
                "there is no tournament in this thread (an organiser starts one with /tournament new name:<name>)",
            );
        };
        let organiser_only = matches!(
            name,
            "tournament teams"
                | "tournament pair"
                | "tournament result"
                | "tournament withdraw"
                | "tournament substitute"
        );
        if organiser_only && !roles.organiser {
            return Reply::refused(format!(
                "only an organiser may use /{name} (Manage Threads or the organiser role)"
            ));
        }
        let result: Result<Reply, String> = match name {
            "signup" => {
                let mates: Vec<String> = ["mate1", "mate2"]
                    .iter()
                    .filter_map(|k| cmd.opt(k))
                    .flat_map(|v| v.split_whitespace().map(mention).collect::<Vec<_>>())
                    .chain(cmd.positional.iter().map(|p| mention(p)))
                    .collect();
                if mates.len() > 2 {
                    Err("a team has three players: name at most two teammates".to_string())
                } else {
                    let name = t.name.clone();
                    t.signup(user, &mates, now)
                        .map(|text| Reply {
                            // Named mates learn it (and may /withdraw).
                            notify: Notify::to(
                                mates.clone(),
                                format!("{user} signed you up for {name} as teammates (/withdraw if you will not play)"),
                            )
                            .nonempty(),
                            ..accepted(text)
                        })
                        .map_err(|e| e.to_string())
                }
            }
            "withdraw" => t
                .withdraw(user, now)
                .map(accepted)
                .map_err(|e| e.to_string()),
            "tournament withdraw" => (|| {
                let team = number(cmd, "team")?.ok_or("missing team:<number>")?;
                t.withdraw_team(team)
                    .map(accepted)
                    .map_err(|e| e.to_string())
            })(),
            "tournament substitute" => (|| {
                let team = number(cmd, "team")?.ok_or("missing team:<number>")?;
                let player = cmd
                    .opt("player")
                    .map(mention)
                    .ok_or("missing player:@old")?;
                let by = cmd.opt("by").map(mention).ok_or("missing by:@new")?;
                let title = t.name.clone();
                t.substitute(team, &player, &by)
                    .map(|text| Reply {
                        notify: Notify::to(
                            [by.clone()],
                            format!("you play for Team {team} in {title} from its next match, in {player}'s place"),
                        )
                        .and(Notify::to(
                            [player.clone()],
                            format!("{by} takes your place on Team {team} from its next match"),
                        ))
                        .nonempty(),
                        ..accepted(text)
                    })
                    .map_err(|e| e.to_string())
            })(),
            "tournament teams" => (|| {
                let seed = match cmd.opt("seed") {
                    Some(s) => crate::games::parse_seed(s)?,
                    None => entropy,
                };
                t.form_teams(seed).map(accepted).map_err(|e| e.to_string())
            })(),
            "tournament pair" => match seed_before_pairing(t, entropy).and_then(|seeded| {
                t.pair_next().map(|outcome| match (seeded, outcome) {
                    (Some(s), PairOutcome::Round(mut p)) => {
                        p.text = format!("{s}\n{}", p.text);
                        PairOutcome::Round(p)
                    }
                    (_, o) => o,
                })
            }) {
                Ok(PairOutcome::Round(p)) => {
                    let opens = p
                        .boards
                        .iter()
                        .filter(|b| b.is_played() && t.result(b.round, b.board).is_none())
                        .map(|b| MatchOpen::of(t, thread, b))
                        .collect();
                    // Each match's players are notified in its thread when it opens.
                    Ok(Reply {
                        opens,
                        ..accepted(p.text)
                    })
                }
                Ok(PairOutcome::Ended(text)) => Ok(Reply {
                    standings: true,
                    ..accepted(text)
                }),
                Err(e) => {
                    // Matches of the current round whose thread never opened (the bot stopped
                    // in between) are offered again.
                    let opens: Vec<MatchOpen> = t
                        .unopened()
                        .into_iter()
                        .filter_map(|(round, board)| t.board(round, board))
                        .map(|b| MatchOpen::of(t, thread, b))
                        .collect();
                    if opens.is_empty() {
                        Err(e.to_string())
                    } else {
                        Ok(Reply {
                            opens,
                            ..accepted(format!(
                                "reopening the threads of round {} that did not open",
                                t.paired_rounds()
                            ))
                        })
                    }
                }
            },
            "tournament result" => (|| {
                let board = number(cmd, "board")?.ok_or("missing board:<number>")?;
                let round = number(cmd, "round")?.unwrap_or(t.paired_rounds());
                let text = cmd.opt("result").ok_or(
                    "missing result: 1-0 or 0-1 (the first or second team listed won), draw, +- or -+ (forfeit), -- (double forfeit), auto (follow the game)",
                )?;
                if t.table_event() {
                    let places = if text.trim().eq_ignore_ascii_case("auto") {
                        None
                    } else {
                        Some(
                            text.split([' ', ',', '/'])
                                .filter(|w| !w.is_empty())
                                .map(|w| w.parse::<u32>())
                                .collect::<Result<Vec<u32>, _>>()
                                .map_err(|_| {
                                    format!("`{text}` is not a table's places: one place a seat, in seat order, like 1 2 2 4, or auto (follow the game)")
                                })?,
                        )
                    };
                    return t
                        .set_table_result(round, board, places, user, now)
                        .map(accepted)
                        .map_err(|e| e.to_string());
                }
                let result = if text.trim().eq_ignore_ascii_case("auto") {
                    None
                } else {
                    Some(MatchResult::parse(text).map_err(|e| e.to_string())?)
                };
                t.set_result(round, board, result, user, now)
                    .map(accepted)
                    .map_err(|e| e.to_string())
            })(),
            "tournament standings" => t
                .standings_text()
                .map(|text| Reply {
                    standings: true,
                    ..accepted(text)
                })
                .map_err(|e| e.to_string()),
            "tournament export" => t.export().map(private).map_err(|e| e.to_string()),
            "tournament pairings" => (|| {
                let last = t.paired_rounds();
                if last == 0 {
                    return Err("no round has been paired yet".to_string());
                }
                let round = number(cmd, "round")?.unwrap_or(last);
                if round == 0 || round > last {
                    return Err(format!(
                        "there is no round {round}: rounds 1 to {last} have been paired"
                    ));
                }
                Ok(private(t.pairing_text(round)))
            })(),
            "tournament" | "tournament status" => Ok(private(t.summary())),
            other => Err(format!("unknown command /{other}; try /tournament help")),
        };
        let mut reply = match result {
            Ok(r) => r,
            Err(e) => Reply::refused(e),
        };
        if name == "tournament result" && reply.ok == Some(true) {
            // Back to `auto`: the game's own result, if it has one, applies at once.
            let board = self.tournaments.get(thread).and_then(|t| {
                let round = number(cmd, "round")
                    .ok()
                    .flatten()
                    .unwrap_or(t.paired_rounds());
                let board = number(cmd, "board").ok().flatten()?;
                t.board(round, board)?.thread.clone()
            });
            if let Some(match_thread) = board {
                if let Some((_, news)) = self.reconcile_match(&match_thread, now) {
                    reply.text.push('\n');
                    reply.text.push_str(&news);
                }
            }
        }
        reply
    }

    fn new_tournament(&mut self, caller: &Caller<'_>, cmd: &Command) -> Reply {
        if !caller.roles.organiser {
            return Reply::refused(
                "only an organiser may start a tournament (Manage Threads or the organiser role)",
            );
        }
        if self.games.contains_key(caller.thread) || self.tournaments.contains_key(caller.thread) {
            return Reply::refused(
                "this thread already has a game or a tournament; start the tournament in a new thread",
            );
        }
        let name = cmd
            .opt("name")
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(String::from)
            .or_else(|| (!cmd.positional.is_empty()).then(|| cmd.positional.join(" ")));
        let Some(name) = name else {
            return Reply::refused("missing name:<tournament name>");
        };
        if name.chars().count() > 80 {
            return Reply::refused("the name is too long (80 characters at most)");
        }
        let settings = match settings_from(cmd, caller) {
            Ok(s) => s,
            Err(e) => return Reply::refused(e),
        };
        let t = Tournament::new(caller.thread, &name, caller.user, settings, caller.now);
        if t.individual() {
            let options: Vec<String> = t
                .settings
                .options
                .iter()
                .map(|(k, v)| format!("{k}:{v}"))
                .collect();
            let text = format!(
                "tournament {name} created by {}: {}{}{}. Sign up with /signup; an organiser pairs each round with /tournament pair (the players are seeded by a draw at the first)",
                caller.user,
                t.format_text(),
                match t.settings.rounds {
                    Some(r) => format!("; at most {r} rounds"),
                    None => String::new(),
                },
                if options.is_empty() {
                    String::new()
                } else {
                    format!("; the games: {}", options.join(" "))
                }
            );
            self.insert_tournament(t);
            return accepted(text);
        }
        let text = format!(
            "tournament {name} created by {}: {}; move limit {}, inactivity {} posts; match win {}, draw {}, loss {}. Sign up with /signup (alone, or with mate1:@x [mate2:@y]); an organiser forms teams with /tournament teams",
            caller.user,
            match t.settings.losses_to_eliminate {
                0 => "Swiss without elimination".to_string(),
                l => format!("two-pass Swiss: a team is eliminated after {l} match losses"),
            },
            format_duration(t.settings.move_limit),
            t.settings.inactivity_posts,
            t.settings.win,
            t.settings.draw,
            t.settings.loss
        ) + &match t.settings.rounds {
            Some(r) => format!("; at most {r} rounds"),
            None => String::new(),
        } + if t.settings.no_vacation {
            "; vacation:off (the match games do not wait for players on vacation)"
        } else {
            ""
        };
        self.insert_tournament(t);
        accepted(text)
    }

    /// Opens a paired match in `match_thread` at `now`: seats the two teams (the first-listed
    /// team as team 1) and starts the draft. The tournament's organiser is the match's (pinged
    /// when it pauses), and its waits begin now, when its thread opens (RULINGS §9).
    /// Repeating it for the same thread answers the same.
    pub fn open_match(
        &mut self,
        tournament: &str,
        round: u32,
        board: u32,
        match_thread: &str,
        now: crate::time::Timestamp,
    ) -> Reply {
        let Some(t) = self.tournaments.get_mut(tournament) else {
            return Reply::refused("the tournament is gone");
        };
        let players = match t.match_players(round, board) {
            Ok(p) => p,
            Err(e) => return Reply::refused(e.to_string()),
        };
        if let Some(b) = t.board(round, board) {
            if b.thread.as_deref().is_some_and(|th| th != match_thread) {
                return Reply::refused(format!(
                    "round {round} board {board} is already played in another thread"
                ));
            }
        }
        if self.games.contains_key(match_thread) && t.match_of_thread(match_thread).is_none() {
            return Reply::refused("that thread already has another game");
        }
        if t.individual() {
            return self.open_event_match(tournament, round, board, match_thread, players, now);
        }
        let mut settings = t.game_settings(round, board);
        settings.created = Some((t.organiser.clone(), now));
        t.set_thread(round, board, match_thread);
        let what = format!("your match of {} round {round} board {board}", t.name);
        let title = format!(
            "{} round {round} board {board}: {} vs {}",
            t.name,
            t.board(round, board)
                .map(|b| t.board_label(b, b.white))
                .unwrap_or_default(),
            t.board(round, board)
                .map(|b| t.board_label(b, b.black))
                .unwrap_or_default(),
        );
        self.links
            .insert(match_thread.to_string(), tournament.to_string());
        if !self.games.contains_key(match_thread) {
            match Game::new(players, settings.clone()) {
                Ok(g) => {
                    self.games.insert(match_thread.to_string(), Box::new(g));
                }
                Err(e) => return Reply::refused(e.to_string()),
            }
        }
        let Some(game) = self
            .games
            .get(match_thread)
            .and_then(|g| g.as_any().downcast_ref::<Game>())
        else {
            return Reply::refused("the game could not be created");
        };
        Reply {
            ok: Some(true),
            text: format!("{title}\n{}", game_announcement(game)),
            notify: Some(new_game_notify(game, &what)),
            ..Reply::default()
        }
    }

    /// [`Hub::open_match`] for a game other than Kung Fu Bughouse: `/<game> new` with the
    /// event's options, the players in seat order (White first), by the organiser.
    fn open_event_match(
        &mut self,
        tournament: &str,
        round: u32,
        board: u32,
        match_thread: &str,
        players: Vec<String>,
        now: Timestamp,
    ) -> Reply {
        let Some(t) = self.tournaments.get_mut(tournament) else {
            return Reply::refused("the tournament is gone");
        };
        let game = t.settings.game;
        let Some(kind) = kind_of(game) else {
            return Reply::refused(format!("{} is not available", game.title()));
        };
        t.set_thread(round, board, match_thread);
        let title = match t.board(round, board) {
            Some(b) if b.black != 0 => format!(
                "{} round {round} board {board}: {} vs {}",
                t.name,
                t.board_label(b, b.white),
                t.board_label(b, b.black)
            ),
            _ => format!(
                "{} round {round} table {board}: {}",
                t.name,
                players.join(", ")
            ),
        };
        let cmd = match_command(game, &t.settings.options, &players);
        let organiser = t.organiser.clone();
        let entropy = t.match_seed(round, board);
        self.links
            .insert(match_thread.to_string(), tournament.to_string());
        if self.games.contains_key(match_thread) {
            return Reply::ok(format!("{title}\nthe match's game is already open"));
        }
        let caller = Caller {
            user: &organiser,
            roles: super::Roles {
                organiser: true,
                moderator: false,
            },
            thread: match_thread,
            now,
        };
        match (kind.create)(&caller, &cmd, entropy) {
            Ok(new) => {
                // A game that draws its own seat order (Party Chess seats the rest after the
                // first at random): the table records the seats as the game made them.
                let seated = new.game.users();
                if let Some(t) = self.tournaments.get_mut(tournament) {
                    t.reseat(round, board, &seated);
                }
                let mut reply = new.reply;
                reply.text = format!(
                    "{title}\n{}\n{}",
                    reply.text.trim_end(),
                    crate::layer::game::settings_text(&*new.game)
                );
                self.games.insert(match_thread.to_string(), new.game);
                reply
            }
            Err(e) => Reply::refused(e),
        }
    }

    /// After an action in a match thread: brings the tournament's result for that match in
    /// line with the game. Returns the tournament thread and the news to post there.
    pub fn reconcile_match(&mut self, thread: &str, now: Timestamp) -> Option<(String, String)> {
        let owner = self.links.get(thread)?.clone();
        if self.tournaments.get(&owner)?.table_event() {
            let places = self.games.get(thread).and_then(|g| table_places(&**g))?;
            let t = self.tournaments.get_mut(&owner)?;
            let news = t.table_game_result(thread, places, now)?;
            return Some((owner, news));
        }
        let result = self.games.get(thread).and_then(|g| match_result(&**g))?;
        let t = self.tournaments.get_mut(&owner)?;
        let news = t.game_result(thread, result, now)?;
        Some((owner, news))
    }
}

/// The result a match game gives its board (`Some(None)` while it is played; `None` for a
/// game that does not give a two-sided result).
fn match_result(game: &dyn crate::layer::game::ThreadGame) -> Option<Option<MatchResult>> {
    let any = game.as_any();
    if let Some(g) = any.downcast_ref::<Game>() {
        return Some(g.state().winner.as_ref().map(|(team, _)| {
            if *team == 0 {
                MatchResult::WhiteWins
            } else {
                MatchResult::BlackWins
            }
        }));
    }
    if let Some(g) = any.downcast_ref::<crate::games::chex::Game>() {
        use crate::games::chex::{Outcome, Side};
        return Some(g.state().outcome.as_ref().map(|o| match o {
            Outcome::Win {
                side: Side::White, ..
            } => MatchResult::WhiteWins,
            Outcome::Win { .. } => MatchResult::BlackWins,
            Outcome::Draw(_) => MatchResult::Draw,
        }));
    }
    None
}

/// The places a table's game gives its players (`Some(None)` while it is played): Ultimate
/// by elimination order (the last standing first, players in a draw sharing first place),
/// Party by the final Weights (heaviest first, as shown to one decimal), Nomic by its end
/// (the winner first, the others sharing second; all first without a winner).
fn table_places(game: &dyn crate::layer::game::ThreadGame) -> Option<Option<Vec<(String, u32)>>> {
    let any = game.as_any();
    if let Some(g) = any.downcast_ref::<crate::games::ultimate::Game>() {
        use crate::games::ultimate::Outcome;
        let st = g.state();
        let Some(o) = st.outcome.as_ref() else {
            return Some(None);
        };
        let winners = match o {
            Outcome::Win(s) => vec![*s],
            Outcome::Draw { among, .. } => among.clone(),
        };
        let mut v: Vec<(String, u32)> = winners
            .iter()
            .map(|&s| (g.user(s).to_string(), 1))
            .collect();
        let mut place = v.len() as u32 + 1;
        for d in st.defeats.iter().rev() {
            let u = g.user(d.seat).to_string();
            if !v.iter().any(|(x, _)| *x == u) {
                v.push((u, place));
                place += 1;
            }
        }
        return Some(Some(v));
    }
    if let Some(g) = any.downcast_ref::<crate::games::party::Game>() {
        if !g.ended() {
            return Some(None);
        }
        let p = g.position();
        let shown = |s: u8| (crate::games::party::weight::weight(p, s) * 10.0).round() as i64;
        let seats = p.seats();
        return Some(Some(
            seats
                .iter()
                .map(|&s| {
                    let better = seats.iter().filter(|&&o| shown(o) > shown(s)).count();
                    (g.user(s).to_string(), better as u32 + 1)
                })
                .collect(),
        ));
    }
    if let Some(g) = any.downcast_ref::<crate::games::nomic::Game>() {
        let st = g.state();
        if !st.over {
            return Some(None);
        }
        return Some(Some(
            g.users
                .iter()
                .enumerate()
                .map(|(i, u)| {
                    let place = match st.winner {
                        Some(w) if w != i => 2,
                        _ => 1,
                    };
                    (u.clone(), place)
                })
                .collect(),
        ));
    }
    None
}

/// The console's `!state` lines for a tournament: everything stored, in order.
pub fn tournament_lines(t: &Tournament) -> Vec<String> {
    let mut out = vec![t.summary()];
    for s in &t.signups {
        out.push(format!(
            "signup {}{}{}",
            s.player,
            if s.mates.is_empty() {
                String::new()
            } else {
                format!(" with {}", s.mates.join(" "))
            },
            if s.withdrawn { " (withdrawn)" } else { "" }
        ));
    }
    for team in &t.teams {
        out.push(format!(
            "team {}: {}{}",
            team.number,
            team.players.join(" "),
            if team.withdrawn { " (withdrawn)" } else { "" }
        ));
    }
    for r in 1..=t.paired_rounds() {
        out.extend(
            t.pairing_text(r)
                .lines()
                .skip(1)
                .map(|l| format!("round {r} {l}")),
        );
    }
    match t.standings_text() {
        Ok(s) => out.extend(s.lines().map(String::from)),
        Err(e) => out.push(format!("standings: {e}")),
    }
    out
}

/// The standings picture of a tournament.
///
/// # Errors
/// The standings cannot be computed or drawn.
pub fn standings_picture(t: &Tournament) -> Result<Vec<u8>, String> {
    standings_picture_named(t, &|p: &str| p.to_string())
}

/// The standings picture with players shown by `name` (a front end's display names).
///
/// # Errors
/// The standings cannot be computed or drawn.
pub fn standings_picture_named(
    t: &Tournament,
    name: &dyn Fn(&str) -> String,
) -> Result<Vec<u8>, String> {
    let rows = t.standings().map_err(|e| e.to_string())?;
    if t.individual() {
        return event_picture(t, &rows, name);
    }
    let view = crate::render::TableView {
        title: format!("{}: standings after round {}", t.name, t.complete_rounds()),
        header: [
            "#", "Team", "Players", "Score", "Buchholz", "SB", "Losses", "Status",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        highlight: rows_where(&rows, |s| s == "champion"),
        dimmed: rows_where(&rows, |s| s != "active" && s != "champion"),
        rows: rows
            .iter()
            .map(|r| {
                vec![
                    r.place.to_string(),
                    format!("Team {}", r.team),
                    r.players
                        .iter()
                        .map(|p| name(p))
                        .collect::<Vec<_>>()
                        .join(", "),
                    tournament::tenths(r.score),
                    tournament::tenths(r.buchholz),
                    tournament::hundredths(r.sonneborn_berger),
                    r.losses.to_string(),
                    r.status.clone(),
                ]
            })
            .collect(),
    };
    crate::render::render_table(&view).map_err(|e| e.to_string())
}

/// The standings rows whose status passes `keep` (the picture's highlighted or dimmed rows).
fn rows_where(rows: &[tournament::StandingRow], keep: impl Fn(&str) -> bool) -> Vec<usize> {
    rows.iter()
        .enumerate()
        .filter(|(_, r)| keep(&r.status))
        .map(|(i, _)| i)
        .collect()
}

/// The standings picture of an individual event or a Swiss of tables: one row a player.
fn event_picture(
    t: &Tournament,
    rows: &[tournament::StandingRow],
    name: &dyn Fn(&str) -> String,
) -> Result<Vec<u8>, String> {
    let tables = t.table_event();
    let mut header = vec!["#", "Player", "Points"];
    header.extend(if tables {
        vec!["Table-mates", "Status"]
    } else {
        vec!["Buchholz", "SB", "Status"]
    });
    let view = crate::render::TableView {
        title: format!("{}: standings after round {}", t.name, t.complete_rounds()),
        header: header.iter().map(|s| s.to_string()).collect(),
        highlight: rows_where(rows, |s| s == "champion"),
        dimmed: rows_where(rows, |s| s != "active" && s != "champion"),
        rows: rows
            .iter()
            .map(|r| {
                let mut v = vec![
                    r.place.to_string(),
                    r.players.first().map(|p| name(p)).unwrap_or_default(),
                    tournament::tenths(r.score),
                    tournament::tenths(r.buchholz),
                ];
                if !tables {
                    v.push(tournament::hundredths(r.sonneborn_berger));
                }
                v.push(r.status.clone());
                v
            })
            .collect(),
    };
    crate::render::render_table(&view).map_err(|e| e.to_string())
}
