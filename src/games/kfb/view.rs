//! The picture of a KFB game: the game's state turned into the renderer's view.

use crate::engine::Side;
use crate::games::kfb::{team_of, Game, COLOUR_NAMES};
use crate::layer::log::Folded;
use std::sync::Arc;

use super::picture::{
    render_kfb, render_kfb_over, KfbBoardView, KfbView, SeatState, SeatView, TeamView,
};
use crate::render::animation::{BoardStill, Still};
use crate::render::{LastMove, PlayerColour, RenderError, RenderOptions};
use crate::time::Timestamp;

fn colour(c: u8) -> PlayerColour {
    match c {
        0 => PlayerColour::Red,
        1 => PlayerColour::LightGreen,
        _ => PlayerColour::Blue,
    }
}

/// `14:05 UTC` for a Unix time.
pub fn clock_text(t: Timestamp) -> String {
    let s = t % 86_400;
    format!("{:02}:{:02} UTC", s / 3600, (s % 3600) / 60)
}

/// Renders the picture that answers a move as PNG bytes: the board of the last move in
/// effect large, the other two smaller ([`KfbView::focus`]; three equal boards before any
/// move); with `thread`, drawn over the game's last picture where it is kept
/// ([`render_kfb_over`]).
///
/// # Errors
/// Before the draft is complete there is no board to draw; rendering failures.
pub fn kfb_picture(
    game: &Game,
    thread: Option<&str>,
    now: Timestamp,
) -> Result<Vec<u8>, RenderError> {
    let mut view = kfb_view(game, now)?;
    view.focus = last_board(game);
    match thread {
        Some(thread) => render_kfb_over(thread, view),
        None => render_kfb(&view),
    }
}

/// The board of the last move in effect (`None` before any).
pub fn last_board(game: &Game) -> Option<usize> {
    let player = game
        .log()
        .in_effect()
        .filter_map(|e| match &e.action {
            crate::games::kfb::Action::Move { player, .. } => Some(*player),
            _ => None,
        })
        .last()?;
    game.state().players.get(player).map(|p| p.board)
}

/// A replay's picture of the game at `now`: the three boards, or one (`board`, from 0) as
/// a board of its own with its players' hands; `None` before the draft is complete.
pub fn replay_still(game: &Game, board: Option<usize>, now: Timestamp) -> Option<Arc<dyn Still>> {
    let view = kfb_view(game, now).ok()?;
    let Some(b) = board else {
        return Some(Arc::new(view));
    };
    let bv = view.boards.into_iter().nth(b)?;
    // Once the game is over, the board's caption says so (as the three boards' title does).
    let result = match &game.state().winner {
        Some((t, how)) => format!(" · team {} wins: {how}", t + 1),
        None => String::new(),
    };
    Some(Arc::new(BoardStill {
        position: Box::new(bv.position),
        last: bv.last,
        options: RenderOptions {
            side_colours: vec![bv.bottom.colour, bv.top.colour],
            caption: Some(format!(
                "Board {}: {} (bottom) vs {}{result}",
                b + 1,
                bv.bottom.name,
                bv.top.name
            )),
            ..RenderOptions::default()
        },
    }))
}

