//! Property tests of Party Chess: random seeded play by 2–8 Swingers, always choosing from
//! the plays `/moves` offers, never panics and every offered play is accepted; no play ends
//! with the mover's King attacked; replaying the log gives the same state; the position
//! text round-trips; every legal play formats and reads back to itself.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter::games::party::rules::in_check;
use arbiter::games::party::{notation, EchoRule, Game, NewGame, Position, Request};
use proptest::prelude::*;

const T0: u64 = 1_767_225_600;

fn next(x: &mut u64) -> u64 {
    *x = x
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *x >> 33
}

/// Picks worth at most 30.
const PICKS: [&str; 8] = [
    "RRJPP", "TJCPP", "OEQ%P", "HAZ!D", "BBCJP", "QAPPD", "T!%JP", "ROEPP",
];

fn round_trip(pos: &Position) -> Result<(), TestCaseError> {
    let text = pos.to_text();
    let back = Position::from_text(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back, pos, "{}", text);
    prop_assert_eq!(back.to_text(), text);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    #[test]
    fn random_play_from_offered_lists(seed in any::<u64>(), n in 2usize..=8) {
        let users: Vec<String> = (0..n).map(|i| format!("u{i}")).collect();
        let mut g = Game::create(
            NewGame {
                swingers: users.clone(),
                umpire: "uma".into(),
                seed: seed & 0xffff,
                // Both readings of the Echo (RULINGS §3.2).
                echo: Some(if seed & 0x10000 == 0 { EchoRule::Rules } else { EchoRule::Vector }),
                ..NewGame::default()
            },
            "org",
            T0,
        ).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut x = seed;
        let mut now = T0;
        for u in &users {
            now += 1;
            let pick = PICKS[next(&mut x) as usize % PICKS.len()];
            g.apply(u, false, Request::Pick(pick.into()), now, "/party pieces").map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
        for _ in 0..30 {
            let Some(seat) = g.to_play() else { break };
            let user = g.user(seat).to_string();
            let offered = g.offered(&user).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(!offered.is_empty(), "surrender is always legal");
            // Prefer moves and placements over pass and surrender.
            let plays: Vec<&String> = offered.iter().filter(|t| *t != "surrender").collect();
            let choice = if plays.is_empty() { &offered[0] } else { plays[next(&mut x) as usize % plays.len()] };
            let pos = g.position().clone();
            // Every offered play reads back to a play that formats the same.
            let play = notation::resolve(&pos, choice).map_err(|e| TestCaseError::fail(format!("{choice}: {e}")))?;
            let again = notation::format(&pos, &play);
            // (a Qball's text names its bounce only where two bounces reach one square)
            prop_assert!(again == *choice || choice.starts_with('Q'), "{} read as {}", choice, again);
            now += 60;
            g.apply(&user, false, Request::Play(choice.clone()), now, &format!("/move {choice}"))
                .map_err(|e| TestCaseError::fail(format!("{choice} offered but refused: {e}")))?;
            if choice != "surrender" {
                prop_assert!(!in_check(g.position(), seat), "{} left the King attacked", choice);
            }
            round_trip(g.position())?;
        }
        let again = Game::from_log(g.settings.clone(), g.log.clone()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(again.position(), g.position());
        prop_assert_eq!(again.state().round_count, g.state().round_count);
        prop_assert_eq!(again.weights_line(), g.weights_line());
    }
}

/// Every legal play of a busy position reads back to a play with the same text.
#[test]
fn every_legal_play_reads_back() {
    let text = "20/20/20/{Q2}19/20/2{P2}17/20/4{O2}{%1}14/20/3{T1}3{E2}12/2{R1}2{A2}14/20/20/5{!1}{H2:3}13/20/4{J1}15/20/2{K1}4{Z2}12/{D1}19/19{K2} [1:{H:2}R 2:P] 1,2 1:-,2:R";
    let pos = Position::from_text(text).expect("reads");
    let list = notation::legal_texts(&pos);
    assert!(list.len() > 100, "{}", list.len());
    for t in &list {
        let play = notation::resolve(&pos, t).unwrap_or_else(|e| panic!("{t}: {e}"));
        let back = notation::format(&pos, &play);
        assert!(t == &back || t.starts_with('Q'), "{t} → {back}");
    }
}
