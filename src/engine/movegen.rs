//! Move generation from the compiled rules: pseudo-legal moves, attacks, legality under the
//! two rule sets, and perft.

use super::geometry::Square;
use super::position::{cell_kind, cell_side, Move, Position, EMPTY, OFF};
use super::rules::{RuleSet, Side};

impl Position {
    /// Whether `sq` is attacked by any piece of side `by`.
    pub fn is_attacked(&self, sq: Square, by: Side) -> bool {
        let rules = &*self.rules;
        let board = &self.board;
        let s = by.index();
        let byb = by.0;
        for l in &rules.attack_leaps[s] {
            let c = board[(sq.0 as i32 - l.off) as usize];
            if c != EMPTY && c != OFF && cell_side(c) == byb && l.kinds & (1 << cell_kind(c)) != 0 {
                return true;
            }
        }
        for r in &rules.attack_rays[s] {
            let mut t = sq.0 as i32 - r.step;
            let mut d = 1u8;
            loop {
                let c = board[t as usize];
                if c == EMPTY {
                    t -= r.step;
                    d = d.saturating_add(1);
                    continue;
                }
                if c != OFF && cell_side(c) == byb {
                    let bit = 1u64 << cell_kind(c);
                    if r.any & bit != 0
                        && r.masks
                            .iter()
                            .any(|&(m, range)| m & bit != 0 && (range == 0 || d <= range))
                    {
                        return true;
                    }
                }
                break;
            }
        }
        false
    }

    /// Whether side `side` has a royal piece under attack by another side.
    pub fn in_check(&self, side: Side) -> bool {
        if self.royals[side.index()] == 0 {
            return false;
        }
        let n = self.rules.sides;
        self.royal_squares(side)
            .into_iter()
            .any(|k| (0..n).any(|o| o != side.0 && self.is_attacked(k, Side(o))))
    }

    fn push_promotions(&self, out: &mut Vec<Move>, from: Square, to: Square, c: u32) {
        let army = super::position::Piece::unpack(c).army;
        for &k in &self.rules.catalog.army(army).promotions {
            out.push(Move::Normal {
                from,
                to,
                promotion: Some(k),
            });
        }
    }

