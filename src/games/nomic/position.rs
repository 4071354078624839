//! Nomic Chess positions (Nomic rules 6.1–6.5): half-boards, the joined board J, FIDE moves on J,
//! check, and the move budget of a turn.
//!
//! A half-board is 8 files by 4 ranks in its own local coordinates (rank 1 its owner's home
//! edge). A push joins two halves at their local rank-4 edges, the top one turned half round:
//! with P at the bottom, P's (f, r) is J's (f, r) and Q's (f, r) is J's (mirrored f, 9 − r).

use serde::{Deserialize, Serialize};

/// A piece type (FIDE).
pub use crate::games::fide::Kind;

/// What a demotion makes of a kind (210): Q→R→B→N→P→removed (`None`); a king is never
/// demoted (it stays a king).
pub fn demoted(kind: Kind) -> Option<Kind> {
    match kind {
        Kind::Queen => Some(Kind::Rook),
        Kind::Rook => Some(Kind::Bishop),
        Kind::Bishop => Some(Kind::Knight),
        Kind::Knight => Some(Kind::Pawn),
        Kind::Pawn => None,
        Kind::King => Some(Kind::King),
    }
}

/// A piece: its kind, its army (0-based; shown 1-based), and whether it has moved.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Kind.
    pub kind: Kind,
    /// Army, 0-based.
    pub army: usize,
    /// Has moved (castling, the pawn's double step; a demoted piece counts as moved).
    pub moved: bool,
}

/// One half-board: `[local rank][file]`, rank 0 being local rank 1.
pub type Half = [[Option<Piece>; 8]; 4];

/// The letter of half `h` (`A`, `B`, …).
pub fn half_letter(h: usize) -> char {
    char::from(b'A' + (h % 26) as u8)
}

/// The half named by a letter.
pub fn half_of_letter(c: char) -> Option<usize> {
    let c = c.to_ascii_uppercase();
    c.is_ascii_uppercase().then(|| (c as u8 - b'A') as usize)
}

/// `e4` for file 4, rank 3 (0-based).
pub fn square_text(file: u8, rank: u8) -> String {
    format!("{}{}", char::from(b'a' + file), rank + 1)
}

/// Reads `e4` (files a–h, ranks 1–`ranks`) into 0-based (file, rank).
pub fn parse_square(text: &str, ranks: u8) -> Option<(u8, u8)> {
    let mut c = text.chars();
    let f = c.next()?;
    if !('a'..='h').contains(&f) {
        return None;
    }
    let r: u8 = c.as_str().parse().ok()?;
    if r == 0 || r > ranks {
        return None;
    }
    Some((f as u8 - b'a', r - 1))
}

/// A square of a half-board in its local coordinates.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Local {
    /// The half (0 = A).
    pub half: usize,
    /// File 0..8.
    pub file: u8,
    /// Local rank 0..4.
    pub rank: u8,
}

impl Local {
    /// `A:e2`.
    pub fn name(self) -> String {
        format!(
            "{}:{}",
            half_letter(self.half),
            square_text(self.file, self.rank)
        )
    }
    /// Reads `A:e2`.
    pub fn parse(text: &str) -> Option<Local> {
        let (h, sq) = text.trim().split_once(':')?;
        let mut hc = h.chars();
        let half = half_of_letter(hc.next()?)?;
        if hc.next().is_some() {
            return None;
        }
        let (file, rank) = parse_square(sq, 4)?;
        Some(Local { half, file, rank })
    }
}

/// Two halves pushed together: the joined board J.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Join {
    /// The half whose coordinates J's ranks 1–4 are.
    pub bottom: usize,
    /// The half turned round on ranks 5–8.
    pub top: usize,
}

impl Join {
    /// The local square of J's (file, rank), both 0..8.
    pub fn local(self, f: u8, r: u8) -> Local {
        if r < 4 {
            Local {
                half: self.bottom,
                file: f,
                rank: r,
            }
        } else {
            Local {
                half: self.top,
                file: 7 - f,
                rank: 7 - r,
            }
        }
    }
    /// J's square of a local square, if its half is in the join.
    pub fn j_of(self, l: Local) -> Option<(u8, u8)> {
        if l.half == self.bottom {
            Some((l.file, l.rank))
        } else if l.half == self.top {
            Some((7 - l.file, 7 - l.rank))
        } else {
            None
        }
    }
    /// `A/B` (bottom/top).
    pub fn text(self) -> String {
        format!("{}/{}", half_letter(self.bottom), half_letter(self.top))
    }
}

