//! The position of one board: placement, side to move, castling rights, en passant, hands,
//! move counters, and making and unmaking moves.

use std::sync::Arc;

use super::geometry::Square;
use super::piece::{ArmyId, Hook, Kind};
use super::rules::{CaptureFate, Rules, Side, MAX_SIDES};

/// A piece on the board: its type, owner, army of origin and whether it was promoted.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Piece type.
    pub kind: Kind,
    /// Owner on this board.
    pub side: Side,
    /// Army it came from (a pawn promotes only into its own army).
    pub army: ArmyId,
    /// A promoted pawn (it returns to hand as a pawn when captured).
    pub promoted: bool,
}

/// Cell value of an empty square.
pub(crate) const EMPTY: u32 = 0;
/// Cell value outside the board.
pub(crate) const OFF: u32 = u32::MAX;

impl Piece {
    /// Packs into a board cell.
    #[inline]
    pub(crate) fn pack(self) -> u32 {
        (self.kind.0 as u32 + 1)
            | (self.side.0 as u32) << 8
            | (self.army.0 as u32) << 12
            | (self.promoted as u32) << 17
    }
    /// Unpacks a non-empty, on-board cell.
    #[inline]
    pub(crate) fn unpack(c: u32) -> Piece {
        Piece {
            kind: Kind(((c & 0xff) - 1) as u8),
            side: Side(((c >> 8) & 0xf) as u8),
            army: ArmyId(((c >> 12) & 0x1f) as u8),
            promoted: (c >> 17) & 1 == 1,
        }
    }
}

#[inline]
pub(crate) fn cell_kind(c: u32) -> usize {
    ((c & 0xff) - 1) as usize
}
#[inline]
pub(crate) fn cell_side(c: u32) -> u8 {
    ((c >> 8) & 0xf) as u8
}

/// A colour tag of a piece in hand: whose pieces these are in the game (KFB: red, lightgreen,
/// blue). On a plain board, colour `n` is side `n`'s.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Colour(pub u8);

/// A piece held for dropping: its type, colour, army of origin and whether it was promoted.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct HandPiece {
    /// Piece type.
    pub kind: Kind,
    /// Colour (who may drop it).
    pub colour: Colour,
    /// Army of origin.
    pub army: ArmyId,
    /// Kept its promoted type (only in rules where promoted pieces do not revert).
    pub promoted: bool,
}

/// The pieces one side holds, with counts.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Hand {
    entries: Vec<(HandPiece, u16)>,
}

impl Hand {
    /// Adds one piece.
    pub fn add(&mut self, p: HandPiece) {
        match self.entries.iter_mut().find(|(q, _)| *q == p) {
            Some((_, n)) => *n = n.saturating_add(1),
            None => {
                let at = self.entries.partition_point(|(q, _)| *q < p);
                self.entries.insert(at, (p, 1));
            }
        }
    }
    /// Removes one piece; false if there was none.
    pub fn remove(&mut self, p: HandPiece) -> bool {
        match self.entries.iter().position(|(q, _)| *q == p) {
            Some(i) => {
                self.entries[i].1 -= 1;
                if self.entries[i].1 == 0 {
                    self.entries.remove(i);
                }
                true
            }
            None => false,
        }
    }
    /// Distinct pieces with their counts, sorted.
    pub fn entries(&self) -> &[(HandPiece, u16)] {
        &self.entries
    }
    /// How many of this piece.
    pub fn count(&self, p: HandPiece) -> u16 {
        self.entries
            .iter()
            .find(|(q, _)| *q == p)
            .map_or(0, |e| e.1)
    }
    /// Total number of pieces.
    pub fn len(&self) -> usize {
        self.entries.iter().map(|e| e.1 as usize).sum()
    }
    /// Whether the hand is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// A move exotic pieces make (Party Chess): several parts, captures apart from the
/// destination. Carried by [`Move::Special`]; generated and played by the piece's hook.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct SpecialMove {
    /// The hook that made it.
    pub hook: Hook,
    /// Where the piece starts.
    pub from: Square,
    /// Where it ends (equal to `from` for a capture without moving; `None` if it is
    /// destroyed by its own move).
    pub to: Option<Square>,
    /// Squares passed through, in order (two-part moves).
    pub waypoints: [Option<Square>; 2],
    /// Squares whose pieces are captured.
    pub captures: [Option<Square>; 4],
}

