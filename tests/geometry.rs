//! Board shapes (RULINGS §3–6 boards): the 8×8 board, Party Chess's 20×20, Ultimate Chess's
//! 16×16 with cut corners, Chex's growing board and Nomic Chess's joined half-boards, and
//! move generation on a board with missing squares.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::sync::Arc;

use arbiter::engine::{
    fen, CaptureFate, Catalog, Coord, DropRules, Geometry, GeometryError, Move, Piece, Position,
    RuleSet, Rules, Side, Square, MAX_SIDE,
};

/// `a`…`z` for a file index.
fn file_letter(f: u8) -> char {
    (b'a' + f) as char
}

/// Every square's name round-trips through `name` and `parse_square`, and names are unique.
fn assert_names_round_trip(g: &Geometry) {
    let mut seen = BTreeSet::new();
    for &s in g.squares() {
        let n = g.name(s);
        assert_eq!(
            g.parse_square(&n),
            Ok(s),
            "{n} does not parse back to its square"
        );
        assert!(seen.insert(n.clone()), "two squares are both called {n}");
    }
}

#[test]
fn chess_board() {
    let g = Geometry::chess();
    assert_eq!((g.files(), g.ranks()), (8, 8));
    assert_eq!(g.squares().len(), 64);
    assert_names_round_trip(&g);
    // Names follow files a–h and ranks 1–8, rank by rank from rank 1.
    assert_eq!(g.name(g.squares()[0]), "a1");
    assert_eq!(g.name(g.squares()[7]), "h1");
    assert_eq!(g.name(g.squares()[8]), "a2");
    assert_eq!(g.name(g.squares()[63]), "h8");
    let e4 = g.parse_square("e4").unwrap();
    assert_eq!(g.coord(e4), Coord::new(4, 3));
    assert_eq!(g.square(Coord::new(4, 3)), Some(e4));
    for bad in ["i1", "a9", "a0", "e", "4", "E4", "e44", "", "e-1", " e4"] {
        assert!(g.parse_square(bad).is_err(), "{bad:?} accepted");
    }
    assert!(matches!(
        g.parse_square("i1"),
        Err(GeometryError::OffBoard(_))
    ));
    assert!(matches!(
        g.parse_square("E4"),
        Err(GeometryError::BadSquare(_))
    ));
    // The same as a full 8×8 rectangle.
    assert_eq!(Geometry::rect(8, 8).unwrap(), g);
}

#[test]
fn party_chess_board() {
    let g = Geometry::rect(20, 20).unwrap();
    assert_eq!((g.files(), g.ranks()), (20, 20));
    assert_eq!(g.squares().len(), 400);
    assert_names_round_trip(&g);
    // Every name a1…t20 exists and names the square at the expected coordinates.
    for f in 0..20u8 {
        for r in 0..20u8 {
            let name = format!("{}{}", file_letter(f), r + 1);
            let sq = g
                .parse_square(&name)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(g.coord(sq), Coord::new(f, r));
            assert_eq!(g.name(sq), name);
        }
    }
    assert_eq!(g.name(*g.squares().last().unwrap()), "t20");
    assert!(g.parse_square("j10").is_ok());
    for bad in ["u1", "a21", "u21", "t21", "u20", "a0", "z1", "a100"] {
        assert!(g.parse_square(bad).is_err(), "{bad} accepted on 20×20");
    }
}

#[test]
fn ultimate_chess_board() {
    let g = Geometry::cut_corners(16, 2).unwrap();
    assert_eq!((g.files(), g.ranks()), (16, 16));
    assert_eq!(
        g.squares().len(),
        16 * 16 - 4 * 4,
        "RULINGS §4: 240 squares"
    );
    assert_eq!(g.squares().len(), 240);
    assert_names_round_trip(&g);
    // The sixteen corner squares (files a, b, o, p × ranks 1, 2, 15, 16) are missing.
    let corner_files = ['a', 'b', 'o', 'p'];
    let corner_ranks = [1, 2, 15, 16];
    for f in corner_files {
        for r in corner_ranks {
            let name = format!("{f}{r}");
            assert!(
                matches!(g.parse_square(&name), Err(GeometryError::OffBoard(_))),
                "{name} should be cut"
            );
        }
    }
    for absent in ["a1", "b2", "p16", "o15", "a16", "p1", "b15", "o2"] {
        assert!(g.parse_square(absent).is_err(), "{absent} should be cut");
    }
    for present in [
        "c1", "a3", "n1", "p3", "a14", "c16", "n16", "p14", "c2", "b3", "h8",
    ] {
        assert!(g.parse_square(present).is_ok(), "{present} should exist");
    }
    assert!(g.parse_square("q1").is_err());
    assert!(g.parse_square("a17").is_err());
    // `square` agrees: no coordinate inside a cut corner gives a square.
    let mut count = 0;
    for f in 0..16u8 {
        for r in 0..16u8 {
            let near = |v: u8| !(2..14).contains(&v);
            let cut = near(f) && near(r);
            let sq = g.square(Coord::new(f, r));
            assert_eq!(sq.is_none(), cut, "{f},{r}");
            if let Some(s) = sq {
                assert!(g.is_playable(s));
                count += 1;
            }
        }
    }
    assert_eq!(count, 240);
}

