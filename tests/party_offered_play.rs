//! Every play Party Chess offers is accepted exactly as offered (issue 39, defect 11; the
//! developers' guide: offered = accepted), through takebacks, turns that expire to their
//! default play, the Umpire's bookkeeping and `/party end`, and restarts.
//!
//! Random four-Swinger Party Chess through the console on an SQLite file (the service path the
//! bot uses): each step asks every Swinger's `/moves`, and the one to play plays a random
//! entry of that list with `/move <entry>` exactly as written (`pass` and `surrender`
//! included). Clock jumps let turns expire; takebacks, Umpire extensions and ledger lines,
//! and restarts (the console reopened on the same database file, so every game is replayed
//! from its stored log) are mixed in. `!state` and every Swinger's `/moves` must read the
//! same before and after every restart. Now and then the Umpire ends the game and a new one
//! starts in another thread.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter::games::kfb::splitmix;
use common::play::{first_line, random_plays, Driver, Rng};

const USERS: [&str; 4] = ["a", "b", "c", "d"];
/// Five-piece picks (value at most 30), every type among them.
const PICKS: [&str; 8] = [
    "RJCPP", "TDPPJ", "OEQPP", "AZ!%D", "HBCJP", "TODPP", "EQ%JP", "HA!DP",
];

common::play::counts! {
    /// What a run saw, to make sure it went through the cases.
    struct Seen {
        plays,
        captures,
        placements,
        promotions,
        chains,
        defaults,
        takebacks,
        restarts,
        ended,
        games,
    }
}

struct Run {
    d: Driver,
    rng: Rng,
    threads: Vec<String>,
    /// The user whose action is the last of the current game (may be taken back).
    last_actor: Option<&'static str>,
    plays_in_game: usize,
    seen: Seen,
}

impl Run {
    fn new(seed: u64) -> Run {
        let d = Driver::open(&format!("party-{seed}"), seed);
        let mut run = Run {
            d,
            rng: Rng::new(seed),
            threads: Vec::new(),
            last_actor: None,
            plays_in_game: 0,
            seen: Seen::default(),
        };
        run.line("!as organiser org");
        run.new_game();
        run
    }

    fn line(&mut self, text: &str) -> Vec<String> {
        let out = self.d.line(text);
        for l in &out {
            if l.contains('§') {
                self.fail(&format!("a reply names a section: {l}"));
            }
        }
        out
    }

    fn fail(&mut self, what: &str) -> ! {
        self.d.fail(what)
    }

    fn expect_ok(&mut self, text: &str) -> Vec<String> {
        let out = self.line(text);
        if !first_line(&out).starts_with("ok:") {
            self.fail(&format!("`{text}` was refused: {}", out.join(" / ")));
        }
        out
    }

    fn new_game(&mut self) {
        let thread = format!("p{}", self.threads.len() + 1);
        self.line(&format!("!thread {thread}"));
        self.threads.push(thread);
        self.last_actor = None;
        self.plays_in_game = 0;
        self.seen.games += 1;
        let game_seed = splitmix(self.d.seed ^ self.threads.len() as u64) % 1_000_000;
        self.expect_ok(&format!(
            "org /party new umpire:@u swingers:@a @b @c @d seed:{game_seed}"
        ));
        for u in USERS {
            let pick = PICKS[self.rng.below(PICKS.len())];
            self.expect_ok(&format!("{u} /party pieces set:{pick}"));
        }
    }

    /// A user's `/moves` list (`None` when it is not their turn).
    fn offered(&mut self, user: &str) -> Option<Vec<String>> {
        let out = self.line(&format!("{user} /moves"));
        let first = first_line(&out).to_string();
        let list = first.strip_prefix("ok: ")?;
        if list.starts_with("no legal moves") {
            self.fail(&format!("{user} is to play with nothing offered: {first}"));
        }
        Some(list.split(' ').map(String::from).collect())
    }

