//! The canvas pictures are drawn on: rectangles, blending, anti-aliased text, piece tiles and
//! PNG encoding.
//!
//! The fast path draws straight into palette indices (one byte a pixel, the palette chosen
//! as the picture is drawn: see [`Palette`]), in rows laid out as PNG wants them, so encoding
//! is deflating the buffer as it stands ([`super::deflate`]). (The RGB renderer it replaced
//! was removed once the golden images guarded the pictures: see the render module's note.)

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};

use super::palette::{cell_of, Palette};
use super::RenderError;

pub(crate) use super::palette::Rgb8;

/// The fonts every picture uses: DejaVu Sans Bold for labels and DejaVu Sans Condensed Bold
/// for piece abbreviations (embedded by the `dejavu` crate, so nothing is read at run time).
pub(crate) struct Fonts {
    pub bold: FontRef<'static>,
    pub condensed: FontRef<'static>,
    pub regular: FontRef<'static>,
}

impl Fonts {
    /// Parses the embedded fonts.
    pub(crate) fn load() -> Result<Fonts, RenderError> {
        let parse = |bytes: &'static [u8]| {
            FontRef::try_from_slice(bytes).map_err(|e| RenderError::Font(e.to_string()))
        };
        Ok(Fonts {
            bold: parse(dejavu::sans::bold())?,
            condensed: parse(dejavu::sans_condensed::bold())?,
            regular: parse(dejavu::sans::regular())?,
        })
    }
}

/// Where text is anchored horizontally.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Align {
    Left,
    Centre,
}

thread_local! {
    /// Widths of texts measured on this thread: pictures measure the same texts again and
    /// again (labels, names being fitted).
    static WIDTHS: std::cell::RefCell<HashMap<TextKey, f32>> =
        std::cell::RefCell::new(HashMap::new());
    /// Texts wrapped on this thread, by text, size and the width's bits: a status line is
    /// wrapped again on every picture, and wrapping measures every prefix of its lines.
    static WRAPPED: std::cell::RefCell<HashMap<(TextKey, u32), Vec<String>>> =
        std::cell::RefCell::new(HashMap::new());
}

/// The value kept for `key` in a per-thread cache, or `make`'s, kept (the cache starts
/// again once it holds more than `cap`).
fn kept<K: std::hash::Hash + Eq, V: Clone>(
    cache: &'static std::thread::LocalKey<std::cell::RefCell<HashMap<K, V>>>,
    key: K,
    cap: usize,
    make: impl FnOnce() -> V,
) -> V {
    let known = cache.with(|c| c.try_borrow().ok().and_then(|c| c.get(&key).cloned()));
    if let Some(v) = known {
        return v;
    }
    let v = make();
    cache.with(|c| {
        if let Ok(mut c) = c.try_borrow_mut() {
            if c.len() > cap {
                c.clear();
            }
            c.insert(key, v.clone());
        }
    });
    v
}

/// Width in pixels of `text` at `px`.
pub(crate) fn text_width(font: &FontRef<'_>, px: f32, text: &str) -> f32 {
    let key = TextKey {
        font: font.font_data().as_ptr() as usize,
        px: px.to_bits(),
        text: text.to_string(),
    };
    kept(&WIDTHS, key, 20_000, || measure(font, px, text))
}

/// Width in pixels of `text` at `px`, from the font's advances and kerning.
fn measure(font: &FontRef<'_>, px: f32, text: &str) -> f32 {
    let f = font.as_scaled(PxScale::from(px));
    let mut w = 0.0;
    let mut prev = None;
    for ch in text.chars() {
        let id = f.glyph_id(ch);
        if let Some(p) = prev {
            w += f.kern(p, id);
        }
        w += f.h_advance(id);
        prev = Some(id);
    }
    w
}

/// Calls `put(x, y, coverage)` for every pixel the text covers; `(x, y)` is the left end of
/// the baseline.
pub(crate) fn rasterize_text(
    font: &FontRef<'_>,
    px: f32,
    text: &str,
    x: f32,
    y: f32,
    mut put: impl FnMut(i32, i32, f32),
) {
    let f = font.as_scaled(PxScale::from(px));
    let mut caret = x;
    let mut prev = None;
    for ch in text.chars() {
        let id = f.glyph_id(ch);
        if let Some(p) = prev {
            caret += f.kern(p, id);
        }
        let glyph = id.with_scale_and_position(px, ab_glyph::point(caret, y));
        caret += f.h_advance(id);
        prev = Some(id);
        if let Some(outlined) = font.outline_glyph(glyph) {
            let b = outlined.px_bounds();
            outlined
                .draw(|gx, gy, c| put(b.min.x as i32 + gx as i32, b.min.y as i32 + gy as i32, c));
        }
    }
}

/// Cap height (about the height of capitals and digits) of a font at `px`.
pub(crate) fn cap_height(px: f32) -> f32 {
    // DejaVu Sans: cap height 0.729 em.
    px * 0.729
}

/// One glyph of a laid-out text: its pixel box relative to the text's left end on the
/// baseline, and its coverage.
struct GlyphMask {
    x: i32,
    y: i32,
    w: usize,
    /// Coverage, 0–255.
    cov: Vec<u8>,
}

/// Key of the text cache: the font (by the address of its data, all fonts being embedded
/// statics), the size's bits and the text.
#[derive(PartialEq, Eq, Hash)]
struct TextKey {
    font: usize,
    px: u32,
    text: String,
}

/// A text laid out from the origin: its width (as [`text_width`] gives it) and its glyphs.
struct TextLayout {
    width: f32,
    glyphs: Vec<Arc<GlyphMask>>,
    /// All glyphs in one coverage block (where boxes overlap, coverages combine as two
    /// blends would), its box relative to the origin, and the coverages it holds.
    block: Vec<u8>,
    block_box: (i32, i32, usize, usize),
    levels: Vec<u8>,
    /// Per row of the block, the columns from its first to its last inked pixel (empty for
    /// a row without ink): only those are drawn.
    inked: Vec<(usize, usize)>,
}

