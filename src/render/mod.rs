//! Board pictures as PNG bytes: any board of the engine, the three-board Kung Fu Bughouse
//! picture, and tables (tournament standings).
//!
//! Rendering is pure (no I/O except in [`render_cli`]): positions and plain view data in, PNG
//! bytes out. Pieces are drawn as vector figures (orthodox pieces as chess figures, every other
//! piece as a token with its abbreviation and rim marks for its moves) in their owner's colour
//! with a dark outline; the font (DejaVu) is compiled in.
//!
//! ## The fast path (issue 21)
//!
//! Nothing is rasterised twice: piece sprites are cached per figure, colour, size and look;
//! each sprite keeps its tiles (the sprite already laid over a flat square, tray or page
//! colour), so a piece on a square is a copy of rows; laid-out text is cached per font, size
//! and string, its glyphs per font, size and exact place (a new text, such as a clock that
//! moved on, mostly reuses the glyphs of the old one), and figures per piece type. A picture
//! is drawn straight into palette indices, its palette chosen as it is drawn (`palette.rs`),
//! so encoding is our own deflate of the rows as they are (`deflate.rs`) and nothing is
//! reduced afterwards. Every public function
//! draws this way, so new pictures get it through `Canvas`, `sprite` and `encode`.
//!
//! `arbiter render-bench` times both renderers in turns of two runs each: the main figures
//! are each turn's second run (its own memory in the caches), `switch` the first, just after
//! the other renderer's run. The fast path's time is mostly its passes over the picture's
//! megabytes, so the old renderer's memory in the caches costs it about 0.3 ms on KFB (1.8
//! against 2.1 ms); the old path, slow by its own work, barely notices. In the bot, a KFB
//! picture also lays out new text (clocks, notes) and comes between database and Discord
//! work: the fake-Discord benchmark's breakdown shows about 1.1 ms drawing and 1.2 encoding.
//!
//! Measured and not kept (issue 21, on the golden pictures' palette rows): `fdeflate` is
//! faster than level-1 zlib but 60% larger (KFB 231 KB); zlib levels 2-3 are 18% smaller and
//! twice as slow; a hand-written deflate that tries only the row above, a run, the last
//! distances and a 4-byte hash, with Huffman codes made per picture, is 23% smaller (KFB
//! 112 KB, Ultimate 64 KB) but was 1.4 times slower than zlib-rs's level 1 in that form; a
//! palette reduction that looks only at what differs from the row above was slower than the
//! run-based one (the comparison itself walks the whole RGB picture). Where the time goes
//! (perf, warm KFB picture): palette reduction about 30%, memory copies of the RGB canvas
//! about 15-19%, deflate about 17%, text 6%.
//!
//! tiny-skia against our rasteriser (issue 21; an ignored test in `shapes.rs`, tiny-skia a
//! dev-dependency only), on the 56 sprites a cold KFB picture draws: its anti-aliased fill is
//! 2.2 times slower than ours (1.0 against 0.45 ms for all fills and details), its stroke
//! (round joins, width 2×edge−1, united with the fill) 2.5 times faster than `dilate` (1.2
//! against 3.0 ms; slower at 30 px, where the dilation radius is 1). Whole sprites: ours
//! 4.9 ms, all tiny-skia 3.5 ms, our fill with tiny-skia's outline 3.0 ms, so at best 1.9 ms
//! of a cold KFB render of about 17 ms, and nothing on warm ones (sprites, tiles and text
//! come from the caches). The masks agree (fill area within 0.1%, mean step 1.3/255); thin
//! details come out lighter with tiny-skia (ours adds up overlapping edge coverage), and its
//! outline is crisper: 3.5% of the sprite pixels move by more than 12/255. Not adopted for
//! so little. The RGB renderer from before issue 21 was kept for `arbiter render-bench` to
//! time against until the golden images guarded every picture (issue 40), then removed: in
//! its last comparison the fast path was 3-5 times faster on warm pictures and its files a
//! third smaller.

pub mod animation;
pub mod board;
pub mod budget;
pub mod canvas;
pub mod deflate;
pub mod palette;
pub mod shapes;
pub mod table;

use std::collections::BTreeMap;
use std::path::Path;

use crate::engine::notation::{self, MoveText, NotationError};
use crate::engine::{GeometryError, Move, Position, Side, Square};

pub use table::{example_table, render_table, TableView};

use board::{BoardSpec, HandItem, DIM, PAGE, TEXT};
use canvas::{Align, Canvas, Fonts};

