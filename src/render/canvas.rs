//! An RGB canvas with alpha blending, rectangles, anti-aliased text and PNG encoding.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{Rgb, RgbImage};

use super::RenderError;

/// An opaque colour.
pub(crate) type Rgb8 = [u8; 3];

/// The fonts every picture uses: DejaVu Sans Bold for labels and DejaVu Sans Condensed Bold
/// for piece abbreviations (embedded by the `dejavu` crate, so nothing is read at run time).
pub(crate) struct Fonts {
    pub bold: FontRef<'static>,
    pub condensed: FontRef<'static>,
    pub regular: FontRef<'static>,
}

impl Fonts {
    /// Parses the embedded fonts.
    pub fn load() -> Result<Fonts, RenderError> {
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

/// Width in pixels of `text` at `px`.
pub(crate) fn text_width(font: &FontRef<'_>, px: f32, text: &str) -> f32 {
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

thread_local! {
    /// Whether this thread draws with the renderer as it was before the fast path (issue 21):
    /// every glyph rasterised on each use, pixel-by-pixel fills and piece blending. Only the
    /// benchmark turns it on, to compare both paths in one run.
    static LEGACY: Cell<bool> = const { Cell::new(false) };
}

/// Whether the legacy renderer is on for this thread (see [`with_legacy`]).
pub(crate) fn legacy() -> bool {
    LEGACY.with(Cell::get)
}

/// Runs `f` with the legacy renderer on or off for this thread, restoring the setting after.
pub(crate) fn with_legacy<T>(on: bool, f: impl FnOnce() -> T) -> T {
    let before = LEGACY.with(|l| l.replace(on));
    let out = f();
    LEGACY.with(|l| l.set(before));
    out
}

/// Fills `buf` (a whole number of pixels) with one colour at memory-copy speed: the first
/// pixel is written, then the filled part is doubled until the slice is full.
pub(crate) fn fill_pixels(buf: &mut [u8], c: Rgb8) {
    if buf.len() < 3 {
        return;
    }
    buf[..3].copy_from_slice(&c);
    let mut done = 3;
    while done < buf.len() {
        let n = done.min(buf.len() - done);
        buf.copy_within(..n, done);
        done += n;
    }
}

/// Whether every pixel of `buf` (a whole number of pixels) has colour `c`.
fn all_pixels(buf: &[u8], c: Rgb8) -> bool {
    // Compare 24-byte blocks (8 pixels) against the colour repeated, then the rest.
    let mut block = [0u8; 24];
    for px in block.chunks_exact_mut(3) {
        px.copy_from_slice(&c);
    }
    let mut chunks = buf.chunks_exact(24);
    chunks.all(|ch| ch == block) && chunks.remainder().chunks_exact(3).all(|px| px == c)
}

/// One glyph of a laid-out text: its pixel box relative to the text's left end on the
/// baseline, and its coverage.
struct GlyphMask {
    x: i32,
    y: i32,
    w: usize,
    cov: Vec<f32>,
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
    glyphs: Vec<GlyphMask>,
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
    }
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
        let glyph = id.with_scale_and_position(px, ab_glyph::point(caret, 0.0));
        caret += f.h_advance(id);
        prev = Some(id);
        if let Some(outlined) = font.outline_glyph(glyph) {
            let b = outlined.px_bounds();
            let w = b.width() as usize;
            let h = b.height() as usize;
            let mut cov = vec![0.0f32; w * h];
            outlined.draw(|gx, gy, c| {
                if let Some(v) = cov.get_mut(gy as usize * w + gx as usize) {
                    *v = c;
                }
            });
            masks.push(GlyphMask {
                x: b.min.x as i32,
                y: b.min.y as i32,
                w,
                cov,
            });
        }
    }
    let masks = Arc::new(TextLayout {
        width: text_width(font, px, text),
        glyphs: masks,
    });
    if let Ok(mut c) = text_cache().lock() {
        if c.len() > 20_000 {
            c.clear();
        }
        c.insert(key, Arc::clone(&masks));
    }
    masks
}

/// An RGB picture being drawn.
pub(crate) struct Canvas {
    pub img: RgbImage,
}

impl Canvas {
    /// A canvas filled with one colour.
    pub fn new(w: u32, h: u32, bg: Rgb8) -> Canvas {
        let (w, h) = (w.max(1), h.max(1));
        if legacy() {
            return Canvas {
                img: RgbImage::from_pixel(w, h, Rgb(bg)),
            };
        }
        // Built by doubling, never zeroed first (a zeroed vector of this size is a memset
        // of megabytes).
        let total = w as usize * h as usize * 3;
        let mut buf = Vec::with_capacity(total);
        buf.extend_from_slice(&bg);
        while buf.len() < total {
            let n = buf.len().min(total - buf.len());
            buf.extend_from_within(..n);
        }
        match RgbImage::from_raw(w, h, buf) {
            Some(img) => Canvas { img },
            None => Canvas {
                img: RgbImage::from_pixel(w, h, Rgb(bg)),
            },
        }
    }

