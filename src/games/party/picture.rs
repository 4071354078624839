//! The Party Chess picture: the 20×20 board with every Swinger's pieces in a distinct named
//! colour, the piece's letter and the seat number on a white badge (readable at 400 pixels
//! wide), the promotion squares and the Demon's zone marked, the last play drawn in a cyan no
//! seat uses (an Archer's shot, a Tornado's path, a Qball's scratch and a Demon's promotion
//! drawn as such), Kings in check framed on their squares, Demons that may promote marked,
//! who is to play said in words in the title, and below the board the Play List, who is in
//! check, Weights, off-board pieces and a legend.

use crate::games::party::board::{in_demon_zone, is_promotion_square};
use crate::games::party::rules::demon_may_promote;
use crate::games::party::weight::weight;
use crate::games::party::{Game, Kind, Play, Sq};
use crate::render::board::{PAGE, TEXT};
use crate::render::canvas::{fit_text, wrap_text, Align, Canvas, Rgb8};
use crate::render::{fonts, RenderError};

/// Sixteen seat colours with their names. The first twelve are far apart (at least 40 in
/// CIELAB, tested): no two of them, nor one and the last play's cyan or a square, are taken
/// for each other (a pale pink, not a second red; a bright lime and a plum, not a navy
/// beside the blue and the black).
pub const SEAT_COLOURS: [(&str, Rgb8); 16] = [
    ("red", [220, 50, 47]),
    ("blue", [38, 110, 220]),
    ("green", [40, 160, 60]),
    ("orange", [240, 140, 20]),
    ("purple", [160, 60, 210]),
    ("teal", [20, 160, 160]),
    ("pink", [255, 150, 215]),
    ("brown", [130, 80, 40]),
    ("black", [20, 20, 20]),
    ("white", [250, 250, 250]),
    ("plum", [110, 0, 90]),
    ("lime", [80, 240, 0]),
    ("olive", [128, 128, 0]),
    ("navy", [20, 30, 110]),
    ("gold", [230, 200, 40]),
    ("grey", [128, 128, 128]),
];

/// The colour of a seat (from 1), and its name.
pub fn seat_colour(seat: u8) -> (&'static str, Rgb8) {
    SEAT_COLOURS[usize::from(seat.saturating_sub(1)) % SEAT_COLOURS.len()]
}

/// A Swinger's row beside the board: colour, name, Weight, check, off-board pieces.
#[derive(Clone, Debug, Default)]
pub struct SeatRow {
    /// The seat (its colour).
    pub seat: u8,
    /// The Swinger's name.
    pub name: String,
    /// The Weight with one decimal.
    pub weight: String,
    /// Their King is attacked.
    pub check: bool,
    /// Warm.
    pub warm: bool,
    /// Off-board pieces as the position text writes them (`RRJ{H:3}`).
    pub hand: String,
}

/// What the picture shows.
#[derive(Clone, Debug, Default)]
pub struct PartyView {
    /// (square, letter, seat, HarfyBlob range or 0).
    pub pieces: Vec<(Sq, char, u8, u8)>,
    /// Highlighted squares of the last play: (square, kind 0 = from, 1 = to/path, 2 = shot).
    pub last: Vec<(Sq, u8)>,
    /// The last play drawn as arrows: its squares in order (from, bounce or captures, end),
    /// and whether it is a stand-off shot (the piece stays).
    pub arrow: Option<(Vec<Sq>, bool)>,
    /// The last play as echoed, with its Swinger's seat.
    pub last_text: Option<(String, u8)>,
    /// The Play List, top first.
    pub seats: Vec<SeatRow>,
    /// Title.
    pub title: String,
    /// Who is to play, in words (`ben (blue) to play`), or that the game has ended.
    pub to_play: String,
    /// The squares of Kings in check.
    pub checked_kings: Vec<Sq>,
    /// Demons promoted by the last play (their squares).
    pub promoted: Vec<Sq>,
    /// Demons strictly inside a box: they may promote after their Swinger's next move.
    pub demons_may: Vec<Sq>,
    /// The corner a Qball scratched to in the last play (it went back off the board).
    pub scratch: Option<Sq>,
}

