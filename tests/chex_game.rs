//! Chex scenarios (RULINGS §5): every rule with the case it allows and the case it refuses.
//! White is ann, Black ben, the organiser org, the moderator mod. Every action is typed as a
//! command into a hub holding the game (`/draw`, `/place c3`, `/move Nb3-d4 turn:5`, `/revert`
//! and its button…); the assertions read the game it holds.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter::commands::{parse_command, Caller, Hub, Reply, Roles};
use arbiter::games::chex::{export, Game, Kind, Outcome, Side, WinHow};

const T0: u64 = 1_767_225_600;

struct Table {
    hub: Hub,
    t: u64,
}

impl Table {
    /// `/chex new white:@ann black:@ben <opts>` by the organiser.
    fn new(opts: &str) -> (Table, String) {
        let mut t = Table {
            hub: Hub::new(),
            t: T0,
        };
        let text = t.ok("org", &format!("/chex new white:@ann black:@ben {opts}"));
        (t, text)
    }

    /// A game begun from a position text.
    fn from(position: &str) -> Table {
        Table::new(&format!("seed:7 position:{position}")).0
    }

    fn run(&mut self, user: &str, text: &str) -> Reply {
        self.run_with(user, text, 0)
    }

    /// A command with the entropy the front end would draw for it.
    fn run_with(&mut self, user: &str, text: &str, entropy: u64) -> Reply {
        self.t += 60;
        let caller = Caller {
            user,
            roles: Roles {
                organiser: user == "org",
                moderator: user == "mod",
            },
            thread: "t",
            now: self.t,
        };
        let cmd = parse_command(text).expect("a command");
        let r = self.hub.handle(&caller, entropy, &cmd, text);
        // A resignation asks once (issue 55): confirmed here.
        match r.buttons.iter().find(|b| b.starts_with("ask-confirm")) {
            Some(id) => self.hub.press(user, id, self.t),
            None => r,
        }
    }

    /// A moderator's `/revert` (with `entropy` drawn for it) and its confirmation: the reply.
    fn revert(&mut self, to: u32, entropy: u64) -> String {
        let r = self.run_with("mod", &format!("/revert to:{to} reason:disputed"), entropy);
        assert_eq!(r.ok, Some(true), "{}", r.text);
        let id = r.buttons.first().cloned().expect("a confirm button");
        let r = self.hub.press("mod", &id, self.t);
        assert_eq!(r.ok, Some(true), "{}", r.text);
        r.text
    }

    fn ok(&mut self, user: &str, text: &str) -> String {
        let r = self.run(user, text);
        assert_eq!(r.ok, Some(true), "{user} {text} refused: {}", r.text);
        r.text
    }

    /// A refused command: nothing about the game changes.
    fn no(&mut self, user: &str, text: &str) -> String {
        let before = self.hub.game("t").map(|g| (g.log_len(), g.state_lines(0)));
        let r = self.run(user, text);
        assert_eq!(r.ok, Some(false), "{user} {text} accepted: {}", r.text);
        assert!(r.ephemeral, "refusals are shown to their sender only");
        let after = self.hub.game("t").map(|g| (g.log_len(), g.state_lines(0)));
        assert_eq!(before, after, "a refusal changed the game");
        r.text
    }

    fn game(&self) -> Game {
        self.hub
            .game("t")
            .and_then(|g| g.downcast::<Game>())
            .cloned()
            .expect("a Chex game in the thread")
    }

    fn text(&self) -> String {
        self.game().position().to_text()
    }

    fn stack(&mut self, side: &str, letters: &str) {
        let out = self
            .hub
            .console_line("t", &["stack", side, letters], self.t)
            .expect("the game takes !stack");
        assert!(!out
            .iter()
            .any(|l| l.starts_with("ok:") || l.starts_with("refused:")));
        assert!(!out.iter().any(|l| l.starts_with("error")), "{out:?}");
    }

    fn moves(&mut self, user: &str) -> Vec<String> {
        self.game()
            .legal_for(user)
            .unwrap_or_else(|e| panic!("{e}"))
    }
}

/// The seed's example (5 files × 4 ranks): White N b3, B c3; Black pawns b2, d2; White to play.
const EXAMPLE: &str = "5/1NB2/1p1p1/5 [KQRRBNPPPPPPPP kqrrbbnnpppppp] w 0,0 -";

#[test]
fn the_first_two_placements() {
    let (mut t, created) = Table::new("seed:42");
    assert!(created.contains("Board #0"), "{created}");
    assert_eq!(t.text(), "1 [KQRRBBNNPPPPPPPP kqrrbbnnpppppppp] w 0,0 -");
    // Black cannot act first, and White's first piece is not placed by hand.
    t.no("ben", "/draw");
    assert!(t.no("ann", "/place a1").contains("/draw first"));
    let first = t.ok("ann", "/draw");
    assert!(first.starts_with("#1 "), "{first}");
    assert!(first.contains("P@b2"), "{first}");
    assert!(first.contains("relabelled"), "{first}");
    assert_eq!(
        t.text(),
        "3/1P1/3 [KQRRBBNNPPPPPPP kqrrbbnnpppppppp] b -1,-1 -"
    );
    assert_eq!(
        t.game().position().at((0, 0)).map(|p| p.kind),
        Some(Kind::Pawn)
    );
    // Black's first turn is a draw: no piece of theirs can move.
    assert_eq!(t.moves("ben"), vec!["draw"]);
    assert!(t.no("ben", "/place a1").contains("/draw first"));
    let drawn = t.ok("ben", "/draw");
    assert!(
        drawn.starts_with("#2 ") && drawn.contains("Pawn"),
        "{drawn}"
    );
    assert_eq!(t.game().board_number(), 2);
    // Placement squares: the eight around b2.
    let offered = t.moves("ben");
    assert_eq!(offered.len(), 8, "{offered:?}");
    assert!(offered.contains(&"P@c3".to_string()));
    t.no("ben", "/move b2-b3");
    let placed = t.ok("ben", "/place c3");
    assert!(
        placed.starts_with("#3 ") && placed.contains("P@c3"),
        "{placed}"
    );
    // Grown up and right only: a1 stays where it was, no relabelling.
    assert!(!placed.contains("relabelled"), "{placed}");
    assert_eq!(
        t.text(),
        "4/2p1/1P2/4 [KQRRBBNNPPPPPPP kqrrbbnnppppppp] w -1,-1 -"
    );
}

