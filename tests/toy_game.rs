//! The seam is all a game needs (issue 40): a take-away game of a few dozen lines of rules,
//! registered from outside the crate, played through the console and storage like the five
//! games: plays, a refusal, `/moves` on and off turn, takeback, a moderator's revert with its
//! button, export and import, a restart that replays it from the database, and its end.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter::commands::declare::{command, opt, Entry, Kind, Run, Who, NUMBER};
use arbiter::commands::{Command, GameKind};
use arbiter::console::Console;
use arbiter::layer::rules::{self, RuleError, Rules};

/// Take-away: players in turn take one to three stones; whoever takes the last one wins.
#[derive(Clone, Debug)]
struct TakeAway {
    left: u32,
    seats: usize,
    turn: usize,
    winner: Option<usize>,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Pile {
    stones: u32,
}

static TOY: GameKind = GameKind {
    variant: "takeaway",
    title: "Take-away",
    group: "takeaway",
    declared: &[Entry::Group {
        name: "takeaway",
        description: "Take-away: take one to three stones; whoever takes the last one wins.",
        subs: &[command(
            "takeaway new",
            "Start a game of Take-away in a new thread (organisers)",
            &["takeaway"],
            &[
                opt(
                    "players",
                    "The players in turn order, as mentions",
                    Kind::Text,
                )
                .required(),
                opt("stones", "Stones on the pile (default 15)", NUMBER),
            ],
        )
        .by(Who::Organisers)
        .run(Run::NewGame {
            title: "Take-away",
            server_defaults: false,
        })],
    }],
    create: rules::create::<TakeAway>,
    load: rules::load::<TakeAway>,
    import: rules::import::<TakeAway>,
    acts_on_leave: false,
};

impl Rules for TakeAway {
    type Action = u32;
    type Settings = Pile;

    fn kind() -> &'static GameKind {
        &TOY
    }
    fn settings(cmd: &Command, _seed: u64) -> Result<Pile, RuleError> {
        let stones = cmd.opt("stones").unwrap_or("15").trim();
        match stones.parse() {
            Ok(n) if (1..=100).contains(&n) => Ok(Pile { stones: n }),
            _ => Err(RuleError(format!("stones must be 1 to 100, not {stones}"))),
        }
    }
    fn setup(settings: &Pile, seats: usize) -> Result<Self, RuleError> {
        Ok(TakeAway {
            left: settings.stones,
            seats,
            turn: 0,
            winner: None,
        })
    }
    fn read(&self, _seat: usize, text: &str) -> Result<u32, RuleError> {
        let n = text.trim().trim_start_matches("take").trim();
        match n.parse::<u32>() {
            Ok(n) if (1..=3).contains(&n) && n <= self.left => Ok(n),
            _ => Err(RuleError(format!(
                "take 1 to {} stones: {}",
                self.left.min(3),
                self.plays(self.turn).join(" ")
            ))),
        }
    }
    fn apply(&mut self, seat: usize, n: &u32) -> Vec<String> {
        self.left -= n;
        if self.left == 0 {
            self.winner = Some(seat);
            return vec!["The pile is empty.".into()];
        }
        self.turn = (seat + 1) % self.seats;
        vec![format!("{} left.", self.left)]
    }
    fn to_act(&self) -> Option<usize> {
        self.winner.is_none().then_some(self.turn)
    }
    fn result(&self) -> Option<String> {
        self.winner.map(|s| format!("seat {} wins", s + 1))
    }
    fn status(&self) -> String {
        format!("{} stones left", self.left)
    }
    fn plays(&self, _seat: usize) -> Vec<String> {
        (1..=self.left.min(3))
            .map(|n| format!("take {n}"))
            .collect()
    }
    fn describe(n: &u32) -> String {
        format!("takes {n}")
    }
}

/// Sends a line and checks that some output line contains each of `want`.
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

fn roles(c: &mut Console) {
    c.line("!as organiser org");
    c.line("!as moderator mod");
    c.line("!thread t1");
}

