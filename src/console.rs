//! The console front end: reads commands as typed in Discord from standard input, one line at
//! a time, and prints the replies (docs/console.md).

use std::collections::HashSet;
use std::io::{BufRead, Write};

use crate::commands::declare::{run_of, Desk, Run};
use crate::commands::{self, parse_command, Reply, Roles};
use crate::service::Service;
use crate::store::{Store, StoreError};
use crate::time::{parse_duration, utc_text, Timestamp};

/// Where the console's `/settings` are stored (its `meta` table).
const SETTINGS_KEY: &str = "console_settings";

/// Where the console's virtual clock starts (2026-01-01T00:00:00Z).
pub const START_TIME: Timestamp = 1_767_225_600;

/// Console state: the hub, the virtual clock, roles, the current thread, shown buttons.
pub struct Console {
    rt: tokio::runtime::Runtime,
    svc: Service,
    now: Timestamp,
    thread: String,
    organisers: HashSet<String>,
    moderators: HashSet<String>,
    buttons: std::collections::HashMap<String, String>,
    entropy: u64,
    pending_output: Vec<String>,
    /// The console server's `/settings reminder_after:` and `stall_after:` (seconds, 0 off).
    pace: [Option<u64>; 2],
    /// The console server's `/settings vacation_days:`.
    vacation_days: u32,
}

/// Prints a reply at `now`: its first line after `ok:` or `refused:`, its other lines, its
/// buttons, its news for threads (`[thread] text`), then the lines of its notification (`@d: your move on board 1 (…)`). Moments are
/// written in UTC.
fn print_reply(out: &mut Vec<String>, r: &Reply, now: Timestamp) {
    let text = utc_text(&r.text, now);
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    match r.ok {
        Some(true) => out.push(format!("ok: {first}")),
        Some(false) => out.push(format!("refused: {first}")),
        None => out.push(first.to_string()),
    }
    let rest: Vec<&str> = lines.collect();
    push_lines(out, rest);
    for b in &r.buttons {
        out.push(format!("[button:{b}]"));
    }
    // News for threads (a move played from a conditional line here, a result for a
    // tournament's thread) before the pings, which ask for what comes after it.
    for (thread, text) in &r.notices {
        out.extend(thread_lines(thread, text, now));
    }
    if let Some(n) = &r.notify {
        let text = utc_text(&n.text(), now);
        push_lines(out, text.lines().collect());
    }
}

/// Lines after a reply's first: none may start like a status line.
fn push_lines(out: &mut Vec<String>, lines: Vec<&str>) {
    for l in lines {
        if l.starts_with("ok:") || l.starts_with("refused:") {
            out.push(format!("  {l}"));
        } else {
            out.push(l.to_string());
        }
    }
}

/// A notification for a thread, as `[thread] @a: …` lines.
fn thread_lines(thread: &str, text: &str, now: Timestamp) -> Vec<String> {
    utc_text(text, now)
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                format!("[{thread}] {l}")
            } else {
                format!("[{thread}]   {l}")
            }
        })
        .collect()
}

impl Console {
    /// An in-memory console whose clock starts at `now`; `entropy` seeds games created
    /// without `seed:`.
    ///
    /// # Panics
    /// If the async runtime cannot start (out of threads).
    pub fn new(now: Timestamp, entropy: u64) -> Console {
        #[allow(clippy::expect_used)]
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a single-threaded runtime");
        Console::with_service(rt, Service::in_memory(), now, entropy)
    }