/// What a move does beyond moving one piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Special {
    /// Nothing more.
    Plain,
    /// A pawn's double step (sets the en-passant square).
    Double,
    /// An en-passant capture.
    EnPassant,
    /// Castling on the king's side (`0-0`).
    CastleKing,
    /// Castling on the queen's side (`0-0-0`).
    CastleQueen,
}

/// A move on J, in J's coordinates (0-based).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// From.
    pub from: (u8, u8),
    /// To.
    pub to: (u8, u8),
    /// Promotion.
    pub promo: Option<Kind>,
    /// Special.
    pub special: Special,
}

/// Whose slot in the round it is.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Slot {
    /// An army's turn (army index).
    Army(usize),
    /// An undead player's slot (player index) after the last army's turn (204).
    Undead(usize),
    /// Nobody: the game is over, or every army is skipped.
    Idle,
}

/// The state of the turn (§6.10: army, part, S, halves involved, and the push standing).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Turn {
    /// Whose.
    pub slot: Slot,
    /// Part 1, 2 or 3.
    pub part: u8,
    /// S: halves holding the army's pieces when its turn began.
    pub s: Vec<bool>,
    /// Halves involved in a move this turn.
    pub involved: Vec<bool>,
    /// The halves pushed together for the next move.
    pub join: Option<Join>,
}

/// A position: the halves, controllers, the Order and the turn (Nomic rules 6.10).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    /// Half-boards A, B, … (one per player).
    pub halves: Vec<Half>,
    /// Per army: the player controlling it (`None`: control pending a Referee's `/assign`).
    pub controllers: Vec<Option<usize>>,
    /// The Order: armies in turn order.
    pub order: Vec<usize>,
    /// The turn.
    pub turn: Turn,
    /// The square a pawn passed over by a double step in the last move (en passant).
    pub ep: Option<Local>,
    /// Armies offered to the mover in part 2 (Take or Decline).
    pub offers: Vec<usize>,
    /// Per player: has forfeited.
    pub forfeited: Vec<bool>,
    /// Undead players, earliest time of infection first.
    pub infected: Vec<usize>,
}

/// The board J as an 8×8 array `[rank][file]`.
pub type JBoard = [[Option<Piece>; 8]; 8];

use crate::games::fide::{
    BISHOP_DIRECTIONS as BISHOP, KNIGHT_LEAPS as KNIGHT, ROOK_DIRECTIONS as ROOK,
};
const KING: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

fn step(sq: (u8, u8), d: (i8, i8)) -> Option<(u8, u8)> {
    let f = sq.0 as i8 + d.0;
    let r = sq.1 as i8 + d.1;
    ((0..8).contains(&f) && (0..8).contains(&r)).then_some((f as u8, r as u8))
}

/// Rules that vary by setting.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Rules {
    /// Armies with the same controller may capture each other (§6.3).
    pub friendly_capture: bool,
}

/// The half-set on local ranks 1 and 2.
const BACK: [Kind; 8] = [
    Kind::Rook,
    Kind::Knight,
    Kind::Bishop,
    Kind::Queen,
    Kind::King,
    Kind::Bishop,
    Kind::Knight,
    Kind::Rook,
];

impl Position {
    /// The start (§6.1): `n` players, each with a half and its army's half-set; control by
    /// the army's own player; the Order as given.
    pub fn start(n: usize, order: Vec<usize>) -> Position {
        let mut halves = Vec::with_capacity(n);
        for army in 0..n {
            let mut h: Half = [[None; 8]; 4];
            for (f, k) in BACK.iter().enumerate() {
                h[0][f] = Some(Piece {
                    kind: *k,
                    army,
                    moved: false,
                });
                h[1][f] = Some(Piece {
                    kind: Kind::Pawn,
                    army,
                    moved: false,
                });
            }
            halves.push(h);
        }
        Position {
            halves,
            controllers: (0..n).map(Some).collect(),
            order,
            turn: Turn {
                slot: Slot::Idle,
                part: 1,
                s: vec![false; n],
                involved: vec![false; n],
                join: None,
            },
            ep: None,
            offers: Vec::new(),
            forfeited: vec![false; n],
            infected: Vec::new(),
        }
    }

    /// Number of players (= halves = armies).
    pub fn players(&self) -> usize {
        self.halves.len()
    }

    /// The piece on a local square.
    pub fn at(&self, l: Local) -> Option<Piece> {
        self.halves
            .get(l.half)
            .and_then(|h| h.get(l.rank as usize))
            .and_then(|r| r.get(l.file as usize))
            .copied()
            .flatten()
    }

    /// Puts (or clears) a piece on a local square (ignored off the boards).
    pub fn set(&mut self, l: Local, p: Option<Piece>) {
        if let Some(c) = self
            .halves
            .get_mut(l.half)
            .and_then(|h| h.get_mut(l.rank as usize))
            .and_then(|r| r.get_mut(l.file as usize))
        {
            *c = p;
        }
    }

