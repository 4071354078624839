//! Tournament invariants over random events: signups, teams, rounds with random results,
//! withdrawals and eliminations until the event ends (RULINGS §2).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;

use arbiter::swiss::{format_pairing, pair_next_round, parse_trf};
use arbiter::tournament::{MatchResult, PairOutcome, Settings, Tournament};
use proptest::prelude::*;

const RESULTS: [MatchResult; 6] = [
    MatchResult::WhiteWins,
    MatchResult::BlackWins,
    MatchResult::Draw,
    MatchResult::WhiteForfeitWin,
    MatchResult::BlackForfeitWin,
    MatchResult::DoubleForfeit,
];

fn event(players: usize, losses: u32, seed: u64) -> Tournament {
    let settings = Settings {
        losses_to_eliminate: losses,
        ..Settings::default()
    };
    let mut t = Tournament::new("cup", "Cup", "org", settings, 0);
    for i in 0..players {
        let mates = if i % 7 == 0 && i + 2 < players {
            vec![format!("p{}", i + 1), format!("p{}", i + 2)]
        } else {
            Vec::new()
        };
        // Players named by an earlier signup are already in.
        let _ = t.signup(&format!("p{i}"), &mates, i as u64);
    }
    t.form_teams(seed).expect("enough players for three teams");
    t
}

/// Plays the event to its end with results drawn from `picks`; checks every round.
fn play(mut t: Tournament, picks: &[usize], withdraw_at: Option<(u32, u32)>) -> Tournament {
    let mut met: HashSet<(u32, u32)> = HashSet::new();
    let mut byes: HashSet<u32> = HashSet::new();
    let mut k = 0;
    for _ in 0..64 {
        if t.finished {
            break;
        }
        // The TRF export, read back by the pairing module, pairs the same next round: what
        // anyone comparing with another pairing program would do.
        let trf = t.trf().expect("trf");
        let from_trf = parse_trf(&trf).and_then(|s| pair_next_round(&s));
        let inactive: Vec<u32> = t
            .teams
            .iter()
            .map(|tm| tm.number)
            .filter(|&n| !t.active(n))
            .collect();
        let again = t.clone().pair_next();
        let outcome = t.pair_next().expect("pairing");
        assert_eq!(outcome, again.expect("pairing"), "pairing is deterministic");
        let p = match outcome {
            PairOutcome::Ended(_) => break,
            PairOutcome::Round(p) => p,
        };
        let mut pairs = Vec::new();
        let mut bye = None;
        for b in &p.boards {
            assert!(!inactive.contains(&b.white) && !inactive.contains(&b.black));
            if b.black == 0 {
                assert!(byes.insert(b.white), "team {} had a second bye", b.white);
                bye = Some(b.white);
                continue;
            }
            let key = (b.white.min(b.black), b.white.max(b.black));
            assert!(!met.contains(&key), "teams {key:?} met twice");
            pairs.push((b.white, b.black));
        }
        let from_trf = from_trf.expect("the exported TRF pairs");
        let mut ours = arbiter::swiss::Pairing { pairs, bye };
        ours.pairs.sort_unstable();
        let mut theirs = from_trf;
        theirs.pairs.sort_unstable();
        assert_eq!(format_pairing(&ours), format_pairing(&theirs));
        let round = p.round;
        for b in p.boards.iter().filter(|b| b.black != 0) {
            let r = RESULTS[picks[k % picks.len()] % RESULTS.len()];
            k += 1;
            t.set_result(round, b.board, Some(r), "org", 0)
                .expect("result");
            // A forfeited match was not played: FIDE lets those teams meet again.
            if matches!(
                r,
                MatchResult::WhiteWins | MatchResult::BlackWins | MatchResult::Draw
            ) {
                met.insert((b.white.min(b.black), b.white.max(b.black)));
            }
        }
        if let Some((r, team)) = withdraw_at {
            if r == round && t.active(team) && !t.finished {
                t.withdraw_team(team).expect("withdraw");
            }
        }
    }
    assert!(t.finished, "the event ends");
    assert!(t.paired_rounds() <= t.round_limit());
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn events_end_without_replayed_matches_or_second_byes(
        players in 9usize..40,
        losses in 0u32..4,
        seed in any::<u64>(),
        picks in proptest::collection::vec(0usize..6, 1..30),
        withdraw in proptest::option::of((1u32..4, 1u32..4)),
    ) {
        let t = play(event(players, losses, seed), &picks, withdraw);
        // Every team of three, everyone placed once.
        let mut seen = HashSet::new();
        for team in &t.teams {
            prop_assert_eq!(team.players.len(), 3);
            for p in &team.players {
                prop_assert!(seen.insert(p.clone()));
            }
        }
        prop_assert_eq!(seen.len() + t.unassigned().len(), players);
        prop_assert!(t.unassigned().len() <= 2);
        // Standings rank everyone; the champion is first or the last one standing.
        let rows = t.standings().expect("standings");
        prop_assert_eq!(rows.len(), t.teams.len());
        let champion = t.champion().expect("a champion");
        let active = t.active_teams();
        if losses > 0 && active.len() == 1 {
            prop_assert_eq!(champion, active[0]);
        } else {
            prop_assert_eq!(champion, rows[0].team);
        }
        // Every match game's seed is one a player can type back (RULINGS §0).
        for b in &t.boards {
            prop_assert!(t.game_settings(b.round, b.board).seed <= arbiter::games::MAX_SEED);
        }
        // Eliminated teams have their losses.
        for team in &t.teams {
            if let Some(r) = t.eliminated_in(team.number) {
                prop_assert!(t.losses(team.number, r) >= losses);
                // Not paired after the round it was eliminated in.
                prop_assert!(t
                    .boards
                    .iter()
                    .all(|b| b.round <= r || (b.white != team.number && b.black != team.number)));
            }
        }
    }
}