/// Errors while drawing or saving a picture.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The embedded font could not be read.
    #[error("the embedded font is unreadable: {0}")]
    Font(String),
    /// The picture could not be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The variant or FEN given to [`render_cli`] is wrong.
    #[error(transparent)]
    Position(#[from] crate::engine::PositionError),
    /// The last move given to [`render_cli`] does not parse.
    #[error("--last: {0}")]
    Notation(#[from] NotationError),
    /// A square of the last move is not on the board.
    #[error("--last: {0}")]
    Square(#[from] GeometryError),
    /// Nothing to draw, or another reason given in words.
    #[error("{0}")]
    Message(String),
}

/// A player's (or side's) colour: the fill of their pieces.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum PlayerColour {
    /// KFB red.
    Red,
    /// KFB lightgreen.
    LightGreen,
    /// KFB blue.
    Blue,
    /// The first side of an ordinary game.
    White,
    /// The second side of an ordinary game.
    Black,
    /// Any other colour (many-player games).
    Rgb(u8, u8, u8),
}

impl PlayerColour {
    /// The fill colour.
    pub fn rgb(self) -> [u8; 3] {
        match self {
            PlayerColour::Red => [226, 48, 48],
            PlayerColour::LightGreen => [144, 238, 144],
            PlayerColour::Blue => [46, 104, 232],
            PlayerColour::White => [250, 250, 248],
            PlayerColour::Black => [34, 34, 34],
            PlayerColour::Rgb(r, g, b) => [r, g, b],
        }
    }

    /// The name shown to players.
    pub fn name(self) -> String {
        match self {
            PlayerColour::Red => "red".into(),
            PlayerColour::LightGreen => "lightgreen".into(),
            PlayerColour::Blue => "blue".into(),
            PlayerColour::White => "white".into(),
            PlayerColour::Black => "black".into(),
            PlayerColour::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        }
    }

    /// The default colour of side `n`: white, black, then red, blue, lightgreen and further
    /// distinct colours for games with many players.
    pub fn default_for_side(n: u8) -> PlayerColour {
        const MORE: [PlayerColour; 14] = [
            PlayerColour::Red,
            PlayerColour::Blue,
            PlayerColour::LightGreen,
            PlayerColour::Rgb(245, 200, 40),
            PlayerColour::Rgb(150, 80, 200),
            PlayerColour::Rgb(250, 140, 40),
            PlayerColour::Rgb(60, 200, 210),
            PlayerColour::Rgb(240, 130, 190),
            PlayerColour::Rgb(130, 90, 50),
            PlayerColour::Rgb(150, 150, 150),
            PlayerColour::Rgb(30, 140, 80),
            PlayerColour::Rgb(120, 20, 40),
            PlayerColour::Rgb(20, 40, 120),
            PlayerColour::Rgb(200, 220, 120),
        ];
        match n {
            0 => PlayerColour::White,
            1 => PlayerColour::Black,
            n => MORE[(n as usize - 2) % MORE.len()],
        }
    }
}

/// Squares to highlight: the last move's from- and to-squares, a drop's square, and any other
/// squares the move changed (the corner piece in castling).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct LastMove {
    /// Where the piece came from.
    pub from: Option<Square>,
    /// Where it went.
    pub to: Option<Square>,
    /// Where a piece was dropped.
    pub drop: Option<Square>,
    /// Other squares to mark like from/to (castling's corner piece).
    pub others: Vec<Square>,
}

impl LastMove {
    /// The squares of an engine move.
    pub fn from_move(mv: &Move) -> LastMove {
        match *mv {
            Move::Drop { to, .. } => LastMove {
                drop: Some(to),
                ..LastMove::default()
            },
            Move::Castle {
                king_from,
                king_to,
                corner_from,
                corner_to,
            } => LastMove {
                from: Some(king_from),
                to: Some(king_to),
                drop: None,
                others: vec![corner_from, corner_to],
            },
            _ => LastMove {
                from: mv.from(),
                to: mv.to(),
                ..LastMove::default()
            },
        }
    }

