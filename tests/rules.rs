//! Scenarios for RULINGS §1.3 (drops, promotion into the pawn's own army) and §1.4 (no check
//! rules, castling with any corner piece, en passant), with the frozen board of §1.5 that
//! king capture leads to, each on a single board.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use arbiter::engine::notation::NotationError;

use arbiter::engine::{fen, notation, ArmyId, Colour, HandPiece, Move, Position, Side};

fn pos(variant: &str, fen_text: &str) -> Position {
    arbiter::cli::position(variant, Some(fen_text)).unwrap_or_else(|e| panic!("{variant}: {e}"))
}

fn sq(p: &Position, name: &str) -> arbiter::engine::Square {
    fen::square(p, name).unwrap_or_else(|| panic!("{name} is not a square"))
}

/// Plays a move written in the project's notation; panics if it is refused.
fn play(p: &mut Position, text: &str) -> Move {
    play_army(p, text, None)
}

fn play_army(p: &mut Position, text: &str, army: Option<ArmyId>) -> Move {
    let m = notation::resolve(p, text, army)
        .unwrap_or_else(|e| panic!("{text} refused in {}: {e}", fen::write(p)));
    p.make(m);
    m
}

/// Every legal move, formatted.
fn legal(p: &mut Position) -> BTreeSet<String> {
    let moves = p.legal_moves();
    moves.into_iter().map(|m| notation::format(p, m)).collect()
}

/// Destinations of the legal moves from a square.
fn targets(p: &mut Position, from: &str) -> BTreeSet<String> {
    let from = sq(p, from);
    let g = p.rules().geometry.clone();
    p.legal_moves()
        .into_iter()
        .filter(|m| m.from() == Some(from))
        .map(|m| g.name(m.to().unwrap()))
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn army(p: &Position, code: &str) -> ArmyId {
    p.rules().catalog.army_by_code(code).unwrap()
}

fn abbr_of(p: &Position, name: &str) -> Option<&'static str> {
    p.piece_at(sq(p, name))
        .map(|pc| p.rules().catalog.def(pc.kind).abbr)
}

/// Promotion choices of the legal moves from `from` to `to`, as abbreviations.
fn promotions(p: &mut Position, from: &str, to: &str) -> BTreeSet<String> {
    let (f, t) = (sq(p, from), sq(p, to));
    let rules = p.rules().clone();
    p.legal_moves()
        .into_iter()
        .filter_map(|m| match m {
            Move::Normal {
                from,
                to,
                promotion: Some(k),
            } if from == f && to == t => Some(rules.catalog.def(k).abbr.to_string()),
            _ => None,
        })
        .collect()
}

fn add_hand_pawn(p: &mut Position, side: Side, army_code: &str) {
    let rules = p.rules().clone();
    let hp = HandPiece {
        kind: rules.catalog.kind_by_abbr("P").unwrap(),
        colour: p.colour(side),
        army: army(p, army_code),
        promoted: false,
    };
    p.hand_mut(side).add(hp);
}

// ---------------------------------------------------------------------------------------
// §1.3 Drops on the first and last rank.

