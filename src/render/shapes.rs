//! Vector piece figures: paths in a 100×100 design space, rasterised with anti-aliasing into
//! premultiplied RGBA sprites (fill, dark outline, inner details, abbreviation text).
//!
//! Orthodox pieces (K Q R B N P) are drawn as chess figures. Every other piece is a token whose
//! outline depends on the army it belongs to (circle, octagon, rounded square, shield or
//! hexagon), with its abbreviation in the middle and marks around the rim for the directions
//! it moves in, oriented for its owner: a long arrow for a slide, a short one for a single
//! step and a dot for a leap. Two different movements therefore never look alike, and the
//! abbreviation says which piece it is.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rustc_hash::FxHashMap;

use ab_glyph::point;
use ab_glyph_rasterizer::Rasterizer;

use super::canvas::{
    cap_height, compose_over, rasterize_text, text_width, Canvas, Fonts, Rgb8, Tile,
};
use crate::engine::betza;

type P = (f32, f32);

#[derive(Copy, Clone, Debug)]
enum Seg {
    Line(P, P),
    Quad(P, P, P),
    Cubic(P, P, P, P),
}

impl Seg {
    fn reversed(self) -> Seg {
        match self {
            Seg::Line(a, b) => Seg::Line(b, a),
            Seg::Quad(a, b, c) => Seg::Quad(c, b, a),
            Seg::Cubic(a, b, c, d) => Seg::Cubic(d, c, b, a),
        }
    }
    fn points(&self) -> Vec<P> {
        match *self {
            Seg::Line(a, b) => vec![a, b],
            Seg::Quad(a, b, c) => vec![a, b, c],
            Seg::Cubic(a, b, c, d) => vec![a, b, c, d],
        }
    }
}

/// A set of closed contours, all turned the same way so that overlaps add up to a union.
#[derive(Clone, Debug, Default)]
pub(crate) struct Path {
    contours: Vec<Vec<Seg>>,
}

/// Builds one contour from pen moves.
struct Pen {
    segs: Vec<Seg>,
    start: P,
    cur: P,
}

impl Pen {
    fn at(p: P) -> Pen {
        Pen {
            segs: Vec::new(),
            start: p,
            cur: p,
        }
    }
    fn line(mut self, p: P) -> Pen {
        self.segs.push(Seg::Line(self.cur, p));
        self.cur = p;
        self
    }
    fn quad(mut self, c: P, p: P) -> Pen {
        self.segs.push(Seg::Quad(self.cur, c, p));
        self.cur = p;
        self
    }
    fn cubic(mut self, c1: P, c2: P, p: P) -> Pen {
        self.segs.push(Seg::Cubic(self.cur, c1, c2, p));
        self.cur = p;
        self
    }
    fn close(mut self) -> Vec<Seg> {
        if self.cur != self.start {
            self.segs.push(Seg::Line(self.cur, self.start));
        }
        self.segs
    }
}

impl Path {
    fn new() -> Path {
        Path::default()
    }

    /// Adds a contour, reversing it if needed so every contour turns the same way.
    fn add(&mut self, segs: Vec<Seg>) -> &mut Path {
        let pts: Vec<P> = segs.iter().flat_map(Seg::points).collect();
        let mut area = 0.0;
        for i in 0..pts.len() {
            let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
            area += a.0 * b.1 - b.0 * a.1;
        }
        if area < 0.0 {
            self.contours
                .push(segs.into_iter().rev().map(Seg::reversed).collect());
        } else {
            self.contours.push(segs);
        }
        self
    }

    fn poly(&mut self, pts: &[P]) -> &mut Path {
        if let Some((&first, rest)) = pts.split_first() {
            let mut pen = Pen::at(first);
            for &p in rest {
                pen = pen.line(p);
            }
            self.add(pen.close());
        }
        self
    }