/// A move on one board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A piece moves (and captures whatever stands on `to`), possibly promoting.
    Normal {
        /// From.
        from: Square,
        /// To.
        to: Square,
        /// Promotion choice.
        promotion: Option<Kind>,
    },
    /// A pawn captures en passant.
    EnPassant {
        /// From.
        from: Square,
        /// To (the square passed over by the double step).
        to: Square,
        /// Where the captured pawn stands.
        victim: Square,
    },
    /// Castling: the king moves two squares toward the corner piece, which lands on the
    /// square the king crossed.
    Castle {
        /// King's square.
        king_from: Square,
        /// King's destination.
        king_to: Square,
        /// Corner piece's square.
        corner_from: Square,
        /// Corner piece's destination.
        corner_to: Square,
    },
    /// A piece from hand placed on an empty square.
    Drop {
        /// The piece.
        piece: HandPiece,
        /// Where.
        to: Square,
    },
    /// No move (games that allow passing).
    Pass,
    /// A move made by a piece hook.
    Special(SpecialMove),
}

impl Move {
    /// The square the move starts from, if any.
    pub fn from(&self) -> Option<Square> {
        match *self {
            Move::Normal { from, .. } | Move::EnPassant { from, .. } => Some(from),
            Move::Castle { king_from, .. } => Some(king_from),
            Move::Special(s) => Some(s.from),
            Move::Drop { .. } | Move::Pass => None,
        }
    }
    /// The square the moving (or dropped) piece ends on, if any.
    pub fn to(&self) -> Option<Square> {
        match *self {
            Move::Normal { to, .. } | Move::EnPassant { to, .. } | Move::Drop { to, .. } => {
                Some(to)
            }
            Move::Castle { king_to, .. } => Some(king_to),
            Move::Special(s) => s.to,
            Move::Pass => None,
        }
    }
}

/// A castling right: the king's square and the corner square, for one side.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct CastleRight {
    /// Whose right.
    pub side: Side,
    /// The king's start square.
    pub king: Square,
    /// The corner piece's start square.
    pub corner: Square,
}

/// En passant: the square a double step passed over and the pawn that made it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct EnPassant {
    /// The square passed over.
    pub target: Square,
    /// The pawn that may be captured.
    pub victim: Square,
}

/// What `make` needs to restore the position.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    captured: u32,
    captured_id: u32,
    castle_mask: u16,
    ep: Option<EnPassant>,
    halfmove: u32,
    fullmove: u32,
    to_hand: Option<(Side, HandPiece)>,
    next_id: u32,
}

/// What a played move did, for the game's log: the piece moved and everything captured,
/// kept apart from the destination.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveRecord {
    /// The move.
    pub mv: Move,
    /// The piece that moved or was dropped (before promotion).
    pub piece: Piece,
    /// Its identity.
    pub piece_id: u32,
    /// The corner piece moved by castling, with its identity.
    pub corner: Option<(Piece, u32)>,
    /// Captured pieces with their squares and identities.
    pub captures: Vec<(Square, Piece, u32)>,
    /// Squares passed through.
    pub waypoints: Vec<Square>,
}

