//! Board geometry: a set of playable squares inside a bounding rectangle of up to 26×26.
//!
//! Squares are indices into a padded mailbox (a border of [`PAD`] off-board cells on every
//! side), so a leap of up to `PAD` squares in any direction never leaves the array and the move
//! generator needs no bounds checks. The same representation holds the 8×8 board, Party
//! Chess's 20×20, Ultimate Chess's 16×16 with cut corners, Chex's growing board (a large fixed
//! internal area whose labels are recomputed from the pieces' bounding box) and Nomic Chess's
//! half-boards joined for a move and separated after it.

use std::fmt;

/// Largest number of files or ranks a board may have (files `a`–`z`).
pub const MAX_SIDE: u8 = 26;
/// Width of the off-board border around the playable rectangle: the longest leap (in files or
/// ranks) a piece may make.
pub const PAD: i32 = 4;

/// A square: an index into the padded mailbox of one [`Geometry`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(pub u16);

impl Square {
    /// The mailbox index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// The square `off` cells away in the mailbox.
    #[inline]
    pub fn offset(self, off: i32) -> Square {
        Square((self.0 as i32 + off) as u16)
    }
}

/// Internal coordinates of a square: file 0 is `a`, rank 0 is rank `1` (before any label
/// shift).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Coord {
    /// File index from 0.
    pub file: u8,
    /// Rank index from 0.
    pub rank: u8,
}

impl Coord {
    /// A coordinate.
    pub const fn new(file: u8, rank: u8) -> Coord {
        Coord { file, rank }
    }
}

/// Pairs of squares mapping one board's squares onto another's.
pub type SquareMap = Vec<(Square, Square)>;

/// Errors about board shapes and square names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    /// The bounding rectangle is empty or larger than 26×26.
    #[error("a board must be between 1×1 and 26×26 squares, not {0}×{1}")]
    BadSize(u8, u8),
    /// The text is not a square name such as `e4` or `t20`.
    #[error("`{0}` is not a square (expected a file letter a–z followed by a rank number, like e4 or j10)")]
    BadSquare(String),
    /// The square name is well formed but not on this board.
    #[error("{0} is not a square of this board")]
    OffBoard(String),
    /// Two half-boards cannot be joined.
    #[error("these half-boards cannot be joined: {0}")]
    BadJoin(String),
}

/// The shape of a board: its bounding rectangle, which squares in it are playable, and how
/// squares are labelled for players.
#[derive(Clone, PartialEq, Eq)]
pub struct Geometry {
    files: u8,
    ranks: u8,
    stride: i32,
    playable: Vec<bool>,
    /// Label shift: internal coordinate `(f, r)` is shown as file `f - origin.file`, rank
    /// `r - origin.rank` (Chex recomputes the origin from the pieces' bounding box).
    label_origin: Coord,
    squares: Vec<Square>,
}

impl fmt::Debug for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Geometry({}x{}, {} playable)",
            self.files,
            self.ranks,
            self.squares.len()
        )
    }
}

impl Geometry {
    /// A full rectangle of `files` × `ranks` squares.
    pub fn rect(files: u8, ranks: u8) -> Result<Geometry, GeometryError> {
        Self::with_mask(files, ranks, |_| true)
    }

    /// The 8×8 chess board.
    pub fn chess() -> Geometry {
        Self::build(8, 8, |_| true)
    }

    /// A square board with `cut`×`cut` corners removed (Ultimate Chess: 16×16, cut 2).
    pub fn cut_corners(side: u8, cut: u8) -> Result<Geometry, GeometryError> {
        Self::with_mask(side, side, |c| {
            let near = |v: u8| v < cut || v >= side.saturating_sub(cut);
            !(near(c.file) && near(c.rank))
        })
    }

    /// A rectangle where `playable` decides which squares exist.
    pub fn with_mask(
        files: u8,
        ranks: u8,
        playable: impl Fn(Coord) -> bool,
    ) -> Result<Geometry, GeometryError> {
        if files == 0 || ranks == 0 || files > MAX_SIDE || ranks > MAX_SIDE {
            return Err(GeometryError::BadSize(files, ranks));
        }
        Ok(Self::build(files, ranks, playable))
    }