/// The view of a game.
pub fn view_of(game: &Game) -> PartyView {
    let pos = game.position();
    let mut v = PartyView {
        pieces: pos
            .pieces()
            .map(|(s, p)| (s, p.kind.letter(), p.seat, p.hn))
            .collect(),
        title: format!("Party Chess · #{}", game.next_number() - 1),
        ..PartyView::default()
    };
    v.to_play = match (&game.state().ended, game.to_play()) {
        (Some(result), _) => format!("Ended by the Chess-Umpire. Result: {result}"),
        (None, Some(s)) => format!("{} ({}) to play", game.user(s), seat_colour(s).0),
        (None, None) => {
            let waiting = game.waiting_picks();
            if waiting.is_empty() {
                "nobody to play".to_string()
            } else {
                format!("waiting for pieces from {}", waiting.join(", "))
            }
        }
    };
    let checked = game.in_check();
    v.checked_kings = checked.iter().filter_map(|&s| pos.king(s)).collect();
    v.demons_may = pos
        .pieces()
        .filter(|&(sq, p)| p.kind == Kind::Demon && demon_may_promote(pos, sq, p.seat))
        .map(|(sq, _)| sq)
        .collect();
    if let Some(l) = &game.state().last {
        match &l.play {
            Play::Move(m) => {
                v.last.push((m.from, 0));
                let mut path = vec![m.from];
                if let Some(b) = m.bounce {
                    v.last.push((b, 1));
                    path.push(b);
                }
                for &c in &m.chain {
                    v.last.push((c, 1));
                    path.push(c);
                }
                v.last.push((m.to, if m.standoff { 2 } else { 1 }));
                path.push(m.to);
                v.arrow = Some((path, m.standoff));
                v.promoted = m.demons.iter().map(|&(sq, _)| sq).collect();
                if m.scratch {
                    v.scratch = Some(m.to);
                }
            }
            Play::Place { to, .. } => v.last.push((*to, 1)),
            _ => {}
        }
        let scratch = if v.scratch.is_some() {
            " (a scratch: the Qball went back off the board)"
        } else {
            ""
        };
        v.last_text = Some((format!("{} {}{scratch}", game.user(l.seat), l.text), l.seat));
    }
    for &s in &pos.list {
        v.seats.push(SeatRow {
            seat: s,
            name: game.user(s).to_string(),
            weight: format!("{:.1}", weight(pos, s)),
            check: checked.contains(&s),
            warm: game.state().warm.contains(&s),
            hand: pos.hand(s).iter().map(|p| p.hand_text()).collect(),
        });
    }
    v
}

/// The legend: every letter with its piece's short name.
const LEGEND: [(&str, &str); 16] = [
    ("K", "King"),
    ("R", "Rook"),
    ("C", "Camel"),
    ("B", "Bishop"),
    ("P", "Pawn"),
    ("O", "CopyCat"),
    ("E", "Echo"),
    ("J", "Jester"),
    ("Q", "Qball"),
    ("H", "HarfyBlob"),
    ("A", "Archer"),
    ("Z", "Kamikaze"),
    ("!", "Bouncy!Ball"),
    ("D", "Demon"),
    ("T", "Tornado"),
    ("%", "Cantor"),
];

const CELL: u32 = 40;
const MARGIN: u32 = 24;
const BOARD: u32 = CELL * 20;
/// The picture's width: the board and its margins (the panel goes below, so a phone shows
/// the board as wide as its screen).
const WIDTH: u32 = MARGIN * 2 + BOARD;
const ROW: u32 = 26;
/// The last play's colour: a bright cyan no seat colour is near (seats use red, blue,
/// green, teal, navy, …), outlined in black so it reads on light and dark squares.
const ARROW: Rgb8 = [0, 225, 255];
/// The outline of the last play's marks.
const OUTLINE: Rgb8 = [0, 0, 0];
/// A King in check: its square framed in this colour.
const CHECK: Rgb8 = [255, 0, 60];
/// A Demon that may promote: a corner of its square in this colour.
const DEMON_MAY: Rgb8 = [255, 215, 0];

