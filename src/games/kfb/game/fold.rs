//! The fold: one logged action applied to the state (`apply_to`), with the board helpers it
//! uses: allowed moves, locks and freezes, hands and held kings, victory, and seating the
//! boards once the draft completes. Replaying the log goes through here only.

use super::*;

impl Game {
    pub(super) fn apply_to(
        st: &mut State,
        settings: &Settings,
        away: &crate::layer::clock::Away,
        action: &Action,
        now: Timestamp,
    ) -> Result<(), Refusal> {
        let catalog = &st.catalog.clone();
        match action {
            Action::Substitute(h) => {
                if let Some(p) = st.players.get_mut(h.seat) {
                    p.user.clone_from(&h.to);
                    // The incoming player starts afresh: no posts count against them yet.
                    p.counter = 0;
                }
            }
            Action::Pick(outcome) => {
                st.draft.apply(outcome);
                if let Some(seating) = st.draft.seating() {
                    seat_boards(st, catalog, &seating)?;
                }
            }
            Action::Move {
                player,
                notation: text,
                army,
            } => {
                let seat = *player;
                count_posts(st, settings, away, seat, now);
                let army_id = army.as_deref().and_then(|a| catalog.army_by_code(a));
                let (board, side) = (st.players[seat].board, st.players[seat].side);
                let boards = st
                    .boards
                    .as_mut()
                    .ok_or_else(|| Refusal::Rule("not started".into()))?;
                let b = &mut boards[board];
                b.pos.set_turn(side);
                let mv = notation::resolve(&mut b.pos, text, army_id)?;
                let rec = b.pos.play_recorded(mv);
                b.locked_pieces[side.index()].push(rec.piece_id);
                if let Some((_, id)) = rec.corner {
                    b.locked_pieces[side.index()].push(id);
                }
                b.locked_pieces[1 - side.index()].clear();
                if seat == b.first {
                    b.first_moved = true;
                }
                b.last = mv.to().map(|t| (mv.from(), t));
                let opp = opponent(b, seat);
                let mut routed = Vec::new();
                for (_, piece, _) in &rec.captures {
                    let def = catalog.def(piece.kind);
                    let owner = if piece.side == side { seat } else { opp };
                    let colour = st.players[owner].colour.unwrap_or(0);
                    let (kind, promoted_back) = if piece.promoted && settings.promoted_to_pawn {
                        (catalog.pawn().unwrap_or(piece.kind), true)
                    } else {
                        (piece.kind, false)
                    };
                    let hp = HandPiece {
                        kind,
                        colour: Colour(colour),
                        army: piece.army,
                        promoted: piece.promoted && !promoted_back,
                    };
                    let to = if def.royal {
                        seat
                    } else {
                        (0..6)
                            .find(|&s| {
                                team_of(s) == team_of(seat) && st.players[s].colour == Some(colour)
                            })
                            .unwrap_or(seat)
                    };
                    routed.push((to, hp));
                }
                for (to, hp) in routed {
                    add_to_hand(st, to, hp);
                }
                let p = &mut st.players[seat];
                p.last_move = Some(now);
                p.opponent_moved = false;
                p.counter = 0;
                st.players[opp].opponent_moved = true;
                check_victory(st, catalog);
            }
            Action::Give { from, to, colour } => {
                count_posts(st, settings, away, *from, now);
                let king = catalog
                    .king()
                    .ok_or_else(|| Refusal::Rule("no king type".into()))?;
                let hp = held_king_piece(st, *from, king, *colour)
                    .ok_or_else(|| Refusal::Rule("the king is no longer held".into()))?;
                remove_from_hand(st, *from, hp);
                add_to_hand(st, *to, hp);
                check_victory(st, catalog);
            }
            Action::Claim { claimant, inactive } => {
                let king = catalog
                    .king()
                    .ok_or_else(|| Refusal::Rule("no king type".into()))?;
                let (board, side) = (st.players[*inactive].board, st.players[*inactive].side);
                let colour = st.players[*inactive].colour.unwrap_or(0);
                let boards = st
                    .boards
                    .as_mut()
                    .ok_or_else(|| Refusal::Rule("not started".into()))?;
                let pos = &mut boards[board].pos;
                let squares: Vec<_> = pos.royal_squares(side);
                let mut taken = Vec::new();
                for sq in squares {
                    if let Some(p) = pos.piece_at(sq) {
                        pos.put(sq, None);
                        taken.push(HandPiece {
                            kind: king,
                            colour: Colour(colour),
                            army: p.army,
                            promoted: false,
                        });
                    }
                }
                for hp in taken {
                    add_to_hand(st, *claimant, hp);
                }
                check_victory(st, catalog);
            }
            Action::Chat { player } => count_posts(st, settings, away, *player, now),
            Action::Resign { player } => {
                st.winner = Some((
                    1 - team_of(*player),
                    format!("{} resigned", st.players[*player].user),
                ));
            }
            Action::Proxy {
                grant,
                proxy,
                for_player,
            } => {
                if *grant {
                    st.proxies.push((*proxy, *for_player));
                } else {
                    st.proxies.retain(|g| *g != (*proxy, *for_player));
                }
            }
            Action::Takeback { .. } | Action::Revert { .. } => {}
        }
        Ok(())
    }
}

