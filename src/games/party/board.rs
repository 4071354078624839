//! The Party Board (20×20, files `a`–`t`, ranks 1–20) and the position: pieces on it,
//! off-board pieces per seat, the Play List and each seat's Echo source (Party rules 3.0, 3.8).

use std::collections::BTreeMap;

use super::piece::{EchoRule, Kind, Piece, Src};

/// The board's side.
pub const SIDE: i32 = 20;

/// A square: `file + 20 * rank`, both from 0.
#[derive(
    Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, serde::Serialize, serde::Deserialize,
)]
pub struct Sq(pub u16);

impl Sq {
    /// The square at (file, rank), if on the board.
    pub fn at(file: i32, rank: i32) -> Option<Sq> {
        ((0..SIDE).contains(&file) && (0..SIDE).contains(&rank))
            .then(|| Sq((file + SIDE * rank) as u16))
    }
    /// File from 0 (`a`).
    pub fn file(self) -> i32 {
        i32::from(self.0) % SIDE
    }
    /// Rank from 0 (rank 1).
    pub fn rank(self) -> i32 {
        i32::from(self.0) / SIDE
    }
    /// The square `d` away.
    pub fn offset(self, d: (i32, i32)) -> Option<Sq> {
        Sq::at(self.file() + d.0, self.rank() + d.1)
    }
    /// `j10`.
    pub fn name(self) -> String {
        format!("{}{}", (b'a' + self.file() as u8) as char, self.rank() + 1)
    }
    /// Reads `j10` (lower or upper case file).
    pub fn parse(text: &str) -> Option<Sq> {
        let mut chars = text.chars();
        let f = chars.next()?.to_ascii_lowercase();
        if !('a'..='t').contains(&f) {
            return None;
        }
        let rest = chars.as_str();
        if rest.is_empty() || rest.len() > 2 || !rest.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        if rest.starts_with('0') {
            return None;
        }
        let r: i32 = rest.parse().ok()?;
        Sq::at(i32::from(f as u8 - b'a'), r - 1)
    }
    /// Chebyshev distance.
    pub fn distance(self, other: Sq) -> i32 {
        (self.file() - other.file())
            .abs()
            .max((self.rank() - other.rank()).abs())
    }
    /// Every square.
    pub fn all() -> impl Iterator<Item = Sq> {
        (0..(SIDE * SIDE) as u16).map(Sq)
    }
    /// An edge square (rank 1 or 20, file `a` or `t`).
    pub fn is_edge(self) -> bool {
        self.file() == 0 || self.file() == SIDE - 1 || self.rank() == 0 || self.rank() == SIDE - 1
    }
    /// A corner (`a1 a20 t1 t20`).
    pub fn is_corner(self) -> bool {
        (self.file() == 0 || self.file() == SIDE - 1)
            && (self.rank() == 0 || self.rank() == SIDE - 1)
    }
}

/// The eight directions.
pub const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The four orthogonal directions.
pub const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The four diagonal directions.
pub const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The pawn's promotion squares `j10 j11 k10 k11`.
pub fn is_promotion_square(sq: Sq) -> bool {
    (9..=10).contains(&sq.file()) && (9..=10).contains(&sq.rank())
}

/// The Demon's zone: ranks 6–14 and files `f`–`n`.
pub fn in_demon_zone(sq: Sq) -> bool {
    (5..=13).contains(&sq.rank()) && (5..=13).contains(&sq.file())
}

/// Where a pawn may be placed: files `a b s t` or ranks 1 2 19 20.
pub fn pawn_placeable(sq: Sq) -> bool {
    let edge = |x: i32| x <= 1 || x >= SIDE - 2;
    edge(sq.file()) || edge(sq.rank())
}

/// A position: what the position text carries.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Vec<Option<Piece>>,
    /// Off-board pieces per seat.
    pub hands: BTreeMap<u8, Vec<Piece>>,
    /// The Play List, top first.
    pub list: Vec<u8>,
    /// Each seat's Echo source (what its Echo moves as).
    pub echo: BTreeMap<u8, Option<Src>>,
    /// How Echoes read their source (the game's `echo:` setting).
    pub echo_rule: EchoRule,
}

