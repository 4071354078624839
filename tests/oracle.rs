//! The engine against the reference tables of an independent engine (tests/data/oracle/).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use arbiter::engine::{fen, Move, Position};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/oracle/");

/// Rows of a TSV file as maps from column name to value (comment lines skipped).
fn table(name: &str) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(format!("{DATA}{name}")).expect("oracle table");
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<String> = lines
        .next()
        .expect("header")
        .split('\t')
        .map(String::from)
        .collect();
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split('\t').map(String::from))
                .collect()
        })
        .collect()
}

/// The project's variant name for an oracle variant family.
fn variant_name(oracle: &str) -> String {
    let army = |c: &str| {
        match c {
            "clob" => "clobberers",
            "rook" => "rookies",
            "fwd" => "forward",
            other => other,
        }
        .to_string()
    };
    let parts: Vec<&str> = oracle.split('-').collect();
    match parts[0] {
        "chess" => "chess".into(),
        "crazyhouse" => "cwdazh:fide-fide".into(),
        "bughouse" | "chessgi" => parts[0].into(),
        fam => {
            let ours = match fam {
                "cwda" => "cwda",
                "kcwda" => "kcwda",
                "cwdazh" => "cwdazh",
                "kfbzh" => "kcwdazh",
                "kfb" => "kfb-board",
                other => panic!("unknown oracle family {other}"),
            };
            format!("{ours}:{}-{}", army(parts[1]), army(parts[2]))
        }
    }
}

fn position(variant: &str, fen_text: &str) -> Position {
    arbiter::cli::position(&variant_name(variant), Some(fen_text))
        .unwrap_or_else(|e| panic!("{variant} {fen_text}: {e}"))
}

/// The reference engine's one-letter name of a piece.
fn fsf_letter(abbr: &str) -> char {
    match abbr {
        "Ch" => 'C',
        "Ca" => 'A',
        "Be" => 'E',
        "FAD" => 'F',
        "Co" => 'O',
        "CR" => 'T',
        "CN" => 'G',
        "Fb" => 'I',
        "HD" => 'H',
        "WR" => 'D',
        "FQ" => 'X',
        "BN" => 'S',
        "NB" => 'L',
        one => one.chars().next().expect("abbreviation"),
    }
}

/// A move in the reference engine's UCI form.
fn uci(pos: &Position, m: Move) -> String {
    let g = &pos.rules().geometry;
    let cat = &pos.rules().catalog;
    match m {
        Move::Normal {
            from,
            to,
            promotion,
        } => {
            let mut s = format!("{}{}", g.name(from), g.name(to));
            if let Some(k) = promotion {
                s.push(fsf_letter(cat.def(k).abbr).to_ascii_lowercase());
            }
            s
        }
        Move::EnPassant { from, to, .. } => format!("{}{}", g.name(from), g.name(to)),
        Move::Castle {
            king_from, king_to, ..
        } => format!("{}{}", g.name(king_from), g.name(king_to)),
        Move::Drop { piece, to } => {
            format!("{}@{}", fsf_letter(cat.def(piece.kind).abbr), g.name(to))
        }
        other => panic!("unexpected move {other:?}"),
    }
}

/// Nodes a default (not ignored) test may count per row and depth.
const QUICK_LIMIT: u64 = 1_500_000;

fn check_perft_table(name: &str, fen_col: &str, quick: bool) {
    let mut checked = 0;
    for row in table(name) {
        let variant = &row["variant"];
        let mut pos = position(variant, &row[fen_col]);
        let again = fen::parse(pos.rules().clone(), &fen::write(&pos)).expect("own FEN parses");
        assert_eq!(again, pos, "FEN round trip of {}", row[fen_col]);
        for d in 1..=5u32 {
            let Some(expected) = row.get(&format!("d{d}")) else {
                continue;
            };
            let Ok(expected) = expected.parse::<u64>() else {
                continue;
            };
            if quick != (expected <= QUICK_LIMIT) {
                continue;
            }
            let got = pos.perft(d);
            assert_eq!(
                got,
                expected,
                "{name} {} {variant} depth {d}",
                row.get("name")
                    .or(row.get("white"))
                    .map_or("", |s| s.as_str())
            );
            checked += 1;
        }
    }
    eprintln!("{name}: {checked} counts checked");
}

#[test]
fn perft_standard_quick() {
    check_perft_table("perft-standard.tsv", "fen", true);
}

#[test]
#[ignore = "slow: run with cargo test --release -- --ignored"]
fn perft_standard_deep() {
    check_perft_table("perft-standard.tsv", "fen", false);
}

#[test]
fn perft_cwda_quick() {
    check_perft_table("perft-cwda.tsv", "fen_rulings", true);
}

#[test]
#[ignore = "slow: run with cargo test --release -- --ignored"]
fn perft_cwda_deep() {
    check_perft_table("perft-cwda.tsv", "fen_rulings", false);
}

#[test]
fn perft_crazyhouse_quick() {
    check_perft_table("perft-crazyhouse.tsv", "fen_rulings", true);
}

#[test]
#[ignore = "slow: run with cargo test --release -- --ignored"]
fn perft_crazyhouse_deep() {
    check_perft_table("perft-crazyhouse.tsv", "fen_rulings", false);
}

#[test]
fn positions_cwda_move_lists() {
    let rows = table("positions-cwda.tsv");
    assert_eq!(rows.len(), 700);
    for row in rows {
        let mut pos = position(&row["variant"], &row["fen_rulings"]);
        let ours: BTreeSet<String> = pos
            .legal_moves()
            .into_iter()
            .map(|m| uci(&pos, m))
            .collect();
        let theirs: BTreeSet<String> = row["moves"]
            .split(' ')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        assert_eq!(
            ours,
            theirs,
            "row {} {}: extra {:?}, missing {:?}",
            row["id"],
            row["variant"],
            ours.difference(&theirs).collect::<Vec<_>>(),
            theirs.difference(&ours).collect::<Vec<_>>()
        );
        assert_eq!(ours.len(), row["n_moves"].parse::<usize>().unwrap());
        assert_eq!(
            pos.perft(2),
            row["perft2"].parse::<u64>().unwrap(),
            "row {} perft2",
            row["id"]
        );
    }
}
