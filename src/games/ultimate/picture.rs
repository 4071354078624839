//! The Ultimate Chess picture: the cross-shaped board (16×16 less its four 2×2 corners) with
//! four seats, each named on a plate at its own edge (Silver south, Red west, Black north,
//! Green east), whose turn it is, Kings in check, defeated seats, Conquest obstacles and the
//! last move.
//!
//! The picture is drawn from a plain [`CrossView`], so it does not depend on the rules engine:
//! the game layer fills the view from its state.

use crate::render::board::{dot, DIM, PAGE, PANEL, TEXT};
use crate::render::canvas::{fit_text, text_width, Align, Canvas, Fonts, Rgb8, Turn};
use crate::render::shapes::{sprite_look, Base, Figure, Look, OUTLINE};
use crate::render::{fonts, RenderError};

/// Files and ranks of the board's enclosing square.
pub const CROSS_SIDE: usize = 16;
/// Files and ranks cut off at each corner.
const CUT: usize = 2;

/// The seats' colour names, seat 1 first.
pub const SEAT_COLOURS: [&str; 4] = ["Silver", "Red", "Black", "Green"];

/// One piece on the cross board.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct CrossPiece {
    /// `K Q R B N W M P` (any other letter is drawn as a round token bearing it).
    pub letter: char,
    /// The seat that owns it: 1 Silver, 2 Red, 3 Black, 4 Green.
    pub seat: u8,
    /// A Conquest obstacle: belongs to a defeated seat, never moves, drawn grey.
    pub neutral: bool,
}

impl CrossPiece {
    /// A piece of a seat in play.
    pub fn new(letter: char, seat: u8) -> CrossPiece {
        CrossPiece {
            letter,
            seat,
            neutral: false,
        }
    }

    /// A Conquest obstacle that once belonged to `seat`.
    pub fn obstacle(letter: char, seat: u8) -> CrossPiece {
        CrossPiece {
            letter,
            seat,
            neutral: true,
        }
    }
}

/// A square of the cross board as `(file, rank)` from 0: `a1` is `(0, 0)`, `p16` is
/// `(15, 15)`.
pub type CrossSquare = (u8, u8);

/// Everything the Ultimate Chess picture shows.
///
/// Squares are `(file, rank)` counted from 0 (`squares[4][3]` is `e4`); seats are 1 Silver,
/// 2 Red, 3 Black, 4 Green. Anything out of range (a piece on a cut corner, seat 7, a last
/// move off the board) is left out of the picture rather than refused.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct CrossView {
    /// A line at the top right (game name, move number); may be empty.
    pub title: String,
    /// The pieces by file, then rank. The cut corners (`a1 b1 a2 b2`, `o1 p1 o2 p2`,
    /// `a15 b15 a16 b16`, `o15 p15 o16 p16`) are not drawn whatever they hold.
    pub squares: [[Option<CrossPiece>; CROSS_SIDE]; CROSS_SIDE],
    /// The players' names, seat 1 first; an empty name shows the colour only.
    pub names: [String; 4],
    /// The seat to move, if the game is running.
    pub to_move: Option<u8>,
    /// Seats whose King is in check.
    pub in_check: Vec<u8>,
    /// Seats defeated.
    pub defeated: Vec<u8>,
    /// Devastation: `(d, v)` means seat d's pieces are played by seat v; they are drawn in
    /// v's colour with a mark of d's colour.
    pub controllers: Vec<(u8, u8)>,
    /// The last move's from- and to-square.
    pub last_move: Option<(CrossSquare, CrossSquare)>,
    /// Other squares the last move changed (castling's rook), marked like the move.
    pub last_others: Vec<CrossSquare>,
    /// A note after whose turn it is (`draw offered by Red`, `Green wins`); may be empty.
    pub note: String,
}

/// Whether `(file, rank)` is one of the sixteen cut corner squares (or off the 16×16 square).
pub fn is_cut(file: usize, rank: usize) -> bool {
    let edge = |v: usize| !(CUT..CROSS_SIDE - CUT).contains(&v);
    file >= CROSS_SIDE || rank >= CROSS_SIDE || (edge(file) && edge(rank))
}