    fn build(files: u8, ranks: u8, playable: impl Fn(Coord) -> bool) -> Geometry {
        let stride = files as i32 + 2 * PAD;
        let height = ranks as i32 + 2 * PAD;
        let mut mask = vec![false; (stride * height) as usize];
        let mut squares = Vec::new();
        for rank in 0..ranks {
            for file in 0..files {
                let c = Coord::new(file, rank);
                if playable(c) {
                    let idx = (rank as i32 + PAD) * stride + file as i32 + PAD;
                    mask[idx as usize] = true;
                    squares.push(Square(idx as u16));
                }
            }
        }
        Geometry {
            files,
            ranks,
            stride,
            playable: mask,
            label_origin: Coord::new(0, 0),
            squares,
        }
    }

    /// Number of files of the bounding rectangle.
    pub fn files(&self) -> u8 {
        self.files
    }
    /// Number of ranks of the bounding rectangle.
    pub fn ranks(&self) -> u8 {
        self.ranks
    }
    /// Cells per mailbox row.
    pub fn stride(&self) -> i32 {
        self.stride
    }
    /// Size of the mailbox array.
    pub fn cells(&self) -> usize {
        self.playable.len()
    }
    /// Every playable square, rank by rank from rank 1, files left to right.
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }
    /// Whether a mailbox cell is a playable square.
    #[inline]
    pub fn is_playable(&self, sq: Square) -> bool {
        self.playable.get(sq.index()).copied().unwrap_or(false)
    }
    /// The mailbox offset of a step of `df` files and `dr` ranks.
    #[inline]
    pub fn offset(&self, df: i32, dr: i32) -> i32 {
        dr * self.stride + df
    }
    /// The square at internal coordinates, if playable.
    pub fn square(&self, c: Coord) -> Option<Square> {
        if c.file >= self.files || c.rank >= self.ranks {
            return None;
        }
        let idx = (c.rank as i32 + PAD) * self.stride + c.file as i32 + PAD;
        let sq = Square(idx as u16);
        self.is_playable(sq).then_some(sq)
    }
    /// Internal coordinates of a square.
    pub fn coord(&self, sq: Square) -> Coord {
        let i = sq.0 as i32;
        Coord::new((i % self.stride - PAD) as u8, (i / self.stride - PAD) as u8)
    }
    /// Rank of a square counted from a side's own edge (0 = that side's first rank), for the
    /// two sides of an ordinary board: side 0 counts from rank 1, side 1 from the top.
    pub fn relative_rank(&self, sq: Square, from_top: bool) -> u8 {
        let r = self.coord(sq).rank;
        if from_top {
            self.ranks - 1 - r
        } else {
            r
        }
    }

    /// Sets where labels start (Chex): the internal coordinate shown as `a1`.
    pub fn set_label_origin(&mut self, origin: Coord) {
        self.label_origin = origin;
    }
    /// The internal coordinate shown as `a1`.
    pub fn label_origin(&self) -> Coord {
        self.label_origin
    }
    /// Moves the label origin to the corner of the smallest rectangle holding `occupied`, with a
    /// border of `margin` squares (clamped to the board). Returns the shown size (files, ranks).
    pub fn fit_labels(&mut self, occupied: &[Square], margin: u8) -> (u8, u8) {
        if occupied.is_empty() {
            self.label_origin = Coord::new(0, 0);
            return (self.files, self.ranks);
        }
        let coords: Vec<Coord> = occupied.iter().map(|&s| self.coord(s)).collect();
        let min_f = coords.iter().map(|c| c.file).min().unwrap_or(0);
        let max_f = coords.iter().map(|c| c.file).max().unwrap_or(0);
        let min_r = coords.iter().map(|c| c.rank).min().unwrap_or(0);
        let max_r = coords.iter().map(|c| c.rank).max().unwrap_or(0);
        let lo_f = min_f.saturating_sub(margin);
        let lo_r = min_r.saturating_sub(margin);
        let hi_f = (max_f as u16 + margin as u16).min(self.files as u16 - 1) as u8;
        let hi_r = (max_r as u16 + margin as u16).min(self.ranks as u16 - 1) as u8;
        self.label_origin = Coord::new(lo_f, lo_r);
        (hi_f - lo_f + 1, hi_r - lo_r + 1)
    }

    /// The name players see for a square (`e4`, `t20`).
    pub fn name(&self, sq: Square) -> String {
        let c = self.coord(sq);
        let f = c.file as i32 - self.label_origin.file as i32;
        let r = c.rank as i32 - self.label_origin.rank as i32 + 1;
        match u8::try_from(f) {
            Ok(f) if f < MAX_SIDE => format!("{}{}", (b'a' + f) as char, r),
            _ => format!("?{f}{r}"),
        }
    }

    /// Parses a square name as players see it.
    pub fn parse_square(&self, text: &str) -> Result<Square, GeometryError> {
        let (file, rank) =
            split_square(text).ok_or_else(|| GeometryError::BadSquare(text.into()))?;
        let f = file as i32 + self.label_origin.file as i32;
        let r = rank as i32 - 1 + self.label_origin.rank as i32;
        let off = || GeometryError::OffBoard(text.to_string());
        let f = u8::try_from(f).map_err(|_| off())?;
        let r = u8::try_from(r).map_err(|_| off())?;
        self.square(Coord::new(f, r)).ok_or_else(off)
    }

    /// Joins two boards of equal width into one, `bottom` below `top` (Nomic Chess pushes two
    /// 4×8 half-boards together into an 8×8 board for a move). Returns the joined geometry and,
    /// for each half, the map from its squares to the joined board's squares.
    pub fn join_vertically(
        bottom: &Geometry,
        top: &Geometry,
    ) -> Result<(Geometry, SquareMap, SquareMap), GeometryError> {
        if bottom.files != top.files {
            return Err(GeometryError::BadJoin(format!(
                "widths differ ({} and {} files)",
                bottom.files, top.files
            )));
        }
        let ranks = bottom.ranks as u16 + top.ranks as u16;
        if ranks > MAX_SIDE as u16 {
            return Err(GeometryError::BadSize(bottom.files, ranks.min(255) as u8));
        }
        let b_ranks = bottom.ranks;
        let joined = Geometry::with_mask(bottom.files, ranks as u8, |c| {
            if c.rank < b_ranks {
                bottom.square(c).is_some()
            } else {
                top.square(Coord::new(c.file, c.rank - b_ranks)).is_some()
            }
        })?;
        let map = |half: &Geometry, shift: u8| -> Vec<(Square, Square)> {
            half.squares()
                .iter()
                .filter_map(|&s| {
                    let c = half.coord(s);
                    joined
                        .square(Coord::new(c.file, c.rank + shift))
                        .map(|j| (s, j))
                })
                .collect()
        };
        let mb = map(bottom, 0);
        let mt = map(top, b_ranks);
        Ok((joined, mb, mt))
    }
}

/// Splits `e4` / `t20` into (file index, rank number); `None` if malformed.
pub fn split_square(text: &str) -> Option<(u8, u32)> {
    let bytes = text.as_bytes();
    let (&first, rest) = bytes.split_first()?;
    if !first.is_ascii_lowercase() || rest.is_empty() || rest.len() > 2 {
        return None;
    }
    if !rest.iter().all(u8::is_ascii_digit) || rest[0] == b'0' {
        return None;
    }
    let rank: u32 = std::str::from_utf8(rest).ok()?.parse().ok()?;
    Some((first - b'a', rank))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_board_names_round_trip() {
        let g = Geometry::chess();
        assert_eq!(g.squares().len(), 64);
        for &s in g.squares() {
            assert_eq!(g.parse_square(&g.name(s)).unwrap(), s);
        }
        assert!(g.parse_square("i1").is_err());
        assert!(g.parse_square("a9").is_err());
        assert!(g.parse_square("a0").is_err());
    }
}
