//! What the game answers without changing: locks and freezes, legal and planned moves, checks,
//! the draft's turn and pickers, whom a change notifies, board labels, the seating, the
//! acting seat, lock expiries and the kings' summary. Read-only views of the folded state.

use super::*;

impl Game {
    /// Whether a seat is locked by Kung Fu timing at `now`.
    pub fn locked_until(&self, seat: usize, now: Timestamp) -> Option<Timestamp> {
        locked_until(&self.state, &self.settings, &self.away, seat, now)
    }

    /// Why a seat may not move because its board is frozen (KFB rules 1.5: a side there has
    /// no King) and it cannot unfreeze it by dropping a King of its own; `None` when it is not,
    /// before the boards are set up, and after the end.
    pub fn frozen_why(&self, seat: usize) -> Option<String> {
        let st = &self.state;
        if st.winner.is_some() {
            return None;
        }
        let boards = st.boards.as_ref()?;
        let p = st.players.get(seat)?;
        let b = &boards[p.board];
        if !frozen_for(st, &b.pos.rules().catalog, seat) {
            return None;
        }
        let n = p.board + 1;
        Some(if b.pos.royal_count(Side(1 - p.side.0)) == 0 {
            format!(
                "board {n} is frozen: {} has no King on it; nobody moves there until they drop a King of their colour",
                st.players[opponent(b, seat)].user
            )
        } else {
            format!(
                "board {n} is frozen: you have no King on it and hold none of your colour; nobody moves there until you drop one (a teammate who holds it can /give it to you)"
            )
        })
    }

    /// Whether a seat is free to move at `now` (for inactivity counting).
    pub fn is_free(&self, seat: usize, now: Timestamp) -> bool {
        is_free(&self.state, &self.settings, &self.away, seat, now)
    }

    /// The legal moves of a seat at `now`, honouring locks (empty when it may not move), each
    /// with the text [`Game::play`] accepts for it as it is (a pawn drop names its army when
    /// the hand holds pawns of several armies: `P@g6(nutty)`), sorted by text. This is what
    /// `/moves` lists and the `/move` autocomplete suggests.
    pub fn legal_moves(&self, seat: usize, now: Timestamp) -> Vec<(Move, String)> {
        if self.check_may_move(seat, now).is_err() {
            return Vec::new();
        }
        self.planned_moves(seat)
    }

    /// The moves a seat could make on its board in the position as it stands if it were free
    /// to move (locked or waiting for the opening move): the list `/moves` adds to its
    /// refusal, for planning. Empty before the boards are set up and after the end.
    pub fn planned_moves(&self, seat: usize) -> Vec<(Move, String)> {
        let Some(boards) = &self.state.boards else {
            return Vec::new();
        };
        if self.state.winner.is_some() {
            return Vec::new();
        }
        let Some(p) = self.state.players.get(seat) else {
            return Vec::new();
        };
        let b = &boards[p.board];
        let mut pos = b.pos.clone();
        pos.set_turn(p.side);
        let moves = allowed_moves(&mut pos, b, p.side);
        notation::offer(&pos, &moves)
    }

    /// The square of a seat's King when it is in check on its board (for the check-first
    /// line of a refused move).
    pub fn king_in_check(&self, seat: usize) -> Option<String> {
        let boards = self.state.boards.as_ref()?;
        let p = &self.state.players[seat];
        let pos = &boards[p.board].pos;
        if !pos.in_check(p.side) {
            return None;
        }
        let king = *pos.royal_squares(p.side).first()?;
        Some(pos.rules().geometry.name(king))
    }

    /// Whether a seat may move at `now`: why not (the game over, the draft running, the
    /// opening move not made on its board, its Kung Fu lock).
    ///
    /// # Errors
    /// The reason, for the player.
    pub fn check_may_move(&self, seat: usize, now: Timestamp) -> Result<(), Refusal> {
        let st = &self.state;
        if let Some((t, how)) = &st.winner {
            return refuse(format!("the game is over: {} won ({how})", team_name(*t)));
        }
        let Some(boards) = &st.boards else {
            return refuse("the game has not started: the draft is still running (use /pick)");
        };
        let p = &st.players[seat];
        let b = &boards[p.board];
        if seat == b.second && !b.first_moved {
            return refuse(format!(
                "{} moves first on board {}; your first move waits for theirs",
                st.players[b.first].user,
                p.board + 1
            ));
        }
        // A frozen board is said first: no lock's end lets anyone move there.
        if let Some(why) = self.frozen_why(seat) {
            return refuse(why);
        }
        if let Some(until) = locked_until(st, &self.settings, &self.away, seat, now) {
            return refuse(format!(
                "you are locked: you moved last on board {}; you may move again when {} moves or {} ({})",
                p.board + 1,
                st.players[opponent(b, seat)].user,
                stamp(until, Style::Relative),
                stamp(until, Style::Full)
            ));
        }
        Ok(())
    }

