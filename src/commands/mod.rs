//! The command layer: one place that turns what a user typed (slash options or console text)
//! into game actions and replies. Every front end (console, Discord) goes through it.

mod picture;
mod tournament;

use std::collections::{HashMap, HashSet};

pub use picture::{clock_text, kfb_picture};
pub use tournament::{
    standings_picture, standings_picture_named, tournament_lines, MatchOpen, TOURNAMENT_HELP,
};

use crate::engine::fen;
use crate::games::kfb::{self, draft, Game, Settings};
use crate::time::{format_duration, parse_duration, Timestamp};

/// A command as typed: its name (`kfb new`, `move`), positional words and `key:value` options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Command {
    /// Name, with the subcommand for grouped commands (`kfb new`, `proxy grant`).
    pub name: String,
    /// Words without a key.
    pub positional: Vec<String>,
    /// Options in order.
    pub options: Vec<(String, String)>,
}

impl Command {
    /// An option's value.
    pub fn opt(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }
}

/// Parses console text after the user name: `/move e2-e4 board:2`.
/// A word without `:` after an option continues that option's value (`team1:@a @b @c`,
/// `reason:a long reason`).
pub fn parse_command(text: &str) -> Option<Command> {
    let rest = text.trim().strip_prefix('/')?;
    let mut words = rest.split_whitespace();
    let mut name = words.next()?.to_lowercase();
    let mut cmd = Command::default();
    let grouped = ["kfb", "proxy", "tournament"];
    let mut pending: Vec<&str> = words.collect();
    if grouped.contains(&name.as_str()) && !pending.is_empty() && !pending[0].contains(':') {
        name = format!("{name} {}", pending.remove(0).to_lowercase());
    }
    cmd.name = name;
    for w in pending {
        match w.split_once(':') {
            Some((k, v))
                if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                cmd.options.push((k.to_lowercase(), v.to_string()));
            }
            _ => match cmd.options.last_mut() {
                Some((_, v)) => {
                    if !v.is_empty() {
                        v.push(' ');
                    }
                    v.push_str(w);
                }
                None => cmd.positional.push(w.to_string()),
            },
        }
    }
    Some(cmd)
}

/// A reply to show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// Accepted (`Some(true)`), refused (`Some(false)`), or a plain message.
    pub ok: Option<bool>,
    /// The text.
    pub text: String,
    /// Button identifiers.
    pub buttons: Vec<String>,
    /// Users to mention.
    pub mentions: Vec<String>,
    /// Only the sender sees it (refusals, previews).
    pub ephemeral: bool,
    /// Match threads to open (after `/tournament pair`).
    pub opens: Vec<MatchOpen>,
    /// News for other threads: (thread, text), like a match result for its tournament.
    pub notices: Vec<(String, String)>,
    /// Attach the standings picture of the thread's tournament.
    pub standings: bool,
    /// A public message for the thread that notifies whoever must act next; posted as a new
    /// message after the reply (Discord notifies nobody for mentions in a deferred
    /// completion or an edit). The console prints its text as plain lines after the reply.
    pub notify: Option<Notify>,
}

/// A public message in the game's thread that notifies exactly `users`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notify {
    /// The text, naming the users (as `@id`/user names, like every reply).
    pub text: String,
    /// The users to notify.
    pub users: Vec<String>,
}

impl Reply {
    fn ok(text: impl Into<String>) -> Reply {
        Reply {
            ok: Some(true),
            text: text.into(),
            ..Reply::default()
        }
    }
    fn refused(text: impl Into<String>) -> Reply {
        Reply {
            ok: Some(false),
            text: text.into(),
            ephemeral: true,
            ..Reply::default()
        }
    }
    fn from_accepted(a: kfb::Accepted) -> Reply {
        let text = match a.number {
            Some(n) => format!("#{n} {}", a.text),
            None => a.text,
        };
        Reply {
            ok: Some(true),
            text,
            mentions: a.mentions,
            ..Reply::default()
        }
    }
}

