//! Property tests of Nomic Chess: random play by 2–5 players through the command layer (random
//! pushes and moves taken only from the offered `/moves` lists, each of which must be accepted;
//! random proposals, votes, takes, declines, demotions, Referee edits and limits running out)
//! never panics;
//! every piece stays on exactly one half and kings are never captured; replaying the log gives
//! the same state; the position text round-trips.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter::commands::{parse_command, Caller, Hub, Reply, Roles};
use arbiter::games::nomic::{Game, Kind, Position, Slot};
use proptest::prelude::*;

const T0: u64 = 1_767_225_600;
const NAMES: [&str; 5] = ["ann", "ben", "cat", "dan", "eve"];

fn next(x: &mut u64) -> u64 {
    *x = x
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *x >> 33
}

struct Run {
    hub: Hub,
    now: u64,
}

impl Run {
    fn cmd(&mut self, user: &str, text: &str) -> Reply {
        let caller = Caller {
            user,
            roles: Roles {
                organiser: user == "org",
                moderator: false,
            },
            thread: "t",
            now: self.now,
        };
        let cmd = parse_command(text).expect("a command");
        self.hub.handle(&caller, 3, &cmd, text)
    }

    fn game(&self) -> &Game {
        self.hub
            .game("t")
            .and_then(|g| g.downcast::<Game>())
            .expect("a Nomic game")
    }
}