    /// Blends a colour into one pixel with coverage `a` (0–1); off-canvas pixels are ignored.
    #[inline]
    pub fn blend(&mut self, x: i32, y: i32, c: Rgb8, a: f32) {
        if x < 0 || y < 0 || a <= 0.0 {
            return;
        }
        let (x, y) = (x as u32, y as u32);
        if x >= self.img.width() || y >= self.img.height() {
            return;
        }
        let p = self.img.get_pixel_mut(x, y);
        if a >= 1.0 {
            p.0 = c;
            return;
        }
        for (d, &s) in p.0.iter_mut().zip(&c) {
            *d = (*d as f32 + (s as f32 - *d as f32) * a + 0.5) as u8;
        }
    }

    /// The pixel span `[x0, x1)` × `[y0, y1)` of a rectangle clipped to the canvas.
    fn clip(&self, x: i32, y: i32, w: u32, h: u32) -> Option<(usize, usize, usize, usize)> {
        let (cw, ch) = (self.img.width() as i64, self.img.height() as i64);
        let x0 = (x as i64).clamp(0, cw);
        let y0 = (y as i64).clamp(0, ch);
        let x1 = (x as i64 + w as i64).clamp(0, cw);
        let y1 = (y as i64 + h as i64).clamp(0, ch);
        (x0 < x1 && y0 < y1).then_some((x0 as usize, y0 as usize, x1 as usize, y1 as usize))
    }

    /// Fills a rectangle.
    pub fn fill(&mut self, x: i32, y: i32, w: u32, h: u32, c: Rgb8) {
        let Some((x0, y0, x1, y1)) = self.clip(x, y, w, h) else {
            return;
        };
        let stride = self.img.width() as usize * 3;
        let buf: &mut [u8] = &mut self.img;
        if legacy() {
            for row in y0..y1 {
                let line = &mut buf[row * stride + x0 * 3..row * stride + x1 * 3];
                for px in line.chunks_exact_mut(3) {
                    px.copy_from_slice(&c);
                }
            }
            return;
        }
        // The first row by doubling, every other row copied from it.
        let first = y0 * stride + x0 * 3..y0 * stride + x1 * 3;
        fill_pixels(&mut buf[first.clone()], c);
        for row in y0 + 1..y1 {
            buf.copy_within(first.clone(), row * stride + x0 * 3);
        }
    }

    /// Blends a colour over a rectangle with opacity `a`.
    pub fn tint(&mut self, x: i32, y: i32, w: u32, h: u32, c: Rgb8, a: f32) {
        let Some((x0, y0, x1, y1)) = self.clip(x, y, w, h) else {
            return;
        };
        let k = (a.clamp(0.0, 1.0) * 256.0) as u32;
        let add = [c[0] as u32 * k, c[1] as u32 * k, c[2] as u32 * k];
        let stride = self.img.width() as usize * 3;
        let buf: &mut [u8] = &mut self.img;
        let mix = |px: &[u8]| -> Rgb8 {
            [0, 1, 2].map(|i| ((px[i] as u32 * (256 - k) + add[i] + 128) >> 8) as u8)
        };
        if !legacy() {
            // A flat area (a square) is tinted by filling it with the tinted colour.
            let start = y0 * stride + x0 * 3;
            let flat: Rgb8 = [buf[start], buf[start + 1], buf[start + 2]];
            let uniform = (y0..y1)
                .all(|row| all_pixels(&buf[row * stride + x0 * 3..row * stride + x1 * 3], flat));
            if uniform {
                let out = mix(&flat);
                self.fill(
                    x0 as i32,
                    y0 as i32,
                    (x1 - x0) as u32,
                    (y1 - y0) as u32,
                    out,
                );
                return;
            }
        }
        for row in y0..y1 {
            let line = &mut buf[row * stride + x0 * 3..row * stride + x1 * 3];
            for px in line.chunks_exact_mut(3) {
                for i in 0..3 {
                    px[i] = ((px[i] as u32 * (256 - k) + add[i] + 128) >> 8) as u8;
                }
            }
        }
    }