    /// Appends every pseudo-legal move of the side to move (in king capture, these are the
    /// legal moves).
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let rules = &*self.rules;
        let side = self.turn;
        let si = side.index();
        if rules.rule_set == RuleSet::KingCapture && rules.king.is_some() {
            // Frozen board (KFB rules 1.5): if any side lacks a king, nobody moves; the side
            // to move, if kingless, may drop a king of its own colour.
            let own = self.royals[si];
            let others_ok = (0..rules.sides).all(|o| o == side.0 || self.royals[o as usize] > 0);
            if !others_ok {
                return;
            }
            if own == 0 {
                self.king_drops(out);
                return;
            }
        }
        let board = &self.board;
        let sb = side.0;
        let last = rules.last_rank(side);
        let rel = &rules.rel_rank[si];
        for &sq in rules.geometry.squares() {
            let c = board[sq.index()];
            if c == EMPTY || cell_side(c) != sb {
                continue;
            }
            let kind = cell_kind(c);
            let km = &rules.moves[si][kind];
            let is_pawn = rules.catalog.pieces[kind].pawn;
            for l in &km.leaps {
                if l.initial && rel[sq.index()] != 1 {
                    continue;
                }
                let t = sq.0 as i32 + l.off;
                let tc = board[t as usize];
                if tc == OFF {
                    continue;
                }
                if l.lame_n > 0 {
                    let mut m = sq.0 as i32;
                    let mut blocked = false;
                    for _ in 0..l.lame_n {
                        m += l.lame_step;
                        if board[m as usize] != EMPTY {
                            blocked = true;
                            break;
                        }
                    }
                    if blocked {
                        continue;
                    }
                }
                let to = Square(t as u16);
                if tc == EMPTY {
                    if l.quiet {
                        if is_pawn && rel[to.index()] == last {
                            self.push_promotions(out, sq, to, c);
                        } else {
                            out.push(Move::Normal {
                                from: sq,
                                to,
                                promotion: None,
                            });
                        }
                    } else if l.ep {
                        if let Some(ep) = self.ep {
                            if ep.target == to {
                                let v = board[ep.victim.index()];
                                if v != EMPTY && v != OFF && cell_side(v) != sb {
                                    out.push(Move::EnPassant {
                                        from: sq,
                                        to,
                                        victim: ep.victim,
                                    });
                                }
                            }
                        }
                    }
                } else if l.capture && cell_side(tc) != sb {
                    if is_pawn && rel[to.index()] == last {
                        self.push_promotions(out, sq, to, c);
                    } else {
                        out.push(Move::Normal {
                            from: sq,
                            to,
                            promotion: None,
                        });
                    }
                }
            }
            for r in &km.rides {
                let mut t = sq.0 as i32;
                let mut n = 0u8;
                loop {
                    t += r.step;
                    n = n.wrapping_add(1);
                    if r.range != 0 && n > r.range {
                        break;
                    }
                    let tc = board[t as usize];
                    if tc == OFF {
                        break;
                    }
                    let to = Square(t as u16);
                    if tc == EMPTY {
                        if r.quiet {
                            out.push(Move::Normal {
                                from: sq,
                                to,
                                promotion: None,
                            });
                        }
                        continue;
                    }
                    if r.capture && cell_side(tc) != sb {
                        out.push(Move::Normal {
                            from: sq,
                            to,
                            promotion: None,
                        });
                    }
                    break;
                }
            }
        }
        if rules.castling {
            self.castling_moves(out);
        }
        if rules.drops.enabled {
            self.drops(out, false);
        }
    }

    fn castling_moves(&self, out: &mut Vec<Move>) {
        if self.castle_mask == 0 {
            return;
        }
        let rules = &*self.rules;
        let side = self.turn;
        let orthodox = rules.rule_set == RuleSet::Orthodox;
        for (i, r) in self.castle_rights.iter().enumerate() {
            if self.castle_mask & (1 << i) == 0 || r.side != side {
                continue;
            }
            let k = self.board[r.king.index()];
            let c = self.board[r.corner.index()];
            if k == EMPTY || k == OFF || c == EMPTY || c == OFF {
                continue;
            }
            if cell_side(k) != side.0 || cell_side(c) != side.0 {
                continue;
            }
            let diff = r.corner.0 as i32 - r.king.0 as i32;
            let dir = diff.signum();
            let mut t = r.king.0 as i32 + dir;
            let mut clear = true;
            while t != r.corner.0 as i32 {
                if self.board[t as usize] != EMPTY {
                    clear = false;
                    break;
                }
                t += dir;
            }
            if !clear || diff.abs() < 2 {
                continue;
            }
            let king_to = r.king.offset(2 * dir);
            let corner_to = r.king.offset(dir);
            if orthodox {
                let opp = |o: u8| o != side.0;
                let attacked =
                    |sq: Square| (0..rules.sides).any(|o| opp(o) && self.is_attacked(sq, Side(o)));
                if attacked(r.king) || attacked(corner_to) {
                    continue;
                }
            }
            out.push(Move::Castle {
                king_from: r.king,
                king_to,
                corner_from: r.corner,
                corner_to,
            });
        }
    }

    fn king_drops(&self, out: &mut Vec<Move>) {
        if self.rules.drops.enabled {
            self.drops(out, true);
        }
    }

    fn drops(&self, out: &mut Vec<Move>, kings_only: bool) {
        let rules = &*self.rules;
        let side = self.turn;
        let colour = self.colours[side.index()];
        let rel = &rules.rel_rank[side.index()];
        let last = rules.last_rank(side);
        let entries = self.hands[side.index()].entries();
        for (i, &(hp, _)) in entries.iter().enumerate() {
            if hp.colour != colour {
                continue;
            }
            let def = rules.catalog.def(hp.kind);
            // The same piece type from two armies is one drop, except for pawns, whose army
            // decides their promotion.
            let repeated = entries[..i].iter().any(|(q, _)| {
                q.colour == colour
                    && q.kind == hp.kind
                    && q.promoted == hp.promoted
                    && (!def.pawn || q.army == hp.army)
            });
            if repeated {
                continue;
            }
            if kings_only && !def.royal {
                continue;
            }
            for &sq in rules.geometry.squares() {
                if self.board[sq.index()] != EMPTY {
                    continue;
                }
                if def.pawn {
                    let r = rel[sq.index()];
                    if (r == 0 && !rules.drops.pawn_first_rank)
                        || (r == last && !rules.drops.pawn_last_rank)
                    {
                        continue;
                    }
                }
                out.push(Move::Drop { piece: hp, to: sq });
            }
        }
    }

    /// Whether a pseudo-legal move of the side to move is legal (always, under king capture).
    pub fn is_legal_pseudo(&mut self, mv: Move) -> bool {
        if self.rules.rule_set == RuleSet::KingCapture {
            return true;
        }
        let side = self.turn;
        let undo = self.make(mv);
        let ok = !self.in_check(side);
        self.unmake(mv, &undo);
        ok
    }

    /// Writes up to 4 royal squares of `side` into `buf`; returns how many there are.
    fn find_royals(&self, side: Side, buf: &mut [Square; 4]) -> usize {
        let want = self.royals[side.index()] as usize;
        if want == 0 {
            return 0;
        }
        let rules = &*self.rules;
        let mut n = 0;
        for &sq in rules.geometry.squares() {
            let c = self.board[sq.index()];
            if c != EMPTY && cell_side(c) == side.0 && rules.catalog.pieces[cell_kind(c)].royal {
                if n < 4 {
                    buf[n] = sq;
                }
                n += 1;
                if n == want {
                    break;
                }
            }
        }
        n
    }

    fn attacked_by_others(&self, sq: Square, side: Side) -> bool {
        let n = self.rules.sides;
        (0..n).any(|o| o != side.0 && self.is_attacked(sq, Side(o)))
    }

    /// Fills `out` with the legal moves of the side to move.
    pub fn legal_moves_into(&mut self, out: &mut Vec<Move>) {
        out.clear();
        self.pseudo_moves(out);
        if self.rules.rule_set == RuleSet::KingCapture {
            return;
        }
        let side = self.turn;
        let mut kings = [Square(0); 4];
        let nk = self.find_royals(side, &mut kings);
        if nk == 0 {
            return;
        }
        if nk > 1 {
            // Several kings: check each move in full.
            let mut i = 0;
            while i < out.len() {
                if self.is_legal_pseudo(out[i]) {
                    i += 1;
                } else {
                    out.swap_remove(i);
                }
            }
            return;
        }
        let k = kings[0];
        let in_check = self.attacked_by_others(k, side);
        let mut pinned = [Square(0); 16];
        let (np, all_suspect) = if in_check {
            (0, true)
        } else {
            match self.pin_candidates(k, side, &mut pinned) {
                Some(n) => (n, false),
                None => (0, true),
            }
        };
        let pinned = &pinned[..np];
        let mut i = 0;
        while i < out.len() {
            let mv = out[i];
            let (needs_check, king_after) = match mv {
                Move::Normal { from, to, .. } => {
                    if from == k {
                        (true, to)
                    } else {
                        (all_suspect || pinned.contains(&from), k)
                    }
                }
                Move::Drop { .. } => (in_check, k),
                Move::Castle { king_to, .. } => (true, king_to),
                Move::EnPassant { .. } | Move::Pass | Move::Special(_) => (true, k),
            };
            let legal = !needs_check || {
                let undo = self.make(mv);
                let ok = !self.attacked_by_others(king_after, side);
                self.unmake(mv, &undo);
                ok
            };
            if legal {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// Own pieces that stand between the king on `k` and an enemy rider able to reach it
    /// along that line: moving them may expose the king. Returns how many were written.
    fn pin_candidates(&self, k: Square, side: Side, buf: &mut [Square; 16]) -> Option<usize> {
        let rules = &*self.rules;
        let board = &self.board;
        let mut n = 0;
        for o in 0..rules.sides {
            if o == side.0 {
                continue;
            }
            for r in &rules.attack_rays[o as usize] {
                let mut t = k.0 as i32 - r.step;
                let mut d = 1u8;
                let mut candidate: Option<Square> = None;
                loop {
                    let c = board[t as usize];
                    if c == EMPTY {
                        t -= r.step;
                        d = d.saturating_add(1);
                        continue;
                    }
                    if c == OFF {
                        break;
                    }
                    if candidate.is_none() {
                        if cell_side(c) == side.0 {
                            candidate = Some(Square(t as u16));
                            t -= r.step;
                            d = d.saturating_add(1);
                            continue;
                        }
                        break;
                    }
                    if cell_side(c) == o {
                        let bit = 1u64 << cell_kind(c);
                        let reaches = r.any & bit != 0
                            && r.masks
                                .iter()
                                .any(|&(m, range)| m & bit != 0 && (range == 0 || d <= range));
                        if reaches {
                            if let Some(sq) = candidate {
                                if n == buf.len() {
                                    return None;
                                }
                                buf[n] = sq;
                                n += 1;
                            }
                        }
                    }
                    break;
                }
            }
        }
        Some(n)
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        self.legal_moves_into(&mut v);
        v
    }

    /// Counts leaf nodes `depth` plies deep ([`crate::engine::perft`]).
    pub fn perft(&mut self, depth: u32) -> u64 {
        crate::engine::perft::perft(self, depth)
    }

    /// Perft split by first move: each legal move with its count.
    pub fn perft_divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        crate::engine::perft::perft_divide(self, depth)
    }
}

impl crate::engine::perft::Walk for Position {
    type Move = Move;
    type Undo = crate::engine::position::Undo;
    fn legal_into(&mut self, out: &mut Vec<Move>) {
        self.legal_moves_into(out);
    }
    fn play(&mut self, m: Move) -> Self::Undo {
        self.make(m)
    }
    fn unplay(&mut self, m: Move, undo: Self::Undo) {
        self.unmake(m, &undo);
    }
}
