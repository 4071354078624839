//! Golden-image tests of the board pictures.
//!
//! Each test renders a picture and compares its decoded pixels with
//! `tests/data/golden/NAME.png` (small tolerance). On a mismatch the actual picture is written
//! beside it as `NAME.actual.png`. `UPDATE_GOLDEN=1 cargo test --test render` rewrites the
//! golden files; `PICTURE_400=1` also writes each picture 400 px wide to the temporary
//! directory (`NAME.400.png`), to look at it as a phone shows it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arbiter::engine::{
    fen, CaptureFate, Catalog, Coord, DropRules, Geometry, HandPiece, Piece, Position, RuleSet,
    Rules, Side,
};
use arbiter::games::kfb::picture::{example_kfb, render_kfb};
use arbiter::games::pictures::clear_caches;
use arbiter::games::ultimate::picture::{
    example_ultimate, parse_cross_square, render_ultimate, CrossPiece, CrossView,
};
use arbiter::render::{
    example_table, render_position, render_table, LastMove, PlayerColour, RenderOptions, TableView,
};

use arbiter::games::party::picture as party;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden")
}

/// Compares PNG bytes with the golden picture `name`, or rewrites it under `UPDATE_GOLDEN=1`.
fn check_golden(name: &str, png: &[u8]) {
    look_at_400(name, png);
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    if let Err(why) = compare_golden(&golden_dir(), name, png, update) {
        panic!("{why}");
    }
}

/// Compares decoded pixels with `dir/NAME.png`; on a mismatch writes `dir/NAME.actual.png`
/// and says why. With `update`, writes the golden picture instead.
fn compare_golden(dir: &Path, name: &str, png: &[u8], update: bool) -> Result<(), String> {
    let expected_path = dir.join(format!("{name}.png"));
    let actual_path = dir.join(format!("{name}.actual.png"));
    if update {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        std::fs::write(&expected_path, png).map_err(|e| e.to_string())?;
        let _ = std::fs::remove_file(&actual_path);
        return Ok(());
    }
    let actual = image::load_from_memory(png)
        .map_err(|e| e.to_string())?
        .to_rgb8();
    let fail = |why: String| -> Result<(), String> {
        std::fs::write(&actual_path, png).map_err(|e| e.to_string())?;
        Err(format!(
            "{name}: {why}; the actual picture is in {} (rerun with UPDATE_GOLDEN=1 to accept it)",
            actual_path.display()
        ))
    };
    let expected = match image::open(&expected_path) {
        Ok(i) => i.to_rgb8(),
        Err(e) => {
            return fail(format!(
                "no golden picture {} ({e})",
                expected_path.display()
            ))
        }
    };
    if expected.dimensions() != actual.dimensions() {
        return fail(format!(
            "size {:?} differs from the golden {:?}",
            actual.dimensions(),
            expected.dimensions()
        ));
    }
    // Anti-aliasing may differ by a few levels between platforms; a few pixels may differ
    // more (glyph rounding): at most 0.1% of the pixels may differ by more than 12 levels.
    let off = actual
        .pixels()
        .zip(expected.pixels())
        .filter(|(a, e)| (0..3).any(|i| a.0[i].abs_diff(e.0[i]) > 12))
        .count();
    let total = (actual.width() * actual.height()) as usize;
    if off * 1000 > total {
        return fail(format!("{off} of {total} pixels differ"));
    }
    let _ = std::fs::remove_file(&actual_path);
    Ok(())
}

fn dims(png: &[u8]) -> (u32, u32) {
    let img = image::load_from_memory(png).unwrap();
    (img.width(), img.height())
}

fn rules(name: &str, geometry: Geometry, armies: &[&str]) -> Arc<Rules> {
    let cat = Catalog::cwda().unwrap();
    let ids = armies
        .iter()
        .map(|a| cat.army_by_code(a).unwrap())
        .collect();
    Arc::new(
        Rules::new(
            name,
            cat,
            geometry,
            ids,
            RuleSet::KingCapture,
            false,
            DropRules::NONE,
            CaptureFate::LeaveBoard,
        )
        .unwrap(),
    )
}

/// Puts pieces given as (square, abbreviation, side) on an empty position.
fn setup(rules: Arc<Rules>, pieces: &[(&str, &str, u8)]) -> Position {
    let mut pos = Position::empty(rules);
    for &(sq, abbr, side) in pieces {
        let r = Arc::clone(pos.rules());
        let kind = r.catalog.kind_by_abbr(abbr).unwrap();
        let army = r.side_armies[side as usize];
        let s = r.geometry.parse_square(sq).unwrap();
        pos.put(
            s,
            Some(Piece {
                kind,
                side: Side(side),
                army,
                promoted: false,
            }),
        );
    }
    pos
}

fn sq(pos: &Position, name: &str) -> arbiter::engine::Square {
    fen::square(pos, name).unwrap()
}

#[test]
fn chess_8x8() {
    let pos = arbiter::cli::position(
        "chess",
        Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
    )
    .unwrap();
    let last = LastMove::from_text(&pos, "Nb8-c6").unwrap();
    let png = render_position(&pos, Some(last), &RenderOptions::default()).unwrap();
    let (w, h) = dims(&png);
    assert!(w >= 8 * 64 && h >= 8 * 64);
    check_golden("chess_8x8", &png);
}

#[test]
fn cwda_armies_8x8() {
    // Every army's pieces: Clobberers and Rookies on one board, Nutty and Forward on another.
    let pos = arbiter::cli::position(
        "kcwda:clobberers-rookies",
        Some("r{wr}{hd}{ch}k{hd}{wr}r/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/{Be}{W}{FAD}{Ca}K{FAD}{W}{Be} w - - 0 2"),
    )
    .unwrap();
    let last = LastMove::from_text(&pos, "e7-e5").unwrap();
    let png = render_position(&pos, Some(last), &RenderOptions::default()).unwrap();
    check_golden("cwda_clobberers_rookies", &png);

    let pos = arbiter::cli::position("kcwda:nutty-forward", None).unwrap();
    let png = render_position(
        &pos,
        None,
        &RenderOptions {
            flipped: true,
            ..RenderOptions::default()
        },
    )
    .unwrap();
    check_golden("cwda_nutty_forward_flipped", &png);
}

#[test]
fn crazyhouse_hands_and_drop() {
    let pos = arbiter::cli::position(
        "kcwdazh:fide-nutty",
        Some("{cr}{fb}{cn}{co}k{cn}1{cr}/ppp2ppp/5{fb}2/3p4/3Q4/5N2/PPP2PPP/RNB1KB1R[{CN}PP{co}ppb] w - - 0 6"),
    )
    .unwrap();
    let last = LastMove {
        drop: Some(sq(&pos, "d4")),
        ..LastMove::default()
    };
    let png = render_position(&pos, Some(last), &RenderOptions::default()).unwrap();
    check_golden("crazyhouse_hands", &png);
}

