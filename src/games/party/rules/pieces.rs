//! Each piece's rule as a small named function over a [`Gen`]: slides and leaps, the simple
//! pieces, Harfies, Pawns, Copycats, Q-balls, Archers, Kamikazes, Bouncies, Demons, Tornadoes,
//! the Cantor's lent moves and Echoes, and [`by_rule`] choosing among them (Party rules 3.1,
//! 3.2). Kept apart from the seat-level questions (check, placements, legal plays).

use super::*;

pub(super) fn add(sq: Sq, d: (i32, i32), n: i32) -> Option<Sq> {
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
pub(super) fn leap(g: &Gen, d: (i32, i32), lame: bool, out: &mut Vec<Mv>) {
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
pub(super) fn pawn_defends(g: &Gen) -> bool {
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
pub(super) fn victim_rule(pos: &Position, victim: Piece) -> Option<Option<Src>> {
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
pub(super) fn tornado_reach(victim: Piece) -> i32 {
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

pub(super) fn tornado_from(
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
pub(super) fn echo_filter(pos: &Position, src: Src, out: &mut Vec<Mv>, from: usize) {
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