/// Who sends a command, where and when.
#[derive(Clone, Copy, Debug)]
pub struct Caller<'a> {
    /// The user.
    pub user: &'a str,
    /// Their roles.
    pub roles: Roles,
    /// The thread (one game per thread).
    pub thread: &'a str,
    /// The time.
    pub now: Timestamp,
}

/// Who the user is in the server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Roles {
    /// May create games and grant proxies.
    pub organiser: bool,
    /// May revert.
    pub moderator: bool,
}

struct PendingRevert {
    thread: String,
    moderator: String,
    to: u32,
    reason: String,
    created: Timestamp,
    log_len: usize,
}

/// All games, by thread, with pending confirmations.
#[derive(Default)]
pub struct Hub {
    games: HashMap<String, Game>,
    pending: HashMap<String, PendingRevert>,
    next_button: u64,
    notified: HashSet<(String, usize, Timestamp)>,
    tournaments: HashMap<String, crate::tournament::Tournament>,
    /// Match thread → its tournament's thread.
    links: HashMap<String, String>,
}

/// How long a revert confirmation stays valid (RULINGS §1.10: 15 minutes inclusive).
pub const CONFIRM_WINDOW: u64 = 15 * 60;

fn mention(v: &str) -> String {
    v.trim()
        .trim_start_matches("<@")
        .trim_start_matches('@')
        .trim_end_matches('>')
        .to_string()
}

impl Hub {
    /// A hub with no games.
    pub fn new() -> Hub {
        Hub::default()
    }

    /// The game in a thread.
    pub fn game(&self, thread: &str) -> Option<&Game> {
        self.games.get(thread)
    }

    /// Puts a game (loaded from storage) in a thread, replacing any there.
    pub fn insert_game(&mut self, thread: &str, game: Game) {
        self.games.insert(thread.to_string(), game);
    }

    /// Forgets the game of a thread (storage has none).
    pub fn remove_game(&mut self, thread: &str) {
        self.games.remove(thread);
    }

    /// Threads with a game.
    pub fn threads(&self) -> Vec<String> {
        let mut v: Vec<String> = self.games.keys().cloned().collect();
        v.sort();
        v
    }

    /// The thread a pending button belongs to.
    pub fn button_thread(&self, id: &str) -> Option<String> {
        self.pending.get(id).map(|p| p.thread.clone())
    }

    /// Marks a lock expiry as announced (loaded from storage).
    pub fn mark_notified(&mut self, thread: &str, seat: usize, due: Timestamp) {
        self.notified.insert((thread.to_string(), seat, due));
    }

    /// Lock expiries due in `(after, until]` not yet announced: (thread, seat, due, text).
    pub fn due_timers(
        &self,
        after: Timestamp,
        until: Timestamp,
    ) -> Vec<(String, usize, Timestamp, String)> {
        let mut out = Vec::new();
        for thread in self.threads() {
            let game = &self.games[&thread];
            for (seat, at) in game.lock_expiries(after, until) {
                if self.notified.contains(&(thread.clone(), seat, at)) {
                    continue;
                }
                let p = &game.state().players[seat];
                let text = format!(
                    "@{}: your lock has expired; you may move on board {}",
                    p.user,
                    p.board + 1
                );
                out.push((thread.clone(), seat, at, text));
            }
        }
        out
    }

