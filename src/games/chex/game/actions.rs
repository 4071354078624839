//! Chex's actions (Chex rules 5.1–5.8; shared rules 7.2, 7.3): a request read and checked
//! against the state (draws, placements, moves and the rest), logged and answered; and the
//! log's own takeback, revert and substitution. Nothing changes when one is refused.

use super::*;

impl Game {
    /// Applies a request by `actor` at `now` (`command` as typed, logged).
    ///
    /// # Errors
    /// A [`Refusal`] saying what is wrong and what would work; nothing changes.
    pub fn apply(
        &mut self,
        actor: &str,
        request: Request,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        let action = match request {
            Request::Draw { square, turn } => self.draw_action(actor, square, turn)?,
            Request::Place { square, turn } => {
                let side = self.check_may_act(actor)?;
                self.place_action(side, None, &square, turn)?
            }
            Request::Move { text, turn } => {
                let side = self.check_may_act(actor)?;
                self.move_action(actor, side, &text, turn)
                    .map_err(|e| self.check_first(side, e))?
            }
            Request::OfferDraw => {
                self.check_in_play()?;
                let side = self.seated(actor)?;
                if let Some(by) = self.state.draw_offer {
                    return refuse(format!(
                        "{} has offered a draw already; answer it with /accept or /decline",
                        self.name(by)
                    ));
                }
                Action::OfferDraw { side }
            }
            Request::AcceptDraw => {
                self.check_in_play()?;
                let side = self.seated(actor)?;
                match self.state.draw_offer {
                    None => return refuse("there is no draw offer to accept (make one with /offer draw)"),
                    Some(by) if by == side => {
                        return refuse("you made this draw offer; your opponent answers it (or withdraw it with /decline)")
                    }
                    Some(_) => Action::AcceptDraw { side },
                }
            }
            Request::DeclineDraw => {
                self.check_in_play()?;
                let side = self.seated(actor)?;
                if self.state.draw_offer.is_none() {
                    return refuse("there is no draw offer to decline");
                }
                Action::DeclineDraw { side }
            }
            Request::Resign => {
                self.check_in_play()?;
                let side = self.seated(actor)?;
                Action::Resign {
                    side,
                    organiser: false,
                }
            }
            Request::OrganiserResign { player } => {
                self.check_in_play()?;
                let player = player.trim().trim_start_matches('@');
                let Some(side) = self.side_of(player) else {
                    return refuse(format!("{player} is not playing in this game"));
                };
                if self.settings.move_limit.is_none() {
                    return refuse("this game has no move limit (move_limit:), so there is no overrun to resign for");
                }
                let due = self.due();
                if due.is_some_and(|(due_side, _)| due_side != side) {
                    return refuse(format!(
                        "{} is not to play; only the player to play can overrun",
                        self.name(side)
                    ));
                }
                overran(&self.name(side), due.map(|(_, at)| at), now, None)?;
                Action::Resign {
                    side,
                    organiser: true,
                }
            }
            Request::Takeback => return self.takeback(actor, now, command),
            Request::Revert {
                to,
                reason,
                entropy,
            } => return self.revert(Reverting::new(to, actor, &reason, now, command), entropy),
            Request::Stack { side, letters } => {
                let mut order = Vec::new();
                for c in letters.chars().filter(|c| !c.is_whitespace()) {
                    match Kind::from_either_case(c) {
                        Some(k) => order.push(k),
                        None => return refuse(format!("`{c}` is not a piece letter")),
                    }
                }
                let mut have = self.state.pos.stacks[side.index()].clone();
                let mut want = order.clone();
                have.sort();
                want.sort();
                if have != want {
                    return refuse(format!(
                        "the letters must be exactly the pieces still in {}'s stack: {}",
                        side.name(),
                        have.iter().map(|k| k.letter()).collect::<String>()
                    ));
                }
                let action = Action::Stack { side, order };
                let mut lines = Vec::new();
                fold(
                    &mut self.state,
                    &self.settings,
                    &self.users,
                    &action,
                    now,
                    None,
                    &mut lines,
                )?;
                self.log.push(actor, now, command, action, false);
                return Ok(Accepted {
                    number: None,
                    text: format!("{}'s stack set", side.name()),
                    notify: Vec::new(),
                });
            }
        };
        self.commit(actor, now, command, action)
    }

