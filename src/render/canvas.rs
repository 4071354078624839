//! An RGB canvas with alpha blending, rectangles, anti-aliased text and PNG encoding.

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

/// An RGB picture being drawn.
pub(crate) struct Canvas {
    pub img: RgbImage,
}

impl Canvas {
    /// A canvas filled with one colour.
    pub fn new(w: u32, h: u32, bg: Rgb8) -> Canvas {
        Canvas {
            img: RgbImage::from_pixel(w.max(1), h.max(1), Rgb(bg)),
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
        for row in y0..y1 {
            let line = &mut buf[row * stride + x0 * 3..row * stride + x1 * 3];
            for px in line.chunks_exact_mut(3) {
                px.copy_from_slice(&c);
            }
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
        let w = text_width(font, px, text);
        let left = match align {
            Align::Left => x,
            Align::Centre => x - w / 2.0,
        };
        let baseline = (y + cap_height(px) / 2.0).round();
        rasterize_text(font, px, text, left.round(), baseline, |gx, gy, a| {
            self.blend(gx, gy, c, a.min(1.0))
        });
        w
    }

    /// Encodes as an indexed (palette) PNG (see [`quantize`]), rows filtered with `Up` and
    /// deflated at level 1: on board pictures this is about a quarter of the size of RGB with
    /// the fastest deflate, for about the same time.
    pub fn encode(&self) -> Result<Vec<u8>, RenderError> {
        let _timed = crate::timing::Encoding::start();
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
