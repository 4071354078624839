//! Property tests of Ultimate Chess: random legal play by four players (with concessions,
//! draw offers and takebacks mixed in) never panics; replaying the log gives the same state;
//! every legal move formats and reads back to itself; the position text round-trips; making
//! and unmaking a move restores the position.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter::games::ultimate::{
    notation, Game, Mode, NewGame, Position, Request, Seat, Seating, Stalemate,
};
use proptest::prelude::*;

const T0: u64 = 1_767_225_600;

fn next(x: &mut u64) -> u64 {
    *x = x
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *x >> 33
}

fn mode(i: u8) -> Mode {
    [Mode::Standard, Mode::Conquest, Mode::Devastation][i as usize % 3]
}

/// Every legal move of the position formats to a text that reads back to it, and
/// make/unmake restores the position.
fn check_moves(pos: &Position) -> Result<(), TestCaseError> {
    let mut p = pos.clone();
    for m in pos.legal_moves() {
        let text = notation::format(pos, m);
        let back = notation::resolve(pos, &text)
            .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(back, m, "{}", text);
        let u = p.make(m);
        p.unmake(m, u);
        prop_assert_eq!(&p, pos);
    }
    Ok(())
}

fn round_trip(pos: &Position) -> Result<(), TestCaseError> {
    let text = pos.to_text();
    let mut back =
        Position::from_text(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
    back.set_promote_at_file_end(pos.promote_at_file_end());
    prop_assert_eq!(&back, pos);
    prop_assert_eq!(back.to_text(), text);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_play_replays_and_round_trips(
        seed in any::<u64>(),
        m in 0u8..3,
        pass in any::<bool>(),
        file_end in any::<bool>(),
        plies in 40usize..220,
    ) {
        let users = ["ann", "ben", "cat", "dan"].map(String::from);
        let mut g = Game::create(
            NewGame {
                mode: Some(mode(m)),
                stalemate: if pass { Stalemate::Pass } else { Stalemate::Draw },
                promote_at_file_end: file_end,
                seed: seed >> 11,
                ..NewGame::new(Seating::Players(users.to_vec()))
            },
            "org",
            T0,
        )
        .unwrap();
        let mut x = seed;
        let mut t = T0;
        for _ in 0..plies {
            if g.finished() {
                break;
            }
            t += 60;
            let turn = g.to_move().unwrap();
            let user = g.user(turn).to_string();
            let moves = g.legal_moves_for(&user, None).unwrap();
            prop_assert!(!moves.is_empty(), "a player to move has a move: {}", g.status_text());
            if next(&mut x).is_multiple_of(16) {
                check_moves(g.position())?;
                round_trip(g.position())?;
            }
            let roll = next(&mut x) % 200;
            let anyone = g.user(Seat::ALL[(next(&mut x) % 4) as usize]).to_string();
            let request = match roll {
                0 => Request::Concede { to: None },
                1 => Request::Concede { to: Some(g.user(Seat::ALL[(next(&mut x) % 4) as usize]).to_string()) },
                2..=4 => Request::OfferDraw,
                5..=7 => Request::AcceptDraw,
                8 => Request::DeclineDraw,
                9..=11 => Request::Takeback,
                _ => {
                    // Prefer captures, so that Kings get taken and players defeated.
                    let caps: Vec<&String> = moves.iter().filter(|m| m.contains('x')).collect();
                    let pick = if !caps.is_empty() && next(&mut x).is_multiple_of(2) {
                        caps[(next(&mut x) as usize) % caps.len()].clone()
                    } else {
                        moves[(next(&mut x) as usize) % moves.len()].clone()
                    };
                    Request::Move(pick)
                }
            };
            let actor = if matches!(request, Request::Move(_)) { user.clone() } else { anyone };
            let before = g.position().clone();
            let log = g.log.len();
            match g.apply(&actor, request.clone(), t, "") {
                Ok(a) => {
                    prop_assert!(a.number.is_some());
                    // Whoever must act next is notified: the player to move, or those a
                    // draw offer waits for.
                    if !g.finished() {
                        let expected = match request {
                            Request::OfferDraw | Request::AcceptDraw => g.draw_offer_waiting(),
                            _ => vec![g.to_move().unwrap()],
                        };
                        let users: Vec<String> = expected.iter().map(|&s| g.user(s).to_string()).collect();
                        prop_assert_eq!(a.notify, users);
                    }
                }
                Err(_) => {
                    prop_assert!(!matches!(request, Request::Move(_)), "a listed move is legal");
                    prop_assert_eq!(g.position(), &before);
                    prop_assert_eq!(g.log.len(), log);
                }
            }
        }
        round_trip(g.position())?;
        let h = Game::from_log(g.users.clone(), g.settings.clone(), g.log.clone()).unwrap();
        prop_assert_eq!(h.position(), g.position());
        prop_assert_eq!(h.state_lines(), g.state_lines());
        prop_assert_eq!(h.status_text(), g.status_text());
    }

    #[test]
    fn random_positions_round_trip_and_keep_their_moves(seed in any::<u64>(), m in 0u8..3, plies in 0usize..120) {
        let mut pos = Position::start(mode(m));
        let mut x = seed;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(next(&mut x) as usize) % moves.len()];
            pos.make(mv);
        }
        round_trip(&pos)?;
        check_moves(&pos)?;
    }
}