/// Reads a square name (`e4`, `p14`) of the cross board; `None` if it is not on the board.
pub fn parse_cross_square(name: &str) -> Option<CrossSquare> {
    let mut chars = name.chars();
    let f = chars.next()?;
    if !f.is_ascii_lowercase() {
        return None;
    }
    let file = (f as u8 - b'a') as usize;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || digits.starts_with('0') {
        return None;
    }
    let rank = digits.parse::<usize>().ok()?.checked_sub(1)?;
    (!is_cut(file, rank)).then_some((file as u8, rank as u8))
}

/// The name players type for a square (`(4, 3)` is `e4`).
pub fn cross_square_name((file, rank): CrossSquare) -> String {
    format!("{}{}", (b'a' + file) as char, rank as u32 + 1)
}

/// The twelve squares of a seat's first row in increasing file (Silver, Black) or rank (Red,
/// Green) order, and the twelve squares one step forward of them (its pawns).
fn home_rows(seat: u8) -> Option<([CrossSquare; 12], [CrossSquare; 12])> {
    let line = |f: &dyn Fn(u8) -> CrossSquare| std::array::from_fn(|i| f(i as u8 + 2));
    Some(match seat {
        1 => (line(&|i| (i, 0)), line(&|i| (i, 1))),
        2 => (line(&|i| (0, i)), line(&|i| (1, i))),
        3 => (line(&|i| (i, 15)), line(&|i| (i, 14))),
        4 => (line(&|i| (15, i)), line(&|i| (14, i))),
        _ => return None,
    })
}

impl CrossView {
    /// An empty board with these names.
    pub fn empty(names: [String; 4]) -> CrossView {
        CrossView {
            names,
            ..CrossView::default()
        }
    }

    /// The start array of Ultimate rules 4.1 (first rows `M W R N B K Q B N R W M` along increasing
    /// files or ranks, so Kings on h1, a8, h16, p8 and Queens on i1, a9, i16, p9; twelve
    /// pawns in front of each), Silver to move.
    pub fn start(names: [String; 4]) -> CrossView {
        const ROW: [char; 12] = ['M', 'W', 'R', 'N', 'B', 'K', 'Q', 'B', 'N', 'R', 'W', 'M'];
        let mut view = CrossView::empty(names);
        for seat in 1..=4 {
            if let Some((first, pawns)) = home_rows(seat) {
                for (i, &sq) in first.iter().enumerate() {
                    view.set(sq, Some(CrossPiece::new(ROW[i], seat)));
                }
                for &sq in &pawns {
                    view.set(sq, Some(CrossPiece::new('P', seat)));
                }
            }
        }
        view.to_move = Some(1);
        view
    }

    /// The piece on a square (`None` for an empty or cut square).
    pub fn get(&self, (file, rank): CrossSquare) -> Option<CrossPiece> {
        let (f, r) = (file as usize, rank as usize);
        if is_cut(f, r) {
            return None;
        }
        self.squares[f][r]
    }

    /// Puts a piece on (or clears) a square; returns false, changing nothing, for a square
    /// off the board.
    pub fn set(&mut self, (file, rank): CrossSquare, piece: Option<CrossPiece>) -> bool {
        let (f, r) = (file as usize, rank as usize);
        if is_cut(f, r) {
            return false;
        }
        self.squares[f][r] = piece;
        true
    }

    /// Moves whatever stands on `from` to `to` (capturing what was there) and marks it as
    /// the last move; returns false, changing nothing, if a square is not on the board.
    /// A convenience for examples and tests, with no rules checked.
    pub fn shift(&mut self, from: &str, to: &str) -> bool {
        let (Some(a), Some(b)) = (parse_cross_square(from), parse_cross_square(to)) else {
            return false;
        };
        let piece = self.get(a);
        self.set(a, None);
        self.set(b, piece);
        self.last_move = Some((a, b));
        self.last_others.clear();
        true
    }

    fn seat_ok(seat: u8) -> bool {
        (1..=4).contains(&seat)
    }

    fn controller(&self, seat: u8) -> Option<u8> {
        self.controllers
            .iter()
            .find(|&&(d, v)| d == seat && v != seat && Self::seat_ok(v))
            .map(|&(_, v)| v)
    }

    /// The label of a seat: `name · Colour`, or the colour alone.
    fn seat_name(&self, seat: u8) -> String {
        let colour = SEAT_COLOURS[(seat - 1) as usize];
        let name = self.names[(seat - 1) as usize].trim();
        if name.is_empty() {
            colour.to_string()
        } else {
            format!("{name} ({colour})")
        }
    }
}

