//! The Chex position (Chex rules 5.0–5.6): pieces on absolute squares, both stacks, the side
//! to move and the revealed piece; legal plays with the one-group rule and the board limit; the
//! shown board (enclosing rectangle plus a one-square border) and its labels.

use std::collections::{BTreeMap, HashSet, VecDeque};

/// An absolute square `(x, y)`: x grows to the right (files), y upward (ranks). White's first
/// piece stands at `(0, 0)`.
pub type Abs = (i32, i32);

/// The default and largest board limit (§5.6).
pub const MAX_BOARD: u32 = 26;
/// The smallest board limit a game may set.
pub const MIN_BOARD: u32 = 8;

/// A side.
#[derive(
    Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Side {
    /// White (moves first, pawns go up).
    White,
    /// Black.
    Black,
}

impl Side {
    /// Both sides, White first.
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
    /// 0 for White, 1 for Black.
    pub fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }
    /// `White` or `Black`.
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }
    /// `w` or `b`.
    pub fn letter(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
        }
    }
    /// Reads `white`/`black` (or `w`/`b`).
    pub fn parse(text: &str) -> Option<Side> {
        match text.trim().to_ascii_lowercase().as_str() {
            "w" | "white" => Some(Side::White),
            "b" | "black" => Some(Side::Black),
            _ => None,
        }
    }
}

/// A piece type (§5.3): the FIDE six.
pub use crate::games::fide::Kind;

/// The FIDE sixteen in the stacks' starting order (`KQRRBBNNPPPPPPPP`), before shuffling.
pub fn full_set() -> Vec<Kind> {
    Kind::ALL
        .iter()
        .flat_map(|&k| std::iter::repeat_n(k, k.count()))
        .collect()
}

/// A piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub struct Piece {
    /// Whose.
    pub side: Side,
    /// What.
    pub kind: Kind,
}

impl Piece {
    /// Its FEN letter: upper case White, lower case Black.
    pub fn fen(self) -> char {
        match self.side {
            Side::White => self.kind.letter(),
            Side::Black => self.kind.letter().to_ascii_lowercase(),
        }
    }
}

/// A move of a piece on the board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub struct Move {
    /// From.
    pub from: Abs,
    /// To.
    pub to: Abs,
}

/// The rectangle the board is shown as: its `a1` and its size.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Frame {
    /// Absolute square of the shown `a1`.
    pub origin: Abs,
    /// Files.
    pub width: u32,
    /// Ranks.
    pub height: u32,
}

impl Frame {
    /// The label of an absolute square in this frame (`c3`), if it is on it.
    pub fn name(&self, sq: Abs) -> Option<String> {
        let f = sq.0 - self.origin.0;
        let r = sq.1 - self.origin.1;
        if f < 0 || r < 0 || f >= self.width as i32 || r >= self.height as i32 || f >= 26 {
            return None;
        }
        Some(format!("{}{}", (b'a' + f as u8) as char, r + 1))
    }
    /// The label, or the absolute coordinates in brackets when off the frame.
    pub fn label(&self, sq: Abs) -> String {
        self.name(sq)
            .unwrap_or_else(|| format!("({},{})", sq.0, sq.1))
    }
    /// The absolute square of a label on this frame.
    pub fn parse(&self, text: &str) -> Option<Abs> {
        let t = text.trim();
        let mut chars = t.chars();
        let file = chars.next()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let rank: String = chars.collect();
        if rank.is_empty() || !rank.chars().all(|c| c.is_ascii_digit()) || rank.starts_with('0') {
            return None;
        }
        let r: i32 = rank.parse().ok()?;
        let f = (file as u8 - b'a') as i32;
        if f >= self.width as i32 || r < 1 || r > self.height as i32 {
            return None;
        }
        Some((self.origin.0 + f, self.origin.1 + r - 1))
    }
}

/// What the position text carries, with the stacks in drawing order (top first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    board: BTreeMap<Abs, Piece>,
    /// Each side's face-down stack, top first (White, Black).
    pub stacks: [Vec<Kind>; 2],
    /// The side to move.
    pub to_move: Side,
    /// The piece drawn and waiting to be placed (the mover's).
    pub revealed: Option<Kind>,
    /// The single square of the empty board.
    pub empty_origin: Abs,
    /// The board limit (§5.6), not part of the text.
    pub max_board: u32,
}

