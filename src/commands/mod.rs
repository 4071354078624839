//! The command layer: one place that turns what a user typed (slash options or console text)
//! into game actions and replies. Every front end (console, Discord) goes through it.

pub mod attention;
pub mod declare;
pub mod front;
pub mod mygames;
pub mod registry;
mod tournament;

use std::collections::{HashMap, HashSet};

use crate::layer::attention::Attention;
use crate::layer::{mention, premove, remind};

pub use crate::layer::{
    command_button, command_button_id, vacation_off, waiting, Asker, Bookkeeping, Caller, Command,
    Due, GameKind, LogAction, LogRow, MatchOpen, NewGame, PictureJob, Played, PremoveSeat, Reply,
    Roles, SquareSeen, ThreadGame, Wait,
};
pub use mygames::{games_you_run, my_games_reply, thread_ref, MyGame, RunGame};
pub use registry::{acting_on_leave, import, kind_of, kinds, register, KINDS};
pub use tournament::{standings_picture, standings_picture_named, tournament_lines};

pub use crate::layer::Notify;

use crate::games::drawn_seed;
use crate::time::{stamp, Style, Timestamp};

/// Parses console text after the user name: `/move e2-e4 board:2`, as
/// [`Command::parse_with`] reads it with what the declarations say: which names take a
/// subcommand (`/kfb new`) and which options run to the end of the line ([`declare`]).
pub fn parse_command(text: &str) -> Option<Command> {
    let grouped = |n: &str| declare::takes_subcommand(n) || kinds().iter().any(|k| k.group == n);
    Command::parse_with(text, grouped, declare::runs_to_end)
}

/// `an` before a name that starts with a vowel (`an Ultimate Chess command`), else `a`.
fn article(name: &str) -> &'static str {
    if name.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// Whether a play's text names a square (`c1` in `Rc1-c5`, not in `Rc10-c12`).
