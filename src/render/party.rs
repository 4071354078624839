//! The Party Chess picture: the 20×20 board with every Swinger's pieces in a distinct named
//! colour and the piece's letter, the promotion squares and the Demon's zone marked, the last
//! play highlighted (an Archer's shot and a Tornado's path drawn as such), and beside the
//! board the Play List, who is in check, Weights, off-board pieces and a legend.

use super::board::{PAGE, TEXT};
use super::canvas::{Align, Canvas, Rgb8};
use super::{fonts, RenderError};
use crate::games::party::board::{in_demon_zone, is_promotion_square};
use crate::games::party::{Game, Play, Sq};

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
    draw_party(view)?.encode()
}

/// Draws the Party Chess picture.
pub(crate) fn draw_party(view: &PartyView) -> Result<Canvas, RenderError> {
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
    }
    Ok(c)
}

/// A busy mid-game picture for `arbiter render-bench`: four Swingers, every piece type, a
/// Tornado's chain just played.
///
/// # Errors
/// The example does not build (never, for the fixed text).
pub fn example_party() -> Result<PartyView, String> {
    use crate::games::party::{NewGame, Request};
    let position = "20/{K3}3{R3}6{B3}4{J3}2{K4}/5{%3}4{H3:3}3{!4}5/2{P3}9{D4}7/7{O3}3{Q4}8/3{A3}8{Z4}7/20/1{R3}4{T2}{J4}12/8{P4}11/6{C4}13/5{P1}4{E2}9/20/3{H1:2}7{%2}8/20/2{Q1}6{D2}10/8{O1}4{A2}6/1{Z1}7{!2}10/2{R1}5{J1}5{C2}5/20/{K1}4{B1}8{P2}4{K2} [1:P 2:RR 3:J] 2,3,4,1 1:R,2:-,3:H:3,4:J";
    let mut g = crate::games::party::Game::create(
        NewGame {
            swingers: ["ann", "ben", "cat", "dan"].map(String::from).to_vec(),
            umpire: "uma".into(),
            position: Some(position.into()),
            ..NewGame::default()
        },
        "org",
        0,
    )?;
    g.apply(
        "ben",
        false,
        Request::Play("Tg13xh13xi12".into()),
        60,
        "/move",
    )?;
    Ok(view_of(&g))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_busy_example_renders_a_phone_sized_picture() {
        let view = example_party().expect("the example builds");
        assert!(view.last.iter().any(|&(_, k)| k == 1), "the chain is drawn");
        assert!(view.side.iter().any(|(l, _)| l.starts_with("Weights: ann")));
        assert!(view.side.iter().any(|(l, _)| l.contains("(red)")));
        let png = render_party(&view).expect("renders");
        let img =
            image::load_from_memory_with_format(&png, image::ImageFormat::Png).expect("decodes");
        assert!(
            img.width() <= 1500 && img.height() <= 900,
            "{}x{}",
            img.width(),
            img.height()
        );
        if let Ok(path) = std::env::var("PARTY_PICTURE") {
            std::fs::write(path, &png).expect("write the picture");
        }
    }

    #[test]
    fn sixteen_distinct_named_colours() {
        let mut names: Vec<&str> = SEAT_COLOURS.iter().map(|c| c.0).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 16);
        let mut rgb: Vec<Rgb8> = SEAT_COLOURS.iter().map(|c| c.1).collect();
        rgb.sort_unstable();
        rgb.dedup();
        assert_eq!(rgb.len(), 16);
    }
}