// Layout (pixels).
const SQ: u32 = 50;
const PAD: u32 = 8;
const HEADER_H: u32 = 44;
const PLATE: u32 = 42;
const GAP: u32 = 6;
/// The coordinate margin beside the board, the seat's colour bar included.
const MARGIN: u32 = 32;
const BAR: u32 = 6;
const BOARD: u32 = CROSS_SIDE as u32 * SQ;
const COORD_PX: f32 = 17.0;
const NAME_PX: f32 = 23.0;
const SUB_PX: f32 = 17.0;

// Colours.
const LIGHT_SQ: Rgb8 = [240, 217, 181];
const DARK_SQ: Rgb8 = [181, 136, 99];
const EDGE: Rgb8 = [22, 22, 22];
const MOVE_HL: Rgb8 = [250, 232, 60];
const CHECK: Rgb8 = [255, 24, 24];
const CHECK_FRAME: Rgb8 = [200, 0, 0];
const TURN_BG: Rgb8 = [250, 204, 21];
const TURN_TEXT: Rgb8 = [28, 28, 28];
const DEFEATED_BG: Rgb8 = [44, 46, 50];
const GREY_TEXT: Rgb8 = [120, 124, 130];
/// A defeated seat's name and words on its dark plate: light enough to read.
const DEFEATED_TEXT: Rgb8 = [184, 188, 194];
const NEUTRAL: Rgb8 = [140, 140, 140];
const NEUTRAL_HATCH: Rgb8 = [96, 96, 96];
const HALO: Rgb8 = [196, 196, 196];
const LEGEND_FILL: Rgb8 = [226, 226, 226];

/// The fill of a seat's pieces.
fn seat_colour(seat: u8) -> Rgb8 {
    match seat {
        1 => [198, 205, 218],
        2 => [222, 44, 44],
        3 => [36, 36, 40],
        4 => [40, 158, 72],
        _ => NEUTRAL,
    }
}

/// Dark pieces get a light ring so that they stand out on dark squares.
fn seat_look(seat: u8) -> Look {
    Look {
        halo: (seat == 3).then_some(HALO),
        hatch: None,
    }
}

fn figure(letter: char) -> Figure {
    match letter.to_ascii_uppercase() {
        'K' => Figure::King,
        'Q' => Figure::Queen,
        'R' => Figure::Rook,
        'B' => Figure::Bishop,
        'N' => Figure::Knight,
        'P' => Figure::Pawn,
        'W' => Figure::Warrior,
        'M' => Figure::Mage,
        other => Figure::Token {
            abbr: other.to_string(),
            base: Base::Circle,
            marks: Vec::new(),
        },
    }
}

/// Where the parts of the picture go.
struct Layout {
    width: u32,
    height: u32,
    /// Top-left corner of the 16×16 square.
    bx: i32,
    by: i32,
}

impl Layout {
    fn new() -> Layout {
        let side = PAD + PLATE + GAP + MARGIN;
        Layout {
            width: 2 * side + BOARD,
            height: PAD + HEADER_H + 2 * (PLATE + GAP + MARGIN) + BOARD + PAD,
            bx: side as i32,
            by: (PAD + HEADER_H + PLATE + GAP + MARGIN) as i32,
        }
    }

    /// Top-left pixel of a square (rank 16 at the top).
    fn cell(&self, file: usize, rank: usize) -> (i32, i32) {
        (
            self.bx + (file as u32 * SQ) as i32,
            self.by + ((CROSS_SIDE - 1 - rank) as u32 * SQ) as i32,
        )
    }

    /// The seat's plate: x, y, length along its edge, and whether it stands upright (Red,
    /// Green).
    fn plate(&self, seat: u8) -> (i32, i32, u32, bool) {
        let arm = (CROSS_SIDE - 2 * CUT) as u32 * SQ;
        let along = (CUT as u32 * SQ) as i32;
        match seat {
            1 => (
                self.bx + along,
                self.by + (BOARD + MARGIN + GAP) as i32,
                arm,
                false,
            ),
            2 => (PAD as i32, self.by + along, arm, true),
            3 => (self.bx + along, (PAD + HEADER_H) as i32, arm, false),
            _ => (
                (self.width - PAD - PLATE) as i32,
                self.by + along,
                arm,
                true,
            ),
        }
    }
}

/// Draws the Ultimate Chess picture and returns PNG bytes.
///
/// # Errors
/// Only if the embedded font is unreadable or encoding fails.
pub fn render_ultimate(view: &CrossView) -> Result<Vec<u8>, RenderError> {
    draw_ultimate(view)?.encode()
}

