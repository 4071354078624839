//! Events of the games other than Kung Fu Bughouse (tournament rules 2.5): Chex Swiss
//! pairings checked against the CLI's pairing engine on the TRF export.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;

use arbiter::games::seeded::splitmix;
use arbiter::swiss::{format_pairing, pair_trf, parse_pairing};
use arbiter::tournament::{EventGame, MatchResult, PairOutcome, Settings, Tournament};

const RESULTS: [MatchResult; 6] = [
    MatchResult::WhiteWins,
    MatchResult::BlackWins,
    MatchResult::Draw,
    MatchResult::WhiteWins,
    MatchResult::BlackForfeitWin,
    MatchResult::DoubleForfeit,
];

fn chex_event(players: usize, rounds: u32, seed: u64) -> Tournament {
    let settings = Settings {
        game: EventGame::Chex,
        losses_to_eliminate: 0,
        rounds: Some(rounds),
        match_points: Some([10, 5, 0, 10]),
        ..Settings::default()
    };
    let mut t = Tournament::new("cup", "Cup", "org", settings, 0);
    for i in 0..players {
        t.signup(&format!("p{i}"), &[], i as u64).expect("signup");
    }
    t.form_teams(seed).expect("seeded");
    t
}

/// Ten generated Chex Swiss events, played to their end with drawn results, a withdrawal and
/// a late entry: before every round the TRF export, paired by the function `arbiter swiss
/// pair` runs, gives the round the event pairs.
#[test]
fn chex_swiss_pairings_agree_with_the_cli_on_the_trf_export() {
    for n in 0..10u64 {
        let mut rng = splitmix(n + 100);
        let players = 5 + (n as usize * 3) % 11;
        let mut t = chex_event(players, 4 + (n % 3) as u32, n);
        let mut rounds = 0;
        let mut byes = HashSet::new();
        for _ in 0..20 {
            if t.finished {
                break;
            }
            let trf = t.trf().expect("trf");
            let cli = pair_trf(&trf);
            let p = match t.pair_next().expect("pairing") {
                PairOutcome::Ended(_) => break,
                PairOutcome::Round(p) => p,
            };
            rounds += 1;
            let mut ours = arbiter::swiss::Pairing::default();
            for b in &p.boards {
                if b.black == 0 {
                    assert!(byes.insert(b.white), "event {n}: a second bye");
                    ours.bye = Some(b.white);
                } else {
                    // One seat a side, the players of the entrants paired.
                    assert_eq!(b.players.len(), 2);
                    ours.pairs.push((b.white, b.black));
                }
            }
            ours.pairs.sort_unstable();
            let mut theirs = parse_pairing(&cli.expect("the CLI pairs the export")).unwrap();
            theirs.pairs.sort_unstable();
            assert_eq!(
                format_pairing(&ours),
                format_pairing(&theirs),
                "event {n} round {}\n{trf}",
                p.round
            );
            for b in p.boards.iter().filter(|b| b.black != 0) {
                rng = splitmix(rng);
                let r = RESULTS[(rng % 6) as usize];
                t.set_result(p.round, b.board, Some(r), "org", 0).unwrap();
            }
            if p.round == 2 {
                let who = format!("p{}", rng % players as u64);
                t.withdraw(&who, 0).unwrap();
                t.signup("late", &[], 0).unwrap();
                t.form_teams(rng).unwrap();
            }
        }
        assert!(t.finished, "event {n} ends");
        assert!(rounds >= 2, "event {n} played {rounds} rounds");
        let rows = t.standings().unwrap();
        assert_eq!(rows.len(), players + 1);
    }
}

mod tables {
    use std::collections::{BTreeMap, BTreeSet};

    use arbiter::tournament::tables::{
        cost_of, met_pairs, pair_tables, ranked, table_sizes, Seatable,
    };
    use proptest::prelude::*;

    /// The fewest repeat pairs any cut of `players` into tables of `sizes` gives: every
    /// permutation cut in order (small fields only).
    fn brute_force_repeats(players: &[u32], sizes: &[usize], met: &BTreeSet<(u32, u32)>) -> u64 {
        fn permute(
            v: &mut Vec<u32>,
            k: usize,
            sizes: &[usize],
            met: &BTreeSet<(u32, u32)>,
            best: &mut u64,
        ) {
            if k == v.len() {
                let mut at = 0;
                let tables: Vec<Vec<u32>> = sizes
                    .iter()
                    .map(|&s| {
                        let t = v[at..at + s].to_vec();
                        at += s;
                        t
                    })
                    .collect();
                *best = (*best).min(cost_of(&tables, &BTreeMap::new(), met).0);
                return;
            }
            for i in k..v.len() {
                v.swap(k, i);
                permute(v, k + 1, sizes, met, best);
                v.swap(k, i);
            }
        }
        let mut best = u64::MAX;
        permute(&mut players.to_vec(), 0, sizes, met, &mut best);
        best
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Rounds of tables over random scores: every active player is seated once or has a
        /// bye, no table is over its size or under the game's minimum, byes only when the
        /// leftover cannot form a table, and on small fields the repeat meetings are the
        /// fewest possible (brute force over every seating).
        #[test]
        fn every_player_seated_once_tables_in_size_repeats_minimal(
            n in 3u32..=8,
            size in 3usize..=4,
            min in 2usize..=4,
            rounds in 1usize..=4,
            scores in proptest::collection::vec(0u32..40, 8 * 4),
        ) {
            let min = min.min(size);
            let mut history: Vec<Vec<u32>> = Vec::new();
            let mut byes: Vec<u32> = Vec::new();
            for r in 0..rounds {
                let players: Vec<Seatable> = (1..=n)
                    .map(|id| Seatable {
                        id,
                        score: scores[(r * 8 + id as usize - 1) % scores.len()],
                        rating: None,
                    })
                    .collect();
                let round = pair_tables(&players, &history, &byes, size, min);
                let again = pair_tables(&players, &history, &byes, size, min);
                prop_assert_eq!(&round, &again, "deterministic");
                let mut seen = BTreeSet::new();
                for t in &round.tables {
                    prop_assert!(t.len() <= size && t.len() >= min, "table {:?}", t);
                    for &p in t {
                        prop_assert!(seen.insert(p), "{} seated twice", p);
                    }
                }
                for &p in &round.byes {
                    prop_assert!(seen.insert(p), "{} seated and given a bye", p);
                }
                prop_assert_eq!(seen.len() as u32, n, "everyone seated or given a bye");
                let (sizes, nbyes) = table_sizes(n as usize, size, min);
                prop_assert_eq!(round.byes.len(), nbyes);
                prop_assert!(nbyes < min, "byes only for a leftover too small to play");
                let seated: Vec<u32> = ranked(&players)
                    .iter()
                    .map(|p| p.id)
                    .filter(|id| !round.byes.contains(id))
                    .collect();
                let met = met_pairs(&history);
                let ours = cost_of(&round.tables, &BTreeMap::new(), &met).0;
                prop_assert_eq!(ours, brute_force_repeats(&seated, &sizes, &met));
                history.extend(round.tables.iter().cloned());
                byes.extend(round.byes.iter().copied());
            }
        }
    }
}