    /// The seats that may pick now (KFB rules 1.8): the player who starts the draft, until the
    /// first pick; the replacing team during a hand-over; otherwise the players of the team
    /// on turn who have not picked. Empty once the draft is over.
    pub fn draft_pickers(&self) -> Vec<usize> {
        if self.state.boards.is_some() {
            return Vec::new();
        }
        self.state.draft.pickers()
    }

    /// Who picks next in the draft, in words (`f (team 2) makes the first pick`, `team 2
    /// picks the replacement for b`, `team 1 to pick`); `None` once the draft is over.
    pub fn draft_turn_text(&self) -> Option<String> {
        let draft = &self.state.draft;
        if self.state.boards.is_some() || draft.is_complete() {
            return None;
        }
        if let Some(player) = draft.pending() {
            return Some(format!(
                "{} picks the replacement for {} (/pick for:@{} …)",
                team_name(1 - team_of(player)),
                self.users[player],
                self.users[player]
            ));
        }
        if let Some(first) = draft.first_picker().filter(|_| draft.is_fresh()) {
            return Some(format!(
                "{} ({}) makes the first pick",
                self.users[first],
                team_name(team_of(first))
            ));
        }
        Some(format!("{} to pick", team_name(self.draft_turn_team())))
    }

    /// Refuses when the game has not started (draft running) or is over.
    pub(super) fn check_playing(&self) -> Result<(), Refusal> {
        self.check_in_play()?;
        if self.state.boards.is_none() {
            return refuse("the game has not started yet");
        }
        Ok(())
    }

    /// `\nteam N wins: …` once the game is won, else nothing.
    pub(super) fn winner_line(&self) -> String {
        match &self.state.winner {
            Some((t, how)) => format!("\n{} wins: {how}", team_name(*t)),
            None => String::new(),
        }
    }

    /// The team whose turn it is in the draft (the replacing team during a hand-over).
    pub fn draft_turn_team(&self) -> usize {
        self.state.draft.acting_team().unwrap_or(0)
    }

    /// Who must act now that the draft moved on: the players of the team on turn who may
    /// pick (the whole team when it picks a replacement), or, once the draft is complete, the
    /// player who moves first on each board.
    pub(super) fn turn_notify(&self) -> Option<Notify> {
        let st = &self.state;
        if let Some(boards) = &st.boards {
            let lines = boards.iter().map(|b| {
                Notify::to(
                    [self.users[b.first].clone()],
                    format!(
                        "the draft is complete; you move first on {}",
                        self.board_label(b.first)
                    ),
                )
            });
            return lines.reduce(Notify::and);
        }
        let team = st.draft.acting_team()?;
        let users: Vec<String> = self
            .draft_pickers()
            .into_iter()
            .map(|s| self.users[s].clone())
            .collect();
        let what = match st.draft.pending() {
            Some(p) => format!(
                "your team picks the replacement for {}'s refused choice: /pick for:@{} order color army",
                self.users[p], self.users[p]
            ),
            None if st.draft.is_fresh() => {
                "you make the first pick of the draft: /pick order color army".to_string()
            }
            None => format!(
                "{}'s turn to pick in the draft: /pick order color army",
                team_name(team)
            ),
        };
        Notify::to(users, what).nonempty()
    }

    /// A seat's board, from that seat's side: `board 2 (Nutty vs FIDE)`, the seat's army first.
    pub fn board_label(&self, seat: usize) -> String {
        let st = &self.state;
        let p = &st.players[seat];
        let army = |s: usize| {
            st.players[s].army.map_or("?".to_string(), |a| {
                army_label(self.state.catalog.army(a).code)
            })
        };
        match &st.boards {
            Some(boards) => {
                let opp = opponent(&boards[p.board], seat);
                format!("board {} ({} vs {})", p.board + 1, army(seat), army(opp))
            }
            None => format!("board {}", p.board + 1),
        }
    }

