//! Replays (issue 44): a game as one animated GIF, its frames drawn by the game's own
//! renderer.
//!
//! A game hands over its pictures as data ([`Still`]: the position before the first action
//! shown, then one per action that changed the board), each with a caption; this module draws
//! them with a caption band on top and writes the GIF:
//! - Frames are taken as the canvas holds them (palette indices), never decoded from a PNG.
//! - One palette for the whole replay, fixed before the frames are written (issue 55): a few
//!   frames (the first, the last and up to ten between) are drawn and their colours counted;
//!   the most used colours make the palette (a colour within a few levels of one already in
//!   it shares that entry), and every frame's entries map to their nearest. The last entry
//!   is kept for transparency. The screen is the largest of those frames and of the pictures
//!   whose size is known without drawing them (KFB's); a frame larger still starts the pass
//!   again on a screen that holds it.
//! - Frames are drawn once, each KFB picture over the one before it (only the parts that
//!   changed, as the bot draws a move's picture).
//! - Every frame after the first is only what changed, its unchanged pixels transparent,
//!   laid over the frame before it: the caption band's rectangle and the picture's, each its
//!   own (the band's shown for a fiftieth of a second first), so a move is a few squares and
//!   a caption rather than one rectangle from the caption down to the board.
//! - Frames keep one size: the largest picture; a smaller one is padded with the page colour.
//! - The file stays under a byte limit (Discord's upload limit): when a pass runs over it, the
//!   replay is drawn again at a smaller scale, and at the smallest with frames skipped (the
//!   captions keep the action numbers, so a gap shows), rather than fail. A pass stops as
//!   soon as it runs over, and the next one is chosen from how fast it grew.

use std::collections::HashMap;
use std::time::Instant;

use super::board::{DIM, PAGE, PANEL, TEXT};
use super::canvas::{fit_text, Align, Canvas, Rgb8};
use super::{fonts, ChexView, CrossView, KfbView, LastMove, NomicView, RenderError};
use crate::engine::Position;

/// Discord's upload limit for a bot's message (10 MiB).
pub const UPLOAD_LIMIT: usize = 10 * 1024 * 1024;

/// Height of the caption band above each frame's picture, at full scale.
pub const CAPTION_HEIGHT: u32 = 58;

/// The palette entry kept for transparency (pixels a frame leaves as they were).
const CLEAR: u8 = 255;

/// The scales a replay is tried at, largest first; at the last, frames are skipped.
const SCALES: [f32; 4] = [1.0, 0.75, 0.5, 0.375];

/// One game picture as data, to be drawn as a replay's frame.
#[derive(Clone, Debug)]
pub enum Still {
    /// Kung Fu Bughouse's three boards.
    Kfb(Box<KfbView>),
    /// One board of any game of the engine (a single KFB board, with `board:`).
    Board {
        /// The position.
        position: Box<Position>,
        /// The last move's squares.
        last: Option<LastMove>,
        /// Colours, caption and orientation.
        options: super::RenderOptions,
    },
    /// Ultimate Chess's cross board.
    Ultimate(Box<CrossView>),
    /// A Chex board (see [`ChexView::reframed`] for one frame over a whole game).
    Chex(Box<ChexView>),
    /// A Party Chess board.
    Party(Box<super::party::PartyView>),
    /// Nomic Chess's half-boards and joined board.
    Nomic(Box<NomicView>),
}

impl Still {
    fn draw(&self) -> Result<Canvas, RenderError> {
        match self {
            Still::Kfb(v) => super::kfb::draw_kfb(v),
            Still::Board {
                position,
                last,
                options,
            } => super::draw_position(position, last.clone(), options),
            Still::Ultimate(v) => super::ultimate::draw_ultimate(v),
            Still::Chex(v) => super::chex::draw_chex(v),
            Still::Party(v) => super::party::draw_party(v),
            Still::Nomic(v) => super::nomic::draw_nomic(v),
        }
    }

    /// The picture's size when it is known without drawing it (KFB's three boards).
    fn size_hint(&self) -> Option<(u32, u32)> {
        match self {
            Still::Kfb(v) => super::kfb::kfb_size(v).ok(),
            _ => None,
        }
    }