#[test]
fn a_toy_game_plays_through_the_same_seam() {
    arbiter::commands::register(&TOY);
    let db = common::play::DbFile::new("takeaway");
    let mut c = Console::open(Some(&db.url()), 5).expect("open the database");
    roles(&mut c);
    expect(
        &mut c,
        "ann /takeaway new players:@ann @ben",
        &["refused: only an organiser"],
    );
    expect(
        &mut c,
        "org /takeaway new players:@ann @ben stones:0",
        &["refused: stones must be 1 to 100"],
    );
    expect(
        &mut c,
        "org /takeaway new players:@ann @ben stones:7",
        &[
            "ok: Take-away created by org: ann, ben",
            "@ann: your turn in Take-away",
        ],
    );
    expect(
        &mut c,
        "ann /move take 2",
        &["ok: #1 ann: takes 2", "5 left.", "@ben: your turn"],
    );
    expect(
        &mut c,
        "ben /move take 4",
        &["refused: take 1 to 3 stones: take 1 take 2 take 3"],
    );
    expect(&mut c, "ben /moves", &["ok: take 1 take 2 take 3"]);
    // Its declared commands are the console's and /help's: an option it lacks is refused.
    expect(
        &mut c,
        "ben /help",
        &[
            "ok: Take-away, the players' commands:",
            "/move notation:<move>: ",
            "/takeaway new players:<players> [stones:<n>] (organisers): ",
        ],
    );
    expect(
        &mut c,
        "org /takeaway new players:@ann @ben pile:3",
        &["refused: /takeaway new has no option pile: its options are players, stones"],
    );
    let off = expect(
        &mut c,
        "ann /moves",
        &[
            "refused: it is ben's turn, not yours",
            "take 1 take 2 take 3",
        ],
    );
    assert!(off[1].starts_with("To plan"), "{off:?}");
    expect(
        &mut c,
        "ann /move take 1",
        &["refused: it is ben's turn, not yours"],
    );
    expect(
        &mut c,
        "ben /move take 1",
        &["ok: #2 ben: takes 1", "4 left."],
    );
    expect(
        &mut c,
        "ann /takeback",
        &["refused: only the last action of the game can be taken back, and it is #2 by ben"],
    );
    expect(
        &mut c,
        "ben /takeback",
        &["ok: #3 ben takes back #2 (takes 1)."],
    );
    expect(&mut c, "!state", &["status: 5 stones left", "to act: ben"]);
    expect(
        &mut c,
        "ben /move take 3",
        &["ok: #4 ben: takes 3", "2 left."],
    );
    // A moderator's revert: the preview, its button, the confirmation.
    expect(&mut c, "ann /revert to:4 reason:misclick", &["refused:"]);
    expect(
        &mut c,
        "mod /revert to:4 reason:misclick",
        &[
            "ok: revert to before #4 will undo:",
            "#4 ben: takes 3",
            "[button:revert-confirm-1]",
        ],
    );
    expect(
        &mut c,
        "!press revert-confirm-1",
        &["ok: #5 mod reverted the game to before #4 (misclick)"],
    );
    let state = expect(&mut c, "!state", &["status: 5 stones left", "to act: ben"]);
    // Export and import give the same game.
    let export = c.line("ann /export");
    let text = export
        .iter()
        .map(|l| l.strip_prefix("ok: ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    let imported = arbiter::commands::import(&text).expect("the export imports");
    assert_eq!(imported.kind().variant, "takeaway");
    assert_eq!(imported.state_lines(0), state);
    assert_eq!(imported.export(), text);
    // A restart replays it from the database.
    drop(c);
    let mut c = Console::open(Some(&db.url()), 6).expect("reopen the database");
    roles(&mut c);
    assert_eq!(c.line("!state"), state, "the same game after a restart");
    expect(
        &mut c,
        "ben /move take 2",
        &["ok: #6 ben: takes 2", "3 left."],
    );
    // The end pings the other player once; never the one whose play ended it.
    expect(
        &mut c,
        "ann /move take 3",
        &["ok: #7 ann: takes 3", "@ben: the game is over: seat 1 wins"],
    );
    expect(&mut c, "ben /move take 1", &["refused: the game is over"]);
    expect(
        &mut c,
        "ann /takeback",
        &["refused: the play that ended the game cannot be taken back"],
    );
    expect(&mut c, "ann /status", &["0 stones left"]);
}
