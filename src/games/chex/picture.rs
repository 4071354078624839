//! The Chex picture: the shown board with its labels, the action number, whose turn, the
//! revealed piece, the pieces left in each stack by type, the last move, and a red frame on
//! every piece that cannot move without breaking the group ("tagged", as the rules say).

use crate::games::chex::{Frame, Game, Kind, LastMove, Position, Side};
use crate::render::board::{DIM, PAGE, PANEL, TEXT};
use crate::render::canvas::{wrap_text, Align, Canvas, Fonts, Rgb8};
use crate::render::shapes::{sprite, Figure};
use crate::render::{fonts, RenderError};

const LIGHT: Rgb8 = [240, 217, 181];
const DARK: Rgb8 = [181, 136, 99];
const LAST: Rgb8 = [250, 232, 60];
const TAG: Rgb8 = [225, 40, 40];
const WHITE_FILL: Rgb8 = [250, 250, 248];
const BLACK_FILL: Rgb8 = [34, 34, 34];
const WIDTH: u32 = 720;
const PAD: u32 = 16;

/// A last move's squares on the shown board: (from, to); a placement has no from.
pub type LastSquares = (Option<(u32, u32)>, (u32, u32));

/// What the picture shows (a snapshot, drawn away from the executor).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChexView {
    /// Files and ranks of the shown board.
    pub files: u32,
    /// Ranks.
    pub ranks: u32,
    /// Pieces: (file, rank) from the shown a1, side, kind.
    pub pieces: Vec<((u32, u32), Side, Kind)>,
    /// Tagged pieces' squares.
    pub tagged: Vec<(u32, u32)>,
    /// The last move or placement: (from, to).
    pub last: Option<LastSquares>,
    /// `Chex · #14`.
    pub title: String,
    /// Whose turn, or the result.
    pub status: String,
    /// The revealed piece.
    pub revealed: Option<(Side, Kind)>,
    /// Pieces left per side, by kind (K Q R B N P).
    pub left: [[usize; 6]; 2],
    /// The last move in the current labels.
    pub last_text: Option<String>,
    /// The last move on the absolute squares (to name it again on another frame).
    pub last_move: Option<LastMove>,
    /// The absolute square of the shown `a1`: square colours follow the absolute squares,
    /// (0, 0) dark (Chex rules 5.5a).
    pub origin: (i32, i32),
}

fn kind_index(k: Kind) -> usize {
    Kind::ALL.iter().position(|&x| x == k).unwrap_or(0)
}

fn figure(k: Kind) -> Figure {
    match k {
        Kind::King => Figure::King,
        Kind::Queen => Figure::Queen,
        Kind::Rook => Figure::Rook,
        Kind::Bishop => Figure::Bishop,
        Kind::Knight => Figure::Knight,
        Kind::Pawn => Figure::Pawn,
    }
}

fn fill(side: Side) -> Rgb8 {
    match side {
        Side::White => WHITE_FILL,
        Side::Black => BLACK_FILL,
    }
}

impl ChexView {
    /// The view of a position (no title, status or last move).
    pub fn of_position(pos: &Position) -> ChexView {
        let f = pos.frame();
        let local = |s: (i32, i32)| ((s.0 - f.origin.0) as u32, (s.1 - f.origin.1) as u32);
        let mut left = [[0; 6]; 2];
        for side in Side::BOTH {
            for k in &pos.stacks[side.index()] {
                left[side.index()][kind_index(*k)] += 1;
            }
        }
        ChexView {
            files: f.width,
            ranks: f.height,
            pieces: pos
                .pieces()
                .map(|(s, p)| (local(s), p.side, p.kind))
                .collect(),
            tagged: pos
                .pieces()
                .filter(|&(s, _)| pos.blocked_by_group(s))
                .map(|(s, _)| local(s))
                .collect(),
            last: None,
            title: "Chex".into(),
            status: String::new(),
            revealed: pos.revealed.map(|k| (pos.to_move, k)),
            left,
            last_text: None,
            last_move: None,
            origin: f.origin,
        }
    }