/// The glyphs of a text in one block of coverage: the block, its box (left, top, width,
/// height, relative to the origin) and the coverages that occur in it.
fn glyph_block(glyphs: &[Arc<GlyphMask>]) -> (Vec<u8>, (i32, i32, usize, usize), Vec<u8>) {
    let boxes = glyphs.iter().map(|g| {
        let h = (g.cov.len() / g.w.max(1)) as i32;
        (g.x, g.y, g.x + g.w as i32, g.y + h)
    });
    let (x0, y0, x1, y1) = boxes.fold((i32::MAX, i32::MAX, i32::MIN, i32::MIN), |a, b| {
        (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3))
    });
    if x0 >= x1 || y0 >= y1 {
        return (Vec::new(), (0, 0, 0, 0), Vec::new());
    }
    let (bw, bh) = ((x1 - x0) as usize, (y1 - y0) as usize);
    let mut block = vec![0u8; bw * bh];
    for g in glyphs {
        for (row, line) in g.cov.chunks_exact(g.w.max(1)).enumerate() {
            let at = (g.y - y0) as usize * bw + row * bw + (g.x - x0) as usize;
            for (d, &a) in block[at..at + line.len()].iter_mut().zip(line) {
                // 1 − (1 − d)(1 − a), in 0–255.
                *d = (*d as u32 + a as u32 - (*d as u32 * a as u32 + 127) / 255) as u8;
            }
        }
    }
    let mut seen = [false; 256];
    for &a in &block {
        seen[a as usize] = true;
    }
    let levels = (1..=255u8).filter(|&a| seen[a as usize]).collect();
    (block, (x0, y0, bw, bh), levels)
}

type TextCache = Mutex<HashMap<TextKey, Arc<TextLayout>>>;

fn text_cache() -> &'static TextCache {
    static CACHE: OnceLock<TextCache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Forgets every laid-out text.
pub(crate) fn clear_text_cache() {
    if let Ok(mut c) = text_cache().lock() {
        c.clear();
        TEXT_BYTES.store(0, std::sync::atomic::Ordering::Relaxed);
    }
    WIDTHS.with(|w| {
        if let Ok(mut w) = w.try_borrow_mut() {
            w.clear();
        }
    });
    WRAPPED.with(|w| {
        if let Ok(mut w) = w.try_borrow_mut() {
            w.clear();
        }
    });
    GLYPHS.with(|g| {
        if let Ok(mut g) = g.try_borrow_mut() {
            g.clear();
        }
    });
}

/// Key of a rasterised glyph: the font (as in [`TextKey`]), the size's bits, the glyph and
/// the exact bits of its origin's x. The same glyph at the same place rasterises the same, and
/// texts that differ only in a few characters (a clock, a move number; digits all have one
/// advance) put most of their glyphs at the same places.
#[derive(PartialEq, Eq, Hash)]
struct GlyphKey {
    font: usize,
    px: u32,
    id: u16,
    x: u32,
}

thread_local! {
    /// Glyphs rasterised on this thread for new texts (`None`: the glyph has no outline).
    static GLYPHS: std::cell::RefCell<HashMap<GlyphKey, Option<Arc<GlyphMask>>>> =
        std::cell::RefCell::new(HashMap::new());
}

