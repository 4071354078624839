//! Property tests of Chex: random legal play (seeded) through the command layer, choosing only
//! from what `/moves` offers, with takebacks mixed in: every offered play is accepted, the
//! group never breaks, the board never exceeds its limit, nothing panics; replaying the log
//! gives the same state; the position text round-trips; relabelling keeps every piece's
//! absolute square; two games with the same seed draw the same pieces in the same order; the
//! shown hash is the SHA-256 of the seed's decimal text and the stacks are the documented
//! shuffle (re-implemented here from the description in docs/games/chex.md).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use arbiter::commands::{parse_command, Caller, Hub, Reply, Roles};
use arbiter::games::chex::{connected, Abs, Action, Game, Kind, Piece, Position, Side};
use proptest::prelude::*;
use sha2::Digest;

const T0: u64 = 1_767_225_600;

fn lcg(x: &mut u64) -> u64 {
    *x = x
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *x >> 33
}

struct Table {
    hub: Hub,
    t: u64,
}

impl Table {
    fn run(&mut self, user: &str, text: &str) -> Reply {
        self.t += 30;
        let caller = Caller {
            user,
            roles: Roles {
                organiser: user == "org",
                moderator: false,
            },
            thread: "p",
            now: self.t,
        };
        let cmd = parse_command(text).expect("a command");
        self.hub.handle(&caller, 0, &cmd, text)
    }
    fn game(&self) -> Game {
        self.hub
            .game("p")
            .and_then(|g| g.downcast::<Game>())
            .cloned()
            .expect("a Chex game")
    }
}

fn pieces(pos: &Position) -> BTreeMap<Abs, Piece> {
    pos.pieces().collect()
}

