//! The Kung Fu Bughouse picture: three boards side by side with players, hands, status lines,
//! frozen boards, kings held per team, last actions and a legend.

use std::collections::BTreeMap;

use crate::engine::{Position, Side};
use crate::render::board::{self, dot, BoardSpec, HandItem, DIM, PAGE, PANEL, TEXT};
use crate::render::canvas::{fit_text, wrap_text, Align, Canvas, Rgb8};
use crate::render::shapes::{sprite, Figure, OUTLINE};
use crate::render::{fonts, LastMove, PlayerColour, RenderError};

/// One seat of a board: the player's name, colour (their pieces' fill), team and hand.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatView {
    /// Name shown.
    pub name: String,
    /// The player's colour.
    pub colour: PlayerColour,
    /// Team index (0 or 1) in [`KfbView::teams`].
    pub team: u8,
    /// Pieces held for dropping: abbreviation, colour and count.
    pub hand: Vec<(String, PlayerColour, u16)>,
    /// A short note after the name (`until 14:05 UTC`, `holds the blue king`); may be empty.
    pub note: String,
    /// Whether the player may move now, shown as a badge.
    pub state: SeatState,
}

/// What a seat may do now, shown as a badge beside the name.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum SeatState {
    /// No badge (the board is frozen for them, or the game is over).
    #[default]
    Idle,
    /// Free to move or drop.
    ToMove,
    /// Locked by Kung Fu timing.
    Locked,
}

/// One board of a KFB game as the game layer sees it.
#[derive(Clone, Debug)]
pub struct KfbBoardView {
    /// Board number (1–3).
    pub number: u8,
    /// The position; side 0 is the bottom (first) player, side 1 the top (second) player.
    pub position: Position,
    /// The player who moves first (ranks 1–2, drawn at the bottom).
    pub bottom: SeatView,
    /// The player who moves second (ranks 7–8, drawn at the top).
    pub top: SeatView,
    /// Whether the board is frozen (a side has no king on it).
    pub frozen: bool,
    /// Whose move, who is locked and until when.
    pub status_line: String,
    /// The last action on this board.
    pub last: Option<LastMove>,
}

/// A team and the kings it holds (its own on its boards and every king in its players' hands).
#[derive(Clone, Debug, PartialEq)]
pub struct TeamView {
    /// Team name.
    pub name: String,
    /// Colour of each king held, one entry per king.
    pub kings: Vec<PlayerColour>,
}

/// Everything the KFB picture shows.
#[derive(Clone, Debug)]
pub struct KfbView {
    /// Title line (game name, action number).
    pub title: String,
    /// The three boards, left to right.
    pub boards: [KfbBoardView; 3],
    /// The two teams.
    pub teams: [TeamView; 2],
    /// The board drawn large, the other two smaller under it (the picture that answers a
    /// move, the board it was on: readable on a phone); `None` for three equal boards.
    pub focus: Option<usize>,
}

const SQ: u32 = 64;
const GAP: u32 = 18;
const HEADER_H: u32 = 38;
const STATUS_PX: f32 = 16.0;
const STATUS_LINE_H: u32 = 22;
const NAME_H: u32 = 50;
const HAND_ICON: u32 = 42;
const HAND_H: u32 = 50;
const TITLE_H: u32 = 50;
const TEAM_ICON: u32 = 36;
const TEAM_H: u32 = 44;
const FROZEN_BADGE: [u8; 3] = [120, 190, 245];
const TEAM_TAGS: [&str; 2] = ["A", "B"];

/// Draws the three boards of a KFB game and returns PNG bytes.
///
/// # Errors
/// Only if the embedded font is unreadable or encoding fails.
pub fn render_kfb(view: &KfbView) -> Result<Vec<u8>, RenderError> {
    draw_kfb(view)?.encode()
}

/// One board's panel: where it is and how large its squares are.
#[derive(Clone, Debug, PartialEq)]
struct PanelBox {
    x: i32,
    /// The panel's top row.
    y: u32,
    w: u32,
    sq: u32,
    margin: u32,
    board_h: u32,
    status_h: u32,
}

impl PanelBox {
    fn h(&self) -> u32 {
        HEADER_H + self.status_h + NAME_H + HAND_H + self.board_h + HAND_H + NAME_H + 8
    }
}

/// Where everything of a KFB picture goes: worked out from the view before drawing.
#[derive(Clone, Debug, PartialEq)]
struct Layout {
    /// The boards' panels, in the view's order.
    panels: Vec<PanelBox>,
    /// The board drawn large ([`KfbView::focus`]).
    focus: Option<usize>,
    width: u32,
    height: u32,
    /// Each board's status line, wrapped (at most three lines).
    status: Vec<Vec<String>>,
    /// The top of the teams' rows.
    teams_y: u32,
    /// The legend's entries: abbreviation, then name and moves.
    legend: BTreeMap<String, String>,
    legend_h: u32,
}

const LEGEND_ICON: u32 = 30;