/// The coverage of one positioned glyph, if it has an outline.
fn rasterize_glyph(font: &FontRef<'_>, glyph: ab_glyph::Glyph) -> Option<Arc<GlyphMask>> {
    let outlined = font.outline_glyph(glyph)?;
    let b = outlined.px_bounds();
    let w = b.width() as usize;
    let h = b.height() as usize;
    let mut cov = vec![0u8; w * h];
    outlined.draw(|gx, gy, c| {
        if let Some(v) = cov.get_mut(gy as usize * w + gx as usize) {
            *v = (c.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
        }
    });
    Some(Arc::new(GlyphMask {
        x: b.min.x as i32,
        y: b.min.y as i32,
        w,
        cov,
    }))
}

/// The glyph masks of `text` at `px` laid out from the origin and the text's width, worked out
/// once and kept.
fn text_masks(font: &FontRef<'_>, px: f32, text: &str) -> Arc<TextLayout> {
    let key = TextKey {
        font: font.font_data().as_ptr() as usize,
        px: px.to_bits(),
        text: text.to_string(),
    };
    if let Ok(c) = text_cache().lock() {
        if let Some(m) = c.get(&key) {
            return Arc::clone(m);
        }
    }
    let f = font.as_scaled(PxScale::from(px));
    let mut caret = 0.0;
    let mut prev = None;
    let mut masks = Vec::new();
    for ch in text.chars() {
        let id = f.glyph_id(ch);
        if let Some(p) = prev {
            caret += f.kern(p, id);
        }
        let at = caret;
        caret += f.h_advance(id);
        prev = Some(id);
        // The text's own key gives the font and the size.
        let place = GlyphKey {
            font: key.font,
            px: key.px,
            id: id.0,
            x: at.to_bits(),
        };
        let mask = kept(&GLYPHS, place, 50_000, || {
            rasterize_glyph(
                font,
                id.with_scale_and_position(px, ab_glyph::point(at, 0.0)),
            )
        });
        masks.extend(mask);
    }
    let (block, block_box, levels) = glyph_block(&masks);
    let inked = block
        .chunks_exact(block_box.2.max(1))
        .map(|line| match line.iter().position(|&a| a > 0) {
            Some(first) => (
                first,
                line.iter().rposition(|&a| a > 0).map_or(first, |l| l + 1),
            ),
            None => (0, 0),
        })
        .collect();
    let masks = Arc::new(TextLayout {
        width: text_width(font, px, text),
        glyphs: masks,
        block,
        block_box,
        levels,
        inked,
    });
    if let Ok(mut c) = text_cache().lock() {
        use std::sync::atomic::Ordering::Relaxed;
        let bytes = masks.bytes();
        let share = super::budget::share(super::budget::Part::Texts);
        if c.len() > 20_000 || TEXT_BYTES.load(Relaxed) + bytes > share {
            c.clear();
            TEXT_BYTES.store(0, Relaxed);
        }
        if bytes <= share {
            TEXT_BYTES.fetch_add(bytes, Relaxed);
            c.insert(key, Arc::clone(&masks));
        }
    }
    masks
}

/// Bytes the text cache holds (its layouts and their glyphs, counted as they are put in).
static TEXT_BYTES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Bytes the text cache holds now.
pub(crate) fn cached_text_bytes() -> usize {
    TEXT_BYTES.load(std::sync::atomic::Ordering::Relaxed)
}

impl TextLayout {
    /// The bytes it holds, its glyphs included.
    fn bytes(&self) -> usize {
        let glyphs: usize = self.glyphs.iter().map(|g| g.cov.len() + 48).sum();
        glyphs + self.block.len() + self.levels.len() + self.inked.len() * 16 + 128
    }
}
/// The mix of `d` towards `s` at coverage `a` (0–1), as every blend here rounds it.
#[inline]
fn mix(d: Rgb8, s: Rgb8, a: f32) -> Rgb8 {
    [0, 1, 2].map(|i| (d[i] as f32 + (s[i] as f32 - d[i] as f32) * a + 0.5) as u8)
}

/// A premultiplied RGBA pixel laid over an opaque one.
#[inline]
fn over(d: Rgb8, s: [u8; 4]) -> Rgb8 {
    match s[3] {
        0 => d,
        255 => [s[0], s[1], s[2]],
        a => {
            let k = 255 - a as u32;
            [0, 1, 2].map(|i| (s[i] as u32 + (d[i] as u32 * k + 127) / 255).min(255) as u8)
        }
    }
}

/// A premultiplied RGBA block (`w` pixels a row) laid over a flat colour: RGB rows.
pub(crate) fn compose_over(bg: Rgb8, w: usize, px: &[[u8; 4]]) -> Vec<u8> {
    let mut out = Vec::with_capacity(px.len() * 3);
    for &s in px.iter().take(w.max(1) * (px.len() / w.max(1))) {
        out.extend_from_slice(&over(bg, s));
    }
    out
}

/// Pixels covered by a colour of a [`Tile`] for it to count as flat (a piece's fill, its
/// outline, the square around it) and get an exact palette entry.
const TILE_FLAT_PIXELS: u32 = 32;

/// A block of pixels kept as its own small palette and one index a pixel: a piece laid over
/// a square, ready to be copied into any picture's palette.
pub(crate) struct Tile {
    w: usize,
    colours: Vec<Rgb8>,
    flat: Vec<bool>,
    px: Vec<u16>,
    /// The tile in pictures' palettes met lately: the entry of each of the tile's colours,
    /// and the indices they give (pictures of one kind mostly give the same entries).
    mapped: Mutex<Vec<Mapping>>,
}

/// A tile in a palette: the entry of each of its colours, and the indices they give.
type Mapping = (Vec<u8>, Arc<[u8]>);

/// Palette mappings kept per tile.
const MAPPINGS_PER_TILE: usize = 4;

impl Tile {
    /// The tile of RGB rows `w` pixels wide.
    pub(crate) fn from_rgb(w: usize, rgb: &[u8]) -> Tile {
        let mut ids: HashMap<Rgb8, u16> = HashMap::new();
        let mut exact = Vec::new();
        let mut count: Vec<u32> = Vec::new();
        let mut first = Vec::with_capacity(rgb.len() / 3);
        for p in rgb.chunks_exact(3) {
            let c = [p[0], p[1], p[2]];
            let id = *ids.entry(c).or_insert_with(|| {
                exact.push(c);
                count.push(0);
                (exact.len() - 1) as u16
            });
            count[id as usize] += 1;
            first.push(id);
        }
        // A flat colour keeps its own entry; the others (anti-aliasing) are put together by
        // the palette's cells (4 levels a channel), as a picture's palette would anyway, so
        // that a picture asks its palette for fewer colours.
        let flat_min = TILE_FLAT_PIXELS.max((first.len() / 24) as u32);
        let mut colours = Vec::new();
        let mut flat = Vec::new();
        let mut by_cell: HashMap<usize, u16> = HashMap::new();
        let remap: Vec<u16> = exact
            .iter()
            .zip(&count)
            .map(|(&c, &n)| {
                let mut add = |flat_colour: bool| {
                    colours.push(c);
                    flat.push(flat_colour);
                    (colours.len() - 1) as u16
                };
                if n >= flat_min {
                    add(true)
                } else {
                    *by_cell.entry(cell_of(c)).or_insert_with(|| add(false))
                }
            })
            .collect();
        Tile {
            w: w.max(1),
            flat,
            colours,
            px: first.iter().map(|&id| remap[id as usize]).collect(),
            mapped: Mutex::new(Vec::new()),
        }
    }

    /// The tile's indices under `lut` (the entry of each of its colours), kept.
    fn indices(&self, lut: Vec<u8>) -> Arc<[u8]> {
        if let Ok(m) = self.mapped.lock() {
            if let Some((_, px)) = m.iter().find(|(l, _)| *l == lut) {
                return Arc::clone(px);
            }
        }
        let px: Arc<[u8]> = self.px.iter().map(|&id| lut[id as usize]).collect();
        if let Ok(mut m) = self.mapped.lock() {
            if m.len() >= MAPPINGS_PER_TILE {
                m.remove(0);
            }
            m.push((lut, Arc::clone(&px)));
        }
        px
    }
}

/// A picture being drawn, in palette indices.
pub struct Canvas {
    w: u32,
    h: u32,
    px: Box<Indexed>,
}

/// A picture drawn straight into palette indices.
struct Indexed {
    /// PNG rows: each the filter-type byte (0, none) and then the row's indices, so that the
    /// encoder deflates this buffer as it is.
    rows: Vec<u8>,
    pal: Palette,
    /// Tiles already put into this picture's palette (kept alive here, so their addresses
    /// stay theirs).
    tiles: Vec<(Arc<Tile>, Arc<[u8]>)>,
    /// Per text colour and background entry, the entry for each coverage (worked out when
    /// first met).
    inks: Vec<(Rgb8, u8, Box<[u16; 256]>)>,
}

thread_local! {
    /// Row buffers of dropped pictures, for the next picture drawn on this thread: a fresh
    /// buffer of megabytes is fresh pages from the system, and faulting them in costs more
    /// than drawing.
    static SPARE_ROWS: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A row buffer of `len` bytes, reusing a spare one: what it holds is left over (the canvas
/// writes every byte).
fn rows_buffer(len: usize) -> Vec<u8> {
    let spare = SPARE_ROWS.with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.pop()));
    if let Some(r) = &spare {
        super::budget::SPARE_ROWS.fetch_sub(r.capacity(), std::sync::atomic::Ordering::Relaxed);
    }
    let mut rows = spare.unwrap_or_default();
    rows.resize(len, 0);
    rows
}

impl Drop for Indexed {
    fn drop(&mut self) {
        use std::sync::atomic::Ordering::Relaxed;
        let rows = std::mem::take(&mut self.rows);
        // A few buffers are kept per thread, all threads' together within their share of
        // the picture caches' budget.
        let cap = rows.capacity();
        let spare = &super::budget::SPARE_ROWS;
        if cap > 0
            && spare.load(Relaxed) + cap <= super::budget::share(super::budget::Part::SpareRows)
        {
            SPARE_ROWS.with(|s| {
                if let Ok(mut s) = s.try_borrow_mut() {
                    if s.len() < 3 {
                        spare.fetch_add(cap, Relaxed);
                        s.push(rows);
                    }
                }
            });
        }
    }
}

/// The index in `inks` of the table for text colour `c` over entry `bg`, made if new.
fn ink_table(inks: &mut Vec<(Rgb8, u8, Box<[u16; 256]>)>, c: Rgb8, bg: u8) -> usize {
    match inks.iter().position(|(f, b, _)| *b == bg && *f == c) {
        Some(k) => k,
        None => {
            inks.push((c, bg, Box::new([u16::MAX; 256])));
            inks.len() - 1
        }
    }
}

impl Canvas {
    /// The bytes the picture holds (its pixels, the tiles and ink tables it keeps), to count
    /// a kept picture against the picture caches' budget.
    pub(crate) fn held_bytes(&self) -> usize {
        let ix = &self.px;
        ix.rows.capacity()
            + ix.tiles.iter().map(|(_, t)| t.len()).sum::<usize>()
            + ix.inks.len() * 520
            + 1024
    }
}

impl Indexed {
    #[inline]
    fn at(&self, w: u32, x: usize, y: usize) -> usize {
        y * (w as usize + 1) + 1 + x
    }
}

/// Whether every byte of `line` is `v` (no early exit, so the compiler vectorises it).
#[inline]
fn all_equal(line: &[u8], v: u8) -> bool {
    line.iter().fold(0u8, |acc, &b| acc | (b ^ v)) == 0
}

/// The rectangle (x, y, w, h) clipped to a canvas of `cw`×`ch`: (x0, y0, x1, y1), or `None`
/// if nothing is left.
fn clip_to(
    cw: u32,
    ch: u32,
    x: i32,
    y: i32,
    w: u32,
    h: u32,
) -> Option<(usize, usize, usize, usize)> {
    let (cw, ch) = (i64::from(cw), i64::from(ch));
    let x0 = i64::from(x).clamp(0, cw);
    let y0 = i64::from(y).clamp(0, ch);
    let x1 = (i64::from(x) + i64::from(w)).clamp(0, cw);
    let y1 = (i64::from(y) + i64::from(h)).clamp(0, ch);
    (x0 < x1 && y0 < y1).then_some((x0 as usize, y0 as usize, x1 as usize, y1 as usize))
}

/// Which way a plate is turned when it is put on a picture (see [`Canvas::put_plate`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Turn {
    None,
    /// A quarter turn clockwise.
    Clockwise,
    /// A quarter turn anticlockwise.
    Anticlockwise,
}