#[test]
fn ultimate_board_fen_marks_missing_squares() {
    let rules = Arc::new(
        Rules::new(
            "ultimate-test",
            Catalog::cwda().unwrap(),
            Geometry::cut_corners(16, 2).unwrap(),
            vec![fide(), fide()],
            RuleSet::Orthodox,
            false,
            DropRules::NONE,
            CaptureFate::LeaveBoard,
        )
        .unwrap(),
    );
    let pos = Position::empty(rules.clone());
    let text = fen::write(&pos);
    let placement = text.split(' ').next().unwrap();
    let rows: Vec<&str> = placement.split('/').collect();
    assert_eq!(rows.len(), 16);
    for (i, row) in rows.iter().enumerate() {
        let expected = if (2..14).contains(&i) { "16" } else { "**12**" };
        assert_eq!(*row, expected, "row {i} of {placement}");
    }
    assert_eq!(fen::parse(rules.clone(), &text).unwrap(), pos);
    // A piece on a missing square is refused.
    let bad = text.replacen("**12**", "K*12**", 1);
    assert!(fen::parse(rules, &bad).is_err(), "{bad}");
}

/// Chex: a large fixed board whose labels start at the corner of the pieces' bounding box
/// plus a border of one square.
#[test]
fn chex_growing_board() {
    let mut g = Geometry::rect(26, 26).unwrap();
    let at = |g: &Geometry, f: u8, r: u8| g.square(Coord::new(f, r)).unwrap();
    let mut occupied = vec![at(&g, 12, 12)];
    // One piece: a 3×3 window with the piece in the middle.
    assert_eq!(g.fit_labels(&occupied, 1), (3, 3));
    assert_eq!(g.label_origin(), Coord::new(11, 11));
    assert_eq!(g.name(at(&g, 12, 12)), "b2");
    assert_eq!(g.name(at(&g, 11, 11)), "a1");
    assert_eq!(g.name(at(&g, 13, 13)), "c3");
    assert_eq!(g.parse_square("a1"), Ok(at(&g, 11, 11)));
    assert_eq!(g.parse_square("b2"), Ok(at(&g, 12, 12)));

    // A piece to the upper right: the window grows, the first piece keeps its name.
    occupied.push(at(&g, 13, 13));
    assert_eq!(g.fit_labels(&occupied, 1), (4, 4));
    assert_eq!(g.name(at(&g, 12, 12)), "b2");
    assert_eq!(g.name(at(&g, 13, 13)), "c3");

    // A piece to the lower left: the window grows that way, so old names change.
    occupied.push(at(&g, 10, 11));
    assert_eq!(g.fit_labels(&occupied, 1), (6, 5));
    assert_eq!(g.label_origin(), Coord::new(9, 10));
    assert_eq!(g.name(at(&g, 12, 12)), "d3");
    assert_eq!(g.name(at(&g, 13, 13)), "e4");
    assert_eq!(g.name(at(&g, 10, 11)), "b2");
    // Every square of the shown window parses back, and a1 is the window's corner.
    for f in 9..=14u8 {
        for r in 10..=14u8 {
            let s = at(&g, f, r);
            let n = g.name(s);
            assert_eq!(g.parse_square(&n), Ok(s), "{n}");
            assert_eq!(n, format!("{}{}", file_letter(f - 9), r - 10 + 1));
        }
    }
    // Squares below or left of the window have no name a player could type.
    assert!(g.parse_square(&g.name(at(&g, 8, 12))).is_err());
    assert!(g.parse_square(&g.name(at(&g, 12, 9))).is_err());

    // Pieces leave: the window shrinks back and names change again.
    occupied.retain(|&s| s != at(&g, 10, 11));
    assert_eq!(g.fit_labels(&occupied, 1), (4, 4));
    assert_eq!(g.name(at(&g, 12, 12)), "b2");

    // At the edge of the internal board, the border is clamped.
    let edge = vec![at(&g, 0, 0), at(&g, 25, 25)];
    assert_eq!(g.fit_labels(&edge, 1), (26, 26));
    assert_eq!(g.name(at(&g, 0, 0)), "a1");
    assert_eq!(g.name(at(&g, 25, 25)), "z26");
    assert_names_round_trip(&g);

    // No pieces: labels go back to the internal origin.
    assert_eq!(g.fit_labels(&[], 1), (26, 26));
    assert_eq!(g.label_origin(), Coord::new(0, 0));
}

