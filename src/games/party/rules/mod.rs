//! How Party Chess pieces move, capture, attack and defend (Party rules 3.1, 3.2, 3.5).
//!
//! Every rule is a small named function over a [`Gen`] (the board, the mover's seat and
//! whether "hostile" means opposing or, for defending, friendly). A piece's moves are its own
//! rule's ([`piece_moves`]) plus the Cantor's lent moves; the plays of a seat
//! ([`legal_plays`]) are those that do not end with its King attacked.

use super::board::{
    in_demon_zone, is_promotion_square, pawn_placeable, Position, Sq, DIAG, DIRS, ORTHO,
};
use super::piece::{grown, simple_steps, EchoRule, Kind, Piece, Src};

mod pieces;
pub use pieces::*;

/// A move or capture of a piece on the board.
#[derive(Clone, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub struct Mv {
    /// Where the piece stands.
    pub from: Sq,
    /// Where it ends (the victim's square for a stand-off capture; the corner for a scratch).
    pub to: Sq,
    /// A Tornado's earlier captures, in order, before `to`.
    pub chain: Vec<Sq>,
    /// A Qball's bounce square (the end of part a).
    pub bounce: Option<Sq>,
    /// The last segment captures the piece on `to`.
    pub capture: bool,
    /// The capture is made standing off: the piece stays on `from` (an Archer's shot).
    pub standoff: bool,
    /// A Qball scratch: it goes to its owner's off-board pieces.
    pub scratch: bool,
    /// A move lent by a Cantor's aura.
    pub lent: bool,
    /// A pawn's promotion.
    pub promo: Option<Kind>,
    /// Demons promoted after the move: (square, new type).
    pub demons: Vec<(Sq, Kind)>,
}

impl Mv {
    fn new(from: Sq, to: Sq) -> Mv {
        Mv {
            from,
            to,
            chain: Vec::new(),
            bounce: None,
            capture: false,
            standoff: false,
            scratch: false,
            lent: false,
            promo: None,
            demons: Vec::new(),
        }
    }
    fn cap(from: Sq, to: Sq) -> Mv {
        Mv {
            capture: true,
            ..Mv::new(from, to)
        }
    }
    /// Whether it captures anything.
    pub fn captures(&self) -> bool {
        self.capture || !self.chain.is_empty()
    }
    /// Every square it captures on.
    pub fn victims(&self) -> Vec<Sq> {
        let mut v = self.chain.clone();
        if self.capture {
            v.push(self.to);
        }
        v
    }
}

/// A play (Party rules 3.5).
#[derive(Clone, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub enum Play {
    /// A Move or a Capture.
    Move(Mv),
    /// An off-board piece placed on an empty square.
    Place {
        /// The piece (with its state).
        piece: Piece,
        /// Where.
        to: Sq,
    },
    /// Nothing.
    Pass,
    /// All own on-board pieces go off-board.
    Surrender,
}

/// What "hostile" means while generating.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Captures of opposing pieces (moves, attacks).
    Attack,
    /// Friendly pieces treated as opposing (defending, 1230.2 §5): every other piece is
    /// hostile, so a Tornado's chain may take opposing pieces on its way to a friendly one.
    Defend,
}

/// The context of a generation.
#[derive(Clone, Copy)]
pub struct Gen<'a> {
    /// The board.
    pub pos: &'a Position,
    /// The mover's seat.
    pub seat: u8,
    /// Attack or defend.
    pub mode: Mode,
    /// The mover's square (never its own victim).
    pub from: Sq,
    /// A Tornado may chain.
    pub chain: bool,
}

