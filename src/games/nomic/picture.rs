//! The Nomic Chess picture: every half-board in its owner's orientation (local rank 1 at the
//! bottom, files a–h from the left) with the armies' colours, and after a push the joined
//! board J in the coordinates the mover wrote, the last move highlighted; the Order and the
//! controllers beside it. A piece of an army played by another player than its own carries a
//! white disc with that player's mark (their initial; `?` while control is pending), which the
//! panel's legend names; a king in check glows red on its square, a checkmated one is framed
//! in dark red as well.
//!
//! Drawn from a plain [`NomicView`], filled by the game layer.

use crate::render::board::{dot, DIM, PAGE, PANEL, TEXT};
use crate::render::canvas::{fit_text, wrap_text, Align, Canvas, Fonts, Rgb8};
use crate::render::shapes::{sprite_look, Figure, Look, OUTLINE};
use crate::render::{fonts, RenderError};

/// A piece: its letter (`K Q R B N P`) and army (0-based).
pub type NomicPiece = (char, usize);

/// One half-board as its owner sees it: `[local rank][file]`, rank 0 = local rank 1.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HalfView {
    /// `A · ann`.
    pub label: String,
    /// Squares.
    pub squares: [[Option<NomicPiece>; 8]; 4],
    /// Squares the last move touched on this half (file, local rank).
    pub marked: Vec<(u8, u8)>,
    /// Kings in check on this half (file, local rank).
    pub check: Vec<(u8, u8)>,
    /// Kings checkmated this turn on this half (file, local rank).
    pub mated: Vec<(u8, u8)>,
}

/// The joined board of the last move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JoinView {
    /// `J = A (bottom) + B (top)`.
    pub label: String,
    /// `[rank][file]`, rank 0 = J's rank 1.
    pub squares: [[Option<NomicPiece>; 8]; 8],
    /// The last move's squares (file, rank).
    pub from: (u8, u8),
    /// To.
    pub to: (u8, u8),
    /// Kings in check on J (file, rank).
    pub check: Vec<(u8, u8)>,
    /// Kings checkmated this turn on J (file, rank).
    pub mated: Vec<(u8, u8)>,
}

/// Everything the picture shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NomicView {
    /// Title line.
    pub title: String,
    /// Half-boards A, B, ….
    pub halves: Vec<HalfView>,
    /// J after the last move, if there was one.
    pub join: Option<JoinView>,
    /// Per army: its controller, a player by seat (`None`: pending).
    pub controllers: Vec<Option<usize>>,
    /// Per player (seat): the mark on the disc of the armies they play for another player
    /// (their initial).
    pub marks: Vec<String>,
    /// Lines beside the boards: the Order with controllers, whose turn, votes.
    pub lines: Vec<String>,
}

/// The colour of army `a`.
pub fn army_colour(a: usize) -> [u8; 3] {
    const C: [Rgb8; 10] = [
        [236, 236, 230],
        [40, 40, 44],
        [214, 48, 48],
        [48, 110, 214],
        [44, 160, 76],
        [236, 170, 30],
        [150, 70, 190],
        [30, 180, 180],
        [240, 120, 170],
        [130, 90, 50],
    ];
    C[a % C.len()]
}

/// The colour's name (for the legend).
pub fn army_colour_name(a: usize) -> &'static str {
    const N: [&str; 10] = [
        "white", "black", "red", "blue", "green", "orange", "purple", "teal", "pink", "brown",
    ];
    N[a % N.len()]
}

const CHECK: Rgb8 = [255, 24, 24];
const CHECK_FRAME: Rgb8 = [200, 0, 0];
const MATE_FRAME: Rgb8 = [110, 0, 0];
const DISC: Rgb8 = [250, 250, 250];
const PENDING_DISC: Rgb8 = [150, 150, 150];
const LIGHT_SQ: Rgb8 = [240, 217, 181];
const DARK_SQ: Rgb8 = [181, 136, 99];
const MOVE_HL: Rgb8 = [250, 232, 60];
const HALO: Rgb8 = [196, 196, 196];
const HS: u32 = 40; // half-board square
const JS: u32 = 46; // J square
const PAD: u32 = 12;
const LABEL_H: u32 = 26;
const COORD: u32 = 18;