    fn rect(&mut self, x0: f32, y0: f32, x1: f32, y1: f32) -> &mut Path {
        self.poly(&[(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    }

    fn round_rect(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, r: f32) -> &mut Path {
        let k = r * 0.5523;
        let pen = Pen::at((x0 + r, y0))
            .line((x1 - r, y0))
            .cubic((x1 - r + k, y0), (x1, y0 + r - k), (x1, y0 + r))
            .line((x1, y1 - r))
            .cubic((x1, y1 - r + k), (x1 - r + k, y1), (x1 - r, y1))
            .line((x0 + r, y1))
            .cubic((x0 + r - k, y1), (x0, y1 - r + k), (x0, y1 - r))
            .line((x0, y0 + r))
            .cubic((x0, y0 + r - k), (x0 + r - k, y0), (x0 + r, y0));
        self.add(pen.close())
    }

    fn ellipse(&mut self, cx: f32, cy: f32, rx: f32, ry: f32) -> &mut Path {
        let (kx, ky) = (rx * 0.5523, ry * 0.5523);
        let pen = Pen::at((cx + rx, cy))
            .cubic((cx + rx, cy + ky), (cx + kx, cy + ry), (cx, cy + ry))
            .cubic((cx - kx, cy + ry), (cx - rx, cy + ky), (cx - rx, cy))
            .cubic((cx - rx, cy - ky), (cx - kx, cy - ry), (cx, cy - ry))
            .cubic((cx + kx, cy - ry), (cx + rx, cy - ky), (cx + rx, cy));
        self.add(pen.close())
    }

    fn circle(&mut self, cx: f32, cy: f32, r: f32) -> &mut Path {
        self.ellipse(cx, cy, r, r)
    }

    /// A straight stroke of width `w` with round ends.
    fn stroke(&mut self, a: P, b: P, w: f32) -> &mut Path {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-3);
        let (nx, ny) = (-dy / len * w / 2.0, dx / len * w / 2.0);
        self.poly(&[
            (a.0 + nx, a.1 + ny),
            (b.0 + nx, b.1 + ny),
            (b.0 - nx, b.1 - ny),
            (a.0 - nx, a.1 - ny),
        ]);
        self.circle(a.0, a.1, w / 2.0);
        self.circle(b.0, b.1, w / 2.0)
    }

    /// A curved stroke (quadratic through control `c`), flattened into short strokes.
    fn stroke_quad(&mut self, a: P, c: P, b: P, w: f32) -> &mut Path {
        let n = 8;
        let mut prev = a;
        for i in 1..=n {
            let t = i as f32 / n as f32;
            let u = 1.0 - t;
            let p = (
                u * u * a.0 + 2.0 * u * t * c.0 + t * t * b.0,
                u * u * a.1 + 2.0 * u * t * c.1 + t * t * b.1,
            );
            self.stroke(prev, p, w);
            prev = p;
        }
        self
    }

    /// Rasterises into a `size`×`size` coverage mask; `map` turns design coordinates (0–100)
    /// into pixels.
    fn raster(&self, size: usize, map: &dyn Fn(P) -> P) -> Vec<f32> {
        let mut r = Rasterizer::new(size, size);
        let pt = |p: P| {
            let q = map(p);
            point(q.0, q.1)
        };
        for c in &self.contours {
            for s in c {
                match *s {
                    Seg::Line(a, b) => r.draw_line(pt(a), pt(b)),
                    Seg::Quad(a, b, c) => r.draw_quad(pt(a), pt(b), pt(c)),
                    Seg::Cubic(a, b, c, d) => r.draw_cubic(pt(a), pt(b), pt(c), pt(d)),
                }
            }
        }
        let mut out = vec![0.0; size * size];
        r.for_each_pixel(|i, a| out[i] = a.min(1.0));
        out
    }
}

/// Grows a coverage mask by `radius` pixels (a disc-shaped maximum filter with soft edge).
fn dilate(mask: &[f32], size: usize, radius: f32) -> Vec<f32> {
    let ri = radius.ceil() as i32 + 1;
    let mut offs = Vec::new();
    for dy in -ri..=ri {
        for dx in -ri..=ri {
            let d = ((dx * dx + dy * dy) as f32).sqrt();
            let w = (radius + 0.5 - d).clamp(0.0, 1.0);
            if w > 0.0 {
                offs.push((dx, dy, w));
            }
        }
    }
    let n = size as i32;
    let mut out = vec![0.0f32; size * size];
    for y in 0..n {
        for x in 0..n {
            let mut m = 0.0f32;
            for &(dx, dy, w) in &offs {
                let (sx, sy) = (x + dx, y + dy);
                if sx >= 0 && sy >= 0 && sx < n && sy < n {
                    let v = mask[(sy * n + sx) as usize] * w;
                    if v > m {
                        m = v;
                        if m >= 1.0 {
                            break;
                        }
                    }
                }
            }
            out[(y * n + x) as usize] = m;
        }
    }
    out
}

/// A premultiplied RGBA picture of one piece, `size`×`size`.
pub(crate) struct Sprite {
    size: usize,
    px: Vec<[f32; 4]>,
    /// `px` in bytes, premultiplied, for drawing.
    bytes: Vec<[u8; 4]>,
    /// The sprite already laid over a flat background, by background colour (the tiles of
    /// the fast path; a few per sprite, a square's light and dark colours, highlighted or
    /// not).
    tiles: Mutex<Vec<(Rgb8, Arc<Tile>)>>,
}

/// Background colours kept per sprite.
const TILES_PER_SPRITE: usize = 8;

impl Sprite {
    fn new(size: usize) -> Sprite {
        Sprite {
            size,
            px: vec![[0.0; 4]; size * size],
            bytes: Vec::new(),
            tiles: Mutex::new(Vec::new()),
        }
    }

    /// The most bytes the sprite holds, with all the tiles it may keep.
    fn max_bytes(&self) -> usize {
        let px = self.size * self.size;
        px * (16 + 4 + TILES_PER_SPRITE * 4) + 256
    }

    /// The sprite over a flat colour `bg`, from the tile cache or composed now.
    fn tile(&self, bg: Rgb8) -> Arc<Tile> {
        if let Ok(t) = self.tiles.lock() {
            if let Some((_, tile)) = t.iter().find(|(c, _)| *c == bg) {
                return Arc::clone(tile);
            }
        }
        let rgb = compose_over(bg, self.size, &self.bytes);
        let tile = Arc::new(Tile::from_rgb(self.size, &rgb));
        if let Ok(mut t) = self.tiles.lock() {
            if t.len() >= TILES_PER_SPRITE {
                t.remove(0);
            }
            t.push((bg, Arc::clone(&tile)));
        }
        tile
    }

    /// Paints a colour through a coverage mask (optionally clipped by a second mask).
    fn layer(&mut self, mask: &[f32], c: Rgb8, clip: Option<&[f32]>) {
        let c = [
            c[0] as f32 / 255.0,
            c[1] as f32 / 255.0,
            c[2] as f32 / 255.0,
        ];
        for (i, d) in self.px.iter_mut().enumerate() {
            let mut a = mask[i];
            if let Some(cl) = clip {
                a *= cl[i];
            }
            if a <= 0.0 {
                continue;
            }
            let k = 1.0 - a;
            d[0] = c[0] * a + d[0] * k;
            d[1] = c[1] * a + d[1] * k;
            d[2] = c[2] * a + d[2] * k;
            d[3] = a + d[3] * k;
        }
    }

    /// Draws the sprite with its top-left corner at (x, y).
    ///
    /// Where the sprite lands wholly on a flat colour (a square, a tray, the page), the fast
    /// path copies the sprite's tile for that colour, which gives the same pixels as blending.
    pub fn draw(&self, canvas: &mut Canvas, x: i32, y: i32) {
        if let Some(bg) = canvas.flat_colour(x, y, self.size as u32, self.size as u32) {
            canvas.put_tile(x, y, &self.tile(bg));
            return;
        }
        canvas.blit_premul(x, y, self.size, &self.bytes);
    }
}

/// Relative luminance (0–1) of a colour.
pub(crate) fn luminance(c: Rgb8) -> f32 {
    (0.2126 * c[0] as f32 + 0.7152 * c[1] as f32 + 0.0722 * c[2] as f32) / 255.0
}

/// A colour that reads on `fill`: near-black on light fills, white on dark ones.
pub(crate) fn contrast(fill: Rgb8) -> Rgb8 {
    if luminance(fill) > 0.5 {
        [24, 24, 24]
    } else {
        [250, 250, 250]
    }
}

/// Colour of every piece's outline.
pub(crate) const OUTLINE: Rgb8 = [20, 20, 20];

/// What a piece looks like, independent of colour and size.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Figure {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
    /// Ultimate Chess's Warrior (`WAD`): a crested helmet.
    Warrior,
    /// Ultimate Chess's Mage (`FC`): a wizard's hat over a robe.
    Mage,
    /// A token: abbreviation, base outline, rim marks (angle in degrees on screen, kind).
    Token {
        abbr: String,
        base: Base,
        marks: Vec<(i32, Mark)>,
    },
}

/// The outline of a token.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Base {
    Circle,
    Octagon,
    Square,
    /// A shield pointing toward the owner's forward direction (angle in degrees on screen).
    Shield(i32),
    Hexagon,
}