    /// Handles a command. `entropy` seeds a game created without `seed:`; `raw` is the
    /// command as typed (kept in the log).
    pub fn handle(&mut self, caller: &Caller<'_>, entropy: u64, cmd: &Command, raw: &str) -> Reply {
        let Caller {
            user,
            roles,
            thread,
            now,
        } = *caller;
        let name = cmd.name.as_str();
        match name {
            "help" => return Reply::ok(format!("{HELP}\n{TOURNAMENT_HELP}")),
            "kfb new" => return self.new_game(user, roles, thread, entropy, cmd),
            "signup" | "withdraw" | "tournament" => {
                return self.tournament_command(caller, entropy, cmd)
            }
            n if n.starts_with("tournament ") => {
                return self.tournament_command(caller, entropy, cmd)
            }
            "kfb" => return Reply::refused("use /kfb new team1:@a @b @c team2:@d @e @f [move_limit:6h] [inactivity_posts:18] [seed:<n>]"),
            _ => {}
        }
        let Some(game) = self.games.get_mut(thread) else {
            return Reply::refused(
                "there is no game in this thread (an organiser starts one with /kfb new)",
            );
        };
        let kill_pending = |pending: &mut HashMap<String, PendingRevert>, thread: &str| {
            pending.retain(|_, p| p.thread != thread);
        };
        let result: Result<kfb::Accepted, String> = match name {
            "pick" => (|| {
                let seat = game
                    .seat_of(user)
                    .ok_or_else(|| "you are not seated in this game".to_string())?;
                let order = cmd.opt("order").ok_or("missing order:first|second")?;
                let colour = cmd
                    .opt("color")
                    .or(cmd.opt("colour"))
                    .ok_or("missing color:red|lightgreen|blue")?;
                let army = cmd
                    .opt("army")
                    .ok_or("missing army:fide|clobberers|nutty|rookies|forward")?;
                let choice = draft::Choice {
                    order: draft::Order::parse(order).map_err(|e| e.to_string())?,
                    colour: draft::Colour::parse(colour).map_err(|e| e.to_string())?,
                    army: draft::Army::parse(army).map_err(|e| e.to_string())?,
                };
                let for_player = match cmd.opt("for") {
                    Some(f) => Some(
                        game.seat_of(&mention(f))
                            .ok_or("for: must name a seated player")?,
                    ),
                    None => None,
                };
                game.pick(seat, for_player, choice, now, raw)
                    .map_err(|e| e.to_string())
            })(),
            "move" => (|| {
                // Bare words are the notation, spaces kept (`/move P@g6 (nutty)`), as the
                // one notation option is on Discord.
                let text = cmd
                    .opt("notation")
                    .map(String::from)
                    .or_else(|| (!cmd.positional.is_empty()).then(|| cmd.positional.join(" ")))
                    .ok_or("missing notation (like /move e2-e4)")?;
                let board = match cmd.opt("board") {
                    Some(b) => Some(b.parse::<usize>().map_err(|_| "board must be 1, 2 or 3")?),
                    None => None,
                };
                let seat = game.acting_seat(user, board).map_err(|e| e.to_string())?;
                game.play(user, seat, &text, cmd.opt("army"), now, raw)
                    .map_err(|e| e.to_string())
            })(),
            "give" => (|| {
                let seat = game
                    .seat_of(user)
                    .ok_or("you are not seated in this game")?;
                let piece = cmd.opt("piece").unwrap_or("K");
                if !piece.eq_ignore_ascii_case("k") {
                    return Err(
                        "only kings are given (piece:K); other pieces route by themselves"
                            .to_string(),
                    );
                }
                let to = cmd.opt("to").ok_or("missing to:@teammate")?;
                game.give(
                    seat,
                    &mention(to),
                    cmd.opt("color").or(cmd.opt("colour")),
                    now,
                    raw,
                )
                .map_err(|e| e.to_string())
            })(),
            "claim" => (|| {
                let seat = game
                    .seat_of(user)
                    .ok_or("you are not seated in this game")?;
                game.claim(seat, now, raw).map_err(|e| e.to_string())
            })(),
            "resign" => (|| {
                let seat = game
                    .seat_of(user)
                    .ok_or("you are not seated in this game")?;
                game.resign(seat, now, raw).map_err(|e| e.to_string())
            })(),
            "takeback" => game.takeback(user, now, raw).map_err(|e| e.to_string()),
            "proxy grant" | "proxy revoke" => (|| {
                if !roles.organiser {
                    return Err("only an organiser may grant or revoke proxies".to_string());
                }
                let p = cmd.opt("player").ok_or("missing player:@x")?;
                let f = cmd.opt("for").ok_or("missing for:@y")?;
                game.proxy(
                    user,
                    name == "proxy grant",
                    &mention(p),
                    &mention(f),
                    now,
                    raw,
                )
                .map_err(|e| e.to_string())
            })(),
            "revert" => {
                if !roles.moderator {
                    return Reply::refused(
                        "only a moderator may revert (Manage Messages or the moderator role)",
                    );
                }
                let Some(to) = cmd
                    .opt("to")
                    .and_then(|t| t.trim_start_matches('#').parse::<u32>().ok())
                else {
                    return Reply::refused(
                        "missing to:<action number> (as shown in replies, like #12)",
                    );
                };
                let reason = cmd.opt("reason").unwrap_or("").to_string();
                if reason.trim().is_empty() {
                    return Reply::refused("say why with reason:<text>");
                }
                return match game.revert_preview(to) {
                    Ok(lines) => {
                        self.next_button += 1;
                        let id = format!("revert-confirm-{}", self.next_button);
                        self.pending.insert(
                            id.clone(),
                            PendingRevert {
                                thread: thread.to_string(),
                                moderator: user.to_string(),
                                to,
                                reason,
                                created: now,
                                log_len: game.log.len(),
                            },
                        );
                        Reply { ok: Some(true), text: format!("revert to before #{to} will undo:\n{}\npress the button within 15 minutes to confirm", lines.join("\n")), buttons: vec![id], ephemeral: true, ..Reply::default() }
                    }
                    Err(e) => Reply::refused(e.to_string()),
                };
            }
            "status" => {
                return Reply {
                    ok: Some(true),
                    text: status_text(game, now),
                    ephemeral: true,
                    ..Reply::default()
                }
            }
            "moves" => {
                let Some(seat) = game.seat_of(user) else {
                    return Reply::refused("you are not seated in this game");
                };
                let sq = cmd
                    .opt("square")
                    .or(cmd.positional.first().map(String::as_str))
                    .unwrap_or("");
                let moves = game.legal_moves(seat, now);
                let list: Vec<String> = moves
                    .into_iter()
                    .map(|(_, s)| s)
                    .filter(|s| sq.is_empty() || s.contains(sq))
                    .collect();
                let text = if list.is_empty() {
                    "no legal moves for you now (see /status)".to_string()
                } else {
                    list.join(" ")
                };
                return Reply {
                    ok: Some(true),
                    text,
                    ephemeral: true,
                    ..Reply::default()
                };
            }
            "export" => {
                let mut text = kfb::export::bpgn(game);
                for pgn in kfb::export::board_pgns(game) {
                    text.push('\n');
                    text.push_str(&pgn);
                }
                return Reply {
                    ok: Some(true),
                    text,
                    ephemeral: true,
                    ..Reply::default()
                };
            }
            other => return Reply::refused(format!("unknown command /{other}; try /help")),
        };
        match result {
            Ok(a) => {
                kill_pending(&mut self.pending, thread);
                Reply::from_accepted(a)
            }
            Err(e) => Reply::refused(e),
        }
    }