#[test]
fn a_placement_must_touch_the_group_and_never_captures() {
    let (mut t, _) = Table::new("seed:42");
    t.ok("ann", "/draw");
    t.ok("ben", "/draw");
    let far = t.no("ben", "/place d4");
    assert!(
        far.contains("not a square") || far.contains("not next to"),
        "{far}"
    );
    let occupied = t.no("ben", "/place b2");
    assert!(occupied.contains("occupied"), "{occupied}");
    assert!(
        occupied.contains("c3"),
        "the refusal lists the squares: {occupied}"
    );
    t.ok("ben", "/place a3");
    t.ok("ann", "/draw");
    let far = t.no("ann", "/place a1");
    assert!(far.contains("not next to any piece"), "{far}");
}

#[test]
fn the_seeds_example_bishop_is_tagged_and_the_knight_has_four_squares() {
    let mut t = Table::from(EXAMPLE);
    assert_eq!(t.text(), EXAMPLE);
    let g = t.game();
    let pos = g.position();
    assert!(
        pos.moves_from((2, 2)).is_empty(),
        "the bishop on c3 cannot move"
    );
    assert!(pos.blocked_by_group((2, 2)), "it is tagged by the group");
    assert!(
        pos.blocked_by_group((1, 1)) && pos.blocked_by_group((3, 1)),
        "so are the pawns"
    );
    assert!(!pos.blocked_by_group((1, 2)), "the knight is free");
    let knight: Vec<String> = t
        .moves("ann")
        .into_iter()
        .filter(|m| m.starts_with('N'))
        .collect();
    assert_eq!(knight, ["Nb3-a1", "Nb3-c1", "Nb3-d4", "Nb3xd2"]);
    let why = t.no("ann", "/move Bc3-d4");
    assert!(why.contains("break the group"), "{why}");
    assert!(why.contains("no legal move"), "{why}");
    // Black's pawns cannot move either: Black must draw.
    t.ok("ann", "/move Nb3-d4");
    assert_eq!(t.moves("ben"), vec!["draw"]);
    t.no("ben", "/move b2-b1");
}

#[test]
fn a_move_or_a_capture_that_would_break_the_group_is_refused() {
    let mut t = Table::from(EXAMPLE);
    for m in ["Bc3xd2", "Bc3xb2", "Bc3-d4", "Bc3-b4"] {
        let why = t.no("ann", &format!("/move {m}"));
        assert!(why.contains("break the group"), "{m}: {why}");
    }
    // The allowed capture: the knight takes d2, the group holds.
    let r = t.ok("ann", "/move Nb3xd2");
    assert!(r.contains("Nb3xd2"), "{r}");
    // Written with `-`, a capture is accepted and echoed with `x`.
    let mut t = Table::from(EXAMPLE);
    assert!(t.ok("ann", "/move Nb3-d2").contains("Nb3xd2"));
}

#[test]
fn a_king_capture_must_keep_the_group_too() {
    // White N b2, B c3, Black King d4 on one diagonal: Bc3xd4 would leave the knight alone.
    let pos = "6/6/3k2/2B3/1N4/6 [KQRRBNPPPPPPPP qrrbbnnpppppppp] w -1,-1 -";
    let mut t = Table::from(pos);
    let why = t.no("ann", "/move Bc3xd4");
    assert!(why.contains("break the group"), "{why}");
    assert!(t.game().outcome().is_none());
}

#[test]
fn capturing_a_king_wins() {
    let mut t = Table::from("4/1Qk1/4 [KRRBBNNPPPPPPPP qrrbbnnpppppppp] w -1,-1 -");
    let r = t.ok("ann", "/move Qb2xc2");
    assert!(r.contains("wins"), "{r}");
    assert!(
        r.contains("seed was 7"),
        "the seed is revealed when the game ends: {r}"
    );
    assert_eq!(
        t.game().outcome(),
        Some(Outcome::Win {
            side: Side::White,
            how: WinHow::KingCaptured
        })
    );
    t.no("ben", "/draw");
    assert!(t.ok("ann", "/export").contains("[Seed \"7\"]"));
}

#[test]
fn a_king_on_an_attacked_square_is_legal_and_echoed_with_a_plus() {
    // Black has drawn the King; next to the queen it can be captured: `+`.
    let mut t = Table::from("4/1Qn1/4 [KRRBBNNPPPPPPPP qrrbbnpppppppp] b -1,-1 k");
    let r = t.ok("ben", "/place c1");
    assert!(r.contains("K@c1+"), "{r}");
}

