//! Drawing one board (squares, coordinates, highlights, pieces), hands and the legend; shared
//! by the single-board picture and the KFB picture.

use std::collections::BTreeMap;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex, OnceLock};

use rustc_hash::{FxBuildHasher, FxHashMap};

use super::canvas::{fit_text, text_width, Align, Canvas, Fonts, Rgb8};
use super::shapes::{orthodox, sprite, Base, Figure, Sprite};
use super::LastMove;
use crate::engine::{
    orient, Catalog, Coord, Geometry, Kind, Piece, Position, Side, Square, MAX_SIDE,
};

/// Page background (also what unplayable squares show).
pub(crate) const PAGE: Rgb8 = [40, 43, 48];
/// Panel background behind a board's text.
pub(crate) const PANEL: Rgb8 = [52, 56, 62];
/// Main text colour.
pub(crate) const TEXT: Rgb8 = [236, 236, 236];
/// Secondary text colour.
pub(crate) const DIM: Rgb8 = [178, 182, 188];
const LIGHT_SQ: Rgb8 = [240, 217, 181];
const DARK_SQ: Rgb8 = [181, 136, 99];
const EDGE: Rgb8 = [22, 22, 22];
const MOVE_HL: Rgb8 = [250, 232, 60];
const DROP_HL: Rgb8 = [70, 205, 255];
const FROZEN_TINT: Rgb8 = [170, 205, 240];
/// Background of a hand.
const TRAY: Rgb8 = [226, 214, 192];

/// Square size for a board: 72 px up to 8×8, smaller for bigger boards (at least 30 px).
pub(crate) fn auto_square(geom: &Geometry) -> u32 {
    let n = geom.files().max(geom.ranks()).max(1) as u32;
    (900 / n).clamp(30, 72)
}

/// Font size of coordinates for a square size.
pub(crate) fn coord_px(sq: u32) -> f32 {
    (sq as f32 * 0.30).clamp(12.0, 17.0)
}

/// Width of the coordinate margin on each side of a board.
pub(crate) fn coord_margin(fonts: &Fonts, sq: u32) -> u32 {
    let px = coord_px(sq);
    (text_width(&fonts.bold, px, "20") + px * 0.9).ceil() as u32
}

/// The label players type for an internal file index, if it has one.
pub(crate) fn file_label(geom: &Geometry, file: u8) -> Option<String> {
    let f = file as i32 - geom.label_origin().file as i32;
    (0..MAX_SIDE as i32)
        .contains(&f)
        .then(|| ((b'a' + f as u8) as char).to_string())
}

/// The label players type for an internal rank index, if it has one.
pub(crate) fn rank_label(geom: &Geometry, rank: u8) -> Option<String> {
    let r = rank as i32 - geom.label_origin().rank as i32 + 1;
    (1..=99).contains(&r).then(|| r.to_string())
}

/// Top-left pixel of a square's cell relative to the board's top-left corner.
pub(crate) fn cell_xy(geom: &Geometry, c: Coord, sq: u32, flipped: bool) -> (i32, i32) {
    let (col, row) = if flipped {
        (geom.files() - 1 - c.file, c.rank)
    } else {
        (c.file, geom.ranks() - 1 - c.rank)
    };
    (col as i32 * sq as i32, row as i32 * sq as i32)
}

/// The outline of a piece type as a token (by the army that owns the type).
pub(crate) fn base_of(catalog: &Catalog, kind: Kind) -> Base {
    match catalog
        .army_of_kind(kind)
        .map(|a| catalog.army(a).code)
        .unwrap_or("")
    {
        "clobberers" => Base::Circle,
        "nutty" => Base::Octagon,
        "rookies" => Base::Square,
        "forward" => Base::Shield(270),
        _ => Base::Hexagon,
    }
}