    /// The picture, drawn over `kept` (the last KFB picture of the replay) when it is one
    /// of KFB's three boards: only what changed is drawn again.
    fn draw_over<'a>(
        &self,
        kept: &'a mut Option<super::kfb::KeptKfb>,
        own: &'a mut Option<Canvas>,
    ) -> Result<&'a Canvas, RenderError> {
        match self {
            Still::Kfb(v) => {
                let k = super::kfb::draw_kfb_over((**v).clone(), kept.take())?;
                Ok(kept.insert(k).canvas())
            }
            other => Ok(own.insert(other.draw()?)),
        }
    }

    /// The picture's own title line(s) as it draws them (whose turn, or the result).
    pub fn headline(&self) -> String {
        match self {
            Still::Kfb(v) => v.title.clone(),
            Still::Board { options, .. } => options.caption.clone().unwrap_or_default(),
            Still::Ultimate(v) => format!("{} · {}", v.title, v.note),
            Still::Chex(v) => format!(
                "{} · {} · last: {}",
                v.title,
                v.status,
                v.last_text.as_deref().unwrap_or("none")
            ),
            Still::Party(v) => format!("{} · {}", v.title, v.to_play),
            Still::Nomic(v) => format!("{} · {}", v.title, v.lines.join(" · ")),
        }
    }

    /// The picture alone, as PNG bytes (what a frame shows below its caption).
    ///
    /// # Errors
    /// The font cannot be read.
    pub fn png(&self) -> Result<Vec<u8>, RenderError> {
        self.draw()?.encode()
    }
}

/// One frame of a replay: its caption (`#12 ann Nb1-c3`) and its picture.
#[derive(Clone, Debug)]
pub struct ReplayFrame {
    /// The caption line.
    pub caption: String,
    /// The picture.
    pub still: Still,
}

/// How fast a replay runs (`speed:`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Speed {
    /// Two seconds a frame.
    Slow,
    /// One second a frame.
    #[default]
    Normal,
    /// Half a second a frame.
    Fast,
}

impl Speed {
    /// Every speed, as `speed:` names them.
    pub const ALL: [(&'static str, Speed); 3] = [
        ("slow", Speed::Slow),
        ("normal", Speed::Normal),
        ("fast", Speed::Fast),
    ];

    /// The speed `speed:` names (any case).
    pub fn parse(text: &str) -> Option<Speed> {
        let text = text.trim().to_lowercase();
        Speed::ALL
            .iter()
            .find(|(name, _)| *name == text)
            .map(|&(_, s)| s)
    }

    /// How long each frame shows, in hundredths of a second (GIF's unit).
    pub fn delay(self) -> u16 {
        match self {
            Speed::Slow => 200,
            Speed::Normal => 100,
            Speed::Fast => 50,
        }
    }

    /// How long the last frame shows: four frames' time.
    pub fn hold(self) -> u16 {
        self.delay() * 4
    }
}

/// What to draw: a title line (the game and its players), the frames, the speed and the
/// byte limit.
#[derive(Clone, Debug)]
pub struct ReplaySpec {
    /// The second line of every caption band (`Chex · ann vs ben`).
    pub header: String,
    /// The frames, first to last.
    pub frames: Vec<ReplayFrame>,
    /// How fast.
    pub speed: Speed,
    /// The most bytes the file may have.
    pub limit: usize,
}

/// A replay as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    /// The GIF file.
    pub gif: Vec<u8>,
    /// Frames in it.
    pub frames: usize,
    /// Frames of the spec left out to stay under the limit.
    pub skipped: usize,
    /// The scale drawn at (1 = the pictures' own size).
    pub scale: f32,
    /// Width and height in pixels.
    pub size: (u32, u32),
    /// Passes drawn (the palette's, then one per scale tried).
    pub passes: usize,
}

