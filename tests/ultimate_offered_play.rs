//! Every play Ultimate Chess offers is accepted exactly as offered (issue 39, item 11).
//!
//! Random four-player Ultimate Chess through the console on an SQLite file, the path the bot
//! takes: each step plays a random entry of the list `/moves` gives the player to move, with
//! takebacks and restarts (the console reopened on the same database file, every game
//! replayed from its stored log) mixed in. Every offered entry must be accepted (`ok:`) as it
//! is written; a takeback must give back the state before the move it undoes; `!state` and
//! every player's `/moves` must read the same before and after every restart. A game that
//! ends is followed by a new one in another thread (the modes taken in turn), so the run
//! keeps playing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter::games::kfb::splitmix;
use common::play::{first_line, random_plays, Driver, Rng};

const USERS: [&str; 4] = ["ann", "ben", "cat", "dan"];
const MODES: [&str; 3] = ["standard", "conquest", "devastation"];

common::play::counts! {
    /// What a run saw, to make sure it went through the cases that matter.
    struct Seen {
        moves,
        captures,
        promotions,
        castlings,
        takebacks,
        restarts,
        games,
    }
}

struct Run {
    d: Driver,
    rng: Rng,
    threads: Vec<String>,
    /// The player of the last move that may be taken back, and the state before it.
    last: Option<(usize, Vec<String>)>,
    seen: Seen,
}

/// `!state` without the moment the turn began (a takeback starts a fresh turn).
fn settled(state: Vec<String>) -> Vec<String> {
    state
        .into_iter()
        .filter(|l| !l.starts_with("turn started:"))
        .collect()
}

impl Run {
    fn new(seed: u64) -> Run {
        let d = Driver::open(&format!("ultimate-{seed}"), seed);
        let mut run = Run {
            d,
            rng: Rng::new(seed),
            threads: Vec::new(),
            last: None,
            seen: Seen::default(),
        };
        run.line("!as organiser org");
        run.new_game();
        run
    }

    fn line(&mut self, text: &str) -> Vec<String> {
        self.d.line(text)
    }

    fn fail(&mut self, what: &str) -> ! {
        self.d.fail(what)
    }

    fn expect_ok(&mut self, text: &str) -> Vec<String> {
        self.d.expect_ok(text)
    }

    /// A new game in a new thread, its mode taken in turn.
    fn new_game(&mut self) {
        let thread = format!("u{}", self.threads.len() + 1);
        self.line(&format!("!thread {thread}"));
        let mode = MODES[self.threads.len() % MODES.len()];
        self.threads.push(thread);
        self.last = None;
        self.seen.games += 1;
        let game_seed = splitmix(self.d.seed ^ self.threads.len() as u64) % 1_000_000;
        self.expect_ok(&format!(
            "org /ultimate new players:@ann @ben @cat @dan mode:{mode} seed:{game_seed}"
        ));
    }

    /// A player's `/moves` list (empty when they may not move).
    fn offered(&mut self, seat: usize) -> Vec<String> {
        let out = self.line(&format!("{} /moves", USERS[seat]));
        let first = first_line(&out).to_string();
        let Some(list) = first.strip_prefix("ok: ") else {
            // Not their turn, out of the game, or the game is over.
            return Vec::new();
        };
        if list.starts_with("no legal moves") {
            return Vec::new();
        }
        list.split(' ').map(String::from).collect()
    }

    fn finished(&mut self) -> bool {
        self.line("!state").iter().any(|l| l.starts_with("result:"))
    }

    /// The player to move plays a random entry of their list; false if nobody could.
    fn play(&mut self) -> bool {
        for (seat, user) in USERS.iter().enumerate() {
            let list = self.offered(seat);
            if list.is_empty() {
                continue;
            }
            let mut sorted = list.clone();
            sorted.sort();
            sorted.dedup();
            if sorted.len() != list.len() {
                self.fail(&format!("/moves offers a play twice: {}", list.join(" ")));
            }
            // Captures, promotions and castling now and then, so that games end.
            let special: Vec<&String> = list
                .iter()
                .filter(|m| m.contains('x') || m.contains('=') || m.starts_with('0'))
                .collect();
            let mv = match self.rng.below(3) {
                0 if !special.is_empty() => special[self.rng.below(special.len())].clone(),
                _ => list[self.rng.below(list.len())].clone(),
            };
            let before = settled(self.line("!state"));
            let out = self.expect_ok(&format!("{user} /move {mv}"));
            // The echo is the entry as offered (a `+` added when it gives check).
            if !first_line(&out).contains(&mv) {
                self.fail(&format!("`{mv}` was echoed otherwise: {}", out.join(" / ")));
            }
            self.seen.moves += 1;
            self.seen.captures += usize::from(mv.contains('x'));
            self.seen.promotions += usize::from(mv.contains('='));
            self.seen.castlings += usize::from(mv.starts_with('0'));
            self.last = Some((seat, before));
            if self.finished() {
                self.new_game();
            }
            return true;
        }
        false
    }

    fn takeback(&mut self) {
        let Some((seat, before)) = self.last.take() else {
            return;
        };
        self.expect_ok(&format!("{} /takeback", USERS[seat]));
        let after = settled(self.line("!state"));
        if after != before {
            self.fail(&format!(
                "the takeback did not give back the state:\n    before: {}\n    after:  {}",
                before.join(" | "),
                after.join(" | ")
            ));
        }
        self.seen.takebacks += 1;
    }

    /// `!state` of every game, and every player's `/moves` in the current one.
    fn snapshot(&mut self) -> Vec<String> {
        let current = self.threads.last().cloned().unwrap_or_default();
        let mut out = Vec::new();
        for t in self.threads.clone() {
            self.line(&format!("!thread {t}"));
            out.push(format!("thread {t}"));
            out.extend(self.line("!state"));
        }
        self.line(&format!("!thread {current}"));
        for (seat, user) in USERS.iter().enumerate() {
            let list = self.offered(seat);
            out.push(format!("{user}: {}", list.join(" ")));
        }
        out
    }

    fn restart(&mut self) {
        let before = self.snapshot();
        self.d.reopen();
        self.line("!as organiser org");
        let after = self.snapshot();
        self.d.same_across_restart(&before, &after);
        self.seen.restarts += 1;
    }

    fn step(&mut self) {
        self.d.step += 1;
        match self.rng.below(100) {
            0..=84 => {
                if !self.play() {
                    self.fail("nobody may move in a game in play");
                }
            }
            85..=94 => self.takeback(),
            _ => self.restart(),
        }
    }
}

common::play::random_run!(Run, Seen);

#[test]
fn every_offered_ultimate_play_is_accepted_through_takebacks_and_restarts() {
    let total = random_plays::<Run>(1..=3u64, 400);
    assert!(total.captures > 20, "{total:?}");
    assert!(total.takebacks > 10 && total.restarts > 10, "{total:?}");
}