/// Draws the Ultimate Chess picture.
pub(crate) fn draw_ultimate(view: &CrossView) -> Result<Canvas, RenderError> {
    let fonts = fonts()?;
    let lay = Layout::new();
    let mut canvas = Canvas::new(lay.width, lay.height, PAGE);
    header(&mut canvas, fonts, view, &lay);
    board(&mut canvas, fonts, view, &lay);
    for seat in 1..=4 {
        plate(&mut canvas, fonts, view, &lay, seat);
    }
    legend(&mut canvas, fonts, &lay);
    Ok(canvas)
}

/// The top line: whose turn, who is in check, the note; the title at the right.
fn header(canvas: &mut Canvas, fonts: &Fonts, view: &CrossView, lay: &Layout) {
    let cy = (PAD + HEADER_H / 2) as f32 - 2.0;
    let mut x = (PAD + 2) as f32;
    let right = (lay.width - PAD) as f32;
    let turn = view
        .to_move
        .filter(|&s| CrossView::seat_ok(s) && !view.defeated.contains(&s));
    let px = 22.0;
    let mut line: Vec<(String, Rgb8)> = Vec::new();
    if let Some(seat) = turn {
        // Black's dot is ringed in light grey: on the dark page a dark ring would hide it.
        let ring = if seat == 3 { HALO } else { OUTLINE };
        dot(canvas, x as i32 + 12, cy as i32, 12, ring);
        dot(canvas, x as i32 + 12, cy as i32, 10, seat_colour(seat));
        x += 32.0;
        line.push((format!("{} to move", view.seat_name(seat)), TEXT));
    } else if view.note.trim().is_empty() {
        line.push(("Game over".into(), TEXT));
    }
    let mut checks: Vec<u8> = view
        .in_check
        .iter()
        .copied()
        .filter(|&s| CrossView::seat_ok(s) && !view.defeated.contains(&s))
        .collect();
    checks.sort_unstable();
    checks.dedup();
    if !checks.is_empty() {
        let who: Vec<&str> = checks
            .iter()
            .map(|&s| SEAT_COLOURS[(s - 1) as usize])
            .collect();
        line.push((format!("{} in check", who.join(", ")), [255, 110, 110]));
    }
    let note = view.note.trim();
    let over = turn.is_none() && !note.is_empty();
    if !note.is_empty() {
        // Once the game is over the note is the result: the headline, in full.
        line.push((note.to_string(), if over { TEXT } else { DIM }));
    }
    let mut px = px;
    let mut title_room = (lay.width / 3) as f32;
    if over {
        let room = |title: f32| right - x - title - 16.0;
        let wide = |px: f32| text_width(&fonts.bold, px, note);
        let title_w = text_width(&fonts.regular, 17.0, view.title.trim());
        if wide(px) > room(title_w.min(title_room)) {
            px = 17.0;
        }
        if wide(px) > room(title_w.min(title_room)) {
            title_room = 0.0;
        }
    }
    // The title takes what is left at the right, at most a third of the width.
    let title = if title_room > 0.0 {
        fit_text(&fonts.regular, 17.0, view.title.trim(), title_room)
    } else {
        String::new()
    };
    let title_w = text_width(&fonts.regular, 17.0, &title);
    if !title.is_empty() {
        canvas.text(
            &fonts.regular,
            17.0,
            &title,
            right - title_w,
            cy,
            Align::Left,
            DIM,
        );
    }
    let limit = right - title_w - 16.0;
    for (i, (text, colour)) in line.iter().enumerate() {
        let text = if i == 0 {
            text.clone()
        } else {
            format!(" · {text}")
        };
        let text = fit_text(&fonts.bold, px, &text, (limit - x).max(0.0));
        x += canvas.text(&fonts.bold, px, &text, x, cy, Align::Left, *colour);
    }
}