/// One board's position.
#[derive(Clone)]
pub struct Position {
    pub(crate) rules: Arc<Rules>,
    pub(crate) board: Vec<u32>,
    pub(crate) ids: Vec<u32>,
    pub(crate) turn: Side,
    pub(crate) castle_rights: Vec<CastleRight>,
    pub(crate) castle_mask: u16,
    pub(crate) ep: Option<EnPassant>,
    pub(crate) hands: Vec<Hand>,
    pub(crate) colours: Vec<Colour>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) next_id: u32,
    pub(crate) royals: [u8; MAX_SIDES],
}

impl PartialEq for Position {
    /// Positions are equal when they play the same: same placement, side to move, hands,
    /// counters, valid castling rights and usable en passant capture.
    fn eq(&self, other: &Self) -> bool {
        let rights = |p: &Position| {
            let mut v: Vec<(Side, Square, Square)> = p
                .castle_rights()
                .map(|r| (r.side, r.king, r.corner))
                .collect();
            v.sort();
            v
        };
        self.board == other.board
            && self.turn == other.turn
            && self.hands == other.hands
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && rights(self) == rights(other)
            && self.usable_en_passant() == other.usable_en_passant()
    }
}

impl Position {
    /// An empty board for these rules.
    pub fn empty(rules: Arc<Rules>) -> Position {
        let cells = rules.geometry.cells();
        let mut board = vec![OFF; cells];
        for &sq in rules.geometry.squares() {
            board[sq.index()] = EMPTY;
        }
        let sides = rules.sides as usize;
        Position {
            board,
            ids: vec![0; cells],
            turn: Side(0),
            castle_rights: Vec::new(),
            castle_mask: 0,
            ep: None,
            hands: vec![Hand::default(); sides],
            colours: (0..sides as u8).map(Colour).collect(),
            halfmove: 0,
            fullmove: 1,
            next_id: 1,
            royals: [0; MAX_SIDES],
            rules,
        }
    }