/// Nomic Chess: two 8-file, 4-rank half-boards pushed together into an 8×8 board.
#[test]
fn nomic_half_boards_join() {
    let bottom = Geometry::rect(8, 4).unwrap();
    let top = Geometry::rect(8, 4).unwrap();
    assert_eq!(bottom.squares().len(), 32);
    let (joined, mb, mt) = Geometry::join_vertically(&bottom, &top).unwrap();
    assert_eq!((joined.files(), joined.ranks()), (8, 8));
    assert_eq!(joined.squares().len(), 64);
    assert_eq!(joined, Geometry::chess());
    assert_eq!(mb.len(), 32);
    assert_eq!(mt.len(), 32);
    // Each half's squares are all mapped, to distinct joined squares.
    let halves_from: BTreeSet<Square> = mb.iter().map(|m| m.0).collect();
    assert_eq!(halves_from, bottom.squares().iter().copied().collect());
    let top_from: BTreeSet<Square> = mt.iter().map(|m| m.0).collect();
    assert_eq!(top_from, top.squares().iter().copied().collect());
    let images: BTreeSet<Square> = mb.iter().chain(mt.iter()).map(|m| m.1).collect();
    assert_eq!(
        images.len(),
        64,
        "two half-board squares share a joined square"
    );
    assert_eq!(images, joined.squares().iter().copied().collect());
    // Bottom keeps its coordinates; top is shifted up by the bottom's height.
    for &(h, j) in &mb {
        assert_eq!(joined.coord(j), bottom.coord(h));
        assert_eq!(joined.name(j), bottom.name(h));
    }
    for &(h, j) in &mt {
        let c = top.coord(h);
        assert_eq!(joined.coord(j), Coord::new(c.file, c.rank + 4));
    }
    // And back: inverting the maps sends each joined square to exactly one half square.
    for &j in joined.squares() {
        let back: Vec<(bool, Square)> = mb
            .iter()
            .map(|&(h, x)| (false, h, x))
            .chain(mt.iter().map(|&(h, x)| (true, h, x)))
            .filter(|&(_, _, x)| x == j)
            .map(|(t, h, _)| (t, h))
            .collect();
        assert_eq!(back.len(), 1, "{}", joined.name(j));
        let (is_top, h) = back[0];
        let half = if is_top { &top } else { &bottom };
        assert_eq!(joined.coord(j).rank >= 4, is_top);
        assert_eq!(joined.coord(j).file, half.coord(h).file);
    }
    // Names after the join: bottom's a1 is a1, top's a1 is a5.
    let top_a1 = top.parse_square("a1").unwrap();
    let j = mt.iter().find(|m| m.0 == top_a1).unwrap().1;
    assert_eq!(joined.name(j), "a5");
}

#[test]
fn nomic_join_keeps_missing_squares_and_refuses_bad_pairs() {
    // A half-board with a missing square keeps it missing after the join.
    let holed = Geometry::with_mask(8, 4, |c| c != Coord::new(3, 3)).unwrap();
    let full = Geometry::rect(8, 4).unwrap();
    let (joined, mb, mt) = Geometry::join_vertically(&full, &holed).unwrap();
    assert_eq!(joined.squares().len(), 63);
    assert_eq!(mb.len(), 32);
    assert_eq!(mt.len(), 31);
    assert!(joined.parse_square("d8").is_err());
    assert!(joined.parse_square("d4").is_ok());

    let narrow = Geometry::rect(7, 4).unwrap();
    assert!(matches!(
        Geometry::join_vertically(&full, &narrow),
        Err(GeometryError::BadJoin(_))
    ));
    assert!(matches!(
        Geometry::join_vertically(&narrow, &full),
        Err(GeometryError::BadJoin(_))
    ));
    // Too tall together.
    let tall = Geometry::rect(8, 20).unwrap();
    let high = Geometry::rect(8, 10).unwrap();
    assert!(Geometry::join_vertically(&tall, &high).is_err());
    assert!(Geometry::join_vertically(&tall, &Geometry::rect(8, 6).unwrap()).is_ok());
}