    fn draw_action(
        &self,
        actor: &str,
        square: Option<String>,
        turn: Option<u32>,
    ) -> Result<Action, Refusal> {
        let side = self.check_may_act(actor)?;
        let pos = &self.state.pos;
        if let Some(k) = pos.revealed {
            return refuse(format!(
                "you have drawn a {} already: place it with /place square:<sq> (/moves lists the squares)",
                k.name()
            ));
        }
        let Some(&piece) = pos.stacks[side.index()].first() else {
            return refuse("your stack is empty: you must move (/moves lists your moves)");
        };
        self.check_turn(turn)?;
        let square = square.filter(|s| !s.trim().is_empty());
        let at = if pos.count() == 0 {
            // White's first piece goes on the empty board's one square by itself.
            Some(pos.empty_origin)
        } else {
            match (self.settings.draw_mode, square) {
                (DrawMode::Reveal, Some(_)) => {
                    return refuse("this game draws face up: /draw, then /place square:<sq>")
                }
                (DrawMode::Reveal, None) => None,
                (DrawMode::Blind, None) => {
                    return refuse(
                        "this game draws blind: name the square first with /draw square:<sq>",
                    )
                }
                (DrawMode::Blind, Some(t)) => {
                    let sq = self.read_square(&t)?;
                    if !pos.placement_squares().contains(&sq) {
                        return refuse(self.placement_refusal(sq, t.trim()));
                    }
                    Some(sq)
                }
            }
        };
        Ok(Action::Draw {
            side,
            piece,
            square: at,
        })
    }

    /// A placement of the revealed piece (`/place square:c3`, or `/move N@c3` naming the
    /// piece).
    fn place_action(
        &self,
        side: Side,
        named: Option<Kind>,
        square: &str,
        turn: Option<u32>,
    ) -> Result<Action, Refusal> {
        let pos = &self.state.pos;
        let Some(piece) = pos.revealed else {
            return refuse(if pos.stacks[side.index()].is_empty() {
                "you have nothing to place: your stack is empty, so you must move".to_string()
            } else {
                "you have no piece to place: /draw first (or /move draw)".to_string()
            });
        };
        if let Some(k) = named.filter(|&k| k != piece) {
            return refuse(format!(
                "you drew a {}, not a {}: place it with /move {}@<square> or /place square:<square> (/moves lists the squares)",
                piece.name(),
                k.name(),
                piece.letter()
            ));
        }
        self.check_turn(turn)?;
        let sq = self.read_square(square)?;
        if !pos.placement_squares().contains(&sq) {
            return refuse(self.placement_refusal(sq, square.trim()));
        }
        let frame = self.frame();
        let mut after = pos.clone();
        after.place(sq);
        let check = if after.king_en_prise() { "+" } else { "" };
        Ok(Action::Place {
            side,
            piece,
            square: sq,
            notation: format!("{}@{}{check}", piece.letter(), frame.label(sq)),
        })
    }

    /// `/move <text>`: every entry `/moves` offers, exactly as written (`Nb3-d4`, `draw`,
    /// `draw@c3` in blind mode, `N@c3`), and moves typed with a lower-case piece letter or
    /// without the separator.
    fn move_action(
        &self,
        actor: &str,
        side: Side,
        text: &str,
        turn: Option<u32>,
    ) -> Result<Action, Refusal> {
        let t = text.trim();
        let bare = t.trim_end_matches(['+', '#', '!', '?']);
        if bare.eq_ignore_ascii_case("draw") {
            return self.draw_action(actor, None, turn);
        }
        if let Some((head, square)) = bare.split_once('@') {
            if head.eq_ignore_ascii_case("draw") {
                return self.draw_action(actor, Some(square.to_string()), turn);
            }
            let mut letters = head.chars();
            let named = match (letters.next(), letters.next()) {
                (None, _) => None,
                (Some(c), None) => match Kind::from_either_case(c) {
                    Some(k) => Some(k),
                    None => {
                        return refuse(format!(
                            "`{c}` is not a Chex piece (K Q R B N P); write a placement like N@c3"
                        ))
                    }
                },
                _ => {
                    return refuse(format!(
                        "`{t}` does not read as a placement (write it like N@c3)"
                    ))
                }
            };
            return self.place_action(side, named, square, turn);
        }
        if let Some(k) = self.state.pos.revealed {
            return refuse(format!(
                "you drew a {0}: place it first with /move {1}@<square> or /place square:<square> (/moves lists the squares)",
                k.name(),
                k.letter()
            ));
        }
        self.check_turn(turn)?;
        let (mv, notation) = self.resolve_move(side, t)?;
        Ok(Action::Move {
            side,
            from: mv.from,
            to: mv.to,
            notation,
        })
    }