/// The figure of a piece type for an owner, as seen on a board shown `flipped` or not.
///
/// Working a figure out takes a few microseconds (its Betza text is parsed, its directions
/// sorted), and a picture asks for dozens: figures are kept, by everything they depend on.
pub(crate) fn figure_of(catalog: &Catalog, kind: Kind, side: Side, flipped: bool) -> Figure {
    type Memo = Mutex<FxHashMap<u64, Vec<(FigureKey, Figure)>>>;
    static MEMO: OnceLock<Memo> = OnceLock::new();
    let def = catalog.def(kind);
    let base = base_of(catalog, kind);
    // The turn of a piece's vectors depends on its side only through `side % 4` (see `orient`).
    let key = (def.abbr, def.betza, base, side.0 % 4, flipped);
    let hash = FxBuildHasher.hash_one(key);
    let memo = MEMO.get_or_init(Memo::default);
    let same = |k: &FigureKey| (&*k.0, &*k.1, k.2, k.3, k.4) == key;
    if let Ok(m) = memo.lock() {
        if let Some((_, f)) = m.get(&hash).and_then(|v| v.iter().find(|(k, _)| same(k))) {
            return f.clone();
        }
    }
    let figure = Figure::of(def.abbr, def.betza, base, &|v| orient(side, v), flipped);
    if let Ok(mut m) = memo.lock() {
        if m.len() >= 4096 {
            m.clear();
        }
        let owned = (def.abbr.into(), def.betza.into(), base, side.0 % 4, flipped);
        m.entry(hash).or_default().push((owned, figure.clone()));
    }
    figure
}

/// What a piece's figure depends on: abbreviation, Betza text, base, turn and flip.
type FigureKey = (Box<str>, Box<str>, Base, u8, bool);

/// The figure for an abbreviation typed by the game layer (a token if it names no piece).
pub(crate) fn figure_by_abbr(catalog: &Catalog, abbr: &str, side: Side) -> Figure {
    match catalog.kind_by_abbr(abbr) {
        Some(k) => figure_of(catalog, k, side, false),
        None => Figure::of(abbr, "", Base::Hexagon, &|v| orient(side, v), false),
    }
}

/// Everything needed to draw one board.
pub(crate) struct BoardSpec<'a> {
    pub pos: &'a Position,
    pub sq: u32,
    pub margin: u32,
    pub flipped: bool,
    pub last: Option<&'a LastMove>,
    pub colour_of: &'a dyn Fn(Side) -> Rgb8,
    pub frozen: bool,
}

impl BoardSpec<'_> {
    /// Size in pixels including the coordinate margins.
    pub fn size(&self) -> (u32, u32) {
        let g = &self.pos.rules().geometry;
        (
            g.files() as u32 * self.sq + 2 * self.margin,
            g.ranks() as u32 * self.sq + 2 * self.margin,
        )
    }
}

/// Draws a board with its top-left margin corner at (x, y).
pub(crate) fn draw_board(canvas: &mut Canvas, fonts: &Fonts, spec: &BoardSpec<'_>, x: i32, y: i32) {
    let pos = spec.pos;
    let geom = &pos.rules().geometry;
    let (sq, m) = (spec.sq, spec.margin as i32);
    let (bx, by) = (x + m, y + m);
    let edge = (sq / 24).max(1) as i32;
    // Frame: a dark edge around every playable square, drawn first as slightly larger cells,
    // a row of side-by-side cells as one rectangle (the same pixels, in fewer, longer fills).
    // Only each rectangle's rim is drawn: its inside is the row's squares, filled below.
    let mut cells: Vec<(i32, i32)> = geom
        .squares()
        .iter()
        .map(|&s| {
            let (cx, cy) = cell_xy(geom, geom.coord(s), sq, spec.flipped);
            (cy, cx)
        })
        .collect();
    cells.sort_unstable();
    let mut run = 0;
    while run < cells.len() {
        let (cy, x0) = cells[run];
        let mut end = run + 1;
        while end < cells.len() && cells[end] == (cy, cells[end - 1].1 + sq as i32) {
            end += 1;
        }
        let width = (cells[end - 1].1 - x0) as u32 + sq;
        let big = 2 * edge as u32;
        canvas.frame(
            bx + x0 - edge,
            by + cy - edge,
            width + big,
            sq + big,
            edge as u32,
            EDGE,
        );
        run = end;
    }
    for &s in geom.squares() {
        square(canvas, spec, bx, by, s);
    }
    // Coordinates on all four edges, in the notation players type.
    let px = coord_px(sq);
    let (files, ranks) = (geom.files(), geom.ranks());
    let w = files as i32 * sq as i32;
    let h = ranks as i32 * sq as i32;
    for f in 0..files {
        if let Some(label) = file_label(geom, f) {
            let (cx, _) = cell_xy(geom, Coord::new(f, 0), sq, spec.flipped);
            let tx = (bx + cx) as f32 + sq as f32 / 2.0;
            canvas.text(
                &fonts.bold,
                px,
                &label,
                tx,
                (y + m / 2) as f32,
                Align::Centre,
                DIM,
            );
            canvas.text(
                &fonts.bold,
                px,
                &label,
                tx,
                (by + h + m / 2) as f32,
                Align::Centre,
                DIM,
            );
        }
    }
    for r in 0..ranks {
        if let Some(label) = rank_label(geom, r) {
            let (_, cy) = cell_xy(geom, Coord::new(0, r), sq, spec.flipped);
            let ty = (by + cy) as f32 + sq as f32 / 2.0;
            canvas.text(
                &fonts.bold,
                px,
                &label,
                (x + m / 2) as f32,
                ty,
                Align::Centre,
                DIM,
            );
            canvas.text(
                &fonts.bold,
                px,
                &label,
                (bx + w + m / 2) as f32,
                ty,
                Align::Centre,
                DIM,
            );
        }
    }
    // Pieces (each kind and side's sprite looked up once: a figure takes some working out).
    let mut sprites = Vec::new();
    for (s, p) in pos.pieces() {
        piece(canvas, fonts, spec, bx, by, s, p, &mut sprites);
    }
}