#[test]
fn a_king_stalemate_is_declared_in_the_reply_to_the_draw_that_reveals_the_king() {
    // A lone White queen: every square next to it is one she can take the King on.
    let mut t = Table::from("3/1Q1/3 [KRRBBNNPPPPPPPP kqrrbbnnpppppppp] b -1,-1 -");
    t.stack("black", "kqrrbbnnpppppppp");
    let r = t.ok("ben", "/draw");
    assert!(r.contains("King stalemate"), "{r}");
    assert!(r.contains("drawn"), "{r}");
    assert!(t.game().finished());
    // With a knight instead, the King has safe squares: play goes on.
    let mut t = Table::from("3/1N1/3 [KQRRBNPPPPPPPP kqrrbbnnpppppppp] b -1,-1 -");
    t.stack("black", "kqrrbbnnpppppppp");
    let r = t.ok("ben", "/draw");
    assert!(!r.contains("stalemate"), "{r}");
    assert!(!t.game().finished());
}

#[test]
fn stalemate_offer_puts_a_draw_offer_on_the_table_instead() {
    let (mut t, _) = Table::new(
        "seed:7 stalemate:offer position:3/1Q1/3 [KRRBBNNPPPPPPPP kqrrbbnnpppppppp] b -1,-1 -",
    );
    t.stack("black", "kqrrbbnnpppppppp");
    let r = t.ok("ben", "/draw");
    assert!(r.contains("offers a draw"), "{r}");
    assert!(!t.game().finished());
    let r = t.ok("ann", "/accept");
    assert!(r.contains("drawn"), "{r}");
}

#[test]
fn a_move_stalemate_is_declared_in_the_reply_to_the_move_that_brings_it_about() {
    // Black's King between a knight and a rook on a diagonal, Black's stack empty: after
    // Rd3-d4 every King move breaks the group.
    let pos = "5/2kR1/1N3/5 [KQRBBNPPPPPPPP ] w -2,-2 -";
    let mut t = Table::from(pos);
    assert!(!t.game().finished());
    let r = t.ok("ann", "/move Rd3-d4");
    assert!(r.contains("move stalemate"), "{r}");
    assert!(t.game().finished());
    // Another move leaves the King a way out: no stalemate.
    let mut t = Table::from(pos);
    let why = t.no("ann", "/move Nb2-a4");
    assert!(why.contains("break the group"), "{why}");
    let r = t.ok("ann", "/move Nb2-c4");
    assert!(!r.contains("stalemate"), "{r}");
    let _ = t.moves("ben");
}

#[test]
fn relabelling_when_the_board_grows_left_or_down_and_when_it_shrinks() {
    // Grows left and down: Nb3-a1 puts the knight in the border.
    let mut t = Table::from(EXAMPLE);
    let r = t.ok("ann", "/move Nb3-a1");
    assert!(
        r.contains("Nb3-a1"),
        "the echo keeps the labels it was written in: {r}"
    );
    assert!(r.contains("relabelled"), "{r}");
    assert!(r.contains("1 file right and 1 rank up"), "{r}");
    assert_eq!(t.game().frame().origin, (-1, -1));
    // The knight keeps its absolute square; its new label is b2.
    assert_eq!(
        t.game().position().at((0, 0)).map(|p| p.kind),
        Some(Kind::Knight)
    );
    assert_eq!(t.game().frame().name((0, 0)).as_deref(), Some("b2"));
    // Grows up only (Nb3-d4): no relabelling.
    let mut t = Table::from(EXAMPLE);
    assert!(!t.ok("ann", "/move Nb3-d4").contains("relabelled"));
    // Shrinks from the left: the knight leaves file b.
    let mut t = Table::from("5/1NBp1/5 [KQRRBNPPPPPPPP kqrrbbnnppppppp] w 0,0 -");
    let r = t.ok("ann", "/move Nb2-d3");
    assert!(r.contains("relabelled") && r.contains("1 file left"), "{r}");
    assert_eq!(t.game().frame().origin, (1, 0));
}

#[test]
fn a_command_against_an_older_board_is_refused_with_turn() {
    let (mut t, _) = Table::new("seed:42");
    t.ok("ann", "/draw");
    t.ok("ben", "/draw");
    let why = t.no("ben", "/place c3 turn:1");
    assert_eq!(
        why,
        "this refers to board #1; the current board is #2 (coordinates may have changed)"
    );
    t.ok("ben", "/place c3 turn:2");
    t.ok("ann", "/draw");
    let why = t.no("ann", "/place d4 turn:3");
    assert!(why.contains("the current board is #4"), "{why}");
    t.ok("ann", "/place d4 turn:#4");
    let why = t.no("ben", "/move c3-c2 turn:4");
    assert!(
        why.contains("this refers to board #4; the current board is #5"),
        "{why}"
    );
}

#[test]
fn promotion_and_castling_are_refused() {
    let mut t = Table::from("5/5/1Pp2/5 [KQRRBBNNPPPPPPP kqrrbbnnppppppp] w -1,-1 -");
    let why = t.no("ann", "/move b2-b3=Q");
    assert!(why.contains("no promotion"), "{why}");
    t.no("ann", "/move 0-0");
    t.ok("ann", "/move b2-b3");
    assert_eq!(
        t.game().position().at((0, 1)).map(|p| p.kind),
        Some(Kind::Pawn)
    );
    // No double step.
    let mut t = Table::from("5/5/1Pp2/5 [KQRRBBNNPPPPPPP kqrrbbnnppppppp] w -1,-1 -");
    t.no("ann", "/move b2-b4");
}