impl Position {
    /// An empty board with these seats in this Play List order, every hand empty.
    pub fn empty(list: Vec<u8>) -> Position {
        let echo = list.iter().map(|&s| (s, None)).collect();
        Position {
            board: vec![None; (SIDE * SIDE) as usize],
            hands: BTreeMap::new(),
            list,
            echo,
            echo_rule: EchoRule::Rules,
        }
    }
    /// The piece on a square.
    pub fn at(&self, sq: Sq) -> Option<Piece> {
        self.board.get(usize::from(sq.0)).copied().flatten()
    }
    /// Puts (or clears) a square.
    pub fn set(&mut self, sq: Sq, p: Option<Piece>) {
        if let Some(c) = self.board.get_mut(usize::from(sq.0)) {
            *c = p;
        }
    }
    /// Every piece on the board.
    pub fn pieces(&self) -> impl Iterator<Item = (Sq, Piece)> + '_ {
        self.board
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (Sq(i as u16), p)))
    }
    /// A seat's pieces on the board.
    pub fn pieces_of(&self, seat: u8) -> impl Iterator<Item = (Sq, Piece)> + '_ {
        self.pieces().filter(move |(_, p)| p.seat == seat)
    }
    /// A seat's off-board pieces.
    pub fn hand(&self, seat: u8) -> &[Piece] {
        self.hands.get(&seat).map_or(&[], Vec::as_slice)
    }
    /// Adds an off-board piece, keeping the hand sorted.
    pub fn give(&mut self, seat: u8, mut p: Piece) {
        p.seat = seat;
        let h = self.hands.entry(seat).or_default();
        h.push(p);
        h.sort();
    }
    /// Takes an off-board piece out of a hand.
    pub fn take(&mut self, seat: u8, p: Piece) -> bool {
        let Some(h) = self.hands.get_mut(&seat) else {
            return false;
        };
        let Some(i) = h.iter().position(|&q| q == p) else {
            return false;
        };
        h.remove(i);
        if h.is_empty() {
            self.hands.remove(&seat);
        }
        true
    }
    /// Where a seat's King stands.
    pub fn king(&self, seat: u8) -> Option<Sq> {
        self.pieces_of(seat)
            .find(|(_, p)| p.kind == Kind::King)
            .map(|(s, _)| s)
    }
    /// How many pieces of a type a seat owns, on and off the board.
    pub fn owned(&self, seat: u8, kind: Kind) -> usize {
        self.pieces_of(seat).filter(|(_, p)| p.kind == kind).count()
            + self.hand(seat).iter().filter(|p| p.kind == kind).count()
    }
    /// The seat to play (the top of the Play List).
    pub fn to_play(&self) -> Option<u8> {
        self.list.first().copied()
    }
    /// The seats, in number order.
    pub fn seats(&self) -> Vec<u8> {
        let mut v = self.list.clone();
        v.sort_unstable();
        v
    }
    /// A seat's Echo source.
    pub fn echo_of(&self, seat: u8) -> Option<Src> {
        self.echo.get(&seat).copied().flatten()
    }
    /// Whether a seat has pieces on the board.
    pub fn on_board(&self, seat: u8) -> bool {
        self.pieces_of(seat).next().is_some()
    }
    /// Destroys the excess over the instance limits of a seat, off-board pieces first (the
    /// ones that arrived last).
    pub fn enforce_limits(&mut self, seat: u8) {
        for kind in [Kind::King, Kind::Tornado] {
            let limit = kind.limit().unwrap_or(usize::MAX);
            while self.owned(seat, kind) > limit {
                let held = self.hand(seat).iter().copied().find(|q| q.kind == kind);
                let on = self
                    .pieces_of(seat)
                    .find(|(_, p)| p.kind == kind)
                    .map(|(s, _)| s);
                if let Some(q) = held {
                    self.take(seat, q);
                } else if let Some(sq) = on {
                    self.set(sq, None);
                } else {
                    break;
                }
            }
        }
    }
    /// Removes a seat and everything it owns.
    pub fn remove_seat(&mut self, seat: u8) {
        let squares: Vec<Sq> = self.pieces_of(seat).map(|(s, _)| s).collect();
        for s in squares {
            self.set(s, None);
        }
        self.hands.remove(&seat);
        self.list.retain(|&s| s != seat);
        self.echo.remove(&seat);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_and_write() {
        for name in ["a1", "t20", "j10", "k11", "b19"] {
            let s = Sq::parse(name).expect(name);
            assert_eq!(s.name(), name);
        }
        assert_eq!(Sq::parse("u1"), None);
        assert_eq!(Sq::parse("a21"), None);
        assert_eq!(Sq::parse("a0"), None);
        assert_eq!(Sq::parse("a01"), None);
        assert!(Sq::parse("a1").is_some_and(Sq::is_corner));
        assert!(Sq::parse("a5").is_some_and(Sq::is_edge));
        assert!(!Sq::parse("b5").is_some_and(Sq::is_edge));
    }

    #[test]
    fn zones_and_placement_squares() {
        let z = |n: &str| Sq::parse(n).is_some_and(in_demon_zone);
        assert!(z("f6") && z("n14") && z("j10"));
        assert!(!z("e6") && !z("f5") && !z("o14") && !z("n15"));
        let p = |n: &str| Sq::parse(n).is_some_and(pawn_placeable);
        assert!(p("a7") && p("b7") && p("s7") && p("t7") && p("g1") && p("g2") && p("g19"));
        assert!(!p("c3") && !p("r18"));
        let promo: Vec<String> = Sq::all()
            .filter(|&s| is_promotion_square(s))
            .map(Sq::name)
            .collect();
        assert_eq!(promo, ["j10", "k10", "j11", "k11"]);
    }

    #[test]
    fn limits_destroy_the_excess_off_board_first() {
        let mut p = Position::empty(vec![1, 2]);
        let k1 = Sq::parse("c3").expect("c3");
        p.set(k1, Some(Piece::new(Kind::King, 1)));
        p.give(1, Piece::new(Kind::King, 2));
        p.give(1, Piece::new(Kind::Rook, 2));
        p.enforce_limits(1);
        assert_eq!(p.owned(1, Kind::King), 1);
        assert_eq!(p.king(1), Some(k1));
        assert_eq!(p.hand(1).len(), 1);
    }
}