/// Squares, colour bars, highlights, coordinates and pieces.
fn board(canvas: &mut Canvas, fonts: &Fonts, view: &CrossView, lay: &Layout) {
    let on_board = |f: usize, r: usize| !is_cut(f, r);
    // A dark edge around the cross: every square drawn a little larger first.
    let edge = 2;
    for f in 0..CROSS_SIDE {
        for r in (0..CROSS_SIDE).filter(|&r| on_board(f, r)) {
            let (x, y) = lay.cell(f, r);
            canvas.fill(
                x - edge,
                y - edge,
                SQ + 2 * edge as u32,
                SQ + 2 * edge as u32,
                EDGE,
            );
        }
    }
    // Each seat's colour along its arm's outer edge.
    for seat in 1..=4u8 {
        colour_bar(canvas, view, lay, seat);
    }
    let marked = |sq: CrossSquare| {
        view.last_move.is_some_and(|(a, b)| a == sq || b == sq) || view.last_others.contains(&sq)
    };
    for f in 0..CROSS_SIDE {
        for r in (0..CROSS_SIDE).filter(|&r| on_board(f, r)) {
            let (x, y) = lay.cell(f, r);
            // Dark when the file number (a = 1) plus the rank is odd.
            let dark = (f + 1 + r + 1) % 2 == 1;
            canvas.fill(x, y, SQ, SQ, if dark { DARK_SQ } else { LIGHT_SQ });
            if marked((f as u8, r as u8)) {
                canvas.tint(x, y, SQ, SQ, MOVE_HL, 0.6);
            }
        }
    }
    coordinates(canvas, fonts, lay);
    // Kings in check glow red under the piece.
    for f in 0..CROSS_SIDE {
        for r in 0..CROSS_SIDE {
            let Some(p) = view.get((f as u8, r as u8)) else {
                continue;
            };
            let checked = !p.neutral
                && p.letter.eq_ignore_ascii_case(&'K')
                && view.in_check.contains(&p.seat)
                && !view.defeated.contains(&p.seat);
            if checked {
                let (x, y) = lay.cell(f, r);
                check_glow(canvas, x, y);
            }
        }
    }
    for f in 0..CROSS_SIDE {
        for r in 0..CROSS_SIDE {
            if let Some(p) = view.get((f as u8, r as u8)) {
                let (x, y) = lay.cell(f, r);
                piece(canvas, fonts, view, p, x, y);
            }
        }
    }
}

/// A bar in the seat's colour (grey once defeated) between the arm and its coordinates.
fn colour_bar(canvas: &mut Canvas, view: &CrossView, lay: &Layout, seat: u8) {
    let arm = (CROSS_SIDE - 2 * CUT) as u32 * SQ;
    let along = (CUT as u32 * SQ) as i32;
    let off = 3;
    let (x, y, w, h) = match seat {
        1 => (lay.bx + along, lay.by + (BOARD + off) as i32, arm, BAR),
        2 => (lay.bx - (off + BAR) as i32, lay.by + along, BAR, arm),
        3 => (lay.bx + along, lay.by - (off + BAR) as i32, arm, BAR),
        _ => (lay.bx + (BOARD + off) as i32, lay.by + along, BAR, arm),
    };
    let fill = if view.defeated.contains(&seat) {
        GREY_TEXT
    } else {
        seat_colour(seat)
    };
    if seat == 3 {
        // Black on the dark page needs a light rim.
        canvas.fill(x - 1, y - 1, w + 2, h + 2, HALO);
    }
    canvas.fill(x, y, w, h, fill);
}

/// Files a–p above and below, ranks 1–16 left and right, in straight lines.
fn coordinates(canvas: &mut Canvas, fonts: &Fonts, lay: &Layout) {
    let room = (MARGIN - BAR - 3) as f32;
    let left = lay.bx as f32 - room / 2.0 - 1.0;
    let top = lay.by as f32 - MARGIN as f32 + room / 2.0 - 2.0;
    let bottom = (lay.by + BOARD as i32) as f32 + MARGIN as f32 - room / 2.0 + 2.0;
    let right = (lay.bx + BOARD as i32) as f32 + room / 2.0 + 1.0;
    for i in 0..CROSS_SIDE {
        let (x, _) = lay.cell(i, 0);
        let label = ((b'a' + i as u8) as char).to_string();
        let cx = x as f32 + SQ as f32 / 2.0;
        canvas.text(&fonts.bold, COORD_PX, &label, cx, top, Align::Centre, DIM);
        canvas.text(
            &fonts.bold,
            COORD_PX,
            &label,
            cx,
            bottom,
            Align::Centre,
            DIM,
        );
        let (_, y) = lay.cell(0, i);
        let label = (i + 1).to_string();
        let cy = y as f32 + SQ as f32 / 2.0;
        canvas.text(&fonts.bold, COORD_PX, &label, left, cy, Align::Centre, DIM);
        canvas.text(&fonts.bold, COORD_PX, &label, right, cy, Align::Centre, DIM);
    }
}