    /// Whether the shown square (file, rank) is dark: by its absolute coordinates, so a
    /// square keeps its colour however the labels move.
    pub fn dark(&self, file: u32, rank: u32) -> bool {
        (self.origin.0 + file as i32 + self.origin.1 + rank as i32).rem_euclid(2) == 0
    }

    /// The same picture on a larger frame: its shown `a1` at the absolute square `origin`,
    /// `files`×`ranks` squares (a replay shows every position on the frame of the whole
    /// game, so the absolute squares stand still while the board grows and shrinks). The
    /// frame must hold this view's squares.
    pub fn reframed(&self, origin: (i32, i32), files: u32, ranks: u32) -> ChexView {
        let (dx, dy) = (self.origin.0 - origin.0, self.origin.1 - origin.1);
        let at =
            |(f, r): (u32, u32)| ((f as i32 + dx).max(0) as u32, (r as i32 + dy).max(0) as u32);
        ChexView {
            files,
            ranks,
            pieces: self
                .pieces
                .iter()
                .map(|&(s, side, k)| (at(s), side, k))
                .collect(),
            tagged: self.tagged.iter().map(|&s| at(s)).collect(),
            last: self.last.map(|(from, to)| (from.map(at), at(to))),
            last_text: self.last_text_on(origin, files, ranks),
            origin,
            ..self.clone()
        }
    }

    /// The last move in the labels of a frame whose `a1` is the absolute square `origin`
    /// (what a replay's frame draws); the view's own text when it keeps no move.
    pub fn last_text_on(&self, origin: (i32, i32), files: u32, ranks: u32) -> Option<String> {
        match self.last_move {
            Some(m) => Some(m.text(&Frame {
                origin,
                width: files,
                height: ranks,
            })),
            None => self.last_text.clone(),
        }
    }

    /// The view of a game now.
    pub fn of_game(game: &Game) -> ChexView {
        let pos = game.position();
        let mut v = ChexView::of_position(pos);
        let f = pos.frame();
        let local = |s: (i32, i32)| ((s.0 - f.origin.0) as u32, (s.1 - f.origin.1) as u32);
        v.last = game
            .state()
            .last
            .filter(|(_, to)| f.name(*to).is_some())
            .map(|(from, to)| (from.filter(|s| f.name(*s).is_some()).map(local), local(to)));
        v.title = format!("Chex · #{}", game.board_number());
        v.status = match game.to_move() {
            Some(s) => match pos.revealed {
                Some(k) => format!("{} to place the {}", game.name(s), k.name()),
                None => format!("{} to play", game.name(s)),
            },
            None => game
                .state()
                .outcome
                .map(|o| crate::games::chex::outcome_text(&game.users, &o))
                .unwrap_or_default(),
        };
        v.last_text = game.state().last_now();
        v.last_move = game.state().last_move;
        v
    }
}

/// The picture's view of a game.
pub fn chex_view(game: &Game) -> ChexView {
    ChexView::of_game(game)
}

/// A busy mid-game position for `render-bench`.
pub fn example_chex() -> ChexView {
    let text = "10/3p1n4/2pPbBp1P1/1NqQkPRp2/2PKrBp3/3pPRN3/4Pn4/10 [PP bpp] w -1,-1 -";
    match Position::from_text(text) {
        Ok(pos) => {
            let mut v = ChexView::of_position(&pos);
            v.title = "Chex · #57".into();
            v.status = "White (ann) to play".into();
            v.last = Some((Some((4, 3)), (4, 4)));
            v.last_text = Some("Qd4-e5".into());
            v
        }
        Err(_) => ChexView::of_position(&Position::start()),
    }
}

/// Draws the picture as PNG bytes.
///
/// # Errors
/// The font cannot be read, or encoding fails.
pub fn render_chex(view: &ChexView) -> Result<Vec<u8>, RenderError> {
    draw_chex(view)?.encode()
}

