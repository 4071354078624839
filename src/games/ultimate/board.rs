//! The Ultimate Chess board, seats and pieces as data (Ultimate rules 4.0–4.3), compiled once
//! into move and attack tables.
//!
//! The board is an engine [`Geometry`] (16×16 less the 2×2 corners); its padded mailbox gives
//! every square an index, so a leap of up to four squares never leaves the array. Pieces are
//! Betza strings parsed by [`crate::engine::betza`], oriented for each seat with
//! [`crate::engine::orient`]; castling is the §4.3 table.

use std::sync::OnceLock;

use crate::engine::{betza, orient, Coord, Geometry, Side, Square};

/// Files (and ranks) of the bounding square.
pub const SIDE: u8 = 16;
/// Size of the cut corners.
pub const CUT: u8 = 2;
/// Cells of the padded mailbox.
pub(crate) const CELLS: usize = ((SIDE as usize) + 8) * ((SIDE as usize) + 8);
/// Cell value of an empty square.
pub(crate) const EMPTY: u8 = 0;
/// Cell value outside the board.
pub(crate) const OFF: u8 = 0xFF;
/// No king on the board (the mailbox index 0 is padding, never a square).
pub(crate) const NO_SQUARE: Square = Square(0);
/// Controller value of pieces nobody plays (Conquest obstacles, removed pieces).
pub(crate) const NOBODY: u8 = 4;

/// A seat: 1 Silver (south, moving up the ranks), 2 Red (west, toward file `p`), 3 Black
/// (north, down the ranks), 4 Green (east, toward file `a`); this is also the turn order.
#[derive(
    Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, serde::Serialize, serde::Deserialize,
)]
pub enum Seat {
    /// Seat 1, south.
    Silver,
    /// Seat 2, west.
    Red,
    /// Seat 3, north.
    Black,
    /// Seat 4, east.
    Green,
}

impl Seat {
    /// The seats in turn order.
    pub const ALL: [Seat; 4] = [Seat::Silver, Seat::Red, Seat::Black, Seat::Green];

    /// Index 0..4.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
    /// The seat with index 0..4.
    pub fn from_index(i: usize) -> Option<Seat> {
        Seat::ALL.get(i).copied()
    }
    /// The seat's number in position texts, 1..=4.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }
    /// The seat numbered 1..=4.
    pub fn from_number(n: u8) -> Option<Seat> {
        n.checked_sub(1).and_then(|i| Seat::from_index(i as usize))
    }
    /// `Silver`, `Red`, `Black`, `Green`.
    pub fn name(self) -> &'static str {
        ["Silver", "Red", "Black", "Green"][self.index()]
    }
    /// `silver`, `red`, `black`, `green` (the command option names).
    pub fn key(self) -> &'static str {
        ["silver", "red", "black", "green"][self.index()]
    }
    /// The seat named (any case) or numbered.
    pub fn parse(text: &str) -> Option<Seat> {
        let t = text.trim();
        Seat::ALL
            .into_iter()
            .find(|s| s.key().eq_ignore_ascii_case(t))
            .or_else(|| t.parse::<u8>().ok().and_then(Seat::from_number))
    }
    /// The next seat in turn order.
    pub fn next(self) -> Seat {
        Seat::ALL[(self.index() + 1) % 4]
    }
    /// The engine orientation whose "forward" is this seat's: the engine rotates side 1 by
    /// 180° and sides 2 and 3 by a quarter turn toward +file and −file.
    fn side(self) -> Side {
        match self {
            Seat::Silver => Side(0),
            Seat::Black => Side(1),
            Seat::Red => Side(2),
            Seat::Green => Side(3),
        }
    }
}

/// A piece type.
#[derive(
    Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, serde::Serialize, serde::Deserialize,
)]
pub enum Kind {
    /// King.
    King,
    /// Queen.
    Queen,
    /// Rook.
    Rook,
    /// Bishop.
    Bishop,
    /// Knight.
    Knight,
    /// Warrior (`WAD`).
    Warrior,
    /// Mage (`FC`).
    Mage,
    /// Pawn.
    Pawn,
}

