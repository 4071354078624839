//! The Kung Fu Bughouse picture: three boards side by side with players, hands, status lines,
//! frozen boards, kings held per team, last actions and a legend.

use std::collections::BTreeMap;

use super::board::{self, dot, BoardSpec, HandItem, DIM, PAGE, PANEL, TEXT};
use super::canvas::{fit_text, wrap_text, Align, Canvas};
use super::shapes::{sprite, Figure, OUTLINE};
use super::{fonts, LastMove, PlayerColour, RenderError};
use crate::engine::{Position, Side};

/// One seat of a board: the player's name, colour (their pieces' fill), team and hand.
#[derive(Clone, Debug)]
pub struct SeatView {
    /// Name shown.
    pub name: String,
    /// The player's colour.
    pub colour: PlayerColour,
    /// Team index (0 or 1) in [`KfbView::teams`].
    pub team: u8,
    /// Pieces held for dropping: abbreviation, colour and count.
    pub hand: Vec<(String, PlayerColour, u16)>,
    /// A short note after the name (`until 14:05 UTC`, `holds the blue king`); may be empty.
    pub note: String,
    /// Whether the player may move now, shown as a badge.
    pub state: SeatState,
}

/// What a seat may do now, shown as a badge beside the name.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum SeatState {
    /// No badge (the board is frozen for them, or the game is over).
    #[default]
    Idle,
    /// Free to move or drop.
    ToMove,
    /// Locked by Kung Fu timing.
    Locked,
}

/// One board of a KFB game as the game layer sees it.
#[derive(Clone, Debug)]
pub struct KfbBoardView {
    /// Board number (1–3).
    pub number: u8,
    /// The position; side 0 is the bottom (first) player, side 1 the top (second) player.
    pub position: Position,
    /// The player who moves first (ranks 1–2, drawn at the bottom).
    pub bottom: SeatView,
    /// The player who moves second (ranks 7–8, drawn at the top).
    pub top: SeatView,
    /// Whether the board is frozen (a side has no king on it).
    pub frozen: bool,
    /// Whose move, who is locked and until when.
    pub status_line: String,
    /// The last action on this board.
    pub last: Option<LastMove>,
}

/// A team and the kings it holds (its own on its boards and every king in its players' hands).
#[derive(Clone, Debug)]
pub struct TeamView {
    /// Team name.
    pub name: String,
    /// Colour of each king held, one entry per king.
    pub kings: Vec<PlayerColour>,
}

/// Everything the KFB picture shows.
#[derive(Clone, Debug)]
pub struct KfbView {
    /// Title line (game name, action number).
    pub title: String,
    /// The three boards, left to right.
    pub boards: [KfbBoardView; 3],
    /// The two teams.
    pub teams: [TeamView; 2],
}

const SQ: u32 = 64;
const GAP: u32 = 18;
const HEADER_H: u32 = 38;
const STATUS_PX: f32 = 16.0;
const STATUS_LINE_H: u32 = 22;
const NAME_H: u32 = 50;
const HAND_ICON: u32 = 42;
const HAND_H: u32 = 50;
const TITLE_H: u32 = 50;
const TEAM_ICON: u32 = 36;
const TEAM_H: u32 = 44;
const FROZEN_BADGE: [u8; 3] = [120, 190, 245];
const TEAM_TAGS: [&str; 2] = ["A", "B"];

/// Draws the three boards of a KFB game and returns PNG bytes.
///
/// # Errors
/// Only if the embedded font is unreadable or encoding fails.
pub fn render_kfb(view: &KfbView) -> Result<Vec<u8>, RenderError> {
    draw_kfb(view)?.encode()
}