fn check_position(pos: &Position, n: usize) -> Result<(), TestCaseError> {
    let text = pos.to_text();
    let back =
        Position::from_text(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
    prop_assert_eq!(back.to_text(), text.clone());
    prop_assert_eq!(back.halves.len(), n);
    // Kings are never captured: one per army, wherever it stands.
    let kings = pos
        .pieces()
        .iter()
        .filter(|(_, p)| p.kind == Kind::King)
        .count();
    prop_assert_eq!(kings, n, "{}", text);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn random_play_replays_and_round_trips(
        seed in any::<u64>(),
        n in 2usize..=5,
        steps in 60usize..500,
    ) {
        let mut rng = seed | 1;
        let players: Vec<&str> = NAMES[..n].to_vec();
        let mut run = Run { hub: Hub::new(), now: T0 };
        let at: Vec<String> = players.iter().map(|p| format!("@{p}")).collect();
        let r = run.cmd(
            "org",
            &format!("/nomic new players:{} referees:@ref seed:{}", at.join(" "), seed >> 11),
        );
        prop_assert_eq!(r.ok, Some(true), "{}", r.text);
        let mut pieces = run.game().state().pos.pieces().len();
        for _ in 0..steps {
            run.now += 1 + next(&mut rng) % 20;
            if next(&mut rng).is_multiple_of(25) {
                run.now += 300;
            }
            let st = run.game().state_at(run.now);
            if st.over {
                break;
            }
            check_position(&st.pos, n)?;
            let count = st.pos.pieces().len();
            prop_assert!(count <= pieces, "pieces appeared");
            pieces = count;
            // Now and then a Referee edits controllers, the time left, the times of
            // infection or the Order; each edit is accepted (a clock edit needs a limit
            // running).
            if next(&mut rng).is_multiple_of(30) {
                let text = match next(&mut rng) % 4 {
                    0 => {
                        let a = next(&mut rng) as usize % n + 1;
                        let to = next(&mut rng) as usize % (n + 1);
                        let to = if to == n { "pending".to_string() } else { format!("@{}", players[to]) };
                        format!("/edit controller army:{a} to:{to}")
                    }
                    1 => format!("/edit clock left:{}s", 1 + next(&mut rng) % 400),
                    2 => {
                        let undead: Vec<String> =
                            st.pos.infected.iter().rev().map(|&p| format!("@{}", players[p])).collect();
                        format!("/edit undead order:{}", if undead.is_empty() { "-".to_string() } else { undead.join(" ") })
                    }
                    _ => {
                        let mut order = st.pos.order.clone();
                        order.rotate_left(1);
                        let o: Vec<String> = order.iter().map(|a| (a + 1).to_string()).collect();
                        format!("/order set:{}", o.join(","))
                    }
                };
                let r = run.cmd("ref", &text);
                prop_assert!(
                    r.ok == Some(true) || r.text.contains("no limit is running"),
                    "{}: {}", text, r.text
                );
                continue;
            }
            if let Some(p) = st.open_vote() {
                let pn = p.n;
                let voter = (0..n).find(|&v| p.votes[v].is_none() && !st.pos.forfeited[v]);
                if let Some(v) = voter {
                    let c = if next(&mut rng).is_multiple_of(2) { "for" } else { "against" };
                    let r = run.cmd(players[v], &format!("/vote proposal:{pn} choice:{c}"));
                    prop_assert_eq!(r.ok, Some(true), "{}", r.text);
                }
                continue;
            }
            if let Some(d) = &st.demotion {
                let armies = st.pos.armies_of(d.author);
                let squares: Vec<String> = st
                    .pos
                    .pieces()
                    .into_iter()
                    .filter(|(_, p)| p.kind != Kind::King && armies.contains(&p.army))
                    .map(|(l, _)| l.name())
                    .collect();
                let sq = &squares[(next(&mut rng) as usize) % squares.len()];
                let r = run.cmd(players[d.author], &format!("/demote square:{sq}"));
                prop_assert_eq!(r.ok, Some(true), "{}", r.text);
                continue;
            }
            let Some(p) = st.current_player() else {
                // Nobody can play: a Referee assigns the first pending army.
                let a = (0..n).find(|&a| st.pos.controllers[a].is_none());
                let to = (0..n).find(|&q| !st.pos.forfeited[q]);
                if let (Some(a), Some(to)) = (a, to) {
                    let r = run.cmd("ref", &format!("/assign army:{} to:@{}", a + 1, players[to]));
                    prop_assert_eq!(r.ok, Some(true), "{}", r.text);
                    continue;
                }
                break;
            };
            let user = players[p];
            match (st.pos.turn.slot, st.pos.turn.part) {
                (Slot::Army(_), 1) => {
                    let moved = st.pos.turn.involved.iter().any(|&x| x);
                    if moved && next(&mut rng).is_multiple_of(4) {
                        let r = run.cmd(user, "/done");
                        prop_assert_eq!(r.ok, Some(true), "{}", r.text);
                        continue;
                    }
                    let offered = run.game().offered(user, run.now);
                    let list = offered.map_err(|e| TestCaseError::fail(e.to_string()))?;
                    if list.is_empty() {
                        // Only after a Referee's edit (edits apply as made): nothing is left
                        // to move, and /done ends part 1 (or, with a push standing and the
                        // first move not made, the part's limit does).
                        let r = run.cmd(user, "/done");
                        prop_assert!(
                            r.ok == Some(true) || r.text.contains("compulsory"),
                            "nothing offered, /done: {}", r.text
                        );
                        if r.ok != Some(true) {
                            run.now += 300;
                        }
                        continue;
                    }
                    let pick = &list[(next(&mut rng) as usize) % list.len()];
                    let text = if pick.starts_with("push ") {
                        format!("/{pick}")
                    } else {
                        format!("/move {pick}")
                    };
                    let r = run.cmd(user, &text);
                    prop_assert_eq!(r.ok, Some(true), "offered {} refused: {}", text, r.text);
                }
                (Slot::Army(_), 2) => {
                    // Part 2 always has an army on offer: when the last one is withdrawn
                    // (a Referee's edit or assignment), part 3 begins.
                    prop_assert!(!st.pos.offers.is_empty(), "part 2 with nothing on offer: {}", st.pos.to_text());
                    let a = st.pos.offers[0] + 1;
                    let what = if next(&mut rng).is_multiple_of(3) { "decline" } else { "take" };
                    let r = run.cmd(user, &format!("/{what} army:{a}"));
                    prop_assert_eq!(r.ok, Some(true), "{}", r.text);
                }
                _ => {
                    let text = if next(&mut rng).is_multiple_of(3) {
                        format!("/propose text:Rule from step {}.", run.now)
                    } else {
                        "/done".to_string()
                    };
                    let r = run.cmd(user, &text);
                    prop_assert_eq!(r.ok, Some(true), "{}: {}", text, r.text);
                }
            }
        }
        // Replaying the log gives the same state.
        let g = run.game();
        let again = Game::from_log(g.users.clone(), g.settings.clone(), g.log.clone())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(again.state_at(run.now).pos.to_text(), g.state_at(run.now).pos.to_text());
        prop_assert_eq!(again.status_text(run.now), g.status_text(run.now));
    }
}