    /// Every piece with its square.
    pub fn pieces(&self) -> Vec<(Local, Piece)> {
        let mut v = Vec::new();
        for (half, h) in self.halves.iter().enumerate() {
            for (rank, row) in h.iter().enumerate() {
                for (file, p) in row.iter().enumerate() {
                    if let Some(p) = p {
                        v.push((
                            Local {
                                half,
                                file: file as u8,
                                rank: rank as u8,
                            },
                            *p,
                        ));
                    }
                }
            }
        }
        v
    }

    /// The halves holding pieces of an army.
    pub fn halves_of(&self, army: usize) -> Vec<bool> {
        self.halves
            .iter()
            .map(|h| h.iter().flatten().flatten().any(|p| p.army == army))
            .collect()
    }

    /// Whether two armies are on the same side: the same army, or the same controller.
    pub fn same_side(&self, a: usize, b: usize) -> bool {
        a == b
            || matches!(
                (self.controllers.get(a), self.controllers.get(b)),
                (Some(Some(x)), Some(Some(y))) if x == y
            )
    }

    /// The armies a player controls.
    pub fn armies_of(&self, player: usize) -> Vec<usize> {
        (0..self.controllers.len())
            .filter(|&a| self.controllers[a] == Some(player))
            .collect()
    }

    /// J for a join.
    pub fn joined(&self, join: Join) -> JBoard {
        let mut b: JBoard = [[None; 8]; 8];
        for (r, row) in b.iter_mut().enumerate() {
            for (f, c) in row.iter_mut().enumerate() {
                *c = self.at(join.local(f as u8, r as u8));
            }
        }
        b
    }

    /// Writes J back onto its two halves (the halves separate, pieces staying where they are).
    pub fn separate(&mut self, join: Join, b: &JBoard) {
        for (r, row) in b.iter().enumerate() {
            for (f, c) in row.iter().enumerate() {
                self.set(join.local(f as u8, r as u8), *c);
            }
        }
    }

    /// The J direction (+1 up, −1 down) of a pawn of `army` standing on J's rank `r`: toward
    /// local rank 4 on its army's home half, toward local rank 1 elsewhere (§6.3).
    pub fn pawn_dir(join: Join, army: usize, r: u8) -> i8 {
        let (half, bottom) = if r < 4 {
            (join.bottom, true)
        } else {
            (join.top, false)
        };
        let local = if half == army { 1 } else { -1 };
        if bottom {
            local
        } else {
            -local
        }
    }

    /// Whether the piece on `from` attacks `target` on J.
    fn attacks(b: &JBoard, join: Join, from: (u8, u8), target: (u8, u8)) -> bool {
        let Some(p) = b[from.1 as usize][from.0 as usize] else {
            return false;
        };
        let df = target.0 as i8 - from.0 as i8;
        let dr = target.1 as i8 - from.1 as i8;
        match p.kind {
            Kind::Pawn => dr == Self::pawn_dir(join, p.army, from.1) && df.abs() == 1,
            Kind::Knight => KNIGHT.contains(&(df, dr)),
            Kind::King => KING.contains(&(df, dr)),
            Kind::Rook | Kind::Bishop | Kind::Queen => {
                let straight = df == 0 || dr == 0;
                let diag = df.abs() == dr.abs();
                let ok = match p.kind {
                    Kind::Rook => straight,
                    Kind::Bishop => diag,
                    _ => straight || diag,
                };
                if !ok || (df == 0 && dr == 0) {
                    return false;
                }
                let d = (df.signum(), dr.signum());
                let mut s = from;
                loop {
                    let Some(n) = step(s, d) else { return false };
                    if n == target {
                        return true;
                    }
                    if b[n.1 as usize][n.0 as usize].is_some() {
                        return false;
                    }
                    s = n;
                }
            }
        }
    }

    /// The squares of J's pieces that attack `target` and whose army `by` accepts.
    pub fn attackers(
        b: &JBoard,
        join: Join,
        target: (u8, u8),
        by: &dyn Fn(usize) -> bool,
    ) -> Vec<(u8, u8)> {
        let mut v = Vec::new();
        for r in 0..8u8 {
            for f in 0..8u8 {
                if let Some(p) = b[r as usize][f as usize] {
                    if by(p.army) && Self::attacks(b, join, (f, r), target) {
                        v.push((f, r));
                    }
                }
            }
        }
        v
    }

