//! A panic never escapes one command (issue 54): a game whose handling panics (a toy game
//! here, whose `take 0` panics on purpose: no product game has such a path) answers
//! `refused: something went wrong on our side; the game is unchanged`, the game is read back
//! from its log, and the process and every other game carry on.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use arbiter::commands::declare::{command, opt, Entry, Kind, Run, Who};
use arbiter::commands::{Command, GameKind};
use arbiter::console::Console;
use arbiter::layer::rules::{self, RuleError, Rules};

/// Take-away whose `take 0` panics in the middle of applying it.
#[derive(Clone, Debug)]
struct Fragile {
    left: u32,
    seats: usize,
    turn: usize,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Pile {
    stones: u32,
}

static FRAGILE: GameKind = GameKind {
    variant: "fragile",
    title: "Fragile",
    group: "fragile",
    declared: &[Entry::Group {
        name: "fragile",
        description: "A toy game whose `take 0` panics (tests only).",
        subs: &[command(
            "fragile new",
            "Start a game of Fragile (organisers)",
            &["fragile"],
            &[opt("players", "The players in turn order", Kind::Text).required()],
        )
        .by(Who::Organisers)
        .run(Run::NewGame {
            title: "Fragile",
            server_defaults: false,
        })],
    }],
    create: rules::create::<Fragile>,
    load: rules::load::<Fragile>,
    import: rules::import::<Fragile>,
    acts_on_leave: false,
};

impl Rules for Fragile {
    type Action = u32;
    type Settings = Pile;

    fn kind() -> &'static GameKind {
        &FRAGILE
    }
    fn settings(_cmd: &Command, _seed: u64) -> Result<Pile, RuleError> {
        Ok(Pile { stones: 10 })
    }
    fn setup(settings: &Pile, seats: usize) -> Result<Self, RuleError> {
        Ok(Fragile {
            left: settings.stones,
            seats,
            turn: 0,
        })
    }
    fn read(&self, _seat: usize, text: &str) -> Result<u32, RuleError> {
        let n = text.trim().trim_start_matches("take").trim();
        match n.parse::<u32>() {
            Ok(n) if n <= 3 && n <= self.left => Ok(n),
            _ => Err(RuleError("take 0 to 3 stones".into())),
        }
    }
    fn apply(&mut self, seat: usize, n: &u32) -> Vec<String> {
        self.left = self.left.saturating_sub(*n);
        self.turn = (seat + 1) % self.seats;
        if *n == 0 {
            panic!("the toy game's deliberate panic");
        }
        vec![format!("{} left.", self.left)]
    }
    fn to_act(&self) -> Option<usize> {
        (self.left > 0).then_some(self.turn)
    }
    fn result(&self) -> Option<String> {
        (self.left == 0).then(|| "the pile is empty".to_string())
    }
    fn status(&self) -> String {
        format!("{} stones left", self.left)
    }
    fn plays(&self, _seat: usize) -> Vec<String> {
        (0..=self.left.min(3))
            .map(|n| format!("take {n}"))
            .collect()
    }
    fn describe(n: &u32) -> String {
        format!("takes {n}")
    }
}

fn expect(c: &mut Console, line: &str, want: &[&str]) -> Vec<String> {
    let out = c.line(line);
    for w in want {
        assert!(
            out.iter().any(|l| l.contains(w)),
            "after `{line}`: expected a line containing `{w}`, got:\n  {}",
            out.join("\n  ")
        );
    }
    out
}

const PANICKED: &str = "refused: something went wrong on our side; the game is unchanged";

fn survive(c: &mut Console) {
    c.line("!as organiser org");
    c.line("!thread f1");
    expect(c, "org /fragile new players:@ann @ben", &["ok:"]);
    expect(c, "ann /move take 2", &["ok: #1 ann: takes 2", "8 left."]);
    c.line("!thread f2");
    expect(c, "org /fragile new players:@cat @dan", &["ok:"]);
    c.line("!thread f1");
    let state = c.line("!state");
    let out = expect(c, "ben /move take 0", &[PANICKED]);
    assert_eq!(out.len(), 1, "one answer: {out:?}");
    // The game is as its log has it: ben still to play, 8 stones.
    assert_eq!(c.line("!state"), state);
    expect(c, "ben /status", &["ok: 8 stones left"]);
    expect(c, "ben /move take 3", &["ok: #2 ben: takes 3", "5 left."]);
    // The other game carries on.
    c.line("!thread f2");
    expect(c, "cat /move take 1", &["ok: #1 cat: takes 1", "9 left."]);
    // And the same panic again is answered again (nothing is wedged).
    expect(c, "dan /move take 0", &[PANICKED]);
    expect(c, "dan /move take 1", &["ok: #2 dan: takes 1"]);
}

#[test]
fn a_panic_in_a_game_is_refused_and_the_game_read_back_from_its_log() {
    arbiter::commands::register(&FRAGILE);
    let url = common::fresh_db("panic_guard");
    let mut c = Console::open(Some(&url), 3).expect("open the database");
    survive(&mut c);
    // What was stored is the log without the panicking command.
    drop(c);
    let mut c = Console::open(Some(&url), 4).expect("reopen the database");
    c.line("!thread f1");
    expect(&mut c, "ann /status", &["ok: 5 stones left"]);
}

#[test]
fn a_panic_in_a_game_without_a_database_leaves_it_as_it_was() {
    arbiter::commands::register(&FRAGILE);
    let mut c = Console::new(arbiter::console::START_TIME, 3);
    survive(&mut c);
}