    /// The plays offered to the side to act, as `/moves` lists them: in blind mode a draw
    /// names its square (`draw@c3`).
    pub(super) fn offered(&self) -> Vec<String> {
        self.offered_in(&self.state.pos)
    }

    /// The moves `user` could make in the position as it stands if it were their turn (the
    /// piece the opponent drew is theirs to place, so not counted): the list `/moves` adds to
    /// its refusal off-turn, for planning. Empty for a non-player and after the end.
    pub fn planned_for(&self, user: &str) -> Vec<String> {
        if self.check_in_play().is_err() {
            return Vec::new();
        }
        let Some(side) = self.side_of(user) else {
            return Vec::new();
        };
        if side == self.state.pos.to_move {
            return self.offered();
        }
        let mut pos = self.state.pos.clone();
        pos.to_move = side;
        pos.revealed = None;
        self.offered_in(&pos)
    }

    fn offered_in(&self, pos: &Position) -> Vec<String> {
        let mut v = pos.legal_texts();
        if self.settings.draw_mode == DrawMode::Blind && pos.count() > 0 {
            if let Some(i) = v.iter().position(|m| m == "draw") {
                v.remove(i);
                let frame = self.frame();
                v.extend(
                    pos.placement_squares()
                        .into_iter()
                        .map(|s| format!("draw@{}", frame.label(s))),
                );
                v.sort();
            }
        }
        v
    }

    /// A refusal of a move made while the mover's King could be captured: says so first,
    /// with the legal plays (at most 12, then `…`).
    fn check_first(&self, side: Side, refusal: Refusal) -> Refusal {
        let pos = &self.state.pos;
        let Some(king) = pos.king(side) else {
            return refusal;
        };
        if !pos.can_capture(side.other(), king) {
            return refusal;
        }
        let mut plays = self.offered();
        // The King's own moves first.
        plays.sort_by_key(|m| !m.starts_with('K'));
        let mut list: Vec<String> = plays.iter().take(12).cloned().collect();
        if plays.len() > 12 {
            list.push("…".into());
        }
        Refusal::Rule(format!(
            "your King on {} is in check; legal moves: {}\n{refusal}",
            self.frame().label(king),
            list.join(" ")
        ))
    }