/// A rim mark: how a piece moves in one direction.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub(crate) enum Mark {
    /// Slides any number of squares (or several).
    Slide,
    /// One step to the adjacent square.
    Step,
    /// A leap to a farther square.
    Leap,
    /// A single step and a leap in the same direction.
    StepLeap,
}

impl Figure {
    /// The figure of a piece: `abbr` and `betza` from its definition, `base` from its army,
    /// `orient` turns a piece-relative vector (forward = +rank) into a board vector, and
    /// `flipped` says whether the board is shown upside down.
    pub fn of(
        abbr: &str,
        betza_text: &str,
        base: Base,
        orient: &dyn Fn((i8, i8)) -> (i32, i32),
        flipped: bool,
    ) -> Figure {
        if let Some(f) = orthodox(abbr, betza_text) {
            return f;
        }
        let screen = |v: (i8, i8)| {
            let (x, y) = orient(v);
            if flipped {
                (-x, y)
            } else {
                (x, -y)
            }
        };
        let angle = |(x, y): (i32, i32)| {
            let a = (y as f32).atan2(x as f32).to_degrees().round() as i32;
            a.rem_euclid(360)
        };
        let mut dirs: HashMap<i32, (bool, bool, bool)> = HashMap::new();
        if let Ok(m) = betza::parse(betza_text) {
            for atom in &m.atoms {
                for &v in &atom.vectors {
                    let e = dirs.entry(angle(screen(v))).or_default();
                    let reach = v.0.unsigned_abs().max(v.1.unsigned_abs());
                    if atom.rider && atom.range != 1 {
                        e.0 = true;
                    } else if reach == 1 {
                        e.1 = true;
                    } else {
                        e.2 = true;
                    }
                }
            }
        }
        let mut marks: Vec<(i32, Mark)> = dirs
            .into_iter()
            .map(|(a, (slide, step, leap))| {
                let m = match (slide, step, leap) {
                    (true, _, _) => Mark::Slide,
                    (false, true, true) => Mark::StepLeap,
                    (false, true, false) => Mark::Step,
                    _ => Mark::Leap,
                };
                (a, m)
            })
            .collect();
        marks.sort();
        let base = match base {
            Base::Shield(_) => Base::Shield(angle(screen((0, 1)))),
            b => b,
        };
        Figure::Token {
            abbr: abbr.to_string(),
            base,
            marks,
        }
    }