    /// The squares named by a move written in the project's notation (`e2-e4`, `N@f3`,
    /// `0-0`), on the position after the move. Castling marks the king of the side that just
    /// moved and the square beside it where the corner piece landed.
    ///
    /// # Errors
    /// Text that is not a move, or squares that are not on the board.
    pub fn from_text(pos: &Position, text: &str) -> Result<LastMove, RenderError> {
        let geom = &pos.rules().geometry;
        Ok(match notation::parse_text(text)? {
            MoveText::Drop { to, .. } => LastMove {
                drop: Some(geom.parse_square(&to)?),
                ..LastMove::default()
            },
            MoveText::Move { from, to, .. } => LastMove {
                from: Some(geom.parse_square(&from)?),
                to: Some(geom.parse_square(&to)?),
                ..LastMove::default()
            },
            MoveText::Castle { long } => {
                let sides = pos.rules().sides.max(1);
                let mover = Side((pos.turn().0 + sides - 1) % sides);
                let mut lm = LastMove::default();
                if let Some(&k) = pos.royal_squares(mover).first() {
                    let c = geom.coord(k);
                    lm.to = Some(k);
                    let f = if long {
                        c.file.checked_add(1)
                    } else {
                        c.file.checked_sub(1)
                    };
                    if let Some(f) = f {
                        lm.others = geom
                            .square(crate::engine::Coord::new(f, c.rank))
                            .into_iter()
                            .collect();
                    }
                }
                lm
            }
        })
    }
}

/// Options of a single-board picture.
#[derive(Clone, Debug, Default)]
pub struct RenderOptions {
    /// Pixels per square; automatic (72 up to 8×8, smaller for larger boards) if `None`.
    pub square: Option<u32>,
    /// Show the board from the second side (rank 1 at the top).
    pub flipped: bool,
    /// Colour of each side's pieces; sides without an entry get
    /// [`PlayerColour::default_for_side`].
    pub side_colours: Vec<PlayerColour>,
    /// A line above the board; "White to move" style if `None`, nothing if empty.
    pub caption: Option<String>,
    /// Leave out the legend of fairy pieces.
    pub no_legend: bool,
}

/// The look of a picture (alias kept for callers that speak of a board style).
pub type BoardStyle = RenderOptions;

impl RenderOptions {
    fn colour(&self, side: Side) -> PlayerColour {
        self.side_colours
            .get(side.index())
            .copied()
            .unwrap_or_else(|| PlayerColour::default_for_side(side.0))
    }
}

pub(crate) fn fonts() -> Result<&'static Fonts, RenderError> {
    static FONTS: std::sync::OnceLock<Result<Fonts, String>> = std::sync::OnceLock::new();
    FONTS
        .get_or_init(|| Fonts::load().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| RenderError::Font(e.clone()))
}

/// Draws one board position, with hands if the rules have drops, and returns PNG bytes.
///
/// # Errors
/// Only if the embedded font is unreadable or encoding fails.
pub fn render_position(
    pos: &Position,
    last: Option<LastMove>,
    opts: &RenderOptions,
) -> Result<Vec<u8>, RenderError> {
    draw_position(pos, last, opts)?.encode()
}