const KING_STEPS: [Abs; 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];
const KNIGHT_STEPS: [Abs; 8] = widened(crate::games::fide::KNIGHT_LEAPS);
const ROOK_DIRS: [Abs; 4] = widened(crate::games::fide::ROOK_DIRECTIONS);
const BISHOP_DIRS: [Abs; 4] = widened(crate::games::fide::BISHOP_DIRECTIONS);

/// FIDE offsets as absolute-square steps.
const fn widened<const N: usize>(steps: [(i8, i8); N]) -> [Abs; N] {
    let mut out = [(0, 0); N];
    let mut i = 0;
    while i < N {
        out[i] = (steps[i].0 as i32, steps[i].1 as i32);
        i += 1;
    }
    out
}

fn add(a: Abs, d: Abs) -> Abs {
    (a.0 + d.0, a.1 + d.1)
}

/// Whether a set of squares forms one 8-connected group (an empty set and a single square do).
pub fn connected<'a>(squares: impl IntoIterator<Item = &'a Abs>) -> bool {
    let set: HashSet<Abs> = squares.into_iter().copied().collect();
    let Some(&start) = set.iter().next() else {
        return true;
    };
    let mut seen = HashSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some(s) = queue.pop_front() {
        for d in KING_STEPS {
            let n = add(s, d);
            if set.contains(&n) && seen.insert(n) {
                queue.push_back(n);
            }
        }
    }
    seen.len() == set.len()
}