#[test]
fn bad_sizes_are_refused() {
    for (f, r) in [(0, 8), (8, 0), (0, 0), (27, 8), (8, 27), (27, 27), (255, 1)] {
        assert_eq!(
            Geometry::rect(f, r),
            Err(GeometryError::BadSize(f, r)),
            "rect({f},{r})"
        );
        assert!(Geometry::with_mask(f, r, |_| true).is_err());
    }
    assert!(Geometry::cut_corners(0, 0).is_err());
    assert!(Geometry::cut_corners(27, 2).is_err());
    // The limits themselves are fine.
    assert_eq!(MAX_SIDE, 26);
    let big = Geometry::rect(26, 26).unwrap();
    assert_eq!(big.squares().len(), 676);
    assert_names_round_trip(&big);
    assert!(big.parse_square("z26").is_ok());
    assert_eq!(Geometry::rect(1, 1).unwrap().squares().len(), 1);
}

fn fide() -> arbiter::engine::ArmyId {
    Catalog::cwda().unwrap().army_by_code("fide").unwrap()
}

fn cut_rules(rule_set: RuleSet) -> Arc<Rules> {
    Arc::new(
        Rules::new(
            "ultimate-test",
            Catalog::cwda().unwrap(),
            Geometry::cut_corners(16, 2).unwrap(),
            vec![fide(), fide()],
            rule_set,
            false,
            DropRules::NONE,
            CaptureFate::LeaveBoard,
        )
        .unwrap(),
    )
}

fn place(pos: &mut Position, name: &str, abbr: &str, side: Side) {
    let rules = pos.rules().clone();
    let kind = rules.catalog.kind_by_abbr(abbr).unwrap();
    let sq = rules.geometry.parse_square(name).unwrap();
    pos.put(
        sq,
        Some(Piece {
            kind,
            side,
            army: fide(),
            promoted: false,
        }),
    );
}

/// Targets of the legal moves from one square, by name.
fn targets(pos: &mut Position, from: &str) -> BTreeSet<String> {
    let g = pos.rules().geometry.clone();
    let from = g.parse_square(from).unwrap();
    pos.legal_moves()
        .into_iter()
        .filter(|m| m.from() == Some(from))
        .map(|m| g.name(m.to().unwrap()))
        .collect()
}

fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn pieces_cannot_enter_cut_corners() {
    for rule_set in [RuleSet::Orthodox, RuleSet::KingCapture] {
        let rules = cut_rules(rule_set);
        let mut pos = Position::empty(rules.clone());
        place(&mut pos, "c2", "R", Side::WHITE);
        place(&mut pos, "h8", "K", Side::WHITE);
        place(&mut pos, "j12", "K", Side::BLACK);
        // Left of c2 are b2 and a2, both cut; below is c1 (present); up the c-file to c16;
        // right along rank 2 to n2 (o2 is cut).
        let mut expected: Vec<String> = vec!["c1".into()];
        expected.extend((3..=16).map(|r| format!("c{r}")));
        expected.extend(('d'..='n').map(|f| format!("{f}2")));
        let got = targets(&mut pos, "c2");
        assert_eq!(got, expected.iter().cloned().collect::<BTreeSet<_>>());
        assert_eq!(got.len(), 26);

        // A rook in a row next to a corner: a3 can go up and right but not down to a2.
        let mut pos = Position::empty(rules.clone());
        place(&mut pos, "a3", "R", Side::WHITE);
        place(&mut pos, "h8", "K", Side::WHITE);
        place(&mut pos, "j12", "K", Side::BLACK);
        let got = targets(&mut pos, "a3");
        assert!(!got.contains("a2") && !got.contains("a1"));
        let mut expected: Vec<String> = (4..=14).map(|r| format!("a{r}")).collect();
        expected.extend(('b'..='p').map(|f| format!("{f}3")));
        assert_eq!(got, expected.into_iter().collect::<BTreeSet<_>>());

        // Leapers: a knight on c1 would reach a2 (cut), b3, d3, e2.
        let mut pos = Position::empty(rules.clone());
        place(&mut pos, "c1", "N", Side::WHITE);
        place(&mut pos, "h8", "K", Side::WHITE);
        place(&mut pos, "j12", "K", Side::BLACK);
        assert_eq!(targets(&mut pos, "c1"), names(&["b3", "d3", "e2"]));

        // A Bede on c1: the diagonal toward b2 is cut at once, the dabbaba jump to a1 lands
        // on a cut square; e1, c3 (jumps) and d2…, (slide) remain.
        let mut pos = Position::empty(rules.clone());
        place(&mut pos, "c1", "Be", Side::WHITE);
        place(&mut pos, "h8", "K", Side::WHITE);
        place(&mut pos, "j12", "K", Side::BLACK);
        let got = targets(&mut pos, "c1");
        assert!(!got.contains("a1") && !got.contains("b2"));
        // Diagonal up-right from c1: d2, e3, … until the top-right or the right edge: p14.
        let mut expected: Vec<String> = vec!["e1".into(), "c3".into()];
        for i in 1..=13u8 {
            expected.push(format!("{}{}", file_letter(2 + i), 1 + i));
        }
        assert_eq!(got, expected.into_iter().collect::<BTreeSet<_>>());

        // A king in the corner's elbow (c3 next to b2): it may not step onto b2.
        let mut pos = Position::empty(rules.clone());
        place(&mut pos, "c3", "K", Side::WHITE);
        place(&mut pos, "j12", "K", Side::BLACK);
        assert_eq!(
            targets(&mut pos, "c3"),
            names(&["b3", "b4", "c2", "c4", "d2", "d3", "d4"])
        );

        // No move of any piece on the board ever ends on a missing square.
        for m in pos.legal_moves() {
            if let Move::Normal { to, .. } = m {
                assert!(rules.geometry.is_playable(to));
            }
        }
    }
}