#[test]
fn pawn_dropped_on_first_rank_moves_one_square_only() {
    // White.
    let mut p = pos("kfb-board:fide-fide", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
    play(&mut p, "P@a1");
    assert_eq!(abbr_of(&p, "a1"), Some("P"));
    play(&mut p, "Ke8-d8");
    assert_eq!(targets(&mut p, "a1"), set(&["a2"]));
    // Control: a pawn on its second rank has the double step.
    let mut q = pos("kfb-board:fide-fide", "3k4/8/8/8/8/8/P7/4K3 w - - 0 1");
    assert_eq!(targets(&mut q, "a2"), set(&["a3", "a4"]));

    // Black, whose first rank is rank 8.
    let mut p = pos("kfb-board:fide-fide", "4k3/8/8/8/8/8/8/4K3[p] b - - 0 1");
    play(&mut p, "P@h8");
    play(&mut p, "Ke1-d1");
    assert_eq!(targets(&mut p, "h8"), set(&["h7"]));

    // A first-rank pawn still captures diagonally forward, one square.
    let mut p = pos("kfb-board:fide-fide", "4k3/8/8/8/8/8/1n6/4K3[P] w - - 0 1");
    play(&mut p, "P@a1");
    play(&mut p, "Ke8-d8");
    assert_eq!(targets(&mut p, "a1"), set(&["a2", "b2"]));
}

#[test]
fn pawn_drops_on_first_and_last_rank_only_under_kfb() {
    for (variant, allowed) in [
        ("kfb-board:fide-fide", true),
        ("kcwdazh:fide-fide", true),
        ("cwdazh:fide-fide", false),
    ] {
        let mut p = pos(variant, "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
        for square in ["a1", "h1", "a8", "d8"] {
            let r = notation::resolve(&mut p, &format!("P@{square}"), None);
            assert_eq!(r.is_ok(), allowed, "{variant} P@{square}: {r:?}");
        }
        assert!(notation::resolve(&mut p, "P@d4", None).is_ok(), "{variant}");
    }
}

#[test]
fn pawn_dropped_on_last_rank_never_moves_or_promotes() {
    // A black rook on b8 beside the drop square, a black knight on b7 where a pawn on a8
    // could only capture backwards.
    let mut p = pos(
        "kfb-board:fide-fide",
        "1r2k3/1n6/8/8/8/8/8/4K3[P] w - - 0 1",
    );
    let drop = play(&mut p, "P@a8");
    assert!(matches!(drop, Move::Drop { .. }));
    let pawn = p.piece_at(sq(&p, "a8")).unwrap();
    assert_eq!(p.rules().catalog.def(pawn.kind).abbr, "P");
    assert!(!pawn.promoted);
    for (black, white) in [
        ("Ke8-f8", "Ke1-e2"),
        ("Kf8-e8", "Ke2-e1"),
        ("Nb7-c5", "Ke1-d1"),
    ] {
        play(&mut p, black);
        assert!(targets(&mut p, "a8").is_empty(), "{}", fen::write(&p));
        let all = p.legal_moves();
        assert!(
            !all.iter().any(|m| matches!(
                m,
                Move::Normal {
                    promotion: Some(_),
                    ..
                }
            )),
            "a promotion is offered in {}",
            fen::write(&p)
        );
        assert!(
            matches!(
                notation::resolve(&mut p, "a8-a9", None),
                Err(NotationError::OffBoard(_))
            ),
            "a8-a9"
        );
        assert!(notation::resolve(&mut p, "a8xb9=Q", None).is_err());
        play(&mut p, white);
        assert_eq!(abbr_of(&p, "a8"), Some("P"));
        assert!(!p.piece_at(sq(&p, "a8")).unwrap().promoted);
    }
    // It stays until captured.
    play(&mut p, "Rb8-a8");
    assert_eq!(
        p.piece_at(sq(&p, "a8")).map(|pc| pc.side),
        Some(Side::BLACK)
    );

    // The same for Black on rank 1.
    let mut p = pos("kfb-board:fide-fide", "4k3/8/8/8/8/8/1N6/4K3[p] b - - 0 1");
    play(&mut p, "P@h1");
    play(&mut p, "Ke1-d1");
    assert!(targets(&mut p, "h1").is_empty());
    play(&mut p, "Ke8-d8");
    play(&mut p, "Nb2-d3");
    assert!(targets(&mut p, "h1").is_empty());
}

// ---------------------------------------------------------------------------------------
// §1.3 Promotion into the pawn's own army.

#[test]
fn board_pawn_promotes_into_its_owners_army() {
    // White is the Nutty Knights: FEN pawns take their owner's army.
    let mut p = pos("kfb-board:nutty-fide", "n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(p.piece_at(sq(&p, "b7")).unwrap().army, army(&p, "nutty"));
    let nutty = set(&["Co", "CR", "CN", "Fb"]);
    assert_eq!(promotions(&mut p, "b7", "b8"), nutty);
    assert_eq!(promotions(&mut p, "b7", "a8"), nutty);
    // Every move from b7 is a promotion.
    assert_eq!(targets(&mut p, "b7"), set(&["a8", "b8"]));
    assert_eq!(
        p.legal_moves()
            .iter()
            .filter(|m| m.from() == Some(sq(&p, "b7")))
            .count(),
        8
    );
    // FIDE choices are refused, with the Nutty choices offered.
    match notation::resolve(&mut p, "b7-b8=Q", None) {
        Err(NotationError::Illegal { reason, .. }) => {
            for k in ["=Co", "=CR", "=CN", "=Fb"] {
                assert!(reason.contains(k), "{reason}");
            }
            assert!(!reason.contains("=Q"), "{reason}");
        }
        other => panic!("b7-b8=Q: {other:?}"),
    }
    play(&mut p, "b7xa8=CR");
    let promoted = p.piece_at(sq(&p, "a8")).unwrap();
    assert_eq!(p.rules().catalog.def(promoted.kind).abbr, "CR");
    assert!(promoted.promoted);
    assert_eq!(promoted.army, army(&p, "nutty"));
    assert_eq!(promoted.side, Side::WHITE);

    // And Black with the Rookies.
    let mut p = pos("kfb-board:fide-rookies", "4k3/8/8/8/8/8/6p1/4K3 b - - 0 1");
    assert_eq!(
        promotions(&mut p, "g2", "g1"),
        set(&["Ch", "R", "HD", "WR"])
    );
    // A FIDE army's pawns, for contrast.
    let mut p = pos("kfb-board:rookies-fide", "4k3/8/8/8/8/8/6p1/4K3 b - - 0 1");
    assert_eq!(promotions(&mut p, "g2", "g1"), set(&["Q", "R", "B", "N"]));
}

#[test]
fn dropped_pawn_promotes_into_its_army_of_origin_whoever_drops_it() {
    // White plays FIDE but holds a Clobberers pawn and a Nutty pawn (routed from other boards).
    let mut p = pos("kfb-board:fide-fide", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
    add_hand_pawn(&mut p, Side::WHITE, "clobberers");
    add_hand_pawn(&mut p, Side::WHITE, "nutty");
    // Three armies in hand: a pawn drop must say which.
    match notation::resolve(&mut p, "P@c7", None) {
        Err(NotationError::NeedArmy { choices, moves }) => {
            assert_eq!(choices, vec!["clobberers", "fide", "nutty"]);
            assert_eq!(moves, vec!["P@c7(clobberers)", "P@c7(fide)", "P@c7(nutty)"]);
        }
        other => panic!("P@c7 without army: {other:?}"),
    }
    let clob = army(&p, "clobberers");
    play(&mut p, "P@c7(clobberers)");
    assert_eq!(p.piece_at(sq(&p, "c7")).unwrap().army, clob);
    play(&mut p, "Ke8-f7");
    assert_eq!(
        promotions(&mut p, "c7", "c8"),
        set(&["Ca", "Be", "FAD", "W"])
    );
    play(&mut p, "c7-c8=Ca");
    play(&mut p, "Kf7-e7");
    let nutty = army(&p, "nutty");
    play_army(&mut p, "P@g7", Some(nutty));
    play(&mut p, "Ke7-d7");
    assert_eq!(
        promotions(&mut p, "g7", "g8"),
        set(&["Co", "CR", "CN", "Fb"])
    );
    play(&mut p, "Ke1-d1");
    play(&mut p, "Kd7-e7");
    let fide = army(&p, "fide");
    // Only the FIDE pawn is left: no army needed.
    play(&mut p, "P@b7");
    assert_eq!(p.piece_at(sq(&p, "b7")).unwrap().army, fide);
    play(&mut p, "Ke7-d7");
    assert_eq!(promotions(&mut p, "b7", "b8"), set(&["Q", "R", "B", "N"]));
}

// ---------------------------------------------------------------------------------------
// §1.4 No check rules.

#[test]
fn moving_into_check_is_legal_only_under_king_capture() {
    // A black rook on a2 guards the second rank.
    let fen_text = "4k3/8/8/8/8/8/r7/4K3 w - - 0 1";
    let mut orthodox = pos("cwda:fide-fide", fen_text);
    assert_eq!(targets(&mut orthodox, "e1"), set(&["d1", "f1"]));
    assert!(matches!(
        notation::resolve(&mut orthodox, "Ke1-e2", None),
        Err(NotationError::Illegal { .. })
    ));
    let mut kc = pos("kcwda:fide-fide", fen_text);
    assert_eq!(targets(&mut kc, "e1"), set(&["d1", "f1", "d2", "e2", "f2"]));
    play(&mut kc, "Ke1-e2");
    // The king is then captured like any piece.
    play(&mut kc, "Ra2xe2");
    assert_eq!(kc.royal_count(Side::WHITE), 0);
    // Without drops, the board is frozen for both sides.
    assert!(kc.legal_moves().is_empty());
    kc.set_turn(Side::BLACK);
    assert!(kc.legal_moves().is_empty());
}

#[test]
fn leaving_the_king_attacked_is_legal_only_under_king_capture() {
    // The black rook on a1 attacks the white king on e1; White's knight may ignore it.
    let fen_text = "4k3/8/8/8/8/8/8/r3K2N w - - 0 1";
    let mut orthodox = pos("cwda:fide-fide", fen_text);
    assert!(targets(&mut orthodox, "h1").is_empty());
    assert!(orthodox.in_check(Side::WHITE));
    let mut kc = pos("kcwda:fide-fide", fen_text);
    assert_eq!(targets(&mut kc, "h1"), set(&["f2", "g3"]));
    play(&mut kc, "Nh1-g3");
    assert!(legal(&mut kc).contains("Ra1xe1"));
}

#[test]
fn castling_through_out_of_and_into_attack() {
    let cases = [
        // (position, orthodox castlings, description)
        (
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            vec!["0-0", "0-0-0"],
            "nothing attacked",
        ),
        (
            "3rkr2/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            vec![],
            "d1 and f1 attacked",
        ),
        (
            "4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            vec![],
            "king attacked",
        ),
        (
            "6rk/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            vec!["0-0-0"],
            "g1 attacked",
        ),
        (
            "2r3k1/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            vec!["0-0"],
            "c1 attacked",
        ),
        // b1 is not crossed by the king: long castling stays legal.
        (
            "1r4k1/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            vec!["0-0", "0-0-0"],
            "b1 attacked",
        ),
    ];
    for (fen_text, orthodox_ok, what) in cases {
        let mut o = pos("cwda:fide-fide", fen_text);
        let mut k = pos("kcwda:fide-fide", fen_text);
        for castle in ["0-0", "0-0-0"] {
            let o_ok = notation::resolve(&mut o, castle, None).is_ok();
            assert_eq!(
                o_ok,
                orthodox_ok.contains(&castle),
                "cwda {castle} with {what}"
            );
            assert!(
                notation::resolve(&mut k, castle, None).is_ok(),
                "kcwda {castle} with {what}"
            );
        }
    }
    // After castling through attack under king capture, the rook lands on the crossed square.
    let mut k = pos("kcwda:fide-fide", "3rkr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    play(&mut k, "0-0");
    assert_eq!(abbr_of(&k, "g1"), Some("K"));
    assert_eq!(abbr_of(&k, "f1"), Some("R"));
    assert_eq!(abbr_of(&k, "h1"), None);
    assert!(legal(&mut k).contains("Rf8xf1"));
}

// ---------------------------------------------------------------------------------------
// §1.4 Castling with whatever stands in the corner.

fn castle_both_ways(variant: &str, fen_text: &str, corner: &str) {
    let mut short = pos(variant, fen_text);
    let m = play(&mut short, "0-0");
    assert!(matches!(m, Move::Castle { .. }), "{variant}: {m:?}");
    assert_eq!(abbr_of(&short, "g1"), Some("K"), "{variant}");
    assert_eq!(abbr_of(&short, "f1"), Some(corner), "{variant}");
    assert_eq!(abbr_of(&short, "e1"), None);
    assert_eq!(abbr_of(&short, "h1"), None);
    assert_eq!(short.piece_at(sq(&short, "f1")).unwrap().side, Side::WHITE);

    let mut long = pos(variant, fen_text);
    play(&mut long, "O-O-O");
    assert_eq!(abbr_of(&long, "c1"), Some("K"), "{variant}");
    assert_eq!(abbr_of(&long, "d1"), Some(corner), "{variant}");
    assert_eq!(abbr_of(&long, "a1"), None);
    assert_eq!(abbr_of(&long, "e1"), None);

    // Written as the king's two-square move, it is the same castling.
    let mut again = pos(variant, fen_text);
    assert_eq!(
        notation::resolve(&mut again, "Ke1-g1", None).unwrap(),
        notation::resolve(&mut again, "0-0", None).unwrap()
    );
}

#[test]
fn castling_with_a_bede_or_a_charging_rook() {
    for family in ["cwda", "kcwda", "kfb-board"] {
        castle_both_ways(
            &format!("{family}:clobberers-fide"),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/{Be}3K2{Be} w KQkq - 0 1",
            "Be",
        );
        castle_both_ways(
            &format!("{family}:nutty-fide"),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/{CR}3K2{CR} w KQkq - 0 1",
            "CR",
        );
    }
    // Black's Bede, on the other side of the board.
    let mut p = pos(
        "kcwda:fide-clobberers",
        "{be}3k2{be}/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
    );
    play(&mut p, "0-0");
    assert_eq!(abbr_of(&p, "g8"), Some("K"));
    assert_eq!(abbr_of(&p, "f8"), Some("Be"));
    assert_eq!(p.piece_at(sq(&p, "f8")).unwrap().side, Side::BLACK);
    // From the start position, the corner piece and the king need the squares between clear.
    let mut start = arbiter::cli::position("kcwda:clobberers-nutty", None).unwrap();
    assert!(notation::resolve(&mut start, "0-0", None).is_err());
}

#[test]
fn castling_needs_an_unmoved_king_and_corner_piece() {
    let fen_text = "4k3/pppppppp/8/8/8/8/8/{Be}3K2{Be} w KQ - 0 1";
    // The Bede leaves and comes back: that side's right is gone, the other stays.
    let mut p = pos("kcwda:clobberers-fide", fen_text);
    play(&mut p, "Beh1-h3");
    play(&mut p, "a7-a6");
    play(&mut p, "Beh3-h1");
    play(&mut p, "a6-a5");
    assert!(notation::resolve(&mut p, "0-0", None).is_err());
    assert!(notation::resolve(&mut p, "0-0-0", None).is_ok());
    // The king leaves and comes back: both are gone.
    let mut p = pos("kcwda:clobberers-fide", fen_text);
    play(&mut p, "Ke1-f1");
    play(&mut p, "a7-a6");
    play(&mut p, "Kf1-e1");
    play(&mut p, "a6-a5");
    assert!(notation::resolve(&mut p, "0-0", None).is_err());
    assert!(notation::resolve(&mut p, "0-0-0", None).is_err());
    // The corner piece is captured and another piece dropped on the corner: no castling.
    let mut p = pos(
        "kfb-board:fide-fide",
        "r3k3/8/8/8/8/8/7P/R3K2R[R] b KQ - 0 1",
    );
    play(&mut p, "Ra8xa1");
    play(&mut p, "h2-h3");
    play(&mut p, "Ra1-a5");
    play(&mut p, "R@a1");
    play(&mut p, "Ra5-b5");
    assert!(notation::resolve(&mut p, "0-0-0", None).is_err());
    assert!(notation::resolve(&mut p, "0-0", None).is_ok());
}

// ---------------------------------------------------------------------------------------
// §1.4 En passant only right after the double step.

#[test]
fn en_passant_only_while_the_double_step_is_the_last_move() {
    let fen_text = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1";
    let mut p = pos("kfb-board:fide-fide", fen_text);
    play(&mut p, "e2-e4");
    assert!(fen::write(&p).contains(" e3 "), "{}", fen::write(&p));
    let m = play(&mut p, "d4xe3");
    assert!(matches!(m, Move::EnPassant { .. }));
    assert_eq!(
        abbr_of(&p, "e4"),
        None,
        "the pawn taken en passant is still there"
    );
    assert_eq!(abbr_of(&p, "e3"), Some("P"));

    // White moves twice (Kung Fu timing): the double step is no longer the last move.
    let mut p = pos("kfb-board:fide-fide", fen_text);
    play(&mut p, "e2-e4");
    p.set_turn(Side::WHITE);
    play(&mut p, "Ke1-f1");
    assert_eq!(p.turn(), Side::BLACK);
    assert!(notation::resolve(&mut p, "d4xe3", None).is_err());
    assert_eq!(targets(&mut p, "d4"), set(&["d3"]));
}

// ---------------------------------------------------------------------------------------
// §1.5 After a king is captured the board is frozen, except for dropping a king.

#[test]
fn captured_king_freezes_the_board() {
    // White's rook and a pawn in hand; Black's rook takes the white king.
    let mut p = pos("kfb-board:fide-fide", "4k3/8/8/8/8/8/4r3/R3K3[P] b - - 0 1");
    play(&mut p, "Re2xe1");
    assert_eq!(p.royal_count(Side::WHITE), 0);
    assert_eq!(p.turn(), Side::WHITE);
    // White has no king and none to drop: nothing at all, not even the pawn drop.
    assert!(p.legal_moves().is_empty(), "{:?}", legal(&mut p));
    // Black, with its king on the board, may not move either.
    p.set_turn(Side::BLACK);
    assert!(p.legal_moves().is_empty(), "{:?}", legal(&mut p));
}

#[test]
fn kingless_side_may_drop_only_its_own_king() {
    // White's king is gone; White holds a white king and a pawn.
    let fen_text = "4k3/8/8/8/8/8/8/R7[KP] w - - 0 1";
    let mut p = pos("kfb-board:fide-fide", fen_text);
    assert_eq!(p.royal_count(Side::WHITE), 0);
    let moves = p.legal_moves();
    let empty = 64 - p.pieces().count();
    assert_eq!(moves.len(), empty, "{:?}", legal(&mut p));
    for m in &moves {
        match m {
            Move::Drop { piece, .. } => {
                assert_eq!(p.rules().catalog.def(piece.kind).abbr, "K");
            }
            other => panic!("only king drops are allowed, not {other:?}"),
        }
    }
    assert!(notation::resolve(&mut p, "Ra1-a2", None).is_err());
    assert!(notation::resolve(&mut p, "P@e4", None).is_err());
    // Black may not move while White is kingless.
    p.set_turn(Side::BLACK);
    assert!(p.legal_moves().is_empty());
    p.set_turn(Side::WHITE);
    // The drop unfreezes the board.
    play(&mut p, "K@e1");
    assert_eq!(p.royal_count(Side::WHITE), 1);
    assert!(!p.legal_moves().is_empty());
    play(&mut p, "Ke8-d8");
    let now = legal(&mut p);
    assert!(now.contains("Ra1-a2") && now.contains("P@e4"), "{now:?}");

    // A king of another colour cannot be dropped.
    let mut p = pos("kfb-board:fide-fide", "4k3/8/8/8/8/8/8/R7 w - - 0 1");
    let king = p.rules().catalog.kind_by_abbr("K").unwrap();
    let fide = army(&p, "fide");
    p.hand_mut(Side::WHITE).add(HandPiece {
        kind: king,
        colour: Colour(1),
        army: fide,
        promoted: false,
    });
    assert!(p.legal_moves().is_empty(), "{:?}", legal(&mut p));
    // Black's king in Black's hand does not help White either.
    let mut p = pos("kfb-board:fide-fide", "4k3/8/8/8/8/8/8/R7[k] w - - 0 1");
    assert!(p.legal_moves().is_empty(), "{:?}", legal(&mut p));
    // The piece in the FEN is really a king in hand, of White's colour, when upper case.
    let p = pos("kfb-board:fide-fide", fen_text);
    assert!(p
        .hand(Side::WHITE)
        .entries()
        .iter()
        .any(|(h, _)| h.kind == king && h.colour == Colour(0)));
}

#[test]
fn a_king_dropped_back_does_not_castle() {
    // Black's rook takes the white king on e1; White drops a king it was given and walks it
    // back to e1: it did not start there, so neither castling is possible.
    let mut p = pos(
        "kfb-board:fide-fide",
        "4k3/8/8/8/8/8/4r3/R3K2R[K] b KQ - 0 1",
    );
    play(&mut p, "Re2xe1");
    play(&mut p, "K@d2");
    play(&mut p, "Re1-e5");
    play(&mut p, "Kd2-e1");
    play(&mut p, "Ke8-d8");
    assert_eq!(abbr_of(&p, "e1"), Some("K"));
    assert!(notation::resolve(&mut p, "0-0", None).is_err());
    assert!(notation::resolve(&mut p, "0-0-0", None).is_err());
    assert!(!legal(&mut p).iter().any(|m| m.starts_with('0')));
}

#[test]
fn only_pieces_of_ones_own_colour_are_dropped() {
    let mut p = pos("kfb-board:fide-fide", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    let rules = p.rules().clone();
    let rook = rules.catalog.kind_by_abbr("R").unwrap();
    let fide = army(&p, "fide");
    // A rook of Black's colour in White's hand (KFB hands hold pieces of several colours).
    p.hand_mut(Side::WHITE).add(HandPiece {
        kind: rook,
        colour: Colour(1),
        army: fide,
        promoted: false,
    });
    let moves = legal(&mut p);
    assert!(moves.contains("N@e4"), "{moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with("R@")), "{moves:?}");
    let e = notation::resolve(&mut p, "R@e4", None).unwrap_err();
    assert!(e.to_string().contains("you hold no R"), "{e}");
    // Once the side plays that colour, the rook can be dropped.
    p.set_colour(Side::WHITE, Colour(1));
    let moves = legal(&mut p);
    assert!(
        moves.contains("R@e4") && !moves.contains("N@e4"),
        "{moves:?}"
    );
}