    fn paths(&self) -> (Path, Path) {
        let mut fill = Path::new();
        let mut detail = Path::new();
        let base = |p: &mut Path| {
            p.round_rect(20.0, 80.0, 80.0, 91.0, 3.0);
        };
        match self {
            Figure::Pawn => {
                fill.circle(50.0, 31.0, 12.5);
                fill.round_rect(37.0, 44.0, 63.0, 51.0, 3.0);
                fill.add(
                    Pen::at((40.0, 50.0))
                        .quad((40.0, 66.0), (28.0, 81.0))
                        .line((72.0, 81.0))
                        .quad((60.0, 66.0), (60.0, 50.0))
                        .close(),
                );
                fill.round_rect(24.0, 79.0, 76.0, 90.0, 3.0);
                detail.stroke((28.0, 80.0), (72.0, 80.0), 2.5);
                detail.stroke((40.0, 51.0), (60.0, 51.0), 2.5);
            }
            Figure::Rook => {
                base(&mut fill);
                fill.poly(&[(26.0, 81.0), (30.0, 70.0), (70.0, 70.0), (74.0, 81.0)]);
                fill.poly(&[(32.0, 71.0), (35.0, 38.0), (65.0, 38.0), (68.0, 71.0)]);
                fill.poly(&[
                    (27.0, 39.0),
                    (27.0, 15.0),
                    (37.0, 15.0),
                    (37.0, 22.0),
                    (45.0, 22.0),
                    (45.0, 15.0),
                    (55.0, 15.0),
                    (55.0, 22.0),
                    (63.0, 22.0),
                    (63.0, 15.0),
                    (73.0, 15.0),
                    (73.0, 39.0),
                ]);
                detail.stroke((30.0, 38.0), (70.0, 38.0), 2.5);
                detail.stroke((32.0, 70.0), (68.0, 70.0), 2.5);
                detail.stroke((25.0, 80.0), (75.0, 80.0), 2.5);
            }
            Figure::Bishop => {
                base(&mut fill);
                fill.poly(&[(38.0, 72.0), (33.0, 81.0), (67.0, 81.0), (62.0, 72.0)]);
                fill.round_rect(32.0, 64.0, 68.0, 73.0, 3.0);
                fill.add(
                    Pen::at((35.0, 66.0))
                        .cubic((26.0, 52.0), (36.0, 32.0), (50.0, 21.0))
                        .cubic((64.0, 32.0), (74.0, 52.0), (65.0, 66.0))
                        .close(),
                );
                fill.circle(50.0, 16.0, 5.5);
                detail.stroke((53.0, 33.0), (61.0, 48.0), 3.0);
                detail.stroke((34.0, 65.0), (66.0, 65.0), 2.5);
                detail.stroke((34.0, 72.5), (66.0, 72.5), 2.5);
                detail.stroke((27.0, 80.0), (73.0, 80.0), 2.5);
            }
            Figure::Knight => {
                base(&mut fill);
                fill.add(
                    Pen::at((30.0, 81.0))
                        .quad((33.0, 66.0), (44.0, 56.0))
                        .quad((46.0, 50.0), (42.0, 50.0))
                        .line((30.0, 58.0))
                        .quad((24.0, 61.0), (20.0, 56.0))
                        .line((18.0, 50.0))
                        .quad((20.0, 43.0), (30.0, 33.0))
                        .line((36.0, 25.0))
                        .line((37.0, 12.0))
                        .line((45.0, 21.0))
                        .quad((66.0, 20.0), (74.0, 40.0))
                        .quad((80.0, 60.0), (76.0, 81.0))
                        .close(),
                );
                detail.circle(36.0, 35.0, 3.2);
                detail.stroke((19.5, 52.0), (24.0, 51.0), 2.0);
                detail.stroke_quad((48.0, 24.0), (64.0, 30.0), (68.0, 46.0), 2.5);
                detail.stroke((24.0, 80.0), (76.0, 80.0), 2.5);
            }
            Figure::Queen => {
                base(&mut fill);
                fill.poly(&[
                    (27.0, 81.0),
                    (15.0, 30.0),
                    (34.0, 56.0),
                    (33.0, 22.0),
                    (46.0, 53.0),
                    (50.0, 18.0),
                    (54.0, 53.0),
                    (67.0, 22.0),
                    (66.0, 56.0),
                    (85.0, 30.0),
                    (73.0, 81.0),
                ]);
                for &(x, y) in &[
                    (15.0, 28.0),
                    (33.0, 20.0),
                    (50.0, 15.0),
                    (67.0, 20.0),
                    (85.0, 28.0),
                ] {
                    fill.circle(x, y, 5.5);
                }
                detail.stroke((29.0, 70.0), (71.0, 70.0), 2.5);
                detail.stroke((25.0, 80.0), (75.0, 80.0), 2.5);
            }
            Figure::King => {
                base(&mut fill);
                fill.add(
                    Pen::at((28.0, 81.0))
                        .line((24.0, 62.0))
                        .cubic((8.0, 50.0), (20.0, 28.0), (40.0, 38.0))
                        .line((50.0, 46.0))
                        .line((60.0, 38.0))
                        .cubic((80.0, 28.0), (92.0, 50.0), (76.0, 62.0))
                        .line((72.0, 81.0))
                        .close(),
                );
                fill.ellipse(50.0, 42.0, 9.0, 12.0);
                fill.rect(45.5, 8.0, 54.5, 34.0);
                fill.rect(39.0, 14.0, 61.0, 22.0);
                detail.stroke((26.0, 64.0), (74.0, 64.0), 2.5);
                detail.stroke((50.0, 47.0), (50.0, 62.0), 2.5);
                detail.stroke((25.0, 80.0), (75.0, 80.0), 2.5);
            }
            Figure::Warrior => {
                base(&mut fill);
                fill.poly(&[(27.0, 81.0), (33.0, 66.0), (67.0, 66.0), (73.0, 81.0)]);
                // The helmet: a dome with cheek guards flaring toward the bottom.
                fill.add(
                    Pen::at((28.0, 70.0))
                        .line((27.0, 46.0))
                        .cubic((26.0, 28.0), (37.0, 19.0), (50.0, 19.0))
                        .cubic((63.0, 19.0), (74.0, 28.0), (73.0, 46.0))
                        .line((72.0, 70.0))
                        .quad((60.0, 66.0), (57.0, 58.0))
                        .line((43.0, 58.0))
                        .quad((40.0, 66.0), (28.0, 70.0))
                        .close(),
                );
                // The crest, sweeping back over the dome.
                fill.stroke_quad((28.0, 30.0), (40.0, 3.0), (74.0, 16.0), 9.0);
                // The eye slit and the nose guard (a T), the rim of the helmet.
                detail.stroke((35.0, 42.0), (65.0, 42.0), 4.5);
                detail.stroke((50.0, 42.0), (50.0, 57.0), 4.5);
                detail.stroke((27.0, 80.0), (73.0, 80.0), 2.5);
                detail.stroke((34.0, 67.0), (66.0, 67.0), 2.5);
            }
            Figure::Mage => {
                base(&mut fill);
                // The robe.
                fill.add(
                    Pen::at((29.0, 81.0))
                        .quad((37.0, 73.0), (39.0, 62.0))
                        .line((61.0, 62.0))
                        .quad((63.0, 73.0), (71.0, 81.0))
                        .close(),
                );
                // A wide brim and a tall hat whose tip bends over.
                fill.ellipse(50.0, 61.0, 36.0, 7.5);
                fill.add(
                    Pen::at((30.0, 61.0))
                        .quad((39.0, 42.0), (45.0, 28.0))
                        .quad((53.0, 9.0), (84.0, 7.0))
                        .quad((61.0, 19.0), (60.0, 36.0))
                        .quad((62.0, 50.0), (70.0, 61.0))
                        .close(),
                );
                // A hat band, a star on the hat, the brim's edge and the base line.
                detail.stroke((35.0, 53.0), (65.0, 53.0), 4.5);
                star(&mut detail, 51.0, 38.0, 6.5);
                detail.stroke((20.0, 64.0), (80.0, 64.0), 2.5);
                detail.stroke((27.0, 80.0), (73.0, 80.0), 2.5);
            }
            Figure::Token { base, marks, .. } => {
                token_base(&mut fill, *base);
                for &(angle, mark) in marks {
                    rim_mark(&mut detail, angle, mark);
                }
            }
        }
        (fill, detail)
    }
}

/// The chess figure of an orthodox piece: the abbreviation and the movement must both be
/// the orthodox ones (any movement for `P`, whose Betza string varies between variants).
pub(crate) fn orthodox(abbr: &str, betza_text: &str) -> Option<Figure> {
    match (abbr, betza_text) {
        ("K", "K") => Some(Figure::King),
        ("Q", "Q") => Some(Figure::Queen),
        ("R", "R") => Some(Figure::Rook),
        ("B", "B") => Some(Figure::Bishop),
        ("N", "N") => Some(Figure::Knight),
        ("P", _) => Some(Figure::Pawn),
        _ => None,
    }
}

/// A five-pointed star of outer radius `r` centred on (cx, cy).
fn star(p: &mut Path, cx: f32, cy: f32, r: f32) {
    let pts: Vec<P> = (0..10)
        .map(|i| {
            let rr = if i % 2 == 0 { r } else { r * 0.45 };
            let a = (-90.0 + 36.0 * i as f32).to_radians();
            (cx + rr * a.cos(), cy + rr * a.sin())
        })
        .collect();
    p.poly(&pts);
}

/// Token outline, centred on (50, 50).
fn token_base(p: &mut Path, base: Base) {
    let regular = |p: &mut Path, n: usize, r: f32, start: f32| {
        let pts: Vec<P> = (0..n)
            .map(|i| {
                let a = (start + 360.0 * i as f32 / n as f32).to_radians();
                (50.0 + r * a.cos(), 50.0 + r * a.sin())
            })
            .collect();
        p.poly(&pts);
    };
    match base {
        Base::Circle => {
            p.circle(50.0, 50.0, 41.0);
        }
        Base::Octagon => regular(p, 8, 43.0, 22.5),
        Base::Square => {
            p.round_rect(12.0, 12.0, 88.0, 88.0, 12.0);
        }
        Base::Hexagon => regular(p, 6, 43.0, 0.0),
        Base::Shield(a) => {
            // Drawn pointing up, then turned toward `a` (screen angle, 270 = up).
            let turn = ((a - 270) as f32).to_radians();
            let rot = |(x, y): P| {
                let (dx, dy) = (x - 50.0, y - 50.0);
                (
                    50.0 + dx * turn.cos() - dy * turn.sin(),
                    50.0 + dx * turn.sin() + dy * turn.cos(),
                )
            };
            let pen = Pen::at(rot((50.0, 7.0)))
                .quad(rot((70.0, 18.0)), rot((88.0, 22.0)))
                .line(rot((88.0, 58.0)))
                .quad(rot((86.0, 84.0)), rot((50.0, 93.0)))
                .quad(rot((14.0, 84.0)), rot((12.0, 58.0)))
                .line(rot((12.0, 22.0)))
                .quad(rot((30.0, 18.0)), rot((50.0, 7.0)));
            p.add(pen.close());
        }
    }
}