#[test]
fn board_20x20() {
    let r = rules(
        "party-test",
        Geometry::rect(20, 20).unwrap(),
        &["fide", "nutty"],
    );
    let pos = setup(
        r,
        &[
            ("a1", "R", 0),
            ("j10", "K", 0),
            ("k10", "Q", 0),
            ("e5", "N", 0),
            ("t1", "B", 0),
            ("c3", "P", 0),
            ("j11", "K", 1),
            ("t20", "CR", 1),
            ("a20", "Co", 1),
            ("m14", "Fb", 1),
            ("p12", "CN", 1),
        ],
    );
    let last = LastMove {
        from: Some(sq(&pos, "j9")),
        to: Some(sq(&pos, "j10")),
        ..LastMove::default()
    };
    let png = render_position(&pos, Some(last), &RenderOptions::default()).unwrap();
    let (w, _) = dims(&png);
    assert!(w <= 1100, "20×20 picture too wide: {w}");
    check_golden("board_20x20", &png);
}

#[test]
fn board_16x16_cut_corners_four_players() {
    let r = rules(
        "ultimate-test",
        Geometry::cut_corners(16, 2).unwrap(),
        &["fide", "fide", "fide", "fide"],
    );
    assert!(r.geometry.parse_square("a1").is_err(), "a1 is cut");
    let pos = setup(
        r,
        &[
            ("h1", "K", 0),
            ("i1", "Q", 0),
            ("g2", "P", 0),
            ("h2", "P", 0),
            ("i16", "K", 1),
            ("h16", "Q", 1),
            ("h15", "P", 1),
            ("a8", "K", 2),
            ("a9", "R", 2),
            ("b8", "P", 2),
            ("p9", "K", 3),
            ("p8", "N", 3),
            ("o9", "P", 3),
        ],
    );
    let opts = RenderOptions {
        side_colours: vec![
            PlayerColour::Rgb(200, 200, 210),
            PlayerColour::Red,
            PlayerColour::Black,
            PlayerColour::LightGreen,
        ],
        caption: Some("Ultimate Chess · silver to move".into()),
        ..RenderOptions::default()
    };
    let png = render_position(&pos, None, &opts).unwrap();
    check_golden("board_16x16_cut", &png);
}

#[test]
fn half_board_8x4() {
    let r = rules(
        "half-test",
        Geometry::rect(8, 4).unwrap(),
        &["fide", "clobberers"],
    );
    let pos = setup(
        r,
        &[
            ("e1", "K", 0),
            ("a1", "R", 0),
            ("d2", "P", 0),
            ("e4", "K", 1),
            ("c4", "Ca", 1),
            ("f3", "W", 1),
        ],
    );
    let png = render_position(&pos, None, &RenderOptions::default()).unwrap();
    check_golden("half_board_8x4", &png);
}

#[test]
fn grown_board_labels_shift() {
    // A Chex-like board: a large internal area whose labels start where the pieces are.
    let mut g = Geometry::rect(12, 12).unwrap();
    let occupied: Vec<_> = [(4, 4), (5, 5), (7, 6), (6, 8)]
        .iter()
        .filter_map(|&(f, r)| g.square(Coord::new(f, r)))
        .collect();
    g.fit_labels(&occupied, 1);
    let origin = g.label_origin();
    assert_eq!((origin.file, origin.rank), (3, 3));
    let r = rules("chex-test", g, &["fide", "fide"]);
    let mut pos = Position::empty(Arc::clone(&r));
    let put = |pos: &mut Position, f, rk, abbr: &str, side| {
        let s = r.geometry.square(Coord::new(f, rk)).unwrap();
        let kind = r.catalog.kind_by_abbr(abbr).unwrap();
        pos.put(
            s,
            Some(Piece {
                kind,
                side: Side(side),
                army: r.side_armies[0],
                promoted: false,
            }),
        );
        s
    };
    let a = put(&mut pos, 4, 4, "K", 0);
    put(&mut pos, 5, 5, "N", 0);
    put(&mut pos, 7, 6, "K", 1);
    let d = put(&mut pos, 6, 8, "Q", 1);
    assert_eq!(r.geometry.name(a), "b2");
    assert_eq!(r.geometry.name(d), "d6");
    let last = LastMove {
        from: r.geometry.parse_square("f6").ok(),
        to: Some(d),
        ..LastMove::default()
    };
    let png = render_position(&pos, Some(last), &RenderOptions::default()).unwrap();
    check_golden("grown_board", &png);
}

#[test]
fn kfb_three_boards() {
    let view = example_kfb().unwrap();
    assert!(view.boards[1].frozen);
    let png = render_kfb(&view).unwrap();
    let (w, h) = dims(&png);
    assert!(w > 3 * 8 * 64 && h > 8 * 64);
    check_golden("kfb", &png);
}

/// Issue 55: the picture that answers a move draws its board large and the other two
/// smaller under it, so that at 400 px wide (a phone) its squares are at least 28 px.
#[test]
fn kfb_moved_board_large() {
    let mut view = example_kfb().unwrap();
    view.focus = Some(1);
    let png = render_kfb(&view).unwrap();
    let (w, _) = dims(&png);
    assert!(
        64 * 400 / w >= 28,
        "{w} px wide: squares of {} px at 400",
        64 * 400 / w
    );
    check_golden("kfb_moved_board_2", &png);
}

fn cells(row: &[&str]) -> Vec<String> {
    row.iter().map(|c| c.to_string()).collect()
}

#[test]
fn standings_table() {
    // The benchmark's example table is the standings of this test.
    let view = arbiter::render::example_table();
    let png = render_table(&view).unwrap();
    let (w, h) = dims(&png);
    assert!(w < 1200 && h < 500, "{w}×{h}");
    check_golden("table_standings", &png);
}

#[test]
fn table_of_1000_rows_is_cut_to_60() {
    let view = TableView {
        title: "Everyone".into(),
        header: cells(&["#", "Player", "Score"]),
        rows: (1..=1000)
            .map(|i| vec![i.to_string(), format!("Player {i}"), format!("{}", i % 7)])
            .collect(),
        highlight: vec![0],
        dimmed: (500..1000).collect(),
    };
    let png = render_table(&view).unwrap();
    assert!(png.len() < 8 * 1024 * 1024, "{} bytes", png.len());
    let img = image::load_from_memory(&png).unwrap();
    let (w, h) = (img.width(), img.height());
    assert!((200..1000).contains(&w), "width {w}");
    // Title, header band, 60 rows and the "… and 940 more" row, about 28 px each.
    assert!((61 * 20..64 * 40).contains(&h), "height {h}");

    // The same 60 rows with nothing left out draw a picture one row shorter.
    let mut short = view.clone();
    short.rows.truncate(60);
    let short_h = dims(&render_table(&short).unwrap()).1;
    assert!(short_h < h, "{short_h} vs {h}");
}

