//! Conditional moves (`/premove`, issue 43) in random games of Kung Fu Bughouse, Ultimate
//! Chess and Party Chess, through the service on an in-memory database (the path the bot
//! takes).
//!
//! Each case plays random offered moves; at random points a player who is not on turn sets a
//! line: its conditions taken from the other seats' offered (or planned) plays, or `*` where
//! the game has turns, its replies from the author's own offered or planned plays; now and
//! then a `now:` line or `/premove clear`, and the clock jumps (KFB locks lift, Party turns
//! run out to their default play, each followed by the timer sweep). The moves that set off a
//! line favour its conditions, so that lines fire.
//!
//! Checked after every command:
//! - every move played from a line (a notice `… (premove)` in a reply or a timer message) is
//!   a log entry `/move … (premove)` by the line's author, one entry for each notice, a play
//!   of the author's seat, that the game offered to the author in the position just before
//!   it (the game rebuilt from the log up to that entry), and whose round's conditions
//!   were played since the author's last play on that board;
//! - a line never fires on a command that changes nothing (`/premoves`): whatever a move or
//!   a timer makes due is played with it;
//! - no line is dropped for a takeback or revert (none happen here).
//!
//! And at the end of each case, the game as stored (the service's store), a fresh service on
//! the same store (a restart: the lines read back too) and the game's export read back all
//! give the live game's `state_lines` and status.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use arbiter::bench::fixtures::SEED_ONE_DRAFT;
use arbiter::commands::{parse_command, Asker, Caller, LogRow, Reply, Roles, ThreadGame};
use arbiter::games::seeded::splitmix;
use arbiter::layer::premove::key;
use arbiter::service::Service;
use arbiter::store::Store;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};

const THREAD: &str = "pm";
const START: u64 = 1_767_225_600;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Kfb,
    Ultimate,
    Party,
}

impl Kind {
    fn users(self) -> &'static [&'static str] {
        match self {
            Kind::Kfb => &["a", "b", "c", "d", "e", "f"],
            Kind::Ultimate => &["ann", "ben", "cat", "dan"],
            Kind::Party => &["a", "b", "c", "d"],
        }
    }

    fn turns(self) -> bool {
        self != Kind::Kfb
    }
}

/// What the cases saw, summed over a kind's run.
#[derive(Default)]
struct Totals {
    lines: AtomicUsize,
    fired: AtomicUsize,
    fired_at_timer: AtomicUsize,
    moves: AtomicUsize,
    ended: AtomicUsize,
    left_exported: AtomicUsize,
}

/// The random choices of a case, read in turn (0 once used up).
struct Choices {
    v: Vec<u32>,
    at: usize,
}

impl Choices {
    fn below(&mut self, n: usize) -> usize {
        let x = self.v.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        if n == 0 {
            0
        } else {
            x as usize % n
        }
    }

    fn pick<T: Clone>(&mut self, v: &[T]) -> Option<T> {
        if v.is_empty() {
            None
        } else {
            Some(v[self.below(v.len())].clone())
        }
    }
}

struct Run<'t> {
    rt: tokio::runtime::Runtime,
    store: Store,
    svc: Service,
    kind: Kind,
    now: u64,
    entropy: u64,
    ch: Choices,
    trail: Vec<String>,
    /// Every reply a user wrote in a line, with the conditions of its round (seat, play or
    /// `*`), `None` for a `now:` move.
    replies: HashMap<String, Vec<Written>>,
    /// Conditions of the lines set, to steer play towards them.
    wanted: Vec<String>,
    /// Log entries checked so far.
    checked: usize,
    totals: &'t Totals,
}

/// A reply written in a line, and the conditions of its round (`None` for a `now:` move).
type Written = (String, Option<Vec<(usize, Option<String>)>>);

/// The user in a seat's name (`Red (ben)` → `ben`; Party and KFB name seats by their user).
fn user_of(name: &str) -> String {
    match name.split_once('(') {
        Some((_, rest)) => rest.trim_end_matches(')').to_string(),
        None => name.to_string(),
    }
}

fn premove_notices(r: &Reply) -> usize {
    r.notices
        .iter()
        .filter(|(_, t)| t.contains("(premove)"))
        .count()
}