impl Gen<'_> {
    fn hostile(&self, sq: Sq, p: Piece) -> bool {
        if sq == self.from {
            return false;
        }
        match self.mode {
            Mode::Attack => p.seat != self.seat,
            Mode::Defend => true,
        }
    }
    /// A piece on a square other than the mover's own.
    fn occ(&self, sq: Sq) -> Option<Piece> {
        if sq == self.from {
            None
        } else {
            self.pos.at(sq)
        }
    }
    /// Empty, or hostile: push a move or capture to it. Returns whether the square was empty.
    fn land(&self, to: Sq, out: &mut Vec<Mv>) -> bool {
        match self.occ(to) {
            None => {
                out.push(Mv::new(self.from, to));
                true
            }
            Some(p) => {
                if self.hostile(to, p) {
                    out.push(Mv::cap(self.from, to));
                }
                false
            }
        }
    }
}

/// The pseudo-legal moves of the piece on `from` (own rule, then the Cantor's lent moves
/// not written the same as an own one). `chain`: whether a Tornado may chain.
pub fn piece_moves(pos: &Position, from: Sq, mode: Mode, chain: bool) -> Vec<Mv> {
    piece_moves_only(pos, from, mode, chain, None)
}

fn piece_moves_only(
    pos: &Position,
    from: Sq,
    mode: Mode,
    chain: bool,
    only: Option<Sq>,
) -> Vec<Mv> {
    let Some(p) = pos.at(from) else {
        return Vec::new();
    };
    let g = Gen {
        pos,
        seat: p.seat,
        mode,
        from,
        chain,
    };
    let mut out = Vec::new();
    by_rule(&g, Src::of(p.kind, p.hn), only, &mut out);
    if next_to_cantor(pos, from) {
        let mut lent = Vec::new();
        cantor_lent(&g, &mut lent);
        for m in lent {
            let same = out
                .iter()
                .any(|o| o.to == m.to && o.capture == m.capture && o.chain.is_empty());
            if !same {
                out.push(m);
            }
        }
    }
    out
}

/// Whether the piece on `from` attacks the square `target` (pseudo-legal, 1230.2 §5): a
/// Tornado by any chain unless `first_segment`.
pub fn attacks(pos: &Position, from: Sq, target: Sq, first_segment: bool) -> bool {
    piece_moves_only(pos, from, Mode::Attack, !first_segment, Some(target))
        .iter()
        .any(|m| m.victims().contains(&target))
}

/// Whether a seat's King is attacked by an opposing piece.
pub fn in_check(pos: &Position, seat: u8) -> bool {
    let Some(k) = pos.king(seat) else {
        return false;
    };
    pos.pieces()
        .filter(|(_, p)| p.seat != seat)
        .any(|(s, _)| attacks(pos, s, k, false))
}

/// Whether the piece on `sq` attacks any opposing piece.
pub fn attacks_any(pos: &Position, sq: Sq, first_segment: bool) -> bool {
    piece_moves(pos, sq, Mode::Attack, !first_segment)
        .iter()
        .any(Mv::captures)
}

/// Whether the piece on `sq` defends any friendly piece: one of its captures, with friendly
/// pieces treated as opposing, takes a friendly piece (a Tornado's chain may first take
/// opposing pieces; every capture rule its plays use counts: CopyCat, Echo, Cantor-lent).
pub fn defends_any(pos: &Position, sq: Sq) -> bool {
    let Some(me) = pos.at(sq) else {
        return false;
    };
    piece_moves(pos, sq, Mode::Defend, true).iter().any(|m| {
        m.victims()
            .iter()
            .any(|&v| v != sq && pos.at(v).is_some_and(|p| p.seat == me.seat))
    })
}

/// Whether a seat's Demon on `sq` may promote: strictly inside the box of two other friendly
/// pieces of one type at most 10 apart.
pub fn demon_may_promote(pos: &Position, sq: Sq, seat: u8) -> bool {
    let others: Vec<(Sq, Piece)> = pos.pieces_of(seat).filter(|&(s, _)| s != sq).collect();
    let (r, c) = (sq.rank(), sq.file());
    for (i, &(x, px)) in others.iter().enumerate() {
        for &(y, py) in &others[i + 1..] {
            if px.kind != py.kind || x.distance(y) > 10 {
                continue;
            }
            let between = |a: i32, m: i32, b: i32| (a < m && m < b) || (b < m && m < a);
            if between(x.rank(), r, y.rank()) && between(x.file(), c, y.file()) {
                return true;
            }
        }
    }
    false
}