/// Draws the KFB picture.
pub(crate) fn draw_kfb(view: &KfbView) -> Result<Canvas, RenderError> {
    let fonts = fonts()?;
    let margin = board::coord_margin(fonts, SQ);
    let panel_w = view
        .boards
        .iter()
        .map(|b| b.position.rules().geometry.files() as u32 * SQ + 2 * margin)
        .max()
        .unwrap_or(8 * SQ + 2 * margin);
    let board_h = view
        .boards
        .iter()
        .map(|b| b.position.rules().geometry.ranks() as u32 * SQ + 2 * margin)
        .max()
        .unwrap_or(8 * SQ + 2 * margin);
    let width = 3 * panel_w + 4 * GAP;
    let status: Vec<Vec<String>> = view
        .boards
        .iter()
        .map(|b| {
            let mut lines = wrap_text(
                &fonts.regular,
                STATUS_PX,
                &b.status_line,
                (panel_w - 24) as f32,
            );
            lines.truncate(3);
            lines
        })
        .collect();
    let status_lines = status.iter().map(Vec::len).max().unwrap_or(1).max(1) as u32;
    let status_h = status_lines * STATUS_LINE_H + 6;
    let panel_h = HEADER_H + status_h + NAME_H + HAND_H + board_h + HAND_H + NAME_H + 8;

    let mut legend = BTreeMap::new();
    for b in &view.boards {
        board::legend_of_position(&b.position, &mut legend);
        for seat in [&b.top, &b.bottom] {
            for (abbr, _, _) in &seat.hand {
                board::legend_add_abbr(&b.position.rules().catalog, abbr, &mut legend);
            }
        }
    }
    let legend_icon = 30;
    let legend_h = board::legend_height(fonts, &legend, width - 2 * GAP, legend_icon);
    let height = TITLE_H + panel_h + GAP + 2 * TEAM_H + legend_h + GAP;
    let panel_x = |i: usize| (GAP + i as u32 * (panel_w + GAP)) as i32;
    let panels: Vec<(i32, i32, u32, u32, _)> = (0..view.boards.len())
        .map(|i| (panel_x(i), TITLE_H as i32, panel_w, panel_h, PANEL))
        .collect();
    let mut canvas = Canvas::laid(width, height, PAGE, &panels);

    // Title.
    let title = fit_text(&fonts.bold, 24.0, &view.title, (width - 2 * GAP) as f32);
    canvas.text(
        &fonts.bold,
        24.0,
        &title,
        GAP as f32,
        TITLE_H as f32 / 2.0 + 2.0,
        Align::Left,
        TEXT,
    );

    for (i, b) in view.boards.iter().enumerate() {
        let px = panel_x(i);
        let mut y = TITLE_H as i32;
        // Header: board number and frozen badge.
        canvas.text(
            &fonts.bold,
            21.0,
            &format!("Board {}", b.number),
            (px + 12) as f32,
            (y + HEADER_H as i32 / 2) as f32,
            Align::Left,
            TEXT,
        );
        if b.frozen {
            let label = "FROZEN";
            let w = super::canvas::text_width(&fonts.bold, 17.0, label) as u32 + 20;
            let bx = px + panel_w as i32 - w as i32 - 10;
            canvas.fill(bx, y + 6, w, HEADER_H - 12, FROZEN_BADGE);
            canvas.text(
                &fonts.bold,
                17.0,
                label,
                (bx + w as i32 / 2) as f32,
                (y + HEADER_H as i32 / 2) as f32,
                Align::Centre,
                [16, 40, 70],
            );
        }
        y += HEADER_H as i32;
        for (k, line) in status[i].iter().enumerate() {
            canvas.text(
                &fonts.regular,
                STATUS_PX,
                line,
                (px + 12) as f32,
                (y + k as i32 * STATUS_LINE_H as i32 + STATUS_LINE_H as i32 / 2) as f32,
                Align::Left,
                TEXT,
            );
        }
        y += status_h as i32;
        let catalog = &b.position.rules().catalog;
        let hand_items = |seat: &SeatView, side: Side| -> Vec<HandItem> {
            seat.hand
                .iter()
                .map(|(abbr, colour, n)| HandItem {
                    figure: board::figure_by_abbr(catalog, abbr, side),
                    colour: colour.rgb(),
                    count: *n,
                })
                .collect()
        };
        let inner_x = px + margin as i32;
        let inner_w = panel_w - 2 * margin;
        // Top seat: name, then hand.
        let army = |side: usize| {
            let rules = b.position.rules();
            rules
                .side_armies
                .get(side)
                .map_or("", |&a| rules.catalog.army(a).name)
        };
        seat_line(&mut canvas, view, &b.top, army(1), inner_x, y, inner_w);
        y += NAME_H as i32;
        hand_row(
            &mut canvas,
            &hand_items(&b.top, Side(1)),
            inner_x,
            y,
            inner_w,
        );
        y += HAND_H as i32;
        let colour_of = |s: Side| {
            if s.0 == 0 {
                b.bottom.colour.rgb()
            } else {
                b.top.colour.rgb()
            }
        };
        let spec = BoardSpec {
            pos: &b.position,
            sq: SQ,
            margin,
            flipped: false,
            last: b.last.as_ref(),
            colour_of: &colour_of,
            frozen: b.frozen,
        };
        let (bw, _) = spec.size();
        board::draw_board(
            &mut canvas,
            fonts,
            &spec,
            px + (panel_w as i32 - bw as i32) / 2,
            y,
        );
        y += board_h as i32;
        // Bottom seat: hand, then name.
        hand_row(
            &mut canvas,
            &hand_items(&b.bottom, Side(0)),
            inner_x,
            y + 2,
            inner_w,
        );
        y += HAND_H as i32;
        seat_line(&mut canvas, view, &b.bottom, army(0), inner_x, y, inner_w);
    }

    // Kings held per team.
    let mut y = (TITLE_H + panel_h + GAP) as i32;
    for (t, team) in view.teams.iter().enumerate() {
        let x = GAP as i32;
        let cy = y + TEAM_H as i32 / 2;
        let tag = TEAM_TAGS.get(t).copied().unwrap_or("?");
        let w = canvas.text(
            &fonts.bold,
            19.0,
            &format!("Team {tag} · {}", team.name),
            x as f32,
            cy as f32,
            Align::Left,
            TEXT,
        );
        let mut kx = x + w as i32 + 14;
        let kings = format!("kings held: {} of 6", team.kings.len());
        let kw = canvas.text(
            &fonts.regular,
            17.0,
            &kings,
            kx as f32,
            cy as f32,
            Align::Left,
            DIM,
        );
        kx += kw as i32 + 10;
        for c in &team.kings {
            sprite(fonts, &Figure::King, c.rgb(), TEAM_ICON as usize).draw(
                &mut canvas,
                kx,
                cy - TEAM_ICON as i32 / 2 - 2,
            );
            kx += TEAM_ICON as i32 + 2;
        }
        y += TEAM_H as i32;
    }
    if legend_h > 0 {
        let catalog = &view.boards[0].position.rules().catalog;
        board::draw_legend(
            &mut canvas,
            fonts,
            catalog,
            &legend,
            GAP as i32,
            y,
            width - 2 * GAP,
            legend_icon,
        );
    }
    Ok(canvas)
}