impl Layout {
    fn of(view: &KfbView) -> Result<Layout, RenderError> {
        let fonts = fonts()?;
        // The largest board's width (files) or height (ranks) at `sq`, margins included.
        let largest = |sq: u32, cells: fn(&crate::engine::Geometry) -> usize| {
            let margin = board::coord_margin(fonts, sq);
            view.boards
                .iter()
                .map(|b| cells(&b.position.rules().geometry) as u32 * sq + 2 * margin)
                .max()
                .unwrap_or(8 * sq + 2 * margin)
        };
        let files = |g: &crate::engine::Geometry| g.files() as usize;
        let ranks = |g: &crate::engine::Geometry| g.ranks() as usize;
        let panel = |x: u32, y: u32, w: u32, sq: u32| PanelBox {
            x: x as i32,
            y,
            w,
            sq,
            margin: board::coord_margin(fonts, sq),
            board_h: largest(sq, ranks),
            status_h: 0,
        };
        let n = view.boards.len();
        let big_w = largest(SQ, files);
        let focus = view.focus.filter(|&f| f < n && n == 3);
        let (width, mut panels) = match focus {
            None => {
                let width = n as u32 * big_w + (n as u32 + 1) * GAP;
                let panels = (0..n as u32)
                    .map(|i| panel(GAP + i * (big_w + GAP), TITLE_H, big_w, SQ))
                    .collect::<Vec<_>>();
                (width, panels)
            }
            Some(f) => {
                // The board moved on across the picture; the other two, in order, under it
                // side by side, their squares as large as half the width allows.
                let width = big_w + 2 * GAP;
                let small_w = (width - 3 * GAP) / 2;
                let small_sq = (8..SQ)
                    .rev()
                    .find(|&sq| largest(sq, files) <= small_w)
                    .unwrap_or(8);
                let mut panels = vec![panel(0, 0, 0, SQ); n];
                panels[f] = panel(GAP, TITLE_H, big_w, SQ);
                for (k, i) in (0..n).filter(|&i| i != f).enumerate() {
                    let x = GAP + k as u32 * (small_w + GAP);
                    panels[i] = panel(x, 0, small_w, small_sq);
                }
                (width, panels)
            }
        };
        let status: Vec<Vec<String>> = view
            .boards
            .iter()
            .zip(&panels)
            .map(|(b, p)| {
                let mut lines =
                    wrap_text(&fonts.regular, STATUS_PX, &b.status_line, (p.w - 24) as f32);
                lines.truncate(3);
                lines
            })
            .collect();
        // Panels side by side share the status lines' height (their boards level).
        let status_h = |rows: &mut dyn Iterator<Item = usize>| {
            rows.map(|i| status.get(i).map_or(0, Vec::len))
                .max()
                .unwrap_or(1)
                .max(1) as u32
                * STATUS_LINE_H
                + 6
        };
        let teams_y = match focus {
            None => {
                let h = status_h(&mut (0..n));
                for p in &mut panels {
                    p.status_h = h;
                }
                TITLE_H + panels.first().map_or(0, PanelBox::h) + GAP
            }
            Some(f) => {
                panels[f].status_h = status_h(&mut std::iter::once(f));
                let under = TITLE_H + panels[f].h() + GAP;
                let h = status_h(&mut (0..n).filter(|&i| i != f));
                let mut bottom = under;
                for (i, p) in panels.iter_mut().enumerate() {
                    if i != f {
                        p.status_h = h;
                        p.y = under;
                        bottom = bottom.max(under + p.h());
                    }
                }
                bottom + GAP
            }
        };
        let mut legend = BTreeMap::new();
        for b in &view.boards {
            board::legend_of_position(&b.position, &mut legend);
            for seat in [&b.top, &b.bottom] {
                for (abbr, _, _) in &seat.hand {
                    board::legend_add_abbr(&b.position.rules().catalog, abbr, &mut legend);
                }
            }
        }
        let legend_h = board::legend_height(fonts, &legend, width - 2 * GAP, LEGEND_ICON);
        let height = teams_y + 2 * TEAM_H + legend_h + GAP;
        Ok(Layout {
            panels,
            focus,
            width,
            height,
            status,
            teams_y,
            legend,
            legend_h,
        })
    }

    /// Whether a picture of this layout can be drawn over one of `other`'s: the same
    /// widths and boards. Three equal boards' status lines' height and the legend's may
    /// differ: the rows under the status lines move up or down with them, and the legend is
    /// the last part. Panels one under another keep their places only with the same status
    /// lines' heights.
    fn same_frame(&self, other: &Layout) -> bool {
        let geometry = |l: &Layout| {
            l.panels
                .iter()
                .map(|p| (p.x, p.w, p.sq, p.margin, p.board_h))
                .collect::<Vec<_>>()
        };
        let heights = |l: &Layout| {
            l.panels
                .iter()
                .map(|p| (p.y, p.status_h))
                .collect::<Vec<_>>()
        };
        (self.width, self.focus) == (other.width, other.focus)
            && geometry(self) == geometry(other)
            && self.status.len() == other.status.len()
            && (self.focus.is_none() || heights(self) == heights(other))
    }

    /// The first row under the status lines (of the top row of panels).
    fn under_status(&self) -> u32 {
        let p = self.focus.and_then(|f| self.panels.get(f));
        TITLE_H + HEADER_H + p.or(self.panels.first()).map_or(0, |p| p.status_h)
    }

    /// Board `i`'s panel.
    fn panel(&self, i: usize) -> Option<&PanelBox> {
        self.panels.get(i)
    }
}

/// A part of the KFB picture: a rectangle of one background that only its own drawing
/// touches (tested), so that a part whose inputs did not change is left as it is when a
/// game's next picture is drawn over its last one.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Part {
    Title,
    /// A board's number and frozen badge.
    Header(usize),
    Status(usize),
    /// A seat's name lines; `true` for the top seat.
    Seat(usize, bool),
    /// A seat's hand; `true` for the top seat.
    Hand(usize, bool),
    Board(usize),
    /// The kings each team holds.
    Teams,
    Legend,
}

impl Part {
    /// Every part, in the order they are drawn.
    fn all(boards: usize) -> Vec<Part> {
        let mut parts = vec![Part::Title];
        for i in 0..boards {
            parts.extend([
                Part::Header(i),
                Part::Status(i),
                Part::Seat(i, true),
                Part::Hand(i, true),
                Part::Board(i),
                Part::Hand(i, false),
                Part::Seat(i, false),
            ]);
        }
        parts.extend([Part::Teams, Part::Legend]);
        parts
    }

    /// The part's rectangle (x, y, w, h) and background.
    fn rect(self, l: &Layout) -> (i32, i32, u32, u32, Rgb8) {
        let none = PanelBox {
            x: 0,
            y: 0,
            w: 0,
            sq: SQ,
            margin: 0,
            board_h: 0,
            status_h: 0,
        };
        let at = |i: usize| l.panel(i).unwrap_or(&none);
        let panel = |i: usize, dy: u32, h: u32| {
            let p = at(i);
            (p.x, (p.y + dy) as i32, p.w, h, PANEL)
        };
        let seat_y = |i: usize| HEADER_H + at(i).status_h;
        let board_y = |i: usize| seat_y(i) + NAME_H + HAND_H;
        let teams_y = l.teams_y;
        match self {
            Part::Title => (0, 0, l.width, TITLE_H, PAGE),
            Part::Header(i) => panel(i, 0, HEADER_H),
            Part::Status(i) => panel(i, HEADER_H, at(i).status_h),
            Part::Seat(i, true) => panel(i, seat_y(i), NAME_H),
            Part::Hand(i, true) => panel(i, seat_y(i) + NAME_H, HAND_H),
            Part::Board(i) => panel(i, board_y(i), at(i).board_h),
            Part::Hand(i, false) => panel(i, board_y(i) + at(i).board_h, HAND_H),
            Part::Seat(i, false) => panel(i, board_y(i) + at(i).board_h + HAND_H, NAME_H + 8),
            Part::Teams => (0, teams_y as i32, l.width, 2 * TEAM_H, PAGE),
            Part::Legend => (
                0,
                (teams_y + 2 * TEAM_H) as i32,
                l.width,
                l.height - teams_y - 2 * TEAM_H,
                PAGE,
            ),
        }
    }