/// What the game's picture shows at `now`.
///
/// # Errors
/// Before the draft is complete there is no board to draw.
pub fn kfb_view(game: &Game, now: Timestamp) -> Result<KfbView, RenderError> {
    let st = game.state();
    let Some(boards) = &st.boards else {
        return Err(RenderError::Message(
            "there is no board to draw until the draft is complete".into(),
        ));
    };
    let held = |seat: usize| -> Vec<u8> {
        let p = &st.players[seat];
        let cat = game.catalog();
        let mut v = Vec::new();
        for (hp, n) in boards[p.board].pos.hand(p.side).entries() {
            if cat.def(hp.kind).royal {
                v.extend(std::iter::repeat_n(hp.colour.0, *n as usize));
            }
        }
        v
    };
    let seat_view = |seat: usize| -> SeatView {
        let p = &st.players[seat];
        let pos = &boards[p.board].pos;
        let hand = pos
            .hand(p.side)
            .entries()
            .iter()
            .map(|(hp, n)| {
                (
                    game.catalog().def(hp.kind).abbr.to_string(),
                    colour(hp.colour.0),
                    *n,
                )
            })
            .collect();
        let locked = game.locked_until(seat, now);
        let state = if st.winner.is_some() {
            SeatState::Idle
        } else if locked.is_some() {
            SeatState::Locked
        } else if game.is_free(seat, now) {
            SeatState::ToMove
        } else {
            SeatState::Idle
        };
        let mut notes = Vec::new();
        if let Some(u) = locked {
            notes.push(format!("until {}", clock_text(u)));
        }
        if let Some(back) = game.away.until(&p.user, now) {
            notes.push(crate::layer::clock::until_text(back, now));
        }
        if pos.royal_count(p.side) == 0 {
            notes.push("no king on the board".into());
        }
        let kings: Vec<&str> = held(seat)
            .iter()
            .map(|&c| COLOUR_NAMES[c as usize % 3])
            .collect();
        if !kings.is_empty() {
            notes.push(format!(
                "holds the {} king{}",
                kings.join(" and "),
                if kings.len() > 1 { "s" } else { "" }
            ));
        }
        notes.push(format!(
            "inactivity {}/{}",
            p.counter, game.settings.inactivity_posts
        ));
        SeatView {
            name: p.user.clone(),
            colour: colour(p.colour.unwrap_or(0)),
            team: team_of(seat) as u8,
            hand,
            note: notes.join(" · "),
            state,
        }
    };
    let mut views = Vec::new();
    for (i, b) in boards.iter().enumerate() {
        let frozen = b.pos.royal_count(Side(0)) == 0 || b.pos.royal_count(Side(1)) == 0;
        let name = |s: usize| {
            let p = &st.players[s];
            format!(
                "{} ({})",
                p.user,
                COLOUR_NAMES[p.colour.unwrap_or(0) as usize % 3]
            )
        };
        let mut parts = Vec::new();
        for s in [b.first, b.second] {
            if let Some(u) = game.locked_until(s, now) {
                parts.push(format!("{} locked until {}", name(s), clock_text(u)));
            } else if game.is_free(s, now) {
                parts.push(format!("{} to move", name(s)));
            }
        }
        let status_line = if frozen {
            let kingless: Vec<String> = [b.first, b.second]
                .into_iter()
                .filter(|&s| b.pos.royal_count(st.players[s].side) == 0)
                .map(name)
                .collect();
            format!("Frozen: {} has no king on this board; only a king drop of that colour unfreezes it", kingless.join(" and "))
        } else if b.first == b.second || !b.first_moved {
            format!("{} moves first", name(b.first))
        } else {
            parts.join(" · ")
        };
        let last = b.last.map(|(from, to)| LastMove {
            from,
            to: from.map(|_| to),
            drop: if from.is_none() { Some(to) } else { None },
            others: Vec::new(),
        });
        views.push(KfbBoardView {
            number: i as u8 + 1,
            position: b.pos.clone(),
            bottom: seat_view(b.first),
            top: seat_view(b.second),
            frozen,
            status_line,
            last,
        });
    }
    let team = |t: usize| TeamView {
        name: format!("Team {}", t + 1),
        kings: (t * 3..t * 3 + 3).flat_map(held).map(colour).collect(),
    };
    let title = match &st.winner {
        Some((t, how)) => format!("Kung Fu Bughouse · team {} wins: {how}", t + 1),
        None => format!("Kung Fu Bughouse · action {}", game.next_number() - 1),
    };
    let boards: [KfbBoardView; 3] = views
        .try_into()
        .map_err(|_| RenderError::Message("a KFB game has three boards".into()))?;
    Ok(KfbView {
        title,
        boards,
        teams: [team(0), team(1)],
        focus: None,
    })
}
