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
