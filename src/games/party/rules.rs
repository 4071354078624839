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

fn add(sq: Sq, d: (i32, i32), n: i32) -> Option<Sq> {
    sq.offset((d.0 * n, d.1 * n))
}

/// Slides along `d` up to `max` squares through empty squares.
pub fn slide(g: &Gen, d: (i32, i32), max: i32, out: &mut Vec<Mv>) {
    for n in 1..=max {
        let Some(to) = add(g.from, d, n) else { return };
        if !g.land(to, out) {
            return;
        }
    }
}

/// Leaps to `from + d`: jumping, or lame (the squares between on the line must be empty).
fn leap(g: &Gen, d: (i32, i32), lame: bool, out: &mut Vec<Mv>) {
    let Some(to) = g.from.offset(d) else { return };
    if lame {
        let n = d.0.abs().max(d.1.abs());
        let unit = (d.0.signum(), d.1.signum());
        if d.0 != 0 && d.1 != 0 && d.0.abs() != d.1.abs() {
            return;
        }
        for i in 1..n {
            if add(g.from, unit, i).and_then(|s| g.occ(s)).is_some() {
                return;
            }
        }
    }
    g.land(to, out);
}

/// The simple pieces (King, Rook, Bishop, Camel, Jester, Cantor) from their Betza data.
pub fn simple(g: &Gen, kind: Kind, out: &mut Vec<Mv>) {
    let Some(steps) = simple_steps(kind) else {
        return;
    };
    for &((df, dr), n, lame) in &steps.rays {
        let d = (i32::from(df), i32::from(dr));
        if n > 1 {
            slide(g, d, i32::from(n), out);
        } else {
            leap(g, d, lame, out);
        }
    }
}

/// The HarfyBlob: any line up to its range.
pub fn harfy(g: &Gen, hn: u8, out: &mut Vec<Mv>) {
    for d in DIRS {
        slide(g, d, i32::from(hn), out);
    }
}

/// Whether the piece rule at `g.from` defends a friendly piece by a pawn's capture (one
/// square diagonally) or a Cantor-lent move.
fn pawn_defends(g: &Gen) -> bool {
    let friend = |sq: Sq| g.occ(sq).is_some_and(|p| p.seat == g.seat);
    if DIAG.iter().any(|&d| g.from.offset(d).is_some_and(friend)) {
        return true;
    }
    if next_to_cantor(g.pos, g.from) {
        for d in DIAG {
            for n in 1..=4 {
                if add(g.from, d, n).is_some_and(friend) {
                    return true;
                }
            }
        }
    }
    false
}

/// The Pawn: one square orthogonally (two, lame, while it defends a friendly piece), moves
/// only; captures one square diagonally.
pub fn pawn(g: &Gen, out: &mut Vec<Mv>) {
    let double = pawn_defends(g);
    for d in ORTHO {
        for n in 1..=(if double { 2 } else { 1 }) {
            let Some(to) = add(g.from, d, n) else { break };
            if g.occ(to).is_some() {
                break;
            }
            out.push(Mv::new(g.from, to));
        }
    }
    for d in DIAG {
        if let Some(to) = g.from.offset(d) {
            if g.occ(to).is_some_and(|p| g.hostile(to, p)) {
                out.push(Mv::cap(g.from, to));
            }
        }
    }
}

/// The CopyCat's own move: exactly 3 or 5 along a line, the squares between empty (a capture
/// this way only of a CopyCat, or of an Echo copying one).
pub fn copycat_line(g: &Gen, captures: bool, out: &mut Vec<Mv>) {
    for d in DIRS {
        for n in 1..=5 {
            let Some(to) = add(g.from, d, n) else { break };
            let occ = g.occ(to);
            if n == 3 || n == 5 {
                match occ {
                    None if !captures => out.push(Mv::new(g.from, to)),
                    Some(p) if captures && g.hostile(to, p) => out.push(Mv::cap(g.from, to)),
                    _ => {}
                }
            }
            if occ.is_some() {
                break;
            }
        }
    }
}

/// The rule a victim is captured by, for a CopyCat: `None` when it cannot be (an Echo with
/// no move). `Some(None)` means the CopyCat's own 3/5 move.
fn victim_rule(pos: &Position, victim: Piece) -> Option<Option<Src>> {
    match victim.kind {
        Kind::CopyCat => Some(None),
        Kind::Echo => match pos.echo_of(victim.seat) {
            None => None,
            Some(s) if s.kind == Kind::CopyCat => Some(None),
            Some(s) => Some(Some(s)),
        },
        k => Some(Some(Src::of(k, victim.hn))),
    }
}

/// The CopyCat: its 3/5 moves, and captures of each hostile piece by that piece's own
/// capture rule applied from the CopyCat's square (a Tornado by one segment).
pub fn copycat(g: &Gen, only: Option<Sq>, out: &mut Vec<Mv>) {
    copycat_line(g, false, out);
    let victims: Vec<(Sq, Piece)> = g
        .pos
        .pieces()
        .filter(|&(s, p)| g.hostile(s, p) && only.is_none_or(|o| o == s))
        .collect();
    for (sq, victim) in victims {
        let Some(rule) = victim_rule(g.pos, victim) else {
            continue;
        };
        let mut tmp = Vec::new();
        match rule {
            None => copycat_line(g, true, &mut tmp),
            Some(src) => {
                let g2 = Gen { chain: false, ..*g };
                by_rule(&g2, src, None, &mut tmp);
            }
        }
        // An Echo by its current movement: under the vector reading, its source's
        // displacement only.
        if victim.kind == Kind::Echo {
            if let Some(src) = g.pos.echo_of(victim.seat) {
                echo_filter(g.pos, src, &mut tmp, 0);
            }
        }
        out.extend(
            tmp.into_iter()
                .filter(|m| m.capture && m.to == sq && m.chain.is_empty()),
        );
    }
}