    /// A console over a database (`None`: the default SQLite file). The virtual clock resumes
    /// where the last console run on that database left it.
    ///
    /// # Errors
    /// The runtime cannot start or the database cannot be opened.
    pub fn open(url: Option<&str>, entropy: u64) -> Result<Console, StoreError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| StoreError::Decode(format!("cannot start the runtime: {e}")))?;
        let (svc, now) = rt.block_on(async {
            let store = Store::connect(url).await?;
            let now = store
                .meta("console_clock")
                .await?
                .and_then(|v| v.parse().ok())
                .unwrap_or(START_TIME);
            let svc = Service::with_store(store).await?;
            Ok::<_, StoreError>((svc, now))
        })?;
        let mut c = Console::with_service(rt, svc, now, entropy);
        c.load_settings();
        // Timers that fell due while no console ran fire now, once.
        let due = c.rt.block_on(c.svc.due_messages(0, now));
        let mut lines = Vec::new();
        for (t, n) in due {
            lines.extend(thread_lines(&t, &n.text(), now));
            c.show_buttons(&n, &mut lines);
        }
        c.pending_output = lines;
        Ok(c)
    }

    fn with_service(
        rt: tokio::runtime::Runtime,
        svc: Service,
        now: Timestamp,
        entropy: u64,
    ) -> Console {
        Console {
            rt,
            svc,
            pending_output: Vec::new(),
            now,
            thread: "main".into(),
            organisers: HashSet::new(),
            moderators: HashSet::new(),
            buttons: std::collections::HashMap::new(),
            entropy,
            pace: [None, None],
            vacation_days: crate::layer::vacation::VACATION_DAYS,
        }
    }

    /// Handles one input line and returns the output lines.
    pub fn line(&mut self, line: &str) -> Vec<String> {
        let mut out = std::mem::take(&mut self.pending_output);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return out;
        }
        if let Some(rest) = line.strip_prefix('!') {
            self.bang(rest, &mut out);
            return out;
        }
        // `@@<id> ` before a command: an interaction id, so a command delivered twice (a
        // client retrying after a crash) is applied once.
        let (interaction, line) = match line.strip_prefix("@@") {
            Some(r) => match r.split_once(char::is_whitespace) {
                Some((id, rest)) => (Some(id.to_string()), rest.trim_start()),
                None => (None, line),
            },
            None => (None, line),
        };
        let (user, rest) = match line.split_once(char::is_whitespace) {
            Some((u, r)) => (u.trim_start_matches('@'), r.trim()),
            None => {
                out.push(
                    "error: write `<user> /<command> …`, `<user> <chat text>` or a `!` line".into(),
                );
                return out;
            }
        };
        if rest.starts_with('/') {
            let parsed = parse_command(rest);
            if let Some(Err(why)) = parsed.as_ref().map(commands::declare::check) {
                out.push(format!("refused: {why}"));
                return out;
            }
            match parsed {
                Some(cmd) if run_of(&cmd) == Run::Animation => match self.replay(&cmd) {
                    Ok(r) => {
                        out.push(format!("ok: {}", r.text()));
                        out.push(format!(
                            "[attachment:{} {}x{}]",
                            r.file_name(),
                            r.replay.size.0,
                            r.replay.size.1
                        ));
                        out.push(format!("[first frame: {}]", r.ends.0));
                        out.push(format!("[last frame: {}]", r.ends.1));
                    }
                    Err(why) => out.push(format!("refused: {why}")),
                },
                Some(cmd) if run_of(&cmd) == Run::Settings => {
                    let r = self.settings(user, &cmd);
                    print_reply(&mut out, &r, self.now);
                }
                Some(cmd) if run_of(&cmd) == Run::Anywhere(Desk::Vacation) => {
                    // The console's one server, with the bank its /settings give.
                    let caller = commands::Caller {
                        user,
                        roles: Roles::default(),
                        thread: &self.thread,
                        now: self.now,
                    };
                    let r = self.rt.block_on(self.svc.answer_here(
                        Desk::Vacation,
                        &caller,
                        &cmd,
                        self.vacation_days,
                    ));
                    print_reply(&mut out, &r, self.now);
                }
                Some(mut cmd) => {
                    let owned;
                    let mut rest = rest;
                    if let Some(more) = self.with_pace(&mut cmd) {
                        owned = format!("{rest}{more}");
                        rest = &owned;
                    }
                    let roles = Roles {
                        organiser: self.organisers.contains(user),
                        moderator: self.moderators.contains(user),
                    };
                    self.entropy = crate::games::seeded::splitmix(self.entropy);
                    let caller = commands::Caller {
                        user,
                        roles,
                        thread: &self.thread,
                        now: self.now,
                    };
                    let r = self.rt.block_on(self.svc.handle(
                        &caller,
                        self.entropy,
                        &cmd,
                        rest,
                        interaction.as_deref(),
                    ));
                    for b in &r.buttons {
                        self.buttons.insert(b.clone(), user.to_string());
                    }
                    print_reply(&mut out, &r, self.now);
                    self.follow_up(&r, &mut out);
                }
                None => out.push("refused: empty command; try /help".into()),
            }
        } else {
            self.rt
                .block_on(self.svc.chat(user, &self.thread, self.now));
        }
        out
    }

    /// A timer message's buttons (a reminder's "not waiting on me"), each on a line of its own
    /// as replies show theirs; pressed as the user it notifies.
    fn show_buttons(&mut self, n: &commands::Notify, out: &mut Vec<String>) {
        for b in n.buttons() {
            out.push(format!("[button:{b}]"));
            let user = n.users().into_iter().next().unwrap_or_default();
            self.buttons.insert(b.clone(), user);
        }
    }

    /// `/settings` on the console (its one server): the organiser sets the reminder interval
    /// and stall time of new games and the players' vacation days; roles are Discord's (here
    /// `!as organiser <user>`).
    fn settings(&mut self, user: &str, cmd: &commands::Command) -> Reply {
        if let Err(e) = commands::declare::check(cmd) {
            return Reply::refused(e);
        }
        let show = |p: [Option<u64>; 2], days: u32| {
            format!(
                "new games: {}; {days} vacation days per player and year",
                crate::time::paces_text(
                    p[0].unwrap_or(crate::layer::remind::REMIND_AFTER),
                    p[1].unwrap_or(crate::layer::remind::STALL_AFTER)
                )
            )
        };
        if cmd.options.is_empty() {
            return Reply::ok(show(self.pace, self.vacation_days));
        }
        if !self.organisers.contains(user) {
            return Reply::refused("only an organiser may change the settings");
        }
        let mut pace = self.pace;
        let mut days = self.vacation_days;
        for (k, v) in &cmd.options {
            let i = match k.as_str() {
                "reminder_after" => 0,
                "stall_after" => 1,
                "vacation_days" => {
                    match v.trim().parse::<u32>() {
                        Ok(n) if n <= 366 => days = n,
                        _ => {
                            return Reply::refused(format!(
                                "vacation_days: takes a number of days from 0 to 366; not {v}"
                            ))
                        }
                    }
                    continue;
                }
                other => {
                    return Reply::refused(format!(
                        "{other}: is Discord's (roles and defaults of its servers); the console sets reminder_after:, stall_after: and vacation_days:"
                    ))
                }
            };
            match crate::time::parse_pace(v) {
                Ok(secs) => pace[i] = Some(secs),
                Err(e) => return Reply::refused(format!("{k}: {e}")),
            }
        }
        self.pace = pace;
        self.vacation_days = days;
        self.save_settings();
        Reply::ok(show(pace, days))
    }

    /// The console server's settings as stored (`reminder_after,stall_after,vacation_days`,
    /// seconds and days; an empty field is the default), like a Discord server's.
    fn load_settings(&mut self) {
        let stored = self.rt.block_on(async {
            match self.svc.store() {
                Some(store) => store.meta(SETTINGS_KEY).await,
                None => Ok(None),
            }
        });
        let text = match stored {
            Ok(Some(t)) => t,
            Ok(None) => return,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the console's settings");
                return;
            }
        };
        let fields: Vec<&str> = text.split(',').collect();
        if let [r, st, d] = fields[..] {
            self.pace = [r.parse().ok(), st.parse().ok()];
            if let Ok(d) = d.parse() {
                self.vacation_days = d;
            }
        }
    }

    fn save_settings(&mut self) {
        let field = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
        let text = format!(
            "{},{},{}",
            field(self.pace[0]),
            field(self.pace[1]),
            self.vacation_days
        );
        let saved = self.rt.block_on(async {
            match self.svc.store() {
                Some(store) => store.set_meta(SETTINGS_KEY, &text).await,
                None => Ok(()),
            }
        });
        if let Err(e) = saved {
            tracing::error!(error = %e, "cannot save the console's settings");
        }
    }

    /// A line of input as read, which may not be UTF-8: such a line is refused (`refused:
    /// not valid UTF-8`) and the run goes on.
    pub fn line_bytes(&mut self, bytes: &[u8]) -> Vec<String> {
        match std::str::from_utf8(bytes) {
            Ok(line) => self.line(line),
            Err(_) => {
                let mut out = std::mem::take(&mut self.pending_output);
                out.push("refused: not valid UTF-8".into());
                out
            }
        }
    }

    /// A game's `new` without its own `remind:`/`stall:` gets the server's: the options
    /// added, as text to append to the command as typed.
    fn with_pace(&self, cmd: &mut commands::Command) -> Option<String> {
        let new_game = commands::kinds()
            .iter()
            .any(|k| cmd.name == format!("{} new", k.group));
        if !new_game {
            return None;
        }
        let mut more = String::new();
        for (name, value) in [("remind", self.pace[0]), ("stall", self.pace[1])] {
            if let (Some(v), None) = (value, cmd.opt(name)) {
                let text = crate::time::pace_text(v);
                more.push_str(&format!(" {name}:{text}"));
                cmd.options.push((name.to_string(), text));
            }
        }
        (!more.is_empty()).then_some(more)
    }

    /// What a reply asks for beyond itself: news for other threads, printed as
    /// `[thread] text`, and match threads to open (named `<tournament>/r<round>b<board>`, `t` for a table),
    /// each printing its game's first message.
    fn follow_up(&mut self, r: &Reply, out: &mut Vec<String>) {
        for m in &r.opens {
            let thread = format!("{}/r{}{}{}", m.tournament, m.round, m.slot, m.board);
            let reply = self.rt.block_on(self.svc.open_match(
                &m.tournament,
                m.round,
                m.board,
                &thread,
                self.now,
            ));
            let mut lines = Vec::new();
            print_reply(&mut lines, &reply, self.now);
            out.extend(lines.into_iter().map(|l| format!("[{thread}] {l}")));
        }
    }

    /// `/replay` in the current thread, drawn (the console shows what Discord would attach).
    fn replay(
        &mut self,
        cmd: &commands::Command,
    ) -> Result<crate::layer::replay::Replayed, String> {
        self.rt
            .block_on(self.svc.replay(&self.thread, cmd, self.now))
    }

    fn bang(&mut self, rest: &str, out: &mut Vec<String>) {
        let mut words = rest.split_whitespace();
        match words.next() {
            Some("clock") => {
                let arg = words.next().unwrap_or("");
                match parse_duration(arg) {
                    Ok(d) if arg.starts_with('+') => {
                        let before = self.now;
                        self.now += d;
                        let due = self.rt.block_on(async {
                            if let Some(store) = self.svc.store() {
                                if let Err(e) =
                                    store.set_meta("console_clock", &self.now.to_string()).await
                                {
                                    tracing::error!(error = %e, "cannot save the console clock");
                                }
                            }
                            self.svc.due_messages(before, self.now).await
                        });
                        for (thread, n) in due {
                            out.extend(thread_lines(&thread, &n.text(), self.now));
                            self.show_buttons(&n, out);
                        }
                    }
                    _ => out.push(
                        "error: write !clock +<duration>, like !clock +6h or !clock +90s".into(),
                    ),
                }
            }
            Some("press") => {
                let id = words.next().unwrap_or("");
                let user = self.buttons.get(id).cloned().unwrap_or_default();
                let r = self.rt.block_on(self.svc.press(&user, id, self.now));
                print_reply(out, &r, self.now);
                self.follow_up(&r, out);
            }
            Some("as") => {
                let (role, user) = (words.next(), words.next());
                match (role, user) {
                    (Some("organiser" | "organizer"), Some(u)) => {
                        self.organisers
                            .insert(u.trim_start_matches('@').to_string());
                    }
                    (Some("moderator"), Some(u)) => {
                        self.moderators
                            .insert(u.trim_start_matches('@').to_string());
                    }
                    _ => {
                        out.push("error: write !as organiser <user> or !as moderator <user>".into())
                    }
                }
            }
            Some("thread") => match words.next() {
                Some(t) => self.thread = t.to_string(),
                None => out.push("error: write !thread <name>".into()),
            },
            Some("state") => {
                let now = self.now;
                let lines = self
                    .rt
                    .block_on(self.svc.with_game(&self.thread, |g| g.state_lines(now)));
                let lines = match lines {
                    Some(l) => Some(l),
                    None => self.rt.block_on(
                        self.svc
                            .with_tournament(&self.thread, commands::tournament_lines),
                    ),
                };
                match lines {
                    Some(l) => out.extend(l),
                    None => out.push("no game or tournament in this thread".into()),
                }
            }
            Some("time") => out.push(format!("time {}", self.now)),
            Some("leave") => match words.next() {
                // A member leaving the server (the Discord bot hears it from the gateway):
                // what each game does, as `[thread] …` lines.
                Some(u) => {
                    let user = u.trim_start_matches('@');
                    let acted = self.rt.block_on(self.svc.member_left(user, self.now));
                    if acted.is_empty() {
                        out.push(format!("{user} left the server (no game acts on it)"));
                    }
                    for (thread, r) in acted {
                        out.extend(thread_lines(&thread, &r.text, self.now));
                    }
                }
                None => out.push("error: write !leave <user>".into()),
            },
            Some("replay") => {
                // `!replay <file.gif> [from:…] [to:…] [board:…] [speed:…]`: `/replay`, written.
                let Some(file) = words.next() else {
                    out.push("error: write !replay <file.gif> [options]".into());
                    return;
                };
                let options: Vec<&str> = words.collect();
                let Some(cmd) = parse_command(&format!("/replay {}", options.join(" "))) else {
                    out.push("error: write !replay <file.gif> [options]".into());
                    return;
                };
                match self.replay(&cmd) {
                    Ok(r) => match std::fs::write(file, &r.replay.gif) {
                        Ok(()) => out.push(format!("wrote {file}: {}", r.text())),
                        Err(e) => out.push(format!("error: cannot write {file}: {e}")),
                    },
                    Err(e) => out.push(format!("refused: {e}")),
                }
            }
            Some("render") => {
                let Some(file) = words.next() else {
                    out.push("error: write !render <file.png>".into());
                    return;
                };
                let now = self.now;
                let picture = self.rt.block_on(self.svc.with_game(&self.thread, |g| {
                    g.pictures().map(|p| p.picture(&self.thread, now))
                }));
                let picture = match picture {
                    Some(Some(job)) => Some(job()),
                    Some(None) => Some(Err("this game has no picture".to_string())),
                    None => self.rt.block_on(
                        self.svc
                            .with_tournament(&self.thread, commands::standings_picture),
                    ),
                };
                match picture {
                    None => out.push("error: no game or tournament in this thread".into()),
                    Some(Ok(png)) => match std::fs::write(file, &png) {
                        Ok(()) => {
                            // The size, from the PNG's header (width and height, big-endian).
                            let be = |i: usize| {
                                png.get(i..i + 4)
                                    .and_then(|b| <[u8; 4]>::try_from(b).ok())
                                    .map_or(0, u32::from_be_bytes)
                            };
                            out.push(format!(
                                "wrote {file} ({} bytes, {}x{})",
                                png.len(),
                                be(16),
                                be(20)
                            ));
                        }
                        Err(e) => out.push(format!("error: cannot write {file}: {e}")),
                    },
                    Some(Err(e)) => out.push(format!("error: {e}")),
                }
            }
            _ => {
                let all: Vec<&str> = rest.split_whitespace().collect();
                let now = self.now;
                match self
                    .rt
                    .block_on(self.svc.console_line(&self.thread, &all, now))
                {
                    Some(lines) => out.extend(lines),
                    None => out.push(
                        "error: unknown ! command (clock, press, as, thread, state, time, render, leave, stack)"
                            .into(),
                    ),
                }
            }
        }
    }
}

/// Runs the console over standard input and output until the end of input, over the
/// database at `url` (`None`: the default SQLite file `arbiter.db`).
///
/// # Errors
/// The database cannot be opened; standard input or output failing.
pub fn run(url: Option<&str>, entropy: u64) -> Result<(), Box<dyn std::error::Error>> {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    let mut console = Console::open(url, entropy)?;
    for l in std::mem::take(&mut console.pending_output) {
        writeln!(stdout, "{l}")?;
    }
    stdout.flush()?;
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            buf.pop();
        }
        for l in console.line_bytes(&buf) {
            writeln!(stdout, "{l}")?;
        }
        stdout.flush()?;
    }
    Ok(())
}