#[test]
fn the_board_limit_26_by_26() {
    // One rank of 24 pieces: the shown board is 26 files wide.
    let pos = "26/1KQRRBBNNPPPPPPPPpppppppp1/26 [ kqrrbbn] b -1,-1 n";
    let mut t = Table::from(pos);
    assert_eq!(t.game().frame().width, 26);
    let why = t.no("ben", "/place a2");
    assert!(why.contains("board limit 26×26"), "{why}");
    assert!(!t.moves("ben").contains(&"N@a2".to_string()));
    assert!(!t.moves("ben").contains(&"N@z2".to_string()));
    t.ok("ben", "/place b3");
    // A smaller limit set at creation.
    let (mut t, _) = Table::new(
        "seed:42 max_board:8 position:8/1PPPPPp1/8 [KQRRBBNNPPP kqrrbbnnpppppp] b -1,-1 p",
    );
    let why = t.no("ben", "/place a2");
    assert!(why.contains("board limit 8×8"), "{why}");
    let mut t = Table {
        hub: Hub::new(),
        t: T0,
    };
    let why = t.no("org", "/chex new white:@ann black:@ben max_board:30");
    assert!(why.contains("max_board must be from 8 to 26"), "{why}");
    assert!(t.hub.game("t").is_none());
}

#[test]
fn draw_offers_and_resignation() {
    let (mut t, _) = Table::new("seed:42");
    t.ok("ann", "/draw");
    t.ok("ann", "/offer draw");
    t.no("ann", "/accept");
    t.no("ben", "/offer draw");
    assert!(t.ok("ben", "/decline").contains("declines"));
    t.no("ben", "/accept");
    t.ok("ben", "/offer draw");
    let r = t.ok("ann", "/accept");
    assert!(r.contains("drawn (agreed)"), "{r}");
    assert_eq!(
        t.game().outcome(),
        Some(Outcome::Draw(arbiter::games::chex::DrawReason::Agreement))
    );

    let (mut t, _) = Table::new("seed:42");
    t.ok("ann", "/draw");
    let r = t.ok("ben", "/resign");
    assert!(r.contains("White (ann) wins (Black (ben) resigns)"), "{r}");
    assert!(r.contains("seed was 42"), "{r}");
    t.no("ann", "/draw");
    t.no("cat", "/resign");
}

#[test]
fn takeback_of_a_placement_keeps_the_reveal_and_a_draw_cannot_be_taken_back() {
    let (mut t, _) = Table::new("seed:7");
    t.ok("ann", "/draw");
    t.ok("ben", "/draw");
    let drawn = t.game().position().revealed;
    assert_eq!(drawn, Some(Kind::Rook), "Black's top for seed 7 is a Rook");
    assert!(t.no("ben", "/takeback").contains("cannot be taken back"));
    t.ok("ben", "/place a1");
    assert_eq!(t.game().board_number(), 3);
    t.no("ann", "/takeback");
    let r = t.ok("ben", "/takeback");
    assert!(r.contains("stays drawn"), "{r}");
    assert!(
        r.contains("Board #2"),
        "the board is that of the last action in effect: {r}"
    );
    assert_eq!(t.game().board_number(), 2);
    assert_eq!(t.game().position().revealed, drawn);
    t.no("ben", "/draw");
    t.ok("ben", "/place c3 turn:2");
    assert_eq!(
        t.game().position().at((1, 1)).map(|p| p.kind),
        Some(Kind::Rook)
    );
}

#[test]
fn a_moderator_revert_never_changes_what_is_drawn() {
    let (mut t, _) = Table::new("seed:7");
    t.ok("ann", "/draw");
    t.ok("ben", "/draw");
    t.ok("ben", "/place c3");
    t.ok("ann", "/draw");
    let white_second = t.game().position().revealed;
    t.no("ann", "/revert to:2 reason:test");
    let r = t.run("mod", "/revert to:2 reason:disputed");
    assert_eq!(r.ok, Some(true), "{}", r.text);
    let id = r.buttons.first().cloned().expect("a confirm button");
    let r = t.hub.press("mod", &id, t.t);
    assert_eq!(r.ok, Some(true), "{}", r.text);
    assert_eq!(t.game().board_number(), 1);
    assert_eq!(
        t.text(),
        "3/1P1/3 [KQRRBBNNPPPPPPP kqrrbbnnpppppppp] b -1,-1 -"
    );
    t.ok("ben", "/draw");
    assert_eq!(t.game().position().revealed, Some(Kind::Rook));
    t.ok("ben", "/place a3");
    t.ok("ann", "/draw");
    assert_eq!(t.game().position().revealed, white_second);
}

#[test]
fn the_same_seed_draws_the_same_pieces_and_the_hash_is_shown() {
    // Stacks for seed 7 by an independent Python implementation of the documented shuffle.
    let (t, created) = Table::new("seed:7");
    assert!(
        created.contains("7902699be42c8a8e46fbbb4501726517e86b22c56a189f7625a6da49081b2451"),
        "{created}"
    );
    assert!(
        !created.contains("seed 7"),
        "the seed itself stays hidden: {created}"
    );
    let pos = t.game().position().clone();
    let letters = |v: &[Kind]| v.iter().map(|k| k.letter()).collect::<String>();
    assert_eq!(letters(&pos.stacks[0]), "PNBRBPPQRPPPPKPN");
    assert_eq!(letters(&pos.stacks[1]), "RPNPQPKPPPRBPBNP");
    let (t2, _) = Table::new("seed:7");
    assert_eq!(t2.game().position().stacks, pos.stacks);
    let (t3, _) = Table::new("seed:8");
    assert_ne!(t3.game().position().stacks, pos.stacks);
    assert!(t3.game().settings.seed_hash.starts_with("2c624232cdd2"));
}