    fn new_game(
        &mut self,
        user: &str,
        roles: Roles,
        thread: &str,
        entropy: u64,
        cmd: &Command,
    ) -> Reply {
        if !roles.organiser {
            return Reply::refused(
                "only an organiser may start a game (Manage Threads or the organiser role)",
            );
        }
        if self.games.contains_key(thread) {
            return Reply::refused(
                "this thread already has a game; start the next one in a new thread",
            );
        }
        if self.tournaments.contains_key(thread) {
            return Reply::refused(
                "this is a tournament's thread: its matches get threads of their own from /tournament pair",
            );
        }
        let team = |k: &str| -> Vec<String> {
            cmd.opt(k)
                .unwrap_or("")
                .split_whitespace()
                .map(mention)
                .collect()
        };
        let (t1, t2) = (team("team1"), team("team2"));
        if t1.len() != 3 || t2.len() != 3 {
            return Reply::refused(
                "each team needs exactly three players: team1:@a @b @c team2:@d @e @f",
            );
        }
        let mut settings = Settings {
            seed: entropy,
            ..Settings::default()
        };
        if let Some(l) = cmd.opt("move_limit") {
            match parse_duration(l) {
                Ok(s) => settings.move_limit = s,
                Err(e) => return Reply::refused(e.to_string()),
            }
        }
        if let Some(n) = cmd.opt("inactivity_posts") {
            match n.parse::<u32>() {
                Ok(v) if v > 0 => settings.inactivity_posts = v,
                _ => return Reply::refused("inactivity_posts must be a whole number above 0"),
            }
        }
        if let Some(v) = cmd.opt("promoted_pawns") {
            match v.to_lowercase().as_str() {
                "on" | "yes" | "true" => settings.promoted_to_pawn = true,
                "off" | "no" | "false" => settings.promoted_to_pawn = false,
                _ => return Reply::refused("promoted_pawns must be on (a captured promoted piece returns to hand as a pawn) or off"),
            }
        }
        if let Some(s) = cmd.opt("seed") {
            match s.parse::<u64>() {
                Ok(v) => settings.seed = v,
                Err(_) => return Reply::refused("seed must be a whole number"),
            }
        }
        let users: Vec<String> = t1.into_iter().chain(t2).collect();
        match Game::new(users, settings.clone()) {
            Ok(game) => {
                let text = format!("game created by {user}: {}", game_announcement(&game));
                let mentions = game.users.clone();
                self.games.insert(thread.to_string(), game);
                Reply {
                    ok: Some(true),
                    text,
                    mentions,
                    ..Reply::default()
                }
            }
            Err(e) => Reply::refused(e.to_string()),
        }
    }