/// One rim mark at a screen angle (degrees, 0 = right, 90 = down).
fn rim_mark(p: &mut Path, angle: i32, mark: Mark) {
    let a = (angle as f32).to_radians();
    let (ux, uy) = (a.cos(), a.sin());
    let (nx, ny) = (-uy, ux);
    let at = |r: f32, s: f32| (50.0 + ux * r + nx * s, 50.0 + uy * r + ny * s);
    let triangle = |p: &mut Path, r0: f32, r1: f32, half: f32| {
        p.poly(&[at(r1, 0.0), at(r0, half), at(r0, -half)]);
    };
    match mark {
        Mark::Slide => {
            triangle(p, 25.0, 37.0, 5.5);
        }
        Mark::Step => {
            triangle(p, 30.0, 37.0, 5.0);
        }
        Mark::Leap => {
            let (x, y) = at(33.5, 0.0);
            p.circle(x, y, 3.3);
        }
        Mark::StepLeap => {
            triangle(p, 31.0, 37.5, 4.5);
            let (x, y) = at(26.5, 0.0);
            p.circle(x, y, 2.8);
        }
    }
}

/// Extras of a sprite beyond its figure and fill; the default draws the plain piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct Look {
    /// A ring of this colour outside the dark outline, so that dark pieces stand out on dark
    /// squares.
    pub halo: Option<Rgb8>,
    /// Diagonal stripes of this colour across the fill (pieces that belong to nobody).
    pub hatch: Option<Rgb8>,
}

/// The sprite cache: per figure, its sprites by fill, size and look (looked up by reference,
/// without copying the figure).
type Sprites = FxHashMap<Figure, Vec<(Rgb8, usize, Look, Arc<Sprite>)>>;
type Cache = Mutex<Sprites>;

/// Sprites kept before the cache starts again (and at most its share of the picture caches'
/// budget, [`super::budget`]).
const CACHE_SPRITES: usize = 2000;

/// Bytes the cached sprites may hold at most, tiles included (counted as they are put in).
static SPRITE_BYTES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(FxHashMap::default()))
}