fn names_square(play: &str, sq: &str) -> bool {
    play.match_indices(sq)
        .any(|(i, _)| !play[i + sq.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

/// The answer to `/moves [square:<sq>] [piece:<P>]`: the plays offered, those naming the
/// square when one is given; when none is left, why (the square is not on the board, nothing
/// or another seat's piece stands there, the piece has no move now), and "no legal moves for
/// you now" only when the user has none in the whole position.
fn moves_reply(game: &dyn ThreadGame, user: &str, cmd: &Command, now: Timestamp) -> Reply {
    let sq = cmd
        .opt("square")
        .or(cmd.positional.first().map(String::as_str))
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let piece = cmd
        .opt("piece")
        .map(|p| p.trim().to_ascii_uppercase())
        .unwrap_or_default();
    let chosen = |all: &[String]| -> Vec<String> {
        all.iter()
            .filter(|s| sq.is_empty() || names_square(s, &sq))
            .filter(|s| piece.is_empty() || s.starts_with(&format!("{piece}@")))
            .cloned()
            .collect()
    };
    // A text that is no square of the board is refused first, on turn or not.
    let seen = (!sq.is_empty())
        .then(|| game.square_seen(&Asker::new(user, now), &sq))
        .flatten();
    if seen == Some(SquareSeen::OffBoard) {
        return Reply::refused(format!("{sq} is not a square of this board"));
    }
    let all = match game.offered_moves(&Asker::new(user, now)) {
        Ok(list) => list,
        Err(e) => {
            return Reply::refused(planning(
                &e,
                &chosen(&game.planned_moves(&Asker::new(user, now))),
                &sq,
            ))
        }
    };
    let list = chosen(&all);
    let answer = |text: String| Reply {
        ok: Some(true),
        text,
        ephemeral: true,
        ..Reply::default()
    };
    if !list.is_empty() {
        return answer(list.join(" "));
    }
    if all.is_empty() {
        return answer("no legal moves for you now (see /status)".to_string());
    }
    if sq.is_empty() {
        return answer(format!(
            "you have no {piece} to drop now; see /moves for your plays"
        ));
    }
    match seen {
        Some(SquareSeen::Empty) => Reply::refused(format!("nothing stands on {sq}")),
        Some(SquareSeen::Other { owner, piece, you }) => {
            Reply::refused(format!("{sq} holds {owner}'s {piece}; you play {you}"))
        }
        Some(SquareSeen::Own(piece)) => {
            answer(format!("the {piece} on {sq} has no legal moves now"))
        }
        Some(SquareSeen::OffBoard) | None => answer(format!(
            "no legal moves from or to {sq} now (see /moves for all)"
        )),
    }
}

/// An off-turn `/moves` refusal (`why`, its first line, as before) followed by what the user
/// could play in the position as it stands once it is their turn (`plan`, those naming `sq`
/// when one was given), so that they can plan; nothing is added when there is nothing to plan.
fn planning(why: &str, plan: &[String], sq: &str) -> String {
    if plan.is_empty() {
        return why.to_string();
    }
    let at = if sq.is_empty() {
        String::new()
    } else {
        format!(" from or to {sq}")
    };
    format!(
        "{why}\nTo plan: in the position as it stands, your plays{at} would be: {}",
        plan.join(" ")
    )
}

/// An export with the game's settings as players read them in a `[Settings "…"]` tag after
/// its `[Event …]` line (`arbiter import` reads the settings from the `[Setup …]` line).
fn with_settings_tag(export: &str, settings: &str) -> String {
    let tag = format!(
        "[Settings \"{}\"]",
        settings
            .trim_start_matches("Settings: ")
            .trim_end_matches('.')
            .replace('"', "'")
    );
    match export.split_once('\n') {
        Some((first, rest)) if first.starts_with("[Event ") => format!("{first}\n{tag}\n{rest}"),
        // An export of another shape (a game of plain rules) stays as it is.
        _ => export.to_string(),
    }
}

/// The number of the game's last action in effect if it is a `/substitute` by `user`.
fn own_substitution(game: &dyn ThreadGame, user: &str) -> Option<u32> {
    let log = game.log();
    let reverted = log.reverted();
    (0..log.len())
        .rev()
        .filter(|&i| !reverted.get(i).copied().unwrap_or(false))
        .filter_map(|i| log.row(i).and_then(Result::ok))
        .find(|r| r.number.is_some())
        .filter(|r| r.actor == user && r.command.starts_with("/substitute"))
        .and_then(|r| r.number)
}

/// The one message that tells a finished game's players (`except` aside) that it is over,
/// naming the result (shared rules 8.1): the game's own words, or else the last line of the
/// reply that ended it (`ended_by`).
fn game_over(game: &dyn ThreadGame, ended_by: &str, except: &[String]) -> Option<Notify> {
    let result = game.result().unwrap_or_else(|| {
        ended_by
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("see the thread")
            .trim()
            .trim_start_matches("Game over: ")
            // Party's `The game is over. Result: …` says it once.
            .trim_start_matches("The game is over. ")
            .trim_start_matches("Result: ")
            .trim_end_matches('.')
            .to_string()
    });
    let players = game.users().into_iter().filter(|u| !except.contains(u));
    Notify::to(players, format!("the game is over: {result}")).nonempty()
}

/// What a game asked of whom before an action, to settle the action's notification.
struct Standing {
    finished: bool,
    awaited: Option<Vec<(String, String)>>,
}

impl Standing {
    fn of(game: &dyn ThreadGame, now: Timestamp) -> Standing {
        Standing {
            finished: game.finished(),
            awaited: game.awaited(now),
        }
    }

    /// The notification of an accepted action, settled at the layer for every game: the end
    /// of a game notifies its players once, in one new message naming the result (shared
    /// rules 8.1); otherwise a user is pinged only for a task the action gave them (the player on
    /// turn is not pinged again for an Umpire's, Referee's or organiser's bookkeeping).
    fn settle(self, game: &dyn ThreadGame, mut reply: Reply, now: Timestamp) -> Reply {
        if reply.ok != Some(true) {
            return reply;
        }
        if !self.finished && game.finished() {
            reply.notify = game_over(game, &reply.text, &[]);
            return reply;
        }
        if let (Some(was), Some(now_asked)) = (self.awaited, game.awaited(now)) {
            let mut users: Vec<&String> = now_asked.iter().map(|(u, _)| u).collect();
            users.dedup();
            for u in users {
                let tasks = now_asked.iter().filter(|(v, _)| v == u);
                let new_task = tasks.clone().any(|t| !was.contains(t));
                if !new_task {
                    reply.notify = reply.notify.and_then(|n| n.without(u));
                }
            }
        }
        reply
    }
}

struct PendingRevert {
    thread: String,
    moderator: String,
    to: u32,
    reason: String,
    created: Timestamp,
    log_len: usize,
    /// Drawn with the `/revert` command, for a game that reshuffles on a revert (Chex).
    entropy: u64,
}

/// A command that ends the game for its sender's side, asked once before it acts
/// ([`ThreadGame::confirm_first`]): its buttons are `ask-confirm-<n>` and `ask-cancel-<n>`.
struct PendingAsk {
    thread: String,
    user: String,
    roles: Roles,
    /// The command, run as it is on Confirm, and as typed.
    cmd: Command,
    raw: String,
    created: Timestamp,
    entropy: u64,
}

/// The question number and whether it is the Confirm button, for an `ask-…` button's id.
fn ask_button(id: &str) -> Option<(bool, u64)> {
    if let Some(n) = id.strip_prefix("ask-confirm-") {
        return n.parse().ok().map(|n| (true, n));
    }
    id.strip_prefix("ask-cancel-")
        .and_then(|n| n.parse().ok())
        .map(|n| (false, n))
}

/// All games, by thread, with pending confirmations.
#[derive(Default)]
pub struct Hub {
    games: HashMap<String, Box<dyn ThreadGame>>,
    pending: HashMap<String, PendingRevert>,
    asks: HashMap<u64, PendingAsk>,
    next_button: u64,
    notified: HashSet<(String, usize, Timestamp)>,
    tournaments: HashMap<String, crate::tournament::Tournament>,
    /// Match thread → its tournament's thread.
    links: HashMap<String, String>,
    /// Each game's conditional moves (`/premove`).
    books: HashMap<String, premove::Book>,
}

/// How long a revert confirmation stays valid (shared rules 7.3: 15 minutes inclusive).
pub const CONFIRM_WINDOW: u64 = 15 * 60;

impl Hub {
    /// A hub with no games.
    pub fn new() -> Hub {
        Hub::default()
    }

    /// The game in a thread.
    pub fn game(&self, thread: &str) -> Option<&(dyn ThreadGame + 'static)> {
        self.games.get(thread).map(|g| &**g)
    }

    /// Puts a game (loaded from storage) in a thread, replacing any there.
    pub fn insert_game(&mut self, thread: &str, game: Box<dyn ThreadGame>) {
        self.games.insert(thread.to_string(), game);
    }

    /// Hands the game of `thread` the vacations of its players that it honours: those taken
    /// on its server (`guild`), none if it was made with `vacation:off` (shared rules 7.5),
    /// and its pauses ([`remind::pauses`]): the layer's clock, read by every limit it runs.
    pub fn hand_away(&mut self, thread: &str, att: &Attention, guild: Option<&str>) {
        if let Some(game) = self.games.get_mut(thread) {
            let handovers = game.log().handovers();
            let users = game.users();
            let mut away = if game.pace().vacation == Some(false) {
                crate::layer::clock::Away::none()
            } else {
                // Everyone who held a seat, each away only while they held it.
                let mut ever = users.clone();
                ever.extend(handovers.iter().map(|(_, h)| h.from.clone()));
                att.away(&ever, guild).by_seat(&users, &handovers)
            };
            // The layer's clock: the game's pauses stop its limits as vacations do.
            away.set_pauses(remind::pauses(&**game, thread, att));
            game.set_away(away);
        }
    }

    /// Forgets the game of a thread (storage has none).
    pub fn remove_game(&mut self, thread: &str) {
        self.games.remove(thread);
        self.books.remove(thread);
    }

    /// Threads with a game.
    pub fn threads(&self) -> Vec<String> {
        let mut v: Vec<String> = self.games.keys().cloned().collect();
        v.sort();
        v
    }

    /// The thread a pending button belongs to.
    pub fn button_thread(&self, id: &str) -> Option<String> {
        if let Some((thread, _)) = command_button(id) {
            return Some(thread);
        }
        if let Some((_, n)) = ask_button(id) {
            return self.asks.get(&n).map(|a| a.thread.clone());
        }
        self.pending.get(id).map(|p| p.thread.clone())
    }

    /// Marks a lock expiry as announced (loaded from storage).
    pub fn mark_notified(&mut self, thread: &str, seat: usize, due: Timestamp) {
        self.notified.insert((thread.to_string(), seat, due));
    }

    /// Timers (lock expiries, turn limits) due in `(after, until]` not yet announced:
    /// (thread, seat, due, message).
    pub fn due_timers(&self, after: Timestamp, until: Timestamp) -> Vec<(String, Due)> {
        let mut out = Vec::new();
        for thread in self.threads() {
            let none = Attention::default();
            for d in remind::timers(&*self.games[&thread], &thread, &none, after, until) {
                if !self.notified.contains(&(thread.clone(), d.seat, d.at)) {
                    out.push((thread.clone(), d));
                }
            }
        }
        out
    }

    /// Handles a command. `entropy` seeds a game created without `seed:` (its low 53 bits,
    /// shared rules 0.5); `raw` is the command as typed (kept in the log). The reply notifies
    /// nobody of their own action. Its options are checked against its declaration first,
    /// once.
    pub fn handle(&mut self, caller: &Caller<'_>, entropy: u64, cmd: &Command, raw: &str) -> Reply {
        if let Err(why) = declare::check(cmd) {
            return Reply::refused(why);
        }
        if let Some(asked) = self.ask_first(caller, drawn_seed(entropy), cmd, raw) {
            return asked;
        }
        let mut reply = self.handle_command(caller, drawn_seed(entropy), cmd, raw);
        reply.notify = reply.notify.and_then(|n| n.without(caller.user));
        if reply.ok == Some(true) {
            self.play_lines(&mut reply, caller.thread, caller.now);
        }
        reply
    }

    /// A command that ends the game for its sender's side (`/resign`, `/concede`,
    /// `/forfeit`) is asked once, with Confirm and Cancel buttons valid for 15 minutes and
    /// only until another action is accepted in the thread (like a revert's); `None` when the
    /// command acts at once.
    fn ask_first(
        &mut self,
        caller: &Caller<'_>,
        entropy: u64,
        cmd: &Command,
        raw: &str,
    ) -> Option<Reply> {
        let question = self
            .games
            .get(caller.thread)?
            .confirm_first(caller.user, cmd)?;
        self.next_button += 1;
        let n = self.next_button;
        self.asks.insert(
            n,
            PendingAsk {
                thread: caller.thread.to_string(),
                user: caller.user.to_string(),
                roles: caller.roles,
                cmd: cmd.clone(),
                raw: raw.to_string(),
                created: caller.now,
                entropy,
            },
        );
        let by = caller.now + CONFIRM_WINDOW;
        Some(Reply {
            ok: Some(true),
            text: format!(
                "{question}\npress Confirm by {} ({}) to do it, or Cancel",
                stamp(by, Style::Full),
                stamp(by, Style::Relative)
            ),
            buttons: vec![format!("ask-confirm-{n}"), format!("ask-cancel-{n}")],
            ephemeral: true,
            ..Reply::default()
        })
    }

    /// After an accepted action: the replies of conditional moves it made due, folded into
    /// its reply ([`premove::fold_into`]). A reply that ends the game tells every player
    /// once, as any ending action does (its author aside).
    fn play_lines(&mut self, reply: &mut Reply, thread: &str, now: Timestamp) {
        let fired = self.settle_lines(thread, now);
        if fired.is_empty() {
            return;
        }
        let mut played = fired.iter().filter(|f| f.played());
        let authors: Vec<String> = played.clone().map(|f| f.author.clone()).collect();
        let last = played
            .next_back()
            .map(|f| f.reply.text.clone())
            .unwrap_or_default();
        premove::fold_into(reply, thread, fired);
        if let Some(game) = self.games.get(thread).filter(|g| g.finished()) {
            reply.notify = game_over(&**game, &last, &authors);
        }
    }

    /// The conditional moves of a thread's game, as stored (JSON; empty for none).
    pub fn book_json(&self, thread: &str) -> String {
        self.books
            .get(thread)
            .map(premove::Book::to_json)
            .unwrap_or_default()
    }

    /// Puts a game's conditional moves (loaded from storage) in its thread.
    ///
    /// # Errors
    /// They do not decode (the thread keeps none).
    pub fn set_book_json(&mut self, thread: &str, json: &str) -> Result<(), serde_json::Error> {
        let book = premove::Book::from_json(json);
        match book {
            Ok(b) => {
                self.books.insert(thread.to_string(), b);
                Ok(())
            }
            Err(e) => {
                self.books.remove(thread);
                Err(e)
            }
        }
    }

    /// Whether a thread's game has conditional moves waiting.
    pub fn has_lines(&self, thread: &str) -> bool {
        self.books.get(thread).is_some_and(|b| !b.lines.is_empty())
    }

    /// Plays the replies of conditional moves now due in a thread (see [`premove::settle`]).
    fn settle_lines(&mut self, thread: &str, now: Timestamp) -> Vec<premove::Fired> {
        let (Some(book), Some(game)) = (self.books.get_mut(thread), self.games.get_mut(thread))
        else {
            return Vec::new();
        };
        if book.lines.is_empty() {
            return Vec::new();
        }
        let fired = premove::settle(book, &mut **game, thread, now);
        if fired.iter().any(premove::Fired::played) {
            self.pending.retain(|_, p| p.thread != thread);
            self.asks.retain(|_, a| a.thread != thread);
        }
        fired
    }

    /// At a timer (a lock lifted by time, a turn's default play): the replies of conditional
    /// moves it made due, each a message for the thread; and their authors, who need no
    /// other word of it.
    pub fn settle_premoves(&mut self, thread: &str, now: Timestamp) -> (Vec<Notify>, Vec<String>) {
        let fired = self.settle_lines(thread, now);
        let authors = fired
            .iter()
            .filter(|f| f.played())
            .map(|f| f.author.clone())
            .collect();
        (premove::as_notices(fired), authors)
    }

    /// Handles a command whose options were checked ([`Hub::handle`], a button's press, a
    /// confirmation of one asked first); `entropy` is the seed drawn for it, if it needs one.
    fn handle_command(
        &mut self,
        caller: &Caller<'_>,
        entropy: u64,
        cmd: &Command,
        raw: &str,
    ) -> Reply {
        let Caller {
            user,
            roles,
            thread,
            now,
        } = *caller;
        let name = cmd.name.as_str();
        if name == "help" {
            return self.help(thread, cmd);
        }
        if matches!(
            declare::run_of(cmd),
            declare::Run::Tournament | declare::Run::NewTournament
        ) {
            return self.tournament_command(caller, entropy, cmd);
        }
        if let Some(kind) = kinds().into_iter().find(|k| k.group == name) {
            return Reply::refused(format!(
                "use /{} new (see /help for its options)",
                kind.group
            ));
        }
        if let Some(kind) = kinds()
            .into_iter()
            .find(|k| name.strip_prefix(k.group) == Some(" new"))
        {
            return self.new_game(kind, caller, entropy, cmd);
        }
        let Some(game) = self.games.get_mut(thread) else {
            let starts: Vec<String> = kinds()
                .iter()
                .map(|k| format!("/{} new", k.group))
                .collect();
            return Reply::refused(format!(
                "there is no game in this thread (an organiser starts one with {})",
                starts.join(" or ")
            ));
        };
        let logged = game.log_len();
        let before = Standing::of(&**game, now);
        let reply = match name {
            "takeback" => {
                let seated = game.users().iter().any(|u| u == user);
                match own_substitution(&**game, user).filter(|_| !seated) {
                    // A substitution is taken back by whoever made it; by someone who holds
                    // no seat (an organiser, a moderator), as the log's revert of that one
                    // action.
                    Some(to) => {
                        let b = Bookkeeping {
                            actor: user,
                            action: LogAction::Revert {
                                to,
                                reason: "taken back by whoever made it",
                                entropy,
                            },
                            now,
                            raw,
                        };
                        match game.bookkeeping(b) {
                            Ok(r) => r,
                            Err(e) => Reply::refused(e),
                        }
                    }
                    None => match game.bookkeeping(Bookkeeping {
                        actor: user,
                        action: LogAction::Takeback,
                        now,
                        raw,
                    }) {
                        Ok(r) => r,
                        Err(e) => Reply::refused(e),
                    },
                }
            }
            "revert" => {
                if !roles.moderator && !game.moderates(user) {
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
                                log_len: game.log_len(),
                                entropy,
                            },
                        );
                        let by = now + CONFIRM_WINDOW;
                        Reply { ok: Some(true), text: format!("revert to before #{to} will undo:\n{}\npress the button by {} ({}) to confirm", lines.join("\n"), stamp(by, Style::Full), stamp(by, Style::Relative)), buttons: vec![id], ephemeral: true, ..Reply::default() }
                    }
                    Err(e) => Reply::refused(e),
                };
            }
            "status" => {
                // A paused game (the layer's clock, or its own rules) waits on nobody.
                let paused = game.away().paused_at(now).is_some() || game.stalled(now).is_some();
                let waits = (!paused)
                    .then(|| mygames::waits_line(&game.waits(now)))
                    .flatten()
                    .map(|l| format!("\n{l}"))
                    .unwrap_or_default();
                return Reply {
                    ok: Some(true),
                    text: format!(
                        "{}\n{}{waits}",
                        game.status(now).trim_end(),
                        crate::layer::game::settings_text(&**game)
                    ),
                    ephemeral: true,
                    ..Reply::default()
                };
            }
            "moves" => return moves_reply(&**game, user, cmd, now),
            "premove" => match premove::now_due(&**game, caller, cmd) {
                Err(why) => return Reply::refused(why),
                // On one's own turn a `now:` move is played at once, as `/move` would.
                Ok(Some(m)) => {
                    let play = Command {
                        name: "move".into(),
                        positional: Vec::new(),
                        options: vec![("notation".into(), m)],
                    };
                    match game.act(caller, &play, raw) {
                        Some(r) => r,
                        None => Reply::refused("there is no move to play here"),
                    }
                }
                Ok(None) => {
                    let book = self.books.entry(thread.to_string()).or_default();
                    premove::command(book, &**game, caller, cmd)
                }
            },
            "substitute" => {
                let (Some(old), Some(new)) = (
                    cmd.opt("player").map(mention).filter(|u| !u.is_empty()),
                    cmd.opt("by").map(mention).filter(|u| !u.is_empty()),
                ) else {
                    return Reply::refused("say who: /substitute player:@old by:@new");
                };
                let may = roles.organiser
                    || roles.moderator
                    || game.moderates(user)
                    || game.officials().iter().any(|o| o == user)
                    || game.organiser().as_deref() == Some(user);
                if !may {
                    return Reply::refused(
                        "only the organiser, a moderator, or the game's Chess-Umpire or Referees may hand a seat to a substitute",
                    );
                }
                if game.finished() {
                    return Reply::refused("the game is over: its seats stay as they were");
                }
                if new == user {
                    return Reply::refused(
                        "you may not hand a seat to yourself: whoever seats a substitute stays outside the game (another official may seat you)",
                    );
                }
                let users = game.users();
                if users.contains(&new) {
                    return Reply::refused(format!(
                        "{new} already plays in this game: a substitute must be someone new"
                    ));
                }
                let Some(seat) = users.iter().position(|u| *u == old) else {
                    return Reply::refused(format!("{old} does not play in this game"));
                };
                let handing = Bookkeeping {
                    actor: user,
                    action: LogAction::Substitute(crate::layer::log::Handover {
                        seat,
                        from: old.clone(),
                        to: new.clone(),
                    }),
                    now,
                    raw,
                };
                match game.bookkeeping(handing) {
                    Err(e) => Reply::refused(e),
                    Ok(mut r) => {
                        if let Some(book) = self.books.get_mut(thread) {
                            book.lines.retain(|l| l.author != old);
                        }
                        let title = game.kind().title;
                        let waits: Vec<String> = game
                            .waits(now)
                            .into_iter()
                            .filter(|w| w.user == new)
                            .map(|w| w.what)
                            .collect();
                        let ask = if waits.is_empty() {
                            format!("you play {old}'s seat in this game of {title} from now on")
                        } else {
                            format!(
                                "you play {old}'s seat in this game of {title} from now on; it waits on you: {}",
                                waits.join(", ")
                            )
                        };
                        let told = Notify::to(
                            [old.clone()],
                            format!("{new} plays your seat in this game from now on"),
                        );
                        r.notify = Some(Notify::to([new.clone()], ask).and(told));
                        r
                    }
                }
            }
            "premoves" => {
                let book = self.books.entry(thread.to_string()).or_default();
                return premove::list(book, user);
            }
            "export" => {
                let mut text =
                    with_settings_tag(&game.export(), &crate::layer::game::settings_text(&**game));
                if game.finished() {
                    if let Some(book) = self.books.get(thread) {
                        text.push_str(&premove::export_lines(book));
                    }
                }
                return Reply {
                    ok: Some(true),
                    text,
                    ephemeral: true,
                    ..Reply::default()
                };
            }
            other => match game.act(caller, cmd, raw) {
                Some(r) => r,
                None => {
                    let here = game.kind();
                    let owners = declare::owners_of_command(other);
                    return match owners.first() {
                        Some(k) if !owners.iter().any(|o| std::ptr::eq(*o, here)) => {
                            let titles: Vec<&str> = owners.iter().map(|o| o.title).collect();
                            Reply::refused(format!(
                                "/{other} is {} {} command; this thread is playing {}",
                                article(k.title),
                                titles.join(" or "),
                                here.title
                            ))
                        }
                        _ => Reply::refused(format!("unknown command /{other}; try /help")),
                    };
                }
            },
        };
        // Any logged action (a hand-over refused to its sender included) ends pending
        // revert confirmations (shared rules 7.3).
        if self.games.get(thread).map(|g| g.log_len()) != Some(logged) {
            self.pending.retain(|_, p| p.thread != thread);
            self.asks.retain(|_, a| a.thread != thread);
        }
        match self.games.get(thread) {
            Some(game) => before.settle(&**game, reply, now),
            None => reply,
        }
    }

    /// `/help [game:<name>]`: in a game's thread, that game's commands first, then one line
    /// naming the other games; with `game:`, that game's (or the tournaments') commands;
    /// elsewhere, every game's.
    fn help(&self, thread: &str, cmd: &Command) -> Reply {
        let asked = cmd
            .opt("game")
            .or(cmd.positional.first().map(String::as_str))
            .map(|g| g.trim().to_lowercase())
            .filter(|g| !g.is_empty());
        let named = |g: &str| {
            kinds()
                .into_iter()
                .find(|k| k.variant == g || k.group == g || k.title.to_lowercase() == g)
        };
        let here = match &asked {
            Some(g) if g.starts_with("tournament") => {
                return Reply::ok(declare::tournament_help());
            }
            Some(g) => match named(g) {
                Some(k) => Some(k),
                None => {
                    let known: Vec<&str> = kinds().iter().map(|k| k.group).collect();
                    return Reply::refused(format!(
                        "no game called {g}; ask for one of {}, or tournament",
                        known.join(", ")
                    ));
                }
            },
            None => self.games.get(thread).map(|g| g.kind()),
        };
        let Some(here) = here else {
            let games: Vec<String> = kinds()
                .iter()
                .map(|k| declare::help_line(k.variant, k.title))
                .collect();
            return Reply::ok(format!(
                "{}\n{}\n{}",
                games.join("\n"),
                declare::tournament_help(),
                declare::anywhere_help()
            ));
        };
        let others: Vec<String> = kinds()
            .iter()
            .filter(|k| !std::ptr::eq(**k, here))
            .map(|k| format!("{} (/help game:{})", k.title, k.group))
            .collect();
        Reply::ok(format!(
            "{}\nOther games: {}; tournaments (/help game:tournament); commands of no game (/help).",
            declare::help_text(here.variant, here.title),
            others.join(", ")
        ))
    }

    fn new_game(
        &mut self,
        kind: &'static GameKind,
        caller: &Caller<'_>,
        entropy: u64,
        cmd: &Command,
    ) -> Reply {
        if !caller.roles.organiser {
            return Reply::refused(
                "only an organiser may start a game (Manage Threads or the organiser role)",
            );
        }
        if self.games.contains_key(caller.thread) {
            return Reply::refused(
                "this thread already has a game; start the next one in a new thread",
            );
        }
        if self.tournaments.contains_key(caller.thread) {
            return Reply::refused(
                "this is a tournament's thread: its matches get threads of their own from /tournament pair",
            );
        }
        match (kind.create)(caller, cmd, entropy) {
            Ok(new) => {
                let mut reply = new.reply;
                if reply.ok == Some(true) {
                    reply.text = format!(
                        "{}\n{}",
                        reply.text.trim_end(),
                        crate::layer::game::settings_text(&*new.game)
                    );
                }
                self.games.insert(caller.thread.to_string(), new.game);
                reply
            }
            Err(why) => Reply::refused(why),
        }
    }

    /// A plain chat message in a thread.
    pub fn chat(&mut self, user: &str, thread: &str, now: Timestamp) {
        if let Some(game) = self.games.get_mut(thread) {
            game.chat(user, now);
        }
    }

    /// A user left the server: what the game in `thread` does of itself (an accepted
    /// action's reply), if anything.
    pub fn member_left(&mut self, thread: &str, user: &str, now: Timestamp) -> Option<Reply> {
        let mut reply = self.games.get_mut(thread)?.member_left(user, now)?;
        self.play_lines(&mut reply, thread, now);
        Some(reply)
    }

    /// A console-only `!` line for the game in a thread (`!stack …`): the lines to print, or
    /// `None` when no game there takes it.
    pub fn console_line(
        &mut self,
        thread: &str,
        words: &[&str],
        now: Timestamp,
    ) -> Option<Vec<String>> {
        self.games.get_mut(thread)?.console(words, now)
    }

    /// A button press. The reply notifies nobody of their own action.
    pub fn press(&mut self, user: &str, id: &str, now: Timestamp) -> Reply {
        let thread = self.button_thread(id);
        let mut reply = self.press_button(user, id, now);
        reply.notify = reply.notify.and_then(|n| n.without(user));
        if let (Some(thread), Some(true)) = (thread, reply.ok) {
            self.play_lines(&mut reply, &thread, now);
        }
        reply
    }

    fn press_button(&mut self, user: &str, id: &str, now: Timestamp) -> Reply {
        // A button that stands for a command (a vote): pressed as if typed by the presser.
        if let Some((thread, text)) = command_button(id) {
            let Some(cmd) = parse_command(&text).filter(|c| declare::check(c).is_ok()) else {
                return Reply::refused("this button does nothing");
            };
            let caller = Caller {
                user,
                roles: Roles::default(),
                thread: &thread,
                now,
            };
            return self.handle_command(&caller, 0, &cmd, &text);
        }
        if let Some((confirmed, n)) = ask_button(id) {
            return self.answer_ask(user, confirmed, n, now);
        }
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
        if game.log_len() != p.log_len {
            return Reply::refused("the game changed since the preview; ask again with /revert");
        }
        let cmd = format!("/revert to:{} reason:{}", p.to, p.reason);
        let before = Standing::of(&**game, now);
        let revert = Bookkeeping {
            actor: user,
            action: LogAction::Revert {
                to: p.to,
                reason: &p.reason,
                entropy: p.entropy,
            },
            now,
            raw: &cmd,
        };
        match game.bookkeeping(revert) {
            Ok(mut r) => {
                // Everyone's position may have changed: every player is told, in the game's
                // own words when it addresses them all.
                let players = game.users();
                let told = r.notify.as_ref().map(Notify::users).unwrap_or_default();
                if !players.iter().all(|u| told.contains(u)) {
                    r.notify = Some(Notify::to(
                        players,
                        "a moderator reverted the game; see the thread",
                    ));
                }
                let r = before.settle(&**game, r, now);
                let thread = p.thread.clone();
                self.pending.retain(|_, q| q.thread != thread);
                self.asks.retain(|_, a| a.thread != thread);
                r
            }
            Err(e) => Reply::refused(e),
        }
    }

    /// Confirm or Cancel pressed on a question of [`Hub::ask_first`]: Confirm runs the
    /// command as its sender typed it; Cancel drops it.
    fn answer_ask(&mut self, user: &str, confirmed: bool, n: u64, now: Timestamp) -> Reply {
        let Some(ask) = self.asks.get(&n) else {
            return Reply::refused(
                "this button has expired (another action was accepted, or it was used)",
            );
        };
        if ask.user != user {
            return Reply::refused(format!("only {} may answer this question", ask.user));
        }
        if now > ask.created + CONFIRM_WINDOW {
            self.asks.remove(&n);
            return Reply::refused(
                "this question expired after 15 minutes; type the command again",
            );
        }
        let Some(ask) = self.asks.remove(&n) else {
            return Reply::refused("expired");
        };
        if !confirmed {
            return Reply {
                ok: Some(true),
                text: format!(
                    "cancelled: /{} was not done; the game goes on",
                    ask.cmd.name
                ),
                ephemeral: true,
                ..Reply::default()
            };
        }
        let caller = Caller {
            user,
            roles: ask.roles,
            thread: &ask.thread,
            now,
        };
        self.handle_command(&caller, ask.entropy, &ask.cmd, &ask.raw)
    }

    /// Timer messages that fall due in `(after, until]`, each sent once.
    pub fn due_messages(&mut self, after: Timestamp, until: Timestamp) -> Vec<(String, Notify)> {
        let due = self.due_timers(after, until);
        due.into_iter()
            .map(|(thread, d)| {
                self.mark_notified(&thread, d.seat, d.at);
                (thread, d.notify)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::MAX_SEED;

    /// A line stored before lines were read when set (issue 54: `é4` then panicked in the
    /// game's hints, in someone else's command): dropped with a note to its author, and the
    /// move that matched it played as usual.
    #[test]
    fn a_stored_line_that_does_not_read_is_dropped_with_a_note() {
        let mut hub = Hub::new();
        let send = |hub: &mut Hub, user: &str, text: &str| {
            let cmd = parse_command(text).expect("parses");
            let caller = Caller {
                user,
                roles: Roles {
                    organiser: true,
                    moderator: false,
                },
                thread: "k1",
                now: 1_767_225_600,
            };
            hub.handle(&caller, 1, &cmd, text)
        };
        for (u, t) in [
            ("org", "/kfb new team1:@a @b @c team2:@d @e @f seed:1"),
            ("f", "/pick order:second color:red army:fide"),
            ("a", "/pick order:first color:red army:fide"),
            ("e", "/pick order:first color:blue army:rookies"),
            ("b", "/pick order:second color:lightgreen army:nutty"),
            ("d", "/pick order:second color:lightgreen army:clobberers"),
            ("c", "/pick order:first color:blue army:forward"),
            ("a", "/move e2-e4"),
        ] {
            assert_eq!(send(&mut hub, u, t).ok, Some(true), "{u} {t}");
        }
        let stored = r#"{"lines":[{"author":"a","board":0,"seat":0,"turns":false,"base":1,"anchor":6,"rounds":[{"conds":[{"seat":3,"name":"d","play":"e7-e5","done":false}],"reply":"é4"}],"text":"e7-e5 é4"}]}"#;
        hub.set_book_json("k1", stored).expect("reads");
        assert!(hub.has_lines("k1"));
        let r = send(&mut hub, "d", "/move e7-e5");
        assert_eq!(r.ok, Some(true), "{}", r.text);
        assert!(!hub.has_lines("k1"));
        let r = send(&mut hub, "a", "/premoves");
        assert!(
            r.text
                .contains("you play é4 (dropped: é4 does not read as a play"),
            "{}",
            r.text
        );
    }

    #[test]
    fn options_take_mentions_and_main_arguments() {
        let c = parse_command("/move e2-e4 board:2").expect("parses");
        assert_eq!(c.name, "move");
        assert_eq!(c.positional, vec!["e2-e4"]);
        assert_eq!(c.opt("board"), Some("2"));
        let c = parse_command("/kfb new team1:@a @b @c team2:@d @e @f seed:3").expect("parses");
        assert_eq!(c.name, "kfb new");
        assert_eq!(c.opt("team1"), Some("@a @b @c"));
        assert_eq!(c.opt("team2"), Some("@d @e @f"));
        assert_eq!(c.opt("seed"), Some("3"));
    }

    #[test]
    fn rest_of_line_options_are_verbatim() {
        let c = parse_command("/kfb new team1:@a seed:1 position:a b:c  1:KQ,2:K - x:y ")
            .expect("parses");
        assert_eq!(c.opt("position"), Some("a b:c  1:KQ,2:K - x:y"));
        assert_eq!(c.opt("seed"), Some("1"));
        let c = parse_command("/revert to:3 reason:because it was wrong").expect("parses");
        assert_eq!(c.opt("reason"), Some("because it was wrong"));
        let c = parse_command("/tournament").expect("parses");
        assert_eq!(c.name, "tournament");
        let c = parse_command("/proxy grant player:@x for:@y").expect("parses");
        assert_eq!(c.name, "proxy grant");
    }

    fn run(hub: &mut Hub, user: &str, thread: &str, entropy: u64, text: &str) -> Reply {
        let caller = Caller {
            user,
            roles: Roles {
                organiser: true,
                moderator: false,
            },
            thread,
            now: 0,
        };
        let cmd = parse_command(text).expect("a command");
        hub.handle(&caller, entropy, &cmd, text)
    }

    #[test]
    fn drawn_and_typed_seeds_fit_in_53_bits() {
        let mut hub = Hub::new();
        let new = "/kfb new team1:@a @b @c team2:@d @e @f";
        // Drawn from any 64 bits of entropy: shown, and typed back to the same game.
        let r = run(&mut hub, "org", "t1", u64::MAX, new);
        assert_eq!(r.ok, Some(true), "{}", r.text);
        assert!(r.text.contains(&format!("seed {MAX_SEED};")), "{}", r.text);
        let again = run(&mut hub, "org", "t2", 5, &format!("{new} seed:{MAX_SEED}"));
        assert_eq!(again.ok, Some(true), "{}", again.text);
        assert_eq!(again.text, r.text, "the shown seed reproduces the game");
        let above = run(
            &mut hub,
            "org",
            "t3",
            5,
            &format!("{new} seed:{}", MAX_SEED + 1),
        );
        assert_eq!(above.ok, Some(false));
        assert!(
            above.text.contains("from 0 to 9007199254740991"),
            "{}",
            above.text
        );
        assert!(hub.game("t3").is_none());
        // Tournament teams: drawn the same way; a typed seed above the range is refused.
        run(&mut hub, "org", "cup", 1, "/tournament new name:Cup");
        for p in 1..=9 {
            let r = run(&mut hub, &format!("p{p}"), "cup", 1, "/signup");
            assert_eq!(r.ok, Some(true), "{}", r.text);
        }
        let r = run(
            &mut hub,
            "org",
            "cup",
            1,
            &format!("/tournament teams seed:{}", MAX_SEED + 1),
        );
        assert_eq!(r.ok, Some(false), "{}", r.text);
        let r = run(&mut hub, "org", "cup", u64::MAX, "/tournament teams");
        assert!(r.text.contains(&format!("seed {MAX_SEED}:")), "{}", r.text);
    }

    #[test]
    fn a_command_of_another_game_names_it_with_its_article() {
        let mut hub = Hub::new();
        run(
            &mut hub,
            "org",
            "t",
            1,
            "/kfb new team1:@a @b @c team2:@d @e @f seed:1",
        );
        let r = run(&mut hub, "a", "t", 1, "/concede");
        assert_eq!(r.ok, Some(false));
        assert_eq!(
            r.text,
            "/concede is an Ultimate Chess command; this thread is playing Kung Fu Bughouse"
        );
    }

    #[test]
    fn help_in_a_game_thread_lists_that_game_first_then_names_the_others() {
        let mut hub = Hub::new();
        run(
            &mut hub,
            "org",
            "t",
            1,
            "/ultimate new silver:@a red:@b black:@c green:@d seed:1",
        );
        let r = run(&mut hub, "a", "t", 1, "/help");
        // The players' commands one a line, the officials' after them (issue 55).
        let lines: Vec<&str> = r.text.lines().collect();
        assert_eq!(
            lines[0], "Ultimate Chess, the players' commands:",
            "{}",
            r.text
        );
        assert!(lines[1].starts_with("/concede"), "{}", r.text);
        let officials = lines
            .iter()
            .position(|l| l.starts_with("For organisers"))
            .expect("the officials' part");
        assert!(
            lines[officials + 1].starts_with("/ultimate new"),
            "{}",
            r.text
        );
        let last = lines.last().copied().unwrap_or_default();
        assert!(last.starts_with("Other games: "), "{last}");
        for g in ["kfb", "chex", "nomic", "party", "tournament"] {
            assert!(last.contains(&format!("/help game:{g}")), "{last}");
        }
        assert!(!last.contains("game:ultimate"), "{last}");
        // Another game's commands on request; every game's outside a game thread.
        let r = run(&mut hub, "a", "t", 1, "/help game:chex");
        assert!(
            r.text.starts_with("Chex, the players' commands:"),
            "{}",
            r.text
        );
        let r = run(&mut hub, "a", "elsewhere", 1, "/help");
        assert!(r.text.contains("Ultimate Chess: ") && r.text.contains("Chex: "));
        let r = run(&mut hub, "a", "t", 1, "/help game:go");
        assert_eq!(r.ok, Some(false), "{}", r.text);
    }

    #[test]
    fn nobody_is_notified_of_their_own_action_or_a_refusal() {
        let mut hub = Hub::new();
        // org plays in the game they create: the other five are told.
        let r = run(
            &mut hub,
            "org",
            "t",
            1,
            "/kfb new team1:@org @b @c team2:@d @e @f seed:1",
        );
        let n = r.notify.expect("a notification");
        assert_eq!(n.users(), ["b", "c", "d", "e", "f"].map(String::from));
        let r = run(
            &mut hub,
            "org",
            "t",
            1,
            "/pick order:first color:red army:fide",
        );
        assert_eq!(r.ok, Some(false), "team 2 picks first: {}", r.text);
        assert_eq!(r.notify, None);
        let r = run(
            &mut hub,
            "f",
            "t",
            1,
            "/pick order:second color:lightgreen army:clobberers",
        );
        assert_eq!(
            r.notify.map(|n| n.users()),
            Some(["org", "b", "c"].map(String::from).to_vec())
        );
    }
}