/// Draws a replay as an animated GIF.
///
/// # Errors
/// No frames, the font cannot be read, or even the smallest replay is over the limit.
pub fn render_replay(spec: &ReplaySpec) -> Result<Replay, RenderError> {
    let n = spec.frames.len();
    if n == 0 {
        return Err(RenderError::Message("there is nothing to replay".into()));
    }
    // The palette: the colours of a few frames (the first, the last and some between),
    // fixed for the whole replay; the screen: the largest of them, and of the pictures
    // whose size is known without drawing them.
    let mut counts: HashMap<Rgb8, u64> = HashMap::new();
    let (mut width, mut height) = (1u32, 1u32);
    for &i in &sample_frames(n) {
        let layers = draw_frame(&spec.frames[i], &spec.header)?;
        for (_, c) in &layers {
            count_colours(c, &mut counts);
        }
        let (w, h) = frame_size(&layers);
        width = width.max(w);
        height = height.max(h);
    }
    for f in &spec.frames {
        if let Some((w, h)) = f.still.size_hint() {
            width = width.max(w.max(320));
            height = height.max(CAPTION_HEIGHT + h);
        }
    }
    *counts.entry(PAGE).or_default() += u64::from(width) * u64::from(height);
    let palette = choose_palette(counts);
    let mut passes = 1;
    // Then one pass per attempt: a scale, and a stride of frames kept.
    let mut attempt = (0usize, 1usize);
    loop {
        let (scale, stride) = (SCALES[attempt.0], attempt.1);
        passes += 1;
        match encode_pass(spec, &palette, (width, height), scale, stride)? {
            Pass::Done(mut r) => {
                r.passes = passes;
                return Ok(r);
            }
            // A frame larger than the screen: the pass again on a screen that holds it.
            Pass::Grew(w, h) => {
                width = width.max(w);
                height = height.max(h);
            }
            Pass::Over { written, bytes } => {
                // The size this attempt would have reached, and the next attempt that fits
                // it by the estimate (bytes go with the area; skipped frames drop out).
                let kept = kept_frames(n, stride).len().max(1);
                let whole = bytes as f64 * kept as f64 / written.max(1) as f64;
                let base = whole / f64::from(scale * scale) * stride as f64;
                attempt = next_attempt(attempt, base, spec.limit, n).ok_or_else(|| {
                    RenderError::Message(format!(
                        "the replay is over {} bytes even at its smallest",
                        spec.limit
                    ))
                })?;
            }
        }
    }
}

/// The next attempt after `at` whose estimated size (`base` bytes at full scale with every
/// frame) fits `limit` with a margin; the last possible one otherwise.
fn next_attempt(at: (usize, usize), base: f64, limit: usize, n: usize) -> Option<(usize, usize)> {
    let fits = |(s, k): (usize, usize)| {
        let sc = f64::from(SCALES[s]);
        base * sc * sc / k as f64 <= limit as f64 * 0.85
    };
    let (mut s, mut k) = at;
    loop {
        if s + 1 < SCALES.len() {
            s += 1;
        } else if k < n {
            k += 1;
        } else {
            return None;
        }
        if fits((s, k)) || (s + 1 == SCALES.len() && k >= n) {
            return Some((s, k));
        }
    }
}

/// The frames whose colours make the palette: the first, the last and up to ten between.
fn sample_frames(n: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..12).map(|k| k * n.saturating_sub(1) / 11).collect();
    v.dedup();
    v
}

/// Indices of the frames kept with `stride`: the first, the last, and every `stride`-th.
fn kept_frames(n: usize, stride: usize) -> Vec<usize> {
    (0..n)
        .filter(|&i| i == 0 || i + 1 == n || i % stride.max(1) == 0)
        .collect()
}

/// A frame's layers: the caption band at the top, the picture below it.
fn draw_frame(f: &ReplayFrame, header: &str) -> Result<[(u32, Canvas); 2], RenderError> {
    let picture = f.still.draw()?;
    let (w, _) = picture.size();
    let band = caption_band(w.max(320), &f.caption, header)?;
    Ok([(0, band), (CAPTION_HEIGHT, picture)])
}

/// Maps a canvas's pixels to the replay's palette entries (`lut`: the canvas's entry to
/// the replay's) onto a screen `w` wide from row `y0`.
fn put_layer(screen: &mut [u8], w: usize, y0: usize, c: &Canvas, lut: &[u8; 256]) {
    let (rows, stride_c, _) = c.pixels();
    let (cw, _) = c.size();
    let cw = (cw as usize).min(w);
    let h = screen.len() / w.max(1);
    for (y, row) in rows.chunks_exact(stride_c).enumerate() {
        let sy = y0 + y;
        if sy >= h {
            break;
        }
        let out = &mut screen[sy * w..sy * w + cw];
        for (o, &k) in out.iter_mut().zip(&row[1..=cw]) {
            *o = lut[usize::from(k)];
        }
    }
}