/// Draws one board position (see [`render_position`]).
pub fn draw_position(
    pos: &Position,
    last: Option<LastMove>,
    opts: &RenderOptions,
) -> Result<Canvas, RenderError> {
    let fonts = fonts()?;
    let rules = pos.rules();
    let geom = &rules.geometry;
    let sq = opts
        .square
        .unwrap_or_else(|| board::auto_square(geom))
        .clamp(12, 200);
    let margin = board::coord_margin(fonts, sq);
    let colour_of = |s: Side| opts.colour(s).rgb();
    let spec = BoardSpec {
        pos,
        sq,
        margin,
        flipped: opts.flipped,
        last: last.as_ref(),
        colour_of: &colour_of,
        frozen: false,
    };
    let (bw, bh) = spec.size();
    let pad = (sq / 4).max(8);
    let width = bw + 2 * pad;
    let caption = match &opts.caption {
        Some(c) => c.clone(),
        None => {
            let c = opts.colour(pos.turn()).name();
            let mut s = c.chars();
            match s.next() {
                Some(first) => format!("{}{} to move", first.to_uppercase(), s.as_str()),
                None => String::new(),
            }
        }
    };
    let cap_px = (sq as f32 * 0.30).clamp(15.0, 22.0);
    let cap_h = if caption.is_empty() {
        0
    } else {
        (cap_px * 2.0) as u32
    };
    let show_hands = rules.drops.enabled || (0..rules.sides).any(|s| !pos.hand(Side(s)).is_empty());
    let icon = (sq * 5 / 8).max(24);
    let hand_h = if show_hands { icon + 8 } else { 0 };
    let extra_sides = if show_hands {
        rules.sides.saturating_sub(2) as u32
    } else {
        0
    };
    let mut legend = BTreeMap::new();
    if !opts.no_legend {
        board::legend_of_position(pos, &mut legend);
    }
    let legend_icon = (sq / 2).clamp(22, 30);
    let legend_h = board::legend_height(fonts, &legend, width - 2 * pad, legend_icon);
    let height = pad + cap_h + hand_h + bh + hand_h * (1 + extra_sides) + legend_h + pad;
    let mut canvas = Canvas::new(width, height, PAGE);
    let mut y = pad as i32;
    if cap_h > 0 {
        canvas.text(
            &fonts.bold,
            cap_px,
            &caption,
            (pad + margin) as f32,
            y as f32 + cap_h as f32 / 2.0,
            Align::Left,
            TEXT,
        );
        y += cap_h as i32;
    }
    let hand_items = |s: Side| -> Vec<HandItem> {
        pos.hand(s)
            .entries()
            .iter()
            .map(|(hp, n)| HandItem {
                figure: board::figure_of(&rules.catalog, hp.kind, s, opts.flipped),
                colour: opts.colour(Side(hp.colour.0)).rgb(),
                count: *n,
            })
            .collect()
    };
    let (top, bottom) = if opts.flipped {
        (Side(0), Side(1))
    } else {
        (Side(1), Side(0))
    };
    let hand_x = (pad + margin) as i32;
    let hand_w = bw - 2 * margin;
    let draw_hand_row = |canvas: &mut Canvas, s: Side, y: i32| {
        let items = hand_items(s);
        let label = format!("{} hand", opts.colour(s).name());
        if items.is_empty() {
            canvas.text(
                &fonts.bold,
                icon as f32 * 0.4,
                &format!("{label}: empty"),
                hand_x as f32,
                (y + icon as i32 / 2) as f32,
                Align::Left,
                DIM,
            );
        } else {
            board::draw_hand(&mut *canvas, fonts, &items, hand_x, y, icon, hand_w);
        }
    };
    if show_hands {
        draw_hand_row(&mut canvas, top, y + 4);
        y += hand_h as i32;
    }
    board::draw_board(&mut canvas, fonts, &spec, pad as i32, y);
    y += bh as i32;
    if show_hands {
        draw_hand_row(&mut canvas, bottom, y + 4);
        y += hand_h as i32;
        for s in 2..rules.sides {
            draw_hand_row(&mut canvas, Side(s), y + 4);
            y += hand_h as i32;
        }
    }
    if legend_h > 0 {
        board::draw_legend(
            &mut canvas,
            fonts,
            &rules.catalog,
            &legend,
            pad as i32,
            y,
            width - 2 * pad,
            legend_icon,
        );
    }
    Ok(canvas)
}

/// `arbiter render --variant V --fen F [--last e2-e4] -o board.png`: draws a position of a
/// named variant, highlighting the squares of `last` (a move in the project's notation), and
/// writes the PNG to `out`.
///
/// # Errors
/// A bad variant, FEN or move text, or a file that cannot be written.
pub fn render_cli(
    variant: &str,
    fen: &str,
    last: Option<&str>,
    out: &Path,
) -> Result<(), RenderError> {
    let pos = crate::engine::position_of(variant, Some(fen))?;
    let lm = match last {
        Some(t) => Some(LastMove::from_text(&pos, t)?),
        None => None,
    };
    let png = render_position(&pos, lm, &RenderOptions::default())?;
    std::fs::write(out, png).map_err(|source| RenderError::Io {
        path: out.display().to_string(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Geometry;

    #[test]
    fn labels_match_square_names() {
        let mut g = Geometry::cut_corners(16, 2).unwrap();
        g.set_label_origin(crate::engine::Coord::new(3, 2));
        for &s in g.squares() {
            let c = g.coord(s);
            if let (Some(f), Some(r)) =
                (board::file_label(&g, c.file), board::rank_label(&g, c.rank))
            {
                assert_eq!(format!("{f}{r}"), g.name(s));
            }
        }
    }

    #[test]
    fn many_sides_get_distinct_colours() {
        let cols: Vec<_> = (0..8)
            .map(|n| PlayerColour::default_for_side(n).rgb())
            .collect();
        for i in 0..cols.len() {
            for j in 0..i {
                assert_ne!(cols[i], cols[j]);
            }
        }
        assert_ne!(DIM, TEXT);
    }
}
