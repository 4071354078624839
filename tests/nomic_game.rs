//! Nomic Chess scenarios (RULINGS §6): each rule with the case it allows and the case it
//! refuses, every action typed as a command into a hub holding the game (`/push bottom:A
//! top:B`, `/move e2-e4`, `/vote proposal:1 choice:for`, `/revert` and its button…).
//! Players: ann (half A, army 1), ben (B, 2), cat (C, 3), dan (D, 4); Referee: ref.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter::commands::{parse_command, Caller, Hub, Reply, Roles};
use arbiter::games::nomic::{Game, Position, Slot};

const T0: u64 = 1_767_225_600;

struct T {
    hub: Hub,
    now: u64,
}

impl T {
    fn new(create: &str) -> T {
        let mut t = T {
            hub: Hub::new(),
            now: T0,
        };
        let r = t.run("org", create);
        assert_eq!(r.ok, Some(true), "{}", r.text);
        t
    }

    /// A game of `players` from a position text (Referee ref, live pace).
    fn from(players: &str, position: &str) -> T {
        T::new(&format!(
            "/nomic new players:{players} referees:@ref seed:1 position:{position}"
        ))
    }

    fn run(&mut self, user: &str, text: &str) -> Reply {
        let caller = Caller {
            user,
            roles: Roles {
                organiser: user == "org",
                moderator: user == "mod",
            },
            thread: "t",
            now: self.now,
        };
        let cmd = parse_command(text).expect("a command");
        let r = self.hub.handle(&caller, 7, &cmd, text);
        // A forfeit asks once (issue 55): confirmed here.
        match r.buttons.iter().find(|b| b.starts_with("ask-confirm")) {
            Some(id) => self.hub.press(user, id, self.now),
            None => r,
        }
    }

    fn ok(&mut self, user: &str, text: &str) -> String {
        let r = self.run(user, text);
        assert_eq!(
            r.ok,
            Some(true),
            "{user} {text} refused: {}\n{}",
            r.text,
            self.game().status_text(self.now)
        );
        r.text
    }

    fn no(&mut self, user: &str, text: &str) -> String {
        let before = self.game().log.len();
        let pos = self.text();
        let r = self.run(user, text);
        assert_eq!(r.ok, Some(false), "{user} {text} accepted: {}", r.text);
        assert_eq!(self.game().log.len(), before, "a refusal logs nothing");
        assert_eq!(self.text(), pos, "a refusal changes nothing");
        r.text
    }

    fn game(&self) -> &Game {
        self.hub
            .game("t")
            .and_then(|g| g.downcast::<Game>())
            .expect("a Nomic game")
    }

    fn text(&self) -> String {
        self.game().state_at(self.now).pos.to_text()
    }

    fn board(&self, half: char) -> String {
        let lines = self.game().state_lines(self.now);
        lines
            .into_iter()
            .find_map(|l| {
                l.strip_prefix(&format!("board {half}: "))
                    .map(str::to_string)
            })
            .expect("a board line")
    }

    fn status(&self) -> String {
        self.game().status_text(self.now)
    }

    /// Timer messages falling due as the clock moves on by `secs`.
    fn clock(&mut self, secs: u64) -> Vec<String> {
        let before = self.now;
        self.now += secs;
        self.hub
            .due_messages(before, self.now)
            .into_iter()
            .map(|(_, n)| n.text())
            .collect()
    }
}