#[test]
fn blind_draws_name_the_square_first() {
    let (mut t, _) = Table::new("seed:7 draw_mode:blind");
    t.ok("ann", "/draw");
    t.no("ben", "/draw");
    t.no("ben", "/draw square:d4");
    let r = t.ok("ben", "/draw square:c3");
    assert!(r.contains("R@c3"), "{r}");
    assert_eq!(t.game().position().to_move, Side::White);
    t.no("ann", "/takeback");
}

#[test]
fn a_position_that_does_not_read_is_refused_with_its_field() {
    let mut hub = Hub::new();
    let caller = Caller {
        user: "org",
        roles: Roles {
            organiser: true,
            moderator: false,
        },
        thread: "x",
        now: T0,
    };
    for (text, field) in [
        ("3/1X1/3 [ ] w 0,0 -", "placement"),
        ("3/1P1/3 [KQ] w 0,0 -", "stacks"),
        ("3/1P1/3 [ ] x 0,0 -", "side to move"),
        ("3/1P1/3 [ ] w 0;0 -", "origin"),
        ("3/1P1/3 [ ] w 0,0 n", "revealed"),
    ] {
        let line = format!("/chex new white:@ann black:@ben position:{text}");
        let r = hub.handle(&caller, 0, &parse_command(&line).unwrap(), &line);
        assert_eq!(r.ok, Some(false), "{text}");
        assert!(r.text.contains(field), "{text}: {}", r.text);
    }
}

#[test]
fn export_and_import_give_the_same_game() {
    let (mut t, _) = Table::new("seed:7");
    t.ok("ann", "/draw");
    t.ok("ben", "/draw");
    t.ok("ben", "/place c3");
    t.ok("ann", "/draw");
    let text = t.ok("ann", "/export");
    assert!(!text.contains("[Seed "), "no seed while in play");
    let back = export::import(&text).expect("imports");
    assert_eq!(back.position().to_text(), t.text());
    assert_eq!(back.board_number(), t.game().board_number());
    t.ok("ann", "/resign");
    let text = t.ok("ann", "/export");
    assert!(text.contains("[Seed \"7\"]"));
    let back = export::import(&text).expect("imports");
    assert_eq!(back.position().stacks, t.game().position().stacks);
    assert!(back.finished());
}

#[test]
fn status_shows_the_board_its_number_and_the_pieces_left() {
    let (mut t, _) = Table::new("seed:7");
    t.ok("ann", "/draw");
    let s = t.ok("ben", "/status");
    assert!(s.contains("Board #1"), "{s}");
    assert!(
        s.contains("Pieces left: White K1 Q1 R2 B2 N2 P7; Black K1 Q1 R2 B2 N2 P8"),
        "{s}"
    );
    assert!(s.contains(" 2 . P ."), "{s}");
}

#[test]
fn a_draw_offer_notifies_the_opponent() {
    let (mut t, _) = Table::new("seed:42");
    t.ok("ann", "/draw");
    let r = t.run("ann", "/offer draw");
    let n = r.notify.expect("the opponent is notified");
    assert_eq!(n.users(), ["ben"]);
    assert!(n.text().contains("a draw is offered"), "{}", n.text());
}

/// `arbiter moves --variant chex --fen …`: its lines, or the error, and the exit status.
fn cli(fen: &str) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["moves", "--variant", "chex", "--fen", fen])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(if out.status.success() {
        &out.stdout
    } else {
        &out.stderr
    })
    .to_string();
    (out.status.success(), text)
}

#[test]
fn arbiter_moves_lists_the_plays_sorted_and_nothing_without_one() {
    assert_eq!(
        cli(EXAMPLE),
        (true, "Nb3-a1\nNb3-c1\nNb3-d4\nNb3xd2\ndraw\n".to_string())
    );
    // A move stalemate: no legal play, nothing printed, exit 0.
    assert_eq!(cli("5/3R1/2k2/1N3/5 [K ] b -2,-2 -"), (true, String::new()));
    // A revealed piece: only its placements.
    let (ok, text) = cli("3/1P1/3 [KQRRBBNNPPPPPPP kqrrbbnnppppppp] b -1,-1 p");
    assert!(ok);
    assert_eq!(text.lines().count(), 8);
    assert!(text.lines().all(|l| l.starts_with("P@")), "{text}");
    let (ok, text) = cli("3/1P1/3 [ ] w 0;0 -");
    assert!(!ok && text.contains("origin"), "{text}");
}

#[test]
fn the_layer_imports_a_chex_export_as_chex() {
    let (mut t, _) = Table::new("seed:7");
    t.ok("ann", "/draw");
    t.ok("ben", "/draw");
    t.ok("ben", "/place a3");
    t.ok("ann", "/resign");
    let text = t.ok("ann", "/export");
    let g = arbiter::commands::import(&text).expect("imports");
    assert_eq!(g.kind().variant, "chex");
    let back = g.downcast::<Game>().expect("a Chex game");
    assert_eq!(back.position().to_text(), t.text());
    assert_eq!(back.log.len(), t.game().log.len());
    assert!(back.finished());
}

// ----- issue 39 -------------------------------------------------------------------------