    /// A plain chat message in a thread.
    pub fn chat(&mut self, user: &str, thread: &str, now: Timestamp) {
        if let Some(game) = self.games.get_mut(thread) {
            if let Some(seat) = game.seat_of(user) {
                game.chat(seat, now);
            }
        }
    }

    /// A button press.
    pub fn press(&mut self, user: &str, id: &str, now: Timestamp) -> Reply {
        let Some(p) = self.pending.get(id) else {
            return Reply::refused(
                "this button has expired (another action was accepted, or it was used)",
            );
        };
        if p.moderator != user {
            return Reply::refused("only the moderator who asked for this revert may confirm it");
        }
        if now > p.created + CONFIRM_WINDOW {
            self.pending.remove(id);
            return Reply::refused(
                "this confirmation expired after 15 minutes; ask again with /revert",
            );
        }
        let Some(p) = self.pending.remove(id) else {
            return Reply::refused("expired");
        };
        let Some(game) = self.games.get_mut(&p.thread) else {
            return Reply::refused("the game is gone");
        };
        if game.log.len() != p.log_len {
            return Reply::refused("the game changed since the preview; ask again with /revert");
        }
        let cmd = format!("/revert to:{} reason:{}", p.to, p.reason);
        match game.revert(user, p.to, &p.reason, now, &cmd) {
            Ok(a) => {
                let thread = p.thread.clone();
                self.pending.retain(|_, q| q.thread != thread);
                Reply::from_accepted(a)
            }
            Err(e) => Reply::refused(e.to_string()),
        }
    }