/// A position text: `A:e1=K1 B:e1=K2 …` pieces on `n` halves, then the other fields.
fn pos(n: usize, spec: &str, rest: &str) -> String {
    let mut halves = Vec::new();
    for h in 0..n {
        let letter = (b'A' + h as u8) as char;
        let mut rows = Vec::new();
        for r in (1..=4).rev() {
            let mut s = String::new();
            let mut empty = 0;
            for f in 0..8u8 {
                let sq = format!("{letter}:{}{r}", (b'a' + f) as char);
                match spec
                    .split_whitespace()
                    .find_map(|t| t.strip_prefix(&format!("{sq}=")))
                {
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push_str(&format!("{{{p}}}"));
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            rows.push(s);
        }
        halves.push(rows.join("/"));
    }
    format!("{} {rest}", halves.join(" "))
}

/// Controllers of `n` armies by their own players, Order 1..n, army 1 to move, part 1.
fn own(n: usize) -> String {
    let c: Vec<String> = (1..=n).map(|a| format!("{a}:{a}")).collect();
    let o: Vec<String> = (1..=n).map(|a| a.to_string()).collect();
    format!("{} {} - 1 1 - - - -", c.join(","), o.join(","))
}

const TWO: &str = "@ann @ben";
const THREE: &str = "@ann @ben @cat";

#[test]
fn two_players_play_fide_chess_after_the_first_push() {
    let mut t = T::new("/nomic new players:@ann @ben referees:@ref order:@ann @ben seed:3");
    // Before a push there is no move; a push of two halves comes first.
    let e = t.no("ann", "/move e2-e4");
    assert!(e.contains("push two half-boards together first"), "{e}");
    let e = t.no("ben", "/push bottom:B top:A");
    assert!(e.contains("it is ann's turn"), "{e}");
    t.ok("ann", "/push bottom:A top:B");
    let e = t.no("ann", "/push bottom:A top:B");
    assert!(e.contains("pushed A/B already"), "{e}");
    let r = t.ok("ann", "/move e2-e4");
    assert!(r.contains("Army 1 (ann) e2-e4 (A:e2 → A:e4)"), "{r}");
    // One half, one move: part 1 ends by itself; ann has part 3.
    assert!(r.contains("part 3"), "{r}");
    t.ok("ann", "/done");
    // ben writes in A's coordinates with A at the bottom (kings facing queens).
    t.ok("ben", "/push bottom:A top:B");
    let r = t.ok("ben", "/move d7-d5");
    assert!(r.contains("d7-d5 (B:e2 → B:e4)"), "{r}");
    t.ok("ben", "/done");
    t.ok("ann", "/push bottom:A top:B");
    let r = t.ok("ann", "/move e4xd5");
    assert!(
        r.contains("e4xd5 (A:e4 → B:e4)"),
        "a capture crossing the halves: {r}"
    );
    t.ok("ann", "/done");
    assert_eq!(
        t.board('B'),
        "4{P1}3/8/{P2}{P2}{P2}{P2}1{P2}{P2}{P2}/{R2}{N2}{B2}{Q2}{K2}{B2}{N2}{R2}"
    );
    // The black king (J d8) faces the white queen (J d1).
    t.ok("ben", "/push bottom:B top:A");
    let e = t.no("ben", "/move d2-d5");
    assert!(e.contains("can play: d2-d3 d2-d4"), "{e}");
    let r = t.ok("ben", "/move Qd1-g4");
    assert!(r.contains("Qd1-g4 (B:d1 → B:g4)"), "{r}");
}

#[test]
fn pushes_must_involve_the_movers_pieces() {
    let mut t = T::new("/nomic new players:@ann @ben @cat referees:@ref order:@ann @ben @cat");
    let e = t.no("ann", "/push bottom:B top:C");
    assert!(e.contains("no piece that may still move on B or C"), "{e}");
    let e = t.no("ann", "/push bottom:A top:A");
    assert!(e.contains("two different"), "{e}");
    let e = t.no("ann", "/push bottom:A top:E");
    assert!(e.contains("halves A to C"), "{e}");
    // Any other half may be pushed against the mover's, top or bottom.
    t.ok("ann", "/push bottom:C top:A");
    // Written in C's coordinates: ann's pawns come down from the top.
    let r = t.ok("ann", "/move d7-d5");
    assert!(r.contains("(A:e2 → A:e4)"), "{r}");
}

#[test]
fn a_piece_that_crosses_stays_on_the_other_half() {
    let p = pos(2, "A:a1=K1 A:d4=N1 B:a1=K2", &own(2));
    let mut t = T::from(TWO, &p);
    t.ok("ann", "/push bottom:A top:B");
    let r = t.ok("ann", "/move Nd4-e6");
    assert!(r.contains("(A:d4 → B:d3)"), "{r}");
    assert_eq!(t.board('A'), "8/8/8/{K1}7");
    assert_eq!(t.board('B'), "8/3{N1}4/8/{K2}7");
}

#[test]
fn the_budget_counts_halves() {
    // Army 1 with pieces on A and B: a push of A and B involves both (one move).
    let p = pos(4, "A:a1=K1 B:h4=N1 C:a1=K3 D:a1=K4 B:a1=K2", &own(4));
    let mut t = T::from("@ann @ben @cat @dan", &p);
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move Ka1-a2");
    assert!(t.status().contains("part 3"), "{}", t.status());
    // Pieces on A and C: A/B with a move on A, then C/B still moves from C.
    let p = pos(4, "A:a1=K1 C:h1=N1 B:a1=K2 C:a4=K3 D:a1=K4", &own(4));
    let mut t = T::from("@ann @ben @cat @dan", &p);
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move Ka1-a2");
    // A is spent: pairing it with C (both in S) is refused.
    let e = t.no("ann", "/push bottom:C top:A");
    assert!(e.contains("already been involved"), "{e}");
    t.ok("ann", "/push bottom:C top:D");
    t.ok("ann", "/move Nh1-g3");
    assert!(t.status().contains("part 3"), "{}", t.status());
    // Three halves: the move on A and B spends both (one move); C is left.
    let p = pos(
        4,
        "A:a1=K1 A:g4=R1 B:a1=K2 B:h1=N1 C:h1=N1 C:a4=K3 D:a1=K4",
        &own(4),
    );
    let mut t = T::from("@ann @ben @cat @dan", &p);
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move Ka1-b1");
    let e = t.no("ann", "/push bottom:B top:D");
    assert!(e.contains("no piece that may still move"), "{e}");
    // A move from a half of S onto a half outside S is allowed and involves both.
    t.ok("ann", "/push bottom:C top:D");
    t.ok("ann", "/move Nh1-g3");
    // Every half of S is involved: part 1 is over.
    assert!(t.status().contains("part 3"), "{}", t.status());
    t.ok("ann", "/done");
    // /done in part 1 before the compulsory first move is refused.
    let e = t.no("ben", "/done");
    assert!(e.contains("compulsory"), "{e}");
}

#[test]
fn a_pawn_promotes_on_a_foreign_half() {
    let p = pos(2, "A:a1=K1 B:d2=P1 B:h1=K2", &own(2));
    let mut t = T::from(TWO, &p);
    t.ok("ann", "/push bottom:A top:B");
    let e = t.no("ann", "/move e7-e8");
    assert!(e.contains("e7-e8=Q"), "{e}");
    let r = t.ok("ann", "/move e7-e8=N");
    assert!(r.contains("(B:d2 → B:d1)"), "{r}");
    assert_eq!(t.board('B'), "8/8/8/3{N1}3{K2}");
}

#[test]
fn mate_at_the_push_and_control_passing() {
    // ann's rook on A:d1 faces ben's king on B:e1 (J d8) once A and B are pushed.
    let p = pos(3, "A:a1=K1 A:d1=R1 B:e1=K2 C:e1=K3 C:a2=P3", &own(3));
    let mut t = T::from(THREE, &p);
    let r = t.ok("ann", "/push bottom:A top:B");
    assert!(r.contains("Army 2 is checkmated; ann may take it"), "{r}");
    // The mover still moves.
    t.ok("ann", "/move Ka1-b1");
    let e = t.no("ann", "/propose text:too early");
    assert!(e.contains("it is part 2"), "{e}");
    let e = t.no("ann", "/take army:3");
    assert!(e.contains("not offered"), "{e}");
    let r = t.ok("ann", "/take army:2");
    assert!(r.contains("ben is undead"), "{r}");
    assert!(t
        .status()
        .contains("Order: army 1 (ann), army 2 (ann), army 3 (cat)"));
    // Declined: the army stays.
    let mut t = T::from(THREE, &p);
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move Ka1-b1");
    let r = t.ok("ann", "/decline army:2");
    assert!(r.contains("stays with its controller"), "{r}");
    assert!(t.status().contains("army 2 (ben)"));
}

#[test]
fn an_offer_withdrawn_by_a_referee_moves_the_turn_to_part_three() {
    // ann mates army 2 at the push, and army 2 is on offer to her in part 2; a Referee then
    // gives it elsewhere (an edit, or an assignment). Nothing is left to take or decline, so
    // part 3 begins at once instead of waiting for part 2's limit.
    let p = pos(3, "A:a1=K1 A:d1=R1 B:e1=K2 C:e1=K3 C:a2=P3", &own(3));
    for edit in [
        "/edit controller army:2 to:@cat",
        "/assign army:2 to:@cat",
        "/edit controller army:2 to:pending",
    ] {
        let mut t = T::from(THREE, &p);
        t.ok("ann", "/push bottom:A top:B");
        t.ok("ann", "/move Ka1-b1");
        assert!(t.status().contains("part 2"), "{}", t.status());
        let r = t.ok("ref", edit);
        assert!(r.contains("part 3 begins"), "{edit}: {r}");
        assert_eq!(t.game().state().pos.turn.part, 3, "{edit}");
        assert!(t.game().state().pos.offers.is_empty(), "{edit}");
        let e = t.no("ann", "/take army:2");
        assert!(e.contains("no army is offered"), "{edit}: {e}");
        // Part 3 is playable: ann proposes, or ends her turn.
        t.ok("ann", "/done");
    }
}

#[test]
fn a_tie_leaves_control_pending_until_assigned() {
    // cat's rook and ann's rook both attack ben's king on J (ann pushes A/B).
    let p = pos(
        3,
        "A:a1=K1 A:d1=R1 B:e1=K2 B:a1=R3 C:e1=K3 C:a2=P3",
        &own(3),
    );
    let mut t = T::from(THREE, &p);
    let r = t.ok("ann", "/push bottom:A top:B");
    assert!(r.contains("control is pending"), "{r}");
    t.ok("ann", "/move Ka1-b1");
    assert!(t.status().contains("army 2 (control pending)"));
    t.ok("ann", "/done");
    // Army 2 is skipped: cat moves next.
    assert!(t.status().contains("Turn: army 3 (cat)"), "{}", t.status());
    let e = t.no("ann", "/assign army:2 to:@ann");
    assert!(e.contains("only a Referee"), "{e}");
    let r = t.ok("ref", "/assign army:2 to:@cat");
    assert!(r.contains("Army 2 is assigned to cat"), "{r}");
}

#[test]
fn the_movers_own_king_attacked_at_the_push() {
    // ben's rook on B:e1 (J d8) attacks ann's king on A:d1 (J d1).
    let p = pos(2, "A:d1=K1 A:a4=P1 B:e1=R2 B:a1=K2", &own(2));
    let mut t = T::from(TWO, &p);
    t.ok("ann", "/push bottom:A top:B");
    let e = t.no("ann", "/move a4-a5");
    assert!(
        e.starts_with("your King on d1 is in check; legal moves: Kd1-c1"),
        "the move must end the attack: {e}"
    );
    t.ok("ann", "/move Kd1-c2");
    // With no way out, the push is accepted and that army is checkmated.
    let p = pos(2, "A:a1=K1 A:h2=P1 B:h1=R2 B:g1=R2 B:e1=K2", &own(2));
    let mut t = T::from(TWO, &p);
    let r = t.ok("ann", "/push bottom:A top:B");
    assert!(r.contains("no move ends the attack"), "{r}");
    assert!(r.contains("passes to ben"), "{r}");
    assert!(r.contains("ben is the only living player and wins"), "{r}");
    let e = t.no("ben", "/push bottom:A top:B");
    assert!(e.contains("game is over"), "{e}");
}

#[test]
fn checkmate_after_a_move_and_the_winner() {
    // Back-rank mate: ann's rook from A:a1 to J a8.
    let p = pos(
        2,
        "A:g1=K1 A:a1=R1 B:a2=P2 B:b2=P2 B:c2=P2 B:a1=K2",
        &own(2),
    );
    let mut t = T::from(TWO, &p);
    t.ok("ann", "/push bottom:A top:B");
    let r = t.ok("ann", "/move Ra1-a8+");
    assert!(r.contains("Ra1-a8+"), "{r}");
    assert!(r.contains("Army 2 is checkmated; ann may take it"), "{r}");
    let r = t.ok("ann", "/take army:2");
    assert!(r.contains("ann is the only living player and wins"), "{r}");
    assert!(t.game().finished());
    let e = t.no("ann", "/done");
    assert!(e.contains("game is over"), "{e}");
}

#[test]
fn proposals_votes_and_the_ruleset() {
    let mut t = T::new(
        "/nomic new players:@ann @ben @cat referees:@ref order:@ann @ben @cat proposal_max:60",
    );
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move e2-e4");
    let e = t.no(
        "ann",
        "/propose text:this is a rule-change that is far too long to fit on the card",
    );
    assert!(e.contains("at most 60"), "{e}");
    let e = t.no("ben", "/propose text:Not my turn.");
    assert!(e.contains("ann's turn"), "{e}");
    let r = t.run("ann", "/propose number:300 text:Knights wear hats.");
    assert_eq!(r.ok, Some(true), "{}", r.text);
    assert!(r.text.contains("proposal 1"), "{}", r.text);
    assert_eq!(r.buttons.len(), 2, "vote buttons");
    let e = t.no("ann", "/propose text:Another.");
    assert!(e.contains("vote is open"), "{e}");
    t.ok("ann", "/vote proposal:1 choice:for");
    let e = t.no("ann", "/vote proposal:1 choice:against");
    assert!(e.contains("voted on proposal 1 already"), "{e}");
    // A vote through its button, pressed by ben.
    let id = r.buttons[1].clone();
    let pressed = t.hub.press("ben", &id, t.now);
    assert_eq!(pressed.ok, Some(true), "{}", pressed.text);
    assert!(
        pressed.text.contains("ben votes against"),
        "{}",
        pressed.text
    );
    // cat votes: everyone has voted, the vote closes at once; 2 for 1 against: adopted.
    let r = t.ok("cat", "/vote proposal:1 choice:for");
    assert!(
        r.contains("Proposal 1 is adopted (2 for, 1 against, 0 not cast); it is rule 300"),
        "{r}"
    );
    let rules = t.ok("cat", "/rules number:300");
    assert!(rules.contains("Knights wear hats"), "{rules}");
    assert!(rules.contains("referee-enforced"), "{rules}");
    // ben's turn: a tie is a defeat, and the author demotes.
    t.ok("ben", "/push bottom:B top:A");
    t.ok("ben", "/move e2-e4");
    let r = t.ok("ben", "/propose number:250 text:Repeal rule 215.");
    assert!(r.contains("repeals rule 215"), "{r}");
    t.ok("ann", "/vote proposal:2 choice:for");
    t.ok("ben", "/vote proposal:2 choice:against");
    // cat does not vote: the limit closes it; 1 for 1 against is a tie: defeated.
    let due = t.clock(300);
    assert!(
        due.iter()
            .any(|l| l.contains("Proposal 2 is defeated (1 for, 1 against, 1 not cast)")),
        "{due:?}"
    );
    assert!(
        t.status().contains("Demotion: ben must /demote"),
        "{}",
        t.status()
    );
    let e = t.no("cat", "/push bottom:C top:A");
    assert!(e.contains("ben's turn") || e.contains("demotion"), "{e}");
    let e = t.no("ben", "/demote square:A:d1");
    assert!(e.contains("choose one of"), "{e}");
    let r = t.ok("ben", "/demote square:B:d1");
    assert!(r.contains("queen on B:d1 is demoted to a rook"), "{r}");
    assert!(t.status().contains("Turn: army 3 (cat)"), "{}", t.status());
    // An enactment numbered below the highest rule takes the next number.
    t.ok("cat", "/push bottom:C top:A");
    t.ok("cat", "/move e2-e4");
    t.ok(
        "cat",
        "/propose number:250 text:Amend rule 206 to read: ten minutes.",
    );
    for u in ["ann", "ben", "cat"] {
        t.ok(u, "/vote proposal:3 choice:for");
    }
    let full = t.ok("ann", "/rules number:206");
    assert!(
        full.contains("ten minutes") && full.contains("amended by proposal 3"),
        "{full}"
    );
    let e = t.no("ann", "/rules number:999");
    assert!(e.contains("no rule 999"), "{e}");
    let list = t.ok("ann", "/rules");
    assert!(
        list.contains("300 (mutable, referee-enforced): Knights wear hats."),
        "{list}"
    );
    // Immutable rules: only a Referee may change them.
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move d2-d4");
    let e = t.no("ann", "/propose text:Repeal rule 109.");
    assert!(e.contains("rule 109 is immutable"), "{e}");
}

#[test]
fn enactment_numbers_follow_the_highest_rule() {
    let mut t = T::new("/nomic new players:@ann @ben referees:@ref order:@ann @ben");
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move e2-e4");
    t.ok("ann", "/propose number:210 text:Pawns may sing.");
    t.ok("ann", "/vote proposal:1 choice:for");
    let r = t.ok("ben", "/vote proposal:1 choice:for");
    assert!(r.contains("it is rule 218"), "{r}");
}

#[test]
fn the_demotion_chain() {
    let p = pos(2, "A:a1=K1 A:b1=Q1 B:h1=K2 B:a4=P2", &own(2));
    let mut t = T::from(TWO, &p);
    let chain = ["rook", "bishop", "knight", "pawn"];
    for (i, k) in chain.iter().enumerate() {
        let n = i + 1;
        t.ok("ann", "/push bottom:A top:B");
        t.ok("ann", "/move Ka1-a2");
        t.ok("ann", &format!("/propose text:Rule {n}."));
        t.ok("ann", &format!("/vote proposal:{n} choice:against"));
        let r = t.ok("ben", &format!("/vote proposal:{n} choice:against"));
        assert!(r.contains("ann must demote"), "{r}");
        let r = t.ok("ann", "/demote square:A:b1");
        assert!(r.contains(&format!("demoted to a {k}")), "{r}");
        // ben's turn, then back to ann (kings walk back and forth).
        t.ok("ben", "/push bottom:B top:A");
        t.ok("ben", "/move Kh1-h2");
        t.ok("ben", "/done");
        t.ok("ann", "/push bottom:A top:B");
        t.ok("ann", "/move Ka2-a1");
        t.ok("ann", "/done");
        t.ok("ben", "/push bottom:B top:A");
        t.ok("ben", "/move Kh2-h1");
        t.ok("ben", "/done");
    }
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move Ka1-a2");
    t.ok("ann", "/propose text:Rule 5.");
    t.ok("ann", "/vote proposal:5 choice:against");
    t.ok("ben", "/vote proposal:5 choice:against");
    let r = t.ok("ann", "/demote square:A:b1");
    assert!(r.contains("demoted off the board"), "{r}");
    assert_eq!(t.board('A'), "8/8/{K1}7/8");
    // With only the king left, a defeated author demotes nothing.
    t.ok("ben", "/push bottom:B top:A");
    t.ok("ben", "/move Kh1-h2");
    t.ok("ben", "/done");
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move Ka2-a1");
    t.ok("ann", "/propose text:Rule 6.");
    t.ok("ann", "/vote proposal:6 choice:against");
    let r = t.ok("ben", "/vote proposal:6 choice:against");
    assert!(r.contains("ann has no piece to demote"), "{r}");
}

#[test]
fn time_limits_end_turns() {
    let mut t = T::new("/nomic new players:@ann @ben referees:@ref order:@ann @ben pace:live");
    // 4:59 still open, 5:00 over.
    assert!(t.clock(299).is_empty());
    let due = t.clock(1);
    assert!(
        due.iter().any(|l| l.contains("part 1 ran out after 5m")),
        "{due:?}"
    );
    assert!(due.iter().any(|l| l.contains("@ben: your turn")), "{due:?}");
    let e = t.no("ann", "/push bottom:A top:B");
    assert!(e.contains("ben's turn"), "{e}");
    t.ok("ben", "/push bottom:B top:A");
    t.ok("ben", "/move e2-e4");
    // Part 3 runs out.
    let due = t.clock(300);
    assert!(due.iter().any(|l| l.contains("part 3 ran out")), "{due:?}");
    assert!(t.status().contains("Turn: army 1 (ann)"));
    // A Referee's pause holds the clock.
    t.ok("ref", "/pause");
    let e = t.no("ann", "/push bottom:A top:B");
    assert!(e.contains("paused"), "{e}");
    assert!(t.clock(3600).is_empty());
    t.ok("ref", "/resume");
    assert!(t.clock(299).is_empty());
    assert_eq!(t.clock(1).len(), 1);
    // async pace: a day.
    let t2 = T::new("/nomic new players:@ann @ben referees:@ref pace:async");
    assert!(t2
        .status()
        .contains("Limits: part 1 1d, part 3 1d, vote 1d"));
}

#[test]
fn part_two_defaults_to_take_and_demotion_falls_to_a_referee() {
    let p = pos(
        3,
        "A:a1=K1 A:d1=R1 A:h2=P1 B:e1=K2 C:e1=K3 C:a2=P3",
        &own(3),
    );
    let mut t = T::from(THREE, &p);
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move Ka1-b1");
    let due = t.clock(300);
    assert!(
        due.iter().any(|l| l.contains("takes army 2 (by default)")),
        "{due:?}"
    );
    t.ok("ann", "/propose text:Rooks sing.");
    t.ok("ann", "/vote proposal:1 choice:against");
    t.ok("ben", "/vote proposal:1 choice:against");
    let r = t.ok("cat", "/vote proposal:1 choice:against");
    assert!(r.contains("ann must demote"), "{r}");
    let e = t.no("ref", "/demote square:A:d1");
    assert!(e.contains("ann chooses first"), "{e}");
    let due = t.clock(300);
    assert!(
        due.iter().any(|l| l.contains("a Referee chooses")),
        "{due:?}"
    );
    let r = t.ok("ref", "/demote square:A:h2");
    assert!(r.contains("pawn on A:h2 is demoted off the board"), "{r}");
}

#[test]
fn undead_players_propose_after_the_last_army() {
    let p = pos(3, "A:a1=K1 A:d1=R1 B:e1=K2 C:e1=K3 C:a2=P3", &own(3));
    let mut t = T::from(THREE, &p);
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move Ka1-b1");
    t.ok("ann", "/take army:2");
    t.ok("ann", "/done");
    // Army 2 (now ann's): ann plays it.
    let e = t.no("ben", "/push bottom:B top:A");
    assert!(e.contains("ann's turn"), "{e}");
    t.ok("ann", "/push bottom:B top:C");
    t.ok("ann", "/move Ke1-d1");
    t.ok("ann", "/done");
    t.ok("cat", "/push bottom:C top:A");
    let e = t.no("cat", "/move a2-a3");
    assert!(
        e.starts_with("your King on e1 is in check"),
        "cat's king is attacked: {e}"
    );
    t.ok("cat", "/move Ke1-d1");
    t.ok("cat", "/done");
    // After the last army: ben's undead slot.
    assert!(t.status().contains("ben's undead slot"), "{}", t.status());
    let e = t.no("ben", "/push bottom:B top:A");
    assert!(e.contains("undead"), "{e}");
    let r = t.ok("ben", "/propose text:The undead may dance.");
    assert!(r.contains("proposal 1 by ben"), "{r}");
    t.ok("ann", "/vote proposal:1 choice:for");
    t.ok("ben", "/vote proposal:1 choice:for");
    t.ok("cat", "/vote proposal:1 choice:for");
    assert!(t.status().contains("Turn: army 1 (ann)"), "{}", t.status());
}

#[test]
fn forfeits_skip_armies_until_a_referee_assigns_them() {
    let mut t = T::new("/nomic new players:@ann @ben @cat referees:@ref order:@ann @ben @cat");
    let r = t.ok("ben", "/forfeit");
    assert!(r.contains("ben forfeits"), "{r}");
    let e = t.no("ben", "/forfeit");
    assert!(e.contains("forfeited already"), "{e}");
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move e2-e4");
    t.ok("ann", "/done");
    assert!(
        t.status().contains("Turn: army 3 (cat)"),
        "army 2 skipped: {}",
        t.status()
    );
    t.ok("ref", "/assign army:2 to:@cat");
    let r = t.ok("ann", "/forfeit");
    assert!(r.contains("cat is the only living player and wins"), "{r}");
}

#[test]
fn judgments_and_overrules() {
    let mut t = T::new("/nomic new players:@ann @ben @cat referees:@ref @rex order:@ann @ben @cat");
    let r = t.ok(
        "ann",
        "/judgment partisan:@ben question:May a knight wear a hat?",
    );
    assert!(r.contains("judgment 1 opened by ann"), "{r}");
    t.ok("ref", "/pause");
    let e = t.no("ann", "/push bottom:A top:B");
    assert!(e.contains("paused"), "{e}");
    let e = t.no("ann", "/judge judgment:1 text:yes");
    assert!(e.contains("only a Referee"), "{e}");
    t.ok("ref", "/judge judgment:1 text:Yes, a small one.");
    let e = t.no("rex", "/judge judgment:1 text:No.");
    assert!(e.contains("stands"), "{e}");
    let e = t.no("ann", "/overrule judgment:1");
    assert!(e.contains("partisan"), "{e}");
    let r = t.ok("cat", "/overrule judgment:1");
    assert!(
        r.contains("overruled"),
        "cat is the only non-partisan player: {r}"
    );
    let e = t.no("ref", "/judge judgment:1 text:Again yes.");
    assert!(e.contains("another Referee"), "{e}");
    t.ok("rex", "/judge judgment:1 text:No hats.");
    t.ok("ref", "/resume");
    t.ok("ann", "/push bottom:A top:B");
}

#[test]
fn referee_edits_are_logged_and_revertible() {
    let mut t = T::new("/nomic new players:@ann @ben referees:@ref order:@ann @ben");
    let e = t.no("ann", "/edit put square:A:d4 piece:Q1");
    assert!(e.contains("only a Referee"), "{e}");
    let r = t.ok("ref", "/edit put square:A:d4 piece:Q2");
    assert!(r.starts_with("#1 Edit: Q2 put on A:d4"), "{r}");
    assert_eq!(
        t.board('A'),
        "3{Q2}4/8/{P1}{P1}{P1}{P1}{P1}{P1}{P1}{P1}/{R1}{N1}{B1}{Q1}{K1}{B1}{N1}{R1}"
    );
    t.ok("ref", "/edit move from:A:d4 to:B:d4");
    t.ok("ref", "/edit remove square:B:a2");
    t.ok("ref", "/order set:2,1");
    t.ok("ref", "/set part1_limit:10m");
    assert!(t.status().contains("Limits: part 1 10m"));
    // A moderator's revert of the first edit undoes all four, after its button.
    let r = t.run("mod", "/revert to:1 reason:test");
    assert_eq!(r.ok, Some(true), "{}", r.text);
    let id = r.buttons[0].clone();
    let r = t.hub.press("mod", &id, t.now);
    assert_eq!(r.ok, Some(true), "{}", r.text);
    assert_eq!(
        t.board('A'),
        "8/8/{P1}{P1}{P1}{P1}{P1}{P1}{P1}{P1}/{R1}{N1}{B1}{Q1}{K1}{B1}{N1}{R1}"
    );
    assert!(t.status().contains("Limits: part 1 5m"));
    // Takeback: the last action of the game, by its actor.
    t.ok("ann", "/push bottom:A top:B");
    let e = t.no("ben", "/takeback");
    assert!(e.contains("only the last action"), "{e}");
    t.ok("ann", "/takeback");
    assert_eq!(t.game().state_at(t.now).pos.turn.join, None);
}

#[test]
fn new_games_from_a_position_and_export() {
    let p = pos(2, "A:a1=K1 B:h1=K2 B:a4=P2", "1:1,2:2 2,1 - 2 1 - - - -");
    let mut t = T::from(TWO, &p);
    assert_eq!(t.game().state().pos.turn.slot, Slot::Army(1));
    let lines = t.game().state_lines(t.now);
    let position = lines
        .iter()
        .find_map(|l| l.strip_prefix("position: "))
        .expect("a position line")
        .to_string();
    assert_eq!(
        Position::from_text(&position).expect("reads").to_text(),
        position
    );
    let mut other = T {
        hub: Hub::new(),
        now: T0,
    };
    let bad = other.run(
        "org",
        "/nomic new players:@ann @ben position:8/8/8/8 8/8/8/{X9}7 1:1,2:2 1,2 - 1 1 - - - -",
    );
    assert_eq!(bad.ok, Some(false));
    assert!(bad.text.contains("half-board field"), "{}", bad.text);
    t.ok("ben", "/push bottom:B top:A");
    t.ok("ben", "/move a4-a5");
    let text = t.ok("ann", "/export");
    let g = arbiter::games::nomic::export::import(&text).expect("imports");
    assert_eq!(g.state_at(t.now).pos.to_text(), t.text());
}

#[test]
fn en_passant_only_as_the_next_move_of_the_game() {
    let p = pos(2, "A:a1=K1 A:e2=P1 A:d4=P2 B:h1=K2", &own(2));
    let mut t = T::from(TWO, &p);
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move e2-e4");
    t.ok("ann", "/done");
    t.ok("ben", "/push bottom:A top:B");
    let r = t.ok("ben", "/move d4xe3");
    assert!(r.contains("d4xe3 (A:d4 → A:e3)"), "{r}");
    assert_eq!(t.board('A'), "8/4{P2}3/8/{K1}7");
    // With another move in between, it is gone.
    let p = pos(
        3,
        "A:a1=K1 A:e2=P1 A:d4=P2 B:h1=K2 C:h1=K3 C:a2=P3",
        "1:1,2:2,3:3 1,3,2 - 1 1 - - - -",
    );
    let mut t = T::from(THREE, &p);
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move e2-e4");
    t.ok("ann", "/done");
    t.ok("cat", "/push bottom:C top:B");
    t.ok("cat", "/move a2-a3");
    t.ok("cat", "/done");
    t.ok("ben", "/push bottom:A top:B");
    let e = t.no("ben", "/move d4xe3");
    assert!(e.contains("can play: d4-d3"), "{e}");
}

#[test]
fn castling_needs_an_unmoved_king_and_rook() {
    let p = pos(2, "A:e1=K1 A:h1=R1 A:a1=R1 B:b3=K2", &own(2));
    let mut t = T::from(TWO, &p);
    t.ok("ann", "/push bottom:A top:B");
    let r = t.ok("ann", "/move 0-0");
    assert!(r.contains("0-0 (A:e1 → A:g1)"), "{r}");
    assert_eq!(t.board('A'), "8/8/8/{R1}4{R1}{K1}1");
    // The h-rook has moved (its flag is in the position text): only 0-0-0 is left.
    let p = pos(
        2,
        "A:e1=K1 A:h1=R1 A:a1=R1 B:b3=K2",
        "1:1,2:2 1,2 A:h1 1 1 - - - -",
    );
    let mut t = T::from(TWO, &p);
    t.ok("ann", "/push bottom:B top:A");
    let e = t.no("ann", "/move 0-0");
    assert!(e.contains("not legal"), "{e}");
    let r = t.ok("ann", "/move O-O-O");
    assert!(r.contains("0-0-0 (A:e1 → A:c1)"), "{r}");
}

#[test]
fn friendly_capture_is_a_setting() {
    // ann controls armies 1 and 2; her rook on A:a1 faces army 2's knight on B:h1 (J a8).
    let p = pos(
        3,
        "A:h1=K1 A:a1=R1 B:a4=K2 B:h1=N2 C:e1=K3",
        "1:1,2:1,3:3 1,2,3 - 1 1 - - - -",
    );
    let mut t = T::from(THREE, &p);
    t.ok("ann", "/push bottom:A top:B");
    let e = t.no("ann", "/move Ra1xa8");
    assert!(e.contains("can play"), "{e}");
    t.ok("ref", "/set friendly_capture:on");
    let r = t.ok("ann", "/move Ra1xa8");
    assert!(r.contains("Ra1xa8 (A:a1 → B:h1)"), "{r}");
}

#[test]
fn a_referees_proposal_holds_the_turn_and_proposals_can_be_fixed_or_voided() {
    let mut t = T::new("/nomic new players:@ann @ben referees:@ref order:@ann @ben");
    let e = t.no("ann", "/propose immutable:true text:Repeal rule 109.");
    assert!(e.contains("only a Referee"), "{e}");
    t.clock(100);
    let r = t.ok(
        "ref",
        "/propose immutable:true text:Amend rule 113 to read: Referees rule.",
    );
    assert!(r.contains("proposal 1 by ref amends rule 113"), "{r}");
    // The turn's clock is held while the vote runs.
    assert!(t.clock(250).is_empty());
    t.ok("ann", "/vote proposal:1 choice:for");
    let r = t.ok("ben", "/vote proposal:1 choice:for");
    assert!(r.contains("rule 113 is amended"), "{r}");
    assert!(
        t.status().contains("Turn: army 1 (ann), part 1"),
        "{}",
        t.status()
    );
    // 100 s of part 1 were used before the vote: 200 s are left.
    assert!(t.clock(199).is_empty());
    assert_eq!(t.clock(1).len(), 1);
    // ben's turn: a proposal fixed then voided.
    t.ok("ben", "/push bottom:B top:A");
    t.ok("ben", "/move e2-e4");
    t.ok("ben", "/propose text:Pawns may sign.");
    let e = t.no("ben", "/proposal fix proposal:1 text:x");
    assert!(e.contains("only a Referee"), "{e}");
    let r = t.ok("ref", "/proposal fix proposal:2 text:Pawns may sing.");
    assert!(
        r.contains("was: Pawns may sign. / now: Pawns may sing."),
        "{r}"
    );
    let r = t.ok("ref", "/proposal void proposal:2");
    assert!(r.contains("Proposal 2 is void"), "{r}");
    assert!(t.status().contains("Turn: army 1 (ann)"), "{}", t.status());
}

#[test]
fn an_undead_slot_runs_out() {
    let p = pos(
        3,
        "A:a1=K1 B:e1=K2 C:e1=K3",
        "1:1,2:1,3:3 1,2,3 - 3 3 - - - - - - 2",
    );
    let mut t = T::from(THREE, &p);
    t.ok("cat", "/done");
    assert!(t.status().contains("ben's undead slot"), "{}", t.status());
    let due = t.clock(300);
    assert!(
        due.iter().any(|l| l.contains("ben's undead slot ran out")),
        "{due:?}"
    );
    assert!(t.status().contains("Turn: army 1 (ann)"), "{}", t.status());
}

#[test]
fn a_referee_undoes_a_forfeit_and_sets_the_budget_and_clock() {
    let mut t = T::new("/nomic new players:@ann @ben @cat referees:@ref order:@ann @ben @cat");
    t.ok("ben", "/forfeit");
    assert!(t.status().contains("forfeited: ben"), "{}", t.status());
    t.ok("ref", "/edit player player:@ben forfeited:off");
    assert!(t.status().contains("forfeited: -"), "{}", t.status());
    // The budget: with A marked involved, ann has no half left to move from.
    t.ok("ref", "/edit budget involved:A");
    let e = t.no("ann", "/push bottom:A top:B");
    assert!(e.contains("push refused"), "{e}");
    t.ok("ref", "/edit budget involved:-");
    // The clock: 4 more minutes for part 1.
    t.clock(200);
    t.ok("ref", "/edit clock add:4m");
    assert!(t.clock(339).is_empty());
    assert_eq!(t.clock(1).len(), 1);
}

#[test]
fn the_command_line_lists_the_plays_of_a_position_text() {
    use arbiter::cli::nomic_moves;
    let p = pos(2, "A:a1=K1 A:e2=P1 B:h1=K2", "1:1,2:2 1,2 - 1 1 - - - -");
    assert_eq!(
        nomic_moves(&p).expect("reads"),
        ["push bottom:A top:B", "push bottom:B top:A"]
    );
    let p = pos(2, "A:a1=K1 A:e2=P1 B:h1=K2", "1:1,2:2 1,2 - 1 1 A - A/B -");
    assert_eq!(
        nomic_moves(&p).expect("reads"),
        ["Ka1-a2", "Ka1-b1", "Ka1-b2", "e2-e3", "e2-e4"]
    );
    // Part 3: no plays.
    let p = pos(2, "A:a1=K1 B:h1=K2", "1:1,2:2 1,2 - 1 3 A A - -");
    assert!(nomic_moves(&p).expect("reads").is_empty());
    assert!(nomic_moves("8/8/8/8").is_err());
}

/// The action number a reply starts with (`#12 …`).
fn number_of(reply: &str) -> u32 {
    reply
        .strip_prefix('#')
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no action number in {reply}"))
}

impl T {
    /// A moderator reverts the game to before `#to`, confirming with the button.
    fn revert(&mut self, to: u32) -> String {
        let r = self.run("mod", &format!("/revert to:{to} reason:referee slip"));
        assert_eq!(r.ok, Some(true), "{}", r.text);
        let id = r.buttons[0].clone();
        let r = self.hub.press("mod", &id, self.now);
        assert_eq!(r.ok, Some(true), "{}", r.text);
        r.text
    }

    /// What a revert must bring back: the position text and the status.
    fn snapshot(&self) -> (String, String) {
        (self.text(), self.status())
    }
}

#[test]
fn every_kind_of_referee_edit_has_its_effect_and_its_revert() {
    let mut t = T::new("/nomic new players:@ann @ben @cat referees:@ref order:@ann @ben @cat");
    let start = t.snapshot();

    // The position: a piece put, moved and removed, each a numbered action.
    let e = t.no("ben", "/edit put square:A:d4 piece:Q2");
    assert!(e.contains("only a Referee"), "{e}");
    let e = t.no("ref", "/edit put square:A:d4 piece:X2");
    assert!(e.contains("letter K Q R B N P"), "{e}");
    let n = number_of(&t.ok("ref", "/edit put square:A:d4 piece:Q2"));
    t.ok("ref", "/edit move from:A:d4 to:B:d3");
    t.ok("ref", "/edit remove square:B:a2");
    assert_eq!(
        t.board('B'),
        "8/3{Q2}4/1{P2}{P2}{P2}{P2}{P2}{P2}{P2}/{R2}{N2}{B2}{Q2}{K2}{B2}{N2}{R2}"
    );
    t.revert(n);
    assert_eq!(t.snapshot(), start, "the revert restores the position");

    // The whole position from a position text (turn state included).
    let text = pos(
        3,
        "A:a1=K1 A:h2=P1 B:e1=K2 C:e1=K3",
        "1:1,2:2,3:3 2,1,3 - 2 1 - - - -",
    );
    let e = t.no("ref", "/edit position text:8/8/8/8 1:1 1 - 1 1 - - - -");
    assert!(
        e.contains("does not read") || e.contains("half-boards"),
        "{e}"
    );
    let n = number_of(&t.ok("ref", &format!("/edit position text:{text}")));
    assert_eq!(
        t.text(),
        Position::from_text(&text).expect("reads").to_text()
    );
    assert!(
        t.status().contains("Turn: army 2 (ben), part 1"),
        "{}",
        t.status()
    );
    t.revert(n);
    assert_eq!(t.snapshot(), start);

    // Controllers: army 2 to ann (ben is undead), then pending (skipped in the Order).
    let e = t.no("ref", "/edit controller army:4 to:@ann");
    assert!(e.contains("army must be from 1 to 3"), "{e}");
    let e = t.no("ref", "/edit controller army:2 to:@zed");
    assert!(e.contains("zed is not a player"), "{e}");
    let r = t.ok("ref", "/edit controller army:2 to:@ann");
    let n = number_of(&r);
    assert!(
        r.contains("army 2 is controlled by ann") && r.contains("ben is undead"),
        "{r}"
    );
    assert!(t.status().contains("undead: ben"), "{}", t.status());
    let r = t.ok("ref", "/edit controller army:2 to:pending");
    assert!(r.contains("army 2's control is pending"), "{r}");
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move e2-e4");
    t.ok("ann", "/done");
    assert!(
        t.status().contains("Turn: army 3 (cat)"),
        "army 2 pending is skipped: {}",
        t.status()
    );
    t.revert(n);
    assert_eq!(t.snapshot(), start);

    // The Order.
    let e = t.no("ref", "/order set:2,2,1");
    assert!(e.contains("every army 1 to 3 once"), "{e}");
    let n = number_of(&t.ok("ref", "/order set:3,1,2"));
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move e2-e4");
    t.ok("ann", "/done");
    assert!(t.status().contains("Turn: army 2 (ben)"), "{}", t.status());
    t.revert(n);
    assert_eq!(t.snapshot(), start);

    // Living status: a forfeit set by a Referee skips the army; revert brings ben back.
    let n = number_of(&t.ok("ref", "/edit player player:@ben forfeited:on"));
    assert!(t.status().contains("forfeited: ben"), "{}", t.status());
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move e2-e4");
    t.ok("ann", "/done");
    assert!(t.status().contains("Turn: army 3 (cat)"), "{}", t.status());
    t.revert(n);
    assert_eq!(t.snapshot(), start);

    // Budgets: with A marked involved, ann has no half left to move from.
    let e = t.no("ref", "/edit budget involved:AZ");
    assert!(e.contains("no half Z") || e.contains("halves"), "{e}");
    let n = number_of(&t.ok("ref", "/edit budget involved:A"));
    assert!(
        t.status().contains("halves left to move from: -"),
        "{}",
        t.status()
    );
    let e = t.no("ann", "/push bottom:A top:B");
    assert!(e.contains("push refused"), "{e}");
    t.revert(n);
    assert_eq!(t.snapshot(), start);
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/takeback");

    // Settings.
    let e = t.no("ref", "/set vote_limit:soon");
    assert!(e.contains("soon"), "{e}");
    let n = number_of(&t.ok("ref", "/set vote_limit:10m"));
    assert!(t.status().contains("vote 10m"), "{}", t.status());
    t.revert(n);
    assert_eq!(t.snapshot(), start);
}

#[test]
fn referee_clock_edits_move_the_running_limit_and_revert() {
    let mut t = T::new("/nomic new players:@ann @ben referees:@ref order:@ann @ben");
    t.clock(100);
    // More time for part 1: 200 s were left, 260 s more.
    let n = number_of(&t.ok("ref", "/edit clock add:4m20s"));
    assert!(t.clock(459).is_empty());
    t.revert(n);
    // Reverted: the limit is 5 minutes from the start again, long past: part 1 ran out.
    assert!(t.status().contains("Turn: army 2 (ben)"), "{}", t.status());

    // The time left, set outright (here shortened to 1 minute).
    let e = t.no("ref", "/edit clock");
    assert!(e.contains("add:<duration>"), "{e}");
    t.ok("ref", "/edit clock left:1m");
    assert!(t.clock(59).is_empty());
    let due = t.clock(1);
    assert!(due.iter().any(|l| l.contains("part 1 ran out")), "{due:?}");

    // During a vote the clock edit moves the vote's limit.
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move e2-e4");
    t.ok("ann", "/propose text:Knights may hop.");
    t.clock(200);
    let r = t.ok("ref", "/edit clock left:30s");
    assert!(r.contains("the vote") && r.contains("30s left"), "{r}");
    assert!(t.clock(29).is_empty());
    let due = t.clock(1);
    assert!(
        due.iter().any(|l| l.contains("vote on proposal 1 closes")),
        "{due:?}"
    );
    // While paused, the time left counts from the pause; nothing runs until /resume.
    let p = pos(2, "A:a1=K1 B:h1=K2 B:a4=P2", &own(2));
    let mut t = T::from(TWO, &p);
    t.ok("ref", "/pause");
    t.clock(1000);
    let r = t.ok("ref", "/edit clock left:2m");
    assert!(r.contains("once play resumes"), "{r}");
    t.clock(1000);
    t.ok("ref", "/resume");
    assert!(t.clock(119).is_empty());
    assert_eq!(t.clock(1).len(), 1);
    // Over: no limit is running.
    t.ok("ref", "/edit controller army:2 to:@ann");
    let e = t.no("ref", "/edit clock add:1m");
    assert!(e.contains("no limit is running"), "{e}");
}

#[test]
fn referees_set_the_times_of_infection() {
    // ann and dan control every army: ben then cat were infected (in that order); it is
    // part 3 of the last army's turn.
    let p = pos(
        4,
        "A:a1=K1 B:e1=K2 C:e1=K3 D:e1=K4",
        "1:1,2:1,3:4,4:4 1,2,3,4 - 4 3 - - - - - - 2,3",
    );
    let mut t = T::from("@ann @ben @cat @dan", &p);
    assert!(t.status().contains("undead: ben, cat"), "{}", t.status());
    let e = t.no("ref", "/edit undead order:@cat");
    assert!(
        e.contains("name every undead player once") && e.contains("undead now: ben, cat"),
        "{e}"
    );
    let e = t.no("ref", "/edit undead order:@cat @ann");
    assert!(e.contains("name every undead player once"), "{e}");
    let e = t.no("ann", "/edit undead order:@cat @ben");
    assert!(e.contains("only a Referee"), "{e}");
    let r = t.ok("ref", "/edit undead order:@cat @ben");
    let n = number_of(&r);
    assert!(r.contains("earliest infection first: cat, ben"), "{r}");
    // After the last army (3), the undead propose earliest infection first: cat now.
    t.ok("dan", "/done");
    assert!(t.status().contains("cat's undead slot"), "{}", t.status());
    t.revert(n);
    assert!(t.status().contains("undead: ben, cat"), "{}", t.status());
    t.ok("dan", "/done");
    assert!(t.status().contains("ben's undead slot"), "{}", t.status());
    // A player given an army back is living again; the one who loses all is undead.
    t.ok("ref", "/edit controller army:2 to:@ben");
    assert!(t.status().contains("undead: cat"), "{}", t.status());
}

#[test]
fn several_undead_players_propose_in_the_order_of_infection() {
    // ann's rook on A:d1 mates army 2 (B:e1) at ann's push; dan's rook on D:h1 mates army 3
    // (C:a1) at dan's push: ben is infected first, cat second.
    let p = pos(
        4,
        "A:a1=K1 A:d1=R1 B:e1=K2 C:a1=K3 C:h2=P3 D:a1=K4 D:h1=R4",
        &own(4),
    );
    let mut t = T::from("@ann @ben @cat @dan", &p);
    let r = t.ok("ann", "/push bottom:A top:B");
    assert!(r.contains("Army 2 is checkmated; ann may take it"), "{r}");
    t.ok("ann", "/move Ka1-b1");
    let r = t.ok("ann", "/take army:2");
    assert!(r.contains("ben is undead"), "{r}");
    t.ok("ann", "/done");
    // Army 2 is now ann's to play.
    t.ok("ann", "/push bottom:B top:C");
    t.ok("ann", "/move Ke1-e2");
    t.ok("ann", "/done");
    t.ok("cat", "/push bottom:A top:C");
    t.ok("cat", "/move a7-a6");
    t.ok("cat", "/done");
    let r = t.ok("dan", "/push bottom:D top:C");
    assert!(r.contains("Army 3 is checkmated; dan may take it"), "{r}");
    t.ok("dan", "/move Ka1-b1");
    let r = t.ok("dan", "/take army:3");
    assert!(r.contains("cat is undead"), "{r}");
    assert!(t.status().contains("undead: ben, cat"), "{}", t.status());
    t.ok("dan", "/done");
    // After the last army of the Order: ben (infected first), then cat, then army 1.
    assert!(t.status().contains("ben's undead slot"), "{}", t.status());
    let e = t.no("cat", "/propose text:Cats first.");
    assert!(e.contains("ben's turn"), "{e}");
    t.ok("ben", "/done");
    assert!(t.status().contains("cat's undead slot"), "{}", t.status());
    let e = t.no("ben", "/propose text:Again.");
    assert!(e.contains("cat's turn"), "{e}");
    let r = t.ok("cat", "/propose text:The undead may sing.");
    assert!(r.contains("proposal 1 by cat"), "{r}");
    for u in ["ann", "ben", "cat", "dan"] {
        t.ok(u, "/vote proposal:1 choice:for");
    }
    assert!(t.status().contains("Turn: army 1 (ann)"), "{}", t.status());
}

#[test]
fn kings_and_armies_whose_control_is_pending() {
    // Army 2's control is pending (ben is undead); its rook on B:e1 (J d8) attacks ann's
    // king on A:d1 (J d1) once A and B are pushed: ann's move must end the attack.
    let p = pos(
        4,
        "A:d1=K1 A:a4=P1 B:e1=R2 B:a1=K2 C:e1=K3 D:e1=K4",
        "1:1,2:?,3:3,4:4 1,2,3,4 - 1 1 - - - - - - 2",
    );
    let mut t = T::from("@ann @ben @cat @dan", &p);
    let r = t.ok("ann", "/push bottom:A top:B");
    assert!(r.contains("Your king is attacked"), "{r}");
    let e = t.no("ann", "/move a4-a5");
    assert!(e.starts_with("your King on d1 is in check"), "{e}");
    t.ok("ann", "/move Kd1-c2");
    t.ok("ann", "/done");
    // The pending army's turn is skipped: cat moves next.
    assert!(t.status().contains("Turn: army 3 (cat)"), "{}", t.status());

    // A pending army's king attacked by the mover at the push is mated: the mover may take it.
    let p = pos(
        4,
        "A:a1=K1 A:d1=R1 B:e1=K2 C:e1=K3 D:e1=K4",
        "1:1,2:?,3:3,4:4 1,2,3,4 - 1 1 - - - - - - 2",
    );
    let mut t = T::from("@ann @ben @cat @dan", &p);
    let r = t.ok("ann", "/push bottom:A top:B");
    assert!(r.contains("Army 2 is checkmated; ann may take it"), "{r}");
    t.ok("ann", "/move Ka1-b1");
    let r = t.ok("ann", "/take army:2");
    assert!(r.contains("ann takes army 2"), "{r}");
    assert!(t.status().contains("army 2 (ann)"), "{}", t.status());

    // A king attacked only by a pending army's pieces: no player is entitled, so that army's
    // control becomes pending too (cat is undead), until a Referee assigns it.
    let p = pos(
        4,
        "A:a1=K1 A:d3=R2 B:e1=K3 C:a1=K2 D:e1=K4",
        "1:1,2:?,3:3,4:4 1,2,3,4 - 1 1 - - - - - - 2",
    );
    let mut t = T::from("@ann @ben @cat @dan", &p);
    let r = t.ok("ann", "/push bottom:A top:B");
    assert!(
        r.contains("Army 3 is checkmated; no one player has the most pieces attacking its king"),
        "{r}"
    );
    assert!(r.contains("cat is undead"), "{r}");
    let e = t.no("ann", "/take army:3");
    assert!(
        e.contains("not offered") || e.contains("no army is offered"),
        "{e}"
    );
    t.ok("ann", "/move Ka1-b1");
    t.ok("ann", "/done");
    assert!(
        t.status().contains("army 3 (control pending)"),
        "{}",
        t.status()
    );
    // Both pending armies are skipped: dan moves next.
    assert!(t.status().contains("Turn: army 4 (dan)"), "{}", t.status());
    t.ok("ref", "/assign army:3 to:@cat");
    assert!(t.status().contains("undead: ben;"), "{}", t.status());
}

#[test]
fn fine_points_of_joins_parts_votes_and_referees() {
    // A join lasts one move: a second move needs a new push.
    let p = pos(3, "A:a1=K1 C:h1=N1 B:a1=K2 C:a4=K3", &own(3));
    let mut t = T::from(THREE, &p);
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move Ka1-a2");
    assert!(t.status().contains("part 1, to push"), "{}", t.status());
    let e = t.no("ann", "/move Ka2-a3");
    assert!(e.contains("push two half-boards together first"), "{e}");
    // The knight on C (in S, not yet involved) moves after a new push of C.
    t.ok("ann", "/push bottom:C top:B");
    t.ok("ann", "/move Nh1-g3");
    assert!(t.status().contains("part 3"), "{}", t.status());

    // A proposal of exactly proposal_max characters is accepted; one more is refused.
    let mut t =
        T::new("/nomic new players:@ann @ben referees:@ref order:@ann @ben proposal_max:20");
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move e2-e4");
    let e = t.no("ann", "/propose text:Knights wear big hats");
    assert!(e.contains("21 characters long; at most 20"), "{e}");
    let e = t.no("ben", "/pause");
    assert!(e.contains("only a Referee"), "{e}");
    let r = t.ok("ann", "/propose text:Knights wear the hat");
    assert!(r.contains("proposal 1"), "{r}");
    // No votes at all: defeated when the limit runs out.
    let due = t.clock(300);
    assert!(
        due.iter()
            .any(|l| l.contains("Proposal 1 is defeated (0 for, 0 against, 2 not cast)")),
        "{due:?}"
    );
    let e = t.no("ben", "/vote proposal:1 choice:for");
    assert!(e.contains("the vote on proposal 1 is closed"), "{e}");

    // Part 2: pushes, proposals and /done wait for the offers to be answered.
    let p = pos(
        3,
        "A:a1=K1 A:d1=R1 A:h2=P1 B:e1=K2 C:e1=K3 C:a2=P3",
        &own(3),
    );
    let mut t = T::from(THREE, &p);
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move Ka1-b1");
    assert!(t.status().contains("part 2"), "{}", t.status());
    let e = t.no("ann", "/push bottom:A top:C");
    assert!(e.contains("part 1 is over"), "{e}");
    let e = t.no("ann", "/done");
    assert!(e.contains("answer each offer"), "{e}");
    let e = t.no("cat", "/take army:2");
    assert!(e.contains("ann's turn"), "{e}");
    t.ok("ann", "/decline army:2");
    assert!(t.status().contains("part 3"), "{}", t.status());
}

#[test]
fn an_edit_that_leaves_a_defeated_author_nothing_to_demote_settles_the_demotion() {
    let p = pos(3, "A:a1=K1 A:b1=Q1 B:h1=K2 C:h1=K3 C:a2=P3", &own(3));
    let mut t = T::from(THREE, &p);
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move Ka1-a2");
    t.ok("ann", "/propose text:Queens nap.");
    for u in ["ann", "ben", "cat"] {
        t.ok(u, "/vote proposal:1 choice:against");
    }
    assert!(
        t.status().contains("Demotion: ann must /demote"),
        "{}",
        t.status()
    );
    // ann's army passes to cat: ann holds no piece to demote, so the game goes on.
    let r = t.ok("ref", "/edit controller army:1 to:@cat");
    assert!(r.contains("ann has no piece to demote"), "{r}");
    assert!(!t.status().contains("Demotion:"), "{}", t.status());
    assert!(t.status().contains("Turn: army 2 (ben)"), "{}", t.status());
}

/// Who a reply notifies.
fn pinged(r: &Reply) -> Vec<String> {
    r.notify.as_ref().map(|n| n.users()).unwrap_or_default()
}

/// Issue 39, defect 8: Referees are the game's moderators (`/revert` included); the
/// organiser adds and removes Referees during the game (numbered, logged, at least one
/// stays); with every Referee overruled, the organiser judges.
#[test]
fn referees_revert_and_the_organiser_adds_and_removes_them() {
    let mut t = T::new("/nomic new players:@ann @ben @cat referees:@ref order:@ann @ben @cat");
    t.ok("ann", "/push bottom:A top:B");
    // A Referee (no server role) asks for a revert and confirms it with the button.
    let r = t.run("ref", "/revert to:1 reason:wrong push");
    assert_eq!(r.ok, Some(true), "{}", r.text);
    assert!(r.text.contains("#1 ann: push A/B"), "{}", r.text);
    let r = t.hub.press("ref", &r.buttons[0], t.now);
    assert_eq!(r.ok, Some(true), "{}", r.text);
    assert_eq!(t.game().state().pos.turn.join, None);
    let e = t.no("ann", "/revert to:1 reason:mine");
    assert!(e.contains("only a moderator"), "{e}");
    // The organiser adds a Referee: a numbered action, shown as typed in the export.
    let e = t.no("ann", "/nomic referee add player:@rex");
    assert!(e.contains("only the organiser"), "{e}");
    let r = t.run("org", "/nomic referee add player:@rex");
    assert_eq!(r.ok, Some(true), "{}", r.text);
    assert!(r.text.starts_with("#3 rex is now a Referee"), "{}", r.text);
    assert!(pinged(&r).contains(&"rex".to_string()), "{:?}", pinged(&r));
    assert!(
        !pinged(&r).contains(&"ann".to_string()),
        "no re-ping of ann"
    );
    t.ok("rex", "/pause");
    t.ok("rex", "/resume");
    let e = t.no("org", "/nomic referee add player:@rex");
    assert!(e.contains("a Referee already"), "{e}");
    t.ok("org", "/nomic referee remove player:@ref");
    let e = t.no("ref", "/pause");
    assert!(e.contains("only a Referee"), "{e}");
    let e = t.no("org", "/nomic referee remove player:@rex");
    assert!(e.contains("at least one Referee"), "{e}");
    assert!(t.status().contains("Referees: rex"), "{}", t.status());
    let x = t.ok("ann", "/export");
    assert!(x.contains("org: /nomic referee add player:@rex"), "{x}");
    assert!(x.contains("[Referees \"rex\"]"), "{x}");
    let g = arbiter::games::nomic::export::import(&x).expect("imports");
    assert_eq!(g.state().settings.referees, vec!["rex".to_string()]);

    // A single Referee overruled: the organiser judges, and is told to.
    let r = t.run("ann", "/judgment question:May a knight wear a hat?");
    assert!(pinged(&r).contains(&"rex".to_string()), "{:?}", pinged(&r));
    t.ok("rex", "/judge judgment:1 text:Yes.");
    let e = t.no("org", "/judge judgment:1 text:No.");
    assert!(e.contains("only once every Referee has judged it"), "{e}");
    t.ok("ben", "/overrule judgment:1");
    let r = t.run("cat", "/overrule judgment:1");
    assert_eq!(r.ok, Some(true), "{}", r.text);
    assert!(
        r.text
            .contains("every Referee has judged it, so the organiser (org) judges it"),
        "{}",
        r.text
    );
    assert!(pinged(&r).contains(&"org".to_string()), "{:?}", pinged(&r));
    let e = t.no("rex", "/judge judgment:1 text:Yes again.");
    assert!(e.contains("another Referee"), "{e}");
    let e = t.no("ann", "/judge judgment:1 text:Mine.");
    assert!(e.contains("only a Referee"), "{e}");
    t.ok("org", "/judge judgment:1 text:No hats.");
}

/// Issue 39, defect 9: an adopted amendment of rule 206 sets the limits at the close of
/// its vote; a change the bot cannot enforce calls on the Referees.
#[test]
fn an_adopted_change_to_rule_206_takes_effect_and_others_call_the_referees() {
    let mut t = T::new("/nomic new players:@ann @ben referees:@ref order:@ann @ben");
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move e2-e4");
    t.ok(
        "ann",
        "/propose text:Amend rule 206 to read: A player has ten minutes to perform the first part of any turn, and two minutes to perform the third part.",
    );
    t.ok("ann", "/vote proposal:1 choice:for");
    let r = t.ok("ben", "/vote proposal:1 choice:for");
    assert!(
        r.contains("Rule 206 takes effect now: part 1 has 10m, part 3 has 2m"),
        "{r}"
    );
    assert!(
        t.status().contains("Limits: part 1 10m, part 3 2m"),
        "{}",
        t.status()
    );
    assert!(t.ok("ann", "/rules number:206").contains("(mutable)"));
    // ben's part 1 now lasts ten minutes.
    assert!(t.clock(599).is_empty());
    let due = t.clock(1);
    assert!(
        due.iter().any(|l| l.contains("part 1 ran out after 10m")),
        "{due:?}"
    );
    // ann enacts a rule: the Referees are called on to apply it.
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move d2-d4");
    t.ok("ann", "/propose text:Knights wear hats.");
    t.ok("ann", "/vote proposal:2 choice:for");
    let r = t.run("ben", "/vote proposal:2 choice:for");
    assert!(
        r.text.contains("Rule 218 is referee-enforced"),
        "{}",
        r.text
    );
    let n = r.notify.expect("a notice");
    assert!(n.users().contains(&"ref".to_string()), "{:?}", n.users());
    assert!(n.text().contains("rule 218 is enacted"), "{}", n.text());
    // Repealed: no limit.
    let mut t = T::new("/nomic new players:@ann @ben referees:@ref order:@ann @ben");
    t.ok("ann", "/push bottom:A top:B");
    t.ok("ann", "/move e2-e4");
    t.ok("ann", "/propose text:Repeal rule 206.");
    t.ok("ann", "/vote proposal:1 choice:for");
    t.ok("ben", "/vote proposal:1 choice:for");
    assert!(
        t.status().contains("Limits: part 1 none, part 3 none"),
        "{}",
        t.status()
    );
    // No limit runs out: a week later only reminders (issue 41) have come, none of a limit.
    let later = t.clock(7 * 86_400);
    assert!(
        later
            .iter()
            .all(|m| m.contains("reminder:") && !m.contains("ran out")),
        "{later:?}"
    );
}

#[test]
fn the_limits_a_text_of_rule_206_sets() {
    use arbiter::games::nomic::{limits_of, NO_LIMIT};
    assert_eq!(
        limits_of("A player has ten minutes to perform the first part of any turn, and 2m to perform the third part."),
        Some((600, 120))
    );
    assert_eq!(limits_of("Each part has 1 hour."), Some((3600, 3600)));
    assert_eq!(
        limits_of("Part 1 has twenty minutes."),
        Some((1200, NO_LIMIT))
    );
    assert_eq!(limits_of("Players should hurry."), None);
    assert_eq!(
        limits_of("5 minutes for part 1, 6 minutes for part 1."),
        None
    );
}

/// Issue 39, defect 10: edits as typed in previews and exports; Take in part 1; the rules
/// as Discord markdown; the export's header with the settings in force; pings for an army
/// mated at a push.
#[test]
fn edits_show_as_typed_and_messages_say_what_to_do() {
    let mut t = T::new("/nomic new players:@ann @ben @cat referees:@ref order:@ann @ben @cat");
    t.ok("ref", "/edit remove square:A:a1");
    t.ok("ref", "/edit put square:B:d4 piece:Q1");
    t.ok("ref", "/edit controller army:2 to:@ann");
    t.ok("ref", "/set part1_limit:10m");
    let r = t.run("ref", "/revert to:1 reason:check");
    assert_eq!(r.ok, Some(true), "{}", r.text);
    for want in [
        "#1 ref: /edit remove square:A:a1",
        "#2 ref: /edit put square:B:d4 piece:Q1",
        "#3 ref: /edit controller army:2 to:@ann",
        "#4 ref: /set part1_limit:10m",
    ] {
        assert!(r.text.contains(want), "{want}: {}", r.text);
    }
    assert!(!r.text.contains("Local"), "{}", r.text);
    let x = t.ok("ann", "/export");
    assert!(x.contains("#1 t="), "{x}");
    assert!(x.contains("ref: /edit remove square:A:a1"), "{x}");
    assert!(
        x.contains("[Limits \"part1 10m, part3 5m, vote 5m\"]"),
        "{x}"
    );
    assert!(x.contains("ref: /set part1_limit:10m"), "{x}");
    let g = arbiter::games::nomic::export::import(&x).expect("imports");
    assert_eq!(g.state().settings.part1_limit, 600);
    // An export written before this change (no [Options] tag, edits as debug text) imports.
    let old: String = x
        .lines()
        .filter(|l| !l.starts_with("[Options"))
        .map(|l| {
            l.replace(
                "/edit remove square:A:a1",
                "edit Remove { square: Local { half: 0, file: 0, rank: 0 } }",
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    let g = arbiter::games::nomic::export::import(&old).expect("an old export imports");
    assert_eq!(g.state().pos.to_text(), t.game().state().pos.to_text());

    // /rules number:103 in Discord markdown.
    let r = t.ok("ann", "/rules number:103");
    assert!(r.contains("__rule-change__"), "{r}");
    assert!(!r.contains("<u>"), "{r}");

    // Take comes in part 2: an army mated at the push is offered, and pings its taker.
    let p = pos(3, "A:a1=K1 A:d1=R1 B:e1=K2 C:e1=K3 C:a2=P3", &own(3));
    let mut t = T::from(THREE, &p);
    t.ok("ann", "/push bottom:A top:B");
    let e = t.no("ann", "/take army:2");
    assert!(e.contains("Take comes in part 2, after the move"), "{e}");
    // Mated at the push by cat's rook: the army passes to cat, who is told.
    let p = pos(3, "A:a1=K1 A:d1=R3 B:e1=K2 C:e1=K3 C:a2=P3", &own(3));
    let mut t = T::from(THREE, &p);
    let r = t.run("ann", "/push bottom:A top:B");
    assert!(r.text.contains("passes to cat"), "{}", r.text);
    assert!(pinged(&r).contains(&"cat".to_string()), "{:?}", pinged(&r));
    // A tie: the Referees are asked to /assign.
    let p = pos(
        3,
        "A:a1=K1 A:d1=R1 B:e1=K2 B:a1=R3 C:e1=K3 C:a2=P3",
        &own(3),
    );
    let mut t = T::from(THREE, &p);
    let r = t.run("ann", "/push bottom:A top:B");
    assert!(pinged(&r).contains(&"ref".to_string()), "{:?}", pinged(&r));
}

/// Issue 39, shared messages: lower-case piece letters, the check-first refusal, hints for
/// short algebraic and upper-case squares, and no re-ping on a Referee's bookkeeping.
#[test]
fn moves_as_players_write_them_and_bookkeeping_pings_nobody() {
    let mut t = T::new("/nomic new players:@ann @ben referees:@ref order:@ann @ben");
    t.ok("ann", "/push bottom:A top:B");
    let e = t.no("ann", "/move e4");
    assert_eq!(e, "write the move from-to: e2-e4");
    let e = t.no("ann", "/move Nc3");
    assert_eq!(e, "write the move from-to: Nb1-c3");
    let e = t.no("ann", "/move e5");
    assert_eq!(e, "write the move from-to, like e2-e4");
    let e = t.no("ann", "/move E2-E4");
    assert_eq!(e, "square letters are lower case: e2-e4");
    let r = t.ok("ann", "/move nb1-c3");
    assert!(r.contains("Nb1-c3"), "{r}");
    t.ok("ann", "/done");
    // Bookkeeping while ben is on turn: nobody is pinged again.
    for cmd in [
        "/set part1_limit:10m",
        "/edit put square:A:h4 piece:P1",
        "/order set:1,2",
        "/edit clock add:1m",
    ] {
        let r = t.run("ref", cmd);
        assert_eq!(r.ok, Some(true), "{cmd}: {}", r.text);
        assert!(pinged(&r).is_empty(), "{cmd}: {:?}", pinged(&r));
    }
    // A change of who must act still pings.
    let r = t.run("ref", "/edit controller army:2 to:@ann");
    assert!(pinged(&r).contains(&"ann".to_string()), "{:?}", pinged(&r));

    // The mover's king in check: the refusal says so first.
    let p = pos(2, "A:e1=K1 A:a2=P1 B:a1=K2 B:d1=R2", &own(2));
    let mut t = T::from(TWO, &p);
    let r = t.ok("ann", "/push bottom:A top:B");
    assert!(r.contains("must end the attack"), "{r}");
    let e = t.no("ann", "/move a2-a3");
    assert_eq!(
        e,
        "your King on e1 is in check; legal moves: Ke1-d1 Ke1-d2 Ke1-f1 Ke1-f2"
    );
}