/// The Qball: part a along a diagonal through empty squares to the first edge square
/// entered; a corner scratches; otherwise part b 1–10 along the reflected diagonal.
pub fn qball(g: &Gen, out: &mut Vec<Mv>) {
    for d in DIAG {
        let mut sq = g.from;
        let edge = loop {
            match sq.offset(d) {
                None => break None,
                Some(s) => {
                    if g.occ(s).is_some() {
                        break None;
                    }
                    sq = s;
                    if s.is_edge() {
                        break Some(s);
                    }
                }
            }
        };
        let Some(edge) = edge else { continue };
        if edge.is_corner() {
            out.push(Mv {
                scratch: true,
                ..Mv::new(g.from, edge)
            });
            continue;
        }
        let d2 = if edge.rank() == 0 || edge.rank() == 19 {
            (d.0, -d.1)
        } else {
            (-d.0, d.1)
        };
        let mut tmp = Vec::new();
        // Part b starts on the bounce square; the Qball's own square is empty by now.
        for n in 1..=10 {
            let Some(to) = add(edge, d2, n) else { break };
            if !g.land(to, &mut tmp) {
                break;
            }
        }
        for mut m in tmp {
            m.bounce = Some(edge);
            out.push(m);
        }
    }
}

/// The Archer: moves to a square with |Δfile| + |Δrank| = 4 along a clear L-path (either
/// order), never capturing; captures standing off up to 4 orthogonally or 3 diagonally.
pub fn archer(g: &Gen, out: &mut Vec<Mv>) {
    for a in -4i32..=4 {
        for b in -4i32..=4 {
            if a.abs() + b.abs() != 4 {
                continue;
            }
            let Some(to) = g.from.offset((a, b)) else {
                continue;
            };
            let clear = |first_x: bool| {
                let mut path = Vec::new();
                let (sx, sy) = (a.signum(), b.signum());
                if first_x {
                    for i in 1..=a.abs() {
                        path.push((sx * i, 0));
                    }
                    for j in 1..=b.abs() {
                        path.push((a, sy * j));
                    }
                } else {
                    for j in 1..=b.abs() {
                        path.push((0, sy * j));
                    }
                    for i in 1..=a.abs() {
                        path.push((sx * i, b));
                    }
                }
                path.iter()
                    .all(|&o| g.from.offset(o).is_some_and(|s| g.occ(s).is_none()))
            };
            if clear(true) || clear(false) {
                out.push(Mv::new(g.from, to));
            }
        }
    }
    for d in DIRS {
        let max = if d.0 != 0 && d.1 != 0 { 3 } else { 4 };
        for n in 1..=max {
            let Some(to) = add(g.from, d, n) else { break };
            if let Some(p) = g.occ(to) {
                if g.hostile(to, p) {
                    out.push(Mv {
                        standoff: true,
                        ..Mv::cap(g.from, to)
                    });
                }
                break;
            }
        }
    }
}

/// The Kamikaze: 1–6 orthogonally, then 1–6 perpendicular, no jumping, either order.
pub fn kamikaze(g: &Gen, out: &mut Vec<Mv>) {
    let mut seen = std::collections::HashSet::new();
    for d1 in ORTHO {
        for n1 in 1..=6 {
            let Some(mid) = add(g.from, d1, n1) else {
                break;
            };
            if g.occ(mid).is_some() {
                break;
            }
            let perp = [(d1.1, d1.0), (-d1.1, -d1.0)];
            for d2 in perp {
                for n2 in 1..=6 {
                    let Some(to) = add(mid, d2, n2) else { break };
                    match g.occ(to) {
                        None => {
                            if seen.insert((to, false)) {
                                out.push(Mv::new(g.from, to));
                            }
                        }
                        Some(p) => {
                            if g.hostile(to, p) && seen.insert((to, true)) {
                                out.push(Mv::cap(g.from, to));
                            }
                            break;
                        }
                    }
                }
            }
        }
    }
}

/// The Bouncy!Ball: along a line over exactly one piece at the midpoint.
pub fn bouncy(g: &Gen, out: &mut Vec<Mv>) {
    for d in DIRS {
        let mut n = 1;
        let screen = loop {
            match add(g.from, d, n) {
                None => break None,
                Some(s) if g.occ(s).is_some() => break Some(n),
                Some(_) => n += 1,
            }
        };
        let Some(n) = screen else { continue };
        let mut clear = true;
        for i in (n + 1)..(2 * n) {
            match add(g.from, d, i) {
                Some(s) if g.occ(s).is_none() => {}
                _ => {
                    clear = false;
                    break;
                }
            }
        }
        if !clear {
            continue;
        }
        if let Some(to) = add(g.from, d, 2 * n) {
            g.land(to, out);
        }
    }
}

/// The Demon: one square any way inside its zone, else exactly two, lame.
pub fn demon(g: &Gen, out: &mut Vec<Mv>) {
    let inside = in_demon_zone(g.from);
    for d in DIRS {
        if inside {
            leap(g, d, false, out);
        } else {
            leap(g, (d.0 * 2, d.1 * 2), true, out);
        }
    }
}

/// The material a Tornado's next segment may cover after capturing `victim`.
fn tornado_reach(victim: Piece) -> i32 {
    match victim.kind {
        Kind::HarfyBlob => i32::from(victim.hn),
        k => k.value() as i32,
    }
}

/// The Tornado: a first slide up to 2; after each capture, when chaining is allowed, a
/// slide up to the victim's value in any direction but the previous one.
pub fn tornado(g: &Gen, out: &mut Vec<Mv>) {
    let mut board = g.pos.clone();
    board.set(g.from, None);
    tornado_from(g, &board, g.from, None, 2, &[], out);
}