/// The types a seat may promote to (a Pawn's; a Demon's also not Demon).
pub fn promotion_targets(pos: &Position, seat: u8, demon: bool) -> Vec<Kind> {
    Kind::ALL
        .into_iter()
        .filter(|&k| k != Kind::Pawn && !(demon && k == Kind::Demon))
        .filter(|&k| match k.limit() {
            Some(l) => pos.owned(seat, k) < l,
            None => true,
        })
        .collect()
}

/// What a play did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Done {
    /// Pieces captured (they joined the mover's off-board pieces unless destroyed by a limit).
    pub captured: Vec<Piece>,
    /// The mover's Kamikaze was destroyed.
    pub kamikaze: bool,
}

/// Applies a play of `seat` to the board and hands (not the Play List), updating its Echo
/// source.
pub fn apply(pos: &mut Position, seat: u8, play: &Play) -> Done {
    let mut done = Done::default();
    match play {
        Play::Pass => {
            pos.echo.insert(seat, None);
        }
        Play::Surrender => {
            let mine: Vec<(Sq, Piece)> = pos.pieces_of(seat).collect();
            for (s, p) in mine {
                pos.set(s, None);
                pos.give(seat, p);
            }
            pos.echo.insert(seat, None);
        }
        Play::Place { piece, to } => {
            pos.take(seat, *piece);
            pos.set(*to, Some(*piece));
            pos.echo.insert(seat, None);
        }
        Play::Move(m) => {
            let Some(p) = pos.at(m.from) else {
                return done;
            };
            let before = Src {
                vec: (pos.echo_rule == EchoRule::Vector).then(|| displacement(m)),
                ..Src::of(p.kind, p.hn)
            };
            let mut mover = p;
            if m.scratch {
                pos.set(m.from, None);
                pos.give(seat, p);
            } else if m.standoff {
                if let Some(v) = pos.at(m.to) {
                    pos.set(m.to, None);
                    pos.give(seat, v);
                    done.captured.push(v);
                }
            } else {
                pos.set(m.from, None);
                for &s in &m.victims() {
                    if let Some(v) = pos.at(s) {
                        pos.set(s, None);
                        pos.give(seat, v);
                        done.captured.push(v);
                        if mover.kind == Kind::HarfyBlob {
                            let by = if v.kind == Kind::HarfyBlob { v.hn } else { 1 };
                            mover.hn = grown(mover.hn, by);
                        }
                    }
                }
                if mover.kind == Kind::Kamikaze && m.captures() {
                    done.kamikaze = true;
                } else {
                    if let Some(k) = m.promo {
                        mover = Piece::new(k, seat);
                    }
                    pos.set(m.to, Some(mover));
                }
            }
            for &(s, k) in &m.demons {
                if pos
                    .at(s)
                    .is_some_and(|d| d.kind == Kind::Demon && d.seat == seat)
                {
                    pos.set(s, Some(Piece::new(k, seat)));
                }
            }
            pos.enforce_limits(seat);
            if p.kind != Kind::Echo {
                pos.echo.insert(seat, Some(before));
            }
        }
    }
    done
}

/// A placement's legality apart from check: the piece is held, the square empty (a pawn's on
/// its files and ranks), and standing there it attacks no opposing piece. `Err` says why.
pub fn placement_problem(pos: &Position, seat: u8, piece: Piece, to: Sq) -> Option<String> {
    if !pos.hand(seat).contains(&piece) {
        return Some(format!("you hold no {} off the board", piece.kind.name()));
    }
    if let Some(q) = pos.at(to) {
        return Some(format!(
            "{} is not empty (a {} stands there)",
            to.name(),
            q.kind.name()
        ));
    }
    if piece.kind == Kind::Pawn && !pawn_placeable(to) {
        return Some(format!(
            "a Pawn is placed only on files a b s t or ranks 1 2 19 20, not {}",
            to.name()
        ));
    }
    let mut after = pos.clone();
    after.take(seat, piece);
    after.set(to, Some(piece));
    after.echo.insert(seat, None);
    let hit: Vec<String> = piece_moves(&after, to, Mode::Attack, false)
        .iter()
        .filter(|m| m.captures())
        .flat_map(Mv::victims)
        .map(Sq::name)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    if !hit.is_empty() {
        return Some(format!(
            "a {} placed on {} would attack the opposing piece on {}",
            piece.kind.name(),
            to.name(),
            hit.join(", ")
        ));
    }
    None
}