#[test]
fn empty_and_odd_tables_draw() {
    let empty = TableView {
        title: "Round 1".into(),
        header: cells(&["#", "Team", "Score"]),
        ..TableView::default()
    };
    let with_one = TableView {
        rows: vec![cells(&["1", "A", "0"])],
        ..empty.clone()
    };
    let (_, h0) = dims(&render_table(&empty).unwrap());
    let (_, h1) = dims(&render_table(&with_one).unwrap());
    assert_eq!(h0, h1, "the \"no entries\" line takes one row");

    let odd = TableView {
        title: "Ünïcødé ✓ 漢字 🏆 \u{0}".into(),
        header: cells(&["a"]),
        rows: vec![
            cells(&["x", "extra", "cells"]),
            vec![],
            vec!["ĉ".repeat(500)],
            cells(&["\u{202e}rtl\u{feff}", "\t\n"]),
        ],
        highlight: vec![3, 1_000_000],
        dimmed: vec![usize::MAX],
    };
    let png = render_table(&odd).unwrap();
    let (w, _) = dims(&png);
    assert!(w < 1000, "a 500-character cell is cut: {w}");
}

#[test]
fn kfb_hand_piece_is_held() {
    // The HandPiece type stays usable by callers that build hands themselves.
    let pos = arbiter::cli::position("kcwdazh:fide-fide", None).unwrap();
    let mut pos2 = pos.clone();
    let hp = HandPiece {
        kind: pos.rules().catalog.kind_by_abbr("Q").unwrap(),
        colour: arbiter::engine::Colour(1),
        army: pos.rules().side_armies[1],
        promoted: false,
    };
    pos2.hand_mut(Side(0)).add(hp);
    let a = render_position(&pos, None, &RenderOptions::default()).unwrap();
    let b = render_position(&pos2, None, &RenderOptions::default()).unwrap();
    assert_ne!(a, b);
}

