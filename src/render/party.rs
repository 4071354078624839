//! The Party Chess picture: the 20×20 board with every Swinger's pieces in a distinct named
//! colour and the piece's letter, the promotion squares and the Demon's zone marked, the last
//! play highlighted (an Archer's shot and a Tornado's path drawn as such), and beside the
//! board the Play List, who is in check, Weights, off-board pieces and a legend.

use super::board::{PAGE, TEXT};
use super::canvas::{Align, Canvas, Rgb8};
use super::{fonts, RenderError};
use crate::games::party::board::{in_demon_zone, is_promotion_square};
use crate::games::party::{Game, Kind, Play, Sq};

/// Sixteen distinct seat colours with their names.
pub const SEAT_COLOURS: [(&str, Rgb8); 16] = [
    ("red", [220, 50, 47]),
    ("blue", [38, 110, 220]),
    ("green", [40, 160, 60]),
    ("orange", [240, 140, 20]),
    ("purple", [140, 70, 190]),
    ("teal", [20, 160, 160]),
    ("pink", [230, 100, 170]),
    ("brown", [130, 80, 40]),
    ("black", [20, 20, 20]),
    ("white", [250, 250, 250]),
    ("olive", [128, 128, 0]),
    ("navy", [20, 30, 110]),
    ("lime", [160, 230, 40]),
    ("maroon", [120, 10, 40]),
    ("gold", [230, 200, 40]),
    ("grey", [128, 128, 128]),
];

/// The colour of a seat (from 1), and its name.
pub fn seat_colour(seat: u8) -> (&'static str, Rgb8) {
    SEAT_COLOURS[usize::from(seat.saturating_sub(1)) % SEAT_COLOURS.len()]
}

/// What the picture shows.
#[derive(Clone, Debug, Default)]
pub struct PartyView {
    /// (square, letter, seat).
    pub pieces: Vec<(Sq, char, u8)>,
    /// Highlighted squares of the last play: (square, kind 0 = from, 1 = to/path, 2 = shot).
    pub last: Vec<(Sq, u8)>,
    /// Lines beside the board.
    pub side: Vec<(String, Option<u8>)>,
    /// Title.
    pub title: String,
}

/// The view of a game.
pub fn view_of(game: &Game) -> PartyView {
    let pos = game.position();
    let mut v = PartyView {
        pieces: pos
            .pieces()
            .map(|(s, p)| (s, p.kind.letter(), p.seat))
            .collect(),
        title: format!("Party Chess · #{}", game.next_number() - 1),
        ..PartyView::default()
    };
    if let Some(l) = &game.state().last {
        match &l.play {
            Play::Move(m) => {
                v.last.push((m.from, 0));
                for &c in &m.chain {
                    v.last.push((c, 1));
                }
                if let Some(b) = m.bounce {
                    v.last.push((b, 1));
                }
                v.last.push((m.to, if m.standoff { 2 } else { 1 }));
            }
            Play::Place { to, .. } => v.last.push((*to, 1)),
            _ => {}
        }
        v.side.push((
            format!("Last: {} {}", game.user(l.seat), l.text),
            Some(l.seat),
        ));
    }
    v.side.push(("Play List:".into(), None));
    let checked = game.in_check();
    for (i, &s) in pos.list.iter().enumerate() {
        let mark = if checked.contains(&s) { " CHECK" } else { "" };
        v.side.push((
            format!("{}. {} ({}){mark}", i + 1, game.user(s), seat_colour(s).0),
            Some(s),
        ));
    }
    let w = game.weights_line();
    v.side.push((w, None));
    for s in pos.seats() {
        let h: String = pos.hand(s).iter().map(|p| p.hand_text()).collect();
        if !h.is_empty() {
            v.side
                .push((format!("{} off-board: {h}", game.user(s)), Some(s)));
        }
    }
    v.side.push((
        "Legend: K King R Rook C Camel B Bishop P Pawn O CopyCat E Echo J Jester".into(),
        None,
    ));
    v.side.push((
        "Q Qball H HarfyBlob A Archer Z Kamikaze ! Bouncy D Demon T Tornado % Cantor".into(),
        None,
    ));
    v.side.push((
        "gold squares: promotion j10 k10 j11 k11; tinted: Demon zone f6-n14".into(),
        None,
    ));
    v
}