/// The replay's entry for each of a canvas's palette entries.
fn lut_of(c: &Canvas, palette: &[Rgb8], known: &mut HashMap<Rgb8, u8>) -> [u8; 256] {
    let (_, _, colours) = c.pixels();
    let mut lut = [0u8; 256];
    for (k, e) in lut.iter_mut().enumerate() {
        let c = colours.get(k).copied().unwrap_or([0, 0, 0]);
        *e = *known.entry(c).or_insert_with(|| nearest(palette, c));
    }
    lut
}

fn frame_size(layers: &[(u32, Canvas)]) -> (u32, u32) {
    layers.iter().fold((1, 1), |(w, h), (y, c)| {
        let (cw, ch) = c.size();
        (w.max(cw), h.max(y + ch))
    })
}

/// The band above a frame: the caption, and the game and its players below it.
fn caption_band(w: u32, caption: &str, header: &str) -> Result<Canvas, RenderError> {
    let fonts = fonts()?;
    let mut c = Canvas::new(w, CAPTION_HEIGHT, PAGE);
    let room = w.saturating_sub(32) as f32;
    let caption = fit_text(&fonts.bold, 20.0, caption, room);
    c.text(&fonts.bold, 20.0, &caption, 16.0, 20.0, Align::Left, TEXT);
    let header = fit_text(&fonts.regular, 15.0, header, room);
    c.text(&fonts.regular, 15.0, &header, 16.0, 42.0, Align::Left, DIM);
    c.fill(0, CAPTION_HEIGHT as i32 - 3, w, 3, PANEL);
    Ok(c)
}

/// Adds the pixels of each colour a canvas shows to `counts`.
fn count_colours(c: &Canvas, counts: &mut HashMap<Rgb8, u64>) {
    let (rows, stride, colours) = c.pixels();
    let mut hist = [0u64; 256];
    for row in rows.chunks_exact(stride) {
        for &i in &row[1..] {
            hist[usize::from(i)] += 1;
        }
    }
    for (i, &n) in hist.iter().enumerate() {
        if n > 0 {
            let colour = colours.get(i).copied().unwrap_or([0, 0, 0]);
            *counts.entry(colour).or_default() += n;
        }
    }
}

/// The largest channel difference between two colours.
fn max_diff(a: Rgb8, b: Rgb8) -> u8 {
    (0..3).map(|i| a[i].abs_diff(b[i])).max().unwrap_or(0)
}

/// The replay's palette (at most 255 colours; entry 255 is [`CLEAR`]): the colours by the
/// pixels they cover, most first, each taken unless one already taken is within `t` levels,
/// with the least `t` that lets every colour find an entry within it.
fn choose_palette(counts: HashMap<Rgb8, u64>) -> Vec<Rgb8> {
    let mut colours: Vec<(Rgb8, u64)> = counts.into_iter().collect();
    colours.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut best = Vec::new();
    for t in [0u8, 2, 4, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64, 96, 128] {
        let mut pal: Vec<Rgb8> = Vec::with_capacity(255);
        let mut full = false;
        for &(c, _) in &colours {
            if pal.iter().any(|&p| max_diff(p, c) <= t) {
                continue;
            }
            if pal.len() == usize::from(CLEAR) {
                full = true;
                break;
            }
            pal.push(c);
        }
        best = pal;
        if !full {
            break;
        }
    }
    if best.is_empty() {
        best.push(PAGE);
    }
    best
}

/// The entry of `palette` nearest `c` (least squared distance).
fn nearest(palette: &[Rgb8], c: Rgb8) -> u8 {
    let d = |p: &Rgb8| -> i32 {
        (0..3)
            .map(|i| {
                let x = i32::from(p[i]) - i32::from(c[i]);
                x * x
            })
            .sum()
    };
    palette
        .iter()
        .enumerate()
        .min_by_key(|(_, p)| d(p))
        .map_or(0, |(i, _)| i as u8)
}