impl<'t> Run<'t> {
    fn new(kind: Kind, seed: u64, choices: Vec<u32>, totals: &'t Totals) -> Run<'t> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let (store, svc) = rt.block_on(async {
            let store = Store::connect(Some("sqlite::memory:")).await.unwrap();
            let svc = Service::with_store(store.clone()).await.unwrap();
            (store, svc)
        });
        let mut run = Run {
            rt,
            store,
            svc,
            kind,
            now: START,
            entropy: seed,
            ch: Choices { v: choices, at: 0 },
            trail: Vec::new(),
            replies: HashMap::new(),
            wanted: Vec::new(),
            checked: 0,
            totals,
        };
        run.create(seed);
        run
    }

    fn fail(&self, what: &str) -> TestCaseError {
        let state = self
            .game()
            .map(|g| g.state_lines(self.now).join("\n    "))
            .unwrap_or_default();
        TestCaseError::fail(format!(
            "{:?}: {what}\n  last commands:\n    {}\n  state:\n    {state}",
            self.kind,
            self.trail.join("\n    ")
        ))
    }

    /// Sends a command as `user` through the service.
    fn send(&mut self, user: &str, text: &str) -> Reply {
        self.trail.push(format!("{user} {text}"));
        if self.trail.len() > 40 {
            self.trail.remove(0);
        }
        let cmd = parse_command(text).expect("a command");
        let roles = Roles {
            organiser: user == "org",
            moderator: false,
        };
        let caller = Caller {
            user,
            roles,
            thread: THREAD,
            now: self.now,
        };
        self.entropy = splitmix(self.entropy);
        let r = self
            .rt
            .block_on(self.svc.handle(&caller, self.entropy, &cmd, text, None));
        // A resignation or concession asks once (issue 55): confirmed here.
        let r = match r.buttons.iter().find(|b| b.starts_with("ask-confirm")) {
            Some(id) => self.rt.block_on(self.svc.press(user, id, self.now)),
            None => r,
        };
        if r.text.contains("(premove)") || !r.notices.is_empty() {
            self.trail.push(format!(
                "  -> {} | {}",
                r.text.lines().next().unwrap_or(""),
                r.notices
                    .iter()
                    .map(|(_, t)| t.lines().next().unwrap_or(""))
                    .collect::<Vec<_>>()
                    .join(" | ")
            ));
        }
        r
    }

    /// Sends a command, then checks the moves played from lines with it.
    fn act(&mut self, user: &str, text: &str) -> Result<Reply, TestCaseError> {
        let r = self.send(user, text);
        let fired = premove_notices(&r);
        self.totals.fired.fetch_add(fired, Ordering::Relaxed);
        self.check_log(fired)?;
        Ok(r)
    }

    fn ok(&mut self, user: &str, text: &str) -> Result<Reply, TestCaseError> {
        let r = self.act(user, text)?;
        if r.ok != Some(true) {
            return Err(self.fail(&format!("`{user} {text}` was refused: {}", r.text)));
        }
        Ok(r)
    }

    fn create(&mut self, seed: u64) {
        let game_seed = seed % 1_000_000;
        let picks: Vec<(String, String)> = match self.kind {
            Kind::Kfb => {
                self.send(
                    "org",
                    "/kfb new team1:@a @b @c team2:@d @e @f seed:1 move_limit:6m",
                );
                SEED_ONE_DRAFT
                    .iter()
                    .map(|(u, p)| (u.to_string(), p.to_string()))
                    .collect()
            }
            Kind::Ultimate => {
                self.send(
                    "org",
                    &format!("/ultimate new players:@ann @ben @cat @dan seed:{game_seed}"),
                );
                Vec::new()
            }
            Kind::Party => {
                self.send(
                    "org",
                    &format!(
                        "/party new umpire:@u swingers:@a @b @c @d seed:{game_seed} turn_limit:1d"
                    ),
                );
                let sets = ["RJCPP", "TDPPJ", "OEQPP", "HBCJP", "TODPP", "EQ%JP"];
                ["a", "b", "c", "d"]
                    .iter()
                    .map(|u| {
                        let s = sets[self.ch.below(sets.len())];
                        (u.to_string(), format!("/party pieces set:{s}"))
                    })
                    .collect()
            }
        };
        for (u, p) in picks {
            let r = self.send(&u, &p);
            assert_eq!(r.ok, Some(true), "{u} {p}: {}", r.text);
        }
        assert!(self.game().is_some(), "{:?} created", self.kind);
    }

