//! Replays (issue 44): a game as one animated GIF, its frames drawn by the game's own
//! renderer.
//!
//! A game hands over its pictures as data ([`Still`]: the position before the first action
//! shown, then one per action that changed the board), each with a caption; this module draws
//! them with a caption band on top and writes the GIF:
//! - Frames are taken as the canvas holds them (palette indices), never decoded from a PNG.
//! - One palette for the whole replay, fixed before the frames are written (issue 55): a few
//!   frames (the first, the last and up to six between) are drawn and their colours counted
//!   (every other row); the most used colours make the palette (a colour within a few levels
//!   of one already in it shares that entry), and every frame's entries map to their
//!   nearest. The last entry is kept for transparency. The screen is the largest of those
//!   frames and of the pictures whose size is known without drawing them (KFB's); a frame
//!   larger still starts the pass again on a screen that holds it.
//! - Frames are drawn once (`Replay::drawn`), each KFB picture over the one before it (only
//!   the parts that changed, as the bot draws a move's picture), any other game's with the
//!   last picture's palette entries to start with, so that the same colours keep their
//!   indices.
//! - A frame's layers (the caption, the band's header and rule, drawn once, and the picture)
//!   are compared byte for byte with the same layer of the frame before; only the spans that
//!   differ are mapped to the replay's palette (issue 55: whole frames mapped and compared
//!   pixel by pixel took most of the time). An anti-aliasing pixel whose entry is within a
//!   few levels of what the screen shows keeps it, so that a palette's other choice for the
//!   same edge is not a change.
//! - Every frame after the first is only what changed, its unchanged pixels transparent,
//!   laid over the frame before it: the changed cells (32-pixel squares) are grouped where
//!   they touch, each group its own rectangle (a few at most: groups merged where it costs
//!   little), the caption band's first; all but the last shown for a fiftieth of a second.
//!   A move is a few squares, a clock and a caption rather than one rectangle from the
//!   caption down to the board.
//! - Frames keep one size: the largest picture; a smaller one is padded with the page colour.
//! - The file stays under a byte limit (Discord's upload limit): when a pass runs over it, the
//!   replay is drawn again at a smaller scale, and at the smallest with frames skipped (the
//!   captions keep the action numbers, so a gap shows), rather than fail. A pass stops as
//!   soon as it runs over, and the next one is chosen from how fast it grew.

use std::any::Any;
use std::collections::HashMap;
use std::time::Instant;

use super::board::{DIM, PAGE, PANEL, TEXT};
use super::canvas::{fit_text, text_width, Align, Canvas, Rgb8};
use super::{fonts, LastMove, RenderError};
use crate::engine::Position;

/// Discord's upload limit for a bot's message (10 MiB).
pub const UPLOAD_LIMIT: usize = 10 * 1024 * 1024;

/// Height of the caption band above each frame's picture, at full scale.
pub const CAPTION_HEIGHT: u32 = 58;

/// The most palette entries a picture may have to start the next frame's palette (see
/// [`Still::draw_over`]): beyond, the next is drawn afresh, so that a long replay's
/// palettes never fill up with colours no longer shown.
const SEEDED_ENTRIES: usize = 192;

/// The palette entry kept for transparency (pixels a frame leaves as they were).
const CLEAR: u8 = 255;

/// The scales a replay is tried at, largest first; at the last, frames are skipped.
const SCALES: [f32; 4] = [1.0, 0.75, 0.5, 0.375];

/// One picture of a replay, as a game hands it over: data, drawn when the animation needs
/// it. Each game's picture module implements it for its view; [`BoardStill`] is a plain board
/// of the engine.
pub trait Still: std::fmt::Debug + Send + Sync {
    /// The picture.
    ///
    /// # Errors
    /// The font cannot be read.
    fn draw(&self) -> Result<Canvas, RenderError>;

    /// The picture's size when it is known without drawing it.
    fn size_hint(&self) -> Option<(u32, u32)> {
        None
    }