/// A seat's two lines: colour disc, name, note and state badge; then colour, army and team.
#[allow(clippy::too_many_arguments)]
fn seat_line(
    canvas: &mut Canvas,
    view: &KfbView,
    seat: &SeatView,
    army: &str,
    x: i32,
    y: i32,
    w: u32,
) {
    let Ok(fonts) = fonts() else { return };
    let cy = y + 15;
    dot(canvas, x + 10, cy, 10, OUTLINE);
    dot(canvas, x + 10, cy, 8, seat.colour.rgb());
    let badge = match seat.state {
        SeatState::ToMove => Some(("TO MOVE", [62, 160, 88])),
        SeatState::Locked => Some(("LOCKED", [196, 122, 52])),
        SeatState::Idle => None,
    };
    let mut right = x + w as i32;
    if let Some((label, bg)) = badge {
        let bw = super::canvas::text_width(&fonts.bold, 13.0, label) as u32 + 16;
        right -= bw as i32;
        canvas.fill(right, cy - 11, bw, 22, bg);
        canvas.text(
            &fonts.bold,
            13.0,
            label,
            (right + bw as i32 / 2) as f32,
            cy as f32,
            Align::Centre,
            [255, 255, 255],
        );
        right -= 8;
    }
    let name = fit_text(&fonts.bold, 18.0, &seat.name, w as f32 * 0.4);
    let nw = canvas.text(
        &fonts.bold,
        18.0,
        &name,
        (x + 28) as f32,
        cy as f32,
        Align::Left,
        TEXT,
    );
    let note_x = x as f32 + 28.0 + nw + 10.0;
    let note = fit_text(
        &fonts.regular,
        15.0,
        &seat.note,
        (right as f32 - note_x).max(0.0),
    );
    canvas.text(
        &fonts.regular,
        15.0,
        &note,
        note_x,
        cy as f32,
        Align::Left,
        TEXT,
    );
    let team = view
        .teams
        .get(seat.team as usize)
        .map(|t| {
            let tag = TEAM_TAGS.get(seat.team as usize).copied().unwrap_or("?");
            format!("team {tag} {}", t.name)
        })
        .unwrap_or_default();
    let details = format!("{} · {army} · {team}", seat.colour.name());
    let details = fit_text(&fonts.regular, 14.0, &details, w as f32 - 28.0);
    canvas.text(
        &fonts.regular,
        14.0,
        &details,
        (x + 28) as f32,
        (y + 36) as f32,
        Align::Left,
        DIM,
    );
}