const CELL: u32 = 40;
const MARGIN: u32 = 24;
const SIDE_W: u32 = 620;

/// Renders the picture as PNG.
///
/// # Errors
/// The fonts or the encoder fail.
pub fn render_party(view: &PartyView) -> Result<Vec<u8>, RenderError> {
    let f = fonts()?;
    let board = CELL * 20;
    let w = MARGIN * 2 + board + SIDE_W;
    let h = (MARGIN * 2 + board + 30).max(60 + 26 * view.side.len() as u32);
    let mut c = Canvas::new(w, h, PAGE);
    c.text(
        &f.bold,
        20.0,
        &view.title,
        MARGIN as f32,
        14.0,
        Align::Left,
        TEXT,
    );
    let top = MARGIN + 20;
    for rank in 0..20 {
        for file in 0..20 {
            let Some(sq) = Sq::at(file, rank) else {
                continue;
            };
            let x = (MARGIN + file as u32 * CELL) as i32;
            let y = (top + (19 - rank) as u32 * CELL) as i32;
            let light = (file + rank) % 2 == 1;
            let mut col: Rgb8 = if light {
                [238, 220, 190]
            } else {
                [176, 136, 102]
            };
            if in_demon_zone(sq) {
                col = [col[0] - 30, col[1] - 10, col[2].saturating_add(30)];
            }
            if is_promotion_square(sq) {
                col = [232, 196, 60];
            }
            c.fill(x, y, CELL, CELL, col);
            if let Some(&(_, k)) = view.last.iter().find(|(s, _)| *s == sq) {
                let hl = match k {
                    0 => [250, 232, 60],
                    1 => [120, 220, 120],
                    _ => [255, 80, 80],
                };
                c.tint(x, y, CELL, CELL, hl, 0.55);
                if k == 2 {
                    c.frame(x, y, CELL, CELL, 3, [200, 0, 0]);
                }
            }
        }
        let y = top + (19 - rank) as u32 * CELL + CELL / 2;
        c.text(
            &f.regular,
            12.0,
            &(rank + 1).to_string(),
            (MARGIN / 2) as f32,
            y as f32,
            Align::Centre,
            TEXT,
        );
    }
    for file in 0..20u8 {
        let x = MARGIN + u32::from(file) * CELL + CELL / 2;
        c.text(
            &f.regular,
            12.0,
            &((b'a' + file) as char).to_string(),
            x as f32,
            (top + board + 10) as f32,
            Align::Centre,
            TEXT,
        );
    }
    for &(sq, letter, seat) in &view.pieces {
        let (_, col) = seat_colour(seat);
        let x = (MARGIN + sq.file() as u32 * CELL) as i32;
        let y = (top + (19 - sq.rank()) as u32 * CELL) as i32;
        c.fill(x + 4, y + 4, CELL - 8, CELL - 8, col);
        c.frame(x + 4, y + 4, CELL - 8, CELL - 8, 2, [10, 10, 10]);
        let lum = u32::from(col[0]) * 3 + u32::from(col[1]) * 6 + u32::from(col[2]);
        let ink = if lum > 1500 {
            [0, 0, 0]
        } else {
            [255, 255, 255]
        };
        let label = format!("{letter}{seat}");
        c.text(
            &f.condensed,
            16.0,
            &label,
            (x + CELL as i32 / 2) as f32,
            (y + CELL as i32 / 2) as f32,
            Align::Centre,
            ink,
        );
    }
    let sx = (MARGIN * 2 + board) as f32;
    for (i, (line, seat)) in view.side.iter().enumerate() {
        let y = (top + 10 + 26 * i as u32) as f32;
        let mut x = sx;
        if let Some(s) = seat {
            let (_, col) = seat_colour(*s);
            c.fill(x as i32, y as i32 - 8, 16, 16, col);
            c.frame(x as i32, y as i32 - 8, 16, 16, 1, [0, 0, 0]);
            x += 22.0;
        }
        c.text(&f.bold, 15.0, line, x, y, Align::Left, TEXT);
        let _ = Kind::King;
    }
    c.encode()
}