    /// The picture, drawn over what the replay's last picture left: by default with the
    /// palette entries of `own` (the last picture), while they leave room, so that its bytes
    /// compare with the last picture's. A game that keeps more of its last picture (KFB's
    /// three boards: only what changed is drawn again) keeps it in `kept`.
    ///
    /// # Errors
    /// The font cannot be read.
    fn draw_over<'a>(
        &self,
        _kept: &'a mut Option<Box<dyn Any + Send>>,
        own: &'a mut Option<Canvas>,
    ) -> Result<&'a Canvas, RenderError> {
        let c = match own.take() {
            Some(last) if last.palette_len() <= SEEDED_ENTRIES => {
                super::canvas::with_palette_of(&last, || self.draw())?
            }
            _ => self.draw()?,
        };
        Ok(own.insert(c))
    }

    /// The picture's own title line(s) as it draws them (whose turn, or the result).
    fn headline(&self) -> String;

    /// The picture alone, as PNG bytes (what a frame shows below its caption).
    ///
    /// # Errors
    /// The font cannot be read.
    fn png(&self) -> Result<Vec<u8>, RenderError> {
        self.draw()?.encode()
    }

    /// This picture as its game's own view, for the game that reads its frames back.
    fn as_any(&self) -> &dyn Any;
}

/// Implements [`Still`] for a game's view that `draw` draws whole (any earlier picture's
/// palette kept, as [`Still::draw_over`] does by default), headed as `headline` words it
/// (`|view| …`), and known back as itself.
macro_rules! still {
    ($view:ty, drawn by $draw:path, headed |$v:ident| $headline:expr) => {
        impl $crate::render::animation::Still for $view {
            fn draw(&self) -> Result<$crate::render::canvas::Canvas, $crate::render::RenderError> {
                $draw(self)
            }

            fn headline(&self) -> String {
                let $v = self;
                $headline
            }

            fn as_any(&self) -> &dyn std::any::Any {
                self
            }
        }
    };
}
pub(crate) use still;

/// One board of any game of the engine (a single KFB board, with `board:`).
#[derive(Clone, Debug)]
pub struct BoardStill {
    /// The position.
    pub position: Box<Position>,
    /// The last move's squares.
    pub last: Option<LastMove>,
    /// Colours, caption and orientation.
    pub options: super::RenderOptions,
}

impl Still for BoardStill {
    fn draw(&self) -> Result<Canvas, RenderError> {
        super::draw_position(&self.position, self.last.clone(), &self.options)
    }