/// The piece table: type, letter, name, movement (Betza, forward = the owner's direction).
/// The pawn: a quiet step forward, captures one square diagonally forward, and from its
/// owner's second row (`i`) two or three squares forward over empty squares (`n`, lame).
const PIECES: [(Kind, char, &str, &str); 8] = [
    (Kind::King, 'K', "King", "K"),
    (Kind::Queen, 'Q', "Queen", "Q"),
    (Kind::Rook, 'R', "Rook", "R"),
    (Kind::Bishop, 'B', "Bishop", "B"),
    (Kind::Knight, 'N', "Knight", "N"),
    (Kind::Warrior, 'W', "Warrior", "WAD"),
    (Kind::Mage, 'M', "Mage", "FC"),
    (Kind::Pawn, 'P', "Pawn", "fmWfcFifmnDifmnH"),
];

/// What a pawn may promote to, in the order moves are listed.
pub const PROMOTIONS: [Kind; 6] = [
    Kind::Queen,
    Kind::Rook,
    Kind::Bishop,
    Kind::Knight,
    Kind::Warrior,
    Kind::Mage,
];

/// Each seat's first row, along its row in ascending file or rank (§4.1: the same order for
/// all four seats, Kings on h1, a8, h16, p8).
const FIRST_ROW: &str = "MWRNBKQBNRWM";

impl Kind {
    /// Every type, in table order.
    pub const ALL: [Kind; 8] = [
        Kind::King,
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Warrior,
        Kind::Mage,
        Kind::Pawn,
    ];
    /// Index 0..8.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
    /// The letter players type (`W`).
    pub fn letter(self) -> char {
        PIECES[self.index()].1
    }
    /// The full name (`Warrior`).
    pub fn name(self) -> &'static str {
        PIECES[self.index()].2
    }
    /// The movement in Betza notation.
    pub fn betza(self) -> &'static str {
        PIECES[self.index()].3
    }
    /// The type of an upper-case letter.
    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.letter() == c)
    }
}

/// A piece: its type and the seat it belongs to (which gives its forward direction and
/// promotion row for the whole game, even when another player controls it).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Type.
    pub kind: Kind,
    /// Original owner.
    pub seat: Seat,
}

impl Piece {
    /// The piece in a non-empty, on-board cell.
    #[inline]
    pub(crate) fn from_cell(c: u8) -> Piece {
        Piece {
            kind: Kind::ALL[cell_kind(c)],
            seat: Seat::ALL[cell_seat(c)],
        }
    }
}

/// The cell value of a piece.
#[inline]
pub(crate) const fn cell(seat: usize, kind: usize) -> u8 {
    1 + ((seat as u8) << 3 | kind as u8)
}
/// The seat index of a piece cell.
#[inline]
pub(crate) const fn cell_seat(c: u8) -> usize {
    ((c - 1) >> 3) as usize
}
/// The kind index of a piece cell.
#[inline]
pub(crate) const fn cell_kind(c: u8) -> usize {
    ((c - 1) & 7) as usize
}
pub(crate) const KING: usize = 0;
pub(crate) const ROOK: usize = 2;
pub(crate) const PAWN: usize = 7;

/// Castling's two ways.
#[derive(
    Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, serde::Serialize, serde::Deserialize,
)]
pub enum CastleSide {
    /// `0-0`, the King's side (rook three squares away).
    King,
    /// `0-0-0`, the Queen's side.
    Queen,
}

impl CastleSide {
    /// Index 0 (`K`) or 1 (`Q`).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// One castling move of the §4.3 table.
#[derive(Clone, Debug)]
pub(crate) struct CastleDef {
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
    /// Squares between King and rook (must be empty).
    pub between: Vec<Square>,
}

/// The §4.3 table: per seat (King's side, Queen's side) as
/// (king from, king to, rook from, rook to).
const CASTLING: [[(&str, &str, &str, &str); 2]; 4] = [
    [("h1", "f1", "e1", "g1"), ("h1", "j1", "l1", "i1")],
    [("a8", "a6", "a5", "a7"), ("a8", "a10", "a12", "a9")],
    [("h16", "f16", "e16", "g16"), ("h16", "j16", "l16", "i16")],
    [("p8", "p6", "p5", "p7"), ("p8", "p10", "p12", "p9")],
];

/// A compiled leap.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Leap {
    pub off: i32,
    pub quiet: bool,
    pub capture: bool,
    /// Only from the owner's second row.
    pub initial: bool,
    /// Offsets (from the start) of the squares that must be empty.
    pub between: [i32; 2],
    pub n_between: u8,
}