thread_local! {
    /// The palette entries the next canvas made with [`Canvas::new`] on this thread starts
    /// with (see [`with_palette_of`]).
    static SEED: std::cell::RefCell<Option<Vec<(Rgb8, bool)>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `draw` with the first canvas it makes ([`Canvas::new`]) starting with `seed`'s
/// palette entries, in order: a replay draws each frame of a game so, and the frame's
/// pixels compare byte for byte with the last frame's where the picture is the same. The
/// picture is the fresh one up to the palette's choices for anti-aliasing colours (each
/// within a few levels of the exact colour either way).
pub(crate) fn with_palette_of<T>(seed: &Canvas, draw: impl FnOnce() -> T) -> T {
    let entries = seed.px.pal.entries();
    SEED.with(|s| {
        if let Ok(mut s) = s.try_borrow_mut() {
            *s = Some(entries);
        }
    });
    let out = draw();
    SEED.with(|s| {
        if let Ok(mut s) = s.try_borrow_mut() {
            *s = None;
        }
    });
    out
}

impl Canvas {
    /// A canvas filled with one colour.
    pub(crate) fn new(w: u32, h: u32, bg: Rgb8) -> Canvas {
        let seed = SEED.with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.take()));
        let pal = match seed {
            Some(entries) => Palette::seeded(&entries),
            None => Palette::new(),
        };
        Canvas::indexed(w, h, bg, &[], pal)
    }

    /// Entries in the picture's palette.
    pub(crate) fn palette_len(&self) -> usize {
        self.px.pal.colours().len()
    }

    /// A canvas of `bg` with rectangles (x, y, w, h, colour) already filled on it, in order:
    /// the same picture as [`Canvas::new`] and then [`Canvas::fill`] of each, but each row is
    /// written once while it is in the core's cache (a page of panels is megabytes, and
    /// writing them twice costs more than drawing on them).
    pub(crate) fn laid(w: u32, h: u32, bg: Rgb8, areas: &[(i32, i32, u32, u32, Rgb8)]) -> Canvas {
        Canvas::indexed(w, h, bg, areas, Palette::new())
    }

    fn indexed(
        w: u32,
        h: u32,
        bg: Rgb8,
        areas: &[(i32, i32, u32, u32, Rgb8)],
        mut pal: Palette,
    ) -> Canvas {
        let (w, h) = (w.max(1), h.max(1));
        let i = pal.flat(bg);
        // Each area clipped, with its entry (taken in order, as fills would).
        let spans: Vec<((usize, usize, usize, usize), u8)> = areas
            .iter()
            .filter_map(|&(x, y, aw, ah, c)| Some((clip_to(w, h, x, y, aw, ah)?, pal.flat(c))))
            .collect();
        let stride = w as usize + 1;
        let mut rows = rows_buffer(stride * h as usize);
        for (y, r) in rows.chunks_exact_mut(stride).enumerate() {
            r[0] = 0;
            r[1..].fill(i);
            for &((x0, y0, x1, y1), e) in &spans {
                if (y0..y1).contains(&y) {
                    r[1 + x0..1 + x1].fill(e);
                }
            }
        }
        Canvas {
            w,
            h,
            px: Box::new(Indexed {
                rows,
                pal,
                tiles: Vec::new(),
                inks: Vec::new(),
            }),
        }
    }

    /// Moves the rows from row `from` to the bottom by `by` rows (down when positive, up when
    /// negative), then makes the picture `h` rows tall (cutting rows off the bottom or adding
    /// rows of entry 0). Rows the move left behind, and rows added, keep whatever they held:
    /// the caller draws over them. Returns false (and does nothing) for a move out of the
    /// picture.
    pub(crate) fn shift_rows(&mut self, from: u32, by: i32, h: u32) -> bool {
        let ix = &mut self.px;
        let (old_h, from) = (self.h as i64, i64::from(from));
        if from > old_h || from + i64::from(by) < 0 || h == 0 {
            return false;
        }
        let stride = self.w as usize + 1;
        let moved = (from as usize * stride)..(old_h as usize * stride);
        let to = ((from + i64::from(by)) as usize) * stride;
        let shifted = (old_h + i64::from(by)) as usize * stride;
        if by > 0 {
            ix.rows.resize(shifted, 0);
        }
        ix.rows.copy_within(moved, to);
        ix.rows.truncate(shifted);
        // Added rows: a filter byte of 0 and entry 0, like the rest.
        ix.rows.resize(h as usize * stride, 0);
        self.h = h;
        true
    }

    /// The colours the picture's palette had to approximate for want of room
    /// ([`Palette::approximations`]).
    pub(crate) fn approximations(&self) -> u32 {
        self.px.pal.approximations()
    }

    #[cfg(test)]
    pub(crate) fn width(&self) -> u32 {
        self.w
    }

    /// Width and height in pixels.
    pub(crate) fn size(&self) -> (u32, u32) {
        (self.w, self.h)
    }

    /// The picture as it is held: its PNG rows (each a filter byte, then one palette index a
    /// pixel), their stride, and the palette's colours; for pictures made of pictures (a
    /// replay's frames), which take the indices as they are instead of decoding a PNG.
    pub(crate) fn pixels(&self) -> (&[u8], usize, &[Rgb8]) {
        (&self.px.rows, self.w as usize + 1, self.px.pal.colours())
    }

    /// Whether palette entry `i` was made for a flat colour (not anti-aliasing).
    pub(crate) fn is_flat(&self, i: u8) -> bool {
        self.px.pal.is_flat(i)
    }

    /// The picture's PNG rows and their stride.
    #[cfg(test)]
    pub(crate) fn rows(&self) -> (&[u8], usize) {
        (&self.px.rows, self.w as usize + 1)
    }

    /// Blends a colour into one pixel with coverage `a` (0–1); off-canvas pixels are ignored.
    #[inline]
    pub(crate) fn blend(&mut self, x: i32, y: i32, c: Rgb8, a: f32) {
        if x < 0 || y < 0 || a <= 0.0 || x as u32 >= self.w || y as u32 >= self.h {
            return;
        }
        let (x, y) = (x as u32, y as u32);
        let ix = &mut self.px;
        let at = ix.at(self.w, x as usize, y as usize);
        ix.rows[at] = if a >= 1.0 {
            ix.pal.flat(c)
        } else {
            let d = ix.pal.colour(ix.rows[at]);
            ix.pal.near(mix(d, c, a))
        };
    }

    /// A round glow of `c` over the `size`-pixel square at (`x`, `y`): strongest in the
    /// middle, fading out before the corners (a king in check, in the games that mark one).
    pub(crate) fn glow(&mut self, x: i32, y: i32, size: u32, c: Rgb8) {
        let half = size as f32 / 2.0;
        for yy in 0..size as i32 {
            for xx in 0..size as i32 {
                let dx = xx as f32 + 0.5 - half;
                let dy = yy as f32 + 0.5 - half;
                let d = (dx * dx + dy * dy).sqrt() / (half * 1.45);
                let a = (1.25 * (1.0 - d)).clamp(0.0, 1.0);
                self.blend(x + xx, y + yy, c, a);
            }
        }
    }

    /// The pixel span `[x0, x1)` × `[y0, y1)` of a rectangle clipped to the canvas.
    fn clip(&self, x: i32, y: i32, w: u32, h: u32) -> Option<(usize, usize, usize, usize)> {
        clip_to(self.w, self.h, x, y, w, h)
    }

    /// Fills a rectangle.
    pub(crate) fn fill(&mut self, x: i32, y: i32, w: u32, h: u32, c: Rgb8) {
        let Some((x0, y0, x1, y1)) = self.clip(x, y, w, h) else {
            return;
        };
        let cw = self.w;
        let ix = &mut self.px;
        let i = ix.pal.flat(c);
        for row in y0..y1 {
            let a = ix.at(cw, x0, row);
            ix.rows[a..a + (x1 - x0)].fill(i);
        }
    }

    /// Blends a colour over a rectangle with opacity `a`.
    pub(crate) fn tint(&mut self, x: i32, y: i32, w: u32, h: u32, c: Rgb8, a: f32) {
        let Some((x0, y0, x1, y1)) = self.clip(x, y, w, h) else {
            return;
        };
        let k = (a.clamp(0.0, 1.0) * 256.0) as u32;
        let add = [c[0] as u32 * k, c[1] as u32 * k, c[2] as u32 * k];
        let tinted = |px: Rgb8| -> Rgb8 {
            [0, 1, 2].map(|i| ((px[i] as u32 * (256 - k) + add[i] + 128) >> 8) as u8)
        };
        let cw = self.w;
        let ix = &mut self.px;
        // Each entry is tinted once; a flat colour stays exact.
        let mut map = [u16::MAX; 256];
        for row in y0..y1 {
            let a = ix.at(cw, x0, row);
            let line = &mut ix.rows[a..a + (x1 - x0)];
            let first = line[0];
            if all_equal(line, first) && map[first as usize] != u16::MAX {
                line.fill(map[first as usize] as u8);
                continue;
            }
            for v in line.iter_mut() {
                let m = &mut map[*v as usize];
                if *m == u16::MAX {
                    let t = tinted(ix.pal.colour(*v));
                    *m = if ix.pal.is_flat(*v) {
                        ix.pal.flat(t)
                    } else {
                        ix.pal.near(t)
                    } as u16;
                }
                *v = *m as u8;
            }
        }
    }

    /// Blends a premultiplied RGBA block (`w` pixels a row, components 0–255) with its
    /// top-left corner at (x, y).
    pub(crate) fn blit_premul(&mut self, x: i32, y: i32, w: usize, px: &[[u8; 4]]) {
        if w == 0 {
            return;
        }
        let h = px.len() / w;
        let Some((x0, y0, x1, y1)) = self.clip(x, y, w as u32, h as u32) else {
            return;
        };
        let cw = self.w;
        let sx0 = (x0 as i64 - x as i64) as usize;
        for row in y0..y1 {
            let sy = (row as i64 - y as i64) as usize;
            let src = &px[sy * w + sx0..sy * w + sx0 + (x1 - x0)];
            let ix = &mut self.px;
            let a = ix.at(cw, x0, row);
            for (i, &s) in src.iter().enumerate() {
                if s[3] == 0 {
                    continue;
                }
                let d = ix.pal.colour(ix.rows[a + i]);
                ix.rows[a + i] = ix.pal.near(over(d, s));
            }
        }
    }

    /// The colour of a rectangle lying wholly on the canvas if all its pixels have that one
    /// colour.
    pub(crate) fn flat_colour(&self, x: i32, y: i32, w: u32, h: u32) -> Option<Rgb8> {
        let inside = x >= 0
            && y >= 0
            && x as i64 + w as i64 <= self.w as i64
            && y as i64 + h as i64 <= self.h as i64;
        if !inside || w == 0 || h == 0 {
            return None;
        }
        let (x0, y0, x1, y1) = (
            x as usize,
            y as usize,
            (x as u32 + w) as usize,
            (y as u32 + h) as usize,
        );
        let ix = &self.px;
        let first = ix.rows[ix.at(self.w, x0, y0)];
        (y0..y1)
            .all(|r| {
                let a = ix.at(self.w, x0, r);
                all_equal(&ix.rows[a..a + (x1 - x0)], first)
            })
            .then(|| ix.pal.colour(first))
    }

    /// Copies a tile with its top-left corner at (x, y), clipped to the canvas. The tile's
    /// colours are put into the palette once per picture.
    pub(crate) fn put_tile(&mut self, x: i32, y: i32, tile: &Arc<Tile>) {
        let w = tile.w;
        let h = tile.px.len() / w;
        let Some((x0, y0, x1, y1)) = self.clip(x, y, w as u32, h as u32) else {
            return;
        };
        let cw = self.w;
        let sx0 = (x0 as i64 - x as i64) as usize;
        let ix = &mut self.px;
        let found = ix.tiles.iter().position(|(t, _)| Arc::ptr_eq(t, tile));
        let k = match found {
            Some(k) => k,
            None => {
                let lut: Vec<u8> = tile
                    .colours
                    .iter()
                    .zip(&tile.flat)
                    .map(|(&c, &flat)| if flat { ix.pal.flat(c) } else { ix.pal.near(c) })
                    .collect();
                ix.tiles.push((Arc::clone(tile), tile.indices(lut)));
                ix.tiles.len() - 1
            }
        };
        let (rows, tiles) = (&mut ix.rows, &ix.tiles);
        let src = &tiles[k].1;
        for row in y0..y1 {
            let sy = (row as i64 - y as i64) as usize;
            let a = row * (cw as usize + 1) + 1 + x0;
            rows[a..a + (x1 - x0)].copy_from_slice(&src[sy * w + sx0..sy * w + sx0 + (x1 - x0)]);
        }
    }

    /// Draws a rectangle's border of thickness `t` inside the rectangle.
    pub(crate) fn frame(&mut self, x: i32, y: i32, w: u32, h: u32, t: u32, c: Rgb8) {
        let t = t.min(w / 2).min(h / 2).max(1);
        if w == 0 || h == 0 {
            return;
        }
        self.fill(x, y, w, t, c);
        self.fill(x, y + (h - t) as i32, w, t, c);
        self.fill(x, y, t, h, c);
        self.fill(x + (w - t) as i32, y, t, h, c);
    }

    /// Draws text; `y` is the vertical centre of capitals, `x` the anchor given by `align`.
    /// Returns the text's width.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn text(
        &mut self,
        font: &FontRef<'_>,
        px: f32,
        text: &str,
        x: f32,
        y: f32,
        align: Align,
        c: Rgb8,
    ) -> f32 {
        let baseline = (y + cap_height(px) / 2.0).round();
        // The width and the glyphs come from the cache (no kerning lookups again).
        let layout = text_masks(font, px, text);
        let w = layout.width;
        let left = match align {
            Align::Left => x,
            Align::Centre => x - w / 2.0,
        };
        let (ox, oy) = (left.round() as i32, baseline as i32);
        let (cw, ch) = (self.w as i32, self.h as i32);
        let ix = &mut self.px;
        let stride = cw as usize + 1;
        // Full coverage is the text colour's own entry.
        let ink = ix.pal.flat(c);
        // On a flat background (the rule), the block of coverage is mapped in one pass.
        let (bx, by, bw, bh) = layout.block_box;
        let (x0, y0) = (ox + bx, oy + by);
        let inside = bw > 0 && x0 >= 0 && y0 >= 0 && x0 + bw as i32 <= cw && y0 + bh as i32 <= ch;
        let at = |r: usize| (y0 as usize + r) * stride + 1 + x0 as usize;
        let flat_bg = inside
            .then(|| ix.rows[at(0)])
            .filter(|&bg| (0..bh).all(|r| all_equal(&ix.rows[at(r)..at(r) + bw], bg)));
        if let Some(bg) = flat_bg {
            let k = ink_table(&mut ix.inks, c, bg);
            let under = ix.pal.colour(bg);
            let mut table = [bg; 256];
            for &a in &layout.levels {
                let m = &mut ix.inks[k].2[a as usize];
                if *m == u16::MAX {
                    *m = if a == 255 {
                        ink
                    } else {
                        ix.pal.near(mix(under, c, a as f32 / 255.0))
                    } as u16;
                }
                table[a as usize] = *m as u8;
            }
            // Coverage 0 is the background already there: only the inked columns of each row.
            for (r, (line, &(c0, c1))) in
                layout.block.chunks_exact(bw).zip(&layout.inked).enumerate()
            {
                for (d, &v) in ix.rows[at(r) + c0..at(r) + c1]
                    .iter_mut()
                    .zip(&line[c0..c1])
                {
                    *d = table[v as usize];
                }
            }
            return w;
        }
        let maps = &mut ix.inks;
        let mut cur = usize::MAX;
        for g in &layout.glyphs {
            let gw = g.w.max(1);
            let gx0 = ox + g.x;
            // The glyph's columns on the canvas.
            let c0 = (-gx0).max(0) as usize;
            let c1 = ((cw - gx0).max(0) as usize).min(gw);
            if c0 >= c1 {
                continue;
            }
            for (row, line) in g.cov.chunks_exact(gw).enumerate() {
                let gy = oy + g.y + row as i32;
                if gy < 0 || gy >= ch {
                    continue;
                }
                let base = gy as usize * stride + 1 + (gx0 + c0 as i32) as usize;
                let dst = &mut ix.rows[base..base + (c1 - c0)];
                let pal = &mut ix.pal;
                for (d, &a) in dst.iter_mut().zip(&line[c0..c1]) {
                    match a {
                        0 => {}
                        255 => *d = ink,
                        _ => {
                            let bg = *d;
                            if cur >= maps.len() || maps[cur].1 != bg || maps[cur].0 != c {
                                cur = ink_table(maps, c, bg);
                            }
                            let m = &mut maps[cur].2[a as usize];
                            if *m == u16::MAX {
                                let under = pal.colour(bg);
                                *m = pal.near(mix(under, c, a as f32 / 255.0)) as u16;
                            }
                            *d = *m as u8;
                        }
                    }
                }
            }
        }
        w
    }

    /// A blank plate of `w`×`h` in colour `bg`, to be drawn and then put back on this
    /// picture with [`Canvas::put_plate`] (it shares this picture's palette meanwhile: draw
    /// nothing on this canvas until then).
    pub(crate) fn plate(&mut self, w: u32, h: u32, bg: Rgb8) -> Canvas {
        Canvas::indexed(w, h, bg, &[], std::mem::take(&mut self.px.pal))
    }

    /// Puts a plate made by [`Canvas::plate`] on this picture, turned, with its top-left
    /// corner at (x, y).
    pub(crate) fn put_plate(&mut self, plate: Canvas, turn: Turn, x: i32, y: i32) {
        let (pw, ph) = (plate.w as usize, plate.h as usize);
        // Where the plate's pixel (px, py) lands, relative to (x, y).
        let place = |px: usize, py: usize| match turn {
            Turn::None => (px, py),
            Turn::Clockwise => (ph - 1 - py, px),
            Turn::Anticlockwise => (py, pw - 1 - px),
        };
        let (ix, mut p) = (&mut self.px, plate.px);
        ix.pal = std::mem::take(&mut p.pal);
        let (cw, ch) = (self.w as i32, self.h as i32);
        let stride = cw as usize + 1;
        for py in 0..ph {
            let src = &p.rows[py * (pw + 1) + 1..(py + 1) * (pw + 1)];
            for (px, &v) in src.iter().enumerate() {
                let (dx, dy) = place(px, py);
                let (tx, ty) = (x + dx as i32, y + dy as i32);
                if tx >= 0 && ty >= 0 && tx < cw && ty < ch {
                    ix.rows[ty as usize * stride + 1 + tx as usize] = v;
                }
            }
        }
    }

    /// Encodes as an 8-bit indexed (palette) PNG.
    ///
    /// The indices and palette are the picture itself (see [`Palette`]); its rows are
    /// deflated as they are, by [`super::deflate`], which finds the repeats of the row above
    /// and of runs itself.
    pub(crate) fn encode(&self) -> Result<Vec<u8>, RenderError> {
        let _timed = crate::timing::Encoding::start();
        let data = super::deflate::encode_rows(&self.px.rows, self.w as usize + 1);
        Ok(png_file(self.w, self.h, &self.px.pal.bytes(), &data))
    }
}