    fn game(&self) -> Option<Box<dyn ThreadGame>> {
        self.rt
            .block_on(self.svc.with_game(THREAD, |g| g.clone_box()))
    }

    fn live(&self) -> Box<dyn ThreadGame> {
        self.game().expect("the game")
    }

    fn rows(g: &dyn ThreadGame) -> Vec<LogRow> {
        (0..g.log_len())
            .map(|i| g.row(i).expect("a row").expect("a row that reads"))
            .collect()
    }

    /// The new log entries: exactly `fired` of them are moves from lines, each by a user who
    /// wrote that reply, each a play of the author offered just before it.
    fn check_log(&mut self, fired: usize) -> Result<(), TestCaseError> {
        let g = self.live();
        let rows = Self::rows(&*g);
        let plays = g
            .conditional()
            .map(|c| c.plays(self.now))
            .unwrap_or_default();
        let mut found = 0;
        for i in self.checked..rows.len() {
            let row = &rows[i];
            let Some(rest) = row.command.strip_suffix(" (premove)") else {
                continue;
            };
            found += 1;
            let Some(mv) = rest.strip_prefix("/move ") else {
                return Err(self.fail(&format!("a premove entry not a /move: {row:?}")));
            };
            let wrote = self.replies.get(&row.actor).cloned().unwrap_or_default();
            let wrote: Vec<&Written> = wrote.iter().filter(|w| w.0 == mv).collect();
            if wrote.is_empty() {
                return Err(self.fail(&format!(
                    "{} never wrote the reply {mv} played for them: {row:?}",
                    row.actor
                )));
            }
            if row.reverted.is_some() {
                return Err(self.fail(&format!("a premove entry undone: {row:?}")));
            }
            // A play of the author's seat, in effect.
            let Some(played) = plays.iter().find(|p| p.index == i) else {
                return Err(self.fail(&format!("a premove entry that is no play: {row:?}")));
            };
            if key(&played.notation) != key(mv) {
                return Err(self.fail(&format!(
                    "entry {i} plays {}, not the reply {mv}",
                    played.notation
                )));
            }
            // Its round's conditions were met: since the author's last play on that board,
            // each seat named played what the line said (a `now:` move has none; a `*` asks
            // for nothing, since a seat that leaves the game before its turn never plays).
            let board: Vec<_> = plays
                .iter()
                .filter(|p| p.board == played.board && p.index < i)
                .collect();
            let last_own = board.iter().rposition(|p| p.seat == played.seat);
            let since = &board[last_own.map_or(0, |k| k + 1)..];
            let met = wrote.iter().any(|(_, conds)| match conds {
                None => true,
                Some(conds) => conds.iter().all(|(seat, play)| match play {
                    None => true,
                    Some(w) => since
                        .iter()
                        .any(|p| p.seat == *seat && key(w) == key(&p.notation)),
                }),
            });
            if !met {
                let seen: Vec<String> = since
                    .iter()
                    .map(|p| format!("seat {} {}", p.seat, p.notation))
                    .collect();
                return Err(self.fail(&format!(
                    "{mv} was played for {} (entry {i}) before its conditions were met: since their last play, {}; written {wrote:?}",
                    row.actor,
                    seen.join(", ")
                )));
            }
            let before = (g.kind().load)(
                g.users(),
                &g.settings_json().unwrap(),
                rows[..i].to_vec(),
                &arbiter::layer::clock::Away::none(),
            )
            .map_err(|e| self.fail(&format!("the log up to {i} does not load: {e}")))?;
            let offered = before
                .offered_moves(&Asker::new(&row.actor, row.time))
                .unwrap_or_default();
            if !offered.iter().any(|o| key(o) == key(mv)) {
                return Err(self.fail(&format!(
                    "{mv} was played for {} (entry {i}) but was not theirs to play: offered {}",
                    row.actor,
                    offered.join(" ")
                )));
            }
            let seat = before
                .conditional()
                .and_then(|c| c.premove_seat(&row.actor, row.time))
                .map(|s| s.seat);
            if seat != Ok(played.seat) {
                return Err(self.fail(&format!(
                    "entry {i} ({mv}) counts for seat {}, not {}'s ({seat:?})",
                    played.seat, row.actor
                )));
            }
        }
        if found != fired {
            return Err(self.fail(&format!(
                "{fired} moves from lines told, {found} in the log"
            )));
        }
        self.checked = rows.len();
        Ok(())
    }