/// Defect 5: after a move that relabels the board, `/status`, `!state` and the picture's
/// `last:` line and marks give the last move in the current labels; only the echo keeps
/// the labels it was typed in.
#[test]
fn the_last_move_is_shown_in_the_current_labels_after_a_relabel() {
    let mut t = Table::from(EXAMPLE);
    let r = t.ok("ann", "/move Nb3-a1");
    assert!(r.contains("White (ann) Nb3-a1"), "the echo as typed: {r}");
    assert!(r.contains("relabelled"), "{r}");
    // The knight went from (1,2) to (0,0): now c4 and b2.
    let status = t.ok("ben", "/status");
    assert!(status.contains("Last: Nc4-b2"), "{status}");
    assert!(!status.contains("Nb3-a1"), "{status}");
    let state = t.game().state_lines();
    assert!(state.contains(&"last: Nc4-b2".to_string()), "{state:?}");
    let view = arbiter::games::chex::picture::chex_view(&t.game());
    assert_eq!(view.last_text.as_deref(), Some("Nc4-b2"));
    // The marks are on c4 and b2 of the board shown: (2,3) and (1,1) from its a1.
    assert_eq!(view.last, Some((Some((2, 3)), (1, 1))));
    assert!(view.pieces.contains(&((1, 1), Side::White, Kind::Knight)));
    // A capture keeps its `x`, a placement its `@`, and the `+` stays.
    let mut t = Table::from("5/1NBp1/5 [KQRRBNPPPPPPPP kqrrbbnnppppppp] w 0,0 -");
    t.ok("ann", "/move Nb2-d3");
    assert!(t.ok("ben", "/status").contains("Last: Na2-c3"));
}

/// Defect 6 (RULINGS §5.5a): square colours follow the absolute squares ((0, 0) dark), so a
/// piece that stands still keeps its square's colour when the board shrinks on the left.
#[test]
fn square_colours_follow_the_absolute_squares() {
    let mut t = Table::from("5/1NBp1/5 [KQRRBNPPPPPPPP kqrrbbnnppppppp] w 0,0 -");
    // The bishop stands on (2,1): odd, light.
    let colour_of_bishop = |t: &Table| {
        let v = arbiter::games::chex::picture::chex_view(&t.game());
        let &((f, r), _, _) = v
            .pieces
            .iter()
            .find(|(_, _, k)| *k == Kind::Bishop)
            .expect("the bishop");
        v.dark(f, r)
    };
    assert!(!colour_of_bishop(&t));
    t.ok("ann", "/move Nb2-d3");
    assert_eq!(t.game().frame().origin, (1, 0), "shrunk from the left");
    assert!(!colour_of_bishop(&t), "the bishop's square stays light");
    // The first piece's square (0, 0) is dark.
    let (mut t, _) = Table::new("seed:42");
    t.ok("ann", "/draw");
    let v = arbiter::games::chex::picture::chex_view(&t.game());
    assert_eq!(v.pieces[0].0, (1, 1));
    assert!(v.dark(1, 1));
}

/// Ends a seed-7 game: White draws and places, Black draws and places, White resigns.
fn ended_game() -> Table {
    let (mut t, _) = Table::new("seed:7");
    t.ok("ann", "/draw");
    t.ok("ben", "/draw");
    t.ok("ben", "/place c3");
    t.ok("ann", "/draw");
    t.ok("ann", "/place a1");
    let r = t.ok("ann", "/resign");
    assert!(r.contains("The seed was 7"), "{r}");
    t
}

fn sorted(v: &[Kind]) -> Vec<Kind> {
    let mut v = v.to_vec();
    v.sort();
    v
}

/// Defect 7 (RULINGS §5.5a): a revert that reopens an ended game reshuffles the pieces still
/// face down from a fresh seed drawn with the `/revert`, announces its hash, reveals it when
/// the game ends again; the export keeps both seeds and when each applied.
#[test]
fn a_revert_that_reopens_an_ended_game_reshuffles_from_a_fresh_seed() {
    use arbiter::games::chex::shuffle::{seed_hash, shuffle_stacks};
    let mut t = ended_game();
    let before = t.game().position().stacks.clone();
    let entropy = 0xDEAD_BEEF_1234_5678u64;
    let fresh = entropy & arbiter::games::MAX_SEED;
    // The preview says so.
    let r = t.run_with("mod", "/revert to:6 reason:misclick", entropy);
    assert!(
        r.text.contains("reshuffled from a fresh seed"),
        "{}",
        r.text
    );
    let id = r.buttons.first().cloned().expect("a confirm button");
    let r = t.hub.press("mod", &id, t.t);
    assert_eq!(r.ok, Some(true), "{}", r.text);
    assert!(r.text.contains(&seed_hash(fresh)), "{}", r.text);
    assert!(
        !r.text.contains(&fresh.to_string()),
        "the seed stays secret: {}",
        r.text
    );
    let g = t.game();
    assert!(!g.finished());
    let stacks = g.position().stacks.clone();
    assert_eq!(
        stacks,
        shuffle_stacks(fresh, [sorted(&before[0]), sorted(&before[1])]),
        "the pieces face down follow the fresh seed"
    );
    assert_ne!(stacks, before);
    assert_eq!(g.seed_hash(), seed_hash(fresh));
    assert!(t.ok("ann", "/status").contains(&seed_hash(fresh)));
    // An export in play names the hash and keeps the seed out; it imports.
    let text = t.ok("ann", "/export");
    assert!(
        text.contains(&format!(
            "[Reseed \"from #7: SHA-256 {}\"]",
            seed_hash(fresh)
        )),
        "{text}"
    );
    assert!(!text.contains(&fresh.to_string()), "{text}");
    let back = export::import(&text).expect("an export in play imports");
    assert_eq!(back.position().to_text(), t.text());
    // Storage keeps the seed: a reload gives the same stacks.
    let reloaded = Game::from_log(g.users.clone(), g.settings.clone(), g.log.clone()).unwrap();
    assert_eq!(reloaded.position().stacks, stacks);
    // The next draw follows the fresh seed; the end reveals both seeds.
    t.ok("ben", "/draw");
    assert_eq!(t.game().position().revealed, Some(stacks[1][0]));
    let r = t.ok("ann", "/resign");
    assert!(r.contains("The seeds were 7"), "{r}");
    assert!(
        r.contains(&format!(
            "then {fresh} (SHA-256 {}) from the revert #7",
            seed_hash(fresh)
        )),
        "{r}"
    );
    let text = t.ok("ann", "/export");
    assert!(text.contains("[Seed \"7\"]"), "{text}");
    assert!(
        text.contains(&format!(
            "[Reseed \"from #7: seed {fresh}, SHA-256 {}\"]",
            seed_hash(fresh)
        )),
        "{text}"
    );
    let back = export::import(&text).expect("a finished export imports");
    assert_eq!(back.position().stacks, t.game().position().stacks);
    assert_eq!(back.seeds(), t.game().seeds());
}