pub(crate) fn draw_chex(view: &ChexView) -> Result<Canvas, RenderError> {
    let fonts = fonts()?;
    let n = view.files.max(view.ranks).max(1);
    let margin = 26u32;
    let sq = ((WIDTH - 2 * PAD - 2 * margin) / n).clamp(20, 72);
    let board_w = sq * view.files;
    let board_h = sq * view.ranks;
    // Header: title at the right, status (wrapped, never cut) and last move at the left.
    let title_w = fonts_width(fonts, &view.title, 26.0);
    let status_w = WIDTH as f32 - 2.0 * PAD as f32 - title_w - 20.0;
    let status = wrap_text(&fonts.bold, 20.0, &view.status, status_w);
    let status_lines = status.len().max(1) as u32;
    let header = 36 + 26 * status_lines;
    let panel = 176u32;
    let height = PAD + header + board_h + 2 * margin + panel + PAD;
    let mut c = Canvas::new(WIDTH, height, PAGE);
    let right = (WIDTH - PAD) as f32;
    c.text(
        &fonts.bold,
        26.0,
        &view.title,
        right - title_w,
        (PAD + 16) as f32,
        Align::Left,
        TEXT,
    );
    for (i, line) in status.iter().enumerate() {
        c.text(
            &fonts.bold,
            20.0,
            line,
            PAD as f32,
            (PAD + 16 + 26 * i as u32) as f32,
            Align::Left,
            TEXT,
        );
    }
    if let Some(t) = &view.last_text {
        c.text(
            &fonts.regular,
            17.0,
            &format!("last: {t}"),
            PAD as f32,
            (PAD + 18 + 26 * status_lines) as f32,
            Align::Left,
            DIM,
        );
    }
    // Board, centred.
    let bx = ((WIDTH - board_w) / 2) as i32;
    let by = (PAD + header + margin) as i32;
    let cell = |f: u32, r: u32| -> (i32, i32) {
        (
            bx + (f * sq) as i32,
            by + ((view.ranks - 1 - r) * sq) as i32,
        )
    };
    c.fill(bx - 2, by - 2, board_w + 4, board_h + 4, [22, 22, 22]);
    for f in 0..view.files {
        for r in 0..view.ranks {
            let (x, y) = cell(f, r);
            c.fill(x, y, sq, sq, if view.dark(f, r) { DARK } else { LIGHT });
        }
    }
    if let Some((from, to)) = view.last {
        for s in from.into_iter().chain(std::iter::once(to)) {
            let (x, y) = cell(s.0, s.1);
            c.tint(x, y, sq, sq, LAST, 0.55);
        }
    }
    let px = (sq as f32 * 0.34).clamp(11.0, 16.0);
    for f in 0..view.files.min(26) {
        let label = ((b'a' + f as u8) as char).to_string();
        let (x, _) = cell(f, 0);
        let cx = x as f32 + sq as f32 / 2.0;
        c.text(
            &fonts.bold,
            px,
            &label,
            cx,
            (by as u32 + board_h + margin / 2) as f32,
            Align::Centre,
            DIM,
        );
        c.text(
            &fonts.bold,
            px,
            &label,
            cx,
            (by - (margin / 2) as i32) as f32,
            Align::Centre,
            DIM,
        );
    }
    for r in 0..view.ranks {
        let label = (r + 1).to_string();
        let (_, y) = cell(0, r);
        let cy = y as f32 + sq as f32 / 2.0;
        c.text(
            &fonts.bold,
            px,
            &label,
            (bx - (margin / 2) as i32) as f32,
            cy,
            Align::Centre,
            DIM,
        );
        c.text(
            &fonts.bold,
            px,
            &label,
            (bx as u32 + board_w + margin / 2) as f32,
            cy,
            Align::Centre,
            DIM,
        );
    }
    let size = (sq as usize * 9 / 10).max(12);
    let off = ((sq as usize - size) / 2) as i32;
    for &((f, r), side, kind) in &view.pieces {
        let (x, y) = cell(f, r);
        sprite(fonts, &figure(kind), fill(side), size).draw(&mut c, x + off, y + off);
    }
    let t = (sq / 14).max(2);
    for &(f, r) in &view.tagged {
        let (x, y) = cell(f, r);
        c.frame(x + 1, y + 1, sq - 2, sq - 2, t, TAG);
    }
    // Panel: revealed piece, stacks left by type, the legend.
    let py = (by as u32 + board_h + margin + 8) as i32;
    c.fill(PAD as i32, py, WIDTH - 2 * PAD, panel - 12, PANEL);
    let mut x = PAD as f32 + 12.0;
    let row1 = py as f32 + 26.0;
    match view.revealed {
        Some((side, kind)) => {
            let w = c.text(
                &fonts.bold,
                18.0,
                &format!("Drawn: {} {}", side.name(), kind.name()),
                x,
                row1,
                Align::Left,
                TEXT,
            );
            // On a light tile, so that a Black piece shows on the dark panel.
            let (tx, ty) = ((x + w + 8.0) as i32, (row1 - 20.0) as i32);
            c.fill(tx - 2, ty - 2, 44, 44, LIGHT);
            sprite(fonts, &figure(kind), fill(side), 40).draw(&mut c, tx, ty);
        }
        None => {
            c.text(
                &fonts.regular,
                17.0,
                "No piece drawn",
                x,
                row1,
                Align::Left,
                DIM,
            );
        }
    }
    for side in Side::BOTH {
        let y = py as f32 + 66.0 + side.index() as f32 * 38.0;
        x = PAD as f32 + 12.0;
        x += c.text(
            &fonts.bold,
            17.0,
            &format!("{} left:", side.name()),
            x,
            y,
            Align::Left,
            TEXT,
        ) + 10.0;
        let counts = view.left[side.index()];
        if counts.iter().all(|&n| n == 0) {
            c.text(&fonts.regular, 17.0, "none", x, y, Align::Left, DIM);
            continue;
        }
        for (i, &k) in Kind::ALL.iter().enumerate() {
            if counts[i] == 0 {
                continue;
            }
            // On a light tile, so that a Black piece shows on the dark panel.
            c.fill(x as i32 - 2, (y - 18.0) as i32, 36, 36, LIGHT);
            sprite(fonts, &figure(k), fill(side), 32).draw(&mut c, x as i32, (y - 16.0) as i32);
            x += 40.0;
            x += c.text(
                &fonts.bold,
                17.0,
                &format!("×{}", counts[i]),
                x,
                y,
                Align::Left,
                TEXT,
            ) + 14.0;
        }
    }
    let legend = "red frame: cannot move without breaking the group";
    let ly = py + panel as i32 - 34;
    c.frame(PAD as i32 + 12, ly - 7, 14, 14, 2, TAG);
    c.text(
        &fonts.regular,
        15.0,
        legend,
        (PAD + 34) as f32,
        ly as f32,
        Align::Left,
        DIM,
    );
    Ok(c)
}

fn fonts_width(fonts: &Fonts, text: &str, px: f32) -> f32 {
    crate::render::canvas::text_width(&fonts.bold, px, text)
}

crate::render::animation::still!(ChexView, drawn by draw_chex, headed |v| {
    let last = v.last_text.as_deref().unwrap_or("none");
    format!("{} · {} · last: {last}", v.title, v.status)
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bench_example_is_a_busy_position_and_draws() {
        let v = example_chex();
        assert!(v.pieces.len() >= 24, "{}", v.pieces.len());
        assert!(!v.tagged.is_empty());
        let png = render_chex(&v).unwrap();
        let img = image::load_from_memory_with_format(&png, image::ImageFormat::Png).unwrap();
        assert_eq!(img.width(), WIDTH);
    }
}
