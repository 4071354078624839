//! Reproduce the reference (bbpPairings) Dutch pairings of every test case.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use arbiter::swiss::{
    pair_next_round, parse_pairing, parse_trf, preassign_bye, record_round, write_trf, BoardResult,
    Outcome, Pairing, Tournament,
};
use proptest::prelude::*;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/swiss")
}

/// (input, expected) file pairs of one case directory.
fn rounds_of(case: &str) -> Vec<(PathBuf, PathBuf)> {
    let dir = data_dir().join(case);
    let mut out = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".input.trf"))
        .collect();
    entries.sort();
    for input in entries {
        let expected = PathBuf::from(
            input
                .to_string_lossy()
                .replace(".input.trf", ".expected.txt"),
        );
        out.push((input, expected));
    }
    out
}

fn check_round(input: &Path, expected: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(input).map_err(|e| e.to_string())?;
    let want = parse_pairing(&std::fs::read_to_string(expected).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let t = parse_trf(&text).map_err(|e| format!("{}: {e}", input.display()))?;
    let got = pair_next_round(&t).map_err(|e| format!("{}: {e}", input.display()))?;
    if got != want {
        return Err(format!(
            "{}: got {:?} bye {:?}, expected {:?} bye {:?}",
            input.display(),
            got.pairs,
            got.bye,
            want.pairs,
            want.bye
        ));
    }
    // The tournament written back as TRF pairs the same way.
    let again =
        parse_trf(&write_trf(&t)).map_err(|e| format!("{}: rewrite: {e}", input.display()))?;
    if again != t {
        return Err(format!("{}: TRF does not round-trip", input.display()));
    }
    Ok(())
}

#[test]
fn shared_cases_match_reference() {
    let mut cases: Vec<String> = std::fs::read_dir(data_dir())
        .expect("test data")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|name| name.starts_with("case-"))
        .collect();
    cases.sort();
    assert_eq!(cases.len(), 30, "expected 30 case directories");
    let mut failures = Vec::new();
    let mut total = 0;
    for case in &cases {
        for (input, expected) in rounds_of(case) {
            total += 1;
            let start = std::time::Instant::now();
            let outcome = check_round(&input, &expected);
            if std::env::var_os("SWISS_VERBOSE").is_some() {
                eprintln!(
                    "{} {:?} {:?}",
                    input.display(),
                    start.elapsed(),
                    outcome.as_ref().err()
                );
            }
            if let Err(e) = outcome {
                failures.push(e);
            }
        }
    }
    assert_eq!(total, 175, "expected 175 round tests");
    assert!(
        failures.is_empty(),
        "{} of {total} rounds differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn perf_round(name: &str) {
    let dir = data_dir().join("perf-1000");
    let input = dir.join(format!("{name}.input.trf"));
    let expected = dir.join(format!("{name}.expected.txt"));
    let start = std::time::Instant::now();
    let result = check_round(&input, &expected);
    eprintln!("perf-1000 {name}: {:?}", start.elapsed());
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// 1000 entrants (a few seconds each in the test profile).
#[test]
fn perf_1000_round_01() {
    perf_round("round-01");
}

/// 1000 entrants (a few seconds each in the test profile).
#[test]
fn perf_1000_round_06() {
    perf_round("round-06");
}

/// 1000 entrants (a few seconds each in the test profile).
#[test]
fn perf_1000_round_11() {
    perf_round("round-11");
}

/// Play `rounds` rounds of a tournament with random results through our own
/// pairing, checking invariants after every round.
fn simulate(entrants: u32, rounds: u32, seed: u64) -> Result<Tournament, TestCaseError> {
    let mut t = Tournament::new("sim", entrants, rounds);
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..rounds {
        // Now and then an entrant takes a pre-assigned bye.
        if next() % 4 == 0 {
            let id = (next() % u64::from(entrants)) as u32 + 1;
            let outcome = [Outcome::Win, Outcome::Draw, Outcome::Loss][(next() % 3) as usize];
            preassign_bye(&mut t, id, outcome).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
        let pairing = match pair_next_round(&t) {
            Ok(p) => p,
            // Small fields can run out of legal pairings in late rounds.
            Err(arbiter::swiss::SwissError::NoValidPairing) => break,
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        };
        let again = pair_next_round(&t).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&pairing, &again, "pairing is not deterministic");
        check_invariants(&t, &pairing)?;
        let results: Vec<BoardResult> = pairing
            .pairs
            .iter()
            .map(|_| match next() % 10 {
                0..=2 => BoardResult::WhiteWins,
                3..=5 => BoardResult::Draw,
                6..=8 => BoardResult::BlackWins,
                _ => BoardResult::WhiteForfeitWin,
            })
            .collect();
        record_round(&mut t, &pairing, &results, &[])
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
    Ok(t)
}

fn check_invariants(t: &Tournament, p: &Pairing) -> Result<(), TestCaseError> {
    let mut seen = std::collections::HashSet::new();
    for &(w, b) in &p.pairs {
        prop_assert!(seen.insert(w) && seen.insert(b), "entrant paired twice");
        let ew = &t.entrants[w as usize - 1];
        prop_assert!(
            !ew.rounds.iter().any(|r| r.played && r.opponent == Some(b)),
            "{} and {} meet again",
            w,
            b
        );
    }
    if let Some(b) = p.bye {
        prop_assert!(seen.insert(b), "bye entrant also paired");
        let e = &t.entrants[b as usize - 1];
        prop_assert!(
            !e.rounds.iter().any(|r| r.is_pairing_bye()),
            "second pairing-allocated bye for {}",
            b
        );
    }
    let round = t.played_rounds();
    let present = t
        .entrants
        .iter()
        .filter(|e| e.rounds.len() <= round)
        .count();
    prop_assert_eq!(seen.len(), present, "not every present entrant was paired");
    for e in &t.entrants {
        if e.rounds.len() > round {
            prop_assert!(!seen.contains(&e.id), "absent entrant {} was paired", e.id);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    #[test]
    fn random_tournaments_keep_absolute_criteria(entrants in 2u32..14, rounds in 1u32..7, seed in any::<u64>()) {
        let t = simulate(entrants, rounds, seed)?;
        // Write and read back: the TRF round-trips.
        let text = write_trf(&t);
        let back = parse_trf(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back.entrants.len(), t.entrants.len());
        for (a, b) in back.entrants.iter().zip(&t.entrants) {
            prop_assert_eq!(&a.rounds, &b.rounds);
        }
    }
}

#[test]
fn simulated_tournament_plays_all_rounds() {
    let t = simulate(11, 6, 7).expect("simulation");
    assert_eq!(t.played_rounds(), 6);
    assert!(t.entrants.iter().all(|e| e.rounds.len() == 6));
}