/// A whole PNG file: an 8-bit indexed picture with its palette and deflated rows.
fn png_file(w: u32, h: u32, palette: &[u8], zdata: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(zdata.len() + palette.len() + 64);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut chunk = |name: &[u8; 4], data: &[u8]| {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut crc = crc32fast::Hasher::new();
        crc.update(name);
        crc.update(data);
        out.extend_from_slice(name);
        out.extend_from_slice(data);
        out.extend_from_slice(&crc.finalize().to_be_bytes());
    };
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    // Depth 8, colour type 3 (indexed), deflate, adaptive filtering, no interlace.
    ihdr.extend_from_slice(&[8, 3, 0, 0, 0]);
    chunk(b"IHDR", &ihdr);
    chunk(b"PLTE", palette);
    chunk(b"IDAT", zdata);
    chunk(b"IEND", &[]);
    out
}

/// Shortens `text` with an ellipsis until it fits in `max_w` pixels.
pub(crate) fn fit_text(font: &FontRef<'_>, px: f32, text: &str, max_w: f32) -> String {
    if text_width(font, px, text) <= max_w {
        return text.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let s: String = chars.iter().collect::<String>() + "…";
        if text_width(font, px, &s) <= max_w {
            return s;
        }
    }
    String::new()
}

/// Splits `text` into lines no wider than `max_w` (words longer than a line are shortened).
pub(crate) fn wrap_text(font: &FontRef<'_>, px: f32, text: &str, max_w: f32) -> Vec<String> {
    let key = (
        TextKey {
            font: font.font_data().as_ptr() as usize,
            px: px.to_bits(),
            text: text.to_string(),
        },
        max_w.to_bits(),
    );
    kept(&WRAPPED, key, 2_000, || {
        wrap_measured(font, px, text, max_w)
    })
}