/// A compiled slide.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Ride {
    pub step: i32,
    pub quiet: bool,
    pub capture: bool,
    /// Most steps (0 = unlimited).
    pub range: u8,
}

/// How one type moves for one seat.
#[derive(Clone, Debug, Default)]
pub(crate) struct KindMoves {
    pub leaps: Vec<Leap>,
    pub rides: Vec<Ride>,
}

/// Attack detection: a piece of a kind in `kinds` standing at `target - off` attacks `target`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct AttackLeap {
    pub off: i32,
    pub kinds: u8,
}

/// Attack detection along a line: the first piece met walking from the target by `-step`
/// attacks it if its kind is in `kinds` (and it is at most `range` steps away, 0 = any).
#[derive(Copy, Clone, Debug)]
pub(crate) struct AttackRay {
    pub step: i32,
    pub kinds: u8,
    pub range: u8,
}

/// Everything compiled from the data above.
pub(crate) struct Tables {
    pub geometry: Geometry,
    /// The 240 squares, rank 1 first.
    pub squares: Vec<Square>,
    /// Per seat, per kind.
    pub moves: [[KindMoves; 8]; 4],
    /// Attacks the same for every seat.
    pub common_leaps: Vec<AttackLeap>,
    pub common_rays: Vec<AttackRay>,
    /// Attacks that depend on the attacker's seat (the pawn's).
    pub seat_leaps: [Vec<AttackLeap>; 4],
    pub seat_rays: [Vec<AttackRay>; 4],
    /// Per seat, per cell: the row counted from the seat's own edge (255 off the board).
    pub rel: [Vec<u8>; 4],
    /// Per seat, per cell: the square ahead is off the board (the end of a file).
    pub file_end: [Vec<bool>; 4],
    /// Per seat: (King's side, Queen's side).
    pub castle: [[CastleDef; 2]; 4],
    /// Per cell: the castling rights (bit `2·seat + side`) lost when a move touches it.
    pub castle_clear: Vec<u8>,
    /// The start placement.
    pub start: Vec<(Square, u8)>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

/// The compiled tables.
#[inline]
pub(crate) fn tables() -> &'static Tables {
    TABLES.get_or_init(build)
}

/// The board's geometry (for square names).
pub fn geometry() -> &'static Geometry {
    &tables().geometry
}

/// The name of a square (`e2`, `p14`).
pub fn square_name(sq: Square) -> String {
    geometry().name(sq)
}

/// The square named (`e2`, `p14`), if it is on the board.
pub fn parse_square(text: &str) -> Option<Square> {
    geometry().parse_square(text).ok()
}

/// Whether a square is dark (§4: file number plus rank odd).
pub fn is_dark(sq: Square) -> bool {
    let c = geometry().coord(sq);
    (c.file as u32 + 1 + c.rank as u32 + 1) % 2 == 1
}

fn seat_kind_moves(seat: Seat, geometry: &Geometry) -> [KindMoves; 8] {
    let side = seat.side();
    let mut out: [KindMoves; 8] = Default::default();
    for kind in Kind::ALL {
        // The table is constant data; the unit test `tables_build` parses every entry.
        #[allow(clippy::expect_used)]
        let movement = betza::parse(kind.betza()).expect("the piece table parses");
        let km = &mut out[kind.index()];
        for atom in &movement.atoms {
            for &v in &atom.vectors {
                let (dx, dy) = orient(side, v);
                let off = geometry.offset(dx, dy);
                let m = atom.modality;
                if atom.rider {
                    km.rides.push(Ride {
                        step: off,
                        quiet: m.quiet,
                        capture: m.capture,
                        range: atom.range,
                    });
                    continue;
                }
                let n = dx.abs().max(dy.abs());
                let straight = dx == 0 || dy == 0 || dx.abs() == dy.abs();
                let mut between = [0; 2];
                let mut n_between = 0u8;
                if atom.lame && straight && n > 1 {
                    for i in 1..n.min(3) {
                        between[n_between as usize] =
                            geometry.offset(dx.signum() * i, dy.signum() * i);
                        n_between += 1;
                    }
                }
                km.leaps.push(Leap {
                    off,
                    quiet: m.quiet,
                    capture: m.capture,
                    initial: atom.initial,
                    between,
                    n_between,
                });
            }
        }
    }
    out
}