    /// Blends a premultiplied RGBA block (`w` pixels a row, components 0–255) with its
    /// top-left corner at (x, y).
    pub fn blit_premul(&mut self, x: i32, y: i32, w: usize, px: &[[u8; 4]]) {
        if w == 0 {
            return;
        }
        let h = px.len() / w;
        let Some((x0, y0, x1, y1)) = self.clip(x, y, w as u32, h as u32) else {
            return;
        };
        let stride = self.img.width() as usize * 3;
        let buf: &mut [u8] = &mut self.img;
        for row in y0..y1 {
            let sy = (row as i64 - y as i64) as usize;
            let sx0 = (x0 as i64 - x as i64) as usize;
            let src = &px[sy * w + sx0..sy * w + sx0 + (x1 - x0)];
            let line = &mut buf[row * stride + x0 * 3..row * stride + x1 * 3];
            for (d, s) in line.chunks_exact_mut(3).zip(src) {
                match s[3] {
                    0 => {}
                    255 => d.copy_from_slice(&s[..3]),
                    a => {
                        let k = 255 - a as u32;
                        for i in 0..3 {
                            d[i] = (s[i] as u32 + (d[i] as u32 * k + 127) / 255).min(255) as u8;
                        }
                    }
                }
            }
        }
    }

    /// The colour of a rectangle lying wholly on the canvas if all its pixels have that one
    /// colour.
    pub fn flat_colour(&self, x: i32, y: i32, w: u32, h: u32) -> Option<Rgb8> {
        let (cw, ch) = (self.img.width() as i64, self.img.height() as i64);
        let inside = x >= 0 && y >= 0 && x as i64 + w as i64 <= cw && y as i64 + h as i64 <= ch;
        if !inside || w == 0 || h == 0 {
            return None;
        }
        let (x0, y0, x1, y1) = (
            x as usize,
            y as usize,
            (x as u32 + w) as usize,
            (y as u32 + h) as usize,
        );
        let stride = cw as usize * 3;
        let buf: &[u8] = &self.img;
        let start = y0 * stride + x0 * 3;
        let c: Rgb8 = [buf[start], buf[start + 1], buf[start + 2]];
        (y0..y1)
            .all(|row| all_pixels(&buf[row * stride + x0 * 3..row * stride + x1 * 3], c))
            .then_some(c)
    }

    /// Copies an RGB block (`w` pixels a row) with its top-left corner at (x, y), clipped to
    /// the canvas.
    pub fn put_rows(&mut self, x: i32, y: i32, w: usize, rgb: &[u8]) {
        if w == 0 {
            return;
        }
        let h = rgb.len() / (3 * w);
        let Some((x0, y0, x1, y1)) = self.clip(x, y, w as u32, h as u32) else {
            return;
        };
        let stride = self.img.width() as usize * 3;
        let buf: &mut [u8] = &mut self.img;
        let sx0 = (x0 as i64 - x as i64) as usize;
        for row in y0..y1 {
            let sy = (row as i64 - y as i64) as usize;
            let src = &rgb[(sy * w + sx0) * 3..(sy * w + sx0 + (x1 - x0)) * 3];
            buf[row * stride + x0 * 3..row * stride + x1 * 3].copy_from_slice(src);
        }
    }