/// Draws again the squares `squares` of a board drawn with [`draw_board`] at (x, y), pieces
/// and all (a square's drawing stays inside it).
pub(crate) fn draw_squares(
    canvas: &mut Canvas,
    fonts: &Fonts,
    spec: &BoardSpec<'_>,
    x: i32,
    y: i32,
    squares: &[Square],
) {
    let m = spec.margin as i32;
    let (bx, by) = (x + m, y + m);
    let mut sprites = Vec::new();
    for &s in squares {
        square(canvas, spec, bx, by, s);
        if let Some(p) = spec.pos.piece_at(s) {
            piece(canvas, fonts, spec, bx, by, s, p, &mut sprites);
        }
    }
}

/// How the last move marks square `s`, if it does.
pub(crate) fn highlight(last: Option<&LastMove>, s: Square) -> Option<Rgb8> {
    last.and_then(|l| {
        if l.drop == Some(s) {
            Some(DROP_HL)
        } else if l.from == Some(s) || l.to == Some(s) || l.others.contains(&s) {
            Some(MOVE_HL)
        } else {
            None
        }
    })
}

/// A square of the board whose playing area starts at (bx, by): its colour, the last move's
/// mark, the frozen tint.
fn square(canvas: &mut Canvas, spec: &BoardSpec<'_>, bx: i32, by: i32, s: Square) {
    let geom = &spec.pos.rules().geometry;
    let sq = spec.sq;
    let c = geom.coord(s);
    let (cx, cy) = cell_xy(geom, c, sq, spec.flipped);
    let light = (c.file + c.rank) % 2 == 1;
    let base = if light { LIGHT_SQ } else { DARK_SQ };
    canvas.fill(bx + cx, by + cy, sq, sq, base);
    if let Some(h) = highlight(spec.last, s) {
        canvas.tint(bx + cx, by + cy, sq, sq, h, 0.55);
        if h == DROP_HL {
            let t = (sq / 16).max(2);
            canvas.frame(bx + cx, by + cy, sq, sq, t, [0, 120, 200]);
        }
    }
    if spec.frozen {
        canvas.tint(bx + cx, by + cy, sq, sq, FROZEN_TINT, 0.45);
    }
}