    /// Whether the part shows the same in `a` (laid out as `la`) and in `b` (as `lb`).
    fn same(self, a: &KfbView, la: &Layout, b: &KfbView, lb: &Layout) -> bool {
        let board = |v: &KfbView, i: usize| v.boards.get(i).map(|b| (b.number, b.frozen));
        match self {
            Part::Title => a.title == b.title,
            Part::Header(i) => board(a, i) == board(b, i),
            Part::Status(i) => la.status.get(i) == lb.status.get(i),
            Part::Seat(i, top) => {
                // What the seat's lines show: not its hand.
                let shown = |v: &KfbView| {
                    let board = v.boards.get(i)?;
                    let s = seat_of(v, i, top)?;
                    let team = v.teams.get(s.team as usize).map(|t| t.name.clone());
                    let army = army_of(&board.position, if top { 1 } else { 0 }).to_string();
                    Some((
                        s.name.clone(),
                        s.colour,
                        s.team,
                        s.note.clone(),
                        s.state,
                        team,
                        army,
                    ))
                };
                shown(a) == shown(b)
            }
            Part::Hand(i, top) => {
                seat_of(a, i, top).map(|s| &s.hand) == seat_of(b, i, top).map(|s| &s.hand)
                    && same_rules(a, b, i)
            }
            Part::Board(i) => match (a.boards.get(i), b.boards.get(i)) {
                (Some(x), Some(y)) => {
                    x.position.same_placement(&y.position)
                        && x.last == y.last
                        && x.frozen == y.frozen
                        && x.bottom.colour == y.bottom.colour
                        && x.top.colour == y.top.colour
                }
                _ => false,
            },
            Part::Teams => a.teams == b.teams,
            Part::Legend => la.legend == lb.legend && same_rules(a, b, 0),
        }
    }
}

fn seat_of(v: &KfbView, i: usize, top: bool) -> Option<&SeatView> {
    v.boards
        .get(i)
        .map(|b| if top { &b.top } else { &b.bottom })
}

/// Whether board `i` of both views has the very same rules (and so the same catalogue).
fn same_rules(a: &KfbView, b: &KfbView, i: usize) -> bool {
    match (a.boards.get(i), b.boards.get(i)) {
        (Some(x), Some(y)) => std::sync::Arc::ptr_eq(x.position.rules(), y.position.rules()),
        _ => false,
    }
}

/// The army name of a side of a board.
fn army_of(pos: &Position, side: usize) -> &str {
    let rules = pos.rules();
    rules
        .side_armies
        .get(side)
        .map_or("", |&a| rules.catalog.army(a).name)
}

/// Draws the KFB picture.
pub(crate) fn draw_kfb(view: &KfbView) -> Result<Canvas, RenderError> {
    let layout = Layout::of(view)?;
    Ok(draw_fresh(view, &layout))
}

fn draw_fresh(view: &KfbView, layout: &Layout) -> Canvas {
    let panels: Vec<(i32, i32, u32, u32, _)> = layout
        .panels
        .iter()
        .map(|p| (p.x, p.y as i32, p.w, p.h(), PANEL))
        .collect();
    let mut canvas = Canvas::laid(layout.width, layout.height, PAGE, &panels);
    for part in Part::all(view.boards.len()) {
        draw_part(&mut canvas, view, layout, part);
    }
    canvas
}

/// A game's last KFB picture, kept to draw its next one over it.
pub(crate) struct KeptKfb {
    view: KfbView,
    layout: Layout,
    canvas: Canvas,
    /// Parts drawn again over the last picture; `None` when drawn afresh.
    redrawn: Option<usize>,
    /// Of those, boards drawn again square by square: how many squares.
    squares: usize,
}

impl KeptKfb {
    /// The picture.
    pub(crate) fn canvas(&self) -> &Canvas {
        &self.canvas
    }
}

/// The size of the KFB picture of `view`, worked out without drawing it.
///
/// # Errors
/// The font cannot be read.
pub(crate) fn kfb_size(view: &KfbView) -> Result<(u32, u32), RenderError> {
    let l = Layout::of(view)?;
    Ok((l.width, l.height))
}

impl crate::render::animation::Still for KfbView {
    fn draw(&self) -> Result<Canvas, RenderError> {
        draw_kfb(self)
    }

    fn size_hint(&self) -> Option<(u32, u32)> {
        kfb_size(self).ok()
    }