fn party_rules() -> Arc<Rules> {
    Arc::new(
        Rules::new(
            "party-test",
            Catalog::cwda().unwrap(),
            Geometry::rect(20, 20).unwrap(),
            vec![fide(), fide()],
            RuleSet::KingCapture,
            false,
            DropRules::NONE,
            CaptureFate::LeaveBoard,
        )
        .unwrap(),
    )
}

#[test]
fn party_board_moves_promotions_notation_and_fen() {
    use arbiter::engine::notation;
    let rules = party_rules();
    let mut pos = Position::empty(rules.clone());
    place(&mut pos, "j10", "R", Side::WHITE);
    place(&mut pos, "b19", "P", Side::WHITE);
    place(&mut pos, "c7", "P", Side::WHITE);
    place(&mut pos, "a1", "K", Side::WHITE);
    place(&mut pos, "t20", "K", Side::BLACK);
    // A rook in the middle of an empty 20×20 board: 19 squares on its file, 19 on its rank.
    assert_eq!(targets(&mut pos, "j10").len(), 38);
    assert!(targets(&mut pos, "j10").contains("j20") && targets(&mut pos, "j10").contains("t10"));
    // Pawns promote on rank 20, not on rank 8; the double step is from rank 2 only.
    assert_eq!(targets(&mut pos, "c7"), names(&["c8"]));
    let promos: BTreeSet<String> = pos
        .legal_moves()
        .into_iter()
        .filter_map(|m| match m {
            Move::Normal {
                promotion: Some(k), ..
            } => Some(rules.catalog.def(k).abbr.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(promos, names(&["Q", "R", "B", "N"]));
    assert!(pos
        .legal_moves()
        .iter()
        .filter(|m| matches!(
            m,
            Move::Normal {
                promotion: Some(_),
                ..
            }
        ))
        .all(|m| rules.geometry.name(m.to().unwrap()) == "b20"));
    // Two-digit ranks in notation.
    let m = notation::resolve(&mut pos, "Rj10-j20", None).unwrap();
    assert_eq!(notation::format(&pos, m), "Rj10-j20");
    let m = notation::resolve(&mut pos, "b19-b20=Q", None).unwrap();
    assert_eq!(notation::format(&pos, m), "b19-b20=Q");
    assert!(notation::resolve(&mut pos, "Rj10-j21", None).is_err());
    assert!(notation::resolve(&mut pos, "Rj10-u10", None).is_err());
    // FEN with two-digit empty counts.
    let text = fen::write(&pos);
    assert!(text.starts_with("19k/1P18/20/"), "{text}");
    let back = fen::parse(rules.clone(), &text).unwrap();
    assert_eq!(back, pos, "{text}");
    assert_eq!(fen::write(&back), text);
}

#[test]
fn chex_labels_clamp_any_margin() {
    let mut g = Geometry::rect(26, 26).unwrap();
    let s = g.square(Coord::new(25, 25)).unwrap();
    let r = std::panic::catch_unwind(move || g.fit_labels(&[s], 240));
    assert_eq!(r.ok(), Some((26, 26)));
}