/// The piece `p` on square `s` of the board whose playing area starts at (bx, by); `sprites`
/// keeps the sprites looked up so far.
#[allow(clippy::too_many_arguments)]
fn piece(
    canvas: &mut Canvas,
    fonts: &Fonts,
    spec: &BoardSpec<'_>,
    bx: i32,
    by: i32,
    s: Square,
    p: Piece,
    sprites: &mut Vec<((Kind, Side), Arc<Sprite>)>,
) {
    let geom = &spec.pos.rules().geometry;
    let catalog = &spec.pos.rules().catalog;
    let sq = spec.sq;
    let (cx, cy) = cell_xy(geom, geom.coord(s), sq, spec.flipped);
    let key = (p.kind, p.side);
    let sp = match sprites.iter().find(|(k, _)| *k == key) {
        Some((_, sp)) => Arc::clone(sp),
        None => {
            let fig = figure_of(catalog, p.kind, p.side, spec.flipped);
            let sp = sprite(fonts, &fig, (spec.colour_of)(p.side), sq as usize);
            sprites.push((key, Arc::clone(&sp)));
            sp
        }
    };
    sp.draw(canvas, bx + cx, by + cy);
    if p.promoted {
        // A small mark in the corner for a promoted pawn (it returns to hand as a pawn).
        let r = (sq / 9).max(3) as i32;
        let (px0, py0) = (bx + cx + sq as i32 - r - 2, by + cy + r + 2);
        dot(canvas, px0, py0, r, [20, 20, 20]);
        dot(canvas, px0, py0, r - 1, [255, 255, 255]);
        canvas.text(
            &fonts.bold,
            r as f32 * 1.6,
            "+",
            px0 as f32,
            py0 as f32,
            Align::Centre,
            [20, 20, 20],
        );
    }
}

/// A filled anti-aliased disc.
pub(crate) fn dot(canvas: &mut Canvas, cx: i32, cy: i32, r: i32, c: Rgb8) {
    for yy in -r - 1..=r + 1 {
        for xx in -r - 1..=r + 1 {
            let d = ((xx * xx + yy * yy) as f32).sqrt();
            let a = (r as f32 + 0.5 - d).clamp(0.0, 1.0);
            canvas.blend(cx + xx, cy + yy, c, a);
        }
    }
}

/// One item of a hand: its figure, colour and count.
pub(crate) struct HandItem {
    pub figure: Figure,
    pub colour: Rgb8,
    pub count: u16,
}

/// Draws a hand as a row of icons with counts, left to right from (x, y), shrinking the icons
/// to fit `max_w`. Returns the width used.
pub(crate) fn draw_hand(
    canvas: &mut Canvas,
    fonts: &Fonts,
    items: &[HandItem],
    x: i32,
    y: i32,
    icon: u32,
    max_w: u32,
) -> u32 {
    let count_px = |icon: u32| (icon as f32 * 0.42).max(11.0);
    let width_at = |icon: u32| -> u32 {
        items
            .iter()
            .map(|it| {
                let mut w = icon + icon / 8;
                if it.count > 1 {
                    w += text_width(&fonts.bold, count_px(icon), &format!("×{}", it.count)) as u32
                        + 4;
                }
                w
            })
            .sum()
    };
    let mut size = icon;
    while size > 20 && width_at(size) > max_w {
        size -= 2;
    }
    // A light tray behind the pieces so that every colour reads on the dark page.
    let pad = (size / 8) as i32;
    canvas.fill(x - pad, y - 2, width_at(size) + pad as u32, icon + 4, TRAY);
    let mut cx = x;
    for it in items {
        let sp = sprite(fonts, &it.figure, it.colour, size as usize);
        sp.draw(canvas, cx, y + (icon as i32 - size as i32) / 2);
        cx += size as i32;
        if it.count > 1 {
            let label = format!("×{}", it.count);
            let w = canvas.text(
                &fonts.bold,
                count_px(size),
                &label,
                cx as f32,
                (y + icon as i32 / 2) as f32,
                Align::Left,
                [30, 30, 30],
            );
            cx += w as i32 + 4;
        }
        cx += size as i32 / 8;
    }
    (cx - x) as u32
}

/// Height of the legend for these entries in width `w`.
pub(crate) fn legend_height(
    fonts: &Fonts,
    entries: &BTreeMap<String, String>,
    w: u32,
    icon: u32,
) -> u32 {
    if entries.is_empty() {
        return 0;
    }
    let rows = legend_rows(fonts, entries, w, icon);
    rows.len() as u32 * (icon + 6) + 6
}