    fn headline(&self) -> String {
        self.options.caption.clone().unwrap_or_default()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// One frame of a replay: its caption (`#12 ann Nb1-c3`) and its picture.
#[derive(Clone, Debug)]
pub struct ReplayFrame {
    /// The caption line.
    pub caption: String,
    /// The picture.
    pub still: std::sync::Arc<dyn Still>,
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
    /// Encoding passes (one per scale tried; 1 when the replay fits at full size).
    pub passes: usize,
    /// Pictures drawn for the palette (the first, the last and up to ten between).
    pub sampled: usize,
    /// Pictures drawn by the encoding passes (the frames' count when one pass did).
    pub drawn: usize,
    /// Pixels handed to the GIF encoder after the first frame (the changed rectangles).
    pub encoded: u64,
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
    let samples = sample_frames(n);
    for &i in &samples {
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
    let (mut passes, mut drawn) = (0, 0);
    // Then one pass per attempt: a scale, and a stride of frames kept.
    let mut attempt = (0usize, 1usize);
    loop {
        let (scale, stride) = (SCALES[attempt.0], attempt.1);
        passes += 1;
        match encode_pass(spec, &palette, (width, height), scale, stride, &mut drawn)? {
            Pass::Done(mut r) => {
                r.passes = passes;
                r.sampled = samples.len();
                r.drawn = drawn;
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

/// The frames whose colours make the palette: the first, the last and up to six between.
fn sample_frames(n: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..8).map(|k| k * n.saturating_sub(1) / 7).collect();
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
/// the replay's, with the entries an anti-aliasing colour may leave as they were when
/// `close` is given) onto a screen `w` wide from row `y0`.
fn put_layer(screen: &mut [u8], w: usize, y0: usize, c: &Canvas, (lut, close): Mapping<'_>) {
    let (rows, stride_c, _) = c.pixels();
    let (cw, _) = c.size();
    let cw = (cw as usize).min(w);
    let h = screen.len() / w.max(1);
    for (y, row) in rows.chunks_exact(stride_c).enumerate() {
        let sy = y0 + y;
        if sy >= h {
            break;
        }
        map_span(&mut screen[sy * w..sy * w + cw], &row[1..=cw], lut, close);
    }
}

/// A canvas's entries to the replay's, and when anti-aliasing may keep a pixel as it was.
type Mapping<'a> = (&'a Lut, Option<&'a Close>);

/// Writes `span` of a canvas's entries onto `out` (see [`put_layer`]).
fn map_span(out: &mut [u8], span: &[u8], lut: &Lut, close: Option<&Close>) {
    match close {
        None => {
            for (o, &k) in out.iter_mut().zip(span) {
                *o = lut.entry[usize::from(k)];
            }
        }
        Some(close) => {
            for (o, &k) in out.iter_mut().zip(span) {
                let e = lut.entry[usize::from(k)];
                if *o != e && !(lut.aa[usize::from(k)] && close.near(*o, e)) {
                    *o = e;
                }
            }
        }
    }
}

/// A canvas's entries mapped to the replay's.
#[derive(Clone)]
struct Lut {
    /// The replay's entry for each of the canvas's.
    entry: [u8; 256],
    /// The canvas's entries made for anti-aliasing (not a flat colour).
    aa: [bool; 256],
    /// Whether any is.
    soft: bool,
}

/// The replay's entry for each of a canvas's palette entries; `last`, the mapping of a
/// palette that `c`'s begins with (its length), is taken as it is for those entries.
fn lut_of(
    c: &Canvas,
    palette: &[Rgb8],
    known: &mut HashMap<Rgb8, u8>,
    last: Option<(&Lut, usize)>,
) -> Lut {
    let (_, _, colours) = c.pixels();
    let (mut lut, from) = match last {
        Some((l, n)) => (l.clone(), n.min(colours.len())),
        None => (
            Lut {
                entry: [0u8; 256],
                aa: [false; 256],
                soft: false,
            },
            0,
        ),
    };
    for (k, &colour) in colours.iter().enumerate().take(256).skip(from) {
        lut.entry[k] = *known
            .entry(colour)
            .or_insert_with(|| nearest(palette, colour));
        lut.aa[k] = !c.is_flat(k as u8);
        lut.soft |= lut.aa[k];
    }
    lut
}

/// How far (levels, in every channel) an anti-aliasing pixel's new entry may be from what
/// the screen shows before it is written: two choices of a picture's palette for one
/// colour are up to twice its tolerance apart, plus the replay palette's own.
const SOFT_LEVELS: u8 = 24;

/// Which pairs of the replay's entries are within [`SOFT_LEVELS`] of each other.
struct Close {
    near: Vec<bool>,
}

impl Close {
    fn new(palette: &[Rgb8]) -> Close {
        let mut near = vec![false; 256 * 256];
        for (a, &pa) in palette.iter().enumerate() {
            for (b, &pb) in palette.iter().enumerate() {
                near[a * 256 + b] = max_diff(pa, pb) <= SOFT_LEVELS;
            }
        }
        Close { near }
    }

    fn near(&self, a: u8, b: u8) -> bool {
        self.near[usize::from(a) * 256 + usize::from(b)]
    }
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

/// The row where the caption band's upper strip (the caption, which changes every frame)
/// ends and its lower strip (the header and the rule, the same in every frame) begins: the
/// caption's lowest and the header's highest pixels lie on either side of it.
const CAPTION_SPLIT: u32 = 28;

/// The caption band's upper strip, drawn as [`caption_band`] draws it, only as wide as the
/// caption needs or `at_least` (what the last caption needed, which it covers), within `w`;
/// and what this caption needs.
fn band_caption(w: u32, caption: &str, at_least: u32) -> Result<(Canvas, u32), RenderError> {
    let fonts = fonts()?;
    let room = w.saturating_sub(32) as f32;
    let caption = fit_text(&fonts.bold, 20.0, caption, room);
    let need = (16 + text_width(&fonts.bold, 20.0, &caption).ceil() as u32 + 16).min(w);
    let mut c = Canvas::new(need.max(at_least).min(w), CAPTION_SPLIT, PAGE);
    c.text(&fonts.bold, 20.0, &caption, 16.0, 20.0, Align::Left, TEXT);
    Ok((c, need))
}

/// The caption band's lower strip, drawn as [`caption_band`] draws it.
fn band_lower(w: u32, header: &str) -> Result<Canvas, RenderError> {
    let fonts = fonts()?;
    let top = CAPTION_SPLIT as f32;
    let mut c = Canvas::new(w, CAPTION_HEIGHT - CAPTION_SPLIT, PAGE);
    let header = fit_text(&fonts.regular, 15.0, header, w.saturating_sub(32) as f32);
    c.text(
        &fonts.regular,
        15.0,
        &header,
        16.0,
        42.0 - top,
        Align::Left,
        DIM,
    );
    c.fill(0, (CAPTION_HEIGHT - CAPTION_SPLIT) as i32 - 3, w, 3, PANEL);
    Ok(c)
}

/// Adds the pixels of each colour a canvas shows to `counts`.
fn count_colours(c: &Canvas, counts: &mut HashMap<Rgb8, u64>) {
    let (rows, stride, colours) = c.pixels();
    // Every other row is enough to weigh the colours (each counts for two).
    let mut hist = [0u64; 256];
    for row in rows.chunks_exact(stride).step_by(2) {
        for &i in &row[1..] {
            hist[usize::from(i)] += 2;
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
/// scale), stopping as soon as the file is over the limit; `drawn` counts the pictures
/// drawn.
fn encode_pass(
    spec: &ReplaySpec,
    palette: &[Rgb8],
    size: (u32, u32),
    scale: f32,
    stride: usize,
    drawn: &mut usize,
) -> Result<Pass, RenderError> {
    let (w, h) = (size.0 as usize, size.1 as usize);
    let sw = ((size.0 as f32 * scale).round() as usize).clamp(1, usize::from(u16::MAX));
    let sh = ((size.1 as f32 * scale).round() as usize).clamp(1, usize::from(u16::MAX));
    let scaled = sw != w || sh != h;
    let mut table = palette.iter().flatten().copied().collect::<Vec<u8>>();
    table.resize(256 * 3, 0);
    let mut enc = gif::Encoder::new(Vec::new(), sw as u16, sh as u16, &table).map_err(gif_error)?;
    enc.set_repeat(gif::Repeat::Infinite).map_err(gif_error)?;
    let page = nearest(palette, PAGE);
    // The screen at full scale, in the replay's entries; what the GIF shows (at its scale).
    let mut full = vec![page; w * h];
    let mut shown: Vec<u8> = Vec::new();
    let mut near = NearTable::new(palette);
    let mut known: HashMap<Rgb8, u8> = HashMap::new();
    let close = Close::new(palette);
    let mut kept_picture: Option<Box<dyn Any + Send>> = None;
    // The caption band's two strips and the picture as last drawn, to find what the next
    // frame changed; the band's lower strip (the header and the rule) drawn once a width.
    let mut held: [Held; 3] = [Held::default(), Held::default(), Held::default()];
    let mut lower: Option<Canvas> = None;
    let mut caption_w = 0;
    let mut cells = Cells::new(sw, sh);
    let mut encoded = 0u64;
    let kept = kept_frames(spec.frames.len(), stride);
    let mut own: Option<Canvas> = None;
    for (j, &i) in kept.iter().enumerate() {
        let f = &spec.frames[i];
        let picture = f.still.draw_over(&mut kept_picture, &mut own)?;
        *drawn += 1;
        let (pw, ph) = picture.size();
        let bw = pw.max(320);
        let (fw, fh) = (bw, CAPTION_HEIGHT + ph);
        if fw as usize > w || fh as usize > h {
            return Ok(Pass::Grew(fw, fh));
        }
        let lower: &Canvas = match &mut lower {
            Some(c) if c.size().0 == bw => c,
            slot => slot.insert(band_lower(bw, &spec.header)?),
        };
        // The caption's strip reaches as far as this caption or the last one did.
        let (caption, need) = band_caption(bw, &f.caption, caption_w)?;
        caption_w = need;
        cells.clear();
        let layers = [
            (0usize, &caption),
            (CAPTION_SPLIT as usize, lower),
            (CAPTION_HEIGHT as usize, picture),
        ];
        // A frame smaller than the screen is padded with the page: drawn whole when its
        // band or picture is not the size it was.
        let resized = layers
            .iter()
            .zip(&held)
            .skip(1)
            .any(|((_, c), h)| h.size != Some(c.size()));
        if resized && ((pw as usize) < w || (fh as usize) < h) {
            full.fill(page);
            held = [Held::default(), Held::default(), Held::default()];
            cells.mark_area(0, h, w);
        }
        for ((y0, c), last) in layers.iter().zip(held.iter_mut()) {
            let comparable = last.comparable(c);
            let reuse = last.lut.as_ref().filter(|_| comparable);
            let lut = lut_of(
                c,
                palette,
                &mut known,
                reuse.map(|l| (l, last.colours.len())),
            );
            // Anti-aliasing may take an entry a few levels off where the last frame's took
            // another (the picture's palette met its colours in another order): such a pixel
            // keeps what the screen shows, so that only what was drawn anew is written.
            let soft = lut.soft.then_some(&close);
            if comparable {
                let marks = (!scaled).then_some(&mut cells);
                put_changes(&mut full, w, *y0, c, &last.rows, (&lut, soft), marks);
            } else {
                let soft = if last.size.is_some() { soft } else { None };
                put_layer(&mut full, w, *y0, c, (&lut, soft));
                let (cw, ch) = c.size();
                cells.mark_area(*y0, *y0 + ch as usize, cw as usize);
            }
            last.keep(c, lut);
        }
        if scaled {
            // Smaller frames are made from the whole screen, and compared whole.
            cells.mark_area(0, sh, sw);
        }
        let cur = if scaled {
            downscale(&full, (w, h), (sw, sh), palette, &mut near)
        } else {
            std::mem::take(&mut full)
        };
        let delay = if j + 1 == kept.len() {
            spec.speed.hold()
        } else {
            spec.speed.delay()
        };
        if shown.is_empty() {
            let frame = gif::Frame {
                width: sw as u16,
                height: sh as u16,
                buffer: std::borrow::Cow::Borrowed(&cur),
                delay,
                transparent: Some(CLEAR),
                ..gif::Frame::default()
            };
            enc.write_frame(&frame).map_err(gif_error)?;
            shown = cur.clone();
        } else {
            let band = ((CAPTION_HEIGHT as f32 * scale).round() as usize).min(sh);
            for frame in changed_frames(&shown, &cur, sw, band, delay, Some(&cells)) {
                encoded += u64::from(frame.width) * u64::from(frame.height);
                enc.write_frame(&frame).map_err(gif_error)?;
            }
            // What the GIF shows now: the changed cells copied over.
            cells.copy_marked(&cur, &mut shown, sw);
        }
        if !scaled {
            full = cur;
        }
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
        sampled: 0,
        drawn: 0,
        encoded,
    }))
}

/// A layer of the last frame (the caption band or the picture) as drawn: its rows and
/// palette, so that the next frame's is compared byte for byte and only the rows and spans
/// that differ are mapped to the replay's palette.
#[derive(Default)]
struct Held {
    size: Option<(u32, u32)>,
    rows: Vec<u8>,
    colours: Vec<Rgb8>,
    lut: Option<Lut>,
}

impl Held {
    /// Whether `c`'s bytes mean what this layer's mean: the same size, and this layer's
    /// palette the start of `c`'s (a KFB picture drawn over the last one adds to its
    /// palette; a fresh one whose drawing met its colours in the same order has the same).
    fn comparable(&self, c: &Canvas) -> bool {
        let (_, _, colours) = c.pixels();
        self.size == Some(c.size())
            && colours.len() >= self.colours.len()
            && colours[..self.colours.len()] == self.colours[..]
    }

    fn keep(&mut self, c: &Canvas, lut: Lut) {
        let (rows, _, colours) = c.pixels();
        self.lut = Some(lut);
        self.size = Some(c.size());
        self.rows.clear();
        self.rows.extend_from_slice(rows);
        self.colours.clear();
        self.colours.extend_from_slice(colours);
    }
}

/// The side of a cell, in pixels, in which a frame's changes are found and grouped.
const CELL: usize = 32;

/// The cells of a screen (squares of [`CELL`] pixels) that a frame may have changed.
struct Cells {
    cols: usize,
    rows: usize,
    on: Vec<bool>,
}

impl Cells {
    fn new(w: usize, h: usize) -> Cells {
        let (cols, rows) = (w.div_ceil(CELL), h.div_ceil(CELL));
        Cells {
            cols,
            rows,
            on: vec![false; cols * rows],
        }
    }

    fn clear(&mut self) {
        self.on.fill(false);
    }

    /// Marks the cells of rows `top..bottom` from the left edge to `width`.
    fn mark_area(&mut self, top: usize, bottom: usize, width: usize) {
        let (c1, r1) = (width.div_ceil(CELL).min(self.cols), bottom.div_ceil(CELL));
        for r in top / CELL..r1.min(self.rows) {
            self.on[r * self.cols..r * self.cols + c1].fill(true);
        }
    }

    fn get(&self, c: usize, r: usize) -> bool {
        self.on.get(r * self.cols + c).copied().unwrap_or(false)
    }

    /// Copies the marked cells of `from` onto `to` (screens `w` wide).
    fn copy_marked(&self, from: &[u8], to: &mut [u8], w: usize) {
        let h = from.len() / w.max(1);
        for r in 0..self.rows {
            let mut c = 0;
            while c < self.cols {
                if !self.get(c, r) {
                    c += 1;
                    continue;
                }
                let c0 = c;
                while c < self.cols && self.get(c, r) {
                    c += 1;
                }
                let (x0, x1) = (c0 * CELL, (c * CELL).min(w));
                for y in r * CELL..((r + 1) * CELL).min(h) {
                    to[y * w + x0..y * w + x1].copy_from_slice(&from[y * w + x0..y * w + x1]);
                }
            }
        }
    }
}

/// Maps the spans of `c`'s rows that differ from `was` (its last frame's rows) to the
/// replay's palette onto a screen `w` wide from row `y0`, marking their cells in `cells`
/// (none when the screen is scaled: every cell is compared then).
fn put_changes(
    screen: &mut [u8],
    w: usize,
    y0: usize,
    c: &Canvas,
    was: &[u8],
    (lut, close): Mapping<'_>,
    mut cells: Option<&mut Cells>,
) {
    let (rows, stride, _) = c.pixels();
    let cw = (c.size().0 as usize).min(w);
    let h = screen.len() / w.max(1);
    for (y, (row, old)) in rows
        .chunks_exact(stride)
        .zip(was.chunks_exact(stride))
        .enumerate()
    {
        let sy = y0 + y;
        if sy >= h {
            break;
        }
        let (row, old) = (&row[1..=cw], &old[1..=cw]);
        if row == old {
            continue;
        }
        let mut x = 0;
        while x < cw {
            let e = (x + CELL).min(cw);
            if row[x..e] != old[x..e] {
                map_span(&mut screen[sy * w + x..sy * w + e], &row[x..e], lut, close);
                if let Some(cells) = cells.as_deref_mut() {
                    let at = (sy / CELL) * cells.cols + x / CELL;
                    if let Some(on) = cells.on.get_mut(at) {
                        *on = true;
                    }
                }
            }
            x = e;
        }
    }
}

/// The most rectangles a frame's picture is written as (beyond it, the nearest merge).
const MAX_PARTS: usize = 6;

/// The frames that turn `prev` into `cur` (screens `w` wide, the caption band its first
/// `band` rows), shown `delay` in all: the caption band's changed rectangle, then the
/// picture's changed parts, each its own small rectangle (a caption and a moved piece far
/// apart are not one large one; nor are two boards' changes), each shown for an instant
/// but the last; or one clear pixel when nothing changed. Only the cells marked in `cells`
/// are looked at (every one when `None`).
fn changed_frames(
    prev: &[u8],
    cur: &[u8],
    w: usize,
    band: usize,
    delay: u16,
    cells: Option<&Cells>,
) -> Vec<gif::Frame<'static>> {
    let h = cur.len() / w.max(1);
    let all;
    let cells = match cells {
        Some(c) => c,
        None => {
            let mut c = Cells::new(w, h);
            c.mark_area(0, h, w);
            all = c;
            &all
        }
    };
    let mut rects = changed_rects(prev, cur, w, (0, band), cells, 1);
    rects.extend(changed_rects(prev, cur, w, (band, h), cells, MAX_PARTS));
    if rects.is_empty() {
        return vec![gif::Frame {
            width: 1,
            height: 1,
            buffer: std::borrow::Cow::Owned(vec![CLEAR]),
            delay,
            transparent: Some(CLEAR),
            ..gif::Frame::default()
        }];
    }
    // Each part but the last shows for a fiftieth of a second (browsers show a shorter
    // delay as a tenth), the last for the rest.
    let last = rects.len() - 1;
    rects
        .into_iter()
        .enumerate()
        .map(|(k, r)| {
            let d = if k < last {
                INSTANT.min(delay)
            } else {
                delay.saturating_sub(INSTANT * last as u16).max(1)
            };
            rect_frame(prev, cur, w, r, d)
        })
        .collect()
}

/// The shortest delay browsers honour (hundredths of a second).
const INSTANT: u16 = 2;

/// A rectangle of a screen: left, top, right and bottom (exclusive).
type Rect = (usize, usize, usize, usize);

/// The rectangles that hold what changed between `prev` and `cur` in rows `top..bottom`,
/// looking only at the marked cells: the changed cells grouped where they touch, groups
/// merged where that costs little or there are more than `most`, each trimmed to the
/// pixels that changed.
fn changed_rects(
    prev: &[u8],
    cur: &[u8],
    w: usize,
    (top, bottom): (usize, usize),
    cells: &Cells,
    most: usize,
) -> Vec<Rect> {
    if top >= bottom {
        return Vec::new();
    }
    let (r0, r1) = (top / CELL, bottom.div_ceil(CELL).min(cells.rows));
    let (cols, nrows) = (cells.cols, r1.saturating_sub(r0));
    // The cells whose pixels changed (in this band of rows).
    let mut changed = vec![false; cols * nrows];
    for r in r0..r1 {
        let (y0, y1) = ((r * CELL).max(top), ((r + 1) * CELL).min(bottom));
        for c in 0..cols {
            if !cells.get(c, r) {
                continue;
            }
            let (x0, x1) = (c * CELL, ((c + 1) * CELL).min(w));
            changed[(r - r0) * cols + c] =
                (y0..y1).any(|y| prev[y * w + x0..y * w + x1] != cur[y * w + x0..y * w + x1]);
        }
    }
    // Groups of touching cells, as rectangles of cells.
    let mut seen = vec![false; changed.len()];
    let mut groups: Vec<Rect> = Vec::new();
    for start in 0..changed.len() {
        if !changed[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![start];
        let (mut g0, mut g1) = ((cols, nrows), (0, 0));
        while let Some(k) = stack.pop() {
            let (c, r) = (k % cols, k / cols);
            g0 = (g0.0.min(c), g0.1.min(r));
            g1 = (g1.0.max(c + 1), g1.1.max(r + 1));
            for (dc, dr) in [
                (-1i64, -1i64),
                (0, -1),
                (1, -1),
                (-1, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ] {
                let (nc, nr) = (c as i64 + dc, r as i64 + dr);
                if nc < 0 || nr < 0 || nc >= cols as i64 || nr >= nrows as i64 {
                    continue;
                }
                let n = nr as usize * cols + nc as usize;
                if changed[n] && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        groups.push((g0.0, g0.1, g1.0, g1.1));
    }
    // Merged while two overlap, cost little together (a few cells more than apart), or
    // there are too many.
    let area = |r: &Rect| (r.2 - r.0) * (r.3 - r.1);
    let union = |a: &Rect, b: &Rect| (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3));
    loop {
        let mut best: Option<(usize, usize, usize)> = None;
        for a in 0..groups.len() {
            for b in a + 1..groups.len() {
                let u = union(&groups[a], &groups[b]);
                let extra = area(&u).saturating_sub(area(&groups[a]) + area(&groups[b]));
                if best.is_none_or(|(_, _, e)| extra < e) {
                    best = Some((a, b, extra));
                }
            }
        }
        match best {
            Some((a, b, extra)) if extra <= 2 || groups.len() > most => {
                let u = union(&groups[a], &groups[b]);
                groups[a] = u;
                groups.swap_remove(b);
            }
            _ => break,
        }
    }
    groups
        .iter()
        .filter_map(|&(c0, g0, c1, g1)| {
            let rect = (
                c0 * CELL,
                ((g0 + r0) * CELL).max(top),
                (c1 * CELL).min(w),
                ((g1 + r0) * CELL).min(bottom),
            );
            trim(prev, cur, w, rect)
        })
        .collect()
}

/// The part of `rect` that holds every pixel changed in it; `None` when none did.
fn trim(prev: &[u8], cur: &[u8], w: usize, (x0, y0, x1, y1): Rect) -> Option<Rect> {
    let differs = |y: usize| prev[y * w + x0..y * w + x1] != cur[y * w + x0..y * w + x1];
    let top = (y0..y1).find(|&y| differs(y))?;
    let bottom = (top..y1).rev().find(|&y| differs(y)).map_or(top, |y| y) + 1;
    let (mut left, mut right) = (x1, x0);
    for y in top..bottom {
        let (a, b) = (&prev[y * w..(y + 1) * w], &cur[y * w..(y + 1) * w]);
        // Only columns that would widen what is found so far are looked at.
        if let Some(k) = (x0..left).find(|&x| a[x] != b[x]) {
            left = k;
        }
        if let Some(k) = (right.max(left)..x1).rev().find(|&x| a[x] != b[x]) {
            right = right.max(k + 1);
        }
    }
    (left < right).then_some((left, top, right, bottom))
}

/// The frame that writes `rect` of `cur` over `prev` (screens `w` wide): its unchanged
/// pixels [`CLEAR`].
fn rect_frame(
    prev: &[u8],
    cur: &[u8],
    w: usize,
    (x0, y0, x1, y1): Rect,
    delay: u16,
) -> gif::Frame<'static> {
    let mut buffer = Vec::with_capacity((x1 - x0) * (y1 - y0));
    for y in y0..y1 {
        let (a, b) = (&prev[y * w + x0..y * w + x1], &cur[y * w + x0..y * w + x1]);
        if a == b {
            buffer.resize(buffer.len() + (x1 - x0), CLEAR);
            continue;
        }
        // Spans of a cell's width that did not change are clear at once.
        for (a, b) in a.chunks(CELL).zip(b.chunks(CELL)) {
            if a == b {
                buffer.resize(buffer.len() + a.len(), CLEAR);
            } else {
                buffer.extend(
                    a.iter()
                        .zip(b)
                        .map(|(p, q)| if p == q { CLEAR } else { *q }),
                );
            }
        }
    }
    gif::Frame {
        left: x0 as u16,
        top: y0 as u16,
        width: (x1 - x0) as u16,
        height: (y1 - y0) as u16,
        buffer: std::borrow::Cow::Owned(buffer),
        delay,
        transparent: Some(CLEAR),
        ..gif::Frame::default()
    }
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
        let f = changed_frames(&a, &a, 4, 1, 10, None);
        assert_eq!(f.len(), 1);
        assert_eq!(
            (f[0].width, f[0].height, f[0].buffer.as_ref()),
            (1, 1, &[CLEAR][..])
        );
        let mut b = a.clone();
        b[6] = 2;
        let f = changed_frames(&a, &b, 4, 1, 10, None);
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
        let f = changed_frames(&a, &b, 10, 2, 100, None);
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
    fn far_changes_are_rectangles_of_their_own() {
        // A 200-wide screen, its first 10 rows the band: changes at two far corners of the
        // picture are two small frames, each only its changed pixels, the first shown for
        // an instant; and only the cells marked are looked at.
        let a = vec![1u8; 200 * 200];
        let mut b = a.clone();
        b[20 * 200 + 3] = 2;
        b[21 * 200 + 5] = 2;
        b[190 * 200 + 190] = 3;
        let f = changed_frames(&a, &b, 200, 10, 100, None);
        let rects: Vec<_> = f
            .iter()
            .map(|f| (f.left, f.top, f.width, f.height, f.delay))
            .collect();
        assert_eq!(
            rects,
            vec![(3, 20, 3, 2, INSTANT), (190, 190, 1, 1, 100 - INSTANT)]
        );
        assert_eq!(
            f[0].buffer.as_ref(),
            &[2, CLEAR, CLEAR, CLEAR, CLEAR, 2][..]
        );
        let mut cells = Cells::new(200, 200);
        cells.mark_area(160, 200, 200);
        let f = changed_frames(&a, &b, 200, 10, 100, Some(&cells));
        assert_eq!((f.len(), f[0].left, f[0].top), (1, 190, 190));
    }

    #[test]
    fn many_changes_are_merged_into_a_few_rectangles() {
        // Changes in every other cell of a row: merged, at most MAX_PARTS rectangles
        // covering every change.
        let w = CELL * 40;
        let a = vec![0u8; w * 100];
        let mut b = a.clone();
        for k in 0..20 {
            b[50 * w + 2 * k * CELL] = 1;
        }
        let f = changed_frames(&a, &b, w, 0, 100, None);
        assert!(f.len() <= MAX_PARTS, "{} rectangles", f.len());
        let mut shown = a.clone();
        for fr in &f {
            for y in 0..usize::from(fr.height) {
                for x in 0..usize::from(fr.width) {
                    let v = fr.buffer[y * usize::from(fr.width) + x];
                    if v != CLEAR {
                        shown[(usize::from(fr.top) + y) * w + usize::from(fr.left) + x] = v;
                    }
                }
            }
        }
        assert!(shown == b);
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