fn figure(letter: char) -> Figure {
    match letter {
        'K' => Figure::King,
        'Q' => Figure::Queen,
        'R' => Figure::Rook,
        'B' => Figure::Bishop,
        'N' => Figure::Knight,
        _ => Figure::Pawn,
    }
}

fn draw_piece(c: &mut Canvas, f: &Fonts, view: &NomicView, p: NomicPiece, x: i32, y: i32, sq: u32) {
    let fill = army_colour(p.1);
    let look = Look {
        halo: (p.1 == 1).then_some(HALO),
        hatch: None,
    };
    sprite_look(f, &figure(p.0), fill, sq as usize, look).draw(c, x, y);
    // A disc with the controller's mark when another player plays the army (`?`: pending).
    let mark = match view.controllers.get(p.1).copied().flatten() {
        Some(ctl) if ctl != p.1 => Some((
            DISC,
            view.marks
                .get(ctl)
                .cloned()
                .unwrap_or_else(|| (ctl + 1).to_string()),
        )),
        None => Some((PENDING_DISC, "?".to_string())),
        _ => None,
    };
    if let Some((colour, mark)) = mark {
        let r = (sq * 22 / 100) as i32;
        let (cx, cy) = (x + r + 1, y + r + 1);
        dot(c, cx, cy, r + 1, OUTLINE);
        dot(c, cx, cy, r, colour);
        let px = r as f32 * 1.45;
        let mark = fit_text(&f.bold, px, &mark, (2 * r) as f32);
        c.text(
            &f.bold,
            px,
            &mark,
            cx as f32,
            cy as f32,
            Align::Centre,
            OUTLINE,
        );
    }
}