/// The frame of a set of occupied squares: their enclosing rectangle plus a one-square
/// border; `empty` when there are none (a 1×1 board).
pub fn frame_of<'a>(squares: impl IntoIterator<Item = &'a Abs>, empty: Abs) -> Frame {
    let mut it = squares.into_iter();
    let Some(&first) = it.next() else {
        return Frame {
            origin: empty,
            width: 1,
            height: 1,
        };
    };
    let (mut x0, mut y0, mut x1, mut y1) = (first.0, first.1, first.0, first.1);
    for &(x, y) in it {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    Frame {
        origin: (x0 - 1, y0 - 1),
        width: (x1 - x0 + 3) as u32,
        height: (y1 - y0 + 3) as u32,
    }
}

impl Position {
    /// The start: an empty board, both stacks full in the order `KQRRBBNNPPPPPPPP` (the game
    /// shuffles them), White to move.
    pub fn start() -> Position {
        Position {
            board: BTreeMap::new(),
            stacks: [full_set(), full_set()],
            to_move: Side::White,
            revealed: None,
            empty_origin: (0, 0),
            max_board: MAX_BOARD,
        }
    }

    /// A position from its parts.
    pub fn from_parts(
        board: BTreeMap<Abs, Piece>,
        stacks: [Vec<Kind>; 2],
        to_move: Side,
        revealed: Option<Kind>,
        empty_origin: Abs,
    ) -> Position {
        Position {
            board,
            stacks,
            to_move,
            revealed,
            empty_origin,
            max_board: MAX_BOARD,
        }
    }

    /// The pieces in play.
    pub fn pieces(&self) -> impl Iterator<Item = (Abs, Piece)> + '_ {
        self.board.iter().map(|(&s, &p)| (s, p))
    }
    /// The piece on a square.
    pub fn at(&self, sq: Abs) -> Option<Piece> {
        self.board.get(&sq).copied()
    }
    /// Puts or removes a piece (for tests and readers).
    pub fn set(&mut self, sq: Abs, piece: Option<Piece>) {
        match piece {
            Some(p) => {
                self.board.insert(sq, p);
            }
            None => {
                self.board.remove(&sq);
            }
        }
    }
    /// Number of pieces in play.
    pub fn count(&self) -> usize {
        self.board.len()
    }
    /// The shown board's frame.
    pub fn frame(&self) -> Frame {
        frame_of(self.board.keys(), self.empty_origin)
    }
    /// The square of a side's King in play.
    pub fn king(&self, side: Side) -> Option<Abs> {
        self.pieces()
            .find(|(_, p)| p.side == side && p.kind == Kind::King)
            .map(|(s, _)| s)
    }
    /// Whether a side's King is anywhere: in play, in its stack or revealed.
    pub fn has_king(&self, side: Side) -> bool {
        self.king(side).is_some()
            || self.stacks[side.index()].contains(&Kind::King)
            || (self.to_move == side && self.revealed == Some(Kind::King))
    }
    /// Whether the frame after a change fits the limit.
    fn fits(&self, frame: Frame) -> bool {
        frame.width <= self.max_board && frame.height <= self.max_board
    }

    /// Squares a piece on `from` attacks or may move to, before the group and limit rules.
    fn targets(&self, from: Abs, piece: Piece) -> Vec<Abs> {
        let mut out = Vec::new();
        match piece.kind {
            Kind::King | Kind::Knight => {
                let steps = if piece.kind == Kind::King {
                    KING_STEPS
                } else {
                    KNIGHT_STEPS
                };
                for d in steps {
                    let to = add(from, d);
                    if self.at(to).is_none_or(|p| p.side != piece.side) {
                        out.push(to);
                    }
                }
            }
            Kind::Rook | Kind::Bishop | Kind::Queen => {
                let dirs: Vec<Abs> = match piece.kind {
                    Kind::Rook => ROOK_DIRS.to_vec(),
                    Kind::Bishop => BISHOP_DIRS.to_vec(),
                    _ => ROOK_DIRS
                        .iter()
                        .chain(BISHOP_DIRS.iter())
                        .copied()
                        .collect(),
                };
                // A slider cannot end further than one square outside the other pieces'
                // rectangle and stay in the group; alone, the limit bounds it.
                let others: Vec<Abs> = self.board.keys().copied().filter(|&s| s != from).collect();
                let reach = self.max_board as i32 + 2;
                let bounds = if others.is_empty() {
                    (
                        from.0 - reach,
                        from.1 - reach,
                        from.0 + reach,
                        from.1 + reach,
                    )
                } else {
                    let f = frame_of(others.iter(), (0, 0));
                    (
                        f.origin.0,
                        f.origin.1,
                        f.origin.0 + f.width as i32 - 1,
                        f.origin.1 + f.height as i32 - 1,
                    )
                };
                for d in dirs {
                    let mut to = add(from, d);
                    loop {
                        let inside = to.0 >= bounds.0
                            && to.1 >= bounds.1
                            && to.0 <= bounds.2
                            && to.1 <= bounds.3;
                        let moving_in = (d.0 > 0 && to.0 < bounds.0)
                            || (d.0 < 0 && to.0 > bounds.2)
                            || (d.1 > 0 && to.1 < bounds.1)
                            || (d.1 < 0 && to.1 > bounds.3);
                        if !inside && !moving_in {
                            break;
                        }
                        match self.at(to) {
                            None => {
                                if inside {
                                    out.push(to);
                                }
                            }
                            Some(p) => {
                                if p.side != piece.side && inside {
                                    out.push(to);
                                }
                                break;
                            }
                        }
                        to = add(to, d);
                    }
                }
            }
            Kind::Pawn => {
                let dy = if piece.side == Side::White { 1 } else { -1 };
                let fwd = (from.0, from.1 + dy);
                if self.at(fwd).is_none() {
                    out.push(fwd);
                }
                for dx in [-1, 1] {
                    let to = (from.0 + dx, from.1 + dy);
                    if self.at(to).is_some_and(|p| p.side != piece.side) {
                        out.push(to);
                    }
                }
            }
        }
        out
    }

    /// Whether the piece on `from` could go to `to` by its own way of moving (path clear, not
    /// onto its own side), the group and the limit aside.
    pub fn reaches(&self, from: Abs, to: Abs) -> bool {
        let Some(piece) = self.at(from) else {
            return false;
        };
        if from == to || self.at(to).is_some_and(|p| p.side == piece.side) {
            return false;
        }
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let slide = |ok: bool| -> bool {
            if !ok {
                return false;
            }
            let n = dx.abs().max(dy.abs());
            let step = (dx.signum(), dy.signum());
            (1..n).all(|i| {
                self.at((from.0 + step.0 * i, from.1 + step.1 * i))
                    .is_none()
            })
        };
        let straight = dx == 0 || dy == 0;
        let diagonal = dx.abs() == dy.abs();
        match piece.kind {
            Kind::King => dx.abs() <= 1 && dy.abs() <= 1,
            Kind::Knight => (dx.abs(), dy.abs()) == (1, 2) || (dx.abs(), dy.abs()) == (2, 1),
            Kind::Rook => slide(straight),
            Kind::Bishop => slide(diagonal),
            Kind::Queen => slide(straight || diagonal),
            Kind::Pawn => {
                let fwd = if piece.side == Side::White { 1 } else { -1 };
                dy == fwd
                    && ((dx == 0 && self.at(to).is_none())
                        || (dx.abs() == 1 && self.at(to).is_some()))
            }
        }
    }

    /// Whether a move keeps every piece in play in one group and the board within the limit.
    pub fn keeps_group(&self, mv: Move) -> bool {
        let mut squares: Vec<Abs> = self
            .board
            .keys()
            .copied()
            .filter(|&s| s != mv.from && s != mv.to)
            .collect();
        squares.push(mv.to);
        connected(squares.iter()) && self.fits(frame_of(squares.iter(), self.empty_origin))
    }

    /// Whether a move would break the group (only; not the limit).
    pub fn breaks_group(&self, mv: Move) -> bool {
        let mut squares: Vec<Abs> = self
            .board
            .keys()
            .copied()
            .filter(|&s| s != mv.from && s != mv.to)
            .collect();
        squares.push(mv.to);
        !connected(squares.iter())
    }

    /// The legal moves of the piece on `from` (the group and the limit respected), whoever's
    /// turn it is.
    pub fn moves_from(&self, from: Abs) -> Vec<Move> {
        let Some(piece) = self.at(from) else {
            return Vec::new();
        };
        self.targets(from, piece)
            .into_iter()
            .map(|to| Move { from, to })
            .filter(|&m| self.keeps_group(m))
            .collect()
    }

    /// Moves the piece on `from` could make if only the group rule did not stop it (for the
    /// picture's "tagged" marks: a piece is tagged when it has such moves and none is legal).
    pub fn blocked_by_group(&self, from: Abs) -> bool {
        let Some(piece) = self.at(from) else {
            return false;
        };
        let t = self.targets(from, piece);
        !t.is_empty() && t.iter().all(|&to| self.breaks_group(Move { from, to }))
    }

    /// Every legal move of a side.
    pub fn side_moves(&self, side: Side) -> Vec<Move> {
        let froms: Vec<Abs> = self
            .pieces()
            .filter(|(_, p)| p.side == side)
            .map(|(s, _)| s)
            .collect();
        froms.into_iter().flat_map(|f| self.moves_from(f)).collect()
    }

    /// Whether `side` has a legal capture of the King on `king`.
    pub fn can_capture(&self, side: Side, target: Abs) -> bool {
        self.pieces().filter(|(_, p)| p.side == side).any(|(s, p)| {
            self.targets(s, p).contains(&target)
                && self.keeps_group(Move {
                    from: s,
                    to: target,
                })
        })
    }

    /// Whether a King in play could be legally captured by the other side now (whoever is to
    /// move): the echo's `+`.
    pub fn king_en_prise(&self) -> bool {
        Side::BOTH
            .iter()
            .any(|&s| self.king(s).is_some_and(|k| self.can_capture(s.other(), k)))
    }

    /// The empty squares a piece may be placed on: 8-adjacent to a piece in play and within
    /// the limit (the empty board's one square when nothing is in play).
    pub fn placement_squares(&self) -> Vec<Abs> {
        if self.board.is_empty() {
            return vec![self.empty_origin];
        }
        let mut set = std::collections::BTreeSet::new();
        for &s in self.board.keys() {
            for d in KING_STEPS {
                let n = add(s, d);
                if !self.board.contains_key(&n) {
                    set.insert(n);
                }
            }
        }
        set.into_iter()
            .filter(|&n| {
                let f = frame_of(
                    self.board.keys().chain(std::iter::once(&n)),
                    self.empty_origin,
                );
                self.fits(f)
            })
            .collect()
    }

    /// Whether a revealed King of the side to move has no safe square (§5.4): on every
    /// placement square the opponent would have a legal capture of it.
    pub fn king_stalemate(&self) -> bool {
        if self.revealed != Some(Kind::King) {
            return false;
        }
        let side = self.to_move;
        self.placement_squares().into_iter().all(|sq| {
            let mut p = self.clone();
            p.board.insert(
                sq,
                Piece {
                    side,
                    kind: Kind::King,
                },
            );
            p.can_capture(side.other(), sq)
        })
    }

    /// Whether the side to move is move-stalemated: empty stack, nothing revealed, no legal
    /// move.
    pub fn move_stalemate(&self) -> bool {
        self.revealed.is_none()
            && self.stacks[self.to_move.index()].is_empty()
            && self.side_moves(self.to_move).is_empty()
    }

    /// Whether the game is over in this position: a side has lost its King, or the side to
    /// move is stalemated (either kind).
    pub fn is_over(&self) -> bool {
        !self.has_king(Side::White)
            || !self.has_king(Side::Black)
            || self.king_stalemate()
            || self.move_stalemate()
    }

    /// Draws the top of the mover's stack (nothing when it is empty or a piece is revealed).
    pub fn draw(&mut self) -> Option<Kind> {
        if self.revealed.is_some() {
            return None;
        }
        let stack = &mut self.stacks[self.to_move.index()];
        if stack.is_empty() {
            return None;
        }
        let k = stack.remove(0);
        self.revealed = Some(k);
        Some(k)
    }

    /// Takes a given piece out of the mover's stack as drawn (the top one when it is on top;
    /// otherwise the first of its kind: an imported game whose order is not known).
    pub fn draw_piece(&mut self, kind: Kind) -> bool {
        if self.revealed.is_some() {
            return false;
        }
        let stack = &mut self.stacks[self.to_move.index()];
        match stack.iter().position(|&k| k == kind) {
            Some(i) => {
                stack.remove(i);
                self.revealed = Some(kind);
                true
            }
            None => false,
        }
    }

    /// Places the revealed piece on `sq` (checked by the caller) and passes the turn.
    pub fn place(&mut self, sq: Abs) {
        if let Some(kind) = self.revealed.take() {
            self.board.insert(
                sq,
                Piece {
                    side: self.to_move,
                    kind,
                },
            );
            self.to_move = self.to_move.other();
        }
    }

    /// Makes a move (checked by the caller) and passes the turn; the piece captured.
    pub fn make(&mut self, mv: Move) -> Option<Piece> {
        let p = self.board.remove(&mv.from)?;
        let captured = self.board.insert(mv.to, p);
        self.to_move = self.to_move.other();
        captured
    }

    /// Every legal play of the side to move, as `arbiter moves` prints them, sorted: moves
    /// and captures, the revealed piece's placements (`N@c3`), and `draw`; nothing when the
    /// game is over (a King lost, or a stalemate).
    pub fn legal_texts(&self) -> Vec<String> {
        if self.is_over() {
            return Vec::new();
        }
        let frame = self.frame();
        let mut v: Vec<String> = match self.revealed {
            Some(k) => self
                .placement_squares()
                .into_iter()
                .map(|s| format!("{}@{}", k.letter(), frame.label(s)))
                .collect(),
            None => {
                let mut v: Vec<String> = self
                    .side_moves(self.to_move)
                    .into_iter()
                    .map(|m| self.move_text(m, &frame))
                    .collect();
                if !self.stacks[self.to_move.index()].is_empty() {
                    v.push("draw".into());
                }
                v
            }
        };
        v.sort();
        v
    }

    /// A move in long algebraic in a frame's labels (`Nb3-d4`, `c3xd2`), without `+`.
    pub fn move_text(&self, mv: Move, frame: &Frame) -> String {
        let Some(p) = self.at(mv.from) else {
            return String::new();
        };
        let letter = if p.kind == Kind::Pawn {
            String::new()
        } else {
            p.kind.letter().to_string()
        };
        let sep = if self.at(mv.to).is_some() { 'x' } else { '-' };
        format!(
            "{letter}{}{sep}{}",
            frame.label(mv.from),
            frame.label(mv.to)
        )
    }

    /// The placement field: the shown board, top rank first.
    pub fn placement(&self) -> String {
        let f = self.frame();
        let rows: Vec<String> = (0..f.height as i32)
            .rev()
            .map(|r| {
                let rank = (0..f.width as i32).map(|c| f.origin.0 + c);
                crate::games::fen_rank(rank.map(|x| self.at((x, f.origin.1 + r)).map(|p| p.fen())))
            })
            .collect();
        rows.join("/")
    }

    /// The stacks field: `[KQRRBB… kqrr…]`, each side's pieces as a multiset in the order
    /// K Q R B N P.
    pub fn stacks_text(&self) -> String {
        let side_text = |side: Side| -> String {
            let mut v = self.stacks[side.index()].clone();
            v.sort();
            v.into_iter()
                .map(|k| Piece { side, kind: k }.fen())
                .collect()
        };
        format!("[{} {}]", side_text(Side::White), side_text(Side::Black))
    }

    /// The position text: `<placement> [<stacks>] <w|b> <origin> <revealed>`.
    pub fn to_text(&self) -> String {
        let f = self.frame();
        let revealed = match self.revealed {
            Some(k) => Piece {
                side: self.to_move,
                kind: k,
            }
            .fen()
            .to_string(),
            None => "-".into(),
        };
        format!(
            "{} {} {} {},{} {revealed}",
            self.placement(),
            self.stacks_text(),
            self.to_move.letter(),
            f.origin.0,
            f.origin.1
        )
    }

    /// Pieces left per side, by type: `K1 Q1 R2 …` style counts.
    pub fn stack_counts(&self, side: Side) -> Vec<(Kind, usize)> {
        Kind::ALL
            .iter()
            .map(|&k| {
                (
                    k,
                    self.stacks[side.index()]
                        .iter()
                        .filter(|&&s| s == k)
                        .count(),
                )
            })
            .filter(|&(_, n)| n > 0)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> Position {
        Position::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn groups_are_8_connected() {
        assert!(connected([(0, 0), (1, 1), (2, 2)].iter()));
        assert!(connected([(0, 0)].iter()));
        assert!(connected(std::iter::empty()));
        assert!(!connected([(0, 0), (2, 0)].iter()));
        assert!(!connected([(0, 0), (1, 1), (3, 3)].iter()));
    }

    #[test]
    fn the_frame_is_the_rectangle_plus_a_border() {
        let f = frame_of([(0, 0), (2, -1)].iter(), (0, 0));
        assert_eq!(f.origin, (-1, -2));
        assert_eq!((f.width, f.height), (5, 4));
        assert_eq!(f.name((0, 0)).as_deref(), Some("b3"));
        assert_eq!(f.parse("b3"), Some((0, 0)));
        assert_eq!(f.parse("f1"), None);
        assert_eq!(f.parse("a0"), None);
        let empty = frame_of(std::iter::empty(), (0, 0));
        assert_eq!((empty.width, empty.height, empty.origin), (1, 1, (0, 0)));
    }

    #[test]
    fn the_text_round_trips_and_places_pieces_on_absolute_squares() {
        for t in [
            "1 [KQRRBBNNPPPPPPPP kqrrbbnnpppppppp] w 0,0 -",
            "5/1NB2/1p1p1/5 [KQRRBNPPPPPPPP kqrrbbnnpppppp] w 0,0 -",
            "5/1NB2/1p1p1/5 [KQRRBNPPPPPPP kqrrbbnnpppppp] w -3,7 P",
            "3/1P1/3 [ ] b -1,-1 -",
            "3/1K1/3 [ kqrrbbnnppppppp] b -1,-1 p",
        ] {
            assert_eq!(pos(t).to_text(), t);
        }
        let p = pos("5/1NB2/1p1p1/5 [ ] w 10,20 -");
        assert_eq!(p.at((11, 22)).map(|x| x.kind), Some(Kind::Knight));
        assert_eq!(p.at((11, 21)).map(|x| x.side), Some(Side::Black));
        // A text read leniently (no border) is written back with its border.
        assert_eq!(pos("K [ ] w 0,0 -").to_text(), "3/1K1/3 [ ] w -1,-1 -");
    }

    #[test]
    fn bad_texts_name_their_field() {
        for (t, field) in [
            ("3/1P/3 [ ] w 0,0 -", "placement"),
            ("3/1P*/3 [ ] w 0,0 -", "placement"),
            ("P1P [ ] w 0,0 -", "placement"),
            ("3/1P1/3 [Kk ] w 0,0 -", "stacks"),
            ("3/1P1/3 [KK ] w 0,0 -", "stacks"),
            ("3/1P1/3 [ ] w 0,0", "revealed"),
            ("3/1P1/3 [ ] b 0,0 N", "revealed"),
        ] {
            let e = Position::from_text(t).expect_err(t);
            assert_eq!(e.field.to_string(), field, "{t}: {e}");
        }
    }

    #[test]
    fn pawns_go_one_square_their_way_and_capture_diagonally_forward() {
        // White pawn b2 with a black pawn on c3 and one on b3 (blocking).
        let p = pos("5/5/1pp2/1P3/5 [ ] w -1,-1 -");
        let moves: Vec<Abs> = p.moves_from((0, 0)).into_iter().map(|m| m.to).collect();
        assert_eq!(moves, vec![(1, 1)]);
        // Black pawns go down.
        let p = pos("4/1p2/1P2/4 [ ] b -1,-1 -");
        assert!(p.moves_from((0, 1)).is_empty(), "blocked by the white pawn");
        let p = pos("4/1p2/2P1/4 [ ] b -1,-1 -");
        let moves: Vec<Abs> = p.moves_from((0, 1)).into_iter().map(|m| m.to).collect();
        assert_eq!(moves, vec![(0, 0), (1, 0)]);
    }

    #[test]
    fn sliders_stop_at_the_first_piece_and_stay_in_reach_of_the_group() {
        // Rook (0,0), Black pawns (1,1) and (2,0).
        let p = pos("5/2p2/1R1p1/5 [ ] w -1,-1 -");
        let mut to: Vec<Abs> = p.moves_from((0, 0)).into_iter().map(|m| m.to).collect();
        to.sort();
        // Right to (1,0) and the capture on (2,0); up to (0,1) and (0,2), still touching
        // (1,1); left and down leave the group; nothing beyond the capture.
        assert_eq!(to, vec![(0, 1), (0, 2), (1, 0), (2, 0)]);
    }

    #[test]
    fn legal_texts_of_the_seeds_example() {
        let p = pos("5/1NB2/1p1p1/5 [KQRRBNPPPPPPPP kqrrbbnnpppppp] w 0,0 -");
        assert_eq!(
            p.legal_texts(),
            ["Nb3-a1", "Nb3-c1", "Nb3-d4", "Nb3xd2", "draw"]
        );
        let p = pos("5/1NB2/1p1p1/5 [KQRRBNPPPPPPPP kqrrbbnnpppppp] b 0,0 -");
        assert_eq!(p.legal_texts(), ["draw"]);
        let p = pos("5/1NB2/1p1p1/5 [K kqrrbbnnppppp] b 0,0 p");
        assert_eq!(p.legal_texts().len(), 15);
        assert!(p.legal_texts().iter().all(|m| m.starts_with("P@")));
        // No King left to White: the game is over, nothing is legal.
        let p = pos("5/1NB2/1p1p1/5 [ kqrrbbnnpppppp] w 0,0 -");
        assert!(p.legal_texts().is_empty());
    }

    #[test]
    fn both_stalemates() {
        assert!(pos("3/1Q1/3 [K qrrbbnnpppppppp] b -1,-1 k").king_stalemate());
        assert!(!pos("3/1N1/3 [K qrrbbnnpppppppp] b -1,-1 k").king_stalemate());
        assert!(pos("5/3R1/2k2/1N3/5 [K ] b -2,-2 -").move_stalemate());
        assert!(!pos("5/3R1/2k2/1N3/5 [K p] b -2,-2 -").move_stalemate());
        assert!(pos("5/3R1/2k2/1N3/5 [K ] b -2,-2 -")
            .legal_texts()
            .is_empty());
    }
}