/// A revert while the game is in play keeps the seed; one that undoes a reshuffling revert
/// reshuffles again (the order it would bring back follows a revealed seed).
#[test]
fn a_revert_in_play_keeps_the_seed_unless_it_undoes_a_reshuffle() {
    use arbiter::games::chex::shuffle::seed_hash;
    let (mut t, _) = Table::new("seed:7");
    t.ok("ann", "/draw");
    t.ok("ben", "/draw");
    t.ok("ben", "/place c3");
    let stacks = t.game().position().stacks.clone();
    let r = t.revert(3, 99);
    assert!(!r.contains("reshuffled"), "{r}");
    assert_eq!(t.game().position().stacks, stacks);
    assert_eq!(t.game().seeds().len(), 1);
    // Ended, reopened (seed 1000), then reverted further back: a third seed.
    let mut t = ended_game();
    t.revert(6, 1000);
    t.ok("ben", "/draw");
    let r = t.revert(4, 2000);
    assert!(r.contains(&seed_hash(2000)), "{r}");
    let seeds: Vec<u64> = t.game().seeds().iter().map(|s| s.seed).collect();
    assert_eq!(seeds, [7, 2000]);
}

/// Exports written before the fresh seed existed (a revert without `reseed`) still import.
#[test]
fn an_export_from_before_reseeding_still_imports() {
    let (mut t, _) = Table::new("seed:7");
    t.ok("ann", "/draw");
    t.ok("ben", "/draw");
    t.ok("ben", "/place c3");
    t.revert(3, 5);
    t.ok("ann", "/resign");
    let text = t.ok("ann", "/export");
    assert!(
        text.contains("{\"Revert\":{\"to\":3,\"reason\":\"disputed\"}}"),
        "the revert is written as before: {text}"
    );
    let back = export::import(OLD_EXPORT).expect("an old export imports");
    assert!(back.finished());
    assert_eq!(back.seeds().len(), 1);
    assert_eq!(back.position().to_text(), t.text());
}

/// An export as the bot wrote it before issue 39 (a revert in it).
const OLD_EXPORT: &str = r#"[Event "Chex"]
[Variant "chex"]
[White "ann"]
[Black "ben"]
[DrawMode "reveal"]
[Stalemate "declare"]
[MaxBoard "26"]
[MoveLimit "off"]
[SeedHash "7902699be42c8a8e46fbbb4501726517e86b22c56a189f7625a6da49081b2451"]
[Seed "7"]
[Result "0-1"]
[Setup {"users":["ann","ben"],"settings":{"draw_mode":"Reveal","stalemate":"Declare","max_board":26,"move_limit":null,"seed":7,"seed_hash":"7902699be42c8a8e46fbbb4501726517e86b22c56a189f7625a6da49081b2451"}}]

- t=1767225600 org: the game starts ;; {"number":null,"actor":"org","time":1767225600,"command":"/chex new white:@ann black:@ben seed:7","action":{"Start":{"position":null}},"reverted":null}
#1 t=1767225660 ann: White (ann) draws a Pawn and places it ;; {"number":1,"actor":"ann","time":1767225660,"command":"/draw","action":{"Draw":{"side":"White","piece":"Pawn","square":[0,0]}},"reverted":null}
#2 t=1767225720 ben: Black (ben) draws a Rook ;; {"number":2,"actor":"ben","time":1767225720,"command":"/draw","action":{"Draw":{"side":"Black","piece":"Rook","square":null}},"reverted":null}
#3 t=1767225780 ben: Black (ben) R@c3 {reverted by mod: disputed} ;; {"number":3,"actor":"ben","time":1767225780,"command":"/place c3","action":{"Place":{"side":"Black","piece":"Rook","square":[1,1],"notation":"R@c3"}},"reverted":["mod","disputed"]}
#4 t=1767225900 mod: revert to before #3 (disputed) ;; {"number":4,"actor":"mod","time":1767225900,"command":"/revert to:3 reason:disputed","action":{"Revert":{"to":3,"reason":"disputed"}},"reverted":null}
#5 t=1767225960 ann: White (ann) resigns ;; {"number":5,"actor":"ann","time":1767225960,"command":"/resign","action":{"Resign":{"side":"White","organiser":false}},"reverted":null}
"#;