/// An army as a player calls it: `FIDE`, `Clobberers`, `Nutty`, `Rookies`, `Forward`.
pub(super) fn army_label(code: &str) -> String {
    if code == "fide" {
        return "FIDE".to_string();
    }
    let mut c = code.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

pub(super) fn opponent(b: &BoardState, seat: usize) -> usize {
    if b.first == seat {
        b.second
    } else {
        b.first
    }
}

/// The legal moves of `side` on a board minus those of pieces locked by the same-piece rule.
pub(super) fn allowed_moves(pos: &mut Position, b: &BoardState, side: Side) -> Vec<Move> {
    let locked = &b.locked_pieces[side.index()];
    pos.legal_moves()
        .into_iter()
        .filter(|m| match *m {
            Move::Castle {
                king_from,
                corner_from,
                ..
            } => {
                !locked.contains(&pos.piece_id(king_from))
                    && !locked.contains(&pos.piece_id(corner_from))
            }
            _ => m.from().is_none_or(|f| !locked.contains(&pos.piece_id(f))),
        })
        .collect()
}

/// Until when `seat` is locked at `now`: the Kung Fu lock does not run while the game is
/// paused (a player's vacation does not stop it).
pub(super) fn locked_until(
    st: &State,
    settings: &Settings,
    away: &crate::layer::clock::Away,
    seat: usize,
    now: Timestamp,
) -> Option<Timestamp> {
    let p = st.players.get(seat)?;
    let last = p.last_move?;
    if p.opponent_moved {
        return None;
    }
    let until = away.paused_deadline(last, settings.move_limit);
    (now < until).then_some(until)
}

pub(super) fn frozen_for(st: &State, catalog: &Catalog, seat: usize) -> bool {
    let Some(boards) = &st.boards else {
        return true;
    };
    let p = &st.players[seat];
    let pos = &boards[p.board].pos;
    let opp = Side(1 - p.side.0);
    if pos.royal_count(opp) == 0 {
        return true;
    }
    if pos.royal_count(p.side) == 0 {
        let colour = p.colour.unwrap_or(0);
        return !held_kings(st, catalog, seat).contains(&colour);
    }
    false
}

pub(super) fn is_free(
    st: &State,
    settings: &Settings,
    away: &crate::layer::clock::Away,
    seat: usize,
    now: Timestamp,
) -> bool {
    let Some(boards) = &st.boards else {
        return false;
    };
    if st.winner.is_some() {
        return false;
    }
    let p = &st.players[seat];
    let b = &boards[p.board];
    if seat == b.second && !b.first_moved {
        return false;
    }
    locked_until(st, settings, away, seat, now).is_none()
        && !frozen_for(st, &b.pos.rules().catalog, seat)
}

/// A post counts against every other player free to move, but not one away on vacation
/// (shared rules 7.5: no inactivity claim against an away player).
pub(super) fn count_posts(
    st: &mut State,
    settings: &Settings,
    away: &crate::layer::clock::Away,
    poster: usize,
    now: Timestamp,
) {
    let free: Vec<usize> = (0..6)
        .filter(|&s| s != poster && is_free(st, settings, away, s, now))
        .filter(|&s| !away.away_after_start(&st.players[s].user, now))
        .collect();
    for s in free {
        st.players[s].counter += 1;
    }
}

pub(super) fn hand_of(st: &State, seat: usize) -> Option<&crate::engine::Hand> {
    let p = &st.players[seat];
    st.boards.as_ref().map(|b| b[p.board].pos.hand(p.side))
}

pub(super) fn held_kings(st: &State, catalog: &Catalog, seat: usize) -> Vec<u8> {
    let Some(h) = hand_of(st, seat) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (hp, n) in h.entries() {
        if catalog.def(hp.kind).royal {
            for _ in 0..*n {
                out.push(hp.colour.0);
            }
        }
    }
    out
}

pub(super) fn held_king_piece(
    st: &State,
    seat: usize,
    king: crate::engine::Kind,
    colour: u8,
) -> Option<HandPiece> {
    hand_of(st, seat)?
        .entries()
        .iter()
        .find(|(hp, _)| hp.kind == king && hp.colour.0 == colour)
        .map(|(hp, _)| *hp)
}

pub(super) fn add_to_hand(st: &mut State, seat: usize, hp: HandPiece) {
    let (board, side) = (st.players[seat].board, st.players[seat].side);
    if let Some(boards) = st.boards.as_mut() {
        boards[board].pos.hand_mut(side).add(hp);
    }
}

pub(super) fn remove_from_hand(st: &mut State, seat: usize, hp: HandPiece) {
    let (board, side) = (st.players[seat].board, st.players[seat].side);
    if let Some(boards) = st.boards.as_mut() {
        boards[board].pos.hand_mut(side).remove(hp);
    }
}

pub(super) fn check_victory(st: &mut State, catalog: &Catalog) {
    if st.winner.is_some() {
        return;
    }
    let Some(boards) = &st.boards else { return };
    let mut kings = [0usize; 2];
    for b in boards {
        for (_, p) in b.pos.pieces() {
            if catalog.def(p.kind).royal {
                let seat = if p.side == Side(0) { b.first } else { b.second };
                kings[team_of(seat)] += 1;
            }
        }
    }
    for seat in 0..6 {
        kings[team_of(seat)] += held_kings(st, catalog, seat).len();
    }
    if let Some(t) = kings.iter().position(|&k| k == 6) {
        st.winner = Some((t, "all six kings are on its side".into()));
    }
}

/// The rules of a board between two armies (named by them), built once per pair of armies and
/// shared by every board of every game: they are the same for all, and built per board they
/// (each with its own copy of the catalogue and move tables) were most of a loaded game's
/// memory (issue 22).
pub(super) fn board_rules(
    catalog: &Arc<Catalog>,
    name: String,
    a1: ArmyId,
    a2: ArmyId,
) -> Result<Arc<Rules>, Refusal> {
    type Cache = std::sync::Mutex<std::collections::HashMap<String, Arc<Rules>>>;
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    let lock = || {
        cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    if let Some(r) = lock().get(&name) {
        return Ok(r.clone());
    }
    let rules = Rules::new(
        name.clone(),
        (**catalog).clone(),
        Geometry::chess(),
        vec![a1, a2],
        RuleSet::KingCapture,
        true,
        DropRules::KFB,
        CaptureFate::LeaveBoard,
    )
    .map_err(|e| Refusal::Rule(e.to_string()))?;
    let rules = Arc::new(rules);
    lock().insert(name, rules.clone());
    Ok(rules)
}

pub(super) fn seat_boards(
    st: &mut State,
    catalog: &Arc<Catalog>,
    seating: &Seating,
) -> Result<(), Refusal> {
    let mut boards = Vec::new();
    for (i, seat) in seating.boards.iter().enumerate() {
        let (first, second) = (seat.first, seat.second);
        let choice = |s: usize| {
            st.draft
                .choice(s)
                .ok_or_else(|| Refusal::Rule("draft incomplete".into()))
        };
        let (c1, c2) = (choice(first)?, choice(second)?);
        let army = |c: &Choice| {
            catalog
                .army_by_code(c.army.as_str())
                .ok_or_else(|| Refusal::Rule("unknown army".into()))
        };
        let (a1, a2) = (army(&c1)?, army(&c2)?);
        let rules = board_rules(
            catalog,
            format!("kfb-board:{}-{}", c1.army.as_str(), c2.army.as_str()),
            a1,
            a2,
        )?;
        let mut pos = fen::parse(rules.clone(), &rules.start_fen())
            .map_err(|e| Refusal::Rule(e.to_string()))?;
        pos.set_colour(Side(0), Colour(colour_number(c1.colour)));
        pos.set_colour(Side(1), Colour(colour_number(c2.colour)));
        for (seat, c, a, side) in [(first, c1, a1, Side(0)), (second, c2, a2, Side(1))] {
            let p = &mut st.players[seat];
            p.colour = Some(colour_number(c.colour));
            p.army = Some(a);
            p.order = Some(c.order);
            p.board = i;
            p.side = side;
        }
        boards.push(BoardState {
            pos,
            first,
            second,
            first_moved: false,
            locked_pieces: [Vec::new(), Vec::new()],
            last: None,
        });
    }
    st.boards = Some(boards);
    Ok(())
}