    /// Lock-expiry messages that fall due in `(after, until]`, each sent once.
    pub fn due_messages(&mut self, after: Timestamp, until: Timestamp) -> Vec<(String, String)> {
        let due = self.due_timers(after, until);
        due.into_iter()
            .map(|(thread, seat, at, text)| {
                self.mark_notified(&thread, seat, at);
                (thread, text)
            })
            .collect()
    }
}

/// A new game's teams, settings and first picker, with how to pick.
pub fn game_announcement(game: &Game) -> String {
    let settings = &game.settings;
    let first = Game::first_picker(settings);
    format!(
        "team 1 {} vs team 2 {}; move limit {}, inactivity {} posts; seed {}; first picker {} ({}): /pick order:first|second color:red|lightgreen|blue army:fide|clobberers|nutty|rookies|forward",
        game.users[..3].join(", "),
        game.users[3..].join(", "),
        format_duration(settings.move_limit),
        settings.inactivity_posts,
        settings.seed,
        game.users[first],
        if first < 3 { "team 1" } else { "team 2" }
    )
}

/// The `/status` text.
pub fn status_text(game: &Game, now: Timestamp) -> String {
    let st = game.state();
    let mut s = String::new();
    if st.boards.is_none() {
        s.push_str(&format!(
            "draft: team {} to pick\n",
            game.draft_turn_team() + 1
        ));
        for (i, p) in st.players.iter().enumerate() {
            let c = st
                .draft
                .choice(i)
                .map(|c| {
                    format!(
                        "{} {} {}",
                        c.order.as_str(),
                        c.colour.as_str(),
                        c.army.as_str()
                    )
                })
                .unwrap_or_else(|| "not picked".into());
            s.push_str(&format!("{} (team {}): {c}\n", p.user, i / 3 + 1));
        }
        return s;
    }
    if let Some((t, how)) = &st.winner {
        s.push_str(&format!("game over: team {} won ({how})\n", t + 1));
    }
    s.push_str(&game.seating_text());
    for (i, p) in st.players.iter().enumerate() {
        let lock = match game.locked_until(i, now) {
            Some(u) => format!("locked for {}", format_duration(u - now)),
            None if game.is_free(i, now) => "free to move".into(),
            None => "waiting".into(),
        };
        s.push_str(&format!(
            "{}: {lock}; inactivity {}/{}\n",
            p.user, p.counter, game.settings.inactivity_posts
        ));
    }
    s.push_str(&format!("kings: {}\n", game.kings_summary()));
    s
}

/// The console's `!state` lines.
pub fn state_lines(game: &Game, now: Timestamp) -> Vec<String> {
    let st = game.state();
    let mut out = Vec::new();
    let Some(boards) = &st.boards else {
        out.push("draft in progress".into());
        return out;
    };
    for (i, b) in boards.iter().enumerate() {
        out.push(format!(
            "board {}: {} [{}]",
            i + 1,
            fen::write_placement(&b.pos),
            fen::write_hands(&b.pos)
        ));
    }
    for (i, p) in st.players.iter().enumerate() {
        let lock = match game.locked_until(i, now) {
            Some(u) => format!("locked until {u}"),
            None => "unlocked".into(),
        };
        out.push(format!("lock {}: {lock}", p.user));
    }
    for p in &st.players {
        out.push(format!("inactivity {}: {}", p.user, p.counter));
    }
    out.push(format!("kings held: {}", game.kings_summary()));
    out
}

/// The help text.
pub const HELP: &str = "commands: /kfb new team1:@a @b @c team2:@d @e @f [move_limit:6h] [inactivity_posts:18] [seed:<n>] | /pick order:first|second color:red|lightgreen|blue army:fide|clobberers|nutty|rookies|forward [for:@player] | /move notation:<move> [board:1|2|3] [army:<army>] (a pawn of one army: P@g6(nutty)) | /give piece:K to:@user [color:<colour>] | /takeback | /claim | /status | /moves square:<sq> | /export | /resign | /proxy grant|revoke player:@x for:@y | /revert to:<n> reason:<text>";