/// Defect 11: `/move` accepts every entry `/moves` offers, exactly as written: `draw`, the
/// revealed piece's placements (`N@c3`), blind draws (`draw@c3`); a placement's letter may be
/// lower case; a wrong letter says which piece was drawn.
#[test]
fn move_accepts_draw_and_placements_as_offered() {
    let (mut t, _) = Table::new("seed:7");
    assert_eq!(t.moves("ann"), ["draw"]);
    assert!(t.ok("ann", "/move draw").contains("P@b2"));
    assert_eq!(t.moves("ben"), ["draw"]);
    assert!(t.ok("ben", "/move draw").contains("Rook"));
    let offered = t.moves("ben");
    assert!(offered.contains(&"R@c3".to_string()), "{offered:?}");
    let why = t.no("ben", "/move N@c3");
    assert!(why.contains("you drew a Rook, not a Knight"), "{why}");
    assert!(t.ok("ben", "/move R@c3").contains("R@c3"));
    t.ok("ann", "/move draw");
    let offered = t.moves("ann");
    let placement = offered[0].clone();
    // Lower case, as the issue asks for piece letters.
    t.ok("ann", &format!("/move {}", placement.to_lowercase()));
    // Without a revealed piece a placement says to draw first.
    let why = t.no("ben", "/move R@d4");
    assert!(why.contains("/draw first"), "{why}");
    // Blind mode offers each draw with its square, and takes it as offered.
    let (mut t, _) = Table::new("seed:7 draw_mode:blind");
    t.ok("ann", "/move draw");
    let offered = t.moves("ben");
    assert_eq!(offered.len(), 8, "{offered:?}");
    assert!(
        offered.iter().all(|m| m.starts_with("draw@")),
        "{offered:?}"
    );
    assert!(t.ok("ben", "/move draw@c3").contains("R@c3"));
    // And every entry of a busy list is accepted as written.
    for m in Table::from(EXAMPLE).moves("ann") {
        let mut t = Table::from(EXAMPLE);
        t.ok("ann", &format!("/move {m}"));
    }
}

/// Shared messages: lower-case piece letters, upper-case squares, short algebraic, the
/// check-first refusal, and no `§` in refusals.
#[test]
fn moves_typed_as_players_type_them() {
    // A piece letter in lower case is the piece (`nb3-d4`; `b` before a file letter too).
    let mut t = Table::from(EXAMPLE);
    assert!(t.ok("ann", "/move nb3-d4").contains("Nb3-d4"));
    let mut t = Table::from(EXAMPLE);
    assert!(t.ok("ann", "/move Nb3d4").contains("Nb3-d4"));
    // Upper-case squares.
    let mut t = Table::from(EXAMPLE);
    assert_eq!(
        t.no("ann", "/move Nb3-D4"),
        "square letters are lower case: Nb3-d4"
    );
    assert_eq!(
        t.no("ann", "/move NB3-D4"),
        "square letters are lower case: Nb3-d4"
    );
    assert_eq!(
        t.no("ann", "/move B3-D4"),
        "square letters are lower case: b3-d4"
    );
    // Short algebraic: one piece can go there, or not.
    assert_eq!(t.no("ann", "/move Nd4"), "write the move from-to: Nb3-d4");
    assert_eq!(t.no("ann", "/move d4"), "write the move from-to: Nb3-d4");
    assert_eq!(t.no("ann", "/move nxd2"), "write the move from-to: Nb3xd2");
    assert_eq!(
        t.no("ann", "/move e4"),
        "write the move from-to, like e2-e4"
    );
    assert_eq!(
        t.no("ann", "/move Be4"),
        "write the move from-to, like e2-e4"
    );
    // No `§` in Chex refusals: the rule is named in words.
    let mut t = Table::from("5/5/1Pp2/5 [KQRRBBNNPPPPPPP kqrrbbnnppppppp] w -1,-1 -");
    for (cmd, words) in [
        ("/move b2-b3=Q", "no promotion in Chex"),
        ("/move 0-0", "no castling in Chex"),
    ] {
        let why = t.no("ann", cmd);
        assert!(why.contains(words) && !why.contains('§'), "{why}");
    }
    let (mut t, _) = Table::new("seed:7");
    t.ok("ann", "/draw");
    t.ok("ben", "/draw");
    let why = t.no("ben", "/takeback");
    assert!(
        why.contains("cannot be taken back") && !why.contains('§'),
        "{why}"
    );
}

/// A move refused while the mover's King could be captured says so first, with the legal
/// plays, the King's first.
#[test]
fn a_refused_move_while_in_check_says_so_first() {
    // White King b2 next to Black's queen c2: she can take it, the group holds.
    let mut t = Table::from("4/1Kq1/4 [QRRBBNNPPPPPPPP krrbbnnpppppppp] w -1,-1 -");
    let why = t.no("ann", "/move Kb2-a3");
    let (first, rest) = why.split_once('\n').expect("two lines");
    assert!(
        first.starts_with("your King on b2 is in check; legal moves: Kb2"),
        "{why}"
    );
    assert!(first.contains("draw"), "{why}");
    assert!(rest.contains("break the group"), "{why}");
    // Not in check (a knight cannot take next to it): the plain refusal.
    let mut t = Table::from("4/1Kn1/4 [QRRBBNNPPPPPPPP kqrrbbnpppppppp] w -1,-1 -");
    let why = t.no("ann", "/move Kb2-a3");
    assert!(!why.contains("in check"), "{why}");
    assert!(why.contains("break the group"), "{why}");
}