    /// Drawn over the replay's last KFB picture: only what changed is drawn again.
    fn draw_over<'a>(
        &self,
        kept: &'a mut Option<Box<dyn std::any::Any + Send>>,
        _own: &'a mut Option<Canvas>,
    ) -> Result<&'a Canvas, RenderError> {
        let last = kept
            .take()
            .and_then(|k| k.downcast::<KeptKfb>().ok())
            .map(|k| *k);
        let drawn = draw_kfb_over(self.clone(), last)?;
        match kept.insert(Box::new(drawn)).downcast_ref::<KeptKfb>() {
            Some(k) => Ok(k.canvas()),
            None => Err(RenderError::Message(
                "a kept KFB picture of another kind".into(),
            )),
        }
    }

    fn headline(&self) -> String {
        self.title.clone()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
impl KeptKfb {
    /// Parts drawn again over the last picture; `None` when drawn afresh.
    pub(crate) fn redrawn(&self) -> Option<usize> {
        self.redrawn
    }

    /// Squares drawn again one by one.
    pub(crate) fn squares(&self) -> usize {
        self.squares
    }
}

/// Draws the KFB picture of `view` over `kept`, the same game's last one, redrawing only the
/// parts whose inputs changed. The palette is the last picture's, added to: the picture is
/// the fresh one up to the palette's choices for anti-aliasing colours (each within a few
/// levels of the exact colour either way; once the palette is full, an anti-aliasing colour
/// takes the nearest entry up to 20 levels away). It is drawn afresh when there is no last
/// picture, when the parts moved, or when the palette, full, had to give a colour an entry
/// further off than that.
pub(crate) fn draw_kfb_over(view: KfbView, kept: Option<KeptKfb>) -> Result<KeptKfb, RenderError> {
    let layout = Layout::of(&view)?;
    let fresh = |view: KfbView, layout: Layout| {
        let canvas = draw_fresh(&view, &layout);
        Ok(KeptKfb {
            view,
            layout,
            canvas,
            redrawn: None,
            squares: 0,
        })
    };
    let reusable = kept.filter(|k| k.layout.same_frame(&layout));
    let Some(mut kept) = reusable else {
        return fresh(view, layout);
    };
    let approximated = kept.canvas.approximations();
    // The rows under the status lines follow them; the status lines are drawn again.
    let (was, under) = (kept.layout.under_status(), layout.under_status());
    let by = under as i32 - was as i32;
    if !kept.canvas.shift_rows(was, by, layout.height) {
        return fresh(view, layout);
    }
    if by != 0 {
        let top = TITLE_H + HEADER_H;
        let status_h = layout.panels.first().map_or(0, |p| p.status_h);
        kept.canvas
            .fill(0, top as i32, layout.width, status_h, PAGE);
    }
    let moved = |(x, y, w, h, bg): (i32, i32, u32, u32, Rgb8)| {
        let y = if y >= was as i32 { y + by } else { y };
        (x, y, w, h, bg)
    };
    let mut redrawn = 0;
    kept.squares = 0;
    for part in Part::all(view.boards.len()) {
        let rect = part.rect(&layout);
        let in_place = moved(part.rect(&kept.layout)) == rect;
        if in_place && part.same(&kept.view, &kept.layout, &view, &layout) {
            continue;
        }
        redrawn += 1;
        // A move: only the squares it changed.
        if let (Part::Board(i), true) = (part, in_place) {
            if let (Some(squares), Some(b), Ok(fonts)) = (
                changed_squares(&kept.view, &view, i),
                view.boards.get(i),
                fonts(),
            ) {
                let (x, y, ..) = rect;
                with_board(b, &layout, i, x, y, |spec, bx, by| {
                    board::draw_squares(&mut kept.canvas, fonts, spec, bx, by, &squares);
                });
                kept.squares += squares.len();
                continue;
            }
        }
        let (x, y, w, h, bg) = rect;
        kept.canvas.fill(x, y, w, h, bg);
        draw_part(&mut kept.canvas, &view, &layout, part);
    }
    if kept.canvas.approximations() != approximated {
        return fresh(view, layout);
    }
    kept.redrawn = Some(redrawn);
    kept.view = view;
    kept.layout = layout;
    Ok(kept)
}

/// The last KFB picture of the games drawn lately, by thread, for [`render_kfb_over`].
struct KeptPictures {
    games: std::collections::HashMap<String, (u64, KeptKfb)>,
    /// Ticks on every picture put back: the least recently drawn game goes first.
    tick: u64,
}

/// Games whose last picture is kept at most (about 2.3 MB each: the picture's indices and
/// palette), and all of them within their share of the picture caches' budget
/// ([`crate::render::budget`]: half of the default 64 MB, about 13 games).
const KEPT_GAMES: usize = 64;

static KEPT: std::sync::LazyLock<std::sync::Mutex<KeptPictures>> = std::sync::LazyLock::new(|| {
    std::sync::Mutex::new(KeptPictures {
        games: std::collections::HashMap::new(),
        tick: 0,
    })
});

fn kept_pictures() -> std::sync::MutexGuard<'static, KeptPictures> {
    // Each change is one insert or one remove: a panic elsewhere leaves the map whole.
    KEPT.lock().unwrap_or_else(|e| e.into_inner())
}

/// Draws the KFB picture of `view` over the last one drawn for `thread` (`draw_kfb_over`)
/// and returns PNG bytes. A picture being drawn is taken out of the store meanwhile, so two
/// pictures of one game drawn at once each draw on their own (the second afresh).
///
/// # Errors
/// Only if the embedded font is unreadable or encoding fails.
pub fn render_kfb_over(thread: &str, view: KfbView) -> Result<Vec<u8>, RenderError> {
    let last = kept_pictures().games.remove(thread).map(|(_, k)| k);
    let kept = draw_kfb_over(view, last)?;
    tracing::trace!(thread, redrawn = ?kept.redrawn, "KFB picture");
    let png = kept.canvas.encode()?;
    let mut store = kept_pictures();
    store.tick += 1;
    let tick = store.tick;
    let share = crate::render::budget::share(crate::render::budget::Part::KeptPictures);
    if kept.canvas.held_bytes() <= share {
        store.games.insert(thread.to_string(), (tick, kept));
    }
    // The least recently drawn games go first, until the rest fit.
    while store.games.len() > KEPT_GAMES || store.held_bytes() > share {
        let oldest = store
            .games
            .iter()
            .min_by_key(|(_, (t, _))| *t)
            .map(|(k, _)| k.clone());
        match oldest {
            Some(k) => store.games.remove(&k),
            None => break,
        };
    }
    Ok(png)
}

impl KeptPictures {
    /// The bytes the kept pictures hold.
    fn held_bytes(&self) -> usize {
        self.games
            .values()
            .map(|(_, k)| k.canvas.held_bytes())
            .sum()
    }
}

/// The bytes the kept KFB pictures hold now.
pub(crate) fn kept_bytes() -> usize {
    kept_pictures().held_bytes()
}

/// Forgets the kept pictures.
pub(crate) fn clear_kept() {
    kept_pictures().games.clear();
}

