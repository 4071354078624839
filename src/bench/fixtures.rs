//! The games the benchmarks play: each game set up as the console scripts do, then played
//! from the moves the bot offers ([`example_game`]).

use crate::commands::{parse_command, Asker, Caller, Hub, Roles, ThreadGame};
use crate::time::Timestamp;

/// Where the example games' clocks start (2026-01-01T00:00:00Z).
pub const EXAMPLE_START: Timestamp = 1_767_225_600;

/// The Kung Fu Bughouse example game's first line, as the organiser types it.
pub const KFB_NEW: &str = "/kfb new team1:@a @b @c team2:@d @e @f seed:1 move_limit:6m";

/// The whole draft, as `/pick` commands by player, of the Kung Fu Bughouse game
/// `/kfb new team1:@a @b @c team2:@d @e @f seed:1` ([`KFB_NEW`]): seed 1 names f as the first
/// picker (KFB rules 1.8). The example game and the store benchmark play it; tests share it.
pub const SEED_ONE_DRAFT: [(&str, &str); 6] = [
    ("f", "/pick order:second color:red army:fide"),
    ("a", "/pick order:first color:red army:fide"),
    ("e", "/pick order:first color:blue army:rookies"),
    ("b", "/pick order:second color:lightgreen army:nutty"),
    ("d", "/pick order:second color:lightgreen army:clobberers"),
    ("c", "/pick order:first color:blue army:forward"),
];

/// The first lines of the example games ([`example_game`]): who types what, as the console
/// reads it (`org` organises).
const KFB_SETUP: &[(&str, &str)] = &[
    ("org", KFB_NEW),
    SEED_ONE_DRAFT[0],
    SEED_ONE_DRAFT[1],
    SEED_ONE_DRAFT[2],
    SEED_ONE_DRAFT[3],
    SEED_ONE_DRAFT[4],
    SEED_ONE_DRAFT[5],
];
const ULTIMATE_SETUP: &[(&str, &str)] = &[(
    "org",
    "/ultimate new silver:@ann red:@ben black:@cat green:@dan seed:7 move_limit:2d",
)];
const CHEX_SETUP: &[(&str, &str)] = &[("org", "/chex new white:@ann black:@ben seed:42")];
const NOMIC_SETUP: &[(&str, &str)] = &[(
    "org",
    "/nomic new players:@ann @ben @cat referees:@ref order:@ann @ben @cat seed:5",
)];
const PARTY_SETUP: &[(&str, &str)] = &[
    (
        "org",
        "/party new umpire:@uma swingers:@ann @ben @cat seed:7 turn_limit:3d",
    ),
    ("ann", "/party pieces set:RRJPP"),
    ("ben", "/party pieces set:RBCJP"),
    ("cat", "/party pieces set:RRBPP"),
];

/// A game played through the command layer for benchmarks and tests (`kfb`, `ultimate`,
/// `chex`, `nomic` or `party`), set up as the console scripts do, then `plays` moves, each
/// player in turn playing an offered move (a quiet one when there is one, so the game runs
/// long; `/done` when nobody has one), the clock moving on a few minutes each time. Fewer
/// if the game ends first.
///
/// # Errors
/// An unknown game, or a setup line refused.
pub fn example_game(game: &str, plays: usize) -> Result<Box<dyn ThreadGame>, String> {
    let (setup, users): (&[(&str, &str)], &[&str]) = match game {
        "kfb" => (KFB_SETUP, &["a", "b", "c", "d", "e", "f"]),
        "ultimate" => (ULTIMATE_SETUP, &["ann", "ben", "cat", "dan"]),
        "chex" => (CHEX_SETUP, &["ann", "ben"]),
        "nomic" => (NOMIC_SETUP, &["ann", "ben", "cat"]),
        "party" => (PARTY_SETUP, &["ann", "ben", "cat"]),
        other => return Err(format!("no example game {other}")),
    };
    let thread = "example";
    let mut hub = Hub::new();
    let mut now = EXAMPLE_START;
    let run = |hub: &mut Hub, user: &str, line: &str, now: Timestamp| {
        let caller = Caller {
            user,
            roles: Roles {
                organiser: user == "org",
                moderator: false,
            },
            thread,
            now,
        };
        let cmd = parse_command(line).ok_or_else(|| format!("not a command: {line}"))?;
        let reply = hub.handle(&caller, 1, &cmd, line);
        Ok::<bool, String>(reply.ok == Some(true))
    };
    for &(user, line) in setup {
        if !run(&mut hub, user, line, now)? {
            return Err(format!("{user} {line}: refused"));
        }
        now += 60;
    }
    let (mut played, mut draw, mut idle) = (0, 0u64, 0);
    while played < plays && idle < 20 {
        let mut moved = false;
        for &user in users {
            let Some(game) = hub.game(thread) else {
                return Err("the game is gone".into());
            };
            if game.finished() || played >= plays {
                break;
            }
            let offered = game
                .offered_moves(&Asker::new(user, now))
                .unwrap_or_default();
            let quiet: Vec<&String> = offered.iter().filter(|m| !m.contains('x')).collect();
            let pool: Vec<&String> = if quiet.is_empty() {
                offered.iter().collect()
            } else {
                quiet
            };
            if pool.is_empty() {
                continue;
            }
            draw = crate::games::seeded::splitmix(draw);
            let pick = pool[(draw % pool.len() as u64) as usize];
            if run(&mut hub, user, &format!("/move {pick}"), now)? {
                played += 1;
                moved = true;
            }
            now += 90;
        }
        if hub.game(thread).is_some_and(|g| g.finished()) {
            break;
        }
        if !moved {
            for &user in users {
                moved |= run(&mut hub, user, "/done", now)?;
            }
        }
        idle = if moved { 0 } else { idle + 1 };
        now += 400;
    }
    hub.game(thread)
        .map(|g| g.clone_box())
        .ok_or_else(|| "the game is gone".into())
}

/// The number of a game's last action.
pub fn last_number(g: &dyn ThreadGame) -> u32 {
    (0..g.log_len())
        .filter_map(|i| g.row(i)?.ok()?.number)
        .max()
        .unwrap_or(0)
}