fn legend_rows(
    fonts: &Fonts,
    entries: &BTreeMap<String, String>,
    w: u32,
    icon: u32,
) -> Vec<Vec<(String, String, u32)>> {
    let px = icon as f32 * 0.5;
    let mut rows: Vec<Vec<(String, String, u32)>> = vec![Vec::new()];
    let mut used = 0;
    for (abbr, name) in entries {
        let text = if name == abbr {
            abbr.clone()
        } else {
            format!("{abbr} {name}")
        };
        let item_w = icon + 6 + text_width(&fonts.bold, px, &text) as u32 + icon / 2 + 8;
        if used + item_w > w && used > 0 {
            rows.push(Vec::new());
            used = 0;
        }
        used += item_w;
        if let Some(r) = rows.last_mut() {
            r.push((abbr.clone(), name.clone(), item_w));
        }
    }
    rows
}

/// Draws the legend: each fairy piece's token (neutral colour) with its abbreviation and name.
#[allow(clippy::too_many_arguments)]
pub(crate) fn draw_legend(
    canvas: &mut Canvas,
    fonts: &Fonts,
    catalog: &Catalog,
    entries: &BTreeMap<String, String>,
    x: i32,
    y: i32,
    w: u32,
    icon: u32,
) {
    let px = icon as f32 * 0.5;
    for (i, row) in legend_rows(fonts, entries, w, icon).iter().enumerate() {
        let mut cx = x;
        let cy = y + 6 + i as i32 * (icon as i32 + 6);
        for (abbr, name, item_w) in row {
            let fig = figure_by_abbr(catalog, abbr, Side(0));
            sprite(fonts, &fig, [226, 226, 226], icon as usize).draw(canvas, cx, cy);
            let tx = (cx + icon as i32 + 6) as f32;
            let ty = (cy + icon as i32 / 2) as f32;
            let aw = canvas.text(&fonts.bold, px, abbr, tx, ty, Align::Left, TEXT);
            if name != abbr {
                let rest = fit_text(&fonts.bold, px, name, *item_w as f32);
                canvas.text(
                    &fonts.bold,
                    px,
                    &format!(" {rest}"),
                    tx + aw,
                    ty,
                    Align::Left,
                    DIM,
                );
            }
            cx += *item_w as i32;
        }
    }
}

/// Adds the fairy pieces of a position (board and hands) to a legend.
pub(crate) fn legend_of_position(pos: &Position, out: &mut BTreeMap<String, String>) {
    let cat = &pos.rules().catalog;
    let mut add = |k: Kind| {
        let d = cat.def(k);
        if orthodox(d.abbr, d.betza).is_none() {
            out.insert(d.abbr.to_string(), d.name.to_string());
        }
    };
    for (_, p) in pos.pieces() {
        add(p.kind);
    }
    for s in 0..pos.rules().sides {
        for (hp, _) in pos.hand(Side(s)).entries() {
            add(hp.kind);
        }
    }
}

/// Adds a piece named by abbreviation to a legend, if it is a fairy piece.
pub(crate) fn legend_add_abbr(catalog: &Catalog, abbr: &str, out: &mut BTreeMap<String, String>) {
    let (name, betza) = catalog
        .kind_by_abbr(abbr)
        .map_or(("", ""), |k| (catalog.def(k).name, catalog.def(k).betza));
    if orthodox(abbr, betza).is_none() {
        out.insert(abbr.to_string(), name.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kept figures are the figures: every piece type of the catalogue, for every side a
    /// game can have and both ways up, asked twice (the second answer from the memo), equals
    /// the figure worked out afresh.
    #[test]
    fn kept_figures_equal_fresh_ones() {
        let catalog = Catalog::cwda().unwrap();
        for k in 0..catalog.pieces.len() {
            let kind = Kind(k as u8);
            let def = catalog.def(kind);
            for side in 0..8u8 {
                for flipped in [false, true] {
                    let fresh = Figure::of(
                        def.abbr,
                        def.betza,
                        base_of(&catalog, kind),
                        &|v| orient(Side(side), v),
                        flipped,
                    );
                    for _ in 0..2 {
                        let kept = figure_of(&catalog, kind, Side(side), flipped);
                        assert_eq!(kept, fresh, "{} side {side} flipped {flipped}", def.abbr);
                    }
                }
            }
        }
    }
}