/// A red glow, strongest in the middle of the square, inside a red frame.
fn check_glow(canvas: &mut Canvas, x: i32, y: i32) {
    canvas.glow(x, y, SQ, CHECK);
    canvas.frame(x, y, SQ, SQ, 3, CHECK_FRAME);
}

/// One piece: its seat's colour, grey and striped for an obstacle, in its controller's
/// colour with a dot of its owner's when another seat plays it.
fn piece(canvas: &mut Canvas, fonts: &Fonts, view: &CrossView, p: CrossPiece, x: i32, y: i32) {
    let fig = figure(p.letter);
    let valid = CrossView::seat_ok(p.seat);
    if p.neutral || !valid {
        let look = Look {
            halo: None,
            hatch: Some(NEUTRAL_HATCH),
        };
        sprite_look(fonts, &fig, NEUTRAL, SQ as usize, look).draw(canvas, x, y);
        return;
    }
    let player = view.controller(p.seat).unwrap_or(p.seat);
    sprite_look(
        fonts,
        &fig,
        seat_colour(player),
        SQ as usize,
        seat_look(player),
    )
    .draw(canvas, x, y);
    if player != p.seat {
        let r = 6;
        dot(canvas, x + r + 3, y + r + 3, r + 1, OUTLINE);
        if p.seat == 3 {
            dot(canvas, x + r + 3, y + r + 3, r, HALO);
            dot(canvas, x + r + 3, y + r + 3, r - 2, seat_colour(p.seat));
        } else {
            dot(canvas, x + r + 3, y + r + 3, r, seat_colour(p.seat));
        }
    }
}

/// A seat's plate at its edge: its King in its colour, the name, and a badge (to move, in
/// check, defeated). Red's and Green's stand upright, read from the bottom and from the top.
fn plate(canvas: &mut Canvas, fonts: &Fonts, view: &CrossView, lay: &Layout, seat: u8) {
    let (x, y, len, upright) = lay.plate(seat);
    let defeated = view.defeated.contains(&seat);
    let to_move = view.to_move == Some(seat) && !defeated;
    let checked = view.in_check.contains(&seat) && !defeated;
    let (bg, fg, sub) = if to_move {
        (TURN_BG, TURN_TEXT, [70, 60, 20])
    } else if defeated {
        (DEFEATED_BG, DEFEATED_TEXT, DEFEATED_TEXT)
    } else {
        (PANEL, TEXT, DIM)
    };
    let mut p = canvas.plate(len, PLATE, bg);
    let block = PLATE;
    // The badge at the far end.
    let badge = if defeated {
        Some(("DEFEATED", [86, 88, 94], [200, 200, 200]))
    } else if to_move && checked {
        Some(("TO MOVE · CHECK", [200, 30, 30], [255, 255, 255]))
    } else if to_move {
        Some(("▶ TO MOVE", [28, 28, 28], TURN_BG))
    } else if checked {
        Some(("CHECK", [200, 30, 30], [255, 255, 255]))
    } else {
        None
    };
    let cy = PLATE as f32 / 2.0;
    let mut end = len as i32 - 6;
    if let Some((label, bbg, bfg)) = badge {
        let bw = text_width(&fonts.bold, 15.0, label) as u32 + 16;
        end -= bw as i32;
        p.fill(end, 7, bw, PLATE - 14, bbg);
        p.text(
            &fonts.bold,
            15.0,
            label,
            (end + bw as i32 / 2) as f32,
            cy,
            Align::Centre,
            bfg,
        );
        end -= 10;
    }
    let tx = (block + 10) as f32;
    let name = view.names[(seat - 1) as usize].trim();
    let colour_name = SEAT_COLOURS[(seat - 1) as usize];
    let mut extra = match view.controller(seat) {
        Some(v) => format!("{colour_name} · played by {}", view.seat_name(v)),
        None => colour_name.to_string(),
    };
    let room = (end as f32 - tx).max(0.0);
    let (main, main_w) = if name.is_empty() {
        extra = match view.controller(seat) {
            Some(v) => format!("played by {}", view.seat_name(v)),
            None => String::new(),
        };
        let t = fit_text(&fonts.bold, NAME_PX, colour_name, room);
        let w = text_width(&fonts.bold, NAME_PX, &t);
        (t, w)
    } else {
        let t = fit_text(&fonts.bold, NAME_PX, name, room * 0.75);
        let w = text_width(&fonts.bold, NAME_PX, &t);
        (t, w)
    };
    p.text(&fonts.bold, NAME_PX, &main, tx, cy, Align::Left, fg);
    if defeated {
        p.fill(
            tx as i32 - 2,
            cy as i32 - 1,
            main_w as u32 + 4,
            3,
            DEFEATED_TEXT,
        );
    }
    if !extra.is_empty() {
        let ex = tx + main_w + 10.0;
        let extra = fit_text(&fonts.regular, SUB_PX, &extra, (end as f32 - ex).max(0.0));
        p.text(&fonts.regular, SUB_PX, &extra, ex, cy, Align::Left, sub);
    }
    let turn = match (upright, seat) {
        (false, _) => Turn::None,
        (true, 2) => Turn::Anticlockwise,
        (true, _) => Turn::Clockwise,
    };
    canvas.put_plate(p, turn, x, y);
    // The seat's King on a light square at the plate's start, upright on every plate.
    let (kx, ky) = if seat == 2 {
        (x, y + (len - block) as i32)
    } else {
        (x, y)
    };
    canvas.fill(kx, ky, block, block, OUTLINE);
    canvas.fill(kx + 2, ky + 2, block - 4, block - 4, LIGHT_SQ);
    let (fill, look) = if defeated {
        (
            NEUTRAL,
            Look {
                halo: None,
                hatch: Some(NEUTRAL_HATCH),
            },
        )
    } else {
        (seat_colour(seat), seat_look(seat))
    };
    let icon = block - 4;
    sprite_look(fonts, &Figure::King, fill, icon as usize, look).draw(canvas, kx + 2, ky + 2);
}