/// [`wrap_text`] worked out afresh.
fn wrap_measured(font: &FontRef<'_>, px: f32, text: &str, max_w: f32) -> Vec<String> {
    let mut lines = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        for word in para.split_whitespace() {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if text_width(font, px, &candidate) <= max_w || line.is_empty() {
                line = candidate;
            } else {
                lines.push(fit_text(font, px, &line, max_w));
                line = word.to_string();
            }
        }
        lines.push(fit_text(font, px, &line, max_w));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wrapped text comes back from the cache as it was wrapped, at each width and size
    /// asked (the key holds all three).
    #[test]
    fn wrapped_texts_come_back_as_wrapped() {
        let fonts = crate::render::fonts().unwrap();
        let texts = [
            "Blake (blue) to move · Lou (lightgreen) locked until 15:20 UTC; Lou's W on d5 is locked until Blake moves",
            "Frozen: Bo (blue) has no king on this board; only a blue king drop unfreezes it",
            "short",
            "",
            "two\nparagraphs of words",
        ];
        for text in texts {
            for max_w in [40.0, 120.0, 300.0, 1000.0] {
                for px in [13.0, 15.0] {
                    let fresh = wrap_measured(&fonts.regular, px, text, max_w);
                    assert_eq!(wrap_text(&fonts.regular, px, text, max_w), fresh);
                    assert_eq!(wrap_text(&fonts.regular, px, text, max_w), fresh);
                }
            }
        }
        // Different widths wrap differently (so the width is part of the key).
        let long = texts[0];
        assert_ne!(
            wrap_text(&fonts.regular, 15.0, long, 120.0),
            wrap_text(&fonts.regular, 15.0, long, 1000.0)
        );
    }

    /// The coverage block of `text` laid out with the glyph cache as it stands (the laid-out
    /// texts forgotten first, so that the glyphs are looked up again).
    fn block_of(font: &FontRef<'_>, px: f32, text: &str) -> (Vec<u8>, (i32, i32, usize, usize)) {
        if let Ok(mut c) = text_cache().lock() {
            c.clear();
        }
        let l = text_masks(font, px, text);
        (l.block.clone(), l.block_box)
    }

    /// Texts laid out from glyphs kept from other texts (a clock that moved on, a longer
    /// status line) are the texts laid out from scratch, pixel for pixel.
    #[test]
    fn kept_glyphs_lay_out_texts_as_fresh_ones() {
        let fonts = crate::render::fonts().unwrap();
        let texts = [
            "action 41",
            "action 42",
            "Lena (lightgreen) to move · until 14:05 UTC",
            "Lena (lightgreen) to move · until 14:06 UTC",
            "Ruth (red) locked until 14:05 UTC or until Lena moves",
            "Rob holds the blue king",
            "Rob holds the red king",
        ];
        for font in [&fonts.bold, &fonts.regular, &fonts.condensed] {
            for px in [13.0, 15.5, 22.0] {
                // Warm: each text after all the others (most glyphs found at their places).
                clear_text_cache();
                for t in texts {
                    block_of(font, px, t);
                }
                let warm: Vec<_> = texts.iter().map(|t| block_of(font, px, t)).collect();
                for (t, w) in texts.iter().zip(&warm) {
                    clear_text_cache();
                    assert_eq!(&block_of(font, px, t), w, "{t:?} at {px} px");
                }
                GLYPHS.with(|g| assert!(!g.borrow().is_empty(), "glyphs were kept"));
            }
        }
    }

    proptest::proptest! {
        /// A canvas laid with rectangles is the canvas filled with them one after the other:
        /// overlapping, partly or wholly off the canvas, or empty.
        #[test]
        fn a_laid_canvas_is_the_filled_one(
            (w, h) in (1u32..60, 1u32..40),
            areas in proptest::collection::vec(
                (-20i32..70, -20i32..50, 0u32..50, 0u32..40, 0u8..4),
                0..6,
            ),
        ) {
            let colour = |k: u8| [40 * k, 200 - 30 * k, 90];
            let areas: Vec<(i32, i32, u32, u32, Rgb8)> = areas
                .into_iter()
                .map(|(x, y, aw, ah, k)| (x, y, aw, ah, colour(k)))
                .collect();
            // A spare row buffer of other pictures is left over in it first.
            drop(Canvas::new(70, 50, [1, 2, 3]));
            let laid = Canvas::laid(w, h, [250, 250, 250], &areas);
            let mut filled = Canvas::new(w, h, [250, 250, 250]);
            for &(x, y, aw, ah, c) in &areas {
                filled.fill(x, y, aw, ah, c);
            }
            proptest::prop_assert_eq!(laid.rows(), filled.rows());
        }
    }
}
