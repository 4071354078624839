//! Export of a game as text: a BPGN-like log of every action (docs/games/kfb.md, "Export format").

use super::game::{describe, Action, Entry, Game, Settings, COLOUR_NAMES};
pub use crate::games::export_common::ImportError;
use crate::games::export_common::{push_log, push_setup, push_tag, read_setup, Setup};
use crate::layer::clock::Away;
use crate::layer::log::export_line;

/// Reads a game back from [`bpgn`] text (the `;;` data after each line).
///
/// # Errors
/// An [`ImportError`] naming the line.
pub fn import(text: &str) -> Result<Game, ImportError> {
    let (setup, entries): (Setup<Settings>, Vec<Entry>) =
        read_setup(text, "game", "no [Setup …] line")?;
    Game::from_log_away(setup.users, setup.settings, entries, Away::none())
        .map_err(|e| ImportError::Replay(e.to_string()))
}

/// The whole log, one line per entry: `#N <time> [board B] <user> (<seat>): <action>`, with
/// reverted entries marked, after a header of `[Key "Value"]` tags.
pub fn bpgn(game: &Game) -> String {
    let mut s = String::new();
    s.push_str("[Event \"Kung Fu Bughouse with Different Armies\"]\n");
    push_tag(&mut s, "Team1", game.users[..3].join(", "));
    push_tag(&mut s, "Team2", game.users[3..].join(", "));
    push_tag(&mut s, "Seed", game.settings.seed);
    push_tag(&mut s, "MoveLimit", game.settings.move_limit);
    push_tag(&mut s, "InactivityPosts", game.settings.inactivity_posts);
    let result = match &game.state().winner {
        Some((t, how)) => format!("team {} ({how})", t + 1),
        None => "*".into(),
    };
    push_tag(&mut s, "Result", result);
    push_setup(&mut s, &Setup::of(game));
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
    push_log(&mut s, &game.log, |e| {
        let board = match (&e.action, &st.boards) {
            (Action::Move { player, .. }, Some(_)) => {
                format!(" board {}", st.players[*player].board + 1)
            }
            _ => String::new(),
        };
        export_line(e, &board, &describe(&e.action, &game.users))
    });
    s
}

/// One PGN per board: the moves made there in order. Kung Fu timing lets a player move twice
/// in a row, so moves are listed with the mover's name in a comment rather than numbered in
/// pairs; drops and multi-letter pieces are in the project's notation.
pub fn board_pgns(game: &Game) -> Vec<String> {
    let st = game.state();
    let Some(boards) = &st.boards else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, b) in boards.iter().enumerate() {
        let first = &st.players[b.first];
        let second = &st.players[b.second];
        let army =
            |a: Option<crate::engine::ArmyId>| a.map_or("?", |a| game.catalog().army(a).code);
        let mut s = String::new();
        s.push_str(&format!("[Event \"Kung Fu Bughouse board {}\"]\n", i + 1));
        s.push_str(&format!(
            "[White \"{}\"]\n[Black \"{}\"]\n",
            first.user, second.user
        ));
        s.push_str(&format!(
            "[WhiteArmy \"{}\"]\n[BlackArmy \"{}\"]\n",
            army(first.army),
            army(second.army)
        ));
        s.push_str(&format!(
            "[Variant \"kfb-board:{}-{}\"]\n\n",
            army(first.army),
            army(second.army)
        ));
        let mut n = 0;
        for e in &game.log {
            if e.reverted.is_some() {
                continue;
            }
            if let Action::Move {
                player, notation, ..
            } = &e.action
            {
                if st.players[*player].board == i {
                    n += 1;
                    s.push_str(&format!(
                        "{n}. {{{}}} {notation} ",
                        st.players[*player].user
                    ));
                }
            }
        }
        s.push_str("*\n");
        out.push(s);
    }
    out
}