/// Forgets every cached sprite (and with them their tiles).
pub(crate) fn clear_cache() {
    if let Ok(mut c) = cache().lock() {
        c.clear();
        SPRITE_BYTES.store(0, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Bytes the sprite cache holds at most now (each sprite counted with all its tiles).
pub(crate) fn cached_sprite_bytes() -> usize {
    SPRITE_BYTES.load(std::sync::atomic::Ordering::Relaxed)
}

/// The sprite of a figure in a colour at a size, from the cache or freshly drawn.
pub(crate) fn sprite(fonts: &Fonts, figure: &Figure, fill: Rgb8, size: usize) -> Arc<Sprite> {
    sprite_look(fonts, figure, fill, size, Look::default())
}

/// The sprite of a figure with extras (halo, hatching), from the cache or freshly drawn.
pub(crate) fn sprite_look(
    fonts: &Fonts,
    figure: &Figure,
    fill: Rgb8,
    size: usize,
    look: Look,
) -> Arc<Sprite> {
    let found = |c: &Sprites| {
        c.get(figure)?
            .iter()
            .find(|e| e.0 == fill && e.1 == size && e.2 == look)
            .map(|e| Arc::clone(&e.3))
    };
    if let Some(s) = cache().lock().ok().and_then(|c| found(&c)) {
        return s;
    }
    let s = Arc::new(draw_sprite(fonts, figure, fill, size, look));
    if let Ok(mut c) = cache().lock() {
        use std::sync::atomic::Ordering::Relaxed;
        let bytes = s.max_bytes();
        let share = super::budget::share(super::budget::Part::Sprites);
        if c.values().map(Vec::len).sum::<usize>() >= CACHE_SPRITES
            || SPRITE_BYTES.load(Relaxed) + bytes > share
        {
            c.clear();
            SPRITE_BYTES.store(0, Relaxed);
        }
        if bytes > share {
            return s;
        }
        SPRITE_BYTES.fetch_add(bytes, Relaxed);
        c.entry(figure.clone())
            .or_default()
            .push((fill, size, look, Arc::clone(&s)));
    }
    s
}

fn draw_sprite(fonts: &Fonts, figure: &Figure, fill: Rgb8, size: usize, look: Look) -> Sprite {
    let (fill_path, detail_path) = figure.paths();
    let k = size as f32 / 100.0;
    let map = move |(x, y): P| (x * k, y * k);
    let cover = fill_path.raster(size, &map);
    let edge = (size as f32 / 34.0).clamp(1.0, 3.0);
    let outline = dilate(&cover, size, edge);
    let ring = look
        .halo
        .map(|_| dilate(&outline, size, (size as f32 / 40.0).clamp(1.0, 2.0)));
    let detail = detail_path.raster(size, &map);
    let masks = Masks {
        cover,
        outline,
        ring,
        detail,
    };
    paint_sprite(fonts, figure, fill, size, look, &masks)
}

/// The coverage masks a sprite is painted through (`size`×`size` each).
struct Masks {
    /// The figure's body.
    cover: Vec<f32>,
    /// The body grown by the outline's width.
    outline: Vec<f32>,
    /// The outline grown again, for a halo.
    ring: Option<Vec<f32>>,
    /// Inner lines, painted inside the body only.
    detail: Vec<f32>,
}

/// Paints a sprite through its masks: halo, outline, fill, hatching, inner lines and a token's
/// letters.
fn paint_sprite(
    fonts: &Fonts,
    figure: &Figure,
    fill: Rgb8,
    size: usize,
    look: Look,
    m: &Masks,
) -> Sprite {
    let mut sp = Sprite::new(size);
    if let (Some(halo), Some(ring)) = (look.halo, &m.ring) {
        sp.layer(ring, halo, None);
    }
    sp.layer(&m.outline, OUTLINE, None);
    sp.layer(&m.cover, fill, None);
    if let Some(hatch) = look.hatch {
        let period = (size / 8).max(4);
        let stripes: Vec<f32> = (0..size * size)
            .map(|i| {
                let (x, y) = (i % size, i / size);
                if (x + y) % period < period / 2 {
                    1.0
                } else {
                    0.0
                }
            })
            .collect();
        sp.layer(&stripes, hatch, Some(&m.cover));
    }
    let ink = match figure {
        Figure::Token { .. } => contrast(fill),
        _ if luminance(fill) < 0.3 => [215, 215, 215],
        _ => OUTLINE,
    };
    sp.layer(&m.detail, ink, Some(&m.cover));
    if let Figure::Token { abbr, .. } = figure {
        let font = &fonts.condensed;
        let max_w = size as f32 * 0.46;
        let mut px = size as f32
            * if abbr.chars().count() <= 2 {
                0.36
            } else {
                0.30
            };
        let w = text_width(font, px, abbr);
        if w > max_w {
            px *= max_w / w;
        }
        let w = text_width(font, px, abbr);
        let left = (size as f32 - w) / 2.0;
        let base = size as f32 / 2.0 + cap_height(px) / 2.0;
        let mut mask = vec![0.0f32; size * size];
        rasterize_text(font, px, abbr, left, base.round(), |x, y, a| {
            if x >= 0 && y >= 0 && (x as usize) < size && (y as usize) < size {
                let i = y as usize * size + x as usize;
                mask[i] = (mask[i] + a).min(1.0);
            }
        });
        sp.layer(&mask, ink, None);
    }
    sp.bytes = sp
        .px
        .iter()
        .map(|p| p.map(|v| (v * 255.0 + 0.5).clamp(0.0, 255.0) as u8))
        .collect();
    sp
}

#[cfg(test)]
mod tests {
    //! Issue 21: our path rasteriser (ab_glyph_rasterizer coverage plus `dilate`) against
    //! tiny-skia, on the sprites a cold KFB picture draws. Only a measurement: pictures are
    //! drawn by `draw_sprite` alone.

    use super::*;
    use std::hint::black_box;
    use std::time::Instant;
    use tiny_skia::{FillRule, LineJoin, Mask, PathBuilder, Stroke, Transform};

    const RUNS: usize = 50;

    /// Our path as a tiny-skia path in pixels (design units times `k`); `None` if empty.
    fn skia_path(path: &Path, k: f32) -> Option<tiny_skia::Path> {
        let mut pb = PathBuilder::new();
        for contour in &path.contours {
            let Some(first) = contour.first() else {
                continue;
            };
            let (Seg::Line(a, _) | Seg::Quad(a, _, _) | Seg::Cubic(a, _, _, _)) = *first;
            pb.move_to(a.0 * k, a.1 * k);
            for s in contour {
                match *s {
                    Seg::Line(_, b) => pb.line_to(b.0 * k, b.1 * k),
                    Seg::Quad(_, b, c) => pb.quad_to(b.0 * k, b.1 * k, c.0 * k, c.1 * k),
                    Seg::Cubic(_, b, c, d) => {
                        pb.cubic_to(b.0 * k, b.1 * k, c.0 * k, c.1 * k, d.0 * k, d.1 * k)
                    }
                }
            }
            pb.close();
        }
        pb.finish()
    }

    /// The path filled anti-aliased, non-zero winding (all our contours turn the same way,
    /// so this is their union, as our rasteriser's clamped accumulation is).
    fn skia_fill(path: Option<&tiny_skia::Path>, size: usize) -> Mask {
        let mut m = Mask::new(size as u32, size as u32).unwrap();
        if let Some(p) = path {
            m.fill_path(p, FillRule::Winding, true, Transform::identity());
        }
        m
    }

    /// The coverage `cov` grown by `radius` pixels: a round-joined stroke of width 2×radius
    /// along every contour of `path`, united with `cov` (per-pixel maximum).
    fn skia_grow(
        cov: &[f32],
        path: Option<&tiny_skia::Path>,
        size: usize,
        radius: f32,
    ) -> Vec<f32> {
        let mut m = Mask::new(size as u32, size as u32).unwrap();
        let stroke = Stroke {
            width: 2.0 * radius,
            line_join: LineJoin::Round,
            ..Stroke::default()
        };
        if let Some(s) = path.and_then(|p| p.stroke(&stroke, 1.0)) {
            m.fill_path(&s, FillRule::Winding, true, Transform::identity());
        }
        cov.iter()
            .zip(m.data())
            .map(|(&c, &a)| c.max(a as f32 / 255.0))
            .collect()
    }

    /// How the tiny-skia sprite is made.
    #[derive(Copy, Clone)]
    struct Way {
        /// Fill and detail from our rasteriser (only the outline from tiny-skia's stroke).
        ours_fill: bool,
        /// Pixels taken off each growth: `dilate` by r grows a shape by about r − ½ (it
        /// measures from covered pixels' centres), a stroke of half-width r by r.
        trim: f32,
    }

    fn to_f32(m: &Mask) -> Vec<f32> {
        m.data().iter().map(|&a| a as f32 / 255.0).collect()
    }

    /// Our path filled by tiny-skia, as a coverage mask (0–1).
    fn skia_cover(path: &Path, k: f32, size: usize) -> Vec<f32> {
        to_f32(&skia_fill(skia_path(path, k).as_ref(), size))
    }

    /// `draw_sprite` with the coverage masks made by tiny-skia (the text is the same).
    fn draw_sprite_skia(
        fonts: &Fonts,
        figure: &Figure,
        fill: Rgb8,
        size: usize,
        look: Look,
        way: Way,
    ) -> Sprite {
        let (fill_path, detail_path) = figure.paths();
        let k = size as f32 / 100.0;
        let map = move |(x, y): P| (x * k, y * k);
        let fp = skia_path(&fill_path, k);
        let cov = if way.ours_fill {
            fill_path.raster(size, &map)
        } else {
            to_f32(&skia_fill(fp.as_ref(), size))
        };
        let edge = (size as f32 / 34.0).clamp(1.0, 3.0);
        let outline = skia_grow(&cov, fp.as_ref(), size, edge - way.trim);
        let ring = look.halo.map(|_| {
            let ring_r = edge + (size as f32 / 40.0).clamp(1.0, 2.0) - 2.0 * way.trim;
            skia_grow(&cov, fp.as_ref(), size, ring_r)
        });
        let detail = if way.ours_fill {
            detail_path.raster(size, &map)
        } else {
            skia_cover(&detail_path, k, size)
        };
        let masks = Masks {
            cover: cov,
            outline,
            ring,
            detail,
        };
        paint_sprite(fonts, figure, fill, size, look, &masks)
    }

    /// Best and median of `RUNS` calls, in microseconds.
    fn time<T>(mut f: impl FnMut() -> T) -> (f64, f64) {
        let mut v: Vec<f64> = (0..RUNS)
            .map(|_| {
                let t = Instant::now();
                black_box(f());
                t.elapsed().as_secs_f64() * 1e6
            })
            .collect();
        v.sort_by(f64::total_cmp);
        (v[0], v[v.len() / 2])
    }

    /// How far two masks (0–1) are apart, in 1/255 steps.
    #[derive(Default, Clone, Copy)]
    struct Diff {
        /// Largest difference of one pixel.
        max: f32,
        /// Pixels more than 12/255 apart.
        over: usize,
        /// Pixels that either mask covers at all.
        inked: usize,
        /// All pixels.
        all: usize,
        /// Sum of the differences over the inked pixels (for the mean).
        sum: f64,
    }

    impl Diff {
        fn of(a: &[f32], b: &[f32]) -> Diff {
            let mut d = Diff {
                all: a.len(),
                ..Diff::default()
            };
            for (&x, &y) in a.iter().zip(b) {
                let e = (x - y).abs() * 255.0;
                d.max = d.max.max(e);
                d.over += usize::from(e > 12.0);
                d.inked += usize::from(x.max(y) * 255.0 >= 0.5);
                d.sum += f64::from(e);
            }
            d
        }
        fn add(&mut self, o: Diff) {
            self.max = self.max.max(o.max);
            self.over += o.over;
            self.inked += o.inked;
            self.all += o.all;
            self.sum += o.sum;
        }
        fn show(&self) -> String {
            format!(
                "{:3.0} {:4.1} {:5.2}%/{:5.2}%",
                self.max,
                self.sum / self.inked.max(1) as f64,
                100.0 * self.over as f64 / self.inked.max(1) as f64,
                100.0 * self.over as f64 / self.all.max(1) as f64
            )
        }
    }

    fn label(f: &Figure) -> String {
        match f {
            // The marks turn with the owner: their first angle tells the two sides apart.
            Figure::Token { abbr, base, marks } => {
                format!("{abbr} {base:?} {}", marks.first().map_or(0, |m| m.0))
            }
            other => format!("{other:?}"),
        }
    }

    /// A sprite the cache holds: its figure, fill, size and look.
    struct Key {
        figure: Figure,
        fill: Rgb8,
        size: usize,
        look: Look,
    }

    /// Times and compares both rasterisers on every sprite of a cold board of two Different
    /// Armies (Clobberers and Nutty Knights):
    /// `cargo test --release --lib tiny_skia -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn tiny_skia_against_our_rasteriser() {
        let fonts = crate::render::fonts().unwrap();
        // The sprites a cold board draws: render it once into an empty cache.
        clear_cache();
        let pos = crate::engine::position_of("kcwda:clobberers-nutty", None).unwrap();
        crate::render::draw_position(&pos, None, &crate::render::RenderOptions::default()).unwrap();
        let mut keys: Vec<Key> = cache()
            .lock()
            .unwrap()
            .iter()
            .flat_map(|(figure, v)| {
                v.iter().map(|&(fill, size, look, _)| Key {
                    figure: figure.clone(),
                    fill,
                    size,
                    look,
                })
            })
            .collect();
        clear_cache();
        keys.sort_by_key(|k| (k.size, label(&k.figure), k.fill));
        assert!(keys.len() > 10, "the KFB picture draws many sprites");
        println!("{} sprites in a cold KFB picture", keys.len());

        // Path rasterising depends on the figure and size only (not the colour).
        let mut shapes: Vec<(Figure, usize)> = Vec::new();
        for k in &keys {
            let s = (k.figure.clone(), k.size);
            if !shapes.contains(&s) {
                shapes.push(s);
            }
        }
        println!(
            "{:<17} {:>3} {:>2} | {:>11} {:>11} | {:>11} {:>11} | {:>16} {:>16} {:>16} {:>16}",
            "figure",
            "px",
            "n",
            "fill ours",
            "fill skia",
            "outl. ours",
            "outl. skia",
            "fill diff",
            "detail diff",
            "outl. diff 2r",
            "outl. diff 2r-1"
        );
        let mut sums = [0.0f64; 4];
        let mut bests = [0.0f64; 4];
        let mut weighted = [0.0f64; 4];
        let mut diffs = [Diff::default(); 4];
        let mut areas = [0.0f64; 2];
        for (figure, size) in &shapes {
            let size = *size;
            let uses = keys
                .iter()
                .filter(|k| k.size == size && &k.figure == figure)
                .count();
            let (fill_path, detail_path) = figure.paths();
            let k = size as f32 / 100.0;
            let map = move |(x, y): P| (x * k, y * k);
            let edge = (size as f32 / 34.0).clamp(1.0, 3.0);

            // (a) ours: fill and detail coverage.
            let t_ours = time(|| (fill_path.raster(size, &map), detail_path.raster(size, &map)));
            // (b) tiny-skia: the same paths converted, filled, as f32 masks.
            let t_skia = time(|| {
                (
                    skia_cover(&fill_path, k, size),
                    skia_cover(&detail_path, k, size),
                )
            });
            let cov = fill_path.raster(size, &map);
            let fp = skia_path(&fill_path, k);
            let scov = to_f32(&skia_fill(fp.as_ref(), size));
            // (c) our outline: dilate the coverage.
            let o_ours = time(|| dilate(&cov, size, edge));
            // (d) tiny-skia: stroke the fill path, united with the fill.
            let o_skia = time(|| skia_grow(&scov, fp.as_ref(), size, edge));

            let ours_out = dilate(&cov, size, edge);
            let row = [
                Diff::of(&cov, &scov),
                Diff::of(
                    &detail_path.raster(size, &map),
                    &skia_cover(&detail_path, k, size),
                ),
                Diff::of(&ours_out, &skia_grow(&scov, fp.as_ref(), size, edge)),
                Diff::of(&ours_out, &skia_grow(&scov, fp.as_ref(), size, edge - 0.5)),
            ];
            for (d, r) in diffs.iter_mut().zip(row) {
                d.add(r);
            }
            areas[0] += cov.iter().map(|&v| f64::from(v)).sum::<f64>();
            areas[1] += scov.iter().map(|&v| f64::from(v)).sum::<f64>();
            for (i, t) in [t_ours, t_skia, o_ours, o_skia].iter().enumerate() {
                sums[i] += t.1;
                bests[i] += t.0;
                weighted[i] += t.1 * uses as f64;
            }
            println!(
                "{:<17} {:>3} {:>2} | {:>5.1} {:>5.1} {:>5.1} {:>5.1} | {:>5.1} {:>5.1} {:>5.1} {:>5.1} | {} {} {} {}",
                label(figure),
                size,
                uses,
                t_ours.0,
                t_ours.1,
                t_skia.0,
                t_skia.1,
                o_ours.0,
                o_ours.1,
                o_skia.0,
                o_skia.1,
                row[0].show(),
                row[1].show(),
                row[2].show(),
                row[3].show()
            );
        }
        println!(
            "all {} figure/size pairs, medians summed (µs): fill+detail ours {:.0}, skia {:.0}; \
             outline ours {:.0}, skia {:.0}",
            shapes.len(),
            sums[0],
            sums[1],
            sums[2],
            sums[3]
        );
        println!(
            "the same, best runs summed (µs): fill+detail ours {:.0}, skia {:.0}; outline ours \
             {:.0}, skia {:.0}",
            bests[0], bests[1], bests[2], bests[3]
        );
        println!(
            "weighted by sprites drawn ({}), medians summed (µs): fill+detail ours {:.0}, \
             skia {:.0}; outline ours {:.0}, skia {:.0}",
            keys.len(),
            weighted[0],
            weighted[1],
            weighted[2],
            weighted[3]
        );
        println!(
            "mask differences (largest step /255, mean over inked pixels, share >12/255 of inked / of all pixels): \
             fill {}, detail {}, outline (stroke 2r) {}, outline (stroke 2r-1) {}; \
             fill area ours/skia {:.4}",
            diffs[0].show(),
            diffs[1].show(),
            diffs[2].show(),
            diffs[3].show(),
            areas[0] / areas[1]
        );

        // The whole sprite: ours against tiny-skia versions, every sprite of the picture.
        let ways = [
            (
                "all tiny-skia, stroke 2r",
                Way {
                    ours_fill: false,
                    trim: 0.0,
                },
            ),
            (
                "all tiny-skia, stroke 2r-1",
                Way {
                    ours_fill: false,
                    trim: 0.5,
                },
            ),
            (
                "our fill + tiny-skia stroke 2r-1",
                Way {
                    ours_fill: true,
                    trim: 0.5,
                },
            ),
        ];
        let flat = |sp: &Sprite| -> Vec<f32> {
            sp.bytes
                .iter()
                .flat_map(|p| p.map(|v| v as f32 / 255.0))
                .collect()
        };
        // Ours and each way in turn on the same sprite, so a change in the machine's load
        // touches them alike; best and median summed over the sprites.
        let mut best = [0.0f64; 4];
        let mut med = [0.0f64; 4];
        let mut apart = [Diff::default(); 3];
        for key in &keys {
            let (f, c, s, l) = (&key.figure, key.fill, key.size, key.look);
            let a = time(|| draw_sprite(fonts, f, c, s, l));
            best[0] += a.0;
            med[0] += a.1;
            let ours = flat(&draw_sprite(fonts, f, c, s, l));
            for (i, (_, way)) in ways.iter().enumerate() {
                let b = time(|| draw_sprite_skia(fonts, f, c, s, l, *way));
                best[i + 1] += b.0;
                med[i + 1] += b.1;
                apart[i].add(Diff::of(
                    &ours,
                    &flat(&draw_sprite_skia(fonts, f, c, s, l, *way)),
                ));
            }
        }
        println!(
            "whole draw_sprite, {} sprites summed (µs): ours best {:.0} median {:.0}",
            keys.len(),
            best[0],
            med[0]
        );
        for (i, (name, _)) in ways.iter().enumerate() {
            println!(
                "  {name}: best {:.0} median {:.0}; RGBA channels apart from ours: {}",
                best[i + 1],
                med[i + 1],
                apart[i].show()
            );
        }

        // With ARBITER_SKIA_SHEET=file.png, eight 64-pixel sprites side by side (ours, then each
        // way), three times enlarged on a light square, to look at.
        if let Ok(file) = std::env::var("ARBITER_SKIA_SHEET") {
            let chess = |k: &&Key| !matches!(k.figure, Figure::Token { .. });
            let at64 = || keys.iter().filter(|k| k.size == 64);
            let big: Vec<&Key> = at64()
                .filter(chess)
                .chain(at64().filter(|k| !chess(k)))
                .take(8)
                .collect();
            let (z, n) = (3u32, 64u32);
            let mut img = image::RgbImage::new(n * z * big.len() as u32, n * z * 4);
            for (col, key) in big.iter().enumerate() {
                let (f, c, s, l) = (&key.figure, key.fill, key.size, key.look);
                let mut rows = vec![draw_sprite(fonts, f, c, s, l)];
                rows.extend(
                    ways.iter()
                        .map(|(_, w)| draw_sprite_skia(fonts, f, c, s, l, *w)),
                );
                for (row, sp) in rows.iter().enumerate() {
                    for (i, p) in sp.bytes.iter().enumerate() {
                        let (x, y) = ((i % s) as u32, (i / s) as u32);
                        let bg = [240u8, 217, 181];
                        let k = 255 - u32::from(p[3]);
                        let px: [u8; 3] = std::array::from_fn(|ch| {
                            (u32::from(p[ch]) + (u32::from(bg[ch]) * k + 127) / 255).min(255) as u8
                        });
                        for dy in 0..z {
                            for dx in 0..z {
                                img.put_pixel(
                                    (col as u32 * n + x) * z + dx,
                                    (row as u32 * n + y) * z + dy,
                                    image::Rgb(px),
                                );
                            }
                        }
                    }
                }
            }
            img.save(&file).unwrap();
            println!("sheet written to {file}: rows ours, then the ways above in order");
        }

        // The conversion is right if the two fills agree but for anti-aliasing: a wrong fill
        // rule or a misplaced point would leave whole pixels apart and change the area.
        assert!(
            diffs[0].max < 128.0,
            "a pixel is on the wrong side of an edge"
        );
        assert!(
            (areas[0] / areas[1] - 1.0).abs() < 0.03,
            "the fills cover different areas"
        );
    }
}