/// Whether a seat's opponents have a piece whose attacks a new piece on the board could
/// open (a Bouncy!Ball's screen, a Tornado's chain, or an Echo copying one).
fn placements_can_expose(pos: &Position, seat: u8) -> bool {
    pos.pieces().any(|(_, p)| {
        p.seat != seat
            && match p.kind {
                Kind::Bouncy | Kind::Tornado | Kind::CopyCat => true,
                Kind::Echo => pos.echo_of(p.seat).is_some_and(|s| {
                    matches!(s.kind, Kind::Bouncy | Kind::Tornado | Kind::CopyCat)
                }),
                _ => false,
            }
    })
}

/// The pseudo-legal Moves and Captures of a seat, with a pawn's promotions expanded.
pub fn seat_moves(pos: &Position, seat: u8) -> Vec<Mv> {
    let mut out = Vec::new();
    let squares: Vec<(Sq, Piece)> = pos.pieces_of(seat).collect();
    for (sq, p) in squares {
        for m in piece_moves(pos, sq, Mode::Attack, true) {
            if p.kind == Kind::Pawn && !m.standoff && is_promotion_square(m.to) {
                for k in promotion_targets(pos, seat, false) {
                    out.push(Mv {
                        promo: Some(k),
                        ..m.clone()
                    });
                }
            } else {
                out.push(m);
            }
        }
    }
    out
}

/// Whether a play of `seat` leaves its King attacked.
pub fn exposes(pos: &Position, seat: u8, play: &Play) -> bool {
    let mut after = pos.clone();
    apply(&mut after, seat, play);
    in_check(&after, seat)
}

/// The placements a seat could make (one per type: a HarfyBlob of highest range), legal.
pub fn legal_placements(pos: &Position, seat: u8) -> Vec<(Piece, Sq)> {
    let mut kinds: Vec<Piece> = Vec::new();
    for &p in pos.hand(seat) {
        match kinds.iter_mut().find(|q| q.kind == p.kind) {
            Some(q) => {
                if p.hn > q.hn {
                    *q = p;
                }
            }
            None => kinds.push(p),
        }
    }
    let checked = in_check(pos, seat);
    let exposable = checked || placements_can_expose(pos, seat);
    let mut out = Vec::new();
    for piece in kinds {
        for to in Sq::all() {
            if pos.at(to).is_some() {
                continue;
            }
            if placement_problem(pos, seat, piece, to).is_some() {
                continue;
            }
            if (exposable || piece.kind == Kind::King)
                && exposes(pos, seat, &Play::Place { piece, to })
            {
                continue;
            }
            out.push((piece, to));
        }
    }
    out
}

/// Every legal play of the seat to play (none when the Play List is empty).
pub fn legal_plays(pos: &Position) -> Vec<Play> {
    let Some(seat) = pos.to_play() else {
        return Vec::new();
    };
    let mut out: Vec<Play> = seat_moves(pos, seat)
        .into_iter()
        .map(Play::Move)
        .filter(|p| !exposes(pos, seat, p))
        .collect();
    for (piece, to) in legal_placements(pos, seat) {
        out.push(Play::Place { piece, to });
    }
    if !in_check(pos, seat) {
        out.push(Play::Pass);
    }
    out.push(Play::Surrender);
    out
}

#[cfg(test)]
pub(crate) mod tests;
