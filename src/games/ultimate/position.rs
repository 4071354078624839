//! An Ultimate Chess position: what the position text carries (placement, seat to move,
//! castling rights, defeated seats, mode, controllers), legal moves for four seats, making and
//! unmaking moves (a captured King defeats its owner at once, the mode applied), and perft.
//!
//! Why not the engine's `Position`: it has one owner per piece who also moves it, a fixed
//! cycle of sides, one promotion rank per side and every other side giving check. Ultimate
//! Chess needs pieces that keep their owner's direction while another player plays them
//! (Devastation), pieces nobody plays that give no check (Conquest), defeated seats skipped,
//! and promotion per seat with a setting for the ends of short files. This position is built
//! on the engine's geometry, Betza parser and orientation instead.

use crate::engine::Square;

use super::board::{
    cell, cell_kind, cell_seat, tables, CastleSide, Kind, Piece, Seat, CELLS, EMPTY, KING, NOBODY,
    NO_SQUARE, OFF, PAWN, PROMOTIONS, ROOK,
};

/// What happens to a defeated player's pieces (§4.5).
#[derive(
    Copy, Clone, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Mode {
    /// They leave the board.
    #[default]
    Standard,
    /// They stay as neutral obstacles.
    Conquest,
    /// The victor plays them (the King is removed).
    Devastation,
}

impl Mode {
    /// `standard`, `conquest`, `devastation`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Standard => "standard",
            Mode::Conquest => "conquest",
            Mode::Devastation => "devastation",
        }
    }
    /// Reads a mode name (any case).
    pub fn parse(text: &str) -> Option<Mode> {
        [Mode::Standard, Mode::Conquest, Mode::Devastation]
            .into_iter()
            .find(|m| m.as_str().eq_ignore_ascii_case(text.trim()))
    }
}

/// A move: a piece from one square to another (capturing what stands there), possibly
/// promoting, or castling (the King's squares, the rook follows the §4.3 table).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// From.
    pub from: Square,
    /// To.
    pub to: Square,
    /// Promotion choice.
    pub promotion: Option<Kind>,
    /// Castling (then `from`/`to` are the King's).
    pub castle: Option<CastleSide>,
}

/// What [`Position::make`] needs to restore the position.
#[derive(Clone, Debug)]
pub struct Undo {
    from_cell: u8,
    captured: u8,
    castling: u8,
    turn: Seat,
    kings: [Square; 4],
    defeat: Option<Box<DefeatUndo>>,
}

/// What a defeat changed.
#[derive(Clone, Debug)]
struct DefeatUndo {
    defeated: u8,
    controller: [u8; 4],
    removed: Vec<(Square, u8)>,
}

/// How a player's pieces go when they are defeated.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Fate {
    /// As the mode says, with this victor.
    Mode(Seat),
    /// They leave the board whatever the mode (a concession naming nobody).
    Leave,
}

/// An Ultimate Chess position.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: [u8; CELLS],
    pub(crate) kings: [Square; 4],
    pub(crate) turn: Seat,
    /// Bit `2·seat + side` (side 0 = `0-0`, 1 = `0-0-0`).
    pub(crate) castling: u8,
    /// Bit per seat.
    pub(crate) defeated: u8,
    pub(crate) mode: Mode,
    /// Who plays each seat's pieces: the seat itself, a victor (Devastation) or [`NOBODY`].
    pub(crate) controller: [u8; 4],
    /// A pawn at the end of a short file promotes (setting, §4.2; not in the text).
    pub(crate) promote_at_file_end: bool,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_text())
    }
}

impl Position {
    /// The start position (§4.1) in a mode: Silver to move, every castling right.
    pub fn start(mode: Mode) -> Position {
        let mut p = Position::empty(mode);
        for &(sq, c) in &tables().start {
            p.board[sq.index()] = c;
            if cell_kind(c) == KING {
                p.kings[cell_seat(c)] = sq;
            }
        }
        p.castling = 0xFF;
        p
    }