    fn offered(&self, user: &str) -> Vec<String> {
        let now = self.now;
        let u = user.to_string();
        self.rt
            .block_on(self.svc.with_game(THREAD, move |g| {
                g.offered_moves(&Asker::new(&u, now)).unwrap_or_default()
            }))
            .unwrap_or_default()
    }

    fn planned(&self, user: &str) -> Vec<String> {
        let now = self.now;
        let u = user.to_string();
        self.rt
            .block_on(
                self.svc
                    .with_game(THREAD, move |g| g.planned_moves(&Asker::new(&u, now))),
            )
            .unwrap_or_default()
    }

    fn finished(&self) -> bool {
        self.live().finished()
    }

    /// Someone who may move plays a random offered move (a line's condition when one is
    /// offered, half the time).
    fn play(&mut self) -> Result<bool, TestCaseError> {
        let users = self.kind.users();
        let start = self.ch.below(users.len());
        for k in 0..users.len() {
            let u = users[(start + k) % users.len()];
            let mut list = self.offered(u);
            if self.kind == Kind::Party && list.len() > 1 {
                list.retain(|m| m != "surrender");
            }
            if list.is_empty() {
                continue;
            }
            let wanted: Vec<String> = list
                .iter()
                .filter(|m| self.wanted.iter().any(|w| key(w) == key(m)))
                .cloned()
                .collect();
            let mv = match self.ch.below(2) {
                0 if !wanted.is_empty() => self.ch.pick(&wanted).unwrap(),
                _ => self.ch.pick(&list).unwrap(),
            };
            self.ok(u, &format!("/move {mv}"))?;
            self.totals.moves.fetch_add(1, Ordering::Relaxed);
            return Ok(true);
        }
        Ok(false)
    }

    /// A play for `user` to plan with: offered now, or planned from the position.
    fn plays_of(&self, user: &str) -> Vec<String> {
        let now = self.offered(user);
        if now.is_empty() {
            self.planned(user)
        } else {
            now
        }
    }

    /// A player who may not play now sets a line (or a `now:` move, or clears theirs).
    fn set_line(&mut self) -> Result<(), TestCaseError> {
        let users = self.kind.users();
        let author = users[self.ch.below(users.len())];
        if !self.offered(author).is_empty() {
            return Ok(());
        }
        let now = self.now;
        let who = author.to_string();
        let Some(Ok(seat)) = self.rt.block_on(self.svc.with_game(THREAD, move |g| {
            g.conditional().and_then(|c| c.premove_seat(&who, now))
        })) else {
            return Ok(());
        };
        let mine = self.plays_of(author);
        let text = match self.ch.below(10) {
            0 => {
                self.act(author, "/premove clear")?;
                return Ok(());
            }
            1 => {
                let Some(m) = self.ch.pick(&mine) else {
                    return Ok(());
                };
                self.replies
                    .entry(author.to_string())
                    .or_default()
                    .push((m.clone(), None));
                format!("/premove now:{m}")
            }
            _ => {
                let rounds = 1 + self.ch.below(3);
                let mut words = Vec::new();
                for r in 0..rounds {
                    let seats = if r == 0 { &seat.before } else { &seat.between };
                    let mut conds = Vec::new();
                    for (k, (cond_seat, name)) in seats.iter().enumerate() {
                        let them = self.plays_of(&user_of(name));
                        let any = self.kind.turns() && (them.is_empty() || self.ch.below(4) == 0);
                        let w = if any {
                            "*".to_string()
                        } else {
                            match self.ch.pick(&them) {
                                Some(w) => w,
                                None => return Ok(()),
                            }
                        };
                        if r == 0 && k == 0 && w != "*" {
                            self.wanted.push(w.clone());
                        }
                        conds.push((*cond_seat, (w != "*").then(|| w.clone())));
                        words.push(w);
                    }
                    let Some(reply) = self.ch.pick(&mine) else {
                        return Ok(());
                    };
                    self.replies
                        .entry(author.to_string())
                        .or_default()
                        .push((reply.clone(), Some(conds)));
                    words.push(reply);
                }
                format!("/premove line:{}", words.join(" "))
            }
        };
        let r = self.act(author, &text)?;
        if r.ok == Some(true) {
            self.totals.lines.fetch_add(1, Ordering::Relaxed);
        } else if !r.text.contains("lines on this board already")
            // Two lines may not begin with the same plays (issue 53): the later is refused.
            && !r.text.contains("begins with the same play already")
        {
            return Err(self.fail(&format!("`{author} {text}` was refused: {}", r.text)));
        }
        Ok(())
    }

