//! Property tests of the KFB game: random legal play on all three boards conserves the 96
//! pieces, and replaying the log gives the same state.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter::engine::fen;
use arbiter::games::kfb::adapter::state_lines;
use arbiter::games::kfb::draft::{Army, Choice, Colour, Order};
use arbiter::games::kfb::{splitmix, Game, Settings};
use arbiter::layer::log::Folded;
use proptest::prelude::*;

const START: u64 = 1_767_225_600;

fn drafted_game(seed: u64) -> Game {
    let users: Vec<String> = ["a", "b", "c", "d", "e", "f"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let settings = Settings {
        pace: arbiter::layer::pace::Pace::default(),
        created: None,
        seed: 1,
        move_limit: 360,
        ..Settings::default()
    };
    // Seed 1 names seat 5 (f) as the first picker (RULINGS §1.8).
    assert_eq!(Game::first_picker(&settings), 5);
    let picks = [
        (5, Order::Second, Colour::Red, Army::Fide),
        (0, Order::First, Colour::Red, Army::Fide),
        (4, Order::First, Colour::Blue, Army::Rookies),
        (1, Order::Second, Colour::LightGreen, Army::Nutty),
        (3, Order::Second, Colour::LightGreen, Army::Clobberers),
        (2, Order::First, Colour::Blue, Army::Forward),
    ];
    let mut g = Game::new(users, settings).unwrap();
    // Vary the armies a little with the seed while keeping the draft valid.
    let swap = seed % 2 == 1;
    for (seat, order, colour, army) in picks {
        let army = match (swap, army) {
            (true, Army::Rookies) => Army::Nutty,
            (true, Army::Nutty) => Army::Rookies,
            (_, a) => a,
        };
        let choice = Choice {
            order,
            colour,
            army,
        };
        g.pick(seat, None, choice, START, "/pick").unwrap();
    }
    assert!(g.state().boards.is_some(), "draft complete");
    g
}

/// Pieces on the three boards and in all hands.
fn piece_count(g: &Game) -> usize {
    let boards = g.state().boards.as_ref().unwrap();
    boards
        .iter()
        .map(|b| {
            b.pos.pieces().count()
                + b.pos.hand(arbiter::engine::Side(0)).len()
                + b.pos.hand(arbiter::engine::Side(1)).len()
        })
        .sum()
}

fn snapshot(g: &Game, now: u64) -> Vec<String> {
    let mut v = state_lines(g, now);
    for b in g.state().boards.as_ref().unwrap() {
        v.push(fen::write(&b.pos));
        v.push(format!("{:?}", b.locked_pieces));
    }
    v.push(format!("{:?}", g.state().winner));
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_play_conserves_pieces_and_replays(seed in any::<u64>(), steps in 20usize..160) {
        let mut g = drafted_game(seed);
        let mut now = START;
        let mut rng = seed;
        prop_assert_eq!(piece_count(&g), 96);
        for _ in 0..steps {
            rng = splitmix(rng);
            now += rng % 400;
            if g.finished() {
                break;
            }
            let seats: Vec<usize> = (0..6).filter(|&s| !g.legal_moves(s, now).is_empty()).collect();
            if seats.is_empty() {
                continue;
            }
            rng = splitmix(rng);
            let seat = seats[(rng % seats.len() as u64) as usize];
            let moves = g.legal_moves(seat, now);
            rng = splitmix(rng);
            let (mv, text) = moves[(rng % moves.len() as u64) as usize].clone();
            let army = match mv {
                arbiter::engine::Move::Drop { piece, .. } => Some(g.catalog().army(piece.army).code.to_string()),
                _ => None,
            };
            let user = g.users[seat].clone();
            let r = g.play(&user, seat, &text, army.as_deref(), now, "/move");
            prop_assert!(r.is_ok(), "{} {}: {:?}", user, text, r);
            if rng % 7 == 0 {
                g.chat((rng % 6) as usize, now);
            }
            prop_assert_eq!(piece_count(&g), 96);
        }
        prop_assert!(g.log.len() > 10, "the random game made moves");
        let before = snapshot(&g, now);
        let mut again = g.clone();
        again.replay().unwrap();
        prop_assert_eq!(before, snapshot(&again, now));
    }
}