    /// What kings must change hands for a kingless player to play again (KFB rules 1.5): a
    /// player without a king on their board who holds one of their colour must drop it; else
    /// each teammate holding one of that colour must give it to them. (seat that must act, what
    /// to do).
    pub(super) fn king_needs(&self) -> Vec<(usize, String)> {
        let st = &self.state;
        let Some(boards) = &st.boards else {
            return Vec::new();
        };
        if st.winner.is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (seat, p) in st.players.iter().enumerate() {
            let board = p.board + 1;
            let (Some(colour), true) = (p.colour, boards[p.board].pos.royal_count(p.side) == 0)
            else {
                continue;
            };
            let name = COLOUR_NAMES[colour as usize % 3];
            if held_kings(st, &self.state.catalog, seat).contains(&colour) {
                out.push((
                    seat,
                    format!(
                        "drop your {name} king on board {board} to unfreeze it: /move K@<square>"
                    ),
                ));
                continue;
            }
            for mate in (0..6).filter(|&m| m != seat && team_of(m) == team_of(seat)) {
                if held_kings(st, &self.state.catalog, mate).contains(&colour) {
                    out.push((
                        mate,
                        format!(
                            "give your {name} king to {}, who has no king on board {board}: /give to:@{} color:{name}",
                            p.user, p.user
                        ),
                    ));
                }
            }
        }
        out
    }

    /// The king needs that were not there `before` an action, as a notification.
    pub(super) fn new_king_needs(&self, before: &[(usize, String)]) -> Notify {
        self.king_needs()
            .into_iter()
            .filter(|n| !before.contains(n))
            .map(|(seat, what)| Notify::to([self.users[seat].clone()], what))
            .fold(Notify::default(), Notify::and)
    }

    /// Rewrites the draft's `player N` / `team N` (0-based) with user names and team numbers
    /// from 1.
    pub fn humanize(&self, text: &str) -> String {
        humanize(text, &self.users)
    }

    /// A line per board: who plays first and second, colours and armies.
    pub fn seating_text(&self) -> String {
        let Some(boards) = &self.state.boards else {
            return String::new();
        };
        let mut s = String::new();
        for (i, b) in boards.iter().enumerate() {
            let d = |seat: usize| {
                let p = &self.state.players[seat];
                format!(
                    "{} ({}, {})",
                    p.user,
                    p.colour.map_or("?", |c| COLOUR_NAMES[c as usize]),
                    p.army.map_or("?", |a| self.state.catalog.army(a).code)
                )
            };
            s.push_str(&format!(
                "board {}: {} first (bottom) vs {} second (top)\n",
                i + 1,
                d(b.first),
                d(b.second)
            ));
        }
        s
    }

    /// Resolves which seat a user acts for, given an optional board (proxy play, §1.9).
    ///
    /// # Errors
    /// Not seated, no grant, or a bad board number.
    pub fn acting_seat(&self, user: &str, board: Option<usize>) -> Result<usize, Refusal> {
        let own = self.seat_of(user);
        let Some(board) = board else {
            return own.ok_or_else(|| Refusal::Rule("you are not seated in this game".into()));
        };
        if !(1..=3).contains(&board) {
            return refuse("board must be 1, 2 or 3");
        }
        let Some(boards) = &self.state.boards else {
            return refuse("the game has not started yet");
        };
        let b = &boards[board - 1];
        if let Some(s) = own {
            if b.first == s || b.second == s {
                return Ok(s);
            }
        }
        for &seat in &[b.first, b.second] {
            let granted = self
                .state
                .proxies
                .iter()
                .any(|&(proxy, for_p)| for_p == seat && self.users[proxy] == user);
            if granted {
                return Ok(seat);
            }
        }
        refuse(format!(
            "you may act on board {board} only with a proxy grant from an organiser (/proxy grant)"
        ))
    }

    /// Players whose lock expires in `(after, until]` and who can then move.
    pub fn lock_expiries(&self, after: Timestamp, until: Timestamp) -> Vec<(usize, Timestamp)> {
        let st = &self.state;
        if st.boards.is_none() || st.winner.is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (seat, p) in st.players.iter().enumerate() {
            let Some(last) = p.last_move else { continue };
            if p.opponent_moved {
                continue;
            }
            let e = self.away.paused_deadline(last, self.settings.move_limit);
            if e > after && e <= until && !frozen_for(st, &self.state.catalog, seat) {
                out.push((seat, e));
            }
        }
        out.sort_by_key(|&(s, e)| (e, s));
        out
    }

    /// A text summary of held kings per team.
    pub fn kings_summary(&self) -> String {
        let mut parts = Vec::new();
        for (seat, p) in self.state.players.iter().enumerate() {
            let held = held_kings(&self.state, &self.state.catalog, seat);
            if !held.is_empty() {
                let names: Vec<&str> = held.iter().map(|&c| COLOUR_NAMES[c as usize]).collect();
                parts.push(format!("{} holds {}", p.user, names.join(", ")));
            }
        }
        if parts.is_empty() {
            "none held".into()
        } else {
            parts.join("; ")
        }
    }

    /// The catalogue of pieces.
    pub fn catalog(&self) -> &Catalog {
        &self.state.catalog
    }
}