    /// Draws a rectangle's border of thickness `t` inside the rectangle.
    pub fn frame(&mut self, x: i32, y: i32, w: u32, h: u32, t: u32, c: Rgb8) {
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
    pub fn text(
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
        if legacy() {
            let w = text_width(font, px, text);
            let left = match align {
                Align::Left => x,
                Align::Centre => x - w / 2.0,
            };
            rasterize_text(font, px, text, left.round(), baseline, |gx, gy, a| {
                self.blend(gx, gy, c, a.min(1.0))
            });
            return w;
        }
        // The width and the glyphs come from the cache (no kerning lookups again).
        let layout = text_masks(font, px, text);
        let w = layout.width;
        let left = match align {
            Align::Left => x,
            Align::Centre => x - w / 2.0,
        };
        let (ox, oy) = (left.round() as i32, baseline as i32);
        let (cw, ch) = (self.img.width() as i32, self.img.height() as i32);
        let stride = cw as usize * 3;
        let buf: &mut [u8] = &mut self.img;
        for g in &layout.glyphs {
            let gx0 = ox + g.x;
            for (row, line) in g.cov.chunks_exact(g.w.max(1)).enumerate() {
                let gy = oy + g.y + row as i32;
                if gy < 0 || gy >= ch {
                    continue;
                }
                let base = gy as usize * stride;
                for (col, &a) in line.iter().enumerate() {
                    let gx = gx0 + col as i32;
                    if gx < 0 || gx >= cw || a <= 0.0 {
                        continue;
                    }
                    // As `blend` does it, without its checks for every pixel.
                    let at = base + gx as usize * 3;
                    let p = &mut buf[at..at + 3];
                    if a >= 1.0 {
                        p.copy_from_slice(&c);
                        continue;
                    }
                    for (d, &s) in p.iter_mut().zip(&c) {
                        *d = (*d as f32 + (s as f32 - *d as f32) * a + 0.5) as u8;
                    }
                }
            }
        }
        w
    }

    /// Encodes as an indexed (palette) PNG (see [`quantize`]), rows filtered with `Up` and
    /// deflated at level 1: on board pictures this is about a quarter of the size of RGB with
    /// the fastest deflate, for about the same time.
    ///
    /// The fast path gives the same palette and pixels, but reduces the colours row by row
    /// (a row equal to the one above is not looked at again) straight into the filtered
    /// buffer and deflates it in one call, writing the PNG chunks itself: the `png` crate's
    /// writer feeds its deflater two writes a row, and each write clears the whole spare
    /// output buffer again (a third of the old encoding time).
    pub fn encode(&self) -> Result<Vec<u8>, RenderError> {
        let _timed = crate::timing::Encoding::start();
        if legacy() {
            return self.encode_legacy();
        }
        let (w, h) = (self.img.width(), self.img.height());
        let (palette, mut rows) = quantize_rows(self.img.as_raw(), w as usize);
        filter_up(&mut rows, w as usize + 1);
        let data = zlib_rows(&rows, w as usize + 1)?;
        Ok(png_file(w, h, &palette, &data))
    }

    /// The encoder before the fast path (`png`'s writer), for the benchmark.
    fn encode_legacy(&self) -> Result<Vec<u8>, RenderError> {
        let (w, h) = (self.img.width(), self.img.height());
        let (palette, indices) = quantize(self.img.as_raw());
        let mut out = Vec::with_capacity(64 * 1024);
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(palette);
        enc.set_deflate_compression(png::DeflateCompression::Level(1));
        enc.set_filter(png::Filter::Up);
        let mut writer = enc.write_header()?;
        writer.write_image_data(&indices)?;
        writer.finish()?;
        Ok(out)
    }
}

/// Output space offered to the deflater on each call: what the `png` crate's writer offers
/// (its buffer of 32 KiB, emptied before every call). Level 1 ends a block when the output
/// space runs short, so offering the same space gives the same stream.
const ZLIB_WINDOW: usize = 32 * 1024;

/// Deflates PNG rows (`stride` bytes each: the filter-type byte, then the row) into a zlib
/// stream at level 1, fed to the deflater exactly as the `png` crate feeds it (the filter
/// byte, then the row, with the same output space), so that the stream is the old encoder's;
/// but into one output buffer, where the crate's writer cleared its whole spare output space
/// again on every one of those writes (a memset of 32 KiB twice a row).
fn zlib_rows(rows: &[u8], stride: usize) -> Result<Vec<u8>, RenderError> {
    let err = |e: flate2::CompressError| RenderError::Message(format!("deflate: {e}"));
    let mut z = flate2::Compress::new(flate2::Compression::new(1), true);
    // Grown as needed; pictures deflate to a tenth or less.
    let mut out = vec![0u8; rows.len() / 8 + 2 * ZLIB_WINDOW];
    let mut step = |z: &mut flate2::Compress, data: &[u8], flush| {
        let o0 = z.total_out() as usize;
        if out.len() < o0 + ZLIB_WINDOW {
            let more = out.len().max(ZLIB_WINDOW);
            out.resize(out.len() + more, 0);
        }
        z.compress(data, &mut out[o0..o0 + ZLIB_WINDOW], flush)
            .map_err(err)
    };
    for row in rows.chunks(stride.max(1)) {
        let (kind, line) = row.split_at(1.min(row.len()));
        for data in [kind, line] {
            let mut fed = 0;
            while fed < data.len() {
                let i0 = z.total_in();
                step(&mut z, &data[fed..], flate2::FlushCompress::None)?;
                fed += (z.total_in() - i0) as usize;
            }
        }
    }
    while step(&mut z, &[], flate2::FlushCompress::Finish)? != flate2::Status::StreamEnd {}
    out.truncate(z.total_out() as usize);
    Ok(out)
}

/// Filters rows of `stride` bytes (a filter-type byte, then the row) with PNG's `Up` filter in
/// place: each byte becomes its difference from the byte above. Rows are done bottom-up so
/// that the row above is still unfiltered.
fn filter_up(rows: &mut [u8], stride: usize) {
    let n = rows.len() / stride.max(1);
    for r in (0..n).rev() {
        rows[r * stride] = 2;
        if r == 0 {
            break;
        }
        let (above, this) = rows.split_at_mut(r * stride);
        let above = &above[(r - 1) * stride + 1..];
        for (d, &u) in this[1..stride].iter_mut().zip(above) {
            *d = d.wrapping_sub(u);
        }
    }
}

/// A whole PNG file: an 8-bit indexed picture with its palette and deflated, filtered rows.
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

/// Bins of the colour reduction: 5 bits a channel.
const BINS: usize = 1 << 15;

#[inline]
fn bin_of(k: u32) -> usize {
    (((k >> 9) & 0x7c00) | ((k >> 6) & 0x3e0) | ((k >> 3) & 0x1f)) as usize
}

/// Reusable buffers of [`quantize_rows`], one set a thread.
struct Scratch {
    runs: Vec<(u32, u32)>,
    count: Vec<u32>,
    sum: Vec<[u64; 3]>,
    /// The palette of the last picture, and for colours outside it the nearest entry found.
    /// Successive pictures of a game mostly have the same palette, so the search (a distance
    /// to each of 256 entries for each of hundreds of anti-aliasing colours) is done once.
    memo_palette: Vec<u8>,
    memo: HashMap<[u8; 3], u8>,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            runs: Vec::new(),
            count: vec![0; BINS],
            sum: vec![[0; 3]; BINS],
            memo_palette: Vec::new(),
            memo: HashMap::new(),
        }
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::new());
}