/// The two pieces chess players do not know, in the bottom-right corner.
fn legend(canvas: &mut Canvas, fonts: &Fonts, lay: &Layout) {
    let corner = CUT as u32 * SQ;
    let (x0, y0) = lay.cell(CROSS_SIDE - CUT, CUT - 1);
    let icon = 40u32;
    let row = corner / 2;
    for (i, (fig, letter, name)) in [
        (Figure::Warrior, "W", "Warrior"),
        (Figure::Mage, "M", "Mage"),
    ]
    .into_iter()
    .enumerate()
    {
        let y = y0 + (i as u32 * row) as i32 + (row as i32 - icon as i32) / 2;
        sprite_look(fonts, &fig, LEGEND_FILL, icon as usize, Look::default()).draw(canvas, x0, y);
        let tx = (x0 + icon as i32 + 3) as f32;
        canvas.text(
            &fonts.bold,
            18.0,
            letter,
            tx,
            (y + 11) as f32,
            Align::Left,
            TEXT,
        );
        let w = corner as f32 - icon as f32 - 3.0;
        let name = fit_text(&fonts.regular, 13.0, name, w);
        canvas.text(
            &fonts.regular,
            13.0,
            &name,
            tx,
            (y + 30) as f32,
            Align::Left,
            DIM,
        );
    }
}

/// A busy Conquest game in the middle: pieces of all four seats moved about, Green defeated
/// (its pieces stand as obstacles), Black in check from the Silver Queen that just moved,
/// Red to move. Used by the benchmark and the golden-image tests.
pub fn example_ultimate() -> CrossView {
    let names = ["Ann", "Bartholomew", "Zoë", "Dana"].map(String::from);
    let mut v = CrossView::start(names);
    // Rounds of Silver, Red, Black, Green; Green is mated after the eleventh, and Silver's
    // Queen checks Black.
    let moves = [
        ("j2", "j4"),
        ("b9", "e9"),
        ("i15", "i12"),
        ("o7", "l7"),
        ("f1", "e3"),
        ("a6", "c7"),
        ("f16", "e14"),
        ("p11", "n12"),
        ("d1", "d3"),
        ("b10", "c10"),
        ("j16", "h14"),
        ("o10", "m10"),
        ("h2", "h4"),
        ("a9", "d12"),
        ("k16", "l14"),
        ("p9", "n11"),
        ("k1", "l3"),
        ("a4", "c4"),
        ("g15", "g13"),
        ("n12", "l13"),
        ("m1", "m3"),
        ("c7", "e8"),
        ("c15", "c13"),
        ("l7", "k7"),
        ("l3", "m5"),
        ("b6", "d6"),
        ("d16", "d14"),
        ("o12", "n12"),
        ("g1", "i3"),
        ("a11", "c12"),
        ("l14", "m12"),
        ("l13", "j12"),
        ("m5", "o6"),
        ("e9", "f9"),
        ("m12", "o11"),
        ("j12", "h13"),
        ("i1", "n6"),
        ("c12", "d14"),
        ("o11", "p9"),
        ("n11", "k11"),
        ("e3", "f5"),
        ("e8", "g9"),
        ("e14", "f12"),
        ("n6", "n10"),
    ];
    for (from, to) in moves {
        v.shift(from, to);
    }
    // Green was mated a while ago (Conquest): its pieces are obstacles now.
    for file in v.squares.iter_mut() {
        for p in file.iter_mut().flatten() {
            if p.seat == 4 {
                p.neutral = true;
            }
        }
    }
    v.title = "Ultimate Chess · conquest · move 45".into();
    v.to_move = Some(2);
    v.in_check = vec![3];
    v.defeated = vec![4];
    v
}