fn build() -> Tables {
    // 16×16 less 2×2 corners is within the engine's limits (a unit test builds it).
    #[allow(clippy::expect_used)]
    let geometry = Geometry::cut_corners(SIDE, CUT).expect("a 16×16 board fits the engine");
    let squares = geometry.squares().to_vec();
    let cells = geometry.cells();
    let moves: [[KindMoves; 8]; 4] = Seat::ALL.map(|s| seat_kind_moves(s, &geometry));

    // Attack tables: the capturing, unconditional leaps and slides of each kind per seat;
    // a kind whose attacks are the same for all four seats goes in the common tables.
    let mut common_leaps: Vec<AttackLeap> = Vec::new();
    let mut common_rays: Vec<AttackRay> = Vec::new();
    let mut seat_leaps: [Vec<AttackLeap>; 4] = Default::default();
    let mut seat_rays: [Vec<AttackRay>; 4] = Default::default();
    let attacks = |s: usize, k: usize| {
        let km = &moves[s][k];
        let mut leaps: Vec<i32> = km
            .leaps
            .iter()
            .filter(|l| l.capture && !l.initial && l.n_between == 0)
            .map(|l| l.off)
            .collect();
        let mut rays: Vec<(i32, u8)> = km
            .rides
            .iter()
            .filter(|r| r.capture)
            .map(|r| (r.step, r.range))
            .collect();
        leaps.sort_unstable();
        leaps.dedup();
        rays.sort_unstable();
        rays.dedup();
        (leaps, rays)
    };
    fn add_leap(list: &mut Vec<AttackLeap>, off: i32, bit: u8) {
        match list.iter_mut().find(|l| l.off == off) {
            Some(l) => l.kinds |= bit,
            None => list.push(AttackLeap { off, kinds: bit }),
        }
    }
    fn add_ray(list: &mut Vec<AttackRay>, step: i32, range: u8, bit: u8) {
        match list.iter_mut().find(|r| r.step == step && r.range == range) {
            Some(r) => r.kinds |= bit,
            None => list.push(AttackRay {
                step,
                kinds: bit,
                range,
            }),
        }
    }
    for k in 0..8 {
        let bit = 1u8 << k;
        let per_seat: Vec<_> = (0..4).map(|s| attacks(s, k)).collect();
        if per_seat.iter().all(|a| *a == per_seat[0]) {
            let (leaps, rays) = &per_seat[0];
            for &off in leaps {
                add_leap(&mut common_leaps, off, bit);
            }
            for &(step, range) in rays {
                add_ray(&mut common_rays, step, range, bit);
            }
        } else {
            for (s, (leaps, rays)) in per_seat.iter().enumerate() {
                for &off in leaps {
                    add_leap(&mut seat_leaps[s], off, bit);
                }
                for &(step, range) in rays {
                    add_ray(&mut seat_rays[s], step, range, bit);
                }
            }
        }
    }

    let mut rel: [Vec<u8>; 4] = Default::default();
    let mut file_end: [Vec<bool>; 4] = Default::default();
    for seat in Seat::ALL {
        let mut r = vec![u8::MAX; cells];
        let mut e = vec![false; cells];
        let (fx, fy) = orient(seat.side(), (0, 1));
        let fwd = geometry.offset(fx, fy);
        for &sq in &squares {
            let c = geometry.coord(sq);
            r[sq.index()] = match seat {
                Seat::Silver => c.rank,
                Seat::Red => c.file,
                Seat::Black => SIDE - 1 - c.rank,
                Seat::Green => SIDE - 1 - c.file,
            };
            e[sq.index()] = !geometry.is_playable(sq.offset(fwd));
        }
        rel[seat.index()] = r;
        file_end[seat.index()] = e;
    }

    #[allow(clippy::expect_used)]
    let sq = |name: &str| {
        // The castling table is constant data naming squares of this board (unit-tested).
        geometry
            .parse_square(name)
            .expect("the castling table names board squares")
    };
    let castle: [[CastleDef; 2]; 4] = CASTLING.map(|row| {
        row.map(|(kf, kt, rf, rt)| {
            let (king_from, rook_from) = (sq(kf), sq(rf));
            let dir: i32 = {
                let a = geometry.coord(king_from);
                let b = geometry.coord(rook_from);
                let df = (b.file as i32 - a.file as i32).signum();
                let dr = (b.rank as i32 - a.rank as i32).signum();
                geometry.offset(df, dr)
            };
            let mut between = Vec::new();
            let mut t = king_from.offset(dir);
            while t != rook_from {
                between.push(t);
                t = t.offset(dir);
            }
            CastleDef {
                king_from,
                king_to: sq(kt),
                rook_from,
                rook_to: sq(rt),
                between,
            }
        })
    });
    let mut castle_clear = vec![0u8; cells];
    for (s, row) in castle.iter().enumerate() {
        for (side, d) in row.iter().enumerate() {
            let bit = 1u8 << (2 * s + side);
            castle_clear[d.king_from.index()] |= bit;
            castle_clear[d.rook_from.index()] |= bit;
        }
    }

    let mut start = Vec::new();
    for seat in Seat::ALL {
        for (i, letter) in FIRST_ROW.chars().enumerate() {
            let i = i as u8 + CUT;
            let (first, pawn) = match seat {
                Seat::Silver => (Coord::new(i, 0), Coord::new(i, 1)),
                Seat::Red => (Coord::new(0, i), Coord::new(1, i)),
                Seat::Black => (Coord::new(i, SIDE - 1), Coord::new(i, SIDE - 2)),
                Seat::Green => (Coord::new(SIDE - 1, i), Coord::new(SIDE - 2, i)),
            };
            let kind = Kind::from_letter(letter).unwrap_or(Kind::Pawn);
            if let (Some(a), Some(b)) = (geometry.square(first), geometry.square(pawn)) {
                start.push((a, cell(seat.index(), kind.index())));
                start.push((b, cell(seat.index(), PAWN)));
            }
        }
    }

    Tables {
        geometry,
        squares,
        moves,
        common_leaps,
        common_rays,
        seat_leaps,
        seat_rays,
        rel,
        file_end,
        castle,
        castle_clear,
        start,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_build() {
        let t = tables();
        assert_eq!(t.squares.len(), 240);
        assert_eq!(t.start.len(), 96);
        for name in ["a1", "b2", "o1", "p2", "a15", "b16", "o16", "p15"] {
            assert!(parse_square(name).is_none(), "{name} is cut");
        }
        for name in ["c1", "a3", "p14", "n16", "b14"] {
            assert!(parse_square(name).is_some(), "{name} is a square");
        }
        // Warrior and Mage have 12 moves each.
        assert_eq!(t.moves[0][Kind::Warrior.index()].leaps.len(), 12);
        assert_eq!(t.moves[0][Kind::Mage.index()].leaps.len(), 12);
        // Dark squares (decision 1).
        assert!(is_dark(parse_square("n1").unwrap()));
        assert!(is_dark(parse_square("c16").unwrap()));
        assert!(!is_dark(parse_square("a3").unwrap()));
        assert!(!is_dark(parse_square("p14").unwrap()));
        // Pawns: forward one, two, three, two diagonal captures.
        let p = &t.moves[1][Kind::Pawn.index()];
        assert_eq!(p.leaps.len(), 5);
        assert!(t.seat_leaps.iter().all(|l| l.len() == 2));
        assert!(t.seat_rays.iter().all(Vec::is_empty));
    }
}