enum Pass {
    Done(Replay),
    /// A frame larger than the screen: its size.
    Grew(u32, u32),
    /// Over the limit after `written` frames, with `bytes` written.
    Over {
        written: usize,
        bytes: usize,
    },
}

fn gif_error(e: gif::EncodingError) -> RenderError {
    RenderError::Message(format!("the replay could not be encoded: {e}"))
}

/// Draws and encodes the frames kept with `stride` at `scale`, on a screen of `size` (full
/// scale), stopping as soon as the file is over the limit.
fn encode_pass(
    spec: &ReplaySpec,
    palette: &[Rgb8],
    size: (u32, u32),
    scale: f32,
    stride: usize,
) -> Result<Pass, RenderError> {
    let (w, h) = (size.0 as usize, size.1 as usize);
    let sw = ((size.0 as f32 * scale).round() as usize).clamp(1, usize::from(u16::MAX));
    let sh = ((size.1 as f32 * scale).round() as usize).clamp(1, usize::from(u16::MAX));
    let mut table = palette.iter().flatten().copied().collect::<Vec<u8>>();
    table.resize(256 * 3, 0);
    let mut enc = gif::Encoder::new(Vec::new(), sw as u16, sh as u16, &table).map_err(gif_error)?;
    enc.set_repeat(gif::Repeat::Infinite).map_err(gif_error)?;
    let page = nearest(palette, PAGE);
    let mut full = vec![page; w * h];
    let mut prev: Option<Vec<u8>> = None;
    let mut near = NearTable::new(palette);
    let mut known: HashMap<Rgb8, u8> = HashMap::new();
    let mut kept_kfb = None;
    let kept = kept_frames(spec.frames.len(), stride);
    for (j, &i) in kept.iter().enumerate() {
        let f = &spec.frames[i];
        let mut own = None;
        let picture = f.still.draw_over(&mut kept_kfb, &mut own)?;
        let (pw, ph) = picture.size();
        let band = caption_band(pw.max(320), &f.caption, &spec.header)?;
        let (fw, fh) = (pw.max(320), CAPTION_HEIGHT + ph);
        if fw as usize > w || fh as usize > h {
            return Ok(Pass::Grew(fw, fh));
        }
        // A frame smaller than the screen is padded with the page.
        if (pw as usize) < w || (fh as usize) < h {
            full.fill(page);
        }
        let lut = lut_of(&band, palette, &mut known);
        put_layer(&mut full, w, 0, &band, &lut);
        let lut = lut_of(picture, palette, &mut known);
        put_layer(&mut full, w, CAPTION_HEIGHT as usize, picture, &lut);
        let cur = if sw == w && sh == h {
            full.clone()
        } else {
            downscale(&full, (w, h), (sw, sh), palette, &mut near)
        };
        let delay = if j + 1 == kept.len() {
            spec.speed.hold()
        } else {
            spec.speed.delay()
        };
        match &prev {
            None => {
                let frame = gif::Frame {
                    width: sw as u16,
                    height: sh as u16,
                    buffer: std::borrow::Cow::Borrowed(&cur),
                    delay,
                    transparent: Some(CLEAR),
                    ..gif::Frame::default()
                };
                enc.write_frame(&frame).map_err(gif_error)?;
            }
            Some(p) => {
                let band = ((CAPTION_HEIGHT as f32 * scale).round() as usize).min(sh);
                for frame in changed_frames(p, &cur, sw, band, delay) {
                    enc.write_frame(&frame).map_err(gif_error)?;
                }
            }
        }
        prev = Some(cur);
        let bytes = enc.get_ref().len();
        if bytes > spec.limit {
            return Ok(Pass::Over {
                written: j + 1,
                bytes,
            });
        }
    }
    let gif = enc.into_inner().map_err(gif_error)?;
    if gif.len() > spec.limit {
        return Ok(Pass::Over {
            written: kept.len(),
            bytes: gif.len(),
        });
    }
    Ok(Pass::Done(Replay {
        gif,
        frames: kept.len(),
        skipped: spec.frames.len() - kept.len(),
        scale,
        size: (sw as u32, sh as u32),
        passes: 0,
    }))
}