/// Runs `f` with board `b`'s spec and the top-left corner of its margin, for the board part
/// at (x, y).
fn with_board(
    b: &KfbBoardView,
    layout: &Layout,
    i: usize,
    x: i32,
    y: i32,
    f: impl FnOnce(&BoardSpec<'_>, i32, i32),
) {
    let colour_of = |s: Side| {
        if s.0 == 0 {
            b.bottom.colour.rgb()
        } else {
            b.top.colour.rgb()
        }
    };
    let Some(p) = layout.panel(i) else {
        return;
    };
    let spec = BoardSpec {
        pos: &b.position,
        sq: p.sq,
        margin: p.margin,
        flipped: false,
        last: b.last.as_ref(),
        colour_of: &colour_of,
        frozen: b.frozen,
    };
    let (bw, _) = spec.size();
    f(&spec, x + (p.w as i32 - bw as i32) / 2, y);
}

/// The squares of board `i` that look different in `b` than in `a` (a piece, the last
/// move's marks), when nothing else on the board changed and they are few.
fn changed_squares(a: &KfbView, b: &KfbView, i: usize) -> Option<Vec<crate::engine::Square>> {
    let (x, y) = (a.boards.get(i)?, b.boards.get(i)?);
    let same_look = std::sync::Arc::ptr_eq(x.position.rules(), y.position.rules())
        && x.frozen == y.frozen
        && x.bottom.colour == y.bottom.colour
        && x.top.colour == y.top.colour;
    if !same_look {
        return None;
    }
    let squares: Vec<_> = y
        .position
        .rules()
        .geometry
        .squares()
        .iter()
        .copied()
        .filter(|&s| {
            x.position.piece_at(s) != y.position.piece_at(s)
                || board::highlight(x.last.as_ref(), s) != board::highlight(y.last.as_ref(), s)
        })
        .collect();
    (squares.len() <= MOST_SQUARES_AGAIN).then_some(squares)
}

/// Squares of a board drawn again one by one; more, and the whole board is drawn again.
const MOST_SQUARES_AGAIN: usize = 16;

/// Draws one part of the picture on its background.
fn draw_part(canvas: &mut Canvas, view: &KfbView, layout: &Layout, part: Part) {
    let Ok(fonts) = fonts() else { return };
    let (x, y, _, _, _) = part.rect(layout);
    let index = match part {
        Part::Header(i)
        | Part::Status(i)
        | Part::Seat(i, _)
        | Part::Hand(i, _)
        | Part::Board(i) => i,
        _ => 0,
    };
    let (panel_w, margin) = layout.panel(index).map_or((0, 0), |p| (p.w, p.margin));
    let board = |i: usize| view.boards.get(i);
    match part {
        Part::Title => {
            let width = layout.width;
            let title = fit_text(&fonts.bold, 24.0, &view.title, (width - 2 * GAP) as f32);
            canvas.text(
                &fonts.bold,
                24.0,
                &title,
                GAP as f32,
                TITLE_H as f32 / 2.0 + 2.0,
                Align::Left,
                TEXT,
            );
        }
        Part::Header(i) => {
            let Some(b) = board(i) else { return };
            canvas.text(
                &fonts.bold,
                21.0,
                &format!("Board {}", b.number),
                (x + 12) as f32,
                (y + HEADER_H as i32 / 2) as f32,
                Align::Left,
                TEXT,
            );
            if b.frozen {
                let label = "FROZEN";
                let w = crate::render::canvas::text_width(&fonts.bold, 17.0, label) as u32 + 20;
                let bx = x + panel_w as i32 - w as i32 - 10;
                canvas.fill(bx, y + 6, w, HEADER_H - 12, FROZEN_BADGE);
                canvas.text(
                    &fonts.bold,
                    17.0,
                    label,
                    (bx + w as i32 / 2) as f32,
                    (y + HEADER_H as i32 / 2) as f32,
                    Align::Centre,
                    [16, 40, 70],
                );
            }
        }
        Part::Status(i) => {
            for (k, line) in layout.status.get(i).into_iter().flatten().enumerate() {
                canvas.text(
                    &fonts.regular,
                    STATUS_PX,
                    line,
                    (x + 12) as f32,
                    (y + k as i32 * STATUS_LINE_H as i32 + STATUS_LINE_H as i32 / 2) as f32,
                    Align::Left,
                    TEXT,
                );
            }
        }
        Part::Seat(i, top) => {
            let (Some(b), Some(seat)) = (board(i), seat_of(view, i, top)) else {
                return;
            };
            let army = army_of(&b.position, if top { 1 } else { 0 });
            let inner_x = x + margin as i32;
            seat_line(canvas, view, seat, army, inner_x, y, panel_w - 2 * margin);
        }
        Part::Hand(i, top) => {
            let (Some(b), Some(seat)) = (board(i), seat_of(view, i, top)) else {
                return;
            };
            let catalog = &b.position.rules().catalog;
            let side = Side(if top { 1 } else { 0 });
            let items: Vec<HandItem> = seat
                .hand
                .iter()
                .map(|(abbr, colour, n)| HandItem {
                    figure: board::figure_by_abbr(catalog, abbr, side),
                    colour: colour.rgb(),
                    count: *n,
                })
                .collect();
            // The bottom hand sits 2 pixels lower, nearer its name.
            let dy = if top { 0 } else { 2 };
            hand_row(
                canvas,
                &items,
                x + margin as i32,
                y + dy,
                panel_w - 2 * margin,
            );
        }
        Part::Board(i) => {
            if let Some(b) = board(i) {
                with_board(b, layout, i, x, y, |spec, bx, by| {
                    board::draw_board(canvas, fonts, spec, bx, by);
                });
            }
        }
        Part::Teams => {
            let mut y = y;
            for (t, team) in view.teams.iter().enumerate() {
                let x = GAP as i32;
                let cy = y + TEAM_H as i32 / 2;
                let tag = TEAM_TAGS.get(t).copied().unwrap_or("?");
                let w = canvas.text(
                    &fonts.bold,
                    19.0,
                    &format!("Team {tag} · {}", team.name),
                    x as f32,
                    cy as f32,
                    Align::Left,
                    TEXT,
                );
                let mut kx = x + w as i32 + 14;
                let kings = format!("kings held: {} of 6", team.kings.len());
                let kw = canvas.text(
                    &fonts.regular,
                    17.0,
                    &kings,
                    kx as f32,
                    cy as f32,
                    Align::Left,
                    DIM,
                );
                kx += kw as i32 + 10;
                for c in &team.kings {
                    sprite(fonts, &Figure::King, c.rgb(), TEAM_ICON as usize).draw(
                        canvas,
                        kx,
                        cy - TEAM_ICON as i32 / 2 - 2,
                    );
                    kx += TEAM_ICON as i32 + 2;
                }
                y += TEAM_H as i32;
            }
        }
        Part::Legend => {
            if layout.legend_h > 0 {
                let Some(b) = board(0) else { return };
                board::draw_legend(
                    canvas,
                    fonts,
                    &b.position.rules().catalog,
                    &layout.legend,
                    GAP as i32,
                    y,
                    layout.width - 2 * GAP,
                    LEGEND_ICON,
                );
            }
        }
    }
}

/// A seat's two lines: colour disc, name, note and state badge; then colour, army and team.
#[allow(clippy::too_many_arguments)]
fn seat_line(
    canvas: &mut Canvas,
    view: &KfbView,
    seat: &SeatView,
    army: &str,
    x: i32,
    y: i32,
    w: u32,
) {
    let Ok(fonts) = fonts() else { return };
    let cy = y + 15;
    dot(canvas, x + 10, cy, 10, OUTLINE);
    dot(canvas, x + 10, cy, 8, seat.colour.rgb());
    let badge = match seat.state {
        SeatState::ToMove => Some(("TO MOVE", [62, 160, 88])),
        SeatState::Locked => Some(("LOCKED", [196, 122, 52])),
        SeatState::Idle => None,
    };
    let mut right = x + w as i32;
    if let Some((label, bg)) = badge {
        let bw = crate::render::canvas::text_width(&fonts.bold, 13.0, label) as u32 + 16;
        right -= bw as i32;
        canvas.fill(right, cy - 11, bw, 22, bg);
        canvas.text(
            &fonts.bold,
            13.0,
            label,
            (right + bw as i32 / 2) as f32,
            cy as f32,
            Align::Centre,
            [255, 255, 255],
        );
        right -= 8;
    }
    let name = fit_text(&fonts.bold, 18.0, &seat.name, w as f32 * 0.4);
    let nw = canvas.text(
        &fonts.bold,
        18.0,
        &name,
        (x + 28) as f32,
        cy as f32,
        Align::Left,
        TEXT,
    );
    let note_x = x as f32 + 28.0 + nw + 10.0;
    let note = fit_text(
        &fonts.regular,
        15.0,
        &seat.note,
        (right as f32 - note_x).max(0.0),
    );
    canvas.text(
        &fonts.regular,
        15.0,
        &note,
        note_x,
        cy as f32,
        Align::Left,
        TEXT,
    );
    let team = view
        .teams
        .get(seat.team as usize)
        .map(|t| {
            let tag = TEAM_TAGS.get(seat.team as usize).copied().unwrap_or("?");
            format!("team {tag} {}", t.name)
        })
        .unwrap_or_default();
    let details = format!("{} · {army} · {team}", seat.colour.name());
    let details = fit_text(&fonts.regular, 14.0, &details, w as f32 - 28.0);
    canvas.text(
        &fonts.regular,
        14.0,
        &details,
        (x + 28) as f32,
        (y + 36) as f32,
        Align::Left,
        DIM,
    );
}

/// A hand row, or "no pieces in hand".
fn hand_row(canvas: &mut Canvas, items: &[HandItem], x: i32, y: i32, w: u32) {
    let Ok(fonts) = fonts() else { return };
    if items.is_empty() {
        canvas.text(
            &fonts.regular,
            15.0,
            "no pieces in hand",
            x as f32,
            (y + HAND_H as i32 / 2) as f32,
            Align::Left,
            DIM,
        );
    } else {
        board::draw_hand(
            canvas,
            fonts,
            items,
            x,
            y + (HAND_H - HAND_ICON) as i32 / 2,
            HAND_ICON,
            w,
        );
    }
}

/// An example game (the seating of the rules document's example) with hands, a frozen board
/// and a captured king held in hand; used by the benchmark and the golden-image tests.
///
/// # Errors
/// Only if the built-in example positions stop parsing.
pub fn example_kfb() -> Result<KfbView, RenderError> {
    use PlayerColour::{Blue, LightGreen, Red};
    let pos = |variant: &str, fen: &str| crate::engine::position_of(variant, Some(fen));
    let seat = |name: &str, colour, team, hand: &[(&str, PlayerColour, u16)], note: &str, state| {
        SeatView {
            name: name.into(),
            colour,
            team,
            hand: hand
                .iter()
                .map(|&(a, c, n)| (a.to_string(), c, n))
                .collect(),
            note: note.into(),
            state,
        }
    };
    let b1 = pos(
        "kfb-board:clobberers-fide",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/4P3/4{W}3/PPPP1PPP/{Be}{W}{FAD}{Ca}K{FAD}1{Be}[] w - - 4 4",
    )?;
    let last1 = LastMove::from_text(&b1, "Bf8-c5")?;
    let b2 = pos(
        "kfb-board:rookies-nutty",
        "{cr}{fb}{cn}{co}{Ch}{cn}1{cr}/ppp2ppp/5{fb}2/3pp3/4P3/5{WR}2/PPPP1PPP/R{WR}{HD}1K{HD}1R[] b - - 0 6",
    )?;
    let last2 = LastMove::from_text(&b2, "Chd6xe8")?;
    let b3 = pos(
        "kfb-board:forward-nutty",
        "{cr}{fb}1{co}k{cn}{fb}{cr}/pp1ppp1p/8/3w4/2{BN}5/5{NB}2/PPPPPPPP/{CR}{NB}1{FQ}K{BN}1{CR}[] w - - 2 5",
    )?;
    let last3 = LastMove::from_text(&b3, "W@d5")?;
    Ok(KfbView {
        title: "Kung Fu Bughouse · Dragons vs Tigers · action 41".into(),
        boards: [
            KfbBoardView {
                number: 1,
                position: b1,
                bottom: seat("Lena", LightGreen, 0, &[("CN", LightGreen, 1), ("P", LightGreen, 2)], "", SeatState::ToMove),
                top: seat("Ruth", Red, 1, &[("WR", Red, 1), ("P", Red, 1)], "until 14:05 UTC", SeatState::Locked),
                frozen: false,
                status_line: "Lena (lightgreen) to move · Ruth (red) locked until 14:05 UTC or until Lena moves".into(),
                last: Some(last1),
            },
            KfbBoardView {
                number: 2,
                position: b2,
                bottom: seat("Rob", Red, 0, &[("K", Blue, 1), ("N", Red, 1)], "holds the blue king", SeatState::Idle),
                top: seat("Bo", Blue, 1, &[("NB", Blue, 1), ("P", Blue, 3)], "no king on the board", SeatState::Idle),
                frozen: true,
                status_line: "Frozen: Bo (blue) has no king on this board; only a blue king drop unfreezes it".into(),
                last: Some(last2),
            },
            KfbBoardView {
                number: 3,
                position: b3,
                bottom: seat("Blake", Blue, 0, &[("Fb", Blue, 1)], "", SeatState::ToMove),
                top: seat("Lou", LightGreen, 1, &[("Ca", LightGreen, 1)], "until 15:20 UTC", SeatState::Locked),
                frozen: false,
                status_line: "Blake (blue) to move · Lou (lightgreen) locked until 15:20 UTC; Lou's W on d5 is locked until Blake moves".into(),
                last: Some(last3),
            },
        ],
        focus: None,
        teams: [
            TeamView {
                name: "Dragons".into(),
                kings: vec![Red, LightGreen, Blue, Blue],
            },
            TeamView {
                name: "Tigers".into(),
                kings: vec![Red, LightGreen],
            },
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::PlayerColour;

    /// Every pixel's colour, from the picture's PNG.
    fn rgb(canvas: &Canvas) -> image::RgbImage {
        let png = canvas.encode().unwrap();
        image::load_from_memory(&png).unwrap().to_rgb8()
    }

    /// The largest channel difference between two pictures of one size.
    fn furthest(a: &Canvas, b: &Canvas, what: &str) -> u8 {
        let (a, b) = (rgb(a), rgb(b));
        assert_eq!(a.dimensions(), b.dimensions(), "{what}");
        a.pixels()
            .zip(b.pixels())
            .map(|(p, q)| (0..3).map(|i| p.0[i].abs_diff(q.0[i])).max().unwrap_or(0))
            .max()
            .unwrap_or(0)
    }

    /// Each part draws inside its own rectangle, and the parts of a panel fill it.
    #[test]
    fn parts_stay_inside_their_rectangles() {
        let mut views = vec![example_kfb().unwrap()];
        // No hands, nothing frozen, no kings held: the other branches of the parts.
        let mut bare = example_kfb().unwrap();
        for b in &mut bare.boards {
            b.frozen = !b.frozen;
            b.top.hand.clear();
            b.bottom.hand.clear();
            b.top.state = SeatState::ToMove;
        }
        bare.teams[0].kings.clear();
        views.push(bare);
        // The move's board large, the others under it.
        for f in 0..3 {
            let mut v = example_kfb().unwrap();
            v.focus = Some(f);
            views.push(v);
        }
        for view in &views {
            let layout = Layout::of(view).unwrap();
            const MARK: Rgb8 = [255, 0, 255];
            let parts = Part::all(view.boards.len());
            for &part in &parts {
                let mut canvas = Canvas::new(layout.width, layout.height, MARK);
                let mark = canvas.rows().0[1];
                let (x, y, w, h, bg) = part.rect(&layout);
                assert!(x >= 0 && y >= 0 && x as u32 + w <= layout.width, "{part:?}");
                assert!(y as u32 + h <= layout.height, "{part:?}");
                canvas.fill(x, y, w, h, bg);
                draw_part(&mut canvas, view, &layout, part);
                let (rows, stride) = canvas.rows();
                let inside = |px: usize, py: usize| {
                    (x as usize..(x as u32 + w) as usize).contains(&px)
                        && (y as usize..(y as u32 + h) as usize).contains(&py)
                };
                for (py, row) in rows.chunks_exact(stride).enumerate() {
                    for (px, &v) in row[1..].iter().enumerate() {
                        assert!(
                            inside(px, py) || v == mark,
                            "{part:?} drew at ({px}, {py}) outside {:?}",
                            (x, y, w, h)
                        );
                    }
                }
            }
            // The parts of a panel are its whole height, one under the other.
            for i in 0..view.boards.len() {
                let p = layout.panel(i).unwrap();
                let mut y = p.y as i32;
                for part in parts.iter().filter(|p| match p {
                    Part::Header(j) | Part::Status(j) | Part::Board(j) => *j == i,
                    Part::Seat(j, _) | Part::Hand(j, _) => *j == i,
                    _ => false,
                }) {
                    let (px, py, pw, ph, _) = part.rect(&layout);
                    assert_eq!((px, py, pw), (p.x, y, p.w));
                    y += ph as i32;
                }
                assert_eq!(y, (p.y + p.h()) as i32);
            }
        }
    }

    /// Views of one game, one change after another, as the game layer would give them.
    fn game_of_views() -> Vec<(&'static str, KfbView)> {
        let mut out = Vec::new();
        // The example, but board 2 not frozen: a frozen board's tint over every piece takes
        // a palette nearly full (236 entries), and a picture drawn over another then often
        // needs an entry the palette has no room for (it is drawn afresh then: tested below).
        let mut v = example_kfb().unwrap();
        v.boards[1].frozen = false;
        v.boards[1].status_line = "Bo (blue) to move".into();
        out.push(("the example", v.clone()));
        out.push(("the same again", v.clone()));
        v.title = "Kung Fu Bughouse · Dragons vs Tigers · action 42".into();
        out.push(("the title", v.clone()));
        v.boards[0].status_line = "A long status line that wraps: ".repeat(6);
        out.push(("a status line of three lines", v.clone()));
        v.boards[0].status_line = "Ruth (red) to move".into();
        out.push(("a status line of one line", v.clone()));
        // A move on board 1: the position, the last move, the status and the seats' badges.
        {
            let b = &mut v.boards[0];
            let mv = b.position.legal_moves()[0];
            b.position.make(mv);
            b.last = Some(LastMove::from_move(&mv));
            b.status_line = "Ruth (red) to move · Lena (lightgreen) locked until 14:07 UTC".into();
            b.bottom.state = SeatState::Locked;
            b.bottom.note = "until 14:07 UTC".into();
            b.top.state = SeatState::ToMove;
            b.top.note.clear();
        }
        out.push(("a move on board 1", v.clone()));
        // Another: the marks of the last move move on, and a drop is marked.
        {
            let b = &mut v.boards[0];
            let mv = b.position.legal_moves()[3];
            b.position.make(mv);
            b.last = Some(LastMove::from_move(&mv));
        }
        out.push(("another move on board 1", v.clone()));
        {
            let b = &mut v.boards[2];
            let mv = b.position.legal_moves()[0];
            b.position.make(mv);
            b.last = Some(LastMove {
                drop: mv.to(),
                ..LastMove::default()
            });
        }
        out.push(("a drop marked on board 3", v.clone()));
        v.boards[1].top.hand[1].2 = 4;
        out.push(("a pawn more in hand", v.clone()));
        v.boards[2].bottom.name = "Blake the Bold".into();
        out.push(("a name", v.clone()));
        v.boards[1].frozen = true;
        v.boards[1].status_line = "Frozen: Bo (blue) has no king on this board".into();
        out.push(("board 2 frozen", v.clone()));
        v.teams[0].kings.pop();
        out.push(("a king less held", v.clone()));
        v.teams[1].name = "Tigresses".into();
        out.push(("a team's name", v.clone()));
        v.boards[2].top.colour = PlayerColour::Red;
        out.push(("a seat's colour", v.clone()));
        v.boards[0].top.hand.clear();
        v.boards[0].bottom.hand.clear();
        out.push(("hands emptied", v.clone()));
        v.boards[1]
            .top
            .hand
            .push(("Ch".into(), PlayerColour::Blue, 1));
        out.push(("a piece more in hand", v.clone()));
        // Board 3's Forward pieces leave the legend.
        v.boards[2].position = crate::engine::position_of(
            "kfb-board:forward-nutty",
            Some("4k3/8/8/8/8/8/8/4K3[] w - - 0 1"),
        )
        .unwrap();
        v.boards[2].last = None;
        out.push(("a shorter legend", v.clone()));
        out.push(("the same again", v.clone()));
        out
    }

    /// A picture drawn over the game's last one is the picture drawn afresh: flat colours
    /// exact, anti-aliasing within the palette's allowance either way; and only the parts
    /// that changed are drawn again.
    #[test]
    fn drawn_over_the_last_picture_is_the_fresh_picture() {
        let mut kept: Option<KeptKfb> = None;
        let mut redrawn = Vec::new();
        let mut heights = Vec::new();
        let mut squares = Vec::new();
        for (what, view) in game_of_views() {
            heights.push((what, Layout::of(&view).unwrap().legend_h));
            let fresh = draw_kfb(&view).unwrap();
            let before = kept.as_ref().map(|k| k.canvas().rows().0.to_vec());
            let over = draw_kfb_over(view, kept.take()).unwrap();
            if what == "the same again" {
                if let Some(before) = before {
                    assert_eq!(over.redrawn(), Some(0), "{what}");
                    assert_eq!(over.canvas().rows().0, &before[..], "{what}");
                }
            }
            let worst = furthest(&fresh, over.canvas(), what);
            // Each is within 13 levels of the exact colour.
            assert!(
                worst <= 26,
                "{what}: a pixel {worst} levels off the fresh picture"
            );
            redrawn.push((what, over.redrawn()));
            squares.push((what, over.squares()));
            kept = Some(over);
        }
        println!("{redrawn:?}");
        let legend = |what: &str| heights.iter().find(|(w, _)| *w == what).map(|(_, h)| *h);
        assert!(legend("a shorter legend") < legend("a piece more in hand"));
        let redrawn: std::collections::HashMap<_, _> = redrawn.into_iter().collect();
        let squares: std::collections::HashMap<_, _> = squares.into_iter().collect();
        // The move's two squares, and the two the last move had marked.
        assert_eq!(squares["a move on board 1"], 4);
        assert!(
            squares["another move on board 1"] >= 3,
            "{squares:?} {redrawn:?}"
        );
        assert!(
            squares["a drop marked on board 3"] >= 3,
            "{squares:?} {redrawn:?}"
        );
        // A frozen board's every square changes tint: drawn whole.
        assert_eq!(squares["board 2 frozen"], 0);
        assert_eq!(redrawn["the example"], None);
        assert_eq!(redrawn["the title"], Some(1));
        // Board 1's status, both seats and the board itself.
        assert_eq!(redrawn["a move on board 1"], Some(4));
        assert_eq!(redrawn["another move on board 1"], Some(1));
        assert_eq!(redrawn["a pawn more in hand"], Some(1));
        assert_eq!(redrawn["a name"], Some(1));
        assert_eq!(redrawn["a king less held"], Some(1));
        // The team's name is on its three players' seat lines too.
        assert_eq!(redrawn["a team's name"], Some(4));
        // The board (its pieces' colour) and the seat's lines (its disc).
        assert_eq!(redrawn["a seat's colour"], Some(2));
        assert!(matches!(redrawn["board 2 frozen"], Some(3) | None));
        // The status grew a line: the rows under it moved down with it, and board 1's status
        // is drawn again with the other boards' (their rectangles grew).
        assert_eq!(redrawn["a status line of three lines"], Some(3));
        assert_eq!(redrawn["a status line of one line"], Some(3));
        // The board, its hands (new rules) and the legend.
        assert_eq!(redrawn["a shorter legend"], Some(4));
    }

    /// Over the denser example (board 2 frozen), some pictures find no room in the palette
    /// and are drawn afresh: those are the fresh picture exactly, the others as above.
    #[test]
    fn a_picture_without_room_in_the_palette_is_drawn_afresh() {
        let mut kept: Option<KeptKfb> = None;
        let mut afresh = 0;
        for (what, mut view) in game_of_views() {
            view.boards[1].frozen = !view.boards[1].frozen;
            let fresh = draw_kfb(&view).unwrap();
            let over = draw_kfb_over(view, kept.take()).unwrap();
            if over.redrawn().is_none() {
                afresh += 1;
                assert_eq!(over.canvas().rows(), fresh.rows(), "{what}");
            } else {
                let worst = furthest(&fresh, over.canvas(), what);
                assert!(
                    worst <= 36,
                    "{what}: a pixel {worst} levels off the fresh picture"
                );
            }
            kept = Some(over);
        }
        println!("{afresh} pictures drawn afresh");
    }
}
