//! Party Chess scenarios (RULINGS §3): each rule with the case it allows and the one it
//! refuses, typed as commands into a hub holding the game; the assertions read the game.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter::commands::{parse_command, Caller, Hub, Reply, Roles};
use arbiter::games::party::{Game, Kind, Sq};

const T0: u64 = 1_767_225_600;
const DAY: u64 = 86_400;

/// A placement from `square=piece` pairs (`c3=K1 e5=H2:3`).
fn board(spec: &str) -> String {
    let mut rows = Vec::new();
    for r in (1..=20).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for f in 0..20u8 {
            let name = format!("{}{r}", (b'a' + f) as char);
            match spec
                .split_whitespace()
                .find_map(|t| t.strip_prefix(&format!("{name}=")))
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
    rows.join("/")
}

struct T {
    hub: Hub,
    now: u64,
}

impl T {
    fn new(cmd: &str) -> T {
        let mut t = T {
            hub: Hub::new(),
            now: T0,
        };
        let r = t.run("org", cmd);
        assert_eq!(r.ok, Some(true), "{}", r.text);
        t
    }
    /// A game from a position text with Swingers ann, ben, cat, … (as many as seats).
    fn from(position: &str, n: usize) -> T {
        let names = ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal"];
        let sw: Vec<String> = names[..n].iter().map(|u| format!("@{u}")).collect();
        T::new(&format!(
            "/party new umpire:@uma swingers:{} position:{position}",
            sw.join(" ")
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
        let mut r = self.hub.handle(&caller, 0, &cmd, text);
        if let (true, Some(id)) = (text.starts_with("/revert"), r.buttons.first().cloned()) {
            r = self.hub.press(user, &id, self.now);
        }
        r
    }
    fn ok(&mut self, user: &str, text: &str) -> String {
        self.now += 60;
        let r = self.run(user, text);
        assert_eq!(r.ok, Some(true), "{user} {text}: {}", r.text);
        r.text
    }
    fn no(&mut self, user: &str, text: &str) -> String {
        let before = self.game().position().to_text();
        let len = self.game().log.len();
        let r = self.run(user, text);
        assert_eq!(r.ok, Some(false), "{user} {text} was accepted: {}", r.text);
        assert_eq!(self.game().position().to_text(), before);
        assert_eq!(self.game().log.len(), len);
        r.text
    }
    fn game(&self) -> Game {
        self.hub
            .game("t")
            .and_then(|g| g.downcast::<Game>())
            .cloned()
            .expect("a Party game")
    }
    fn list(&self) -> Vec<String> {
        let g = self.game();
        g.position()
            .list
            .iter()
            .map(|&s| g.user(s).to_string())
            .collect()
    }
    fn at(&self, sq: &str) -> Option<(Kind, u8)> {
        self.game()
            .position()
            .at(Sq::parse(sq).expect("square"))
            .map(|p| (p.kind, p.seat))
    }
}

/// Four Kings far apart, A (ann) to play, then B C D.
fn four(extra: &str, hands: &str) -> T {
    T::from(
        &format!(
            "{} [{hands}] 1,2,3,4 1:-,2:-,3:-,4:-",
            board(&format!("a1=K1 t1=K2 a20=K3 t20=K4 {extra}"))
        ),
        4,
    )
}

#[test]
fn selection_then_play_begins() {
    let mut t = T::new("/party new umpire:@uma swingers:@ann @ben @cat first:@cat seed:3");
    assert_eq!(t.list()[0], "cat", "first: is the NAP Swinger");
    t.no("ann", "/party pieces set:RRRBP");
    let e = t.no("ann", "/party pieces set:ZZMRP");
    assert!(e.contains("il-Nabi"), "{e}");
    t.no("ann", "/party pieces set:KRRPP");
    t.no("ann", "/party pieces set:RRPP");
    t.ok("ann", "/party pieces set:RRRPP");
    t.no("ann", "/party pieces set:RRRPP");
    t.no("cat", "/move K@c3");
    t.ok("ben", "/party pieces set:TJJPP");
    let r = t.ok("cat", "/party pieces set:OEQ%P");
    assert!(r.contains("play begins"), "{r}");
    assert!(r.contains("Weights: cat 0.0, ann 0.0, ben 0.0"), "{r}");
    t.ok("cat", "/move K@c3");
}

#[test]
fn play_list_examples_of_the_rulings() {
    // A B C D; A checks C → C B D A.
    let mut t = four("d10=R1", "");
    t.ok("ann", "/move Rd10-a10");
    assert_eq!(t.list(), ["cat", "ben", "dan", "ann"]);
    // A B C D; A checks B and D → B D C A.
    let mut t = four("m10=R1 p1=R1 s17=P4", "");
    let r = t.ok("ann", "/move Rm10-m20");
    // ben was in check already (the rook on p1): ben and dan, in their order.
    assert_eq!(t.list(), ["ben", "dan", "cat", "ann"], "{r}");
    // A checks D only → D B C A.
    let mut t = four("j10=B1 s2=P2", "");
    t.ok("ann", "/move Bj10-k11");
    assert_eq!(t.list(), ["dan", "ben", "cat", "ann"]);
    let mut t = four("d10=R1 r3=R1", "");
    let r = t.ok("ann", "/move Rr3-r1");
    assert!(r.contains("In check: ben."), "{r}");
    assert_eq!(t.list(), ["ben", "cat", "dan", "ann"]);
}

#[test]
fn two_checked_keep_their_order() {
    // cat is in check from the rook on d20; ann's rook k5-k1 checks ben too: B C D A.
    let mut t = four("k5=R1 d20=R1", "");
    t.ok("ann", "/move Rk5-k1");
    assert_eq!(t.list(), ["ben", "cat", "dan", "ann"]);
    let e = t.no("ben", "/pass");
    assert!(e.contains("check"), "{e}");
}

#[test]
fn a_play_into_check_is_refused_and_pass_is_refused_in_check() {
    let mut t = four("b10=R2", "");
    let e = t.no("ann", "/move Ka1-b2");
    assert!(e.contains("King attacked"), "{e}");
    t.ok("ann", "/move Ka1-a2");
    let mut t = four("a10=R2", "1:RJ");
    let e = t.no("ann", "/pass");
    assert!(e.contains("check"), "{e}");
    // A placement that attacks an opposing piece is refused, one that leaves the King
    // attacked too; blocking is fine.
    let e = t.no("ann", "/move R@a15");
    assert!(e.contains("attack the opposing piece on a10"), "{e}");
    let e = t.no("ann", "/move R@t5");
    assert!(e.contains("attack the opposing piece on t1"), "{e}");
    let e = t.no("ann", "/move R@b5");
    assert!(e.contains("King attacked"), "{e}");
    t.ok("ann", "/move J@a5");
}

#[test]
fn surrender_takes_every_piece_off_the_board() {
    let mut t = four("c3=R1 e5=H1:3", "");
    t.ok("ann", "/surrender");
    let g = t.game();
    assert_eq!(g.position().pieces_of(1).count(), 0);
    let hand: String = g.position().hand(1).iter().map(|p| p.hand_text()).collect();
    assert_eq!(hand, "KR{H:3}");
    assert!(g.weights_line().contains("ann 0.0"));
}

#[test]
fn a_captured_king_goes_to_the_capturer_and_is_destroyed_by_the_limit() {
    // ben is in check from ann's rook and cat's rook at once; ann to play captures ben's King.
    let mut t = T::from(
        &format!(
            "{} [] 1,2,3 1:-,2:-,3:-",
            board("a1=K1 j1=R1 t1=K2 t10=R3 a20=K3")
        ),
        3,
    );
    let r = t.ok("ann", "/move Rj1xt1");
    assert!(r.contains("Weights: ann"), "{r}");
    let g = t.game();
    assert_eq!(
        g.position().owned(1, Kind::King),
        1,
        "the captured King is destroyed"
    );
    assert!(g.position().king(2).is_none());
    assert!(g.weights_line().contains("ben 0.0"));
    // ben plays on without a King, never in check.
    assert!(!g.in_check().contains(&2));
}

#[test]
fn the_weight_example_is_39_5() {
    let t = T::from(
        &format!("{} [] 1,2 1:-,2:-", board("c3=K1 c10=R1 e5=J1 c14=P2")),
        2,
    );
    assert_eq!(t.game().weights_line(), "Weights: ann 39.5, ben 0.0");
}

#[test]
fn a_turn_expires_to_its_default_play_and_an_extension() {
    let mut t = four("", "");
    // ann's turn expires after 3 days: a Pass (legal).
    t.now += 3 * DAY;
    let r = t.ok("ben", "/pass");
    assert!(r.contains("ann's turn expired: pass"), "{r}");
    // cat is extended to 5 days; at 4 days nothing has fallen due.
    t.ok("uma", "/party extend player:@cat until:5d");
    t.no("uma", "/party extend player:@cat until:8d");
    t.no("ben", "/party extend player:@cat until:6d");
    let due = t.game();
    assert!(due.expiries(t.now, t.now + 4 * DAY).is_empty());
    assert_eq!(due.expiries(t.now, t.now + 6 * DAY).len(), 1);
    // In check at expiry: Surrender.
    let mut t = four("a10=R2", "");
    t.now += 3 * DAY + 1;
    let status = t.ok("ann", "/status");
    assert!(status.contains("Last play: ann surrender"), "{status}");
}

#[test]
fn warmth_passes_automatically_unless_in_check() {
    let mut t = four("d10=R1", "");
    t.ok("uma", "/party warm player:@ben on");
    t.no("ann", "/party warm player:@cat on");
    let r = t.ok("ann", "/move Rd10-d11");
    assert!(r.contains("ben is Warm and passes."), "{r}");
    assert_eq!(t.list()[0], "cat");
    // A Warm Swinger may surrender out of turn.
    t.ok("ben", "/surrender");
    // Warm and checked: an ordinary turn.
    let mut t = four("d10=R1", "");
    t.ok("uma", "/party warm player:@cat on");
    t.ok("ann", "/move Rd10-a10");
    assert_eq!(t.list()[0], "cat", "checked: cat plays");
    t.no("ben", "/surrender");
}

#[test]
fn warm_for_two_whole_rounds_surrenders() {
    let mut t = four("c3=R2", "");
    t.ok("uma", "/party warm player:@ben on");
    for _ in 0..3 {
        t.ok("ann", "/pass");
        t.ok("cat", "/pass");
        t.ok("dan", "/pass");
    }
    let g = t.game();
    assert!(g.state().round_count >= 3);
    assert_eq!(g.position().pieces_of(2).count(), 0, "ben surrendered");
}

#[test]
fn seven_swingers_skip_one_without_pieces() {
    let kings = "a1=K1 c1=K2 e1=K3 g1=K4 i1=K5 k1=K6 m1=K7";
    let mut t = T::from(
        &format!(
            "{} [8:K] 1,2,3,4,5,6,7,8 {}",
            board(kings),
            (1..=8)
                .map(|s| format!("{s}:-"))
                .collect::<Vec<_>>()
                .join(",")
        ),
        8,
    );
    for u in ["ann", "ben", "cat", "dan", "eve", "fay"] {
        t.ok(u, "/pass");
    }
    let r = t.ok("gus", "/pass");
    assert!(
        r.contains("hal has no pieces on the board and is skipped"),
        "{r}"
    );
    assert_eq!(t.list()[0], "ann");
    // With a seat fewer on the board (six), nobody is skipped.
    let mut t = T::from(
        &format!(
            "{} [7:K 8:K] 1,2,3,4,5,6,7,8 -",
            board("a1=K1 c1=K2 e1=K3 g1=K4 i1=K5 k1=K6")
        ),
        8,
    );
    for u in ["ann", "ben", "cat", "dan", "eve"] {
        t.ok(u, "/pass");
    }
    t.ok("fay", "/pass");
    assert_eq!(t.list()[0], "gus");
}

#[test]
fn takeback_and_revert() {
    let mut t = four("c3=R1", "");
    t.ok("ann", "/move Rc3-c9");
    t.no("ben", "/takeback");
    t.ok("ann", "/takeback");
    assert_eq!(t.at("c3"), Some((Kind::Rook, 1)));
    t.ok("ann", "/move Rc3-c9");
    t.ok("ben", "/pass");
    let r = t.ok("mod", "/revert to:3 reason:mistake");
    assert!(r.contains("reverted"), "{r}");
    assert_eq!(t.at("c3"), Some((Kind::Rook, 1)));
    assert_eq!(t.list()[0], "ann");
}

#[test]
fn umpire_creates_adds_removes_and_keeps_a_ledger() {
    let mut t = four("", "");
    t.no("ann", "/party create piece:R for:@ben");
    let r = t.ok("uma", "/party create piece:R for:@ben");
    assert!(r.contains("A$64"), "{r}");
    t.ok("uma", "/party create piece:T for:@ben");
    t.no("uma", "/party create piece:T for:@ben");
    t.no("uma", "/party create piece:zombie for:@ben");
    t.ok("uma", "/ledger add text:ann pays A$10 for a Jester");
    t.ok("uma", "/ledger edit 2 text:ann pays A$22 for a Jester");
    let s = t.game().state_lines();
    assert!(
        s.iter()
            .any(|l| l == "ledger 2: ann pays A$22 for a Jester"),
        "{s:?}"
    );
    t.ok("uma", "/party swinger add player:@eve");
    assert_eq!(t.list().last().map(String::as_str), Some("eve"));
    t.ok("eve", "/party pieces set:RRJPP");
    t.ok("uma", "/party swinger remove player:@dan");
    assert!(!t.list().contains(&"dan".to_string()));
    assert!(t.game().position().king(4).is_none());
}

#[test]
fn moves_for_a_square_or_a_placement_piece() {
    let mut t = four("c1=R1", "1:J");
    let r = t.ok("ann", "/moves square:c1");
    assert!(r.contains("Rc1-c2") && !r.contains("Rc10"), "{r}");
    let r = t.ok("ann", "/moves piece:J");
    assert!(r.starts_with("J@") && !r.contains("Rc1"), "{r}");
}

#[test]
fn export_imports_back() {
    let mut t = four("c3=R1", "");
    t.ok("ann", "/move Rc3-c9");
    let g = t.game();
    let text = arbiter::games::party::export::export(&g);
    let back = arbiter::games::party::export::import(&text).expect("imports");
    assert_eq!(back.position(), g.position());
    assert!(arbiter::commands::import(&text).is_ok());
}

/// `echo:vector` (RULINGS §3.2): the Echo makes only the displacement its Swinger's last
/// moved piece made; under the default `rules` it moves by that piece's whole rule. The
/// setting shows in `/status`, the position text and the export, and survives an import.
#[test]
fn the_echo_setting_rules_or_vector() {
    let start = format!(
        "{} [] 1,2 1:-,2:-",
        board("a1=K1 c3=R1 e5=E1 t20=K2 q16=R2")
    );
    for (echo, e9, e10) in [("rules", true, true), ("vector", false, true)] {
        let mut t = T::new(&format!(
            "/party new umpire:@uma swingers:@ann @ben echo:{echo} position:{start}"
        ));
        t.ok("ann", "/move Rc3-c8");
        t.ok("ben", "/move Rq16-q17");
        let status = t.ok("ann", "/status");
        assert!(status.contains(&format!("echo: {echo}")), "{status}");
        let moves = t.ok("ann", "/moves square:e5");
        assert_eq!(moves.contains("Ee5-e9"), e9, "{echo}: {moves}");
        assert_eq!(moves.contains("Ee5-e10"), e10, "{echo}: {moves}");
        assert_eq!(moves.contains("Ee5-f5"), e9, "{echo}: {moves}");
        let text = t.game().position().to_text();
        if echo == "vector" {
            assert!(text.ends_with(" 1:R+0+5,2:R+0+1 echo:vector"), "{text}");
            t.no("ann", "/move Ee5-e9");
        } else {
            assert!(text.ends_with(" 1:R,2:R"), "{text}");
        }
        let g = t.game();
        let exported = arbiter::games::party::export::export(&g);
        assert!(exported.contains(&format!("[Echo \"{echo}\"]")));
        let back = arbiter::games::party::export::import(&exported).expect("imports");
        assert_eq!(back.position(), g.position());
        assert_eq!(back.settings.echo, g.settings.echo);
        // The Echo's move keeps the source; the next Echo move repeats the displacement.
        t.ok("ann", "/move Ee5-e10");
        t.ok("ben", "/pass");
        let moves = t.ok("ann", "/moves square:e10");
        assert_eq!(moves.contains("Ee10-e11"), echo == "rules", "{moves}");
        assert!(moves.contains("Ee10-e15"), "{moves}");
    }
    // A position text carries the reading; echo: on /party new overrides it, and a
    // vector reading needs every source's displacement.
    let vector_text = format!(
        "{} [] 1,2 1:R+0+5,2:- echo:vector",
        board("a1=K1 e5=E1 t20=K2")
    );
    let t = T::from(&vector_text, 2);
    assert_eq!(
        t.game().settings.echo,
        arbiter::games::party::EchoRule::Vector
    );
    assert_eq!(t.game().position().to_text(), vector_text);
    let create = |echo: &str, position: &str| {
        let mut hub = Hub::new();
        let caller = Caller {
            user: "org",
            roles: Roles {
                organiser: true,
                moderator: false,
            },
            thread: "t",
            now: T0,
        };
        let text = format!("/party new umpire:@uma swingers:@ann @ben {echo} {position}");
        let cmd = parse_command(&text).expect("a command");
        hub.handle(&caller, 0, &cmd, &text)
    };
    let plain = format!("position:{} [] 1,2 1:R,2:-", board("a1=K1 e5=E1 t20=K2"));
    let r = create("echo:vector", &plain);
    assert_eq!(r.ok, Some(false), "{}", r.text);
    assert!(r.text.contains("echo sources"), "{}", r.text);
    let r = create("echo:rules", &plain);
    assert_eq!(r.ok, Some(true), "{}", r.text);
    let r = create("echo:sideways", "");
    assert_eq!(r.ok, Some(false), "{}", r.text);
    assert!(r.text.contains("echo:rules or echo:vector"), "{}", r.text);
}

/// Leaving the server makes a Swinger Warm (RULINGS §3.6), logged as the bot's action: a
/// Warm Swinger not in check passes at turn start, one in check plays an ordinary turn.
#[test]
fn leaving_the_server_makes_a_swinger_warm() {
    let mut t = four("c3=R1 k19=R3", "");
    let mut g = t.game();
    assert!(g.member_left("zed", t.now).is_none(), "not a Swinger");
    let a = g.member_left("ben", t.now).expect("ben is a Swinger");
    assert!(
        a.text.contains("ben left the server and is Warm."),
        "{}",
        a.text
    );
    assert!(g.state().warm.contains(&2));
    assert_eq!(g.log.last().map(|e| e.actor.as_str()), Some("arbiter"));
    assert!(g.member_left("ben", t.now).is_none(), "Warm already");
    // Through the hub: ben, not in check, passes when his turn comes.
    t.hub.member_left("t", "ben", t.now).expect("acts");
    let r = t.ok("ann", "/move Rc3-c4");
    assert!(r.contains("ben is Warm and passes."), "{r}");
    assert_eq!(t.list(), ["cat", "dan", "ann", "ben"]);
    // cat checks dan (Rook k20, nine squares from t20); dan leaves, and being in check
    // plays an ordinary turn.
    t.ok("cat", "/move Rk19-k20");
    assert_eq!(t.list()[0], "dan");
    t.hub.member_left("t", "dan", t.now).expect("acts");
    assert_eq!(t.list()[0], "dan", "in check, dan plays an ordinary turn");
    assert!(t.game().state().warm.contains(&4));
    t.ok("dan", "/move Kt20-t19");
}

#[test]
fn a_qball_bounce_that_reads_two_ways_is_echoed_and_logged_with_its_bounce() {
    // A Qball on a11 reaches t10 bouncing off j20 or off k1. Both are offered with their
    // bounce; either is accepted as offered, echoed and logged with it, so the log replays.
    let mut t = four("a11=Q1", "");
    t.now += 60;
    let r = t.run("ann", "/moves");
    assert!(r.text.contains("Qa11-j20-t10"), "{}", r.text);
    assert!(r.text.contains("Qa11-k1-t10"), "{}", r.text);
    let e = t.no("ann", "/move Qa11-t10");
    assert!(e.contains("reads two ways"), "{e}");
    let r = t.ok("ann", "/move Qa11-k1-t10");
    assert!(r.contains("Qa11-k1-t10"), "{r}");
    let g = t.game();
    let again = Game::from_log(g.settings.clone(), g.log.clone()).expect("the log replays");
    assert_eq!(again.position(), g.position());
    assert_eq!(t.at("t10"), Some((Kind::Qball, 1)));
}

// ----- issue 39 ---------------------------------------------------------------------------

/// Issue 39, defect 1 (RULINGS §3.7, §3.2 Tornado): the Tornado on o9 takes q7 and goes on
/// to s9, so it defends the Camel there; seat 1 weighs 44.5 (40.5 when only the first
/// segment counted).
#[test]
fn a_tornado_defends_through_its_chain() {
    let t = T::from(
        "20/20/20/5{O1}14/20/20/20/20/20/3{K2}16/20/14{T1}3{C1}1/20/16{B2}1{D2}1/18{R2}1/20/20/20/4{K1}15/20 [] 1,2 1:C,2:R",
        2,
    );
    let w = t.game().weights_line();
    assert!(w.starts_with("Weights: ann 44.5,"), "{w}");
}

/// A Demon inside the box of the Rooks g6 and k10, ann holding a Pawn.
fn demon_box() -> T {
    T::from(
        &format!(
            "{} [1:P] 1,2 1:-,2:-",
            board("a1=K1 h8=D1 g6=R1 k10=R1 t1=R1 t20=K2")
        ),
        2,
    )
}

/// Issue 39, defect 2 (RULINGS §3.2 Demon): a Demon promotion written after a Placement (or
/// a Pass or Surrender) is refused whole, saying Demons promote only after a Move or
/// Capture, with the types it could become.
#[test]
fn a_demon_promotion_after_a_placement_is_refused_whole() {
    let mut t = demon_box();
    let e = t.no("ann", "/move P@b1 Dh8=H");
    assert!(
        e.contains("Demons promote only after a Move or Capture")
            && e.contains("not after a Placement"),
        "{e}"
    );
    assert!(
        e.contains("R B") || e.contains(" H"),
        "the allowed types: {e}"
    );
    let e = t.no("ann", "/move pass Dh8=H");
    assert!(e.contains("not after a Pass"), "{e}");
    assert_eq!(t.at("b1"), None, "nothing was placed");
    // After a move it promotes.
    let r = t.ok("ann", "/move Rt1-t2 Dh8=H");
    assert!(r.contains("Rt1-t2 Dh8=H"), "{r}");
    assert_eq!(t.at("h8"), Some((Kind::HarfyBlob, 1)));
}

/// Every refused Demon promotion names its reason (limit reached, not inside a box, a Demon
/// to a Demon) and the types allowed.
#[test]
fn a_refused_demon_promotion_names_the_reason_and_the_types() {
    let mut t = demon_box();
    let e = t.no("ann", "/move Rt1-t2 Dh8=K");
    assert!(
        e.contains("you own a King already (the limit is 1)") && e.contains("it may become: R"),
        "{e}"
    );
    let e = t.no("ann", "/move Rt1-t2 Dh8=D");
    assert!(e.contains("a Demon does not promote to a Demon"), "{e}");
    let e = t.no("ann", "/move Rk10-k8 Dh8=H");
    assert!(
        e.contains("not strictly inside the box") && e.contains("could become: R"),
        "{e}"
    );
}

/// Issue 39, defect 3 (RULINGS §0): `+` belongs to a play that gives check itself. ann's
/// Rook checks ben and cat at once; ben's quiet King move leaves cat in check by ann's Rook
/// and is echoed without `+`.
#[test]
fn plus_only_for_a_play_that_checks_itself() {
    let mut t = T::from(
        &format!("{} [] 1,2,3 1:-,2:-,3:-", board("a20=K1 j8=R1 j1=K2 p5=K3")),
        3,
    );
    let r = t.ok("ann", "/move Rj8-j5");
    assert!(r.contains("ann: Rj8-j5+"), "{r}");
    assert_eq!(t.list(), ["ben", "cat", "ann"]);
    let r = t.ok("ben", "/move Kj1-i1");
    assert!(
        r.contains("ben: Kj1-i1\n"),
        "no + for ben's quiet move: {r}"
    );
    assert!(r.contains("In check: cat."), "{r}");
}

/// Issue 54: a refused command changes nothing, its log included: the default plays that
/// fell due before it stay the timer sweep's to write and announce (before, a refused
/// `/pass` wrote them). An accepted one writes them first and lists them.
#[test]
fn a_refused_command_writes_no_default_play() {
    let mut t = four("", "");
    // ann's and ben's turns ran out; cat is to play.
    t.now += 6 * DAY + 10;
    t.no("ann", "/pass");
    t.no("zed", "/pass");
    assert_eq!(t.game().log.len(), 1, "only the start");
    let r = t.ok("cat", "/pass");
    assert!(r.contains("Fallen due before it"), "{r}");
    assert!(r.contains("#1 ann's turn expired: pass"), "{r}");
    assert!(r.contains("#2 ben's turn expired: pass"), "{r}");
    assert!(r.starts_with("#3 "), "{r}");
}

/// Issue 54: the timers found over a long window are all of them, however many (before, a
/// catch-up stopped at 1,000), and the game brought up to date by the sweep (`catch_up`)
/// writes every one into its log, numbered in order, then goes on.
#[test]
fn a_catch_up_of_thousands_of_default_plays_is_whole() {
    let mut t = T::new("/party new umpire:@uma swingers:@ann @ben seed:3 turn_limit:1m stall:off");
    t.ok("ann", "/party pieces set:RRCJP");
    t.ok("ben", "/party pieces set:RRCJP");
    let start = t.now;
    let game = t.game();
    let due = game.expiries(start, start + DAY);
    assert_eq!(due.len(), 1440);
    let mut caught = game.clone();
    caught.catch_up(start + DAY);
    assert_eq!(caught.log.len(), game.log.len() + 1440);
    assert_eq!(caught.next_number(), game.next_number() + 1440);
    // Each notice is the one the log numbers, in order.
    for (i, e) in due.iter().enumerate() {
        let n = game.next_number() as usize + i;
        assert!(e.text.starts_with(&format!("#{n} ")), "{}", e.text);
    }
    // Nothing more is due up to then, and the next turn runs out a minute later.
    assert!(caught.expiries(start, start + DAY).is_empty());
    let next = caught.expiries(start + DAY, start + DAY + 60);
    assert_eq!(next.len(), 1);
    assert!(next[0]
        .text
        .starts_with(&format!("#{} ", caught.next_number())));
}

/// Issue 39, defect 4 (RULINGS §0, §3.6, §3.7): a turn played by default carries its action
/// number and the Weights, like every accepted action, and the export numbers it alike.
#[test]
fn a_default_play_carries_its_number_and_the_weights() {
    let mut t = four("", "");
    let due = t.game().expiries(t.now, t.now + 3 * DAY + 5);
    assert_eq!(due.len(), 1);
    let notice = &due[0].text;
    assert!(
        notice.starts_with("#1 ann's turn expired: pass (the default play)."),
        "{notice}"
    );
    assert!(notice.contains("Weights: ann 1.0, "), "{notice}");
    assert!(notice.contains("ben to play."), "{notice}");
    t.now += 3 * DAY;
    let r = t.ok("ben", "/pass");
    assert!(r.starts_with("#2 "), "{r}");
    assert!(r.contains("#1 ann's turn expired: pass"), "{r}");
    let export = arbiter::games::party::export::export(&t.game());
    assert!(
        export.contains(" arbiter: (turn expired: pass)") && export.contains("\n#1 t="),
        "{export}"
    );
    assert!(export.contains("\n#2 t="), "{export}");
}

/// RULINGS §8: the Chess-Umpire ends the game with `/party end`, a numbered action that
/// records the final Weights as the result; a moderator's revert reopens it.
#[test]
fn the_umpire_ends_the_game_and_a_revert_reopens_it() {
    let mut t = four("c3=R1", "");
    t.ok("ann", "/move Rc3-c9");
    let e = t.no("ann", "/party end");
    assert!(e.contains("only the Chess-Umpire"), "{e}");
    let weights = t.game().weights_line();
    let r = t.ok("uma", "/party end");
    assert!(r.starts_with("#2 "), "{r}");
    assert!(r.contains(&format!("Result: {weights}")), "{r}");
    let g = t.game();
    assert!(g.ended());
    assert_eq!(g.to_play(), None);
    assert!(t.hub.game("t").is_some_and(|g| g.finished()));
    let e = t.no("ben", "/pass");
    assert!(e.contains("this game has ended"), "{e}");
    let s = t.ok("ann", "/status");
    assert!(
        s.contains(&format!("Ended by the Chess-Umpire. Result: {weights}")),
        "{s}"
    );
    let export = arbiter::games::party::export::export(&t.game());
    assert!(
        export.contains("#2 t=") && export.contains("/party end"),
        "{export}"
    );
    let back = arbiter::games::party::export::import(&export).expect("imports");
    assert!(back.ended());
    t.ok("mod", "/revert to:2 reason:not yet");
    assert!(!t.game().ended());
    t.ok("ben", "/pass");
}

/// Shared messages (issue 39): a refusal while the mover is in check says so first, with
/// the legal plays.
#[test]
fn a_refusal_in_check_says_so_first() {
    let mut t = four("a10=R2", "");
    let e = t.no("ann", "/move Ka1-a2");
    assert!(
        e.starts_with("your King on a1 is in check; legal moves: Ka1-b1 Ka1-b2"),
        "{e}"
    );
    let e = t.no("ann", "/pass");
    assert!(e.starts_with("your King on a1 is in check"), "{e}");
}

/// Shared messages (issue 39): short algebraic and upper-case squares are answered with the
/// long form; a piece letter in lower case is read as the piece.
#[test]
fn short_algebraic_upper_case_squares_and_lower_case_letters() {
    let mut t = four("c3=R1", "");
    let e = t.no("ann", "/move c9");
    assert_eq!(e, "write the move from-to: Rc3-c9");
    let e = t.no("ann", "/move Rc9");
    assert_eq!(e, "write the move from-to: Rc3-c9");
    let e = t.no("ann", "/move e7");
    assert_eq!(e, "write the move from-to, like e2-e4");
    let e = t.no("ann", "/move RC3-C9");
    assert_eq!(e, "square letters are lower case: Rc3-c9");
    let r = t.ok("ann", "/move rc3-c9");
    assert!(r.contains("ann: Rc3-c9"), "{r}");
}

/// Shared messages (issue 39): the Umpire's bookkeeping pings nobody; only a change of who
/// must act does.
#[test]
fn umpire_bookkeeping_pings_nobody() {
    let mut t = four("", "");
    for cmd in [
        "/party extend player:@ann until:5d",
        "/ledger add text:ann pays A$10",
        "/party create piece:R for:@ben",
    ] {
        t.now += 60;
        let r = t.run("uma", cmd);
        assert_eq!(r.ok, Some(true), "{cmd}: {}", r.text);
        let pinged = r.notify.map(|n| n.users()).unwrap_or_default();
        assert!(pinged.is_empty(), "{cmd} pinged {pinged:?}");
    }
    t.now += 60;
    let r = t.run("ann", "/pass");
    let pinged = r.notify.map(|n| n.users()).unwrap_or_default();
    assert_eq!(pinged, ["ben"]);
}

/// No `§` in any Party Chess reply.
#[test]
fn no_section_signs_in_replies() {
    let mut t = demon_box();
    for (user, cmd) in [
        ("ann", "/move P@b1 Dh8=H"),
        ("ann", "/move Rt1-t2 Dh8=K"),
        ("ann", "/move M@c5"),
        ("ann", "/move Zc5-c6"),
        ("ben", "/pass"),
        ("ann", "/pieces"),
        ("ann", "/status"),
        ("ann", "/help"),
    ] {
        let r = t.run(user, cmd);
        assert!(!r.text.contains('§'), "{cmd}: {}", r.text);
    }
}