    /// Reads a typed move against the current board; the move and its echo.
    fn resolve_move(&self, side: Side, text: &str) -> Result<(Move, String), Refusal> {
        let t = text.trim();
        if t.contains('=') {
            return refuse("there is no promotion in Chex: a pawn on any rank stays a pawn; write the move without =");
        }
        if matches!(
            t.trim_end_matches(['+', '#']),
            "0-0" | "0-0-0" | "O-O" | "O-O-O"
        ) {
            return refuse("there is no castling in Chex: King and Rook move one at a time");
        }
        let typed = match parse_typed(t) {
            Ok(typed) => typed,
            Err(why) => return Err(self.unread_move(side, t, why)),
        };
        let pos = &self.state.pos;
        let frame = self.frame();
        let from = self.read_square(&typed.from)?;
        let to = self.read_square(&typed.to)?;
        let Some(piece) = pos.at(from) else {
            return refuse(format!("there is no piece on {}", typed.from));
        };
        if piece.side != side {
            return refuse(format!(
                "the {} on {} is not yours",
                piece.kind.name(),
                typed.from
            ));
        }
        if let Some(k) = typed.letter {
            if k != piece.kind {
                return refuse(format!(
                    "the piece on {} is a {}, not a {}",
                    typed.from,
                    piece.kind.name(),
                    k.name()
                ));
            }
        }
        let mv = Move { from, to };
        let legal = pos.moves_from(from);
        if !legal.contains(&mv) {
            let list: Vec<String> = legal.iter().map(|&m| pos.move_text(m, &frame)).collect();
            let moves = if list.is_empty() {
                format!(
                    "the {} on {} has no legal move",
                    piece.kind.name(),
                    typed.from
                )
            } else {
                format!("its legal moves: {}", list.join(" "))
            };
            let mut probe = pos.clone();
            probe.max_board = u32::MAX;
            let why = if pos.reaches(from, to) && pos.breaks_group(mv) {
                format!(
                    "{} would break the group: all pieces in play must stay one group of 8-neighbours",
                    pos.move_text(mv, &frame)
                )
            } else if pos.reaches(from, to) && !probe.breaks_group(mv) {
                format!(
                    "board limit {0}×{0}: {1} would make the board too big",
                    self.settings.max_board,
                    pos.move_text(mv, &frame)
                )
            } else {
                format!(
                    "the {} on {} cannot go to {}",
                    piece.kind.name(),
                    typed.from,
                    typed.to
                )
            };
            return refuse(format!("{why}; {moves}"));
        }
        let mut after = pos.clone();
        let echo = pos.move_text(mv, &frame);
        after.make(mv);
        let check = if after.king_en_prise() { "+" } else { "" };
        Ok((mv, format!("{echo}{check}")))
    }

    /// Why a typed move does not read, and what would: the lower-case squares it meant, or
    /// the long form of a short-algebraic move.
    fn unread_move(&self, side: Side, text: &str, why: String) -> Refusal {
        let fixed = lower_squares(text);
        if fixed != text && parse_typed(&fixed).is_ok() {
            return Refusal::Rule(format!("square letters are lower case: {fixed}"));
        }
        let Some((letter, square)) = short_algebraic(&fixed) else {
            return Refusal::Rule(why);
        };
        let pos = &self.state.pos;
        let frame = self.frame();
        let candidates: Vec<Move> = match frame.parse(&square) {
            Some(to) => {
                let all: Vec<Move> = pos
                    .side_moves(side)
                    .into_iter()
                    .filter(|m| m.to == to)
                    .filter(|m| letter.is_none_or(|k| pos.at(m.from).is_some_and(|p| p.kind == k)))
                    .collect();
                // Without a letter short algebraic means a pawn, if one can go there.
                let pawns: Vec<Move> = all
                    .iter()
                    .copied()
                    .filter(|m| pos.at(m.from).is_some_and(|p| p.kind == Kind::Pawn))
                    .collect();
                if letter.is_none() && !pawns.is_empty() {
                    pawns
                } else {
                    all
                }
            }
            None => Vec::new(),
        };
        match candidates.as_slice() {
            [m] => Refusal::Rule(format!(
                "write the move from-to: {}",
                pos.move_text(*m, &frame)
            )),
            _ => Refusal::Rule("write the move from-to, like e2-e4".into()),
        }
    }

    fn commit(
        &mut self,
        actor: &str,
        now: Timestamp,
        command: &str,
        action: Action,
    ) -> Result<Accepted, Refusal> {
        let offer = matches!(action, Action::OfferDraw { .. });
        let (number, lines) =
            self.record(actor, now, command, action, true, |st, g, a, lines| {
                fold(
                    st,
                    &g.settings,
                    &g.users,
                    a,
                    now,
                    Some(g.next_number()),
                    lines,
                )
            })?;
        let mut reply = self.accepted(number, lines);
        if offer && !self.finished() {
            if let Some(by) = self.state.draw_offer {
                reply.notify = vec![self.user(by.other()).to_string()];
            }
        }
        Ok(reply)
    }