crate::render::animation::still!(CrossView, drawn by draw_ultimate, headed |v| format!("{} · {}", v.title, v.note));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_names() {
        assert!(is_cut(0, 0) && is_cut(1, 1) && is_cut(14, 15) && is_cut(15, 14));
        assert!(!is_cut(2, 0) && !is_cut(0, 2) && !is_cut(13, 15) && !is_cut(15, 13));
        let on = (0..16)
            .flat_map(|f| (0..16).map(move |r| (f, r)))
            .filter(|&(f, r)| !is_cut(f, r))
            .count();
        assert_eq!(on, 240);
        assert_eq!(parse_cross_square("a1"), None);
        assert_eq!(parse_cross_square("b15"), None);
        assert_eq!(parse_cross_square("c1"), Some((2, 0)));
        assert_eq!(parse_cross_square("p14"), Some((15, 13)));
        assert_eq!(parse_cross_square("q3"), None);
        assert_eq!(parse_cross_square("e17"), None);
        assert_eq!(parse_cross_square("e0"), None);
        assert_eq!(parse_cross_square("e04"), None);
        assert_eq!(cross_square_name((7, 15)), "h16");
    }

    #[test]
    fn start_array_matches_the_table() {
        let v = CrossView::start(Default::default());
        let at = |s: &str| v.get(parse_cross_square(s).unwrap());
        // Ultimate rules 4.1: Kings, Queens and rooks of every seat.
        for (seat, k, q, rooks) in [
            (1, "h1", "i1", ["e1", "l1"]),
            (2, "a8", "a9", ["a5", "a12"]),
            (3, "h16", "i16", ["e16", "l16"]),
            (4, "p8", "p9", ["p5", "p12"]),
        ] {
            assert_eq!(at(k), Some(CrossPiece::new('K', seat)), "{k}");
            assert_eq!(at(q), Some(CrossPiece::new('Q', seat)), "{q}");
            for r in rooks {
                assert_eq!(at(r), Some(CrossPiece::new('R', seat)), "{r}");
            }
        }
        // Queens on their own colour: Silver and Red light, Black and Green dark.
        let dark = |s: &str| {
            let (f, r) = parse_cross_square(s).unwrap();
            (f as u32 + 1 + r as u32 + 1) % 2 == 1
        };
        assert!(!dark("i1") && !dark("a9") && dark("i16") && dark("p9"));
        assert!(dark("n1") && dark("c16") && !dark("a3") && !dark("p14"));
        assert_eq!(at("c1"), Some(CrossPiece::new('M', 1)));
        assert_eq!(at("d1"), Some(CrossPiece::new('W', 1)));
        assert_eq!(at("a14"), Some(CrossPiece::new('M', 2)));
        assert_eq!(at("o3"), Some(CrossPiece::new('P', 4)));
        assert_eq!(at("n15"), Some(CrossPiece::new('P', 3)));
        let count = |seat| {
            v.squares
                .iter()
                .flatten()
                .flatten()
                .filter(|p| p.seat == seat)
                .count()
        };
        assert_eq!([count(1), count(2), count(3), count(4)], [24; 4]);
        assert_eq!(v.to_move, Some(1));
    }

    #[test]
    fn cut_squares_are_never_set() {
        let mut v = CrossView::default();
        assert!(!v.set((0, 0), Some(CrossPiece::new('K', 1))));
        assert!(v.squares[0][0].is_none());
        assert!(!v.shift("a1", "c1"));
        assert!(v.shift("c1", "c3"));
        assert_eq!(v.last_move, Some(((2, 0), (2, 2))));
    }
}
