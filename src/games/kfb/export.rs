//! Export of a game as text: a BPGN-like log of every action (see the README).

use super::game::{describe, Action, Game, COLOUR_NAMES};

/// The whole log, one line per entry: `#N <time> [board B] <user> (<seat>): <action>`, with
/// reverted entries marked, after a header of `[Key "Value"]` tags.
pub fn bpgn(game: &Game) -> String {
    let mut s = String::new();
    s.push_str("[Event \"Kung Fu Bughouse with Different Armies\"]\n");
    s.push_str(&format!("[Team1 \"{}\"]\n", game.users[..3].join(", ")));
    s.push_str(&format!("[Team2 \"{}\"]\n", game.users[3..].join(", ")));
    s.push_str(&format!("[Seed \"{}\"]\n", game.settings.seed));
    s.push_str(&format!("[MoveLimit \"{}\"]\n", game.settings.move_limit));
    s.push_str(&format!(
        "[InactivityPosts \"{}\"]\n",
        game.settings.inactivity_posts
    ));
    let result = match &game.state().winner {
        Some((t, how)) => format!("team {} ({how})", t + 1),
        None => "*".into(),
    };
    s.push_str(&format!("[Result \"{result}\"]\n"));
    let st = game.state();
    if let Some(boards) = &st.boards {
        for (i, b) in boards.iter().enumerate() {
            let name = |seat: usize| {
                let p = &st.players[seat];
                format!(
                    "{} {} {}",
                    p.user,
                    p.colour.map_or("?", |c| COLOUR_NAMES[c as usize]),
                    p.army.map_or("?", |a| game.catalog().army(a).code)
                )
            };
            s.push_str(&format!(
                "[Board{} \"{} - {}\"]\n",
                i + 1,
                name(b.first),
                name(b.second)
            ));
        }
    }
    s.push('\n');
    for e in &game.log {
        let num = e.number.map_or("-".to_string(), |n| format!("#{n}"));
        let board = match (&e.action, &st.boards) {
            (Action::Move { player, .. }, Some(_)) => {
                format!(" board {}", st.players[*player].board + 1)
            }
            _ => String::new(),
        };
        let rev = match &e.reverted {
            Some((by, why)) => format!(" {{reverted by {by}: {why}}}"),
            None => String::new(),
        };
        s.push_str(&format!(
            "{num} t={}{board} {}: {}{rev}\n",
            e.time,
            e.actor,
            describe(&e.action, &game.users)
        ));
    }
    s
}