/// A king in check: a red glow on its square (and a dark frame when it is checkmated).
fn check_glow(c: &mut Canvas, x: i32, y: i32, sq: u32, mated: bool) {
    c.glow(x, y, sq, CHECK);
    if mated {
        c.frame(x, y, sq, sq, 4, MATE_FRAME);
    } else {
        c.frame(x, y, sq, sq, 2, CHECK_FRAME);
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_grid(
    c: &mut Canvas,
    f: &Fonts,
    view: &NomicView,
    x0: i32,
    y0: i32,
    sq: u32,
    ranks: usize,
    at: &dyn Fn(usize, usize) -> Option<NomicPiece>,
    marked: &dyn Fn(usize, usize) -> bool,
    check: &[(u8, u8)],
    mated: &[(u8, u8)],
) {
    for r in 0..ranks {
        for file in 0..8 {
            let x = x0 + (file as u32 * sq) as i32;
            let y = y0 + ((ranks - 1 - r) as u32 * sq) as i32;
            let colour = if (file + r) % 2 == 0 {
                DARK_SQ
            } else {
                LIGHT_SQ
            };
            c.fill(x, y, sq, sq, colour);
            if marked(file, r) {
                c.tint(x, y, sq, sq, MOVE_HL, 0.6);
            }
            let here = (file as u8, r as u8);
            let is_mated = mated.contains(&here);
            if is_mated || check.contains(&here) {
                check_glow(c, x, y, sq, is_mated);
            }
            if let Some(p) = at(file, r) {
                draw_piece(c, f, view, p, x, y, sq);
            }
        }
    }
    c.frame(
        x0 - 2,
        y0 - 2,
        8 * sq + 4,
        ranks as u32 * sq + 4,
        2,
        [22, 22, 22],
    );
    let px = 13.0;
    for file in 0..8u32 {
        let label = char::from(b'a' + file as u8).to_string();
        let cx = x0 as f32 + (file * sq) as f32 + sq as f32 / 2.0;
        c.text(
            &f.bold,
            px,
            &label,
            cx,
            (y0 + (ranks as u32 * sq) as i32) as f32 + 11.0,
            Align::Centre,
            DIM,
        );
    }
    for r in 0..ranks {
        let cy = y0 as f32 + ((ranks - 1 - r) as u32 * sq) as f32 + sq as f32 / 2.0;
        c.text(
            &f.bold,
            px,
            &(r + 1).to_string(),
            x0 as f32 - 10.0,
            cy,
            Align::Centre,
            DIM,
        );
    }
}

/// Draws the picture as PNG.
///
/// # Errors
/// Fonts or encoding failing.
pub fn render_nomic(view: &NomicView) -> Result<Vec<u8>, RenderError> {
    draw_nomic(view)?.encode()
}

/// Draws the Nomic Chess picture.
pub(crate) fn draw_nomic(view: &NomicView) -> Result<Canvas, RenderError> {
    let f = fonts()?;
    let half_w = 8 * HS + COORD + PAD;
    let half_h = LABEL_H + 4 * HS + COORD + PAD;
    let cols = 2u32;
    let rows = (view.halves.len() as u32).div_ceil(cols);
    let width = PAD + cols * half_w + PAD;
    let j_h = if view.join.is_some() {
        LABEL_H + 8 * JS + COORD + PAD
    } else {
        0
    };
    let line_h = 22u32;
    let side_w = width.saturating_sub(PAD * 3 + COORD + 8 * JS);
    // The panel's lines, wrapped to its width (never cut), and the panel grown to hold them.
    let text_w = if view.join.is_some() {
        side_w.saturating_sub(16)
    } else {
        width - 2 * PAD - 16
    };
    let wrapped: Vec<String> = view
        .lines
        .iter()
        .flat_map(|l| wrap_text(&f.regular, 16.0, l, text_w as f32))
        .collect();
    let panel_h = wrapped.len() as u32 * line_h + 12;
    let j_h = if view.join.is_some() {
        j_h.max(panel_h + PAD)
    } else {
        0
    };
    let lines_under = if view.join.is_some() {
        0
    } else {
        panel_h + PAD
    };
    let height = PAD + 34 + j_h + lines_under + rows * half_h + PAD;
    let mut c = Canvas::new(width, height, PAGE);
    let title = fit_text(&f.bold, 22.0, &view.title, (width - 2 * PAD) as f32);
    c.text(
        &f.bold,
        22.0,
        &title,
        PAD as f32,
        (PAD + 14) as f32,
        Align::Left,
        TEXT,
    );
    let mut y = (PAD + 34) as i32;
    let text_block = |c: &mut Canvas, x: i32, y: i32| {
        for (i, l) in wrapped.iter().enumerate() {
            c.text(
                &f.regular,
                16.0,
                l,
                x as f32,
                (y + (i as u32 * line_h) as i32 + 11) as f32,
                Align::Left,
                TEXT,
            );
        }
    };
    if let Some(j) = &view.join {
        c.text(
            &f.bold,
            17.0,
            &fit_text(&f.bold, 17.0, &j.label, (8 * JS + COORD) as f32),
            PAD as f32,
            (y + 12) as f32,
            Align::Left,
            TEXT,
        );
        let x0 = (PAD + COORD) as i32;
        let y0 = y + LABEL_H as i32;
        draw_grid(
            &mut c,
            f,
            view,
            x0,
            y0,
            JS,
            8,
            &|file, r| j.squares[r][file],
            &|file, r| (file as u8, r as u8) == j.from || (file as u8, r as u8) == j.to,
            &j.check,
            &j.mated,
        );
        let sx = x0 + (8 * JS + PAD) as i32;
        c.fill(sx, y, side_w, (8 * JS + LABEL_H).max(panel_h), PANEL);
        text_block(&mut c, sx + 8, y + 6);
        y += j_h as i32;
    } else {
        c.fill(PAD as i32, y, width - 2 * PAD, panel_h, PANEL);
        text_block(&mut c, PAD as i32 + 8, y + 6);
        y += lines_under as i32;
    }
    for (i, h) in view.halves.iter().enumerate() {
        let col = i as u32 % cols;
        let row = i as u32 / cols;
        let x = (PAD + col * half_w) as i32;
        let hy = y + (row * half_h) as i32;
        let label = fit_text(&f.bold, 16.0, &h.label, (half_w - PAD) as f32);
        c.text(
            &f.bold,
            16.0,
            &label,
            (x + COORD as i32) as f32,
            (hy + 12) as f32,
            Align::Left,
            TEXT,
        );
        draw_grid(
            &mut c,
            f,
            view,
            x + COORD as i32,
            hy + LABEL_H as i32,
            HS,
            4,
            &|file, r| h.squares[r][file],
            &|file, r| h.marked.contains(&(file as u8, r as u8)),
            &h.check,
            &h.mated,
        );
    }
    Ok(c)
}

/// A busy mid-game example (for `arbiter render-bench` and the tests).
pub fn example_nomic() -> NomicView {
    let mut view = NomicView {
        title: "Nomic Chess · #42".into(),
        controllers: vec![Some(0), Some(0), Some(2), None],
        marks: vec!["A".into(), "B".into(), "C".into(), "D".into()],
        ..NomicView::default()
    };
    const BACK: [char; 8] = ['R', 'N', 'B', 'Q', 'K', 'B', 'N', 'R'];
    for a in 0..4usize {
        let mut h = HalfView {
            label: format!("{} · player {}", char::from(b'A' + a as u8), a + 1),
            ..HalfView::default()
        };
        for (file, &k) in BACK.iter().enumerate() {
            if (file + a) % 3 != 0 {
                h.squares[0][file] = Some((k, a));
            }
            if (file + a) % 2 == 0 {
                h.squares[1][file] = Some(('P', a));
            }
        }
        h.squares[3][(a * 2) % 8] = Some(('N', (a + 1) % 4));
        h.squares[2][(a * 3 + 1) % 8] = Some(('P', (a + 2) % 4));
        view.halves.push(h);
    }
    view.halves[1].marked = vec![(3, 3)];
    let mut j = JoinView {
        label: "J: A at the bottom, B on top".into(),
        from: (6, 4),
        to: (3, 3),
        ..JoinView::default()
    };
    for r in 0..4 {
        j.squares[r] = view.halves[0].squares[r];
        for file in 0..8 {
            j.squares[7 - r][7 - file] = view.halves[1].squares[r][file];
        }
    }
    view.join = Some(j);
    view.lines = vec![
        "Last move: Ng5xd4 (B:b4 → A:d4)".into(),
        "Order: 3, 1, 4, 2".into(),
        "Army 1: ann".into(),
        "Army 2: ann (taken)".into(),
        "Army 3: cat".into(),
        "Army 4: pending".into(),
        "Turn: army 4 skipped; army 2, part 1".into(),
        "Proposal 5 open: 2 for, 1 against".into(),
    ];
    view
}

crate::render::animation::still!(NomicView, drawn by draw_nomic, headed |v| {
    format!("{} · {}", v.title, v.lines.join(" · "))
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_draws_at_phone_size_with_the_last_move_marked() {
        let view = example_nomic();
        let png = render_nomic(&view).expect("draws");
        let img = image::load_from_memory_with_format(&png, image::ImageFormat::Png)
            .expect("decodes")
            .to_rgb8();
        assert!((600..=900).contains(&img.width()), "{}", img.width());
        assert!(img.height() <= 1400, "{}", img.height());
        // The last move's to-square on J (d4) is tinted yellow; e4 next to it is not.
        let x0 = PAD + COORD;
        let y0 = PAD + 34 + LABEL_H;
        let centre = |f: u32, r: u32| (x0 + f * JS + 3, y0 + (7 - r) * JS + 3);
        let (x, y) = centre(3, 3);
        let p = img.get_pixel(x, y).0;
        assert!(p[0] > 200 && p[1] > 180 && p[2] < 140, "{p:?}");
        let (x, y) = centre(4, 3);
        let q = img.get_pixel(x, y).0;
        assert_ne!(p, q);
        // Without a join there is no J, and the picture is shorter.
        let mut plain = view.clone();
        plain.join = None;
        let png = render_nomic(&plain).expect("draws");
        let small =
            image::load_from_memory_with_format(&png, image::ImageFormat::Png).expect("decodes");
        assert!(small.height() < img.height());
    }
}