    /// The clock jumps, and the timers swept (what they make due played at once).
    fn clock(&mut self, secs: u64) -> Result<(), TestCaseError> {
        let after = self.now;
        self.now += secs;
        self.trail.push(format!("!clock +{secs}s"));
        let notes = self.rt.block_on(self.svc.due_messages(after, self.now));
        let fired = notes
            .iter()
            .filter(|(_, n)| n.text().contains("(premove)"))
            .count();
        if fired > 0 {
            self.trail
                .push(format!("  -> {fired} moves from lines at the timer"));
        }
        self.totals.fired.fetch_add(fired, Ordering::Relaxed);
        self.totals
            .fired_at_timer
            .fetch_add(fired, Ordering::Relaxed);
        self.check_log(fired)
    }

    /// A command that changes nothing must find nothing due; and no line was dropped for a
    /// takeback or revert.
    fn probe(&mut self) -> Result<(), TestCaseError> {
        let users = self.kind.users();
        let u = users[self.ch.below(users.len())];
        let r = self.act(u, "/premoves")?;
        if premove_notices(&r) > 0 {
            return Err(self.fail(&format!(
                "a line fired on /premoves: it was due before ({})",
                r.notices
                    .iter()
                    .map(|(_, t)| t.as_str())
                    .collect::<Vec<_>>()
                    .join(" | ")
            )));
        }
        if r.text.contains("takeback or revert") {
            return Err(self.fail(&format!(
                "a line dropped for a takeback that never was: {}",
                r.text
            )));
        }
        Ok(())
    }

    fn step(&mut self) -> Result<(), TestCaseError> {
        match self.ch.below(100) {
            0..=54 => {
                if !self.play()? {
                    self.clock(if self.kind == Kind::Party {
                        86_400
                    } else {
                        360
                    })?;
                }
            }
            55..=84 => self.set_line()?,
            85..=94 => {
                let secs = match self.kind {
                    Kind::Party => [3_600, 86_400][self.ch.below(2)],
                    _ => 30 + self.ch.below(400) as u64,
                };
                self.clock(secs)?;
            }
            _ => self.probe()?,
        }
        Ok(())
    }

    /// The game ends (a resignation, the Umpire's `/party end`), lines perhaps left: none
    /// plays any more, and no new one is set.
    fn end(&mut self) -> Result<(), TestCaseError> {
        // A last line, to be left unplayed.
        self.set_line()?;
        let users = self.kind.users();
        for &u in users {
            if self.finished() {
                break;
            }
            let r = match self.kind {
                Kind::Party => self.act("u", "/party end")?,
                Kind::Ultimate => self.act(u, "/concede")?,
                Kind::Kfb => self.act(u, "/resign")?,
            };
            self.trail
                .push(format!("  -> {}", r.text.lines().next().unwrap_or("")));
        }
        if !self.finished() {
            return Err(self.fail("the game did not end"));
        }
        self.totals.ended.fetch_add(1, Ordering::Relaxed);
        self.clock(86_400)?;
        let u = users[self.ch.below(users.len())];
        let r = self.act(u, "/premove now:pass")?;
        if r.ok == Some(true) {
            return Err(self.fail("a line was set after the end"));
        }
        Ok(())
    }

    fn view(g: &dyn ThreadGame, now: u64) -> (Vec<String>, String, bool) {
        (g.state_lines(now), g.status(now), g.finished())
    }

    /// Every user's `/premoves` as `svc` answers it.
    fn lists(&mut self) -> Vec<String> {
        self.kind
            .users()
            .iter()
            .map(|u| {
                let r = self.send(u, "/premoves");
                // Notes are read once: only the lines are compared.
                let text = r
                    .text
                    .split("dropped since")
                    .next()
                    .unwrap_or("")
                    .trim_end();
                format!("{u}: {text}")
            })
            .collect()
    }

