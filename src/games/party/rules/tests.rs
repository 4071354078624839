//! Tests of the pieces' rules, check, placements and legal plays; `pos` builds a position from
//! `square=piece` pairs for other modules' tests too.

use super::*;

/// A position from `square=piece` pairs (`c3=K1 e5=H2:3`), seats 1..=n in order.
pub(crate) fn pos(spec: &str, seats: u8) -> Position {
    let mut p = Position::empty((1..=seats).collect());
    for t in spec.split_whitespace() {
        let (sq, piece) = t.split_once('=').expect("square=piece");
        let sq = Sq::parse(sq).expect("square");
        let mut chars = piece.chars();
        let kind = Kind::from_letter(chars.next().expect("letter")).expect("kind");
        let rest: String = chars.collect();
        let (seat, hn) = match rest.split_once(':') {
            Some((s, h)) => (s.parse().expect("seat"), h.parse().expect("hn")),
            None => (rest.parse().expect("seat"), 1),
        };
        let mut pc = Piece::new(kind, seat);
        if kind == Kind::HarfyBlob {
            pc.hn = hn;
        }
        p.set(sq, Some(pc));
    }
    p
}

fn sq(n: &str) -> Sq {
    Sq::parse(n).expect("square")
}

/// The destinations of the piece on `from`: `-e5` for moves, `xe5` for captures
/// (stand-off `*e5`, scratch `#a1`), sorted.
fn dests(p: &Position, from: &str) -> Vec<String> {
    let mut v: Vec<String> = piece_moves(p, sq(from), Mode::Attack, true)
        .into_iter()
        .map(|m| {
            let mut s = String::new();
            for c in &m.chain {
                s.push_str(&format!("x{}", c.name()));
            }
            let sep = if m.scratch {
                "#"
            } else if m.standoff {
                "*"
            } else if m.capture {
                "x"
            } else {
                "-"
            };
            format!("{s}{sep}{}", m.to.name())
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

fn has(p: &Position, from: &str, d: &str) -> bool {
    dests(p, from).iter().any(|x| x == d)
}

#[test]
fn king_one_square_and_corner() {
    let p = pos("a1=K1 b2=R1 a2=P2", 2);
    assert_eq!(dests(&p, "a1"), ["-b1", "xa2"]);
}

#[test]
fn rook_slides_up_to_ten_blocked_and_captures() {
    let p = pos("a1=R1 a5=P1 c1=P2", 2);
    let d = dests(&p, "a1");
    assert_eq!(d, ["-a2", "-a3", "-a4", "-b1", "xc1"]);
    let p = pos("a1=R1", 2);
    assert!(has(&p, "a1", "-a11"));
    assert!(!has(&p, "a1", "-a12"));
    assert!(has(&p, "a1", "-k1"));
    assert!(!has(&p, "a1", "-l1"));
}

#[test]
fn bishop_diagonal_up_to_ten() {
    let p = pos("a1=B1 d4=P2", 2);
    assert_eq!(dests(&p, "a1"), ["-b2", "-c3", "xd4"]);
    let p = pos("a1=B1", 2);
    assert!(has(&p, "a1", "-k11") && !has(&p, "a1", "-l12"));
}

#[test]
fn camel_jumps_three_one() {
    let p = pos("e5=C1 e6=P1 e4=P1 f5=P1 d5=P1 f8=P2 h6=P1", 2);
    let d = dests(&p, "e5");
    assert!(d.contains(&"xf8".to_string()));
    assert!(!d.contains(&"-h6".to_string()) && !d.contains(&"xh6".to_string()));
    assert_eq!(d.len(), 7);
    let p = pos("a1=C1", 2);
    assert_eq!(dests(&p, "a1"), ["-b4", "-d2"]);
}

#[test]
fn jester_two_any_way_jumping() {
    let p = pos("e5=J1 e6=P2 f6=P2 e7=P2", 2);
    let d = dests(&p, "e5");
    assert!(d.contains(&"xe7".to_string()));
    assert!(d.contains(&"-g7".to_string()));
    assert!(!d.contains(&"xe6".to_string()));
    assert_eq!(d.len(), 8);
}

#[test]
fn harfy_range_and_growth() {
    let p = pos("e5=H1:2 e8=P2", 2);
    let d = dests(&p, "e5");
    assert!(d.contains(&"-e7".to_string()) && !d.contains(&"xe8".to_string()));
    assert_eq!(d.len(), 16);
    let p = pos("e5=H1:3 e8=H2:4 a1=K1", 2);
    assert!(has(&p, "e5", "xe8"));
    let mut after = p.clone();
    let m = piece_moves(&p, sq("e5"), Mode::Attack, true)
        .into_iter()
        .find(|m| m.to == sq("e8"))
        .expect("capture");
    apply(&mut after, 1, &Play::Move(m));
    assert_eq!(after.at(sq("e8")).map(|p| p.hn), Some(7));
    assert_eq!(after.hand(1)[0].hn, 4, "the victim keeps its range");
    let p = pos("e5=H1:1 e6=P2", 2);
    let m = piece_moves(&p, sq("e5"), Mode::Attack, true)
        .into_iter()
        .find(|m| m.capture)
        .expect("capture");
    let mut after = p.clone();
    apply(&mut after, 1, &Play::Move(m));
    assert_eq!(after.at(sq("e6")).map(|p| p.hn), Some(2));
}

#[test]
fn pawn_steps_doubles_when_defending_and_captures_diagonally() {
    let p = pos("e5=P1 f6=P2", 2);
    assert_eq!(dests(&p, "e5"), ["-d5", "-e4", "-e6", "-f5", "xf6"]);
    // Defending a friend (d4): two squares, lame.
    let p = pos("e5=P1 d4=R1 e6=P2", 2);
    let d = dests(&p, "e5");
    assert!(d.contains(&"-e3".to_string()) && d.contains(&"-g5".to_string()));
    assert!(!d.contains(&"-e7".to_string()), "lame: e6 blocks");
    assert!(!d.contains(&"xe6".to_string()), "no straight capture");
}

#[test]
fn pawn_promotes_on_the_four_squares() {
    let p = pos("j9=P1 a1=K1", 2);
    let moves = seat_moves(&p, 1);
    let promos: Vec<Kind> = moves
        .iter()
        .filter(|m| m.to == sq("j10"))
        .filter_map(|m| m.promo)
        .collect();
    assert!(!promos.contains(&Kind::King) && !promos.contains(&Kind::Pawn));
    assert!(promos.contains(&Kind::Tornado) && promos.contains(&Kind::Demon));
    assert!(moves.iter().all(|m| m.to != sq("j10") || m.promo.is_some()));
}

#[test]
fn copycat_moves_three_or_five_and_captures_by_the_victims_rule() {
    let p = pos("e5=O1", 2);
    let d = dests(&p, "e5");
    assert!(d.contains(&"-e8".to_string()) && d.contains(&"-e10".to_string()));
    assert!(!d.contains(&"-e6".to_string()) && !d.contains(&"-e9".to_string()));
    // A rook 4 away is taken by the rook's rule; a bishop 4 away orthogonally is not.
    let p = pos("e5=O1 e9=R2 i5=B2", 2);
    assert!(has(&p, "e5", "xe9"));
    assert!(!has(&p, "e5", "xi5"));
    // A pawn by one diagonal step only.
    let p = pos("e5=O1 f6=P2 e6=P2", 2);
    assert!(has(&p, "e5", "xf6") && !has(&p, "e5", "xe6"));
    // A CopyCat by the 3/5 move only.
    let p = pos("e5=O1 e8=O2 e6=O2", 2);
    assert!(!has(&p, "e5", "xe6"));
    let p = pos("e5=O1 e8=O2", 2);
    assert!(has(&p, "e5", "xe8"));
    // An Archer: standing off.
    let p = pos("e5=O1 e8=A2", 2);
    assert!(has(&p, "e5", "*e8"));
    // A HarfyBlob by its range.
    let p = pos("e5=O1 e8=H2:3 h5=H2:2", 2);
    assert!(has(&p, "e5", "xe8") && !has(&p, "e5", "xh5"));
    // A Demon by the zone test on the CopyCat's own square (e5 is outside).
    let p = pos("e5=O1 e7=D2 f6=D2", 2);
    assert!(has(&p, "e5", "xe7") && !has(&p, "e5", "xf6"));
    // A Tornado by one segment of two.
    let p = pos("e5=O1 e7=T2", 2);
    assert!(has(&p, "e5", "xe7"));
    // An Echo by its current movement; none with no source.
    let mut p = pos("e5=O1 e9=E2", 2);
    assert!(!has(&p, "e5", "xe9"));
    p.echo.insert(2, Some(Src::of(Kind::Rook, 0)));
    assert!(has(&p, "e5", "xe9"));
    // Kamikaze, Qball, Bouncy, Camel, Jester, King, Cantor.
    for (v, at) in [
        ("Z", "g8"),
        ("C", "f8"),
        ("J", "g7"),
        ("K", "e6"),
        ("%", "g7"),
    ] {
        let p = pos(&format!("e5=O1 {at}={v}2"), 2);
        assert!(has(&p, "e5", &format!("x{at}")), "{v} on {at}");
    }
    let p = pos("e5=O1 e7=P1 e9=!2", 2);
    assert!(has(&p, "e5", "xe9"));
}

#[test]
fn echo_moves_as_the_last_moved_piece() {
    let mut p = pos("e5=E1", 2);
    assert!(dests(&p, "e5").is_empty(), "no source: no move");
    for (src, there, not) in [
        (Kind::Rook, "-e15", "-f6"),
        (Kind::Bishop, "-h8", "-e6"),
        (Kind::Jester, "-g7", "-f6"),
        (Kind::Camel, "-f8", "-e6"),
        (Kind::King, "-f6", "-e7"),
        (Kind::Demon, "-e7", "-e6"),
    ] {
        p.echo.insert(1, Some(Src::of(src, 0)));
        assert!(has(&p, "e5", there), "{src:?}");
        assert!(!has(&p, "e5", not), "{src:?}");
    }
    p.echo.insert(1, Some(Src::of(Kind::HarfyBlob, 2)));
    assert!(has(&p, "e5", "-e7") && !has(&p, "e5", "-e8"));
    // Copying an Archer: stands off.
    let mut p = pos("e5=E1 e8=P2", 2);
    p.echo.insert(1, Some(Src::of(Kind::Archer, 0)));
    assert!(has(&p, "e5", "*e8"));
    // Moving an Echo keeps the source; moving another piece sets it.
    let mut p = pos("e5=E1 a1=R1", 2);
    p.echo.insert(1, Some(Src::of(Kind::King, 0)));
    let m = Mv::new(sq("e5"), sq("e6"));
    apply(&mut p, 1, &Play::Move(m));
    assert_eq!(p.echo_of(1).map(|s| s.kind), Some(Kind::King));
    apply(&mut p, 1, &Play::Move(Mv::new(sq("a1"), sq("a5"))));
    assert_eq!(p.echo_of(1).map(|s| s.kind), Some(Kind::Rook));
    apply(&mut p, 1, &Play::Pass);
    assert_eq!(p.echo_of(1), None);
}

/// The Echo on h8 with a source of `kind` (range `hn`) that moved by `vec`: its
/// destinations under the rules reading and under the vector reading.
fn echo_both(spec: &str, kind: Kind, hn: u8, vec: (i8, i8)) -> (Vec<String>, Vec<String>) {
    let mut p = pos(&format!("h8=E1 {spec}"), 2);
    p.echo.insert(
        1,
        Some(Src {
            vec: Some(vec),
            ..Src::of(kind, hn)
        }),
    );
    let rules = dests(&p, "h8");
    p.echo_rule = EchoRule::Vector;
    (rules, dests(&p, "h8"))
}

#[test]
fn echo_under_both_readings_for_every_source() {
    // (other pieces, source, range, displacement, under vector, how many under rules)
    type Case<'a> = (&'a str, Kind, u8, (i8, i8), &'a [&'a str], usize);
    let cases: [Case; 21] = [
        ("", Kind::King, 0, (1, 1), &["-i9"], 8),
        ("", Kind::Rook, 0, (0, 5), &["-h13"], 34),
        // The same displacement, blocked: no move.
        ("h10=P1", Kind::Rook, 0, (0, 5), &[], 25),
        ("", Kind::Bishop, 0, (3, 3), &["-k11"], 31),
        ("", Kind::Camel, 0, (1, 3), &["-i11"], 8),
        ("i8=P1", Kind::Jester, 0, (2, 0), &["-j8"], 8),
        ("", Kind::Cantor, 0, (2, 2), &["-j10"], 8),
        ("", Kind::HarfyBlob, 2, (0, -2), &["-h6"], 16),
        // Beyond the copied range.
        ("", Kind::HarfyBlob, 2, (0, -3), &[], 16),
        ("", Kind::Pawn, 0, (0, 1), &["-h9"], 4),
        ("i9=P2", Kind::Pawn, 0, (1, 1), &["xi9"], 5),
        ("", Kind::CopyCat, 0, (3, 0), &["-k8"], 16),
        ("", Kind::Qball, 0, (-6, 8), &["-b16"], 12),
        ("h12=P2", Kind::Archer, 0, (0, 4), &["*h12"], 16),
        ("", Kind::Archer, 0, (1, 3), &["-i11"], 16),
        ("", Kind::Kamikaze, 0, (2, 3), &["-j11"], 144),
        ("h10=P1", Kind::Bouncy, 0, (0, 4), &["-h12"], 1),
        // In its zone the Demon steps one: a two-square displacement is no move.
        ("", Kind::Demon, 0, (1, 0), &["-i8"], 8),
        ("", Kind::Demon, 0, (2, 0), &[], 8),
        ("", Kind::Tornado, 0, (1, 1), &["-i9"], 16),
        ("i9=P2", Kind::Tornado, 0, (1, 2), &["xi9-i10"], 22),
    ];
    for (spec, kind, hn, vec, vector, rules_count) in cases {
        let (rules, by_vector) = echo_both(spec, kind, hn, vec);
        assert_eq!(by_vector, vector, "{kind:?} {vec:?} under vector");
        assert_eq!(rules.len(), rules_count, "{kind:?} under rules: {rules:?}");
        assert!(
            by_vector.iter().all(|d| rules.contains(d)),
            "{kind:?}: the vector reading keeps a subset"
        );
    }
    // A Qball's scratch is copied with its corner's displacement.
    let (_, v) = echo_both("", Kind::Qball, 0, (-7, -7));
    assert_eq!(v, ["#a1"]);
    // The Echo's own lent moves (next to a Cantor) stay under the vector reading.
    let (_, v) = echo_both("g7=%2", Kind::Rook, 0, (0, 5));
    assert!(v.contains(&"-h13".to_string()) && v.contains(&"-j10".to_string()));
}

#[test]
fn the_vector_reading_records_the_move_and_a_copycat_takes_an_echo_by_it() {
    let mut p = pos("a1=K1 c3=R1 t20=K2", 2);
    p.echo_rule = EchoRule::Vector;
    apply(&mut p, 1, &Play::Move(Mv::new(sq("c3"), sq("c8"))));
    assert_eq!(p.echo_of(1).map(Src::text), Some("R+0+5".into()));
    // A stand-off shot records the victim's square.
    let mut p = pos("a1=K1 e5=A1 e9=P2 t20=K2", 2);
    p.echo_rule = EchoRule::Vector;
    let shot = Mv {
        standoff: true,
        ..Mv::cap(sq("e5"), sq("e9"))
    };
    apply(&mut p, 1, &Play::Move(shot));
    assert_eq!(p.echo_of(1).map(Src::text), Some("A+0+4".into()));
    // Under the rules reading no displacement is kept.
    let mut p = pos("a1=K1 c3=R1 t20=K2", 2);
    apply(&mut p, 1, &Play::Move(Mv::new(sq("c3"), sq("c8"))));
    assert_eq!(p.echo_of(1).map(Src::text), Some("R".into()));
    // A CopyCat takes an Echo (a Rook's, +0+5) by that displacement only under vector.
    let mut p = pos("e5=O1 e9=E2 e10=E2", 2);
    p.echo.insert(
        2,
        Some(Src {
            vec: Some((0, 5)),
            ..Src::of(Kind::Rook, 0)
        }),
    );
    assert!(has(&p, "e5", "xe9"));
    p.echo_rule = EchoRule::Vector;
    assert!(!has(&p, "e5", "xe9"));
    let p2 = {
        let mut q = pos("e5=O1 e10=E2", 2);
        q.echo = p.echo.clone();
        q.echo_rule = EchoRule::Vector;
        q
    };
    assert!(has(&p2, "e5", "xe10"));
}

#[test]
fn qball_bounces_and_scratches() {
    // From e5 up-left: d6 … a9 (file a), then reflected up-right.
    let p = pos("e5=Q1", 2);
    let moves = piece_moves(&p, sq("e5"), Mode::Attack, true);
    let via_a9: Vec<String> = moves
        .iter()
        .filter(|m| m.bounce == Some(sq("a9")))
        .map(|m| m.to.name())
        .collect();
    assert_eq!(via_a9.first().map(String::as_str), Some("b10"));
    assert_eq!(via_a9.len(), 10);
    // Down-left from e5: d4 c3 b2 a1: a corner, a scratch.
    assert!(has(&p, "e5", "#a1"));
    // Blocked on the way to the edge: that direction is unavailable.
    let p = pos("e5=Q1 c3=P2", 2);
    assert!(!has(&p, "e5", "#a1"));
    assert!(!has(&p, "e5", "xc3"), "part a never captures");
    // Part b captures on its destination.
    let p = pos("e5=Q1 c11=P2", 2);
    assert!(has(&p, "e5", "xc11"));
    // On an edge it must move to another edge square first.
    let p = pos("a5=Q1", 2);
    assert!(has(&p, "a5", "-q19") && has(&p, "a5", "-f2"));
    assert!(!has(&p, "a5", "-b6"), "part a is not a landing");
}

#[test]
fn archer_moves_in_an_l_and_shoots_standing_off() {
    let p = pos("e5=A1", 2);
    let d = dests(&p, "e5");
    assert!(d.contains(&"-e9".to_string()) && d.contains(&"-f8".to_string()));
    assert!(d.contains(&"-g7".to_string()) && !d.contains(&"-e8".to_string()));
    assert_eq!(d.len(), 16);
    let p = pos("e5=A1 e9=P2 h8=P2 i9=P2", 2);
    assert!(has(&p, "e5", "*e9"));
    assert!(has(&p, "e5", "*h8"));
    assert!(!has(&p, "e5", "*i9"), "4 diagonally is too far");
    assert!(!has(&p, "e5", "xe9"));
    // Blocked shot.
    let p = pos("e5=A1 e7=P1 e9=P2", 2);
    assert!(!has(&p, "e5", "*e9"));
    // One L blocked, the other clear: legal.
    let p = pos("e5=A1 f5=P1", 2);
    assert!(has(&p, "e5", "-f8"));
    let p = pos("e5=A1 f5=P1 e6=P1", 2);
    assert!(!has(&p, "e5", "-f8"));
    // The shot leaves the Archer where it stood.
    let mut after = pos("e5=A1 e9=P2", 2);
    let m = piece_moves(&after, sq("e5"), Mode::Attack, true)
        .into_iter()
        .find(|m| m.standoff)
        .expect("shot");
    apply(&mut after, 1, &Play::Move(m));
    assert!(after.at(sq("e5")).is_some() && after.at(sq("e9")).is_none());
}

#[test]
fn archer_next_to_a_cantor_shoots_rather_than_lands() {
    let p = pos("e5=A1 d4=%2 g7=P2", 2);
    let ms: Vec<Mv> = piece_moves(&p, sq("e5"), Mode::Attack, true)
        .into_iter()
        .filter(|m| m.to == sq("g7"))
        .collect();
    assert_eq!(ms.len(), 1);
    assert!(ms[0].standoff && !ms[0].lent);
    // Beyond its shot (4 diagonally), the lent move captures and lands.
    let p = pos("e5=A1 d4=%2 i9=P2", 2);
    let m = piece_moves(&p, sq("e5"), Mode::Attack, true)
        .into_iter()
        .find(|m| m.to == sq("i9"))
        .expect("lent capture");
    assert!(m.lent && !m.standoff);
}

#[test]
fn kamikaze_l_moves_and_dies_capturing() {
    let p = pos("e5=Z1", 2);
    let d = dests(&p, "e5");
    assert!(d.contains(&"-f6".to_string()) && d.contains(&"-k11".to_string()));
    assert!(!d.contains(&"-e6".to_string()), "no straight move");
    assert!(!d.contains(&"-l12".to_string()));
    let p = pos("e5=Z1 e6=P1 f5=P1", 2);
    assert!(!has(&p, "e5", "-f6"), "both L-paths blocked");
    let mut p = pos("e5=Z1 g8=R2 a1=K1", 2);
    let m = piece_moves(&p, sq("e5"), Mode::Attack, true)
        .into_iter()
        .find(|m| m.capture)
        .expect("capture");
    let done = apply(&mut p, 1, &Play::Move(m));
    assert!(done.kamikaze);
    assert!(p.at(sq("g8")).is_none() && p.at(sq("e5")).is_none());
    assert_eq!(p.hand(1).len(), 1);
}

#[test]
fn bouncy_jumps_one_piece_at_the_midpoint() {
    let p = pos("e5=!1 e7=P1 h5=P2 k5=P2", 2);
    assert!(has(&p, "e5", "-e9"));
    assert!(!has(&p, "e5", "-e8"));
    // Over h5 (3 away) to k5 (6 away): an opposing piece there is captured.
    assert!(has(&p, "e5", "xk5"));
    // Two pieces in the way: no move.
    let p = pos("e5=!1 e6=P1 e7=P1", 2);
    assert!(dests(&p, "e5")
        .iter()
        .all(|d| !d.ends_with('8') || !d.contains('e')));
    // No screen: no move that way; nothing at all alone.
    assert!(dests(&pos("e5=!1", 2), "e5").is_empty());
}

#[test]
fn demon_in_and_out_of_its_zone() {
    let p = pos("h9=D1", 2);
    assert_eq!(dests(&p, "h9").len(), 8);
    assert!(has(&p, "h9", "-i10"));
    let p = pos("c3=D1", 2);
    let d = dests(&p, "c3");
    assert!(d.contains(&"-e5".to_string()) && !d.contains(&"-d4".to_string()));
    let p = pos("c3=D1 d4=P1", 2);
    assert!(!has(&p, "c3", "-e5"), "lame");
}

#[test]
fn demon_promotion_box() {
    // Rooks on g6 and k10 (distance 4) box h8.
    let p = pos("h8=D1 g6=R1 k10=R1", 2);
    assert!(demon_may_promote(&p, sq("h8"), 1));
    // The other diagonal orientation.
    let p = pos("h8=D1 g10=R1 k6=R1", 2);
    assert!(demon_may_promote(&p, sq("h8"), 1));
    // Not strictly inside.
    let p = pos("h8=D1 g8=R1 k10=R1", 2);
    assert!(!demon_may_promote(&p, sq("h8"), 1));
    // Too far apart.
    let p = pos("h8=D1 a1=R1 l12=R1", 2);
    assert!(!demon_may_promote(&p, sq("h8"), 1));
    // Different types, or opposing pieces.
    assert!(!demon_may_promote(
        &pos("h8=D1 g6=R1 k10=B1", 2),
        sq("h8"),
        1
    ));
    assert!(!demon_may_promote(
        &pos("h8=D1 g6=R2 k10=R2", 2),
        sq("h8"),
        1
    ));
    let t = promotion_targets(&pos("h8=D1", 2), 1, true);
    assert!(!t.contains(&Kind::Demon) && !t.contains(&Kind::Pawn) && t.contains(&Kind::King));
}

#[test]
fn tornado_chains_with_the_direction_rule() {
    // e5 takes f6 (a pawn: M = 1), then f7 (a Jester: M = 3), then up to 3 more.
    let p = pos("e5=T1 f6=P2 f7=J2 i7=P2", 2);
    assert!(has(&p, "e5", "xf6"));
    assert!(has(&p, "e5", "xf6xf7"));
    assert!(has(&p, "e5", "xf6xf7xi7"));
    assert!(has(&p, "e5", "xf6xf7-c7"));
    assert!(!has(&p, "e5", "xf6xf7-f10"), "not up twice");
    // After f6 (taken going up-right), not up-right again.
    let p = pos("e5=T1 f6=P2 g7=P2", 2);
    assert!(!has(&p, "e5", "xf6xg7"));
    // Reversal is allowed.
    let p = pos("e5=T1 e6=J2 e3=P2", 2);
    assert!(has(&p, "e5", "xe6xe3"));
    // A King ends the chain.
    let p = pos("e5=T1 e6=K2 e7=P2", 2);
    assert!(has(&p, "e5", "xe6") && !has(&p, "e5", "xe6xe7"));
    // The first segment is two at most.
    let p = pos("e5=T1 e8=P2", 2);
    assert!(!has(&p, "e5", "xe8"));
    // Attacks through a chain, but placement judges the first segment only.
    let p = pos("e5=T1 f6=J2 f9=K2", 2);
    assert!(attacks(&p, sq("e5"), sq("f9"), false));
    assert!(!attacks(&p, sq("e5"), sq("f9"), true));
    // Victims all go to the mover.
    let mut after = pos("e5=T1 f6=P2 f7=J2 a1=K1", 2);
    let m = piece_moves(&after, sq("e5"), Mode::Attack, true)
        .into_iter()
        .find(|m| m.chain.len() == 1 && m.capture)
        .expect("a chain of two");
    apply(&mut after, 1, &Play::Move(m));
    assert_eq!(after.hand(1).len(), 2);
    assert_eq!(after.at(sq("f7")).map(|p| p.kind), Some(Kind::Tornado));
}

#[test]
fn cantor_and_its_aura() {
    let p = pos("e5=%1 e7=P2 g7=P2", 2);
    assert!(has(&p, "e5", "xg7") && !has(&p, "e5", "xe7"));
    assert_eq!(dests(&pos("e5=%1", 2), "e5").len(), 8);
    // A rook next to a Cantor (any owner) may move 1-4 diagonally, jumping.
    let p = pos("e5=R1 d5=%2 f6=P1 h8=P2", 2);
    assert!(has(&p, "e5", "xh8"));
    assert!(has(&p, "e5", "-g7"));
    assert!(!has(&p, "e5", "-j10"));
    // Without the Cantor, not.
    let p = pos("e5=R1 f6=P1 h8=P2", 2);
    assert!(!has(&p, "e5", "xh8"));
    // A Cantor next to a Cantor gains the aura too.
    let p = pos("e5=%1 e6=%2", 2);
    assert!(has(&p, "e5", "-h8"));
}

#[test]
fn check_and_placement_rules() {
    let p = pos("a1=K1 a5=R2", 2);
    assert!(in_check(&p, 1));
    assert!(!in_check(&p, 2));
    let mut p = pos("a1=K1 t20=K2", 2);
    p.give(1, Piece::new(Kind::Rook, 1));
    p.give(1, Piece::new(Kind::Pawn, 1));
    // A rook may not be placed where it attacks t20.
    assert!(placement_problem(&p, 1, Piece::new(Kind::Rook, 1), sq("t15")).is_some());
    assert!(placement_problem(&p, 1, Piece::new(Kind::Rook, 1), sq("s15")).is_none());
    // Pawns only on their files and ranks.
    assert!(placement_problem(&p, 1, Piece::new(Kind::Pawn, 1), sq("e5")).is_some());
    assert!(placement_problem(&p, 1, Piece::new(Kind::Pawn, 1), sq("b5")).is_none());
    // Not held.
    assert!(placement_problem(&p, 1, Piece::new(Kind::Bishop, 1), sq("e5")).is_some());
    // A placed Echo attacks only by a lent move (its source is gone after a placement).
    let mut p = pos("a1=K1 e9=P2 d5=%2", 2);
    p.give(1, Piece::new(Kind::Echo, 1));
    p.echo.insert(1, Some(Src::of(Kind::Rook, 0)));
    assert!(placement_problem(&p, 1, Piece::new(Kind::Echo, 1), sq("e5")).is_none());
    let mut p = pos("a1=K1 h8=P2 d5=%2", 2);
    p.give(1, Piece::new(Kind::Echo, 1));
    assert!(placement_problem(&p, 1, Piece::new(Kind::Echo, 1), sq("e5")).is_some());
}

#[test]
fn a_king_is_not_placed_where_it_is_attacked() {
    let mut p = pos("t20=K2 a10=R2", 2);
    p.give(1, Piece::new(Kind::King, 1));
    let squares: Vec<Sq> = legal_placements(&p, 1)
        .into_iter()
        .map(|(_, s)| s)
        .collect();
    assert!(!squares.contains(&sq("a1")), "on the rook's file");
    assert!(squares.contains(&sq("b1")));
    assert!(
        !squares.contains(&sq("s19")),
        "next to the other King attacks it"
    );
}

#[test]
fn a_move_into_check_is_not_legal_and_pass_not_in_check() {
    let p = pos("a1=K1 b10=R2 t20=K2", 2);
    let plays = legal_plays(&p);
    assert!(plays.contains(&Play::Pass));
    assert!(!plays.contains(&Play::Move(Mv::new(sq("a1"), sq("b2")))));
    assert!(plays.contains(&Play::Move(Mv::new(sq("a1"), sq("a2")))));
    let p = pos("a1=K1 a10=R2 t20=K2", 2);
    let plays = legal_plays(&p);
    assert!(!plays.contains(&Play::Pass));
    assert!(plays.contains(&Play::Surrender));
}