#[test]
fn elimination_thins_the_field_until_the_event_ends() {
    // Eight teams; the first-listed team always wins.
    let t = play(event(24, 2, 5), &[0], None);
    assert_eq!(t.teams.len(), 8);
    assert!(t.finished);
    let eliminated = t
        .teams
        .iter()
        .filter(|tm| t.eliminated_in(tm.number).is_some())
        .count();
    assert!(
        eliminated >= 4,
        "{eliminated} eliminated:\n{}",
        t.standings_text().unwrap_or_default()
    );
    assert!(t.winner_line().starts_with("Winner: Team "));
}

#[test]
fn late_entries_join_the_next_round() {
    let mut t = event(9, 2, 1);
    let PairOutcome::Round(p) = t.pair_next().expect("round 1") else {
        panic!("round 1 pairs")
    };
    for b in p.boards.iter().filter(|b| b.black != 0) {
        t.set_result(1, b.board, Some(MatchResult::WhiteWins), "org", 0)
            .expect("result");
    }
    for i in 100..103 {
        t.signup(&format!("p{i}"), &[], 1).expect("late signup");
    }
    let text = t.form_teams(9).expect("late team");
    assert!(text.starts_with("late entries: teams added with seed 9, from round 2"));
    assert_eq!(t.teams.len(), 4);
    assert_eq!(t.teams[3].joined, 1);
    let PairOutcome::Round(p) = t.pair_next().expect("round 2") else {
        panic!("round 2 pairs")
    };
    assert!(p.boards.iter().any(|b| b.white == 4 || b.black == 4));
    // The late team's first round is an absence (zero points) in the TRF.
    let trf = t.trf().expect("trf");
    assert!(trf
        .lines()
        .any(|l| l.starts_with("001    4") && l.contains("0000 - Z")));
}

#[test]
fn organiser_result_beats_the_game_and_auto_restores_it() {
    let mut t = event(9, 2, 3);
    let PairOutcome::Round(p) = t.pair_next().expect("round 1") else {
        panic!("round 1 pairs")
    };
    let b = p.boards[0].clone();
    t.set_thread(1, b.board, "m1");
    t.game_result("m1", Some(MatchResult::WhiteWins), 5);
    assert_eq!(
        t.result(1, b.board).map(|r| r.result),
        Some(MatchResult::WhiteWins)
    );
    t.set_result(1, b.board, Some(MatchResult::Draw), "org", 6)
        .expect("override");
    assert_eq!(t.game_result("m1", Some(MatchResult::BlackWins), 7), None);
    assert_eq!(
        t.result(1, b.board).map(|r| r.result),
        Some(MatchResult::Draw)
    );
    t.set_result(1, b.board, None, "org", 8).expect("auto");
    assert_eq!(
        t.result(1, b.board),
        None,
        "the game's result comes back on its next word"
    );
    t.game_result("m1", Some(MatchResult::BlackWins), 9);
    assert_eq!(
        t.result(1, b.board).map(|r| r.result),
        Some(MatchResult::BlackWins)
    );
}

#[test]
fn too_few_players_change_nothing() {
    let mut t = Tournament::new("cup", "Cup", "org", Settings::default(), 0);
    for i in 0..8 {
        t.signup(&format!("p{i}"), &[], 0).expect("signup");
    }
    let before = t.clone();
    let err = t.form_teams(1).expect_err("eight players make two teams");
    assert!(err.to_string().contains("at least three teams"));
    assert_eq!(t, before);
}

#[test]
fn seats_are_kept_per_board_and_a_substitute_takes_only_unstarted_matches() {
    // 14 players: four teams of three and two substitutes.
    let mut t = event(14, 2, 7);
    let subs = t.unassigned();
    assert_eq!(subs.len(), 2, "two substitutes");
    let sub = subs[1].clone();
    let PairOutcome::Round(_) = t.pair_next().expect("round 1") else {
        panic!("round 1 should be paired");
    };
    let boards: Vec<_> = t.round_boards(1).into_iter().cloned().collect();
    assert_eq!(boards.len(), 2);
    // Board 1's game has started (its thread is open); board 2's has not.
    t.set_thread(1, 1, "m1");
    let started = t.match_players(1, 1).expect("board 1");
    let waiting = t.match_players(1, 2).expect("board 2");
    let (a, b) = (started[0].clone(), waiting[4].clone());
    t.withdraw(&a, 100).expect("withdraw from a started match");
    assert_eq!(
        t.match_players(1, 1).expect("board 1"),
        started,
        "started match keeps its seats"
    );
    t.withdraw(&b, 101).expect("withdraw from a waiting match");
    let mut expected = waiting.clone();
    expected[4] = sub.clone();
    assert_eq!(t.match_players(1, 2).expect("board 2"), expected);
    // The team's roster now has the substitute; round 1's table still shows who sat on board 1.
    let team = t.team_of(&sub).expect("the substitute is on a team");
    assert!(t.team(team).expect("team").players.contains(&sub));
    assert!(t.pairing_text(1).contains(&a), "round 1 still lists {a}");
}