/// Appends the runs of equal pixels in one row to `runs`, as (colour, length). Neighbouring
/// pixels are compared eight bytes at a time (the row against itself shifted by a pixel), so
/// a flat stretch costs a few instructions per eight bytes.
fn row_runs(row: &[u8], runs: &mut Vec<(u32, u32)>) {
    let n = row.len() / 3;
    if n == 0 {
        return;
    }
    let key =
        |i: usize| (row[i * 3] as u32) << 16 | (row[i * 3 + 1] as u32) << 8 | row[i * 3 + 2] as u32;
    let word = |s: &[u8], at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&s[at..at + 8]);
        u64::from_le_bytes(b)
    };
    let (cur, prev) = (&row[3..n * 3], &row[..(n - 1) * 3]);
    let len = cur.len();
    let mut start = 0usize;
    // Byte offset in `cur` from which to look for the next difference.
    let mut off = 0usize;
    loop {
        let mut diff = None;
        while off + 8 <= len {
            let x = word(cur, off) ^ word(prev, off);
            if x != 0 {
                diff = Some(off + (x.trailing_zeros() / 8) as usize);
                break;
            }
            off += 8;
        }
        if diff.is_none() {
            diff = (off..len).find(|&i| cur[i] != prev[i]);
        }
        let Some(d) = diff else { break };
        // Byte d of `cur` belongs to pixel d / 3 + 1, which starts a new run.
        let j = d / 3 + 1;
        runs.push((key(start), (j - start) as u32));
        start = j;
        off = j * 3;
    }
    runs.push((key(start), (n - start) as u32));
}

