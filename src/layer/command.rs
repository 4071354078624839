//! What a command is to the layer: the command as typed ([`Command`]), who sends it
//! ([`Caller`], [`Roles`]), and the reply every front end shows ([`Reply`]), with the ids of
//! the buttons that stand for a command. Plain data, shared by the games (which act on
//! commands) and the command layer (which parses and routes them).

use super::Notify;
use crate::time::Timestamp;

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
    /// Reads console text after the user name: `/move e2-e4 board:2`. A word without `:`
    /// after an option continues that option's value (`team1:@a @b @c`, `reason:a long
    /// reason`); before any option it is a main argument (`/move e2-e4`). A name `grouped`
    /// says takes a subcommand gets it (`kfb new`); an option `runs_to_end` names
    /// (`position:`, `text:`) takes the rest of the line as it is. `None` without a `/`.
    pub fn parse_with(
        text: &str,
        grouped: impl Fn(&str) -> bool,
        runs_to_end: impl Fn(&str) -> bool,
    ) -> Option<Command> {
        let rest = text.trim().strip_prefix('/')?;
        let mut words = Words(rest);
        let mut name = words.next()?.to_lowercase();
        let mut cmd = Command::default();
        if grouped(&name) {
            let save = words.0;
            match words.next() {
                Some(w) if !w.contains(':') => name = format!("{name} {}", w.to_lowercase()),
                _ => words.0 = save,
            }
        }
        cmd.name = name;
        while let Some(w) = words.next() {
            match w.split_once(':') {
                Some((k, v))
                    if !k.is_empty()
                        && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
                {
                    let key = k.to_lowercase();
                    if runs_to_end(&key) {
                        let value = format!("{v}{}", words.0).trim_end().to_string();
                        cmd.options.push((key, value));
                        break;
                    }
                    cmd.options.push((key, v.to_string()));
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

    /// [`Command::parse_with`] for a command that takes no subcommand and no option to the end
    /// of the line (a button's `vote …`, a push picked from a list).
    pub fn parse_plain(text: &str) -> Option<Command> {
        Command::parse_with(text, |_| false, |_| false)
    }

    /// An option's value.
    pub fn opt(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }
}

/// Whitespace-separated words that keep the unread rest of the text.
struct Words<'a>(&'a str);

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        let s = self.0.trim_start();
        if s.is_empty() {
            self.0 = s;
            return None;
        }
        let end = s.find(char::is_whitespace).unwrap_or(s.len());
        let (word, rest) = s.split_at(end);
        self.0 = rest;
        Some(word)
    }
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
    /// Only the sender sees it (refusals, previews).
    pub ephemeral: bool,
    /// Match threads to open (after `/tournament pair`).
    pub opens: Vec<MatchOpen>,
    /// News for other threads: (thread, text), like a match result for its tournament.
    pub notices: Vec<(String, String)>,
    /// Attach the standings picture of the thread's tournament.
    pub standings: bool,
    /// Whoever must act because of this action (never its sender), told in one public
    /// message in the thread; the only thing front ends notify users with. On Discord it is a
    /// newly created message after the reply (Discord notifies nobody for mentions in a
    /// deferred completion or an edit, so replies and edits notify nobody); the console
    /// prints its lines after the reply.
    pub notify: Option<Notify>,
    /// Text files to attach on Discord: (file name, contents), like a new Nomic game's
    /// ruleset.
    pub attachments: Vec<(String, String)>,
}

impl Reply {
    /// An accepted reply.
    pub fn ok(text: impl Into<String>) -> Reply {
        Reply {
            ok: Some(true),
            text: text.into(),
            ..Reply::default()
        }
    }
    /// A refusal (shown to its sender only).
    pub fn refused(text: impl Into<String>) -> Reply {
        Reply {
            ok: Some(false),
            text: text.into(),
            ephemeral: true,
            ..Reply::default()
        }
    }
}

/// A button that stands for a command typed in a thread: `cmd:<thread>:<command>`, the
/// command's spaces written `~` so that the id is one word (the console's `!press <id>`):
/// (thread, command).
pub fn command_button(id: &str) -> Option<(String, String)> {
    let (thread, cmd) = id.strip_prefix("cmd:")?.split_once(':')?;
    Some((thread.to_string(), cmd.replace('~', " ")))
}

/// The id of a button standing for `command` typed in `thread` (see [`command_button`]).
pub fn command_button_id(thread: &str, command: &str) -> String {
    format!("cmd:{thread}:{}", command.replace(' ', "~"))
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

/// A match whose thread a front end should open: it creates a thread and calls
/// [`Hub::open_match`] (through the service) with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchOpen {
    /// The tournament's thread.
    pub tournament: String,
    /// Round.
    pub round: u32,
    /// Board.
    pub board: u32,
    /// A title for the thread.
    pub title: String,
    /// `b` for a board, `t` for a table (the console names the thread
    /// `<tournament>/r<round><slot><board>`).
    pub slot: &'static str,
}

/// A user as typed in an option (`@ann`, `<@123>`): the bare name or id.
pub fn mention(v: &str) -> String {
    v.trim()
        .trim_start_matches("<@")
        .trim_start_matches('@')
        .trim_end_matches('>')
        .to_string()
}