/// A hand row, or "no pieces in hand".
fn hand_row(canvas: &mut Canvas, items: &[HandItem], x: i32, y: i32, w: u32) {
    let Ok(fonts) = fonts() else { return };
    if items.is_empty() {
        canvas.text(
            &fonts.regular,
            15.0,
            "no pieces in hand",
            x as f32,
            (y + HAND_H as i32 / 2) as f32,
            Align::Left,
            DIM,
        );
    } else {
        board::draw_hand(
            canvas,
            fonts,
            items,
            x,
            y + (HAND_H - HAND_ICON) as i32 / 2,
            HAND_ICON,
            w,
        );
    }
}

/// An example game (the seating of the rules document's example) with hands, a frozen board
/// and a captured king held in hand; used by the benchmark and the golden-image tests.
///
/// # Errors
/// Only if the built-in example positions stop parsing.
pub fn example_kfb() -> Result<KfbView, RenderError> {
    use PlayerColour::{Blue, LightGreen, Red};
    let pos = |variant: &str, fen: &str| crate::cli::position(variant, Some(fen));
    let seat = |name: &str, colour, team, hand: &[(&str, PlayerColour, u16)], note: &str, state| {
        SeatView {
            name: name.into(),
            colour,
            team,
            hand: hand
                .iter()
                .map(|&(a, c, n)| (a.to_string(), c, n))
                .collect(),
            note: note.into(),
            state,
        }
    };
    let b1 = pos(
        "kfb-board:clobberers-fide",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/4P3/4{W}3/PPPP1PPP/{Be}{W}{FAD}{Ca}K{FAD}1{Be}[] w - - 4 4",
    )?;
    let last1 = LastMove::from_text(&b1, "Bf8-c5")?;
    let b2 = pos(
        "kfb-board:rookies-nutty",
        "{cr}{fb}{cn}{co}{Ch}{cn}1{cr}/ppp2ppp/5{fb}2/3pp3/4P3/5{WR}2/PPPP1PPP/R{WR}{HD}1K{HD}1R[] b - - 0 6",
    )?;
    let last2 = LastMove::from_text(&b2, "Chd6xe8")?;
    let b3 = pos(
        "kfb-board:forward-nutty",
        "{cr}{fb}1{co}k{cn}{fb}{cr}/pp1ppp1p/8/3w4/2{BN}5/5{NB}2/PPPPPPPP/{CR}{NB}1{FQ}K{BN}1{CR}[] w - - 2 5",
    )?;
    let last3 = LastMove::from_text(&b3, "W@d5")?;
    Ok(KfbView {
        title: "Kung Fu Bughouse · Dragons vs Tigers · action 41".into(),
        boards: [
            KfbBoardView {
                number: 1,
                position: b1,
                bottom: seat("Lena", LightGreen, 0, &[("CN", LightGreen, 1), ("P", LightGreen, 2)], "", SeatState::ToMove),
                top: seat("Ruth", Red, 1, &[("WR", Red, 1), ("P", Red, 1)], "until 14:05 UTC", SeatState::Locked),
                frozen: false,
                status_line: "Lena (lightgreen) to move · Ruth (red) locked until 14:05 UTC or until Lena moves".into(),
                last: Some(last1),
            },
            KfbBoardView {
                number: 2,
                position: b2,
                bottom: seat("Rob", Red, 0, &[("K", Blue, 1), ("N", Red, 1)], "holds the blue king", SeatState::Idle),
                top: seat("Bo", Blue, 1, &[("NB", Blue, 1), ("P", Blue, 3)], "no king on the board", SeatState::Idle),
                frozen: true,
                status_line: "Frozen: Bo (blue) has no king on this board; only a blue king drop unfreezes it".into(),
                last: Some(last2),
            },
            KfbBoardView {
                number: 3,
                position: b3,
                bottom: seat("Blake", Blue, 0, &[("Fb", Blue, 1)], "", SeatState::ToMove),
                top: seat("Lou", LightGreen, 1, &[("Ca", LightGreen, 1)], "until 15:20 UTC", SeatState::Locked),
                frozen: false,
                status_line: "Blake (blue) to move · Lou (lightgreen) locked until 15:20 UTC; Lou's W on d5 is locked until Blake moves".into(),
                last: Some(last3),
            },
        ],
        teams: [
            TeamView {
                name: "Dragons".into(),
                kings: vec![Red, LightGreen, Blue, Blue],
            },
            TeamView {
                name: "Tigers".into(),
                kings: vec![Red, LightGreen],
            },
        ],
    })
}