/// [`quantize`] done row by row into PNG rows: returns the palette and, per row, a filter-type
/// byte (left 0) followed by the row's palette indices. The palette and the indices are those
/// of [`quantize`]; a row equal to the one above is copied instead of looked at.
pub(crate) fn quantize_rows(rgb: &[u8], width: usize) -> (Vec<u8>, Vec<u8>) {
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut s) => quantize_rows_with(&mut s, rgb, width),
        Err(_) => quantize_rows_with(&mut Scratch::new(), rgb, width),
    })
}

fn quantize_rows_with(s: &mut Scratch, rgb: &[u8], width: usize) -> (Vec<u8>, Vec<u8>) {
    let width = width.max(1);
    let row_bytes = width * 3;
    let height = rgb.len() / row_bytes;
    let runs = &mut s.runs;
    runs.clear();
    // Each row's range in `runs`, and whether it repeats the row above.
    let mut spans: Vec<(usize, usize, bool)> = Vec::with_capacity(height);
    for r in 0..height {
        let row = &rgb[r * row_bytes..(r + 1) * row_bytes];
        let start = runs.len();
        let dup = r > 0 && row == &rgb[(r - 1) * row_bytes..r * row_bytes];
        if dup {
            let (a, b, _) = spans[r - 1];
            runs.extend_from_within(a..b);
        } else {
            row_runs(row, runs);
        }
        spans.push((start, runs.len(), dup));
    }
    let (count, sum) = (&mut s.count, &mut s.sum);
    let mut used = Vec::new();
    for &(k, n) in runs.iter() {
        let b = bin_of(k);
        if count[b] == 0 {
            used.push(b);
        }
        count[b] += n;
        let s = &mut sum[b];
        let n = n as u64;
        s[0] += (k >> 16) as u64 * n;
        s[1] += ((k >> 8) & 0xff) as u64 * n;
        s[2] += (k & 0xff) as u64 * n;
    }
    let (palette, map) = palette_of(count, sum, used, &mut s.memo_palette, &mut s.memo);
    let stride = width + 1;
    let mut out = vec![0u8; stride * height];
    for (r, &(a, b, dup)) in spans.iter().enumerate() {
        let (above, this) = out.split_at_mut(r * stride);
        let line = &mut this[1..stride];
        if dup {
            line.copy_from_slice(&above[(r - 1) * stride + 1..]);
            continue;
        }
        let mut at = 0usize;
        for &(k, n) in &runs[a..b] {
            let (v, n) = (map[bin_of(k)], n as usize);
            // Short runs (most of them, at anti-aliased edges) are one 8-byte store; what it
            // writes past the run, the runs after it overwrite.
            if n <= 8 && at + 8 <= line.len() {
                line[at..at + 8].copy_from_slice(&[v; 8]);
            } else if let Some(dst) = line.get_mut(at..at + n) {
                dst.fill(v);
            }
            at += n;
        }
    }
    (palette, out)
}

/// The palette of the 256 fullest bins (each its average colour) and every bin's index, the
/// other bins mapping to the nearest palette colour; as [`quantize`] chooses them. Leaves the
/// counts and sums of the `used` bins zero again.
fn palette_of(
    count: &mut [u32],
    sum: &mut [[u64; 3]],
    mut used: Vec<usize>,
    memo_palette: &mut Vec<u8>,
    memo: &mut HashMap<[u8; 3], u8>,
) -> (Vec<u8>, Vec<u8>) {
    used.sort_by(|&a, &b| count[b].cmp(&count[a]).then(a.cmp(&b)));
    let avg = |b: usize| {
        let n = count[b].max(1) as u64;
        [
            ((sum[b][0] + n / 2) / n) as u8,
            ((sum[b][1] + n / 2) / n) as u8,
            ((sum[b][2] + n / 2) / n) as u8,
        ]
    };
    let chosen = &used[..used.len().min(256)];
    let colours: Vec<[u8; 3]> = chosen.iter().map(|&b| avg(b)).collect();
    // The palette channel by channel, for a nearest-colour search the compiler vectorises.
    let chan = |k: usize| -> Vec<i32> { colours.iter().map(|c| c[k] as i32).collect() };
    let (pr, pg, pb) = (chan(0), chan(1), chan(2));
    let mut map = vec![0u8; BINS];
    for (i, &b) in chosen.iter().enumerate() {
        map[b] = i as u8;
    }
    let palette: Vec<u8> = colours.iter().flatten().copied().collect();
    if *memo_palette != palette || memo.len() > 1 << 16 {
        memo.clear();
        memo_palette.clone_from(&palette);
    }
    for &b in used.iter().skip(256) {
        let c = avg(b);
        map[b] = *memo.entry(c).or_insert_with(|| {
            let c = c.map(|v| v as i32);
            let mut best = (u32::MAX, 0usize);
            for i in 0..pr.len() {
                let (dr, dg, db) = (c[0] - pr[i], c[1] - pg[i], c[2] - pb[i]);
                let d = (dr * dr + dg * dg + db * db) as u32;
                if d < best.0 {
                    best = (d, i);
                }
            }
            best.1 as u8
        });
    }
    for &b in &used {
        count[b] = 0;
        sum[b] = [0; 3];
    }
    (palette, map)
}