    /// The line saying who acts next and how.
    pub fn turn_line(&self) -> String {
        let st = &self.state;
        match &st.outcome {
            Some(o) => format!(
                "Game over: {}. {}",
                outcome_text(&self.users, o),
                self.seeds_revealed()
            ),
            None => {
                let side = st.pos.to_move;
                let what = match st.pos.revealed {
                    Some(k) => format!("to place the revealed {} (/place square:<sq>)", k.name()),
                    None if st.pos.count() == 0 => "to draw (/draw)".into(),
                    None if st.pos.stacks[side.index()].is_empty() => {
                        "to move (stack empty)".into()
                    }
                    None => "to play (/draw or /move)".into(),
                };
                let offer = match st.draw_offer {
                    Some(by) => format!(" {} offers a draw: /accept or /decline.", self.name(by)),
                    None => String::new(),
                };
                format!(
                    "Board #{} ({}×{}). {} {what}.{offer}",
                    st.board_number,
                    self.frame().width,
                    self.frame().height,
                    self.name(side)
                )
            }
        }
    }

    fn accepted(&self, number: Option<u32>, mut lines: Vec<String>) -> Accepted {
        lines.push(self.turn_line());
        let notify = match self.to_move() {
            Some(s) => vec![self.user(s).to_string()],
            None => Vec::new(),
        };
        Accepted {
            number,
            text: lines.join("\n"),
            notify,
        }
    }

    /// Whether a revert to before action `to` must reshuffle the pieces still face down
    /// (Chex rules 5.5a): it reopens an ended game (whose seed was revealed), or it undoes an
    /// earlier revert that reshuffled (which would bring back a revealed seed's order).
    pub fn revert_reseeds(&self, to: u32) -> bool {
        self.finished()
            || self.log.any_in_effect_from(to, |a| {
                matches!(
                    a,
                    Action::Revert {
                        reseed: Some(_),
                        ..
                    }
                )
            })
    }
}

impl Bookkept for Game {
    type Accepted = Accepted;
    type Refusal = Refusal;

    fn takeback(&mut self, user: &str, now: Timestamp, command: &str) -> Result<Accepted, Refusal> {
        let side = self.seated(user)?;
        let (_, e) = self.log.takeable(user)?;
        if matches!(e.action, Action::Draw { .. }) {
            return refuse(
                "a /draw cannot be taken back: the piece drawn stays revealed and must be placed",
            );
        }
        let was = self.frame();
        let (number, line) = self.take_back(user, now, command, |undone| Action::Takeback {
            side,
            undone,
        })?;
        let mut lines = vec![line];
        if let Some(k) = self.state.pos.revealed {
            lines.push(format!(
                "The revealed {} stays drawn: it must be placed again.",
                k.name()
            ));
        }
        if let Some(l) = relabel_line(&was, &self.frame(), &self.state.pos) {
            lines.push(l);
        }
        Ok(self.accepted(number, lines))
    }

    fn revert(&mut self, by: Reverting<'_>, entropy: u64) -> Result<Accepted, Refusal> {
        let was = self.frame();
        let reopens = self.finished();
        let reseed = self.revert_reseeds(by.to).then(|| {
            let seed = crate::games::drawn_seed(entropy);
            Reseed {
                seed: Some(seed),
                hash: seed_hash(seed),
            }
        });
        let (number, line) = self.revert_logged(&by, |to, reason| Action::Revert {
            to,
            reason,
            reseed: reseed.clone(),
        })?;
        let mut lines = vec![line];
        if let Some(r) = &reseed {
            let why = if reopens {
                "The game is open again; its seed was revealed at the end"
            } else {
                "The order this revert brings back follows a seed revealed at an earlier end"
            };
            lines.push(format!(
                "{why}, so the pieces still face down are reshuffled from a fresh seed. Seed hash (SHA-256 of the seed's decimal text): {}; the seed is revealed when the game ends.",
                r.hash
            ));
        }
        if let Some(l) = relabel_line(&was, &self.frame(), &self.state.pos) {
            lines.push(l);
        }
        Ok(self.accepted(number, lines))
    }

    fn substitute(&mut self, s: crate::layer::log::Substitution<'_>) -> Result<Accepted, Refusal> {
        self.commit(s.actor, s.now, s.raw, Action::Substitute(s.handover))
    }
}