    /// Kings on J (square, army).
    pub fn kings(b: &JBoard) -> Vec<((u8, u8), usize)> {
        let mut v = Vec::new();
        for r in 0..8u8 {
            for f in 0..8u8 {
                if let Some(p) = b[r as usize][f as usize] {
                    if p.kind == Kind::King {
                        v.push(((f, r), p.army));
                    }
                }
            }
        }
        v
    }

    /// Whether the king of `army` on `sq` is attacked on J by an army of another side.
    pub fn king_attacked(&self, b: &JBoard, join: Join, sq: (u8, u8), army: usize) -> bool {
        !Self::attackers(b, join, sq, &|a| !self.same_side(a, army)).is_empty()
    }

    /// Whether a capture of `victim` by `army` is allowed.
    fn may_capture(&self, army: usize, victim: Piece, rules: Rules) -> bool {
        if victim.kind == Kind::King || victim.army == army {
            return false;
        }
        !self.same_side(army, victim.army) || rules.friendly_capture
    }

    /// Moves of `army`'s pieces on J by the piece rules alone.
    fn pseudo(&self, b: &JBoard, join: Join, army: usize, rules: Rules) -> Vec<Move> {
        let mut v = Vec::new();
        let ep_j = self
            .ep
            .and_then(|l| join.j_of(l).map(|j| (j, l)))
            .and_then(|(j, l)| {
                let pawn = Local {
                    rank: l.rank + 1,
                    ..l
                };
                let pj = join.j_of(pawn)?;
                let pp = b[pj.1 as usize][pj.0 as usize]?;
                (pp.kind == Kind::Pawn).then_some((j, pp))
            });
        for r in 0..8u8 {
            for f in 0..8u8 {
                let Some(p) = b[r as usize][f as usize] else {
                    continue;
                };
                if p.army != army {
                    continue;
                }
                let from = (f, r);
                let mut add = |to: (u8, u8), special: Special| {
                    v.push(Move {
                        from,
                        to,
                        promo: None,
                        special,
                    })
                };
                let target_ok = |to: (u8, u8)| match b[to.1 as usize][to.0 as usize] {
                    None => true,
                    Some(q) => self.may_capture(army, q, rules),
                };
                match p.kind {
                    Kind::Knight | Kind::King => {
                        let offs: &[(i8, i8)] = if p.kind == Kind::Knight {
                            &KNIGHT
                        } else {
                            &KING
                        };
                        for d in offs {
                            if let Some(to) = step(from, *d) {
                                if target_ok(to) {
                                    add(to, Special::Plain);
                                }
                            }
                        }
                    }
                    Kind::Rook | Kind::Bishop | Kind::Queen => {
                        let dirs: Vec<(i8, i8)> = match p.kind {
                            Kind::Rook => ROOK.to_vec(),
                            Kind::Bishop => BISHOP.to_vec(),
                            _ => ROOK.iter().chain(BISHOP.iter()).copied().collect(),
                        };
                        for d in dirs {
                            let mut s = from;
                            while let Some(to) = step(s, d) {
                                match b[to.1 as usize][to.0 as usize] {
                                    None => add(to, Special::Plain),
                                    Some(q) => {
                                        if self.may_capture(army, q, rules) {
                                            add(to, Special::Plain);
                                        }
                                        break;
                                    }
                                }
                                s = to;
                            }
                        }
                    }
                    Kind::Pawn => {
                        let d = Self::pawn_dir(join, army, r);
                        if let Some(one) = step(from, (0, d)) {
                            if b[one.1 as usize][one.0 as usize].is_none() {
                                add(one, Special::Plain);
                                let l = join.local(f, r);
                                if l.half == army && l.rank == 1 && !p.moved {
                                    if let Some(two) = step(one, (0, d)) {
                                        if b[two.1 as usize][two.0 as usize].is_none() {
                                            add(two, Special::Double);
                                        }
                                    }
                                }
                            }
                        }
                        for df in [-1i8, 1] {
                            if let Some(to) = step(from, (df, d)) {
                                match b[to.1 as usize][to.0 as usize] {
                                    Some(q) => {
                                        if self.may_capture(army, q, rules) {
                                            add(to, Special::Plain);
                                        }
                                    }
                                    None => {
                                        if let Some((e, pp)) = ep_j {
                                            if e == to && self.may_capture(army, pp, rules) {
                                                add(to, Special::EnPassant);
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                if p.kind == Kind::King && !p.moved {
                    self.castlings(b, join, army, from, &mut v);
                }
            }
        }
        // Promotions: a pawn landing on local rank 1 of a half not its army's home.
        let mut out = Vec::with_capacity(v.len());
        for m in v {
            let p = b[m.from.1 as usize][m.from.0 as usize];
            let l = join.local(m.to.0, m.to.1);
            if p.is_some_and(|p| p.kind == Kind::Pawn) && l.half != army && l.rank == 0 {
                for k in [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight] {
                    out.push(Move {
                        promo: Some(k),
                        ..m
                    });
                }
            } else {
                out.push(m);
            }
        }
        out
    }

    fn castlings(&self, b: &JBoard, join: Join, army: usize, from: (u8, u8), v: &mut Vec<Move>) {
        let kl = join.local(from.0, from.1);
        if kl.half != army || kl.rank != 0 || kl.file != 4 {
            return;
        }
        let at = |file: u8| {
            let l = Local {
                half: army,
                file,
                rank: 0,
            };
            join.j_of(l)
        };
        type Side<'a> = (Special, u8, &'a [u8], &'a [u8], u8);
        let sides: [Side<'_>; 2] = [
            (Special::CastleKing, 7, &[5, 6], &[4, 5, 6], 6),
            (Special::CastleQueen, 0, &[1, 2, 3], &[4, 3, 2], 2),
        ];
        for (special, rook_file, empty, safe, king_to) in sides {
            let Some(rj) = at(rook_file) else { continue };
            let rook_ok = b[rj.1 as usize][rj.0 as usize]
                .is_some_and(|p| p.kind == Kind::Rook && p.army == army && !p.moved);
            if !rook_ok {
                continue;
            }
            let clear = empty
                .iter()
                .all(|&f| at(f).is_some_and(|j| b[j.1 as usize][j.0 as usize].is_none()));
            if !clear {
                continue;
            }
            let unsafe_sq = safe.iter().any(|&f| {
                at(f).is_none_or(|j| {
                    !Self::attackers(b, join, j, &|a| !self.same_side(a, army)).is_empty()
                })
            });
            if unsafe_sq {
                continue;
            }
            if let Some(to) = at(king_to) {
                v.push(Move {
                    from,
                    to,
                    promo: None,
                    special,
                });
            }
        }
    }

    /// Makes a move on a copy of J (no flags of the position change).
    pub fn make_on(b: &mut JBoard, join: Join, mv: Move) {
        let Some(mut p) = b[mv.from.1 as usize][mv.from.0 as usize].take() else {
            return;
        };
        p.moved = true;
        if let Some(k) = mv.promo {
            p.kind = k;
        }
        match mv.special {
            Special::EnPassant => {
                // The captured pawn stands one step beyond the passed square, toward its
                // home half's rank 4: in J, one step against the capturer's direction.
                let d = Self::pawn_dir(join, p.army, mv.from.1);
                if let Some(c) = step(mv.to, (0, -d)) {
                    b[c.1 as usize][c.0 as usize] = None;
                }
            }
            Special::CastleKing | Special::CastleQueen => {
                let kl = join.local(mv.from.0, mv.from.1);
                let (rf, rt) = if mv.special == Special::CastleKing {
                    (7, 5)
                } else {
                    (0, 3)
                };
                let rl = Local { file: rf, ..kl };
                let tl = Local { file: rt, ..kl };
                if let (Some(a), Some(t)) = (join.j_of(rl), join.j_of(tl)) {
                    if let Some(mut r) = b[a.1 as usize][a.0 as usize].take() {
                        r.moved = true;
                        b[t.1 as usize][t.0 as usize] = Some(r);
                    }
                }
            }
            _ => {}
        }
        b[mv.to.1 as usize][mv.to.0 as usize] = Some(p);
    }

    /// Whether, on J, a king of `army`'s side is attacked by another side.
    pub fn side_in_check(&self, b: &JBoard, join: Join, army: usize) -> bool {
        Self::kings(b)
            .into_iter()
            .filter(|&(_, a)| self.same_side(a, army))
            .any(|(sq, a)| self.king_attacked(b, join, sq, a))
    }

    /// `army`'s legal moves on J (§6.3, §6.5): FIDE moves that leave no king of its side on
    /// J attacked by another side (the budget is not applied here).
    pub fn legal_on(&self, join: Join, army: usize, rules: Rules) -> Vec<Move> {
        let b = self.joined(join);
        self.pseudo(&b, join, army, rules)
            .into_iter()
            .filter(|&m| {
                let mut c = b;
                Self::make_on(&mut c, join, m);
                !self.side_in_check(&c, join, army)
            })
            .collect()
    }

    /// The halves a move involves under the budget (§6.4): both pushed halves if the army
    /// had pieces on both when its turn began, else the halves it leaves and lands on.
    pub fn involves(&self, join: Join, mv: Move) -> Vec<usize> {
        let s = &self.turn.s;
        if s.get(join.bottom) == Some(&true) && s.get(join.top) == Some(&true) {
            return vec![join.bottom, join.top];
        }
        let a = join.local(mv.from.0, mv.from.1).half;
        let b = join.local(mv.to.0, mv.to.1).half;
        if a == b {
            vec![a]
        } else {
            vec![a, b]
        }
    }

    /// Whether a move fits the budget: it leaves from a half of S not yet involved, and
    /// every half it involves is not yet involved.
    pub fn within_budget(&self, join: Join, mv: Move) -> bool {
        let from = join.local(mv.from.0, mv.from.1).half;
        let inv = &self.turn.involved;
        self.turn.s.get(from) == Some(&true)
            && self
                .involves(join, mv)
                .iter()
                .all(|&h| inv.get(h) == Some(&false))
    }

    /// The legal moves of `army` on J within the budget.
    pub fn budget_moves(&self, join: Join, army: usize, rules: Rules) -> Vec<Move> {
        self.legal_on(join, army, rules)
            .into_iter()
            .filter(|&m| self.within_budget(join, m))
            .collect()
    }

    /// Why a push is refused by the budget (Nomic rules 6.10a), if it is.
    pub fn push_blocked(&self, join: Join, army: usize) -> Option<String> {
        let n = self.players();
        if join.bottom >= n || join.top >= n {
            return Some(format!(
                "there are halves A to {} only",
                half_letter(n.saturating_sub(1))
            ));
        }
        if join.bottom == join.top {
            return Some("push two different half-boards together".into());
        }
        let s = &self.turn.s;
        let inv = &self.turn.involved;
        let here = self.halves_of(army);
        if s[join.bottom] && s[join.top] && (inv[join.bottom] || inv[join.top]) {
            return Some(format!(
                "halves {} and {} both held army {}'s pieces when its turn began, and one of them has already been involved in a move this turn",
                half_letter(join.bottom),
                half_letter(join.top),
                army + 1
            ));
        }
        let usable = [join.bottom, join.top]
            .iter()
            .any(|&h| s[h] && !inv[h] && here[h]);
        if !usable {
            return Some(format!(
                "army {} has no piece that may still move on {} or {} this turn (a move must leave a half that held its pieces when the turn began and was not yet involved)",
                army + 1,
                half_letter(join.bottom),
                half_letter(join.top)
            ));
        }
        None
    }

    /// Every push after which `army` has a legal move within the budget.
    pub fn pushes_with_moves(&self, army: usize, rules: Rules) -> Vec<Join> {
        let n = self.players();
        let mut v = Vec::new();
        for bottom in 0..n {
            for top in 0..n {
                let j = Join { bottom, top };
                if self.push_blocked(j, army).is_none()
                    && !self.budget_moves(j, army, rules).is_empty()
                {
                    v.push(j);
                }
            }
        }
        v
    }

    /// Whether `army` has any legal move within the budget on any push.
    pub fn has_any_move(&self, army: usize, rules: Rules) -> bool {
        let n = self.players();
        (0..n).any(|bottom| {
            (0..n).any(|top| {
                let j = Join { bottom, top };
                self.push_blocked(j, army).is_none()
                    && !self.budget_moves(j, army, rules).is_empty()
            })
        })
    }

    /// Makes a move on the halves through J: flags, en passant, promotion (the halves then
    /// separate). Returns the piece captured, if any.
    pub fn make(&mut self, join: Join, mv: Move) -> Option<Piece> {
        let mut b = self.joined(join);
        let captured = match mv.special {
            Special::EnPassant => {
                let p = b[mv.from.1 as usize][mv.from.0 as usize];
                p.and_then(|p| {
                    let d = Self::pawn_dir(join, p.army, mv.from.1);
                    step(mv.to, (0, -d)).and_then(|c| b[c.1 as usize][c.0 as usize])
                })
            }
            Special::CastleKing | Special::CastleQueen => None,
            _ => b[mv.to.1 as usize][mv.to.0 as usize],
        };
        Self::make_on(&mut b, join, mv);
        self.separate(join, &b);
        self.ep = match mv.special {
            Special::Double => {
                let mid = (mv.from.0, (mv.from.1 + mv.to.1) / 2);
                Some(join.local(mid.0, mid.1))
            }
            _ => None,
        };
        captured
    }

    /// Kings of J attacked by another side, with the count of attacking pieces per
    /// controller (`None` for armies whose control is pending).
    pub fn attacked_kings(&self, b: &JBoard, join: Join) -> Vec<((u8, u8), usize)> {
        Self::kings(b)
            .into_iter()
            .filter(|&(sq, a)| self.king_attacked(b, join, sq, a))
            .collect()
    }

    /// Who is entitled to a mated army (§6.6): the player with the most pieces attacking
    /// its king; `None` on a tie (or when no player's piece attacks it).
    pub fn entitled(&self, b: &JBoard, join: Join, sq: (u8, u8), army: usize) -> Option<usize> {
        let mut count: Vec<usize> = vec![0; self.players()];
        for a in Self::attackers(b, join, sq, &|x| !self.same_side(x, army)) {
            if let Some(p) = b[a.1 as usize][a.0 as usize] {
                if let Some(Some(c)) = self.controllers.get(p.army) {
                    count[*c] += 1;
                }
            }
        }
        let best = *count.iter().max()?;
        if best == 0 {
            return None;
        }
        let top: Vec<usize> = (0..count.len()).filter(|&i| count[i] == best).collect();
        (top.len() == 1).then(|| top[0])
    }

    /// Whether a side (the armies with `army`'s controller, or `army` alone if pending) has
    /// any legal move on J.
    pub fn side_can_move(&self, join: Join, army: usize, rules: Rules) -> bool {
        (0..self.controllers.len())
            .filter(|&a| self.same_side(a, army))
            .any(|a| !self.legal_on(join, a, rules).is_empty())
    }

    /// Placement of a half (local rank 4 first, `{K1}` pieces, digits for empty runs).
    pub fn half_placement(&self, h: usize) -> String {
        let mut rows = Vec::new();
        if let Some(half) = self.halves.get(h) {
            for r in (0..4).rev() {
                let mut s = String::new();
                let mut empty = 0;
                for p in &half[r] {
                    match p {
                        None => empty += 1,
                        Some(p) => {
                            if empty > 0 {
                                s.push_str(&empty.to_string());
                                empty = 0;
                            }
                            s.push_str(&format!("{{{}{}}}", p.kind.letter(), p.army + 1));
                        }
                    }
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                }
                rows.push(s);
            }
        }
        rows.join("/")
    }

    /// Whether a piece's moved flag matters (king and rooks on their home squares, pawns on
    /// their home rank 2).
    pub fn flag_matters(l: Local, p: Piece) -> bool {
        l.half == p.army
            && match p.kind {
                Kind::King => l.rank == 0 && l.file == 4,
                Kind::Rook => l.rank == 0 && (l.file == 0 || l.file == 7),
                Kind::Pawn => l.rank == 1,
                _ => false,
            }
    }
}

/// A move in J's coordinates (`Nb1-c3`, `e7xd8=Q`, `0-0`).
pub fn move_text(b: &JBoard, mv: Move) -> String {
    match mv.special {
        Special::CastleKing => return "0-0".into(),
        Special::CastleQueen => return "0-0-0".into(),
        _ => {}
    }
    let p = b[mv.from.1 as usize][mv.from.0 as usize];
    let letter = match p {
        Some(p) if p.kind != Kind::Pawn => p.kind.letter().to_string(),
        _ => String::new(),
    };
    let capture =
        mv.special == Special::EnPassant || b[mv.to.1 as usize][mv.to.0 as usize].is_some();
    let promo = mv
        .promo
        .map(|k| format!("={}", k.letter()))
        .unwrap_or_default();
    format!(
        "{letter}{}{}{}{promo}",
        square_text(mv.from.0, mv.from.1),
        if capture { 'x' } else { '-' },
        square_text(mv.to.0, mv.to.1)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> Position {
        let mut p = Position::start(2, vec![0, 1]);
        p.turn.slot = Slot::Army(0);
        p.turn.s = p.halves_of(0);
        p
    }

    const AB: Join = Join { bottom: 0, top: 1 };

    #[test]
    fn the_top_half_is_turned_round() {
        let j = AB;
        assert_eq!(
            j.local(3, 7),
            Local {
                half: 1,
                file: 4,
                rank: 0
            }
        );
        let p = two();
        let b = p.joined(j);
        // Kings face queens: B's king (local e1) is on J's d8, its queen on e8.
        assert_eq!(b[7][3].map(|p| (p.kind, p.army)), Some((Kind::King, 1)));
        assert_eq!(b[7][4].map(|p| (p.kind, p.army)), Some((Kind::Queen, 1)));
        assert_eq!(b[0][4].map(|p| (p.kind, p.army)), Some((Kind::King, 0)));
    }

    #[test]
    fn two_players_have_the_twenty_fide_first_moves() {
        let p = two();
        assert_eq!(p.budget_moves(AB, 0, Rules::default()).len(), 20);
        let mut q = p.clone();
        q.turn.s = q.halves_of(1);
        assert_eq!(q.budget_moves(AB, 1, Rules::default()).len(), 20);
        // Pushing B under A: army 1's pawns move toward B's rank 1 from the bottom.
        let ba = Join { bottom: 1, top: 0 };
        assert_eq!(q.budget_moves(ba, 1, Rules::default()).len(), 20);
    }

    #[test]
    fn a_pawn_crossing_keeps_its_direction_and_promotes_on_the_far_rank() {
        let mut p = two();
        for h in &mut p.halves {
            *h = [[None; 8]; 4];
        }
        let pawn = Piece {
            kind: Kind::Pawn,
            army: 0,
            moved: true,
        };
        p.set(
            Local {
                half: 0,
                file: 4,
                rank: 3,
            },
            Some(pawn),
        );
        p.turn.s = p.halves_of(0);
        let m = p.budget_moves(AB, 0, Rules::default());
        assert_eq!(m.len(), 1);
        p.make(AB, m[0]);
        // Now on B's local d4 (J e5), moving toward B's rank 1.
        let l = Local {
            half: 1,
            file: 3,
            rank: 3,
        };
        assert_eq!(p.at(l).map(|p| p.kind), Some(Kind::Pawn));
        p.set(l, None);
        p.set(
            Local {
                half: 1,
                file: 3,
                rank: 1,
            },
            Some(pawn),
        );
        let m = p.legal_on(AB, 0, Rules::default());
        assert_eq!(m.len(), 4, "four promotions: {m:?}");
        assert!(m.iter().all(|m| m.to == (4, 7)));
    }

    #[test]
    fn kings_are_never_captured_and_friends_are_spared() {
        let mut p = two();
        for h in &mut p.halves {
            *h = [[None; 8]; 4];
        }
        let k = |army| Piece {
            kind: Kind::King,
            army,
            moved: true,
        };
        let q = Piece {
            kind: Kind::Queen,
            army: 0,
            moved: true,
        };
        p.set(
            Local {
                half: 0,
                file: 0,
                rank: 0,
            },
            Some(k(0)),
        );
        p.set(
            Local {
                half: 0,
                file: 4,
                rank: 0,
            },
            Some(q),
        );
        p.set(
            Local {
                half: 0,
                file: 4,
                rank: 3,
            },
            Some(k(1)),
        );
        let b = p.joined(AB);
        assert!(p.king_attacked(&b, AB, (4, 3), 1));
        assert!(p
            .legal_on(AB, 0, Rules::default())
            .iter()
            .all(|m| m.to != (4, 3)));
        // The same controller: no check, no capture.
        p.controllers[1] = Some(0);
        let b = p.joined(AB);
        assert!(!p.king_attacked(&b, AB, (4, 3), 1));
    }

    #[test]
    fn en_passant_and_castling_on_j() {
        let mut p = two();
        // Army 1 (A) plays e2-e4; army 2's pawn on J d4 (B local e5? no: set it by hand).
        let d = p
            .budget_moves(AB, 0, Rules::default())
            .into_iter()
            .find(|m| m.from == (4, 1) && m.to == (4, 3))
            .expect("e2-e4");
        p.make(AB, d);
        assert_eq!(
            p.ep,
            Some(Local {
                half: 0,
                file: 4,
                rank: 2
            })
        );
        let foe = Piece {
            kind: Kind::Pawn,
            army: 1,
            moved: true,
        };
        p.set(
            Local {
                half: 0,
                file: 3,
                rank: 3,
            },
            Some(foe),
        );
        p.turn.s = p.halves_of(1);
        let m = p.legal_on(AB, 1, Rules::default());
        let ep = m
            .iter()
            .find(|m| m.special == Special::EnPassant)
            .expect("en passant");
        assert_eq!(ep.to, (4, 2));
        p.make(AB, *ep);
        assert_eq!(
            p.at(Local {
                half: 0,
                file: 4,
                rank: 3
            }),
            None
        );
        // Castling: clear A's king side.
        let mut p = two();
        p.set(
            Local {
                half: 0,
                file: 5,
                rank: 0,
            },
            None,
        );
        p.set(
            Local {
                half: 0,
                file: 6,
                rank: 0,
            },
            None,
        );
        let c = p
            .legal_on(AB, 0, Rules::default())
            .into_iter()
            .find(|m| m.special == Special::CastleKing)
            .expect("0-0");
        p.make(AB, c);
        assert_eq!(
            p.at(Local {
                half: 0,
                file: 6,
                rank: 0
            })
            .map(|p| p.kind),
            Some(Kind::King)
        );
        assert_eq!(
            p.at(Local {
                half: 0,
                file: 5,
                rank: 0
            })
            .map(|p| p.kind),
            Some(Kind::Rook)
        );
    }
}