/// Reduces an RGB picture to at most 256 colours, fast.
///
/// Pixels are counted in 32768 bins (5 bits per channel); the 256 fullest bins become the
/// palette, each as the average colour of its pixels (exact for the flat colours that fill
/// most of a board picture), and every other bin maps to the nearest palette colour. Only
/// anti-aliased edge pixels move, and by a few levels at most.
pub(crate) fn quantize(rgb: &[u8]) -> (Vec<u8>, Vec<u8>) {
    const BINS: usize = 1 << 15;
    let bin = |k: u32| (((k >> 9) & 0x7c00) | ((k >> 6) & 0x3e0) | ((k >> 3) & 0x1f)) as usize;
    // Runs of one colour are the rule (squares, panels), so work on runs, not pixels.
    let mut runs: Vec<(u32, u32)> = Vec::with_capacity(rgb.len() / 64);
    let mut last = u32::MAX;
    let mut n = 0u32;
    for p in rgb.chunks_exact(3) {
        let k = (p[0] as u32) << 16 | (p[1] as u32) << 8 | p[2] as u32;
        if k == last {
            n += 1;
        } else {
            if n > 0 {
                runs.push((last, n));
            }
            last = k;
            n = 1;
        }
    }
    if n > 0 {
        runs.push((last, n));
    }
    let mut count = vec![0u32; BINS];
    let mut sum = vec![[0u64; 3]; BINS];
    for &(k, n) in &runs {
        let b = bin(k);
        count[b] += n;
        let s = &mut sum[b];
        let n = n as u64;
        s[0] += (k >> 16) as u64 * n;
        s[1] += ((k >> 8) & 0xff) as u64 * n;
        s[2] += (k & 0xff) as u64 * n;
    }
    let mut used: Vec<usize> = (0..BINS).filter(|&b| count[b] > 0).collect();
    used.sort_by(|&a, &b| count[b].cmp(&count[a]).then(a.cmp(&b)));
    let avg = |b: usize| {
        let n = count[b].max(1) as u64;
        [
            ((sum[b][0] + n / 2) / n) as u8,
            ((sum[b][1] + n / 2) / n) as u8,
            ((sum[b][2] + n / 2) / n) as u8,
        ]
    };
    let chosen: Vec<usize> = used.iter().copied().take(256).collect();
    let colours: Vec<[u8; 3]> = chosen.iter().map(|&b| avg(b)).collect();
    let mut map = vec![0u8; BINS];
    for (i, &b) in chosen.iter().enumerate() {
        map[b] = i as u8;
    }
    for &b in used.iter().skip(256) {
        let c = avg(b);
        let mut best = (u32::MAX, 0usize);
        for (i, p) in colours.iter().enumerate() {
            let d: u32 = (0..3)
                .map(|k| {
                    let v = c[k] as i32 - p[k] as i32;
                    (v * v) as u32
                })
                .sum();
            if d < best.0 {
                best = (d, i);
            }
        }
        map[b] = best.1 as u8;
    }
    let mut indices = vec![0u8; rgb.len() / 3];
    let mut at = 0usize;
    for &(k, n) in &runs {
        let end = at + n as usize;
        if let Some(dst) = indices.get_mut(at..end) {
            dst.fill(map[bin(k)]);
        }
        at = end;
    }
    let palette: Vec<u8> = colours.iter().flatten().copied().collect();
    (palette, indices)
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