    /// An empty board: Silver to move, nobody defeated, no castling rights.
    pub fn empty(mode: Mode) -> Position {
        let t = tables();
        let mut board = [OFF; CELLS];
        for &sq in &t.squares {
            board[sq.index()] = EMPTY;
        }
        Position {
            board,
            kings: [NO_SQUARE; 4],
            turn: Seat::Silver,
            castling: 0,
            defeated: 0,
            mode,
            controller: [0, 1, 2, 3],
            promote_at_file_end: false,
        }
    }

    // ----- reading ----------------------------------------------------------------

    /// The seat to move.
    pub fn turn(&self) -> Seat {
        self.turn
    }
    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }
    /// The piece on a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        match self.board.get(sq.index()) {
            Some(&c) if c != EMPTY && c != OFF => Some(Piece::from_cell(c)),
            _ => None,
        }
    }
    /// Every occupied square with its piece, rank 1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        tables()
            .squares
            .iter()
            .filter_map(move |&s| self.piece_at(s).map(|p| (s, p)))
    }
    /// Whether a seat is defeated.
    #[inline]
    pub fn is_defeated(&self, seat: Seat) -> bool {
        self.defeated & (1 << seat.index()) != 0
    }
    /// The defeated seats in order.
    pub fn defeated(&self) -> Vec<Seat> {
        Seat::ALL
            .into_iter()
            .filter(|&s| self.is_defeated(s))
            .collect()
    }
    /// The seats still in the game, in turn order.
    pub fn active(&self) -> Vec<Seat> {
        Seat::ALL
            .into_iter()
            .filter(|&s| !self.is_defeated(s))
            .collect()
    }
    /// Who plays a seat's pieces: the seat itself while in the game, its victor in
    /// Devastation, nobody for Conquest obstacles or pieces that left.
    pub fn controller(&self, seat: Seat) -> Option<Seat> {
        Seat::from_index(self.controller[seat.index()] as usize)
    }
    /// Whether the piece on a square is a Conquest obstacle (nobody plays it).
    pub fn is_obstacle(&self, sq: Square) -> bool {
        self.piece_at(sq)
            .is_some_and(|p| self.controller[p.seat.index()] == NOBODY)
    }
    /// Castling rights left: (`0-0`, `0-0-0`).
    pub fn castling(&self, seat: Seat) -> (bool, bool) {
        let b = self.castling >> (2 * seat.index());
        (b & 1 != 0, b & 2 != 0)
    }
    /// A seat's King, if on the board.
    pub fn king(&self, seat: Seat) -> Option<Square> {
        let k = self.kings[seat.index()];
        (k != NO_SQUARE).then_some(k)
    }
    /// Whether a pawn at the end of a short file promotes.
    pub fn promote_at_file_end(&self) -> bool {
        self.promote_at_file_end
    }
    /// Sets whether a pawn at the end of a short file promotes (a game setting).
    pub fn set_promote_at_file_end(&mut self, on: bool) {
        self.promote_at_file_end = on;
    }

    /// Seats (bit per seat) whose pieces `seat` plays.
    #[inline]
    fn mine_mask(&self, me: usize) -> u8 {
        let mut m = 0;
        for s in 0..4 {
            if self.controller[s] as usize == me {
                m |= 1 << s;
            }
        }
        m
    }
    /// Seats (bit per seat) whose pieces another player still in the game plays.
    #[inline]
    fn enemy_mask(&self, me: usize) -> u8 {
        let mut m = 0;
        for s in 0..4 {
            let c = self.controller[s];
            if c != NOBODY && c as usize != me && self.defeated & (1 << c) == 0 {
                m |= 1 << s;
            }
        }
        m
    }

    /// Whether `sq` is attacked by a piece of one of the seats in `seats` (bit per seat).
    pub(crate) fn attacked_by(&self, sq: Square, seats: u8) -> bool {
        if seats == 0 {
            return false;
        }
        let t = tables();
        let b = &self.board;
        let at = sq.0 as i32;
        for l in &t.common_leaps {
            let c = b[(at - l.off) as usize];
            if c != EMPTY
                && c != OFF
                && seats & (1 << cell_seat(c)) != 0
                && l.kinds & (1 << cell_kind(c)) != 0
            {
                return true;
            }
        }
        for (s, leaps) in t.seat_leaps.iter().enumerate() {
            if seats & (1 << s) == 0 {
                continue;
            }
            for l in leaps {
                let c = b[(at - l.off) as usize];
                if c != EMPTY && c != OFF && cell_seat(c) == s && l.kinds & (1 << cell_kind(c)) != 0
                {
                    return true;
                }
            }
        }
        let ray = |r: &super::board::AttackRay, only: Option<usize>| -> bool {
            let mut p = at - r.step;
            let mut d = 1u8;
            loop {
                let c = b[p as usize];
                if c == EMPTY {
                    if r.range != 0 && d >= r.range {
                        return false;
                    }
                    p -= r.step;
                    d += 1;
                    continue;
                }
                if c == OFF {
                    return false;
                }
                let s = cell_seat(c);
                return seats & (1 << s) != 0
                    && only.is_none_or(|o| o == s)
                    && r.kinds & (1 << cell_kind(c)) != 0;
            }
        };
        for r in &t.common_rays {
            if ray(r, None) {
                return true;
            }
        }
        for (s, rays) in t.seat_rays.iter().enumerate() {
            if seats & (1 << s) != 0 && rays.iter().any(|r| ray(r, Some(s))) {
                return true;
            }
        }
        false
    }

    /// Whether a square is attacked by a piece that a player other than `seat`, still in the
    /// game, controls (Conquest obstacles attack nothing).
    pub fn attacked_for(&self, sq: Square, seat: Seat) -> bool {
        self.attacked_by(sq, self.enemy_mask(seat.index()))
    }

    /// Whether a seat still in the game has its King attacked by another player's piece.
    pub fn in_check(&self, seat: Seat) -> bool {
        match self.king(seat) {
            Some(k) if !self.is_defeated(seat) => self.attacked_for(k, seat),
            _ => false,
        }
    }

    /// Whether `by` controls a piece attacking `sq`.
    pub fn attacked_by_player(&self, sq: Square, by: Seat) -> bool {
        if self.is_defeated(by) {
            return false;
        }
        self.attacked_by(sq, self.mine_mask(by.index()))
    }

    /// The next seat in turn order after `seat` that is still in the game (`seat` itself if
    /// it is the only one).
    pub fn next_active(&self, seat: Seat) -> Seat {
        let mut s = seat;
        for _ in 0..4 {
            s = s.next();
            if !self.is_defeated(s) {
                return s;
            }
        }
        seat
    }

    // ----- moves -------------------------------------------------------------------

    /// Whether a pawn of `seat` arriving on `to` promotes.
    #[inline]
    fn promotes(&self, seat: usize, to: Square) -> bool {
        let t = tables();
        t.rel[seat][to.index()] == 15 || (self.promote_at_file_end && t.file_end[seat][to.index()])
    }

    #[inline]
    fn push(out: &mut Vec<Move>, from: Square, to: Square, promote: bool) {
        if promote {
            for k in PROMOTIONS {
                out.push(Move {
                    from,
                    to,
                    promotion: Some(k),
                    castle: None,
                });
            }
        } else {
            out.push(Move {
                from,
                to,
                promotion: None,
                castle: None,
            });
        }
    }

    /// Appends the moves of the pieces the seat to move plays, without checking that its King
    /// is left safe (castling's conditions before the move are checked).
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let t = tables();
        let me = self.turn.index();
        if self.is_defeated(self.turn) {
            return;
        }
        let mine = self.mine_mask(me);
        let b = &self.board;
        for &sq in &t.squares {
            let c = b[sq.index()];
            if c == EMPTY {
                continue;
            }
            let s = cell_seat(c);
            if mine & (1 << s) == 0 {
                continue;
            }
            let k = cell_kind(c);
            let km = &t.moves[s][k];
            let from = sq.0 as i32;
            let pawn = k == PAWN;
            for l in &km.leaps {
                if l.initial && t.rel[s][sq.index()] != 1 {
                    continue;
                }
                let to = from + l.off;
                let tc = b[to as usize];
                if tc == OFF {
                    continue;
                }
                if l.n_between > 0
                    && l.between[..l.n_between as usize]
                        .iter()
                        .any(|&o| b[(from + o) as usize] != EMPTY)
                {
                    continue;
                }
                let to = Square(to as u16);
                if tc == EMPTY {
                    if l.quiet {
                        Self::push(out, sq, to, pawn && self.promotes(s, to));
                    }
                } else if l.capture && mine & (1 << cell_seat(tc)) == 0 {
                    Self::push(out, sq, to, pawn && self.promotes(s, to));
                }
            }
            for r in &km.rides {
                let mut to = from;
                let mut n = 0u8;
                loop {
                    to += r.step;
                    n = n.wrapping_add(1);
                    if r.range != 0 && n > r.range {
                        break;
                    }
                    let tc = b[to as usize];
                    if tc == OFF {
                        break;
                    }
                    if tc == EMPTY {
                        if r.quiet {
                            Self::push(out, sq, Square(to as u16), false);
                        }
                        continue;
                    }
                    if r.capture && mine & (1 << cell_seat(tc)) == 0 {
                        Self::push(out, sq, Square(to as u16), false);
                    }
                    break;
                }
            }
        }
        self.castling_moves(out);
    }

    /// Castling (§4.3, §4.8a): the right kept, King and rook in place, the squares between
    /// empty, and the King's square, the square it crosses and the one it lands on not
    /// attacked before the move. That it is not attacked after is checked with the others.
    fn castling_moves(&self, out: &mut Vec<Move>) {
        let me = self.turn.index();
        let rights = (self.castling >> (2 * me)) & 3;
        if rights == 0 {
            return;
        }
        let t = tables();
        let enemy = self.enemy_mask(me);
        for (side, d) in t.castle[me].iter().enumerate() {
            if rights & (1 << side) == 0 {
                continue;
            }
            if self.board[d.king_from.index()] != cell(me, KING)
                || self.board[d.rook_from.index()] != cell(me, ROOK)
            {
                continue;
            }
            if d.between.iter().any(|s| self.board[s.index()] != EMPTY) {
                continue;
            }
            if [d.king_from, d.rook_to, d.king_to]
                .iter()
                .any(|&s| self.attacked_by(s, enemy))
            {
                continue;
            }
            out.push(Move {
                from: d.king_from,
                to: d.king_to,
                promotion: None,
                castle: Some(if side == 0 {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                }),
            });
        }
    }

    /// Whether a move captures the King of a player still in the game.
    #[inline]
    fn captures_king(&self, m: &Move) -> bool {
        let c = self.board[m.to.index()];
        m.castle.is_none()
            && c != EMPTY
            && cell_kind(c) == KING
            && self.defeated & (1 << cell_seat(c)) == 0
    }

    /// Own pieces standing between the King on `k` and an enemy slider that would reach it:
    /// moving them may expose the King.
    fn pin_candidates(&self, k: Square, mine: u8, enemy: u8, buf: &mut Vec<Square>) {
        let t = tables();
        let b = &self.board;
        let rays = t.common_rays.iter().map(|r| (r, None)).chain(
            t.seat_rays
                .iter()
                .enumerate()
                .filter(|(s, _)| enemy & (1 << s) != 0)
                .flat_map(|(s, v)| v.iter().map(move |r| (r, Some(s)))),
        );
        for (r, only) in rays {
            let mut p = k.0 as i32 - r.step;
            let mut d = 1u8;
            let mut candidate = None;
            loop {
                let c = b[p as usize];
                if c == EMPTY {
                    p -= r.step;
                    d = d.saturating_add(1);
                    continue;
                }
                if c == OFF {
                    break;
                }
                let s = cell_seat(c);
                match candidate {
                    None if mine & (1 << s) != 0 => {
                        candidate = Some(Square(p as u16));
                        p -= r.step;
                        d = d.saturating_add(1);
                        continue;
                    }
                    Some(sq)
                        if enemy & (1 << s) != 0
                            && only.is_none_or(|o| o == s)
                            && r.kinds & (1 << cell_kind(c)) != 0
                            && (r.range == 0 || d <= r.range) =>
                    {
                        buf.push(sq);
                    }
                    _ => {}
                }
                break;
            }
        }
    }

    /// Fills `out` with the legal moves of the seat to move: no move may leave its own King
    /// attacked by another player still in the game, judged after a captured King's owner is
    /// defeated and the mode applied (§4.8a). Empty when the game is over.
    pub fn legal_moves_into(&mut self, out: &mut Vec<Move>) {
        out.clear();
        if self.defeated.count_ones() >= 3 || self.is_defeated(self.turn) {
            return;
        }
        self.pseudo_moves(out);
        let me = self.turn.index();
        let k = self.kings[me];
        if k == NO_SQUARE {
            return;
        }
        let mine = self.mine_mask(me);
        let enemy = self.enemy_mask(me);
        let in_check = self.attacked_by(k, enemy);
        let mut pinned: Vec<Square> = Vec::new();
        if !in_check {
            self.pin_candidates(k, mine, enemy, &mut pinned);
        }
        let mut i = 0;
        while i < out.len() {
            let m = out[i];
            let full = in_check
                || m.from == k
                || m.castle.is_some()
                || pinned.contains(&m.from)
                || self.captures_king(&m);
            let legal = !full || {
                let u = self.make(m);
                let ok = !self.attacked_by(self.kings[me], self.enemy_mask(me));
                self.unmake(m, u);
                ok
            };
            if legal {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// The legal moves of the seat to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut p = self.clone();
        let mut v = Vec::with_capacity(128);
        p.legal_moves_into(&mut v);
        v
    }

    /// Defeats a seat (checkmate, a captured King, a concession): its castling rights go, and
    /// its pieces and everything it controls go as `fate` says (§4.5). Returns what changed.
    fn defeat_inner(&mut self, seat: Seat, fate: Fate) -> DefeatUndo {
        let d = seat.index();
        let undo = DefeatUndo {
            defeated: self.defeated,
            controller: self.controller,
            removed: Vec::new(),
        };
        let mut undo = undo;
        self.defeated |= 1 << d;
        self.castling &= !(3 << (2 * d));
        let controlled = self.mine_mask(d);
        let t = tables();
        let mut remove = |p: &mut Position, pred: &dyn Fn(u8) -> bool| {
            for &sq in &t.squares {
                let c = p.board[sq.index()];
                if c != EMPTY && pred(c) {
                    undo.removed.push((sq, c));
                    p.board[sq.index()] = EMPTY;
                    if cell_kind(c) == KING && p.kings[cell_seat(c)] == sq {
                        p.kings[cell_seat(c)] = NO_SQUARE;
                    }
                }
            }
        };
        match (fate, self.mode) {
            (Fate::Mode(v), Mode::Devastation) => {
                remove(self, &|c| cell_seat(c) == d && cell_kind(c) == KING);
                for s in 0..4 {
                    if controlled & (1 << s) != 0 {
                        self.controller[s] = v.index() as u8;
                    }
                }
            }
            (Fate::Mode(_), Mode::Conquest) => {
                for s in 0..4 {
                    if controlled & (1 << s) != 0 {
                        self.controller[s] = NOBODY;
                    }
                }
            }
            _ => {
                remove(self, &|c| controlled & (1 << cell_seat(c)) != 0);
                for s in 0..4 {
                    if controlled & (1 << s) != 0 {
                        self.controller[s] = NOBODY;
                    }
                }
            }
        }
        undo
    }

    /// Defeats a seat (checkmate or concession), its pieces going as `fate` says. The seat to
    /// move is left as it is.
    pub fn defeat(&mut self, seat: Seat, fate: Fate) {
        if !self.is_defeated(seat) {
            self.defeat_inner(seat, fate);
        }
    }

    /// Sets the seat to move.
    pub fn set_turn(&mut self, seat: Seat) {
        self.turn = seat;
    }

    /// Plays a move from this position's move generator; returns what [`Position::unmake`]
    /// needs. A captured King's owner is defeated at once with the mover as victor. The turn
    /// passes to the next seat still in the game.
    pub fn make(&mut self, m: Move) -> Undo {
        let t = tables();
        let me = self.turn.index();
        let from_cell = self.board[m.from.index()];
        let mut undo = Undo {
            from_cell,
            captured: self.board[m.to.index()],
            castling: self.castling,
            turn: self.turn,
            kings: self.kings,
            defeat: None,
        };
        if let Some(side) = m.castle {
            let d = &t.castle[me][side.index()];
            let rook = self.board[d.rook_from.index()];
            undo.captured = EMPTY;
            self.board[d.king_from.index()] = EMPTY;
            self.board[d.rook_from.index()] = EMPTY;
            self.board[d.king_to.index()] = from_cell;
            self.board[d.rook_to.index()] = rook;
            self.kings[me] = d.king_to;
            self.castling &= !(3 << (2 * me));
        } else {
            let captured = undo.captured;
            self.board[m.from.index()] = EMPTY;
            self.board[m.to.index()] = match m.promotion {
                Some(k) => cell(cell_seat(from_cell), k.index()),
                None => from_cell,
            };
            if cell_kind(from_cell) == KING {
                self.kings[cell_seat(from_cell)] = m.to;
            }
            self.castling &= !(t.castle_clear[m.from.index()] | t.castle_clear[m.to.index()]);
            if captured != EMPTY && cell_kind(captured) == KING {
                let d = cell_seat(captured);
                if self.kings[d] == m.to {
                    self.kings[d] = NO_SQUARE;
                }
                if self.defeated & (1 << d) == 0 {
                    let du = self.defeat_inner(Seat::ALL[d], Fate::Mode(self.turn));
                    undo.defeat = Some(Box::new(du));
                }
            }
        }
        self.turn = self.next_active(self.turn);
        undo
    }

    /// Takes back a move played with [`Position::make`].
    pub fn unmake(&mut self, m: Move, undo: Undo) {
        if let Some(du) = undo.defeat {
            for &(sq, c) in &du.removed {
                self.board[sq.index()] = c;
            }
            self.defeated = du.defeated;
            self.controller = du.controller;
        }
        if let Some(side) = m.castle {
            let d = &tables().castle[undo.turn.index()][side.index()];
            let rook = self.board[d.rook_to.index()];
            self.board[d.king_to.index()] = EMPTY;
            self.board[d.rook_to.index()] = EMPTY;
            self.board[d.king_from.index()] = undo.from_cell;
            self.board[d.rook_from.index()] = rook;
        } else {
            self.board[m.from.index()] = undo.from_cell;
            self.board[m.to.index()] = undo.captured;
        }
        self.castling = undo.castling;
        self.turn = undo.turn;
        self.kings = undo.kings;
    }

    /// Whether the move, once played, leaves another player's King attacked by a piece the
    /// mover controls (the `+` of the echo).
    pub fn gives_check(&mut self, m: Move) -> bool {
        let me = self.turn;
        let u = self.make(m);
        let check = Seat::ALL.into_iter().any(|s| {
            s != me
                && !self.is_defeated(s)
                && self.king(s).is_some_and(|k| self.attacked_by_player(k, me))
        });
        self.unmake(m, u);
        check
    }

    /// Whether a move captures (a piece stands on its destination).
    pub fn is_capture(&self, m: &Move) -> bool {
        m.castle.is_none() && self.piece_at(m.to).is_some()
    }

    /// Whether a move is a pawn's.
    pub fn is_pawn_move(&self, m: &Move) -> bool {
        m.castle.is_none() && self.piece_at(m.from).is_some_and(|p| p.kind == Kind::Pawn)
    }

    /// Counts the move sequences `depth` plies deep, each ply played by the next seat in turn
    /// order (a node whose seat to move has no legal move ends its line).
    pub fn perft(&mut self, depth: u32) -> u64 {
        crate::engine::perft::perft(self, depth)
    }

    /// Perft split by first move.
    pub fn perft_divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        crate::engine::perft::perft_divide(self, depth)
    }
}

impl crate::engine::perft::Walk for Position {
    type Move = Move;
    type Undo = Undo;
    fn legal_into(&mut self, out: &mut Vec<Move>) {
        self.legal_moves_into(out);
    }
    fn play(&mut self, m: Move) -> Undo {
        self.make(m)
    }
    fn unplay(&mut self, m: Move, undo: Undo) {
        self.unmake(m, undo);
    }
}