#[test]
fn cli_writes_a_png_and_rejects_bad_input() {
    let dir = std::env::temp_dir().join(format!("arbiter-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("board.png");
    let start = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    arbiter::render::render_cli("chess", start, Some("e2-e4"), &out).unwrap();
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    assert!(arbiter::render::render_cli("chess", start, Some("e2-e9"), &out).is_err());
    assert!(arbiter::render::render_cli("nochess", start, None, &out).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

/// `cargo test --release --test render -- --ignored --nocapture bench` prints the timings.
#[test]
#[ignore]
fn bench() {
    let report = arbiter::bench::pictures::bench(21).unwrap();
    println!("{report}");
    let replays = arbiter::bench::replays::bench().unwrap();
    print!("{}", arbiter::bench::replays::bench_text(&replays));
}

#[test]
fn golden_mismatch_writes_the_actual_picture() {
    let dir = std::env::temp_dir().join(format!("arbiter-golden-{}", std::process::id()));
    let pos = arbiter::cli::position("chess", None).unwrap();
    let a = render_position(&pos, None, &RenderOptions::default()).unwrap();
    let last = LastMove::from_text(&pos, "e2-e4").unwrap();
    let b = render_position(&pos, Some(last), &RenderOptions::default()).unwrap();
    compare_golden(&dir, "t", &a, true).unwrap();
    compare_golden(&dir, "t", &a, false).unwrap();
    assert!(!dir.join("t.actual.png").exists());
    let err = compare_golden(&dir, "t", &b, false).unwrap_err();
    assert!(err.contains("pixels differ"), "{err}");
    assert_eq!(std::fs::read(dir.join("t.actual.png")).unwrap(), b);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn last_move_from_text() {
    let pos = arbiter::cli::position(
        "chess",
        Some("r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R4RK1 b kq - 5 8"),
    )
    .unwrap();
    let castle = LastMove::from_text(&pos, "0-0").unwrap();
    assert_eq!(castle.to, Some(sq(&pos, "g1")));
    assert_eq!(castle.others, vec![sq(&pos, "f1")]);
    let promo = LastMove::from_text(&pos, "b7xa8=Q+").unwrap();
    assert_eq!(
        (promo.from, promo.to),
        (Some(sq(&pos, "b7")), Some(sq(&pos, "a8")))
    );
    let drop = LastMove::from_text(&pos, "Ca@d4").unwrap();
    assert_eq!(drop.drop, Some(sq(&pos, "d4")));
    assert!(LastMove::from_text(&pos, "zz").is_err());
}

fn names(n: [&str; 4]) -> [String; 4] {
    n.map(String::from)
}

#[test]
fn ultimate_start_array() {
    let mut view = CrossView::start(names(["Ann", "Bartholomew", "Zoë", "Dana"]));
    view.title = "Ultimate Chess · standard".into();
    let png = render_ultimate(&view).unwrap();
    let (w, h) = dims(&png);
    assert!(w <= 1000 && h <= 1100, "{w}×{h}");
    check_golden("ultimate_start", &png);
}

#[test]
fn ultimate_busy_position() {
    let view = example_ultimate();
    assert_eq!(view.defeated, vec![4]);
    assert_eq!(view.in_check, vec![3]);
    let png = render_ultimate(&view).unwrap();
    check_golden("ultimate_busy", &png);
    // No larger than the KFB picture.
    let kfb = render_kfb(&example_kfb().unwrap()).unwrap();
    assert!(png.len() <= kfb.len(), "{} > {}", png.len(), kfb.len());
}

#[test]
fn ultimate_odd_input_does_not_panic() {
    let letters = ['K', 'Q', 'R', 'B', 'N', 'W', 'M', 'P', 'Z', 'ж'];
    // Every square full, the cut corners too; seats out of range; unknown letters.
    let mut full = CrossView::default();
    for f in 0..16 {
        for r in 0..16 {
            full.squares[f][r] = Some(CrossPiece {
                letter: letters[(f + r) % letters.len()],
                seat: ((f * 16 + r) % 6) as u8,
                neutral: (f + r) % 7 == 0,
            });
        }
    }
    full.to_move = Some(9);
    full.in_check = vec![0, 1, 2, 3, 4, 5, 255];
    full.defeated = vec![0, 3, 200];
    full.controllers = vec![(1, 1), (2, 9), (3, 4), (4, 3), (0, 0), (4, 2)];
    full.last_move = Some(((0, 0), (255, 255)));
    full.last_others = vec![(15, 15), (16, 3), (7, 7)];
    let start = render_ultimate(&CrossView::start(Default::default())).unwrap();
    let size = dims(&start);
    assert_eq!(dims(&render_ultimate(&full).unwrap()), size);

    // Long, empty and odd names, title and note: the picture keeps its size.
    let mut odd = CrossView::start([
        "x".repeat(500),
        "漢字🏆\u{0}\u{202e}rtl\u{feff}".into(),
        "Ünïcødé ✓ Ærøskøbing Ζωή".into(),
        " \t\n ".into(),
    ]);
    odd.title = "ĉ".repeat(300);
    odd.note = "a draw is offered ".repeat(40);
    odd.to_move = Some(3);
    odd.in_check = vec![3, 3, 1];
    odd.defeated = vec![4, 4];
    odd.controllers = vec![(4, 1)];
    assert_eq!(dims(&render_ultimate(&odd).unwrap()), size);
    odd.to_move = None;
    odd.note.clear();
    assert_eq!(dims(&render_ultimate(&odd).unwrap()), size);
}

#[test]
fn ultimate_state_changes_the_picture() {
    let base = CrossView::start(names(["Ann", "Ben", "Cy", "Di"]));
    let plain = render_ultimate(&base).unwrap();
    let changed = |f: &dyn Fn(&mut CrossView)| {
        let mut v = base.clone();
        f(&mut v);
        render_ultimate(&v).unwrap() != plain
    };
    assert!(changed(&|v| v.in_check = vec![2]), "check");
    assert!(changed(&|v| v.defeated = vec![3]), "defeated");
    assert!(changed(&|v| v.to_move = Some(4)), "turn");
    assert!(
        changed(&|v| {
            v.shift("e2", "e5");
        }),
        "last move"
    );
    assert!(changed(&|v| v.names[1] = "Bea".into()), "name");
    assert!(changed(&|v| v.controllers = vec![(3, 1)]), "controller");
    let h1 = parse_cross_square("h1").unwrap();
    assert!(
        changed(&|v| {
            v.set(h1, Some(CrossPiece::obstacle('K', 1)));
        }),
        "obstacle"
    );
    // Pieces on cut corners are not drawn.
    assert!(
        !changed(&|v| v.squares[0][0] = Some(CrossPiece::new('Q', 1))),
        "a1 is cut"
    );
    assert!(!changed(&|v| v.in_check = vec![7]), "no seat 7");
}

/// Every picture of the benchmark and a few more (hands, a flipped fairy board, a frozen
/// board, obstacles and a check glow), as PNG bytes from the renderer in use.
fn sample_pictures() -> Vec<(&'static str, Vec<u8>)> {
    let chess = arbiter::cli::position("chess", None).unwrap();
    let last = LastMove::from_text(&chess, "e2-e4").unwrap();
    let cwda = arbiter::cli::position("kcwda:clobberers-nutty", None).unwrap();
    let house = arbiter::cli::position(
        "kcwdazh:fide-nutty",
        Some("{cr}{fb}{cn}{co}k{cn}1{cr}/ppp2ppp/5{fb}2/3p4/3Q4/5N2/PPP2PPP/RNB1KB1R[{CN}PP{co}ppb] w - - 0 6"),
    )
    .unwrap();
    let flipped = RenderOptions {
        flipped: true,
        ..RenderOptions::default()
    };
    vec![
        (
            "chess",
            render_position(&chess, Some(last), &RenderOptions::default()).unwrap(),
        ),
        (
            "cwda flipped",
            render_position(&cwda, None, &flipped).unwrap(),
        ),
        (
            "crazyhouse",
            render_position(&house, None, &RenderOptions::default()).unwrap(),
        ),
        ("kfb", render_kfb(&example_kfb().unwrap()).unwrap()),
        ("ultimate", render_ultimate(&example_ultimate()).unwrap()),
        ("table", render_table(&example_table()).unwrap()),
        (
            "party",
            party::render_party(&party::example_party().unwrap()).unwrap(),
        ),
    ]
}

/// Pictures drawn from fresh caches and from warm ones are the same, byte for byte (a tile or
/// a laid-out text is never reused for something else).
#[test]
fn cached_pictures_equal_fresh_ones() {
    clear_caches();
    let cold = sample_pictures();
    let warm = sample_pictures();
    clear_caches();
    let again = sample_pictures();
    for (((name, c), (_, w)), (_, a)) in cold.iter().zip(&warm).zip(&again) {
        assert!(c == w, "{name}: warm differs from cold");
        assert!(c == a, "{name}: differs after clearing the caches");
    }
}

/// The Party Chess picture of a busy position (a Tornado's chain just played, drawn as
/// arrows; HarfyBlob ranges on their squares; the panel below the board): no larger than
/// the KFB picture.
#[test]
fn party_busy_position() {
    let png = party::render_party(&party::example_party().unwrap()).unwrap();
    let (w, h) = dims(&png);
    assert!(w <= 900 && h <= 1200, "{w}×{h}");
    check_golden("party_busy", &png);
    let kfb = render_kfb(&example_kfb().unwrap()).unwrap();
    assert!(png.len() <= kfb.len(), "{} > {}", png.len(), kfb.len());
}

/// An Archer's stand-off shot drawn as a red arrow (the Archer stays) and a Qball's bounce
/// as a bent arrow, seven Swingers in the Play List.
#[test]
fn party_archer_shot_and_qball_bounce() {
    use arbiter::games::party::{Game, NewGame, Request};
    let names = ["ann", "ben", "cat", "dan", "eve", "fay", "gus"];
    let position = "{K3}18{K4}/20/20/20/20/20/20/20/3{P2}16/20/20/20/3{A1}16/20/20/20/20/4{Q2}15/20/{K1}2{K5}2{K6}2{K7}9{K2} [1:{H:4}R] 1,2,3,4,5,6,7 1:-,2:-,3:-,4:-,5:-,6:-,7:-";
    let mut g = Game::create(
        NewGame {
            swingers: names.map(String::from).to_vec(),
            umpire: "uma".into(),
            position: Some(position.into()),
            ..NewGame::default()
        },
        "org",
        0,
    )
    .unwrap();
    g.apply("ann", false, Request::Play("Ad8xd12".into()), 60, "/move")
        .unwrap();
    let shot = party::view_of(&g);
    assert_eq!(shot.arrow.as_ref().map(|a| a.1), Some(true));
    check_golden("party_shot", &party::render_party(&shot).unwrap());
    g.apply(
        "ben",
        false,
        Request::Play("Qe3-c1-a3".into()),
        120,
        "/move",
    )
    .unwrap();
    let bounce = party::view_of(&g);
    let path: Vec<String> = bounce
        .arrow
        .clone()
        .unwrap()
        .0
        .iter()
        .map(|s| s.name())
        .collect();
    assert_eq!(path, ["e3", "c1", "a3"]);
}

// ----- issue 39: Ultimate pictures --------------------------------------------------------

/// An Ultimate position text from `square=piece` pairs and the fields after the placement.
fn ultimate_board(spec: &str, rest: &str) -> String {
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

fn ultimate_game(position: &str, move_limit: Option<u64>) -> arbiter::games::ultimate::Game {
    use arbiter::games::ultimate::{Game, NewGame, Seating};
    let mut n = NewGame::new(Seating::Named(
        ["ann", "ben", "cat", "dan"].map(String::from),
    ));
    n.position = Some(position.to_string());
    n.move_limit = move_limit;
    Game::create(n, "org", 1_767_225_600).unwrap()
}

/// Saves a 400 px wide copy of a picture in the temporary directory when `PICTURE_400=1`
/// (every golden picture goes through it), to look at it as a phone shows it.
fn look_at_400(name: &str, png: &[u8]) {
    if std::env::var_os("PICTURE_400").is_some_and(|v| v == "1") {
        let img = image::load_from_memory(png).unwrap().to_rgb8();
        let h = img.height() * 400 / img.width();
        let small = image::imageops::resize(&img, 400, h, image::imageops::FilterType::Triangle);
        small
            .save(std::env::temp_dir().join(format!("{name}.400.png")))
            .unwrap();
    }
}

#[test]
fn ultimate_game_over_after_the_organisers_concession_names_the_result() {
    use arbiter::games::ultimate::Request;
    // Red and Black are out; Silver overruns and the organiser concedes for them.
    let mut g = ultimate_game(
        &ultimate_board("h1=K1 e2=P1 p8=K4 o6=P4", "1 - 2,3 standard -"),
        Some(60),
    );
    let concede = Request::OrganiserConcede {
        player: "ann".into(),
        to: None,
    };
    g.apply(
        "org",
        concede,
        1_767_225_600 + 120,
        "/ultimate concede player:@ann",
    )
    .unwrap();
    let view = arbiter::games::ultimate::adapter::cross_view(&g);
    assert_eq!(
        view.note,
        "Green (dan) wins · Silver (ann) conceded by the organiser"
    );
    let png = render_ultimate(&view).unwrap();
    check_golden("ultimate_conceded_end", &png);
}

#[test]
fn ultimate_game_over_by_mate_says_who_mated_whom() {
    use arbiter::games::ultimate::Request;
    let mut g = ultimate_game(
        &ultimate_board("h1=K1 o3=R1 l10=Q1 p8=K4", "1 - 2,3 standard -"),
        None,
    );
    g.apply(
        "ann",
        Request::Move("Ql10-p10".into()),
        1_767_225_660,
        "/move Ql10-p10",
    )
    .unwrap();
    let view = arbiter::games::ultimate::adapter::cross_view(&g);
    assert_eq!(
        view.note,
        "Silver (ann) wins · Silver (ann) mated Green (dan)"
    );
    let png = render_ultimate(&view).unwrap();
    check_golden("ultimate_mated_end", &png);
}

#[test]
fn ultimate_black_to_move_beside_a_defeated_seat() {
    // Black's dot in the header is ringed so that it shows on the dark page; Red's plate,
    // defeated, is written light enough to read.
    let mut view = CrossView::start(names(["Ann", "Bartholomew", "Zoë", "Dana"]));
    view.title = "Ultimate Chess · #12".into();
    view.to_move = Some(3);
    view.defeated = vec![2];
    let png = render_ultimate(&view).unwrap();
    check_golden("ultimate_black_to_move", &png);
}

/// A Party Chess position text from `square=piece` pairs (`c3=K1 e5=H2:3`).
fn party_board(spec: &str) -> String {
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

/// A Party Chess game from a position (Swingers ann, ben, cat, … by seat), with `plays`
/// played in turn.
fn party_game(position: &str, n: usize, plays: &[(&str, &str)]) -> arbiter::games::party::Game {
    use arbiter::games::party::{Game, NewGame, Request};
    let names = [
        "ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim",
    ];
    let mut g = Game::create(
        NewGame {
            swingers: names[..n].iter().map(|s| s.to_string()).collect(),
            umpire: "uma".into(),
            position: Some(position.into()),
            ..NewGame::default()
        },
        "org",
        0,
    )
    .unwrap();
    for (i, (user, play)) in plays.iter().enumerate() {
        g.apply(
            user,
            false,
            Request::Play((*play).to_string()),
            60 * (i as u64 + 1),
            "/move",
        )
        .unwrap();
    }
    g
}

/// Issue 39: two Kings in check framed on their squares, who is to play said in words in
/// the title, the last play's arrow in a colour no seat uses, and seat numbers on white
/// badges (eleven Swingers: two-digit seats).
#[test]
fn party_check_marked_and_who_is_to_play() {
    let spec =
        "a20=K1 j8=R1 j1=K2 p5=K3 c18=K4 e18=K5 g18=K6 i18=K7 k18=K8 m18=K9 o18=K10 q18=K11 \
                l12=B10 n12=J11 e12=H9:3";
    let seats: Vec<String> = (1..=11).map(|s| s.to_string()).collect();
    let echo: Vec<String> = (1..=11).map(|s| format!("{s}:-")).collect();
    let position = format!(
        "{} [] {} {}",
        party_board(spec),
        seats.join(","),
        echo.join(",")
    );
    let g = party_game(&position, 11, &[("ann", "Rj8-j5")]);
    let view = party::view_of(&g);
    assert_eq!(view.checked_kings.len(), 2);
    assert_eq!(view.to_play, "ben (blue) to play");
    check_golden("party_check", &party::render_party(&view).unwrap());
}

/// Issue 39: a Demon promoted by the last play is marked on its square; a Demon inside a
/// box (it may promote after a move) gets a gold corner.
#[test]
fn party_demon_promotion_marked() {
    let position = format!(
        "{} [] 1,2 1:-,2:-",
        party_board("a1=K1 h8=D1 i9=D1 g6=R1 k10=R1 t1=R1 t20=K2 e15=D2")
    );
    let g = party_game(&position, 2, &[("ann", "Rt1-t2 Dh8=H")]);
    let view = party::view_of(&g);
    let names: Vec<String> = view.promoted.iter().map(|s| s.name()).collect();
    assert_eq!(names, ["h8"]);
    let may: Vec<String> = view.demons_may.iter().map(|s| s.name()).collect();
    assert_eq!(may, ["i9"]);
    check_golden("party_demon", &party::render_party(&view).unwrap());
}

/// Issue 39: a Qball's scratch is shown as such (a cross on the corner it reached; the last
/// line says it went back off the board).
#[test]
fn party_scratch_shown() {
    let position = format!(
        "{} [] 1,2 1:-,2:-",
        party_board("b1=K1 e5=Q1 t20=K2 p16=R2")
    );
    let g = party_game(&position, 2, &[("ann", "Qe5-a1")]);
    let view = party::view_of(&g);
    assert_eq!(view.scratch.map(|s| s.name()), Some("a1".to_string()));
    assert!(view
        .last_text
        .as_ref()
        .is_some_and(|(t, _)| t.contains("scratch")));
    check_golden("party_scratch", &party::render_party(&view).unwrap());
}

/// A Chex game from a position text (White wes, Black bea, seed 7), with plays applied.
fn chex_game(position: &str, plays: &[(&str, &str)]) -> arbiter::games::chex::Game {
    use arbiter::games::chex::{Game, NewGame, Request};
    let mut new = NewGame::new("wes", "bea", 7);
    new.position = Some(position.into());
    let mut g = Game::create(new, "org", 0).unwrap();
    for (i, (user, text)) in plays.iter().enumerate() {
        let req = match *text {
            "draw" => Request::Draw {
                square: None,
                turn: None,
            },
            t => Request::Move {
                text: t.into(),
                turn: None,
            },
        };
        g.apply(user, req, 60 * (i as u64 + 1), "/move").unwrap();
    }
    g
}

/// Issue 39: a Chex game won by a King capture: the result in the title wraps (never cut),
/// and Black's pieces left show on the dark panel on light tiles.
#[test]
fn chex_result_title_wrapped() {
    let g = chex_game(
        "4/1Qk1/4 [KRRBBNNPPPPPPPP qrrbbnnpppppppp] w -1,-1 -",
        &[("wes", "Qb2xc2")],
    );
    let view = arbiter::games::chex::picture::chex_view(&g);
    assert_eq!(
        view.status,
        "White (wes) wins (Black (bea)'s King is captured)"
    );
    let png = arbiter::games::chex::picture::render_chex(&view).unwrap();
    check_golden("chex_result_title_wrapped", &png);
    // Longer names: the result goes on over a second line, whole.
    let mut long = view.clone();
    long.status =
        "White (wesley_the_patient) wins (Black (beatrice_of_the_long_name)'s King is captured)"
            .into();
    let png = arbiter::games::chex::picture::render_chex(&long).unwrap();
    let (_, h) = dims(&png);
    let (_, h1) = dims(&arbiter::games::chex::picture::render_chex(&view).unwrap());
    assert_eq!(h, h1 + 26, "one more line in the header");
    check_golden("chex_long_title_wrapped", &png);
}

/// Issue 39: after a move that shrinks the board on the left, the squares keep their
/// colours (the bishop's stays light), the last move reads in the new labels (`Na2-c3`,
/// marked on a2 and c3), and Black's drawn Rook shows on the panel.
#[test]
fn chex_relabelled_colours_and_last_move() {
    let g = chex_game(
        "5/1NBp1/5 [KQRRBNPPPPPPPP kqrrbbnnppppppp] w 0,0 -",
        &[("wes", "Nb2-d3"), ("bea", "draw")],
    );
    let view = arbiter::games::chex::picture::chex_view(&g);
    assert_eq!(view.last_text.as_deref(), Some("Na2-c3"));
    assert_eq!(view.last, Some((Some((0, 1)), (2, 2))));
    assert!(!view.dark(1, 1), "the bishop's square (2,1) is light");
    let png = arbiter::games::chex::picture::render_chex(&view).unwrap();
    check_golden("chex_relabelled", &png);
}

/// A Nomic Chess game from a position text (Referee ref, seed 1), created at time 0.
fn nomic_game(players: &[&str], position: &str) -> arbiter::games::nomic::Game {
    use arbiter::games::nomic::{Game, NewGame, Settings};
    Game::create(
        NewGame {
            players: players.iter().map(|p| p.to_string()).collect(),
            settings: Settings {
                referees: vec!["ref".into()],
                seed: 1,
                ..Settings::default()
            },
            order: None,
            position: Some(position.into()),
        },
        "org",
        0,
    )
    .unwrap()
}

fn nomic_png(g: &arbiter::games::nomic::Game) -> Vec<u8> {
    arbiter::games::nomic::picture::render_nomic(&arbiter::games::nomic::adapter::nomic_view(
        g, 100,
    ))
    .unwrap()
}

/// Issue 39: the Nomic panel is never cut at the bottom (five players, no join yet).
#[test]
fn nomic_panel_holds_every_line() {
    let g = nomic_game(
        &["zoe", "yan", "xia", "wes", "val"],
        "8/8/8/4{K1}3 8/8/8/4{K2}3 8/8/8/4{K3}3 8/8/8/4{K4}3 8/8/8/4{K5}3 1:1,2:2,3:3,4:4,5:5 1,2,3,4,5 - 1 1 - - - -",
    );
    let view = arbiter::games::nomic::adapter::nomic_view(&g, 100);
    assert!(view.lines.len() >= 8, "{:?}", view.lines);
    check_golden("nomic_panel", &nomic_png(&g));
}

/// Issue 39: who plays an army is a disc with that player's initial (`?` pending), named in
/// the legend; a king in check glows red on J and on its half.
#[test]
fn nomic_controller_discs_and_check() {
    use arbiter::games::nomic::Action;
    let mut g = nomic_game(
        &["zoe", "yan", "xia", "wes"],
        "8/8/8/{K1}6{R1} 8/8/3{P2}4/4{K2}3 8/8/8/4{K3}3 8/8/8/1{N4}2{K4}3 1:1,2:1,3:3,4:? 1,2,3,4 - 1 1 - - - -",
    );
    let push = Action::Push {
        join: arbiter::games::nomic::Join { bottom: 0, top: 2 },
    };
    g.apply("zoe", push, 10, "/push bottom:A top:C").unwrap();
    let r = g
        .apply(
            "zoe",
            Action::Move {
                notation: "Rh1-h8".into(),
            },
            20,
            "/move Rh1-h8",
        )
        .unwrap();
    assert!(r.text.contains("Rh1-h8+"), "{}", r.text);
    let view = arbiter::games::nomic::adapter::nomic_view(&g, 100);
    let j = view.join.as_ref().expect("J");
    assert_eq!(j.check, vec![(3, 7)], "the king on J d8");
    assert_eq!(view.halves[2].check, vec![(4, 0)], "C:e1");
    assert!(
        view.lines
            .iter()
            .any(|l| l.contains("Disc on a piece: the player who plays its army: Z zoe; ? pending")),
        "{:?}",
        view.lines
    );
    check_golden("nomic_discs_check", &nomic_png(&g));
}

/// Issue 39: an army checkmated at a push is framed on its king's square, and the panel
/// says who may take it.
#[test]
fn nomic_mated_at_the_push_and_offered() {
    use arbiter::games::nomic::Action;
    let mut g = nomic_game(
        &["zoe", "yan", "xia"],
        "8/8/8/{K1}2{R1}4 8/8/8/4{K2}3 8/8/{P3}7/4{K3}3 1:1,2:2,3:3 1,2,3 - 1 1 - - - -",
    );
    let push = Action::Push {
        join: arbiter::games::nomic::Join { bottom: 0, top: 1 },
    };
    let r = g.apply("zoe", push, 10, "/push bottom:A top:B").unwrap();
    assert!(r.text.contains("Army 2 is checkmated"), "{}", r.text);
    let view = arbiter::games::nomic::adapter::nomic_view(&g, 100);
    assert_eq!(
        view.join.as_ref().map(|j| j.mated.clone()),
        Some(vec![(3, 7)])
    );
    assert!(
        view.lines
            .iter()
            .any(|l| l.contains("Army 2 is checkmated: offered to zoe")),
        "{:?}",
        view.lines
    );
    check_golden("nomic_mated_offered", &nomic_png(&g));
}

// ----- replays (issue 44) ---------------------------------------------------------------

use arbiter::bench::fixtures::example_game;
use arbiter::commands::ThreadGame;
use arbiter::layer::log::Folded;
use arbiter::layer::replay::ReplayOptions;
use arbiter::render::animation::{Speed, CAPTION_HEIGHT};

/// A replay decoded as a viewer shows it: the screen's size, and each frame composed over
/// the ones before it, with its delay. Checks that every frame lies within the screen.
fn decode_replay(gif_bytes: &[u8]) -> ((u32, u32), Vec<(image::RgbImage, u16)>) {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut d = opts.read_info(gif_bytes).unwrap();
    let (w, h) = (u32::from(d.width()), u32::from(d.height()));
    let palette = d.global_palette().unwrap().to_vec();
    let mut screen = image::RgbImage::new(w, h);
    let mut frames = Vec::new();
    // A frame shown for an instant (a fiftieth of a second: the caption band's rectangle,
    // issue 55) is part of the next one.
    let mut instant = 0;
    while let Some(f) = d.read_next_frame().unwrap() {
        assert!(f.palette.is_none(), "one palette for the whole replay");
        let (fl, ft, fw, fh) = (
            u32::from(f.left),
            u32::from(f.top),
            u32::from(f.width),
            u32::from(f.height),
        );
        assert!(fl + fw <= w && ft + fh <= h, "a frame outside the screen");
        for y in 0..fh {
            for x in 0..fw {
                let i = f.buffer[(y * fw + x) as usize];
                if Some(i) == f.transparent {
                    continue;
                }
                let c = &palette[usize::from(i) * 3..usize::from(i) * 3 + 3];
                screen.put_pixel(fl + x, ft + y, image::Rgb([c[0], c[1], c[2]]));
            }
        }
        if f.delay == 2 {
            instant += f.delay;
            continue;
        }
        frames.push((screen.clone(), f.delay + instant));
        instant = 0;
    }
    ((w, h), frames)
}

/// The share of a picture's pixels that differ by more than `levels` from the screen below
/// the caption band (a picture smaller than the screen is compared where it lies).
fn off_share(screen: &image::RgbImage, png: &[u8], levels: u8) -> f64 {
    let pic = image::load_from_memory(png).unwrap().to_rgb8();
    assert!(pic.width() <= screen.width() && pic.height() + CAPTION_HEIGHT <= screen.height());
    let off = pic
        .enumerate_pixels()
        .filter(|(x, y, p)| {
            let s = screen.get_pixel(*x, y + CAPTION_HEIGHT);
            (0..3).any(|i| p.0[i].abs_diff(s.0[i]) > levels)
        })
        .count();
    off as f64 / f64::from(pic.width() * pic.height())
}

/// The game as it stood after its first `rows` log entries, and the time of the last.
fn prefix(game: &dyn ThreadGame, rows: usize) -> (Box<dyn ThreadGame>, u64) {
    let rows: Vec<_> = (0..rows).map(|i| game.row(i).unwrap().unwrap()).collect();
    let time = rows.last().unwrap().time;
    let kind = game.kind();
    let settings = game.settings_json().unwrap();
    (
        (kind.load)(
            game.users(),
            &settings,
            rows,
            &arbiter::layer::clock::Away::none(),
        )
        .unwrap(),
        time,
    )
}

/// Writes the first, a middle and the last frame 400 px wide to the temporary directory
/// under `PICTURE_400=1`, to look at.
fn look_at_frames(name: &str, frames: &[(image::RgbImage, u16)]) {
    if std::env::var_os("PICTURE_400").is_some_and(|v| v == "1") {
        for (tag, i) in [
            ("first", 0),
            ("middle", frames.len() / 2),
            ("last", frames.len() - 1),
        ] {
            let img = &frames[i].0;
            let h = img.height() * 400 / img.width();
            let small = image::imageops::resize(img, 400, h, image::imageops::FilterType::Triangle);
            small
                .save(std::env::temp_dir().join(format!("replay-{name}-{tag}.400.png")))
                .unwrap();
        }
    }
}

/// The replay of an example game of `plays` moves: one frame for the start and one per
/// move (the example games change the board with `/move` alone), every frame the screen's
/// size, the delays as `speed:fast` sets them, and the first and last frames the pictures
/// of the start and of the final position (`expected` draws them for a game that shows
/// them otherwise than its picture: Chex on one frame).
fn check_replay(
    name: &str,
    plays: usize,
    expected: impl Fn(&dyn ThreadGame, u64) -> Vec<u8>,
) -> Box<dyn ThreadGame> {
    let game = example_game(name, plays).unwrap();
    let opts = ReplayOptions {
        speed: Speed::Fast,
        ..ReplayOptions::default()
    };
    let replayed = game.replay_job(&opts, 0).unwrap()().unwrap();
    let r = &replayed.replay;
    assert_eq!(
        (r.scale, r.skipped),
        (1.0, 0),
        "{name}: a small replay at full size"
    );
    assert!(r.gif.len() < arbiter::render::animation::UPLOAD_LIMIT);
    let rows: Vec<_> = (0..game.log_len())
        .map(|i| game.row(i).unwrap().unwrap())
        .collect();
    let moves: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].command.starts_with("/move") && rows[i].reverted.is_none())
        .collect();
    // Drawn once: one pass, each frame's picture drawn once (and a few for the palette),
    // and after the first frame only what changed written (issue 55).
    assert_eq!(r.passes, 1, "{name}: one pass");
    assert_eq!(r.drawn, r.frames, "{name}: each frame drawn once");
    assert!(
        r.sampled <= 8,
        "{name}: {} pictures drawn for the palette",
        r.sampled
    );
    let area = u64::from(r.size.0) * u64::from(r.size.1);
    let per_frame = r.encoded / (r.frames as u64 - 1);
    assert!(
        per_frame * 2 < area,
        "{name}: {per_frame} pixels written a frame on a screen of {area}"
    );
    let (size, frames) = decode_replay(&r.gif);
    look_at_frames(name, &frames);
    assert_eq!(
        frames.len(),
        moves.len() + 1,
        "{name}: the start and each move"
    );
    assert_eq!(r.frames, frames.len());
    assert_eq!(r.size, size);
    for (i, (_, delay)) in frames.iter().enumerate() {
        let want = if i + 1 == frames.len() { 200 } else { 50 };
        assert_eq!(*delay, want, "{name}: frame {i}'s delay");
    }
    // The start: the game before its first move, as its picture showed it then.
    let (start, at) = prefix(&*game, moves[0]);
    let off = off_share(&frames[0].0, &expected(&*start, at), 24);
    assert!(off < 0.002, "{name}: first frame {:.3}% off", off * 100.0);
    let last = rows[*moves.last().unwrap()].time;
    let (end, _) = prefix(&*game, moves.last().unwrap() + 1);
    let off = off_share(&frames.last().unwrap().0, &expected(&*end, last), 24);
    assert!(off < 0.002, "{name}: last frame {:.3}% off", off * 100.0);
    // Every frame between, written as its changes over the frames before it, shows its
    // position's picture (a sample of them: a few, evenly spaced).
    for i in (1..frames.len() - 1).step_by((frames.len() / 6).max(1)) {
        let m = moves[i - 1];
        let (then, _) = prefix(&*game, m + 1);
        let off = off_share(&frames[i].0, &expected(&*then, rows[m].time), 24);
        assert!(off < 0.002, "{name}: frame {i} {:.3}% off", off * 100.0);
    }
    game
}

fn picture_at(game: &dyn ThreadGame, now: u64) -> Vec<u8> {
    game.pictures()
        .expect("a picture")
        .picture("replay-test", now)()
    .unwrap()
}

#[test]
fn kfb_replay() {
    // A replay's frames are the three equal boards (as `/status` shows them), not a move's
    // picture with its board large (issue 55).
    check_replay("kfb", 40, |game, now| {
        let g = game.downcast::<arbiter::games::kfb::Game>().unwrap();
        render_kfb(&arbiter::games::kfb::adapter::kfb_view(g, now).unwrap()).unwrap()
    });
}

#[test]
fn ultimate_replay() {
    check_replay("ultimate", 30, picture_at);
}

#[test]
fn nomic_replay() {
    check_replay("nomic", 30, picture_at);
}

#[test]
fn party_replay() {
    check_replay("party", 40, picture_at);
}

#[test]
fn chex_replay_keeps_the_squares_still() {
    use arbiter::games::chex;
    use arbiter::games::chex::picture::{chex_view, render_chex};
    // Every frame on the frame of the whole game: the union of the boards the moves leave.
    let whole = |game: &dyn ThreadGame| {
        let g = game.downcast::<chex::Game>().unwrap();
        let mut frame: Option<(i32, i32, i32, i32)> = None;
        g.each_state(|e, snap| {
            if e.command.starts_with("/move") || e.number.is_none() {
                let v = chex_view(snap);
                let (x0, y0) = v.origin;
                let (x1, y1) = (x0 + v.files as i32, y0 + v.ranks as i32);
                frame = Some(match frame {
                    None => (x0, y0, x1, y1),
                    Some((a, b, c, d)) => (a.min(x0), b.min(y0), c.max(x1), d.max(y1)),
                });
            }
        })
        .unwrap();
        frame.unwrap()
    };
    let full = example_game("chex", 40).unwrap();
    let (x0, y0, x1, y1) = whole(&*full);
    check_replay("chex", 40, |g, _| {
        let v = chex_view(g.downcast::<chex::Game>().unwrap());
        render_chex(&v.reframed((x0, y0), (x1 - x0) as u32, (y1 - y0) as u32)).unwrap()
    });
}

#[test]
fn replay_options_pick_the_frames() {
    let game = example_game("kfb", 30).unwrap();
    let run = |line: &str| {
        let cmd = arbiter::commands::parse_command(line).unwrap();
        let opts = ReplayOptions::of_command(&cmd)?;
        let r = game.replay_job(&opts, 0)?()?;
        Ok::<_, String>((r.first, r.last, decode_replay(&r.replay.gif)))
    };
    // Actions 1–6 are the draft; moves start at #7.
    let (first, last, (_, frames)) = run("/replay from:10 to:14").unwrap();
    assert_eq!((first, last, frames.len()), (10, 14, 6));
    let (_, _, (size, frames)) = run("/replay board:2 to:20").unwrap();
    assert!(frames.len() < 15, "board 2's moves only");
    let (whole, _) = decode_replay(
        &game.replay_job(&ReplayOptions::default(), 0).unwrap()()
            .unwrap()
            .replay
            .gif,
    );
    assert!(size.0 < whole.0, "one board is narrower than three");
    assert!(run("/replay from:3 to:5")
        .unwrap_err()
        .contains("changed the board"));
    assert!(run("/replay to:99").unwrap_err().contains("no action #99"));
    assert!(run("/replay speed:ludicrous").is_err());
}

#[test]
fn a_long_replay_stays_under_the_limit() {
    use arbiter::render::animation::{render_replay, ReplayFrame, ReplaySpec};
    // A tight limit stands for a long game: the replay shrinks, then skips frames.
    let game = example_game("party", 30).unwrap();
    let party = game.downcast::<arbiter::games::party::Game>().unwrap();
    let mut stills = Vec::new();
    party
        .each_state(|e, snap| {
            if e.command.starts_with("/move") {
                stills.push(ReplayFrame {
                    caption: e.command.clone(),
                    still: std::sync::Arc::new(arbiter::games::party::picture::view_of(snap)),
                });
            }
        })
        .unwrap();
    let n = stills.len();
    let spec = |limit| ReplaySpec {
        header: "Party Chess".into(),
        frames: stills.clone(),
        speed: Speed::Normal,
        limit,
    };
    let whole = render_replay(&spec(usize::MAX)).unwrap();
    assert_eq!((whole.scale, whole.frames), (1.0, n));
    let smaller = render_replay(&spec(whole.gif.len() * 2 / 3)).unwrap();
    assert!(smaller.scale < 1.0 && smaller.gif.len() <= whole.gif.len() * 2 / 3);
    // (A tenth: with only its changes written each frame, the whole replay is small enough
    // that the smallest scale with the first and last frames alone is about a twelfth.)
    let tiny = render_replay(&spec(whole.gif.len() / 10)).unwrap();
    assert!(tiny.skipped > 0 && tiny.gif.len() <= whole.gif.len() / 10);
    let (_, frames) = decode_replay(&tiny.gif);
    assert_eq!(frames.len(), tiny.frames);
}