/// The documented shuffle, written again from docs/games/chex.md: SplitMix64 seeded with the seed,
/// Fisher–Yates from the last index down, White's stack then Black's, top first.
fn documented(seed: u64) -> [String; 2] {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut out = [String::new(), String::new()];
    for s in &mut out {
        let mut v: Vec<char> = "KQRRBBNNPPPPPPPP".chars().collect();
        for i in (1..v.len()).rev() {
            let j = (next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
        *s = v.into_iter().collect();
    }
    out
}

fn letters(v: &[Kind]) -> String {
    v.iter().map(|k| k.letter()).collect()
}

/// Plays `plies` random offered plays; returns the game and each side's drawn pieces in order.
fn play(
    seed: u64,
    choice: u64,
    plies: usize,
    max_board: u32,
) -> Result<(Game, [String; 2]), TestCaseError> {
    let mut t = Table {
        hub: Hub::new(),
        t: T0,
    };
    let r = t.run(
        "org",
        &format!("/chex new white:@ann black:@ben seed:{seed} max_board:{max_board}"),
    );
    prop_assert_eq!(r.ok, Some(true), "{}", r.text);
    let mut x = choice;
    for _ in 0..plies {
        let g = t.game();
        let Some(side) = g.to_move() else { break };
        let user = g.user(side).to_string();
        let before = g.position().clone();
        let offered = t.run(&user, "/moves");
        prop_assert_eq!(offered.ok, Some(true), "{}", offered.text);
        if offered.text.starts_with("no legal moves") {
            break;
        }
        let list: Vec<&str> = offered.text.split(' ').collect();
        let pick = list[(lcg(&mut x) as usize) % list.len()];
        let cmd = if pick == "draw" {
            "/draw".to_string()
        } else if let Some((_, sq)) = pick.split_once('@') {
            format!("/place {sq} turn:{}", g.board_number())
        } else {
            format!("/move {pick} turn:{}", g.board_number())
        };
        let r = t.run(&user, &cmd);
        prop_assert_eq!(
            r.ok,
            Some(true),
            "{} offered {} but refused: {}",
            user,
            pick,
            r.text
        );
        let g = t.game();
        let pos = g.position();
        // The group never breaks and the board stays within its limit.
        prop_assert!(connected(pieces(pos).keys()), "group broken after {}", cmd);
        let f = pos.frame();
        prop_assert!(
            f.width <= max_board && f.height <= max_board,
            "{}×{}",
            f.width,
            f.height
        );
        // Relabelling keeps absolute squares: only the squares the play touched changed.
        let (a, b) = (pieces(&before), pieces(pos));
        let changed: std::collections::BTreeSet<&Abs> = a
            .keys()
            .chain(b.keys())
            .filter(|s| a.get(s) != b.get(s))
            .collect();
        if pick == "draw" {
            prop_assert!(
                changed.len() <= 1,
                "a draw places at most White's first piece"
            );
        } else if pick.contains('@') {
            prop_assert_eq!(changed.len(), 1, "a placement adds one piece");
        } else {
            prop_assert_eq!(changed.len(), 2, "a move changes its two squares");
        }
        // The position text round-trips.
        let text = pos.to_text();
        let back =
            Position::from_text(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(back.to_text(), text.clone());
        prop_assert_eq!(pieces(&back), pieces(pos));
        // Now and then the player takes back a placement or a move.
        if !pick.contains("draw") && !g.finished() && lcg(&mut x).is_multiple_of(7) {
            let r = t.run(&user, "/takeback");
            prop_assert_eq!(r.ok, Some(true), "{}", r.text);
            let g = t.game();
            prop_assert_eq!(pieces(g.position()), pieces(&before));
            prop_assert_eq!(g.position().revealed, before.revealed);
            prop_assert_eq!(g.position().to_move, before.to_move);
        }
    }
    let g = t.game();
    let mut drawn = [String::new(), String::new()];
    for e in g.log.iter().filter(|e| e.reverted.is_none()) {
        if let Action::Draw { side, piece, .. } = &e.action {
            drawn[side.index()].push(piece.letter());
        }
    }
    Ok((g, drawn))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn random_offered_play_keeps_the_rules_and_replays(
        seed in 0u64..(1 << 53),
        choice in any::<u64>(),
        plies in 40usize..300,
        small in any::<bool>(),
    ) {
        let max_board = if small { 8 } else { 26 };
        let (g, drawn) = play(seed, choice, plies, max_board)?;
        // Replay gives the same state.
        let again = Game::from_log(g.users.clone(), g.settings.clone(), g.log.clone())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(again.position().to_text(), g.position().to_text());
        prop_assert_eq!(&again.position().stacks, &g.position().stacks);
        prop_assert_eq!(again.board_number(), g.board_number());
        prop_assert_eq!(again.outcome(), g.outcome());
        // The pieces drawn are the documented stack's, in order.
        let stacks = documented(seed);
        for side in Side::BOTH {
            let i = side.index();
            prop_assert!(stacks[i].starts_with(&drawn[i]), "{:?}: {} drawn, stack {}", side, drawn[i], stacks[i]);
            let left = letters(&g.position().stacks[i]);
            prop_assert!(stacks[i].ends_with(&left), "{:?}: left {} of {}", side, left, stacks[i]);
        }
    }

    #[test]
    fn the_same_seed_draws_the_same_pieces_whatever_is_played(
        seed in 0u64..(1 << 53),
        a in any::<u64>(),
        b in any::<u64>(),
    ) {
        let (_, x) = play(seed, a, 40, 26)?;
        let (_, y) = play(seed, b, 40, 26)?;
        for i in 0..2 {
            let n = x[i].len().min(y[i].len());
            prop_assert_eq!(&x[i][..n], &y[i][..n]);
        }
    }

    #[test]
    fn the_shown_hash_is_the_sha256_of_the_seeds_decimal_text(seed in 0u64..(1 << 53)) {
        let mut t = Table { hub: Hub::new(), t: T0 };
        let r = t.run("org", &format!("/chex new white:@ann black:@ben seed:{seed}"));
        let want: String = sha2::Sha256::digest(seed.to_string().as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        prop_assert!(r.text.contains(&want), "{}", r.text);
        let g = t.game();
        prop_assert_eq!(letters(&g.position().stacks[0]), documented(seed)[0].clone());
        prop_assert_eq!(letters(&g.position().stacks[1]), documented(seed)[1].clone());
    }
}