/// The frames that turn `prev` into `cur` (screens `w` wide, the caption band its first
/// `band` rows), shown `delay` in all: the caption band's changed rectangle and the
/// picture's, each its own small rectangle (a caption and a moved piece far apart are not
/// one large one), the band's shown for an instant first; or one when only one changed.
fn changed_frames(
    prev: &[u8],
    cur: &[u8],
    w: usize,
    band: usize,
    delay: u16,
) -> Vec<gif::Frame<'static>> {
    let split = band * w;
    let top = changed_rect(&prev[..split], &cur[..split], w, 0, delay);
    let below = changed_rect(&prev[split..], &cur[split..], w, band, delay);
    match (top, below) {
        (Some(mut a), Some(mut b)) => {
            // The band's frame shows for a fiftieth of a second (browsers show a shorter
            // delay as a tenth), the picture's for the rest.
            a.delay = INSTANT.min(delay);
            b.delay = delay - a.delay;
            vec![a, b]
        }
        (Some(a), None) | (None, Some(a)) => vec![a],
        (None, None) => vec![gif::Frame {
            width: 1,
            height: 1,
            buffer: std::borrow::Cow::Owned(vec![CLEAR]),
            delay,
            transparent: Some(CLEAR),
            ..gif::Frame::default()
        }],
    }
}

/// The shortest delay browsers honour (hundredths of a second).
const INSTANT: u16 = 2;

/// The frame that turns `prev` into `cur` (screens `w` wide whose first row is row `top`
/// of the whole screen): the rectangle that changed, its unchanged pixels [`CLEAR`]; `None`
/// when nothing changed.
fn changed_rect(
    prev: &[u8],
    cur: &[u8],
    w: usize,
    top: usize,
    delay: u16,
) -> Option<gif::Frame<'static>> {
    let h = cur.len() / w.max(1);
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
    for y in 0..h {
        let (a, b) = (&prev[y * w..(y + 1) * w], &cur[y * w..(y + 1) * w]);
        if a == b {
            continue;
        }
        let first = a.iter().zip(b).position(|(p, q)| p != q).unwrap_or(0);
        let last = a.iter().zip(b).rposition(|(p, q)| p != q).unwrap_or(0);
        x0 = x0.min(first);
        x1 = x1.max(last + 1);
        y0 = y0.min(y);
        y1 = y1.max(y + 1);
    }
    if x0 >= x1 || y0 >= y1 {
        return None;
    }
    let mut buffer = Vec::with_capacity((x1 - x0) * (y1 - y0));
    for y in y0..y1 {
        let (a, b) = (&prev[y * w + x0..y * w + x1], &cur[y * w + x0..y * w + x1]);
        buffer.extend(
            a.iter()
                .zip(b)
                .map(|(p, q)| if p == q { CLEAR } else { *q }),
        );
    }
    Some(gif::Frame {
        left: x0 as u16,
        top: (top + y0) as u16,
        width: (x1 - x0) as u16,
        height: (y1 - y0) as u16,
        buffer: std::borrow::Cow::Owned(buffer),
        delay,
        transparent: Some(CLEAR),
        ..gif::Frame::default()
    })
}

/// The palette entry nearest a colour, remembered per cell of 4×4×4 levels.
struct NearTable<'a> {
    palette: &'a [Rgb8],
    cells: Vec<u8>,
}