/// Renders the picture as PNG.
///
/// # Errors
/// The fonts or the encoder fail.
pub fn render_party(view: &PartyView) -> Result<Vec<u8>, RenderError> {
    draw_party(view)?.encode()
}

/// Where a square's top-left corner is drawn.
fn corner(sq: Sq, top: u32) -> (i32, i32) {
    (
        (MARGIN + sq.file() as u32 * CELL) as i32,
        (top + (19 - sq.rank()) as u32 * CELL) as i32,
    )
}

fn centre(sq: Sq, top: u32) -> (f32, f32) {
    let (x, y) = corner(sq, top);
    ((x + CELL as i32 / 2) as f32, (y + CELL as i32 / 2) as f32)
}

/// A thick straight line from `a` to `b` (squares stamped along it: plain fills, drawn alike
/// by both renderers).
fn line(c: &mut Canvas, a: (f32, f32), b: (f32, f32), w: u32, col: Rgb8) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let n = dx.abs().max(dy.abs()).ceil().max(1.0) as i32;
    let half = (w / 2) as i32;
    for i in 0..=n {
        let t = i as f32 / n as f32;
        let x = (a.0 + dx * t).round() as i32;
        let y = (a.1 + dy * t).round() as i32;
        c.fill(x - half, y - half, w, w, col);
    }
}

/// A filled triangle, row by row.
fn triangle(c: &mut Canvas, p: [(f32, f32); 3], col: Rgb8) {
    let y0 = p.iter().map(|q| q.1).fold(f32::MAX, f32::min).floor() as i32;
    let y1 = p.iter().map(|q| q.1).fold(f32::MIN, f32::max).ceil() as i32;
    for y in y0..=y1 {
        let yc = y as f32 + 0.5;
        let mut xs: Vec<f32> = Vec::new();
        for i in 0..3 {
            let (a, b) = (p[i], p[(i + 1) % 3]);
            if (a.1 <= yc && yc < b.1) || (b.1 <= yc && yc < a.1) {
                xs.push(a.0 + (yc - a.1) * (b.0 - a.0) / (b.1 - a.1));
            }
        }
        if xs.len() >= 2 {
            let l = xs.iter().copied().fold(f32::MAX, f32::min).round() as i32;
            let r = xs.iter().copied().fold(f32::MIN, f32::max).round() as i32;
            if r > l {
                c.fill(l, y, (r - l) as u32, 1, col);
            }
        }
    }
}

/// The last play as arrows: a polyline through its squares' centres, the head stopping at
/// the edge of the last square (so its piece stays readable).
fn arrows(c: &mut Canvas, path: &[Sq], top: u32) {
    // The outline first (wider, black), then the cyan core.
    arrow_pass(c, path, top, OUTLINE, 4.0);
    arrow_pass(c, path, top, ARROW, 0.0);
}

fn arrow_pass(c: &mut Canvas, path: &[Sq], top: u32, col: Rgb8, grow: f32) {
    let wide = 5 + grow as u32;
    let pts: Vec<(f32, f32)> = path.iter().map(|&s| centre(s, top)).collect();
    for (i, w) in pts.windows(2).enumerate() {
        let (mut a, mut b) = (w[0], w[1]);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1.0 {
            continue;
        }
        let (ux, uy) = (dx / len, dy / len);
        if i == 0 {
            // Start at the edge of the mover's square, leaving its letter clear (a fifth of
            // a one-square step, so its arrow keeps a shaft).
            let skip = (CELL as f32 / 2.0 - 4.0).min(len / 5.0);
            a = (a.0 + ux * skip, a.1 + uy * skip);
        }
        let last = i + 2 == pts.len();
        if last {
            // Stop short of the destination's centre: the head's point at its edge. The head
            // takes at most half of what is left, so the shaft shows however short the step.
            let back = (CELL as f32 / 2.0 - 2.0).min(len / 5.0).max(0.0);
            b = (b.0 - ux * back, b.1 - uy * back);
            let left = ((b.0 - a.0) * ux + (b.1 - a.1) * uy).max(0.0);
            let head = (16.0f32).min(left / 2.0);
            let base = (b.0 - ux * head, b.1 - uy * head);
            line(c, a, base, wide, col);
            let tip = (b.0 + ux * grow * 0.6, b.1 + uy * grow * 0.6);
            let back = (base.0 - ux * grow * 0.5, base.1 - uy * grow * 0.5);
            let half = head * 9.0 / 16.0 + grow * 0.6;
            triangle(
                c,
                [
                    tip,
                    (back.0 - uy * half, back.1 + ux * half),
                    (back.0 + uy * half, back.1 - ux * half),
                ],
                col,
            );
        } else {
            line(c, a, b, wide, col);
            let k = 10 + grow as u32;
            c.fill(
                b.0 as i32 - k as i32 / 2,
                b.1 as i32 - k as i32 / 2,
                k,
                k,
                col,
            );
        }
    }
}