fn tornado_from(
    g: &Gen,
    board: &Position,
    at: Sq,
    prev: Option<(i32, i32)>,
    max: i32,
    caps: &[Sq],
    out: &mut Vec<Mv>,
) {
    for d in DIRS {
        if Some(d) == prev {
            continue;
        }
        for n in 1..=max {
            let Some(to) = add(at, d, n) else { break };
            match board.at(to) {
                None => out.push(Mv {
                    chain: caps.to_vec(),
                    ..Mv::new(g.from, to)
                }),
                Some(p) => {
                    if g.hostile(to, p) {
                        out.push(Mv {
                            chain: caps.to_vec(),
                            ..Mv::cap(g.from, to)
                        });
                        let m = tornado_reach(p);
                        if g.chain && m > 0 {
                            let mut b2 = board.clone();
                            b2.set(to, None);
                            let mut c2 = caps.to_vec();
                            c2.push(to);
                            tornado_from(g, &b2, to, Some(d), m, &c2, out);
                        }
                    }
                    break;
                }
            }
        }
    }
}

/// Whether a Cantor stands next to a square.
pub fn next_to_cantor(pos: &Position, sq: Sq) -> bool {
    DIRS.iter().any(|&d| {
        sq.offset(d)
            .and_then(|s| pos.at(s))
            .is_some_and(|p| p.kind == Kind::Cantor)
    })
}

/// The Cantor's aura: 1–4 squares diagonally, jumping.
pub fn cantor_lent(g: &Gen, out: &mut Vec<Mv>) {
    for d in DIAG {
        for n in 1..=4 {
            if let Some(to) = add(g.from, d, n) {
                let before = out.len();
                g.land(to, out);
                for m in &mut out[before..] {
                    m.lent = true;
                }
            }
        }
    }
}

/// A move's displacement (Δfile, Δrank) from its start to its end.
pub fn displacement(m: &Mv) -> (i8, i8) {
    (
        (m.to.file() - m.from.file()) as i8,
        (m.to.rank() - m.from.rank()) as i8,
    )
}

/// Keeps, under the `vector` reading, only the moves whose displacement is the source's
/// (Party rules 3.2, Echo); the rules reading keeps all.
fn echo_filter(pos: &Position, src: Src, out: &mut Vec<Mv>, from: usize) {
    if pos.echo_rule == EchoRule::Vector {
        let mut i = from;
        while i < out.len() {
            if src.vec == Some(displacement(&out[i])) {
                i += 1;
            } else {
                out.remove(i);
            }
        }
    }
}

/// The Echo: the moves of its Swinger's Echo source applied from its square (none without
/// one); under the `vector` reading only those with the source move's displacement.
pub fn echo(g: &Gen, only: Option<Sq>, out: &mut Vec<Mv>) {
    let Some(s) = g.pos.echo_of(g.seat) else {
        return;
    };
    if s.kind == Kind::Echo {
        return;
    }
    let before = out.len();
    by_rule(g, s, only, out);
    echo_filter(g.pos, s, out, before);
}