    /// The Swinger to play plays a random entry of their own list, exactly as written.
    fn play(&mut self) {
        let mut found = None;
        for u in USERS {
            if let Some(list) = self.offered(u) {
                if found.is_some() {
                    self.fail("two Swingers are offered plays at once");
                }
                found = Some((u, list));
            }
        }
        let Some((user, list)) = found else {
            self.fail("nobody is offered a play");
        };
        let mut sorted = list.clone();
        sorted.sort();
        sorted.dedup();
        if sorted.len() != list.len() {
            self.fail(&format!("/moves offers a play twice: {}", list.join(" ")));
        }
        let moves: Vec<&String> = list.iter().filter(|m| !m.contains('@')).collect();
        let captures: Vec<&String> = list.iter().filter(|m| m.contains('x')).collect();
        let places: Vec<&String> = list.iter().filter(|m| m.contains('@')).collect();
        let pick = match self.rng.below(20) {
            0 => "surrender".to_string(),
            1..=6 if !captures.is_empty() => captures[self.rng.below(captures.len())].clone(),
            7..=9 if !places.is_empty() => places[self.rng.below(places.len())].clone(),
            _ if !moves.is_empty() => moves[self.rng.below(moves.len())].clone(),
            _ => list[self.rng.below(list.len())].clone(),
        };
        let out = self.expect_ok(&format!("{user} /move {pick}"));
        let text = out.join("\n");
        if !text.contains("Weights: ") {
            self.fail(&format!("no Weights after {pick}: {text}"));
        }
        self.seen.plays += 1;
        self.plays_in_game += 1;
        if pick.contains('x') {
            self.seen.captures += 1;
        }
        if pick.contains('@') {
            self.seen.placements += 1;
        }
        if pick.contains('=') {
            self.seen.promotions += 1;
        }
        if pick.matches('x').count() > 1 {
            self.seen.chains += 1;
        }
        self.last_actor = Some(user);
    }

    /// Lets the current turn expire: its default play, numbered and with the Weights.
    fn expire(&mut self) {
        let out = self.line("!clock +3d");
        let text = out.join("\n");
        if out.iter().any(|l| l.starts_with("error")) {
            self.fail(&format!("!clock refused: {text}"));
        }
        if text.contains("turn expired") {
            let numbered = text.contains(" #") || text.contains("] #");
            if !text.contains("Weights: ") || !numbered {
                self.fail(&format!(
                    "a default play without its number or Weights: {text}"
                ));
            }
            self.seen.defaults += 1;
            self.last_actor = None;
        }
    }

    fn takeback(&mut self) {
        let Some(user) = self.last_actor.take() else {
            return;
        };
        self.expect_ok(&format!("{user} /takeback"));
        self.seen.takebacks += 1;
    }

    /// The Umpire's bookkeeping: an extension of the current turn or a ledger line.
    fn bookkeeping(&mut self) {
        let out = if self.rng.below(2) == 0 {
            let u = USERS[self.rng.below(4)];
            self.line(&format!("u /party extend player:@{u} until:5d"))
        } else {
            let n = self.d.step;
            self.line(&format!("u /ledger add text:step {n}"))
        };
        if first_line(&out).starts_with("ok:") {
            if out.iter().any(|l| {
                l.contains("@a") || l.contains("@b") || l.contains("@c") || l.contains("@d")
            }) {
                self.fail(&format!(
                    "the Umpire's bookkeeping pinged: {}",
                    out.join(" / ")
                ));
            }
            self.last_actor = Some("u");
        }
    }

    fn end(&mut self) {
        let out = self.expect_ok("u /party end");
        if !out.join("\n").contains("Result: Weights: ") {
            self.fail(&format!(
                "/party end without its result: {}",
                out.join(" / ")
            ));
        }
        self.seen.ended += 1;
        let refused = self.line("a /move pass");
        if first_line(&refused).starts_with("ok:") {
            self.fail("a play was accepted after /party end");
        }
        self.new_game();
    }

    /// `!state` of every game, and every Swinger's `/moves` in the current one.
    fn snapshot(&mut self) -> Vec<String> {
        let current = self.threads.last().cloned().unwrap_or_default();
        let mut out = Vec::new();
        for t in self.threads.clone() {
            self.line(&format!("!thread {t}"));
            out.push(format!("thread {t}"));
            out.extend(self.line("!state"));
        }
        self.line(&format!("!thread {current}"));
        for u in USERS {
            let out2 = self.line(&format!("{u} /moves"));
            out.push(format!("{u}: {}", first_line(&out2)));
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
            0..=69 => self.play(),
            70..=74 => self.expire(),
            75..=84 => self.takeback(),
            85..=89 => self.bookkeeping(),
            90 if self.plays_in_game > 40 => self.end(),
            _ => self.restart(),
        }
    }
}

common::play::random_run!(Run, Seen);

#[test]
fn every_offered_party_play_is_accepted_through_takebacks_and_restarts() {
    let total = random_plays::<Run>(1..=4u64, 300);
    assert!(total.plays > 200, "{total:?}");
    assert!(total.captures > 0 && total.placements > 20, "{total:?}");
    assert!(total.takebacks > 10 && total.restarts > 10, "{total:?}");
    assert!(total.defaults > 0, "{total:?}");
}