    /// Whether `other` has the very same rules and the same pieces on the same squares
    /// (what a picture of the board shows of the position).
    pub fn same_placement(&self, other: &Position) -> bool {
        Arc::ptr_eq(&self.rules, &other.rules) && self.board == other.board
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
    /// Side to move.
    pub fn turn(&self) -> Side {
        self.turn
    }
    /// Sets the side to move (the game does this when Kung Fu timing lets a side move again).
    pub fn set_turn(&mut self, side: Side) {
        if side != self.turn {
            self.ep = None;
        }
        self.turn = side;
    }
    /// The piece on a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        match self.board.get(sq.index()) {
            Some(&c) if c != EMPTY && c != OFF => Some(Piece::unpack(c)),
            _ => None,
        }
    }
    /// The identity of the piece on a square (0 if empty).
    pub fn piece_id(&self, sq: Square) -> u32 {
        self.ids.get(sq.index()).copied().unwrap_or(0)
    }
    /// Puts a piece on a square (setup), giving it a new identity. Returns that identity.
    pub fn put(&mut self, sq: Square, piece: Option<Piece>) -> u32 {
        if let Some(old) = self.piece_at(sq) {
            if self.rules.catalog.def(old.kind).royal {
                self.royals[old.side.index()] -= 1;
            }
        }
        match piece {
            Some(p) => {
                if self.rules.catalog.def(p.kind).royal {
                    self.royals[p.side.index()] += 1;
                }
                self.board[sq.index()] = p.pack();
                let id = self.next_id;
                self.next_id += 1;
                self.ids[sq.index()] = id;
                id
            }
            None => {
                self.board[sq.index()] = EMPTY;
                self.ids[sq.index()] = 0;
                0
            }
        }
    }
    /// A side's hand.
    pub fn hand(&self, side: Side) -> &Hand {
        &self.hands[side.index()]
    }
    /// A side's hand, to change (the game routes captured pieces between boards).
    pub fn hand_mut(&mut self, side: Side) -> &mut Hand {
        &mut self.hands[side.index()]
    }
    /// The colour whose hand pieces a side may drop.
    pub fn colour(&self, side: Side) -> Colour {
        self.colours[side.index()]
    }
    /// Sets the colour of a side (KFB colours).
    pub fn set_colour(&mut self, side: Side, colour: Colour) {
        self.colours[side.index()] = colour;
    }
    /// Castling rights still valid.
    pub fn castle_rights(&self) -> impl Iterator<Item = CastleRight> + '_ {
        self.castle_rights
            .iter()
            .enumerate()
            .filter(move |(i, _)| self.castle_mask & (1 << i) != 0)
            .map(|(_, r)| *r)
    }
    /// Adds a castling right.
    pub fn add_castle_right(&mut self, right: CastleRight) {
        if self.castle_rights.len() < 16 {
            self.castle_mask |= 1 << self.castle_rights.len();
            self.castle_rights.push(right);
        }
    }
    /// En passant state.
    pub fn en_passant(&self) -> Option<EnPassant> {
        self.ep
    }
    /// The en passant target, if some pawn of the side to move can actually capture there.
    pub fn usable_en_passant(&self) -> Option<Square> {
        let ep = self.ep?;
        let mut v = Vec::new();
        self.pseudo_moves(&mut v);
        v.iter()
            .any(|m| matches!(m, Move::EnPassant { to, .. } if *to == ep.target))
            .then_some(ep.target)
    }
    /// Sets the en passant state (FEN).
    pub fn set_en_passant(&mut self, ep: Option<EnPassant>) {
        self.ep = ep;
    }
    /// Halfmove clock.
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }
    /// Fullmove number.
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }
    /// Sets the move counters.
    pub fn set_counters(&mut self, halfmove: u32, fullmove: u32) {
        self.halfmove = halfmove;
        self.fullmove = fullmove;
    }
    /// Number of royal pieces a side has on the board.
    pub fn royal_count(&self, side: Side) -> u8 {
        self.royals[side.index()]
    }
    /// Every occupied square with its piece.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.rules
            .geometry
            .squares()
            .iter()
            .filter_map(move |&s| self.piece_at(s).map(|p| (s, p)))
    }
    /// The squares of a side's royal pieces.
    pub fn royal_squares(&self, side: Side) -> Vec<Square> {
        self.pieces()
            .filter(|(_, p)| p.side == side && self.rules.catalog.def(p.kind).royal)
            .map(|(s, _)| s)
            .collect()
    }

    /// Empties a square, returning its cell and piece identity.
    #[inline]
    fn take(&mut self, sq: Square) -> (u32, u32) {
        let i = sq.index();
        let taken = (self.board[i], self.ids[i]);
        self.board[i] = EMPTY;
        self.ids[i] = 0;
        taken
    }

    /// Puts a cell and piece identity taken with [`Position::take`] on a square.
    #[inline]
    fn place(&mut self, sq: Square, (cell, id): (u32, u32)) {
        self.board[sq.index()] = cell;
        self.ids[sq.index()] = id;
    }

    fn clear_castling(&mut self, sq: Square) {
        if self.castle_mask == 0 {
            return;
        }
        for (i, r) in self.castle_rights.iter().enumerate() {
            if r.king == sq || r.corner == sq {
                self.castle_mask &= !(1 << i);
            }
        }
    }

    fn next_turn(&mut self) {
        let n = self.rules.sides;
        self.turn = Side((self.turn.0 + 1) % n);
        if self.turn.0 == 0 {
            self.fullmove += 1;
        }
    }

    #[inline]
    fn captured_to_hand(&self, captured: u32, capturer: Side) -> Option<(Side, HandPiece)> {
        if self.rules.capture_fate != CaptureFate::CapturerHand {
            return None;
        }
        let p = Piece::unpack(captured);
        let (kind, promoted) = match (p.promoted && self.rules.promoted_revert, self.rules.pawn) {
            (true, Some(pawn)) => (pawn, false),
            _ => (p.kind, p.promoted),
        };
        // Crazyhouse: the piece changes sides entirely, so a pawn now promotes into the
        // capturer's army (as the reference engine plays it).
        let army = if self.rules.pawn == Some(kind) {
            self.rules.side_armies[capturer.index()]
        } else {
            p.army
        };
        Some((
            capturer,
            HandPiece {
                kind,
                colour: self.colours[capturer.index()],
                army,
                promoted,
            },
        ))
    }

    /// Plays a move without checking it. Returns what is needed to take it back.
    ///
    /// The move must come from this position's move generator; anything else may corrupt the
    /// position (take it from [`Position::legal_moves`]).
    pub fn make(&mut self, mv: Move) -> Undo {
        let mut undo = Undo {
            captured: EMPTY,
            captured_id: 0,
            castle_mask: self.castle_mask,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            to_hand: None,
            next_id: self.next_id,
        };
        self.ep = None;
        let mover = self.turn;
        match mv {
            Move::Normal {
                from,
                to,
                promotion,
            } => {
                let c = self.board[from.index()];
                let captured = self.board[to.index()];
                let kind = cell_kind(c);
                let def = &self.rules.catalog.pieces[kind];
                let is_pawn = def.pawn;
                if captured != EMPTY {
                    undo.captured = captured;
                    undo.captured_id = self.ids[to.index()];
                    if self.rules.catalog.pieces[cell_kind(captured)].royal {
                        self.royals[cell_side(captured) as usize] -= 1;
                    }
                    undo.to_hand = self.captured_to_hand(captured, mover);
                    self.halfmove = 0;
                } else if is_pawn {
                    self.halfmove = 0;
                } else {
                    self.halfmove += 1;
                }
                let newc = match promotion {
                    Some(k) => {
                        let mut p = Piece::unpack(c);
                        p.kind = k;
                        p.promoted = true;
                        p.pack()
                    }
                    None => c,
                };
                self.board[to.index()] = newc;
                self.board[from.index()] = EMPTY;
                self.ids[to.index()] = self.ids[from.index()];
                self.ids[from.index()] = 0;
                if is_pawn {
                    let d = to.0 as i32 - from.0 as i32;
                    let stride = self.rules.geometry.stride();
                    if d == 2 * stride || d == -2 * stride || d == 2 || d == -2 {
                        self.ep = Some(EnPassant {
                            target: from.offset(d / 2),
                            victim: to,
                        });
                    }
                }
                self.clear_castling(from);
                self.clear_castling(to);
            }
            Move::EnPassant { from, to, victim } => {
                let captured = self.board[victim.index()];
                undo.captured = captured;
                undo.captured_id = self.ids[victim.index()];
                if self.rules.catalog.pieces[cell_kind(captured)].royal {
                    self.royals[cell_side(captured) as usize] -= 1;
                }
                undo.to_hand = self.captured_to_hand(captured, mover);
                let pawn = self.take(from);
                self.place(to, pawn);
                self.take(victim);
                self.halfmove = 0;
            }
            Move::Castle {
                king_from,
                king_to,
                corner_from,
                corner_to,
            } => {
                let king = self.take(king_from);
                let corner = self.take(corner_from);
                self.place(king_to, king);
                self.place(corner_to, corner);
                self.halfmove += 1;
                self.clear_castling(king_from);
                self.clear_castling(corner_from);
            }
            Move::Drop { piece, to } => {
                self.hands[mover.index()].remove(piece);
                let p = Piece {
                    kind: piece.kind,
                    side: mover,
                    army: piece.army,
                    promoted: piece.promoted,
                };
                if self.rules.catalog.def(piece.kind).royal {
                    self.royals[mover.index()] += 1;
                }
                self.board[to.index()] = p.pack();
                self.ids[to.index()] = self.next_id;
                self.next_id += 1;
                self.halfmove += 1;
            }
            Move::Pass | Move::Special(_) => {
                self.halfmove += 1;
            }
        }
        if let Some((side, hp)) = undo.to_hand {
            self.hands[side.index()].add(hp);
        }
        self.next_turn();
        undo
    }

    /// Takes back a move made with [`Position::make`].
    pub fn unmake(&mut self, mv: Move, undo: &Undo) {
        let n = self.rules.sides;
        self.turn = Side((self.turn.0 + n - 1) % n);
        let mover = self.turn;
        if let Some((side, hp)) = undo.to_hand {
            self.hands[side.index()].remove(hp);
        }
        match mv {
            Move::Normal {
                from,
                to,
                promotion,
            } => {
                let mut c = self.board[to.index()];
                if promotion.is_some() {
                    let mut p = Piece::unpack(c);
                    if let Some(pawn) = self.rules.pawn {
                        p.kind = pawn;
                    }
                    p.promoted = false;
                    c = p.pack();
                }
                self.board[from.index()] = c;
                self.ids[from.index()] = self.ids[to.index()];
                self.board[to.index()] = undo.captured;
                self.ids[to.index()] = undo.captured_id;
                if undo.captured != EMPTY
                    && self.rules.catalog.pieces[cell_kind(undo.captured)].royal
                {
                    self.royals[cell_side(undo.captured) as usize] += 1;
                }
            }
            Move::EnPassant { from, to, victim } => {
                let pawn = self.take(to);
                self.place(from, pawn);
                self.place(victim, (undo.captured, undo.captured_id));
                if self.rules.catalog.pieces[cell_kind(undo.captured)].royal {
                    self.royals[cell_side(undo.captured) as usize] += 1;
                }
            }
            Move::Castle {
                king_from,
                king_to,
                corner_from,
                corner_to,
            } => {
                let king = self.take(king_to);
                let corner = self.take(corner_to);
                self.place(king_from, king);
                self.place(corner_from, corner);
            }
            Move::Drop { piece, to } => {
                self.board[to.index()] = EMPTY;
                self.ids[to.index()] = 0;
                if self.rules.catalog.def(piece.kind).royal {
                    self.royals[mover.index()] -= 1;
                }
                self.hands[mover.index()].add(piece);
            }
            Move::Pass | Move::Special(_) => {}
        }
        self.castle_mask = undo.castle_mask;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.fullmove = undo.fullmove;
        self.next_id = undo.next_id;
    }

    /// Plays a move and describes what it did (for logs). The move is not checked.
    pub fn play_recorded(&mut self, mv: Move) -> MoveRecord {
        let (piece, piece_id) = match mv {
            Move::Drop { piece, .. } => (
                Piece {
                    kind: piece.kind,
                    side: self.turn,
                    army: piece.army,
                    promoted: piece.promoted,
                },
                self.next_id,
            ),
            _ => {
                let from = mv.from().unwrap_or(Square(0));
                match self.piece_at(from) {
                    Some(p) => (p, self.piece_id(from)),
                    None => (
                        Piece {
                            kind: Kind(0),
                            side: self.turn,
                            army: ArmyId(0),
                            promoted: false,
                        },
                        0,
                    ),
                }
            }
        };
        let mut captures = Vec::new();
        let mut corner = None;
        match mv {
            Move::Normal { to, .. } => {
                if let Some(p) = self.piece_at(to) {
                    captures.push((to, p, self.piece_id(to)));
                }
            }
            Move::EnPassant { victim, .. } => {
                if let Some(p) = self.piece_at(victim) {
                    captures.push((victim, p, self.piece_id(victim)));
                }
            }
            Move::Castle { corner_from, .. } => {
                corner = self
                    .piece_at(corner_from)
                    .map(|p| (p, self.piece_id(corner_from)));
            }
            _ => {}
        }
        self.make(mv);
        MoveRecord {
            mv,
            piece,
            piece_id,
            corner,
            captures,
            waypoints: Vec::new(),
        }
    }
}
