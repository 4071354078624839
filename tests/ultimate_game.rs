//! Ultimate Chess scenarios (RULINGS §4): every rule with the case it allows and the case it
//! refuses. Seats: ann Silver, ben Red, cat Black, dan Green. Players' actions go through the
//! command layer as typed (`/move e2-e5`, `/concede to:@ben`, `/offer draw`, `/revert` and its
//! button…), on the game in a thread of a hub; the assertions read the game it holds.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter::games::ultimate::{
    export, parse_square, shuffle_seats, Game, Kind, Mode, NewGame, Outcome, Refusal, Request,
    Seat, Seating, Stalemate,
};

use arbiter::commands::{parse_command, Caller, Hub, Reply, Roles};

const T0: u64 = 1_767_225_600;
const USERS: [&str; 4] = ["ann", "ben", "cat", "dan"];

/// A position text from `square=piece` pairs (`h1=K1 e8=W1`) and the fields after the
/// placement.
fn board(spec: &str, rest: &str) -> String {
    let mut rows = Vec::new();
    for r in (0..16).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for f in 0..16 {
            let cut = !(2..=13).contains(&f) && !(2..=13).contains(&r);
            let name = format!("{}{}", (b'a' + f as u8) as char, r + 1);
            let piece = spec
                .split_whitespace()
                .find_map(|t| t.strip_prefix(&format!("{name}=")));
            if cut || piece.is_some() {
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                match piece {
                    Some(p) => s.push_str(&format!("{{{p}}}")),
                    None => s.push('*'),
                }
            } else {
                empty += 1;
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        rows.push(s);
    }
    format!("{} {rest}", rows.join("/"))
}

fn named() -> Seating {
    Seating::Named(USERS.map(String::from))
}

fn new_game(mode: Mode) -> Game {
    Game::create(
        NewGame {
            mode: Some(mode),
            ..NewGame::new(named())
        },
        "org",
        T0,
    )
    .unwrap()
}

fn from(text: &str) -> Game {
    with(text, |_| {})
}

fn with(text: &str, f: impl FnOnce(&mut NewGame)) -> Game {
    let mut n = NewGame::new(named());
    n.position = Some(text.to_string());
    f(&mut n);
    Game::create(n, "org", T0).unwrap_or_else(|e| panic!("{e}"))
}

fn now(g: &Game) -> u64 {
    T0 + 60 * g.log.len() as u64
}

/// The command a player types for a request.
fn typed(r: &Request) -> String {
    let at = |u: &Option<String>| u.as_ref().map(|x| format!(" to:@{x}")).unwrap_or_default();
    match r {
        Request::Move(m) => format!("/move {m}"),
        Request::Concede { to } => format!("/concede{}", at(to)),
        Request::OrganiserConcede { player, to } => {
            format!("/ultimate concede player:@{player}{}", at(to))
        }
        Request::OfferDraw => "/offer draw".into(),
        Request::AcceptDraw => "/accept".into(),
        Request::DeclineDraw => "/decline".into(),
        Request::Takeback => "/takeback".into(),
        Request::Revert { to, reason } => format!("/revert to:{to} reason:{reason}"),
    }
}

/// A request typed by `user` at `t` through the command layer (a revert confirmed with its
/// button): the reply's text without its action number, or the refusal's.
fn via_layer(g: &mut Game, user: &str, r: &Request, t: u64) -> Result<String, String> {
    let mut hub = Hub::new();
    hub.insert_game("t", Box::new(g.clone()));
    let caller = Caller {
        user,
        roles: Roles {
            organiser: user == "org",
            moderator: matches!(r, Request::Revert { .. }),
        },
        thread: "t",
        now: t,
    };
    let text = typed(r);
    let cmd = parse_command(&text).expect("a command");
    let mut reply: Reply = hub.handle(&caller, 0, &cmd, &text);
    if let (Request::Revert { .. }, Some(true), Some(id)) =
        (r, reply.ok, reply.buttons.first().cloned())
    {
        reply = hub.press(user, &id, t);
    }
    // A concession asks once (issue 55): confirmed here.
    if let Some(id) = reply
        .buttons
        .iter()
        .find(|b| b.starts_with("ask-confirm"))
        .cloned()
    {
        reply = hub.press(user, &id, t);
    }
    *g = hub
        .game("t")
        .and_then(|x| x.downcast::<Game>())
        .cloned()
        .expect("the game stays in its thread");
    match reply.ok {
        Some(true) => Ok(match reply.text.strip_prefix('#') {
            Some(rest) => rest.split_once(' ').map_or(rest, |(_, t)| t).to_string(),
            None => reply.text,
        }),
        _ => Err(reply.text),
    }
}

fn act(g: &mut Game, user: &str, r: Request) -> String {
    let t = now(g);
    match via_layer(g, user, &r, t) {
        Ok(text) => text,
        Err(e) => panic!("{user} {r:?} refused: {e}\n{}", g.status_text()),
    }
}

fn play(g: &mut Game, user: &str, mv: &str) -> String {
    act(g, user, Request::Move(mv.into()))
}

/// Plays moves in turn: `[("ann", "e2-e5"), …]`.
fn plays(g: &mut Game, moves: &[(&str, &str)]) {
    for (u, m) in moves {
        play(g, u, m);
    }
}

/// A refused request: nothing about the game changes.
fn refused_req(g: &mut Game, user: &str, r: Request) -> String {
    let before = g.position().to_text();
    let log = g.log.len();
    let t = now(g);
    let e = match via_layer(g, user, &r, t) {
        Ok(text) => panic!("{user} {r:?} was accepted: {text}"),
        Err(e) => e,
    };
    assert_eq!(g.position().to_text(), before);
    assert_eq!(g.log.len(), log);
    e
}

fn refused(g: &mut Game, user: &str, mv: &str) -> String {
    refused_req(g, user, Request::Move(mv.into()))
}

fn at(g: &Game, sq: &str) -> Option<(Kind, Seat)> {
    g.position()
        .piece_at(parse_square(sq).unwrap())
        .map(|p| (p.kind, p.seat))
}

/// Four kings at home and nothing else of the others: Silver to move.
const KINGS: &str = "h1=K1 a8=K2 h16=K3 p8=K4";

// ----- pieces ---------------------------------------------------------------------------

#[test]
fn every_piece_moves_as_its_data_says() {
    let g = from(&board(
        &format!("{KINGS} e8=W1 e9=P1 k8=M1 k9=P1 e4=N1 k4=B1 g11=R1 j12=Q1"),
        "1 - - standard -",
    ));
    let ok = |m: &str| {
        let mut h = g.clone();
        play(&mut h, "ann", m);
    };
    let no = |m: &str| {
        let mut h = g.clone();
        refused(&mut h, "ann", m)
    };
    // Warrior: one orthogonally, two orthogonally or diagonally, jumping.
    for m in ["We8-d8", "We8-e10", "We8-g10", "We8-c6", "We8-e6", "We8-c8"] {
        ok(m);
    }
    for m in ["We8-f9", "We8-g9", "We8-e11", "We8-e9"] {
        no(m);
    }
    // Mage: one diagonally, or three and one, jumping.
    for m in ["Mk8-l9", "Mk8-n9", "Mk8-l11", "Mk8-j5", "Mk8-h7"] {
        ok(m);
    }
    for m in ["Mk8-k10", "Mk8-m10", "Mk8-l8", "Mk8-k11"] {
        no(m);
    }
    // The classic pieces.
    ok("Ne4-f6");
    no("Ne4-e6");
    ok("Bk4-n7");
    no("Bk4-k5");
    ok("Rg11-g14");
    no("Rg11-h12");
    ok("Qj12-j15");
    ok("Qj12-m15");
    no("Qj12-k14");
    ok("Kh1-g2");
    no("Kh1-h3");
    // A refusal says what the piece can do.
    let e = no("We8-f9");
    assert!(e.contains("can play") && e.contains("We8-g10"), "{e}");
    // Not a piece of the mover.
    let e = no("Kh16-h15");
    assert!(e.contains("Black"), "{e}");
}

#[test]
fn pawns_step_once_or_up_to_three_squares_from_their_second_row() {
    let mut g = new_game(Mode::Standard);
    // Each seat's pawns move its own way: Silver up, Red toward p, Black down, Green toward a.
    plays(
        &mut g,
        &[
            ("ann", "e2-e5"),
            ("ben", "b8-e8"),
            ("cat", "h15-h12"),
            ("dan", "o3-l3"),
        ],
    );
    assert_eq!(at(&g, "e5"), Some((Kind::Pawn, Seat::Silver)));
    assert_eq!(at(&g, "e8"), Some((Kind::Pawn, Seat::Red)));
    assert_eq!(at(&g, "h12"), Some((Kind::Pawn, Seat::Black)));
    assert_eq!(at(&g, "l3"), Some((Kind::Pawn, Seat::Green)));
    // Once moved, one square at a time.
    refused(&mut g, "ann", "e5-e7");
    refused(&mut g, "ann", "e5-e8");
    play(&mut g, "ann", "e5-e6");
    // Not four squares, not sideways or back.
    refused(&mut g, "ben", "b5-f5");
    refused(&mut g, "ben", "b5-b6");
    play(&mut g, "ben", "b5-d5");
}

#[test]
fn a_pawn_cannot_jump_and_there_is_no_en_passant() {
    let mut g = new_game(Mode::Standard);
    plays(
        &mut g,
        &[
            ("ann", "Nf1-e3"),
            ("ben", "b3-c3"),
            ("cat", "h15-h14"),
            ("dan", "o5-n5"),
        ],
    );
    // e2 is blocked by the knight on e3: no double or triple step over it.
    refused(&mut g, "ann", "e2-e4");
    refused(&mut g, "ann", "e2-e5");
    // d2 passes d3 and d4; Red's pawn on c3 (moving toward p) attacks d4 but may not take
    // the pawn in passing.
    play(&mut g, "ann", "d2-d5");
    let e = refused(&mut g, "ben", "c3xd4");
    assert!(e.contains("can play: c3-d3"), "{e}");
    play(&mut g, "ben", "c3-d3");
}

#[test]
fn pawns_promote_on_the_far_row_to_any_piece_but_the_king() {
    let text = board(
        &format!("{KINGS} c15=P1 b13=P1 o12=P2 d2=P3 b11=P4 e15=P1 e16=N3"),
        "1 - - standard -",
    );
    let mut g = from(&text);
    let e = refused(&mut g, "ann", "c15-c16");
    assert!(e.contains("must promote") && e.contains("c15-c16=M"), "{e}");
    refused(&mut g, "ann", "c15-c16=K");
    let e = refused(&mut g, "ann", "e15-e16=Q");
    assert!(e.contains("e15xd16") || e.contains("no legal move"), "{e}");
    play(&mut g, "ann", "c15-c16=M");
    assert_eq!(at(&g, "c16"), Some((Kind::Mage, Seat::Silver)));
    play(&mut g, "ben", "o12-p12=W");
    assert_eq!(at(&g, "p12"), Some((Kind::Warrior, Seat::Red)));
    play(&mut g, "cat", "d2-d1=B");
    assert_eq!(at(&g, "d1"), Some((Kind::Bishop, Seat::Black)));
    play(&mut g, "dan", "b11-a11=N");
    assert_eq!(at(&g, "a11"), Some((Kind::Knight, Seat::Green)));
    // The end of a short file is not the far row (promote_at_file_end is off by default).
    refused(&mut g, "ann", "b13-b14=Q");
    play(&mut g, "ann", "b13-b14");
    assert_eq!(at(&g, "b14"), Some((Kind::Pawn, Seat::Silver)));
    // With the setting on, it promotes there.
    let mut h = with(&text, |n| n.promote_at_file_end = true);
    play(&mut h, "ann", "c15-c16=Q");
    plays(
        &mut h,
        &[
            ("ben", "o12-p12=N"),
            ("cat", "d2-d1=N"),
            ("dan", "b11-a11=R"),
        ],
    );
    refused(&mut h, "ann", "b13-b14");
    play(&mut h, "ann", "b13-b14=W");
    assert_eq!(at(&h, "b14"), Some((Kind::Warrior, Seat::Silver)));
}

#[test]
fn a_pawn_at_the_end_of_a_short_file_still_captures_diagonally_forward() {
    let mut g = from(&board(
        &format!("{KINGS} b14=P1 c15=N3 a14=P1"),
        "1 - - standard -",
    ));
    refused(&mut g, "ann", "a14-a15");
    refused(&mut g, "ann", "b14-b15");
    play(&mut g, "ann", "b14xc15");
    assert_eq!(at(&g, "c15"), Some((Kind::Pawn, Seat::Silver)));
}

// ----- castling -------------------------------------------------------------------------

/// Kings and rooks at home, the squares between them empty, pawns in front (with `open7`,
/// none on b7 and o7).
fn castling_position(extra: &str, rights: &str, open7: bool) -> String {
    let mut spec = String::from(
        "h1=K1 e1=R1 l1=R1 a8=K2 a5=R2 a12=R2 h16=K3 e16=R3 l16=R3 p8=K4 p5=R4 p12=R4",
    );
    for f in 'c'..='n' {
        spec.push_str(&format!(" {f}2=P1 {f}15=P3"));
    }
    for r in (3..=14).filter(|&r| r != 7 || !open7) {
        spec.push_str(&format!(" b{r}=P2 o{r}=P4"));
    }
    spec.push(' ');
    spec.push_str(extra);
    board(&spec, &format!("1 {rights} - standard -"))
}

#[test]
fn every_seat_castles_both_ways_per_the_table() {
    let all = "1:KQ,2:KQ,3:KQ,4:KQ";
    let mut g = from(&castling_position("", all, false));
    plays(
        &mut g,
        &[
            ("ann", "0-0"),
            ("ben", "0-0"),
            ("cat", "0-0"),
            ("dan", "0-0"),
        ],
    );
    for (k, r, seat) in [
        ("f1", "g1", Seat::Silver),
        ("a6", "a7", Seat::Red),
        ("f16", "g16", Seat::Black),
        ("p6", "p7", Seat::Green),
    ] {
        assert_eq!(at(&g, k), Some((Kind::King, seat)), "{seat:?} King");
        assert_eq!(at(&g, r), Some((Kind::Rook, seat)), "{seat:?} rook");
    }
    assert!(g.position().to_text().contains(" 1:-,2:-,3:-,4:- "));
    let mut g = from(&castling_position("", all, false));
    plays(
        &mut g,
        &[
            ("ann", "0-0-0"),
            ("ben", "0-0-0"),
            ("cat", "O-O-O"),
            ("dan", "0-0-0"),
        ],
    );
    for (k, r, seat) in [
        ("j1", "i1", Seat::Silver),
        ("a10", "a9", Seat::Red),
        ("j16", "i16", Seat::Black),
        ("p10", "p9", Seat::Green),
    ] {
        assert_eq!(at(&g, k), Some((Kind::King, seat)), "{seat:?} King");
        assert_eq!(at(&g, r), Some((Kind::Rook, seat)), "{seat:?} rook");
    }
    // The King's two-square move is read as castling too.
    let mut g = from(&castling_position("", all, false));
    play(&mut g, "ann", "Kh1-f1");
    assert_eq!(at(&g, "g1"), Some((Kind::Rook, Seat::Silver)));
}

#[test]
fn castling_is_refused_through_or_onto_an_attacked_square_out_of_check_or_without_the_right() {
    // A Black rook on h7 sweeps rank 7 (Red's a7 and Green's p7); a Red knight on k3
    // attacks j1 (Silver's 0-0-0 landing square).
    let all = "1:KQ,2:KQ,3:KQ,4:KQ";
    let mut g = from(&castling_position("h7=R3 k3=N2", all, true));
    let e = refused(&mut g, "ann", "0-0-0");
    assert!(e.contains("not possible"), "{e}");
    play(&mut g, "ann", "0-0");
    let e = refused(&mut g, "ben", "0-0");
    assert!(e.contains("attacked"), "{e}");
    play(&mut g, "ben", "0-0-0");
    play(&mut g, "cat", "0-0");
    refused(&mut g, "dan", "0-0");
    play(&mut g, "dan", "0-0-0");
    // Out of check: a Green knight checks Silver's King.
    let mut g = from(&castling_position("g3=N4", all, false));
    let e = refused(&mut g, "ann", "0-0");
    assert!(
        g.in_check().contains(&Seat::Silver) && e.contains("not possible"),
        "{e}"
    );
    // The right is lost when the King moves, and is not given back when it returns.
    let mut g = from(&castling_position("", all, false));
    plays(
        &mut g,
        &[
            ("ann", "Kh1-g1"),
            ("ben", "b3-c3"),
            ("cat", "c15-c14"),
            ("dan", "o3-n3"),
            ("ann", "Kg1-h1"),
            ("ben", "c3-d3"),
            ("cat", "c14-c13"),
            ("dan", "n3-m3"),
        ],
    );
    let e = refused(&mut g, "ann", "0-0");
    assert!(e.contains("lost"), "{e}");
    assert!(g.position().to_text().contains(" 1:-,2:KQ,3:KQ,4:KQ "));
    // Lost when the rook is captured.
    let mut g = from(&castling_position("f3=N2", "1:KQ,2:KQ,3:KQ,4:KQ", false));
    play(&mut g, "ann", "c2-c3");
    play(&mut g, "ben", "Nf3xe1");
    assert!(g.position().to_text().contains(" 1:Q,2:KQ,3:KQ,4:KQ "));
}

// ----- check ----------------------------------------------------------------------------

#[test]
fn check_must_be_answered_and_no_move_may_leave_the_king_attacked() {
    // Red's King on f9 is checked by Black's queen on f14; Red's bishop on g8 is pinned by
    // Green's bishop on i6; Red's knight on d9 by Silver's rook on b9.
    let mut g = from(&board(
        "h1=K1 f9=K2 h16=K3 m6=K4 f14=Q3 e12=N2 c12=R2 g8=B2 i6=B4 d9=N2 b9=R1",
        "2 - - standard -",
    ));
    assert_eq!(g.in_check(), vec![Seat::Red]);
    assert!(g.status_text().contains("In check: Red (ben)"));
    refused(&mut g, "ben", "Kf9-f8");
    refused(&mut g, "ben", "Bg8-h7");
    refused(&mut g, "ben", "Nd9-c7");
    refused(&mut g, "ben", "Rc12-c13");
    let legal = g.legal_moves_for("ben", None).unwrap();
    assert_eq!(
        legal,
        ["Kf9-e10", "Kf9-e8", "Kf9-e9", "Kf9-g10", "Kf9-g9", "Ne12-f10", "Ne12xf14"]
    );
    play(&mut g, "ben", "Ne12xf14");
    assert!(g.in_check().is_empty());
}

#[test]
fn a_move_into_check_is_refused_and_a_check_is_echoed() {
    let mut g = from(&board(&format!("{KINGS} g10=R3 d4=Q1"), "1 - - standard -"));
    let e = refused(&mut g, "ann", "Kh1-g1");
    assert!(e.contains("Kh1-g2") || e.contains("can play"), "{e}");
    play(&mut g, "ann", "Kh1-i1");
    // Red gives Black check: echoed with +, Black shown in check.
    let mut g = from(&board(
        "h1=K1 a8=K2 h16=K3 p8=K4 c13=Q2",
        "2 - - standard -",
    ));
    let text = play(&mut g, "ben", "Qc13-f16");
    assert!(text.contains("Qc13-f16+"), "{text}");
    assert!(text.contains("Black (cat) to move (in check)"), "{text}");
    refused(&mut g, "cat", "Kh16-g16");
    refused(&mut g, "cat", "Kh16-g15");
    play(&mut g, "cat", "Kh16-h15");
}

#[test]
fn conquest_obstacles_give_no_check() {
    // Red is defeated; its queen stands on h5, on Silver's King's file, as an obstacle.
    let mut g = from(&board("h1=K1 a8=K2 h5=Q2 h16=K3 p8=K4", "1 - 2 conquest -"));
    assert!(g.in_check().is_empty());
    play(&mut g, "ann", "Kh1-h2");
    // Anyone may capture an obstacle, its King included, as an ordinary piece.
    play(&mut g, "cat", "Kh16-g15");
    play(&mut g, "dan", "Kp8-o8");
    play(&mut g, "ann", "Kh2-h3");
    play(&mut g, "cat", "Kg15-f14");
    play(&mut g, "dan", "Ko8-n8");
    play(&mut g, "ann", "Kh3-h4");
    play(&mut g, "cat", "Kf14-e13");
    play(&mut g, "dan", "Kn8-m8");
    play(&mut g, "ann", "Kh4xh5");
    assert_eq!(at(&g, "h5"), Some((Kind::King, Seat::Silver)));
    assert!(g.position().is_obstacle(parse_square("a8").unwrap()));
}

// ----- checkmate and the modes ------------------------------------------------------------

/// Red's King on a8 hemmed in by its own pieces; Silver's knight mates from c7. With
/// `black_knight`, Black's knight on c9 attacks a8 too.
fn mate_position(mode: Mode, black_knight: bool) -> String {
    let extra = if black_knight { " c9=N3" } else { "" };
    board(
        &format!(
            "h1=K1 e8=N1 a8=K2 a7=B2 a9=Q2 b7=P2 b8=N2 b9=P2 d4=P2 h16=K3 m12=R3 p8=K4{extra}"
        ),
        &format!(
            "1 - - {} -",
            match mode {
                Mode::Standard => "standard",
                Mode::Conquest => "conquest",
                Mode::Devastation => "devastation",
            }
        ),
    )
}

const RED_PIECES: [&str; 6] = ["a7", "a9", "b7", "b8", "b9", "d4"];

#[test]
fn checkmate_in_standard_removes_the_pieces() {
    let mut g = from(&mate_position(Mode::Standard, false));
    let text = play(&mut g, "ann", "Ne8-c7+");
    assert!(
        text.contains("Red (ben) is checkmated; Silver (ann) is the victor"),
        "{text}"
    );
    assert!(text.contains("pieces leave the board"), "{text}");
    assert!(g.position().is_defeated(Seat::Red));
    for sq in RED_PIECES.iter().chain(&["a8"]) {
        assert_eq!(at(&g, sq), None, "{sq}");
    }
    // Red is skipped: Black moves next; Red may no longer move.
    assert_eq!(g.to_move(), Some(Seat::Black));
    let e = refused(&mut g, "ben", "b9-c9");
    assert!(e.contains("out of the game"), "{e}");
    play(&mut g, "cat", "Rm12-m13");
    play(&mut g, "dan", "Kp8-o8");
    assert_eq!(g.to_move(), Some(Seat::Silver));
}

#[test]
fn checkmate_in_conquest_leaves_obstacles() {
    let mut g = from(&mate_position(Mode::Conquest, false));
    let text = play(&mut g, "ann", "Ne8-c7");
    assert!(text.contains("stay on the board as obstacles"), "{text}");
    for sq in RED_PIECES.iter().chain(&["a8"]) {
        let s = parse_square(sq).unwrap();
        assert!(g.position().is_obstacle(s), "{sq}");
    }
    // Obstacles never move; anyone may capture them.
    refused(&mut g, "cat", "d4-e4");
    play(&mut g, "cat", "Rm12-m4");
    play(&mut g, "dan", "Kp8-o8");
    play(&mut g, "ann", "Nc7xa8");
    assert_eq!(at(&g, "a8"), Some((Kind::Knight, Seat::Silver)));
    assert!(g.position().is_defeated(Seat::Red));
}

#[test]
fn checkmate_in_devastation_hands_the_pieces_to_the_first_attacker_after_the_mated_player() {
    // Black's knight attacks a8 as well: Black, first after Red in turn order, is the victor
    // (decision 3), though Silver made the mating move.
    let mut g = from(&mate_position(Mode::Devastation, true));
    let text = play(&mut g, "ann", "Ne8-c7");
    assert!(
        text.contains("Red (ben) is checkmated; Black (cat) is the victor"),
        "{text}"
    );
    assert!(
        text.contains("Black (cat) now plays Red's pieces"),
        "{text}"
    );
    assert_eq!(at(&g, "a8"), None);
    assert_eq!(g.position().controller(Seat::Red), Some(Seat::Black));
    assert!(g.position().to_text().ends_with(" 2 devastation 2>3"));
    // Black plays Red's pieces in Red's direction, one piece per turn.
    refused(&mut g, "cat", "d4-d3");
    play(&mut g, "cat", "d4-e4");
    refused(&mut g, "ann", "e4-f4");
    play(&mut g, "dan", "Kp8-o8");
    // Red's bishop on a7, played by Black, now sweeps the diagonal to g1.
    refused(&mut g, "ann", "Kh1-g1");
    play(&mut g, "ann", "Kh1-h2");
    play(&mut g, "cat", "Qa9-d12");
    // Taken-over pieces check for their controller: Red's queen now checks Silver.
    play(&mut g, "dan", "Ko8-n8");
    play(&mut g, "ann", "Kh2-h1");
    let text = play(&mut g, "cat", "Qd12-d1");
    assert!(text.contains("Qd12-d1+"), "{text}");
    assert_eq!(g.in_check(), vec![Seat::Silver]);
    // With only Silver attacking, Silver is the victor.
    let mut g = from(&mate_position(Mode::Devastation, false));
    play(&mut g, "ann", "Ne8-c7");
    assert_eq!(g.position().controller(Seat::Red), Some(Seat::Silver));
    assert_eq!(g.to_move(), Some(Seat::Black));
}

#[test]
fn checkmate_of_the_seat_to_move_is_judged_when_a_position_starts() {
    // Red to move, already mated.
    let g = from(&board(
        "h1=K1 c7=N1 a8=K2 a7=B2 a9=Q2 b7=P2 b8=N2 b9=P2 d4=P2 h16=K3 m12=R3 p8=K4",
        "2 - - standard -",
    ));
    assert!(g.position().is_defeated(Seat::Red));
    assert_eq!(g.to_move(), Some(Seat::Black));
    assert!(g
        .status_text()
        .contains("Red (ben), checkmated; victor Silver (ann)"));
}

#[test]
fn a_king_exposed_to_a_third_player_is_captured() {
    // Silver's bishop on f12 stands between Red's rook on d12 and Black's King on h12. Black's
    // rook on a14 checks Red's King.
    let text = board(
        "h1=K1 f12=B1 a8=K2 d12=R2 h12=K3 a14=R3 m14=N3 p8=K4",
        "1 - - standard -",
    );
    // Not exposed: Red cannot take.
    let mut g = from(&text);
    play(&mut g, "ann", "Kh1-g1");
    refused(&mut g, "ben", "Rd12xh12");
    // Exposed by Silver's move: Red, who moves before Black, takes the King. That Black's rook
    // checks Red's King does not matter: the capture is judged after Black's defeat (§4.8a).
    let mut g = from(&text);
    let t = play(&mut g, "ann", "Bf12-e11");
    assert!(t.contains("In check: Black (cat)."), "{t}");
    assert!(t.contains("Red (ben) to move (in check)"), "{t}");
    let t = play(&mut g, "ben", "Rd12xh12");
    assert!(
        t.contains("Red (ben) captures Black's King: Black (cat) is defeated"),
        "{t}"
    );
    assert!(g.position().is_defeated(Seat::Black));
    assert_eq!(at(&g, "a14"), None);
    assert_eq!(at(&g, "m14"), None);
    assert_eq!(g.to_move(), Some(Seat::Green));
    // In devastation the capturer takes the pieces over.
    let mut g = from(&text.replace("standard", "devastation"));
    play(&mut g, "ann", "Bf12-e11");
    play(&mut g, "ben", "Rd12xh12");
    assert_eq!(g.position().controller(Seat::Black), Some(Seat::Red));
    assert_eq!(at(&g, "a14"), Some((Kind::Rook, Seat::Black)));
}

#[test]
fn the_game_ends_when_three_are_defeated() {
    let mut g = from(&board("h1=K1 o3=R1 l10=Q1 p8=K4", "1 - 2,3 standard -"));
    let text = play(&mut g, "ann", "Ql10-p10+");
    assert!(text.contains("Green (dan) is checkmated"), "{text}");
    assert!(text.contains("Game over: Silver (ann) wins."), "{text}");
    assert_eq!(g.state().outcome, Some(Outcome::Win(Seat::Silver)));
    let e = refused(&mut g, "ann", "Kh1-g1");
    assert!(e.contains("the game is over"), "{e}");
    // Not mate: the game goes on.
    let mut g = from(&board("h1=K1 o3=R1 l10=Q1 p8=K4", "1 - 2,3 standard -"));
    play(&mut g, "ann", "Ql10-l11");
    assert!(!g.finished());
}

// ----- draws ------------------------------------------------------------------------------

/// Red's lone King on a3 has no move once Silver's rook reaches g4, and is not in check.
fn stalemate_position() -> String {
    board("h1=K1 b10=R1 g5=R1 a3=K2 h16=K3 p8=K4", "1 - - standard -")
}

#[test]
fn stalemate_draws_by_default() {
    let mut g = from(&stalemate_position());
    let text = play(&mut g, "ann", "Rg5-g4");
    assert!(
        text.contains("Game over: drawn (stalemate: Red (ben)"),
        "{text}"
    );
    assert!(matches!(
        g.state().outcome,
        Some(Outcome::Draw { ref among, .. }) if among.len() == 4
    ));
    // Not stalemate while Red has a move.
    let mut g = from(&stalemate_position());
    play(&mut g, "ann", "Rg5-g6");
    assert!(!g.finished());
}

#[test]
fn stalemate_pass_skips_the_player_until_they_have_a_move() {
    let mut g = with(&stalemate_position(), |n| n.stalemate = Stalemate::Pass);
    let text = play(&mut g, "ann", "Rg5-g4");
    assert!(text.contains("Red (ben) has no legal move"), "{text}");
    assert_eq!(g.to_move(), Some(Seat::Black));
    play(&mut g, "cat", "Kh16-i16");
    play(&mut g, "dan", "Kp8-o8");
    // Red is still stuck: passed again.
    play(&mut g, "ann", "Kh1-i1");
    assert_eq!(g.to_move(), Some(Seat::Black));
    play(&mut g, "cat", "Ki16-h16");
    play(&mut g, "dan", "Ko8-p8");
    // Freed: Red moves again.
    play(&mut g, "ann", "Rg4-g5");
    assert_eq!(g.to_move(), Some(Seat::Red));
    play(&mut g, "ben", "Ka3-a4");
}

#[test]
fn when_every_player_would_pass_the_game_is_drawn() {
    // Silver's King on a14 and Red's on n1 are walled in by their own pawns, which cannot
    // move at the ends of their files.
    let text = board(
        "a14=K1 a13=P1 b13=P1 b14=P1 n1=K2 m1=P2 m2=P2 n2=P2",
        "1 - 3,4 standard -",
    );
    let g = with(&text, |n| n.stalemate = Stalemate::Pass);
    assert!(
        matches!(
            g.state().outcome,
            Some(Outcome::Draw {
                reason: arbiter::games::ultimate::DrawReason::AllPass,
                ..
            })
        ),
        "{}",
        g.status_text()
    );
    let g = from(&text);
    assert!(matches!(
        g.state().outcome,
        Some(Outcome::Draw {
            reason: arbiter::games::ultimate::DrawReason::Stalemate(Seat::Silver),
            ..
        })
    ));
}

#[test]
fn insufficient_material_draws_only_without_obstacles() {
    let text = board("h1=K1 e5=B1 a8=K2 c3=N2", "1 - 3,4 standard -");
    let mut g = from(&text);
    let t = play(&mut g, "ann", "Be5xc3");
    assert!(t.contains("insufficient material"), "{t}");
    // With an obstacle on the board it is not automatic.
    let text = board("h1=K1 e5=B1 a8=K2 c3=N2 h16=K3", "1 - 3,4 conquest -");
    let mut g = from(&text);
    play(&mut g, "ann", "Be5xc3");
    assert!(!g.finished());
    // Two minor pieces: not automatic.
    let text = board("h1=K1 e5=B1 f5=N1 a8=K2 c3=N2", "1 - 3,4 standard -");
    let mut g = from(&text);
    play(&mut g, "ann", "Be5xc3");
    assert!(!g.finished());
}

#[test]
fn threefold_repetition_draws() {
    let mut g = new_game(Mode::Standard);
    let cycle = [
        ("ann", "Nf1-e3"),
        ("ben", "Na6-c5"),
        ("cat", "Nf16-e14"),
        ("dan", "Np6-n5"),
        ("ann", "Ne3-f1"),
        ("ben", "Nc5-a6"),
        ("cat", "Ne14-f16"),
        ("dan", "Nn5-p6"),
    ];
    plays(&mut g, &cycle);
    assert!(!g.finished(), "twice is not enough");
    plays(&mut g, &cycle[..7]);
    assert!(!g.finished());
    let t = play(&mut g, "dan", "Nn5-p6");
    assert!(t.contains("the same position a third time"), "{t}");
}

#[test]
fn fifty_moves_of_every_player_without_capture_or_pawn_move_draw() {
    // Silver walks a Warrior 26 steps along a snake path and back, so no position occurs a
    // third time; the others step their Kings to and fro.
    let mut path = Vec::new();
    for (i, r) in (4..=6).enumerate() {
        let files: Vec<char> = ('e'..='m').collect();
        let files: Vec<char> = if i % 2 == 0 {
            files
        } else {
            files.into_iter().rev().collect()
        };
        path.extend(files.into_iter().map(|f| format!("{f}{r}")));
    }
    assert_eq!(path.len(), 27);
    let mut g = from(&board(
        &format!("{KINGS} {}=W1", path[0]),
        "1 - - standard -",
    ));
    let shuffles = [
        ("ben", "Ka8-a9", "Ka9-a8"),
        ("cat", "Kh16-h15", "Kh15-h16"),
        ("dan", "Kp8-p9", "Kp9-p8"),
    ];
    let mut at_step = 0usize;
    for turn in 0..50 {
        let next = if turn < 26 { turn + 1 } else { 52 - turn - 1 };
        assert!(
            !g.finished(),
            "drawn early at turn {turn}: {}",
            g.status_text()
        );
        play(&mut g, "ann", &format!("W{}-{}", path[at_step], path[next]));
        at_step = next;
        for (user, out, back) in shuffles {
            assert!(
                !g.finished(),
                "drawn early at turn {turn}: {}",
                g.status_text()
            );
            play(
                &mut g,
                user,
                if turn.is_multiple_of(2) { out } else { back },
            );
        }
    }
    assert!(
        matches!(
            g.state().outcome,
            Some(Outcome::Draw {
                reason: arbiter::games::ultimate::DrawReason::FiftyMoves,
                ..
            })
        ),
        "{}",
        g.status_text()
    );
}

#[test]
fn a_draw_is_agreed_by_all_players_in_the_game() {
    let mut g = new_game(Mode::Standard);
    let a = g
        .apply("ben", Request::OfferDraw, T0, "/offer draw")
        .unwrap();
    assert_eq!(a.notify, ["ann", "cat", "dan"]);
    let e = refused_req(&mut g, "cat", Request::OfferDraw);
    assert!(e.contains("offered a draw already"), "{e}");
    let a = g.apply("cat", Request::AcceptDraw, T0, "/accept").unwrap();
    assert_eq!(a.notify, ["ann", "dan"]);
    assert!(g
        .status_text()
        .contains("Draw offer by Red (ben); waiting for Silver (ann), Green (dan)"));
    refused_req(&mut g, "cat", Request::AcceptDraw);
    act(&mut g, "dan", Request::DeclineDraw);
    assert!(g.state().draw_offer.is_none());
    refused_req(&mut g, "ann", Request::AcceptDraw);
    // The offer stands while others move, and lapses when its offerer moves.
    act(&mut g, "ben", Request::OfferDraw);
    play(&mut g, "ann", "e2-e4");
    assert!(g.state().draw_offer.is_some());
    let t = play(&mut g, "ben", "b8-c8");
    assert!(t.contains("draw offer lapses"), "{t}");
    assert!(g.state().draw_offer.is_none());
    // All four accept: drawn.
    act(&mut g, "cat", Request::OfferDraw);
    act(&mut g, "ann", Request::AcceptDraw);
    act(&mut g, "ben", Request::AcceptDraw);
    assert!(!g.finished());
    let t = act(&mut g, "dan", Request::AcceptDraw);
    assert!(t.contains("drawn (agreed)"), "{t}");
    // Not seated: refused.
    let e = refused_req(&mut g, "zed", Request::OfferDraw);
    assert!(
        e.contains("game is over") || e.contains("not seated"),
        "{e}"
    );
}

// ----- concession, overrun ---------------------------------------------------------------

#[test]
fn a_concession_by_the_player_to_move_passes_the_turn_by_another_leaves_it() {
    let mut g = new_game(Mode::Standard);
    let t = act(&mut g, "cat", Request::Concede { to: None });
    assert!(t.contains("Black (cat) concedes"), "{t}");
    assert!(t.contains("pieces leave the board"), "{t}");
    assert_eq!(at(&g, "h16"), None);
    assert_eq!(g.to_move(), Some(Seat::Silver));
    act(&mut g, "ann", Request::Concede { to: None });
    assert_eq!(g.to_move(), Some(Seat::Red));
    let e = refused_req(&mut g, "ann", Request::Concede { to: None });
    assert!(e.contains("out of the game"), "{e}");
    let t = act(&mut g, "dan", Request::Concede { to: None });
    assert!(t.contains("Game over: Red (ben) wins."), "{t}");
}

#[test]
fn a_concession_to_a_named_player_gives_them_the_pieces_in_devastation() {
    let mut g = new_game(Mode::Devastation);
    let e = refused_req(
        &mut g,
        "cat",
        Request::Concede {
            to: Some("cat".into()),
        },
    );
    assert!(e.contains("yourself"), "{e}");
    refused_req(
        &mut g,
        "cat",
        Request::Concede {
            to: Some("zed".into()),
        },
    );
    act(
        &mut g,
        "cat",
        Request::Concede {
            to: Some("@dan".into()),
        },
    );
    assert_eq!(g.position().controller(Seat::Black), Some(Seat::Green));
    assert_eq!(at(&g, "h16"), None);
    assert_eq!(at(&g, "c15"), Some((Kind::Pawn, Seat::Black)));
    // Green passes everything it controls to its own victor.
    act(
        &mut g,
        "dan",
        Request::Concede {
            to: Some("ben".into()),
        },
    );
    assert_eq!(g.position().controller(Seat::Black), Some(Seat::Red));
    assert_eq!(g.position().controller(Seat::Green), Some(Seat::Red));
    assert!(g.position().to_text().ends_with(" 3,4 devastation 3>2,4>2"));
    // Unnamed: the pieces leave, as in standard.
    let mut g = new_game(Mode::Devastation);
    act(&mut g, "cat", Request::Concede { to: None });
    assert_eq!(at(&g, "c15"), None);
}

#[test]
fn the_organiser_may_concede_for_a_player_after_a_move_limit_overrun() {
    let mut g = Game::create(
        NewGame {
            move_limit: Some(3600),
            ..NewGame::new(named())
        },
        "org",
        T0,
    )
    .unwrap();
    assert_eq!(g.due(), Some((Seat::Silver, T0 + 3600)));
    assert_eq!(g.overruns(T0, T0 + 3599), vec![]);
    assert_eq!(g.overruns(T0, T0 + 3600), vec![(Seat::Silver, T0 + 3600)]);
    assert!(g.overrun_text(Seat::Silver).contains("ann"));
    let req = |p: &str| Request::OrganiserConcede {
        player: p.into(),
        to: None,
    };
    let e = g
        .apply("org", req("ann"), T0 + 100, "")
        .unwrap_err()
        .to_string();
    assert!(e.contains("not overrun yet"), "{e}");
    let e = g
        .apply("org", req("ben"), T0 + 4000, "")
        .unwrap_err()
        .to_string();
    assert!(e.contains("not to move"), "{e}");
    let a = g.apply("org", req("ann"), T0 + 4000, "").unwrap();
    assert!(
        a.text.contains("The organiser concedes for Silver (ann)"),
        "{}",
        a.text
    );
    assert_eq!(g.to_move(), Some(Seat::Red));
    assert_eq!(g.due(), Some((Seat::Red, T0 + 4000 + 3600)));
    // Without a move limit there is no overrun.
    let mut g = new_game(Mode::Standard);
    let e = g
        .apply("org", req("ann"), T0 + 99_999, "")
        .unwrap_err()
        .to_string();
    assert!(e.contains("no move limit"), "{e}");
    assert_eq!(g.due(), None);
}

// ----- takeback, revert -------------------------------------------------------------------

#[test]
fn a_player_takes_back_their_own_last_action_only_while_it_is_last() {
    let mut g = new_game(Mode::Standard);
    play(&mut g, "ann", "e2-e5");
    let start = Game::create(
        NewGame {
            mode: Some(Mode::Standard),
            ..NewGame::new(named())
        },
        "org",
        T0,
    )
    .unwrap();
    let e = refused_req(&mut g, "ben", Request::Takeback);
    assert!(e.contains("#1 by ann"), "{e}");
    let t = act(&mut g, "ann", Request::Takeback);
    assert!(t.contains("ann takes back #1"), "{t}");
    assert_eq!(g.position(), start.position());
    assert_eq!(g.to_move(), Some(Seat::Silver));
    play(&mut g, "ann", "e2-e4");
    play(&mut g, "ben", "b8-c8");
    let e = refused_req(&mut g, "ann", Request::Takeback);
    assert!(e.contains("by ben"), "{e}");
}

#[test]
fn a_moderator_reverts_to_before_an_action() {
    let mut g = new_game(Mode::Standard);
    plays(
        &mut g,
        &[("ann", "e2-e5"), ("ben", "b8-e8"), ("cat", "h15-h12")],
    );
    let preview = g.revert_preview(2).unwrap();
    assert_eq!(preview.len(), 2);
    assert!(preview[0].starts_with("#2 ben"), "{preview:?}");
    assert!(g.revert_preview(9).is_err());
    let t = act(
        &mut g,
        "mod",
        Request::Revert {
            to: 2,
            reason: "disputed".into(),
        },
    );
    assert!(
        t.contains("reverted the game to before #2 (disputed)"),
        "{t}"
    );
    assert_eq!(g.to_move(), Some(Seat::Red));
    assert_eq!(at(&g, "e5"), Some((Kind::Pawn, Seat::Silver)));
    assert_eq!(at(&g, "e8"), None);
    assert_eq!(at(&g, "b8"), Some((Kind::Pawn, Seat::Red)));
    assert!(g.log.iter().filter(|e| e.reverted.is_some()).count() == 2);
    // Numbers go on.
    assert_eq!(g.next_number(), 5);
}

// ----- creation, texts --------------------------------------------------------------------

#[test]
fn players_are_seated_by_the_seed() {
    let list: Vec<String> = USERS.iter().map(|s| s.to_string()).collect();
    let a = shuffle_seats(&list, 42);
    assert_eq!(a, shuffle_seats(&list, 42));
    let mut sorted = a.clone();
    sorted.sort();
    assert_eq!(sorted, list);
    let distinct: std::collections::BTreeSet<Vec<String>> =
        (0..20).map(|s| shuffle_seats(&list, s)).collect();
    assert!(distinct.len() > 5);
    let g = Game::create(
        NewGame {
            seed: 42,
            ..NewGame::new(Seating::Players(list.clone()))
        },
        "org",
        T0,
    )
    .unwrap();
    assert_eq!(g.users, a);
    // A game from a position keeps the players' order.
    let g = Game::create(
        NewGame {
            seed: 42,
            position: Some(g.position().to_text()),
            ..NewGame::new(Seating::Players(list.clone()))
        },
        "org",
        T0,
    )
    .unwrap();
    assert_eq!(g.users, list);
    let e = Game::create(
        NewGame {
            seed: 1 << 53,
            ..NewGame::new(named())
        },
        "org",
        T0,
    )
    .unwrap_err();
    assert!(e.to_string().contains("seed"));
    let e = Game::create(
        NewGame::new(Seating::Players(vec!["a".into(), "b".into(), "c".into()])),
        "org",
        T0,
    )
    .unwrap_err();
    assert!(e.to_string().contains("four players"));
}

#[test]
fn a_position_that_does_not_read_is_refused_with_its_field() {
    let good = board(KINGS, "1 - - standard -");
    let cases = [
        (good.replacen("{K1}", "{X1}", 1), "placement"),
        (good.replace("{K1}", ""), "placement"),
        (board(KINGS, "5 - - standard -"), "seat to move"),
        (board(KINGS, "2 - 2 conquest -"), "seat to move"),
        (board(KINGS, "1 1:KQ - standard -"), "castling"),
        (board(KINGS, "1 9:K - standard -"), "castling"),
        (board(KINGS, "1 - 7 standard -"), "defeated"),
        (board(KINGS, "1 - - classic -"), "mode"),
        (board(KINGS, "1 - - standard 3>1"), "controllers"),
        (
            board("h1=K1 a8=K2 p8=K4 c15=P3", "1 - 3 devastation -"),
            "controllers",
        ),
        (board(KINGS, "1 - -"), "mode"),
    ];
    for (text, field) in cases {
        let mut n = NewGame::new(named());
        n.position = Some(text.clone());
        let e = Game::create(n, "org", T0).unwrap_err();
        assert!(matches!(e, Refusal::Position(_)), "{e}");
        assert!(
            e.to_string().contains(&format!("{field}:")),
            "{field}: {e} ({text})"
        );
    }
    // A mode: that differs from the position's is refused.
    let mut n = NewGame::new(named());
    n.position = Some(good.clone());
    n.mode = Some(Mode::Conquest);
    let e = Game::create(n, "org", T0).unwrap_err();
    assert!(e.to_string().contains("mode:"), "{e}");
    // The position's mode is the game's.
    let g = from(&board(KINGS, "1 - - conquest -"));
    assert_eq!(g.settings.mode, Mode::Conquest);
}

#[test]
fn status_state_lines_and_moves_by_square() {
    let mut g = new_game(Mode::Standard);
    play(&mut g, "ann", "e2-e5");
    let lines = g.state_lines();
    assert!(lines[0].starts_with("board 1: **{M3}"), "{}", lines[0]);
    let text = lines[1].strip_prefix("position: ").unwrap();
    let p = arbiter::games::ultimate::Position::from_text(text).unwrap();
    assert_eq!(&p, g.position());
    assert!(
        text.ends_with(" 2 1:KQ,2:KQ,3:KQ,4:KQ - standard -"),
        "{text}"
    );
    assert!(g.status_text().contains("To move: Red (ben)"));
    assert_eq!(
        g.legal_moves_for("ben", Some("b8")).unwrap(),
        ["b8-c8", "b8-d8", "b8-e8"]
    );
    let e = g.legal_moves_for("ann", None).unwrap_err().to_string();
    assert!(e.contains("Red (ben)'s turn"), "{e}");
    assert!(g.legal_moves_for("ben", Some("z9")).is_err());
}

#[test]
fn the_export_reads_back_into_the_same_game() {
    let mut g = new_game(Mode::Conquest);
    plays(&mut g, &[("ann", "e2-e5"), ("ben", "b8-e8")]);
    act(&mut g, "ben", Request::Takeback);
    play(&mut g, "ben", "b8-d8");
    act(
        &mut g,
        "cat",
        Request::Concede {
            to: Some("dan".into()),
        },
    );
    let text = export::export(&g);
    assert!(export::is_export(&text));
    assert!(text.contains("[Mode \"conquest\"]"));
    assert!(text.contains("{reverted by ben: takeback}"));
    let h = export::import(&text).unwrap();
    assert_eq!(h.log, g.log);
    assert_eq!(h.users, g.users);
    assert_eq!(h.position(), g.position());
    assert_eq!(h.state_lines(), g.state_lines());
}

// ----- issue 39: the messages every game shares -------------------------------------------

/// A command typed by `user` through the command layer: the whole reply.
fn typed_reply(g: &mut Game, user: &str, text: &str) -> Reply {
    let mut hub = Hub::new();
    hub.insert_game("t", Box::new(g.clone()));
    let caller = Caller {
        user,
        roles: Roles {
            organiser: user == "org",
            moderator: false,
        },
        thread: "t",
        now: now(g),
    };
    let cmd = parse_command(text).expect("a command");
    let reply = hub.handle(&caller, 0, &cmd, text);
    *g = hub
        .game("t")
        .and_then(|x| x.downcast::<Game>())
        .cloned()
        .expect("the game stays in its thread");
    reply
}

#[test]
fn moves_for_a_square_say_what_is_wrong_with_it() {
    let mut g = new_game(Mode::Standard);
    // Not squares of this board: the cut corner, nonsense, a file beyond p.
    for sq in ["a1", "zz", "q3", "p16"] {
        let r = typed_reply(&mut g, "ann", &format!("/moves square:{sq}"));
        assert_eq!(r.ok, Some(false), "{sq}: {}", r.text);
        assert_eq!(r.text, format!("{sq} is not a square of this board"));
    }
    // An empty square no move reaches; one a move reaches lists that move.
    let r = typed_reply(&mut g, "ann", "/moves square:h8");
    assert_eq!(
        (r.ok, r.text.as_str()),
        (Some(false), "nothing stands on h8")
    );
    let r = typed_reply(&mut g, "ann", "/moves square:e4");
    assert_eq!((r.ok, r.text.as_str()), (Some(true), "e2-e4"));
    // Another seat's piece, and the caller's own piece with no move.
    let r = typed_reply(&mut g, "ann", "/moves square:h16");
    assert_eq!(
        (r.ok, r.text.as_str()),
        (Some(false), "h16 holds Black's King; you play Silver")
    );
    let r = typed_reply(&mut g, "ann", "/moves square:h1");
    assert_eq!(
        (r.ok, r.text.as_str()),
        (Some(true), "the King on h1 has no legal moves now")
    );
    // A square with moves, and the whole list.
    let r = typed_reply(&mut g, "ann", "/moves square:f1");
    assert_eq!(r.text, "Nf1-e3 Nf1-g3");
    let r = typed_reply(&mut g, "ann", "/moves");
    assert!(!r.text.contains("no legal moves"), "{}", r.text);
}

#[test]
fn a_move_refused_in_check_says_so_first() {
    // Black's rook on h10 checks Silver's King on h1.
    let mut g = from(&board(&format!("{KINGS} h10=R3 c2=P1"), "1 - - standard -"));
    let e = refused(&mut g, "ann", "c2-c3");
    assert!(
        e.starts_with("your King on h1 is in check; legal moves: Kh1-g1 Kh1-g2 Kh1-i1 Kh1-i2\n"),
        "{e}"
    );
    // The reason follows the check line.
    assert!(e.lines().count() >= 2, "{e}");
    let e = refused(&mut g, "ann", "e4");
    assert!(e.starts_with("your King on h1 is in check"), "{e}");
}

#[test]
fn short_algebraic_and_upper_case_squares_get_the_long_form() {
    let mut g = new_game(Mode::Standard);
    assert_eq!(
        refused(&mut g, "ann", "e4"),
        "write the move from-to: e2-e4"
    );
    assert_eq!(
        refused(&mut g, "ann", "Ng3"),
        "write the move from-to: Nf1-g3"
    );
    assert_eq!(
        refused(&mut g, "ann", "E2-E4"),
        "square letters are lower case: e2-e4"
    );
    // Nothing can reach h8: the form to use.
    assert_eq!(
        refused(&mut g, "ann", "h8"),
        "write the move from-to, like e2-e4"
    );
    // Piece letters in lower case are read as the piece.
    let text = play(&mut g, "ann", "nf1-g3");
    assert!(text.contains("Nf1-g3"), "{text}");
    let text = play(&mut g, "ben", "wa4-c4");
    assert!(text.contains("Wa4-c4"), "{text}");
}

#[test]
fn the_end_of_a_game_notifies_its_players_once_naming_the_result() {
    // Silver mates Green, the last player left: one message to the three others.
    let mut g = from(&board("h1=K1 o3=R1 l10=Q1 p8=K4", "1 - 2,3 standard -"));
    let r = typed_reply(&mut g, "ann", "/move Ql10-p10");
    assert_eq!(r.ok, Some(true), "{}", r.text);
    let n = r.notify.expect("the players are told");
    assert_eq!(n.users(), ["ben", "cat", "dan"].map(String::from));
    assert_eq!(
        n.text(),
        "@ben @cat @dan: the game is over: Silver (ann) wins"
    );
    // After an organiser's concession for a player who overran: the result, to all four.
    let mut g = with(
        &board("h1=K1 e2=P1 p8=K4 o6=P4", "1 - 2,3 standard -"),
        |n| n.move_limit = Some(60),
    );
    let r = typed_reply(&mut g, "org", "/ultimate concede player:@ann");
    assert_eq!(r.ok, Some(true), "{}", r.text);
    let n = r.notify.expect("the players are told");
    assert_eq!(n.users(), USERS.map(String::from));
    assert!(
        n.text().ends_with(": the game is over: Green (dan) wins"),
        "{}",
        n.text()
    );
}

#[test]
fn a_draw_answer_by_another_player_does_not_ping_the_player_on_turn_again() {
    let mut g = new_game(Mode::Standard);
    // Red offers a draw: everyone else is asked, ann (on turn) included.
    let r = typed_reply(&mut g, "ben", "/offer draw");
    let asked = r.notify.expect("asked").users();
    assert!(asked.contains(&"ann".to_string()), "{asked:?}");
    // Black declines: the offer is gone, ann is still on turn and is not pinged again.
    let r = typed_reply(&mut g, "cat", "/decline");
    assert_eq!(r.ok, Some(true), "{}", r.text);
    assert!(
        r.notify
            .as_ref()
            .is_none_or(|n| !n.users().contains(&"ann".to_string())),
        "{:?}",
        r.notify
    );
}
