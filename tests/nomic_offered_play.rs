//! Nomic Chess: every entry `/moves` offers is accepted exactly as written (issue 39, point 11
//! and the Nomic part of point 6).
//!
//! Random three-player Nomic Chess through the console on an SQLite file, the path the bot
//! takes (the command layer, the game layer and storage): each step the player on turn plays
//! a random entry of their own `/moves` list (`push bottom:A top:B`, then a move on J), ends a
//! part with `/done`, or answers an offer with `/take`; clock jumps, takebacks and restarts
//! (the console reopened on the same database file, every game replayed from its stored log)
//! are mixed in. Every offered entry must be accepted (`ok:`) and echoed as written, and
//! `!state` and every player's `/moves` must read the same before and after each restart. A
//! game that ends is followed by a new one in another thread.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter::games::kfb::splitmix;
use common::play::{first_line, random_plays, Driver, Rng};

const USERS: [&str; 3] = ["a", "b", "c"];

common::play::counts! {
    /// What a run saw.
    struct Seen {
        pushes,
        moves,
        lower_case,
        takes,
        takebacks,
        restarts,
        games,
    }
}

struct Run {
    d: Driver,
    rng: Rng,
    threads: Vec<String>,
    /// The user of the last action that may be taken back.
    last_actor: Option<&'static str>,
    seen: Seen,
}

/// A `/moves` list read back into its entries (a push is three words).
fn entries(list: &str) -> Vec<String> {
    let words: Vec<&str> = list.split(' ').collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if words[i] == "push" && i + 2 < words.len() {
            out.push(words[i..i + 3].join(" "));
            i += 3;
        } else {
            out.push(words[i].to_string());
            i += 1;
        }
    }
    out
}

impl Run {
    fn new(seed: u64) -> Run {
        let d = Driver::open(&format!("nomic-{seed}"), seed);
        let mut run = Run {
            d,
            rng: Rng::new(seed),
            threads: Vec::new(),
            last_actor: None,
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

    fn new_game(&mut self) {
        let thread = format!("g{}", self.threads.len() + 1);
        self.line(&format!("!thread {thread}"));
        self.threads.push(thread);
        self.last_actor = None;
        self.seen.games += 1;
        let game_seed = splitmix(self.d.seed ^ self.threads.len() as u64) % 1_000_000;
        self.expect_ok(&format!(
            "org /nomic new players:@a @b @c referees:@r seed:{game_seed}"
        ));
    }

    /// A player's `/moves` entries (empty when they may not move now).
    fn offered(&mut self, user: &str) -> Vec<String> {
        let out = self.line(&format!("{user} /moves"));
        let first = first_line(&out).to_string();
        match first.strip_prefix("ok: ") {
            Some(list) if !list.starts_with("no legal moves") => entries(list),
            _ => Vec::new(),
        }
    }

    /// The player on turn plays a random offered entry, or ends the part; false if nobody
    /// could act.
    fn play(&mut self) -> bool {
        for user in USERS {
            let list = self.offered(user);
            if list.is_empty() {
                continue;
            }
            let mut sorted = list.clone();
            sorted.sort();
            sorted.dedup();
            if sorted.len() != list.len() {
                self.fail(&format!("/moves offers an entry twice: {}", list.join(" ")));
            }
            let entry = list[self.rng.below(list.len())].clone();
            // Now and then a move typed with its piece letter in lower case (`nb1-c3`).
            let typed = match entry.chars().next() {
                Some(c) if c.is_ascii_uppercase() && self.rng.below(4) == 0 => {
                    self.seen.lower_case += 1;
                    format!("{}{}", c.to_ascii_lowercase(), &entry[1..])
                }
                _ => entry.clone(),
            };
            let out = self.expect_ok(&format!("{user} /move {typed}"));
            let text = out.join("\n");
            if entry.starts_with("push ") {
                self.seen.pushes += 1;
                if !text.contains(" pushes ") {
                    self.fail(&format!("`{entry}` was not echoed as a push: {text}"));
                }
            } else {
                self.seen.moves += 1;
                if !text.contains(&format!(" {entry}")) {
                    self.fail(&format!("`{entry}` was not echoed as written: {text}"));
                }
            }
            self.last_actor = Some(user);
            self.after(&text);
            return true;
        }
        // Nobody moves: the player on turn ends the part, or takes an army offered.
        for user in USERS {
            let out = self.line(&format!("{user} /done"));
            if first_line(&out).starts_with("ok:") {
                self.last_actor = Some(user);
                let text = out.join("\n");
                self.after(&text);
                return true;
            }
            let why = first_line(&out).to_string();
            if why.contains("answer each offer") {
                let status = self.line(&format!("{user} /status")).join("\n");
                let army = status
                    .split("Offered (Take/Decline): army ")
                    .nth(1)
                    .and_then(|r| r.split([',', ' ', '\n']).next())
                    .map(str::to_string)
                    .unwrap_or_default();
                let out = self.expect_ok(&format!("{user} /take army:{army}"));
                self.seen.takes += 1;
                self.last_actor = Some(user);
                let text = out.join("\n");
                self.after(&text);
                return true;
            }
        }
        false
    }

    /// A game that ended is followed by a new one.
    fn after(&mut self, text: &str) {
        if text.contains("wins the game") || text.contains("Game over") {
            self.new_game();
        }
    }

    fn clock(&mut self, secs: usize) {
        let out = self.line(&format!("!clock +{secs}s"));
        if out.iter().any(|l| l.starts_with("error")) {
            self.fail(&format!("!clock refused: {}", out.join(" / ")));
        }
        // A limit running out may end the game.
        let state = self.line("!state");
        if state.iter().any(|l| l.starts_with("winner: ")) {
            self.new_game();
        }
        self.last_actor = None;
    }

    fn takeback(&mut self) {
        let Some(user) = self.last_actor.take() else {
            return;
        };
        self.expect_ok(&format!("{user} /takeback"));
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
        for user in USERS {
            let list = self.offered(user);
            out.push(format!("{user}: {}", list.join(" | ")));
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
            0..=79 => {
                if !self.play() {
                    self.clock(301);
                }
            }
            80..=84 => {
                let secs = 1 + self.rng.below(400);
                self.clock(secs);
            }
            85..=93 => self.takeback(),
            _ => self.restart(),
        }
    }
}

common::play::random_run!(Run, Seen);

#[test]
fn every_offered_nomic_entry_is_accepted_through_takebacks_and_restarts() {
    let total = random_plays::<Run>(1..=3u64, 400);
    assert!(total.pushes > 100 && total.moves > 100, "{total:?}");
    assert!(total.lower_case > 10, "{total:?}");
    assert!(total.takebacks > 10 && total.restarts > 10, "{total:?}");
}