/// Height of a title line.
const TITLE_LINE: u32 = 28;

/// The title's lines: the title and who is to play, wrapped to the board's width.
fn title_lines(font: &ab_glyph::FontRef<'_>, view: &PartyView) -> Vec<String> {
    let text = format!("{} · {}", view.title, view.to_play);
    let lines = wrap_text(font, 22.0, &text, BOARD as f32);
    if lines.is_empty() {
        vec![fit_text(font, 22.0, &text, BOARD as f32)]
    } else {
        lines
    }
}

/// Draws the Party Chess picture: the board on top, the Play List (with each Swinger's
/// colour, Weight, check and off-board pieces) and the legend below it, so a phone shows
/// the board across its whole width.
pub(crate) fn draw_party(view: &PartyView) -> Result<Canvas, RenderError> {
    let f = fonts()?;
    let cols = if view.seats.len() > 6 { 2 } else { 1 };
    let rows = view.seats.len().div_ceil(cols) as u32;
    // The title says in words who is to play (or that the game has ended), wrapped, never
    // cut (an ended game's Weights are its result).
    let title = title_lines(&f.bold, view);
    let top = MARGIN + 22 + TITLE_LINE * (title.len().max(1) as u32 - 1);
    let panel = top + BOARD + 24;
    let h = panel + 34 + 22 + rows * ROW + 12 + 2 * 22 + 3 * 20 + 16;
    let mut c = Canvas::new(WIDTH, h, PAGE);
    for (k, line) in title.iter().enumerate() {
        c.text(
            &f.bold,
            22.0,
            line,
            MARGIN as f32,
            14.0 + (TITLE_LINE * k as u32) as f32,
            Align::Left,
            TEXT,
        );
    }
    for rank in 0..20 {
        for file in 0..20 {
            let Some(sq) = Sq::at(file, rank) else {
                continue;
            };
            let (x, y) = corner(sq, top);
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
                let a = if k == 0 { 0.35 } else { 0.55 };
                c.tint(x, y, CELL, CELL, ARROW, a);
                if k == 2 {
                    // A shot's victim: framed (the Archer stays where it is).
                    c.frame(x, y, CELL, CELL, 5, OUTLINE);
                    c.frame(x + 1, y + 1, CELL - 2, CELL - 2, 3, ARROW);
                }
            }
        }
        let y = top + (19 - rank) as u32 * CELL + CELL / 2;
        c.text(
            &f.bold,
            13.0,
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
            &f.bold,
            14.0,
            &((b'a' + file) as char).to_string(),
            x as f32,
            (top + BOARD + 10) as f32,
            Align::Centre,
            TEXT,
        );
    }
    for &(sq, letter, seat, hn) in &view.pieces {
        let (_, col) = seat_colour(seat);
        let (x, y) = corner(sq, top);
        c.fill(x + 3, y + 3, CELL - 6, CELL - 6, col);
        c.frame(x + 3, y + 3, CELL - 6, CELL - 6, 2, [10, 10, 10]);
        let lum = u32::from(col[0]) * 3 + u32::from(col[1]) * 6 + u32::from(col[2]);
        let ink = if lum > 1500 {
            [0, 0, 0]
        } else {
            [255, 255, 255]
        };
        // The letter large on the left; the seat number on a white badge in the bottom
        // right, large enough to read when the picture is shown 400 pixels wide.
        let digits = seat.to_string();
        let two = digits.len() > 1;
        c.text(
            &f.bold,
            if two { 20.0 } else { 24.0 },
            &letter.to_string(),
            (x + if two { 11 } else { 13 }) as f32,
            (y + CELL as i32 / 2 - 1) as f32,
            Align::Centre,
            ink,
        );
        let bw: u32 = if two { 19 } else { 15 };
        let (bx, by) = (x + CELL as i32 - bw as i32 - 4, y + 16);
        c.fill(bx, by, bw, 20, [255, 255, 255]);
        c.frame(bx, by, bw, 20, 1, [0, 0, 0]);
        let face = if two { &f.condensed } else { &f.bold };
        c.text(
            face,
            if two { 15.0 } else { 18.0 },
            &digits,
            bx as f32 + bw as f32 / 2.0,
            (by + 10) as f32,
            Align::Centre,
            [0, 0, 0],
        );
        if hn > 0 {
            // A HarfyBlob's range on a black badge in the top-right corner.
            c.fill(x + CELL as i32 - 18, y, 18, 15, [0, 0, 0]);
            c.text(
                &f.condensed,
                12.0,
                &hn.to_string(),
                (x + CELL as i32 - 9) as f32,
                (y + 7) as f32,
                Align::Centre,
                [255, 255, 255],
            );
        }
    }
    for &sq in &view.checked_kings {
        // A King in check: its square framed thick in the check colour.
        let (x, y) = corner(sq, top);
        c.frame(x, y, CELL, CELL, 4, CHECK);
    }
    for &sq in &view.demons_may {
        // A Demon inside a box: a gold corner (it may promote after its Swinger's move).
        let (x, y) = corner(sq, top);
        triangle(
            &mut c,
            [
                (x as f32, y as f32),
                (x as f32 + 15.0, y as f32),
                (x as f32, y as f32 + 15.0),
            ],
            DEMON_MAY,
        );
    }
    if let Some((path, _)) = &view.arrow {
        // A shot's victim square is framed above; the arrow is drawn alike.
        arrows(&mut c, path, top);
    }
    for &sq in &view.promoted {
        // A Demon promoted by the last play: its square framed in the last play's colour.
        let (x, y) = corner(sq, top);
        c.frame(x, y, CELL, CELL, 5, OUTLINE);
        c.frame(x + 1, y + 1, CELL - 2, CELL - 2, 3, ARROW);
    }
    if let Some(sq) = view.scratch {
        // A Qball's scratch: a cross on the corner it reached (it went off the board).
        let (x, y) = corner(sq, top);
        let (x0, y0) = (x as f32 + 6.0, y as f32 + 6.0);
        let (x1, y1) = (x as f32 + CELL as f32 - 6.0, y as f32 + CELL as f32 - 6.0);
        line(&mut c, (x0, y0), (x1, y1), 9, OUTLINE);
        line(&mut c, (x0, y1), (x1, y0), 9, OUTLINE);
        line(&mut c, (x0, y0), (x1, y1), 5, ARROW);
        line(&mut c, (x0, y1), (x1, y0), 5, ARROW);
    }
    // The panel below the board.
    let x0 = MARGIN as f32;
    let mut y = panel as f32 + 14.0;
    if let Some((text, seat)) = &view.last_text {
        let (_, col) = seat_colour(*seat);
        c.fill(MARGIN as i32, y as i32 - 9, 18, 18, col);
        c.frame(MARGIN as i32, y as i32 - 9, 18, 18, 1, [0, 0, 0]);
        let line = fit_text(&f.bold, 18.0, &format!("Last: {text}"), (BOARD - 26) as f32);
        c.text(&f.bold, 18.0, &line, x0 + 26.0, y, Align::Left, TEXT);
    }
    y += 34.0;
    let col_w = BOARD / cols as u32;
    let grey = [150, 150, 150];
    for k in 0..cols as u32 {
        let cx = x0 + (k * col_w) as f32;
        let hx = if cols > 1 { 0.64 } else { 0.56 };
        for (label, dx) in [("Play List", 26.0), ("Weight", 0.40), ("Off-board", hx)] {
            let dx = if dx < 1.0 { dx * col_w as f32 } else { dx };
            c.text(&f.regular, 14.0, label, cx + dx, y, Align::Left, grey);
        }
    }
    y += 22.0;
    for (i, r) in view.seats.iter().enumerate() {
        let (k, row) = ((i as u32) / rows, (i as u32) % rows);
        let cx = x0 + (k * col_w) as f32;
        let ry = y + (row * ROW) as f32;
        let (cname, col) = seat_colour(r.seat);
        c.fill(cx as i32, ry as i32 - 9, 18, 18, col);
        c.frame(cx as i32, ry as i32 - 9, 18, 18, 1, [0, 0, 0]);
        let mut name = format!("{}. {} ({cname})", i + 1, r.name);
        if r.warm {
            name.push_str(" Warm");
        }
        let name = fit_text(&f.bold, 17.0, &name, col_w as f32 * 0.40 - 30.0);
        c.text(&f.bold, 17.0, &name, cx + 26.0, ry, Align::Left, TEXT);
        let wx = cx + col_w as f32 * 0.40;
        c.text(&f.bold, 17.0, &r.weight, wx, ry, Align::Left, TEXT);
        if r.check {
            c.text(
                &f.bold,
                13.0,
                "CHECK",
                wx + 44.0,
                ry,
                Align::Left,
                [255, 90, 80],
            );
        }
        let hand = if r.hand.is_empty() { "-" } else { &r.hand };
        let hx = if cols > 1 { 0.64 } else { 0.56 };
        let hand = fit_text(&f.bold, 17.0, hand, col_w as f32 * (1.0 - hx) - 8.0);
        c.text(
            &f.bold,
            17.0,
            &hand,
            cx + col_w as f32 * hx,
            ry,
            Align::Left,
            TEXT,
        );
    }
    y += (rows * ROW) as f32 + 12.0;
    // The legend: eight letters a row.
    let lw = BOARD as f32 / 8.0;
    for (i, (l, name)) in LEGEND.iter().enumerate() {
        let lx = x0 + lw * (i % 8) as f32;
        let ly = y + 22.0 * (i / 8) as f32;
        c.text(&f.bold, 16.0, l, lx, ly, Align::Left, TEXT);
        c.text(&f.regular, 13.0, name, lx + 16.0, ly, Align::Left, TEXT);
    }
    y += 2.0 * 22.0 + 4.0;
    for line in [
        "gold squares: promotion j10 k10 j11 k11 · tinted: Demon zone f6-n14 · white badge: seat · black badge: HarfyBlob range",
        "cyan: the last play · framed in cyan: a shot's victim (the Archer stays) or a Demon promoted · X: a Qball's scratch",
        "red frame: a King in check · gold corner: a Demon inside a box (it may promote after a move)",
    ] {
        let line = fit_text(&f.regular, 13.0, line, BOARD as f32);
        c.text(&f.regular, 13.0, &line, x0, y, Align::Left, grey);
        y += 20.0;
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
    )
    .map_err(|e| e.to_string())?;
    g.apply(
        "ben",
        false,
        Request::Play("Tg13xh13xi12".into()),
        60,
        "/move",
    )
    .map_err(|e| e.to_string())?;
    Ok(view_of(&g))
}