    /// The live game, the stored one, a restarted service's and the export read back agree.
    fn reload(&mut self) -> Result<(), TestCaseError> {
        let now = self.now;
        let live = self.live();
        let want = Self::view(&*live, now);
        let stored = self
            .rt
            .block_on(self.store.load(THREAD))
            .map_err(|e| self.fail(&format!("the stored game does not load: {e}")))?
            .ok_or_else(|| self.fail("no stored game"))?;
        if Self::view(&*stored.game, now) != want {
            return Err(self.fail(&format!(
                "the stored game differs:\n    live:   {:?}\n    stored: {:?}",
                want,
                Self::view(&*stored.game, now)
            )));
        }
        let rows = Self::rows(&*live);
        let loaded = (live.kind().load)(
            live.users(),
            &live.settings_json().unwrap(),
            rows,
            &arbiter::layer::clock::Away::none(),
        )
        .map_err(|e| self.fail(&format!("the log does not load: {e}")))?;
        if Self::view(&*loaded, now) != want {
            return Err(self.fail("the game replayed from its log differs"));
        }
        let lists = self.lists();
        // A restart: a fresh service on the same store.
        let fresh = self
            .rt
            .block_on(Service::with_store(self.store.clone()))
            .unwrap();
        self.svc = fresh;
        let again = self.live();
        if Self::view(&*again, now) != want {
            return Err(self.fail("the game differs after a restart"));
        }
        let lists_again = self.lists();
        if lists != lists_again {
            return Err(self.fail(&format!(
                "the lines differ after a restart:\n    before: {lists:?}\n    after:  {lists_again:?}"
            )));
        }
        let export = self.send("org", "/export");
        if export.text.contains("Conditional moves left unplayed") {
            self.totals.left_exported.fetch_add(1, Ordering::Relaxed);
        }
        let imported = arbiter::commands::import(&export.text)
            .map_err(|e| self.fail(&format!("the export does not read back: {e}")))?;
        if Self::view(&*imported, now) != want {
            return Err(self.fail(&format!(
                "the exported game differs:\n    live:     {:?}\n    imported: {:?}",
                want,
                Self::view(&*imported, now)
            )));
        }
        Ok(())
    }
}

fn run_case(
    kind: Kind,
    seed: u64,
    steps: usize,
    choices: Vec<u32>,
    totals: &Totals,
) -> Result<(), TestCaseError> {
    let mut run = Run::new(kind, seed, choices, totals);
    for _ in 0..steps {
        if run.finished() {
            break;
        }
        run.step()?;
    }
    run.probe()?;
    if run.ch.below(2) == 0 {
        run.end()?;
    }
    run.reload()
}

fn property(kind: Kind, cases: u32, steps: std::ops::Range<usize>) -> Totals {
    let totals = Totals::default();
    // PROPTEST_CASES, when set, plays more (or fewer) cases.
    let cases = if std::env::var_os("PROPTEST_CASES").is_some() {
        Config::default().cases
    } else {
        cases
    };
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (
        any::<u64>(),
        steps,
        prop::collection::vec(any::<u32>(), 600),
    );
    let result = runner.run(&strategy, |(seed, steps, choices)| {
        run_case(kind, seed, steps, choices, &totals)
    });
    match result {
        Ok(()) => {}
        Err(TestError::Fail(why, (seed, steps, _))) => {
            panic!("{why}\n  (minimal case: seed {seed}, {steps} steps)")
        }
        Err(e) => panic!("{e}"),
    }
    eprintln!(
        "{kind:?}: {} moves, {} lines set, {} moves from lines ({} at a timer), {} games ended, {} exports with lines left",
        totals.moves.load(Ordering::Relaxed),
        totals.lines.load(Ordering::Relaxed),
        totals.fired.load(Ordering::Relaxed),
        totals.fired_at_timer.load(Ordering::Relaxed),
        totals.ended.load(Ordering::Relaxed),
        totals.left_exported.load(Ordering::Relaxed)
    );
    totals
}

#[test]
fn kfb_premoves_are_legal_and_replay() {
    let t = property(Kind::Kfb, 20, 40..90);
    assert!(t.fired.load(Ordering::Relaxed) > 10, "lines fired");
}

#[test]
fn ultimate_premoves_are_legal_and_replay() {
    let t = property(Kind::Ultimate, 20, 40..90);
    assert!(t.fired.load(Ordering::Relaxed) > 10, "lines fired");
}

#[test]
fn party_premoves_are_legal_and_replay() {
    let t = property(Kind::Party, 20, 40..90);
    assert!(t.fired.load(Ordering::Relaxed) > 10, "lines fired");
}