/// The moves of a rule applied from `g.from` (`only`: a CopyCat's single victim).
pub fn by_rule(g: &Gen, src: Src, only: Option<Sq>, out: &mut Vec<Mv>) {
    match src.kind {
        Kind::King | Kind::Rook | Kind::Bishop | Kind::Camel | Kind::Jester | Kind::Cantor => {
            simple(g, src.kind, out)
        }
        Kind::HarfyBlob => harfy(g, src.hn, out),
        Kind::Pawn => pawn(g, out),
        Kind::CopyCat => copycat(g, only, out),
        Kind::Echo => echo(g, only, out),
        Kind::Qball => qball(g, out),
        Kind::Archer => archer(g, out),
        Kind::Kamikaze => kamikaze(g, out),
        Kind::Bouncy => bouncy(g, out),
        Kind::Demon => demon(g, out),
        Kind::Tornado => tornado(g, out),
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
pub(crate) mod tests {
    use super::*;

    /// A position from `square=piece` pairs (`c3=K1 e5=H2:3`), seats 1..=n in order.
    pub(crate) fn pos(spec: &str, seats: u8) -> Position {
        let mut p = Position::empty((1..=seats).collect());
        for t in spec.split_whitespace() {
            let (sq, piece) = t.split_once('=').expect("square=piece");
            let sq = Sq::parse(sq).expect("square");
            let mut chars = piece.chars();
            let kind = Kind::from_letter(chars.next().expect("letter")).expect("kind");
            let rest: String = chars.collect();
            let (seat, hn) = match rest.split_once(':') {
                Some((s, h)) => (s.parse().expect("seat"), h.parse().expect("hn")),
                None => (rest.parse().expect("seat"), 1),
            };
            let mut pc = Piece::new(kind, seat);
            if kind == Kind::HarfyBlob {
                pc.hn = hn;
            }
            p.set(sq, Some(pc));
        }
        p
    }

    fn sq(n: &str) -> Sq {
        Sq::parse(n).expect("square")
    }

    /// The destinations of the piece on `from`: `-e5` for moves, `xe5` for captures
    /// (stand-off `*e5`, scratch `#a1`), sorted.
    fn dests(p: &Position, from: &str) -> Vec<String> {
        let mut v: Vec<String> = piece_moves(p, sq(from), Mode::Attack, true)
            .into_iter()
            .map(|m| {
                let mut s = String::new();
                for c in &m.chain {
                    s.push_str(&format!("x{}", c.name()));
                }
                let sep = if m.scratch {
                    "#"
                } else if m.standoff {
                    "*"
                } else if m.capture {
                    "x"
                } else {
                    "-"
                };
                format!("{s}{sep}{}", m.to.name())
            })
            .collect();
        v.sort();
        v.dedup();
        v
    }

    fn has(p: &Position, from: &str, d: &str) -> bool {
        dests(p, from).iter().any(|x| x == d)
    }

    #[test]
    fn king_one_square_and_corner() {
        let p = pos("a1=K1 b2=R1 a2=P2", 2);
        assert_eq!(dests(&p, "a1"), ["-b1", "xa2"]);
    }

    #[test]
    fn rook_slides_up_to_ten_blocked_and_captures() {
        let p = pos("a1=R1 a5=P1 c1=P2", 2);
        let d = dests(&p, "a1");
        assert_eq!(d, ["-a2", "-a3", "-a4", "-b1", "xc1"]);
        let p = pos("a1=R1", 2);
        assert!(has(&p, "a1", "-a11"));
        assert!(!has(&p, "a1", "-a12"));
        assert!(has(&p, "a1", "-k1"));
        assert!(!has(&p, "a1", "-l1"));
    }

    #[test]
    fn bishop_diagonal_up_to_ten() {
        let p = pos("a1=B1 d4=P2", 2);
        assert_eq!(dests(&p, "a1"), ["-b2", "-c3", "xd4"]);
        let p = pos("a1=B1", 2);
        assert!(has(&p, "a1", "-k11") && !has(&p, "a1", "-l12"));
    }

    #[test]
    fn camel_jumps_three_one() {
        let p = pos("e5=C1 e6=P1 e4=P1 f5=P1 d5=P1 f8=P2 h6=P1", 2);
        let d = dests(&p, "e5");
        assert!(d.contains(&"xf8".to_string()));
        assert!(!d.contains(&"-h6".to_string()) && !d.contains(&"xh6".to_string()));
        assert_eq!(d.len(), 7);
        let p = pos("a1=C1", 2);
        assert_eq!(dests(&p, "a1"), ["-b4", "-d2"]);
    }

    #[test]
    fn jester_two_any_way_jumping() {
        let p = pos("e5=J1 e6=P2 f6=P2 e7=P2", 2);
        let d = dests(&p, "e5");
        assert!(d.contains(&"xe7".to_string()));
        assert!(d.contains(&"-g7".to_string()));
        assert!(!d.contains(&"xe6".to_string()));
        assert_eq!(d.len(), 8);
    }

    #[test]
    fn harfy_range_and_growth() {
        let p = pos("e5=H1:2 e8=P2", 2);
        let d = dests(&p, "e5");
        assert!(d.contains(&"-e7".to_string()) && !d.contains(&"xe8".to_string()));
        assert_eq!(d.len(), 16);
        let p = pos("e5=H1:3 e8=H2:4 a1=K1", 2);
        assert!(has(&p, "e5", "xe8"));
        let mut after = p.clone();
        let m = piece_moves(&p, sq("e5"), Mode::Attack, true)
            .into_iter()
            .find(|m| m.to == sq("e8"))
            .expect("capture");
        apply(&mut after, 1, &Play::Move(m));
        assert_eq!(after.at(sq("e8")).map(|p| p.hn), Some(7));
        assert_eq!(after.hand(1)[0].hn, 4, "the victim keeps its range");
        let p = pos("e5=H1:1 e6=P2", 2);
        let m = piece_moves(&p, sq("e5"), Mode::Attack, true)
            .into_iter()
            .find(|m| m.capture)
            .expect("capture");
        let mut after = p.clone();
        apply(&mut after, 1, &Play::Move(m));
        assert_eq!(after.at(sq("e6")).map(|p| p.hn), Some(2));
    }

    #[test]
    fn pawn_steps_doubles_when_defending_and_captures_diagonally() {
        let p = pos("e5=P1 f6=P2", 2);
        assert_eq!(dests(&p, "e5"), ["-d5", "-e4", "-e6", "-f5", "xf6"]);
        // Defending a friend (d4): two squares, lame.
        let p = pos("e5=P1 d4=R1 e6=P2", 2);
        let d = dests(&p, "e5");
        assert!(d.contains(&"-e3".to_string()) && d.contains(&"-g5".to_string()));
        assert!(!d.contains(&"-e7".to_string()), "lame: e6 blocks");
        assert!(!d.contains(&"xe6".to_string()), "no straight capture");
    }

    #[test]
    fn pawn_promotes_on_the_four_squares() {
        let p = pos("j9=P1 a1=K1", 2);
        let moves = seat_moves(&p, 1);
        let promos: Vec<Kind> = moves
            .iter()
            .filter(|m| m.to == sq("j10"))
            .filter_map(|m| m.promo)
            .collect();
        assert!(!promos.contains(&Kind::King) && !promos.contains(&Kind::Pawn));
        assert!(promos.contains(&Kind::Tornado) && promos.contains(&Kind::Demon));
        assert!(moves.iter().all(|m| m.to != sq("j10") || m.promo.is_some()));
    }

    #[test]
    fn copycat_moves_three_or_five_and_captures_by_the_victims_rule() {
        let p = pos("e5=O1", 2);
        let d = dests(&p, "e5");
        assert!(d.contains(&"-e8".to_string()) && d.contains(&"-e10".to_string()));
        assert!(!d.contains(&"-e6".to_string()) && !d.contains(&"-e9".to_string()));
        // A rook 4 away is taken by the rook's rule; a bishop 4 away orthogonally is not.
        let p = pos("e5=O1 e9=R2 i5=B2", 2);
        assert!(has(&p, "e5", "xe9"));
        assert!(!has(&p, "e5", "xi5"));
        // A pawn by one diagonal step only.
        let p = pos("e5=O1 f6=P2 e6=P2", 2);
        assert!(has(&p, "e5", "xf6") && !has(&p, "e5", "xe6"));
        // A CopyCat by the 3/5 move only.
        let p = pos("e5=O1 e8=O2 e6=O2", 2);
        assert!(!has(&p, "e5", "xe6"));
        let p = pos("e5=O1 e8=O2", 2);
        assert!(has(&p, "e5", "xe8"));
        // An Archer: standing off.
        let p = pos("e5=O1 e8=A2", 2);
        assert!(has(&p, "e5", "*e8"));
        // A HarfyBlob by its range.
        let p = pos("e5=O1 e8=H2:3 h5=H2:2", 2);
        assert!(has(&p, "e5", "xe8") && !has(&p, "e5", "xh5"));
        // A Demon by the zone test on the CopyCat's own square (e5 is outside).
        let p = pos("e5=O1 e7=D2 f6=D2", 2);
        assert!(has(&p, "e5", "xe7") && !has(&p, "e5", "xf6"));
        // A Tornado by one segment of two.
        let p = pos("e5=O1 e7=T2", 2);
        assert!(has(&p, "e5", "xe7"));
        // An Echo by its current movement; none with no source.
        let mut p = pos("e5=O1 e9=E2", 2);
        assert!(!has(&p, "e5", "xe9"));
        p.echo.insert(2, Some(Src::of(Kind::Rook, 0)));
        assert!(has(&p, "e5", "xe9"));
        // Kamikaze, Qball, Bouncy, Camel, Jester, King, Cantor.
        for (v, at) in [
            ("Z", "g8"),
            ("C", "f8"),
            ("J", "g7"),
            ("K", "e6"),
            ("%", "g7"),
        ] {
            let p = pos(&format!("e5=O1 {at}={v}2"), 2);
            assert!(has(&p, "e5", &format!("x{at}")), "{v} on {at}");
        }
        let p = pos("e5=O1 e7=P1 e9=!2", 2);
        assert!(has(&p, "e5", "xe9"));
    }

    #[test]
    fn echo_moves_as_the_last_moved_piece() {
        let mut p = pos("e5=E1", 2);
        assert!(dests(&p, "e5").is_empty(), "no source: no move");
        for (src, there, not) in [
            (Kind::Rook, "-e15", "-f6"),
            (Kind::Bishop, "-h8", "-e6"),
            (Kind::Jester, "-g7", "-f6"),
            (Kind::Camel, "-f8", "-e6"),
            (Kind::King, "-f6", "-e7"),
            (Kind::Demon, "-e7", "-e6"),
        ] {
            p.echo.insert(1, Some(Src::of(src, 0)));
            assert!(has(&p, "e5", there), "{src:?}");
            assert!(!has(&p, "e5", not), "{src:?}");
        }
        p.echo.insert(1, Some(Src::of(Kind::HarfyBlob, 2)));
        assert!(has(&p, "e5", "-e7") && !has(&p, "e5", "-e8"));
        // Copying an Archer: stands off.
        let mut p = pos("e5=E1 e8=P2", 2);
        p.echo.insert(1, Some(Src::of(Kind::Archer, 0)));
        assert!(has(&p, "e5", "*e8"));
        // Moving an Echo keeps the source; moving another piece sets it.
        let mut p = pos("e5=E1 a1=R1", 2);
        p.echo.insert(1, Some(Src::of(Kind::King, 0)));
        let m = Mv::new(sq("e5"), sq("e6"));
        apply(&mut p, 1, &Play::Move(m));
        assert_eq!(p.echo_of(1).map(|s| s.kind), Some(Kind::King));
        apply(&mut p, 1, &Play::Move(Mv::new(sq("a1"), sq("a5"))));
        assert_eq!(p.echo_of(1).map(|s| s.kind), Some(Kind::Rook));
        apply(&mut p, 1, &Play::Pass);
        assert_eq!(p.echo_of(1), None);
    }

    /// The Echo on h8 with a source of `kind` (range `hn`) that moved by `vec`: its
    /// destinations under the rules reading and under the vector reading.
    fn echo_both(spec: &str, kind: Kind, hn: u8, vec: (i8, i8)) -> (Vec<String>, Vec<String>) {
        let mut p = pos(&format!("h8=E1 {spec}"), 2);
        p.echo.insert(
            1,
            Some(Src {
                vec: Some(vec),
                ..Src::of(kind, hn)
            }),
        );
        let rules = dests(&p, "h8");
        p.echo_rule = EchoRule::Vector;
        (rules, dests(&p, "h8"))
    }

    #[test]
    fn echo_under_both_readings_for_every_source() {
        // (other pieces, source, range, displacement, under vector, how many under rules)
        type Case<'a> = (&'a str, Kind, u8, (i8, i8), &'a [&'a str], usize);
        let cases: [Case; 21] = [
            ("", Kind::King, 0, (1, 1), &["-i9"], 8),
            ("", Kind::Rook, 0, (0, 5), &["-h13"], 34),
            // The same displacement, blocked: no move.
            ("h10=P1", Kind::Rook, 0, (0, 5), &[], 25),
            ("", Kind::Bishop, 0, (3, 3), &["-k11"], 31),
            ("", Kind::Camel, 0, (1, 3), &["-i11"], 8),
            ("i8=P1", Kind::Jester, 0, (2, 0), &["-j8"], 8),
            ("", Kind::Cantor, 0, (2, 2), &["-j10"], 8),
            ("", Kind::HarfyBlob, 2, (0, -2), &["-h6"], 16),
            // Beyond the copied range.
            ("", Kind::HarfyBlob, 2, (0, -3), &[], 16),
            ("", Kind::Pawn, 0, (0, 1), &["-h9"], 4),
            ("i9=P2", Kind::Pawn, 0, (1, 1), &["xi9"], 5),
            ("", Kind::CopyCat, 0, (3, 0), &["-k8"], 16),
            ("", Kind::Qball, 0, (-6, 8), &["-b16"], 12),
            ("h12=P2", Kind::Archer, 0, (0, 4), &["*h12"], 16),
            ("", Kind::Archer, 0, (1, 3), &["-i11"], 16),
            ("", Kind::Kamikaze, 0, (2, 3), &["-j11"], 144),
            ("h10=P1", Kind::Bouncy, 0, (0, 4), &["-h12"], 1),
            // In its zone the Demon steps one: a two-square displacement is no move.
            ("", Kind::Demon, 0, (1, 0), &["-i8"], 8),
            ("", Kind::Demon, 0, (2, 0), &[], 8),
            ("", Kind::Tornado, 0, (1, 1), &["-i9"], 16),
            ("i9=P2", Kind::Tornado, 0, (1, 2), &["xi9-i10"], 22),
        ];
        for (spec, kind, hn, vec, vector, rules_count) in cases {
            let (rules, by_vector) = echo_both(spec, kind, hn, vec);
            assert_eq!(by_vector, vector, "{kind:?} {vec:?} under vector");
            assert_eq!(rules.len(), rules_count, "{kind:?} under rules: {rules:?}");
            assert!(
                by_vector.iter().all(|d| rules.contains(d)),
                "{kind:?}: the vector reading keeps a subset"
            );
        }
        // A Qball's scratch is copied with its corner's displacement.
        let (_, v) = echo_both("", Kind::Qball, 0, (-7, -7));
        assert_eq!(v, ["#a1"]);
        // The Echo's own lent moves (next to a Cantor) stay under the vector reading.
        let (_, v) = echo_both("g7=%2", Kind::Rook, 0, (0, 5));
        assert!(v.contains(&"-h13".to_string()) && v.contains(&"-j10".to_string()));
    }

    #[test]
    fn the_vector_reading_records_the_move_and_a_copycat_takes_an_echo_by_it() {
        let mut p = pos("a1=K1 c3=R1 t20=K2", 2);
        p.echo_rule = EchoRule::Vector;
        apply(&mut p, 1, &Play::Move(Mv::new(sq("c3"), sq("c8"))));
        assert_eq!(p.echo_of(1).map(Src::text), Some("R+0+5".into()));
        // A stand-off shot records the victim's square.
        let mut p = pos("a1=K1 e5=A1 e9=P2 t20=K2", 2);
        p.echo_rule = EchoRule::Vector;
        let shot = Mv {
            standoff: true,
            ..Mv::cap(sq("e5"), sq("e9"))
        };
        apply(&mut p, 1, &Play::Move(shot));
        assert_eq!(p.echo_of(1).map(Src::text), Some("A+0+4".into()));
        // Under the rules reading no displacement is kept.
        let mut p = pos("a1=K1 c3=R1 t20=K2", 2);
        apply(&mut p, 1, &Play::Move(Mv::new(sq("c3"), sq("c8"))));
        assert_eq!(p.echo_of(1).map(Src::text), Some("R".into()));
        // A CopyCat takes an Echo (a Rook's, +0+5) by that displacement only under vector.
        let mut p = pos("e5=O1 e9=E2 e10=E2", 2);
        p.echo.insert(
            2,
            Some(Src {
                vec: Some((0, 5)),
                ..Src::of(Kind::Rook, 0)
            }),
        );
        assert!(has(&p, "e5", "xe9"));
        p.echo_rule = EchoRule::Vector;
        assert!(!has(&p, "e5", "xe9"));
        let p2 = {
            let mut q = pos("e5=O1 e10=E2", 2);
            q.echo = p.echo.clone();
            q.echo_rule = EchoRule::Vector;
            q
        };
        assert!(has(&p2, "e5", "xe10"));
    }

    #[test]
    fn qball_bounces_and_scratches() {
        // From e5 up-left: d6 … a9 (file a), then reflected up-right.
        let p = pos("e5=Q1", 2);
        let moves = piece_moves(&p, sq("e5"), Mode::Attack, true);
        let via_a9: Vec<String> = moves
            .iter()
            .filter(|m| m.bounce == Some(sq("a9")))
            .map(|m| m.to.name())
            .collect();
        assert_eq!(via_a9.first().map(String::as_str), Some("b10"));
        assert_eq!(via_a9.len(), 10);
        // Down-left from e5: d4 c3 b2 a1: a corner, a scratch.
        assert!(has(&p, "e5", "#a1"));
        // Blocked on the way to the edge: that direction is unavailable.
        let p = pos("e5=Q1 c3=P2", 2);
        assert!(!has(&p, "e5", "#a1"));
        assert!(!has(&p, "e5", "xc3"), "part a never captures");
        // Part b captures on its destination.
        let p = pos("e5=Q1 c11=P2", 2);
        assert!(has(&p, "e5", "xc11"));
        // On an edge it must move to another edge square first.
        let p = pos("a5=Q1", 2);
        assert!(has(&p, "a5", "-q19") && has(&p, "a5", "-f2"));
        assert!(!has(&p, "a5", "-b6"), "part a is not a landing");
    }

    #[test]
    fn archer_moves_in_an_l_and_shoots_standing_off() {
        let p = pos("e5=A1", 2);
        let d = dests(&p, "e5");
        assert!(d.contains(&"-e9".to_string()) && d.contains(&"-f8".to_string()));
        assert!(d.contains(&"-g7".to_string()) && !d.contains(&"-e8".to_string()));
        assert_eq!(d.len(), 16);
        let p = pos("e5=A1 e9=P2 h8=P2 i9=P2", 2);
        assert!(has(&p, "e5", "*e9"));
        assert!(has(&p, "e5", "*h8"));
        assert!(!has(&p, "e5", "*i9"), "4 diagonally is too far");
        assert!(!has(&p, "e5", "xe9"));
        // Blocked shot.
        let p = pos("e5=A1 e7=P1 e9=P2", 2);
        assert!(!has(&p, "e5", "*e9"));
        // One L blocked, the other clear: legal.
        let p = pos("e5=A1 f5=P1", 2);
        assert!(has(&p, "e5", "-f8"));
        let p = pos("e5=A1 f5=P1 e6=P1", 2);
        assert!(!has(&p, "e5", "-f8"));
        // The shot leaves the Archer where it stood.
        let mut after = pos("e5=A1 e9=P2", 2);
        let m = piece_moves(&after, sq("e5"), Mode::Attack, true)
            .into_iter()
            .find(|m| m.standoff)
            .expect("shot");
        apply(&mut after, 1, &Play::Move(m));
        assert!(after.at(sq("e5")).is_some() && after.at(sq("e9")).is_none());
    }

    #[test]
    fn archer_next_to_a_cantor_shoots_rather_than_lands() {
        let p = pos("e5=A1 d4=%2 g7=P2", 2);
        let ms: Vec<Mv> = piece_moves(&p, sq("e5"), Mode::Attack, true)
            .into_iter()
            .filter(|m| m.to == sq("g7"))
            .collect();
        assert_eq!(ms.len(), 1);
        assert!(ms[0].standoff && !ms[0].lent);
        // Beyond its shot (4 diagonally), the lent move captures and lands.
        let p = pos("e5=A1 d4=%2 i9=P2", 2);
        let m = piece_moves(&p, sq("e5"), Mode::Attack, true)
            .into_iter()
            .find(|m| m.to == sq("i9"))
            .expect("lent capture");
        assert!(m.lent && !m.standoff);
    }

    #[test]
    fn kamikaze_l_moves_and_dies_capturing() {
        let p = pos("e5=Z1", 2);
        let d = dests(&p, "e5");
        assert!(d.contains(&"-f6".to_string()) && d.contains(&"-k11".to_string()));
        assert!(!d.contains(&"-e6".to_string()), "no straight move");
        assert!(!d.contains(&"-l12".to_string()));
        let p = pos("e5=Z1 e6=P1 f5=P1", 2);
        assert!(!has(&p, "e5", "-f6"), "both L-paths blocked");
        let mut p = pos("e5=Z1 g8=R2 a1=K1", 2);
        let m = piece_moves(&p, sq("e5"), Mode::Attack, true)
            .into_iter()
            .find(|m| m.capture)
            .expect("capture");
        let done = apply(&mut p, 1, &Play::Move(m));
        assert!(done.kamikaze);
        assert!(p.at(sq("g8")).is_none() && p.at(sq("e5")).is_none());
        assert_eq!(p.hand(1).len(), 1);
    }

    #[test]
    fn bouncy_jumps_one_piece_at_the_midpoint() {
        let p = pos("e5=!1 e7=P1 h5=P2 k5=P2", 2);
        assert!(has(&p, "e5", "-e9"));
        assert!(!has(&p, "e5", "-e8"));
        // Over h5 (3 away) to k5 (6 away): an opposing piece there is captured.
        assert!(has(&p, "e5", "xk5"));
        // Two pieces in the way: no move.
        let p = pos("e5=!1 e6=P1 e7=P1", 2);
        assert!(dests(&p, "e5")
            .iter()
            .all(|d| !d.ends_with('8') || !d.contains('e')));
        // No screen: no move that way; nothing at all alone.
        assert!(dests(&pos("e5=!1", 2), "e5").is_empty());
    }

    #[test]
    fn demon_in_and_out_of_its_zone() {
        let p = pos("h9=D1", 2);
        assert_eq!(dests(&p, "h9").len(), 8);
        assert!(has(&p, "h9", "-i10"));
        let p = pos("c3=D1", 2);
        let d = dests(&p, "c3");
        assert!(d.contains(&"-e5".to_string()) && !d.contains(&"-d4".to_string()));
        let p = pos("c3=D1 d4=P1", 2);
        assert!(!has(&p, "c3", "-e5"), "lame");
    }

    #[test]
    fn demon_promotion_box() {
        // Rooks on g6 and k10 (distance 4) box h8.
        let p = pos("h8=D1 g6=R1 k10=R1", 2);
        assert!(demon_may_promote(&p, sq("h8"), 1));
        // The other diagonal orientation.
        let p = pos("h8=D1 g10=R1 k6=R1", 2);
        assert!(demon_may_promote(&p, sq("h8"), 1));
        // Not strictly inside.
        let p = pos("h8=D1 g8=R1 k10=R1", 2);
        assert!(!demon_may_promote(&p, sq("h8"), 1));
        // Too far apart.
        let p = pos("h8=D1 a1=R1 l12=R1", 2);
        assert!(!demon_may_promote(&p, sq("h8"), 1));
        // Different types, or opposing pieces.
        assert!(!demon_may_promote(
            &pos("h8=D1 g6=R1 k10=B1", 2),
            sq("h8"),
            1
        ));
        assert!(!demon_may_promote(
            &pos("h8=D1 g6=R2 k10=R2", 2),
            sq("h8"),
            1
        ));
        let t = promotion_targets(&pos("h8=D1", 2), 1, true);
        assert!(!t.contains(&Kind::Demon) && !t.contains(&Kind::Pawn) && t.contains(&Kind::King));
    }

    #[test]
    fn tornado_chains_with_the_direction_rule() {
        // e5 takes f6 (a pawn: M = 1), then f7 (a Jester: M = 3), then up to 3 more.
        let p = pos("e5=T1 f6=P2 f7=J2 i7=P2", 2);
        assert!(has(&p, "e5", "xf6"));
        assert!(has(&p, "e5", "xf6xf7"));
        assert!(has(&p, "e5", "xf6xf7xi7"));
        assert!(has(&p, "e5", "xf6xf7-c7"));
        assert!(!has(&p, "e5", "xf6xf7-f10"), "not up twice");
        // After f6 (taken going up-right), not up-right again.
        let p = pos("e5=T1 f6=P2 g7=P2", 2);
        assert!(!has(&p, "e5", "xf6xg7"));
        // Reversal is allowed.
        let p = pos("e5=T1 e6=J2 e3=P2", 2);
        assert!(has(&p, "e5", "xe6xe3"));
        // A King ends the chain.
        let p = pos("e5=T1 e6=K2 e7=P2", 2);
        assert!(has(&p, "e5", "xe6") && !has(&p, "e5", "xe6xe7"));
        // The first segment is two at most.
        let p = pos("e5=T1 e8=P2", 2);
        assert!(!has(&p, "e5", "xe8"));
        // Attacks through a chain, but placement judges the first segment only.
        let p = pos("e5=T1 f6=J2 f9=K2", 2);
        assert!(attacks(&p, sq("e5"), sq("f9"), false));
        assert!(!attacks(&p, sq("e5"), sq("f9"), true));
        // Victims all go to the mover.
        let mut after = pos("e5=T1 f6=P2 f7=J2 a1=K1", 2);
        let m = piece_moves(&after, sq("e5"), Mode::Attack, true)
            .into_iter()
            .find(|m| m.chain.len() == 1 && m.capture)
            .expect("a chain of two");
        apply(&mut after, 1, &Play::Move(m));
        assert_eq!(after.hand(1).len(), 2);
        assert_eq!(after.at(sq("f7")).map(|p| p.kind), Some(Kind::Tornado));
    }

    #[test]
    fn cantor_and_its_aura() {
        let p = pos("e5=%1 e7=P2 g7=P2", 2);
        assert!(has(&p, "e5", "xg7") && !has(&p, "e5", "xe7"));
        assert_eq!(dests(&pos("e5=%1", 2), "e5").len(), 8);
        // A rook next to a Cantor (any owner) may move 1-4 diagonally, jumping.
        let p = pos("e5=R1 d5=%2 f6=P1 h8=P2", 2);
        assert!(has(&p, "e5", "xh8"));
        assert!(has(&p, "e5", "-g7"));
        assert!(!has(&p, "e5", "-j10"));
        // Without the Cantor, not.
        let p = pos("e5=R1 f6=P1 h8=P2", 2);
        assert!(!has(&p, "e5", "xh8"));
        // A Cantor next to a Cantor gains the aura too.
        let p = pos("e5=%1 e6=%2", 2);
        assert!(has(&p, "e5", "-h8"));
    }

    #[test]
    fn check_and_placement_rules() {
        let p = pos("a1=K1 a5=R2", 2);
        assert!(in_check(&p, 1));
        assert!(!in_check(&p, 2));
        let mut p = pos("a1=K1 t20=K2", 2);
        p.give(1, Piece::new(Kind::Rook, 1));
        p.give(1, Piece::new(Kind::Pawn, 1));
        // A rook may not be placed where it attacks t20.
        assert!(placement_problem(&p, 1, Piece::new(Kind::Rook, 1), sq("t15")).is_some());
        assert!(placement_problem(&p, 1, Piece::new(Kind::Rook, 1), sq("s15")).is_none());
        // Pawns only on their files and ranks.
        assert!(placement_problem(&p, 1, Piece::new(Kind::Pawn, 1), sq("e5")).is_some());
        assert!(placement_problem(&p, 1, Piece::new(Kind::Pawn, 1), sq("b5")).is_none());
        // Not held.
        assert!(placement_problem(&p, 1, Piece::new(Kind::Bishop, 1), sq("e5")).is_some());
        // A placed Echo attacks only by a lent move (its source is gone after a placement).
        let mut p = pos("a1=K1 e9=P2 d5=%2", 2);
        p.give(1, Piece::new(Kind::Echo, 1));
        p.echo.insert(1, Some(Src::of(Kind::Rook, 0)));
        assert!(placement_problem(&p, 1, Piece::new(Kind::Echo, 1), sq("e5")).is_none());
        let mut p = pos("a1=K1 h8=P2 d5=%2", 2);
        p.give(1, Piece::new(Kind::Echo, 1));
        assert!(placement_problem(&p, 1, Piece::new(Kind::Echo, 1), sq("e5")).is_some());
    }

    #[test]
    fn a_king_is_not_placed_where_it_is_attacked() {
        let mut p = pos("t20=K2 a10=R2", 2);
        p.give(1, Piece::new(Kind::King, 1));
        let squares: Vec<Sq> = legal_placements(&p, 1)
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        assert!(!squares.contains(&sq("a1")), "on the rook's file");
        assert!(squares.contains(&sq("b1")));
        assert!(
            !squares.contains(&sq("s19")),
            "next to the other King attacks it"
        );
    }

    #[test]
    fn a_move_into_check_is_not_legal_and_pass_not_in_check() {
        let p = pos("a1=K1 b10=R2 t20=K2", 2);
        let plays = legal_plays(&p);
        assert!(plays.contains(&Play::Pass));
        assert!(!plays.contains(&Play::Move(Mv::new(sq("a1"), sq("b2")))));
        assert!(plays.contains(&Play::Move(Mv::new(sq("a1"), sq("a2")))));
        let p = pos("a1=K1 a10=R2 t20=K2", 2);
        let plays = legal_plays(&p);
        assert!(!plays.contains(&Play::Pass));
        assert!(plays.contains(&Play::Surrender));
    }
}