crate::render::animation::still!(PartyView, drawn by draw_party, headed |v| format!("{} · {}", v.title, v.to_play));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_busy_example_renders_a_phone_sized_picture() {
        let view = example_party().expect("the example builds");
        assert!(view.last.iter().any(|&(_, k)| k == 1), "the chain is drawn");
        let (path, shot) = view.arrow.clone().expect("the Tornado's path as arrows");
        let names: Vec<String> = path.iter().map(|s| s.name()).collect();
        assert_eq!(names, ["g13", "h13", "i12"]);
        assert!(!shot);
        assert!(view
            .pieces
            .contains(&(Sq::parse("k18").expect("k18"), 'H', 3, 3)));
        assert_eq!(view.seats.len(), 4);
        assert!(view.seats.iter().all(|r| r.weight.contains('.')));
        let png = render_party(&view).expect("renders");
        let img =
            image::load_from_memory_with_format(&png, image::ImageFormat::Png).expect("decodes");
        assert!(
            img.width() <= 900 && img.height() <= 1200,
            "{}x{}",
            img.width(),
            img.height()
        );
        if let Ok(path) = std::env::var("PARTY_PICTURE") {
            std::fs::write(&path, &png).expect("write the picture");
            // As a phone shows it: 400 pixels across.
            let h = img.height() * 400 / img.width();
            let small = image::imageops::resize(
                &img.to_rgb8(),
                400,
                h,
                image::imageops::FilterType::Triangle,
            );
            small
                .save(format!("{path}.phone.png"))
                .expect("write the phone-sized picture");
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

    /// CIELAB (D65) of a colour.
    fn lab(c: Rgb8) -> [f64; 3] {
        let lin = |u: u8| {
            let u = f64::from(u) / 255.0;
            if u <= 0.04045 {
                u / 12.92
            } else {
                ((u + 0.055) / 1.055).powf(2.4)
            }
        };
        let (r, g, b) = (lin(c[0]), lin(c[1]), lin(c[2]));
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
        let f = |t: f64| {
            if t > 0.008856 {
                t.cbrt()
            } else {
                7.787 * t + 16.0 / 116.0
            }
        };
        [
            116.0 * f(y) - 16.0,
            500.0 * (f(x) - f(y)),
            200.0 * (f(y) - f(z)),
        ]
    }

    #[test]
    fn twelve_seats_are_far_apart() {
        let d = |a: Rgb8, b: Rgb8| {
            let (p, q) = (lab(a), lab(b));
            (0..3).map(|i| (p[i] - q[i]).powi(2)).sum::<f64>().sqrt()
        };
        let seats: Vec<(&str, Rgb8)> = (1..=12).map(seat_colour).collect();
        for (i, &(na, a)) in seats.iter().enumerate() {
            for &(nb, b) in &seats[i + 1..] {
                assert!(d(a, b) >= 40.0, "{na} and {nb}: {:.1} apart", d(a, b));
            }
            assert!(d(a, ARROW) >= 25.0, "{na} and the last play's cyan");
        }
    }

    /// The colour of a pixel of a canvas.
    fn pixel(c: &Canvas, x: u32, y: u32) -> Rgb8 {
        let (rows, stride, colours) = c.pixels();
        let i = rows[y as usize * stride + 1 + x as usize];
        colours[usize::from(i)]
    }

    #[test]
    fn a_one_square_move_has_an_arrow_shaft() {
        let top = 0;
        let (from, to) = (Sq::parse("c3").unwrap(), Sq::parse("d3").unwrap());
        let mut c = Canvas::new(WIDTH, BOARD, PAGE);
        arrows(&mut c, &[from, to], top);
        let (cx, cy) = centre(from, top);
        let (cx, cy) = (cx as u32, cy as u32);
        // Along the axis, between the mover's square's letter and the head: the cyan core;
        // beside it, clear of the shaft (a head there would cover it).
        assert_eq!(pixel(&c, cx + 12, cy), ARROW);
        assert_eq!(pixel(&c, cx + 12, cy + 6), PAGE);
        assert_eq!(pixel(&c, cx + 12, cy - 6), PAGE);
        // The head still points into the destination.
        assert_eq!(pixel(&c, cx + 26, cy), ARROW);
    }

    #[test]
    fn an_ended_games_title_is_not_cut() {
        let f = fonts().unwrap();
        let mut view = example_party().unwrap();
        view.to_play = "Ended by the Chess-Umpire. Result: Weights: pa 32.5, pb 28.0, \
            pc 19.5, pd 17.0, pe 12.5, pf 9.0, pg 8.5, ph 3.0"
            .into();
        let lines = title_lines(&f.bold, &view);
        assert!(lines.len() > 1);
        assert_eq!(
            lines.join(" "),
            format!("{} · {}", view.title, view.to_play)
        );
        let tall = draw_party(&view).unwrap().size().1;
        view.to_play = "ann (red) to play".into();
        assert!(tall > draw_party(&view).unwrap().size().1);
    }
}