impl<'a> NearTable<'a> {
    fn new(palette: &'a [Rgb8]) -> NearTable<'a> {
        NearTable {
            palette,
            cells: vec![CLEAR; 1 << 18],
        }
    }

    fn get(&mut self, c: Rgb8) -> u8 {
        let cell = super::palette::cell_of(c);
        let e = self.cells[cell];
        if e != CLEAR {
            return e;
        }
        let e = nearest(self.palette, c);
        self.cells[cell] = e;
        e
    }
}

/// A screen of palette entries made smaller by averaging the colours each pixel covers.
fn downscale(
    full: &[u8],
    (w, h): (usize, usize),
    (sw, sh): (usize, usize),
    palette: &[Rgb8],
    near: &mut NearTable<'_>,
) -> Vec<u8> {
    let colour = |e: u8| palette.get(usize::from(e)).copied().unwrap_or(PAGE);
    let mut out = Vec::with_capacity(sw * sh);
    for y in 0..sh {
        let (ya, yb) = (y * h / sh, ((y + 1) * h / sh).max(y * h / sh + 1).min(h));
        for x in 0..sw {
            let (xa, xb) = (x * w / sw, ((x + 1) * w / sw).max(x * w / sw + 1).min(w));
            let mut sum = [0u32; 3];
            let mut n = 0u32;
            for row in full[ya * w..yb * w].chunks_exact(w) {
                for &e in &row[xa..xb] {
                    let c = colour(e);
                    for k in 0..3 {
                        sum[k] += u32::from(c[k]);
                    }
                    n += 1;
                }
            }
            let n = n.max(1);
            let avg = [(sum[0] / n) as u8, (sum[1] / n) as u8, (sum[2] / n) as u8];
            out.push(near.get(avg));
        }
    }
    out
}

/// Times a replay: its spec drawn once, cold caches left as they are.
///
/// # Errors
/// As [`render_replay`].
pub fn time_replay(spec: &ReplaySpec) -> Result<(Replay, f64), RenderError> {
    let t = Instant::now();
    let r = render_replay(spec)?;
    Ok((r, t.elapsed().as_secs_f64() * 1e3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_colours_are_kept_exactly() {
        let counts: HashMap<Rgb8, u64> = [([1, 2, 3], 5), ([200, 0, 0], 9)].into_iter().collect();
        assert_eq!(choose_palette(counts), vec![[200, 0, 0], [1, 2, 3]]);
    }

    #[test]
    fn many_colours_fit_in_255_entries() {
        let counts: HashMap<Rgb8, u64> = (0..4000u32)
            .map(|i| {
                (
                    [
                        (i % 16 * 16) as u8,
                        (i / 16 % 16 * 16) as u8,
                        (i / 256 * 16) as u8,
                    ],
                    1,
                )
            })
            .collect();
        let pal = choose_palette(counts.clone());
        assert!(pal.len() <= 255);
        for c in counts.keys() {
            let e = nearest(&pal, *c);
            assert!(max_diff(pal[usize::from(e)], *c) <= 32);
        }
    }

    #[test]
    fn an_unchanged_frame_is_one_clear_pixel() {
        let a = vec![1u8; 12];
        let f = changed_frames(&a, &a, 4, 1, 10);
        assert_eq!(f.len(), 1);
        assert_eq!(
            (f[0].width, f[0].height, f[0].buffer.as_ref()),
            (1, 1, &[CLEAR][..])
        );
        let mut b = a.clone();
        b[6] = 2;
        let f = changed_frames(&a, &b, 4, 1, 10);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].left, f[0].top, f[0].width, f[0].height), (2, 1, 1, 1));
    }

    #[test]
    fn the_caption_band_is_its_own_rectangle() {
        // A 10-wide screen, its first 2 rows the band: a caption change at the left and a
        // picture change at the bottom right are two small frames, not one large one.
        let a = vec![1u8; 100];
        let mut b = a.clone();
        b[1] = 2;
        b[98] = 3;
        let f = changed_frames(&a, &b, 10, 2, 100);
        let rects: Vec<_> = f
            .iter()
            .map(|f| (f.left, f.top, f.width, f.height, f.delay))
            .collect();
        assert_eq!(
            rects,
            vec![(1, 0, 1, 1, INSTANT), (8, 9, 1, 1, 100 - INSTANT)]
        );
    }

    #[test]
    fn attempts_shrink_then_skip() {
        assert_eq!(next_attempt((0, 1), 1e6, 10_000_000, 10), Some((1, 1)));
        assert_eq!(next_attempt((0, 1), 40e6, 10_000_000, 10), Some((3, 1)));
        assert_eq!(next_attempt((0, 1), 100e6, 10_000_000, 10), Some((3, 2)));
        assert_eq!(next_attempt((3, 10), 1e9, 10_000_000, 10), None);
        assert_eq!(kept_frames(5, 2), vec![0, 2, 4]);
        assert_eq!(kept_frames(6, 4), vec![0, 4, 5]);
    }
}
